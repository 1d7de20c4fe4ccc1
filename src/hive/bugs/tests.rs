//! Per-bug movement tests on small positions. Each lists the exact destinations of one piece
//! as canonical MoveStrings (sorted), so a failure shows the move that appeared or vanished.

use crate::hive::{HiveGame, Move, Piece};

/// The canonical MoveStrings of `piece`'s legal moves in the position `game_string`, sorted.
pub(crate) fn moves_of(game_string: &str, piece: &str) -> Vec<String> {
    let mut game = HiveGame::parse(game_string).expect("test position parses");
    let piece = Piece::parse(piece).expect("test piece name");
    let mut moves: Vec<String> = game
        .legal_moves()
        .into_iter()
        .filter(|m| m.piece() == Some(piece) && matches!(m, Move::Move { .. }))
        .map(|m| game.move_string(m))
        .collect();
    moves.sort();
    moves
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn queen_slides_one_step_along_the_hive() {
    // wQ (-1,0) wS1 (0,0) bS1 (1,0) bQ (2,0): the queen can only slide around wS1.
    let pos = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";
    assert_eq!(moves_of(pos, "wQ"), sorted(&["wQ \\wS1", "wQ /wS1"]));
}
