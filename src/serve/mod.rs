//! `comb serve`: a board in the browser for both games, against comb or any UHP engine, with
//! live analysis and game review, and raw UHP over a WebSocket.
//!
//! The server runs on axum over tokio; tokio stays inside this module. The rules and the
//! search know nothing of async: every search runs on a blocking thread, takes one of the
//! search slots ([`slots`]) for as long as it runs, and reports through a channel.
//!
//! - [`routes`]: the HTTP routes, the Origin check and the embedded page;
//! - [`games`]: the games, their players and the moves of comb and of external engines;
//! - [`events`]: a game's events socket (positions, analysis, review);
//! - [`uhp_socket`]: `/uhp`, a `uhp::Session` per connection;
//! - [`json`]: the API's JSON; [`error`]: what can go wrong; [`web`]: the embedded files.

pub mod error;
pub mod events;
pub mod games;
pub mod json;
pub mod routes;
pub mod slots;
pub mod uhp_socket;
pub mod web;

pub use error::{ApiError, ServeError};

use crate::client::{split_words, EngineConfig, Limit};
use games::Game;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::SeqCst};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Most games kept at once (a new one beyond is refused until some are deleted).
pub const MAX_GAMES: usize = 1000;
/// The largest request body or WebSocket message accepted.
pub const MAX_MESSAGE: usize = 1 << 20;

/// What `comb serve` was asked for on the command line.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The address to listen on.
    pub host: IpAddr,
    /// The port (0: any free one).
    pub port: u16,
    /// Open the default browser at the page.
    pub open: bool,
    /// `--engine NAME=CMD` values.
    pub engines: Vec<String>,
}

/// The server's shared state.
pub struct Server {
    games: Mutex<HashMap<String, Arc<Game>>>,
    next_game: AtomicU64,
    /// The search slots.
    pub slots: slots::Slots,
    /// The external engines (each with its name).
    pub engines: Arc<Vec<EngineConfig>>,
    /// The address the server listens on.
    pub addr: SocketAddr,
    stopping: AtomicBool,
    shutdown: tokio::sync::watch::Sender<bool>,
}

impl Server {
    /// A server listening on `addr` with these engines and `slots` search slots.
    pub fn new(addr: SocketAddr, engines: Vec<EngineConfig>, slots: usize) -> Server {
        Server {
            games: Mutex::new(HashMap::new()),
            next_game: AtomicU64::new(1),
            slots: slots::Slots::new(slots),
            engines: Arc::new(engines),
            addr,
            stopping: AtomicBool::new(false),
            shutdown: tokio::sync::watch::channel(false).0,
        }
    }

    /// The engines' names.
    pub fn engine_names(&self) -> Vec<String> {
        self.engines.iter().map(|e| e.name.clone()).collect()
    }

    /// How many games are open.
    pub fn game_count(&self) -> usize {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// The game with this id.
    pub fn game(&self, id: &str) -> Result<Arc<Game>, ApiError> {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games.get(id).cloned().ok_or_else(|| ApiError::NotFound(format!("no game `{id}`")))
    }

    /// Adds a game made by `make` from its number.
    pub fn add_game(&self, make: impl FnOnce(u64) -> Game) -> Result<Arc<Game>, ApiError> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if games.len() >= MAX_GAMES {
            return Err(ApiError::Conflict(format!("{MAX_GAMES} games are open: delete some first")));
        }
        let game = Arc::new(make(self.next_game.fetch_add(1, SeqCst)));
        games.insert(game.id.clone(), Arc::clone(&game));
        Ok(game)
    }

    /// Removes a game, stopping its move in progress and ending its engines.
    pub fn remove_game(&self, id: &str) -> Result<(), ApiError> {
        let game = self
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id)
            .ok_or_else(|| ApiError::NotFound(format!("no game `{id}`")))?;
        let mut state = game.lock();
        state.deleted = true;
        state.interrupt();
        state.end_engines();
        Ok(())
    }

    /// Whether the server is stopping (Ctrl+C).
    pub fn is_stopping(&self) -> bool {
        self.stopping.load(SeqCst)
    }

    /// A receiver that changes to `true` when the server stops: long-lived sockets close.
    pub fn shutdown_signal(&self) -> tokio::sync::watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// Stops everything: moves in progress, engines, sockets.
    pub fn stop(&self) {
        self.stopping.store(true, SeqCst);
        let games: Vec<Arc<Game>> = self.games.lock().unwrap_or_else(|e| e.into_inner()).values().cloned().collect();
        for game in games {
            let mut state = game.lock();
            state.interrupt();
            state.end_engines();
        }
        let _ = self.shutdown.send(true);
    }
}

