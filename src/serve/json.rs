//! The JSON of the API (through serde): what the page sends and what the server answers. The
//! README's "Playing in the browser" documents every field.

use crate::show::view::{BoardView, MoveView};
use serde::{Deserialize, Serialize};

/// Who plays a side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Player {
    /// A person at the page.
    Human,
    /// comb at a level; Max thinks `seconds` a move (default 1).
    Comb {
        /// `Easy`, `Medium`, `Hard` or `Max`.
        level: String,
        /// Seconds a move at Max.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seconds: Option<f64>,
    },
    /// An engine given with `--engine`; `seconds` a move (default 1).
    Engine {
        /// Its name.
        name: String,
        /// Seconds a move.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seconds: Option<f64>,
    },
}

/// `POST /api/games`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// A game type, a GameString or a game in Hive PGN.
    pub start: String,
    /// Intellector's rules: `Modern` (default) or `Classic`.
    #[serde(default)]
    pub rules: Option<String>,
    /// White's player.
    pub white: Player,
    /// Black's player.
    pub black: Player,
}

/// `POST /api/games/{id}/play`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// The MoveString.
    #[serde(rename = "move")]
    pub text: String,
}

/// `POST /api/games/{id}/undo`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UndoRequest {
    /// Plies to take back (default 1).
    #[serde(default)]
    pub plies: Option<i64>,
}

/// `POST /api/games/{id}/resign`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResignRequest {
    /// `White` or `Black`.
    pub side: String,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Result {
    /// `WhiteWins`, `BlackWins` or `Draw`.
    pub outcome: String,
    /// Why, in words.
    pub reason: String,
}

/// Both sides' players.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Players {
    /// White's.
    pub white: Player,
    /// Black's.
    pub black: Player,
}

/// A position of a game, with everything the page draws.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Position {
    /// The game's id.
    pub id: String,
    /// `Hive` or `Intellector`.
    pub family: &'static str,
    /// The game type (`Base+MLP`, `Intellector`).
    pub game_type: String,
    /// Intellector's rules (`Modern`, `Classic`); none for Hive.
    pub rules: Option<String>,
    /// The GameString of the shown position.
    pub game_string: String,
    /// `NotStarted`, `InProgress`, `WhiteWins`, `BlackWins` or `Draw` (a resignation or a
    /// forfeit counts).
    pub state: String,
    /// `White` or `Black`.
    pub to_move: String,
    /// Plies played up to the shown position.
    pub ply: usize,
    /// Plies of the whole game.
    pub plies: usize,
    /// Every ply of the game, as recorded.
    pub moves: Vec<String>,
    /// How the game ended (at its last ply), if it has.
    pub result: Option<Result>,
    /// Why a game ended abnormally (an engine that crashed, hung or sent an illegal move).
    pub message: Option<String>,
    /// The players.
    pub players: Players,
    /// A player other than a person is choosing a move now.
    pub thinking: bool,
    /// Its search waits for a free search slot.
    pub waiting: bool,
    /// The board.
    #[serde(flatten)]
    pub board: BoardView,
}

/// `GET /api/games/{id}/moves`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Moves {
    /// The legal moves asked for.
    pub moves: Vec<MoveView>,
}

/// One line of an analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalysisLine {
    /// Hundredths of a piece, White's view (a mate as the search scores it: ±30000 less the
    /// plies to it).
    pub score: i32,
    /// Moves to a forced end: positive when White wins (none when no mate is seen).
    pub mate: Option<i32>,
    /// The moves, as MoveStrings.
    pub pv: Vec<String>,
    /// The first moves of `pv` as arrows.
    pub arrows: Vec<crate::show::view::Ends>,
}

/// One ply of a review.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReviewPly {
    /// The ply, from 1.
    pub ply: usize,
    /// The move played.
    #[serde(rename = "move")]
    pub text: String,
    /// The position after it, hundredths of a piece from White's view (a mate as ±1000);
    /// none for a forced move.
    pub score: Option<i32>,
    /// `best`, `good`, `inaccuracy`, `mistake` or `blunder`; none for a forced move.
    pub class: Option<&'static str>,
    /// comb's best move in the position before it (none for a forced move).
    pub best: Option<String>,
}

/// A message on a game's events socket, server to page.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Event {
    /// The game changed.
    Position {
        /// Its current position.
        position: Box<Position>,
    },
    /// The analysis so far.
    Analysis {
        /// The position analysed (plies from the start).
        ply: usize,
        /// The deepest finished iteration.
        depth: u32,
        /// Nodes searched.
        nodes: u64,
        /// Milliseconds since the analysis started.
        time: u64,
        /// The best lines, best first.
        lines: Vec<AnalysisLine>,
        /// The analysis has stopped (switched off, its cap reached, or the position has one
        /// move or none).
        done: bool,
    },
    /// The review so far.
    Review {
        /// The plies reviewed, in order.
        plies: Vec<ReviewPly>,
        /// Every ply is reviewed.
        done: bool,
    },
    /// A search waits for a free slot.
    Waiting {
        /// What waits, in words.
        message: String,
    },
    /// A request on the socket could not be done.
    Error {
        /// What is wrong.
        message: String,
    },
}

/// A message on a game's events socket, page to server.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum Request {
    /// Analysis on or off.
    Analyse {
        /// On or off.
        on: bool,
        /// Lines, 1 to 5 (default 1).
        #[serde(default)]
        multipv: Option<i64>,
        /// The position to analyse, in plies from the start (default: the current one).
        #[serde(default)]
        ply: Option<i64>,
    },
    /// Review the whole game.
    Review,
}

impl Event {
    /// The message as JSON text.
    pub fn text(&self) -> String {
        // Serialising these plain structs cannot fail (no maps with non-string keys).
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"type\":\"error\",\"message\":\"{e}\"}}"))
    }
}
