//! One search thread: iterative deepening over a private copy of the game, each iteration in
//! an aspiration window around the last score, and the root of every iteration. Below the root
//! the search goes on in `negamax`, and for games that resolve captures at the leaves in
//! `quiescence`.

mod negamax;
mod quiescence;
mod split;

use super::aspiration::Window;
use super::node::{NonPv, Pv};
use super::ordering::{CutoffLog, MoveTables};
use super::pruning::Reductions;
use super::split::{Pool, SharingStats, SplitId};
use super::time::{Clock, Limits, TimeManager};
use super::tt::{Bound, TranspositionTable};
use super::{Report, RootLine, SearchResult, INFINITY, MATE, MAX_PLY};
use crate::game::Game;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// What every thread of one search shares: the table, the stop flags, and the nodes whose
/// moves they share.
pub(crate) struct Shared<'a, M> {
    pub tt: &'a TranspositionTable,
    /// Raised from outside (`stop`) to end the search.
    pub stop: &'a AtomicBool,
    /// Raised by the main thread to end the helpers.
    pub abort: &'a AtomicBool,
    /// The threads' shared nodes.
    pub pool: &'a Pool<M>,
}

impl<M> Clone for Shared<'_, M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M> Copy for Shared<'_, M> {}

pub(crate) struct Worker<'a, G: Game> {
    game: G,
    tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    abort: &'a AtomicBool,
    /// Only the main thread watches the clock; helpers stop when it raises `abort`.
    time: Option<TimeManager<'a>>,
    /// Where the threads share nodes' moves.
    pool: &'a Pool<G::Move>,
    /// The split points this thread works in (its own and those it helps), outermost first.
    chain: Vec<SplitId>,
    /// How many of the split points in `chain` this thread owns.
    owned: usize,
    /// The move played to reach every ply of the current line (for countermoves, and the path
    /// a helper replays).
    line: Vec<Option<G::Move>>,
    id: usize,
    pub nodes: u64,
    node_limit: u64,
    aborted: bool,
    /// A helper searching the root on its own (no node was open to join): it stops as soon as
    /// it is given one, and shares none of its own nodes.
    solo: bool,
    /// Per-ply buffers (moves, their ordering scores, the quiet moves tried), reused so that
    /// the search does not allocate.
    moves: Vec<Vec<G::Move>>,
    scores: Vec<Vec<i32>>,
    tried: Vec<Vec<usize>>,
    tables: MoveTables,
    /// The quiet cutoffs this thread met while it helped other threads' nodes, for their
    /// owners (see [`Worker::helping`]).
    learned: CutoffLog,
    /// This thread's share of how the threads shared nodes.
    pub sharing: SharingStats,
    /// Hash of the position at every ply of the current line (for repetition).
    hashes: Vec<u64>,
    /// Hashes of the game's earlier positions that the root could still repeat, oldest first.
    history: Vec<u64>,
    /// Whether the node at every ply of the current line was extended.
    extended: Vec<bool>,
    /// Whether the side to move was in danger at every ply of the current line.
    danger: Vec<bool>,
    pv: Vec<Vec<G::Move>>,
    /// Late-move reductions by depth and move number.
    reductions: Reductions,
    /// Whether shallow nodes may be settled by their static score (see
    /// [`static_cutoff`](super::pruning::static_cutoff)): off for a level, whose numbers were
    /// set by matches without it.
    static_cutoffs: bool,
    /// Root moves scored exactly in every iteration (1: only the best).
    multipv: usize,
    /// Multi-PV: the lines of the iteration being searched, as root moves are scored.
    /// Each with whether its score is exact (it beat the `multipv`-th best when searched).
    root_lines: Vec<(bool, RootLine<G::Move>)>,
    /// Multi-PV: the best `multipv` exact scores of `root_lines`, best first, kept as lines
    /// are added so the threshold of the next root move costs no sort and no allocation.
    best_exact: Vec<i32>,
}

