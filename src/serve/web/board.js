// The board as SVG: Hive (pointy-top hexes, stacks, pieces in hand) and Intellector (the 59
// flat-top hexes). It only draws what the server sends and reports clicks; it knows no rules.
// The look follows `comb show --svg` (src/show/svg.rs): the same fills, bug colours, stack
// badges and arrow colours.

const SVG = "http://www.w3.org/2000/svg";
const SQRT3 = Math.sqrt(3);
/** Picture units per hex radius (the server's x, y are in hex radii). */
export const R = 32;

const WHITE_FILL = "#f6f0dc";
const BLACK_FILL = "#2e2b27";
const INK = "#222222";
const LAST = "#1c7ed6";
/** Colours of the analysis lines' arrows, best line first. */
export const LINE_COLOURS = ["#e8590c", "#2f9e44", "#ae3ec9", "#f08c00", "#1098ad"];
const DEST = "#2f9e44";
const SELECTED = "#f59f00";

/** The colour of a bug's letter (Hive), as in src/show/svg.rs: a lighter tone on Black's pieces. */
const BUG_COLOURS = {
  Q: ["#b8860b", "#f2c230"], S: ["#8b4513", "#d9975a"], B: ["#6f42c1", "#b794f4"],
  G: ["#2b8a3e", "#69db7c"], A: ["#1864ab", "#74c0fc"], M: ["#555555", "#cccccc"],
  L: ["#c92a2a", "#ff8787"], P: ["#0b7285", "#66d9e8"],
};
/** How many of each bug a side has (a number is shown only for bugs with more than one). */
const BUG_COUNT = { Q: 1, S: 2, B: 2, G: 3, A: 3, M: 1, L: 1, P: 1 };
const BUG_NAMES = {
  Q: "Queen Bee", S: "Spider", B: "Beetle", G: "Grasshopper", A: "Soldier Ant",
  M: "Mosquito", L: "Ladybug", P: "Pillbug",
};
/** Intellector's piece types by their notation letter. */
export const KIND_NAMES = {
  I: "Intellector", D: "Dominator", A: "Aggressor", F: "Defensor", L: "Liberator", P: "Progressor",
};

/** Makes an SVG element with attributes (and text content under the key `text`). */
export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(node);
  return node;
}

/** The corners of a hexagon of circumradius r around (x, y); angle 90 = pointy top, 0 = flat top. */
function hexPoints(x, y, r, angle) {
  const out = [];
  for (let k = 0; k < 6; k++) {
    const a = ((angle + 60 * k) * Math.PI) / 180;
    out.push(`${(x + r * Math.cos(a)).toFixed(1)},${(y - r * Math.sin(a)).toFixed(1)}`);
  }
  return out.join(" ");
}

/** A Hive piece's parts: `wS1` -> colour "w", bug "S", number "1". */
export function hiveParts(name) {
  return { color: name[0], bug: name[1], number: name.slice(2) };
}

/** The centre of a Hive cell key "q,r" in hex radii (pointy-top axial coordinates, y down). */
function axialCentre(key) {
  const [q, r] = key.split(",").map(Number);
  return { x: SQRT3 * (q + r / 2), y: 1.5 * r };
}

/** The six neighbours of a Hive cell key (geometry only, for the faint outlines around the hive). */
function axialNeighbours(key) {
  const [q, r] = key.split(",").map(Number);
  return [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]].map(([dq, dr]) => `${q + dq},${r + dr}`);
}

/** Whether an Intellector hex is one of the 23 dark ones (rows 1, 4, 7 of files a, c, e, g, i; 2, 5 of the others). */
function intellectorDark(cell) {
  if (typeof cell.dark === "boolean") return cell.dark;
  const file = cell.name.charCodeAt(0) - 97;
  const row = parseInt(cell.name.slice(1), 10);
  return file % 2 === 0 ? row % 3 === 1 : row % 3 === 2;
}

