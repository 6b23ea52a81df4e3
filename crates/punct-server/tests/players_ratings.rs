//! Ratings on SQLite and on a real PostgreSQL: a rated game's end moves both players'
//! Glicko-2 ratings in the transaction of the game's ended row, by exactly what the rules
//! compute, once (a stale or repeated write moves nothing); two games of one player ending
//! at once, on one server or on two, both count; provisional players stay off the board.

mod common;

use std::sync::Arc;

use common::pg_cluster::databases;
use common::players::account;
use punct_core::Colour;
use punct_server::ops::time::TimeSource;
use punct_server::players::accounts::AccountId;
use punct_server::players::games;
use punct_server::players::glicko2::{Rating, Score, rate_game};
use punct_server::players::ratings::{self, RatedEnd, Record};
use punct_server::players::speed::Speed;
use punct_server::room::Stored;
use punct_server::store::sql::{Attached, Value};
use punct_server::store::{Store, WriteError};

const T0: i64 = 1_750_000_000_000;
const DAY: i64 = 86_400_000;

/// Starts rated game `game` between `white` and `black` (seq 1).
async fn start(store: &Store, game: &str, white: &AccountId, black: &AccountId) {
    let seats: Vec<Arc<dyn Attached>> =
        [(Colour::White, white, black), (Colour::Black, black, white)]
            .into_iter()
            .map(|(colour, account, opponent)| {
                Arc::new(games::joined(&games::Seat {
                    game: game.into(),
                    colour,
                    account: account.clone(),
                    opponent: Some(opponent.clone()),
                    speed: Speed::Blitz,
                    rated: true,
                    started_ms: T0,
                })) as Arc<dyn Attached>
            })
            .collect();
    store
        .save_with(game, 1, "{}".into(), true, T0, seats)
        .await
        .unwrap();
}

/// Ends game `game` at state `seq`, White scoring `score`, at `at_ms`: the end's changes.
async fn end(
    store: &Store,
    game: &str,
    seq: u64,
    (white, black): (&AccountId, &AccountId),
    score: Score,
    at_ms: i64,
) -> Result<Arc<RatedEnd>, WriteError> {
    let rated = Arc::new(RatedEnd::new(
        game,
        Speed::Blitz,
        white.clone(),
        black.clone(),
        score,
        at_ms,
    ));
    let with: Vec<Arc<dyn Attached>> = vec![
        Arc::new(games::ended(game, Some(score), at_ms)),
        rated.clone(),
    ];
    store
        .save_with(game, seq, "{}".into(), false, at_ms, with)
        .await
        .map(|()| rated)
}

async fn rating(store: &Store, who: &AccountId) -> Option<Record> {
    let who = who.clone();
    store
        .query(move |db| ratings::stored(db, &who, Speed::Blitz))
        .await
        .unwrap()
}

