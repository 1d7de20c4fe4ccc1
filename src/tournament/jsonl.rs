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

use super::error::JsonlError;
use super::identity::Identity;
use super::referee::{GameResult, PlayedGame, Termination};
use super::shard::Shard;
use super::{utc, GameRecord};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

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

/// A tournament's JSONL file read back: its games, and how it ends. A run that is killed
/// (SIGKILL, a lost node) may leave its last line cut short: that line is not a game but is
/// told apart from any other bad line, which is an error.
#[derive(Debug)]
pub struct GameLines {
    /// The games, in file order (blank lines skipped).
    pub lines: Vec<JsonlGame>,
    /// The last line when it is cut short (no line break, no whole object): its number and why
    /// it does not read.
    pub cut: Option<(usize, String)>,
    /// Bytes from the start of the file to the end of its last whole line.
    pub whole: u64,
    /// Whether the last whole line has no line break after it (a run killed just before it).
    pub unterminated: bool,
}

/// One game as a tournament's JSONL file holds it.
#[derive(Clone, Debug)]
pub struct JsonlGame {
    /// The file.
    pub path: PathBuf,
    /// Its line number, from 1.
    pub number: usize,
    /// The line as written.
    pub text: String,
    /// Its fields.
    pub fields: Vec<(String, Value)>,
}

/// Reads the game lines of the file at `path`, the one place that reads a run's JSONL back
/// (for `comb tournament merge` and for `--resume`).
pub fn read(path: &Path) -> Result<GameLines, JsonlError> {
    let bytes = std::fs::read(path).map_err(|error| JsonlError::Read { path: path.to_path_buf(), error })?;
    let mut games = GameLines { lines: Vec::new(), cut: None, whole: 0, unterminated: false };
    let mut start = 0;
    for (i, chunk) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        let number = i + 1;
        let terminated = chunk.ends_with(b"\n");
        let bad = |reason: String| JsonlError::Line { path: path.to_path_buf(), line: number, reason };
        let text = std::str::from_utf8(chunk).map(|t| t.trim_end_matches(['\n', '\r']));
        let parsed = match text {
            Ok(text) if text.trim().is_empty() => None,
            Ok(text) => Some(parse_object(text).map(|fields| (text, fields))),
            Err(_) => Some(Err("not UTF-8 text".to_string())),
        };
        match parsed {
            Some(Ok((text, fields))) => {
                games.lines.push(JsonlGame { path: path.to_path_buf(), number, text: text.to_string(), fields });
            }
            // Only the end of the file can be cut: a killed writer stops mid-line.
            Some(Err(reason)) if !terminated => {
                games.cut = Some((number, reason));
                break;
            }
            Some(Err(reason)) => return Err(bad(reason)),
            None => {}
        }
        start += chunk.len();
        games.whole = start as u64;
        games.unterminated = !terminated;
    }
    Ok(games)
}

impl JsonlGame {
    /// The value of field `key`.
    pub fn field(&self, key: &'static str) -> Result<&Value, JsonlError> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v).ok_or_else(|| self.error(format!("no `{key}`")))
    }

    /// The string field `key`.
    pub fn str(&self, key: &'static str) -> Result<&str, JsonlError> {
        match self.field(key)? {
            Value::Str(s) => Ok(s),
            _ => Err(self.error(format!("`{key}` is not a string"))),
        }
    }

    /// The number field `key`.
    pub fn number<T: std::str::FromStr>(&self, key: &'static str) -> Result<T, JsonlError> {
        match self.field(key)? {
            Value::Number(n) => n.parse().map_err(|_| self.error(format!("`{key}` is out of range"))),
            _ => Err(self.error(format!("`{key}` is not a number"))),
        }
    }

    /// The game's number.
    pub fn game(&self) -> Result<usize, JsonlError> {
        self.number("game")
    }

    /// The tournament id; a line without one predates them.
    pub fn tournament(&self) -> Result<&str, JsonlError> {
        if !self.fields.iter().any(|(k, _)| k == "tournament") {
            return Err(JsonlError::NoTournament { path: self.path.clone(), line: self.number });
        }
        self.str("tournament")
    }

    /// The shard, `2/3`, or `None` for the whole schedule.
    pub fn shard(&self) -> Result<Option<&str>, JsonlError> {
        match self.field("shard")? {
            Value::Null => Ok(None),
            _ => self.str("shard").map(Some),
        }
    }

    /// An error at this line.
    pub fn error(&self, reason: String) -> JsonlError {
        JsonlError::Line { path: self.path.clone(), line: self.number, reason }
    }

    /// `shard-1.jsonl:3`.
    pub fn place(&self) -> String {
        format!("{}:{}", self.path.display(), self.number)
    }

