//! Move-ordering memory kept by each search thread: killer moves per ply, a history score per
//! (side, move), and the reply that refuted each move (countermoves).

use super::parameters::Parameters;

/// A node of the search, as the ordering tables see it: where moves are ordered or a cutoff
/// happened.
#[derive(Copy, Clone)]
pub(crate) struct Node {
    /// Distance from the root.
    pub ply: usize,
    /// Side to move (0 White, 1 Black).
    pub side: usize,
    /// Index of the move that led here, if any.
    pub previous: Option<usize>,
    /// Remaining depth.
    pub depth: i32,
}

/// Per-thread move-ordering tables, sized for one game's move indices.
pub(crate) struct MoveTables {
    killers: Vec<[u32; 2]>,
    history: Vec<i32>,
    countermoves: Vec<u32>,
    index_size: usize,
}

impl MoveTables {
    pub fn new(index_size: usize, max_ply: usize) -> MoveTables {
        MoveTables {
            killers: vec![[0; 2]; max_ply + 1],
            history: vec![0; 2 * index_size],
            countermoves: vec![0; index_size],
            index_size,
        }
    }

    /// Whether the tables were made by [`MoveTables::new`] with these sizes (for a game whose
    /// moves have `index_size` indices).
    pub fn fits(&self, index_size: usize, max_ply: usize) -> bool {
        self.index_size == index_size && self.killers.len() == max_ply + 1
    }

    /// Keeps what is true of moves in any position (history, countermoves) for the next
    /// search of the game, and forgets the killers: they are by ply, and the next search's
    /// plies are other positions.
    pub fn for_next_search(&mut self) {
        self.killers.fill([0; 2]);
    }

    #[inline]
    pub fn killers(&self, ply: usize) -> [u32; 2] {
        self.killers[ply]
    }

    #[inline]
    pub fn history(&self, side: usize, index: usize) -> i32 {
        self.history[side * self.index_size + index]
    }

    #[inline]
    pub fn countermove(&self, previous_index: Option<usize>) -> u32 {
        previous_index.map_or(0, |i| self.countermoves[i])
    }

    /// A quiet move (`code`, `index`) caused a cutoff at `node`: remember it, and reward it
    /// against the quiet moves tried before it, on the scale of the game's parameters `p`.
    #[inline]
    pub fn record_cutoff(&mut self, p: &Parameters, node: &Node, code: u32, index: usize, tried: &[usize]) {
        let k = &mut self.killers[node.ply];
        if k[0] != code {
            k[1] = k[0];
            k[0] = code;
        }
        if let Some(p) = node.previous {
            self.countermoves[p] = code;
        }
        let bonus = (node.depth * node.depth).min(p.history_bonus_max);
        self.update(p, node.side, index, bonus);
        for &t in tried {
            if t != index {
                self.update(p, node.side, t, -bonus);
            }
        }
    }

    #[inline]
    fn update(&mut self, p: &Parameters, side: usize, index: usize, bonus: i32) {
        let h = &mut self.history[side * self.index_size + index];
        // Gravity: the update shrinks as the score nears its bound.
        *h += bonus - *h * bonus.abs() / p.history_max;
    }
}

/// Most quiet cutoffs a [`CutoffLog`] keeps (later ones are dropped), and most tried moves
/// behind them.
const LOG_CUTOFFS: usize = 4096;
const LOG_TRIED: usize = 32 * 1024;

/// One quiet cutoff as [`MoveTables::record_cutoff`] took it; its `tried` moves follow the
/// previous entry's in the log.
#[derive(Copy, Clone)]
struct LoggedCutoff {
    node: Node,
    code: u32,
    index: usize,
    tried: usize,
}

/// Quiet cutoffs in the order a thread recorded them, to be replayed into another thread's
/// tables: what a helper learned in a shared node's subtrees reaches the node's owner, as it
/// would have if the owner had searched them alone. It starts empty and grows to its bounds
/// only where threads share nodes, so a one-thread search allocates nothing for it.
pub(crate) struct CutoffLog {
    cutoffs: Vec<LoggedCutoff>,
    tried: Vec<usize>,
}

impl CutoffLog {
    /// An empty log.
    pub fn new() -> CutoffLog {
        CutoffLog { cutoffs: Vec::new(), tried: Vec::new() }
    }

    /// Forgets every cutoff (keeping the room).
    pub fn clear(&mut self) {
        self.cutoffs.clear();
        self.tried.clear();
    }

    /// How long the log is: a mark to move what follows it (see [`CutoffLog::move_since`]).
    pub fn mark(&self) -> (usize, usize) {
        (self.cutoffs.len(), self.tried.len())
    }

    /// Logs a cutoff, unless the log is full.
    #[inline]
    pub fn push(&mut self, node: &Node, code: u32, index: usize, tried: &[usize]) {
        if self.cutoffs.len() >= LOG_CUTOFFS || self.tried.len() + tried.len() > LOG_TRIED {
            return;
        }
        self.cutoffs.push(LoggedCutoff { node: *node, code, index, tried: tried.len() });
        self.tried.extend_from_slice(tried);
    }

    /// The logged cutoffs from `mark` on, each with its tried moves.
    fn since(&self, mark: (usize, usize)) -> impl Iterator<Item = (&LoggedCutoff, &[usize])> {
        let mut t = mark.1;
        self.cutoffs[mark.0..].iter().map(move |c| {
            t += c.tried;
            (c, &self.tried[t - c.tried..t])
        })
    }

