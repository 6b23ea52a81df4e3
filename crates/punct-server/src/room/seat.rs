//! Who plays a game and the seats they hold: a seat is held by a person, played by the
//! computer, or open, never two of these at once.

use punct_engine::Level;
use serde::{Deserialize, Serialize, Serializer};

use crate::players::accounts::AccountId;

/// Who plays the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A person against the engine.
    Computer,
    /// Two people on one screen: one token holds both seats.
    Local,
    /// Two people online: the second seat goes to whoever opens the link first.
    Friend,
}

/// One side of the board.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "SeatFields")]
pub enum Seat {
    /// Nobody holds it yet: the first to join a friend game takes it.
    Open {
        /// The name shown until it is taken.
        name: String,
    },
    /// A person holds it.
    Person(Person),
    /// The engine plays it.
    Computer {
        /// The name shown and written in records.
        name: String,
        /// How strongly it plays.
        level: Level,
    },
}

/// The person who holds a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Person {
    /// The name shown and written in records.
    pub name: String,
    /// The secret that proves it is them.
    pub token: String,
    /// Their account, if they were signed in: its session or API token stands for the seat
    /// token.
    pub account: Option<AccountId>,
}

impl Seat {
    /// A seat held by the person with `token`.
    pub fn person(name: impl Into<String>, token: impl Into<String>) -> Seat {
        Seat::Person(Person {
            name: name.into(),
            token: token.into(),
            account: None,
        })
    }

    /// A seat held by the person with `token`, signed in to `account` (if any).
    pub fn player(
        name: impl Into<String>,
        token: impl Into<String>,
        account: Option<AccountId>,
    ) -> Seat {
        Seat::Person(Person {
            name: name.into(),
            token: token.into(),
            account,
        })
    }

    /// A seat nobody holds yet.
    pub fn open(name: impl Into<String>) -> Seat {
        Seat::Open { name: name.into() }
    }

    /// A seat the engine plays at `level`.
    pub fn computer(name: impl Into<String>, level: Level) -> Seat {
        Seat::Computer {
            name: name.into(),
            level,
        }
    }

    /// The name shown and written in records.
    pub fn name(&self) -> &str {
        match self {
            Seat::Open { name } | Seat::Computer { name, .. } => name,
            Seat::Person(person) => &person.name,
        }
    }

    /// Whether nobody holds the seat yet.
    pub fn is_open(&self) -> bool {
        matches!(self, Seat::Open { .. })
    }

    /// The computer's level, if the computer plays the seat.
    pub fn level(&self) -> Option<Level> {
        match self {
            Seat::Computer { level, .. } => Some(*level),
            _ => None,
        }
    }

    /// The person's seat token, if a person holds the seat.
    pub fn token(&self) -> Option<&str> {
        match self {
            Seat::Person(person) => Some(&person.token),
            _ => None,
        }
    }

    /// The account of the person who holds the seat, if they were signed in.
    pub fn account(&self) -> Option<&AccountId> {
        match self {
            Seat::Person(person) => person.account.as_ref(),
            _ => None,
        }
    }

    /// Whether the holder of `token` or the signed-in `account` holds this seat.
    pub fn is_held_by(&self, token: Option<&str>, account: Option<&AccountId>) -> bool {
        (token.is_some() && self.token() == token)
            || (account.is_some() && self.account() == account)
    }
}

/// The name of a seat whose person gave none, as records keep it; the second seat on one
/// screen is `Anonymous 2`.
pub const ANONYMOUS: &str = "Anonymous";

/// Who holds a seat, for interfaces that word it in their own language: a name a person
/// chose is theirs to show, but the words the server gives an unnamed seat (`Anonymous`, a
/// friend's open seat `Friend`, the computer's `punct level 3`), which records keep, are not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holder {
    /// A person signed in: the name is the account's.
    Account,
    /// A person not signed in, under the name they gave.
    Guest,
    /// A person who gave no name; `second` for the second seat on one screen.
    Anonymous {
        /// Whether it is the second seat on one screen (`Anonymous 2`).
        second: bool,
    },
    /// The computer, at its level.
    Computer(Level),
    /// Nobody yet.
    Open,
}

/// The computer's name at `level`, as its seat and records have it: `punct level 3`.
pub fn computer_name(level: Level) -> String {
    format!("punct level {}", level.number())
}

impl Holder {
    /// Who a record's player named `name` (a `White` or `Black` tag) was, as far as the name
    /// says: the names the server gives seats (the computer's, `Anonymous`) are its own.
    pub fn of_name(name: &str) -> Holder {
        let computer = name
            .strip_prefix("punct level ")
            .and_then(|n| n.parse().ok())
            .and_then(Level::new)
            .filter(|&level| computer_name(level) == name);
        match (computer, name.strip_prefix(ANONYMOUS)) {
            (Some(level), _) => Holder::Computer(level),
            (None, Some("")) => Holder::Anonymous { second: false },
            (None, Some(" 2")) => Holder::Anonymous { second: true },
            _ => Holder::Guest,
        }
    }
}

impl Seat {
    /// Who holds the seat.
    pub fn holder(&self) -> Holder {
        match self {
            Seat::Open { .. } => Holder::Open,
            Seat::Computer { level, .. } => Holder::Computer(*level),
            Seat::Person(Person {
                account: Some(_), ..
            }) => Holder::Account,
            Seat::Person(Person { name, .. }) => match name.strip_prefix(ANONYMOUS) {
                Some("") => Holder::Anonymous { second: false },
                Some(" 2") => Holder::Anonymous { second: true },
                _ => Holder::Guest,
            },
        }
    }
}

