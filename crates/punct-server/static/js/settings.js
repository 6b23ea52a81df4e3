// The look of the boards, chosen in the header's settings menu and kept in this browser
// (localStorage): the board's colours and the pieces' style. Both are attributes on the page's
// root element that the style sheet reads, so a choice shows at once on every board, without
// drawing anything again.

const STORE_KEY = "punct.look";

/** The board themes, the first the default; each is a set of colours in style.css. */
export const BOARDS = ["sand", "slate", "meadow"];
/** The pieces' styles, the first the default: tiles with three dots, or three stones joined by thin bars. */
export const PIECES = ["tiles", "stones"];

/** The look kept in `storage` (a Storage), each part the default when unknown or unreadable. */
export function loadLook(storage) {
  let kept = {};
  try { kept = JSON.parse(storage.getItem(STORE_KEY) || "{}") || {}; } catch { kept = {}; }
  return {
    board: BOARDS.includes(kept.board) ? kept.board : BOARDS[0],
    pieces: PIECES.includes(kept.pieces) ? kept.pieces : PIECES[0],
  };
}

/** Keeps `look` in `storage`. */
export function saveLook(storage, look) {
  storage.setItem(STORE_KEY, JSON.stringify({ board: look.board, pieces: look.pieces }));
}

/** Shows `look` on `root` (the page's root element): `data-board` and `data-pieces`. */
export function applyLook(root, look) {
  root.dataset.board = look.board;
  root.dataset.pieces = look.pieces;
}
