// The PÜNCT browser app: plain JavaScript module, no build step. The server is the sole
// judge of moves; this page only offers the legal moves the server lists, and shows what
// the server says (including why an attempt is refused).

// ---------- Board geometry (mirrors punct-core: cell.rs, piece.rs, geometry.rs) ----------

const LETTERS = "ABCDEFGHIJKLMNOPQ";
// Direction steps (Δcolumn, Δrow), D0..D5 as in RULINGS.md §1.
const DIRS = [[0, -1], [-1, -1], [-1, 0], [0, 1], [1, 1], [1, 0]];
// Paths from the PÜNCT to the two minor dots, as turns of the rotation's direction.
const TURNS = { T: [[0], [1]], C: [[0], [3]], E: [[0], [0, 0]], L: [[0], [0, 1]], M: [[1], [3]], R: [[4], [4, 3]] };
const TYPES = ["T", "C", "E", "L", "M", "R"];
const TYPE_NAMES = { T: "triangle", C: "straight, PÜNCT in the middle", E: "straight, PÜNCT at an end", L: "angle L", M: "angle, PÜNCT at the elbow", R: "angle R" };
const FULL = { T: 6, C: 2, E: 4, L: 2, M: 2, R: 2 };
const CORNERS = new Set(["0,0", "0,8", "8,0", "8,16", "16,8", "16,16"]);

