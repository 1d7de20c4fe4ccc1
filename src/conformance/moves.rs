//! Comparing what engines say as positions, not as text: a move is the piece and the place it
//! lands (engines name a destination by different neighbours: `wQ -bA1` and `wQ bS1/` can be
//! the same move), a GameString is its type, state, turn and the moves it replays.
//!
//! Both sides are read with comb's notation in the position at hand; a move that does not
//! read is a difference of its own.

use crate::hive::notation::Destination;
use crate::hive::{Hive, HiveGame, MoveText, Piece};

/// What identifies a move: its piece (none for `pass`) and where it lands. Ordered, so that
/// differences print in a stable order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MoveKey {
    /// The piece's id, or `u8::MAX` for `pass`.
    piece: u8,
    /// 0 pass, 1 a cell, 2 back to hand (a reference piece not in play).
    kind: u8,
    /// The destination cell's index.
    cell: u16,
    /// The height it lands at (pieces under it).
    height: u8,
}

impl MoveKey {
    /// The piece that moves, if any.
    pub fn piece(self) -> Option<Piece> {
        (self.piece != u8::MAX).then_some(Piece(self.piece))
    }
}

/// The key of a MoveString in `hive`'s position, or `None` if it does not read.
pub fn key_of(hive: &Hive, text: &str) -> Option<MoveKey> {
    let parsed = MoveText::parse(text)?;
    let piece = match parsed {
        MoveText::Pass => u8::MAX,
        MoveText::Piece { piece, .. } => piece.0,
    };
    let (kind, cell, height) = match hive.destination(parsed) {
        Destination::Pass => (0, 0, 0),
        Destination::At(cell, height) => (1, cell.index() as u16, height),
        Destination::Hand => (2, 0, 0),
    };
    Some(MoveKey { piece, kind, cell, height })
}

/// How two move lists differ (empty when they name the same moves).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveDiff {
    /// Moves only the engine lists, as it wrote them.
    pub only_engine: Vec<String>,
    /// Moves only the other side lists, as it wrote them.
    pub only_expected: Vec<String>,
    /// Engine moves that do not read as MoveStrings.
    pub unreadable: Vec<String>,
    /// Engine moves listed more than once (the second spelling).
    pub repeated: Vec<String>,
}

impl MoveDiff {
    /// True when the lists agree.
    pub fn is_empty(&self) -> bool {
        self.only_engine.is_empty()
            && self.only_expected.is_empty()
            && self.unreadable.is_empty()
            && self.repeated.is_empty()
    }

    /// The difference in one line, with `them` naming the other side (`expected`, `comb`).
    pub fn describe(&self, them: &str) -> String {
        let mut parts = Vec::new();
        let list = |v: &[String]| v.join(";");
        if !self.only_engine.is_empty() {
            parts.push(format!("only the engine lists {}", list(&self.only_engine)));
        }
        if !self.only_expected.is_empty() {
            parts.push(format!("only {them} lists {}", list(&self.only_expected)));
        }
        if !self.unreadable.is_empty() {
            parts.push(format!("unreadable {}", list(&self.unreadable)));
        }
        if !self.repeated.is_empty() {
            parts.push(format!("listed twice {}", list(&self.repeated)));
        }
        parts.join("; ")
    }
}

/// The moves of a `validmoves` line (`;`-separated; an empty line is no moves).
pub fn split_moves(line: &str) -> Vec<String> {
    line.split(';').map(str::trim).filter(|m| !m.is_empty()).map(str::to_string).collect()
}

/// Compares the engine's moves with `expected` (text and key) in `hive`'s position, only the
/// moves of `piece` if one is given.
pub fn compare(hive: &Hive, engine: &[String], expected: &[(String, MoveKey)], piece: Option<Piece>) -> MoveDiff {
    let wanted = |k: &MoveKey| piece.is_none() || k.piece() == piece;
    let mut diff = MoveDiff::default();
    let mut seen: Vec<MoveKey> = Vec::new();
    let mut listed: Vec<(MoveKey, &String)> = Vec::new();
    for text in engine {
        match key_of(hive, text) {
            None => diff.unreadable.push(text.clone()),
            Some(k) if !wanted(&k) => {}
            Some(k) if seen.contains(&k) => diff.repeated.push(text.clone()),
            Some(k) => {
                seen.push(k);
                listed.push((k, text));
            }
        }
    }
    let mut only_engine: Vec<(MoveKey, &String)> =
        listed.into_iter().filter(|(k, _)| !expected.iter().any(|(_, e)| e == k)).collect();
    only_engine.sort();
    diff.only_engine = only_engine.into_iter().map(|(_, t)| t.clone()).collect();
    let mut only_expected: Vec<&(String, MoveKey)> =
        expected.iter().filter(|(_, k)| wanted(k) && !seen.contains(k)).collect();
    only_expected.sort_by_key(|(_, k)| *k);
    diff.only_expected = only_expected.into_iter().map(|(t, _)| t.clone()).collect();
    diff
}

