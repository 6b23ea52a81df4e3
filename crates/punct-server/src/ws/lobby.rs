//! The lobby's WebSocket (`GET /api/lobby/ws`): every live seek at once, then each seek
//! that goes up or goes; for a signed-in account also its counts (notifications, turns,
//! challenges) whenever they change, and "game started" when the lobby seats it in a game.
//!
//! A signed-in socket is a row in the database (`players::presence`), kept alive by this
//! server's beat: when the account's last lobby socket on any server closes, its real-time
//! seeks and pool entries go; should this server die, the rows it kept run out by
//! themselves. Clients send nothing but pongs; what they do send is ignored.

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade, close_code};
use axum::response::{IntoResponse, Response};
use futures_util::SinkExt;
use tokio::sync::broadcast::error::RecvError;
use tokio::time::{Instant, MissedTickBehavior};

use super::WsLimits;
use super::close::{close, refuse};
use crate::lobby::{Heard, Lobby};
use crate::players::accounts::AccountId;
use crate::players::lobby_notice::LobbyNotice;
use crate::players::{challenges, games, notifications, presence, secrets};
use crate::wire::lobby::LobbyMessage;

/// Upgrades the request to the lobby's WebSocket, for `account` if one is signed in.
pub(crate) fn upgrade(
    ws: WebSocketUpgrade,
    lobby: Lobby,
    account: Option<AccountId>,
    limits: WsLimits,
) -> Response {
    ws.read_buffer_size(1024)
        .write_buffer_size(16 * 1024)
        .max_message_size(limits.max_message)
        .max_frame_size(limits.max_message)
        .on_upgrade(move |socket| run(socket, lobby, account, limits))
        .into_response()
}

fn text(message: &LobbyMessage) -> Message {
    Message::Text(
        serde_json::to_string(message)
            .expect("a lobby message is always JSON")
            .into(),
    )
}

/// The counts of `account` now.
async fn counts(lobby: &Lobby, account: &AccountId) -> anyhow::Result<LobbyMessage> {
    let (who, now) = (account.clone(), lobby.hub().time().now_ms());
    lobby
        .hub()
        .database()
        .query(move |db| {
            let incoming = challenges::open_for(db, &who, now)?
                .iter()
                .filter(|c| c.challenged == who)
                .count();
            Ok(LobbyMessage::Notifications {
                unread: notifications::unread(db, &who)?,
                your_turn: games::your_turn(db, &who)?.len() as i64,
                challenges: incoming as i64,
            })
        })
        .await
}

/// What a socket sends first, and again after changes may have been missed.
async fn everything(lobby: &Lobby, account: Option<&AccountId>) -> anyhow::Result<Vec<Message>> {
    let seeks = lobby.seeks_heard().await.map_err(|e| anyhow::anyhow!(e))?;
    let mut out: Vec<Message> = LobbyMessage::seek_list(seeks.to_vec())
        .iter()
        .map(text)
        .collect();
    if let Some(account) = account {
        out.push(text(&counts(lobby, account).await?));
    }
    Ok(out)
}

async fn run(mut socket: WebSocket, lobby: Lobby, account: Option<AccountId>, limits: WsLimits) {
    let store = lobby.hub().database().clone();
    let time = lobby.hub().time().clone();
    let Ok(id) = secrets::new_id(time.now_ms()) else {
        return;
    };
    if let Some(a) = &account {
        let (key, who, now) = (id.clone(), a.clone(), time.now_ms());
        if store
            .transact(move |db| presence::open(db, &key, &who, now))
            .await
            .is_err()
        {
            close(
                &mut socket,
                close_code::AGAIN,
                "the database does not answer".into(),
            )
            .await;
            return;
        }
    }
    // Followed before the list is read, so that nothing between the two is missed.
    let mut heard_lobby = lobby.listen();
    serve(
        &mut socket,
        &lobby,
        account.as_ref(),
        &id,
        &mut heard_lobby,
        limits,
    )
    .await;
    if let Some(a) = account {
        let (key, now) = (id, time.now_ms());
        match store
            .transact(move |db| presence::close(db, &key, &a, now))
            .await
        {
            Ok(gone) if !gone.is_empty() => {
                let notice = LobbyNotice::SeekRemoved { ids: gone };
                if let Err(e) = store
                    .notify(crate::store::notify::Channel::Lobby, notice.payload())
                    .await
                {
                    tracing::warn!("cannot tell the lobby of a seeker gone: {e}");
                }
            }
            Ok(_) => {}
            // Its row runs out by itself, and its seeks with it.
            Err(e) => tracing::warn!("cannot close a lobby socket's row: {e}"),
        }
    }
}

