//! `punct admin` as the operator runs it: the real binary against a server's database
//! (SQLite, and PostgreSQL when a cluster can be started), with players, a chat message and
//! its report made through the server's own tables; bad input gets a clear error.

mod common;
#[allow(dead_code)] // `databases` is for the server's tests.
#[path = "../../punct-server/tests/common/pg_cluster.rs"]
mod pg_cluster;

use std::path::Path;

use common::{free_addr, punct, stderr, stdout, temp_db};
use punct_server::ops::time::TimeSource;
use punct_server::players::accounts::{self, AccountId};
use punct_server::players::chat::{self, Refusal, Room, Writer};
use punct_server::players::games::{self, Seat};
use punct_server::players::speed::Speed;
use punct_server::players::username::Username;
use punct_server::room::Stored;
use punct_server::store::Store;
use punct_server::store::sql::Attached as _;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

async fn account(store: &Store, name: &str, now_ms: i64) -> AccountId {
    let id = AccountId(format!("id-{name}"));
    let (made, name) = (id.clone(), Username::new(name).unwrap());
    store
        .transact(move |db| accounts::create(db, &made, &name, "-", now_ms))
        .await
        .unwrap()
        .unwrap();
    id
}

/// Runs `punct admin --db DB args…`.
fn admin(db: &Path, args: &[&str]) -> std::process::Output {
    let db = db.display().to_string();
    let mut all = vec!["admin", "--db", db.as_str()];
    all.extend_from_slice(args);
    punct(&all, "")
}

/// Writes `text` in game `g1`'s players' chat as `who`, now.
async fn write(store: &Store, who: &AccountId, text: &str) -> Result<chat::Message, Refusal> {
    let writer = Writer {
        account: Some(who.clone()),
        seat: Some("white".into()),
        sender: Writer::account_sender(who),
    };
    let text = text.to_owned();
    let now = TimeSource::system().now_ms();
    store
        .transact(move |db| chat::write(db, "g1", Room::Players, &writer, &text, now))
        .await
        .unwrap()
}

