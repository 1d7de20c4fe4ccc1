//! The game files of a run: the PGN file, one PGN file per game, the JSON Lines file and the
//! transcripts of games an engine lost by failing. All are created (or truncated) before the
//! first game, so that a wrong path stops the run before any game is played, and every game is
//! written as soon as it finishes.
//!
//! A resumed run (`--resume`) appends to its JSONL file instead, and writes the PGN files of
//! the games it keeps again from their JSONL lines, which hold everything a PGN game is made
//! of: so the PGN file ends up with every game, as the JSONL file does. Transcripts of kept
//! games are the ones already in their directory.

use super::args::TournamentArgs;
use super::error::{RunError, SetupError};
use super::identity::Identity;
use super::resume::Resumed;
use super::shard::Shard;
use super::{jsonl, GameRecord};
use crate::pgn;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The open game files, and the PGN tags they share (by default, none).
#[derive(Default)]
pub struct GameFiles {
    pgn: Option<File>,
    pgn_dir: Option<PathBuf>,
    jsonl: Option<File>,
    transcripts: Option<PathBuf>,
    event: String,
    site: String,
    /// The tournament and the shard, which every JSONL line ends with.
    identity: Identity,
    shard: Option<Shard>,
}

fn create(path: &PathBuf) -> Result<File, SetupError> {
    File::create(path).map_err(|error| SetupError::Output { path: path.clone(), error })
}

fn create_dir(path: &PathBuf) -> Result<PathBuf, SetupError> {
    std::fs::create_dir_all(path).map_err(|error| SetupError::Output { path: path.clone(), error })?;
    Ok(path.clone())
}

fn write_error(what: &str) -> impl FnOnce(io::Error) -> RunError + '_ {
    move |error| RunError::Write { what: what.to_string(), error }
}

fn write_file(path: &Path, text: &str) -> Result<(), RunError> {
    std::fs::write(path, text).map_err(write_error(&path.display().to_string()))
}

impl GameFiles {
    /// Creates the files and directories `--pgn`, `--pgn-dir`, `--jsonl` and `--transcripts`
    /// name, in that order, for the games of tournament `identity` (and `shard`); a resumed run
    /// opens its JSONL file to append to it.
    pub fn create(
        args: &TournamentArgs,
        identity: &Identity,
        shard: Option<Shard>,
        resume: Option<&Resumed>,
    ) -> Result<GameFiles, SetupError> {
        let jsonl = match (resume, &args.jsonl) {
            (Some(r), _) => Some(r.open().map_err(|error| SetupError::Output { path: r.path.clone(), error })?),
            (None, path) => path.as_ref().map(create).transpose()?,
        };
        Ok(GameFiles {
            identity: identity.clone(),
            shard,
            pgn: args.pgn.as_ref().map(create).transpose()?,
            pgn_dir: args.pgn_dir.as_ref().map(create_dir).transpose()?,
            jsonl,
            transcripts: args.transcripts.as_ref().map(create_dir).transpose()?,
            event: args.event.clone(),
            site: args.site.clone(),
        })
    }

    /// Writes a finished game to every file that was asked for, flushed at once (a run cut short
    /// keeps every game it reported).
    pub fn write(&mut self, record: &GameRecord) -> Result<(), RunError> {
        let pgn_text = pgn::format_record(record, &self.event, &self.site);
        self.append_pgn(&pgn_text)?;
        self.write_pgn_file(record, &pgn_text)?;
        self.append_jsonl(record)?;
        self.write_transcript(record)
    }

    /// Writes a game kept by `--resume` to the PGN files (its JSONL line is already written).
    pub fn write_kept(&mut self, record: &GameRecord) -> Result<(), RunError> {
        let pgn_text = pgn::format_record(record, &self.event, &self.site);
        self.append_pgn(&pgn_text)?;
        self.write_pgn_file(record, &pgn_text)
    }

    fn append_pgn(&mut self, pgn_text: &str) -> Result<(), RunError> {
        let Some(f) = &mut self.pgn else { return Ok(()) };
        f.write_all(pgn_text.as_bytes()).and_then(|()| f.flush()).map_err(write_error("the PGN file"))
    }

    fn write_pgn_file(&self, record: &GameRecord, pgn_text: &str) -> Result<(), RunError> {
        let Some(dir) = &self.pgn_dir else { return Ok(()) };
        write_file(&dir.join(format!("game-{:04}.pgn", record.number)), pgn_text)
    }

    fn append_jsonl(&mut self, record: &GameRecord) -> Result<(), RunError> {
        let Some(f) = &mut self.jsonl else { return Ok(()) };
        writeln!(f, "{}", jsonl::format_game(record, &self.identity, self.shard))
            .and_then(|()| f.flush())
            .map_err(write_error("the JSONL file"))
    }

    /// The transcript of a game an engine lost by failing, under a line naming the game.
    fn write_transcript(&self, record: &GameRecord) -> Result<(), RunError> {
        let (Some(dir), Some(text)) = (&self.transcripts, &record.played.transcript) else { return Ok(()) };
        let header = format!(
            "# game {} ({} vs {}): {}\n",
            record.number, record.white_name, record.black_name, record.played.termination.detail
        );
        write_file(&dir.join(format!("game-{:04}.log", record.number)), &(header + text))
    }
}
