//! The `comb` command line. With no subcommand it is a UHP engine on stdin/stdout.
//!
//! Exit status: 0 when done, 2 for bad arguments, 130 after Ctrl+C (`bestmove` first prints the
//! best move found so far), 141 when the reader of standard output went away (`| head -1`; see
//! [`comb::stdout`]); `comb tournament`, `comb analyze` and `comb conformance`
//! document their own.

use clap::{Parser, Subcommand};
use comb::bench::BenchError;
use comb::games::AnyGame;
use comb::search::{Limits, Searcher};
use comb::stdout;
use comb::uhp::{self, Options, Signals};
use std::io;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The exit status after Ctrl+C (128 + SIGINT, as shells report it).
const INTERRUPTED: u8 = 130;

#[derive(Parser)]
#[command(name = "comb", version, about = "A Hive (UHP) and Intellector engine")]
struct Cli {
    /// Set a UHP option before the first command, e.g. `--option RepetitionDraw=true`
    /// (repeatable; names as listed by the `options` command).
    #[arg(long = "option", value_name = "NAME=VALUE", global = true)]
    options: Vec<String>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the UHP engine on stdin/stdout (the default).
    Uhp,
    /// Search one position and print the best move (plain, or one JSON object with --json).
    /// Ctrl+C stops the search and prints the best move found so far.
    Bestmove {
        /// Search to this depth, 1 to 120 plies [default: 6; with --difficulty below Max, the
        /// level's own depth, which also caps a deeper --depth].
        #[arg(long, conflicts_with = "time", value_parser = search_depth, allow_negative_numbers = true)]
        depth: Option<u32>,
        /// Search for this many seconds (fractions allowed).
        #[arg(long, allow_negative_numbers = true)]
        time: Option<f64>,
        /// Search threads, 1 to 256 (default: every core).
        #[arg(long, value_parser = thread_count)]
        threads: Option<usize>,
        /// Print move, score, depth, nodes, time, principal variation and the multi-PV lines
        /// as JSON.
        #[arg(long)]
        json: bool,
        /// Score and report the best N root moves, 1 to 64 (the MultiPV option).
        #[arg(long, value_name = "N", value_parser = multipv_count)]
        multipv: Option<usize>,
        /// Play at this level: Easy, Medium, Hard or Max (the Difficulty option).
        #[arg(long, value_name = "LEVEL", value_parser = difficulty_level)]
        difficulty: Option<comb::search::Level>,
        /// A game type or GameString (Hive or Intellector).
        position: String,
    },
    /// Search the positions of positions/bench.txt at a fixed depth and print the nodes of each,
    /// the total (on one thread, a checksum of search behaviour) and the speed.
    Bench {
        /// Depth of every search, 1 to 120 (default: each line's own depth).
        #[arg(long, value_parser = search_depth, allow_negative_numbers = true)]
        depth: Option<u32>,
        /// A bench file of `depth<TAB>position` lines [default: positions/bench.txt, built into
        /// the binary].
        #[arg(long, value_name = "FILE")]
        file: Option<String>,
        /// Search threads, 1 to 256; with more than one the node counts vary from run to run
        /// (no checksum), and the times against one thread's give the time to depth.
        #[arg(long, default_value_t = 1, value_parser = thread_count)]
        threads: usize,
    },
    /// Count the leaves of the move tree for each depth from 1 to DEPTH.
    Perft {
        /// Worker threads, 1 to 256 (1 = the plain serial count).
        #[arg(long, default_value_t = 1, value_parser = thread_count)]
        threads: usize,
        /// Deepest depth to count, 1 to 120.
        #[arg(value_parser = perft_depth)]
        depth: usize,
        /// A game type (`Base+MLP`, `Intellector`, `Intellector[<SIP>]`, …) or a GameString.
        #[arg(default_value = "Base+MLP")]
        position: String,
    },
    /// Print a position as text for a terminal, or draw it as an SVG picture with --svg (with
    /// the game's last move as an arrow, unless --no-last-move, and any --arrow moves).
    Show {
        /// Write an SVG picture of the position to FILE instead of printing text (`-`: to
        /// standard output).
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
        /// Draw this move of the position as an arrow, e.g. the best move (a MoveString of the
        /// position's game; repeatable; needs --svg).
        #[arg(long = "arrow", value_name = "MOVE", requires = "svg")]
        arrows: Vec<String>,
        /// Leave out the arrow of the game's last move, which --svg draws when there is one.
        #[arg(long, requires = "svg")]
        no_last_move: bool,
        /// A game type or GameString (Hive or Intellector).
        position: String,
    },
    /// Review whole games: every ply's move scored against comb's best, classed by the score
    /// lost, and a summary per side.
    ///
    /// The position before every ply is searched; the loss is the best score less the played
    /// move's (hundredths of a piece from the mover's view, both capped at ±1000 so that a
    /// mate counts as 1000; never negative). Classes by loss: best 0, good 1–30, inaccuracy
    /// 31–80, mistake 81–200, blunder over 200; a position with one legal move (a forced pass)
    /// is `forced`, not classed. Mates print as `#N` (a win in N of the mover's moves) or `#-N`.
    /// The plies of the opening a game was started from are `book`: not searched, not classed,
    /// and left out of the summary.
    ///
    /// Exit status: 0 when every game was analysed, 1 when some lines or games did not load
    /// (each named on stderr as `line N: reason`) but others were analysed, 2 for bad arguments
    /// or nothing to analyse.
    Analyze {
        /// Search every position to this depth, 1 to 120 [default: 4].
        #[arg(long, conflicts_with = "time", value_parser = search_depth)]
        depth: Option<u32>,
        /// Search every position for this many seconds instead (fractions allowed); the move
        /// played, when not comb's, costs one more search one ply shallower.
        #[arg(long, allow_negative_numbers = true)]
        time: Option<f64>,
        /// Positions searched at once, 1 to 256, each single-threaded (default: every core).
        #[arg(long, value_parser = thread_count)]
        threads: Option<usize>,
        /// Print one JSON object per game, per ply and per side's summary instead of a table.
        #[arg(long)]
        jsonl: bool,
        /// The first N plies of every game are book (the opening it was started from). A game
        /// from comb's tournament record knows its own (the JSONL's `opening_plies`, the PGN's
        /// `Opening` tag); this overrides it [default: the record's, else 0].
        #[arg(long, value_name = "N")]
        opening_plies: Option<usize>,
        /// A GameString (any argument holding a `;`), a file of GameStrings (one a line, `#`
        /// comments), of games in Hive PGN or of comb's tournament JSONL (`tournament --jsonl`),
        /// or `-` for standard input.
        games: String,
    },
    /// Play engine-against-engine games between UHP engines and report Elo, LOS and SPRT.
    Tournament(Box<comb::tournament::TournamentArgs>),
    /// Run the conformance suite (positions/conformance.txt) and a timed random walk against
    /// a UHP engine: one line per case, then a summary.
    ///
    /// Exit status: 0 when every case passed (failures of allowed deviations included), 1 when
    /// some failed, 2 for bad arguments, a bad case file or an engine that does not start.
    Conformance(ConformanceArgs),
    /// Play comb against itself and write one line per position (result, score, GameString)
    /// for `comb tune`; positions a tuner should not learn from are left out and counted.
    Selfplay(SelfplayArgs),
    /// A board in the browser: play Hive or Intellector against comb or a UHP engine, analyse
    /// and review, with a JSON API and raw UHP over a WebSocket at /uhp. Prints the URL it
    /// listens on; Ctrl+C stops it (searches stopped, engines ended) with status 0.
    Serve(ServeArgs),
    /// Fit the evaluation weights to `comb selfplay` files (Texel's method with Adam) and
    /// write them where the engine reads them; rebuild to use them.
    Tune(TuneArgs),
    /// Train a game's evaluation network on `comb selfplay` files of that game and write it
    /// where the engine reads it (src/hive/net.bin or src/intellector/net.bin); rebuild to use it.
    TrainNet(TrainNetArgs),
}

