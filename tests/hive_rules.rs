//! Hive rules checked against data in `positions/`: move lists of conformance positions,
//! illegal moves with the reference's exact reasons, notation, hashing and make/unmake.

use comb::error::RulesError;
use comb::game::{Game, Outcome};
use comb::hive::{GameType, Hive, HiveGame, Move};
use std::collections::BTreeSet;

fn data(name: &str) -> String {
    std::fs::read_to_string(format!("{}/positions/{name}", env!("CARGO_MANIFEST_DIR"))).expect("positions file")
}

fn set(list: &str) -> BTreeSet<String> {
    list.split(';').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
}

#[test]
fn conformance_positions() {
    let text = data("hive-moves.txt");
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut checked = 0;
    let mut i = 0;
    while i < lines.len() {
        let Some(name) = lines[i].strip_prefix("# ") else {
            i += 1;
            continue;
        };
        // Header comments are "# " lines not followed by a GameString.
        if i + 2 >= lines.len() || lines[i + 1].starts_with('#') {
            i += 1;
            continue;
        }
        let (game_string, expectation) = (lines[i + 1], lines[i + 2]);
        i += 3;
        let mut game = HiveGame::parse(game_string).unwrap_or_else(|e| panic!("{name}: {e}"));
        let moves = game.legal_moves();
        let strings: Vec<String> = moves.iter().map(|&m| game.move_string(m)).collect();
        let (kind, value) = expectation.split_once(':').expect("expectation has a colon");
        match kind {
            "moves" => {
                assert_eq!(strings.len(), set(value).len(), "{name}: duplicate or missing moves {strings:?}");
                assert_eq!(strings.iter().cloned().collect::<BTreeSet<_>>(), set(value), "{name}");
            }
            "count" => assert_eq!(strings.len(), value.trim().parse::<usize>().unwrap(), "{name}"),
            "state" => assert_eq!(game.state_string(), value.trim(), "{name}"),
            piece if piece.starts_with("piece ") => {
                let p = &piece[6..];
                let mine: BTreeSet<String> =
                    strings.iter().filter(|s| s.split(' ').next() == Some(p)).cloned().collect();
                assert_eq!(mine, set(value), "{name}");
            }
            other => panic!("unknown expectation {other}"),
        }
        // The canonical strings name exactly these moves, and nothing is listed twice.
        assert_eq!(strings.iter().collect::<BTreeSet<_>>().len(), strings.len(), "{name}: duplicate move strings");
        for s in &strings {
            let mut copy = game.clone();
            copy.play(s).unwrap_or_else(|e| panic!("{name}: {s}: {e}"));
        }
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} cases read");
}

#[test]
fn illegal_moves_give_the_reference_reason() {
    let text = data("hive-invalid-moves.txt");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [game_string, mv, message] = fields[..] else { panic!("bad line {line}") };
        let mut game = HiveGame::parse(game_string).unwrap_or_else(|e| panic!("{game_string}: {e}"));
        let before = game.game_string();
        let hash = game.hive().hash();
        let err = game.play(mv).expect_err(line);
        assert!(err.is_invalid_move(), "{line}");
        assert_eq!(err.to_string(), message, "{line}");
        assert_eq!(game.game_string(), before);
        assert_eq!(game.hive().hash(), hash);
        checked += 1;
    }
    assert!(checked >= 20);
}

