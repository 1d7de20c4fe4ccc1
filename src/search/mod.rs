//! Game-tree search, generic over [`Game`]: iterative deepening principal-variation search
//! with aspiration windows, a shared lock-free transposition table, killer/history/countermove
//! ordering, late move reductions, and Lazy SMP helper threads.
//!
//! Scores are from the side to move's point of view. A won position scores `MATE - ply`, so the
//! quickest win and the slowest loss are preferred. A position repeated inside the search line
//! scores as a draw (the games' own rules decide repetition in real play).

pub mod level;
mod node;
mod ordering;
pub mod parameters;
mod picker;
mod pruning;
mod time;
pub mod tt;
mod worker;

pub use level::Level;
pub use parameters::Parameters;
pub use time::Limits;
pub use tt::TranspositionTable;

use crate::game::Game;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Duration;
use worker::Worker;

/// The deepest iteration any search thread has finished: Lazy SMP threads race through the
/// same iterations, and whichever finishes a depth first provides the answer for it.
pub(crate) struct Finished<M> {
    depth: AtomicU32,
    best: Mutex<Option<(u32, i32, Vec<M>)>>,
}

impl<M: Copy> Finished<M> {
    fn new() -> Finished<M> {
        Finished { depth: AtomicU32::new(0), best: Mutex::new(None) }
    }

    /// The deepest finished depth (0 before any).
    pub(crate) fn depth(&self) -> u32 {
        self.depth.load(Ordering::Acquire)
    }

    /// Records a finished iteration if it is deeper than any before.
    pub(crate) fn offer(&self, depth: u32, score: i32, pv: &[M]) {
        if depth <= self.depth() || pv.is_empty() {
            return;
        }
        // A poisoned lock only means another thread panicked while storing: the data is whole.
        let mut best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        if best.as_ref().is_none_or(|b| b.0 < depth) {
            *best = Some((depth, score, pv.to_vec()));
            self.depth.store(depth, Ordering::Release);
        }
    }

    /// A copy of the deepest finished iteration: depth, score and principal variation.
    pub(crate) fn peek(&self) -> Option<(u32, i32, Vec<M>)> {
        self.best.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The deepest finished iteration: depth, score and principal variation.
    fn take(&self) -> Option<(u32, i32, Vec<M>)> {
        self.best.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// Score of a win at the root (a win `n` plies away scores `MATE - n`).
pub const MATE: i32 = 30_000;
/// Beyond every real score.
pub(crate) const INFINITY: i32 = 32_000;
/// Most threads a search uses: beyond this, threads only cost memory and start-up.
pub const MAX_THREADS: usize = 256;
/// Deepest ply the search reaches (iterations stop below it).
pub const MAX_PLY: usize = 120;

/// True for scores that announce a forced win or loss.
pub fn is_mate_score(score: i32) -> bool {
    score.abs() > MATE - 1000
}

/// One root move's line: its score and its principal variation (starting with the move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootLine<M> {
    /// Score of the line, from the side to move's view.
    pub score: i32,
    /// The move and the best play after it.
    pub pv: Vec<M>,
}

/// What one finished iteration found (for intermediate reports).
#[derive(Clone, Debug)]
pub struct Report<M> {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// Nodes searched so far by the main thread.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The best root moves' lines, best first: as many as the engine's multi-PV count asks
    /// (fewer when the position has fewer moves). The first is the best move's score (from
    /// the side to move's view) and principal variation.
    pub lines: Vec<RootLine<M>>,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play (`None` only when the position has no legal move); at a level, the
    /// level's draw among `lines`, not always the first of them.
    pub best: Option<M>,
    /// Its score.
    pub score: i32,
    /// Depth of the last finished iteration.
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// The principal variation, starting with `best`.
    pub pv: Vec<M>,
    /// The move comes from an unfinished iteration that had proved it better than the best
    /// move of the deepest finished one.
    pub from_partial: bool,
    /// The best root moves' lines of the last finished iteration, best first (see
    /// [`Report::lines`]); empty when the search had nothing to think about.
    pub lines: Vec<RootLine<M>>,
}

/// A search engine: the transposition table, the thread count, the number of root moves to
/// score exactly (multi-PV) and the difficulty level, kept between searches.
pub struct Searcher {
    tt: TranspositionTable,
    threads: usize,
    multipv: usize,
    level: Level,
    chooser: level::Chooser,
}

/// Most root moves a multi-PV search scores exactly.
pub const MAX_MULTIPV: usize = 64;

impl Searcher {
    /// An engine with a table of `tt_megabytes` MiB (or the largest half, quarter, … of it the
    /// machine provides) searching with `threads` threads (1 to [`MAX_THREADS`]).
    pub fn new(tt_megabytes: usize, threads: usize) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(tt_megabytes),
            threads: threads.clamp(1, MAX_THREADS),
            multipv: 1,
            level: Level::Max,
            chooser: level::Chooser::new(0),
        }
    }

    /// Sets how many root moves every search scores exactly and reports, best first (1 to
    /// [`MAX_MULTIPV`]; 1 is the plain search).
    pub fn set_multipv(&mut self, lines: usize) {
        self.multipv = lines.clamp(1, MAX_MULTIPV);
    }

    /// Sets the difficulty level; `seed` starts the draws of a level's moves (the same seed and
    /// the same searches give the same moves).
    pub fn set_level(&mut self, level: Level, seed: u64) {
        self.level = level;
        self.chooser = level::Chooser::new(seed);
    }

