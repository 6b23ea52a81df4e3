//! The rules of PÜNCT in the browser: punct-core compiled to WebAssembly
//! (`wasm32-unknown-unknown`, see scripts/wasm.sh) so that the page knows a position's legal
//! moves at once, without asking the server; and the computer's levels below the search
//! (punct-engine's newcomer rungs, which need no clock), to play without the server.
//!
//! The interface is plain functions over the module's memory, so that no generated glue is
//! needed: the page asks for room for its text (`punct_alloc`), writes the text there as
//! UTF-8, calls a function with its address and length, and reads the answer, JSON, from
//! `punct_out_ptr` (`punct_out_len` bytes). static/js/rules-wasm.js does exactly that.

#![warn(missing_docs)]

use std::cell::RefCell;

use punct_core::Position;
use punct_engine::{Level, Play, novice};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use serde::{Deserialize, Serialize};

/// What a request answers: the legal moves as `GET /api/legal?position=…` lists them, or why
/// the text is no position.
#[derive(Serialize)]
#[serde(untagged)]
enum Answer {
    Moves { moves: Vec<String> },
    Move { r#move: Option<String> },
    Refused { error: String },
}

/// A request for the computer's move.
#[derive(Deserialize)]
struct MoveRequest {
    position: String,
    level: u8,
    seed: u64,
}

fn json(answer: &Answer) -> String {
    // Strings and lists of them: serde_json cannot fail on them.
    serde_json::to_string(answer).unwrap_or_default()
}

/// The legal moves of the position `text` (a position text), as JSON: `{"moves": [...]}` in
/// the rules' canonical order, or `{"error": "..."}` naming what is wrong with the text.
pub fn legal_moves_json(text: &str) -> String {
    json(&match Position::from_text(text.trim()) {
        Ok(pos) => Answer::Moves {
            moves: pos.legal_move_texts(),
        },
        Err(e) => Answer::Refused {
            error: format!("bad position text: {e}"),
        },
    })
}

/// The computer's move for `request`, JSON `{"position": "…", "level": 1, "seed": 7}`: at
/// the levels below the search (1 to 3), the move punct-engine's newcomer makes there with
/// that seed, as JSON `{"move": "TE4:0"}` (`null` with no legal move); `{"error": "…"}` for
/// a bad request, a bad position, or a level that searches (the page cannot time a search).
pub fn computer_move_json(request: &str) -> String {
    let refused = |error: String| json(&Answer::Refused { error });
    let request: MoveRequest = match serde_json::from_str(request) {
        Ok(r) => r,
        Err(e) => return refused(format!("bad request: {e}")),
    };
    let mut pos = match Position::from_text(request.position.trim()) {
        Ok(pos) => pos,
        Err(e) => return refused(format!("bad position text: {e}")),
    };
    let Some(level) = Level::new(request.level) else {
        return refused(format!(
            "no level {}: the levels are 1 to {}",
            request.level,
            Level::MAX
        ));
    };
    match level.play() {
        Play::Glance(habits) => {
            let mut rng = SmallRng::seed_from_u64(request.seed);
            let mv = novice::choose(&mut pos, &habits, &mut rng);
            json(&Answer::Move {
                r#move: mv.map(|m| m.to_string()),
            })
        }
        Play::Search { .. } => refused(format!(
            "level {} searches, which needs a clock the page does not give the engine",
            request.level
        )),
    }
}

thread_local! {
    /// The last answer, where the page reads it.
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Keeps `answer` for the page to read; its length.
fn answer(answer: String) -> usize {
    OUT.with(|out| {
        let mut out = out.borrow_mut();
        *out = answer.into_bytes();
        out.len()
    })
}

/// Room for `len` bytes in the module's memory, for the page to write a text into; give it
/// back with [`punct_free`].
#[unsafe(no_mangle)]
pub extern "C" fn punct_alloc(len: usize) -> *mut u8 {
    let mut room = std::mem::ManuallyDrop::new(Vec::<u8>::with_capacity(len));
    room.as_mut_ptr()
}

/// Gives back room that [`punct_alloc`] gave.
///
/// # Safety
/// `ptr` and `len` must be what one call of [`punct_alloc`] gave and took, not given back yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn punct_free(ptr: *mut u8, len: usize) {
    // SAFETY: the caller passes an allocation of `len` bytes' capacity made by punct_alloc.
    drop(unsafe { Vec::from_raw_parts(ptr, 0, len) });
}

/// Answers [`legal_moves_json`] for the text of `len` bytes at `ptr`; the answer's length.
/// A text that is not UTF-8 is answered with an error.
///
/// # Safety
/// `ptr` must point at `len` readable bytes (written into room from [`punct_alloc`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn punct_legal_moves(ptr: *const u8, len: usize) -> usize {
    // SAFETY: the caller's promise is this function's.
    unsafe { answer_text(ptr, len, "the position text", legal_moves_json) }
}

