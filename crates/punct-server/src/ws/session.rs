//! A socket's place in its game: the seat it speaks for, the announcements it follows, and
//! its answers to what its client sends.

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::ws::{Message, Utf8Bytes};
use tokio::sync::broadcast::Receiver;
use tokio::sync::broadcast::error::RecvError;

use crate::error::Error;
use crate::games::{
    Announced, Announcement, ChatEvent, ChatFollow, Following, Hub, Reader, RoomCell, Viewed,
    Watching,
};
use crate::players::accounts::AccountId;
use crate::players::chat::Refusal;
use crate::room::Audience;
use crate::wire::chat::{self, ChatLine, ChatPage};
use crate::wire::client::{ClientMessage, parse_message};
use crate::wire::error::{ErrorBody, body_of};
use crate::wire::server::{ServerMessage, announced_text};

/// A socket's place in its game.
pub(super) struct Session {
    hub: Hub,
    id: String,
    token: Option<String>,
    /// The signed-in account the socket was opened by, which stands for its seat token.
    account: Option<AccountId>,
    /// Whose view the socket has.
    audience: Audience,
    announcements: Receiver<Arc<Announcement>>,
    /// The number of the last state the client was sent: announcements up to it are old.
    seen: u64,
    /// Held so that the game's channel stays open while the socket follows it.
    _cell: Arc<RoomCell>,
    /// Once a game's channel closes the socket stays open for pings and syncs, so that
    /// pages do not reconnect again and again.
    pub(super) live: bool,
    /// The client's address (what an anonymous player's chat is rate-limited by).
    address: Option<IpAddr>,
    /// Whether the game was being played in the last state sent.
    game_live: bool,
    /// Counts the socket among the game's watchers while it is one.
    watching: Option<Watching>,
    /// The game's chat, once the client opened it.
    chat: Option<ChatFollow>,
    /// Whose messages the socket's account blocked.
    blocked: Vec<AccountId>,
}

/// What came next for a socket.
pub(super) enum Next {
    /// An announcement of the game.
    Game(Result<Arc<Announcement>, RecvError>),
    /// An event of the game's chat.
    Chat(Result<Arc<ChatEvent>, RecvError>),
}

/// What an announcement becomes on one socket.
pub(super) enum Outgoing {
    /// This text is sent.
    Send(Utf8Bytes),
    /// Nothing: the client has this state already.
    Skip,
    /// The game is over and its channel closed: nothing more will come.
    Closed,
    /// The game is gone: the socket closes.
    Stop,
}

/// The `state` message of `viewed`.
fn state_text(viewed: &Viewed) -> Utf8Bytes {
    ServerMessage::state(&viewed.snapshot, viewed.audience, viewed.now).text()
}

/// The `error` message for `e`.
fn error_text(status: u16, reason: &str) -> Utf8Bytes {
    ServerMessage::Error(ErrorBody::new(status, reason)).text()
}

/// The `chat_refused` message for `refusal`.
fn chat_refused(refusal: &Refusal) -> Utf8Bytes {
    ServerMessage::ChatRefused(chat::refused(refusal)).text()
}

impl Session {
    /// Follows game `id` for `token`; returns the session and its first state message.
    pub(super) async fn open(
        hub: Hub,
        id: String,
        token: Option<String>,
        account: Option<AccountId>,
        address: Option<IpAddr>,
    ) -> Result<(Session, Utf8Bytes), Error> {
        let Following {
            state,
            announcements,
            cell,
        } = hub
            .subscribe(&id, token.as_deref(), account.as_ref())
            .await?;
        let mut session = Session {
            hub,
            id,
            token,
            account,
            audience: state.audience,
            announcements,
            seen: state.snapshot.seq,
            _cell: cell,
            live: true,
            address,
            game_live: state.snapshot.is_live(),
            watching: None,
            chat: None,
            blocked: Vec::new(),
        };
        session.count_as_watcher();
        Ok((session, state_text(&state)))
    }

