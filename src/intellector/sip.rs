//! SIP, intellector.info's position string.
//!
//! ```text
//! v2:  "2!" side white-pieces "!" black-pieces     2!wtrurv…!AoBgCn…
//! v1:       side white-pieces "!" black-pieces     wmrnro…!@oAgBn…
//! ```
//! `side` is `w` or `b`. Every piece is a hex character followed by the type's SIP letter
//! (`r` pRogressor, `o` dOminator, `g` aGgressor, `e` dEfensor, `i` lIberator, `n` iNtellector).
//! The hex character encodes the scalar index: in v2 `A`–`Z` are 0–25, `a`–`z` 26–51 and
//! `0`–`6` 52–58; in v1 it is the character with code 64 + index (`@` = a7 … `z` = i1).
//! Export writes v2 with the pieces sorted by index; import reads both versions and any piece
//! order. A SIP carries no move counters, so a loaded position starts at ply 0.

use super::board::Position;
use super::geometry::{Hex, HEX_COUNT};
use super::piece::{Kind, Piece};
use super::Rules;
use crate::error::RulesError;
use crate::game::Color;

/// The standard start position in SIP v2 (the opening book's "Starting Position" key).
pub const START_SIP: &str = "2!wtrurvrwrxryize0e1i2o3g4n5g6o!AoBgCnDgEoFiGeHeIiJrKrLrMrNr";

/// The standard start position in SIP v1.
pub const START_SIP_V1: &str = "wmrnrorprqrriseteuivowgxnygzo!@oAgBnCgDoEiFeGeHiIrJrKrLrMr";

/// The SIP v2 character of a hex.
pub fn hex_char(hex: Hex) -> char {
    let i = hex.index() as u8;
    (match i {
        0..=25 => b'A' + i,
        26..=51 => b'a' + i - 26,
        _ => b'0' + i - 52,
    }) as char
}

/// The hex of a SIP v2 character.
pub fn hex_from_char(c: u8) -> Option<Hex> {
    match c {
        b'A'..=b'Z' => Hex::new((c - b'A') as usize),
        b'a'..=b'z' => Hex::new((c - b'a') as usize + 26),
        b'0'..=b'6' => Hex::new((c - b'0') as usize + 52),
        _ => None,
    }
}

/// The hex of a SIP v1 character (code 64 + index).
fn hex_from_v1_char(c: u8) -> Option<Hex> {
    c.checked_sub(64).and_then(|i| Hex::new(i as usize))
}

fn invalid(sip: &str, why: &str) -> RulesError {
    RulesError::InvalidPosition(format!("Invalid SIP \"{sip}\": {why}."))
}

impl Position {
    /// The standard start position under the given rules, White to move.
    pub fn new(rules: Rules) -> Position {
        Position::from_sip(START_SIP, rules).expect("the start SIP is valid")
    }

    /// Reads a SIP (v2, or v1 when it has no `2!` prefix) into a position under `rules`.
    pub fn from_sip(sip: &str, rules: Rules) -> Result<Position, RulesError> {
        let (body, hex_of): (&str, fn(u8) -> Option<Hex>) = match sip.strip_prefix("2!") {
            Some(rest) => (rest, hex_from_char),
            None if sip.as_bytes().first().is_some_and(u8::is_ascii_digit) => {
                return Err(invalid(sip, "unknown SIP version"));
            }
            None => (sip, hex_from_v1_char),
        };
        let b = body.as_bytes();
        let to_move = match b.first() {
            Some(b'w') => Color::White,
            Some(b'b') => Color::Black,
            _ => return Err(invalid(sip, "the side to move must be 'w' or 'b'")),
        };
        let mut lists = body[1..].split('!');
        let (Some(white), Some(black), None) = (lists.next(), lists.next(), lists.next()) else {
            return Err(invalid(sip, "expected exactly one '!' between White's and Black's pieces"));
        };
        let mut pieces = Vec::with_capacity(HEX_COUNT);
        for (color, list) in [(Color::White, white), (Color::Black, black)] {
            let list = list.as_bytes();
            if list.len() % 2 != 0 {
                return Err(invalid(sip, "every piece takes two characters"));
            }
            for pair in list.chunks_exact(2) {
                let hex = hex_of(pair[0]).ok_or_else(|| invalid(sip, "bad hex character"))?;
                let kind = Kind::from_sip_letter(pair[1]).ok_or_else(|| invalid(sip, "bad piece letter"))?;
                pieces.push((hex, Piece::new(color, kind)));
            }
        }
        Position::from_pieces(rules, to_move, &pieces).map_err(|e| match e {
            RulesError::InvalidPosition(why) => invalid(sip, why.trim_end_matches('.')),
            other => other,
        })
    }

    /// The current position as a SIP v2 string.
    pub fn to_sip(&self) -> String {
        let mut s = String::with_capacity(64);
        s.push_str("2!");
        s.push(if self.to_move == Color::White { 'w' } else { 'b' });
        for color in [Color::White, Color::Black] {
            if color == Color::Black {
                s.push('!');
            }
            for (hex, piece) in self.pieces().filter(|(_, p)| p.color == color) {
                s.push(hex_char(hex));
                s.push(piece.kind.sip_letter());
            }
        }
        s
    }
}

// Written here, beside the SIP writer it uses, so that the board does not import this module
// (which builds boards).
impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Position({:?} {} ply {} quiet {} reps {} captured {:?})",
            self.rules,
            self.to_sip(),
            self.ply,
            self.quiet,
            self.repetitions,
            self.captured_types
        )
    }
}
