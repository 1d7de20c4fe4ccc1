//! Quiescence search, for games whose tactical moves are rare and decisive (see
//! [`Game::QUIESCENCE`]): at the leaves the side to move may stand on the static score or play
//! on with captures until the position is quiet.

use super::Worker;
use crate::game::Game;
use crate::search::MAX_PLY;

impl<G: Game> Worker<'_, G> {
    /// Quiescence search: the side to move may stand on the static score or try its tactical
    /// moves (captures), until the position is quiet.
    pub(super) fn quiescence(&mut self, ply: usize, mut alpha: i32, beta: i32, qdepth: usize) -> i32 {
        if self.should_abort() {
            return 0;
        }
        if let Some(score) = self.terminal_score(ply) {
            return score;
        }
        let stand = self.game.evaluate();
        if stand >= beta || ply >= MAX_PLY || qdepth >= G::PARAMETERS.quiescence_max_depth {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut moves = std::mem::take(&mut self.moves[ply]);
        self.game.generate_moves(&mut moves);
        let mut best = stand;
        for &mv in moves.iter() {
            if !self.game.is_tactical(mv) {
                continue;
            }
            self.nodes += 1;
            self.game.make(mv);
            let score = -self.quiescence(ply + 1, -beta, -alpha, qdepth + 1);
            self.game.unmake(mv);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        best
    }
}
