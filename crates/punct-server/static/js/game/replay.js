// The positions after each move of a game, for review: fetched once (`/replay`), then kept up
// to date from the states the socket brings, so that the page does not download the whole game
// again after every move.

/**
 * The replay `replay` (`{start, moves, positions, outcome}`) brought up to `state`, a game
 * state: one move more, moves taken back, a new outcome. Null when it cannot be told from
 * what is held (then fetch it again when it is needed).
 */
export function follow(replay, state) {
  if (!replay || replay.start !== state.start) return null;
  const n = state.moves.length;
  const held = replay.moves.length;
  const common = Math.min(n, held);
  for (let i = 0; i < common; i++) if (replay.moves[i] !== state.moves[i]) return null;
  if (n <= held) {
    const positions = replay.positions.slice(0, n + 1);
    if (positions[n] !== state.position) return null;
    return { ...replay, moves: state.moves.slice(), positions, outcome: state.outcome };
  }
  if (n === held + 1) return { ...replay, moves: state.moves.slice(), positions: [...replay.positions, state.position], outcome: state.outcome };
  return null;
}
