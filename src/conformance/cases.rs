//! The case file: blocks of `key: value` lines, one block per case (the format is documented at
//! the top of `positions/conformance.txt`).
//!
//! Every case is checked when the file is read, with comb's rules: its position must load and
//! its expected moves must be readable there, so that a broken case is reported with its line
//! number before any engine is asked anything.

use super::moves::{key_of, MoveKey};
use crate::hive::{HiveGame, Piece};
use std::fmt;

/// One case: set-up commands, the command under test and what its reply must be.
#[derive(Clone, Debug)]
pub struct Case {
    /// The name in `[brackets]`, unique in the file.
    pub name: String,
    /// Line of the file where the case starts.
    pub line: usize,
    /// Declared deviations: the case's failure is only `allowed` under `--allow TAG`.
    pub allow: Vec<String>,
    /// Start a new engine process for this case (for replies before any `newgame`).
    pub fresh: bool,
    /// Commands sent first, in order.
    pub setup: Vec<Setup>,
    /// The command under test.
    pub command: String,
    /// What its reply must be.
    pub expect: Expect,
    /// The position after the set-up as comb's rules see it (when the case has a `newgame:`).
    pub position: Option<HiveGame>,
}

/// A set-up command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setup {
    /// `newgame: X`: `newgame X`, which must answer one line that is not an error.
    NewGame(String),
    /// `play: M`: `play M`, which must answer one line that is not an error.
    Play(String),
    /// `send: C`: any command; its reply is not looked at.
    Send(String),
}

impl Setup {
    /// The command line sent.
    pub fn command(&self) -> String {
        match self {
            Setup::NewGame(arg) if arg.is_empty() => "newgame".to_string(),
            Setup::NewGame(arg) => format!("newgame {arg}"),
            Setup::Play(mv) => format!("play {mv}"),
            Setup::Send(command) => command.clone(),
        }
    }
}

/// One line of an expected reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinePattern {
    /// `line: TEXT`: exactly this text.
    Exact(String),
    /// `like: PATTERN`: `*` matches any text.
    Like(String),
}

impl LinePattern {
    /// Whether `line` matches.
    pub fn matches(&self, line: &str) -> bool {
        match self {
            LinePattern::Exact(text) => text == line,
            LinePattern::Like(pattern) => glob(pattern, line),
        }
    }
}

impl fmt::Display for LinePattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinePattern::Exact(text) | LinePattern::Like(text) => f.write_str(text),
        }
    }
}

/// Whether `text` matches `pattern`, in which `*` stands for any text.
pub fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if text.len() < first.len() + last.len() || !text.starts_with(first) || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// A built-in protocol check, for what a line pattern cannot say.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// `info`: an `id NAME …` line, then at most a capabilities line of known expansions.
    Info,
    /// `options`: every line `Name;type;value;default[;…]` and consistent; `options get` of
    /// the first answers the same line.
    Options,
    /// End of input ends the engine within the command timeout.
    ExitOnEof,
}

impl Builtin {
    fn parse(text: &str) -> Option<Builtin> {
        match text {
            "info" => Some(Builtin::Info),
            "options" => Some(Builtin::Options),
            "exit-on-eof" => Some(Builtin::ExitOnEof),
            _ => None,
        }
    }

    /// The command it sends, for the case's `command`.
    fn command(self) -> &'static str {
        match self {
            Builtin::Info => "info",
            Builtin::Options => "options",
            Builtin::ExitOnEof => "(end of input)",
        }
    }
}

/// What the reply must be.
#[derive(Clone, Debug)]
pub enum Expect {
    /// `moves:` / `moves PIECE:`: the `validmoves` line lists exactly these moves (all, or
    /// those of one piece), compared by the piece and the place it lands, not as text.
    Moves {
        /// Only this piece's moves are compared.
        piece: Option<Piece>,
        /// The expected moves as written, each with its key in the case's position.
        moves: Vec<(String, MoveKey)>,
    },
    /// `one-of:`: the move of the last line (up to a `;`) is one of these (for `bestmove`).
    OneOf(Vec<(String, MoveKey)>),
    /// `gamestring:`: one line, the same game: type, state and turn as written, and the same
    /// moves however the engine writes them.
    GameString(String),
    /// `line:` / `like:` lines: the reply, line by line.
    Lines(Vec<LinePattern>),
    /// `check:`: a built-in check.
    Check(Builtin),
}

