//! What counts as a repeated position, checked against an independent counter.
//!
//! Two positions are the same exactly when they have the same legal moves for the same side:
//! the same stacks of (colour, bug) on the same cells, the same side to move and, only where
//! the game type has the Pillbug, the same immobilised piece (the one that moved last). Bug
//! numbers do not count: `wA1` on a and `wA2` on b is the position of the reverse, as two
//! knights are interchangeable in chess, because the legal moves (as moves of the board, not
//! as strings) are the same. For Intellector: the same piece on every hex, the same side to
//! move and, under Classic rules, the same sets of captured types (they decide promotions).
//!
//! comb's repetition rule (`RepetitionDraw`), the search's draw test (`repeatable_history`)
//! and the tournament's `--repetitions` all key on the position hash; these tests replay
//! random games that are steered into repetitions and compare every count with one computed
//! from the identity above, written out from scratch.

use comb::game::{Color, Outcome};
use comb::hive::{Bug, Cell, GameType, Hive, HiveGame, Move, MoveView, Piece};
use comb::intellector::{IntellectorGame, Move as IntellectorMove, Rules};
use comb::zobrist::splitmix64;
use std::collections::HashMap;

/// The crate's splitmix64 as a seeded generator: the tests are reproducible.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        let (state, value) = splitmix64(self.0);
        self.0 = state;
        (value % n as u64) as usize
    }
}

/// The identity of a Hive position, from the board itself rather than from its hash.
fn hive_identity(hive: &Hive) -> String {
    let mut stacks: Vec<(Cell, u8, char, char)> = Piece::all()
        .filter_map(|p| {
            let cell = hive.position(p)?;
            let colour = if p.color() == Color::White { 'w' } else { 'b' };
            Some((cell, hive.level(p), colour, p.bug().letter()))
        })
        .collect();
    stacks.sort_unstable();
    let immobile = match hive.last_moved() {
        Some(p) if hive.game_type().has_bug(Bug::Pillbug) => hive.position(p),
        _ => None,
    };
    format!("{stacks:?} {:?} {immobile:?}", hive.to_move())
}

/// Chooses the next move, preferring to take back one's own previous move (A to B, then B
/// to A) so that random games repeat positions often.
fn steer<M: Copy + PartialEq>(rng: &mut Rng, moves: &[M], undo_own: Option<M>) -> M {
    match undo_own {
        Some(back) if rng.below(4) != 0 && moves.contains(&back) => back,
        _ => moves[rng.below(moves.len())],
    }
}

fn reverse(mv: Move) -> Option<Move> {
    match mv.view() {
        MoveView::Move { piece, from, to } => Some(Move::movement(piece, to, from)),
        _ => None,
    }
}

/// Plays steered random Hive games and checks every repetition count, the draw, and the
/// search's repeatable history against the independent identity.
fn check_hive_games(game_type: GameType, games: usize, seed: u64) -> usize {
    let mut rng = Rng(seed);
    let mut threefolds = 0;
    for _ in 0..games {
        let mut hive = Hive::new(game_type);
        hive.set_repetition_draw(true);
        let mut seen: HashMap<String, usize> = HashMap::new();
        seen.insert(hive_identity(&hive), 1);
        let mut played: Vec<Move> = Vec::new();
        let mut moves = Vec::new();
        let mut history = Vec::new();
        for _ in 0..300 {
            hive.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let own_last = played.len().checked_sub(2).and_then(|i| reverse(played[i]));
            let mv = steer(&mut rng, &moves, own_last);
            hive.make(mv);
            played.push(mv);
            let id = hive_identity(&hive);
            let before = *seen.get(&id).unwrap_or(&0);
            seen.insert(id, before + 1);
            assert_eq!(hive.repetitions(), before, "{game_type} after {played:?}");
            history.clear();
            hive.repeatable_history(&mut history);
            assert_eq!(history.contains(&hive.hash()), before > 0, "{game_type} after {played:?}");
            let queens_surrounded = hive.queen_surrounded(Color::White) || hive.queen_surrounded(Color::Black);
            if !queens_surrounded {
                let expected = if before >= 2 { Outcome::Draw } else { Outcome::InProgress };
                assert_eq!(hive.outcome(), expected, "{game_type} after {played:?}");
            }
            if hive.outcome() == Outcome::Draw {
                threefolds += 1;
            }
        }
    }
    threefolds
}

#[test]
fn hive_repetitions_match_an_independent_counter_in_every_game_type() {
    for (i, game_type) in GameType::all().into_iter().enumerate() {
        let threefolds = check_hive_games(game_type, 25, 0x5eed_0000 + i as u64);
        // The steering makes repetitions common: the test must really have met some.
        assert!(threefolds >= 5, "{game_type}: only {threefolds} threefold repetitions met");
    }
}

/// The reproduction from outside testing: after ply 16 the position after plies 8 and 12
/// stands for the third time with White to move.
#[test]
fn threefold_repetition_is_declared_on_the_third_occurrence() {
    let moves = "wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ/;wA2 -wA1;bA2 bQ\\;wA2 /wA1;bA1 bQ-;wA2 -wA1;bA1 bQ/;wA2 /wA1;bA2 bQ-;wA2 -wA1;bA2 bQ\\";
    let mut game = HiveGame::new(GameType::BASE);
    game.set_repetition_draw(true);
    for (ply, m) in moves.split(';').enumerate() {
        game.play(m).unwrap();
        let expected = if ply + 1 == 16 { "Draw" } else { "InProgress" };
        assert_eq!(game.state_string(), expected, "after ply {}", ply + 1);
    }
    assert_eq!(game.hive().repetitions(), 2);
}

