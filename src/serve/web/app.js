// comb's board in the browser: the start screen, the game, analysis and review. Everything about
// the rules comes from the server (src/serve/); this page only shows it and sends clicks.

import { Board, el, handPiece, KIND_NAMES, LINE_COLOURS } from "./board.js";

const $ = (id) => document.getElementById(id);

/** What the page knows. */
const S = {
  info: null,
  id: null,
  live: null, // the game's current Position
  shown: null, // the Position on the board: the live one, or an earlier ply while browsing
  browsing: false,
  selected: null, // {piece, key} of the chosen piece
  dests: [], // the chosen piece's legal moves
  movable: null, // pieces (Hive) or cells (Intellector) that have a legal move now
  ws: null,
  wsPositions: 0, // position events received, to tell a stale HTTP answer from a fresh event
  analysis: null, // the last analysis event for the shown ply
  analysing: false,
  review: null, // the last review event
  reviewing: false,
  waiting: null, // the last "waiting for a search slot" message
  flipped: false,
};

// ------------------------------------------------------------------ Server

/** Calls the JSON API; throws an Error with the server's message on a 4xx or 5xx. */
async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!response.ok) {
    const message = data && data.error ? data.error : `${response.status} ${response.statusText}`;
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return data;
}

/** Opens the game's event socket, and opens it again if it drops while the game is shown. */
function connect() {
  const id = S.id;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(id)}/events`);
  S.ws = ws;
  ws.onopen = () => {
    if (S.analysing) sendAnalyse();
  };
  ws.onmessage = (event) => {
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch {
      return;
    }
    onEvent(msg);
  };
  ws.onclose = () => {
    if (S.ws === ws && S.id === id) setTimeout(() => S.id === id && S.ws === ws && connect(), 500);
  };
}

function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(msg));
}

function onEvent(msg) {
  switch (msg.type) {
    case "position":
      S.wsPositions++;
      setLive(msg.position);
      break;
    case "analysis": {
      // Counted, so that one can see that no analysis arrives once it is switched off.
      const info = $("analysis-info");
      info.dataset.events = Number(info.dataset.events || 0) + 1;
      if (!S.analysing || msg.ply !== S.shown.ply) return;
      S.analysis = msg;
      S.waiting = null;
      renderAnalysis();
      drawBoard();
      break;
    }
    case "review":
      S.review = msg;
      S.waiting = null;
      S.reviewing = !msg.done;
      renderReview();
      renderMoves();
      renderStatus();
      break;
    case "waiting":
      S.waiting = msg.message;
      renderStatus();
      break;
    case "error":
      toast(msg.message, true);
      break;
  }
}

// ------------------------------------------------------------------ Start screen

const LEVELS_DEFAULT = ["Easy", "Medium", "Hard", "Max"];

async function showStart() {
  closeGame();
  $("game").hidden = true;
  $("new-game").hidden = true;
  $("title").textContent = "";
  $("start").hidden = false;
  if (!S.info) {
    try {
      S.info = await api("GET", "/api/info");
    } catch (e) {
      showStartError(`The server did not answer: ${e.message}`);
      return;
    }
    fillStart();
  }
}

function fillStart() {
  const info = S.info;
  const types = $("game-types");
  types.replaceChildren();
  for (const type of info.game_types) {
    const label = document.createElement("label");
    label.className = "tile";
    const input = document.createElement("input");
    input.type = "radio";
    input.name = "game";
    input.value = type;
    input.checked = type === "Base+MLP";
    const name = document.createElement("span");
    name.textContent = type;
    const more = document.createElement("small");
    more.textContent = tileNote(type);
    name.appendChild(more);
    label.append(input, name);
    types.appendChild(label);
    input.addEventListener("change", updateStartForm);
  }
  for (const side of ["white", "black"]) {
    const select = $(`${side}-player`);
    select.replaceChildren();
    const add = (value, text) => {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = text;
      select.appendChild(option);
    };
    add("human", "Person");
    for (const level of info.levels || LEVELS_DEFAULT) add(`comb:${level}`, `comb · ${level}`);
    for (const engine of info.engines || []) add(`engine:${engine.name}`, `${engine.name} (engine)`);
    select.value = side === "white" ? "human" : "comb:Easy";
    select.addEventListener("change", updateStartForm);
  }
  $("paste").addEventListener("input", updateStartForm);
  $("version").textContent = `comb ${info.version} · ${info.search_slots} search slot${info.search_slots === 1 ? "" : "s"}`;
  updateStartForm();
}

/** A word under each game on the start screen: Hive's expansions, or Intellector's board. */
function tileNote(type) {
  if (type === "Intellector") return "59 hexes";
  const [, extra = ""] = type.split("+");
  const names = { M: "Mosquito", L: "Ladybug", P: "Pillbug" };
  return extra ? [...extra].map((c) => names[c] || c).join(", ") : "Hive, no expansion";
}

function pastedText() {
  return $("paste-box").open ? $("paste").value.trim() : "";
}

function updateStartForm() {
  const pasted = pastedText();
  const chosen = document.querySelector('input[name="game"]:checked');
  const intellector = pasted ? /intellector/i.test(pasted) : chosen && chosen.value === "Intellector";
  $("rules-row").hidden = !intellector;
  $("game-types").classList.toggle("disabled", !!pasted);
  for (const side of ["white", "black"]) {
    const max = $(`${side}-player`).value === "comb:Max";
    $(`${side}-player`).parentElement.querySelector(".seconds").hidden = !max;
  }
}

function playerFromForm(side) {
  const value = $(`${side}-player`).value;
  if (value === "human") return { kind: "human" };
  if (value.startsWith("comb:")) {
    const level = value.slice(5);
    const player = { kind: "comb", level };
    if (level === "Max") player.seconds = Number($(`${side}-seconds`).value) || 5;
    return player;
  }
  return { kind: "engine", name: value.slice(7) };
}

function showStartError(message) {
  const p = $("start-error");
  p.textContent = message;
  p.hidden = !message;
}

async function startGame(event) {
  event.preventDefault();
  showStartError("");
  const pasted = pastedText();
  const chosen = document.querySelector('input[name="game"]:checked');
  const body = {
    start: pasted || (chosen ? chosen.value : "Base+MLP"),
    white: playerFromForm("white"),
    black: playerFromForm("black"),
  };
  if (!$("rules-row").hidden) body.rules = document.querySelector('input[name="rules"]:checked').value;
  $("start-button").disabled = true;
  try {
    const position = await api("POST", "/api/games", body);
    openGame(position);
  } catch (e) {
    showStartError(e.message);
  } finally {
    $("start-button").disabled = false;
  }
}

// ------------------------------------------------------------------ The game

function openGame(position) {
  closeGame();
  S.id = position.id;
  S.live = null;
  S.review = null;
  S.reviewing = false;
  S.analysis = null;
  S.waiting = null;
  const players = position.players || {};
  // A person playing Black alone sees the board from Black's side.
  S.flipped = isHuman(players.black) && !isHuman(players.white);
  board.flipped = S.flipped;
  board.userView = false;
  history.replaceState(null, "", `#${encodeURIComponent(S.id)}`);
  $("start").hidden = true;
  $("game").hidden = false;
  $("new-game").hidden = false;
  $("pgn").href = `/api/games/${encodeURIComponent(S.id)}/pgn`;
  $("pgn").setAttribute("download", `comb-${S.id}.pgn`);
  setLive(position);
  connect();
}