#[test]
fn unparsable_moves_and_game_strings() {
    let mut game = HiveGame::new(GameType::BASE);
    assert_eq!(game.play("wB1-wA1").unwrap_err().to_string(), "Unable to parse move \"wB1-wA1\".");
    assert_eq!(game.play("wQ1").unwrap_err(), RulesError::UnparsableMove("wQ1".into()));
    assert_eq!(
        HiveGame::parse("Base+LPM;NotStarted;White[1]").unwrap_err().to_string(),
        "Unable to parse 'Base+LPM' in GameString. (Parameter 'gameStr')"
    );
    assert_eq!(
        HiveGame::parse("Base;InProgress;White[2];wS1;").unwrap_err().to_string(),
        "Unable to parse '' in GameString. (Parameter 'gameStr')"
    );
    assert_eq!(
        HiveGame::parse("Base;InProgress;White[2];wS1;bQ wS1-").unwrap_err().to_string(),
        "Unable to play 'bQ wS1-' in GameString. (Parameter 'gameStr')"
    );
    assert_eq!(
        HiveGame::parse("Base;InProgress;White[2];wS1;bM wS1-").unwrap_err().to_string(),
        "Unable to play 'bM wS1-' in GameString. (Parameter 'gameStr')"
    );
}

#[test]
fn game_strings_are_recomputed_and_keep_the_sent_notation() {
    // State and turn fields are ignored and recomputed; moves are echoed as received (normalised).
    let game = HiveGame::parse("Base;NotStarted;Black[9];wS1;  bG1   -WS1 ;wA1 wS1/;bG2 /bG1").unwrap();
    assert_eq!(game.game_string(), "Base;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/;bG2 /bG1");
    let game = HiveGame::parse("Base;InProgress;White[1]").unwrap();
    assert_eq!(game.game_string(), "Base;NotStarted;White[1]");
    // A reference to the moving piece itself is resolved where it stands (nokamute's style).
    let mut game = HiveGame::parse("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-").unwrap();
    game.play("wQ wQ/").unwrap();
    assert_eq!(game.game_string(), "Base;InProgress;Black[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wQ wQ/");
    // `play_canonical` (what the tournament referee records) writes Mzinga's form instead.
    let mut game = HiveGame::parse("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-").unwrap();
    assert_eq!(game.play_canonical(" WQ  wq/ "), Ok("wQ \\wS1"));
    assert_eq!(game.play_canonical("bQ ??"), Err(RulesError::UnparsableMove("bQ ??".to_string())));
    assert_eq!(game.game_string(), "Base;InProgress;Black[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wQ \\wS1");
    // Turn numbers are computed from the plies also after the game ended.
    let won = "Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1";
    let mut game = HiveGame::parse(won).unwrap();
    assert_eq!(game.game_string(), won);
    assert_eq!(game.play("pass"), Err(RulesError::GameOver));
    assert!(game.legal_moves().is_empty());
}

