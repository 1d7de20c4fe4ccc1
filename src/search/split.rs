//! Sharing one node's moves among threads (young brothers wait): a thread that has searched a
//! node's first move without a cutoff may hand the node's other moves to idle threads, which
//! take them one at a time against a shared alpha until they run out or one fails high.
//!
//! Every thread owns a few split points (one per node it has split and not yet finished,
//! nested along its line); an idle thread is given one to join. The owner of a split point,
//! once its moves are taken, waits for its helpers and meanwhile may join a split point of one
//! of them (a "helpful master"), so that no thread idles while a helper's subtree is searched.
//! A helper with nothing to join searches the root on its own, one ply deeper than the main
//! thread, sharing only the table, and drops that search as soon as it is given a node.

use super::ordering::CutoffLog;
use super::picker::Pick;
use super::MAX_PLY;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// How the threads of one search shared its nodes, summed over the threads (all zero with one
/// thread): what two threads spend beyond the nodes one would search. Logged at debug level
/// after every search with helpers (see the README, "Threads").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SharingStats {
    /// Nodes whose remaining moves were shared.
    pub splits: u64,
    /// Of them, those where a shared move failed high (the others' work there was speculative).
    pub splits_cut: u64,
    /// Shared moves searched, by every thread.
    pub moves: u64,
    /// Of them, those searched by a thread other than the node's owner.
    pub moves_helped: u64,
    /// Nodes spent on shared moves that a fail-high at the node they were shared from made
    /// moot: stopped in the middle, or finished though they come after the refuting move in
    /// the node's order (one thread alone would not have searched them).
    pub moot_nodes: u64,
    /// Time the threads waited for work: helpers idle, and owners waiting for their helpers'
    /// last moves.
    pub idle: Duration,
    /// Nodes helpers searched on their own, from the root one ply deeper than the main
    /// thread, while no node was open to join (see `Worker::help`).
    pub solo_nodes: u64,
}

impl std::ops::AddAssign for SharingStats {
    fn add_assign(&mut self, other: SharingStats) {
        self.splits += other.splits;
        self.splits_cut += other.splits_cut;
        self.moves += other.moves;
        self.moves_helped += other.moves_helped;
        self.moot_nodes += other.moot_nodes;
        self.idle += other.idle;
        self.solo_nodes += other.solo_nodes;
    }
}

/// Most split points one thread owns at once (nested along its line); a node deeper than this
/// many splits is searched by its thread alone.
pub(crate) const MAX_SPLITS: usize = 8;

/// Most helper threads: a split point names its helpers by thread number (the main thread is
/// 0) in a 64-bit set.
pub(crate) const MAX_HELPERS: usize = 63;

/// Shallowest depth left at which a node shares its moves: below it a subtree is too small to
/// pay for a thread's joining.
pub(crate) const MIN_SPLIT_DEPTH: i32 = 2;

/// No split point: an empty assignment.
const NONE: usize = usize::MAX;

/// The name of thread `owner`'s split point number `slot`.
#[inline]
pub(crate) fn split_id(owner: usize, slot: usize) -> SplitId {
    owner * MAX_SPLITS + slot
}

/// The thread that owns split point `id` (see [`split_id`]).
#[inline]
pub(crate) fn owner(id: SplitId) -> usize {
    id / MAX_SPLITS
}

/// Which of its owner's split points `id` is (see [`split_id`]).
#[inline]
fn slot(id: SplitId) -> usize {
    id % MAX_SPLITS
}

/// A stored split point name, `NONE` read as none.
#[inline]
fn named(id: usize) -> Option<SplitId> {
    Some(id).filter(|&id| id != NONE)
}

/// A node whose remaining moves several threads share.
pub(crate) struct SplitPoint<M> {
    /// Raised when a move fails high: the other threads stop searching the node's moves.
    pub cutoff: AtomicBool,
    /// The split point the node lies below (the owner's innermost when it split), or `NONE`:
    /// a cutoff there makes this node's work moot too, though its helpers never joined it.
    parent: AtomicUsize,
    /// The threads working here besides the owner, as a bit set (bit `id`).
    pub helpers: AtomicU64,
    pub state: Mutex<SplitState<M>>,
}

