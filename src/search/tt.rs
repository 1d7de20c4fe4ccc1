//! The transposition table: a lock-free hash table shared by all search threads.
//!
//! Every entry is two `AtomicU64`s: the packed data, and the position's key XORed with the data.
//! A reader accepts an entry only if the two words XOR back to its key, so an entry torn by two
//! threads writing at once reads as a miss instead of as wrong data (Hyatt's lockless scheme).
//! Entries are grouped four to a 64-byte bucket; replacement prefers keeping deep entries of the
//! current search over shallow or old ones.
//!
//! A new game forgets everything without touching memory (clearing gigabytes takes seconds):
//! every entry carries the number of the game that stored it, its low 8 bits in the data word
//! and all of it through a salt XORed into the check word. An entry of an earlier game reads
//! as an empty slot, so each game sees the table exactly as if it had been cleared; the salt
//! makes an entry from 256 games ago fail the check instead of passing for this game's.
//!
//! On Linux the table asks for 2 MiB pages (see `advise_huge_pages`): probes land on random
//! buckets, which small pages turn into a TLB miss each. An engine that will search makes the
//! pages resident ahead of it in a background thread (`make_resident`).

use std::alloc::Layout;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

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

/// Where the game number's low bits sit in the data word (above the generation).
const GAME_SHIFT: u32 = 56;

/// Score magnitude above which a score means a forced win or loss (see [`super::MATE`]).
const MATE_BOUND: i32 = super::MATE - 1000;

/// The shared table. Its size is fixed until [`TranspositionTable::resize`].
pub struct TranspositionTable {
    /// The allocation: the table's `buckets * BUCKET` slots from `first` on, and the padding that
    /// lets them start on an aligned address.
    slots: Allocation,
    /// Index of the table's first slot in `slots` (see [`table_alignment`]).
    first: usize,
    buckets: usize,
    /// Searches started in this game (entries are aged by its low 6 bits).
    generation: AtomicU64,
    /// Games started since the table was allocated.
    game: u64,
    /// XORed into every check word of this game.
    salt: u64,
    /// The thread making the pages resident, if [`TranspositionTable::make_resident`] started one.
    toucher: Option<Toucher>,
}

/// A thread touching the table's pages ahead of the search, and how to stop it.
struct Toucher {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// The table's slots as a thread that does not own them sees them.
struct SlotsRef {
    start: *const Slot,
    len: usize,
}

// SAFETY: the slots are atomics, which any thread may touch; the table that owns them stops and
// joins the thread holding this before it frees them (see `Drop for TranspositionTable`).
unsafe impl Send for SlotsRef {}

/// A table size the machine cannot provide, in MiB.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TableTooLarge(pub usize);

/// Where a table of `bytes` bytes starts: on a 2 MiB boundary when it is at least that large,
/// so that huge pages can back all of it, else on a cache line, so that a 64-byte bucket is one
/// line and a probe one miss. The allocator only promises 16 bytes (a large block sits 16 bytes
/// past a page boundary), and asking it for more alignment would zero the memory eagerly.
fn table_alignment(bytes: usize) -> usize {
    if bytes >= HUGE_PAGE {
        HUGE_PAGE
    } else {
        64
    }
}

/// Zeroed slots owned through a raw pointer. A `Box` would claim them as its own alone while the
/// table's toucher thread (see [`TranspositionTable::make_resident`]) writes to them.
struct Allocation {
    start: NonNull<Slot>,
    len: usize,
}

// SAFETY: the slots are atomics, made to be shared between threads; the allocation is freed
// only by its drop.
unsafe impl Send for Allocation {}
unsafe impl Sync for Allocation {}

impl Allocation {
    /// `n` zeroed slots, allocated zeroed so that the operating system provides pages lazily,
    /// or `None` if the machine cannot provide them.
    fn zeroed(n: usize) -> Option<Allocation> {
        if n == 0 {
            return Some(Allocation { start: NonNull::dangling(), len: 0 });
        }
        let layout = Layout::array::<Slot>(n).ok()?;
        // SAFETY: the layout is not zero-sized.
        let start = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) } as *mut Slot)?;
        Some(Allocation { start, len: n })
    }
}

