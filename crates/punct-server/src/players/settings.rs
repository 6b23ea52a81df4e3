//! The site's settings kept with an account (`account_settings`): the board's colours, the
//! pieces' style and the theme, which the pages keep in the browser and, signed in, here too.
//! Each is a short word the pages know; the server checks only their form. `chat` (off:
//! `false`) the server heeds too: with it off, the account neither writes nor is sent chat.
//! It is kept in the account's own row (`accounts.chat`), and a write that leaves it out
//! leaves it as it was, so that the pages' writes of the look never turn chat back on.

use super::accounts::AccountId;
use crate::store::sql::{Sql, args};

/// The most characters of one setting's value.
pub const MAX_VALUE: usize = 20;

/// The settings, each `None` when never chosen.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The board's colours.
    pub board: Option<String>,
    /// The pieces' style.
    pub pieces: Option<String>,
    /// The colour theme.
    pub theme: Option<String>,
    /// `false` once the games' chat is turned off (read back only then); left out of a
    /// write: unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chat: Option<bool>,
}

/// Why settings were refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a setting is a word of 1 to 20 letters, digits or dashes")]
pub struct BadSetting;

impl Settings {
    /// Checks each value's form.
    pub fn check(&self) -> Result<(), BadSetting> {
        let fine = |v: &Option<String>| {
            v.as_ref().is_none_or(|v| {
                !v.is_empty()
                    && v.len() <= MAX_VALUE
                    && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            })
        };
        if fine(&self.board) && fine(&self.pieces) && fine(&self.theme) {
            Ok(())
        } else {
            Err(BadSetting)
        }
    }
}

/// The settings of `account` (the look's all `None` when never stored).
pub fn of(db: &mut dyn Sql, account: &AccountId) -> anyhow::Result<Settings> {
    let chat = (!chat_on(db, account)?).then_some(false);
    let Some(row) = db.query_opt(
        "SELECT settings FROM account_settings WHERE account = $1",
        &args![account.as_str()],
    )?
    else {
        return Ok(Settings {
            chat,
            ..Settings::default()
        });
    };
    // Written by [`store`] alone, so always readable; an unreadable row counts as none.
    let look: Settings = serde_json::from_str(&row.text("settings")?).unwrap_or_default();
    Ok(Settings { chat, ..look })
}

/// Whether `account` has chat on (it is until turned off).
pub fn chat_on(db: &mut dyn Sql, account: &AccountId) -> anyhow::Result<bool> {
    Ok(db
        .query_opt(
            "SELECT chat FROM accounts WHERE id = $1",
            &args![account.as_str()],
        )?
        .map(|r| r.bool("chat"))
        .transpose()?
        .unwrap_or(true))
}

/// Keeps `settings` for `account`.
pub fn store(
    db: &mut dyn Sql,
    account: &AccountId,
    settings: &Settings,
    now_ms: i64,
) -> anyhow::Result<()> {
    if let Some(chat) = settings.chat {
        super::accounts::set_chat(db, account, chat)?;
    }
    let look = Settings {
        chat: None,
        ..settings.clone()
    };
    db.execute(
        "INSERT INTO account_settings (account, settings, updated_ms) VALUES ($1, $2, $3)
         ON CONFLICT (account) DO UPDATE SET settings = $2, updated_ms = $3",
        &args![account.as_str(), serde_json::to_string(&look)?, now_ms],
    )?;
    Ok(())
}
