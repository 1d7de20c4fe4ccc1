//! Checking a move someone asked for: the legal move it names, or the reason it is illegal,
//! found in the reference engine's order so the message is the one Mzinga gives.

use super::illegal::IllegalMove;
use super::notation::{Destination, MoveText};
use super::piece::Bug;
use super::{Hive, Move, MoveView};
use crate::error::RulesError;

impl Hive {
    /// The legal move that `text` names in this position, or why there is none.
    /// `legal` must hold this position's legal moves.
    pub fn resolve_move(&self, text: MoveText, legal: &[Move]) -> Result<Move, RulesError> {
        if self.outcome().is_over() {
            return Err(RulesError::GameOver);
        }
        let dest = self.destination(text);
        let piece = match text {
            MoveText::Pass => {
                return if legal == [Move::PASS] { Ok(Move::PASS) } else { Err(IllegalMove::PassWithMoves.into()) };
            }
            MoveText::Piece { piece, .. } => piece,
        };
        let found = legal.iter().copied().find(|&mv| match mv.view() {
            MoveView::Place { piece: p, .. } | MoveView::Move { piece: p, .. } => {
                p == piece && self.move_destination(mv) == dest
            }
            MoveView::Pass => false,
        });
        if let Some(mv) = found {
            return Ok(mv);
        }
        Err(self.why_illegal(piece, dest).into())
    }

    /// The first reason, in Mzinga's order, why moving `piece` to `dest` is illegal.
    fn why_illegal(&self, piece: super::piece::Piece, dest: Destination) -> IllegalMove {
        let me = self.to_move();
        if piece.color() != me {
            return IllegalMove::NotYourTurn;
        }
        if !self.is_enabled(piece) {
            return IllegalMove::PieceNotEnabled;
        }
        if dest == Destination::Hand {
            return IllegalMove::BackToHand;
        }
        if self.turn_number() == 1 && piece.bug() == Bug::Queen {
            return IllegalMove::QueenOnFirstTurn;
        }
        let in_play = self.position(piece).is_some();
        if !self.queen_in_play(me) {
            if self.turn_number() == 4 && piece.bug() != Bug::Queen {
                return IllegalMove::QueenByFourthTurn;
            } else if in_play {
                return IllegalMove::QueenNotInPlay;
            }
        }
        if !in_play && piece.predecessor().is_some_and(|p| self.position(p).is_none()) {
            return IllegalMove::OutOfOrder;
        }
        if let Destination::At(cell, level) = dest {
            if self.height(cell) > level {
                return IllegalMove::Occupied;
            }
        }
        if in_play {
            if !self.is_on_top(piece) {
                return IllegalMove::Covered;
            }
            if self.level(piece) == 0 && self.pinned_pieces().contains(piece) {
                return IllegalMove::BreaksHive;
            }
        }
        IllegalMove::CantMoveThere
    }
}
