//! An engine's text as comb shows it in every output (console lines, messages, PGN comments,
//! JSONL, transcripts): an engine may send anything, and a NUL, an escape sequence or a line of
//! megabytes must not reach a terminal or a game file as it came.

/// The most characters of an engine's text that are kept, escapes included; the rest is
/// dropped and counted.
pub const SHOWN_CHARS: usize = 200;

/// `text`, from an engine, as comb shows it: control characters escaped (`\t`, `\r`, `\n`,
/// else `\x1b`), and at most [`SHOWN_CHARS`] characters kept, followed by
/// `… (N more characters)` when there were more.
///
/// ```
/// use comb::client::shown;
///
/// assert_eq!(shown("wS1 \\wA1"), "wS1 \\wA1");
/// assert_eq!(shown("err \u{1b}[31mred\u{0}"), "err \\x1b[31mred\\x00");
/// assert_eq!(shown(&"x".repeat(1000)), format!("{}… (800 more characters)", "x".repeat(200)));
/// ```
pub fn shown(text: &str) -> String {
    let mut out = String::new();
    let mut kept = 0;
    for (i, c) in text.chars().enumerate() {
        let escaped = match c {
            '\t' => "\\t".to_string(),
            '\r' => "\\r".to_string(),
            '\n' => "\\n".to_string(),
            // Every control character is below U+00A0: two hex digits, and no braces, which a
            // PGN comment could not hold.
            c if c.is_control() => format!("\\x{:02x}", c as u32),
            c => c.to_string(),
        };
        let width = escaped.chars().count();
        if kept + width > SHOWN_CHARS {
            let more = text.chars().count() - i;
            out.push_str(&format!("… ({more} more character{})", if more == 1 { "" } else { "s" }));
            return out;
        }
        kept += width;
        out.push_str(&escaped);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_long_text_is_cut() {
        assert_eq!(shown(""), "");
        assert_eq!(shown("tab\there\r\n"), "tab\\there\\r\\n");
        assert_eq!(shown("\u{0}\u{7f}\u{9b}é"), "\\x00\\x7f\\x9bé");
        let exactly = "y".repeat(SHOWN_CHARS);
        assert_eq!(shown(&exactly), exactly);
        assert_eq!(shown(&format!("{exactly}z")), format!("{exactly}… (1 more character)"));
        // An escape is never cut in two: it is kept whole or dropped with the rest.
        let text = format!("{}\u{1b}[0m", "a".repeat(SHOWN_CHARS - 3));
        assert_eq!(shown(&text), format!("{}… (4 more characters)", "a".repeat(SHOWN_CHARS - 3)));
        assert_eq!(shown(&text[4..]), format!("{}\\x1b[0m", "a".repeat(SHOWN_CHARS - 7)));
    }
}
