//! `comb tournament`: engine-against-engine matches between any engines that speak UHP, in the
//! manner of cutechess-cli and fastchess.
//!
//! From the command line to the results:
//! - [`args`]: the command line as clap reads it;
//! - [`settings`]: the `KEY=VALUE` settings of `--engine`, `--each` and `--sprt`;
//! - [`setup`]: the checked tournament: engines started once, openings, rules, game files;
//! - [`run`](mod@run): the run itself, game by game, with the SPRT's stop as a step of its own;
//! - [`report`]: every block printed (set-up, game lines, standings, SPRT, final results);
//! - [`merge`]: `comb tournament merge`, the shards' JSONL files reported as one run;
//! - [`resume`](mod@resume): `--resume`, a run continued from its own JSONL file;
//! - [`error`]: why a set-up is refused or a run ends early, one enum per floor.
//!
//! What they use:
//! - [`crate::client`]: an engine process over UHP, with deadlines on every read and restarts;
//! - [`referee`]: comb's rules check every move and end games (rules, adjudication, failures);
//! - [`openings`]: opening books (GameStrings, or games in PGN cut by `--opening-plies`) and their
//!   order;
//! - [`identity`]: the tournament id that every JSONL line carries;
//! - [`shard`]: the part of the schedule one process plays (`--shard`, Slurm, Kubernetes);
//! - [`schedule`]: pairings (round-robin, gauntlet), pairs of games with colours swapped, and
//!   concurrent workers;
//! - [`stats`]: Elo, error margin, LOS, pentanomial counts, SPRT;
//! - [`files`], [`crate::pgn`], [`jsonl`]: the game files and their formats;
//! - [`crate::stdout`]: printing that survives a reader who leaves early (`| head`).

pub mod args;
pub mod error;
pub mod files;
pub mod identity;
pub mod jsonl;
pub mod merge;
pub mod openings;
pub mod referee;
pub mod report;
pub mod resume;
pub mod run;
pub mod schedule;
pub mod settings;
pub mod setup;
pub mod shard;
pub mod stats;

pub use args::TournamentArgs;
pub use run::{run, run_status};

use referee::PlayedGame;
use std::time::{SystemTime, UNIX_EPOCH};

/// Everything known about a finished game: what the files and the report are made from.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The game's number, from 1, in schedule order.
    pub number: usize,
    /// Its round, from 1.
    pub round: usize,
    /// Its pair of games (same opening, colours swapped), from 0.
    pub pair: usize,
    /// Engine index playing White.
    pub white: usize,
    /// Engine index playing Black.
    pub black: usize,
    /// White's engine name.
    pub white_name: String,
    /// Black's engine name.
    pub black_name: String,
    /// White's limit per move (`depth=2`).
    pub white_limit: String,
    /// Black's limit per move.
    pub black_limit: String,
    /// The game type (`Base+MLP`).
    pub game_type: String,
    /// The opening GameString, if the game did not start from the empty board.
    pub opening: Option<String>,
    /// The game as played.
    pub played: PlayedGame,
}

impl GameRecord {
    /// Plies played, opening included.
    pub fn plies(&self) -> usize {
        self.played.moves.len()
    }
}

/// A UTC calendar time: (year, month, day, hour, minute, second).
pub type Utc = (i64, u32, u32, u32, u32, u32);

/// The UTC calendar time of `t` (no time-zone database needed: the runner writes UTC).
pub fn utc(t: SystemTime) -> Utc {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day, (rem / 3600) as u32, (rem / 60 % 60) as u32, (rem % 60) as u32)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::referee::{GameResult, PlayedGame, Termination};
    use super::*;
    use std::time::Duration;

    /// A small finished game for the writers' tests (PGN, JSONL, the report).
    pub(crate) fn sample() -> GameRecord {
        GameRecord {
            number: 17,
            round: 9,
            pair: 8,
            white: 0,
            black: 1,
            white_name: "A \"the ant\"".into(),
            black_name: "B".into(),
            white_limit: "depth=1".into(),
            black_limit: "depth=1".into(),
            game_type: "Base".into(),
            opening: Some("Base;InProgress;Black[1];wS1".into()),
            played: PlayedGame {
                result: GameResult::BlackWins,
                termination: Termination {
                    reason: "illegal-move",
                    detail: "illegal move by A: `pass` {really}\nnow".into(),
                },
                moves: vec!["wS1".into(), "bS1 wS1-".into(), "wG1 \\wS1".into()],
                opening_plies: 1,
                game_string: "Base;InProgress;Black[2];wS1;bS1 wS1-;wG1 \\wS1".into(),
                think: [Duration::from_millis(1500), Duration::from_millis(250)],
                transcript: Some("> newgame\n".into()),
                started: UNIX_EPOCH + Duration::from_secs(951_782_400),
                duration: Duration::from_millis(2000),
            },
        }
    }

    #[test]
    fn utc_dates() {
        assert_eq!(utc(UNIX_EPOCH), (1970, 1, 1, 0, 0, 0));
        // date -u -d @951782400 → 2000-02-29 00:00:00; @1767225599 → 2025-12-31 23:59:59
        assert_eq!(utc(UNIX_EPOCH + Duration::from_secs(951_782_400)), (2000, 2, 29, 0, 0, 0));
        assert_eq!(utc(UNIX_EPOCH + Duration::from_secs(1_767_225_599)), (2025, 12, 31, 23, 59, 59));
    }
}