fn reports_mutes_and_closes_on(db: &Path) {
    let rt = runtime();
    // The store is closed before each run of the binary: an SQLite file has one user.
    let (ann, ben) = rt.block_on(async {
        let store = Store::open::<Stored>(db, TimeSource::system()).unwrap();
        let now = TimeSource::system().now_ms();
        let ann = account(&store, "ann", now).await;
        let ben = account(&store, "Ben", now).await;
        let message = write(&store, &ben, "<b>rude</b> \"thing\"").await;
        let message = message.unwrap();
        let (a, id) = (ann.clone(), message.id.clone());
        store
            .transact(move |db| chat::report(db, &a, &id, "insults", now))
            .await
            .unwrap()
            .unwrap();
        (ann, ben)
    });

    // The report lists the names, the reason and the message as it was, quoted so that no
    // text can break the line's fields.
    let listed = stdout(&admin(db, &["reports"]));
    let line = listed.lines().next().unwrap();
    let fields: Vec<&str> = line.split('\t').collect();
    assert_eq!(
        &fields[1..],
        ["ann", "Ben", "\"insults\"", "\"<b>rude</b> \\\"thing\\\"\""],
        "{listed}"
    );
    let report = fields[0].to_owned();

    // Ben is muted: his next message is refused, naming the wait.
    let muted = stdout(&admin(db, &["mute", "ben", "--hours", "2"]));
    assert_eq!(muted.trim(), "ben muted for 2 h");
    rt.block_on(async {
        let store = Store::open::<Stored>(db, TimeSource::system()).unwrap();
        let refused = write(&store, &ben, "again").await.unwrap_err();
        assert!(matches!(refused, Refusal::Muted { .. }), "{refused:?}");
        assert!(refused.to_string().contains("120 min"), "{refused}");
        // Ann is not.
        write(&store, &ann, "fine").await.unwrap();
    });
    stdout(&admin(db, &["unmute", "ben"]));
    rt.block_on(async {
        let store = Store::open::<Stored>(db, TimeSource::system()).unwrap();
        write(&store, &ben, "sorry").await.unwrap();
    });

    // The report is closed, and listed no more.
    stdout(&admin(db, &["close-report", &report]));
    assert_eq!(stdout(&admin(db, &["reports"])).trim(), "no open reports");
    let again = admin(db, &["close-report", &report]);
    assert!(!again.status.success());
    assert!(
        stderr(&again).contains(&format!("no open report `{report}`")),
        "{}",
        stderr(&again)
    );

    // Ben's account is closed: it can no longer write, and closing it twice says so.
    let closed = stdout(&admin(db, &["close", "Ben"]));
    assert!(closed.starts_with("Ben closed"), "{closed}");
    rt.block_on(async {
        let store = Store::open::<Stored>(db, TimeSource::system()).unwrap();
        assert_eq!(
            write(&store, &ben, "hi").await.unwrap_err(),
            Refusal::Closed
        );
        let b = ben.clone();
        let found = store
            .query(move |db| accounts::by_id(db, &b))
            .await
            .unwrap()
            .unwrap();
        assert!(!found.is_open());
    });
    let twice = admin(db, &["close", "ben"]);
    assert!(!twice.status.success());
    assert!(
        stderr(&twice).contains("was closed already"),
        "{}",
        stderr(&twice)
    );

    // Bad input: an unknown player, a bad number of hours, an unknown action.
    for action in [
        &["mute", "nobody"][..],
        &["unmute", "nobody"],
        &["close", "nobody"],
    ] {
        let out = admin(db, action);
        assert!(!out.status.success(), "{action:?}");
        assert!(
            stderr(&out).contains("no account named `nobody`"),
            "{action:?}: {}",
            stderr(&out)
        );
    }
    for hours in ["0", "-3", "lots"] {
        let out = admin(db, &["mute", "ann", "--hours", hours]);
        assert!(!out.status.success(), "--hours {hours}");
        assert!(stderr(&out).contains("--hours"), "{}", stderr(&out));
    }
    let out = admin(db, &["explode"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("unrecognized subcommand"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn admin_reports_mutes_and_closes_on_sqlite() {
    reports_mutes_and_closes_on(&temp_db("admin"));
}

#[test]
fn admin_reports_mutes_and_closes_on_postgres() {
    let Some(cluster) = pg_cluster::Cluster::start("admin") else {
        eprintln!("no PostgreSQL here: skipped");
        return;
    };
    reports_mutes_and_closes_on(Path::new(&cluster.url));
}

#[test]
fn admin_makes_a_bot_account_only_of_one_without_games() {
    let db = temp_db("admin-bot");
    let rt = runtime();
    let (fresh, played) = rt.block_on(async {
        let store = Store::open::<Stored>(&db, TimeSource::system()).unwrap();
        let now = TimeSource::system().now_ms();
        let fresh = account(&store, "Crafty", now).await;
        let played = account(&store, "Person", now).await;
        let seat = Seat {
            game: "g1".into(),
            colour: punct_core::Colour::White,
            account: played.clone(),
            opponent: None,
            speed: Speed::Rapid,
            rated: false,
            started_ms: now,
        };
        store
            .transact(move |db| games::joined(&seat).apply(db))
            .await
            .unwrap();
        (fresh, played)
    });
    let out = admin(&db, &["bot", "crafty"]);
    assert!(stdout(&out).contains("crafty is a bot account"));
    let out = admin(&db, &["bot", "Crafty"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("a bot account already"),
        "{}",
        stderr(&out)
    );
    let out = admin(&db, &["bot", "Person"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("played games as a person"),
        "{}",
        stderr(&out)
    );
    let out = admin(&db, &["bot", "nobody"]);
    assert!(
        stderr(&out).contains("no account named `nobody`"),
        "{}",
        stderr(&out)
    );
    rt.block_on(async {
        let store = Store::open::<Stored>(&db, TimeSource::system()).unwrap();
        let bots = store
            .query(move |db| {
                Ok((
                    accounts::is_bot(db, &fresh)?,
                    accounts::is_bot(db, &played)?,
                ))
            })
            .await
            .unwrap();
        assert_eq!(bots, (true, false));
    });
}

#[test]
fn admin_on_a_database_that_cannot_be_opened_says_so() {
    let dir = temp_db("admin-missing");
    let missing = dir.parent().unwrap().join("no/such/dir/punct.db");
    let out = admin(&missing, &["reports"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("cannot open the database"),
        "{}",
        stderr(&out)
    );
}
