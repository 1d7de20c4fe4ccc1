//! Why a tournament cannot start or stops early: one enum per floor, each keeping the facts
//! (the offending token, path, engine) and saying them in words only in its `Display`.
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

use crate::client::EngineError;
use crate::error::RulesError;
use crate::pgn::{PgnError, Place};
use std::fmt;
use std::io;
use std::path::PathBuf;

/// Why SPRT parameters make no sense.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum SprtError {
    /// The hypotheses are not finite, or `elo0` is not below `elo1`.
    EloOrder {
        /// The Elo difference of H0.
        elo0: f64,
        /// The Elo difference of H1.
        elo1: f64,
    },
    /// `alpha` or `beta` does not lie strictly between 0 and 1.
    Probability {
        /// `alpha` or `beta`.
        name: &'static str,
        /// Its value.
        value: f64,
    },
    /// `alpha + beta` is 1 or more.
    ProbabilitySum(f64),
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::EloOrder { elo0, elo1 } => write!(f, "elo0 ({elo0}) must be below elo1 ({elo1})"),
            SprtError::Probability { name, value } => write!(f, "{name} ({value}) must lie strictly between 0 and 1"),
            SprtError::ProbabilitySum(sum) => write!(f, "alpha + beta ({sum}) must be below 1"),
        }
    }
}

impl std::error::Error for SprtError {}

