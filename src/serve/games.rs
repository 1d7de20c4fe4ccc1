//! The games being played: each one's record, players, ending and the move in progress, and
//! the moves of comb and of external engines, chosen on blocking threads.
//!
//! Every change to a game (a move by anyone, undo, resignation, a forfeit) bumps its
//! `version` and is published on its events channel. A move in progress belongs to the
//! version it started at: if the game changed meanwhile, its answer is thrown away. Like the
//! tournament's referee, comb checks every move an external engine sends with its own rules;
//! an engine that crashes, hangs, breaks the protocol or sends an illegal move loses the game,
//! with a message saying what happened.

use super::error::ApiError;
use super::json::{self, Event, Player};
use super::Server;
use crate::client::{EngineConfig, EngineError, EngineProcess, Limit, Position as EnginePosition, Sync, Timeouts};
use crate::game::{Color, Outcome};
use crate::games::{AnyGame, GameOptions};
use crate::intellector::Rules;
use crate::search::{level::fresh_seed, Level, Limits};
use crate::show::view;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};
use tokio::sync::broadcast;

/// The longest comb at Hard may think about a move; its own depth and node budget usually
/// stop it far sooner.
const LEVEL_CAP: Duration = Duration::from_secs(10);
/// The longest comb at Easy or Medium may think about a move, so that its reply reaches the
/// page within 200 ms. Their own depth and node budget stop nearly every search sooner; in
/// Medium's heaviest positions (on a busy machine) this cap stops it first, and it then plays
/// from the deepest lines it finished.
const QUICK_CAP: Duration = Duration::from_millis(150);
/// Seconds a move for comb at Max and for engines when none are given.
const DEFAULT_SECONDS: f64 = 1.0;
/// The range of seconds a move that may be asked for.
const SECONDS: std::ops::RangeInclusive<f64> = 0.05..=60.0;

/// How long an external engine may take beyond its move time, and for other commands.
fn timeouts() -> Timeouts {
    Timeouts { command: Duration::from_secs(10), margin: Duration::from_secs(2), depth: Duration::from_secs(60) }
}

/// A player checked against what the server offers.
#[derive(Clone, Debug, PartialEq)]
pub enum Seat {
    /// A person.
    Human,
    /// comb at a level, with the time for Max.
    Comb(Level, Duration),
    /// An external engine (its index in the server's list) with its move time.
    Engine(usize, Duration),
}

/// How a game ended outside its rules (resignation, forfeit).
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    /// Who won.
    pub outcome: Outcome,
    /// Why, in words.
    pub reason: String,
    /// What went wrong, for a game that ended abnormally.
    pub message: Option<String>,
}

/// An external engine process kept for one side of one game, with the flag that aborts its
/// waits.
pub struct EngineSeat {
    engine: EngineProcess,
    stop: Arc<AtomicBool>,
}

/// Everything about a game that changes.
pub struct State {
    /// The game, at its last ply.
    pub game: AnyGame,
    /// The options the game was set up with.
    pub options: GameOptions,
    /// The players as given.
    pub players: [Player; 2],
    /// The players as checked.
    pub seats: [Seat; 2],
    /// A resignation or forfeit.
    pub end: Option<Ending>,
    /// A player other than a person is choosing a move.
    pub thinking: bool,
    /// That move waits for a search slot.
    pub waiting: bool,
    /// Bumped by every change.
    pub version: u64,
    /// Raised to abort the move in progress.
    pub stop: Option<Arc<AtomicBool>>,
    /// The external engines' processes, kept from move to move.
    pub engines: [Option<EngineSeat>; 2],
    /// The game was deleted.
    pub deleted: bool,
    /// Its open events sockets (see [`Watcher`]).
    pub sockets: usize,
    /// When the game was created.
    pub created: SystemTime,
}

/// One game.
pub struct Game {
    /// Its id (`g1`, …).
    pub id: String,
    /// Its number (the id's).
    pub number: u64,
    state: Mutex<State>,
    events: broadcast::Sender<Arc<str>>,
}

impl Game {
    /// A new game.
    pub fn new(number: u64, state: State) -> Game {
        let (events, _) = broadcast::channel(64);
        Game { id: format!("g{number}"), number, state: Mutex::new(state), events }
    }