function closeGame() {
  if (S.ws) {
    const ws = S.ws;
    S.ws = null;
    ws.close();
  }
  S.analysing = false;
  $("analyse").checked = false;
  S.id = null;
}

function isHuman(player) {
  return !player || player.kind === "human";
}

function playerName(player) {
  if (!player || player.kind === "human") return "Person";
  if (player.kind === "comb") return player.level === "Max" && player.seconds ? `comb Max ${player.seconds} s` : `comb ${player.level}`;
  return player.name;
}

function over(position) {
  return ["WhiteWins", "BlackWins", "Draw"].includes(position.state);
}

/** Whether a person may move on the board now. */
function canMove() {
  const p = S.shown;
  return !!p && !S.browsing && !over(p) && isHuman(p.players[p.to_move.toLowerCase()]) && !p.thinking;
}

/** A new current position from the server. */
function setLive(position) {
  const before = S.live;
  S.live = position;
  const changed = !before || before.game_string !== position.game_string;
  if (S.browsing && S.shown && S.shown.ply >= position.plies) S.browsing = false;
  if (!S.browsing) {
    const plyChanged = !S.shown || S.shown.ply !== position.ply || changed;
    S.shown = position;
    if (changed) clearSelection();
    if (plyChanged) onShownChanged();
  }
  if (changed) loadMovable();
  render();
}

