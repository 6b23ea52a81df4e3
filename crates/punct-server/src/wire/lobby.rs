//! The lobby's messages (API.md, "Lobby"): what a client asks for in a seek or a challenge,
//! the seeks, challenges, pools, notifications and "your turn" lists as answered, what the
//! lobby's WebSocket sends ([`LobbyMessage`]). What servers tell each other about the lobby
//! is [`crate::players::lobby_notice`].

use serde::{Deserialize, Serialize};

use crate::players::notifications::Notification;
use crate::players::seeks::{ColourChoice, Listed, Terms};
use crate::players::speed::TimeControl;
use crate::wire::profile::GameEntry;

/// The widest rating range a seek may name.
pub const RATINGS: std::ops::RangeInclusive<i64> = 0..=4000;

/// A clock as the lobby gives it: seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockTerms {
    /// Each side's initial time, seconds.
    pub initial: i64,
    /// Seconds added after each move.
    pub increment: i64,
}

/// `POST /api/seeks`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    /// A clock, or else `days`.
    pub clock: Option<ClockTerms>,
    /// Days per move (1, 2, 3, 5, 7, 14), or else `clock`.
    pub days: Option<u32>,
    /// Rated (default casual).
    #[serde(default)]
    pub rated: bool,
    /// `white`, `black` or `random` (default).
    pub colour: Option<String>,
    /// The opponents' ratings taken, `[min, max]`.
    pub rating_range: Option<[i64; 2]>,
}

/// `POST /api/challenges`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    /// The name of who is challenged.
    pub to: Option<String>,
    /// A clock, or else `days`.
    pub clock: Option<ClockTerms>,
    /// Days per move, or else `clock`.
    pub days: Option<u32>,
    /// Rated (default casual).
    #[serde(default)]
    pub rated: bool,
    /// `white`, `black` or `random` (default).
    pub colour: Option<String>,
}

/// The terms of a game from the fields of a request, or what is wrong with them.
pub fn terms(
    clock: Option<ClockTerms>,
    days: Option<u32>,
    rated: bool,
    colour: Option<&str>,
) -> Result<Terms, String> {
    let time = match (clock, days) {
        (Some(_), Some(_)) => return Err("give `clock` or `days`, not both".to_owned()),
        (None, None) => {
            return Err(
                "give `clock` {\"initial\": seconds, \"increment\": seconds} or `days` per move"
                    .to_owned(),
            );
        }
        (Some(c), None) => TimeControl::clock(
            c.initial.saturating_mul(1000),
            c.increment.saturating_mul(1000),
        )
        .map_err(|e| format!("bad `clock`: {e}"))?,
        (None, Some(d)) => {
            TimeControl::correspondence(d).map_err(|e| format!("bad `days`: {e}"))?
        }
    };
    let colour = match colour {
        None => ColourChoice::Random,
        Some(c) => ColourChoice::parse(c)
            .map_err(|_| format!("bad `colour` {c:?}: expected white, black or random"))?,
    };
    Ok(Terms {
        time,
        rated,
        colour,
    })
}

impl SeekRequest {
    /// The seek's terms and rating range, or what is wrong with them.
    pub fn checked(&self) -> Result<(Terms, Option<(i64, i64)>), String> {
        let terms = terms(self.clock, self.days, self.rated, self.colour.as_deref())?;
        let range = match self.rating_range {
            None => None,
            Some([lo, hi]) if lo <= hi && RATINGS.contains(&lo) && RATINGS.contains(&hi) => {
                Some((lo, hi))
            }
            Some([lo, hi]) => {
                return Err(format!(
                    "bad `rating_range` [{lo}, {hi}]: expected [min, max] with 0 ≤ min ≤ max ≤ 4000"
                ));
            }
        };
        Ok((terms, range))
    }
}

impl ChallengeRequest {
    /// The challenged's name and the terms, or what is wrong with them.
    pub fn checked(&self) -> Result<(String, Terms), String> {
        let to = match self.to.as_deref().map(str::trim) {
            Some(name) if !name.is_empty() => name.to_owned(),
            _ => return Err("give `to`, the name of the player to challenge".to_owned()),
        };
        let terms = terms(self.clock, self.days, self.rated, self.colour.as_deref())?;
        Ok((to, terms))
    }
}

