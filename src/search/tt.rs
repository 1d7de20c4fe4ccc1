//! The transposition table: a lock-free hash table shared by all search threads.
//!
//! Every entry is two `AtomicU64`s: the packed data, and the position's key XORed with the data.
//! A reader accepts an entry only if the two words XOR back to its key, so an entry torn by two
//! threads writing at once reads as a miss instead of as wrong data (Hyatt's lockless scheme).
//! Entries are grouped four to a 64-byte bucket; replacement prefers keeping deep entries of the
//! current search over shallow or old ones.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Kind of bound a stored score is.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The exact score.
    Exact,
    /// The true score is at least this (a fail-high).
    Lower,
    /// The true score is at most this (a fail-low).
    Upper,
}

/// What a probe finds.
#[derive(Copy, Clone, Debug)]
pub struct TtEntry {
    /// The best move's code (0: none).
    pub move_code: u32,
    /// The score, relative to the node (mate distances already adjusted to the probing ply).
    pub score: i32,
    /// The depth the score was searched to.
    pub depth: i32,
    /// What kind of bound the score is.
    pub bound: Bound,
}

const BUCKET: usize = 4;

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// Score magnitude above which a score means a forced win or loss (see [`super::MATE`]).
const MATE_BOUND: i32 = super::MATE - 1000;

/// The shared table. Its size is fixed until [`TranspositionTable::resize`].
pub struct TranspositionTable {
    slots: Box<[Slot]>,
    buckets: usize,
    generation: AtomicU64,
    /// Whether anything was stored since the last clear (clearing an unused table would make
    /// all of its pages resident for nothing).
    dirty: AtomicBool,
}

/// `n` zeroed slots, allocated zeroed so that the operating system provides pages lazily.
fn zeroed_slots(n: usize) -> Box<[Slot]> {
    if n == 0 {
        return Box::new([]);
    }
    let layout = std::alloc::Layout::array::<Slot>(n).expect("table size fits in memory");
    // SAFETY: the layout is non-zero-sized; a Slot is two AtomicU64, for which all-zero bytes
    // are the valid value 0, so the zeroed allocation is n initialised Slots, owned by the Box.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut Slot;
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, n))
    }
}

fn pack(move_code: u32, score: i32, depth: i32, bound: Bound, generation: u64) -> u64 {
    let bound = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    (move_code as u64 & 0xFF_FFFF)
        | ((score as i16 as u16 as u64) << 24)
        | ((depth.clamp(0, 255) as u64) << 40)
        | (bound << 48)
        | ((generation & 63) << 50)
}

