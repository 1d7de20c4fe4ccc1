//! Static evaluation of Intellector positions, from the side to move's point of view.
//!
//! One pass over each side's pieces gathers material, Progressor advancement, a cheap
//! mobility count and the hexes every capturing type attacks (own pieces on them count as
//! defended). From those attack sets come the terms that stand in for the quiescence search
//! the generic search lacks: the best capture or promotion the side to move can make now
//! (a share of its gain), the enemy's second-best threat (the one the side to move cannot
//! parry with its single move), and Intellector safety (attackers close by, defenders next to
//! it, escape hexes the enemy does not control, distance to a breakthrough). A side that can
//! capture the enemy Intellector or break through on its move is all but won.
//!
//! The evaluation is weights × features ([`crate::eval`]): [`terms`] reports every feature,
//! and the weights, an opening and an end-game value for each blended by the material left,
//! live in [`super::weights::WEIGHTS`], written by `comb tune`. Nothing here allocates.

use super::board::Position;
use super::geometry::{base_line, Hex, HexSet, Ray, NONE, TABLES};
use super::piece::{color_bits, Kind, EMPTY, KIND_MASK};
use super::weights::WEIGHTS;
use super::{Move, Rules};
use crate::eval::{pack, Packed, Score, Signed, Sink, Trace, PHASE_MAX};
use crate::game::Color;

/// Material values for the exchange estimates (Anaconda's, the intellector.info bot's): what
/// a capture wins and what a defended victim costs back. The evaluation's own material
/// weights are tuned apart, in [`WEIGHTS`].
pub mod values {
    /// A Progressor.
    pub const PROGRESSOR: i32 = 100;
    /// A Dominator.
    pub const DOMINATOR: i32 = 600;
    /// An Aggressor.
    pub const AGGRESSOR: i32 = 200;
    /// A Defensor.
    pub const DEFENSOR: i32 = 150;
    /// A Liberator.
    pub const LIBERATOR: i32 = 170;
    /// By type code (0 empty, 1..=6 Progressor, Dominator, Aggressor, Defensor, Liberator,
    /// Intellector). The Intellector has no material value: losing it ends the game.
    pub const VALUE: [i32; 7] = [0, PROGRESSOR, DOMINATOR, AGGRESSOR, DEFENSOR, LIBERATOR, 0];
    /// Material of both sides at the standard start: the opening end of the phase.
    pub const START_MATERIAL: i32 = 2 * (5 * PROGRESSOR + DOMINATOR + 2 * AGGRESSOR + 2 * DEFENSOR + 2 * LIBERATOR);
}

use values::*;

/// The weights are in hundredths of a centipawn, so that shares of a gain (60 %) are whole
/// numbers: the evaluation divides the weighted sum by this.
pub const SCALE: i32 = 100;

/// Feature indices: a single feature, or the first of a run.
pub mod feature {
    /// Pieces of each type, Progressor to Liberator (5).
    pub const MATERIAL: usize = 0;
    /// Progressors by the moves they still need to promote, 0 to 6 or more (7).
    pub const PROGRESSOR_ADVANCE: usize = 5;
    /// Pseudo-legal destinations of the pieces other than the Intellector.
    pub const MOBILITY: usize = 12;
    /// Own pieces right next to the Intellector (shield, and aura candidates).
    pub const DEFENDER_NEXT_TO_INTELLECTOR: usize = 13;
    /// Empty hexes next to the Intellector that no enemy piece attacks (room to run).
    pub const INTELLECTOR_ESCAPE: usize = 14;
    /// Hexes next to the Intellector that an enemy piece attacks.
    pub const CONTROLLED_NEXT_TO_INTELLECTOR: usize = 15;
    /// Enemy pieces within two steps of the Intellector.
    pub const ATTACKER_NEAR_INTELLECTOR: usize = 16;
    /// The Intellector by the steps it still needs to break through, 0 to 3 (4).
    pub const INTELLECTOR_ADVANCE: usize = 17;
    /// The side to move can capture the enemy Intellector, and can break through (0 to 2).
    pub const WIN_IN_ONE: usize = 21;
    /// The side to move's own Intellector is attacked: it must spend its move on that.
    pub const INTELLECTOR_ATTACKED: usize = 22;
    /// The enemy Intellector can break through next move unless the side to move stops it.
    pub const BREAKTHROUGH_THREATENED: usize = 23;
    /// The best material gain the side to move can make with one capture or promotion (in
    /// centipawns): likely, not certain, to be its best move.
    pub const BEST_GAIN: usize = 24;
    /// The enemy's second-best gain (in centipawns): the side to move can parry one threat
    /// with its move, seldom two.
    pub const SECOND_THREAT: usize = 25;
    /// How many features there are.
    pub const COUNT: usize = 26;
}
use feature::*;