/// The node and its search so far, guarded by the split point's lock.
pub(crate) struct SplitState<M> {
    /// The moves from the root to the node, ply by ply.
    pub path: Vec<M>,
    /// Whether the side to move was in danger at every ply up to the node (the hashes and
    /// moves a helper learns by playing the path).
    pub danger: Vec<bool>,
    /// Whether the line was extended at every ply up to the node.
    pub extended: Vec<bool>,
    pub ply: usize,
    pub depth: i32,
    pub beta: i32,
    /// A principal-variation node (its children's lines are kept).
    pub pv_node: bool,
    /// The moves not yet searched, in order; `next` is the first one not handed out.
    pub moves: Vec<Pick<M>>,
    pub next: usize,
    /// The window's lower bound, raised by every move that beats it.
    pub alpha: i32,
    pub best_score: i32,
    pub best_move: Option<M>,
    /// The best line from the node when it beat alpha (principal-variation nodes).
    pub pv: Vec<M>,
    /// Where in `moves` the move that failed high is, once one has: the owner learns it as
    /// the refutation of its node.
    pub refutation: Option<usize>,
    /// The quiet cutoffs the helpers met in the node's subtrees, for the owner's tables.
    pub learned: CutoffLog,
    /// Nodes spent on each of `moves` searched to the end (for [`SharingStats::moot_nodes`]).
    pub spent: Vec<u64>,
}

impl<M> SplitPoint<M> {
    fn new() -> SplitPoint<M> {
        SplitPoint {
            cutoff: AtomicBool::new(false),
            parent: AtomicUsize::new(NONE),
            helpers: AtomicU64::new(0),
            state: Mutex::new(SplitState {
                path: Vec::with_capacity(MAX_PLY + 1),
                danger: Vec::with_capacity(MAX_PLY + 2),
                extended: Vec::with_capacity(MAX_PLY + 2),
                ply: 0,
                depth: 0,
                beta: 0,
                pv_node: false,
                moves: Vec::with_capacity(256),
                next: 0,
                alpha: 0,
                best_score: 0,
                best_move: None,
                pv: Vec::with_capacity(MAX_PLY + 1),
                refutation: None,
                learned: CutoffLog::new(),
                spent: Vec::with_capacity(256),
            }),
        }
    }

    /// The state, even if a thread panicked holding the lock (its data is whole: every write
    /// under the lock is a plain store).
    pub fn lock(&self) -> MutexGuard<'_, SplitState<M>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One thread's place in the pool.
struct Seat<M> {
    /// The thread waits for work (an idle helper, or an owner waiting for its helpers).
    idle: AtomicBool,
    /// A split point given to the thread to join, or `NONE`.
    assigned: AtomicUsize,
    /// The split point whose helpers the thread waits for, or `NONE`.
    waiting_at: AtomicUsize,
    splits: Vec<SplitPoint<M>>,
}

/// The threads of one search and their split points.
pub(crate) struct Pool<M> {
    /// Serialises handing out work: who is idle, who is given what.
    lock: Mutex<()>,
    /// How many threads are idle (a quick test before trying to split).
    idle_count: AtomicUsize,
    /// A thread panicked in the middle of shared work: nobody waits for it any longer.
    broken: AtomicBool,
    /// The depth of the main thread's iteration under way (0 before its first): an idle
    /// helper searches one ply deeper on its own.
    iteration: AtomicI32,
    seats: Vec<Seat<M>>,
}

/// A split point's name: its owner and its place among the owner's.
pub(crate) type SplitId = usize;

impl<M> Pool<M> {
    /// A pool for `threads` threads (at most 64), none idle yet.
    pub fn new(threads: usize) -> Pool<M> {
        let threads = threads.clamp(1, 64);
        let seats = (0..threads)
            .map(|_| Seat {
                idle: AtomicBool::new(false),
                assigned: AtomicUsize::new(NONE),
                waiting_at: AtomicUsize::new(NONE),
                // Only threads that can be helped need split points: with one thread none.
                splits: if threads > 1 { (0..MAX_SPLITS).map(|_| SplitPoint::new()).collect() } else { Vec::new() },
            })
            .collect();
        Pool {
            lock: Mutex::new(()),
            idle_count: AtomicUsize::new(0),
            broken: AtomicBool::new(false),
            iteration: AtomicI32::new(0),
            seats,
        }
    }

    /// The main thread starts its iteration of `depth`.
    pub fn start_iteration(&self, depth: i32) {
        self.iteration.store(depth, Ordering::Relaxed);
    }

