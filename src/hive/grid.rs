//! The hexagonal grid: cells, directions and neighbours.
//!
//! Cells live on a 32 × 32 torus in axial coordinates (q, r), stored as one index
//! `q | r << 5`. A hive has at most 28 pieces, so together with its empty rim it spans at most
//! 30 cells along any axis and never meets itself around the torus: every rule can work with
//! plain indices and a precomputed neighbour table, with no bounds checks and no coordinates.
//!
//! ```text
//!        NW   NE            direction index (Mzinga's order, clockwise):
//!      W   (c)   E            0 NW (0,-1)  1 NE (+1,-1)  2 E (+1,0)
//!        SW   SE              3 SE (0,+1)  4 SW (-1,+1)  5 W (-1,0)
//! ```
//! The two cells next to both `c` and its neighbour in direction `d` are the neighbours of `c`
//! in directions `d - 1` and `d + 1`: the "flanking" cells that form gates.

/// Side length of the torus.
pub const SIDE: usize = 32;
/// Number of cells on the torus.
pub const CELLS: usize = SIDE * SIDE;

/// A cell of the grid: an index below [`CELLS`], or [`NO_CELL`].
///
/// A newtype rather than a bare integer so that a cell cannot be mixed up with a piece id, a
/// height or a direction, and so that turning it into a table index happens in one place,
/// [`Cell::index`].
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Cell(u16);

/// Marker for "no cell" (a piece in hand).
pub const NO_CELL: Cell = Cell(u16::MAX);

/// Where the first piece of every game is placed: the axial origin (0, 0).
pub const ORIGIN: Cell = Cell(0);

impl Cell {
    /// The cell with index `index`, which must be below [`CELLS`] (as [`Cell::index`] gives).
    #[inline(always)]
    pub(crate) const fn from_index(index: u16) -> Cell {
        Cell(index)
    }

    /// The index of this cell in per-cell tables, always below [`CELLS`].
    ///
    /// This is the one place a cell becomes an index. The mask is a single AND and lets the
    /// compiler drop the bounds check of every `CELLS`-long table; it sends [`NO_CELL`] to some
    /// real cell, so callers that may hold it check for it first (as they must anyway).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize & (CELLS - 1)
    }

    /// Every cell of the torus, in index order (for tests that sweep the whole grid).
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS as u16).map(Cell)
    }
}

impl std::fmt::Debug for Cell {
    /// Axial coordinates, which is what a reader of a failing test wants, not the index.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if *self == NO_CELL {
            f.write_str("NO_CELL")
        } else {
            let (q, r) = coords(*self);
            write!(f, "({q},{r})")
        }
    }
}

/// A table with one `T` for every cell, indexed by [`Cell`].
///
/// Indexing goes through [`Cell::index`], so board code writes `table[cell]` with neither a
/// cast nor a bounds check. Boxed, as the board's tables always were: a position holds several
/// of these, 1024 entries each, and moving a `Hive` around should not copy them.
#[derive(Clone, PartialEq, Eq)]
pub struct CellMap<T>(Box<[T; CELLS]>);

impl<T: Copy> CellMap<T> {
    /// A table with `value` on every cell.
    pub fn new(value: T) -> CellMap<T> {
        CellMap(Box::new([value; CELLS]))
    }

    /// Sets every cell to `value`.
    pub fn fill(&mut self, value: T) {
        self.0.fill(value);
    }
}

impl<T> std::ops::Index<Cell> for CellMap<T> {
    type Output = T;

    #[inline(always)]
    fn index(&self, cell: Cell) -> &T {
        &self.0[cell.index()]
    }
}

impl<T> std::ops::IndexMut<Cell> for CellMap<T> {
    #[inline(always)]
    fn index_mut(&mut self, cell: Cell) -> &mut T {
        &mut self.0[cell.index()]
    }
}

/// Axial offsets of the six directions, in Mzinga's order.
pub const DIRECTION_DELTAS: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];

/// Direction indices by name.
pub mod dir {
    /// North-west: (0, -1).
    pub const NW: usize = 0;
    /// North-east: (+1, -1).
    pub const NE: usize = 1;
    /// East: (+1, 0).
    pub const E: usize = 2;
    /// South-east: (0, +1).
    pub const SE: usize = 3;
    /// South-west: (-1, +1).
    pub const SW: usize = 4;
    /// West: (-1, 0).
    pub const W: usize = 5;
}

/// The cell at axial coordinates (q, r), wrapped onto the torus.
#[inline]
pub const fn cell_at(q: i32, r: i32) -> Cell {
    Cell(((q & 31) | ((r & 31) << 5)) as u16)
}

/// Axial coordinates of a cell, each in `-16..16` (the origin is (0, 0)).
#[inline]
pub fn coords(cell: Cell) -> (i32, i32) {
    let q = (cell.0 as i32) & 31;
    let r = (cell.0 as i32) >> 5;
    (if q >= 16 { q - 32 } else { q }, if r >= 16 { r - 32 } else { r })
}

