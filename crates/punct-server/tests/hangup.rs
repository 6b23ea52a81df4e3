//! A client that goes away never leaves a half-done action. Every action of every kind is
//! started and its caller dropped (the caller's future is what a client hanging up drops)
//! before its first poll, then after 0, 10, 20 … µs of the server's work on it, until it
//! has finished, so that the drop falls at each of the action's await points in turn. Afterwards the action has either
//! changed nothing, or been carried out whole: stored (the database holds exactly what
//! memory holds), broadcast to the game's watchers, and followed up (the computer replies).

mod common;

use std::future::Future;
use std::path::Path;
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::task::Poll;
use std::time::{Duration, Instant};

use futures_util::FutureExt as _;
use punct_server::engine::EnginePool;
use punct_server::games::{Announced, Announcement, Hub};
use punct_server::ops::time::TimeSource;
use punct_server::room::new::NewGame;
use punct_server::room::{Action, Audience, Lifetimes, Request, Room, Snapshot, Stored};
use punct_server::store::Store;
use punct_server::wire::view::GameState;
use serde_json::{Value, json};
use tokio::sync::broadcast::Receiver;
use tokio::sync::broadcast::error::TryRecvError;

/// The hub and the store beneath it, to compare what memory holds with what is stored.
struct Server {
    hub: Hub,
    store: Store,
}

async fn server(db: &Path) -> Server {
    let store = Store::open::<Stored>(db, TimeSource::system()).unwrap();
    let engine = EnginePool::new(1, 16, 4, Duration::from_millis(20), TimeSource::system());
    let hub = Hub::start(
        store.clone(),
        engine,
        Lifetimes::default(),
        TimeSource::system(),
    )
    .await
    .unwrap();
    Server { hub, store }
}

fn new_game(body: Value) -> NewGame {
    serde_json::from_value(body).unwrap()
}

/// A game's state as a watcher sees it, without the clock's running figures.
fn comparable(mut state: Value) -> Value {
    state.as_object_mut().unwrap().remove("clock");
    state
}

/// `snapshot` as `audience` sees it at `now`, as JSON.
fn json_of(snapshot: &Snapshot, audience: Audience, now: i64) -> Value {
    serde_json::to_value(GameState::of(snapshot, audience, now)).unwrap()
}

/// Game `id` as the holder of `token` sees it in memory.
async fn state(s: &Server, id: &str, token: Option<&str>) -> Value {
    let viewed = s.hub.state(id, token, None).await.unwrap();
    json_of(&viewed.snapshot, viewed.audience, viewed.now)
}

/// What the database holds of game `id`, as a watcher would see it.
async fn stored_state(s: &Server, id: &str) -> Option<Value> {
    let stored = s.store.load::<Stored>(id).await.unwrap()?;
    let now = TimeSource::system().now_ms();
    let room = Room::from_stored(stored, now, now).unwrap();
    Some(comparable(json_of(
        &Snapshot::of(&room, now),
        Audience::Watcher,
        now,
    )))
}

