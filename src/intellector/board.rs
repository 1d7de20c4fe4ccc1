//! The Intellector position: squares, occupancy sets, make/unmake, hashing and game end.

use super::geometry::{base_line, Hex, HexSet, HEX_COUNT, NONE};
use super::net::Accumulators;
use super::piece::{color_bits, Kind, Piece, EMPTY, KIND_MASK};
use super::{zobrist, Move, MoveKind, Rules};
use crate::error::RulesError;
use crate::game::{Color, Outcome};
use crate::nnue::Evaluation;

/// Consecutive plies without a capture or Progressor move that draw the game.
pub const QUIET_PLY_LIMIT: u32 = 60;

/// What `make` must remember so that `unmake` restores the position exactly.
#[derive(Copy, Clone, Debug)]
struct Undo {
    hash: u64,
    quiet: u32,
    /// Square code of the piece that moved, before any promotion or transformation.
    moved: u8,
    /// Square code of the captured piece ([`EMPTY`] for none and for swaps).
    captured: u8,
    repetitions: u8,
    captured_types: [u8; 2],
}

/// An Intellector position together with the history needed to take moves back and to
/// detect repetitions.
///
/// It holds only what the rules need; the strings a game was played with live in
/// [`super::IntellectorGame`].
#[derive(Clone)]
pub struct Position {
    pub(crate) rules: Rules,
    /// Square code of every hex (type | colour bit, 0 = empty).
    pub(crate) squares: [u8; HEX_COUNT],
    /// Hexes occupied by each colour.
    pub(crate) occupied: [HexSet; 2],
    /// Hex of each colour's Intellector, [`NONE`] once captured.
    pub(crate) intellector: [u8; 2],
    /// Promotable types (bit = type code) of each colour captured so far: the Classic rules
    /// allow promotion only into these.
    pub(crate) captured_types: [u8; 2],
    pub(crate) to_move: Color,
    pub(crate) ply: usize,
    /// Plies since the last capture or Progressor move.
    pub(crate) quiet: u32,
    /// How often the current position occurred before, within the repetition window.
    pub(crate) repetitions: u8,
    pub(crate) hash: u64,
    history: Vec<Undo>,
    /// Which evaluation the search reads: the hand-written one or the network.
    pub(crate) evaluation: Evaluation,
    /// The network's accumulators along the line made so far (kept only for
    /// [`Evaluation::Net`]).
    pub(crate) accumulators: Accumulators,
}

