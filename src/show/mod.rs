//! Pictures of a position for people: [`text`] for a terminal, [`svg`] for a browser.
//!
//! Both read the games through their public APIs and return a string; nothing here prints or
//! writes a file, and nothing on the protocol's or the search's path calls it.
//!
//! A picture may carry arrows ([`Arrow`]): the move that led to the position, and moves of the
//! position given as MoveStrings (a best move, say), each checked against the legal moves as
//! `play` would check it.
//!
//! Hive lives on a torus ([`crate::hive::grid`]); `Plane` cuts it open where the hive is not,
//! so that a hive that drifted across the torus's seam is still drawn in one piece.

mod svg;
mod text;
pub mod view;

pub use text::text;

use crate::error::RulesError;
use crate::games::AnyGame;
use crate::hive::grid::{cell_at, coords, SIDE};
use crate::hive::Cell;
use crate::record::{Notation, Record};
use std::fmt;

/// What an arrow shows, which decides how it is drawn.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Role {
    /// The move that led to the position.
    LastMove,
    /// A move of the position the caller asked to see (the `n`-th one asked, from 0).
    Asked(usize),
}

/// A move drawn on a picture, with the MoveString it is labelled with.
#[derive(Clone, Debug)]
pub struct Arrow<M> {
    /// The move: for [`Role::LastMove`] one already played, for [`Role::Asked`] one of the
    /// position's legal moves.
    pub mv: M,
    /// Its MoveString (canonical for an asked move, as recorded for the last one).
    pub label: String,
    /// What it shows.
    pub role: Role,
}

/// A move asked for as an arrow that cannot be drawn: unreadable, or not legal here.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BadArrow {
    /// The MoveString as given.
    pub text: String,
    /// Why it is not a move of the position.
    pub reason: RulesError,
}

impl fmt::Display for BadArrow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot draw the move \"{}\": {}", self.text, self.reason)
    }
}

impl std::error::Error for BadArrow {}

/// The picture of `game` as an SVG document: the board, the pieces in hand (Hive), a caption
/// with the state and side to move, an arrow for the last move when `last_move` is set and a
/// move was played, and one for each of `moves` (MoveStrings of the position, in the game's
/// notation).
pub fn svg(game: &AnyGame, moves: &[String], last_move: bool) -> Result<String, BadArrow> {
    Ok(match game {
        AnyGame::Hive(record) => svg::hive(game, record.hive(), &arrows(record, moves, last_move)?),
        AnyGame::Intellector(record) => svg::intellector(game, record.position(), &arrows(record, moves, last_move)?),
    })
}

/// The arrows to draw: the last move first (if wanted and there is one), then the asked
/// moves in the order given.
pub fn arrows<G: Notation>(
    record: &Record<G>,
    moves: &[String],
    last_move: bool,
) -> Result<Vec<Arrow<G::Move>>, BadArrow> {
    let mut out = Vec::new();
    if let (true, Some(&mv), Some(label)) = (last_move, record.moves().last(), record.move_strings().last()) {
        out.push(Arrow { mv, label: label.clone(), role: Role::LastMove });
    }
    // Resolving a move generates the legal moves, which needs the position mutably.
    let mut probe = record.clone();
    for (n, text) in moves.iter().enumerate() {
        let mv = probe.find_move(text).map_err(|reason| BadArrow { text: text.clone(), reason })?;
        out.push(Arrow { mv, label: probe.move_string(mv), role: Role::Asked(n) });
    }
    Ok(out)
}

/// √3, the ratio of a hexagon's width across its flats to its circumradius.
const SQRT3: f64 = 1.732_050_807_568_877_2;

/// The centre of the Hive cell at axial `(q, r)` (E = q+1, SE = r+1) on a pointy-top board, in
/// units of the hexes' circumradius, y downwards: the one Hive geometry of the SVG picture and
/// of [`view`].
pub fn hive_centre((q, r): (i32, i32)) -> (f64, f64) {
    (SQRT3 * (q as f64 + r as f64 / 2.0), 1.5 * r as f64)
}

/// The centre of an Intellector hex on the flat-top board as White sees it (a1 bottom left,
/// i1 bottom right), in units of the hexes' circumradius, y downwards from a7's centre: the one
/// Intellector geometry of the SVG picture and of [`view`].
pub fn intellector_centre(hex: crate::intellector::Hex) -> (f64, f64) {
    // Doubled rows: odd files sit half a hex higher.
    let doubled = 2 * hex.row() + hex.file() % 2;
    (1.5 * hex.file() as f64, (14 - doubled) as f64 * SQRT3 / 2.0)
}