impl std::ops::Deref for Allocation {
    type Target = [Slot];

    fn deref(&self) -> &[Slot] {
        // SAFETY: `start` holds `len` slots until the drop. A Slot is two AtomicU64, for which
        // all-zero bytes are the valid value 0, so the zeroed memory is initialised slots.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

impl Drop for Allocation {
    fn drop(&mut self) {
        if self.len > 0 {
            // SAFETY: allocated in `zeroed` with this layout, freed only here.
            unsafe { std::alloc::dealloc(self.start.as_ptr() as *mut u8, Layout::array::<Slot>(self.len).unwrap()) }
        }
    }
}

/// Size of a transparent huge page on x86-64 and most Linux systems.
const HUGE_PAGE: usize = 2 << 20;

/// Size of a small page on x86-64 and most systems.
const PAGE: usize = 4096;

/// Asks Linux to back the slots with 2 MiB pages. A probe lands on a random bucket, so with
/// 4 KiB pages nearly every probe misses the TLB; huge pages cover the table with 512 times fewer
/// entries. The table starts on a 2 MiB boundary (see [`table_alignment`]), so only a table
/// whose size is not a whole number of huge pages keeps a small-page tail. Pages become resident
/// at their first touch, by a search or beforehand by [`TranspositionTable::make_resident`]'s
/// thread (taking them all at once cost 0.1 to 4 s a GiB on a virtual machine, where a fresh
/// page is slow to come by, so no caller waits for it). The advice is only advice: without
/// transparent huge pages nothing changes.
#[cfg(target_os = "linux")]
fn advise_huge_pages(slots: &[Slot]) {
    let base = slots.as_ptr() as usize;
    let start = base.next_multiple_of(HUGE_PAGE);
    let end = (base + std::mem::size_of_val(slots)) / HUGE_PAGE * HUGE_PAGE;
    if end <= start {
        return;
    }
    // SAFETY: [start, end) lies inside the live allocation of `slots`; MADV_HUGEPAGE changes
    // how its pages are backed, never their contents.
    if unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) } != 0 {
        log::debug!("no huge pages for the transposition table: {}", std::io::Error::last_os_error());
    }
}

