//! The high-entropy secrets a player is given: session ids (the cookie), personal API tokens
//! (`punct_…`, for `Authorization: Bearer`) and recovery codes. Each is drawn from the
//! operating system's random source, shown once, and stored only as its SHA-256 hash, by
//! which it is looked up: a copy of the database lets nobody sign in.
//!
//! Also the ids of the players' rows, which the application makes (no database counter):
//! the time in ms and random characters, so that they sort by creation.

use std::fmt;

use data_encoding::{BASE32_NOPAD, HEXLOWER};
use sha2::{Digest, Sha256};

/// What every API token begins with, so that one pasted where it should not be is
/// recognised (by people and by secret scanners).
pub const TOKEN_PREFIX: &str = "punct_";

/// How many recovery codes an account gets.
pub const RECOVERY_CODES: usize = 10;

/// Characters of a recovery code (base32, 5 bits each: 50 bits).
const RECOVERY_CODE_CHARS: usize = 10;

/// `N` bytes from the operating system's random source.
fn random<const N: usize>() -> Result<[u8; N], getrandom::Error> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes)?;
    Ok(bytes)
}

/// A secret as given to its owner, with its hash: shown once, never logged (it shows as
/// `Secret(***)`).
#[derive(Clone, PartialEq, Eq)]
pub struct Secret {
    text: String,
    hash: SecretHash,
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// The SHA-256 hash of a secret, in hex: what the database holds and looks up.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SecretHash(String);

impl SecretHash {
    fn of(text: &str) -> SecretHash {
        SecretHash(HEXLOWER.encode(&Sha256::digest(text.as_bytes())))
    }

    /// The hash of a session id as presented (any text: a wrong one is found nowhere).
    pub fn of_session(presented: &str) -> SecretHash {
        SecretHash::of(presented)
    }

    /// The hash of a bearer token as presented, if it has the token's form.
    pub fn of_token(presented: &str) -> Option<SecretHash> {
        presented
            .starts_with(TOKEN_PREFIX)
            .then(|| SecretHash::of(presented))
    }

    /// The hash of a recovery code as typed: case, spaces and dashes do not matter, nor
    /// digits typed for the letters they look like (0 for O, 1 for I, 8 for B). `None`
    /// unless it is a code's length in the code's alphabet.
    pub fn of_recovery_code(typed: &str) -> Option<SecretHash> {
        let code: String = typed
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-')
            .map(|c| match c.to_ascii_uppercase() {
                '0' => 'O',
                '1' => 'I',
                '8' => 'B',
                c => c,
            })
            .collect();
        let alphabet = |c: char| c.is_ascii_uppercase() || ('2'..='7').contains(&c);
        (code.chars().count() == RECOVERY_CODE_CHARS && code.chars().all(alphabet))
            .then(|| SecretHash::of(&code))
    }

    /// A hash read back from the database.
    pub fn stored(hex: String) -> SecretHash {
        SecretHash(hex)
    }

    /// The hash as stored, in hex.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Secret {
    /// A new session id: 256 random bits in hex.
    pub fn session() -> Result<Secret, getrandom::Error> {
        let text = HEXLOWER.encode(&random::<32>()?);
        let hash = SecretHash::of_session(&text);
        Ok(Secret { text, hash })
    }

    /// A new API token: [`TOKEN_PREFIX`] and 256 random bits in base32.
    pub fn api_token() -> Result<Secret, getrandom::Error> {
        let body = BASE32_NOPAD.encode(&random::<32>()?).to_ascii_lowercase();
        let text = format!("{TOKEN_PREFIX}{body}");
        let hash = SecretHash::of(&text);
        Ok(Secret { text, hash })
    }

    /// A new recovery code: 10 base32 characters (50 bits), shown in two groups of five
    /// (`ABCDE-FGHIJ`) for reading.
    pub fn recovery_code() -> Result<Secret, getrandom::Error> {
        let code = BASE32_NOPAD.encode(&random::<8>()?);
        let code = &code[..RECOVERY_CODE_CHARS];
        Ok(Secret {
            text: format!("{}-{}", &code[..5], &code[5..]),
            hash: SecretHash::of(code),
        })
    }

    /// [`RECOVERY_CODES`] new recovery codes.
    pub fn recovery_codes() -> Result<Vec<Secret>, getrandom::Error> {
        (0..RECOVERY_CODES)
            .map(|_| Secret::recovery_code())
            .collect()
    }

    /// The secret itself, to give to its owner.
    pub fn expose(&self) -> &str {
        &self.text
    }

    /// Its hash, as stored.
    pub fn hash(&self) -> &SecretHash {
        &self.hash
    }
}

/// A new row id made at `now_ms`: the time in 11 hex digits, then 10 random base32
/// characters (50 bits), so that ids sort by creation and never clash.
pub fn new_id(now_ms: i64) -> Result<String, getrandom::Error> {
    let random = BASE32_NOPAD.encode(&random::<8>()?).to_ascii_lowercase();
    Ok(format!("{:011x}{}", now_ms.max(0), &random[..10]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn secrets_have_their_forms() {
        let session = Secret::session().unwrap();
        assert_eq!(session.expose().len(), 64);
        let token = Secret::api_token().unwrap();
        assert!(token.expose().starts_with("punct_"));
        assert_eq!(token.expose().len(), 6 + 52);
        let code = Secret::recovery_code().unwrap();
        assert_eq!(code.expose().len(), 11);
        assert_eq!(&code.expose()[5..6], "-");
        assert_eq!(Secret::recovery_codes().unwrap().len(), RECOVERY_CODES);
        assert_ne!(Secret::session().unwrap(), session);
        assert_eq!(format!("{token:?}"), "Secret(***)");
    }

    #[test]
    fn a_secret_is_found_by_the_hash_of_what_is_presented() {
        let session = Secret::session().unwrap();
        assert_eq!(session.hash(), &SecretHash::of_session(session.expose()));
        let token = Secret::api_token().unwrap();
        assert_eq!(
            Some(token.hash()),
            SecretHash::of_token(token.expose()).as_ref()
        );
        assert_eq!(SecretHash::of_token("Bearer-less"), None);
        assert_eq!(session.hash().as_str().len(), 64);
    }

    #[test]
    fn recovery_codes_forgive_how_they_are_typed() {
        let code = Secret::recovery_code().unwrap();
        let typed = code.expose().to_lowercase().replace('-', " ");
        assert_eq!(
            SecretHash::of_recovery_code(&typed).as_ref(),
            Some(code.hash())
        );
        assert_eq!(
            SecretHash::of_recovery_code("OIBAA-AAAAA"),
            SecretHash::of_recovery_code("01baa aaaaa")
        );
        assert_eq!(SecretHash::of_recovery_code("ABCDE-FGHI"), None);
        assert_eq!(SecretHash::of_recovery_code("ABCDE-FGHI9"), None);
    }

    #[test]
    fn ids_sort_by_time() {
        let a = new_id(1_000).unwrap();
        let b = new_id(2_000).unwrap();
        assert!(a < b);
        assert_eq!(a.len(), 21);
        assert_ne!(new_id(1_000).unwrap(), a);
    }

    proptest! {
        #[test]
        fn any_typed_code_is_judged(s in "\\PC{0,30}") {
            let _ = SecretHash::of_recovery_code(&s);
        }
    }
}
