//! `comb tournament` end to end, through the real binary: comb against comb with openings,
//! concurrency and both output files; engines that cheat, crash, hang or break the protocol
//! lose with the right reason while the tournament goes on; SPRT stops early; bad set-ups are
//! refused with clear messages; an engine that does not declare the game's expansions is warned
//! about; a game file that cannot be written ends the run; tiny results print no NaN; PGN tags
//! read back alike; a reader that leaves early stops the run quietly; shards (from `--shard`,
//! Slurm and Kubernetes variables) play disjoint parts of the whole run's games, and merged they
//! report what it reports, up to its SPRT verdict, while other tournaments and games met twice
//! are refused; a run killed mid-way and resumed (`--resume`) ends with the games, report and
//! PGN of a run never interrupted, and a file that is not the run's is refused; engine names
//! with ` | ` merge; merge takes its output options before or after `merge`, refuses a run's
//! options by name, and refuses files from before tournament ids and cut short.

use comb::pgn::{mzinga_tag, standard_tag};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{data, json_field, temp_dir, COMB};

fn comb_engine(name: &str) -> Vec<String> {
    vec![
        "--engine".into(),
        format!("name={name}"),
        format!("cmd={COMB}"),
        "option.MaxHelperThreads=None".into(),
        "option.TranspositionTableSizeMB=4".into(),
    ]
}

fn fake_engine(mode: &str) -> Vec<String> {
    vec![
        "--engine".into(),
        format!("name=fake-{mode}"),
        "cmd=bash".into(),
        format!("args={} {mode}", data("tests/fake_engine.sh")),
    ]
}

fn tournament(args: &[String]) -> (Output, String) {
    let out = Command::new(COMB).arg("tournament").args(args).output().expect("comb runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    (out, stdout)
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// A PGN game's tags (in order) and MoveStrings.
type PgnGame = (Vec<(String, String)>, Vec<String>);

/// The games of a PGN file, with tags read as MzingaViewer reads them.
fn pgn_games(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    for block in text.split("\n\n[").filter(|b| !b.trim().is_empty()) {
        let mut tags = Vec::new();
        let mut moves = Vec::new();
        for line in block.lines() {
            // Blocks after the first lost their first `[` to the split.
            let line = format!("[{}", line.trim().trim_start_matches('['));
            if let Some(tag) = mzinga_tag(&line).filter(|_| line.ends_with("\"]")) {
                tags.push(tag);
            } else if let Some((number, mv)) = line[1..].split_once(". ") {
                assert_eq!(number.parse::<usize>().unwrap(), moves.len() + 1, "plies are numbered");
                moves.push(mv.to_string());
            }
        }
        games.push((tags, moves));
    }
    games
}

fn tag<'a>(tags: &'a [(String, String)], key: &str) -> &'a str {
    tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str()).unwrap_or_else(|| panic!("tag {key}"))
}

/// W - L - D from the final `Score of A vs B: W - L - D [s] N` line.
fn final_score(stdout: &str, a: &str, b: &str) -> (usize, usize, usize, usize) {
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with(&format!("Score of {a} vs {b}: ")))
        .unwrap_or_else(|| panic!("no score line in\n{stdout}"));
    let nums: Vec<usize> = line
        .split(": ")
        .nth(1)
        .unwrap()
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .filter(|s| !s.is_empty() && !s.contains('.'))
        .map(|s| s.parse().unwrap())
        .collect();
    (nums[0], nums[1], nums[2], nums[3])
}