const exists = (c, r) => c >= 0 && r >= 0 && c <= 16 && r <= 16 && Math.abs(c - r) <= 8 && !CORNERS.has(`${c},${r}`);
const cellName = (c, r) => `${LETTERS[c]}${r + 1}`;
function parseCell(name) {
  const c = LETTERS.indexOf(name[0]);
  const r = parseInt(name.slice(1), 10) - 1;
  return [c, r];
}
const keyName = (key) => cellName(...key.split(",").map(Number));
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
const parsed = new Map();
function parsePosition(text) {
  if (parsed.has(text)) return parsed.get(text);
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
  const pos = { text, variant, turn: side === "w" ? "white" : "black", ply: +ply, pieces, stacks, reserve, centre };
  if (parsed.size > 64) parsed.clear();
  parsed.set(text, pos);
  return pos;
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
  if (ms < 10000) return `0:0${(Math.max(0, ms) / 1000).toFixed(1)}`;
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const other = (c) => (c === "white" ? "black" : "white");
function say(text) { $("game-error").textContent = text; }
function ago(ms) {
  const s = Math.round((Date.now() - ms) / 1000);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return new Date(ms).toLocaleDateString();
}

// ---------- App state ----------

const app = {
  view: "home",
  id: null, token: null, state: null, seq: 0, ws: null, wsRetry: 0, lastHeard: 0,
  replay: null,        // { positions, moves, outcome } of the game or an import
  viewPly: null,       // null = live position
  imported: false,     // reviewing an imported record (no live game)
  legal: [],           // legal move texts for the live position when it is ours to play
  legalFor: null,
  legalIdx: null,      // legal moves indexed: { place: {type: {cell: [rot]}}, shift: {from: {to: [rot]}} }
  sel: null,           // { kind: "place", type } or { kind: "shift", from }
  target: null,        // chosen cell "c,r" for the piece in hand
  rot: 0,
  hover: null,
  cursor: null,        // keyboard cursor over the board, "c,r"
  cursorY: null,       // screen row that ←/→ keep to while moving along a row
  keyboard: false,     // the board is being used with keys (shows the cursor ring)
  pointerDown: false,
  drag: null,          // dragging a minor dot of the piece in hand: { minor, cell }
  flipped: false,
  lastInput: "pointer",
  clockAt: 0,
  analysis: { for: null, result: null, timer: null },
};

// ---------- Views and routing ----------

function show(view) {
  app.view = view;
  for (const el of document.querySelectorAll(".view")) el.hidden = el.id !== `view-${view}`;
  if (view === "games" || view === "home") loadGames();
  if (view === "rules") loadRules();
  if (view !== "game") document.title = "PÜNCT";
}

for (const b of document.querySelectorAll("header nav button")) {
  b.addEventListener("click", () => {
    closeGame();
    history.pushState(null, "", "/");
    show(b.dataset.view);
  });
}

function gameItem(g) {
  const li = document.createElement("li");
  const a = document.createElement("a");
  a.href = `/g/${g.id}`;
  a.textContent = `${g.white} – ${g.black}`;
  a.addEventListener("click", (ev) => { ev.preventDefault(); history.pushState(null, "", a.href); openGame(g.id); });
  li.appendChild(a);
  const mode = { computer: "against the computer", local: "on one screen", friend: "online" }[g.mode] || g.mode;
  const meta = document.createElement("span");
  meta.className = "meta";
  meta.textContent = ` — ${g.live ? "live" : g.result}, ${g.moves} moves, ${mode}, ${ago(g.updated_ms)}`;
  li.appendChild(meta);
  return li;
}

async function loadGames() {
  const lists = { live: [$("live-list"), $("home-games")], done: [$("game-list")] };
  try {
    const { games } = await api("GET", "/api/games");
    const fill = (els, gs, none) => {
      for (const el of els) {
        el.textContent = "";
        if (!gs.length) { const li = document.createElement("li"); li.textContent = none; el.appendChild(li); }
        for (const g of gs) el.appendChild(gameItem(g));
      }
    };
    fill(lists.live, games.filter((g) => g.live), "No live games right now.");
    fill(lists.done, games.filter((g) => !g.live), "No finished games yet.");
  } catch (e) { for (const el of [...lists.live, ...lists.done]) el.textContent = e.message; }
}
setInterval(() => { if (app.view === "games" || app.view === "home") loadGames(); }, 10000);

async function loadRules() {
  try { $("rules-text").innerHTML = await (await fetch("/api/rules")).text(); }
  catch (e) { $("rules-text").textContent = e.message; }
}

// ---------- New game, import ----------

const LEVEL_NAMES = ["beginner", "casual", "club", "strong", "expert", "full strength"];
for (const sel of [$("level-select"), $("import-level"), $("play-from-level")]) {
  for (let n = 1; n <= 6; n++) {
    const o = document.createElement("option");
    o.value = n; o.textContent = `${n} – ${LEVEL_NAMES[n - 1]}`;
    if (n === 3) o.selected = true;
    sel.appendChild(o);
  }
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

// The name typed here is kept for the next game and for joining a friend's game by its link.
const nameInput = document.querySelector("#new-game input[name='name']");
nameInput.value = localStorage.getItem("punct.name") || "";
nameInput.addEventListener("input", () => localStorage.setItem("punct.name", nameInput.value.trim()));

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

$("import-file").addEventListener("change", async () => {
  const file = $("import-file").files[0];
  if (file) $("import-text").value = await file.text();
});

$("import-review").addEventListener("click", async () => {
  $("import-error").textContent = "";
  try {
    const replay = await api("POST", "/api/import", { text: $("import-text").value });
    closeGame();
    app.imported = true;
    app.replay = replay;
    app.viewPly = replay.moves.length;
    history.pushState(null, "", "/");
    show("game");
    render();
  } catch (e) { $("import-error").textContent = e.message; }
});

// Plays on from `start` (a record or position) against the computer, as `colour` or as the
// side to move.
async function playOn(start, level, colour) {
  const replay = await api("POST", "/api/import", { text: start });
  const turn = parsePosition(replay.positions[replay.positions.length - 1]).turn;
  await createGame({ mode: "computer", level, colour: colour || turn, start });
}

$("import-play").addEventListener("click", async () => {
  $("import-error").textContent = "";
  try { await playOn($("import-text").value, +$("import-level").value, $("import-colour").value); }
  catch (e) { $("import-error").textContent = e.message; }
});

// ---------- A game: loading, live updates ----------

function closeGame() {
  if (app.ws) { app.ws.onclose = null; app.ws.close(); }
  Object.assign(app, { id: null, token: null, state: null, seq: 0, ws: null, replay: null, viewPly: null, imported: false, legal: [], legalFor: null, legalIdx: null, cursor: null });
  app.analysis.for = null; app.analysis.result = null;
  clearSelection();
  $("conn").hidden = true;
  $("export-box").hidden = true;
  say("");
}

async function openGame(id) {
  closeGame();
  app.id = id;
  app.token = localStorage.getItem(`punct.token.${id}`);
  show("game");
  try {
    let state = await api("GET", `/api/games/${id}`, undefined, app.token);
    // The friend's link carries the game's invitation after `#`, which never reaches a
    // server's logs; the game's id alone, which watchers see, does not give the seat.
    const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
    if (invite && !state.you.length && !state.outcome && (state.seats.white.open || state.seats.black.open)) {
      try {
        const grant = await api("POST", `/api/games/${id}/join`, { name: localStorage.getItem("punct.name") || undefined, invite });
        localStorage.setItem(`punct.token.${id}`, grant.token);
        app.token = grant.token;
        state = grant.state;
      } catch { /* someone else was first: watch */ }
    }
    if (app.id !== id) return;
    applyState(state);
    connect();
  } catch (e) { say(e.message); }
}

// The live connection: the state at once, then every change in sequence order. It reconnects
// by itself (backing off to one try every 5 s) and catches up from the state it is sent.
function connect() {
  if (!app.id || app.ws) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/api/games/${app.id}/ws`);
  app.ws = ws;
  // The seat's token goes in the first message rather than the URL, which proxies log; the
  // server's first state, sent once it has this, shows the seat.
  ws.onopen = () => {
    ws.send(JSON.stringify({ type: "hello", token: app.token || undefined }));
    app.wsRetry = 0; app.lastHeard = Date.now(); $("conn").hidden = true;
  };
  ws.onmessage = (ev) => {
    if (app.ws !== ws) return;
    app.lastHeard = Date.now();
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") applyState(msg.state, true);
    else if (msg.type === "event") {
      if (msg.seq <= app.seq) return;
      if (msg.seq > app.seq + 1) { ws.send(JSON.stringify({ type: "sync" })); return; }
      applyState(msg.state);
    } else if (msg.type === "error") say(msg.error);
  };
  ws.onclose = () => {
    if (app.ws !== ws) return;
    app.ws = null;
    // A finished game changes no more: nothing to reconnect for.
    if (!app.id || (app.state && app.state.outcome)) return;
    $("conn").hidden = false;
    const wait = Math.min(5000, 250 * 2 ** app.wsRetry++) * (0.8 + 0.4 * Math.random());
    setTimeout(() => { if (app.id && !app.ws) connect(); }, wait);
  };
}
// A connection that has gone quiet (no pong in 10 s) is dropped and made again.
setInterval(() => {
  const ws = app.ws;
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  if (Date.now() - app.lastHeard > 35000) { ws.close(); return; }
  ws.send(JSON.stringify({ type: "ping" }));
}, 25000);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && app.ws && app.ws.readyState === WebSocket.OPEN) app.ws.send(JSON.stringify({ type: "sync" }));
});

function applyState(state, full) {
  if (app.state && state.seq < app.seq) return;
  if (app.state && state.seq === app.seq && !full) return;
  const before = app.state;
  const movesChanged = !before || before.moves.length !== state.moves.length || before.position !== state.position;
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

function seatsOpen() { return app.state && Object.values(app.state.seats).some((x) => x.open); }
function myTurn() {
  const s = app.state;
  return !!(s && !s.outcome && s.you.includes(s.turn) && !seatsOpen());
}

async function refreshLegal() {
  const s = app.state;
  if (!myTurn()) { app.legal = []; app.legalIdx = null; app.legalFor = null; return; }
  if (app.legalFor === s.position) return;
  app.legalFor = s.position;
  try {
    const { moves } = await api("GET", `/api/legal?position=${encodeURIComponent(s.position)}`);
    if (app.legalFor === s.position) { app.legal = moves; app.legalIdx = null; render(); }
  } catch (e) { say(e.message); }
}

async function act(path, body) {
  say("");
  try { applyState(await api("POST", `/api/games/${app.id}/${path}`, body || {}, app.token)); }
  catch (e) { say(e.message); }
}

async function sendMove(text) {
  clearSelection();
  render();
  await act("move", { move: text });
}

// Asks the server why `move` is not legal in the live position and says it (or `fallback`,
// given the reason, when that says it better).
async function explain(move, fallback) {
  try {
    const r = await api("GET", `/api/legal?position=${encodeURIComponent(app.state.position)}&move=${encodeURIComponent(move)}`);
    if (!r.legal) say((fallback && fallback(r.reason)) || `${move} is not allowed: ${r.reason}.`);
  } catch (e) { say(e.message); }
}

// ---------- Legal move lookups for the current selection ----------

// Parsed legal moves: placements by type and shifts by origin, with rotations per cell.
function legalIndex() {
  if (app.legalIdx) return app.legalIdx;
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
  app.legalIdx = { place, shift };
  return app.legalIdx;
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

function clearSelection() { app.sel = null; app.target = null; app.drag = null; }

function selType() {
  if (!app.sel) return null;
  if (app.sel.kind === "place") return app.sel.type;
  const s = parsePosition(app.state.position).stacks.get(app.sel.from);
  return s ? s[s.length - 1].piece.type : null;
}

// The cell the piece in hand is shown on: the chosen one, or (with the mouse) the one under it.
function handCell() {
  const t = targets();
  if (app.target) return app.target;
  return !app.keyboard && app.hover && t[app.hover] ? app.hover : null;
}

function turnPiece(step) {
  if (!app.sel) { say("Pick a piece first: one from your reserve or one of yours on the board."); return; }
  const t = targets()[handCell()];
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

// Why the player cannot act now, or null when they can.
function cannotAct() {
  const s = app.state;
  if (!s) return "This is a review: there is no live game to play in. Use “Play on from here” to play from this position.";
  if (s.outcome) return `The game is over: ${s.outcome.text}.`;
  if (!s.you.length) return "You are watching this game.";
  if (seatsOpen()) return "The game starts when your friend opens the link.";
  if (!s.you.includes(s.turn)) return `It is ${s.turn}'s turn${s.thinking ? " — the computer is thinking" : ""}.`;
  if (app.viewPly !== null) return "You are looking at an earlier position: press End (or ▶|) to return to the live game.";
  return null;
}

function pickReserve(type, byKeyboard) {
  const why = cannotAct();
  if (why) { say(why); return; }
  const pos = parsePosition(app.state.position);
  if (pos.reserve[app.state.turn][type] <= 0) { say(`You have no ${type} piece left in your reserve.`); return; }
  if (!legalIndex().place[type]) {
    say(app.legal.length ? `A ${type} piece fits nowhere on the board now.` : "Fetching the legal moves…");
    return;
  }
  say("");
  app.sel = { kind: "place", type };
  app.target = null;
  if (byKeyboard) {
    // Go on with the keys on the board: the cursor starts on the target nearest the middle.
    const keys = Object.keys(targets());
    const [mx, my] = xy(8, 8);
    keys.sort((a, b) => { const [ax, ay] = xy(...a.split(",").map(Number)), [bx, by] = xy(...b.split(",").map(Number)); return Math.hypot(ax - mx, ay - my) - Math.hypot(bx - mx, by - my); });
    app.keyboard = true;
    app.cursor = app.target = keys[0];
    fitRotation(app.target);
    $("board").focus();
  }
  render();
  announceCursor();
}

function clickCell(key) {
  app.cursor = key;
  if (app.drag) return;
  const s = app.state;
  const pos = shownPosition();
  const stack = pos && pos.stacks.get(key);
  const top = stack && stack[stack.length - 1].piece;
  if (!myTurn() || app.viewPly !== null) {
    showStack(key);
    // Trying to pick up a piece when that cannot be done: say why.
    if (top && s && s.you.length) { const why = cannotAct(); if (why) say(why); }
    return;
  }
  const t = targets();
  if (app.sel && t[key]) {
    say("");
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
  if (top) {
    const from = `${top.c},${top.r}`;
    if (top.colour === s.turn && legalIndex().shift[from]) {
      say("");
      app.sel = { kind: "shift", from };
      app.target = null;
      app.rot = top.rot;
      showStack(key);
      render();
      return;
    }
    if (!app.sel) {
      showStack(key);
      if (top.colour !== s.turn) say(`That is ${top.colour}'s piece: pick one of yours, or a piece from your reserve.`);
      else {
        const at = cellName(top.c, top.r);
        explain(`${at}-${at}:${top.rot}`, (why) => why.includes("cannot move") ? `${cap(why)}.` : `Your piece on ${at} has no legal move.`);
      }
      return;
    }
  }
  if (app.sel) { explain(moveText(key, app.rot)); return; }
  showStack(key);
}

function showStack(key) {
  const view = shownPosition();
  if (!view || !key) return;
  const [c, r] = key.split(",").map(Number);
  const s = view.stacks.get(key);
  $("stack-info").textContent = s
    ? `${cellName(c, r)}, bottom to top: ` + s.map((d) => `${d.piece.colour} ${d.piece.type}${d.punct ? " PÜNCT" : ""} (level ${d.piece.level})`).join(", ")
    : `${cellName(c, r)}: empty${inCentre(c, r) ? " (central hexagon)" : ""}`;
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
    say("");
    render();
  } else if (!from) {
    clickCell(app.cursor);
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

const board = $("board");
board.addEventListener("focus", () => {
  // The cursor is for the keys: a tap or click that focuses the board does not show it.
  app.keyboard = app.lastInput === "key" && !app.pointerDown;
  if (!app.cursor && app.state) app.cursor = "8,8";
  renderBoard();
  // Where the cursor is is news only to someone using the keys: a tap that focuses the
  // board must not report a cell other than the one tapped.
  if (app.keyboard && app.viewPly === null && myTurn()) announceCursor();
});
board.addEventListener("blur", () => renderBoard());
for (const type of ["pointerup", "pointercancel"]) document.addEventListener(type, () => { app.pointerDown = false; });
// Whether the person is using the keys or a pointer: a reserve piece picked with the keys
// hands the focus to the board, with a cell chosen.
document.addEventListener("pointerdown", () => { app.lastInput = "pointer"; }, true);
document.addEventListener("keydown", () => { app.lastInput = "key"; }, true);

// ---------- Mouse and touch on the board ----------

// The cell under a pointer event (the cells are the board's hit targets).
function cellAt(ev) {
  const el = document.elementFromPoint(ev.clientX, ev.clientY);
  const name = el && el.dataset && el.dataset.cell;
  return name ? parseCell(name).join(",") : null;
}
// A pointer event's place in board coordinates.
function boardPoint(ev) {
  const m = board.getScreenCTM();
  if (!m) return [0, 0];
  const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
  return [p.x, p.y];
}

board.addEventListener("pointerdown", (ev) => {
  app.keyboard = false;
  app.pointerDown = true;
  const minor = ev.target.dataset && ev.target.dataset.minor;
  const at = handCell();
  if (minor !== undefined && app.sel && at) {
    // Dragging a minor dot of the piece in hand around its PÜNCT turns it.
    ev.preventDefault();
    app.target = at;
    app.drag = { minor: +minor, cell: at, moved: false };
    board.setPointerCapture(ev.pointerId);
    render();
  }
});
board.addEventListener("pointermove", (ev) => {
  if (app.drag) {
    ev.preventDefault();
    const [px, py] = boardPoint(ev);
    const [c, r] = app.drag.cell.split(",").map(Number);
    const rots = targets()[app.drag.cell] || [];
    const type = selType();
    let best = app.rot, bestD = Infinity;
    for (const rot of rots) {
      const fp = footprint(type, c, r, rot);
      if (!fp) continue;
      const [x, y] = xy(...fp[1 + app.drag.minor]);
      const d = Math.hypot(x - px, y - py);
      if (d < bestD) { bestD = d; best = rot; }
    }
    if (best !== app.rot) { app.rot = best; app.drag.moved = true; renderBoard(); }
    return;
  }
  if (ev.pointerType !== "mouse") return;
  const key = cellAt(ev);
  if (key && key !== app.hover) {
    app.hover = key;
    if (app.sel && !app.target) { fitRotation(key); renderBoard(); }
    showStack(key);
  }
});
board.addEventListener("pointerup", (ev) => {
  if (app.drag) {
    board.releasePointerCapture(ev.pointerId);
    const moved = app.drag.moved;
    // Let the click that follows this release pass without putting the piece down; a dot
    // pressed and released without turning counts as a click on its cell.
    setTimeout(() => {
      app.drag = null;
      const cell = moved ? null : document.elementsFromPoint(ev.clientX, ev.clientY).find((e) => e.classList.contains("cell"));
      if (cell) clickCell(parseCell(cell.dataset.cell).join(","));
      else render();
    }, 0);
  }
});
board.addEventListener("pointerleave", () => { if (!app.drag && app.hover) { app.hover = null; renderBoard(); } });
board.addEventListener("wheel", (ev) => {
  if (app.sel && handCell()) { ev.preventDefault(); turnPiece(ev.deltaY > 0 ? 1 : -1); }
}, { passive: false });

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
  const n = allMoves().length;
  return app.viewPly === null ? n : app.viewPly;
}
function allMoves() { return app.state ? app.state.moves : (app.replay ? app.replay.moves : []); }
function shownText() { const p = shownPosition(); return p && p.text; }
function atEnd() { return app.viewPly === null || app.viewPly === allMoves().length; }

// One dot of a piece. Levels show at a glance: a raised dot is shifted up and to the left with
// a shadow under it, its outline is heavier, and a badge carries the level number; with
// "lift", stacks spread further apart and raised pieces turn translucent.
function drawDot(g, x, y, colour, punct, level, lifted, extra = {}) {
  const off = (level - 1) * (lifted ? HEX * 0.5 : HEX * 0.16);
  const cx = x - off, cy = y - off;
  const rad = HEX * 0.6;
  if (level > 1) svg("circle", { cx: cx + 2.5, cy: cy + 2.5, r: rad, class: "shadow" }, g);
  const fill = colour === "white" ? "#ffffff" : "#1f1f1f";
  const attrs = { cx, cy, r: rad, fill, stroke: colour === "white" ? "#222" : "#000", "stroke-width": 1.4 + (level - 1) * 0.9, class: "dot" };
  if (lifted && level > 1) attrs["fill-opacity"] = 0.8;
  const dot = svg("circle", { ...attrs, ...extra }, g);
  if (punct) {
    // The PÜNCT: a ring of the opposite tone inside the dot.
    svg("circle", { cx, cy, r: HEX * 0.34, fill: "none", stroke: colour === "white" ? "#111" : "#fff", "stroke-width": 2.6, class: "dot" }, g);
  }
  if (level > 1) {
    const bx = cx + HEX * 0.5, by = cy - HEX * 0.5;
    svg("circle", { cx: bx, cy: by, r: 5.6, class: "badge" }, g);
    svg("text", { x: bx, y: by + 0.5, class: "level" }, g).textContent = level;
  }
  return dot;
}

// A small drawing of a piece type for the reserve buttons.
function pieceIcon(type, colour) {
  const fp = footprint(type, 8, 8, type === "R" ? 1 : 0);
  const pts = fp.map(([c, r]) => [Math.sqrt(3) / 2 * c * 10, (0.5 * c - r) * 10]);
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  const [x0, y0] = [Math.min(...xs) - 6, Math.min(...ys) - 6];
  const w = Math.max(...xs) - x0 + 6, h = Math.max(...ys) - y0 + 6;
  const side = Math.max(w, h);
  const icon = svg("svg", { viewBox: `${x0 - (side - w) / 2} ${y0 - (side - h) / 2} ${side} ${side}`, "aria-hidden": "true" });
  svg("polyline", { points: pts.map((p) => p.join(",")).join(" "), fill: "none", stroke: "#888", "stroke-width": 3 }, icon);
  pts.forEach(([x, y], i) => {
    svg("circle", { cx: x, cy: y, r: 4.2, fill: colour === "white" ? "#fff" : "#222", stroke: "#111", "stroke-width": 1 }, icon);
    if (i === 0) svg("circle", { cx: x, cy: y, r: 2.1, fill: "none", stroke: colour === "white" ? "#111" : "#fff", "stroke-width": 1.2 }, icon);
  });
  return icon;
}

function render() {
  renderBoard();
  renderPanel();
  scheduleAnalysis();
}

// The cells and labels are built once per orientation and kept, so that pointer events
// (hover, click) always land on the same elements; everything else is redrawn above them.
let staticBoard = null;
function buildStaticBoard() {
  board.textContent = "";
  const pad = 1.4 * D;
  const xs = ALL_CELLS.map(([c, r]) => xy(c, r));
  const minX = Math.min(...xs.map((p) => p[0])) - pad, maxX = Math.max(...xs.map((p) => p[0])) + pad;
  const minY = Math.min(...xs.map((p) => p[1])) - pad, maxY = Math.max(...xs.map((p) => p[1])) + pad;
  board.setAttribute("viewBox", `${minX} ${minY} ${maxX - minX} ${maxY - minY}`);
  const cells = svg("g", {}, board);
  const under = svg("g", { "pointer-events": "none" }, board);
  for (const [c, r] of ALL_CELLS) {
    const [x, y] = xy(c, r);
    const key = `${c},${r}`;
    const poly = svg("polygon", { points: hexPoints(x, y, HEX), class: `cell${inCentre(c, r) ? " centre" : ""}`, "data-cell": cellName(c, r) }, cells);
    poly.addEventListener("click", () => clickCell(key));
    const goal = goalOf(c, r);
    if (goal >= 0) svg("polygon", { points: hexPoints(x, y, HEX - 3), class: `goal goal${goal}` }, cells);
  }
  // The central hexagon's outline: its 19 cells' outer edges.
  for (const [c, r] of ALL_CELLS.filter(([c, r]) => inCentre(c, r))) {
    const [x, y] = xy(c, r);
    for (let i = 0; i < 6; i++) {
      const a = Math.PI / 3 * i, b = Math.PI / 3 * (i + 1);
      const mx = x + D * Math.cos((a + b) / 2), my = y + D * Math.sin((a + b) / 2);
      const n = ALL_CELLS.find(([c2, r2]) => { const [x2, y2] = xy(c2, r2); return Math.hypot(x2 - mx, y2 - my) < 1; });
      if (n && inCentre(...n)) continue;
      svg("line", { x1: x + HEX * Math.cos(a), y1: y + HEX * Math.sin(a), x2: x + HEX * Math.cos(b), y2: y + HEX * Math.sin(b), class: "centre-edge" }, cells);
    }
  }
  // Labels: column letters below each column, row numbers left of each row.
  for (let c = 0; c < 17; c++) {
    const rows = ALL_CELLS.filter((p) => p[0] === c).map((p) => p[1]);
    const [x, y] = xy(c, Math.min(...rows) - 0.85);
    svg("text", { x, y: y + 4, "text-anchor": "middle" }, board).textContent = LETTERS[c];
  }
  for (let r = 0; r < 17; r++) {
    const cols = ALL_CELLS.filter((p) => p[1] === r).map((p) => p[0]);
    const [x, y] = xy(Math.min(...cols) - 0.85, r);
    svg("text", { x, y: y + 4, "text-anchor": "middle" }, board).textContent = r + 1;
  }
  const overlay = svg("g", { "pointer-events": "none" }, board);
  staticBoard = { flipped: app.flipped, overlay, under };
}

function renderBoard() {
  const pos = shownPosition();
  if (!pos) { board.textContent = ""; staticBoard = null; return; }
  if (!staticBoard || staticBoard.flipped !== app.flipped || !board.contains(staticBoard.overlay)) buildStaticBoard();
  const { overlay, under } = staticBoard;
  overlay.textContent = "";
  under.textContent = "";
  const lifted = $("lift").checked;
  const live = app.viewPly === null && app.state;
  const t = live ? targets() : {};
  const hand = live && app.sel ? handCell() : null;
  board.classList.toggle("holding", !!hand);

  // Last move of the shown position: its cells filled, its starting cell ringed.
  const ply = shownPly();
  const last = ply > 0 ? allMoves()[ply - 1] : null;
  if (last) {
    const m = /([A-Q]\d+):\d$/.exec(last);
    const lm = m && parseCell(m[1]);
    const piece = lm && pos.pieces.filter((p) => p.c === lm[0] && p.r === lm[1]).sort((a, b) => b.level - a.level)[0];
    for (const [c, r] of piece ? piece.cells : []) { const [x, y] = xy(c, r); svg("polygon", { points: hexPoints(x, y, HEX - 1), class: "last-fill" }, under); }
    const from = /^([A-Q]\d+)-/.exec(last);
    if (from) { const [fc, fr] = parseCell(from[1]); const [x, y] = xy(fc, fr); svg("circle", { cx: x, cy: y, r: HEX * 0.75, class: "last-from" }, under); }
  }

  // The winning chain at the end, under the dots that make it.
  const outcome = atEnd() ? (app.state ? app.state.outcome : app.replay && app.replay.outcome) : null;
  for (const name of (outcome && outcome.winning_chain) || []) {
    const [c, r] = parseCell(name);
    const [x, y] = xy(c, r);
    svg("polygon", { points: hexPoints(x, y, HEX - 1.5), class: "chain", "data-cell": name }, under);
  }

  // Pieces, lowest level first so higher ones cover them.
  const pieces = [...pos.pieces].sort((a, b) => a.level - b.level);
  const pg = svg("g", {}, overlay);
  for (const p of pieces) {
    if (live && app.sel && app.sel.kind === "shift" && app.sel.from === `${p.c},${p.r}` && hand) continue;
    const pts = p.cells.map(([c, r]) => xy(c, r));
    const off = (p.level - 1) * (lifted ? HEX * 0.5 : HEX * 0.16);
    svg("polyline", { points: pts.map(([x, y]) => `${x - off},${y - off}`).join(" "), class: "piece-link", stroke: p.colour === "white" ? "#888" : "#111", fill: "none" }, pg);
    p.cells.forEach(([c, r], i) => { const [x, y] = xy(c, r); drawDot(pg, x, y, p.colour, i === 0, p.level, lifted, { "data-cell": cellName(c, r), "data-level": p.level }); });
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
        svg("line", { x1, y1, x2, y2, class: "line" }, overlay);
      }
    }
    for (const key of Object.keys(t)) {
      const [c, r] = key.split(",").map(Number);
      const [x, y] = xy(c, r);
      svg("circle", { cx: x, cy: y, r: key === app.target ? HEX * 0.85 : HEX * 0.28, class: `target${key === app.target ? " chosen" : ""}`, "data-cell": cellName(c, r) }, overlay);
    }
    const type = selType();
    if (hand && type) {
      const [c, r] = hand.split(",").map(Number);
      const fp = footprint(type, c, r, app.rot);
      if (fp) {
        const g = svg("g", { class: "ghost", "data-move": moveText(hand, app.rot) }, overlay);
        const pts = fp.map(([x0, y0]) => xy(x0, y0));
        svg("polyline", { points: pts.map((p) => p.join(",")).join(" "), class: "piece-link", stroke: "#0072b2", fill: "none" }, g);
        fp.forEach(([x0, y0], i) => {
          const [x, y] = xy(x0, y0);
          drawDot(g, x, y, app.state.turn, i === 0, 1, false, i > 0 ? { class: "dot handle", "data-minor": i - 1 } : {});
          if (i > 0) svg("circle", { cx: x, cy: y, r: HEX * 0.78, class: "handle-ring" }, g);
        });
      }
    }
  }

  // The engine's best move for the shown position, when analysis is on.
  const a = app.analysis;
  if ($("analysis-on").checked && a.result && a.for === shownText() && a.result.best_move) drawHint(overlay, pos, a.result.best_move);

  // The keyboard cursor, while the board has the focus.
  board.dataset.cursor = app.cursor ? keyName(app.cursor) : "";
  if (app.cursor && app.keyboard && document.activeElement === board) {
    const [c, r] = app.cursor.split(",").map(Number);
    const [x, y] = xy(c, r);
    svg("polygon", { points: hexPoints(x, y, HEX + 1), class: "cursor", "data-cell": cellName(c, r) }, overlay);
    svg("polygon", { points: hexPoints(x, y, HEX - 1.5), class: "cursor-in" }, overlay);
  }
}

// Outlines where `move` would put its piece, with an arrow from where a moved piece starts.
function drawHint(g, pos, move) {
  let m = /^([TCELMR])([A-Q]\d+):(\d)$/.exec(move);
  let type, to, rot, from = null;
  if (m) { type = m[1]; to = parseCell(m[2]); rot = +m[3]; }
  else {
    m = /^([A-Q]\d+)-([A-Q]\d+):(\d)$/.exec(move);
    if (!m) return;
    from = parseCell(m[1]); to = parseCell(m[2]); rot = +m[3];
    const s = pos.stacks.get(from.join(","));
    if (!s) return;
    type = s[s.length - 1].piece.type;
  }
  const fp = footprint(type, to[0], to[1], rot);
  if (!fp) return;
  const hg = svg("g", { class: "hint-move", "data-move": move }, g);
  for (const [c, r] of fp) { const [x, y] = xy(c, r); svg("circle", { cx: x, cy: y, r: HEX * 0.7, class: "hint" }, hg); }
  if (from && (from[0] !== to[0] || from[1] !== to[1])) {
    const [x1, y1] = xy(...from), [x2, y2] = xy(...to);
    svg("line", { x1, y1, x2, y2, class: "hint-arrow" }, hg);
  }
}

// The reserve buttons are made once and then updated in place, so that a click never lands
// on a button that an update has just replaced.
function renderReserve(colour, el, pos) {
  const s = app.state;
  if (el.children.length !== TYPES.length) {
    el.textContent = "";
    for (const t of TYPES) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.type = t;
      b.addEventListener("click", () => {
        const st = app.state, c = el.dataset.colour;
        if (!(st && st.you.includes(c))) { say(st && st.you.length ? `Those are ${c}'s pieces.` : "You are watching this game."); return; }
        pickReserve(t, app.lastInput === "key");
      });
      el.appendChild(b);
    }
  }
  el.dataset.colour = colour;
  const idx = myTurn() ? legalIndex() : { place: {} };
  for (const b of el.children) {
    const t = b.dataset.type;
    if (b.dataset.colour !== colour) {
      b.textContent = "";
      b.appendChild(pieceIcon(t, colour));
      const count = document.createElement("span");
      count.className = "count";
      b.appendChild(count);
      b.dataset.colour = colour;
    }
    const n = pos.reserve[colour][t];
    b.querySelector(".count").textContent = `${t} ×${n}`;
    b.setAttribute("aria-label", `${colour} ${t} (${TYPE_NAMES[t]}): ${n} left`);
    const canPlace = app.viewPly === null && myTurn() && colour === s.turn && !!idx.place[t];
    b.setAttribute("aria-disabled", String(!canPlace));
    b.setAttribute("aria-pressed", String(!!(app.sel && app.sel.kind === "place" && app.sel.type === t && s && colour === s.turn)));
    b.tabIndex = s && s.you.includes(colour) ? 0 : -1;
  }
}

