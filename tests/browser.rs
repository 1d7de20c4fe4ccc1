//! Browser tests of `comb serve`'s page: a real `comb serve` on a free port, driven through
//! headless Chromium by chromedriver (Debian's `chromium` and `chromium-driver`; `.ci/run`
//! installs them). Every move is made as a person makes it: a click on a piece (in a tray or
//! on the board), then a click on one of the highlighted cells.
//!
//! When the browser cannot start these tests fail, never skip: set `COMB_CHROMIUM` and
//! `COMB_CHROMEDRIVER` to use other paths than /usr/bin/chromium and /usr/bin/chromedriver.
//! The screenshots go to target/browser-screenshots/; with `COMB_UPDATE_SCREENSHOTS=1` they
//! are also copied to docs/, where the README shows them.

use fantoccini::actions::{InputSource, MouseActions, PointerAction, WheelAction, WheelActions, MOUSE_BUTTON_LEFT};
use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The longest wait for anything the page should show (a generous bound, not a timing assert).
const PATIENCE: Duration = Duration::from_secs(30);

/// A Base+MLP middle game whose last moves put Black's Beetle on White's Queen.
const HIVE_MIDDLE_GAME: &str = "Base+MLP;InProgress;Black[11];wL;bP \\wL;wP /wL;bQ \\bP;wA1 -wP;bS1 -bQ;wQ \\wA1;bS1 -wQ;wG1 wL-;bL bQ/;wM wG1/;bG1 -bL;wA2 wG1\\;bM bL\\;wA3 wP\\;bB1 \\bS1;wA2 /bG1;bB1 bS1;wB1 wA3\\;bB1 wQ;wS1 wB1/";

/// A child process (and, for chromedriver, its process group) killed when dropped.
struct Killed {
    child: Child,
    /// The child leads a process group of its own, to be killed whole.
    group: bool,
}

