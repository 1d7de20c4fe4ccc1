//! Zobrist keys for Intellector positions.
//!
//! The hash of a position is the XOR of:
//! - the key of every piece's square code (colour and type) on its hex;
//! - the side key while Black is to move;
//! - under Classic rules only, one key per (colour, type) captured so far: there the captured
//!   types decide which promotions are legal, so positions that differ only in them must not
//!   meet in the search's table. Under Modern rules they change nothing and are left out.
//!
//! The repetition rule compares these hashes. Its key is "arrangement + side to move"; the
//! captured-type keys cannot make a difference there, because every capture resets the
//! window in which positions can repeat.

use super::geometry::HEX_COUNT;
use crate::zobrist::splitmix64;

/// Square codes run below 16 (see [`super::piece::Piece`]).
const CODES: usize = 16;

struct Keys {
    pieces: [[u64; HEX_COUNT]; CODES],
    captured: [[u64; 8]; 2],
    side: u64,
}

const fn build_keys() -> Keys {
    let mut keys = Keys { pieces: [[0; HEX_COUNT]; CODES], captured: [[0; 8]; 2], side: 0 };
    let mut state = 0x636F_6D62_2069_6E74; // "comb int"
    let mut c = 0;
    while c < CODES {
        let mut h = 0;
        while h < HEX_COUNT {
            let (s, v) = splitmix64(state);
            state = s;
            // The empty code never gets a key, so the board can be hashed square by square.
            keys.pieces[c][h] = if c == 0 { 0 } else { v };
            h += 1;
        }
        c += 1;
    }
    let mut color = 0;
    while color < 2 {
        let mut k = 0;
        while k < 8 {
            let (s, v) = splitmix64(state);
            state = s;
            keys.captured[color][k] = v;
            k += 1;
        }
        color += 1;
    }
    keys.side = splitmix64(state).1;
    keys
}

static KEYS: Keys = build_keys();

/// Key of the square code `code` on hex `hex` (0 for an empty square).
#[inline(always)]
pub fn piece_key(code: u8, hex: usize) -> u64 {
    KEYS.pieces[code as usize & (CODES - 1)][hex]
}

/// Key XORed in while Black is to move.
#[inline(always)]
pub fn side_key() -> u64 {
    KEYS.side
}

/// Key of "a piece of type code `kind` of colour index `color` has been captured"
/// (Classic rules only).
#[inline(always)]
pub fn captured_key(color: usize, kind: u8) -> u64 {
    KEYS.captured[color & 1][kind as usize & 7]
}

/// XOR of the captured-type keys of a type set (bit = type code) of colour index `color`.
#[inline]
pub fn captured_set_key(color: usize, set: u8) -> u64 {
    let mut h = 0;
    let mut bits = set;
    while bits != 0 {
        let k = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        h ^= captured_key(color, k);
    }
    h
}
