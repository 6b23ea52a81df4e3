//! The account routes through the real server, on SQLite and on a real PostgreSQL: sign up
//! and sign in with the session cookie's flags, the CSRF and Origin checks on every
//! cookie-carrying change, the limit on guessing (429 with `Retry-After`, the server's time
//! moved on by the test's clock file, no sleeping), API tokens, a password change ending the
//! other sessions, recovery with a code, deletion; and no password, token or cookie in the
//! server's log.

mod common;

use std::path::Path;

use common::pg_cluster::databases;
use common::{ClockFile, Process, free_addr, start_in_process_with, temp_db};
use reqwest::Method;
use reqwest::header::{HeaderMap, SET_COOKIE};
use serde_json::{Value, json};

const PASSWORD: &str = "a long walk in the hills";

/// A browser of the test's: its cookies, its CSRF token, the page it says it comes from and
/// the address the (trusted) proxy says it has, so that each flow has its own record of
/// failed sign-ins.
struct Browser {
    base: String,
    address: String,
    session: Option<String>,
    csrf: Option<String>,
    origin: Option<String>,
    send_csrf: bool,
}

/// An answer: its status, its `Set-Cookie` headers and its JSON body.
struct Answer {
    status: u16,
    cookies: Vec<String>,
    headers: HeaderMap,
    body: Value,
}

impl Browser {
    fn new(base: &str, address: &str) -> Browser {
        Browser {
            base: base.to_owned(),
            address: address.to_owned(),
            session: None,
            csrf: None,
            origin: Some(base.to_owned()),
            send_csrf: true,
        }
    }

    async fn send(&mut self, method: Method, path: &str, body: Option<Value>) -> Answer {
        let client = reqwest::Client::new();
        let mut req = client
            .request(method, format!("{}{path}", self.base))
            .header("x-forwarded-for", &self.address);
        if let Some(s) = &self.session {
            req = req.header("cookie", format!("punct_session={s}"));
        }
        if let Some(o) = &self.origin {
            req = req.header("origin", o);
        }
        if self.send_csrf
            && let Some(c) = &self.csrf
        {
            req = req.header("x-csrf-token", c);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await.expect("the server answers");
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        let cookies: Vec<String> = headers
            .get_all(SET_COOKIE)
            .iter()
            .map(|v| v.to_str().unwrap().to_owned())
            .collect();
        for c in &cookies {
            let (pair, _) = c.split_once(';').unwrap();
            let (name, value) = pair.split_once('=').unwrap();
            let value = (!value.is_empty()).then(|| value.to_owned());
            match name {
                "punct_session" => self.session = value,
                "punct_csrf" => self.csrf = value,
                _ => {}
            }
        }
        let text = resp.text().await.unwrap();
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Answer {
            status,
            cookies,
            headers,
            body,
        }
    }

    async fn sign_up(&mut self, name: &str) -> Answer {
        let body = json!({ "username": name, "password": PASSWORD });
        self.send(Method::POST, "/api/account", Some(body)).await
    }

    async fn sign_in(&mut self, name: &str, password: &str) -> Answer {
        let body = json!({ "username": name, "password": password });
        self.send(Method::POST, "/api/session", Some(body)).await
    }

    async fn me(&mut self) -> Value {
        let a = self.send(Method::GET, "/api/account", None).await;
        assert_eq!(a.status, 200, "{}", a.body);
        a.body
    }
}

/// A server on `db` behind a "proxy" (its forwarded headers believed), on the clock file
/// `clock`.
async fn server(db: &Path, clock: &Path) -> String {
    let clock = clock.to_owned();
    start_in_process_with(db, move |c| {
        c.trust_proxy = true;
        c.clock_file = Some(clock);
    })
    .await
}

async fn sign_up_and_in_with_the_cookie_s_flags(base: &str) {
    let mut b = Browser::new(base, "10.0.0.1");
    let made = b.sign_up("Kris_Burm").await;
    assert_eq!(made.status, 201, "{}", made.body);
    assert_eq!(made.body["account"]["username"], "Kris_Burm");
    let codes = made.body["recovery_codes"].as_array().unwrap();
    assert_eq!(codes.len(), 10);
    let session = made
        .cookies
        .iter()
        .find(|c| c.starts_with("punct_session="))
        .unwrap();
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] {
        assert!(session.contains(flag), "{session} lacks {flag}");
    }
    assert!(!session.contains("Secure"), "plain HTTP: {session}");
    let csrf = made
        .cookies
        .iter()
        .find(|c| c.starts_with("punct_csrf="))
        .unwrap();
    assert!(!csrf.contains("HttpOnly"), "the page reads it: {csrf}");
    assert_eq!(Some(made.body["csrf"].as_str().unwrap()), b.csrf.as_deref());

