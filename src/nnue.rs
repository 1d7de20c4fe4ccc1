//! What the games' learned evaluations share: the quantized network, its file format, its
//! integer inference, and the stack of accumulators that make and unmake keep.
//!
//! A game with a network (Hive's [`crate::hive::net`], Intellector's
//! [`crate::intellector::net`]) says only what differs: its sparse input features, seen from
//! each player's point of view ([`Learned`]), and the size of its accumulators. The rest is
//! written once here:
//!
//! - Each perspective's active features sum to an accumulator of `H` values (the first layer,
//!   the same weights for both perspectives), clipped to `[0, 1]`; the side to move's and the
//!   opponent's clipped accumulators feed one output, a win-probability logit, scaled to the
//!   evaluation's units by the file's `eval_scale`. A *residual* network adds its output to the
//!   game's hand-written evaluation: it learns what that evaluation misses.
//! - The engine computes in integers, so that a score never depends on the order of additions:
//!   first-layer weights in `i16` with 1.0 as [`QA`], output weights with 1.0 as [`QB`].
//! - `comb train-net` ([`crate::train::net`]) trains in floating point, for any game that
//!   implements [`Learned`], and writes the quantized file ([`Network::to_bytes`]).

use crate::game::{Color, Game};
use std::sync::OnceLock;

/// Which static evaluation a position is scored by (the `Evaluation` option for Hive,
/// `IntellectorEvaluation` for Intellector).
/// Each game has its own default ([`crate::games::GameOptions::default`]).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Evaluation {
    /// The hand-written evaluation with tuned weights; the difficulty levels always use it
    /// (see [`crate::game::Game::use_classic_evaluation`]).
    Classic,
    /// The learned network.
    Net,
}

impl Evaluation {
    /// Both, in the order the options list them.
    pub const ALL: [Evaluation; 2] = [Evaluation::Classic, Evaluation::Net];

    /// The option's spelling of this value.
    pub fn name(self) -> &'static str {
        match self {
            Evaluation::Classic => "Classic",
            Evaluation::Net => "Net",
        }
    }

    /// The value spelled `text` (any case).
    pub fn parse(text: &str) -> Option<Evaluation> {
        Evaluation::ALL.into_iter().find(|e| e.name().eq_ignore_ascii_case(text))
    }
}

/// A game position a network can score: its sparse features and its hand-written evaluation.
pub trait Learned: Game {
    /// The game's name, for messages.
    const NAME: &'static str;
    /// Input features of the engine's network.
    const INPUTS: usize;
    /// Coarse features that only the trainer sees: each is shared by several fine features
    /// ([`Learned::coarse_feature`]) and folded into their weights when the network is written,
    /// so that what a feature has in common with its kin is learned from all of them.
    const COARSE: usize;
    /// Where the embedded network lives, relative to the crate root (what `comb train-net`
    /// writes by default).
    const NET_FILE: &'static str;

    /// The coarse feature (below [`Learned::COARSE`]) that shares in feature `f`, if any.
    fn coarse_feature(f: usize) -> Option<usize>;

    /// The active features from each player's point of view: `push(perspective, feature)`.
    fn features(&self, push: impl FnMut(Color, usize));

    /// The hand-written evaluation for the side to move, in the units the network's output is
    /// scaled to.
    fn classic(&self) -> i32;
}

/// The active features of one perspective, as the trainer stores them.
pub fn perspective_features<P: Learned>(position: &P, perspective: Color) -> Vec<u16> {
    let mut out = Vec::new();
    position.features(|p, f| {
        if p == perspective {
            out.push(f as u16);
        }
    });
    out
}

/// 1.0 in first-layer units (weights, biases and the accumulator's clip).
pub const QA: i32 = 128;
/// 1.0 in output-weight units.
pub const QB: i32 = 256;

/// Both perspectives' accumulators (White's, Black's).
pub type Accumulator<const H: usize> = [[i16; H]; 2];

