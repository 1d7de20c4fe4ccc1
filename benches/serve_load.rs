//! Load figures for `comb serve` (a script, not a test: it prints figures and asserts none).
//!
//! `cargo bench --bench serve_load` starts a real `comb serve --port 0` and measures, with real
//! HTTP and WebSocket clients on localhost:
//! - the first board: the page and its files fetched, a game created (its position is what the
//!   page draws first);
//! - legal destinations: `GET …/moves?piece=…` in a Hive middle game and `?from=…` in
//!   Intellector;
//! - comb's reply at Easy and Medium: a move posted until comb's answer arrives on the game's
//!   events socket;
//! - 50 games at once, each a thread with its own events socket playing moves against comb
//!   Easy: move latency p50 / p99, errors, and the server's memory (VmRSS, VmHWM).
//!
//! `GAMES=N MOVES=M` change the last part's size (default 50 games of 20 moves each).

use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

const HIVE_MIDDLE_GAME: &str = "Base+MLP;InProgress;Black[11];wL;bP \\wL;wP /wL;bQ \\bP;wA1 -wP;bS1 -bQ;wQ \\wA1;bS1 -wQ;wG1 wL-;bL bQ/;wM wG1/;bG1 -bL;wA2 wG1\\;bM bL\\;wA3 wP\\;bB1 \\bS1;wA2 /bG1;bB1 bS1;wB1 wA3\\;bB1 wQ;wS1 wB1/";

struct Serve {
    child: Child,
    port: u16,
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Serve {
    fn start() -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_comb"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("comb serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().unwrap()).read_line(&mut line).unwrap();
        let port = line.trim().trim_end_matches('/').rsplit(':').next().unwrap().parse().unwrap();
        Serve { child, port }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn get(&self, agent: &ureq::Agent, path: &str) -> String {
        agent.get(&self.url(path)).call().expect("GET").into_string().unwrap()
    }

    fn post(&self, agent: &ureq::Agent, path: &str, body: &Value) -> Value {
        let text = agent.post(&self.url(path)).send_string(&body.to_string()).expect("POST").into_string().unwrap();
        serde_json::from_str(&text).unwrap()
    }

    fn socket(&self, id: &str) -> WebSocket<MaybeTlsStream<TcpStream>> {
        let (socket, _) = tungstenite::connect(format!("ws://127.0.0.1:{}/api/games/{id}/events", self.port)).unwrap();
        socket
    }

