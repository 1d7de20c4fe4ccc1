//! The command-line subcommands for scripts: `perft`, `bestmove`, `bench`, and how they refuse
//! bad arguments (exit status 2 and a message on stderr, never a panic), answer Ctrl+C (the best
//! move so far, status 130) and a reader that leaves early (quietly, status 141).

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{comb, stderr, stdout};

/// The first position of a kind in positions/hive-tactics.txt.
fn tactic(kind: &str) -> String {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/positions/hive-tactics.txt")).unwrap();
    let line = text.lines().find(|l| l.starts_with(&format!("{kind}\t"))).expect("a position of that kind");
    line.split_once('\t').unwrap().1.to_string()
}

#[test]
fn perft_prints_every_depth_with_time_and_speed() {
    for threads in ["1", "2"] {
        let out = comb(&["perft", "--threads", threads, "4", "Base+MLP"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let counts: Vec<(String, String)> = stdout(&out)
            .lines()
            .map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                assert_eq!(words.len(), 6, "{l}");
                assert_eq!((words[3], words[5]), ("s", "M/s"), "{l}");
                (words[0].to_string(), words[1].to_string())
            })
            .collect();
        let expected = [("1:", "7"), ("2:", "294"), ("3:", "6678"), ("4:", "151686")];
        assert_eq!(counts, expected.map(|(d, n)| (d.to_string(), n.to_string())));
    }
}

#[test]
fn perft_counts_from_a_game_string_and_intellector() {
    let out = comb(&["perft", "2", "Base;InProgress;White[2];wS1;bS1 wS1-"]);
    assert!(stdout(&out).lines().last().unwrap().starts_with("2: "), "{}", stdout(&out));
    let out = comb(&["perft", "3", "Intellector"]);
    let text = stdout(&out);
    let counts: Vec<&str> = text.lines().map(|l| l.split_whitespace().nth(1).unwrap()).collect();
    assert_eq!(counts, ["35", "1195", "42078"]);
}

#[test]
fn bestmove_finds_the_win_plain_and_as_json() {
    let position = tactic("win1");
    let plain = comb(&["bestmove", "--depth", "2", "--threads", "1", &position]);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    let mv = stdout(&plain).trim().to_string();
    assert!(!mv.is_empty() && !mv.contains('\n'));

    let json = comb(&["bestmove", "--depth", "2", "--threads", "1", "--json", &position]);
    let text = stdout(&json);
    let text = text.trim();
    // The move is played at once: a win one ply away scores MATE - 1.
    assert!(
        text.starts_with(&format!(
            "{{\"move\":\"{}\",\"score\":29999,\"depth\":2,\"nodes\":",
            mv.replace('\\', "\\\\")
        )),
        "{text}"
    );
    assert!(text.contains("\"time\":") && text.ends_with("]}"), "{text}");
}

#[test]
fn bestmove_at_time_answers_a_legal_move() {
    let out = comb(&["bestmove", "--time", "0.2", "--threads", "2", "Intellector"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mv = stdout(&out).trim().to_string();
    assert_eq!(mv.len(), 4, "an origin and a destination hex: {mv}");
}

/// `bestmove` makes its table resident beside the search (the debug log counts the pages).
#[test]
fn bestmove_makes_its_table_resident() {
    let out = Command::new(env!("CARGO_BIN_EXE_comb"))
        .args(["bestmove", "--depth", "1", "--option", "TranspositionTableSizeMB=2", "Base+MLP"])
        .env("RUST_LOG", "comb::search::tt=debug")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains(" of 512 pages of the table made resident in "));
}

/// Runs `comb bench` with `args` on a bench file of `contents`; returns its output lines once
/// it has succeeded.
fn bench_file(contents: &str, name: &str, args: &[&str]) -> Vec<String> {
    let dir = common::temp_dir("cli", name);
    let file = dir.join("bench.txt");
    std::fs::write(&file, contents).unwrap();
    let out = comb(&[&["bench", "--file", file.to_str().unwrap()], args].concat());
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    stdout(&out).lines().map(str::to_string).collect()
}

/// The node count of a bench line (a position's or the total).
fn bench_nodes(line: &str) -> u64 {
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn bench_runs_a_file_of_positions() {
    let lines = bench_file("# two positions\n3\tBase+MLP\n\n4\tIntellector\n", "bench", &[]);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].contains("depth  3") && lines[0].ends_with("Base+MLP"), "{}", lines[0]);
    assert!(lines[1].contains("depth  4") && lines[1].ends_with("Intellector"), "{}", lines[1]);
    // The total is the sum of the positions' nodes.
    assert!(lines[2].starts_with("total "));
    assert_eq!(bench_nodes(&lines[2]), bench_nodes(&lines[0]) + bench_nodes(&lines[1]));
}

