//! Sets of cells as one bit per cell of the torus: 1024 bits, 128 bytes, two cache lines.
//!
//! Move generation keeps its "already seen" sets here (the destinations of one piece, the
//! cells an ant's flood has reached): a test and an insert are a shift and a load or store on
//! one word, the whole set is cleared by a few vector stores, and it sits in two cache lines
//! where a table of per-cell stamps spans sixteen.

use super::grid::{Cell, CELLS};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub, SubAssign};

/// Words of a [`CellSet`].
const WORDS: usize = CELLS / 64;

/// A set of cells: bit `i % 64` of word `i / 64` stands for the cell with index `i`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct CellSet([u64; WORDS]);

impl CellSet {
    /// The set with no members.
    pub const EMPTY: CellSet = CellSet([0; WORDS]);
    /// The set of every cell.
    pub const FULL: CellSet = CellSet([u64::MAX; WORDS]);

    /// The word holding `cell`'s bit and that bit within it.
    #[inline(always)]
    fn slot(cell: Cell) -> (usize, u64) {
        let i = cell.index();
        // The index is below CELLS, so the word index is below WORDS: no bounds check.
        (i / 64, 1 << (i % 64))
    }

    /// The set of one cell.
    #[inline]
    pub fn only(cell: Cell) -> CellSet {
        let mut set = CellSet::EMPTY;
        set.insert(cell);
        set
    }

    /// Whether `cell` is a member.
    #[inline(always)]
    pub fn contains(&self, cell: Cell) -> bool {
        let (word, bit) = CellSet::slot(cell);
        self.0[word] & bit != 0
    }

    /// Adds `cell`; true if it was not a member yet (as `HashSet::insert` says).
    #[inline(always)]
    pub fn insert(&mut self, cell: Cell) -> bool {
        let (word, bit) = CellSet::slot(cell);
        let old = self.0[word];
        self.0[word] = old | bit;
        old & bit == 0
    }

    /// Removes `cell`; true if it was a member.
    #[inline(always)]
    pub fn remove(&mut self, cell: Cell) -> bool {
        let (word, bit) = CellSet::slot(cell);
        let old = self.0[word];
        self.0[word] = old & !bit;
        old & bit != 0
    }

    /// Removes every member.
    #[inline(always)]
    pub fn clear(&mut self) {
        *self = CellSet::EMPTY;
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set has no members.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The members, in index order.
    pub fn iter(&self) -> impl Iterator<Item = Cell> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let bit = bits.trailing_zeros() as usize;
                    // Clears the lowest set bit.
                    bits &= bits - 1;
                    Cell::from_index((i * 64 + bit) as u16)
                })
            })
        })
    }

    /// Combines two sets word by word.
    #[inline(always)]
    fn zip(self, other: CellSet, f: impl Fn(u64, u64) -> u64) -> CellSet {
        CellSet(std::array::from_fn(|i| f(self.0[i], other.0[i])))
    }
}

impl std::fmt::Debug for CellSet {
    /// The members, as a list of cells.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<T: IntoIterator<Item = Cell>>(cells: T) -> CellSet {
        let mut set = CellSet::EMPTY;
        for cell in cells {
            set.insert(cell);
        }
        set
    }
}

impl BitAnd for CellSet {
    type Output = CellSet;

    /// Members of both sets.
    #[inline(always)]
    fn bitand(self, other: CellSet) -> CellSet {
        self.zip(other, |a, b| a & b)
    }
}

impl BitOr for CellSet {
    type Output = CellSet;

    /// Members of either set.
    #[inline(always)]
    fn bitor(self, other: CellSet) -> CellSet {
        self.zip(other, |a, b| a | b)
    }
}

impl Sub for CellSet {
    type Output = CellSet;

    /// Members of the left set that are not in the right one.
    #[inline(always)]
    fn sub(self, other: CellSet) -> CellSet {
        self.zip(other, |a, b| a & !b)
    }
}

impl Not for CellSet {
    type Output = CellSet;

