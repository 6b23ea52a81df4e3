// The engine's view of the shown position, asked for when the box is ticked and whenever the
// shown position changes (once per position).

import { api } from "../net.js";
import { moveLabel, sideName } from "../format.js";
import { t } from "../i18n.js";

/** Analysis asked of the server for one position at a time; `onResult()` when an answer comes. */
export function createAnalysis(onResult) {
  const a = { for: null, result: null, timer: null, error: null };
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
          const r = await api("POST", "/api/analyse", { body: { position: text } });
          if (a.for === text) { a.result = r; onResult(); }
        } catch (e) { if (a.for === text) { a.error = e.message; a.for = null; onResult(); } }
      }, 250);
    },
    /** Forgets what was asked (the box was unticked, another game). */
    reset() { clearTimeout(a.timer); a.for = null; a.result = null; a.error = null; },
    /** The answer for `text`, or null. */
    resultFor: (text) => (a.for === text ? a.result : null),
    error: () => a.error,
  };
}

/** The analysis in words, and White's share for the bar, for a result `r` in position `pos`. */
export function describeAnalysis(r, pos) {
  if (!r.best_move) return { text: t("game.analysis.over"), white: null };
  const white = pos.turn === "white" ? r.win + r.draw / 2 : r.loss + r.draw / 2;
  const line = r.pv.map((m, i) => `${moveLabel(pos.ply + i)} ${m}`).join("  ");
  const pct = (x) => `${(x * 100).toFixed(0)}%`;
  return {
    text: t("game.analysis.result", { side: sideName(pos.turn), win: pct(r.win), draw: pct(r.draw), loss: pct(r.loss), score: white.toFixed(2), line: line || r.best_move, nodes: r.nodes }),
    white,
  };
}
