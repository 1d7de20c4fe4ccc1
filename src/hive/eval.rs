//! Static evaluation of Hive positions, from the side to move's point of view.
//!
//! The game is decided around the queens, so most of the score is about them:
//! - how many neighbours each queen has, growing steeply towards the sixth;
//! - whether those neighbours can leave (a pinned or covered neighbour, or an enemy piece,
//!   stays; a free friendly piece can step aside), and whether the queen can still move;
//! - a beetle (or mosquito) sitting on a queen;
//! - a pillbug next to its own queen, which can throw attackers away;
//!
//! and then about who can still act, bug by bug (the terms Mzinga's evaluation uses):
//! - pieces in hand (and so in play: the two always add up to the same for both sides),
//!   pinned, covered;
//! - mobility: each uncovered, unpinned piece that can actually move;
//! - noisy pieces: free pieces that could reach an empty cell next to the enemy queen (ants,
//!   beetles, grasshoppers in line, …), the threats that finish games;
//! - friendly and enemy neighbours of each piece.
//!
//! The evaluation is weights × features ([`crate::eval`]): [`terms`] reports every feature,
//! and the weights, an opening and an end-game value for each, live in
//! [`super::weights::WEIGHTS`], written by `comb tune`.

use super::grid::{adjacent, neighbour, Cell, DIRECTION_DELTAS};
use super::piece::{Bug, Piece, PieceSet};
use super::weights::WEIGHTS;
use super::{Hive, Move, MoveView};
use crate::eval::{pack, Packed, Score, Signed, Sink, Trace, PHASE_MAX};
use crate::game::Color;

/// Feature indices: a single feature, or the first of [`BUG_COUNT`](super::piece::BUG_COUNT)
/// (one per [`Bug`], in its order). The per-bug blocks follow from the bug table.
pub mod feature {
    use crate::hive::piece::BUG_COUNT;

    /// Occupied cells around the player's queen: one feature per count, 0 to 6.
    pub const QUEEN_RING: usize = 0;
    /// Each queen neighbour that cannot leave (pinned, covered, or enemy).
    pub const STUCK_NEIGHBOUR: usize = QUEEN_RING + 7;
    /// The queen itself can still move.
    pub const QUEEN_FREE: usize = STUCK_NEIGHBOUR + 1;
    /// A piece sits on top of the queen.
    pub const QUEEN_COVERED: usize = QUEEN_FREE + 1;
    /// An own pillbug (or a mosquito next to one) beside the own queen, free to act.
    pub const PILLBUG_GUARD: usize = QUEEN_COVERED + 1;
    /// Each beetle or mosquito on top of the hive (it pins what it covers).
    pub const ON_TOP: usize = PILLBUG_GUARD + 1;
    /// Free pieces that can reach an empty cell next to the enemy queen, at most three.
    pub const ATTACKERS: usize = ON_TOP + 1;
    /// Having the move.
    pub const TEMPO: usize = ATTACKERS + 1;
    /// Uncovered, unpinned pieces that can move, by bug (none before the queen is in play).
    pub const MOBILE: usize = TEMPO + 1;
    /// Pieces in hand, by bug.
    pub const IN_HAND: usize = MOBILE + BUG_COUNT;
    /// Pieces that (probably) hold the hive together, by bug.
    pub const PINNED: usize = IN_HAND + BUG_COUNT;
    /// Pieces with a piece on top of them, by bug.
    pub const COVERED: usize = PINNED + BUG_COUNT;
    /// Mobile pieces that can reach an empty cell next to the enemy queen, by bug.
    pub const NOISY: usize = COVERED + BUG_COUNT;
    /// Own pieces next to each uncovered piece, by bug.
    pub const FRIENDLY_NEIGHBOURS: usize = NOISY + BUG_COUNT;
    /// Enemy pieces next to each uncovered piece, by bug.
    pub const ENEMY_NEIGHBOURS: usize = FRIENDLY_NEIGHBOURS + BUG_COUNT;
    /// How many features there are.
    pub const COUNT: usize = ENEMY_NEIGHBOURS + BUG_COUNT;

    /// The per-bug blocks with the prefix of their feature names, in index order.
    pub const PER_BUG: [(usize, &str); 7] = [
        (MOBILE, "mobile"),
        (IN_HAND, "in_hand"),
        (PINNED, "pinned"),
        (COVERED, "covered"),
        (NOISY, "noisy"),
        (FRIENDLY_NEIGHBOURS, "friendly_neighbours"),
        (ENEMY_NEIGHBOURS, "enemy_neighbours"),
    ];
}
use feature::*;

