//! The bench: fixed-depth searches of a set of positions, each from an empty table. On one
//! thread its total node count is the search's behaviour checksum: `comb bench` prints it, and
//! the test suite compares it with `positions/bench-total.txt`, which a commit that changes the
//! search updates together with its `Bench: N` line. On several threads the node counts vary
//! from run to run, and the times against one thread's give the threads' time to depth.
//!
//! A bench file has one position a line, `depth<TAB>position` (a game type or a GameString);
//! blank lines and lines starting with `#` are skipped.

use crate::error::RulesError;
use crate::games::{self, GameOptions, UnknownGameType};
use crate::search::{Limits, Searcher};
use crate::uhp;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The bench positions `comb bench` searches by default: `positions/bench.txt` as it was when
/// comb was built, built in, so that an installed binary benches without the repository.
pub const POSITIONS: &str = include_str!("../positions/bench.txt");

/// Table size of the bench's engine, in MiB.
const TABLE_MEGABYTES: usize = 16;

/// What went wrong in a bench run.
#[derive(Debug)]
pub enum BenchError {
    /// A line without a tab between depth and position.
    Line(String),
    /// A depth that is not a number.
    Depth,
    /// A position whose type field names no game comb plays.
    GameType(UnknownGameType),
    /// A position that is neither a game type nor a GameString.
    Position(RulesError),
    /// The position (1-based among the positions) is a finished game: nothing to search.
    Finished(usize),
    /// Writing a line failed.
    Output(std::io::Error),
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::Line(line) => write!(f, "bad bench line {line}"),
            BenchError::Depth => f.write_str("bad depth in bench file"),
            BenchError::GameType(e) => write!(f, "{e}"),
            BenchError::Position(e) => write!(f, "{e}"),
            BenchError::Finished(number) => write!(f, "bench position {number} is a finished game"),
            BenchError::Output(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BenchError {}

/// One searched position.
#[derive(Clone, Debug)]
pub struct BenchLine<'a> {
    /// Its place among the positions, from 1.
    pub number: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// Depth of the last finished iteration.
    pub depth: u32,
    /// The best move found, as a MoveString.
    pub best: String,
    /// The position as the file gives it.
    pub position: &'a str,
}

impl fmt::Display for BenchLine<'_> {
    /// `number nodes time depth best position`, the position shortened to its type, its turn
    /// and its move count.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:>2} {:>10} nodes {:>8.3} s  depth {:>2}  {:<12} {}",
            self.number,
            self.nodes,
            self.time.as_secs_f64(),
            self.depth,
            self.best,
            abbreviate(self.position)
        )
    }
}

/// The bench's sums.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct BenchTotal {
    /// Nodes searched over every position: the checksum.
    pub nodes: u64,
    /// Seconds taken over every position.
    pub seconds: f64,
}

impl fmt::Display for BenchTotal {
    /// `total N nodes T s R nodes/s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "total {} nodes {:.3} s {:.0} nodes/s",
            self.nodes,
            self.seconds,
            self.nodes as f64 / self.seconds.max(1e-9)
        )
    }
}

/// Searches every position of the bench file `text` in order, at its own depth or at `depth`
/// when given, on `threads` threads, games set up with `options`; `each` receives every
/// searched position as soon as it is done (its error ends the run). One engine whose table is
/// emptied for every position, so that on one thread the node counts depend on nothing but the
/// positions and the search.
pub fn run(
    text: &str,
    depth: Option<u32>,
    threads: usize,
    options: GameOptions,
    each: &mut dyn FnMut(&BenchLine) -> std::io::Result<()>,
) -> Result<BenchTotal, BenchError> {
    let never = AtomicBool::new(false);
    let mut total = BenchTotal { nodes: 0, seconds: 0.0 };
    let mut engine = Searcher::new(TABLE_MEGABYTES, threads);
    for (i, line) in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).enumerate() {
        let (line_depth, position) = line.split_once('\t').ok_or_else(|| BenchError::Line(line.to_string()))?;
        let depth = match depth {
            Some(d) => d,
            None => line_depth.trim().parse().map_err(|_| BenchError::Depth)?,
        };
        let type_field = position.split(';').next().unwrap_or_default().trim();
        if !games::is_game_type(type_field) {
            return Err(BenchError::GameType(UnknownGameType(type_field.to_string())));
        }
        let game = options.start(position).map_err(BenchError::Position)?;
        engine.new_game();
        let r = uhp::search(&game, &mut engine, Limits::depth(depth), &never, &mut |_| {})
            .ok_or(BenchError::Finished(i + 1))?;
        let line = BenchLine { number: i + 1, nodes: r.nodes, time: r.time, depth: r.depth, best: r.best, position };
        each(&line).map_err(BenchError::Output)?;
        total.nodes += r.nodes;
        total.seconds += r.time.as_secs_f64();
    }
    Ok(total)
}

/// A GameString cut to its type, its turn and its move count.
fn abbreviate(position: &str) -> String {
    let fields: Vec<&str> = position.split(';').collect();
    match fields.len() {
        0..=3 => position.to_string(),
        n => format!("{};{} ({} moves)", fields[0], fields[2], n - 3),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abbreviates_a_game_string_to_type_turn_and_moves() {
        assert_eq!(abbreviate("Base;InProgress;White[2];wS1;bG1 -wS1"), "Base;White[2] (2 moves)");
        assert_eq!(abbreviate("Base+MLP"), "Base+MLP");
    }

    #[test]
    fn refuses_a_line_without_a_tab_and_a_bad_depth() {
        let mut each = |_: &BenchLine| Ok(());
        let e = run("6 Base", None, 1, GameOptions::default(), &mut each).unwrap_err();
        assert_eq!(e.to_string(), "bad bench line 6 Base");
        let e = run("six\tBase", None, 1, GameOptions::default(), &mut each).unwrap_err();
        assert_eq!(e.to_string(), "bad depth in bench file");
    }

    #[test]
    fn searches_every_position_at_the_given_depth() {
        let mut lines = Vec::new();
        let text = "# comment\n\n6\tBase\n6\tIntellector\n";
        let total = run(text, Some(1), 1, GameOptions::default(), &mut |l| {
            lines.push((l.number, l.depth, l.nodes));
            Ok(())
        })
        .unwrap();
        assert_eq!(lines.iter().map(|l| (l.0, l.1)).collect::<Vec<_>>(), [(1, 1), (2, 1)]);
        assert_eq!(total.nodes, lines.iter().map(|l| l.2).sum::<u64>());
    }
}
