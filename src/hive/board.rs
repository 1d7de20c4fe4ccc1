//! The Hive position: stacks on the grid, pieces in hand, make/unmake and hashing. The
//! one-hive rule's pin search is in `one_hive.rs`.

use super::cell_set::CellSet;
use super::grid::{neighbour, Cell, CellMap, NO_CELL};
use super::net::Accumulators;
use super::piece::{Bug, GameType, MaybePiece, Piece, PieceMap, PieceSet, PER_SIDE, PIECE_COUNT};
use super::zobrist;
use super::Evaluation;
use super::{Move, MoveView};
use crate::game::{Color, Outcome};

/// The neighbourhood of one cell as 6-bit rings in one `u32`: bit `d` of each ring stands for
/// the neighbour in direction `d`. Bits 0–5 say which neighbours are occupied and bits 6–11
/// again (so that a shift turns the ring round: see [`Rings::slides`]), bits 12–17 which are
/// topped by a white piece, bits 18–23 by a black one. One word, so that a piece arriving or
/// leaving updates each neighbour with a single XOR.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Rings(u32);

impl Rings {
    const EMPTY: Rings = Rings(0);
    /// Direction 0's bit in the occupancy ring.
    const OCCUPIED: u32 = 1 | 1 << 6;
    /// Direction 0's bit in each colour's ring (White, Black).
    const COLOUR: [u32; 2] = [1 << 12, 1 << 18];

    /// The bits a cell topped by `top` sets in a neighbour's rings, for direction 0: none for
    /// an empty cell, occupancy and the top's colour for a piece.
    #[inline(always)]
    fn bits_of(top: MaybePiece) -> u32 {
        RING_BITS[top.index()]
    }

    /// The bits that rule a cell out as a placement cell of `colour` (0 White, 1 Black) found
    /// from its own neighbour in direction `back`: any enemy neighbour, and an own one in a
    /// direction before `back` (from which the cell is found first).
    #[inline(always)]
    pub(crate) const fn placement_conflicts(colour: usize, back: usize) -> u32 {
        let (own, enemy) = (Rings::COLOUR[colour & 1], Rings::COLOUR[(colour & 1) ^ 1]);
        (63 * enemy) | (((1 << back) - 1) * own)
    }

    /// Whether any of the bits of `mask` are set.
    #[inline(always)]
    pub(crate) fn any(self, mask: u32) -> bool {
        self.0 & mask != 0
    }

    /// Bit `d` set when the neighbour in direction `d` is occupied.
    #[inline(always)]
    pub(crate) fn occupied(self) -> u8 {
        self.0 as u8 & 63
    }

    /// Bit `d` set when a piece on the cell can slide in direction `d`, as
    /// [`super::grid::slide_mask`] of [`Rings::occupied`] says, leaving out the directions of
    /// `except`.
    ///
    /// Worked out from the doubled occupancy ring in three steps (two shifts side by side,
    /// an XOR, an AND-NOT): the ant's flood asks this for every cell it reaches, and the table
    /// look-up it replaces added a load to the chain of loads the flood waits on.
    #[inline(always)]
    pub(crate) fn slides(self, except: u8) -> u8 {
        // Bit d of `self >> 1` is neighbour d + 1, of `self >> 5` neighbour d - 1 (bits 6–11
        // repeat 0–5): a slide needs exactly one of them and neither the target nor `except`.
        let blocked = self.0 | u32::from(except) | !63;
        (((self.0 >> 1) ^ (self.0 >> 5)) & !blocked) as u8
    }

    /// Bit `d` set when the neighbour in direction `d` is topped by a piece of `colour`
    /// (0 White, 1 Black).
    #[inline(always)]
    pub(crate) fn colour(self, colour: usize) -> u8 {
        (self.0 >> (12 + 6 * (colour & 1))) as u8 & 63
    }
}

/// [`Rings::bits_of`] for every value of a [`MaybePiece`] byte: the piece ids, then nothing
/// for the empty marker and the unused values.
static RING_BITS: [u32; 256] = {
    let mut table = [0; 256];
    let mut id = 0;
    while id < PIECE_COUNT {
        let colour = if id < PER_SIDE as usize { 0 } else { 1 };
        table[id] = Rings::OCCUPIED | Rings::COLOUR[colour];
        id += 1;
    }
    table
};

