//! `comb selfplay`: comb plays itself and writes the positions a tuner learns from.
//!
//! Output: one line per kept position, three tab-separated fields:
//!
//! ```text
//! <result>\t<score>\t<GameString>
//! ```
//!
//! - `result`: how the game ended, from White's point of view: `1` (White won), `0.5` (draw,
//!   also a game stopped at the ply cap) or `0` (Black won);
//! - `score`: the search's score of the position, from White's point of view, in the engine's
//!   centi-units (what `bestmove` reports times 100);
//! - `GameString`: the game up to this position, as UHP writes it (`Base+MLP;InProgress;…`,
//!   `Intellector;InProgress;…`), so that any tool can replay it.
//!
//! Positions a tuner should not learn from are left out (and counted on standard error):
//! - **book**: the opening itself (the book line and the random plies after it), which the
//!   engine did not choose;
//! - **forced**: positions with a single legal move (forced passes among them), where the
//!   result says nothing about the position's merits;
//! - **decided**: a search score beyond [`DECIDED`] or announcing a forced result, where the
//!   static evaluation is not what decides;
//! - **tactical**: positions where the side to move is in danger or the chosen move is
//!   tactical (a capture, a move onto the enemy queen's ring): the static evaluation of such a
//!   position is about to be overturned (Texel's "quiet positions only").
//!
//! Every game draws its opening from its own generator, seeded from the run's seed and the
//! game's number, and searches at a fixed depth or node budget on one thread with a fresh
//! table, so a run gives the same file whatever the thread count, and the file is written in
//! game order. A shard (`--shard K/N`) plays the games whose number % N is K − 1, each exactly
//! as the whole run plays it: the shards' files together hold the whole run's lines.

use crate::game::{Color, Outcome};
use crate::games::GameOptions;
use crate::record::{Notation, Record};
use crate::search::{is_mate_score, Limits, Searcher};
use crate::tournament::shard::Shard;
use crate::with_record;
use crate::zobrist::SplitMix64;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Scores at least this large (centi-units) mark a decided position.
pub const DECIDED: i32 = 1500;

/// What a self-play run does.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The game type every game starts from (used when there is no opening book).
    pub game_type: String,
    /// How games are set up (Intellector's rule set).
    pub options: GameOptions,
    /// Games to play.
    pub games: usize,
    /// The search of every move: a depth or a node budget (never a time, which would make the
    /// run depend on the machine).
    pub limits: Limits,
    /// GameStrings to start from, one picked at random for each game; empty for the game
    /// type's start.
    pub openings: Vec<String>,
    /// Uniformly random legal moves played after the opening, before the engine takes over.
    pub random_plies: usize,
    /// A game still going after this many plies is stopped and scored a draw.
    pub max_plies: usize,
    /// The run's seed.
    pub seed: u64,
    /// Games played at once (one search thread each).
    pub threads: usize,
    /// Transposition table per game, in MiB.
    pub table_megabytes: usize,
    /// The part of the games to play, or `None` for all of them.
    pub shard: Option<Shard>,
}

impl Settings {
    /// The numbers (from 0) of the games this run plays: all of them, or its shard's.
    pub fn game_numbers(&self) -> Vec<usize> {
        (0..self.games).filter(|&i| self.shard.is_none_or(|s| s.keeps(i))).collect()
    }
}

/// How many positions a run kept and left out, by reason.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SelfplayTally {
    /// Games played.
    pub games: usize,
    /// Positions written.
    pub kept: usize,
    /// Opening positions.
    pub book: usize,
    /// Positions with one legal move.
    pub forced: usize,
    /// Positions with a decided score.
    pub decided: usize,
    /// Tactical positions.
    pub tactical: usize,
}

impl SelfplayTally {
    fn add(&mut self, other: &SelfplayTally) {
        self.games += other.games;
        self.kept += other.kept;
        self.book += other.book;
        self.forced += other.forced;
        self.decided += other.decided;
        self.tactical += other.tactical;
    }
}

/// Why a position is not written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Skip {
    Book,
    Forced,
    Decided,
    Tactical,
}

/// One position of a game: its GameString and search score (White's view), or why it is
/// left out.
type Sample = Result<(String, i32), Skip>;