/// Answers [`computer_move_json`] for the request of `len` bytes at `ptr`; the answer's length.
///
/// # Safety
/// `ptr` must point at `len` readable bytes (written into room from [`punct_alloc`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn punct_computer_move(ptr: *const u8, len: usize) -> usize {
    // SAFETY: the caller's promise is this function's.
    unsafe { answer_text(ptr, len, "the request", computer_move_json) }
}

/// Keeps `respond`'s answer to the UTF-8 text of `len` bytes at `ptr` (or why it is not
/// UTF-8, calling it `what`); the answer's length.
///
/// # Safety
/// `ptr` must point at `len` readable bytes.
unsafe fn answer_text(
    ptr: *const u8,
    len: usize,
    what: &str,
    respond: fn(&str) -> String,
) -> usize {
    // SAFETY: the caller passes `len` readable bytes at `ptr`.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    answer(match std::str::from_utf8(bytes) {
        Ok(text) => respond(text),
        Err(_) => json(&Answer::Refused {
            error: format!("{what} is not UTF-8"),
        }),
    })
}

/// Where the last answer is in the module's memory.
#[unsafe(no_mangle)]
pub extern "C" fn punct_out_ptr() -> *const u8 {
    OUT.with(|out| out.borrow().as_ptr())
}

/// The last answer's length in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn punct_out_len() -> usize {
    OUT.with(|out| out.borrow().len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_answers_its_legal_moves_in_the_rules_order() {
        let v: serde_json::Value =
            serde_json::from_str(&legal_moves_json("standard w 0 -")).unwrap();
        let moves: Vec<&str> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let expected = Position::from_text("standard w 0 -")
            .unwrap()
            .legal_move_texts();
        assert_eq!(moves, expected);
        assert!(moves.contains(&"TE4:0") && !moves.iter().any(|m| m.starts_with("TI9")));
    }

    #[test]
    fn a_bad_text_answers_why() {
        let v: serde_json::Value =
            serde_json::from_str(&legal_moves_json("standard x 0 -")).unwrap();
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .starts_with("bad position text:"),
            "{v}"
        );
        assert!(v.get("moves").is_none());
    }

    #[test]
    fn the_levels_below_the_search_move_and_the_others_say_why_not() {
        let ask = |level: u8, position: &str, seed: u64| -> serde_json::Value {
            let request = serde_json::json!({ "position": position, "level": level, "seed": seed });
            serde_json::from_str(&computer_move_json(&request.to_string())).unwrap()
        };
        for level in 1..=3 {
            for seed in 0..4 {
                let v = ask(level, "standard b 1 wTE4:0@1", seed);
                let mv = v["move"].as_str().unwrap_or_else(|| panic!("{v}"));
                let pos = Position::from_text("standard b 1 wTE4:0@1").unwrap();
                assert!(
                    pos.legal_move_texts().iter().any(|m| m == mv),
                    "level {level}: {mv}"
                );
                assert_eq!(
                    ask(level, "standard b 1 wTE4:0@1", seed),
                    v,
                    "the same seed, the same move"
                );
            }
        }
        assert!(
            ask(4, "standard w 0 -", 1)["error"]
                .as_str()
                .unwrap()
                .contains("searches")
        );
        assert!(
            ask(0, "standard w 0 -", 1)["error"]
                .as_str()
                .unwrap()
                .contains("1 to")
        );
        assert!(
            ask(1, "nonsense", 1)["error"]
                .as_str()
                .unwrap()
                .starts_with("bad position text")
        );
        let bad: serde_json::Value = serde_json::from_str(&computer_move_json("{}")).unwrap();
        assert!(
            bad["error"].as_str().unwrap().starts_with("bad request"),
            "{bad}"
        );
    }

    #[test]
    fn the_memory_interface_reads_a_text_and_keeps_the_answer() {
        let text = b"standard b 1 wTE4:0@1";
        let room = punct_alloc(text.len());
        // SAFETY: `room` has room for the text; the answer is read while nothing else runs.
        let answer = unsafe {
            std::ptr::copy_nonoverlapping(text.as_ptr(), room, text.len());
            let len = punct_legal_moves(room, text.len());
            punct_free(room, text.len());
            assert_eq!(len, punct_out_len());
            std::str::from_utf8(std::slice::from_raw_parts(punct_out_ptr(), len))
                .unwrap()
                .to_owned()
        };
        assert_eq!(answer, legal_moves_json("standard b 1 wTE4:0@1"));
        // SAFETY: two bytes that are not UTF-8, readable at their address.
        let bad = unsafe { punct_legal_moves([0xff, 0xfe].as_ptr(), 2) };
        assert!(bad > 0);
        assert!(legal_moves_json("").contains("error"));
    }
}