/// What `make` must remember so that `unmake` restores the position exactly.
#[derive(Copy, Clone, Debug)]
struct Undo {
    last_moved: MaybePiece,
    /// Pieces in play before the move (a placement is the one move that cannot be undone).
    /// The set rather than its size: a copy, where counting its bits takes a dozen
    /// instructions on every make.
    in_play: PieceSet,
    hash: u64,
}

/// Blocks of [`Placements`]: room for six cells around each piece of one side.
const PLACEMENT_BLOCKS: usize = 16;
const _: () = assert!(6 * PER_SIDE as usize <= 8 * PLACEMENT_BLOCKS, "every cell next to a side's pieces fits");

/// The placement cells of a position as move bits (a cell's index), eight to a block with the
/// last one padded: a piece's placements are then its bits OR-ed onto whole blocks.
#[derive(Clone)]
pub(crate) struct Placements {
    /// Boxed, like the cell tables, so that moving a `Hive` around stays cheap.
    pub blocks: Box<[[u32; 8]; PLACEMENT_BLOCKS]>,
    /// Number of cells.
    pub len: usize,
}

impl Placements {
    /// Writes `cell` after the cells so far and keeps it if `keep`: no branch on `keep`.
    #[inline(always)]
    pub fn push_if(&mut self, cell: Cell, keep: bool) {
        // The mask drops the bounds check; `len` stays below the room (see PLACEMENT_BLOCKS).
        self.blocks.as_flattened_mut()[self.len & (8 * PLACEMENT_BLOCKS - 1)] = cell.index() as u32;
        self.len += keep as usize;
    }

    /// The blocks holding the cells, the last one padded with whatever was written there.
    #[inline(always)]
    pub fn blocks(&self) -> &[[u32; 8]] {
        &self.blocks[..self.len.div_ceil(8)]
    }
}

/// Scratch space for move generation.
#[derive(Clone)]
pub(crate) struct Scratch {
    /// Destinations already emitted for the current piece (one bit per cell: cleared by a few
    /// stores, and small enough to stay in the cache). Boxed, like the cell tables, so that
    /// moving a `Hive` around stays cheap.
    pub dests: Box<CellSet>,
    /// Placement cells of the current position.
    pub placements: Placements,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            dests: Box::new(CellSet::EMPTY),
            placements: Placements { blocks: Box::new([[0; 8]; PLACEMENT_BLOCKS]), len: 0 },
        }
    }

    /// Starts a new destination set (for the next piece).
    #[inline(always)]
    pub fn new_dest_set(&mut self) {
        self.dests.clear();
    }

    /// Adds `cell` to the destination set; true if it was not in it yet.
    #[inline(always)]
    pub fn insert_dest(&mut self, cell: Cell) -> bool {
        self.dests.insert(cell)
    }
}

/// A Hive position together with the history needed to take moves back.
///
/// It holds only what the rules need; the strings a game was played with live in
/// [`super::record::HiveGame`].
#[derive(Clone)]
pub struct Hive {
    pub(crate) game_type: GameType,
    /// The pieces of this game type.
    pub(crate) enabled: PieceSet,
    /// Top piece of every cell, if any.
    pub(crate) top: CellMap<MaybePiece>,
    /// Number of pieces stacked on every cell.
    pub(crate) height: CellMap<u8>,
    /// The neighbourhood of every cell, three 6-bit rings in one word (see [`Rings`]). Kept up
    /// to date as cells fill, empty and change colour, so the slide rule and placement need one
    /// load, not six.
    pub(crate) rings: CellMap<Rings>,
    /// Cell of every piece, [`NO_CELL`] while in hand.
    pub(crate) pos: PieceMap<Cell>,
    /// The pieces on the board.
    pub(crate) in_play: PieceSet,
    /// The pieces in play with another on top of them: kept by `put` and `lift`, so that the
    /// pieces on top are a set difference, not a test of every piece against its cell's top.
    pub(crate) covered: PieceSet,
    /// The piece directly below every piece, if any.
    pub(crate) below: PieceMap<MaybePiece>,
    /// Pieces under every piece (0 = on the ground).
    pub(crate) level: PieceMap<u8>,
    /// For every piece on the ground, the ground pieces of the neighbouring stacks (empty for
    /// the other pieces): the graph of occupied cells, one node per stack, which the one-hive
    /// rule searches with a few bit operations per stack. Kept by `put` and `lift`; boxed, like
    /// the cell tables, so that moving a `Hive` around stays cheap;
    /// [`Hive::lift_temporarily`] leaves it alone, as the search never runs while a piece is up.
    pub(crate) links: Box<PieceMap<PieceSet>>,
    /// The piece moved or placed on the previous ply (none after a pass or at start).
    pub(crate) last_moved: MaybePiece,
    pub(crate) ply: usize,
    pub(crate) hash: u64,
    history: Vec<Undo>,
    /// When set, the third occurrence of a position (same hash) ends the game in a draw.
    /// Mzinga has no such rule, so it is off unless the `RepetitionDraw` option asks for it.
    pub(crate) repetition_draw: bool,
    /// Which evaluation the search reads: the hand-written one or the network.
    pub(crate) evaluation: Evaluation,
    /// The network's accumulators along the line made so far (kept only for [`Evaluation::Net`]).
    pub(crate) accumulators: Accumulators,
    pub(crate) scratch: Scratch,
}

