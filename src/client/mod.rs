//! The UHP client: an engine process spoken to over the Universal Hive Protocol, as the
//! tournament, `comb conformance` and the web board drive one.
//!
//! - [`EngineProcess::spawn`] starts a command line (split into words by [`split_words`]) and
//!   reads the engine's introduction (`id …`, its capabilities, `ok`);
//!   [`EngineProcess::start`] starts an [`EngineConfig`] and then sets its UHP options.
//! - [`EngineProcess::command`] sends one command and returns the lines before `ok`; an
//!   `err …` or `invalidmove …` line makes it an [`EngineError::Protocol`].
//!   [`EngineProcess::exchange`] returns every line up to `ok`, whatever they say.
//! - Every read has a deadline: no complete reply in time is an [`EngineError::Timeout`], a
//!   process that ends or closes its output an [`EngineError::Crash`], and a shared stop flag
//!   ends any wait with [`EngineError::Aborted`].
//! - [`EngineProcess::best_move`] tells the engine the position (see [`Sync`]) and asks for a
//!   move under its [`Limit`].
//! - Dropping an `EngineProcess` kills it, with every process it started;
//!   [`EngineProcess::quit`] asks it to exit first.
//! - [`EngineSlot`] keeps one process from game to game and starts a fresh one after a failure.
//!
//! ```no_run
//! use comb::client::EngineProcess;
//! use std::time::Duration;
//!
//! let wait = Duration::from_secs(10);
//! let mut engine = EngineProcess::spawn("comb --option MaxHelperThreads=None", wait)?;
//! println!("talking to {}", engine.id().unwrap_or("an engine without an id"));
//! engine.command("newgame Base+MLP", wait)?;
//! let reply = engine.command("bestmove depth 2", Duration::from_secs(60))?;
//! println!("it plays {}", reply.last().map_or("nothing", String::as_str));
//! # Ok::<(), comb::client::EngineError>(())
//! ```
//!
//! Standard output is read on a thread of its own that forwards lines over a channel, so every
//! read can wait with a deadline (`recv_timeout`) and notice the stop flag. Standard error is
//! drained on another thread into a short tail that goes into failure transcripts.

mod text;

pub use text::{shown, SHOWN_CHARS};

use crate::lines::LineReader;
use std::collections::VecDeque;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long an engine may think about one move.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Limit {
    /// `bestmove depth N`.
    Depth(u32),
    /// `bestmove time hh:mm:ss.fff` (or `bestmove seconds S`, see [`TimeCommand`]).
    MoveTime(Duration),
}

/// How a move time is asked for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum TimeCommand {
    /// `bestmove time hh:mm:ss[.fff]`, the protocol's form (Mzinga, comb).
    #[default]
    Time,
    /// `bestmove seconds S.sss`, nokamute's extension: nokamute reads `time` in whole seconds
    /// only, so sub-second move times need this.
    Seconds,
}

impl Limit {
    /// The UHP command that asks for a move under this limit.
    pub fn command(&self, time_command: TimeCommand) -> String {
        match (self, time_command) {
            (Limit::Depth(d), _) => format!("bestmove depth {d}"),
            (Limit::MoveTime(t), TimeCommand::Time) => format!("bestmove time {}", hms(*t)),
            (Limit::MoveTime(t), TimeCommand::Seconds) => format!("bestmove seconds {:.3}", t.as_secs_f64()),
        }
    }

    /// How the limit is written on the command line (`depth=3`, `movetime=0.5`).
    pub fn describe(&self) -> String {
        match self {
            Limit::Depth(d) => format!("depth={d}"),
            Limit::MoveTime(t) => format!("movetime={}", t.as_secs_f64()),
        }
    }
}

/// `hh:mm:ss`, with `.fff` only when there are milliseconds: engines that read the plain form
/// strictly (it is what the protocol documents) keep working for whole seconds.
pub fn hms(t: Duration) -> String {
    let ms = t.as_millis();
    let (h, m, s, f) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
    if f == 0 {
        format!("{h:02}:{m:02}:{s:02}")
    } else {
        format!("{h:02}:{m:02}:{s:02}.{f:03}")
    }
}