impl Position {
    /// A position from a list of pieces, with `to_move` to move, no moves played and the
    /// quiet-ply counter at 0.
    ///
    /// Under Classic rules a type counts as already captured for a colour when that colour
    /// has fewer than the two pieces of it it starts with (the history is unknown, so the
    /// material is the best witness).
    ///
    /// Rejected: two pieces on one hex, more than one Intellector of a colour, no Intellector
    /// at all, and positions in which both sides have already won.
    pub fn from_pieces(rules: Rules, to_move: Color, pieces: &[(Hex, Piece)]) -> Result<Position, RulesError> {
        let mut pos = Position {
            rules,
            squares: [EMPTY; HEX_COUNT],
            occupied: [HexSet::EMPTY; 2],
            intellector: [NONE; 2],
            captured_types: [0; 2],
            to_move,
            ply: 0,
            quiet: 0,
            repetitions: 0,
            hash: 0,
            history: Vec::with_capacity(256),
            // A bare position keeps no accumulators; a game set up by `GameOptions` takes its
            // evaluation ([`super::DEFAULT_EVALUATION`] unless asked).
            evaluation: Evaluation::Classic,
            accumulators: Accumulators::default(),
        };
        let invalid = |message: &str| Err(RulesError::InvalidPosition(message.to_string()));
        let mut counts = [[0u8; 8]; 2];
        for &(hex, piece) in pieces {
            let h = hex.index();
            if pos.squares[h] != EMPTY {
                return invalid(&format!("Two pieces on {hex}."));
            }
            let c = piece.color.index();
            pos.squares[h] = piece.code();
            pos.occupied[c].insert(hex);
            counts[c][piece.kind as usize] += 1;
            if piece.kind == Kind::Intellector {
                if pos.intellector[c] != NONE {
                    return invalid(&format!("{} has more than one Intellector.", piece.color));
                }
                pos.intellector[c] = h as u8;
            }
        }
        if pos.intellector == [NONE; 2] {
            return invalid("Neither side has an Intellector.");
        }
        if pos.has_lost(Color::White) && pos.has_lost(Color::Black) {
            return invalid("Both sides have already won.");
        }
        for (types, count) in pos.captured_types.iter_mut().zip(&counts) {
            for kind in Kind::PROMOTIONS {
                if count[kind as usize] < 2 {
                    *types |= kind.bit();
                }
            }
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// The rule set this position is played under.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The player to move.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Plies played since the start (or since the loaded position).
    #[inline]
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// The turn number of the player to move: `1 + plies / 2`, counted from the start
    /// position (also a custom one), whoever moved first there.
    #[inline]
    pub fn turn_number(&self) -> usize {
        1 + self.ply / 2
    }

    /// Consecutive plies without a capture or Progressor move (60 draw).
    #[inline]
    pub fn quiet_plies(&self) -> u32 {
        self.quiet
    }

    /// How often the current position (arrangement and side to move) occurred before in
    /// this game; 2 means threefold repetition.
    #[inline]
    pub fn repetitions(&self) -> u8 {
        self.repetitions
    }

    /// The piece on `hex`, if any.
    #[inline]
    pub fn piece_at(&self, hex: Hex) -> Option<Piece> {
        Piece::from_code(self.squares[hex.index()])
    }

    /// Every piece with its hex, in hex order.
    pub fn pieces(&self) -> impl Iterator<Item = (Hex, Piece)> + '_ {
        Hex::all().filter_map(move |h| self.piece_at(h).map(|p| (h, p)))
    }

    /// The hexes occupied by `color`.
    #[inline]
    pub fn occupied_by(&self, color: Color) -> HexSet {
        self.occupied[color.index()]
    }

    /// The hex of `color`'s Intellector, or `None` once it has been captured.
    #[inline]
    pub fn intellector(&self, color: Color) -> Option<Hex> {
        Hex::new(self.intellector[color.index()] as usize)
    }

    /// The promotable types of `color` captured so far (what Classic promotion may choose).
    pub fn captured_types(&self, color: Color) -> impl Iterator<Item = Kind> {
        let set = self.captured_types[color.index()];
        Kind::PROMOTIONS.into_iter().filter(move |k| set & k.bit() != 0)
    }

    /// Whether `color` has lost by Fatum (its Intellector was captured) or by Breakthrough
    /// (the enemy Intellector stands on `color`'s base line).
    #[inline(always)]
    pub(crate) fn has_lost(&self, color: Color) -> bool {
        let own = self.intellector[color.index()];
        let enemy = self.intellector[color.opponent().index()];
        own == NONE || (enemy != NONE && base_line(color).contains(Hex::from_index(enemy as usize)))
    }

    /// Whether `color`'s Intellector stands on the enemy base line (a win by Breakthrough).
    pub fn breakthrough(&self, color: Color) -> bool {
        let own = self.intellector[color.index()];
        own != NONE && base_line(color.opponent()).contains(Hex::from_index(own as usize))
    }

    /// The game end decided without looking at the moves: a win (Fatum, Breakthrough), then a
    /// draw (threefold repetition, 60 quiet plies).
    #[inline(always)]
    pub(crate) fn decided(&self) -> Option<Outcome> {
        if self.has_lost(Color::White) {
            Some(Outcome::Win(Color::Black))
        } else if self.has_lost(Color::Black) {
            Some(Outcome::Win(Color::White))
        } else if self.repetitions >= 2 || self.quiet >= QUIET_PLY_LIMIT {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// Whether the game has ended, and how (see the module docs for the order of the checks).
    pub fn outcome(&self) -> Outcome {
        match self.decided() {
            Some(outcome) => outcome,
            None if self.has_legal_move() => Outcome::InProgress,
            // A side that cannot move loses (the site has no stalemate rule; see module docs).
            None => Outcome::Win(self.to_move.opponent()),
        }
    }

    /// The incremental hash.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch (for checking the incremental one).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (i, &code) in self.squares.iter().enumerate() {
            h ^= zobrist::piece_key(code, i);
        }
        if self.to_move == Color::Black {
            h ^= zobrist::side_key();
        }
        if self.rules == Rules::Classic {
            h ^= zobrist::captured_set_key(0, self.captured_types[0]);
            h ^= zobrist::captured_set_key(1, self.captured_types[1]);
        }
        h
    }

    /// Plays a move without checking it. The move must be legal in this position.
    #[inline]
    pub fn make(&mut self, mv: Move) {
        // The network's bookkeeping is apart, so that the hand-written evaluation's make
        // stays as it was.
        if self.evaluation == Evaluation::Net {
            self.make_with_network(mv);
        } else {
            self.play(mv);
        }
    }

    /// [`Position::make`] with the network as the evaluation: a move changes only its origin
    /// and its destination, whose squares are read before it to bring the accumulators up to
    /// date after it.
    #[inline(never)]
    fn make_with_network(&mut self, mv: Move) {
        let hexes = [mv.from.index(), mv.to.index()];
        let before = hexes.map(|h| self.squares[h]);
        self.play(mv);
        self.apply_net_change(hexes, before);
    }

    /// Plays `mv` on the board and keys the hash, with what `unmake` needs kept in the history.
    #[inline(always)]
    fn play(&mut self, mv: Move) {
        let me = self.to_move;
        let (m, t) = (me.index(), me.opponent().index());
        let (from, to) = (mv.from.index(), mv.to.index());
        let moved = self.squares[from];
        let target = self.squares[to];
        self.history.push(Undo {
            hash: self.hash,
            quiet: self.quiet,
            moved,
            captured: if mv.kind == MoveKind::Swap { EMPTY } else { target },
            repetitions: self.repetitions,
            captured_types: self.captured_types,
        });
        let progressive = if mv.kind == MoveKind::Swap {
            // The Intellector (on `from`) and its Defensor (on `to`) change places.
            self.squares[from] = target;
            self.squares[to] = moved;
            self.hash ^= zobrist::piece_key(moved, from)
                ^ zobrist::piece_key(moved, to)
                ^ zobrist::piece_key(target, to)
                ^ zobrist::piece_key(target, from);
            self.intellector[m] = to as u8;
            false
        } else {
            if target != EMPTY {
                self.hash ^= zobrist::piece_key(target, to);
                self.occupied[t].remove(mv.to);
                let kind = target & KIND_MASK;
                if kind == Kind::Intellector as u8 {
                    self.intellector[t] = NONE;
                } else if kind != Kind::Progressor as u8 && self.captured_types[t] & (1 << kind) == 0 {
                    self.captured_types[t] |= 1 << kind;
                    if self.rules == Rules::Classic {
                        self.hash ^= zobrist::captured_key(t, kind);
                    }
                }
            }
            let placed = match mv.kind {
                MoveKind::Promotion(k) | MoveKind::Aura(k) => k as u8 | color_bits(me),
                _ => moved,
            };
            self.squares[from] = EMPTY;
            self.squares[to] = placed;
            self.occupied[m] ^= mv.from.bit() | mv.to.bit();
            self.hash ^= zobrist::piece_key(moved, from) ^ zobrist::piece_key(placed, to);
            if moved & KIND_MASK == Kind::Intellector as u8 {
                self.intellector[m] = to as u8;
            }
            target != EMPTY || moved & KIND_MASK == Kind::Progressor as u8
        };
        self.quiet = if progressive { 0 } else { self.quiet + 1 };
        self.to_move = me.opponent();
        self.ply += 1;
        self.hash ^= zobrist::side_key();
        self.repetitions = self.count_repetitions();
    }

    /// Hashes of the positions since the last capture or Progressor move (the only ones the
    /// game can return to), oldest first.
    pub fn repeatable_history(&self, out: &mut Vec<u64>) {
        let len = self.history.len();
        let window = (self.quiet as usize).min(len);
        out.extend(self.history[len - window..].iter().map(|u| u.hash));
    }

    /// Earlier occurrences of the current position. Captures and Progressor moves can never
    /// be undone by later play (material only shrinks, Progressors only advance), so only the
    /// last `quiet` plies can hold a repeat, and only every second one has the same side to
    /// move.
    #[inline]
    fn count_repetitions(&self) -> u8 {
        let len = self.history.len();
        let window = (self.quiet as usize).min(len);
        let mut count = 0;
        let mut back = 2;
        while back <= window {
            if self.history[len - back].hash == self.hash {
                count += 1;
            }
            back += 2;
        }
        count
    }

    /// Takes back `mv`, which must be the last move made.
    pub fn unmake(&mut self, mv: Move) {
        let undo = self.history.pop().expect("unmake without a matching make");
        let me = self.to_move.opponent();
        let (m, t) = (me.index(), me.opponent().index());
        let (from, to) = (mv.from.index(), mv.to.index());
        if mv.kind == MoveKind::Swap {
            self.squares.swap(from, to);
            self.intellector[m] = from as u8;
        } else {
            self.squares[from] = undo.moved;
            self.squares[to] = undo.captured;
            self.occupied[m] ^= mv.from.bit() | mv.to.bit();
            if undo.captured != EMPTY {
                self.occupied[t].insert(mv.to);
                if undo.captured & KIND_MASK == Kind::Intellector as u8 {
                    self.intellector[t] = to as u8;
                }
            }
            if undo.moved & KIND_MASK == Kind::Intellector as u8 {
                self.intellector[m] = from as u8;
            }
        }
        self.to_move = me;
        self.ply -= 1;
        self.hash = undo.hash;
        self.quiet = undo.quiet;
        self.repetitions = undo.repetitions;
        self.captured_types = undo.captured_types;
        if self.evaluation == Evaluation::Net {
            self.accumulators.pop();
        }
    }
}

impl PartialEq for Position {
    /// Positions are equal when the rules, every square, the side to move, the ply and the
    /// counters derived from the history agree (the history itself does not count).
    fn eq(&self, other: &Position) -> bool {
        self.rules == other.rules
            && self.squares == other.squares
            && self.occupied == other.occupied
            && self.intellector == other.intellector
            && self.captured_types == other.captured_types
            && self.to_move == other.to_move
            && self.ply == other.ply
            && self.quiet == other.quiet
            && self.repetitions == other.repetitions
            && self.hash == other.hash
    }
}
