//! `comb tournament merge FILE.jsonl…`: the shards' JSONL files read back into one tournament,
//! counted as one run counts its games, and reported alike; optionally written out again as one
//! PGN and one JSONL file.
//!
//! The games are counted in game-number order, through the same [`Tally`] as a live run: with an
//! SPRT, the count stops at the game where the test reaches its verdict, as a run with
//! `--concurrency 1` stops (shards play their whole part, see [`super::shard`]). So N shards
//! merged report what the single run reports, apart from the times.

use super::args::MergeArgs;
use super::error::MergeError;
use super::jsonl::{self, Value};
use super::referee::{GameResult, PlayedGame, Termination};
use super::report::Tally;
use super::schedule::{self, Mode};
use super::settings::sprt_from;
use super::stats::Sprt;
use super::{pgn, stdout, GameRecord};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

/// Runs `comb tournament merge`. Exit status: 0 when merged, 1 when an output file could not be
/// written, 2 for files that cannot be merged (unreadable, of other tournaments, a game twice).
pub fn run_status(args: MergeArgs) -> u8 {
    match merge(&args) {
        Ok(()) => 0,
        Err(MergeError::Stdout(e)) => stdout::exit_status(&e),
        Err(e @ MergeError::Write { .. }) => {
            eprintln!("error: {e}");
            1
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// One game as a shard's file holds it.
struct Line {
    /// The file.
    path: PathBuf,
    /// Its line number, from 1.
    number: usize,
    /// The line as written.
    text: String,
    /// Its fields.
    fields: Vec<(String, Value)>,
}

impl Line {
    fn field(&self, key: &'static str) -> Result<&Value, MergeError> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v).ok_or_else(|| self.error(format!("no `{key}`")))
    }

    fn str(&self, key: &'static str) -> Result<&str, MergeError> {
        match self.field(key)? {
            Value::Str(s) => Ok(s),
            _ => Err(self.error(format!("`{key}` is not a string"))),
        }
    }

    fn number<T: std::str::FromStr>(&self, key: &'static str) -> Result<T, MergeError> {
        match self.field(key)? {
            Value::Number(n) => n.parse().map_err(|_| self.error(format!("`{key}` is out of range"))),
            _ => Err(self.error(format!("`{key}` is not a number"))),
        }
    }

    fn error(&self, reason: String) -> MergeError {
        MergeError::Line { path: self.path.clone(), line: self.number, reason }
    }

    /// `shard-1.jsonl:3`.
    fn place(&self) -> String {
        format!("{}:{}", self.path.display(), self.number)
    }
}

/// What the settings line of every game says about the tournament as a whole.
struct Settings {
    names: Vec<String>,
    pairings: Vec<(usize, usize)>,
    total: usize,
    sprt: Option<Sprt>,
}

/// Reads, checks, counts and prints; then writes the merged files.
fn merge(args: &MergeArgs) -> Result<(), MergeError> {
    let mut lines = read_all(&args.files)?;
    let id = check_one_tournament(&lines)?;
    check_each_game_once(&lines)?;
    lines.sort_by_key(|l| l.number::<usize>("game").unwrap_or(0));
    let settings = settings(&lines[0])?;
    let records = lines.iter().map(|l| record(l, &settings.names)).collect::<Result<Vec<_>, _>>()?;
    let (text, counted) = report(&settings, &id, args.files.len(), &records);
    stdout::block(&text).map_err(MergeError::Stdout)?;
    write_files(args, &lines[..counted], &records[..counted])
}

/// Every line of every file (blank lines skipped), in file order.
fn read_all(paths: &[PathBuf]) -> Result<Vec<Line>, MergeError> {
    let mut lines = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|error| MergeError::Read { path: path.clone(), error })?;
        for (i, text) in text.lines().enumerate().filter(|(_, t)| !t.trim().is_empty()) {
            let fields = jsonl::parse_object(text).map_err(|reason| MergeError::Line {
                path: path.clone(),
                line: i + 1,
                reason,
            })?;
            lines.push(Line { path: path.clone(), number: i + 1, text: text.to_string(), fields });
        }
    }
    if lines.is_empty() {
        return Err(MergeError::NoGames);
    }
    Ok(lines)
}

/// The tournament id every line shares, or the first line of another tournament.
fn check_one_tournament(lines: &[Line]) -> Result<String, MergeError> {
    let first = &lines[0];
    let id = first.str("tournament")?;
    for line in lines {
        let other = line.str("tournament")?;
        if other != id || line.str("settings")? != first.str("settings")? {
            return Err(MergeError::OtherTournament {
                first: first.place(),
                id: id.to_string(),
                other: line.place(),
                other_id: other.to_string(),
            });
        }
    }
    Ok(id.to_string())
}

/// Refuses a game number met twice (a shard given twice, or two runs of one shard).
fn check_each_game_once(lines: &[Line]) -> Result<(), MergeError> {
    let mut seen: HashMap<usize, &Line> = HashMap::new();
    for line in lines {
        let number = line.number("game")?;
        if let Some(first) = seen.insert(number, line) {
            return Err(MergeError::Duplicate { game: number, first: first.place(), again: line.place() });
        }
    }
    Ok(())
}

/// The engines, pairings, number of games and test, from the settings of `line`.
fn settings(line: &Line) -> Result<Settings, MergeError> {
    let text = line.str("settings")?;
    let get = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key).and_then(|rest| rest.strip_prefix('=')))
            .ok_or_else(|| line.error(format!("the settings have no `{key}`")))
    };
    let count = |key: &str| get(key)?.parse::<usize>().map_err(|_| line.error(format!("bad `{key}` in the settings")));
    let engines = count("engines")?;
    let names = (1..=engines)
        .map(|i| get(&format!("engine{i}")).map(|e| e.split(" | ").next().unwrap_or_default().to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    let mode = match get("mode")? {
        "gauntlet" => Mode::Gauntlet,
        _ => Mode::RoundRobin,
    };
    let sprt = match get("sprt")? {
        "none" => None,
        words => {
            let tokens: Vec<String> = words.split_whitespace().map(str::to_string).collect();
            Some(sprt_from(&tokens).map_err(|e| line.error(e.to_string()))?)
        }
    };
    Ok(Settings { pairings: schedule::pairings(engines, mode), names, total: count("games")?, sprt })
}

/// The game of `line`, with engines numbered as in `names`.
fn record(line: &Line, names: &[String]) -> Result<GameRecord, MergeError> {
    let engine = |key: &'static str| {
        let name = line.str(key)?;
        names.iter().position(|n| n == name).ok_or_else(|| line.error(format!("`{key}` {name} is no engine")))
    };
    let seconds = |key: &'static str| {
        line.number::<f64>(key)
            .and_then(|s| Duration::try_from_secs_f64(s).map_err(|_| line.error(format!("`{key}` is negative"))))
    };
    let moves = match line.field("moves")? {
        Value::Array(items) => items
            .iter()
            .map(|m| match m {
                Value::Str(s) => Ok(s.clone()),
                _ => Err(line.error("a move is not a string".into())),
            })
            .collect::<Result<Vec<_>, _>>()?,
        _ => return Err(line.error("`moves` is not an array".into())),
    };
    let opening = match line.field("opening")? {
        Value::Null => None,
        _ => Some(line.str("opening")?.to_string()),
    };
    let result = line.str("result")?;
    let result = GameResult::from_state(result).ok_or_else(|| line.error(format!("unknown result `{result}`")))?;
    let reason = line.str("reason")?;
    let reason = Termination::reason_named(reason).ok_or_else(|| line.error(format!("unknown reason `{reason}`")))?;
    Ok(GameRecord {
        number: line.number("game")?,
        round: line.number("round")?,
        pair: line.number("pair")?,
        white: engine("white")?,
        black: engine("black")?,
        white_name: line.str("white")?.to_string(),
        black_name: line.str("black")?.to_string(),
        white_limit: line.str("white_limit")?.to_string(),
        black_limit: line.str("black_limit")?.to_string(),
        game_type: line.str("game_type")?.to_string(),
        opening,
        played: PlayedGame {
            result,
            termination: Termination { reason, detail: line.str("detail")?.to_string() },
            moves,
            opening_plies: line.number("opening_plies")?,
            game_string: line.str("game_string")?.to_string(),
            think: [seconds("white_seconds")?, seconds("black_seconds")?],
            transcript: None,
            // The day is all the PGN keeps of it (`Date`).
            started: started(line.str("started")?).ok_or_else(|| line.error("bad `started`".into()))?,
            duration: seconds("seconds")?,
        },
    })
}

