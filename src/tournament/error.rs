//! Why a tournament cannot start or stops early: one enum per floor, each keeping the facts
//! (the offending token, path, engine) and saying them in words only in its messages.
//!
//! - [`SprtError`]: SPRT parameters that make no sense (the statistics floor);
//! - [`OpeningsError`]: an opening book that cannot be read or holds a bad line or game;
//! - [`SettingError`]: one `--engine` / `--each` setting; [`SprtSettingError`]: `--sprt`;
//! - [`SetupError`]: everything that refuses a set-up (exit status 2), wrapping the above and
//!   the engines' [`EngineError`] from their trial start;
//! - [`RunError`]: what ends a run part-way (exit status 1, or quietly 141 for a closed pipe);
//! - [`JsonlError`]: a tournament's JSONL file that cannot be read back, for
//!   [`MergeError`] (`comb tournament merge`) and [`ResumeError`] (`--resume`).
//!
//! - [`LoadError`]: a game type or GameString the referee cannot load (an opening of another
//!   type, an unknown game type, or the rules' refusal, carried as the [`RulesError`]).

use crate::client::{shown, EngineError};
use crate::error::RulesError;
use crate::games::UnknownGameType;
use crate::pgn::{PgnError, Place};
use std::io;
use std::path::PathBuf;
use thiserror::Error;

/// Why SPRT parameters make no sense.
#[derive(Copy, Clone, Debug, PartialEq, Error)]
pub enum SprtError {
    /// The hypotheses are not finite, or `elo0` is not below `elo1`.
    #[error("elo0 ({elo0}) must be below elo1 ({elo1})")]
    EloOrder {
        /// The Elo difference of H0.
        elo0: f64,
        /// The Elo difference of H1.
        elo1: f64,
    },
    /// `alpha` or `beta` does not lie strictly between 0 and 1.
    #[error("{name} ({value}) must lie strictly between 0 and 1")]
    Probability {
        /// `alpha` or `beta`.
        name: &'static str,
        /// Its value.
        value: f64,
    },
    /// `alpha + beta` is 1 or more.
    #[error("alpha + beta ({0}) must be below 1")]
    ProbabilitySum(f64),
}

/// Why the referee cannot load a game of the tournament's type.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum LoadError {
    /// A GameString of another type than the tournament's.
    #[error("the GameString is of type `{found}`, the tournament plays `{wanted}`")]
    WrongType {
        /// The GameString's type field.
        found: String,
        /// The tournament's game type.
        wanted: String,
    },
    /// A game type the rules do not know.
    #[error(transparent)]
    UnknownType(UnknownGameType),
    /// The rules refuse the GameString (unreadable, or with an illegal move).
    #[error(transparent)]
    Rules(RulesError),
}

