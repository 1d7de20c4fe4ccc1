//! A position as data for a board that someone else draws (the page of `comb serve`): every
//! piece with its cell, centre and stack height, the pieces in hand, the board's cells, and the
//! legal moves with the cells they start and end on. The page draws from this and never
//! computes a rule itself.
//!
//! Cells have keys: Hive's are axial coordinates `"q,r"` (E = q+1; NE = q+1, r-1; NW = r-1;
//! W = q-1; SW = q-1, r+1; SE = r+1) in the plane in which the hive is in one piece (see
//! `Plane`); Intellector's are the hexes' names (`a1` … `i7`). Centres are in units of the
//! hexes' circumradius, y downwards, from [`super::hive_centre`] and
//! [`super::intellector_centre`], the geometry the SVG picture uses.
//!
//! Nothing here reads or writes anything; the types serialise to the JSON of the serve API.

use super::{hive_centre, intellector_centre, Plane};
use crate::game::Color;
use crate::games::AnyGame;
use crate::hive::{self, Cell, Hive};
use crate::intellector::{self, Hex, MoveKind, Position};
use crate::record::{Notation, Record};
use serde::Serialize;
use std::collections::BTreeMap;

/// One cell of a fixed board (Intellector's 59 hexes).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CellView {
    /// The cell's key.
    pub key: String,
    /// Its centre.
    pub x: f64,
    /// Its centre.
    pub y: f64,
    /// Its name as the notation writes it.
    pub name: String,
}

/// One piece on the board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PieceView {
    /// Its name in the notation (`wS1`, `bQ`; Intellector `wI`, `bF`).
    pub piece: String,
    /// `White` or `Black`.
    pub color: String,
    /// Its type's letter (`S`; Intellector `F` for the Defensor).
    pub bug: String,
    /// Its type's name (`Spider`, `Defensor`).
    pub kind: String,
    /// The key of its cell.
    pub key: String,
    /// The cell's centre.
    pub x: f64,
    /// The cell's centre.
    pub y: f64,
    /// 0 on the ground, 1 on top of one piece, …
    pub height: usize,
    /// Nothing lies on it.
    pub top: bool,
}

/// Where a move starts and ends: no start for a placement, neither for a pass.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ends {
    /// The key of the cell it leaves.
    pub from: Option<String>,
    /// The key of the cell it reaches.
    pub to: Option<String>,
}

/// One legal move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveView {
    /// The canonical MoveString.
    #[serde(rename = "move")]
    pub text: String,
    /// The piece that moves (none for a pass).
    pub piece: Option<String>,
    /// The key of the cell it leaves (none for a placement or a pass).
    pub from: Option<String>,
    /// The key of the cell it reaches (none for a pass).
    pub to: Option<String>,
    /// The centre of the cell it reaches.
    pub x: Option<f64>,
    /// The centre of the cell it reaches.
    pub y: Option<f64>,
    /// `place`, `move` or `pass` (Hive); `move`, `capture`, `swap` or `promotion`
    /// (Intellector).
    pub kind: &'static str,
    /// The type a Progressor promotes into, or an aura capture turns the piece into.
    pub promotion: Option<String>,
}

/// The position as a board to draw.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardView {
    /// `pointy` (Hive: east and west neighbours share an edge) or `flat` (Intellector).
    pub orientation: &'static str,
    /// Every cell of a fixed board (Intellector's 59); none for Hive, whose board is the hive.
    pub cells: Vec<CellView>,
    /// Every piece on the board; a stack's pieces bottom first.
    pub pieces: Vec<PieceView>,
    /// Hive: each side's pieces in hand (placeable now or not); empty for Intellector.
    pub hands: BTreeMap<String, Vec<String>>,
    /// Hive: passing is the only legal move.
    pub only_pass: bool,
    /// The move that led here, if any.
    pub last_move: Option<Ends>,
}

/// The board of the game's current position.
pub fn board(game: &AnyGame) -> BoardView {
    match game {
        AnyGame::Hive(record) => hive_board(record),
        AnyGame::Intellector(record) => intellector_board(record),
    }
}

/// Every legal move of the game's current position (none once it is over).
pub fn legal_moves(game: &AnyGame) -> Vec<MoveView> {
    match game {
        AnyGame::Hive(record) => {
            let plane = hive_plane(record.position());
            let mut position = record.position().clone();
            let mut moves = Vec::new();
            position.generate_moves(&mut moves);
            moves.into_iter().map(|mv| hive_move(&position, &plane, mv)).collect()
        }
        AnyGame::Intellector(record) => {
            let position = record.position().clone();
            let mut moves = Vec::new();
            position.generate_moves(&mut moves);
            moves.into_iter().map(|mv| intellector_move(&position, mv)).collect()
        }
    }
}