    /// The depth of the main thread's iteration under way (0 before its first).
    pub fn iteration(&self) -> i32 {
        self.iteration.load(Ordering::Relaxed)
    }

    /// A thread died with work unfinished: owners stop waiting for their helpers (the search
    /// is being stopped and its unfinished iteration thrown away).
    pub fn break_down(&self) {
        self.broken.store(true, Ordering::Release);
    }

    /// Whether a thread died with work unfinished.
    pub fn is_broken(&self) -> bool {
        self.broken.load(Ordering::Acquire)
    }

    /// Whether another thread might take work now (a hint: the pool's lock decides).
    #[inline]
    pub fn has_idle(&self) -> bool {
        self.idle_count.load(Ordering::Relaxed) > 0
    }

    /// The split point `id`.
    pub fn split(&self, id: SplitId) -> &SplitPoint<M> {
        &self.seats[owner(id)].splits[slot(id)]
    }

    /// Opens split point `id` for a node below the split point `parent` (none at the top of
    /// the owner's line): not cut off yet. Called by its owner before it recruits helpers.
    pub fn open(&self, id: SplitId, parent: Option<SplitId>) {
        let sp = self.split(id);
        sp.cutoff.store(false, Ordering::Relaxed);
        sp.parent.store(parent.unwrap_or(NONE), Ordering::Relaxed);
    }

    /// The split point that split point `id`'s node lies below, if any.
    pub fn parent(&self, id: SplitId) -> Option<SplitId> {
        named(self.split(id).parent.load(Ordering::Relaxed))
    }

    /// Whether split point `id` or one that its node lies below has been cut off: work below
    /// it is moot, whichever of them the thread doing it has joined. (A helper joins one split
    /// point, not the owner's line above it, so it must look up the whole line.)
    #[inline]
    pub fn cut_off(&self, id: Option<SplitId>) -> bool {
        let mut at = id;
        while let Some(id) = at {
            let sp = self.split(id);
            if sp.cutoff.load(Ordering::Relaxed) {
                return true;
            }
            at = named(sp.parent.load(Ordering::Relaxed));
        }
        false
    }

    fn guard(&self) -> MutexGuard<'_, ()> {
        self.lock.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Gives the split point `id`, owned by thread `owner`, to every idle thread that may help
    /// it. Returns how many were given it.
    pub fn recruit(&self, owner: usize, id: SplitId) -> usize {
        let _g = self.guard();
        let sp = self.split(id);
        let mut given = 0;
        for (t, seat) in self.seats.iter().enumerate() {
            if t == owner || !seat.idle.load(Ordering::Relaxed) || !self.may_help(t, owner) {
                continue;
            }
            seat.idle.store(false, Ordering::Relaxed);
            self.idle_count.fetch_sub(1, Ordering::Relaxed);
            sp.helpers.fetch_or(1 << t, Ordering::AcqRel);
            seat.assigned.store(id, Ordering::Release);
            given += 1;
        }
        given
    }

    /// Whether idle thread `t` may help thread `owner`: a thread waiting for the helpers of its
    /// own split point may only help them (its line is theirs up to that point, and it must
    /// be free when they finish).
    fn may_help(&self, t: usize, owner: usize) -> bool {
        match self.seats[t].waiting_at.load(Ordering::Relaxed) {
            NONE => true,
            at => self.split(at).helpers.load(Ordering::Acquire) & (1 << owner) != 0,
        }
    }

