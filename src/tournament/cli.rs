//! The `comb tournament` command line, and the run: check the set-up, start every engine once,
//! play the schedule, print and write as games finish, stop on an SPRT verdict, on Ctrl+C or when
//! standard output is closed.

use super::engine::{Engine, EngineConfig, EngineError, Limit, Sync, TimeCommand, Timeouts};
use super::openings::{self, Order, Picker};
use super::referee::{load_game, PlayError, Rules, DEFAULT_GAME_TYPE};
use super::report::{self, Standings};
use super::schedule::{self, Mode};
use super::stats::{Sprt, Verdict};
use super::stdout;
use super::{jsonl, pgn, GameRecord};
use clap::Args;
use std::fs::File;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Options of `comb tournament`.
#[derive(Args, Debug, Clone)]
pub struct TournamentArgs {
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

    /// Everyone against everyone, or the first engine against each of the others.
    #[arg(long, value_enum, default_value_t = Mode::RoundRobin)]
    pub mode: Mode,

    /// Rounds: each pairing plays one opening per round, twice, with colours swapped.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub rounds: usize,

    /// Opening book: one GameString per line, `#` comments (e.g. positions/openings-base-mlp.txt).
    /// Without it every game starts from the empty board.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,

    /// The order openings are used in.
    #[arg(long, value_enum, default_value_t = Order::Sequential)]
    pub order: Order,

    /// Seed for the random opening order [default: from the clock, printed at the start].
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Games played at once, 1 to 256 [default: half the hardware threads, at least 1].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub concurrency: Option<u16>,

    /// Adjudicate a draw after this many plies, opening included; 0 = never [default: 300 for Hive].
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

    /// Write every game to this PGN file (Mzinga's Hive PGN; created or truncated).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,

    /// Also write every game as its own PGN file `game-NNNN.pgn` in this directory (MzingaViewer
    /// opens one game per file).
    #[arg(long = "pgn-dir", value_name = "DIR")]
    pub pgn_dir: Option<PathBuf>,

    /// Write one JSON object per game to this file (JSON Lines; created or truncated).
    #[arg(long, value_name = "FILE")]
    pub jsonl: Option<PathBuf>,

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
    #[arg(long, default_value = "comb tournament")]
    pub event: String,

    /// The PGN Site tag.
    #[arg(long, default_value = "")]
    pub site: String,
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

/// Splits a command line into words: whitespace separates, '…' and "…" group.
pub fn split_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unbalanced quote in `{text}`"));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

fn parse_seconds(key: &str, value: &str) -> Result<Duration, String> {
    match value.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s < 1e9 => Ok(Duration::from_millis(((s * 1000.0).round() as u64).max(1))),
        _ => Err(format!("{key}={value}: expected a positive number of seconds")),
    }
}

