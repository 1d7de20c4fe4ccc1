//! Pieces, bug types and game types.
//!
//! Every piece has a fixed id in Mzinga's internal order: white `wQ wS1 wS2 wB1 wB2 wG1 wG2
//! wG3 wA1 wA2 wA3 wM wL wP` are 0..14, black the same plus 14.

use crate::game::Color;
use std::fmt;

/// The eight bug types.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Bug {
    /// Queen Bee: one slide.
    Queen,
    /// Spider: exactly three slides.
    Spider,
    /// Beetle: one step, may climb.
    Beetle,
    /// Grasshopper: jumps over a line of pieces.
    Grasshopper,
    /// Soldier Ant: any number of slides.
    Ant,
    /// Mosquito: copies its neighbours.
    Mosquito,
    /// Ladybug: two steps on top, one down.
    Ladybug,
    /// Pillbug: one slide, and throws its neighbours.
    Pillbug,
}

/// One row per bug: everything about a bug type that is data rather than movement. Adding a
/// bug is its movement file, its [`Bug`] variant and its row here (and evaluation weights for
/// the features that count it); piece ids, piece sets, hashing keys and evaluation features
/// all follow from the table.
struct BugRow {
    /// The bug this row describes (rows are in [`Bug`] order: checked below).
    bug: Bug,
    /// The bug's name (`Grasshopper`).
    name: &'static str,
    /// The letter in piece names.
    letter: char,
    /// Pieces of this bug per side.
    count: u8,
    /// True for the expansion bugs a GameTypeString names (`Base+MLP`).
    expansion: bool,
}

/// The bug table, in [`Bug`] order (which is also Mzinga's piece id order).
const BUGS: &[BugRow] = &[
    BugRow { bug: Bug::Queen, name: "Queen", letter: 'Q', count: 1, expansion: false },
    BugRow { bug: Bug::Spider, name: "Spider", letter: 'S', count: 2, expansion: false },
    BugRow { bug: Bug::Beetle, name: "Beetle", letter: 'B', count: 2, expansion: false },
    BugRow { bug: Bug::Grasshopper, name: "Grasshopper", letter: 'G', count: 3, expansion: false },
    BugRow { bug: Bug::Ant, name: "Ant", letter: 'A', count: 3, expansion: false },
    BugRow { bug: Bug::Mosquito, name: "Mosquito", letter: 'M', count: 1, expansion: true },
    BugRow { bug: Bug::Ladybug, name: "Ladybug", letter: 'L', count: 1, expansion: true },
    BugRow { bug: Bug::Pillbug, name: "Pillbug", letter: 'P', count: 1, expansion: true },
];

/// Number of bug types: the rows of the bug table.
pub const BUG_COUNT: usize = BUGS.len();

// The table is in `Bug` order, so that `BUGS[bug as usize]` is the bug's row.
const _: () = {
    let mut i = 0;
    while i < BUG_COUNT {
        assert!(BUGS[i].bug as usize == i, "the bug table is in `Bug` order");
        i += 1;
    }
};
// A game type keeps one bit per bug in a `u8`.
const _: () = assert!(BUG_COUNT <= u8::BITS as usize, "at most 8 bugs fit in a game type's `u8`");

impl Bug {
    /// All bug types, in id order (the bug table's order).
    pub const ALL: [Bug; BUG_COUNT] = {
        let mut all = [Bug::Queen; BUG_COUNT];
        let mut i = 0;
        while i < BUG_COUNT {
            all[i] = BUGS[i].bug;
            i += 1;
        }
        all
    };

    /// The bug's name (`Queen`, `Grasshopper`).
    pub const fn name(self) -> &'static str {
        BUGS[self as usize].name
    }

    /// The letter used in piece names (`Q S B G A M L P`).
    pub fn letter(self) -> char {
        BUGS[self as usize].letter
    }

    /// The bug named by a piece-name letter (either case).
    pub fn from_letter(letter: u8) -> Option<Bug> {
        Bug::ALL.into_iter().find(|b| b.letter() as u8 == letter.to_ascii_uppercase())
    }

    /// The id of this bug's first piece of White's set; the others follow it.
    const fn first_offset(self) -> u8 {
        let mut offset = 0;
        let mut i = 0;
        while i < self as usize {
            offset += BUGS[i].count;
            i += 1;
        }
        offset
    }

    /// How many pieces of this bug each side has.
    pub const fn count(self) -> u8 {
        BUGS[self as usize].count
    }

    /// True for the bugs that only some game types have (Mosquito, Ladybug, Pillbug).
    pub const fn is_expansion(self) -> bool {
        BUGS[self as usize].expansion
    }
}

