//! Games as JSON Lines: one object per game, so a run can be analysed (or resumed) without
//! parsing PGN. Each line is a [`GameLine`], written and read by serde_json.
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
//! those first. Seconds have three decimals.

use super::error::JsonlError;
use super::identity::Identity;
use super::referee::{GameResult, PlayedGame, Termination};
use super::shard::Shard;
use super::{utc, GameRecord};
use crate::json::{self, Fixed};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// One game as a line of a tournament's JSONL file, its fields in the order they are written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    /// The game's number, from 1, in schedule order.
    pub game: usize,
    /// Its round, from 1.
    pub round: usize,
    /// Its pair of games, from 0.
    pub pair: usize,
    /// The game type.
    pub game_type: String,
    /// White's engine name.
    pub white: String,
    /// Black's engine name.
    pub black: String,
    /// White's limit per move (`depth=2`).
    pub white_limit: String,
    /// Black's limit per move.
    pub black_limit: String,
    /// The opening GameString, `null` for the empty board.
    pub opening: Option<String>,
    /// Plies in the opening.
    pub opening_plies: usize,
    /// `WhiteWins`, `BlackWins` or `Draw`.
    pub result: GameResult,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub score: String,
    /// Why the game ended, as a name (see [`Termination::reason`]).
    pub reason: String,
    /// Why, in words.
    pub detail: String,
    /// Plies played, opening included.
    pub plies: usize,
    /// The final GameString.
    pub game_string: String,
    /// Every MoveString, opening included.
    pub moves: Vec<String>,
    /// When the game started, `2026-05-01T10:00:00Z`.
    pub started: String,
    /// How long it took.
    pub seconds: Fixed<3>,
    /// White's time on its moves.
    pub white_seconds: Fixed<3>,
    /// Black's time on its moves.
    pub black_seconds: Fixed<3>,
    /// The tournament id; missing from the lines of versions before tournament ids.
    #[serde(default)]
    pub tournament: Option<String>,
    /// The shard, `2/3`, or `null` for the whole schedule.
    #[serde(default)]
    pub shard: Option<String>,
    /// The tournament's settings, one `key=value` a line.
    #[serde(default)]
    pub settings: Option<String>,
}

impl GameLine {
    /// The line of `record`, a game of tournament `identity` (and `shard`).
    pub fn new(record: &GameRecord, identity: &Identity, shard: Option<Shard>) -> GameLine {
        let p = &record.played;
        let (y, mo, d, h, mi, s) = utc(p.started);
        GameLine {
            game: record.number,
            round: record.round,
            pair: record.pair,
            game_type: record.game_type.clone(),
            white: record.white_name.clone(),
            black: record.black_name.clone(),
            white_limit: record.white_limit.clone(),
            black_limit: record.black_limit.clone(),
            opening: record.opening.clone(),
            opening_plies: p.opening_plies,
            result: p.result,
            score: p.result.score().to_string(),
            reason: p.termination.reason.to_string(),
            detail: p.termination.detail.clone(),
            plies: p.moves.len(),
            game_string: p.game_string.clone(),
            moves: p.moves.clone(),
            started: format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z"),
            seconds: Fixed(p.duration.as_secs_f64()),
            white_seconds: Fixed(p.think[0].as_secs_f64()),
            black_seconds: Fixed(p.think[1].as_secs_f64()),
            tournament: Some(identity.id.clone()),
            shard: shard.map(|s| s.to_string()),
            settings: Some(identity.settings.clone()),
        }
    }

    /// The line as written: one line of JSON, without the line break.
    pub fn text(&self) -> String {
        json::line(self)
    }
}

