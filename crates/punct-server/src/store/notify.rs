//! The wake-up between servers sharing one PostgreSQL: `LISTEN`/`NOTIFY` on a few channels,
//! named here and nowhere else. A notification only says that something changed; the
//! database, read by `seq`, stays the truth. So a notification that never came (the
//! listening connection was lost, PostgreSQL restarted) costs nothing but a read: after
//! every reconnection the listener hands out [`Notice::Missed`], and whoever follows
//! something reads it again from the store.
//!
//! Each commit of the writer that wrote games sends one notification on [`Channel::Games`]
//! naming them ([`GameChanged`]), in the commit's own transaction, so it is delivered once
//! the commit is (and never for one rolled back). Other parts of the server (the lobby)
//! send theirs through [`super::Store::notify`]. With SQLite there is one server: nothing
//! is sent for games, and [`super::Store::notify`] reaches this server's subscribers
//! directly.

use std::sync::{Arc, Weak};
use std::time::Duration;

use postgres::fallible_iterator::FallibleIterator;
use postgres::{Client, NoTls};
use tokio::sync::broadcast;

use super::form::PendingMove;
use super::sql::{Sql, args};
use crate::ops::outage::Outage;

/// Notices kept for a slow subscriber; one that falls further behind is told
/// [`Notice::Missed`] (by its receiver's `Lagged`), as after a reconnection.
const KEPT: usize = 4096;

/// The longest payload PostgreSQL takes is 8000 bytes; a commit naming more games sends
/// several notifications.
const PAYLOAD_MAX: usize = 7900;

/// How often a quiet listening connection is checked, so that a lost one is found and made
/// again within about this long.
const CHECK_EVERY: Duration = Duration::from_millis(500);

/// A channel servers notify each other on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// Games that changed: the payload is [`GameChanged`]s.
    Games,
    /// The lobby's seeks, challenges and notifications: the payload is the lobby's own.
    Lobby,
    /// The engine's job queue (`super::engine_queue`): the payload is the id of a job
    /// queued (for the workers) or ended (for its node).
    Jobs,
    /// The games' chat, watchers and blocks: the payload is the chat's own
    /// (`games::chat`).
    Chat,
}

impl Channel {
    /// Every channel, each listened to by every server.
    pub const ALL: [Channel; 4] = [Channel::Games, Channel::Lobby, Channel::Jobs, Channel::Chat];

    /// The channel's name in PostgreSQL.
    pub fn name(self) -> &'static str {
        match self {
            Channel::Games => "punct_games",
            Channel::Lobby => "punct_lobby",
            Channel::Jobs => "punct_jobs",
            Channel::Chat => "punct_chat",
        }
    }

    fn of(name: &str) -> Option<Channel> {
        Channel::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// A game's change as [`Channel::Games`] tells it: the game and the number of its state
/// now, written `id:seq`, several separated by spaces; a move kept pending comes with
/// itself, `id:seq=at_ms,mover,left_ms,move` (`-` for no clock), so that a server one
/// state behind makes it without reading the game back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameChanged {
    /// The game's id.
    pub id: String,
    /// The number of the state the commit made.
    pub seq: u64,
    /// The move that made it, when it was kept as a pending move.
    pub moved: Option<PendingMove>,
}

/// The longest move text a notification carries: any longer is named by `id:seq` alone
/// (read back), as is one with a space, which separates the items.
const MOVE_TEXT_MAX: usize = 32;

impl GameChanged {
    /// The payloads naming `changed`, each short enough for PostgreSQL.
    pub fn payloads(changed: &[GameChanged]) -> Vec<String> {
        let mut out = vec![String::new()];
        for c in changed {
            let mut item = format!("{}:{}", c.id, c.seq);
            if let Some(m) = c
                .moved
                .as_ref()
                .filter(|m| m.text.len() <= MOVE_TEXT_MAX && !m.text.contains(' '))
            {
                let left = m.left_ms.map_or("-".to_owned(), |l| l.to_string());
                item.push_str(&format!("={},{},{left},{}", m.at_ms, m.mover, m.text));
            }
            let last = out.last_mut().expect("never empty");
            if !last.is_empty() && last.len() + 1 + item.len() > PAYLOAD_MAX {
                out.push(item);
            } else {
                if !last.is_empty() {
                    last.push(' ');
                }
                last.push_str(&item);
            }
        }
        out.retain(|p| !p.is_empty());
        out
    }

