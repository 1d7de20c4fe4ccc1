//! The HTTP routes: the embedded page, the JSON API, the WebSockets, and the checks every
//! request passes (its Origin, its size).
//!
//! The Origin rule: a request to `/api/…` or `/uhp` with no `Origin` header (a tool such as
//! curl) is served; one with an Origin is served only if that Origin is `http://` and its host
//! and port are the server's own: the port it listens on, and as host `localhost`,
//! `127.0.0.1`, `[::1]` or the address given with `--host`; when `--host` is an unspecified
//! address (`0.0.0.0`, `::`), also an IP address (never a name, so that DNS rebinding cannot
//! pass) equal to the request's `Host`. Anything else, `null` included, is refused with 403.

use super::error::ApiError;
use super::games::{self, Ending, Game, Seat, State};
use super::json::{self, NewGame, PlayRequest, Player, ResignRequest, UndoRequest};
use super::{events, uhp_socket, web, Server, MAX_MESSAGE};
use crate::game::{Color, Outcome};
use crate::games::{AnyGame, GameOptions};
use crate::hive::{GameType, Piece};
use crate::intellector::Rules;
use crate::search::Level;
use crate::show::view;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::ws::{rejection::WebSocketUpgradeRejection, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, Query, Request, State as AxumState};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::SystemTime;

type Shared = AxumState<Arc<Server>>;

/// The URL of the page for a server listening on `addr` (`localhost` for a loopback or
/// unspecified address).
pub fn url(addr: SocketAddr) -> String {
    match addr.ip() {
        ip if ip.is_loopback() || ip.is_unspecified() => format!("http://localhost:{}/", addr.port()),
        IpAddr::V4(ip) => format!("http://{ip}:{}/", addr.port()),
        IpAddr::V6(ip) => format!("http://[{ip}]:{}/", addr.port()),
    }
}

/// Every route of the server.
pub fn router(server: Arc<Server>) -> Router {
    let api = Router::new()
        .route("/api/info", get(info))
        .route("/api/games", axum::routing::post(create_game))
        .route("/api/games/{id}", get(get_game).delete(delete_game))
        .route("/api/games/{id}/moves", get(moves))
        .route("/api/games/{id}/play", axum::routing::post(play))
        .route("/api/games/{id}/undo", axum::routing::post(undo))
        .route("/api/games/{id}/resign", axum::routing::post(resign))
        .route("/api/games/{id}/pgn", get(pgn))
        .route("/api/games/{id}/events", get(events_socket))
        .route("/uhp", get(uhp))
        .route_layer(middleware::from_fn_with_state(Arc::clone(&server), check_origin));
    Router::new()
        .route("/", get(index))
        .route("/static/{*name}", get(static_file))
        .merge(api)
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_MESSAGE))
        .with_state(server)
}

async fn not_found() -> ApiError {
    ApiError::NotFound("no such page: the page is at /, the API under /api/".into())
}

async fn method_not_allowed() -> Response {
    let body = Json(serde_json::json!({ "error": "method not allowed on this path" }));
    (StatusCode::METHOD_NOT_ALLOWED, body).into_response()
}

/// Whether `origin` (an `Origin` header's value) is this server's own (see the module's rule).
pub fn origin_allowed(origin: &str, server: SocketAddr, host_header: Option<&str>) -> bool {
    let Some(rest) = origin.strip_prefix("http://") else { return false };
    let (host, port) = match rest.rsplit_once(':') {
        Some((h, p)) if !p.contains(']') => (h, p.parse::<u16>().ok()),
        _ => (rest, Some(80)),
    };
    if port != Some(server.port()) {
        return false;
    }
    let host_ip = host.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>().ok();
    if host.eq_ignore_ascii_case("localhost") || host_ip.is_some_and(|ip| ip.is_loopback()) {
        return true;
    }
    let bound = server.ip();
    match host_ip {
        Some(ip) if ip == bound => true,
        Some(ip) if bound.is_unspecified() => {
            // Only an address, compared with what the browser was pointed at.
            let expected = host_header.map(|h| h.rsplit_once(':').map_or(h, |(h, _)| h));
            let expected = expected.map(|h| h.trim_start_matches('[').trim_end_matches(']'));
            expected.and_then(|h| h.parse::<IpAddr>().ok()) == Some(ip)
        }
        _ => false,
    }
}