// `comb tune` writes one weight per feature.
const _: () = assert!(WEIGHTS.len() == COUNT, "one weight per feature");

/// The name of every feature, in index order.
pub const FEATURES: [&str; COUNT] = [
    "queen_ring_0",
    "queen_ring_1",
    "queen_ring_2",
    "queen_ring_3",
    "queen_ring_4",
    "queen_ring_5",
    "queen_ring_6",
    "stuck_neighbour",
    "queen_free",
    "queen_covered",
    "pillbug_guard",
    "on_top",
    "attackers",
    "tempo",
    "mobile_queen",
    "mobile_spider",
    "mobile_beetle",
    "mobile_grasshopper",
    "mobile_ant",
    "mobile_mosquito",
    "mobile_ladybug",
    "mobile_pillbug",
    "in_hand_queen",
    "in_hand_spider",
    "in_hand_beetle",
    "in_hand_grasshopper",
    "in_hand_ant",
    "in_hand_mosquito",
    "in_hand_ladybug",
    "in_hand_pillbug",
    "pinned_queen",
    "pinned_spider",
    "pinned_beetle",
    "pinned_grasshopper",
    "pinned_ant",
    "pinned_mosquito",
    "pinned_ladybug",
    "pinned_pillbug",
    "covered_queen",
    "covered_spider",
    "covered_beetle",
    "covered_grasshopper",
    "covered_ant",
    "covered_mosquito",
    "covered_ladybug",
    "covered_pillbug",
    "noisy_queen",
    "noisy_spider",
    "noisy_beetle",
    "noisy_grasshopper",
    "noisy_ant",
    "noisy_mosquito",
    "noisy_ladybug",
    "noisy_pillbug",
    "friendly_neighbours_queen",
    "friendly_neighbours_spider",
    "friendly_neighbours_beetle",
    "friendly_neighbours_grasshopper",
    "friendly_neighbours_ant",
    "friendly_neighbours_mosquito",
    "friendly_neighbours_ladybug",
    "friendly_neighbours_pillbug",
    "enemy_neighbours_queen",
    "enemy_neighbours_spider",
    "enemy_neighbours_beetle",
    "enemy_neighbours_grasshopper",
    "enemy_neighbours_ant",
    "enemy_neighbours_mosquito",
    "enemy_neighbours_ladybug",
    "enemy_neighbours_pillbug",
];

/// [`WEIGHTS`] packed for the search.
static PACKED: [Packed; COUNT] = pack(&WEIGHTS);

/// The static score of `hive` for the side to move.
#[inline]
pub fn evaluate(hive: &Hive) -> i32 {
    let mut score = Score::new(&PACKED);
    terms(hive, &mut score);
    score.total()
}

/// The features of `hive` for the side to move (its evaluation is `trace.score(&WEIGHTS)`).
pub fn trace(hive: &Hive) -> Trace {
    Trace::of(|trace| terms(hive, trace))
}

/// Reports every feature of `hive` to `sink`: the side to move's counts positive, the
/// opponent's negative.
#[inline]
pub fn terms<S: Sink>(hive: &Hive, sink: &mut S) {
    let in_hand = (hive.enabled - hive.in_play).len() as i32;
    let pieces = hive.enabled.len().max(1) as i32;
    sink.phase(in_hand * PHASE_MAX / pieces);
    let pinned = likely_pinned(hive);
    let me = hive.to_move();
    side_terms(hive, me, pinned, &mut Signed::<_, 1>::new(sink));
    side_terms(hive, me.opponent(), pinned, &mut Signed::<_, -1>::new(sink));
    sink.add(TEMPO, 1);
}

/// Pieces standing alone whose neighbours form two or more separate groups: almost always the
/// pieces that hold the hive together. (Exact pins need a graph search; a piece on a ring
/// around an empty cell is the exception, and the evaluation can live with it.)
fn likely_pinned(hive: &Hive) -> PieceSet {
    let mut pinned = PieceSet::EMPTY;
    for piece in hive.in_play {
        let c = hive.pos[piece];
        if hive.height(c) != 1 {
            continue;
        }
        let ring = hive.ring(c);
        let previous = ((ring << 1) | (ring >> 5)) & 63;
        // Each occupied neighbour whose anticlockwise neighbour is empty starts a group.
        if (ring & !previous).count_ones() >= 2 {
            pinned.insert(piece);
        }
    }
    pinned
}