/// The legal moves of `game` in comb's rules, as canonical MoveStrings with their keys.
pub fn legal(game: &mut HiveGame) -> Vec<(String, MoveKey)> {
    let moves = game.legal_moves();
    moves
        .into_iter()
        .map(|m| {
            let text = game.move_string(m);
            let key = key_of(game.hive(), &text).expect("comb reads its own MoveStrings");
            (text, key)
        })
        .collect()
}

/// Whether the engine's GameString `reply` is the game `expected` (a GameString comb loads):
/// the same type, state and turn fields, and moves that replay to the same moves (engines may
/// write them with other reference pieces). `None` when they agree, else the difference.
pub fn same_game(expected: &str, reply: &str) -> Option<String> {
    let reply = reply.trim();
    let want: Vec<&str> = expected.split(';').collect();
    let got: Vec<&str> = reply.split(';').collect();
    for (i, what) in ["game type", "state", "turn"].iter().enumerate() {
        if want.get(i) != got.get(i) {
            return Some(format!(
                "{what} `{}`, expected `{}` (answered `{reply}`)",
                got.get(i).unwrap_or(&""),
                want.get(i).unwrap_or(&"")
            ));
        }
    }
    if want.len() != got.len() {
        return Some(format!(
            "{} moves, expected {} (answered `{reply}`)",
            got.len() - 3,
            want.len().saturating_sub(3)
        ));
    }
    let mine = match HiveGame::parse(expected) {
        Ok(g) => g,
        Err(e) => return Some(format!("comb cannot load the expected GameString: {e}")),
    };
    let theirs = match HiveGame::parse(reply) {
        Ok(g) => g,
        Err(e) => return Some(format!("comb cannot load the answer `{reply}`: {e}")),
    };
    let first = mine.moves().iter().zip(theirs.moves()).position(|(a, b)| a != b);
    first.map(|i| format!("move {} is `{}`, expected `{}`", i + 1, got[i + 3], want[i + 3]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(s: &str) -> HiveGame {
        HiveGame::parse(s).unwrap()
    }

    #[test]
    fn moves_compare_by_where_they_land() {
        let g = game("Base;InProgress;White[2];wS1;bS1 wS1-");
        let k = |t: &str| key_of(g.hive(), t).unwrap();
        // North-east of wS1 is north-west of bS1.
        assert_eq!(k("wQ wS1/"), k("wQ \\bS1"));
        assert_ne!(k("wQ wS1/"), k("wQ wS1\\"));
        assert_ne!(k("wQ wS1/"), k("wB1 wS1/"));
        // Climbing is not the cell beside.
        assert_ne!(k("wB1 bS1"), k("wB1 -bS1"));
        assert_eq!(key_of(g.hive(), "wQ-wS1"), None);
        assert_eq!(k("pass").piece(), None);
    }

    #[test]
    fn differences_name_both_sides() {
        let mut g = game("Base;InProgress;Black[1];wS1");
        let expected = legal(&mut g);
        assert_eq!(expected.len(), 24);
        let engine: Vec<String> = expected.iter().map(|(t, _)| t.clone()).collect();
        assert!(compare(g.hive(), &engine, &expected, None).is_empty());
        let mut engine = engine;
        engine.retain(|m| m != "bS1 wS1-");
        engine.push("bQ wS1-".into());
        engine.push("bA1 -wS1".into());
        engine.push("zz".into());
        let d = compare(g.hive(), &engine, &expected, None);
        assert_eq!(d.only_engine, ["bQ wS1-"]);
        assert_eq!(d.only_expected, ["bS1 wS1-"]);
        assert_eq!(d.unreadable, ["zz"]);
        assert_eq!(d.repeated, ["bA1 -wS1"]);
        assert_eq!(
            d.describe("comb"),
            "only the engine lists bQ wS1-; only comb lists bS1 wS1-; unreadable zz; listed twice bA1 -wS1"
        );
        let s1 = Piece::parse("bS1");
        let d = compare(g.hive(), &engine, &expected, s1);
        assert_eq!((d.only_engine.len(), d.only_expected.len()), (0, 1));
    }

    #[test]
    fn game_strings_compare_as_games() {
        let a = "Base;InProgress;White[2];wS1;bS1 wS1-";
        assert_eq!(same_game(a, a), None);
        assert!(same_game(a, "Base;InProgress;White[2];wS1;bS1 bS1")
            .unwrap()
            .starts_with("comb cannot load the answer"));
        assert!(same_game(a, "Base;InProgress;Black[2];wS1;bS1 wS1-").unwrap().starts_with("turn `Black[2]`"));
        assert!(same_game(a, "Base;InProgress;White[2];wS1;bS1 wS1/").unwrap().starts_with("move 2 is `bS1 wS1/`"));
        assert!(same_game(a, "Base;InProgress;White[2];wS1").unwrap().starts_with("1 moves, expected 2"));
        // The same move written from the other neighbour.
        let b = "Base;InProgress;Black[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wS2 \\wS1";
        assert_eq!(same_game(b, "Base;InProgress;Black[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wS2 wQ/"), None);
    }
}
