//! The position as an SVG picture: a caption (game, state, turn, side to move), the board,
//! Hive's pieces in hand, and arrows with a legend under the board.
//!
//! Every piece on the board is one `<g class="piece">` element with `data-piece` (its name,
//! `bB1` or `wI`) and `data-color` (`white`, `black`); in Hive also `data-height`, its level
//! (1 on the ground), and a piece under a stack is its own element inside the one of the
//! stack's top piece. Hive's pieces in hand are
//! `<g class="hand">`, and every arrow is a `<g class="arrow">` with `data-move` (its
//! MoveString) and `data-role` (`last` or `asked`). Scripts and tests can find them there.
//!
//! Hive is drawn with pointy-top hexes (its east and west neighbours share a vertical edge),
//! Intellector with flat-top hexes in files, as each game's board lies on the table.

use super::{hive_centre, intellector_centre, state, to_move, turn, Arrow, Plane, Role, SQRT3};
use crate::game::Color;
use crate::games::AnyGame;
use crate::hive::{self, grid::neighbour, Bug, Cell, Hive, Piece};
use crate::intellector::{self, Hex, Kind, MoveKind, Position};
use std::fmt::Write;

/// The empty border around everything.
const MARGIN: f64 = 16.0;
/// Fill of White's pieces and of the light text on Black's.
const WHITE_FILL: &str = "#f6f0dc";
/// Fill of Black's pieces.
const BLACK_FILL: &str = "#2e2b27";
/// Lines and dark text.
const INK: &str = "#222222";
/// The last move's arrow.
const LAST_COLOUR: &str = "#1c7ed6";
/// The asked moves' arrows, in turn: colour and arrowhead id.
const ASKED: [(&str, &str); 3] = [("#e8590c", "head-0"), ("#2f9e44", "head-1"), ("#ae3ec9", "head-2")];

/// Hive cells' circumradius.
const HIVE_R: f64 = 32.0;
/// Circumradius of the small hexes of the pieces in hand.
const HAND_R: f64 = 14.0;
/// Intellector hexes' circumradius.
const INTELLECTOR_R: f64 = 30.0;

/// A point of the picture.
type Point = (f64, f64);

/// The picture of a Hive position (`game` is the record `hive` belongs to).
pub(super) fn hive(game: &AnyGame, hive: &Hive, arrows: &[Arrow<hive::Move>]) -> String {
    let mut layout = Column::new();
    layout.caption(game);
    layout.hand(hive, Color::Black);
    layout.hive_board(hive, arrows);
    layout.hand(hive, Color::White);
    layout.legend(arrows);
    layout.finish(game)
}

/// The picture of an Intellector position (`game` is the record `position` belongs to).
pub(super) fn intellector(game: &AnyGame, position: &Position, arrows: &[Arrow<intellector::Move>]) -> String {
    let mut layout = Column::new();
    layout.caption(game);
    layout.intellector_board(position, arrows);
    layout.legend(arrows);
    layout.finish(game)
}

/// A picture built top to bottom: each part is drawn below the last one.
struct Column {
    body: String,
    /// Where the next part starts.
    y: f64,
    /// The widest part so far, margins excluded.
    width: f64,
}

impl Column {
    fn new() -> Column {
        Column { body: String::new(), y: MARGIN, width: 0.0 }
    }

    /// Appends SVG markup.
    fn push(&mut self, markup: &str) {
        self.body.push_str(markup);
        self.body.push('\n');
    }

    /// A line of text starting at the left margin.
    fn text_line(&mut self, text: &str, size: f64, extra: &str) {
        let baseline = self.y + size;
        self.push(&format!(
            r#"<text x="{MARGIN}" y="{baseline:.1}" font-size="{size}" fill="{INK}"{extra}>{}</text>"#,
            escape(text)
        ));
        self.width = self.width.max(text_width(text, size));
        self.y += size * 1.4;
    }