    let me = b.me().await;
    assert_eq!(me["account"]["username"], "Kris_Burm");
    assert_eq!(me["by"], "session");
    assert_eq!(me["csrf"].as_str(), b.csrf.as_deref());

    // Taken ignoring case, a bad name, a weak password.
    let mut other = Browser::new(base, "10.0.0.2");
    assert_eq!(other.sign_up("kris_burm").await.status, 409);
    let bad = other
        .send(
            Method::POST,
            "/api/account",
            Some(json!({ "username": "a b", "password": PASSWORD })),
        )
        .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    let weak = other
        .send(
            Method::POST,
            "/api/account",
            Some(json!({ "username": "weakling", "password": "password1" })),
        )
        .await;
    assert_eq!(weak.status, 400, "{}", weak.body);
    assert_eq!(other.me().await["account"], Value::Null);

    // Signing out ends the session and clears both cookies.
    let old = b.session.clone();
    let out = b.send(Method::DELETE, "/api/session", None).await;
    assert_eq!(out.status, 204, "{}", out.body);
    assert!(
        out.cookies.iter().all(|c| c.contains("Max-Age=0")),
        "{:?}",
        out.cookies
    );
    assert_eq!(b.session, None);
    b.session = old;
    let stale = b.send(Method::GET, "/api/account", None).await;
    assert_eq!(stale.body["account"], Value::Null);
    assert!(
        stale
            .cookies
            .iter()
            .any(|c| c.starts_with("punct_session=;")),
        "an ended session's cookie is cleared"
    );

    let wrong = b.sign_in("Kris_Burm", "not the password").await;
    assert_eq!(wrong.status, 401, "{}", wrong.body);
    let nobody = b.sign_in("nobody_here", PASSWORD).await;
    assert_eq!(
        (nobody.status, &nobody.body["error"]),
        (401, &wrong.body["error"])
    );
    let back = b.sign_in("KRIS_BURM", PASSWORD).await;
    assert_eq!(back.status, 200, "{}", back.body);
    assert_eq!(back.body["account"]["username"], "Kris_Burm");
    assert_eq!(b.me().await["account"]["username"], "Kris_Burm");

