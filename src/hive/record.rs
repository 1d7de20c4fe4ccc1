//! A game record: a position together with the moves and MoveStrings that led to it, read from
//! and written to UHP GameStrings.

use super::notation::MoveText;
use super::piece::GameType;
use super::{Hive, Move};
use crate::error::RulesError;
use crate::game::{Color, Outcome};

/// A Hive game as the protocol sees it: the position, every move played and the MoveString it
/// was played with.
#[derive(Clone, Debug)]
pub struct HiveGame {
    hive: Hive,
    moves: Vec<Move>,
    /// Normalised MoveStrings as received (Mzinga echoes what it was sent, not its own form).
    strings: Vec<String>,
    buffer: Vec<Move>,
}

impl HiveGame {
    /// A new game of the given type.
    pub fn new(game_type: GameType) -> HiveGame {
        HiveGame { hive: Hive::new(game_type), moves: Vec::new(), strings: Vec::new(), buffer: Vec::new() }
    }

    /// Loads a GameString `Type;State;Turn;move;move…` as Mzinga does: the game type must be
    /// valid, the state and turn fields are ignored (they are recomputed), and every move is
    /// replayed with full checking.
    pub fn parse(game_string: &str) -> Result<HiveGame, RulesError> {
        let mut fields = game_string.split(';');
        let type_field = fields.next().unwrap_or_default();
        let game_type =
            GameType::parse(type_field).ok_or_else(|| RulesError::UnparsableField(type_field.to_string()))?;
        let mut game = HiveGame::new(game_type);
        for field in fields.skip(2) {
            let text = MoveText::parse(field).ok_or_else(|| RulesError::UnparsableField(field.to_string()))?;
            game.play_text(text).map_err(|_| RulesError::UnplayableField(field.to_string()))?;
        }
        Ok(game)
    }

    /// The position.
    pub fn hive(&self) -> &Hive {
        &self.hive
    }

    /// The position, mutably (for searching from it; it must be restored).
    pub fn hive_mut(&mut self) -> &mut Hive {
        &mut self.hive
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The MoveStrings of the moves played so far.
    pub fn move_strings(&self) -> &[String] {
        &self.strings
    }

    /// Turns the threefold-repetition draw on or off.
    pub fn set_repetition_draw(&mut self, on: bool) {
        self.hive.set_repetition_draw(on);
    }

    /// The GameStateString: `NotStarted`, `InProgress`, `Draw`, `WhiteWins` or `BlackWins`.
    pub fn state_string(&self) -> &'static str {
        match self.hive.outcome() {
            Outcome::Draw => "Draw",
            Outcome::Win(Color::White) => "WhiteWins",
            Outcome::Win(Color::Black) => "BlackWins",
            Outcome::InProgress if self.hive.ply() == 0 => "NotStarted",
            Outcome::InProgress => "InProgress",
        }
    }

    /// The GameString, with the turn computed from the ply count (also after the game ended).
    pub fn game_string(&self) -> String {
        let mut s = format!(
            "{};{};{}[{}]",
            self.hive.game_type(),
            self.state_string(),
            self.hive.to_move(),
            self.hive.turn_number()
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
        self.hive.generate_moves(&mut moves);
        moves
    }

    /// The legal moves as canonical MoveStrings joined by `;` (what `validmoves` prints).
    pub fn valid_moves_string(&mut self) -> String {
        let moves = self.legal_moves();
        let strings: Vec<String> = moves.iter().map(|&m| self.hive.move_string(m)).collect();
        strings.join(";")
    }

    /// The canonical MoveString of a legal move in the current position.
    pub fn move_string(&self, mv: Move) -> String {
        self.hive.move_string(mv)
    }

    /// Reads and plays a MoveString, or says why it cannot be played (state unchanged). The
    /// record keeps the text as sent (normalised), as Mzinga's GameString does.
    pub fn play(&mut self, text: &str) -> Result<(), RulesError> {
        let parsed = self.read(text)?;
        self.play_text(parsed)
    }

    /// Like [`HiveGame::play`], but records Mzinga's canonical MoveString instead of the text
    /// as sent (other engines spell moves differently) and returns it.
    pub fn play_canonical(&mut self, text: &str) -> Result<&str, RulesError> {
        let parsed = self.read(text)?;
        let mv = self.legal_move(parsed)?;
        self.play_move(mv);
        Ok(self.strings.last().expect("a move was just recorded"))
    }

    /// Parses a MoveString to be played now.
    fn read(&self, text: &str) -> Result<MoveText, RulesError> {
        if self.hive.outcome().is_over() {
            return Err(RulesError::GameOver);
        }
        MoveText::parse(text).ok_or_else(|| RulesError::UnparsableMove(text.to_string()))
    }

    /// The legal move a parsed MoveString names here.
    fn legal_move(&mut self, text: MoveText) -> Result<Move, RulesError> {
        let mut legal = std::mem::take(&mut self.buffer);
        self.hive.generate_moves(&mut legal);
        let result = self.hive.resolve_move(text, &legal);
        self.buffer = legal;
        result
    }

    fn play_text(&mut self, text: MoveText) -> Result<(), RulesError> {
        let mv = self.legal_move(text)?;
        self.hive.make(mv);
        self.moves.push(mv);
        self.strings.push(text.to_string());
        Ok(())
    }

    /// Plays a move known to be legal here (from the move generator or the search), recording
    /// its canonical MoveString.
    pub fn play_move(&mut self, mv: Move) {
        let s = self.hive.move_string(mv);
        self.hive.make(mv);
        self.moves.push(mv);
        self.strings.push(s);
    }

    /// Takes back the last `n` moves; `n` must be at most the number of moves played.
    pub fn undo(&mut self, n: usize) {
        for _ in 0..n.min(self.moves.len()) {
            let mv = self.moves.pop().expect("checked against the move count");
            self.strings.pop();
            self.hive.unmake(mv);
        }
    }
}