fn close(a: Rating, b: Rating) -> bool {
    (a.rating - b.rating).abs() < 1e-9
        && (a.rd - b.rd).abs() < 1e-9
        && (a.volatility - b.volatility).abs() < 1e-12
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_end_moves_both_ratings_once_by_the_rules() {
    let (dbs, _cluster) = databases("rated-end");
    for db in dbs {
        let store = Store::open::<Stored>(&db, TimeSource::system()).unwrap();
        let (w, b) = (
            account(&store, "white1", T0).await,
            account(&store, "black1", T0).await,
        );
        start(&store, "g1", &w, &b).await;
        let done = end(&store, "g1", 2, (&w, &b), Score::Win, T0 + 60_000)
            .await
            .unwrap();
        let (ew, eb) = rate_game(Rating::NEW, Rating::NEW, Score::Win);
        let (rw, rb) = (
            rating(&store, &w).await.unwrap(),
            rating(&store, &b).await.unwrap(),
        );
        assert!(
            close(rw.rating, ew) && close(rb.rating, eb),
            "{rw:?} {rb:?}"
        );
        assert_eq!((rw.games, rb.games), (1, 1));
        let changes = done.changes().unwrap();
        assert!((changes[0].delta() - (ew.rating - 1500.0)).abs() < 1e-9);
        assert!(changes[0].delta() > 0.0 && changes[1].delta() < 0.0);
        // The seats' rows hold the result and the change.
        let who = w.clone();
        let list = store
            .query(move |db| games::of_account(db, &who, &games::Filter::default(), 10))
            .await
            .unwrap();
        assert_eq!(list[0].result.as_deref(), Some("win"));
        assert!(!list[0].live);
        assert!((list[0].rating_change.unwrap() - changes[0].delta()).abs() < 1e-9);
        // A write of an older state: stale, and nothing moves.
        let stale = end(&store, "g1", 1, (&w, &b), Score::Loss, T0 + 60_000).await;
        assert!(matches!(stale, Err(WriteError::Stale(_))), "{stale:?}");
        // The same end written again (as after a lost answer), at its state or a later one:
        // rated already, so nothing moves twice.
        for seq in [2, 3] {
            let again = end(&store, "g1", seq, (&w, &b), Score::Win, T0 + 61_000).await;
            assert_eq!(again.unwrap().changes(), None);
        }
        assert_eq!(rating(&store, &w).await.unwrap(), rw);
        let who = w.clone();
        let history = store
            .query(move |db| ratings::history(db, &who, Speed::Blitz))
            .await
            .unwrap();
        assert_eq!(history.len(), 1);
        // A week later the next game starts from a grown deviation.
        start(&store, "g2", &b, &w).await;
        let at = T0 + 7 * DAY;
        let done = end(&store, "g2", 2, (&b, &w), Score::Draw, at)
            .await
            .unwrap();
        let before = done.changes().unwrap()[1].before;
        assert!(close(
            before,
            rw.rating.after_inactivity(at - (T0 + 60_000))
        ));
        assert!(before.rd > rw.rating.rd);
        assert_eq!(rating(&store, &w).await.unwrap().games, 2);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_games_of_one_player_ending_at_once_both_count() {
    let (dbs, cluster) = databases("rated-at-once");
    for db in dbs {
        let store = Store::open::<Stored>(&db, TimeSource::system()).unwrap();
        // On PostgreSQL the second game ends on a second server.
        let other = match &cluster {
            Some(c) if db.to_str() == Some(c.url.as_str()) => {
                Store::open::<Stored>(&db, TimeSource::system()).unwrap()
            }
            _ => store.clone(),
        };
        let p = account(&store, "busy", T0).await;
        let (x, y) = (
            account(&store, "xavier", T0).await,
            account(&store, "yvonne", T0).await,
        );
        for round in 0..5 {
            let (g1, g2) = (format!("a{round}"), format!("b{round}"));
            start(&store, &g1, &p, &x).await;
            start(&store, &g2, &y, &p).await;
            let at = T0 + round * DAY;
            let (a, b) = tokio::join!(
                end(&store, &g1, 2, (&p, &x), Score::Win, at),
                end(&other, &g2, 2, (&y, &p), Score::Win, at),
            );
            a.unwrap();
            b.unwrap();
        }
        assert_eq!(rating(&store, &p).await.unwrap().games, 10, "{db:?}");
        assert_eq!(rating(&store, &x).await.unwrap().games, 5);
        let who = p.clone();
        let history = store
            .query(move |db| ratings::history(db, &who, Speed::Blitz))
            .await
            .unwrap();
        assert_eq!(history.len(), 10);
        // Each step of the history follows from the one before it.
        let sum: f64 = history.iter().map(|h| h.change).sum();
        let last = rating(&store, &p).await.unwrap().rating.rating;
        assert!((1500.0 + sum - last).abs() < 1e-6, "{sum} {last}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn provisional_players_stay_off_the_leaderboard() {
    let (dbs, _cluster) = databases("leaderboard");
    for db in dbs {
        let store = Store::open::<Stored>(&db, TimeSource::system()).unwrap();
        let rows = [
            ("steady", 1900.0, 60.0, T0),
            ("newish", 2100.0, 150.0, T0),
            ("away", 2000.0, 100.0, T0 - 3 * 365 * DAY),
            ("second", 1700.0, 80.0, T0),
        ];
        for (name, r, rd, at) in rows {
            let id = account(&store, name, T0).await;
            store
                .transact(move |db| {
                    db.execute(
                        "INSERT INTO ratings (account, speed, rating, rd, volatility, games, updated_ms)
                         VALUES ($1, 'rapid', $2, $3, 0.06, 30, $4)",
                        &[Value::from(id.as_str()), r.into(), rd.into(), at.into()],
                    )
                })
                .await
                .unwrap();
        }
        let board = store
            .query(|db| ratings::leaderboard(db, Speed::Rapid, 10, T0))
            .await
            .unwrap();
        let names: Vec<&str> = board.iter().map(|p| p.username.as_str()).collect();
        assert_eq!(names, ["steady", "second"], "{db:?}");
        // An account's ratings: every speed, new where unplayed.
        let id = AccountId("id-steady".into());
        let all = store.query(move |db| ratings::of(db, &id)).await.unwrap();
        assert_eq!(all.len(), 4);
        assert_eq!(all[0], (Speed::Blitz, Record::NEW));
        assert!(all[0].1.at(T0).provisional());
        assert_eq!(all[1].1.rating.rating, 1900.0);
    }
}
