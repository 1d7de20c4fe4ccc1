//! A game's events socket: the game's positions as they change, and on request a live analysis
//! of one of its positions or a review of the whole game.
//!
//! An analysis or a review belongs to the socket that asked for it: it runs on a blocking
//! thread in a search slot, sends what it finds through a channel, and is stopped (its stop
//! flag raised, which the search reads every few thousand nodes) as soon as the socket
//! closes, is switched off, or is replaced by a new request. The game's own moves belong to
//! all its sockets together: when the last one closes they stop too ([`Watcher`]).

use super::games::{Game, Watcher};
use super::json::{AnalysisLine, Event, Request, ReviewPly};
use super::slots::Slot;
use super::Server;
use crate::analyze::{self, Verdict};
use crate::game::Color;
use crate::games::{format_line, AnyGame};
use crate::record::{Notation, Record};
use crate::search::{is_mate_score, Level, Limits, Report, Searcher, MATE};
use crate::show::view;
use crate::with_record;
use axum::extract::ws::{Message, WebSocket};
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::mpsc;

/// The longest one analysis runs (then it reports that it is done).
const ANALYSIS_CAP: Duration = Duration::from_secs(300);
/// How often a running analysis is reported, whether or not it found something new.
const TICK: Duration = Duration::from_millis(200);
/// Most lines an analysis shows.
const MAX_LINES: i64 = 5;
/// Arrows drawn per line: its first moves.
const ARROWS: usize = 3;
/// The review's search per position: this depth, or this time, whichever comes first.
const REVIEW_DEPTH: u32 = 4;
/// See [`REVIEW_DEPTH`].
const REVIEW_TIME: Duration = Duration::from_secs(3);

/// A running analysis or review: raising its flag stops it, and so does dropping it.
struct Task {
    id: u64,
    stop: Arc<AtomicBool>,
}

impl Drop for Task {
    fn drop(&mut self) {
        self.stop.store(true, SeqCst);
    }
}

/// What a task sends to its socket: its id and the event.
type Update = (u64, Event);

/// Serves one events socket until it closes or the server stops.
pub async fn run(server: Arc<Server>, game: Arc<Game>, mut socket: WebSocket) {
    // Counted while the socket lives: the last one to close stops the game's moves.
    let _watcher = Watcher::new(&server, &game);
    let mut positions = game.subscribe();
    let (tx, mut rx) = mpsc::unbounded_channel::<Update>();
    let mut shutdown = server.shutdown_signal();
    let mut analysis: Option<Task> = None;
    let mut review: Option<Task> = None;
    // The last analysis report and when its analysis started, resent at every tick.
    let mut last: Option<(Event, Instant)> = None;
    let mut next_id = 0u64;
    let mut ticker = tokio::time::interval(TICK);
    if send(&mut socket, &current(&server, &game)).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            message = socket.recv() => {
                let text = match message {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                    Some(Ok(Message::Text(text))) => text.to_string(),
                    Some(Ok(Message::Binary(_))) => {
                        let error = Event::Error { message: "send JSON text messages, not binary ones".into() };
                        if send(&mut socket, &error.text()).await.is_err() { break }
                        continue;
                    }
                    Some(Ok(_)) => continue,
                };
                let request = match serde_json::from_str::<Request>(&text) {
                    Ok(r) => r,
                    Err(e) => {
                        let error = Event::Error { message: format!("bad request: {e}") };
                        if send(&mut socket, &error.text()).await.is_err() { break }
                        continue;
                    }
                };
                next_id += 1;
                let outcome = match request {
                    Request::Analyse { on: false, .. } => {
                        analysis = None;
                        last = None;
                        Ok(())
                    }
                    Request::Analyse { on: true, multipv, ply } => {
                        analysis = None;
                        last = None;
                        start_analysis(&server, &game, multipv, ply, next_id, tx.clone()).map(|t| analysis = Some(t))
                    }
                    Request::Review => {
                        review = Some(start_review(&server, &game, next_id, tx.clone()));
                        Ok(())
                    }
                };
                if let Err(message) = outcome {
                    if send(&mut socket, &Event::Error { message }.text()).await.is_err() { break }
                }
            }
            position = positions.recv() => {
                let text = match position {
                    Ok(text) => text.to_string(),
                    // Missed some: the current position says it all.
                    Err(RecvError::Lagged(_)) => current(&server, &game),
                    Err(RecvError::Closed) => break,
                };
                if send(&mut socket, &text).await.is_err() { break }
                if game.lock().deleted { break }
            }
            Some((id, event)) = rx.recv() => {
                let mine = |task: &Option<Task>| task.as_ref().is_some_and(|t| t.id == id);
                let event = match event {
                    Event::Analysis { .. } | Event::Waiting { .. } if mine(&analysis) => event,
                    Event::Review { .. } | Event::Waiting { .. } if mine(&review) => event,
                    _ => continue,
                };
                if let Event::Analysis { done, .. } = &event {
                    let started = last.take().map_or_else(Instant::now, |(_, s)| s);
                    if *done { analysis = None } else { last = Some((event.clone(), started)) }
                }
                if let Event::Review { done: true, .. } = &event {
                    review = None;
                }
                if send(&mut socket, &event.text()).await.is_err() { break }
            }
            _ = ticker.tick() => {
                if let Some((Event::Analysis { time, .. }, started)) = last.as_mut() {
                    *time = started.elapsed().as_millis() as u64;
                    let text = last.as_ref().map(|(e, _)| e.text()).unwrap_or_default();
                    if send(&mut socket, &text).await.is_err() { break }
                }
            }
            _ = shutdown.changed() => break,
        }
    }
    // Dropping the tasks stops them.
    drop((analysis, review));
}