/// The arguments of `comb train-net`.
#[derive(clap::Args)]
struct TrainNetArgs {
    /// Self-play files of Hive or of Intellector games, all of one game
    /// (`result<TAB>score<TAB>GameString` lines).
    #[arg(required = true, value_name = "FILE")]
    data: Vec<String>,
    /// Full passes over the data.
    #[arg(long, default_value_t = 20, value_parser = positive)]
    epochs: usize,
    /// Values in each accumulator, 1 to 256 [default: the engine's, 32]; another size is only
    /// tried (with --dry-run), since the engine reads its own.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=comb::train::net::MAX_HIDDEN as i64))]
    hidden: Option<u16>,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.0003, allow_negative_numbers = true)]
    learning_rate: f32,
    /// Share of each target taken from the game's result, the rest from the search score
    /// (the default, 0, learns the search's scores: far less noisy than results).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    lambda: f32,
    /// Positions per step of Adam.
    #[arg(long, default_value_t = 1024, value_parser = positive)]
    batch: usize,
    /// Weight decay of the first layer (AdamW, decoupled): each step shrinks its weights by
    /// learning rate × this, so that features only a few games use fade instead of memorising
    /// them (0: none).
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
    weight_decay: f32,
    /// Hold out every Nth game to measure the error on unseen games (0: none; 1 is refused).
    #[arg(long, default_value_t = 10)]
    validation: usize,
    /// `residual`: the network adds to the hand-written evaluation; `pure`: it replaces it.
    #[arg(long, value_enum, default_value_t = NetKind::Residual)]
    kind: NetKind,
    /// Seed of the initial weights and of the order of positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads for loading and for the gradient, 1 to 256 (default: every core).
    #[arg(long, value_parser = thread_count)]
    threads: Option<usize>,
    /// Write the network here [default: src/hive/net.bin or src/intellector/net.bin, by the
    /// data's game, of the comb repository the current directory is in].
    #[arg(long, value_name = "FILE", conflicts_with = "dry_run")]
    out: Option<std::path::PathBuf>,
    /// Train and report, but write nothing.
    #[arg(long)]
    dry_run: bool,
}

/// How a trained network is used.
#[derive(Copy, Clone, PartialEq, Eq, clap::ValueEnum)]
enum NetKind {
    /// Added to the hand-written evaluation.
    Residual,
    /// Instead of it.
    Pure,
}

/// The arguments of `comb conformance`.
#[derive(clap::Args)]
struct ConformanceArgs {
    /// Accept failures of cases that declare this deviation (repeatable), e.g. repetition-draw.
    #[arg(long = "allow", value_name = "TAG")]
    allow: Vec<String>,
    /// Run only the cases whose name matches PATTERN, where `*` matches any text
    /// (`mosquito-*`; `walk` is the random walk).
    #[arg(long = "case", value_name = "PATTERN")]
    case: Option<String>,
    /// A case file [default: positions/conformance.txt, built into the binary].
    #[arg(long, value_name = "FILE")]
    file: Option<std::path::PathBuf>,
    /// Length of the random walk in seconds (0: no walk).
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
    seconds: f64,
    /// Seed of the random walk: the same seed walks the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The walk's game type (default: one of the eight drawn per game).
    #[arg(long = "game-type", value_name = "TYPE")]
    game_type: Option<String>,
    /// Seconds to wait for each reply.
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
    timeout: f64,
    /// The engine's program and its arguments, after `--`: `comb conformance -- nokamute uhp`.
    #[arg(last = true, required = true, value_name = "ENGINE")]
    engine: Vec<String>,
}

/// The arguments of `comb serve`.
#[derive(clap::Args)]
struct ServeArgs {
    /// The address to listen on. Another than 127.0.0.1 (or ::1) lets anyone who can reach it
    /// use the engine, and a warning says so.
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    host: std::net::IpAddr,
    /// The port to listen on (0: a free one, printed).
    #[arg(long, default_value_t = 8080, value_name = "N")]
    port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// An opponent engine the page offers, as NAME=CMD (CMD split into words as the
    /// tournament's cmd= is, as a POSIX shell does), e.g. --engine nokamute="nokamute uhp";
    /// repeatable.
    #[arg(long = "engine", value_name = "NAME=CMD")]
    engines: Vec<String>,
}

