//! The engine's options, in the reference's `Name;type;value;default[;extra…]` format.

use super::error::ProtocolError;
use crate::games::GameOptions;
use crate::intellector::Rules;
use crate::nnue::Evaluation;
use crate::search::{level, Level, Searcher, MAX_MULTIPV};

/// How many helper threads search beside the main one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HelperThreads {
    /// One per remaining core.
    Auto,
    /// Exactly this many (`None` is 0).
    Count(usize),
}

/// Every option's current value.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Helper threads for `bestmove`.
    pub max_helper_threads: HelperThreads,
    /// Transposition table size in MiB.
    pub table_megabytes: usize,
    /// Print `move;depth;score;pv…` after every finished iteration of `bestmove`.
    pub report_intermediate: bool,
    /// How new games are set up: the Intellector rule set, and whether the third occurrence of
    /// a Hive position draws (off in Mzinga).
    pub game: GameOptions,
    /// How strongly `bestmove` plays.
    pub difficulty: Level,
    /// Seed of a level's move choice; 0 draws a new one from the clock.
    pub difficulty_seed: u32,
    /// Root moves `bestmove` scores and reports, best first.
    pub multipv: usize,
}

/// Why the command line refuses `--option NAME=VALUE`, where `options set` would answer the
/// option's line unchanged or clamped.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionError {
    /// No option has this name.
    Unknown(ProtocolError),
    /// The option does not take this value.
    Value {
        /// The option, spelled canonically.
        name: &'static str,
        /// Its values, in words (`a whole number from 1 to 64`, `one of Easy, Medium, Hard, Max`).
        expected: String,
    },
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionError::Unknown(e) => f.write_str(e.reply().trim_start_matches("err ")),
            OptionError::Value { name, expected } => write!(f, "{name} takes {expected}"),
        }
    }
}

impl std::error::Error for OptionError {}

/// Default transposition table size in MiB.
pub const DEFAULT_TABLE_MB: usize = 64;
const MAX_TABLE_MB: usize = 8192;
/// Largest `DifficultySeed` (the reference's options are 32-bit signed integers).
const MAX_SEED: u32 = i32::MAX as u32;

impl Default for Options {
    fn default() -> Options {
        Options {
            max_helper_threads: HelperThreads::Auto,
            table_megabytes: DEFAULT_TABLE_MB,
            report_intermediate: false,
            game: GameOptions::default(),
            difficulty: Level::Max,
            difficulty_seed: 0,
            multipv: 1,
        }
    }
}

/// Number of hardware threads.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn bool_text(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

impl Options {
    /// Option names, in the order `options` lists them.
    pub const NAMES: [&'static str; 10] = [
        "Difficulty",
        "DifficultySeed",
        "Evaluation",
        "IntellectorEvaluation",
        "IntellectorRules",
        "MaxHelperThreads",
        "MultiPV",
        "RepetitionDraw",
        "ReportIntermediateBestMoves",
        "TranspositionTableSizeMB",
    ];

    /// Total search threads (main plus helpers).
    pub fn threads(&self) -> usize {
        1 + match self.max_helper_threads {
            HelperThreads::Auto => cores().saturating_sub(1),
            HelperThreads::Count(n) => n,
        }
    }

    /// Gives an engine the options that shape its searches: threads, multi-PV lines, the
    /// difficulty level and its seed (a seed of 0 draws a fresh one). The table size is set
    /// apart, since a size the machine refuses is an error.
    pub fn configure(&self, engine: &mut Searcher) {
        engine.set_threads(self.threads());
        engine.set_multipv(self.multipv);
        let seed = match self.difficulty_seed {
            0 => level::fresh_seed(),
            n => u64::from(n),
        };
        engine.set_level(self.difficulty, seed);
    }

