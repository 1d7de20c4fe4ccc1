//! `comb tournament merge FILE.jsonl…`: the shards' JSONL files read back into one tournament,
//! counted as one run counts its games, and reported alike; optionally written out again as one
//! PGN and one JSONL file.
//!
//! The games are counted in game-number order, through the same [`TournamentTally`] as a live run: with an
//! SPRT, the count stops at the game where the test reaches its verdict, as a run with
//! `--concurrency 1` stops (shards play their whole part, see [`super::shard`]). So N shards
//! merged report what the single run reports, apart from the times.

use super::args::MergeArgs;
use super::error::MergeError;
use super::identity;
use super::jsonl::{self, JsonlGame};
use super::report::TournamentTally;
use super::schedule::{self, Mode};
use super::settings::sprt_from;
use super::stats::Sprt;
use super::GameRecord;
use crate::pgn;
use crate::stdout;
use std::path::{Path, PathBuf};

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
    lines.sort_by_key(|l| l.game.game);
    let settings = settings(&lines[0])?;
    let records = lines.iter().map(|l| l.record(&settings.names)).collect::<Result<Vec<_>, _>>()?;
    let (text, counted) = report(&settings, &id, args.files.len(), &records);
    stdout::block(&text).map_err(MergeError::Stdout)?;
    write_files(args, &lines[..counted], &records[..counted])
}

/// Every game line of every file, in file order. A cut last line (a run killed mid-line) is
/// refused: that run has games still to play, so the tournament is not finished.
fn read_all(paths: &[PathBuf]) -> Result<Vec<JsonlGame>, MergeError> {
    let mut lines = Vec::new();
    for path in paths {
        let games = jsonl::read(path)?;
        if let Some((number, _)) = games.cut {
            return Err(MergeError::Cut { place: format!("{}:{number}", path.display()) });
        }
        lines.extend(games.lines);
    }
    if lines.is_empty() {
        return Err(MergeError::NoGames);
    }
    Ok(lines)
}

/// The tournament id every line shares, or the first line of another tournament.
fn check_one_tournament(lines: &[JsonlGame]) -> Result<String, MergeError> {
    let first = &lines[0];
    let id = first.tournament()?;
    for line in lines {
        let other = line.tournament()?;
        if other != id || line.settings()? != first.settings()? {
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
fn check_each_game_once(lines: &[JsonlGame]) -> Result<(), MergeError> {
    match jsonl::first_duplicate(lines) {
        Some((game, first, again)) => Err(MergeError::Duplicate { game, first: first.place(), again: again.place() }),
        None => Ok(()),
    }
}

/// The engines, pairings, number of games and test, from the settings of `line`.
fn settings(line: &JsonlGame) -> Result<Settings, MergeError> {
    let text = line.settings()?;
    let get = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key).and_then(|rest| rest.strip_prefix('=')))
            .ok_or_else(|| line.error(format!("the settings have no `{key}`")))
    };
    let count = |key: &str| get(key)?.parse::<usize>().map_err(|_| line.error(format!("bad `{key}` in the settings")));
    let engines = count("engines")?;
    let names =
        (1..=engines).map(|i| get(&format!("engine{i}")).map(identity::engine_name)).collect::<Result<Vec<_>, _>>()?;
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

/// The merged report, and how many games (in number order) it counts: all of them, or those up
/// to the SPRT's verdict.
fn report(settings: &Settings, id: &str, files: usize, records: &[GameRecord]) -> (String, usize) {
    let mut tally = TournamentTally::new(settings.names.clone(), &settings.pairings, settings.sprt.as_ref(), true);
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
fn write_files(args: &MergeArgs, lines: &[JsonlGame], records: &[GameRecord]) -> Result<(), MergeError> {
    if let Some(path) = &args.pgn {
        let text: String = records.iter().map(|r| pgn::format_record(r, &args.event, &args.site)).collect();
        write(path, &text)?;
    }
    if let Some(path) = &args.jsonl {
        let text: String = lines.iter().map(|l| l.whole_run_text() + "\n").collect();
        write(path, &text)?;
    }
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<(), MergeError> {
    std::fs::write(path, text).map_err(|error| MergeError::Write { path: path.to_path_buf(), error })
}