impl Hive {
    /// An empty board of the given game type, White to move.
    pub fn new(game_type: GameType) -> Hive {
        Hive {
            game_type,
            enabled: game_type.pieces(),
            top: CellMap::new(MaybePiece::NONE),
            height: CellMap::new(0),
            rings: CellMap::new(Rings::EMPTY),
            pos: PieceMap::new(NO_CELL),
            in_play: PieceSet::EMPTY,
            covered: PieceSet::EMPTY,
            below: PieceMap::new(MaybePiece::NONE),
            level: PieceMap::new(0),
            links: Box::new(PieceMap::new(PieceSet::EMPTY)),
            last_moved: MaybePiece::NONE,
            ply: 0,
            hash: 0,
            history: Vec::with_capacity(256),
            repetition_draw: false,
            // A bare position keeps no accumulators; a game set up by `GameOptions` takes its
            // evaluation ([`super::DEFAULT_EVALUATION`] unless asked).
            evaluation: Evaluation::Classic,
            accumulators: Accumulators::default(),
            scratch: Scratch::new(),
        }
    }

    /// The game type.
    pub fn game_type(&self) -> GameType {
        self.game_type
    }

    /// Plies played.
    #[inline]
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// The player to move.
    #[inline]
    pub fn to_move(&self) -> Color {
        Color::at_ply(self.ply)
    }

    /// The turn number of the player to move (1 for each player's first placement).
    #[inline]
    pub fn turn_number(&self) -> usize {
        1 + self.ply / 2
    }

    /// Turns the threefold-repetition draw on or off (off by default, as in Mzinga).
    pub fn set_repetition_draw(&mut self, on: bool) {
        self.repetition_draw = on;
    }

    /// Whether the threefold-repetition draw is on.
    pub fn repetition_draw(&self) -> bool {
        self.repetition_draw
    }