/// The arguments of `comb tune`.
#[derive(clap::Args)]
struct TuneArgs {
    /// Self-play files (`result<TAB>score<TAB>GameString` lines), all of one game.
    #[arg(required = true, value_name = "FILE")]
    data: Vec<String>,
    /// Full passes of Adam over the data.
    #[arg(long, default_value_t = 2000)]
    epochs: usize,
    /// Adam's step size, in hundredths of a piece.
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    learning_rate: f64,
    /// Share of each target taken from the game's result, the rest from the search score
    /// (1: results only, Texel's original).
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    lambda: f64,
    /// Hold out every Nth position to measure the error on unseen positions (0: none; 1, which
    /// would hold out every position, is refused).
    #[arg(long, default_value_t = 10)]
    validation: usize,
    /// Threads for loading and for the gradient, 1 to 256 (default: every core).
    #[arg(long, value_parser = thread_count)]
    threads: Option<usize>,
    /// Write the weights here [default: the game's weights file (src/hive/weights.rs or
    /// src/intellector/weights.rs) of the comb repository the current directory is in].
    #[arg(long, value_name = "FILE", conflicts_with = "dry_run")]
    out: Option<std::path::PathBuf>,
    /// Fit and report, but write nothing.
    #[arg(long)]
    dry_run: bool,
}

/// The arguments of `comb selfplay`.
#[derive(clap::Args)]
struct SelfplayArgs {
    /// The game type of every game (when no --openings book is given).
    #[arg(long, default_value = "Base+MLP")]
    game: String,
    /// Games to play (1 or more).
    #[arg(long, default_value_t = 100, value_parser = positive)]
    games: usize,
    /// Search every move to this depth, 1 to 120 [default: 4].
    #[arg(long, value_parser = search_depth, conflicts_with = "nodes")]
    depth: Option<u32>,
    /// Search every move with this node budget instead of a depth.
    #[arg(long, allow_negative_numbers = true)]
    nodes: Option<u64>,
    /// Start every game from an opening of this book, picked at random: one GameString per
    /// line, or games in Hive PGN (which need --opening-plies).
    #[arg(long, value_name = "FILE")]
    openings: Option<std::path::PathBuf>,
    /// Each opening is the first N plies of a line or game of the book; shorter ones, and ones
    /// that end within N plies, are skipped.
    #[arg(
        long = "opening-plies",
        value_name = "N",
        value_parser = clap::value_parser!(u32).range(1..),
        requires = "openings"
    )]
    opening_plies: Option<u32>,
    /// Uniformly random moves played after the start, before the engine takes over.
    #[arg(long, default_value_t = 6)]
    random_plies: usize,
    /// Stop a game after this many plies and score it a draw (1 or more: a game without a
    /// limit could go round forever).
    #[arg(long, default_value_t = 300, value_parser = positive)]
    max_plies: usize,
    /// Seed of the openings: the same seed and settings give the same file.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once, 1 to 256 (default: every core).
    #[arg(long, value_parser = thread_count)]
    threads: Option<usize>,
    /// Write the positions here instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
    /// Play only shard K of N: the games whose number (from 0) % N is K - 1, each as the whole
    /// run plays it. Without it, a Slurm job array task or a Kubernetes Indexed Job (with
    /// --shard-count) picks its shard, as for `comb tournament`.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// The number of shards of a Kubernetes Indexed Job; the shard is JOB_COMPLETION_INDEX + 1.
    #[arg(long = "shard-count", value_name = "N")]
    shard_count: Option<usize>,
}

/// A number argument outside the range it allows (clap prints it after the argument's name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct OutOfRange {
    /// The largest value allowed (the smallest is 1; `usize::MAX`: no bound above).
    high: usize,
}

impl std::fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.high {
            usize::MAX => f.write_str("expected a whole number from 1 up"),
            high => write!(f, "expected a whole number from 1 to {high}"),
        }
    }
}

impl std::error::Error for OutOfRange {}

/// A whole number in `1..=high`.
fn bounded(text: &str, high: usize) -> Result<usize, OutOfRange> {
    match text.parse::<usize>() {
        Ok(n) if (1..=high).contains(&n) => Ok(n),
        _ => Err(OutOfRange { high }),
    }
}

/// Parses a count where 0 would do nothing and say nothing (`selfplay --games 0` played no
/// game and exited 0).
fn positive(text: &str) -> Result<usize, OutOfRange> {
    bounded(text, usize::MAX)
}

/// Parses `--threads`: thousands of threads would only exhaust the system, so the count is
/// bounded as the search bounds it.
fn thread_count(text: &str) -> Result<usize, OutOfRange> {
    bounded(text, comb::search::MAX_THREADS)
}

/// Parses a search depth: 0 used to search depth 1 silently, and the search never goes beyond
/// its deepest ply, so both ends are refused rather than adjusted.
fn search_depth(text: &str) -> Result<u32, OutOfRange> {
    bounded(text, comb::search::MAX_PLY).map(|d| d as u32)
}

/// Parses `--multipv`, bounded as the MultiPV option is.
fn multipv_count(text: &str) -> Result<usize, OutOfRange> {
    bounded(text, comb::search::MAX_MULTIPV)
}

/// Parses `--difficulty`: a level's name, in any case.
fn difficulty_level(text: &str) -> Result<comb::search::Level, String> {
    comb::search::Level::parse(text).ok_or_else(|| "expected Easy, Medium, Hard or Max".to_string())
}

/// Parses the perft depth with the UHP `perft` command's bound (a depth of 2³² would only run
/// forever, and 0 would print nothing).
fn perft_depth(text: &str) -> Result<usize, OutOfRange> {
    bounded(text, comb::search::MAX_PLY)
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(2);
}

