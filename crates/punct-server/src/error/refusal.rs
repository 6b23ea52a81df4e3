//! Why the domain refuses a request, as codes with the values their messages name
//! ([`Refusal`]), for interfaces that say them in their own words; and [`cut`], which keeps a
//! reason short whatever of the request it quotes.

use std::borrow::Cow;
use std::fmt;

use punct_core::{Illegal, Outcome, Position};
use serde::Serialize;

use super::ErrorKind;
use super::why::Why;
use crate::records::skip::Skip;
use crate::room::colour_name;

impl Refusal {
    /// The refusal of move `played` in `pos`, which breaks rule `why`.
    pub fn illegal_move(played: &str, why: &Illegal, pos: &Position) -> Refusal {
        Refusal::IllegalMove {
            played: cut(played).into_owned(),
            why: Why::of(why, pos),
            reason: why.to_string(),
        }
    }
}

/// How a game ended, as a refusal names it (the fields of the state's `outcome` that say it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ended {
    /// The winner's colour, `null` for a draw or a game without a result.
    pub winner: Option<&'static str>,
    /// Why it ended (`connection`, `resignation`, …).
    pub termination: &'static str,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: &'static str,
    /// The English words, as punct-core writes them (`white wins by connection`).
    #[serde(skip)]
    text: String,
}

impl From<Outcome> for Ended {
    fn from(outcome: Outcome) -> Ended {
        Ended {
            winner: outcome.winner.map(colour_name),
            termination: outcome.termination.name(),
            result: outcome.result_token(),
            text: outcome.to_string(),
        }
    }
}

/// What kind of refusal an error is, and the values its message names, for interfaces that
/// say it in their own words (`{"code", …}`, listed in API.md). Its English sentence is the
/// error's `reason` ([`fmt::Display`]). An error the domain gives no code of its own has the
/// code of its kind (`conflict`, `busy`, …).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum Refusal {
    /// The token holds no seat in the game: watchers cannot act.
    NotSeated,
    /// The game is over.
    GameOver {
        /// How it ended.
        outcome: Ended,
    },
    /// The game is over: it may be watched, not joined.
    JoinOver {
        /// How it ended.
        outcome: Ended,
    },
    /// Both seats are taken.
    SeatsTaken,
    /// A join without the game's invitation.
    InvitationNeeded,
    /// A join with an invitation that is not the game's.
    InvitationWrong,
    /// The other side is to move.
    NotYourTurn {
        /// The side to move.
        colour: &'static str,
    },
    /// The game waits for an opponent to join.
    NotStarted,
    /// The text is not a move.
    MalformedMove {
        /// The text, cut.
        #[serde(rename = "move")]
        text: String,
        /// What is wrong with it, in English.
        problem: String,
    },
    /// The move breaks a rule.
    IllegalMove {
        /// The move.
        #[serde(rename = "move")]
        played: String,
        /// The rule (the same codes as `/api/legal`'s `why`).
        why: Why,
        /// The rule in English, as punct-core says it.
        #[serde(skip)]
        reason: String,
    },
    /// The computer does not take draws.
    ComputerDeclinesDraw,
    /// A draw offered again.
    DrawAlreadyOffered,
    /// No draw offer to decline.
    NoDrawOffer,
    /// A takeback asked for again.
    TakebackAlreadyAsked,
    /// No move of one's own to take back.
    NoMoveToTakeBack,
    /// No takeback request to decline.
    NoTakebackRequest,
    /// No move in the game to take back.
    NothingToTakeBack,
    /// A rematch offered again.
    RematchAlreadyOffered,
    /// A rematch asked for while the game is played.
    RematchWhileLive,
    /// No rematch offer to decline.
    NoRematchOffer,
    /// An action made on a state the game has not reached.
    StateAhead {
        /// The state it was made on.
        seq: u64,
        /// The game's state.
        at: u64,
    },
    /// An action made on a state the game has moved on from.
    StateChanged {
        /// The state it was made on.
        seq: u64,
        /// The game's state.
        at: u64,
    },
    /// The engine does not analyse a position of a game being played (`games::fairness`).
    Withheld {
        /// Which of a game's positions (after how many moves), where a game's were asked.
        #[serde(skip_serializing_if = "Option::is_none")]
        position: Option<usize>,
    },
    /// A position of the game under analysis was reached in a game being played meanwhile.
    WithheldMeanwhile,
    /// The game's own analysis waits for its end.
    AnalysisWhileLive,
    /// No game of an import could be read.
    NothingRead {
        /// Why its first game (or file) was not, as its skipped entry says it.
        first: Skip,
    },
    /// An archive without a file in it.
    EmptyArchive,
    /// No such game.
    NoGame {
        /// The id asked for, cut.
        id: String,
    },
    /// A chat message of nothing but spaces.
    ChatEmpty,
    /// A chat message over the longest.
    ChatTooLong {
        /// The most characters of a message.
        max: usize,
    },
    /// A chat message with control characters.
    ChatControl,
    /// The operator muted the writer's account.
    ChatMuted {
        /// The minutes until the account may chat again, rounded up.
        minutes: i64,
    },
    /// The writer's account is closed.
    ChatClosed,
    /// A watcher not signed in writes in the watchers' chat.
    ChatSignIn,
    /// The account turned chat off in its settings.
    ChatOff,
    /// Over the chat's rate limit.
    ChatTooFast {
        /// The seconds until the next message is let through, rounded up.
        seconds: i64,
    },
    /// The request is malformed (no code of its own).
    BadRequest,
    /// Not allowed (no code of its own).
    Forbidden,
    /// Not found (no code of its own).
    NotFound,
    /// Not possible now (no code of its own).
    Conflict,
    /// Against the rules (no code of its own).
    Illegal,
    /// The server has no room for it now: try again.
    Busy,
    /// The database failed: try again.
    Storage,
    /// A failure of the server's own.
    Internal,
    /// Too many requests from the address: try again later (429).
    TooMany,
    /// The request's body is too large (413).
    TooLarge,
    /// The request's body is not of a type the route takes (415).
    WrongType,
    /// The request's body did not arrive in time (408).
    TooSlow,
    /// The route does not take the request's method (405).
    WrongMethod,
}

