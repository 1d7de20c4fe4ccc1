//! Exact UHP transcripts: what the engine answers, line for line, to every command and error.

use comb::uhp::{self, Options, Session, Signals};
use std::io::Cursor;
use std::sync::Arc;

/// Runs a whole session over `input` and returns everything it printed.
fn transcript(input: &str) -> String {
    let mut out = Vec::new();
    let options =
        Options { max_helper_threads: uhp::HelperThreads::Count(0), table_megabytes: 4, ..Options::default() };
    uhp::run(Cursor::new(input.as_bytes().to_vec()), &mut out, options, Arc::new(Signals::default())).unwrap();
    String::from_utf8(out).unwrap()
}

const INFO: &str = concat!("id comb ", env!("CARGO_PKG_VERSION"), "\nMosquito;Ladybug;Pillbug\nok\n");

fn expect(input: &str, output: &str) {
    assert_eq!(transcript(input), format!("{INFO}{output}"), "input:\n{input}");
}

#[test]
fn reference_example_session() {
    expect(
        "newgame Base\nvalidmoves\nplay wQ\nplay wS1\nundo\nhi\n",
        "Base;NotStarted;White[1]\nok\n\
         wS1;wB1;wG1;wA1\nok\n\
         invalidmove You can't play your Queen Bee on your first turn.\nok\n\
         Base;InProgress;Black[1];wS1\nok\n\
         Base;NotStarted;White[1]\nok\n\
         err Invalid command. Try 'help' to see a list of valid commands.\nok\n",
    );
}

#[test]
fn info_and_blank_lines_and_case() {
    expect("\n   \nINFO\r\n\tNewGame   Base+MLP \r\n", &format!("{INFO}Base+MLP;NotStarted;White[1]\nok\n"));
}

#[test]
fn commands_before_any_game() {
    let no_game = "err No game in progress. Try 'newgame' to start a new game.\nok\n";
    expect("play wS1\npass\nvalidmoves\nbestmove depth 1\nundo\nperft 1\n", &no_game.repeat(6));
}

#[test]
fn missing_arguments_are_invalid_commands() {
    let invalid = "err Invalid command. Try 'help' to see a list of valid commands.\nok\n";
    expect(
        "play\noptions get\noptions set MaxHelperThreads\nbestmove foo\nbestmove depth\nfoo bar\n",
        &invalid.repeat(6),
    );
}

#[test]
fn newgame_forms_and_bad_game_strings_keep_the_game() {
    expect(
        "newgame\nnewgame Base+M extra words\nnewgame Base;InProgress;Black[9];wS1;bG1 -wS1\n\
         newgame Base+LPM\nnewgame Base;InProgress;White[2];wS1;bQ wS1-\nnewgame Base;x;y;wS1;zz\nvalidmoves\n",
        "Base;NotStarted;White[1]\nok\n\
         err Unable to parse 'Base+M extra words' in GameString. (Parameter 'gameStr')\nok\n\
         Base;InProgress;White[2];wS1;bG1 -wS1\nok\n\
         err Unable to parse 'Base+LPM' in GameString. (Parameter 'gameStr')\nok\n\
         err Unable to play 'bQ wS1-' in GameString. (Parameter 'gameStr')\nok\n\
         err Unable to parse 'zz' in GameString. (Parameter 'gameStr')\nok\n\
         wQ wS1/;wQ wS1-;wQ wS1\\;wS2 wS1/;wS2 wS1-;wS2 wS1\\;wB1 wS1/;wB1 wS1-;wB1 wS1\\;wG1 wS1/;wG1 wS1-;wG1 wS1\\;wA1 wS1/;wA1 wS1-;wA1 wS1\\\nok\n",
    );
}