    /// The state, locked (a panic elsewhere cannot have left it half-changed: every change
    /// is made by one call that cannot panic halfway).
    pub fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The channel of this game's position messages.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.events.subscribe()
    }

    /// Sends the current position to every events socket of the game.
    pub fn publish(&self, server: &Server) {
        let text = {
            let state = self.lock();
            match self.position(server, &state, None) {
                Ok(p) => Event::Position { position: Box::new(p) }.text(),
                Err(_) => return,
            }
        };
        // Nobody listening is fine.
        let _ = self.events.send(text.into());
    }

    /// The position after `ply` plies (the current one when `None`), as the API shows it.
    pub fn position(&self, server: &Server, state: &State, ply: Option<usize>) -> Result<json::Position, ApiError> {
        let plies = state.game.plies();
        let shown_ply = ply.unwrap_or(plies);
        if shown_ply > plies {
            return Err(ApiError::BadRequest(format!("ply {shown_ply}: the game has {plies} plies")));
        }
        let mut shown = state.game.clone();
        shown.undo(plies - shown_ply);
        let last = shown_ply == plies;
        let ending = state.end.as_ref().filter(|_| last);
        let result = match (ending, shown.end()) {
            (Some(e), _) => Some(json::Result { outcome: outcome_name(e.outcome).into(), reason: e.reason.clone() }),
            (None, Some((outcome, reason))) => {
                Some(json::Result { outcome: outcome_name(outcome).into(), reason: reason.detail().into() })
            }
            (None, None) => None,
        };
        let state_name = match ending {
            Some(e) => outcome_name(e.outcome).to_string(),
            None => shown.state_string().to_string(),
        };
        let family = match shown {
            AnyGame::Hive(_) => "Hive",
            AnyGame::Intellector(_) => "Intellector",
        };
        let _ = server;
        Ok(json::Position {
            id: self.id.clone(),
            family,
            game_type: shown.type_field().to_string(),
            rules: state.intellector_rules().map(|r| format!("{r:?}")),
            game_string: shown.game_string(),
            state: state_name,
            to_move: shown.to_move().to_string(),
            ply: shown_ply,
            plies,
            moves: state.game.move_strings().to_vec(),
            result,
            message: ending.and_then(|e| e.message.clone()),
            players: json::Players { white: state.players[0].clone(), black: state.players[1].clone() },
            thinking: state.thinking,
            waiting: state.waiting,
            board: view::board(&shown),
        })
    }
}

impl State {
    /// The rule set the game is played under, for Intellector games (Hive has one rule set).
    pub fn intellector_rules(&self) -> Option<Rules> {
        matches!(self.game, AnyGame::Intellector(_)).then_some(self.options.intellector_rules)
    }

    /// Whether the game has ended, by its rules or otherwise.
    pub fn is_over(&self) -> bool {
        self.end.is_some() || self.game.is_over()
    }

    /// Aborts the move in progress and marks a change.
    pub fn interrupt(&mut self) {
        if let Some(stop) = self.stop.take() {
            stop.store(true, SeqCst);
        }
        self.thinking = false;
        self.waiting = false;
        self.version += 1;
    }

    /// Ends every external engine of the game (their processes are killed when dropped).
    pub fn end_engines(&mut self) {
        for seat in &mut self.engines {
            if let Some(seat) = seat.take() {
                seat.stop.store(true, SeqCst);
            }
        }
    }
}

/// An open events socket of a game, counted while it lives.
///
/// A game's moves belong to the pages showing it: when the last of its events sockets closes
/// (the page was closed or reloaded, or the connection dropped), the move in progress stops
/// (its stop flag raised, which comb's search and the waits on an engine read within 50 ms)
/// and the game's engine processes end. The game stays in memory as it was: the next events
/// socket to open starts the move again, with a fresh engine process. A client that never
/// opens an events socket (the JSON API alone) is not tied to one: its game's moves run until
/// the game changes or is deleted.
pub struct Watcher {
    server: Arc<Server>,
    game: Arc<Game>,
}

impl Watcher {
    /// Counts a new events socket of `game` and starts the move of the side to move if it
    /// waits (stopped when the last socket closed).
    pub fn new(server: &Arc<Server>, game: &Arc<Game>) -> Watcher {
        game.lock().sockets += 1;
        kick(server, game);
        Watcher { server: Arc::clone(server), game: Arc::clone(game) }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let stopped = {
            let mut state = self.game.lock();
            state.sockets = state.sockets.saturating_sub(1);
            if state.sockets > 0 || state.deleted {
                return;
            }
            let thinking = state.thinking;
            if thinking {
                state.interrupt();
            }
            state.end_engines();
            thinking
        };
        // Whoever reads the game through the API sees that nobody thinks any more.
        if stopped {
            self.game.publish(&self.server);
        }
    }
}

