//! The board's 59 hexes and every move table, built at compile time.
//!
//! Hexes are numbered 0..59 in SIP scalar order: row by row from Black's side, each row of
//! even-file hexes (`a7 c7 e7 g7 i7` = 0..4) followed by the odd-file row below it
//! (`b6 d6 f6 h6` = 5..8), down to `a1 c1 e1 g1 i1` = 54..58. SIP v2 then maps straight onto
//! the index.
//!
//! The tables are computed in "doubled" coordinates `(f, y)`: `f` is the file 0..8 (a..i) and
//! `y = 2·row + f mod 2`, because odd files sit half a hex higher. In those coordinates every
//! direction is a fixed offset, so straight lines are repeated additions:
//!
//! ```text
//!   lateral (shared edge):  N (0,+2)  NE (+1,+1)  SE (+1,-1)  S (0,-2)  SW (-1,-1)  NW (-1,+1)
//!   radial (across vertex): E (+2,0)  NE (+1,+3)  NW (-1,+3)  W (-2,0)  SW (-1,-3)  SE (+1,-3)
//!   liberator jump:         twice a lateral offset
//! ```
//!
//! Occupancy sets are `u64` bit sets over the hex index ([`HexSet`]).

use crate::game::Color;
use std::fmt;

/// Number of hexes on the board.
pub const HEX_COUNT: usize = 59;

/// "No hex" in the tables (off the board, or a captured Intellector).
pub(crate) const NONE: u8 = u8::MAX;

crate::bit_set!(
    /// A set of hexes: hex `i` is bit `i` of a `u64`. Occupancy, attacks and every
    /// neighbourhood table are hex sets.
    HexSet, HexSetIter, u64, Hex, HEX_COUNT,
    |hex| hex.0,
    |i| Hex::from_index(i)
);

/// One hex of the board, identified by its SIP scalar index (0 = a7 … 58 = i1).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hex(u8);

impl Hex {
    /// The hex with SIP scalar `index`, if it is below [`HEX_COUNT`].
    #[inline]
    pub const fn new(index: usize) -> Option<Hex> {
        if index < HEX_COUNT {
            Some(Hex(index as u8))
        } else {
            None
        }
    }

    /// Builds a hex from an index known to be on the board (table entries, bit positions).
    #[inline(always)]
    pub(crate) const fn from_index(index: usize) -> Hex {
        debug_assert!(index < HEX_COUNT);
        Hex(index as u8)
    }

    /// The SIP scalar index, 0..59.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The hex on `file` (0..9 for a..i) and `row` (1..=7 on even files, 1..=6 on odd ones).
    pub const fn from_file_row(file: u8, row: u8) -> Option<Hex> {
        let odd = file % 2;
        if file > 8 || row < 1 || row > 7 - odd {
            return None;
        }
        Some(Hex(index_of(file as i32, (2 * row + odd) as i32)))
    }

    /// The file, 0..9 for a..i.
    #[inline]
    pub const fn file(self) -> u8 {
        TABLES.file[self.0 as usize]
    }

    /// The row, counted from White's side (1..=7 on even files, 1..=6 on odd ones).
    #[inline]
    pub const fn row(self) -> u8 {
        let f = self.file();
        (TABLES.y[self.0 as usize] - f % 2) / 2
    }

    /// Reads a hex name such as `e4` (the file letter in either case).
    pub fn parse(name: &str) -> Option<Hex> {
        match name.as_bytes() {
            &[f, r] => Hex::from_bytes(f, r),
            _ => None,
        }
    }

    /// The hex named by a file letter (either case) and a row digit.
    pub(crate) fn from_bytes(file: u8, row: u8) -> Option<Hex> {
        let file = file.to_ascii_lowercase();
        if !(b'a'..=b'i').contains(&file) || !row.is_ascii_digit() {
            return None;
        }
        Hex::from_file_row(file - b'a', row - b'0')
    }

    /// Every hex, in index order.
    pub fn all() -> impl Iterator<Item = Hex> {
        (0..HEX_COUNT as u8).map(Hex)
    }

    /// This hex as a one-member set.
    #[inline(always)]
    pub const fn bit(self) -> HexSet {
        HexSet::only(self)
    }

