//! The order in which an interior node tries its moves, in stages: the table move first, then
//! the other moves best first by their ordering score (tactical moves, killers, countermove,
//! history).

use super::ordering::{MoveTables, Node};
use crate::game::Game;

/// Score bonus bands for move ordering (higher goes first).
const TT_MOVE: i32 = 1 << 30;
const TACTICAL: i32 = 1 << 24;
const KILLER: i32 = 1 << 22;
const COUNTER: i32 = 1 << 21;

/// A move handed out by the picker.
#[derive(Clone, Copy)]
pub(crate) struct Pick<M> {
    pub mv: M,
    /// Its place in the order: 0 for the first move tried.
    pub number: usize,
    /// Whether pruning, reductions and the history treat it as quiet: it scored below the
    /// killer band. Below that band are exactly the quiet moves (tactical ones score above
    /// it); the table move and the killers are not counted as quiet.
    pub quiet: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// The table move is next, if the position has it.
    TableMove,
    /// The scored moves are handed out best first.
    Scored,
}

/// Hands out a node's moves in order. It works in the buffers it is given, so that the hot
/// path does not allocate; [`MovePicker::into_buffers`] gives them back.
pub(crate) struct MovePicker<G: Game> {
    moves: Vec<G::Move>,
    /// Ordering score of every move not yet handed out (index for index with `moves`).
    scores: Vec<i32>,
    /// Moves before this index have been handed out.
    next: usize,
    stage: Stage,
    /// Whether `moves[0]` is the table move.
    table_move: bool,
}

impl<G: Game> MovePicker<G> {
    /// Orders `moves`, the legal moves at `node` in `game`, with `tt_move` the code of the
    /// table's move (0 for none); `scores` is a buffer to reuse.
    pub fn new(
        mut moves: Vec<G::Move>,
        mut scores: Vec<i32>,
        game: &G,
        tables: &MoveTables,
        node: &Node,
        tt_move: u32,
    ) -> MovePicker<G> {
        // Stage one: the table move. Codes identify moves, so at most one matches; it goes
        // first whatever the others score.
        let table_move = match moves.iter().position(|&m| G::move_code(m) == tt_move) {
            Some(i) => {
                moves.swap(0, i);
                true
            }
            None => false,
        };
        // Stage two: the other moves. They are scored now, before the table move is searched:
        // its subtree updates the history and countermoves, and scoring later would change
        // their order. The table move's score only keeps the two lists aligned.
        let killers = tables.killers(node.ply);
        let counter = tables.countermove(node.previous);
        scores.clear();
        if table_move {
            scores.push(TT_MOVE);
        }
        for &mv in &moves[usize::from(table_move)..] {
            let code = G::move_code(mv);
            let s = if game.is_tactical(mv) {
                TACTICAL + tables.history(node.side, G::move_index(mv))
            } else if code == killers[0] {
                KILLER + 1
            } else if code == killers[1] {
                KILLER
            } else if code == counter {
                COUNTER
            } else {
                tables.history(node.side, G::move_index(mv))
            };
            scores.push(s);
        }
        MovePicker { moves, scores, next: 0, stage: Stage::TableMove, table_move }
    }

    /// The move and score buffers, for the next node at this ply.
    pub fn into_buffers(self) -> (Vec<G::Move>, Vec<i32>) {
        (self.moves, self.scores)
    }
}

impl<G: Game> Iterator for MovePicker<G> {
    type Item = Pick<G::Move>;

    /// The next move to try, or `None` when all have been handed out.
    #[inline]
    fn next(&mut self) -> Option<Pick<G::Move>> {
        if self.stage == Stage::TableMove {
            self.stage = Stage::Scored;
            if self.table_move {
                self.next = 1;
                return Some(Pick { mv: self.moves[0], number: 0, quiet: false });
            }
        }
        let i = self.next;
        if i >= self.moves.len() {
            return None;
        }
        // Selection sort step: bring the best remaining move forward. The first of equal
        // scores wins, and the swap moves the displaced one back: this fixes the order of
        // equal scores, and with it the node counts.
        let mut pick = i;
        for j in i + 1..self.moves.len() {
            if self.scores[j] > self.scores[pick] {
                pick = j;
            }
        }
        self.moves.swap(i, pick);
        self.scores.swap(i, pick);
        self.next = i + 1;
        Some(Pick { mv: self.moves[i], number: i, quiet: self.scores[i] < KILLER })
    }
}
