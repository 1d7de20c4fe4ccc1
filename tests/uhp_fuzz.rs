//! Random and mutated command lines never crash the session, always end with `ok`, and leave
//! the game exactly as it was when they are rejected.

use comb::uhp::{HelperThreads, Options, Session, Signals};
use std::sync::Arc;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const GAME_STRINGS: &[&str] = &[
    "Base",
    "Base+MLP",
    "Base+M",
    "Base+LP",
    "Base;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/;bG2 /bG1",
    "Base+MLP;InProgress;White[11];wM;bM \\wM;wP wM-;bQ bM/;wQ /wM;bP -bQ;wA1 wM\\;bP /bM;wQ bQ\\;wM -bQ;wB1 -wM;bP bM\\;wQ wP/;wA1 /bM;wB1 wM;wA1 bQ\\;wQ wP\\;wA1 bP\\;wA2 wP/;bQ bQ\\",
    "Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1",
    "Base+P;InProgress;White[9];wP;bB1 wP-;wQ /wP;bQ bB1/;wQ wP\\;bQ \\bB1;wQ /wP;bA1 bQ/;wQ wP\\;bA1 -bQ;wQ /wP;bB2 \\bQ;wQ wP\\;bB2 bQ;bA1 -wP;bB1 wQ",
];

const WORDS: &[&str] = &[
    "newgame",
    "play",
    "pass",
    "validmoves",
    "bestmove",
    "undo",
    "options",
    "info",
    "help",
    "perft",
    "get",
    "set",
    "depth",
    "time",
    "MaxHelperThreads",
    "RepetitionDraw",
    "ReportIntermediateBestMoves",
    "TranspositionTableSizeMB",
    "True",
    "false",
    "1",
    "0",
    "-1",
    "2",
    "99999999999",
    "00:00:00.01",
    "wQ",
    "wS1",
    "bG2",
    "wB1",
    "bA3",
    "wM",
    "bP",
    "wL",
    "-wS1",
    "wS1/",
    "\\bQ",
    "bQ-",
    "pass",
    ";",
    "Base+MLP",
    "x",
];

/// Slow commands are rewritten to stay fast: searches to depth 1, perft to depth 2, small tables.
fn tame(line: String) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let first = words.first().map(|w| w.to_ascii_lowercase()).unwrap_or_default();
    match first.as_str() {
        "bestmove" if words.len() != 3 || !words[1].eq_ignore_ascii_case("depth") || words[2] != "1" => {
            "bestmove depth 1".to_string()
        }
        "perft" => "perft 2".to_string(),
        "exit" => "info".to_string(),
        "options" if line.to_ascii_lowercase().contains("transpositiontablesizemb") => "options".to_string(),
        _ => line,
    }
}

fn random_line(rng: &mut Rng, valid_moves: &[String]) -> String {
    let base = match rng.below(6) {
        0 => format!("newgame {}", rng.pick(GAME_STRINGS)),
        1 if !valid_moves.is_empty() => format!("play {}", valid_moves[rng.below(valid_moves.len())]),
        2 => (0..1 + rng.below(4)).map(|_| rng.pick(WORDS)).collect::<Vec<_>>().join(" "),
        3 => (0..rng.below(40)).map(|_| (rng.below(96) as u8 + 32) as char).collect(),
        4 => format!("play {} {}", rng.pick(WORDS), rng.pick(WORDS)),
        _ => rng.pick(&["validmoves", "undo", "undo 2", "pass", "bestmove depth 1", "options", "info"]).to_string(),
    };
    // Mutate some lines: delete, insert or replace characters.
    let mut chars: Vec<char> = base.chars().collect();
    for _ in 0..rng.below(4) {
        let at = if chars.is_empty() { 0 } else { rng.below(chars.len()) };
        match rng.below(4) {
            0 if !chars.is_empty() => {
                chars.remove(at);
            }
            1 => chars.insert(at, (rng.below(96) as u8 + 32) as char),
            2 if !chars.is_empty() => chars[at] = ['-', '/', '\\', ';', ' ', '[', ']', '1', 'Q', 'é'][rng.below(10)],
            _ => {}
        }
    }
    tame(chars.into_iter().collect())
}

#[test]
fn hundred_thousand_random_lines() {
    let options = Options { max_helper_threads: HelperThreads::Count(0), table_megabytes: 1, ..Options::default() };
    let mut session = Session::new(Vec::new(), options, Arc::new(Signals::default()));
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut valid_moves: Vec<String> = Vec::new();
    let mut rejected = 0;
    for i in 0..100_000 {
        let line = random_line(&mut rng, &valid_moves);
        let before = session.game_string();
        session.execute(&line);
        let out = String::from_utf8(std::mem::take(session.output_mut())).unwrap();
        if line.trim().is_empty() {
            assert_eq!(out, "", "blank line {i} answered");
            continue;
        }
        assert!(out.ends_with("ok\n"), "line {i} {line:?} got {out:?}");
        if out.lines().any(|l| l.starts_with("err") || l.starts_with("invalidmove")) {
            rejected += 1;
            assert_eq!(session.game_string(), before, "rejected line {i} {line:?} changed the game");
        }
        if line.starts_with("newgame") || line.starts_with("play") || line.starts_with("undo") || i % 50 == 0 {
            session.execute("validmoves");
            let out = String::from_utf8(std::mem::take(session.output_mut())).unwrap();
            valid_moves = match out.lines().next() {
                Some(l) if !l.starts_with("err") => l.split(';').map(str::to_string).collect(),
                _ => Vec::new(),
            };
        }
    }
    assert!(rejected > 10_000, "the generator should produce plenty of bad input ({rejected})");
}
