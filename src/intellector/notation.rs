//! MoveStrings: our canonical form, intellector.info's notation, and resolving either against
//! a position.
//!
//! Canonical (what we write): origin hex, destination hex, and `=X` for a promotion or aura
//! transformation: `e2e3`, `f6g7=A`; a swap is the Intellector's hex then the Defensor's,
//! `e1d1`.
//!
//! Read as well, intellector.info's notation ("Updated notation", 2021):
//!
//! ```text
//! [⬡|⬢] [Piece] [origin] [X|~|:] destination [=Piece] [#]
//! ```
//! `Piece` is `D`, `A`, `F` (deFensor), `L` or `I`; no letter and no origin means a
//! Progressor. `X` marks a capture, `~` a non-capture after an origin, `:` a swap (`E1:D1`).
//! `⬡`/`⬢` name the mover (White/Black); `#` (Intellector captured) is accepted and not
//! checked. Letters may be in either case: a piece letter is always followed by a letter and a
//! hex's file letter by a digit, so the two never mix up.
//!
//! A text matches a legal move when every part it gives agrees with the move; a swap may also
//! be written Defensor first (the result is the same). No match, or more than one, is an error
//! with the most specific reason found.

use super::board::Position;
use super::geometry::Hex;
use super::illegal::IllegalMove;
use super::piece::{Kind, EMPTY};
use super::{Move, MoveKind};
use crate::error::RulesError;
use crate::game::Color;

/// The mark between origin and destination.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Separator {
    /// None written: the move may or may not capture.
    None,
    /// `X`: the move captures.
    Capture,
    /// `~`: the move does not capture (and is no swap).
    Quiet,
    /// `:`: the move is the Intellector–Defensor swap.
    Swap,
}

/// A MoveString as read, before it is resolved against a position.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct MoveText {
    /// The mover named by a `⬡`/`⬢` prefix.
    pub color: Option<Color>,
    /// The piece letter, if written.
    pub piece: Option<Kind>,
    /// The origin hex, if written.
    pub from: Option<Hex>,
    /// The mark between origin and destination.
    pub separator: Separator,
    /// The destination hex.
    pub to: Hex,
    /// The `=X` type, if written.
    pub into: Option<Kind>,
}

impl MoveText {
    /// Reads a MoveString in either notation; `None` if it follows neither.
    pub fn parse(text: &str) -> Option<MoveText> {
        let mut s = text.trim();
        let mut color = None;
        for (prefix, c) in [('⬡', Color::White), ('⬢', Color::Black)] {
            if let Some(rest) = s.strip_prefix(prefix) {
                color = Some(c);
                s = rest.trim_start();
            }
        }
        let s = s.strip_suffix('#').unwrap_or(s);
        let b = s.as_bytes();
        let mut i = 0;
        // A piece letter is followed by a letter; the file letter of a hex by a digit.
        let mut piece = None;
        if b.len() >= 2 && b[0].is_ascii_alphabetic() && !b[1].is_ascii_digit() && !b[0].eq_ignore_ascii_case(&b'x') {
            let kind = Kind::from_letter(b[0])?;
            if kind == Kind::Progressor {
                return None; // the Progressor has no letter; `P` appears only after `=`
            }
            piece = Some(kind);
            i = 1;
        }
        let first = hex_at(b, &mut i);
        let separator = match b.get(i).map(u8::to_ascii_lowercase) {
            Some(b'x') => Separator::Capture,
            Some(b'~') => Separator::Quiet,
            Some(b':') => Separator::Swap,
            _ => Separator::None,
        };
        if separator != Separator::None {
            i += 1;
        }
        let second = hex_at(b, &mut i);
        let (from, to) = match (first, second) {
            (Some(from), Some(to)) => (Some(from), to),
            (Some(to), None) if separator == Separator::None => (None, to),
            (None, Some(to)) if separator == Separator::Capture => (None, to),
            _ => return None,
        };
        let mut into = None;
        if b.get(i) == Some(&b'=') {
            into = Some(Kind::from_letter(*b.get(i + 1)?)?);
            i += 2;
        }
        if i != b.len() || into == Some(Kind::Intellector) {
            return None;
        }
        Some(MoveText { color, piece, from, separator, to, into })
    }
}

/// Reads a hex name at `b[*i..]`, advancing past it.
fn hex_at(b: &[u8], i: &mut usize) -> Option<Hex> {
    let (&f, &r) = (b.get(*i)?, b.get(*i + 1)?);
    let hex = Hex::from_bytes(f, r)?;
    *i += 2;
    Some(hex)
}

impl Position {
    /// The canonical MoveString of `mv` (see [`Move`]'s `Display`).
    pub fn move_string(&self, mv: Move) -> String {
        mv.to_string()
    }

