//! Searching and counting a game of any type, with the results written in its notation: what
//! `bestmove` and `perft` (in the protocol and on the command line) share.

use crate::games::{format_line, AnyGame};
use crate::record::{Notation, Record};
use crate::search::{Engine, Limits, Report};
use crate::with_record;
use std::sync::atomic::AtomicBool;

/// A search result with its moves written as MoveStrings.
#[derive(Clone, Debug)]
pub struct FormattedResult {
    /// The best move.
    pub best: String,
    /// Its score (hundredths; mate scores are large).
    pub score: i32,
    /// Depth of the last finished iteration.
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time taken.
    pub time: std::time::Duration,
    /// The principal variation.
    pub pv: Vec<String>,
}

impl FormattedResult {
    /// One JSON object: `{"move":…,"score":…,"depth":…,"nodes":…,"time":…,"pv":[…]}`.
    pub fn to_json(&self) -> String {
        let quote = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
        let pv: Vec<String> = self.pv.iter().map(|m| quote(m)).collect();
        format!(
            "{{\"move\":{},\"score\":{},\"depth\":{},\"nodes\":{},\"time\":{:.3},\"pv\":[{}]}}",
            quote(&self.best),
            self.score,
            self.depth,
            self.nodes,
            self.time.as_secs_f64(),
            pv.join(",")
        )
    }
}

/// Searches the game's current position, handing every finished iteration to `report` as a
/// `move;depth;score;pv…` line. `None` when the game is over (there is no move to find).
pub fn search(
    game: &AnyGame,
    engine: &mut Engine,
    limits: Limits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(String),
) -> Option<FormattedResult> {
    with_record!(game, r => search_record(r, engine, limits, stop, report))
}

fn search_record<G: Notation>(
    record: &Record<G>,
    engine: &mut Engine,
    limits: Limits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(String),
) -> Option<FormattedResult> {
    let root = record.position();
    let mut on_iteration = |r: &Report<G::Move>| {
        let pv = format_line(root, &r.pv);
        if let Some(first) = pv.first() {
            report(format!("{first};{};{:.2};{}", r.depth, r.score as f64 / 100.0, pv.join(";")));
        }
    };
    let r = engine.search(root, limits, stop, &mut on_iteration);
    Some(FormattedResult {
        best: root.write_move(r.best?),
        score: r.score,
        depth: r.depth,
        nodes: r.nodes,
        time: r.time,
        pv: format_line(root, &r.pv),
    })
}

/// Perft from the game's current position, or `None` if stopped.
pub fn perft(game: &AnyGame, depth: usize, stop: &AtomicBool) -> Option<u64> {
    with_record!(game, r => crate::perft::perft_interruptible(&mut r.position().clone(), depth, stop))
}

/// Perft split over the threads of the current rayon pool.
pub fn perft_parallel(game: &AnyGame, depth: usize) -> u64 {
    with_record!(game, r => crate::perft::perft_parallel(r.position(), depth))
}

/// One line of perft output: `5: 5427108  0.021 s  258.4 M/s` (depth, leaves, time, speed).
pub fn perft_line(depth: usize, leaves: u64, seconds: f64) -> String {
    format!("{depth}: {leaves}  {seconds:.3} s  {:.1} M/s", leaves as f64 / seconds.max(1e-9) / 1e6)
}
