//! Intellector over the protocol: the same commands as Hive, under the game type `Intellector`.

use comb::uhp::{self, HelperThreads, Options, Session, Signals};
use std::io::Cursor;
use std::sync::Arc;

fn options() -> Options {
    Options { max_helper_threads: HelperThreads::Count(0), table_megabytes: 4, ..Options::default() }
}

fn replies(input: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    uhp::run(Cursor::new(input.as_bytes().to_vec()), &mut out, options(), Arc::new(Signals::default())).unwrap();
    let text = String::from_utf8(out).unwrap();
    let mut blocks = Vec::new();
    let mut block = Vec::new();
    for line in text.lines() {
        block.push(line.to_string());
        if line == "ok" {
            blocks.push(std::mem::take(&mut block));
        }
    }
    blocks.remove(0); // the info block
    blocks
}

#[test]
fn newgame_play_undo_sip() {
    let r =
        replies("newgame Intellector\nplay e2e3\nplay FXg7\nplay e6e5\nplay E1:F1\nsip\nundo 2\nplay zz9\npass\nsip\n");
    assert_eq!(r[0], ["Intellector;NotStarted;White[1]", "ok"]);
    assert_eq!(r[1], ["Intellector;InProgress;Black[1];e2e3", "ok"]);
    assert_eq!(r[2][0], "invalidmove You can't move that piece there.");
    assert_eq!(r[3], ["Intellector;InProgress;White[2];e2e3;e6e5", "ok"]);
    // intellector.info's own notation is read; the record keeps the canonical form.
    assert_eq!(r[4], ["Intellector;InProgress;Black[2];e2e3;e6e5;e1f1", "ok"]);
    assert_eq!(r[5], ["2!bmrtrurwrxryize0n1i2o3g4e5g6o!AoBgCnDgEoFiGeHeIiJrKrMrNrUr", "ok"]);
    assert_eq!(r[6], ["Intellector;InProgress;Black[1];e2e3", "ok"]);
    assert!(r[7][0].starts_with("invalidmove Unable to parse move"), "{:?}", r[7]);
    assert!(r[8][0].starts_with("invalidmove"), "{:?}", r[8]);
    assert_eq!(r[9], ["2!bmrtrurwrxryize0e1i2o3g4n5g6o!AoBgCnDgEoFiGeHeIiJrKrLrMrNr", "ok"]);
}

#[test]
fn custom_start_round_trips() {
    let sip = "2!bPrarhrnrrovozn0i3g5e!DgGnIoLeOgUrbideirjiur";
    let r = replies(&format!("newgame Intellector[{sip}]\nvalidmoves\nsip\n"));
    assert_eq!(r[0], [format!("Intellector[{sip}];NotStarted;Black[1]"), "ok".to_string()]);
    assert_eq!(r[1][0].split(';').count(), 59);
    assert_eq!(r[2], [sip.to_string(), "ok".to_string()]);
    let r = replies("newgame Intellector[garbage]\nsip\n");
    assert_eq!(r[0], ["err Unable to parse 'Intellector[garbage]' in GameString. (Parameter 'gameStr')", "ok"]);
    assert_eq!(r[1], ["err No game in progress. Try 'newgame' to start a new game.", "ok"]);
}

#[test]
fn sip_is_for_intellector_only() {
    let r = replies("newgame Base\nsip\n");
    assert_eq!(r[1], ["err The sip command is for Intellector games.", "ok"]);
}

#[test]
fn perft_over_the_protocol() {
    let r = replies("newgame Intellector\nperft 3\n");
    let counts: Vec<&str> = r[1][..3].iter().map(|l| l.split("  ").next().unwrap()).collect();
    assert_eq!(counts, ["1: 35", "2: 1195", "3: 42078"]);
}

#[test]
fn classic_rules_option() {
    let r = replies("options set IntellectorRules Classic\nnewgame Intellector\nvalidmoves\n");
    assert_eq!(r[0], ["IntellectorRules;enum;Classic;Modern;Modern;Classic", "ok"]);
    // Without the Liberator's step the start has 33 moves instead of 35.
    assert_eq!(r[2][0].split(';').count(), 33);
}

#[test]
fn the_evaluation_option_is_set_and_searched_with() {
    let r = replies("newgame Intellector\nplay e2e3\noptions set IntellectorEvaluation classic\nbestmove depth 2\n");
    assert_eq!(r[2], ["IntellectorEvaluation;enum;Classic;Net;Classic;Net", "ok"]);
    // The game in progress is searched with the hand-written evaluation: a legal reply comes.
    let r2 = replies("newgame Intellector\nplay e2e3\nvalidmoves\n");
    let legal: Vec<&str> = r2[2][0].split(';').collect();
    assert!(legal.contains(&r[3][0].as_str()), "{:?}", r[3]);
}

#[test]
fn a_whole_game_by_bestmove_ends_with_a_result() {
    let mut session = Session::new(Vec::new(), options(), Arc::new(Signals::default()));
    session.execute("newgame Intellector");
    let mut plies = 0;
    loop {
        std::mem::take(session.output_mut());
        // Alternate fixed-depth and timed searches, as a GUI might.
        let command = if plies % 2 == 0 { "bestmove depth 2" } else { "bestmove time 00:00:00.02" };
        session.execute(command);
        let out = String::from_utf8(std::mem::take(session.output_mut())).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        if lines[0].starts_with("err The game is over") {
            break;
        }
        assert_eq!(lines.len(), 2, "{out}");
        session.execute(&format!("play {}", lines[0]));
        let out = String::from_utf8(std::mem::take(session.output_mut())).unwrap();
        assert!(out.starts_with("Intellector;"), "{out}");
        plies += 1;
        assert!(plies < 600, "the 60-ply and repetition rules end every game");
    }
    let state = session.game_string().unwrap();
    let field = state.split(';').nth(1).unwrap();
    assert!(["WhiteWins", "BlackWins", "Draw"].contains(&field), "{state}");
}
