//! What servers tell each other (and themselves) about the lobby, on
//! [`crate::store::notify::Channel::Lobby`]: only what changed, by id; whoever hears it
//! reads the rest from the database, which stays the truth.

use serde::{Deserialize, Serialize};

use super::accounts::AccountId;

/// A change in the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LobbyNotice {
    /// A seek went up.
    SeekAdded {
        /// Its id.
        id: String,
    },
    /// Seeks went (accepted, withdrawn, their seeker gone, run out).
    SeekRemoved {
        /// Their ids.
        ids: Vec<String>,
    },
    /// The lobby made a game between two accounts.
    GameStarted {
        /// The game.
        game: String,
        /// White's account.
        white: AccountId,
        /// Black's account.
        black: AccountId,
    },
    /// These accounts' notifications, turns or challenges changed.
    Notified {
        /// Them.
        accounts: Vec<AccountId>,
    },
}

impl LobbyNotice {
    /// As sent.
    pub fn payload(&self) -> String {
        serde_json::to_string(self).expect("a notice is always JSON")
    }

    /// From a payload; `None` for what does not read (another version's form), which
    /// costs the hearer no more than a notice lost.
    pub fn parse(payload: &str) -> Option<LobbyNotice> {
        serde_json::from_str(payload).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_read_back() {
        let notice = LobbyNotice::GameStarted {
            game: "ab12".into(),
            white: AccountId("w".into()),
            black: AccountId("b".into()),
        };
        assert_eq!(LobbyNotice::parse(&notice.payload()), Some(notice));
        assert_eq!(LobbyNotice::parse("{\"type\":\"later\"}"), None);
        assert_eq!(LobbyNotice::parse("junk"), None);
    }
}
