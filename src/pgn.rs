//! Hive PGN, the game records of Mzinga and MzingaViewer (`Mzinga/Core/GameRecording.cs`,
//! `SavePGN` and `LoadPGN`), both ways: [`format_game`] writes one game, [`parse_games`] reads a
//! text of one or more games back, Hive or Intellector, into their tags and moves, and
//! [`PgnGame::game`] replays one with comb's rules into an [`AnyGame`] and its GameString.
//!
//! ```text
//! [GameType "Base+MLP"]
//! [Date "2026.05.01"]
//! [Event "comb tournament"]
//! [Site ""]
//! [Round "17"]
//! [White "A"]
//! [Black "B"]
//! [Result "WhiteWins"]
//! [Opening "Base+MLP;InProgress;White[2];wS1;bG1 -wS1"]
//! [Termination "surrounded"]
//! [TimeControl "depth=2"]
//!
//! 1. wS1
//! 2. bG1 -wS1
//! …
//! 63. wA1 bQ/
//! {queen surrounded}
//!
//! WhiteWins
//! ```
//!
//! **Writing.** The tags come first in the order given (Mzinga's mandatory ones first:
//! `GameType`, `Date`, `Event`, `Site`, `Round`, `White`, `Black`, `Result`). When there are
//! moves, a blank line and one numbered MoveString per ply follow, from the game type's start
//! (the empty board; Mzinga replays a PGN from there, so an opening's moves are included). A
//! comment after the last move, a blank line and the result end the game. Intellector games
//! are written alike: their `GameType` is `Intellector` or `Intellector[<SIP>]` and their
//! moves are in comb's canonical notation (`e2e3`, `f6g7=A`). Mzinga drops `"` from tag values
//! and `{}` from comments, so those characters are removed here too.
//!
//! **Backslashes in tags.** GameStrings contain backslashes (`wG1 \wS1`, `wA1 wG1\`). The PGN
//! standard reads `\\` as a backslash and `\"` as a quote inside a tag; Mzinga's reader
//! (`ParsePGNTag`) has no escapes at all: it deletes every `"` and trims. No escaping satisfies
//! both (a doubled backslash stays doubled for Mzinga), so tags are written so that neither
//! convention applies: a backslash is never followed by the closing quote or by another
//! backslash. A value ending in one (the Opening `…;wA1 wG1\`) gets a space before the closing
//! quote, which Mzinga trims away and which a GameString reader ignores; `a\\b` in free text
//! becomes `a\ \b` for both readers. Otherwise a backslash is followed by a letter, a space
//! or `;`, which both readers keep as it is.
//!
//! **Reading** takes what the writer and MzingaViewer write, and a little more:
//! - A tag is a line `[Name "value"]`; its value is read as Mzinga reads it: the text between
//!   the quotes, every `"` dropped, trimmed, no escapes (so every value the writer wrote reads
//!   back as it was before the writer's trailing space). A game starts at its first tag; a tag
//!   after a game's moves, comments or result starts the next game.
//! - A move number (`12.`, `12...`, or digits alone) starts a move, which runs to the next
//!   number, comment or result, or to the end of the line: `1. wS1 2. bG1 -wS1` and `1. wS1` on
//!   a line each read the same. A line without a number is one move, as for Mzinga. Numbers
//!   are not checked.
//! - Comments `{…}` go anywhere outside tags, on one line or over several.
//! - A result token ends the moves: Mzinga's `WhiteWins`, `BlackWins`, `Draw`, `InProgress`,
//!   `NotStarted`, or the standard's `1-0`, `0-1`, `1/2-1/2`, `*`.
//! - `\r\n` line ends, blank lines anywhere and a byte-order mark are fine.
//!
//! A game without a `GameType` tag is `Base`, as for Mzinga. Replaying checks every move, as
//! Mzinga's `LoadPGN` does, and keeps it as the game's record keeps a played move (for Hive the
//! normalised text, as Mzinga's GameString; for Intellector the canonical form), so the
//! GameString is the one Mzinga (or the tournament that wrote the file) had. Intellector games
//! are replayed under the rules the caller gives: the PGN does not say which. The `Result` tag
//! is not checked against the position: a game may end by resignation, time or adjudication.