/// The state line of a picture: the GameStateString, with how the game ended.
fn state(game: &AnyGame) -> String {
    match game.end() {
        Some((_, reason)) => format!("{} ({})", game.state_string(), reason.detail()),
        None => game.state_string().to_string(),
    }
}

/// The turn as a GameString writes it: `White[3]`.
fn turn(game: &AnyGame) -> String {
    let ply = crate::with_record!(game, r => crate::game::Game::ply(r.position()));
    format!("{}[{}]", game.to_move(), 1 + ply / 2)
}

/// Who moves, in words (nobody once the game is over).
fn to_move(game: &AnyGame) -> String {
    if game.is_over() {
        "nobody (the game is over)".to_string()
    } else {
        game.to_move().to_string()
    }
}

/// Hive's torus cut open into the plane: axial coordinates in which a group of cells that spans
/// less than the torus is in one piece, with room for one more ring of cells around it.
#[derive(Copy, Clone, Debug)]
struct Plane {
    /// Per axis (q, r), the first value of the window of [`SIDE`] values the coordinates take.
    start: [i32; 2],
}

impl Plane {
    /// The plane in which `cells` (a hive: at most 28 values along each axis) are in one piece.
    fn around(cells: impl Iterator<Item = Cell> + Clone) -> Plane {
        let axis = |pick: fn((i32, i32)) -> i32| window_start(cells.clone().map(|c| pick(coords(c))));
        Plane { start: [axis(|(q, _)| q), axis(|(_, r)| r)] }
    }

    /// The axial coordinates of `cell` in this plane.
    fn coords(&self, cell: Cell) -> (i32, i32) {
        let (q, r) = coords(cell);
        let lift = |v: i32, start: i32| start + (v - start).rem_euclid(SIDE as i32);
        (lift(q, self.start[0]), lift(r, self.start[1]))
    }

    /// The cell at axial coordinates `(q, r)` of this plane.
    fn cell(&self, q: i32, r: i32) -> Cell {
        cell_at(q, r)
    }
}

/// Where to cut one axis of the torus: the middle of the widest run of values that `values`
/// leave free, so that the values, and their neighbours on both sides, fall in one window of
/// [`SIDE`] values starting there. No values: the window centred on 0.
fn window_start(values: impl Iterator<Item = i32>) -> i32 {
    let side = SIDE as i32;
    let mut seen: Vec<i32> = values.map(|v| v.rem_euclid(side)).collect();
    seen.sort_unstable();
    seen.dedup();
    let Some(&first) = seen.first() else { return -side / 2 };
    // The gap after each value, the last one wrapping round to the first.
    let next = seen.iter().skip(1).copied().chain([first + side]);
    let (gap, after) = seen.iter().zip(next).map(|(&a, b)| (b - a, a)).max().unwrap_or((side, first));
    after + gap / 2 - side
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cut_keeps_a_group_and_its_rim_in_one_window() {
        // Across the torus's seam (values 12..=19 and 20 wraps to -12 in `coords`).
        for values in [vec![0], vec![-3, 0, 4], vec![12, 15, -16, -13], vec![-16, 11], (0..28).collect()] {
            let start = window_start(values.iter().copied());
            let lifted: Vec<i32> = values.iter().map(|v| start + (v - start).rem_euclid(32)).collect();
            let (low, high) = (lifted.iter().min().unwrap(), lifted.iter().max().unwrap());
            assert!(*low > start && *high < start + 31, "{values:?}: {lifted:?} from {start}");
            assert!(high - low < 30, "{values:?}: {lifted:?}");
        }
        assert_eq!(window_start(std::iter::empty()), -16);
    }

    #[test]
    fn a_hive_around_the_origin_keeps_its_coordinates() {
        let cells = [cell_at(0, 0), cell_at(1, -1), cell_at(-2, 3)];
        let plane = Plane::around(cells.iter().copied());
        assert_eq!(cells.map(|c| plane.coords(c)), [(0, 0), (1, -1), (-2, 3)]);
        assert_eq!(plane.cell(-2, 3), cells[2]);
    }
}