impl Drop for Killed {
    fn drop(&mut self) {
        // The group first, so that no Chromium outlives its chromedriver. Only a real group
        // id: killpg(0) or a negative pid would reach far more than this test's processes.
        if let Ok(pid) = libc::pid_t::try_from(self.child.id()) {
            if self.group && pid > 1 {
                // SAFETY: killpg only sends a signal; `pid` leads the group spawned below.
                unsafe { libc::killpg(pid, libc::SIGKILL) };
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `comb serve`, a chromedriver and a browser session on the page.
struct Page {
    client: Client,
    base: String,
    _server: Killed,
    _driver: Killed,
    _profile: TempDir,
}

/// A directory removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

/// Starts `comb serve --port 0 ARGS` and reads the URL it prints.
fn start_server(args: &[&str]) -> (Killed, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_comb"))
        .args(["serve", "--port", "0"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("comb serve starts");
    let stdout = child.stdout.take().expect("its stdout");
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).expect("comb serve prints its URL");
    let url = line.trim().rsplit(' ').next().unwrap_or_default().trim_end_matches('/').to_string();
    assert!(url.starts_with("http://"), "comb serve printed {line:?}");
    (Killed { child, group: false }, url)
}

/// Starts chromedriver on a free port in a process group of its own.
fn start_driver() -> (Killed, u16) {
    use std::os::unix::process::CommandExt;
    let program = std::env::var("COMB_CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into());
    let port = free_port();
    let child = Command::new(&program)
        .arg(format!("--port={port}"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap_or_else(|e| {
            panic!("the browser cannot start: {program}: {e} (install chromium and chromium-driver, as .ci/run does)")
        });
    (Killed { child, group: true }, port)
}

impl Page {
    /// A fresh headless Chromium on a fresh `comb serve`, at its page.
    async fn open() -> Page {
        Page::open_with(&[]).await
    }

    /// The same, with `comb serve`'s arguments (`--engine …`).
    async fn open_with(args: &[&str]) -> Page {
        let (server, base) = start_server(args);
        let (driver, port) = start_driver();
        let profile = std::env::temp_dir().join(format!("comb-browser-{}-{}", std::process::id(), free_port()));
        std::fs::create_dir_all(&profile).expect("a profile directory");
        let binary = std::env::var("COMB_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": binary,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--hide-scrollbars", "--window-size=1280,940",
                    "--force-device-scale-factor=1", format!("--user-data-dir={}", profile.display()),
                ],
            }),
        );
        let driver_url = format!("http://127.0.0.1:{port}");
        // chromedriver takes a moment to listen.
        let start = Instant::now();
        let client = loop {
            let connector = hyper_util::client::legacy::connect::HttpConnector::new();
            match ClientBuilder::new(connector).capabilities(caps.clone()).connect(&driver_url).await {
                Ok(client) => break client,
                Err(e) if start.elapsed() < Duration::from_secs(20) => {
                    let _ = e;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(e) => panic!("the browser cannot start: {e} (chromium {binary})"),
            }
        };
        client.goto(&format!("{base}/")).await.expect("the page loads");
        let page = Page { client, base, _server: server, _driver: driver, _profile: TempDir(profile) };
        // The start screen (players, engines, version) is filled from the server's info after
        // the page loads; the version line is written last.
        page.until("document.getElementById('version').textContent !== ''", "the start screen filled").await;
        page
    }

    /// Evaluates a JavaScript expression in the page.
    async fn js(&self, expression: &str) -> Value {
        self.client.execute(&format!("return ({expression});"), vec![]).await.expect("the script runs")
    }

    /// Waits until a JavaScript expression is truthy; fails with `what` after PATIENCE.
    async fn until(&self, expression: &str, what: &str) {
        let start = Instant::now();
        loop {
            let value = self.js(expression).await;
            if value.as_bool() == Some(true) || (value.is_number() && value.as_f64() != Some(0.0)) {
                return;
            }
            if start.elapsed() > PATIENCE {
                let status = self.js("document.getElementById('status').textContent").await;
                panic!("waited in vain for {what} ({expression}); status: {status}");
            }
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }

    /// Waits for an element and returns it.
    async fn find(&self, css: &str) -> Element {
        self.client
            .wait()
            .at_most(PATIENCE)
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element {css}: {e}"))
    }

    /// Clicks the element `css` names. The page redraws parts of itself when the server's state
    /// arrives (the trays, the board), so the element found may be replaced before the click
    /// lands: then it is found again and clicked, as a person clicks what is there now.
    async fn click(&self, css: &str) {
        let start = Instant::now();
        loop {
            match self.find(css).await.click().await {
                Ok(()) => return,
                Err(e) if e.is_stale_element_reference() && start.elapsed() < PATIENCE => {
                    tokio::time::sleep(Duration::from_millis(40)).await;
                }
                Err(e) => panic!("cannot click {css}: {e}"),
            }
        }
    }

    /// Resigns as a person does: the button, then its confirmation.
    async fn resign(&self) {
        self.click("#resign").await;
        self.click("#resign.danger").await;
    }

    async fn count(&self, css: &str) -> usize {
        self.js(&format!("document.querySelectorAll({}).length", json!(css))).await.as_u64().unwrap_or(0) as usize
    }

    /// An element's text as shown (read in one go: the page redraws some parts often).
    async fn text(&self, css: &str) -> String {
        self.find(css).await;
        // innerText is HTML's (as shown); an SVG element has only its textContent.
        let value =
            self.js(&format!("(e => e.innerText ?? e.textContent)(document.querySelector({}))", json!(css))).await;
        value.as_str().unwrap_or_default().to_string()
    }

    /// Starts a game from the start screen: a game type or a pasted game, and both players
    /// as the player menus name them (`human`, `comb:Easy`, `engine:NAME`; `comb:Max:S` for
    /// Max with S seconds a move).
    async fn new_game(&self, game: Option<&str>, paste: Option<&str>, rules: Option<&str>, white: &str, black: &str) {
        self.find("#start:not([hidden]) #game-types input").await;
        if let Some(game) = game {
            self.click(&format!("#game-types input[value={}] + span", json!(game))).await;
        }
        if let Some(text) = paste {
            self.click("#paste-box summary").await;
            let area = self.find("#paste").await;
            // Typed as a person pastes: the value set at once, then an input event.
            self.client
                .execute(
                    "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));",
                    vec![serde_json::to_value(&area).expect("an element"), json!(text)],
                )
                .await
                .expect("the text is pasted");
        }
        if let Some(rules) = rules {
            self.click(&format!("#rules-row input[value={}]", json!(rules))).await;
        }
        for (side, player) in [("white", white), ("black", black)] {
            // `comb:Max:0.3` is comb at Max with 0.3 s a move, typed into the seconds box.
            let (player, seconds) = match player.strip_prefix("comb:Max:") {
                Some(seconds) => ("comb:Max", Some(seconds)),
                None => (player, None),
            };
            self.find(&format!("#{side}-player"))
                .await
                .select_by_value(player)
                .await
                .unwrap_or_else(|e| panic!("{side}: cannot choose {player}: {e}"));
            if let Some(seconds) = seconds {
                let field = self.find(&format!("#{side}-seconds")).await;
                field.clear().await.expect("the seconds box clears");
                field.send_keys(seconds).await.expect("the seconds are typed");
            }
        }
        self.click("#start-button").await;
        self.find("#game:not([hidden]) #board[data-family]").await;
    }

    /// The game's id, from the address (`#g1`).
    async fn game_id(&self) -> String {
        self.js("decodeURIComponent(location.hash.slice(1))").await.as_str().expect("an id").to_string()
    }

    /// The game's current position, from the API (what the test uses to choose its moves).
    fn api(&self, path: &str) -> Value {
        ureq::get(&format!("{}{path}", self.base)).call().expect("the API answers").into_json().expect("JSON")
    }

    /// Sends a request to the API as another program would (not through the page).
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let request = ureq::request(method, &format!("{}{path}", self.base));
        let response = match body {
            Some(body) => request.send_json(body),
            None => request.call(),
        };
        let text = response.unwrap_or_else(|e| panic!("{method} {path}: {e}")).into_string().expect("text");
        if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).expect("JSON")
        }
    }

    /// The board's viewBox as numbers.
    async fn view_box(&self) -> Vec<f64> {
        let text = self.js("document.getElementById('board').getAttribute('viewBox')").await;
        text.as_str().expect("a viewBox").split(' ').map(|n| n.parse().expect("a number")).collect()
    }

    /// The centre of an element in the window, in CSS pixels.
    async fn centre(&self, css: &str) -> (f64, f64) {
        let (x, y, w, h) = self.find(css).await.rectangle().await.expect("a rectangle");
        (x + w / 2.0, y + h / 2.0)
    }

    /// Plies in the page's move list.
    async fn plies_listed(&self) -> usize {
        self.count("#moves .ply").await - 1
    }

    /// Makes a move as a person: clicks the piece (`from` a board cell, or a piece in hand),
    /// waits for its destinations, clicks `to`. Waits until the move list has grown.
    async fn move_piece(&self, piece: &str, from: Option<&str>, to: &str) {
        let before = self.plies_listed().await;
        match from {
            Some(key) => self.click(&format!("#board .piece[data-key={}]", json!(key))).await,
            None => self.click(&format!(".tray .hand-piece[data-piece={}]", json!(piece))).await,
        }
        self.click(&format!("#board .dest[data-key={}]", json!(to))).await;
        self.until(&format!("document.querySelectorAll('#moves .ply').length - 1 > {before}"), "the move listed").await;
    }

    /// Saves a screenshot under target/browser-screenshots/ (and, for the README's `serve-*`
    /// pictures, under docs/ when asked).
    async fn screenshot(&self, name: &str) {
        // Let the last frame settle (fonts, shadows) before the picture is taken.
        tokio::time::sleep(Duration::from_millis(200)).await;
        let png = self.client.screenshot().await.expect("a screenshot");
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let dir = root.join("target").join("browser-screenshots");
        std::fs::create_dir_all(&dir).expect("the screenshot directory");
        std::fs::write(dir.join(name), &png).expect("the screenshot is written");
        if name.starts_with("serve-") && std::env::var_os("COMB_UPDATE_SCREENSHOTS").is_some() {
            std::fs::write(root.join("docs").join(name), &png).expect("the screenshot is copied to docs/");
        }
    }

    async fn close(self) {
        let Page { client, _server, _driver, _profile, .. } = self;
        let _ = client.close().await;
    }
}

/// The cell key of the Black Queen, and the keys of the cells around it, from a Position.
fn queen_neighbourhood(position: &Value, queen: &str) -> Option<(f64, f64)> {
    position["pieces"]
        .as_array()?
        .iter()
        .find(|p| p["piece"] == queen)
        .map(|p| (p["x"].as_f64().unwrap_or(0.0), p["y"].as_f64().unwrap_or(0.0)))
}

/// The move a simple-minded person would play to surround Black's Queen: onto a cell next to
/// it with a piece that is not next to it yet; else the move that ends nearest to it. Climbing
/// onto the Queen surrounds nothing, and a move the person has already played (`played` counts
/// them by piece and cell) is worth less each time, so that the person does not shuffle one
/// piece back and forth for ever.
fn choose_hive_move(position: &Value, moves: &[Value], played: &HashMap<String, u32>) -> Value {
    let queen = queen_neighbourhood(position, "bQ");
    let placed: HashMap<String, (f64, f64)> = position["pieces"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            (
                p["key"].as_str().unwrap_or_default().to_string(),
                (p["x"].as_f64().unwrap_or(0.0), p["y"].as_f64().unwrap_or(0.0)),
            )
        })
        .collect();
    let distance = |a: (f64, f64), b: (f64, f64)| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    let score = |m: &Value| -> f64 {
        let Some(q) = queen else { return 0.0 };
        let to = (m["x"].as_f64().unwrap_or(0.0), m["y"].as_f64().unwrap_or(0.0));
        let from = m["from"].as_str().and_then(|k| placed.get(k)).copied();
        let next_to = |p: (f64, f64)| distance(p, q) < 1.8;
        let mut s = -distance(to, q);
        if next_to(to) && !from.is_some_and(next_to) {
            s += 100.0;
        }
        if from.is_some_and(next_to) {
            s -= 50.0; // keep the ring closed
        }
        if m["piece"] == "wQ" {
            s -= 20.0;
        }
        if distance(to, q) < 0.5 {
            s -= 60.0;
        }
        s - 30.0 * f64::from(played.get(&move_key(m)).copied().unwrap_or(0))
    };
    moves
        .iter()
        .filter(|m| m["kind"] != "pass")
        .max_by(|a, b| score(a).total_cmp(&score(b)))
        .cloned()
        .unwrap_or_else(|| moves[0].clone())
}

/// A move's piece and destination, which `choose_hive_move` counts.
fn move_key(m: &Value) -> String {
    format!("{} {}", m["piece"].as_str().unwrap_or_default(), m["to"].as_str().unwrap_or_default())
}

/// The ply at which the scripted person, still unable to surround the Queen, resigns: comb
/// Easy draws its moves at random and may keep a game going that the person cannot win.
const GIVE_UP_AT_PLY: u64 = 200;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_hive_game_against_comb_easy() {
    let page = Page::open().await;
    page.new_game(Some("Base"), None, None, "human", "comb:Easy").await;
    let id = page.game_id().await;
    let mut moves_made = 0;
    let mut played = HashMap::new();
    loop {
        // Wait until it is the person's turn (or the game is over), on the server and on the page.
        let start = Instant::now();
        let position = loop {
            let p = page.api(&format!("/api/games/{id}"));
            let over = !matches!(p["state"].as_str(), Some("NotStarted" | "InProgress"));
            if over || (p["to_move"] == "White" && p["thinking"] == false) {
                break p;
            }
            assert!(start.elapsed() < PATIENCE, "comb Easy did not move");
            tokio::time::sleep(Duration::from_millis(30)).await;
        };
        let plies = position["plies"].as_u64().expect("plies");
        page.until(
            &format!("document.querySelectorAll('#moves .ply').length - 1 === {plies}"),
            "the page to show the position",
        )
        .await;
        if !matches!(position["state"].as_str(), Some("NotStarted" | "InProgress")) {
            break;
        }
        if plies >= GIVE_UP_AT_PLY {
            eprintln!("the person resigns after {plies} plies: {}", position["game_string"]);
            page.resign().await;
            page.until("document.querySelector('#result:not([hidden])') !== null", "the resignation shown").await;
            break;
        }
        if position["only_pass"] == true {
            page.click("#pass:not([hidden])").await;
            page.until(&format!("document.querySelectorAll('#moves .ply').length - 1 > {plies}"), "the pass listed")
                .await;
            continue;
        }
        let legal = page.api(&format!("/api/games/{id}/moves"));
        let legal = legal["moves"].as_array().expect("moves");
        let chosen = choose_hive_move(&position, legal, &played);
        *played.entry(move_key(&chosen)).or_insert(0) += 1;
        let piece = chosen["piece"].as_str().expect("a piece");
        page.move_piece(piece, chosen["from"].as_str(), chosen["to"].as_str().expect("a cell")).await;
        moves_made += 1;
    }
    let end = page.api(&format!("/api/games/{id}"));
    let headline = match end["state"].as_str() {
        Some("WhiteWins") => "White wins",
        Some("BlackWins") => "Black wins",
        _ => "Draw",
    };
    let result = page.text("#result:not([hidden])").await;
    assert!(result.starts_with(headline), "{result}");
    assert!(result.contains(end["result"]["reason"].as_str().expect("a reason")), "{result}");
    eprintln!("the game ended after {} plies: {}", end["plies"], end["game_string"]);
    assert!(moves_made >= 4, "{moves_made} moves");
    // A finished game offers no move: a click on a piece highlights nothing.
    assert_eq!(page.count("#board .dest").await, 0);
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_intellector_game_with_a_swap_and_a_promotion() {
    let page = Page::open().await;
    page.new_game(Some("Intellector"), None, Some("Modern"), "human", "human").await;
    assert_eq!(page.count("#board .cell").await, 59);
    assert_eq!(page.count("#board .piece").await, 28);
    // The Intellector-Defensor swap is offered as such and drawn as a two-headed arrow.
    page.click("#board .piece[data-key=\"e1\"]").await;
    page.find("#board .dest.swap[data-key=\"d1\"]").await;
    page.click("#board .dest.swap[data-key=\"d1\"]").await;
    page.until("document.querySelectorAll('#moves .ply').length - 1 === 1", "the swap listed").await;
    page.find("#board .arrow.last.swap").await;
    assert_eq!(page.js("document.querySelector('#board .piece[data-key=\"d1\"]').dataset.piece").await, "wI");
    assert_eq!(page.js("document.querySelector('#board .piece[data-key=\"e1\"]').dataset.piece").await, "wF");
    for (from, to) in [
        ("g6", "g5"),
        ("a2", "a3"),
        ("g5", "g4"),
        ("a3", "a4"),
        ("i6", "i5"),
        ("a4", "a5"),
        ("i5", "i4"),
        ("a5", "a6"),
        ("c6", "c5"),
    ] {
        page.move_piece("", Some(from), to).await;
    }
    // The Progressor on a6: a7 is a capture with four promotions, b6 a plain capture.
    page.click("#board .piece[data-key=\"a6\"]").await;
    page.find("#board .dest.promotion[data-key=\"a7\"]").await;
    assert_eq!(page.count("#board .dest").await, 2);
    assert_eq!(page.count("#board .dest.capture").await, 2);
    page.screenshot("serve-intellector.png").await;
    page.click("#board .dest[data-key=\"a7\"]").await;
    page.find("#chooser:not([hidden])").await;
    let choices: Vec<String> = page
        .js("[...document.querySelectorAll('#chooser button[data-move]')].map(b => b.dataset.move)")
        .await
        .as_array()
        .expect("choices")
        .iter()
        .map(|v| v.as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(choices, ["a6a7=D", "a6a7=A", "a6a7=F", "a6a7=L"]);
    page.click("#chooser button[data-move=\"a6a7=L\"]").await;
    page.until("document.querySelectorAll('#moves .ply').length - 1 === 11", "the promotion listed").await;
    page.until("document.querySelector('#board .piece[data-key=\"a7\"]')?.dataset.piece === 'wL'", "a Liberator on a7")
        .await;
    assert_eq!(page.text("#moves .ply[data-ply=\"11\"]").await, "a6a7=L");
    let id = page.game_id().await;
    let position = page.api(&format!("/api/games/{id}"));
    assert_eq!(position["moves"][10], "a6a7=L");
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loading_a_game_string_and_browsing_its_plies() {
    let page = Page::open().await;
    page.new_game(None, Some(HIVE_MIDDLE_GAME), None, "human", "human").await;
    assert_eq!(page.plies_listed().await, 21);
    // Black's Beetle on White's Queen: a stack of two, with what lies beneath.
    let stack = page.find("#board .piece[data-piece=\"bB1\"]").await;
    assert_eq!(stack.attr("data-height").await.expect("an attribute").as_deref(), Some("2"));
    assert_eq!(page.text("#board .piece[data-piece=\"bB1\"] .beneath").await, "on wQ");
    assert_eq!(page.text("#board .piece[data-piece=\"bB1\"] .height").await, "2");
    // 17 pieces on 16 cells; the trays hold the other 11 (4 White, 7 Black).
    assert_eq!(page.count("#board .piece").await, 16);
    assert_eq!(page.count("#tray-bottom .hand-piece").await, 4);
    assert_eq!(page.count("#tray-top .hand-piece").await, 7);
    assert_eq!(page.js("document.getElementById('tray-bottom').dataset.side").await, "White");
    // The GameString copied is the one loaded.
    page.click("#copy").await;
    assert_eq!(page.text("#toast:not([hidden])").await, format!("Copied: {HIVE_MIDDLE_GAME}"));
    // A click on ply 5 shows the position after it; the board is read-only there.
    page.click("#moves .ply[data-ply=\"5\"]").await;
    page.until("document.getElementById('board').dataset.ply === '5'", "ply 5 shown").await;
    assert_eq!(page.count("#board .piece").await, 5);
    page.find("#browsing:not([hidden])").await;
    page.click("#board .piece[data-piece=\"wA1\"]").await;
    assert_eq!(page.count("#board .dest").await, 0);
    page.click("#back-live").await;
    page.until("document.getElementById('board').dataset.ply === '21'", "the live position shown").await;
    // Flipping turns the board and swaps the trays.
    page.click("#flip").await;
    assert_eq!(page.js("document.getElementById('tray-bottom').dataset.side").await, "Black");
    page.click("#flip").await;
    // The PGN link gives the game's PGN.
    let href = page.find("#pgn").await.attr("href").await.expect("an attribute").expect("a link");
    let pgn = ureq::get(&format!("{}{href}", page.base)).call().expect("the PGN").into_string().expect("text");
    assert!(pgn.contains("bB1 wQ"), "{pgn}");
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn take_back_against_comb_then_resign() {
    let page = Page::open().await;
    page.new_game(Some("Base"), None, None, "human", "comb:Easy").await;
    page.move_piece("wS1", None, "0,0").await;
    // comb answers; the person takes back both plies.
    page.until("document.querySelectorAll('#moves .ply').length - 1 === 2", "comb's reply").await;
    page.until("document.querySelector('#status').textContent === 'White to move'", "the person's turn").await;
    page.click("#undo").await;
    page.until("document.querySelectorAll('#moves .ply').length - 1 === 0", "both plies taken back").await;
    assert_eq!(page.count("#board .piece").await, 0);
    assert_eq!(page.count("#tray-bottom .hand-piece[data-piece=\"wS1\"]").await, 1);
    // Play again, then resign: the result and its reason are shown.
    page.move_piece("wG1", None, "0,0").await;
    page.until("document.querySelectorAll('#moves .ply').length - 1 === 2", "comb's reply").await;
    page.resign().await;
    let result = page.text("#result:not([hidden])").await;
    assert!(result.starts_with("Black wins"), "{result}");
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_shows_lines_and_arrows_and_stops() {
    let page = Page::open().await;
    page.new_game(None, Some(HIVE_MIDDLE_GAME), None, "human", "human").await;
    page.click("label.switch").await;
    page.until("document.querySelectorAll('#lines li').length === 3", "three lines").await;
    page.until("document.querySelectorAll('#board .arrow.analysis').length >= 1", "the lines' arrows").await;
    let info = page.text("#analysis-info").await;
    assert!(info.starts_with("depth "), "{info}");
    let first = page.text("#lines li .pv").await;
    assert!(first.starts_with('b'), "Black to move: {first}");
    page.screenshot("serve-hive.png").await;
    page.click("label.switch").await;
    page.until("document.querySelectorAll('#lines li').length === 0", "the lines cleared").await;
    assert_eq!(page.text("#analysis-info").await, "Off");
    assert_eq!(page.count("#board .arrow.analysis").await, 0);
    // No analysis arrives once it is off.
    let events = page.js("Number(document.getElementById('analysis-info').dataset.events || 0)").await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(page.js("Number(document.getElementById('analysis-info').dataset.events || 0)").await, events);
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn review_shows_the_graph_and_the_classes() {
    let page = Page::open().await;
    let game = "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 wQ\\;bG1 bQ/;wA1 bG1/;bA1 bQ\\";
    page.new_game(None, Some(game), None, "human", "human").await;
    page.click("#review").await;
    page.until("document.getElementById('review-info').dataset.done === 'true'", "the review done").await;
    // A point per ply on the graph, a class for every ply in the move list (no ply here is
    // forced), and the count of each bad class in words.
    assert_eq!(page.count("#graph circle.point").await, 8);
    assert_eq!(page.count("#moves .ply[data-class]").await, 8);
    assert_eq!(page.count("#moves .ply .class-mark").await, 8);
    let info = page.text("#review-info").await;
    assert!(info.starts_with("Done: "), "{info}");
    page.screenshot("review.png").await;
    // A click on the graph shows that ply.
    page.click("#graph circle.point[data-ply=\"3\"]").await;
    page.until("document.getElementById('board').dataset.ply === '3'", "ply 3 shown").await;
    page.find("#browsing:not([hidden])").await;
    assert_eq!(page.count("#board .piece").await, 3);
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pass_is_offered_only_when_it_is_the_only_move() {
    // White has no move but to pass: every piece is pinned or boxed in, and no empty cell
    // touches White's pieces alone.
    let only_pass = r"Base;InProgress;White[7];wA1;bS1 wA1-;wQ -wA1;bQ bS1/;wQ \wA1;bA1 bS1\;wQ -wA1;bA2 bQ\;wQ \wA1;bA1 \wQ;wG1 /wQ;bA2 /wG1";
    let page = Page::open().await;
    page.new_game(None, Some(only_pass), None, "human", "human").await;
    page.find("#pass:not([hidden])").await;
    // No piece of White's has a move: a click on one highlights nothing.
    page.click("#board .piece[data-piece=\"wG1\"]").await;
    assert_eq!(page.text("#toast:not([hidden])").await, "wG1 has no legal move");
    assert_eq!(page.count("#board .dest").await, 0);
    page.click("#pass").await;
    page.until("document.querySelectorAll('#moves .ply').length - 1 === 13", "the pass listed").await;
    assert_eq!(page.text("#moves .ply[data-ply=\"13\"]").await, "pass");
    // Black has moves again: no pass offered.
    page.until("document.getElementById('pass').hidden", "the pass button hidden").await;
    let id = page.game_id().await;
    assert_eq!(page.api(&format!("/api/games/{id}"))["to_move"], "Black");
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_pans_and_zooms_by_mouse_and_still_plays_the_cell_clicked() {
    let page = Page::open().await;
    page.new_game(None, Some(HIVE_MIDDLE_GAME), None, "human", "human").await;
    let fitted = page.view_box().await;
    let (cx, cy) = page.centre("#board").await;

    // The wheel over the board zooms in about the pointer.
    let wheel = WheelActions::new("wheel".into()).then(WheelAction::Scroll {
        duration: None,
        x: cx as i64,
        y: cy as i64,
        delta_x: 0,
        delta_y: -120,
    });
    page.client.perform_actions(wheel).await.expect("the wheel turns");
    page.until(&format!("document.getElementById('board').viewBox.baseVal.width < {}", fitted[2]), "the zoom").await;
    let zoomed = page.view_box().await;
    assert!(zoomed[2] < fitted[2] && zoomed[3] < fitted[3], "zoomed in: {fitted:?} -> {zoomed:?}");

    // A drag pans: the picture follows the pointer, so the view moves the other way.
    let drag = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo { duration: None, x: cx, y: cy })
        .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
        .then(PointerAction::MoveBy { duration: Some(Duration::from_millis(100)), x: 40.0, y: 20.0 })
        .then(PointerAction::MoveBy { duration: Some(Duration::from_millis(100)), x: 40.0, y: 20.0 })
        .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
    page.client.perform_actions(drag).await.expect("the pointer drags");
    let panned = page.view_box().await;
    assert!(panned[0] < zoomed[0] && panned[1] < zoomed[1], "panned: {zoomed:?} -> {panned:?}");
    assert_eq!((panned[2], panned[3]), (zoomed[2], zoomed[3]), "a pan keeps the zoom");
    // A drag is not a click: nothing was chosen.
    assert_eq!(page.count("#board .dest").await, 0);

    // A move whose piece and destination both show on the moved board; clicked as a person,
    // it is the move played.
    let id = page.game_id().await;
    let legal = page.api(&format!("/api/games/{id}/moves"));
    let legal = legal["moves"].as_array().expect("moves");
    // Whether the first element `css` finds lies wholly inside the board's box.
    let visible = |css: String| {
        format!(
            "(() => {{ const b = document.getElementById('board').getBoundingClientRect(); \
             const e = document.querySelector({}); if (!e) return false; \
             const r = e.getBoundingClientRect(); \
             return r.left >= b.left && r.right <= b.right && r.top >= b.top && r.bottom <= b.bottom; }})()",
            json!(css)
        )
    };
    let mut chosen = None;
    for m in legal {
        let (Some(from), Some(to)) = (m["from"].as_str(), m["to"].as_str()) else { continue };
        let alone = legal.iter().filter(|o| o["from"] == m["from"] && o["to"] == m["to"]).count() == 1;
        let piece = format!("#board .piece[data-key={}]", json!(from));
        let cell = format!("#board .empty[data-key={to}], #board .piece[data-key={to}]", to = json!(to));
        if alone && page.js(&visible(piece)).await == true && page.js(&visible(cell)).await == true {
            chosen = Some(m.clone());
            break;
        }
    }
    let chosen = chosen.expect("a move on the visible board");
    let (from, to) = (chosen["from"].as_str().unwrap(), chosen["to"].as_str().unwrap());
    page.move_piece("", Some(from), to).await;
    assert_eq!(page.view_box().await, panned, "playing keeps the person's view");
    let position = page.api(&format!("/api/games/{id}"));
    assert_eq!(position["moves"][21], chosen["move"]);
    assert_eq!((position["last_move"]["from"].as_str(), position["last_move"]["to"].as_str()), (Some(from), Some(to)));

    // The fit button shows the whole board again.
    page.click("#zoom-fit").await;
    let refit = page.view_box().await;
    assert!(refit[2] > panned[2], "fitted again: {panned:?} -> {refit:?}");
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_says_when_a_move_waits_for_a_search_slot() {
    let page = Page::open().await;
    // Every search slot busy: comb at Max, a minute a move, in games no page shows.
    let slots = page.api("/api/info")["search_slots"].as_u64().expect("slots");
    let busy: Vec<String> = (0..slots)
        .map(|_| {
            let game = page.call(
                "POST",
                "/api/games",
                Some(json!({"start": "Base", "white": {"kind": "comb", "level": "Max", "seconds": 60}, "black": {"kind": "human"}})),
            );
            game["id"].as_str().expect("an id").to_string()
        })
        .collect();
    let start = Instant::now();
    while page.api("/api/info")["searches_running"].as_u64() != Some(slots) {
        assert!(start.elapsed() < PATIENCE, "the slots did not fill");
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    page.new_game(Some("Base"), None, None, "human", "comb:Easy").await;
    page.move_piece("wS1", None, "0,0").await;
    let banner = page.text("#status #waiting").await;
    assert_eq!(banner, format!("Waiting for a free search slot ({slots} busy)"));
    page.screenshot("waiting.png").await;
    // The slots free up: comb answers and the banner goes.
    for id in &busy {
        page.call("DELETE", &format!("/api/games/{id}"), None);
    }
    page.until("document.querySelectorAll('#moves .ply').length - 1 === 2", "comb's reply").await;
    page.until("document.getElementById('waiting') === null", "the banner gone").await;
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn intellector_with_the_classic_rules_chosen_on_the_start_screen() {
    let page = Page::open().await;
    page.new_game(Some("Intellector"), None, Some("Classic"), "human", "human").await;
    let title = page.text("#title").await;
    assert!(title.starts_with("Intellector (Classic)"), "{title}");
    let id = page.game_id().await;
    let position = page.api(&format!("/api/games/{id}"));
    assert_eq!(position["rules"], "Classic");
    // Under the Classic rules the Liberator only jumps: the page highlights exactly the
    // destinations comb's Classic rules give, fewer than the Modern rules' steps and jumps.
    let liberator = position["pieces"]
        .as_array()
        .expect("pieces")
        .iter()
        .find(|p| p["color"] == "White" && p["bug"] == "L")
        .expect("a white Liberator");
    let key = liberator["key"].as_str().expect("a cell");
    let destinations = |moves: &Value| -> Vec<String> {
        let mut to: Vec<String> = moves["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| m["to"].as_str().unwrap_or_default().to_string())
            .collect();
        to.sort();
        to
    };
    let classic = destinations(&page.api(&format!("/api/games/{id}/moves?from={key}")));
    let modern_game = page.call(
        "POST",
        "/api/games",
        Some(
            json!({"start": "Intellector", "rules": "Modern", "white": {"kind": "human"}, "black": {"kind": "human"}}),
        ),
    );
    let modern =
        destinations(&page.api(&format!("/api/games/{}/moves?from={key}", modern_game["id"].as_str().unwrap())));
    assert!(classic.len() < modern.len() && classic.iter().all(|c| modern.contains(c)), "{classic:?} {modern:?}");
    page.click(&format!("#board .piece[data-key={}]", json!(key))).await;
    page.until(&format!("document.querySelectorAll('#board .dest').length === {}", classic.len()), "the destinations")
        .await;
    let shown: Vec<String> = page
        .js("[...document.querySelectorAll('#board .dest')].map(d => d.dataset.key).sort()")
        .await
        .as_array()
        .expect("keys")
        .iter()
        .map(|k| k.as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(shown, classic);
    // A jump, played by clicks, is recorded under the Classic rules.
    if let Some(to) = classic.first() {
        page.click(&format!("#board .dest[data-key={}]", json!(to))).await;
        page.until("document.querySelectorAll('#moves .ply').length - 1 === 1", "the jump listed").await;
        let after = page.api(&format!("/api/games/{id}"));
        assert_eq!((after["plies"].as_u64(), after["rules"].as_str()), (Some(1), Some("Classic")));
    }
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_chosen_on_the_start_screen_plays_and_one_that_crashes_says_so() {
    let comb = format!("comb-uhp='{}'", env!("CARGO_BIN_EXE_comb"));
    let crash = format!("fake-crash=bash '{}/tests/fake_engine.sh' crash", env!("CARGO_MANIFEST_DIR"));
    let page = Page::open_with(&["--engine", &comb, "--engine", &crash]).await;
    let offered: Vec<String> = page
        .js("[...document.querySelectorAll('#black-player option')].map(o => o.textContent)")
        .await
        .as_array()
        .expect("options")
        .iter()
        .map(|o| o.as_str().unwrap_or_default().to_string())
        .collect();
    assert!(offered.ends_with(&["comb-uhp (engine)".to_string(), "fake-crash (engine)".to_string()]), "{offered:?}");

    // comb as an external UHP engine: it answers the person's move.
    page.new_game(Some("Base"), None, None, "human", "engine:comb-uhp").await;
    let title = page.text("#title").await;
    assert_eq!(title, "Base · Person vs comb-uhp");
    page.move_piece("wS1", None, "0,0").await;
    page.until("document.querySelectorAll('#moves .ply').length - 1 === 2", "the engine's reply").await;
    let id = page.game_id().await;
    let position = page.api(&format!("/api/games/{id}"));
    assert_eq!(position["players"]["black"], json!({"kind": "engine", "name": "comb-uhp"}));
    assert_eq!(page.text("#moves .ply[data-ply=\"2\"]").await, position["moves"][1].as_str().expect("a move"));

    // An engine that crashes on its first move loses, and the page says why.
    page.click("#new-game").await;
    page.new_game(Some("Base"), None, None, "human", "engine:fake-crash").await;
    page.move_piece("wS1", None, "0,0").await;
    let result = page.text("#result:not([hidden])").await;
    assert!(result.starts_with("White wins"), "{result}");
    assert_eq!(result.matches("fake-crash crashed (exited with code 3)").count(), 1, "said once: {result}");
    page.screenshot("engine-crashed.png").await;

    // comb at Max with the time typed on the start screen (the box allows what the server
    // accepts: up to a minute a move).
    page.click("#new-game").await;
    assert_eq!(page.js("document.getElementById('black-seconds').max").await, "60");
    page.new_game(Some("Base"), None, None, "human", "comb:Max:0.3").await;
    let id = page.game_id().await;
    assert_eq!(
        page.api(&format!("/api/games/{id}"))["players"]["black"],
        json!({"kind": "comb", "level": "Max", "seconds": 0.3})
    );
    page.move_piece("wS1", None, "0,0").await;
    page.until("document.querySelectorAll('#moves .ply').length - 1 === 2", "comb's reply").await;
    page.close().await;
}