/// A seat as it is stored (the form every stored game has had): its name, the engine's level
/// if the computer plays it, the person's token if a person holds it, neither if it is open;
/// and the person's account when they were signed in (absent in the older form).
#[derive(Deserialize)]
struct SeatFields {
    name: String,
    computer: Option<u8>,
    token: Option<String>,
    #[serde(default)]
    account: Option<AccountId>,
}

/// [`SeatFields`] written from a seat without copying it.
#[derive(Serialize)]
struct SeatFieldsRef<'a> {
    name: &'a str,
    computer: Option<u8>,
    token: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    account: Option<&'a AccountId>,
}

impl TryFrom<SeatFields> for Seat {
    type Error = String;

    fn try_from(fields: SeatFields) -> Result<Seat, String> {
        let SeatFields {
            name,
            computer,
            token,
            account,
        } = fields;
        if account.is_some() && token.is_none() {
            return Err(format!(
                "the seat of {name} has an account but no person holds it"
            ));
        }
        match (computer, token) {
            (None, None) => Ok(Seat::Open { name }),
            (None, Some(token)) => Ok(Seat::Person(Person {
                name,
                token,
                account,
            })),
            (Some(n), None) => {
                let level = Level::new(n).ok_or_else(|| {
                    format!(
                        "the computer's level {n} does not exist: levels run from 1 to {}",
                        Level::MAX
                    )
                })?;
                Ok(Seat::Computer { name, level })
            }
            (Some(_), Some(_)) => Err(format!(
                "the seat of {name} is held by a person and played by the computer at once"
            )),
        }
    }
}

impl Serialize for Seat {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        SeatFieldsRef {
            name: self.name(),
            computer: self.level().map(Level::number),
            token: self.token(),
            account: self.account(),
        }
        .serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Result<Seat, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn a_seat_is_stored_as_it_always_was() {
        let stored = [
            r#"{"name":"Ada","computer":null,"token":"t0"}"#,
            r#"{"name":"Friend","computer":null,"token":null}"#,
            r#"{"name":"punct level 3","computer":3,"token":null}"#,
        ];
        let seats = [
            Seat::person("Ada", "t0"),
            Seat::open("Friend"),
            Seat::computer("punct level 3", Level::new(3).unwrap()),
        ];
        for (json, seat) in stored.iter().zip(&seats) {
            assert_eq!(&read(json).unwrap(), seat, "{json}");
            assert_eq!(serde_json::to_string(seat).unwrap(), *json);
        }
    }

    #[test]
    fn a_signed_in_person_s_seat_keeps_the_account() {
        let json = r#"{"name":"ada","computer":null,"token":"t0","account":"a1"}"#;
        let seat = Seat::player("ada", "t0", Some(AccountId("a1".into())));
        assert_eq!(read(json).unwrap(), seat);
        assert_eq!(serde_json::to_string(&seat).unwrap(), json);
        let a1 = AccountId("a1".into());
        assert!(seat.is_held_by(None, Some(&a1)) && seat.is_held_by(Some("t0"), None));
        assert!(!seat.is_held_by(Some("t1"), Some(&AccountId("a2".into()))));
        let refused = read(r#"{"name":"X","computer":null,"token":null,"account":"a1"}"#);
        assert!(refused.unwrap_err().contains("no person holds it"));
    }

    #[test]
    fn a_seat_that_is_two_things_or_a_level_that_does_not_exist_is_refused() {
        let both = read(r#"{"name":"X","computer":2,"token":"t"}"#).unwrap_err();
        assert!(both.contains("at once"), "{both}");
        for level in [0, 10, 255] {
            let json = format!(r#"{{"name":"X","computer":{level},"token":null}}"#);
            let refused = read(&json).unwrap_err();
            assert!(
                refused.contains(&format!("level {level} does not exist")),
                "{refused}"
            );
        }
    }

    #[test]
    fn who_holds_a_seat_is_told_apart_from_its_name() {
        let level = Level::new(3).unwrap();
        let held = [
            (
                Seat::player("ada", "t", Some(AccountId("a1".into()))),
                Holder::Account,
            ),
            (Seat::person("Ada", "t"), Holder::Guest),
            (Seat::person("Anonymous Ada", "t"), Holder::Guest),
            (
                Seat::person(ANONYMOUS, "t"),
                Holder::Anonymous { second: false },
            ),
            (
                Seat::person("Anonymous 2", "t"),
                Holder::Anonymous { second: true },
            ),
            (
                Seat::computer("punct level 3", level),
                Holder::Computer(level),
            ),
            (Seat::open("Friend"), Holder::Open),
        ];
        for (seat, holder) in held {
            assert_eq!(seat.holder(), holder, "{seat:?}");
        }
        for (name, holder) in [
            ("punct level 6", Holder::Computer(Level::new(6).unwrap())),
            ("punct level 06", Holder::Guest),
            ("punct level 10", Holder::Guest),
            (ANONYMOUS, Holder::Anonymous { second: false }),
            ("boardspace-smartbot", Holder::Guest),
        ] {
            assert_eq!(Holder::of_name(name), holder, "{name}");
        }
    }
}
