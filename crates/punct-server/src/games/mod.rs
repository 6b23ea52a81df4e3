//! The live games: one lock per game, every change stored before it is broadcast, clocks
//! watched by a timer per game, and the computer's moves fetched from the engine pool.
//!
//! Every change to a game goes one way ([`Hub::apply`]): made in place on the room, stored,
//! and only once it is committed told to everyone, with what follows from it started. The
//! requests that change games run on tasks of their own ([`Hub::detached`]), so a client that
//! hangs up never cuts a change short; and should a change be cut short all the same (its
//! storing failed, or a panic), the room is marked stale and read back from the database,
//! which holds the truth, before anyone uses it again.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use axum::extract::ws::Utf8Bytes;
use punct_core::{Colour, Record};
use serde_json::{Value, json};
use tokio::sync::{Notify, broadcast};

use crate::engine::{ComputerClock, EnginePool};
use crate::error::{Error, ErrorKind};
use crate::ops::metrics::{Metrics, StorageOp};
use crate::ops::outage::Outage;
use crate::ops::time::TimeSource;
use crate::pictures::Shared;
use crate::room::new::{self, NewGame, random_hex};
use crate::room::{
    Action, Change, JSON_CAPACITY, Lifetimes, Request, Room, Stored, Summary, colour_name,
    json_text,
};
use crate::store::{Store, WriteError};
use crate::wire::replay::{chrono_date, replay_json};

mod finished;
mod rematch;

/// Events kept for a slow watcher before it must resynchronise from a fresh state. Each
/// holds a full state, so this bounds a game's memory as much as its watchers' patience.
const EVENT_BUFFER: usize = 16;

/// How many live games, and how many finished ones, the list of games shows.
const LISTED: usize = 50;

/// Wait before asking a busy engine pool, or a database that is not answering, again.
const RETRY: Duration = Duration::from_millis(250);

/// A spawned background task.
type BoxFuture = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>;

/// One game and the channels around it.
pub struct RoomCell {
    /// The game's id.
    id: String,
    /// The game; held while a change is checked, stored and broadcast, so changes to one game
    /// are serialised and broadcast in sequence order. Reach it through [`Hub::lock`], which
    /// reads a stale room back first.
    room: tokio::sync::Mutex<Room>,
    /// Broadcast of every change as a JSON `event` message (and of a `state` message when
    /// the room was read back from the database).
    pub events: broadcast::Sender<Utf8Bytes>,
    /// Wakes the game's clock timer when the deadline may have moved.
    clock_changed: Notify,
    /// Set when a change was cut short: the room in memory may differ from the database.
    stale: AtomicBool,
    /// What the list of games and the search for games to end need, written at each
    /// change so that neither has to lock the room.
    glance: Mutex<Glance>,
}

/// A live game as seen without locking it.
#[derive(Default)]
struct Glance {
    /// Its line in the list of games, if it is listed.
    listed: Option<Arc<Summary>>,
    /// When it ends by itself unless it changes first (see [`Room::expiry`]).
    expires_ms: Option<i64>,
}

impl Glance {
    fn of(room: &Room, lifetimes: &Lifetimes) -> Glance {
        Glance {
            listed: (room.is_live() && room.is_public()).then(|| Arc::new(room.summary())),
            expires_ms: room.expiry(lifetimes).map(|(at, _)| at),
        }
    }
}

impl RoomCell {
    fn new(room: Room, glance: Glance) -> Arc<RoomCell> {
        Arc::new(RoomCell {
            id: room.id.clone(),
            room: tokio::sync::Mutex::new(room),
            events: broadcast::channel(EVENT_BUFFER).0,
            clock_changed: Notify::new(),
            stale: AtomicBool::new(false),
            glance: Mutex::new(glance),
        })
    }

    /// The glance. Every change to it is a single assignment, so a panic elsewhere while it
    /// was held leaves it usable.
    fn glance(&self) -> MutexGuard<'_, Glance> {
        self.glance.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Marks its room stale when dropped before [`Unfinished::done`]: a change whose storing
/// failed or that was cut short leaves the room to be read back from the database.
struct Unfinished<'a>(&'a RoomCell);

