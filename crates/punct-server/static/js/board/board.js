// The board as a component, after chessground: the host hands it a state (the position, the
// legal moves when the player may move, orientation, last move, winning chain, hint) and hears
// intents back (`move`, a refused attempt, a cell to describe). It knows no rules: where a piece
// may go is the server's list of legal moves.
//
// A piece is picked up from the reserve (`pick`, `drag`) or from the board, turned (buttons,
// R, the wheel, or by dragging one of its minor dots round its PÜNCT) and put down by a click
// on a marked cell (twice with "confirm"), by dropping it there (mouse or touch), or with the
// keys (arrows, Enter).
//
// The host's messages go in its note line (`tell`): a refusal's reason is shown next to the
// cell it is about, over the board, and goes when the next attempt begins (Esc, a piece
// picked up or dragged, a move).

import { ALL_CELLS, cellName, footprint, key, parseCell, unkey } from "../geometry.js";
import { destinations, fitRotation, moveText, nextRotation } from "../moves.js";
import { t } from "../i18n.js";
import { topAt } from "../position.js";
import { planMove, playMove } from "./animate.js";
import { drawBoardPiece, drawChain, drawChainLinks, drawHint, drawLastMove, drawLines, drawStatic } from "./draw.js";
import { D, HEX, hexPoints, xy } from "./layout.js";
import { drawPiece } from "./pieces.js";
import { svg } from "./svg.js";

/** How far (CSS pixels) a pointer must travel with a piece before it counts as a drag. */
const DRAG_START = 6;

const DEFAULTS = {
  position: null, // position.js's reading of the shown position
  legal: null, // moves.js's index of the legal moves when the player may move now, else null
  flipped: false,
  lastMove: null,
  chain: [], // cells to mark: a lesson's, or the winning chain
  won: null, // the winner's colour when `chain` is a winning chain
  hint: null,
  lifted: false,
  confirm: true,
};

/**
 * Makes the board in `root` (an <svg>). `events`: `move(text)` when a piece is put down on a
 * legal cell; `refused({kind: "move", text, at} | {kind: "pick", key, at})` when an attempt
 * is not allowed (the host says why with `tell`; `at` is the cell's key); `inspect(key)` for
 * the cell under the pointer or cursor; `change()` when the piece in hand changes. `note` is
 * the host's message line (an element inside a positioned box that holds the board).
 */