    /// Threads used by a search (the main one included).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Sets the number of threads (1 to [`MAX_THREADS`]).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, MAX_THREADS);
    }

    /// Replaces the transposition table by an empty one of `megabytes` MiB; a size the machine
    /// cannot provide keeps the old one.
    pub fn set_table_megabytes(&mut self, megabytes: usize) -> Result<(), tt::TableTooLarge> {
        self.tt.resize(megabytes)
    }

    /// The transposition table's size in MiB.
    pub fn table_megabytes(&self) -> usize {
        self.tt.megabytes()
    }

    /// Forgets everything learnt (for a new game), in constant time.
    pub fn new_game(&mut self) {
        self.tt.new_game();
    }

    /// Searches `root` within `limits` or until `stop` is raised, calling `report` after every
    /// finished iteration. With one thread the result depends only on the position, the limits
    /// and what earlier searches left in the table.
    pub fn search<G: Game>(
        &mut self,
        root: &G,
        limits: Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Report<G::Move>),
    ) -> SearchResult<G::Move> {
        let limits = self.level.limits::<G>(limits);
        let shape = self.level.shape::<G>();
        // A level searches with the evaluation it was calibrated with.
        let level_root;
        let root = match shape {
            Some(_) => {
                let mut game = root.clone();
                game.use_classic_evaluation();
                level_root = game;
                &level_root
            }
            None => root,
        };
        // A level draws its move among several exactly scored ones.
        let multipv = self.multipv.max(shape.map_or(1, |s| s.lines));
        let clock = time::Clock::new(&limits, &G::PARAMETERS);
        let mut root_game = root.clone();
        let mut moves = Vec::new();
        root_game.generate_moves(&mut moves);
        if moves.len() <= 1 {
            // Nothing to think about: the only move (or none, in a finished game).
            let pv: Vec<G::Move> = moves.first().copied().into_iter().collect();
            return SearchResult {
                best: moves.first().copied(),
                score: 0,
                depth: 0,
                nodes: 0,
                time: clock.elapsed(),
                lines: if pv.is_empty() { Vec::new() } else { vec![RootLine { score: 0, pv: pv.clone() }] },
                pv,
                from_partial: false,
            };
        }
        self.tt.new_search();
        let abort = AtomicBool::new(false);
        let finished = Finished::new();
        let shared = worker::Shared { tt: &self.tt, stop, abort: &abort, finished: &finished };
        // A level's search is a few plies: one thread answers at once, and its draws then repeat
        // with their seed (helpers would make the scores depend on thread timing).
        let helpers = if shape.is_some() { 0 } else { self.threads - 1 };
        // Helpers search to the same depth limit; the clock and node limit are the main thread's.
        let helper_limits = Limits { depth: limits.depth, ..Limits::default() };
        let mut result = std::thread::scope(|scope| {
            // A helper the system refuses to start (thread limit reached) is simply not there:
            // the search goes on with the threads it has.
            let handles: Vec<_> = (0..helpers)
                .map_while(|i| {
                    let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                        // The copy is made by the thread that uses it, so its tables come from
                        // that thread's own memory and never share a cache line with another
                        // thread's hot data.
                        let mut w = Worker::new(root.clone(), shared, None, i + 1, 1);
                        w.iterate(&helper_limits, &mut |_| {});
                        w.nodes
                    });
                    spawned.map_err(|e| log::warn!("search runs with {} threads: {e}", i + 1)).ok()
                })
                .collect();
            let mut main = Worker::new(root.clone(), shared, Some(&clock), 0, multipv);
            let shown = self.multipv;
            let mut result = main.iterate(&limits, &mut |r: &Report<G::Move>| {
                let mut r = r.clone();
                r.lines.truncate(shown);
                report(&r)
            });
            abort.store(true, Ordering::Relaxed);
            let main_nodes = result.nodes;
            for h in handles {
                result.nodes += h.join().unwrap_or(0);
            }
            // A helper may have finished a deeper iteration than the main thread (a multi-PV
            // main thread searches every depth itself: a helper's result has one line only).
            if let Some((depth, score, pv)) = finished.take() {
                if depth > result.depth && !result.from_partial && multipv == 1 {
                    result.best = pv.first().copied();
                    result.score = score;
                    result.depth = depth;
                    result.lines = vec![RootLine { score, pv: pv.clone() }];
                    result.pv = pv;
                    // The main thread stopped before taking it over: report it as its own (with
                    // the main thread's nodes, as every report counts them).
                    let lines = result.lines.clone();
                    report(&Report { depth, nodes: main_nodes, time: clock.elapsed(), lines });
                }
            }
            result.time = clock.elapsed();
            result
        });
        if let Some(shape) = shape {
            self.play_level_move(&mut result, shape.temperature);
        }
        result.lines.truncate(self.multipv);
        result
    }

    /// Replaces the search's best move by the level's draw among the lines.
    fn play_level_move<M: Copy>(&mut self, result: &mut SearchResult<M>, temperature: f64) {
        let pick = self.chooser.choose(&result.lines, temperature);
        if let Some(line) = result.lines.get(pick) {
            result.best = line.pv.first().copied();
            result.score = line.score;
            result.pv = line.pv.clone();
        }
    }
}
