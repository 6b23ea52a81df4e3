//! Usernames: 3 to 20 ASCII letters, digits, `_` and `-`, beginning and ending with a letter
//! or digit; unique ignoring case (the lowercase form is the key the database holds
//! unique); and none of the reserved names.
//!
//! Only ASCII: letters from other scripts look like Latin ones (`аdmin` with a Cyrillic
//! `а`), and a name that passes for another's is worse than a name one cannot spell.

use std::fmt;

/// The fewest characters of a username.
pub const MIN_LEN: usize = 3;

/// The most characters of a username.
pub const MAX_LEN: usize = 20;

/// Names nobody may take (compared ignoring case), besides every name that begins with
/// `punct` (the site's and its computer players') and the computer levels' names.
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "anonymous",
    "api",
    "bot",
    "computer",
    "deleted",
    "engine",
    "guest",
    "help",
    "mod",
    "moderator",
    "nobody",
    "null",
    "official",
    "operator",
    "root",
    "server",
    "staff",
    "support",
    "system",
    "undefined",
    "unknown",
    "you",
];

/// A valid username, as its owner typed it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Username(String);

/// Why a username is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UsernameError {
    /// Fewer than [`MIN_LEN`] characters.
    #[error("the username is too short: at least 3 characters")]
    TooShort,
    /// More than [`MAX_LEN`] characters.
    #[error("the username is too long: at most 20 characters")]
    TooLong,
    /// A character other than letters, digits, `_` and `-`.
    #[error("the username may hold only letters a-z, digits, _ and - (not {0:?})")]
    Character(char),
    /// Begins or ends with `_` or `-`.
    #[error("the username must begin and end with a letter or a digit")]
    Edge,
    /// A reserved name.
    #[error("the username {0:?} is reserved")]
    Reserved(String),
}

impl Username {
    /// `name` if it is a valid username that is not reserved.
    pub fn new(name: &str) -> Result<Username, UsernameError> {
        let count = name.chars().count();
        if let Some(c) = name
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
        {
            return Err(UsernameError::Character(c));
        }
        if count < MIN_LEN {
            return Err(UsernameError::TooShort);
        }
        if count > MAX_LEN {
            return Err(UsernameError::TooLong);
        }
        let edge = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
        if !edge(name.chars().next()) || !edge(name.chars().last()) {
            return Err(UsernameError::Edge);
        }
        let name = Username(name.to_owned());
        if is_reserved(&name.key()) {
            return Err(UsernameError::Reserved(name.0));
        }
        Ok(name)
    }

    /// A name read back from the database, which was valid when it was stored (the
    /// reserved list may have grown since).
    pub fn stored(name: String) -> Username {
        Username(name)
    }

    /// The name as typed.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The form two names that differ only in case share: the unique key.
    pub fn key(&self) -> String {
        key(&self.0)
    }
}

/// The unique key of `name` (any text: a name typed to sign in is looked up by it).
pub fn key(name: &str) -> String {
    name.to_ascii_lowercase()
}

impl fmt::Display for Username {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Whether the lowercase name `key` is reserved.
fn is_reserved(key: &str) -> bool {
    if key.starts_with("punct") || RESERVED.contains(&key) {
        return true;
    }
    // The computer levels' names ("first steps", "full strength", ...) however spaced.
    punct_engine::Level::all().any(|level| {
        let name = level.name();
        [
            name.replace(' ', "-"),
            name.replace(' ', "_"),
            name.replace(' ', ""),
        ]
        .iter()
        .any(|form| form == key)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn good_names_pass_as_typed() {
        for name in ["abc", "Kris_Burm", "x-1-y", "a1234567890123456789", "007"] {
            assert_eq!(Username::new(name).unwrap().as_str(), name);
        }
        assert_eq!(Username::new("Kris_Burm").unwrap().key(), "kris_burm");
    }

    #[test]
    fn bad_names_are_refused_by_name() {
        use UsernameError::*;
        assert_eq!(Username::new("ab"), Err(TooShort));
        assert_eq!(Username::new(""), Err(TooShort));
        assert_eq!(Username::new("a".repeat(21).as_str()), Err(TooLong));
        assert_eq!(Username::new("a b c"), Err(Character(' ')));
        assert_eq!(Username::new("émile"), Err(Character('é')));
        assert_eq!(Username::new("аdmin"), Err(Character('а')));
        assert_eq!(Username::new("<script>"), Err(Character('<')));
        assert_eq!(Username::new("x'; DROP"), Err(Character('\'')));
        assert_eq!(Username::new("_abc"), Err(Edge));
        assert_eq!(Username::new("abc-"), Err(Edge));
        assert!(
            Username::new("a b")
                .unwrap_err()
                .to_string()
                .contains("' '")
        );
    }

    #[test]
    fn reserved_names_are_refused_in_any_case() {
        for name in [
            "admin",
            "ADMIN",
            "Punct",
            "punct_level_3",
            "punctbot",
            "Anonymous",
            "moderator",
            "system",
            "deleted",
            "full-strength",
            "first_steps",
            "Expert",
        ] {
            assert!(
                matches!(Username::new(name), Err(UsernameError::Reserved(_))),
                "{name}"
            );
        }
        assert!(Username::new("admiral").is_ok());
    }

    proptest! {
        /// Any text gets a name or an error, never a panic; a name that passes holds only
        /// the allowed characters and lengths, and its key is its lowercase form.
        #[test]
        fn any_text_is_judged(s in "\\PC{0,30}") {
            if let Ok(name) = Username::new(&s) {
                prop_assert!((MIN_LEN..=MAX_LEN).contains(&name.as_str().len()));
                prop_assert_eq!(name.key(), s.to_lowercase());
            }
        }

        #[test]
        fn names_differing_in_case_share_a_key(s in "[a-z][a-z0-9_-]{1,18}[0-9]") {
            prop_assert_eq!(key(&s), key(&s.to_uppercase()));
        }
    }
}