use crate::error::RulesError;
use crate::games::{AnyGame, GameOptions, UnknownGameType};
use crate::tournament::{utc, GameRecord};
use std::fmt;

/// The game type of a game without a `GameType` tag, as for Mzinga.
pub const DEFAULT_GAME_TYPE: &str = "Base";

/// The tokens that end a game's moves: Mzinga's game states, then the PGN standard's results.
const RESULTS: [&str; 9] = ["WhiteWins", "BlackWins", "Draw", "InProgress", "NotStarted", "1-0", "0-1", "1/2-1/2", "*"];

/// A tag value as Mzinga would store it (no quotes, no line breaks, trimmed), with no backslash
/// before the closing quote or another backslash (see the module notes).
fn tag_value(value: &str) -> String {
    let value = value.replace('"', "").replace(['\r', '\n'], " ");
    let mut out = String::with_capacity(value.len() + 1);
    let mut chars = value.trim().chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c == '\\' && matches!(chars.peek(), None | Some('\\')) {
            out.push(' ');
        }
    }
    out
}

/// One game in Mzinga's layout: the `tags` in the order given; then, when there are `moves`, a
/// blank line and one numbered MoveString per ply; the `comment` in braces (unless empty); a
/// blank line and the `result`. The text ends with a blank line, so that games can be appended
/// to one file.
pub fn format_game(tags: &[(&str, String)], moves: &[String], comment: &str, result: &str) -> String {
    let mut out = String::new();
    for (key, value) in tags {
        out.push_str(&format!("[{key} \"{}\"]\n", tag_value(value)));
    }
    if !moves.is_empty() {
        out.push('\n');
        for (i, mv) in moves.iter().enumerate() {
            out.push_str(&format!("{}. {mv}\n", i + 1));
        }
    }
    let comment = comment.replace(['{', '}'], "").replace(['\r', '\n'], " ");
    if !comment.trim().is_empty() {
        out.push_str(&format!("{{{}}}\n", comment.trim()));
    }
    out.push_str(&format!("\n{result}\n\n"));
    out
}

/// A finished tournament game as Hive PGN: the tags a [`GameRecord`] gives, in Mzinga's order
/// (`GameType`, `Date`, `Event`, `Site`, `Round`, `White`, `Black`, `Result`), then comb's own
/// (`Opening`, `Termination`, `TimeControl`); the moves from the game type's start, opening
/// included; the termination in words as the comment. `Round` holds the game's number, as in
/// the tournament's live output. The text ends with a blank line, as [`format_game`]'s does.
pub fn format_record(record: &GameRecord, event: &str, site: &str) -> String {
    let (y, m, d, ..) = utc(record.played.started);
    let time_control = if record.white_limit == record.black_limit {
        record.white_limit.clone()
    } else {
        format!("White {}, Black {}", record.white_limit, record.black_limit)
    };
    let mut tags = vec![
        ("GameType", record.game_type.clone()),
        ("Date", format!("{y:04}.{m:02}.{d:02}")),
        ("Event", event.to_string()),
        ("Site", site.to_string()),
        ("Round", record.number.to_string()),
        ("White", record.white_name.clone()),
        ("Black", record.black_name.clone()),
        ("Result", record.played.result.state().to_string()),
    ];
    if let Some(opening) = &record.opening {
        tags.push(("Opening", opening.clone()));
    }
    tags.push(("Termination", record.played.termination.reason.to_string()));
    tags.push(("TimeControl", time_control));
    let played = &record.played;
    format_game(&tags, &played.moves, &played.termination.detail, played.result.state())
}

/// A tag line read as the PGN standard says: `[Name "value"]`, where inside the string
/// `\\` is a backslash and `\"` a quote (any other backslash is kept as it is). `None` when
/// the line is not one whole tag (an unterminated string, say).
pub fn standard_tag(line: &str) -> Option<(String, String)> {
    let rest = line.trim().strip_prefix('[')?;
    let (name, rest) = rest.split_once(|c: char| c.is_whitespace())?;
    let mut chars = rest.trim_start().strip_prefix('"')?.chars();
    let mut value = String::new();
    loop {
        match chars.next()? {
            '"' => break,
            '\\' => match chars.clone().next() {
                Some(c @ ('\\' | '"')) => {
                    chars.next();
                    value.push(c);
                }
                _ => value.push('\\'),
            },
            c => value.push(c),
        }
    }
    (chars.as_str().trim() == "]").then(|| (name.to_string(), value))
}