/// Waits until memory and the database agree on game `id` (a change still being stored is
/// let finish), and returns the state; fails if they never agree.
async fn settled(s: &Server, id: &str) -> Value {
    let mut last = (Value::Null, None);
    for _ in 0..200 {
        let memory = comparable(state(s, id, None).await);
        let stored = stored_state(s, id).await;
        if stored.as_ref() == Some(&memory) {
            return memory;
        }
        last = (memory, stored);
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!(
        "memory and the database disagree on game {id}:\nmemory {}\nstored {:?}",
        last.0, last.1
    );
}

/// Waits until game `id` has changed from state `seq` and memory and the database agree on
/// it; fails if it does not change within 10 s.
async fn changed(s: &Server, id: &str, seq: u64) -> Value {
    for _ in 0..1000 {
        let state = settled(s, id).await;
        if state["seq"].as_u64() != Some(seq) {
            return state;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("game {id}: an action the server had begun was never finished");
}

/// Polls `work` once, lets the server work on it for `wait` (busy-waiting: the server's
/// tasks run on the runtime's worker threads meanwhile), polls it again and drops it: returns
/// whether it had finished. Waits from 0 up to the action's whole length put the drop at
/// each of its await points in turn (taking the game's lock, waiting for the commit, …).
async fn poll_then_drop<T>(work: impl Future<Output = T>, wait: Duration) -> bool {
    let mut work = pin!(work);
    if std::future::poll_fn(|cx| Poll::Ready(work.as_mut().poll(cx).is_ready())).await {
        return true;
    }
    let start = Instant::now();
    while start.elapsed() < wait {
        std::hint::spin_loop();
    }
    std::future::poll_fn(|cx| Poll::Ready(work.as_mut().poll(cx).is_ready())).await
}

/// The events a watcher received, by seq and name.
fn events(rx: &mut Receiver<Arc<Announcement>>) -> Vec<(u64, String)> {
    let mut seen = Vec::new();
    loop {
        match rx.try_recv() {
            Ok(announcement) => {
                if let Announced::Change(change) = announcement.what {
                    seen.push((announcement.snapshot.seq, change.name().to_owned()));
                }
            }
            Err(TryRecvError::Empty | TryRecvError::Closed) => return seen,
            Err(e) => panic!("{e}"),
        }
    }
}

/// One kind of action: how its game is made ready, and the action itself.
struct Case {
    name: &'static str,
    /// The game to create.
    game: Value,
    /// Actions carried out first (by the creator's token), to reach the state the case needs.
    before: Vec<Action>,
    /// Whether a second person joins first (friend games).
    joined: bool,
    /// The action (`None`: joining, with the invitation), and whether it is asked by the
    /// joiner rather than the creator.
    action: Option<Action>,
    by_joiner: bool,
    /// The event the action makes, and whether the computer replies to it.
    event: &'static str,
    computer_replies: bool,
}

fn mv(text: &str) -> Action {
    Action::Move { text: text.into() }
}

fn cases() -> Vec<Case> {
    let friend = json!({ "mode": "friend", "clock": { "minutes": 10, "increment": 1 } });
    let case = |name, game: &Value, before: Vec<Action>, joined, action, by_joiner, event| Case {
        name,
        game: game.clone(),
        before,
        joined,
        action: Some(action),
        by_joiner,
        event,
        computer_replies: false,
    };
    vec![
        Case {
            action: None,
            ..case(
                "join",
                &friend,
                vec![],
                false,
                Action::Resign,
                false,
                "joined",
            )
        },
        case(
            "move (friend)",
            &friend,
            vec![],
            true,
            mv("TE4:0"),
            false,
            "move",
        ),
        case(
            "move (local)",
            &json!({ "mode": "local" }),
            vec![],
            false,
            mv("TE4:0"),
            false,
            "move",
        ),
        Case {
            computer_replies: true,
            ..case(
                "move (computer)",
                &json!({ "mode": "computer", "level": 1, "clock": { "minutes": 5, "increment": 0 } }),
                vec![],
                false,
                mv("TE4:0"),
                false,
                "move",
            )
        },
        case(
            "resign",
            &friend,
            vec![mv("TE4:0")],
            true,
            Action::Resign,
            true,
            "resign",
        ),
        case(
            "offer draw",
            &friend,
            vec![mv("TE4:0")],
            true,
            Action::OfferDraw,
            false,
            "draw_offer",
        ),
        case(
            "accept draw",
            &friend,
            vec![mv("TE4:0"), Action::OfferDraw],
            true,
            Action::OfferDraw,
            true,
            "draw",
        ),
        case(
            "decline draw",
            &friend,
            vec![mv("TE4:0"), Action::OfferDraw],
            true,
            Action::DeclineDraw,
            true,
            "draw_declined",
        ),
        case(
            "ask takeback",
            &friend,
            vec![mv("TE4:0")],
            true,
            Action::Takeback,
            false,
            "takeback_request",
        ),
        case(
            "grant takeback",
            &friend,
            vec![mv("TE4:0"), Action::Takeback],
            true,
            Action::Takeback,
            true,
            "takeback",
        ),
        case(
            "decline takeback",
            &friend,
            vec![mv("TE4:0"), Action::Takeback],
            true,
            Action::DeclineTakeback,
            true,
            "takeback_declined",
        ),
        case(
            "takeback (local)",
            &json!({ "mode": "local" }),
            vec![mv("TE4:0")],
            false,
            Action::Takeback,
            false,
            "takeback",
        ),
        case(
            "takeback (computer)",
            &json!({ "mode": "computer", "level": 1 }),
            vec![mv("TE4:0")],
            false,
            Action::Takeback,
            false,
            "takeback",
        ),
    ]
}

/// A game made ready for `case`: its id, and the token that acts (for joining: the
/// invitation).
async fn prepare(s: &Server, case: &Case) -> (String, String) {
    let grant = s
        .hub
        .create(new_game(case.game.clone()), None)
        .await
        .unwrap();
    let (id, creator) = (grant.id.clone(), grant.token.clone());
    let joiner = if case.joined {
        s.hub
            .join(&id, "Bo", None, grant.invite.as_deref(), None)
            .await
            .unwrap()
            .token
    } else {
        String::new()
    };
    // Against the computer playing White, wait for its first move (and for the reply to
    // each move made first).
    let computer_moves =
        |state: &Value| state["mode"] == "computer" && state["turn"] != state["you"][0];
    for action in &case.before {
        let mut state = state(s, &id, Some(&creator)).await;
        while computer_moves(&state) {
            tokio::time::sleep(Duration::from_millis(10)).await;
            state = self::state(s, &id, Some(&creator)).await;
        }
        // Moves are made by whoever is to move, offers by the creator.
        let by_joiner =
            matches!(action, Action::Move { .. }) && case.joined && state["turn"] == "black";
        let token = if by_joiner { &joiner } else { &creator };
        s.hub
            .act(&id, Some(token), None, Request::from(action.clone()), false)
            .await
            .unwrap();
    }
    loop {
        let state = state(s, &id, Some(&creator)).await;
        let waiting_for_computer = computer_moves(&state) && state["outcome"].is_null();
        if !waiting_for_computer {
            settled(s, &id).await;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let token = match (&case.action, case.by_joiner) {
        (None, _) => grant.invite.clone().expect("a friend game's invitation"),
        (Some(_), true) => joiner,
        (Some(_), false) => creator,
    };
    (id, token)
}

/// The step between two moments of hanging up.
const STEP: Duration = Duration::from_micros(10);

/// How far the moments of hanging up reach at least: beyond the whole of an action on an
/// idle machine (a commit to SQLite takes well under a millisecond).
const SWEEP: Duration = Duration::from_micros(1500);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_whose_caller_hangs_up_is_done_whole_or_not_at_all() {
    let db = common::temp_db("hangup");
    let s = server(&db).await;
    let mut outcomes = Vec::new();
    for case in cases() {
        let mut polls: u32 = 0;
        let (mut whole, mut none, mut finished_in_a_row) = (0, 0, 0);
        loop {
            let (id, token) = prepare(&s, &case).await;
            let before = settled(&s, &id).await;
            let seq = before["seq"].as_u64().unwrap();
            let mut watcher = s
                .hub
                .subscribe(&id, None, None)
                .await
                .unwrap()
                .announcements;
            let request = Request {
                action: case.action.clone().unwrap_or(Action::Resign),
                seq: Some(seq),
            };
            let work: Pin<Box<dyn Future<Output = ()> + Send>> = match case.action {
                Some(_) => Box::pin(s.hub.act(&id, Some(&token), None, request, true).map(drop)),
                None => Box::pin(s.hub.join(&id, "Bo", None, Some(&token), None).map(drop)),
            };
            // The first time, the caller is gone before the action is first polled.
            let wait = STEP * polls.saturating_sub(1);
            if polls == 0 {
                drop(work);
                // Never polled, the action never reached the server: nothing may change.
                tokio::time::sleep(Duration::from_millis(50)).await;
                let after = settled(&s, &id).await;
                assert_eq!(after, before, "{}: dropped before it began", case.name);
                assert_eq!(events(&mut watcher), [], "{}", case.name);
                none += 1;
            } else {
                // Once the server has the action it is carried out whole, however soon the
                // caller goes: stored (memory and database agree), broadcast, followed up.
                let finished = poll_then_drop(work, wait).await;
                let after = changed(&s, &id, seq).await;
                let now = after["seq"].as_u64().unwrap();
                let seen = events(&mut watcher);
                assert_eq!(
                    seen.first(),
                    Some(&(seq + 1, case.event.to_owned())),
                    "{}: dropped after {wait:?}",
                    case.name
                );
                if case.computer_replies {
                    let mut state = after;
                    for _ in 0..500 {
                        if state["seq"].as_u64() == Some(seq + 2) {
                            break;
                        }
                        tokio::time::sleep(Duration::from_millis(10)).await;
                        state = settled(&s, &id).await;
                    }
                    assert_eq!(
                        state["seq"],
                        seq + 2,
                        "{}: the computer never replied",
                        case.name
                    );
                    assert_eq!(state["turn"], "white", "{}", case.name);
                } else {
                    assert_eq!(now, seq + 1, "{}", case.name);
                }
                whole += 1;
                // Past the action's usual length, and until it has finished before the drop
                // five times in a row (a busy machine stretches it).
                finished_in_a_row = if finished { finished_in_a_row + 1 } else { 0 };
                if STEP * polls >= SWEEP && finished_in_a_row >= 5 {
                    break;
                }
            }
            polls += 1;
            assert!(polls < 5000, "{}: the action never finished", case.name);
        }
        assert!(
            none >= 1 && whole >= 1,
            "{}: {none} unchanged, {whole} whole",
            case.name
        );
        outcomes.push(format!(
            "{}: dropped at {} moments up to {:?}: {none} unchanged, {whole} whole",
            case.name,
            polls + 1,
            STEP * polls
        ));
    }
    eprintln!("{}", outcomes.join("\n"));
    std::fs::remove_dir_all(db.parent().unwrap()).ok();
}
