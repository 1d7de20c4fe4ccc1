//! A learned Intellector evaluation: a small network over which piece stands on which hex.
//!
//! **Inputs.** The board is fixed and small (59 hexes), so a piece is simply its type and its
//! hex, seen from one player's point of view (the *perspective*): every piece on the board gives
//! one feature per perspective, made of
//! - whose piece it is (the perspective's own or the opponent's),
//! - its type (six),
//! - its hex, with the board turned so that the perspective plays "up": Black's view is the
//!   board mirrored top to bottom (row `r` of a file becomes its last row minus `r` plus one;
//!   files stay), which maps the rules and the start position onto themselves with the colours
//!   swapped. A Progressor one step from promotion is then the same feature for both players,
//!   and both perspectives share one first layer.
//!
//! That is 2 × 6 × 59 = [`INPUTS`] features, of which a position has at most 28 per
//! perspective. Nothing else is needed: whose move it is shows in which accumulator is "ours"
//! at the output ([`crate::nnue`]), and what the rules keep beside the board (the quiet-ply
//! count, repetitions, the Classic rules' captured types) is left to the search and the
//! hand-written evaluation.
//!
//! **Updates.** A move changes exactly two hexes, its origin and its destination (a plain or
//! capturing move, a promotion or aura transformation, or a swap of the Intellector and its
//! Defensor alike), so make reads the two squares before the move and after it and subtracts
//! and adds at most four rows per perspective: no move sums the board afresh.
//!
//! **Network.** Shape, integer inference, file format and the stack of accumulators are
//! shared with Hive's ([`crate::nnue`]): [`HIDDEN`] values per perspective, one output; the
//! network is *residual*, added to the tuned hand-written evaluation ([`super::eval`], in
//! centipawns), so that it learns what that evaluation misses. The network in use is embedded
//! from [`NET_FILE`].
//!
//! **Coarse features** (trainer only): the rules and the start are symmetric left to right,
//! so each feature also feeds a coarse one shared with its mirror image (file `f` and file
//! `8 − f`, same row): the symmetric part of a weight is learned from both sides of the board,
//! the difference only where the data show one.

use super::board::Position;
use super::geometry::{Hex, HEX_COUNT};
use super::piece::{BLACK_BIT, EMPTY, KIND_MASK};
use crate::game::Color;
use crate::nnue::{self, add, subtract, Evaluation, Learned};
use std::sync::OnceLock;

/// Piece types.
const KINDS: usize = 6;
/// Every input feature: whose × type × hex.
pub const INPUTS: usize = 2 * KINDS * HEX_COUNT;
/// Size of each perspective's accumulator.
pub const HIDDEN: usize = 32;
/// Where the embedded network lives, relative to the crate root (what `comb train-net`
/// writes by default for Intellector data).
pub const NET_FILE: &str = "src/intellector/net.bin";

/// Hexes up to the left-right mirror: files a to e (7 + 6 + 7 + 6 + 7).
const FOLDED: usize = 33;
/// Coarse features: whose × type × hex up to the left-right mirror.
pub const COARSE: usize = 2 * KINDS * FOLDED;

/// The index of the hex on `file` and `row`, known to be on the board (for the tables below).
const fn hex_at(file: u8, row: u8) -> usize {
    match Hex::from_file_row(file, row) {
        Some(h) => h.index(),
        None => panic!("on the board"),
    }
}

/// Every hex mirrored top to bottom: how Black sees the board.
static FLIP: [u8; HEX_COUNT] = {
    let mut table = [0u8; HEX_COUNT];
    let mut i = 0;
    while i < HEX_COUNT {
        let hex = Hex::from_index(i);
        let (file, row) = (hex.file(), hex.row());
        let rows = 7 - file % 2;
        table[i] = hex_at(file, rows + 1 - row) as u8;
        i += 1;
    }
    table
};

/// Every hex's class up to the left-right mirror, 0..[`FOLDED`] (numbered in file order
/// from a, row by row).
static FOLD: [u8; HEX_COUNT] = {
    let mut table = [0u8; HEX_COUNT];
    let mut i = 0;
    while i < HEX_COUNT {
        let hex = Hex::from_index(i);
        let (file, row) = (hex.file(), hex.row());
        let file = if file > 4 { 8 - file } else { file };
        // Files before `file`, half of them odd (6 rows), half even (7 rows).
        let before = (file as usize).div_ceil(2) * 7 + (file as usize / 2) * 6;
        table[i] = (before + row as usize - 1) as u8;
        i += 1;
    }
    table
};

/// The feature of the piece with square code `code` on hex `hex` from `perspective`'s side.
#[inline(always)]
fn feature(perspective: Color, code: u8, hex: usize) -> usize {
    let black = perspective == Color::Black;
    let theirs = (code & BLACK_BIT != 0) != black;
    let cell = if black { FLIP[hex] as usize } else { hex };
    ((theirs as usize * KINDS) + (code & KIND_MASK) as usize - 1) * HEX_COUNT + cell
}

