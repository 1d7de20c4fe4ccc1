//! The Universal Hive Protocol, as Mzinga's reference engine speaks it, for Hive and for comb's
//! Intellector dialect.
//!
//! [`run`] reads lines on a thread of their own, so that a running search can be stopped:
//! - SIGINT (what MzingaViewer sends to cancel) stops whatever is running;
//! - `exit` typed while a command runs stops it; an `exit` that arrived in the same write as the
//!   command before it (a script piped in at once) lets that command finish first, as the
//!   reference engine, which reads one line at a time, would. The reader tells the two apart by
//!   whether the `exit` line was already buffered when the line before it was read; one that
//!   had to be waited for also stops the commands still queued before it;
//! - end of input lets the running command finish (a bridge that sends `bestmove depth 4` and
//!   closes its pipe gets a full answer), and the commands still queued run too; then the
//!   session ends. Each of those commands gets at most [`Signals::eof_grace`] ([`EOF_GRACE`],
//!   a minute) from the end of input or from its own start, whichever is later: then it stops
//!   and answers as if interrupted, so that `bestmove depth 60` or `perft 9` sent by a client
//!   that has gone does not run on for hours;
//! - a command with no limit of its own (`bestmove`, `perft` without a depth) stops at `exit` or
//!   end of input whenever they arrive.
//!
//! The interrupted command still answers (a search its best move so far), then `ok`.

mod analysis;
mod error;
mod options;
mod session;

pub use analysis::{perft, perft_line, perft_parallel, search, FormattedResult};
pub use error::ProtocolError;
pub use options::{cores, HelperThreads, OptionError, Options};
pub use session::{Flow, Session};

use crate::lines::{InputLine, LineReader};
use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::{mpsc, Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long a command may run after the end of input (counted from the end of input, or from
/// the command's start when later): long enough for any search a bridge asks for a move, short
/// enough that a client gone for good does not leave comb searching for hours.
pub const EOF_GRACE: Duration = Duration::from_secs(60);

/// Flags shared between the reader thread, the signal handler and the session.
#[derive(Debug)]
pub struct Signals {
    /// Raised to stop the running search or perft.
    pub stop: AtomicBool,
    /// A command that can be interrupted is running.
    pub busy: AtomicBool,
    /// `exit` has been read.
    pub exit: AtomicBool,
    /// An `exit` that had to be waited for has been read: it stops the running command and
    /// every one that starts after it.
    pub exit_stops: AtomicBool,
    /// Input has ended.
    pub eof: AtomicBool,
    /// The running command has no limit of its own.
    pub unbounded: AtomicBool,
    /// When the running command that can be interrupted started (`None`: none runs). The
    /// session clears `stop` and sets this under the lock, and the end-of-input bound raises
    /// `stop` under it, so that the bound never stops the next command by mistake.
    pub running: Mutex<Option<Instant>>,
    /// How long a command may still run after the end of input: [`EOF_GRACE`].
    pub eof_grace: Duration,
    /// The session has ended (what ends the end-of-input bound's watch).
    pub finished: AtomicBool,
}

impl Default for Signals {
    fn default() -> Signals {
        Signals {
            stop: AtomicBool::new(false),
            busy: AtomicBool::new(false),
            exit: AtomicBool::new(false),
            exit_stops: AtomicBool::new(false),
            eof: AtomicBool::new(false),
            unbounded: AtomicBool::new(false),
            running: Mutex::new(None),
            eof_grace: EOF_GRACE,
            finished: AtomicBool::new(false),
        }
    }
}

impl Signals {
    /// The start of the running command, locked (a panic elsewhere leaves it usable).
    pub fn running(&self) -> MutexGuard<'_, Option<Instant>> {
        self.running.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Stops every command that runs longer than [`Signals::eof_grace`] past `eof` (the end
    /// of input) or past its own start, until the session ends. Runs on the reader thread,
    /// which has nothing left to read.
    fn bound_after_eof(&self, eof: Instant) {
        let tick = Duration::from_millis(20).min(self.eof_grace);
        while !self.finished.load(SeqCst) {
            {
                let running = self.running();
                if running.is_some_and(|start| start.max(eof).elapsed() >= self.eof_grace) {
                    self.stop.store(true, SeqCst);
                }
            }
            std::thread::sleep(tick);
        }
    }

    /// What SIGINT does: stop the running command. Returns false when nothing was running (the
    /// caller then exits, as Mzinga does).
    pub fn interrupt(&self) -> bool {
        if self.busy.load(SeqCst) {
            self.stop.store(true, SeqCst);
            true
        } else {
            false
        }
    }
}

/// Longest input line accepted, its `\n` included; a longer one is answered with an error.
const MAX_LINE: usize = 4 << 20;

/// Bytes the reader asks for at once: a script piped in at once comes in one read (a pipe holds
/// 64 KiB), and so does much of a file.
const READ_CHUNK: usize = 1 << 20;

enum Input {
    Line(String),
    TooLong(usize),
}

impl From<InputLine<'_>> for Input {
    /// What the session is given for `line`: its text, or its length if it was too long.
    fn from(line: InputLine) -> Input {
        if line.cut {
            Input::TooLong(line.len)
        } else {
            // Bytes that are not UTF-8 become U+FFFD and fail parsing like any other garbage.
            Input::Line(line.text())
        }
    }
}

/// Runs a UHP session over `input` and `output` until `exit` or the end of input: prints the
/// `info` block, then answers every line. The session buffers `input` itself (to know which
/// lines were already there), so it need not be buffered.
pub fn run<R, W>(input: R, output: W, options: Options, signals: Arc<Signals>) -> std::io::Result<()>
where
    R: Read + Send + 'static,
    W: Write,
{
    let (tx, rx) = mpsc::channel::<Input>();
    let reader_signals = Arc::clone(&signals);
    std::thread::spawn(move || {
        let mut lines = LineReader::with_capacity(READ_CHUNK, input, MAX_LINE);
        // A read error ends input like EOF does.
        while let Ok(Some(line)) = lines.next_line() {
            let waited = line.waited;
            let line = Input::from(line);
            if let Input::Line(l) = &line {
                if l.trim().eq_ignore_ascii_case("exit") {
                    let s = &reader_signals;
                    s.exit.store(true, SeqCst);
                    if waited {
                        // Stored before `stop`, so a command starting meanwhile sees one or the other.
                        s.exit_stops.store(true, SeqCst);
                    }
                    if waited || s.unbounded.load(SeqCst) {
                        s.stop.store(true, SeqCst);
                    }
                }
            }
            if tx.send(line).is_err() {
                return;
            }
        }
        let eof = Instant::now();
        reader_signals.eof.store(true, SeqCst);
        if reader_signals.unbounded.load(SeqCst) {
            reader_signals.stop.store(true, SeqCst);
        }
        // Closes the channel: the session sees the end of input once the queue is empty.
        drop(tx);
        reader_signals.bound_after_eof(eof);
    });
    let mut session = Session::new(output, options, Arc::clone(&signals));
    // The table is touched while the engine waits for its first command.
    session.make_table_resident();
    session.info();
    for input in rx {
        match input {
            Input::Line(line) => {
                if session.execute(&line) == Flow::Exit {
                    break;
                }
            }
            Input::TooLong(n) => session.reject_long_line(n),
        }
    }
    signals.finished.store(true, SeqCst);
    Ok(())
}
