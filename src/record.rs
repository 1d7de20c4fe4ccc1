//! A game in progress, for any game: the position, every move played with its MoveString, the
//! GameString, undo, and how the game ended.
//!
//! [`Record`] is the one record of a game in progress that the protocol, the command line and
//! the tournament referee share. It is generic over [`Notation`], the little a game must add to
//! [`Game`] for it: reading a MoveString, matching it against the legal moves, writing a move,
//! and how the game ended (each game has its own end reasons; [`crate::games::EndReason`]
//! names them all).

use crate::error::RulesError;
use crate::game::{Color, Game, Outcome};
use std::fmt;

/// What a game adds to [`Game`] so that a [`Record`] can keep it: its MoveStrings and how it
/// ends.
pub trait Notation: Game + fmt::Debug {
    /// A MoveString as read, before it is matched against the legal moves.
    type Text;

    /// Reads a MoveString, or `None` when it cannot be read.
    fn read_move(text: &str) -> Option<Self::Text>;

    /// The legal move (one of `legal`, this position's moves) that `text` names, or why there
    /// is none.
    fn resolve(&self, text: &Self::Text, legal: &[Self::Move]) -> Result<Self::Move, RulesError>;

    /// The canonical MoveString of a legal move in this position.
    fn write_move(&self, mv: Self::Move) -> String;

    /// The MoveString a record keeps for `mv`, played here from `text`: the text as sent
    /// (normalised) where the reference echoes it, as Mzinga's GameString does for Hive, or
    /// the canonical form.
    fn recorded_text(&self, text: &Self::Text, mv: Self::Move) -> String;

    /// Why a game of this kind can end, by its rules.
    type End: Copy + fmt::Debug;

    /// How the game ended in this position, if it has (the outcome says who won).
    fn end_reason(&self) -> Option<Self::End>;
}

/// A game in progress: the position, the moves played and the MoveString of each, and the
/// GameString's type field.
#[derive(Clone, Debug)]
pub struct Record<G: Notation> {
    position: G,
    /// The GameString's first field (`Base+MLP`, `Intellector[<SIP>]`).
    type_field: String,
    moves: Vec<G::Move>,
    strings: Vec<String>,
    /// Reused for move generation, so playing a move allocates nothing once warm.
    buffer: Vec<G::Move>,
}

impl<G: Notation> Record<G> {
    /// A record that starts at `position`, whose GameStrings begin with `type_field`.
    pub fn starting_at(position: G, type_field: String) -> Record<G> {
        Record { position, type_field, moves: Vec::new(), strings: Vec::new(), buffer: Vec::with_capacity(128) }
    }