    /// The game type, then state, turn and side to move.
    fn caption(&mut self, game: &AnyGame) {
        self.text_line(game.type_field(), 16.0, r#" font-weight="bold""#);
        let line = format!("{} · {} · to move: {}", state(game), turn(game), to_move(game));
        self.text_line(&line, 13.0, "");
        self.y += 6.0;
    }

    /// One side's pieces in hand, as a row of small hexes after the side's name.
    fn hand(&mut self, hive: &Hive, color: Color) {
        let pieces: Vec<Piece> = hive.in_hand(color).collect();
        let label = format!("{color} in hand{}", if pieces.is_empty() { ": none" } else { "" });
        let centre_y = self.y + HAND_R;
        self.push(&format!(
            r#"<text x="{MARGIN}" y="{centre_y:.1}" font-size="12" fill="{INK}" dominant-baseline="central">{label}</text>"#
        ));
        let mut x = MARGIN + text_width(&label, 12.0) + 8.0 + HAND_R;
        for piece in pieces {
            let (fill, _) = piece_colours(piece.color());
            self.push(&format!(
                r#"<g class="hand" data-piece="{piece}" data-color="{}"><polygon points="{}" fill="{fill}" stroke="{INK}" stroke-width="1"/>{}</g>"#,
                colour_name(piece.color()),
                hexagon((x, centre_y), HAND_R, 90.0),
                bug_label(piece, (x, centre_y), 11.0, bug_colour(piece.bug(), piece.color())),
            ));
            x += SQRT3 * HAND_R + 2.0;
        }
        self.width = self.width.max(x - MARGIN);
        self.y += 2.0 * HAND_R + 10.0;
    }

    /// The hive: the cells next to it as dashed outlines, every stack as its top piece (with
    /// the pieces under it peeking out and a badge with the height), then the arrows.
    fn hive_board(&mut self, hive: &Hive, arrows: &[Arrow<hive::Move>]) {
        let mut tops: Vec<(Cell, Piece)> = hive.tops().collect();
        let arrow_cells: Vec<Cell> = arrows.iter().flat_map(|a| hive_ends(a.mv)).flatten().collect();
        let occupied: Vec<Cell> = tops.iter().map(|&(c, _)| c).collect();
        let mut empty: Vec<Cell> = occupied
            .iter()
            .flat_map(|&c| (0..6).map(move |d| neighbour(c, d)))
            .chain(arrow_cells.iter().copied())
            .filter(|&c| !hive.occupied(c))
            .collect();
        if occupied.is_empty() && empty.is_empty() {
            empty.push(hive::grid::ORIGIN);
        }
        empty.sort_unstable();
        empty.dedup();
        let plane = Plane::around(occupied.iter().chain(&arrow_cells).copied());
        let spot = |c: Cell| {
            let (x, y) = hive_centre(plane.coords(c));
            (x * HIVE_R, y * HIVE_R)
        };
        let all: Vec<Point> = occupied.iter().chain(&empty).map(|&c| spot(c)).collect();
        let (low_x, high_x) = min_max(all.iter().map(|p| p.0));
        let (low_y, _) = min_max(all.iter().map(|p| p.1));
        let half_width = SQRT3 * HIVE_R / 2.0;
        // Room above for the pieces under a stack, which peek out above it.
        let (dx, dy) = (MARGIN + half_width - low_x, self.y + HIVE_R + 8.0 - low_y);
        let at = |c: Cell| {
            let (x, y) = spot(c);
            (x + dx, y + dy)
        };
        for &cell in &empty {
            self.push(&format!(
                r##"<polygon class="empty" points="{}" fill="none" stroke="#b8b8b8" stroke-width="1" stroke-dasharray="4 3"/>"##,
                hexagon(at(cell), HIVE_R - 1.0, 90.0)
            ));
        }
        // Stacks last, lowest first, so that the pieces peeking out under a stack's top are
        // not hidden by its neighbours.
        tops.sort_by_key(|&(cell, _)| hive.height(cell));
        for &(cell, top) in &tops {
            self.push(&hive_piece(hive, cell, top, at(cell)));
        }
        for arrow in arrows {
            self.push(&hive_arrow(hive, arrow, &at));
        }
        let bottom = all.iter().map(|p| p.1 + dy).fold(f64::MIN, f64::max) + HIVE_R;
        self.width = self.width.max(high_x - low_x + 2.0 * half_width + 8.0);
        self.y = bottom + 12.0;
    }

    /// The 59 hexes in their two tones, each with its name, the pieces on them, file letters
    /// above and below, and the arrows.
    fn intellector_board(&mut self, position: &Position, arrows: &[Arrow<intellector::Move>]) {
        let r = INTELLECTOR_R;
        let (left, top) = (MARGIN + r, self.y + 16.0 + SQRT3 * r / 2.0);
        // Doubled rows: y = 2·row + file mod 2, so a hex's centre is half a hex below the
        // next one up in the neighbouring file.
        let at = |hex: Hex| {
            let (x, y) = intellector_centre(hex);
            (left + x * r, top + y * r)
        };
        let bottom = top + 6.0 * SQRT3 * r + SQRT3 * r / 2.0;
        for file in 0..9u8 {
            let x = left + 1.5 * r * file as f64;
            let letter = (b'a' + file) as char;
            for y in [top - SQRT3 * r / 2.0 - 6.0, bottom + 14.0] {
                self.push(&format!(
                    r##"<text x="{x:.1}" y="{y:.1}" font-size="13" fill="#555555" text-anchor="middle">{letter}</text>"##
                ));
            }
        }
        for hex in Hex::all() {
            let (x, y) = at(hex);
            let fill = if hex.is_dark() { "#b58863" } else { "#f0d9b5" };
            self.push(&format!(
                r##"<polygon class="hex" data-hex="{hex}" points="{}" fill="{fill}" stroke="#8a6a4a" stroke-width="1"/><text x="{x:.1}" y="{:.1}" font-size="9" fill="#5a4632" text-anchor="middle">{hex}</text>"##,
                hexagon((x, y), r, 0.0),
                y + 0.72 * r
            ));
        }
        for (hex, piece) in position.pieces() {
            self.push(&intellector_piece(hex, piece, at(hex)));
        }
        for arrow in arrows {
            self.push(&intellector_arrow(arrow, at(arrow.mv.from), at(arrow.mv.to)));
        }
        self.width = self.width.max(12.0 * r + 2.0 * r);
        self.y = bottom + 26.0;
    }

    /// One line per arrow: a sample of it and what it shows.
    fn legend<M>(&mut self, arrows: &[Arrow<M>]) {
        for arrow in arrows {
            let (colour, marker) = arrow_paint(arrow.role);
            let what = match arrow.role {
                Role::LastMove => "last move",
                Role::Asked(_) => "move",
            };
            let text = format!("{what}: {}", arrow.label);
            let y = self.y + 8.0;
            self.push(&format!(
                r#"<line x1="{MARGIN}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{colour}" stroke-width="4" marker-end="url(#{marker})"/><text x="{:.1}" y="{y:.1}" font-size="13" fill="{INK}" dominant-baseline="central">{}</text>"#,
                MARGIN + 22.0,
                MARGIN + 38.0,
                escape(&text)
            ));
            self.width = self.width.max(38.0 + text_width(&text, 13.0));
            self.y += 22.0;
        }
    }

    /// The whole document: sized to what was drawn, with the arrowheads defined once.
    fn finish(self, game: &AnyGame) -> String {
        let (width, height) = ((self.width + 2.0 * MARGIN).ceil(), (self.y + MARGIN).ceil());
        let mut out = String::new();
        out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">"#
        );
        let _ = writeln!(out, "<title>{} {}</title>", escape(game.type_field()), escape(&turn(game)));
        out.push_str("<defs>\n");
        for (colour, id) in std::iter::once((LAST_COLOUR, "head-last")).chain(ASKED) {
            let _ = writeln!(
                out,
                r#"<marker id="{id}" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>"#
            );
        }
        out.push_str("</defs>\n");
        out.push_str(r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
        out.push('\n');
        out.push_str(&self.body);
        out.push_str("</svg>\n");
        out
    }
}

/// A Hive piece on the board: its hex, bug letter and number; for a stack, the pieces under
/// it as hexes peeking out above it (each its own `piece` element, so that a script finds
/// every piece), a height badge and the pieces under it in words.
fn hive_piece(hive: &Hive, cell: Cell, top: Piece, (x, y): Point) -> String {
    let stack: Vec<Piece> = hive.stack(cell).collect();
    let (fill, ink) = piece_colours(top.color());
    let names: Vec<String> = stack.iter().map(|p| p.to_string()).collect();
    let mut g = format!(
        r#"<g class="piece" data-piece="{top}" data-color="{}" data-height="{}"><title>{}</title>"#,
        colour_name(top.color()),
        stack.len(),
        names.join(" on ")
    );
    // Deepest first, so that each covers the one under it.
    for (depth, under) in stack.iter().enumerate().skip(1).rev() {
        let (under_fill, _) = piece_colours(under.color());
        let _ = write!(
            g,
            r#"<g class="piece" data-piece="{under}" data-color="{}" data-height="{}"><polygon points="{}" fill="{under_fill}" stroke="{INK}" stroke-width="1"/></g>"#,
            colour_name(under.color()),
            stack.len() - depth,
            hexagon((x, y - 5.0 * depth as f64), HIVE_R - 2.0, 90.0)
        );
    }
    let _ = write!(
        g,
        r#"<polygon points="{}" fill="{fill}" stroke="{INK}" stroke-width="1.5"/>{}"#,
        hexagon((x, y), HIVE_R - 2.0, 90.0),
        bug_label(top, (x, y - if stack.len() > 1 { 4.0 } else { 0.0 }), 22.0, bug_colour(top.bug(), top.color()))
    );
    if stack.len() > 1 {
        let (bx, by) = (x + 0.62 * HIVE_R, y - 0.55 * HIVE_R);
        let _ = write!(
            g,
            r##"<text x="{x:.1}" y="{:.1}" font-size="8" fill="{ink}" text-anchor="middle" dominant-baseline="central">on {}</text><g class="height"><circle cx="{bx:.1}" cy="{by:.1}" r="9" fill="#e03131" stroke="#ffffff" stroke-width="1.5"/><text x="{bx:.1}" y="{by:.1}" font-size="11" font-weight="bold" fill="#ffffff" text-anchor="middle" dominant-baseline="central">{}</text></g>"##,
            y + 0.5 * HIVE_R,
            names[1..].join(" "),
            stack.len()
        );
    }
    g.push_str("</g>");
    g
}

/// The cells a Hive move starts and ends on (none for a pass; no start for a placement).
fn hive_ends(mv: hive::Move) -> [Option<Cell>; 2] {
    match mv.view() {
        hive::MoveView::Place { to, .. } => [None, Some(to)],
        hive::MoveView::Move { from, to, .. } => [Some(from), Some(to)],
        hive::MoveView::Pass => [None, None],
    }
}

/// A Hive arrow: a line from cell to cell for a movement; for a placement an outline of the
/// cell, with the piece's letter when it is not there yet; nothing for a pass.
fn hive_arrow(hive: &Hive, arrow: &Arrow<hive::Move>, at: &impl Fn(Cell) -> Point) -> String {
    let (colour, marker) = arrow_paint(arrow.role);
    let mut g =
        format!(r#"<g class="arrow" data-move="{}" data-role="{}">"#, escape(&arrow.label), role_name(arrow.role));
    match arrow.mv.view() {
        hive::MoveView::Move { from, to, .. } => g.push_str(&line(at(from), at(to), colour, marker, false)),
        hive::MoveView::Place { piece, to } => {
            let _ = write!(
                g,
                r#"<polygon points="{}" fill="none" stroke="{colour}" stroke-width="4" stroke-dasharray="8 4"/>"#,
                hexagon(at(to), HIVE_R - 3.0, 90.0)
            );
            if !hive.occupied(to) {
                g.push_str(&bug_label(piece, at(to), 20.0, colour));
            }
        }
        hive::MoveView::Pass => {}
    }
    g.push_str("</g>");
    g
}

/// An Intellector piece: a disc of its colour with its notation letter.
fn intellector_piece(hex: Hex, piece: intellector::Piece, (x, y): Point) -> String {
    let (fill, ink) = piece_colours(piece.color);
    // The Intellector, whose loss loses the game, gets a gold rim.
    let (rim, rim_width) = if piece.kind == Kind::Intellector { ("#e0a800", 3.0) } else { (INK, 1.5) };
    format!(
        r#"<g class="piece" data-piece="{piece}" data-color="{}" data-hex="{hex}"><title>{} {} on {hex}</title><circle cx="{x:.1}" cy="{:.1}" r="{:.1}" fill="{fill}" stroke="{rim}" stroke-width="{rim_width}"/><text x="{x:.1}" y="{:.1}" font-size="18" font-weight="bold" fill="{ink}" text-anchor="middle" dominant-baseline="central">{}</text></g>"#,
        colour_name(piece.color),
        piece.color,
        piece.kind,
        y - 0.08 * INTELLECTOR_R,
        0.52 * INTELLECTOR_R,
        y - 0.08 * INTELLECTOR_R,
        piece.kind.letter()
    )
}

/// An Intellector arrow from hex to hex; a swap has a head at both ends, a promotion or aura
/// capture the new type's letter above its head.
fn intellector_arrow(arrow: &Arrow<intellector::Move>, from: Point, to: Point) -> String {
    let (colour, marker) = arrow_paint(arrow.role);
    let mut g =
        format!(r#"<g class="arrow" data-move="{}" data-role="{}">"#, escape(&arrow.label), role_name(arrow.role));
    g.push_str(&line(from, to, colour, marker, arrow.mv.kind == MoveKind::Swap));
    if let Some(kind) = arrow.mv.becomes() {
        let _ = write!(
            g,
            r##"<text x="{:.1}" y="{:.1}" font-size="13" font-weight="bold" fill="{colour}" stroke="#ffffff" stroke-width="3" paint-order="stroke" text-anchor="middle">={}</text>"##,
            to.0,
            to.1 - 0.62 * INTELLECTOR_R,
            kind.letter()
        );
    }
    g.push_str("</g>");
    g
}

/// A thick arrow line from near the centre of one hex to near the centre of another.
fn line(from: Point, to: Point, colour: &str, marker: &str, both_ends: bool) -> String {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / length, dy / length);
    // Pulled back from the centres, so that the heads hide as little of the pieces as they can
    // while a step to a neighbour still shows a shaft between them.
    let (start, end) = if both_ends {
        let pull = (0.2 * length).min(24.0);
        (pull, pull)
    } else {
        ((0.15 * length).min(10.0), (0.3 * length).min(24.0))
    };
    let start_marker = if both_ends { format!(r#" marker-start="url(#{marker})""#) } else { String::new() };
    format!(
        r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="5" stroke-linecap="round" opacity="0.85" marker-end="url(#{marker})"{start_marker}/>"#,
        from.0 + ux * start,
        from.1 + uy * start,
        to.0 - ux * end,
        to.1 - uy * end
    )
}

/// A bug's letter with its number as a smaller suffix (`A` `1`), centred on `centre`.
fn bug_label(piece: Piece, (x, y): Point, size: f64, colour: &str) -> String {
    let number = if piece.bug().count() > 1 {
        format!(r#"<tspan font-size="{:.0}">{}</tspan>"#, size * 0.55, piece.number())
    } else {
        String::new()
    };
    format!(
        r#"<text x="{x:.1}" y="{y:.1}" font-size="{size:.0}" font-weight="bold" fill="{colour}" text-anchor="middle" dominant-baseline="central">{}{number}</text>"#,
        piece.bug().letter()
    )
}

/// The colour of a bug's letter, as the bugs are coloured on the table; on Black's pieces a
/// lighter tone of the same hue, so that it stands out on the dark fill.
fn bug_colour(bug: Bug, color: Color) -> &'static str {
    match (bug, color == Color::Black) {
        (Bug::Queen, false) => "#b8860b",
        (Bug::Queen, true) => "#f2c230",
        (Bug::Spider, false) => "#8b4513",
        (Bug::Spider, true) => "#d9975a",
        (Bug::Beetle, false) => "#6f42c1",
        (Bug::Beetle, true) => "#b794f4",
        (Bug::Grasshopper, false) => "#2b8a3e",
        (Bug::Grasshopper, true) => "#69db7c",
        (Bug::Ant, false) => "#1864ab",
        (Bug::Ant, true) => "#74c0fc",
        (Bug::Mosquito, false) => "#555555",
        (Bug::Mosquito, true) => "#cccccc",
        (Bug::Ladybug, false) => "#c92a2a",
        (Bug::Ladybug, true) => "#ff8787",
        (Bug::Pillbug, false) => "#0b7285",
        (Bug::Pillbug, true) => "#66d9e8",
    }
}

/// Fill and text colour of a side's pieces.
fn piece_colours(color: Color) -> (&'static str, &'static str) {
    match color {
        Color::White => (WHITE_FILL, INK),
        Color::Black => (BLACK_FILL, WHITE_FILL),
    }
}

/// `white` or `black`, as the `data-color` attributes write it.
fn colour_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// `last` or `asked`, as the arrows' `data-role` attributes write it.
fn role_name(role: Role) -> &'static str {
    match role {
        Role::LastMove => "last",
        Role::Asked(_) => "asked",
    }
}

/// An arrow's colour and the id of its arrowhead.
fn arrow_paint(role: Role) -> (&'static str, &'static str) {
    match role {
        Role::LastMove => (LAST_COLOUR, "head-last"),
        Role::Asked(n) => ASKED[n % ASKED.len()],
    }
}

/// The corners of a hexagon of circumradius `r` around `centre`, the first at `angle` degrees
/// (90: pointy top, 0: flat top), as an SVG `points` list.
fn hexagon((x, y): Point, r: f64, angle: f64) -> String {
    (0..6)
        .map(|k| {
            let a = (angle + 60.0 * k as f64).to_radians();
            format!("{:.1},{:.1}", x + r * a.cos(), y - r * a.sin())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The smallest and largest of some numbers.
fn min_max(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.fold((f64::MAX, f64::MIN), |(low, high), v| (low.min(v), high.max(v)))
}

/// A rough width of `text` at font size `size` (no font metrics here): enough to size the
/// picture so that no caption is cut off.
fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.62
}

/// `text` with XML's special characters escaped, for text content and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_covers_markup_and_quotes() {
        assert_eq!(escape(r#"a<b>&"c'"#), "a&lt;b&gt;&amp;&quot;c&apos;");
        assert_eq!(escape(r"wB1 \wA1"), r"wB1 \wA1");
    }

    #[test]
    fn hexagons_have_six_corners_at_the_radius() {
        let points = hexagon((10.0, 10.0), 5.0, 90.0);
        let corners: Vec<&str> = points.split(' ').collect();
        assert_eq!(corners.len(), 6);
        assert_eq!(corners[0], "10.0,5.0"); // the top corner of a pointy-top hexagon
    }
}
