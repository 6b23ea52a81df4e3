//! A refusal as the client is told it (API.md, "Conventions"): `{"error", "status", "code",
//! …}` in the body of an HTTP answer and in a WebSocket `error` message, with the HTTP status
//! of each kind of the domain's errors decided here, once. `error` is the English sentence for
//! API users; `code` and the values beside it ([`Refusal`]) are what a page says in its own
//! language. Whatever of the request a reason quotes (a move, a field's name, a position) is
//! cut here too, so that a refusal is never as long as the input it refuses.

use std::borrow::Cow;

use serde::Serialize;

use crate::error::ErrorKind;
pub use crate::error::refusal::{Ended, Refusal, cut};

/// The body of a refusal.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorBody<'a> {
    /// What was wrong, for people.
    pub error: Cow<'a, str>,
    /// The HTTP status that fits the refusal.
    pub status: u16,
    /// What kind of refusal it is, with the values it names (`code`, …).
    #[serde(flatten)]
    pub refusal: Cow<'a, Refusal>,
}

impl<'a> ErrorBody<'a> {
    /// The refusal with `status` and `reason`, cut ([`cut`]), its code the status's
    /// ([`refusal_of_status`]).
    pub fn new(status: u16, reason: impl Into<Cow<'a, str>>) -> ErrorBody<'a> {
        ErrorBody::refused(status, reason, Cow::Owned(refusal_of_status(status)))
    }

    /// The refusal `refusal` with `status` and `reason`, cut ([`cut`]).
    pub fn refused(
        status: u16,
        reason: impl Into<Cow<'a, str>>,
        refusal: Cow<'a, Refusal>,
    ) -> ErrorBody<'a> {
        let reason = reason.into();
        let error = match cut(&reason) {
            Cow::Borrowed(_) => reason,
            Cow::Owned(cut) => Cow::Owned(cut),
        };
        ErrorBody {
            error,
            status,
            refusal,
        }
    }
}

/// The body of the refusal `e`, with the status of its kind and its code (that of its kind
/// when it has none of its own).
pub fn body_of(e: &crate::error::Error) -> ErrorBody<'_> {
    let refusal = match &e.refusal {
        Some(r) => Cow::Borrowed(r.as_ref()),
        None => Cow::Owned(Refusal::of_kind(e.kind)),
    };
    ErrorBody::refused(status_of(e.kind), e.reason.as_str(), refusal)
}

/// The code of a refusal with HTTP status `status` that has none of its own.
pub fn refusal_of_status(status: u16) -> Refusal {
    match status {
        405 => Refusal::WrongMethod,
        408 => Refusal::TooSlow,
        413 => Refusal::TooLarge,
        415 => Refusal::WrongType,
        429 => Refusal::TooMany,
        _ => ErrorKind::ALL
            .into_iter()
            .find(|&kind| status_of(kind) == status)
            .map_or(Refusal::BadRequest, Refusal::of_kind),
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use punct_core::{Colour, Illegal, Outcome, Position, Termination};

    use crate::error::refusal::{LONGEST_REASON, LONGEST_RUN};
    use crate::records::skip::Skip;

    /// One refusal of each code.
    fn one_of_each() -> Vec<Refusal> {
        let pos = Position::from_text("standard w 0 -").unwrap();
        let ended = || {
            Ended::from(Outcome {
                winner: Some(Colour::White),
                termination: Termination::Resignation,
            })
        };
        vec![
            Refusal::NotSeated,
            Refusal::GameOver { outcome: ended() },
            Refusal::JoinOver { outcome: ended() },
            Refusal::SeatsTaken,
            Refusal::InvitationNeeded,
            Refusal::InvitationWrong,
            Refusal::NotYourTurn { colour: "black" },
            Refusal::NotStarted,
            Refusal::MalformedMove {
                text: "XX".into(),
                problem: "unknown piece".into(),
            },
            Refusal::illegal_move("E4-E5:0", &Illegal::NoPiece("E4".parse().unwrap()), &pos),
            Refusal::ComputerDeclinesDraw,
            Refusal::DrawAlreadyOffered,
            Refusal::NoDrawOffer,
            Refusal::TakebackAlreadyAsked,
            Refusal::NoMoveToTakeBack,
            Refusal::NoTakebackRequest,
            Refusal::NothingToTakeBack,
            Refusal::RematchAlreadyOffered,
            Refusal::RematchWhileLive,
            Refusal::NoRematchOffer,
            Refusal::StateAhead { seq: 9, at: 7 },
            Refusal::StateChanged { seq: 6, at: 7 },
            Refusal::Withheld { position: Some(7) },
            Refusal::WithheldMeanwhile,
            Refusal::AnalysisWhileLive,
            Refusal::NothingRead {
                first: Skip::NothingToRead,
            },
            Refusal::EmptyArchive,
            Refusal::NoGame { id: "ab".into() },
            Refusal::ChatEmpty,
            Refusal::ChatTooLong { max: 140 },
            Refusal::ChatControl,
            Refusal::ChatMuted { minutes: 5 },
            Refusal::ChatClosed,
            Refusal::ChatSignIn,
            Refusal::ChatOff,
            Refusal::ChatTooFast { seconds: 7 },
        ]
        .into_iter()
        .chain(ErrorKind::ALL.map(Refusal::of_kind))
        .chain([429, 413, 415, 408, 405].map(refusal_of_status))
        .collect()
    }

    #[test]
    fn each_refusal_is_written_with_its_code_and_values() {
        let codes: Vec<&str> = one_of_each().iter().map(Refusal::code).collect();
        assert_eq!(codes, Refusal::CODES, "one of each code, in order");
        for refusal in one_of_each() {
            let body = serde_json::to_value(ErrorBody::refused(
                status_of(refusal.kind()),
                refusal.to_string(),
                Cow::Borrowed(&refusal),
            ))
            .unwrap();
            assert_eq!(body["code"], refusal.code(), "{body}");
            assert_eq!(body["status"], status_of(refusal.kind()), "{body}");
            assert!(!body["error"].as_str().unwrap().is_empty(), "{body}");
        }
        let illegal = &one_of_each()[9];
        assert_eq!(
            serde_json::to_value(ErrorBody::refused(
                422,
                illegal.to_string(),
                Cow::Borrowed(illegal)
            ))
            .unwrap(),
            serde_json::json!({
                "error": "illegal move E4-E5:0: no piece has its PÜNCT on E4",
                "status": 422,
                "code": "illegal_move",
                "move": "E4-E5:0",
                "why": { "code": "no_piece", "cell": "E4" },
            })
        );
        assert_eq!(
            serde_json::to_value(ErrorBody::new(503, "full")).unwrap(),
            serde_json::json!({ "error": "full", "status": 503, "code": "busy" })
        );
    }

    /// The page says every code in each of its languages (static/i18n/*/server.json), the
    /// refusals and the import's skips alike.
    #[test]
    fn every_code_is_said_in_every_language() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static/i18n");
        let languages: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(languages.len(), 8, "{languages:?}");
        for lang in languages {
            let path = lang.join("server.json");
            let lang = lang.display();
            let text = std::fs::read_to_string(&path).unwrap();
            let texts: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(&text).unwrap();
            let keys = Refusal::CODES
                .iter()
                .map(|c| format!("server.refusal.{c}"))
                .chain(
                    crate::wire::records::Skip::CODES
                        .iter()
                        .map(|c| format!("server.skip.{c}")),
                );
            for key in keys {
                let said = texts.get(&key).and_then(|t| t.as_str());
                assert!(said.is_some_and(|t| !t.is_empty()), "{lang}: {key}");
            }
        }
    }

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
