//! `comb analyze`: a known blunder and the best move classed as such, forced passes, finished
//! games, the three inputs (a GameString, a file of them with a bad line, PGN), the JSON lines,
//! the same review whatever the thread count, and the refusals.

use comb::analyze::{self, input, Class, PlyReview, ReviewSummary, Verdict};
use comb::game::Color;
use comb::games::GameOptions;
use comb::search::{Limits, MATE};
use std::process::Command;

mod common;
use common::{comb, stderr, stdout};

/// From positions/hive-tactics.txt: Black to move must stop White surrounding its queen.
const BLOCK: &str = r"Base+MLP;InProgress;Black[10];wS1;bS1 \wS1;wM wS1-;bA1 \bS1;wQ wS1\;bQ bS1/;wG1 wM/;bA1 wQ\;wP wG1\;bA1 wG1/;wP bQ\;bM bQ/;bS1 bM\;bL \bM;wA1 -wS1;bA1 /wA1;wB1 wG1\;bL /bQ;wM -bM";

/// The game after Black does not stop it (`bA1 wB1/`, ply 20) and White surrounds the queen.
fn blundered() -> String {
    format!(r"{BLOCK};bA1 wB1/;wA1 /wM")
}

/// White has no move but to pass at ply 13.
const PASS: &str = r"Base;InProgress;White[7];wA1;bS1 wA1-;wQ -wA1;bQ bS1/;wQ \wA1;bA1 bS1\;wQ -wA1;bA2 bQ\;wQ \wA1;bA1 \wQ;wG1 /wQ;bA2 /wG1;pass";

fn review(game_string: &str, depth: u32) -> Vec<PlyReview> {
    let game = GameOptions::default().parse(game_string).expect("the GameString loads");
    analyze::review(&game, Limits::depth(depth), 0)
}

/// A file in the temporary directory holding `text`, named for the test that wrote it.
fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("comb-analyze-{}-{name}", std::process::id()));
    std::fs::write(&path, text).expect("the temporary file is written");
    path
}

#[test]
fn walking_into_a_mate_in_one_is_a_blunder_and_the_mate_is_best() {
    let plies = review(&blundered(), 2);
    assert_eq!(plies.len(), 21, "a finished game is reviewed up to its end and no further");
    let blunder = &plies[19];
    assert_eq!((blunder.ply, blunder.side, blunder.played.as_str()), (20, Color::Black, "bA1 wB1/"));
    let s = blunder.scores().expect("Black had a choice");
    assert_eq!(s.class(), Class::Blunder, "{s:?}");
    assert_eq!(s.played_score, -(MATE - 2), "White surrounds the queen on its next move");
    assert!(s.best_score > -(MATE - 1000), "another move saves the queen: {s:?}");
    assert_ne!(s.best, "bA1 wB1/");
    let mate = &plies[20];
    let s = mate.scores().expect("White had a choice");
    assert_eq!((s.class(), s.loss(), s.best.as_str(), s.played_score), (Class::Best, 0, "wA1 /wM", MATE - 1));
    assert_eq!(ReviewSummary::of(&plies, Color::Black).count(Class::Blunder), 1);
}

