//! Passwords: at least 8 characters (counted as characters, not bytes), at most 128 (which
//! bounds the hashing's work), and none of the 10 000 most common passwords, compared
//! ignoring case. The list (`common-passwords.txt`, its origin and license in
//! `common-passwords.NOTICE`) is built into the binary.

use std::collections::HashSet;
use std::fmt;
use std::sync::LazyLock;

/// The fewest characters of a new password.
pub const MIN_CHARS: usize = 8;

/// The most characters of any password, new or typed to sign in.
pub const MAX_CHARS: usize = 128;

/// The common passwords, lowercase, one a line.
static COMMON: LazyLock<HashSet<&'static str>> =
    LazyLock::new(|| include_str!("common-passwords.txt").lines().collect());

/// A password, kept out of every log: it shows as `Password(***)`.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

/// Why a password is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PasswordError {
    /// Fewer than [`MIN_CHARS`] characters.
    #[error("the password is too short: at least 8 characters")]
    TooShort,
    /// More than [`MAX_CHARS`] characters.
    #[error("the password is too long: at most 128 characters")]
    TooLong,
    /// Among the most common passwords.
    #[error("the password is among the 10 000 most common ones: choose another")]
    Common,
}

impl Password {
    /// `text` as a new password, if it is long enough and not common.
    pub fn new(text: &str) -> Result<Password, PasswordError> {
        let count = text.chars().count();
        if count < MIN_CHARS {
            return Err(PasswordError::TooShort);
        }
        if count > MAX_CHARS {
            return Err(PasswordError::TooLong);
        }
        if COMMON.contains(text.to_lowercase().as_str()) {
            return Err(PasswordError::Common);
        }
        Ok(Password(text.to_owned()))
    }

    /// `text` as typed to sign in: only its length is bounded (a password chosen under
    /// other rules still signs in).
    pub fn typed(text: &str) -> Result<Password, PasswordError> {
        if text.chars().count() > MAX_CHARS {
            return Err(PasswordError::TooLong);
        }
        Ok(Password(text.to_owned()))
    }

    /// The password's bytes, to hash.
    pub fn as_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(***)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_list_holds_ten_thousand_lowercase_passwords() {
        assert_eq!(COMMON.len(), 10_000);
        assert!(COMMON.iter().all(|p| *p == p.to_lowercase()));
        assert!(COMMON.contains("password") && COMMON.contains("12345678"));
    }

    #[test]
    fn common_passwords_are_refused_in_any_case() {
        for p in ["password", "PassWord", "12345678", "QWERTYUIOP", "iloveyou"] {
            assert_eq!(Password::new(p), Err(PasswordError::Common), "{p}");
        }
        assert!(Password::new("correct horse battery").is_ok());
    }

    #[test]
    fn length_counts_characters_not_bytes() {
        // Seven characters of two bytes each: too short all the same.
        assert_eq!(Password::new("ééééééé"), Err(PasswordError::TooShort));
        assert!(Password::new("éééééééé").is_ok());
        assert!(Password::new(&"ü".repeat(MAX_CHARS)).is_ok());
        assert_eq!(
            Password::new(&"ü".repeat(MAX_CHARS + 1)),
            Err(PasswordError::TooLong)
        );
        assert_eq!(
            Password::typed(&"x".repeat(129)),
            Err(PasswordError::TooLong)
        );
        assert!(Password::typed("short").is_ok());
    }

    #[test]
    fn a_password_is_never_shown() {
        let p = Password::new("a secret of mine").unwrap();
        assert_eq!(format!("{p:?}"), "Password(***)");
    }

    proptest! {
        #[test]
        fn any_text_is_judged(s in "\\PC{0,140}") {
            if Password::new(&s).is_ok() {
                let n = s.chars().count();
                prop_assert!((MIN_CHARS..=MAX_CHARS).contains(&n));
            }
        }
    }
}
