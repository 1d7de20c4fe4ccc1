//! The real binary over pipes: the bridge pattern (commands, then end of input), SIGINT and
//! `exit` during a search, start-up options, the table made resident in the background.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

fn spawn(args: &[&str]) -> (Child, ChildStdin, BufReader<ChildStdout>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_comb"))
        .args(args)
        .args(["--option", "MaxHelperThreads=None", "--option", "TranspositionTableSizeMB=8"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("comb binary runs");
    let stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    (child, stdin, stdout)
}

/// Reads one reply block, up to and including its `ok`.
fn block(out: &mut BufReader<ChildStdout>) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let mut l = String::new();
        assert!(out.read_line(&mut l).unwrap() > 0, "output ended inside a block: {lines:?}");
        let l = l.trim_end().to_string();
        let done = l == "ok";
        lines.push(l);
        if done {
            return lines;
        }
    }
}

#[test]
fn bridge_pattern_gets_three_blocks_and_exits_cleanly() {
    let game = "Base+MLP;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/;bG2 /bG1";
    let (mut child, mut stdin, mut out) = spawn(&[]);
    write!(stdin, "newgame {game}\nbestmove depth 2\n").unwrap();
    drop(stdin);
    let mut all = String::new();
    out.read_to_string(&mut all).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    let blocks: Vec<&str> = all.split_inclusive("ok\n").collect();
    assert_eq!(blocks.len(), 3, "{all}");
    assert!(blocks[0].starts_with("id comb "));
    assert_eq!(blocks[1], format!("{game}\nok\n"));
    let mv = blocks[2].lines().next().unwrap();
    assert!(mv.starts_with('w') && mv.contains(' '), "{mv}");
}

#[test]
fn startup_options_apply() {
    let (mut child, mut stdin, mut out) = spawn(&["--option", "RepetitionDraw=true"]);
    block(&mut out);
    writeln!(stdin, "options get RepetitionDraw").unwrap();
    assert_eq!(block(&mut out), ["RepetitionDraw;bool;True;False", "ok"]);
    writeln!(stdin, "exit").unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

#[test]
fn bad_startup_option_is_reported() {
    let out = Command::new(env!("CARGO_BIN_EXE_comb")).args(["--option", "Nope=1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("The option \"Nope\" is not valid."));
}

#[test]
fn exit_typed_during_a_search_stops_it() {
    let (mut child, mut stdin, mut out) = spawn(&[]);
    block(&mut out);
    writeln!(stdin, "newgame Base+MLP").unwrap();
    block(&mut out);
    writeln!(stdin, "bestmove").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    writeln!(stdin, "exit").unwrap();
    let reply = block(&mut out);
    assert_eq!(reply.len(), 2, "{reply:?}");
    assert!(reply[0].starts_with('w'));
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

#[cfg(unix)]
#[test]
fn sigint_stops_the_search_and_the_engine_goes_on() {
    let (mut child, mut stdin, mut out) = spawn(&[]);
    block(&mut out);
    writeln!(stdin, "newgame Base+MLP\nbestmove").unwrap();
    block(&mut out);
    std::thread::sleep(Duration::from_millis(300));
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let reply = block(&mut out);
    assert_eq!(reply.len(), 2, "{reply:?}");
    assert!(reply[0].starts_with('w'));
    writeln!(stdin, "validmoves").unwrap();
    assert_eq!(block(&mut out), ["wS1;wB1;wG1;wA1;wM;wL;wP", "ok"]);
    // Idle, SIGINT ends the engine as it does the reference engine.
    Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(130));
}

#[cfg(unix)]
#[test]
fn a_search_stops_when_the_reader_of_its_answer_has_gone() {
    // A GUI that closes: its end of standard output goes, standard input stays open. The search
    // of hours stops though it has nothing to write yet, and comb ends with status 141.
    let (mut child, mut stdin, mut out) = spawn(&[]);
    block(&mut out);
    writeln!(stdin, "newgame Base+MLP").unwrap();
    block(&mut out);
    writeln!(stdin, "bestmove depth 60").unwrap();
    drop(out);
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(stdin);
    assert_eq!(status.and_then(|s| s.code()), Some(141), "the search went on");
}

/// The engine makes its table resident in a background thread as it starts and again after a
/// resize, and stops that thread when the table goes; the debug log counts the pages.
#[test]
fn the_table_is_made_resident_at_start_and_after_a_resize() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_comb"))
        .args(["--option", "TranspositionTableSizeMB=2"])
        .env("RUST_LOG", "comb::search::tt=debug")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"options set TranspositionTableSizeMB 4\nexit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains(" of 512 pages of the table made resident in "), "{log}");
    assert!(log.contains(" of 1024 pages of the table made resident in "), "{log}");
}
