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
//! **Network.** Each perspective's features sum to an accumulator of [`HIDDEN`] values (the
//! first layer, the same weights for both perspectives), which is clipped to `[0, 1]`; the side
//! to move's and the opponent's clipped accumulators feed one output, a win-probability logit
//! `y`, scaled to the evaluation's units (hundredths of a piece) by the file's `eval_scale`.
//! A *residual* network adds its output to the tuned hand-written evaluation
//! ([`super::eval`]): it learns what that evaluation misses.
//!
//! **Numbers.** The engine computes in integers, so that a score never depends on the order
//! of additions: first-layer weights in `i16` with 1.0 as [`QA`], output weights with 1.0 as
//! [`QB`]. `comb train-net` trains in floating point and writes the quantized file; the
//! network in use is embedded from [`NET_FILE`].

use super::grid::Cell;
use super::piece::{Bug, Piece, BUG_COUNT, PER_SIDE, PIECE_COUNT};
use super::Hive;
use crate::game::Color;
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
/// 1.0 in first-layer units (weights, biases and the accumulator's clip).
pub const QA: i32 = 128;
/// 1.0 in output-weight units.
pub const QB: i32 = 256;
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

/// The active features of one perspective, as the trainer stores them.
pub fn perspective_features(hive: &Hive, perspective: Color) -> Vec<u16> {
    let mut out = Vec::with_capacity(MAX_ACTIVE);
    features(hive, |p, f| {
        if p == perspective {
            out.push(f as u16);
        }
    });
    out
}

/// A quantized network, as the engine runs it.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// First-layer weights, one row of [`HIDDEN`] per input feature, 1.0 = [`QA`].
    pub w1: Vec<[i16; HIDDEN]>,
    /// First-layer biases, 1.0 = [`QA`].
    pub b1: [i16; HIDDEN],
    /// Output weights for the side to move's, then the opponent's clipped accumulator,
    /// 1.0 = [`QB`].
    pub w2: [[i16; HIDDEN]; 2],
    /// Output bias, 1.0 = `QA · QB`.
    pub b2: i32,
    /// Evaluation units per logit unit (about `1 / k` of the tuner's `σ(k·e)`).
    pub eval_scale: i32,
    /// Whether the output is added to the hand-written evaluation.
    pub residual: bool,
}

/// Why a network file cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetError {
    /// Not a comb network file, or a network of another shape.
    #[error("not a comb Hive network of this version ({0})")]
    Format(String),
    /// The file ends early or has bytes left over.
    #[error("the network file is {found} bytes long, expected {expected}")]
    Length {
        /// Bytes expected for the declared shape.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
}

/// The file's first bytes: a name and a layout version.
const MAGIC: &[u8; 8] = b"combnet1";

impl Network {
    /// A network whose output is always 0.
    pub fn zero(eval_scale: i32, residual: bool) -> Network {
        Network { w1: vec![[0; HIDDEN]; INPUTS], b1: [0; HIDDEN], w2: [[0; HIDDEN]; 2], b2: 0, eval_scale, residual }
    }

