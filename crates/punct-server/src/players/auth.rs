//! The account flows the pages and the API call: sign up, sign in, the session or token a
//! request carries, sign out, change the password, recover with a code, delete the account.
//! Each combines the rules, the hashing (off the async threads) and the tables' statements
//! (in the store's writer and reader threads); none speaks HTTP.

use std::net::IpAddr;

use super::accounts::{self, Account, AccountId, Taken};
use super::hashing::{HashError, Hasher};
use super::password::{Password, PasswordError};
use super::secrets::{Secret, new_id};
use super::sessions::{self, NewSession, Session};
use super::throttle::{self, Throttled};
use super::tokens;
use super::username::{self, Username, UsernameError};
use crate::store::{Store, WriteError};

/// Why an account flow was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    /// The username is not allowed.
    #[error(transparent)]
    Username(#[from] UsernameError),
    /// The password is not allowed.
    #[error(transparent)]
    Password(#[from] PasswordError),
    /// The username is taken.
    #[error(transparent)]
    Taken(#[from] Taken),
    /// The username and password do not match an account (which of the two is not said).
    #[error("wrong username or password")]
    Wrong,
    /// The recovery code is not an unspent one of the account.
    #[error("wrong username or recovery code")]
    WrongCode,
    /// Too many failed attempts: wait.
    #[error(transparent)]
    Throttled(#[from] Throttled),
    /// The operator closed the account.
    #[error("this account is closed")]
    Closed,
    /// Too many password checks are waiting.
    #[error("too many sign-ins at once: try again in a moment")]
    Busy,
    /// The database or the hashing failed.
    #[error("{0}")]
    Failed(String),
}

impl From<HashError> for AuthError {
    fn from(e: HashError) -> AuthError {
        match e {
            HashError::Busy => AuthError::Busy,
            HashError::Failed(why) => AuthError::Failed(why),
        }
    }
}

impl From<WriteError> for AuthError {
    fn from(e: WriteError) -> AuthError {
        AuthError::Failed(e.to_string())
    }
}

impl From<anyhow::Error> for AuthError {
    fn from(e: anyhow::Error) -> AuthError {
        AuthError::Failed(format!("{e:#}"))
    }
}

/// A new account, signed in.
#[derive(Debug)]
pub struct SignedUp {
    /// Its id.
    pub account: AccountId,
    /// Its first session.
    pub session: NewSession,
    /// Its recovery codes, to show once.
    pub recovery_codes: Vec<Secret>,
}

/// A session begun.
#[derive(Debug)]
pub struct SignedIn {
    /// Whose.
    pub account: AccountId,
    /// Its secrets, for the browser.
    pub session: NewSession,
}

/// The account flows, over one store and one hasher.
#[derive(Clone)]
pub struct Auth {
    store: Store,
    hasher: Hasher,
}

/// The records of attempts an attempt at `name` from `address` counts in.
fn attempt_keys(name: &str, address: Option<IpAddr>) -> (String, Option<String>) {
    (
        throttle::name_key(&username::key(name)),
        address.map(throttle::address_key),
    )
}

impl Auth {
    /// The flows on `store`, hashing with `hasher`.
    pub fn new(store: Store, hasher: Hasher) -> Auth {
        Auth { store, hasher }
    }

    /// Makes an account named `name` with `password`, signed in, with its recovery codes.
    pub async fn sign_up(
        &self,
        name: &str,
        password: &str,
        now_ms: i64,
    ) -> Result<SignedUp, AuthError> {
        self.sign_up_as(name, password, false, now_ms).await
    }

    /// Makes an account as [`Self::sign_up`] does, a bot account if `bot`.
    pub async fn sign_up_as(
        &self,
        name: &str,
        password: &str,
        bot: bool,
        now_ms: i64,
    ) -> Result<SignedUp, AuthError> {
        let name = Username::new(name)?;
        let password = Password::new(password)?;
        // A name seen taken costs no hash (the unique key still decides a race).
        let taken = {
            let key = name.key();
            self.store
                .query(move |db| accounts::by_name(db, &key))
                .await?
        };
        if taken.is_some() {
            return Err(Taken(name.as_str().to_owned()).into());
        }
        let hash = self.hasher.hash(password).await?;
        let id = AccountId(new_id(now_ms).map_err(|e| AuthError::Failed(e.to_string()))?);
        let made = self
            .store
            .transact(move |db| {
                if let Err(taken) = accounts::create(db, &id, &name, &hash, now_ms)? {
                    return Ok(Err(taken));
                }
                if bot {
                    // A new account has no game: this cannot be refused.
                    accounts::make_bot(db, &id)?.map_err(anyhow::Error::new)?;
                }
                let recovery_codes = super::recovery::replace(db, &id, now_ms)?;
                let session = sessions::create(db, &id, now_ms)?;
                Ok(Ok(SignedUp {
                    account: id,
                    session,
                    recovery_codes,
                }))
            })
            .await?;
        Ok(made?)
    }

    /// Counts an attempt at `name` from `address`, or says how long to wait.
    async fn attempt(
        &self,
        name: &str,
        address: Option<IpAddr>,
        now_ms: i64,
    ) -> Result<(), AuthError> {
        let (name_key, address_key) = attempt_keys(name, address);
        let keys: Vec<String> = std::iter::once(name_key).chain(address_key).collect();
        self.store
            .transact(move |db| throttle::attempt(db, &keys, now_ms))
            .await??;
        Ok(())
    }

    /// Signs in as `name` with `password` from `address`: a new session. Refused alike for
    /// an unknown name and a wrong password, after the same time.
    pub async fn sign_in(
        &self,
        name: &str,
        password: &str,
        address: Option<IpAddr>,
        now_ms: i64,
    ) -> Result<SignedIn, AuthError> {
        let password = Password::typed(password)?;
        self.attempt(name, address, now_ms).await?;
        let found = {
            let name = name.to_owned();
            self.store
                .query(move |db| accounts::credentials(db, &name))
                .await?
        };
        let (account, hash) = match found {
            Some((account, hash)) => (Some(account), hash),
            None => (None, None),
        };
        if !self.hasher.verify(password, hash).await? {
            return Err(AuthError::Wrong);
        }
        let account = account.ok_or(AuthError::Wrong)?;
        if account.closed_ms.is_some() {
            return Err(AuthError::Closed);
        }
        let (name_key, address_key) = attempt_keys(name, address);
        let id = account.id;
        let session = self
            .store
            .transact(move |db| {
                throttle::succeeded(db, &name_key, address_key.as_deref())?;
                sessions::create(db, &id, now_ms).map(|s| (id, s))
            })
            .await?;
        Ok(SignedIn {
            account: session.0,
            session: session.1,
        })
    }

    /// The live session whose cookie is `cookie`; its last use is written now and then.
    pub async fn session(&self, cookie: &str, now_ms: i64) -> Result<Option<Session>, AuthError> {
        let presented = cookie.to_owned();
        let found = self
            .store
            .query(move |db| sessions::lookup(db, &presented, now_ms))
            .await?;
        if let Some(s) = &found
            && s.needs_touch(now_ms)
        {
            let hash = s.hash.clone();
            self.store
                .transact(move |db| sessions::touch(db, &hash, now_ms))
                .await?;
        }
        Ok(found)
    }

    /// The account of bearer token `token` and the token's id, if it is a live one; its
    /// last use is written at most daily.
    pub async fn bearer(
        &self,
        token: &str,
        now_ms: i64,
    ) -> Result<Option<(AccountId, String)>, AuthError> {
        let presented = token.to_owned();
        let found = self
            .store
            .query(move |db| tokens::lookup(db, &presented))
            .await?;
        let Some((account, token)) = found else {
            return Ok(None);
        };
        if token
            .used_ms
            .is_none_or(|t| now_ms - t >= sessions::TOUCH_AFTER_MS)
        {
            let id = token.id.clone();
            self.store
                .transact(move |db| tokens::note_use(db, &id, now_ms))
                .await?;
        }
        Ok(Some((account, token.id)))
    }

    /// A new CSRF token for `session`, whose browser lost its own.
    pub async fn renew_csrf(&self, session: &Session) -> Result<Secret, AuthError> {
        let hash = session.hash.clone();
        Ok(self
            .store
            .transact(move |db| sessions::renew_csrf(db, &hash))
            .await?)
    }

    /// Ends the session whose cookie is `cookie`.
    pub async fn sign_out(&self, cookie: &str) -> Result<(), AuthError> {
        let presented = cookie.to_owned();
        self.store
            .transact(move |db| sessions::delete(db, &presented))
            .await?;
        Ok(())
    }

    /// Checks `password` against account `id`'s, off the async threads.
    async fn check_password(&self, id: &AccountId, password: &str) -> Result<(), AuthError> {
        let password = Password::typed(password)?;
        let hash = {
            let id = id.clone();
            self.store
                .query(move |db| accounts::password_hash(db, &id))
                .await?
        };
        if hash.is_none() || !self.hasher.verify(password, hash).await? {
            return Err(AuthError::Wrong);
        }
        Ok(())
    }

    /// Changes the password of `session`'s account from `old` to `new`, ending every other
    /// session of it.
    pub async fn change_password(
        &self,
        session: &Session,
        old: &str,
        new: &str,
        now_ms: i64,
    ) -> Result<(), AuthError> {
        let new = Password::new(new)?;
        self.check_password(&session.account, old).await?;
        let hash = self.hasher.hash(new).await?;
        let (id, keep) = (session.account.clone(), session.hash.clone());
        self.store
            .transact(move |db| {
                accounts::set_password(db, &id, &hash, now_ms)?;
                sessions::delete_others(db, &id, Some(&keep))
            })
            .await?;
        Ok(())
    }

    /// Sets a new password for `name` with one of its recovery codes (spent by it), from
    /// `address`, ending every session of the account and beginning a new one. Wrong codes
    /// count as failed sign-ins.
    pub async fn recover(
        &self,
        name: &str,
        code: &str,
        new_password: &str,
        address: Option<IpAddr>,
        now_ms: i64,
    ) -> Result<SignedIn, AuthError> {
        let password = Password::new(new_password)?;
        self.attempt(name, address, now_ms).await?;
        let found = {
            let (name, code) = (name.to_owned(), code.to_owned());
            self.store
                .query(move |db| {
                    let Some(account) = accounts::by_name(db, &name)? else {
                        return Ok(None);
                    };
                    let valid = super::recovery::is_valid(db, &account.id, &code)?;
                    Ok(valid.then_some(account))
                })
                .await?
        };
        let account = found.ok_or(AuthError::WrongCode)?;
        if !account.is_open() {
            return Err(AuthError::Closed);
        }
        let hash = self.hasher.hash(password).await?;
        let (name_key, address_key) = attempt_keys(name, address);
        let (id, code) = (account.id, code.to_owned());
        let made = self
            .store
            .transact(move |db| {
                // Spent here, with the new password: two uses at once set one password.
                if !super::recovery::spend(db, &id, &code, now_ms)? {
                    return Ok(None);
                }
                accounts::set_password(db, &id, &hash, now_ms)?;
                sessions::delete_others(db, &id, None)?;
                throttle::succeeded(db, &name_key, address_key.as_deref())?;
                Ok(Some(sessions::create(db, &id, now_ms)?).map(|s| (id, s)))
            })
            .await?;
        let (account, session) = made.ok_or(AuthError::WrongCode)?;
        Ok(SignedIn { account, session })
    }

    /// Deletes account `id`, its password `password` confirming it.
    pub async fn delete_account(
        &self,
        id: &AccountId,
        password: &str,
        now_ms: i64,
    ) -> Result<(), AuthError> {
        self.check_password(id, password).await?;
        let id = id.clone();
        self.store
            .transact(move |db| accounts::delete(db, &id, now_ms))
            .await?;
        Ok(())
    }

    /// Account `id`.
    pub async fn account(&self, id: &AccountId) -> Result<Option<Account>, AuthError> {
        let id = id.clone();
        Ok(self.store.query(move |db| accounts::by_id(db, &id)).await?)
    }
}
