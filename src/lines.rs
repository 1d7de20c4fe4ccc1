//! Text read line by line with a cap on how much of one line is kept: the protocol's standard
//! input and the standard output of the engines a tournament runs both come from peers that
//! may never send a newline, and neither may make the reader hold more than its cap.
//!
//! ```
//! use comb::lines::LineReader;
//!
//! let mut lines = LineReader::new(&b"play wS1\r\nvalidmoves"[..], 4);
//! let first = lines.next_line().unwrap().unwrap();
//! assert_eq!((first.text(), first.len, first.cut), ("play".to_string(), 10, true));
//! let last = lines.next_line().unwrap().unwrap();
//! assert_eq!((last.text(), last.cut), ("vali".to_string(), true));
//! assert!(lines.next_line().unwrap().is_none());
//! ```

use std::io::{BufRead, BufReader, Read};

/// The lines of a byte stream, each kept up to a limit in bytes; the rest of a longer line is
/// read and dropped, so memory stays bounded whatever the peer sends.
pub struct LineReader<R> {
    input: BufReader<R>,
    /// The kept bytes of the line being read, reused from line to line.
    buf: Vec<u8>,
    limit: usize,
}

/// One line read by [`LineReader::next_line`], borrowed from the reader until the next read.
#[derive(Debug)]
pub struct InputLine<'a> {
    /// The first bytes of the line, at most the limit, its `\n` included if it fits.
    bytes: &'a [u8],
    /// The line's full length in bytes, its `\n` included.
    pub len: usize,
    /// The line, counted with its `\n`, was longer than the limit: [`InputLine::text`] is its start.
    pub cut: bool,
    /// Some of the line was not buffered yet when the line before it had been read: it had to
    /// be waited for (rather than arriving in the same write as the line before).
    pub waited: bool,
}

impl InputLine<'_> {
    /// The kept text without its line ending (`\n` or `\r\n`); bytes that are not UTF-8 become
    /// U+FFFD.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(self.bytes).trim_end_matches(['\n', '\r']).to_string()
    }
}

impl<R: Read> LineReader<R> {
    /// Lines of `input`, each kept up to `limit` bytes, read through a buffer of the default
    /// size.
    pub fn new(input: R, limit: usize) -> Self {
        Self::with_buffer(BufReader::new(input), limit)
    }

    /// Lines of `input`, each kept up to `limit` bytes, read `capacity` bytes at a time.
    pub fn with_capacity(capacity: usize, input: R, limit: usize) -> Self {
        Self::with_buffer(BufReader::with_capacity(capacity, input), limit)
    }

    fn with_buffer(input: BufReader<R>, limit: usize) -> Self {
        LineReader { input, buf: Vec::new(), limit }
    }

    /// The next line, or `None` at the end of input. A last line without a newline still
    /// counts; a read error is returned as is (the part of the line read so far is lost).
    pub fn next_line(&mut self) -> std::io::Result<Option<InputLine<'_>>> {
        self.buf.clear();
        let (mut total, mut waited) = (0, false);
        loop {
            // `fill_buf` reads (and may block) only when nothing is buffered.
            let buffered = !self.input.buffer().is_empty();
            let chunk = self.input.fill_buf()?;
            if chunk.is_empty() {
                return Ok((total > 0).then(|| self.line(total, waited)));
            }
            waited |= !buffered;
            let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            if self.buf.len() < self.limit {
                let room = self.limit - self.buf.len();
                self.buf.extend_from_slice(&chunk[..used.min(room)]);
            }
            total += used;
            self.input.consume(used);
            if done {
                return Ok(Some(self.line(total, waited)));
            }
        }
    }

    fn line(&self, len: usize, waited: bool) -> InputLine<'_> {
        InputLine { bytes: &self.buf, len, cut: len > self.limit, waited }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// Hands out one chunk per read, as a pipe does one write.
    struct Writes(VecDeque<&'static [u8]>);

    impl Read for Writes {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let Some(chunk) = self.0.pop_front() else { return Ok(0) };
            out[..chunk.len()].copy_from_slice(chunk);
            Ok(chunk.len())
        }
    }

    /// (text, len, cut, waited) of every line.
    fn all<R: Read>(mut lines: LineReader<R>) -> Vec<(String, usize, bool, bool)> {
        let mut out = Vec::new();
        while let Some(l) = lines.next_line().unwrap() {
            out.push((l.text(), l.len, l.cut, l.waited));
        }
        out
    }

    #[test]
    fn lines_that_came_in_one_write_were_not_waited_for() {
        let writes = Writes(VecDeque::from([&b"a\nb"[..], b"b\nc\n"]));
        let got = all(LineReader::new(writes, 100));
        let expected = [("a", 2, false, true), ("bb", 3, false, true), ("c", 2, false, false)];
        assert_eq!(got, expected.map(|(t, n, c, w)| (t.to_string(), n, c, w)));
    }

    #[test]
    fn long_lines_are_cut_to_the_limit_and_counted_whole() {
        let got = all(LineReader::with_capacity(2, &b"abcdef\nabc\nab\r\n\xffx"[..], 3));
        let expected = [("abc", 7, true), ("abc", 4, true), ("ab", 4, true), ("\u{fffd}x", 2, false)];
        let got: Vec<_> = got.into_iter().map(|(t, n, c, _)| (t, n, c)).collect();
        assert_eq!(got, expected.map(|(t, n, c)| (t.to_string(), n, c)));
    }
}
