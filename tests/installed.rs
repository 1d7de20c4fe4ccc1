//! An installed binary works anywhere: a copy of comb in an empty folder, with no repository
//! around it, benches and checks itself from what is built into it, and `comb tune` writes only
//! into the repository it is run in (or where `--out` says).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{stderr, stdout, temp_dir, COMB};

/// A copy of the binary in `dir`.
fn install(dir: &Path) -> PathBuf {
    let copy = dir.join("comb");
    std::fs::copy(COMB, &copy).unwrap();
    copy
}

/// Runs `program` with `args` in the folder `dir`.
fn run_in(dir: &Path, program: &Path, args: &[&str]) -> Output {
    Command::new(program).args(args).current_dir(dir).output().expect("the copy runs")
}

#[test]
fn the_binary_holds_no_path_of_the_machine_it_was_built_on() {
    let binary = std::fs::read(COMB).unwrap();
    let source = env!("CARGO_MANIFEST_DIR").as_bytes();
    assert!(!binary.windows(source.len()).any(|w| w == source), "the binary names {}", env!("CARGO_MANIFEST_DIR"));
}

#[test]
fn a_copy_in_an_empty_folder_benches_and_passes_its_own_conformance_suite() {
    let dir = temp_dir("installed", "anywhere");
    let comb = install(&dir);
    let out = run_in(&dir, &comb, &["bench", "--depth", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    // The built-in positions: one line each, then the total.
    let positions =
        include_str!("../positions/bench.txt").lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    assert_eq!(text.lines().count(), positions.count() + 1, "{text}");
    assert!(text.lines().last().unwrap().starts_with("total "), "{text}");

    let out = run_in(&dir, &comb, &["conformance", "--seconds", "1", "--", comb.to_str().unwrap()]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    let summary = text.lines().last().unwrap();
    assert!(summary.starts_with("conformance: ") && summary.contains(" passed, 0 failed, 0 allowed of "), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tune_writes_into_the_repository_it_runs_in_and_refuses_outside_one() {
    let dir = temp_dir("installed", "tune");
    let comb = install(&dir);
    let sample = common::data("positions/selfplay-sample.txt");
    let args = ["tune", sample.as_str(), "--epochs", "1", "--threads", "1"];
    let out = run_in(&dir, &comb, &args);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert_eq!(
        stderr(&out),
        "error: no --out given, and the current directory is not in a comb repository (a folder whose Cargo.toml \
         is the package `comb`, holding src/hive/weights.rs): give --out FILE, or run comb tune in the repository\n"
    );
    assert_eq!(stdout(&out), "");

    // A repository: the weights file is found from a folder inside it, and nothing else is
    // written.
    let repo = dir.join("repo");
    std::fs::create_dir_all(repo.join("src/hive")).unwrap();
    std::fs::create_dir_all(repo.join("positions")).unwrap();
    std::fs::write(repo.join("Cargo.toml"), "[package]\nname = \"comb\"\n").unwrap();
    std::fs::write(repo.join("src/hive/weights.rs"), "old\n").unwrap();
    let out = run_in(&repo.join("positions"), &comb, &args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let weights = repo.join("src/hive/weights.rs");
    assert!(stdout(&out).ends_with(&format!("weights written to {}\n", weights.display())), "{}", stdout(&out));
    assert!(std::fs::read_to_string(&weights).unwrap().contains("Fitted to 300 positions"));
    std::fs::remove_dir_all(&dir).unwrap();
}
