//! What a new game is made of: the creator's request, checked, turned into seats, a clock
//! and a starting game; and the random ids and tokens.

use punct_core::{Colour, Game, Position, Record, Variant};
use punct_engine::Level;
use serde::Deserialize;

use crate::error::Error;
use crate::players::accounts::AccountId;
use crate::players::speed::TimeControl;
use crate::room::clock::Clock;
use crate::room::{Mode, Seat, parse_colour};

/// The request to create a game.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// `computer`, `local` or `friend`.
    pub mode: Mode,
    /// `standard` (default) or `basic`; ignored when `start` is given.
    pub variant: Option<String>,
    /// The creator's colour: `white` (default), `black` or `random`.
    pub colour: Option<String>,
    /// Engine level 1–9 against the computer (default [`DEFAULT_LEVEL`]).
    pub level: Option<u8>,
    /// Optional clock.
    pub clock: Option<ClockSpec>,
    /// Optional starting point: position text or a game record.
    pub start: Option<String>,
    /// The creator's name (a signed-in creator plays under their account's name).
    pub name: Option<String>,
    /// Days per move for a correspondence game (1, 2, 3, 5, 7 or 14), instead of a clock.
    #[serde(default)]
    pub days: Option<u32>,
    /// Whether the game is to be rated: a friend game with a clock or days per move, made by
    /// a signed-in player (it stays rated if another signed-in player takes the other seat).
    #[serde(default)]
    pub rated: bool,
}

/// The signed-in player who makes a game: their account and name.
#[derive(Clone, Debug)]
pub struct Creator {
    /// Their account.
    pub account: AccountId,
    /// Their name, as their seat shows it.
    pub name: String,
}

/// The computer's level when the request names none: the middle of the ladder.
const DEFAULT_LEVEL: u8 = 5;

/// The shortest clock, one second: a smaller one rounds towards 0 ms and is lost on time
/// before the first move can arrive.
const MIN_CLOCK_MINUTES: f64 = 1.0 / 60.0;

/// A clock as people set it.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    /// Minutes per side.
    pub minutes: f64,
    /// Seconds added after each move.
    pub increment: f64,
}

/// `N` random bytes from the operating system.
pub(crate) fn random_bytes<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    if getrandom::fill(&mut b).is_err() {
        // No OS randomness: fall back to the system clock, unguessable enough only for ids.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        b.iter_mut()
            .zip(nanos.to_le_bytes().iter().cycle())
            .for_each(|(x, y)| *x ^= y);
    }
    b
}

/// A random hex string of `N` bytes.
pub(crate) fn random_hex<const N: usize>() -> String {
    random_bytes::<N>()
        .iter()
        .map(|x| format!("{x:02x}"))
        .collect()
}

/// A person's name as shown and written into records: at most 40 characters, with line
/// breaks, tabs and other control characters turned into single spaces (a line break would
/// end a record's tag line early and leave the record unreadable); `None` if nothing is left.
pub(crate) fn clean_name(name: &str) -> Option<String> {
    let words: Vec<&str> = name
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
        .collect();
    let name: String = words.join(" ").chars().take(40).collect();
    let name = name.trim_end();
    (!name.is_empty()).then(|| name.to_owned())
}

/// Reads the starting point of a new game: a record (its moves are replayed) or position text.
pub fn parse_start(text: &str) -> Result<Game, Error> {
    let text = text.trim();
    if text.starts_with('[') || text.contains("1.") {
        Record::parse(text)
            .map(|r| r.game)
            .map_err(|e| Error::bad_request(e.to_string()))
    } else {
        Position::from_text(text)
            .map(Game::from_position)
            .map_err(|e| Error::bad_request(format!("bad position text: {e}")))
    }
}