    /// Whether this is one of the board's 23 dark hexes (rows 1, 4, 7 of files a, c, e, g, i and
    /// rows 2, 5 of files b, d, f, h): one colour class of the hex 3-colouring, the one the
    /// Aggressors and both base lines stand on.
    #[inline]
    pub const fn is_dark(self) -> bool {
        (self.row() + 2 * (self.file() % 2)) % 3 == 1
    }

    /// Whether this hex is on `color`'s base line (a1 c1 e1 g1 i1 for White).
    #[inline]
    pub const fn is_base_line_of(self, color: Color) -> bool {
        base_line(color).contains(self)
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.row())
    }
}

impl fmt::Debug for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The base line of `color`: where its pieces start and where the enemy promotes and breaks
/// through. Black's is a7 c7 e7 g7 i7 (indices 0..4), White's a1 c1 e1 g1 i1 (54..58).
#[inline(always)]
pub const fn base_line(color: Color) -> HexSet {
    match color {
        Color::White => HexSet::from_bits(0b11111 << 54),
        Color::Black => HexSet::from_bits(0b11111),
    }
}

/// Lateral directions in doubled coordinates: N, NE, SE, S, SW, NW.
pub(crate) const LATERAL: [(i32, i32); 6] = [(0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1)];
/// Radial directions in doubled coordinates: E, NE, NW, W, SW, SE.
pub(crate) const RADIAL: [(i32, i32); 6] = [(2, 0), (1, 3), (-1, 3), (-2, 0), (-1, -3), (1, -3)];
/// Forward lateral directions of a White Progressor (N, NE, NW) and of a Black one (S, SE, SW).
const FORWARD: [[(i32, i32); 3]; 2] = [[(0, 2), (1, 1), (-1, 1)], [(0, -2), (1, -1), (-1, -1)]];

/// Longest ray: a lateral diagonal crosses all nine files.
pub(crate) const MAX_RAY: usize = 8;

/// The hexes along one direction from a hex, nearest first.
#[derive(Copy, Clone)]
pub(crate) struct Ray {
    pub hexes: [u8; MAX_RAY],
    pub len: u8,
}

impl Ray {
    /// The hexes of the ray, nearest first.
    #[inline(always)]
    pub fn hexes(&self) -> &[u8] {
        &self.hexes[..self.len as usize]
    }
}

/// Every precomputed table (one static, so the compiler builds it once).
pub(crate) struct Tables {
    /// File 0..8 of each hex.
    pub file: [u8; HEX_COUNT],
    /// Doubled row coordinate `2·row + file mod 2` of each hex.
    pub y: [u8; HEX_COUNT],
    /// Lateral neighbour in each of the 6 directions, or [`NONE`].
    pub step: [[u8; 6]; HEX_COUNT],
    /// All lateral neighbours as a set.
    pub step_set: [HexSet; HEX_COUNT],
    /// Liberator jump target (two lateral steps straight on) in each direction, or [`NONE`].
    pub jump: [[u8; 6]; HEX_COUNT],
    /// Dominator rays (lateral).
    pub lateral_ray: [[Ray; 6]; HEX_COUNT],
    /// Aggressor rays (radial).
    pub radial_ray: [[Ray; 6]; HEX_COUNT],
    /// The 3 forward neighbours of a Progressor of each colour, [`NONE`] where off the board.
    pub forward: [[[u8; 3]; HEX_COUNT]; 2],
    /// Hexes within two lateral steps (the hex itself excluded).
    pub near2: [HexSet; HEX_COUNT],
    /// Fewest Progressor moves from each hex to the colour's promotion line (0 on it, 255 if
    /// unreachable).
    pub promotion_distance: [[u8; HEX_COUNT]; 2],
    /// Fewest lateral steps from each hex to the enemy base line of each colour (where its
    /// Intellector breaks through).
    pub breakthrough_distance: [[u8; HEX_COUNT]; 2],
}

/// Index of the hex at doubled coordinates `(f, y)`, or [`NONE`] off the board.
const fn index_of(f: i32, y: i32) -> u8 {
    if f < 0 || f > 8 {
        return NONE;
    }
    let odd = f % 2;
    // Even files hold rows 1..=7 (y = 2..=14), odd files rows 1..=6 (y = 3..=13).
    if y % 2 != odd || y < 2 + odd || y > 14 - odd {
        return NONE;
    }
    let row = (y - odd) / 2;
    let j = 7 - row - odd; // the SIP row counter: 0 at the top (Black's side)
    (9 * j + f / 2 + 5 * odd) as u8
}

