//! What the test files that run the comb binary share: running it, reading its output, and a
//! scratch folder per test. Each test file uses only part of it.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The comb binary under test.
pub const COMB: &str = env!("CARGO_BIN_EXE_comb");

/// Runs comb with `args` and waits for it.
pub fn comb(args: &[&str]) -> Output {
    Command::new(COMB).args(args).output().expect("the comb binary runs")
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A fresh, empty folder for one test's files, named by the test file and the test.
pub fn temp_dir(file: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("comb-{file}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A path inside the repository.
pub fn data(name: &str) -> String {
    format!("{}/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The value of a field in one JSONL line: a string field unescaped, any other its text (the
/// runner writes no nested objects).
pub fn json_field(line: &str, key: &str) -> String {
    let start = line.find(&format!("\"{key}\":")).unwrap_or_else(|| panic!("{key} in {line}")) + key.len() + 3;
    let rest = &line[start..];
    let Some(s) = rest.strip_prefix('"') else { return rest.split([',', '}']).next().unwrap().to_string() };
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => break,
            '\\' => out.push(chars.next().unwrap()),
            c => out.push(c),
        }
    }
    out
}