async fn check_origin(AxumState(server): Shared, request: Request, next: Next) -> Response {
    let headers = request.headers();
    if let Some(origin) = headers.get(header::ORIGIN) {
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        let allowed = origin.to_str().is_ok_and(|o| origin_allowed(o, server.addr, host));
        if !allowed {
            let shown = String::from_utf8_lossy(origin.as_bytes()).into_owned();
            return ApiError::Forbidden(format!(
                "origin `{shown}` refused: only pages served by this comb ({}) may use its API",
                super::routes::url(server.addr).trim_end_matches('/')
            ))
            .into_response();
        }
    }
    next.run(request).await
}

async fn index() -> Response {
    static_response("index.html")
}

async fn static_file(Path(name): Path<String>) -> Response {
    static_response(&name)
}

fn static_response(name: &str) -> Response {
    match web::file(name) {
        Some((bytes, content_type)) => {
            ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache")], bytes).into_response()
        }
        None => ApiError::NotFound(format!("no file `{name}`")).into_response(),
    }
}

/// A JSON body, or the error that names what is wrong with it.
fn body<T: DeserializeOwned>(bytes: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = bytes.map_err(|e| match e {
        BytesRejection::FailedToBufferBody(_) => {
            ApiError::TooLarge(format!("the body is over the limit of {MAX_MESSAGE} bytes"))
        }
        other => ApiError::BadRequest(format!("cannot read the body: {other}")),
    })?;
    let text = if bytes.iter().all(u8::is_ascii_whitespace) { &b"{}"[..] } else { &bytes[..] };
    serde_json::from_slice(text).map_err(|e| ApiError::BadRequest(format!("bad JSON body: {e}")))
}

/// The query's parameters, refusing any not in `known`.
fn query(
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
    known: &[&str],
) -> Result<HashMap<String, String>, ApiError> {
    let Query(map) = query.map_err(|e| ApiError::BadRequest(format!("bad query: {e}")))?;
    if let Some(unknown) = map.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(ApiError::BadRequest(format!("unknown query parameter `{unknown}`")));
    }
    Ok(map)
}

async fn info(AxumState(server): Shared) -> Json<serde_json::Value> {
    let mut game_types: Vec<String> = GameType::all().iter().map(|t| t.to_string()).collect();
    game_types.push("Intellector".into());
    let engines: Vec<serde_json::Value> =
        server.engine_names().into_iter().map(|name| serde_json::json!({ "name": name })).collect();
    Json(serde_json::json!({
        "version": env!("CARGO_PKG_VERSION"),
        "game_types": game_types,
        "intellector_rules": ["Modern", "Classic"],
        "levels": Level::ALL.iter().map(|l| l.name()).collect::<Vec<_>>(),
        "engines": engines,
        "search_slots": server.slots.count(),
        "searches_running": server.slots.busy(),
        "games": server.game_count(),
    }))
}

/// The game a start text gives: a game type, a GameString, or a game in Hive PGN (its last
/// position).
fn start_game(text: &str, options: GameOptions) -> Result<AnyGame, ApiError> {
    let trimmed = text.trim();
    if trimmed.starts_with('[') || trimmed.starts_with("1.") {
        let games = crate::pgn::parse_games(trimmed).map_err(|e| ApiError::BadRequest(format!("bad PGN: {e}")))?;
        let first = games.first().ok_or_else(|| ApiError::BadRequest("the PGN holds no game".into()))?;
        return first.game(options).map_err(|e| ApiError::BadRequest(format!("bad PGN: {e}")));
    }
    if trimmed.is_empty() {
        return Err(ApiError::BadRequest("start is empty: give a game type, a GameString or a PGN".into()));
    }
    options.start(trimmed).map_err(|e| ApiError::BadRequest(format!("start `{trimmed}`: {e}")))
}

/// The options a new game is set up with: Intellector's rules as asked (Modern unless asked),
/// the rest as the defaults.
fn parse_options(rules: Option<&str>) -> Result<GameOptions, ApiError> {
    let intellector_rules = match rules.map(str::to_ascii_lowercase).as_deref() {
        None | Some("modern") => Rules::Modern,
        Some("classic") => Rules::Classic,
        Some(_) => {
            return Err(ApiError::BadRequest(format!(
                "rules `{}`: expected Modern or Classic",
                rules.unwrap_or_default()
            )))
        }
    };
    Ok(GameOptions { intellector_rules, ..GameOptions::default() })
}

