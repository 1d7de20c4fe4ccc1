//! A learned Hive evaluation: a small network over sparse, translation-invariant features.
//!
//! **Inputs.** Hive has no fixed board, so a piece is described by where it stands relative to
//! the two queens, the pieces the game turns on. From one player's point of view (the
//! *perspective*), every piece on the board gives two features, one per queen ("ours", then
//! "theirs"), each made of
//! - whose piece it is (the perspective's own or the opponent's),
//! - its bug,
//! - its height: on the ground and free, on top of another piece, or covered,
//! - its offset from that queen, one of the 37 cells within distance [`RADIUS`], or "far",
//!   or "that queen is not on the board yet";
//!
//! and every piece in hand gives one feature (whose, and which piece of its side). A move
//! changes a handful of features; a queen move changes the half of them that is relative to
//! it.
//!
//! **Network.** The shape, the integer inference, the file format and the stack of accumulators
//! are every game's ([`crate::nnue`]): each perspective's features sum to [`HIDDEN`] values, and
//! a *residual* network adds its output to the tuned hand-written evaluation ([`super::eval`]).
//! The network in use is embedded from [`NET_FILE`].

use super::grid::Cell;
use super::piece::{Bug, Piece, BUG_COUNT, PER_SIDE, PIECE_COUNT};
use super::Hive;
use crate::game::Color;
use crate::nnue::{self, add, subtract, Learned};
use std::sync::OnceLock;

/// Offsets from a queen are told apart up to this hex distance; beyond it a piece is "far".
pub const RADIUS: i32 = 3;
/// Cells within [`RADIUS`] of a cell, itself included.
const NEAR_CELLS: usize = (3 * RADIUS * (RADIUS + 1) + 1) as usize;
/// The offset bucket of a piece further than [`RADIUS`] from the queen.
const FAR: usize = NEAR_CELLS;
/// The offset bucket used while the queen is not on the board.
const NO_QUEEN: usize = NEAR_CELLS + 1;
/// Offset buckets per queen.
const BUCKETS: usize = NEAR_CELLS + 2;
/// Heights: on the ground and uncovered, on top of a piece, covered.
const HEIGHTS: usize = 3;
/// Features of pieces on the board: queen (ours, theirs) × whose × bug × height × offset.
const BOARD_FEATURES: usize = 2 * 2 * BUG_COUNT * HEIGHTS * BUCKETS;
/// The first in-hand feature: whose × which piece of the side.
const HAND: usize = BOARD_FEATURES;
/// Every input feature.
pub const INPUTS: usize = HAND + 2 * PER_SIDE as usize;
/// Size of each perspective's accumulator.
pub const HIDDEN: usize = 32;
/// Where the embedded network lives, relative to the crate root (what `comb train-net`
/// writes by default).
pub const NET_FILE: &str = "src/hive/net.bin";
/// The most features one perspective can have: every piece once per queen, or once in hand.
pub const MAX_ACTIVE: usize = 2 * PIECE_COUNT;

// Feature indices are stored as `u16` by the trainer.
const _: () = assert!(INPUTS <= u16::MAX as usize, "feature indices fit in a u16");

/// The offset bucket of every wrapped axial delta `(dq & 31) | (dr & 31) << 5`.
static BUCKET_OF_DELTA: [u8; 1024] = {
    let mut table = [FAR as u8; 1024];
    let mut next = 0;
    let mut dr = -RADIUS;
    while dr <= RADIUS {
        let mut dq = -RADIUS;
        while dq <= RADIUS {
            let s = -dq - dr;
            let distance = (dq.abs() + dr.abs() + s.abs()) / 2;
            if distance <= RADIUS {
                table[((dq & 31) | ((dr & 31) << 5)) as usize] = next;
                next += 1;
            }
            dq += 1;
        }
        dr += 1;
    }
    assert!(next as usize == NEAR_CELLS, "every near cell has a bucket");
    table
};