/** Shows the position after ply k (the live one when k is the last ply). */
async function showPly(k) {
  if (!S.live) return;
  k = Math.max(0, Math.min(k, S.live.plies));
  if (k === S.live.plies) {
    S.browsing = false;
    S.shown = S.live;
  } else {
    try {
      const position = await api("GET", `/api/games/${encodeURIComponent(S.id)}?ply=${k}`);
      S.browsing = true;
      S.shown = position;
    } catch (e) {
      toast(e.message, true);
      return;
    }
  }
  clearSelection();
  onShownChanged();
  render();
}

/** The shown position changed: analysis follows it. */
function onShownChanged() {
  S.analysis = null;
  if (S.analysing) sendAnalyse();
  renderAnalysis();
}

function clearSelection() {
  S.selected = null;
  S.dests = [];
  hideChooser();
}

/** Which pieces can move now, to dim the others in the trays. */
async function loadMovable() {
  S.movable = null;
  if (!canMove()) return;
  const gs = S.live.game_string;
  try {
    const { moves } = await api("GET", `/api/games/${encodeURIComponent(S.id)}/moves`);
    if (S.live.game_string !== gs) return;
    const fam = S.live.family;
    S.movable = new Set(moves.map((m) => (fam === "Hive" ? m.piece : m.from)).filter(Boolean));
    renderTrays();
  } catch {
    // Dimming is a help only; clicks still ask for each piece's moves.
  }
}

/** Chooses a piece and shows its legal destinations. */
async function select(piece, key) {
  if (S.selected && S.selected.piece === piece && S.selected.key === key) {
    clearSelection();
    render();
    return;
  }
  const gs = S.live.game_string;
  // A piece in hand by its name; one on the board by its cell, which also gives the moves a
  // Pillbug makes with it when it is the opponent's.
  const query = key === null ? `piece=${encodeURIComponent(piece)}` : `from=${encodeURIComponent(key)}`;
  try {
    const { moves } = await api("GET", `/api/games/${encodeURIComponent(S.id)}/moves?${query}`);
    if (S.live.game_string !== gs) return;
    hideChooser();
    S.selected = { piece, key };
    S.dests = moves.filter((m) => m.to);
    const own = piece[0] === S.live.to_move[0].toLowerCase();
    if (S.dests.length === 0 && own) toast(`${piece} has no legal move`);
  } catch (e) {
    clearSelection();
    toast(e.message, true);
  }
  render();
}

function onCell(key) {
  if (!canMove()) return;
  if (key && S.dests.some((m) => m.to === key)) {
    const moves = S.dests.filter((m) => m.to === key);
    if (moves.length === 1) play(moves[0].move);
    else showChooser(moves);
    return;
  }
  hideChooser();
  const top = key && S.shown.pieces.find((p) => p.key === key && p.top !== false);
  if (top) select(top.piece, key);
  else if (S.selected) {
    clearSelection();
    render();
  }
}

function onHand(piece) {
  if (!canMove()) return;
  select(piece, null);
}

