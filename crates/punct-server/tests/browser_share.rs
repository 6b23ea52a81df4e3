//! Sharing in headless Chromium: while a game is played, the game page's Share box loads its
//! picture only when opened; after a game, it shows the picture of the shown position (loaded: the server drew it), the game's animation link, and in
//! review the picture of the move shown. Screenshots go to target/screenshots. Skipped (with
//! a message) without Chromium.

mod common;
mod webdriver;

use std::time::Duration;

use serde_json::json;
use webdriver::Driver;

/// Whether the Share box's picture has loaded from the address it names now.
const LOADED: &str = "const i = document.getElementById('share-thumb'); return !!i && i.complete && i.naturalWidth > 0 && i.currentSrc === i.src;";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_shared_as_pictures() {
    if !webdriver::available() {
        return;
    }
    webdriver::watchdog("the share browser test", Duration::from_secs(300));
    let base = common::start_in_process(&common::temp_db("browser-share")).await;
    tokio::time::timeout(Duration::from_secs(240), async {
        // A game on one screen, played and resigned over the API.
        let (id, token) = common::local_game_played(&base, 6).await;
        let driver = Driver::start().await;
        let s = driver.session("share").await;
        // While the game is played the preview waits to be asked for, so that a picture is
        // not downloaded after every move.
        s.goto(&format!("{base}/g/{id}")).await;
        s.wait(
            "the live game's Share box, closed and without its picture",
            "const b = document.getElementById('share-pictures'); return !!b && !b.hidden && !b.open && document.querySelectorAll('#move-list li').length === 6 && !document.getElementById('share-thumb').getAttribute('src');",
        )
        .await;
        s.click("#share-pictures summary").await;
        s.wait("the live game's picture, once asked for", LOADED)
            .await;

        let (status, v) = common::post(
            &format!("{base}/api/games/{id}/resign"),
            Some(&token),
            json!({}),
        )
        .await;
        assert_eq!(status, 200, "{v}");

        s.goto(&format!("{base}/g/{id}")).await;
        s.wait("the share picture", LOADED).await;
        let (width, link, gif) = {
            let v = s
                .eval(
                    "return [document.getElementById('share-thumb').naturalWidth, document.getElementById('share-image-link').value, document.getElementById('share-gif-link').value];",
                    json!([]),
                )
                .await;
            (v[0].as_u64().unwrap(), v[1].as_str().unwrap().to_owned(), v[2].as_str().unwrap().to_owned())
        };
        assert_eq!(width, 1200, "the picture is link-preview sized");
        assert_eq!(link, format!("{base}/g/{id}/image.png"));
        assert_eq!(gif, format!("{base}/g/{id}/game.gif"));
        s.eval(
            "document.getElementById('share-pictures').scrollIntoView();",
            json!([]),
        )
        .await;
        s.screenshot("share-0-finished").await;

        // In review, the picture of the move shown.
        s.click("#first").await;
        s.click("#next").await;
        s.click("#next").await;
        s.wait(
            "the second move's picture",
            "return document.getElementById('share-image-link').value.endsWith('/image.png?ply=2');",
        )
        .await;
        s.wait("the share picture of move 2", LOADED).await;
        // The animation loads too.
        let loaded = s
            .eval_async(
                "const done = arguments[arguments.length - 1]; const i = new Image(); i.onload = () => done(i.naturalWidth); i.onerror = () => done(0); i.src = document.getElementById('share-gif-link').value;",
                json!([]),
            )
            .await;
        assert!(loaded.as_u64().unwrap() > 0, "the GIF loads: {loaded}");
        s.screenshot("share-1-review").await;
        s.quit().await;
    })
    .await
    .expect("the share scenario finishes within 240 s");
}
