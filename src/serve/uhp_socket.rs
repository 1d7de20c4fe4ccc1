//! `/uhp`: raw UHP over a WebSocket, one [`Session`] per connection on a blocking thread of its
//! own, the very session that stdin drives, so the two transcripts cannot drift.
//!
//! On connecting, the client receives the `info` block (`id …`, capabilities, `ok`), as comb
//! prints it at start on stdout. Then each line of a text message is one command, and each
//! command's reply is one message: exactly the text comb writes on stdout for it, every line
//! ending in `\n`, up to and including `ok` (a blank line gets no reply, as on stdin; `exit`
//! closes the socket). A search takes a search slot for as long as it runs; one that runs
//! longer than [`CAP`] is stopped (it answers its best move so far), and so is the running
//! command when the socket closes.

use super::Server;
use crate::uhp::{Flow, Options, Session, Signals};
use axum::extract::ws::{Message, WebSocket};
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// The longest one command may run.
pub const CAP: Duration = Duration::from_secs(300);
/// How often the cap is checked.
const WATCH: Duration = Duration::from_millis(50);

/// Whether a command line searches or counts (and so takes a search slot).
fn searches(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or_default().to_ascii_lowercase();
    word == "bestmove" || word == "perft"
}

/// Serves one `/uhp` connection.
pub async fn run(server: Arc<Server>, mut socket: WebSocket) {
    let (commands, inbox) = std::sync::mpsc::channel::<String>();
    let (outbox, mut replies) = mpsc::unbounded_channel::<String>();
    let signals = Arc::new(Signals::default());
    let opened = Instant::now();
    // When the running command started, in milliseconds since `opened` plus one (0: idle).
    let started = Arc::new(AtomicU64::new(0));
    let handle = tokio::runtime::Handle::current();
    let (thread_signals, thread_started, thread_server) =
        (Arc::clone(&signals), Arc::clone(&started), Arc::clone(&server));
    let worker = tokio::task::spawn_blocking(move || {
        let mut session = Session::new(Vec::new(), Options::default(), thread_signals);
        session.info();
        let _ = outbox.send(take(&mut session));
        for line in inbox {
            let slot = if searches(&line) { thread_server.slots.take_blocking(&handle) } else { None };
            thread_started.store(opened.elapsed().as_millis() as u64 + 1, SeqCst);
            let flow = session.execute(&line);
            thread_started.store(0, SeqCst);
            drop(slot);
            let reply = take(&mut session);
            if flow == Flow::Exit {
                break;
            }
            if !reply.is_empty() && outbox.send(reply).is_err() {
                break;
            }
        }
    });
    let mut shutdown = server.shutdown_signal();
    let mut watch = tokio::time::interval(WATCH);
    loop {
        tokio::select! {
            message = socket.recv() => match message {
                Some(Ok(Message::Text(text))) => {
                    for line in text.lines() {
                        if line.trim().eq_ignore_ascii_case("exit") {
                            // As on stdin: a command still running is stopped.
                            signals.exit_stops.store(true, SeqCst);
                            signals.stop.store(true, SeqCst);
                        }
                        let _ = commands.send(line.to_string());
                    }
                }
                Some(Ok(Message::Binary(_))) => {
                    let reply = "err Send UHP commands as text messages.\nok\n".to_string();
                    if socket.send(Message::Text(reply.into())).await.is_err() { break }
                }
                Some(Ok(_)) => {}
                None | Some(Err(_)) => break,
            },
            reply = replies.recv() => match reply {
                Some(text) => if socket.send(Message::Text(text.into())).await.is_err() { break },
                // The session ended (`exit`).
                None => {
                    let _ = socket.send(Message::Close(None)).await;
                    break;
                }
            },
            _ = watch.tick() => {
                let since = started.load(SeqCst);
                if since > 0 && opened.elapsed().as_millis() as u64 + 1 - since > CAP.as_millis() as u64 {
                    signals.stop.store(true, SeqCst);
                }
            }
            _ = shutdown.changed() => break,
        }
    }
    // The connection is gone: stop the running command and every queued one.
    signals.exit_stops.store(true, SeqCst);
    signals.stop.store(true, SeqCst);
    drop(commands);
    let _ = worker.await;
}

/// The session's output since the last call, as text.
fn take(session: &mut Session<Vec<u8>>) -> String {
    let bytes = std::mem::take(session.output_mut());
    String::from_utf8_lossy(&bytes).into_owned()
}
