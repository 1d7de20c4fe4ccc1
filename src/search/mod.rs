//! Game-tree search, generic over [`Game`]: iterative deepening principal-variation search
//! with aspiration windows, a shared lock-free transposition table, killer/history/countermove
//! ordering, late move reductions, and helper threads that share the nodes' moves with the
//! main thread (young brothers wait: a node's first move alone, the others in parallel) and,
//! while no node is open to share, search the root one ply deeper on their own.
//!
//! Scores are from the side to move's point of view. A won position scores `MATE - ply`, so the
//! quickest win and the slowest loss are preferred. A position repeated inside the search line
//! scores as a draw (the games' own rules decide repetition in real play).

mod aspiration;
pub mod level;
mod node;
mod ordering;
pub mod parameters;
mod picker;
mod pruning;
mod split;
mod time;
pub mod tt;
mod worker;

pub use level::Level;
pub use parameters::Parameters;
pub use split::SharingStats;
pub use time::Limits;
pub use tt::TranspositionTable;

use crate::game::Game;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use worker::Worker;

/// Score of a win at the root (a win `n` plies away scores `MATE - n`).
pub const MATE: i32 = 30_000;
/// Beyond every real score.
pub(crate) const INFINITY: i32 = 32_000;
/// Most threads the engine accepts. A search starts at most 64 of them: a shared node names
/// its helpers in a 64-bit set.
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
    /// How its threads shared nodes (all zero with one thread).
    pub sharing: SharingStats,
}

/// A search engine: the transposition table, the thread count, the number of root moves to
/// score exactly (multi-PV) and the difficulty level, kept between searches.
pub struct Searcher {
    tt: TranspositionTable,
    threads: usize,
    multipv: usize,
    level: Level,
    chooser: level::Chooser,
    /// The helper threads' move-ordering tables, kept from one search of a game to the next:
    /// a helper's share of a short search is too small to learn its move order afresh.
    helper_tables: Vec<ordering::MoveTables>,
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
            helper_tables: Vec::new(),
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

    /// Makes the transposition table's memory resident in a background thread, now and after
    /// every resize, so that searches do not pay for first touches of it. For an engine that
    /// will search soon (a UHP engine, `comb bestmove`); engines that may never search keep
    /// their tables lazy.
    pub fn make_table_resident(&mut self) {
        self.tt.make_resident();
    }

    /// The transposition table's size in MiB.
    pub fn table_megabytes(&self) -> usize {
        self.tt.megabytes()
    }

    /// Forgets everything learnt (for a new game), in constant time.
    pub fn new_game(&mut self) {
        self.tt.new_game();
        self.helper_tables.clear();
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
                sharing: SharingStats::default(),
            };
        }
        self.tt.new_search();
        let abort = AtomicBool::new(false);
        // A level's search is a few plies: one thread answers at once, and its draws then repeat
        // with their seed (helpers would make the scores depend on thread timing).
        let helpers = if shape.is_some() { 0 } else { (self.threads - 1).min(split::MAX_HELPERS) };
        let pool = split::Pool::new(helpers + 1);
        let shared = worker::Shared { tt: &self.tt, stop, abort: &abort, pool: &pool };
        // Tables made for another game (the engine switched games) are of no use.
        let mut kept = std::mem::take(&mut self.helper_tables);
        kept.retain(|t| t.fits(G::MOVE_INDEX_SIZE, MAX_PLY + 1));
        let (mut result, tables) = std::thread::scope(|scope| {
            // A helper the system refuses to start (thread limit reached) is simply not there:
            // the search goes on with the threads it has.
            let handles: Vec<_> = (0..helpers)
                .map_while(|i| {
                    let tables = kept.pop();
                    let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                        // The copy is made by the thread that uses it, so its tables come from
                        // that thread's own memory and never share a cache line with another
                        // thread's hot data.
                        let mut w = Worker::new(root.clone(), shared, None, i + 1, 1, tables);
                        let nodes = w.help();
                        (nodes, w.sharing, w.into_tables())
                    });
                    spawned.map_err(|e| log::warn!("search runs with {} threads: {e}", i + 1)).ok()
                })
                .collect();
            // The helpers stop when the main thread does, even by a panic (the scope waits for
            // them before it returns or unwinds).
            let stop_helpers = StopOnDrop(&abort);
            let mut main = Worker::new(root.clone(), shared, Some(&clock), 0, multipv, None);
            if shape.is_some() {
                // A level searches as it did when its numbers were set (it has no helpers).
                main.prune_as_levels();
            }
            let shown = self.multipv;
            let mut result = main.iterate(&limits, &mut |r: &Report<G::Move>| {
                let mut r = r.clone();
                r.lines.truncate(shown);
                report(&r)
            });
            drop(stop_helpers);
            result.sharing = main.sharing;
            let mut tables = Vec::with_capacity(helpers);
            // A helper that panicked leaves its tables behind (the next search makes new ones).
            for (nodes, sharing, kept) in handles.into_iter().filter_map(|h| h.join().ok()) {
                result.nodes += nodes;
                result.sharing += sharing;
                tables.push(kept);
            }
            result.time = clock.elapsed();
            log_sharing(&result, helpers);
            (result, tables)
        });
        self.helper_tables = tables;
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