#[test]
fn a_forced_pass_is_listed_but_not_classed() {
    let plies = review(PASS, 2);
    let last = plies.last().expect("13 plies");
    assert_eq!((last.ply, last.played.as_str(), &last.verdict), (13, "pass", &Verdict::Forced));
    let white = ReviewSummary::of(&plies, Color::White);
    assert_eq!((white.forced, white.classed()), (1, 6));
    let out = comb(&["analyze", "--depth", "1", PASS]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let row = text.lines().find(|l| l.trim_start().starts_with("13 ")).expect("the row of ply 13");
    assert!(row.contains("pass") && row.ends_with("forced"), "{row}");
    assert!(text.contains("White: best ") && text.contains(", forced 1, average loss "), "{text}");
}

#[test]
fn the_table_has_a_header_a_row_per_ply_and_a_summary_per_side() {
    let game = blundered();
    let out = comb(&["analyze", "--depth", "2", "--threads", "1", &game]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "game 1: Base+MLP, 21 plies, WhiteWins (queen surrounded)");
    assert!(lines[1].split_whitespace().eq(["ply", "side", "played", "score", "best", "score", "loss", "class"]));
    assert_eq!(lines.len(), 2 + 21 + 2);
    let blunder: Vec<&str> = lines[2 + 19].split_whitespace().collect();
    assert_eq!(blunder[..5], ["20", "Black", "bA1", "wB1/", "#-1"]);
    assert_eq!(blunder.last(), Some(&"blunder"));
    let mate: Vec<&str> = lines[2 + 20].split_whitespace().collect();
    assert_eq!(mate, ["21", "White", "wA1", "/wM", "#1", "wA1", "/wM", "#1", "0", "best"]);
    assert!(lines[23].starts_with("White: best ") && lines[24].starts_with("Black: best "));
    assert!(lines[24].contains("blunder 1,"), "{}", lines[24]);
}

#[test]
fn a_game_in_progress_is_reviewed_up_to_its_last_move() {
    assert_eq!(review(BLOCK, 1).len(), 19);
    assert!(review("Base+MLP;NotStarted;White[1]", 1).is_empty());
}

#[test]
fn intellector_games_are_reviewed_too() {
    let mut game = GameOptions::default().new_game("Intellector").expect("a game type");
    for _ in 0..4 {
        let first = game.valid_moves().split(';').next().expect("a move").to_string();
        game.play(&first).expect("a legal move");
    }
    let plies = analyze::review(&game, Limits::depth(2), 0);
    assert_eq!(plies.len(), 4);
    assert!(plies.iter().all(|p| p.scores().is_some()));
}

#[test]
fn a_bad_line_is_named_and_the_others_are_still_reviewed() {
    let text = format!("# two games and a bad line\n{PASS}\n\nBase;InProgress;White[2];wQ;bQ wQ-;wQ wQ\n{BLOCK}\n");
    let path = temp_file("lines.txt", &text);
    let out = comb(&["analyze", "--depth", "1", path.to_str().expect("a UTF-8 path")]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(1), "some lines bad, others analysed: {}", stderr(&out));
    assert!(stderr(&out).starts_with("line 4: "), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("game 1: Base, 13 plies, InProgress\n"), "{text}");
    assert!(text.contains("\n\ngame 3: Base+MLP, 19 plies, InProgress\n"), "{text}");
    assert!(!text.contains("game 2"));
}

#[test]
fn nothing_to_review_exits_with_status_2() {
    let bad = temp_file("bad.txt", "# only a bad line\nBase;InProgress;White[1];xyz\n");
    let empty = temp_file("empty.txt", "# no games\n\n");
    for args in [
        vec!["analyze", bad.to_str().expect("UTF-8")],
        vec!["analyze", empty.to_str().expect("UTF-8")],
        vec!["analyze", "/nonexistent/games.txt"],
        vec!["analyze", "Base;InProgress;White[1];xyz"],
        vec!["analyze", "--depth", "2", "--time", "1", PASS],
        vec!["analyze", "--depth", "0", PASS],
        vec!["analyze", "--time", "-1", PASS],
    ] {
        let out = comb(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
    let out = comb(&["analyze", bad.to_str().expect("UTF-8")]);
    assert!(stderr(&out).contains("line 2: "), "{}", stderr(&out));
    let _ = (std::fs::remove_file(bad), std::fs::remove_file(empty));
}

#[test]
fn pgn_games_are_reviewed_with_their_players() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/sample-game.pgn");
    let out = comb(&["analyze", "--depth", "1", path]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "game 1: Base+MLP, 41 plies, WhiteWins (queen surrounded)");
    assert_eq!(lines[1], "White: comb 0.1.0, Black: jon");
    assert_eq!(lines.len(), 3 + 41 + 2);
}

#[test]
fn a_pgn_game_that_does_not_replay_is_named_and_the_others_are_still_reviewed() {
    let text = "[GameType \"Base\"]\n\n1. wS1\n2. bS1 wS1-\n\n*\n\n[GameType \"Base\"]\n\n1. wS1\n2. bQ bQ\n\n*\n\n[GameType \"Base\"]\n[Result \"0-1\"]\n\n1. wG1\n\n*\n";
    let path = temp_file("games.pgn", text);
    let out = comb(&["analyze", "--depth", "1", "--jsonl", path.to_str().expect("UTF-8")]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).starts_with("line 11 (game 2): ply 2 `bQ bQ`"), "{}", stderr(&out));
    let games: Vec<String> =
        stdout(&out).lines().filter(|l| l.contains("\"type\":\"game\"")).map(String::from).collect();
    assert_eq!(games.len(), 2);
    assert!(games[0].contains("\"game\":1,\"line\":1,") && games[1].contains("\"game\":3,\"line\":15,"), "{games:?}");
    assert!(games[1].ends_with("\"result\":\"0-1\"}"), "{games:?}");
    let table = stdout(&comb(&["analyze", "--depth", "1", path.to_str().expect("UTF-8")]));
    assert!(table.starts_with("game 1: Base, 2 plies, InProgress\n"), "a `*` result says nothing: {table}");
    assert!(table.contains("game 3: Base, 1 ply, InProgress, recorded result 0-1\n"), "{table}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn json_lines_carry_every_documented_field() {
    let out = comb(&["analyze", "--depth", "2", "--jsonl", PASS]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 13 + 2);
    assert_eq!(
        lines[0],
        "{\"type\":\"game\",\"game\":1,\"line\":1,\"game_type\":\"Base\",\"plies\":13,\"state\":\"InProgress\",\"end\":null,\"white\":null,\"black\":null,\"result\":null}"
    );
    let first = lines[1];
    for field in [
        "\"type\":\"ply\"",
        "\"game\":1",
        "\"ply\":1",
        "\"side\":\"white\"",
        "\"played\":\"wA1\"",
        "\"best\":\"",
        "\"played_score\":",
        "\"best_score\":",
        "\"loss\":",
        "\"class\":\"",
        "\"depth\":2",
    ] {
        assert!(first.contains(field), "{field} in {first}");
    }
    assert_eq!(
        lines[13],
        "{\"type\":\"ply\",\"game\":1,\"ply\":13,\"side\":\"white\",\"played\":\"pass\",\"best\":null,\"played_score\":null,\"best_score\":null,\"loss\":null,\"class\":\"forced\",\"depth\":0}"
    );
    assert!(lines[3].contains("\"played\":\"wQ -wA1\""), "{}", lines[3]);
    assert!(lines[2].contains("\"played\":\"bS1 wA1-\""));
    for (line, side) in [(lines[14], "white"), (lines[15], "black")] {
        assert!(
            line.starts_with(&format!("{{\"type\":\"summary\",\"game\":1,\"side\":\"{side}\",\"best\":")),
            "{line}"
        );
        for field in
            ["\"good\":", "\"inaccuracy\":", "\"mistake\":", "\"blunder\":", "\"forced\":", "\"average_loss\":"]
        {
            assert!(line.contains(field), "{field} in {line}");
        }
    }
    assert!(lines[14].contains("\"forced\":1,"), "{}", lines[14]);
}

#[test]
fn the_review_is_the_same_on_one_thread_or_two() {
    let game = blundered();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/sample-game.pgn");
    for input in [game.as_str(), path] {
        let one = comb(&["analyze", "--depth", "2", "--threads", "1", "--jsonl", input]);
        let two = comb(&["analyze", "--depth", "2", "--threads", "2", "--jsonl", input]);
        assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
        assert_eq!(stdout(&one), stdout(&two));
    }
}

#[test]
fn a_time_budget_reviews_every_ply_too() {
    let out = comb(&["analyze", "--time", "0.02", "--jsonl", PASS]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().filter(|l| l.contains("\"type\":\"ply\"")).count(), 13);
}

#[test]
fn games_come_from_standard_input_with_a_dash() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_comb"))
        .args(["analyze", "--depth", "1", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the comb binary runs");
    child.stdin.take().expect("stdin").write_all(format!("{PASS}\n").as_bytes()).expect("written");
    let out = child.wait_with_output().expect("it ends");
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).starts_with("game 1: Base, 13 plies, InProgress\n"));
}

#[test]
fn input_lines_are_numbered_from_the_file_start() {
    let text = format!("\n# comment\n{PASS}\nnot a game\n");
    let read = input::parse_game_strings(&text, GameOptions::default());
    assert_eq!(read.games.len(), 1);
    assert_eq!((read.games[0].number, read.games[0].line), (1, 3));
    assert_eq!(read.problems.len(), 1);
    assert_eq!(read.problems[0].line, 4);
    assert!(read.problems[0].to_string().starts_with("line 4: "));
}

#[test]
fn help_documents_the_thresholds_and_exit_status() {
    let help = stdout(&comb(&["analyze", "--help"]));
    for text in ["best 0, good 1–30, inaccuracy 31–80, mistake 81–200, blunder over 200", "±1000 ", "Exit status: 0"]
    {
        assert!(help.contains(text), "{text} in {help}");
    }
    assert_eq!((analyze::GOOD, analyze::INACCURACY, analyze::MISTAKE, analyze::SCORE_CAP), (30, 80, 200, 1_000));
}

/// The rows of a table's game `game` (from 1): (ply, class).
fn classes(table: &str, game: usize) -> Vec<(usize, String)> {
    let block = table.split("game ").nth(game).expect("the game's table");
    block
        .lines()
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            Some((words.first()?.parse().ok()?, words.last()?.to_string()))
        })
        .collect()
}

