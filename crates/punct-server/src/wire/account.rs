//! The account API's messages (API.md, "Accounts"): what the sign-up, sign-in, account and
//! token routes take and answer. Requests holding a password or a secret derive no `Debug`,
//! so that none can be printed by mistake.

use serde::{Deserialize, Serialize};

use crate::players::accounts::Account;
use crate::players::tokens::Token;
use crate::wire::profile::Profile;

/// `POST /api/session`: a name and a password.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// The username.
    pub username: String,
    /// The password.
    pub password: String,
}

/// `POST /api/account`: a name, a password, and whether a program plays the account.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignUp {
    /// The username.
    pub username: String,
    /// The password.
    pub password: String,
    /// A bot account (API.md, "Bots"); default false.
    #[serde(default)]
    pub bot: bool,
}

/// `POST /api/account/password`: the password now and the new one.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    /// The password now.
    pub password: String,
    /// The new password.
    pub new_password: String,
}

/// `POST /api/account/recover`: a recovery code resets the password.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recovery {
    /// The username.
    pub username: String,
    /// One of its recovery codes.
    pub code: String,
    /// The new password.
    pub new_password: String,
}

/// `DELETE /api/account`: the password, to confirm.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Confirmation {
    /// The password.
    pub password: String,
}

/// `POST /api/account/tokens`: the new token's name.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewToken {
    /// What its owner calls it.
    pub name: String,
}

/// An account as its owner and others see it.
#[derive(Clone, Debug, Serialize)]
pub struct AccountView {
    /// Its id.
    pub id: String,
    /// Its name, or `deleted`.
    pub username: String,
    /// When it was made.
    pub created_ms: i64,
    /// Whether a program plays it.
    pub bot: bool,
}

impl AccountView {
    /// The view of `account`.
    pub fn of(account: &Account) -> AccountView {
        AccountView {
            id: account.id.as_str().to_owned(),
            username: account.shown_name().to_owned(),
            created_ms: account.created_ms,
            bot: account.bot,
        }
    }
}

/// `GET /api/account`: who is asking.
#[derive(Debug, Serialize)]
pub struct Me {
    /// The account, or `null` for nobody.
    pub account: Option<AccountView>,
    /// How: `session`, `token`, or `null`.
    pub by: Option<&'static str>,
    /// The session's CSRF token, to send back in `X-CSRF-Token` (a session only).
    pub csrf: Option<String>,
}

/// `POST /api/session` and `POST /api/account/recover`: signed in.
#[derive(Debug, Serialize)]
pub struct SignedIn {
    /// Whose session it is.
    pub account: AccountView,
    /// Its CSRF token.
    pub csrf: String,
}

/// `POST /api/account`: made and signed in, with the recovery codes, shown this once.
#[derive(Debug, Serialize)]
pub struct SignedUp {
    /// The new account.
    pub account: AccountView,
    /// Its session's CSRF token.
    pub csrf: String,
    /// Its ten recovery codes.
    pub recovery_codes: Vec<String>,
}

/// A personal API token as its owner's list shows it.
#[derive(Debug, Serialize)]
pub struct TokenView {
    /// Its id, to revoke it by.
    pub id: String,
    /// Its name.
    pub name: String,
    /// When it was made.
    pub created_ms: i64,
    /// When it was last used (to within a day), or `null`.
    pub used_ms: Option<i64>,
}

impl TokenView {
    /// The view of `token`.
    pub fn of(token: &Token) -> TokenView {
        TokenView {
            id: token.id.clone(),
            name: token.name.clone(),
            created_ms: token.created_ms,
            used_ms: token.used_ms,
        }
    }
}

/// `GET /api/account/tokens`.
#[derive(Debug, Serialize)]
pub struct TokenList {
    /// The tokens, oldest first.
    pub tokens: Vec<TokenView>,
}

/// `POST /api/account/tokens`: the token made, shown this once.
#[derive(Debug, Serialize)]
pub struct TokenMade {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The token, for `Authorization: Bearer …`.
    pub token: String,
}

/// `GET /api/account/export`: the account's data.
#[derive(Debug, Serialize)]
pub struct Export {
    /// Its profile, as `GET /api/players/{name}` shows it.
    pub profile: Profile,
    /// How many games it holds.
    pub games: usize,
    /// Its games as one record file, oldest first.
    pub records: String,
}

/// One game to claim: its id and the seat token this browser kept for it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimedGame {
    /// The game's id.
    pub id: String,
    /// Its seat token.
    pub token: String,
}

/// `POST /api/account/claim`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// The games.
    pub games: Vec<ClaimedGame>,
}

/// The answer of `POST /api/account/claim`: the games now the account's.
#[derive(Debug, Serialize)]
pub struct Claimed {
    /// Their ids (a wrong token's game is left out, without saying).
    pub games: Vec<String>,
}
