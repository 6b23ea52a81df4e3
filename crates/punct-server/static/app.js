// The PÜNCT browser app: plain JavaScript module, no build step. The server is the sole
// judge of moves; this page only offers the legal moves the server lists, and shows what
// the server says.

// ---------- Board geometry (mirrors punct-core: cell.rs, piece.rs, geometry.rs) ----------

const LETTERS = "ABCDEFGHIJKLMNOPQ";
// Direction steps (Δcolumn, Δrow), D0..D5 as in RULINGS.md §1.
const DIRS = [[0, -1], [-1, -1], [-1, 0], [0, 1], [1, 1], [1, 0]];
// Paths from the PÜNCT to the two minor dots, as turns of the rotation's direction.
const TURNS = { T: [[0], [1]], C: [[0], [3]], E: [[0], [0, 0]], L: [[0], [0, 1]], M: [[1], [3]], R: [[4], [4, 3]] };
const TYPES = ["T", "C", "E", "L", "M", "R"];
const FULL = { T: 6, C: 2, E: 4, L: 2, M: 2, R: 2 };
const CORNERS = new Set(["0,0", "0,8", "8,0", "8,16", "16,8", "16,16"]);

const exists = (c, r) => c >= 0 && r >= 0 && c <= 16 && r <= 16 && Math.abs(c - r) <= 8 && !CORNERS.has(`${c},${r}`);
const cellName = (c, r) => `${LETTERS[c]}${r + 1}`;
function parseCell(name) {
  const c = LETTERS.indexOf(name[0]);
  const r = parseInt(name.slice(1), 10) - 1;
  return [c, r];
}
const ALL_CELLS = [];
for (let c = 0; c < 17; c++) for (let r = 0; r < 17; r++) if (exists(c, r)) ALL_CELLS.push([c, r]);
const inCentre = (c, r) => { const dc = c - 8, dr = r - 8; return Math.abs(dc) <= 2 && Math.abs(dr) <= 2 && Math.abs(dc - dr) <= 2; };
// Goal sides: column A ↔ Q, row 1 ↔ 17, the diagonals c−r = 8 ↔ −8.
const goalOf = (c, r) => (c === 0 || c === 16) ? 0 : (r === 0 || r === 16) ? 1 : (Math.abs(c - r) === 8 ? 2 : -1);

function footprint(type, c, r, rot) {
  const out = [[c, r]];
  for (const path of TURNS[type]) {
    let x = c, y = r;
    for (const k of path) {
      const d = DIRS[(rot + k) % 6];
      x += d[0]; y += d[1];
      if (!exists(x, y)) return null;
    }
    out.push([x, y]);
  }
  return out;
}

// Position text: `standard b 5 wTE4:0@1,bTK5:0@1` (pieces `-` when the board is empty).
function parsePosition(text) {
  const [variant, side, ply, list] = text.split(" ");
  const pieces = (list && list !== "-") ? list.split(",").map((t) => {
    const m = /^([wb])([TCELMR])([A-Q]\d+):(\d)@(\d+)$/.exec(t);
    const [c, r] = parseCell(m[3]);
    return { colour: m[1] === "w" ? "white" : "black", type: m[2], c, r, rot: +m[4], level: +m[5] };
  }) : [];
  const stacks = new Map();
  for (const p of pieces) {
    const cells = footprint(p.type, p.c, p.r, p.rot) || [];
    p.cells = cells;
    cells.forEach(([x, y], i) => {
      const key = `${x},${y}`;
      if (!stacks.has(key)) stacks.set(key, []);
      stacks.get(key).push({ piece: p, punct: i === 0 });
    });
  }
  for (const s of stacks.values()) s.sort((a, b) => a.piece.level - b.piece.level);
  const reserve = { white: { ...FULL }, black: { ...FULL } };
  for (const p of pieces) reserve[p.colour][p.type]--;
  const centre = { white: 0, black: 0 };
  for (const [key, s] of stacks) {
    const [c, r] = key.split(",").map(Number);
    if (inCentre(c, r)) centre[s[s.length - 1].piece.colour]++;
  }
  return { variant, turn: side === "w" ? "white" : "black", ply: +ply, pieces, stacks, reserve, centre };
}

// ---------- Small helpers ----------

const $ = (id) => document.getElementById(id);
const SVGNS = "http://www.w3.org/2000/svg";
function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}
async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const resp = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await resp.text();
  let data;
  try { data = JSON.parse(text); } catch { data = text; }
  if (!resp.ok) throw new Error((data && data.error) || `${resp.status} ${resp.statusText}`);
  return data;
}
const fmtClock = (ms) => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

// ---------- App state ----------