/// Why the referee cannot load a game of the tournament's type.
#[derive(Clone, Debug, PartialEq)]
pub enum LoadError {
    /// A GameString of another type than the tournament's.
    WrongType {
        /// The GameString's type field.
        found: String,
        /// The tournament's game type.
        wanted: String,
    },
    /// A game type the rules do not know.
    UnknownType(String),
    /// The rules refuse the GameString (unreadable, or with an illegal move).
    Rules(RulesError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::WrongType { found, wanted } => {
                write!(f, "the GameString is of type `{found}`, the tournament plays `{wanted}`")
            }
            LoadError::UnknownType(game_type) => write!(
                f,
                "unknown game type `{game_type}` (Base, Base+M, Base+L, Base+P, Base+ML, Base+MP, Base+LP, Base+MLP or Intellector)"
            ),
            LoadError::Rules(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for LoadError {}

/// Why an opening book is refused. `book` names the file in messages.
#[derive(Debug)]
pub enum OpeningsError {
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// The file is not UTF-8 text.
    NotUtf8 {
        /// The file.
        path: PathBuf,
    },
    /// A line the rules refuse: of the wrong game type, unreadable, or with an illegal move.
    Rejected {
        /// The book.
        book: String,
        /// The line number, from 1.
        line: usize,
        /// Why the referee refused it.
        reason: LoadError,
    },
    /// A line whose game is already over.
    Finished {
        /// The book.
        book: String,
        /// The line number, from 1.
        line: usize,
    },
    /// No openings at all (only comments and blank lines).
    Empty {
        /// The book.
        book: String,
    },
    /// A PGN book without a single game.
    NoGames {
        /// The book.
        book: String,
    },
    /// A PGN book that cannot be read, or holds a game the rules refuse.
    Pgn {
        /// The book.
        book: String,
        /// Why, with the game and line.
        error: PgnError,
    },
    /// A PGN game of another type than the book's first, or than `--game-type`.
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
    PgnNeedsPlies {
        /// The book.
        book: String,
    },
    /// Every line or game was skipped by `--opening-plies`.
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

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningsError::Read { path, error } => write!(f, "{}: {error}", path.display()),
            OpeningsError::NotUtf8 { path } => write!(f, "{}: not UTF-8 text", path.display()),
            OpeningsError::Rejected { book, line, reason } => write!(f, "{book}:{line}: {reason}"),
            OpeningsError::Finished { book, line } => write!(f, "{book}:{line}: the game is already over"),
            OpeningsError::Empty { book } => {
                write!(f, "{book}: no openings (one GameString per line; `#` starts a comment)")
            }
            OpeningsError::NoGames { book } => {
                write!(f, "{book}: no games (Hive PGN, as `comb tournament --pgn` writes it)")
            }
            OpeningsError::Pgn { book, error } => write!(f, "{book}: {error}"),
            OpeningsError::PgnGameType { book, at, found, wanted } => {
                write!(f, "{book}: {at}: a game of type `{found}` among openings of type `{wanted}`")
            }
            OpeningsError::PgnNeedsPlies { book } => {
                write!(f, "{book}: a PGN book needs --opening-plies N (each opening is the first N plies of a game)")
            }
            OpeningsError::AllSkipped { book, plies, count, unit } => write!(
                f,
                "{book}: no opening of {plies} plies: all {count} {unit} are shorter or end within {plies} plies"
            ),
        }
    }
}

impl std::error::Error for OpeningsError {}

/// Why one `--engine` or `--each` setting (or their sum) is refused.
#[derive(Clone, Debug, PartialEq)]
pub enum SettingError {
    /// A token without `=`.
    NotKeyValue(String),
    /// A command line (`cmd=`, `args=`) with a quote left open.
    UnbalancedQuote(String),
    /// A second `depth=` or `movetime=` in one list (the token).
    LimitTwice(String),
    /// `depth=` that is not a number of plies (the token).
    BadDepth(String),
    /// `movetime=` that is not a positive number of seconds.
    BadSeconds {
        /// The key as written (`movetime`, `st`).
        key: String,
        /// The value as written.
        value: String,
    },
    /// `sync=` other than `newgame` or `play` (the token).
    BadSync(String),
    /// `timecmd=` other than `time` or `seconds` (the token).
    BadTimeCommand(String),
    /// A key that is no setting.
    UnknownSetting(String),
    /// An `option.NAME=VALUE` whose name or value is not one word (the token).
    NotAWord(String),
    /// No `cmd=` at all.
    NoCommand,
    /// `cmd=` with no words.
    EmptyCommand,
    /// Neither `depth=` nor `movetime=`, here or in `--each`.
    NoLimit,
    /// A name with quotes or line breaks, which the game files cannot hold.
    BadName(String),
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingError::NotKeyValue(token) => write!(f, "`{token}`: expected KEY=VALUE"),
            SettingError::UnbalancedQuote(text) => write!(f, "unbalanced quote in `{text}`"),
            SettingError::LimitTwice(token) => write!(f, "`{token}`: give either depth= or movetime=, once"),
            SettingError::BadDepth(token) => write!(f, "`{token}`: expected a depth"),
            SettingError::BadSeconds { key, value } => {
                write!(f, "{key}={value}: expected a positive number of seconds")
            }
            SettingError::BadSync(token) => write!(f, "`{token}`: expected sync=newgame or sync=play"),
            SettingError::BadTimeCommand(token) => write!(f, "`{token}`: expected timecmd=time or timecmd=seconds"),
            SettingError::UnknownSetting(key) => {
                write!(f, "unknown setting `{key}` (cmd, name, args, dir, option.NAME, depth, movetime, sync, timecmd)")
            }
            SettingError::NotAWord(token) => write!(f, "`{token}`: option names and values are single words"),
            SettingError::NoCommand => f.write_str("no cmd=COMMAND"),
            SettingError::EmptyCommand => f.write_str("cmd= is empty"),
            SettingError::NoLimit => f.write_str("no limit: add depth=N or movetime=SECONDS (or give it with --each)"),
            SettingError::BadName(name) => write!(f, "name `{name}` may not contain quotes or line breaks"),
        }
    }
}

impl std::error::Error for SettingError {}

/// Why the `--sprt` settings are refused.
#[derive(Clone, Debug, PartialEq)]
pub enum SprtSettingError {
    /// A token without `=`.
    NotKeyValue(String),
    /// A value that is not a number (the token).
    NotNumber(String),
    /// A key other than elo0, elo1, alpha, beta.
    Unknown(String),
    /// elo0 or elo1 not given.
    MissingElo,
    /// The test itself makes no sense.
    Invalid(SprtError),
}

