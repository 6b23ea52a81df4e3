//! The store: under a steady stream of writes, with moves kept pending, and two stores
//! writing one game at once on PostgreSQL.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use punct_core::{Game, Variant};
use punct_server::engine::EnginePool;
use punct_server::games::Hub;
use punct_server::ops::time::TimeSource;
use punct_server::room::clock::Clock;
use punct_server::room::{Action, Lifetimes, Mode, Room, Seat, Stored};
use punct_server::store::{CHECKPOINT_EVERY, FOLD_AT, Store};
use tokio::task::JoinHandle;

/// `count` games, each storing `data` again as soon as its last write is committed, until
/// `until`.
fn writers(store: &Store, count: usize, data: &str, until: Instant) -> Vec<JoinHandle<()>> {
    (0..count)
        .map(|i| {
            let (store, data) = (store.clone(), data.to_owned());
            tokio::spawn(async move {
                let mut n = 0;
                while Instant::now() < until {
                    store
                        .save(&format!("{i:016x}"), n as u64, data.clone(), true, n)
                        .await
                        .unwrap();
                    n += 1;
                }
            })
        })
        .collect()
}

/// SQLite's write-ahead log starts again from its beginning after each checkpoint, even
/// while writes never stop: its size is that of one checkpoint interval of writes, not of all
/// the writes so far (it once grew for as long as the server was busy).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_log_stays_bounded_under_steady_writes() {
    let path = common::temp_db("wal");
    let store = Store::open::<Stored>(&path, TimeSource::system()).unwrap();
    let wal = path.with_extension("db-wal");
    let start = Instant::now();
    // Measured after the first checkpoint interval and again after three: a log that grew
    // with the writes would be 2.6 times as long the second time.
    let early_at = CHECKPOINT_EVERY + Duration::from_secs(1);
    let late_at = 3 * CHECKPOINT_EVERY + Duration::from_secs(1);
    // 32 games writing as fast as the store takes them, each row a few KB like a long game.
    let data = format!("{{\"moves\":\"{}\"}}", "x".repeat(2000));
    let writers = writers(&store, 32, &data, start + late_at);
    tokio::time::sleep(early_at).await;
    let early = std::fs::metadata(&wal).unwrap().len();
    for w in writers {
        w.await.unwrap();
    }
    let late = std::fs::metadata(&wal).unwrap().len();
    assert!(
        late < early * 3 / 2,
        "the log grew from {early} bytes at {early_at:?} to {late} at {late_at:?}"
    );
    drop(store);
    std::fs::remove_dir_all(path.parent().unwrap()).ok();
}

/// The writer records that the server is alive at least once a second even when commits
/// never stop (the heartbeat rides with one of them), so that after a crash the clocks are
/// charged up to the last second before it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_heartbeat_keeps_up_under_steady_writes() {
    let path = common::temp_db("heartbeat");
    let store = Store::open::<Stored>(&path, TimeSource::system()).unwrap();
    let start = Instant::now();
    // Eight times as many writers as a commit takes: some are always queued when a commit
    // ends, so the writer is never idle (when it is, it writes the heartbeat alone).
    let writers = writers(&store, 2048, "{}", start + Duration::from_millis(3000));
    tokio::time::sleep(Duration::from_millis(2500)).await;
    // Read while the writes still go on.
    let alive: i64 = rusqlite::Connection::open(&path)
        .unwrap()
        .query_row("SELECT value FROM meta WHERE key = 'alive_ms'", [], |r| {
            r.get(0)
        })
        .unwrap();
    let age = TimeSource::system().now_ms() - alive;
    for w in writers {
        w.await.unwrap();
    }
    // A second, and room for a slow commit on a busy machine.
    assert!(age <= 1500, "the last heartbeat was {age} ms old");
    drop(store);
    std::fs::remove_dir_all(path.parent().unwrap()).ok();
}