impl<'a, G: Game> Worker<'a, G> {
    /// Thread `id` (0 is the main thread, the one with the clock) of a search scoring
    /// `multipv` root moves exactly. It orders moves with `kept_tables`, the tables it kept
    /// from its last search of the game (see [`MoveTables::for_next_search`]), or with empty
    /// ones.
    pub fn new(
        game: G,
        shared: Shared<'a, G::Move>,
        clock: Option<&'a Clock>,
        id: usize,
        multipv: usize,
        kept_tables: Option<MoveTables>,
    ) -> Self {
        let Shared { tt, stop, abort, pool } = shared;
        let tables = match kept_tables {
            Some(mut tables) => {
                tables.for_next_search();
                tables
            }
            None => MoveTables::new(G::MOVE_INDEX_SIZE, MAX_PLY + 1),
        };
        Worker {
            game,
            tt,
            stop,
            abort,
            time: clock.map(TimeManager::new),
            pool,
            chain: Vec::with_capacity(4 * super::split::MAX_SPLITS),
            owned: 0,
            line: vec![None; MAX_PLY + 2],
            id,
            nodes: 0,
            node_limit: u64::MAX,
            aborted: false,
            solo: false,
            moves: (0..=MAX_PLY + 1).map(|_| Vec::with_capacity(256)).collect(),
            scores: (0..=MAX_PLY + 1).map(|_| Vec::with_capacity(256)).collect(),
            tried: (0..=MAX_PLY + 1).map(|_| Vec::with_capacity(256)).collect(),
            tables,
            learned: CutoffLog::new(),
            sharing: SharingStats::default(),
            hashes: vec![0; MAX_PLY + 2],
            history: Vec::new(),
            extended: vec![false; MAX_PLY + 2],
            danger: vec![false; MAX_PLY + 2],
            pv: (0..=MAX_PLY + 1).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            reductions: Reductions::new(&G::PARAMETERS, MAX_PLY),
            static_cutoffs: true,
            multipv: multipv.max(1),
            root_lines: Vec::new(),
            best_exact: Vec::with_capacity(multipv.max(1) + 1),
        }
    }

    /// The thread's move-ordering tables, to be kept for its next search of the game.
    pub fn into_tables(self) -> MoveTables {
        self.tables
    }

    /// Searches as the difficulty levels were calibrated: without static cutoffs.
    pub fn prune_as_levels(&mut self) {
        self.static_cutoffs = false;
    }

    /// Whether the thread works at a node of another thread (its chain holds split points it
    /// does not own): its quiet cutoffs are then logged for their owners.
    #[inline]
    fn helping(&self) -> bool {
        self.chain.len() > self.owned
    }