impl fmt::Display for SprtSettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtSettingError::NotKeyValue(token) => write!(f, "--sprt `{token}`: expected KEY=VALUE"),
            SprtSettingError::NotNumber(token) => write!(f, "--sprt `{token}`: expected a number"),
            SprtSettingError::Unknown(key) => write!(f, "--sprt: unknown setting `{key}` (elo0, elo1, alpha, beta)"),
            SprtSettingError::MissingElo => f.write_str("--sprt needs elo0=… and elo1=…"),
            SprtSettingError::Invalid(error) => write!(f, "--sprt: {error}"),
        }
    }
}

impl std::error::Error for SprtSettingError {}

/// Why the shard to play (`--shard`, `--shard-count` or the scheduler's variables) is refused.
#[derive(Clone, Debug, PartialEq)]
pub enum ShardError {
    /// `--shard` that is not `K/N`.
    NotKOfN(String),
    /// A shard index outside 1..=count.
    OutOfRange {
        /// The index, from 1.
        index: usize,
        /// The number of shards.
        count: usize,
    },
    /// `--shard` and `--shard-count` together.
    CountWithShard,
    /// `--shard-count` without `JOB_COMPLETION_INDEX` (nor a Slurm array).
    CountWithoutIndex,
    /// A variable (or `--shard-count`) the shard needs and that is not there.
    Missing(&'static str),
    /// A scheduler variable that is not a number.
    BadVariable {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
    },
    /// A Slurm array task that is none of `MIN`, `MIN + STEP`, ….
    OffTheArray {
        /// `SLURM_ARRAY_TASK_ID`.
        id: usize,
        /// `SLURM_ARRAY_TASK_MIN`.
        min: usize,
        /// `SLURM_ARRAY_TASK_STEP`.
        step: usize,
    },
    /// `--shard-count` other than the Slurm array's task count.
    CountDisagrees {
        /// `--shard-count`.
        given: usize,
        /// `SLURM_ARRAY_TASK_COUNT`.
        count: usize,
    },
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardError::NotKOfN(text) => write!(f, "--shard {text}: expected K/N (shard K of N, from 1)"),
            ShardError::OutOfRange { index, count } => {
                write!(f, "shard {index} of {count}: a shard is 1 to N of N shards, N at least 1")
            }
            ShardError::CountWithShard => f.write_str("--shard K/N already gives the count: drop --shard-count"),
            ShardError::CountWithoutIndex => {
                f.write_str("--shard-count needs JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) or --shard K/N")
            }
            ShardError::Missing(name) => write!(f, "sharding needs {name}"),
            ShardError::BadVariable { name, value } => write!(f, "{name}={value}: expected a number"),
            ShardError::OffTheArray { id, min, step } => write!(
                f,
                "SLURM_ARRAY_TASK_ID={id} is not SLURM_ARRAY_TASK_MIN={min} plus a multiple of SLURM_ARRAY_TASK_STEP={step}: \
                 give the array as a range (--array=0-3 or 0-6:2)"
            ),
            ShardError::CountDisagrees { given, count } => {
                write!(f, "--shard-count {given} disagrees with SLURM_ARRAY_TASK_COUNT={count}")
            }
        }
    }
}

impl std::error::Error for ShardError {}

