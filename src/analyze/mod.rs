//! Game review (`comb analyze`): every ply of a game searched from the position before it, the
//! move played scored against comb's best move, and the loss classed.
//!
//! For each ply the position before the move is searched within the [`Limits`]; that gives
//! comb's best move and its score. The move played, when it is not that move, is scored exactly
//! and cheaply by searching the position after it one ply shallower (the depth the root
//! search reached, less one, at least 1) and negating. Scores are hundredths of a piece from
//! the mover's view; mate scores keep the search's convention ([`MATE`] less the plies to the
//! end).
//!
//! The loss is the best move's score less the played move's, never negative, with both scores
//! first capped at ±[`SCORE_CAP`] so that a mate counts as a large but finite number (a mate in 3
//! missed for a mate in 5 loses nothing). The move played is classed by its loss (see
//! [`Class::of`]). A position with a single legal move, a forced pass included, is
//! [`Verdict::Forced`]: not searched and not classed. The plies of the opening a game was
//! started from (its book, as a tournament record gives it, or `--opening-plies`) are
//! [`Verdict::Book`]: not searched, not classed, and left out of the [`ReviewSummary`].
//!
//! Every position is searched by its own single-threaded [`Searcher`] with a fresh table, so at
//! a fixed depth the review is the same whatever the number of threads it is spread over.
//!
//! Reading the input is [`input`]; writing the table and the JSON lines is [`format`](mod@format).

pub mod format;
pub mod input;

use crate::game::{Color, Outcome};
use crate::games::AnyGame;
use crate::record::{Notation, Record};
use crate::search::{is_mate_score, Limits, Searcher, MATE};
use crate::with_record;
use rayon::prelude::*;
use std::sync::atomic::AtomicBool;

/// Scores are capped at ± this many hundredths for the loss (a mate counts as this much).
pub const SCORE_CAP: i32 = 1_000;

/// Transposition table of each position's engine, in MiB: small, since every position has its
/// own engine and searches are short.
pub const TABLE_MEGABYTES: usize = 16;

/// The largest loss (hundredths) of a [`Class::Good`] move.
pub const GOOD: i32 = 30;
/// The largest loss of an [`Class::Inaccuracy`].
pub const INACCURACY: i32 = 80;
/// The largest loss of a [`Class::Mistake`]; anything more is a [`Class::Blunder`].
pub const MISTAKE: i32 = 200;

/// How good a move was, by the score it lost against comb's best move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// Lost nothing: comb's move, or one that scores as well.
    Best,
    /// Lost 1 to [`GOOD`] hundredths.
    Good,
    /// Lost up to [`INACCURACY`].
    Inaccuracy,
    /// Lost up to [`MISTAKE`].
    Mistake,
    /// Lost more than [`MISTAKE`].
    Blunder,
}

impl Class {
    /// Every class, best first.
    pub const ALL: [Class; 5] = [Class::Best, Class::Good, Class::Inaccuracy, Class::Mistake, Class::Blunder];

    /// The class of a loss in hundredths: best 0, good 1–30, inaccuracy 31–80, mistake 81–200,
    /// blunder over 200.
    pub fn of(loss: i32) -> Class {
        if loss <= 0 {
            Class::Best
        } else if loss <= GOOD {
            Class::Good
        } else if loss <= INACCURACY {
            Class::Inaccuracy
        } else if loss <= MISTAKE {
            Class::Mistake
        } else {
            Class::Blunder
        }
    }

    /// Its name in the output: `best`, `good`, `inaccuracy`, `mistake`, `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Best => "best",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// What the review says of one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The only legal move (a forced pass, say): nothing to choose, not classed.
    Forced,
    /// A move of the opening the game was started from (book): not the players' choice, not
    /// searched, not classed, and left out of the summary.
    Book,
    /// A move chosen among several, scored against comb's best.
    Scored(Scores),
}

/// A chosen move's scores, hundredths from the mover's view (mates as the search scores them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scores {
    /// comb's best move, as a canonical MoveString.
    pub best: String,
    /// The best move's score.
    pub best_score: i32,
    /// The played move's score.
    pub played_score: i32,
    /// Depth the position was searched to.
    pub depth: u32,
}

