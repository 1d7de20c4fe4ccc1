//! `comb conformance`: a suite of cases run against any UHP engine, then a timed random walk
//! that compares the engine's move generation with comb's rules.
//!
//! - [`cases`]: the case file (`positions/conformance.txt`), read and checked with comb's rules;
//! - [`check`]: one case run against the engine (set-up, command, comparison);
//! - [`moves`]: moves and GameStrings compared as positions, not as text;
//! - [`walk`]: the seeded random walk;
//! - [`report`]: the lines printed and the summary.
//!
//! This is a client of an engine process ([`crate::client::EngineProcess`]); the rules
//! enter only through comb's notation and move generator, to read and compare what the engine
//! says.

pub mod cases;
pub mod check;
pub mod moves;
pub mod report;
pub mod walk;

use crate::client::{EngineConfig, EngineError, EngineProcess, EngineSlot, Timeouts};
use crate::hive::GameType;
use report::{ConformanceSummary, ReportLine};
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The suite, `positions/conformance.txt` as it was when comb was built: built in, so that an
/// installed binary needs no clone of the repository.
pub const CASES: &str = include_str!("../../positions/conformance.txt");

/// What `comb conformance` is asked to do.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The engine's program.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The case file (`None`: the suite built into the binary, [`CASES`]).
    pub file: Option<PathBuf>,
    /// Deviation tags whose failures are allowed.
    pub allow: Vec<String>,
    /// Only the cases whose name matches this pattern, where `*` matches any text (the walk's
    /// name is `walk`).
    pub case: Option<String>,
    /// Length of the random walk (zero: none).
    pub walk_time: Duration,
    /// Seed of the random walk.
    pub seed: u64,
    /// The walk's game type (default: all eight, one drawn per game).
    pub game_type: Option<GameType>,
    /// The wait for each reply.
    pub timeout: Duration,
}

/// Why the suite could not run at all (exit status 2).
#[derive(Debug)]
pub enum SetupError {
    /// The case file could not be read.
    File(PathBuf, io::Error),
    /// The case file has a mistake.
    Case(cases::CaseError),
    /// An `--allow` tag that no case and no walk check knows (a typo would allow nothing).
    UnknownTag(String),
    /// `--case` matches no case.
    NoCase(String),
    /// The engine did not start or did not introduce itself.
    Engine(String, EngineError),
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::File(path, e) => write!(f, "{}: {e}", path.display()),
            SetupError::Case(e) => e.fmt(f),
            SetupError::UnknownTag(tag) => write!(f, "--allow {tag}: no case declares that deviation"),
            SetupError::NoCase(pattern) => write!(f, "--case {pattern}: no case has that name"),
            SetupError::Engine(command, e) => write!(f, "engine `{command}`: {e}"),
        }
    }
}

impl std::error::Error for SetupError {}

/// The engine process the cases talk to, started when first needed and again after a case
/// that crashed it, hung it or closed its input.
pub struct EngineUnderTest {
    slot: EngineSlot,
    /// The wait for each reply.
    pub timeout: Duration,
}

impl EngineUnderTest {
    /// The engine `program args…`, named `engine`; nothing is started yet.
    pub fn new(program: &str, args: &[String], timeout: Duration) -> EngineUnderTest {
        let config = EngineConfig { name: "engine".to_string(), ..EngineConfig::new(program, args) };
        EngineUnderTest { slot: EngineSlot::new(Arc::new(config), Arc::new(AtomicBool::new(false))), timeout }
    }

    /// The engine's command line.
    pub fn command_line(&self) -> String {
        self.slot.config().command_line()
    }

    /// The running engine, started if need be (it introduces itself first).
    pub fn engine(&mut self) -> Result<&mut EngineProcess, EngineError> {
        self.slot.engine(&Timeouts { command: self.timeout, ..Timeouts::default() })
    }

    /// Sends one command and reads its whole reply up to `ok`.
    pub fn exchange(&mut self, command: &str) -> Result<Vec<String>, EngineError> {
        let timeout = self.timeout;
        self.engine()?.exchange(command, timeout)
    }

    /// Ends the engine (killing it if need be); the next exchange starts a new one.
    pub fn discard(&mut self) {
        self.slot.discard();
    }

    /// Asks the engine to exit, if it is running.
    pub fn quit(&mut self) {
        self.slot.shutdown();
    }
}

