//! Moves in progress: a small table the threads of one search share, in which each thread marks
//! the moves it is searching, so that another thread reaching the same move from the same
//! position searches that node's other moves first and comes back to it last (Kerrigan's
//! simplified ABDADA).
//!
//! Lazy SMP alone lets two threads walk the same tree in the same order, each doing what the
//! other has just done, and share only what the table keeps. Deferring a move another thread
//! is searching splits the node's moves between them instead; when the deferred move's turn
//! comes at last, the other thread has usually finished it, and its result waits in the
//! transposition table.
//!
//! A mark is a 64-bit key of the position and the move, in one of a fixed number of atomic
//! slots. Two marks landing in one slot overwrite each other: a move then goes unmarked (both
//! threads search it, as without the table) or, if another key lands on its slot, a move's mark
//! is wiped by a thread that did not set it (the same). Neither changes a score, only which
//! thread searches what first.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots in the table: far more than the nodes deep enough to mark (see
/// [`Parameters::defer_min_depth`](super::Parameters::defer_min_depth)) that a few threads can
/// have open at once, and small enough (256 KiB) to stay in the cache.
const SLOTS: usize = 1 << 15;

/// The moves that threads of one search are searching now.
pub(crate) struct Busy {
    slots: Box<[AtomicU64]>,
}

impl Busy {
    /// An empty table.
    pub fn new() -> Busy {
        Busy { slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect() }
    }

    /// The key of the move with code `move_code` from the position with hash `hash`.
    #[inline]
    pub fn key(hash: u64, move_code: u32) -> u64 {
        // An odd multiplier spreads the code's bits over the whole word; the position's hash is
        // random already. A key of 0 would read as an empty slot: the odds are 2^-64.
        hash ^ u64::from(move_code).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key >> (64 - SLOTS.trailing_zeros())) as usize]
    }

    /// Whether some thread is searching the move with this key.
    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks the move with this key as being searched.
    #[inline]
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Clears the mark of the move with this key, unless another key has taken its slot since.
    #[inline]
    pub fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_busy_from_enter_to_leave() {
        let busy = Busy::new();
        let key = Busy::key(0x1234_5678_9abc_def0, 77);
        assert!(!busy.contains(key));
        busy.enter(key);
        assert!(busy.contains(key));
        assert!(!busy.contains(Busy::key(0x1234_5678_9abc_def0, 78)));
        busy.leave(key);
        assert!(!busy.contains(key));
    }

    #[test]
    fn leaving_does_not_clear_another_key_in_the_same_slot() {
        let busy = Busy::new();
        let a = 5u64 << 60;
        let b = a | 1; // same top bits: the same slot
        busy.enter(a);
        busy.enter(b);
        busy.leave(a);
        assert!(busy.contains(b));
        assert!(!busy.contains(a));
    }
}