fn pending_rows(path: &std::path::Path) -> i64 {
    rusqlite::Connection::open(path)
        .unwrap()
        .query_row("SELECT count(*) FROM pending_moves", [], |r| r.get(0))
        .unwrap()
}

fn stored_row(path: &std::path::Path, id: &str) -> serde_json::Value {
    let data: String = rusqlite::Connection::open(path)
        .unwrap()
        .query_row("SELECT data FROM games WHERE id = ?1", [id], |r| r.get(0))
        .unwrap();
    serde_json::from_str(&data).unwrap()
}

/// A timed friend game with both seats taken, after `plies` moves, each stored as a pending
/// move after the game itself was stored whole.
async fn game_with_pending_moves(store: &Store, plies: usize) -> Room {
    let mut room = Room::new(
        "00000000000000aa".into(),
        Mode::Friend,
        Game::new(Variant::Standard),
        [Seat::person("w", "tw"), Seat::person("b", "tb")],
        Some(Clock::new(60_000, 2_000)),
        1_000,
    );
    store
        .save(
            &room.id,
            room.seq,
            room.stored_json(),
            true,
            room.updated_ms,
        )
        .await
        .unwrap();
    for ply in 0..plies {
        let turn = room.turn();
        let mv = room.game.position().legal_moves()[ply * 7].to_string();
        let now = room.updated_ms + 1_500;
        let event = room.act(&[turn], &Action::Move { text: mv }, now).unwrap();
        store
            .save_move(room.pending_move(event).unwrap())
            .await
            .unwrap();
    }
    room
}

/// Moves that leave their game running are stored as small rows of what they changed, not as
/// the whole game again: reading the game applies them, and the next start folds them into
/// the game's own row.
#[tokio::test]
async fn pending_moves_are_read_with_their_game_and_folded_at_the_next_start() {
    let path = common::temp_db("pending");
    let store = Store::open::<Stored>(&path, TimeSource::system()).unwrap();
    let room = game_with_pending_moves(&store, 6).await;
    let expected = serde_json::to_value(room.to_stored()).unwrap();
    assert_eq!(pending_rows(&path), 6);
    assert_eq!(stored_row(&path, &room.id)["moves"], serde_json::json!([]));
    let loaded = store.load::<Stored>(&room.id).await.unwrap().unwrap();
    assert_eq!(serde_json::to_value(loaded).unwrap(), expected);
    let live = store.live_games::<Stored>().await.unwrap();
    assert_eq!(
        serde_json::to_value(live[0].as_ref().unwrap()).unwrap(),
        expected
    );
    drop(store);

    let store = Store::open::<Stored>(&path, TimeSource::system()).unwrap();
    assert_eq!(pending_rows(&path), 0);
    assert_eq!(stored_row(&path, &room.id), expected);
    let loaded = store.load::<Stored>(&room.id).await.unwrap().unwrap();
    assert_eq!(serde_json::to_value(loaded).unwrap(), expected);
    drop(store);
    std::fs::remove_dir_all(path.parent().unwrap()).ok();
}

/// A game whose pending moves do not follow its stored state (a damaged database) is set
/// aside at startup, whole with its pending moves and the reason, into `damaged_games` for
/// the operator: nothing of it is lost, and the server still starts.
#[tokio::test]
async fn a_game_whose_pending_moves_do_not_follow_it_is_set_aside() {
    let path = common::temp_db("pending-gap");
    let store = Store::open::<Stored>(&path, TimeSource::system()).unwrap();
    let room = game_with_pending_moves(&store, 3).await;
    drop(store);
    let before = stored_row(&path, &room.id);
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute(
            "DELETE FROM pending_moves WHERE seq = ?1",
            [before["seq"].as_i64().unwrap() + 2],
        )
        .unwrap();
    let store = Store::open::<Stored>(&path, TimeSource::system()).unwrap();
    assert_eq!(pending_rows(&path), 0);
    let (reason, data, pending): (String, String, String) = rusqlite::Connection::open(&path)
        .unwrap()
        .query_row(
            "SELECT reason, data, pending FROM damaged_games WHERE id = ?1",
            [&room.id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert!(reason.contains("does not follow"), "{reason}");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&data).unwrap(),
        before
    );
    let kept: Vec<serde_json::Value> = serde_json::from_str(&pending).unwrap();
    assert_eq!(kept.len(), 2);
    assert!(store.load::<Stored>(&room.id).await.unwrap().is_none());
    assert!(store.live_games::<Stored>().await.unwrap().is_empty());
    drop(store);
    std::fs::remove_dir_all(path.parent().unwrap()).ok();
}