/// The name of every feature, in index order.
pub const FEATURES: [&str; COUNT] = [
    "material_progressor",
    "material_dominator",
    "material_aggressor",
    "material_defensor",
    "material_liberator",
    "progressor_advance_0",
    "progressor_advance_1",
    "progressor_advance_2",
    "progressor_advance_3",
    "progressor_advance_4",
    "progressor_advance_5",
    "progressor_advance_6",
    "mobility",
    "defender_next_to_intellector",
    "intellector_escape",
    "controlled_next_to_intellector",
    "attacker_near_intellector",
    "intellector_advance_0",
    "intellector_advance_1",
    "intellector_advance_2",
    "intellector_advance_3",
    "win_in_one",
    "intellector_attacked",
    "breakthrough_threatened",
    "best_gain",
    "second_threat",
];

/// What one side's pieces do, gathered in one pass.
struct SideEval {
    /// Hexes attacked by the side's pieces of each type (index = type code; the Intellector
    /// never captures). A hex holding an own piece counts: that piece is defended.
    attacks: [HexSet; 7],
    /// The union of `attacks`.
    all: HexSet,
}

/// [`WEIGHTS`] packed for the search.
static PACKED: [Packed; WEIGHTS.len()] = pack(&WEIGHTS);

/// The static evaluation: positive is good for the side to move.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    let mut score = Score::new(&PACKED);
    terms(pos, &mut score);
    score.total() / SCALE
}

/// The features of `pos` for the side to move (its evaluation is
/// `trace.score(&WEIGHTS) / SCALE`).
pub fn trace(pos: &Position) -> Trace {
    Trace::of(|trace| terms(pos, trace))
}

/// Reports every feature of `pos` to `sink`: the side to move's counts positive, the
/// opponent's negative.
#[inline]
pub fn terms<S: Sink>(pos: &Position, sink: &mut S) {
    let me = pos.to_move();
    let them = me.opponent();
    let (mine, theirs) = {
        let mut my_side = Signed::<_, 1>::new(&mut *sink);
        let mine = side_terms(pos, me, &mut my_side);
        let mut their_side = Signed::<_, -1>::new(&mut *sink);
        (mine, side_terms(pos, them, &mut their_side))
    };
    sink.phase(phase(pos));
    intellector_safety(pos, me, &theirs, &mut Signed::<_, 1>::new(&mut *sink));
    intellector_safety(pos, them, &mine, &mut Signed::<_, -1>::new(&mut *sink));

    let captures_intellector = pos.intellector(them).is_some_and(|hex| mine.all.contains(hex));
    sink.add(WIN_IN_ONE, captures_intellector as i32 + can_break_through(pos, me) as i32);
    if pos.intellector(me).is_some_and(|hex| theirs.all.contains(hex)) {
        sink.add(INTELLECTOR_ATTACKED, 1);
    }
    if can_break_through(pos, them) {
        sink.add(BREAKTHROUGH_THREATENED, 1);
    }
    let (my_best, _) = gains(pos, me, &mine, &theirs);
    let (_, their_second) = gains(pos, them, &theirs, &mine);
    sink.add(BEST_GAIN, my_best);
    sink.add(SECOND_THREAT, their_second);
}

/// The share of the starting material still on the board, as a phase.
fn phase(pos: &Position) -> i32 {
    let mut material = 0;
    for hex in pos.occupied[0] | pos.occupied[1] {
        material += VALUE[(pos.squares[hex.index()] & KIND_MASK) as usize];
    }
    (material * PHASE_MAX / START_MATERIAL).min(PHASE_MAX)
}

