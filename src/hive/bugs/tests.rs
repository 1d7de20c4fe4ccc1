//! Per-bug movement tests on small positions. Each lists the exact destinations of one piece
//! as canonical MoveStrings (sorted), so a failure shows the move that appeared or vanished.

use crate::hive::{HiveGame, MoveView, Piece};

/// The canonical MoveStrings of `piece`'s legal moves in the position `game_string`, sorted.
pub(crate) fn moves_of(game_string: &str, piece: &str) -> Vec<String> {
    let mut game = HiveGame::parse(game_string).expect("test position parses");
    let piece = Piece::parse(piece).expect("test piece name");
    let mut moves: Vec<String> = game
        .legal_moves()
        .into_iter()
        .filter(|m| m.piece() == Some(piece) && matches!(m.view(), MoveView::Move { .. }))
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

/// A straight line of five pieces, the tested white piece `bug` placed last at its west end:
///
/// ```text
///   X wQ wS1 bS1 bQ bB1        X = (-2,0), wQ = (-1,0), wS1 = (0,0) (origin), bS1 = (1,0) …
/// ```
fn line_with(bug: &str) -> String {
    format!("{};InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;{bug} -wQ;bB1 bQ-", game_type_for(bug))
}

fn game_type_for(bug: &str) -> &'static str {
    match &bug[1..2] {
        "M" => "Base+M",
        "L" => "Base+L",
        "P" => "Base+P",
        _ => "Base",
    }
}

#[test]
fn beetle_steps_around_and_climbs() {
    assert_eq!(moves_of(&line_with("wB1"), "wB1"), sorted(&["wB1 wQ", "wB1 \\wQ", "wB1 /wQ"]));
}

#[test]
fn grasshopper_jumps_the_whole_line() {
    assert_eq!(moves_of(&line_with("wG1"), "wG1"), sorted(&["wG1 bB1-"]));
}

#[test]
fn spider_walks_exactly_three_cells() {
    assert_eq!(moves_of(&line_with("wS2"), "wS2"), sorted(&["wS2 \\bS1", "wS2 wS1\\"]));
}

#[test]
fn ant_reaches_the_whole_rim() {
    // A line of five has 6 cells above, 6 below and one at each end: 14, less the ant's own.
    assert_eq!(moves_of(&line_with("wA1"), "wA1").len(), 13);
}

#[test]
fn ladybug_goes_up_along_and_down() {
    assert_eq!(moves_of(&line_with("wL"), "wL"), sorted(&["wL \\wS1", "wL \\bS1", "wL wS1\\", "wL wQ\\"]));
}

#[test]
fn mosquito_next_to_the_queen_moves_like_it() {
    assert_eq!(moves_of(&line_with("wM"), "wM"), sorted(&["wM \\wQ", "wM /wQ"]));
}

#[test]
fn pinned_pieces_do_not_move() {
    // wQ and wS1 hold the line together.
    assert_eq!(moves_of(&line_with("wB1"), "wQ"), Vec::<String>::new());
    assert_eq!(moves_of(&line_with("wB1"), "wS1"), Vec::<String>::new());
}

/// ```text
///      wQ  wS1 bS1 bQ bA1        wQ = (-1,0), wS1 = (0,0), bS1 = (1,0), bQ = (2,0), bA1 = (3,0)
///    wP                          wP = (-1,1), south-west of wS1
/// ```
const PILLBUG_NEXT_TO_QUEEN: &str = "Base+P;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wP /wS1;bA1 bQ-";

#[test]
fn pillbug_walks_one_slide() {
    assert_eq!(moves_of(PILLBUG_NEXT_TO_QUEEN, "wP"), sorted(&["wP /wQ", "wP wS1\\"]));
}

#[test]
fn pillbug_throws_a_neighbour_once_per_destination() {
    // wQ slides to (0,-1) and (-2,1) by itself; the pillbug throws it over itself to (0,1),
    // (-1,2), (-2,2) and (-2,1) again: five distinct moves.
    assert_eq!(moves_of(PILLBUG_NEXT_TO_QUEEN, "wQ"), sorted(&["wQ \\wS1", "wQ -wP", "wQ wS1\\", "wQ wP\\", "wQ /wP"]));
    // wS1 holds the hive together, so it cannot be thrown.
    assert_eq!(moves_of(PILLBUG_NEXT_TO_QUEEN, "wS1"), Vec::<String>::new());
}