#[test]
fn play_pass_and_invalid_moves() {
    expect(
        "newgame Base\nplay wS1\nplay bS1 wS1\nplay bQ -wS1\nplay xyz\nplay   BS1   -WS1\npass\nplay wB1 bS1-\n",
        "Base;NotStarted;White[1]\nok\n\
         Base;InProgress;Black[1];wS1\nok\n\
         invalidmove You can't move that piece there.\nok\n\
         invalidmove You can't play your Queen Bee on your first turn.\nok\n\
         invalidmove Unable to parse move \"xyz\".\nok\n\
         Base;InProgress;White[2];wS1;bS1 -wS1\nok\n\
         invalidmove You can't pass when you have valid moves.\nok\n\
         invalidmove You can't move there because a piece already exists at that position.\nok\n",
    );
}

#[test]
fn forced_pass() {
    let pass = "Base;InProgress;White[7];wA1;bS1 wA1-;wQ -wA1;bQ bS1/;wQ \\wA1;bA1 bS1\\;wQ -wA1;bA2 bQ\\;wQ \\wA1;bA1 \\wQ;wG1 /wQ;bA2 /wG1";
    expect(
        &format!("newgame {pass}\nvalidmoves\nbestmove depth 3\npass\n"),
        &format!("{pass}\nok\npass\nok\npass\nok\n{}\nok\n", pass.replacen("White[7]", "Black[7]", 1) + ";pass"),
    );
}

#[test]
fn finished_games_refuse_moves_but_allow_undo() {
    let won = "Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1";
    let over = "err The game is over. Try 'newgame' to start a new game.\nok\n";
    let undone = "Base;InProgress;White[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/";
    expect(
        &format!("newgame {won}\nplay wQ -wS1\npass\nvalidmoves\nbestmove depth 2\nbestmove\nundo\n"),
        &format!("{won}\nok\n{}{undone}\nok\n", over.repeat(5)),
    );
}

#[test]
fn undo_counts() {
    expect(
        "newgame Base\nundo\nplay wS1\nplay bS1 wS1-\nundo 0\nundo 3\nundo x\nundo 99999999999\nundo -1\nundo 2\n",
        "Base;NotStarted;White[1]\nok\n\
         err Unable to undo 1 moves.\nok\n\
         Base;InProgress;Black[1];wS1\nok\n\
         Base;InProgress;White[2];wS1;bS1 wS1-\nok\n\
         err Unable to undo 0 moves.\nok\n\
         err Unable to undo 3 moves.\nok\n\
         err The input string 'x' was not in a correct format.\nok\n\
         err Value was either too large or too small for an Int32.\nok\n\
         err Unable to undo -1 moves.\nok\n\
         Base;NotStarted;White[1]\nok\n",
    );
}

#[test]
fn newgame_with_more_than_a_game_type_is_a_game_string() {
    let unparsable = |what: &str| format!("err Unable to parse '{what}' in GameString. (Parameter 'gameStr')\nok\n");
    expect(
        "newgame Base+M\nnewgame Base+MLP ;InProgress;Black[2];wS1;zz\nnewgame Base wS1\nnewgame Intellector foo\n\
         play wM\n",
        &format!(
            "Base+M;NotStarted;White[1]\nok\n{}{}{}Base+M;InProgress;Black[1];wM\nok\n",
            unparsable("Base+MLP "),
            unparsable("Base wS1"),
            unparsable("Intellector foo")
        ),
    );
}

#[test]
fn bestmove_depth_below_one_is_refused() {
    let refused = |d: i32| format!("err Unable to search to depth {d}: the depth must be at least 1.\nok\n");
    expect(
        "newgame Base\nbestmove depth 0\nbestmove depth -1\nbestmove depthorseconds 0 1\nplay wS1\n",
        &format!(
            "Base;NotStarted;White[1]\nok\n{}{}{}Base;InProgress;Black[1];wS1\nok\n",
            refused(0),
            refused(-1),
            refused(0)
        ),
    );
}