/// How an engine is told the position before each move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Sync {
    /// `newgame <GameString>` with the whole game before every move: robust, and cheap for
    /// engines that load a position quickly.
    NewGame,
    /// `newgame` once per game, then `play <MoveString>` for every move played since: for
    /// engines whose `newgame` is slow (nokamute reallocates its hash table).
    Play,
}

/// The position an engine is asked to move in.
#[derive(Copy, Clone, Debug)]
pub struct Position<'a> {
    /// The GameString the game started from (an opening, or an empty board).
    pub start: &'a str,
    /// Every MoveString played since `start`.
    pub moves: &'a [String],
    /// The GameString of the current position.
    pub current: &'a str,
}

/// Splits a command line into words as a POSIX shell does, without expanding anything (the
/// `shlex` crate): blanks separate words, `'…'` and `"…"` group, a backslash takes the next
/// character as it is (inside `"…"` only before `$`, `` ` ``, `"` and `\\`), and a word that
/// starts with `#` begins a comment. `None` for an unbalanced quote or a backslash at the end.
pub fn split_words(command_line: &str) -> Option<Vec<String>> {
    shlex::split(command_line)
}

/// Everything needed to start an engine and play with it.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    /// The name in results and files (unique within a tournament).
    pub name: String,
    /// The program to run.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory, if not the runner's.
    pub dir: Option<PathBuf>,
    /// UHP options set after start-up, in order, with `options set NAME VALUE`.
    pub options: Vec<(String, String)>,
    /// The limit for every move.
    pub limit: Limit,
    /// How the engine learns the position.
    pub sync: Sync,
    /// How a move time is asked for.
    pub time_command: TimeCommand,
}

impl EngineConfig {
    /// The engine `program args…`, named after the program, run in the current directory with
    /// no options set, moving at depth 1 and told positions with `newgame`: change the fields
    /// that should differ.
    pub fn new(program: &str, args: &[String]) -> EngineConfig {
        EngineConfig {
            name: program.to_string(),
            program: program.to_string(),
            args: args.to_vec(),
            dir: None,
            options: Vec::new(),
            limit: Limit::Depth(1),
            sync: Sync::NewGame,
            time_command: TimeCommand::Time,
        }
    }

    /// The command line, for messages.
    pub fn command_line(&self) -> String {
        std::iter::once(self.program.as_str()).chain(self.args.iter().map(String::as_str)).collect::<Vec<_>>().join(" ")
    }
}

/// How long to wait for an engine.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Timeouts {
    /// For start-up, `options set` and `newgame`.
    pub command: Duration,
    /// Added to a move time before the engine counts as hung.
    pub margin: Duration,
    /// The whole wait for a move under a depth limit (which has no time of its own).
    pub depth: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts { command: Duration::from_secs(10), margin: Duration::from_secs(1), depth: Duration::from_secs(60) }
    }
}

impl Timeouts {
    /// The wait for one `bestmove` under `limit`.
    pub fn for_move(&self, limit: Limit) -> Duration {
        match limit {
            Limit::Depth(_) => self.depth,
            Limit::MoveTime(t) => t + self.margin,
        }
    }
}

/// Why an exchange with an engine failed. Each ends the game as a loss for that engine.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineError {
    /// The process could not be started.
    Spawn(String),
    /// The working directory given with `dir=` does not exist or is not a directory (the
    /// system reports that as a missing program, which would blame the wrong path).
    NoDirectory(PathBuf),
    /// The process ended or closed its pipes.
    Crash(String),
    /// No complete reply within the time allowed.
    Timeout(Duration),
    /// A reply the protocol does not allow (`err …`, `invalidmove …`, no move).
    Protocol(String),
    /// The tournament is stopping.
    Aborted,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Spawn(m) => write!(f, "could not start: {m}"),
            EngineError::NoDirectory(dir) => {
                write!(
                    f,
                    "could not start: the working directory `{}` does not exist or is not a directory",
                    dir.display()
                )
            }
            EngineError::Crash(m) => write!(f, "crashed ({m})"),
            EngineError::Timeout(t) => write!(f, "timed out (no reply within {:.1} s)", t.as_secs_f64()),
            EngineError::Protocol(m) => write!(f, "protocol error ({})", shown(m)),
            EngineError::Aborted => f.write_str("aborted"),
        }
    }
}

