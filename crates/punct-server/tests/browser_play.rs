//! The browser app after a game and around it, in headless Chromium: a rematch against the
//! computer (the colours swapped, at once) and between two browsers (offered, declined,
//! offered again, accepted, both pages in the new game); moves animated on the board, the computer's reply included; the
//! sound switch kept across a reload.
//!
//! Screenshots go to target/screenshots. Skipped (with a message) without Chromium.

mod common;
mod webdriver;

use std::time::Duration;

use serde_json::json;
use webdriver::{Driver, Session, scenario};

/// The number of moves in the page's move list.
const MOVE_COUNT: &str = "document.querySelectorAll('#move-list li').length";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_play() {
    if !webdriver::available() {
        return;
    }
    webdriver::watchdog("the play browser tests", Duration::from_secs(420));
    let base = common::start_in_process(&common::temp_db("browser-play")).await;
    let driver = Driver::start().await;
    scenario(
        "rematch against the computer, animated moves",
        120,
        rematch_against_the_computer(&driver, &base),
    )
    .await;
    scenario(
        "rematch between two browsers",
        120,
        rematch_between_two_browsers(&driver, &base),
    )
    .await;
    scenario("the sound switch is kept", 60, sound_switch(&driver, &base)).await;
}

/// The game's id in the page's address.
async fn game_id(s: &Session) -> String {
    s.wait(
        "a game's address",
        "return location.pathname.startsWith('/g/') && location.pathname.slice(3);",
    )
    .await
    .as_str()
    .unwrap()
    .to_owned()
}

/// Resigns the page's game (the button asks for a second click).
async fn resign(s: &Session) {
    s.click("#resign").await;
    s.click("#resign").await;
    s.wait(
        "the end of the game",
        "return document.getElementById('status').classList.contains('over');",
    )
    .await;
}

async fn rematch_against_the_computer(driver: &Driver, base: &str) {
    let s = driver.session("play-computer").await;
    s.goto(base).await;
    s.eval(
        "document.getElementById('level-select').value = '1';",
        json!([]),
    )
    .await;
    s.click("#start-game").await;
    let first = game_id(&s).await;
    s.wait(
        "white's seat",
        "return document.querySelector('#p-white .name').textContent.includes('— you');",
    )
    .await;
    // Every move shown is animated: the board calls `animate` on the piece's drawing.
    s.eval(
        "window.animated = []; const play = Element.prototype.animate; Element.prototype.animate = function (...a) { window.animated.push(this.closest('#board') ? 'board' : 'elsewhere'); return play.apply(this, a); };",
        json!([]),
    )
    .await;
    s.wait(
        "the move box",
        "return !document.getElementById('move-text').disabled;",
    )
    .await;
    s.type_into("#move-text", "TE4:0\n").await;
    s.wait(
        "the computer's reply",
        &format!("return {MOVE_COUNT} === 2;"),
    )
    .await;
    let animated = s
        .wait(
            "two moves animated",
            "return window.animated.filter(x => x === 'board').length >= 2 && window.animated.length;",
        )
        .await;
    assert!(animated.as_u64().unwrap() >= 2);
    resign(&s).await;
    s.wait("the rematch button", "return document.getElementById('rematch').hidden === false && document.getElementById('offer-rematch');").await;
    s.screenshot("play-1-rematch-offered-after-the-game").await;
    s.click("#offer-rematch").await;
    let second = s
        .wait(
            "the rematch's address",
            &format!("return location.pathname.startsWith('/g/') && location.pathname !== '/g/{first}' && location.pathname.slice(3);"),
        )
        .await;
    assert_ne!(second.as_str().unwrap(), first);
    // The colours swapped: the player is Black now, and the computer (White) opens.
    s.wait(
        "black's seat in the rematch",
        "return document.querySelector('#p-black .name').textContent.includes('— you');",
    )
    .await;
    s.wait(
        "the computer's first move",
        &format!("return {MOVE_COUNT} >= 1;"),
    )
    .await;
    s.screenshot("play-2-rematch-as-black").await;
    // Back goes to the finished game, which links to its rematch.
    s.eval("history.back();", json!([])).await;
    s.wait(
        "the link to the rematch",
        &format!(
            "const a = document.getElementById('rematch-link'); return a && a.getAttribute('href') === '/g/{}';",
            second.as_str().unwrap()
        ),
    )
    .await;
    s.quit().await;
}

