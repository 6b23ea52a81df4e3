// The import page (`/import`): a record (punct's own, or Boardspace's SGF), several records in
// one file or a .zip archive, or a position text, read by the server; the page never reads or
// writes records itself. A game read is reviewed at `/analysis#text=…`, or played on against
// the computer.

import { $, el } from "../dom.js";
import { api } from "../net.js";
import { t } from "../i18n.js";
import { navigate } from "../nav.js";
import { parsePosition } from "../position.js";
import { skipText } from "../refused.js";
import { createLocalGame } from "../game/local.js";


/**
 * The games in `source` (text, or a File/Blob holding a .zip archive), as the server reads
 * them: `{games: [{start, moves, positions, outcome, record, name}], skipped: [{game, reason}]}`.
 */
export async function importText(source) {
  const zip = typeof source !== "string";
  return api("POST", "/api/import", zip ? { body: source, contentType: "application/zip", timeoutMs: 60000 } : { body: { text: source } });
}

/** The record of a game held as a replay, written by the server. */
export async function downloadRecord(replay) {
  const start = parsePosition(replay.start);
  const tags = {};
  if (replay.outcome) tags.Result = replay.outcome.result;
  return api("POST", "/api/record", { body: { start: replay.start, variant: start.variant, moves: replay.moves, tags } });
}

/** A new game against the computer from `start` (a record or position), as `colour` or as the side to move there. */
export async function playOn(start, level, colour) {
  let games;
  try {
    ({ games } = await importText(start));
  } catch (e) {
    // Without the server a position text is still read here (a record is not).
    if (e.status !== 0) throw e;
    await createGame({ mode: "computer", level, colour: colour || parsePosition(start).turn, start });
    return;
  }
  if (!games.length) throw new Error(t("import.nothingToPlay"));
  const last = games[0].positions[games[0].positions.length - 1];
  const turn = parsePosition(last).turn;
  await createGame({ mode: "computer", level, colour: colour || turn, start: games[0].record || start });
}

/**
 * Creates a game, keeps its seat's token, and goes to it. When the server does not answer,
 * a game against the computer or on one screen is played in this browser instead (untimed);
 * a friend's game cannot be.
 */
export async function createGame(body) {
  let grant;
  try {
    grant = await api("POST", "/api/games", { body });
  } catch (e) {
    if (e.status !== 0) throw e;
    if (body.mode === "friend") throw new Error(t("common.offline.friend"));
    navigate({ page: "game", id: await createLocalGame(body) });
    return;
  }
  localStorage.setItem(`punct.token.${grant.id}`, grant.token);
  navigate({ page: "game", id: grant.id });
}

/** The text the analysis page's address carries for a game read. */
function analysisText(game, source) {
  return game.record || source;
}

function showGames({ games, skipped }, source) {
  const list = $("import-games");
  list.textContent = "";
  $("import-result").hidden = games.length < 2 && !skipped.length;
  for (const [i, game] of games.entries()) {
    const title = game.name || t("import.game", { n: i + 1 });
    const moves = t("games.moves", { count: game.moves.length });
    const detail = game.outcome ? `${moves}, ${game.outcome.result}` : moves;
    list.append(el("li", {}, el("a", { href: `/analysis#${new URLSearchParams({ text: analysisText(game, source) })}`, text: title, onclick: (ev) => { ev.preventDefault(); navigate({ page: "analysis", text: analysisText(game, source) }); } }), ` — ${detail}`));
  }
  const bad = $("import-skipped");
  bad.textContent = "";
  for (const s of skipped) bad.append(el("li", { text: t("import.skipped", { n: s.game, reason: skipText(s) }) }));
}

/** Wires the import page's controls once. */
export function setUpImportPage() {
  const error = (text) => { $("import-error").textContent = text; };
  let file = null;
  $("import-file").addEventListener("change", async () => {
    file = $("import-file").files[0] || null;
    if (file && !/\.zip$/i.test(file.name) && file.type !== "application/zip") { $("import-text").value = await file.text(); file = null; }
    else if (file) $("import-text").value = "";
  });
  $("import-text").addEventListener("input", () => { file = null; });
  const read = async () => {
    error("");
    const source = file || $("import-text").value;
    if (!file && !source.trim()) throw new Error(t("import.empty"));
    const imported = await importText(source);
    if (!imported.games.length) throw new Error(imported.skipped.length ? t("import.noGameBecause", { reason: skipText(imported.skipped[0]) }) : t("import.noGame"));
    return { ...imported, source: typeof source === "string" ? source : "" };
  };
  $("import-review").addEventListener("click", async () => {
    try {
      const result = await read();
      showGames(result, result.source);
      if (result.games.length === 1) navigate({ page: "analysis", text: analysisText(result.games[0], result.source) });
    } catch (e) { error(e.message); }
  });
  $("import-play").addEventListener("click", async () => {
    try {
      const result = await read();
      const level = +$("import-level").value, colour = $("import-colour").value;
      const game = result.games[0];
      const turn = parsePosition(game.positions[game.positions.length - 1]).turn;
      await createGame({ mode: "computer", level, colour: colour || turn, start: analysisText(game, result.source) });
    } catch (e) { error(e.message); }
  });
}
