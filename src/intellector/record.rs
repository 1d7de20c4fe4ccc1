//! A game record: a position together with the moves and MoveStrings that led to it, read from
//! and written to GameStrings in the UHP dialect.
//!
//! ```text
//! Intellector;InProgress;Black[1];e2e3
//! Intellector[2!b…];NotStarted;Black[1]
//! ```
//! The type field is `Intellector`, or `Intellector[<SIP>]` for a custom start (written back as
//! SIP v2). The state and turn fields are recomputed on output and ignored on input; the turn
//! is `White[N]`/`Black[N]` for the side to move with `N = 1 + plies / 2`, plies counted from
//! the start position, whoever moves first there. The moves are replayed with full checking;
//! each may be in either notation, and the record keeps the canonical form (`f6g7=A`), so a
//! GameString we write reads back the same.

use super::board::Position;
use super::notation::MoveText;
use super::{Move, Rules};
use crate::error::RulesError;
use crate::game::{Color, Outcome};

/// The game type's name in GameStrings.
pub const GAME_TYPE: &str = "Intellector";

/// An Intellector game as the protocol sees it: the start, the position, every move played
/// and its canonical MoveString.
#[derive(Clone, Debug)]
pub struct IntellectorGame {
    position: Position,
    /// The custom start position as SIP v2 (`None` for the standard start).
    start: Option<String>,
    moves: Vec<Move>,
    strings: Vec<String>,
    buffer: Vec<Move>,
}

impl IntellectorGame {
    /// A new game from the standard start position.
    pub fn new(rules: Rules) -> IntellectorGame {
        IntellectorGame::from_position(Position::new(rules), None)
    }

    /// A new game from a custom start position given as SIP (v2 or v1).
    pub fn from_sip(sip: &str, rules: Rules) -> Result<IntellectorGame, RulesError> {
        let position = Position::from_sip(sip, rules)?;
        let start = position.to_sip();
        Ok(IntellectorGame::from_position(position, Some(start)))
    }

    fn from_position(position: Position, start: Option<String>) -> IntellectorGame {
        IntellectorGame { position, start, moves: Vec::new(), strings: Vec::new(), buffer: Vec::with_capacity(128) }
    }

    /// Reads a game type field: `Intellector` or `Intellector[<SIP>]` (the name in any case).
    pub fn from_game_type(type_field: &str, rules: Rules) -> Result<IntellectorGame, RulesError> {
        let unparsable = || RulesError::UnparsableField(type_field.to_string());
        let name = type_field.get(..GAME_TYPE.len()).filter(|n| n.eq_ignore_ascii_case(GAME_TYPE));
        let rest = name.and(type_field.get(GAME_TYPE.len()..)).ok_or_else(unparsable)?;
        if rest.is_empty() {
            return Ok(IntellectorGame::new(rules));
        }
        let sip = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')).ok_or_else(unparsable)?;
        IntellectorGame::from_sip(sip, rules).map_err(|_| unparsable())
    }

    /// Loads a GameString `Type;State;Turn;move;move…`: the type must be valid, the state and
    /// turn fields are ignored (they are recomputed), and every move is replayed with full
    /// checking.
    pub fn parse(game_string: &str, rules: Rules) -> Result<IntellectorGame, RulesError> {
        let mut fields = game_string.split(';');
        let mut game = IntellectorGame::from_game_type(fields.next().unwrap_or_default(), rules)?;
        for field in fields.skip(2) {
            let text = MoveText::parse(field).ok_or_else(|| RulesError::UnparsableField(field.to_string()))?;
            game.play_text(&text).map_err(|_| RulesError::UnplayableField(field.to_string()))?;
        }
        Ok(game)
    }

    /// The rules the game is played under.
    pub fn rules(&self) -> Rules {
        self.position.rules()
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The position, mutably (for searching from it; it must be restored).
    pub fn position_mut(&mut self) -> &mut Position {
        &mut self.position
    }

    /// The current position as SIP v2.
    pub fn to_sip(&self) -> String {
        self.position.to_sip()
    }

    /// The custom start position as SIP v2, or `None` for the standard start.
    pub fn start_sip(&self) -> Option<&str> {
        self.start.as_deref()
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The canonical MoveStrings of the moves played so far.
    pub fn move_strings(&self) -> &[String] {
        &self.strings
    }

    /// The game type field: `Intellector`, or `Intellector[<SIP v2>]` for a custom start.
    pub fn game_type_string(&self) -> String {
        match &self.start {
            Some(sip) => format!("{GAME_TYPE}[{sip}]"),
            None => GAME_TYPE.to_string(),
        }
    }

    /// The GameStateString: `NotStarted`, `InProgress`, `Draw`, `WhiteWins` or `BlackWins`.
    pub fn state_string(&self) -> &'static str {
        match self.position.outcome() {
            Outcome::Draw => "Draw",
            Outcome::Win(Color::White) => "WhiteWins",
            Outcome::Win(Color::Black) => "BlackWins",
            Outcome::InProgress if self.position.ply() == 0 => "NotStarted",
            Outcome::InProgress => "InProgress",
        }
    }

    /// The GameString, with the turn computed from the ply count (also after the game ended).
    pub fn game_string(&self) -> String {
        let mut s = format!(
            "{};{};{}[{}]",
            self.game_type_string(),
            self.state_string(),
            self.position.to_move(),
            self.position.turn_number()
        );
        for m in &self.strings {
            s.push(';');
            s.push_str(m);
        }
        s
    }

    /// The legal moves of the current position (empty once the game is over).
    pub fn legal_moves(&mut self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.position.generate_moves(&mut moves);
        moves
    }

    /// The legal moves as canonical MoveStrings joined by `;` (what `validmoves` prints);
    /// empty once the game is over.
    pub fn valid_moves_string(&mut self) -> String {
        let moves = self.legal_moves();
        let strings: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        strings.join(";")
    }

    /// The canonical MoveString of a move.
    pub fn move_string(&self, mv: Move) -> String {
        self.position.move_string(mv)
    }

    /// A legal move of the current position in intellector.info's notation.
    pub fn site_move_string(&mut self, mv: Move) -> String {
        let legal = self.legal_moves();
        self.position.site_move_string(mv, &legal)
    }

    /// Reads and plays a MoveString in either notation, or says why it cannot be played
    /// (state unchanged).
    pub fn play(&mut self, text: &str) -> Result<(), RulesError> {
        if self.position.outcome().is_over() {
            return Err(RulesError::GameOver);
        }
        let parsed = MoveText::parse(text).ok_or_else(|| RulesError::UnparsableMove(text.to_string()))?;
        self.play_text(&parsed)
    }

    fn play_text(&mut self, text: &MoveText) -> Result<(), RulesError> {
        let mut legal = std::mem::take(&mut self.buffer);
        self.position.generate_moves(&mut legal);
        let result = self.position.resolve(text, &legal);
        self.buffer = legal;
        self.play_move(result?);
        Ok(())
    }

    /// Plays a move known to be legal here (from the move generator or the search), recording
    /// its canonical MoveString.
    pub fn play_move(&mut self, mv: Move) {
        self.position.make(mv);
        self.moves.push(mv);
        self.strings.push(mv.to_string());
    }

    /// Takes back the last `n` moves (all of them if fewer were played).
    pub fn undo(&mut self, n: usize) {
        for _ in 0..n.min(self.moves.len()) {
            let mv = self.moves.pop().expect("checked against the move count");
            self.strings.pop();
            self.position.unmake(mv);
        }
    }
}
