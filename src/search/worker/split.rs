//! A thread's side of sharing a node's moves (see [`crate::search::split`]): splitting a node,
//! taking its moves one at a time, joining another thread's node, and waiting as a helper.

use super::negamax::Frame;
use super::Worker;
use crate::game::Game;
use crate::search::node::{NodeType, NonPv, Pv};
use crate::search::picker::Pick;
use crate::search::split::{owner, split_id, SplitId, MAX_SPLITS, MIN_SPLIT_DEPTH};
use crate::search::{INFINITY, MAX_PLY};
use std::sync::atomic::Ordering;
use std::time::Instant;

impl<G: Game> Worker<'_, G> {
    /// Whether the node of `frame`, its first move searched, should share its other moves now:
    /// deep enough, a thread idle, and a split point free.
    #[inline]
    pub(super) fn may_split(&self, frame: &Frame) -> bool {
        frame.depth >= MIN_SPLIT_DEPTH && self.pool.has_idle() && self.owned < MAX_SPLITS && !self.aborted && !self.solo
    }

    /// Shares `moves`, the rest of the node's moves in order, with the idle threads and searches
    /// them with them. `best` is the node's best score and move so far; returns them once
    /// every move is searched or one has failed high.
    pub(super) fn split<N: NodeType>(
        &mut self,
        frame: &Frame,
        moves: impl Iterator<Item = Pick<G::Move>>,
        alpha: i32,
        beta: i32,
        best: (i32, Option<G::Move>),
        tried: &mut Vec<usize>,
    ) -> (i32, Option<G::Move>) {
        let id = split_id(self.id, self.owned);
        let pool = self.pool;
        let sp = pool.split(id);
        {
            let mut st = sp.lock();
            st.moves.clear();
            st.moves.extend(moves);
            if st.moves.is_empty() {
                return best;
            }
            let ply = frame.ply;
            st.path.clear();
            st.path.extend(self.line[1..=ply].iter().map(|m| m.expect("every ply of the line has its move")));
            st.danger.clear();
            st.danger.extend_from_slice(&self.danger[..=ply]);
            st.extended.clear();
            st.extended.extend_from_slice(&self.extended[..=ply]);
            st.ply = ply;
            st.depth = frame.depth;
            st.beta = beta;
            st.pv_node = N::PV;
            st.next = 0;
            st.alpha = alpha;
            (st.best_score, st.best_move) = best;
            st.pv.clone_from(&self.pv[ply]);
            st.refutation = None;
            st.learned.clear();
            let shared = st.moves.len();
            st.spent.clear();
            st.spent.resize(shared, 0);
        }
        pool.open(id, self.chain.last().copied());
        self.owned += 1;
        self.sharing.splits += 1;
        self.chain.push(id);
        pool.recruit(self.id, id);
        self.take_moves::<N>(id, frame);
        self.wait_for_helpers(id, frame.ply);
        self.close_split(id);
        let st = sp.lock();
        if N::PV && st.best_move != best.1 {
            self.pv[frame.ply].clone_from(&st.pv);
        }
        // What the helpers learned below the node, as if the owner had searched it alone (and
        // passed on if the owner itself helps a node above).
        let also = if self.helping() { Some(&mut self.learned) } else { None };
        st.learned.replay(&G::PARAMETERS, &mut self.tables, also);
        // The node's refutation, whichever thread found it, goes into the owner's tables as
        // if the owner had searched the node alone: the owner goes on searching its siblings.
        if let Some(cut) = st.refutation.filter(|_| !self.aborted) {
            self.sharing.splits_cut += 1;
            self.sharing.moot_nodes += st.spent[cut + 1..].iter().sum::<u64>();
            let pick = st.moves[cut];
            if pick.quiet {
                tried.extend(st.moves[..cut].iter().filter(|p| p.quiet).map(|p| G::move_index(p.mv)));
                self.update_history(frame, pick.mv, tried, self.helping());
            }
        }
        (st.best_score, st.best_move)
    }

    /// The thread leaves its own split point `id`, its helpers gone: off its chain, and on
    /// with the node's result unless an outer cutoff or the search's end stopped it.
    fn close_split(&mut self, id: SplitId) {
        self.chain.pop();
        self.owned -= 1;
        self.end_cut(id);
    }

    /// Takes the split point's moves one at a time and searches them, until none is left or
    /// one fails high (here or in another thread).
    fn take_moves<N: NodeType>(&mut self, id: SplitId, frame: &Frame) {
        let sp = self.pool.split(id);
        let helper = self.id != owner(id);
        loop {
            let (index, pick, alpha, beta) = {
                let mut st = sp.lock();
                // A move taken must be searched to the end, or the node's result is wrong: a
                // thread whose work is moot (a waiting owner whose own line was cut off) takes
                // none, and none is taken once the node's line is cut off or the search stopped.
                if self.aborted || st.next >= st.moves.len() || self.pool.cut_off(Some(id)) || self.search_stopped() {
                    break;
                }
                st.next += 1;
                (st.next - 1, st.moves[st.next - 1], st.alpha, st.beta)
            };
            let before = self.nodes;
            let score = self.search_move::<N>(frame, pick, alpha, beta);
            self.sharing.moves += 1;
            self.sharing.moves_helped += u64::from(helper);
            if self.aborted {
                if sp.cutoff.load(Ordering::Relaxed) {
                    self.sharing.moot_nodes += self.nodes - before;
                }
                break;
            }
            let mut st = sp.lock();
            st.spent[index] = self.nodes - before;
            if score > st.best_score {
                st.best_score = score;
                st.best_move = Some(pick.mv);
                if score > st.alpha {
                    st.alpha = score;
                    if N::PV {
                        st.pv.clear();
                        st.pv.push(pick.mv);
                        st.pv.extend_from_slice(&self.pv[frame.ply + 1]);
                    }
                    if score >= st.beta {
                        sp.cutoff.store(true, Ordering::Release);
                        st.refutation = Some(index);
                        drop(st);
                        // A helper learns it too; the owner learns it once its helpers are gone.
                        if pick.quiet && helper {
                            // Not logged: the owner learns the refutation from the split point.
                            self.update_history(frame, pick.mv, &[], false);
                        }
                        break;
                    }
                }
            }
        }
        self.end_cut(id);
    }

    /// After work at the split point `id` (the last of `chain`, or just taken off it) stopped:
    /// if its own cutoff stopped it, the thread goes on; if the search or an outer split point
    /// was stopped, it keeps unwinding.
    fn end_cut(&mut self, id: SplitId) {
        if !self.aborted || !self.pool.split(id).cutoff.load(Ordering::Acquire) {
            return;
        }
        let outer = self.pool.cut_off(self.pool.parent(id));
        if !outer && !self.search_stopped() {
            self.aborted = false;
        }
    }

    /// Whether a split point this thread works in, or one above it on its owner's line, has
    /// been cut off (every split point of the chain lies below the one before it).
    #[inline]
    pub(super) fn chain_cut(&self) -> bool {
        self.pool.cut_off(self.chain.last().copied())
    }

    /// The owner of split point `id` (at `ply`), its moves all taken, waits until its helpers
    /// have finished theirs, helping them meanwhile where they split in turn. The main thread
    /// keeps watching the clock.
    fn wait_for_helpers(&mut self, id: SplitId, ply: usize) {
        let pool = self.pool;
        let outer = pool.wait_at(self.id, id);
        let mut spins = 0u32;
        let mut waiting = Instant::now();
        loop {
            if let Some(work) = pool.take_assignment(self.id) {
                self.sharing.idle += waiting.elapsed();
                self.join(work, ply);
                // A cutoff above the joined node but below this one's stopped the work there,
                // not this thread's own line.
                self.aborted = self.search_stopped() || self.chain_cut();
                waiting = Instant::now();
                spins = 0;
                continue;
            }
            if pool.stop_waiting(self.id, id, outer) {
                self.sharing.idle += waiting.elapsed();
                break;
            }
            if pool.is_broken() {
                self.aborted = true;
                break;
            }
            self.check_limits();
            spins = pause(spins);
        }
        // A cutoff at a node this thread works in may have stopped a helper before it searched
        // its move here: the node is then unfinished, and its result must not be used or stored
        // (`end_cut` lets the thread go on if the cutoff was this node's own).
        if self.search_stopped() || self.chain_cut() {
            self.aborted = true;
        }
    }

    /// Joins split point `id` from ply `base` of the line this thread's game is at (the root
    /// for an idle helper, its own split point's node for a waiting owner): plays the path
    /// from there (noting the hash of every position on it), takes moves with the others, and
    /// goes back.
    fn join(&mut self, id: SplitId, base: usize) {
        let sp = self.pool.split(id);
        let (frame, pv_node) = {
            let st = sp.lock();
            let ply = st.ply;
            debug_assert!(self.line[1..=base].iter().zip(&st.path).all(|(m, p)| *m == Some(*p)));
            self.hashes[base] = self.game.hash();
            for (i, &mv) in st.path.iter().enumerate().skip(base) {
                self.game.make(mv);
                self.line[i + 1] = Some(mv);
                self.hashes[i + 1] = self.game.hash();
            }
            // Which sides were in danger, and where the line was extended, the position cannot
            // tell: they come from the owner.
            self.danger[..=ply].copy_from_slice(&st.danger);
            self.extended[..=ply].copy_from_slice(&st.extended);
            let frame = Frame {
                hash: self.hashes[ply],
                ply,
                depth: st.depth,
                danger: st.danger[ply],
                side: self.game.side_to_move().index(),
                previous: self.line[ply].map(G::move_index),
                static_score: None,
            };
            (frame, st.pv_node)
        };
        self.chain.push(id);
        let mark = self.learned.mark();
        if pv_node {
            self.take_moves::<Pv>(id, &frame);
        } else {
            self.take_moves::<NonPv>(id, &frame);
        }
        self.learned.move_since(mark, &mut sp.lock().learned);
        self.chain.pop();
        for i in (base..frame.ply).rev() {
            let mv = self.line[i + 1].expect("the path was played");
            self.game.unmake(mv);
        }
        self.pool.leave(self.id, id);
    }

    /// A helper thread's life: it joins nodes to share until the search stops, and while none
    /// is open searches the root on its own, one ply deeper than the main thread, sharing only
    /// the table (in a game's short searches no node may be open for milliseconds).
    /// Returns its node count.
    pub fn help(&mut self) -> u64 {
        self.history.clear();
        self.game.repeatable_history(&mut self.history);
        let mut root_moves = Vec::new();
        self.game.generate_moves(&mut root_moves);
        let mut solo_done = 0;
        let pool = self.pool;
        pool.become_idle(self.id);
        let mut spins = 0u32;
        let mut waiting = Instant::now();
        loop {
            if let Some(work) = pool.take_assignment(self.id) {
                self.sharing.idle += waiting.elapsed();
                if self.guarded(|w| w.join(work, 0)).is_none() {
                    break;
                }
                self.aborted = false;
                waiting = Instant::now();
                spins = 0;
                continue;
            }
            if self.search_stopped() {
                self.sharing.idle += waiting.elapsed();
                break;
            }
            if G::PARAMETERS.helpers_search_alone && spins >= G::PARAMETERS.helper_spins_before_search_alone {
                if let Some(depth) = solo_depth(pool.iteration(), solo_done) {
                    self.sharing.idle += waiting.elapsed();
                    match self.guarded(|w| w.search_alone(depth, &mut root_moves)) {
                        None => break,
                        Some(true) => solo_done = depth,
                        Some(false) => {}
                    }
                    waiting = Instant::now();
                    spins = 0;
                    continue;
                }
            }
            spins = pause(spins);
        }
        // Work given after the last look is handed back, so that its owner does not wait.
        pool.retire(self.id);
        self.nodes
    }

    /// Runs `work` (joining a node, or a search of its own); a panic there would leave an owner
    /// waiting for ever, so it stops the search instead (a broken pool stops every thread, see
    /// `search_stopped`). Returns what `work` returned, or `None` after a panic: the thread
    /// must then stop.
    fn guarded<R>(&mut self, work: impl FnOnce(&mut Self) -> R) -> Option<R> {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(self)));
        if result.is_err() {
            self.pool.break_down();
        }
        result.ok()
    }

    /// An idle helper searches the root to `depth` on its own, until it finishes, the search
    /// stops or a node is given it to join. Its results reach the main thread through the
    /// table. Returns whether it finished.
    fn search_alone(&mut self, depth: i32, root_moves: &mut Vec<G::Move>) -> bool {
        let before = self.nodes;
        self.solo = true;
        self.root(depth, -INFINITY, INFINITY, root_moves);
        self.solo = false;
        self.sharing.solo_nodes += self.nodes - before;
        let finished = !self.aborted;
        self.aborted = false;
        finished
    }
}