impl Unfinished<'_> {
    fn done(self) {
        std::mem::forget(self);
    }
}

impl Drop for Unfinished<'_> {
    fn drop(&mut self) {
        self.0.stale.store(true, Ordering::Release);
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
    /// The secret that gives a friend the open seat (friend games, until it is taken).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// The game's state.
    pub state: Value,
}

/// What a subscriber to a game gets ([`Hub::subscribe`]).
pub struct Following {
    /// The game's state as a `state` message.
    pub state: String,
    /// The colours the subscriber's token holds.
    pub you: Vec<Colour>,
    /// Every later event.
    pub events: broadcast::Receiver<Utf8Bytes>,
    /// The game's cell: held while the game is followed, it keeps a finished game's
    /// channel open, so that a rematch offer still reaches the other side.
    pub cell: Arc<RoomCell>,
}

/// The `state` message (API.md) of `room` as the holder of `you` sees it, written straight
/// from the room.
fn state_message(room: &Room, now: i64, you: &[Colour]) -> String {
    let mut msg = Vec::with_capacity(JSON_CAPACITY);
    let _ = write!(msg, r#"{{"type":"state","seq":{},"state":"#, room.seq);
    room.write_snapshot(&mut msg, now, you);
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
    /// Finished games still in use (followed by a socket, or being asked for): every request
    /// about one shares its cell, so that its changes (a rematch) are made one at a time
    /// and reach its sockets.
    finished: Mutex<finished::Finished>,
    store: Store,
    engine: EnginePool,
    metrics: Metrics,
    lifetimes: Lifetimes,
    time: TimeSource,
}

impl Hub {
    /// A hub over `store`, loading every live game and restarting its clock timer and, where
    /// the computer is to move, its search. A running clock is stored again as resumed, so
    /// that a second restart does not charge the first one's downtime. A game that cannot be
    /// restored is logged and set aside, never blocking the start. Games that have waited
    /// longer than `lifetimes` allow are ended without a result, then and from then on.
    pub async fn start(
        store: Store,
        engine: EnginePool,
        lifetimes: Lifetimes,
        time: TimeSource,
    ) -> anyhow::Result<Hub> {
        let hub = Hub {
            inner: Arc::new(Inner {
                rooms: Mutex::new(HashMap::new()),
                finished: Mutex::default(),
                metrics: Metrics::new(engine.wait_histogram()),
                store,
                engine,
                lifetimes,
                time,
            }),
        };
        let now = hub.now();
        // Clocks that ran when the server stopped are charged up to its last sign of life.
        let alive = hub.inner.store.last_alive_ms().unwrap_or(0);
        let mut resumed = Vec::new();
        for found in hub.inner.store.live_games().await? {
            let stored = match found {
                Ok(stored) => stored,
                Err((id, e)) => {
                    hub.set_aside(&id, &e).await;
                    continue;
                }
            };
            let id = stored.id().to_owned();
            match Room::from_stored(stored, now, alive) {
                Ok(room) => {
                    if room
                        .clock
                        .as_ref()
                        .is_some_and(|c| c.running_since.is_some())
                    {
                        let store = hub.inner.store.clone();
                        let (seq, json, updated) = (room.seq, room.stored_json(), room.updated_ms);
                        resumed.push(async move {
                            let saved = store.save(&id, seq, json, true, updated).await;
                            (id, saved)
                        });
                    }
                    hub.insert(room);
                }
                Err(e) => hub.set_aside(&id, &e).await,
            }
        }
        for (id, saved) in futures_util::future::join_all(resumed).await {
            match saved {
                Ok(()) => {}
                // Another server sharing the database moved the game on meanwhile: it is
                // read back from the database when it is next asked for.
                Err(WriteError::Stale(e)) => {
                    tracing::warn!(game = %id, "the game changed elsewhere as the server started: {e}");
                    hub.rooms().remove(&id);
                }
                Err(WriteError::Failed(e)) => {
                    anyhow::bail!("cannot store the resumed clocks: {e}")
                }
            }
        }
        tokio::spawn(end_expired(Arc::downgrade(&hub.inner)));
        Ok(hub)
    }

    /// Milliseconds since the epoch by the server's time source.
    fn now(&self) -> i64 {
        self.inner.time.now_ms()
    }

    /// The server's time source.
    pub fn time(&self) -> &TimeSource {
        &self.inner.time
    }

    /// Games being played, in memory.
    pub fn live_games(&self) -> usize {
        self.rooms().len()
    }

    /// The server's metrics.
    pub fn metrics(&self) -> &Metrics {
        &self.inner.metrics
    }

    /// The database.
    pub fn database(&self) -> &Store {
        &self.inner.store
    }

    /// The error for a failed read or write of the database, counted.
    /// The error for a write the store did not make: a failure of the database, or a state
    /// of the game that another server changed meanwhile (the room is then read back).
    fn write_error(&self, e: WriteError) -> Error {
        match e {
            WriteError::Failed(e) => self.storage_error(StorageOp::Write, e),
            WriteError::Stale(e) => {
                Error::conflict(format!("the game changed elsewhere, read it again: {e}"))
            }
        }
    }

    fn storage_error(&self, op: StorageOp, e: impl std::fmt::Display) -> Error {
        self.inner.metrics.storage_failed(op);
        Error::storage(format!("the database is not answering: {e}"))
    }

    /// Counts an error answered to a caller, and logs it if it is a failure of the server
    /// rather than a refusal of the request: one line, naming the game if there is one.
    /// Changes call it on their own task, so that it runs even if the caller has hung up.
    fn seen<T>(&self, game: Option<&str>, result: Result<T, Error>) -> Result<T, Error> {
        if let Err(e) = &result {
            self.failed(game, e);
        }
        result
    }

    /// Counts error `e`, of game `game` if it has one, and logs it if it is a failure.
    fn failed(&self, game: Option<&str>, e: &Error) {
        self.inner.metrics.error(e.kind);
        if matches!(e.kind, ErrorKind::Storage | ErrorKind::Internal) {
            let kind = e.kind.name();
            match game {
                Some(game) => tracing::error!(game = %game, kind, "{e}"),
                None => tracing::error!(kind, "{e}"),
            }
        }
    }

    /// Runs `work`, a change of game `game` (if it has one yet), on a task of its own and
    /// waits for its result. The work goes on to its end even if the caller is dropped (a
    /// client that hangs up while its change is being stored): a change is stored, applied,
    /// broadcast and followed up whole, whatever the caller does. A panic of the work is
    /// answered and logged as an internal error of the game.
    async fn detached<T: Send + 'static>(
        &self,
        game: Option<&str>,
        work: impl Future<Output = Result<T, Error>> + Send + 'static,
    ) -> Result<T, Error> {
        tokio::spawn(work).await.unwrap_or_else(|e| {
            let e = Error::internal(format!("the change failed and was not made: {e}"));
            self.failed(game, &e);
            Err(e)
        })
    }

    /// Moves a game that cannot be restored out of the way, so that it never blocks the
    /// server, and says so.
    async fn set_aside(&self, id: &str, why: &str) {
        tracing::error!(game = %id, "game cannot be restored and is set aside: {why}");
        if let Err(e) = self.inner.store.set_aside(id, why).await {
            tracing::error!(game = %id, "cannot set the game aside: {e}");
        }
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
        let glance = Glance::of(&room, &self.inner.lifetimes);
        let cell = match self.rooms().entry(room.id.clone()) {
            Entry::Occupied(held) => return held.get().clone(),
            Entry::Vacant(free) => free.insert(RoomCell::new(room, glance)).clone(),
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
    pub async fn room(&self, id: &str) -> Result<Arc<RoomCell>, Error> {
        let found = self.rooms().get(id).cloned();
        if let Some(cell) = found.or_else(|| self.finished().get(id)) {
            return Ok(cell);
        }
        let valid = !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_hexdigit());
        let room = if valid { self.load(id).await? } else { None };
        let room = room.ok_or_else(|| Error::not_found(format!("no game `{id}`")))?;
        if !room.is_live() {
            // Finished games change little (a rematch): kept only while in use.
            return Ok(self.finished().keep(room));
        }
        Ok(self.insert(room))
    }

    /// Game `id` as the database holds it.
    async fn load(&self, id: &str) -> Result<Option<Room>, Error> {
        let loaded = self.inner.store.load(id).await;
        let Some(stored) = loaded.map_err(|e| self.storage_error(StorageOp::Read, e))? else {
            return Ok(None);
        };
        let now = self.now();
        Room::from_stored(stored, now, now)
            .map(Some)
            .map_err(|e| Error::internal(format!("game {id} cannot be restored: {e}")))
    }

    /// Locks the room of `cell`, first reading it back from the database if a change to it
    /// was cut short; everyone watching is then sent the state as it truly is.
    async fn lock<'a>(
        &self,
        cell: &'a Arc<RoomCell>,
    ) -> Result<tokio::sync::MutexGuard<'a, Room>, Error> {
        let mut room = cell.room.lock().await;
        if cell.stale.load(Ordering::Acquire) {
            let id = room.id.clone();
            let truth = self
                .load(&id)
                .await?
                .ok_or_else(|| Error::internal(format!("game {id} is gone from the database")))?;
            tracing::warn!(game = %id, seq = truth.seq, "game read back from the database");
            *room = truth;
            cell.stale.store(false, Ordering::Release);
            let _ = cell
                .events
                .send(state_message(&room, self.now(), &[]).into());
            self.follow_up(cell, &room);
        }
        Ok(room)
    }

    /// The one way a game changes: `op` changes the room in place, or refuses and changes
    /// nothing; the change is stored, and only once it is committed told to everyone, with
    /// what follows from it started. If it cannot be stored (or is cut short), the room is
    /// marked stale, so that it is read back from the database before it is used again.
    async fn apply(
        &self,
        cell: &Arc<RoomCell>,
        room: &mut Room,
        op: impl FnOnce(&mut Room) -> Result<Change, Error>,
    ) -> Result<Change, Error> {
        let unfinished = Unfinished(cell);
        let checked = Instant::now();
        let change = match op(room) {
            Ok(change) => change,
            Err(refused) => {
                unfinished.done();
                return Err(refused);
            }
        };
        // The error is logged by whoever is answered with it.
        self.store(room, change).await?;
        let metrics = &self.inner.metrics;
        metrics.committed(change, checked.elapsed());
        self.announce(cell, room, change);
        metrics.broadcast(change, checked.elapsed());
        unfinished.done();
        Ok(change)
    }

    /// Stores the change that made `room`, returning once it is committed: a move that
    /// leaves the game running as a pending move, anything else as the whole room.
    async fn store(&self, room: &Room, change: Change) -> Result<(), Error> {
        let store = &self.inner.store;
        match room.pending_move(change) {
            Some(m) => store.save_move(m).await,
            None => {
                store
                    .save(
                        &room.id,
                        room.seq,
                        room.stored_json(),
                        room.is_live(),
                        room.updated_ms,
                    )
                    .await
            }
        }
        .map_err(|e| self.write_error(e))
    }

    /// Tells everyone of the stored change that made `room`, and starts what follows from it.
    fn announce(&self, cell: &Arc<RoomCell>, room: &Room, change: Change) {
        let detail = match change {
            Change::Move => json!({ "move": room.game.moves().last().map(|m| m.to_string()) }),
            Change::Joined(colour) => json!({ "colour": colour_name(colour) }),
            Change::Rematch => json!({ "game": room.rematch }),
            _ => Value::Null,
        };
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
        let _ = serde_json::to_writer(&mut msg, &detail);
        msg.extend_from_slice(br#","state":"#);
        room.write_snapshot(&mut msg, self.now(), &[]);
        msg.push(b'}');
        let _ = cell.events.send(json_text(msg).into());
        self.follow_up(cell, room);
    }

    /// Starts what follows from the room's new state: the clock timer looks at its deadline
    /// again, a finished game leaves memory, the computer is asked for its move.
    fn follow_up(&self, cell: &Arc<RoomCell>, room: &Room) {
        *cell.glance() = Glance::of(room, &self.inner.lifetimes);
        cell.clock_changed.notify_one();
        if !room.is_live() {
            // A finished game changes little more: let it leave memory once its watchers go;
            // it is read back from the database if asked for.
            self.rooms().remove(&room.id);
            self.finished().hold(cell);
        }
        if room.computer_to_move().is_some() {
            tokio::spawn(self.clone().play_computer(cell.clone(), room.seq));
        }
    }

    /// Creates a game, returning the creator's seat.
    pub async fn create(&self, req: NewGame) -> Result<SeatGrant, Error> {
        let hub = self.clone();
        self.detached(None, async move {
            let created = hub.create_now(req).await;
            hub.seen(None, created)
        })
        .await
    }

    async fn create_now(&self, req: NewGame) -> Result<SeatGrant, Error> {
        let (token, game, seats, clock) = new::build(&req)?;
        let now = self.now();
        let room = Room::new(random_hex::<8>(), req.mode, game, seats, clock, now);
        self.inner
            .store
            .save(&room.id, room.seq, room.stored_json(), room.is_live(), now)
            .await
            .map_err(|e| self.write_error(e))?;
        let colours = room.holder(Some(&token));
        let grant = SeatGrant {
            id: room.id.clone(),
            token,
            colours: colours.iter().copied().map(colour_name).collect(),
            invite: room.invite.clone(),
            state: room.snapshot(now, &colours),
        };
        self.insert(room);
        Ok(grant)
    }

    /// Gives the open seat of game `id` to the caller, who shows the game's invitation;
    /// `request` is the id the caller gave this request, so that a repeat of it (its answer
    /// was lost) gets the same seat.
    pub async fn join(
        &self,
        id: &str,
        name: &str,
        invite: Option<&str>,
        request: Option<&str>,
    ) -> Result<SeatGrant, Error> {
        let (hub, game, name) = (self.clone(), id.to_owned(), name.to_owned());
        let (invite, request) = (invite.map(str::to_owned), request.map(str::to_owned));
        self.detached(Some(id), async move {
            let joined = hub
                .join_now(&game, &name, invite.as_deref(), request.as_deref())
                .await;
            hub.seen(Some(&game), joined)
        })
        .await
    }

    async fn join_now(
        &self,
        id: &str,
        name: &str,
        invite: Option<&str>,
        request: Option<&str>,
    ) -> Result<SeatGrant, Error> {
        let cell = self.room(id).await?;
        let mut room = self.lock(&cell).await?;
        let now = self.now();
        if let Some(colour) = invite.and_then(|i| room.repeated_join(i, request, now)) {
            return Ok(SeatGrant {
                id: id.to_owned(),
                token: room.seats[colour.index()]
                    .token()
                    .unwrap_or_default()
                    .to_owned(),
                colours: vec![colour_name(colour)],
                invite: None,
                state: room.snapshot(now, &[colour]),
            });
        }
        let token = random_hex::<16>();
        let change = self
            .apply(&cell, &mut room, |r| {
                r.join(token.clone(), name, invite, request, now)
                    .map(Change::Joined)
            })
            .await?;
        let Change::Joined(colour) = change else {
            return Err(Error::internal("a join made another change"));
        };
        Ok(SeatGrant {
            id: id.to_owned(),
            token,
            colours: vec![colour_name(colour)],
            invite: None,
            state: room.snapshot(now, &[colour]),
        })
    }

    /// The state of game `id` as the holder of `token` sees it.
    pub async fn state(&self, id: &str, token: Option<&str>) -> Result<Value, Error> {
        self.seen(Some(id), self.state_now(id, token).await)
    }

    async fn state_now(&self, id: &str, token: Option<&str>) -> Result<Value, Error> {
        let cell = self.room(id).await?;
        let room = self.lock(&cell).await?;
        Ok(room.snapshot(self.now(), &room.holder(token)))
    }

    /// Carries out `request` for the holder of `token`, returning the number of the state it
    /// made and, if `want_state`, that state as the caller sees it (JSON text). A request
    /// that names the state it was made on and was carried out already gets the first
    /// outcome again. A refusal changes nothing (except that a side found out of time loses
    /// first).
    pub async fn act(
        &self,
        id: &str,
        token: Option<&str>,
        request: Request,
        want_state: bool,
    ) -> Result<(u64, Option<String>), Error> {
        let (hub, game) = (self.clone(), id.to_owned());
        let token = token.map(str::to_owned);
        self.detached(Some(id), async move {
            let done = hub
                .act_now(&game, token.as_deref(), request, want_state)
                .await;
            hub.seen(Some(&game), done)
        })
        .await
    }

    async fn act_now(
        &self,
        id: &str,
        token: Option<&str>,
        request: Request,
        want_state: bool,
    ) -> Result<(u64, Option<String>), Error> {
        let cell = self.room(id).await?;
        let mut room = self.lock(&cell).await?;
        let now = self.now();
        let colours = room.holder(token);
        let answered = request
            .seq
            .and_then(|made_on| room.answered(&colours, &request.action, made_on));
        let seq = match answered {
            Some(first) => first?,
            None if room.flag_fell(now) => {
                self.apply(&cell, &mut room, |r| {
                    r.check_flag(now);
                    Ok(Change::Timeout)
                })
                .await?;
                let outcome = room.game.outcome().map(|o| o.to_string());
                return Err(Error::conflict(format!(
                    "the game is over: {}",
                    outcome.unwrap_or_default()
                )));
            }
            None if request.action == Action::Rematch => {
                self.rematch(&cell, &mut room, &colours, now).await?
            }
            None => {
                self.apply(&cell, &mut room, |r| r.act(&colours, &request.action, now))
                    .await?;
                room.seq
            }
        };
        let state = want_state.then(|| room.snapshot_json(now, &colours));
        Ok((seq, state))
    }

    /// Subscribes to game `id`: its current state as a `state` message, the colours the
    /// holder of `token` holds, and every later event, with no gap between the state and
    /// the events (both are taken under the game's lock).
    pub async fn subscribe(&self, id: &str, token: Option<&str>) -> Result<Following, Error> {
        let subscribed = async {
            let cell = self.room(id).await?;
            let room = self.lock(&cell).await?;
            let you = room.holder(token);
            Ok(Following {
                state: state_message(&room, self.now(), &you),
                you,
                events: cell.events.subscribe(),
                cell: cell.clone(),
            })
        };
        self.seen(Some(id), subscribed.await)
    }

    /// The state of game `id` as the holder of `token` sees it, as a `state` message.
    pub async fn state_message(&self, id: &str, token: Option<&str>) -> Result<String, Error> {
        let message = async {
            let cell = self.room(id).await?;
            let room = self.lock(&cell).await?;
            Ok(state_message(&room, self.now(), &room.holder(token)))
        };
        self.seen(Some(id), message.await)
    }

    /// The positions of game `id` after each move, for review.
    pub async fn replay(&self, id: &str) -> Result<Value, Error> {
        let replay = async {
            let cell = self.room(id).await?;
            let room = self.lock(&cell).await?;
            Ok(replay_json(&room.game))
        };
        self.seen(Some(id), replay.await)
    }

    /// Game `id` as its pictures and link preview show it.
    pub async fn shared(&self, id: &str) -> Result<Shared, Error> {
        let shared = async {
            let cell = self.room(id).await?;
            let room = self.lock(&cell).await?;
            Ok(Shared {
                game: room.game.clone(),
                names: [
                    room.seats[0].name().to_owned(),
                    room.seats[1].name().to_owned(),
                ],
                live: room.is_live(),
            })
        };
        self.seen(Some(id), shared.await)
    }

    /// The record of game `id`.
    pub async fn record(&self, id: &str) -> Result<String, Error> {
        self.seen(Some(id), self.record_now(id).await)
    }

    async fn record_now(&self, id: &str) -> Result<String, Error> {
        let cell = self.room(id).await?;
        let room = self.lock(&cell).await?;
        let date = chrono_date(room.created_ms);
        let mut record = Record::from_game(
            room.game.clone(),
            room.seats[0].name(),
            room.seats[1].name(),
            &date,
        );
        record.set_tag("Site", &format!("punct game {}", room.id));
        Ok(record.to_string())
    }

    /// The 50 most recently changed live games (all of which are in memory), then the 50
    /// most recently finished (read from the database, so that listing old games does not
    /// bring them back into memory), each newest first. Friend games whose open seat waits
    /// for the invited friend are not listed. The live games' lines are those written at
    /// their last change: listing locks no game and writes no line.
    pub async fn list(&self) -> Result<Value, Error> {
        self.seen(None, self.list_now().await)
    }

    async fn list_now(&self) -> Result<Value, Error> {
        let mut live: Vec<Arc<Summary>> = {
            let rooms = self.rooms();
            rooms
                .values()
                .filter_map(|cell| cell.glance().listed.clone())
                .collect()
        };
        let newest_first = |s: &Arc<Summary>| std::cmp::Reverse(s.updated_ms);
        if live.len() > LISTED {
            live.select_nth_unstable_by_key(LISTED, newest_first);
            live.truncate(LISTED);
        }
        live.sort_by_key(newest_first);
        let finished = self
            .inner
            .store
            .finished(LISTED)
            .await
            .map_err(|e| self.storage_error(StorageOp::Read, e))?;
        let finished = finished.iter().map(Stored::summary);
        let games: Vec<Summary> = live
            .iter()
            .map(|s| Summary::clone(s))
            .chain(finished)
            .collect();
        Ok(json!({ "games": games }))
    }

    /// The engine pool, for analysis.
    pub fn engine(&self) -> &EnginePool {
        &self.inner.engine
    }

    /// Ends the game on time when the side to move's clock runs out.
    async fn watch_clock(self, cell: Arc<RoomCell>) {
        let mut outage = Outage::new("the game's clock timer");
        loop {
            let deadline = match self.lock(&cell).await {
                Ok(room) if !room.is_live() => return,
                Ok(room) => {
                    outage.worked(Some(&cell.id));
                    room.clock.as_ref().and_then(|c| c.deadline(room.turn()))
                }
                Err(e) => {
                    self.retrying(&mut outage, &cell.id, &e);
                    Some(self.now() + RETRY.as_millis() as i64)
                }
            };
            match deadline {
                None => cell.clock_changed.notified().await,
                Some(d) => {
                    tokio::select! {
                        () = self.inner.time.sleep_until(d) => {}
                        () = cell.clock_changed.notified() => continue,
                    }
                }
            }
            // A failure to read the room back is logged by the next turn's lock.
            let Ok(mut room) = self.lock(&cell).await else {
                continue;
            };
            let now = self.now();
            if room.flag_fell(now) {
                let flag = |r: &mut Room| {
                    r.check_flag(now);
                    Ok(Change::Timeout)
                };
                if let Err(e) = self.apply(&cell, &mut room, flag).await {
                    drop(room);
                    self.retrying(&mut outage, &cell.id, &e);
                    tokio::time::sleep(RETRY).await;
                }
            }
        }
    }

    /// Asks the engine for the computer's move in the state numbered `seq`, and plays it if
    /// nothing has changed meanwhile.
    ///
    /// Boxed because storing the move may schedule the next search: the future refers to
    /// itself through `apply`, and a named type lets the compiler see it is `Send`.
    fn play_computer(self, cell: Arc<RoomCell>, seq: u64) -> BoxFuture {
        Box::pin(async move { self.computer_move(cell, seq).await })
    }

    async fn computer_move(self, cell: Arc<RoomCell>, seq: u64) {
        let (game, level, clock) = {
            let room = match self.lock(&cell).await {
                Ok(room) => room,
                Err(e) => return self.read_back(&cell, &e).await,
            };
            let Some(level) = room.computer_to_move().filter(|_| room.seq == seq) else {
                return;
            };
            let clock = room.clock.as_ref().and_then(|c| {
                Some(ComputerClock {
                    deadline_ms: c.deadline(room.turn())?,
                    increment_ms: c.increment_ms,
                })
            });
            (room.game.clone(), level, clock)
        };
        // Asked by the engine thread as the search starts: a game that changed while its
        // search waited (a takeback, a resignation, a flag) no longer wants it. A room being
        // changed right then is taken to still want it; the move is checked again below.
        let waiting = cell.clone();
        let wanted = move || waiting.room.try_lock().map_or(true, |r| r.seq == seq);
        let result = match self.inner.engine.search(game, level, clock, wanted).await {
            Ok(Some(r)) => r,
            Ok(None) => return,
            Err(e) => {
                self.inner.metrics.error(e.kind);
                tracing::error!(game = %cell.id, "computer move failed: {e}");
                punct_engine::SearchResult::default()
            }
        };
        let mut room = match self.lock(&cell).await {
            Ok(room) => room,
            Err(e) => return self.read_back(&cell, &e).await,
        };
        if room.seq != seq {
            return;
        }
        // An engine that finds nothing (or fails) must not leave the game stuck.
        let fallback = || room.game.position().legal_moves().first().copied();
        let Some(mv) = result.best_move.or_else(fallback) else {
            tracing::error!(game = %room.id, "no move for the computer in a live game");
            return;
        };
        let now = self.now();
        let play = |r: &mut Room| {
            if r.check_flag(now) {
                Ok(Change::Timeout)
            } else {
                r.play_computer(mv, now)
            }
        };
        match self.apply(&cell, &mut room, play).await {
            Ok(_) => {}
            Err(e) if e.kind == ErrorKind::Storage => {
                drop(room);
                self.read_back(&cell, &e).await;
            }
            Err(e) => {
                self.inner.metrics.error(e.kind);
                tracing::error!(game = %room.id, "the engine's move {mv} was refused: {e}");
            }
        }
    }

    /// Waits until the stale room of `cell` can be read back from the database. Reading it
    /// back starts what follows from its state (the computer's search among it), so a
    /// computer move that could not be stored is looked for again then, unless the database
    /// committed it after all.
    async fn read_back(&self, cell: &Arc<RoomCell>, failure: &Error) {
        let mut outage = Outage::new("the computer's move");
        self.retrying(&mut outage, &cell.id, failure);
        loop {
            tokio::time::sleep(RETRY).await;
            match self.lock(cell).await {
                Ok(_) => return outage.worked(Some(&cell.id)),
                Err(e) => self.retrying(&mut outage, &cell.id, &e),
            }
        }
    }

    /// A background task of game `id` failed with `e` and will try again: counted, and
    /// logged if it is the first failure of a run.
    fn retrying(&self, outage: &mut Outage, id: &str, e: &Error) {
        self.inner.metrics.error(e.kind);
        outage.failed(Some(id), e);
    }
}

