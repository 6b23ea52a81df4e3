//! Accounts on SQLite and on a real PostgreSQL: sign-up (a name taken ignoring case is
//! refused), sign-in with the limit on failures (held in the database, so that two servers
//! on one PostgreSQL count together), sessions, API tokens, recovery codes and deletion.
//! Time is the tests' own (`now_ms` given to every call).

mod common;

use std::net::IpAddr;
use std::path::PathBuf;

use common::pg_cluster::databases;
use punct_server::ops::time::TimeSource;
use punct_server::players::auth::{Auth, AuthError};
use punct_server::players::hashing::Hasher;
use punct_server::players::password::PasswordError;
use punct_server::players::sessions::{self, IDLE_MS, TOUCH_AFTER_MS};
use punct_server::players::throttle::{self, FIRST_WAIT_MS};
use punct_server::players::username::UsernameError;
use punct_server::players::{accounts, games, recovery, tokens};
use punct_server::room::Stored;
use punct_server::store::Store;

/// A time in ms since the epoch, as the tests' clock starts.
const T0: i64 = 1_750_000_000_000;

const PASSWORD: &str = "a long walk in the hills";

fn auth(store: &Store) -> Auth {
    Auth::new(store.clone(), Hasher::new(2, 64))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_refuses_taken_and_bad_names_and_weak_passwords() {
    let (dbs, _cluster) = databases("sign-up");
    for db in dbs {
        let store = Store::open::<Stored>(&db, TimeSource::system()).unwrap();
        let auth = auth(&store);
        let made = auth.sign_up("Kris_Burm", PASSWORD, T0).await.unwrap();
        assert_eq!(made.recovery_codes.len(), 10);
        // Taken ignoring case.
        let again = auth.sign_up("kris_burm", "another good password", T0).await;
        assert!(matches!(again, Err(AuthError::Taken(_))), "{again:?}");
        assert_eq!(
            auth.sign_up("admin", PASSWORD, T0).await.unwrap_err(),
            AuthError::Username(UsernameError::Reserved("admin".into()))
        );
        assert_eq!(
            auth.sign_up("a'; DROP TABLE accounts; --", PASSWORD, T0)
                .await
                .unwrap_err(),
            AuthError::Username(UsernameError::Character('\''))
        );
        assert_eq!(
            auth.sign_up("newcomer", "Password1", T0).await.unwrap_err(),
            AuthError::Password(PasswordError::Common)
        );
        assert_eq!(
            auth.sign_up("newcomer", "short", T0).await.unwrap_err(),
            AuthError::Password(PasswordError::TooShort)
        );
        // The first session is live, and the name reads back as typed.
        let session = auth
            .session(made.session.cookie.expose(), T0 + 1)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(session.account, made.account);
        assert!(session.csrf_matches(made.session.csrf.expose()));
        assert!(!session.csrf_matches(made.session.cookie.expose()));
        let account = auth.account(&made.account).await.unwrap().unwrap();
        assert_eq!(account.shown_name(), "Kris_Burm");
        // Nothing secret is stored as given.
        let (cookie, hash) = (made.session.cookie.expose().to_owned(), PASSWORD);
        let leaked = store
            .query(move |db| {
                let rows = db.query(
                    "SELECT a.password_hash, s.hash FROM accounts a JOIN sessions s ON s.account = a.id",
                    &[],
                )?;
                let r = &rows[0];
                Ok(r.text("password_hash")?.contains(hash) || r.text("hash")? == cookie)
            })
            .await
            .unwrap();
        assert!(!leaked);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_in_waits_longer_after_five_failures_on_every_server() {
    let (dbs, cluster) = databases("sign-in");
    for db in dbs {
        let store = Store::open::<Stored>(&db, TimeSource::system()).unwrap();
        // On PostgreSQL a second server shares the count.
        let second = cluster
            .as_ref()
            .filter(|c| db.to_str() == Some(c.url.as_str()))
            .map(|c| Store::open::<Stored>(&PathBuf::from(&c.url), TimeSource::system()).unwrap());
        let (a, b) = (auth(&store), auth(second.as_ref().unwrap_or(&store)));
        let made = a.sign_up("alice", PASSWORD, T0).await.unwrap();
        let address: IpAddr = "192.0.2.1".parse().unwrap();
        let elsewhere: IpAddr = "198.51.100.9".parse().unwrap();
        let ok = a
            .sign_in("ALICE", PASSWORD, Some(address), T0)
            .await
            .unwrap();
        assert_eq!(ok.account, made.account);
        // Unknown names and wrong passwords are refused alike.
        assert_eq!(
            a.sign_in("nobody-here", PASSWORD, Some(elsewhere), T0)
                .await
                .unwrap_err(),
            AuthError::Wrong
        );
        let mut now = T0;
        for i in 0..5 {
            let server = if i % 2 == 0 { &a } else { &b };
            let e = server
                .sign_in("alice", "wrong password", Some(address), now)
                .await;
            assert_eq!(e.unwrap_err(), AuthError::Wrong, "attempt {i}");
            now += 10;
        }
        // The sixth must wait, even with the right password, on either server.
        for server in [&a, &b] {
            match server
                .sign_in("alice", PASSWORD, Some(elsewhere), now)
                .await
            {
                Err(AuthError::Throttled(t)) => {
                    assert!(t.retry_after_ms > 0 && t.retry_after_ms <= FIRST_WAIT_MS)
                }
                other => panic!("not throttled: {other:?}"),
            }
        }
        // After the wait, another failure makes it twice as long.
        now += FIRST_WAIT_MS;
        let e = b.sign_in("alice", "wrong again", Some(address), now).await;
        assert_eq!(e.unwrap_err(), AuthError::Wrong);
        match a.sign_in("alice", PASSWORD, None, now + 1).await {
            Err(AuthError::Throttled(t)) => {
                assert!(t.retry_after_ms > FIRST_WAIT_MS && t.retry_after_ms <= 2 * FIRST_WAIT_MS)
            }
            other => panic!("not throttled: {other:?}"),
        }
        // The right password after the wait clears the name's count.
        now += 2 * FIRST_WAIT_MS;
        a.sign_in("alice", PASSWORD, Some(elsewhere), now)
            .await
            .unwrap();
        let e = a.sign_in("alice", "wrong", Some(elsewhere), now).await;
        assert_eq!(e.unwrap_err(), AuthError::Wrong);
        a.sign_in("alice", PASSWORD, Some(elsewhere), now + 1)
            .await
            .unwrap();
        // The address that failed keeps its six failures: a success elsewhere clears only the
        // name's count.
        let failures = store
            .query(move |db| {
                let key = throttle::address_key(address);
                db.query_opt(
                    "SELECT failures FROM sign_in_failures WHERE key = $1",
                    &[key.into()],
                )?
                .map(|r| r.int("failures"))
                .transpose()
            })
            .await
            .unwrap();
        assert_eq!(failures, Some(6), "{db:?}");
        // A day later everything is forgotten.
        let later = now + throttle::FORGET_MS + 1;
        let purged = store
            .transact(move |db| throttle::purge(db, later))
            .await
            .unwrap();
        assert!(purged >= 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_expire_end_one_by_one_or_all_others() {
    let (dbs, _cluster) = databases("sessions");
    for db in dbs {
        let store = Store::open::<Stored>(&db, TimeSource::system()).unwrap();
        let auth = auth(&store);
        let first = auth.sign_up("bob", PASSWORD, T0).await.unwrap();
        let second = auth.sign_in("bob", PASSWORD, None, T0 + 1).await.unwrap();
        let third = auth.sign_in("bob", PASSWORD, None, T0 + 2).await.unwrap();
        let cookie = |s: &punct_server::players::sessions::NewSession| s.cookie.expose().to_owned();
        // Unused for the idle time, a session is gone; used, it lives on.
        assert!(
            auth.session(&cookie(&first.session), T0 + IDLE_MS)
                .await
                .unwrap()
                .is_none()
        );
        let used = T0 + 1 + TOUCH_AFTER_MS;
        assert!(
            auth.session(&cookie(&second.session), used)
                .await
                .unwrap()
                .is_some()
        );
        assert!(
            auth.session(&cookie(&second.session), T0 + IDLE_MS + 10)
                .await
                .unwrap()
                .is_some()
        );
        // Signing out ends that one only.
        auth.sign_out(&cookie(&third.session)).await.unwrap();
        assert!(
            auth.session(&cookie(&third.session), used)
                .await
                .unwrap()
                .is_none()
        );
        assert!(
            auth.session(&cookie(&second.session), used)
                .await
                .unwrap()
                .is_some()
        );
        // A password change ends every other session, and the new password signs in.
        let fourth = auth.sign_in("bob", PASSWORD, None, used).await.unwrap();
        let current = auth
            .session(&cookie(&fourth.session), used)
            .await
            .unwrap()
            .unwrap();
        let wrong = auth
            .change_password(&current, "not my password", "a brand new password", used)
            .await;
        assert_eq!(wrong.unwrap_err(), AuthError::Wrong);
        auth.change_password(&current, PASSWORD, "a brand new password", used)
            .await
            .unwrap();
        assert!(
            auth.session(&cookie(&second.session), used)
                .await
                .unwrap()
                .is_none()
        );
        assert!(
            auth.session(&cookie(&fourth.session), used)
                .await
                .unwrap()
                .is_some()
        );
        assert_eq!(
            auth.sign_in("bob", PASSWORD, None, used).await.unwrap_err(),
            AuthError::Wrong
        );
        auth.sign_in("bob", "a brand new password", None, used)
            .await
            .unwrap();
        // Expired sessions are purged.
        let late = used + 2 * IDLE_MS;
        let purged = store
            .transact(move |db| sessions::purge(db, late))
            .await
            .unwrap();
        assert!(purged >= 2);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_tokens_are_named_listed_found_and_revoked() {
    let (dbs, _cluster) = databases("tokens");
    for db in dbs {
        let store = Store::open::<Stored>(&db, TimeSource::system()).unwrap();
        let auth = auth(&store);
        let carol = auth.sign_up("carol", PASSWORD, T0).await.unwrap().account;
        let dave = auth.sign_up("dave", PASSWORD, T0).await.unwrap().account;
        let id = carol.clone();
        let (token_id, token) = store
            .transact(move |db| tokens::create(db, &id, "  my bot  ", T0))
            .await
            .unwrap()
            .unwrap();
        assert!(token.expose().starts_with("punct_"));
        let id = carol.clone();
        let bad = store
            .transact(move |db| tokens::create(db, &id, "", T0))
            .await
            .unwrap();
        assert_eq!(bad.unwrap_err(), tokens::TokenError::Name);
        let id = carol.clone();
        let list = store
            .query(move |db| tokens::of_account(db, &id))
            .await
            .unwrap();
        assert_eq!(list.len(), 1);
        assert_eq!(
            (list[0].id.as_str(), list[0].name.as_str()),
            (token_id.as_str(), "my bot")
        );
        assert_eq!(
            auth.bearer(token.expose(), T0).await.unwrap(),
            Some((carol.clone(), token_id.clone()))
        );
        assert_eq!(auth.bearer("punct_not-a-token", T0).await.unwrap(), None);
        assert_eq!(auth.bearer("Bearer nonsense", T0).await.unwrap(), None);
        // Its use is noted.
        let id = carol.clone();
        let list = store
            .query(move |db| tokens::of_account(db, &id))
            .await
            .unwrap();
        assert_eq!(list[0].used_ms, Some(T0));
        // Only its owner revokes it.
        let (other, tid) = (dave.clone(), token_id.clone());
        assert!(
            !store
                .transact(move |db| tokens::revoke(db, &other, &tid))
                .await
                .unwrap()
        );
        assert!(auth.bearer(token.expose(), T0).await.unwrap().is_some());
        let (owner, tid) = (carol.clone(), token_id.clone());
        assert!(
            store
                .transact(move |db| tokens::revoke(db, &owner, &tid))
                .await
                .unwrap()
        );
        assert_eq!(auth.bearer(token.expose(), T0).await.unwrap(), None);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_recovery_code_resets_the_password_once() {
    let (dbs, _cluster) = databases("recovery");
    for db in dbs {
        let store = Store::open::<Stored>(&db, TimeSource::system()).unwrap();
        let auth = auth(&store);
        let made = auth.sign_up("erin", PASSWORD, T0).await.unwrap();
        let code = made.recovery_codes[3].expose().to_lowercase();
        let wrong = auth
            .recover("erin", "AAAAA-AAAAA", "my new password here", None, T0)
            .await;
        assert_eq!(wrong.unwrap_err(), AuthError::WrongCode);
        let back = auth
            .recover("Erin", &code, "my new password here", None, T0 + 1)
            .await
            .unwrap();
        assert_eq!(back.account, made.account);
        // The old session is over, the new one live, the new password signs in.
        let old = made.session.cookie.expose();
        assert!(auth.session(old, T0 + 2).await.unwrap().is_none());
        assert!(
            auth.session(back.session.cookie.expose(), T0 + 2)
                .await
                .unwrap()
                .is_some()
        );
        auth.sign_in("erin", "my new password here", None, T0 + 3)
            .await
            .unwrap();
        // Spent: the same code again is refused.
        let again = auth
            .recover("erin", &code, "yet another password", None, T0 + 4)
            .await;
        assert_eq!(again.unwrap_err(), AuthError::WrongCode);
        let id = made.account.clone();
        assert_eq!(
            store
                .query(move |db| recovery::left(db, &id))
                .await
                .unwrap(),
            9
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_account_keeps_its_games_under_deleted() {
    let (dbs, _cluster) = databases("delete");
    for db in dbs {
        let store = Store::open::<Stored>(&db, TimeSource::system()).unwrap();
        let auth = auth(&store);
        let frank = auth.sign_up("frank", PASSWORD, T0).await.unwrap();
        let grace = auth.sign_up("grace", PASSWORD, T0).await.unwrap();
        let seats = [
            (punct_core::Colour::White, &frank.account, &grace.account),
            (punct_core::Colour::Black, &grace.account, &frank.account),
        ]
        .map(|(colour, account, opponent)| {
            std::sync::Arc::new(games::joined(&games::Seat {
                game: "game0001".into(),
                colour,
                account: account.clone(),
                opponent: Some(opponent.clone()),
                speed: punct_server::players::speed::Speed::Rapid,
                rated: false,
                started_ms: T0,
            })) as std::sync::Arc<dyn punct_server::store::sql::Attached>
        });
        store
            .save_with("game0001", 1, "{}".into(), true, T0, seats.to_vec())
            .await
            .unwrap();
        assert_eq!(
            auth.delete_account(&frank.account, "wrong", T0)
                .await
                .unwrap_err(),
            AuthError::Wrong
        );
        auth.delete_account(&frank.account, PASSWORD, T0 + 1)
            .await
            .unwrap();
        let account = auth.account(&frank.account).await.unwrap().unwrap();
        assert_eq!(account.shown_name(), "deleted");
        assert!(
            auth.session(frank.session.cookie.expose(), T0 + 2)
                .await
                .unwrap()
                .is_none()
        );
        assert_eq!(
            auth.sign_in("frank", PASSWORD, None, T0 + 2)
                .await
                .unwrap_err(),
            AuthError::Wrong
        );
        // The name stays taken.
        assert!(matches!(
            auth.sign_up("Frank", PASSWORD, T0 + 3).await,
            Err(AuthError::Taken(_))
        ));
        // Grace's list still shows the game, against "deleted".
        let g = grace.account.clone();
        let list = store
            .query(move |db| games::of_account(db, &g, &games::Filter::default(), 10))
            .await
            .unwrap();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].opponent.as_deref(), Some("deleted"));
        let found = store
            .query(|db| accounts::search(db, "fr", 10))
            .await
            .unwrap();
        assert!(found.is_empty());
    }
}