/// Why an opening book is refused. `book` names the file in messages.
#[derive(Debug, Error)]
pub enum OpeningsError {
    /// The file could not be read.
    #[error("{}: {error}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// The file is not UTF-8 text.
    #[error("{}: not UTF-8 text", .path.display())]
    NotUtf8 {
        /// The file.
        path: PathBuf,
    },
    /// A line the rules refuse: of the wrong game type, unreadable, or with an illegal move.
    #[error("{book}:{line}: {reason}")]
    Rejected {
        /// The book.
        book: String,
        /// The line number, from 1.
        line: usize,
        /// Why the referee refused it.
        reason: LoadError,
    },
    /// A line whose game is already over.
    #[error("{book}:{line}: the game is already over")]
    Finished {
        /// The book.
        book: String,
        /// The line number, from 1.
        line: usize,
    },
    /// No openings at all (only comments and blank lines).
    #[error("{book}: no openings (one GameString per line; `#` starts a comment)")]
    Empty {
        /// The book.
        book: String,
    },
    /// A PGN book without a single game.
    #[error("{book}: no games (Hive PGN, as `comb tournament --pgn` writes it)")]
    NoGames {
        /// The book.
        book: String,
    },
    /// A PGN book that cannot be read, or holds a game the rules refuse.
    #[error("{book}: {error}")]
    Pgn {
        /// The book.
        book: String,
        /// Why, with the game and line.
        error: PgnError,
    },
    /// A PGN game of another type than the book's first, or than `--game-type`.
    #[error("{book}: {at}: a game of type `{found}` among openings of type `{wanted}`")]
    PgnGameType {
        /// The book.
        book: String,
        /// The game.
        at: Place,
        /// Its game type.
        found: String,
        /// The type of the book's openings.
        wanted: String,
    },
    /// A PGN book without `--opening-plies`: a game is no opening until it is cut.
    #[error("{book}: a PGN book needs --opening-plies N (each opening is the first N plies of a game)")]
    PgnNeedsPlies {
        /// The book.
        book: String,
    },
    /// Every line or game was skipped by `--opening-plies`.
    #[error("{book}: no opening of {plies} plies: all {count} {unit} are shorter or end within {plies} plies")]
    AllSkipped {
        /// The book.
        book: String,
        /// The plies asked for.
        plies: usize,
        /// How many lines or games there were.
        count: usize,
        /// `lines` or `games`.
        unit: &'static str,
    },
}

/// Why one `--engine` or `--each` setting (or their sum) is refused.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum SettingError {
    /// A token without `=`.
    #[error("`{0}`: expected KEY=VALUE")]
    NotKeyValue(String),
    /// A command line (`cmd=`, `args=`) with a quote left open.
    #[error("unbalanced quote in `{0}`")]
    UnbalancedQuote(String),
    /// A second `depth=` or `movetime=` in one list (the token).
    #[error("`{0}`: give either depth= or movetime=, once")]
    LimitTwice(String),
    /// `depth=` that is not a number of plies (the token).
    #[error("`{0}`: expected a depth")]
    BadDepth(String),
    /// `movetime=` that is not a positive number of seconds.
    #[error("{key}={value}: expected a positive number of seconds")]
    BadSeconds {
        /// The key as written (`movetime`, `st`).
        key: String,
        /// The value as written.
        value: String,
    },
    /// `sync=` other than `newgame` or `play` (the token).
    #[error("`{0}`: expected sync=newgame or sync=play")]
    BadSync(String),
    /// `timecmd=` other than `time` or `seconds` (the token).
    #[error("`{0}`: expected timecmd=time or timecmd=seconds")]
    BadTimeCommand(String),
    /// A key that is no setting.
    #[error("unknown setting `{0}` (cmd, name, args, dir, option.NAME, depth, movetime, sync, timecmd)")]
    UnknownSetting(String),
    /// An `option.NAME=VALUE` whose name or value is not one word (the token).
    #[error("`{0}`: option names and values are single words")]
    NotAWord(String),
    /// No `cmd=` at all.
    #[error("no cmd=COMMAND")]
    NoCommand,
    /// `cmd=` with no words.
    #[error("cmd= is empty")]
    EmptyCommand,
    /// Neither `depth=` nor `movetime=`, here or in `--each`.
    #[error("no limit: add depth=N or movetime=SECONDS (or give it with --each)")]
    NoLimit,
    /// A name with quotes or line breaks, which the game files cannot hold.
    #[error("name `{0}` may not contain quotes or line breaks")]
    BadName(String),
}

/// Why the `--sprt` settings are refused.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum SprtSettingError {
    /// A token without `=`.
    #[error("--sprt `{0}`: expected KEY=VALUE")]
    NotKeyValue(String),
    /// A value that is not a number (the token).
    #[error("--sprt `{0}`: expected a number")]
    NotNumber(String),
    /// A key other than elo0, elo1, alpha, beta.
    #[error("--sprt: unknown setting `{0}` (elo0, elo1, alpha, beta)")]
    Unknown(String),
    /// elo0 or elo1 not given.
    #[error("--sprt needs elo0=… and elo1=…")]
    MissingElo,
    /// The test itself makes no sense.
    #[error("--sprt: {0}")]
    Invalid(SprtError),
}

