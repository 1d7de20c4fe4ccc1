//! Opening books: files of GameStrings, one per line, or of games in Hive PGN, and the order
//! their openings are played in.
//!
//! A GameString book has one GameString per line (`Base+MLP;InProgress;White[2];wS1;bG1 -wS1`).
//! A `#` starts a comment (GameStrings never contain one) and blank lines are ignored. A PGN
//! book holds games as `comb tournament --pgn` and MzingaViewer write them ([`crate::pgn`]); a
//! file is read as PGN when its name ends in `.pgn` or its first line that is neither blank
//! nor a `#` comment starts with `[` (no GameString does).
//!
//! With `--opening-plies N` each opening is the first N plies of a line or game, so that
//! finished games make a book. A line or game with fewer plies, or whose first N plies end it
//! by the rules, is skipped and counted: an opening must leave a game to play, and the book's
//! openings are then all of one length. A PGN book needs N; a GameString book without it is used as
//! written. Every opening is replayed with comb's rules when the file is loaded (with N, its
//! first N plies); an unreadable or illegal line or game, one of another game type, or (without
//! N) a finished one is an error naming the file and line (and a PGN game's number).

use super::error::OpeningsError;
use super::referee::load_game;
use crate::games::AnyGame;
use crate::games::GameOptions;
use crate::pgn;
pub use crate::zobrist::SplitMix64;
use std::path::Path;

/// One opening: the GameString and where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    /// The GameString: as written in the file (trimmed), or as replayed when cut to
    /// `--opening-plies`.
    pub game_string: String,
    /// Its line number in the file (1-based): a PGN game's first line.
    pub line: usize,
}

/// What an opening file gives.
#[derive(Clone, Debug, PartialEq)]
pub struct BookFile {
    /// The openings, in file order.
    pub openings: Vec<Opening>,
    /// Their game type.
    pub game_type: String,
    /// Lines or games left out by `--opening-plies`: shorter, or over within the plies.
    pub skipped: usize,
}

/// What the caller asks of a book's openings.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Wanted<'a> {
    /// Every opening must be of this game type; without, of the first one's type.
    pub game_type: Option<&'a str>,
    /// Cut every opening to its first this many plies (`--opening-plies`).
    pub plies: Option<usize>,
    /// How openings are set up (Intellector's rule set).
    pub options: GameOptions,
}

/// What a GameString book holds, in messages.
const LINES: &str = "lines";
/// What a PGN book holds, in messages.
const GAMES: &str = "games";

/// The game type of a GameString (its first field).
pub fn game_type_of(game_string: &str) -> &str {
    game_string.split(';').next().unwrap_or_default().trim()
}

/// A GameString cut to its first `plies` moves (type, state and turn are recomputed on loading).
fn first_plies(game_string: &str, plies: usize) -> String {
    game_string.split(';').take(3 + plies).collect::<Vec<_>>().join(";")
}

/// The openings being collected from a book, and the game type they must share.
struct Collector<'a> {
    book: &'a str,
    /// What the book holds: `lines` or `games`.
    unit: &'static str,
    wanted: Wanted<'a>,
    expected: Option<String>,
    openings: Vec<Opening>,
    skipped: usize,
}