/// A tag line read as Mzinga's `GameRecording.ParsePGNTag` reads it: the name up to the first
/// space, then the rest with every `"` deleted, trimmed (no escapes).
pub fn mzinga_tag(line: &str) -> Option<(String, String)> {
    let line = line.trim();
    if !(line.starts_with('[') && line.ends_with(']')) {
        return None;
    }
    let line = line.trim_start_matches('[').trim_end_matches(']');
    let (name, value) = line.split_once(' ')?;
    Some((name.trim().to_string(), value.replace('"', "").trim().to_string()))
}

/// Where something is in a PGN text: its game and its line, both counted from 1.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The game's number in the text.
    pub game: usize,
    /// The line.
    pub line: usize,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {} (game {})", self.line, self.game)
    }
}

/// Why a PGN text, or a game in it, cannot be read.
#[derive(Clone, Debug, PartialEq)]
pub enum PgnError {
    /// A line that starts with `[` but is not one whole tag `[Name "value"]`.
    Tag {
        /// The line.
        at: Place,
        /// What is wrong with it.
        why: &'static str,
    },
    /// A `{` comment that is never closed (at the line it opens on).
    UnterminatedComment {
        /// Where it opens.
        at: Place,
    },
    /// A move after the game's result.
    AfterResult {
        /// The move's line.
        at: Place,
        /// The move.
        text: String,
    },
    /// A game type the rules do not know (at the `GameType` tag).
    UnknownGameType {
        /// The tag's line.
        at: Place,
        /// The tag's value.
        game_type: String,
    },
    /// A move that cannot be read or played.
    Move {
        /// The move's line.
        at: Place,
        /// Its ply, from 1.
        ply: usize,
        /// The move as written.
        text: String,
        /// Why the rules refuse it.
        reason: RulesError,
    },
}

impl PgnError {
    /// Where the error is.
    pub fn place(&self) -> Place {
        match self {
            PgnError::Tag { at, .. }
            | PgnError::UnterminatedComment { at }
            | PgnError::AfterResult { at, .. }
            | PgnError::UnknownGameType { at, .. }
            | PgnError::Move { at, .. } => *at,
        }
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.place())?;
        match self {
            PgnError::Tag { why, .. } => write!(f, "not a tag `[Name \"value\"]`: {why}"),
            PgnError::UnterminatedComment { .. } => f.write_str("a comment `{` that is never closed with `}`"),
            PgnError::AfterResult { text, .. } => write!(f, "move `{text}` after the game's result"),
            PgnError::UnknownGameType { game_type, .. } => write!(f, "{}", UnknownGameType(game_type.clone())),
            PgnError::Move { ply, text, reason, .. } => write!(f, "ply {ply} `{text}`: {reason}"),
        }
    }
}

impl std::error::Error for PgnError {}

/// A tag as read, with its line.
#[derive(Clone, Debug, PartialEq)]
struct Tag {
    name: String,
    value: String,
    line: usize,
}

/// A move as read, with its line.
#[derive(Clone, Debug, PartialEq)]
struct Ply {
    text: String,
    line: usize,
}

/// One game read from a PGN text: its tags, moves, comments and result token, not yet
/// replayed (see [`PgnGame::game`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PgnGame {
    number: usize,
    line: usize,
    tags: Vec<Tag>,
    moves: Vec<Ply>,
    comments: Vec<String>,
    result: Option<String>,
}

impl PgnGame {
    fn new(number: usize, line: usize) -> PgnGame {
        PgnGame { number, line, tags: Vec::new(), moves: Vec::new(), comments: Vec::new(), result: None }
    }

    /// Its number in the text, from 1.
    pub fn number(&self) -> usize {
        self.number
    }

    /// The line it starts on, from 1.
    pub fn line(&self) -> usize {
        self.line
    }

