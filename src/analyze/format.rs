//! A reviewed game written out: a table for people, or JSON lines for scripts.
//!
//! The table is a header line (`game N: TYPE, P plies, STATE`, then the players of a PGN game),
//! one row per ply and one summary line per side:
//!
//! ```text
//! game 1: Base, 3 plies, InProgress
//! ply  side   played  score  best  score  loss  class
//!   1  White  wS1         0  wS1       0     0  best
//! …
//! White: best 2, good 0, inaccuracy 0, mistake 0, blunder 0, forced 0, average loss 0.0
//! ```
//!
//! Scores are hundredths of a piece from the mover's view; a forced win is `#N` (N of the
//! mover's moves, the winning one included) and a forced loss `#-N` (N of the opponent's). A
//! forced move has `-` for its scores, best move and loss, and so has a book move (class
//! `book`: a ply of the opening the game was started from), which no summary counts.
//!
//! JSON lines are one `game` object, one `ply` object per ply and one `summary` object per
//! side, in that order (the fields are listed at [`jsonl`]).

use super::input::Entry;
use super::{Class, PlyReview, ReviewSummary};
use crate::game::Color;
use crate::json::Fixed;
use crate::search::{is_mate_score, MATE};

/// A score for the table: hundredths, or `#N` / `#-N` for a forced win or loss.
pub fn score_text(score: i32) -> String {
    if !is_mate_score(score) {
        return score.to_string();
    }
    let moves = (MATE - score.abs() + 1) / 2;
    if score > 0 {
        format!("#{moves}")
    } else {
        format!("#-{moves}")
    }
}

/// The header line: number, game type, plies and state (with how the game ended, and the
/// recorded result when the moves do not show it).
fn header(entry: &Entry) -> String {
    let game = &entry.game;
    let plies = match game.plies() {
        1 => "1 ply".to_string(),
        n => format!("{n} plies"),
    };
    let mut text = format!("game {}: {}, {plies}, {}", entry.number, game.type_field(), game.state_string());
    if let Some((_, reason)) = game.end() {
        text.push_str(&format!(" ({})", reason.detail()));
    }
    if let Some(result) = entry.recorded_result.as_deref().filter(|r| !says_nothing_more(r, game.state_string())) {
        text.push_str(&format!(", recorded result {result}"));
    }
    text
}

/// Whether a recorded result (`WhiteWins`, `1-0`, `*`, …) is unknown or what the state says.
fn says_nothing_more(recorded: &str, state: &str) -> bool {
    let state_of = match recorded {
        "1-0" => "WhiteWins",
        "0-1" => "BlackWins",
        "1/2-1/2" => "Draw",
        "*" => return true,
        other => other,
    };
    state_of == state
}

/// The cells of one row: ply, side, played, its score, best, its score, loss, class.
fn row(p: &PlyReview) -> [String; 8] {
    let (ply, side, played) = (p.ply.to_string(), p.side.to_string(), p.played.clone());
    match p.scores() {
        None => [ply, side, played, "-".into(), "-".into(), "-".into(), "-".into(), p.class_name().into()],
        Some(s) => [
            ply,
            side,
            played,
            score_text(s.played_score),
            s.best.clone(),
            score_text(s.best_score),
            s.loss().to_string(),
            s.class().name().into(),
        ],
    }
}

/// A side's summary line: the count of each class, of forced moves, and the average loss.
fn summary_line(side: Color, s: &ReviewSummary) -> String {
    let counts: Vec<String> = Class::ALL.iter().map(|&c| format!("{} {}", c.name(), s.count(c))).collect();
    let average = s.average_loss().map_or("-".to_string(), |a| format!("{a:.1}"));
    format!("{side}: {}, forced {}, average loss {average}", counts.join(", "), s.forced)
}

/// The table of a reviewed game, every line ending in a line break.
pub fn table(entry: &Entry, plies: &[PlyReview]) -> String {
    let mut out = header(entry) + "\n";
    let players: Vec<String> = [("White", &entry.white), ("Black", &entry.black)]
        .iter()
        .filter_map(|(side, name)| name.as_ref().map(|n| format!("{side}: {n}")))
        .collect();
    if !players.is_empty() {
        out += &format!("{}\n", players.join(", "));
    }
    let titles = ["ply", "side", "played", "score", "best", "score", "loss", "class"].map(String::from);
    let rows: Vec<[String; 8]> = std::iter::once(titles).chain(plies.iter().map(row)).collect();
    let widths: Vec<usize> = (0..8).map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0)).collect();
    // Numbers right-aligned, words left-aligned; the class column is last and not padded.
    let right = [true, false, false, true, false, true, true, false];
    for r in &rows {
        let cells: Vec<String> = (0..8)
            .map(|c| match (right[c], c) {
                (true, _) => format!("{:>w$}", r[c], w = widths[c]),
                (false, 7) => r[c].clone(),
                (false, _) => format!("{:<w$}", r[c], w = widths[c]),
            })
            .collect();
        out += &format!("{}\n", cells.join("  "));
    }
    for side in [Color::White, Color::Black] {
        out += &format!("{}\n", summary_line(side, &ReviewSummary::of(plies, side)));
    }
    out
}