/// Plays the games of `settings` (all, or its shard's) and writes the kept positions to
/// `out`, in game order; `progress` hears of every finished game. Fails only when `out` does.
pub fn run(
    settings: &Settings,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&SelfplayTally),
) -> io::Result<SelfplayTally> {
    let numbers = settings.game_numbers();
    let numbers = &numbers;
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<(usize, Vec<Sample>, Outcome)>();
    std::thread::scope(|scope| {
        for _ in 0..settings.threads.max(1) {
            let (sender, next, failed) = (sender.clone(), &next, &failed);
            scope.spawn(move || {
                let mut engine = Searcher::new(settings.table_megabytes, 1);
                loop {
                    // `place` orders the output; the game's number seeds it.
                    let place = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&number) = numbers.get(place) else { break };
                    if failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let (samples, outcome) = play(settings, number, &mut engine);
                    if sender.send((place, samples, outcome)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let result = write_in_order(receiver, out, progress);
        if result.is_err() {
            failed.store(true, Ordering::Relaxed);
        }
        result
    })
}

/// Writes the games as they arrive, each as soon as every game before it is written.
fn write_in_order(
    receiver: mpsc::Receiver<(usize, Vec<Sample>, Outcome)>,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&SelfplayTally),
) -> io::Result<SelfplayTally> {
    let mut waiting = BTreeMap::new();
    let mut next = 0;
    let mut tally = SelfplayTally::default();
    for (index, samples, outcome) in receiver {
        waiting.insert(index, (samples, outcome));
        while let Some((samples, outcome)) = waiting.remove(&next) {
            tally.add(&write_game(&samples, outcome, out)?);
            next += 1;
            progress(&tally);
        }
    }
    out.flush()?;
    Ok(tally)
}

fn write_game(samples: &[Sample], outcome: Outcome, out: &mut dyn Write) -> io::Result<SelfplayTally> {
    let result = match outcome {
        Outcome::Win(Color::White) => "1",
        Outcome::Win(Color::Black) => "0",
        _ => "0.5",
    };
    let mut tally = SelfplayTally { games: 1, ..SelfplayTally::default() };
    for sample in samples {
        match sample {
            Ok((game_string, score)) => {
                writeln!(out, "{result}\t{score}\t{game_string}")?;
                tally.kept += 1;
            }
            Err(Skip::Book) => tally.book += 1,
            Err(Skip::Forced) => tally.forced += 1,
            Err(Skip::Decided) => tally.decided += 1,
            Err(Skip::Tactical) => tally.tactical += 1,
        }
    }
    Ok(tally)
}

/// Plays game number `index`: its positions and its result.
fn play(settings: &Settings, index: usize, engine: &mut Searcher) -> (Vec<Sample>, Outcome) {
    // Games differ by their number; the same number always gives the same game.
    let mut rng = SplitMix64::new(settings.seed ^ crate::zobrist::splitmix64(index as u64).1);
    let start = if settings.openings.is_empty() {
        settings.options.new_game(&settings.game_type)
    } else {
        settings.options.parse(&settings.openings[rng.below(settings.openings.len())])
    };
    // The settings were checked when the run was set up.
    let start = start.expect("self-play openings are checked before the run");
    engine.new_game();
    with_record!(start, record => play_record(record, settings, &mut rng, engine))
}

fn play_record<G: Notation>(
    mut record: Record<G>,
    settings: &Settings,
    rng: &mut SplitMix64,
    engine: &mut Searcher,
) -> (Vec<Sample>, Outcome) {
    let mut samples = Vec::new();
    let mut moves = Vec::new();
    let never = AtomicBool::new(false);
    for _ in 0..record.moves().len() {
        samples.push(Err(Skip::Book));
    }
    let opening = record.moves().len() + settings.random_plies;
    while record.outcome() == Outcome::InProgress && record.moves().len() < settings.max_plies {
        let position = record.position_mut();
        position.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        if record.moves().len() < opening {
            let mv = moves[rng.below(moves.len())];
            record.play_move(mv);
            samples.push(Err(Skip::Book));
            continue;
        }
        if moves.len() == 1 {
            record.play_move(moves[0]);
            samples.push(Err(Skip::Forced));
            continue;
        }
        let result = engine.search(record.position(), settings.limits, &never, &mut |_| {});
        let Some(best) = result.best else { break };
        let white_score = if record.position().side_to_move() == Color::White { result.score } else { -result.score };
        let sample = if is_mate_score(result.score) || result.score.abs() >= DECIDED {
            Err(Skip::Decided)
        } else if record.position().in_danger() || record.position().is_tactical(best) {
            Err(Skip::Tactical)
        } else {
            Ok((record.game_string(), white_score))
        };
        samples.push(sample);
        record.play_move(best);
    }
    (samples, record.outcome())
}