    #[inline]
    fn should_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if !self.chain.is_empty() && self.chain_cut() {
            // Another thread's move failed high at a node this one helps: its work is moot.
            self.aborted = true;
            return true;
        }
        if self.solo && self.pool.has_assignment(self.id) {
            // A node to share beats a search of its own: the owner waits for this thread.
            self.aborted = true;
            return true;
        }
        if self.nodes.is_multiple_of(G::PARAMETERS.check_interval) {
            self.check_limits();
            if self.search_stopped() {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The main thread ends the search for every thread once its time or node budget is spent.
    fn check_limits(&self) {
        let out_of_time = self.time.as_ref().is_some_and(|t| t.must_stop());
        if out_of_time || self.nodes >= self.node_limit {
            self.abort.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the whole search is being stopped (from outside, by the main thread, or because
    /// a thread died with shared work unfinished).
    fn search_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.abort.load(Ordering::Relaxed) || self.pool.is_broken()
    }

    /// Iterative deepening, by the main thread (the one with the clock) within `limits`; the
    /// helpers join its nodes (see [`Worker::help`]).
    pub fn iterate(&mut self, limits: &Limits, report: &mut dyn FnMut(&Report<G::Move>)) -> SearchResult<G::Move> {
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32).clamp(1, MAX_PLY as u32);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        let mut root_moves = Vec::new();
        self.game.generate_moves(&mut root_moves);
        self.history.clear();
        self.game.repeatable_history(&mut self.history);
        let mut best = SearchResult {
            best: root_moves.first().copied(),
            score: 0,
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
            pv: root_moves.first().copied().into_iter().collect(),
            from_partial: false,
            lines: Vec::new(),
            sharing: SharingStats::default(),
        };
        for depth in 1..=max_depth {
            if let Some(time) = &mut self.time {
                time.start_iteration();
            }
            self.pool.start_iteration(depth as i32);
            let (score, partial) = self.aspiration(depth as i32, best.score, &mut root_moves);
            if self.aborted {
                keep_partial(&mut best, partial);
                break;
            }
            best.pv = self.principal_variation(&root_moves);
            best.lines = self.finished_lines(score, &best.pv);
            best.best = root_moves.first().copied();
            best.score = score;
            best.depth = depth;
            best.nodes = self.nodes;
            if !self.go_deeper(&best, max_depth, report) {
                break;
            }
        }
        best.nodes = self.nodes;
        best
    }

    /// The principal variation of the iteration just finished (it starts with the best root
    /// move).
    fn principal_variation(&self, root_moves: &[G::Move]) -> Vec<G::Move> {
        let pv = &self.pv[0];
        if pv.first() == root_moves.first() {
            pv.clone()
        } else {
            root_moves.first().copied().into_iter().collect()
        }
    }

    /// After the iteration that found `best`: reports it (main thread) and says whether to
    /// search one ply deeper.
    fn go_deeper(
        &mut self,
        best: &SearchResult<G::Move>,
        max_depth: u32,
        report: &mut dyn FnMut(&Report<G::Move>),
    ) -> bool {
        let (depth, score) = (best.depth, best.score);
        if let Some(time) = &mut self.time {
            let (elapsed, took) = time.finish_iteration();
            let lines = best.lines.clone();
            report(&Report { depth, nodes: self.nodes, time: elapsed, lines });
            log::debug!("depth {depth} score {score} nodes {} iteration {took:?} total {elapsed:?}", self.nodes);
            if !time.next_iteration_may_start() {
                return false;
            }
            if super::is_mate_score(score) && depth as i32 > MATE - score.abs() && self.multipv == 1 {
                return false; // a forced result seen in full (the other lines may still change)
            }
        }
        if depth >= max_depth {
            return false;
        }
        self.nodes < self.node_limit
    }

    /// One iteration in an aspiration window around the last score (see [`Window`]), searched
    /// again in another while the score falls outside. Returns the score and, if the iteration
    /// was cut short, the best root move it had proved.
    fn aspiration(&mut self, depth: i32, guess: i32, root_moves: &mut Vec<G::Move>) -> (i32, Option<(G::Move, i32)>) {
        if self.multipv > 1 {
            // Several exact scores need the full window.
            return (self.root_lines(depth, root_moves), None);
        }
        let mut window = Window::new(&G::PARAMETERS, depth, guess);
        loop {
            let (score, partial) = self.root(depth, window.alpha, window.beta, root_moves);
            if self.aborted {
                return (score, partial);
            }
            // Every window's outcome, so that a log shows what the re-searches of a failed
            // window cost (`RUST_LOG=debug`).
            log::debug!("depth {depth} window [{}, {}] score {score} nodes {}", window.alpha, window.beta, self.nodes);
            match window.widen(&G::PARAMETERS, score) {
                Some(next) => window = next,
                None => return (score, None),
            }
        }
    }

    /// The root: searches every move, keeps the list sorted best first for the next iteration.
    fn root(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        root_moves: &mut Vec<G::Move>,
    ) -> (i32, Option<(G::Move, i32)>) {
        let hash = self.game.hash();
        self.hashes[0] = hash;
        self.pv[0].clear();
        let mut best_score = -INFINITY;
        let mut best_index = 0;
        let mut proved = None;
        for (i, &mv) in root_moves.iter().enumerate() {
            self.nodes += 1;
            self.game.make(mv);
            self.line[1] = Some(mv);
            let score = if i == 0 {
                -self.negamax::<Pv>(depth - 1, 1, -beta, -alpha)
            } else {
                let mut s = -self.negamax::<NonPv>(depth - 1, 1, -alpha - 1, -alpha);
                if s > alpha && s < beta && !self.aborted {
                    s = -self.negamax::<Pv>(depth - 1, 1, -beta, -alpha);
                }
                s
            };
            self.game.unmake(mv);
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best_index = i;
                if score > alpha {
                    alpha = score;
                    proved = Some((mv, score));
                    self.update_pv(0, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        // Best move first; the others keep their order (stable, so single-thread runs repeat).
        let best = root_moves.remove(best_index);
        root_moves.insert(0, best);
        if !self.aborted {
            let bound = if best_score >= beta { Bound::Lower } else { Bound::Exact };
            if best_score > -INFINITY {
                self.tt.store(hash, 0, G::move_code(best), best_score, depth, bound);
            }
        }
        (best_score, proved)
    }

    /// The lines of a finished iteration, best first: the multi-PV lines, or the one line.
    fn finished_lines(&self, score: i32, pv: &[G::Move]) -> Vec<RootLine<G::Move>> {
        if self.multipv > 1 {
            self.root_lines.iter().filter(|l| l.0).take(self.multipv).map(|l| l.1.clone()).collect()
        } else {
            vec![RootLine { score, pv: pv.to_vec() }]
        }
    }

    /// The root of a multi-PV iteration: the first `multipv` moves are searched with the full
    /// window, every later one first against the score of the `multipv`-th best so far (a move
    /// that cannot beat it needs no exact score) and again in full when it does. The moves are
    /// then sorted best first, exactly scored ones ahead of the others. Returns the best score.
    fn root_lines(&mut self, depth: i32, root_moves: &mut Vec<G::Move>) -> i32 {
        self.root_lines.clear();
        self.best_exact.clear();
        let hash = self.game.hash();
        self.hashes[0] = hash;
        for &mv in root_moves.iter() {
            let threshold = self.nth_best_exact();
            self.nodes += 1;
            self.game.make(mv);
            self.line[1] = Some(mv);
            let mut score = -INFINITY;
            if threshold > -INFINITY {
                score = -self.negamax::<NonPv>(depth - 1, 1, -threshold - 1, -threshold);
            }
            let exact = score > threshold || threshold == -INFINITY;
            if exact && !self.aborted {
                score = -self.negamax::<Pv>(depth - 1, 1, -INFINITY, -threshold);
            }
            self.game.unmake(mv);
            if self.aborted {
                break;
            }
            let mut pv = vec![mv];
            if exact {
                pv.extend_from_slice(&self.pv[1]);
                self.note_exact(score);
            }
            self.root_lines.push((exact, RootLine { score, pv }));
        }
        if self.aborted {
            return self.root_lines.first().map_or(0, |l| l.1.score);
        }
        // Exact scores first, then by score; stable, so single-thread runs repeat.
        self.root_lines.sort_by_key(|l| (!l.0, -l.1.score));
        root_moves.clear();
        root_moves.extend(self.root_lines.iter().map(|l| l.1.pv[0]));
        let best = &self.root_lines[0].1;
        self.pv[0].clone_from(&best.pv);
        self.tt.store(hash, 0, G::move_code(root_moves[0]), best.score, depth, Bound::Exact);
        best.score
    }

    /// The `multipv`-th best exact score among the root moves searched so far in this
    /// iteration, or `-INFINITY` while fewer have been.
    fn nth_best_exact(&self) -> i32 {
        self.best_exact.get(self.multipv - 1).copied().unwrap_or(-INFINITY)
    }

    /// Adds an exact root score to `best_exact`, keeping the best `multipv` of them.
    fn note_exact(&mut self, score: i32) {
        let at = self.best_exact.partition_point(|&s| s >= score);
        if at < self.multipv {
            self.best_exact.insert(at, score);
            self.best_exact.truncate(self.multipv);
        }
    }

    /// Makes `mv` followed by the line below it (`ply + 1`) the principal variation at `ply`.
    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }
}

/// After an aborted iteration: its move replaces the last finished iteration's only if the
/// unfinished one proved it better (see [`super::time::TimeManager`]).
fn keep_partial<M: Copy + Eq>(best: &mut SearchResult<M>, partial: Option<(M, i32)>) {
    if let Some((mv, s)) = partial {
        if Some(mv) != best.best {
            best.best = Some(mv);
            best.score = s;
            best.pv = vec![mv];
            best.from_partial = true;
        }
    }
}