/// Distance rings from a queen, a coarser view of the offset buckets: distance 0 to
/// [`RADIUS`], far, no queen.
const RINGS: usize = RADIUS as usize + 3;
/// Coarse features: the board features with the offset reduced to its ring. The trainer
/// learns them beside the fine ones, shared by every offset of a ring, and folds them into the
/// fine weights when it writes the network (so the engine never sees them): with little data
/// a piece's distance from a queen is learned from all the cells at that distance.
pub const COARSE: usize = 2 * 2 * BUG_COUNT * HEIGHTS * RINGS;

/// The ring of every offset bucket.
static RING_OF_BUCKET: [u8; BUCKETS] = {
    let mut rings = [0u8; BUCKETS];
    let mut dr = -RADIUS;
    while dr <= RADIUS {
        let mut dq = -RADIUS;
        while dq <= RADIUS {
            let b = BUCKET_OF_DELTA[((dq & 31) | ((dr & 31) << 5)) as usize] as usize;
            if b < NEAR_CELLS {
                rings[b] = ((dq.abs() + dr.abs() + (dq + dr).abs()) / 2) as u8;
            }
            dq += 1;
        }
        dr += 1;
    }
    rings[FAR] = RADIUS as u8 + 1;
    rings[NO_QUEEN] = RADIUS as u8 + 2;
    rings
};

/// The coarse feature (below [`COARSE`]) that shares in board feature `f`, if `f` is one.
pub fn coarse_feature(f: usize) -> Option<usize> {
    (f < BOARD_FEATURES).then(|| (f / BUCKETS) * RINGS + RING_OF_BUCKET[f % BUCKETS] as usize)
}

/// The offset bucket of `cell` seen from `queen` (a cell, or `None` while in hand).
#[inline]
fn bucket(cell: Cell, queen: Option<Cell>) -> usize {
    match queen {
        None => NO_QUEEN,
        Some(q) => {
            // The wrapped axial delta straight from the two indices `q | r << 5`.
            let (c, q) = (cell.index(), q.index());
            let delta = (c.wrapping_sub(q) & 31) | (((c >> 5).wrapping_sub(q >> 5) & 31) << 5);
            BUCKET_OF_DELTA[delta] as usize
        }
    }
}

/// The board feature of a piece: `anchor` 0 for the perspective's queen, 1 for the other;
/// `theirs` whether the piece is the opponent's.
#[inline]
fn board_feature(anchor: usize, theirs: bool, bug: Bug, height: usize, bucket: usize) -> usize {
    (((anchor * 2 + theirs as usize) * BUG_COUNT + bug as usize) * HEIGHTS + height) * BUCKETS + bucket
}

/// The active features of `hive` from each player's point of view: `push(perspective,
/// feature)` for each.
pub fn features(hive: &Hive, mut push: impl FnMut(Color, usize)) {
    let queens = queens(hive);
    for id in 0..PIECE_COUNT as u8 {
        let piece = Piece(id);
        if hive.is_enabled(piece) {
            piece_features(hive, piece, queens, &mut push);
        }
    }
}

/// Where the two queens stand (White's, Black's), if on the board.
#[inline]
fn queens(hive: &Hive) -> [Option<Cell>; 2] {
    [Color::White, Color::Black].map(|c| hive.position(Piece::queen(c)))
}

/// The features of one piece from both points of view: two from each perspective for a piece
/// on the board (one per queen), one for a piece in hand.
#[inline]
fn piece_features(hive: &Hive, piece: Piece, queens: [Option<Cell>; 2], push: &mut impl FnMut(Color, usize)) {
    let color = piece.color();
    let Some(cell) = hive.position(piece) else {
        let own_index = (piece.0 % PER_SIDE) as usize;
        push(color, HAND + own_index);
        push(color.opponent(), HAND + PER_SIDE as usize + own_index);
        return;
    };
    let height = if hive.top(cell) != Some(piece) {
        2
    } else if hive.level(piece) > 0 {
        1
    } else {
        0
    };
    let bug = piece.bug();
    let near = [bucket(cell, queens[0]), bucket(cell, queens[1])];
    for perspective in [Color::White, Color::Black] {
        let ours = perspective.index();
        let theirs = color != perspective;
        push(perspective, board_feature(0, theirs, bug, height, near[ours]));
        push(perspective, board_feature(1, theirs, bug, height, near[1 - ours]));
    }
}

