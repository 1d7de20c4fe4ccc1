//! The `comb` command line. With no subcommand it is a UHP engine on stdin/stdout.

use clap::{Parser, Subcommand};
use comb::search::{Engine, Limits};
use comb::uhp::{self, AnyGame, Options, Signals};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

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
    Bestmove {
        /// Search to this depth (plies).
        #[arg(long, conflicts_with = "time")]
        depth: Option<u32>,
        /// Search for this many seconds (fractions allowed).
        #[arg(long)]
        time: Option<f64>,
        /// Search threads, 1 to 256 (default: every core).
        #[arg(long, value_parser = thread_count)]
        threads: Option<usize>,
        /// Print move, score, depth, nodes, time and principal variation as JSON.
        #[arg(long)]
        json: bool,
        /// A game type or GameString (Hive or Intellector).
        position: String,
    },
    /// Search the positions of positions/bench.txt single-threaded at a fixed depth and print
    /// the nodes of each, the total (a checksum of search behaviour) and the speed.
    Bench {
        /// Depth of every search (default: each line's own depth).
        #[arg(long)]
        depth: Option<u32>,
        /// The bench file.
        #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/bench.txt"))]
        file: String,
    },
    /// Count the leaves of the move tree for each depth from 1 to DEPTH.
    Perft {
        /// Worker threads, 1 to 256 (1 = the plain serial count).
        #[arg(long, default_value_t = 1, value_parser = thread_count)]
        threads: usize,
        /// Deepest depth to count.
        depth: usize,
        /// A game type (`Base+MLP`, `Intellector`, `Intellector[<SIP>]`, …) or a GameString.
        #[arg(default_value = "Base+MLP")]
        position: String,
    },
    /// Play engine-against-engine games between UHP engines and report Elo, LOS and SPRT.
    Tournament(Box<comb::tournament::TournamentArgs>),
}

/// Parses `--threads`: thousands of threads would only exhaust the system, so the count is
/// bounded as the search bounds it.
fn thread_count(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=comb::search::MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!("expected a whole number from 1 to {}", comb::search::MAX_THREADS)),
    }
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(2);
}

/// Options from `--option NAME=VALUE` flags.
fn startup_options(flags: &[String]) -> Options {
    let mut options = Options::default();
    for flag in flags {
        let Some((name, value)) = flag.split_once('=') else { fail(&format!("--option {flag}: expected NAME=VALUE")) };
        if let Err(e) = options.set(name.trim(), value.trim()) {
            fail(e.reply().trim_start_matches("err "));
        }
    }
    options
}

fn load(position: &str, options: &Options) -> AnyGame {
    AnyGame::from_type_or_string(position, options.intellector_rules).unwrap_or_else(|e| fail(&e.to_string()))
}

/// `comb bench`: every line of the bench file is `depth<TAB>position`.
fn bench(file: &str, depth: Option<u32>, options: &Options) {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| fail(&format!("{file}: {e}")));
    let never = AtomicBool::new(false);
    let (mut total_nodes, mut total_time) = (0u64, 0f64);
    let mut engine = Engine::new(16, 1);
    for (i, line) in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).enumerate() {
        let (line_depth, position) = line.split_once('\t').unwrap_or_else(|| fail(&format!("bad bench line {line}")));
        let d = depth.unwrap_or_else(|| line_depth.trim().parse().unwrap_or_else(|_| fail("bad depth in bench file")));
        let game = load(position, options);
        engine.new_game();
        let r = game.search(&mut engine, Limits::depth(d), &never, &mut |_| {});
        let secs = r.time.as_secs_f64();
        println!(
            "{:>2} {:>10} nodes {:>8.3} s  depth {:>2}  {:<12} {}",
            i + 1,
            r.nodes,
            secs,
            r.depth,
            r.best,
            abbreviate(position)
        );
        total_nodes += r.nodes;
        total_time += secs;
    }
    println!("total {total_nodes} nodes {total_time:.3} s {:.0} nodes/s", total_nodes as f64 / total_time.max(1e-9));
}

fn abbreviate(position: &str) -> String {
    let fields: Vec<&str> = position.split(';').collect();
    match fields.len() {
        0..=3 => position.to_string(),
        n => format!("{};{} ({} moves)", fields[0], fields[2], n - 3),
    }
}

fn run_uhp(options: Options) {
    let signals = Arc::new(Signals::default());
    let handler_signals = Arc::clone(&signals);
    // SIGINT stops a running search (it then answers its best move); when idle it quits, as
    // Mzinga does.
    let _ = ctrlc::set_handler(move || {
        if !handler_signals.interrupt() {
            std::process::exit(130);
        }
    });
    let stdin = std::io::BufReader::new(std::io::stdin());
    let stdout = std::io::stdout().lock();
    if let Err(e) = uhp::run(stdin, stdout, options, signals) {
        log::error!("i/o error: {e}");
    }
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let options = startup_options(&cli.options);
    match cli.command {
        None | Some(Command::Uhp) => run_uhp(options),
        Some(Command::Bestmove { depth, time, threads, json, position }) => {
            let game = load(&position, &options);
            if game.is_over() {
                fail("the game is over");
            }
            let limits = match (depth, time) {
                (Some(d), _) => Limits::depth(d.max(1)),
                // `try_from` also refuses what no clock can hold (1e30 seconds).
                (None, Some(t)) => match Duration::try_from_secs_f64(t) {
                    Ok(d) if d > Duration::ZERO => Limits::time(d),
                    _ => fail("--time takes a positive number of seconds"),
                },
                (None, None) => Limits::depth(6),
            };
            let mut engine = Engine::new(options.table_megabytes, threads.unwrap_or_else(|| options.threads()));
            let never = AtomicBool::new(false);
            let result = game.search(&mut engine, limits, &never, &mut |_| {});
            if json {
                println!("{}", result.to_json());
            } else {
                println!("{}", result.best);
            }
        }
        Some(Command::Bench { depth, file }) => bench(&file, depth, &options),
        Some(Command::Tournament(args)) => std::process::exit(comb::tournament::run_status(*args).into()),
        Some(Command::Perft { threads, depth, position }) => {
            let game = load(&position, &options);
            let pool =
                rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap_or_else(|e| fail(&e.to_string()));
            let never = std::sync::atomic::AtomicBool::new(false);
            for d in 1..=depth {
                let start = Instant::now();
                let n = if threads > 1 {
                    pool.install(|| game.perft_parallel(d))
                } else {
                    game.perft(d, &never).expect("never stopped")
                };
                let secs = start.elapsed().as_secs_f64();
                println!("{d}: {n}  {secs:.3} s  {:.1} M/s", n as f64 / secs.max(1e-9) / 1e6);
            }
        }
    }
}
