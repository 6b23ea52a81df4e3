//! A rated game's end and both rating changes are one transaction: a process that plays
//! and ends rated games without pause is killed with SIGKILL at random moments, over a
//! hundred times, on SQLite and on a real PostgreSQL; after every kill each game is either
//! live with nobody's rating moved for it, or ended with both ratings moved, once, and
//! every rating is exactly its history's sum.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use common::pg_cluster::databases;
use punct_core::Colour;
use punct_server::ops::time::TimeSource;
use punct_server::players::accounts::AccountId;
use punct_server::players::glicko2::Score;
use punct_server::players::ratings::RatedEnd;
use punct_server::players::speed::Speed;
use punct_server::players::{accounts, games};
use punct_server::room::Stored;
use punct_server::store::Store;
use punct_server::store::sql::Attached;

/// The database the child plays on, when this test binary runs as the child.
const CHILD_DB: &str = "PUNCT_TEST_RATED_CHILD_DB";

const KILLS: usize = 100;

/// The child: plays rated games between four accounts, one after another, until killed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn child_playing_rated_games() {
    let Ok(db) = std::env::var(CHILD_DB) else {
        return;
    };
    let store = Store::open::<Stored>(Path::new(&db), TimeSource::system()).unwrap();
    let players: Vec<AccountId> = (0..4).map(|i| AccountId(format!("p{i}"))).collect();
    for p in &players {
        let name = punct_server::players::username::Username::new(&format!("player{p}")).unwrap();
        let id = p.clone();
        // Made by the first run; taken in the later ones.
        let _ = store
            .transact(move |db| accounts::create(db, &id, &name, "-", 0))
            .await
            .unwrap();
    }
    let first: i64 = store
        .query(|db| db.query("SELECT COUNT(*) AS n FROM games", &[])?[0].int("n"))
        .await
        .unwrap();
    println!("ready");
    for i in first.. {
        let game = format!("kill{i:06}");
        // Every pair in turn, each colour: the offset 1 to 3 is never the same player.
        let white = &players[(i % 4) as usize];
        let black = &players[((i + 1 + (i / 4) % 3) % 4) as usize];
        let at = i * 60_000;
        let seats: Vec<Arc<dyn Attached>> =
            [(Colour::White, white, black), (Colour::Black, black, white)]
                .into_iter()
                .map(|(colour, account, opponent)| {
                    Arc::new(games::joined(&games::Seat {
                        game: game.clone(),
                        colour,
                        account: account.clone(),
                        opponent: Some(opponent.clone()),
                        speed: Speed::Rapid,
                        rated: true,
                        started_ms: at,
                    })) as Arc<dyn Attached>
                })
                .collect();
        store
            .save_with(&game, 1, "{}".into(), true, at, seats)
            .await
            .unwrap();
        let score = [Score::Win, Score::Draw, Score::Loss][(i % 3) as usize];
        let end: Vec<Arc<dyn Attached>> = vec![
            Arc::new(games::ended(&game, Some(score), at + 1)),
            Arc::new(RatedEnd::new(
                &game,
                Speed::Rapid,
                white.clone(),
                black.clone(),
                score,
                at + 1,
            )),
        ];
        store
            .save_with(&game, 2, "{}".into(), false, at + 1, end)
            .await
            .unwrap();
        println!("ended {game}");
    }
}

/// Checks that every game is live with no rating moved for it, or ended with both moved,
/// and that each rating's game count and value follow from its history; returns the
/// number of ended games.
async fn check(db: &Path) -> i64 {
    let store = Store::open::<Stored>(db, TimeSource::system()).unwrap();
    store
        .query(|db| {
            let mut ended = 0;
            for g in db.query(
                "SELECT g.id, g.live, (SELECT COUNT(*) FROM rating_history h WHERE h.game = g.id) AS rated,
                     (SELECT COUNT(*) FROM account_games a WHERE a.game = g.id AND a.live = FALSE) AS seats_ended
                 FROM games g",
                &[],
            )? {
                let (id, live, rated, seats_ended) =
                    (g.text("id")?, g.bool("live")?, g.int("rated")?, g.int("seats_ended")?);
                if live {
                    anyhow::ensure!(rated == 0 && seats_ended == 0, "live game {id}: {rated} rated, {seats_ended} seats ended");
                } else {
                    anyhow::ensure!(rated == 2 && seats_ended == 2, "ended game {id}: {rated} rated, {seats_ended} seats ended");
                    ended += 1;
                }
            }
            for r in db.query(
                "SELECT r.account, r.games, r.rating,
                     (SELECT COUNT(*) FROM rating_history h WHERE h.account = r.account) AS history
                 FROM ratings r",
                &[],
            )? {
                let account = r.text("account")?;
                anyhow::ensure!(r.int("games")? == r.int("history")?, "{account}: count differs from its history");
                let changes: f64 = db
                    .query("SELECT change FROM rating_history WHERE account = $1", &[account.as_str().into()])?
                    .iter()
                    .map(|h| h.real("change"))
                    .sum::<anyhow::Result<f64>>()?;
                anyhow::ensure!((1500.0 + changes - r.real("rating")?).abs() < 1e-6, "{account}: rating is not its history's sum");
            }
            Ok(ended)
        })
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ratings_move_once_or_not_at_all_under_kill_9() {
    let (dbs, _cluster) = databases("rated-kill");
    let me = std::env::current_exe().unwrap();
    for db in dbs {
        let mut ended = 0;
        let mut waited_kills = 0;
        for kill in 0..KILLS {
            let mut child = Command::new(&me)
                .args([
                    "--exact",
                    "child_playing_rated_games",
                    "--nocapture",
                    "--test-threads",
                    "1",
                ])
                .env(CHILD_DB, &db)
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let out = child.stdout.take().unwrap();
            let playing = tokio::task::spawn_blocking(move || {
                let mut lines = BufReader::new(out).lines().map_while(Result::ok);
                lines.any(|l| l.contains("ready")) && lines.any(|l| l.starts_with("ended "))
            });
            // Killed before it is ready now and then; mostly while it plays, once it has
            // ended a game, so that the kill lands in play however slow the machine.
            if kill % 10 != 0 {
                assert!(playing.await.unwrap(), "the child did not play");
                waited_kills += 1;
            }
            tokio::time::sleep(Duration::from_millis(rand::random_range(0..40))).await;
            child.kill().unwrap();
            child.wait().unwrap();
            let now = check(&db).await;
            assert!(
                now >= ended,
                "{db:?}: ended games went from {ended} to {now}"
            );
            ended = now;
        }
        assert!(
            ended >= waited_kills,
            "{db:?}: only {ended} games ended over {waited_kills} kills while playing"
        );
    }
}