/// Plays `line` from `start` if every move of it is legal there, in order.
fn play_line(start: &Hive, line: &[Move]) -> Option<Hive> {
    let mut hive = start.clone();
    let mut moves = Vec::new();
    for &mv in line {
        hive.generate_moves(&mut moves);
        if !moves.contains(&mv) {
            return None;
        }
        hive.make(mv);
    }
    Some(hive)
}

/// Two move orders that reach the same stacks with a different piece moved last: with the
/// Pillbug the immobilised piece is part of the position, without it it is not.
#[test]
fn the_last_mover_counts_only_with_the_pillbug() {
    for (game_type, last_mover_counts) in [(GameType::BASE, false), (GameType::parse("Base+P").unwrap(), true)] {
        let mut rng = Rng(0x0911_1b06);
        let mut found = 0;
        while found < 20 {
            // A random middle game, then white moves a, c and black moves b, d in two orders.
            let mut start = Hive::new(game_type);
            let mut moves = Vec::new();
            for _ in 0..(20 + rng.below(20)) {
                start.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                start.make(moves[rng.below(moves.len())]);
            }
            start.generate_moves(&mut moves);
            let pick = |rng: &mut Rng, moves: &[Move]| moves[rng.below(moves.len().max(1))];
            if moves.len() < 2 || start.outcome().is_over() {
                continue;
            }
            let (a, c) = (pick(&mut rng, &moves), pick(&mut rng, &moves));
            let Some(after_a) = play_line(&start, &[a]) else { continue };
            let mut replies = Vec::new();
            let mut after = after_a.clone();
            after.generate_moves(&mut replies);
            if replies.len() < 2 {
                continue;
            }
            let (b, d) = (pick(&mut rng, &replies), pick(&mut rng, &replies));
            let different = |x: Move, y: Move| matches!((x.view(), y.view()), (MoveView::Move { piece: p, .. }, MoveView::Move { piece: q, .. }) if p != q);
            if !different(a, c) || !different(b, d) {
                continue;
            }
            let (Some(one), Some(two)) = (play_line(&start, &[a, b, c, d]), play_line(&start, &[c, d, a, b])) else {
                continue;
            };
            let stacks = |h: &Hive| {
                let mut s: Vec<_> = Piece::all().filter_map(|p| Some((h.position(p)?, h.level(p), p.kind()))).collect();
                s.sort_unstable();
                s
            };
            if stacks(&one) != stacks(&two) || one.outcome().is_over() {
                continue;
            }
            found += 1;
            assert_eq!(one.hash() != two.hash(), last_mover_counts, "{game_type}: {a:?} {b:?} {c:?} {d:?}");
            assert_eq!(hive_identity(&one) != hive_identity(&two), last_mover_counts);
        }
    }
}

fn intellector_identity(game: &IntellectorGame) -> String {
    let position = game.position();
    let mut pieces: Vec<String> = position.pieces().map(|(hex, piece)| format!("{hex:?}{piece:?}")).collect();
    pieces.sort_unstable();
    let captured = match position.rules() {
        Rules::Classic => format!(
            "{:?}{:?}",
            position.captured_types(Color::White).collect::<Vec<_>>(),
            position.captured_types(Color::Black).collect::<Vec<_>>()
        ),
        Rules::Modern => String::new(),
    };
    format!("{pieces:?} {:?} {captured}", position.to_move())
}

#[test]
fn intellector_repetitions_match_an_independent_counter_under_both_rule_sets() {
    for (i, rules) in [Rules::Modern, Rules::Classic].into_iter().enumerate() {
        let mut rng = Rng(0x1e11_ec70 + i as u64);
        let mut threefolds = 0;
        for _ in 0..30 {
            let mut game = IntellectorGame::new(rules);
            // Counts restart after every capture or Progressor move, which can never be undone.
            let mut seen: HashMap<String, usize> = HashMap::new();
            seen.insert(intellector_identity(&game), 1);
            let mut played = Vec::new();
            for _ in 0..200 {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let own_last = played.len().checked_sub(2).map(|i: usize| played[i]);
                let back = own_last.and_then(|m: IntellectorMove| {
                    moves.iter().copied().find(|n| n.from == m.to && n.to == m.from && n.kind == m.kind)
                });
                let mv = steer(&mut rng, &moves, back);
                let quiet_before = game.position().quiet_plies();
                game.play_move(mv);
                played.push(mv);
                if game.position().quiet_plies() <= quiet_before {
                    seen.clear();
                }
                let id = intellector_identity(&game);
                let before = *seen.get(&id).unwrap_or(&0);
                seen.insert(id, before + 1);
                assert_eq!(game.position().repetitions() as usize, before, "{rules:?} after {played:?}");
                if before >= 2 {
                    assert_eq!(game.position().outcome(), Outcome::Draw);
                    threefolds += 1;
                }
            }
        }
        assert!(threefolds >= 5, "{rules:?}: only {threefolds} threefold repetitions met");
    }
}