async fn rematch_between_two_browsers(driver: &Driver, base: &str) {
    let a = driver.session("play-friend-a").await;
    a.goto(base).await;
    a.click("input[name='mode'][value='friend']").await;
    a.click("#start-game").await;
    let link = a
        .wait("the link", "const s = document.getElementById('share'); return !s.hidden && document.getElementById('share-link').value;")
        .await;
    let first = game_id(&a).await;
    let b = driver.session("play-friend-b").await;
    b.goto(link.as_str().unwrap()).await;
    b.wait(
        "black's seat",
        "return document.querySelector('#p-black .name').textContent.includes('— you');",
    )
    .await;
    a.wait(
        "the friend arriving",
        "return document.getElementById('share').hidden && !document.getElementById('move-text').disabled;",
    )
    .await;
    a.type_into("#move-text", "TE4:0\n").await;
    b.wait("white's move", &format!("return {MOVE_COUNT} === 1;"))
        .await;
    resign(&b).await;
    a.wait(
        "the end on white's page",
        "return document.getElementById('status').classList.contains('over');",
    )
    .await;

    // White offers and Black declines: White is told, and offers again; Black accepts and
    // both pages go to the same new game.
    a.wait(
        "the rematch button",
        "return document.getElementById('offer-rematch');",
    )
    .await;
    a.click("#offer-rematch").await;
    b.wait(
        "the first offer",
        "return document.getElementById('decline-rematch');",
    )
    .await;
    b.click("#decline-rematch").await;
    a.wait(
        "word of the refusal",
        "return document.getElementById('offer-rematch') && document.getElementById('rematch').textContent.length > document.getElementById('offer-rematch').textContent.length;",
    )
    .await;
    a.click("#offer-rematch").await;
    a.wait(
        "the offer waiting",
        "return !document.querySelector('#rematch button') && document.getElementById('rematch').textContent.length > 0;",
    )
    .await;
    b.wait(
        "the offer",
        "return document.getElementById('accept-rematch');",
    )
    .await;
    b.screenshot("play-3-rematch-offer-received").await;
    b.click("#accept-rematch").await;
    let leave = format!(
        "return location.pathname.startsWith('/g/') && location.pathname !== '/g/{first}' && location.pathname.slice(3);"
    );
    let on_b = b.wait("black's page in the rematch", &leave).await;
    let on_a = a.wait("white's page in the rematch", &leave).await;
    assert_eq!(on_a, on_b, "both pages in the same new game");
    // The colours swapped: the friend is White and opens the rematch, the creator is Black.
    b.wait(
        "the friend holding White",
        "return document.querySelector('#p-white .name').textContent.includes('— you') && !document.getElementById('move-text').disabled;",
    )
    .await;
    a.wait(
        "the creator holding Black",
        "return document.querySelector('#p-black .name').textContent.includes('— you');",
    )
    .await;
    b.type_into("#move-text", "TE4:0\n").await;
    a.wait(
        "the first move of the rematch",
        &format!("return {MOVE_COUNT} === 1;"),
    )
    .await;
    a.screenshot("play-4-rematch-between-people").await;
    a.quit().await;
    b.quit().await;
}

async fn sound_switch(driver: &Driver, base: &str) {
    let s = driver.session("play-sound").await;
    s.goto(base).await;
    s.click("input[name='mode'][value='local']").await;
    s.click("#start-game").await;
    game_id(&s).await;
    let pressed = "return document.getElementById('sound').getAttribute('aria-pressed');";
    assert_eq!(s.wait("the sound switch", pressed).await, json!("true"));
    s.click("#sound").await;
    assert_eq!(s.eval(pressed, json!([])).await, json!("false"));
    s.eval("window.before = true; location.reload();", json!([]))
        .await;
    s.wait(
        "the page again",
        "return !window.before && document.readyState === 'complete' && document.querySelector('#p-white .name').textContent.length > 0;",
    )
    .await;
    assert_eq!(
        s.eval(pressed, json!([])).await,
        json!("false"),
        "muted after a reload"
    );
    s.screenshot("play-5-sound-off").await;
    s.click("#sound").await;
    assert_eq!(s.eval(pressed, json!([])).await, json!("true"));
    s.quit().await;
}