async fn send(socket: &mut WebSocket, text: &str) -> Result<(), axum::Error> {
    socket.send(Message::Text(text.to_string().into())).await
}

/// The current position as a message.
fn current(server: &Server, game: &Game) -> String {
    let state = game.lock();
    match game.position(server, &state, None) {
        Ok(p) => Event::Position { position: Box::new(p) }.text(),
        Err(e) => Event::Error { message: e.message().to_string() }.text(),
    }
}

/// The game after `ply` plies (the current position when `None`).
fn game_at(game: &Game, ply: Option<i64>) -> Result<(AnyGame, usize), String> {
    let state = game.lock();
    let plies = state.game.plies();
    let ply = match ply {
        None => plies,
        Some(k) if k >= 0 && k as u64 <= plies as u64 => k as usize,
        Some(k) => return Err(format!("ply {k}: expected 0 to {plies}")),
    };
    let mut shown = state.game.clone();
    shown.undo(plies - ply);
    Ok((shown, ply))
}

/// Starts an analysis of the position after `ply` plies with `multipv` lines.
fn start_analysis(
    server: &Arc<Server>,
    game: &Arc<Game>,
    multipv: Option<i64>,
    ply: Option<i64>,
    id: u64,
    tx: mpsc::UnboundedSender<Update>,
) -> Result<Task, String> {
    let lines = multipv.unwrap_or(1);
    if !(1..=MAX_LINES).contains(&lines) {
        return Err(format!("multipv {lines}: expected 1 to {MAX_LINES}"));
    }
    let (shown, ply) = game_at(game, ply)?;
    let stop = Arc::new(AtomicBool::new(false));
    let task = Task { id, stop: Arc::clone(&stop) };
    let (server, number) = (Arc::clone(server), game.number);
    tokio::spawn(async move {
        let Some(mut slot) = wait_for_slot(&server, &tx, id, "analysis", &stop).await else { return };
        let _ = tokio::task::spawn_blocking(move || {
            // Its own table, apart from the game's moves (a different key than any game's).
            let engine = slot.engine_for(u64::MAX - number);
            engine.set_level(Level::Max, 0);
            engine.set_multipv(lines as usize);
            let started = Instant::now();
            let mut report = |depth: u32, nodes: u64, lines: Vec<AnalysisLine>, done: bool| {
                let time = started.elapsed().as_millis() as u64;
                let _ = tx.send((id, Event::Analysis { ply, depth, nodes, time, lines, done }));
            };
            report(0, 0, Vec::new(), false);
            with_record!(&shown, r => analyse(r, &shown, engine, &stop, &mut report));
            engine.set_multipv(1);
        })
        .await;
    });
    Ok(task)
}

