//! Opening books: files of GameStrings, one per line, and the order they are played in.
//!
//! File format: one GameString per line (`Base+MLP;InProgress;White[2];wS1;bG1 -wS1`). A `#`
//! starts a comment (GameStrings never contain one) and blank lines are ignored. Every line is
//! replayed with comb's rules when the file is loaded; an unreadable, illegal or finished
//! position is an error naming the file and line.

use super::error::OpeningsError;
use super::referee::load_game;
use crate::intellector::Rules as IntellectorRules;
use crate::zobrist::splitmix64;
use std::path::Path;

/// One opening: the GameString and where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    /// The GameString, as written in the file (trimmed).
    pub game_string: String,
    /// Its line number in the file (1-based).
    pub line: usize,
}

/// The game type of a GameString (its first field).
pub fn game_type_of(game_string: &str) -> &str {
    game_string.split(';').next().unwrap_or_default().trim()
}

/// Reads openings from `text` (the contents of `source`, named in messages). With `game_type`
/// every opening must be of that type; without, they must all share the first one's type.
/// Returns the openings and their game type.
pub fn parse(
    text: &str,
    source: &str,
    game_type: Option<&str>,
    rules: IntellectorRules,
) -> Result<(Vec<Opening>, String), OpeningsError> {
    let mut openings = Vec::new();
    let mut expected = game_type.map(str::to_string);
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.split('#').next().unwrap_or_default().trim();
        if content.is_empty() {
            continue;
        }
        let found = game_type_of(content).to_string();
        let wanted = expected.get_or_insert_with(|| found.clone()).clone();
        let game = load_game(&wanted, Some(content), rules).map_err(|reason| OpeningsError::Rejected {
            book: source.to_string(),
            line,
            reason,
        })?;
        if game.end().is_some() {
            return Err(OpeningsError::Finished { book: source.to_string(), line });
        }
        openings.push(Opening { game_string: content.to_string(), line });
    }
    if openings.is_empty() {
        return Err(OpeningsError::Empty { book: source.to_string() });
    }
    Ok((openings, expected.expect("set by the first opening")))
}

/// Reads an opening file (see [`parse`]).
pub fn load(
    path: &Path,
    game_type: Option<&str>,
    rules: IntellectorRules,
) -> Result<(Vec<Opening>, String), OpeningsError> {
    let text = std::fs::read(path).map_err(|error| OpeningsError::Read { path: path.to_path_buf(), error })?;
    let text = String::from_utf8(text).map_err(|_| OpeningsError::NotUtf8 { path: path.to_path_buf() })?;
    parse(&text, &path.display().to_string(), game_type, rules)
}

/// The order openings are used in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Order {
    /// From the first line on, starting over after the last.
    Sequential,
    /// Shuffled with the seed; reshuffled each time the list runs out.
    Random,
}

/// A small, fast, seedable generator over the crate's [`splitmix64`] (the one the Zobrist keys
/// come from): the same seed gives the same tournament on every platform.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let (state, bits) = splitmix64(self.0);
        self.0 = state;
        bits
    }

    /// A number in `0..n` (n > 0), without modulo bias worth mentioning for book sizes.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// Hands out openings in the chosen order.
#[derive(Clone, Debug)]
pub struct Picker {
    openings: Vec<Opening>,
    order: Order,
    rng: SplitMix64,
    next: usize,
}

impl Picker {
    /// A picker over `openings` (not empty), shuffled by `seed` in random order.
    pub fn new(openings: Vec<Opening>, order: Order, seed: u64) -> Picker {
        let mut picker = Picker { openings, order, rng: SplitMix64::new(seed), next: 0 };
        picker.shuffle();
        picker
    }

    fn shuffle(&mut self) {
        if self.order == Order::Random {
            for i in (1..self.openings.len()).rev() {
                let j = self.rng.below(i + 1);
                self.openings.swap(i, j);
            }
        }
    }

    /// The next opening.
    pub fn next_opening(&mut self) -> Opening {
        if self.next == self.openings.len() {
            self.next = 0;
            self.shuffle();
        }
        self.next += 1;
        self.openings[self.next - 1].clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOOK: &str = "# Base openings\n\nBase;InProgress;Black[1];wS1\n  Base;InProgress;White[2];wS1;bS1 wS1-  # two plies\nBase;InProgress;White[2];wG1;bA1 -wG1\n";

    #[test]
    fn reads_lines_and_comments() {
        let (openings, game_type) = parse(BOOK, "book", None, IntellectorRules::Modern).unwrap();
        assert_eq!(game_type, "Base");
        assert_eq!(openings.len(), 3);
        assert_eq!(openings[1], Opening { game_string: "Base;InProgress;White[2];wS1;bS1 wS1-".into(), line: 4 });
    }

    #[test]
    fn bad_lines_are_errors_with_their_line() {
        let e = parse(BOOK, "book", Some("Base+MLP"), IntellectorRules::Modern).unwrap_err().to_string();
        assert!(e.starts_with("book:3: ") && e.contains("Base+MLP"), "{e}");
        let e = parse("Base;InProgress;White[2];wS1;bQ wS1-\n", "b", None, IntellectorRules::Modern)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("b:1: Unable to play 'bQ wS1-'"), "{e}");
        let e = parse(
            "Base;InProgress;Black[1];wS1\nBase+M;InProgress;Black[1];wS1\n",
            "b",
            None,
            IntellectorRules::Modern,
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("b:2: "), "{e}");
        let e = parse("hello\n", "b", None, IntellectorRules::Modern).unwrap_err().to_string();
        assert!(e.starts_with("b:1: unknown game type"), "{e}");
        assert!(parse("# nothing\n\n", "b", None, IntellectorRules::Modern)
            .unwrap_err()
            .to_string()
            .contains("no openings"));
        let won = "Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1";
        assert!(parse(won, "b", None, IntellectorRules::Modern).unwrap_err().to_string().contains("already over"));
        assert!(load(Path::new("/nonexistent/book.txt"), None, IntellectorRules::Modern).is_err());
    }

    #[test]
    fn sequential_and_seeded_random_orders() {
        let (openings, _) = parse(BOOK, "book", None, IntellectorRules::Modern).unwrap();
        let mut seq = Picker::new(openings.clone(), Order::Sequential, 1);
        let lines: Vec<usize> = (0..4).map(|_| seq.next_opening().line).collect();
        assert_eq!(lines, [3, 4, 5, 3]);
        let draw = |seed| {
            let mut p = Picker::new(openings.clone(), Order::Random, seed);
            (0..6).map(|_| p.next_opening().line).collect::<Vec<_>>()
        };
        assert_eq!(draw(7), draw(7));
        let first = draw(7);
        // Each pass through the list uses every opening once.
        let mut pass: Vec<usize> = first[..3].to_vec();
        pass.sort();
        assert_eq!(pass, [3, 4, 5]);
        assert!((0..20).any(|s| draw(s) != first), "seeds change the order");
    }

    #[test]
    fn shipped_books_are_valid() {
        for (file, game_type) in [("openings-base-mlp.txt", "Base+MLP"), ("openings-base.txt", "Base")] {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("positions").join(file);
            let (openings, found) = load(&path, None, IntellectorRules::Modern).unwrap();
            assert_eq!((openings.len(), found.as_str()), (50, game_type), "{file}");
            let mut distinct: Vec<&str> = openings.iter().map(|o| o.game_string.as_str()).collect();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), 50, "{file}");
        }
    }

    #[test]
    fn splitmix_is_stable() {
        // Reference values of SplitMix64 from seed 0.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert!((0..1000).all(|_| r.below(7) < 7));
    }
}