/// `2026-05-01T10:00:00Z` as a time.
fn started(text: &str) -> Option<std::time::SystemTime> {
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

/// The merged report, and how many games (in number order) it counts: all of them, or those up
/// to the SPRT's verdict.
fn report(settings: &Settings, id: &str, files: usize, records: &[GameRecord]) -> (String, usize) {
    let mut tally = Tally::new(settings.names.clone(), &settings.pairings, settings.sprt.as_ref(), true);
    let mut text = format!("Merged {files} file{}: tournament {id}\n", if files == 1 { "" } else { "s" });
    let mut counted = records.len();
    for (i, record) in records.iter().enumerate() {
        if let Some(decision) = tally.add(record) {
            text.push_str(&decision);
            counted = i + 1;
            break;
        }
    }
    // The time played is the games' own: the shards ran apart, in parallel or not.
    let elapsed = records[..counted].iter().map(|r| r.played.duration).sum();
    text.push_str(&tally.final_block(settings.total, elapsed));
    (text, counted)
}

/// Writes the counted games to `--pgn` and `--jsonl`, in number order. The JSONL lines are the
/// shards' own, marked as those of the whole run (`"shard":null`), so a merged file merges again.
fn write_files(args: &MergeArgs, lines: &[Line], records: &[GameRecord]) -> Result<(), MergeError> {
    if let Some(path) = &args.pgn {
        let text: String = records.iter().map(|r| pgn::format_game(r, &args.event, &args.site)).collect();
        write(path, &text)?;
    }
    if let Some(path) = &args.jsonl {
        let text: String = lines.iter().map(|l| whole_run_line(&l.text) + "\n").collect();
        write(path, &text)?;
    }
    Ok(())
}

/// A shard's line as the whole run writes it: `"shard":"K/N"` becomes `"shard":null`.
fn whole_run_line(text: &str) -> String {
    let Some(start) = text.rfind(",\"shard\":\"") else { return text.to_string() };
    let value = start + ",\"shard\":".len();
    match text[value + 1..].find('"') {
        Some(end) => format!("{}null{}", &text[..value], &text[value + end + 2..]),
        None => text.to_string(),
    }
}

fn write(path: &Path, text: &str) -> Result<(), MergeError> {
    std::fs::write(path, text).map_err(|error| MergeError::Write { path: path.to_path_buf(), error })
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
    fn shard_lines_become_whole_run_lines() {
        let line = "{\"game\":1,\"tournament\":\"ab\",\"shard\":\"2/3\",\"settings\":\"x\"}";
        assert_eq!(whole_run_line(line), "{\"game\":1,\"tournament\":\"ab\",\"shard\":null,\"settings\":\"x\"}");
        let whole = "{\"game\":1,\"shard\":null,\"settings\":\"x\"}";
        assert_eq!(whole_run_line(whole), whole);
    }
}
