//! The search slots: at most as many searches at once as there are cores, each with a search
//! engine (and its transposition table) of its own that games take turns to use.
//!
//! A slot is taken by every search the server runs (comb's moves, external engines' moves,
//! analysis, review, `/uhp` searches) and given back when the search's thread is done with it,
//! whatever happened to the connection that asked for it.

use crate::search::Searcher;
use std::sync::{Arc, Mutex};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Transposition table of each slot's engine, in MiB.
pub const TABLE_MEGABYTES: usize = 64;

/// The pool of search slots.
pub struct Slots {
    semaphore: Arc<Semaphore>,
    engines: Arc<Mutex<Vec<(Searcher, u64)>>>,
    count: usize,
}

/// A slot in use: a permit and an engine, both given back when dropped.
pub struct Slot {
    _permit: OwnedSemaphorePermit,
    /// The engine and the game it last searched for (a search for another one clears its
    /// table first).
    engine: Option<(Searcher, u64)>,
    engines: Arc<Mutex<Vec<(Searcher, u64)>>>,
}

impl Slots {
    /// `count` slots (at least one), each with a single-threaded engine.
    pub fn new(count: usize) -> Slots {
        let count = count.max(1);
        let engines = (0..count).map(|_| (Searcher::new(TABLE_MEGABYTES, 1), 0)).collect();
        Slots { semaphore: Arc::new(Semaphore::new(count)), engines: Arc::new(Mutex::new(engines)), count }
    }

    /// How many slots there are.
    pub fn count(&self) -> usize {
        self.count
    }

    /// How many slots are in use now.
    pub fn busy(&self) -> usize {
        self.count - self.semaphore.available_permits()
    }

    /// Takes a free slot, waiting for one if all are busy; `on_wait` is called once before
    /// waiting (to say so). `None` only if the pool was closed.
    pub async fn take(&self, on_wait: impl FnOnce()) -> Option<Slot> {
        let permit = match Arc::clone(&self.semaphore).try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                on_wait();
                Arc::clone(&self.semaphore).acquire_owned().await.ok()?
            }
        };
        // A permit guarantees an engine: there are as many engines as permits.
        let engine = self.engines.lock().unwrap_or_else(|e| e.into_inner()).pop();
        Some(Slot { _permit: permit, engine, engines: Arc::clone(&self.engines) })
    }

    /// Takes a slot from a thread outside the runtime (the `/uhp` sessions), blocking.
    pub fn take_blocking(&self, handle: &tokio::runtime::Handle) -> Option<Slot> {
        handle.block_on(self.take(|| {}))
    }
}

impl Slot {
    /// The slot's engine, its table cleared if it last searched for another `game`.
    pub fn engine_for(&mut self, game: u64) -> &mut Searcher {
        let (engine, owner) = self.engine.get_or_insert_with(|| (Searcher::new(TABLE_MEGABYTES, 1), 0));
        if *owner != game {
            engine.new_game();
            *owner = game;
        }
        engine
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(engine) = self.engine.take() {
            self.engines.lock().unwrap_or_else(|e| e.into_inner()).push(engine);
        }
    }
}