#[test]
fn a_tournament_record_is_read_and_its_opening_is_book() {
    // Four games of comb's own JSONL, from openings of 6, 6, 2 and 2 plies.
    let record = std::fs::read_to_string(common::data("tests/data/resume-v0.1.0.jsonl")).unwrap();
    let games: String = record.lines().take(4).map(|l| format!("{l}\n")).collect();
    let path = temp_file("record.jsonl", &games);
    let out = comb(&["analyze", "--depth", "1", "--threads", "1", path.to_str().expect("UTF-8")]);
    let table = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{}\n{table}", stderr(&out));
    assert!(
        table.starts_with("game 1: Base+MLP, 43 plies, WhiteWins (queen surrounded)\nWhite: A, Black: B\n"),
        "{table}"
    );
    for (game, book) in [(1, 6), (2, 6), (3, 2), (4, 2)] {
        let rows = classes(&table, game);
        let booked: Vec<usize> = rows.iter().filter(|(_, c)| c == "book").map(|(p, _)| *p).collect();
        assert_eq!(booked, (1..=book).collect::<Vec<_>>(), "game {game}:\n{table}");
    }
    // The summary counts the players' moves only: game 3 has 2 book plies of its 21 (by the
    // rows), White's 10 and Black's 9 others.
    let third = table.split("game ").nth(3).unwrap();
    let counted = |side: &str| -> usize {
        let line = third.lines().find(|l| l.starts_with(&format!("{side}: best"))).unwrap();
        line.split(", ").filter_map(|f| f.rsplit(' ').next()?.parse::<usize>().ok()).take(6).sum()
    };
    let plies = classes(&table, 3).len();
    assert_eq!(counted("White") + counted("Black"), plies - 2, "{third}");
    // --opening-plies overrides the record's.
    let out = comb(&["analyze", "--depth", "1", "--threads", "1", "--opening-plies", "1", path.to_str().unwrap()]);
    let booked = classes(&stdout(&out), 1).into_iter().filter(|(_, c)| c == "book").count();
    assert_eq!(booked, 1);
    let _ = std::fs::remove_file(path);
}

