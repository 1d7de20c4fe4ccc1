//! Intellector perft: the counts in `positions/intellector-perft.txt`, the incremental state
//! checked at every node, and a node-by-node comparison with a deliberately naive move
//! generator written straight from the reference's (file, row) formulas.

use comb::game::{Color, Game};
use comb::intellector::{Hex, Kind, Position, Rules};
use comb::perft::{perft, perft_checked, perft_parallel};

const SUITE: &str = include_str!("../positions/intellector-perft.txt");

/// Depths whose expected count is at most this run in the normal test run (start depth 5,
/// 52 million leaves, takes about 0.2 s in release); deeper ones only with `--ignored`.
const NODE_LIMIT: u64 = 60_000_000;

struct Case {
    name: String,
    rules: Rules,
    position: String,
    counts: Vec<u64>,
}

impl Case {
    fn load(&self) -> Position {
        if self.position == "start" {
            Position::new(self.rules)
        } else {
            Position::from_sip(&self.position, self.rules).expect("suite SIP parses")
        }
    }
}

fn suite() -> Vec<Case> {
    SUITE
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut f = line.split_whitespace();
            let name = f.next().expect("name").to_string();
            let rules = match f.next().expect("rules") {
                "Modern" => Rules::Modern,
                "Classic" => Rules::Classic,
                other => panic!("unknown rules {other} in {line}"),
            };
            let position = f.next().expect("position").to_string();
            let counts = f.map(|n| n.parse().expect("count")).collect();
            Case { name, rules, position, counts }
        })
        .collect()
}

fn run_suite(limit: u64) {
    let mut buffers = Vec::new();
    for case in suite() {
        let mut pos = case.load();
        for (i, &expected) in case.counts.iter().enumerate().filter(|(_, &n)| n <= limit) {
            assert_eq!(perft(&mut pos, i + 1, &mut buffers), expected, "{} depth {}", case.name, i + 1);
        }
    }
}

#[test]
fn suite_counts() {
    run_suite(NODE_LIMIT);
}

#[test]
#[ignore = "start depth 6 (1.9 billion leaves) takes several seconds"]
fn suite_counts_deep() {
    run_suite(u64::MAX);
}

#[test]
fn suite_is_complete() {
    let cases = suite();
    let start = cases.iter().find(|c| c.name == "start" && c.rules == Rules::Modern).expect("start row");
    assert_eq!(&start.counts[..5], &[35, 1195, 42078, 1455528, 52395505]);
    // Every position in both rule sets.
    for rules in [Rules::Modern, Rules::Classic] {
        assert_eq!(cases.iter().filter(|c| c.rules == rules).count(), 6, "{rules:?}");
    }
}

#[test]
fn incremental_state_survives_every_make_and_unmake() {
    for case in suite() {
        let mut pos = case.load();
        let depth = if case.name == "start" { 4 } else { 3 };
        let n = perft_checked(&mut pos, depth, &|p: &Position| p.compute_hash());
        // perft_checked counts every node at the last depth, which equals the bulk count.
        assert_eq!(n, case.counts[depth - 1], "{}", case.name);
    }
}

#[test]
fn parallel_perft_agrees() {
    let pos = Position::new(Rules::Modern);
    assert_eq!(perft_parallel(&pos, 4), 1455528);
}

/// A slow move generator from the reference's formulas: hexes as (file, row), each direction
/// written out per file parity, no tables. Moves come out as canonical MoveStrings.
mod naive {
    use super::*;

    type At = (i32, i32);

    fn valid((f, r): At) -> bool {
        (0..=8).contains(&f) && r >= 1 && r <= if f % 2 == 0 { 7 } else { 6 }
    }

    fn name((f, r): At) -> String {
        format!("{}{}", (b'a' + f as u8) as char, r)
    }

    /// One lateral step: N, S, and the four diagonals, whose row change depends on the file.
    fn lateral((f, r): At, d: usize) -> At {
        let even = f % 2 == 0;
        match d {
            0 => (f, r + 1),
            1 => (f, r - 1),
            2 => (f + 1, if even { r } else { r + 1 }), // up-right
            3 => (f + 1, if even { r - 1 } else { r }), // down-right
            4 => (f - 1, if even { r } else { r + 1 }), // up-left
            _ => (f - 1, if even { r - 1 } else { r }), // down-left
        }
    }

    /// One radial step: (f±2, r); even files (f±1, r+1) and (f±1, r−2); odd (f±1, r+2), (f±1, r−1).
    fn radial((f, r): At, d: usize) -> At {
        let even = f % 2 == 0;
        match d {
            0 => (f + 2, r),
            1 => (f - 2, r),
            2 => (f + 1, if even { r + 1 } else { r + 2 }),
            3 => (f - 1, if even { r + 1 } else { r + 2 }),
            4 => (f + 1, if even { r - 2 } else { r - 1 }),
            _ => (f - 1, if even { r - 2 } else { r - 1 }),
        }
    }

    /// Jump targets: (f, r±2), (f±2, r+1), (f±2, r−1).
    fn jump((f, r): At, d: usize) -> At {
        [(f, r + 2), (f, r - 2), (f + 2, r + 1), (f + 2, r - 1), (f - 2, r + 1), (f - 2, r - 1)][d]
    }

    fn at(pos: &Position, a: At) -> Option<(Color, Kind)> {
        let hex = Hex::from_file_row(a.0 as u8, a.1 as u8)?;
        pos.piece_at(hex).map(|p| (p.color, p.kind))
    }

    fn base_line(color: Color, (f, r): At) -> bool {
        f % 2 == 0 && r == if color == Color::White { 1 } else { 7 }
    }