/// Why the shard to play (`--shard`, `--shard-count` or the scheduler's variables) is refused.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum ShardError {
    /// `--shard` that is not `K/N`.
    #[error("--shard {0}: expected K/N (shard K of N, from 1)")]
    NotKOfN(String),
    /// A shard index outside 1..=count.
    #[error("shard {index} of {count}: a shard is 1 to N of N shards, N at least 1")]
    OutOfRange {
        /// The index, from 1.
        index: usize,
        /// The number of shards.
        count: usize,
    },
    /// `--shard` and `--shard-count` together.
    #[error("--shard K/N already gives the count: drop --shard-count")]
    CountWithShard,
    /// `--shard-count` without `JOB_COMPLETION_INDEX` (nor a Slurm array).
    #[error("--shard-count needs JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) or --shard K/N")]
    CountWithoutIndex,
    /// A variable (or `--shard-count`) the shard needs and that is not there.
    #[error("sharding needs {0}")]
    Missing(&'static str),
    /// A scheduler variable that is not a number.
    #[error("{name}={value}: expected a number")]
    BadVariable {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
    },
    /// A Slurm array task that is none of `MIN`, `MIN + STEP`, ….
    #[error(
        "SLURM_ARRAY_TASK_ID={id} is not SLURM_ARRAY_TASK_MIN={min} plus a multiple of SLURM_ARRAY_TASK_STEP={step}: \
        give the array as a range (--array=0-3 or 0-6:2)"
    )]
    OffTheArray {
        /// `SLURM_ARRAY_TASK_ID`.
        id: usize,
        /// `SLURM_ARRAY_TASK_MIN`.
        min: usize,
        /// `SLURM_ARRAY_TASK_STEP`.
        step: usize,
    },
    /// A Slurm array given as a list of IDs (`--array=1,5,9`): its tasks are not
    /// `MIN`, `MIN + STEP`, … up to `MAX`, `COUNT` of them, so no task can tell its shard.
    #[error(
        "a Slurm list array (IDs such as --array=1,5,9) cannot be sharded: SLURM_ARRAY_TASK_COUNT={count} tasks from \
         SLURM_ARRAY_TASK_MIN={min} in steps of SLURM_ARRAY_TASK_STEP={step} do not end at \
         SLURM_ARRAY_TASK_MAX={max}; give the array as a range (--array=0-{} or 0-6:2)",
        .count.saturating_sub(1)
    )]
    ListArray {
        /// `SLURM_ARRAY_TASK_MIN`.
        min: usize,
        /// `SLURM_ARRAY_TASK_MAX`.
        max: usize,
        /// `SLURM_ARRAY_TASK_STEP`.
        step: usize,
        /// `SLURM_ARRAY_TASK_COUNT`.
        count: usize,
    },
    /// `--shard-count` other than the Slurm array's task count.
    #[error("--shard-count {given} disagrees with SLURM_ARRAY_TASK_COUNT={count}")]
    CountDisagrees {
        /// `--shard-count`.
        given: usize,
        /// `SLURM_ARRAY_TASK_COUNT`.
        count: usize,
    },
}