#[test]
fn opening_plies_are_book_in_the_table_and_the_json_lines() {
    let game = r"Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";
    let out = comb(&["analyze", "--depth", "1", "--threads", "1", "--opening-plies", "2", game]);
    let table = stdout(&out);
    assert!(table.contains("\n  1  White  wS1           -  -            -     -  book\n"), "{table}");
    assert!(table.contains("\n  2  Black  bS1 wS1-      -  -            -     -  book\n"), "{table}");
    assert!(
        table.contains("\nWhite: best 1, good 0, inaccuracy 0, mistake 0, blunder 0, forced 0, average loss 0.0\n"),
        "{table}"
    );
    let out = comb(&["analyze", "--depth", "1", "--threads", "1", "--opening-plies", "2", "--jsonl", game]);
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(
        lines[1],
        r#"{"type":"ply","game":1,"ply":1,"side":"white","played":"wS1","best":null,"played_score":null,"best_score":null,"loss":null,"class":"book","depth":0}"#
    );
    assert!(lines[5].starts_with(r#"{"type":"summary","game":1,"side":"white","best":1,"good":0,"#), "{}", lines[5]);
    // A PGN game from a tournament names its opening in the `Opening` tag.
    let pgn = "[GameType \"Base\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"InProgress\"]\n\
               [Opening \"Base;InProgress;White[2];wS1;bS1 wS1-\"]\n\n1. wS1\n2. bS1 wS1-\n3. wQ -wS1\n4. bQ bS1-\n\nInProgress\n";
    let path = temp_file("opening.pgn", pgn);
    let out = comb(&["analyze", "--depth", "1", "--threads", "1", path.to_str().unwrap()]);
    let booked = classes(&stdout(&out), 1).into_iter().filter(|(_, c)| c == "book").count();
    assert_eq!(booked, 2, "{}{}", stdout(&out), stderr(&out));
    let _ = std::fs::remove_file(path);
}