/// Why a case file cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseError {
    /// The file's name as given.
    pub file: String,
    /// The line (from 1).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for CaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} line {}: {}", self.file, self.line, self.message)
    }
}

impl std::error::Error for CaseError {}

/// A case being read: the lines so far.
struct Draft {
    name: String,
    line: usize,
    allow: Vec<String>,
    fresh: bool,
    setup: Vec<Setup>,
    command: Option<String>,
    /// The expectation lines, each with its line number.
    expect: Vec<(usize, String, String)>,
}

/// Reads a whole case file; `file` names it in errors.
pub fn parse(text: &str, file: &str) -> Result<Vec<Case>, CaseError> {
    let error = |line: usize, message: String| CaseError { file: file.to_string(), line, message };
    let mut cases: Vec<Case> = Vec::new();
    let mut draft: Option<Draft> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(rest) = line.strip_prefix('[') {
            let name =
                rest.strip_suffix(']').ok_or_else(|| error(n, format!("`{line}`: a case name ends with `]`")))?;
            let name = name.trim();
            if name.is_empty() || name.contains(char::is_whitespace) {
                return Err(error(n, format!("`{line}`: a case name is one word")));
            }
            if let Some(d) = draft.take() {
                cases.push(finish(d).map_err(|(l, m)| error(l, m))?);
            }
            if let Some(other) = cases.iter().find(|c| c.name == name) {
                return Err(error(n, format!("case `{name}` is already defined on line {}", other.line)));
            }
            draft = Some(Draft {
                name: name.to_string(),
                line: n,
                allow: Vec::new(),
                fresh: false,
                setup: Vec::new(),
                command: None,
                expect: Vec::new(),
            });
            continue;
        }
        let Some(d) = draft.as_mut() else {
            return Err(error(n, format!("`{line}` before the first `[case-name]`")));
        };
        let Some((key, value)) = line.split_once(':') else {
            return Err(error(n, format!("`{line}`: expected `key: value`")));
        };
        let (key, value) = (key.trim(), value.trim());
        match key {
            "about" => {}
            "allow" => {
                for tag in value.split(',').map(str::trim) {
                    if tag.is_empty() || tag.contains(char::is_whitespace) {
                        return Err(error(n, format!("`{value}`: deviation tags are words separated by commas")));
                    }
                    d.allow.push(tag.to_string());
                }
            }
            "fresh" => match value {
                "yes" => d.fresh = true,
                "no" => d.fresh = false,
                _ => return Err(error(n, format!("fresh: `{value}`: expected yes or no"))),
            },
            "newgame" | "play" | "send" => {
                if d.command.is_some() {
                    return Err(error(n, format!("`{key}:` after `command:`: set-up comes first")));
                }
                if key != "newgame" && value.is_empty() {
                    return Err(error(n, format!("`{key}:` needs a value")));
                }
                d.setup.push(match key {
                    "newgame" => Setup::NewGame(value.to_string()),
                    "play" => Setup::Play(value.to_string()),
                    _ => Setup::Send(value.to_string()),
                });
            }
            "command" => {
                if d.command.is_some() {
                    return Err(error(n, "a second `command:`".to_string()));
                }
                if value.is_empty() {
                    return Err(error(n, "`command:` needs a value".to_string()));
                }
                d.command = Some(value.to_string());
            }
            "moves" | "one-of" | "gamestring" | "line" | "like" | "check" => {
                d.expect.push((n, key.to_string(), value.to_string()));
            }
            _ if key.starts_with("moves ") => d.expect.push((n, key.to_string(), value.to_string())),
            _ => return Err(error(n, format!("unknown key `{key}`"))),
        }
    }
    if let Some(d) = draft.take() {
        cases.push(finish(d).map_err(|(l, m)| error(l, m))?);
    }
    if cases.is_empty() {
        return Err(error(text.lines().count().max(1), "no cases".to_string()));
    }
    Ok(cases)
}