/// A list in words: `A`, `A and B`, `A, B and C`.
fn in_words(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The options a subcommand reads, and its name in messages: `--option` naming any other is
/// refused, since it would change nothing.
fn options_read(command: Option<&Command>) -> (&'static str, &'static [&'static str]) {
    const RULES: &[&str] = &["IntellectorRules"];
    const RULES_AND_THREADS: &[&str] = &["IntellectorRules", "MaxHelperThreads"];
    // Commands that search also read the evaluation.
    const SEARCHING: &[&str] = &["Evaluation", "IntellectorEvaluation", "IntellectorRules", "MaxHelperThreads"];
    match command {
        None | Some(Command::Uhp) => ("comb", &Options::NAMES),
        Some(Command::Bestmove { .. }) => (
            "comb bestmove",
            &[
                "Difficulty",
                "DifficultySeed",
                "Evaluation",
                "IntellectorEvaluation",
                "IntellectorRules",
                "MaxHelperThreads",
                "MultiPV",
                "TranspositionTableSizeMB",
            ],
        ),
        Some(Command::Bench { .. }) => ("comb bench", &["Evaluation", "IntellectorEvaluation", "IntellectorRules"]),
        Some(Command::Perft { .. }) => ("comb perft", RULES),
        Some(Command::Show { .. }) => ("comb show", RULES),
        Some(Command::Analyze { .. }) => ("comb analyze", SEARCHING),
        Some(Command::Selfplay(_)) => ("comb selfplay", SEARCHING),
        Some(Command::Tune(_)) => ("comb tune", RULES_AND_THREADS),
        Some(Command::TrainNet(_)) => ("comb train-net", RULES_AND_THREADS),
        Some(Command::Tournament(_)) => ("comb tournament", &[]),
        Some(Command::Conformance(_)) => ("comb conformance", &[]),
        Some(Command::Serve(_)) => ("comb serve", &[]),
    }
}

/// Options from `--option NAME=VALUE` flags: every one must be an option `command` reads, and
/// its value one the option takes (`options set` would keep or clamp it without a word).
fn startup_options(flags: &[String], command: Option<&Command>) -> Options {
    let mut options = Options::default();
    let (program, read) = options_read(command);
    for flag in flags {
        let Some((name, value)) = flag.split_once('=') else { fail(&format!("--option {flag}: expected NAME=VALUE")) };
        let name = Options::canonical_name(name.trim())
            .unwrap_or_else(|e| fail(&format!("--option {flag}: {}", comb::uhp::OptionError::Unknown(e))));
        if !read.contains(&name) {
            fail(&match program {
                "comb tournament" => format!(
                    "--option {flag}: `comb tournament` reads no option; give an engine its options in its \
                     --engine or --each (`option.{name}={}`){}",
                    value.trim(),
                    if name == "IntellectorRules" {
                        ", and the referee its rules with --intellector-rules"
                    } else {
                        ""
                    }
                ),
                "comb conformance" => format!(
                    "--option {flag}: `comb conformance` reads no option; give the engine under test its \
                     options on its own command line (`comb conformance -- comb --option {flag}`)"
                ),
                "comb serve" => format!(
                    "--option {flag}: `comb serve` reads no option; the page sets each game's players and \
                     analysis, and an engine given with --engine takes its options on its own command line"
                ),
                _ => format!("--option {flag}: `{program}` does not read {name} (it reads {})", in_words(read)),
            });
        }
        if let Err(e) = options.set_exact(name, value) {
            fail(&format!("--option {flag}: {e}"));
        }
    }
    options
}

/// The game of a command-line position (a game type, or a GameString). A type field that
/// names no game gets the message the tournament and the PGN reader give, which lists the
/// types, rather than the protocol's `Unable to parse 'Chess' in GameString.`
fn load(position: &str, options: &Options) -> AnyGame {
    let type_field = position.split(';').next().unwrap_or_default().trim();
    if !comb::games::is_game_type(type_field) {
        fail(&comb::games::UnknownGameType(type_field.to_string()).to_string());
    }
    options.game.start(position).unwrap_or_else(|e| fail(&e.to_string()))
}

/// `comb bench`: every line of the bench file is `depth<TAB>position` (see [`comb::bench`]).
fn bench(file: Option<&str>, depth: Option<u32>, threads: usize, options: &Options) -> io::Result<()> {
    let text = match file {
        Some(file) => std::fs::read_to_string(file).unwrap_or_else(|e| fail(&format!("{file}: {e}"))),
        None => comb::bench::POSITIONS.to_string(),
    };
    if !text.lines().any(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        // A total of 0 nodes would pass for a checksum.
        fail(&format!("{}: no positions to search", file.unwrap_or("positions/bench.txt")));
    }
    // The searches are computing, the lines between them are writing (see `computing`).
    let run =
        computing(|| comb::bench::run(&text, depth, threads, options.game, &mut |line| writing(|| stdout::line(line))));
    match run {
        Ok(total) => stdout::line(total),
        Err(BenchError::Output(e)) => Err(e),
        Err(e) => fail(&e.to_string()),
    }
}

/// The depth of `comb bestmove` at full strength when neither --depth nor --time is given.
const DEFAULT_DEPTH: u32 = 6;

/// What `comb bestmove` is asked.
struct BestmoveArgs {
    depth: Option<u32>,
    time: Option<f64>,
    threads: Option<usize>,
    json: bool,
}

/// `comb bestmove`: searches and prints the move; returns the exit status.
fn bestmove(position: &str, args: BestmoveArgs, options: &Options) -> io::Result<u8> {
    let BestmoveArgs { depth, time, threads, json } = args;
    let stop = Arc::new(AtomicBool::new(false));
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let (stop, interrupted) = (Arc::clone(&stop), Arc::clone(&interrupted));
        // The first Ctrl+C ends the search, which then answers the best move found so far (what
        // a script that gave up waiting on a deep search still wants); a second one quits at
        // once. Installed first, so that no signal falls between start-up and the search.
        let _ = ctrlc::set_handler(move || {
            if interrupted.swap(true, SeqCst) {
                std::process::exit(INTERRUPTED.into());
            }
            stop.store(true, SeqCst);
        });
    }
    let game = load(position, options);
    if game.is_over() {
        fail("the game is over");
    }
    let limits = match (depth, time) {
        (Some(d), _) => Limits::depth(d),
        // `try_from` also refuses what no clock can hold (1e30 seconds).
        (None, Some(t)) => match Duration::try_from_secs_f64(t) {
            Ok(d) if d > Duration::ZERO => Limits::time(d),
            _ => fail("--time takes a positive number of seconds"),
        },
        // A level searches to its own depth (which caps a deeper --depth too); full strength
        // to the command line's default.
        (None, None) if options.difficulty != comb::search::Level::Max => Limits::default(),
        (None, None) => Limits::depth(DEFAULT_DEPTH),
    };
    let mut engine = Searcher::new(options.table_megabytes, 1);
    options.configure(&mut engine);
    if let Some(n) = threads {
        engine.set_threads(n);
    }
    // Touches the table beside the search rather than in it.
    engine.make_table_resident();
    let result = computing(|| uhp::search(&game, &mut engine, limits, &stop, &mut |_| {}))
        .expect("checked: the game is not over");
    if json {
        stdout::line(result.to_json())?;
    } else {
        stdout::line(&result.best)?;
    }
    Ok(if interrupted.load(SeqCst) { INTERRUPTED } else { 0 })
}

/// `comb perft`: one line per depth, printed as each count finishes.
fn perft(threads: usize, depth: usize, position: &str, options: &Options) -> io::Result<()> {
    let game = load(position, options);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap_or_else(|e| fail(&e.to_string()));
    let never = AtomicBool::new(false);
    for d in 1..=depth {
        let start = Instant::now();
        let n = computing(|| {
            if threads > 1 {
                pool.install(|| uhp::perft_parallel(&game, d))
            } else {
                uhp::perft(&game, d, &never).expect("never stopped")
            }
        });
        let secs = start.elapsed().as_secs_f64();
        stdout::line(uhp::perft_line(d, n, secs))?;
    }
    Ok(())
}

/// `comb show`: the text picture on standard output, or the SVG picture in a file (or on
/// standard output for `-`).
fn show(
    position: &str,
    svg: Option<&std::path::Path>,
    arrows: &[String],
    last_move: bool,
    options: &Options,
) -> io::Result<()> {
    let game = load(position, options);
    let Some(path) = svg else { return stdout::block(&comb::show::text(&game)) };
    let picture = comb::show::svg(&game, arrows, last_move).unwrap_or_else(|e| fail(&e.to_string()));
    if path == std::path::Path::new("-") {
        return stdout::block(&picture);
    }
    std::fs::write(path, picture).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
    Ok(())
}

/// What `comb analyze` is asked.
struct AnalyzeArgs {
    depth: Option<u32>,
    time: Option<f64>,
    threads: Option<usize>,
    jsonl: bool,
    opening_plies: Option<usize>,
}

/// `comb analyze`: loads the games, then reviews and prints them one by one; returns the exit
/// status.
fn analyze(games: &str, args: AnalyzeArgs, options: &Options) -> io::Result<u8> {
    use comb::analyze::{self, format};
    let limits = match (args.depth, args.time) {
        (_, Some(t)) => match Duration::try_from_secs_f64(t) {
            Ok(d) if d > Duration::ZERO => Limits::time(d),
            _ => fail("--time takes a positive number of seconds"),
        },
        (depth, None) => Limits::depth(depth.unwrap_or(4)),
    };
    if games != "-" && !games.contains(';') && std::fs::metadata(games).is_err() {
        // Rather than the file's `No such file or directory`: `comb analyze Base` is a try at a
        // position, and a game to review has moves.
        fail(&format!("{games}: neither a GameString (one holds a `;`) nor a file"));
    }
    let input = analyze::input::load(games, options.game).unwrap_or_else(|e| fail(&e.to_string()));
    for problem in &input.problems {
        eprintln!("{problem}");
    }
    if input.games.is_empty() {
        fail("nothing to analyse");
    }
    let threads = args.threads.unwrap_or_else(|| options.threads());
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap_or_else(|e| fail(&e.to_string()));
    for (i, entry) in input.games.iter().enumerate() {
        let book = args.opening_plies.unwrap_or(entry.book);
        let plies = computing(|| pool.install(|| analyze::review(&entry.game, limits, book)));
        if args.jsonl {
            format::jsonl(entry, &plies).iter().try_for_each(stdout::line)?;
        } else {
            // A blank line between tables.
            stdout::block(&format!("{}{}", if i > 0 { "\n" } else { "" }, format::table(entry, &plies)))?;
        }
    }
    Ok(if input.problems.is_empty() { 0 } else { 1 })
}

/// `comb selfplay`: checks the set-up, then plays and writes, reporting progress on stderr.
fn selfplay(args: SelfplayArgs, options: &Options) -> io::Result<()> {
    let game_options = options.game;
    let openings = match &args.openings {
        Some(path) => {
            let plies = args.opening_plies.map(|n| n as usize);
            let wanted = comb::tournament::openings::Wanted { game_type: None, plies, options: game_options };
            let book = comb::tournament::openings::load(path, wanted).unwrap_or_else(|e| fail(&e.to_string()));
            if book.skipped > 0 {
                let (kept, skipped) = (book.openings.len(), book.skipped);
                eprintln!(
                    "{}: {kept} openings, {skipped} skipped (shorter than --opening-plies, or over within it)",
                    path.display()
                );
            }
            book.openings.into_iter().map(|o| o.game_string).collect()
        }
        None => {
            load(&args.game, options);
            Vec::new()
        }
    };
    if args.nodes == Some(0) {
        fail("--nodes takes a positive number");
    }
    let limits = match args.nodes {
        Some(n) => Limits { nodes: Some(n), ..Limits::default() },
        None => Limits::depth(args.depth.unwrap_or(4)),
    };
    let placement =
        comb::tournament::shard::resolve(args.shard.as_deref(), args.shard_count, |name| std::env::var(name).ok())
            .unwrap_or_else(|e| fail(&e.to_string()));
    let settings = comb::train::selfplay::Settings {
        shard: placement.as_ref().map(|p| p.shard),
        game_type: args.game,
        options: game_options,
        games: args.games,
        limits,
        openings,
        random_plies: args.random_plies,
        max_plies: args.max_plies,
        seed: args.seed,
        threads: args.threads.unwrap_or_else(|| options.threads()),
        table_megabytes: 16,
    };
    let mut out: Box<dyn io::Write> = match &args.out {
        Some(path) => Box::new(io::BufWriter::new(
            std::fs::File::create(path).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display()))),
        )),
        None => Box::new(io::BufWriter::new(io::stdout().lock())),
    };
    let start = Instant::now();
    let games = settings.game_numbers().len();
    if let Some(p) = &placement {
        eprintln!("shard {} (from {}): {games} of {} games", p.shard, p.source, settings.games);
    }
    let mut report = |t: &comb::train::selfplay::SelfplayTally| {
        if t.games.is_multiple_of(10) || t.games == games {
            eprintln!(
                "{} games, {} positions kept; left out: {} book, {} forced, {} decided, {} tactical; {:.0} s",
                t.games,
                t.kept,
                t.book,
                t.forced,
                t.decided,
                t.tactical,
                start.elapsed().as_secs_f64()
            );
        }
    };
    // Writes and games interleave: the whole run counts as computing.
    computing(|| comb::train::selfplay::run(&settings, &mut out, &mut report)).map(|_| ())
}