impl Scores {
    /// The best score less the played one, both capped at ±[`SCORE_CAP`]; never negative.
    pub fn loss(&self) -> i32 {
        (capped(self.best_score) - capped(self.played_score)).max(0)
    }

    /// The class of the loss.
    pub fn class(&self) -> Class {
        Class::of(self.loss())
    }
}

fn capped(score: i32) -> i32 {
    score.clamp(-SCORE_CAP, SCORE_CAP)
}

/// One ply of a reviewed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyReview {
    /// The ply, from 1.
    pub ply: usize,
    /// Who played it.
    pub side: Color,
    /// The move played, as the game records it.
    pub played: String,
    /// What the review found.
    pub verdict: Verdict,
}

impl PlyReview {
    /// The scores, unless the move was forced or book.
    pub fn scores(&self) -> Option<&Scores> {
        match &self.verdict {
            Verdict::Forced | Verdict::Book => None,
            Verdict::Scored(s) => Some(s),
        }
    }

    /// The class's name, `forced` or `book` for a move that has none.
    pub fn class_name(&self) -> &'static str {
        match &self.verdict {
            Verdict::Forced => "forced",
            Verdict::Book => "book",
            Verdict::Scored(s) => s.class().name(),
        }
    }
}

/// Reviews every ply of `game` (a finished game up to its end, one in progress up to its last
/// move) within `limits` per position, spread over the current rayon pool; the plies come back
/// in order. The first `book` plies are the opening the game was started from:
/// [`Verdict::Book`], not searched.
pub fn review(game: &AnyGame, limits: Limits, book: usize) -> Vec<PlyReview> {
    with_record!(game, r => review_record(r, limits, book))
}

/// One position to review: the position before the move, the move and its MoveString.
struct Task<G: Notation> {
    before: G,
    played: G::Move,
    text: String,
}

fn review_record<G: Notation>(record: &Record<G>, limits: Limits, book: usize) -> Vec<PlyReview> {
    tasks(record)
        .into_par_iter()
        .enumerate()
        .map(|(i, task)| PlyReview {
            ply: i + 1,
            side: task.before.side_to_move(),
            verdict: if i < book {
                Verdict::Book
            } else {
                judge(&task.before, task.played, limits, &AtomicBool::new(false))
            },
            played: task.text,
        })
        .collect()
}

/// Reviews the plies of `game` one after another on this thread, as [`review`] does each,
/// handing every ply to `on_ply` as soon as it is done (what a live review shows). Stops when
/// `stop` is raised, and then returns false (the ply being searched is not handed over).
pub fn review_each(game: &AnyGame, limits: Limits, stop: &AtomicBool, on_ply: &mut dyn FnMut(PlyReview)) -> bool {
    with_record!(game, r => review_record_each(r, limits, stop, on_ply))
}

fn review_record_each<G: Notation>(
    record: &Record<G>,
    limits: Limits,
    stop: &AtomicBool,
    on_ply: &mut dyn FnMut(PlyReview),
) -> bool {
    for (i, task) in tasks(record).into_iter().enumerate() {
        let verdict = judge(&task.before, task.played, limits, stop);
        if stop.load(std::sync::atomic::Ordering::SeqCst) {
            return false;
        }
        on_ply(PlyReview { ply: i + 1, side: task.before.side_to_move(), verdict, played: task.text });
    }
    true
}

/// The position before every move of the record, from its start.
fn tasks<G: Notation>(record: &Record<G>) -> Vec<Task<G>> {
    let mut start = record.clone();
    start.undo(record.moves().len());
    let mut position = start.position().clone();
    record
        .moves()
        .iter()
        .zip(record.move_strings())
        .map(|(&mv, text)| {
            let before = position.clone();
            position.make(mv);
            Task { before, played: mv, text: text.clone() }
        })
        .collect()
}