const app = {
  view: "home",
  id: null, token: null, state: null, seq: 0, ws: null, wsRetry: 0,
  replay: null,        // { positions, moves, outcome } of the game or an import
  viewPly: null,       // null = live position
  imported: false,     // reviewing an imported record (no live game)
  legal: [],           // legal move texts for the live position when it is ours to play
  legalFor: null,
  sel: null,           // { kind: "place", type } or { kind: "shift", from }
  target: null,        // chosen cell "c,r" for the selected piece
  rot: 0,
  hover: null,
  cursor: null,        // keyboard cursor over the board, "c,r"
  cursorY: null,       // screen row that ←/→ keep to while moving along a row
  keyboard: false,     // the board is being used with keys (shows the cursor ring)
  pointerDown: false,
  flipped: false,
  clockAt: 0,
};

// ---------- Views and routing ----------

function show(view) {
  app.view = view;
  for (const el of document.querySelectorAll(".view")) el.hidden = el.id !== `view-${view}`;
  if (view === "games") loadGames($("game-list"));
  if (view === "home") loadGames($("home-games"));
  if (view === "rules") loadRules();
}

for (const b of document.querySelectorAll("header nav button")) {
  b.addEventListener("click", () => {
    if (b.dataset.view !== "game") { closeGame(); history.pushState(null, "", "/"); }
    show(b.dataset.view);
  });
}

async function loadGames(list) {
  list.textContent = "Loading…";
  try {
    const { games } = await api("GET", "/api/games");
    list.textContent = "";
    if (!games.length) list.textContent = "No games yet.";
    for (const g of games) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `/g/${g.id}`;
      a.textContent = `${g.white} – ${g.black}: ${g.live ? "live" : g.result} (${g.moves} moves)`;
      li.appendChild(a);
      list.appendChild(li);
    }
  } catch (e) { list.textContent = e.message; }
}

async function loadRules() {
  try { $("rules-text").innerHTML = await (await fetch("/api/rules")).text(); }
  catch (e) { $("rules-text").textContent = e.message; }
}

// ---------- New game, import ----------

for (let n = 1; n <= 6; n++) {
  const names = ["beginner", "casual", "club", "strong", "expert", "full strength"];
  const o = document.createElement("option");
  o.value = n; o.textContent = `${n} – ${names[n - 1]}`;
  if (n === 3) o.selected = true;
  $("level-select").appendChild(o);
}

function clockSpec(value) {
  if (!value) return undefined;
  const [m, i] = value.split("+").map(Number);
  return { minutes: m, increment: i };
}

async function createGame(body) {
  const grant = await api("POST", "/api/games", body);
  localStorage.setItem(`punct.token.${grant.id}`, grant.token);
  history.pushState(null, "", `/g/${grant.id}`);
  openGame(grant.id);
}

$("new-game").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const f = new FormData(ev.target);
  $("home-error").textContent = "";
  try {
    await createGame({
      mode: f.get("mode"), level: +f.get("level"), colour: f.get("colour"), variant: f.get("variant"),
      clock: clockSpec(f.get("clock")), name: f.get("name") || undefined,
    });
  } catch (e) { $("home-error").textContent = e.message; }
});

$("import-review").addEventListener("click", async () => {
  $("import-error").textContent = "";
  try {
    const replay = await api("POST", "/api/import", { text: $("import-text").value });
    closeGame();
    app.imported = true;
    app.replay = replay;
    app.state = null;
    app.viewPly = 0;
    show("game");
    render();
  } catch (e) { $("import-error").textContent = e.message; }
});

$("import-play").addEventListener("click", async () => {
  $("import-error").textContent = "";
  try { await createGame({ mode: "computer", level: +$("level-select").value, start: $("import-text").value }); }
  catch (e) { $("import-error").textContent = e.message; }
});

// ---------- A game: loading, live updates ----------

function closeGame() {
  if (app.ws) { app.ws.onclose = null; app.ws.close(); }
  Object.assign(app, { id: null, token: null, state: null, seq: 0, ws: null, replay: null, viewPly: null, imported: false, legal: [], legalFor: null, cursor: null });
  clearSelection();
}

async function openGame(id) {
  closeGame();
  app.id = id;
  app.token = localStorage.getItem(`punct.token.${id}`);
  show("game");
  try {
    let state = await api("GET", `/api/games/${id}`, undefined, app.token);
    // Whoever opens a friend's link first takes the open seat.
    if (!state.you.length && !state.outcome && (state.seats.white.open || state.seats.black.open)) {
      try {
        const grant = await api("POST", `/api/games/${id}/join`, {});
        localStorage.setItem(`punct.token.${id}`, grant.token);
        app.token = grant.token;
        state = grant.state;
      } catch { /* someone else was first: watch */ }
    }
    applyState(state);
    connect();
  } catch (e) { $("game-error").textContent = e.message; }
}

