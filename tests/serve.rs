//! `comb serve` against real clients: a real `comb serve --port 0` process, a real HTTP client
//! (ureq) and a real WebSocket client (tungstenite). Every API call, bad inputs, the Origin
//! rule, the `/uhp` transcript against stdin's, analysis stopping with its socket, a game's
//! search and engines stopping with its last events socket, review, external engines that
//! fail, and Ctrl+C.
//!
//! Waits are bounded by a generous patience, never asserted as timings.

mod common;

use comb::zobrist::SplitMix64;
use common::{data, COMB};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};
use tungstenite::client::IntoClientRequest;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// The longest wait for anything the server should do.
const PATIENCE: Duration = Duration::from_secs(60);

/// A running `comb serve`, killed when dropped.
struct Serve {
    child: Child,
    port: u16,
    /// The lines it writes on standard error.
    errors: Receiver<String>,
}

impl Serve {
    fn start(args: &[&str]) -> Serve {
        Serve::start_with(args, &[])
    }

    /// Starts `comb serve --port 0 ARGS` with more environment variables; reads the URL it
    /// prints, and its standard error on a thread.
    fn start_with(args: &[&str], env: &[(&str, &str)]) -> Serve {
        let mut child = Command::new(COMB)
            .args(["serve", "--port", "0"])
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("comb serve starts");
        let stderr = child.stderr.take().expect("piped");
        let (tx, errors) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().expect("piped")).read_line(&mut line).expect("the URL line");
        let url = line.trim().strip_prefix("comb serve: listening on ").expect("the URL line").to_string();
        let port = url.trim_end_matches('/').rsplit(':').next().and_then(|p| p.parse().ok()).expect("a port");
        assert_eq!(url, format!("http://localhost:{port}/"));
        Serve { child, port, errors }
    }

    /// The next line on its standard error.
    fn next_error(&self) -> String {
        self.errors.recv_timeout(PATIENCE).expect("a line on standard error")
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn request(&self, method: &str, path: &str, body: Option<&str>, origin: Option<&str>) -> (u16, String) {
        let mut request = ureq::request(method, &self.url(path));
        if let Some(origin) = origin {
            request = request.set("Origin", origin);
        }
        let result = match body {
            Some(b) => request.set("Content-Type", "application/json").send_string(b),
            None => request.call(),
        };
        match result {
            Ok(r) => (r.status(), r.into_string().expect("a text body")),
            Err(ureq::Error::Status(code, r)) => (code, r.into_string().expect("a text body")),
            Err(e) => panic!("{method} {path}: {e}"),
        }
    }

    /// A GET of `path` exactly as written, over a plain TCP connection: its status and body.
    fn raw_get(&self, path: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("a connection");
        write!(stream, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n", self.port)
            .expect("the request is sent");
        let mut response = String::new();
        stream.read_to_string(&mut response).expect("the response");
        let status = response.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status line");
        let body = response.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
        (status, body)
    }

    fn get(&self, path: &str) -> (u16, Value) {
        let (status, text) = self.request("GET", path, None, None);
        (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("GET {path}: {e}: {text}")))
    }

    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, text) = self.request("POST", path, Some(&body.to_string()), None);
        (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("POST {path}: {e}: {text}")))
    }

    /// Creates a game and returns its first position.
    fn create(&self, body: Value) -> Value {
        let (status, position) = self.post("/api/games", &body);
        assert_eq!(status, 201, "{position}");
        position
    }

    /// Polls a game until `done` holds for its position.
    fn wait_for(&self, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let (status, position) = self.get(&format!("/api/games/{id}"));
            assert_eq!(status, 200);
            if done(&position) {
                return position;
            }
            assert!(Instant::now() < deadline, "waited too long for {what}: {position}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn socket(&self, path: &str) -> Socket {
        self.socket_with_origin(path, None).expect("the socket opens")
    }

    fn socket_with_origin(&self, path: &str, origin: Option<&str>) -> Result<Socket, tungstenite::Error> {
        let mut request = format!("ws://127.0.0.1:{}{path}", self.port).into_client_request()?;
        if let Some(origin) = origin {
            request.headers_mut().insert("Origin", origin.parse().expect("a header value"));
        }
        let (mut socket, _) = tungstenite::connect(request)?;
        if let MaybeTlsStream::Plain(stream) = socket.get_mut() {
            stream.set_read_timeout(Some(PATIENCE)).expect("a timeout");
        }
        Ok(socket)
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// The next text message of a socket.
fn next_text(socket: &mut Socket) -> String {
    loop {
        match socket.read().expect("a message") {
            Message::Text(text) => return text.to_string(),
            Message::Close(_) => panic!("the socket closed"),
            _ => {}
        }
    }
}

/// The next JSON message of a socket whose `type` is `kind`.
fn next_event(socket: &mut Socket, kind: &str) -> Value {
    loop {
        let event: Value = serde_json::from_str(&next_text(socket)).expect("JSON");
        if event["type"] == kind {
            return event;
        }
    }
}

fn human() -> Value {
    json!({"kind": "human"})
}

fn easy() -> Value {
    json!({"kind": "comb", "level": "Easy"})
}

/// The number of legal moves comb's rules give a position.
fn legal_count(game_string: &str) -> usize {
    let mut game = comb::games::GameOptions::default().start(game_string).unwrap();
    game.valid_moves().split(';').count()
}

#[test]
fn info_static_files_and_unknown_paths() {
    let serve = Serve::start(&[]);
    let (status, info) = serve.get("/api/info");
    assert_eq!(status, 200);
    assert_eq!(
        info["game_types"],
        json!(["Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP", "Intellector"])
    );
    assert_eq!(info["levels"], json!(["Easy", "Medium", "Hard", "Max"]));
    assert_eq!(info["intellector_rules"], json!(["Modern", "Classic"]));
    assert_eq!(info["engines"], json!([]));
    assert_eq!(info["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(info["searches_running"], 0);
    assert!(info["search_slots"].as_u64().unwrap() >= 1);

    let page = ureq::get(&serve.url("/")).call().expect("the page");
    assert_eq!(page.header("content-type"), Some("text/html; charset=utf-8"));
    assert!(page.into_string().unwrap().contains("<html"));
    let script = ureq::get(&serve.url("/static/app.js")).call().expect("the script");
    assert_eq!(script.header("content-type"), Some("text/javascript; charset=utf-8"));
    for path in
        ["/static/../Cargo.toml", "/static/%2e%2e/Cargo.toml", "/static/", "/static/nothing.js", "/nothing", "/api"]
    {
        let (status, body) = serve.request("GET", path, None, None);
        assert_eq!(status, 404, "{path}");
        assert!(serde_json::from_str::<Value>(&body).unwrap()["error"].is_string(), "{path}: {body}");
    }
    // Sent as written (an HTTP client would resolve the dots first): no path reaches a file.
    for path in [
        "/static/../Cargo.toml",
        "/static/../../../../etc/passwd",
        "/static/%2F..%2FCargo.toml",
        "/static/..%5cCargo.toml",
        "/static//etc/passwd",
        "/static/./app.js",
        "/static/%00",
        "//etc/passwd",
        "/../Cargo.toml",
        "/src/serve/web/app.js",
    ] {
        let (status, body) = serve.raw_get(path);
        assert_eq!(status, 404, "{path}: {body}");
        assert!(serde_json::from_str::<Value>(&body).unwrap()["error"].is_string(), "{path}: {body}");
    }
    let (status, body) = serve.request("PUT", "/api/info", Some("{}"), None);
    assert_eq!((status, body.as_str()), (405, r#"{"error":"method not allowed on this path"}"#));
}

/// Stops a server with Ctrl+C (SIGINT) and returns what it wrote on standard error.
fn interrupt(mut serve: Serve) -> Vec<String> {
    let kill = Command::new("kill").args(["-INT", &serve.child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    assert_eq!(serve.child.wait().unwrap().code(), Some(0));
    serve.errors.iter().collect()
}

#[test]
fn another_host_than_this_machine_is_warned_about() {
    let local = Serve::start(&[]);
    assert_eq!(local.get("/api/info").0, 200);
    assert_eq!(interrupt(local), ["comb serve: stopping"]);

    let everyone = Serve::start(&["--host", "0.0.0.0"]);
    assert_eq!(
        everyone.next_error(),
        "warning: listening on 0.0.0.0 : anyone who can reach this address can use the engine and its search slots"
    );
    assert_eq!(everyone.get("/api/info").0, 200);
    assert_eq!(interrupt(everyone), ["comb serve: stopping"]);
}

#[test]
fn ctrl_c_the_moment_the_url_is_printed_stops_the_server() {
    // The handler is set before the URL is printed, so no request has to come first (without
    // it, this interrupt killed the process every time).
    for _ in 0..5 {
        assert_eq!(interrupt(Serve::start(&[])), ["comb serve: stopping"]);
    }
}

#[test]
fn open_starts_the_browser_at_the_url_or_says_to_open_it() {
    use std::os::unix::fs::PermissionsExt;
    // A browser opener that notes the URL it is given, then fails.
    let dir = common::temp_dir("serve", "open");
    let opened = dir.join("opened");
    let opener = dir.join("xdg-open");
    std::fs::write(&opener, format!("#!/bin/sh\nprintf '%s\\n' \"$@\" > '{}'\nexit 3\n", opened.display())).unwrap();
    std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = dir.display().to_string();
    let serve = Serve::start_with(&["--open"], &[("PATH", &path)]);
    let url = format!("http://localhost:{}/", serve.port);
    assert_eq!(
        serve.next_error(),
        format!("warning: could not open a browser (xdg-open exit status: 3); open {url} yourself")
    );
    assert_eq!(std::fs::read_to_string(&opened).unwrap(), format!("{url}\n"));
    assert_eq!(serve.get("/api/info").0, 200, "the server goes on");
    drop(serve);

    // No opener at all: a warning, and the server goes on.
    std::fs::remove_file(&opener).unwrap();
    let serve = Serve::start_with(&["--open"], &[("PATH", &path)]);
    let url = format!("http://localhost:{}/", serve.port);
    assert_eq!(
        serve.next_error(),
        format!(
            "warning: could not open a browser (xdg-open: No such file or directory (os error 2)); open {url} yourself"
        )
    );
    assert_eq!(serve.get("/api/info").0, 200, "the server goes on");
}

#[test]
fn a_hive_game_against_comb_through_every_call() {
    let serve = Serve::start(&[]);
    let start = serve.create(json!({"start": "Base+MLP", "white": human(), "black": easy()}));
    let id = start["id"].as_str().unwrap().to_string();
    assert_eq!(start["family"], "Hive");
    assert_eq!(start["game_string"], "Base+MLP;NotStarted;White[1]");
    assert_eq!((start["state"].as_str(), start["to_move"].as_str()), (Some("NotStarted"), Some("White")));
    assert_eq!((start["ply"].as_u64(), start["plies"].as_u64()), (Some(0), Some(0)));
    assert_eq!(start["players"], json!({"white": {"kind": "human"}, "black": {"kind": "comb", "level": "Easy"}}));
    assert_eq!((start["orientation"].as_str(), start["thinking"].as_bool()), (Some("pointy"), Some(false)));
    assert_eq!(start["hands"]["White"].as_array().unwrap().len(), 14);
    assert_eq!(start["pieces"], json!([]));

    let (status, all) = serve.get(&format!("/api/games/{id}/moves"));
    assert_eq!(status, 200);
    assert_eq!(all["moves"].as_array().unwrap().len(), legal_count("Base+MLP"));
    let (_, spider) = serve.get(&format!("/api/games/{id}/moves?piece=wS1"));
    assert_eq!(
        spider,
        json!({"moves": [{"move": "wS1", "piece": "wS1", "from": null, "to": "0,0", "x": 0.0, "y": 0.0,
                          "kind": "place", "promotion": null}]})
    );
    for (query, error) in [
        ("piece=bS1", "piece `bS1` is Black's; White is to move"),
        ("piece=wX1", "piece `wX1`: no such piece in Base+MLP"),
        ("piece=wS3", "piece `wS3`: no such piece in Base+MLP"),
        ("from=a1", "from `a1`: not a cell of this board"),
        ("piece=wS1&from=0,0", "give piece or from, not both"),
        ("colour=white", "unknown query parameter `colour`"),
    ] {
        let (status, body) = serve.get(&format!("/api/games/{id}/moves?{query}"));
        assert_eq!((status, body), (400, json!({ "error": error })), "{query}");
    }

    // A move, and comb's answer.
    let (status, after) = serve.post(&format!("/api/games/{id}/play"), &json!({"move": "wS1"}));
    assert_eq!(status, 200);
    assert_eq!(after["moves"], json!(["wS1"]));
    let replied = serve.wait_for(&id, "comb's reply", |p| p["plies"] == 2 && p["thinking"] == false);
    assert_eq!(replied["to_move"], "White");
    assert_eq!(replied["pieces"].as_array().unwrap().len(), 2);
    assert_eq!(replied["last_move"]["from"], Value::Null);

    // Illegal and malformed moves leave the game as it was.
    for (body, status, error) in [
        (json!({"move": "wQ"}), 400, "wQ: You can't move there because a piece already exists at that position."),
        (json!({"mov": "wQ"}), 400, "bad JSON body: unknown field `mov`, expected `move`"),
        (json!({"move": 3}), 400, "bad JSON body: invalid type: integer `3`, expected a string"),
    ] {
        let (got, answer) = serve.post(&format!("/api/games/{id}/play"), &body);
        assert_eq!(got, status, "{body}");
        assert!(answer["error"].as_str().unwrap().starts_with(error), "{body}: {answer}");
    }
    let (_, unchanged) = serve.get(&format!("/api/games/{id}"));
    assert_eq!(unchanged["game_string"], replied["game_string"]);

    // Browsing.
    let (_, first) = serve.get(&format!("/api/games/{id}?ply=1"));
    assert_eq!((first["ply"].as_u64(), first["plies"].as_u64()), (Some(1), Some(2)));
    assert_eq!(first["game_string"], "Base+MLP;InProgress;Black[1];wS1");
    let (status, body) = serve.get(&format!("/api/games/{id}?ply=3"));
    assert_eq!((status, body), (400, json!({"error": "ply 3: the game has 2 plies"})));
    let (status, body) = serve.get(&format!("/api/games/{id}?ply=x"));
    assert_eq!((status, body), (400, json!({"error": "ply `x`: not a ply count"})));

    // Undo: two plies back to the start; more than played is refused.
    let (status, body) = serve.post(&format!("/api/games/{id}/undo"), &json!({"plies": 3}));
    assert_eq!((status, body), (400, json!({"error": "plies 3: expected 1 to 2 (the plies played)"})));
    let (status, undone) = serve.post(&format!("/api/games/{id}/undo"), &json!({"plies": 2}));
    assert_eq!((status, undone["plies"].as_u64()), (200, Some(0)));

    // Resignation ends the game; a move after it is refused.
    let (status, body) = serve.post(&format!("/api/games/{id}/resign"), &json!({"side": "white"}));
    assert_eq!((status, body), (400, json!({"error": "side `white`: expected White or Black"})));
    let (status, resigned) = serve.post(&format!("/api/games/{id}/resign"), &json!({"side": "White"}));
    assert_eq!(status, 200);
    assert_eq!(resigned["state"], "BlackWins");
    assert_eq!(resigned["result"], json!({"outcome": "BlackWins", "reason": "White resigned"}));
    let (status, body) = serve.post(&format!("/api/games/{id}/play"), &json!({"move": "wS1"}));
    assert_eq!((status, body), (409, json!({"error": "the game is over"})));

    // PGN, read back by comb's PGN reader.
    let (status, pgn) = serve.request("GET", &format!("/api/games/{id}/pgn"), None, None);
    assert_eq!(status, 200);
    let games = comb::pgn::parse_games(&pgn).expect("comb reads its PGN");
    assert_eq!(games[0].game_type(), "Base+MLP");
    assert_eq!(
        (games[0].white(), games[0].black(), games[0].result()),
        (Some("Human"), Some("comb Easy"), Some("BlackWins"))
    );
    assert!(pgn.ends_with("{White resigned}\n\nBlackWins\n\n"), "{pgn}");

    // Delete.
    let (status, body) = serve.request("DELETE", &format!("/api/games/{id}"), None, None);
    assert_eq!((status, body.as_str()), (204, ""));
    let (status, body) = serve.get(&format!("/api/games/{id}"));
    assert_eq!((status, body), (404, json!({ "error": format!("no game `{id}`") })));
}

#[test]
fn intellector_pasted_games_and_bad_new_games() {
    let serve = Serve::start(&[]);
    let game = serve.create(json!({"start": "Intellector", "rules": "Classic", "white": human(), "black": human()}));
    assert_eq!((game["family"].as_str(), game["rules"].as_str()), (Some("Intellector"), Some("Classic")));
    assert_eq!((game["orientation"].as_str(), game["hands"].clone()), (Some("flat"), json!({})));
    assert_eq!((game["cells"].as_array().unwrap().len(), game["pieces"].as_array().unwrap().len()), (59, 28));
    let id = game["id"].as_str().unwrap();
    let (_, moves) = serve.get(&format!("/api/games/{id}/moves?from=e1"));
    let kinds: Vec<&str> = moves["moves"].as_array().unwrap().iter().map(|m| m["kind"].as_str().unwrap()).collect();
    assert!(kinds.contains(&"swap"), "{kinds:?}");
    let (status, body) = serve.get(&format!("/api/games/{id}/moves?piece=wI"));
    assert_eq!((status, body), (400, json!({"error": "Intellector pieces are chosen by their cell: use from="})));

    // A GameString and a PGN.
    let pasted =
        serve.create(json!({"start": "Base;InProgress;White[2];wS1;bS1 wS1-", "white": human(), "black": human()}));
    assert_eq!((pasted["plies"].as_u64(), pasted["to_move"].as_str()), (Some(2), Some("White")));
    let pgn = "[GameType \"Base\"]\n[Result \"InProgress\"]\n\n1. wS1\n2. bS1 wS1-\n3. wQ -wS1\n\nInProgress\n";
    let from_pgn = serve.create(json!({"start": pgn, "white": human(), "black": human()}));
    assert_eq!(from_pgn["game_string"], "Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1");

    for (body, error) in [
        (json!({"start": "Chess", "white": human(), "black": human()}), "start `Chess`: "),
        (json!({"start": "", "white": human(), "black": human()}), "start is empty"),
        (
            json!({"start": "Base", "rules": "New", "white": human(), "black": human()}),
            "rules `New`: expected Modern or Classic",
        ),
        (
            json!({"start": "Base", "white": {"kind": "robot"}, "black": human()}),
            "bad JSON body: unknown variant `robot`",
        ),
        (
            json!({"start": "Base", "white": {"kind": "comb", "level": "Expert"}, "black": human()}),
            "white: level `Expert`",
        ),
        (
            json!({"start": "Base", "white": {"kind": "comb", "level": "Easy", "seconds": 2}, "black": human()}),
            "white: seconds are for Max only",
        ),
        (
            json!({"start": "Base", "white": human(), "black": {"kind": "comb", "level": "Max", "seconds": 0}}),
            "black: seconds 0: expected 0.05 to 60",
        ),
        (
            json!({"start": "Base", "white": human(), "black": {"kind": "engine", "name": "nokamute"}}),
            "black: no engine `nokamute`: none was given with --engine",
        ),
        (json!({"white": human(), "black": human()}), "bad JSON body: missing field `start`"),
    ] {
        let (status, answer) = serve.post("/api/games", &body);
        assert_eq!(status, 400, "{body}");
        assert!(answer["error"].as_str().unwrap().starts_with(error), "{body}: {answer}");
    }

    // Not a person's turn: comb is White and thinks at once.
    let game = serve
        .create(json!({"start": "Base", "white": {"kind": "comb", "level": "Max", "seconds": 5}, "black": human()}));
    let id = game["id"].as_str().unwrap();
    let (status, body) = serve.post(&format!("/api/games/{id}/play"), &json!({"move": "wS1"}));
    assert_eq!((status, body), (409, json!({"error": "it is White's move, and White is not played at this page"})));
    // Undo stops the search in progress (and there is nothing to undo).
    let (status, _) = serve.post(&format!("/api/games/{id}/undo"), &json!({"plies": 1}));
    assert_eq!(status, 400);
    let (status, _) = serve.request("DELETE", &format!("/api/games/{id}"), None, None);
    assert_eq!(status, 204);
    let (_, info) = serve.get("/api/info");
    assert_eq!(info["games"], 3);
}

#[test]
fn the_origin_rule_and_the_size_limit() {
    let serve = Serve::start(&[]);
    let own = format!("http://localhost:{}", serve.port);
    for origin in [own.as_str(), &format!("http://127.0.0.1:{}", serve.port), &format!("http://[::1]:{}", serve.port)] {
        assert_eq!(serve.request("GET", "/api/info", None, Some(origin)).0, 200, "{origin}");
    }
    for origin in ["http://evil.example", "null", &format!("http://evil.example:{}", serve.port), "http://localhost:1"]
    {
        let (status, body) = serve.request("GET", "/api/info", None, Some(origin));
        assert_eq!(status, 403, "{origin}");
        let error: Value = serde_json::from_str(&body).unwrap();
        assert!(error["error"].as_str().unwrap().starts_with(&format!("origin `{origin}` refused")), "{body}");
        let refused = serve.socket_with_origin("/uhp", Some(origin));
        match refused {
            Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 403),
            other => panic!("{origin}: the socket was not refused: {:?}", other.map(|_| ())),
        }
    }
    assert!(serve.socket_with_origin("/uhp", Some(&own)).is_ok());
    // A game's events socket follows the same rule.
    let game = serve.create(json!({"start": "Base", "white": human(), "black": human()}));
    let events = format!("/api/games/{}/events", game["id"].as_str().unwrap());
    match serve.socket_with_origin(&events, Some("http://evil.example")) {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 403),
        other => panic!("the events socket was not refused: {:?}", other.map(|_| ())),
    }
    assert!(serve.socket_with_origin(&events, Some(&own)).is_ok());
    // The sockets' paths asked for as plain pages, and a socket for no game.
    for path in ["/uhp", events.as_str()] {
        let (status, body) = serve.request("GET", path, None, None);
        assert_eq!(status, 400, "{path}");
        let error: Value = serde_json::from_str(&body).unwrap();
        assert!(error["error"].as_str().unwrap().starts_with("this is a WebSocket endpoint"), "{path}: {body}");
    }
    match serve.socket_with_origin("/api/games/g999/events", None) {
        Err(tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 404);
            let body = response.body().as_deref().map(String::from_utf8_lossy).unwrap_or_default().into_owned();
            assert_eq!(body, r#"{"error":"no game `g999`"}"#);
        }
        other => panic!("a socket for no game was opened: {:?}", other.map(|_| ())),
    }

    let huge = format!(
        "{{\"start\":\"{}\",\"white\":{{\"kind\":\"human\"}},\"black\":{{\"kind\":\"human\"}}}}",
        "a".repeat(1 << 20)
    );
    let (status, body) = serve.request("POST", "/api/games", Some(&huge), None);
    assert_eq!((status, body.as_str()), (413, r#"{"error":"the body is over the limit of 1048576 bytes"}"#));
    let mut socket = serve.socket("/uhp");
    let _ = next_text(&mut socket);
    let _ = socket.send(Message::Text("a".repeat((1 << 20) + 1).into()));
    let closed = loop {
        match socket.read() {
            Ok(Message::Close(_)) | Err(_) => break true,
            Ok(_) => {}
        }
    };
    assert!(closed, "an over-long message closes the socket");
    let mut socket = serve.socket(&events);
    let _ = next_event(&mut socket, "position");
    let _ = socket.send(Message::Text("a".repeat((1 << 20) + 1).into()));
    let closed = loop {
        match socket.read() {
            Ok(Message::Close(_)) | Err(_) => break true,
            Ok(_) => {}
        }
    };
    assert!(closed, "an over-long message closes the events socket too");
    assert_eq!(serve.get("/api/info").0, 200, "the server goes on");
}

#[test]
fn at_most_a_thousand_games_are_kept() {
    let serve = Serve::start(&[]);
    let body = json!({"start": "Base", "white": human(), "black": human()});
    let agent = ureq::AgentBuilder::new().build();
    for _ in 0..1000 {
        let response = agent.post(&serve.url("/api/games")).send_json(&body).expect("a game");
        assert_eq!(response.status(), 201);
    }
    let (status, error) = serve.post("/api/games", &body);
    assert_eq!((status, error), (409, json!({"error": "1000 games are open: delete some first"})));
    let (status, _) = serve.request("DELETE", "/api/games/g1", None, None);
    assert_eq!(status, 204);
    assert_eq!(serve.create(body)["id"], "g1001");
    assert_eq!(serve.get("/api/info").1["games"], 1000);
}

#[test]
fn the_uhp_socket_answers_as_stdin_does() {
    let commands = [
        "options set MaxHelperThreads None",
        "info",
        "newgame Base+MLP",
        "play wS1",
        "validmoves",
        "bestmove depth 2",
        "play xx",
        "undo 5",
        "options get MultiPV",
        "newgame Intellector",
        "validmoves",
        "sip",
        "board",
        "perft 2",
        "help undo",
        "nonsense",
    ];
    let mut stdin = Command::new(COMB).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("comb starts");
    stdin.stdin.take().unwrap().write_all((commands.join("\n") + "\n").as_bytes()).unwrap();
    let mut expected = String::new();
    stdin.stdout.take().unwrap().read_to_string(&mut expected).unwrap();
    stdin.wait().unwrap();

    let serve = Serve::start(&[]);
    let mut socket = serve.socket("/uhp");
    let mut got = next_text(&mut socket);
    for command in commands {
        socket.send(Message::Text(command.into())).unwrap();
        got.push_str(&next_text(&mut socket));
    }
    // perft prints timings: compare without them.
    let untimed = |text: &str| -> String {
        text.lines().map(|l| l.split("  ").next().unwrap_or_default()).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(untimed(&got), untimed(&expected));
    assert!(got.ends_with("err Invalid command. Try 'help' to see a list of valid commands.\nok\n"), "{got}");
    socket.send(Message::Text("exit".into())).unwrap();
    assert!(matches!(socket.read(), Ok(Message::Close(_)) | Err(_)), "exit closes the socket");
}

/// Waits until no search runs on the server and returns how long that took.
fn wait_idle(serve: &Serve) -> Duration {
    wait_searches(serve, 0)
}

/// Waits until `count` searches run on the server and returns how long that took. A game
/// shows `thinking` as soon as its move is asked for; the search itself takes its slot a
/// moment later, on another task.
fn wait_searches(serve: &Serve, count: u64) -> Duration {
    let start = Instant::now();
    loop {
        let (_, info) = serve.get("/api/info");
        if info["searches_running"] == count {
            return start.elapsed();
        }
        assert!(start.elapsed() < PATIENCE, "expected {count} searches: {info}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn analysis_runs_live_and_stops_when_its_socket_closes() {
    let serve = Serve::start(&[]);
    let game = serve.create(json!({"start": "Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-", "white": human(), "black": human()}));
    let id = game["id"].as_str().unwrap();
    let mut socket = serve.socket(&format!("/api/games/{id}/events"));
    let first = next_event(&mut socket, "position");
    assert_eq!(first["position"]["game_string"], game["game_string"]);

    socket.send(Message::Text(json!({"type": "analyse", "on": true, "multipv": 9}).to_string().into())).unwrap();
    let error = next_event(&mut socket, "error");
    assert_eq!(error["message"], "multipv 9: expected 1 to 5");
    socket.send(Message::Text(r#"{"type":"dance"}"#.into())).unwrap();
    assert!(next_event(&mut socket, "error")["message"]
        .as_str()
        .unwrap()
        .starts_with("bad request: unknown variant `dance`"));

    socket
        .send(Message::Text(json!({"type": "analyse", "on": true, "multipv": 3, "ply": 4}).to_string().into()))
        .unwrap();
    let started = Instant::now();
    let mut updates = 0;
    let line = loop {
        let event = next_event(&mut socket, "analysis");
        updates += 1;
        assert_eq!(event["ply"], 4);
        if event["depth"].as_u64().unwrap() >= 3 && event["lines"].as_array().unwrap().len() == 3 {
            break event["lines"][0].clone();
        }
    };
    println!("{updates} analysis updates in {:?}", started.elapsed());
    assert!(!line["pv"].as_array().unwrap().is_empty() && line["score"].is_i64());
    let arrow = &line["arrows"][0];
    assert!(arrow["to"].is_string(), "{line}");
    assert_eq!(serve.get("/api/info").1["searches_running"], 1);

    drop(socket);
    println!("analysis stopped {:?} after its socket closed", wait_idle(&serve));
}

#[test]
fn review_scores_every_ply() {
    let serve = Serve::start(&[]);
    let game = serve.create(
        json!({"start": "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-", "white": human(), "black": human()}),
    );
    let id = game["id"].as_str().unwrap();
    let mut socket = serve.socket(&format!("/api/games/{id}/events"));
    socket.send(Message::Text(r#"{"type":"review"}"#.into())).unwrap();
    let done = loop {
        let event = next_event(&mut socket, "review");
        if event["done"] == true {
            break event;
        }
    };
    let plies = done["plies"].as_array().unwrap();
    let moves: Vec<&str> = plies.iter().map(|p| p["move"].as_str().unwrap()).collect();
    assert_eq!(moves, ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"]);
    for ply in plies {
        let class = ply["class"].as_str().unwrap();
        assert!(["best", "good", "inaccuracy", "mistake", "blunder"].contains(&class), "{ply}");
        assert!(ply["score"].as_i64().unwrap().abs() <= 1000);
    }
    // A review stops with its socket, too.
    socket.send(Message::Text(r#"{"type":"review"}"#.into())).unwrap();
    let _ = next_event(&mut socket, "review");
    drop(socket);
    wait_idle(&serve);
}

fn fake(mode: &str) -> String {
    format!("fake-{mode}=bash {} {mode}", data("tests/fake_engine.sh"))
}

#[test]
fn engines_that_fail_end_their_game_and_the_server_goes_on() {
    let engines = [fake("crash-later"), fake("illegal"), fake("hang")];
    let mut args = Vec::new();
    for e in &engines {
        args.extend(["--engine", e.as_str()]);
    }
    let serve = Serve::start(&args);
    let (_, info) = serve.get("/api/info");
    assert_eq!(info["engines"], json!([{"name": "fake-crash-later"}, {"name": "fake-illegal"}, {"name": "fake-hang"}]));

    // It plays a move, then crashes in the middle of the game.
    let game = serve
        .create(json!({"start": "Base", "white": {"kind": "engine", "name": "fake-crash-later"}, "black": human()}));
    let id = game["id"].as_str().unwrap();
    serve.wait_for(id, "the engine's first move", |p| p["plies"] == 1 && p["thinking"] == false);
    let (status, _) = serve.post(&format!("/api/games/{id}/play"), &json!({"move": "bS1 wS1-"}));
    assert_eq!(status, 200);
    let ended = serve.wait_for(id, "the crash", |p| p["state"] != "InProgress");
    assert_eq!(ended["state"], "BlackWins");
    assert_eq!(ended["message"], "fake-crash-later crashed (exited with code 3)");
    assert_eq!(ended["result"]["reason"], ended["message"]);

    let game = serve.create(json!({"start": "Base;InProgress;White[2];wS1;bS1 wS1-", "white": {"kind": "engine", "name": "fake-illegal"}, "black": human()}));
    let id = game["id"].as_str().unwrap();
    let ended = serve.wait_for(id, "the illegal move", |p| p["state"] != "InProgress");
    assert_eq!(ended["message"], "illegal move by fake-illegal: `pass` (You can't pass when you have valid moves.)");
    assert_eq!(ended["plies"], 2);

    let game = serve.create(
        json!({"start": "Base", "white": human(), "black": {"kind": "engine", "name": "fake-hang", "seconds": 0.05}}),
    );
    let id = game["id"].as_str().unwrap();
    serve.post(&format!("/api/games/{id}/play"), &json!({"move": "wS1"}));
    let ended = serve.wait_for(id, "the hang", |p| p["state"] != "InProgress");
    assert_eq!(ended["message"], "fake-hang timed out (no reply within 2.0 s)");
    // Taking the move back reopens the game.
    let (status, reopened) = serve.post(&format!("/api/games/{id}/undo"), &json!({}));
    assert_eq!(
        (status, reopened["state"].as_str(), reopened["message"].clone()),
        (200, Some("NotStarted"), Value::Null)
    );

    assert_eq!(serve.get("/api/info").0, 200);
}

/// The process ids of a process's children (started by any of its threads).
fn children(pid: u32) -> Vec<u32> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).map(|d| d.filter_map(Result::ok).collect::<Vec<_>>());
    let mut out = Vec::new();
    for task in tasks.unwrap_or_default() {
        let text = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        out.extend(text.split_whitespace().filter_map(|p| p.parse::<u32>().ok()));
    }
    out
}

#[test]
fn ctrl_c_stops_searches_and_ends_engines() {
    let hang = fake("hang");
    let mut serve = Serve::start(&["--engine", &hang]);
    let game = serve.create(
        json!({"start": "Base", "white": {"kind": "engine", "name": "fake-hang", "seconds": 60}, "black": human()}),
    );
    let id = game["id"].as_str().unwrap();
    let other = serve
        .create(json!({"start": "Base", "white": {"kind": "comb", "level": "Max", "seconds": 60}, "black": human()}));
    serve.wait_for(id, "the engine to think", |p| p["thinking"] == true);
    let deadline = Instant::now() + PATIENCE;
    while children(serve.child.id()).is_empty() {
        assert!(Instant::now() < deadline, "the engine did not start");
        std::thread::sleep(Duration::from_millis(10));
    }
    let engines = children(serve.child.id());
    serve.wait_for(other["id"].as_str().unwrap(), "comb to think", |p| p["thinking"] == true);
    let kill = Command::new("kill").args(["-INT", &serve.child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let status = serve.child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    for pid in engines {
        assert!(!alive(pid), "engine process {pid} is still running");
    }
}

/// Whether a process is running (it exists and is not a zombie waiting to be reaped).
fn alive(pid: u32) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    !stat.is_empty() && !stat.contains(") Z ")
}

/// Waits until the server runs some child process, and returns them.
fn wait_for_children(serve: &Serve, what: &str) -> Vec<u32> {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let running: Vec<u32> = children(serve.child.id()).into_iter().filter(|&p| alive(p)).collect();
        if !running.is_empty() {
            return running;
        }
        assert!(Instant::now() < deadline, "{what} did not start");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Waits until none of `pids` runs any more.
fn wait_ended(pids: &[u32], what: &str) {
    let deadline = Instant::now() + PATIENCE;
    while pids.iter().any(|&p| alive(p)) {
        assert!(Instant::now() < deadline, "{what} still runs: {pids:?}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn the_last_events_socket_closing_stops_the_games_search_and_ends_its_engines() {
    let (hang, later) = (fake("hang"), fake("crash-later"));
    let serve = Serve::start(&["--engine", &hang, "--engine", &later]);

    // comb at Max with a minute per move, shown on two pages.
    let game = serve
        .create(json!({"start": "Base", "white": {"kind": "comb", "level": "Max", "seconds": 60}, "black": human()}));
    let id = game["id"].as_str().unwrap();
    let events = format!("/api/games/{id}/events");
    let (first, second) = (serve.socket(&events), serve.socket(&events));
    serve.wait_for(id, "comb to think", |p| p["thinking"] == true);
    wait_searches(&serve, 1);
    // One page closes: the other still shows the game, so the search goes on.
    drop(first);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(serve.get("/api/info").1["searches_running"], 1);
    assert_eq!(serve.get(&format!("/api/games/{id}")).1["thinking"], true);
    // The last one closes: the search stops, the game stays as it was.
    drop(second);
    wait_idle(&serve);
    let parked = serve.wait_for(id, "the search to stop", |p| p["thinking"] == false);
    assert_eq!((parked["plies"].as_u64(), parked["state"].as_str()), (Some(0), Some("NotStarted")));
    assert_eq!(parked["message"], Value::Null);
    // A page opens it again (a reload): comb thinks again, until that page closes too.
    let again = serve.socket(&events);
    serve.wait_for(id, "comb to think again", |p| p["thinking"] == true);
    wait_searches(&serve, 1);
    drop(again);
    wait_idle(&serve);
    serve.request("DELETE", &format!("/api/games/{id}"), None, None);

    // An engine in the middle of its move: its process ends.
    let game = serve.create(
        json!({"start": "Base", "white": {"kind": "engine", "name": "fake-hang", "seconds": 60}, "black": human()}),
    );
    let id = game["id"].as_str().unwrap();
    let events = format!("/api/games/{id}/events");
    let socket = serve.socket(&events);
    serve.wait_for(id, "the engine to think", |p| p["thinking"] == true);
    let engines = wait_for_children(&serve, "the engine");
    drop(socket);
    wait_ended(&engines, "the engine");
    let parked = serve.wait_for(id, "the move to stop", |p| p["thinking"] == false);
    assert_eq!((parked["state"].as_str(), parked["message"].clone()), (Some("NotStarted"), Value::Null));
    wait_idle(&serve);
    // Opened again, the game starts a fresh engine for the move.
    let again = serve.socket(&events);
    serve.wait_for(id, "the engine to think again", |p| p["thinking"] == true);
    let fresh = wait_for_children(&serve, "the engine again");
    assert!(fresh.iter().all(|p| !engines.contains(p)), "{fresh:?} {engines:?}");
    drop(again);
    wait_ended(&fresh, "the fresh engine");
    serve.request("DELETE", &format!("/api/games/{id}"), None, None);

    // An engine waiting for the person's move: its process ends too.
    let game = serve
        .create(json!({"start": "Base", "white": {"kind": "engine", "name": "fake-crash-later"}, "black": human()}));
    let id = game["id"].as_str().unwrap();
    let socket = serve.socket(&format!("/api/games/{id}/events"));
    let played = serve.wait_for(id, "the engine's move", |p| p["plies"] == 1 && p["thinking"] == false);
    assert_eq!(played["moves"], json!(["wS1"]));
    let engines = wait_for_children(&serve, "the engine");
    drop(socket);
    wait_ended(&engines, "the idle engine");
    assert_eq!(serve.get(&format!("/api/games/{id}")).1["moves"], json!(["wS1"]));
}

/// The fuzzing below draws from the crate's own seeded generator.
trait Pick {
    /// One of `items`, uniformly.
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str;
    /// A random 64-bit number.
    fn next(&mut self) -> u64;
}

impl Pick for SplitMix64 {
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn next(&mut self) -> u64 {
        self.next_u64()
    }
}

/// A random body: a valid one, a mangled one, or noise.
fn random_body(rng: &mut SplitMix64) -> String {
    let valid = [
        r#"{"move":"wS1"}"#,
        r#"{"move":"bS1 wS1-"}"#,
        r#"{"move":"pass"}"#,
        r#"{"plies":1}"#,
        r#"{"plies":-9223372036854775808}"#,
        r#"{"plies":1e400}"#,
        r#"{"side":"Black"}"#,
        r#"{"start":"Base","white":{"kind":"human"},"black":{"kind":"human"}}"#,
        r#"{"start":"Intellector[zz]","white":{"kind":"human"},"black":{"kind":"human"}}"#,
        r#"{"start":"[GameType \"Base\"]\n\n1. wQ\n2. wQ","white":{"kind":"human"},"black":{"kind":"human"}}"#,
        r#"{"start":"Base","white":{"kind":"comb","level":"Max","seconds":1e308},"black":{"kind":"human"}}"#,
        "",
        "null",
        "[]",
        "\u{0}\u{ffff}",
    ];
    let base = rng.pick(&valid).to_string();
    match rng.next() % 4 {
        0 => base,
        1 => base.chars().take(rng.next() as usize % (base.len() + 1)).collect(),
        2 => {
            let mut bytes = base.into_bytes();
            if !bytes.is_empty() {
                let i = rng.next() as usize % bytes.len();
                bytes[i] = rng.next() as u8 % 128;
            }
            String::from_utf8_lossy(&bytes).into_owned()
        }
        _ => (0..rng.next() % 40).map(|_| (rng.next() % 95 + 32) as u8 as char).collect(),
    }
}

#[test]
fn random_requests_and_messages_never_break_the_server() {
    let serve = Serve::start(&[]);
    let game = serve.create(json!({"start": "Base", "white": human(), "black": human()}));
    let id = game["id"].as_str().unwrap().to_string();
    let mut rng = SplitMix64::new(0x2545_f491_4f6c_dd1d);
    let paths = [
        "/api/games",
        "/api/games/ID",
        "/api/games/ID/moves",
        "/api/games/ID/moves?piece=wQ",
        "/api/games/ID/moves?from=0,0",
        "/api/games/ID/moves?from=%ff",
        "/api/games/ID?ply=18446744073709551616",
        "/api/games/ID/play",
        "/api/games/ID/undo",
        "/api/games/ID/resign",
        "/api/games/ID/pgn",
        "/api/games/g999999/play",
        "/api/info",
        "/static/app.js",
    ];
    for _ in 0..1500 {
        let method = rng.pick(&["GET", "POST", "POST", "POST", "DELETE", "PUT"]);
        // The game itself is never deleted (other games are).
        let path = rng.pick(&paths).replace("ID", if method == "DELETE" { "g0" } else { &id });
        let body = random_body(&mut rng);
        let (status, text) = serve.request(method, &path, Some(&body), None);
        assert!(status < 500, "{method} {path} {body:?}: {status} {text}");
        if status >= 400 {
            let error: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{method} {path}: {text}"));
            assert!(error["error"].is_string(), "{text}");
        }
    }
    // The socket: random messages get errors, never a crash.
    let mut socket = serve.socket(&format!("/api/games/{id}/events"));
    let requests =
        [r#"{"type":"analyse","on":true,"multipv":2}"#, r#"{"type":"analyse","on":false}"#, r#"{"type":"review"}"#];
    for _ in 0..300 {
        let text = if rng.next().is_multiple_of(3) { rng.pick(&requests).to_string() } else { random_body(&mut rng) };
        socket.send(Message::Text(text.into())).unwrap();
    }
    drop(socket);
    let mut uhp = serve.socket("/uhp");
    for _ in 0..300 {
        uhp.send(Message::Text(
            format!(
                "{} {}",
                rng.pick(&["play", "newgame", "undo", "validmoves", "options set MultiPV"]),
                random_body(&mut rng)
            )
            .into(),
        ))
        .unwrap();
    }
    drop(uhp);
    wait_idle(&serve);
    assert_eq!(serve.get("/api/info").0, 200);
}