    /// Chooses the evaluation the search reads.
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.evaluation = evaluation;
        self.reset_accumulators();
    }

    /// The evaluation the search reads.
    pub fn evaluation(&self) -> Evaluation {
        self.evaluation
    }

    /// Whether `piece` takes part in this game type.
    #[inline]
    pub fn is_enabled(&self, piece: Piece) -> bool {
        self.enabled.contains(piece)
    }

    /// The cell of `piece`, or `None` while it is in hand.
    #[inline]
    pub fn position(&self, piece: Piece) -> Option<Cell> {
        let c = self.pos[piece];
        (c != NO_CELL).then_some(c)
    }

    /// Pieces under `piece` (0 when it stands on the ground).
    #[inline]
    pub fn level(&self, piece: Piece) -> u8 {
        self.level[piece]
    }

    /// The top piece on `cell`, if any.
    #[inline(always)]
    pub fn top(&self, cell: Cell) -> Option<Piece> {
        self.top[cell].get()
    }

    /// The piece directly under `piece`, if any.
    #[inline]
    pub fn below(&self, piece: Piece) -> Option<Piece> {
        self.below[piece].get()
    }

    /// Number of pieces on `cell`.
    #[inline(always)]
    pub fn height(&self, cell: Cell) -> u8 {
        self.height[cell]
    }

    /// Whether `cell` holds at least one piece.
    #[inline(always)]
    pub fn occupied(&self, cell: Cell) -> bool {
        self.height(cell) != 0
    }

    /// The pieces on `cell`, top first (none for an empty cell).
    pub fn stack(&self, cell: Cell) -> impl Iterator<Item = Piece> + '_ {
        std::iter::successors(self.top(cell), move |&p| self.below(p))
    }

    /// Every occupied cell with its top piece, in piece id order.
    pub fn tops(&self) -> impl Iterator<Item = (Cell, Piece)> + '_ {
        Piece::all().filter(move |&p| self.is_on_top(p)).map(move |p| (self.pos[p], p))
    }

    /// The pieces of `color` still in hand, in id order (`wQ wS1 wS2 …`), of this game type.
    pub fn in_hand(&self, color: Color) -> impl Iterator<Item = Piece> + '_ {
        Piece::all().filter(move |&p| p.color() == color && self.is_enabled(p) && self.position(p).is_none())
    }

    /// The piece that moved or was placed on the previous ply, if any.
    #[inline]
    pub fn last_moved(&self) -> Option<Piece> {
        self.last_moved.get()
    }

    /// Whether `piece` is in play and nothing is stacked on it.
    #[inline]
    pub fn is_on_top(&self, piece: Piece) -> bool {
        let c = self.pos[piece];
        c != NO_CELL && self.top[c] == piece
    }

    /// Whether the queen of `color` is in play.
    #[inline]
    pub fn queen_in_play(&self, color: Color) -> bool {
        self.pos[Piece::queen(color)] != NO_CELL
    }

    /// Bit `d` set when the neighbour of `cell` in direction `d` is occupied.
    #[inline(always)]
    pub(crate) fn ring(&self, cell: Cell) -> u8 {
        self.rings[cell].occupied()
    }

    /// Bit `d` set when a piece on `cell` can slide in direction `d` (see
    /// [`super::grid::slide_mask`]).
    #[inline(always)]
    pub(crate) fn slides(&self, cell: Cell) -> u8 {
        self.rings[cell].slides(0)
    }

    /// Makes `new_top` (a piece or none) the top of `cell`, and updates the neighbours'
    /// occupancy and colour rings where the cell became occupied, empty, or changed colour.
    #[inline(always)]
    fn set_top(&mut self, cell: Cell, new_top: MaybePiece) {
        let old_top = std::mem::replace(&mut self.top[cell], new_top);
        // The bits to flip in every neighbour's rings, for direction 0: the ring bits of the old
        // top XOR those of the new one (occupancy cancels when both are pieces, colour when both
        // are the same colour). A table, not a test per top: this runs on every make and unmake.
        let flip = Rings::bits_of(old_top) ^ Rings::bits_of(new_top);
        if flip == 0 {
            return;
        }
        for d in 0..6 {
            self.rings[neighbour(cell, d)].0 ^= flip << super::grid::opposite(d);
        }
    }

    /// Whether the queen of `color` has all six neighbours occupied.
    #[inline]
    pub fn queen_surrounded(&self, color: Color) -> bool {
        let q = self.pos[Piece::queen(color)];
        q != NO_CELL && self.ring(q) == 63
    }

    /// Game end as Mzinga decides it after every ply: a surrounded queen loses, both at once
    /// draw; with [`Hive::set_repetition_draw`] on, the third occurrence of a position draws.
    pub fn outcome(&self) -> Outcome {
        let white = self.queen_surrounded(Color::White);
        let black = self.queen_surrounded(Color::Black);
        match (white, black) {
            (true, true) => Outcome::Draw,
            (true, false) => Outcome::Win(Color::Black),
            (false, true) => Outcome::Win(Color::White),
            (false, false) if self.repetition_draw && self.repetitions() >= 2 => Outcome::Draw,
            _ => Outcome::InProgress,
        }
    }

    /// How often the current position occurred before (same hash, same side to move).
    pub fn repetitions(&self) -> usize {
        // A position can only repeat with the same side to move: look back 2, 4, … plies.
        self.history.iter().rev().skip(1).step_by(2).filter(|u| u.hash == self.hash).count()
    }

    /// Hashes of the earlier positions with as many pieces in play as now (the only ones the
    /// game can return to), oldest first.
    pub fn repeatable_history(&self, out: &mut Vec<u64>) {
        let start = self.history.iter().rposition(|u| u.in_play != self.in_play).map_or(0, |i| i + 1);
        out.extend(self.history[start..].iter().map(|u| u.hash));
    }

    /// The incremental hash.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch (for checking the incremental one).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for p in Piece::all() {
            let c = self.pos[p];
            if c != NO_CELL {
                h ^= zobrist::piece_key(p.kind(), c, self.level[p]);
            }
        }
        if let Some(p) = self.last_moved.get() {
            if self.game_type.has_bug(Bug::Pillbug) {
                h ^= zobrist::last_moved_key(self.pos[p]);
            }
        }
        if self.to_move() == Color::Black {
            h ^= zobrist::side_key();
        }
        h
    }

    /// Puts `piece` on top of the stack at `to` (the hash is the caller's: `make` keys it, and
    /// `unmake` restores it whole).
    #[inline(always)]
    fn put(&mut self, piece: Piece, to: Cell) {
        let level = self.height[to];
        self.below[piece] = self.top[to];
        self.level[piece] = level;
        self.pos[piece] = to;
        self.in_play.insert(piece);
        if level == 0 {
            self.link(piece, to);
        } else {
            self.covered.insert(self.top[to].piece());
        }
        self.set_top(to, piece.into());
        self.height[to] = level + 1;
    }

    /// Lifts `piece`, which must be on top, off its stack (the hash is the caller's, as for
    /// [`Hive::put`]).
    #[inline(always)]
    fn lift(&mut self, piece: Piece) {
        let from = self.pos[piece];
        if self.level[piece] == 0 {
            // A ground piece on top is alone on its cell: the cell empties.
            self.unlink(piece);
        } else {
            self.covered.remove(self.below[piece].piece());
        }
        self.set_top(from, self.below[piece]);
        self.height[from] -= 1;
        self.pos[piece] = NO_CELL;
        self.in_play.remove(piece);
        self.below[piece] = MaybePiece::NONE;
        self.level[piece] = 0;
    }

    /// The piece at the bottom of the stack on `cell`, which must be occupied.
    #[inline(always)]
    fn ground_piece(&self, cell: Cell) -> Piece {
        let mut p = self.top[cell].piece();
        // Stacks are rare and low: the walk down is almost always no step at all.
        while self.level[p] != 0 {
            p = self.below[p].piece();
        }
        p
    }

    /// Adds `piece`, arriving on the empty cell `to`, to the graph of stacks.
    #[inline(always)]
    fn link(&mut self, piece: Piece, to: Cell) {
        let mut ring = self.ring(to);
        let mut around = PieceSet::EMPTY;
        while ring != 0 {
            let g = self.ground_piece(neighbour(to, ring.trailing_zeros() as usize));
            ring &= ring - 1;
            around.insert(g);
            self.links[g].insert(piece);
        }
        self.links[piece] = around;
    }

    /// Takes `piece`, leaving its cell empty, out of the graph of stacks.
    #[inline(always)]
    fn unlink(&mut self, piece: Piece) {
        let around = std::mem::replace(&mut self.links[piece], PieceSet::EMPTY);
        for g in around {
            self.links[g].remove(piece);
        }
    }

    /// Lifts `piece` without touching the hash (for move generation, which puts it back).
    #[inline(always)]
    pub(crate) fn lift_temporarily(&mut self, piece: Piece) -> Cell {
        let from = self.pos[piece];
        self.set_top(from, self.below[piece]);
        self.height[from] -= 1;
        from
    }

    /// Undoes [`Hive::lift_temporarily`].
    #[inline(always)]
    pub(crate) fn restore(&mut self, piece: Piece, from: Cell) {
        self.set_top(from, piece.into());
        self.height[from] += 1;
    }

    /// The hash key of the piece that moved last (0 for none).
    ///
    /// Only the Pillbug's rule (a piece just moved may not be thrown, a piece just thrown may
    /// not move) makes the last mover part of the position; without the Pillbug two positions
    /// that differ only in it have the same legal moves, so the hash leaves it out and a
    /// repetition is seen as one.
    #[inline(always)]
    fn last_moved_key(&self) -> u64 {
        match self.last_moved.get() {
            Some(p) if self.game_type.has_bug(Bug::Pillbug) => zobrist::last_moved_key(self.pos[p]),
            _ => 0,
        }
    }

    /// Plays a move without checking it. The move must be legal in this position.
    pub fn make(&mut self, mv: Move) {
        // The network's bookkeeping is apart: inlined here, its large change record was set up
        // on every make, network or not.
        if self.evaluation == Evaluation::Net {
            self.make_with_network(mv);
        } else {
            self.play(mv);
        }
    }

    /// [`Hive::make`] with the network as the evaluation: the features the move changes are
    /// read before it, and the accumulators brought up to date after.
    #[inline(never)]
    fn make_with_network(&mut self, mv: Move) {
        let change = self.net_change(mv);
        self.play(mv);
        self.apply_net_change(change);
    }

    /// Plays `mv` on the board and keys the hash, with what `unmake` needs kept in the history.
    #[inline(always)]
    fn play(&mut self, mv: Move) {
        self.history.push(Undo { last_moved: self.last_moved, in_play: self.in_play, hash: self.hash });
        // The hash is worked out in a register and stored once: updated in place, it was
        // stored in parts and then read back whole together with `ply`, which the processor
        // cannot forward from the stores (a stall of a quarter of the time `make` took). The
        // old "last moved" key is keyed by that piece's cell: taken out before anything moves.
        let mut hash = self.hash ^ self.last_moved_key() ^ zobrist::side_key();
        self.last_moved = match mv.view() {
            MoveView::Place { piece, to } => {
                hash ^= zobrist::piece_key(piece.kind(), to, self.height[to]);
                self.put(piece, to);
                piece.into()
            }
            MoveView::Move { piece, from, to } => {
                let kind = piece.kind();
                hash ^= zobrist::piece_key(kind, from, self.level[piece]);
                self.lift(piece);
                hash ^= zobrist::piece_key(kind, to, self.height[to]);
                self.put(piece, to);
                piece.into()
            }
            MoveView::Pass => MaybePiece::NONE,
        };
        self.hash = hash ^ self.last_moved_key();
        self.ply += 1;
    }

    /// Takes back `mv`, which must be the last move made.
    pub fn unmake(&mut self, mv: Move) {
        let undo = self.history.pop().expect("unmake without a matching make");
        match mv.view() {
            MoveView::Place { piece, .. } => self.lift(piece),
            MoveView::Move { piece, from, .. } => {
                self.lift(piece);
                self.put(piece, from);
            }
            MoveView::Pass => {}
        }
        self.ply -= 1;
        self.last_moved = undo.last_moved;
        // The hash comes back whole: `put` and `lift` leave it alone.
        self.hash = undo.hash;
        self.pop_accumulator();
    }

    /// Cells of all stacks, in piece order of their bottom pieces.
    pub(crate) fn occupied_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.in_play.iter().filter(move |p| self.level[*p] == 0).map(move |p| self.pos[p])
    }

    /// The pieces of `color` that are in play and not covered.
    #[inline]
    pub(crate) fn uncovered(&self, color: Color) -> PieceSet {
        (self.in_play & PieceSet::of(color)) - self.covered
    }
}

