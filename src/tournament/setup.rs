//! From the command line to a tournament that is ready to play: the options checked, the
//! engines' settings read, the opening book loaded, the rules fixed, every engine started once,
//! the names made unique and the game files created. Whatever is wrong is a [`SetupError`],
//! before the first game.

use super::args::TournamentArgs;
use super::error::SetupError;
use super::files::GameFiles;
use super::identity::{identify, Decisive, Identity};
use super::openings::{self, Order, Picker, Wanted};
use super::referee::{default_max_plies, load_game, Rules, DEFAULT_GAME_TYPE};
use super::resume::{self, Resumed};
use super::schedule::{self, GameSpec, Mode};
use super::settings::{engine_config, sprt_from};
use super::shard::{self, Placement};
use super::stats::Sprt;
use crate::client::{shown, EngineConfig, EngineProcess, Timeouts};
use crate::hive::{Bug, GameType};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A tournament checked and ready to play.
pub struct Tournament {
    /// The engines, in command-line order, with unique names.
    pub engines: Vec<Arc<EngineConfig>>,
    /// What each engine's `id` line said (empty if nothing).
    pub ids: Vec<String>,
    /// The game type every game is played in.
    pub game_type: String,
    /// How engines are paired.
    pub mode: Mode,
    /// Rounds to play.
    pub rounds: usize,
    /// The opening book, if any (otherwise every game starts from the empty board).
    pub book: Option<Book>,
    /// Adjudication and timeouts.
    pub rules: Rules,
    /// Games played at once.
    pub concurrency: usize,
    /// The SPRT to stop at, for a two-engine match.
    pub sprt: Option<Sprt>,
    /// Standings every this many games (0: only at the end).
    pub rating_interval: usize,
    /// The game files, open.
    pub files: GameFiles,
    /// The pairings (engine indices).
    pub pairings: Vec<(usize, usize)>,
    /// The whole schedule, as a run without a shard plays it.
    pub schedule: Vec<GameSpec>,
    /// The games this run plays: the schedule, or the shard's part of it.
    pub games: Vec<GameSpec>,
    /// The shard this run plays, if any, and where it was read from.
    pub shard: Option<Placement>,
    /// The tournament's settings and id, the same in every shard.
    pub identity: Identity,
    /// With `--resume`, the games already played.
    pub resume: Option<Resumed>,
}

/// An opening book and the order it is played in.
pub struct Book {
    /// The file.
    pub path: PathBuf,
    /// Hands out its openings.
    pub picker: Picker,
    /// How many openings it has.
    pub count: usize,
    /// `--opening-plies`: every opening is the first this many plies of a line or game.
    pub plies: Option<usize>,
    /// Lines or games `--opening-plies` left out (shorter, or over within the plies).
    pub skipped: usize,
    /// The order.
    pub order: Order,
    /// The seed of a random order.
    pub seed: u64,
}

/// Checks `args` and prepares the tournament; `stop` aborts the engines' trial starts.
pub fn prepare(args: &TournamentArgs, stop: &Arc<AtomicBool>) -> Result<Tournament, SetupError> {
    check_counts(args)?;
    let shard = shard(args)?;
    let timeouts = timeouts(args)?;
    let mut engines = engine_configs(args)?;
    let sprt = sprt(args, engines.len())?;
    let (mut book, game_type) = book(args)?;
    let rules = rules(args, &game_type, timeouts)?;
    let ids = try_engines(&mut engines, &game_type, &rules.timeouts, stop)?;
    make_names_unique(&mut engines);
    let pairings = schedule::pairings(engines.len(), args.mode);
    let full = schedule::schedule(&pairings, args.rounds, book.as_mut().map(|b| &mut b.picker));
    let games = shard.as_ref().map_or_else(|| full.clone(), |p| p.shard.select(full.clone()));
    let engines: Vec<Arc<EngineConfig>> = engines.into_iter().map(Arc::new).collect();
    let identity = identify(&Decisive {
        game_type: &game_type,
        mode: args.mode,
        engines: &engines,
        rounds: args.rounds,
        rules: &rules,
        sprt: sprt.as_ref(),
        games: &full,
    });
    let mut t = Tournament {
        engines,
        ids,
        game_type,
        mode: args.mode,
        rounds: args.rounds,
        book,
        rules,
        concurrency: args.concurrency.map_or_else(schedule::default_concurrency, usize::from),
        sprt,
        rating_interval: args.rating_interval,
        files: GameFiles::default(),
        pairings,
        schedule: full,
        games,
        shard,
        identity,
        resume: None,
    };
    let shard = t.shard.as_ref().map(|p| p.shard);
    if let (true, Some(path)) = (args.resume, &args.jsonl) {
        let names: Vec<String> = t.engines.iter().map(|e| e.name.clone()).collect();
        t.resume = Some(resume::load(path, &t.identity, shard, &t.games, &names)?);
    }
    // Created last, so that a bad set-up leaves no file behind (and a refused --resume leaves
    // its file as it was); every JSONL line names the tournament and the shard.
    t.files = GameFiles::create(args, &t.identity, shard, t.resume.as_ref())?;
    Ok(t)
}

