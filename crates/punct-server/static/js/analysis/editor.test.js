import { test } from "node:test";
import assert from "node:assert/strict";
import { EditRefused, putPiece, removePiece, withTurn, writePosition } from "./editor.js";
import { parsePosition } from "../position.js";
import { nameKey, parseCell } from "../geometry.js";

const EMPTY = "standard w 0 -";
const at = (name) => { const [c, r] = parseCell(name); return { c, r }; };
const put = (text, colour, type, cell, rot = 0) => putPiece(text, { colour, type, ...at(cell), rot });
const refusal = (f) => { try { f(); } catch (e) { assert.ok(e instanceof EditRefused, String(e)); return [e.code, e.vars]; } assert.fail("not refused"); };

test("a piece put on the empty board rests on it; on another, a level above it", () => {
  const one = put(EMPTY, "white", "T", "E4");
  assert.equal(one, "standard w 0 wTE4:0@1");
  const two = put(one, "white", "T", "E4");
  assert.equal(two, "standard w 0 wTE4:0@1,wTE4:0@2");
  const pos = parsePosition(two);
  assert.equal(pos.stacks.get(nameKey("E4")).length, 2);
});

test("the pieces are written in the rules' order: level, then column, then row", () => {
  let text = put(EMPTY, "black", "T", "K5");
  text = put(text, "white", "T", "E4");
  text = put(text, "white", "T", "E4");
  text = put(text, "black", "E", "M12", 3);
  assert.equal(text, "standard w 0 wTE4:0@1,bTK5:0@1,bEM12:3@1,wTE4:0@2");
  assert.equal(writePosition(parsePosition(text)), text, "a written position reads back the same");
});

test("what the editor can tell alone is refused, saying why", () => {
  assert.deepEqual(refusal(() => put(EMPTY, "white", "E", "A2", 0)), ["offBoard", { cell: "A2" }]);
  let text = put(EMPTY, "white", "C", "C3");
  text = put(text, "white", "C", "H3");
  assert.deepEqual(refusal(() => put(text, "white", "C", "M6")), ["noneLeft", { type: "C", count: 2 }]);
  assert.match(put(text, "black", "C", "M6"), /bCM6/, "the other side still has its own");
  const stacked = put(put(EMPTY, "white", "T", "E4"), "white", "T", "E4");
  assert.deepEqual(refusal(() => removePiece(EMPTY, nameKey("E4"))), ["emptyCell", {}]);
  assert.equal(removePiece(stacked, nameKey("E4")), "standard w 0 wTE4:0@1", "the top piece goes");
});

test("a piece with another on one of its dots stays", () => {
  const under = put(EMPTY, "white", "E", "E4", 0);
  const cells = parsePosition(under).pieces[0].cells.map(([c, r]) => `${"ABCDEFGHIJKLMNOPQ"[c]}${r + 1}`);
  const over = put(under, "white", "T", cells[2]);
  const [code, vars] = refusal(() => removePiece(over, nameKey(cells[0])));
  assert.equal(code, "covered");
  assert.equal(vars.cell, cells[2]);
  assert.equal(removePiece(over, nameKey(cells[2])), under);
});

test("the side to move is set with the ply in step", () => {
  assert.equal(withTurn(EMPTY, "black"), "standard b 1 -");
  assert.equal(withTurn("standard b 1 -", "black"), "standard b 1 -");
  assert.equal(withTurn("standard b 5 wTE4:0@1", "white"), "standard w 6 wTE4:0@1");
});