    /// Thread `t` waits for work (after finishing a split point's moves, or from the start).
    pub fn become_idle(&self, t: usize) {
        let _g = self.guard();
        if !self.seats[t].idle.swap(true, Ordering::Relaxed) {
            self.idle_count.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Thread `t` has left the split point `id` it helped: it is no longer one of its helpers,
    /// and idle.
    pub fn leave(&self, t: usize, id: SplitId) {
        let _g = self.guard();
        self.split(id).helpers.fetch_and(!(1 << t), Ordering::AcqRel);
        if !self.seats[t].idle.swap(true, Ordering::Relaxed) {
            self.idle_count.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Whether a split point has been given to thread `t` (a thread searching on its own
    /// stops for it).
    #[inline]
    pub fn has_assignment(&self, t: usize) -> bool {
        self.seats[t].assigned.load(Ordering::Relaxed) != NONE
    }

    /// The split point given to thread `t`, if any (taken: it is given once).
    #[inline]
    pub fn take_assignment(&self, t: usize) -> Option<SplitId> {
        let seat = &self.seats[t];
        if seat.assigned.load(Ordering::Relaxed) == NONE {
            return None;
        }
        named(seat.assigned.swap(NONE, Ordering::Acquire))
    }

    /// Owner `t` waits at its split point `id`: idle, and available to its helpers. Returns the
    /// split point it was already waiting at, if any: a waiting owner that joins a helper's
    /// node may split there and wait again, and afterwards still waits at the first.
    pub fn wait_at(&self, t: usize, id: SplitId) -> Option<SplitId> {
        let _g = self.guard();
        let outer = self.seats[t].waiting_at.swap(id, Ordering::Relaxed);
        if !self.seats[t].idle.swap(true, Ordering::Relaxed) {
            self.idle_count.fetch_add(1, Ordering::Relaxed);
        }
        named(outer)
    }

    /// Owner `t` stops waiting at its split point `id` if every helper has left and nothing has
    /// been given to it meanwhile; returns whether it stopped. It goes back to waiting at
    /// `outer` (what [`Pool::wait_at`] returned), busy with the node it joined from there.
    pub fn stop_waiting(&self, t: usize, id: SplitId, outer: Option<SplitId>) -> bool {
        let _g = self.guard();
        let seat = &self.seats[t];
        if self.split(id).helpers.load(Ordering::Acquire) != 0 || seat.assigned.load(Ordering::Acquire) != NONE {
            return false;
        }
        // Only the helpers of the node it still waits at may give it work: its game stands
        // below that node, and it joins their nodes from there.
        seat.waiting_at.store(outer.unwrap_or(NONE), Ordering::Relaxed);
        if seat.idle.swap(false, Ordering::Relaxed) {
            self.idle_count.fetch_sub(1, Ordering::Relaxed);
        }
        true
    }

    /// Thread `t` stops for good (the search is over): it is taken off the idle list, and work
    /// given to it meanwhile is handed back (its owner then stops waiting for it).
    pub fn retire(&self, t: usize) {
        let _g = self.guard();
        let seat = &self.seats[t];
        if seat.idle.swap(false, Ordering::Relaxed) {
            self.idle_count.fetch_sub(1, Ordering::Relaxed);
        }
        let work = seat.assigned.swap(NONE, Ordering::Acquire);
        if work != NONE {
            self.split(work).helpers.fetch_and(!(1 << t), Ordering::AcqRel);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type P = Pool<u32>;

    #[test]
    fn a_split_point_names_its_owner_and_its_slot() {
        let ids = [split_id(0, 7), split_id(3, 0), split_id(3, 5)];
        assert_eq!(ids.map(owner), [0, 3, 3]);
        assert_eq!(ids.map(slot), [7, 0, 5]);
    }

    #[test]
    fn the_pool_tells_helpers_the_main_threads_iteration_and_their_assignments() {
        let pool = P::new(2);
        assert_eq!(pool.iteration(), 0);
        pool.start_iteration(4);
        assert_eq!(pool.iteration(), 4);
        pool.become_idle(1);
        assert!(!pool.has_assignment(1));
        pool.recruit(0, split_id(0, 0));
        assert!(pool.has_assignment(1));
        assert_eq!(pool.take_assignment(1), Some(split_id(0, 0)));
        assert!(!pool.has_assignment(1));
    }

    #[test]
    fn idle_threads_are_given_a_split_point_once() {
        let pool = P::new(3);
        assert!(!pool.has_idle());
        pool.become_idle(1);
        pool.become_idle(2);
        assert!(pool.has_idle());
        let id = split_id(0, 0);
        assert_eq!(pool.recruit(0, id), 2);
        assert!(!pool.has_idle());
        assert_eq!(pool.split(id).helpers.load(Ordering::Relaxed), 0b110);
        assert_eq!(pool.take_assignment(1), Some(id));
        assert_eq!(pool.take_assignment(1), None);
        // Busy threads are given nothing more.
        assert_eq!(pool.recruit(0, split_id(0, 1)), 0);
        pool.leave(1, id);
        assert_eq!(pool.split(id).helpers.load(Ordering::Relaxed), 0b100);
        assert!(pool.has_idle());
    }

    /// Three threads, of which thread 0 has shared its node with thread 1, handed out its moves
    /// and waits for it: the pool and the node.
    fn owner_waiting_for_one_helper() -> (P, SplitId) {
        let pool = P::new(3);
        let first = split_id(0, 0);
        pool.become_idle(1);
        assert_eq!(pool.recruit(0, first), 1);
        assert_eq!(pool.take_assignment(1), Some(first));
        assert_eq!(pool.wait_at(0, first), None);
        (pool, first)
    }

    #[test]
    fn a_waiting_owner_helps_only_its_helpers() {
        let (pool, first) = owner_waiting_for_one_helper();
        assert!(!pool.stop_waiting(0, first, None));
        // Thread 2, no helper of thread 0's node, may not have it; thread 1 may.
        assert_eq!(pool.recruit(2, split_id(2, 0)), 0);
        let nested = split_id(1, 0);
        assert_eq!(pool.recruit(1, nested), 1);
        assert_eq!(pool.take_assignment(0), Some(nested));
        // Work given is done before waiting ends; then the helper leaves, and waiting ends.
        assert!(!pool.stop_waiting(0, first, None));
        pool.leave(0, nested);
        pool.leave(1, first);
        assert!(pool.stop_waiting(0, first, None));
        assert!(pool.has_idle()); // thread 1
        assert_eq!(pool.recruit(2, split_id(2, 0)), 1);
    }

    #[test]
    fn an_owner_that_waits_again_inside_a_joined_node_still_waits_at_its_own() {
        // Thread 0 waits at its node and joins thread 1's node below it.
        let (pool, first) = owner_waiting_for_one_helper();
        let below = split_id(1, 0);
        assert_eq!(pool.recruit(1, below), 1);
        assert_eq!(pool.take_assignment(0), Some(below));
        // There thread 0 shares a node of its own, with thread 1 (waiting at its node), and
        // waits for it.
        let nested = split_id(0, 1);
        pool.wait_at(1, below);
        assert_eq!(pool.recruit(0, nested), 1);
        assert_eq!(pool.take_assignment(1), Some(nested));
        assert_eq!(pool.wait_at(0, nested), Some(first));
        pool.leave(1, nested);
        assert!(pool.stop_waiting(0, nested, Some(first)));
        // Back in thread 1's node, then waiting at its own again: thread 2, working elsewhere,
        // may not give it work (its game stands at its own node), though it is idle.
        pool.leave(0, below);
        assert!(pool.has_idle());
        assert_eq!(pool.recruit(2, split_id(2, 0)), 0);
        // Thread 1 may.
        assert!(pool.stop_waiting(1, below, None));
        assert_eq!(pool.recruit(1, split_id(1, 1)), 1);
    }

    #[test]
    fn a_retired_thread_hands_back_its_work_and_is_given_no_more() {
        let pool = P::new(2);
        pool.become_idle(1);
        let id = split_id(0, 0);
        assert_eq!(pool.recruit(0, id), 1);
        pool.retire(1);
        assert_eq!(pool.split(id).helpers.load(Ordering::Relaxed), 0);
        assert_eq!(pool.take_assignment(1), None);
        assert_eq!(pool.recruit(0, split_id(0, 1)), 0);
        assert!(!pool.has_idle());
    }

    #[test]
    fn a_cutoff_reaches_every_split_point_below_it() {
        let pool = P::new(3);
        let (top, middle, bottom) = (split_id(0, 0), split_id(1, 0), split_id(0, 1));
        pool.open(top, None);
        pool.open(middle, Some(top));
        pool.open(bottom, Some(middle));
        assert_eq!([pool.parent(top), pool.parent(bottom)], [None, Some(middle)]);
        assert!(!pool.cut_off(Some(bottom)) && !pool.cut_off(None));
        pool.split(top).cutoff.store(true, Ordering::Relaxed);
        assert!(pool.cut_off(Some(bottom)) && pool.cut_off(Some(middle)));
        // A split point opened again starts uncut, on its new line.
        pool.open(top, None);
        assert!(!pool.cut_off(Some(bottom)));
        pool.split(middle).cutoff.store(true, Ordering::Relaxed);
        assert!(pool.cut_off(Some(bottom)) && !pool.cut_off(Some(top)));
    }

    #[test]
    fn one_thread_has_no_split_points_and_no_one_to_help() {
        let pool = P::new(1);
        assert!(pool.seats[0].splits.is_empty());
        assert!(!pool.has_idle());
    }
}