    /// Moves the cutoffs logged after `mark` to the end of `to` (as many as fit).
    pub fn move_since(&mut self, mark: (usize, usize), to: &mut CutoffLog) {
        for (c, tried) in self.since(mark) {
            to.push(&c.node, c.code, c.index, tried);
        }
        self.cutoffs.truncate(mark.0);
        self.tried.truncate(mark.1);
    }

    /// Records every logged cutoff in `tables`, oldest first, and logs it in `also` if given.
    pub fn replay(&self, p: &Parameters, tables: &mut MoveTables, mut also: Option<&mut CutoffLog>) {
        for (c, tried) in self.since((0, 0)) {
            tables.record_cutoff(p, &c.node, c.code, c.index, tried);
            if let Some(log) = also.as_deref_mut() {
                log.push(&c.node, c.code, c.index, tried);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_bonus_is_depth_squared_up_to_400() {
        let p = Parameters::DEFAULT;
        let mut tables = MoveTables::new(4, 4);
        tables.record_cutoff(&p, &Node { ply: 0, side: 1, previous: None, depth: 3 }, 2, 1, &[0, 1]);
        assert_eq!((tables.history(1, 1), tables.history(1, 0), tables.history(0, 1)), (9, -9, 0));
        tables.record_cutoff(&p, &Node { ply: 0, side: 0, previous: None, depth: 30 }, 4, 3, &[]);
        assert_eq!(tables.history(0, 3), 400);
    }

    #[test]
    fn tables_kept_for_the_next_search_forget_only_the_killers() {
        let p = Parameters::DEFAULT;
        let mut tables = MoveTables::new(4, 4);
        tables.record_cutoff(&p, &Node { ply: 2, side: 0, previous: Some(3), depth: 3 }, 7, 1, &[]);
        assert_eq!(tables.killers(2), [7, 0]);
        tables.for_next_search();
        assert_eq!(tables.killers(2), [0, 0]);
        assert_eq!((tables.history(0, 1), tables.countermove(Some(3))), (9, 7));
        assert!(tables.fits(4, 4));
        assert!(!tables.fits(5, 4) && !tables.fits(4, 5));
    }

    #[test]
    fn history_saturates_at_its_bound() {
        let p = Parameters::DEFAULT;
        let mut tables = MoveTables::new(2, 4);
        let deep = Node { ply: 0, side: 0, previous: None, depth: 20 };
        for _ in 0..1000 {
            tables.record_cutoff(&p, &deep, 1, 0, &[1]);
        }
        assert_eq!((tables.history(0, 0), tables.history(0, 1)), (16_384, -16_384));
    }

    /// The tables of one thread after the cutoffs `(node, code, index, tried)`, recorded
    /// directly or replayed from logs: a helper's, moved to its node's, replayed by that node's
    /// owner into another's.
    fn recorded(cutoffs: &[(Node, u32, usize, &[usize])], through_logs: bool) -> MoveTables {
        let p = Parameters::DEFAULT;
        let mut tables = MoveTables::new(8, 4);
        if !through_logs {
            for &(node, code, index, tried) in cutoffs {
                tables.record_cutoff(&p, &node, code, index, tried);
            }
            return tables;
        }
        let (mut helper, mut node_log) = (CutoffLog::new(), CutoffLog::new());
        helper.push(&Node { ply: 3, side: 0, previous: None, depth: 1 }, 9, 7, &[1]); // not moved
        let mark = helper.mark();
        for &(node, code, index, tried) in cutoffs {
            helper.push(&node, code, index, tried);
        }
        helper.move_since(mark, &mut node_log);
        assert_eq!(helper.mark(), (1, 1));
        // An owner that itself helps a node above passes what it replays on to that node's owner.
        let (mut owner, mut outer) = (MoveTables::new(8, 4), CutoffLog::new());
        node_log.replay(&p, &mut owner, Some(&mut outer));
        outer.replay(&p, &mut tables, None);
        tables
    }

    #[test]
    fn a_replayed_log_teaches_what_the_cutoffs_taught() {
        let n = |ply, side, previous, depth| Node { ply, side, previous, depth };
        let cutoffs: [(Node, u32, usize, &[usize]); 3] =
            [(n(1, 0, Some(2), 3), 5, 4, &[0, 1]), (n(2, 1, None, 2), 6, 5, &[]), (n(1, 0, Some(3), 4), 7, 6, &[4, 2])];
        let (direct, replayed) = (recorded(&cutoffs, false), recorded(&cutoffs, true));
        for side in 0..2 {
            for index in 0..8 {
                assert_eq!(replayed.history(side, index), direct.history(side, index));
            }
        }
        for ply in 0..4 {
            assert_eq!(replayed.killers(ply), direct.killers(ply));
        }
        for previous in 0..8 {
            assert_eq!(replayed.countermove(Some(previous)), direct.countermove(Some(previous)));
        }
        assert_eq!((direct.killers(1), direct.countermove(Some(3)), direct.history(0, 4)), ([7, 5], 7, -16 + 9));
    }

    #[test]
    fn a_full_log_drops_later_cutoffs() {
        let mut log = CutoffLog::new();
        let node = Node { ply: 0, side: 0, previous: None, depth: 1 };
        for i in 0..LOG_CUTOFFS + 10 {
            log.push(&node, 1, i % 8, &[]);
        }
        assert_eq!(log.mark(), (LOG_CUTOFFS, 0));
        let mut tried = CutoffLog::new();
        tried.push(&node, 1, 0, &[3; LOG_TRIED]);
        tried.push(&node, 1, 0, &[3]);
        assert_eq!(tried.mark(), (1, LOG_TRIED));
    }
}
