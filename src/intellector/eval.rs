//! Static evaluation of Intellector positions, from the side to move's point of view.
//!
//! The score is a sum of per-side terms (own minus enemy): material, Progressor advancement,
//! a cheap mobility count (pseudo-moves from the tables and occupancy sets, no move list) and
//! Intellector safety (attackers close by, defenders and escape hexes next to it, distance to
//! a breakthrough), plus a bonus when the side to move can capture the enemy Intellector
//! straight away. Every weight is in [`weights`].

use super::board::Position;
use super::geometry::{base_line, Hex, Ray, NONE, TABLES};
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

/// Whether `color`'s Intellector could break through with its next move: it stands next to
/// a hex of the enemy base line that is empty (a step) or holds its own Defensor (a swap).
pub fn can_break_through(pos: &Position, color: Color) -> bool {
    let Some(hex) = pos.intellector(color) else { return false };
    let targets = TABLES.step_set[hex.index()] & base_line(color.opponent());
    if targets == 0 {
        return false;
    }
    let c = color.index();
    let own = pos.occupied[c];
    if targets & !(own | pos.occupied[1 - c]) != 0 {
        return true;
    }
    let defensor = Kind::Defensor as u8 | color_bits(color);
    let mut mine = targets & own;
    while mine != 0 {
        let h = mine.trailing_zeros() as usize;
        mine &= mine - 1;
        if pos.squares[h] == defensor {
            return true;
        }
    }
    false
}

/// Whether the side to move faces an immediate loss: the enemy Intellector can break through
/// with its next move, or its own Intellector is attacked and cannot simply step to an empty
/// hex that no enemy piece attacks. (An attacked Intellector with such a step is common and
/// needs no deeper look; the evaluation charges it a tempo.)
pub fn in_danger(pos: &mut Position) -> bool {
    let me = pos.to_move();
    let them = me.opponent();
    let Some(hex) = pos.intellector(me) else { return false };
    if can_break_through(pos, them) {
        return true;
    }
    pos.attacks(hex, them) && !has_safe_step(pos, hex, them)
}

/// Whether the Intellector on `hex` has an empty neighbour that no piece of `enemy` attacks,
/// judged with the Intellector lifted off its hex (it does not shield the hex behind it).
fn has_safe_step(pos: &mut Position, hex: Hex, enemy: Color) -> bool {
    let h = hex.index();
    let code = pos.squares[h];
    pos.squares[h] = EMPTY;
    let mut steps = TABLES.step_set[h] & !(pos.occupied[0] | pos.occupied[1]);
    let mut safe = false;
    while steps != 0 && !safe {
        let n = steps.trailing_zeros() as usize;
        steps &= steps - 1;
        safe = !pos.attacks(Hex::from_index(n), enemy);
    }
    pos.squares[h] = code;
    safe
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::intellector::Piece;

    /// A position from `"wIe1 bDe4 …"` (colour, type letter, hex), `side` to move.
    fn pos(side: char, pieces: &str) -> Position {
        let list: Vec<(Hex, Piece)> = pieces
            .split_whitespace()
            .map(|s| {
                let b = s.as_bytes();
                let color = if b[0] == b'w' { Color::White } else { Color::Black };
                let kind = Kind::from_letter(b[1]).expect("type letter");
                (Hex::parse(&s[2..]).expect("hex"), Piece::new(color, kind))
            })
            .collect();
        let to_move = if side == 'w' { Color::White } else { Color::Black };
        Position::from_pieces(Rules::Modern, to_move, &list).expect("test position")
    }

    #[test]
    fn danger_is_an_attacked_intellector() {
        // The Dominator on e4 attacks e1 through the empty e2 and e3, and the Intellector
        // has nowhere to go.
        assert!(pos('w', "wIe1 wFd1 wFf1 bDe4 bIe7").in_danger());
        // With a free neighbour it steps away: no danger.
        assert!(!pos('w', "wIe1 bDe4 bIe7").in_danger());
        // Unless those neighbours are attacked too (the Progressors on c2 and f2 cover d1 and
        // f1).
        assert!(pos('w', "wIe1 bDe4 bPc2 bPf2 bIe7").in_danger());
        // Stepping back along the attacking line (d2 to d1) does not escape the Dominator.
        assert!(pos('w', "wId2 wPc2 wPc3 wPe2 wPe3 bDd5 bIe7").in_danger());
        // The Intellector goes back on its hex.
        let mut p = pos('w', "wId2 wPc2 wPc3 wPe2 wPe3 bDd5 bIe7");
        let before = p.clone();
        p.in_danger();
        assert_eq!(p, before);
        assert_eq!(p.to_sip(), before.to_sip());
        // A piece in between blocks it.
        assert!(!pos('w', "wIe1 wPe2 bDe4 bIe7").in_danger());
        // Only the side to move's Intellector counts.
        assert!(!pos('b', "wIe1 bDe4 bIe7").in_danger());
        // Progressors attack forwards only: a Black one on e2 attacks e1, d1 and f1, not e3.
        assert!(pos('w', "wIe1 wFd1 wFf1 bPe2 bIe7").in_danger());
        assert!(!pos('w', "wIe3 bPe2 bIe7").in_danger());
        // A Liberator jumps two hexes straight on, over anything.
        assert!(pos('w', "wIe1 wPe2 wFd1 wFf1 bLe3 bIe7").in_danger());
        assert!(!pos('w', "wIe1 wFd1 wFf1 bLe2 bIe7").in_danger());
    }

    #[test]
    fn danger_is_a_breakthrough_next_move() {
        // Black's Intellector on d1 steps to c1 or e1 next move.
        assert!(pos('w', "wIa4 bId1").in_danger());
        // With both filled by White pieces it cannot (and they do not attack a4).
        assert!(!pos('w', "wIa4 wFc1 wFe1 bId1").in_danger());
        // Its own Defensor on the base line lets it swap there.
        assert!(pos('w', "wIa4 wAc1 bFe1 bId1").in_danger());
        // One step further away is no immediate danger.
        assert!(!pos('w', "wIa4 bId2").in_danger());
        // Black to move is not the one in danger.
        assert!(!pos('b', "wIa4 bId1").in_danger());
    }
}