/** A bug's letter with its number as a smaller suffix, centred on (x, y). */
function bugLabel(g, name, x, y, size, colour) {
  const { bug, number } = hiveParts(name);
  const text = el("text", {
    x: x.toFixed(1), y: y.toFixed(1), "font-size": size, "font-weight": "bold", fill: colour,
    "text-anchor": "middle", "dominant-baseline": "central",
  }, g);
  text.appendChild(document.createTextNode(bug));
  if ((BUG_COUNT[bug] || 1) > 1 && number) {
    el("tspan", { "font-size": Math.round(size * 0.55), text: number }, text);
  }
  return text;
}

/** Draws one Hive piece as a small hex (for the trays). */
export function handPiece(svg, name, x, y, r) {
  const { color, bug } = hiveParts(name);
  const g = el("g", { class: "hand-piece", "data-piece": name }, svg);
  el("title", { text: `${color === "w" ? "White" : "Black"} ${BUG_NAMES[bug] || bug} (${name})` }, g);
  el("polygon", {
    class: "body", points: hexPoints(x, y, r, 90), fill: color === "w" ? WHITE_FILL : BLACK_FILL,
    stroke: INK, "stroke-width": 1.2, "stroke-linejoin": "round",
  }, g);
  bugLabel(g, name, x, y, r * 0.85, (BUG_COLOURS[bug] || [INK, WHITE_FILL])[color === "w" ? 0 : 1]);
  return g;
}

/**
 * The board: draws a Position, the selection, the legal destinations and arrows, and handles
 * pan and zoom. `onCell(key)` is called when a cell or piece is clicked (not after a drag).
 */
export class Board {
  constructor(svg, onCell) {
    this.svg = svg;
    this.onCell = onCell;
    this.position = null;
    this.flipped = false;
    this.selectedKey = null;
    this.dests = [];
    this.lines = [];
    this.view = null; // the viewBox {x, y, w, h}
    this.userView = false; // the person zoomed or panned: keep the view
    this.lastFamily = null;
    this.installPointer();
  }

  /** Screen position of a cell key in picture units (flip applied). */
  at(key) {
    const p = this.centres.get(key) || (this.position.family === "Hive" ? axialCentre(key) : null);
    if (!p) return null;
    const s = this.flipped ? -1 : 1;
    return { x: s * p.x * R, y: s * p.y * R };
  }

  /** Draws a position with the selection, destinations and analysis lines given. */
  draw(position, { selectedKey = null, dests = [], lines = [] } = {}) {
    if (this.lastFamily !== position.family) {
      this.userView = false;
      this.lastFamily = position.family;
    }
    this.position = position;
    this.selectedKey = selectedKey;
    this.dests = dests;
    this.lines = lines;
    this.centres = new Map();
    for (const c of position.cells || []) this.centres.set(c.key, { x: c.x, y: c.y });
    for (const p of position.pieces || []) this.centres.set(p.key, { x: p.x, y: p.y });
    for (const m of dests) if (m.to) this.centres.set(m.to, { x: m.x, y: m.y });
    this.svg.replaceChildren();
    this.defs();
    this.bounds = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
    if (position.family === "Intellector") this.drawIntellector();
    else this.drawHive();
    if (!this.userView || !this.view) this.fit();
    else this.applyView();
    this.svg.dataset.family = position.family;
    this.svg.dataset.ply = position.ply;
  }

  /** Grows the drawn area's bounds by a point and a margin. */
  grow(p, margin) {
    this.bounds.x0 = Math.min(this.bounds.x0, p.x - margin);
    this.bounds.y0 = Math.min(this.bounds.y0, p.y - margin);
    this.bounds.x1 = Math.max(this.bounds.x1, p.x + margin);
    this.bounds.y1 = Math.max(this.bounds.y1, p.y + margin);
  }