function connect() {
  if (!app.id) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const tok = app.token ? `?token=${encodeURIComponent(app.token)}` : "";
  const ws = new WebSocket(`${proto}://${location.host}/api/games/${app.id}/ws${tok}`);
  app.ws = ws;
  ws.onopen = () => { app.wsRetry = 0; };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") applyState(msg.state);
    else if (msg.type === "event") {
      if (msg.seq <= app.seq) return;
      if (msg.seq > app.seq + 1) { ws.send(JSON.stringify({ type: "sync" })); return; }
      applyState(msg.state);
    } else if (msg.type === "error") $("game-error").textContent = msg.error;
  };
  // Reconnect by ourselves; the state message on connecting catches up.
  ws.onclose = () => {
    app.ws = null;
    const wait = Math.min(5000, 250 * 2 ** app.wsRetry++);
    setTimeout(() => { if (app.id && !app.ws) connect(); }, wait);
  };
}

function applyState(state) {
  if (app.state && state.seq < app.seq) return;
  const movesChanged = !app.state || app.state.moves.length !== state.moves.length || app.state.position !== state.position;
  app.state = state;
  app.seq = state.seq;
  app.clockAt = performance.now();
  if (movesChanged) {
    clearSelection();
    app.replay = null;
    if (app.viewPly !== null && app.viewPly > state.moves.length) app.viewPly = null;
    api("GET", `/api/games/${app.id}/replay`).then((r) => { if (app.state === state) { app.replay = r; render(); } }).catch(() => {});
  }
  render();
  refreshLegal();
}

function myTurn() {
  const s = app.state;
  return s && !s.outcome && s.you.includes(s.turn) && !Object.values(s.seats).some((x) => x.open);
}

async function refreshLegal() {
  const s = app.state;
  if (!myTurn()) { app.legal = []; app.legalFor = null; return; }
  if (app.legalFor === s.position) return;
  app.legalFor = s.position;
  try {
    const { moves } = await api("GET", `/api/legal?position=${encodeURIComponent(s.position)}`);
    if (app.legalFor === s.position) { app.legal = moves; render(); }
  } catch (e) { $("game-error").textContent = e.message; }
}

async function act(path, body) {
  $("game-error").textContent = "";
  try { applyState(await api("POST", `/api/games/${app.id}/${path}`, body || {}, app.token)); }
  catch (e) { $("game-error").textContent = e.message; }
}

async function sendMove(text) {
  clearSelection();
  await act("move", { move: text });
}

// ---------- Legal move lookups for the current selection ----------

// Parsed legal moves: placements by type and shifts by origin, with rotations per cell.
function legalIndex() {
  const place = {}, shift = {};
  for (const t of app.legal) {
    let m = /^([TCELMR])([A-Q]\d+):(\d)$/.exec(t);
    if (m) {
      const key = parseCell(m[2]).join(",");
      ((place[m[1]] ??= {})[key] ??= []).push(+m[3]);
      continue;
    }
    m = /^([A-Q]\d+)-([A-Q]\d+):(\d)$/.exec(t);
    if (m) {
      const from = parseCell(m[1]).join(","), to = parseCell(m[2]).join(",");
      ((shift[from] ??= {})[to] ??= []).push(+m[3]);
    }
  }
  return { place, shift };
}

function targets() {
  if (!app.sel) return {};
  const idx = legalIndex();
  return (app.sel.kind === "place" ? idx.place[app.sel.type] : idx.shift[app.sel.from]) || {};
}

function moveText(cellKey, rot) {
  const [c, r] = cellKey.split(",").map(Number);
  if (app.sel.kind === "place") return `${app.sel.type}${cellName(c, r)}:${rot}`;
  const [fc, fr] = app.sel.from.split(",").map(Number);
  return `${cellName(fc, fr)}-${cellName(c, r)}:${rot}`;
}

function clearSelection() { app.sel = null; app.target = null; }

function selType() {
  if (!app.sel) return null;
  if (app.sel.kind === "place") return app.sel.type;
  const pos = parsePosition(app.state.position);
  const s = pos.stacks.get(app.sel.from);
  return s ? s[s.length - 1].piece.type : null;
}

function turnPiece(step) {
  const t = targets()[app.target || (app.keyboard ? null : app.hover)];
  if (!t || !t.length) { app.rot = (app.rot + step + 6) % 6; render(); return; }
  const sorted = [...t].sort((a, b) => a - b);
  const i = sorted.indexOf(app.rot);
  app.rot = sorted[(i < 0 ? 0 : (i + step + sorted.length)) % sorted.length];
  render();
}

function stepTarget(step) {
  const keys = Object.keys(targets()).sort((a, b) => {
    const [ac, ar] = a.split(",").map(Number), [bc, br] = b.split(",").map(Number);
    return ac - bc || ar - br;
  });
  if (!keys.length) return;
  const i = keys.indexOf(app.target);
  app.target = keys[i < 0 ? 0 : (i + step + keys.length) % keys.length];
  fitRotation(app.target);
  showStack(app.target);
  render();
}

function fitRotation(cellKey) {
  const t = targets()[cellKey];
  if (t && t.length && !t.includes(app.rot)) app.rot = Math.min(...t);
}

