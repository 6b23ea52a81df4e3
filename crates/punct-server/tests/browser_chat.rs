//! The game's chat in headless Chromium: two people signed in in two browsers play a friend
//! game and chat (markup shown as text), a third watches and is counted, one player blocks
//! the other from a chat line, and the blocked one's next message does not show on the
//! blocker's page (it still does on their own). Skipped (with a message) without Chromium.

mod common;
mod webdriver;

use std::time::Duration;

use serde_json::{Value, json};
use webdriver::{Driver, Session};

const PASSWORD: &str = "a long walk in the hills";

/// Signs `s` up as `name` through the page's own module, then shows the home page again so
/// that the header knows.
async fn sign_up(s: &Session, base: &str, name: &str) {
    s.goto(&format!("{base}/")).await;
    s.wait(
        "the page's modules",
        "return !!document.getElementById('view-home');",
    )
    .await;
    let made = s
        .eval_async(
            "const done = arguments[arguments.length - 1]; import('/js/account/session.js').then(m => m.signUp(arguments[0], arguments[1])).then(() => done('ok'), e => done('refused: ' + e.message));",
            json!([name, PASSWORD]),
        )
        .await;
    assert_eq!(made, "ok", "{made}");
}

/// The texts of the chat's lines shown on `s`, each `author text`.
async fn lines(s: &Session) -> Vec<String> {
    let v = s
        .eval(
            "return [...document.querySelectorAll('#chat-lines .chat-line')].map(l => l.querySelector('.chat-author').textContent + ' ' + l.querySelector('.chat-text').textContent);",
            json!([]),
        )
        .await;
    serde_json::from_value(v).unwrap()
}

/// Writes `text` in the chat of `s`.
async fn write(s: &Session, text: &str) {
    s.type_into("#chat-input", text).await;
    s.click("#chat-form button[type=submit]").await;
    s.wait(
        "the message sent",
        "return document.getElementById('chat-input').value === '';",
    )
    .await;
}

/// Waits until `s` shows the line `line`.
async fn shows(s: &Session, what: &str, line: &str) {
    s.wait(
        what,
        &format!(
            "return [...document.querySelectorAll('#chat-lines .chat-line')].some(l => l.querySelector('.chat-author').textContent + ' ' + l.querySelector('.chat-text').textContent === {});",
            Value::String(line.to_owned())
        ),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_chat_and_one_blocks_the_other() {
    if !webdriver::available() {
        return;
    }
    webdriver::watchdog("the chat browser test", Duration::from_secs(300));
    let base = common::start_in_process(&common::temp_db("browser-chat")).await;
    webdriver::scenario("chat and a block", 240, async {
        let driver = Driver::start().await;
        let ann = driver.session("chat-ann").await;
        let ben = driver.session("chat-ben").await;
        sign_up(&ann, &base, "ann").await;
        sign_up(&ben, &base, "ben").await;

        // Ann makes a friend game; Ben opens her link and takes the other seat.
        let made = ann
            .eval_async(
                "const done = arguments[arguments.length - 1]; import('/js/net.js').then(m => m.api('POST', '/api/games', { body: { mode: 'friend' } })).then(g => done(g), e => done({ error: e.message }));",
                json!([]),
            )
            .await;
        let id = made["id"].as_str().unwrap_or_else(|| panic!("{made}")).to_owned();
        let invite = made["invite"].as_str().unwrap().to_owned();
        ann.goto(&format!("{base}/g/{id}")).await;
        ben.goto(&format!("{base}/g/{id}#invite={invite}")).await;
        for s in [&ann, &ben] {
            s.wait(
                "the chat's input",
                "const f = document.getElementById('chat-form'); return !!f && !f.hidden && !document.getElementById('chat').hidden;",
            )
            .await;
        }

        // A watcher comes: both players see the count.
        let watcher = driver.session("chat-watcher").await;
        watcher.goto(&format!("{base}/g/{id}")).await;
        ann.wait(
            "one watcher counted",
            "const c = document.getElementById('chat-watching'); return !!c && c.textContent === '1 watching';",
        )
        .await;

        write(&ann, "hello ben").await;
        shows(&ben, "Ann's message on Ben's page", "ann hello ben").await;
        let markup = "<b>bold</b> & <img src=x onerror=alert(1)>";
        write(&ben, markup).await;
        shows(&ann, "Ben's markup, as text", &format!("ben {markup}")).await;
        let elements = ann
            .eval("return document.querySelectorAll('#chat-lines b, #chat-lines img').length;", json!([]))
            .await;
        assert_eq!(elements, 0, "markup became elements");
        // The watcher reads neither (the players' chat is theirs).
        let seen = lines(&watcher).await;
        assert!(seen.is_empty(), "{seen:?}");

        // Ann blocks Ben from his line.
        ann.eval(
            "[...document.querySelectorAll('#chat-lines .chat-line')].find(l => l.querySelector('.chat-author').textContent === 'ben').querySelector('.chat-block').click();",
            json!([]),
        )
        .await;
        ann.wait(
            "the block said",
            "const n = document.getElementById('chat-note'); return !!n && n.textContent.startsWith('You blocked ben');",
        )
        .await;
        let listed = ann
            .eval_async(
                "const done = arguments[arguments.length - 1]; import('/js/net.js').then(m => m.api('GET', '/api/account/blocks')).then(done, e => done(e.message));",
                json!([]),
            )
            .await;
        assert_eq!(listed, json!({ "blocked": ["ben"] }));

        // Ben's next message shows on his page, not on Ann's; hers still reach him.
        write(&ben, "can you hear me").await;
        shows(&ben, "Ben's own message", "ben can you hear me").await;
        write(&ann, "anyone there").await;
        shows(&ben, "Ann's later message on Ben's page", "ann anyone there").await;
        shows(&ann, "Ann's own message", "ann anyone there").await;
        let seen = lines(&ann).await;
        assert_eq!(seen, ["ann hello ben", "ann anyone there"], "Ann still sees Ben");
        ann.screenshot("chat-blocked").await;
        for s in [ann, ben, watcher] {
            s.quit().await;
        }
    })
    .await;
}