impl PartialEq for Hive {
    /// Positions are equal when every piece stands in the same place, the same side is to
    /// move and the same piece moved last (the history and scratch space do not count).
    fn eq(&self, other: &Hive) -> bool {
        self.game_type == other.game_type
            && self.pos == other.pos
            && self.in_play == other.in_play
            && self.covered == other.covered
            && self.below == other.below
            && self.level == other.level
            && self.links == other.links
            && self.last_moved == other.last_moved
            && self.ply == other.ply
            && self.hash == other.hash
            && self.top == other.top
            && self.height == other.height
            && self.rings == other.rings
    }
}

impl std::fmt::Debug for Hive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Hive({} ply {}", self.game_type, self.ply)?;
        for p in Piece::all() {
            if let Some(c) = self.position(p) {
                let (q, r) = super::grid::coords(c);
                write!(f, " {p}@({q},{r},{})", self.level(p))?;
            }
        }
        write!(f, ")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hive::grid::Cell;
    use crate::hive::HiveGame;

    /// The pieces with another on top, from the stacks themselves.
    fn covered_by_definition(hive: &Hive) -> PieceSet {
        let mut covered = PieceSet::EMPTY;
        for piece in Piece::all() {
            if let Some(below) = hive.position(piece).and(hive.below(piece)) {
                covered.insert(below);
            }
        }
        covered
    }

    /// The placement cells of `me` by definition: empty cells with an own-topped neighbour and
    /// no enemy-topped one, in cell order.
    fn placement_cells_by_definition(hive: &Hive, me: Color) -> Vec<usize> {
        let topped_by = |c: Cell, colour: Color| hive.top(c).is_some_and(|p| p.color() == colour);
        Cell::all()
            .filter(|&c| !hive.occupied(c))
            .filter(|&c| (0..6).any(|d| topped_by(neighbour(c, d), me)))
            .filter(|&c| !(0..6).any(|d| topped_by(neighbour(c, d), me.opponent())))
            .map(|c| c.index())
            .collect()
    }

    /// The incremental tables of `hive` against their definitions.
    fn check_tables(hive: &mut Hive) {
        assert_eq!(hive.covered, covered_by_definition(hive), "{hive:?}");
        assert_rings_by_definition(hive);
        if hive.ply >= 2 {
            for me in [Color::White, Color::Black] {
                hive.compute_placement_cells(me);
                let placements = &hive.scratch.placements;
                let mut found: Vec<usize> =
                    placements.blocks.as_flattened()[..placements.len].iter().map(|&c| c as usize).collect();
                found.sort();
                // Sorted and compared whole: every cell once, none missing, none extra.
                assert_eq!(found, placement_cells_by_definition(hive, me), "{me:?} in {hive:?}");
            }
        }
    }

    /// Every cell's neighbourhood word against the stacks around it: occupancy (twice), each
    /// colour's tops, and the slide directions of the definition.
    fn assert_rings_by_definition(hive: &Hive) {
        for c in Cell::all() {
            let ring_where = |test: &dyn Fn(Piece) -> bool| {
                (0..6).filter(|&d| hive.top(neighbour(c, d)).is_some_and(test)).fold(0u8, |ring, d| ring | 1 << d)
            };
            let occupied = ring_where(&|_| true);
            let white = ring_where(&|p| p.color() == Color::White);
            let black = ring_where(&|p| p.color() == Color::Black);
            let rings = hive.rings[c];
            let word = u32::from(occupied) * Rings::OCCUPIED
                + u32::from(white) * Rings::COLOUR[0]
                + u32::from(black) * Rings::COLOUR[1];
            assert_eq!(rings.0, word, "{c:?} in {hive:?}");
            assert_eq!((rings.occupied(), rings.colour(0), rings.colour(1)), (occupied, white, black));
            assert_eq!(hive.slides(c), crate::hive::grid::slide_mask(occupied), "{c:?} in {hive:?}");
        }
    }

    #[test]
    fn slides_are_the_slide_mask_without_the_exceptions() {
        for ring in 0..64u8 {
            for except in 0..64u8 {
                let rings = Rings(u32::from(ring) * Rings::OCCUPIED);
                assert_eq!(
                    rings.slides(except),
                    crate::hive::grid::slide_mask(ring) & !except,
                    "{ring:06b} {except:06b}"
                );
            }
        }
    }

    #[test]
    fn incremental_tables_agree_with_the_definitions() {
        // The opening, the 86-move middle game (rings, stacks, pillbugs) and beetles on stacks.
        let positions = [
            ("Base+MLP", 3),
            ("Base+MLP;InProgress;White[11];wM;bM \\wM;wP wM-;bQ bM/;wQ /wM;bP -bQ;wA1 wM\\;bP /bM;wQ bQ\\;wM -bQ;wB1 -wM;bP bM\\;wQ wP/;wA1 /bM;wB1 wM;wA1 bQ\\;wQ wP\\;wA1 bP\\;wA2 wP/;bQ bQ\\", 2),
            ("Base+MLP;InProgress;White[5];wB1;bB1 -wB1;wQ wB1-;bQ /bB1;wB2 wQ-;bQ /wB1;wB2 wQ;bB1 bQ", 3),
        ];
        for (position, depth) in positions {
            let game = HiveGame::parse(position).or_else(|_| HiveGame::parse(&format!("{position};;"))).unwrap();
            let mut hive = game.hive().clone();
            assert!(crate::hive::check_tree(&mut hive, depth, &mut check_tables) > 1000, "{position}");
        }
    }
}