const fn build_neighbours() -> [[Cell; 6]; CELLS] {
    let mut table = [[ORIGIN; 6]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let q = (c & 31) as i32;
        let r = (c >> 5) as i32;
        let mut d = 0;
        while d < 6 {
            table[c][d] = cell_at(q + DIRECTION_DELTAS[d].0, r + DIRECTION_DELTAS[d].1);
            d += 1;
        }
        c += 1;
    }
    table
}

/// `NEIGHBOURS[c][d]` is the neighbour of cell `c` in direction `d`.
pub static NEIGHBOURS: [[Cell; 6]; CELLS] = build_neighbours();

/// The neighbour of `cell` in direction `d` (0..6).
#[inline(always)]
pub fn neighbour(cell: Cell, d: usize) -> Cell {
    NEIGHBOURS[cell.index()][d]
}

/// Whether two cells are neighbours (a few arithmetic operations, no table walk).
#[inline(always)]
pub fn adjacent(a: Cell, b: Cell) -> bool {
    let (a, b) = (a.0 as i32, b.0 as i32);
    let dq = (b - a) & 31;
    let dr = ((b >> 5) - (a >> 5)) & 31;
    // The six axial deltas, wrapped to 0..32: (0,31) (1,31) (1,0) (0,1) (31,1) (31,0).
    matches!((dq, dr), (0, 31) | (1, 31) | (1, 0) | (0, 1) | (31, 1) | (31, 0))
}

/// The direction after `d`, clockwise.
#[inline(always)]
pub const fn clockwise(d: usize) -> usize {
    if d == 5 {
        0
    } else {
        d + 1
    }
}

/// The direction before `d`, clockwise.
#[inline(always)]
pub const fn anticlockwise(d: usize) -> usize {
    if d == 0 {
        5
    } else {
        d - 1
    }
}

/// The opposite direction.
#[inline(always)]
pub const fn opposite(d: usize) -> usize {
    // A compare and a conditional move: `(d + 3) % 6` costs a multiplication and a handful of
    // shifts, and the ant's flood asks this for every cell it reaches.
    if d >= 3 {
        d - 3
    } else {
        d + 3
    }
}

/// Directions in which a piece on a cell with neighbour-occupancy `ring` (bit `d` set when the
/// neighbour in direction `d` is occupied) can slide one step: the target is empty and exactly
/// one of the two flanking cells is occupied (both is a gate, neither loses contact).
///
/// The definition. Move generation reads the same directions from the board's neighbourhood
/// words (`Rings::slides`), which keep the ring doubled so that this takes three operations.
pub const fn slide_mask(ring: u8) -> u8 {
    let before = ((ring << 1) | (ring >> 5)) & 63; // bit d = neighbour d-1 occupied
    let after = ((ring >> 1) | (ring << 5)) & 63; // bit d = neighbour d+1 occupied
    !ring & (before ^ after) & 63
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjacency_matches_the_table() {
        for a in [cell_at(0, 0), cell_at(15, -16), cell_at(-16, 7), cell_at(31, 31)] {
            for b in Cell::all() {
                assert_eq!(adjacent(a, b), (0..6).any(|d| neighbour(a, d) == b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn neighbours_are_symmetric() {
        for c in Cell::all() {
            for d in 0..6 {
                assert_eq!(neighbour(neighbour(c, d), opposite(d)), c);
            }
        }
    }

    #[test]
    fn flanking_cells_touch_both_ends() {
        let c = cell_at(3, -2);
        for d in 0..6 {
            let n = neighbour(c, d);
            for f in [neighbour(c, anticlockwise(d)), neighbour(c, clockwise(d))] {
                assert!((0..6).any(|e| neighbour(n, e) == f));
            }
        }
    }

    #[test]
    fn coords_round_trip() {
        for q in -15..16 {
            for r in -15..16 {
                assert_eq!(coords(cell_at(q, r)), (q, r));
            }
        }
    }

    #[test]
    fn slide_mask_examples() {
        // Only the E neighbour occupied: can slide NE and SE along it.
        assert_eq!(slide_mask(1 << dir::E), (1 << dir::NE) | (1 << dir::SE));
        // E and W occupied: NE, SE, SW, NW each have exactly one flank.
        let ring = (1 << dir::E) | (1 << dir::W);
        assert_eq!(slide_mask(ring), 0b011011);
        // Gate: NE and SE occupied: E is blocked, NW and SW-side steps remain.
        let ring = (1 << dir::NE) | (1 << dir::SE);
        assert_eq!(slide_mask(ring) & (1 << dir::E), 0);
        assert_eq!(slide_mask(0), 0);
        assert_eq!(slide_mask(63), 0);
    }
}