/// Elsewhere the table keeps the system's page size.
#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_slots: &[Slot]) {}

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
    /// A table of about `megabytes` MiB (at least one bucket), or, if the machine cannot provide
    /// that, of the largest half, quarter, … of it that it can.
    pub fn new(megabytes: usize) -> TranspositionTable {
        let mut size = megabytes.max(1);
        loop {
            if let Some(table) = TranspositionTable::try_new(size) {
                if size != megabytes.max(1) {
                    log::warn!("no memory for a {megabytes} MB transposition table: using {size} MB");
                }
                return table;
            }
            assert!(size > 1, "no memory for a 1 MB transposition table");
            size /= 2;
        }
    }

    /// A table of about `megabytes` MiB (at least one bucket), or `None` if the machine cannot
    /// provide it. The memory is zeroed by the allocator, so pages become resident only as they
    /// are first touched (see [`TranspositionTable::make_resident`]).
    pub fn try_new(megabytes: usize) -> Option<TranspositionTable> {
        let bytes = megabytes.max(1).checked_mul(1 << 20)?;
        let slot_size = std::mem::size_of::<Slot>();
        let buckets = bytes / (BUCKET * slot_size);
        let align = table_alignment(buckets * BUCKET * slot_size);
        // Padding pages are never touched, so they cost address space, not memory.
        let slots = Allocation::zeroed((buckets * BUCKET).checked_add(align / slot_size)?)?;
        let first = (slots.as_ptr() as usize).next_multiple_of(align) - slots.as_ptr() as usize;
        let table = TranspositionTable {
            slots,
            first: first.div_ceil(slot_size),
            buckets,
            generation: AtomicU64::new(0),
            game: 0,
            salt: 0,
            toucher: None,
        };
        advise_huge_pages(table.table());
        Some(table)
    }

    /// Starts a thread that makes every page of the table resident, so that searches do not
    /// pay for first touches. A fresh page costs the kernel a zeroing (on a virtual machine
    /// often a trip to the host as well): a new process's first search spent 7 to 80 ms of its
    /// depth 2 on them with the default 64 MiB. The thread runs while the engine waits for its
    /// first command, or beside a search that has a core to spare; it never changes an entry,
    /// and stops when the table is dropped or resized. Does nothing the second time, or when
    /// the system refuses a thread.
    pub fn make_resident(&mut self) {
        if self.toucher.is_some() {
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let table = self.table();
        let slots = SlotsRef { start: table.as_ptr(), len: table.len() };
        let thread_stop = Arc::clone(&stop);
        let spawned = std::thread::Builder::new().name("table".into()).spawn(move || {
            let slots = slots;
            // SAFETY: see `SlotsRef`: the slots outlive this thread.
            let table = unsafe { std::slice::from_raw_parts(slots.start, slots.len) };
            let started = std::time::Instant::now();
            let pages = touch_pages(table, &thread_stop);
            let all = table.len().div_ceil(PAGE / std::mem::size_of::<Slot>());
            log::debug!("{pages} of {all} pages of the table made resident in {:?}", started.elapsed());
        });
        match spawned {
            Ok(handle) => self.toucher = Some(Toucher { stop, handle }),
            Err(e) => log::debug!("the table's pages stay lazy: {e}"),
        }
    }

    /// The table's slots (the allocation without its padding).
    fn table(&self) -> &[Slot] {
        &self.slots[self.first..self.first + self.buckets * BUCKET]
    }

    /// Size in MiB.
    pub fn megabytes(&self) -> usize {
        (self.buckets * BUCKET * std::mem::size_of::<Slot>()) >> 20
    }

    /// Reallocates to a new, empty table of `megabytes` MiB, made resident as the old one was
    /// (see [`TranspositionTable::make_resident`]). A size the machine cannot provide keeps the
    /// old table as it is. (Both exist for a moment, but the new one's pages are not resident
    /// yet.)
    pub fn resize(&mut self, megabytes: usize) -> Result<(), TableTooLarge> {
        if megabytes != self.megabytes() {
            let resident = self.toucher.is_some();
            *self = TranspositionTable::try_new(megabytes).ok_or(TableTooLarge(megabytes))?;
            if resident {
                self.make_resident();
            }
        }
        Ok(())
    }

    /// Starts a new game: forgets everything, in constant time and without touching the memory.
    pub fn new_game(&mut self) {
        self.game = self.game.wrapping_add(1);
        // Any odd multiplier gives every game its own salt, and game 0 (fresh, zeroed memory) none.
        self.salt = self.game.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        *self.generation.get_mut() = 0;
    }

    /// A slot's check word (unsalted) and data word. A slot of an earlier game reads as an empty
    /// one, all zero, as it would after clearing the table.
    #[inline]
    fn load(&self, slot: &Slot) -> (u64, u64) {
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        if data >> GAME_SHIFT == self.game & 0xFF {
            (check ^ self.salt, data)
        } else {
            (0, 0)
        }
    }

    /// Writes an entry of this game.
    #[inline]
    fn write(&self, slot: &Slot, key: u64, data: u64) {
        let data = data | (self.game << GAME_SHIFT);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data ^ self.salt, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto any bucket count without a modulo.
        self.first + (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET
    }

    /// The entry stored for `key`, its score adjusted to a node at `ply` from the root.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        let b = self.bucket(key);
        for slot in &self.slots[b..b + BUCKET] {
            let (check, data) = self.load(slot);
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
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let b = self.bucket(key);
        let bucket = &self.slots[b..b + BUCKET];
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let (check, data) = self.load(slot);
            if check ^ data == key {
                // Same position: keep a deeper exact result of this search unless this one is as deep.
                if let Some((old, old_gen)) = unpack(data) {
                    let keep_move = if move_code == 0 { old.move_code } else { move_code };
                    if old_gen == generation && old.depth > depth + 2 && bound != Bound::Exact {
                        return;
                    }
                    self.write(slot, key, pack(keep_move, score_to_tt(score, ply), depth, bound, generation));
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
        self.write(&bucket[victim], key, pack(move_code, score_to_tt(score, ply), depth, bound, generation));
    }

    /// How many of the first thousand slots this search has used (what the tests read).
    #[cfg(test)]
    fn hashfull(&self) -> usize {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        self.table().iter().take(1000).filter(|s| unpack(self.load(s).1).is_some_and(|(_, g)| g == generation)).count()
    }
}

impl Drop for TranspositionTable {
    fn drop(&mut self) {
        // The toucher reads the slots: it must be done before they are freed.
        if let Some(toucher) = self.toucher.take() {
            toucher.stop.store(true, Ordering::Relaxed);
            let _ = toucher.handle.join();
        }
    }
}

/// Writes to one slot in every 4 KiB of `slots` without changing a value (an atomic OR with 0,
/// which a search storing into the same slot at that moment cannot interleave with), until
/// `stop` is raised, which it checks every 2 MiB. Returns the number of slots written. A table
/// of 2 MiB or more starts on a page boundary, so that is exactly one write a page.
fn touch_pages(slots: &[Slot], stop: &AtomicBool) -> usize {
    let size = std::mem::size_of::<Slot>();
    let mut pages = 0;
    for chunk in slots.chunks(HUGE_PAGE / size) {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        for slot in chunk.iter().step_by(PAGE / size) {
            // Hidden from the optimiser, which would turn an OR with a known 0 into a load, and a
            // load of a fresh page only maps the shared zero page.
            slot.data.fetch_or(std::hint::black_box(0), Ordering::Relaxed);
            pages += 1;
        }
    }
    pages
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
    fn a_table_in_huge_pages_starts_empty_and_keeps_entries() {
        // 64 MiB: large enough for 2 MiB pages.
        let tt = TranspositionTable::new(64);
        let keys: Vec<u64> = (0..4096u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
        assert!(keys.iter().all(|&k| tt.probe(k, 0).is_none()));
        assert_eq!(tt.hashfull(), 0);
        for (i, &k) in keys.iter().enumerate() {
            tt.store(k, 0, i as u32, i as i32, 3, Bound::Exact);
        }
        for (i, &k) in keys.iter().enumerate() {
            let e = tt.probe(k, 0).unwrap();
            assert_eq!((e.move_code, e.score), (i as u32, i as i32));
        }
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
    fn a_new_game_forgets_entries_without_touching_memory() {
        let mut tt = TranspositionTable::new(1);
        tt.store(42, 0, 7, -123, 5, Bound::Lower);
        let written = |tt: &TranspositionTable| {
            tt.table().iter().filter(|s| s.check.load(Ordering::Relaxed) | s.data.load(Ordering::Relaxed) != 0).count()
        };
        assert_eq!(written(&tt), 1);
        tt.new_game();
        assert!(tt.probe(42, 0).is_none());
        assert_eq!(written(&tt), 1, "the old entry is still in memory, only no longer valid");
    }

    #[test]
    fn an_earlier_game_leaves_only_empty_slots() {
        let mut tt = TranspositionTable::new(1);
        // Keys that differ only in their low bits share a bucket (here the first one, which
        // `hashfull` sees).
        let keys: Vec<u64> = (1..=2 * BUCKET as u64).collect();
        for &k in &keys[..BUCKET] {
            tt.store(k, 0, 1, 0, 60, Bound::Exact);
        }
        tt.new_game();
        // Shallow entries of the new game would lose to deep ones of this game, but take the
        // earlier game's slots as a cleared table's empty ones.
        for &k in &keys[BUCKET..] {
            tt.store(k, 0, 2, 0, 1, Bound::Upper);
        }
        assert!(keys[..BUCKET].iter().all(|&k| tt.probe(k, 0).is_none()));
        assert!(keys[BUCKET..].iter().all(|&k| tt.probe(k, 0).is_some_and(|e| e.move_code == 2)));
        assert_eq!(tt.hashfull(), BUCKET);
    }

    #[test]
    fn an_entry_from_256_games_ago_stays_forgotten() {
        let mut tt = TranspositionTable::new(1);
        tt.store(42, 0, 7, 5, 3, Bound::Exact);
        for _ in 0..256 {
            tt.new_game();
        }
        assert!(tt.probe(42, 0).is_none());
    }

    #[test]
    fn a_size_the_machine_cannot_provide_keeps_the_table() {
        let mut tt = TranspositionTable::new(1);
        tt.store(42, 0, 7, 5, 3, Bound::Exact);
        assert!(TranspositionTable::try_new(usize::MAX).is_none());
        assert_eq!(tt.resize(usize::MAX >> 20), Err(TableTooLarge(usize::MAX >> 20)));
        assert_eq!(tt.megabytes(), 1);
        assert!(tt.probe(42, 0).is_some());
    }

    #[test]
    fn buckets_start_on_cache_lines_and_large_tables_on_huge_pages() {
        for megabytes in [1, 3, 64] {
            let tt = TranspositionTable::new(megabytes);
            let start = tt.table().as_ptr() as usize;
            assert_eq!(start % 64, 0, "{megabytes} MiB");
            if megabytes >= 2 {
                assert_eq!(start % HUGE_PAGE, 0, "{megabytes} MiB");
            }
            assert_eq!(tt.table().len(), megabytes << 20 >> 4);
            assert_eq!(tt.megabytes(), megabytes);
            // The first and the last bucket are in the table.
            assert_eq!(tt.bucket(0), tt.first);
            assert_eq!(tt.bucket(u64::MAX), tt.first + tt.table().len() - BUCKET);
        }
    }

    #[test]
    fn touching_the_pages_keeps_every_entry() {
        let tt = TranspositionTable::new(2);
        let keys: Vec<u64> = (0..1000u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
        for (i, &k) in keys.iter().enumerate() {
            tt.store(k, 0, i as u32, i as i32, 3, Bound::Exact);
        }
        // One write in each 4 KiB page of the 2 MiB.
        assert_eq!(touch_pages(tt.table(), &AtomicBool::new(false)), 512);
        for (i, &k) in keys.iter().enumerate() {
            let e = tt.probe(k, 0).unwrap();
            assert_eq!((e.move_code, e.score), (i as u32, i as i32));
        }
        assert_eq!(touch_pages(tt.table(), &AtomicBool::new(true)), 0, "a raised stop ends it");
    }

    #[test]
    fn a_search_beside_the_touching_thread_loses_nothing() {
        let mut tt = TranspositionTable::new(64);
        tt.make_resident();
        // Stores and probes while the thread writes across the same slots.
        for round in 0..20u64 {
            let keys: Vec<u64> = (0..5000u64).map(|i| (i + 5000 * round).wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
            for (i, &k) in keys.iter().enumerate() {
                tt.store(k, 0, i as u32 + 1, 0, 60, Bound::Exact);
            }
            for (i, &k) in keys.iter().enumerate() {
                assert_eq!(tt.probe(k, 0).map(|e| e.move_code), Some(i as u32 + 1), "round {round} key {i}");
            }
        }
        // Resizing stops the thread and starts one for the new table; dropping stops that one.
        tt.resize(4).unwrap();
        assert!(tt.toucher.is_some());
        drop(tt);
    }

    #[test]
    fn new_game_keeps_size() {
        let mut tt = TranspositionTable::new(2);
        tt.store(1, 0, 1, 1, 1, Bound::Exact);
        tt.new_game();
        assert!(tt.probe(1, 0).is_none());
        assert_eq!(tt.megabytes(), 2);
    }
}
