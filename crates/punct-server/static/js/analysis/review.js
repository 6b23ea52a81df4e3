// The computer analysis of a finished game (API.md, "A game's analysis"): asked for once by
// anyone, its progress asked again every second while it runs, then kept by the server. Shown
// as a graph of White's win chance (a point per position: clicking one goes there), each move's
// class in the move list, each player's counts and accuracy, and the engine's line at the shown
// position, whose moves can be played out on the board.

import { el } from "../dom.js";
import { api } from "../net.js";
import { language, t } from "../i18n.js";
import { svg } from "../board/svg.js";

/** How often a running analysis is asked about. */
export const POLL_MS = 1000;

/** The mark a class gets after its move, as chess annotators write them. */
export const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/**
 * The analysis of one game at a time; `onChange()` whenever what it knows changes.
 * `view()` is the server's answer (`state` none, running, done or failed) or null.
 */
export function createReview(onChange) {
  const r = { id: null, view: null, timer: null, error: null };
  const url = (id) => `/api/games/${encodeURIComponent(id)}/analysis`;
  async function ask(method) {
    const id = r.id;
    clearTimeout(r.timer);
    try {
      const view = await api(method, url(id), method === "POST" ? { body: {} } : {});
      if (r.id !== id) return;
      r.view = view;
      r.error = null;
      if (view.state === "running") r.timer = setTimeout(() => ask("GET"), POLL_MS);
    } catch (e) { if (r.id === id) r.error = e.message; }
    if (r.id === id) onChange();
  }
  return {
    /** Follows game `id` (finished): what the server knows of its analysis. */
    open(id) {
      if (r.id === id) return;
      this.close();
      r.id = id;
      ask("GET");
    },
    /** Forgets the game. */
    close() { clearTimeout(r.timer); Object.assign(r, { id: null, view: null, error: null }); },
    /** Asks the server to analyse the game. */
    request() { if (r.id) ask("POST"); },
    view: () => r.view,
    error: () => r.error,
    /** The analysis once done, else null. */
    done: () => (r.view && r.view.state === "done" ? r.view : null),
  };
}

const W = 320, H = 90;

/**
 * Draws `view`'s graph of White's win chance into `box`: a point per position, the one at `ply`
 * marked, each classed move's point coloured by its class; `onPick(ply)` when a point is clicked.
 */
export function renderGraph(box, view, ply, onPick) {
  box.textContent = "";
  const n = view.positions.length - 1;
  if (n < 1) return;
  const x = (i) => (i / n) * W, y = (w) => (1 - w) * H;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "review-graph-svg", role: "img", "aria-label": t("analysis.graph") }, box);
  svg("rect", { x: 0, y: 0, width: W, height: H, class: "graph-black" }, root);
  const points = view.positions.map((p, i) => `${x(i).toFixed(1)},${y(p.white).toFixed(1)}`);
  svg("polygon", { points: `0,${H} ${points.join(" ")} ${W},${H}`, class: "graph-white" }, root);
  svg("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: "graph-mid" }, root);
  svg("polyline", { points: points.join(" "), class: "graph-line" }, root);
  svg("line", { x1: x(ply), y1: 0, x2: x(ply), y2: H, class: "graph-now" }, root);
  const pct = new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 0 });
  view.positions.forEach((p, i) => {
    const cls = i > 0 ? view.moves[i - 1].class : null;
    const dot = svg("circle", { cx: x(i), cy: y(p.white), r: cls ? 3.2 : 2.2, class: `graph-point${cls ? ` graph-${cls}` : ""}${i === ply ? " graph-current" : ""}`, "data-ply": i, tabindex: -1 }, root);
    svg("title", {}, dot).textContent = t("analysis.point", { ply: i, chance: pct.format(p.white) });
    dot.addEventListener("click", () => onPick(i));
  });
  // A click anywhere on the graph goes to the nearest position.
  root.addEventListener("click", (ev) => {
    if (ev.target.closest("circle")) return;
    const box = root.getBoundingClientRect();
    onPick(Math.round(((ev.clientX - box.left) / box.width) * n));
  });
}

/** Each player's counts and accuracy, as a small table in `table`. */
export function renderSummary(table, view, names) {
  table.textContent = "";
  const fmt = new Intl.NumberFormat(language(), { maximumFractionDigits: 1 });
  const head = el("tr", {}, el("th", {}), ...["inaccuracy", "mistake", "blunder", "accuracy"].map((k) => el("th", { scope: "col", text: t(`analysis.${k}`) })));
  table.append(head);
  for (const colour of ["white", "black"]) {
    const p = view.players[colour];
    table.append(el("tr", { "data-colour": colour },
      el("th", { scope: "row", text: names[colour] }),
      el("td", { text: String(p.inaccuracies) }), el("td", { text: String(p.mistakes) }), el("td", { text: String(p.blunders) }),
      el("td", { text: p.accuracy === null ? "–" : fmt.format(p.accuracy) })));
  }
}

/** What the review box says of `view` (or of the error `error`). */
export function progressText(view, error) {
  if (error) return error;
  if (!view || view.state === "none") return "";
  if (view.state === "running") return t("analysis.running", { done: view.done, total: view.total });
  if (view.state === "failed") return t("analysis.failed", { reason: view.reason });
  const nodes = view.positions.reduce((s, p) => s + p.nodes, 0);
  const searched = view.positions.filter((p) => p.nodes > 0).length || 1;
  return t("analysis.done", { ms: view.movetime_ms, playouts: Math.round(nodes / searched) });
}
