//! A finished tournament game as Hive PGN ([`crate::pgn`], which describes the format): the
//! tags a [`GameRecord`] gives, in Mzinga's order (`GameType`, `Date`, `Event`, `Site`, `Round`,
//! `White`, `Black`, `Result`), then comb's own (`Opening`, `Termination`, `TimeControl`); the
//! moves from the game type's start, opening included; the termination in words as the comment.
//! `Round` holds the game's number, as in the live output.

use super::{utc, GameRecord};
use crate::pgn;

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
    let played = &record.played;
    pgn::format_game(&tags, &played.moves, &played.termination.detail, played.result.state())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::referee::{GameResult, PlayedGame, Termination};
    use super::*;
    use crate::pgn::{mzinga_tag, parse_games, standard_tag};
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
    fn reads_back_to_the_same_game() {
        let record = sample();
        let games = parse_games(&format_game(&record, "e", "s")).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!((g.white(), g.black(), g.result()), (Some("A the ant"), Some("B"), Some("BlackWins")));
        assert_eq!(g.opening(), record.opening.as_deref());
        assert_eq!(g.moves().collect::<Vec<_>>(), record.played.moves);
        let game_string = g.game_string(crate::intellector::Rules::Modern).unwrap();
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