/// Whether `piece`, an uncovered stack top, can move at all (a cheap test, not a move
/// generation).
#[inline]
fn can_move(hive: &Hive, piece: Piece, pinned: PieceSet) -> bool {
    if pinned.contains(piece) {
        return false;
    }
    let c = hive.pos[piece];
    match piece.bug() {
        Bug::Beetle | Bug::Grasshopper | Bug::Ladybug => true,
        Bug::Mosquito => hive.level(piece) > 0 || hive.ring(c) != 0,
        // Crawlers need a legal slide from their cell.
        _ => hive.slides(c) != 0,
    }
}

/// The features of one side.
fn side_terms<S: Sink, const SIGN: i32>(hive: &Hive, color: Color, pinned: PieceSet, out: &mut Signed<'_, S, SIGN>) {
    let own = PieceSet::of(color);
    let enemy_queen = hive.position(Piece::queen(color.opponent()));
    // The empty cells next to the enemy queen, which attackers aim at (none without a queen).
    let holes = enemy_queen.map_or(0, |q| !hive.ring(q) & 63);
    // Pieces in hand (the queen included: placing it is still to come).
    for piece in (hive.enabled & own) - hive.in_play {
        out.add(IN_HAND + piece.bug() as usize, 1);
    }
    // Mobility and attackers: nothing moves before its side's queen is in play.
    let mut attackers = 0;
    let movers = if hive.queen_in_play(color) { hive.in_play & own } else { PieceSet::EMPTY };
    for piece in hive.in_play & own {
        let bug = piece.bug() as usize;
        let c = hive.pos[piece];
        if hive.top[c] != piece {
            out.add(COVERED + bug, 1);
            continue;
        }
        let (white, black) = (hive.rings[c].colour(0), hive.rings[c].colour(1));
        let (friends, enemies) = if color == Color::White { (white, black) } else { (black, white) };
        out.add(FRIENDLY_NEIGHBOURS + bug, friends.count_ones() as i32);
        out.add(ENEMY_NEIGHBOURS + bug, enemies.count_ones() as i32);
        if pinned.contains(piece) {
            out.add(PINNED + bug, 1);
        }
        if hive.level(piece) > 0 {
            out.add(ON_TOP, 1);
        }
        if !movers.contains(piece) || !can_move(hive, piece, pinned) {
            continue;
        }
        out.add(MOBILE + bug, 1);
        if let Some(q) = enemy_queen.filter(|_| holes != 0) {
            if threatens(hive, piece, c, q, holes) {
                out.add(NOISY + bug, 1);
                attackers += 1;
            }
        }
    }
    out.add(ATTACKERS, attackers.min(3));
    queen_terms(hive, color, pinned, out);
}

/// Whether a free `piece` on `c` could plausibly reach one of the `holes` (empty cells, as
/// directions) next to the queen on `q` in one move: ants and mosquitoes anywhere on the rim,
/// beetles and ladybugs nearby, grasshoppers in line, others already adjacent to such a cell.
#[inline(always)]
fn threatens(hive: &Hive, piece: Piece, c: Cell, q: Cell, holes: u8) -> bool {
    let near = NEAR_QUEEN[offset(q, c)];
    let next_to_queen = near & NEXT_TO_QUEEN != 0;
    match piece.bug() {
        Bug::Ant | Bug::Mosquito => !next_to_queen,
        Bug::Beetle | Bug::Ladybug | Bug::Queen | Bug::Pillbug | Bug::Spider => !next_to_queen && near & holes != 0,
        Bug::Grasshopper => (0..6).any(|d| {
            // The landing cell lies beyond a line of pieces starting next to the grasshopper;
            // empty, it is a hole if it touches the queen.
            let mut cell = neighbour(c, d);
            if !hive.occupied(cell) {
                return false;
            }
            while hive.occupied(cell) {
                cell = neighbour(cell, d);
            }
            adjacent(q, cell)
        }),
    }
}

/// Bit of [`NEAR_QUEEN`] saying that the cell touches the queen.
const NEXT_TO_QUEEN: u8 = 1 << 6;