/// The line of a case's result, with `--allow` applied.
fn judge(case: &cases::Case, verdict: check::Verdict, allow: &[String]) -> ReportLine {
    let result = match verdict {
        Ok(()) => report::Result::Pass,
        Err(difference) => match case.allow.iter().find(|t| allow.contains(t)) {
            Some(tag) => report::Result::Allowed { tag: tag.clone(), difference },
            None => report::Result::Fail(difference),
        },
    };
    ReportLine { name: case.name.clone(), result, note: None }
}

/// The walk's line.
fn walk_line(walk: &walk::Walk, settings: &Settings) -> ReportLine {
    let result = match &walk.failure {
        None => report::Result::Pass,
        Some((_, text)) => report::Result::Fail(text.clone()),
    };
    let mut note = format!(
        "{} games, {} positions in {} s, seed {}",
        walk.games,
        walk.positions,
        settings.walk_time.as_secs_f64(),
        settings.seed
    );
    for (tag, n) in &walk.allowed {
        note.push_str(&format!("; allowed {tag} {n} times"));
    }
    ReportLine { name: "walk".to_string(), result, note: Some(note) }
}

/// Runs the suite, printing a line per case to `out`, and returns the summary.
pub fn run(settings: &Settings, out: &mut dyn Write) -> Result<ConformanceSummary, RunError> {
    let (text, name) = match &settings.file {
        Some(file) => {
            (std::fs::read_to_string(file).map_err(|e| SetupError::File(file.clone(), e))?, file.display().to_string())
        }
        None => (CASES.to_string(), "positions/conformance.txt".to_string()),
    };
    let all = cases::parse(&text, &name).map_err(SetupError::Case)?;
    for tag in &settings.allow {
        if !all.iter().any(|c| c.allow.contains(tag)) && !walk::TAGS.contains(&tag.as_str()) {
            return Err(SetupError::UnknownTag(tag.clone()).into());
        }
    }
    let selected: Vec<&cases::Case> =
        all.iter().filter(|c| settings.case.as_ref().is_none_or(|p| cases::glob(p, &c.name))).collect();
    let walk_selected = settings.case.as_ref().is_none_or(|p| cases::glob(p, "walk"));
    if selected.is_empty() && !walk_selected {
        return Err(SetupError::NoCase(settings.case.clone().unwrap_or_default()).into());
    }
    let mut session = EngineUnderTest::new(&settings.program, &settings.args, settings.timeout);
    // An engine that cannot start at all is a set-up error, not ninety failed cases.
    let command_line = session.command_line();
    session.engine().map_err(|e| SetupError::Engine(command_line, e))?;
    let mut summary = ConformanceSummary::default();
    for case in selected {
        let line = judge(case, check::run(&mut session, case), &settings.allow);
        summary.add(&line);
        writeln!(out, "{line}")?;
    }
    if walk_selected && !settings.walk_time.is_zero() {
        let game_types = match settings.game_type {
            Some(t) => vec![t],
            None => GameType::all(),
        };
        let walk_settings = walk::WalkSettings {
            time: settings.walk_time,
            seed: settings.seed,
            game_types,
            max_plies: 150,
            command_line: session.command_line(),
        };
        let walk = walk::run(&mut session, &walk_settings, &settings.allow);
        let line = walk_line(&walk, settings);
        summary.add(&line);
        for (tag, _) in &walk.allowed {
            if !summary.tags.contains(tag) {
                summary.tags.push(tag.clone());
            }
        }
        writeln!(out, "{line}")?;
    }
    writeln!(out, "{summary}")?;
    session.quit();
    Ok(summary)
}

/// Why a run stopped.
#[derive(Debug)]
pub enum RunError {
    /// It could not start (exit status 2).
    Setup(SetupError),
    /// Standard output failed.
    Output(io::Error),
}

impl From<SetupError> for RunError {
    fn from(e: SetupError) -> RunError {
        RunError::Setup(e)
    }
}

impl From<io::Error> for RunError {
    fn from(e: io::Error) -> RunError {
        RunError::Output(e)
    }
}

/// Runs the suite on standard output and returns the exit status: 0 when every case passed
/// (allowed deviations included), 1 when some failed, 2 when the suite could not run.
pub fn run_status(settings: &Settings) -> u8 {
    let stdout = io::stdout();
    let mut out = io::LineWriter::new(stdout.lock());
    match run(settings, &mut out) {
        Ok(summary) => summary.status(),
        Err(RunError::Setup(e)) => {
            eprintln!("error: {e}");
            2
        }
        Err(RunError::Output(e)) => crate::stdout::exit_status(&e),
    }
}