    /// The tags as (name, value), in the order written.
    pub fn tags(&self) -> impl Iterator<Item = (&str, &str)> {
        self.tags.iter().map(|t| (t.name.as_str(), t.value.as_str()))
    }

    /// A tag's value (the last one, if the tag is repeated, as Mzinga keeps it).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.find_tag(name).map(|t| t.value.as_str())
    }

    fn find_tag(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().rev().find(|t| t.name == name)
    }

    /// The `GameType` tag, or [`DEFAULT_GAME_TYPE`] without one.
    pub fn game_type(&self) -> &str {
        self.tag("GameType").unwrap_or(DEFAULT_GAME_TYPE)
    }

    /// The `White` tag.
    pub fn white(&self) -> Option<&str> {
        self.tag("White")
    }

    /// The `Black` tag.
    pub fn black(&self) -> Option<&str> {
        self.tag("Black")
    }

    /// The `Result` tag, else the result token after the moves (`WhiteWins`, `1-0`, …).
    pub fn result(&self) -> Option<&str> {
        self.tag("Result").or(self.result.as_deref())
    }

    /// The `Opening` tag: the GameString the game started from, as comb's tournament writes it.
    pub fn opening(&self) -> Option<&str> {
        self.tag("Opening")
    }

    /// The MoveStrings as written, from the start.
    pub fn moves(&self) -> impl Iterator<Item = &str> {
        self.moves.iter().map(|p| p.text.as_str())
    }

    /// How many plies were written.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The comments, in order, without their braces.
    pub fn comments(&self) -> &[String] {
        &self.comments
    }

    /// The game replayed: its game type's start, set up with `options` (Intellector's rule
    /// set, which the PGN does not say), then every move, checked by the rules.
    pub fn game(&self, options: GameOptions) -> Result<AnyGame, PgnError> {
        self.game_after(self.moves.len(), options)
    }

    /// The game after its first `plies` plies (all of them if it has fewer); the moves after
    /// those are not read.
    pub fn game_after(&self, plies: usize, options: GameOptions) -> Result<AnyGame, PgnError> {
        let mut game = self.start(options)?;
        for (i, ply) in self.moves.iter().take(plies).enumerate() {
            game.play(&ply.text).map_err(|reason| PgnError::Move {
                at: self.place(ply.line),
                ply: i + 1,
                text: ply.text.clone(),
                reason,
            })?;
        }
        Ok(game)
    }

    /// The GameString of the whole game (see [`PgnGame::game`]).
    pub fn game_string(&self, options: GameOptions) -> Result<String, PgnError> {
        self.game(options).map(|g| g.game_string())
    }

    /// The game type's start position.
    fn start(&self, options: GameOptions) -> Result<AnyGame, PgnError> {
        let game_type = self.game_type();
        options.new_game(game_type).map_err(|_| PgnError::UnknownGameType {
            at: self.place(self.find_tag("GameType").map_or(self.line, |t| t.line)),
            game_type: game_type.to_string(),
        })
    }

    fn place(&self, line: usize) -> Place {
        Place { game: self.number, line }
    }

    /// Whether anything but tags was read: a tag after that starts the next game.
    fn has_body(&self) -> bool {
        !self.moves.is_empty() || !self.comments.is_empty() || self.result.is_some()
    }
}

/// Reads the games of a PGN text, in order (none for a text of blank lines). Only the layout is
/// read here: game types and moves are checked when a game is replayed ([`PgnGame::game`]).
pub fn parse_games(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let mut reader = Reader::default();
    for (index, raw) in text.lines().enumerate() {
        reader.read_line(index + 1, raw.trim_start_matches('\u{feff}'))?;
    }
    reader.finish()
}

/// The games of a text as they are read, line by line.
#[derive(Default)]
struct Reader {
    done: Vec<PgnGame>,
    current: Option<PgnGame>,
    /// An open comment: the line it opened on and its text so far.
    comment: Option<(usize, String)>,
}