    /// The canonical spelling of an option name (names are matched case-insensitively).
    pub fn canonical_name(name: &str) -> Result<&'static str, ProtocolError> {
        Options::NAMES
            .iter()
            .copied()
            .find(|n| n.eq_ignore_ascii_case(name))
            .ok_or_else(|| ProtocolError::UnknownOption(name.to_string()))
    }

    /// The option's line, e.g. `RepetitionDraw;bool;False;False`.
    pub fn line(&self, name: &str) -> Result<String, ProtocolError> {
        let defaults = Options::default();
        let helpers = |h: HelperThreads| match h {
            HelperThreads::Auto => "Auto".to_string(),
            HelperThreads::Count(0) => "None".to_string(),
            HelperThreads::Count(n) => n.to_string(),
        };
        let rules = |r: Rules| if r == Rules::Modern { "Modern" } else { "Classic" };
        let evaluation = |name: &str, now: Evaluation, default: Evaluation| {
            let values: Vec<&str> = Evaluation::ALL.iter().map(|e| e.name()).collect();
            format!("{name};enum;{};{};{}", now.name(), default.name(), values.join(";"))
        };
        Ok(match Options::canonical_name(name)? {
            "Difficulty" => {
                let levels: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
                format!(
                    "Difficulty;enum;{};{};{}",
                    self.difficulty.name(),
                    defaults.difficulty.name(),
                    levels.join(";")
                )
            }
            "DifficultySeed" => {
                format!("DifficultySeed;int;{};{};0;{MAX_SEED}", self.difficulty_seed, defaults.difficulty_seed)
            }
            "MultiPV" => format!("MultiPV;int;{};{};1;{MAX_MULTIPV}", self.multipv, defaults.multipv),
            "Evaluation" => evaluation("Evaluation", self.game.hive_evaluation, defaults.game.hive_evaluation),
            "IntellectorEvaluation" => evaluation(
                "IntellectorEvaluation",
                self.game.intellector_evaluation,
                defaults.game.intellector_evaluation,
            ),
            "IntellectorRules" => format!(
                "IntellectorRules;enum;{};{};Modern;Classic",
                rules(self.game.intellector_rules),
                rules(defaults.game.intellector_rules)
            ),
            "MaxHelperThreads" => {
                let mut values = vec!["Auto".to_string(), "None".to_string()];
                values.extend((1..cores()).map(|n| n.to_string()));
                format!(
                    "MaxHelperThreads;enum;{};{};{}",
                    helpers(self.max_helper_threads),
                    helpers(defaults.max_helper_threads),
                    values.join(";")
                )
            }
            "RepetitionDraw" => format!(
                "RepetitionDraw;bool;{};{}",
                bool_text(self.game.repetition_draw),
                bool_text(defaults.game.repetition_draw)
            ),
            "ReportIntermediateBestMoves" => format!(
                "ReportIntermediateBestMoves;bool;{};{}",
                bool_text(self.report_intermediate),
                bool_text(defaults.report_intermediate)
            ),
            _ => format!(
                "TranspositionTableSizeMB;int;{};{};1;{MAX_TABLE_MB}",
                self.table_megabytes, defaults.table_megabytes
            ),
        })
    }

    /// Sets an option to exactly `value`, or refuses it: what the command line's `--option`
    /// does, since a value ignored or clamped there would go unnoticed. The values are those
    /// of the option's line (an `int` within its range, an `enum`'s values in any case, `True`
    /// or `False` in any case).
    pub fn set_exact(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let name = Options::canonical_name(name).map_err(OptionError::Unknown)?;
        let line = self.line(name).map_err(OptionError::Unknown)?;
        // `Name;type;value;default[;extra…]`: an int's range or an enum's values.
        let fields: Vec<&str> = line.split(';').collect();
        let (kind, extra) = (fields.get(1).copied().unwrap_or_default(), fields.get(4..).unwrap_or_default());
        let value = value.trim();
        let (takes, expected) = match kind {
            "int" => {
                let bound = |i: usize| extra.get(i).and_then(|b| b.parse::<i64>().ok()).unwrap_or_default();
                let (low, high) = (bound(0), bound(1));
                let n = super::error::parse_int(value).map(i64::from);
                (n.is_ok_and(|n| (low..=high).contains(&n)), format!("a whole number from {low} to {high}"))
            }
            "enum" => (extra.iter().any(|v| v.eq_ignore_ascii_case(value)), format!("one of {}", extra.join(", "))),
            _ => (value.eq_ignore_ascii_case("true") || value.eq_ignore_ascii_case("false"), "True or False".into()),
        };
        // An enum's value in its own spelling, which every setter reads (`IntellectorRules`
        // reads no other).
        let value =
            if kind == "enum" { extra.iter().find(|v| v.eq_ignore_ascii_case(value)).unwrap_or(&value) } else { value };
        let mut changed = self.clone();
        changed.set(name, value).map_err(OptionError::Unknown)?;
        let now = changed.line(name).map_err(OptionError::Unknown)?;
        let taken = kind == "int" || now.split(';').nth(2).is_some_and(|v| v.eq_ignore_ascii_case(value));
        if !(takes && taken) {
            return Err(OptionError::Value { name, expected });
        }
        *self = changed;
        Ok(())
    }

    /// Sets an option. As in the reference engine, a value that does not parse leaves the option
    /// unchanged (the caller prints the line either way) and integers are clamped to their range.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ProtocolError> {
        let parse_bool = |v: &str| match v.to_ascii_lowercase().as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        };
        match Options::canonical_name(name)? {
            "Difficulty" => self.difficulty = Level::parse(value).unwrap_or(self.difficulty),
            "Evaluation" => self.game.hive_evaluation = Evaluation::parse(value).unwrap_or(self.game.hive_evaluation),
            "IntellectorEvaluation" => {
                self.game.intellector_evaluation = Evaluation::parse(value).unwrap_or(self.game.intellector_evaluation)
            }
            "DifficultySeed" => {
                if let Ok(n) = super::error::parse_int(value) {
                    self.difficulty_seed = n.max(0) as u32;
                }
            }
            "MultiPV" => {
                if let Ok(n) = super::error::parse_int(value) {
                    self.multipv = (n.max(1) as usize).min(MAX_MULTIPV);
                }
            }
            "IntellectorRules" => match value {
                "Modern" => self.game.intellector_rules = Rules::Modern,
                "Classic" => self.game.intellector_rules = Rules::Classic,
                _ => {}
            },
            "MaxHelperThreads" => {
                let max = cores().saturating_sub(1);
                match value {
                    "Auto" => self.max_helper_threads = HelperThreads::Auto,
                    "None" => self.max_helper_threads = HelperThreads::Count(0),
                    v => {
                        if let Ok(n) = super::error::parse_int(v) {
                            self.max_helper_threads = HelperThreads::Count((n.max(0) as usize).min(max));
                        }
                    }
                }
            }
            "RepetitionDraw" => self.game.repetition_draw = parse_bool(value).unwrap_or(self.game.repetition_draw),
            "ReportIntermediateBestMoves" => {
                self.report_intermediate = parse_bool(value).unwrap_or(self.report_intermediate)
            }
            _ => {
                if let Ok(n) = super::error::parse_int(value) {
                    self.table_megabytes = (n.max(1) as usize).min(MAX_TABLE_MB);
                }
            }
        }
        Ok(())
    }
}