#[test]
fn options_list_get_set() {
    let cores = uhp::cores();
    let helpers: Vec<String> = (1..cores).map(|n| n.to_string()).collect();
    let helper_values = ["Auto", "None"].iter().map(|s| s.to_string()).chain(helpers).collect::<Vec<_>>().join(";");
    let out = transcript(
        "options\noptions get RepetitionDraw\noptions set RepetitionDraw true\noptions set ReportIntermediateBestMoves maybe\n\
         options set TranspositionTableSizeMB 999999\noptions set TranspositionTableSizeMB 8\noptions set MaxHelperThreads None\n\
         options get Foo\noptions set Foo 1\n",
    );
    let expected = format!(
        "{INFO}Difficulty;enum;Max;Max;Easy;Medium;Hard;Max\n\
         DifficultySeed;int;0;0;0;2147483647\n\
         Evaluation;enum;Net;Net;Classic;Net\n\
         IntellectorEvaluation;enum;Net;Net;Classic;Net\n\
         IntellectorRules;enum;Modern;Modern;Modern;Classic\n\
         MaxHelperThreads;enum;None;Auto;{helper_values}\n\
         MultiPV;int;1;1;1;64\n\
         RepetitionDraw;bool;False;False\n\
         ReportIntermediateBestMoves;bool;False;False\n\
         TranspositionTableSizeMB;int;4;64;1;8192\nok\n\
         RepetitionDraw;bool;False;False\nok\n\
         RepetitionDraw;bool;True;False\nok\n\
         ReportIntermediateBestMoves;bool;False;False\nok\n\
         TranspositionTableSizeMB;int;8192;64;1;8192\nok\n\
         TranspositionTableSizeMB;int;8;64;1;8192\nok\n\
         MaxHelperThreads;enum;None;Auto;{helper_values}\nok\n\
         err The option \"Foo\" is not valid.\nok\n\
         err The option \"Foo\" is not valid.\nok\n"
    );
    assert_eq!(out, expected);
}

#[test]
fn repetition_draw_option_ends_games() {
    let moves = [
        "wS1", "bB1 wS1-", "wQ \\wS1", "bQ bB1\\", "wQ -wS1", "bQ bB1-", "wQ \\wS1", "bQ bB1\\", "wQ -wS1", "bQ bB1-",
        "wQ \\wS1", "bQ bB1\\",
    ];
    let plays: String = moves.iter().map(|m| format!("play {m}\n")).collect();
    let out = transcript(&format!("options set RepetitionDraw True\nnewgame Base\n{plays}validmoves\n"));
    let last_state = out.lines().rev().find(|l| l.starts_with("Base;")).unwrap();
    assert!(last_state.starts_with("Base;Draw;White[7];"), "{last_state}");
    assert!(out.ends_with("err The game is over. Try 'newgame' to start a new game.\nok\n"));
}

#[test]
fn perft_lines() {
    let out = transcript("newgame Base\nperft 3\nperft -1\nperft x\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(&lines[3..5], ["Base;NotStarted;White[1]", "ok"]);
    let counts: Vec<&str> = lines[5..8].iter().map(|l| l.split("  ").next().unwrap()).collect();
    assert_eq!(counts, ["1: 4", "2: 96", "3: 1440"]);
    assert_eq!(
        &lines[8..],
        [
            "ok",
            "err Unable to calculate perft(-1).",
            "ok",
            "err The input string 'x' was not in a correct format.",
            "ok"
        ]
    );
}

/// The `d: count` part of every perft line in `lines` (the rest is timing).
fn perft_counts<'a>(lines: &[&'a str]) -> Vec<&'a str> {
    lines.iter().map(|l| l.split("  ").next().unwrap()).collect()
}

