//! The interior of the search: principal-variation negamax, one node as named steps (the end
//! of the game, repetition, the mate-distance window, the threat extension, the table probe,
//! the static cutoff, the moves in the picker's order, the table store).

use super::Worker;
use crate::game::{Game, Outcome};
use crate::search::node::{NodeType, NonPv, Pv};
use crate::search::ordering::Node;
use crate::search::picker::{MovePicker, Pick};
use crate::search::pruning::{static_cutoff, uses_static_score, QuietPruning};
use crate::search::tt::Bound;
use crate::search::{INFINITY, MATE, MAX_PLY};

/// What the steps of one interior node share.
pub(super) struct Frame {
    pub(super) hash: u64,
    pub(super) ply: usize,
    /// Depth left, extension included.
    pub(super) depth: i32,
    /// The side to move faces a threat (see [`Game::in_danger`]).
    pub(super) danger: bool,
    /// The side to move (0 White, 1 Black).
    pub(super) side: usize,
    /// Index of the move that led here, if any.
    pub(super) previous: Option<usize>,
    /// The static score, if the node computed it (shallow non-PV nodes, see
    /// [`uses_static_score`]).
    pub(super) static_score: Option<i32>,
}

impl Frame {
    /// The node as the ordering tables see it.
    #[inline]
    pub(super) fn node(&self) -> Node {
        Node { ply: self.ply, side: self.side, previous: self.previous, depth: self.depth }
    }
}

/// What the transposition table says of a node.
enum Probe {
    /// The stored score settles the node.
    Cut(i32),
    /// The node must be searched, trying the move with this code first (0 for none).
    Search(u32),
}