fn unpack(data: u64) -> Option<(TtEntry, u64)> {
    let bound = match (data >> 48) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some((
        TtEntry {
            move_code: (data & 0xFF_FFFF) as u32,
            score: ((data >> 24) & 0xFFFF) as u16 as i16 as i32,
            depth: ((data >> 40) & 0xFF) as i32,
            bound,
        },
        (data >> 50) & 63,
    ))
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one bucket). The memory is zeroed by the
    /// allocator, so pages become resident only as the search touches them.
    pub fn new(megabytes: usize) -> TranspositionTable {
        let buckets = (megabytes.max(1) << 20) / (BUCKET * std::mem::size_of::<Slot>());
        TranspositionTable {
            slots: zeroed_slots(buckets * BUCKET),
            buckets,
            generation: AtomicU64::new(0),
            dirty: AtomicBool::new(false),
        }
    }

    /// Size in MiB.
    pub fn megabytes(&self) -> usize {
        (self.slots.len() * std::mem::size_of::<Slot>()) >> 20
    }

    /// Reallocates to a new size (dropping the old table first, so memory does not double).
    pub fn resize(&mut self, megabytes: usize) {
        if megabytes != self.megabytes() {
            self.slots = Box::new([]);
            *self = TranspositionTable::new(megabytes);
        }
    }

    /// Forgets everything, keeping the allocation.
    pub fn clear(&mut self) {
        if !*self.dirty.get_mut() {
            return;
        }
        *self.dirty.get_mut() = false;
        for s in self.slots.iter_mut() {
            *s.check.get_mut() = 0;
            *s.data.get_mut() = 0;
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto any bucket count without a modulo.
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET
    }

    /// Prefetch hint: nothing to do portably; kept for call-site symmetry.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        let b = self.bucket(key);
        for slot in &self.slots[b..b + BUCKET] {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == key {
                let (mut e, _) = unpack(data)?;
                e.score = score_from_tt(e.score, ply);
                return Some(e);
            }
        }
        None
    }

    /// Stores a search result for `key` found at `ply` from the root.
    #[inline]
    pub fn store(&self, key: u64, ply: usize, move_code: u32, score: i32, depth: i32, bound: Bound) {
        if !self.dirty.load(Ordering::Relaxed) {
            self.dirty.store(true, Ordering::Relaxed);
        }
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let b = self.bucket(key);
        let bucket = &self.slots[b..b + BUCKET];
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == key {
                // Same position: keep a deeper exact result of this search unless this one is as deep.
                if let Some((old, old_gen)) = unpack(data) {
                    let keep_move = if move_code == 0 { old.move_code } else { move_code };
                    if old_gen == generation && old.depth > depth + 2 && bound != Bound::Exact {
                        return;
                    }
                    let new = pack(keep_move, score_to_tt(score, ply), depth, bound, generation);
                    slot.data.store(new, Ordering::Relaxed);
                    slot.check.store(key ^ new, Ordering::Relaxed);
                    return;
                }
                victim = i;
                break;
            }
            let worth = match unpack(data) {
                None => i32::MIN,
                Some((e, g)) => {
                    let age = ((generation + 64 - g) & 63) as i32;
                    e.depth - 8 * age
                }
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let new = pack(move_code, score_to_tt(score, ply), depth, bound, generation);
        bucket[victim].data.store(new, Ordering::Relaxed);
        bucket[victim].check.store(key ^ new, Ordering::Relaxed);
    }

    /// Permille of the first thousand slots used by this search (for reports).
    pub fn hashfull(&self) -> usize {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        self.slots
            .iter()
            .take(1000)
            .filter(|s| unpack(s.data.load(Ordering::Relaxed)).is_some_and(|(_, g)| g == generation))
            .count()
    }
}

/// Mate scores are stored relative to the node, not the root, so they stay right wherever the
/// position is met again.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        assert!(tt.probe(42, 0).is_none());
        tt.store(42, 0, 7, -123, 5, Bound::Lower);
        let e = tt.probe(42, 0).unwrap();
        assert_eq!((e.move_code, e.score, e.depth, e.bound), (7, -123, 5, Bound::Lower));
        // A mate found 3 plies below the root is 2 plies below a node at ply 1.
        tt.store(99, 3, 1, super::super::MATE - 10, 4, Bound::Exact);
        assert_eq!(tt.probe(99, 1).unwrap().score, super::super::MATE - 8);
    }

    #[test]
    fn torn_entries_read_as_misses() {
        let tt = TranspositionTable::new(1);
        tt.store(5, 0, 1, 10, 3, Bound::Exact);
        let b = tt.bucket(5);
        let slot = tt.slots[b..b + BUCKET].iter().find(|s| s.data.load(Ordering::Relaxed) != 0).unwrap();
        slot.data.store(slot.data.load(Ordering::Relaxed) ^ 1, Ordering::Relaxed);
        assert!(tt.probe(5, 0).is_none());
    }

    #[test]
    fn clear_keeps_size() {
        let mut tt = TranspositionTable::new(2);
        tt.store(1, 0, 1, 1, 1, Bound::Exact);
        tt.clear();
        assert!(tt.probe(1, 0).is_none());
        assert_eq!(tt.megabytes(), 2);
    }
}