/// `comb conformance`: checks the arguments, then runs the suite; returns the exit status.
fn conformance(args: ConformanceArgs) -> u8 {
    let seconds = |what: &str, s: f64, zero: bool| match Duration::try_from_secs_f64(s) {
        Ok(d) if zero || d > Duration::ZERO => d,
        _ => fail(&format!("{what} takes a {} number of seconds", if zero { "non-negative" } else { "positive" })),
    };
    let game_type = args.game_type.as_deref().map(|t| {
        comb::hive::GameType::parse(t)
            .unwrap_or_else(|| fail(&format!("--game-type {t}: expected a Hive game type (Base, Base+M, …, Base+MLP)")))
    });
    let (program, engine_args) = args.engine.split_first().expect("clap requires the engine");
    let settings = comb::conformance::Settings {
        program: program.clone(),
        args: engine_args.to_vec(),
        file: args.file,
        allow: args.allow,
        case: args.case,
        walk_time: seconds("--seconds", args.seconds, true),
        seed: args.seed,
        game_type,
        timeout: seconds("--timeout", args.timeout, false),
    };
    comb::conformance::run_status(&settings)
}

/// Refuses settings no fit can use, before the data is read: `held_out_all` says what
/// `--validation 1` would do.
fn check_fit(lambda: f64, learning_rate: f64, validation: usize, held_out_all: &str) {
    if !(0.0..=1.0).contains(&lambda) {
        fail("--lambda takes a number from 0 to 1");
    }
    if !(learning_rate > 0.0 && learning_rate.is_finite()) {
        fail("--learning-rate takes a positive number");
    }
    if validation == 1 {
        fail(&format!("--validation 1 would hold out {held_out_all}: give 0 (hold out none) or 2 and more"));
    }
}

