//! Static evaluation of Hive positions (from the side to move's point of view).

use super::grid::neighbour;
use super::piece::Piece;
use super::{Hive, Move};
use crate::game::Color;

/// Weight of one occupied cell around a queen.
const QUEEN_RING: i32 = 60;

/// A first evaluation: pressure on the two queens (occupied neighbours).
pub fn evaluate(hive: &mut Hive) -> i32 {
    let me = hive.to_move();
    queen_pressure(hive, me.opponent()) - queen_pressure(hive, me)
}

fn queen_pressure(hive: &Hive, color: Color) -> i32 {
    match hive.position(Piece::queen(color)) {
        Some(q) => hive.ring(q).count_ones() as i32 * QUEEN_RING,
        None => 0,
    }
}

/// Moves that land next to the enemy queen from a cell that was not next to it.
pub fn is_tactical(hive: &Hive, mv: Move) -> bool {
    let Some(q) = hive.position(Piece::queen(hive.to_move().opponent())) else { return false };
    let next_to_queen = |c| (0..6).any(|d| neighbour(q, d) == c);
    match mv {
        Move::Place { to, .. } => next_to_queen(to),
        Move::Move { from, to, .. } => next_to_queen(to) && !next_to_queen(from),
        Move::Pass => false,
    }
}
