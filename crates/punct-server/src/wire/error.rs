//! A refusal as the client is told it (API.md, "Conventions"): `{"error", "status"}` in the
//! body of an HTTP answer and in a WebSocket `error` message, with the HTTP status of each
//! kind of the domain's errors decided here, once. Whatever of the request a reason quotes
//! (a move, a field's name, a position) is cut here too, so that a refusal is never as long
//! as the input it refuses.

use std::borrow::Cow;

use serde::Serialize;

use crate::error::ErrorKind;

/// The body of a refusal.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorBody<'a> {
    /// What was wrong, for people.
    pub error: Cow<'a, str>,
    /// The HTTP status that fits the refusal.
    pub status: u16,
}

impl<'a> ErrorBody<'a> {
    /// The refusal with `status` and `reason`, cut ([`cut`]).
    pub fn new(status: u16, reason: impl Into<Cow<'a, str>>) -> ErrorBody<'a> {
        let reason = reason.into();
        let error = match cut(&reason) {
            Cow::Borrowed(_) => reason,
            Cow::Owned(cut) => Cow::Owned(cut),
        };
        ErrorBody { error, status }
    }
}

/// The HTTP status of each kind of domain error.
pub fn status_of(kind: ErrorKind) -> u16 {
    match kind {
        ErrorKind::BadRequest => 400,
        ErrorKind::Forbidden => 403,
        ErrorKind::NotFound => 404,
        ErrorKind::Conflict => 409,
        ErrorKind::Illegal => 422,
        ErrorKind::Busy | ErrorKind::Storage => 503,
        ErrorKind::Internal => 500,
    }
}

/// The longest run of characters without a space that a reason keeps whole: longer than any
/// word, cell, move or id a reason names, shorter than anything a client could flood it with.
const LONGEST_RUN: usize = 64;

/// How much of a longer run is kept, before an ellipsis.
const RUN_KEPT: usize = 40;

/// The longest reason, in characters, before an ellipsis.
const LONGEST_REASON: usize = 400;

/// `reason` as a client is told it: every run of characters without a space longer than
/// [`LONGEST_RUN`] cut to its first [`RUN_KEPT`] and an ellipsis, control characters
/// written escaped (`\n`), and the whole at most [`LONGEST_REASON`] characters and an
/// ellipsis.
pub fn cut(reason: &str) -> Cow<'_, str> {
    let fits = reason.len() <= LONGEST_REASON
        && !reason.contains(char::is_control)
        && reason.split(' ').all(|run| run.len() <= LONGEST_RUN);
    if fits {
        return Cow::Borrowed(reason);
    }
    let mut out = String::with_capacity(reason.len().min(4 * LONGEST_REASON));
    let mut shown = 0;
    for (i, run) in reason.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
            shown += 1;
        }
        let long = run.chars().nth(LONGEST_RUN).is_some();
        let kept = if long { RUN_KEPT } else { LONGEST_RUN };
        for c in run.chars().take(kept) {
            if shown >= LONGEST_REASON {
                out.push('…');
                return Cow::Owned(out);
            }
            if c.is_control() {
                let escaped = c.escape_default();
                shown += escaped.len();
                out.extend(escaped);
            } else {
                out.push(c);
                shown += 1;
            }
        }
        if long {
            out.push('…');
            shown += 1;
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_reason_that_quotes_nothing_long_is_kept_as_it_is() {
        let reason = "illegal move TI9:0: in the standard game no placement may touch the centre";
        assert!(matches!(cut(reason), Cow::Borrowed(r) if r == reason));
    }

    #[test]
    fn long_runs_are_cut_and_control_characters_escaped() {
        let long = "TE4:0".repeat(12_000);
        let reason = format!("malformed move `{long}`: unknown piece");
        let cut = cut(&reason);
        assert!(cut.starts_with("malformed move `TE4:0TE4:0"), "{cut}");
        assert!(
            cut.ends_with("…: unknown piece") || cut.contains("… unknown"),
            "{cut}"
        );
        assert!(cut.chars().count() < 80, "{cut}");
        assert_eq!(super::cut("a\nb\u{7}"), "a\\nb\\u{7}");
    }

    proptest! {
        /// Whatever the reason, what is told is short, has no control character, and keeps
        /// a reason that needs no cutting as it was.
        #[test]
        fn what_is_told_is_short_and_on_one_line(reason in ".{0,3000}") {
            let told = cut(&reason);
            prop_assert!(told.chars().count() <= LONGEST_REASON + 12, "{}", told);
            prop_assert!(!told.contains(char::is_control), "{:?}", told);
            if reason.chars().count() <= LONGEST_REASON
                && !reason.contains(char::is_control)
                && reason.split(' ').all(|r| r.chars().count() <= LONGEST_RUN)
            {
                prop_assert_eq!(told.as_ref(), reason.as_str());
            }
        }
    }
}