    /// Speaks for `token` from now on: the state and the announcements that follow it are
    /// seen with its seat.
    pub(super) async fn hello(&mut self, token: Option<String>) -> Result<Utf8Bytes, Error> {
        let Following {
            state,
            announcements,
            cell,
        } = self
            .hub
            .subscribe(&self.id, token.as_deref(), self.account.as_ref())
            .await?;
        self.token = token;
        self.audience = state.audience;
        self.announcements = announcements;
        self.seen = state.snapshot.seq;
        self._cell = cell;
        self.live = true;
        self.game_live = state.snapshot.is_live();
        self.count_as_watcher();
        Ok(state_text(&state))
    }

    /// Counts the socket among the game's watchers if it is one, else not.
    fn count_as_watcher(&mut self) {
        match (self.audience.holds_a_seat(), &self.watching) {
            (false, None) => self.watching = Some(self.hub.watch(&self.id)),
            (true, Some(_)) => self.watching = None,
            _ => {}
        }
    }

    /// The next announcement, if one is waiting now.
    pub(super) fn waiting(&mut self) -> Option<Result<Arc<Announcement>, RecvError>> {
        use tokio::sync::broadcast::error::TryRecvError;
        match self.announcements.try_recv() {
            Ok(announcement) => Some(Ok(announcement)),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Lagged(n)) => Some(Err(RecvError::Lagged(n))),
            Err(TryRecvError::Closed) => Some(Err(RecvError::Closed)),
        }
    }

    /// The next announcement (while the game's channel is open) or event of the chat (once
    /// opened), waiting for it.
    pub(super) async fn next(&mut self) -> Next {
        let Session {
            announcements,
            chat,
            live,
            ..
        } = self;
        let game = async {
            if *live {
                announcements.recv().await
            } else {
                std::future::pending().await
            }
        };
        let chat = async {
            match chat {
                Some(chat) => chat.events.recv().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            got = game => Next::Game(got),
            got = chat => Next::Chat(got),
        }
    }

    /// What `announcement` becomes on this socket.
    pub(super) async fn outgoing(
        &mut self,
        announcement: Result<Arc<Announcement>, RecvError>,
    ) -> Outgoing {
        match announcement {
            // A change the client has already, in the state it was sent last (a `sync`
            // reads the state while earlier changes may still wait for this socket). A state
            // read back from the database is always sent: it replaces what the client holds.
            Ok(a) if a.what != Announced::ReadBack && a.snapshot.seq <= self.seen => Outgoing::Skip,
            Ok(a) => {
                self.seen = a.snapshot.seq;
                self.game_live = a.snapshot.is_live();
                Outgoing::Send(announced_text(&a, self.audience))
            }
            // A client that fell too far behind gets the whole state instead, and follows
            // the announcements from it on: the lagging receiver still holds older ones,
            // which would reach the client after it, out of order.
            Err(RecvError::Lagged(_)) => match self.hello(self.token.clone()).await {
                Ok(state) => Outgoing::Send(state),
                Err(_) => Outgoing::Stop,
            },
            Err(RecvError::Closed) => Outgoing::Closed,
        }
    }

    /// The answer to a client's message, if it gets one.
    pub(super) async fn answer(&mut self, message: Message) -> Option<Utf8Bytes> {
        match message {
            Message::Text(text) => Some(self.handle(&text).await),
            Message::Binary(_) => Some(error_text(
                400,
                "binary messages are not understood; send JSON text",
            )),
            _ => None,
        }
    }

    async fn handle(&mut self, text: &str) -> Utf8Bytes {
        let msg = match parse_message(text) {
            Ok(m) => m,
            Err(e) => return error_text(400, &e),
        };
        let answer = match msg {
            ClientMessage::Ping {} => return ServerMessage::Pong.text(),
            ClientMessage::Hello { token } => self.hello(token).await,
            ClientMessage::Sync {} => self.sync().await,
            ClientMessage::ChatOpen {} => {
                return self
                    .open_chat()
                    .await
                    .unwrap_or_else(|e| ServerMessage::ChatRefused(body_of(&e)).text());
            }
            ClientMessage::Chat { text } => return self.write_chat(&text).await,
            ClientMessage::Action(request) => self
                .hub
                .act(
                    &self.id,
                    self.token.as_deref(),
                    self.account.as_ref(),
                    request,
                    false,
                )
                .await
                .map(|acted| ServerMessage::Ok { seq: acted.seq }.text()),
        };
        answer.unwrap_or_else(|e| ServerMessage::Error(body_of(&e)).text())
    }

    /// Opens the game's chat on this socket: the `chat_history` it may see, then its events.
    async fn open_chat(&mut self) -> Result<Utf8Bytes, Error> {
        if let Some(account) = &self.account
            && self.hub.chat_off(account).await?
        {
            self.chat = None;
            return Ok(chat_refused(&Refusal::ChatOff));
        }
        // Followed before the history is read, so that nothing falls between them (a message
        // in both is the same id, which the client keeps once).
        let follow = self.hub.follow_chat(&self.id);
        self.blocked = match &self.account {
            Some(account) => self.hub.blocked_by(account).await?,
            None => Vec::new(),
        };
        let reader = Reader {
            account: self.account.clone(),
            player: self.audience.holds_a_seat(),
        };
        let history = self
            .hub
            .chat_history(&self.id, &reader, self.game_live)
            .await?;
        let watching = self.hub.watchers(&self.id).await?;
        self.chat = Some(follow);
        Ok(ServerMessage::ChatHistory(ChatPage::of(&history, watching)).text())
    }

    /// Writes `text` in the game's chat for this socket.
    async fn write_chat(&mut self, text: &str) -> Utf8Bytes {
        let written = self
            .hub
            .write_chat(
                &self.id,
                self.audience,
                self.account.as_ref(),
                self.address,
                text,
            )
            .await;
        match written {
            Ok(Ok(message)) => ServerMessage::ChatSent { id: &message.id }.text(),
            Ok(Err(refusal)) => chat_refused(&refusal),
            Err(e) => ServerMessage::ChatRefused(body_of(&e)).text(),
        }
    }

    /// What an event of the chat becomes on this socket, if anything: a message in a room it
    /// may not read, or by someone its account blocked, is not sent.
    pub(super) async fn chat_outgoing(
        &mut self,
        event: Result<Arc<ChatEvent>, RecvError>,
    ) -> Option<Utf8Bytes> {
        let event = match event {
            Ok(event) => event,
            // Behind: the whole chat again.
            Err(RecvError::Lagged(_)) => return self.open_chat().await.ok(),
            Err(RecvError::Closed) => {
                self.chat = None;
                return None;
            }
        };
        match &*event {
            ChatEvent::Line(message) => {
                let readable = message
                    .room
                    .readable(self.audience.holds_a_seat(), self.game_live);
                let blocked = message
                    .author
                    .as_ref()
                    .is_some_and(|a| self.blocked.contains(a));
                (readable && !blocked).then(|| {
                    ServerMessage::Chat {
                        message: ChatLine::of(message),
                    }
                    .text()
                })
            }
            ChatEvent::Watchers(count) => Some(ServerMessage::Watching { count: *count }.text()),
            ChatEvent::Blocks(account) => {
                if self.account.as_ref() == Some(account)
                    && let Ok(blocked) = self.hub.blocked_by(account).await
                {
                    self.blocked = blocked;
                }
                None
            }
        }
    }

    /// The state again, as the socket sees it.
    async fn sync(&mut self) -> Result<Utf8Bytes, Error> {
        let state = self
            .hub
            .state(&self.id, self.token.as_deref(), self.account.as_ref())
            .await?;
        self.seen = state.snapshot.seq;
        Ok(state_text(&state))
    }
}
