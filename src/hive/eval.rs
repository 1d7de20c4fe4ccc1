//! Static evaluation of Hive positions, from the side to move's point of view.
//!
//! The game is decided around the queens, so most of the score is about them:
//! - how many neighbours each queen has, growing steeply towards the sixth;
//! - whether those neighbours can leave (a pinned or covered neighbour, or an enemy piece,
//!   stays; a free friendly piece can step aside), and whether the queen can still move;
//! - a beetle (or mosquito) sitting on a queen;
//! - a pillbug next to its own queen, which can throw attackers away;
//!
//! and then about who can still act:
//! - mobility: each uncovered, unpinned piece that can actually move, weighted by its bug;
//! - pieces still in hand, which can enter where they are needed;
//! - free pieces that could reach an empty cell next to the enemy queen (ants, beetles,
//!   grasshoppers in line, …), the threats that finish games.
//!
//! All weights live in [`WEIGHTS`], named, so that matches can tune them.

use super::board::{bits, color_mask};
use super::grid::{adjacent, neighbour, slide_mask, Cell};
use super::piece::{Bug, Piece};
use super::{Hive, Move};
use crate::game::Color;

/// Every weight of the evaluation, in hundredths of a "piece".
#[derive(Copy, Clone, Debug)]
pub struct Weights {
    /// Penalty by number of occupied cells around a player's queen (index 0..=6).
    pub queen_ring: [i32; 7],
    /// Extra penalty for each queen neighbour that cannot leave (pinned, covered, or enemy).
    pub stuck_neighbour: i32,
    /// Bonus when the queen itself can still move.
    pub queen_free: i32,
    /// Penalty when an enemy piece sits on top of the queen.
    pub queen_covered: i32,
    /// Bonus for an own pillbug (or mosquito next to it) beside the own queen, free to act.
    pub pillbug_guard: i32,
    /// Bonus for each movable piece, by bug (Queen, Spider, Beetle, Grasshopper, Ant,
    /// Mosquito, Ladybug, Pillbug).
    pub mobile: [i32; 8],
    /// Bonus for a beetle or mosquito on top of the hive (it pins what it covers).
    pub on_top: i32,
    /// Bonus for each piece in hand, by bug.
    pub in_hand: [i32; 8],
    /// Bonus for each free piece that can reach an empty cell next to the enemy queen.
    pub attacker: i32,
    /// Bonus for having the move.
    pub tempo: i32,
}

/// The weights in use.
pub const WEIGHTS: Weights = Weights {
    queen_ring: [0, 15, 45, 100, 190, 330, 0],
    stuck_neighbour: 25,
    queen_free: 20,
    queen_covered: 90,
    pillbug_guard: 45,
    mobile: [0, 12, 30, 14, 40, 32, 24, 18],
    on_top: 20,
    in_hand: [0, 6, 12, 8, 16, 14, 10, 8],
    attacker: 22,
    tempo: 12,
};

/// The static score of `hive` for the side to move.
pub fn evaluate(hive: &Hive) -> i32 {
    let pinned = likely_pinned(hive);
    let me = hive.to_move();
    let w = &WEIGHTS;
    side_score(hive, me, pinned, w) - side_score(hive, me.opponent(), pinned, w) + w.tempo
}

/// Pieces standing alone whose neighbours form two or more separate groups: almost always the
/// pieces that hold the hive together. (Exact pins need a graph search; a piece on a ring
/// around an empty cell is the exception, and the evaluation can live with it.)
fn likely_pinned(hive: &Hive) -> u32 {
    let mut pinned = 0;
    for id in bits(hive.in_play) {
        let c = hive.pos[id as usize];
        if hive.height(c) != 1 {
            continue;
        }
        let ring = hive.ring(c);
        let previous = ((ring << 1) | (ring >> 5)) & 63;
        // Each occupied neighbour whose anticlockwise neighbour is empty starts a group.
        if (ring & !previous).count_ones() >= 2 {
            pinned |= 1 << id;
        }
    }
    pinned
}

/// Whether the piece `id` of an uncovered stack top can move at all (a cheap test, not a
/// move generation).
#[inline]
fn can_move(hive: &Hive, id: u8, pinned: u32) -> bool {
    if pinned & (1 << id) != 0 {
        return false;
    }
    let piece = Piece(id);
    let c = hive.pos[id as usize];
    match piece.bug() {
        Bug::Beetle | Bug::Grasshopper | Bug::Ladybug => true,
        Bug::Mosquito => hive.level(piece) > 0 || hive.ring(c) != 0,
        // Crawlers need a legal slide from their cell.
        _ => slide_mask(hive.ring(c)) != 0,
    }
}

