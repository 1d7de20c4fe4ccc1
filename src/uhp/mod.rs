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
//!   closes its pipe gets a full answer) and then ends the session;
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
pub use options::{cores, HelperThreads, Options};
pub use session::{Flow, Session};

use crate::lines::{InputLine, LineReader};
use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::{mpsc, Arc};

/// Flags shared between the reader thread, the signal handler and the session.
#[derive(Debug, Default)]
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
}

impl Signals {
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
        reader_signals.eof.store(true, SeqCst);
        if reader_signals.unbounded.load(SeqCst) {
            reader_signals.stop.store(true, SeqCst);
        }
    });
    let mut session = Session::new(output, options, signals);
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
    Ok(())
}