/// A piece: an id in `0..PIECE_COUNT` (see the module docs).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Piece(pub u8);

/// A piece or none, in one byte: the entries of the board's piece tables (the top of every
/// cell, the piece under every piece, the piece that moved last).
///
/// Not `Option<Piece>`: a `Piece` may hold any `u8`, so the option would need a second byte,
/// doubling the 1024-entry top-of-cell table that move generation reads all the time. This
/// spends id 255, which no piece has, on "none" instead: the same byte the tables always held,
/// with the marker behind a type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[repr(transparent)]
pub(crate) struct MaybePiece(u8);

impl MaybePiece {
    /// No piece.
    pub(crate) const NONE: MaybePiece = MaybePiece(u8::MAX);

    /// The piece, if any.
    #[inline(always)]
    pub(crate) fn get(self) -> Option<Piece> {
        (self != MaybePiece::NONE).then_some(Piece(self.0))
    }

    /// The raw byte (a piece id, or 255 for none), for tables with an entry per value.
    #[inline(always)]
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }

    /// The piece, where the caller knows there is one (an occupied cell's top): no branch, as
    /// for a plain id; a slot without a piece gives an id that is no piece's.
    #[inline(always)]
    pub(crate) fn piece(self) -> Piece {
        debug_assert_ne!(self, MaybePiece::NONE, "an empty slot read as a piece");
        Piece(self.0)
    }
}

impl From<Piece> for MaybePiece {
    #[inline(always)]
    fn from(piece: Piece) -> MaybePiece {
        MaybePiece(piece.0)
    }
}

impl PartialEq<Piece> for MaybePiece {
    /// True when the slot holds exactly `piece` (one byte compare, as for plain ids).
    #[inline(always)]
    fn eq(&self, piece: &Piece) -> bool {
        self.0 == piece.0
    }
}

/// Pieces per colour: the sum of the bug table's counts.
pub const PER_SIDE: u8 = {
    let mut n = 0;
    let mut i = 0;
    while i < BUGS.len() {
        n += BUGS[i].count;
        i += 1;
    }
    n
};

/// Number of pieces in the largest set (Base+MLP, both colours).
pub const PIECE_COUNT: usize = 2 * PER_SIDE as usize;

/// Slots of a [`PieceMap`]: the power of two above every piece id, so that an id masked into
/// it indexes the table with no bounds check (a `PIECE_COUNT`-long table needed one a read).
pub const PIECE_SLOTS: usize = 32;
const _: () = assert!(PIECE_COUNT <= PIECE_SLOTS, "a slot for every piece");

/// A value for every piece, indexed by [`Piece`]: the board's per-piece tables (cell, level,
/// the piece below, links), read in the innermost loops of move generation. As with
/// [`super::grid::CellMap`] and its missing cell, the id of no piece (the empty marker read as a
/// piece) lands on a slot no piece uses rather than panicking: callers rule it out first.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct PieceMap<T>([T; PIECE_SLOTS]);

impl<T: Copy> PieceMap<T> {
    /// A table with `value` for every piece.
    pub const fn new(value: T) -> PieceMap<T> {
        PieceMap([value; PIECE_SLOTS])
    }
}

impl<T> std::ops::Index<Piece> for PieceMap<T> {
    type Output = T;

    #[inline(always)]
    fn index(&self, piece: Piece) -> &T {
        &self.0[piece.0 as usize & (PIECE_SLOTS - 1)]
    }
}

impl<T> std::ops::IndexMut<Piece> for PieceMap<T> {
    #[inline(always)]
    fn index_mut(&mut self, piece: Piece) -> &mut T {
        &mut self.0[piece.0 as usize & (PIECE_SLOTS - 1)]
    }
}

/// Number of piece kinds (colour and bug, see [`Piece::kind`]): what hashing tells apart.
pub const KINDS: usize = 2 * BUG_COUNT;

// Piece sets are `u32` bit sets over the piece ids.
const _: () = assert!(PIECE_COUNT <= u32::BITS as usize, "at most 32 pieces fit in a `u32` piece set");
// A piece id is a `u8`, and 255 is `MaybePiece::NONE`.
const _: () = assert!(PIECE_COUNT < u8::MAX as usize, "piece ids and the empty marker fit in a `u8`");