/// Searches the position before `played` and scores `played` against the best move.
fn judge<G: Notation>(before: &G, played: G::Move, limits: Limits, stop: &AtomicBool) -> Verdict {
    let mut legal = Vec::new();
    before.clone().generate_moves(&mut legal);
    if legal.len() <= 1 {
        return Verdict::Forced;
    }
    let mut engine = Searcher::new(TABLE_MEGABYTES, 1);
    let result = engine.search(before, limits, stop, &mut |_| {});
    let best = result.best.unwrap_or(played);
    let played_score = if best == played {
        result.score
    } else {
        let mut after = before.clone();
        after.make(played);
        let depth = result.depth.saturating_sub(1).max(1);
        one_ply_back(score_of(&mut after, depth, &mut engine, crate::search::MAX_PLY, stop))
    };
    Verdict::Scored(Scores {
        best: before.write_move(best),
        best_score: result.score,
        played_score,
        depth: result.depth,
    })
}

/// The score of `position` for its side to move at `depth`: its result when the game is over;
/// through the move when there is only one (the search does not score a position without a
/// choice); else a search. `forced` bounds a run of forced moves.
fn score_of<G: Notation>(position: &mut G, depth: u32, engine: &mut Searcher, forced: usize, stop: &AtomicBool) -> i32 {
    match position.outcome() {
        Outcome::Win(winner) if winner == position.side_to_move() => return MATE,
        Outcome::Win(_) => return -MATE,
        Outcome::Draw => return 0,
        Outcome::InProgress => {}
    }
    let mut legal = Vec::new();
    position.generate_moves(&mut legal);
    match legal[..] {
        [only] if forced > 0 => {
            position.make(only);
            let score = one_ply_back(score_of(position, depth, engine, forced - 1, stop));
            position.unmake(only);
            score
        }
        [_] => 0,
        _ => engine.search(position, Limits::depth(depth), stop, &mut |_| {}).score,
    }
}

/// A score of the position after a move, seen from the position before it: negated, and a
/// mate one ply further away.
fn one_ply_back(score: i32) -> i32 {
    match -score {
        s if is_mate_score(s) && s > 0 => s - 1,
        s if is_mate_score(s) => s + 1,
        s => s,
    }
}

/// One side's moves in a reviewed game, counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReviewSummary {
    /// Moves of each class, in the order of [`Class::ALL`].
    pub classes: [usize; 5],
    /// Forced moves.
    pub forced: usize,
    /// The classed moves' losses, added up.
    pub total_loss: i64,
}

impl ReviewSummary {
    /// The summary of `side`'s moves among `plies` (book moves left out).
    pub fn of(plies: &[PlyReview], side: Color) -> ReviewSummary {
        let mut summary = ReviewSummary::default();
        for ply in plies.iter().filter(|p| p.side == side) {
            match &ply.verdict {
                Verdict::Book => {}
                Verdict::Forced => summary.forced += 1,
                Verdict::Scored(s) => {
                    summary.classes[s.class().index()] += 1;
                    summary.total_loss += i64::from(s.loss());
                }
            }
        }
        summary
    }

    /// Moves of a class.
    pub fn count(&self, class: Class) -> usize {
        self.classes[class.index()]
    }

    /// Classed moves (forced ones left out).
    pub fn classed(&self) -> usize {
        self.classes.iter().sum()
    }

    /// The average loss of the classed moves, or `None` without any.
    pub fn average_loss(&self) -> Option<f64> {
        let n = self.classed();
        (n > 0).then(|| self.total_loss as f64 / n as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_the_documented_thresholds() {
        let classes: Vec<&str> = [0, 1, 30, 31, 80, 81, 200, 201, 20_000].map(|l| Class::of(l).name()).to_vec();
        assert_eq!(
            classes,
            ["best", "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]
        );
    }

    #[test]
    fn losses_cap_mates_and_never_go_negative() {
        let scores = |best_score, played_score| Scores { best: String::new(), best_score, played_score, depth: 1 };
        assert_eq!(scores(MATE - 3, MATE - 5).loss(), 0);
        assert_eq!(scores(50, -(MATE - 2)).loss(), 50 + SCORE_CAP);
        assert_eq!(scores(10, 40).loss(), 0);
        assert_eq!(scores(40, 10).class(), Class::Good);
    }

    #[test]
    fn a_mate_is_one_ply_further_from_the_position_before() {
        assert_eq!(one_ply_back(-MATE), MATE - 1);
        assert_eq!(one_ply_back(MATE - 1), -(MATE - 2));
        assert_eq!(one_ply_back(25), -25);
    }
}