/// A game's pending moves are folded into its own row while the server runs once there are
/// [`FOLD_AT`] of them, so that reading a game back never replays many moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_folded_while_the_server_runs() {
    let path = common::temp_db("pending-fold");
    let store = Store::open::<Stored>(&path, TimeSource::system()).unwrap();
    let room = game_with_pending_moves(&store, FOLD_AT as usize).await;
    let expected = serde_json::to_value(room.to_stored()).unwrap();
    // Folding follows the commit that answered the last write, or the next heartbeat.
    let deadline = Instant::now() + Duration::from_secs(5);
    while stored_row(&path, &room.id) != expected {
        assert!(Instant::now() < deadline, "the game was not folded");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(pending_rows(&path), 0);
    drop(store);
    std::fs::remove_dir_all(path.parent().unwrap()).ok();
}

/// Every write to a game names the state it was made on, and one made on a state other than
/// the stored one is refused without harm to the rest: a second server writing to the same
/// database (or a retry after a lost answer) can never overwrite a later state or leave a
/// gap in a game's moves.
#[tokio::test]
async fn a_write_made_on_another_state_than_the_stored_one_is_refused() {
    let path = common::temp_db("stale");
    let store = Store::open::<Stored>(&path, TimeSource::system()).unwrap();
    let mut room = game_with_pending_moves(&store, 2).await;
    let stale = room.clone();
    let expected = serde_json::to_value(room.to_stored()).unwrap();
    let mv = |room: &Room, ply: usize| {
        let text = room.game.position().legal_moves()[ply].to_string();
        Action::Move { text }
    };
    // Another copy of the game, as another server would hold it, moves on twice.
    let now = room.updated_ms + 1_000;
    let event = room.act(&[room.turn()], &mv(&room, 3), now).unwrap();
    store
        .save_move(room.pending_move(event).unwrap())
        .await
        .unwrap();
    let expected_after = serde_json::to_value(room.to_stored()).unwrap();
    assert_ne!(expected, expected_after);
    // The first copy's different move on the same state is refused...
    let mut other = stale.clone();
    let event = other.act(&[other.turn()], &mv(&other, 5), now).unwrap();
    let refused = store.save_move(other.pending_move(event).unwrap()).await;
    assert!(refused.unwrap_err().to_string().contains("does not follow"));
    // ...and so are its whole state after that move and the one before it.
    for copy in [&other, &stale] {
        let refused = store
            .save(&copy.id, copy.seq, copy.stored_json(), true, now)
            .await;
        assert!(refused.unwrap_err().to_string().contains("moved on"));
    }
    // A move that skips a state is refused too.
    let mut ahead = room.clone();
    let event = ahead.act(&[ahead.turn()], &mv(&ahead, 1), now).unwrap();
    let mut skipping = ahead.pending_move(event).unwrap();
    skipping.seq += 1;
    assert!(store.save_move(skipping).await.is_err());
    // Nothing of the stored game changed.
    let loaded = store.load::<Stored>(&room.id).await.unwrap().unwrap();
    assert_eq!(serde_json::to_value(loaded).unwrap(), expected_after);
    // The true state goes on as before.
    store
        .save_move(ahead.pending_move(event).unwrap())
        .await
        .unwrap();
    ahead.act(&[ahead.turn()], &mv(&ahead, 2), now).unwrap();
    store
        .save(&ahead.id, ahead.seq, ahead.stored_json(), true, now)
        .await
        .unwrap();
    assert_eq!(pending_rows(&path), 0);
    let loaded = store.load::<Stored>(&ahead.id).await.unwrap().unwrap();
    assert_eq!(
        serde_json::to_value(loaded).unwrap(),
        serde_json::to_value(ahead.to_stored()).unwrap()
    );
    drop(store);
    std::fs::remove_dir_all(path.parent().unwrap()).ok();
}

