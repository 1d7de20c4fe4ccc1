//! The real binary over pipes, around the life of a command: `exit` sent while a bounded
//! command runs stops it, an `exit` sent with the command lets it finish, and a table the
//! machine cannot provide is refused without ending the engine.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// Far more than any reply here needs; only a hang takes this long.
const PATIENCE: Duration = Duration::from_secs(5);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    /// Starts `comb` through `sh -c "<prefix> exec comb … <args>"` (later options win), reading
    /// its output on a thread so that a hung engine fails the test instead of hanging it.
    fn start(prefix: &str, args: &str) -> Engine {
        let command =
            format!("{prefix} exec \"$0\" --option MaxHelperThreads=None --option TranspositionTableSizeMB=8 {args}");
        let mut child = Command::new("sh")
            .args(["-c", &command, env!("CARGO_BIN_EXE_comb")])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("comb runs");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let mut engine = Engine { child, stdin, lines };
        engine.block();
        engine
    }

    fn send(&mut self, text: &str) {
        self.stdin.write_all(text.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next reply, up to and including its `ok`.
    fn block(&mut self) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let done = l == "ok";
                    lines.push(l);
                    if done {
                        return lines;
                    }
                }
                Err(_) => {
                    let _ = self.child.kill();
                    panic!("no complete reply within {PATIENCE:?}: {lines:?}");
                }
            }
        }
    }

    /// The exit status, once the engine has ended.
    fn status(mut self) -> Option<i32> {
        let deadline = Instant::now() + PATIENCE;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!("the engine did not end within {PATIENCE:?}");
    }
}

/// Sends `command` in a Base+MLP game, then `exit` a moment later, and returns the reply.
fn exit_during(command: &str) -> Vec<String> {
    let mut engine = Engine::start("", "");
    engine.send("newgame Base+MLP\n");
    assert_eq!(engine.block(), ["Base+MLP;NotStarted;White[1]", "ok"]);
    engine.send(&format!("{command}\n"));
    std::thread::sleep(Duration::from_millis(300));
    engine.send("exit\n");
    let reply = engine.block();
    assert_eq!(engine.status(), Some(0));
    reply
}

fn assert_best_move(reply: &[String]) {
    assert_eq!(reply.len(), 2, "{reply:?}");
    assert!(reply[0].starts_with('w'), "{reply:?}");
}

#[test]
fn exit_stops_bestmove_depth() {
    assert_best_move(&exit_during("bestmove depth 60"));
}

#[test]
fn exit_stops_bestmove_time() {
    assert_best_move(&exit_during("bestmove time 00:00:30"));
}

#[test]
fn exit_stops_bestmove_depthorseconds() {
    assert_best_move(&exit_during("bestmove depthorseconds 60 30"));
}

#[test]
fn exit_stops_perft_after_the_depths_finished_so_far() {
    let reply = exit_during("perft 9");
    let (ok, depths) = reply.split_last().unwrap();
    assert_eq!(ok, "ok");
    assert!(!depths.is_empty() && depths.len() < 9, "{reply:?}");
    let counts = ["7", "294", "6678", "151686", "5427108"];
    for (i, line) in depths.iter().enumerate() {
        let count = line.strip_prefix(&format!("{}: ", i + 1)).and_then(|l| l.split("  ").next());
        assert!(count.is_some_and(|c| counts.get(i).is_none_or(|&known| c == known)), "{reply:?}");
    }
}

#[test]
fn exit_sent_with_the_command_lets_it_finish() {
    let mut engine = Engine::start("", "");
    // One write: the script a bridge pipes in at once.
    engine.send("newgame Base+MLP\noptions set ReportIntermediateBestMoves True\nbestmove depth 4\nexit\n");
    engine.block();
    engine.block();
    let reply = engine.block();
    let depths: Vec<&str> = reply.iter().filter_map(|l| l.split(';').nth(1)).collect();
    assert_eq!(depths, ["1", "2", "3", "4"], "{reply:?}");
    assert_eq!(engine.status(), Some(0));
}

/// 2 GiB of address space: the engine runs, an 8 GiB table cannot exist.
const SMALL_MACHINE: &str = "ulimit -v 2097152 &&";

#[cfg(unix)]
#[test]
fn a_table_the_machine_cannot_provide_is_refused() {
    let mut engine = Engine::start(SMALL_MACHINE, "");
    engine.send("options set TranspositionTableSizeMB 8192\n");
    let reply = engine.block();
    assert_eq!(reply, ["err Unable to allocate a transposition table of 8192 MB.", "ok"]);
    engine.send("options get TranspositionTableSizeMB\nnewgame Base\nbestmove depth 2\n");
    assert_eq!(engine.block(), ["TranspositionTableSizeMB;int;8;64;1;8192", "ok"]);
    engine.block();
    assert_best_move(&engine.block());
    engine.send("exit\n");
    assert_eq!(engine.status(), Some(0));
}

#[cfg(unix)]
#[test]
fn a_start_up_table_the_machine_cannot_provide_shrinks_to_what_it_can() {
    let mut engine = Engine::start(SMALL_MACHINE, "--option TranspositionTableSizeMB=8192");
    engine.send("options get TranspositionTableSizeMB\nnewgame Base\nbestmove depth 2\n");
    let reply = engine.block();
    let size = reply[0].strip_prefix("TranspositionTableSizeMB;int;").and_then(|r| r.split(';').next());
    assert!(size.and_then(|s| s.parse::<usize>().ok()).is_some_and(|mb| (1..8192).contains(&mb)), "{reply:?}");
    engine.block();
    assert_best_move(&engine.block());
    engine.send("exit\n");
    assert_eq!(engine.status(), Some(0));
}
