// The game's sounds, made with WebAudio (no sound files): a move, a cover (a piece laid on
// others), the game's end (won, lost, or over without a winner of yours) and low time. They are
// for the players: watchers hear nothing. Nothing sounds before the person's first click or key
// on the page (browsers refuse sound before that, and it would startle), nor while muted; the
// mute switch is remembered in this browser.

import { parseMove } from "./moves.js";
import { parsePosition, topAt } from "./position.js";

const STORE_KEY = "punct.sound";
/** Below this time left, a player's own clock sounds once. */
export const LOW_TIME_MS = 10000;

/**
 * The sound a new state calls for after `prev` (the state before it, of the same game), or
 * null: `"move"` or `"cover"` for one more move, `"win"`, `"loss"` or `"end"` when the game
 * has just ended. Watchers (`you` empty) get none.
 */
export function soundFor(prev, state) {
  if (!prev || !state || prev.id !== state.id || !state.you.length) return null;
  if (!prev.outcome && state.outcome) {
    const winner = state.outcome.winner;
    if (!winner || state.you.length !== 1) return "end";
    return state.you.includes(winner) ? "win" : "loss";
  }
  if (state.moves.length !== prev.moves.length + 1) return null;
  const m = parseMove(state.moves[state.moves.length - 1]);
  if (!m) return "move";
  const top = topAt(parsePosition(state.position), m.to);
  return top && top.level > 1 ? "cover" : "move";
}

/**
 * Whether the low-time sound is due: `colour`, held by this player alone (on one screen the
 * side to move), has under LOW_TIME_MS left on its running clock, and was not warned yet in
 * this game (`warned`: a Set of "id/colour", updated).
 */
export function lowTimeDue(state, colour, ms, warned) {
  if (!state || state.outcome || !state.clock || state.clock.running !== colour) return false;
  if (!state.you.includes(colour) || ms >= LOW_TIME_MS || ms <= 0) return false;
  const k = `${state.id}/${colour}`;
  if (warned.has(k)) return false;
  warned.add(k);
  return true;
}

// Each sound: notes of [frequency Hz, start s, length s, wave, loudness].
const NOTES = {
  move: [[520, 0, 0.07, "triangle", 0.25]],
  cover: [[330, 0, 0.09, "triangle", 0.3], [196, 0.05, 0.14, "sine", 0.3]],
  win: [[523, 0, 0.14, "triangle", 0.22], [659, 0.12, 0.14, "triangle", 0.22], [784, 0.24, 0.3, "triangle", 0.22]],
  loss: [[392, 0, 0.16, "sine", 0.22], [330, 0.14, 0.16, "sine", 0.22], [262, 0.28, 0.34, "sine", 0.22]],
  end: [[440, 0, 0.16, "sine", 0.2], [440, 0.2, 0.24, "sine", 0.2]],
  low: [[880, 0, 0.08, "square", 0.08], [880, 0.16, 0.08, "square", 0.08]],
};

/**
 * The page's sounds. `storage` keeps the mute switch (localStorage unless given);
 * `AudioContextImpl` is the browser's unless given (none: silence).
 */
export function createSounds({ storage = globalThis.localStorage, AudioContextImpl = globalThis.AudioContext } = {}) {
  let ctx = null;
  let allowed = false;
  let muted = storage ? storage.getItem(STORE_KEY) === "off" : false;
  const played = [];
  return {
    /** The person has clicked or pressed a key: sounds may play from now on. */
    allow() { allowed = true; },
    /** Whether the sounds are off. */
    muted: () => muted,
    /** Turns the sounds off or on, remembered in this browser. */
    setMuted(off) {
      muted = !!off;
      if (storage) storage.setItem(STORE_KEY, muted ? "off" : "on");
    },
    /** The sounds played so far (names), for tests. */
    played,
    /** Plays sound `name` if it may sound now. */
    play(name) {
      if (!NOTES[name] || muted || !allowed) return;
      played.push(name);
      if (!AudioContextImpl) return;
      try {
        ctx = ctx || new AudioContextImpl();
        if (ctx.state === "suspended") ctx.resume();
        const t0 = ctx.currentTime + 0.01;
        for (const [freq, at, len, wave, loud] of NOTES[name]) {
          const osc = ctx.createOscillator();
          const gain = ctx.createGain();
          osc.type = wave;
          osc.frequency.value = freq;
          // A quick rise and an exponential fall: no clicks at the ends.
          gain.gain.setValueAtTime(0.0001, t0 + at);
          gain.gain.exponentialRampToValueAtTime(loud, t0 + at + 0.01);
          gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
          osc.connect(gain).connect(ctx.destination);
          osc.start(t0 + at);
          osc.stop(t0 + at + len + 0.02);
        }
      } catch (e) {
        // A browser without working audio plays nothing; the game goes on.
        console.warn(`no sound: ${e.message}`);
      }
    },
  };
}
