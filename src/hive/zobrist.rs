//! Zobrist keys for Hive positions.
//!
//! The hash of a position is the XOR of:
//! - for every piece in play, the key of its kind (colour and bug) on its cell, rotated left by
//!   `9 × height` bits, so that stack order counts (a beetle on a queen differs from the queen
//!   on the beetle);
//! - in game types with the Pillbug only, the key of the cell of the piece that moved last, if
//!   any (it is immune to the pillbug's throw for one ply, so positions that differ only in it
//!   have different legal moves); without the Pillbug no rule depends on it, so it is left out
//!   and a repetition of stacks and side to move is a repetition of the position;
//! - the side key when Black is to move.
//!
//! Same-type pieces share keys: `wS1` on a and `wS2` on b is the same position as the reverse
//! (the same legal moves, as two knights are interchangeable in chess), which lets
//! transpositions meet in the search's table and makes repetitions independent of bug numbers.
//! This hash is the position's identity everywhere: the `RepetitionDraw` rule, the search's
//! draw by repetition and the tournament's `--repetitions` all compare it.

use super::grid::{Cell, CELLS};
use super::piece::KINDS;
use crate::zobrist::splitmix64;

const fn build_keys() -> ([[u64; CELLS]; KINDS], [u64; CELLS], u64) {
    let mut pieces = [[0u64; CELLS]; KINDS];
    let mut last = [0u64; CELLS];
    let mut state = 0x636F_6D62_2068_6976; // "comb hiv"
    let mut k = 0;
    while k < KINDS {
        let mut c = 0;
        while c < CELLS {
            let (s, v) = splitmix64(state);
            state = s;
            pieces[k][c] = v;
            c += 1;
        }
        k += 1;
    }
    let mut c = 0;
    while c < CELLS {
        let (s, v) = splitmix64(state);
        state = s;
        last[c] = v;
        c += 1;
    }
    let (_, side) = splitmix64(state);
    (pieces, last, side)
}

static KEYS: ([[u64; CELLS]; KINDS], [u64; CELLS], u64) = build_keys();

/// Key of a piece of `kind` (see [`super::piece::Piece::kind`]) on `cell` at `height`
/// (0 = on the ground).
#[inline(always)]
pub fn piece_key(kind: usize, cell: Cell, height: u8) -> u64 {
    KEYS.0[kind][cell.index()].rotate_left(9 * height as u32)
}

/// Key for "the piece on `cell` moved last".
#[inline(always)]
pub fn last_moved_key(cell: Cell) -> u64 {
    KEYS.1[cell.index()]
}

/// Key XORed in while Black is to move.
#[inline(always)]
pub fn side_key() -> u64 {
    KEYS.2
}
