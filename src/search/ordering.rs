//! Move-ordering memory kept by each search thread: killer moves per ply, a history score per
//! (side, move), and the reply that refuted each move (countermoves).

use super::parameters::Parameters;

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
    fn history_saturates_at_its_bound() {
        let p = Parameters::DEFAULT;
        let mut tables = MoveTables::new(2, 4);
        let deep = Node { ply: 0, side: 0, previous: None, depth: 20 };
        for _ in 0..1000 {
            tables.record_cutoff(&p, &deep, 1, 0, &[1]);
        }
        assert_eq!((tables.history(0, 0), tables.history(0, 1)), (16_384, -16_384));
    }
}
