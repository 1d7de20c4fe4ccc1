//! The run: prepare the tournament, print its set-up, count the games a resumed run keeps, play
//! the rest of the schedule while writing and printing each game as it finishes, stop at an SPRT
//! verdict, on Ctrl+C or when standard output is closed, and print the results.

use super::args::TournamentArgs;
use super::error::RunError;
use super::files::GameFiles;
use super::referee::{PlayError, PlayedGame};
use super::report::{self, TournamentTally};
use super::schedule::{self, GameSpec, Outcome};
use super::setup::{self, Tournament};
use super::GameRecord;
use crate::client::EngineConfig;
use crate::stdout;
use std::collections::HashSet;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::Arc;
use std::time::Instant;

/// Runs `comb tournament`. Exit status: 0 when the schedule or the SPRT finished, 1 when the run
/// failed part-way (an output file could not be written), 2 for a bad set-up (an unwritable
/// output file included), 130 after Ctrl+C, 141 when the reader of standard output went away
/// (the run stops quietly, see [`stdout`]).
pub fn run(args: TournamentArgs) -> ExitCode {
    ExitCode::from(run_status(args))
}

/// [`run`], with the exit status as a number (for a caller that ends the process itself).
pub fn run_status(args: TournamentArgs) -> u8 {
    match args.merge_args() {
        Some(Ok(merge)) => return super::merge::run_status(merge),
        Some(Err(stray)) => {
            eprintln!(
                "error: {} {} of a run, not of `comb tournament merge`, which takes the shards' JSONL \
                 files and --pgn, --jsonl, --event and --site",
                stray.join(", "),
                if stray.len() == 1 { "is an option" } else { "are options" }
            );
            return 2;
        }
        None => {}
    }
    let stop = Arc::new(AtomicBool::new(false));
    let tournament = match setup::prepare(&args, &stop) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let interrupted = stop_on_ctrl_c(&stop);
    let result = play(tournament, &stop);
    exit_status(result, interrupted.load(SeqCst))
}

/// Makes the first Ctrl+C end the run after abandoning the running games (the results so far
/// are printed), and a second one quit at once. Returns the flag that says it was pressed.
fn stop_on_ctrl_c(stop: &Arc<AtomicBool>) -> Arc<AtomicBool> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let (stop, pressed) = (Arc::clone(stop), Arc::clone(&interrupted));
    let _ = ctrlc::set_handler(move || {
        if pressed.swap(true, SeqCst) {
            std::process::exit(130);
        }
        eprintln!("Interrupted: stopping (press Ctrl+C again to quit at once)");
        stop.store(true, SeqCst);
    });
    interrupted
}