  defs() {
    const defs = el("defs", {}, this.svg);
    const shadow = el("filter", { id: "shadow", x: "-30%", y: "-30%", width: "160%", height: "160%" }, defs);
    el("feDropShadow", { dx: 0, dy: 1.5, stdDeviation: 1.3, "flood-color": "#000", "flood-opacity": 0.35 }, shadow);
    const heads = [["head-last", LAST], ...LINE_COLOURS.map((c, i) => [`head-${i}`, c])];
    for (const [id, colour] of heads) {
      const m = el("marker", {
        id, viewBox: "0 0 10 10", refX: 7, refY: 5, markerWidth: 3, markerHeight: 3, orient: "auto-start-reverse",
      }, defs);
      el("path", { d: "M0,0 L10,5 L0,10 z", fill: colour }, m);
    }
    this.layers = {};
    for (const name of ["cells", "marks", "pieces", "dests", "arrows", "targets"]) {
      this.layers[name] = el("g", { class: name }, this.svg);
    }
    this.layers.arrows.setAttribute("pointer-events", "none");
    this.layers.marks.setAttribute("pointer-events", "none");
  }

  // ---------------------------------------------------------------- Hive

  drawHive() {
    const pos = this.position;
    const stacks = new Map(); // key -> pieces bottom first
    for (const p of pos.pieces) {
      if (!stacks.has(p.key)) stacks.set(p.key, []);
      stacks.get(p.key).push(p);
    }
    for (const s of stacks.values()) s.sort((a, b) => a.height - b.height);
    // The empty cells around the hive, as faint dashed outlines.
    const empty = new Set();
    for (const key of stacks.keys()) for (const n of axialNeighbours(key)) if (!stacks.has(n)) empty.add(n);
    for (const m of this.dests) if (m.to && !stacks.has(m.to)) empty.add(m.to);
    if (stacks.size === 0) empty.add("0,0");
    for (const key of empty) {
      const p = this.at(key);
      el("polygon", {
        class: "empty", "data-key": key, points: hexPoints(p.x, p.y, R - 1, 90), fill: "transparent",
        stroke: "#c3c0b8", "stroke-width": 1, "stroke-dasharray": "4 3",
      }, this.layers.cells);
      this.grow(p, R);
    }
    // The last move: its start dashed, its end outlined, in the last move's blue.
    const last = pos.last_move;
    if (last) {
      if (last.from) this.hiveMark(last.from, "last-from", { fill: "rgba(28,126,214,0.10)", stroke: LAST, "stroke-width": 2.5, "stroke-dasharray": "6 4" });
      if (last.to) this.hiveMark(last.to, "last-to", { fill: "rgba(28,126,214,0.18)", stroke: LAST, "stroke-width": 3 });
    }
    // Stacks lowest first, so that the pieces peeking out under a stack are not hidden.
    const keys = [...stacks.keys()].sort((a, b) => stacks.get(a).length - stacks.get(b).length);
    for (const key of keys) this.hiveStack(key, stacks.get(key));
    if (last && last.to) {
      const top = this.layers.pieces.querySelector(`[data-key="${CSS.escape(last.to)}"]`);
      if (top) top.classList.add("last");
    }
    if (this.selectedKey) this.hiveMark(this.selectedKey, "selected", { fill: "none", stroke: SELECTED, "stroke-width": 4 }, this.layers.dests);
    for (const m of this.dests) {
      if (!m.to) continue;
      const p = this.at(m.to);
      const g = el("g", { class: "dest", "data-key": m.to, "data-move": m.move }, this.layers.targets);
      if (stacks.has(m.to)) {
        el("polygon", { points: hexPoints(p.x, p.y, R - 3, 90), fill: "rgba(47,158,68,0.22)", stroke: DEST, "stroke-width": 4 }, g);
      } else {
        el("polygon", { points: hexPoints(p.x, p.y, R - 2, 90), fill: "rgba(47,158,68,0.28)", stroke: DEST, "stroke-width": 2 }, g);
        el("circle", { cx: p.x.toFixed(1), cy: p.y.toFixed(1), r: 6, fill: DEST, opacity: 0.8 }, g);
      }
      this.grow(p, R);
    }
    if (last && last.from && last.to) this.arrow(this.at(last.from), this.at(last.to), LAST, "head-last", 4, 0.55, "last");
    this.analysisArrows();
  }