function clickCell(key) {
  app.cursor = key;
  if (app.viewPly !== null || !myTurn()) { showStack(key); return; }
  const t = targets();
  if (app.sel && t[key]) {
    if (app.target === key || !$("confirm-moves").checked) {
      fitRotation(key);
      sendMove(moveText(key, app.rot));
    } else {
      app.target = key;
      fitRotation(key);
      render();
    }
    return;
  }
  // Pick up one of our pieces by any of its visible dots.
  const pos = parsePosition(app.state.position);
  const s = pos.stacks.get(key);
  if (s) {
    const top = s[s.length - 1].piece;
    const from = `${top.c},${top.r}`;
    if (top.colour === app.state.turn && legalIndex().shift[from]) {
      app.sel = { kind: "shift", from };
      app.target = null;
      app.rot = top.rot;
      render();
      return;
    }
  }
  showStack(key);
}

function showStack(key) {
  const view = shownPosition();
  if (!view) return;
  const [c, r] = key.split(",").map(Number);
  const s = view.stacks.get(key);
  $("stack-info").textContent = s
    ? `${cellName(c, r)}, bottom to top: ` + s.map((d) => `${d.piece.colour} ${d.piece.type}${d.punct ? " PÜNCT" : ""} (level ${d.piece.level})`).join(", ")
    : `${cellName(c, r)}: empty`;
}

// ---------- Keyboard cursor over the board ----------

// Our piece whose dot is on `key`, if it may move: its origin "c,r" (the PÜNCT's cell).
function movableFrom(key) {
  const s = parsePosition(app.state.position).stacks.get(key);
  if (!s) return null;
  const top = s[s.length - 1].piece;
  const from = `${top.c},${top.r}`;
  return top.colour === app.state.turn && legalIndex().shift[from] ? from : null;
}

// Moves the cursor to the nearest cell (or, with a piece in hand, legal destination) in
// the screen direction of the arrow key, so that it follows the board as drawn (flipped too).
function moveCursor(key) {
  const [dx, dy] = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[key];
  const t = targets();
  const inHand = !!app.sel;
  const from = app.cursor || (inHand && app.sel.kind === "shift" ? app.sel.from : "8,8");
  const [x0, y0] = xy(...from.split(",").map(Number));
  if (dx === 0 || app.cursorY === null) app.cursorY = y0;
  let best = null, bestScore = Infinity;
  for (const cell of inHand ? Object.keys(t).map((k) => k.split(",").map(Number)) : ALL_CELLS) {
    const [x, y] = xy(...cell);
    const along = (x - x0) * dx + (y - y0) * dy;
    const across = Math.abs((x - x0) * dy - (y - y0) * dx);
    if (along < D / 4) continue;
    const score = Math.hypot(x - x0, y - y0) + across + (dx !== 0 ? 0.01 * Math.abs(y - app.cursorY) : 0);
    if (score < bestScore) { bestScore = score; best = cell; }
  }
  if (best) {
    app.cursor = best.join(",");
    if (dx === 0) app.cursorY = null;
    if (inHand) { app.target = app.cursor; fitRotation(app.target); }
  }
  render();
  announceCursor();
}

// Enter or Space on the board: pick up the piece under the cursor, or put down the one in hand.
function cursorAction() {
  if (!app.cursor) { app.cursor = "8,8"; render(); announceCursor(); return; }
  if (app.sel && app.target) { sendMove(moveText(app.target, app.rot)); return; }
  const from = movableFrom(app.cursor);
  if (from && !(app.sel && app.sel.kind === "shift" && app.sel.from === from)) {
    const p = parsePosition(app.state.position).pieces.find((q) => `${q.c},${q.r}` === from);
    app.sel = { kind: "shift", from };
    app.target = null;
    app.rot = p.rot;
    render();
  }
  announceCursor();
}

// Tells screen readers (through the live stack-info line) where the cursor is and what Enter does.
function announceCursor() {
  if (!app.cursor || document.activeElement !== $("board")) return;
  showStack(app.cursor);
  let hint = "";
  if (app.sel && app.target === app.cursor) hint = `; ${selType()} to ${moveText(app.target, app.rot)}, Enter puts it down, R turns`;
  else if (app.sel && app.sel.kind === "shift") {
    const [c, r] = app.sel.from.split(",").map(Number);
    hint = `; holding the piece from ${cellName(c, r)}: ${Object.keys(targets()).length} destinations, arrows choose one`;
  } else if (app.viewPly === null && myTurn() && movableFrom(app.cursor)) hint = "; your piece, Enter picks it up";
  $("stack-info").textContent += hint;
}

function boardKey(ev) {
  app.keyboard = true;
  if (ev.key.startsWith("Arrow")) { moveCursor(ev.key); return true; }
  if (ev.key === "Enter" || ev.key === " ") { cursorAction(); return true; }
  return false;
}