fn side_score(hive: &Hive, color: Color, pinned: u32, w: &Weights) -> i32 {
    let mut score = 0;
    let own = color_mask(color);
    let enemy_queen = hive.position(Piece::queen(color.opponent()));
    // Pieces in hand (the queen included: placing it is still to come).
    for id in bits(hive.enabled & own & !hive.in_play) {
        score += w.in_hand[Piece(id).bug() as usize];
    }
    // Mobility and attackers: nothing moves before its side's queen is in play.
    let mut attackers = 0;
    let movers = if hive.queen_in_play(color) { hive.in_play & own } else { 0 };
    for id in bits(hive.in_play & own) {
        let piece = Piece(id);
        let c = hive.pos[id as usize];
        if hive.top[c] != piece {
            continue; // covered
        }
        if hive.level(piece) > 0 {
            score += w.on_top;
        }
        if movers & (1 << id) == 0 || !can_move(hive, id, pinned) {
            continue;
        }
        let bug = piece.bug();
        score += w.mobile[bug as usize];
        if let Some(q) = enemy_queen {
            if threatens(hive, piece, c, q) {
                attackers += 1;
            }
        }
    }
    score += w.attacker * attackers.min(3);
    score -= queen_danger(hive, color, pinned, w);
    score
}

/// Whether a free `piece` on `c` could plausibly reach an empty cell next to the queen on `q`
/// in one move: ants and mosquitoes anywhere on the rim, beetles and ladybugs nearby,
/// grasshoppers in line, others already adjacent to such a cell.
fn threatens(hive: &Hive, piece: Piece, c: Cell, q: Cell) -> bool {
    let holes = !hive.ring(q) & 63;
    if holes == 0 {
        return false;
    }
    let near = |cell: Cell| adjacent(cell, c);
    let next_to_queen = adjacent(q, c);
    match piece.bug() {
        Bug::Ant | Bug::Mosquito => !next_to_queen,
        Bug::Beetle | Bug::Ladybug | Bug::Queen | Bug::Pillbug | Bug::Spider => {
            !next_to_queen && (0..6).any(|d| holes & (1 << d) != 0 && near(neighbour(q, d)))
        }
        Bug::Grasshopper => (0..6).any(|d| {
            // The hole lies beyond a line of pieces starting next to the grasshopper.
            let mut cell = neighbour(c, d);
            if !hive.occupied(cell) {
                return false;
            }
            while hive.occupied(cell) {
                cell = neighbour(cell, d);
            }
            (0..6).any(|e| holes & (1 << e) != 0 && neighbour(q, e) == cell)
        }),
    }
}

/// How badly the queen of `color` is surrounded.
fn queen_danger(hive: &Hive, color: Color, pinned: u32, w: &Weights) -> i32 {
    let queen = Piece::queen(color);
    let Some(q) = hive.position(queen) else { return 0 };
    let ring = hive.ring(q);
    let mut danger = w.queen_ring[ring.count_ones() as usize];
    let mut stuck = 0;
    let mut guard = false;
    for d in 0..6 {
        if ring & (1 << d) == 0 {
            continue;
        }
        let n = neighbour(q, d);
        let top = hive.top[n].piece(); // the ring says the cell is occupied
        if top.color() != color || hive.height(n) > 1 || !can_move(hive, top.0, pinned) {
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
    danger += w.stuck_neighbour * stuck;
    if !hive.is_on_top(queen) {
        danger += w.queen_covered;
    } else if can_move(hive, queen.0, pinned) {
        danger -= w.queen_free;
    }
    if guard {
        danger -= w.pillbug_guard;
    }
    danger
}

fn next_to_pillbug(hive: &Hive, c: Cell) -> bool {
    (0..6).any(|d| hive.top(neighbour(c, d)).is_some_and(|p| p.bug() == Bug::Pillbug))
}

/// Moves that land next to the enemy queen from a cell that was not next to it.
#[inline]
pub fn is_tactical(hive: &Hive, mv: Move) -> bool {
    let Some(q) = hive.position(Piece::queen(hive.to_move().opponent())) else { return false };
    match mv {
        // Possible when an own beetle covers the enemy queen.
        Move::Place { to, .. } => adjacent(q, to),
        Move::Move { from, to, .. } => adjacent(q, to) && !adjacent(q, from),
        Move::Pass => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hive::HiveGame;

    fn eval(game_string: &str) -> i32 {
        evaluate(&HiveGame::parse(game_string).unwrap().hive().clone())
    }

    #[test]
    fn start_is_balanced_up_to_tempo() {
        assert_eq!(eval("Base+MLP;NotStarted;White[1]"), WEIGHTS.tempo);
    }

    #[test]
    fn a_crowded_queen_is_bad_for_its_owner() {
        // White's queen has five neighbours, black's has one: black (to move) is far ahead.
        let s = "Base;InProgress;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/";
        assert!(eval(s) > 100, "{}", eval(s));
    }

    #[test]
    fn nothing_moves_before_the_queen() {
        // No queen is in play, so only the pieces in hand differ: White has placed an ant and
        // a spider, Black two spiders.
        let w = WEIGHTS;
        let expected = w.tempo + w.in_hand[Bug::Spider as usize] - w.in_hand[Bug::Ant as usize];
        assert_eq!(eval("Base;InProgress;White[3];wA1;bS1 wA1-;wS1 -wA1;bS2 bS1-"), expected);
    }

    #[test]
    fn score_flips_with_the_side_to_move() {
        // The same stones, the other player to move: the score changes sign, less the tempo.
        let mut hive = HiveGame::parse("Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ-")
            .unwrap()
            .hive()
            .clone();
        let white = evaluate(&hive);
        hive.make(Move::Pass);
        let black = evaluate(&hive);
        assert_eq!(white - WEIGHTS.tempo, -(black - WEIGHTS.tempo));
    }
}