    /// Replays the move fields of a GameString (everything after type, state and turn, which
    /// are recomputed) with full checking, as Mzinga loads a GameString.
    pub fn replay<'a>(mut self, fields: impl Iterator<Item = &'a str>) -> Result<Record<G>, RulesError> {
        for field in fields {
            let text = G::read_move(field).ok_or_else(|| RulesError::UnparsableField(field.to_string()))?;
            self.play_text(&text).map_err(|_| RulesError::UnplayableField(field.to_string()))?;
        }
        Ok(self)
    }

    /// The position.
    pub fn position(&self) -> &G {
        &self.position
    }

    /// The position, mutably (for searching from it; it must be restored).
    pub fn position_mut(&mut self) -> &mut G {
        &mut self.position
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// The MoveStrings of the moves played so far.
    pub fn move_strings(&self) -> &[String] {
        &self.strings
    }

    /// The GameString's type field.
    pub fn type_field(&self) -> &str {
        &self.type_field
    }

    /// Whether the game has ended, and how.
    pub fn outcome(&self) -> Outcome {
        self.position.outcome()
    }

    /// How the game ended, if it has.
    pub fn end(&self) -> Option<(Outcome, G::End)> {
        let outcome = self.outcome();
        outcome.is_over().then(|| self.position.end_reason().map(|r| (outcome, r))).flatten()
    }

    /// The GameStateString: `NotStarted`, `InProgress`, `Draw`, `WhiteWins` or `BlackWins`.
    pub fn state_string(&self) -> &'static str {
        match self.outcome() {
            Outcome::Draw => "Draw",
            Outcome::Win(Color::White) => "WhiteWins",
            Outcome::Win(Color::Black) => "BlackWins",
            Outcome::InProgress if self.moves.is_empty() => "NotStarted",
            Outcome::InProgress => "InProgress",
        }
    }

    /// The GameString, with the turn computed from the ply count (also after the game ended):
    /// `White[N]`/`Black[N]` for the side to move, `N = 1 + plies / 2`.
    pub fn game_string(&self) -> String {
        let turn = 1 + self.position.ply() / 2;
        let mut s = format!("{};{};{}[{turn}]", self.type_field, self.state_string(), self.position.side_to_move());
        for m in &self.strings {
            s.push(';');
            s.push_str(m);
        }
        s
    }

    /// The legal moves of the current position (empty once the game is over).
    pub fn legal_moves(&mut self) -> Vec<G::Move> {
        let mut moves = Vec::new();
        self.position.generate_moves(&mut moves);
        moves
    }

    /// The legal moves as canonical MoveStrings joined by `;` (what `validmoves` prints).
    pub fn valid_moves_string(&mut self) -> String {
        let moves = self.legal_moves();
        let strings: Vec<String> = moves.iter().map(|&m| self.position.write_move(m)).collect();
        strings.join(";")
    }

    /// The canonical MoveString of a legal move in the current position.
    pub fn move_string(&self, mv: G::Move) -> String {
        self.position.write_move(mv)
    }

    /// Reads and plays a MoveString, or says why it cannot be played (state unchanged).
    pub fn play(&mut self, text: &str) -> Result<(), RulesError> {
        let parsed = self.read(text)?;
        self.play_text(&parsed)
    }

    /// Like [`Record::play`], but always records the canonical MoveString (other engines spell
    /// moves differently) and returns it.
    pub fn play_canonical(&mut self, text: &str) -> Result<&str, RulesError> {
        let mv = self.find_move(text)?;
        self.play_move(mv);
        Ok(self.strings.last().expect("a move was just recorded"))
    }

    /// The legal move a MoveString names in the current position, without playing it, or why
    /// there is none (what drawing a suggested move needs).
    pub fn find_move(&mut self, text: &str) -> Result<G::Move, RulesError> {
        let parsed = self.read(text)?;
        self.legal_move(&parsed)
    }

    /// Plays a move known to be legal here (from the move generator or the search), recording
    /// its canonical MoveString.
    pub fn play_move(&mut self, mv: G::Move) {
        let s = self.position.write_move(mv);
        self.push(mv, s);
    }

    /// Takes back the last `n` moves (all of them if fewer were played).
    pub fn undo(&mut self, n: usize) {
        for _ in 0..n.min(self.moves.len()) {
            let mv = self.moves.pop().expect("checked against the move count");
            self.strings.pop();
            self.position.unmake(mv);
        }
    }

    /// Parses a MoveString to be played now.
    fn read(&self, text: &str) -> Result<G::Text, RulesError> {
        if self.outcome().is_over() {
            return Err(RulesError::GameOver);
        }
        G::read_move(text).ok_or_else(|| RulesError::UnparsableMove(text.to_string()))
    }

    /// The legal move a parsed MoveString names here.
    fn legal_move(&mut self, text: &G::Text) -> Result<G::Move, RulesError> {
        let mut legal = std::mem::take(&mut self.buffer);
        self.position.generate_moves(&mut legal);
        let result = self.position.resolve(text, &legal);
        self.buffer = legal;
        result
    }

    fn play_text(&mut self, text: &G::Text) -> Result<(), RulesError> {
        let mv = self.legal_move(text)?;
        let s = self.position.recorded_text(text, mv);
        self.push(mv, s);
        Ok(())
    }

    fn push(&mut self, mv: G::Move, text: String) {
        self.position.make(mv);
        self.moves.push(mv);
        self.strings.push(text);
    }
}