/// The time of a seek or challenge as answered: a `clock` in seconds, or `days`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeView {
    /// The clock, seconds.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub clock: Option<ClockTerms>,
    /// Days per move.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub days: Option<u32>,
}

impl TimeView {
    /// The view of `time`.
    pub fn of(time: TimeControl) -> TimeView {
        match time {
            TimeControl::Clock {
                initial_ms,
                increment_ms,
            } => TimeView {
                clock: Some(ClockTerms {
                    initial: initial_ms / 1000,
                    increment: increment_ms / 1000,
                }),
                days: None,
            },
            TimeControl::Correspondence { days } => TimeView {
                clock: None,
                days: Some(days),
            },
        }
    }
}

/// A seek as listed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeekView {
    /// Its id.
    pub id: String,
    /// Its seeker's name.
    pub by: String,
    /// Its seeker's rating in its speed, rounded.
    pub rating: i64,
    /// Whether that rating is provisional.
    pub provisional: bool,
    /// Its time.
    #[serde(flatten)]
    pub time: TimeView,
    /// `blitz`, `rapid`, `classical` or `correspondence`.
    pub speed: String,
    /// Rated or casual.
    pub rated: bool,
    /// The seeker's colour: white, black or random.
    pub colour: String,
    /// The opponents' ratings it takes, if it limits them.
    pub rating_range: Option<[i64; 2]>,
    /// When it was made.
    pub created_ms: i64,
}

impl SeekView {
    /// The view of `listed` as of `now_ms`.
    pub fn of(listed: &Listed, now_ms: i64) -> SeekView {
        let seek = &listed.seek;
        let rating = listed.rating.at(now_ms);
        SeekView {
            id: seek.id.clone(),
            by: listed.name.clone(),
            rating: rating.rating.round() as i64,
            provisional: rating.provisional(),
            time: TimeView::of(seek.terms.time),
            speed: seek.terms.speed().name().to_owned(),
            rated: seek.terms.rated,
            colour: seek.terms.colour.name().to_owned(),
            rating_range: seek.rating_range.map(|(lo, hi)| [lo, hi]),
            created_ms: seek.created_ms,
        }
    }
}

/// `GET /api/seeks`.
#[derive(Debug, Serialize)]
pub struct SeekList {
    /// The live seeks, oldest first.
    pub seeks: Vec<SeekView>,
}

/// A game the lobby made, as its player is told: `POST /api/seeks/{id}/accept`, a
/// challenge's acceptance, a pairing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Started {
    /// The game's id (its page is `/g/{id}`).
    pub game: String,
    /// The caller's colour: white or black.
    pub seat: &'static str,
}

/// A challenge as listed.
#[derive(Clone, Debug, Serialize)]
pub struct ChallengeView {
    /// Its id.
    pub id: String,
    /// The challenger's name.
    pub from: String,
    /// Whether a program plays the challenger's account.
    pub from_bot: bool,
    /// The challenged's name.
    pub to: String,
    /// Whether a program plays the challenged's account.
    pub to_bot: bool,
    /// Its time.
    #[serde(flatten)]
    pub time: TimeView,
    /// Its speed.
    pub speed: String,
    /// Rated or casual.
    pub rated: bool,
    /// The challenger's colour: white, black or random.
    pub colour: String,
    /// open, accepted, declined or cancelled.
    pub status: String,
    /// The game made when it was accepted.
    pub game: Option<String>,
    /// When it was made.
    pub created_ms: i64,
    /// When it ends if nobody answers.
    pub expires_ms: i64,
}

/// `GET /api/challenges`.
#[derive(Debug, Serialize)]
pub struct ChallengeList {
    /// The open challenges to the caller, oldest first.
    pub incoming: Vec<ChallengeView>,
    /// The open challenges from the caller, oldest first.
    pub outgoing: Vec<ChallengeView>,
}

/// `POST /api/pool/{slot}`: waiting, or paired at once.
#[derive(Debug, Serialize)]
pub struct PoolAnswer {
    /// The pool.
    pub pool: &'static str,
    /// Whether the caller waits (no opponent yet: the lobby's socket says when one comes).
    pub waiting: bool,
    /// The game, if paired at once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The caller's colour in it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<&'static str>,
}