function renderPanel() {
  const s = app.state;
  const pos = shownPosition();
  if (!pos) return;
  const live = !!s;
  const me = s && s.you.length === 1 ? s.you[0] : (s ? s.turn : "white");
  const them = other(me);
  for (const colour of ["white", "black"]) {
    const el = $(`p-${colour}`);
    const name = s ? `${s.seats[colour].name}${s.seats[colour].open ? " (seat open)" : ""}${s.you.includes(colour) ? " — you" : ""}` : cap(colour);
    el.querySelector(".name").textContent = name;
    el.classList.toggle("to-move", pos.turn === colour && !(s && s.outcome) && !(app.replay && !s && app.replay.outcome && atEnd()));
  }
  updateClocks();
  let status;
  const outcome = s ? s.outcome : app.replay && app.replay.outcome;
  if (app.viewPly !== null && !atEnd()) status = `Reviewing: position after ${shownPly()} of ${allMoves().length} moves — End or ▶| returns to the ${live ? "live game" : "last position"}.`;
  else if (outcome) status = `${cap(outcome.text)} (${outcome.result}).`;
  else if (!live) status = `Imported game: ${pos.turn} to move.`;
  else if (seatsOpen()) status = s.you.length ? "Waiting for your friend to open the link…" : "Waiting for a second player.";
  else if (s.thinking) status = `${cap(pos.turn)} to move — the computer is thinking…`;
  else status = `${cap(pos.turn)} to move${myTurn() ? " — your turn" : ""}.`;
  $("status").textContent = status;
  $("status").classList.toggle("over", !!outcome && atEnd());
  $("centre").textContent = pos.variant === "standard" ? `Central hexagon: white ${pos.centre.white}, black ${pos.centre.black} (of 19)` : "Basic game";
  document.title = myTurn() && app.viewPly === null ? "● Your turn — PÜNCT" : "PÜNCT";

  renderReserve(me, $("reserve-me"), pos);
  renderReserve(them, $("reserve-them"), pos);
  const holds = (c) => s && s.you.includes(c);
  $("reserve-me-title").textContent = `${cap(me)}'s reserve${holds(me) ? " (you)" : ""}`;
  $("reserve-them-title").textContent = `${cap(them)}'s reserve${holds(them) ? " (you)" : ""}`;

  // The piece in hand's controls.
  const hand = !!(app.sel && app.viewPly === null);
  for (const id of ["rot-left", "rot-right", "cancel-sel"]) $(id).disabled = !hand;
  $("put-down").disabled = !(hand && app.target);

  // Offers and requests from the opponent.
  const offers = $("offers");
  offers.textContent = "";
  if (s && !s.outcome) {
    const mine = s.you;
    const addBtn = (label, path, id) => { const b = document.createElement("button"); b.type = "button"; b.id = id; b.textContent = label; b.addEventListener("click", () => act(path)); offers.appendChild(b); };
    if (s.draw_offer && mine.length && !mine.includes(s.draw_offer)) { offers.append(`${cap(s.draw_offer)} offers a draw. `); addBtn("Accept draw", "draw", "accept-draw"); addBtn("Decline", "draw/decline", "decline-draw"); }
    else if (s.draw_offer) offers.append(`${cap(s.draw_offer)} offered a draw; waiting for an answer.`);
    if (s.takeback_request && mine.length && !mine.includes(s.takeback_request)) { offers.append(`${cap(s.takeback_request)} asks to take back their last move. `); addBtn("Allow", "takeback", "allow-takeback"); addBtn("Decline", "takeback/decline", "decline-takeback"); }
    else if (s.takeback_request) offers.append(`${cap(s.takeback_request)} asked to take back a move; waiting for an answer.`);
  }
  const seated = !!(s && s.you.length && !s.outcome);
  $("actions").hidden = !seated;
  $("move-form").hidden = !seated;
  $("move-text").disabled = !myTurn();
  $("offer-draw").hidden = !!(s && s.mode === "computer");
  $("offer-draw").textContent = s && s.mode === "local" ? "Agree a draw" : "Offer draw";
  const share = $("share");
  share.hidden = !(s && s.mode === "friend" && seatsOpen() && s.you.length);
  if (!share.hidden) $("share-link").value = `${location.origin}/g/${s.id}#invite=${s.invite}`;

  // Move list (made again only when the moves or the shown ply change).
  const list = $("move-list");
  const listKey = `${allMoves().join(" ")}|${shownPly()}`;
  if (list.dataset.key !== listKey) renderMoveList(list, listKey);
  renderAnalysis();
}

