//! The README's examples, run and compared with what they show, so that the documentation
//! cannot drift from the program.
//!
//! Two kinds of fenced block are checked (other blocks are prose for people):
//! - ` ```console `: lines `$ COMMAND` run in `sh` from the repository's root, with the built
//!   `comb` first on `PATH`; the lines after a command, up to the next `$`, are its expected
//!   standard output. A line `? N` among them asks for exit status N (default 0).
//! - ` ```uhp `: a UHP session, command line then reply up to and including `ok`, again and
//!   again; the whole session is sent to one `comb` process and its replies compared.
//!
//! In expected output, `[..]` inside a line matches any text and a line `...` matches any
//! number of lines (times, speeds and node rates vary from run to run).
//!
//! snapbox runs each example and matches its output against those patterns, which are its
//! own. trycmd, which reads ` ```console ` blocks from Markdown by itself, cannot run these:
//! it runs a command's words without a shell, and the README's commands use one (pipes into
//! `grep`, `sed` and `head`, `$(…)`, redirections), and its Markdown cases have no standard
//! input, which a UHP session is. So this file finds the blocks, and snapbox does the rest.

use snapbox::cmd::Command;
use snapbox::{Assert, Data};

/// One checked example.
struct Example {
    /// Line of the README where it starts, for messages.
    line: usize,
    kind: Kind,
}

enum Kind {
    Shell { command: String, expected: Vec<String>, status: i32 },
    Session { input: String, expected: Vec<String> },
}

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README.md")
}

/// The checked examples of `text`, in order.
fn examples(text: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let fence = line.trim_start();
        let kind = match fence.strip_prefix("```") {
            Some("console") => "console",
            Some("uhp") => "uhp",
            _ => continue,
        };
        let body: Vec<(usize, String)> = lines
            .by_ref()
            .take_while(|(_, l)| !l.trim_start().starts_with("```"))
            .map(|(i, l)| (i, l.to_string()))
            .collect();
        match kind {
            "console" => out.extend(shell_examples(&body)),
            _ => out.push(session_example(n + 1, &body)),
        }
    }
    out
}

fn shell_examples(body: &[(usize, String)]) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    for (i, line) in body {
        if let Some(command) = line.strip_prefix("$ ") {
            let kind = Kind::Shell { command: command.to_string(), expected: Vec::new(), status: 0 };
            out.push(Example { line: i + 1, kind });
        } else if let Some(Example { kind: Kind::Shell { expected, status, .. }, .. }) = out.last_mut() {
            match line.strip_prefix("? ") {
                Some(code) => *status = code.trim().parse().expect("`? N` takes an exit status"),
                None => expected.push(line.clone()),
            }
        } else {
            panic!("README line {}: a console block must start with `$ command`", i + 1);
        }
    }
    out
}

/// A session transcript: each command is followed by its reply, which ends with `ok`.
fn session_example(line: usize, body: &[(usize, String)]) -> Example {
    let mut input = String::new();
    let mut expected = Vec::new();
    let mut expecting_command = true;
    for (_, l) in body {
        if expecting_command {
            input.push_str(l);
            input.push('\n');
            expecting_command = false;
        } else {
            expected.push(l.clone());
            expecting_command = l == "ok";
        }
    }
    Example { line, kind: Kind::Session { input, expected } }
}

fn comb_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_BIN_EXE_comb")).parent().expect("binary directory").to_path_buf()
}

fn path_with_comb() -> String {
    format!("{}:{}", comb_dir().display(), std::env::var("PATH").unwrap_or_default())
}

/// Runs one example; returns a description of the difference, if any.
fn check(example: &Example) -> Result<(), String> {
    let (command, input, expected, status) = match &example.kind {
        Kind::Shell { command, expected, status } => (Command::new("sh").arg("-c").arg(command), "", expected, *status),
        Kind::Session { input, expected } => (Command::new(env!("CARGO_BIN_EXE_comb")), input.as_str(), expected, 0),
    };
    let output = command
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("PATH", path_with_comb())
        .stdin(input.to_string())
        .output()
        .map_err(|e| format!("README line {}: {e}", example.line))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    // A session's output begins with the `info` block printed at start-up.
    let skip = if matches!(example.kind, Kind::Session { .. }) { 3 } else { 0 };
    let shown: String = stdout.lines().skip(skip).map(|l| format!("{l}\n")).collect();
    let pattern: String = expected.iter().map(|l| format!("{l}\n")).collect();
    let code = output.status.code().unwrap_or(-1);
    // Paths are compared as they are: GameStrings are full of backslashes.
    let compared = Assert::new().normalize_paths(false).try_eq(None, Data::text(shown), Data::text(pattern));
    match compared {
        Ok(()) if code == status => Ok(()),
        result => Err(format!(
            "README line {}: exit status {code} (expected {status})\n{}\n--- stderr\n{}",
            example.line,
            result.err().map_or_else(|| "(the output matches)".to_string(), |e| e.to_string()),
            String::from_utf8_lossy(&output.stderr)
        )),
    }
}

#[test]
fn readme_examples_print_what_they_show() {
    let all = examples(&readme());
    assert!(all.len() >= 8, "only {} checked examples in the README", all.len());
    let failures: Vec<String> = all.iter().filter_map(|e| check(e).err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} README examples differ:\n\n{}",
        failures.len(),
        all.len(),
        failures.join("\n\n")
    );
}

#[test]
fn sessions_are_read_as_commands_and_replies() {
    let session =
        session_example(1, &[(0, "newgame".into()), (1, "Base;NotStarted;White[1]".into()), (2, "ok".into())]);
    let Kind::Session { input, expected } = session.kind else { panic!("a session") };
    assert_eq!(input, "newgame\n");
    assert_eq!(expected, ["Base;NotStarted;White[1]", "ok"]);
}