/// A notification as listed.
#[derive(Debug, Serialize)]
pub struct NotificationView {
    /// Its id.
    pub id: String,
    /// your_turn, challenge, draw_offer or game_end.
    pub kind: String,
    /// The game it is about.
    pub game: Option<String>,
    /// The other player's name.
    pub other: Option<String>,
    /// When it was made.
    pub created_ms: i64,
    /// Whether it was read.
    pub read: bool,
}

impl NotificationView {
    /// The view of `n`, the other player being named `other`.
    pub fn of(n: &Notification, other: Option<String>) -> NotificationView {
        NotificationView {
            id: n.id.clone(),
            kind: n.kind.clone(),
            game: n.game.clone(),
            other,
            created_ms: n.created_ms,
            read: n.read_ms.is_some(),
        }
    }
}

/// `GET /api/notifications`.
#[derive(Debug, Serialize)]
pub struct NotificationList {
    /// The newest notifications, newest first.
    pub notifications: Vec<NotificationView>,
    /// How many are unread.
    pub unread: i64,
}

/// `POST /api/notifications/read`.
#[derive(Debug, Serialize)]
pub struct Marked {
    /// How many notifications were marked read.
    pub read: u64,
}

/// `GET /api/account/your-turn`.
#[derive(Debug, Serialize)]
pub struct YourTurn {
    /// The live games where it is the caller's move, the nearest deadline first.
    pub games: Vec<YourTurnGame>,
}

/// A game of [`YourTurn`].
#[derive(Debug, Serialize)]
pub struct YourTurnGame {
    /// The game as a profile lists it.
    #[serde(flatten)]
    pub game: GameEntry,
    /// When the caller runs out of time (correspondence).
    pub deadline_ms: Option<i64>,
}

/// The most seeks in one message of the list: the socket's write buffer keeps the room its
/// largest message took for as long as the socket lives, so the whole list at once (about
/// 250 bytes a seek) would cost every watcher of a busy lobby hundreds of KiB.
pub const SEEKS_PER_PART: usize = 50;

impl LobbyMessage {
    /// The list of `seeks` in parts of at most [`SEEKS_PER_PART`]: a `seeks` (empty for no
    /// seek), then `seeks_more`s.
    pub fn seek_list(seeks: Vec<SeekView>) -> Vec<LobbyMessage> {
        let parts = seeks.len().div_ceil(SEEKS_PER_PART).max(1);
        let mut seeks = seeks.into_iter();
        (0..parts)
            .map(|i| {
                let part: Vec<SeekView> = seeks.by_ref().take(SEEKS_PER_PART).collect();
                let more = i + 1 < parts;
                if i == 0 {
                    LobbyMessage::Seeks { seeks: part, more }
                } else {
                    LobbyMessage::SeeksMore { seeks: part, more }
                }
            })
            .collect()
    }
}