/** Plays a move through the server; a rejected move leaves the game as it was. */
async function play(move) {
  clearSelection();
  const events = S.wsPositions;
  render();
  try {
    const position = await api("POST", `/api/games/${encodeURIComponent(S.id)}/play`, { move });
    if (S.wsPositions === events) setLive(position);
  } catch (e) {
    toast(e.message, true);
    render();
  }
}

/** Several moves end on one hex (Intellector promotions, aura captures): the person picks one. */
function showChooser(moves) {
  const box = $("chooser");
  box.replaceChildren();
  const title = document.createElement("div");
  title.className = "chooser-title";
  title.textContent = moves.some((m) => m.kind === "promotion") ? "Promote to" : "Choose the move";
  box.appendChild(title);
  for (const m of moves) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.move = m.move;
    const letter = m.promotion ? kindLetter(m.promotion) : "";
    const disc = document.createElement("span");
    disc.className = `chooser-piece ${S.live.to_move === "White" ? "white" : "black"}`;
    disc.textContent = letter || "·";
    const text = document.createElement("span");
    text.textContent = m.promotion ? `${m.promotion} (${m.move})` : `no change (${m.move})`;
    b.append(disc, text);
    b.addEventListener("click", () => {
      hideChooser();
      play(m.move);
    });
    box.appendChild(b);
  }
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.className = "cancel";
  cancel.textContent = "Cancel";
  cancel.addEventListener("click", () => {
    clearSelection();
    render();
  });
  box.appendChild(cancel);
  box.hidden = false;
}

function kindLetter(name) {
  for (const [letter, kind] of Object.entries(KIND_NAMES)) if (kind === name) return letter;
  return name ? name[0] : "";
}

function hideChooser() {
  $("chooser").hidden = true;
}

/** Take back: the last move of a person, and the engine's reply to it. */
async function takeBack() {
  const p = S.live;
  if (!p || p.plies === 0) return;
  const mover = p.players[p.to_move.toLowerCase()];
  const other = p.players[p.to_move === "White" ? "black" : "white"];
  // The person to move takes back the engine's reply too; otherwise only the last ply.
  let plies = isHuman(mover) && !isHuman(other) && !over(p) ? 2 : 1;
  if (over(p) && isHuman(mover) && !isHuman(other)) plies = 2;
  plies = Math.min(plies, p.plies);
  const events = S.wsPositions;
  S.browsing = false;
  clearSelection();
  try {
    const position = await api("POST", `/api/games/${encodeURIComponent(S.id)}/undo`, { plies });
    if (S.wsPositions === events) setLive(position);
    else render();
  } catch (e) {
    toast(e.message, true);
  }
}

let resignArmed = null;
async function resign() {
  const p = S.live;
  if (!p || over(p)) return;
  if (!resignArmed) {
    $("resign").textContent = "Really resign?";
    $("resign").classList.add("danger");
    resignArmed = setTimeout(disarmResign, 4000);
    return;
  }
  disarmResign();
  const white = isHuman(p.players.white);
  const black = isHuman(p.players.black);
  const side = white && !black ? "White" : black && !white ? "Black" : p.to_move;
  const events = S.wsPositions;
  try {
    const position = await api("POST", `/api/games/${encodeURIComponent(S.id)}/resign`, { side });
    if (S.wsPositions === events) setLive(position);
  } catch (e) {
    toast(e.message, true);
  }
}

function disarmResign() {
  clearTimeout(resignArmed);
  resignArmed = null;
  $("resign").textContent = "Resign";
  $("resign").classList.remove("danger");
}

async function copyGameString() {
  const text = S.shown.game_string;
  let ok = false;
  try {
    await navigator.clipboard.writeText(text);
    ok = true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.appendChild(area);
    area.select();
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    area.remove();
  }
  toast(ok ? `Copied: ${text}` : `Copy this GameString: ${text}`);
}

// ------------------------------------------------------------------ Analysis and review

function sendAnalyse() {
  send({ type: "analyse", on: true, multipv: Number($("multipv").value), ply: S.shown.ply });
}