  hiveMark(key, cls, attrs, layer = this.layers.marks) {
    const p = this.at(key);
    el("polygon", { class: cls, "data-key": key, points: hexPoints(p.x, p.y, R - 1.5, 90), ...attrs }, layer);
  }

  /** One stack: the pieces under it peeking out above it, its top piece, a height badge. */
  hiveStack(key, stack) {
    const p = this.at(key);
    const top = stack[stack.length - 1];
    const { color, bug } = hiveParts(top.piece);
    const g = el("g", {
      class: "piece", "data-key": key, "data-piece": top.piece, "data-color": color === "w" ? "white" : "black",
      "data-height": stack.length, filter: "url(#shadow)",
    }, this.layers.pieces);
    const names = stack.map((s) => s.piece).reverse();
    el("title", { text: names.join(" on ") }, g);
    for (let depth = stack.length - 1; depth >= 1; depth--) {
      const under = stack[stack.length - 1 - depth];
      el("polygon", {
        class: "under", points: hexPoints(p.x, p.y - 5 * depth, R - 2, 90),
        fill: under.piece[0] === "w" ? WHITE_FILL : BLACK_FILL, stroke: INK, "stroke-width": 1, "stroke-linejoin": "round",
      }, g);
    }
    el("polygon", {
      class: "body", points: hexPoints(p.x, p.y, R - 2, 90), fill: color === "w" ? WHITE_FILL : BLACK_FILL,
      stroke: INK, "stroke-width": 1.5, "stroke-linejoin": "round",
    }, g);
    const ink = color === "w" ? INK : WHITE_FILL;
    bugLabel(g, top.piece, p.x, p.y - (stack.length > 1 ? 4 : 0), 22, (BUG_COLOURS[bug] || [INK, WHITE_FILL])[color === "w" ? 0 : 1]);
    if (stack.length > 1) {
      el("text", {
        class: "beneath", x: p.x.toFixed(1), y: (p.y + 0.5 * R).toFixed(1), "font-size": 8, fill: ink,
        "text-anchor": "middle", "dominant-baseline": "central", text: `on ${names.slice(1).join(" ")}`,
      }, g);
      const bx = p.x + 0.62 * R;
      const by = p.y - 0.55 * R;
      const badge = el("g", { class: "height" }, g);
      el("circle", { cx: bx.toFixed(1), cy: by.toFixed(1), r: 9, fill: "#e03131", stroke: "#ffffff", "stroke-width": 1.5 }, badge);
      el("text", {
        x: bx.toFixed(1), y: by.toFixed(1), "font-size": 11, "font-weight": "bold", fill: "#ffffff",
        "text-anchor": "middle", "dominant-baseline": "central", text: stack.length,
      }, badge);
    }
    this.grow({ x: p.x, y: p.y - 5 * (stack.length - 1) }, R + 4);
    this.grow(p, R + 4);
  }

  // ---------------------------------------------------------------- Intellector