/// The coarse feature (below [`COARSE`]) that shares in feature `f`.
pub fn coarse_feature(f: usize) -> Option<usize> {
    (f < INPUTS).then(|| (f / HEX_COUNT) * FOLDED + FOLD[f % HEX_COUNT] as usize)
}

/// The active features of `pos` from each player's point of view: `push(perspective,
/// feature)` for each.
pub fn features(pos: &Position, mut push: impl FnMut(Color, usize)) {
    for hex in pos.occupied[0] | pos.occupied[1] {
        let code = pos.squares[hex.index()];
        push(Color::White, feature(Color::White, code, hex.index()));
        push(Color::Black, feature(Color::Black, code, hex.index()));
    }
}

impl Learned for Position {
    const NAME: &'static str = "Intellector";
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

/// Intellector's network.
pub type Network = nnue::Network<HIDDEN>;

/// Both perspectives' accumulators.
pub type Accumulator = nnue::Accumulator<HIDDEN>;

/// The accumulators along the line made so far ([`nnue::Accumulators`]).
pub type Accumulators = nnue::Accumulators<HIDDEN>;

impl Position {
    /// Chooses the static evaluation the search reads.
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.evaluation = evaluation;
        self.reset_accumulators();
    }

    /// The evaluation the search reads.
    pub fn evaluation(&self) -> Evaluation {
        self.evaluation
    }

    /// Starts the accumulators afresh from this position (when the network becomes the
    /// evaluation), or drops them (when it stops being it).
    fn reset_accumulators(&mut self) {
        let fresh = (self.evaluation == Evaluation::Net).then(|| self.network().accumulate(self));
        self.accumulators.restart(fresh);
    }

    /// Evaluates with `net` rather than the embedded network (and starts its accumulators).
    #[cfg(test)]
    pub(crate) fn set_network(&mut self, net: &'static Network) {
        self.accumulators.choose(net);
        self.reset_accumulators();
    }

