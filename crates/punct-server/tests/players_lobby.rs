//! Meeting opponents on SQLite and on a real PostgreSQL: seeks accepted once however many
//! accept at once, a real-time seek gone when its seeker stops keeping it, challenges
//! accepted or declined and refused when blocked, notifications, chat and its reports.

mod common;

use common::pg_cluster::databases;
use common::players::account;
use punct_server::ops::time::TimeSource;
use punct_server::players::seeks::{self, ColourChoice, Terms};
use punct_server::players::speed::TimeControl;
use punct_server::players::{blocks, challenges, chat, notifications};
use punct_server::room::Stored;
use punct_server::store::Store;

const T0: i64 = 1_750_000_000_000;

fn blitz() -> Terms {
    Terms {
        time: TimeControl::clock(5 * 60_000, 3_000).unwrap(),
        rated: true,
        colour: ColourChoice::Random,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_is_accepted_once_and_goes_with_its_seeker() {
    let (dbs, _cluster) = databases("seeks");
    for db in dbs {
        let store = Store::open::<Stored>(&db, TimeSource::system()).unwrap();
        let seeker = account(&store, "seeker", T0).await;
        let mut takers = Vec::new();
        for i in 0..4 {
            takers.push(account(&store, &format!("taker{i}"), T0).await);
        }
        let s = seeker.clone();
        let seek = store
            .transact(move |db| seeks::create(db, &s, blitz(), Some((1300, 1700)), T0))
            .await
            .unwrap();
        let listed = store.query(|db| seeks::list(db, T0 + 1)).await.unwrap();
        assert_eq!(listed, std::slice::from_ref(&seek));
        // Its own seeker cannot accept it.
        let (id, s) = (seek.id.clone(), seeker.clone());
        let own = store
            .transact(move |db| seeks::accept(db, &id, &s, T0 + 1))
            .await
            .unwrap();
        assert_eq!(own, None);
        // Four accept at once: one gets it.
        let accepts = takers.iter().map(|t| {
            let (id, t) = (seek.id.clone(), t.clone());
            store.transact(move |db| seeks::accept(db, &id, &t, T0 + 2))
        });
        let got: Vec<_> = futures_util::future::join_all(accepts)
            .await
            .into_iter()
            .map(Result::unwrap)
            .filter(Option::is_some)
            .collect();
        assert_eq!(got.len(), 1, "{db:?}");
        assert_eq!(got[0].as_ref().unwrap().terms, blitz());
        assert!(
            store
                .query(|db| seeks::list(db, T0 + 3))
                .await
                .unwrap()
                .is_empty()
        );
        // A real-time seek lives while it is kept, and ends when it is not.
        let s = seeker.clone();
        store
            .transact(move |db| seeks::create(db, &s, blitz(), None, T0))
            .await
            .unwrap();
        let s = seeker.clone();
        let kept_at = T0 + seeks::REAL_TIME_LIFE_MS - 1;
        store
            .transact(move |db| seeks::keep(db, &s, kept_at))
            .await
            .unwrap();
        let alive = kept_at + seeks::REAL_TIME_LIFE_MS - 1;
        assert_eq!(
            store
                .query(move |db| seeks::list(db, alive))
                .await
                .unwrap()
                .len(),
            1
        );
        let gone = alive + 1;
        assert!(
            store
                .query(move |db| seeks::list(db, gone))
                .await
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            store
                .transact(move |db| seeks::purge(db, gone))
                .await
                .unwrap()
                .len(),
            1
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_are_accepted_or_declined_and_blocks_stop_them() {
    let (dbs, _cluster) = databases("challenges");
    for db in dbs {
        let store = Store::open::<Stored>(&db, TimeSource::system()).unwrap();
        let (ann, ben) = (
            account(&store, "ann", T0).await,
            account(&store, "ben", T0).await,
        );
        let correspondence = Terms {
            time: TimeControl::correspondence(3).unwrap(),
            rated: false,
            colour: ColourChoice::White,
        };
        let (a, b) = (ann.clone(), ben.clone());
        let first = store
            .transact(move |db| challenges::create(db, &a, &b, correspondence, T0))
            .await
            .unwrap()
            .unwrap();
        let (a, b) = (ann.clone(), ben.clone());
        let second = store
            .transact(move |db| challenges::create(db, &a, &b, blitz(), T0 + 1))
            .await
            .unwrap()
            .unwrap();
        // Waiting for Ben when he comes back.
        let b = ben.clone();
        let open = store
            .query(move |db| challenges::open_for(db, &b, T0 + 2))
            .await
            .unwrap();
        assert_eq!(open.len(), 2);
        assert_eq!(open[0].terms, correspondence);
        // Only the challenged accepts, once.
        let (id, a) = (first.id.clone(), ann.clone());
        let by_ann = store
            .transact(move |db| challenges::accept(db, &id, &a, "game1", T0 + 3))
            .await
            .unwrap();
        assert_eq!(by_ann, None);
        let (id, b) = (first.id.clone(), ben.clone());
        let accepted = store
            .transact(move |db| challenges::accept(db, &id, &b, "game1", T0 + 3))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(accepted.game.as_deref(), Some("game1"));
        let (id, b) = (first.id.clone(), ben.clone());
        let twice = store
            .transact(move |db| challenges::accept(db, &id, &b, "game2", T0 + 4))
            .await
            .unwrap();
        assert_eq!(twice, None);
        let (id, b) = (second.id.clone(), ben.clone());
        assert!(
            store
                .transact(move |db| challenges::decline(db, &id, &b, T0 + 5))
                .await
                .unwrap()
        );
        let b = ben.clone();
        assert!(
            store
                .query(move |db| challenges::open_for(db, &b, T0 + 6))
                .await
                .unwrap()
                .is_empty()
        );
        // Ben blocks Ann: her challenges are refused, and to oneself too.
        let (a, b) = (ann.clone(), ben.clone());
        store
            .transact(move |db| blocks::block(db, &b, &a, T0 + 7))
            .await
            .unwrap();
        let (a, b) = (ann.clone(), ben.clone());
        let refused = store
            .transact(move |db| challenges::create(db, &a, &b, blitz(), T0 + 8))
            .await
            .unwrap();
        assert_eq!(refused.unwrap_err(), challenges::ChallengeError::Refused);
        let a = ann.clone();
        let yourself = store
            .transact(move |db| challenges::create(db, &a, &a, blitz(), T0 + 8))
            .await
            .unwrap();
        assert_eq!(yourself.unwrap_err(), challenges::ChallengeError::Yourself);
        let b = ben.clone();
        assert_eq!(
            store
                .query(move |db| blocks::blocked_by(db, &b))
                .await
                .unwrap(),
            std::slice::from_ref(&ann)
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notifications_chat_and_reports() {
    let (dbs, _cluster) = databases("notes-chat");
    for db in dbs {
        let store = Store::open::<Stored>(&db, TimeSource::system()).unwrap();
        let (cat, dan) = (
            account(&store, "cat", T0).await,
            account(&store, "dan", T0).await,
        );
        for (i, kind) in [
            notifications::Kind::Challenge,
            notifications::Kind::YourTurn,
        ]
        .into_iter()
        .enumerate()
        {
            let note =
                notifications::tell(&cat, kind, Some("game1"), Some(&dan), T0 + i as i64).unwrap();
            store
                .transact(move |db| db.execute(note.sql, &note.args))
                .await
                .unwrap();
        }
        let c = cat.clone();
        let listed = store
            .query(move |db| notifications::list(db, &c, 10))
            .await
            .unwrap();
        assert_eq!(
            listed.iter().map(|n| n.kind.as_str()).collect::<Vec<_>>(),
            ["your_turn", "challenge"]
        );
        let c = cat.clone();
        assert_eq!(
            store
                .query(move |db| notifications::unread(db, &c))
                .await
                .unwrap(),
            2
        );
        let c = cat.clone();
        store
            .transact(move |db| notifications::read_all(db, &c, T0 + 5))
            .await
            .unwrap();
        let c = cat.clone();
        assert_eq!(
            store
                .query(move |db| notifications::unread(db, &c))
                .await
                .unwrap(),
            0
        );
        // Chat: stored as typed, shown as text; bad messages refused by name.
        let d = dan.clone();
        let posted = store
            .transact(move |db| {
                chat::post(
                    db,
                    "game1",
                    chat::Room::Players,
                    Some(&d),
                    "<b>hi</b> ' --",
                    T0,
                )
            })
            .await
            .unwrap()
            .unwrap();
        let long = "x".repeat(141);
        let refused = store
            .transact(move |db| chat::post(db, "game1", chat::Room::Players, None, &long, T0))
            .await
            .unwrap();
        assert_eq!(refused.unwrap_err(), chat::MessageError::TooLong);
        assert_eq!(chat::message("   "), Err(chat::MessageError::Empty));
        store
            .transact(|db| chat::post(db, "game1", chat::Room::Watchers, None, "gg", T0 + 1))
            .await
            .unwrap()
            .unwrap();
        let players = store
            .query(|db| chat::recent(db, "game1", chat::Room::Players, 50))
            .await
            .unwrap();
        assert_eq!(players.len(), 1);
        assert_eq!(players[0].body, "<b>hi</b> ' --");
        assert_eq!(players[0].author_name.as_deref(), Some("dan"));
        // Cat reports it: the operator sees a copy.
        let c = cat.clone();
        let report = store
            .transact(move |db| chat::report(db, &c, &posted, "rude", T0 + 2))
            .await
            .unwrap()
            .unwrap();
        let open = store.query(chat::open_reports).await.unwrap();
        assert_eq!(open.len(), 1);
        assert_eq!(
            (open[0].body.as_str(), open[0].reported.as_ref()),
            ("<b>hi</b> ' --", Some(&dan))
        );
        assert!(
            store
                .transact(move |db| chat::close_report(db, &report, T0 + 3))
                .await
                .unwrap()
        );
        assert!(store.query(chat::open_reports).await.unwrap().is_empty());
    }
}
