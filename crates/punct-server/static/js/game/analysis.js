// The engine's view of the shown position, asked for when the box is ticked and whenever the
// shown position changes (once per position).

import { api } from "../net.js";
import { moveLabel, sideName } from "../format.js";
import { language, t } from "../i18n.js";

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
