//! The domain's one error type: what kind of refusal or failure it is, and a reason people
//! can read. It knows nothing of HTTP; the web layer maps each kind to a status once
//! ([`crate::http::error`]).

pub mod refusal;
pub mod why;

use refusal::Refusal;

/// What went wrong, as far as a caller must tell cases apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The request itself is malformed: bad text, an unknown option.
    BadRequest,
    /// The caller holds no seat that may do this.
    Forbidden,
    /// No such game.
    NotFound,
    /// Well formed, but the game is not in a state that allows it.
    Conflict,
    /// The move breaks a rule.
    Illegal,
    /// The server cannot take more work right now; the same request may succeed later.
    Busy,
    /// Storage failed or is out of reach: the change was not made (or, if the database
    /// committed it after all, it is found there, and a retry gets its outcome).
    Storage,
    /// Something that should not happen; the change was not made.
    Internal,
}

impl ErrorKind {
    /// Every kind, in declaration order (so that `kind as usize` indexes it).
    pub const ALL: [ErrorKind; 8] = [
        ErrorKind::BadRequest,
        ErrorKind::Forbidden,
        ErrorKind::NotFound,
        ErrorKind::Conflict,
        ErrorKind::Illegal,
        ErrorKind::Busy,
        ErrorKind::Storage,
        ErrorKind::Internal,
    ];

    /// The kind's name in logs and metrics.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::BadRequest => "bad_request",
            ErrorKind::Forbidden => "forbidden",
            ErrorKind::NotFound => "not_found",
            ErrorKind::Conflict => "conflict",
            ErrorKind::Illegal => "illegal",
            ErrorKind::Busy => "busy",
            ErrorKind::Storage => "storage",
            ErrorKind::Internal => "internal",
        }
    }
}

/// A refusal or failure. Every operation of the domain returns it before anything has
/// changed, so an error never leaves a game half-changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct Error {
    /// The kind.
    pub kind: ErrorKind,
    /// What was wrong, for people.
    pub reason: String,
    /// What kind of refusal it is, for interfaces that say it in their own words; `None`
    /// for an error the domain gives no code of its own.
    pub refusal: Option<Box<Refusal>>,
}

impl Error {
    /// The refusal `refusal`: its kind, its English sentence and its code.
    pub fn refused(refusal: Refusal) -> Error {
        Error {
            kind: refusal.kind(),
            reason: refusal.to_string(),
            refusal: Some(Box::new(refusal)),
        }
    }
}

macro_rules! constructors {
    ($($(#[$doc:meta])* $name:ident => $kind:ident,)*) => {
        impl Error {
            $(
                $(#[$doc])*
                pub fn $name(reason: impl Into<String>) -> Error {
                    Error { kind: ErrorKind::$kind, reason: reason.into(), refusal: None }
                }
            )*
        }
    };
}

constructors! {
    /// The request is malformed.
    bad_request => BadRequest,
    /// The caller may not do this.
    forbidden => Forbidden,
    /// No such game.
    not_found => NotFound,
    /// Not possible in the game's present state.
    conflict => Conflict,
    /// The move breaks a rule.
    illegal => Illegal,
    /// No capacity now; try again.
    busy => Busy,
    /// Storage failed.
    storage => Storage,
    /// A failure that should not happen.
    internal => Internal,
}
