//! Who plays whom, from which opening, in which order, and how many games run at once.
//!
//! Every pairing plays each round's opening twice with colours swapped, and the two games of a
//! pair are scheduled one after the other, so pairs finish close together and the pentanomial
//! statistics can count them early. All pairings of a round share the round's opening, which
//! keeps comparisons between engines of a round-robin fair.

use super::openings::Picker;
use super::referee::{play_game, PlayError, PlayedGame, Rules};
use crate::client::{EngineConfig, EngineSlot};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::{mpsc, Arc};

/// How engines are paired.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// The pairings (engine indices, first one White in the first game of each pair).
pub fn pairings(engines: usize, mode: Mode) -> Vec<(usize, usize)> {
    match mode {
        Mode::RoundRobin => (0..engines).flat_map(|a| (a + 1..engines).map(move |b| (a, b))).collect(),
        Mode::Gauntlet => (1..engines).map(|b| (0, b)).collect(),
    }
}

/// One game to play.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSpec {
    /// Its number, from 1, in schedule order.
    pub number: usize,
    /// The round, from 1: one opening per round.
    pub round: usize,
    /// The pair of games (same engines, same opening, colours swapped) it belongs to, from 0.
    pub pair: usize,
    /// Engine index playing White.
    pub white: usize,
    /// Engine index playing Black.
    pub black: usize,
    /// The opening GameString, or `None` for the empty board.
    pub opening: Option<Arc<str>>,
}

/// The whole schedule: `rounds` rounds, each with one opening from `picker` (or the empty board)
/// played twice by every pairing.
pub fn schedule(pairings: &[(usize, usize)], rounds: usize, mut picker: Option<&mut Picker>) -> Vec<GameSpec> {
    let mut games = Vec::new();
    let mut pair = 0;
    for round in 1..=rounds {
        let opening: Option<Arc<str>> = picker.as_mut().map(|p| Arc::from(p.next_opening().game_string));
        for &(a, b) in pairings {
            for (white, black) in [(a, b), (b, a)] {
                games.push(GameSpec { number: games.len() + 1, round, pair, white, black, opening: opening.clone() });
            }
            pair += 1;
        }
    }
    games
}

/// Games run at once by default: half the hardware threads, at least one (each game has two
/// engines, and only the one to move is busy).
pub fn default_concurrency() -> usize {
    (crate::uhp::cores() / 2).max(1)
}

/// A game as a worker reports it.
pub type Outcome = (GameSpec, Result<PlayedGame, PlayError>);

/// Plays `games` on `concurrency` worker threads. Each worker keeps its own engine processes
/// (one per configuration, restarted after a failure) and takes the next game in schedule
/// order. `on_game` sees every game on the calling thread, in the order they finish (abandoned
/// ones too); returning `false` sets `stop`, which stops the tournament: running games are
/// abandoned and no new ones start.
pub fn run(
    games: Vec<GameSpec>,
    engines: &[Arc<EngineConfig>],
    game_type: &str,
    rules: &Rules,
    concurrency: usize,
    stop: &Arc<AtomicBool>,
    mut on_game: impl FnMut(Outcome) -> bool,
) {
    let games = Arc::new(games);
    let next = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = mpsc::channel::<Outcome>();
    let workers: Vec<_> = (0..concurrency.clamp(1, games.len().max(1)))
        .map(|_| {
            let (games, next, tx, stop) = (Arc::clone(&games), Arc::clone(&next), tx.clone(), Arc::clone(stop));
            let mut slots: Vec<EngineSlot> =
                engines.iter().map(|c| EngineSlot::new(Arc::clone(c), Arc::clone(&stop))).collect();
            let (game_type, rules) = (game_type.to_string(), rules.clone());
            std::thread::spawn(move || {
                while !stop.load(SeqCst) {
                    let index = next.fetch_add(1, SeqCst);
                    let Some(spec) = games.get(index) else { break };
                    let (white, black) = two_mut(&mut slots, spec.white, spec.black);
                    let result = play_game(&game_type, spec.opening.as_deref(), white, black, &rules, &stop);
                    if tx.send((spec.clone(), result)).is_err() {
                        break;
                    }
                }
                for slot in &mut slots {
                    slot.shutdown();
                }
            })
        })
        .collect();
    drop(tx);
    for outcome in rx {
        if !on_game(outcome) {
            stop.store(true, SeqCst);
        }
    }
    for worker in workers {
        let _ = worker.join();
    }
}

/// Two distinct elements of a slice, mutably.
fn two_mut<T>(items: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    assert_ne!(a, b, "an engine never plays itself");
    if a < b {
        let (low, high) = items.split_at_mut(b);
        (&mut low[a], &mut high[0])
    } else {
        let (low, high) = items.split_at_mut(a);
        (&mut high[0], &mut low[b])
    }
}

#[cfg(test)]
mod tests {
    use super::super::openings::{Opening, Order};
    use super::*;

    #[test]
    fn pairings_by_mode() {
        assert_eq!(pairings(2, Mode::RoundRobin), [(0, 1)]);
        assert_eq!(pairings(3, Mode::RoundRobin), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairings(4, Mode::Gauntlet), [(0, 1), (0, 2), (0, 3)]);
        assert_eq!(pairings(2, Mode::Gauntlet), [(0, 1)]);
    }

    #[test]
    fn pairs_share_an_opening_with_colours_swapped() {
        let openings = (1..=3).map(|line| Opening { game_string: format!("Base;o{line}"), line }).collect();
        let mut picker = Picker::new(openings, Order::Sequential, 0);
        let games = schedule(&pairings(3, Mode::RoundRobin), 2, Some(&mut picker));
        assert_eq!(games.len(), 12);
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g.number, i + 1);
            assert_eq!(g.pair, i / 2);
            assert_eq!(g.round, i / 6 + 1);
            assert_eq!(g.opening.as_deref(), Some(if g.round == 1 { "Base;o1" } else { "Base;o2" }));
        }
        for pair in games.chunks(2) {
            assert_eq!((pair[0].white, pair[0].black), (pair[1].black, pair[1].white));
        }
        let plain = schedule(&pairings(2, Mode::RoundRobin), 3, None);
        assert_eq!(plain.len(), 6);
        assert!(plain.iter().all(|g| g.opening.is_none()));
    }

    #[test]
    fn two_mut_in_either_order() {
        let mut v = [1, 2, 3];
        let (a, b) = two_mut(&mut v, 2, 0);
        std::mem::swap(a, b);
        assert_eq!(v, [3, 2, 1]);
        assert!(default_concurrency() >= 1);
    }
}
