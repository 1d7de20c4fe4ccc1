//! The command-line subcommands for scripts: `perft`, `bestmove`, `bench`, and how they refuse
//! bad arguments (exit status 2 and a message on stderr, never a panic).

use std::process::{Command, Output};

fn comb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_comb")).args(args).output().expect("the comb binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

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

#[test]
fn bench_runs_a_file_of_positions() {
    let dir = std::env::temp_dir().join(format!("comb-cli-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bench.txt");
    std::fs::write(&file, "# two positions\n3\tBase+MLP\n\n4\tIntellector\n").unwrap();
    let out = comb(&["bench", "--file", file.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].contains("depth  3") && lines[0].ends_with("Base+MLP"), "{}", lines[0]);
    assert!(lines[1].contains("depth  4") && lines[1].ends_with("Intellector"), "{}", lines[1]);
    // The total is the sum of the positions' nodes.
    let nodes = |l: &str| l.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap();
    assert!(lines[2].starts_with("total "));
    assert_eq!(nodes(&lines[2]), nodes(&lines[0]) + nodes(&lines[1]));
}

#[test]
fn bad_arguments_exit_2_with_a_reason() {
    let cases: [(&[&str], &str); 8] = [
        (&["perft", "3", "Foo"], "Unable to parse 'Foo'"),
        (&["perft", "--threads", "0", "3"], "from 1 to 256"),
        (&["bestmove", "Base;InProgress;White[2];wQ"], "Unable to play 'wQ'"),
        (&["bestmove", "--time", "0", "Base"], "positive number of seconds"),
        (&["bestmove", "--time", "1e30", "Base"], "positive number of seconds"),
        (&["bestmove", "--time", "NaN", "Base"], "positive number of seconds"),
        (&["bestmove", "--threads", "100000", "--depth", "1", "Base"], "from 1 to 256"),
        (&["bench", "--file", "/nonexistent/bench.txt"], "/nonexistent/bench.txt"),
    ];
    for (args, reason) in cases {
        let out = comb(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(reason), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
}
