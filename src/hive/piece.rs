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

impl Bug {
    /// All bug types, in id order.
    pub const ALL: [Bug; 8] =
        [Bug::Queen, Bug::Spider, Bug::Beetle, Bug::Grasshopper, Bug::Ant, Bug::Mosquito, Bug::Ladybug, Bug::Pillbug];

    /// The letter used in piece names (`Q S B G A M L P`).
    pub fn letter(self) -> char {
        b"QSBGAMLP"[self as usize] as char
    }

    /// The id of this bug's first piece of White's set; the others follow it.
    const fn first_offset(self) -> u8 {
        [0, 1, 3, 5, 8, 11, 12, 13][self as usize]
    }

    /// How many pieces of this bug each side has.
    pub const fn count(self) -> u8 {
        [1, 2, 2, 3, 3, 1, 1, 1][self as usize]
    }
}

/// A piece: an id in `0..28` (see the module docs).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Piece(pub u8);

/// Number of pieces in the largest set (Base+MLP, both colours).
pub const PIECE_COUNT: usize = 28;

/// Pieces per colour.
pub const PER_SIDE: u8 = 14;

const BUG_OF: [Bug; 14] = [
    Bug::Queen,
    Bug::Spider,
    Bug::Spider,
    Bug::Beetle,
    Bug::Beetle,
    Bug::Grasshopper,
    Bug::Grasshopper,
    Bug::Grasshopper,
    Bug::Ant,
    Bug::Ant,
    Bug::Ant,
    Bug::Mosquito,
    Bug::Ladybug,
    Bug::Pillbug,
];

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
        BUG_OF[(self.0 % PER_SIDE) as usize]
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

    /// Colour and bug as one index in `0..16`, for tables that do not tell same-type pieces
    /// apart (hashing).
    #[inline(always)]
    pub fn kind(self) -> usize {
        self.color().index() * 8 + self.bug() as usize
    }

    /// Iterates over all 28 pieces in id order.
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
        let bug = match b[1].to_ascii_uppercase() {
            b'Q' => Bug::Queen,
            b'S' => Bug::Spider,
            b'B' => Bug::Beetle,
            b'G' => Bug::Grasshopper,
            b'A' => Bug::Ant,
            b'M' => Bug::Mosquito,
            b'L' => Bug::Ladybug,
            b'P' => Bug::Pillbug,
            _ => return None,
        };
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

/// Which expansion pieces a game uses.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GameType {
    /// Mosquito enabled.
    pub mosquito: bool,
    /// Ladybug enabled.
    pub ladybug: bool,
    /// Pillbug enabled.
    pub pillbug: bool,
}

impl GameType {
    /// The base game.
    pub const BASE: GameType = GameType { mosquito: false, ladybug: false, pillbug: false };
    /// All three expansions.
    pub const MLP: GameType = GameType { mosquito: true, ladybug: true, pillbug: true };

    /// All eight game types, in the reference's order.
    pub fn all() -> [GameType; 8] {
        let t = |m, l, p| GameType { mosquito: m, ladybug: l, pillbug: p };
        [
            t(false, false, false),
            t(true, false, false),
            t(false, true, false),
            t(false, false, true),
            t(true, true, false),
            t(true, false, true),
            t(false, true, true),
            t(true, true, true),
        ]
    }

    /// Whether pieces of `bug` take part.
    #[inline]
    pub fn has_bug(self, bug: Bug) -> bool {
        match bug {
            Bug::Mosquito => self.mosquito,
            Bug::Ladybug => self.ladybug,
            Bug::Pillbug => self.pillbug,
            _ => true,
        }
    }

    /// Bit `id` set for every enabled piece.
    pub fn piece_mask(self) -> u32 {
        Piece::all().filter(|p| self.has_bug(p.bug())).fold(0, |m, p| m | 1 << p.0)
    }

    /// Parses a GameTypeString. Exactly the reference's eight forms are accepted
    /// (`Base`, `Base+M`, …, `Base+MLP`: case-sensitive, letters in M, L, P order), as Mzinga
    /// does; other spellings such as `Base+LPM` or `base` are rejected so that a GameString we
    /// accept is one every other UHP tool accepts too.
    pub fn parse(s: &str) -> Option<GameType> {
        GameType::all().into_iter().find(|t| t.to_string() == s)
    }
}

impl fmt::Display for GameType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Base")?;
        if self.mosquito || self.ladybug || self.pillbug {
            f.write_str("+")?;
            for (on, letter) in [(self.mosquito, "M"), (self.ladybug, "L"), (self.pillbug, "P")] {
                if on {
                    f.write_str(letter)?;
                }
            }
        }
        Ok(())
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
    fn game_types() {
        let names: Vec<String> = GameType::all().iter().map(|t| t.to_string()).collect();
        assert_eq!(names, ["Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP"]);
        for n in &names {
            assert_eq!(GameType::parse(n).map(|t| t.to_string()).as_deref(), Some(n.as_str()));
        }
        for bad in ["base", "Base+LPM", "Base+LM", "Base+", "Base+X", "Base+MM", ""] {
            assert_eq!(GameType::parse(bad), None, "{bad}");
        }
        assert_eq!(GameType::BASE.piece_mask().count_ones(), 22);
        assert_eq!(GameType::MLP.piece_mask().count_ones(), 28);
    }
}
