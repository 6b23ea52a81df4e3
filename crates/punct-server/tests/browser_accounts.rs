//! Accounts in headless Chromium: sign up and see the recovery codes once (the "I have kept
//! them" step), sign out, sign in, a game created while signed in (the page sends the CSRF
//! token by itself), the profile page showing the provisional rating, and a form posted from
//! another site refused without making anything. Skipped (with a message) without Chromium.

mod common;
mod webdriver;

use std::time::Duration;

use serde_json::json;
use webdriver::Driver;

const PASSWORD: &str = "a long walk in the hills";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_sign_out_sign_in_and_the_profile() {
    if !webdriver::available() {
        return;
    }
    webdriver::watchdog("the accounts browser test", Duration::from_secs(300));
    let base = common::start_in_process(&common::temp_db("browser-accounts")).await;
    tokio::time::timeout(Duration::from_secs(240), async {
        let driver = Driver::start().await;
        let s = driver.session("accounts").await;
        s.goto(&format!("{base}/")).await;
        s.wait("the header's sign-in link", "return !!document.getElementById('sign-in-link');").await;
        s.click("#sign-in-link").await;
        s.wait("the sign-in page", "return !!document.getElementById('signin-form');").await;
        s.goto(&format!("{base}/signup")).await;
        s.wait("the sign-up form", "return !!document.getElementById('signup-username');").await;
        s.type_into("#signup-username", "Browser_Player").await;
        s.type_into("#signup-password", PASSWORD).await;
        s.click("#signup-form button[type=submit]").await;
        let codes = s
            .wait(
                "the ten recovery codes",
                "const l = document.querySelectorAll('#recovery-codes code'); return l.length === 10 && [...l].map(c => c.textContent);",
            )
            .await;
        assert!(codes[0].as_str().unwrap().len() == 11, "{codes}");
        s.wait("the continue button held until the codes are kept", "return document.getElementById('codes-done').disabled;").await;
        s.click("#codes-kept").await;
        s.click("#codes-done").await;
        s.wait("the account page", "return location.pathname === '/account' && !!document.getElementById('password-form');").await;
        s.wait("the header naming the player", "const n = document.getElementById('account-name'); return !!n && n.textContent === 'Browser_Player';").await;

        // A game made from the home page while signed in: the page's POST carries the token.
        let made = s
            .eval_async(
                "const done = arguments[arguments.length - 1]; import('/js/net.js').then(m => m.api('POST', '/api/games', { body: { mode: 'friend' } })).then(g => done(g.id), e => done('refused: ' + e.message));",
                json!([]),
            )
            .await;
        assert!(!made.as_str().unwrap().starts_with("refused"), "{made}");

        // Sign out from the menu, then in again.
        s.click("#account-name").await;
        s.click("#sign-out").await;
        s.wait("signed out", "return !!document.getElementById('sign-in-link');").await;
        let cookies = s.eval("return document.cookie;", json!([])).await;
        assert!(!cookies.as_str().unwrap().contains("punct_csrf="), "{cookies}");
        s.goto(&format!("{base}/signin")).await;
        s.wait("the sign-in form", "return !!document.getElementById('signin-username');").await;
        s.type_into("#signin-username", "browser_player").await;
        s.type_into("#signin-password", PASSWORD).await;
        s.click("#signin-form button[type=submit]").await;
        s.wait("signed in again", "const n = document.getElementById('account-name'); return !!n && n.textContent === 'Browser_Player';").await;

        s.goto(&format!("{base}/@/Browser_Player")).await;
        let blitz = s
            .wait(
                "the profile's ratings",
                "const d = document.querySelector('#profile-ratings dd[data-speed=blitz]'); return !!d && d.textContent;",
            )
            .await;
        assert_eq!(blitz, "1500?");
        s.wait("the record line", "const r = document.getElementById('profile-record'); return !!r && /0/.test(r.textContent);").await;

        // Another site's page posts a form to the account's routes, in the signed-in browser.
        let other = format!("http://localhost:{}", base.rsplit(':').next().unwrap());
        let page = format!(
            "<form id=f method=post action='{base}/api/account/tokens' enctype=text/plain><input name='{{\"name\":\"evil\",\"x\":\"' value='\"}}'></form><script>document.getElementById('f').submit()</script>"
        );
        s.goto(&format!("{other}/missing-page")).await;
        s.eval("document.open(); document.write(arguments[0]); document.close();", json!([page])).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        s.goto(&format!("{base}/account")).await;
        let tokens = s
            .wait(
                "the account's tokens",
                "const l = document.getElementById('token-list'); return !!l && l.children.length > 0 && l.textContent;",
            )
            .await;
        assert!(!tokens.as_str().unwrap().contains("evil"), "the cross-site post made a token: {tokens}");
        s.quit().await;
    })
    .await
    .expect("the accounts browser test finished in time");
}
