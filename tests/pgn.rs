//! Hive PGN read back: every game a real tournament writes (Hive and Intellector) replays to
//! the GameString the tournament recorded; a game as MzingaViewer saves it reads correctly;
//! PGN books cut by `--opening-plies` start the games they should, in tournaments and in
//! self-play; bad books are refused with their game and line.

use comb::games::GameOptions;
use comb::pgn::{parse_games, PgnGame};
use std::process::{Command, Output};

mod common;
use common::{data, json_field, temp_dir, COMB};

/// Two comb engines at depths 1 and 2, one search thread each.
fn engines() -> Vec<String> {
    let mut args = Vec::new();
    for (name, depth) in [("A", 1), ("B", 2)] {
        args.extend(["--engine".into(), format!("name={name}"), format!("cmd={COMB}"), format!("depth={depth}")]);
        args.extend(["option.MaxHelperThreads=None".into(), "option.TranspositionTableSizeMB=4".into()]);
    }
    args
}

/// `comb tournament` with the engines and `args`; its output and standard output.
fn tournament(args: &[&str]) -> (Output, String) {
    let out = Command::new(COMB).arg("tournament").args(engines()).args(args).output().expect("comb runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    (out, stdout)
}

/// Plays `rounds` rounds from `book` into a PGN and a JSONL file; returns both texts.
fn played(name: &str, book: &str, rounds: &str) -> (String, String) {
    let dir = temp_dir("pgn", name);
    let (pgn, jsonl) = (dir.join("games.pgn"), dir.join("games.jsonl"));
    let (pgn_arg, jsonl_arg) = (pgn.display().to_string(), jsonl.display().to_string());
    let args = ["--openings", book, "--rounds", rounds, "--concurrency", "2", "--pgn", &pgn_arg, "--jsonl", &jsonl_arg];
    let (out, stdout) = tournament(&args);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let texts = (std::fs::read_to_string(&pgn).unwrap(), std::fs::read_to_string(&jsonl).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
    texts
}

#[test]
fn every_game_the_tournament_writes_reads_back_to_its_game_string() {
    // The Hive book's one opening ends with a backslash, which the Opening tag must keep.
    let dir = temp_dir("pgn", "round-trip-book");
    let book = dir.join("book.txt");
    std::fs::write(&book, "Base+MLP;InProgress;White[2];wS1;bS1 wS1\\\n").unwrap();
    for (book, rounds) in [(book.display().to_string(), "1"), (data("positions/openings-intellector.txt"), "2")] {
        let (pgn, jsonl) = played("round-trip", &book, rounds);
        let games = parse_games(&pgn).unwrap();
        let lines: Vec<&str> = jsonl.lines().collect();
        assert_eq!(games.len(), lines.len(), "{pgn}");
        assert!(!games.is_empty());
        for (game, line) in games.iter().zip(lines) {
            assert_eq!(game.game_string(GameOptions::default()).unwrap(), json_field(line, "game_string"), "{line}");
            assert_eq!(game.game_type(), json_field(line, "game_type"));
            assert_eq!(game.tag("Round"), Some(json_field(line, "game").as_str()));
            assert_eq!(game.white(), Some(json_field(line, "white").as_str()));
            assert_eq!(game.black(), Some(json_field(line, "black").as_str()));
            assert_eq!(game.result(), Some(json_field(line, "result").as_str()));
            assert_eq!(game.opening(), Some(json_field(line, "opening").as_str()));
            assert_eq!(game.plies().to_string(), json_field(line, "plies"));
            assert_eq!(game.comments(), [json_field(line, "detail")]);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The game of positions/sample-game.pgn, as its GameString.
const SAMPLE: &str = "Base+MLP;WhiteWins;Black[21];wP;bP \\wP;wQ wP-;bQ \\bP;wM wQ/;bM \\bQ;wA1 /wP;bL bP/;\
    wA1 bL/;bM -wA1;wA2 /wP;bM wQ\\;wA2 \\bQ;bA1 bM-;wA3 \\wA2;bA1 wM/;wA3 /bQ;bA2 bM-;wL -wA3;bA2 wM\\;\
    wA1 \\bL;bQ wA3\\;wA2 /bQ;bA3 bA2-;wL bQ\\;bQ /wA1;wA2 -bQ;wA3 /bP;wL wA2\\;bL /wA3;wL wA1\\;\
    bA3 /wA2;wB1 \\wA2;wL wA2\\;wB1 wA2;bA3 wA1-;wB1 bQ;bS1 bL\\;wB2 -wA1;bS2 -bL;wB1 wA1\\";

fn sample() -> String {
    std::fs::read_to_string(data("positions/sample-game.pgn")).unwrap()
}

fn only(text: &str) -> PgnGame {
    let mut games = parse_games(text).unwrap();
    assert_eq!(games.len(), 1);
    games.pop().unwrap()
}

#[test]
fn a_game_as_mzinga_viewer_saves_it_reads_correctly() {
    let text = sample();
    let game = only(&text);
    let tags: Vec<(&str, &str)> = game.tags().collect();
    assert_eq!(
        tags,
        [
            ("GameType", "Base+MLP"),
            ("Date", "2026.05.01"),
            ("Event", ""),
            ("Site", ""),
            ("Round", ""),
            ("White", "comb 0.1.0"),
            ("Black", "jon"),
            ("Result", "WhiteWins")
        ]
    );
    assert_eq!(game.plies(), 41);
    assert_eq!(game.comments(), ["Pillbugs first.", "Black's Queen is nearly surrounded:\nthe Pillbug still throws."]);
    let replayed = game.game(GameOptions::default()).unwrap();
    assert_eq!(replayed.game_string(), SAMPLE);
    assert_eq!(replayed.state_string(), game.result().unwrap(), "the game ends as the file says");
    // Saved on Windows, and written with several moves a line: the same game.
    assert_eq!(only(&text.replace('\n', "\r\n")).game_string(GameOptions::default()).unwrap(), SAMPLE);
    let moves: Vec<String> = game.moves().enumerate().map(|(i, m)| format!("{}. {m}", i + 1)).collect();
    let dense =
        format!("[GameType \"Base+MLP\"]\n{}\n{} {{end}} WhiteWins\n", moves[..20].join(" "), moves[20..].join(" "));
    assert_eq!(only(&dense).game_string(GameOptions::default()).unwrap(), SAMPLE);
}

#[test]
fn opening_plies_cut_a_pgn_book_into_the_games_openings() {
    let dir = temp_dir("pgn", "opening-plies");
    let (book, jsonl) = (dir.join("book.txt"), dir.join("games.jsonl"));
    // The sample game, then one of three plies, which four plies skip: detected by content.
    let short = "[GameType \"Base+MLP\"]\n\n1. wS1\n2. bS1 wS1-\n3. wQ -wS1\n";
    std::fs::write(&book, format!("{}\n{short}", sample())).unwrap();
    let (book_arg, jsonl_arg) = (book.display().to_string(), jsonl.display().to_string());
    let args = ["--openings", &book_arg, "--opening-plies", "4", "--rounds", "1", "--jsonl", &jsonl_arg];
    let (out, stdout) = tournament(&args);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let expected = format!(
        "Openings: {book_arg} (1, first 4 plies, 1 skipped, sequential), each played twice with colours swapped"
    );
    assert!(stdout.lines().any(|l| l == expected), "{stdout}");
    let opening = "Base+MLP;InProgress;White[3];wP;bP \\wP;wQ wP-;bQ \\bP";
    let text = std::fs::read_to_string(&jsonl).unwrap();
    assert_eq!(text.lines().count(), 2);
    for line in text.lines() {
        assert_eq!(json_field(line, "opening"), opening, "{line}");
        assert_eq!(json_field(line, "opening_plies"), "4");
        let moves: Vec<String> = json_field(line, "game_string").split(';').skip(3).map(String::from).collect();
        assert_eq!(moves[..4], opening.split(';').skip(3).map(String::from).collect::<Vec<_>>()[..]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn opening_plies_cut_a_game_string_book() {
    // positions/openings-base-mlp.txt: 10 openings of each length from 2 to 6 plies.
    let book = data("positions/openings-base-mlp.txt");
    let out = Command::new(COMB)
        .args(["tournament", "--engine", "cmd=/nonexistent/a", "--engine", "cmd=/nonexistent/b", "--each", "depth=1"])
        .args(["--openings", &book, "--opening-plies", "7"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no opening of 7 plies: all 50 lines are shorter or end within 7 plies"), "{stderr}");
    let dir = temp_dir("pgn", "opening-plies-lines");
    let jsonl = dir.join("games.jsonl");
    let jsonl_arg = jsonl.display().to_string();
    let args = ["--openings", &book, "--opening-plies", "5", "--rounds", "1", "--jsonl", &jsonl_arg];
    let (out, stdout) = tournament(&args);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains(" (20, first 5 plies, 30 skipped, sequential), "), "{stdout}");
    let first = std::fs::read_to_string(&jsonl).unwrap().lines().next().unwrap().to_string();
    assert_eq!(json_field(&first, "opening_plies"), "5");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn selfplay_starts_from_a_pgn_book_too() {
    let out = Command::new(COMB)
        .args(["selfplay", "--openings", &data("positions/sample-game.pgn"), "--opening-plies", "6"])
        .args(["--games", "2", "--depth", "1", "--random-plies", "0", "--max-plies", "20", "--threads", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().count() > 0);
    let opening = "Base+MLP;InProgress;White[4];wP;bP \\wP;wQ wP-;bQ \\bP;wM wQ/;bM \\bQ";
    let opening_moves = &opening[opening.find("];").unwrap() + 2..];
    for line in text.lines() {
        let game_string = line.split('\t').nth(2).unwrap();
        assert!(game_string.split_once("];").unwrap().1.starts_with(opening_moves), "{line}");
    }
}

#[test]
fn bad_pgn_books_are_refused_with_their_game_and_line() {
    let dir = temp_dir("pgn", "bad-books");
    let refused = |name: &str, text: &str, plies: Option<&str>| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let mut command = Command::new(COMB);
        command.args(["tournament", "--engine", "cmd=/nonexistent/a", "--engine", "cmd=/nonexistent/b"]);
        command.args(["--each", "depth=1", "--openings", &path.display().to_string()]);
        command.args(plies.map(|n| ["--opening-plies", n]).iter().flatten());
        let out = command.output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{name}");
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        stderr.split_once(&format!("{}: ", path.display())).map(|(_, e)| e.trim_end().to_string()).unwrap_or(stderr)
    };
    let two = format!("{}\n[GameType \"Base\"]\n\n1. wS1\n2. bQ wS1-\n", sample());
    assert_eq!(
        refused("illegal.pgn", &two, Some("2")),
        "line 60 (game 2): ply 2 `bQ wS1-`: You can't play your Queen Bee on your first turn."
    );
    assert_eq!(
        refused("unterminated.txt", "[GameType \"Base\"]\n[White \"A\n", Some("2")),
        "line 2 (game 1): not a tag `[Name \"value\"]`: no closing `]`"
    );
    assert!(refused("type.pgn", "[GameType \"Chess\"]\n\n1. e4\n", Some("1"))
        .starts_with("line 1 (game 1): unknown game type `Chess`"));
    assert!(refused("garbage.pgn", "\u{7f}ELF\u{1}\u{2}\n", Some("1"))
        .starts_with("line 1 (game 1): ply 1 `\u{7f}ELF\u{1}\u{2}`: "));
    assert!(refused("comment.pgn", "[GameType \"Base\"]\n{open\n1. wS1\n", Some("1")).contains("never closed"));
    assert!(refused("plies.pgn", &sample(), None).starts_with("a PGN book needs --opening-plies N"));
    let _ = std::fs::remove_dir_all(&dir);
}
