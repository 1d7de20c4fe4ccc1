//! MoveStrings: reading every form the reference accepts, and writing the canonical form
//! exactly as Mzinga's `GetMoveString` does.
//!
//! ```text
//! MoveString := "pass" | Piece | Piece " " Piece | Piece " " Sep Piece | Piece " " Piece Sep
//! Sep        := "-" | "/" | "\"
//! ```
//! `X-` is east of X, `X/` north-east, `X\` south-east, `-X` west, `/X` south-west, `\X`
//! north-west; a bare second piece means "on top of it". Piece names are case-insensitive and
//! extra spaces are ignored. A reference to the moving piece itself is resolved against its
//! current cell (nokamute writes `wA1 wA1\`).

use super::grid::{dir, neighbour, Cell, ORIGIN};
use super::piece::Piece;
use super::{Hive, Move, MoveView};

/// Where a MoveString puts the moving piece relative to its reference piece.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Relation {
    /// On top of the reference (`wB1 bQ`).
    Above,
    /// Separator before the reference (`-X`, `/X`, `\X`): west, south-west, north-west.
    Before(u8),
    /// Separator after the reference (`X-`, `X/`, `X\`): east, north-east, south-east.
    After(u8),
}

/// A MoveString as read, before it is resolved against a position.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum MoveText {
    /// `pass`.
    Pass,
    /// A piece, with an optional reference piece (none: the first placement, at the origin).
    Piece {
        /// The piece that moves or is placed.
        piece: Piece,
        /// The reference piece and where the destination lies relative to it.
        reference: Option<(Piece, Relation)>,
    },
}

impl std::fmt::Display for MoveText {
    /// The normalised form Mzinga keeps in its GameString: `piece[ [sep]ref[sep]]`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            MoveText::Pass => f.write_str("pass"),
            MoveText::Piece { piece, reference: None } => write!(f, "{piece}"),
            MoveText::Piece { piece, reference: Some((r, Relation::Above)) } => write!(f, "{piece} {r}"),
            MoveText::Piece { piece, reference: Some((r, Relation::Before(s))) } => {
                write!(f, "{piece} {}{r}", s as char)
            }
            MoveText::Piece { piece, reference: Some((r, Relation::After(s))) } => {
                write!(f, "{piece} {r}{}", s as char)
            }
        }
    }
}

fn is_sep(b: u8) -> bool {
    matches!(b, b'-' | b'/' | b'\\')
}

impl MoveText {
    /// Reads a MoveString the way Mzinga's `TryNormalizeMoveString` does: the first word is the
    /// piece (or `pass`), the second word is an optional separator, a piece name and an optional
    /// separator (not both). Text after a complete MoveString makes it unparsable, as in
    /// Mzinga: `bM wB1-e2e3` is not `bM wB1-`, nor `bS1 -wB1-` `bS1 -wB1`.
    pub fn parse(text: &str) -> Option<MoveText> {
        let b = text.as_bytes();
        let mut i = 0;
        let skip_space = |i: &mut usize| {
            while *i < b.len() && b[*i].is_ascii_whitespace() {
                *i += 1;
            }
        };
        skip_space(&mut i);
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() {
            i += 1;
        }
        let first = &text[start..i];
        if first.eq_ignore_ascii_case("pass") {
            skip_space(&mut i);
            return (i == b.len()).then_some(MoveText::Pass);
        }
        let piece = Piece::parse(first)?;
        skip_space(&mut i);
        if i == b.len() {
            return Some(MoveText::Piece { piece, reference: None });
        }
        let mut before = None;
        if is_sep(b[i]) {
            before = Some(b[i]);
            i += 1;
        }
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() && !is_sep(b[i]) {
            i += 1;
        }
        let reference = Piece::parse(text.get(start..i)?)?;
        let after = if i < b.len() && is_sep(b[i]) { Some(b[i]) } else { None };
        i += usize::from(after.is_some());
        skip_space(&mut i);
        if i < b.len() {
            return None;
        }
        let relation = match (before, after) {
            (Some(_), Some(_)) => return None,
            (Some(s), None) => Relation::Before(s),
            (None, Some(s)) => Relation::After(s),
            (None, None) => Relation::Above,
        };
        Some(MoveText::Piece { piece, reference: Some((reference, relation)) })
    }
}

/// Where a MoveString sends its piece in a given position.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Destination {
    /// The pass move.
    Pass,
    /// A cell, at a height (number of pieces under the piece once there).
    At(Cell, u8),
    /// The reference piece is in hand: the move would put the piece back in hand.
    Hand,
}