impl Refusal {
    /// Every code, for the tests that check each is translated: [`Refusal::code`] of each
    /// variant, in declaration order.
    pub const CODES: &[&str] = &[
        "not_seated",
        "game_over",
        "join_over",
        "seats_taken",
        "invitation_needed",
        "invitation_wrong",
        "not_your_turn",
        "not_started",
        "malformed_move",
        "illegal_move",
        "computer_declines_draw",
        "draw_already_offered",
        "no_draw_offer",
        "takeback_already_asked",
        "no_move_to_take_back",
        "no_takeback_request",
        "nothing_to_take_back",
        "rematch_already_offered",
        "rematch_while_live",
        "no_rematch_offer",
        "state_ahead",
        "state_changed",
        "withheld",
        "withheld_meanwhile",
        "analysis_while_live",
        "nothing_read",
        "empty_archive",
        "no_game",
        "chat_empty",
        "chat_too_long",
        "chat_control",
        "chat_muted",
        "chat_closed",
        "chat_sign_in",
        "chat_off",
        "chat_too_fast",
        "bad_request",
        "forbidden",
        "not_found",
        "conflict",
        "illegal",
        "busy",
        "storage",
        "internal",
        "too_many",
        "too_large",
        "wrong_type",
        "too_slow",
        "wrong_method",
    ];