    // Over HTTPS (as the trusted proxy says), the cookies are Secure.
    let client = reqwest::Client::new();
    let over_tls = client
        .post(format!("{base}/api/session"))
        .header("x-forwarded-proto", "https")
        .header("x-forwarded-for", "10.0.0.3")
        .json(&json!({ "username": "Kris_Burm", "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(over_tls.status(), 200);
    let secure: Vec<_> = over_tls.headers().get_all(SET_COOKIE).iter().collect();
    assert_eq!(secure.len(), 2);
    assert!(
        secure
            .iter()
            .all(|c| c.to_str().unwrap().ends_with("; Secure")),
        "{secure:?}"
    );
}

async fn changes_need_our_origin_and_the_csrf_token(base: &str) {
    let mut b = Browser::new(base, "10.0.1.1");
    assert_eq!(b.sign_up("csrf_victim").await.status, 201);
    let token = json!({ "name": "script" });
    let refused = |a: &Answer, why: &str| {
        assert_eq!(a.status, 403, "{}", a.body);
        let error = a.body["error"].as_str().unwrap();
        assert!(error.contains(why), "{error}");
    };

    b.origin = Some("https://evil.example".into());
    refused(
        &b.send(Method::POST, "/api/account/tokens", Some(token.clone()))
            .await,
        "another site",
    );
    b.origin = None;
    refused(
        &b.send(Method::POST, "/api/account/tokens", Some(token.clone()))
            .await,
        "Origin or Referer",
    );
    b.origin = Some(base.to_owned());
    b.send_csrf = false;
    refused(
        &b.send(Method::POST, "/api/account/tokens", Some(token.clone()))
            .await,
        "CSRF token",
    );
    // A game's routes are guarded alike: a signed-in browser's new game needs the token.
    refused(
        &b.send(
            Method::POST,
            "/api/games",
            Some(json!({ "mode": "friend" })),
        )
        .await,
        "CSRF token",
    );
    b.send_csrf = true;
    let right = b.csrf.clone();
    b.csrf = Some("not-the-token".into());
    refused(
        &b.send(Method::POST, "/api/account/tokens", Some(token.clone()))
            .await,
        "not this session's",
    );
    b.csrf = right;
    let listed = b.send(Method::GET, "/api/account/tokens", None).await;
    assert_eq!(listed.body["tokens"], json!([]), "nothing was made");

    // The Referer stands in for a missing Origin.
    b.origin = None;
    let client = reqwest::Client::new();
    let by_referer = client
        .post(format!("{base}/api/account/tokens"))
        .header(
            "cookie",
            format!("punct_session={}", b.session.as_deref().unwrap()),
        )
        .header("x-csrf-token", b.csrf.as_deref().unwrap())
        .header("referer", format!("{base}/account"))
        .json(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(by_referer.status(), 201);
    b.origin = Some(base.to_owned());

    // A WebSocket upgrade carrying the cookie needs the token too (in its query).
    let (id, _) = common::create(base, json!({ "mode": "friend" })).await;
    let ws = |csrf: Option<String>| {
        let mut url = format!("{}/api/games/{id}/ws", base.replace("http", "ws"));
        if let Some(c) = csrf {
            url.push_str(&format!("?csrf={c}"));
        }
        let mut req =
            tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(url)
                .unwrap();
        let h = req.headers_mut();
        h.insert("origin", base.parse().unwrap());
        h.insert(
            "cookie",
            format!("punct_session={}", b.session.as_deref().unwrap())
                .parse()
                .unwrap(),
        );
        req
    };
    let without = tokio_tungstenite::connect_async(ws(None)).await;
    match without {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => assert_eq!(r.status(), 403),
        other => panic!(
            "an upgrade without the token was not refused: {:?}",
            other.map(|_| ())
        ),
    }
    assert!(
        tokio_tungstenite::connect_async(ws(b.csrf.clone()))
            .await
            .is_ok()
    );

    // Signing somebody in from another site is refused too, cookie or not.
    let mut stranger = Browser::new(base, "10.0.1.2");
    stranger.origin = Some("https://evil.example".into());
    refused(
        &stranger.sign_in("csrf_victim", PASSWORD).await,
        "another site",
    );
    // Reads are not changes.
    assert_eq!(b.send(Method::GET, "/api/account", None).await.status, 200);
}

async fn guessing_waits_after_five_failures(base: &str, clock: &mut ClockFile) {
    let mut owner = Browser::new(base, "10.0.2.1");
    assert_eq!(owner.sign_up("guessed").await.status, 201);
    let mut guesser = Browser::new(base, "10.0.2.2");
    for _ in 0..5 {
        let a = guesser.sign_in("guessed", "wrong password").await;
        assert_eq!(a.status, 401, "{}", a.body);
    }
    let held = guesser.sign_in("guessed", PASSWORD).await;
    assert_eq!(held.status, 429, "{}", held.body);
    assert_eq!(held.headers["retry-after"], "5");
    // The name is held from any address, and the guesser's address for any name.
    let mut elsewhere = Browser::new(base, "10.0.2.3");
    assert_eq!(elsewhere.sign_in("guessed", PASSWORD).await.status, 429);
    assert_eq!(guesser.sign_in("kris_unknown", PASSWORD).await.status, 429);

    clock.advance(5_000);
    // The server reads the clock file within 10 ms; a refused attempt counts nothing, so
    // asking until it has is harmless.
    let started = std::time::Instant::now();
    let after = loop {
        let a = elsewhere.sign_in("guessed", PASSWORD).await;
        if a.status != 429 || started.elapsed() > std::time::Duration::from_secs(2) {
            break a;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    };
    assert_eq!(after.status, 200, "{}", after.body);
    // The guesser's address: five failures, so the next failure waits twice as long.
    let again = guesser.sign_in("guessed", "wrong again").await;
    assert_eq!(again.status, 401);
    let longer = guesser.sign_in("guessed", "wrong again").await;
    assert_eq!(longer.status, 429);
    assert_eq!(longer.headers["retry-after"], "10");
}

async fn api_tokens_need_no_csrf_and_end_when_revoked(base: &str) {
    let mut b = Browser::new(base, "10.0.3.1");
    assert_eq!(b.sign_up("scripter").await.status, 201);
    let made = b
        .send(
            Method::POST,
            "/api/account/tokens",
            Some(json!({ "name": "my bot" })),
        )
        .await;
    assert_eq!(made.status, 201, "{}", made.body);
    let token = made.body["token"].as_str().unwrap().to_owned();
    assert!(token.starts_with("punct_"));
    let listed = b.send(Method::GET, "/api/account/tokens", None).await;
    assert_eq!(listed.body["tokens"][0]["name"], "my bot");
    assert!(
        !listed.body.to_string().contains(&token),
        "a token is shown once"
    );

    let (status, me) = common::get(&format!("{base}/api/account"), Some(&token)).await;
    assert_eq!(
        (status, &me["account"]["username"], &me["by"]),
        (200, &json!("scripter"), &json!("token"))
    );
    assert_eq!(me["csrf"], Value::Null);
    // A change by token needs no CSRF token (a page on another site cannot send the header).
    let (status, v) = common::post(
        &format!("{base}/api/account/tokens"),
        Some(&token),
        json!({ "name": "second" }),
    )
    .await;
    assert_eq!(status, 201, "{v}");
    // Seat tokens still work as before beside API tokens: they are not `punct_…`.
    let (id, seat) = common::create(base, json!({ "mode": "friend" })).await;
    let (status, _) = common::get(&format!("{base}/api/games/{id}"), Some(&seat)).await;
    assert_eq!(status, 200);

    let id = made.body["id"].as_str().unwrap();
    assert_eq!(
        b.send(Method::DELETE, &format!("/api/account/tokens/{id}"), None)
            .await
            .status,
        204
    );
    let (status, v) = common::get(&format!("{base}/api/account"), Some(&token)).await;
    assert_eq!(status, 401, "{v}");
    assert_eq!(
        b.send(Method::DELETE, &format!("/api/account/tokens/{id}"), None)
            .await
            .status,
        404
    );
}

async fn a_password_change_ends_the_other_sessions(base: &str) {
    let mut here = Browser::new(base, "10.0.4.1");
    assert_eq!(here.sign_up("changer").await.status, 201);
    let mut there = Browser::new(base, "10.0.4.2");
    assert_eq!(there.sign_in("changer", PASSWORD).await.status, 200);
    let change = |old: &str| json!({ "password": old, "new_password": "another long sentence" });
    let wrong = here
        .send(
            Method::POST,
            "/api/account/password",
            Some(change("not it")),
        )
        .await;
    assert_eq!(wrong.status, 401, "{}", wrong.body);
    let changed = here
        .send(
            Method::POST,
            "/api/account/password",
            Some(change(PASSWORD)),
        )
        .await;
    assert_eq!(changed.status, 204, "{}", changed.body);
    assert_eq!(here.me().await["account"]["username"], "changer");
    assert_eq!(
        there.me().await["account"],
        Value::Null,
        "the other session ended"
    );
    assert_eq!(there.sign_in("changer", PASSWORD).await.status, 401);
    assert_eq!(
        there
            .sign_in("changer", "another long sentence")
            .await
            .status,
        200
    );
}

async fn a_recovery_code_resets_the_password_once(base: &str) {
    let mut b = Browser::new(base, "10.0.5.1");
    let made = b.sign_up("forgetful").await;
    let code = made.body["recovery_codes"][3].as_str().unwrap().to_owned();
    let mut lost = Browser::new(base, "10.0.5.2");
    let reset = |code: &str| json!({ "username": "forgetful", "code": code, "new_password": "remembered at last" });
    let wrong = lost
        .send(
            Method::POST,
            "/api/account/recover",
            Some(reset("AAAAA-AAAAA")),
        )
        .await;
    assert_eq!(wrong.status, 401, "{}", wrong.body);
    let ok = lost
        .send(
            Method::POST,
            "/api/account/recover",
            Some(reset(&code.to_lowercase())),
        )
        .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(lost.me().await["account"]["username"], "forgetful");
    assert_eq!(
        b.me().await["account"],
        Value::Null,
        "every older session ended"
    );
    let twice = Browser::new(base, "10.0.5.3")
        .send(Method::POST, "/api/account/recover", Some(reset(&code)))
        .await;
    assert_eq!(twice.status, 401, "a code works once");
    assert_eq!(
        b.sign_in("forgetful", "remembered at last").await.status,
        200
    );
}

async fn a_deleted_account_signs_in_no_more(base: &str) {
    let mut b = Browser::new(base, "10.0.6.1");
    assert_eq!(b.sign_up("leaving").await.status, 201);
    let wrong = b
        .send(
            Method::DELETE,
            "/api/account",
            Some(json!({ "password": "not it" })),
        )
        .await;
    assert_eq!(wrong.status, 401);
    let gone = b
        .send(
            Method::DELETE,
            "/api/account",
            Some(json!({ "password": PASSWORD })),
        )
        .await;
    assert_eq!(gone.status, 204, "{}", gone.body);
    assert_eq!(b.session, None, "its cookies are cleared");
    assert_eq!(b.sign_in("leaving", PASSWORD).await.status, 401);
    assert_eq!(
        b.sign_up("Leaving").await.status,
        409,
        "the name stays taken"
    );
    let anonymous = b
        .send(
            Method::POST,
            "/api/account/tokens",
            Some(json!({ "name": "x" })),
        )
        .await;
    assert_eq!(anonymous.status, 401);
}

/// The profiles, leaderboards and search, over ratings and games written beside the server
/// (on PostgreSQL, which a second connection may share) or none (on SQLite, locked by the
/// server).
async fn profiles_boards_and_search(base: &str, db: &Path) {
    let mut ids = Vec::new();
    for name in ["Ranked_One", "ranked_two", "Newcomer"] {
        let mut b = Browser::new(base, "10.0.8.1");
        assert_eq!(b.sign_up(name).await.status, 201);
        ids.push(b.me().await["account"]["id"].as_str().unwrap().to_owned());
    }
    let seeded = db.to_string_lossy().starts_with("postgres");
    if seeded {
        let store = punct_server::store::Store::open::<punct_server::room::Stored>(
            db,
            punct_server::ops::time::TimeSource::system(),
        )
        .unwrap();
        let (a, b, c) = (ids[0].clone(), ids[1].clone(), ids[2].clone());
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64;
        store
            .transact(move |db| {
                use punct_server::store::sql::Value;
                macro_rules! args {
                    ($($v:expr),*) => { [$(Value::from($v)),*] };
                }
                for (who, rating, rd) in [(&a, 1712.4, 60.0), (&b, 1650.0, 80.0), (&c, 1800.0, 200.0)] {
                    db.execute(
                        "INSERT INTO ratings (account, speed, rating, rd, volatility, games, updated_ms)
                         VALUES ($1, 'blitz', $2, $3, 0.06, 30, $4)",
                        &args![who.as_str(), rating, rd, now],
                    )?;
                }
                for (i, (rating, change)) in [(1700.0, 12.0), (1712.4, 12.4)].into_iter().enumerate() {
                    db.execute(
                        "INSERT INTO rating_history (account, game, speed, at_ms, rating, rd, change)
                         VALUES ($1, $2, 'blitz', $3, $4, 60, $5)",
                        &args![a.as_str(), format!("g{i}"), now - 1000 + i as i64, rating, change],
                    )?;
                    db.execute(
                        "INSERT INTO account_games (game, colour, account, opponent, speed, rated, live,
                           to_move, result, rating_change, started_ms, ended_ms)
                         VALUES ($1, 'white', $2, $3, 'blitz', TRUE, FALSE, FALSE, 'win', $4, $5, $5)",
                        &args![format!("g{i}"), a.as_str(), b.as_str(), change, now - 1000 + i as i64],
                    )?;
                }
                db.execute(
                    "INSERT INTO account_games (game, colour, account, speed, rated, live, to_move, started_ms)
                     VALUES ('g2', 'black', $1, 'rapid', FALSE, TRUE, TRUE, $2)",
                    &args![a.as_str(), now],
                )?;
                Ok(())
            })
            .await
            .unwrap();
    }
    let (status, p) = common::get(&format!("{base}/api/players/ranked_one"), None).await;
    assert_eq!(status, 200, "{p}");
    assert_eq!(p["username"], "Ranked_One");
    let blitz = &p["ratings"][0];
    assert_eq!(blitz["speed"], "blitz");
    if seeded {
        assert_eq!(
            (&blitz["rating"], &blitz["provisional"]),
            (&json!(1712), &json!(false))
        );
        assert_eq!(
            (&p["wins"], &p["draws"], &p["losses"]),
            (&json!(2), &json!(0), &json!(0))
        );
        let (_, h) = common::get(
            &format!("{base}/api/players/Ranked_One/history?speed=blitz"),
            None,
        )
        .await;
        assert_eq!(h["points"].as_array().unwrap().len(), 2);
        assert_eq!(h["points"][1]["change"], 12);
        let (_, g) = common::get(
            &format!(
                "{base}/api/players/Ranked_One/games?live=false&result=win&opponent=ranked_two"
            ),
            None,
        )
        .await;
        assert_eq!(g["games"].as_array().unwrap().len(), 2, "{g}");
        assert_eq!(g["games"][0]["opponent"], "ranked_two");
        let (_, g) = common::get(
            &format!("{base}/api/players/Ranked_One/games?live=true"),
            None,
        )
        .await;
        assert_eq!(g["games"][0]["game"], "g2");
        let (_, board) = common::get(&format!("{base}/api/leaderboard/blitz"), None).await;
        let names: Vec<_> = board["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["username"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            ["Ranked_One", "ranked_two"],
            "the provisional player is left out"
        );
    } else {
        assert_eq!(
            (&blitz["rating"], &blitz["provisional"]),
            (&json!(1500), &json!(true))
        );
        let (_, board) = common::get(&format!("{base}/api/leaderboard/blitz"), None).await;
        assert_eq!(board["players"], json!([]));
    }
    let (_, found) = common::get(&format!("{base}/api/players?prefix=RANK"), None).await;
    assert_eq!(found["players"], json!(["Ranked_One", "ranked_two"]));
    let (_, found) = common::get(&format!("{base}/api/players?prefix=r_"), None).await;
    assert_eq!(found["players"], json!([]), "`_` is no pattern");
    assert_eq!(
        common::get(&format!("{base}/api/players/nobody_at_all"), None)
            .await
            .0,
        404
    );
    assert_eq!(
        common::get(&format!("{base}/api/leaderboard/bullet"), None)
            .await
            .0,
        400
    );
    assert_eq!(
        common::get(
            &format!("{base}/api/players/Ranked_One/games?result=maybe"),
            None
        )
        .await
        .0,
        400
    );
}

/// Games played before signing in are claimed by their seat tokens; the site's settings
/// are kept with the account; the export holds the profile and the games' records.
async fn claims_settings_and_export(base: &str) {
    let (id, white, _black) = common::friend_game(base, None).await;
    let (other, _) = common::create(base, json!({ "mode": "friend" })).await;
    let mut b = Browser::new(base, "10.0.9.1");
    assert_eq!(b.sign_up("claimer").await.status, 201);
    let claim = json!({ "games": [{ "id": id, "token": white }, { "id": other, "token": "not-its-token" }] });
    let claimed = b
        .send(Method::POST, "/api/account/claim", Some(claim.clone()))
        .await;
    assert_eq!(claimed.status, 200, "{}", claimed.body);
    assert_eq!(
        claimed.body["games"],
        json!([id]),
        "a wrong token claims nothing"
    );
    assert_eq!(
        b.send(Method::POST, "/api/account/claim", Some(claim))
            .await
            .status,
        200,
        "twice is harmless"
    );
    let (_, g) = common::get(&format!("{base}/api/players/claimer/games?live=true"), None).await;
    assert_eq!(g["games"].as_array().unwrap().len(), 1, "{g}");
    assert_eq!(
        (&g["games"][0]["game"], &g["games"][0]["colour"]),
        (&json!(id), &json!("white"))
    );

    let none = b.send(Method::GET, "/api/account/settings", None).await;
    assert_eq!(
        none.body,
        json!({ "board": null, "pieces": null, "theme": null })
    );
    let look = json!({ "board": "slate", "pieces": "stones", "theme": "dark" });
    assert_eq!(
        b.send(Method::PUT, "/api/account/settings", Some(look.clone()))
            .await
            .status,
        204
    );
    let mut elsewhere = Browser::new(base, "10.0.9.2");
    assert_eq!(elsewhere.sign_in("claimer", PASSWORD).await.status, 200);
    assert_eq!(
        elsewhere
            .send(Method::GET, "/api/account/settings", None)
            .await
            .body,
        look
    );
    let bad = b
        .send(
            Method::PUT,
            "/api/account/settings",
            Some(json!({ "board": "<script>" })),
        )
        .await;
    assert_eq!(bad.status, 400, "{}", bad.body);

    let export = b.send(Method::GET, "/api/account/export", None).await;
    assert_eq!(export.status, 200, "{}", export.body);
    assert_eq!(export.body["profile"]["username"], "claimer");
    assert_eq!(export.body["games"], 1);
    assert!(
        export.body["records"].as_str().unwrap().contains('['),
        "{}",
        export.body
    );
    assert_eq!(
        Browser::new(base, "10.0.9.3")
            .send(Method::GET, "/api/account/export", None)
            .await
            .status,
        401
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_account_flow_on_sqlite_and_postgresql() {
    let (dbs, _cluster) = databases("accounts-http");
    for db in dbs {
        let dir = temp_db("accounts-http-clock");
        let mut clock = ClockFile::beside(&dir);
        let base = server(&db, &clock.path).await;
        sign_up_and_in_with_the_cookie_s_flags(&base).await;
        changes_need_our_origin_and_the_csrf_token(&base).await;
        guessing_waits_after_five_failures(&base, &mut clock).await;
        api_tokens_need_no_csrf_and_end_when_revoked(&base).await;
        a_password_change_ends_the_other_sessions(&base).await;
        a_recovery_code_resets_the_password_once(&base).await;
        a_deleted_account_signs_in_no_more(&base).await;
        profiles_boards_and_search(&base, &db).await;
        claims_settings_and_export(&base).await;
        ended_sessions_and_old_failures_are_swept(&db, &mut clock).await;
    }
}

/// The rows left by the flows above: sessions and sign-in failures. The server holds a
/// SQLite file locked against a second server, so that one is read as a plain reader.
async fn left(db: &Path) -> (i64, i64) {
    const TABLES: [&str; 2] = ["sessions", "sign_in_failures"];
    if !db.to_string_lossy().starts_with("postgres") {
        let reader =
            rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
                .unwrap();
        let count = |table: &str| {
            reader
                .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
                .unwrap()
        };
        return (count(TABLES[0]), count(TABLES[1]));
    }
    let store = punct_server::store::Store::open::<punct_server::room::Stored>(
        db,
        punct_server::ops::time::TimeSource::system(),
    )
    .unwrap();
    store
        .query(|db| {
            let count = |db: &mut dyn punct_server::store::sql::Sql, table: &str| {
                db.query_opt(&format!("SELECT COUNT(*) AS n FROM {table}"), &[])?
                    .expect("a count")
                    .int("n")
            };
            Ok((count(db, TABLES[0])?, count(db, TABLES[1])?))
        })
        .await
        .unwrap()
}

/// Once sessions have ended and failures are forgotten, the server's sweep deletes them:
/// the tables do not grow with every visit.
async fn ended_sessions_and_old_failures_are_swept(db: &Path, clock: &mut ClockFile) {
    use punct_server::players::{sessions, throttle};
    let (sessions_left, failures_left) = left(db).await;
    assert!(
        sessions_left > 0 && failures_left > 0,
        "{sessions_left} {failures_left}"
    );
    clock.advance(sessions::IDLE_MS + throttle::FORGET_MS + throttle::MAX_WAIT_MS);
    // The sweep runs when the server's time moves on (it reads the clock file within
    // 10 ms).
    let started = std::time::Instant::now();
    let swept = loop {
        let swept = left(db).await;
        if swept == (0, 0) || started.elapsed() > std::time::Duration::from_secs(5) {
            break swept;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    assert_eq!(swept, (0, 0), "sessions and failures left after the sweep");
}

/// The real binary, logging everything (`RUST_LOG=debug`), writes no password, token,
/// recovery code or cookie of an account's flows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_secret_reaches_the_log() {
    let db = temp_db("accounts-log");
    let addr = free_addr();
    let base = format!("http://{addr}");
    let mut server = Process::start_with(addr, &db, |c| {
        c.env("RUST_LOG", "debug")
            .stderr(std::process::Stdio::piped());
    })
    .await;
    let lines = server.stderr_lines();
    let mut b = Browser::new(&base, "10.0.7.1");
    let made = b.sign_up("logged").await;
    assert_eq!(made.status, 201);
    let mut secrets = vec![
        PASSWORD.to_owned(),
        b.session.clone().unwrap(),
        b.csrf.clone().unwrap(),
    ];
    secrets.extend(
        made.body["recovery_codes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_owned()),
    );
    assert_eq!(
        b.sign_in("logged", "a wrong password here").await.status,
        401
    );
    secrets.push("a wrong password here".into());
    let token = b
        .send(
            Method::POST,
            "/api/account/tokens",
            Some(json!({ "name": "t" })),
        )
        .await;
    secrets.push(token.body["token"].as_str().unwrap().to_owned());
    let change = json!({ "password": PASSWORD, "new_password": "the newest of passwords" });
    assert_eq!(
        b.send(Method::POST, "/api/account/password", Some(change))
            .await
            .status,
        204
    );
    secrets.push("the newest of passwords".into());
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    server.kill();
    let log = lines.lock().unwrap().join("\n");
    assert!(!log.is_empty(), "the server logged nothing at debug level");
    for secret in &secrets {
        assert!(
            !log.contains(secret.as_str()),
            "the log holds a secret: {secret}"
        );
    }
}