/// The position after a case's set-up, as comb's rules see it: the last `newgame:` with the
/// `play:` and `send: undo` lines after it.
fn mirror(setup: &[Setup]) -> Result<Option<HiveGame>, String> {
    let Some(start) = setup.iter().rposition(|s| matches!(s, Setup::NewGame(_))) else { return Ok(None) };
    let Setup::NewGame(arg) = &setup[start] else { unreachable!("found above") };
    let arg = if arg.is_empty() { "Base" } else { arg.as_str() };
    let mut game = match crate::hive::GameType::parse(arg) {
        Some(t) => HiveGame::new(t),
        None => HiveGame::parse(arg).map_err(|e| format!("newgame `{arg}`: {e}"))?,
    };
    for s in &setup[start + 1..] {
        match s {
            Setup::Play(mv) => game.play(mv).map_err(|e| format!("play `{mv}`: {e}"))?,
            Setup::Send(command) => {
                // `undo [N]` changes the position; other commands sent are not followed.
                let mut words = command.split_whitespace();
                if words.next() == Some("undo") {
                    let n = words.next().map_or(Ok(1), str::parse).map_err(|_| format!("`{command}`: not a count"))?;
                    game.undo(n);
                }
            }
            Setup::NewGame(_) => unreachable!("the last newgame"),
        }
    }
    Ok(Some(game))
}

/// Reads a `;`-separated move list in `game`'s position.
fn move_list(game: &HiveGame, value: &str) -> Result<Vec<(String, MoveKey)>, String> {
    let mut out = Vec::new();
    for text in value.split(';').map(str::trim).filter(|t| !t.is_empty()) {
        let key = key_of(game.hive(), text).ok_or_else(|| format!("`{text}` is not a MoveString"))?;
        if out.iter().any(|(_, k)| *k == key) {
            return Err(format!("`{text}` is listed twice"));
        }
        out.push((text.to_string(), key));
    }
    Ok(out)
}

