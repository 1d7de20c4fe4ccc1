//! Perft against the published counts in `positions/hive-perft.txt`.
//!
//! The normal run checks every count up to [`FAST_LIMIT`] leaves (all eight start positions
//! through depth 6); `cargo test --release -- --ignored` also checks the deep rows.

use comb::hive::HiveGame;
use comb::perft::{perft, perft_parallel};

/// Counts above this many leaves run only with `--ignored`.
const FAST_LIMIT: u64 = 300_000_000;
/// Counts above this are not checked at all (days of CPU).
const DEEP_LIMIT: u64 = 10_000_000_000;

struct Case {
    name: String,
    position: String,
    counts: Vec<u64>,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/positions/hive-perft.txt")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Case {
                name: f[0].to_string(),
                position: f[1].to_string(),
                counts: f[2].split_whitespace().map(|n| n.parse().unwrap()).collect(),
            }
        })
        .collect()
}

fn load(position: &str) -> HiveGame {
    // A bare GameTypeString is a GameString without moves.
    HiveGame::parse(position).or_else(|_| HiveGame::parse(&format!("{position};NotStarted;White[1]"))).unwrap()
}

fn check(min: u64, max: u64, parallel: bool) -> usize {
    let mut checked = 0;
    for case in cases() {
        let game = load(&case.position);
        let mut hive = game.hive().clone();
        let mut buffers = Vec::new();
        for (i, &expected) in case.counts.iter().enumerate() {
            if expected > max {
                break;
            }
            if expected < min {
                continue;
            }
            let depth = i + 1;
            let n = if parallel { perft_parallel(&hive, depth) } else { perft(&mut hive, depth, &mut buffers) };
            assert_eq!(n, expected, "{} depth {depth}", case.name);
            checked += 1;
        }
    }
    checked
}

#[test]
fn published_counts() {
    assert!(check(0, FAST_LIMIT, false) >= 58);
}

#[test]
fn parallel_perft_agrees() {
    assert!(check(100_000, 10_000_000, true) >= 10);
}

#[test]
#[ignore = "deep perft: minutes of CPU"]
fn deep_counts() {
    assert!(check(FAST_LIMIT + 1, DEEP_LIMIT, true) >= 8);
}