/// Whether `color`'s Intellector could break through with its next move: it stands next to
/// a hex of the enemy base line that is empty (a step) or holds its own Defensor (a swap).
pub fn can_break_through(pos: &Position, color: Color) -> bool {
    let Some(hex) = pos.intellector(color) else { return false };
    let targets = TABLES.step_set[hex.index()] & base_line(color.opponent());
    if targets.is_empty() {
        return false;
    }
    let c = color.index();
    let own = pos.occupied[c];
    let empty = !(own | pos.occupied[1 - c]);
    let open = !(targets & empty).is_empty();
    open || (own & targets).iter().any(|hex| pos.squares[hex.index()] == Kind::Defensor as u8 | color_bits(color))
}

/// Hexes a slider attacks along `rays`: every hex up to and including the first piece.
#[inline(always)]
fn slider_attacks(rays: &[Ray; 6], occupied: HexSet) -> HexSet {
    let mut set = HexSet::EMPTY;
    for ray in rays {
        for &h in ray.hexes() {
            let hex = Hex::from_index(h as usize);
            set.insert(hex);
            if occupied.contains(hex) {
                break;
            }
        }
    }
    set
}

/// The hexes in `hexes` as a set ([`NONE`] entries skipped).
#[inline(always)]
fn set_of(hexes: &[u8]) -> HexSet {
    hexes.iter().filter(|&&n| n != NONE).map(|&n| Hex::from_index(n as usize)).collect()
}

/// One pass over the pieces of `color`: material, advancement and mobility to `out`, and the
/// attack sets.
fn side_terms<S: Sink, const SIGN: i32>(pos: &Position, color: Color, out: &mut Signed<'_, S, SIGN>) -> SideEval {
    let c = color.index();
    let own = pos.occupied[c];
    let occupied = own | pos.occupied[1 - c];
    let empty = !occupied;
    let mut eval = SideEval { attacks: [HexSet::EMPTY; 7], all: HexSet::EMPTY };
    let mut mobility = 0;
    for hex in own {
        let h = hex.index();
        let code = pos.squares[h] & KIND_MASK;
        let (attacks, moves) = match Kind::from_code(code) {
            Some(Kind::Progressor) => {
                let distance = (TABLES.promotion_distance[c][h] as usize).min(6);
                out.add(PROGRESSOR_ADVANCE + distance, 1);
                let attacks = set_of(&TABLES.forward[c][h]);
                (attacks, attacks - own)
            }
            Some(Kind::Dominator) => {
                let attacks = slider_attacks(&TABLES.lateral_ray[h], occupied);
                (attacks, attacks - own)
            }
            Some(Kind::Aggressor) => {
                let attacks = slider_attacks(&TABLES.radial_ray[h], occupied);
                (attacks, attacks - own)
            }
            Some(Kind::Defensor) => {
                let attacks = TABLES.step_set[h];
                (attacks, attacks - own)
            }
            Some(Kind::Liberator) => {
                let attacks = set_of(&TABLES.jump[h]);
                let steps = match pos.rules() {
                    Rules::Modern => TABLES.step_set[h] & empty,
                    Rules::Classic => HexSet::EMPTY,
                };
                // A step and a jump never share a destination.
                (attacks, (attacks - own) | steps)
            }
            Some(Kind::Intellector) => continue,
            None => unreachable!("occupancy and squares agree"),
        };
        out.add(MATERIAL + code as usize - 1, 1);
        mobility += moves.len() as i32;
        eval.attacks[code as usize] |= attacks;
        eval.all |= attacks;
    }
    out.add(MOBILITY, mobility);
    eval
}