/// The threads a fit loads and computes its gradients on: `--threads`, or the engine's.
fn fitting_pool(threads: Option<usize>, options: &Options) -> rayon::ThreadPool {
    let threads = threads.unwrap_or_else(|| options.threads());
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap_or_else(|e| fail(&e.to_string()))
}

/// Where a fit writes: nowhere for a dry run, `--out`, or else the file `relative` of the comb
/// repository around the current directory (refused outside one); checked writable.
fn fit_output(
    out: Option<std::path::PathBuf>,
    dry_run: bool,
    relative: &str,
    command: &str,
) -> Option<std::path::PathBuf> {
    if dry_run {
        return None;
    }
    let path = out.unwrap_or_else(|| {
        repository_file(relative).unwrap_or_else(|| {
            fail(&format!(
                "no --out given, and the current directory is not in a comb repository (a folder whose \
                 Cargo.toml is the package `comb`, holding {relative}): give --out FILE, or run {command} in \
                 the repository"
            ))
        })
    });
    check_writable(&path);
    Some(path)
}

/// `comb tune`: loads, fits the scale, fits the weights, reports and writes them.
fn tune(args: TuneArgs, options: &Options) -> io::Result<()> {
    use comb::train::tune;
    check_fit(args.lambda, args.learning_rate, args.validation, "every position and fit on none");
    fitting_pool(args.threads, options).install(|| {
        let (game, data) = tune::load(&args.data, options.game).unwrap_or_else(|e| fail(&e.to_string()));
        // Where the weights go is settled, and checked writable, before the fit's minutes.
        let path = fit_output(args.out.clone(), args.dry_run, game.weights_file(), "comb tune");
        let (train, held) = data.split(args.validation);
        let start = tune::current(game);
        let k = tune::fit_scale(&train, &start);
        let settings = tune::Settings { epochs: args.epochs, learning_rate: args.learning_rate, lambda: args.lambda };
        let errors = |w: &[[f64; 2]]| (tune::error(&train, k, args.lambda, w), tune::error(&held, k, args.lambda, w));
        let (train_before, held_before) = errors(&start);
        stdout::line(format_args!(
            "{} positions of {} ({} held out), scale k = {k:.6}",
            data.len(),
            game.name(),
            held.len()
        ))?;
        stdout::line(format_args!("error before: {train_before:.6} training, {held_before:.6} held out"))?;
        let weights = tune::fit_weights(&train, k, &start, &settings, &mut |epoch, w| {
            let (t, h) = errors(w);
            eprintln!("epoch {epoch}: {t:.6} training, {h:.6} held out");
        });
        let (train_after, held_after) = errors(&weights);
        stdout::line(format_args!("error after:  {train_after:.6} training, {held_after:.6} held out"))?;
        let provenance = format!(
            "Fitted to {} positions ({}), k = {k:.6}, {} epochs, learning rate {}, lambda {}: error {train_before:.6} -> {train_after:.6} (held out {held_before:.6} -> {held_after:.6}).",
            data.len(),
            args.data.join(", "),
            args.epochs,
            args.learning_rate,
            args.lambda
        );
        let Some(path) = path else { return Ok(()) };
        let mut text = Vec::new();
        tune::write_weights(&mut text, game, &weights, &provenance)?;
        std::fs::write(&path, text).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
        stdout::line(format_args!("weights written to {}", path.display()))
    })
}

