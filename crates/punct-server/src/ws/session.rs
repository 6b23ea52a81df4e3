//! A socket's place in its game: the seat it speaks for, the announcements it follows, and
//! its answers to what its client sends.

use std::sync::Arc;

use axum::extract::ws::{Message, Utf8Bytes};
use tokio::sync::broadcast::Receiver;
use tokio::sync::broadcast::error::RecvError;

use crate::error::Error;
use crate::games::{Announced, Announcement, Following, Hub, RoomCell, Viewed};
use crate::players::accounts::AccountId;
use crate::room::Audience;
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

impl Session {
    /// Follows game `id` for `token`; returns the session and its first state message.
    pub(super) async fn open(
        hub: Hub,
        id: String,
        token: Option<String>,
        account: Option<AccountId>,
    ) -> Result<(Session, Utf8Bytes), Error> {
        let Following {
            state,
            announcements,
            cell,
        } = hub
            .subscribe(&id, token.as_deref(), account.as_ref())
            .await?;
        let session = Session {
            hub,
            id,
            token,
            account,
            audience: state.audience,
            announcements,
            seen: state.snapshot.seq,
            _cell: cell,
            live: true,
        };
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
        Ok(state_text(&state))
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

    /// The next announcement, waiting for it.
    pub(super) async fn next(&mut self) -> Result<Arc<Announcement>, RecvError> {
        self.announcements.recv().await
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