/// Builds an engine from `--each` settings and its own (which win). `index` counts from 1.
pub fn engine_config(index: usize, each: &[String], own: &[String]) -> Result<EngineConfig, String> {
    let context = |e: String| format!("engine {index}: {e}");
    let (mut name, mut command, mut args, mut dir, mut sync) = (None, None, Vec::new(), None, Sync::NewGame);
    let mut time_command = TimeCommand::Time;
    let mut options: Vec<(String, String)> = Vec::new();
    let mut limit = None;
    for list in [each, own] {
        let mut list_limit: Option<Limit> = None;
        for token in list {
            let Some((key, value)) = token.split_once('=') else {
                return Err(context(format!("`{token}`: expected KEY=VALUE")));
            };
            let key = key.trim();
            let set_limit = |l: Limit, slot: &mut Option<Limit>| match slot {
                Some(_) => Err(format!("`{token}`: give either depth= or movetime=, once")),
                None => {
                    *slot = Some(l);
                    Ok(())
                }
            };
            match key {
                "name" => name = Some(value.trim().to_string()),
                "cmd" => command = Some(split_words(value).map_err(context)?),
                "args" => args = split_words(value).map_err(context)?,
                "dir" => dir = Some(PathBuf::from(value)),
                "sync" => {
                    sync = match value.trim() {
                        "newgame" => Sync::NewGame,
                        "play" => Sync::Play,
                        _ => return Err(context(format!("`{token}`: expected sync=newgame or sync=play"))),
                    }
                }
                "timecmd" => {
                    time_command = match value.trim() {
                        "time" => TimeCommand::Time,
                        "seconds" => TimeCommand::Seconds,
                        _ => return Err(context(format!("`{token}`: expected timecmd=time or timecmd=seconds"))),
                    }
                }
                "depth" | "plies" => {
                    let d = value.trim().parse::<u32>().map_err(|_| context(format!("`{token}`: expected a depth")))?;
                    set_limit(Limit::Depth(d), &mut list_limit).map_err(context)?;
                }
                "movetime" | "st" => {
                    let t = parse_seconds(key, value).map_err(context)?;
                    set_limit(Limit::MoveTime(t), &mut list_limit).map_err(context)?;
                }
                _ => {
                    let Some(option) = key.strip_prefix("option.").filter(|o| !o.is_empty()) else {
                        return Err(context(format!(
                            "unknown setting `{key}` (cmd, name, args, dir, option.NAME, depth, movetime, sync, timecmd)"
                        )));
                    };
                    if value.contains(['\n', '\r']) || option.contains(char::is_whitespace) {
                        return Err(context(format!("`{token}`: option names and values are single words")));
                    }
                    options.retain(|(n, _)| !n.eq_ignore_ascii_case(option));
                    options.push((option.to_string(), value.trim().to_string()));
                }
            }
        }
        limit = list_limit.or(limit);
    }
    let mut words = command.ok_or_else(|| context("no cmd=COMMAND".to_string()))?;
    if words.is_empty() {
        return Err(context("cmd= is empty".to_string()));
    }
    let program = words.remove(0);
    words.extend(args);
    let limit =
        limit.ok_or_else(|| context("no limit: add depth=N or movetime=SECONDS (or give it with --each)".into()))?;
    let name = name.unwrap_or_default();
    if name.contains(['\n', '\r', '"']) {
        return Err(context(format!("name `{name}` may not contain quotes or line breaks")));
    }
    Ok(EngineConfig { name, program, args: words, dir, options, limit, sync, time_command })
}

/// The SPRT from `--sprt` settings.
pub fn sprt_from(settings: &[String]) -> Result<Sprt, String> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    for token in settings {
        let (key, value) = token.split_once('=').ok_or_else(|| format!("--sprt `{token}`: expected KEY=VALUE"))?;
        let v: f64 = value.trim().parse().map_err(|_| format!("--sprt `{token}`: expected a number"))?;
        match key.trim() {
            "elo0" => elo0 = Some(v),
            "elo1" => elo1 = Some(v),
            "alpha" => alpha = v,
            "beta" => beta = v,
            k => return Err(format!("--sprt: unknown setting `{k}` (elo0, elo1, alpha, beta)")),
        }
    }
    let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
        return Err("--sprt needs elo0=… and elo1=…".to_string());
    };
    Sprt::new(elo0, elo1, alpha, beta).map_err(|e| format!("--sprt: {e}"))
}

/// Everything checked and ready before the first game.
struct Setup {
    engines: Vec<Arc<EngineConfig>>,
    ids: Vec<String>,
    game_type: String,
    openings: Option<Picker>,
    opening_count: usize,
    seed: u64,
    rules: Rules,
    concurrency: usize,
    sprt: Option<Sprt>,
}

fn seconds_arg(name: &str, value: f64) -> Result<Duration, String> {
    if value.is_finite() && value > 0.0 && value < 1e9 {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(format!("--{name} {value}: expected a positive number of seconds"))
    }
}

/// Why a tournament cannot start.
#[derive(Debug, Clone, PartialEq)]
enum SetupError {
    /// A bad argument, engine setting or opening book, in words.
    Invalid(String),
    /// Engine `index` (from 1), started as `command`, could not be started or set up.
    Engine {
        /// The engine's place on the command line, from 1.
        index: usize,
        /// Its command line.
        command: String,
        /// What went wrong.
        error: EngineError,
    },
    /// Engine `index` refused `newgame <game_type>`: it cannot play the tournament's game.
    GameType {
        /// The engine's place on the command line, from 1.
        index: usize,
        /// Its command line.
        command: String,
        /// The tournament's game type.
        game_type: String,
        /// The refusal (`err …`), or how the exchange failed.
        error: EngineError,
    },
}