$("board").addEventListener("focus", () => {
  app.keyboard = !app.pointerDown;
  if (!app.cursor && app.state) app.cursor = "8,8";
  renderBoard();
  if (app.viewPly === null && myTurn()) announceCursor();
});
$("board").addEventListener("blur", () => renderBoard());
$("board").addEventListener("pointerdown", () => { app.keyboard = false; app.pointerDown = true; });
for (const type of ["pointerup", "pointercancel"]) document.addEventListener(type, () => { app.pointerDown = false; });

// ---------- Rendering ----------

const D = 30;                 // distance between neighbouring cell centres
const HEX = D / Math.sqrt(3); // hexagon radius
function xy(c, r) {
  let x = Math.sqrt(3) / 2 * c * D, y = (0.5 * c - r) * D;
  if (app.flipped) { x = -x; y = -y; }
  return [x, y];
}
function hexPoints(cx, cy, rad) {
  const pts = [];
  for (let i = 0; i < 6; i++) { const a = Math.PI / 3 * i; pts.push(`${(cx + rad * Math.cos(a)).toFixed(1)},${(cy + rad * Math.sin(a)).toFixed(1)}`); }
  return pts.join(" ");
}

function shownPosition() {
  if (app.viewPly !== null && app.replay) return parsePosition(app.replay.positions[Math.min(app.viewPly, app.replay.positions.length - 1)]);
  if (app.state) return parsePosition(app.state.position);
  if (app.replay) return parsePosition(app.replay.positions[app.replay.positions.length - 1]);
  return null;
}
function shownPly() {
  const n = app.state ? app.state.moves.length : (app.replay ? app.replay.moves.length : 0);
  return app.viewPly === null ? n : app.viewPly;
}
function allMoves() { return app.state ? app.state.moves : (app.replay ? app.replay.moves : []); }

function drawDot(g, x, y, colour, punct, level, lifted) {
  const off = (level - 1) * (lifted ? 7 : 2.5);
  const cx = x - off, cy = y - off;
  const fill = colour === "white" ? ["#ffffff", "#eeeeee", "#dddddd", "#cccccc"][Math.min(level - 1, 3)] : ["#222222", "#3a3a3a", "#505050", "#666666"][Math.min(level - 1, 3)];
  const stroke = colour === "white" ? "#111" : "#000";
  svg("circle", { cx, cy, r: HEX * 0.62, fill, stroke, "stroke-width": 1.5 + (level - 1) * 0.8, class: "dot" }, g);
  if (punct) {
    // The PÜNCT: a ring of the opposite tone inside the dot.
    svg("circle", { cx, cy, r: HEX * 0.36, fill: "none", stroke: colour === "white" ? "#111" : "#fff", "stroke-width": 2.5, class: "dot" }, g);
  }
  if (level > 1) {
    const t = svg("text", { x: cx + HEX * 0.45, y: cy - HEX * 0.45, class: "level" }, g);
    t.style.fill = "#d55e00";
    t.textContent = level;
  }
}

function render() {
  renderBoard();
  renderPanel();
}

// The cells and labels are built once per orientation and kept, so that pointer events
// (hover, click) always land on the same elements; everything else is redrawn above them.
let staticBoard = null;
function buildStaticBoard(board) {
  board.textContent = "";
  const pad = 2 * D;
  const xs = ALL_CELLS.map(([c, r]) => xy(c, r));
  const minX = Math.min(...xs.map((p) => p[0])) - pad, maxX = Math.max(...xs.map((p) => p[0])) + pad;
  const minY = Math.min(...xs.map((p) => p[1])) - pad, maxY = Math.max(...xs.map((p) => p[1])) + pad;
  board.setAttribute("viewBox", `${minX} ${minY} ${maxX - minX} ${maxY - minY}`);
  const cells = svg("g", {}, board);
  for (const [c, r] of ALL_CELLS) {
    const [x, y] = xy(c, r);
    const key = `${c},${r}`;
    const poly = svg("polygon", { points: hexPoints(x, y, HEX), class: `cell${inCentre(c, r) ? " centre" : ""}`, "data-cell": cellName(c, r) }, cells);
    poly.addEventListener("click", () => clickCell(key));
    poly.addEventListener("mouseenter", () => { app.hover = key; if (app.sel && !app.target) { fitRotation(key); renderBoard(); } showStack(key); });
    poly.addEventListener("wheel", (ev) => { if (app.sel) { ev.preventDefault(); turnPiece(ev.deltaY > 0 ? 1 : -1); } }, { passive: false });
    const goal = goalOf(c, r);
    if (goal >= 0) svg("polygon", { points: hexPoints(x, y, HEX - 3), class: `goal goal${goal}` }, cells);
  }
  // Labels: column letters below each column, row numbers left of each row.
  for (let c = 0; c < 17; c++) {
    const rows = ALL_CELLS.filter((p) => p[0] === c).map((p) => p[1]);
    const [x, y] = xy(c, Math.min(...rows) - 0.9);
    svg("text", { x, y: y + 4, "text-anchor": "middle" }, board).textContent = LETTERS[c];
  }
  for (let r = 0; r < 17; r++) {
    const cols = ALL_CELLS.filter((p) => p[1] === r).map((p) => p[0]);
    const [x, y] = xy(Math.min(...cols) - (r === 0 ? 1.3 : 0.9), r);
    svg("text", { x, y: y + 4, "text-anchor": "middle" }, board).textContent = r + 1;
  }
  const overlay = svg("g", { "pointer-events": "none" }, board);
  staticBoard = { flipped: app.flipped, overlay };
}