impl Learned for Hive {
    const NAME: &'static str = "Hive";
    const INPUTS: usize = INPUTS;
    const COARSE: usize = COARSE;
    const NET_FILE: &'static str = NET_FILE;

    fn coarse_feature(f: usize) -> Option<usize> {
        coarse_feature(f)
    }

    #[inline]
    fn features(&self, push: impl FnMut(Color, usize)) {
        features(self, push)
    }

    #[inline]
    fn classic(&self) -> i32 {
        super::eval::evaluate(self)
    }
}

/// Hive's network.
pub type Network = nnue::Network<HIDDEN>;

/// Both perspectives' accumulators.
pub type Accumulator = nnue::Accumulator<HIDDEN>;

/// The accumulators along the line made so far ([`nnue::Accumulators`]).
pub type Accumulators = nnue::Accumulators<HIDDEN>;

/// Features a move takes away: at most three pieces change (the one that moves, the piece it
/// leaves uncovered, the piece it covers), each with four features.
pub(crate) struct Change {
    /// The pieces whose features change.
    pieces: [Option<Piece>; 3],
    /// Their features before the move (perspective index, feature).
    removed: [(u8, u16); 12],
    count: u8,
    /// A queen moves or arrives: every feature relative to it changes, so start afresh.
    refresh: bool,
}

impl Hive {
    /// Starts the accumulators afresh from this position (when the network becomes the
    /// evaluation), or drops them (when it stops being it).
    pub(crate) fn reset_accumulators(&mut self) {
        let fresh = (self.evaluation == super::Evaluation::Net).then(|| self.network().accumulate(self));
        self.accumulators.restart(fresh);
    }

    /// Evaluates with `net` rather than the embedded network (and starts its accumulators).
    #[cfg(test)]
    pub(crate) fn set_network(&mut self, net: &'static Network) {
        self.accumulators.choose(net);
        self.reset_accumulators();
    }

    /// The network this position is evaluated with.
    fn network(&self) -> &'static Network {
        self.accumulators.network(network)
    }

    /// What `mv` will change in the features, read before it is made (only `make` with the
    /// network as the evaluation asks).
    #[inline]
    pub(crate) fn net_change(&self, mv: super::Move) -> Change {
        use super::MoveView;
        let (piece, to) = match mv.view() {
            MoveView::Place { piece, to } => (piece, to),
            MoveView::Move { piece, to, .. } => (piece, to),
            MoveView::Pass => return Change { pieces: [None; 3], removed: [(0, 0); 12], count: 0, refresh: false },
        };
        let mut change = Change {
            pieces: [Some(piece), self.below(piece), self.top(to)],
            removed: [(0, 0); 12],
            count: 0,
            refresh: piece.bug() == Bug::Queen,
        };
        if !change.refresh {
            let queens = queens(self);
            for p in change.pieces.into_iter().flatten() {
                piece_features(self, p, queens, &mut |perspective, f| {
                    change.removed[change.count as usize] = (perspective.index() as u8, f as u16);
                    change.count += 1;
                });
            }
        }
        change
    }

    /// Pushes the accumulators of the position `change`'s move has just made.
    #[inline]
    pub(crate) fn apply_net_change(&mut self, change: Change) {
        let net = self.network();
        let next = match self.accumulators.last() {
            Some(&previous) if !change.refresh => {
                let mut acc = previous;
                for &(perspective, f) in &change.removed[..change.count as usize] {
                    subtract(&mut acc[perspective as usize], &net.w1[f as usize]);
                }
                let queens = queens(self);
                for p in change.pieces.into_iter().flatten() {
                    piece_features(self, p, queens, &mut |perspective, f| {
                        add(&mut acc[perspective.index()], &net.w1[f]);
                    });
                }
                acc
            }
            _ => net.accumulate(self),
        };
        self.accumulators.push(next);
    }

    /// Drops the accumulators of the position just taken back.
    #[inline]
    pub(crate) fn pop_accumulator(&mut self) {
        if self.evaluation == super::Evaluation::Net {
            self.accumulators.pop();
        }
    }

    /// The current accumulators, if kept.
    fn accumulator(&self) -> Option<&Accumulator> {
        self.accumulators.last()
    }
}

