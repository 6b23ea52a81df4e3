// The engine's view of the shown position, asked for when the box is ticked and whenever the
// shown position changes (once per position): of the server's engine, or of the engine in the
// page (engine/client.js) for a game played in this browser and whenever the server does not
// answer.

import { api } from "../net.js";
import { createEngine } from "../engine/client.js";
import { moveLabel, sideName } from "../format.js";
import { language, t } from "../i18n.js";

/** How long the engine in the page thinks about a position: as the server's does by default. */
export const IN_PAGE_MS = 2000;

/**
 * Analysis of one position at a time; `onResult()` when an answer comes. `inPage()` says
 * whether to ask the engine in the page rather than the server.
 */
export function createAnalysis(onResult, { inPage = () => false } = {}) {
  const a = { for: null, result: null, timer: null, error: null, search: null };
  let engine = null;
  const here = (text) => {
    engine ??= createEngine();
    a.search = engine.search({ start: text, level: 9, movetime_ms: IN_PAGE_MS });
    return a.search.done;
  };
  const server = (text) => api("POST", "/api/analyse", { body: { position: text } })
    .catch((e) => { if (e.status === 0) return here(text); throw e; });
  return {
    /** Asks for `text` (a position) unless it is the one already asked for. */
    want(text) {
      if (!text || a.for === text) return;
      a.for = text;
      a.result = null;
      a.error = null;
      clearTimeout(a.timer);
      a.timer = setTimeout(async () => {
        if (a.for !== text) return;
        try {
          const r = await (inPage() ? here(text) : server(text));
          if (a.for === text && !r.stopped) { a.result = r; onResult(); }
        } catch (e) { if (a.for === text) { a.error = e.message; a.for = null; onResult(); } }
      }, 250);
    },
    /** Forgets what was asked (the box was unticked, another game). */
    reset() {
      clearTimeout(a.timer);
      if (a.search) a.search.stop();
      Object.assign(a, { for: null, result: null, error: null, search: null });
    },
    /** The answer for `text`, or null. */
    resultFor: (text) => (a.for === text ? a.result : null),
    error: () => a.error,
  };
}

/**
 * The analysis in words, and White's expected score for the bar, for a result `r` in
 * position `pos`. The engine gives the chances of the side to move; the words give those of
 * the side it favours ("White wins 56 %"), so that no one has to turn them round.
 */
export function describeAnalysis(r, pos) {
  if (!r.best_move) return { text: t("game.analysis.over"), white: null };
  const whiteWins = pos.turn === "white" ? r.win : r.loss;
  const blackWins = pos.turn === "white" ? r.loss : r.win;
  const white = whiteWins + r.draw / 2;
  const favoured = white >= 0.5 ? "white" : "black";
  const line = r.pv.map((m, i) => `${moveLabel(pos.ply + i)} ${m}`).join("  ");
  const pct = new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 0 });
  return {
    text: t("game.analysis.result", {
      side: sideName(favoured), chance: pct.format(favoured === "white" ? whiteWins : blackWins),
      draw: pct.format(r.draw), line: line || r.best_move, nodes: r.nodes,
    }),
    white,
  };
}