/// Checks `req` and builds the new game: the creator's token, the starting game, both seats
/// (White's first) and the clock. `creator` is the signed-in player making it, if any.
pub fn build(
    req: &NewGame,
    creator: Option<&Creator>,
) -> Result<(String, Game, [Seat; 2], Option<Clock>), Error> {
    let game = match &req.start {
        Some(text) if !text.trim().is_empty() => parse_start(text)?,
        _ => {
            let variant = req.variant.as_deref().unwrap_or("standard");
            let variant = Variant::from_name(variant).ok_or_else(|| {
                Error::bad_request(format!(
                    "unknown variant `{variant}`: expected standard or basic"
                ))
            })?;
            Game::new(variant)
        }
    };
    if let Some(outcome) = game.outcome() {
        return Err(Error::conflict(format!(
            "cannot play on from a finished game: {outcome}"
        )));
    }
    let colour = match req.colour.as_deref().unwrap_or("white") {
        "random" => {
            if random_bytes::<1>()[0] & 1 == 0 {
                Colour::White
            } else {
                Colour::Black
            }
        }
        other => parse_colour(other).ok_or_else(|| {
            Error::bad_request(format!(
                "unknown colour `{other}`: expected white, black or random"
            ))
        })?,
    };
    let number = req.level.unwrap_or(DEFAULT_LEVEL);
    let level = Level::new(number).ok_or_else(|| {
        Error::bad_request(format!(
            "level {number} does not exist: levels run from 1 to {}",
            Level::MAX
        ))
    })?;
    if req.rated {
        let why = if creator.is_none() {
            Some("only a signed-in player can make a rated game")
        } else if req.mode != Mode::Friend {
            Some("only a game between two people online can be rated")
        } else if req.clock.is_none() && req.days.is_none() {
            Some("a rated game needs a clock or days per move")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(Error::bad_request(why));
        }
    }
    let clock = match (req.clock, req.days) {
        (Some(_), Some(_)) => {
            return Err(Error::bad_request(
                "a game has a clock or days per move, not both",
            ));
        }
        (None, Some(days)) => match TimeControl::correspondence(days) {
            Ok(_) if req.mode == Mode::Friend => Some(Clock::per_move(days)),
            Ok(_) => {
                return Err(Error::bad_request(
                    "days per move are for games between two people online",
                ));
            }
            Err(e) => return Err(Error::bad_request(e.to_string())),
        },
        (None, None) => None,
        (Some(c), None) => {
            let ok = c.minutes.is_finite()
                && c.increment.is_finite()
                && (MIN_CLOCK_MINUTES..=600.0).contains(&c.minutes)
                && (0.0..=600.0).contains(&c.increment);
            if !ok {
                return Err(Error::bad_request(
                    "clock minutes must be in [1/60, 600] (at least one second) and increment seconds in [0, 600]",
                ));
            }
            Some(Clock::new(
                // Rounded: a time in whole seconds given in minutes (20 s as 1/3) is not
                // exact in binary.
                (c.minutes * 60_000.0).round() as i64,
                (c.increment * 1000.0).round() as i64,
            ))
        }
    };
    let token = random_hex::<16>();
    let name = match creator {
        Some(creator) => creator.name.clone(),
        None => req
            .name
            .as_deref()
            .and_then(clean_name)
            .unwrap_or_else(|| super::seat::ANONYMOUS.to_owned()),
    };
    let account = creator.map(|c| c.account.clone());
    let other = match req.mode {
        Mode::Computer => Seat::computer(super::seat::computer_name(level), level),
        Mode::Local => Seat::person(format!("{name} 2"), token.clone()),
        Mode::Friend => Seat::open("Friend"),
    };
    let mut seats = [Seat::player(name, token.clone(), account), other];
    if colour == Colour::Black {
        seats.swap(0, 1);
    }
    Ok((token, game, seats, clock))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: &str) -> NewGame {
        serde_json::from_str(json).unwrap()
    }

    fn build_anonymous(req: &NewGame) -> Result<(String, Game, [Seat; 2], Option<Clock>), Error> {
        build(req, None)
    }

    #[test]
    fn a_rated_or_correspondence_game_needs_what_it_is_made_of() {
        let ada = Creator {
            account: AccountId("a1".into()),
            name: "ada".into(),
        };
        let (_, _, seats, clock) = build(
            &request(r#"{"mode":"friend","days":3,"rated":true}"#),
            Some(&ada),
        )
        .unwrap();
        assert_eq!(seats[0].account(), Some(&ada.account));
        assert_eq!(seats[0].name(), "ada");
        assert_eq!(clock.and_then(|c| c.days_per_move()), Some(3));
        let cases = [
            (
                r#"{"mode":"friend","days":3,"rated":true}"#,
                None,
                "signed-in",
            ),
            (
                r#"{"mode":"computer","rated":true,"days":3}"#,
                Some(&ada),
                "two people",
            ),
            (
                r#"{"mode":"friend","rated":true}"#,
                Some(&ada),
                "needs a clock",
            ),
            (
                r#"{"mode":"friend","days":4}"#,
                Some(&ada),
                "1, 2, 3, 5, 7, 14",
            ),
            (r#"{"mode":"local","days":1}"#, None, "two people online"),
            (
                r#"{"mode":"friend","days":1,"clock":{"minutes":5,"increment":0}}"#,
                None,
                "not both",
            ),
        ];
        for (json, creator, needle) in cases {
            let err = build(&request(json), creator).unwrap_err();
            assert!(err.reason.contains(needle), "{json}: {}", err.reason);
        }
    }

    #[test]
    fn seats_follow_the_mode_and_colour() {
        let (token, game, seats, clock) = build_anonymous(&request(
            r#"{"mode":"computer","colour":"black","level":2}"#,
        ))
        .unwrap();
        assert_eq!(seats[0].level(), Level::new(2));
        assert_eq!(seats[1].token(), Some(token.as_str()));
        assert!(game.moves().is_empty() && clock.is_none());
        let (token, _, seats, _) = build_anonymous(&request(r#"{"mode":"local"}"#)).unwrap();
        assert!(seats.iter().all(|s| s.token() == Some(token.as_str())));
        let (_, _, seats, clock) = build_anonymous(&request(
            r#"{"mode":"friend","clock":{"minutes":10,"increment":5}}"#,
        ))
        .unwrap();
        assert!(seats[1].is_open());
        assert_eq!(
            clock.map(|c| (c.initial_ms, c.increment_ms)),
            Some((600_000, 5_000))
        );
    }

    #[test]
    fn bad_requests_name_the_problem() {
        let cases = [
            (r#"{"mode":"computer","level":0}"#, "level 0"),
            (
                r#"{"mode":"computer","level":10}"#,
                "levels run from 1 to 9",
            ),
            (r#"{"mode":"local","colour":"green"}"#, "unknown colour"),
            (r#"{"mode":"local","variant":"giant"}"#, "unknown variant"),
            (
                r#"{"mode":"local","clock":{"minutes":-1,"increment":0}}"#,
                "clock",
            ),
            (
                r#"{"mode":"local","clock":{"minutes":0.0001,"increment":0}}"#,
                "at least one second",
            ),
            (
                r#"{"mode":"local","start":"standard x 0 -"}"#,
                "bad position",
            ),
        ];
        for (json, needle) in cases {
            let err = build_anonymous(&request(json)).unwrap_err();
            assert_eq!(err.kind, crate::error::ErrorKind::BadRequest, "{json}");
            assert!(err.reason.contains(needle), "{json}: {}", err.reason);
        }
    }
}
