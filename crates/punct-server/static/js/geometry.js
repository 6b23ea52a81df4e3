// Board geometry: cells, directions and the pieces' footprints, as punct-core defines them
// (cell.rs, piece.rs, geometry.rs). Drawing needs them; the rules (what is legal) stay on the
// server.

/** Column letters A–Q. */
export const LETTERS = "ABCDEFGHIJKLMNOPQ";
/** Direction steps (Δcolumn, Δrow), D0..D5 as in RULINGS.md §1. */
export const DIRS = [[0, -1], [-1, -1], [-1, 0], [0, 1], [1, 1], [1, 0]];
/** Paths from the PÜNCT to the two minor dots, as turns of the rotation's direction (piece.rs `turns`). */
const TURNS = { T: [[0], [1]], C: [[0], [3]], E: [[0], [0, 0]], L: [[0], [0, 1]], M: [[1], [3]], R: [[4], [4, 3]] };
/** The six piece types, in punct-core's order. */
export const TYPES = ["T", "C", "E", "L", "M", "R"];
/** Each type's pieces per player. */
export const FULL = { T: 6, C: 2, E: 4, L: 2, M: 2, R: 2 };
const CORNERS = new Set(["0,0", "0,8", "8,0", "8,16", "16,8", "16,16"]);

/** Whether column `c`, row `r` (0-based) is a cell of the board. */
export const exists = (c, r) => c >= 0 && r >= 0 && c <= 16 && r <= 16 && Math.abs(c - r) <= 8 && !CORNERS.has(`${c},${r}`);
/** A cell's name, `E4`. */
export const cellName = (c, r) => `${LETTERS[c]}${r + 1}`;
/** A cell's [column, row] from its name, or null for a name that is no cell. */
export function parseCell(name) {
  const m = /^([A-Q])(\d{1,2})$/.exec(name);
  if (!m) return null;
  const c = LETTERS.indexOf(m[1]), r = +m[2] - 1;
  return exists(c, r) ? [c, r] : null;
}
/** The key `"c,r"` that maps and sets use for a cell. */
export const key = (c, r) => `${c},${r}`;
/** The [column, row] of a key. */
export const unkey = (k) => k.split(",").map(Number);
/** The key of a cell name (null when it is none). */
export const nameKey = (name) => { const cr = parseCell(name); return cr && key(...cr); };

/** Every cell, column by column. */
export const ALL_CELLS = [];
for (let c = 0; c < 17; c++) for (let r = 0; r < 17; r++) if (exists(c, r)) ALL_CELLS.push([c, r]);

/** Whether a cell is one of the central hexagon's 19. */
export const inCentre = (c, r) => { const dc = c - 8, dr = r - 8; return Math.abs(dc) <= 2 && Math.abs(dr) <= 2 && Math.abs(dc - dr) <= 2; };
/** Which pair of goal sides a border cell is on: 0 (columns A, Q), 1 (rows 1, 17), 2 (the diagonals); −1 inside. */
export const goalOf = (c, r) => (c === 0 || c === 16) ? 0 : (r === 0 || r === 16) ? 1 : (Math.abs(c - r) === 8 ? 2 : -1);

/** Whether two cells are neighbours. */
export const adjacent = ([a, b], [c, d]) => DIRS.some(([dc, dr]) => a + dc === c && b + dr === d);

/**
 * The cells a piece of `type` covers with its PÜNCT on (c, r) turned `rot`: the PÜNCT's cell
 * first, then the two minor dots; null when a dot would fall off the board.
 */
export function footprint(type, c, r, rot) {
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

/**
 * The bars of a piece's tile: the pairs of its dots (indices into its footprint) that are
 * neighbours. A triangle has three; every other type two, so that the M's bars meet at its
 * PÜNCT and never join its two minor dots, which are not neighbours.
 */
export function bars(cells) {
  const out = [];
  for (let i = 0; i < cells.length; i++) for (let j = i + 1; j < cells.length; j++) if (adjacent(cells[i], cells[j])) out.push([i, j]);
  return out;
}