impl<G: Game> Worker<'_, G> {
    /// The exact score of a finished game `ply` plies from the root, or `None` while it goes on.
    #[inline]
    pub(super) fn terminal_score(&self, ply: usize) -> Option<i32> {
        match self.game.outcome() {
            Outcome::InProgress => None,
            Outcome::Draw => Some(0),
            Outcome::Win(color) if color == self.game.side_to_move() => Some(MATE - ply as i32),
            Outcome::Win(_) => Some(-(MATE - ply as i32)),
        }
    }

    /// Principal-variation negamax: one interior node of kind `N`, step by step.
    pub(super) fn negamax<N: NodeType>(&mut self, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        self.pv[ply].clear();
        if self.should_abort() {
            return 0;
        }
        if let Some(score) = self.terminal_score(ply) {
            return score;
        }
        let hash = self.game.hash();
        self.hashes[ply] = hash;
        if self.is_repetition(ply, hash) {
            return 0;
        }
        let (alpha, beta) = mate_distance_window(ply, alpha, beta);
        if alpha >= beta {
            return alpha;
        }
        let (danger, depth) = self.threat_extension(depth, ply);
        if depth <= 0 || ply >= MAX_PLY {
            return if G::QUIESCENCE { self.quiescence(ply, alpha, beta, 0) } else { self.game.evaluate() };
        }
        let side = self.game.side_to_move().index();
        let previous = self.line[ply].map(G::move_index);
        let mut frame = Frame { hash, ply, depth, danger, side, previous, static_score: None };
        let tt_move = match self.probe::<N>(&frame, alpha, beta) {
            Probe::Cut(score) => return score,
            Probe::Search(tt_move) => tt_move,
        };
        if let Some(score) = self.settled_by_static_score::<N>(&mut frame, beta) {
            return score;
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        self.game.generate_moves(&mut moves);
        // `terminal_score` above has scored every position without a move (see `Game`).
        debug_assert!(!moves.is_empty(), "a game in progress with no move: {:?}", self.game.outcome());
        let scores = std::mem::take(&mut self.scores[ply]);
        let mut picker = MovePicker::new(moves, scores, &self.game, &self.tables, &frame.node(), tt_move);
        let (best_score, best_move) = self.search_moves::<N>(&frame, &mut picker, alpha, beta);
        (self.moves[ply], self.scores[ply]) = picker.into_buffers();
        if self.aborted {
            return 0;
        }
        self.store(&frame, alpha, beta, best_score, best_move);
        best_score
    }

    /// Whether the position `hash`, `ply` plies from the root, repeats one met earlier in this
    /// line or in the game with the same side to move: a draw.
    #[inline]
    fn is_repetition(&self, ply: usize, hash: u64) -> bool {
        let mut back = ply;
        while back >= 2 {
            back -= 2;
            if self.hashes[back] == hash {
                return true;
            }
        }
        // The last history entry is one ply before the root; keep the entries whose distance
        // to this node is even.
        let mut i = self.history.len().wrapping_sub(if ply.is_multiple_of(2) { 2 } else { 1 });
        while i < self.history.len() {
            if self.history[i] == hash {
                return true;
            }
            i = i.wrapping_sub(2);
        }
        false
    }

    /// Whether the side to move at `ply` is in danger, and the depth to search the node to. A
    /// side that has just come under threat gets one more ply to answer (like a check
    /// extension). Hive threats can last, so only a new one counts, and extensions may add at
    /// most one ply per two searched so that they cannot run away.
    #[inline]
    fn threat_extension(&mut self, depth: i32, ply: usize) -> (bool, i32) {
        let danger = ply < MAX_PLY && self.game.in_danger();
        self.danger[ply] = danger;
        self.extended[ply] = false;
        let new_threat = danger && (ply < 2 || !self.danger[ply - 2]);
        let depth = if new_threat && self.extensions_left(ply) { depth + 1 } else { depth };
        (danger, depth)
    }

    /// What the transposition table says of the node: a non-PV node searched before at least
    /// as deep, with a bound that decides the window, is settled by the stored score.
    #[inline]
    fn probe<N: NodeType>(&self, frame: &Frame, alpha: i32, beta: i32) -> Probe {
        let Some(e) = self.tt.probe(frame.hash, frame.ply) else {
            return Probe::Search(0);
        };
        if !N::PV && e.depth >= frame.depth {
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
            };
            if cut {
                return Probe::Cut(e.score);
            }
        }
        Probe::Search(e.move_code)
    }

    /// The static cutoff: a shallow non-PV node whose static score stands far enough above
    /// `beta` returns that score unsearched (see [`static_cutoff`]). A static score computed
    /// here stays in `frame` for the pruning of the node's moves.
    #[inline]
    fn settled_by_static_score<N: NodeType>(&mut self, frame: &mut Frame, beta: i32) -> Option<i32> {
        if !uses_static_score::<N>(&G::PARAMETERS, self.static_cutoffs, frame.danger, frame.depth) {
            return None;
        }
        let score = self.game.evaluate();
        frame.static_score = Some(score);
        (self.static_cutoffs && static_cutoff(&G::PARAMETERS, frame.depth, beta, score)).then_some(score)
    }

    /// Searches the node's moves in the picker's order until one fails high. Returns the best
    /// score and the move that reached it.
    fn search_moves<N: NodeType>(
        &mut self,
        frame: &Frame,
        picker: &mut MovePicker<G>,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Option<G::Move>) {
        let pruning = QuietPruning::new::<N>(&G::PARAMETERS, frame.danger, frame.depth, alpha, || {
            frame.static_score.unwrap_or_else(|| self.game.evaluate())
        });
        let mut quiet_seen = 0;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut tried = std::mem::take(&mut self.tried[frame.ply]);
        tried.clear();
        while let Some(pick) = picker.next() {
            if pick.quiet && pick.number > 0 {
                quiet_seen += 1;
                if pruning.skips(quiet_seen) {
                    // Moves come best first and quiet ones last, so every later move is quiet
                    // and would be skipped too.
                    break;
                }
            }
            let score = self.search_move::<N>(frame, pick, alpha, beta);
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(pick.mv);
                if score > alpha {
                    alpha = score;
                    if N::PV {
                        self.update_pv(frame.ply, pick.mv);
                    }
                    if score >= beta {
                        if pick.quiet {
                            self.update_history(frame, pick.mv, &tried, self.helping());
                        }
                        break;
                    }
                }
            }
            if pick.quiet {
                tried.push(G::move_index(pick.mv));
            }
            if self.may_split(frame) {
                // The first move did not fail high: idle threads may share the others, up to the
                // first that pruning skips (every later one is skipped too).
                let rest = picker.by_ref().take_while(|pick| {
                    quiet_seen += usize::from(pick.quiet);
                    !(pick.quiet && pruning.skips(quiet_seen))
                });
                (best_score, best_move) =
                    self.split::<N>(frame, rest, alpha, beta, (best_score, best_move), &mut tried);
                break;
            }
        }
        self.tried[frame.ply] = tried;
        (best_score, best_move)
    }

    /// Plays the picked move and searches it: the first move with the full window, the others
    /// by principal-variation search.
    #[inline]
    pub(super) fn search_move<N: NodeType>(
        &mut self,
        frame: &Frame,
        pick: Pick<G::Move>,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        self.game.make(pick.mv);
        self.line[frame.ply + 1] = Some(pick.mv);
        let (depth, ply) = (frame.depth - 1, frame.ply + 1);
        let score = if pick.number == 0 {
            -self.negamax::<N>(depth, ply, -beta, -alpha)
        } else {
            // Late quiet moves are searched shallower first; a surprise is searched again, then
            // (in a PV node) with the full window.
            let r = self.reductions.get::<N>(frame.depth, pick.number, pick.quiet);
            let mut s = -self.negamax::<NonPv>(depth - r, ply, -alpha - 1, -alpha);
            if s > alpha && r > 0 && !self.aborted {
                s = -self.negamax::<NonPv>(depth, ply, -alpha - 1, -alpha);
            }
            if s > alpha && s < beta && N::PV && !self.aborted {
                s = -self.negamax::<Pv>(depth, ply, -beta, -alpha);
            }
            s
        };
        self.game.unmake(pick.mv);
        score
    }

    /// A quiet move failed high: the ordering tables remember it, and reward it against the
    /// quiet moves `tried` before it. With `for_owner` (this thread helps another's node, see
    /// [`Worker::helping`]) it is also logged for that node's owner, who learns it too.
    #[inline]
    pub(super) fn update_history(&mut self, frame: &Frame, mv: G::Move, tried: &[usize], for_owner: bool) {
        let (node, code, index) = (frame.node(), G::move_code(mv), G::move_index(mv));
        self.tables.record_cutoff(&G::PARAMETERS, &node, code, index, tried);
        if for_owner {
            self.learned.push(&node, code, index, tried);
        }
    }

    /// Stores the node's result with the bound it proves for the window it was searched with.
    #[inline]
    fn store(&self, frame: &Frame, alpha: i32, beta: i32, best_score: i32, best_move: Option<G::Move>) {
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(frame.hash, frame.ply, best_move.map_or(0, G::move_code), best_score, frame.depth, bound);
    }

    /// Whether the line to `ply` has room for another extension: extensions may add at most
    /// one ply per two plies searched.
    fn extensions_left(&mut self, ply: usize) -> bool {
        let used = self.extended[..ply].iter().filter(|&&e| e).count();
        let ok = 2 * (used + 1) <= ply + 1;
        self.extended[ply] = ok;
        ok
    }
}

/// Mate-distance pruning: no result at `ply` can beat a mate already found nearer the root,
/// so the window narrows to what can still matter (empty when nothing can).
#[inline]
fn mate_distance_window(ply: usize, alpha: i32, beta: i32) -> (i32, i32) {
    (alpha.max(-(MATE - ply as i32)), beta.min(MATE - ply as i32 - 1))
}