    /// The game of this line, with engines numbered as in `names`. It holds all the files
    /// need: a PGN game is made from it alike (only the transcript is not kept).
    pub fn record(&self, names: &[String]) -> Result<GameRecord, JsonlError> {
        let engine = |key: &'static str| {
            let name = self.str(key)?;
            names.iter().position(|n| n == name).ok_or_else(|| self.error(format!("`{key}` {name} is no engine")))
        };
        let seconds = |key: &'static str| {
            self.number::<f64>(key)
                .and_then(|s| Duration::try_from_secs_f64(s).map_err(|_| self.error(format!("`{key}` is negative"))))
        };
        let moves = match self.field("moves")? {
            Value::Array(items) => items
                .iter()
                .map(|m| match m {
                    Value::Str(s) => Ok(s.clone()),
                    _ => Err(self.error("a move is not a string".into())),
                })
                .collect::<Result<Vec<_>, _>>()?,
            _ => return Err(self.error("`moves` is not an array".into())),
        };
        let opening = match self.field("opening")? {
            Value::Null => None,
            _ => Some(self.str("opening")?.to_string()),
        };
        let result = self.str("result")?;
        let result = GameResult::from_state(result).ok_or_else(|| self.error(format!("unknown result `{result}`")))?;
        let reason = self.str("reason")?;
        let reason =
            Termination::reason_named(reason).ok_or_else(|| self.error(format!("unknown reason `{reason}`")))?;
        Ok(GameRecord {
            number: self.game()?,
            round: self.number("round")?,
            pair: self.number("pair")?,
            white: engine("white")?,
            black: engine("black")?,
            white_name: self.str("white")?.to_string(),
            black_name: self.str("black")?.to_string(),
            white_limit: self.str("white_limit")?.to_string(),
            black_limit: self.str("black_limit")?.to_string(),
            game_type: self.str("game_type")?.to_string(),
            opening,
            played: PlayedGame {
                result,
                termination: Termination { reason, detail: self.str("detail")?.to_string() },
                moves,
                opening_plies: self.number("opening_plies")?,
                game_string: self.str("game_string")?.to_string(),
                think: [seconds("white_seconds")?, seconds("black_seconds")?],
                transcript: None,
                // The day is all the PGN keeps of it (`Date`).
                started: started(self.str("started")?).ok_or_else(|| self.error("bad `started`".into()))?,
                duration: seconds("seconds")?,
            },
        })
    }
}

/// The first game number met twice in `lines`, with both lines.
pub fn first_duplicate(lines: &[JsonlGame]) -> Result<Option<(usize, &JsonlGame, &JsonlGame)>, JsonlError> {
    let mut seen = std::collections::HashMap::new();
    for line in lines {
        let game = line.game()?;
        if let Some(first) = seen.insert(game, line) {
            return Ok(Some((game, first, line)));
        }
    }
    Ok(None)
}

/// `2026-05-01T10:00:00Z` as a time.
fn started(text: &str) -> Option<SystemTime> {
    let number = |range: std::ops::Range<usize>| text.get(range)?.parse::<i64>().ok();
    let (y, mo, d) = (number(0..4)?, number(5..7)?, number(8..10)?);
    let (h, mi, s) = (number(11..13)?, number(14..16)?, number(17..19)?);
    // Howard Hinnant's days-from-civil, the inverse of [`super::utc`].
    let y = if mo <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (mo + if mo > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let secs = u64::try_from(days * 86_400 + h * 3600 + mi * 60 + s).ok()?;
    Some(UNIX_EPOCH + Duration::from_secs(secs))
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
    fn start_times_read_back() {
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400 + 3723);
        assert_eq!(started("2000-02-29T01:02:03Z"), Some(t));
        assert_eq!(super::super::utc(started("2025-12-31T23:59:59Z").unwrap()), (2025, 12, 31, 23, 59, 59));
        assert_eq!(started("2000-02-2"), None);
    }

    #[test]
    fn a_cut_last_line_is_told_from_a_bad_line() {
        let dir = std::env::temp_dir().join(format!("comb-jsonl-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.jsonl");
        let read_back = |text: &str| {
            std::fs::write(&path, text).unwrap();
            read(&path)
        };
        let games = read_back("{\"game\":1}\n\n{\"game\":2}\n{\"game\":3,\"tour").unwrap();
        assert_eq!(games.lines.iter().map(|l| l.number).collect::<Vec<_>>(), [1, 3]);
        assert_eq!(games.cut.as_ref().map(|c| c.0), Some(4));
        assert_eq!((games.whole, games.unterminated), (23, false));
        let games = read_back("{\"game\":1}\n{\"game\":2}").unwrap();
        assert_eq!((games.lines.len(), games.cut.is_none(), games.whole, games.unterminated), (2, true, 21, true));
        assert!(read_back("").unwrap().lines.is_empty());
        // Cut inside a character of two bytes (é): still only a cut line.
        std::fs::write(&path, [&b"{\"game\":1}\n{\"white\":\""[..], &[0xc3]].concat()).unwrap();
        let games = read(&path).unwrap();
        assert_eq!((games.lines.len(), games.cut.map(|c| c.0), games.whole), (1, Some(2), 11));
        let error = read_back("{\"game\":1}\n{\"game\":\n{\"game\":3}\n").unwrap_err().to_string();
        assert!(error.ends_with("games.jsonl:2: expected a value, found the end of the line"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }

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
        let line = format_game(&super::super::tests::sample(), &tail(&identity, Some(Shard { index: 2, count: 3 })));
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