#[test]
fn comb_against_comb_writes_consistent_pgn_and_jsonl() {
    let dir = temp_dir("tournament", "selfplay");
    let (pgn, jsonl) = (dir.join("games.pgn"), dir.join("games.jsonl"));
    // A follows each game with `play`, B is sent the whole game before every move.
    let mut args = comb_engine("A");
    args.push("sync=play".into());
    args.extend(comb_engine("B"));
    args.extend(strings(&["--each", "depth=1", "--rounds", "3", "--concurrency", "2", "--rating-interval", "4"]));
    args.extend(strings(&["--openings", &data("positions/openings-base-mlp.txt"), "--order", "random", "--seed", "7"]));
    args.extend(["--pgn".into(), pgn.display().to_string(), "--jsonl".into(), jsonl.display().to_string()]);
    let (out, stdout) = tournament(&args);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));

    let finished: Vec<&str> = stdout.lines().filter(|l| l.starts_with("Finished game ")).collect();
    assert_eq!(finished.len(), 6, "{stdout}");
    assert_eq!(stdout.lines().filter(|l| l.starts_with("Progress: ")).count(), 6);
    assert!(stdout.contains("Openings: ") && stdout.contains("random, seed 7"), "{stdout}");
    assert!(stdout.contains("depth=1, sync=play, options MaxHelperThreads=None"), "{stdout}");
    assert!(stdout.contains("Elo difference: ") && stdout.contains("LOS: ") && stdout.contains("DrawRatio: "));
    assert!(stdout.contains("Ptnml(0-2): ["), "{stdout}");
    // A standings block after game 4, and the final one.
    assert_eq!(stdout.lines().filter(|l| l.starts_with("Score of A vs B: ")).count(), 2, "{stdout}");
    let (w, l, d, n) = final_score(&stdout, "A", "B");
    assert_eq!((w + l + d, n), (6, 6));

    let lines: Vec<String> = std::fs::read_to_string(&jsonl).unwrap().lines().map(str::to_string).collect();
    let games = pgn_games(&std::fs::read_to_string(&pgn).unwrap());
    assert_eq!(lines.len(), 6);
    assert_eq!(games.len(), 6);
    let (mut a_points, mut numbers) = (0.0, Vec::new());
    let openings = std::fs::read_to_string(data("positions/openings-base-mlp.txt")).unwrap();
    for (line, (tags, moves)) in lines.iter().zip(&games) {
        assert!(line.starts_with('{') && line.ends_with('}'));
        // Both files hold the same game, in the same order.
        assert_eq!(json_field(line, "game"), tag(tags, "Round"));
        assert_eq!(json_field(line, "result"), tag(tags, "Result"));
        assert_eq!(json_field(line, "white"), tag(tags, "White"));
        assert_eq!(json_field(line, "black"), tag(tags, "Black"));
        assert_eq!(json_field(line, "opening"), tag(tags, "Opening"));
        assert_eq!(json_field(line, "reason"), tag(tags, "Termination"));
        assert_eq!(tag(tags, "GameType"), "Base+MLP");
        assert_eq!(json_field(line, "plies").parse::<usize>().unwrap(), moves.len());
        assert!(openings.lines().any(|o| o == tag(tags, "Opening")), "the opening comes from the book");
        // The final GameString replays to the same moves, starting with the opening's.
        let game_string = json_field(line, "game_string");
        assert_eq!(game_string.split(';').skip(3).collect::<Vec<_>>(), *moves);
        let opening_moves: Vec<&str> = tag(tags, "Opening").split(';').skip(3).collect();
        assert_eq!(moves[..opening_moves.len()], opening_moves);
        let result = json_field(line, "result");
        let reason = json_field(line, "reason");
        assert!(["surrounded", "both-surrounded", "repetition", "max-plies"].contains(&reason.as_str()), "{line}");
        assert_eq!(result == "Draw", reason != "surrounded", "{line}");
        let a_white = json_field(line, "white") == "A";
        a_points += match result.as_str() {
            "Draw" => 0.5,
            "WhiteWins" if a_white => 1.0,
            "BlackWins" if !a_white => 1.0,
            _ => 0.0,
        };
        numbers.push(json_field(line, "game").parse::<usize>().unwrap());
        let finished_line =
            finished.iter().find(|f| f.starts_with(&format!("Finished game {} (", numbers.last().unwrap()))).unwrap();
        assert!(finished_line.contains(&format!("{{{result}: ")), "{finished_line}");
    }
    numbers.sort();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
    assert_eq!(a_points, w as f64 + d as f64 / 2.0, "the report's score matches the files");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cheating_crashing_hanging_and_broken_engines_lose_and_the_tournament_goes_on() {
    let dir = temp_dir("tournament", "faults");
    let (jsonl, logs) = (dir.join("games.jsonl"), dir.join("logs"));
    let mut args = comb_engine("comb");
    for mode in ["illegal", "crash", "hang", "error"] {
        args.extend(fake_engine(mode));
    }
    args.extend(strings(&["--each", "depth=1", "--mode", "gauntlet", "--rounds", "1", "--depth-timeout", "1"]));
    args.extend(strings(&["--concurrency", "2", "--openings", &data("positions/openings-base.txt")]));
    args.extend(["--jsonl".into(), jsonl.display().to_string(), "--transcripts".into(), logs.display().to_string()]);
    let (out, stdout) = tournament(&args);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<String> = std::fs::read_to_string(&jsonl).unwrap().lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 8, "every game was played: {stdout}");
    for (mode, reason, words) in [
        (
            "fake-illegal",
            "illegal-move",
            "illegal move by fake-illegal: `pass` (You can't pass when you have valid moves.)",
        ),
        ("fake-crash", "crash", "fake-crash crashed (exited with code 3)"),
        ("fake-hang", "timeout", "fake-hang timed out (no reply within 1.0 s)"),
        ("fake-error", "protocol-error", "fake-error protocol error (err Something went wrong.)"),
    ] {
        let games: Vec<&String> =
            lines.iter().filter(|l| json_field(l, "white") == mode || json_field(l, "black") == mode).collect();
        assert_eq!(games.len(), 2, "{mode} played both colours");
        for game in games {
            let comb_white = json_field(game, "white") == "comb";
            assert_eq!(json_field(game, "result"), if comb_white { "WhiteWins" } else { "BlackWins" }, "{game}");
            assert_eq!(json_field(game, "reason"), reason, "{game}");
            assert_eq!(json_field(game, "detail"), words, "{game}");
            let number: usize = json_field(game, "game").parse().unwrap();
            let log = std::fs::read_to_string(logs.join(format!("game-{number:04}.log"))).unwrap();
            assert!(log.contains("> bestmove depth 1"), "{log}");
        }
    }
    let (w, l, d, n) = final_score(&stdout, "comb", "fake-illegal");
    assert_eq!((w, l, d, n), (2, 0, 0, 2));
    assert!(stdout.contains("Rank Name"), "a gauntlet of five engines prints a ranking: {stdout}");
    assert!(stdout.contains("Terminations: crash 2, illegal-move 2, protocol-error 2, timeout 2"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_at_fault_is_started_afresh_for_its_next_game_whatever_the_fault() {
    let dir = temp_dir("tournament", "restarts");
    for mode in ["illegal", "error"] {
        let logs = dir.join(mode);
        let mut args = comb_engine("comb");
        args.extend(fake_engine(mode));
        args.extend(strings(&["--each", "depth=1", "--rounds", "1", "--concurrency", "1"]));
        args.extend(["--transcripts".into(), logs.display().to_string()]);
        let (out, stdout) = tournament(&args);
        assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
        // Both games fall to the fake engine's fault on one worker. A process started for a
        // game introduces itself in that game's transcript; one kept from the game before
        // would not.
        for number in [1, 2] {
            let log = std::fs::read_to_string(logs.join(format!("game-{number:04}.log"))).unwrap();
            let banner = format!("# fake-{mode} (");
            let engine_part = &log[log.find(&banner).unwrap_or_else(|| panic!("{mode}, game {number}: {log}"))..];
            assert!(engine_part.contains(&format!("< id fake-{mode} 1.0\n")), "{mode}, game {number}: {log}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_stops_at_its_verdict() {
    let mut args = comb_engine("comb");
    args.extend(fake_engine("illegal"));
    args.extend(strings(&[
        "--each",
        "depth=1",
        "--rounds",
        "50",
        "--concurrency",
        "1",
        "--sprt",
        "elo0=0",
        "elo1=200",
    ]));
    let (out, stdout) = tournament(&args);
    assert!(out.status.success(), "{stdout}");
    // Every pair is won twice over; eight such pairs carry the LLR past ln(0.95 / 0.05).
    assert!(stdout.contains("SPRT: H1 accepted after 16 games (LLR 3.35)"), "{stdout}");
    assert!(stdout.contains("LLR: 3.35 (113.7%) (-2.94, 2.94) [0.00, 200.00]"), "{stdout}");
    assert_eq!(stdout.lines().filter(|l| l.starts_with("Finished game")).count(), 16);
}

#[test]
fn bad_setups_are_refused_with_reasons() {
    let refuse = |extra: &[String], expected: &str| {
        let (out, _) = tournament(extra);
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(expected), "expected `{expected}` in {stderr}");
    };
    let dir = temp_dir("tournament", "setups");
    let book = dir.join("book.txt");
    std::fs::write(&book, "# fine\nBase;InProgress;Black[1];wS1\nBase;InProgress;White[2];wS1;bQ wS1-\n").unwrap();
    let mut two = comb_engine("A");
    two.extend(comb_engine("B"));
    two.extend(strings(&["--each", "depth=1"]));

    let with = |extra: &[&str]| [two.clone(), strings(extra)].concat();
    refuse(&with(&["--openings", &book.display().to_string()]), "book.txt:3: Unable to play 'bQ wS1-'");
    refuse(
        &with(&["--game-type", "Intellector", "--openings", &book.display().to_string()]),
        "the tournament plays `Intellector`",
    );
    refuse(&with(&["--game-type", "Chess"]), "unknown game type `Chess`");
    refuse(&with(&["--sprt", "elo0=5", "elo1=0"]), "elo0 (5) must be below elo1 (0)");
    refuse(&comb_engine("A"), "at least two engines");
    let missing = [comb_engine("A"), strings(&["--engine", "cmd=/nonexistent/engine", "--each", "depth=1"])].concat();
    refuse(&missing, "engine 2 (`/nonexistent/engine`): could not start");
    let no_limit = [comb_engine("A"), comb_engine("B")].concat();
    refuse(&no_limit, "no limit");
    let _ = std::fs::remove_dir_all(Path::new(&dir));
}

#[test]
fn intellector_tournament_ends_by_its_rules() {
    let dir = temp_dir("tournament", "intellector");
    let jsonl = dir.join("games.jsonl");
    let mut args = comb_engine("deep");
    args.push("depth=3".into());
    args.extend(comb_engine("shallow"));
    args.push("depth=1".into());
    args.extend(strings(&[
        "--openings",
        &data("positions/openings-intellector.txt"),
        "--rounds",
        "3",
        "--concurrency",
        "2",
    ]));
    args.extend(strings(&["--jsonl", &jsonl.display().to_string()]));
    let (out, stdout) = tournament(&args);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&jsonl).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6);
    for line in lines {
        assert_eq!(json_field(line, "game_type"), "Intellector");
        let reason = json_field(line, "reason");
        assert!(
            ["fatum", "breakthrough", "repetition", "sixty-plies", "no-moves", "max-plies"].contains(&reason.as_str()),
            "{line}"
        );
        let game = comb::intellector::IntellectorGame::parse(
            &json_field(line, "game_string"),
            comb::intellector::Rules::Modern,
        )
        .unwrap();
        if reason != "max-plies" {
            assert_eq!(game.state_string(), json_field(line, "result"), "{line}");
        }
    }
    let _ = std::fs::remove_dir_all(Path::new(&dir));
}

/// `comb tournament` with piped output, and a reader that takes `lines` lines of its standard
/// output and then closes the pipe (as `| head -n` does). Returns the exit status code (`None`
/// after being killed at `limit`) and standard error.
fn tournament_with_early_reader(args: &[String], lines: usize, limit: Duration) -> (Option<i32>, String) {
    use std::io::{BufRead, BufReader, Read};
    let mut child = Command::new(COMB)
        .arg("tournament")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("comb runs");
    let mut stderr = child.stderr.take().unwrap();
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let mut out = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..lines {
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
    }
    drop(out);
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (status, err.join().unwrap())
}

#[test]
fn a_reader_that_leaves_early_stops_the_tournament_quietly() {
    let mut args = comb_engine("A");
    args.extend(comb_engine("B"));
    args.extend(strings(&["--each", "depth=1", "--rounds", "20", "--concurrency", "1"]));
    let (code, stderr) = tournament_with_early_reader(&args, 1, Duration::from_secs(120));
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    assert_eq!(code, Some(141), "{stderr}");
}

#[test]
fn a_missing_engine_directory_is_named() {
    let mut args = comb_engine("A");
    args.extend(comb_engine("B"));
    args.push("dir=/nonexistent/engine-dir".into());
    args.extend(strings(&["--each", "depth=1"]));
    let (out, _) = tournament(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("engine 2 (`")
            && stderr.contains("could not start: the working directory `/nonexistent/engine-dir` does not exist"),
        "{stderr}"
    );
}

#[test]
fn an_engine_that_cannot_play_the_game_type_stops_the_run() {
    let mut args = comb_engine("comb");
    args.extend(fake_engine("hive-only"));
    args.extend(strings(&["--each", "depth=1", "--game-type", "Intellector", "--rounds", "1"]));
    let (out, stdout) = tournament(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stdout}\n{stderr}");
    let expected = format!(
        "error: engine 2 (`bash {} hive-only`) cannot play Intellector: it answered `newgame Intellector` with \
         `err Unable to parse game type.`",
        data("tests/fake_engine.sh")
    );
    assert!(stderr.contains(&expected), "{stderr}");
    assert!(!stdout.contains("Finished game"), "{stdout}");
    // The same engine plays Hive: the check only refuses what it refuses.
    let mut args = comb_engine("comb");
    args.extend(fake_engine("hive-only"));
    args.extend(strings(&["--each", "depth=1", "--rounds", "1"]));
    let (out, stdout) = tournament(&args);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(stdout.lines().filter(|l| l.starts_with("Finished game")).count(), 2, "{stdout}");
}

#[test]
fn intellector_under_classic_rules_is_played_to_the_end() {
    let mut args = comb_engine("A");
    args.extend(comb_engine("B"));
    args.extend(strings(&[
        "--each",
        "depth=1",
        "option.IntellectorRules=Classic",
        "--game-type",
        "Intellector",
        "--intellector-rules",
        "classic",
        "--rounds",
        "1",
    ]));
    let (out, stdout) = tournament(&args);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout.lines().filter(|l| l.starts_with("Finished game")).count(), 2, "{stdout}");
    assert!(!stdout.contains("protocol-error") && !stdout.contains("illegal-move"), "{stdout}");
    assert!(!stdout.contains("illegal move") && !stdout.contains("protocol"), "{stdout}");
}

#[test]
fn an_engine_that_does_not_declare_the_expansions_is_warned_about_and_plays() {
    let mut args = comb_engine("comb");
    args.extend(fake_engine("base-only"));
    args.extend(strings(&["--each", "depth=1", "--game-type", "Base+MP", "--rounds", "1"]));
    let (out, stdout) = tournament(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let expected = format!(
        "warning: engine 2 (`bash {} base-only`) does not declare Mosquito, Pillbug (capabilities: none), which \
         Base+MP needs",
        data("tests/fake_engine.sh")
    );
    assert!(stderr.contains(&expected), "{stderr}");
    assert!(stdout.contains("Terminations: protocol-error 2"), "{stdout}");
}

#[test]
fn a_game_file_that_cannot_be_written_ends_the_run_with_status_1() {
    // Writes to /dev/full fail with "no space left", as a full disk would.
    if !Path::new("/dev/full").exists() {
        return;
    }
    for option in ["--pgn", "--jsonl"] {
        let mut args = comb_engine("A");
        args.extend(comb_engine("B"));
        args.extend(strings(&["--each", "depth=1", "--rounds", "3", "--concurrency", "1", option, "/dev/full"]));
        let (out, stdout) = tournament(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
        let file = if option == "--pgn" { "PGN" } else { "JSONL" };
        assert!(stderr.contains(&format!("error: writing the {file} file: ")), "{stderr}");
        // The game that could not be written is not reported; the results so far are.
        assert!(!stdout.contains("Finished game"), "{stdout}");
        assert!(stdout.contains("Results of A, B after 0 of 6 games:"), "{stdout}");
    }
}

/// Fails if `text` holds a number that is not one (`NaN`, `inf`, `-inf`).
fn assert_no_nan_or_inf(text: &str) {
    let lower = text.to_ascii_lowercase();
    assert!(!lower.contains("nan") && !lower.contains("inf"), "{text}");
}

#[test]
fn statistics_of_tiny_results_are_numbers_or_na() {
    let dir = temp_dir("tournament", "tiny");
    let jsonl = dir.join("games.jsonl");
    // 2 - 0: a sweep, with an interim block after every game, the pentanomial and the SPRT.
    let mut args = comb_engine("comb");
    args.extend(fake_engine("illegal"));
    args.extend(strings(&["--each", "depth=1", "--rounds", "1", "--rating-interval", "1"]));
    args.extend(strings(&["--sprt", "elo0=0", "elo1=5", "--jsonl", &jsonl.display().to_string()]));
    let (out, stdout) = tournament(&args);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("Elo difference: n/a +/- n/a, LOS: "), "{stdout}");
    assert!(stdout.contains("Pairs: Elo n/a +/- n/a, nElo: n/a +/- "), "{stdout}");
    assert!(stdout.contains("LLR: "), "{stdout}");
    assert_no_nan_or_inf(&stdout);
    assert_no_nan_or_inf(&std::fs::read_to_string(&jsonl).unwrap());
    // Three engines: a ranking, with one engine that lost everything and one that won it all.
    let mut args = comb_engine("comb");
    args.extend(fake_engine("illegal"));
    args.extend(fake_engine("error"));
    args.extend(strings(&["--each", "depth=1", "--rounds", "1", "--mode", "gauntlet"]));
    let (out, stdout) = tournament(&args);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("Rank Name"), "{stdout}");
    assert_no_nan_or_inf(&stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pgn_tags_read_back_alike_by_the_standard_and_by_mzinga() {
    let dir = temp_dir("tournament", "pgn-tags");
    let (book, pgn) = (dir.join("book.txt"), dir.join("games.pgn"));
    // From positions/openings-base-mlp.txt: the GameString ends with a backslash.
    let opening = "Base+MLP;InProgress;White[2];wS1;bS1 wS1\\";
    std::fs::write(&book, format!("{opening}\n")).unwrap();
    let mut args = comb_engine("A");
    args.extend(comb_engine("B"));
    args.extend(strings(&["--each", "depth=1", "--rounds", "1", "--event", "back\\slash\\"]));
    args.extend(strings(&["--openings", &book.display().to_string(), "--pgn", &pgn.display().to_string()]));
    let (out, stdout) = tournament(&args);
    assert!(out.status.success(), "{stdout}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let tag_lines: Vec<&str> = text.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(tag_lines.len(), 22, "two games of 11 tags: {text}");
    for line in &tag_lines {
        let standard = standard_tag(line).unwrap_or_else(|| panic!("a standard PGN reader cannot read {line}"));
        let mzinga = mzinga_tag(line).unwrap();
        assert_eq!(standard.0, mzinga.0, "{line}");
        assert_eq!(standard.1.trim_end(), mzinga.1, "{line}");
        if standard.0 == "Opening" {
            // Mzinga reads the GameString itself; the standard reading has a space after it,
            // which a GameString reader ignores: both give back the same game.
            assert_eq!(mzinga.1, opening, "{line}");
            let game = comb::hive::HiveGame::parse(standard.1.trim()).unwrap();
            assert_eq!(game.game_string(), opening, "{line}");
        }
        if standard.0 == "Event" {
            assert_eq!(mzinga.1, "back\\slash\\", "{line}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game's JSONL line without what differs from run to run (times) or from shard to shard.
fn game_without_times(line: &str) -> String {
    let cut = ["\"started\":", "\"shard\":"];
    let mut fields: Vec<&str> = Vec::new();
    let mut rest = line;
    // The fields that vary hold no commas: each is cut from its key to the next comma.
    for key in cut {
        if let Some(start) = rest.find(key) {
            let end = start + rest[start..].find(",\"").unwrap();
            fields.push(&rest[..start]);
            rest = &rest[end + 1..];
        }
    }
    fields.push(rest);
    let kept = fields.concat();
    let start = kept.find("\"seconds\":").unwrap();
    let end = kept.find("\"tournament\":").unwrap();
    format!("{}{}", &kept[..start], &kept[end..])
}

/// The arguments of a small two-engine match with every game in `jsonl`.
fn small_match(jsonl: &Path, extra: &[&str]) -> Vec<String> {
    let mut args = comb_engine("A");
    args.push("depth=2".into());
    args.extend(comb_engine("B"));
    args.push("depth=1".into());
    args.extend(strings(&["--rounds", "3", "--concurrency", "1", "--rating-interval", "0", "--max-plies", "60"]));
    args.extend(strings(&["--openings", &data("positions/openings-base-mlp.txt"), "--order", "random", "--seed", "3"]));
    args.extend(strings(&["--sprt", "elo0=0", "elo1=50", "--jsonl", &jsonl.display().to_string()]));
    args.extend(strings(extra));
    args
}

fn lines_of(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path).unwrap().lines().map(str::to_string).collect()
}

/// Runs `comb tournament` with `args` and the environment `vars`; fails unless it succeeds.
fn tournament_in(args: &[String], vars: &[(&str, &str)]) -> String {
    let out = Command::new(COMB).arg("tournament").args(args).envs(vars.iter().copied()).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

#[test]
fn every_task_of_a_slurm_list_array_is_refused() {
    let dir = temp_dir("tournament", "list-array");
    // `sbatch --array=1,5,9`: Slurm gives every task the same MIN, MAX, STEP and COUNT.
    for id in ["1", "5", "9"] {
        let jsonl = dir.join(format!("task-{id}.jsonl"));
        let vars = [
            ("SLURM_ARRAY_TASK_ID", id),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "9"),
            ("SLURM_ARRAY_TASK_STEP", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ];
        let out = Command::new(COMB).arg("tournament").args(small_match(&jsonl, &[])).envs(vars).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "task {id}: {stderr}");
        assert!(
            stderr.contains("a Slurm list array (IDs such as --array=1,5,9) cannot be sharded"),
            "task {id}: {stderr}"
        );
        assert!(out.stdout.is_empty() && !jsonl.exists(), "task {id} played nothing");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The final block of a report, without the line of times.
fn final_report(stdout: &str) -> String {
    let start = stdout.find("\nResults of ").unwrap_or_else(|| panic!("no results in {stdout}"));
    stdout[start..].lines().filter(|l| !l.starts_with("Played ")).collect::<Vec<_>>().join("\n")
}

fn merge(files: &[&Path], extra: &[&str]) -> Output {
    let mut command = Command::new(COMB);
    command.args(["tournament", "merge"]).args(files).args(extra);
    command.output().unwrap()
}

#[test]
fn shards_play_disjoint_parts_of_the_same_schedule_and_merge_into_the_whole_run() {
    let dir = temp_dir("tournament", "shards");
    let whole = dir.join("whole.jsonl");
    let whole_stdout = tournament_in(&small_match(&whole, &[]), &[]);
    let whole_lines = lines_of(&whole);
    assert_eq!(whole_lines.len(), 6);

    // Shard 1 from the option, 2 from a Slurm array task numbered from 4, 3 from a Kubernetes
    // Indexed Job.
    let shards: Vec<_> = (1..=3).map(|k| dir.join(format!("shard-{k}.jsonl"))).collect();
    let stdout1 = tournament_in(&small_match(&shards[0], &["--shard", "1/3"]), &[]);
    assert!(stdout1.contains("Shard: 1/3 (from --shard), 2 of 6 games, tournament "), "{stdout1}");
    let slurm = [
        ("SLURM_ARRAY_TASK_ID", "5"),
        ("SLURM_ARRAY_TASK_MIN", "4"),
        ("SLURM_ARRAY_TASK_MAX", "6"),
        ("SLURM_ARRAY_TASK_COUNT", "3"),
    ];
    let stdout2 = tournament_in(&small_match(&shards[1], &[]), &slurm);
    assert!(stdout2.contains("Shard: 2/3 (from SLURM_ARRAY_TASK_ID), 2 of 6 games, tournament "), "{stdout2}");
    let stdout3 = tournament_in(&small_match(&shards[2], &["--shard-count", "3"]), &[("JOB_COMPLETION_INDEX", "2")]);
    assert!(stdout3.contains("Shard: 3/3 (from JOB_COMPLETION_INDEX), 2 of 6 games, tournament "), "{stdout3}");

    let numbers = |lines: &[String]| lines.iter().map(|l| json_field(l, "game")).collect::<Vec<_>>();
    assert_eq!(numbers(&lines_of(&shards[0])), ["1", "2"], "pair 0");
    assert_eq!(numbers(&lines_of(&shards[2])), ["5", "6"], "pair 2");
    for (k, shard) in shards.iter().enumerate() {
        for line in lines_of(shard) {
            assert_eq!(json_field(&line, "shard"), format!("{}/3", k + 1));
            let same = &whole_lines[json_field(&line, "game").parse::<usize>().unwrap() - 1];
            assert_eq!(json_field(same, "shard"), "null");
            assert_eq!(json_field(&line, "tournament"), json_field(same, "tournament"), "one tournament");
            assert_eq!(game_without_times(&line), game_without_times(same), "the game is played alike");
        }
    }

    // Merged in any order: the whole run's report and games.
    let (merged, pgn) = (dir.join("merged.jsonl"), dir.join("merged.pgn"));
    let out = merge(
        &[&shards[2], &shards[0], &shards[1]],
        &["--jsonl", &merged.display().to_string(), "--pgn", &pgn.display().to_string()],
    );
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(final_report(&stdout), final_report(&whole_stdout));
    let merged_lines = lines_of(&merged);
    assert_eq!(merged_lines.len(), 6);
    for (m, w) in merged_lines.iter().zip(&whole_lines) {
        assert_eq!(json_field(m, "shard"), "null");
        assert_eq!(game_without_times(m), game_without_times(w));
    }
    let games = pgn_games(&std::fs::read_to_string(&pgn).unwrap());
    let rounds: Vec<&str> = games.iter().map(|(tags, _)| tag(tags, "Round")).collect();
    assert_eq!(rounds, ["1", "2", "3", "4", "5", "6"]);

    // A shard given twice, and a shard of another tournament, are refused.
    let refused = |files: &[&Path], expected: &str| {
        let out = merge(files, &[]);
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(expected), "expected `{expected}` in {stderr}");
    };
    let first = shards[0].display().to_string();
    refused(&[&shards[0], &shards[1], &shards[0]], &format!("game 1 is in {first}:1 and again in {first}:1"));
    let other = dir.join("other.jsonl");
    let id = json_field(&whole_lines[0], "tournament");
    std::fs::write(&other, lines_of(&shards[1]).join("\n").replace(&id, "0000000000000000")).unwrap();
    refused(&[&shards[0], &other], "is a game of tournament 0000000000000000");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run that reaches its SPRT verdict after 16 games: comb at depth 1 against an engine whose
/// every move is illegal, writing its games to `jsonl`.
fn sprt_against_an_illegal_mover(jsonl: &Path, extra: &[&str]) -> Vec<String> {
    let mut args = comb_engine("comb");
    args.extend(fake_engine("illegal"));
    args.extend(strings(&["--each", "depth=1", "--rounds", "12", "--concurrency", "1", "--rating-interval", "0"]));
    args.extend(strings(&["--sprt", "elo0=0", "elo1=200", "--jsonl", &jsonl.display().to_string()]));
    args.extend(strings(extra));
    args
}

#[test]
fn merged_shards_stop_at_the_sprt_verdict_of_the_whole_run() {
    let dir = temp_dir("tournament", "shards-sprt");
    let args = sprt_against_an_illegal_mover;
    let whole = tournament_in(&args(&dir.join("whole.jsonl"), &[]), &[]);
    assert!(whole.contains("SPRT: H1 accepted after 16 games (LLR 3.35)"), "{whole}");
    let shards: Vec<_> = (1..=2).map(|k| dir.join(format!("shard-{k}.jsonl"))).collect();
    for (k, shard) in shards.iter().enumerate() {
        let stdout = tournament_in(&args(shard, &["--shard", &format!("{}/2", k + 1)]), &[]);
        assert!(stdout.contains("the verdict is the merge's"), "{stdout}");
        assert_eq!(lines_of(shard).len(), 12, "a shard plays its whole part");
    }
    let out = merge(&[&shards[0], &shards[1]], &[]);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("SPRT: H1 accepted after 16 games (LLR 3.35)"), "{stdout}");
    assert_eq!(final_report(&stdout), final_report(&whole));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The arguments of a deterministic match (comb at depth 2 against depth 1, 12 games) that
/// writes `jsonl` and `pgn`.
fn resumable_match(jsonl: &Path, pgn: &Path, extra: &[&str]) -> Vec<String> {
    let mut args = comb_engine("A");
    args.push("depth=2".into());
    args.extend(comb_engine("B"));
    args.push("depth=1".into());
    args.extend(strings(&["--rounds", "6", "--concurrency", "1", "--rating-interval", "4", "--max-plies", "60"]));
    args.extend(strings(&["--openings", &data("positions/openings-base-mlp.txt"), "--order", "random", "--seed", "5"]));
    args.extend(strings(&["--jsonl", &jsonl.display().to_string(), "--pgn", &pgn.display().to_string()]));
    args.extend(strings(extra));
    args
}

/// Runs `comb tournament` with `args`; returns its exit status, standard output and error.
fn tournament_status(args: &[String]) -> (Option<i32>, String, String) {
    let (out, stdout) = tournament(args);
    (out.status.code(), stdout, String::from_utf8_lossy(&out.stderr).to_string())
}

/// The games of a JSONL file in game order, without what varies from run to run.
fn games_in_order(path: &Path) -> Vec<String> {
    let mut lines = lines_of(path);
    lines.sort_by_key(|l| json_field(l, "game").parse::<usize>().unwrap());
    lines.iter().map(|l| game_without_times(l)).collect()
}

/// A PGN file without its `Date` tags (a run resumed the next day has other dates).
fn pgn_without_dates(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().filter(|l| !l.starts_with("[Date ")).collect::<Vec<_>>().join("\n")
}

/// Cuts `bytes` bytes off the end of the file at `path`, as a write stopped mid-line leaves it.
fn chop(path: &Path, bytes: u64) {
    let file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    let len = file.metadata().unwrap().len();
    file.set_len(len - bytes).unwrap();
}

/// Starts `comb tournament` with `args` (output discarded) and returns once `jsonl` holds
/// `games` whole lines.
fn start_and_wait_for_games(args: &[String], jsonl: &Path, games: usize) -> std::process::Child {
    let child = Command::new(COMB).arg("tournament").args(args).stdout(Stdio::piped()).stderr(Stdio::null()).spawn();
    let child = child.unwrap();
    let deadline = Instant::now() + Duration::from_secs(300);
    while std::fs::read_to_string(jsonl).map_or(0, |t| t.matches('\n').count()) < games {
        assert!(Instant::now() < deadline, "no games written");
        std::thread::sleep(Duration::from_millis(5));
    }
    child
}

#[test]
fn a_run_stopped_by_ctrl_c_and_resumed_equals_an_uninterrupted_run() {
    let dir = temp_dir("tournament", "resume-ctrl-c");
    let (whole, whole_pgn) = (dir.join("whole.jsonl"), dir.join("whole.pgn"));
    let whole_stdout = tournament_in(&resumable_match(&whole, &whole_pgn, &[]), &[]);
    let (part, part_pgn) = (dir.join("part.jsonl"), dir.join("part.pgn"));
    let child = start_and_wait_for_games(&resumable_match(&part, &part_pgn, &[]), &part, 2);
    // Ctrl+C reaches the runner only (each engine runs in its own process group).
    let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(130), "{stdout}");
    let written = lines_of(&part).len();
    assert!(stdout.contains(&format!("Results of A, B after {written} of 12 games:")), "{stdout}");
    assert!(written < 12, "{stdout}");

    let (code, stdout, stderr) = tournament_status(&resumable_match(&part, &part_pgn, &["--resume"]));
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains(&format!("Resume: {written} of 12 games kept from ")), "{stdout}");
    assert!(!stderr.contains("cut short"), "Ctrl+C leaves whole lines only: {stderr}");
    assert_eq!(games_in_order(&part), games_in_order(&whole));
    assert_eq!(final_report(&stdout), final_report(&whole_stdout));
    assert_eq!(pgn_without_dates(&part_pgn), pgn_without_dates(&whole_pgn));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_killed_mid_way_and_resumed_equals_an_uninterrupted_run() {
    let dir = temp_dir("tournament", "resume-kill");
    let (whole, whole_pgn) = (dir.join("whole.jsonl"), dir.join("whole.pgn"));
    let whole_stdout = tournament_in(&resumable_match(&whole, &whole_pgn, &[]), &[]);
    assert_eq!(lines_of(&whole).len(), 12);

    // The same run, killed (SIGKILL) once a few games are written.
    let (part, part_pgn) = (dir.join("part.jsonl"), dir.join("part.pgn"));
    let mut child = start_and_wait_for_games(&resumable_match(&part, &part_pgn, &[]), &part, 3);
    child.kill().unwrap();
    child.wait().unwrap();
    let written = lines_of(&part).len();
    assert!((3..12).contains(&written), "killed mid-run: {written} games");
    // As if the kill had come in the middle of writing the last game: half a line, and half a
    // PGN game.
    chop(&part, 40);
    chop(&part_pgn, 40);

    let resumed = resumable_match(&part, &part_pgn, &["--resume"]);
    let (code, stdout, stderr) = tournament_status(&resumed);
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    let kept = written - 1;
    let expected = format!("Resume: {kept} of 12 games kept from {}, {} to play\n", part.display(), 12 - kept);
    assert!(stdout.contains(&expected), "{stdout}");
    assert!(stderr.contains(&format!("{}:{written}: the last line is cut short", part.display())), "{stderr}");
    assert_eq!(stdout.lines().filter(|l| l.starts_with("Finished game ")).count(), 12 - kept, "{stdout}");
    assert!(stdout.contains(&format!("Played {} games in ", 12 - kept)), "{stdout}");
    // Every game, once, as the uninterrupted run played it; the same report; the same PGN.
    assert_eq!(games_in_order(&part), games_in_order(&whole));
    assert_eq!(final_report(&stdout), final_report(&whole_stdout));
    assert_eq!(pgn_without_dates(&part_pgn), pgn_without_dates(&whole_pgn));

    // Resuming a finished run plays nothing and reports the same.
    let (code, stdout, stderr) = tournament_status(&resumed);
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("Resume: 12 of 12 games kept from "), "{stdout}");
    assert!(!stdout.contains("Finished game"), "{stdout}");
    assert_eq!(final_report(&stdout), final_report(&whole_stdout));
    assert_eq!(lines_of(&part).len(), 12);
    assert_eq!(pgn_without_dates(&part_pgn), pgn_without_dates(&whole_pgn));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_resumed_sprt_stops_where_the_uninterrupted_run_stops() {
    let dir = temp_dir("tournament", "resume-sprt");
    let args = sprt_against_an_illegal_mover;
    let whole = dir.join("whole.jsonl");
    let whole_stdout = tournament_in(&args(&whole, &[]), &[]);
    assert!(whole_stdout.contains("SPRT: H1 accepted after 16 games (LLR 3.35)"), "{whole_stdout}");

    // Interrupted after 9 games, the 10th half written: 7 more games to the verdict.
    let part = dir.join("part.jsonl");
    let lines = lines_of(&whole);
    std::fs::write(&part, lines[..9].join("\n") + "\n" + &lines[9][..50]).unwrap();
    let stdout = tournament_in(&args(&part, &["--resume"]), &[]);
    assert!(stdout.contains("Resume: 9 of 24 games kept from "), "{stdout}");
    assert_eq!(stdout.lines().filter(|l| l.starts_with("Finished game")).count(), 7, "{stdout}");
    assert!(stdout.contains("SPRT: H1 accepted after 16 games (LLR 3.35)"), "{stdout}");
    assert_eq!(final_report(&stdout), final_report(&whole_stdout));
    assert_eq!(games_in_order(&part), games_in_order(&whole));

    // The verdict is in the file already: nothing more is played.
    let stdout = tournament_in(&args(&part, &["--resume"]), &[]);
    assert!(stdout.contains("Resume: 16 of 24 games kept from "), "{stdout}");
    assert!(!stdout.contains("Finished game"), "{stdout}");
    assert!(stdout.contains("SPRT: H1 accepted after 16 games (LLR 3.35)"), "{stdout}");
    assert!(stdout.contains("Played 0 games in "), "{stdout}");
    assert_eq!(final_report(&stdout), final_report(&whole_stdout));
    assert_eq!(lines_of(&part).len(), 16);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn resume_refuses_a_file_that_is_not_this_runs() {
    let dir = temp_dir("tournament", "resume-refused");
    let args = |jsonl: &Path, extra: &[&str]| {
        let mut args = comb_engine("comb");
        args.extend(fake_engine("illegal"));
        args.extend(strings(&["--each", "depth=1", "--rounds", "2", "--concurrency", "1"]));
        args.extend(strings(&["--jsonl", &jsonl.display().to_string()]));
        args.extend(strings(extra));
        args
    };
    let games = dir.join("games.jsonl");
    tournament_in(&args(&games, &[]), &[]);
    let text = std::fs::read_to_string(&games).unwrap();
    let file = games.display().to_string();
    let refuse = |path: &Path, extra: &[&str], expected: &str| {
        let before = std::fs::read(path).ok();
        let (code, stdout, stderr) = tournament_status(&args(path, extra));
        assert_eq!(code, Some(2), "{stdout}\n{stderr}");
        assert!(stderr.contains(expected), "expected `{expected}` in {stderr}");
        assert!(!stdout.contains("Finished game"), "{stdout}");
        assert_eq!(std::fs::read(path).ok(), before, "a refused file is left as it was");
    };
    // Other settings: the first one that differs is named.
    refuse(&games, &["--max-plies", "100", "--resume"], "(the file has `max_plies=300`, this run `max_plies=100`)");
    refuse(&games, &["--max-plies", "100", "--resume"], &format!("--resume: {file}:1 is a game of tournament "));
    refuse(
        &games,
        &["--each", "option.TranspositionTableSizeMB=8", "--resume"],
        "the file has `engine2=fake-illegal | ",
    );
    // Another shard.
    refuse(
        &games,
        &["--shard", "1/2", "--resume"],
        "is a game of shard none (the whole schedule), this run plays shard 1/2",
    );
    // A bad line that is not the last, and a game twice.
    let bad = dir.join("bad.jsonl");
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&bad, format!("{}\n{}\n{}\n", lines[0], &lines[1][..30], lines[2])).unwrap();
    refuse(&bad, &["--resume"], &format!("--resume: {}:2: ", bad.display()));
    std::fs::write(&bad, format!("{}\n{}\n{}\n", lines[0], lines[1], lines[0])).unwrap();
    refuse(&bad, &["--resume"], &format!("game 1 is in {0}:1 and again in {0}:3", bad.display()));
    // A file from before tournament ids.
    let old = dir.join("old.jsonl");
    let cut = lines[0].find(",\"tournament\":").unwrap();
    std::fs::write(&old, format!("{}}}\n", &lines[0][..cut])).unwrap();
    refuse(&old, &["--resume"], "the file predates tournament ids");
    // --resume needs the file.
    let mut no_file = comb_engine("comb");
    no_file.extend(fake_engine("illegal"));
    no_file.extend(strings(&["--each", "depth=1", "--resume"]));
    let (code, _, stderr) = tournament_status(&no_file);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("--jsonl <FILE>"), "{stderr}");
    // A file that does not exist yet is a fresh start.
    let fresh = dir.join("fresh.jsonl");
    let stdout = tournament_in(&args(&fresh, &["--resume"]), &[]);
    assert!(stdout.contains(&format!("Resume: 0 of 4 games kept from {}, 4 to play", fresh.display())), "{stdout}");
    assert_eq!(lines_of(&fresh).len(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The arguments of a quick match (comb against an engine that loses at once), 4 rounds, with
/// engines named `first` and `second`.
fn quick_match(first: &str, second: &str, jsonl: &Path, extra: &[&str]) -> Vec<String> {
    let mut args = strings(&["--engine", &format!("name={first}"), &format!("cmd={COMB}")]);
    args.extend(strings(&["option.MaxHelperThreads=None", "option.TranspositionTableSizeMB=4"]));
    args.extend(strings(&["--engine", &format!("name={second}"), "cmd=bash"]));
    args.push(format!("args={} illegal", data("tests/fake_engine.sh")));
    args.extend(strings(&["--each", "depth=1", "--rounds", "4", "--concurrency", "1", "--rating-interval", "0"]));
    args.extend(strings(&["--jsonl", &jsonl.display().to_string()]));
    args.extend(strings(extra));
    args
}

#[test]
fn engine_names_with_bars_and_backslashes_merge() {
    let dir = temp_dir("tournament", "merge-names");
    let (first, second) = ("comb | new", "old \\ comb|2");
    let whole = dir.join("whole.jsonl");
    let whole_stdout = tournament_in(&quick_match(first, second, &whole, &[]), &[]);
    let shards: Vec<_> = (1..=2).map(|k| dir.join(format!("shard-{k}.jsonl"))).collect();
    for (k, shard) in shards.iter().enumerate() {
        tournament_in(&quick_match(first, second, shard, &["--shard", &format!("{}/2", k + 1)]), &[]);
    }
    let out = merge(&[&shards[0], &shards[1]], &[]);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains(&format!("Score of {first} vs {second}: 8 - 0 - 0")), "{stdout}");
    assert_eq!(final_report(&stdout), final_report(&whole_stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_takes_its_output_options_anywhere_and_refuses_those_of_a_run() {
    let dir = temp_dir("tournament", "merge-args");
    let games = dir.join("games.jsonl");
    tournament_in(&quick_match("A", "B", &games, &[]), &[]);
    let file = games.display().to_string();
    let run = |args: &[&str]| {
        let out = Command::new(COMB).args(args).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    // The output options before or after `merge`.
    let (pgn, jsonl) = (dir.join("m.pgn"), dir.join("m.jsonl"));
    let (pgn_s, jsonl_s) = (pgn.display().to_string(), jsonl.display().to_string());
    for args in [
        vec!["tournament", "--pgn", &pgn_s, "--event", "E", "merge", &file, "--jsonl", &jsonl_s],
        vec!["tournament", "merge", &file, "--pgn", &pgn_s, "--jsonl", &jsonl_s, "--event", "E"],
        vec!["tournament", "--pgn", &pgn_s],
    ] {
        let mut args = args.clone();
        if !args.contains(&"merge") {
            args.extend(["merge", &file, "--jsonl", &jsonl_s, "--event", "E"]);
        }
        let _ = std::fs::remove_file(&pgn);
        let _ = std::fs::remove_file(&jsonl);
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, Some(0), "{args:?}\n{stdout}\n{stderr}");
        assert!(stdout.contains("Results of A, B after 8 of 8 games:"), "{stdout}");
        assert_eq!(pgn_games(&std::fs::read_to_string(&pgn).unwrap()).len(), 8, "{args:?}");
        assert!(std::fs::read_to_string(&pgn).unwrap().contains("[Event \"E\"]"), "{args:?}");
        assert_eq!(lines_of(&jsonl).len(), 8, "{args:?}");
    }
    // Options of a run are refused with merge, named; `merge` after `--engine …` is not one of
    // its values.
    for (args, named) in [
        (vec!["tournament", "--rounds", "3", "merge", &file], "--rounds is an option of a run"),
        (vec!["tournament", "--engine", "cmd=comb", "merge", &file], "--engine is an option of a run"),
        (
            vec!["tournament", "--each", "depth=1", "--sprt", "elo0=0", "elo1=5", "merge", &file],
            "--each, --sprt are options",
        ),
        (vec!["tournament", "merge", &file, "--rounds", "3"], "unexpected argument '--rounds'"),
    ] {
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, Some(2), "{args:?}\n{stdout}\n{stderr}");
        assert!(stderr.contains(named), "expected `{named}` in {stderr}");
    }
    // A file from before tournament ids is refused, saying so.
    let old = dir.join("old.jsonl");
    let lines = lines_of(&games);
    let cut = lines[0].find(",\"tournament\":").unwrap();
    std::fs::write(&old, format!("{}}}\n", &lines[0][..cut])).unwrap();
    let out = merge(&[&old], &[]);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let expected = format!("{}:1: the game has no `tournament` id: the file predates tournament ids", old.display());
    assert!(stderr.contains(&expected), "{stderr}");
    assert!(stderr.contains("play the run again"), "{stderr}");
    // A shard killed mid-line is not merged: it has games left to play.
    let cut_file = dir.join("cut.jsonl");
    std::fs::write(&cut_file, format!("{}\n{}", lines[0], &lines[1][..40])).unwrap();
    let out = merge(&[&cut_file], &[]);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(&format!("{}:2: the line is cut short", cut_file.display())), "{stderr}");
    assert!(stderr.contains("--resume"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