/// A quantized network with accumulators of `H` values, as the engine runs it.
#[derive(Clone, Debug, PartialEq)]
pub struct Network<const H: usize> {
    /// First-layer weights, one row of `H` per input feature, 1.0 = [`QA`].
    pub w1: Vec<[i16; H]>,
    /// First-layer biases, 1.0 = [`QA`].
    pub b1: [i16; H],
    /// Output weights for the side to move's, then the opponent's clipped accumulator,
    /// 1.0 = [`QB`].
    pub w2: [[i16; H]; 2],
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
    #[error("not a comb network of this shape ({0})")]
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

impl<const H: usize> Network<H> {
    /// A network of `inputs` features whose output is always 0.
    pub fn zero(inputs: usize, eval_scale: i32, residual: bool) -> Network<H> {
        Network { w1: vec![[0; H]; inputs], b1: [0; H], w2: [[0; H]; 2], b2: 0, eval_scale, residual }
    }

    /// The file's bytes: [`MAGIC`], then `u32`s inputs, hidden, eval scale, residual flag,
    /// then every weight little-endian (w1 row by row, b1, w2, b2 as `i32`). The inputs tell
    /// one game's network from another's.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::file_len(self.w1.len()));
        out.extend_from_slice(MAGIC);
        for v in [self.w1.len() as u32, H as u32, self.eval_scale as u32, self.residual as u32] {
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
    fn file_len(inputs: usize) -> usize {
        MAGIC.len() + 16 + (inputs + 3) * H * 2 + 4
    }

    /// Reads a network file of `inputs` features.
    pub fn from_bytes(bytes: &[u8], inputs: usize) -> Result<Network<H>, NetError> {
        if bytes.len() < MAGIC.len() + 16 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(NetError::Format("no combnet1 header".into()));
        }
        let word = |i: usize| {
            let at = MAGIC.len() + 4 * i;
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let (found_inputs, hidden, eval_scale, residual) = (word(0), word(1), word(2) as i32, word(3));
        if found_inputs as usize != inputs || hidden as usize != H {
            return Err(NetError::Format(format!(
                "{found_inputs} inputs × {hidden} hidden, this comb reads {inputs} × {H}"
            )));
        }
        if bytes.len() != Self::file_len(inputs) {
            return Err(NetError::Length { expected: Self::file_len(inputs), found: bytes.len() });
        }
        let mut at = MAGIC.len() + 16;
        let mut row = || {
            let mut r = [0i16; H];
            for w in &mut r {
                *w = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
                at += 2;
            }
            r
        };
        let w1 = (0..inputs).map(|_| row()).collect();
        let b1 = row();
        let w2 = [row(), row()];
        let b2 = i32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes"));
        Ok(Network { w1, b1, w2, b2, eval_scale, residual: residual != 0 })
    }

    /// The accumulators of both perspectives, from scratch.
    #[inline]
    pub fn accumulate<P: Learned>(&self, position: &P) -> Accumulator<H> {
        let mut acc = [self.b1; 2];
        position.features(|perspective, f| add(&mut acc[perspective.index()], &self.w1[f]));
        acc
    }

    /// The output for accumulators `us` (side to move) and `them`, in evaluation units,
    /// without the hand-written part of a residual network.
    #[inline]
    pub fn output(&self, us: &[i16; H], them: &[i16; H]) -> i32 {
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

    /// The network's score of `position` for the side to move, in evaluation units (the
    /// hand-written evaluation included for a residual network).
    pub fn evaluate<P: Learned>(&self, position: &P) -> i32 {
        let acc = self.accumulate(position);
        self.evaluate_with(position, &acc)
    }

    /// The score of `position` given its accumulators.
    #[inline]
    pub fn evaluate_with<P: Learned>(&self, position: &P, acc: &Accumulator<H>) -> i32 {
        let me = position.side_to_move().index();
        let net = self.output(&acc[me], &acc[1 - me]);
        if self.residual {
            net + position.classic()
        } else {
            net
        }
    }

    /// Reads the embedded file `bytes` once into `cell`.
    pub fn embedded(cell: &'static OnceLock<Network<H>>, bytes: &[u8], inputs: usize) -> &'static Network<H> {
        cell.get_or_init(|| Network::from_bytes(bytes, inputs).expect("the embedded network matches this comb"))
    }
}

/// The accumulators of the current position and of every position before it in the line
/// made so far, kept in step by a game's make and unmake while the network is its evaluation
/// (empty otherwise), so that a move costs a few rows of the first layer rather than all of
/// them. The stack grows to the longest line once and is reused: nothing is allocated per node.
#[derive(Clone, Debug, Default)]
pub struct Accumulators<const H: usize> {
    /// The network they are sums of (the embedded one unless a test chooses another).
    net: Option<&'static Network<H>>,
    stack: Vec<Accumulator<H>>,
}

impl<const H: usize> Accumulators<H> {
    /// The network in use: the one chosen, or else `embedded`.
    #[inline]
    pub fn network(&self, embedded: fn() -> &'static Network<H>) -> &'static Network<H> {
        self.net.unwrap_or_else(embedded)
    }

    /// Evaluates with `net` from now on (tests try networks other than the embedded one).
    pub fn choose(&mut self, net: &'static Network<H>) {
        self.net = Some(net);
    }

    /// Starts afresh: nothing kept, or (`Some`) the sums of the current position only.
    pub fn restart(&mut self, fresh: Option<Accumulator<H>>) {
        self.stack.clear();
        self.stack.extend(fresh);
    }

    /// Pushes the accumulators of the position just made.
    #[inline]
    pub fn push(&mut self, acc: Accumulator<H>) {
        self.stack.push(acc);
    }

    /// Drops the accumulators of the position just taken back.
    #[inline]
    pub fn pop(&mut self) {
        self.stack.pop();
    }

    /// The current position's accumulators, if kept.
    #[inline]
    pub fn last(&self) -> Option<&Accumulator<H>> {
        self.stack.last()
    }

    /// Positions whose accumulators are kept (the current one and the line before it).
    pub fn len(&self) -> usize {
        self.stack.len()
    }

    /// Whether none are kept.
    pub fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }
}

/// The learned evaluation of `position` for the side to move with `net`, from the
/// accumulators `kept` by make and unmake (checked against a fresh sum in debug builds), or
/// from scratch if there are none.
#[inline]
pub fn evaluate<const H: usize, P: Learned>(position: &P, net: &Network<H>, kept: Option<&Accumulator<H>>) -> i32 {
    match kept {
        Some(acc) => {
            debug_assert_eq!(acc, &net.accumulate(position), "incremental accumulators drifted");
            net.evaluate_with(position, acc)
        }
        None => net.evaluate(position),
    }
}

/// Adds a first-layer row to an accumulator.
///
/// Both arrays are copied into locals and the sum stored once: added in place, the compiler
/// cannot rule out that the row and the accumulator overlap and adds one `i16` at a time
/// (32 loads and 32 read-modify-writes, measured); on copies it uses vector adds.
#[inline(always)]
pub fn add<const H: usize>(acc: &mut [i16; H], row: &[i16; H]) {
    let (mut sum, row) = (*acc, *row);
    for (a, w) in sum.iter_mut().zip(row) {
        *a = a.wrapping_add(w);
    }
    *acc = sum;
}

/// Subtracts a first-layer row from an accumulator (vectorised as [`add`] is).
#[inline(always)]
pub fn subtract<const H: usize>(acc: &mut [i16; H], row: &[i16; H]) {
    let (mut sum, row) = (*acc, *row);
    for (a, w) in sum.iter_mut().zip(row) {
        *a = a.wrapping_sub(w);
    }
    *acc = sum;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_round_trips_and_a_wrong_one_is_refused() {
        let mut net = Network::<32>::zero(100, 250, true);
        net.w1[7][3] = -5;
        net.b1[1] = 9;
        net.w2[1][31] = 300;
        net.b2 = -77;
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes, 100), Ok(net));
        assert!(matches!(Network::<32>::from_bytes(&bytes[..bytes.len() - 1], 100), Err(NetError::Length { .. })));
        assert!(matches!(Network::<32>::from_bytes(&bytes, 101), Err(NetError::Format(_))));
        assert!(matches!(Network::<16>::from_bytes(&bytes, 100), Err(NetError::Format(_))));
        assert!(matches!(Network::<32>::from_bytes(b"notanet!", 100), Err(NetError::Format(_))));
    }

    #[test]
    fn evaluation_names_parse_in_any_case() {
        assert_eq!(Evaluation::parse("net"), Some(Evaluation::Net));
        assert_eq!(Evaluation::parse("CLASSIC"), Some(Evaluation::Classic));
        assert_eq!(Evaluation::parse("deep"), None);
    }
}
