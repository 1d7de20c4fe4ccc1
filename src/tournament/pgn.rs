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

use super::{utc, GameRecord};

/// A tag value as Mzinga would store it: no quotes, no line breaks, trimmed.
fn tag_value(value: &str) -> String {
    value.replace('"', "").replace(['\r', '\n'], " ").trim().to_string()
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
}