function renderBoard() {
  let board = $("board");
  const pos = shownPosition();
  if (!pos) { board.textContent = ""; staticBoard = null; return; }
  if (!staticBoard || staticBoard.flipped !== app.flipped || !board.contains(staticBoard.overlay)) buildStaticBoard(board);
  const overlay = staticBoard.overlay;
  overlay.textContent = "";
  board = overlay;
  const lifted = $("lift").checked;
  const live = app.viewPly === null && app.state;
  const t = live ? targets() : {};

  // Last move of the shown position.
  const ply = shownPly();
  const last = ply > 0 ? allMoves()[ply - 1] : null;
  if (last) {
    const m = /([A-Q]\d+):\d$/.exec(last);
    const lm = m && parseCell(m[1]);
    const piece = lm && pos.pieces.find((p) => p.c === lm[0] && p.r === lm[1]);
    for (const [c, r] of piece ? piece.cells : []) { const [x, y] = xy(c, r); svg("polygon", { points: hexPoints(x, y, HEX - 1), class: "last" }, board); }
    const from = /^([A-Q]\d+)-/.exec(last);
    if (from) { const [fc, fr] = parseCell(from[1]); const [x, y] = xy(fc, fr); svg("circle", { cx: x, cy: y, r: HEX * 0.3, class: "last" }, board); }
  }

  // Pieces, lowest level first so higher ones cover them.
  const pieces = [...pos.pieces].sort((a, b) => a.level - b.level);
  const pg = svg("g", {}, board);
  for (const p of pieces) {
    if (app.sel && app.sel.kind === "shift" && live && app.sel.from === `${p.c},${p.r}` && app.target) continue;
    const pts = p.cells.map(([c, r]) => xy(c, r));
    const off = (p.level - 1) * (lifted ? 7 : 2.5);
    svg("polyline", { points: pts.map(([x, y]) => `${x - off},${y - off}`).join(" "), class: "piece-link", stroke: p.colour === "white" ? "#888" : "#111", fill: "none" }, pg);
    p.cells.forEach(([c, r], i) => { const [x, y] = xy(c, r); drawDot(pg, x, y, p.colour, i === 0, p.level, lifted); });
  }

  // Selection: lines of travel, legal destinations, the piece in hand.
  if (live && app.sel) {
    if (app.sel.kind === "shift") {
      const [fc, fr] = app.sel.from.split(",").map(Number);
      for (const [dc, dr] of DIRS.slice(0, 3)) {
        let a = [fc, fr], b = [fc, fr];
        while (exists(a[0] + dc, a[1] + dr)) a = [a[0] + dc, a[1] + dr];
        while (exists(b[0] - dc, b[1] - dr)) b = [b[0] - dc, b[1] - dr];
        const [x1, y1] = xy(...a), [x2, y2] = xy(...b);
        svg("line", { x1, y1, x2, y2, class: "line" }, board);
      }
    }
    for (const key of Object.keys(t)) {
      const [c, r] = key.split(",").map(Number);
      const [x, y] = xy(c, r);
      svg("circle", { cx: x, cy: y, r: HEX * 0.28, class: "target", "data-cell": cellName(c, r) }, board);
    }
    const at = app.target || (!app.keyboard && t[app.hover] ? app.hover : null);
    const type = selType();
    if (at && type) {
      const [c, r] = at.split(",").map(Number);
      const fp = footprint(type, c, r, app.rot);
      if (fp) {
        const g = svg("g", { class: "ghost" }, board);
        fp.forEach(([x0, y0], i) => { const [x, y] = xy(x0, y0); drawDot(g, x, y, app.state.turn, i === 0, 1, false); });
      }
    }
  }

  // The winning chain at the end.
  const outcome = app.viewPly === null || (app.replay && app.viewPly === app.replay.moves.length)
    ? (app.state ? app.state.outcome : app.replay && app.replay.outcome) : null;
  for (const name of (outcome && outcome.winning_chain) || []) {
    const [c, r] = parseCell(name);
    const [x, y] = xy(c, r);
    svg("polygon", { points: hexPoints(x, y, HEX - 2), class: "chain" }, board);
  }

  // The keyboard cursor, while the board has the focus.
  $("board").dataset.cursor = app.cursor ? cellName(...app.cursor.split(",").map(Number)) : "";
  if (app.cursor && app.keyboard && live && myTurn() && document.activeElement === $("board")) {
    const [c, r] = app.cursor.split(",").map(Number);
    const [x, y] = xy(c, r);
    svg("polygon", { points: hexPoints(x, y, HEX + 1), class: "cursor", "data-cell": cellName(c, r) }, board);
  }
}