export function createBoard(root, events, { note = null } = {}) {
  const st = { ...DEFAULTS, animation: null, dropped: null, hand: null, target: null, rot: 0, hover: null, cursor: null, cursorY: null, keyboard: false, pointerDown: false, drag: null, quietClickUntil: 0, pressPicked: false, layers: null, layersFlipped: null, attempt: 0, noteAt: null };

  const targets = () => (st.legal ? destinations(st.legal, st.hand) : {});
  const handType = () => {
    if (!st.hand) return null;
    if (st.hand.kind === "place") return st.hand.type;
    const top = st.position && topAt(st.position, st.hand.from);
    return top ? top.type : null;
  };
  // The cell the piece in hand shows on: the chosen one, or the marked cell under the pointer.
  const handCell = () => {
    if (st.target) return st.target;
    return !st.keyboard && st.hover && targets()[st.hover] ? st.hover : null;
  };
  const point = (c, r) => xy(c, r, st.flipped);

  function changed() { render(); events.change && events.change(); }

  // ---------- The note: the host's messages, a refusal's beside its cell ----------

  /** Says an attempt is refused: the host answers with `tell(text, what)`. */
  function refuse(what) { events.refused({ ...what, attempt: st.attempt }); }

  /** A new attempt begins: what was said about the last one goes. */
  function clearNote() {
    st.attempt += 1;
    if (note && note.textContent) tell("");
  }

  /**
   * Shows `text` in the note, next to the cell `what.at` when `what` (a refusal) names one;
   * a refusal's answer that comes after the next attempt began is dropped.
   */
  function tell(text, what = null) {
    if (!note) return;
    if (what && what.attempt !== undefined && what.attempt !== st.attempt) return;
    note.textContent = text;
    st.noteAt = text && what && what.at ? what.at : null;
    placeNote();
  }

  // Over the board, centred above the cell (below it near the top edge), within the board's width.
  function placeNote() {
    note.classList.toggle("anchored", !!st.noteAt);
    note.dataset.cell = st.noteAt ? cellName(...unkey(st.noteAt)) : "";
    const box = note.offsetParent;
    const cell = st.noteAt && root.querySelector(`polygon.cell[data-cell='${note.dataset.cell}']`);
    if (!cell || !box) { note.style.left = ""; note.style.top = ""; return; }
    const c = cell.getBoundingClientRect(), b = box.getBoundingClientRect(), area = root.getBoundingClientRect();
    const w = note.offsetWidth, h = note.offsetHeight, gap = 6;
    const left = Math.max(area.left, Math.min(area.right - w, c.left + c.width / 2 - w / 2)) - b.left;
    const above = c.top - gap - h;
    const top = (above >= area.top ? above : c.bottom + gap) - b.top;
    note.style.left = `${left}px`;
    note.style.top = `${top}px`;
  }
  window.addEventListener("resize", () => { if (st.noteAt) placeNote(); });

  function clear() { st.hand = null; st.target = null; st.drag = null; }

  function put(k, dragged = false) {
    const allowed = targets()[k];
    st.rot = fitRotation(st.rot, allowed);
    const text = moveText(st.hand, k, st.rot);
    // A piece the player dragged there is already where it lands: it is not animated again.
    st.dropped = dragged ? text : null;
    clear();
    clearNote();
    changed();
    events.move(text);
  }

  function holdFrom(k) {
    clearNote();
    const top = topAt(st.position, k);
    st.hand = { kind: "shift", from: key(top.c, top.r) };
    st.target = null;
    st.rot = top.rot;
  }

  // The origin of our piece on cell `k` when it may move now.
  function movableAt(k) {
    if (!st.legal || !st.position) return null;
    const top = topAt(st.position, k);
    if (!top) return null;
    const from = key(top.c, top.r);
    return st.legal.shift[from] ? from : null;
  }

  function clickCell(k) {
    st.cursor = k;
    if (st.drag) return;
    const top = st.position && topAt(st.position, k);
    events.inspect(k);
    if (!st.legal) { if (top) refuse({ kind: "pick", key: k, at: k }); return; }
    const t = targets();
    if (st.hand && t[k]) {
      if (st.target === k || !st.confirm) put(k);
      else { clearNote(); st.target = k; st.rot = fitRotation(st.rot, t[k]); changed(); }
      return;
    }
    const from = movableAt(k);
    if (from) { holdFrom(k); changed(); return; }
    if (st.hand) { refuse({ kind: "move", text: moveText(st.hand, k, st.rot), at: k }); return; }
    if (top) refuse({ kind: "pick", key: k, at: k });
  }

  // ---------- Pointer: clicks, hover, drags ----------

  // The cell under a pointer (the cells are the board's hit targets; pieces let pointers through).
  function cellAt(ev) {
    const el = document.elementsFromPoint(ev.clientX, ev.clientY).find((e) => e.classList && e.classList.contains("cell"));
    const cr = el && parseCell(el.dataset.cell);
    return cr ? key(...cr) : null;
  }
  function boardPoint(ev) {
    const m = root.getScreenCTM();
    if (!m) return [0, 0];
    const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  /** Starts dragging what is in hand (from the reserve or the board) with the pointer of `ev`. */
  function startDrag(ev, origin) {
    clearNote();
    st.drag = { kind: "piece", x: ev.clientX, y: ev.clientY, id: ev.pointerId, moved: false, at: null, origin };
    window.addEventListener("pointermove", onDragMove);
    window.addEventListener("pointerup", onDragEnd);
    window.addEventListener("pointercancel", onDragEnd);
  }

  function onDragMove(ev) {
    const d = st.drag;
    if (!d || d.kind !== "piece" || ev.pointerId !== d.id) return;
    if (!d.moved && Math.hypot(ev.clientX - d.x, ev.clientY - d.y) < DRAG_START) return;
    ev.preventDefault();
    d.moved = true;
    d.at = boardPoint(ev);
    const k = cellAt(ev);
    const t = targets();
    st.target = k && t[k] ? k : null;
    if (st.target) st.rot = fitRotation(st.rot, t[st.target]);
    if (k !== st.hover) { st.hover = k; if (k) events.inspect(k); }
    render();
  }

  function onDragEnd(ev) {
    const d = st.drag;
    if (!d || d.kind !== "piece" || ev.pointerId !== d.id) return;
    window.removeEventListener("pointermove", onDragMove);
    window.removeEventListener("pointerup", onDragEnd);
    window.removeEventListener("pointercancel", onDragEnd);
    st.drag = null;
    if (!d.moved) { render(); return; }
    // A drop: the click that follows the release is not a click on a cell.
    st.quietClickUntil = performance.now() + 400;
    const k = ev.type === "pointerup" ? cellAt(ev) : null;
    if (k && targets()[k]) { put(k, true); return; }
    st.target = null;
    if (k && !(st.hand.kind === "shift" && k === st.hand.from)) refuse({ kind: "move", text: moveText(st.hand, k, st.rot), at: k });
    changed();
  }

  root.addEventListener("pointerdown", (ev) => {
    st.keyboard = false;
    st.pointerDown = true;
    st.pressPicked = false;
    const minor = ev.target.dataset && ev.target.dataset.minor;
    const at = handCell();
    if (minor !== undefined && st.hand && at) {
      // Dragging a minor dot of the piece in hand round its PÜNCT turns it.
      ev.preventDefault();
      st.target = at;
      st.drag = { kind: "turn", minor: +minor, cell: at, moved: false };
      root.setPointerCapture(ev.pointerId);
      render();
      return;
    }
    if (!st.legal || (ev.pointerType === "mouse" && ev.button !== 0)) return;
    const k = cellAt(ev);
    if (!k || (st.hand && targets()[k])) return;
    const from = movableAt(k);
    if (!from) return;
    // Pressing on one of our pieces picks it up; moving on drags it.
    ev.preventDefault();
    if (!(st.hand && st.hand.kind === "shift" && st.hand.from === from)) {
      holdFrom(k);
      // This press picked the piece up: the click that ends it is not a second click.
      st.pressPicked = true;
      events.inspect(k);
      changed();
    }
    startDrag(ev, "board");
  });

  root.addEventListener("pointermove", (ev) => {
    if (st.drag && st.drag.kind === "turn") {
      ev.preventDefault();
      const [px, py] = boardPoint(ev);
      const [c, r] = unkey(st.drag.cell);
      const type = handType();
      let best = st.rot, bestD = Infinity;
      for (const rot of targets()[st.drag.cell] || []) {
        const fp = footprint(type, c, r, rot);
        if (!fp) continue;
        const [x, y] = point(...fp[1 + st.drag.minor]);
        const dist = Math.hypot(x - px, y - py);
        if (dist < bestD) { bestD = dist; best = rot; }
      }
      if (best !== st.rot) { st.rot = best; st.drag.moved = true; render(); }
      return;
    }
    if (st.drag || ev.pointerType !== "mouse") return;
    const k = cellAt(ev);
    if (k && k !== st.hover) {
      st.hover = k;
      if (st.hand && !st.target) { st.rot = fitRotation(st.rot, targets()[k]); render(); }
      events.inspect(k);
    }
  });

  root.addEventListener("pointerup", (ev) => {
    if (!st.drag || st.drag.kind !== "turn") return;
    root.releasePointerCapture(ev.pointerId);
    const moved = st.drag.moved;
    // Let the click that follows this release pass without putting the piece down; a dot
    // pressed and released without turning counts as a click on its cell.
    setTimeout(() => {
      st.drag = null;
      const k = moved ? null : cellAt(ev);
      if (k) clickCell(k); else render();
    }, 0);
  });

  root.addEventListener("click", (ev) => {
    if (performance.now() < st.quietClickUntil || st.pressPicked) { st.pressPicked = false; return; }
    const k = cellAt(ev);
    if (k) clickCell(k);
  });
  root.addEventListener("pointerleave", () => { if (!st.drag && st.hover) { st.hover = null; render(); } });
  root.addEventListener("wheel", (ev) => {
    if (st.hand && handCell()) { ev.preventDefault(); turn(ev.deltaY > 0 ? 1 : -1); }
  }, { passive: false });
  for (const type of ["pointerup", "pointercancel"]) document.addEventListener(type, () => { st.pointerDown = false; });

  // ---------- Keys: a cursor over the cells ----------

  let lastInput = "pointer";
  document.addEventListener("pointerdown", () => { lastInput = "pointer"; }, true);
  document.addEventListener("keydown", () => { lastInput = "key"; }, true);

  root.addEventListener("focus", () => {
    // The cursor is for the keys: a tap or click that focuses the board does not show it.
    st.keyboard = lastInput === "key" && !st.pointerDown;
    if (!st.cursor && st.position) st.cursor = key(8, 8);
    render();
    if (st.keyboard && st.legal) announce();
  });
  root.addEventListener("blur", () => render());

  // Moves the cursor to the nearest cell (with a piece in hand, the nearest legal
  // destination) in the screen direction of the arrow, so that it follows the board as drawn.
  function moveCursor(arrow) {
    const [dx, dy] = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[arrow];
    const t = targets();
    const from = st.cursor || (st.hand && st.hand.kind === "shift" ? st.hand.from : key(8, 8));
    const [x0, y0] = point(...unkey(from));
    if (dx === 0 || st.cursorY === null) st.cursorY = y0;
    let best = null, bestScore = Infinity;
    for (const cell of st.hand ? Object.keys(t).map(unkey) : ALL_CELLS) {
      const [x, y] = point(...cell);
      const along = (x - x0) * dx + (y - y0) * dy;
      const across = Math.abs((x - x0) * dy - (y - y0) * dx);
      if (along < D / 4) continue;
      const score = Math.hypot(x - x0, y - y0) + across + (dx !== 0 ? 0.01 * Math.abs(y - st.cursorY) : 0);
      if (score < bestScore) { bestScore = score; best = cell; }
    }
    if (best) {
      st.cursor = key(...best);
      if (dx === 0) st.cursorY = null;
      if (st.hand) { st.target = st.cursor; st.rot = fitRotation(st.rot, t[st.target]); }
    }
    render();
    announce();
  }

  // Enter or Space: pick up the piece under the cursor, or put down the one in hand.
  function cursorAction() {
    if (!st.cursor) { st.cursor = key(8, 8); render(); announce(); return; }
    if (st.hand && st.target) { put(st.target); return; }
    const from = movableAt(st.cursor);
    if (from && !(st.hand && st.hand.kind === "shift" && st.hand.from === from)) { holdFrom(st.cursor); changed(); }
    else if (!from) clickCell(st.cursor);
    announce();
  }

  // Tells screen readers (through the host's live line) where the cursor is and what Enter does.
  function announce() {
    if (!st.cursor || document.activeElement !== root) return;
    let hint = "";
    if (st.hand && st.target === st.cursor) hint = t("game.cursor.target", { type: handType(), move: moveText(st.hand, st.target, st.rot) });
    else if (st.hand && st.hand.kind === "shift") hint = t("game.cursor.holding", { cell: cellName(...unkey(st.hand.from)), count: Object.keys(targets()).length });
    else if (st.legal && movableAt(st.cursor)) hint = t("game.cursor.yours");
    events.inspect(st.cursor, hint);
  }

  /** Handles a key pressed on the board; true when it was the board's. */
  function key_(ev) {
    if (!st.legal) return false;
    st.keyboard = true;
    if (ev.key.startsWith("Arrow")) { moveCursor(ev.key); return true; }
    if (ev.key === "Enter" || ev.key === " ") { cursorAction(); return true; }
    return false;
  }

  // ---------- The piece in hand, from outside ----------

  /** Takes a piece of `type` from the reserve; `byKeyboard` puts it on the legal cell nearest the middle and focuses the board. */
  function pick(type, byKeyboard = false) {
    clearNote();
    st.hand = { kind: "place", type };
    st.target = null;
    if (byKeyboard) {
      const [mx, my] = point(8, 8);
      const keys = Object.keys(targets()).sort((a, b) => {
        const [ax, ay] = point(...unkey(a)), [bx, by] = point(...unkey(b));
        return Math.hypot(ax - mx, ay - my) - Math.hypot(bx - mx, by - my);
      });
      st.keyboard = true;
      st.cursor = st.target = keys[0] || null;
      st.rot = fitRotation(st.rot, targets()[st.target]);
      root.focus();
    }
    changed();
    announce();
  }

  /** Takes a piece of `type` from the reserve with the pointer of `ev` (a pointerdown), to drop it on the board. */
  function drag(type, ev) {
    if (!(st.hand && st.hand.kind === "place" && st.hand.type === type)) { st.hand = { kind: "place", type }; st.target = null; changed(); }
    startDrag(ev, "reserve");
  }

  /** Turns the piece in hand by one allowed step (±1). */
  function turn(step) {
    if (!st.hand) return false;
    st.rot = nextRotation(st.rot, step, targets()[handCell()]);
    render();
    announce();
    return true;
  }

  /** Steps the chosen cell through the legal destinations (±1). */
  function stepTarget(step) {
    const keys = Object.keys(targets()).sort((a, b) => { const [ac, ar] = unkey(a), [bc, br] = unkey(b); return ac - bc || ar - br; });
    if (!keys.length) return;
    const i = keys.indexOf(st.target);
    st.target = keys[i < 0 ? 0 : (i + step + keys.length) % keys.length];
    st.rot = fitRotation(st.rot, targets()[st.target]);
    events.inspect(st.target);
    render();
  }

  // ---------- Drawing ----------

  function render() {
    const pos = st.position;
    if (!pos) { root.textContent = ""; st.layers = null; return; }
    if (!st.layers || st.layersFlipped !== st.flipped || !root.contains(st.layers.overlay)) {
      st.layers = drawStatic(root, st.flipped);
      st.layersFlipped = st.flipped;
    }
    const { under, overlay } = st.layers;
    const flipped = st.flipped;
    under.textContent = "";
    overlay.textContent = "";
    const t = targets();
    const hand = st.hand ? handCell() : null;
    root.classList.toggle("holding", !!st.hand || !!st.drag);
    root.classList.toggle("interactive", !!st.legal);

    if (st.lastMove) drawLastMove(under, pos, st.lastMove, flipped);
    drawChain(under, st.chain || [], flipped, st.won);

    // Pieces, lowest level first so that higher ones cover them; the one in hand is lifted off.
    const lifting = st.hand && st.hand.kind === "shift" && (hand || (st.drag && st.drag.moved)) ? st.hand.from : null;
    const pg = svg("g", { class: "pieces" }, overlay);
    const drawn = new Map();
    for (const p of [...pos.pieces].sort((a, b) => a.level - b.level)) {
      if (lifting === key(p.c, p.r) && p === topAt(pos, lifting)) continue;
      drawn.set(`${key(p.c, p.r)},${p.level}`, drawBoardPiece(pg, p, { flipped, lifted: st.lifted }));
    }
    playMove(st.animation, drawn, (k) => point(...unkey(k)));
    st.animation = null;
    if (st.won) drawChainLinks(overlay, st.chain || [], flipped);

    if (st.hand) {
      if (st.hand.kind === "shift") drawLines(overlay, unkey(st.hand.from), flipped);
      for (const k of Object.keys(t)) {
        const [x, y] = point(...unkey(k));
        svg("circle", { cx: x, cy: y, r: k === st.target ? HEX * 0.85 : HEX * 0.28, class: `target${k === st.target ? " chosen" : ""}`, "data-cell": cellName(...unkey(k)) }, overlay);
      }
      const type = handType();
      const colour = pos.turn;
      if (hand && type) {
        const fp = footprint(type, ...unkey(hand), st.rot);
        if (fp) {
          const g = svg("g", { class: "ghost", "data-move": moveText(st.hand, hand, st.rot) }, overlay);
          drawPiece(g, {
            cells: fp, points: fp.map(([c, r]) => point(c, r)), colour,
            dotAttrs: (i) => (i > 0 ? { class: "dot handle", "data-minor": i - 1 } : {}),
          });
          fp.slice(1).forEach(([c, r]) => { const [x, y] = point(c, r); svg("circle", { cx: x, cy: y, r: HEX * 0.78, class: "handle-ring" }, g); });
        }
      } else if (type && st.drag && st.drag.moved && st.drag.at) {
        // Off the marked cells the piece follows the pointer.
        const fp = footprint(type, 8, 8, st.rot);
        const [ox, oy] = point(8, 8);
        const [px, py] = st.drag.at;
        const g = svg("g", { class: "floating" }, overlay);
        drawPiece(g, { cells: fp, points: fp.map(([c, r]) => { const [x, y] = point(c, r); return [x - ox + px, y - oy + py]; }), colour });
      }
    }

    if (st.hint) drawHint(overlay, pos, st.hint, flipped);

    root.dataset.cursor = st.cursor ? cellName(...unkey(st.cursor)) : "";
    if (st.cursor && st.keyboard && document.activeElement === root) {
      const [x, y] = point(...unkey(st.cursor));
      svg("polygon", { points: hexPoints(x, y, HEX + 1), class: "cursor", "data-cell": cellName(...unkey(st.cursor)) }, overlay);
      svg("polygon", { points: hexPoints(x, y, HEX - 1.5), class: "cursor-in" }, overlay);
    }
  }

  return {
    /** Changes the board's state (any of DEFAULTS' fields) and draws it. */
    set(config) {
      const was = st.position;
      const before = was && was.text;
      Object.assign(st, config);
      const moved = (st.position && st.position.text) !== before;
      if (moved) {
        const plan = planMove(was, st.position, st.lastMove);
        st.animation = plan && st.lastMove !== st.dropped ? plan : null;
        st.dropped = null;
      }
      if (moved || !st.legal) clear();
      if (moved) clearNote();
      render();
      if (moved) events.change && events.change();
    },
    /** The piece in hand: `{hand, target, rot, type}` (hand null when none). */
    held: () => ({ hand: st.hand, target: st.target, rot: st.rot, type: handType() }),
    pick,
    drag,
    turn,
    stepTarget,
    /** Puts the piece in hand down on its chosen cell; false when none is chosen. */
    putDown() { if (!st.hand || !st.target) return false; put(st.target); return true; },
    /** Drops the piece in hand, and what was said about it. */
    cancel() { clear(); clearNote(); changed(); },
    tell,
    key: key_,
    /** Whether the click that just came is the end of a drag (and so no click). */
    quietClick: () => performance.now() < st.quietClickUntil,
    render,
  };
}