async fn create_game(AxumState(server): Shared, bytes: Result<Bytes, BytesRejection>) -> Result<Response, ApiError> {
    let request: NewGame = body(bytes)?;
    let options = parse_options(request.rules.as_deref())?;
    let game = start_game(&request.start, options)?;
    let names = server.engine_names();
    let white = games::seat(&request.white, &names).map_err(|e| ApiError::BadRequest(format!("white: {e}")))?;
    let black = games::seat(&request.black, &names).map_err(|e| ApiError::BadRequest(format!("black: {e}")))?;
    let state = State {
        game,
        options,
        players: [request.white, request.black],
        seats: [white, black],
        end: None,
        thinking: false,
        waiting: false,
        version: 0,
        stop: None,
        engines: [None, None],
        deleted: false,
        sockets: 0,
        created: SystemTime::now(),
    };
    let game = server.add_game(|n| Game::new(n, state))?;
    games::kick(&server, &game);
    let position = game.position(&server, &game.lock(), None)?;
    Ok((StatusCode::CREATED, Json(position)).into_response())
}

async fn get_game(
    AxumState(server): Shared,
    Path(id): Path<String>,
    q: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Json<json::Position>, ApiError> {
    let q = query(q, &["ply"])?;
    let ply = match q.get("ply") {
        None => None,
        Some(p) => Some(p.parse::<usize>().map_err(|_| ApiError::BadRequest(format!("ply `{p}`: not a ply count")))?),
    };
    let game = server.game(&id)?;
    let state = game.lock();
    game.position(&server, &state, ply).map(Json)
}

async fn moves(
    AxumState(server): Shared,
    Path(id): Path<String>,
    q: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Json<json::Moves>, ApiError> {
    let q = query(q, &["piece", "from"])?;
    let game = server.game(&id)?;
    let state = game.lock();
    let over = state.is_over();
    let all = if over { Vec::new() } else { view::legal_moves(&state.game) };
    let moves = match (q.get("piece"), q.get("from")) {
        (Some(_), Some(_)) => return Err(ApiError::BadRequest("give piece or from, not both".into())),
        (Some(piece), None) => {
            check_piece(&state.game, piece)?;
            all.into_iter().filter(|m| m.piece.as_deref() == Some(piece.as_str())).collect()
        }
        (None, Some(from)) => {
            if !view::is_cell_key(&state.game, from) {
                return Err(ApiError::BadRequest(format!("from `{from}`: not a cell of this board")));
            }
            all.into_iter().filter(|m| m.from.as_deref() == Some(from.as_str())).collect()
        }
        (None, None) => all,
    };
    Ok(Json(json::Moves { moves }))
}

/// Checks that `name` is a Hive piece of the side to move, in hand or on top of a stack.
fn check_piece(game: &AnyGame, name: &str) -> Result<(), ApiError> {
    let AnyGame::Hive(record) = game else {
        return Err(ApiError::BadRequest("Intellector pieces are chosen by their cell: use from=".into()));
    };
    let hive = record.hive();
    let piece = Piece::parse(name)
        .filter(|&p| hive.is_enabled(p) && p.to_string() == name)
        .ok_or_else(|| ApiError::BadRequest(format!("piece `{name}`: no such piece in {}", record.type_field())))?;
    let to_move = game.to_move();
    if piece.color() != to_move {
        return Err(ApiError::BadRequest(format!("piece `{name}` is {}'s; {to_move} is to move", piece.color())));
    }
    if hive.position(piece).is_some() && !hive.is_on_top(piece) {
        return Err(ApiError::BadRequest(format!("piece `{name}` is covered: only the top of a stack moves")));
    }
    Ok(())
}

/// Runs `change` on a game's state, then publishes the game and starts the next move.
fn change<T>(
    server: &Arc<Server>,
    id: &str,
    change: impl FnOnce(&mut State) -> Result<T, ApiError>,
) -> Result<Json<json::Position>, ApiError> {
    let game = server.game(id)?;
    {
        let mut state = game.lock();
        change(&mut state)?;
    }
    game.publish(server);
    games::kick(server, &game);
    let state = game.lock();
    game.position(server, &state, None).map(Json)
}

async fn play(
    AxumState(server): Shared,
    Path(id): Path<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Json<json::Position>, ApiError> {
    let request: PlayRequest = body(bytes)?;
    change(&server, &id, |state| {
        if state.is_over() {
            return Err(ApiError::Conflict("the game is over".into()));
        }
        let side = state.game.to_move();
        if state.seats[side.index()] != Seat::Human {
            return Err(ApiError::Conflict(format!("it is {side}'s move, and {side} is not played at this page")));
        }
        state.game.play(&request.text).map_err(|e| ApiError::BadRequest(format!("{}: {e}", request.text)))?;
        state.interrupt();
        Ok(())
    })
}

async fn undo(
    AxumState(server): Shared,
    Path(id): Path<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Json<json::Position>, ApiError> {
    let request: UndoRequest = body(bytes)?;
    change(&server, &id, |state| {
        let plies = state.game.plies();
        let n = request.plies.unwrap_or(1);
        if n < 1 || n as u64 > plies as u64 {
            return Err(ApiError::BadRequest(format!("plies {n}: expected 1 to {plies} (the plies played)")));
        }
        state.interrupt();
        state.game.undo(n as usize);
        state.end = None;
        Ok(())
    })
}

async fn resign(
    AxumState(server): Shared,
    Path(id): Path<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Json<json::Position>, ApiError> {
    let request: ResignRequest = body(bytes)?;
    let side = match request.side.as_str() {
        "White" => Color::White,
        "Black" => Color::Black,
        other => return Err(ApiError::BadRequest(format!("side `{other}`: expected White or Black"))),
    };
    change(&server, &id, |state| {
        if state.is_over() {
            return Err(ApiError::Conflict("the game is over".into()));
        }
        state.interrupt();
        state.end =
            Some(Ending { outcome: Outcome::Win(side.opponent()), reason: format!("{side} resigned"), message: None });
        Ok(())
    })
}

async fn delete_game(AxumState(server): Shared, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    let game = server.game(&id)?;
    server.remove_game(&id)?;
    game.publish(&server);
    Ok(StatusCode::NO_CONTENT)
}

/// A player's name in a PGN.
fn player_name(player: &Player) -> String {
    match player {
        Player::Human => "Human".into(),
        Player::Comb { level, seconds: Some(s) } => format!("comb {level} {s} s"),
        Player::Comb { level, seconds: None } => format!("comb {level}"),
        Player::Engine { name, .. } => name.clone(),
    }
}

async fn pgn(AxumState(server): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    let game = server.game(&id)?;
    let state = game.lock();
    let (y, m, d, ..) = crate::tournament::utc(state.created);
    let (result, comment) = match (&state.end, state.game.end()) {
        (Some(e), _) => (games::outcome_name(e.outcome).to_string(), e.reason.clone()),
        (None, Some((outcome, reason))) => (games::outcome_name(outcome).to_string(), reason.detail().to_string()),
        (None, None) => (state.game.state_string().to_string(), String::new()),
    };
    let tags = vec![
        ("GameType", state.game.type_field().to_string()),
        ("Date", format!("{y:04}.{m:02}.{d:02}")),
        ("Event", "comb serve".to_string()),
        ("Site", String::new()),
        ("Round", game.number.to_string()),
        ("White", player_name(&state.players[0])),
        ("Black", player_name(&state.players[1])),
        ("Result", result.clone()),
    ];
    let text = crate::pgn::format_game(&tags, state.game.move_strings(), &comment, &result);
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

/// A WebSocket upgrade, or a JSON error saying one was expected.
fn upgrade(ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>) -> Result<WebSocketUpgrade, ApiError> {
    ws.map(|ws| ws.max_message_size(MAX_MESSAGE).max_frame_size(MAX_MESSAGE))
        .map_err(|e| ApiError::BadRequest(format!("this is a WebSocket endpoint: {e}")))
}

async fn events_socket(
    AxumState(server): Shared,
    Path(id): Path<String>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let game = server.game(&id)?;
    let ws = upgrade(ws)?;
    Ok(ws.on_upgrade(move |socket| events::run(server, game, socket)))
}

async fn uhp(
    AxumState(server): Shared,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    _headers: HeaderMap,
) -> Result<Response, ApiError> {
    let ws = upgrade(ws)?;
    Ok(ws.on_upgrade(move |socket| uhp_socket::run(server, socket)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_origin_rule() {
        let local: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        for ok in ["http://localhost:8080", "http://127.0.0.1:8080", "http://[::1]:8080", "http://LOCALHOST:8080"] {
            assert!(origin_allowed(ok, local, None), "{ok}");
        }
        for bad in [
            "null",
            "http://localhost:8081",
            "http://localhost",
            "https://localhost:8080",
            "http://evil.example:8080",
            "http://192.168.1.5:8080",
            "http://localhost.evil.example:8080",
        ] {
            assert!(!origin_allowed(bad, local, None), "{bad}");
        }
        let any: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        assert!(origin_allowed("http://192.168.1.5:8080", any, Some("192.168.1.5:8080")));
        assert!(!origin_allowed("http://192.168.1.5:8080", any, Some("192.168.1.6:8080")));
        assert!(!origin_allowed("http://evil.example:8080", any, Some("evil.example:8080")));
        let lan: SocketAddr = "192.168.1.5:8080".parse().unwrap();
        assert!(origin_allowed("http://192.168.1.5:8080", lan, None));
    }
}