const fn ray(f: i32, y: i32, d: (i32, i32)) -> Ray {
    let mut r = Ray { hexes: [NONE; MAX_RAY], len: 0 };
    let (mut x, mut z) = (f + d.0, y + d.1);
    loop {
        let i = index_of(x, z);
        if i == NONE {
            break;
        }
        r.hexes[r.len as usize] = i;
        r.len += 1;
        x += d.0;
        z += d.1;
    }
    r
}

const fn build() -> Tables {
    let empty_ray = Ray { hexes: [NONE; MAX_RAY], len: 0 };
    let mut t = Tables {
        file: [0; HEX_COUNT],
        y: [0; HEX_COUNT],
        step: [[NONE; 6]; HEX_COUNT],
        step_set: [HexSet::EMPTY; HEX_COUNT],
        jump: [[NONE; 6]; HEX_COUNT],
        lateral_ray: [[empty_ray; 6]; HEX_COUNT],
        radial_ray: [[empty_ray; 6]; HEX_COUNT],
        forward: [[[NONE; 3]; HEX_COUNT]; 2],
        near2: [HexSet::EMPTY; HEX_COUNT],
        promotion_distance: [[255; HEX_COUNT]; 2],
        breakthrough_distance: [[255; HEX_COUNT]; 2],
    };
    coordinates(&mut t);
    moves(&mut t);
    two_step_sets(&mut t);
    base_line_distances(&mut t);
    t
}

/// Walks every (f, y) and records the coordinates of the hexes that exist.
const fn coordinates(t: &mut Tables) {
    let mut f = 0;
    while f < 9 {
        let mut y = 0;
        while y <= 15 {
            let i = index_of(f, y);
            if i != NONE {
                t.file[i as usize] = f as u8;
                t.y[i as usize] = y as u8;
            }
            y += 1;
        }
        f += 1;
    }
}

/// Every hex's steps, jumps, rays and forward steps, from its coordinates.
const fn moves(t: &mut Tables) {
    let mut i = 0;
    while i < HEX_COUNT {
        let (f, y) = (t.file[i] as i32, t.y[i] as i32);
        let mut d = 0;
        while d < 6 {
            let (df, dy) = LATERAL[d];
            let n = index_of(f + df, y + dy);
            t.step[i][d] = n;
            if n != NONE {
                t.step_set[i].insert(Hex(n));
            }
            t.jump[i][d] = index_of(f + 2 * df, y + 2 * dy);
            t.lateral_ray[i][d] = ray(f, y, LATERAL[d]);
            t.radial_ray[i][d] = ray(f, y, RADIAL[d]);
            d += 1;
        }
        let mut c = 0;
        while c < 2 {
            let mut k = 0;
            while k < 3 {
                t.forward[c][i][k] = index_of(f + FORWARD[c][k].0, y + FORWARD[c][k].1);
                k += 1;
            }
            c += 1;
        }
        i += 1;
    }
}

/// Two-step neighbourhoods, from the one-step sets.
const fn two_step_sets(t: &mut Tables) {
    let mut i = 0;
    while i < HEX_COUNT {
        // Set operators are not `const`: the union is taken on the bits.
        let mut set = t.step_set[i].bits();
        let mut d = 0;
        while d < 6 {
            let n = t.step[i][d];
            if n != NONE {
                set |= t.step_set[n as usize].bits();
            }
            d += 1;
        }
        let mut near = HexSet::from_bits(set);
        near.remove(Hex(i as u8));
        t.near2[i] = near;
        i += 1;
    }
}