function renderMoveList(list, key) {
  list.dataset.key = key;
  list.textContent = "";
  allMoves().forEach((m, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = m;
    b.setAttribute("aria-label", `move ${i + 1}, ${i % 2 === 0 ? "white" : "black"}: ${m}`);
    if (i + 1 === shownPly()) { b.classList.add("current"); b.setAttribute("aria-current", "step"); }
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
    if (!s || !s.clock) { el.textContent = ""; el.classList.remove("low"); continue; }
    let ms = s.clock[`${colour}_ms`];
    if (s.clock.running === colour) ms -= performance.now() - app.clockAt;
    el.textContent = fmtClock(Math.max(0, ms));
    el.classList.toggle("low", s.clock.running === colour && ms < 20000);
  }
}
setInterval(updateClocks, 200);

// ---------- Review ----------

function review(ply) {
  const n = allMoves().length;
  ply = Math.max(0, Math.min(n, ply));
  app.viewPly = (app.state && ply === n) ? null : ply;
  if (app.viewPly !== null && !app.replay && app.id) {
    api("GET", `/api/games/${app.id}/replay`).then((r) => { app.replay = r; render(); }).catch((e) => say(e.message));
  }
  clearSelection();
  render();
}

$("first").addEventListener("click", () => review(0));
$("prev").addEventListener("click", () => review(shownPly() - 1));
$("next").addEventListener("click", () => review(shownPly() + 1));
$("last").addEventListener("click", () => review(allMoves().length));

// ---------- Analysis ----------

// Analysis is for the shown position, done again whenever it changes while the box is ticked.
// Players of a live game against another person do not get it (watchers do, and everyone
// once the game is over).
function analysisRefused() {
  const s = app.state;
  if (s && !s.outcome && s.mode === "friend" && s.you.length) return "Analysis is not available to the players while a game between people is running.";
  return null;
}
function scheduleAnalysis() {
  const a = app.analysis;
  const text = shownText();
  if (!$("analysis-on").checked || !text || a.for === text || analysisRefused()) return;
  a.for = text;
  a.result = null;
  clearTimeout(a.timer);
  a.timer = setTimeout(async () => {
    if (a.for !== text) return;
    $("analysis").textContent = "Thinking…";
    try {
      const r = await api("POST", "/api/analyse", { position: text });
      if (a.for === text) { a.result = r; render(); }
    } catch (e) { if (a.for === text) { a.for = null; $("analysis").textContent = e.message; } }
  }, 250);
}
function renderAnalysis() {
  const a = app.analysis;
  const on = $("analysis-on").checked;
  const refused = analysisRefused();
  $("evalbar").hidden = !on || !!refused;
  if (!on) { $("analysis").textContent = ""; return; }
  if (refused) { $("analysis").textContent = refused; return; }
  const r = a.result;
  if (!r || a.for !== shownText()) return;
  const pos = shownPosition();
  if (!r.best_move) { $("analysis").textContent = "No move to analyse: the game is over in this position."; return; }
  const white = pos.turn === "white" ? r.win + r.draw / 2 : r.loss + r.draw / 2;
  $("evalbar-white").style.width = `${(white * 100).toFixed(0)}%`;
  const first = pos.ply;
  const line = r.pv.map((m, i) => `${first + i + 1}. ${m}`).join("  ");
  $("analysis").textContent = `${cap(pos.turn)} to move: win ${(r.win * 100).toFixed(0)}%, draw ${(r.draw * 100).toFixed(0)}%, loss ${(r.loss * 100).toFixed(0)}% (White's expected score ${white.toFixed(2)}). Best line: ${line || r.best_move}. (${r.nodes} nodes)`;
}
$("analysis-on").addEventListener("change", () => { app.analysis.for = null; render(); });

// ---------- Controls ----------

$("rot-left").addEventListener("click", () => turnPiece(-1));
$("rot-right").addEventListener("click", () => turnPiece(1));
$("put-down").addEventListener("click", () => { if (app.sel && app.target) sendMove(moveText(app.target, app.rot)); });
$("cancel-sel").addEventListener("click", () => { clearSelection(); render(); });
$("lift").addEventListener("change", renderBoard);
$("flip").addEventListener("click", () => { app.flipped = !app.flipped; render(); });
$("confirm-moves").checked = localStorage.getItem("punct.confirm") !== "off";
$("confirm-moves").addEventListener("change", () => localStorage.setItem("punct.confirm", $("confirm-moves").checked ? "on" : "off"));
let resignTimer = null;
function disarmResign() { clearTimeout(resignTimer); $("resign").textContent = "Resign"; $("resign").classList.remove("primary"); $("resign-no").hidden = true; }
$("resign").addEventListener("click", () => {
  if ($("resign-no").hidden) {
    // A second click within a few seconds confirms: a misclick costs nothing.
    $("resign").textContent = "Really resign?";
    $("resign").classList.add("primary");
    $("resign-no").hidden = false;
    resignTimer = setTimeout(disarmResign, 6000);
  } else { disarmResign(); act("resign"); }
});
$("resign-no").addEventListener("click", disarmResign);
$("offer-draw").addEventListener("click", () => act("draw"));
$("takeback").addEventListener("click", () => act("takeback"));
$("copy-link").addEventListener("click", () => { $("share-link").select(); navigator.clipboard?.writeText($("share-link").value).catch(() => {}); });
$("move-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const text = $("move-text").value.trim();
  if (!text) return;
  const why = cannotAct();
  if (why) { say(why); return; }
  $("move-text").value = "";
  sendMove(text);
});
function exportText(text, filename) {
  $("export-box").hidden = false;
  const t = $("export");
  t.value = text;
  const a = $("export-download");
  a.download = filename;
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  t.focus();
  t.select();
}
function recordText() {
  if (!app.replay) return "";
  const result = app.replay.outcome ? app.replay.outcome.result : "*";
  const body = app.replay.moves.map((m, i) => (i % 2 === 0 ? `${i / 2 + 1}. ` : "") + m).join(" ");
  return `[Game "PÜNCT"]\n[Position "${app.replay.start}"]\n[Result "${result}"]\n\n${body} ${result}\n`;
}
$("export-record").addEventListener("click", async () => {
  try {
    if (app.id) exportText(await (await fetch(`/api/games/${app.id}/record`)).text(), `punct-${app.id}.pgn`);
    else exportText(recordText(), "punct-game.pgn");
  } catch (e) { say(e.message); }
});
$("export-position").addEventListener("click", () => exportText(shownText(), "punct-position.txt"));
$("export-copy").addEventListener("click", () => { $("export").select(); navigator.clipboard?.writeText($("export").value).catch(() => {}); });
$("play-from").addEventListener("click", async () => {
  try { await playOn(shownText(), +$("play-from-level").value, ""); }
  catch (e) { say(e.message); }
});