impl std::error::Error for EngineError {}

/// What an engine did after its input was closed ([`EngineProcess::close_input`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputClosed {
    /// How it exited (`code 0`), or `None` if it was still running at the deadline.
    pub exited: Option<String>,
    /// Lines it printed after its input closed.
    pub lines: usize,
    /// The first of them.
    pub first_line: Option<String>,
}

/// Longest output line kept; the rest of a longer line is dropped.
const MAX_LINE: usize = 1 << 20;
/// Most lines accepted in one reply, so an engine printing forever is caught before the deadline.
const MAX_REPLY_LINES: usize = 100_000;
/// Transcript lines kept per game (the oldest are dropped beyond this).
const MAX_TRANSCRIPT: usize = 5_000;
/// Standard-error lines kept.
const STDERR_TAIL: usize = 50;
/// How often a wait looks at the stop flag.
const POLL: Duration = Duration::from_millis(50);

/// A running engine process.
pub struct EngineProcess {
    config: Arc<EngineConfig>,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    id: Option<String>,
    capabilities: Option<String>,
    /// With [`Sync::Play`]: how many moves after the start the engine's own game holds.
    synced: Option<usize>,
    transcript: VecDeque<String>,
    stop: Arc<AtomicBool>,
}

/// Reads `input` line by line into `sink` until end of input or until `sink` returns false;
/// lines longer than [`MAX_LINE`] are cut and bytes that are not UTF-8 become U+FFFD.
fn pump<R: Read>(input: R, mut sink: impl FnMut(String) -> bool) {
    let mut lines = LineReader::new(input, MAX_LINE);
    // A read error ends the stream as its end does.
    while let Ok(Some(line)) = lines.next_line() {
        if !sink(line.text()) {
            return;
        }
    }
}

impl EngineProcess {
    /// Starts `command_line` (program and arguments, see [`split_words`]) in the current
    /// directory and reads its `info` block, waiting up to `timeout` for it. Its waits have no
    /// stop flag: only their deadlines end them.
    pub fn spawn(command_line: &str, timeout: Duration) -> Result<EngineProcess, EngineError> {
        let words = split_words(command_line)
            .ok_or_else(|| EngineError::Spawn(format!("`{command_line}`: unbalanced quote or trailing backslash")))?;
        let Some((program, args)) = words.split_first() else {
            return Err(EngineError::Spawn("the command line is empty".to_string()));
        };
        let timeouts = Timeouts { command: timeout, ..Timeouts::default() };
        EngineProcess::start(Arc::new(EngineConfig::new(program, args)), &timeouts, Arc::new(AtomicBool::new(false)))
    }