/// Searches a record's position until stopped or [`ANALYSIS_CAP`], reporting every finished
/// iteration, then once more with `done`.
fn analyse<G: Notation>(
    record: &Record<G>,
    game: &AnyGame,
    engine: &mut Searcher,
    stop: &AtomicBool,
    report: &mut dyn FnMut(u32, u64, Vec<AnalysisLine>, bool),
) {
    let root = record.position();
    let white = game.to_move() == Color::White;
    let to_lines = |lines: &[crate::search::RootLine<G::Move>]| -> Vec<AnalysisLine> {
        lines
            .iter()
            .map(|line| {
                let pv = format_line(root, &line.pv);
                let score = if white { line.score } else { -line.score };
                let arrows = view::line_ends(game, &pv[..pv.len().min(ARROWS)]);
                AnalysisLine { score, mate: mate_in(score), pv, arrows }
            })
            .collect()
    };
    let mut on_iteration = |r: &Report<G::Move>| report(r.depth, r.nodes, to_lines(&r.lines), false);
    let result = engine.search(root, Limits::time(ANALYSIS_CAP), stop, &mut on_iteration);
    if !stop.load(SeqCst) {
        report(result.depth, result.nodes, to_lines(&result.lines), true);
    }
}

/// Moves to a forced end for a mate score (White's view): positive when White mates.
fn mate_in(score: i32) -> Option<i32> {
    if !is_mate_score(score) {
        return None;
    }
    let plies = MATE - score.abs();
    let moves = (plies + 1) / 2;
    Some(if score > 0 { moves.max(1) } else { -moves.max(1) })
}

/// A search slot for a task (`what`: "analysis", "review"), telling its socket while it waits;
/// `None` if the server is stopping or the task was stopped meanwhile.
async fn wait_for_slot(
    server: &Server,
    tx: &mpsc::UnboundedSender<Update>,
    id: u64,
    what: &str,
    stop: &AtomicBool,
) -> Option<Slot> {
    let slots = server.slots.count();
    let slot = server
        .slots
        .take(|| {
            let message = format!("all {slots} search slots are busy; the {what} waits for one");
            let _ = tx.send((id, Event::Waiting { message }));
        })
        .await?;
    (!stop.load(SeqCst)).then_some(slot)
}

/// Starts a review of the whole game, one ply after another.
fn start_review(server: &Arc<Server>, game: &Arc<Game>, id: u64, tx: mpsc::UnboundedSender<Update>) -> Task {
    let whole = game.lock().game.clone();
    let stop = Arc::new(AtomicBool::new(false));
    let task = Task { id, stop: Arc::clone(&stop) };
    let server = Arc::clone(server);
    tokio::spawn(async move {
        let Some(slot) = wait_for_slot(&server, &tx, id, "review", &stop).await else { return };
        let _ = tokio::task::spawn_blocking(move || {
            let limits = Limits { depth: Some(REVIEW_DEPTH), time: Some(REVIEW_TIME), nodes: None };
            let mut plies = Vec::new();
            let _ = tx.send((id, Event::Review { plies: Vec::new(), done: false }));
            let finished = analyze::review_each(&whole, limits, &stop, &mut |review| {
                plies.push(review_ply(&review));
                let _ = tx.send((id, Event::Review { plies: plies.clone(), done: false }));
            });
            if finished {
                let _ = tx.send((id, Event::Review { plies, done: true }));
            }
            drop(slot);
        })
        .await;
    });
    task
}

/// A reviewed ply as the page shows it: the score after it from White's view, capped as the
/// review caps losses.
fn review_ply(review: &analyze::PlyReview) -> ReviewPly {
    let (score, class, best) = match &review.verdict {
        Verdict::Forced => (None, None, None),
        Verdict::Book => (None, Some("book"), None),
        Verdict::Scored(s) => {
            let mover = s.played_score.clamp(-analyze::SCORE_CAP, analyze::SCORE_CAP);
            let white = if review.side == Color::White { mover } else { -mover };
            (Some(white), Some(s.class().name()), Some(s.best.clone()))
        }
    };
    ReviewPly { ply: review.ply, text: review.played.clone(), score, class, best }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_count_moves_from_whites_view() {
        assert_eq!(mate_in(MATE - 1), Some(1));
        assert_eq!(mate_in(MATE - 3), Some(2));
        assert_eq!(mate_in(-(MATE - 2)), Some(-1));
        assert_eq!(mate_in(150), None);
    }
}