/// Logs how the threads of a search with helpers shared its nodes (see [`SharingStats`]).
fn log_sharing<M>(result: &SearchResult<M>, helpers: usize) {
    if helpers == 0 {
        return;
    }
    let s = &result.sharing;
    let share = |part: u64, whole: u64| 100.0 * part as f64 / whole.max(1) as f64;
    let thread_time = result.time.as_secs_f64() * (helpers + 1) as f64;
    log::debug!(
        "{} threads: {} splits ({:.0} % failed high), {} moves shared ({:.0} % by helpers), \
         {} moot nodes ({:.1} % of {}), idle {:.3} s ({:.1} % of the threads' time), \
         {} nodes searched alone ({:.1} %)",
        helpers + 1,
        s.splits,
        share(s.splits_cut, s.splits),
        s.moves,
        share(s.moves_helped, s.moves),
        s.moot_nodes,
        share(s.moot_nodes, result.nodes),
        result.nodes,
        s.idle.as_secs_f64(),
        100.0 * s.idle.as_secs_f64() / thread_time.max(1e-9),
        s.solo_nodes,
        share(s.solo_nodes, result.nodes),
    );
}

/// Raises its flag when dropped, even by a panic.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::{Limits, Searcher};
    use crate::game::Game;
    use crate::hive::{GameType, Hive};
    use crate::intellector::{Position, Rules};
    use std::sync::atomic::AtomicBool;

    #[test]
    fn helpers_keep_their_move_ordering_tables_within_a_game_only() {
        let stop = AtomicBool::new(false);
        let mut searcher = Searcher::new(1, 2);
        let hive = Hive::new(GameType::parse("Base+MLP").unwrap());
        searcher.search(&hive, Limits::depth(3), &stop, &mut |_| {});
        assert_eq!(searcher.helper_tables.len(), 1);
        searcher.search(&hive, Limits::depth(3), &stop, &mut |_| {});
        assert_eq!(searcher.helper_tables.len(), 1);
        searcher.new_game();
        assert!(searcher.helper_tables.is_empty());
        // A search of another game starts its helper with tables of that game's size.
        searcher.search(&hive, Limits::depth(2), &stop, &mut |_| {});
        let game = Position::new(Rules::Modern);
        searcher.search(&game, Limits::depth(2), &stop, &mut |_| {});
        let tables = &searcher.helper_tables;
        assert!(tables.len() == 1 && tables[0].fits(Position::MOVE_INDEX_SIZE, super::MAX_PLY + 1));
    }
}