    /// The changes a payload names; what does not read (another version's form) is
    /// skipped, and the caller, finding nothing, is no worse off than with a lost one. A
    /// move that does not read leaves its change named alone, to be read back.
    pub fn parse(payload: &str) -> Vec<GameChanged> {
        payload
            .split(' ')
            .filter_map(|item| {
                let (head, moved) = match item.split_once('=') {
                    Some((head, moved)) => (head, Some(moved)),
                    None => (item, None),
                };
                let (id, seq) = head.rsplit_once(':')?;
                let seq = seq.parse().ok()?;
                let moved = moved.and_then(|m| pending_move(id, seq, m));
                Some(GameChanged {
                    id: id.to_owned(),
                    seq,
                    moved,
                })
            })
            .collect()
    }
}

/// The move `at_ms,mover,left_ms,move` of game `id` that made state `seq`.
fn pending_move(id: &str, seq: u64, text: &str) -> Option<PendingMove> {
    let mut parts = text.splitn(4, ',');
    let at_ms = parts.next()?.parse().ok()?;
    let mover = parts.next()?.parse().ok()?;
    let left_ms = match parts.next()? {
        "-" => None,
        left => Some(left.parse().ok()?),
    };
    let text = parts.next().filter(|t| !t.is_empty())?;
    Some(PendingMove {
        game: id.to_owned(),
        seq,
        at_ms,
        mover,
        text: text.to_owned(),
        left_ms,
    })
}

/// What a subscriber hears.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// A game changed, on this server or another.
    Game(GameChanged),
    /// The lobby changed: the payload it was sent with.
    Lobby(String),
    /// An engine job was queued or ended: its id.
    Job(String),
    /// A game's chat or watchers changed, or a block: the payload it was sent with.
    Chat(String),
    /// Notifications may have been missed (the listening connection was made again, or the
    /// subscriber fell behind): read what you follow again from the store.
    Missed,
}

/// Where notices are handed out: a broadcast channel, fed by the listening thread on
/// PostgreSQL or by the server itself on SQLite.
pub(super) type Notices = Arc<broadcast::Sender<Notice>>;

/// A new [`Notices`].
pub(super) fn notices() -> Notices {
    Arc::new(broadcast::channel(KEPT).0)
}

/// Hands out what a notification on `channel` with `payload` tells.
fn hand_out(to: &broadcast::Sender<Notice>, channel: &str, payload: &str) {
    match Channel::of(channel) {
        Some(Channel::Games) => {
            for changed in GameChanged::parse(payload) {
                let _ = to.send(Notice::Game(changed));
            }
        }
        Some(Channel::Lobby) => {
            let _ = to.send(Notice::Lobby(payload.to_owned()));
        }
        Some(Channel::Jobs) => {
            let _ = to.send(Notice::Job(payload.to_owned()));
        }
        Some(Channel::Chat) => {
            let _ = to.send(Notice::Chat(payload.to_owned()));
        }
        None => {}
    }
}

/// Starts the thread that listens on every channel of the PostgreSQL at `url` and hands out
/// what it hears to `to`, until the store is gone. A lost connection is made again (and
/// [`Notice::Missed`] handed out then); an outage is logged once.
pub(super) fn listen(url: String, to: &Notices) -> anyhow::Result<()> {
    let to = Arc::downgrade(to);
    let (ready, listening) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("punct-db-listener".into())
        .spawn(move || match connect(&url) {
            Ok(first) => {
                let _ = ready.send(Ok(()));
                listen_loop(&url, first, &to);
            }
            Err(e) => {
                let _ = ready.send(Err(e));
            }
        })?;
    listening
        .recv()
        .map_err(|_| anyhow::anyhow!("the listening thread stopped at once"))?
}

/// A listener of its own, for a process that has no [`super::Store`] (a `punct worker`):
/// it hears every channel of its PostgreSQL until it is dropped.
pub struct Listener(Notices);

impl Listener {
    /// Starts listening on the PostgreSQL at `url`.
    pub fn start(url: &str) -> anyhow::Result<Listener> {
        let notices = notices();
        listen(url.to_owned(), &notices)?;
        Ok(Listener(notices))
    }

    /// What is heard from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Notice> {
        self.0.subscribe()
    }
}

fn connect(url: &str) -> anyhow::Result<Client> {
    let mut client = Client::connect(url, NoTls).map_err(|e| {
        anyhow::anyhow!(
            "cannot connect to PostgreSQL at {}: {e}",
            super::redact(url)
        )
    })?;
    let listen: String = Channel::ALL
        .iter()
        .map(|c| format!("LISTEN {};", c.name()))
        .collect();
    client.batch_execute(&listen)?;
    Ok(client)
}