function renderPanel() {
  const s = app.state;
  const pos = shownPosition();
  if (!pos) return;
  const me = s && s.you.length === 1 ? s.you[0] : (s ? s.turn : "white");
  const them = me === "white" ? "black" : "white";
  for (const colour of ["white", "black"]) {
    const el = $(`p-${colour}`);
    el.querySelector(".name").textContent = s ? `${s.seats[colour].name}${s.seats[colour].open ? " (seat open)" : ""}${s.you.includes(colour) ? " — you" : ""}` : colour;
    el.classList.toggle("to-move", pos.turn === colour && !(s && s.outcome));
  }
  updateClocks();
  let status;
  if (app.viewPly !== null) status = `Reviewing: position after ${shownPly()} of ${allMoves().length} moves (End returns to the live position)`;
  else if (s && s.outcome) status = `${s.outcome.text} (${s.outcome.result})`;
  else if (!s && app.replay) status = app.replay.outcome ? app.replay.outcome.text : `${pos.turn} to move`;
  else if (Object.values(s.seats).some((x) => x.open)) status = "Waiting for your friend to open the link…";
  else if (s.thinking) status = `${pos.turn} to move — the computer is thinking…`;
  else status = `${pos.turn} to move${myTurn() ? " — your turn" : ""}`;
  $("status").textContent = status;
  $("centre").textContent = pos.variant === "standard" ? `Central hexagon: white ${pos.centre.white}, black ${pos.centre.black}` : "";

  const reserve = (colour, el) => {
    el.textContent = "";
    for (const t of TYPES) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = `${t} ×${pos.reserve[colour][t]}`;
      b.setAttribute("aria-label", `${colour} ${t} pieces: ${pos.reserve[colour][t]} left`);
      const canPlace = app.viewPly === null && myTurn() && colour === s.turn && legalIndex().place[t];
      b.disabled = !canPlace;
      b.setAttribute("aria-pressed", String(!!(app.sel && app.sel.kind === "place" && app.sel.type === t && colour === s.turn)));
      b.addEventListener("click", () => { app.sel = { kind: "place", type: t }; app.target = null; render(); });
      el.appendChild(b);
    }
  };
  reserve(me, $("reserve-me"));
  reserve(them, $("reserve-them"));
  const holds = (c) => s && s.you.includes(c);
  $("reserve-me-title").textContent = `${me === "white" ? "White" : "Black"}'s reserve${holds(me) ? " (you)" : ""}`;
  $("reserve-them-title").textContent = `${them === "white" ? "White" : "Black"}'s reserve${holds(them) ? " (you)" : ""}`;

  // Offers and requests from the opponent.
  const offers = $("offers");
  offers.textContent = "";
  if (s && !s.outcome) {
    const mine = s.you;
    const addBtn = (label, path) => { const b = document.createElement("button"); b.type = "button"; b.textContent = label; b.addEventListener("click", () => act(path)); offers.appendChild(b); };
    if (s.draw_offer && mine.length && !mine.includes(s.draw_offer)) { offers.append(`${s.draw_offer} offers a draw: `); addBtn("Accept draw", "draw"); addBtn("Decline", "draw/decline"); }
    else if (s.draw_offer) offers.append(`${s.draw_offer} offered a draw.`);
    if (s.takeback_request && mine.length && !mine.includes(s.takeback_request)) { offers.append(`${s.takeback_request} asks to take back: `); addBtn("Allow", "takeback"); addBtn("Decline", "takeback/decline"); }
    else if (s.takeback_request) offers.append(`${s.takeback_request} asked for a takeback.`);
  }
  const seated = s && s.you.length && !s.outcome;
  for (const id of ["resign", "offer-draw", "takeback"]) $(id).disabled = !seated;
  $("move-text").disabled = !myTurn();
  const share = $("share");
  share.hidden = !(s && s.mode === "friend" && Object.values(s.seats).some((x) => x.open));
  if (!share.hidden) $("share-link").value = `${location.origin}/g/${s.id}`;
  $("play-from").disabled = !pos;

  // Move list.
  const list = $("move-list");
  list.textContent = "";
  allMoves().forEach((m, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = m;
    if (i + 1 === shownPly()) b.classList.add("current");
    b.addEventListener("click", () => review(i + 1));
    li.appendChild(b);
    list.appendChild(li);
  });
  // Keep the current move in view by scrolling the list alone (never the page).
  const cur = list.querySelector(".current");
  if (cur) {
    const top = cur.offsetTop;
    if (top < list.scrollTop || top + cur.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top - list.clientHeight / 2;
  }
}

function updateClocks() {
  const s = app.state;
  for (const colour of ["white", "black"]) {
    const el = $(`p-${colour}`).querySelector(".clock");
    if (!s || !s.clock) { el.textContent = ""; continue; }
    let ms = s.clock[`${colour}_ms`];
    if (s.clock.running === colour) ms -= performance.now() - app.clockAt;
    el.textContent = fmtClock(ms);
  }
}
setInterval(updateClocks, 250);

