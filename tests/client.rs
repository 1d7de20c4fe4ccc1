//! The UHP client's public API, against comb itself: spawned from a command line, commands
//! answered up to `ok`, protocol errors told from replies, bad command lines refused.

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