/// One game of tournament `identity` (and `shard`) as a single line of JSON (without the line
/// break).
pub fn format_game(record: &GameRecord, identity: &Identity, shard: Option<Shard>) -> String {
    GameLine::new(record, identity, shard).text()
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

/// One game as a tournament's JSONL file holds it, with where.
#[derive(Clone, Debug)]
pub struct JsonlGame {
    /// The file.
    pub path: PathBuf,
    /// Its line number, from 1.
    pub number: usize,
    /// The game.
    pub game: GameLine,
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
            Ok(text) => Some(serde_json::from_str::<GameLine>(text).map_err(|e| json::error_in_line(&e))),
            Err(_) => Some(Err("not UTF-8 text".to_string())),
        };
        match parsed {
            Some(Ok(game)) => games.lines.push(JsonlGame { path: path.to_path_buf(), number, game }),
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
    /// The tournament id; a line without one predates them.
    pub fn tournament(&self) -> Result<&str, JsonlError> {
        self.game.tournament.as_deref().ok_or(JsonlError::NoTournament { path: self.path.clone(), line: self.number })
    }

    /// The tournament's settings.
    pub fn settings(&self) -> Result<&str, JsonlError> {
        self.game.settings.as_deref().ok_or_else(|| self.error("no `settings`".into()))
    }

    /// The shard, `2/3`, or `None` for the whole schedule.
    pub fn shard(&self) -> Option<&str> {
        self.game.shard.as_deref()
    }

    /// An error at this line.
    pub fn error(&self, reason: String) -> JsonlError {
        JsonlError::Line { path: self.path.clone(), line: self.number, reason }
    }

    /// `shard-1.jsonl:3`.
    pub fn place(&self) -> String {
        format!("{}:{}", self.path.display(), self.number)
    }

    /// The line as the whole run writes it: a shard's `"shard":"K/N"` becomes `"shard":null`,
    /// so that a merged file merges again.
    pub fn whole_run_text(&self) -> String {
        GameLine { shard: None, ..self.game.clone() }.text()
    }

    /// The game of this line, with engines numbered as in `names`. It holds all the files
    /// need: a PGN game is made from it alike (only the transcript is not kept).
    pub fn record(&self, names: &[String]) -> Result<GameRecord, JsonlError> {
        let g = &self.game;
        let engine = |key: &str, name: &str| {
            names.iter().position(|n| n == name).ok_or_else(|| self.error(format!("`{key}` {name} is no engine")))
        };
        let seconds = |key: &str, s: Fixed<3>| {
            Duration::try_from_secs_f64(s.0).map_err(|_| self.error(format!("`{key}` is negative")))
        };
        let reason =
            Termination::reason_named(&g.reason).ok_or_else(|| self.error(format!("unknown reason `{}`", g.reason)))?;
        Ok(GameRecord {
            number: g.game,
            round: g.round,
            pair: g.pair,
            white: engine("white", &g.white)?,
            black: engine("black", &g.black)?,
            white_name: g.white.clone(),
            black_name: g.black.clone(),
            white_limit: g.white_limit.clone(),
            black_limit: g.black_limit.clone(),
            game_type: g.game_type.clone(),
            opening: g.opening.clone(),
            played: PlayedGame {
                result: g.result,
                termination: Termination { reason, detail: g.detail.clone() },
                moves: g.moves.clone(),
                opening_plies: g.opening_plies,
                game_string: g.game_string.clone(),
                think: [seconds("white_seconds", g.white_seconds)?, seconds("black_seconds", g.black_seconds)?],
                transcript: None,
                // The day is all the PGN keeps of it (`Date`).
                started: started(&g.started).ok_or_else(|| self.error("bad `started`".into()))?,
                duration: seconds("seconds", g.seconds)?,
            },
        })
    }
}

/// The first game number met twice in `lines`, with both lines.
pub fn first_duplicate(lines: &[JsonlGame]) -> Option<(usize, &JsonlGame, &JsonlGame)> {
    let mut seen = std::collections::HashMap::new();
    for line in lines {
        if let Some(first) = seen.insert(line.game.game, line) {
            return Some((line.game.game, first, line));
        }
    }
    None
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

    fn sample_line() -> String {
        let identity = Identity { id: "0123456789abcdef".into(), settings: "mode=gauntlet\nrounds=2".into() };
        format_game(&super::super::tests::sample(), &identity, Some(Shard { index: 2, count: 3 }))
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
        let game = sample_line();
        let (g, n) = (game.as_str(), game.len() as u64 + 1);
        let games = read_back(&format!("{g}\n\n{g}\n{}", &g[..40])).unwrap();
        assert_eq!(games.lines.iter().map(|l| l.number).collect::<Vec<_>>(), [1, 3]);
        assert_eq!(games.cut, Some((4, "EOF while parsing a string at column 40".into())));
        assert_eq!((games.whole, games.unterminated), (2 * n + 1, false));
        let games = read_back(&format!("{g}\n{g}")).unwrap();
        assert_eq!(
            (games.lines.len(), games.cut.is_none(), games.whole, games.unterminated),
            (2, true, 2 * n - 1, true)
        );
        assert!(read_back("").unwrap().lines.is_empty());
        // Cut inside a character of two bytes (é): still only a cut line.
        std::fs::write(&path, [format!("{g}\n{{\"white\":\"").as_bytes(), &[0xc3]].concat()).unwrap();
        let games = read(&path).unwrap();
        assert_eq!((games.lines.len(), games.cut.map(|c| c.0), games.whole), (1, Some(2), n));
        let error = read_back(&format!("{g}\n{{\"game\":\n{g}\n")).unwrap_err().to_string();
        assert!(error.ends_with("games.jsonl:2: EOF while parsing a value at column 8"), "{error}");
        let error = read_back("{\"game\":1}\n").unwrap_err().to_string();
        assert!(error.ends_with("games.jsonl:1: missing field `round` at column 10"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn one_line_per_game() {
        let line = sample_line();
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
        assert!(line.ends_with(
            "\"tournament\":\"0123456789abcdef\",\"shard\":\"2/3\",\"settings\":\"mode=gauntlet\\nrounds=2\"}"
        ));
        let game: GameLine = serde_json::from_str(&line).unwrap();
        assert_eq!(game.white, "A \"the ant\"");
        assert_eq!(game.detail, "illegal move by A: `pass` {really}\nnow");
        assert_eq!(game.moves, ["wS1", "bS1 wS1-", "wG1 \\wS1"]);
        assert_eq!((game.game, game.seconds), (17, Fixed(2.0)));
        assert_eq!(game.settings.as_deref(), Some("mode=gauntlet\nrounds=2"));
        assert_eq!(game.text(), line, "a line reads back and is written again alike");
        let line = JsonlGame { path: "x.jsonl".into(), number: 1, game };
        assert_eq!(line.whole_run_text(), line.game.text().replace("\"shard\":\"2/3\"", "\"shard\":null"));
    }
}
