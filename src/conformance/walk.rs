//! The timed random walk: random games played on the engine with `play` (now and then an
//! `undo 2` or a `newgame <GameString>` of the game so far), comparing at every position the
//! engine's `validmoves` with comb's rules and every GameString it answers with comb's record.
//!
//! Moves are drawn from comb's legal moves by a seeded generator, so the same seed walks the
//! same games; the first difference stops the walk with the position and both sides' moves.

use super::check::{is_error, quote};
use super::moves::{compare, legal, same_game, split_moves};
use super::EngineUnderTest;
use crate::hive::{GameType, HiveGame};
use crate::zobrist::SplitMix64;
use std::time::{Duration, Instant};

/// The deviation tags the walk can recognise in a difference.
pub const TAGS: &[&str] = &[REPETITION];

/// nokamute's repetition rule: it ends a game as a draw when a position recurs.
const REPETITION: &str = "repetition-draw";

/// How to walk.
#[derive(Clone, Debug)]
pub struct WalkSettings {
    /// How long.
    pub time: Duration,
    /// Seed of the moves drawn.
    pub seed: u64,
    /// Game types drawn from, one per game.
    pub game_types: Vec<GameType>,
    /// A game is left after this many plies (random games rarely end).
    pub max_plies: usize,
    /// The engine's command line, for the reproduction hint.
    pub command_line: String,
}

/// What the walk found.
#[derive(Clone, Debug, Default)]
pub struct Walk {
    /// Games started.
    pub games: usize,
    /// Positions whose moves were compared.
    pub positions: usize,
    /// Differences under allowed tags, and how often each was seen.
    pub allowed: Vec<(String, usize)>,
    /// The difference that stopped the walk, with its deviation tag if it has a known one.
    pub failure: Option<(Option<&'static str>, String)>,
}

/// A difference at one position.
struct Found {
    tag: Option<&'static str>,
    what: String,
}

fn found(what: String) -> Found {
    Found { tag: None, what }
}

/// Walks until the time is up or a difference is found that `allowed` does not cover.
pub fn run(session: &mut EngineUnderTest, settings: &WalkSettings, allowed: &[String]) -> Walk {
    let deadline = Instant::now() + settings.time;
    let mut rng = SplitMix64::new(settings.seed);
    let mut walk = Walk::default();
    while Instant::now() < deadline {
        let game_type = settings.game_types[rng.below(settings.game_types.len())];
        walk.games += 1;
        let mut game = HiveGame::new(game_type);
        let Err(f) = play_game(session, &mut game, &mut rng, &mut walk.positions, deadline, settings.max_plies) else {
            continue;
        };
        if let Some(tag) = f.tag.filter(|t| allowed.iter().any(|a| a == t)) {
            match walk.allowed.iter_mut().find(|(t, _)| t == tag) {
                Some((_, n)) => *n += 1,
                None => walk.allowed.push((tag.to_string(), 1)),
            }
            continue;
        }
        let mut text = format!(
            "game {} ({game_type}), ply {}, after {} positions: {}\nposition: {}\nreproduce: comb conformance --seed {} --seconds {} --case walk -- {}",
            walk.games,
            game.moves().len(),
            walk.positions,
            f.what,
            game.game_string(),
            settings.seed,
            settings.time.as_secs().max(1),
            settings.command_line
        );
        if let Some(tag) = f.tag {
            text.push_str(&format!("\ndeviation `{tag}`: --allow {tag} accepts it"));
        }
        walk.failure = Some((f.tag, text));
        break;
    }
    walk
}

/// Sends `command` and returns its one-line answer; an engine that fails, answers several
/// lines or an error is the walk's difference.
fn one_line(session: &mut EngineUnderTest, command: &str) -> Result<String, Found> {
    let reply = session.exchange(command).map_err(|e| {
        session.discard();
        found(format!("`{command}`: the engine {e}"))
    })?;
    let [line] = reply.as_slice() else { return Err(found(format!("`{command}` answered {}", quote(&reply)))) };
    if is_error(line) {
        return Err(found(format!("`{command}` answered `{line}`")));
    }
    Ok(line.clone())
}

/// Sends a command whose answer is one GameString, and compares it with `game`'s.
fn expect_game(session: &mut EngineUnderTest, command: &str, game: &HiveGame) -> Result<(), Found> {
    let line = one_line(session, command)?;
    match same_game(&game.game_string(), &line) {
        None => Ok(()),
        Some(d) => {
            let state = line.split(';').nth(1).unwrap_or_default();
            // A position seen twice before that the engine calls a draw: its repetition rule.
            let tag =
                (state == "Draw" && !game.outcome().is_over() && game.hive().repetitions() >= 2).then_some(REPETITION);
            Err(Found { tag, what: format!("`{command}`: {d}") })
        }
    }
}

/// Plays one random game on the engine, comparing as it goes.
fn play_game(
    session: &mut EngineUnderTest,
    game: &mut HiveGame,
    rng: &mut SplitMix64,
    positions: &mut usize,
    deadline: Instant,
    max_plies: usize,
) -> Result<(), Found> {
    expect_game(session, &format!("newgame {}", game.type_field()), game)?;
    while Instant::now() < deadline && !game.outcome().is_over() && game.moves().len() < max_plies {
        *positions += 1;
        let line = one_line(session, "validmoves")?;
        let comb = legal(game);
        let diff = compare(game.hive(), &split_moves(&line), &comb, None);
        if !diff.is_empty() {
            return Err(found(format!("`validmoves` differs: {}", diff.describe("comb"))));
        }
        match rng.below(32) {
            0 if game.moves().len() >= 2 => {
                game.undo(2);
                expect_game(session, "undo 2", game)?;
            }
            1 => expect_game(session, &format!("newgame {}", game.game_string()), game)?,
            _ => {
                let (text, _) = &comb[rng.below(comb.len())];
                game.play(text).expect("a legal move of comb's");
                expect_game(session, &format!("play {text}"), game)?;
            }
        }
    }
    Ok(())
}