/// Checks a drafted case and builds it.
fn finish(d: Draft) -> Result<Case, (usize, String)> {
    let at = d.line;
    let position = mirror(&d.setup).map_err(|e| (at, e))?;
    let Some(&(first, ref kind, _)) = d.expect.first() else {
        return Err((at, format!("case `{}` expects nothing (add `moves:`, `line:`, `like:`, …)", d.name)));
    };
    let kind = kind.clone();
    let same_kind = |k: &str| match kind.as_str() {
        "line" | "like" => k == "line" || k == "like",
        _ => false,
    };
    if let Some((n, k, _)) = d.expect.iter().skip(1).find(|(_, k, _)| !same_kind(k)) {
        return Err((
            *n,
            format!("`{k}:` cannot follow `{kind}:` (one expectation per case, or `line:`/`like:` lines)"),
        ));
    }
    let needs_position = |what: &str| {
        position.as_ref().ok_or_else(|| (first, format!("`{what}:` needs a `newgame:` to read the moves in")))
    };
    let value = d.expect[0].2.clone();
    let (expect, default_command) = if let Some(piece) = kind.strip_prefix("moves ") {
        let piece = Piece::parse(piece.trim()).ok_or_else(|| (first, format!("`{piece}` is not a piece")))?;
        let game = needs_position("moves")?;
        (
            Expect::Moves { piece: Some(piece), moves: move_list(game, &value).map_err(|e| (first, e))? },
            Some("validmoves"),
        )
    } else {
        match kind.as_str() {
            "moves" => {
                let game = needs_position("moves")?;
                let moves = move_list(game, &value).map_err(|e| (first, e))?;
                if moves.is_empty() {
                    return Err((first, "`moves:` lists no move (a game that is over answers `err`)".to_string()));
                }
                (Expect::Moves { piece: None, moves }, Some("validmoves"))
            }
            "one-of" => {
                let game = needs_position("one-of")?;
                let moves = move_list(game, &value).map_err(|e| (first, e))?;
                if moves.is_empty() {
                    return Err((first, "`one-of:` lists no move".to_string()));
                }
                (Expect::OneOf(moves), None)
            }
            "gamestring" => {
                HiveGame::parse(&value).map_err(|e| (first, format!("gamestring: comb cannot load it: {e}")))?;
                (Expect::GameString(value), None)
            }
            "check" => {
                let check = Builtin::parse(&value)
                    .ok_or_else(|| (first, format!("check: `{value}`: expected info, options or exit-on-eof")))?;
                (Expect::Check(check), Some(check.command()))
            }
            _ => {
                let lines = d
                    .expect
                    .iter()
                    .map(
                        |(_, k, v)| {
                            if k == "line" {
                                LinePattern::Exact(v.clone())
                            } else {
                                LinePattern::Like(v.clone())
                            }
                        },
                    )
                    .collect();
                (Expect::Lines(lines), None)
            }
        }
    };
    let command = match (d.command, default_command) {
        (Some(c), Some(default)) if matches!(expect, Expect::Check(_)) && c != default => {
            return Err((at, format!("`check:` sends `{default}` itself, not `{c}`")));
        }
        (Some(c), _) => c,
        (None, Some(default)) => default.to_string(),
        (None, None) => return Err((at, format!("case `{}` has no `command:`", d.name))),
    };
    Ok(Case { name: d.name, line: d.line, allow: d.allow, fresh: d.fresh, setup: d.setup, command, expect, position })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_as_documented() {
        assert!(glob("err *", "err Invalid command."));
        assert!(!glob("err *", "invalidmove x"));
        assert!(glob("*", ""));
        assert!(glob("id *", "id comb 0.1.0"));
        assert!(glob("a*b*c", "a--b--c"));
        assert!(!glob("a*a", "a"));
        assert!(glob("ok", "ok"));
    }

    #[test]
    fn reads_every_kind_of_case() {
        let text = "# a comment\n\n[start]\nnewgame: Base\nmoves: wS1;wB1;wG1;wA1\n\n[spider]\nallow: x, y\nnewgame: Base;InProgress;Black[1];wS1\nmoves bS1: bS1 -wS1;bS1 wS1-;bS1 /wS1;bS1 \\wS1;bS1 wS1/;bS1 wS1\\\n\n[bad]\nnewgame:\ncommand: hi\nlike: err *\nline: ok?\n\n[eof]\ncheck: exit-on-eof\n";
        let cases = parse(text, "t.txt").unwrap();
        assert_eq!(cases.len(), 4);
        assert_eq!(cases[0].command, "validmoves");
        assert!(matches!(&cases[0].expect, Expect::Moves { piece: None, moves } if moves.len() == 4));
        assert_eq!(cases[1].allow, ["x", "y"]);
        assert!(matches!(&cases[1].expect, Expect::Moves { piece: Some(_), moves } if moves.len() == 6));
        assert_eq!(cases[2].setup, [Setup::NewGame(String::new())]);
        assert_eq!(cases[2].setup[0].command(), "newgame");
        assert!(matches!(&cases[2].expect, Expect::Lines(l) if l.len() == 2));
        assert!(matches!(cases[3].expect, Expect::Check(Builtin::ExitOnEof)));
    }

    #[test]
    fn names_the_line_of_every_mistake() {
        let bad = [
            ("newgame: Base\n", 1, "before the first"),
            ("[a]\nnewgame: Base\n", 1, "expects nothing"),
            ("[a]\nfoo: bar\n", 2, "unknown key"),
            ("[a]\nnewgame Base\n", 2, "key: value"),
            ("[a]\nline: x\n", 1, "no `command:`"),
            ("[a]\nmoves: wS1\n", 2, "needs a `newgame:`"),
            ("[a]\nnewgame: Base\nmoves: wS1;xx\n", 3, "`xx` is not a MoveString"),
            ("[a]\nnewgame: Base\nmoves: wS1;wS1\n", 3, "listed twice"),
            ("[a]\nnewgame: Base;InProgress;White[2];wQ\nmoves: wS1\n", 1, "newgame"),
            ("[a]\nnewgame: Base\nmoves: wS1\n[a]\ncheck: info\n", 4, "already defined on line 1"),
            ("[a]\ncommand: hi\nline: x\nmoves: wS1\n", 4, "cannot follow"),
            ("[a]\ncheck: everything\n", 2, "expected info"),
            ("[a b]\n", 1, "one word"),
            ("[a]\ncommand: hi\nnewgame: Base\nline: x\n", 3, "set-up comes first"),
            ("[a]\nnewgame: Base\nmoves wX: wS1\n", 3, "not a piece"),
            ("# nothing\n", 1, "no cases"),
        ];
        for (text, line, message) in bad {
            let e = parse(text, "t.txt").expect_err(text);
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.message.contains(message), "{text:?}: {e}");
            assert!(e.to_string().starts_with(&format!("t.txt line {line}: ")), "{e}");
        }
    }
}
