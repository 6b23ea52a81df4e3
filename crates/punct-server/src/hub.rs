//! The live games: one lock per game, every change stored before it is broadcast, clocks
//! watched by a timer per game, and the computer's moves fetched from the engine pool.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::io::Write as _;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use punct_core::{Colour, Record};
use serde_json::{Value, json};
use tokio::sync::{Notify, broadcast};

use crate::clock::now_ms;
use crate::engine_pool::EnginePool;
use crate::error::ApiError;
use crate::new_game::{self, NewGame, random_hex};
use crate::replay::{chrono_date, replay_json};
use crate::room::{Action, Change, JSON_CAPACITY, Room, Stored, colour_name, json_text};
use crate::store::Store;

/// Events kept for a slow watcher before it must resynchronise from a fresh state. Each
/// holds a full state, so this bounds a game's memory as much as its watchers' patience.
const EVENT_BUFFER: usize = 16;

/// How many live games, and how many finished ones, the list of games shows.
const LISTED: usize = 50;

/// Wait before asking a busy engine pool again for a computer move.
const ENGINE_RETRY: Duration = Duration::from_millis(250);

/// A spawned background task.
type BoxFuture = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>;

/// One game and the channels around it.
pub struct RoomCell {
    /// The game; held while a change is checked, stored and broadcast, so changes to one game
    /// are serialised and broadcast in sequence order.
    pub room: tokio::sync::Mutex<Room>,
    /// Broadcast of every change as a JSON `event` message.
    pub events: broadcast::Sender<Utf8Bytes>,
    /// Wakes the game's clock timer when the deadline may have moved.
    clock_changed: Notify,
}

impl RoomCell {
    fn new(room: Room) -> Arc<RoomCell> {
        Arc::new(RoomCell {
            room: tokio::sync::Mutex::new(room),
            events: broadcast::channel(EVENT_BUFFER).0,
            clock_changed: Notify::new(),
        })
    }
}

/// What the creator or joiner of a game gets back.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SeatGrant {
    /// The game's id.
    pub id: String,
    /// The secret seat token: send it as `Authorization: Bearer …`.
    pub token: String,
    /// The colours the token holds.
    pub colours: Vec<&'static str>,
    /// The game's state.
    pub state: Value,
}

