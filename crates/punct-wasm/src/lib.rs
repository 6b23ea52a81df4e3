//! PÜNCT in the browser: punct-core and punct-engine compiled to WebAssembly
//! (`wasm32-unknown-unknown`, see scripts/wasm.sh), so that the page knows a position's legal
//! moves at once, and plays and analyses without the server: a game replayed and judged by
//! the rules, written as a record, the computer's move at every level and the engine's
//! lines.
//!
//! The interface is plain functions over the module's memory, so that no generated glue is
//! needed: the page asks for room for its text (`punct_alloc`), writes the text there as
//! UTF-8, calls a function with its address and length, and reads the answer, JSON, from
//! `punct_out_ptr` (`punct_out_len` bytes). The module imports two functions from the page
//! (module `punct`): `now_ms() -> f64`, the engine's clock (punct-engine's `clock`), and
//! `progress(ptr, len)`, which hands the page a search's line (JSON) while it runs.
//! static/js/engine/wasm.js does exactly that.

#![warn(missing_docs)]

mod outcome;
mod rules;
mod search;

use std::cell::RefCell;

pub use rules::{check_move_json, game_json, legal_moves_json, record_json};
pub use search::search_json;

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
    unsafe { answer_text(ptr, len, "the position text", &mut legal_moves_json) }
}

/// Answers [`check_move_json`] for the request of `len` bytes at `ptr`; the answer's length.
///
/// # Safety
/// `ptr` must point at `len` readable bytes (written into room from [`punct_alloc`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn punct_check_move(ptr: *const u8, len: usize) -> usize {
    // SAFETY: the caller's promise is this function's.
    unsafe { answer_text(ptr, len, "the request", &mut check_move_json) }
}

/// Answers [`game_json`] for the request of `len` bytes at `ptr`; the answer's length.
///
/// # Safety
/// `ptr` must point at `len` readable bytes (written into room from [`punct_alloc`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn punct_game(ptr: *const u8, len: usize) -> usize {
    // SAFETY: the caller's promise is this function's.
    unsafe { answer_text(ptr, len, "the request", &mut game_json) }
}

/// Answers [`record_json`] for the request of `len` bytes at `ptr`; the answer's length.
///
/// # Safety
/// `ptr` must point at `len` readable bytes (written into room from [`punct_alloc`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn punct_record(ptr: *const u8, len: usize) -> usize {
    // SAFETY: the caller's promise is this function's.
    unsafe { answer_text(ptr, len, "the request", &mut record_json) }
}

/// Answers [`search_json`] for the request of `len` bytes at `ptr`, handing the page each
/// line along the way (the imported `progress`); the answer's length.
///
/// # Safety
/// `ptr` must point at `len` readable bytes (written into room from [`punct_alloc`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn punct_search(ptr: *const u8, len: usize) -> usize {
    // SAFETY: the caller's promise is this function's.
    unsafe {
        answer_text(ptr, len, "the request", &mut |request| {
            search_json(request, &mut page::progress)
        })
    }
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
    respond: &mut dyn FnMut(&str) -> String,
) -> usize {
    // SAFETY: the caller passes `len` readable bytes at `ptr`.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    answer(match std::str::from_utf8(bytes) {
        Ok(text) => respond(text),
        Err(_) => rules::refused(format!("{what} is not UTF-8")),
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

/// What the page gives the module besides its requests.
mod page {
    /// Hands the page one line of a running search (JSON).
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    pub fn progress(line: &str) {
        #[link(wasm_import_module = "punct")]
        unsafe extern "C" {
            #[link_name = "progress"]
            fn page_progress(ptr: *const u8, len: usize);
        }
        // SAFETY: the page reads `len` bytes at `ptr` before it returns, while they live.
        unsafe { page_progress(line.as_ptr(), line.len()) }
    }

    /// Off the page (the host's tests) a search's lines go nowhere.
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    pub fn progress(_line: &str) {}
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // SAFETY: the answer is read at once.
        let said = unsafe { std::slice::from_raw_parts(punct_out_ptr(), bad) };
        assert!(std::str::from_utf8(said).unwrap().contains("not UTF-8"));
    }
}
