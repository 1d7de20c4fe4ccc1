//! What an engine sends never reaches an output as it came: a tournament against engines that
//! answer with escape sequences, a NUL and a line of 2 MiB (tests/fake_engine.sh `garbage` and
//! `garbage-err`) shows their text escaped and cut after 200 characters in the console, the PGN
//! and JSONL files and the transcripts.

use std::path::Path;
use std::process::Command;

mod common;
use common::{data, json_field, stderr, stdout, temp_dir, COMB};

/// The bytes of `text` that are control characters other than the line break.
fn controls(text: &[u8]) -> Vec<u8> {
    text.iter().copied().filter(|&b| (b < 0x20 && b != b'\n') || b == 0x7f).collect()
}

/// Asserts that `text` (named `what`) holds no control character and no line longer than
/// `longest` characters.
fn assert_clean(what: &str, text: &[u8], longest: usize) {
    assert_eq!(controls(text), Vec::<u8>::new(), "control characters in {what}");
    let text = String::from_utf8_lossy(text);
    let line = text.lines().max_by_key(|l| l.chars().count()).unwrap_or_default();
    assert!(line.chars().count() <= longest, "a line of {} characters in {what}: {line}", line.chars().count());
}

#[test]
fn an_engines_raw_bytes_are_escaped_and_cut_in_every_output() {
    let dir = temp_dir("engine_text", "garbage");
    let (pgn, jsonl, logs) = (dir.join("games.pgn"), dir.join("games.jsonl"), dir.join("logs"));
    let fake = data("tests/fake_engine.sh");
    let out = Command::new(COMB)
        .args(["tournament", "--engine", "name=comb", &format!("cmd={COMB}"), "option.MaxHelperThreads=None"])
        .args(["option.TranspositionTableSizeMB=4", "--engine", "cmd=bash", &format!("args={fake} garbage")])
        .args(["--engine", "name=err", "cmd=bash", &format!("args={fake} garbage-err")])
        .args(["--each", "depth=1", "--rounds", "1", "--concurrency", "1", "--rating-interval", "0"])
        .args(["--pgn", &pgn.display().to_string(), "--jsonl", &jsonl.display().to_string()])
        .args(["--transcripts", &logs.display().to_string()])
        .output()
        .unwrap();
    let (console, errors) = (stdout(&out), stderr(&out));
    assert!(out.status.success(), "{console}\n{errors}");

    // The engine without a name is named after its `id` line, escaped.
    let name = r"\x1b[1mfake-garbage";
    let illegal = format!(r"illegal move by {name}: `wQ \x1b[2J\x00xxx");
    let refused = r"err protocol error (err \x1b[31mbad\x00)";
    for text in [&console, &std::fs::read_to_string(&pgn).unwrap()] {
        assert!(text.contains(&illegal), "{text}");
        assert!(text.contains(" more characters)` (Unable to parse move "), "{text}");
        assert!(text.contains(refused), "{text}");
    }
    assert!(console.contains(&format!("{name} playing White")) || console.contains(name), "{console}");
    // The 200 characters kept of the engine's text, in the longest line of each output: the
    // detail holds two (the move, and the rules' message quoting it).
    assert_clean("the console", &out.stdout, 700);
    assert_clean("standard error", &out.stderr, 300);
    assert_clean("the PGN file", &std::fs::read(&pgn).unwrap(), 700);
    let games = std::fs::read_to_string(&jsonl).unwrap();
    assert_eq!(games.lines().count(), 6);
    for line in games.lines() {
        let detail = json_field(line, "detail");
        assert_clean("a JSONL detail", detail.as_bytes(), 600);
        if json_field(line, "reason") == "illegal-move" {
            assert!(detail.starts_with(&illegal), "{detail}");
        }
    }
    let transcripts = std::fs::read_dir(&logs).unwrap().map(|e| e.unwrap().path()).collect::<Vec<_>>();
    assert_eq!(transcripts.len(), 6);
    for path in &transcripts {
        let text = std::fs::read(path).unwrap();
        assert_clean(&path.display().to_string(), &text, 700);
        assert!(text.len() < 20_000, "{} holds {} bytes", path.display(), text.len());
    }
    let all: String = transcripts.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect();
    assert!(all.contains(r"! oops \x1b[31mred"), "{all}");
    assert!(all.contains(r"< err \x1b[31mbad\x00"), "{all}");
    remove(&dir);
}

fn remove(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
}