/// Distances to the enemy base line, in Progressor steps and in Intellector steps.
const fn base_line_distances(t: &mut Tables) {
    // Relax "one step closer" until stable; no hex is more than 8 steps away, so 16 rounds are
    // more than enough.
    let mut c = 0;
    while c < 2 {
        // The enemy base line: Black's for White (c = 0), White's for Black.
        let line = base_line(if c == 0 { Color::Black } else { Color::White });
        let mut i = 0;
        while i < HEX_COUNT {
            if line.contains(Hex(i as u8)) {
                t.promotion_distance[c][i] = 0;
                t.breakthrough_distance[c][i] = 0;
            }
            i += 1;
        }
        let mut round = 0;
        while round < 16 {
            let mut i = 0;
            while i < HEX_COUNT {
                let mut k = 0;
                while k < 3 {
                    let n = t.forward[c][i][k];
                    if n != NONE {
                        let via = t.promotion_distance[c][n as usize];
                        if via != 255 && via + 1 < t.promotion_distance[c][i] {
                            t.promotion_distance[c][i] = via + 1;
                        }
                    }
                    k += 1;
                }
                let mut d = 0;
                while d < 6 {
                    let n = t.step[i][d];
                    if n != NONE {
                        let via = t.breakthrough_distance[c][n as usize];
                        if via != 255 && via + 1 < t.breakthrough_distance[c][i] {
                            t.breakthrough_distance[c][i] = via + 1;
                        }
                    }
                    d += 1;
                }
                i += 1;
            }
            round += 1;
        }
        c += 1;
    }
}

/// The tables, built by the compiler.
pub(crate) static TABLES: Tables = build();

#[cfg(test)]
mod tests {
    use super::*;

    fn h(name: &str) -> Hex {
        Hex::parse(name).expect("test hex name")
    }

    fn names(indices: impl IntoIterator<Item = u8>) -> Vec<String> {
        let mut v: Vec<String> =
            indices.into_iter().filter(|&i| i != NONE).map(|i| Hex::from_index(i as usize).to_string()).collect();
        v.sort();
        v
    }

