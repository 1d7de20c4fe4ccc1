//! The `comb tournament` command line: its options as clap reads them, and nothing more. What
//! they mean is worked out and checked in [`super::setup`].

use super::openings::Order;
use super::schedule::Mode;
use crate::games::GameOptions;
use crate::intellector::Rules as IntellectorRules;
use clap::Args;
use std::path::PathBuf;

/// Options of `comb tournament`.
///
/// `comb tournament merge` shares the output options `--pgn`, `--jsonl`, `--event` and
/// `--site`, before or after `merge`; any other option of a run given with it is refused
/// ([`TournamentArgs::merge_args`]), and the command line refuses the global `--option` before
/// either runs. `merge` after an option that
/// takes several values (`--engine …`) is still the subcommand, not one more value.
#[derive(Args, Debug, Clone)]
#[command(subcommand_negates_reqs = true, subcommand_precedence_over_arg = true)]
pub struct TournamentArgs {
    /// What to do instead of playing.
    #[command(subcommand)]
    pub command: Option<TournamentCommand>,

    /// The options given on the command line, for telling the options of a run from `merge`.
    #[command(flatten)]
    pub given: GivenOptions,

    /// The engines, one `--engine` each.
    #[command(flatten)]
    pub engines: EngineSpecs,

    /// Settings for every engine (same keys as --engine; an engine's own settings win).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub each: Vec<String>,

    /// The game type: Base, Base+M, …, Base+MLP, or Intellector [default: the openings' type,
    /// else Base+MLP].
    #[arg(long = "game-type", value_name = "TYPE")]
    pub game_type: Option<String>,

    /// The rules Intellector games are played and checked under: modern (intellector.info's
    /// current rules) or classic. Engines are told nothing: give them the same rules yourself,
    /// e.g. `--each option.IntellectorRules=Classic` for comb.
    #[arg(long = "intellector-rules", value_enum, default_value_t = IntellectorRulesArg::Modern, value_name = "RULES")]
    pub intellector_rules: IntellectorRulesArg,

    /// Everyone against everyone, or the first engine against each of the others.
    #[arg(long, value_enum, default_value_t = Mode::RoundRobin)]
    pub mode: Mode,

    /// Rounds: each pairing plays one opening per round, twice, with colours swapped.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub rounds: usize,

    /// Opening book: one GameString per line, `#` comments (e.g. positions/openings-base-mlp.txt),
    /// or games in Hive PGN (a `.pgn` file, or one whose first line is a tag `[…]`), which need
    /// --opening-plies. Without it every game starts from the empty board.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,

    /// Each opening is the first N plies of a line or game of the book. A line or game with
    /// fewer plies, or that ends within them, is skipped (the count is printed).
    #[arg(
        long = "opening-plies",
        value_name = "N",
        value_parser = clap::value_parser!(u32).range(1..),
        requires = "openings"
    )]
    pub opening_plies: Option<u32>,

    /// The order openings are used in.
    #[arg(long, value_enum, default_value_t = Order::Sequential)]
    pub order: Order,

    /// Seed for the random opening order [default: from the clock, printed at the start].
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Games played at once, 1 to 256 [default: half the hardware threads, at least 1].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub concurrency: Option<u16>,

    /// Play only shard K of N of the schedule: the pairs whose index % N is K - 1, with the game
    /// numbers of the whole run. Without it, a Slurm job array task or a Kubernetes Indexed Job
    /// (with --shard-count) picks its shard.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,

    /// The number of shards of a Kubernetes Indexed Job (its completions); the shard is
    /// JOB_COMPLETION_INDEX + 1.
    #[arg(long = "shard-count", value_name = "N")]
    pub shard_count: Option<usize>,

    /// Adjudicate a draw after this many plies, opening included; 0 = never [default: 300 for
    /// Hive, 600 for Intellector].
    #[arg(long = "max-plies", value_name = "N")]
    pub max_plies: Option<usize>,

    /// Adjudicate a draw when a position (same side to move) occurs this often; 0 = never.
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub repetitions: usize,

    /// Seconds an engine may exceed its move time before it loses on time.
    #[arg(long = "timeout-margin", default_value_t = 1.0, value_name = "SECONDS")]
    pub timeout_margin: f64,

    /// Seconds an engine may take for one move under a depth limit before it loses on time.
    #[arg(long = "depth-timeout", default_value_t = 60.0, value_name = "SECONDS")]
    pub depth_timeout: f64,

    /// Seconds allowed for start-up, `options set` and `newgame`.
    #[arg(long = "command-timeout", default_value_t = 10.0, value_name = "SECONDS")]
    pub command_timeout: f64,

    /// Write every game to this PGN file (Mzinga's Hive PGN; created or truncated). With
    /// `merge`: the merged games, in game order.
    #[arg(long, value_name = "FILE", global = true)]
    pub pgn: Option<PathBuf>,

    /// Also write every game as its own PGN file `game-NNNN.pgn` in this directory (MzingaViewer
    /// opens one game per file).
    #[arg(long = "pgn-dir", value_name = "DIR")]
    pub pgn_dir: Option<PathBuf>,

    /// Write one JSON object per game to this file (JSON Lines; created or truncated). With
    /// `merge`: the merged games, in game order, as the whole run writes them.
    #[arg(long, value_name = "FILE", global = true)]
    pub jsonl: Option<PathBuf>,

    /// Continue an interrupted run from its --jsonl file: the games in it are kept (it must be
    /// this run's: same settings and shard), the others are played and appended, and the
    /// results count them all. A missing or empty file is a fresh start.
    #[arg(long, requires = "jsonl")]
    pub resume: bool,

    /// Write the protocol transcript of every game an engine lost by failing (illegal move,
    /// crash, timeout, protocol error) to `game-NNNN.log` in this directory.
    #[arg(long, value_name = "DIR")]
    pub transcripts: Option<PathBuf>,

    /// Print the standings every N finished games (0: only at the end).
    #[arg(long = "rating-interval", default_value_t = 10, value_name = "N")]
    pub rating_interval: usize,

    /// Run a sequential probability ratio test and stop at its verdict (two engines only):
    /// elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05].
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..=4)]
    pub sprt: Option<Vec<String>>,

    /// The PGN Event tag.
    #[arg(long, default_value = "comb tournament", global = true)]
    pub event: String,

    /// The PGN Site tag.
    #[arg(long, default_value = "", global = true)]
    pub site: String,
}

