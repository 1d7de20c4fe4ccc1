//! The ORDER of generated Hive moves, not just their number: the search tries moves in the
//! order the generator gives them (ties in its move ordering keep it), so a generator that
//! finds the same moves in another order changes the search's node counts. Each tree below
//! hashes every move list of a small perft tree, move by move, into one fingerprint; a change
//! that reorders moves fails here in a second instead of in the bench total.

use comb::hive::{Evaluation, Hive, HiveGame, MoveView};

/// 64-bit FNV-1a, fed one word at a time: fixed forever, unlike the standard library's hasher.
struct Fingerprint(u64);

impl Fingerprint {
    fn add(&mut self, word: u32) {
        for byte in word.to_le_bytes() {
            self.0 = (self.0 ^ byte as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// Adds one move as four words: its kind, piece, origin and destination.
fn add_move(fp: &mut Fingerprint, view: MoveView) {
    match view {
        MoveView::Place { piece, to } => [0, piece.0 as u32, 0, to.index() as u32],
        MoveView::Move { piece, from, to } => [1, piece.0 as u32, from.index() as u32, to.index() as u32],
        MoveView::Pass => [2, 0, 0, 0],
    }
    .into_iter()
    .for_each(|w| fp.add(w));
}

/// Hashes the move lists of every position fewer than `depth` plies below `hive`, each list
/// preceded by its length, in the order a perft visits them.
fn walk(hive: &mut Hive, depth: usize, fp: &mut Fingerprint) {
    let mut moves = Vec::new();
    hive.generate_moves(&mut moves);
    fp.add(moves.len() as u32);
    for &mv in &moves {
        add_move(fp, mv.view());
    }
    if depth > 1 {
        for &mv in &moves {
            hive.make(mv);
            walk(hive, depth - 1, fp);
            hive.unmake(mv);
        }
    }
}

fn fingerprint(position: &str, depth: usize) -> u64 {
    let game = HiveGame::parse(position)
        .or_else(|_| HiveGame::parse(&format!("{position};NotStarted;White[1]")))
        .expect("test position parses");
    let mut hive = game.hive().clone();
    // Counting only: the network's bookkeeping would just slow the walk down.
    hive.set_evaluation(Evaluation::Classic);
    let mut fp = Fingerprint(0xcbf2_9ce4_8422_2325);
    walk(&mut hive, depth, &mut fp);
    fp.0
}

#[test]
fn start_position_move_order() {
    // Five plies: the first movements come at the fifth.
    assert_eq!(fingerprint("Base+MLP", 5), 16208166632732979465);
}

#[test]
fn middle_game_move_order() {
    // The 86-move position of positions/hive-perft.txt: ants, stacks, both pillbugs.
    let mid = "Base+MLP;InProgress;White[11];wM;bM \\wM;wP wM-;bQ bM/;wQ /wM;bP -bQ;wA1 wM\\;bP /bM;wQ bQ\\;wM -bQ;wB1 -wM;bP bM\\;wQ wP/;wA1 /bM;wB1 wM;wA1 bQ\\;wQ wP\\;wA1 bP\\;wA2 wP/;bQ bQ\\";
    assert_eq!(fingerprint(mid, 3), 1096790891416079100);
}

#[test]
fn pillbug_position_move_order() {
    // Both pillbugs in the middle, each mosquito touching one: throws by four throwers.
    let pillbugs =
        "Base+MLP;InProgress;White[6];wP;bP wP-;wQ -wP;bQ bP-;wM \\wP;bM bP\\;wA1 /wQ;bA1 bQ\\;wB1 \\wM;bB1 bM\\";
    assert_eq!(fingerprint(pillbugs, 3), 8039563526476671187);
}
