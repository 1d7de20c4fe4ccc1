//! Games as Hive PGN, in the format Mzinga writes and MzingaViewer reads
//! (`Mzinga/Core/GameRecording.cs`, `SavePGN`):
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
//! The seven mandatory tags come first in Mzinga's order, then ours. Moves are numbered by ply,
//! one per line, from the empty board (the opening's moves included: Mzinga replays a PGN from
//! the start). A comment after the last move says why the game ended. Mzinga drops `"` from tag
//! values and `{}` from comments, so those characters are removed here too; `Round` holds the
//! game's number, as in the live output.
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

use super::{utc, GameRecord};

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

/// One game, ending with a blank line so that games can be appended to one file.
pub fn format_game(record: &GameRecord, event: &str, site: &str) -> String {
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
    let mut out = String::new();
    for (key, value) in tags {
        out.push_str(&format!("[{key} \"{}\"]\n", tag_value(&value)));
    }
    if !record.played.moves.is_empty() {
        out.push('\n');
        for (i, mv) in record.played.moves.iter().enumerate() {
            out.push_str(&format!("{}. {mv}\n", i + 1));
        }
    }
    let comment = record.played.termination.detail.replace(['{', '}'], "").replace(['\r', '\n'], " ");
    out.push_str(&format!("{{{}}}\n", comment.trim()));
    out.push_str(&format!("\n{}\n\n", record.played.result.state()));
    out
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

#[cfg(test)]
pub(crate) mod tests {
    use super::super::referee::{GameResult, PlayedGame, Termination};
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    /// A small finished game for the writers' tests.
    pub(crate) fn sample() -> GameRecord {
        GameRecord {
            number: 17,
            round: 9,
            pair: 8,
            white: 0,
            black: 1,
            white_name: "A \"the ant\"".into(),
            black_name: "B".into(),
            white_limit: "depth=1".into(),
            black_limit: "depth=1".into(),
            game_type: "Base".into(),
            opening: Some("Base;InProgress;Black[1];wS1".into()),
            played: PlayedGame {
                result: GameResult::BlackWins,
                termination: Termination {
                    reason: "illegal-move",
                    detail: "illegal move by A: `pass` {really}\nnow".into(),
                },
                moves: vec!["wS1".into(), "bS1 wS1-".into(), "wG1 \\wS1".into()],
                opening_plies: 1,
                game_string: "Base;InProgress;Black[2];wS1;bS1 wS1-;wG1 \\wS1".into(),
                think: [Duration::from_millis(1500), Duration::from_millis(250)],
                transcript: Some("> newgame\n".into()),
                started: UNIX_EPOCH + Duration::from_secs(951_782_400),
                duration: Duration::from_millis(2000),
            },
        }
    }

    #[test]
    fn mzinga_layout() {
        let text = format_game(&sample(), "Test \"event\"", "");
        assert_eq!(
            text,
            "[GameType \"Base\"]\n[Date \"2000.02.29\"]\n[Event \"Test event\"]\n[Site \"\"]\n[Round \"17\"]\n\
             [White \"A the ant\"]\n[Black \"B\"]\n[Result \"BlackWins\"]\n\
             [Opening \"Base;InProgress;Black[1];wS1\"]\n[Termination \"illegal-move\"]\n[TimeControl \"depth=1\"]\n\
             \n1. wS1\n2. bS1 wS1-\n3. wG1 \\wS1\n{illegal move by A: `pass` really now}\n\nBlackWins\n\n"
        );
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
            let text = format_game(&r, "a\\\\b \"c\"\\", "C:\\");
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
