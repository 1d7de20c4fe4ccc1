//! Intellector rules: per-piece moves on small positions, swap, aura, promotion in both rule
//! sets, every way a game ends, notation, SIP and GameStrings, and error handling.
//!
//! Positions are written as `w`/`b` + piece letter + hex (`wIe1 bFd6`) and turned into SIP v2,
//! so every test also goes through the SIP reader.

use comb::error::RulesError;
use comb::game::{Color, Game, Outcome};
use comb::intellector::sip::{hex_char, START_SIP, START_SIP_V1};
use comb::intellector::IllegalMove;
use comb::intellector::{Hex, IntellectorGame, Kind, Move, MoveKind, Position, Rules};

// ---------------------------------------------------------------------------------------------
// Helpers

fn hex(name: &str) -> Hex {
    Hex::parse(name).unwrap_or_else(|| panic!("test hex {name}"))
}

/// SIP v2 of `side` (`'w'`/`'b'`) and pieces such as `"wIe1 wFd1 bIe7"`.
fn sip(side: char, pieces: &str) -> String {
    let mut lists = [String::new(), String::new()];
    let mut all: Vec<(Hex, usize, char)> = pieces
        .split_whitespace()
        .map(|p| {
            let b = p.as_bytes();
            let color = if b[0] == b'w' { 0 } else { 1 };
            let kind = Kind::from_letter(b[1]).expect("piece letter");
            (hex(&p[2..]), color, kind.sip_letter())
        })
        .collect();
    all.sort();
    for (h, c, letter) in all {
        lists[c].push(hex_char(h));
        lists[c].push(letter);
    }
    format!("2!{side}{}!{}", lists[0], lists[1])
}

fn pos_with(rules: Rules, side: char, pieces: &str) -> Position {
    Position::from_sip(&sip(side, pieces), rules).expect("test position is valid")
}

fn pos(side: char, pieces: &str) -> Position {
    pos_with(Rules::Modern, side, pieces)
}

fn legal(p: &Position) -> Vec<Move> {
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    moves
}

