//! The tournament's JSONL files that earlier versions of comb wrote still merge and resume, and
//! a line read back is written again byte for byte: the committed calibration record (written
//! by comb 0.1.0 over many sessions) merges to the report it always gave and to its own lines,
//! and a run killed mid-way by comb 0.1.0 (`tests/data/resume-v0.1.0.jsonl`) resumes into the
//! games an uninterrupted run plays (the old run's games kept, the rest played by this comb).

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

mod common;
use common::{data, stderr, stdout, temp_dir, COMB};

/// The game number of a JSONL line.
fn game_number(line: &str) -> u64 {
    let value: Value = serde_json::from_str(line).expect("a JSON line");
    value["game"].as_u64().expect("a game number")
}

#[test]
fn the_calibration_record_merges_as_it_always_did() {
    let dir = temp_dir("jsonl", "calibration");
    let record = data("positions/calibration/hive-hard-seed42.jsonl");
    let merged = dir.join("merged.jsonl");
    let out = Command::new(COMB)
        .args(["tournament", "merge", &record, "--jsonl", &merged.display().to_string()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // What comb 0.1.0 printed (the README shows it too).
    assert_eq!(
        stdout(&out),
        "Merged 1 file: tournament eab15f69cdb2c14a\n\
         \n\
         Results of hard, nokamute after 28 of 50 games:\n\
         Score of hard vs nokamute: 10 - 13 - 5 [0.446] 28\n\
         ...      hard playing White: 6 - 7 - 1 [0.464] 14\n\
         ...      hard playing Black: 4 - 6 - 4 [0.429] 14\n\
         ...      White vs Black: 12 - 11 - 5 [0.518] 28\n\
         Elo difference: -37.4 +/- 122.1, LOS: 26.6 %, DrawRatio: 17.9 %\n\
         Pairs: Elo -37.4 +/- 95.6, nElo: -52.0 +/- 128.7, PairsRatio: 0.50\n\
         Ptnml(0-2): [2, 2, 8, 1, 1], WL/DD Ratio: 7.00\n\
         Terminations: surrounded 23, repetition 4, max-plies 1\n\
         Played 28 games in 11h 59m 19s (2.3 games/hour)\n"
    );
    // Every line read back and written again is the line comb 0.1.0 wrote, in game order.
    let text = std::fs::read_to_string(&record).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.sort_by_key(|l| game_number(l));
    let expected: String = lines.iter().map(|l| format!("{l}\n")).collect();
    assert!(std::fs::read_to_string(&merged).unwrap() == expected, "the merged lines differ from the record's");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `comb tournament` with `args`, run from the repository's root with `tests/comb_engine.sh`
/// starting the comb under test.
fn tournament(args: &[&str]) -> Output {
    Command::new(COMB)
        .arg("tournament")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("COMB_ENGINE", COMB)
        // The recorded games were played with the hand-written evaluation, then the default.
        .env("COMB_ENGINE_ARGS", "--option Evaluation=Classic")
        .output()
        .unwrap()
}

/// The arguments of the run that wrote `tests/data/resume-v0.1.0.jsonl` (comb at depth 2
/// against depth 1, 6 games), with the game files `jsonl` and `pgn`.
fn the_old_run(jsonl: &Path, pgn: &Path) -> Vec<String> {
    let engine = "cmd=bash args=tests/comb_engine.sh option.MaxHelperThreads=None option.TranspositionTableSizeMB=4";
    let mut args: Vec<String> = Vec::new();
    for (name, depth) in [("A", "depth=2"), ("B", "depth=1")] {
        args.extend(["--engine".to_string(), format!("name={name}")]);
        args.extend(engine.split(' ').map(str::to_string));
        args.push(depth.to_string());
    }
    let rest =
        "--rounds 3 --concurrency 1 --max-plies 60 --openings positions/openings-base-mlp.txt --order random --seed 5";
    args.extend(rest.split(' ').map(str::to_string));
    args.extend(["--jsonl".into(), jsonl.display().to_string(), "--pgn".into(), pgn.display().to_string()]);
    args
}

/// A JSONL file's games without what varies from run to run (the times).
fn games_without_times(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut games: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    for game in &mut games {
        let fields = game.as_object_mut().unwrap();
        for key in ["started", "seconds", "white_seconds", "black_seconds"] {
            fields.remove(key).unwrap_or_else(|| panic!("no {key}"));
        }
    }
    games.sort_by_key(|g| g["game"].as_u64());
    games
}

#[test]
fn a_run_killed_under_an_earlier_version_resumes() {
    let dir = temp_dir("jsonl", "resume-old");
    let old = std::fs::read_to_string(data("tests/data/resume-v0.1.0.jsonl")).unwrap();
    let (part, part_pgn) = (dir.join("part.jsonl"), dir.join("part.pgn"));
    std::fs::write(&part, &old).unwrap();
    let mut args = the_old_run(&part, &part_pgn);
    args.push("--resume".into());
    let out = tournament(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let (stdout, stderr) = (stdout(&out), stderr(&out));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains(&format!("Resume: 4 of 6 games kept from {}, 2 to play\n", part.display())), "{stdout}");
    assert!(stderr.contains(&format!("{}:5: the last line is cut short", part.display())), "{stderr}");
    // The kept lines are untouched; the cut one is played again.
    let text = std::fs::read_to_string(&part).unwrap();
    let kept: Vec<&str> = old.lines().take(4).collect();
    assert_eq!(text.lines().take(4).collect::<Vec<_>>(), kept);
    assert_eq!(text.lines().count(), 6);

    // The games, report and PGN of a run never interrupted: the old run's four games, then the
    // two the current engine plays (a fresh run's fifth and sixth: the search may have changed
    // since 0.1.0, the schedule may not), read back by a resume with nothing left to play.
    let (fresh, fresh_pgn) = (dir.join("fresh.jsonl"), dir.join("fresh.pgn"));
    let played = tournament(&the_old_run(&fresh, &fresh_pgn).iter().map(String::as_str).collect::<Vec<_>>());
    assert!(played.status.success(), "{}", common::stderr(&played));
    let (whole, whole_pgn) = (dir.join("whole.jsonl"), dir.join("whole.pgn"));
    let fresh_text = std::fs::read_to_string(&fresh).unwrap();
    let whole_lines: Vec<&str> = kept.iter().copied().chain(fresh_text.lines().skip(4)).collect();
    std::fs::write(&whole, whole_lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
    let mut whole_args = the_old_run(&whole, &whole_pgn);
    whole_args.push("--resume".into());
    let read_back = tournament(&whole_args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(read_back.status.success(), "{}", common::stderr(&read_back));
    assert!(common::stdout(&read_back).contains("Resume: 6 of 6 games kept from"), "{}", common::stdout(&read_back));
    assert_eq!(games_without_times(&part), games_without_times(&whole));
    let report = |text: &str| text[text.rfind("Results of").unwrap()..text.rfind("Played").unwrap()].to_string();
    assert_eq!(report(&stdout), report(&common::stdout(&read_back)));
    let without_dates = |path: &Path| {
        let text = std::fs::read_to_string(path).unwrap();
        text.lines().filter(|l| !l.starts_with("[Date ")).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(without_dates(&part_pgn), without_dates(&whole_pgn));
    let _ = std::fs::remove_dir_all(&dir);
}