/// The depth an idle helper searches the root to on its own, the main thread being at its
/// iteration of `main` (0 before its first) and the helper having finished `done`: one ply
/// deeper than the main thread, or deeper than its own last; none before the main thread's
/// first iteration (whose moves and table it builds on) or beyond the deepest ply.
fn solo_depth(main: i32, done: i32) -> Option<i32> {
    let depth = main.max(done) + 1;
    (main > 0 && depth <= MAX_PLY as i32).then_some(depth)
}

/// One wait of an idle thread: spin a while (work usually comes within microseconds), then
/// yield the core to whatever else the machine runs.
#[inline]
fn pause(spins: u32) -> u32 {
    if spins < 1_000 {
        std::hint::spin_loop();
    } else {
        std::thread::yield_now();
    }
    spins.saturating_add(1)
}

#[cfg(test)]
mod tests {
    use super::super::{Shared, Worker};
    use crate::game::Game;
    use crate::hive::{GameType, Hive};
    use crate::search::picker::Pick;
    use crate::search::split::{split_id, Pool};
    use crate::search::tt::TranspositionTable;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// The pool of a Hive search's threads.
    type HivePool = Pool<<Hive as Game>::Move>;

    /// Thread 0 of three helps thread 1's node `outer` and, below it, owns the node `own`,
    /// whose moves it has handed out, with `cut` (a subset of `outer` and `own`) cut off and a
    /// thread dead with shared work unfinished if `broken`. Runs `check` on the pool and the
    /// thread, whose game is at the start of Base+MLP.
    fn owning_below(cut: &[bool; 2], broken: bool, check: impl FnOnce(&HivePool, &mut Worker<'_, Hive>)) {
        let tt = TranspositionTable::new(1);
        let (stop, abort) = (AtomicBool::new(false), AtomicBool::new(false));
        let pool = Pool::new(3);
        let shared = Shared { tt: &tt, stop: &stop, abort: &abort, pool: &pool };
        let mut worker = Worker::new(Hive::new(GameType::parse("Base+MLP").unwrap()), shared, None, 0, 1, None);
        let (outer, own) = (split_id(1, 0), split_id(0, 0));
        worker.chain.extend([outer, own]);
        worker.owned = 1;
        pool.open(outer, None);
        pool.open(own, Some(outer));
        for (&id, &cut) in [outer, own].iter().zip(cut) {
            pool.split(id).cutoff.store(cut, Ordering::Relaxed);
        }
        if broken {
            pool.break_down();
        }
        check(&pool, &mut worker);
    }

    /// As [`owning_below`], with `check` run once the thread has waited for its helpers, who
    /// have all left `own`.
    fn after_waiting(cut: &[bool; 2], broken: bool, check: impl FnOnce(&mut Worker<'_, Hive>)) {
        owning_below(cut, broken, |_, worker| {
            worker.wait_for_helpers(split_id(0, 0), 0);
            check(worker);
        });
    }

    #[test]
    fn an_idle_helper_searches_one_ply_deeper_than_the_main_thread_once_it_has_an_iteration() {
        assert_eq!(super::solo_depth(0, 0), None);
        assert_eq!(super::solo_depth(3, 0), Some(4));
        assert_eq!(super::solo_depth(3, 4), Some(5));
        assert_eq!(super::solo_depth(5, 4), Some(6));
        assert_eq!(super::solo_depth(crate::search::MAX_PLY as i32, 0), None);
    }

    /// Helper thread 1 of two at the start of Base+MLP, given a node of thread 0 to join if
    /// `given`, searches the root to `depth` on its own: whether it finished, and its nodes.
    fn searching_alone(given: bool, depth: i32) -> (bool, u64, u64) {
        let tt = TranspositionTable::new(1);
        let (stop, abort) = (AtomicBool::new(false), AtomicBool::new(false));
        let pool = Pool::new(2);
        let shared = Shared { tt: &tt, stop: &stop, abort: &abort, pool: &pool };
        let mut worker = Worker::new(Hive::new(GameType::parse("Base+MLP").unwrap()), shared, None, 1, 1, None);
        let mut root_moves = Vec::new();
        worker.game.generate_moves(&mut root_moves);
        pool.become_idle(1);
        if given {
            let id = split_id(0, 0);
            pool.open(id, None);
            assert_eq!(pool.recruit(0, id), 1);
        }
        let finished = worker.search_alone(depth, &mut root_moves);
        // Its game is back at the root, and the node given it still waits to be joined.
        assert_eq!(worker.game.hash(), Hive::new(GameType::parse("Base+MLP").unwrap()).hash());
        assert_eq!(pool.has_assignment(1), given);
        assert!(!worker.aborted && !worker.solo);
        (finished, worker.nodes, worker.sharing.solo_nodes)
    }

    #[test]
    fn a_helper_searching_alone_finishes_unless_given_a_node_to_join() {
        let (finished, nodes, solo) = searching_alone(false, 3);
        assert!(finished);
        // One thread's depth-3 search of the start, as deterministic as the bench's.
        assert_eq!(nodes, 969);
        assert_eq!(solo, nodes);
        // Given a node, it stops at once, however deep its own search was to go.
        let (finished, nodes, solo) = searching_alone(true, 30);
        assert!(!finished);
        assert!(nodes <= 2, "{nodes} nodes");
        assert_eq!(solo, nodes);
    }

    #[test]
    fn an_owner_whose_helpers_left_for_a_cutoff_above_its_node_leaves_the_node_unfinished() {
        // A third thread failed high at `outer`: a helper of `own` may have left its move there
        // unsearched, so `own`'s result is not a result, and the thread unwinds to `outer`.
        after_waiting(&[true, false], false, |w| {
            assert!(w.aborted);
            w.close_split(split_id(0, 0));
            assert!(w.aborted);
        });
    }

    /// Thread 0 owns the node `own`, below thread 1's node `outer`, which a third thread has
    /// cut off: thread 0 has stopped searching and waits for its helpers. Thread 1, helping at
    /// `own`, shares a node of its own below it, and thread 0 joins it while it waits.
    #[test]
    fn a_waiting_owner_whose_line_was_cut_off_takes_no_move_from_the_node_it_joins() {
        owning_below(&[true, false], false, |pool, worker| {
            let below = split_id(1, 1);
            pool.open(below, Some(split_id(0, 0)));
            worker.aborted = true;
            // The node thread 1 shares: the start position's moves, at the root for simplicity.
            let mut moves = Vec::new();
            worker.game.generate_moves(&mut moves);
            {
                let mut st = pool.split(below).lock();
                st.moves.extend(moves.iter().enumerate().map(|(number, &mv)| Pick { mv, number, quiet: false }));
                st.spent.resize(moves.len(), 0);
                (st.ply, st.depth, st.beta, st.alpha) = (0, 2, 100, -100);
                st.danger.push(false);
                st.extended.push(false);
            }
            worker.join(below, 0);
            // Each move taken must be searched to the end: thread 0, its work moot, left them
            // all to thread 1, whose node is moot too (it lies below `outer`), and knows it.
            assert_eq!(pool.split(below).lock().next, 0);
            assert!(pool.cut_off(Some(below)));
            assert!(worker.aborted);
        });
    }

    #[test]
    fn an_owner_whose_node_failed_high_stops_when_a_thread_died() {
        // The dead thread may still be named among the node's helpers, or hold another of the
        // owner's split points: the owner must not go on and reuse them.
        after_waiting(&[false, true], true, |w| {
            w.close_split(split_id(0, 0));
            assert!(w.aborted);
        });
    }

    #[test]
    fn an_owner_whose_node_failed_high_goes_on_with_its_result() {
        after_waiting(&[false, true], false, |w| {
            w.close_split(split_id(0, 0));
            assert!(!w.aborted);
        });
        after_waiting(&[false, false], false, |w| assert!(!w.aborted));
    }
}