    /// Whether `mv` captures a piece in this position.
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        mv.kind != MoveKind::Swap && self.squares[mv.to.index()] != EMPTY
    }

    /// The type of the piece on `hex`, if any.
    fn kind_at(&self, hex: Hex) -> Option<Kind> {
        self.piece_at(hex).map(|p| p.kind)
    }

    /// `mv` (legal here) in intellector.info's notation, e.g. `AXg7`, `FXg7=A`, `E1:D1`,
    /// `a2~b2`, `Xc7=D`, `AXe7#`. `legal` must hold this position's legal moves (to decide
    /// whether the origin is needed).
    pub fn site_move_string(&self, mv: Move, legal: &[Move]) -> String {
        if mv.kind == MoveKind::Swap {
            return format!("{}:{}", mv.from, mv.to).to_uppercase();
        }
        let kind = self.kind_at(mv.from).expect("a legal move starts on a piece");
        let mut s = String::with_capacity(10);
        if kind != Kind::Progressor {
            s.push(kind.letter());
        }
        // The origin is written when another piece of the same type can reach the same hex.
        let ambiguous = legal.iter().any(|m| m.to == mv.to && m.from != mv.from && self.kind_at(m.from) == Some(kind));
        if ambiguous {
            s.push_str(&mv.from.to_string());
        }
        let capture = self.is_capture(mv);
        if capture {
            s.push('X');
        } else if ambiguous {
            s.push('~');
        }
        s.push_str(&mv.to.to_string());
        if let Some(k) = mv.becomes() {
            s.push('=');
            s.push(k.letter());
        }
        if capture && self.kind_at(mv.to) == Some(Kind::Intellector) {
            s.push('#');
        }
        s
    }

    /// Whether `text` names `mv`, judging the `=X` part only if `check_into`.
    fn names(&self, text: &MoveText, mv: Move, check_into: bool) -> bool {
        let Some(mover) = self.kind_at(mv.from) else { return false };
        let forward = mv.to == text.to && text.from.is_none_or(|f| f == mv.from);
        // The swap written Defensor first: same result, so the same move.
        let reversed = mv.kind == MoveKind::Swap && text.from == Some(mv.to) && text.to == mv.from;
        let piece_ok = match text.piece {
            Some(k) if reversed && !forward => k == Kind::Defensor,
            Some(k) => k == mover,
            None => text.from.is_some() || mover == Kind::Progressor,
        };
        let separator_ok = match text.separator {
            Separator::None => true,
            Separator::Capture => self.is_capture(mv),
            Separator::Quiet => mv.kind != MoveKind::Swap && !self.is_capture(mv),
            Separator::Swap => mv.kind == MoveKind::Swap,
        };
        (forward || reversed) && piece_ok && separator_ok && (!check_into || text.into == mv.becomes())
    }

    /// The legal move `text` names in this position, or why there is none. `legal` must hold
    /// this position's legal moves (empty once the game is over).
    pub fn resolve(&self, text: &MoveText, legal: &[Move]) -> Result<Move, RulesError> {
        if legal.is_empty() {
            return Err(RulesError::GameOver);
        }
        if text.color.is_some_and(|c| c != self.to_move) {
            return Err(IllegalMove::NotYourTurn.into());
        }
        if let Some(from) = text.from {
            match self.piece_at(from) {
                None => return Err(IllegalMove::NoPieceThere.into()),
                Some(p) if p.color != self.to_move => return Err(IllegalMove::NotYourTurn.into()),
                Some(_) => {}
            }
        }
        let mut found = None;
        let mut count = 0;
        let mut near_misses = 0;
        for &mv in legal {
            if self.names(text, mv, false) {
                near_misses += 1;
                if self.names(text, mv, true) {
                    found = Some(mv);
                    count += 1;
                }
            }
        }
        match (found, count) {
            (Some(mv), 1) => Ok(mv),
            (Some(_), _) => Err(IllegalMove::AmbiguousMove.into()),
            // Right piece and destination, wrong (or missing) `=X`. A missing one can only
            // mean a promotion, because an aura capture always exists as a plain capture too.
            (None, _) if near_misses > 0 && text.into.is_none() => Err(IllegalMove::PromotionRequired.into()),
            (None, _) if near_misses > 0 => Err(IllegalMove::CantTransform.into()),
            (None, _) => Err(IllegalMove::CantMoveThere.into()),
        }
    }

    /// Reads `text` and finds the legal move it names (generating the legal moves itself).
    pub fn parse_move(&self, text: &str) -> Result<Move, RulesError> {
        let parsed = MoveText::parse(text).ok_or_else(|| RulesError::UnparsableMove(text.to_string()))?;
        let mut legal = Vec::new();
        self.generate_moves(&mut legal);
        self.resolve(&parsed, &legal)
    }
}
