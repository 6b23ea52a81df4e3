import { test } from "node:test";
import assert from "node:assert/strict";
import { onServerChange, serverAnswered, serverAnswers } from "./offline.js";

test("a change in whether the server answers is told once", () => {
  const heard = [];
  onServerChange((yes) => heard.push(yes));
  assert.equal(serverAnswers(), true);
  serverAnswered(true);
  serverAnswered(false);
  serverAnswered(false);
  assert.equal(serverAnswers(), false);
  serverAnswered(true);
  assert.deepEqual(heard, [false, true]);
});