/// `WhiteWins`, `BlackWins`, `Draw` or `InProgress`.
pub fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Color::White) => "WhiteWins",
        Outcome::Win(Color::Black) => "BlackWins",
        Outcome::Draw => "Draw",
        Outcome::InProgress => "InProgress",
    }
}

/// Checks a player against what the server offers.
pub fn seat(player: &Player, engines: &[String]) -> Result<Seat, String> {
    let seconds = |s: Option<f64>| match s {
        None => Ok(Duration::from_secs_f64(DEFAULT_SECONDS)),
        Some(s) if SECONDS.contains(&s) => Ok(Duration::from_secs_f64(s)),
        Some(s) => Err(format!("seconds {s}: expected {} to {}", SECONDS.start(), SECONDS.end())),
    };
    match player {
        Player::Human => Ok(Seat::Human),
        Player::Comb { level, seconds: s } => {
            let level =
                Level::parse(level).ok_or_else(|| format!("level `{level}`: expected Easy, Medium, Hard or Max"))?;
            if level != Level::Max && s.is_some() {
                return Err(format!("seconds are for Max only, not for {}", level.name()));
            }
            Ok(Seat::Comb(level, seconds(*s)?))
        }
        Player::Engine { name, seconds: s } => {
            let index = engines.iter().position(|e| e == name).ok_or_else(|| match engines.len() {
                0 => format!("no engine `{name}`: none was given with --engine"),
                _ => format!("no engine `{name}`: the engines are {}", engines.join(", ")),
            })?;
            Ok(Seat::Engine(index, seconds(*s)?))
        }
    }
}

/// What a move in progress needs.
struct Job {
    version: u64,
    game: AnyGame,
    number: u64,
    side: Color,
    seat: Seat,
    stop: Arc<AtomicBool>,
    engine: Option<EngineSeat>,
}

/// What became of a move in progress.
enum Answer {
    /// comb's move (legal: it comes from the rules).
    Comb(String),
    /// An engine's move, still to be checked.
    Engine(String),
    /// The player failed: the message, and the player's name.
    Failed(String),
    /// Aborted (the game changed, was deleted, or the server is stopping).
    Aborted,
}

/// Starts the move of the side to move if it is not a person's and none is in progress.
pub fn kick(server: &Arc<Server>, game: &Arc<Game>) {
    let job = {
        let mut state = game.lock();
        if state.deleted || state.thinking || state.is_over() || server.is_stopping() {
            return;
        }
        let side = state.game.to_move();
        let seat = state.seats[side.index()].clone();
        if seat == Seat::Human {
            return;
        }
        let engine = state.engines[side.index()].take();
        let stop = engine.as_ref().map_or_else(|| Arc::new(AtomicBool::new(false)), |e| Arc::clone(&e.stop));
        stop.store(false, SeqCst);
        state.thinking = true;
        state.waiting = false;
        state.stop = Some(Arc::clone(&stop));
        Job { version: state.version, game: state.game.clone(), number: game.number, side, seat, stop, engine }
    };
    game.publish(server);
    let (server, game) = (Arc::clone(server), Arc::clone(game));
    tokio::spawn(async move {
        let version = job.version;
        let slot = server
            .slots
            .take(|| {
                let mut state = game.lock();
                if state.version == version {
                    state.waiting = true;
                }
                drop(state);
                game.publish(&server);
            })
            .await;
        let was_waiting = {
            let mut state = game.lock();
            let was = state.waiting && state.version == version;
            if state.version == version {
                state.waiting = false;
            }
            was
        };
        if was_waiting {
            game.publish(&server);
        }
        let Some(mut slot) = slot else { return };
        let side = job.side;
        let configs = Arc::clone(&server.engines);
        let result = tokio::task::spawn_blocking(move || {
            let mut job = job;
            let answer = match job.seat {
                Seat::Comb(level, seconds) => comb_move(&job, &mut slot, level, seconds),
                Seat::Engine(index, seconds) => engine_move(&mut job, &configs[index], seconds),
                Seat::Human => Answer::Aborted,
            };
            drop(slot);
            (answer, job.engine)
        })
        .await;
        let (answer, engine) = result.unwrap_or((Answer::Failed("the move's thread failed".into()), None));
        apply(&server, &game, version, side, answer, engine);
    });
}