#[test]
fn bench_searches_on_several_threads() {
    let position = "Base+MLP;InProgress;White[4];wA1;bL -wA1;wA2 wA1\\;bA1 \\bL;wB1 wA2-;bQ /bA1";
    let lines = bench_file(&format!("5\t{position}\n4\tIntellector\n"), "bench-threads", &["--threads", "2"]);
    assert_eq!(lines.len(), 3, "{lines:?}");
    // Every position searched to its full depth, and the total still sums the positions.
    assert!(lines[0].contains("depth  5") && lines[0].ends_with("Base+MLP;White[4] (6 moves)"), "{}", lines[0]);
    assert!(lines[1].contains("depth  4") && lines[1].ends_with("Intellector"), "{}", lines[1]);
    assert_eq!(bench_nodes(&lines[2]), bench_nodes(&lines[0]) + bench_nodes(&lines[1]));
}

#[test]
fn bad_arguments_exit_2_with_a_reason() {
    let cases: [(&[&str], &str); 9] = [
        (&["perft", "3", "Foo"], "unknown game type `Foo` (Base, Base+M,"),
        (&["perft", "--threads", "0", "3"], "from 1 to 256"),
        (&["bestmove", "Base;InProgress;White[2];wQ"], "Unable to play 'wQ'"),
        (&["bestmove", "--time", "0", "Base"], "positive number of seconds"),
        (&["bestmove", "--time", "1e30", "Base"], "positive number of seconds"),
        (&["bestmove", "--time", "NaN", "Base"], "positive number of seconds"),
        (&["bestmove", "--threads", "100000", "--depth", "1", "Base"], "from 1 to 256"),
        (&["bench", "--file", "/nonexistent/bench.txt"], "/nonexistent/bench.txt"),
        (&["bench", "--threads", "0"], "from 1 to 256"),
    ];
    for (args, reason) in cases {
        let out = comb(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(reason), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
}

/// comb with its standard output and error piped.
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_comb"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the comb binary runs")
}