/// Where `c` lies from `q` on the torus: both axial differences wrapped to `0..32`, as one
/// index of [`NEAR_QUEEN`].
#[inline(always)]
fn offset(q: Cell, c: Cell) -> usize {
    let (q, c) = (q.index(), c.index());
    (c.wrapping_sub(q) & 31) | ((c >> 5).wrapping_sub(q >> 5) & 31) << 5
}

/// For every [`offset`] of a cell from the queen: bit `d` set when the cell touches the
/// queen's neighbour in direction `d` (or is that neighbour's own cell's neighbour, the queen's
/// cell included), and [`NEXT_TO_QUEEN`] when it touches the queen. One load replaces six
/// adjacency tests per piece.
static NEAR_QUEEN: [u8; 1024] = {
    const fn is_step(dq: i32, dr: i32) -> bool {
        let mut d = 0;
        while d < 6 {
            if DIRECTION_DELTAS[d].0 == dq && DIRECTION_DELTAS[d].1 == dr {
                return true;
            }
            d += 1;
        }
        false
    }
    let mut table = [0u8; 1024];
    let mut dq = -2;
    while dq <= 2 {
        let mut dr = -2;
        while dr <= 2 {
            let mut bits = if is_step(dq, dr) { NEXT_TO_QUEEN } else { 0 };
            let mut d = 0;
            while d < 6 {
                let (nq, nr) = DIRECTION_DELTAS[d];
                if is_step(dq - nq, dr - nr) {
                    bits |= 1 << d;
                }
                d += 1;
            }
            table[((dq & 31) | (dr & 31) << 5) as usize] = bits;
            dr += 1;
        }
        dq += 1;
    }
    table
};

/// How badly the queen of `color` is surrounded.
fn queen_terms<S: Sink, const SIGN: i32>(hive: &Hive, color: Color, pinned: PieceSet, out: &mut Signed<'_, S, SIGN>) {
    let queen = Piece::queen(color);
    let Some(q) = hive.position(queen) else { return };
    let ring = hive.ring(q);
    out.add(QUEEN_RING + ring.count_ones() as usize, 1);
    let mut stuck = 0;
    let mut guard = false;
    for d in 0..6 {
        if ring & (1 << d) == 0 {
            continue;
        }
        let n = neighbour(q, d);
        let top = hive.top[n].piece(); // the ring says the cell is occupied
        if top.color() != color || hive.height(n) > 1 || !can_move(hive, top, pinned) {
            stuck += 1;
        }
        if top.color() == color
            && hive.height(n) == 1
            && (top.bug() == Bug::Pillbug || (top.bug() == Bug::Mosquito && next_to_pillbug(hive, n)))
            && hive.last_moved != top
        {
            guard = true;
        }
    }
    out.add(STUCK_NEIGHBOUR, stuck);
    if !hive.is_on_top(queen) {
        out.add(QUEEN_COVERED, 1);
    } else if can_move(hive, queen, pinned) {
        out.add(QUEEN_FREE, 1);
    }
    if guard {
        out.add(PILLBUG_GUARD, 1);
    }
}

fn next_to_pillbug(hive: &Hive, c: Cell) -> bool {
    (0..6).any(|d| hive.top(neighbour(c, d)).is_some_and(|p| p.bug() == Bug::Pillbug))
}