impl Hive {
    /// Resolves a MoveString against this position (as Mzinga's `TryParseMove`): relative
    /// destinations are on the ground, a bare reference means on top of that piece, no
    /// reference means the origin.
    pub fn destination(&self, text: MoveText) -> Destination {
        match text {
            MoveText::Pass => Destination::Pass,
            MoveText::Piece { reference: None, .. } => Destination::At(ORIGIN, 0),
            MoveText::Piece { reference: Some((r, relation)), .. } => {
                let Some(cell) = self.position(r) else { return Destination::Hand };
                let d = match relation {
                    Relation::Above => return Destination::At(cell, self.level(r) + 1),
                    Relation::Before(b'-') => dir::W,
                    Relation::Before(b'/') => dir::SW,
                    Relation::Before(_) => dir::NW,
                    Relation::After(b'-') => dir::E,
                    Relation::After(b'/') => dir::NE,
                    Relation::After(_) => dir::SE,
                };
                Destination::At(neighbour(cell, d), 0)
            }
        }
    }

    /// Where `mv` puts its piece: its destination cell and the height it lands at.
    pub fn move_destination(&self, mv: Move) -> Destination {
        match mv.view() {
            MoveView::Pass => Destination::Pass,
            MoveView::Place { to, .. } => Destination::At(to, self.height(to)),
            MoveView::Move { to, .. } => Destination::At(to, self.height(to)),
        }
    }

    /// The canonical MoveString of a legal move, exactly as Mzinga writes it: `pass`; the bare
    /// piece on the first ply; `piece X` when climbing onto X; otherwise, with the moving piece
    /// taken away, the first occupied neighbour of the destination in the order NW, NE, E, SE,
    /// SW, W, as `X\`, `/X`, `-X`, `\X`, `X/`, `X-`.
    pub fn move_string(&self, mv: Move) -> String {
        let (piece, from, to) = match mv.view() {
            MoveView::Pass => return "pass".to_string(),
            MoveView::Place { piece, to } => (piece, None, to),
            MoveView::Move { piece, from, to } => (piece, Some(from), to),
        };
        if self.ply == 0 {
            return piece.to_string();
        }
        if let Some(below) = self.top(to) {
            return format!("{piece} {below}");
        }
        // The top of a cell once the moving piece has left it.
        let top_without = |c: Cell| -> Option<Piece> {
            if Some(c) == from {
                self.below(piece)
            } else {
                self.top(c)
            }
        };
        for d in 0..6 {
            if let Some(r) = top_without(neighbour(to, d)) {
                return match d {
                    dir::NW => format!("{piece} {r}\\"),
                    dir::NE => format!("{piece} /{r}"),
                    dir::E => format!("{piece} -{r}"),
                    dir::SE => format!("{piece} \\{r}"),
                    dir::SW => format!("{piece} {r}/"),
                    _ => format!("{piece} {r}-"),
                };
            }
        }
        // A legal move always touches the hive; keep a readable fallback for anything else.
        piece.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Piece {
        Piece::parse(s).unwrap()
    }

    #[test]
    fn parses_every_form() {
        assert_eq!(MoveText::parse("pass"), Some(MoveText::Pass));
        assert_eq!(MoveText::parse(" PASS "), Some(MoveText::Pass));
        assert_eq!(MoveText::parse("wS1"), Some(MoveText::Piece { piece: p("wS1"), reference: None }));
        let m = MoveText::parse("  WB1   \\wa1 ").unwrap();
        assert_eq!(m, MoveText::Piece { piece: p("wB1"), reference: Some((p("wA1"), Relation::Before(b'\\'))) });
        assert_eq!(m.to_string(), "wB1 \\wA1");
        assert_eq!(MoveText::parse("bG1 wS1/").unwrap().to_string(), "bG1 wS1/");
        assert_eq!(MoveText::parse("wB1 bQ").unwrap().to_string(), "wB1 bQ");
        assert_eq!(MoveText::parse("wA1 wA1\\").unwrap().to_string(), "wA1 wA1\\");
        assert_eq!(MoveText::parse(" wS1  bS1-  ").unwrap().to_string(), "wS1 bS1-");
    }

    #[test]
    fn rejects_garbage() {
        for bad in ["", "   ", "wB1-wA1", "wQ1", "xx", "wS1 -", "wS1 wS9", "wS1 -/wQ", "passx", "wS1 ww"]
            .into_iter()
            // Text after a complete MoveString.
            .chain(["wS1 bS1-xyz", "bM wB1-e2e3", "bS1 -wB1-", "wS1 bS1 x", "wS1 bS1- -", "pass x"])
        {
            assert_eq!(MoveText::parse(bad), None, "{bad:?}");
        }
    }
}