    /// The file's bytes: [`MAGIC`], then `u32`s inputs, hidden, eval scale, residual flag,
    /// then every weight little-endian (w1 row by row, b1, w2, b2 as `i32`).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::file_len());
        out.extend_from_slice(MAGIC);
        for v in [INPUTS as u32, HIDDEN as u32, self.eval_scale as u32, self.residual as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let rows = self.w1.iter().chain(std::iter::once(&self.b1)).chain(self.w2.iter());
        for row in rows {
            for w in row {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        out
    }

    /// The length of a file of this shape.
    fn file_len() -> usize {
        MAGIC.len() + 16 + (INPUTS + 3) * HIDDEN * 2 + 4
    }

    /// Reads a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < MAGIC.len() + 16 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(NetError::Format("no combnet1 header".into()));
        }
        let word = |i: usize| {
            let at = MAGIC.len() + 4 * i;
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let (inputs, hidden, eval_scale, residual) = (word(0), word(1), word(2) as i32, word(3));
        if inputs as usize != INPUTS || hidden as usize != HIDDEN {
            return Err(NetError::Format(format!(
                "{inputs} inputs × {hidden} hidden, this comb reads {INPUTS} × {HIDDEN}"
            )));
        }
        if bytes.len() != Self::file_len() {
            return Err(NetError::Length { expected: Self::file_len(), found: bytes.len() });
        }
        let mut at = MAGIC.len() + 16;
        let mut row = || {
            let mut r = [0i16; HIDDEN];
            for w in &mut r {
                *w = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
                at += 2;
            }
            r
        };
        let w1 = (0..INPUTS).map(|_| row()).collect();
        let b1 = row();
        let w2 = [row(), row()];
        let b2 = i32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes"));
        Ok(Network { w1, b1, w2, b2, eval_scale, residual: residual != 0 })
    }

    /// The accumulators of both perspectives (White's, Black's), from scratch.
    #[inline]
    pub fn accumulate(&self, hive: &Hive) -> Accumulator {
        let mut acc = [self.b1; 2];
        features(hive, |perspective, f| add(&mut acc[perspective.index()], &self.w1[f]));
        acc
    }

    /// The output for accumulators `us` (side to move) and `them`, in evaluation units,
    /// without the hand-written part of a residual network.
    #[inline]
    pub fn output(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        let mut sum = self.b2;
        for (acc, weights) in [us, them].into_iter().zip(&self.w2) {
            for (a, w) in acc.iter().zip(weights) {
                sum += (*a as i32).clamp(0, QA) * *w as i32;
            }
        }
        // Rounded towards negative infinity alike for both signs, so that mirrored
        // positions score as exact opposites only when their sums are.
        (sum as i64 * self.eval_scale as i64).div_euclid((QA * QB) as i64) as i32
    }

    /// The network's score of `hive` for the side to move, in evaluation units (the
    /// hand-written evaluation included for a residual network).
    pub fn evaluate(&self, hive: &Hive) -> i32 {
        let acc = self.accumulate(hive);
        self.evaluate_with(hive, &acc)
    }

    /// The score of `hive` given its accumulators.
    #[inline]
    fn evaluate_with(&self, hive: &Hive, acc: &Accumulator) -> i32 {
        let me = hive.to_move().index();
        let net = self.output(&acc[me], &acc[1 - me]);
        if self.residual {
            net + super::eval::evaluate(hive)
        } else {
            net
        }
    }
}

/// Both perspectives' accumulators.
pub type Accumulator = [[i16; HIDDEN]; 2];

/// The accumulators of the current position and of every position before it in the line
/// made so far, kept in step by [`Hive::make`] and [`Hive::unmake`] while the network is the
/// evaluation (empty otherwise), so that a move costs a few rows of the first layer rather
/// than all of them.
#[derive(Clone, Debug, Default)]
pub struct Accumulators {
    /// The network they are sums of (the embedded one unless a test chooses another).
    net: Option<&'static Network>,
    stack: Vec<Accumulator>,
}

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
        self.accumulators.stack.clear();
        if self.evaluation == super::Evaluation::Net {
            let net = *self.accumulators.net.get_or_insert_with(network);
            let fresh = net.accumulate(self);
            self.accumulators.stack.push(fresh);
        }
    }

    /// Evaluates with `net` rather than the embedded network (and starts its accumulators).
    #[cfg(test)]
    pub(crate) fn set_network(&mut self, net: &'static Network) {
        self.accumulators.net = Some(net);
        self.reset_accumulators();
    }

    /// The network this position is evaluated with.
    fn network(&self) -> &'static Network {
        self.accumulators.net.unwrap_or_else(network)
    }

    /// What `mv` will change in the features, read before it is made; `None` unless the
    /// network is the evaluation.
    #[inline]
    pub(crate) fn net_change(&self, mv: super::Move) -> Option<Change> {
        use super::MoveView;
        if self.evaluation != super::Evaluation::Net {
            return None;
        }
        let (piece, to) = match mv.view() {
            MoveView::Place { piece, to } => (piece, to),
            MoveView::Move { piece, to, .. } => (piece, to),
            MoveView::Pass => {
                return Some(Change { pieces: [None; 3], removed: [(0, 0); 12], count: 0, refresh: false })
            }
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
        Some(change)
    }

    /// Pushes the accumulators of the position `change`'s move has just made.
    #[inline]
    pub(crate) fn apply_net_change(&mut self, change: Change) {
        let net = self.network();
        let next = match self.accumulators.stack.last() {
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
        self.accumulators.stack.push(next);
    }

    /// Drops the accumulators of the position just taken back.
    #[inline]
    pub(crate) fn pop_accumulator(&mut self) {
        if self.evaluation == super::Evaluation::Net {
            self.accumulators.stack.pop();
        }
    }

    /// The current accumulators, if kept.
    fn accumulator(&self) -> Option<&Accumulator> {
        self.accumulators.stack.last()
    }
}

/// Adds a first-layer row to an accumulator.
///
/// Both arrays are copied into locals and the sum stored once: added in place, the compiler
/// cannot rule out that the row and the accumulator overlap and adds one `i16` at a time
/// (32 loads and 32 read-modify-writes, measured); on copies it uses vector adds.
#[inline(always)]
fn add(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    let (mut sum, row) = (*acc, *row);
    for (a, w) in sum.iter_mut().zip(row) {
        *a = a.wrapping_add(w);
    }
    *acc = sum;
}

/// Subtracts a first-layer row from an accumulator (vectorised as [`add`] is).
#[inline(always)]
fn subtract(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    let (mut sum, row) = (*acc, *row);
    for (a, w) in sum.iter_mut().zip(row) {
        *a = a.wrapping_sub(w);
    }
    *acc = sum;
}

/// The embedded network.
static EMBEDDED: &[u8] = include_bytes!("net.bin");

/// The network in use, read once from the embedded file.
pub fn network() -> &'static Network {
    static NETWORK: OnceLock<Network> = OnceLock::new();
    NETWORK.get_or_init(|| Network::from_bytes(EMBEDDED).expect("the embedded network matches this comb"))
}