    /// The network this position is evaluated with.
    #[inline]
    fn network(&self) -> &'static Network {
        self.accumulators.network(network)
    }

    /// Pushes the accumulators of the position a move has just made: `hexes` are its origin
    /// and destination, `before` their square codes before it.
    #[inline]
    pub(crate) fn apply_net_change(&mut self, hexes: [usize; 2], before: [u8; 2]) {
        let net = self.network();
        let next = match self.accumulators.last() {
            Some(&previous) => {
                let mut acc = previous;
                for (hex, old) in hexes.into_iter().zip(before) {
                    let new = self.squares[hex];
                    for perspective in [Color::White, Color::Black] {
                        let side = &mut acc[perspective.index()];
                        if old != EMPTY {
                            subtract(side, &net.w1[feature(perspective, old, hex)]);
                        }
                        if new != EMPTY {
                            add(side, &net.w1[feature(perspective, new, hex)]);
                        }
                    }
                }
                acc
            }
            // Taken back past where the network was chosen: sum afresh.
            None => net.accumulate(self),
        };
        self.accumulators.push(next);
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

/// The learned evaluation of `pos` for the side to move, from the accumulators that make and
/// unmake keep (or from scratch if there are none).
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    nnue::evaluate(pos, pos.network(), pos.accumulator())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intellector::{Kind, Piece, Rules};
    use crate::nnue::perspective_features;

    fn hex(name: &str) -> usize {
        Hex::parse(name).expect("a hex").index()
    }

    /// The feature of a piece of `kind`, the perspective's (`theirs` false) or the other's, on
    /// the hex the perspective sees as `name`.
    fn f(theirs: bool, kind: Kind, name: &str) -> u16 {
        ((theirs as usize * KINDS + kind as usize - 1) * HEX_COUNT + hex(name)) as u16
    }

    #[test]
    fn the_flip_mirrors_rows_and_keeps_files() {
        for (a, b) in [("a1", "a7"), ("b1", "b6"), ("e1", "e7"), ("d2", "d5"), ("e4", "e4"), ("i3", "i5")] {
            assert_eq!(FLIP[hex(a)] as usize, hex(b), "{a}");
            assert_eq!(FLIP[hex(b)] as usize, hex(a), "{b}");
        }
        assert!((0..HEX_COUNT).all(|h| FLIP[FLIP[h] as usize] as usize == h));
    }

    #[test]
    fn the_fold_pairs_mirror_files() {
        assert_eq!(FOLD[hex("a1")], FOLD[hex("i1")]);
        assert_eq!(FOLD[hex("b3")], FOLD[hex("h3")]);
        assert_eq!(FOLD[hex("e5")], 7 + 6 + 7 + 6 + 4);
        assert_ne!(FOLD[hex("c3")], FOLD[hex("c4")]);
        let mut seen = [0; FOLDED];
        for h in 0..HEX_COUNT {
            seen[FOLD[h] as usize] += 1;
        }
        // Every class holds a hex and its mirror, but the seven of file e stand alone.
        assert_eq!(seen.iter().filter(|&&n| n == 1).count(), 7);
        assert!(seen.iter().all(|&n| n == 1 || n == 2));
        assert_eq!(coarse_feature(INPUTS), None);
        assert_eq!(
            coarse_feature(f(true, Kind::Liberator, "h1") as usize),
            coarse_feature(f(true, Kind::Liberator, "b1") as usize)
        );
    }

    #[test]
    fn both_sides_see_the_start_position_alike() {
        let pos = Position::new(Rules::Modern);
        let mut white = perspective_features(&pos, Color::White);
        let mut black = perspective_features(&pos, Color::Black);
        white.sort();
        black.sort();
        assert_eq!(white.len(), 28);
        // The start is symmetric: Black, turned round, sees what White sees.
        assert_eq!(white, black);
        assert!(white.contains(&f(false, Kind::Intellector, "e1")));
        assert!(white.contains(&f(true, Kind::Intellector, "e7")));
        assert!(white.contains(&f(false, Kind::Defensor, "d1")));
        assert!(white.contains(&f(true, Kind::Defensor, "d6")));
    }

    #[test]
    fn features_of_a_known_position() {
        // White: Intellector e1, Progressor c5; Black: Intellector e7, Dominator b2.
        let pieces = [
            (Hex::parse("e1").unwrap(), Piece::new(Color::White, Kind::Intellector)),
            (Hex::parse("c5").unwrap(), Piece::new(Color::White, Kind::Progressor)),
            (Hex::parse("e7").unwrap(), Piece::new(Color::Black, Kind::Intellector)),
            (Hex::parse("b2").unwrap(), Piece::new(Color::Black, Kind::Dominator)),
        ];
        let pos = Position::from_pieces(Rules::Modern, Color::Black, &pieces).unwrap();
        let mut white = perspective_features(&pos, Color::White);
        white.sort();
        let mut expected = vec![
            f(false, Kind::Intellector, "e1"),
            f(false, Kind::Progressor, "c5"),
            f(true, Kind::Intellector, "e7"),
            f(true, Kind::Dominator, "b2"),
        ];
        expected.sort();
        assert_eq!(white, expected);
        // Black sees its own pieces as "ours", the board turned: e7 → e1, b2 → b5, c5 → c3.
        let mut black = perspective_features(&pos, Color::Black);
        black.sort();
        let mut expected = vec![
            f(false, Kind::Intellector, "e1"),
            f(false, Kind::Dominator, "b5"),
            f(true, Kind::Intellector, "e7"),
            f(true, Kind::Progressor, "c3"),
        ];
        expected.sort();
        assert_eq!(black, expected);
        // Exact indices, for the file format: (whose × 6 + type − 1) × 59 + hex.
        assert_eq!(f(true, Kind::Progressor, "c3") as usize, 6 * 59 + hex("c3"));
        assert_eq!(hex("c3"), 37);
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
        let net = random_network(11);
        let mut kinds = [0usize; 4];
        for seed in 0..30u64 {
            let mut rng = crate::zobrist::SplitMix64::new(seed);
            let rules = if seed % 3 == 0 { Rules::Classic } else { Rules::Modern };
            let mut pos = Position::new(rules);
            pos.set_evaluation(Evaluation::Net);
            pos.set_network(net);
            let (mut line, mut moves) = (Vec::new(), Vec::new());
            for _ in 0..150 {
                if pos.outcome().is_over() {
                    break;
                }
                moves.clear();
                pos.generate_moves(&mut moves);
                let mv = moves[rng.below(moves.len())];
                kinds[match mv.kind {
                    crate::intellector::MoveKind::Plain => 0,
                    crate::intellector::MoveKind::Swap => 1,
                    crate::intellector::MoveKind::Promotion(_) => 2,
                    crate::intellector::MoveKind::Aura(_) => 3,
                }] += 1;
                pos.make(mv);
                line.push(mv);
                assert_eq!(pos.accumulator(), Some(&net.accumulate(&pos)), "seed {seed} after {}", line.len());
                assert_eq!(evaluate(&pos), net.evaluate(&pos));
            }
            while let Some(mv) = line.pop() {
                pos.unmake(mv);
                assert_eq!(pos.accumulator(), Some(&net.accumulate(&pos)), "seed {seed} back to {}", line.len());
            }
            assert_eq!(pos.accumulators.len(), 1);
        }
        // Every kind of move was made: the two-hex update covers them all.
        assert!(kinds.iter().all(|&n| n > 0), "{kinds:?}");
    }

    #[test]
    fn the_classic_evaluation_keeps_no_accumulators() {
        let mut pos = Position::new(Rules::Modern);
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        pos.make(moves[0]);
        assert!(pos.accumulators.is_empty());
        pos.set_evaluation(Evaluation::Net);
        assert_eq!(pos.accumulators.len(), 1);
        // Taken back past where the network was chosen, it sums afresh.
        pos.unmake(moves[0]);
        assert_eq!(evaluate(&pos), network().evaluate(&pos));
        pos.make(moves[1]);
        assert_eq!(pos.accumulator(), Some(&network().accumulate(&pos)));
    }

    #[test]
    fn the_embedded_network_loads() {
        let pos = Position::new(Rules::Modern);
        network().evaluate(&pos);
    }
}