impl<'a> Collector<'a> {
    fn new(book: &'a str, unit: &'static str, wanted: Wanted<'a>) -> Collector<'a> {
        let expected = wanted.game_type.map(str::to_string);
        Collector { book, unit, wanted, expected, openings: Vec::new(), skipped: 0 }
    }

    /// The game type this one must have: the book's, set by the first if none was asked for.
    fn expect(&mut self, found: &str) -> String {
        self.expected.get_or_insert_with(|| found.to_string()).clone()
    }

    /// Keeps `game` (replayed from the book's `line`) as an opening, or skips or refuses it.
    /// `written` is the GameString as the file has it, used when nothing was cut.
    fn add(&mut self, game: AnyGame, line: usize, written: Option<&str>) -> Result<(), OpeningsError> {
        let over = game.end().is_some();
        match self.wanted.plies {
            Some(plies) if game.plies() < plies || over => self.skipped += 1,
            Some(_) => self.openings.push(Opening { game_string: game.game_string(), line }),
            None if over => return Err(OpeningsError::Finished { book: self.book.to_string(), line }),
            None => {
                let game_string = written.map_or_else(|| game.game_string(), str::to_string);
                self.openings.push(Opening { game_string, line });
            }
        }
        Ok(())
    }

    /// The book, once its `count` lines or games were read.
    fn finish(self, count: usize) -> Result<BookFile, OpeningsError> {
        let (book, unit) = (self.book.to_string(), self.unit);
        match (self.openings.is_empty(), self.wanted.plies) {
            (true, Some(plies)) if count > 0 => Err(OpeningsError::AllSkipped { book, plies, count, unit }),
            (true, _) if unit == GAMES => Err(OpeningsError::NoGames { book }),
            (true, _) => Err(OpeningsError::Empty { book }),
            (false, _) => Ok(BookFile {
                openings: self.openings,
                game_type: self.expected.expect("set by the first opening"),
                skipped: self.skipped,
            }),
        }
    }
}

/// Reads openings from `text`, a GameString book (the contents of `source`, named in
/// messages).
pub fn parse(text: &str, source: &str, wanted: Wanted) -> Result<BookFile, OpeningsError> {
    let mut collector = Collector::new(source, LINES, wanted);
    let mut lines = 0;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.split('#').next().unwrap_or_default().trim();
        if content.is_empty() {
            continue;
        }
        lines += 1;
        let kept = wanted.plies.map(|plies| first_plies(content, plies));
        let expected = collector.expect(game_type_of(content));
        let game = load_game(&expected, Some(kept.as_deref().unwrap_or(content)), wanted.options)
            .map_err(|reason| OpeningsError::Rejected { book: source.to_string(), line, reason })?;
        collector.add(game, line, Some(content))?;
    }
    collector.finish(lines)
}

/// Reads openings from `text`, a PGN book (the contents of `source`): each game's first
/// `--opening-plies` plies, which a PGN book needs.
pub fn parse_pgn(text: &str, source: &str, wanted: Wanted) -> Result<BookFile, OpeningsError> {
    let Some(plies) = wanted.plies else {
        return Err(OpeningsError::PgnNeedsPlies { book: source.to_string() });
    };
    let pgn_error = |error| OpeningsError::Pgn { book: source.to_string(), error };
    let games = pgn::parse_games(text).map_err(pgn_error)?;
    let mut collector = Collector::new(source, GAMES, wanted);
    for g in &games {
        let game = g.game_after(plies, wanted.options).map_err(pgn_error)?;
        let expected = collector.expect(game.type_field());
        if game.type_field() != expected {
            let at = pgn::Place { game: g.number(), line: g.line() };
            let (book, found) = (source.to_string(), game.type_field().to_string());
            return Err(OpeningsError::PgnGameType { book, at, found, wanted: expected });
        }
        collector.add(game, g.line(), None)?;
    }
    collector.finish(games.len())
}

/// Whether a book is PGN: by its name (`.pgn`), else by its first line that is neither blank
/// nor a `#` comment, which starts with `[` in PGN and never in a GameString book.
pub fn is_pgn(path: &Path, text: &str) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
        || text
            .lines()
            .map(|l| l.trim_start_matches('\u{feff}').trim())
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .is_some_and(|l| l.starts_with('['))
}

/// Reads an opening file, GameStrings or PGN (see [`is_pgn`], [`parse`], [`parse_pgn`]).
pub fn load(path: &Path, wanted: Wanted) -> Result<BookFile, OpeningsError> {
    let text = std::fs::read(path).map_err(|error| OpeningsError::Read { path: path.to_path_buf(), error })?;
    let text = String::from_utf8(text).map_err(|_| OpeningsError::NotUtf8 { path: path.to_path_buf() })?;
    let source = path.display().to_string();
    if is_pgn(path, &text) {
        parse_pgn(&text, &source, wanted)
    } else {
        parse(&text, &source, wanted)
    }
}