/// `comb train-net`: loads, fits the scale, trains, reports and writes the network that did
/// best on the held-out games.
fn train_net(args: TrainNetArgs, options: &Options) -> io::Result<()> {
    use comb::train::net;
    check_fit(args.lambda.into(), args.learning_rate.into(), args.validation, "every game and train on none");
    // Each step multiplies the first layer by 1 - learning rate × decay: it must stay in [0, 1].
    if !(args.weight_decay >= 0.0 && args.weight_decay * args.learning_rate <= 1.0) {
        fail("--weight-decay takes a number from 0 to 1 / learning rate");
    }
    fitting_pool(args.threads, options).install(|| {
        let (shape, data) = net::load(&args.data, options.game).unwrap_or_else(|e| fail(&e.to_string()));
        let hidden = args.hidden.map_or(shape.hidden, usize::from);
        if hidden != shape.hidden && !args.dry_run {
            fail(&format!(
                "--hidden {hidden}: the engine reads {} networks of {} values; try other sizes with --dry-run",
                shape.name, shape.hidden
            ));
        }
        // Where the network goes is settled, and checked writable, before the training's minutes.
        let path = fit_output(args.out.clone(), args.dry_run, shape.net_file, "comb train-net");
        let (train, held) = data.split(args.validation);
        let k = net::fit_scale(&train);
        let residual = args.kind == NetKind::Residual;
        let settings = net::NetSettings {
            epochs: args.epochs,
            learning_rate: args.learning_rate,
            lambda: args.lambda,
            batch: args.batch,
            residual,
            seed: args.seed,
            weight_decay: args.weight_decay,
        };
        stdout::line(format_args!(
            "{} positions of {} {} games ({} positions held out), scale k = {k:.6}",
            data.len(),
            data.games(),
            shape.name,
            held.len()
        ))?;
        let classic = (net::classic_error(&train, k, args.lambda), net::classic_error(&held, k, args.lambda));
        stdout::line(format_args!("hand-written evaluation: {:.6} training, {:.6} held out", classic.0, classic.1))?;
        let errors =
            |n: &net::FloatNet| (n.error(&train, k, args.lambda, residual), n.error(&held, k, args.lambda, residual));
        let mut best: Option<(f64, usize, net::FloatNet)> = None;
        net::train(&train, k, net::FloatNet::new(shape, hidden, &settings), &settings, &mut |epoch, n| {
            let (t, h) = errors(n);
            eprintln!("epoch {epoch}: {t:.6} training, {h:.6} held out");
            // Without a held-out set the last network is the one kept.
            if held.is_empty() || best.as_ref().is_none_or(|b| h < b.0) {
                best = Some((h, epoch, n.clone()));
            }
        });
        let (_, epoch, network) = best.expect("at least one epoch");
        let (t, h) = errors(&network);
        stdout::line(format_args!("network (epoch {epoch}): {t:.6} training, {h:.6} held out"))?;
        let Some(path) = path else { return Ok(()) };
        let bytes = network.to_file(k, residual).expect("--hidden is the engine's unless a dry run");
        std::fs::write(&path, bytes).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
        stdout::line(format_args!("network written to {}", path.display()))
    })
}

/// The file `relative` (a weights file) of the comb repository around the current directory:
/// the nearest folder, from the current one upward, whose Cargo.toml is the package `comb`
/// and which holds that file. An installed comb so never writes into the clone it was built
/// from.
fn repository_file(relative: &str) -> Option<std::path::PathBuf> {
    let is_comb = |dir: &std::path::Path| {
        std::fs::read_to_string(dir.join("Cargo.toml"))
            .is_ok_and(|text| text.lines().any(|l| l.split_whitespace().collect::<String>() == "name=\"comb\""))
    };
    let here = std::env::current_dir().ok()?;
    let root = here.ancestors().find(|dir| is_comb(dir) && dir.join(relative).is_file())?;
    Some(root.join(relative))
}

/// Fails unless `path` can be written: an existing file is opened for writing (and left as it
/// is), a new one is created and removed again.
fn check_writable(path: &std::path::Path) {
    let result = if std::fs::symlink_metadata(path).is_ok() {
        std::fs::OpenOptions::new().write(true).open(path).map(drop)
    } else {
        std::fs::OpenOptions::new().write(true).create_new(true).open(path).and_then(|_| std::fs::remove_file(path))
    };
    if let Err(e) = result {
        fail(&format!("{}: {e}", path.display()));
    }
}

fn run_uhp(options: Options) {
    let signals = Arc::new(Signals::default());
    let handler_signals = Arc::clone(&signals);
    // SIGINT stops a running search (it then answers its best move); when idle it quits, as
    // Mzinga does.
    let _ = ctrlc::set_handler(move || {
        if !handler_signals.interrupt() {
            std::process::exit(INTERRUPTED.into());
        }
    });
    let stdin = std::io::BufReader::new(std::io::stdin());
    let stdout = std::io::stdout().lock();
    // The engine computes or waits for input all along: a reader gone means nobody left.
    if let Err(e) = computing(|| uhp::run(stdin, stdout, options, signals)) {
        log::error!("i/o error: {e}");
    }
}

/// Standard output's reader has gone (seen by [`exit_when_stdout_closes`]).
static STDOUT_GONE: AtomicBool = AtomicBool::new(false);
/// A command is computing (not writing): what a gone reader ends at once.
static COMPUTING: AtomicBool = AtomicBool::new(false);

/// Runs `work`, a computation whose result goes to standard output, so that it ends the
/// process with status [`stdout::BROKEN_PIPE`] as soon as the reader of standard output is
/// gone. Writes stay outside: a reader that leaves after the last line (`comb perft 3 | head
/// -3`) leaves the exit status 0, and one that leaves before a line makes its write fail, as
/// before. Each side sets its own flag before looking at the other's, so one of them sees both.
fn computing<T>(work: impl FnOnce() -> T) -> T {
    COMPUTING.store(true, SeqCst);
    if STDOUT_GONE.load(SeqCst) {
        std::process::exit(stdout::BROKEN_PIPE.into());
    }
    let result = work();
    COMPUTING.store(false, SeqCst);
    result
}