#[test]
fn a_stopped_perft_prints_the_depths_it_finished() {
    // End of input stops a perft without a depth of its own; depth 1 always finishes.
    let out = transcript("newgame Base\nperft\n");
    let lines: Vec<&str> = out.lines().skip(5).collect();
    let (ok, depths) = lines.split_last().unwrap();
    assert_eq!(*ok, "ok");
    let expected = ["1: 4", "2: 96", "3: 1440", "4: 21600", "5: 516240", "6: 12219480", "7: 181641900"];
    assert!(!depths.is_empty() && depths.len() <= expected.len(), "{out}");
    assert_eq!(perft_counts(depths), expected[..depths.len()]);

    // Stopped before it starts, it still counts depth 1.
    let signals = Arc::new(Signals::default());
    signals.eof.store(true, std::sync::atomic::Ordering::SeqCst);
    let mut s = Session::new(Vec::new(), Options::default(), signals);
    s.execute("newgame Base");
    s.output_mut().clear();
    s.execute("perft");
    let out = String::from_utf8(std::mem::take(s.output_mut())).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(perft_counts(&lines), ["1: 4", "ok"]);
}

#[test]
fn bestmove_reports_then_answers() {
    let out = transcript("newgame Base+MLP\noptions set ReportIntermediateBestMoves True\nbestmove depth 3\n");
    let lines: Vec<&str> = out.lines().collect();
    let block = &lines[lines.iter().rposition(|l| l.starts_with("ReportIntermediate")).unwrap() + 2..];
    assert_eq!(block.len(), 5, "{block:?}");
    for (d, l) in block[..3].iter().enumerate() {
        let fields: Vec<&str> = l.split(';').collect();
        assert_eq!(fields[1], (d + 1).to_string(), "{l}");
        assert_eq!(fields[0], fields[3], "the PV starts with the move: {l}");
        assert!(fields[2].parse::<f64>().is_ok(), "{l}");
    }
    assert_eq!(block[3], block[2].split(';').next().unwrap(), "the last line is the bare move");
    assert_eq!(block[4], "ok");
}

#[test]
fn bestmove_time_formats() {
    let out = transcript("newgame Base\nbestmove time 00:00:00.05\nbestmove time 5s\nbestmove seconds 0.05\nbestmove depthorseconds 2 1\n");
    let lines: Vec<&str> = out.lines().skip(5).collect();
    assert!(["wS1", "wB1", "wG1", "wA1"].contains(&lines[0]), "{lines:?}");
    assert_eq!(lines[1], "ok");
    assert_eq!(lines[2..4], ["err String '5s' was not recognized as a valid TimeSpan.", "ok"]);
    assert_eq!(lines.len(), 8);
}

#[test]
fn exit_prints_nothing() {
    expect("newgame Base\nexit\ninfo\n", "Base;NotStarted;White[1]\nok\n");
}

#[test]
fn help_lists_commands() {
    let out = transcript("help\nhelp play\nhelp nothing\n");
    assert!(out.contains("  play MoveString"));
    assert!(out.contains("Try 'help Command'"));
    assert!(out.ends_with("err Invalid command. Try 'help' to see a list of valid commands.\nok\n"));
}

#[test]
fn garbage_bytes_and_long_lines() {
    let mut input = b"newgame Base\n\xff\xfe\x00play\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 5 << 20));
    input.extend(b"\nvalidmoves\n");
    let mut out = Vec::new();
    uhp::run(Cursor::new(input), &mut out, Options::default(), Arc::new(Signals::default())).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert_eq!(
        out,
        format!(
            "{INFO}Base;NotStarted;White[1]\nok\n\
             err Invalid command. Try 'help' to see a list of valid commands.\nok\n\
             err Line too long ({} bytes); the limit is 4 MiB.\nok\n\
             wS1;wB1;wG1;wA1\nok\n",
            (5 << 20) + 1
        )
    );
}

#[test]
fn session_in_memory() {
    let mut s = Session::new(Vec::new(), Options::default(), Arc::new(Signals::default()));
    s.execute("newgame Base");
    assert_eq!(s.game_string().as_deref(), Some("Base;NotStarted;White[1]"));
    s.execute("play wA1");
    assert_eq!(
        String::from_utf8(std::mem::take(s.output_mut())).unwrap(),
        "Base;NotStarted;White[1]\nok\nBase;InProgress;Black[1];wA1\nok\n"
    );
}

