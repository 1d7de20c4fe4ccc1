//! The `comb` command line.

use clap::{Parser, Subcommand};
use comb::hive::HiveGame;
use comb::perft;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "comb", version, about = "A Hive (UHP) and Intellector engine")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
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
}

fn main() {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft { threads, depth, position }) => {
            let game = match HiveGame::parse(&position).or_else(|_| HiveGame::parse(&format!("{position};;"))) {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("error: {e}");
                    std::process::exit(2);
                }
            };
            let mut hive = game.hive().clone();
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
        None => {}
    }
}
