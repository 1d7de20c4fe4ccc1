//! Static evaluation of Intellector positions, from the side to move's point of view.
//!
//! The score is a sum of per-side terms (own minus enemy): material, Progressor advancement,
//! a cheap mobility count (pseudo-moves from the tables and occupancy sets, no move list) and
//! Intellector safety (attackers close by, defenders and escape hexes next to it, distance to
//! a breakthrough), plus a bonus when the side to move can capture the enemy Intellector
//! straight away. Every weight is in [`weights`].

use super::board::Position;
use super::geometry::{Hex, Ray, NONE, TABLES};
use super::piece::{color_bits, Kind, EMPTY, KIND_MASK};
use super::{Move, Rules};
use crate::game::Color;

/// Every weight of the evaluation, in centipawn-like units (a Progressor is 100).
pub mod weights {
    /// Material: Anaconda's values (the intellector.info bot).
    pub const PROGRESSOR: i32 = 100;
    /// Material of a Dominator.
    pub const DOMINATOR: i32 = 600;
    /// Material of an Aggressor.
    pub const AGGRESSOR: i32 = 200;
    /// Material of a Defensor.
    pub const DEFENSOR: i32 = 150;
    /// Material of a Liberator.
    pub const LIBERATOR: i32 = 170;

    /// Progressor bonus by the number of moves it still needs to promote (index 0 is unused:
    /// a Progressor never stands on its promotion line). Steep near the end, where promotion
    /// to a Dominator is a real threat.
    pub const PROGRESSOR_ADVANCE: [i32; 7] = [0, 90, 45, 22, 10, 4, 0];

    /// Per pseudo-legal destination of a Dominator, Aggressor, Defensor, Liberator or
    /// Progressor.
    pub const MOBILITY: i32 = 3;

    /// Per enemy piece within two steps of the Intellector.
    pub const ATTACKER_NEAR_INTELLECTOR: i32 = 14;
    /// Per own piece right next to the Intellector (shield, and aura candidates).
    pub const DEFENDER_NEXT_TO_INTELLECTOR: i32 = 10;
    /// Per empty hex next to the Intellector (room to run).
    pub const INTELLECTOR_ESCAPE: i32 = 6;
    /// Intellector bonus by the steps it still needs to break through (index 0 is unused:
    /// standing there ends the game). Only the last steps matter.
    pub const INTELLECTOR_ADVANCE: [i32; 4] = [0, 120, 40, 10];
    /// The side to move can capture the enemy Intellector: the game is all but won. Larger
    /// than any material swing, smaller than the search's win scores.
    pub const INTELLECTOR_EN_PRISE: i32 = 5_000;
    /// The side to move's own Intellector is attacked: it must spend its move on that.
    pub const INTELLECTOR_ATTACKED: i32 = 150;
}

use weights::*;

/// The static evaluation: positive is good for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    let me = pos.to_move();
    let mut score = side_score(pos, me) - side_score(pos, me.opponent());
    if let Some(theirs) = pos.intellector(me.opponent()) {
        if pos.attacks(theirs, me) {
            score += INTELLECTOR_EN_PRISE;
        }
    }
    if let Some(mine) = pos.intellector(me) {
        if pos.attacks(mine, me.opponent()) {
            score -= INTELLECTOR_ATTACKED;
        }
    }
    score
}

/// Hexes a slider reaches along `rays` (up to and including the first piece if it is an
/// enemy).
#[inline(always)]
fn slider_mobility(pos: &Position, rays: &[Ray; 6], own: u64) -> i32 {
    let mut n = 0;
    for ray in rays {
        for &h in ray.hexes() {
            if own & (1 << h) != 0 {
                break;
            }
            n += 1;
            if pos.squares[h as usize] != EMPTY {
                break;
            }
        }
    }
    n
}

fn side_score(pos: &Position, color: Color) -> i32 {
    let c = color.index();
    let own = pos.occupied[c];
    let enemy = pos.occupied[1 - c];
    let empty = !(own | enemy);
    let mut score = 0;
    let mut bits = own;
    while bits != 0 {
        let h = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let (value, mobility) = match Kind::from_code(pos.squares[h] & KIND_MASK) {
            Some(Kind::Progressor) => {
                let distance = (TABLES.promotion_distance[c][h] as usize).min(PROGRESSOR_ADVANCE.len() - 1);
                let forward = TABLES.forward[c][h].iter().filter(|&&n| n != NONE && own & (1 << n) == 0).count() as i32;
                (PROGRESSOR + PROGRESSOR_ADVANCE[distance], forward)
            }
            Some(Kind::Dominator) => (DOMINATOR, slider_mobility(pos, &TABLES.lateral_ray[h], own)),
            Some(Kind::Aggressor) => (AGGRESSOR, slider_mobility(pos, &TABLES.radial_ray[h], own)),
            Some(Kind::Defensor) => (DEFENSOR, (TABLES.step_set[h] & !own).count_ones() as i32),
            Some(Kind::Liberator) => {
                let steps = match pos.rules() {
                    Rules::Modern => (TABLES.step_set[h] & empty).count_ones() as i32,
                    Rules::Classic => 0,
                };
                let jumps = TABLES.jump[h].iter().filter(|&&n| n != NONE && own & (1 << n) == 0).count() as i32;
                (LIBERATOR, steps + jumps)
            }
            Some(Kind::Intellector) => {
                let near = TABLES.step_set[h];
                let safety = (near & own).count_ones() as i32 * DEFENDER_NEXT_TO_INTELLECTOR
                    + (near & empty).count_ones() as i32 * INTELLECTOR_ESCAPE
                    - (TABLES.near2[h] & enemy).count_ones() as i32 * ATTACKER_NEAR_INTELLECTOR;
                let steps = TABLES.breakthrough_distance[c][h] as usize;
                (safety + INTELLECTOR_ADVANCE.get(steps).copied().unwrap_or(0), 0)
            }
            None => unreachable!("occupancy and squares agree"),
        };
        score += value + mobility * MOBILITY;
    }
    score
}

impl Position {
    /// Whether a piece of `by` could capture on `hex` if it were `by`'s move (the Intellector
    /// never captures; Classic promotion limits are ignored).
    pub fn attacks(&self, hex: Hex, by: Color) -> bool {
        let h = hex.index();
        let side = color_bits(by);
        let is = |n: u8, kind: Kind| n != NONE && self.squares[n as usize] == kind as u8 | side;
        // A Progressor attacks forwards, so it stands on one of the hex's backward neighbours:
        // the forward neighbours of the other colour.
        if TABLES.forward[1 - by.index()][h].iter().any(|&n| is(n, Kind::Progressor))
            || TABLES.step[h].iter().any(|&n| is(n, Kind::Defensor))
            || TABLES.jump[h].iter().any(|&n| is(n, Kind::Liberator))
        {
            return true;
        }
        let first_on = |rays: &[Ray; 6], kind: Kind| {
            rays.iter().any(|ray| {
                ray.hexes().iter().find(|&&n| self.squares[n as usize] != EMPTY).is_some_and(|&n| is(n, kind))
            })
        };
        first_on(&TABLES.lateral_ray[h], Kind::Dominator) || first_on(&TABLES.radial_ray[h], Kind::Aggressor)
    }
}

/// Captures, promotions and aura transformations: the moves that change material.
pub fn is_tactical(pos: &Position, mv: Move) -> bool {
    mv.becomes().is_some() || pos.is_capture(mv)
}