    /// The canonical MoveStrings of every legal move, sorted; `captured` is the set of types
    /// the side to move has lost (Classic promotion).
    pub fn moves(pos: &Position, rules: Rules, captured: &[Kind]) -> Vec<String> {
        let me = pos.to_move();
        let them = me.opponent();
        let mut out = Vec::new();
        let intellector = |c: Color| pos.pieces().find(|(_, p)| p.color == c && p.kind == Kind::Intellector);
        let (Some((mine, _)), Some((theirs, _))) = (intellector(me), intellector(them)) else { return out };
        let coords = |h: Hex| (h.file() as i32, h.row() as i32);
        if base_line(them, coords(mine)) || base_line(me, coords(theirs)) {
            return out; // somebody broke through: the game is over
        }
        let mine = coords(mine);
        let add = |from: At, to: At, mover: Kind, out: &mut Vec<String>| {
            let target = at(pos, to);
            if target.is_some_and(|(c, _)| c == me) {
                return false;
            }
            out.push(format!("{}{}", name(from), name(to)));
            if let Some((_, k)) = target {
                let near = (0..6).any(|d| lateral(from, d) == mine);
                if near && k != mover && k != Kind::Intellector {
                    out.push(format!("{}{}={}", name(from), name(to), k.letter()));
                }
            }
            target.is_none()
        };
        for (hex, piece) in pos.pieces().filter(|(_, p)| p.color == me) {
            let from = coords(hex);
            match piece.kind {
                Kind::Progressor => {
                    let dirs = if me == Color::White { [0, 2, 4] } else { [1, 3, 5] };
                    for d in dirs {
                        let to = lateral(from, d);
                        if !valid(to) || at(pos, to).is_some_and(|(c, _)| c == me) {
                            continue;
                        }
                        if base_line(them, to) {
                            for k in [Kind::Dominator, Kind::Aggressor, Kind::Defensor, Kind::Liberator] {
                                if rules == Rules::Modern || captured.contains(&k) {
                                    out.push(format!("{}{}={}", name(from), name(to), k.letter()));
                                }
                            }
                        } else {
                            out.push(format!("{}{}", name(from), name(to)));
                        }
                    }
                }
                Kind::Dominator | Kind::Aggressor => {
                    for d in 0..6 {
                        let mut to = from;
                        loop {
                            to = if piece.kind == Kind::Dominator { lateral(to, d) } else { radial(to, d) };
                            if !valid(to) || !add(from, to, piece.kind, &mut out) {
                                break;
                            }
                        }
                    }
                }
                Kind::Defensor => {
                    for d in 0..6 {
                        let to = lateral(from, d);
                        if valid(to) {
                            add(from, to, piece.kind, &mut out);
                        }
                    }
                }
                Kind::Liberator => {
                    for d in 0..6 {
                        let step = lateral(from, d);
                        if rules == Rules::Modern && valid(step) && at(pos, step).is_none() {
                            out.push(format!("{}{}", name(from), name(step)));
                        }
                        let to = jump(from, d);
                        if valid(to) {
                            add(from, to, piece.kind, &mut out);
                        }
                    }
                }
                Kind::Intellector => {
                    for d in 0..6 {
                        let to = lateral(from, d);
                        if !valid(to) {
                            continue;
                        }
                        match at(pos, to) {
                            None => out.push(format!("{}{}", name(from), name(to))),
                            Some((c, Kind::Defensor)) if c == me => out.push(format!("{}{}", name(from), name(to))),
                            _ => {}
                        }
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// Types of each colour (index) present fewer than twice: the Classic captured set of a
    /// freshly loaded position.
    pub fn missing_types(pos: &Position) -> [Vec<Kind>; 2] {
        let kinds = [Kind::Dominator, Kind::Aggressor, Kind::Defensor, Kind::Liberator];
        let missing = |c: Color| {
            kinds
                .into_iter()
                .filter(|&k| pos.pieces().filter(|(_, p)| p.color == c && p.kind == k).count() < 2)
                .collect()
        };
        [missing(Color::White), missing(Color::Black)]
    }
}

/// Walks the tree, comparing the engine's move list with the naive one at every node.
fn compare(pos: &mut Position, rules: Rules, captured: &mut [Vec<Kind>; 2], depth: usize) -> u64 {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut ours: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    ours.sort();
    let me = pos.to_move();
    assert_eq!(ours, naive::moves(pos, rules, &captured[me.index()]), "in {pos:?}");
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for mv in moves {
        let lost = pos.piece_at(mv.to).filter(|p| p.color != me).map(|p| p.kind);
        let them = me.opponent().index();
        let added = lost.filter(|k| k.is_promotion() && !captured[them].contains(k));
        if let Some(k) = added {
            captured[them].push(k);
        }
        pos.make(mv);
        total += compare(pos, rules, captured, depth - 1);
        pos.unmake(mv);
        if added.is_some() {
            captured[them].pop();
        }
    }
    total
}

#[test]
fn move_lists_agree_with_a_naive_generator_in_both_rule_sets() {
    for case in suite() {
        let mut pos = case.load();
        let mut captured = naive::missing_types(&pos);
        let depth = if case.name == "start" { 3 } else { 2 };
        let n = compare(&mut pos, case.rules, &mut captured, depth);
        assert_eq!(n, case.counts[depth - 1], "{} {:?}", case.name, case.rules);
    }
}

#[test]
fn every_move_has_a_distinct_in_range_index() {
    let mut moves = Vec::new();
    for case in suite() {
        let pos = case.load();
        pos.generate_moves(&mut moves);
        let mut codes: Vec<u32> = moves.iter().map(|&m| Position::move_code(m)).collect();
        assert!(moves.iter().all(|&m| Position::move_index(m) < Position::MOVE_INDEX_SIZE));
        assert!(codes.iter().all(|&c| c != 0));
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), moves.len(), "{}", case.name);
    }
}
