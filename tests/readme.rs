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

use std::io::Write;
use std::process::{Command, Stdio};

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

/// Whether `line` matches `pattern`, where `[..]` stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !line.starts_with(first) || !line[first.len()..].ends_with(last) || line.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether `lines` match `pattern`, where a line `...` stands for any number of lines.
fn lines_match(pattern: &[String], lines: &[&str]) -> bool {
    match pattern.split_first() {
        None => lines.is_empty(),
        Some((p, rest)) if p == "..." => (0..=lines.len()).any(|skip| lines_match(rest, &lines[skip..])),
        Some((p, rest)) => lines.first().is_some_and(|l| line_matches(p, l)) && lines_match(rest, &lines[1..]),
    }
}

fn comb_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_BIN_EXE_comb")).parent().expect("binary directory").to_path_buf()
}

fn path_with_comb() -> String {
    format!("{}:{}", comb_dir().display(), std::env::var("PATH").unwrap_or_default())
}

/// Runs one example; returns a description of the difference, if any.
fn check(example: &Example) -> Result<(), String> {
    let (mut child, input, expected, status) = match &example.kind {
        Kind::Shell { command, expected, status } => {
            let mut child = Command::new("sh");
            child.arg("-c").arg(command);
            (child, None, expected, *status)
        }
        Kind::Session { input, expected } => (Command::new(env!("CARGO_BIN_EXE_comb")), Some(input), expected, 0),
    };
    let mut child = child
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("PATH", path_with_comb())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut stdin = child.stdin.take().expect("stdin");
    if let Some(input) = input {
        stdin.write_all(input.as_bytes()).map_err(|e| e.to_string())?;
    }
    drop(stdin);
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    // A session's output begins with the `info` block printed at start-up.
    let lines = match example.kind {
        Kind::Session { .. } => lines.get(3..).unwrap_or_default().to_vec(),
        Kind::Shell { .. } => lines,
    };
    let code = output.status.code().unwrap_or(-1);
    if code != status || !lines_match(expected, &lines) {
        return Err(format!(
            "README line {}: exit status {code} (expected {status})\n--- expected\n{}\n--- got\n{}\n--- stderr\n{}",
            example.line,
            expected.join("\n"),
            lines.join("\n"),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(())
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
fn patterns_match_as_documented() {
    assert!(line_matches("5: 5427108  [..] s  [..] M/s", "5: 5427108  0.021 s  258.4 M/s"));
    assert!(!line_matches("5: 5427108  [..] s", "5: 5427109  0.021 s"));
    assert!(line_matches("[..]", ""));
    assert!(!line_matches("a[..]a", "a"));
    let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(lines_match(&p(&["a", "...", "z"]), &["a", "b", "c", "z"]));
    assert!(lines_match(&p(&["a", "...", "z"]), &["a", "z"]));
    assert!(!lines_match(&p(&["a", "...", "z"]), &["a", "b"]));
    let session =
        session_example(1, &[(0, "newgame".into()), (1, "Base;NotStarted;White[1]".into()), (2, "ok".into())]);
    let Kind::Session { input, expected } = session.kind else { panic!("a session") };
    assert_eq!(input, "newgame\n");
    assert_eq!(expected, p(&["Base;NotStarted;White[1]", "ok"]));
}