/// Safety and progress of `color`'s Intellector, given the enemy's attack sets.
fn intellector_safety<S: Sink, const SIGN: i32>(
    pos: &Position,
    color: Color,
    enemy: &SideEval,
    out: &mut Signed<'_, S, SIGN>,
) {
    let Some(hex) = pos.intellector(color) else { return };
    let h = hex.index();
    let c = color.index();
    let own = pos.occupied[c];
    let empty = !(own | pos.occupied[1 - c]);
    let near = TABLES.step_set[h];
    let steps = TABLES.breakthrough_distance[c][h] as usize;
    out.add(DEFENDER_NEXT_TO_INTELLECTOR, (near & own).len() as i32);
    out.add(INTELLECTOR_ESCAPE, ((near & empty) - enemy.all).len() as i32);
    out.add(CONTROLLED_NEXT_TO_INTELLECTOR, (near & enemy.all).len() as i32);
    out.add(ATTACKER_NEAR_INTELLECTOR, (TABLES.near2[h] & pos.occupied[1 - c]).len() as i32);
    if steps < 4 {
        out.add(INTELLECTOR_ADVANCE + steps, 1);
    }
}

/// The value of the cheapest piece of `side` attacking `hex` (which it must attack).
#[inline(always)]
fn cheapest_attacker(side: &SideEval, hex: Hex) -> i32 {
    side.attacks[1..=5]
        .iter()
        .zip(&VALUE[1..=5])
        .filter(|(set, _)| set.contains(hex))
        .map(|(_, &value)| value)
        .min()
        .unwrap_or(i32::MAX)
}

/// The best and second-best material gain `color` could make with one capture (of anything
/// but the Intellector, which [`evaluate`] scores apart) or promotion, by a one-exchange
/// estimate: a defended victim costs the capturer back.
fn gains(pos: &Position, color: Color, mine: &SideEval, theirs: &SideEval) -> (i32, i32) {
    let c = color.index();
    let enemy = pos.occupied[1 - c];
    let mut top = (0, 0);
    let mut note = |gain: i32| {
        if gain > top.0 {
            top = (gain, top.0);
        } else if gain > top.1 {
            top.1 = gain;
        }
    };
    for hex in enemy & mine.all {
        let victim = VALUE[(pos.squares[hex.index()] & KIND_MASK) as usize];
        if theirs.all.contains(hex) {
            note(victim - cheapest_attacker(mine, hex));
        } else {
            note(victim);
        }
    }
    // Promotions: a Progressor one move from the enemy base line becomes a Dominator.
    let line = base_line(color.opponent());
    for hex in (mine.attacks[Kind::Progressor as usize] & line) - pos.occupied[c] {
        let code = pos.squares[hex.index()];
        if code != EMPTY && code & KIND_MASK == Kind::Intellector as u8 {
            continue;
        }
        let victim = VALUE[(code & KIND_MASK) as usize];
        let kept = if theirs.all.contains(hex) { 0 } else { DOMINATOR };
        note(victim + kept - PROGRESSOR);
    }
    top
}

impl Position {
    /// Whether a piece of `by` could capture on `hex` if it were `by`'s move (the Intellector
    /// never captures; Classic promotion limits are ignored).
    pub fn attacks(&self, hex: Hex, by: Color) -> bool {
        self.attacks_past(hex, by, None)
    }

    /// Like [`Position::attacks`], with the piece on `lifted` (a piece of the side attacked)
    /// imagined away: it shields nothing behind it.
    fn attacks_past(&self, hex: Hex, by: Color, lifted: Option<Hex>) -> bool {
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
        let lifted = lifted.map_or(usize::MAX, |l| l.index());
        let blocks = |n: u8| n as usize != lifted && self.squares[n as usize] != EMPTY;
        let first_on = |rays: &[Ray; 6], kind: Kind| {
            rays.iter().any(|ray| ray.hexes().iter().find(|&&n| blocks(n)).is_some_and(|&n| is(n, kind)))
        };
        first_on(&TABLES.lateral_ray[h], Kind::Dominator) || first_on(&TABLES.radial_ray[h], Kind::Aggressor)
    }
}

/// Captures, promotions and aura transformations: the moves that change material.
pub fn is_tactical(pos: &Position, mv: Move) -> bool {
    mv.becomes().is_some() || pos.is_capture(mv)
}

