//! The lobby in headless Chromium, two people in two browsers: both sign up; one puts up a
//! rated 5+3 seek from the lobby page, the other sees it come up live and accepts it with
//! one click; both land in the game (the seeker by the lobby's socket), play it to its end
//! (a move, then a resignation) and both profiles show the Glicko-2 ratings computed by
//! hand. Then a challenge from the profile page, declined, and another, accepted: the
//! challenged lands in the game; a bot's challenge, profile and seat are marked BOT. Skipped (with a message) without Chromium. (The
//! correspondence game across a restart with the controlled clock is tests/lobby_api.rs's.)

mod common;
mod webdriver;

use std::time::Duration;

use common::browser::Browser;
use punct_server::players::glicko2::{Rating, Score, rate_game};
use reqwest::Method;
use serde_json::json;
use webdriver::{Driver, Session};

const PASSWORD: &str = "a long walk in the hills";

async fn sign_up(s: &Session, base: &str, name: &str) {
    s.goto(&format!("{base}/signup")).await;
    s.wait(
        "the sign-up form",
        "return !!document.getElementById('signup-username');",
    )
    .await;
    s.type_into("#signup-username", name).await;
    s.type_into("#signup-password", PASSWORD).await;
    s.click("#signup-form button[type=submit]").await;
    s.wait(
        "the recovery codes",
        "return document.querySelectorAll('#recovery-codes code').length === 10;",
    )
    .await;
    s.click("#codes-kept").await;
    s.click("#codes-done").await;
    s.wait("signed in", &format!("const n = document.getElementById('account-name'); return !!n && n.textContent === '{name}';")).await;
}

/// Calls the API from the page (its session and CSRF token), returning the answer or
/// `refused: …`.
async fn api(s: &Session, method: &str, path: &str) -> serde_json::Value {
    s.eval_async(
        "const [m, p, done] = arguments; import('/js/net.js').then(n => n.api(m, p, { body: m === 'GET' ? undefined : {} })).then(done, e => done('refused: ' + e.message));",
        json!([method, path]),
    )
    .await
}