/// The shard to play, from `--shard`, `--shard-count` and the scheduler's environment. A random
/// opening order needs an explicit seed: shards started apart would each draw one from the clock.
fn shard(args: &TournamentArgs) -> Result<Option<Placement>, SetupError> {
    let placement = shard::resolve(args.shard.as_deref(), args.shard_count, |name| std::env::var(name).ok())?;
    if placement.is_some() && args.order == Order::Random && args.seed.is_none() {
        return Err(SetupError::ShardNeedsSeed);
    }
    Ok(placement)
}

fn check_counts(args: &TournamentArgs) -> Result<(), SetupError> {
    if args.engines.0.len() < 2 {
        return Err(SetupError::TooFewEngines);
    }
    if args.rounds == 0 {
        return Err(SetupError::NoRounds);
    }
    Ok(())
}

fn timeouts(args: &TournamentArgs) -> Result<Timeouts, SetupError> {
    let command = seconds("command-timeout", args.command_timeout)?;
    let margin = args.timeout_margin;
    if !(margin.is_finite() && margin >= 0.0) {
        return Err(SetupError::Margin(margin));
    }
    let depth = seconds("depth-timeout", args.depth_timeout)?;
    Ok(Timeouts { command, margin: Duration::from_secs_f64(margin.min(1e9)), depth })
}

/// A positive number of seconds (below a billion, which `Duration` holds with room to spare).
fn seconds(option: &'static str, value: f64) -> Result<Duration, SetupError> {
    if value.is_finite() && value > 0.0 && value < 1e9 {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(SetupError::Seconds { option, value })
    }
}

fn engine_configs(args: &TournamentArgs) -> Result<Vec<EngineConfig>, SetupError> {
    args.engines.0.iter().enumerate().map(|(i, own)| engine_config(i + 1, &args.each, own)).collect()
}

fn sprt(args: &TournamentArgs, engines: usize) -> Result<Option<Sprt>, SetupError> {
    let sprt = args.sprt.as_deref().map(sprt_from).transpose()?;
    if sprt.is_some() && engines != 2 {
        return Err(SetupError::SprtNeedsTwo);
    }
    Ok(sprt)
}

/// The opening book and the game type: the book's, unless `--game-type` says (and the book must
/// agree); without a book, `--game-type` or the default.
fn book(args: &TournamentArgs) -> Result<(Option<Book>, String), SetupError> {
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64 ^ d.as_secs().rotate_left(32))
    });
    let Some(path) = &args.openings else {
        return Ok((None, args.game_type.clone().unwrap_or_else(|| DEFAULT_GAME_TYPE.to_string())));
    };
    let plies = args.opening_plies.map(|n| n as usize);
    let wanted = Wanted { game_type: args.game_type.as_deref(), plies, options: args.game_options() };
    let loaded = openings::load(path, wanted)?;
    let count = loaded.openings.len();
    let picker = Picker::new(loaded.openings, args.order, seed);
    let book = Book { path: path.clone(), picker, count, plies, skipped: loaded.skipped, order: args.order, seed };
    Ok((Some(book), loaded.game_type))
}

/// The rules; loading the empty game checks the game type and gives its default ply limit.
fn rules(args: &TournamentArgs, game_type: &str, timeouts: Timeouts) -> Result<Rules, SetupError> {
    let game = args.game_options();
    let empty = load_game(game_type, None, game).map_err(SetupError::GameType)?;
    Ok(Rules {
        max_plies: args.max_plies.unwrap_or_else(|| default_max_plies(&empty)),
        repetitions: args.repetitions,
        timeouts,
        game,
    })
}

/// Starts every engine once: a wrong command or option is reported now, not as lost games, and
/// the `id` lines name engines that were given no name. Returns the `id` lines.
fn try_engines(
    engines: &mut [EngineConfig],
    game_type: &str,
    timeouts: &Timeouts,
    stop: &Arc<AtomicBool>,
) -> Result<Vec<String>, SetupError> {
    let mut ids = Vec::new();
    for (i, config) in engines.iter_mut().enumerate() {
        let id = try_engine(i + 1, config, game_type, timeouts, stop)?;
        if config.name.is_empty() {
            config.name = default_name(&id, &config.program);
        }
        ids.push(id);
    }
    Ok(ids)
}