/// Whether the side to move faces an immediate loss: the enemy Intellector can break through
/// with its next move, or its own Intellector is attacked and cannot simply step to an empty
/// hex that no enemy piece attacks. (An attacked Intellector with such a step is common and
/// needs no deeper look; the evaluation charges it a tempo.)
pub fn in_danger(pos: &Position) -> bool {
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
fn has_safe_step(pos: &Position, hex: Hex, enemy: Color) -> bool {
    let steps = TABLES.step_set[hex.index()] - (pos.occupied[0] | pos.occupied[1]);
    steps.iter().any(|n| !pos.attacks_past(n, enemy, Some(hex)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::intellector::Piece;

    /// One side's attack sets (its features thrown away).
    fn side_eval(p: &Position, color: Color) -> SideEval {
        side_terms(p, color, &mut Signed::<_, 1>::new(&mut Trace::default()))
    }

    #[test]
    fn the_trace_scores_what_the_evaluation_scores() {
        // Along random games, the weights times the traced counts are the evaluation itself.
        let mut state = 11u64;
        for _ in 0..20 {
            let mut p = Position::new(Rules::Modern);
            let mut moves = Vec::new();
            for _ in 0..80 {
                p.generate_moves(&mut moves);
                if moves.is_empty() || p.outcome().is_over() {
                    break;
                }
                assert_eq!(evaluate(&p), trace(&p).score(&WEIGHTS) / SCALE, "{}", p.to_sip());
                let (next, r) = crate::zobrist::splitmix64(state);
                state = next;
                p.make(moves[(r % moves.len() as u64) as usize]);
            }
        }
    }

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
        // Asking changes nothing (the Intellector is only imagined off its hex).
        let p = pos('w', "wId2 wPc2 wPc3 wPe2 wPe3 bDd5 bIe7");
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

    #[test]
    fn a_free_capture_counts_for_the_side_to_move_only() {
        // White's Dominator on e4 can take the Black Aggressor on e6 (no Black piece guards it).
        let free = pos('w', "wIa1 wDe4 bAe6 bIi7");
        // A Black Defensor on f6 guards it: taking costs the Dominator back.
        let guarded = pos('w', "wIa1 wDe4 bAe6 bFf6 bIi7");
        let gain = |p: &Position| {
            let me = p.to_move();
            gains(p, me, &side_eval(p, me), &side_eval(p, me.opponent())).0
        };
        assert_eq!(gain(&free), AGGRESSOR);
        assert_eq!(gain(&guarded), 0);
        // With Black to move the Aggressor is not White's to take yet: Black keeps it.
        let black = pos('b', "wIa1 wDe4 bAe6 bIi7");
        let threat = |p: &Position| {
            let them = p.to_move().opponent();
            gains(p, them, &side_eval(p, them), &side_eval(p, them.opponent()))
        };
        assert_eq!(threat(&black), (AGGRESSOR, 0));
        assert!(evaluate(&free) > -evaluate(&black));
    }

    #[test]
    fn a_promotion_is_a_gain_unless_the_square_is_guarded() {
        let p = pos('w', "wIa1 wPe6 bIi7");
        let me = p.to_move();
        assert_eq!(gains(&p, me, &side_eval(&p, me), &side_eval(&p, me.opponent())).0, DOMINATOR - PROGRESSOR);
        // A Black Aggressor on a7 guards e7 along the base line (c7 is empty).
        let q = pos('w', "wIa1 wPe6 bAa7 bIi4");
        let me = q.to_move();
        assert!(gains(&q, me, &side_eval(&q, me), &side_eval(&q, me.opponent())).0 < DOMINATOR - PROGRESSOR);
    }

    #[test]
    fn a_win_in_one_dominates_the_score() {
        // White's Intellector on d6 steps to c7 or e7 next move.
        assert!(can_break_through(&pos('w', "wId6 bIa1"), Color::White));
        assert!(evaluate(&pos('w', "wId6 bIa1 bDe4")) > WEIGHTS[WIN_IN_ONE][0] / SCALE / 2);
        // With Black to move, Black must stop it: worse for Black than a distant Intellector.
        assert!(
            evaluate(&pos('b', "wId6 bIa1 bDe4")) - WEIGHTS[BREAKTHROUGH_THREATENED][0] / SCALE
                <= evaluate(&pos('b', "wId4 bIa1 bDe4"))
        );
    }
}