function setAnalysing(on) {
  S.analysing = on;
  S.analysis = null;
  if (on) sendAnalyse();
  else {
    send({ type: "analyse", on: false });
    S.waiting = null;
  }
  renderAnalysis();
  renderStatus();
  drawBoard();
}

/** A score in hundredths from White's view (or a mate distance) as text. */
function scoreText(line) {
  if (line.mate !== null && line.mate !== undefined) return line.mate > 0 ? `#${line.mate}` : `#-${Math.abs(line.mate)}`;
  const s = line.score / 100;
  return `${s > 0 ? "+" : s < 0 ? "−" : ""}${Math.abs(s).toFixed(2)}`;
}

function renderAnalysis() {
  const info = $("analysis-info");
  const list = $("lines");
  list.replaceChildren();
  if (!S.analysing) {
    info.textContent = "Off";
    info.dataset.state = "off";
    return;
  }
  const a = S.analysis;
  if (!a) {
    info.textContent = S.waiting ? S.waiting : "Thinking…";
    info.dataset.state = "starting";
    return;
  }
  info.dataset.state = "on";
  const time = a.time !== undefined ? ` · ${(a.time / 1000).toFixed(1)} s` : "";
  info.textContent = `depth ${a.depth} · ${formatNodes(a.nodes)} nodes${time}${a.done ? " · done" : ""}`;
  a.lines.forEach((line, i) => {
    const li = document.createElement("li");
    li.className = "line";
    li.dataset.line = i + 1;
    const score = document.createElement("span");
    score.className = "score";
    score.style.borderColor = LINE_COLOURS[i % LINE_COLOURS.length];
    score.textContent = scoreText(line);
    const pv = document.createElement("span");
    pv.className = "pv";
    pv.textContent = line.pv.join("  ");
    li.append(score, pv);
    list.appendChild(li);
  });
}