/// Reads `--engine NAME=CMD`: the command as the tournament's `cmd=` takes it (split into
/// words as a POSIX shell does).
pub fn engine_config(spec: &str) -> Result<EngineConfig, ServeError> {
    let Some((name, command)) = spec.split_once('=') else {
        return Err(ServeError::BadEngine(format!("{spec}: expected NAME=CMD")));
    };
    let name = name.trim();
    if name.is_empty() || name.contains(['\n', '\r', '"']) {
        return Err(ServeError::BadEngine(format!("{spec}: the name must be a word")));
    }
    let words = split_words(command)
        .ok_or_else(|| ServeError::BadEngine(format!("{spec}: an unbalanced quote or a backslash at the end")))?;
    let Some((program, args)) = words.split_first() else {
        return Err(ServeError::BadEngine(format!("{spec}: no command")));
    };
    let mut config = EngineConfig::new(program, args);
    config.name = name.to_string();
    config.limit = Limit::MoveTime(Duration::from_secs(1));
    Ok(config)
}

/// Runs `comb serve` until Ctrl+C: binds, prints the URL, serves.
pub fn run(options: ServeOptions) -> Result<(), ServeError> {
    let mut engines: Vec<EngineConfig> = Vec::new();
    for spec in &options.engines {
        let config = engine_config(spec)?;
        if engines.iter().any(|e| e.name == config.name) {
            return Err(ServeError::DuplicateEngine(config.name));
        }
        engines.push(config);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(ServeError::Io)?;
    let result = runtime.block_on(serve(options, engines));
    // Searches and engines were stopped; what is left (a thread finishing a search) is not
    // waited for long.
    runtime.shutdown_timeout(Duration::from_millis(500));
    result
}

async fn serve(options: ServeOptions, engines: Vec<EngineConfig>) -> Result<(), ServeError> {
    let wanted = SocketAddr::new(options.host, options.port);
    let listener = tokio::net::TcpListener::bind(wanted).await.map_err(|e| ServeError::Bind(wanted.to_string(), e))?;
    let addr = listener.local_addr().map_err(ServeError::Io)?;
    if !options.host.is_loopback() {
        eprintln!(
            "warning: listening on {} : anyone who can reach this address can use the engine and its search slots",
            options.host
        );
    }
    let server = Arc::new(Server::new(addr, engines, crate::uhp::cores()));
    // The Ctrl+C handler is in place before the URL is printed: `tokio::signal::ctrl_c` sets
    // its handler only when first polled, inside the server, and a Ctrl+C that came before
    // (even after the first requests were answered) killed the process without stopping it.
    let interrupted = interrupt_signal().map_err(ServeError::Io)?;
    let url = routes::url(addr);
    println!("comb serve: listening on {url}");
    if options.open {
        open_browser(&url);
    }
    let app = routes::router(Arc::clone(&server));
    let stopper = Arc::clone(&server);
    let signal = async move {
        interrupted.await;
        eprintln!("comb serve: stopping");
        stopper.stop();
    };
    axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
        .with_graceful_shutdown(signal)
        .await
        .map_err(ServeError::Io)
}

/// Ctrl+C (SIGINT), its handler set now: the future completes when it arrives.
#[cfg(unix)]
fn interrupt_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut interrupts = signal(SignalKind::interrupt())?;
    Ok(async move {
        interrupts.recv().await;
    })
}

/// Ctrl+C, its handler set now: the future completes when it arrives.
#[cfg(not(unix))]
fn interrupt_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    let mut interrupts = tokio::signal::windows::ctrl_c()?;
    Ok(async move {
        interrupts.recv().await;
    })
}

/// Opens `url` in the default browser; failing is only a warning.
fn open_browser(url: &str) {
    let (program, args): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    let spawned = std::process::Command::new(program)
        .args(&args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    let (program, url) = (program.to_string(), url.to_string());
    match spawned {
        // Reaped on a thread of its own, so that it leaves no zombie.
        Ok(mut child) => {
            std::thread::spawn(move || {
                if let Ok(status) = child.wait() {
                    if !status.success() {
                        eprintln!("warning: could not open a browser ({program} {status}); open {url} yourself");
                    }
                }
            });
        }
        Err(e) => eprintln!("warning: could not open a browser ({program}: {e}); open {url} yourself"),
    }
}
