//! Move-ordering memory kept by each search thread: killer moves per ply, a history score per
//! (side, move), and the reply that refuted each move (countermoves).

/// A node of the search, as the ordering tables see it: where moves are ordered or a cutoff
/// happened.
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

/// History scores saturate here, which keeps recent information weighty (gravity).
const HISTORY_MAX: i32 = 16_384;

impl MoveTables {
    pub fn new(index_size: usize, max_ply: usize) -> MoveTables {
        MoveTables {
            killers: vec![[0; 2]; max_ply + 1],
            history: vec![0; 2 * index_size],
            countermoves: vec![0; index_size],
            index_size,
        }
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
    /// against the quiet moves tried before it.
    pub fn record_cutoff(&mut self, node: &Node, code: u32, index: usize, tried: &[usize]) {
        let k = &mut self.killers[node.ply];
        if k[0] != code {
            k[1] = k[0];
            k[0] = code;
        }
        if let Some(p) = node.previous {
            self.countermoves[p] = code;
        }
        let bonus = (node.depth * node.depth).min(400);
        self.update(node.side, index, bonus);
        for &t in tried {
            if t != index {
                self.update(node.side, t, -bonus);
            }
        }
    }

    #[inline]
    fn update(&mut self, side: usize, index: usize, bonus: i32) {
        let h = &mut self.history[side * self.index_size + index];
        // Gravity: the update shrinks as the score nears its bound.
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }
}