/// The game's id once the page shows a game.
async fn in_game(s: &Session, what: &str) -> String {
    let path = s
        .wait(
            what,
            "return location.pathname.startsWith('/g/') && location.pathname;",
        )
        .await;
    path.as_str().unwrap().trim_start_matches("/g/").to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_meet_in_the_lobby_and_by_challenge() {
    if !webdriver::available() {
        return;
    }
    webdriver::watchdog("the lobby browser test", Duration::from_secs(400));
    let base = common::start_in_process(&common::temp_db("browser-lobby")).await;
    tokio::time::timeout(Duration::from_secs(360), async {
        let driver = Driver::start().await;
        let ada = driver.session("lobby-ada").await;
        let bo = driver.session("lobby-bo").await;
        sign_up(&ada, &base, "Ada_L").await;
        sign_up(&bo, &base, "Bo_L").await;

        // Ada puts up a rated 5+3 seek, as White, from the lobby page.
        ada.goto(&format!("{base}/lobby")).await;
        ada.wait("the seek form", "return !!document.getElementById('seek-form-minutes');").await;
        ada.click("#seek-form-rated").await;
        ada.eval("const c = document.getElementById('seek-form-colour'); c.value = 'white'; c.dispatchEvent(new Event('change'));", json!([])).await;
        ada.click("#seek-form-submit").await;
        ada.wait("her seek listed", "return !!document.querySelector('#seek-rows .seek-withdraw');").await;

        // Bo sees it in his lobby and takes it with one click.
        bo.goto(&format!("{base}/lobby")).await;
        bo.wait("Ada's seek, live", "const b = document.querySelector('#seek-rows .seek-accept'); return !!b && !b.disabled;").await;
        let shown = bo.text("#seek-rows tr").await;
        assert!(shown.contains("Ada_L") && shown.contains("5+3") && shown.contains("1500?"), "{shown}");
        bo.click("#seek-rows .seek-accept").await;
        let game = in_game(&bo, "Bo in the game").await;
        let seen = in_game(&ada, "Ada taken to the game by the lobby's socket").await;
        assert_eq!(game, seen);

        // They play it to its end: Ada moves, Bo resigns.
        let moved = ada
            .eval_async(
                "const [g, done] = arguments; import('/js/net.js').then(n => n.api('POST', `/api/games/${g}/move`, { body: { move: 'TE4:0' } })).then(s => done(s.seq), e => done('refused: ' + e.message));",
                json!([game]),
            )
            .await;
        assert!(moved.is_number(), "{moved}");
        let ended = api(&bo, "POST", &format!("/api/games/{game}/resign")).await;
        assert!(ended["rating_change"].is_object(), "{ended}");

        // Both profiles show the ratings Glicko-2 gives, computed here from the paper.
        let (white, black) = rate_game(Rating::NEW, Rating::NEW, Score::Win);
        for (s, name, r) in [(&ada, "Ada_L", white), (&bo, "Bo_L", black)] {
            s.goto(&format!("{base}/@/{name}")).await;
            let blitz = s
                .wait(
                    "the profile's blitz rating",
                    "const d = document.querySelector('#profile-ratings dd[data-speed=blitz]'); return !!d && d.textContent;",
                )
                .await;
            let want = format!("{}{}", r.rating.round(), if r.provisional() { "?" } else { "" });
            assert_eq!(blitz, want.as_str(), "{name}");
        }

        // A challenge from Bo's profile, declined; then another, accepted.
        for answer in ["decline", "accept"] {
            ada.goto(&format!("{base}/@/Bo_L")).await;
            ada.wait("the challenge button", "return !!document.getElementById('challenge-button');").await;
            ada.click("#challenge-button").await;
            ada.eval("const k = document.getElementById('challenge-form-kind'); k.value = 'days'; k.dispatchEvent(new Event('change'));", json!([])).await;
            ada.click("#challenge-form-submit").await;
            ada.wait("the challenge sent", "const p = document.getElementById('challenge-sent'); return !!p && p.textContent.includes('Bo_L');").await;
            bo.goto(&format!("{base}/lobby")).await;
            bo.wait("the challenge to Bo", &format!("return !!document.querySelector('#challenges-in .challenge-{answer}');")).await;
            let listed = bo.text("#challenges-in li").await;
            assert!(listed.contains("Ada_L"), "{listed}");
            bo.click(&format!("#challenges-in .challenge-{answer}")).await;
            if answer == "decline" {
                bo.wait("no challenge left", "return !document.querySelector('#challenges-in [data-challenge]');").await;
                let open = api(&ada, "GET", "/api/challenges").await;
                assert_eq!(open["outgoing"], json!([]), "{open}");
            } else {
                let id = in_game(&bo, "Bo in the challenge's game").await;
                let state = api(&bo, "GET", &format!("/api/games/{id}")).await;
                assert_eq!(state["clock"]["days_per_move"], 3, "{state}");
                assert!(state["seats"]["white"]["name"].is_string(), "{state}");
            }
        }

        // A bot is marked BOT where Ada meets it: its challenge in her lobby, its profile,
        // and its seat in their game.
        let mut robo = Browser::anonymous(&base);
        let body = json!({ "username": "Robo_L", "password": PASSWORD, "bot": true });
        let (status, made) = robo.send(Method::POST, "/api/account", Some(body)).await;
        assert_eq!(status, 201, "{made}");
        let (status, sent) = robo.post("/api/challenges", json!({ "to": "Ada_L", "days": 3 })).await;
        assert_eq!(status, 201, "{sent}");
        ada.goto(&format!("{base}/lobby")).await;
        let marked = ada
            .wait("Robo's challenge, marked", "const m = document.querySelector('#challenges-in [data-challenge] .bot-mark'); return !!m && m.textContent;")
            .await;
        assert_eq!(marked, "BOT");
        ada.click("#challenges-in .challenge-accept").await;
        in_game(&ada, "Ada in Robo's game").await;
        ada.wait("Robo's seat, marked", "return [...document.querySelectorAll('.players .name')].some(n => n.textContent.includes('Robo_L') && !!n.querySelector('.bot-mark'));").await;
        ada.goto(&format!("{base}/@/Robo_L")).await;
        ada.wait("Robo's profile, marked", "return !!document.querySelector('#profile-name .bot-mark');").await;
        ada.goto(&format!("{base}/@/Bo_L")).await;
        ada.wait("Bo's profile", "return !!document.getElementById('profile-name');").await;
        assert!(ada.eval("return !document.querySelector('#profile-name .bot-mark');", json!([])).await.as_bool().unwrap(), "a person marked as a bot");

        ada.quit().await;
        bo.quit().await;
    })
    .await
    .expect("the lobby browser test finished in time");
}
