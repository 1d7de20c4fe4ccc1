//! The run: prepare the tournament, print its set-up, play the schedule while writing and
//! printing each game as it finishes, stop at an SPRT verdict, on Ctrl+C or when standard output
//! is closed, and print the results.

use super::args::TournamentArgs;
use super::engine::EngineConfig;
use super::error::RunError;
use super::files::GameFiles;
use super::referee::{PlayError, PlayedGame};
use super::report::{self, Standings};
use super::schedule::{self, GameSpec, Outcome};
use super::setup::{self, Tournament};
use super::stats::{Sprt, Verdict};
use super::{stdout, GameRecord};
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

/// Prints the set-up, plays the schedule (or the shard's part of it) while taking in each game,
/// and prints the results.
fn play(t: Tournament, stop: &Arc<AtomicBool>) -> Result<(), RunError> {
    stdout::block(&report::header(&t)).map_err(RunError::Stdout)?;
    let Tournament {
        engines, game_type, rules, concurrency, sprt, rating_interval, files, pairings, games, shard, ..
    } = t;
    // A shard cannot stop the others: it plays its whole part, and the test's verdict is the
    // merge's (`comb tournament merge`), over the games of every shard.
    let stops_at_verdict = shard.is_none();
    let (sprt, total) = (sprt.as_ref(), games.len());
    let mut progress = Progress::new(&engines, &game_type, sprt, rating_interval, files, &pairings, total);
    progress.stops_at_verdict = stops_at_verdict;
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
    names: Vec<String>,
    /// Each engine's limit as the game files write it.
    limits: Vec<String>,
    game_type: &'a str,
    files: GameFiles,
    standings: Standings,
    sprt: Option<&'a Sprt>,
    verdict: Verdict,
    /// Whether an SPRT verdict ends the run (not in a shard).
    stops_at_verdict: bool,
    /// Games scheduled.
    total: usize,
    rating_interval: usize,
    started: Instant,
    /// What ended the run early, if anything did.
    failure: Option<RunError>,
}

impl<'a> Progress<'a> {
    /// A run of `total` games over `pairings`, nothing taken in yet; the clock starts now.
    fn new(
        engines: &'a [Arc<EngineConfig>],
        game_type: &'a str,
        sprt: Option<&'a Sprt>,
        rating_interval: usize,
        files: GameFiles,
        pairings: &[(usize, usize)],
        total: usize,
    ) -> Progress<'a> {
        let names: Vec<String> = engines.iter().map(|e| e.name.clone()).collect();
        Progress {
            engines,
            standings: Standings::new(names.clone(), pairings),
            names,
            limits: engines.iter().map(|e| e.limit.describe()).collect(),
            game_type,
            files,
            sprt,
            verdict: Verdict::Continue,
            stops_at_verdict: true,
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
        self.standings.add(&record);
        let done = self.standings.games();
        // What this game adds to the output, printed in one write.
        let mut text = report::game_lines(&record, done, self.total, self.started.elapsed());
        if self.rating_interval > 0 && done.is_multiple_of(self.rating_interval) && done < self.total {
            text.push_str(&self.standings.block(self.sprt));
        }
        let decision = self.sprt_decision();
        if let Some(llr) = decision {
            text.push_str(&report::sprt_decision_line(self.verdict, done, llr));
            text.push('\n');
        }
        // When nobody reads the results any more, the run stops playing for them.
        stdout::block(&text).map_err(RunError::Stdout)?;
        Ok(decision.is_none())
    }

    /// The SPRT step: with a test and no verdict yet, the test looks at the pairs so far. At a
    /// verdict the run stops; returns the LLR it was reached at.
    fn sprt_decision(&mut self) -> Option<f64> {
        let sprt = self.sprt.filter(|_| self.stops_at_verdict && self.verdict == Verdict::Continue)?;
        let llr = sprt.llr_pentanomial(&self.standings.pairings()[0].ptnml);
        self.verdict = sprt.verdict(llr);
        (self.verdict != Verdict::Continue).then_some(llr)
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
        let sprt = self.sprt.map(|s| (s, self.verdict));
        let text = report::final_block(&self.names, &self.standings, self.total, sprt, elapsed);
        stdout::block(&text).map_err(RunError::Stdout)?;
        self.failure.map_or(Ok(()), Err)
    }
}