/// One line of `analyze --jsonl`; `type` (first) names the kind.
#[derive(serde::Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum JsonLine<'a> {
    Game {
        game: usize,
        line: usize,
        game_type: &'a str,
        plies: usize,
        state: &'a str,
        end: Option<&'static str>,
        white: Option<&'a str>,
        black: Option<&'a str>,
        result: Option<&'a str>,
    },
    Ply {
        game: usize,
        ply: usize,
        side: &'static str,
        played: &'a str,
        best: Option<&'a str>,
        played_score: Option<i32>,
        best_score: Option<i32>,
        loss: Option<i32>,
        class: &'static str,
        depth: u32,
    },
    Summary {
        game: usize,
        side: &'static str,
        best: usize,
        good: usize,
        inaccuracy: usize,
        mistake: usize,
        blunder: usize,
        forced: usize,
        average_loss: Option<Fixed<1>>,
    },
}

fn side_name(side: Color) -> &'static str {
    match side {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A reviewed game as JSON lines (without line breaks), in this order:
/// - `{"type":"game","game":N,"line":L,"game_type":…,"plies":P,"state":…,"end":…,"white":…,
///   "black":…,"result":…}`: `end` is how the game ended (`surrounded`, `fatum`, …, or
///   `null`); `white`, `black` and `result` are a PGN game's tags (`null` otherwise);
/// - per ply `{"type":"ply","game":N,"ply":1,"side":"white","played":…,"best":…,
///   "played_score":…,"best_score":…,"loss":…,"class":…,"depth":…}`: scores in hundredths
///   from the mover's view (a forced win is 30000 less its distance in plies, a loss the
///   negative), the loss as in the table, `class` one of `best`, `good`, `inaccuracy`,
///   `mistake`, `blunder`, `forced`, `book`; a forced or book move has `null` for `best`, the
///   scores and the loss, and depth 0;
/// - per side `{"type":"summary","game":N,"side":"white","best":…,"good":…,"inaccuracy":…,
///   "mistake":…,"blunder":…,"forced":…,"average_loss":…}` (`null` without a classed move;
///   one decimal).
pub fn jsonl(entry: &Entry, plies: &[PlyReview]) -> Vec<String> {
    let game = &entry.game;
    let mut out = vec![JsonLine::Game {
        game: entry.number,
        line: entry.line,
        game_type: game.type_field(),
        plies: game.plies(),
        state: game.state_string(),
        end: game.end().map(|(_, r)| r.name()),
        white: entry.white.as_deref(),
        black: entry.black.as_deref(),
        result: entry.recorded_result.as_deref(),
    }];
    for p in plies {
        let s = p.scores();
        out.push(JsonLine::Ply {
            game: entry.number,
            ply: p.ply,
            side: side_name(p.side),
            played: &p.played,
            best: s.map(|s| s.best.as_str()),
            played_score: s.map(|s| s.played_score),
            best_score: s.map(|s| s.best_score),
            loss: s.map(|s| s.loss()),
            class: p.class_name(),
            depth: s.map_or(0, |s| s.depth),
        });
    }
    for side in [Color::White, Color::Black] {
        let summary = ReviewSummary::of(plies, side);
        out.push(JsonLine::Summary {
            game: entry.number,
            side: side_name(side),
            best: summary.count(Class::Best),
            good: summary.count(Class::Good),
            inaccuracy: summary.count(Class::Inaccuracy),
            mistake: summary.count(Class::Mistake),
            blunder: summary.count(Class::Blunder),
            forced: summary.forced,
            average_loss: summary.average_loss().map(Fixed),
        });
    }
    out.iter().map(crate::json::line).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_are_written_in_the_movers_moves() {
        assert_eq!(score_text(MATE - 1), "#1");
        assert_eq!(score_text(MATE - 3), "#2");
        assert_eq!(score_text(-(MATE - 2)), "#-1");
        assert_eq!(score_text(-(MATE - 4)), "#-2");
        assert_eq!(score_text(-35), "-35");
    }
}
