//! Multi-PV lines and difficulty levels: what the search reports and what a level plays.

use comb::hive::HiveGame;
use comb::intellector::{IntellectorGame, Rules};
use comb::search::{Level, Limits, Searcher, MATE};
use std::collections::{HashMap, HashSet};
use std::process::Command;
use std::sync::atomic::AtomicBool;

const MIDGAME: &str =
    "Base+MLP;InProgress;Black[5];wA1;bL -wA1;wA2 wA1\\;bA1 \\bL;wB1 wA2-;bQ /bA1;wQ wB1-;bA1 wA1/;wM wA2\\";

fn hive(text: &str) -> comb::hive::Hive {
    HiveGame::parse(text).unwrap().hive().clone()
}

#[test]
fn multipv_lines_are_distinct_moves_best_first() {
    let root = hive(MIDGAME);
    for depth in 1..=4 {
        let mut engine = Searcher::new(16, 1);
        engine.set_multipv(5);
        let r = engine.search(&root, Limits::depth(depth), &AtomicBool::new(false), &mut |_| {});
        assert_eq!(r.lines.len(), 5, "depth {depth}");
        let firsts: HashSet<_> = r.lines.iter().map(|l| l.pv[0]).collect();
        assert_eq!(firsts.len(), 5, "five different root moves");
        assert!(r.lines.windows(2).all(|w| w[0].score >= w[1].score), "ordered by score: {:?}", r.lines);
        assert_eq!(Some(r.lines[0].pv[0]), r.best);
        assert_eq!(r.lines[0].score, r.score);
        assert_eq!(r.lines[0].pv, r.pv);
    }
}

#[test]
fn multipv_finds_the_win_first_and_reports_every_line() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/positions/hive-tactics.txt")).unwrap();
    let win = text.lines().find_map(|l| l.strip_prefix("win1\t")).unwrap();
    let mut engine = Searcher::new(16, 1);
    engine.set_multipv(3);
    let mut reported = Vec::new();
    let r = engine.search(&hive(win), Limits::depth(3), &AtomicBool::new(false), &mut |rep| {
        reported.push((rep.depth, rep.lines.len()))
    });
    assert_eq!(r.lines[0].score, MATE - 1);
    assert_eq!(reported, vec![(1, 3), (2, 3), (3, 3)]);
}

#[test]
fn multipv_of_one_is_the_plain_search() {
    let root = hive(MIDGAME);
    let search = |multipv: Option<usize>| {
        let mut engine = Searcher::new(16, 1);
        if let Some(n) = multipv {
            engine.set_multipv(n);
        }
        engine.search(&root, Limits::depth(5), &AtomicBool::new(false), &mut |_| {})
    };
    let (plain, one) = (search(None), search(Some(1)));
    assert_eq!((plain.best, plain.score, plain.nodes, &plain.pv), (one.best, one.score, one.nodes, &one.pv));
    assert_eq!(one.lines.len(), 1);
    assert_eq!(one.lines[0].pv, one.pv);
}

#[test]
fn intellector_multipv_works_too() {
    let game = IntellectorGame::from_game_type("Intellector", Rules::Modern).unwrap();
    let mut engine = Searcher::new(16, 1);
    engine.set_multipv(4);
    let r = engine.search(game.position(), Limits::depth(3), &AtomicBool::new(false), &mut |_| {});
    assert_eq!(r.lines.len(), 4);
    assert!(r.lines.windows(2).all(|w| w[0].score >= w[1].score));
}

/// The moves a level plays from `text` with seeds `0..n`.
fn level_moves(level: Level, text: &str, seeds: std::ops::Range<u64>) -> Vec<comb::hive::Move> {
    let root = hive(text);
    seeds
        .map(|seed| {
            let mut engine = Searcher::new(4, 1);
            engine.set_level(level, seed);
            // Deeper than any level searches: the level's own depth decides.
            engine.search(&root, Limits::depth(6), &AtomicBool::new(false), &mut |_| {}).best.unwrap()
        })
        .collect()
}

#[test]
fn a_level_repeats_itself_with_a_seed_and_varies_without() {
    for level in [Level::Easy, Level::Medium, Level::Hard] {
        assert_eq!(level_moves(level, MIDGAME, 5..6), level_moves(level, MIDGAME, 5..6), "{level:?}");
    }
    let easy = level_moves(Level::Easy, MIDGAME, 0..40);
    let mut counts: HashMap<_, usize> = HashMap::new();
    for m in &easy {
        *counts.entry(m).or_default() += 1;
    }
    assert!(counts.len() >= 3, "Easy varies its moves: {counts:?}");
    let max = level_moves(Level::Max, MIDGAME, 0..5);
    assert!(max.windows(2).all(|w| w[0] == w[1]), "Max is the search's own move");
}