/// Serves the socket until it closes.
async fn serve(
    socket: &mut WebSocket,
    lobby: &Lobby,
    account: Option<&AccountId>,
    id: &str,
    heard_lobby: &mut tokio::sync::broadcast::Receiver<Heard>,
    limits: WsLimits,
) {
    let Ok(first) = everything(lobby, account).await else {
        close(
            socket,
            close_code::AGAIN,
            "the database does not answer".into(),
        )
        .await;
        return;
    };
    for m in first {
        if socket.send(m).await.is_err() {
            return;
        }
    }
    let mut heard = Instant::now();
    let every = (limits.silence_timeout / 3)
        .min(Duration::from_millis((presence::LIFE_MS / 3) as u64))
        .max(Duration::from_millis(1));
    let mut beats = tokio::time::interval_at(Instant::now() + every, every);
    beats.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        let out: Vec<Message> = tokio::select! {
            got = heard_lobby.recv() => match got {
                Ok(Heard::SeekAdded(seek)) => vec![text(&LobbyMessage::SeekAdded { seek: (*seek).clone() })],
                Ok(Heard::SeekRemoved(ids)) => vec![text(&LobbyMessage::SeekRemoved { ids: (*ids).clone() })],
                Ok(Heard::GameStarted { game, white, black }) => {
                    let seat = match account {
                        Some(a) if *a == white => "white",
                        Some(a) if *a == black => "black",
                        _ => continue,
                    };
                    vec![text(&LobbyMessage::GameStarted { game, seat })]
                }
                Ok(Heard::Notified(accounts)) => match account {
                    Some(a) if accounts.contains(a) => match counts(lobby, a).await {
                        Ok(m) => vec![text(&m)],
                        Err(_) => continue,
                    },
                    _ => continue,
                },
                Ok(Heard::Missed) | Err(RecvError::Lagged(_)) => match everything(lobby, account).await {
                    Ok(all) => all,
                    Err(_) => continue,
                },
                Err(RecvError::Closed) => return,
            },
            incoming = socket.recv() => {
                heard = Instant::now();
                match incoming {
                    Some(Ok(Message::Close(_))) | None => return,
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => {
                        refuse(socket, &e, &limits).await;
                        return;
                    }
                }
            },
            _ = beats.tick() => {
                if heard.elapsed() >= limits.silence_timeout {
                    let reason = format!(
                        "nothing heard for {} s, not even a pong",
                        limits.silence_timeout.as_secs_f64()
                    );
                    close(socket, close_code::AWAY, reason).await;
                    return;
                }
                if let Some(a) = account {
                    let (key, who, now) = (id.to_owned(), a.clone(), lobby.hub().time().now_ms());
                    if let Err(e) = lobby
                        .hub()
                        .database()
                        .transact(move |db| presence::beat(db, &key, &who, now))
                        .await
                    {
                        tracing::warn!("cannot keep a lobby socket's seeks: {e}");
                    }
                }
                vec![Message::Ping(Bytes::new())]
            },
        };
        for m in out {
            if socket.feed(m).await.is_err() {
                return;
            }
        }
        if socket.flush().await.is_err() {
            return;
        }
    }
}
