//! The `comb` command line. With no subcommand it is a UHP engine on stdin/stdout.

use clap::{Parser, Subcommand};
use comb::hive::HiveGame;
use comb::perft;
use comb::uhp::{self, Options, Signals};
use std::sync::Arc;
use std::time::Instant;

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
    /// Count the leaves of the move tree for each depth from 1 to DEPTH.
    Perft {
        /// Worker threads (1 = the plain serial count).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Deepest depth to count.
        depth: usize,
        /// A GameTypeString or GameString.
        #[arg(default_value = "Base+MLP")]
        position: String,
    },
    /// Play engine-against-engine games between UHP engines and report Elo, LOS and SPRT.
    Tournament(Box<comb::tournament::TournamentArgs>),
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

fn load_hive(position: &str) -> HiveGame {
    // A bare GameTypeString is a GameString without moves.
    HiveGame::parse(position)
        .or_else(|e| HiveGame::parse(&format!("{position};NotStarted;White[1]")).map_err(|_| e))
        .unwrap_or_else(|e| fail(&e.to_string()))
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
        Some(Command::Tournament(args)) => std::process::exit(comb::tournament::run_status(*args).into()),
        Some(Command::Perft { threads, depth, position }) => {
            let mut hive = load_hive(&position).hive().clone();
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build().expect("thread pool");
            let mut buffers = Vec::new();
            for d in 1..=depth {
                let start = Instant::now();
                let n = if threads > 1 {
                    pool.install(|| perft::perft_parallel(&hive, d))
                } else {
                    perft::perft(&mut hive, d, &mut buffers)
                };
                let secs = start.elapsed().as_secs_f64();
                println!("{d}: {n}  {secs:.3} s  {:.1} M/s", n as f64 / secs.max(1e-9) / 1e6);
            }
        }
    }
}