/// Ends, without a result, the games that have waited longer than the server's lifetimes
/// allow (a side that never made its first move, an invitation nobody took up, a game
/// nobody played on), looking every `check_every` until the hub is gone. Each goes the one
/// way a change goes ([`Hub::apply`]).
async fn end_expired(hub: Weak<Inner>) {
    let Some((lifetimes, mut time_moved)) = hub
        .upgrade()
        .map(|inner| (inner.lifetimes, inner.time.changed()))
    else {
        return;
    };
    // An interval of zero would panic.
    let mut every = tokio::time::interval(lifetimes.check_every.max(Duration::from_millis(1)));
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        // The time source moving on (a test's clock) is a moment to look too.
        tokio::select! {
            _ = every.tick() => {}
            () = time_moved.next() => {}
        }
        let Some(inner) = hub.upgrade() else {
            return;
        };
        let hub = Hub { inner };
        let now = hub.now();
        let due: Vec<Arc<RoomCell>> = hub
            .rooms()
            .values()
            .filter(|cell| cell.glance().expires_ms.is_some_and(|at| at <= now))
            .cloned()
            .collect();
        for cell in due {
            let Ok(mut room) = hub.lock(&cell).await else {
                continue;
            };
            let expire = |r: &mut Room| r.expire(hub.now(), &lifetimes);
            match hub.apply(&cell, &mut room, expire).await {
                Err(e) if e.kind != ErrorKind::Conflict => {
                    tracing::warn!(game = %cell.id, "cannot end the game that waited too long: {e}");
                }
                _ => {}
            }
        }
    }
}