    /// Every cell that is not a member.
    #[inline(always)]
    fn not(self) -> CellSet {
        CellSet(self.0.map(|w| !w))
    }
}

impl BitAndAssign for CellSet {
    /// Keeps the members of `other` only.
    #[inline(always)]
    fn bitand_assign(&mut self, other: CellSet) {
        *self = *self & other;
    }
}

impl BitOrAssign for CellSet {
    /// Adds the members of `other`.
    #[inline(always)]
    fn bitor_assign(&mut self, other: CellSet) {
        *self = *self | other;
    }
}

impl SubAssign for CellSet {
    /// Removes the members of `other`.
    #[inline(always)]
    fn sub_assign(&mut self, other: CellSet) {
        *self = *self - other;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// A few hundred cells spread over the whole torus, corners and word edges included,
    /// from a fixed pseudo-random walk (so a failure repeats).
    fn sample(seed: u64, count: usize) -> Vec<Cell> {
        let mut x = seed;
        let mut cells: Vec<Cell> = [0, 63, 64, 127, 511, 512, 1023].map(Cell::from_index).to_vec();
        for _ in 0..count {
            // xorshift64
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            cells.push(Cell::from_index((x % CELLS as u64) as u16));
        }
        cells
    }

    /// The naive reference: an ordered set of cell indices.
    fn reference(cells: &[Cell]) -> BTreeSet<usize> {
        cells.iter().map(|c| c.index()).collect()
    }

    fn indices(set: &CellSet) -> BTreeSet<usize> {
        set.iter().map(|c| c.index()).collect()
    }

    #[test]
    fn insert_contains_remove_agree_with_a_reference() {
        let mut set = CellSet::EMPTY;
        let mut naive = BTreeSet::new();
        for (i, cell) in sample(1, 600).into_iter().enumerate() {
            if i % 3 == 2 {
                assert_eq!(set.remove(cell), naive.remove(&cell.index()), "{cell:?}");
            } else {
                assert_eq!(set.insert(cell), naive.insert(cell.index()), "{cell:?}");
            }
            assert_eq!(set.len(), naive.len());
        }
        for cell in Cell::all() {
            assert_eq!(set.contains(cell), naive.contains(&cell.index()), "{cell:?}");
        }
        // Iteration is in index order, like the reference's.
        assert!(set.iter().map(|c| c.index()).eq(naive.iter().copied()));
        set.clear();
        assert!(set.is_empty() && set == CellSet::EMPTY);
        assert_eq!(set.len(), 0);
    }

    #[test]
    fn set_operations_agree_with_a_reference() {
        let (a, b) = (sample(2, 300), sample(3, 300));
        let (sa, sb): (CellSet, CellSet) = (a.iter().copied().collect(), b.iter().copied().collect());
        let (ra, rb) = (reference(&a), reference(&b));
        assert_eq!(indices(&(sa & sb)), &ra & &rb);
        assert_eq!(indices(&(sa | sb)), &ra | &rb);
        assert_eq!(indices(&(sa - sb)), &ra - &rb);
        let all: BTreeSet<usize> = (0..CELLS).collect();
        assert_eq!(indices(&!sa), &all - &ra);
        let mut c = sa;
        c |= sb;
        c -= sa & sb;
        c &= !CellSet::only(Cell::from_index(0));
        let mut expected = &(&ra | &rb) - &(&ra & &rb);
        expected.remove(&0);
        assert_eq!(indices(&c), expected);
    }

    #[test]
    fn empty_and_full_are_the_extremes() {
        assert_eq!(CellSet::EMPTY.len(), 0);
        assert_eq!(CellSet::FULL.len(), CELLS);
        assert_eq!(!CellSet::EMPTY, CellSet::FULL);
        assert!(Cell::all().all(|c| CellSet::FULL.contains(c) && !CellSet::EMPTY.contains(c)));
        assert_eq!(CellSet::only(Cell::from_index(700)).iter().collect::<Vec<_>>(), [Cell::from_index(700)]);
    }
}