/// The order openings are used in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Order {
    /// From the first line on, starting over after the last.
    Sequential,
    /// Shuffled with the seed; reshuffled each time the list runs out.
    Random,
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

    /// What a caller asks: a game type, and plies to cut to.
    fn wanted(game_type: Option<&str>, plies: Option<usize>) -> Wanted<'_> {
        Wanted { game_type, plies, options: GameOptions::default() }
    }

    /// `parse` with no game type asked for, under the modern rules.
    fn parse_any(text: &str, source: &str) -> Result<BookFile, OpeningsError> {
        parse(text, source, wanted(None, None))
    }

    const BOOK: &str = "# Base openings\n\nBase;InProgress;Black[1];wS1\n  Base;InProgress;White[2];wS1;bS1 wS1-  # two plies\nBase;InProgress;White[2];wG1;bA1 -wG1\n";

    #[test]
    fn reads_lines_and_comments() {
        let book = parse_any(BOOK, "book").unwrap();
        assert_eq!((book.game_type.as_str(), book.skipped), ("Base", 0));
        assert_eq!(book.openings.len(), 3);
        assert_eq!(book.openings[1], Opening { game_string: "Base;InProgress;White[2];wS1;bS1 wS1-".into(), line: 4 });
    }

    #[test]
    fn bad_lines_are_errors_with_their_line() {
        let e = parse(BOOK, "book", wanted(Some("Base+MLP"), None)).unwrap_err().to_string();
        assert!(e.starts_with("book:3: ") && e.contains("Base+MLP"), "{e}");
        let e = parse_any("Base;InProgress;White[2];wS1;bQ wS1-\n", "b").unwrap_err().to_string();
        assert!(e.starts_with("b:1: Unable to play 'bQ wS1-'"), "{e}");
        let e =
            parse_any("Base;InProgress;Black[1];wS1\nBase+M;InProgress;Black[1];wS1\n", "b").unwrap_err().to_string();
        assert!(e.starts_with("b:2: "), "{e}");
        let e = parse_any("hello\n", "b").unwrap_err().to_string();
        assert!(e.starts_with("b:1: unknown game type"), "{e}");
        assert!(parse_any("# nothing\n\n", "b").unwrap_err().to_string().contains("no openings"));
        let won = "Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1";
        assert!(parse_any(won, "b").unwrap_err().to_string().contains("already over"));
        assert!(load(Path::new("/nonexistent/book.txt"), wanted(None, None)).is_err());
    }

    /// A won game of 15 plies, as a GameString.
    const WON: &str = "Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1";

    #[test]
    fn opening_plies_cut_lines_and_skip_short_or_finished_ones() {
        let book = parse(BOOK, "book", wanted(None, Some(2))).unwrap();
        assert_eq!((book.openings.len(), book.skipped), (2, 1), "the 1-ply line is skipped");
        assert_eq!(book.openings[1], Opening { game_string: "Base;InProgress;White[2];wG1;bA1 -wG1".into(), line: 5 });
        let book = parse(BOOK, "book", wanted(None, Some(1))).unwrap();
        let cut: Vec<&str> = book.openings.iter().map(|o| o.game_string.as_str()).collect();
        assert_eq!(
            cut,
            ["Base;InProgress;Black[1];wS1", "Base;InProgress;Black[1];wS1", "Base;InProgress;Black[1];wG1"]
        );
        // A finished game makes an opening once cut before its end; cut at its end, it is skipped.
        let book = parse(WON, "b", wanted(None, Some(4))).unwrap();
        assert_eq!(book.openings[0].game_string, "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1/");
        let text = format!("{BOOK}{WON}\n");
        assert_eq!(parse(&text, "b", wanted(None, Some(14))).unwrap().skipped, 3);
        assert_eq!(parse(&text, "b", wanted(None, Some(14))).unwrap().openings[0].line, 6);
        let e = parse(&text, "b", wanted(None, Some(15))).unwrap_err().to_string();
        assert_eq!(e, "b: no opening of 15 plies: all 4 lines are shorter or end within 15 plies");
    }

    #[test]
    fn pgn_books_give_the_first_plies_of_each_game() {
        let game = |game_type: &str, moves: &str| {
            let moves: Vec<String> = moves.split(';').map(str::to_string).collect();
            pgn::format_game(&[("GameType", game_type.to_string())], &moves, "", "WhiteWins")
        };
        let won: Vec<&str> = WON.split(';').skip(3).collect();
        let text = format!("{}{}", game("Base", "wS1;bS1 wS1-;wQ -wS1"), game("Base", &won.join(";")));
        let book = parse_pgn(&text, "b.pgn", wanted(None, Some(3))).unwrap();
        assert_eq!((book.game_type.as_str(), book.skipped), ("Base", 0));
        let starts: Vec<(&str, usize)> = book.openings.iter().map(|o| (o.game_string.as_str(), o.line)).collect();
        let cut = "Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1";
        assert_eq!(starts, [(cut, 1), (cut, 9)]);
        let book = parse_pgn(&text, "b.pgn", wanted(None, Some(4))).unwrap();
        assert_eq!((book.openings.len(), book.skipped, book.openings[0].line), (1, 1, 9), "the 3-ply game is skipped");
        let e = |text: &str, wanted: Wanted| parse_pgn(text, "b.pgn", wanted).unwrap_err().to_string();
        assert!(e(&text, wanted(None, None)).starts_with("b.pgn: a PGN book needs --opening-plies N"));
        assert_eq!(
            e(&text, wanted(None, Some(20))),
            "b.pgn: no opening of 20 plies: all 2 games are shorter or end within 20 plies"
        );
        assert_eq!(
            e(&text, wanted(Some("Base+M"), Some(2))),
            "b.pgn: line 1 (game 1): a game of type `Base` among openings of type `Base+M`"
        );
        let mixed = format!("{text}{}", game("Intellector", "d1d2"));
        assert!(e(&mixed, wanted(None, Some(1))).starts_with("b.pgn: line 29 (game 3): a game of type `Intellector`"));
        let bad = format!("{text}{}", game("Base", "wS1;bQ wS1-"));
        assert!(
            e(&bad, wanted(None, Some(2))).starts_with("b.pgn: line 32 (game 3): ply 2 `bQ wS1-`: "),
            "{}",
            e(&bad, wanted(None, Some(2)))
        );
        assert!(e("", wanted(None, Some(2))).contains("no games"));
        assert!(e("[White \"x\n", wanted(None, Some(2))).starts_with("b.pgn: line 1 (game 1): not a tag"));
    }

    #[test]
    fn pgn_books_are_told_by_name_or_by_their_first_line() {
        assert!(is_pgn(Path::new("games.PGN"), ""));
        assert!(is_pgn(Path::new("games.txt"), "# from a tournament\n\n  [GameType \"Base\"]\n"));
        assert!(is_pgn(Path::new("games"), "\u{feff}[GameType \"Base\"]\r\n"));
        assert!(!is_pgn(Path::new("book.txt"), BOOK));
        assert!(!is_pgn(Path::new("book.txt"), "1. wS1\n"));
    }

    #[test]
    fn sequential_and_seeded_random_orders() {
        let openings = parse_any(BOOK, "book").unwrap().openings;
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
            let book = load(&path, wanted(None, None)).unwrap();
            assert_eq!((book.openings.len(), book.game_type.as_str()), (50, game_type), "{file}");
            let mut distinct: Vec<&str> = book.openings.iter().map(|o| o.game_string.as_str()).collect();
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
