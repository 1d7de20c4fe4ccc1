//! The UHP client's public API, against comb itself: spawned from a command line, commands
//! answered up to `ok`, protocol errors told from replies, bad command lines refused, a
//! dropped engine's whole process group ended.

use comb::client::{EngineError, EngineProcess};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);

fn comb(args: &str) -> EngineProcess {
    let line = format!("'{}' {args}", env!("CARGO_BIN_EXE_comb"));
    EngineProcess::spawn(&line, WAIT).unwrap_or_else(|e| panic!("{line}: {e}"))
}

#[test]
fn a_command_line_starts_an_engine_that_answers_up_to_ok() {
    let mut engine = comb("--option MaxHelperThreads=None");
    assert_eq!(engine.id(), Some(format!("comb {}", env!("CARGO_PKG_VERSION")).as_str()));
    assert_eq!(engine.capabilities(), Some("Mosquito;Ladybug;Pillbug"));
    assert_eq!(engine.config().args, ["--option", "MaxHelperThreads=None"]);
    assert_eq!(engine.command("newgame Base", WAIT).unwrap(), ["Base;NotStarted;White[1]"]);
    assert_eq!(engine.command("play wS1", WAIT).unwrap(), ["Base;InProgress;Black[1];wS1"]);
    // `err` and `invalidmove` replies are protocol errors for `command`, plain lines for `exchange`.
    let refused = engine.command("play wQ", WAIT).unwrap_err();
    assert!(matches!(&refused, EngineError::Protocol(line) if line.starts_with("invalidmove ")), "{refused}");
    let reply = engine.exchange("play xyz", WAIT).unwrap();
    assert_eq!(reply.len(), 1, "{reply:?}");
    assert!(reply[0].starts_with("invalidmove "), "{reply:?}");
    let transcript = engine.take_transcript();
    assert!(transcript.starts_with("< id comb "), "{transcript}");
    assert!(transcript.contains("> newgame Base\n< Base;NotStarted;White[1]\n< ok\n"), "{transcript}");
    engine.quit();
}

#[test]
fn bad_command_lines_are_refused_before_anything_runs() {
    let error = |line: &str| EngineProcess::spawn(line, WAIT).err().map(|e| e.to_string());
    assert_eq!(
        error("comb 'unbalanced").as_deref(),
        Some("could not start: `comb 'unbalanced`: unbalanced quote or trailing backslash")
    );
    assert_eq!(error("  ").as_deref(), Some("could not start: the command line is empty"));
    let missing = error("/nonexistent/engine --flag").unwrap();
    assert!(missing.starts_with("could not start: `/nonexistent/engine --flag`: "), "{missing}");
}

/// Dropping an engine ends its whole process group: an engine started through a wrapper
/// leaves nothing running (here a `sleep` the wrapper started before becoming comb).
#[cfg(unix)]
#[test]
fn dropping_an_engine_ends_its_process_group() {
    let pid_file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("group-{}.pid", std::process::id()));
    let script = format!(
        "sleep 300 </dev/null >/dev/null 2>&1 & echo $! > \"{}\"; exec \"{}\"",
        pid_file.display(),
        env!("CARGO_BIN_EXE_comb")
    );
    let engine = EngineProcess::spawn(&format!("sh -c '{script}'"), WAIT).expect("the wrapper starts comb");
    let sleeper = std::fs::read_to_string(&pid_file).expect("the wrapper wrote its child's pid");
    let sleeper = sleeper.trim();
    assert!(running(sleeper), "the wrapper's child {sleeper} runs while the engine does");
    drop(engine);
    // The signal is sent before drop returns; the child's exit is then only a matter of the
    // scheduler, so wait for it (up to a generous deadline) rather than time it.
    let deadline = std::time::Instant::now() + WAIT;
    while running(sleeper) && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!running(sleeper), "the wrapper's child {sleeper} outlived the engine");
    let _ = std::fs::remove_file(&pid_file);
}

/// Whether process `pid` is alive (gone or a zombie is not).
#[cfg(unix)]
fn running(pid: &str) -> bool {
    let ps = std::process::Command::new("ps").args(["-o", "stat=", "-p", pid]).output().expect("ps runs");
    let state = String::from_utf8_lossy(&ps.stdout);
    ps.status.success() && !state.trim().is_empty() && !state.trim().starts_with('Z')
}