impl From<String> for SetupError {
    fn from(message: String) -> SetupError {
        SetupError::Invalid(message)
    }
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::Invalid(message) => f.write_str(message),
            SetupError::Engine { index, command, error } => write!(f, "engine {index} (`{command}`): {error}"),
            SetupError::GameType { index, command, game_type, error: EngineError::Protocol(reply) } => {
                write!(f, "engine {index} (`{command}`) cannot play {game_type}: it answered `newgame {game_type}` with `{reply}`")
            }
            SetupError::GameType { index, command, game_type, error } => {
                write!(f, "engine {index} (`{command}`) cannot play {game_type}: `newgame {game_type}`: {error}")
            }
        }
    }
}

impl std::error::Error for SetupError {}

fn prepare(args: &TournamentArgs, stop: &Arc<AtomicBool>) -> Result<Setup, SetupError> {
    if args.engines.0.len() < 2 {
        return Err(SetupError::Invalid("a tournament needs at least two engines (one --engine each)".into()));
    }
    if args.rounds == 0 {
        return Err(SetupError::Invalid("--rounds must be at least 1".into()));
    }
    let timeouts = Timeouts {
        command: seconds_arg("command-timeout", args.command_timeout)?,
        margin: Duration::from_secs_f64(if args.timeout_margin.is_finite() && args.timeout_margin >= 0.0 {
            args.timeout_margin.min(1e9)
        } else {
            return Err(SetupError::Invalid(format!(
                "--timeout-margin {}: expected seconds, 0 or more",
                args.timeout_margin
            )));
        }),
        depth: seconds_arg("depth-timeout", args.depth_timeout)?,
    };
    let mut configs = args
        .engines
        .0
        .iter()
        .enumerate()
        .map(|(i, own)| engine_config(i + 1, &args.each, own))
        .collect::<Result<Vec<_>, _>>()?;
    let sprt = args.sprt.as_deref().map(sprt_from).transpose()?;
    if sprt.is_some() && configs.len() != 2 {
        return Err(SetupError::Invalid("--sprt tests one engine against another: give exactly two engines".into()));
    }
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64 ^ d.as_secs().rotate_left(32))
    });
    let (openings, game_type, opening_count) = match &args.openings {
        Some(path) => {
            let (list, game_type) = openings::load(path, args.game_type.as_deref())?;
            let count = list.len();
            (Some(Picker::new(list, args.order, seed)), game_type, count)
        }
        None => (None, args.game_type.clone().unwrap_or_else(|| DEFAULT_GAME_TYPE.to_string()), 0),
    };
    let empty = load_game(&game_type, None)?;
    let rules = Rules {
        max_plies: args.max_plies.unwrap_or_else(|| empty.default_max_plies()),
        repetitions: args.repetitions,
        timeouts,
    };
    // Start every engine once: a wrong command or option is reported now, not as lost games,
    // and the `id` lines name engines that were given no name.
    let mut ids = Vec::new();
    for (i, config) in configs.iter_mut().enumerate() {
        let (index, command) = (i + 1, config.command_line());
        let mut engine = Engine::start(Arc::new(config.clone()), &rules.timeouts, Arc::clone(stop))
            .map_err(|error| SetupError::Engine { index, command: command.clone(), error })?;
        let id = engine.id().unwrap_or_default().to_string();
        // An engine that refuses the game type would lose every game at ply 0 as a protocol
        // error; asking once now turns that into one clear message.
        engine.command(&format!("newgame {game_type}"), rules.timeouts.command).map_err(|error| {
            SetupError::GameType { index, command: command.clone(), game_type: game_type.clone(), error }
        })?;
        if let Some(missing) = missing_expansions(&game_type, engine.capabilities()) {
            // Only a warning: the engine accepted the game type, so it may support more than it
            // declares. If it does not, it loses its games by protocol error, which the
            // transcripts then show.
            eprintln!(
                "warning: engine {} (`{}`) does not declare {missing} (capabilities: {}), which {game_type} needs",
                i + 1,
                config.command_line(),
                engine.capabilities().unwrap_or("none")
            );
        }
        engine.quit();
        if config.name.is_empty() {
            config.name = id.split_whitespace().next().map(str::to_string).unwrap_or_else(|| {
                std::path::Path::new(&config.program)
                    .file_stem()
                    .map_or("engine".into(), |s| s.to_string_lossy().into())
            });
        }
        ids.push(id);
    }
    // Names identify engines in every output: make them unique.
    for i in 1..configs.len() {
        if configs[..i].iter().any(|c| c.name == configs[i].name) {
            let base = configs[i].name.clone();
            let mut n = 2;
            while configs.iter().any(|c| c.name == format!("{base}-{n}")) {
                n += 1;
            }
            configs[i].name = format!("{base}-{n}");
        }
    }
    let concurrency = args.concurrency.map_or_else(schedule::default_concurrency, usize::from);
    Ok(Setup {
        engines: configs.into_iter().map(Arc::new).collect(),
        ids,
        game_type,
        openings,
        opening_count,
        seed,
        rules,
        concurrency,
        sprt,
    })
}