  drawIntellector() {
    const pos = this.position;
    const files = new Map();
    for (const c of pos.cells) {
      const p = this.at(c.key);
      const dark = intellectorDark(c);
      const g = el("g", { class: "cell", "data-key": c.key }, this.layers.cells);
      el("polygon", {
        class: dark ? "hex dark" : "hex light", points: hexPoints(p.x, p.y, R, 0),
        fill: dark ? "#b58863" : "#f0d9b5", stroke: "#8a6a4a", "stroke-width": 1,
      }, g);
      el("text", {
        x: p.x.toFixed(1), y: (p.y + 0.72 * R).toFixed(1), "font-size": 9, fill: dark ? "#4a3522" : "#8a6a4a",
        "text-anchor": "middle", text: c.name,
      }, g);
      this.grow(p, R);
      const letter = c.name[0];
      const f = files.get(letter) || { x: p.x, top: Infinity, bottom: -Infinity };
      f.top = Math.min(f.top, p.y);
      f.bottom = Math.max(f.bottom, p.y);
      files.set(letter, f);
    }
    // The file letters in a row above the board and a row below it.
    const fs = [...files.values()];
    const above = Math.min(...fs.map((f) => f.top)) - (SQRT3 * R) / 2 - 9;
    const below = Math.max(...fs.map((f) => f.bottom)) + (SQRT3 * R) / 2 + 20;
    for (const [letter, f] of files) {
      for (const y of [above, below]) {
        el("text", { class: "file", x: f.x.toFixed(1), y: y.toFixed(1), "font-size": 13, fill: "#6b5a48", "text-anchor": "middle", text: letter }, this.layers.cells);
        this.grow({ x: f.x, y }, 14);
      }
    }
    const byKey = new Map(pos.pieces.map((p) => [p.key, p]));
    const last = pos.last_move;
    let swap = false;
    if (last) {
      // A swap leaves both hexes held by the same side; any other move empties its start.
      const a = last.from && byKey.get(last.from);
      const b = byKey.get(last.to);
      swap = !!(a && b && a.color === b.color);
      for (const key of [last.from, last.to]) {
        if (!key) continue;
        const p = this.at(key);
        el("polygon", { class: key === last.to ? "last-to" : "last-from", "data-key": key, points: hexPoints(p.x, p.y, R - 1, 0), fill: "rgba(28,126,214,0.28)", stroke: LAST, "stroke-width": 2 }, this.layers.marks);
      }
    }
    if (this.selectedKey) {
      const p = this.at(this.selectedKey);
      if (p) el("polygon", { class: "selected", points: hexPoints(p.x, p.y, R - 1.5, 0), fill: "rgba(245,159,0,0.45)", stroke: SELECTED, "stroke-width": 3 }, this.layers.marks);
    }
    for (const piece of pos.pieces) this.intellectorPiece(piece);
    const seen = new Set();
    for (const m of this.dests) {
      if (!m.to || seen.has(m.to)) continue;
      seen.add(m.to);
      const p = this.at(m.to);
      const here = this.dests.filter((d) => d.to === m.to);
      const kinds = new Set(here.map((d) => d.kind));
      const g = el("g", { class: "dest", "data-key": m.to, "data-move": here.map((d) => d.move).join(" ") }, this.layers.targets);
      el("polygon", { points: hexPoints(p.x, p.y, R - 1, 0), fill: "transparent" }, g);
      if (kinds.has("swap")) {
        g.classList.add("swap");
        el("circle", { cx: p.x.toFixed(1), cy: p.y.toFixed(1), r: 0.7 * R, fill: "none", stroke: LAST, "stroke-width": 4, "stroke-dasharray": "7 4" }, g);
        el("text", { x: (p.x + 0.55 * R).toFixed(1), y: (p.y - 0.55 * R).toFixed(1), "font-size": 16, "font-weight": "bold", fill: LAST, stroke: "#fff", "stroke-width": 3, "paint-order": "stroke", "text-anchor": "middle", "dominant-baseline": "central", text: "⇄" }, g);
      } else if (byKey.has(m.to)) {
        g.classList.add("capture");
        el("circle", { cx: p.x.toFixed(1), cy: p.y.toFixed(1), r: 0.72 * R, fill: "none", stroke: DEST, "stroke-width": 4.5, opacity: 0.9 }, g);
      } else {
        el("circle", { cx: p.x.toFixed(1), cy: p.y.toFixed(1), r: 0.26 * R, fill: DEST, opacity: 0.75 }, g);
      }
      if (here.some((d) => d.promotion)) {
        g.classList.add("promotion");
        // A badge: the move promotes, and the person will choose into what.
        const bx = p.x + 0.5 * R;
        const by = p.y + 0.5 * R;
        el("rect", { x: (bx - 12).toFixed(1), y: (by - 8).toFixed(1), width: 24, height: 16, rx: 8, fill: DEST, stroke: "#fff", "stroke-width": 1.5 }, g);
        el("text", { x: bx.toFixed(1), y: by.toFixed(1), "font-size": 11, "font-weight": "bold", fill: "#fff", "text-anchor": "middle", "dominant-baseline": "central", text: "=?" }, g);
      }
    }
    if (last && last.from && last.to) {
      this.arrow(this.at(last.from), this.at(last.to), LAST, "head-last", 4, 0.55, swap ? "last swap" : "last", swap);
    }
    this.analysisArrows();
  }