impl Reader {
    fn read_line(&mut self, line: usize, raw: &str) -> Result<(), PgnError> {
        let mut text = raw.trim();
        if let Some((_, comment)) = &mut self.comment {
            let Some((inside, after)) = text.split_once('}') else {
                comment.push('\n');
                comment.push_str(text);
                return Ok(());
            };
            comment.push('\n');
            comment.push_str(inside);
            let (_, comment) = self.comment.take().expect("checked above");
            self.game(line).comments.push(comment.trim().to_string());
            text = after.trim();
        }
        if text.starts_with('[') {
            return self.tag(line, text);
        }
        self.movetext(line, text)
    }

    /// The game being read, begun at `line` if there is none.
    fn game(&mut self, line: usize) -> &mut PgnGame {
        let number = self.done.len() + 1;
        self.current.get_or_insert_with(|| PgnGame::new(number, line))
    }

    fn tag(&mut self, line: usize, text: &str) -> Result<(), PgnError> {
        if self.current.as_ref().is_some_and(PgnGame::has_body) {
            self.done.extend(self.current.take());
        }
        let game = self.game(line);
        let (name, value) = read_tag(text).map_err(|why| PgnError::Tag { at: game.place(line), why })?;
        game.tags.push(Tag { name, value, line });
        Ok(())
    }

    /// Moves, numbers, results and comments; a comment left open goes on to the next lines.
    fn movetext(&mut self, line: usize, text: &str) -> Result<(), PgnError> {
        let mut rest = text;
        loop {
            let (plain, comment) = match rest.split_once('{') {
                Some((plain, comment)) => (plain, Some(comment)),
                None => (rest, None),
            };
            self.tokens(line, plain)?;
            let Some(comment) = comment else { return Ok(()) };
            match comment.split_once('}') {
                Some((inside, after)) => {
                    self.game(line).comments.push(inside.trim().to_string());
                    rest = after;
                }
                None => {
                    self.comment = Some((line, comment.to_string()));
                    return Ok(());
                }
            }
        }
    }

    /// The words of a stretch of movetext: a move runs from a number (or the start) to the
    /// next number, result or the stretch's end.
    fn tokens(&mut self, line: usize, text: &str) -> Result<(), PgnError> {
        let mut pending: Vec<&str> = Vec::new();
        for word in text.split_whitespace() {
            if RESULTS.contains(&word) {
                self.end_move(line, &mut pending)?;
                self.game(line).result = Some(word.to_string());
            } else if let Some(rest) = after_move_number(word) {
                self.end_move(line, &mut pending)?;
                pending.extend((!rest.is_empty()).then_some(rest));
            } else {
                pending.push(word);
            }
        }
        self.end_move(line, &mut pending)
    }

    fn end_move(&mut self, line: usize, words: &mut Vec<&str>) -> Result<(), PgnError> {
        if words.is_empty() {
            return Ok(());
        }
        let text = words.join(" ");
        words.clear();
        let game = self.game(line);
        if game.result.is_some() {
            return Err(PgnError::AfterResult { at: game.place(line), text });
        }
        game.moves.push(Ply { text, line });
        Ok(())
    }

    fn finish(mut self) -> Result<Vec<PgnGame>, PgnError> {
        if let Some((line, _)) = self.comment {
            let at = self.game(line).place(line);
            return Err(PgnError::UnterminatedComment { at });
        }
        self.done.extend(self.current.take());
        Ok(self.done)
    }
}

/// A word that starts with a move number (`12.`, `12...`, `12`, `1.wS1`): what follows the
/// number and its dots. `None` for any other word (no MoveString starts with a digit).
fn after_move_number(word: &str) -> Option<&str> {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0).then(|| word[digits..].trim_start_matches('.'))
}