// ---------- Review ----------

function review(ply) {
  const n = allMoves().length;
  ply = Math.max(0, Math.min(n, ply));
  app.viewPly = (app.state && ply === n) ? null : ply;
  if (app.viewPly !== null && !app.replay && app.id) {
    api("GET", `/api/games/${app.id}/replay`).then((r) => { app.replay = r; render(); });
  }
  clearSelection();
  render();
}

$("first").addEventListener("click", () => review(0));
$("prev").addEventListener("click", () => review(shownPly() - 1));
$("next").addEventListener("click", () => review(shownPly() + 1));
$("last").addEventListener("click", () => review(allMoves().length));

// ---------- Controls ----------

$("rot-left").addEventListener("click", () => turnPiece(-1));
$("rot-right").addEventListener("click", () => turnPiece(1));
$("put-down").addEventListener("click", () => { if (app.sel && app.target) sendMove(moveText(app.target, app.rot)); });
$("cancel-sel").addEventListener("click", () => { clearSelection(); render(); });
$("lift").addEventListener("change", render);
$("flip").addEventListener("click", () => { app.flipped = !app.flipped; render(); });
$("resign").addEventListener("click", () => { if (confirm("Resign this game?")) act("resign"); });
$("offer-draw").addEventListener("click", () => act("draw"));
$("takeback").addEventListener("click", () => act("takeback"));
$("move-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const text = $("move-text").value.trim();
  if (text) { $("move-text").value = ""; sendMove(text); }
});
$("analyse").addEventListener("click", async () => {
  const pos = app.viewPly !== null && app.replay ? app.replay.positions[app.viewPly] : (app.state ? app.state.position : app.replay && app.replay.positions[app.replay.positions.length - 1]);
  $("analysis").textContent = "Thinking…";
  try {
    const a = await api("POST", "/api/analyse", { position: pos });
    $("analysis").textContent = a.best_move
      ? `Side to move: win ${(a.win * 100).toFixed(0)}%, draw ${(a.draw * 100).toFixed(0)}%, loss ${(a.loss * 100).toFixed(0)}%. Best line: ${a.pv.join(" ") || a.best_move}`
      : "No move: the game is over here.";
  } catch (e) { $("analysis").textContent = e.message; }
});
function exportText(text) { const t = $("export"); t.hidden = false; t.value = text; t.focus(); t.select(); }
$("export-record").addEventListener("click", async () => {
  if (app.id) exportText(await (await fetch(`/api/games/${app.id}/record`)).text());
  else if (app.replay) exportText(`[Game "PÜNCT"]\n[Position "${app.replay.start}"]\n\n${app.replay.moves.map((m, i) => (i % 2 === 0 ? `${i / 2 + 1}. ` : "") + m).join(" ")} *`);
});
$("export-position").addEventListener("click", () => {
  const p = app.viewPly !== null && app.replay ? app.replay.positions[app.viewPly] : (app.state ? app.state.position : app.replay.positions.at(-1));
  exportText(p);
});
$("play-from").addEventListener("click", async () => {
  const p = app.viewPly !== null && app.replay ? app.replay.positions[app.viewPly] : (app.state ? app.state.position : app.replay.positions.at(-1));
  try { await createGame({ mode: "computer", level: +$("level-select").value, start: p }); }
  catch (e) { $("game-error").textContent = e.message; }
});

document.addEventListener("keydown", (ev) => {
  if (app.view !== "game" || ev.target.closest("input, textarea, select")) return;
  // On the board, in the live position on our turn, the arrows move the cursor.
  if (ev.target === $("board") && app.viewPly === null && myTurn() && !ev.altKey && !ev.ctrlKey && !ev.metaKey && boardKey(ev)) { ev.preventDefault(); return; }
  const n = allMoves().length;
  const keys = {
    ArrowLeft: () => review(shownPly() - 1), ArrowRight: () => review(shownPly() + 1),
    Home: () => review(0), End: () => review(n),
    r: () => { turnPiece(1); announceCursor(); }, R: () => { turnPiece(-1); announceCursor(); },
    // With a piece in hand, ↑/↓ step through the cells where it may go.
    ArrowUp: () => stepTarget(-1), ArrowDown: () => stepTarget(1),
    Escape: () => { clearSelection(); render(); announceCursor(); },
    Enter: () => { if (app.sel && app.target) sendMove(moveText(app.target, app.rot)); },
  };
  if (keys[ev.key] && !(ev.key === "Enter" && ev.target.tagName === "BUTTON")) { ev.preventDefault(); keys[ev.key](); }
});

// ---------- Start ----------

window.addEventListener("popstate", route);
function route() {
  const m = /^\/g\/([0-9a-f]+)$/.exec(location.pathname);
  if (m) openGame(m[1]); else { closeGame(); show("home"); }
}
route();