/// Why a tournament cannot start.
#[derive(Debug)]
pub enum SetupError {
    /// Fewer than two `--engine`.
    TooFewEngines,
    /// `--rounds 0`.
    NoRounds,
    /// A timeout option (`command-timeout`, `depth-timeout`) that is not a positive number of
    /// seconds.
    Seconds {
        /// The option's name, without `--`.
        option: &'static str,
        /// Its value.
        value: f64,
    },
    /// A `--timeout-margin` below 0 or not a number.
    Margin(f64),
    /// A bad setting of engine `index` (from 1).
    Setting {
        /// The engine's place on the command line, from 1.
        index: usize,
        /// What is wrong.
        error: SettingError,
    },
    /// Bad `--sprt` settings.
    Sprt(SprtSettingError),
    /// `--sprt` with other than two engines.
    SprtNeedsTwo,
    /// A bad opening book.
    Openings(OpeningsError),
    /// A game type the referee does not know.
    GameType(LoadError),
    /// Engine `index` could not be started or set up.
    Engine {
        /// The engine's place on the command line, from 1.
        index: usize,
        /// Its command line.
        command: String,
        /// What went wrong.
        error: EngineError,
    },
    /// Engine `index` refused `newgame <game_type>`: it cannot play the tournament's game.
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
    Shard(ShardError),
    /// A shard of a random opening order without `--seed`: every shard would draw its own.
    ShardNeedsSeed,
    /// `--resume` refuses the JSONL file.
    Resume(ResumeError),
    /// An output file or directory could not be created.
    Output {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::TooFewEngines => f.write_str("a tournament needs at least two engines (one --engine each)"),
            SetupError::NoRounds => f.write_str("--rounds must be at least 1"),
            SetupError::Seconds { option, value } => {
                write!(f, "--{option} {value}: expected a positive number of seconds")
            }
            SetupError::Margin(value) => write!(f, "--timeout-margin {value}: expected seconds, 0 or more"),
            SetupError::Setting { index, error } => write!(f, "engine {index}: {error}"),
            SetupError::Sprt(error) => error.fmt(f),
            SetupError::SprtNeedsTwo => {
                f.write_str("--sprt tests one engine against another: give exactly two engines")
            }
            SetupError::Openings(error) => error.fmt(f),
            SetupError::GameType(error) => error.fmt(f),
            SetupError::Engine { index, command, error } => write!(f, "engine {index} (`{command}`): {error}"),
            SetupError::Refused { index, command, game_type, error: EngineError::Protocol(reply) } => {
                write!(f, "engine {index} (`{command}`) cannot play {game_type}: it answered `newgame {game_type}` with `{reply}`")
            }
            SetupError::Refused { index, command, game_type, error } => {
                write!(f, "engine {index} (`{command}`) cannot play {game_type}: `newgame {game_type}`: {error}")
            }
            SetupError::Shard(error) => error.fmt(f),
            SetupError::ShardNeedsSeed => {
                f.write_str("--order random in shards needs --seed N: every shard must draw the same opening order")
            }
            SetupError::Resume(error) => error.fmt(f),
            SetupError::Output { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for SetupError {}

impl From<SprtSettingError> for SetupError {
    fn from(error: SprtSettingError) -> SetupError {
        SetupError::Sprt(error)
    }
}

impl From<ShardError> for SetupError {
    fn from(error: ShardError) -> SetupError {
        SetupError::Shard(error)
    }
}

impl From<ResumeError> for SetupError {
    fn from(error: ResumeError) -> SetupError {
        SetupError::Resume(error)
    }
}

impl From<OpeningsError> for SetupError {
    fn from(error: OpeningsError) -> SetupError {
        SetupError::Openings(error)
    }
}

/// Why a tournament's JSONL file cannot be read back into games.
#[derive(Debug)]
pub enum JsonlError {
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// A line that is no game of a tournament's JSONL file.
    Line {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A line without a tournament id: written before the runner wrote one.
    NoTournament {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
    },
}

impl fmt::Display for JsonlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonlError::Read { path, error } => write!(f, "{}: {error}", path.display()),
            JsonlError::Line { path, line, reason } => write!(f, "{}:{line}: {reason}", path.display()),
            JsonlError::NoTournament { path, line } => write!(
                f,
                "{}:{line}: the game has no `tournament` id: the file predates tournament ids, so its games \
                 cannot be told from another tournament's; play the run again to get a file that merges and \
                 resumes",
                path.display()
            ),
        }
    }
}

impl std::error::Error for JsonlError {}

/// Why `--resume` refuses the run's JSONL file. The file is left as it is.
#[derive(Debug)]
pub enum ResumeError {
    /// The file cannot be read back.
    Jsonl(JsonlError),
    /// A game of another tournament (other settings).
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
    OtherShard {
        /// The file and line.
        place: String,
        /// The line's shard (`2/3`, or `none`).
        theirs: String,
        /// This run's shard.
        ours: String,
    },
    /// A game number that this run's schedule (or shard) does not have.
    NotScheduled {
        /// The file and line.
        place: String,
        /// The game's number.
        game: usize,
    },
    /// A game number met twice.
    Duplicate {
        /// The game's number.
        game: usize,
        /// Where it was first.
        first: String,
        /// Where it was again.
        again: String,
    },
}

impl fmt::Display for ResumeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let refused = "--resume continues only the run that wrote the file (the same settings and shard)";
        match self {
            ResumeError::Jsonl(error) => write!(f, "--resume: {error}"),
            ResumeError::OtherTournament { place, id, ours, difference } => {
                write!(f, "--resume: {place} is a game of tournament {id}, this run is tournament {ours}")?;
                if let Some((theirs, mine)) = difference {
                    write!(f, " (the file has `{theirs}`, this run `{mine}`)")?;
                }
                write!(f, ": {refused}")
            }
            ResumeError::OtherShard { place, theirs, ours } => {
                write!(f, "--resume: {place} is a game of shard {theirs}, this run plays shard {ours}: {refused}")
            }
            ResumeError::NotScheduled { place, game } => {
                write!(f, "--resume: {place}: game {game} is not one of this run's games: {refused}")
            }
            ResumeError::Duplicate { game, first, again } => {
                write!(f, "--resume: game {game} is in {first} and again in {again}")
            }
        }
    }
}