/// Runs `write`, a write to standard output in the middle of a [`computing`] run (the bench's
/// line after each search), as a write outside it, then goes on computing.
fn writing<T>(write: impl FnOnce() -> T) -> T {
    COMPUTING.store(false, SeqCst);
    let result = write();
    COMPUTING.store(true, SeqCst);
    if STDOUT_GONE.load(SeqCst) {
        std::process::exit(stdout::BROKEN_PIPE.into());
    }
    result
}

/// Watches standard output, on a thread of its own that sleeps in `poll`, for its reader to go,
/// which a pipe reports without a write (`POLLERR`, `POLLHUP`): a search or perft whose answer
/// nobody can read then stops at once (see [`computing`]), not at its far limit (a closed GUI
/// left comb burning every core). A file or `/dev/null` never reports it, and a terminal only
/// when it hangs up.
#[cfg(unix)]
fn exit_when_stdout_closes() {
    std::thread::spawn(|| loop {
        let mut fd = libc::pollfd { fd: libc::STDOUT_FILENO, events: 0, revents: 0 };
        // SAFETY: `fd` is one valid `pollfd`, alive for the whole call.
        let ready = unsafe { libc::poll(&mut fd, 1, -1) };
        if ready < 0 {
            if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return;
        }
        if fd.revents & libc::POLLNVAL != 0 {
            // No standard output at all: nothing to watch.
            return;
        }
        if fd.revents & (libc::POLLERR | libc::POLLHUP) != 0 {
            STDOUT_GONE.store(true, SeqCst);
            if COMPUTING.load(SeqCst) {
                std::process::exit(stdout::BROKEN_PIPE.into());
            }
            return;
        }
    });
}

/// Elsewhere a closed pipe is seen at the next write, as before.
#[cfg(not(unix))]
fn exit_when_stdout_closes() {}

/// Parses the command line, with clap's messages, except that an unknown argument is not
/// told to pass itself as a value after `--` (`--learning-rate -1`, `merge … --rounds 3`: the
/// tip misleads), and an option of a command above the one it was given to says so.
fn parse_cli() -> Cli {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(mut error) => {
            if error.kind() == clap::error::ErrorKind::UnknownArgument {
                explain_unknown_argument(&mut error, &args);
            }
            error.exit()
        }
    }
}

/// Replaces the tips of an unknown-argument error: see [`parse_cli`].
fn explain_unknown_argument(error: &mut clap::Error, args: &[std::ffi::OsString]) {
    use clap::error::{ContextKind, ContextValue};
    use clap::CommandFactory;
    let mut tips = match error.remove(ContextKind::Suggested) {
        Some(ContextValue::StyledStrs(tips)) => tips,
        _ => Vec::new(),
    };
    tips.retain(|tip| !tip.to_string().contains("as a value, use '"));
    let invalid = match error.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) => arg.clone(),
        _ => String::new(),
    };
    if let Some(long) = invalid.strip_prefix("--").and_then(|a| a.split('=').next()) {
        // The subcommands named on the command line, outermost first.
        let root = Cli::command();
        let mut path = vec![&root];
        let mut current = &root;
        for arg in args.iter().skip(1) {
            if let Some(sub) = current.find_subcommand(arg) {
                path.push(sub);
                current = sub;
            }
        }
        let name = |n: usize| path[..n].iter().map(|c| c.get_name()).collect::<Vec<_>>().join(" ");
        let owner = (1..path.len()).rev().find(|&n| path[n - 1].get_arguments().any(|a| a.get_long() == Some(long)));
        if let Some(n) = owner {
            tips.push(format!("'--{long}' is an option of '{}', not of '{}'", name(n), name(path.len())).into());
        }
    }
    if !tips.is_empty() {
        error.insert(ContextKind::Suggested, ContextValue::StyledStrs(tips));
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = parse_cli();
    let options = startup_options(&cli.options, cli.command.as_ref());
    // The commands whose answer goes to standard output and may take long (the tournament
    // watches its own; `tune` must not die before writing its weights).
    let answers_on_stdout = match &cli.command {
        None | Some(Command::Uhp | Command::Bestmove { .. } | Command::Perft { .. } | Command::Bench { .. }) => true,
        Some(Command::Analyze { .. }) => true,
        Some(Command::Selfplay(args)) => args.out.is_none(),
        _ => false,
    };
    if answers_on_stdout {
        exit_when_stdout_closes();
    }
    let status = match cli.command {
        None | Some(Command::Uhp) => {
            run_uhp(options);
            Ok(0)
        }
        Some(Command::Bestmove { depth, time, threads, json, multipv, difficulty, position }) => {
            let mut options = options;
            options.multipv = multipv.unwrap_or(options.multipv);
            options.difficulty = difficulty.unwrap_or(options.difficulty);
            bestmove(&position, BestmoveArgs { depth, time, threads, json }, &options)
        }
        Some(Command::Bench { depth, file, threads }) => bench(file.as_deref(), depth, threads, &options).map(|()| 0),
        Some(Command::Analyze { depth, time, threads, jsonl, opening_plies, games }) => {
            analyze(&games, AnalyzeArgs { depth, time, threads, jsonl, opening_plies }, &options)
        }
        Some(Command::Tournament(args)) => Ok(comb::tournament::run_status(*args)),
        Some(Command::Perft { threads, depth, position }) => perft(threads, depth, &position, &options).map(|()| 0),
        Some(Command::Show { svg, arrows, no_last_move, position }) => {
            show(&position, svg.as_deref(), &arrows, !no_last_move, &options).map(|()| 0)
        }
        Some(Command::Conformance(args)) => Ok(conformance(args)),
        Some(Command::Selfplay(args)) => selfplay(args, &options).map(|()| 0),
        Some(Command::Tune(args)) => tune(args, &options).map(|()| 0),
        Some(Command::TrainNet(args)) => train_net(args, &options).map(|()| 0),
        Some(Command::Serve(args)) => {
            let options =
                comb::serve::ServeOptions { host: args.host, port: args.port, open: args.open, engines: args.engines };
            match comb::serve::run(options) {
                Ok(()) => Ok(0),
                Err(e) => {
                    eprintln!("error: {e}");
                    Ok(2)
                }
            }
        }
    };
    ExitCode::from(status.unwrap_or_else(|e| stdout::exit_status(&e)))
}