/// comb's move at `level`.
fn comb_move(job: &Job, slot: &mut super::slots::Slot, level: Level, seconds: Duration) -> Answer {
    let engine = slot.engine_for(job.number);
    engine.set_multipv(1);
    engine.set_level(level, fresh_seed());
    let limits = match level {
        Level::Max => Limits::time(seconds),
        Level::Hard => Limits::time(LEVEL_CAP),
        Level::Easy | Level::Medium => Limits::time(QUICK_CAP),
    };
    let result = crate::uhp::search(&job.game, engine, limits, &job.stop, &mut |_| {});
    engine.set_level(Level::Max, 0);
    match result {
        _ if job.stop.load(SeqCst) => Answer::Aborted,
        Some(r) => Answer::Comb(r.best),
        None => Answer::Failed("comb found no move".into()),
    }
}

/// An external engine's move: the process is started if need be, told the position with
/// `newgame <GameString>`, and asked for a move in its time.
fn engine_move(job: &mut Job, config: &EngineConfig, seconds: Duration) -> Answer {
    let name = config.name.clone();
    let timeouts = timeouts();
    if job.engine.is_none() {
        let mut config = config.clone();
        config.limit = Limit::MoveTime(seconds);
        config.sync = Sync::NewGame;
        match EngineProcess::start(Arc::new(config), &timeouts, Arc::clone(&job.stop)) {
            Ok(engine) => job.engine = Some(EngineSeat { engine, stop: Arc::clone(&job.stop) }),
            Err(EngineError::Aborted) => return Answer::Aborted,
            Err(e) => return Answer::Failed(format!("{name} {e}")),
        }
    }
    let Some(seat) = job.engine.as_mut() else { return Answer::Aborted };
    let current = job.game.game_string();
    let position = EnginePosition { start: &current, moves: &[], current: &current };
    match seat.engine.best_move(&position, &timeouts) {
        Ok(mv) => Answer::Engine(mv),
        Err(EngineError::Aborted) => {
            // Stopped mid-command: its next reply would be out of step.
            job.engine = None;
            Answer::Aborted
        }
        Err(e) => {
            job.engine = None;
            Answer::Failed(format!("{name} {e}"))
        }
    }
}

/// Plays a finished move (or ends the game when the player failed), unless the game has
/// changed since the move started; then starts the next move.
fn apply(
    server: &Arc<Server>,
    game: &Arc<Game>,
    version: u64,
    side: Color,
    answer: Answer,
    engine: Option<EngineSeat>,
) {
    {
        let mut state = game.lock();
        if state.version != version || state.deleted {
            // A stale answer: keep a healthy engine for the side's next move.
            if let (Answer::Engine(_), Some(seat)) = (&answer, engine) {
                if !state.deleted && state.engines[side.index()].is_none() {
                    state.engines[side.index()] = Some(seat);
                }
            }
            return;
        }
        state.thinking = false;
        state.waiting = false;
        state.stop = None;
        let forfeit = |reason: String| Ending {
            outcome: Outcome::Win(side.opponent()),
            reason: reason.clone(),
            message: Some(reason),
        };
        match answer {
            Answer::Comb(mv) => {
                if let Err(why) = state.game.play(&mv) {
                    state.end = Some(forfeit(format!("comb's move `{mv}` was refused ({why})")));
                }
            }
            Answer::Engine(mv) => {
                // Like the tournament's referee: the canonical form is recorded, not the
                // engine's spelling.
                let name = engine_name(server, &state.seats[side.index()]);
                match state.game.play_canonical(&mv) {
                    Ok(_) => state.engines[side.index()] = engine,
                    Err(why) => state.end = Some(forfeit(format!("illegal move by {name}: `{mv}` ({why})"))),
                }
            }
            Answer::Failed(message) => state.end = Some(forfeit(message)),
            Answer::Aborted => {}
        }
        state.version += 1;
    }
    game.publish(server);
    kick(server, game);
}

/// The name of an engine seat (`comb` for comb).
fn engine_name(server: &Server, seat: &Seat) -> String {
    match seat {
        Seat::Engine(index, _) => server.engines[*index].name.clone(),
        _ => "comb".into(),
    }
}