/// A database of the version before pending moves were keyed by game (rows numbered by the
/// server, games without a sequence number column) opens with every move in place.
#[tokio::test]
async fn a_database_of_the_earlier_layout_is_carried_over() {
    let path = common::temp_db("earlier");
    let store = Store::open::<Stored>(&path, TimeSource::system()).unwrap();
    let room = game_with_pending_moves(&store, 3).await;
    let quiet = Room::new(
        "00000000000000ac".into(),
        Mode::Friend,
        Game::new(Variant::Standard),
        [Seat::person("w", "tw"), Seat::person("b", "tb")],
        None,
        0,
    );
    store
        .save(&quiet.id, quiet.seq, quiet.stored_json(), true, 0)
        .await
        .unwrap();
    drop(store);
    let expected = serde_json::to_value(room.to_stored()).unwrap();
    // The earlier layout, holding the same rows.
    let db = rusqlite::Connection::open(&path).unwrap();
    db.execute_batch(
        "CREATE TABLE numbered (id INTEGER PRIMARY KEY, game TEXT NOT NULL, seq INTEGER NOT NULL,
             at_ms INTEGER NOT NULL, mover INTEGER NOT NULL, move TEXT NOT NULL, left_ms INTEGER);
         INSERT INTO numbered (game, seq, at_ms, mover, move, left_ms)
             SELECT game, seq, at_ms, mover, move, left_ms FROM pending_moves ORDER BY seq;
         DROP TABLE pending_moves;
         ALTER TABLE numbered RENAME TO pending_moves;
         ALTER TABLE games DROP COLUMN seq;",
    )
    .unwrap();
    drop(db);
    assert_eq!(pending_rows(&path), 3);
    let store = Store::open::<Stored>(&path, TimeSource::system()).unwrap();
    let loaded = store.load::<Stored>(&room.id).await.unwrap().unwrap();
    assert_eq!(serde_json::to_value(loaded).unwrap(), expected);
    // A game with no pending moves took its number from its data: its next move is kept.
    let mut quiet = quiet;
    let text = quiet.game.position().legal_moves()[0].to_string();
    let event = quiet
        .act(&[quiet.turn()], &Action::Move { text }, 1_000)
        .unwrap();
    store
        .save_move(quiet.pending_move(event).unwrap())
        .await
        .unwrap();
    drop(store);
    std::fs::remove_dir_all(path.parent().unwrap()).ok();
}

/// Two requests for a live game that only the database holds, loading it at the same time,
/// get one room: a second copy beside the first would take moves its watchers never hear of.
#[tokio::test]
async fn two_loads_of_one_game_at_once_share_its_room() {
    let path = common::temp_db("loads");
    let store = Store::open::<Stored>(&path, TimeSource::system()).unwrap();
    let engine = EnginePool::new(1, 1, 1, Duration::from_millis(10), TimeSource::system());
    let hub = Hub::start(
        store.clone(),
        engine,
        Lifetimes::default(),
        TimeSource::system(),
    )
    .await
    .unwrap();
    // Stored after the start, so that the hub has it only in the database.
    let room = Room::new(
        "00000000000000ab".into(),
        Mode::Friend,
        Game::new(Variant::Standard),
        [Seat::person("w", "tw"), Seat::open("Friend")],
        None,
        0,
    );
    store
        .save(&room.id, room.seq, room.stored_json(), true, 0)
        .await
        .unwrap();
    // Both loads wait on the database reader together before either puts the room in place.
    let (a, b) = tokio::join!(hub.room(&room.id), hub.room(&room.id));
    let (a, b) = (a.unwrap(), b.unwrap());
    assert!(Arc::ptr_eq(&a, &b), "the two loads made two rooms");
    assert!(Arc::ptr_eq(&hub.room(&room.id).await.unwrap(), &a));
    drop((a, b, hub, store));
    std::fs::remove_dir_all(path.parent().unwrap()).ok();
}