#[test]
fn canonical_strings_round_trip_through_the_parser() {
    // Every legal move's canonical string, played, gives back the same move (random games).
    let mut rng = 0x1234_5678_9abc_def0u64;
    for game_type in GameType::all() {
        let mut game = HiveGame::new(game_type);
        for _ in 0..120 {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            for &mv in &moves {
                let s = game.move_string(mv);
                let mut copy = game.clone();
                copy.play(&s).unwrap();
                assert_eq!(copy.moves().last(), Some(&mv), "{s} in {}", game.game_string());
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            game.play_move(moves[(rng % moves.len() as u64) as usize]);
        }
    }
}

#[test]
fn hash_and_state_survive_make_unmake() {
    // A hash-checking perft: at every node the incremental hash equals a fresh one, and
    // make/unmake restores the exact position.
    let mid = "Base+MLP;InProgress;White[11];wM;bM \\wM;wP wM-;bQ bM/;wQ /wM;bP -bQ;wA1 wM\\;bP /bM;wQ bQ\\;wM -bQ;wB1 -wM;bP bM\\;wQ wP/;wA1 /bM;wB1 wM;wA1 bQ\\;wQ wP\\;wA1 bP\\;wA2 wP/;bQ bQ\\";
    let cases = [("Base+MLP", 4, 151_686), (mid, 3, 140_160)];
    for (position, depth, expected) in cases {
        let game = HiveGame::parse(position).or_else(|_| HiveGame::parse(&format!("{position};;"))).unwrap();
        let mut hive = game.hive().clone();
        let n = comb::perft::perft_checked(&mut hive, depth, &|h: &Hive| h.compute_hash());
        assert_eq!(n, expected, "{position}");
    }
}

#[test]
fn random_games_unmake_back_to_the_start() {
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    for round in 0..40 {
        let game_type = GameType::all()[round % 8];
        let mut hive = Hive::new(game_type);
        let start = hive.clone();
        let mut played = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..200 {
            hive.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let mv = moves[(rng % moves.len() as u64) as usize];
            hive.make(mv);
            assert_eq!(hive.hash(), hive.compute_hash());
            assert!(hive.is_connected(), "{hive:?}");
            played.push(mv);
        }
        while let Some(mv) = played.pop() {
            hive.unmake(mv);
        }
        assert_eq!(hive, start);
        assert_eq!(hive.hash(), start.compute_hash());
    }
}

#[test]
fn pass_only_when_nothing_else() {
    let mut game = HiveGame::parse("Base;InProgress;White[7];wA1;bS1 wA1-;wQ -wA1;bQ bS1/;wQ \\wA1;bA1 bS1\\;wQ -wA1;bA2 bQ\\;wQ \\wA1;bA1 \\wQ;wG1 /wQ;bA2 /wG1").unwrap();
    assert_eq!(game.legal_moves(), vec![Move::PASS]);
    game.play("pass").unwrap();
    assert!(game.game_string().ends_with(";pass"));
    assert_eq!(game.hive().outcome(), Outcome::InProgress);
    assert!(game.hive().ply() == 13);
}

#[test]
fn repetition_draw_is_optional() {
    let s = "Base;InProgress;White[7];wS1;bB1 wS1-;wQ \\wS1;bQ bB1\\;wQ -wS1;bQ bB1-;wQ \\wS1;bQ bB1\\;wQ -wS1;bQ bB1-;wQ \\wS1;bQ bB1\\";
    let game = HiveGame::parse(s).unwrap();
    assert_eq!(game.state_string(), "InProgress");
    let mut game = HiveGame::new(GameType::BASE);
    game.set_repetition_draw(true);
    for m in s.split(';').skip(3) {
        game.play(m).unwrap();
    }
    assert_eq!(game.state_string(), "Draw");
    assert!(game.legal_moves().is_empty());
    game.undo(1);
    assert_eq!(game.state_string(), "InProgress");
}

#[test]
fn game_trait_codes_are_distinct() {
    let mut hive = HiveGame::parse(
        "Base+MLP;InProgress;White[6];wG1;bL /wG1;wM wG1/;bM /bL;wA1 wM\\;bQ bL\\;wQ \\wM;bP /bQ;wP /wQ;bA1 -bP",
    )
    .unwrap()
    .hive()
    .clone();
    let mut moves = Vec::new();
    Game::generate_moves(&mut hive, &mut moves);
    let codes: BTreeSet<u32> = moves.iter().map(|&m| Hive::move_code(m)).collect();
    assert_eq!(codes.len(), moves.len());
    assert!(moves.iter().all(|&m| Hive::move_index(m) < Hive::MOVE_INDEX_SIZE));
}

#[test]
fn repeatable_history_starts_after_the_last_placement() {
    let s = "Base;InProgress;White[7];wS1;bB1 wS1-;wQ \\wS1;bQ bB1\\;wQ -wS1;bQ bB1-;wQ \\wS1;bQ bB1\\;wQ -wS1;bQ bB1-;wQ \\wS1;bQ bB1\\";
    let game = HiveGame::parse(s).unwrap();
    let mut history = Vec::new();
    game.hive().repeatable_history(&mut history);
    // Four placements, then eight queen moves: the positions before each of those moves.
    assert_eq!(history.len(), 8);
    // The current position occurred twice before, four and eight plies ago.
    let hash = game.hive().hash();
    assert_eq!(history.iter().filter(|&&h| h == hash).count(), 2);
    assert_eq!(history[history.len() - 4], hash);
}