/// The embedded network.
static EMBEDDED: &[u8] = include_bytes!("net.bin");

/// The network in use, read once from the embedded file.
pub fn network() -> &'static Network {
    static NETWORK: OnceLock<Network> = OnceLock::new();
    Network::embedded(&NETWORK, EMBEDDED, INPUTS)
}

/// The learned evaluation of `hive` for the side to move, from the accumulators that make
/// and unmake keep (or from scratch if there are none).
#[inline]
pub fn evaluate(hive: &Hive) -> i32 {
    nnue::evaluate(hive, hive.network(), hive.accumulator())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hive::{GameType, HiveGame};
    use crate::nnue::perspective_features;

    fn hive_of(game_string: &str) -> Hive {
        HiveGame::parse(game_string).expect("a valid GameString").hive().clone()
    }

    #[test]
    fn buckets_cover_the_near_cells_once() {
        let mut seen = [false; NEAR_CELLS];
        for &b in BUCKET_OF_DELTA.iter().filter(|&&b| (b as usize) < NEAR_CELLS) {
            assert!(!seen[b as usize], "bucket {b} used twice");
            seen[b as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(BUCKET_OF_DELTA.iter().filter(|&&b| b as usize == FAR).count(), 1024 - NEAR_CELLS);
    }

    #[test]
    fn coarse_features_are_rings() {
        assert_eq!(
            coarse_feature(board_feature(1, true, Bug::Ant, 2, near(0, 0))),
            Some((((2 + 1) * BUG_COUNT + 4) * 3 + 2) * RINGS)
        );
        let ring2 = |dq, dr| coarse_feature(board_feature(0, false, Bug::Spider, 0, near(dq, dr)));
        assert_eq!(ring2(2, 0), ring2(-1, -1));
        assert_ne!(ring2(2, 0), ring2(1, 0));
        assert_eq!(
            coarse_feature(board_feature(0, false, Bug::Spider, 0, NO_QUEEN)).map(|c| c % RINGS),
            Some(RINGS - 1)
        );
        assert_eq!(coarse_feature(HAND), None);
        assert!((0..BOARD_FEATURES).all(|f| coarse_feature(f).unwrap() < COARSE));
    }

    #[test]
    fn the_start_position_has_every_piece_in_hand() {
        let hive = Hive::new(GameType::parse("Base+MLP").unwrap());
        let white = perspective_features(&hive, Color::White);
        let black = perspective_features(&hive, Color::Black);
        assert_eq!(white.len(), 28);
        // Each side sees its own pieces first and the other's second: the same set.
        let mut w = white.clone();
        let mut b = black.clone();
        w.sort();
        b.sort();
        assert_eq!(w, b);
        assert_eq!(w, (HAND as u16..HAND as u16 + 28).collect::<Vec<_>>());
    }

    /// The bucket of the offset (dq, dr), for tests.
    fn near(dq: i32, dr: i32) -> usize {
        BUCKET_OF_DELTA[((dq & 31) | ((dr & 31) << 5)) as usize] as usize
    }

    #[test]
    fn pieces_are_seen_from_both_queens() {
        // wS1 at the origin, bS1 and bQ to its east, wQ to its west.
        let hive = hive_of("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-");
        let mut white = perspective_features(&hive, Color::White);
        white.sort();
        let mut expected = vec![
            board_feature(0, false, Bug::Queen, 0, near(0, 0)),
            board_feature(1, false, Bug::Queen, 0, near(-3, 0)),
            board_feature(0, false, Bug::Spider, 0, near(1, 0)),
            board_feature(1, false, Bug::Spider, 0, near(-2, 0)),
            board_feature(0, true, Bug::Spider, 0, near(2, 0)),
            board_feature(1, true, Bug::Spider, 0, near(-1, 0)),
            board_feature(0, true, Bug::Queen, 0, near(3, 0)),
            board_feature(1, true, Bug::Queen, 0, near(0, 0)),
        ];
        // In hand: each side's second spider, beetles, grasshoppers and ants (ids 2..11).
        expected.extend((2..11).map(|id| HAND + id));
        expected.extend((2..11).map(|id| HAND + PER_SIDE as usize + id));
        let mut expected: Vec<u16> = expected.into_iter().map(|f| f as u16).collect();
        expected.sort();
        assert_eq!(white, expected);
        // Black sees the mirror: its queen is "ours", White's pieces are "theirs".
        let black = perspective_features(&hive, Color::Black);
        assert!(black.contains(&(board_feature(0, false, Bug::Queen, 0, near(0, 0)) as u16)));
        assert!(black.contains(&(board_feature(0, true, Bug::Spider, 0, near(-2, 0)) as u16)));
        assert!(black.contains(&(board_feature(1, true, Bug::Spider, 0, near(1, 0)) as u16)));
    }

    #[test]
    fn heights_and_far_pieces() {
        // bB1 climbs onto wQ; the queens are then one cell apart, under and on a stack.
        let hive = hive_of("Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bB1 bQ-;wG1 -wA1;bB1 bQ");
        let white = perspective_features(&hive, Color::White);
        // White's queen at (-1, 0) is not covered; Black's queen at (2, 0) is covered by bB1.
        assert!(white.contains(&(board_feature(1, true, Bug::Queen, 2, near(0, 0)) as u16)));
        assert!(white.contains(&(board_feature(1, true, Bug::Beetle, 1, near(0, 0)) as u16)));
        assert!(white.contains(&(board_feature(0, true, Bug::Beetle, 1, near(3, 0)) as u16)));
        assert_eq!(bucket(Cell::from_index(5), Some(Cell::from_index(0))), FAR);
    }

    /// A network with random weights, for tests of the sums.
    fn random_network(seed: u64) -> &'static Network {
        let mut rng = crate::zobrist::SplitMix64::new(seed);
        let mut net = Network::zero(INPUTS, 200, false);
        let mut weight = || (rng.below(401) as i16) - 200;
        for row in net.w1.iter_mut().chain(std::iter::once(&mut net.b1)).chain(net.w2.iter_mut()) {
            for w in row.iter_mut() {
                *w = weight();
            }
        }
        Box::leak(Box::new(net))
    }

    #[test]
    fn accumulators_kept_by_make_and_unmake_equal_fresh_sums() {
        let net = random_network(7);
        for seed in 0..20u64 {
            let mut rng = crate::zobrist::SplitMix64::new(seed);
            let mut hive = Hive::new(GameType::parse("Base+MLP").unwrap());
            hive.set_evaluation(crate::hive::Evaluation::Net);
            hive.set_network(net);
            let (mut line, mut moves) = (Vec::new(), Vec::new());
            for _ in 0..120 {
                if hive.outcome().is_over() {
                    break;
                }
                moves.clear();
                hive.generate_moves(&mut moves);
                let mv = moves[rng.below(moves.len())];
                hive.make(mv);
                line.push(mv);
                assert_eq!(hive.accumulator(), Some(&net.accumulate(&hive)), "seed {seed} after {}", line.len());
                assert_eq!(evaluate(&hive), net.evaluate(&hive));
            }
            while let Some(mv) = line.pop() {
                hive.unmake(mv);
                assert_eq!(hive.accumulator(), Some(&net.accumulate(&hive)), "seed {seed} back to {}", line.len());
            }
            assert_eq!(hive.accumulators.len(), 1);
        }
    }

    #[test]
    fn the_embedded_network_loads() {
        let hive = Hive::new(GameType::parse("Base+MLP").unwrap());
        network().evaluate(&hive);
    }
}