/// The ends of each move of `line` (MoveStrings played one after another from the current
/// position, as a principal variation), keyed as the current position's cells are. Stops at
/// the first move that is not legal where it stands.
pub fn line_ends(game: &AnyGame, line: &[String]) -> Vec<Ends> {
    match game {
        AnyGame::Hive(record) => {
            let plane = hive_plane(record.position());
            play_line(record, line, |_, mv| hive_ends(&plane, mv))
        }
        AnyGame::Intellector(record) => play_line(record, line, |_, mv| intellector_ends(mv)),
    }
}

/// Whether `key` names a cell of the game's board (`"q,r"` for Hive, a hex name for
/// Intellector).
pub fn is_cell_key(game: &AnyGame, key: &str) -> bool {
    match game {
        AnyGame::Hive(_) => parse_axial(key).is_some(),
        AnyGame::Intellector(_) => Hex::parse(key).is_some_and(|h| h.to_string() == key),
    }
}

/// Axial coordinates read from a Hive key `"q,r"`.
fn parse_axial(key: &str) -> Option<(i32, i32)> {
    let (q, r) = key.split_once(',')?;
    Some((q.trim().parse().ok()?, r.trim().parse().ok()?))
}

fn play_line<G: Notation>(record: &Record<G>, line: &[String], ends: impl Fn(&G, G::Move) -> Ends) -> Vec<Ends> {
    let mut probe = record.clone();
    let mut out = Vec::new();
    for text in line {
        let Ok(mv) = probe.find_move(text) else { break };
        out.push(ends(probe.position(), mv));
        probe.play_move(mv);
    }
    out
}

/// The plane in which the hive is in one piece, with its rim.
fn hive_plane(hive: &Hive) -> Plane {
    let cells: Vec<Cell> = hive.tops().map(|(cell, _)| cell).collect();
    Plane::around(cells.into_iter())
}

fn axial_key(plane: &Plane, cell: Cell) -> String {
    let (q, r) = plane.coords(cell);
    format!("{q},{r}")
}

fn hive_board(record: &Record<Hive>) -> BoardView {
    let hive = record.position();
    let plane = hive_plane(hive);
    let mut pieces = Vec::new();
    for (cell, _) in hive.tops() {
        let (x, y) = hive_centre(plane.coords(cell));
        let mut stack: Vec<hive::Piece> = hive.stack(cell).collect();
        stack.reverse();
        let height = stack.len();
        for (level, piece) in stack.into_iter().enumerate() {
            pieces.push(PieceView {
                piece: piece.to_string(),
                color: piece.color().to_string(),
                bug: piece.bug().letter().to_string(),
                kind: piece.bug().name().to_string(),
                key: axial_key(&plane, cell),
                x,
                y,
                height: level,
                top: level + 1 == height,
            });
        }
    }
    let hands = [Color::White, Color::Black]
        .into_iter()
        .map(|c| (c.to_string(), hive.in_hand(c).map(|p| p.to_string()).collect()))
        .collect();
    let mut moves = Vec::new();
    hive.clone().generate_moves(&mut moves);
    BoardView {
        orientation: "pointy",
        cells: Vec::new(),
        pieces,
        hands,
        only_pass: moves == [hive::Move::PASS],
        last_move: record.moves().last().map(|&mv| hive_ends(&plane, mv)),
    }
}

fn hive_ends(plane: &Plane, mv: hive::Move) -> Ends {
    match mv.view() {
        hive::MoveView::Place { to, .. } => Ends { from: None, to: Some(axial_key(plane, to)) },
        hive::MoveView::Move { from, to, .. } => {
            Ends { from: Some(axial_key(plane, from)), to: Some(axial_key(plane, to)) }
        }
        hive::MoveView::Pass => Ends { from: None, to: None },
    }
}

fn hive_move(hive: &Hive, plane: &Plane, mv: hive::Move) -> MoveView {
    let ends = hive_ends(plane, mv);
    let centre = mv.to().map(|c| hive_centre(plane.coords(c)));
    MoveView {
        text: hive.write_move(mv),
        piece: mv.piece().map(|p| p.to_string()),
        from: ends.from,
        to: ends.to,
        x: centre.map(|c| c.0),
        y: centre.map(|c| c.1),
        kind: match mv.view() {
            hive::MoveView::Place { .. } => "place",
            hive::MoveView::Move { .. } => "move",
            hive::MoveView::Pass => "pass",
        },
        promotion: None,
    }
}