    /// VmRSS and VmHWM of the server, in MiB.
    fn memory(&self) -> (f64, f64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
                .map_or(f64::NAN, |kb| kb / 1024.0)
        };
        (field("VmRSS:"), field("VmHWM:"))
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// p50, p99 and max of some durations, in milliseconds.
fn percentiles(samples: &mut [Duration]) -> String {
    samples.sort();
    let at = |q: f64| ms(samples[((samples.len() - 1) as f64 * q).round() as usize]);
    format!("n={} p50={:.1} ms p99={:.1} ms max={:.1} ms", samples.len(), at(0.5), at(0.99), at(1.0))
}

/// Waits on an events socket for the position after `plies` plies with nobody thinking.
fn wait_reply(socket: &mut WebSocket<MaybeTlsStream<TcpStream>>, plies: u64) -> Result<Value, String> {
    loop {
        let text = match socket.read().map_err(|e| e.to_string())? {
            Message::Text(t) => t.to_string(),
            Message::Close(_) => return Err("closed".into()),
            _ => continue,
        };
        let event: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let position = &event["position"];
        let settled = event["type"] == "position" && position["thinking"] == false;
        if settled && (position["plies"] == plies || position["result"] != Value::Null) {
            return Ok(position.clone());
        }
    }
}

/// Plays `moves` moves against comb at `level` in a new game of `start`; returns the reply
/// latencies (posting the move until comb's answer arrives on the socket).
fn play_against(
    serve: &Serve,
    agent: &ureq::Agent,
    start: &str,
    level: &str,
    moves: usize,
    seed: u64,
) -> Result<Vec<Duration>, String> {
    let game = serve.post(
        agent,
        "/api/games",
        &json!({"start": start, "white": {"kind": "human"}, "black": {"kind": "comb", "level": level}}),
    );
    let id = game["id"].as_str().ok_or("no id")?.to_string();
    let mut socket = serve.socket(&id);
    let mut rng = seed | 1;
    let mut latencies = Vec::new();
    let mut plies = 0u64;
    for _ in 0..moves {
        let list: Value =
            serde_json::from_str(&serve.get(agent, &format!("/api/games/{id}/moves"))).map_err(|e| e.to_string())?;
        let list = list["moves"].as_array().cloned().unwrap_or_default();
        if list.is_empty() {
            break;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let mv = list[(rng % list.len() as u64) as usize]["move"].as_str().unwrap().to_string();
        let started = Instant::now();
        let after = serve.post(agent, &format!("/api/games/{id}/play"), &json!({ "move": mv }));
        if after.get("error").is_some() {
            return Err(format!("{mv}: {after}"));
        }
        let position = wait_reply(&mut socket, plies + 2)?;
        latencies.push(started.elapsed());
        plies = position["plies"].as_u64().unwrap_or(0);
        if position["result"] != Value::Null {
            break;
        }
    }
    let _ = agent.delete(&serve.url(&format!("/api/games/{id}"))).call();
    Ok(latencies)
}

fn main() {
    // `cargo bench` passes --bench; nothing else is read.
    let serve = Serve::start();
    let agent = ureq::AgentBuilder::new().build();
    println!(
        "comb serve load figures (port {}), {} cores",
        serve.port,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );

    // First board: the page, its files, a new game.
    let index = serve.get(&agent, "/");
    let mut files: Vec<String> =
        index.split(['"', '\'']).filter(|s| s.starts_with("/static/")).map(str::to_string).collect();
    // The modules the scripts import (`from "./board.js"`) are fetched before the board is drawn.
    let mut i = 0;
    while i < files.len() {
        if files[i].ends_with(".js") {
            let script = serve.get(&agent, &files[i]);
            for import in script.split('"').filter(|s| s.starts_with("./") && s.ends_with(".js")) {
                files.push(format!("/static/{}", &import[2..]));
            }
        }
        i += 1;
    }
    files.sort();
    files.dedup();
    let mut first = Vec::new();
    for _ in 0..20 {
        let fresh = ureq::AgentBuilder::new().build();
        let started = Instant::now();
        serve.get(&fresh, "/");
        for f in &files {
            serve.get(&fresh, f);
        }
        let game = serve.post(
            &fresh,
            "/api/games",
            &json!({"start": "Base+MLP", "white": {"kind": "human"}, "black": {"kind": "human"}}),
        );
        first.push(started.elapsed());
        let _ = fresh.delete(&serve.url(&format!("/api/games/{}", game["id"].as_str().unwrap()))).call();
    }
    println!("first board (page + {} files + new game): {}", files.len(), percentiles(&mut first));

    // Legal destinations.
    let hive = serve.post(
        &agent,
        "/api/games",
        &json!({"start": HIVE_MIDDLE_GAME, "white": {"kind": "human"}, "black": {"kind": "human"}}),
    );
    let id = hive["id"].as_str().unwrap();
    let mut hive_moves = Vec::new();
    for piece in ["bA1", "bA2", "bQ", "bB1", "bL", "bM", "bG1"].iter().cycle().take(210) {
        let started = Instant::now();
        serve.get(&agent, &format!("/api/games/{id}/moves?piece={piece}"));
        hive_moves.push(started.elapsed());
    }
    println!("legal destinations, Hive middle game (?piece=): {}", percentiles(&mut hive_moves));
    let intellector = serve.post(
        &agent,
        "/api/games",
        &json!({"start": "Intellector", "white": {"kind": "human"}, "black": {"kind": "human"}}),
    );
    let id = intellector["id"].as_str().unwrap();
    let mut intellector_moves = Vec::new();
    for from in ["e1", "d1", "c1", "a1", "b2", "d2"].iter().cycle().take(210) {
        let started = Instant::now();
        serve.get(&agent, &format!("/api/games/{id}/moves?from={from}"));
        intellector_moves.push(started.elapsed());
    }
    println!("legal destinations, Intellector start (?from=): {}", percentiles(&mut intellector_moves));

    // comb's replies.
    for (start, name) in [("Base+MLP", "Hive"), ("Intellector", "Intellector")] {
        for level in ["Easy", "Medium"] {
            let mut all = Vec::new();
            for seed in 1..=5 {
                match play_against(&serve, &agent, start, level, 20, seed) {
                    Ok(l) => all.extend(l),
                    Err(e) => println!("  error: {e}"),
                }
            }
            println!("{level} reply, {name}: {}", percentiles(&mut all));
        }
    }

    // Many games at once.
    let games: usize = std::env::var("GAMES").ok().and_then(|g| g.parse().ok()).unwrap_or(50);
    let moves: usize = std::env::var("MOVES").ok().and_then(|m| m.parse().ok()).unwrap_or(20);
    let latencies = Arc::new(Mutex::new(Vec::new()));
    let errors = Arc::new(Mutex::new(Vec::new()));
    let peak = Arc::new(Mutex::new((0.0f64, 0.0f64)));
    let started = Instant::now();
    let serve = Arc::new(serve);
    let watcher = {
        let (serve, peak) = (Arc::clone(&serve), Arc::clone(&peak));
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = Arc::clone(&done);
        let handle = std::thread::spawn(move || {
            while !flag.load(std::sync::atomic::Ordering::SeqCst) {
                let (rss, hwm) = serve.memory();
                let mut p = peak.lock().unwrap();
                *p = (p.0.max(rss), hwm);
                drop(p);
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        (handle, done)
    };
    let threads: Vec<_> = (0..games)
        .map(|i| {
            let (serve, latencies, errors) = (Arc::clone(&serve), Arc::clone(&latencies), Arc::clone(&errors));
            std::thread::spawn(move || {
                let agent = ureq::AgentBuilder::new().build();
                match play_against(&serve, &agent, "Base+MLP", "Easy", moves, 1000 + i as u64) {
                    Ok(l) => latencies.lock().unwrap().extend(l),
                    Err(e) => errors.lock().unwrap().push(e),
                }
            })
        })
        .collect();
    for t in threads {
        let _ = t.join();
    }
    watcher.1.store(true, std::sync::atomic::Ordering::SeqCst);
    let _ = watcher.0.join();
    let mut latencies = latencies.lock().unwrap().clone();
    let errors = errors.lock().unwrap().clone();
    let (rss, hwm) = *peak.lock().unwrap();
    println!(
        "{games} games at once against Easy, {} moves in {:.1} s, {} errors: {}",
        latencies.len(),
        started.elapsed().as_secs_f64(),
        errors.len(),
        percentiles(&mut latencies)
    );
    for e in errors.iter().take(5) {
        println!("  error: {e}");
    }
    println!("server memory: peak VmRSS {rss:.0} MiB seen, VmHWM {hwm:.0} MiB");
}