#[test]
fn board_prints_the_position_as_text_then_ok() {
    expect(
        "board\nnewgame Base;InProgress;White[2];wS1;bG1 -wS1\nboard\nnewgame Base+X\nboard\n",
        "err No game in progress. Try 'newgame' to start a new game.\nok\n\
         Base;InProgress;White[2];wS1;bG1 -wS1\nok\n\
         game: Base\nstate: InProgress\nturn: White[2]\nto move: White\nlast move: bG1 -wS1\n\
         in hand, White: wQ wS2 wB1 wB2 wG1 wG2 wG3 wA1 wA2 wA3\n\
         in hand, Black: bQ bS1 bS2 bB1 bB2 bG2 bG3 bA1 bA2 bA3\n\
         \n     .     .     .\n  .    bG1   wS1    .\n     .     .     .\nok\n\
         err Unable to parse 'Base+X' in GameString. (Parameter 'gameStr')\nok\n\
         game: Base\nstate: InProgress\nturn: White[2]\nto move: White\nlast move: bG1 -wS1\n\
         in hand, White: wQ wS2 wB1 wB2 wG1 wG2 wG3 wA1 wA2 wA3\n\
         in hand, Black: bQ bS1 bS2 bB1 bB2 bG2 bG3 bA1 bA2 bA3\n\
         \n     .     .     .\n  .    bG1   wS1    .\n     .     .     .\nok\n",
    );
    let help = transcript("help board\n");
    assert!(help.contains("  board\n\n  Prints the current position as text"), "{help}");
}

#[test]
fn text_after_a_complete_move_string_is_refused() {
    expect(
        "newgame Base+M;InProgress;Black[1];wB1\nplay bM wB1-e2e3\nplay bS1 -wB1-\nplay bM wB1- x\nplay  bM  wB1-  \n",
        "Base+M;InProgress;Black[1];wB1\nok\n\
         invalidmove Unable to parse move \"bM wB1-e2e3\".\nok\n\
         invalidmove Unable to parse move \"bS1 -wB1-\".\nok\n\
         invalidmove Unable to parse move \"bM wB1- x\".\nok\n\
         Base+M;InProgress;White[2];wB1;bM wB1-\nok\n",
    );
}

#[test]
fn end_of_input_bounds_what_the_commands_still_queued_may_take() {
    // A search and a perft whose limits are hours away, sent by a client that then closed its
    // end: each answers when the bound (here a fifth of a second) runs out.
    let input = "newgame Base+MLP\nbestmove depth 60\nperft 12\n";
    let signals = Signals { eof_grace: std::time::Duration::from_millis(200), ..Signals::default() };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let options =
            Options { max_helper_threads: uhp::HelperThreads::Count(0), table_megabytes: 4, ..Options::default() };
        uhp::run(Cursor::new(input.as_bytes().to_vec()), &mut out, options, Arc::new(signals)).unwrap();
        let _ = tx.send(String::from_utf8(out).unwrap());
    });
    // Only a session that never stops waits this long.
    let out = rx.recv_timeout(std::time::Duration::from_secs(120)).expect("the session ends");
    let blocks: Vec<&str> = out.split_inclusive("ok\n").collect();
    assert_eq!(blocks.len(), 4, "{out}");
    let mv = blocks[2].lines().collect::<Vec<_>>();
    assert_eq!(mv.len(), 2, "{out}");
    assert!(mv[0].starts_with('w'), "{out}");
    let depths: Vec<&str> = blocks[3].lines().collect();
    let (ok, counts) = depths.split_last().unwrap();
    assert_eq!(*ok, "ok");
    // Depth 1 always finishes; depth 12 never does within the bound.
    assert!(counts[0].starts_with("1: 7 ") && counts.len() < 12, "{out}");
}
