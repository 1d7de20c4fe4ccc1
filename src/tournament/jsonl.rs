//! Games as JSON Lines: one object per game, so a run can be analysed (or resumed) without
//! parsing PGN. Written by hand: strings are escaped as RFC 8259 requires.
//!
//! ```json
//! {"game":17,"round":9,"pair":8,"game_type":"Base+MLP","white":"A","black":"B",
//!  "white_limit":"depth=2","black_limit":"depth=2","opening":"Base+MLP;…","opening_plies":2,
//!  "result":"WhiteWins","score":"1-0","reason":"surrounded","detail":"queen surrounded",
//!  "plies":63,"game_string":"Base+MLP;WhiteWins;Black[32];…","moves":["wS1",…],
//!  "started":"2026-05-01T10:00:00Z","seconds":4.213,"white_seconds":2.1,"black_seconds":2.05,
//!  "tournament":"3f0c…","shard":"2/3","settings":"game_type=Base+MLP\nmode=round-robin\n…"}
//! ```
//! (one line per game in the file). `opening` is `null` for games from the empty board, `shard`
//! for a run of the whole schedule. `tournament` is the id of the settings (see
//! [`super::identity`]); they come last, so that a reader looking for a game's own fields meets
//! those first.

use super::identity::Identity;
use super::shard::Shard;
use super::{utc, GameRecord};

/// `text` as a JSON string literal, quotes included.
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A number of seconds with millisecond precision.
fn seconds(d: std::time::Duration) -> String {
    format!("{:.3}", d.as_secs_f64())
}

/// The fields that end every line of a run: `"tournament":…,"shard":…,"settings":…`.
pub fn tail(identity: &Identity, shard: Option<Shard>) -> String {
    format!(
        "\"tournament\":{},\"shard\":{},\"settings\":{}",
        string(&identity.id),
        shard.map_or("null".to_string(), |s| string(&s.to_string())),
        string(&identity.settings)
    )
}

/// One game as a single line of JSON (without the line break), ending with `tail`.
pub fn format_game(record: &GameRecord, tail: &str) -> String {
    let p = &record.played;
    let (y, mo, d, h, mi, s) = utc(p.started);
    let moves: Vec<String> = p.moves.iter().map(|m| string(m)).collect();
    let fields = [
        ("game", record.number.to_string()),
        ("round", record.round.to_string()),
        ("pair", record.pair.to_string()),
        ("game_type", string(&record.game_type)),
        ("white", string(&record.white_name)),
        ("black", string(&record.black_name)),
        ("white_limit", string(&record.white_limit)),
        ("black_limit", string(&record.black_limit)),
        ("opening", record.opening.as_deref().map_or("null".to_string(), string)),
        ("opening_plies", p.opening_plies.to_string()),
        ("result", string(p.result.state())),
        ("score", string(p.result.score())),
        ("reason", string(p.termination.reason)),
        ("detail", string(&p.termination.detail)),
        ("plies", p.moves.len().to_string()),
        ("game_string", string(&p.game_string)),
        ("moves", format!("[{}]", moves.join(","))),
        ("started", string(&format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z"))),
        ("seconds", seconds(p.duration)),
        ("white_seconds", seconds(p.think[0])),
        ("black_seconds", seconds(p.think[1])),
    ];
    let body: Vec<String> = fields.iter().map(|(k, v)| format!("{}:{v}", string(k))).collect();
    format!("{{{},{tail}}}", body.join(","))
}

/// A JSON value as the runner's lines hold them: no nested objects.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as written.
    Number(String),
    /// A string, unescaped.
    Str(String),
    /// An array.
    Array(Vec<Value>),
}

/// Reads one line written by [`format_game`] (or any flat JSON object) into its fields, in
/// order. The error says what was expected and where.
pub fn parse_object(line: &str) -> Result<Vec<(String, Value)>, String> {
    let mut reader = Reader { chars: line.char_indices().peekable(), line };
    reader.expect('{')?;
    let mut fields = Vec::new();
    if reader.eat('}') {
        return reader.end(fields);
    }
    loop {
        let key = reader.string()?;
        reader.expect(':')?;
        fields.push((key, reader.value()?));
        if reader.eat('}') {
            return reader.end(fields);
        }
        reader.expect(',')?;
    }
}

/// A cursor over one line of JSON.
struct Reader<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    line: &'a str,
}