/// The bug of every piece id of one colour, built from the bug table.
const BUG_OF: [Bug; PER_SIDE as usize] = {
    let mut table = [Bug::Queen; PER_SIDE as usize];
    let (mut id, mut b) = (0, 0);
    while b < BUG_COUNT {
        let mut k = 0;
        while k < BUGS[b].count {
            table[id] = Bug::ALL[b];
            id += 1;
            k += 1;
        }
        b += 1;
    }
    table
};

/// The bug of every piece id of both colours, padded to 32 entries: [`Piece::bug`] reads it
/// with one masked load, where `id % PER_SIDE` cost a multiply and a subtraction on one of the
/// rules' and the evaluation's most frequent questions.
const BUG_OF_ID: [Bug; 32] = {
    let mut table = [Bug::Queen; 32];
    let mut id = 0;
    while id < PIECE_COUNT {
        table[id] = BUG_OF[id % PER_SIDE as usize];
        id += 1;
    }
    table
};

crate::bit_set!(
    /// A set of pieces: piece `id` is bit `id` of a `u32`. The board keeps the pieces of the
    /// game type and the pieces in play as sets; move generation and evaluation combine them.
    PieceSet, PieceSetIter, u32, Piece, PIECE_COUNT,
    |piece| piece.0,
    |id| Piece(id as u8)
);

impl PieceSet {
    /// The pieces of one colour.
    #[inline(always)]
    pub fn of(color: Color) -> PieceSet {
        PieceSet(((1 << PER_SIDE) - 1) << (color.index() as u32 * PER_SIDE as u32))
    }
}

/// The pieces of a colour that have the same bug as the piece before them (`wS2`, `wB2`,
/// `wG2`, `wG3`, `wA2`, `wA3` for White): the pieces that enter play after their predecessor.
/// Built from the bug table, one set per colour.
pub(crate) const SAME_BUG_AS_PREVIOUS: [PieceSet; 2] = {
    let mut white = 0u32;
    let mut id = 1;
    while id < PER_SIDE as usize {
        if BUG_OF[id] as u8 == BUG_OF[id - 1] as u8 {
            white |= 1 << id;
        }
        id += 1;
    }
    [PieceSet(white), PieceSet(white << PER_SIDE)]
};

impl Piece {
    /// The `number`-th (1-based) piece of `bug` for `color`, if it exists.
    pub fn new(color: Color, bug: Bug, number: u8) -> Option<Piece> {
        if number == 0 || number > bug.count() {
            return None;
        }
        Some(Piece(color.index() as u8 * PER_SIDE + bug.first_offset() + number - 1))
    }

    /// The queen of `color`.
    #[inline]
    pub fn queen(color: Color) -> Piece {
        Piece(color.index() as u8 * PER_SIDE)
    }