document.addEventListener("keydown", (ev) => {
  if (app.view !== "game" || ev.target.closest("input, textarea, select, summary")) return;
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  // On the board, in the live position on our turn, the arrows move the cursor.
  if (ev.target === board && app.viewPly === null && myTurn() && boardKey(ev)) { ev.preventDefault(); return; }
  const n = allMoves().length;
  const keys = {
    ArrowLeft: () => review(shownPly() - 1), ArrowRight: () => review(shownPly() + 1),
    Home: () => review(0), End: () => review(n),
    r: () => { turnPiece(1); announceCursor(); }, R: () => { turnPiece(-1); announceCursor(); },
    // With a piece in hand, ↑/↓ step through the cells where it may go.
    ArrowUp: () => stepTarget(-1), ArrowDown: () => stepTarget(1),
    Escape: () => { clearSelection(); disarmResign(); render(); announceCursor(); },
    Enter: () => { if (app.sel && app.target) sendMove(moveText(app.target, app.rot)); },
  };
  if ((ev.key === "ArrowUp" || ev.key === "ArrowDown") && !app.sel) return;
  if (keys[ev.key] && !((ev.key === "Enter" || ev.key === " ") && ev.target.tagName === "BUTTON")) { ev.preventDefault(); keys[ev.key](); }
});

// ---------- Start ----------

window.addEventListener("popstate", route);
function route() {
  const m = /^\/g\/([0-9a-f]+)$/.exec(location.pathname);
  if (m) openGame(m[1]); else { closeGame(); show("home"); }
}
route();