/// Why a tournament cannot start.
#[derive(Debug, Error)]
pub enum SetupError {
    /// Fewer than two `--engine`.
    #[error("a tournament needs at least two engines (one --engine each)")]
    TooFewEngines,
    /// `--rounds 0`.
    #[error("--rounds must be at least 1")]
    NoRounds,
    /// A timeout option (`command-timeout`, `depth-timeout`) that is not a positive number of
    /// seconds.
    #[error("--{option} {value}: expected a positive number of seconds")]
    Seconds {
        /// The option's name, without `--`.
        option: &'static str,
        /// Its value.
        value: f64,
    },
    /// A `--timeout-margin` below 0 or not a number.
    #[error("--timeout-margin {0}: expected seconds, 0 or more")]
    Margin(f64),
    /// A bad setting of engine `index` (from 1).
    #[error("engine {index}: {error}")]
    Setting {
        /// The engine's place on the command line, from 1.
        index: usize,
        /// What is wrong.
        error: SettingError,
    },
    /// Bad `--sprt` settings.
    #[error(transparent)]
    Sprt(#[from] SprtSettingError),
    /// `--sprt` with other than two engines.
    #[error("--sprt tests one engine against another: give exactly two engines")]
    SprtNeedsTwo,
    /// A bad opening book.
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    /// A game type the referee does not know.
    #[error(transparent)]
    GameType(LoadError),
    /// Engine `index` could not be started or set up.
    #[error("engine {index} (`{command}`): {error}")]
    Engine {
        /// The engine's place on the command line, from 1.
        index: usize,
        /// Its command line.
        command: String,
        /// What went wrong.
        error: EngineError,
    },
    /// Engine `index` refused `newgame <game_type>`: it cannot play the tournament's game.
    #[error("engine {index} (`{command}`) cannot play {game_type}: {}", refusal(.game_type, .error))]
    Refused {
        /// The engine's place on the command line, from 1.
        index: usize,
        /// Its command line.
        command: String,
        /// The tournament's game type.
        game_type: String,
        /// The refusal (`err …`), or how the exchange failed.
        error: EngineError,
    },
    /// A shard that cannot be played.
    #[error(transparent)]
    Shard(#[from] ShardError),
    /// A shard of a random opening order without `--seed`: every shard would draw its own.
    #[error("--order random in shards needs --seed N: every shard must draw the same opening order")]
    ShardNeedsSeed,
    /// `--resume` refuses the JSONL file.
    #[error(transparent)]
    Resume(#[from] ResumeError),
    /// An output file or directory could not be created.
    #[error("{}: {error}", .path.display())]
    Output {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
}

/// How an engine refused `newgame <game_type>`: the `err …` it answered, or how the exchange
/// failed.
fn refusal(game_type: &str, error: &EngineError) -> String {
    match error {
        EngineError::Protocol(reply) => format!("it answered `newgame {game_type}` with `{}`", shown(reply)),
        error => format!("`newgame {game_type}`: {error}"),
    }
}

/// Why a tournament's JSONL file cannot be read back into games.
#[derive(Debug, Error)]
pub enum JsonlError {
    /// The file could not be read.
    #[error("{}: {error}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// A line that is no game of a tournament's JSONL file.
    #[error("{}:{line}: {reason}", .path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A line without a tournament id: written before the runner wrote one.
    #[error("{}:{line}: the game has no `tournament` id: the file predates tournament ids, so its games cannot be \
        told from another tournament's; play the run again to get a file that merges and resumes", .path.display())]
    NoTournament {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
    },
}

/// What every refusal of `--resume` ends with.
const REFUSED: &str = "--resume continues only the run that wrote the file (the same settings and shard)";

/// ` (the file has `max_plies=300`, this run `max_plies=100`)`, or nothing.
fn differing(difference: &Option<(String, String)>) -> String {
    difference.as_ref().map_or(String::new(), |(theirs, ours)| format!(" (the file has `{theirs}`, this run `{ours}`)"))
}

/// Why `--resume` refuses the run's JSONL file. The file is left as it is.
#[derive(Debug, Error)]
pub enum ResumeError {
    /// The file cannot be read back.
    #[error("--resume: {0}")]
    Jsonl(#[from] JsonlError),
    /// A game of another tournament (other settings).
    #[error("--resume: {place} is a game of tournament {id}, this run is tournament {ours}{}: {REFUSED}", differing(.difference))]
    OtherTournament {
        /// The file and line.
        place: String,
        /// Its tournament id.
        id: String,
        /// This run's id.
        ours: String,
        /// The first settings line that differs: the file's, then this run's.
        difference: Option<(String, String)>,
    },
    /// A game of another shard (or of the whole schedule, or of a shard when this run plays the
    /// whole schedule).
    #[error("--resume: {place} is a game of shard {theirs}, this run plays shard {ours}: {REFUSED}")]
    OtherShard {
        /// The file and line.
        place: String,
        /// The line's shard (`2/3`, or `none`).
        theirs: String,
        /// This run's shard.
        ours: String,
    },
    /// A game number that this run's schedule (or shard) does not have.
    #[error("--resume: {place}: game {game} is not one of this run's games: {REFUSED}")]
    NotScheduled {
        /// The file and line.
        place: String,
        /// The game's number.
        game: usize,
    },
    /// A game number met twice.
    #[error("--resume: game {game} is in {first} and again in {again}")]
    Duplicate {
        /// The game's number.
        game: usize,
        /// Where it was first.
        first: String,
        /// Where it was again.
        again: String,
    },
}

/// Why `comb tournament merge` refuses its files, or fails.
#[derive(Debug, Error)]
pub enum MergeError {
    /// A file that cannot be read back.
    #[error(transparent)]
    Jsonl(#[from] JsonlError),
    /// A last line cut short: the run writing the file was killed mid-line.
    #[error(
        "{place}: the line is cut short (the run writing it was stopped mid-line): finish that run with --resume first"
    )]
    Cut {
        /// The file and line, `shard-2.jsonl:7`.
        place: String,
    },
    /// No games in any file.
    #[error("no games to merge")]
    NoGames,
    /// A game of another tournament (other settings) than the first file's.
    #[error(
        "{other} is a game of tournament {other_id}, {first} of tournament {id}: only shards of one \
        tournament (the same settings) merge"
    )]
    OtherTournament {
        /// The first game's file and line.
        first: String,
        /// Its tournament id.
        id: String,
        /// The other game's file and line.
        other: String,
        /// Its tournament id.
        other_id: String,
    },
    /// A game number met twice.
    #[error("game {game} is in {first} and again in {again}: is a shard given twice?")]
    Duplicate {
        /// The game's number.
        game: usize,
        /// Where it was first.
        first: String,
        /// Where it was again.
        again: String,
    },
    /// A merged file could not be written.
    #[error("writing {}: {error}", .path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// Standard output could not be written.
    #[error("writing to standard output: {0}")]
    Stdout(io::Error),
}

/// Why a run ended before its schedule or its SPRT verdict (other than Ctrl+C).
#[derive(Debug, Error)]
pub enum RunError {
    /// A game file could not be written.
    #[error("writing {what}: {error}")]
    Write {
        /// The file, in words (`the PGN file`, or a path).
        what: String,
        /// Why.
        error: io::Error,
    },
    /// A game could not be set up (a bad opening that slipped through).
    #[error("game {number}: {reason}")]
    Game {
        /// The game's number.
        number: usize,
        /// Why the referee could not load it.
        reason: LoadError,
    },
    /// Standard output could not be written (its reader went away, say).
    #[error("writing to standard output: {0}")]
    Stdout(io::Error),
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn refusals_quote_the_engine() {
        let refused = |error| SetupError::Refused { index: 2, command: "x".into(), game_type: "Base".into(), error };
        assert_eq!(
            refused(EngineError::Protocol("err no".into())).to_string(),
            "engine 2 (`x`) cannot play Base: it answered `newgame Base` with `err no`"
        );
        assert_eq!(
            refused(EngineError::Timeout(Duration::from_secs(1))).to_string(),
            "engine 2 (`x`) cannot play Base: `newgame Base`: timed out (no reply within 1.0 s)"
        );
        let sprt = SetupError::from(SprtSettingError::Invalid(SprtError::ProbabilitySum(1.5)));
        assert_eq!(sprt.to_string(), "--sprt: alpha + beta (1.5) must be below 1");
    }
}