  /** An Intellector piece: a disc of its colour with its letter; the Intellector has a gold rim. */
  intellectorPiece(piece) {
    const p = this.at(piece.key);
    const white = piece.color === "White";
    const letter = piece.bug || piece.piece.slice(-1);
    const g = el("g", {
      class: "piece", "data-key": piece.key, "data-piece": piece.piece, "data-color": white ? "white" : "black",
      filter: "url(#shadow)",
    }, this.layers.pieces);
    el("title", { text: `${piece.color} ${KIND_NAMES[letter] || letter} on ${piece.key}` }, g);
    const intellector = letter === "I";
    el("circle", {
      class: "body", cx: p.x.toFixed(1), cy: (p.y - 0.1 * R).toFixed(1), r: (0.5 * R).toFixed(1),
      fill: white ? WHITE_FILL : BLACK_FILL, stroke: intellector ? "#e0a800" : INK, "stroke-width": intellector ? 3.5 : 1.5,
    }, g);
    el("text", {
      x: p.x.toFixed(1), y: (p.y - 0.1 * R).toFixed(1), "font-size": 18, "font-weight": "bold",
      fill: white ? INK : WHITE_FILL, "text-anchor": "middle", "dominant-baseline": "central", text: letter,
    }, g);
  }

  // ---------------------------------------------------------------- Arrows

  /** The first move of every analysis line as an arrow, the best line on top and thickest. */
  analysisArrows() {
    for (let i = this.lines.length - 1; i >= 0; i--) {
      const line = this.lines[i];
      const a = line.arrows && line.arrows[0];
      if (!a || !a.to) continue;
      const colour = LINE_COLOURS[i % LINE_COLOURS.length];
      const to = this.at(a.to);
      if (!to) continue;
      const width = i === 0 ? 7 : 5;
      if (a.from) {
        const from = this.at(a.from);
        if (!from) continue;
        if (this.position.family === "Hive") {
          // Hive moves end on a cell, often an empty one: outline it, and let the arrow reach it.
          el("polygon", { class: `analysis-to line-${i + 1}`, points: hexPoints(to.x, to.y, R - 3, 90), fill: "none", stroke: colour, "stroke-width": 3, "stroke-dasharray": "7 4", opacity: 0.9 }, this.layers.arrows);
          this.arrow(from, to, colour, `head-${i % LINE_COLOURS.length}`, width, 0.85, `analysis line-${i + 1}`, false, 10);
        } else {
          this.arrow(from, to, colour, `head-${i % LINE_COLOURS.length}`, width, 0.85, `analysis line-${i + 1}`);
        }
      } else {
        // A placement: the cell outlined, with the piece's letter when the cell is empty.
        const g = el("g", { class: `arrow analysis line-${i + 1}`, "data-line": i + 1 }, this.layers.arrows);
        el("polygon", { points: hexPoints(to.x, to.y, R - 3, 90), fill: "none", stroke: colour, "stroke-width": 4, "stroke-dasharray": "8 4" }, g);
        const piece = line.pv && line.pv[0] ? line.pv[0].split(" ")[0] : "";
        const occupied = this.position.pieces.some((p) => p.key === a.to);
        if (!occupied && /^[wb][A-Z]/.test(piece)) bugLabel(g, piece, to.x, to.y, 20, colour);
      }
    }
  }

  /** A thick arrow from near one centre to near another (both ends for a swap). */
  arrow(from, to, colour, marker, width, opacity, cls, bothEnds = false, pull = 24) {
    if (!from || !to) return;
    const dx = to.x - from.x;
    const dy = to.y - from.y;
    const length = Math.max(1, Math.hypot(dx, dy));
    const ux = dx / length;
    const uy = dy / length;
    const start = bothEnds ? Math.min(0.2 * length, 24) : Math.min(0.15 * length, 10);
    const end = Math.min(0.3 * length, pull);
    el("line", {
      class: `arrow ${cls}`, x1: (from.x + ux * start).toFixed(1), y1: (from.y + uy * start).toFixed(1),
      x2: (to.x - ux * end).toFixed(1), y2: (to.y - uy * end).toFixed(1), stroke: colour, "stroke-width": width,
      "stroke-linecap": "round", opacity, "marker-end": `url(#${marker})`, "marker-start": bothEnds ? `url(#${marker})` : null,
    }, this.layers.arrows);
  }