/// Starts engine `index`, asks it for the game type and quits it. Returns its `id` line.
fn try_engine(
    index: usize,
    config: &EngineConfig,
    game_type: &str,
    timeouts: &Timeouts,
    stop: &Arc<AtomicBool>,
) -> Result<String, SetupError> {
    let command = config.command_line();
    let mut engine = EngineProcess::start(Arc::new(config.clone()), timeouts, Arc::clone(stop))
        .map_err(|error| SetupError::Engine { index, command: command.clone(), error })?;
    // The `id` line is the engine's text: shown escaped and cut, here and in the name it gives.
    let id = engine.id().map_or(String::new(), shown);
    // An engine that refuses the game type would lose every game at ply 0 as a protocol error;
    // asking once now turns that into one clear message.
    engine.command(&format!("newgame {game_type}"), timeouts.command).map_err(|error| SetupError::Refused {
        index,
        command: command.clone(),
        game_type: game_type.to_string(),
        error,
    })?;
    if let Some(missing) = missing_expansions(game_type, engine.capabilities()) {
        // Only a warning: the engine accepted the game type, so it may support more than it
        // declares. If it does not, it loses its games by protocol error, which the
        // transcripts then show.
        eprintln!(
            "warning: engine {index} (`{command}`) does not declare {missing} (capabilities: {}), which {game_type} needs",
            engine.capabilities().map_or("none".to_string(), shown)
        );
    }
    engine.quit();
    Ok(id)
}

/// The name of an engine that was given none: the first word of its `id` line, else its
/// program's file name.
fn default_name(id: &str, program: &str) -> String {
    id.split_whitespace().next().map(str::to_string).unwrap_or_else(|| {
        std::path::Path::new(program).file_stem().map_or("engine".into(), |s| s.to_string_lossy().into())
    })
}

/// The Hive expansions `game_type` needs that a `capabilities` line does not declare, e.g.
/// `Mosquito, Pillbug` (`None` when nothing is missing or the game is not Hive).
fn missing_expansions(game_type: &str, capabilities: Option<&str>) -> Option<String> {
    let game_type = GameType::parse(game_type)?;
    let declared: Vec<String> =
        capabilities.unwrap_or_default().split(';').map(|c| c.trim().to_ascii_lowercase()).collect();
    let missing: Vec<String> = GameType::expansions()
        .filter(|&bug| game_type.has_bug(bug))
        .map(capability_name)
        .filter(|name| !declared.contains(&name.to_ascii_lowercase()))
        .collect();
    (!missing.is_empty()).then(|| missing.join(", "))
}

/// How a UHP capabilities line names an expansion bug: by the bug's full name (`Mosquito`),
/// which is also its [`Bug`] variant's name.
fn capability_name(bug: Bug) -> String {
    format!("{bug:?}")
}

/// Names identify engines in every output: a name met again gets the first free `-2`, `-3`, ….
fn make_names_unique(engines: &mut [EngineConfig]) {
    for i in 1..engines.len() {
        if engines[..i].iter().any(|c| c.name == engines[i].name) {
            let base = engines[i].name.clone();
            let mut n = 2;
            while engines.iter().any(|c| c.name == format!("{base}-{n}")) {
                n += 1;
            }
            engines[i].name = format!("{base}-{n}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansions_are_checked_against_capabilities() {
        assert_eq!(missing_expansions("Base", None), None);
        assert_eq!(missing_expansions("Base+MLP", Some("Mosquito;Ladybug;Pillbug")), None);
        assert_eq!(missing_expansions("Base+MP", Some("mosquito")), Some("Pillbug".into()));
        assert_eq!(missing_expansions("Base+ML", None), Some("Mosquito, Ladybug".into()));
        assert_eq!(missing_expansions("Intellector", None), None);
    }

    #[test]
    fn names_are_made_unique() {
        let config = |name: &str| EngineConfig {
            name: name.into(),
            program: "x".into(),
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
            limit: crate::client::Limit::Depth(1),
            sync: crate::client::Sync::NewGame,
            time_command: Default::default(),
        };
        let mut engines = vec![config("A"), config("A"), config("A-2"), config("B")];
        make_names_unique(&mut engines);
        let names: Vec<&str> = engines.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["A", "A-3", "A-2", "B"]);
        assert_eq!(default_name("comb 0.1.0", "/bin/x"), "comb");
        assert_eq!(default_name("", "/opt/nokamute.exe"), "nokamute");
    }
}
