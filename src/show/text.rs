//! The position as text: labelled lines (game, state, turn, side to move, …), then the board.
//!
//! Hive's board is an offset hex grid in which every cell is a 5-character slot: `wQ`, `bA1`,
//! a stack as its top piece and height (`bB1^2`, spelled out under the grid), `.` for an empty
//! cell. Rows are staggered by half a slot, so that each cell touches the two above it and the
//! two below it, as on the table:
//!
//! ```text
//!      .     .     .     .     .     .
//!   .   wB1^2  wS1   bS1   bQ     .
//!      .     .     .     .    bB1    .
//!   .     .     .     .     .     .
//!
//! stack wB1^2: wB1 on wQ
//! ```
//! Intellector's board is its 59 hexes in nine columns, each hex as its name, a `*` on the
//! dark hexes and the piece on it (`e1*wI`, `d1 wF`), odd files half a line up as on the board.

use super::{state, to_move, turn, Plane};
use crate::game::Color;
use crate::games::AnyGame;
use crate::hive::{Cell, Hive, Piece};
use crate::intellector::{Hex, Position};

/// Width of one Hive cell's slot; neighbours in a row are a slot and a space apart.
const SLOT: usize = 5;

/// The position as text for a terminal, every line ending in a line break: game type, state
/// (and how the game ended), turn, side to move and last move; then for Hive the pieces in hand
/// of each side, the grid and its stacks, and for Intellector the rules, the quiet-ply count and
/// the board.
pub fn text(game: &AnyGame) -> String {
    let mut lines = vec![
        format!("game: {}", game.type_field()),
        format!("state: {}", state(game)),
        format!("turn: {}", turn(game)),
        format!("to move: {}", to_move(game)),
    ];
    if let Some(last) = game.move_strings().last() {
        lines.push(format!("last move: {last}"));
    }
    match game {
        AnyGame::Hive(record) => lines.extend(hive(record.hive())),
        AnyGame::Intellector(record) => lines.extend(intellector(record.position())),
    }
    let mut out = String::new();
    for line in lines {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Hive's lines after the header: hands, grid, stacks.
fn hive(hive: &Hive) -> Vec<String> {
    let mut lines: Vec<String> = [Color::White, Color::Black]
        .into_iter()
        .map(|color| format!("in hand, {color}: {}", names(hive.in_hand(color), "none")))
        .collect();
    lines.push(String::new());
    lines.extend(grid(hive));
    let stacks: Vec<String> = hive
        .tops()
        .filter(|&(cell, _)| hive.height(cell) > 1)
        .map(|(cell, top)| format!("stack {}: {}", slot_text(hive, top), stack_text(hive, cell)))
        .collect();
    if !stacks.is_empty() {
        lines.push(String::new());
        lines.extend(stacks);
    }
    lines
}

/// Piece names joined by spaces, or `empty` when there are none.
fn names(pieces: impl Iterator<Item = Piece>, empty: &str) -> String {
    let names: Vec<String> = pieces.map(|p| p.to_string()).collect();
    if names.is_empty() {
        empty.to_string()
    } else {
        names.join(" ")
    }
}

/// What a cell's slot shows: the top piece, and the height when pieces are under it.
fn slot_text(hive: &Hive, top: Piece) -> String {
    match hive.position(top).map(|c| hive.height(c)) {
        Some(height) if height > 1 => format!("{top}^{height}"),
        _ => top.to_string(),
    }
}

/// A stack from the top down: `bB1 on wB1 on wQ`.
fn stack_text(hive: &Hive, cell: Cell) -> String {
    hive.stack(cell).map(|p| p.to_string()).collect::<Vec<_>>().join(" on ")
}

/// The grid: every cell of the rectangle around the hive and one cell beyond it, one text line
/// per row, top row first.
fn grid(hive: &Hive) -> Vec<String> {
    let tops: Vec<_> = hive.tops().collect();
    if tops.is_empty() {
        return vec!["(no pieces on the board)".to_string()];
    }
    let plane = Plane::around(tops.iter().map(|&(cell, _)| cell));
    // Doubled columns x = 2q + r: a row's cells are two apart, and a cell's neighbours in the
    // rows above and below are one to either side.
    let spots: Vec<(i32, i32)> =
        tops.iter().map(|&(cell, _)| plane.coords(cell)).map(|(q, r)| (2 * q + r, r)).collect();
    let (x_low, x_high) = bounds(spots.iter().map(|s| s.0));
    let (r_low, r_high) = bounds(spots.iter().map(|s| s.1));
    let (x_low, x_high, r_low, r_high) = (x_low - 2, x_high + 2, r_low - 1, r_high + 1);
    (r_low..=r_high)
        .map(|r| {
            let mut line = String::new();
            for x in (x_low..=x_high).filter(|x| (x - r).rem_euclid(2) == 0) {
                let column = 3 * (x - x_low) as usize;
                let cell = plane.cell((x - r).div_euclid(2), r);
                let shown = hive.top(cell).map_or_else(|| ".".to_string(), |top| slot_text(hive, top));
                line.push_str(&" ".repeat(column.saturating_sub(line.len())));
                line.push_str(&format!("{shown:^SLOT$}"));
            }
            line
        })
        .collect()
}

/// The smallest and largest of some numbers (of at least one).
fn bounds(values: impl Iterator<Item = i32>) -> (i32, i32) {
    values.fold((i32::MAX, i32::MIN), |(low, high), v| (low.min(v), high.max(v)))
}

/// Intellector's lines after the header: rules, quiet plies, the board.
fn intellector(position: &Position) -> Vec<String> {
    let mut lines = vec![
        format!("rules: {:?}", position.rules()),
        format!("quiet plies: {} (a draw at {})", position.quiet_plies(), crate::intellector::board::QUIET_PLY_LIMIT),
        String::new(),
    ];
    let files: String = (b'a'..=b'i').map(|f| format!("{:<7}", f as char)).collect();
    lines.push(format!("  {files}"));
    // Doubled rows y = 2·row + file mod 2, top (Black's side) first: each text line is half a
    // hex tall, and a line holds either the even files or the odd ones.
    for y in (2..=14u8).rev() {
        let mut line = String::from("  ");
        for file in (0..9u8).filter(|f| f % 2 == y % 2) {
            let Some(hex) = Hex::from_file_row(file, (y - file % 2) / 2) else { continue };
            line.push_str(&" ".repeat((2 + 7 * file as usize).saturating_sub(line.len())));
            line.push_str(&hex_text(position, hex));
        }
        lines.push(line);
    }
    lines.push(format!("  {files}"));
    lines
}

/// A hex as the board shows it: name, `*` if dark, the piece on it (`e1*wI`).
fn hex_text(position: &Position, hex: Hex) -> String {
    let dark = if hex.is_dark() { '*' } else { ' ' };
    let piece = position.piece_at(hex).map(|p| p.to_string()).unwrap_or_default();
    format!("{hex}{dark}{piece}")
}