fn intellector_board(record: &Record<Position>) -> BoardView {
    let position = record.position();
    let cells = Hex::all()
        .map(|hex| {
            let (x, y) = intellector_centre(hex);
            CellView { key: hex.to_string(), x, y, name: hex.to_string() }
        })
        .collect();
    let pieces = position
        .pieces()
        .map(|(hex, piece)| {
            let (x, y) = intellector_centre(hex);
            PieceView {
                piece: piece.to_string(),
                color: piece.color.to_string(),
                bug: piece.kind.letter().to_string(),
                kind: piece.kind.to_string(),
                key: hex.to_string(),
                x,
                y,
                height: 0,
                top: true,
            }
        })
        .collect();
    BoardView {
        orientation: "flat",
        cells,
        pieces,
        hands: BTreeMap::new(),
        only_pass: false,
        last_move: record.moves().last().map(|&mv| intellector_ends(mv)),
    }
}

fn intellector_ends(mv: intellector::Move) -> Ends {
    Ends { from: Some(mv.from.to_string()), to: Some(mv.to.to_string()) }
}

fn intellector_move(position: &Position, mv: intellector::Move) -> MoveView {
    let mover = position.piece_at(mv.from);
    let captures = position.piece_at(mv.to).is_some_and(|p| Some(p.color) != mover.map(|m| m.color));
    let (x, y) = intellector_centre(mv.to);
    MoveView {
        text: position.write_move(mv),
        piece: mover.map(|p| p.to_string()),
        from: Some(mv.from.to_string()),
        to: Some(mv.to.to_string()),
        x: Some(x),
        y: Some(y),
        kind: match mv.kind {
            MoveKind::Swap => "swap",
            MoveKind::Promotion(_) => "promotion",
            MoveKind::Aura(_) => "capture",
            MoveKind::Plain if captures => "capture",
            MoveKind::Plain => "move",
        },
        promotion: mv.becomes().map(|k| k.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameOptions;

    #[test]
    fn a_hive_stack_is_listed_bottom_first_with_its_heights() {
        let text = r"Base;InProgress;Black[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \wQ;bB1 bQ\;wB1 wQ";
        let game = GameOptions::default().parse(text).expect("legal");
        let view = board(&game);
        let on_cell: Vec<(&str, usize, bool, &str)> =
            view.pieces.iter().map(|p| (p.piece.as_str(), p.height, p.top, p.key.as_str())).collect();
        assert_eq!(
            on_cell,
            [
                ("wS1", 0, true, "0,0"),
                ("wQ", 0, false, "-1,0"),
                ("wB1", 1, true, "-1,0"),
                ("bQ", 0, true, "2,0"),
                ("bS1", 0, true, "1,0"),
                ("bB1", 0, true, "2,1")
            ]
        );
        assert_eq!(view.last_move, Some(Ends { from: Some("-1,-1".into()), to: Some("-1,0".into()) }));
        assert_eq!((view.hands["White"].len(), view.hands["Black"].len()), (8, 8));
        assert_eq!((view.orientation, view.cells.len(), view.only_pass), ("pointy", 0, false));
        let moves = legal_moves(&game);
        let beetle: Vec<&str> =
            moves.iter().filter(|m| m.piece.as_deref() == Some("bB1")).map(|m| m.from.as_deref().unwrap()).collect();
        assert!(!beetle.is_empty() && beetle.iter().all(|&from| from == "2,1"), "{beetle:?}");
        assert!(moves.iter().all(|m| m.from.is_some() == (m.kind == "move")));
        assert_eq!(moves.len(), game.clone().valid_moves().split(';').count());
    }

    #[test]
    fn intellector_has_59_cells_and_kinds_of_moves() {
        let game = GameOptions::default().new_game("Intellector").expect("a game type");
        let view = board(&game);
        assert_eq!((view.orientation, view.cells.len(), view.pieces.len()), ("flat", 59, 28));
        let a1 = view.cells.iter().find(|c| c.key == "a1").expect("a1");
        assert_eq!((a1.x, a1.name.as_str()), (0.0, "a1"));
        let moves = legal_moves(&game);
        assert!(moves.iter().any(|m| m.kind == "swap"), "the Intellector and a Defensor can swap");
        assert!(is_cell_key(&game, "e4") && !is_cell_key(&game, "E4") && !is_cell_key(&game, "b7"));
    }

    #[test]
    fn a_line_becomes_arrows_until_a_move_is_not_legal() {
        let game = GameOptions::default().new_game("Base").expect("a game type");
        let ends = line_ends(&game, &["wS1".into(), "bS1 wS1-".into(), "nonsense".into(), "wQ".into()]);
        assert_eq!(ends, [Ends { from: None, to: Some("0,0".into()) }, Ends { from: None, to: Some("1,0".into()) }]);
    }
}