function formatNodes(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)} k`;
  return String(n);
}

function startReview() {
  if (!S.live || S.live.plies === 0) {
    toast("No moves to review yet");
    return;
  }
  S.review = null;
  S.reviewing = true;
  send({ type: "review" });
  renderReview();
  renderStatus();
}

/** The review's verdict on ply k, when the review is of the moves played. */
function reviewOf(k) {
  if (!S.review) return null;
  const r = S.review.plies.find((p) => p.ply === k);
  if (!r || (S.live && S.live.moves[k - 1] !== r.move)) return null;
  return r;
}

const CLASS_MARKS = { best: "★", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??", book: "📖" };

/** Maps a score to -1..1 for the graph: the first pawns matter most. */
function squash(ply) {
  if (ply.mate !== null && ply.mate !== undefined) return ply.mate > 0 ? 1 : -1;
  if (ply.score === null || ply.score === undefined) return null;
  return Math.tanh(ply.score / 400);
}

function renderReview() {
  const info = $("review-info");
  const graph = $("graph");
  const r = S.review;
  if (!r && !S.reviewing) {
    info.textContent = "";
    graph.toggleAttribute("hidden", true); // an SVG element has no `hidden` property
    return;
  }
  if (!r) {
    info.textContent = S.waiting || "Reviewing…";
    graph.toggleAttribute("hidden", true);
    return;
  }
  const counts = {};
  for (const p of r.plies) if (p.class) counts[p.class] = (counts[p.class] || 0) + 1;
  const words = { inaccuracy: ["inaccuracy", "inaccuracies"], mistake: ["mistake", "mistakes"], blunder: ["blunder", "blunders"] };
  const parts = Object.entries(words).map(([c, [one, many]]) => `${counts[c] || 0} ${(counts[c] || 0) === 1 ? one : many}`);
  info.textContent = r.done ? `Done: ${parts.join(", ")}` : `Reviewing… ${r.plies.length} of ${S.live.plies} plies`;
  info.dataset.done = r.done ? "true" : "false";
  drawGraph(graph, r.plies);
}

function drawGraph(svg, plies) {
  const W = 320;
  const H = 110;
  const n = Math.max(S.live ? S.live.plies : 0, ...plies.map((p) => p.ply), 1);
  const x = (k) => 6 + ((W - 12) * k) / n;
  const y = (v) => H / 2 - (v * (H - 12)) / 2;
  svg.toggleAttribute("hidden", false);
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.replaceChildren();
  el("rect", { x: 0, y: 0, width: W, height: H, rx: 6, fill: "#3a3631" }, svg);
  const points = plies.filter((p) => squash(p) !== null).sort((a, b) => a.ply - b.ply);
  if (points.length) {
    // White's share of the graph is light, from the bottom up to the curve.
    const top = [`${x(0).toFixed(1)},${y(0).toFixed(1)}`, ...points.map((p) => `${x(p.ply).toFixed(1)},${y(squash(p)).toFixed(1)}`)];
    const area = `${x(0).toFixed(1)},${H} ${top.join(" ")} ${x(points[points.length - 1].ply).toFixed(1)},${H}`;
    el("polygon", { points: area, fill: "#f6f0dc" }, svg);
  }
  el("line", { x1: 0, x2: W, y1: y(0), y2: y(0), stroke: "#999", "stroke-width": 1, "stroke-dasharray": "3 3" }, svg);
  if (S.shown) {
    el("line", { class: "cursor", x1: x(S.shown.ply), x2: x(S.shown.ply), y1: 2, y2: H - 2, stroke: "#1c7ed6", "stroke-width": 2 }, svg);
  }
  // One invisible column per ply, so that a click anywhere above or below a point picks it.
  for (let k = 0; k <= n; k++) {
    el("rect", { class: "hit", "data-ply": k, x: (x(k) - (W - 12) / n / 2).toFixed(1), y: 0, width: ((W - 12) / n).toFixed(1), height: H, fill: "transparent" }, svg);
  }
  const colours = { inaccuracy: "#f2c230", mistake: "#f08c00", blunder: "#e03131" };
  for (const p of points) {
    const v = squash(p);
    const c = colours[p.class];
    el("circle", {
      class: `point ${p.class || ""}`, "data-ply": p.ply, cx: x(p.ply).toFixed(1), cy: y(v).toFixed(1), r: c ? 4 : 2.4,
      fill: c || "#868e96", stroke: c ? "#fff" : "none", "stroke-width": 1,
    }, svg);
  }
}

// ------------------------------------------------------------------ Drawing the page

const board = new Board($("board"), onCell);

function render() {
  if (!S.shown) return;
  drawBoard();
  renderTrays();
  renderStatus();
  renderMoves();
  renderButtons();
  if (S.review) drawGraph($("graph"), S.review.plies);
}

function drawBoard() {
  if (!S.shown) return;
  board.flipped = S.flipped;
  const lines = S.analysing && S.analysis ? S.analysis.lines : [];
  board.draw(S.shown, { selectedKey: S.selected && S.selected.key, dests: S.dests, lines });
  $("browsing").hidden = !S.browsing;
  $("browsing-ply").textContent = S.shown.ply;
}

function renderTrays() {
  const p = S.shown;
  const hive = p.family === "Hive";
  const [top, bottom] = S.flipped ? ["White", "Black"] : ["Black", "White"];
  for (const [id, side] of [["tray-top", top], ["tray-bottom", bottom]]) {
    const tray = $(id);
    tray.hidden = !hive;
    tray.replaceChildren();
    if (!hive) continue;
    tray.dataset.side = side;
    tray.classList.toggle("to-move", p.to_move === side && !over(p));
    const label = document.createElement("span");
    label.className = "tray-label";
    const pieces = (p.hands && p.hands[side]) || [];
    label.innerHTML = `<span class="disc ${side.toLowerCase()}"></span>${side} · ${pieces.length ? "in hand" : "none in hand"}`;
    tray.appendChild(label);
    if (!pieces.length) continue;
    const r = 20;
    const step = SQRT3x(r) + 4;
    const svg = el("svg", { class: "tray-pieces", width: Math.ceil(step * pieces.length + 4), height: 2 * r + 6, viewBox: `0 0 ${Math.ceil(step * pieces.length + 4)} ${2 * r + 6}` });
    pieces.forEach((name, i) => {
      const g = handPiece(svg, name, 2 + step / 2 + i * step, r + 3, r);
      const mine = canMove() && p.to_move === side;
      if (S.selected && S.selected.piece === name && !S.selected.key) g.classList.add("selected");
      if (mine && S.movable && !S.movable.has(name)) g.classList.add("stuck");
      if (mine) g.classList.add("movable");
      g.addEventListener("click", () => onHand(name));
    });
    tray.appendChild(svg);
  }
}

function SQRT3x(r) {
  return Math.sqrt(3) * r;
}

function renderStatus() {
  const p = S.live;
  if (!p) return;
  const status = $("status");
  const white = playerName(p.players.white);
  const black = playerName(p.players.black);
  $("title").textContent = `${p.game_type}${p.rules ? ` (${p.rules})` : ""} · ${white} vs ${black}`;
  status.replaceChildren();
  const line = document.createElement("div");
  line.className = "to-move-line";
  if (over(p)) {
    line.textContent = "Game over";
  } else {
    const mover = p.players[p.to_move.toLowerCase()];
    line.innerHTML = `<span class="disc ${p.to_move.toLowerCase()}"></span>`;
    const text = document.createElement("span");
    text.textContent = isHuman(mover) ? `${p.to_move} to move` : `${p.to_move} to move: ${playerName(mover)}${p.thinking ? " is thinking" : ""}`;
    line.appendChild(text);
    if (p.thinking) {
      const spin = document.createElement("span");
      spin.className = "spinner";
      line.appendChild(spin);
    }
  }
  status.appendChild(line);
  const waiting = p.waiting || (S.waiting && (S.analysing || S.reviewing));
  if (waiting) {
    const w = document.createElement("div");
    w.id = "waiting";
    w.className = "waiting";
    w.textContent = S.waiting || `Waiting for a free search slot (${S.info ? S.info.search_slots : "all"} busy)`;
    status.appendChild(w);
  }
  const result = $("result");
  if (over(p)) {
    const headline = p.state === "Draw" ? "Draw" : p.state === "WhiteWins" ? "White wins" : "Black wins";
    result.replaceChildren();
    const h = document.createElement("strong");
    h.textContent = headline;
    result.appendChild(h);
    const reason = p.result && p.result.reason;
    // A game that ended abnormally (an engine crashed, hung, played an illegal move) says
    // what happened once, as its reason, marked as an error.
    if (reason) {
      const r = document.createElement("div");
      r.className = reason === p.message ? "reason message" : "reason";
      r.textContent = reason;
      result.appendChild(r);
    }
    result.dataset.state = p.state;
    result.hidden = false;
  } else {
    result.hidden = true;
  }
  if (p.message && !(over(p) && p.result && p.result.reason === p.message)) {
    const m = document.createElement("div");
    m.className = "message";
    m.textContent = p.message;
    (over(p) ? result : status).appendChild(m);
  }
}

function renderMoves() {
  const list = $("moves");
  const p = S.live;
  list.replaceChildren();
  const start = document.createElement("li");
  start.className = "start-ply";
  const startButton = plyButton(0, "start");
  start.appendChild(startButton);
  list.appendChild(start);
  for (let i = 0; i < p.moves.length; i += 2) {
    const li = document.createElement("li");
    const number = document.createElement("span");
    number.className = "number";
    number.textContent = `${i / 2 + 1}.`;
    li.appendChild(number);
    li.appendChild(plyButton(i + 1, p.moves[i]));
    if (i + 1 < p.moves.length) li.appendChild(plyButton(i + 2, p.moves[i + 1]));
    list.appendChild(li);
  }
  const current = list.querySelector(".ply.current");
  if (current && !S.browsing) current.scrollIntoView({ block: "nearest" });
}

function plyButton(k, text) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "ply";
  b.dataset.ply = k;
  b.textContent = text;
  if (S.shown && S.shown.ply === k) b.classList.add("current");
  const r = k > 0 && reviewOf(k);
  if (r && r.class) {
    b.dataset.class = r.class;
    const mark = document.createElement("span");
    mark.className = `class-mark ${r.class}`;
    mark.textContent = CLASS_MARKS[r.class] || "";
    mark.title = r.class;
    b.appendChild(mark);
  }
  b.addEventListener("click", () => showPly(k));
  return b;
}

function renderButtons() {
  const p = S.live;
  $("pass").hidden = !(canMove() && S.shown.only_pass);
  $("undo").disabled = p.plies === 0;
  $("resign").disabled = over(p);
  $("review").disabled = p.plies === 0 || S.reviewing;
  $("nav-first").disabled = S.shown.ply === 0;
  $("nav-prev").disabled = S.shown.ply === 0;
  $("nav-next").disabled = S.shown.ply >= p.plies;
  $("nav-last").disabled = S.shown.ply >= p.plies;
}

let toastTimer = null;
function toast(message, error = false) {
  const t = $("toast");
  t.textContent = message;
  t.classList.toggle("error", error);
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (t.hidden = true), error ? 6000 : 3500);
}

// ------------------------------------------------------------------ Wiring

$("start-form").addEventListener("submit", startGame);
$("paste-box").addEventListener("toggle", updateStartForm);
$("new-game").addEventListener("click", () => {
  const id = S.id;
  if (id) api("DELETE", `/api/games/${encodeURIComponent(id)}`).catch(() => {});
  history.replaceState(null, "", location.pathname);
  showStart();
});
$("pass").addEventListener("click", () => play("pass"));
$("undo").addEventListener("click", takeBack);
$("resign").addEventListener("click", resign);
$("copy").addEventListener("click", copyGameString);
$("flip").addEventListener("click", () => {
  S.flipped = !S.flipped;
  board.flip();
  render();
});
$("zoom-in").addEventListener("click", () => board.zoom(1.25));
$("zoom-out").addEventListener("click", () => board.zoom(1 / 1.25));
$("zoom-fit").addEventListener("click", () => board.fit());
$("nav-first").addEventListener("click", () => showPly(0));
$("nav-prev").addEventListener("click", () => showPly(S.shown.ply - 1));
$("nav-next").addEventListener("click", () => showPly(S.shown.ply + 1));
$("nav-last").addEventListener("click", () => showPly(S.live.plies));
$("back-live").addEventListener("click", () => showPly(S.live.plies));
$("analyse").addEventListener("change", (e) => setAnalysing(e.target.checked));
$("multipv").addEventListener("change", () => S.analysing && setAnalysing(true));
$("review").addEventListener("click", startReview);
$("graph").addEventListener("click", (e) => {
  const t = e.target.closest("[data-ply]");
  if (t) showPly(Number(t.dataset.ply));
});
document.addEventListener("keydown", (e) => {
  if ($("game").hidden || e.target.closest("input, textarea, select")) return;
  if (e.key === "ArrowLeft") showPly(S.shown.ply - 1);
  else if (e.key === "ArrowRight") showPly(S.shown.ply + 1);
  else if (e.key === "Escape") {
    clearSelection();
    render();
  }
});
window.addEventListener("resize", () => {
  if (S.shown && !board.userView) board.fit();
});

/** A game named in the address (#id) is shown again after a reload; otherwise the start screen. */
async function boot() {
  const id = decodeURIComponent(location.hash.slice(1));
  try {
    S.info = await api("GET", "/api/info");
    fillStart();
  } catch (e) {
    $("start").hidden = false;
    showStartError(`The server did not answer: ${e.message}`);
    return;
  }
  if (id) {
    try {
      openGame(await api("GET", `/api/games/${encodeURIComponent(id)}`));
      return;
    } catch {
      history.replaceState(null, "", location.pathname);
    }
  }
  showStart();
}

boot();