/// What the lobby's WebSocket sends.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LobbyMessage {
    /// Every live seek (first, and again after notices may have been missed), or the first
    /// [`SEEKS_PER_PART`] of them when [`LobbyMessage::SeeksMore`] follows: the client
    /// replaces its list.
    Seeks {
        /// Oldest first.
        seeks: Vec<SeekView>,
        /// Whether a `seeks_more` follows.
        more: bool,
    },
    /// The next part of the list a `seeks` began: the client adds them.
    SeeksMore {
        /// Oldest first, after those of the part before.
        seeks: Vec<SeekView>,
        /// Whether another part follows.
        more: bool,
    },
    /// A new seek.
    SeekAdded {
        /// It.
        seek: SeekView,
    },
    /// Seeks gone (accepted, withdrawn, their seeker gone).
    SeekRemoved {
        /// Their ids.
        ids: Vec<String>,
    },
    /// A game of the socket's account began (its seek accepted, its challenge accepted,
    /// paired from a pool).
    GameStarted {
        /// The game's id.
        game: String,
        /// The account's colour.
        seat: &'static str,
    },
    /// The account's notifications or challenges changed: the counts now.
    Notifications {
        /// Unread notifications.
        unread: i64,
        /// Games where it is the account's move.
        your_turn: i64,
        /// Open challenges to the account.
        challenges: i64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn seek(json: &str) -> Result<(Terms, Option<(i64, i64)>), String> {
        serde_json::from_str::<SeekRequest>(json)
            .map_err(|e| e.to_string())?
            .checked()
    }

    #[test]
    fn bad_seeks_name_the_problem() {
        let cases = [
            (r#"{}"#, "`clock`"),
            (
                r#"{"clock":{"initial":300,"increment":3},"days":3}"#,
                "not both",
            ),
            (r#"{"days":4}"#, "bad `days`"),
            (r#"{"clock":{"initial":0,"increment":3}}"#, "bad `clock`"),
            (
                r#"{"clock":{"initial":300,"increment":601}}"#,
                "bad `clock`",
            ),
            (r#"{"days":3,"colour":"green"}"#, "bad `colour`"),
            (
                r#"{"days":3,"rating_range":[1600,1400]}"#,
                "bad `rating_range`",
            ),
            (
                r#"{"days":3,"rating_range":[-1,1400]}"#,
                "bad `rating_range`",
            ),
            (r#"{"days":3,"speed":"fast"}"#, "unknown field"),
        ];
        for (json, needle) in cases {
            let err = seek(json).unwrap_err();
            assert!(err.contains(needle), "{json}: {err}");
        }
        let (terms, range) =
            seek(r#"{"clock":{"initial":300,"increment":3},"rated":true,"colour":"black","rating_range":[1200,1800]}"#)
                .unwrap();
        assert_eq!(
            terms.time,
            TimeControl::Clock {
                initial_ms: 300_000,
                increment_ms: 3_000
            }
        );
        assert!(terms.rated && terms.colour == ColourChoice::Black);
        assert_eq!(range, Some((1200, 1800)));
    }

    fn a_seek(i: usize) -> SeekView {
        SeekView {
            id: format!("s{i}"),
            by: "ann".into(),
            rating: 1500,
            provisional: true,
            time: TimeView {
                clock: None,
                days: Some(3),
            },
            speed: "correspondence".into(),
            rated: false,
            colour: "random".into(),
            rating_range: None,
            created_ms: i as i64,
        }
    }

    #[test]
    fn the_list_goes_in_parts_each_seek_once_in_order() {
        for count in [
            0,
            1,
            SEEKS_PER_PART,
            SEEKS_PER_PART + 1,
            3 * SEEKS_PER_PART + 7,
        ] {
            let parts = LobbyMessage::seek_list((0..count).map(a_seek).collect());
            let mut ids = Vec::new();
            for (i, part) in parts.iter().enumerate() {
                let (seeks, more) = match (i, part) {
                    (0, LobbyMessage::Seeks { seeks, more }) => (seeks, *more),
                    (1.., LobbyMessage::SeeksMore { seeks, more }) => (seeks, *more),
                    _ => panic!("part {i} of {count}: {part:?}"),
                };
                assert!(seeks.len() <= SEEKS_PER_PART, "part {i} of {count}");
                assert_eq!(more, i + 1 < parts.len(), "part {i} of {count}");
                ids.extend(seeks.iter().map(|s| s.id.clone()));
            }
            let want: Vec<String> = (0..count).map(|i| format!("s{i}")).collect();
            assert_eq!(ids, want);
        }
        let text = serde_json::to_string(&LobbyMessage::seek_list(Vec::new())[0]).unwrap();
        assert_eq!(text, r#"{"type":"seeks","seeks":[],"more":false}"#);
    }

    proptest! {
        /// Any seek request is either taken, with terms in range, or refused with a reason:
        /// never a panic, never a clock out of range.
        #[test]
        fn any_seek_is_taken_or_refused(
            initial in proptest::option::of(any::<i64>()),
            increment in any::<i64>(),
            days in proptest::option::of(any::<u32>()),
            rated in any::<bool>(),
            colour in proptest::option::of("[a-z]{0,8}"),
            range in proptest::option::of(any::<[i64; 2]>()),
        ) {
            let req = SeekRequest {
                clock: initial.map(|initial| ClockTerms { initial, increment }),
                days,
                rated,
                colour,
                rating_range: range,
            };
            match req.checked() {
                Ok((terms, range)) => {
                    if let TimeControl::Clock { initial_ms, increment_ms } = terms.time {
                        prop_assert!((1_000..=36_000_000).contains(&initial_ms));
                        prop_assert!((0..=600_000).contains(&increment_ms));
                    }
                    if let Some((lo, hi)) = range {
                        prop_assert!(lo <= hi && RATINGS.contains(&lo) && RATINGS.contains(&hi));
                    }
                }
                Err(reason) => prop_assert!(!reason.is_empty()),
            }
        }
    }
}
