// The course's data: every task's position reads, its solution is a move text, its marks are
// cells, and every text it needs is in the English catalogue. (That each solution is legal
// and meets its goal is checked against the server: tests/welcome.rs.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parsePosition } from "../position.js";
import { parseMove } from "../moves.js";
import { nameKey } from "../geometry.js";

const read = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"));
const { lessons } = read("./lessons.json");
const english = read("../../i18n/en/learn.json");
const GOALS = new Set(["refused", "kind", "from", "to", "own", "level", "bridge", "frozen", "lead", "win", "ends", "safe"]);

test("the course has lessons of a few tasks each, with unique names", () => {
  assert.ok(lessons.length >= 8);
  assert.equal(new Set(lessons.map((l) => l.id)).size, lessons.length);
  for (const l of lessons) {
    assert.ok(l.tasks.length >= 1 && l.tasks.length <= 4, l.id);
    assert.equal(new Set(l.tasks.map((t) => t.id)).size, l.tasks.length, l.id);
  }
});

test("every task's position, solution, goal and marks read", () => {
  for (const l of lessons) {
    for (const t of l.tasks) {
      const name = `${l.id}/${t.id}`;
      assert.doesNotThrow(() => parsePosition(t.position), name);
      assert.ok(parseMove(t.solution), `${name}: solution ${t.solution}`);
      assert.ok(Object.keys(t.goal).length > 0, `${name}: a goal`);
      for (const k of Object.keys(t.goal)) assert.ok(GOALS.has(k), `${name}: goal ${k}`);
      for (const cell of [...t.marks, ...(t.goal.own || []), ...["from", "to", "frozen"].map((k) => t.goal[k]).filter(Boolean)]) {
        assert.ok(nameKey(cell), `${name}: ${cell} is a cell`);
      }
    }
  }
});

test("a task met by a refusal or by the game's end says what happened in its own words", () => {
  for (const l of lessons) {
    for (const t of l.tasks) {
      if (t.goal.refused || t.goal.ends) assert.ok(english[`learn.${l.id}.${t.id}.met`], `${l.id}/${t.id}`);
    }
  }
});

test("every lesson and task has its texts in English", () => {
  for (const l of lessons) {
    for (const key of [`learn.${l.id}.title`, `learn.${l.id}.intro`]) assert.ok(english[key], key);
    for (const t of l.tasks) {
      for (const key of [`learn.${l.id}.${t.id}`, `learn.${l.id}.${t.id}.hint`]) assert.ok(english[key], key);
    }
  }
  for (const why of ["refused", "move", "place", "shift", "from", "to", "own", "level", "bridge", "frozen", "lead", "win", "ends", "safe"]) {
    assert.ok(english[`learn.unmet.${why}`], why);
  }
});