fn listen_loop(url: &str, first: Client, to: &Weak<broadcast::Sender<Notice>>) {
    let mut outage = Outage::new("listening for other servers' changes");
    let mut client = Some(first);
    loop {
        let Some(sender) = to.upgrade() else {
            return;
        };
        let Some(c) = client.as_mut() else {
            match connect(url) {
                Ok(c) => {
                    client = Some(c);
                    outage.worked(None);
                    let _ = sender.send(Notice::Missed);
                }
                Err(e) => {
                    outage.failed(None, &e);
                    drop(sender);
                    std::thread::sleep(CHECK_EVERY);
                }
            }
            continue;
        };
        let mut lost = false;
        {
            let mut notifications = c.notifications();
            let mut heard = notifications.timeout_iter(CHECK_EVERY);
            loop {
                match heard.next() {
                    Ok(Some(n)) => hand_out(&sender, n.channel(), n.payload()),
                    Ok(None) => break,
                    Err(_) => {
                        lost = true;
                        break;
                    }
                }
            }
        }
        // A quiet connection may be a dead one: a round trip tells.
        if lost || c.is_closed() || c.simple_query("SELECT 1").is_err() {
            client = None;
        }
    }
}

/// Notifies `channel` with `payload` in the transaction of `db`: delivered once it commits,
/// and never if it is rolled back (PostgreSQL only).
pub fn notify_in(db: &mut dyn Sql, channel: Channel, payload: &str) -> anyhow::Result<()> {
    db.execute("SELECT pg_notify($1, $2)", &args![channel.name(), payload])?;
    Ok(())
}

/// The number of the latest state of game `id` in the database (its row's, or its last
/// pending move's), if it is there: what a node compares its own with before it answers a
/// read, so that a client sent to another node never reads an older state.
pub fn latest_seq(db: &mut dyn Sql, id: &str) -> anyhow::Result<Option<u64>> {
    let row = db.query_opt(
        "SELECT g.seq AS seq, (SELECT MAX(p.seq) FROM pending_moves p WHERE p.game = g.id) AS moved
         FROM games g WHERE g.id = $1",
        &args![id],
    )?;
    let Some(row) = row else {
        return Ok(None);
    };
    let seq = row.int("seq")?.max(row.opt_int("moved")?.unwrap_or(0));
    Ok(Some(seq as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_name_every_game_and_stay_short() {
        let changed: Vec<GameChanged> = (0..2000)
            .map(|i| GameChanged {
                id: format!("{i:016x}"),
                seq: i,
                moved: (i % 3 > 0).then(|| PendingMove {
                    game: format!("{i:016x}"),
                    seq: i,
                    at_ms: 1_764_000_000_000 + i as i64,
                    mover: (i % 2) as u8,
                    text: "TK16:0".to_owned(),
                    left_ms: (i % 3 == 1).then_some(59_000 - i as i64),
                }),
            })
            .collect();
        let payloads = GameChanged::payloads(&changed);
        assert!(payloads.len() > 1);
        assert!(payloads.iter().all(|p| p.len() <= PAYLOAD_MAX));
        let read: Vec<GameChanged> = payloads
            .iter()
            .flat_map(|p| GameChanged::parse(p))
            .collect();
        assert_eq!(read, changed);
        assert!(GameChanged::payloads(&[]).is_empty());
    }

    #[test]
    fn a_move_that_cannot_travel_is_named_alone() {
        let long = PendingMove {
            game: "ab".into(),
            seq: 4,
            at_ms: 10,
            mover: 1,
            text: "x".repeat(MOVE_TEXT_MAX + 1),
            left_ms: None,
        };
        let spaced = PendingMove {
            text: "A1 B2".into(),
            ..long.clone()
        };
        for m in [long, spaced] {
            let payloads = GameChanged::payloads(&[GameChanged {
                id: "ab".into(),
                seq: 4,
                moved: Some(m),
            }]);
            assert_eq!(payloads, ["ab:4"]);
        }
    }

    #[test]
    fn what_does_not_read_is_skipped() {
        let named = |id: &str, seq| GameChanged {
            id: id.into(),
            seq,
            moved: None,
        };
        assert_eq!(
            GameChanged::parse("ab:3 junk cd:x :7 ef:9 gh:2=1,0,-, ij:5=x,0,-,TK16:0 kl:6=1,2"),
            [
                named("ab", 3),
                named("", 7),
                named("ef", 9),
                named("gh", 2),
                named("ij", 5),
                named("kl", 6),
            ]
        );
    }
}