    /// Starts the engine, reads its `info` block and sets its options. `stop` aborts any wait.
    pub fn start(
        config: Arc<EngineConfig>,
        timeouts: &Timeouts,
        stop: Arc<AtomicBool>,
    ) -> Result<EngineProcess, EngineError> {
        let mut command = Command::new(&config.program);
        command.args(&config.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        if let Some(dir) = &config.dir {
            if !dir.is_dir() {
                return Err(EngineError::NoDirectory(dir.clone()));
            }
            command.current_dir(dir);
        }
        // A process group of its own keeps the terminal's Ctrl+C away from the engines: the
        // runner decides how they stop (comb, like Mzinga, would quit on SIGINT when idle).
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|e| EngineError::Spawn(format!("`{}`: {e}", config.command_line())))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr_pipe = child.stderr.take().expect("stderr is piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || pump(stdout, |line| tx.send(line).is_ok()));
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        std::thread::spawn(move || {
            pump(stderr_pipe, |line| {
                let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                if tail.len() == STDERR_TAIL {
                    tail.pop_front();
                }
                tail.push_back(shown(&line));
                true
            })
        });
        let stdin = child.stdin.take();
        let mut engine = EngineProcess {
            config,
            child,
            stdin,
            lines,
            stderr,
            id: None,
            capabilities: None,
            synced: None,
            transcript: VecDeque::new(),
            stop,
        };
        // The engine introduces itself unprompted, as if answering `info`: an `id` line, then
        // (as MzingaViewer reads it) capabilities on the last line.
        let info = engine.read_reply(timeouts.command)?;
        engine.id = info.iter().find_map(|l| l.strip_prefix("id ")).map(|s| s.trim().to_string());
        engine.capabilities = info.last().filter(|l| !l.starts_with("id ")).map(|l| l.trim().to_string());
        let options = engine.config.options.clone();
        for (name, value) in options {
            engine.command(&format!("options set {name} {value}"), timeouts.command)?;
        }
        Ok(engine)
    }

    /// The engine's configuration.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// What the engine's `id` line says (`comb 0.2.0`), if it sent one.
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// The capabilities line of the `info` block (`Mosquito;Ladybug;Pillbug`), if any.
    pub fn capabilities(&self) -> Option<&str> {
        self.capabilities.as_deref()
    }

    fn note(&mut self, line: String) {
        if self.transcript.len() == MAX_TRANSCRIPT {
            self.transcript.pop_front();
        }
        self.transcript.push_back(line);
    }

    /// Sends one command line.
    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        self.note(format!("> {line}"));
        let Some(stdin) = self.stdin.as_mut() else { return Err(EngineError::Crash("input closed".into())) };
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|e| EngineError::Crash(format!("cannot write to it: {e}; {}", self.exit_status())))
    }

    /// How the process ended, as far as can be told right after its output closed.
    fn exit_status(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    return match status.code() {
                        Some(code) => format!("exited with code {code}"),
                        None => format!("ended by {status}"),
                    }
                }
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
                _ => return "closed its output".to_string(),
            }
        }
    }

    /// Reads lines up to `ok`, within `timeout`. An `err` or `invalidmove` line is a protocol
    /// error (read after the whole reply, so the transcript holds all of it).
    fn read_reply(&mut self, timeout: Duration) -> Result<Vec<String>, EngineError> {
        let reply = self.read_lines(timeout)?;
        let is_error = |l: &&String| {
            let l = l.trim_start();
            l.starts_with("err") || l.starts_with("invalidmove")
        };
        match reply.iter().find(is_error) {
            Some(line) => Err(EngineError::Protocol(line.trim().to_string())),
            None => Ok(reply),
        }
    }

    /// Reads lines up to `ok`, within `timeout`, whatever they say.
    fn read_lines(&mut self, timeout: Duration) -> Result<Vec<String>, EngineError> {
        let deadline = Instant::now() + timeout;
        let mut reply = Vec::new();
        loop {
            let now = Instant::now();
            if now >= deadline {
                self.note(format!("# no complete reply within {:.3} s", timeout.as_secs_f64()));
                return Err(EngineError::Timeout(timeout));
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok(line) => {
                    self.note(format!("< {}", shown(&line)));
                    if line.trim() == "ok" {
                        break;
                    }
                    reply.push(line);
                    if reply.len() > MAX_REPLY_LINES {
                        return Err(EngineError::Protocol(format!("more than {MAX_REPLY_LINES} lines without `ok`")));
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    if self.stop.load(SeqCst) {
                        return Err(EngineError::Aborted);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.exit_status();
                    self.note(format!("# {status}"));
                    return Err(EngineError::Crash(status));
                }
            }
        }
        Ok(reply)
    }

    /// Sends a command and reads its reply (the lines before `ok`).
    pub fn command(&mut self, line: &str, timeout: Duration) -> Result<Vec<String>, EngineError> {
        self.send(line)?;
        self.read_reply(timeout)
    }

    /// Sends a command and reads its whole reply up to `ok`, `err …` and `invalidmove …` lines
    /// included: what a conformance check compares. Only a crash or a timeout is an error.
    pub fn exchange(&mut self, line: &str, timeout: Duration) -> Result<Vec<String>, EngineError> {
        self.send(line)?;
        self.read_lines(timeout)
    }

    /// Closes the engine's input and waits up to `timeout` for it to exit, reading (and
    /// counting, not keeping) whatever it prints meanwhile. The engine is killed when dropped
    /// if it is still running.
    pub fn close_input(&mut self, timeout: Duration) -> InputClosed {
        self.stdin = None;
        let deadline = Instant::now() + timeout;
        let mut closed = InputClosed { exited: None, lines: 0, first_line: None };
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                closed.exited = Some(status.code().map_or_else(|| status.to_string(), |c| format!("code {c}")));
                return closed;
            }
            let now = Instant::now();
            if now >= deadline {
                return closed;
            }
            match self.lines.recv_timeout((deadline - now).min(Duration::from_millis(10))) {
                Ok(line) => {
                    closed.lines += 1;
                    closed.first_line.get_or_insert(line);
                }
                // The output is closed: the process is ending; `try_wait` sees it next.
                Err(RecvTimeoutError::Disconnected) => std::thread::sleep(Duration::from_millis(5)),
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Tells the engine the position (see [`Sync`]) and asks for a move under the configured
    /// limit. The move is the last line before `ok`, up to its first `;` (how MzingaViewer reads
    /// it: some engines append depth and score).
    pub fn best_move(&mut self, position: &Position, timeouts: &Timeouts) -> Result<String, EngineError> {
        match self.config.sync {
            Sync::NewGame => {
                self.command(&format!("newgame {}", position.current), timeouts.command)?;
            }
            Sync::Play => {
                let mut done = match self.synced {
                    Some(n) if n <= position.moves.len() => n,
                    _ => {
                        self.synced = None;
                        self.command(&format!("newgame {}", position.start), timeouts.command)?;
                        0
                    }
                };
                for mv in &position.moves[done..] {
                    self.synced = None;
                    self.command(&format!("play {mv}"), timeouts.command)?;
                    done += 1;
                    self.synced = Some(done);
                }
                self.synced = Some(done);
            }
        }
        let limit = self.config.limit;
        let reply = self.command(&limit.command(self.config.time_command), timeouts.for_move(limit))?;
        let last = reply.last().map(|l| l.split(';').next().unwrap_or_default().trim()).unwrap_or_default();
        if last.is_empty() {
            return Err(EngineError::Protocol("bestmove answered no move".into()));
        }
        Ok(last.to_string())
    }

    /// Forgets the engine's game: the next move starts with `newgame` (a game begins).
    pub fn new_game(&mut self) {
        self.synced = None;
        self.transcript.clear();
    }

    /// The transcript since the last call, with the tail of standard error, and starts a new one.
    pub fn take_transcript(&mut self) -> String {
        let mut text = String::new();
        for line in self.transcript.drain(..) {
            text.push_str(&line);
            text.push('\n');
        }
        let stderr = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        if !stderr.is_empty() {
            text.push_str("# standard error (last lines):\n");
            for line in stderr.iter() {
                text.push_str("! ");
                text.push_str(line);
                text.push('\n');
            }
        }
        text
    }

    /// Asks the engine to quit (`exit`, then end of input) and kills it if it has not after a
    /// moment.
    pub fn quit(mut self) {
        let _ = self.send("exit");
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // Drop kills it.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            // The engine has its own process group: end the whole group, so that an engine
            // started through a wrapper script does not leave its real process running (and
            // holding the output pipe open).
            #[cfg(unix)]
            kill_group(self.child.id());
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Sends SIGKILL to the process group `pgid` (an engine's, whose id is its pid: see
/// [`EngineProcess::start`]'s `process_group(0)`).
#[cfg(unix)]
fn kill_group(pgid: u32) {
    // killpg(0) would signal comb's own group and killpg(1) (like `kill -1`) every process
    // comb may signal: neither is an engine's group, so those are never sent.
    let Ok(pgid) = libc::pid_t::try_from(pgid) else { return };
    if pgid <= 1 {
        return;
    }
    // SAFETY: killpg takes plain integers and touches no memory. The caller passes a child it
    // has not yet reaped, so that id is still the engine's and not reused by another process.
    unsafe {
        libc::killpg(pgid, libc::SIGKILL);
    }
}

/// One engine seat of a worker: the process is started when first needed, kept from game to
/// game, and thrown away after any failure so that the next game gets a fresh one.
pub struct EngineSlot {
    config: Arc<EngineConfig>,
    engine: Option<EngineProcess>,
    stop: Arc<AtomicBool>,
}

impl EngineSlot {
    /// A slot that starts `config` on demand; `stop` aborts its waits.
    pub fn new(config: Arc<EngineConfig>, stop: Arc<AtomicBool>) -> EngineSlot {
        EngineSlot { config, engine: None, stop }
    }

    /// The configuration.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The running engine, started (or restarted) if need be.
    pub fn engine(&mut self, timeouts: &Timeouts) -> Result<&mut EngineProcess, EngineError> {
        if self.engine.is_none() {
            self.engine = Some(EngineProcess::start(Arc::clone(&self.config), timeouts, Arc::clone(&self.stop))?);
        }
        Ok(self.engine.as_mut().expect("just started"))
    }

    /// The running engine, if any.
    pub fn running(&mut self) -> Option<&mut EngineProcess> {
        self.engine.as_mut()
    }

    /// Kills the process (after a failure); the next game starts a new one.
    pub fn discard(&mut self) {
        self.engine = None;
    }

    /// Quits the process politely.
    pub fn shutdown(&mut self) {
        if let Some(engine) = self.engine.take() {
            engine.quit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_become_uhp_commands() {
        let time = TimeCommand::Time;
        assert_eq!(Limit::Depth(3).command(time), "bestmove depth 3");
        assert_eq!(Limit::MoveTime(Duration::from_secs(5)).command(time), "bestmove time 00:00:05");
        assert_eq!(Limit::MoveTime(Duration::from_millis(250)).command(time), "bestmove time 00:00:00.250");
        assert_eq!(Limit::MoveTime(Duration::from_millis(250)).command(TimeCommand::Seconds), "bestmove seconds 0.250");
        assert_eq!(hms(Duration::from_millis(3_723_004)), "01:02:03.004");
        assert_eq!(Limit::MoveTime(Duration::from_millis(1500)).describe(), "movetime=1.5");
    }

    #[test]
    fn timeouts_add_the_margin_to_move_times() {
        let t = Timeouts::default();
        assert_eq!(t.for_move(Limit::MoveTime(Duration::from_secs(2))), Duration::from_secs(3));
        assert_eq!(t.for_move(Limit::Depth(4)), Duration::from_secs(60));
    }

    #[test]
    fn pump_splits_cuts_and_repairs_lines() {
        let input: &[u8] = b"id x\r\nok\n\xffbad\nlast";
        let mut lines = Vec::new();
        pump(input, |l| {
            lines.push(l);
            true
        });
        assert_eq!(lines, ["id x", "ok", "\u{fffd}bad", "last"]);
        let long = vec![b'a'; MAX_LINE + 10];
        let mut lens = Vec::new();
        pump(&long[..], |l| {
            lens.push(l.len());
            true
        });
        assert_eq!(lens, [MAX_LINE]);
    }
}
