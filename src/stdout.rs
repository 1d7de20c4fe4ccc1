//! Standard output for commands whose reader may leave early (`comb perft 6 | head -1`), shared
//! by the tournament and the other subcommands.
//!
//! `println!` panics once the reader has gone. These writes return the error instead, and
//! [`exit_status`] turns a closed pipe into a quiet exit with status [`BROKEN_PIPE`]: 128 + 13,
//! what a shell reports for a Unix tool ended by SIGPIPE (`cat`, `yes`), so that a script can
//! still tell a cut-short run from a finished one. Rust ignores SIGPIPE, which is what lets the
//! write fail with `BrokenPipe` rather than kill the process; nothing here changes that.

use std::fmt::Display;
use std::io::{self, Write};

/// The exit status after the reader of standard output went away (128 + SIGPIPE).
pub const BROKEN_PIPE: u8 = 141;

/// Writes `text` and a line break to standard output and flushes it, so every line is seen as
/// soon as it is made (as `println!` does on a terminal).
pub fn line(text: impl Display) -> io::Result<()> {
    let mut out = io::stdout().lock();
    writeln!(out, "{text}")?;
    out.flush()
}

/// Writes `text` (whole lines, line breaks included) to standard output and flushes it.
pub fn block(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// The exit status for a failed write to standard output: [`BROKEN_PIPE`], quietly, when the
/// reader has gone; otherwise 1, after saying why on standard error (a full disk, say).
pub fn exit_status(error: &io::Error) -> u8 {
    if error.kind() == io::ErrorKind::BrokenPipe {
        BROKEN_PIPE
    } else {
        eprintln!("error: writing to standard output: {error}");
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_pipe_is_quiet_and_other_errors_fail() {
        assert_eq!(exit_status(&io::Error::from(io::ErrorKind::BrokenPipe)), BROKEN_PIPE);
        assert_eq!(exit_status(&io::Error::from(io::ErrorKind::StorageFull)), 1);
    }
}