/// A tag line `[Name "value"]`: the name (letters, digits, `_`) and the value as Mzinga reads
/// it (between the quotes, every `"` dropped, trimmed), or what is wrong.
fn read_tag(line: &str) -> Result<(String, String), &'static str> {
    let inner = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')).ok_or("no closing `]`")?;
    let (name, quoted) = inner.trim_start().split_once(char::is_whitespace).ok_or("no value")?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err("a tag's name is letters, digits and `_`");
    }
    let quoted = quoted.trim();
    if !quoted.starts_with('"') {
        return Err("the value does not start with `\"`");
    }
    if quoted.len() < 2 || !quoted.ends_with('"') {
        return Err("the value's closing `\"` is missing");
    }
    Ok((name.to_string(), quoted.replace('"', "").trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: crate::intellector::Rules = crate::intellector::Rules::Modern;
    const OPTIONS: GameOptions = GameOptions {
        intellector_rules: RULES,
        repetition_draw: false,
        hive_evaluation: crate::hive::Evaluation::Classic,
        intellector_evaluation: crate::hive::Evaluation::Classic,
    };

    /// A short game as comb's tournament writes it, then the same one as MzingaViewer might.
    const WRITTEN: &str = "[GameType \"Base\"]\n[Date \"2000.02.29\"]\n[Event \"e\"]\n[Site \"\"]\n[Round \"1\"]\n\
        [White \"A\"]\n[Black \"B\"]\n[Result \"Draw\"]\n[Opening \"Base;InProgress;Black[1];wS1\"]\n\
        [Termination \"max-plies\"]\n[TimeControl \"depth=1\"]\n\n1. wS1\n2. bS1 wS1-\n3. wG1 \\wS1\n\
        {maximum of 3 plies}\n\nDraw\n\n";

    fn one(text: &str) -> PgnGame {
        let mut games = parse_games(text).unwrap();
        assert_eq!(games.len(), 1, "{text}");
        games.pop().unwrap()
    }

    #[test]
    fn reads_what_the_writer_writes() {
        let g = one(WRITTEN);
        assert_eq!((g.number(), g.line(), g.game_type(), g.white(), g.black()), (1, 1, "Base", Some("A"), Some("B")));
        assert_eq!((g.result(), g.opening()), (Some("Draw"), Some("Base;InProgress;Black[1];wS1")));
        assert_eq!(g.moves().collect::<Vec<_>>(), ["wS1", "bS1 wS1-", "wG1 \\wS1"]);
        assert_eq!(g.comments(), ["maximum of 3 plies"]);
        assert_eq!(g.tags().count(), 11);
        assert_eq!(g.game_string(OPTIONS).unwrap(), "Base;InProgress;Black[2];wS1;bS1 wS1-;wG1 \\wS1");
        assert_eq!(g.game_after(1, OPTIONS).unwrap().game_string(), "Base;InProgress;Black[1];wS1");
        assert_eq!(g.game_after(9, OPTIONS).unwrap().plies(), 3);
    }

    #[test]
    fn the_writer_and_the_reader_agree() {
        let moves: Vec<String> = ["wS1", "bG1 -wS1", "wA1 wS1\\"].map(String::from).to_vec();
        let tags = [("GameType", "Base".to_string()), ("White", "back\\slash\\ \"q\"".to_string())];
        let text = format_game(&tags, &moves, "a {b}\nc", "WhiteWins");
        let g = one(&text);
        assert_eq!(g.white(), Some("back\\slash\\ q"));
        assert_eq!(g.moves().collect::<Vec<_>>(), moves);
        assert_eq!((g.comments(), g.result()), (&["a b c".to_string()][..], Some("WhiteWins")));
        assert_eq!(g.game_string(OPTIONS).unwrap(), "Base;InProgress;Black[2];wS1;bG1 -wS1;wA1 wS1\\");
        assert!(!format_game(&tags, &[], "", "Draw").contains('{'));
    }

    #[test]
    fn moves_may_share_lines_with_numbers_comments_and_the_result() {
        let text = "\u{feff}[GameType \"Base\"]\r\n\r\n{before}1. wS1 2... bG1 -wS1 {a\r\nlong\r\n comment} 3.wQ wS1-\r\n4 bQ -bG1 *\r\n";
        let g = one(text);
        assert_eq!(g.moves().collect::<Vec<_>>(), ["wS1", "bG1 -wS1", "wQ wS1-", "bQ -bG1"]);
        assert_eq!(g.comments(), ["before", "a\nlong\ncomment"]);
        assert_eq!(g.result(), Some("*"));
        assert_eq!(g.game(OPTIONS).unwrap().plies(), 4);
        // Mzinga's own reading: one move per line, the number stripped.
        let g = one("[GameType \"Base+MLP\"]\n\nwS1\n2. bL /wS1\n\nBlackWins\n");
        assert_eq!(g.moves().collect::<Vec<_>>(), ["wS1", "bL /wS1"]);
        assert_eq!(g.game_type(), "Base+MLP");
    }

    #[test]
    fn games_follow_one_another() {
        let text = format!("{WRITTEN}{}", WRITTEN.replace("[Round \"1\"]", "[Round \"2\"]"));
        let games = parse_games(&text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!((games[1].number(), games[1].line(), games[1].tag("Round")), (2, 20, Some("2")));
        // Tags without moves are a game too; a text of blank lines holds none.
        let games = parse_games("[White \"x\"]\n[Black \"y\"]\n\n[White \"z\"]\n").unwrap();
        assert_eq!(games.len(), 1, "tags go on until a game's moves");
        assert_eq!(games[0].white(), Some("z"));
        assert_eq!(games[0].game_type(), DEFAULT_GAME_TYPE);
        assert!(parse_games("\n \r\n").unwrap().is_empty());
    }

    #[test]
    fn intellector_games_read_back() {
        let text = format_game(&[("GameType", "Intellector".into())], &["d1d2".into(), "h6h5".into()], "", "Draw");
        let g = one(&text);
        assert_eq!(g.game_string(OPTIONS).unwrap(), "Intellector;InProgress;White[2];d1d2;h6h5");
        // A custom start is named in the game type, as in its GameString.
        let sip = crate::intellector::IntellectorGame::new(RULES).to_sip();
        let text = format_game(&[("GameType", format!("Intellector[{sip}]"))], &["d1d2".into()], "", "Draw");
        assert_eq!(one(&text).game_string(OPTIONS).unwrap(), format!("Intellector[{sip}];InProgress;Black[1];d1d2"));
    }

    #[test]
    fn bad_input_is_an_error_with_its_game_and_line() {
        let err = |text: &str| parse_games(text).unwrap_err().to_string();
        assert_eq!(err("[White \"A\"\n"), "line 1 (game 1): not a tag `[Name \"value\"]`: no closing `]`");
        assert_eq!(
            err("\n[White \"A]\n"),
            "line 2 (game 1): not a tag `[Name \"value\"]`: the value's closing `\"` is missing"
        );
        assert!(err("[White A]").contains("does not start with"));
        assert!(err("[White]").contains("no value"));
        assert!(err("[\"W\" \"A\"]").contains("name"));
        assert_eq!(
            err(&format!("{WRITTEN}[GameType \"Base\"]\n\n1. wS1 {{never closed\n2. bS1\n")),
            "line 22 (game 2): a comment `{` that is never closed with `}`"
        );
        assert_eq!(err("1. wS1\nWhiteWins\n2. bS1 wS1-\n"), "line 3 (game 1): move `bS1 wS1-` after the game's result");

        let replay = |text: &str| one(text).game(OPTIONS).unwrap_err().to_string();
        assert_eq!(
            replay("[Result \"Draw\"]\n[GameType \"Base+X\"]\n1. wS1\n"),
            "line 2 (game 1): unknown game type `Base+X` (Base, Base+M, Base+L, Base+P, Base+ML, Base+MP, Base+LP, Base+MLP or Intellector)"
        );
        assert_eq!(
            replay("[GameType \"Base\"]\n\n1. wS1\n2. bQ wS1-\n"),
            "line 4 (game 1): ply 2 `bQ wS1-`: You can't play your Queen Bee on your first turn."
        );
        let e = one("hello world\n\u{0}\u{7f}").game(OPTIONS).unwrap_err();
        assert!(matches!(&e, PgnError::Move { ply: 1, text, .. } if text == "hello world"), "{e}");
        assert_eq!(e.place(), Place { game: 1, line: 1 });
        assert!(replay("[GameType \"Intellector\"]\n1. d1d2\n2. d1d2\n").starts_with("line 3 (game 1): ply 2 `d1d2`: "));
    }

    #[test]
    fn no_text_makes_the_reader_panic() {
        // Every prefix of a file with every construct, and some noise: errors, never panics.
        let text = format!("{WRITTEN}[GameType \"Intellector\"]\n{{x\ny}} 1. d1d2 2... h6h5 1/2-1/2\n");
        for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
            if let Ok(games) = parse_games(&text[..end]) {
                for g in games {
                    let _ = g.game(OPTIONS);
                }
            }
        }
        for noise in ["[", "]", "{", "}", "[]", "[ ]", "[a \"]", "1.", "...", "0", "\u{feff}", "[x \"\"]\n1. \\ / -"] {
            if let Ok(games) = parse_games(noise) {
                for g in games {
                    let _ = g.game(OPTIONS);
                }
            }
        }
    }

    fn sample() -> GameRecord {
        crate::tournament::tests::sample()
    }

    #[test]
    fn mzinga_layout() {
        let text = format_record(&sample(), "Test \"event\"", "");
        assert_eq!(
            text,
            "[GameType \"Base\"]\n[Date \"2000.02.29\"]\n[Event \"Test event\"]\n[Site \"\"]\n[Round \"17\"]\n\
             [White \"A the ant\"]\n[Black \"B\"]\n[Result \"BlackWins\"]\n\
             [Opening \"Base;InProgress;Black[1];wS1\"]\n[Termination \"illegal-move\"]\n[TimeControl \"depth=1\"]\n\
             \n1. wS1\n2. bS1 wS1-\n3. wG1 \\wS1\n{illegal move by A: `pass` really now}\n\nBlackWins\n\n"
        );
    }

    #[test]
    fn reads_back_to_the_same_game() {
        let record = sample();
        let games = parse_games(&format_record(&record, "e", "s")).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!((g.white(), g.black(), g.result()), (Some("A the ant"), Some("B"), Some("BlackWins")));
        assert_eq!(g.opening(), record.opening.as_deref());
        assert_eq!(g.moves().collect::<Vec<_>>(), record.played.moves);
        let game_string = g.game_string(OPTIONS).unwrap();
        assert_eq!(game_string, record.played.game_string);
    }

    #[test]
    fn tags_read_back_alike_by_the_standard_and_by_mzinga() {
        let mut r = sample();
        // Openings from positions/openings-base.txt: one ends with a backslash, one has one
        // before a piece, one has none.
        for opening in [
            "Base;InProgress;Black[3];wS1;bA1 \\wS1;wG1 wS1-;bB1 \\bA1;wA1 wG1\\",
            "Base;InProgress;White[3];wS1;bG1 \\wS1;wQ wS1-;bS1 -bG1",
            "Base;InProgress;Black[1];wS1",
        ] {
            r.opening = Some(opening.to_string());
            r.white_name = "back\\slash\\".into();
            let text = format_record(&r, "a\\\\b \"c\"\\", "C:\\");
            let tags: Vec<&str> = text.lines().take_while(|l| l.starts_with('[')).collect();
            assert_eq!(tags.len(), 11, "{text}");
            for line in tags {
                let standard = standard_tag(line).unwrap_or_else(|| panic!("not a standard tag: {line}"));
                let mzinga = mzinga_tag(line).unwrap();
                assert_eq!(standard.0, mzinga.0);
                // Both readers agree on every tag, up to a space the standard keeps at the end.
                assert_eq!(standard.1.trim_end(), mzinga.1, "{line}");
            }
            let read = |reader: fn(&str) -> Option<(String, String)>| {
                let line = text.lines().find(|l| l.starts_with("[Opening ")).unwrap();
                reader(line).unwrap().1
            };
            assert_eq!(read(mzinga_tag), opening, "Mzinga reads the GameString itself");
            let standard = read(standard_tag);
            assert_eq!(standard.trim_end(), opening);
            // The GameString reader (comb's, as Mzinga's) gives back the same game and GameString.
            let game = crate::hive::HiveGame::parse(standard.trim()).unwrap();
            assert_eq!(game.game_string(), opening);
            let white = text.lines().find(|l| l.starts_with("[White ")).unwrap();
            assert_eq!(mzinga_tag(white).unwrap().1, "back\\slash\\");
            let event = text.lines().find(|l| l.starts_with("[Event ")).unwrap();
            assert_eq!(standard_tag(event).unwrap().1.trim_end(), "a\\ \\b c\\");
        }
    }
}