/// The exit status of a run that got past its set-up (see [`run`]).
fn exit_status(result: Result<(), RunError>, interrupted: bool) -> u8 {
    match result {
        Ok(()) if interrupted => 130,
        Ok(()) => 0,
        Err(RunError::Stdout(e)) => stdout::exit_status(&e),
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

/// Prints the set-up, counts the games a resumed run keeps, plays the rest of the schedule (or
/// of the shard's part of it) while taking in each game, and prints the results.
fn play(t: Tournament, stop: &Arc<AtomicBool>) -> Result<(), RunError> {
    stdout::block(&report::header(&t)).map_err(RunError::Stdout)?;
    let Tournament {
        engines,
        game_type,
        rules,
        concurrency,
        sprt,
        rating_interval,
        files,
        pairings,
        games,
        shard,
        resume,
        ..
    } = t;
    // A shard cannot stop the others: it plays its whole part, and the test's verdict is the
    // merge's (`comb tournament merge`), over the games of every shard.
    let names = engines.iter().map(|e| e.name.clone()).collect();
    let mut tally = TournamentTally::new(names, &pairings, sprt.as_ref(), shard.is_none());
    let kept = resume.map(|r| r.kept).unwrap_or_default();
    // The kept games are counted as they were before the interruption, so the SPRT sees what it
    // saw then; if it decided among them, nothing more is played.
    let decision = tally.keep(&kept);
    let total = games.len();
    let mut progress = Progress::new(&engines, &game_type, tally, rating_interval, files, total);
    for record in &kept {
        progress.files.write_kept(record)?;
    }
    let finished: HashSet<usize> = kept.iter().map(|r| r.number).collect();
    let games: Vec<GameSpec> = games.into_iter().filter(|g| !finished.contains(&g.number)).collect();
    if let Some(text) = decision {
        stdout::block(&text).map_err(RunError::Stdout)?;
        return progress.finish();
    }
    if games.is_empty() {
        return progress.finish();
    }
    schedule::run(games, &engines, &game_type, &rules, concurrency, stop, |outcome| {
        // Once stopping (SPRT verdict, Ctrl+C, an error), games that still finish are left out,
        // so the results are those at the moment of the decision.
        !stop.load(SeqCst) && progress.take(outcome)
    });
    progress.finish()
}

/// The run so far: the games taken in, and why it stops, if it does.
struct Progress<'a> {
    engines: &'a [Arc<EngineConfig>],
    /// Each engine's limit as the game files write it.
    limits: Vec<String>,
    game_type: &'a str,
    files: GameFiles,
    tally: TournamentTally<'a>,
    /// Games to play.
    total: usize,
    rating_interval: usize,
    started: Instant,
    /// What ended the run early, if anything did.
    failure: Option<RunError>,
}

impl<'a> Progress<'a> {
    /// A run of `total` games counted by `tally`, nothing taken in yet; the clock starts now.
    fn new(
        engines: &'a [Arc<EngineConfig>],
        game_type: &'a str,
        tally: TournamentTally<'a>,
        rating_interval: usize,
        files: GameFiles,
        total: usize,
    ) -> Progress<'a> {
        Progress {
            engines,
            limits: engines.iter().map(|e| e.limit.describe()).collect(),
            game_type,
            files,
            tally,
            total,
            rating_interval,
            started: Instant::now(),
            failure: None,
        }
    }

    /// Takes in a game as a worker reports it. Returns whether the run goes on.
    fn take(&mut self, (spec, result): Outcome) -> bool {
        let taken = match result {
            Ok(played) => self.take_game(spec, played),
            Err(PlayError::Aborted) => return true,
            Err(PlayError::Setup(reason)) => Err(RunError::Game { number: spec.number, reason }),
        };
        taken.unwrap_or_else(|error| {
            self.failure = Some(error);
            false
        })
    }

    /// Writes, counts and prints a played game, then lets the SPRT decide. Returns whether the
    /// run goes on.
    fn take_game(&mut self, spec: GameSpec, played: PlayedGame) -> Result<bool, RunError> {
        let record = self.record(spec, played);
        self.files.write(&record)?;
        let decision = self.tally.add(&record);
        let done = self.tally.standings().games();
        // What this game adds to the output, printed in one write.
        let kept = self.tally.kept();
        let mut text = report::game_lines(&record, done, self.total, kept, self.started.elapsed());
        if self.rating_interval > 0 && done.is_multiple_of(self.rating_interval) && done < self.total {
            text.push_str(&self.tally.block());
        }
        let stops = decision.is_some();
        text.extend(decision);
        // When nobody reads the results any more, the run stops playing for them.
        stdout::block(&text).map_err(RunError::Stdout)?;
        Ok(!stops)
    }

    /// Everything known about a played game.
    fn record(&self, spec: GameSpec, played: PlayedGame) -> GameRecord {
        GameRecord {
            number: spec.number,
            round: spec.round,
            pair: spec.pair,
            white: spec.white,
            black: spec.black,
            white_name: self.engines[spec.white].name.clone(),
            black_name: self.engines[spec.black].name.clone(),
            white_limit: self.limits[spec.white].clone(),
            black_limit: self.limits[spec.black].clone(),
            game_type: self.game_type.to_string(),
            opening: spec.opening.as_deref().map(str::to_string),
            played,
        }
    }

    /// Prints the results, unless standard output failed, and reports what ended the run early.
    fn finish(self) -> Result<(), RunError> {
        let elapsed = self.started.elapsed();
        if let Some(error @ RunError::Stdout(_)) = self.failure {
            return Err(error);
        }
        let text = self.tally.final_block(self.total, elapsed);
        stdout::block(&text).map_err(RunError::Stdout)?;
        self.failure.map_or(Ok(()), Err)
    }
}
