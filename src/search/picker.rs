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
        // first whatever the others score. No move has code 0, so without a table move there
        // is nothing to look for.
        let found = if tt_move == 0 { None } else { moves.iter().position(|&m| G::move_code(m) == tt_move) };
        let table_move = match found {
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
        // One `extend` from a slice reserves once, rather than a capacity check per move.
        scores.extend(moves[usize::from(table_move)..].iter().map(|&mv| {
            let code = G::move_code(mv);
            if game.is_tactical(mv) {
                TACTICAL + tables.history(node.side, G::move_index(mv))
            } else if code == killers[0] {
                KILLER + 1
            } else if code == killers[1] {
                KILLER
            } else if code == counter {
                COUNTER
            } else {
                tables.history(node.side, G::move_index(mv))
            }
        }));
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
        // Two passes that the compiler vectorises (the maximum, then its first place) rather
        // than one compare-and-select chain: a node that tries every move does this for each.
        let rest = &self.scores[i..];
        let best = rest.iter().copied().fold(i32::MIN, i32::max);
        let pick = i + rest.iter().position(|&s| s == best).unwrap_or(0);
        self.moves.swap(i, pick);
        self.scores.swap(i, pick);
        self.next = i + 1;
        Some(Pick { mv: self.moves[i], number: i, quiet: self.scores[i] < KILLER })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Color, LevelShape, Outcome};
    use crate::search::Parameters;

    /// A game whose moves are the numbers 0 to 8, of which 1 and 5 are tactical: only what
    /// the picker asks of a game.
    #[derive(Clone)]
    struct Numbers;

    impl Game for Numbers {
        type Move = usize;
        const MOVE_INDEX_SIZE: usize = 9;
        const LEVELS: [LevelShape; 3] = [LevelShape { depth: 1, lines: 1, temperature: 1.0, nodes: 1 }; 3];
        const PARAMETERS: Parameters = Parameters::DEFAULT;

        fn side_to_move(&self) -> Color {
            Color::White
        }

        fn ply(&self) -> usize {
            0
        }

        fn generate_moves(&mut self, moves: &mut Vec<usize>) {
            moves.clear();
            moves.extend(0..9);
        }

        fn make(&mut self, _: usize) {}

        fn unmake(&mut self, _: usize) {}

        fn hash(&self) -> u64 {
            0
        }

        fn outcome(&self) -> Outcome {
            Outcome::InProgress
        }

        fn evaluate(&self) -> i32 {
            0
        }

        fn move_code(mv: usize) -> u32 {
            mv as u32 + 1
        }

        fn move_index(mv: usize) -> usize {
            mv
        }

        fn is_tactical(&self, mv: usize) -> bool {
            mv == 1 || mv == 5
        }
    }

    const P: Parameters = Parameters::DEFAULT;

    fn node(ply: usize, previous: Option<usize>, depth: i32) -> Node {
        Node { ply, side: 0, previous, depth }
    }

    /// The picks at `at` with the table move `tt_move` (a code), as (move, number, quiet).
    fn picks(tables: &MoveTables, at: &Node, tt_move: u32) -> Vec<(usize, usize, bool)> {
        let mut moves = Vec::new();
        Numbers.generate_moves(&mut moves);
        let picker = MovePicker::new(moves, Vec::new(), &Numbers, tables, at, tt_move);
        picker.map(|p| (p.mv, p.number, p.quiet)).collect()
    }

    /// Tables after cutoffs that give: history 25 to tactical move 1, 9 to move 3, 4 to moves
    /// 2 and 6, -9 to move 0; killers 2 then 3 at ply 2; move 6 the answer to move 7.
    fn tables() -> MoveTables {
        let mut tables = MoveTables::new(Numbers::MOVE_INDEX_SIZE, 10);
        tables.record_cutoff(&P, &node(9, None, 5), 2, 1, &[]);
        tables.record_cutoff(&P, &node(5, Some(7), 2), 7, 6, &[]);
        tables.record_cutoff(&P, &node(2, None, 3), 4, 3, &[0]);
        tables.record_cutoff(&P, &node(2, None, 2), 3, 2, &[]);
        tables
    }

    #[test]
    fn table_move_then_tactical_killers_countermove_and_history() {
        let at = node(2, Some(7), 4);
        let order = picks(&tables(), &at, Numbers::move_code(4));
        assert_eq!(
            order,
            [
                (4, 0, false), // the table move
                (1, 1, false), // tactical, by history
                (5, 2, false),
                (2, 3, false), // the killers, newest first
                (3, 4, false),
                (6, 5, true), // the countermove
                (7, 6, true), // the others by history, equal ones in generated order
                (8, 7, true),
                (0, 8, true),
            ]
        );
    }

    #[test]
    fn without_a_table_move_the_scored_moves_come_first() {
        let at = node(2, Some(7), 4);
        let order: Vec<usize> = picks(&tables(), &at, 0).into_iter().map(|p| p.0).collect();
        assert_eq!(order, [1, 5, 2, 3, 6, 4, 7, 8, 0]);
        // A code no move has is no table move.
        let order: Vec<usize> = picks(&tables(), &at, 99).into_iter().map(|p| p.0).collect();
        assert_eq!(order, [1, 5, 2, 3, 6, 4, 7, 8, 0]);
    }

    #[test]
    fn killers_and_countermoves_belong_to_their_ply_and_previous_move() {
        // At ply 3 after move 8 neither the killers nor the countermove apply: history alone
        // orders the quiet moves (3 before 2 now), and equal ones keep their generated order.
        let at = node(3, Some(8), 4);
        let order = picks(&tables(), &at, 0);
        let moves: Vec<usize> = order.iter().map(|p| p.0).collect();
        assert_eq!(moves, [1, 5, 3, 2, 6, 4, 7, 8, 0]);
        assert_eq!(order.iter().filter(|p| p.2).count(), 7);
    }
}
