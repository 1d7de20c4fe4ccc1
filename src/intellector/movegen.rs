//! Legal move generation, one function per piece type.
//!
//! Generation walks the side to move's occupancy set and hands every move to a sink closure
//! that returns `false` to stop early. [`Position::generate_moves`] pushes into the caller's
//! buffer; [`Position::has_legal_move`] stops at the first move, which keeps
//! [`Position::outcome`] cheap. Nothing here allocates.
//!
//! Conventions (the reference's perft conventions): the swap is generated from the
//! Intellector only; an aura capture is a separate move from the plain capture; a promotion
//! is one move per type it may choose.

use super::board::Position;
use super::geometry::{base_line, Hex, HexSet, Ray, NONE, TABLES};
use super::piece::{Kind, BLACK_BIT, EMPTY, KIND_MASK};
use super::{Move, MoveKind, Rules};

/// The sink's verdict: keep generating or stop.
type Continue = bool;

/// Everything generation needs about the side to move, gathered once per call.
#[derive(Copy, Clone)]
struct Sides {
    own: HexSet,
    enemy: HexSet,
    /// The side to move's Intellector hex as a set (empty once captured).
    intellector: HexSet,
}

impl Position {
    /// Fills `moves` with every legal move; leaves it empty exactly when the game is over.
    pub fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.decided().is_some() {
            return;
        }
        self.for_each_move(&mut |mv| {
            moves.push(mv);
            true
        });
    }

    /// Whether the side to move has at least one move (ignoring whether the game is over).
    pub(crate) fn has_legal_move(&self) -> bool {
        !self.for_each_move(&mut |_| false)
    }

    /// Calls `sink` with every move of the side to move until it returns `false`; returns
    /// whether it ran to the end.
    #[inline(always)]
    fn for_each_move<F: FnMut(Move) -> Continue>(&self, sink: &mut F) -> bool {
        let me = self.to_move.index();
        let ihex = self.intellector[me];
        let sides = Sides {
            own: self.occupied[me],
            enemy: self.occupied[1 - me],
            intellector: if ihex == NONE { HexSet::EMPTY } else { Hex::from_index(ihex as usize).bit() },
        };
        for from in sides.own {
            let from = from.index();
            let go = match Kind::from_code(self.squares[from] & KIND_MASK) {
                Some(Kind::Progressor) => self.progressor_moves(from, sides, sink),
                Some(Kind::Dominator) => {
                    self.slider_moves(from, Kind::Dominator, &TABLES.lateral_ray[from], sides, sink)
                }
                Some(Kind::Aggressor) => {
                    self.slider_moves(from, Kind::Aggressor, &TABLES.radial_ray[from], sides, sink)
                }
                Some(Kind::Defensor) => self.defensor_moves(from, sides, sink),
                Some(Kind::Liberator) => self.liberator_moves(from, sides, sink),
                Some(Kind::Intellector) => self.intellector_moves(from, sides, sink),
                None => unreachable!("occupancy and squares agree"),
            };
            if !go {
                return false;
            }
        }
        true
    }

    /// A move by a piece of type `kind` from `from` to `to` (empty or enemy), plus the aura
    /// transformation when the piece started next to its Intellector and captures a piece of
    /// another type that is not the Intellector.
    #[inline(always)]
    fn emit<F: FnMut(Move) -> Continue>(
        &self,
        from: usize,
        to: usize,
        kind: Kind,
        sides: Sides,
        sink: &mut F,
    ) -> Continue {
        let (f, t) = (Hex::from_index(from), Hex::from_index(to));
        if !sink(Move { from: f, to: t, kind: MoveKind::Plain }) {
            return false;
        }
        let target = self.squares[to] & KIND_MASK;
        if target != EMPTY
            && target != kind as u8
            && target != Kind::Intellector as u8
            && !(TABLES.step_set[from] & sides.intellector).is_empty()
        {
            let into = Kind::from_code(target).expect("an occupied square has a type");
            return sink(Move { from: f, to: t, kind: MoveKind::Aura(into) });
        }
        true
    }

    fn progressor_moves<F: FnMut(Move) -> Continue>(&self, from: usize, sides: Sides, sink: &mut F) -> Continue {
        let me = self.to_move;
        let promotion_line = base_line(me.opponent());
        for &to in &TABLES.forward[me.index()][from] {
            if to == NONE {
                continue;
            }
            let (f, t) = (Hex::from_index(from), Hex::from_index(to as usize));
            if sides.own.contains(t) {
                continue;
            }
            if promotion_line.contains(t) {
                // Promotion is mandatory: one move per type it may become. Under Classic rules
                // only types of its own colour captured earlier qualify, and with none it
                // cannot enter the line at all.
                let allowed = match self.rules {
                    Rules::Modern => u8::MAX,
                    Rules::Classic => self.captured_types[me.index()],
                };
                for kind in Kind::PROMOTIONS {
                    if allowed & kind.bit() != 0 && !sink(Move { from: f, to: t, kind: MoveKind::Promotion(kind) }) {
                        return false;
                    }
                }
            } else if !sink(Move { from: f, to: t, kind: MoveKind::Plain }) {
                return false;
            }
        }
        true
    }

    /// Dominator (lateral rays) and Aggressor (radial rays): slide until the first piece,
    /// capturing it if it is an enemy.
    fn slider_moves<F: FnMut(Move) -> Continue>(
        &self,
        from: usize,
        kind: Kind,
        rays: &[Ray; 6],
        sides: Sides,
        sink: &mut F,
    ) -> Continue {
        for ray in rays {
            for &to in ray.hexes() {
                let hex = Hex::from_index(to as usize);
                if sides.own.contains(hex) {
                    break;
                }
                if !self.emit(from, to as usize, kind, sides, sink) {
                    return false;
                }
                if sides.enemy.contains(hex) {
                    break;
                }
            }
        }
        true
    }

    fn defensor_moves<F: FnMut(Move) -> Continue>(&self, from: usize, sides: Sides, sink: &mut F) -> Continue {
        // Its swap with the Intellector is generated from the Intellector's side.
        for to in TABLES.step_set[from] - sides.own {
            if !self.emit(from, to.index(), Kind::Defensor, sides, sink) {
                return false;
            }
        }
        true
    }

    fn liberator_moves<F: FnMut(Move) -> Continue>(&self, from: usize, sides: Sides, sink: &mut F) -> Continue {
        if self.rules == Rules::Modern {
            // The short step goes to an empty hex only and never captures.
            for to in TABLES.step_set[from] - (sides.own | sides.enemy) {
                let mv = Move { from: Hex::from_index(from), to, kind: MoveKind::Plain };
                if !sink(mv) {
                    return false;
                }
            }
        }
        // The jump clears whatever stands in between and lands on an empty or enemy hex.
        for &to in &TABLES.jump[from] {
            if to != NONE
                && !sides.own.contains(Hex::from_index(to as usize))
                && !self.emit(from, to as usize, Kind::Liberator, sides, sink)
            {
                return false;
            }
        }
        true
    }

    fn intellector_moves<F: FnMut(Move) -> Continue>(&self, from: usize, sides: Sides, sink: &mut F) -> Continue {
        for to in TABLES.step_set[from] - sides.enemy {
            let code = self.squares[to.index()];
            let kind = if code == EMPTY {
                MoveKind::Plain
            } else if code & KIND_MASK == Kind::Defensor as u8 {
                MoveKind::Swap
            } else {
                continue; // another own piece: the Intellector never captures or swaps with it
            };
            debug_assert!(code == EMPTY || (code & BLACK_BIT != 0) == (self.to_move.index() == 1));
            if !sink(Move { from: Hex::from_index(from), to, kind }) {
                return false;
            }
        }
        true
    }
}