impl Reader<'_> {
    fn skip_space(&mut self) {
        while self.chars.next_if(|(_, c)| c.is_ascii_whitespace()).is_some() {}
    }

    fn at(&mut self) -> String {
        match self.chars.peek() {
            Some(&(i, c)) => format!("`{c}` at column {}", self.line[..i].chars().count() + 1),
            None => "the end of the line".to_string(),
        }
    }

    fn eat(&mut self, wanted: char) -> bool {
        self.skip_space();
        self.chars.next_if(|&(_, c)| c == wanted).is_some()
    }

    fn expect(&mut self, wanted: char) -> Result<(), String> {
        if self.eat(wanted) {
            Ok(())
        } else {
            Err(format!("expected `{wanted}`, found {}", self.at()))
        }
    }

    fn end(&mut self, fields: Vec<(String, Value)>) -> Result<Vec<(String, Value)>, String> {
        self.skip_space();
        match self.chars.peek() {
            None => Ok(fields),
            Some(_) => Err(format!("expected the end of the line, found {}", self.at())),
        }
    }

    fn value(&mut self) -> Result<Value, String> {
        self.skip_space();
        match self.chars.peek().map(|&(_, c)| c) {
            Some('"') => self.string().map(Value::Str),
            Some('[') => self.array(),
            Some('n') => self.word("null", Value::Null),
            Some('t') => self.word("true", Value::Bool(true)),
            Some('f') => self.word("false", Value::Bool(false)),
            Some(c) if c == '-' || c.is_ascii_digit() => Ok(Value::Number(self.number())),
            _ => Err(format!("expected a value, found {}", self.at())),
        }
    }

    fn word(&mut self, word: &str, value: Value) -> Result<Value, String> {
        for wanted in word.chars() {
            if self.chars.next_if(|&(_, c)| c == wanted).is_none() {
                return Err(format!("expected `{word}`, found {}", self.at()));
            }
        }
        Ok(value)
    }

    fn number(&mut self) -> String {
        let mut text = String::new();
        while let Some((_, c)) = self.chars.next_if(|&(_, c)| c.is_ascii_digit() || "+-.eE".contains(c)) {
            text.push(c);
        }
        text
    }

    fn array(&mut self) -> Result<Value, String> {
        self.expect('[')?;
        let mut items = Vec::new();
        if self.eat(']') {
            return Ok(Value::Array(items));
        }
        loop {
            items.push(self.value()?);
            if self.eat(']') {
                return Ok(Value::Array(items));
            }
            self.expect(',')?;
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.expect('"')?;
        let mut out = String::new();
        loop {
            match self.chars.next().map(|(_, c)| c) {
                None => return Err("a string is not closed".to_string()),
                Some('"') => return Ok(out),
                Some('\\') => out.push(self.escape()?),
                Some(c) => out.push(c),
            }
        }
    }

    /// The character after a backslash (`\uXXXX` outside the Basic Multilingual Plane, which
    /// the runner never writes, is refused).
    fn escape(&mut self) -> Result<char, String> {
        match self.chars.next().map(|(_, c)| c) {
            Some('"') => Ok('"'),
            Some('\\') => Ok('\\'),
            Some('/') => Ok('/'),
            Some('n') => Ok('\n'),
            Some('r') => Ok('\r'),
            Some('t') => Ok('\t'),
            Some('b') => Ok('\u{8}'),
            Some('f') => Ok('\u{c}'),
            Some('u') => {
                let hex: String = (0..4).filter_map(|_| self.chars.next().map(|(_, c)| c)).collect();
                u32::from_str_radix(&hex, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or_else(|| format!("bad escape `\\u{hex}`"))
            }
            _ => Err("bad escape in a string".to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_everything_json_requires() {
        assert_eq!(string("plain"), "\"plain\"");
        assert_eq!(string("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(string("l1\nl2\r\t"), "\"l1\\nl2\\r\\t\"");
        assert_eq!(string("\u{1}\u{1f}\u{7f}"), "\"\\u0001\\u001f\\u007f\"");
        assert_eq!(string("wG1 \\wS1 é"), "\"wG1 \\\\wS1 é\"");
    }

    #[test]
    fn bad_lines_are_refused_with_the_place() {
        assert_eq!(parse_object("{}"), Ok(Vec::new()));
        assert_eq!(
            parse_object(" {\"a\" : null , \"b\":[true,false]} "),
            Ok(vec![
                ("a".into(), Value::Null),
                ("b".into(), Value::Array(vec![Value::Bool(true), Value::Bool(false)]))
            ])
        );
        assert_eq!(parse_object("{\"a\":\"\\u00e9\"}").unwrap()[0].1, Value::Str("é".into()));
        assert_eq!(parse_object("{\"a\":1"), Err("expected `,`, found the end of the line".into()));
        assert_eq!(parse_object("{\"a\":x}"), Err("expected a value, found `x` at column 6".into()));
        assert_eq!(parse_object("{\"a\":1} x"), Err("expected the end of the line, found `x` at column 9".into()));
        assert!(parse_object("{\"a\":\"open}").is_err());
    }

    #[test]
    fn one_line_per_game() {
        let identity = Identity { id: "0123456789abcdef".into(), settings: "mode=gauntlet\nrounds=2".into() };
        let line =
            format_game(&super::super::pgn::tests::sample(), &tail(&identity, Some(Shard { index: 2, count: 3 })));
        assert!(!line.contains('\n'));
        assert!(line.starts_with("{\"game\":17,\"round\":9,\"pair\":8,\"game_type\":\"Base\","));
        assert!(line.contains("\"white\":\"A \\\"the ant\\\"\""));
        assert!(line.contains("\"opening\":\"Base;InProgress;Black[1];wS1\",\"opening_plies\":1,"));
        assert!(line.contains("\"result\":\"BlackWins\",\"score\":\"0-1\",\"reason\":\"illegal-move\""));
        assert!(line.contains("\"detail\":\"illegal move by A: `pass` {really}\\nnow\""));
        assert!(line.contains("\"moves\":[\"wS1\",\"bS1 wS1-\",\"wG1 \\\\wS1\"]"));
        assert!(line.contains("\"plies\":3,"));
        assert!(line.contains("\"started\":\"2000-02-29T00:00:00Z\",\"seconds\":2.000"));
        assert!(line.contains("\"white_seconds\":1.500,\"black_seconds\":0.250,"));
        let fields = parse_object(&line).unwrap();
        let field = |key: &str| fields.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()).unwrap();
        assert_eq!(field("white"), Value::Str("A \"the ant\"".into()));
        assert_eq!(field("detail"), Value::Str("illegal move by A: `pass` {really}\nnow".into()));
        assert_eq!(field("moves"), Value::Array(["wS1", "bS1 wS1-", "wG1 \\wS1"].map(|m| Value::Str(m.into())).into()));
        assert_eq!((field("game"), field("seconds")), (Value::Number("17".into()), Value::Number("2.000".into())));
        assert_eq!(field("settings"), Value::Str("mode=gauntlet\nrounds=2".into()));
        assert!(line.ends_with(
            "\"tournament\":\"0123456789abcdef\",\"shard\":\"2/3\",\"settings\":\"mode=gauntlet\\nrounds=2\"}"
        ));
    }
}
