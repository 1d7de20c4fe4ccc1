//! `--resume`: a run that was interrupted (Ctrl+C, a killed node, a pre-empted pod) continues
//! from its own JSONL file. The games in it are kept, the others of the schedule (or of the
//! shard's part) are played, and the report counts them all as a run that was never
//! interrupted counts them.
//!
//! The file must be this run's: every line of the same tournament (id and settings) and the same
//! shard, every game one of this run's and none twice. A run that is killed may leave its last
//! line cut short; that line, and only that one, is dropped (the file is cut back to its last
//! whole line) and its game played again. Nothing is changed in a file that is refused.

use super::error::{JsonlError, ResumeError};
use super::identity::Identity;
use super::jsonl::{self, JsonlGame};
use super::schedule::GameSpec;
use super::shard::Shard;
use super::GameRecord;
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// What a run resumes from: the games its JSONL file already holds.
#[derive(Debug)]
pub struct Resumed {
    /// The JSONL file.
    pub path: PathBuf,
    /// The finished games, in file order (the order they finished in).
    pub kept: Vec<GameRecord>,
    /// The number of the last line, when it was cut short and is dropped.
    pub cut: Option<usize>,
    /// Bytes of the file up to the end of its last whole line.
    whole: u64,
    /// Whether the last whole line needs its line break.
    unterminated: bool,
    /// Whether the file exists (a run that never started has none).
    exists: bool,
}

impl Resumed {
    /// Opens the JSONL file to append this run's games: cut back to its last whole line (which
    /// gets its line break if the run was killed just before it), or created.
    pub fn open(&self) -> io::Result<File> {
        if !self.exists {
            return File::create(&self.path);
        }
        let mut file = OpenOptions::new().append(true).open(&self.path)?;
        if let Some(line) = self.cut {
            eprintln!(
                "warning: {}:{line}: the last line is cut short (the run was stopped while writing it): dropped, \
                 and its game is played again",
                self.path.display()
            );
            file.set_len(self.whole)?;
        }
        if self.unterminated {
            file.write_all(b"\n")?;
        }
        Ok(file)
    }
}

/// Reads and checks the JSONL file at `path` for a run of tournament `identity` (and `shard`)
/// that plays `games`, with engines `names`. A file that does not exist, or holds no game, is
/// a fresh start.
pub fn load(
    path: &Path,
    identity: &Identity,
    shard: Option<Shard>,
    games: &[GameSpec],
    names: &[String],
) -> Result<Resumed, ResumeError> {
    let mut resumed = Resumed {
        path: path.to_path_buf(),
        kept: Vec::new(),
        cut: None,
        whole: 0,
        unterminated: false,
        exists: path.exists(),
    };
    if !resumed.exists {
        return Ok(resumed);
    }
    let read = jsonl::read(path)?;
    let scheduled: HashSet<usize> = games.iter().map(|g| g.number).collect();
    let shard = shard.map(|s| s.to_string());
    for line in &read.lines {
        check_line(line, identity, shard.as_deref(), &scheduled)?;
    }
    if let Some((game, first, again)) = jsonl::first_duplicate(&read.lines) {
        return Err(ResumeError::Duplicate { game, first: first.place(), again: again.place() });
    }
    resumed.kept = read.lines.iter().map(|l| l.record(names)).collect::<Result<_, JsonlError>>()?;
    resumed.cut = read.cut.map(|(line, _)| line);
    resumed.whole = read.whole;
    resumed.unterminated = read.unterminated;
    Ok(resumed)
}

/// Refuses a line of another tournament or shard, or a game this run does not play.
fn check_line(
    line: &JsonlGame,
    identity: &Identity,
    shard: Option<&str>,
    scheduled: &HashSet<usize>,
) -> Result<(), ResumeError> {
    let (id, settings) = (line.tournament()?, line.settings()?);
    if id != identity.id || settings != identity.settings {
        return Err(ResumeError::OtherTournament {
            place: line.place(),
            id: id.to_string(),
            ours: identity.id.clone(),
            difference: first_difference(settings, &identity.settings),
        });
    }
    let theirs = line.shard();
    if theirs != shard {
        return Err(ResumeError::OtherShard {
            place: line.place(),
            theirs: theirs.unwrap_or("none (the whole schedule)").to_string(),
            ours: shard.unwrap_or("none (the whole schedule)").to_string(),
        });
    }
    let game = line.game.game;
    if !scheduled.contains(&game) {
        return Err(ResumeError::NotScheduled { place: line.place(), game });
    }
    Ok(())
}

/// The first line where settings `theirs` and `ours` differ (a line missing on one side is
/// empty there).
fn first_difference(theirs: &str, ours: &str) -> Option<(String, String)> {
    let (mut a, mut b) = (theirs.lines(), ours.lines());
    loop {
        match (a.next(), b.next()) {
            (None, None) => return None,
            (x, y) if x != y => return Some((x.unwrap_or("").to_string(), y.unwrap_or("").to_string())),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_differing_setting_is_named() {
        assert_eq!(first_difference("a=1\nb=2", "a=1\nb=2"), None);
        assert_eq!(first_difference("a=1\nb=2\nc=3", "a=1\nb=4\nc=3"), Some(("b=2".into(), "b=4".into())));
        assert_eq!(first_difference("a=1", "a=1\nb=2"), Some(("".into(), "b=2".into())));
    }
}