  // ---------------------------------------------------------------- View

  /** Shows everything drawn, with a margin. */
  fit() {
    const b = this.bounds;
    if (!isFinite(b.x0)) return;
    const margin = 10;
    this.view = { x: b.x0 - margin, y: b.y0 - margin, w: b.x1 - b.x0 + 2 * margin, h: b.y1 - b.y0 + 2 * margin };
    // Never zoom in further than twice the natural size: a small hive stays a sensible size.
    const box = this.svg.getBoundingClientRect();
    if (box.width > 0 && box.height > 0) {
      const scale = Math.min(box.width / this.view.w, box.height / this.view.h);
      if (scale > 1.6) {
        const f = scale / 1.6;
        const cx = this.view.x + this.view.w / 2;
        const cy = this.view.y + this.view.h / 2;
        this.view.w *= f;
        this.view.h *= f;
        this.view.x = cx - this.view.w / 2;
        this.view.y = cy - this.view.h / 2;
      }
    }
    this.userView = false;
    this.applyView();
  }

  applyView() {
    const v = this.view;
    this.svg.setAttribute("viewBox", `${v.x.toFixed(1)} ${v.y.toFixed(1)} ${v.w.toFixed(1)} ${v.h.toFixed(1)}`);
  }

  /** Zooms by a factor about a point in picture units (the centre when none). */
  zoom(factor, about) {
    if (!this.view) return;
    const v = this.view;
    const c = about || { x: v.x + v.w / 2, y: v.y + v.h / 2 };
    const w = Math.min(Math.max(v.w / factor, 60), 6000);
    const f = w / v.w;
    this.view = { x: c.x - (c.x - v.x) * f, y: c.y - (c.y - v.y) * f, w, h: v.h * f };
    this.userView = true;
    this.applyView();
  }

  /** Turns the board half round. */
  flip() {
    this.flipped = !this.flipped;
    this.userView = false;
  }

  /** A pointer event's position in picture units. */
  point(event) {
    const m = this.svg.getScreenCTM();
    if (!m) return null;
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }

  /** Clicks select and play; a drag pans; the wheel zooms about the pointer. */
  installPointer() {
    let drag = null;
    this.svg.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      drag = { x: e.clientX, y: e.clientY, moved: false, view: this.view && { ...this.view }, id: e.pointerId };
    });
    this.svg.addEventListener("pointermove", (e) => {
      if (!drag || !drag.view || e.pointerId !== drag.id) return;
      const dx = e.clientX - drag.x;
      const dy = e.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 6) return;
      if (!drag.moved) {
        drag.moved = true;
        this.svg.setPointerCapture(e.pointerId);
        this.svg.classList.add("panning");
      }
      const m = this.svg.getScreenCTM();
      const scale = m ? m.a : 1;
      this.view = { ...drag.view, x: drag.view.x - dx / scale, y: drag.view.y - dy / scale };
      this.userView = true;
      this.applyView();
    });
    const end = (e) => {
      if (!drag) return;
      const moved = drag.moved;
      drag = null;
      this.svg.classList.remove("panning");
      if (moved || e.type !== "pointerup") return;
      const target = e.target.closest && e.target.closest("[data-key]");
      if (target) this.onCell(target.getAttribute("data-key"));
      else this.onCell(null);
    };
    this.svg.addEventListener("pointerup", end);
    this.svg.addEventListener("pointercancel", end);
    this.svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      this.zoom(e.deltaY < 0 ? 1.15 : 1 / 1.15, this.point(e));
    }, { passive: false });
  }
}