/// What `comb tournament` does besides playing.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum TournamentCommand {
    /// Merge the JSONL files of a tournament's shards (`--shard K/N`) and print the report the
    /// whole run prints.
    Merge(MergeArgs),
}

/// Options of `comb tournament merge`: the files, and the output options it shares with
/// `comb tournament` (`--pgn`, `--jsonl`, `--event`, `--site`), which clap reads into
/// [`TournamentArgs`] wherever they stand and [`MergeArgs::with_outputs`] copies here.
#[derive(Args, Debug, Clone)]
pub struct MergeArgs {
    /// The shards' JSONL files (`--jsonl` of each shard), in any order.
    #[arg(required = true, value_name = "FILE.jsonl")]
    pub files: Vec<PathBuf>,

    /// Write the merged games to this PGN file, in game order.
    #[arg(skip)]
    pub pgn: Option<PathBuf>,

    /// Write the merged games to this JSONL file, in game order, as the whole run writes them.
    #[arg(skip)]
    pub jsonl: Option<PathBuf>,

    /// The PGN Event tag.
    #[arg(skip)]
    pub event: String,

    /// The PGN Site tag.
    #[arg(skip)]
    pub site: String,
}

/// The options of `comb tournament` that `merge` shares: the output files and their tags, and
/// the global `--option` (whose id is `options`).
const MERGE_OPTIONS: [&str; 5] = ["pgn", "jsonl", "event", "site", "options"];

impl TournamentArgs {
    /// How the referee sets games up: `--intellector-rules`.
    pub fn game_options(&self) -> GameOptions {
        GameOptions { intellector_rules: IntellectorRules::from(self.intellector_rules), ..GameOptions::default() }
    }

    /// With `merge`, its arguments, its output options included wherever they stood; or the
    /// options of a run that were given with it (`--rounds`, `--engine`), named as typed.
    pub fn merge_args(&self) -> Option<Result<MergeArgs, Vec<String>>> {
        let Some(TournamentCommand::Merge(merge)) = &self.command else { return None };
        let stray: Vec<String> = self
            .given
            .0
            .iter()
            .filter(|id| !MERGE_OPTIONS.contains(&id.as_str()))
            .map(|id| format!("--{}", id.replace('_', "-")))
            .collect();
        if !stray.is_empty() {
            return Some(Err(stray));
        }
        Some(Ok(MergeArgs {
            pgn: self.pgn.clone(),
            jsonl: self.jsonl.clone(),
            event: self.event.clone(),
            site: self.site.clone(),
            ..merge.clone()
        }))
    }
}

/// The ids of the options given on the command line (not by default), in clap's order. Read by
/// hand, as [`EngineSpecs`] is: the derive keeps values, not where they came from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GivenOptions(pub Vec<String>);

impl clap::FromArgMatches for GivenOptions {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let given = matches
            .ids()
            .filter(|id| matches.value_source(id.as_str()) == Some(clap::parser::ValueSource::CommandLine))
            .map(|id| id.to_string())
            .collect();
        Ok(GivenOptions(given))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for GivenOptions {
    fn augment_args(command: clap::Command) -> clap::Command {
        command
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        command
    }
}

/// `--intellector-rules`: the Intellector rule set, as the command line names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum IntellectorRulesArg {
    /// intellector.info's current rules.
    Modern,
    /// The older rules (the Liberator only jumps; promotion to own captured types).
    Classic,
}

impl From<IntellectorRulesArg> for IntellectorRules {
    fn from(arg: IntellectorRulesArg) -> IntellectorRules {
        match arg {
            IntellectorRulesArg::Modern => IntellectorRules::Modern,
            IntellectorRulesArg::Classic => IntellectorRules::Classic,
        }
    }
}

/// The settings of every `--engine`, one list per engine.
///
/// clap's derive cannot keep repeated multi-value options apart (`Vec<Vec<String>>` needs an
/// unstable feature), so this argument is built and read by hand.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EngineSpecs(pub Vec<Vec<String>>);

const ENGINE_ARG: &str = "engine";

impl clap::FromArgMatches for EngineSpecs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let groups = matches
            .get_occurrences::<String>(ENGINE_ARG)
            .map(|occurrences| occurrences.map(|values| values.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineSpecs(groups))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for EngineSpecs {
    fn augment_args(command: clap::Command) -> clap::Command {
        command.arg(
            clap::Arg::new(ENGINE_ARG)
                .long(ENGINE_ARG)
                .value_name("KEY=VALUE")
                .num_args(1..)
                .action(clap::ArgAction::Append)
                .required(true)
                .help(
                    "An engine, as KEY=VALUE settings: cmd=COMMAND (required), name=NAME, args=ARGS, \
                     dir=DIRECTORY, option.NAME=VALUE (a UHP option, repeatable), depth=N or \
                     movetime=SECONDS, sync=newgame|play (how it learns the position), timecmd=time|seconds \
                     (`bestmove time hh:mm:ss.fff` or nokamute's `bestmove seconds S`). One \
                     --engine per engine, two or more",
                ),
        )
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}
