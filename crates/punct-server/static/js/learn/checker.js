// Whether a lesson's task is met. The rules are the server's: it says whether a move is
// legal, the position after it and the outcome it brings, or why it is refused
// (`GET /api/legal?position&move`). This module only reads that answer against the task's
// goal, so it never decides what the rules allow.
//
// A goal lists conditions, all of which must hold:
//   refused: code             the attempt is refused for this reason (`why.code`): a task
//                             that has the learner try what the rules forbid
//   kind: "place" | "shift"   the move places a piece, or moves one on the board
//   from: cell                a move of the piece whose PÜNCT is on that cell
//   to: cell                  the PÜNCT ends on that cell
//   own: [cells]              after the move those cells show the mover's colour
//   level: n                  the piece put down rests at level n or higher
//   bridge: true              the piece put down spans a gap (a dot with nothing right under it)
//   frozen: cell              the opponent's piece whose PÜNCT is on that cell is covered
//   lead: true                the mover shows more dots in the central hexagon than the opponent
//   win: true                 the move wins the game
//   ends: termination         the move ends the game this way ("uncovered connection")
//   safe: true                the move does not end the game

import { key, nameKey, unkey } from "../geometry.js";
import { parseMove } from "../moves.js";
import { parsePosition } from "../position.js";

const other = (colour) => (colour === "white" ? "black" : "white");

/** The piece the move put down: the mover's highest piece with its PÜNCT on the move's cell. */
export function pieceDown(after, move, mover) {
  const [c, r] = unkey(move.to);
  return after.pieces
    .filter((p) => p.c === c && p.r === r && p.colour === mover)
    .sort((a, b) => b.level - a.level)[0] || null;
}

/** Whether a piece has, under one of its dots, no piece at the level right below it. */
function spansGap(after, piece) {
  if (piece.level < 2) return false;
  return piece.cells.some(([c, r]) => !(after.stacks.get(key(c, r)) || []).some((d) => d.piece.level === piece.level - 1));
}

/** Whether the piece of `colour` whose PÜNCT is on cell key `k` has a dot of another piece above it. */
function covered(after, k, colour) {
  const [c, r] = unkey(k);
  const piece = after.pieces.find((p) => p.c === c && p.r === r && p.colour === colour);
  if (!piece) return false;
  return piece.cells.some(([x, y]) => (after.stacks.get(key(x, y)) || []).some((d) => d.piece.level > piece.level));
}

/**
 * Checks `goal` against a legal move: `move` its canonical text, `before` and `after` the
 * positions (position.js's reading) around it, `outcome` the server's (null while the game
 * goes on). Returns `{met: true}` or `{met: false, why, vars}`: `why` names the first
 * condition not met, a text key under `learn.unmet.`.
 */
export function checkGoal(goal, { move, before, after, outcome }) {
  const m = parseMove(move);
  const mover = before.turn;
  const fail = (why, vars = {}) => ({ met: false, why, vars });
  if (!m) return fail("move");
  if (goal.kind && m.kind !== goal.kind) return fail(goal.kind);
  if (goal.from && m.from !== nameKey(goal.from)) return fail("from", { cell: goal.from });
  if (goal.to && m.to !== nameKey(goal.to)) return fail("to", { cell: goal.to });
  if (goal.own) {
    const missing = goal.own.filter((name) => {
      const s = after.stacks.get(nameKey(name));
      return !s || s[s.length - 1].piece.colour !== mover;
    });
    if (missing.length) return fail("own", { cells: missing.join(", ") });
  }
  const down = pieceDown(after, m, mover);
  if (goal.level && !(down && down.level >= goal.level)) return fail("level", { level: goal.level });
  if (goal.bridge && !(down && spansGap(after, down))) return fail("bridge");
  if (goal.frozen && !covered(after, nameKey(goal.frozen), other(mover))) return fail("frozen", { cell: goal.frozen });
  if (goal.lead && !(after.centre[mover] > after.centre[other(mover)])) {
    return fail("lead", { mine: after.centre[mover], theirs: after.centre[other(mover)] });
  }
  if (goal.win && !(outcome && outcome.winner === mover)) return fail("win");
  if (goal.ends && !(outcome && outcome.termination === goal.ends)) return fail("ends");
  if (goal.safe && outcome) return fail("safe");
  return { met: true };
}

/**
 * Reads the server's `answer` to an attempt in position `before` (position.js's reading)
 * against `goal`: `{met: true}`, `{met: false, why, vars}` as `checkGoal` says, or null for
 * a refusal the task did not ask for (the board says why it is refused).
 */
export function judgeAnswer(goal, before, answer) {
  if (!answer.legal) return goal.refused && answer.why && answer.why.code === goal.refused ? { met: true } : null;
  if (goal.refused) return { met: false, why: "refused", vars: {} };
  return checkGoal(goal, { move: answer.canonical, before, after: parsePosition(answer.position), outcome: answer.outcome });
}