/// Waits for `child` for up to `limit`, then kills it, so that a command that would run forever
/// fails its test instead of hanging it. Returns the status (`None` if it had to be killed) and
/// whatever is left of standard output and error.
fn finish(mut child: Child, limit: Duration) -> (Option<ExitStatus>, String, String) {
    let read = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_string(&mut text);
            }
            text
        })
    };
    let out = read(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let err = read(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (status, out.join().unwrap(), err.join().unwrap())
}

#[test]
fn depths_out_of_range_exit_2_with_a_reason() {
    let cases: [&[&str]; 7] = [
        &["bestmove", "--depth", "0", "Base"],
        &["bestmove", "--depth", "121", "Base"],
        &["bench", "--depth", "0"],
        &["perft", "0"],
        &["perft", "121"],
        &["perft", "4294967297"],
        &["perft", "deep"],
    ];
    for args in cases {
        let (status, out, err) = finish(spawn(args), Duration::from_secs(20));
        assert_eq!(status.and_then(|s| s.code()), Some(2), "{args:?}: {err}");
        assert!(err.contains("expected a whole number from 1 to 120"), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
    // The bounds themselves are fine.
    let (status, out, _) =
        finish(spawn(&["bestmove", "--depth", "1", "--threads", "1", "Base"]), Duration::from_secs(20));
    assert_eq!((status.and_then(|s| s.code()), out.lines().count()), (Some(0), 1));
    let (status, out, _) = finish(spawn(&["perft", "1", "Base"]), Duration::from_secs(20));
    assert!(status.unwrap().success() && out.starts_with("1: 4 "), "{out}");
}

/// Starts `comb bestmove` on a search that would take far longer than anyone waits, sends it
/// SIGINT after a second, and returns its status code and standard output.
fn interrupted_bestmove(extra: &[&str]) -> (Option<i32>, String) {
    let args = [&["bestmove", "--threads", "1", "--depth", "99"], extra, &["Base"]].concat();
    let child = spawn(&args);
    std::thread::sleep(Duration::from_secs(1));
    let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill runs");
    assert!(sent.success());
    let (status, out, err) = finish(child, Duration::from_secs(60));
    assert!(!err.contains("panicked"), "{err}");
    (status.and_then(|s| s.code()), out)
}

/// Whether `mv` is a legal first move of Base Hive.
fn legal_first_move(mv: &str) -> bool {
    comb::hive::HiveGame::new(comb::hive::GameType::BASE).play_canonical(mv).is_ok()
}

#[test]
fn bestmove_answers_its_best_move_so_far_on_sigint() {
    let (code, out) = interrupted_bestmove(&[]);
    assert_eq!(code, Some(130), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(legal_first_move(lines[0]), "{out}");

    let (code, out) = interrupted_bestmove(&["--json"]);
    assert_eq!(code, Some(130), "{out}");
    let json = out.trim();
    let mv = json.strip_prefix("{\"move\":\"").and_then(|r| r.split('"').next()).unwrap_or_default();
    assert!(legal_first_move(mv), "{json}");
    let depth: u32 = json.split("\"depth\":").nth(1).and_then(|r| r.split(',').next()).unwrap().parse().unwrap();
    // A second of search finishes a few iterations, and the interruption stops it long
    // before depth 99.
    assert!((1..99).contains(&depth), "{json}");
    assert!(json.ends_with("]}"), "{json}");
}

/// Runs comb with a reader on its standard output that takes `lines` lines and then closes the
/// pipe, as `| head -n` does; returns the exit status and standard error.
fn with_early_reader(args: &[&str], lines: usize) -> (Option<ExitStatus>, String) {
    let mut child = spawn(args);
    let mut out = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..lines {
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        assert!(!line.is_empty(), "{args:?} printed fewer than {lines} lines");
    }
    drop(out);
    let (status, _, err) = finish(child, Duration::from_secs(60));
    (status, err)
}

#[test]
fn a_reader_that_leaves_early_ends_the_command_quietly() {
    let dir = std::env::temp_dir().join(format!("comb-cli-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bench.txt");
    // The second search takes long enough for the reader to be gone when its line comes.
    std::fs::write(&file, "1\tBase\n6\tBase+MLP\n").unwrap();
    let cases: [(&[&str], usize); 4] = [
        (&["perft", "6", "Base+MLP"], 1),
        // `| true`: the reader is gone before the move is found (a search of a second or so,
        // so that the race is never close).
        (&["bestmove", "--depth", "10", "--threads", "1", "Base"], 0),
        (&["bestmove", "--depth", "10", "--threads", "1", "--json", "Base"], 0),
        (&["bench", "--file", file.to_str().unwrap()], 1),
    ];
    for (args, lines) in cases {
        let (status, err) = with_early_reader(args, lines);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: {err}");
        assert_eq!(status.and_then(|s| s.code()), Some(141), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A self-play file of the repository, for `comb tune`.
fn selfplay_sample() -> String {
    common::data("positions/selfplay-sample.txt")
}

/// Runs comb with `args`, killed after a minute so that a command that would run on fails its
/// test: returns the exit code, standard output and standard error.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let (status, out, err) = finish(spawn(args), Duration::from_secs(60));
    (status.and_then(|s| s.code()), out, err)
}

#[test]
fn tune_refuses_an_impossible_split_and_an_unwritable_output_before_fitting() {
    let sample = selfplay_sample();
    let (code, out, err) = run(&["tune", &sample, "--validation", "1", "--dry-run"]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(
        err,
        "error: --validation 1 would hold out every position and fit on none: give 0 (hold out none) or 2 and more\n"
    );
    assert_eq!(out, "");
    // Epochs enough to run for hours: the output is checked first.
    let (code, out, err) = run(&["tune", &sample, "--out", "/nonexistent/dir/w.rs", "--epochs", "100000000"]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err, "error: /nonexistent/dir/w.rs: No such file or directory (os error 2)\n");
    assert_eq!(out, "");
}

#[test]
fn train_net_writes_a_network_the_engine_reads_and_refuses_what_it_cannot_do() {
    let sample = selfplay_sample();
    let dir = std::env::temp_dir().join(format!("comb-train-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out_file = dir.join("net.bin");
    let out_path = out_file.to_str().unwrap();
    let (code, out, err) =
        run(&["train-net", &sample, "--epochs", "2", "--threads", "1", "--validation", "4", "--out", out_path]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("300 positions of "), "{out}");
    assert!(lines[1].starts_with("hand-written evaluation: "), "{out}");
    assert!(lines[2].starts_with("network (epoch "), "{out}");
    assert_eq!(lines[3], format!("network written to {out_path}"));
    assert_eq!(err.lines().filter(|l| l.starts_with("epoch ")).count(), 2, "{err}");
    // The file is a network of the engine's shape.
    let bytes = std::fs::read(&out_file).unwrap();
    let net = comb::hive::net::Network::from_bytes(&bytes, comb::hive::net::INPUTS).expect("a network comb reads");
    assert!(net.residual);
    // Intellector data make an Intellector network, of the shape its engine reads.
    let intellector = common::data("positions/selfplay-intellector-sample.txt");
    let (code, out, err) =
        run(&["train-net", &intellector, "--epochs", "2", "--threads", "1", "--validation", "2", "--out", out_path]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("300 positions of "), "{out}");
    assert!(out.lines().next().unwrap().contains(" Intellector games ("), "{out}");
    let bytes = std::fs::read(&out_file).unwrap();
    let inputs = comb::intellector::net::INPUTS;
    assert!(comb::intellector::net::Network::from_bytes(&bytes, inputs).expect("a network comb reads").residual);
    std::fs::remove_dir_all(&dir).unwrap();
    // Another accumulator size is only tried, never written.
    let (code, out, err) = run(&["train-net", &intellector, "--hidden", "16", "--epochs", "1", "--threads", "1"]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(
        err,
        "error: --hidden 16: the engine reads Intellector networks of 32 values; try other sizes with --dry-run\n"
    );
    assert_eq!(out, "");
    let (code, _, err) =
        run(&["train-net", &intellector, "--hidden", "16", "--epochs", "1", "--threads", "1", "--dry-run"]);
    assert_eq!(code, Some(0), "{err}");

    let (code, out, err) = run(&["train-net", &sample, "--validation", "1", "--dry-run"]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(
        err,
        "error: --validation 1 would hold out every game and train on none: give 0 (hold out none) or 2 and more\n"
    );
    assert_eq!(out, "");
    let (code, _, err) = run(&["train-net", &sample, "--out", "/nonexistent/dir/net.bin", "--epochs", "100000000"]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err, "error: /nonexistent/dir/net.bin: No such file or directory (os error 2)\n");
    let (code, _, err) = run(&["train-net", &sample, "--lambda", "2", "--dry-run"]);
    assert_eq!((code, err.as_str()), (Some(2), "error: --lambda takes a number from 0 to 1\n"));
    // One game at a time.
    let (code, _, err) = run(&["train-net", &sample, &intellector, "--dry-run"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.ends_with("selfplay-intellector-sample.txt: positions of two games\n"), "{err}");
}

#[test]
fn bestmove_at_a_level_searches_to_the_levels_depth_unless_told() {
    let depth = |args: &[&str]| {
        let all = [&["bestmove", "--json", "--threads", "1", "--option", "DifficultySeed=1"], args, &["Base"]].concat();
        let (code, out, err) = run(&all);
        assert_eq!(code, Some(0), "{err}");
        out.split("\"depth\":").nth(1).and_then(|r| r.split(',').next()).unwrap().to_string()
    };
    // Hard searches Hive to depth 7, not the command line's default 6.
    assert_eq!(depth(&["--difficulty", "hard"]), "7");
    assert_eq!(depth(&["--option", "Difficulty=Hard"]), "7");
    assert_eq!(depth(&["--difficulty", "hard", "--depth", "3"]), "3");
    assert_eq!(depth(&["--depth", "2"]), "2");
}

#[test]
fn option_values_that_do_not_parse_and_options_a_command_does_not_read_are_refused() {
    let cases: [(&[&str], &str); 15] = [
        (
            &["--option", "MultiPV=abc", "bestmove", "Base"],
            "--option MultiPV=abc: MultiPV takes a whole number from 1 to 64",
        ),
        (
            &["bestmove", "--option", "MultiPV=65", "Base"],
            "--option MultiPV=65: MultiPV takes a whole number from 1 to 64",
        ),
        (&["--option", "RepetitionDraw=maybe"], "--option RepetitionDraw=maybe: RepetitionDraw takes True or False"),
        (
            &["--option", "Difficulty=Hardest"],
            "--option Difficulty=Hardest: Difficulty takes one of Easy, Medium, Hard, Max",
        ),
        (
            &["--option", "IntellectorRules=Old", "perft", "1"],
            "--option IntellectorRules=Old: IntellectorRules takes one of Modern, Classic",
        ),
        (
            &["--option", "TranspositionTableSizeMB=0"],
            "--option TranspositionTableSizeMB=0: TranspositionTableSizeMB takes a whole number from 1 to 8192",
        ),
        (&["--option", "Nope=1"], "--option Nope=1: The option \"Nope\" is not valid."),
        (&["--option", "Evaluation=Deep", "bench"], "--option Evaluation=Deep: Evaluation takes one of Classic, Net"),
        (
            &["perft", "--option", "Evaluation=Net", "1"],
            "--option Evaluation=Net: `comb perft` does not read Evaluation (it reads IntellectorRules)",
        ),
        (
            &["tune", "--option", "MultiPV=2", "x"],
            "--option MultiPV=2: `comb tune` does not read MultiPV (it reads IntellectorRules and MaxHelperThreads)",
        ),
        (
            &["selfplay", "--option", "Difficulty=Easy"],
            "--option Difficulty=Easy: `comb selfplay` does not read Difficulty (it reads Evaluation, \
             IntellectorEvaluation, IntellectorRules and MaxHelperThreads)",
        ),
        (
            &["--option", "IntellectorEvaluation=Deep", "bench"],
            "--option IntellectorEvaluation=Deep: IntellectorEvaluation takes one of Classic, Net",
        ),
        (
            &["--option", "MultiPV=2", "tournament", "merge", "x.jsonl"],
            "--option MultiPV=2: `comb tournament` reads no option; give an engine its options in its --engine or \
             --each (`option.MultiPV=2`)",
        ),
        (
            &["conformance", "--option", "RepetitionDraw=true", "--", "comb"],
            "--option RepetitionDraw=true: `comb conformance` reads no option; give the engine under test its \
             options on its own command line (`comb conformance -- comb --option RepetitionDraw=true`)",
        ),
        (
            &["serve", "--option", "MultiPV=2"],
            "--option MultiPV=2: `comb serve` reads no option; the page sets each game's players and analysis, \
             and an engine given with --engine takes its options on its own command line",
        ),
    ];
    for (args, reason) in cases {
        let (code, out, err) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert_eq!(err, format!("error: {reason}\n"), "{args:?}");
        assert_eq!(out, "", "{args:?}");
    }
    // Values the options take, in any case, and the options a command reads.
    let (code, out, err) = run(&[
        "--option",
        "difficulty=hard",
        "--option",
        "IntellectorRules=classic",
        "--option",
        "RepetitionDraw=TRUE",
        "--option",
        "MultiPV=64",
    ]);
    assert_eq!((code, err.as_str()), (Some(0), ""), "{out}");
    let (code, out, _) = run(&["perft", "1", "Intellector", "--option", "IntellectorRules=Classic"]);
    assert_eq!(code, Some(0));
    assert!(out.starts_with("1: "), "{out}");
}

#[test]
fn selfplay_refuses_zero_games_and_a_zero_ply_cap() {
    for (flag, name) in [("--games", "--games <GAMES>"), ("--max-plies", "--max-plies <MAX_PLIES>")] {
        let (code, out, err) = run(&["selfplay", flag, "0"]);
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.starts_with(&format!("error: invalid value '0' for '{name}': expected a whole number from 1 up\n")),
            "{err}"
        );
        assert_eq!(out, "");
    }
}

#[test]
fn a_bad_game_type_is_named_with_the_types_there_are() {
    let unknown =
        "error: unknown game type `Chess` (Base, Base+M, Base+L, Base+P, Base+ML, Base+MP, Base+LP, Base+MLP \
                   or Intellector)\n";
    let dir = common::temp_dir("cli", "game-type");
    let bench = dir.join("bench.txt");
    std::fs::write(&bench, "1\tChess\n").unwrap();
    let cases: [&[&str]; 6] = [
        &["perft", "1", "Chess"],
        &["bestmove", "Chess"],
        &["bestmove", "Chess;InProgress;White[2];wS1"],
        &["show", "Chess"],
        &["selfplay", "--game", "Chess"],
        &["bench", "--file", bench.to_str().unwrap()],
    ];
    for args in cases {
        let (code, out, err) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert_eq!(err, unknown, "{args:?}");
        assert_eq!(out, "", "{args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
    let (code, _, err) = run(&["analyze", "Base"]);
    assert_eq!(code, Some(2));
    assert_eq!(err, "error: Base: neither a GameString (one holds a `;`) nor a file\n");
}

#[test]
fn clap_gives_the_real_reason_not_a_tip_to_pass_the_argument_after_double_dash() {
    let (code, _, err) = run(&["tune", "x", "--learning-rate", "-1"]);
    assert_eq!((code, err.as_str()), (Some(2), "error: --learning-rate takes a positive number\n"));
    for decay in ["-1", "4000", "NaN"] {
        let (code, _, err) = run(&["train-net", "x", "--weight-decay", decay, "--dry-run"]);
        assert_eq!(
            (code, err.as_str()),
            (Some(2), "error: --weight-decay takes a number from 0 to 1 / learning rate\n")
        );
    }
    let (code, _, err) = run(&["bestmove", "--depth", "-1", "Base"]);
    assert_eq!(code, Some(2));
    assert!(
        err.starts_with("error: invalid value '-1' for '--depth <DEPTH>': expected a whole number from 1 to 120"),
        "{err}"
    );
    let (code, _, err) = run(&["tournament", "merge", "x.jsonl", "--rounds", "3"]);
    assert_eq!(code, Some(2));
    assert!(err.starts_with("error: unexpected argument '--rounds' found\n"), "{err}");
    assert!(err.contains("tip: '--rounds' is an option of 'comb tournament', not of 'comb tournament merge'"), "{err}");
    assert!(!err.contains("as a value"), "{err}");
}

#[test]
fn bench_refuses_a_file_without_positions() {
    let dir = common::temp_dir("cli", "bench-empty");
    let file = dir.join("empty.txt");
    std::fs::write(&file, "# only a comment\n\n").unwrap();
    let name = file.display().to_string();
    let (code, out, err) = run(&["bench", "--file", &name]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err, format!("error: {name}: no positions to search\n"));
    assert_eq!(out, "");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Starts comb on a command that would run for hours, closes its standard output unread, and
/// returns its exit code: the closed pipe must end it though nothing is written to it.
#[cfg(unix)]
fn with_reader_gone(args: &[&str]) -> Option<i32> {
    let mut child = spawn(args);
    drop(child.stdout.take());
    let (status, _, err) = finish(child, Duration::from_secs(60));
    assert_eq!(err, "", "{args:?}");
    status.and_then(|s| s.code())
}

#[cfg(unix)]
#[test]
fn a_far_search_or_perft_stops_when_its_reader_has_gone_without_writing() {
    assert_eq!(with_reader_gone(&["bestmove", "--depth", "60", "--threads", "1", "Base+MLP"]), Some(141));
    assert_eq!(with_reader_gone(&["perft", "12", "Base+MLP"]), Some(141));
}

#[cfg(unix)]
#[test]
fn a_reader_that_leaves_after_the_last_line_leaves_the_status_0() {
    // The whole answer was read: the command succeeded, however soon the reader left.
    let (status, err) = with_early_reader(&["perft", "3", "Base"], 3);
    assert_eq!(status.and_then(|s| s.code()), Some(0), "{err}");
    assert_eq!(err, "");
}