    fn sorted(list: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn scalar_order_matches_the_sip_layout() {
        let order: Vec<String> = Hex::all().map(|h| h.to_string()).collect();
        assert_eq!(&order[..9], &["a7", "c7", "e7", "g7", "i7", "b6", "d6", "f6", "h6"]);
        assert_eq!(&order[50..], &["b1", "d1", "f1", "h1", "a1", "c1", "e1", "g1", "i1"]);
        for hex in Hex::all() {
            assert_eq!(Hex::parse(&hex.to_string()), Some(hex));
        }
        assert_eq!(Hex::parse("b7"), None);
        assert_eq!(Hex::parse("j1"), None);
        assert_eq!(Hex::parse("a0"), None);
        assert_eq!(Hex::parse("E4"), Some(h("e4")));
    }

    #[test]
    fn hex_sets_are_sets_in_sip_order() {
        let set = |list: &str| list.split(' ').map(h).collect::<HexSet>();
        let names = |s: HexSet| s.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ");
        let a = set("e4 a7 i1 b6");
        let b = set("e4 e5 i1");
        // Members come out in index order: rows from Black's side, as SIP lists them.
        assert_eq!(names(a), "a7 b6 e4 i1");
        assert_eq!(a.first(), Some(h("a7")));
        assert_eq!((a.len(), HexSet::EMPTY.len(), HexSet::FULL.len()), (4, 0, HEX_COUNT));
        assert_eq!(names(a & b), "e4 i1");
        assert_eq!(names(a | b), "a7 b6 e5 e4 i1");
        assert_eq!(names(a ^ b), "a7 b6 e5");
        assert_eq!(names(a - b), "a7 b6");
        // The complement stays on the board.
        assert_eq!((!a).len(), HEX_COUNT - 4);
        assert_eq!(!HexSet::EMPTY, HexSet::FULL);
        assert!((a & !a).is_empty() && !a.is_empty());
        assert_eq!(HexSet::FULL.iter().collect::<Vec<_>>(), Hex::all().collect::<Vec<_>>());
        let mut c = a;
        c.insert(h("c1"));
        c.insert(h("c1"));
        c.remove(h("a7"));
        c.remove(h("d3"));
        assert!(c.contains(h("c1")) && !c.contains(h("a7")));
        assert_eq!(format!("{c:?}"), "{b6, e4, c1, i1}");
        c -= b;
        c |= h("e7").bit();
        c &= !h("b6").bit();
        c ^= HexSet::from(h("a1"));
        assert_eq!(names(c), "e7 a1 c1");
        assert_eq!(c.iter().len(), 3);
        assert_eq!(names(base_line(Color::Black)), "a7 c7 e7 g7 i7");
        assert_eq!(names(base_line(Color::White)), "a1 c1 e1 g1 i1");
        assert_eq!(names(TABLES.step_set[h("e7").index()]), "d6 f6 e6");
    }

    #[test]
    fn lateral_neighbours_follow_the_reference_examples() {
        assert_eq!(names(TABLES.step[h("e4").index()]), sorted(&["e5", "e3", "d4", "f4", "d3", "f3"]));
        assert_eq!(names(TABLES.step[h("d3").index()]), sorted(&["d4", "d2", "c4", "e4", "c3", "e3"]));
        assert_eq!(names(TABLES.step[h("e7").index()]), sorted(&["e6", "d6", "f6"]));
        assert_eq!(names(TABLES.step[h("b1").index()]), sorted(&["b2", "a2", "c2", "a1", "c1"]));
    }

    #[test]
    fn radial_and_jump_targets_follow_the_reference_examples() {
        let first = TABLES.radial_ray[h("e4").index()].map(|r| r.hexes[0]);
        assert_eq!(names(first), sorted(&["c4", "g4", "d5", "f5", "d2", "f2"]));
        assert_eq!(names(TABLES.jump[h("e4").index()]), sorted(&["e6", "e2", "c5", "g5", "c3", "g3"]));
        // The long diagonal c1-d2-e4-f5-g7 is one radial ray.
        let diagonal = TABLES.radial_ray[h("c1").index()].iter().find(|r| r.len == 4).expect("c1 has a 4-hex ray");
        let line: Vec<String> = diagonal.hexes().iter().map(|&i| Hex::from_index(i as usize).to_string()).collect();
        assert_eq!(line, ["d2", "e4", "f5", "g7"]);
    }

    #[test]
    fn dark_hexes_are_the_ones_aggressors_reach() {
        // Every radial neighbour of a dark hex is dark (one colour class of the 3-colouring).
        let dark = ["a1", "a4", "a7", "b2", "b5", "c1", "c4", "c7", "d2", "d5", "e1", "e4", "e7"];
        for name in dark {
            for r in &TABLES.radial_ray[h(name).index()] {
                for &i in r.hexes() {
                    let hex = Hex::from_index(i as usize);
                    let odd = hex.file() % 2;
                    assert_eq!((hex.row() + 2 * odd) % 3, 1, "{hex} seen from {name}");
                }
            }
        }
    }

    #[test]
    fn the_dark_hexes_are_the_23_of_the_board_diagram() {
        let dark: Vec<String> = Hex::all().filter(|h| h.is_dark()).map(|h| h.to_string()).collect();
        let mut expected =
            "a1 a4 a7 b2 b5 c1 c4 c7 d2 d5 e1 e4 e7 f2 f5 g1 g4 g7 h2 h5 i1 i4 i7".split(' ').collect::<Vec<_>>();
        let mut got: Vec<&str> = dark.iter().map(String::as_str).collect();
        expected.sort_unstable();
        got.sort_unstable();
        assert_eq!(got, expected);
    }

    #[test]
    fn progressors_step_forward_and_measure_their_way_to_promotion() {
        let fwd = |c: usize, n: &str| names(TABLES.forward[c][h(n).index()]);
        assert_eq!(fwd(0, "e2"), sorted(&["e3", "d2", "f2"]));
        assert_eq!(fwd(0, "a2"), sorted(&["a3", "b2"]));
        assert_eq!(fwd(1, "e6"), sorted(&["e5", "d5", "f5"]));
        assert_eq!(TABLES.promotion_distance[0][h("e6").index()], 1);
        assert_eq!(TABLES.promotion_distance[0][h("d6").index()], 1);
        assert_eq!(TABLES.promotion_distance[0][h("e2").index()], 5);
        assert_eq!(TABLES.promotion_distance[1][h("e2").index()], 1);
        assert_eq!(TABLES.breakthrough_distance[0][h("e1").index()], 6);
        assert_eq!(TABLES.breakthrough_distance[0][h("f6").index()], 1);
        assert_eq!(TABLES.breakthrough_distance[1][h("e7").index()], 6);
    }
}