/// Rows as this version and those before it store games (a computer game, a friend game
/// with its seat open), written by hand: they load and play on. A stored seat that does not
/// read (a level that does not exist, a seat both a person's and the computer's) sets its
/// game aside at start rather than playing it at another strength.
#[tokio::test]
async fn stored_games_of_todays_form_load_and_a_seat_that_does_not_read_is_set_aside() {
    let path = common::temp_db("form");
    drop(Store::open::<Stored>(&path, TimeSource::system()).unwrap());
    let now = TimeSource::system().now_ms();
    let (person, computer, open) = (
        r#"{"name":"Ada","computer":null,"token":"0123456789abcdef0123456789abcdef"}"#,
        r#"{"name":"punct level 3","computer":3,"token":null}"#,
        r#"{"name":"Friend","computer":null,"token":null}"#,
    );
    let row = |id: &str, mode: &str, seats: [&str; 2], moves: &str, seq: u64, more: &str| {
        format!(
            r#"{{"moves":[{moves}],"id":"{id}","mode":"{mode}","start":"standard w 0 -","seats":[{},{}],{more},"draw_offer":null,"takeback_request":null,"rematch_offer":null,"rematch":null,"seq":{seq},"created_ms":{now},"updated_ms":{now},"ended":null,"result":null,"joined":null}}"#,
            seats[0], seats[1]
        )
    };
    let clock = format!(
        r#""clock":{{"initial_ms":300000,"increment_ms":2000,"remaining_ms":[302000,300000],"running_since":{now}}}"#
    );
    let recent = r#""recent":[{"seq":2,"by":0,"action":{"action":"move","move":"TE4:0"}}]"#;
    let rows = [
        (
            "00000000000000c1",
            row(
                "00000000000000c1",
                "computer",
                [person, computer],
                r#""TE4:0""#,
                2,
                &format!(r#"{clock},"invite":null,{recent}"#),
            ),
        ),
        (
            "00000000000000c2",
            row(
                "00000000000000c2",
                "friend",
                [person, open],
                "",
                1,
                r#""clock":null,"invite":"00112233445566778899aabbccddeeff","recent":[]"#,
            ),
        ),
        (
            "00000000000000c3",
            row(
                "00000000000000c3",
                "computer",
                [person, &computer.replace(":3,", ":12,")],
                "",
                1,
                r#""clock":null,"invite":null,"recent":[]"#,
            ),
        ),
        (
            "00000000000000c4",
            row(
                "00000000000000c4",
                "computer",
                [person, &computer.replace("null}", r#""t"}"#)],
                "",
                1,
                r#""clock":null,"invite":null,"recent":[]"#,
            ),
        ),
    ];
    let db = rusqlite::Connection::open(&path).unwrap();
    for (id, data) in &rows {
        serde_json::from_str::<serde_json::Value>(data).expect("the row is JSON");
        let seq = if id.ends_with('1') { 2 } else { 1 };
        db.execute(
            "INSERT INTO games (id, live, updated_ms, seq, data) VALUES (?1, 1, ?2, ?3, ?4)",
            rusqlite::params![id, now, seq, data],
        )
        .unwrap();
    }
    drop(db);

    let base = common::start_in_process(&path).await;
    // The computer game: the computer, at its level, answers the stored move.
    let url = format!("{base}/api/games/00000000000000c1");
    let mut ws = common::connect(&base, "00000000000000c1", None).await;
    let answered = common::wait_for(&mut ws, 30, |m| {
        m["state"]["moves"].as_array().is_some_and(|m| m.len() == 2)
    })
    .await;
    assert_eq!(answered["state"]["seats"]["black"]["computer"], 3);
    // White's clock, as stored, runs again from the computer's move.
    let white_ms = answered["state"]["clock"]["white_ms"].as_i64().unwrap();
    assert!((300_000..=302_000).contains(&white_ms), "{answered}");
    // The friend game: its open seat is taken with its invitation.
    let (status, joined) = common::post(
        &format!("{base}/api/games/00000000000000c2/join"),
        None,
        serde_json::json!({ "name": "Bo", "invite": "00112233445566778899aabbccddeeff" }),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["state"]["seats"]["black"]["name"], "Bo");
    let (status, _) = common::get(&url, None).await;
    assert_eq!(status, 200);
    // The seats that do not read: set aside, with the reason, and not served.
    for (id, why) in [
        ("00000000000000c3", "level 12 does not exist"),
        (
            "00000000000000c4",
            "held by a person and played by the computer at once",
        ),
    ] {
        let (status, _) = common::get(&format!("{base}/api/games/{id}"), None).await;
        assert_eq!(status, 404, "{id}");
        let reason: String = rusqlite::Connection::open(&path)
            .unwrap()
            .query_row(
                "SELECT reason FROM damaged_games WHERE id = ?1",
                [id],
                |r| r.get(0),
            )
            .unwrap();
        assert!(reason.contains(why), "{id}: {reason}");
    }
}

/// Two servers on one PostgreSQL each change a game from the same state at the same moment:
/// one by a move kept pending, the other by the whole game (a flag falling, say); or both by
/// the whole game (a draw agreed on one, the flag on the other). The database keeps one of
/// them and refuses the other, however their transactions meet.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_changes_of_one_state_from_two_servers_keep_one() {
    let Some(cluster) = common::pg_cluster::Cluster::start("one-of-two-writes") else {
        return;
    };
    let url = std::path::PathBuf::from(&cluster.url);
    let here = Store::open::<Stored>(&url, TimeSource::system()).unwrap();
    let there = Store::open::<Stored>(&url, TimeSource::system()).unwrap();
    for pending in [true, false] {
        let mut both = 0;
        for round in 0..200u32 {
            let mut room = Room::new(
                format!("{pending}-{round:010x}"),
                Mode::Friend,
                Game::new(Variant::Standard),
                [Seat::person("w", "tw"), Seat::person("b", "tb")],
                Some(Clock::new(60_000, 2_000)),
                1_000,
            );
            let json = room.stored_json();
            here.save(&room.id, room.seq, json, true, room.updated_ms)
                .await
                .unwrap();
            let mut whole = room.clone();
            let legal = room.game.position().legal_moves();
            let now = room.updated_ms + 1_000;
            let mv = |i: usize| Action::Move {
                text: legal[i].to_string(),
            };
            let event = room.act(&[room.turn()], &mv(0), now).unwrap();
            whole.act(&[whole.turn()], &mv(1), now).unwrap();
            let first = async {
                match pending {
                    true => here.save_move(room.pending_move(event).unwrap()).await,
                    false => {
                        here.save(&room.id, room.seq, room.stored_json(), true, now)
                            .await
                    }
                }
            };
            let (first, second) = tokio::join!(
                first,
                there.save(&whole.id, whole.seq, whole.stored_json(), true, now),
            );
            match (first, second) {
                (Ok(()), Ok(())) => both += 1,
                (Err(punct_server::store::WriteError::Failed(e)), _)
                | (_, Err(punct_server::store::WriteError::Failed(e))) => panic!("{e}"),
                _ => {}
            }
        }
        assert_eq!(
            both, 0,
            "rounds of 200 in which both were kept (the first pending: {pending})"
        );
    }
}