/// The learned evaluation of `hive` for the side to move, from the accumulators that make
/// and unmake keep (or from scratch if there are none).
#[inline]
pub fn evaluate(hive: &Hive) -> i32 {
    let net = hive.network();
    match hive.accumulator() {
        Some(acc) => {
            debug_assert_eq!(acc, &net.accumulate(hive), "incremental accumulators drifted");
            net.evaluate_with(hive, acc)
        }
        None => net.evaluate(hive),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hive::{GameType, HiveGame};

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

    #[test]
    fn a_file_round_trips_and_a_wrong_one_is_refused() {
        let mut net = Network::zero(250, true);
        net.w1[7][3] = -5;
        net.b1[1] = 9;
        net.w2[1][31] = 300;
        net.b2 = -77;
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes), Ok(net));
        assert!(matches!(Network::from_bytes(&bytes[..bytes.len() - 1]), Err(NetError::Length { .. })));
        assert!(matches!(Network::from_bytes(b"notanet!"), Err(NetError::Format(_))));
    }

    /// A network with random weights, for tests of the sums.
    fn random_network(seed: u64) -> &'static Network {
        let mut rng = crate::zobrist::SplitMix64::new(seed);
        let mut net = Network::zero(200, false);
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
            assert_eq!(hive.accumulators.stack.len(), 1);
        }
    }

    #[test]
    fn the_embedded_network_loads() {
        let hive = Hive::new(GameType::parse("Base+MLP").unwrap());
        network().evaluate(&hive);
    }
}
