//! Sets of small things as bits of one integer (the pieces of a Hive position, the hexes of an
//! Intellector board), in the manner of cozy-chess's `BitBoard`: set operators, membership and
//! iteration in index order, each a few instructions on the integer.
//!
//! [`bit_set!`] writes the type once for every game: the games say only what an element is and
//! how many there are.

/// Defines a Copy bit-set newtype over an unsigned integer, with its iterator.
///
/// `bit_set!(Name, Iter, u32, Element, LEN, |e| index_of_e, |i| element_at_i)` makes `Name`, a
/// set of at most `LEN` elements, where element `e` is bit `index_of_e` (below `LEN`), and
/// `Iter`, which yields the members in index order. The complement (`!`) stays within the
/// `LEN` elements; `a - b` is the members of `a` not in `b`.
#[macro_export]
macro_rules! bit_set {
    (
        $(#[$meta:meta])*
        $name:ident, $iter:ident, $bits:ty, $element:ty, $len:expr,
        |$e:ident| $index:expr,
        |$i:ident| $from_index:expr
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
        #[repr(transparent)]
        pub struct $name($bits);

        // Every element needs its own bit.
        const _: () = assert!(($len) as u32 <= <$bits>::BITS, "the set's elements fit in its integer");

        impl $name {
            /// The lowest bit, shifted to an element's place.
            const ONE: $bits = 1;

            /// The set with no members.
            pub const EMPTY: $name = $name(0);
            /// The set of every element.
            pub const FULL: $name =
                $name(if ($len) as u32 == <$bits>::BITS { <$bits>::MAX } else { ($name::ONE << ($len)) - 1 });

            /// The set whose members are the set bits of `bits` (which must be below the
            /// element count): for tables built at compile time and bit tricks.
            #[inline(always)]
            pub const fn from_bits(bits: $bits) -> $name {
                $name(bits)
            }

            /// The members as bits of the integer.
            #[inline(always)]
            pub const fn bits(self) -> $bits {
                self.0
            }

            /// The set of one element.
            #[inline(always)]
            pub const fn only($e: $element) -> $name {
                $name($name::ONE << ($index))
            }

            /// Whether `element` is a member.
            #[inline(always)]
            pub const fn contains(self, $e: $element) -> bool {
                self.0 & $name::ONE << ($index) != 0
            }

            /// Adds `element` (no change if it is a member).
            #[inline(always)]
            pub const fn insert(&mut self, $e: $element) {
                self.0 |= $name::ONE << ($index);
            }

            /// Removes `element` (no change if it is not a member).
            #[inline(always)]
            pub const fn remove(&mut self, $e: $element) {
                self.0 &= !($name::ONE << ($index));
            }

            /// Number of members.
            #[inline(always)]
            pub const fn len(self) -> usize {
                self.0.count_ones() as usize
            }

            /// Whether the set has no members.
            #[inline(always)]
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }

            /// The member with the lowest index, if any.
            #[inline(always)]
            pub fn first(self) -> Option<$element> {
                self.iter().next()
            }

            /// The members, in index order.
            #[inline(always)]
            pub fn iter(self) -> $iter {
                $iter(self.0)
            }
        }

        /// The members of a set, in index order.
        #[derive(Clone, Debug)]
        pub struct $iter($bits);

        impl Iterator for $iter {
            type Item = $element;

            #[inline(always)]
            fn next(&mut self) -> Option<$element> {
                if self.0 == 0 {
                    return None;
                }
                let $i = self.0.trailing_zeros() as usize;
                // Clears the lowest set bit.
                self.0 &= self.0 - 1;
                Some($from_index)
            }

            #[inline]
            fn size_hint(&self) -> (usize, Option<usize>) {
                let n = self.0.count_ones() as usize;
                (n, Some(n))
            }
        }

        impl ExactSizeIterator for $iter {}

        impl IntoIterator for $name {
            type Item = $element;
            type IntoIter = $iter;

            #[inline(always)]
            fn into_iter(self) -> $iter {
                self.iter()
            }
        }

        impl FromIterator<$element> for $name {
            fn from_iter<T: IntoIterator<Item = $element>>(elements: T) -> $name {
                let mut set = $name::EMPTY;
                for element in elements {
                    set.insert(element);
                }
                set
            }
        }

        impl From<$element> for $name {
            #[inline(always)]
            fn from(element: $element) -> $name {
                $name::only(element)
            }
        }

        impl std::fmt::Debug for $name {
            /// The members, as a list.
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_set().entries(self.iter()).finish()
            }
        }

        $crate::bit_set!(@operator $name, BitAnd, bitand, BitAndAssign, bitand_assign, &, "Members of both sets.");
        $crate::bit_set!(@operator $name, BitOr, bitor, BitOrAssign, bitor_assign, |, "Members of either set.");
        $crate::bit_set!(@operator $name, BitXor, bitxor, BitXorAssign, bitxor_assign, ^, "Members of exactly one of the sets.");

        impl std::ops::Sub for $name {
            type Output = $name;

            /// Members of the left set that are not in the right one.
            #[inline(always)]
            fn sub(self, other: $name) -> $name {
                $name(self.0 & !other.0)
            }
        }

        impl std::ops::SubAssign for $name {
            /// Removes the members of `other`.
            #[inline(always)]
            fn sub_assign(&mut self, other: $name) {
                self.0 &= !other.0;
            }
        }

        impl std::ops::Not for $name {
            type Output = $name;

            /// Every element that is not a member (of the set's elements only).
            #[inline(always)]
            fn not(self) -> $name {
                $name(!self.0 & $name::FULL.0)
            }
        }
    };
    (@operator $name:ident, $trait:ident, $method:ident, $assign:ident, $assign_method:ident, $op:tt, $doc:literal) => {
        impl std::ops::$trait for $name {
            type Output = $name;

            #[doc = $doc]
            #[inline(always)]
            fn $method(self, other: $name) -> $name {
                $name(self.0 $op other.0)
            }
        }

        impl std::ops::$assign for $name {
            #[doc = $doc]
            #[inline(always)]
            fn $assign_method(&mut self, other: $name) {
                self.0 = self.0 $op other.0;
            }
        }
    };
}