    /// The piece's colour.
    #[inline(always)]
    pub fn color(self) -> Color {
        if self.0 < PER_SIDE {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The piece's bug type.
    #[inline(always)]
    pub fn bug(self) -> Bug {
        BUG_OF_ID[(self.0 & 31) as usize]
    }

    /// 1-based number among the pieces of the same bug and colour.
    pub fn number(self) -> u8 {
        (self.0 % PER_SIDE) - self.bug().first_offset() + 1
    }

    /// The piece that must be placed before this one (`wS2` needs `wS1`), if any.
    #[inline]
    pub fn predecessor(self) -> Option<Piece> {
        if self.number() > 1 {
            Some(Piece(self.0 - 1))
        } else {
            None
        }
    }

    /// Colour and bug as one index in `0..KINDS`, for tables that do not tell same-type
    /// pieces apart (hashing).
    #[inline(always)]
    pub fn kind(self) -> usize {
        self.color().index() * BUG_COUNT + self.bug() as usize
    }

    /// Iterates over all pieces in id order.
    pub fn all() -> impl Iterator<Item = Piece> {
        (0..PIECE_COUNT as u8).map(Piece)
    }

    /// Parses a piece name such as `wS1`, `bQ` (case-insensitive).
    pub fn parse(s: &str) -> Option<Piece> {
        let b = s.as_bytes();
        if b.len() < 2 || b.len() > 3 {
            return None;
        }
        let color = match b[0].to_ascii_lowercase() {
            b'w' => Color::White,
            b'b' => Color::Black,
            _ => return None,
        };
        let bug = Bug::from_letter(b[1])?;
        match (bug.count(), b.get(2)) {
            // Singletons carry no number (`wQ1` is not a piece name).
            (1, None) => Piece::new(color, bug, 1),
            (n, Some(&digit)) if n > 1 && digit.is_ascii_digit() => Piece::new(color, bug, digit - b'0'),
            _ => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = if self.color() == Color::White { 'w' } else { 'b' };
        let bug = self.bug();
        if bug.count() == 1 {
            write!(f, "{c}{}", bug.letter())
        } else {
            write!(f, "{c}{}{}", bug.letter(), self.number())
        }
    }
}

/// Which bugs a game uses: a set with one bit per [`Bug`]. Every game has the base bugs; the
/// expansion bugs are named in the GameTypeString (`Base+MLP`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GameType(u8);

impl GameType {
    /// The base game.
    pub const BASE: GameType = GameType::with(&[]);
    /// All three expansions.
    pub const MLP: GameType = GameType::with(&[Bug::Mosquito, Bug::Ladybug, Bug::Pillbug]);

    /// The base game plus the given expansion bugs.
    pub const fn with(expansions: &[Bug]) -> GameType {
        let mut bits = 0;
        let mut i = 0;
        while i < Bug::ALL.len() {
            if !Bug::ALL[i].is_expansion() {
                bits |= 1 << i;
            }
            i += 1;
        }
        let mut i = 0;
        while i < expansions.len() {
            bits |= 1 << expansions[i] as u8;
            i += 1;
        }
        GameType(bits)
    }

    /// The expansion bugs, in [`Bug`] order.
    pub fn expansions() -> impl Iterator<Item = Bug> {
        Bug::ALL.into_iter().filter(|b| b.is_expansion())
    }

    /// All game types, in the reference's order: by number of expansions, then in bug order
    /// (`Base`, `Base+M`, `Base+L`, `Base+P`, `Base+ML`, …, `Base+MLP`).
    pub fn all() -> Vec<GameType> {
        let bugs: Vec<Bug> = GameType::expansions().collect();
        let mut subsets: Vec<Vec<Bug>> = (0..1u32 << bugs.len())
            .map(|mask| bugs.iter().enumerate().filter(|(i, _)| mask & 1 << i != 0).map(|(_, &b)| b).collect())
            .collect();
        // Within one size, subsets in lexicographic bug order, as Mzinga lists them.
        subsets.sort_by_key(|set| (set.len(), set.iter().map(|&b| b as u8).collect::<Vec<_>>()));
        subsets.iter().map(|set| GameType::with(set)).collect()
    }

    /// Whether pieces of `bug` take part.
    #[inline]
    pub fn has_bug(self, bug: Bug) -> bool {
        self.0 & 1 << bug as u8 != 0
    }

    /// The pieces of this game type.
    pub fn pieces(self) -> PieceSet {
        Piece::all().filter(|p| self.has_bug(p.bug())).collect()
    }

    /// Parses a GameTypeString. Exactly the reference's forms are accepted (`Base`, `Base+M`,
    /// …, `Base+MLP`: case-sensitive, letters in M, L, P order), as Mzinga does; other
    /// spellings such as `Base+LPM` or `base` are rejected so that a GameString we accept is
    /// one every other UHP tool accepts too.
    pub fn parse(s: &str) -> Option<GameType> {
        GameType::all().into_iter().find(|t| t.to_string() == s)
    }
}

impl fmt::Display for GameType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Base")?;
        let mut expansions = GameType::expansions().filter(|&b| self.has_bug(b)).peekable();
        if expansions.peek().is_some() {
            f.write_str("+")?;
        }
        expansions.try_for_each(|b| write!(f, "{}", b.letter()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for p in Piece::all() {
            assert_eq!(Piece::parse(&p.to_string()), Some(p));
        }
        assert_eq!(
            Piece::all().map(|p| p.to_string()).collect::<Vec<_>>()[..14].join(" "),
            "wQ wS1 wS2 wB1 wB2 wG1 wG2 wG3 wA1 wA2 wA3 wM wL wP"
        );
        assert_eq!(Piece::parse("WB1"), Piece::new(Color::White, Bug::Beetle, 1));
        for bad in ["wQ1", "wM1", "wS3", "wS0", "wA4", "xQ", "w", "wS12", "bZ1", ""] {
            assert_eq!(Piece::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn ids_kinds_and_masks_follow_the_bug_table() {
        assert_eq!(Bug::ALL.map(Bug::letter).iter().collect::<String>(), "QSBGAMLP");
        assert_eq!((PER_SIDE, PIECE_COUNT, KINDS), (14, 28, 16));
        // A kind per colour and bug: same-type pieces share it, and every kind is used.
        let mut seen = [false; KINDS];
        for p in Piece::all() {
            let kind = p.kind();
            seen[kind] = true;
            assert_eq!(kind, p.color().index() * Bug::ALL.len() + p.bug() as usize, "{p}");
            for q in Piece::all() {
                assert_eq!(q.kind() == kind, (q.color(), q.bug()) == (p.color(), p.bug()), "{p} {q}");
            }
        }
        assert!(seen.iter().all(|&s| s));
        // The pieces that follow a same-bug predecessor: S2, B2, G2, G3, A2, A3 of each colour.
        let white = (1 << 2) | (1 << 4) | (1 << 6) | (1 << 7) | (1 << 9) | (1 << 10);
        assert_eq!(SAME_BUG_AS_PREVIOUS.map(PieceSet::bits), [white, white << 14]);
        for p in Piece::all() {
            assert_eq!(SAME_BUG_AS_PREVIOUS[p.color().index()].contains(p), p.predecessor().is_some(), "{p}");
        }
    }

    #[test]
    fn piece_sets_are_sets() {
        let p = |name: &str| Piece::parse(name).expect("test piece");
        let a: PieceSet = [p("bQ"), p("wS1"), p("wQ")].into_iter().collect();
        let b = PieceSet::from(p("wS1")) | PieceSet::only(p("bP"));
        // Members come out in id order, whatever order they went in.
        assert_eq!(a.iter().map(|q| q.to_string()).collect::<Vec<_>>(), ["wQ", "wS1", "bQ"]);
        assert_eq!(a.first(), Some(p("wQ")));
        assert_eq!((a.len(), b.len(), PieceSet::EMPTY.len(), PieceSet::FULL.len()), (3, 2, 0, PIECE_COUNT));
        assert_eq!((a & b).iter().collect::<Vec<_>>(), [p("wS1")]);
        assert_eq!((a | b).len(), 4);
        assert_eq!((a ^ b).iter().collect::<Vec<_>>(), [p("wQ"), p("bQ"), p("bP")]);
        assert_eq!((a - b).iter().collect::<Vec<_>>(), [p("wQ"), p("bQ")]);
        // The complement stays among the pieces.
        assert_eq!((!a).len(), PIECE_COUNT - 3);
        assert_eq!(!PieceSet::EMPTY, PieceSet::FULL);
        assert!((!a & a).is_empty() && !a.is_empty());
        let mut c = a;
        c.insert(p("bA3"));
        c.insert(p("bA3"));
        c.remove(p("wQ"));
        c.remove(p("wG1"));
        assert_eq!(format!("{c:?}"), "{Piece(1), Piece(14), Piece(24)}");
        assert!(c.contains(p("bA3")) && !c.contains(p("wQ")));
        c -= b;
        c |= PieceSet::only(p("wM"));
        c &= !PieceSet::only(p("bQ"));
        c ^= PieceSet::only(p("wL"));
        assert_eq!(c.iter().map(|q| q.to_string()).collect::<Vec<_>>(), ["wM", "wL", "bA3"]);
        assert_eq!(c.iter().len(), 3);
        assert_eq!(PieceSet::of(Color::White) | PieceSet::of(Color::Black), PieceSet::FULL);
        assert!(PieceSet::of(Color::Black).iter().all(|q| q.color() == Color::Black));
        assert_eq!(PieceSet::of(Color::White).len(), PER_SIDE as usize);
    }

    #[test]
    fn game_types() {
        let names: Vec<String> = GameType::all().iter().map(|t| t.to_string()).collect();
        assert_eq!(names, ["Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP"]);
        for n in &names {
            assert_eq!(GameType::parse(n).map(|t| t.to_string()).as_deref(), Some(n.as_str()));
        }
        for bad in ["base", "Base+LPM", "Base+LM", "Base+", "Base+X", "Base+MM", ""] {
            assert_eq!(GameType::parse(bad), None, "{bad}");
        }
        assert_eq!(GameType::BASE.pieces().len(), 22);
        assert_eq!(GameType::MLP.pieces(), PieceSet::FULL);
    }
}