impl std::error::Error for ResumeError {}

impl From<JsonlError> for ResumeError {
    fn from(error: JsonlError) -> ResumeError {
        ResumeError::Jsonl(error)
    }
}

/// Why `comb tournament merge` refuses its files, or fails.
#[derive(Debug)]
pub enum MergeError {
    /// A file that cannot be read back.
    Jsonl(JsonlError),
    /// A last line cut short: the run writing the file was killed mid-line.
    Cut {
        /// The file and line, `shard-2.jsonl:7`.
        place: String,
    },
    /// No games in any file.
    NoGames,
    /// A game of another tournament (other settings) than the first file's.
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
    Duplicate {
        /// The game's number.
        game: usize,
        /// Where it was first.
        first: String,
        /// Where it was again.
        again: String,
    },
    /// A merged file could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// Standard output could not be written.
    Stdout(io::Error),
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Jsonl(error) => error.fmt(f),
            MergeError::Cut { place } => write!(
                f,
                "{place}: the line is cut short (the run writing it was stopped mid-line): finish that run \
                 with --resume first"
            ),
            MergeError::NoGames => f.write_str("no games to merge"),
            MergeError::OtherTournament { first, id, other, other_id } => write!(
                f,
                "{other} is a game of tournament {other_id}, {first} of tournament {id}: only shards of one \
                 tournament (the same settings) merge"
            ),
            MergeError::Duplicate { game, first, again } => {
                write!(f, "game {game} is in {first} and again in {again}: is a shard given twice?")
            }
            MergeError::Write { path, error } => write!(f, "writing {}: {error}", path.display()),
            MergeError::Stdout(error) => write!(f, "writing to standard output: {error}"),
        }
    }
}

impl std::error::Error for MergeError {}

impl From<JsonlError> for MergeError {
    fn from(error: JsonlError) -> MergeError {
        MergeError::Jsonl(error)
    }
}

/// Why a run ended before its schedule or its SPRT verdict (other than Ctrl+C).
#[derive(Debug)]
pub enum RunError {
    /// A game file could not be written.
    Write {
        /// The file, in words (`the PGN file`, or a path).
        what: String,
        /// Why.
        error: io::Error,
    },
    /// A game could not be set up (a bad opening that slipped through).
    Game {
        /// The game's number.
        number: usize,
        /// Why the referee could not load it.
        reason: LoadError,
    },
    /// Standard output could not be written (its reader went away, say).
    Stdout(io::Error),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Write { what, error } => write!(f, "writing {what}: {error}"),
            RunError::Game { number, reason } => write!(f, "game {number}: {reason}"),
            RunError::Stdout(error) => write!(f, "writing to standard output: {error}"),
        }
    }
}

impl std::error::Error for RunError {}

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