/// The Hive expansions `game_type` needs that a `capabilities` line does not declare, e.g.
/// `Mosquito, Pillbug` (`None` when nothing is missing or the game is not Hive).
fn missing_expansions(game_type: &str, capabilities: Option<&str>) -> Option<String> {
    let letters = game_type.strip_prefix("Base+")?;
    let declared: Vec<String> =
        capabilities.unwrap_or_default().split(';').map(|c| c.trim().to_ascii_lowercase()).collect();
    let missing: Vec<&str> = [('M', "Mosquito"), ('L', "Ladybug"), ('P', "Pillbug")]
        .iter()
        .filter(|(letter, name)| letters.contains(*letter) && !declared.contains(&name.to_ascii_lowercase()))
        .map(|&(_, name)| name)
        .collect();
    (!missing.is_empty()).then(|| missing.join(", "))
}

/// The output files of a run.
struct Files {
    pgn: Option<File>,
    pgn_dir: Option<PathBuf>,
    jsonl: Option<File>,
    transcripts: Option<PathBuf>,
}

fn create(path: &PathBuf) -> Result<File, String> {
    File::create(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn create_dir(path: &PathBuf) -> Result<PathBuf, String> {
    std::fs::create_dir_all(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path.clone())
}

impl Files {
    fn open(args: &TournamentArgs) -> Result<Files, String> {
        Ok(Files {
            pgn: args.pgn.as_ref().map(create).transpose()?,
            pgn_dir: args.pgn_dir.as_ref().map(create_dir).transpose()?,
            jsonl: args.jsonl.as_ref().map(create).transpose()?,
            transcripts: args.transcripts.as_ref().map(create_dir).transpose()?,
        })
    }

    fn write(&mut self, record: &GameRecord, args: &TournamentArgs) -> Result<(), String> {
        let fail = |what: &str, e: std::io::Error| format!("writing {what}: {e}");
        let pgn_text = pgn::format_game(record, &args.event, &args.site);
        if let Some(f) = &mut self.pgn {
            f.write_all(pgn_text.as_bytes()).and_then(|()| f.flush()).map_err(|e| fail("the PGN file", e))?;
        }
        if let Some(dir) = &self.pgn_dir {
            let path = dir.join(format!("game-{:04}.pgn", record.number));
            std::fs::write(&path, &pgn_text).map_err(|e| fail(&path.display().to_string(), e))?;
        }
        if let Some(f) = &mut self.jsonl {
            writeln!(f, "{}", jsonl::format_game(record))
                .and_then(|()| f.flush())
                .map_err(|e| fail("the JSONL file", e))?;
        }
        if let (Some(dir), Some(text)) = (&self.transcripts, &record.played.transcript) {
            let path = dir.join(format!("game-{:04}.log", record.number));
            let header = format!(
                "# game {} ({} vs {}): {}\n",
                record.number, record.white_name, record.black_name, record.played.termination.detail
            );
            std::fs::write(&path, header + text).map_err(|e| fail(&path.display().to_string(), e))?;
        }
        Ok(())
    }
}

/// Runs `comb tournament`. Exit status: 0 when the schedule or the SPRT finished, 1 when the run
/// failed part-way (an output file could not be written), 2 for a bad set-up (an unwritable
/// output file included), 130 after Ctrl+C, 141 when the reader of standard output went away
/// (the run stops quietly, see [`stdout`]).
pub fn run(args: TournamentArgs) -> ExitCode {
    ExitCode::from(run_status(args))
}

/// [`run`], with the exit status as a number (for a caller that ends the process itself).
pub fn run_status(args: TournamentArgs) -> u8 {
    let stop = Arc::new(AtomicBool::new(false));
    let setup = match prepare(&args, &stop) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let mut files = match Files::open(&args) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let (stop, interrupted) = (Arc::clone(&stop), Arc::clone(&interrupted));
        // The first Ctrl+C ends the run after abandoning the running games (the results so far
        // are printed); a second one quits at once.
        let _ = ctrlc::set_handler(move || {
            if interrupted.swap(true, SeqCst) {
                std::process::exit(130);
            }
            eprintln!("Interrupted: stopping (press Ctrl+C again to quit at once)");
            stop.store(true, SeqCst);
        });
    }
    match play(&args, setup, &mut files, &stop) {
        Ok(()) if interrupted.load(SeqCst) => 130,
        Ok(()) => 0,
        Err(RunError::Fatal(e)) => {
            eprintln!("error: {e}");
            1
        }
        Err(RunError::Stdout(e)) => stdout::exit_status(&e),
    }
}

/// Why a run ended before its schedule or its SPRT verdict (other than Ctrl+C).
#[derive(Debug)]
enum RunError {
    /// A game file could not be written, or a game could not be set up (the message).
    Fatal(String),
    /// Standard output could not be written (its reader went away, say).
    Stdout(io::Error),
}

/// The lines printed before the first game: the tournament, the engines, openings,
/// adjudication and the SPRT.
fn header(args: &TournamentArgs, setup: &Setup, total: usize) -> String {
    let Setup { engines, ids, game_type, opening_count, seed, rules, concurrency, sprt, .. } = setup;
    let mode = match args.mode {
        Mode::RoundRobin => "round-robin",
        Mode::Gauntlet => "gauntlet",
    };
    let mut out = format!(
        "Tournament: {game_type}, {mode}, {} engines, {} round{}, {total} games, concurrency {concurrency}\n",
        engines.len(),
        args.rounds,
        if args.rounds == 1 { "" } else { "s" }
    );
    for (i, (e, id)) in engines.iter().zip(ids).enumerate() {
        let options: Vec<String> = e.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        out.push_str(&format!(
            "Engine {}: {} = `{}` (id {}), {}{}{}{}\n",
            i + 1,
            e.name,
            e.command_line(),
            if id.is_empty() { "none" } else { id },
            e.limit.describe(),
            if e.sync == Sync::Play { ", sync=play" } else { "" },
            if e.time_command == TimeCommand::Seconds { ", timecmd=seconds" } else { "" },
            if options.is_empty() { String::new() } else { format!(", options {}", options.join(" ")) }
        ));
    }
    match &args.openings {
        Some(path) => {
            let order = match args.order {
                Order::Sequential => "sequential".to_string(),
                Order::Random => format!("random, seed {seed}"),
            };
            out.push_str(&format!(
                "Openings: {} ({opening_count}, {order}), each played twice with colours swapped\n",
                path.display()
            ));
        }
        None => out.push_str("Openings: none (every game from the empty board, colours swapped in pairs)\n"),
    }
    let repetition = match rules.repetitions {
        0 => "no repetition rule".to_string(),
        n => format!("draw at {n} repetitions"),
    };
    let length = match rules.max_plies {
        0 => "no ply limit".to_string(),
        n => format!("draw at {n} plies"),
    };
    out.push_str(&format!("Adjudication: {length}, {repetition}\n"));
    if let Some(s) = sprt {
        out.push_str(&report::sprt_settings_line(s));
        out.push('\n');
    }
    out
}

/// Prints the set-up, plays the schedule while printing each game, and prints the results.
fn play(args: &TournamentArgs, mut setup: Setup, files: &mut Files, stop: &Arc<AtomicBool>) -> Result<(), RunError> {
    let names: Vec<String> = setup.engines.iter().map(|e| e.name.clone()).collect();
    let pairings = schedule::pairings(setup.engines.len(), args.mode);
    let games = schedule::schedule(&pairings, args.rounds, setup.openings.as_mut());
    let total = games.len();
    stdout::block(&header(args, &setup, total)).map_err(RunError::Stdout)?;
    let Setup { engines, game_type, rules, concurrency, sprt, .. } = setup;

    let started = Instant::now();
    let mut standings = Standings::new(names, &pairings);
    let mut failure: Option<RunError> = None;
    let mut verdict = Verdict::Continue;
    let limits: Vec<String> = engines.iter().map(|e| e.limit.describe()).collect();
    let stopping = Arc::clone(stop);
    schedule::run(games, &engines, &game_type, &rules, concurrency, stop, |(spec, result)| {
        // Once stopping (SPRT verdict, Ctrl+C, an error), games that still finish are left out,
        // so the results are those at the moment of the decision.
        if stopping.load(SeqCst) {
            return false;
        }
        let played = match result {
            Ok(played) => played,
            Err(PlayError::Aborted) => return true,
            Err(PlayError::Setup(e)) => {
                failure = Some(RunError::Fatal(format!("game {}: {e}", spec.number)));
                return false;
            }
        };
        let record = GameRecord {
            number: spec.number,
            round: spec.round,
            pair: spec.pair,
            white: spec.white,
            black: spec.black,
            white_name: engines[spec.white].name.clone(),
            black_name: engines[spec.black].name.clone(),
            white_limit: limits[spec.white].clone(),
            black_limit: limits[spec.black].clone(),
            game_type: game_type.clone(),
            opening: spec.opening.as_deref().map(str::to_string),
            played,
        };
        if let Err(e) = files.write(&record, args) {
            failure = Some(RunError::Fatal(e));
            return false;
        }
        standings.add(&record);
        // What this game adds to the output, printed in one write.
        let mut text = format!(
            "{}\n{}\n",
            report::finished_line(&record),
            report::progress_line(standings.games(), total, started.elapsed())
        );
        let done = standings.games();
        if args.rating_interval > 0 && done.is_multiple_of(args.rating_interval) && done < total {
            text.push_str(&standings.block(sprt.as_ref()));
        }
        let mut go_on = true;
        if let (Some(s), Verdict::Continue) = (&sprt, verdict) {
            let llr = s.llr_pentanomial(&standings.pairings()[0].ptnml);
            verdict = s.verdict(llr);
            if verdict != Verdict::Continue {
                text.push_str(&report::sprt_decision_line(verdict, done, llr));
                text.push('\n');
                go_on = false;
            }
        }
        if let Err(e) = stdout::block(&text) {
            // Nobody reads the results any more: stop playing for them.
            failure = Some(RunError::Stdout(e));
            return false;
        }
        go_on
    });
    let elapsed = started.elapsed();
    if let Some(error @ RunError::Stdout(_)) = failure {
        return Err(error);
    }

    let mut text = format!(
        "\nResults of {} after {} of {total} games:\n{}{}\n",
        standings_title(&engines),
        standings.games(),
        standings.block(sprt.as_ref()),
        standings.reasons_line()
    );
    if sprt.is_some() {
        text.push_str(&report::sprt_final_line(verdict));
        text.push('\n');
    }
    text.push_str(&report::played_line(standings.games(), elapsed));
    text.push('\n');
    stdout::block(&text).map_err(RunError::Stdout)?;
    failure.map_or(Ok(()), Err)
}

fn standings_title(engines: &[Arc<EngineConfig>]) -> String {
    let names: Vec<&str> = engines.iter().map(|e| e.name.as_str()).collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn words_split_with_quotes() {
        assert_eq!(split_words("comb --option 'A=b c'  x").unwrap(), ["comb", "--option", "A=b c", "x"]);
        assert_eq!(split_words("\"/opt/my engine\" \"\"").unwrap(), ["/opt/my engine", ""]);
        assert!(split_words("a 'b").is_err());
    }

    #[test]
    fn engine_settings_merge_with_each() {
        let each = tokens(&["depth=2", "option.MaxHelperThreads=None", "option.TranspositionTableSizeMB=8"]);
        let own =
            tokens(&["name=A", "cmd=comb --option X=1", "args=--quiet", "option.maxhelperthreads=0", "movetime=0.5"]);
        let c = engine_config(1, &each, &own).unwrap();
        assert_eq!(c.name, "A");
        assert_eq!(c.program, "comb");
        assert_eq!(c.args, ["--option", "X=1", "--quiet"]);
        assert_eq!(
            c.options,
            [
                ("TranspositionTableSizeMB".to_string(), "8".to_string()),
                ("maxhelperthreads".to_string(), "0".to_string())
            ]
        );
        assert_eq!(c.limit, Limit::MoveTime(Duration::from_millis(500)));
        assert_eq!(c.sync, Sync::NewGame);
        let c = engine_config(2, &each, &tokens(&["cmd=x", "sync=play"])).unwrap();
        assert_eq!((c.limit, c.sync), (Limit::Depth(2), Sync::Play));
    }

    #[test]
    fn bad_engine_settings_are_explained() {
        let err = |own: &[&str]| engine_config(3, &[], &tokens(own)).unwrap_err();
        assert!(err(&["name=A", "depth=1"]).contains("engine 3: no cmd"));
        assert!(err(&["cmd=x"]).contains("no limit"));
        assert!(err(&["cmd=x", "depth=1", "movetime=1"]).contains("either depth= or movetime="));
        assert!(err(&["cmd=x", "depth=deep"]).contains("expected a depth"));
        assert!(err(&["cmd=x", "movetime=-1"]).contains("positive number"));
        assert!(err(&["cmd=x", "depth=1", "colour=red"]).contains("unknown setting `colour`"));
        assert!(err(&["cmd=x", "depth=1", "option.=1"]).contains("unknown setting"));
        assert!(err(&["cmd=x", "depth=1", "justaword"]).contains("expected KEY=VALUE"));
        assert!(err(&["cmd=", "depth=1"]).contains("empty"));
        assert!(err(&["cmd=x", "depth=1", "sync=sometimes"]).contains("sync=newgame or sync=play"));
    }

    #[test]
    fn expansions_are_checked_against_capabilities() {
        assert_eq!(missing_expansions("Base", None), None);
        assert_eq!(missing_expansions("Base+MLP", Some("Mosquito;Ladybug;Pillbug")), None);
        assert_eq!(missing_expansions("Base+MP", Some("mosquito")), Some("Pillbug".into()));
        assert_eq!(missing_expansions("Base+ML", None), Some("Mosquito, Ladybug".into()));
        assert_eq!(missing_expansions("Intellector", None), None);
    }

    #[test]
    fn sprt_settings() {
        let s = sprt_from(&tokens(&["elo0=0", "elo1=5"])).unwrap();
        assert_eq!((s.alpha, s.beta), (0.05, 0.05));
        let s = sprt_from(&tokens(&["elo0=-5", "elo1=0", "alpha=0.1", "beta=0.2"])).unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-5.0, 0.0, 0.1, 0.2));
        assert!(sprt_from(&tokens(&["elo0=0"])).is_err());
        assert!(sprt_from(&tokens(&["elo0=5", "elo1=0"])).is_err());
        assert!(sprt_from(&tokens(&["elo0=0", "elo1=5", "gamma=1"])).is_err());
    }
}