#[test]
fn a_level_caps_the_depth_and_still_takes_a_win() {
    let root = hive(MIDGAME);
    // Each level stops at its own depth (Hive's table), below the depth asked for.
    for (level, cap) in [(Level::Easy, 2), (Level::Medium, 4), (Level::Hard, 7)] {
        let mut engine = Searcher::new(4, 1);
        engine.set_level(level, 1);
        let r = engine.search(&root, Limits::depth(9), &AtomicBool::new(false), &mut |_| {});
        assert_eq!(r.depth, cap, "{level:?}");
    }
    // Past its node budget a level plays from the deepest iteration it finished.
    let mut engine = Searcher::new(4, 1);
    engine.set_level(Level::Hard, 1);
    let budget = Limits { depth: Some(9), nodes: Some(50_000), time: None };
    let r = engine.search(&root, budget, &AtomicBool::new(false), &mut |_| {});
    assert!(r.nodes <= 50_000 + 1024 && r.depth < 7, "{} nodes, depth {}", r.nodes, r.depth);
    assert!(r.best.is_some() && r.depth >= 1);
    // A level plays a forced win it has seen, the quickest one.
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/positions/hive-tactics.txt")).unwrap();
    for win in text.lines().filter_map(|l| l.strip_prefix("win1\t")) {
        for seed in 0..10 {
            let mut engine = Searcher::new(4, 1);
            engine.set_level(Level::Easy, seed);
            let r = engine.search(&hive(win), Limits::depth(6), &AtomicBool::new(false), &mut |_| {});
            assert_eq!(r.score, MATE - 1, "{win} seed {seed}");
        }
    }
}

#[test]
fn levels_search_with_the_evaluation_they_were_calibrated_with() {
    use comb::hive::Evaluation;
    let search = |level: Level, evaluation: Evaluation| {
        let mut root = hive(MIDGAME);
        root.set_evaluation(evaluation);
        let mut engine = Searcher::new(4, 1);
        engine.set_level(level, 7);
        let r = engine.search(&root, Limits::depth(5), &AtomicBool::new(false), &mut |_| {});
        (r.best, r.score, r.nodes, r.lines)
    };
    assert_eq!(comb::games::GameOptions::default().hive_evaluation, Evaluation::Net, "the network is the default");
    // Below Max a level's search is the same whichever evaluation the position was set to.
    for level in [Level::Easy, Level::Medium, Level::Hard] {
        assert_eq!(search(level, Evaluation::Net), search(level, Evaluation::Classic), "{level:?}");
    }
    // At full strength the option decides.
    assert_ne!(search(Level::Max, Evaluation::Net).2, search(Level::Max, Evaluation::Classic).2);
}

#[test]
fn intellector_levels_search_with_the_hand_written_evaluation_too() {
    use comb::hive::Evaluation;
    let search = |level: Level, evaluation: Evaluation| {
        let mut root =
            IntellectorGame::parse("Intellector;InProgress;Black[1];e2e3", Rules::Modern).unwrap().position().clone();
        root.set_evaluation(evaluation);
        let mut engine = Searcher::new(4, 1);
        engine.set_level(level, 7);
        let r = engine.search(&root, Limits::depth(5), &AtomicBool::new(false), &mut |_| {});
        (r.best, r.score, r.nodes, r.lines)
    };
    assert_eq!(comb::games::GameOptions::default().intellector_evaluation, Evaluation::Net);
    for level in [Level::Easy, Level::Medium, Level::Hard] {
        assert_eq!(search(level, Evaluation::Net), search(level, Evaluation::Classic), "{level:?}");
    }
    assert_ne!(search(Level::Max, Evaluation::Net).2, search(Level::Max, Evaluation::Classic).2);
}

fn comb(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_comb")).args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_command_line_takes_levels_and_lines() {
    let json = comb(&["bestmove", "--depth", "3", "--threads", "1", "--multipv", "3", "--json", MIDGAME]);
    assert_eq!(json.matches("{\"move\"").count(), 4, "the object and three lines: {json}");
    let seeded = |seed: &str| {
        comb(&["bestmove", "--difficulty", "easy", "--option", &format!("DifficultySeed={seed}"), MIDGAME])
    };
    assert_eq!(seeded("9"), seeded("9"));
    let out =
        Command::new(env!("CARGO_BIN_EXE_comb")).args(["bestmove", "--difficulty", "expert", "Base"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_protocol_reports_every_line_and_ends_with_the_move() {
    let input = format!(
        "options set MaxHelperThreads None\noptions set MultiPV 2\noptions set ReportIntermediateBestMoves True\nnewgame {MIDGAME}\nbestmove depth 2\n"
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_comb"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    let answer: Vec<&str> = out.split("ok\n").nth(5).unwrap().lines().collect();
    // Two lines per depth, best first, then the bare move.
    assert_eq!(answer.len(), 5, "{answer:?}");
    let depth = |l: &str| l.split(';').nth(1).unwrap().to_string();
    let score = |l: &str| l.split(';').nth(2).unwrap().parse::<f64>().unwrap();
    assert_eq!([depth(answer[0]), depth(answer[1]), depth(answer[2]), depth(answer[3])], ["1", "1", "2", "2"]);
    assert!(score(answer[2]) >= score(answer[3]));
    assert_eq!(answer[4], answer[2].split(';').next().unwrap());
}
