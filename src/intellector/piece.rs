//! Piece types and pieces, with their letters in every notation.

use crate::game::Color;
use std::fmt;

/// The six piece types.
///
/// The discriminants (1..=6) are the low bits of a square's code; 0 is an empty square.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    /// Steps to one of its three forward neighbours; promotes on the enemy base line.
    Progressor = 1,
    /// Slides laterally any distance.
    Dominator = 2,
    /// Slides radially any distance (across vertices, staying on one hex colour).
    Aggressor = 3,
    /// Steps one hex laterally; can swap with its Intellector.
    Defensor = 4,
    /// Steps to an empty neighbour (Modern rules) or jumps exactly two hexes straight on.
    Liberator = 5,
    /// Steps to an empty neighbour, never captures; losing it loses the game.
    Intellector = 6,
}

impl Kind {
    /// All types, in discriminant order.
    pub const ALL: [Kind; 6] =
        [Kind::Progressor, Kind::Dominator, Kind::Aggressor, Kind::Defensor, Kind::Liberator, Kind::Intellector];

    /// The types a Progressor may promote into (Modern rules: any of them).
    pub const PROMOTIONS: [Kind; 4] = [Kind::Dominator, Kind::Aggressor, Kind::Defensor, Kind::Liberator];

    /// The type with code `code` (1..=6).
    #[inline(always)]
    pub(crate) const fn from_code(code: u8) -> Option<Kind> {
        match code {
            1 => Some(Kind::Progressor),
            2 => Some(Kind::Dominator),
            3 => Some(Kind::Aggressor),
            4 => Some(Kind::Defensor),
            5 => Some(Kind::Liberator),
            6 => Some(Kind::Intellector),
            _ => None,
        }
    }

    /// The letter of intellector.info's move notation and of our `=X` suffix: `P`, `D`, `A`,
    /// `F` (deFensor), `L`, `I`.
    pub const fn letter(self) -> char {
        match self {
            Kind::Progressor => 'P',
            Kind::Dominator => 'D',
            Kind::Aggressor => 'A',
            Kind::Defensor => 'F',
            Kind::Liberator => 'L',
            Kind::Intellector => 'I',
        }
    }

    /// The type named by a notation letter, in either case.
    pub fn from_letter(c: u8) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            b'P' => Kind::Progressor,
            b'D' => Kind::Dominator,
            b'A' => Kind::Aggressor,
            b'F' => Kind::Defensor,
            b'L' => Kind::Liberator,
            b'I' => Kind::Intellector,
            _ => return None,
        })
    }

    /// The SIP letter: the second letter of the name (`r` pRogressor, `o` dOminator, …).
    pub const fn sip_letter(self) -> char {
        match self {
            Kind::Progressor => 'r',
            Kind::Dominator => 'o',
            Kind::Aggressor => 'g',
            Kind::Defensor => 'e',
            Kind::Liberator => 'i',
            Kind::Intellector => 'n',
        }
    }

    /// The type named by a SIP letter (lower case only, as SIP writes it).
    pub fn from_sip_letter(c: u8) -> Option<Kind> {
        Some(match c {
            b'r' => Kind::Progressor,
            b'o' => Kind::Dominator,
            b'g' => Kind::Aggressor,
            b'e' => Kind::Defensor,
            b'i' => Kind::Liberator,
            b'n' => Kind::Intellector,
            _ => return None,
        })
    }

    /// Whether a Progressor may become this type (Dominator, Aggressor, Defensor, Liberator).
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        !matches!(self, Kind::Progressor | Kind::Intellector)
    }

    /// This type as one bit of a type set (bit = discriminant).
    #[inline(always)]
    pub(crate) const fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Progressor => "Progressor",
            Kind::Dominator => "Dominator",
            Kind::Aggressor => "Aggressor",
            Kind::Defensor => "Defensor",
            Kind::Liberator => "Liberator",
            Kind::Intellector => "Intellector",
        })
    }
}

/// A piece: a type and a colour.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// The owner.
    pub color: Color,
    /// The type.
    pub kind: Kind,
}

/// Bit of a square code that marks a Black piece.
pub(crate) const BLACK_BIT: u8 = 8;
/// Mask of a square code's type bits.
pub(crate) const KIND_MASK: u8 = 7;
/// The code of an empty square.
pub(crate) const EMPTY: u8 = 0;

impl Piece {
    /// A piece of `color` and `kind`.
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece { color, kind }
    }

    /// The square code: type in the low 3 bits, [`BLACK_BIT`] for Black (1..=6, 9..=14).
    #[inline(always)]
    pub(crate) const fn code(self) -> u8 {
        self.kind as u8 | color_bits(self.color)
    }

    /// The piece with square code `code`, or `None` for an empty square.
    #[inline(always)]
    pub(crate) const fn from_code(code: u8) -> Option<Piece> {
        let color = if code & BLACK_BIT != 0 { Color::Black } else { Color::White };
        match Kind::from_code(code & KIND_MASK) {
            Some(kind) => Some(Piece { color, kind }),
            None => None,
        }
    }
}

/// The colour bits of a square code.
#[inline(always)]
pub(crate) const fn color_bits(color: Color) -> u8 {
    match color {
        Color::White => 0,
        Color::Black => BLACK_BIT,
    }
}

impl fmt::Display for Piece {
    /// `w` or `b` followed by the notation letter, e.g. `wF`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = match self.color {
            Color::White => 'w',
            Color::Black => 'b',
        };
        write!(f, "{c}{}", self.kind.letter())
    }
}