    /// The refusal's code.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::NotSeated => "not_seated",
            Refusal::GameOver { .. } => "game_over",
            Refusal::JoinOver { .. } => "join_over",
            Refusal::SeatsTaken => "seats_taken",
            Refusal::InvitationNeeded => "invitation_needed",
            Refusal::InvitationWrong => "invitation_wrong",
            Refusal::NotYourTurn { .. } => "not_your_turn",
            Refusal::NotStarted => "not_started",
            Refusal::MalformedMove { .. } => "malformed_move",
            Refusal::IllegalMove { .. } => "illegal_move",
            Refusal::ComputerDeclinesDraw => "computer_declines_draw",
            Refusal::DrawAlreadyOffered => "draw_already_offered",
            Refusal::NoDrawOffer => "no_draw_offer",
            Refusal::TakebackAlreadyAsked => "takeback_already_asked",
            Refusal::NoMoveToTakeBack => "no_move_to_take_back",
            Refusal::NoTakebackRequest => "no_takeback_request",
            Refusal::NothingToTakeBack => "nothing_to_take_back",
            Refusal::RematchAlreadyOffered => "rematch_already_offered",
            Refusal::RematchWhileLive => "rematch_while_live",
            Refusal::NoRematchOffer => "no_rematch_offer",
            Refusal::StateAhead { .. } => "state_ahead",
            Refusal::StateChanged { .. } => "state_changed",
            Refusal::Withheld { .. } => "withheld",
            Refusal::WithheldMeanwhile => "withheld_meanwhile",
            Refusal::AnalysisWhileLive => "analysis_while_live",
            Refusal::NothingRead { .. } => "nothing_read",
            Refusal::EmptyArchive => "empty_archive",
            Refusal::NoGame { .. } => "no_game",
            Refusal::ChatEmpty => "chat_empty",
            Refusal::ChatTooLong { .. } => "chat_too_long",
            Refusal::ChatControl => "chat_control",
            Refusal::ChatMuted { .. } => "chat_muted",
            Refusal::ChatClosed => "chat_closed",
            Refusal::ChatSignIn => "chat_sign_in",
            Refusal::ChatOff => "chat_off",
            Refusal::ChatTooFast { .. } => "chat_too_fast",
            Refusal::BadRequest => "bad_request",
            Refusal::Forbidden => "forbidden",
            Refusal::NotFound => "not_found",
            Refusal::Conflict => "conflict",
            Refusal::Illegal => "illegal",
            Refusal::Busy => "busy",
            Refusal::Storage => "storage",
            Refusal::Internal => "internal",
            Refusal::TooMany => "too_many",
            Refusal::TooLarge => "too_large",
            Refusal::WrongType => "wrong_type",
            Refusal::TooSlow => "too_slow",
            Refusal::WrongMethod => "wrong_method",
        }
    }

    /// The kind of error the refusal is.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Refusal::NotSeated
            | Refusal::InvitationNeeded
            | Refusal::InvitationWrong
            | Refusal::Withheld { .. }
            | Refusal::WithheldMeanwhile
            | Refusal::ChatMuted { .. }
            | Refusal::ChatClosed
            | Refusal::ChatSignIn
            | Refusal::ChatOff
            | Refusal::Forbidden => ErrorKind::Forbidden,
            Refusal::MalformedMove { .. }
            | Refusal::NothingRead { .. }
            | Refusal::EmptyArchive
            | Refusal::ChatEmpty
            | Refusal::ChatTooLong { .. }
            | Refusal::ChatControl
            | Refusal::ChatTooFast { .. }
            | Refusal::BadRequest
            | Refusal::TooMany
            | Refusal::TooLarge
            | Refusal::WrongType
            | Refusal::TooSlow
            | Refusal::WrongMethod => ErrorKind::BadRequest,
            Refusal::IllegalMove { .. } | Refusal::Illegal => ErrorKind::Illegal,
            Refusal::NoGame { .. } | Refusal::NotFound => ErrorKind::NotFound,
            Refusal::Busy => ErrorKind::Busy,
            Refusal::Storage => ErrorKind::Storage,
            Refusal::Internal => ErrorKind::Internal,
            _ => ErrorKind::Conflict,
        }
    }

    /// The code of an error of kind `kind` that has none of its own.
    pub fn of_kind(kind: ErrorKind) -> Refusal {
        match kind {
            ErrorKind::BadRequest => Refusal::BadRequest,
            ErrorKind::Forbidden => Refusal::Forbidden,
            ErrorKind::NotFound => Refusal::NotFound,
            ErrorKind::Conflict => Refusal::Conflict,
            ErrorKind::Illegal => Refusal::Illegal,
            ErrorKind::Busy => Refusal::Busy,
            ErrorKind::Storage => Refusal::Storage,
            ErrorKind::Internal => Refusal::Internal,
        }
    }
}