/// Canonical strings of the legal moves starting on `from`, sorted.
fn moves_from(p: &Position, from: &str) -> Vec<String> {
    let mut v: Vec<String> = legal(p).into_iter().filter(|m| m.from == hex(from)).map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// `from` + each destination, e.g. `with_origin("e4", &["e5"])` = `["e4e5"]`, sorted.
fn with_origin(from: &str, to: &[&str]) -> Vec<String> {
    let v: Vec<String> = to.iter().map(|t| format!("{from}{t}")).collect();
    sorted(&v.iter().map(String::as_str).collect::<Vec<_>>())
}

fn play(p: &mut Position, text: &str) -> Move {
    let mv = p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    p.make(mv);
    mv
}

fn illegal(e: IllegalMove) -> Result<Move, RulesError> {
    Err(e.into())
}

/// Kings far apart on their own base lines, out of everyone's way.
const KINGS: &str = "wIa1 bIi7";

// ---------------------------------------------------------------------------------------------
// Start position

#[test]
fn start_position_matches_the_reference() {
    let p = Position::new(Rules::Modern);
    assert_eq!(p.to_sip(), START_SIP);
    let v1 = Position::from_sip(START_SIP_V1, Rules::Modern).expect("v1 start");
    assert_eq!(v1, p);
    assert_eq!(p.to_move(), Color::White);
    assert_eq!(p.pieces().count(), 28);
    for color in [Color::White, Color::Black] {
        let count = |k| p.pieces().filter(|(_, q)| q.color == color && q.kind == k).count();
        let counts: Vec<usize> = Kind::ALL.iter().map(|&k| count(k)).collect();
        assert_eq!(counts, [5, 2, 2, 2, 2, 1], "{color}");
    }
    assert_eq!(p.intellector(Color::White), Some(hex("e1")));
    assert_eq!(p.intellector(Color::Black), Some(hex("e7")));
    assert_eq!(p.outcome(), Outcome::InProgress);
    assert_eq!(legal(&p).len(), 35);
}

const START_MOVES_SITE: &str = "AXc7 AXg7 Aa4 Ab2 Ac1~e4 Ad2 Ad5 Af2 Af5 Ag1~e4 Ah2 Ai4 E1:D1 E1:F1 Fd2 Ff2 Lb2 Lb3 \
                                Ld2 Lf2 Lh2 Lh3 a2~b2 a3 c2~b2 c2~d2 c3 e2~d2 e2~f2 e3 g2~f2 g2~h2 g3 i2~h2 i3";

#[test]
fn the_35_start_moves_in_site_notation() {
    let p = Position::new(Rules::Modern);
    let moves = legal(&p);
    let mut written: Vec<String> = moves.iter().map(|&m| p.site_move_string(m, &moves)).collect();
    written.sort();
    let mut expected: Vec<String> = START_MOVES_SITE.split_whitespace().map(String::from).collect();
    expected.sort();
    assert_eq!(written, expected);
    // And each reads back as a distinct legal move: together, all 35.
    let mut parsed: Vec<Move> = expected.iter().map(|s| p.parse_move(s).expect(s)).collect();
    parsed.sort_by_key(|&m| Position::move_index(m));
    parsed.dedup();
    assert_eq!(parsed.len(), 35);
    assert!(parsed.iter().all(|m| moves.contains(m)));
}

// ---------------------------------------------------------------------------------------------
// Per-piece moves

#[test]
fn intellector_steps_to_empty_hexes_only() {
    let p = pos('w', "wIe4 bIi7 wPe5 bPd4 bAf4");
    // e4's neighbours: e5 e3 d4 f4 d3 f3; own Progressor and two enemies block three.
    assert_eq!(moves_from(&p, "e4"), with_origin("e4", &["e3", "d3", "f3"]));
    let alone = pos('w', "wIe4 bIi7");
    assert_eq!(moves_from(&alone, "e4"), with_origin("e4", &["e5", "e3", "d4", "f4", "d3", "f3"]));
}

#[test]
fn swap_is_one_move_from_the_intellector() {
    let mut p = pos('w', "wIe4 wFe5 bIi7");
    let swaps: Vec<Move> = legal(&p).into_iter().filter(|m| m.kind == MoveKind::Swap).collect();
    assert_eq!(swaps, [Move { from: hex("e4"), to: hex("e5"), kind: MoveKind::Swap }]);
    // The Defensor's own moves never include the Intellector's hex.
    assert!(!moves_from(&p, "e5").contains(&"e5e4".to_string()));
    let before = p.clone();
    p.make(swaps[0]);
    assert_eq!(p.piece_at(hex("e5")).map(|q| q.kind), Some(Kind::Intellector));
    assert_eq!(p.piece_at(hex("e4")).map(|q| q.kind), Some(Kind::Defensor));
    assert_eq!(p.intellector(Color::White), Some(hex("e5")));
    assert_eq!(p.hash(), p.compute_hash());
    p.unmake(swaps[0]);
    assert_eq!(p, before);
    // No swap with other own pieces.
    let q = pos('w', "wIe4 wDe5 wLd4 bIi7");
    assert!(legal(&q).iter().all(|m| m.kind != MoveKind::Swap));
}

#[test]
fn dominator_slides_laterally() {
    let p = pos('w', &format!("wDe4 {KINGS}"));
    assert_eq!(moves_from(&p, "e4").len(), 22);
    // Own piece on e6 stops the north ray before it; an enemy on c3 is captured and stops it.
    let q = pos('w', &format!("wDe4 wPe6 bPc3 {KINGS}"));
    let moves = moves_from(&q, "e4");
    assert!(moves.contains(&"e4e5".to_string()));
    assert!(!moves.contains(&"e4e6".to_string()) && !moves.contains(&"e4e7".to_string()));
    assert!(moves.contains(&"e4d3".to_string()) && moves.contains(&"e4c3".to_string()));
    assert!(!moves.contains(&"e4b2".to_string()));
    assert_eq!(moves.len(), 22 - 2 - 2); // e6, e7 gone; b2, a2 behind c3 gone
}

#[test]
fn aggressor_slides_radially_past_the_flanking_hexes() {
    let p = pos('w', &format!("wAe4 {KINGS}"));
    let all = with_origin("e4", &["c4", "a4", "g4", "i4", "d5", "c7", "f5", "g7", "d2", "c1", "f2", "g1"]);
    assert_eq!(moves_from(&p, "e4"), all);
    // e5 and f4 flank the e4–f5 vertex and do not block; an enemy on f5 is captured and
    // stops the ray; an own piece on c4 stops the west ray before it.
    let q = pos('w', &format!("wAe4 bPe5 wPf4 bDf5 wFc4 {KINGS}"));
    let moves = moves_from(&q, "e4");
    assert!(moves.contains(&"e4f5".to_string()) && !moves.contains(&"e4g7".to_string()));
    assert!(!moves.contains(&"e4c4".to_string()) && !moves.contains(&"e4a4".to_string()));
    assert_eq!(moves.len(), 12 - 1 - 2);
}

#[test]
fn defensor_steps_and_captures_one_hex() {
    let p = pos('w', &format!("wFe4 bPe5 wPd4 {KINGS}"));
    assert_eq!(moves_from(&p, "e4"), with_origin("e4", &["e5", "e3", "f4", "d3", "f3"]));
}

#[test]
fn liberator_steps_to_empty_and_jumps_over_anything() {
    let p = pos('w', &format!("wLe4 {KINGS}"));
    let all = with_origin("e4", &["e5", "e3", "d4", "f4", "d3", "f3", "e6", "e2", "c5", "g5", "c3", "g3"]);
    assert_eq!(moves_from(&p, "e4"), all);
    // Enemies next to it cannot be captured; the jump clears own and enemy pieces, lands on an
    // empty hex or captures, but never lands on an own piece.
    let q = pos('w', &format!("wLe4 bPe5 wPe3 bDe6 wFe2 {KINGS}"));
    let moves = moves_from(&q, "e4");
    assert!(!moves.contains(&"e4e5".to_string()) && !moves.contains(&"e4e3".to_string()));
    assert!(moves.contains(&"e4e6".to_string()), "jumps over the enemy and captures");
    assert!(!moves.contains(&"e4e2".to_string()), "own piece on the landing hex");
    assert_eq!(moves.len(), 12 - 3);
}

#[test]
fn classic_liberator_only_jumps() {
    let p = pos_with(Rules::Classic, 'w', &format!("wLe4 {KINGS}"));
    assert_eq!(moves_from(&p, "e4"), with_origin("e4", &["e6", "e2", "c5", "g5", "c3", "g3"]));
}

#[test]
fn progressor_moves_and_captures_forward_only() {
    let p = pos('w', &format!("wPe3 bPf3 wPd3 {KINGS}"));
    assert_eq!(moves_from(&p, "e3"), with_origin("e3", &["e4", "f3"]));
    let q = pos('b', &format!("bPe5 wPe4 {KINGS}"));
    // Black moves down: e4 (capture), d4, f4.
    assert_eq!(moves_from(&q, "e5"), with_origin("e5", &["e4", "d4", "f4"]));
    let edge = pos('w', &format!("wPa2 {KINGS}"));
    assert_eq!(moves_from(&edge, "a2"), with_origin("a2", &["a3", "b2"]));
}

#[test]
fn progressor_promotes_into_any_of_four_types() {
    let p = pos('w', &format!("wPe6 {KINGS}"));
    assert_eq!(moves_from(&p, "e6"), sorted(&["e6e7=D", "e6e7=A", "e6e7=F", "e6e7=L", "e6d6", "e6f6"]));
    let mut q = p.clone();
    let mv = play(&mut q, "e6e7=D");
    assert_eq!(mv.kind, MoveKind::Promotion(Kind::Dominator));
    assert_eq!(q.piece_at(hex("e7")).map(|x| x.kind), Some(Kind::Dominator));
    assert_eq!(q.quiet_plies(), 0);
    q.unmake(mv);
    assert_eq!(q, p);
}

/// White with its full set of promotable pieces, so Classic counts nothing as captured.
const WHITE_FULL: &str = "wDa1 wDi1 wAc1 wAg1 wFb1 wFh1 wLd1 wLf1 wIe1";

#[test]
fn classic_promotion_needs_a_captured_type() {
    // Nothing captured: the Progressor cannot step onto the base line at all.
    let none = pos_with(Rules::Classic, 'w', &format!("{WHITE_FULL} wPe6 bIi7 bPa6"));
    assert_eq!(moves_from(&none, "e6"), sorted(&["e6d6", "e6f6"]));
    // Not even to capture the Intellector there (Modern allows it and wins).
    let king = format!("{WHITE_FULL} wPe6 bIe7");
    assert_eq!(moves_from(&pos_with(Rules::Classic, 'w', &king), "e6"), sorted(&["e6d6", "e6f6"]));
    let mut modern = pos('w', &king);
    assert_eq!(moves_from(&modern, "e6").len(), 6);
    play(&mut modern, "e6e7=L");
    assert_eq!(modern.outcome(), Outcome::Win(Color::White));
    // Black captures a white Dominator: White may now promote into a Dominator only.
    let mut p = pos_with(Rules::Classic, 'b', &format!("{WHITE_FULL} wPe6 bIi7 bDa4"));
    assert_eq!(p.captured_types(Color::White).count(), 0);
    let before = p.clone();
    let capture = play(&mut p, "a4a1"); // the Dominator slides down the a-file onto a1
    assert_eq!(p.captured_types(Color::White).collect::<Vec<_>>(), [Kind::Dominator]);
    assert_eq!(moves_from(&p, "e6"), sorted(&["e6e7=D", "e6d6", "e6f6"]));
    assert_eq!(p.hash(), p.compute_hash());
    p.unmake(capture);
    assert_eq!(p, before);
    assert_eq!(p.captured_types(Color::White).count(), 0);
}

#[test]
fn classic_captured_types_of_a_loaded_position_follow_the_material() {
    let p = pos_with(Rules::Classic, 'w', "wIe1 wDa1 wDi1 wAc1 wPe6 bIi7");
    let types: Vec<Kind> = p.captured_types(Color::White).collect();
    assert_eq!(types, [Kind::Aggressor, Kind::Defensor, Kind::Liberator]);
    assert_eq!(moves_from(&p, "e6"), sorted(&["e6e7=A", "e6e7=F", "e6e7=L", "e6d6", "e6f6"]));
}

// ---------------------------------------------------------------------------------------------
// Aura

#[test]
fn aura_capture_is_a_separate_move() {
    // The Defensor on e5 starts next to its Intellector on e4 and captures an Aggressor.
    let mut p = pos('w', "wIe4 wFe5 bAe6 bIi7");
    assert_eq!(moves_from(&p, "e5"), with_origin("e5", &["e6", "e6=A", "d5", "f5", "d4", "f4"]));
    let before = p.clone();
    let mv = play(&mut p, "e5e6=A");
    assert_eq!(mv.kind, MoveKind::Aura(Kind::Aggressor));
    assert_eq!(p.piece_at(hex("e6")).map(|x| (x.color, x.kind)), Some((Color::White, Kind::Aggressor)));
    assert_eq!(p.hash(), p.compute_hash());
    p.unmake(mv);
    assert_eq!(p, before);
    assert_eq!(p.piece_at(hex("e5")).map(|x| x.kind), Some(Kind::Defensor));
}

#[test]
fn aura_works_for_dominator_aggressor_and_liberator_too() {
    // Dominator on d4 (next to e4) slides to capture a Liberator on d6.
    let p = pos('w', "wIe4 wDd4 bLd6 bIi7");
    assert!(moves_from(&p, "d4").contains(&"d4d6=L".to_string()));
    // Aggressor on e3 (next to e4) captures east on g3.
    let q = pos('w', "wIe4 wAe3 bFg3 bIi7");
    assert!(moves_from(&q, "e3").contains(&"e3g3=F".to_string()));
    // Liberator on f4 jumps to h5 and may become a Dominator.
    let r = pos('w', "wIe4 wLf4 bDh5 bIi7");
    assert!(moves_from(&r, "f4").contains(&"f4h5=D".to_string()));
}

#[test]
fn aura_can_turn_a_piece_into_a_progressor() {
    let mut p = pos('w', "wIe4 wFe5 bPe6 bIi7");
    assert!(moves_from(&p, "e5").contains(&"e5e6=P".to_string()));
    play(&mut p, "e5e6=P");
    play(&mut p, "i7h6");
    // Now a White Progressor on e6: it promotes next.
    assert_eq!(moves_from(&p, "e6"), sorted(&["e6e7=D", "e6e7=A", "e6e7=F", "e6e7=L", "e6d6", "e6f6"]));
}

#[test]
fn no_aura_for_progressors_intellector_captures_same_types_or_distant_pieces() {
    // A Progressor next to its Intellector captures a Defensor: plain capture only.
    let p = pos('w', "wIe4 wPe5 bFe6 bIi7");
    assert_eq!(moves_from(&p, "e5"), with_origin("e5", &["e6", "d5", "f5"]));
    // Capturing the Intellector never transforms.
    let q = pos('w', "wIe4 wFe5 bIe6");
    assert!(!moves_from(&q, "e5").iter().any(|m| m.contains('=')));
    // Same type: a Defensor capturing a Defensor.
    let r = pos('w', "wIe4 wFe5 bFe6 bIi7");
    assert!(!moves_from(&r, "e5").iter().any(|m| m.contains('=')));
    // Not next to the Intellector at the start of the move (even though e5 is next to e4).
    let s = pos('w', "wIe4 wDe6 bAe5 bIi7");
    assert!(!moves_from(&s, "e6").iter().any(|m| m.contains('=')));
    let t = pos('w', "wIe3 wFe5 bAe6 bIi7");
    assert!(!moves_from(&t, "e5").iter().any(|m| m.contains('=')));
    // The Intellector itself never captures.
    let u = pos('w', "wIe4 bAe5 bIi7");
    assert!(!moves_from(&u, "e4").contains(&"e4e5".to_string()));
}

// ---------------------------------------------------------------------------------------------
// Game end

#[test]
fn capturing_the_intellector_wins_and_ends_the_game() {
    let mut p = pos('w', "wIe1 wDe4 bIe6");
    play(&mut p, "e4e6");
    assert_eq!(p.intellector(Color::Black), None);
    assert_eq!(p.outcome(), Outcome::Win(Color::White));
    assert!(legal(&p).is_empty());
    assert_eq!(p.hash(), p.compute_hash());
}

#[test]
fn breakthrough_by_step_and_by_swap() {
    let mut p = pos('w', "wIe6 bIi7 bPa6");
    assert_eq!(p.outcome(), Outcome::InProgress);
    play(&mut p, "e6e7");
    assert_eq!(p.outcome(), Outcome::Win(Color::White));
    assert!(legal(&p).is_empty());
    // d6's neighbours include c7 on Black's base line: swapping with a Defensor there wins.
    let mut q = pos('w', "wId6 wFc7 bIi6 bPa6");
    let mv = play(&mut q, "D6:C7");
    assert_eq!(mv.kind, MoveKind::Swap);
    assert_eq!(q.outcome(), Outcome::Win(Color::White));
    // Black breaks through on White's base line.
    let mut r = pos('b', "wIi2 bIe2 wPa2");
    play(&mut r, "e2e1");
    assert_eq!(r.outcome(), Outcome::Win(Color::Black));
    // Standing on the odd-file hexes of the last row is no breakthrough.
    let mut s = pos('w', "wIe6 bIi7 bPa6");
    play(&mut s, "e6d6");
    assert_eq!(s.outcome(), Outcome::InProgress);
}

#[test]
fn threefold_repetition_draws() {
    let mut p = Position::new(Rules::Modern);
    let cycle = ["b1b2", "b6b5", "b2b1", "b5b6"];
    let mut made = Vec::new();
    for round in 0..2 {
        for (i, text) in cycle.iter().enumerate() {
            assert_eq!(p.outcome(), Outcome::InProgress, "round {round} ply {i}");
            made.push(play(&mut p, text));
        }
        assert_eq!(p.repetitions() as usize, round + 1);
    }
    // The start position now stands for the third time (the initial one counts).
    assert_eq!(p.outcome(), Outcome::Draw);
    assert!(legal(&p).is_empty());
    let last = made.pop().expect("eight moves");
    p.unmake(last);
    assert_eq!(p.outcome(), Outcome::InProgress);
    assert_eq!(p.repetitions(), 1, "this position stood after ply 3 and now after ply 7");
}

#[test]
fn a_repeated_arrangement_with_the_other_side_to_move_is_another_position() {
    // White's Dominator goes a1-a2-a3-a1 in three plies while Black shuffles b6-b5-b6: the same
    // arrangement comes back with the other side to move, which is no repetition.
    let mut p = pos('w', "wIe1 wDa1 bIe7 bLb6");
    let start = p.hash();
    for text in ["a1a3", "b6b5", "a3a2", "b5b6", "a2a1"] {
        play(&mut p, text);
    }
    // Same arrangement as the start, but Black to move.
    assert_eq!(p.repetitions(), 0);
    assert_ne!(p.hash(), start);
}

#[test]
fn sixty_quiet_plies_draw() {
    // Dominators wander without capturing or repeating; after 60 plies it is a draw.
    let mut p = pos('w', "wIa1 wDe3 bIi7 bDe5");
    wander(&mut p, 59);
    assert_eq!(p.quiet_plies(), 59);
    wander(&mut p, 1);
    assert_eq!(p.quiet_plies(), 60);
    assert_eq!(p.outcome(), Outcome::Draw);
    assert!(legal(&p).is_empty());
}

#[test]
fn progressor_moves_and_captures_reset_the_quiet_count_but_swaps_do_not() {
    let mut p = pos('w', "wIe1 wFd1 wPa2 wDi1 bIe7 bLb6 bPi6");
    play(&mut p, "E1:D1");
    play(&mut p, "b6b5");
    assert_eq!(p.quiet_plies(), 2);
    play(&mut p, "a2a3");
    assert_eq!(p.quiet_plies(), 0);
    play(&mut p, "b5b6");
    play(&mut p, "i1i5"); // Dominator up the i-file
    assert_eq!(p.quiet_plies(), 2);
    play(&mut p, "i6i5"); // Black's Progressor captures it
    assert_eq!(p.quiet_plies(), 0);
}

/// Plays `plies` quiet Dominator moves, never reaching a position seen before.
fn wander(p: &mut Position, plies: usize) {
    let mut seen = std::collections::HashSet::new();
    seen.insert(p.hash());
    for ply in 0..plies {
        assert_eq!(p.outcome(), Outcome::InProgress, "ply {ply}");
        let fresh = |m: &Move| {
            let mut q = p.clone();
            q.make(*m);
            p.piece_at(m.from).map(|x| x.kind) == Some(Kind::Dominator)
                && !p.is_capture(*m)
                && !seen.contains(&q.hash())
        };
        let mv = legal(p).into_iter().find(fresh).expect("a fresh quiet Dominator move");
        p.make(mv);
        seen.insert(p.hash());
    }
}

#[test]
fn a_capture_on_the_sixtieth_ply_is_no_draw() {
    // Black starts, so the 60th ply is White's. White's Liberator on a4 can jump onto a6 at
    // any time; only the Dominators move until then.
    let mut p = pos('b', "wIa1 wDe3 wLa4 bIi7 bDe5 bPa6");
    wander(&mut p, 59);
    assert_eq!(p.quiet_plies(), 59);
    let mut quiet = p.clone();
    wander(&mut quiet, 1);
    assert_eq!(quiet.outcome(), Outcome::Draw);
    play(&mut p, "a4a6");
    assert_eq!(p.quiet_plies(), 0);
    assert_eq!(p.outcome(), Outcome::InProgress);
}

#[test]
fn a_side_without_legal_moves_loses() {
    // Black's lone Intellector on a7 is boxed in by White pieces on a6 and b6.
    let p = pos('b', "wIe1 wPa6 wFb6 bIa7");
    assert!(legal(&p).is_empty());
    assert_eq!(p.outcome(), Outcome::Win(Color::White));
    // Reached by a move: White closes the box.
    let mut q = pos('w', "wIe1 wPa6 wFc6 bIa7");
    assert_eq!(q.outcome(), Outcome::InProgress);
    play(&mut q, "c6b6");
    assert_eq!(q.outcome(), Outcome::Win(Color::White));
    let mut game = IntellectorGame::from_sip(&q.to_sip(), Rules::Modern).expect("valid");
    assert_eq!(game.state_string(), "WhiteWins");
    assert_eq!(game.valid_moves_string(), "");
    assert_eq!(game.play("a7b6"), Err(RulesError::GameOver));
}

// ---------------------------------------------------------------------------------------------
// Notation

fn for_each_node(p: &mut Position, depth: usize, f: &mut dyn FnMut(&Position, &[Move])) {
    let moves = legal(p);
    f(p, &moves);
    if depth > 1 {
        for &m in &moves {
            p.make(m);
            for_each_node(p, depth - 1, f);
            p.unmake(m);
        }
    }
}

const SUITE_SIPS: [&str; 5] = [
    "2!wbggiirkrlrtouexr0n4e5g6o!CeFoHnJrKrLrPeUoWrdgeivi1r",
    "2!bbgfgkrpiurvrwrxrzn0e1i2o4e6o!AoBgCnDiEoFiGeHeJrKrMrNrPrsg",
    "2!bRolrmrrrtrun1i4e5e!AoDgFiGnHeJrTrVrZrcedieo",
    "2!bPrarhrnrrovozn0i3g5e!DgGnIoLeOgUrbideirjiur",
    "2!bQieeirmrnnpiurxrze2o6o!CnDgEoHeKeLrNiSiTrVrbofrtr",
];

#[test]
fn every_move_reads_back_from_both_notations() {
    let mut positions = vec![Position::new(Rules::Modern)];
    positions.extend(SUITE_SIPS.iter().map(|s| Position::from_sip(s, Rules::Modern).expect("suite SIP")));
    positions.push(Position::from_sip(SUITE_SIPS[3], Rules::Classic).expect("suite SIP"));
    let mut checked = 0;
    for p in &mut positions {
        for_each_node(p, 2, &mut |q, moves| {
            for &m in moves {
                let canonical = q.move_string(m);
                assert_eq!(q.parse_move(&canonical), Ok(m), "{canonical} in {q:?}");
                assert_eq!(q.parse_move(&canonical.to_uppercase()), Ok(m), "{canonical} upper case");
                let site = q.site_move_string(m, moves);
                assert_eq!(q.parse_move(&site), Ok(m), "{site} in {q:?}");
                let mark = if q.to_move() == Color::White { "⬡" } else { "⬢" };
                assert_eq!(q.parse_move(&format!("{mark}{site}")), Ok(m), "{mark}{site}");
                checked += 1;
            }
        });
    }
    assert!(checked > 5_000, "{checked}");
}

#[test]
fn site_notation_examples() {
    let mut p = Position::new(Rules::Modern);
    let moves = legal(&p);
    let find = |s: &str| moves.iter().copied().find(|m| m.to_string() == s).expect(s);
    assert_eq!(p.site_move_string(find("g1c7"), &moves), "AXc7");
    assert_eq!(p.site_move_string(find("e1d1"), &moves), "E1:D1");
    assert_eq!(p.parse_move("axg7"), Ok(find("c1g7")));
    assert_eq!(p.parse_move("e1:d1"), Ok(find("e1d1")));
    assert_eq!(p.parse_move("d1e1"), Ok(find("e1d1")), "swap written Defensor first");
    assert_eq!(p.parse_move("ac1~e4"), Ok(find("c1e4")));
    assert_eq!(p.parse_move("  e3 "), Ok(find("e2e3")));
    play(&mut p, "AXg7");
    let moves = legal(&p);
    let aura = moves.iter().copied().find(|m| m.to_string() == "f6g7=A").expect("aura move");
    assert_eq!(p.site_move_string(aura, &moves), "FXg7=A");
    assert_eq!(p.parse_move("FXg7=A"), Ok(aura));
    assert_eq!(p.parse_move("fxg7=a"), Ok(aura));
    assert_eq!(p.parse_move("FXg7").map(|m| m.kind), Ok(MoveKind::Plain));
    // A Progressor capture that promotes, and an Intellector capture.
    let q = pos('w', "wIa1 wPd6 bFc7 bIe7");
    let moves = legal(&q);
    let promo = moves.iter().copied().find(|m| m.to_string() == "d6c7=D").expect("promotion");
    assert_eq!(q.site_move_string(promo, &moves), "Xc7=D");
    let fatum = moves.iter().copied().find(|m| m.to_string() == "d6e7=A").expect("promotion on e7");
    assert_eq!(q.site_move_string(fatum, &moves), "Xe7=A#");
    assert_eq!(q.parse_move("Xe7=A#"), Ok(fatum));
}

#[test]
fn notation_errors_say_why() {
    let p = Position::new(Rules::Modern);
    for bad in ["", "zz", "e2e", "e2e3x", "b7b6", "j1j2", "e2-e3", "Pe3", "e2e3=I", "e2e3=Q", "Xe3~", "é3", "⬡"] {
        assert_eq!(p.parse_move(bad), Err(RulesError::UnparsableMove(bad.to_string())), "{bad:?}");
    }
    assert_eq!(p.parse_move("e2e5"), illegal(IllegalMove::CantMoveThere));
    assert_eq!(p.parse_move("e6e5"), illegal(IllegalMove::NotYourTurn));
    assert_eq!(p.parse_move("⬢e3"), illegal(IllegalMove::NotYourTurn));
    assert_eq!(p.parse_move("e4e5"), illegal(IllegalMove::NoPieceThere));
    assert_eq!(p.parse_move("Ae4"), illegal(IllegalMove::AmbiguousMove));
    assert_eq!(p.parse_move("e2~e3"), p.parse_move("e2e3"));
    assert_eq!(p.parse_move("e2Xe3"), illegal(IllegalMove::CantMoveThere));
    assert_eq!(p.parse_move("Fe3"), illegal(IllegalMove::CantMoveThere));
    assert_eq!(p.parse_move("g1c7=A"), illegal(IllegalMove::CantTransform));
    let q = pos('w', &format!("wPe6 {KINGS}"));
    assert_eq!(q.parse_move("e6e7"), illegal(IllegalMove::PromotionRequired));
    assert_eq!(q.parse_move("e7=P"), illegal(IllegalMove::CantTransform));
    assert_eq!(q.parse_move("e7=D").map(|m| m.kind), Ok(MoveKind::Promotion(Kind::Dominator)));
    let over = pos('w', "wIe3 bIe1"); // Black has broken through
    assert_eq!(over.parse_move("e3e4"), Err(RulesError::GameOver));
    // A Progressor "move" to a hex no Progressor reaches.
    assert_eq!(p.parse_move("e2"), illegal(IllegalMove::CantMoveThere));
}

// ---------------------------------------------------------------------------------------------
// SIP

#[test]
fn sip_round_trips() {
    for s in SUITE_SIPS.iter().chain([&START_SIP]) {
        let p = Position::from_sip(s, Rules::Modern).expect("valid SIP");
        assert_eq!(p.to_sip(), *s);
    }
    // After moves, the exported position reads back as the same arrangement.
    let mut p = Position::new(Rules::Modern);
    for text in ["AXg7", "FXg7=A", "e2e3", "E7:D6"] {
        play(&mut p, text);
    }
    let q = Position::from_sip(&p.to_sip(), Rules::Modern).expect("exported SIP");
    assert_eq!(q.pieces().collect::<Vec<_>>(), p.pieces().collect::<Vec<_>>());
    assert_eq!(q.to_move(), p.to_move());
    // Pieces in any order are accepted and written back sorted.
    assert_eq!(Position::from_sip("2!w4ntr!Cn", Rules::Modern).map(|p| p.to_sip()), Ok("2!wtr4n!Cn".to_string()));
}

#[test]
fn invalid_sips_are_rejected() {
    let bad = [
        "",
        "2!",
        "2!x4n!Cn",    // side
        "2!w4n",       // no Black list
        "2!w4n!Cn!Dn", // three lists
        "2!w4!Cn",     // odd length
        "2!w4x!Cn",    // piece letter
        "2!w7n!Cn",    // hex character
        "2!w4nAn!Cn",  // two White Intellectors
        "2!w4rAr!Cr",  // no Intellector at all
        "2!w4n4r!Cn",  // two pieces on e1
        "2!w4nCr!Cn",  // two pieces on e7 across colours
        "3!w4n!Cn",    // unknown version
    ];
    for s in bad {
        assert!(matches!(Position::from_sip(s, Rules::Modern), Err(RulesError::InvalidPosition(_))), "{s:?}");
    }
    // White's Intellector on c7 (Black's base line) and Black's on a1 (White's): both won.
    assert!(Position::from_sip("2!wBn!2n", Rules::Modern).is_err());
    // One side without an Intellector is a finished game, which is allowed.
    let done = Position::from_sip("2!b4n!Ar", Rules::Modern).expect("Black has lost its Intellector");
    assert_eq!(done.outcome(), Outcome::Win(Color::White));
}

// ---------------------------------------------------------------------------------------------
// Game record and GameStrings

#[test]
fn game_strings_track_state_turn_and_moves() {
    let mut game = IntellectorGame::new(Rules::Modern);
    assert_eq!(game.game_string(), "Intellector;NotStarted;White[1]");
    game.play("e3").expect("legal");
    assert_eq!(game.game_string(), "Intellector;InProgress;Black[1];e2e3");
    game.play("⬢AXc1").expect("legal");
    assert_eq!(game.game_string(), "Intellector;InProgress;White[2];e2e3;g7c1");
    assert_eq!(game.move_strings(), ["e2e3", "g7c1"]);
    let again = IntellectorGame::parse(&game.game_string(), Rules::Modern).expect("round trip");
    assert_eq!(again.game_string(), game.game_string());
    assert_eq!(again.position(), game.position());
    // State and turn fields are recomputed, not trusted; site notation is stored canonically.
    let loose = IntellectorGame::parse("Intellector;BlackWins;White[9];e3;AXc1", Rules::Modern).expect("parses");
    assert_eq!(loose.game_string(), game.game_string());
    assert_eq!(game.valid_moves_string().split(';').count(), legal(game.position()).len());
}

#[test]
fn a_finished_game_reports_its_result() {
    let mut game = IntellectorGame::new(Rules::Modern);
    for m in ["AXg7", "b6b5", "g7e7"] {
        game.play(m).expect(m);
    }
    assert_eq!(game.state_string(), "WhiteWins");
    assert_eq!(game.game_string(), "Intellector;WhiteWins;Black[2];c1g7;b6b5;g7e7");
    assert_eq!(game.valid_moves_string(), "");
    let before = game.game_string();
    assert_eq!(game.play("e6e5"), Err(RulesError::GameOver));
    assert_eq!(game.game_string(), before);
    game.undo(1);
    assert_eq!(game.state_string(), "InProgress");
}

#[test]
fn custom_start_positions_round_trip() {
    // White Intellector e1 (4) and Progressor e2 (v), Black Intellector e7 (C) and
    // Progressor e6 (L); Black moves first.
    let sip = "2!bvr4n!CnLr";
    let mut game = IntellectorGame::parse(&format!("Intellector[{sip}]"), Rules::Modern).expect("custom start");
    assert_eq!(game.game_string(), format!("Intellector[{sip}];NotStarted;Black[1]"));
    game.play("e6e5").expect("Black moves first");
    assert_eq!(game.game_string(), format!("Intellector[{sip}];InProgress;White[1];e6e5"));
    game.play("e2e3").expect("then White");
    assert_eq!(game.game_string(), format!("Intellector[{sip}];InProgress;Black[2];e6e5;e2e3"));
    let again = IntellectorGame::parse(&game.game_string(), Rules::Modern).expect("round trip");
    assert_eq!(again.game_string(), game.game_string());
    assert_eq!(again.to_sip(), game.to_sip());
    // A v1 SIP in the type field is written back as v2.
    let v1 = IntellectorGame::parse(&format!("Intellector[{START_SIP_V1}]"), Rules::Modern).expect("v1");
    assert_eq!(v1.game_string(), format!("Intellector[{START_SIP}];NotStarted;White[1]"));
}

#[test]
fn game_string_errors_name_the_field() {
    let parse = |s: &str| IntellectorGame::parse(s, Rules::Modern).map(|g| g.game_string());
    assert_eq!(parse("Hive;NotStarted;White[1]"), Err(RulesError::UnparsableField("Hive".into())));
    assert_eq!(parse("Intellector[2!w]"), Err(RulesError::UnparsableField("Intellector[2!w]".into())));
    assert_eq!(parse("Intellector[2!w4n!Cn"), Err(RulesError::UnparsableField("Intellector[2!w4n!Cn".into())));
    assert_eq!(parse("Intellector;InProgress;Black[1];e2e3;zz"), Err(RulesError::UnparsableField("zz".into())));
    assert_eq!(parse("Intellector;InProgress;Black[1];e2e3;e2e4"), Err(RulesError::UnplayableField("e2e4".into())));
    assert_eq!(
        parse("Intellector;InProgress;Black[1];AXg7;b6b5;g7e7;e6e5"),
        Err(RulesError::UnplayableField("e6e5".into()))
    );
    assert_eq!(parse("intellector"), Ok("Intellector;NotStarted;White[1]".into()));
}

#[test]
fn errors_leave_the_game_unchanged() {
    let mut game = IntellectorGame::new(Rules::Modern);
    game.play("e2e3").expect("legal");
    let before = (game.game_string(), game.position().clone());
    for bad in ["", "e2e3", "zz", "e7e6", "e3e2", "Ae4", "b6b5=D", "⬡e5"] {
        assert!(game.play(bad).is_err(), "{bad}");
        assert_eq!((game.game_string(), game.position().clone()), before, "{bad}");
    }
    assert_eq!(game.play("⬡e5"), Err(IllegalMove::NotYourTurn.into()));
}

#[test]
fn undo_takes_moves_back() {
    let mut game = IntellectorGame::new(Rules::Modern);
    let start = game.position().clone();
    for m in ["e3", "e5", "E1:D1", "AXc1"] {
        game.play(m).expect(m);
    }
    let after_two = {
        let mut g = IntellectorGame::new(Rules::Modern);
        g.play("e3").expect("legal");
        g.play("e5").expect("legal");
        g.position().clone()
    };
    game.undo(2);
    assert_eq!(game.position(), &after_two);
    assert_eq!(game.moves().len(), 2);
    game.undo(10);
    assert_eq!(game.position(), &start);
    assert_eq!(game.game_string(), "Intellector;NotStarted;White[1]");
}

#[test]
fn play_move_records_the_canonical_string() {
    let mut game = IntellectorGame::new(Rules::Classic);
    let mv = game.legal_moves()[0];
    let s = game.move_string(mv);
    game.play_move(mv);
    assert_eq!(game.move_strings(), [s]);
    assert_eq!(game.rules(), Rules::Classic);
    assert_eq!(game.to_sip(), game.position().to_sip());
}

// ---------------------------------------------------------------------------------------------
// Evaluation and the Game trait

#[test]
fn evaluation_is_symmetric_and_rewards_material() {
    let mut p = Position::new(Rules::Modern);
    assert_eq!(p.evaluate(), 0);
    // After 1. AXg7 White is an Aggressor up and threatens the Intellector; Black to move.
    play(&mut p, "AXg7");
    assert!(p.evaluate() < -150, "{}", p.evaluate());
    // Black to move can take the Intellector straight away: all but won.
    let q = pos('b', "wIe1 wDe4 bIe7 bDe2");
    assert!(q.evaluate() > 3000);
    // Mirror positions score the same for the side to move.
    let a = pos('w', "wIe1 wPe4 bIe7");
    let b = pos('b', "bIe7 bPe4 wIe1");
    assert_eq!(a.evaluate(), b.evaluate());
}

#[test]
fn tactical_moves_are_captures_and_promotions() {
    let p = pos('w', "wIa1 wPe6 wDc3 bPc5 bIi7");
    for m in legal(&p) {
        let expected = m.to_string().contains('=') || m.to_string() == "c3c5";
        assert_eq!(p.is_tactical(m), expected, "{m}");
    }
}

#[test]
fn arbitrary_text_never_panics() {
    // A small xorshift generator over an alphabet of notation characters, digits, separators
    // and multi-byte characters.
    let alphabet: Vec<char> = "abcdefghijAXDFLIPxX~:=#!;[]2wb0167 ⬡⬢éIntellector".chars().collect();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut game = IntellectorGame::new(Rules::Modern);
    for _ in 0..20_000 {
        let len = (next() % 12) as usize;
        let text: String = (0..len).map(|_| alphabet[(next() % alphabet.len() as u64) as usize]).collect();
        let _ = game.play(&text);
        let _ = Position::from_sip(&text, Rules::Classic);
        let _ = Position::from_sip(&format!("2!{text}"), Rules::Modern);
        let _ = IntellectorGame::parse(&text, Rules::Modern);
        let _ = IntellectorGame::parse(&format!("Intellector[{text}]"), Rules::Modern);
        if game.position().outcome().is_over() {
            game = IntellectorGame::new(Rules::Modern);
        }
    }
}
