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

/// The value of a field in one JSONL line: a string field unescaped, any other as JSON
/// (`17`, `null`).
pub fn json_field(line: &str, key: &str) -> String {
    let object: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e} in {line}"));
    match object.get(key).unwrap_or_else(|| panic!("{key} in {line}")) {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