/// The `state` message (API.md) of `room` as the holder of `you` sees it, written straight
/// from the room.
fn state_message(room: &Room, you: &[Colour]) -> String {
    let mut msg = Vec::with_capacity(JSON_CAPACITY);
    let _ = write!(msg, r#"{{"type":"state","seq":{},"state":"#, room.seq);
    room.write_snapshot(&mut msg, now_ms(), you);
    msg.push(b'}');
    json_text(msg)
}

/// All games.
#[derive(Clone)]
pub struct Hub {
    inner: Arc<Inner>,
}

struct Inner {
    rooms: Mutex<HashMap<String, Arc<RoomCell>>>,
    store: Store,
    engine: EnginePool,
}

impl Hub {
    /// A hub over `store`, loading every live game and restarting its clock timer and, where
    /// the computer is to move, its search.
    pub async fn start(store: Store, engine: EnginePool) -> anyhow::Result<Hub> {
        let hub = Hub {
            inner: Arc::new(Inner {
                rooms: Mutex::new(HashMap::new()),
                store,
                engine,
            }),
        };
        let now = now_ms();
        // Clocks that ran when the server stopped are charged up to its last sign of life.
        let alive = hub.inner.store.last_alive_ms().unwrap_or(0);
        for stored in hub.inner.store.live_games().await? {
            let id = stored.id().to_owned();
            match Room::from_stored(stored, now, alive) {
                Ok(room) => {
                    hub.insert(room);
                }
                Err(e) => tracing::error!("game {id} cannot be restored: {e}"),
            }
        }
        Ok(hub)
    }

    /// The live games by id. A panic elsewhere while it was held leaves the map as it was
    /// (every change to it is a single insertion or removal), so it stays usable.
    fn rooms(&self) -> MutexGuard<'_, HashMap<String, Arc<RoomCell>>> {
        self.inner.rooms.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Puts a room in the map and starts its background tasks, unless another request put
    /// the same game there meanwhile: returns the cell the map holds.
    fn insert(&self, room: Room) -> Arc<RoomCell> {
        let timed = room.clock.is_some() && room.is_live();
        let computer = room.computer_to_move().map(|_| room.seq);
        let cell = match self.rooms().entry(room.id.clone()) {
            Entry::Occupied(held) => return held.get().clone(),
            Entry::Vacant(free) => free.insert(RoomCell::new(room)).clone(),
        };
        if timed {
            tokio::spawn(self.clone().watch_clock(cell.clone()));
        }
        if let Some(seq) = computer {
            tokio::spawn(self.clone().play_computer(cell.clone(), seq));
        }
        cell
    }

    /// The game `id`, loaded from the database if it is not in memory.
    pub async fn room(&self, id: &str) -> Result<Arc<RoomCell>, ApiError> {
        let found = self.rooms().get(id).cloned();
        if let Some(cell) = found {
            return Ok(cell);
        }
        let valid = !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_hexdigit());
        let stored = if valid {
            self.inner
                .store
                .load(id)
                .await
                .map_err(|e| ApiError::internal(format!("database error: {e}")))?
        } else {
            None
        };
        let stored = stored.ok_or_else(|| ApiError::not_found(format!("no game `{id}`")))?;
        let now = now_ms();
        let room = Room::from_stored(stored, now, now)
            .map_err(|e| ApiError::internal(format!("game {id} cannot be restored: {e}")))?;
        if !room.is_live() {
            // Finished games never change: serve them without keeping them in memory.
            return Ok(RoomCell::new(room));
        }
        Ok(self.insert(room))
    }

    /// Stores `next` and, once it is committed, makes it the room's state and tells everyone.
    async fn commit(
        &self,
        cell: &Arc<RoomCell>,
        room: &mut Room,
        next: Room,
        change: Change,
        extra: Value,
    ) -> Result<(), ApiError> {
        self.store(&next, change).await?;
        *room = next;
        self.announce(cell, room, change, &extra);
        Ok(())
    }

    /// Stores the change that made `room`, returning once it is committed: a move that
    /// leaves the game running as a pending move, anything else as the whole room.
    async fn store(&self, room: &Room, change: Change) -> Result<(), ApiError> {
        let store = &self.inner.store;
        match room.pending_move(change) {
            Some(m) => store.save_move(m).await,
            None => {
                store
                    .save(
                        &room.id,
                        room.stored_json(),
                        room.is_live(),
                        room.updated_ms,
                    )
                    .await
            }
        }
        .map_err(ApiError::internal)
    }

    /// Tells everyone of the stored change that made `room`, and starts what follows from it.
    fn announce(&self, cell: &Arc<RoomCell>, room: &Room, change: Change, extra: &Value) {
        // The event is written once for every watcher; seat holders get their colours put
        // into its `"you":[]` by their sockets.
        let mut msg = Vec::with_capacity(JSON_CAPACITY);
        // Writing into a Vec cannot fail.
        let _ = write!(
            msg,
            r#"{{"type":"event","seq":{},"event":"{}","detail":"#,
            room.seq,
            change.name()
        );
        let _ = serde_json::to_writer(&mut msg, extra);
        msg.extend_from_slice(br#","state":"#);
        room.write_snapshot(&mut msg, now_ms(), &[]);
        msg.push(b'}');
        let _ = cell.events.send(json_text(msg).into());
        cell.clock_changed.notify_one();
        if !room.is_live() {
            // A finished game changes no more: let it leave memory once its watchers go; it
            // is read back from the database if asked for.
            self.rooms().remove(&room.id);
        }
        if room.computer_to_move().is_some() {
            tokio::spawn(self.clone().play_computer(cell.clone(), room.seq));
        }
    }

    /// Creates a game, returning the creator's seat.
    pub async fn create(&self, req: NewGame) -> Result<SeatGrant, ApiError> {
        let (token, game, seats, clock) = new_game::build(&req)?;
        let now = now_ms();
        let room = Room::new(random_hex::<8>(), req.mode, game, seats, clock, now);
        self.inner
            .store
            .save(&room.id, room.stored_json(), room.is_live(), now)
            .await
            .map_err(ApiError::internal)?;
        let colours = room.holder(Some(&token));
        let state = room.snapshot(now, &colours);
        let id = room.id.clone();
        self.insert(room);
        Ok(SeatGrant {
            id,
            token,
            colours: colours.into_iter().map(colour_name).collect(),
            state,
        })
    }

    /// Gives the open seat of game `id` to the caller.
    pub async fn join(&self, id: &str, name: &str) -> Result<SeatGrant, ApiError> {
        let cell = self.room(id).await?;
        let mut room = cell.room.lock().await;
        if !room.is_live() {
            return Err(ApiError::conflict(
                "the game is over; you can watch its replay",
            ));
        }
        let mut next = room.clone();
        let token = random_hex::<16>();
        let now = now_ms();
        let colour = next.join(token.clone(), name, now)?;
        self.commit(
            &cell,
            &mut room,
            next,
            Change::Joined,
            json!({ "colour": colour_name(colour) }),
        )
        .await?;
        Ok(SeatGrant {
            id: id.to_owned(),
            token,
            colours: vec![colour_name(colour)],
            state: room.snapshot(now, &[colour]),
        })
    }

    /// The state of game `id` as the holder of `token` sees it.
    pub async fn state(&self, id: &str, token: Option<&str>) -> Result<Value, ApiError> {
        let cell = self.room(id).await?;
        let room = cell.room.lock().await;
        Ok(room.snapshot(now_ms(), &room.holder(token)))
    }

    /// Carries out `action` for the holder of `token`, returning the new sequence number and,
    /// if `want_state`, the new state as the caller sees it (JSON text). A refusal changes
    /// nothing (except that a side found out of time loses first).
    pub async fn act(
        &self,
        id: &str,
        token: Option<&str>,
        action: Action,
        want_state: bool,
    ) -> Result<(u64, Option<String>), ApiError> {
        let cell = self.room(id).await?;
        let mut room = cell.room.lock().await;
        let now = now_ms();
        let colours = room.holder(token);
        if let Action::Move { .. } = action
            && !room.flag_fell(now)
        {
            // A move is played on the room itself rather than on a copy (copying the room
            // was 2% of the server's work under load), and taken back if it cannot be stored.
            let undo = room.undo_point();
            let change = room.act(&colours, &action, now)?;
            if let Err(e) = self.store(&room, change).await {
                room.roll_back(undo);
                return Err(e);
            }
            let detail = json!({ "move": room.game.moves().last().map(|m| m.to_string()) });
            self.announce(&cell, &room, change, &detail);
            let state = want_state.then(|| room.snapshot_json(now, &colours));
            return Ok((room.seq, state));
        }
        let mut next = room.clone();
        if next.check_flag(now) {
            self.commit(&cell, &mut room, next, Change::Timeout, Value::Null)
                .await?;
            return Err(ApiError::conflict(format!(
                "the game is over: {}",
                room.game
                    .outcome()
                    .map(|o| o.to_string())
                    .unwrap_or_default()
            )));
        }
        let change = next.act(&colours, &action, now)?;
        self.commit(&cell, &mut room, next, change, Value::Null)
            .await?;
        let state = want_state.then(|| room.snapshot_json(now, &colours));
        Ok((room.seq, state))
    }

    /// Subscribes to game `id`: its current state as a `state` message, the colours the
    /// holder of `token` holds, and every later event, with no gap between the state and
    /// the events (both are taken under the game's lock).
    pub async fn subscribe(
        &self,
        id: &str,
        token: Option<&str>,
    ) -> Result<(String, Vec<Colour>, broadcast::Receiver<Utf8Bytes>), ApiError> {
        let cell = self.room(id).await?;
        let room = cell.room.lock().await;
        let you = room.holder(token);
        Ok((state_message(&room, &you), you, cell.events.subscribe()))
    }

    /// The state of game `id` as the holder of `token` sees it, as a `state` message.
    pub async fn state_message(&self, id: &str, token: Option<&str>) -> Result<String, ApiError> {
        let cell = self.room(id).await?;
        let room = cell.room.lock().await;
        Ok(state_message(&room, &room.holder(token)))
    }

    /// The positions of game `id` after each move, for review.
    pub async fn replay(&self, id: &str) -> Result<Value, ApiError> {
        let cell = self.room(id).await?;
        let room = cell.room.lock().await;
        Ok(replay_json(&room.game))
    }

    /// The record of game `id`.
    pub async fn record(&self, id: &str) -> Result<String, ApiError> {
        let cell = self.room(id).await?;
        let room = cell.room.lock().await;
        let date = chrono_date(room.created_ms);
        let mut record = Record::from_game(
            room.game.clone(),
            &room.seats[0].name,
            &room.seats[1].name,
            &date,
        );
        record.set_tag("Site", &format!("punct game {}", room.id));
        Ok(record.to_string())
    }

    /// The 50 most recently changed live games (all of which are in memory), then the 50
    /// most recently finished (read from the database, so that listing old games does not
    /// bring them back into memory), each newest first.
    pub async fn list(&self) -> Result<Value, ApiError> {
        let cells: Vec<Arc<RoomCell>> = self.rooms().values().cloned().collect();
        let mut live = Vec::with_capacity(cells.len());
        for cell in cells {
            let room = cell.room.lock().await;
            if room.is_live() {
                live.push(room.to_stored());
            }
        }
        live.sort_by_key(|s| std::cmp::Reverse(s.updated_ms()));
        live.truncate(LISTED);
        let finished = self
            .inner
            .store
            .finished(LISTED)
            .await
            .map_err(|e| ApiError::internal(format!("database error: {e}")))?;
        let games: Vec<Value> = live.iter().chain(&finished).map(Stored::summary).collect();
        Ok(json!({ "games": games }))
    }

    /// The engine pool, for analysis.
    pub fn engine(&self) -> &EnginePool {
        &self.inner.engine
    }

    /// Ends the game on time when the side to move's clock runs out.
    async fn watch_clock(self, cell: Arc<RoomCell>) {
        loop {
            let deadline = {
                let room = cell.room.lock().await;
                if !room.is_live() {
                    return;
                }
                room.clock.as_ref().and_then(|c| c.deadline(room.turn()))
            };
            match deadline {
                None => cell.clock_changed.notified().await,
                Some(d) => {
                    let wait = Duration::from_millis((d - now_ms()).max(0) as u64);
                    tokio::select! {
                        () = tokio::time::sleep(wait) => {}
                        () = cell.clock_changed.notified() => continue,
                    }
                }
            }
            let mut room = cell.room.lock().await;
            let mut next = room.clone();
            if next.check_flag(now_ms())
                && let Err(e) = self
                    .commit(&cell, &mut room, next, Change::Timeout, Value::Null)
                    .await
            {
                tracing::error!("game {}: cannot store the time forfeit: {e}", room.id);
            }
        }
    }

    /// Asks the engine for the computer's move in the state numbered `seq`, and plays it if
    /// nothing has changed meanwhile.
    ///
    /// Boxed because storing the move may schedule the next search: the future refers to
    /// itself through `commit`, and a named type lets the compiler see it is `Send`.
    fn play_computer(self, cell: Arc<RoomCell>, seq: u64) -> BoxFuture {
        Box::pin(async move { self.computer_move(cell, seq).await })
    }

    async fn computer_move(self, cell: Arc<RoomCell>, seq: u64) {
        loop {
            let (game, level, left) = {
                let room = cell.room.lock().await;
                let Some(level) = room.computer_to_move().filter(|_| room.seq == seq) else {
                    return;
                };
                let turn = room.turn();
                let left = room.clock.as_ref().map(|c| c.left(turn, turn, now_ms()));
                (room.game.clone(), level, left)
            };
            let result = match self.inner.engine.search(game, level, left).await {
                Ok(r) => r,
                Err(e) if e.status == 503 => {
                    tokio::time::sleep(ENGINE_RETRY).await;
                    continue;
                }
                Err(e) => {
                    tracing::error!("computer move failed: {e}");
                    punct_engine::SearchResult::default()
                }
            };
            let mut room = cell.room.lock().await;
            if room.seq != seq {
                return;
            }
            // An engine that finds nothing (or fails) must not leave the game stuck.
            let fallback = || room.game.position().legal_moves().first().copied();
            let Some(mv) = result.best_move.or_else(fallback) else {
                tracing::error!("no move for the computer in a live game");
                return;
            };
            let turn = room.turn();
            let mut next = room.clone();
            let now = now_ms();
            if next.check_flag(now) {
                if let Err(e) = self
                    .commit(&cell, &mut room, next, Change::Timeout, Value::Null)
                    .await
                {
                    tracing::error!("cannot store the time forfeit: {e}");
                }
                return;
            }
            let action = Action::Move {
                text: mv.to_string(),
            };
            match next.act(&[turn], &action, now) {
                Ok(change) => {
                    let detail = json!({ "move": mv.to_string() });
                    if let Err(e) = self.commit(&cell, &mut room, next, change, detail).await {
                        tracing::error!("cannot store the computer's move: {e}");
                    }
                }
                Err(e) => tracing::error!("the engine's move {mv} was refused: {e}"),
            }
            return;
        }
    }
}