/// Moves that land next to the enemy queen from a cell that was not next to it.
#[inline(always)]
pub fn is_tactical(hive: &Hive, mv: Move) -> bool {
    let Some(q) = hive.position(Piece::queen(hive.to_move().opponent())) else { return false };
    match mv.view() {
        // Possible when an own beetle covers the enemy queen.
        MoveView::Place { to, .. } => adjacent(q, to),
        MoveView::Move { from, to, .. } => adjacent(q, to) && !adjacent(q, from),
        MoveView::Pass => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hive::HiveGame;

    fn hive(game_string: &str) -> Hive {
        HiveGame::parse(game_string).unwrap().hive().clone()
    }

    fn tempo(phase: i32) -> i32 {
        let [opening, end] = WEIGHTS[TEMPO];
        (opening * phase + end * (PHASE_MAX - phase)) / PHASE_MAX
    }

    #[test]
    fn per_bug_features_follow_the_bug_table() {
        // Each block holds one feature per bug, named after it, and the blocks end the list.
        for (i, &(first, prefix)) in PER_BUG.iter().enumerate() {
            assert_eq!(first, MOBILE + i * Bug::ALL.len(), "{prefix}");
            for bug in Bug::ALL {
                let name = format!("{prefix}_{}", bug.name().to_lowercase());
                assert_eq!(FEATURES[first + bug as usize], name);
            }
        }
        assert_eq!(MOBILE + PER_BUG.len() * Bug::ALL.len(), COUNT);
        assert_eq!(FEATURES[TEMPO], "tempo");
        assert_eq!(FEATURES[QUEEN_RING + 6], "queen_ring_6");
    }

    #[test]
    fn near_queen_table_is_adjacency() {
        // Queens at the origin, mid-torus and on both wrapping edges; every cell of the torus.
        for q in [0, 31, 32 * 31, 1023, 500].map(Cell::from_index) {
            for c in Cell::all() {
                let near = NEAR_QUEEN[offset(q, c)];
                assert_eq!(near & NEXT_TO_QUEEN != 0, adjacent(q, c));
                for d in 0..6 {
                    assert_eq!(near & (1 << d) != 0, adjacent(neighbour(q, d), c), "{d}");
                }
            }
        }
    }

    #[test]
    fn start_is_balanced_up_to_tempo() {
        assert_eq!(evaluate(&hive("Base+MLP;NotStarted;White[1]")), tempo(PHASE_MAX));
        assert_eq!(trace(&hive("Base+MLP;NotStarted;White[1]")).counts, vec![(TEMPO as u16, 1)]);
    }

    #[test]
    fn a_crowded_queen_is_bad_for_its_owner() {
        // White's queen has five neighbours, black's has one: black (to move) is far ahead.
        let s = "Base;InProgress;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/";
        let h = hive(s);
        assert!(evaluate(&h) > 100, "{}", evaluate(&h));
        let t = trace(&h);
        assert!(t.counts.contains(&((QUEEN_RING + 5) as u16, -1)), "{t:?}");
        assert!(t.counts.contains(&((QUEEN_RING + 1) as u16, 1)), "{t:?}");
    }

    #[test]
    fn nothing_moves_before_the_queen() {
        // No queen is in play: White has placed an ant and a spider, Black two spiders, and
        // nobody is mobile. Each piece touches one friend.
        let t = trace(&hive("Base;InProgress;White[3];wA1;bS1 wA1-;wS1 -wA1;bS2 bS1-"));
        let bug = |base: usize, bug: Bug| (base + bug as usize) as u16;
        let mut expected = vec![
            (bug(IN_HAND, Bug::Spider), 1),
            (bug(IN_HAND, Bug::Ant), -1),
            (bug(FRIENDLY_NEIGHBOURS, Bug::Spider), 1 - 2),
            (bug(FRIENDLY_NEIGHBOURS, Bug::Ant), 1),
            (bug(ENEMY_NEIGHBOURS, Bug::Spider), -1),
            (bug(ENEMY_NEIGHBOURS, Bug::Ant), 1),
            (bug(PINNED, Bug::Spider), -1),
            (bug(PINNED, Bug::Ant), 1),
            (TEMPO as u16, 1),
        ];
        expected.sort();
        expected.retain(|&(_, n)| n != 0);
        assert_eq!(t.counts, expected);
    }

    #[test]
    fn score_flips_with_the_side_to_move() {
        // The same stones, the other player to move: every feature but the tempo flips sign.
        let mut h = hive("Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ-");
        let white = trace(&h);
        h.make(Move::PASS);
        let mut black = trace(&h);
        black.negate();
        let without_tempo =
            |t: &Trace| t.counts.iter().copied().filter(|&(f, _)| f != TEMPO as u16).collect::<Vec<_>>();
        assert_eq!(without_tempo(&white), without_tempo(&black));
        assert_eq!(white.phase, black.phase);
    }

    #[test]
    fn the_trace_scores_what_the_evaluation_scores() {
        // Along a long game of every bug, the weights times the traced counts are the
        // evaluation itself: what the tuner fits is what the search uses.
        let mut game = HiveGame::new(crate::hive::GameType::parse("Base+MLP").unwrap());
        let mut state = 5u64;
        for _ in 0..150 {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let h = game.hive();
            assert_eq!(evaluate(h), trace(h).score(&WEIGHTS), "{}", game.game_string());
            let (next, r) = crate::zobrist::splitmix64(state);
            state = next;
            game.play_move(moves[(r % moves.len() as u64) as usize]);
        }
    }
}