/// The English sentence of each refusal: the error's `reason` (a refusal without a code of
/// its own has its reason from elsewhere, and says only its kind).
impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotSeated => {
                f.write_str("this token holds no seat in this game (watchers cannot act)")
            }
            Refusal::GameOver { outcome } => write!(f, "the game is over: {}", outcome.text),
            Refusal::JoinOver { outcome } => write!(
                f,
                "the game is over ({}); you can watch its replay",
                outcome.text
            ),
            Refusal::SeatsTaken => f.write_str("both seats are taken; you can watch"),
            Refusal::InvitationNeeded => {
                f.write_str("joining this game needs its invitation: open the link you were sent")
            }
            Refusal::InvitationWrong => {
                f.write_str("this invitation is not the game's: open the link you were sent")
            }
            Refusal::NotYourTurn { colour } => {
                write!(f, "it is not your turn: {colour} is to move")
            }
            Refusal::NotStarted => {
                f.write_str("the game has not started: waiting for an opponent to join")
            }
            Refusal::MalformedMove { problem, .. } => f.write_str(problem),
            Refusal::IllegalMove { played, reason, .. } => {
                write!(f, "illegal move {played}: {reason}")
            }
            Refusal::Illegal => f.write_str("illegal move"),
            Refusal::ComputerDeclinesDraw => {
                f.write_str("the computer declines draw offers; play on or resign")
            }
            Refusal::DrawAlreadyOffered => f.write_str("you have already offered a draw"),
            Refusal::NoDrawOffer => f.write_str("there is no draw offer to decline"),
            Refusal::TakebackAlreadyAsked => f.write_str("you have already asked for a takeback"),
            Refusal::NoMoveToTakeBack => f.write_str("you have no move to take back"),
            Refusal::NoTakebackRequest => f.write_str("there is no takeback request to decline"),
            Refusal::NothingToTakeBack => f.write_str("there is no move to take back"),
            Refusal::RematchAlreadyOffered => {
                f.write_str("you have already offered a rematch; waiting for an answer")
            }
            Refusal::RematchWhileLive => f.write_str(
                "the game is still being played: a rematch can be asked for once it is over",
            ),
            Refusal::NoRematchOffer => f.write_str("there is no rematch offer to decline"),
            Refusal::StateAhead { seq, at } => {
                write!(f, "there is no state {seq} yet: the game is at {at}")
            }
            Refusal::StateChanged { seq, at } => write!(
                f,
                "the game has changed since state {seq}: it is at {at} now; look again"
            ),
            Refusal::Withheld { position } => {
                match position {
                    None => f.write_str("the position")?,
                    Some(i) => write!(f, "position {i} of the game (after {i} moves)")?,
                }
                f.write_str(
                    " occurs in a game being played: the engine does not analyse it until that \
                     game is over",
                )
            }
            Refusal::WithheldMeanwhile => f.write_str(
                "a position of the game was reached in a game being played meanwhile: ask \
                 again once that game is over",
            ),
            Refusal::AnalysisWhileLive => {
                f.write_str("the game is being played: it may be analysed once it is over")
            }
            Refusal::NothingRead { first } => write!(f, "no game could be read: {first}"),
            Refusal::EmptyArchive => {
                f.write_str("no game could be read: the archive holds no file")
            }
            Refusal::NoGame { id } => write!(f, "no game `{id}`"),
            Refusal::ChatEmpty => f.write_str("the message is empty"),
            Refusal::ChatTooLong { max } => {
                write!(f, "the message is too long: at most {max} characters")
            }
            Refusal::ChatControl => f.write_str("the message may not hold control characters"),
            Refusal::ChatMuted { minutes } => {
                write!(
                    f,
                    "your account is muted: you may chat again in {minutes} min"
                )
            }
            Refusal::ChatClosed => f.write_str("this account is closed"),
            Refusal::ChatSignIn => f.write_str("sign in to write in the watchers' chat"),
            Refusal::ChatOff => f.write_str("you turned chat off in your settings"),
            Refusal::ChatTooFast { seconds } => {
                write!(f, "too many messages: wait {seconds} s before the next")
            }
            Refusal::BadRequest => f.write_str("bad request"),
            Refusal::Forbidden => f.write_str("forbidden"),
            Refusal::NotFound => f.write_str("not found"),
            Refusal::Conflict => f.write_str("not possible now"),
            Refusal::Busy => f.write_str("busy; try again shortly"),
            Refusal::Storage => f.write_str("the database is not answering"),
            Refusal::Internal => f.write_str("internal error"),
            Refusal::TooMany => f.write_str("too many requests; try again later"),
            Refusal::TooLarge => f.write_str("the request is too large"),
            Refusal::WrongType => f.write_str("the request's body is not of a type taken here"),
            Refusal::TooSlow => f.write_str("the request did not arrive in time"),
            Refusal::WrongMethod => f.write_str("the method is not taken here"),
        }
    }
}

/// The longest run of characters without a space that a reason keeps whole: longer than any
/// word, cell, move or id a reason names, shorter than anything a client could flood it with.
pub(crate) const LONGEST_RUN: usize = 64;

/// How much of a longer run is kept, before an ellipsis.
const RUN_KEPT: usize = 40;

/// The longest reason, in characters, before an ellipsis.
pub(crate) const LONGEST_REASON: usize = 400;

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
