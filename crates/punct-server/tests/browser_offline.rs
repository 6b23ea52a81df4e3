//! The site without its server, in headless Chromium, against the real server binary: the
//! service worker keeps the app while the server runs; then, the server stopped, the engine
//! in the page answers an analysis from its worker (the page never waiting for it, a search
//! stopped at once on request), the app opens from the browser's copy (its pages and every
//! language's texts), says plainly what needs the server, and plays whole games against the
//! computer at level 1 and at level 5, kept in the browser across a reload. The page's
//! manifest and service worker make the site installable.
//!
//! Skipped (with a message) without Chromium, or without the WebAssembly module
//! (scripts/wasm.sh; CI sets `PUNCT_REQUIRE_WASM`, which makes that a failure).

mod common;
mod webdriver;

use std::time::Duration;

use serde_json::{Value, json};
use webdriver::{Driver, Session, scenario};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_site_without_its_server() {
    if !webdriver::available() {
        return;
    }
    webdriver::watchdog("the offline browser tests", Duration::from_secs(600));
    let addr = common::free_addr();
    let base = format!("http://{addr}");
    let mut server = common::Process::start(addr, &common::temp_db("browser-offline")).await;
    if !webdriver::wasm_served(&base, "the site without its server").await {
        return;
    }
    let driver = Driver::start().await;
    let s = driver.session("offline").await;
    scenario("the app kept in the browser", 60, kept(&s, &base)).await;
    server.kill();
    scenario(
        "the analysis worker in the page",
        60,
        the_analysis_worker(&s, &base),
    )
    .await;
    scenario(
        "the app served with the server gone",
        60,
        served_without_the_server(&s, &base),
    )
    .await;
    scenario(
        "a game at level 1 without the server",
        150,
        a_whole_game(&s, &base, 1),
    )
    .await;
    scenario(
        "a game at level 5 without the server",
        200,
        a_whole_game(&s, &base, 5),
    )
    .await;
    s.quit().await;
}

/// What the browser keeps: `[urls]` of the app's cache.
const KEPT: &str = r#"
const done = arguments[arguments.length - 1];
caches.open("punct-app").then((c) => c.keys()).then((keys) => done(keys.map((r) => new URL(r.url).pathname)), (e) => done(String(e)));
"#;

/// The service worker takes the page over and keeps the app's files, the module and every
/// catalogue; with the manifest, Chromium finds the site installable.
async fn kept(s: &Session, base: &str) {
    s.goto(base).await;
    s.wait(
        "the service worker in charge",
        "return navigator.serviceWorker.controller !== null;",
    )
    .await;
    let mut files = Value::Null;
    for _ in 0..100 {
        files = s.eval_async(KEPT, json!([])).await;
        let has = |f: &str| files.as_array().is_some_and(|a| a.iter().any(|v| v == f));
        if has("/wasm/punct_wasm.wasm") && has("/i18n/ro.json") && has("/js/engine/worker.js") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let files: Vec<&str> = files
        .as_array()
        .unwrap_or_else(|| panic!("the cache: {files}"))
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for f in [
        "/",
        "/style.css",
        "/manifest.webmanifest",
        "/wasm/punct_wasm.wasm",
        "/js/app.js",
        "/js/engine/worker.js",
        "/js/learn/lessons.json",
        "/i18n/en.json",
        "/i18n/ro.json",
    ] {
        assert!(files.contains(&f), "{f} is not kept: {files:?}");
    }
    assert!(
        !files
            .iter()
            .any(|f| f.starts_with("/api/") || f.starts_with("/g/") || f.ends_with(".png")),
        "neither the API nor the server's pictures are kept: {files:?}"
    );
    let installable = s.devtools("Page.getInstallabilityErrors", json!({})).await;
    assert_eq!(
        installable["installabilityErrors"],
        json!([]),
        "Chromium's reasons the site is not installable"
    );
    eprintln!(
        "{} files kept by the service worker; installable",
        files.len()
    );
}

/// A fixed-time analysis and an endless one stopped, by the engine's worker in the page.
const ANALYSE: &str = r#"
const done = arguments[arguments.length - 1];
(async () => {
  const { createEngine } = await import("/js/engine/client.js");
  const { legalMoves } = await import("/js/rules-wasm.js");
  const engine = createEngine();
  let ticks = 0;
  const timer = setInterval(() => ticks++, 50);
  const lines = [];
  const began = performance.now();
  const found = await engine.search({ start: "standard w 0 -", moves: ["TE4:0"], movetime_ms: 1500, multipv: 2 }, (l) => lines.push(l)).done;
  const took = performance.now() - began;
  const during = ticks;
  let first;
  const heard = new Promise((resolve) => { first = resolve; });
  const endless = engine.search({ start: "standard w 0 -", infinite: true }, first);
  await heard;
  const asked = performance.now();
  endless.stop();
  const stopped = await endless.done;
  const stopMs = performance.now() - asked;
  clearInterval(timer);
  const legal = await legalMoves("standard b 1 wTE4:0@1");
  done({ found, lines: lines.length, took, during, stopped, stopMs, legal: legal.includes(found.best_move) });
})().catch((e) => done(String(e)));
"#;

/// The engine in the page answers from its worker: a 1.5 s analysis with two lines, the
/// page's timers running all along; an endless one ends the moment it is stopped.
async fn the_analysis_worker(s: &Session, base: &str) {
    s.goto(&format!("{base}/rules")).await;
    let v = s.eval_async(ANALYSE, json!([])).await;
    assert!(v.is_object(), "{v}");
    assert_eq!(v["legal"], true, "{v}");
    assert_eq!(v["found"]["lines"].as_array().map(Vec::len), Some(2), "{v}");
    assert!(
        v["lines"].as_u64().unwrap() >= 2,
        "its lines along the way: {v}"
    );
    let took = v["took"].as_f64().unwrap();
    assert!(
        (1000.0..6000.0).contains(&took),
        "a 1.5 s analysis took {took} ms"
    );
    // Every 50 ms the page's timer ran while the worker thought: the page never waited.
    let during = v["during"].as_f64().unwrap();
    assert!(
        during >= took / 50.0 * 0.5,
        "{during} timer ticks in {took} ms"
    );
    assert_eq!(v["stopped"]["stopped"], true, "{v}");
    assert!(v["stopped"]["best_move"].is_string(), "{v}");
    let stop_ms = v["stopMs"].as_f64().unwrap();
    assert!(stop_ms < 500.0, "stopped after {stop_ms} ms");
    eprintln!(
        "in-page analysis: {} playouts in {took:.0} ms ({:.0}/s), best {}; stopped in {stop_ms:.0} ms",
        v["found"]["nodes"],
        v["found"]["nodes"].as_f64().unwrap() / took * 1000.0,
        v["found"]["best_move"]
    );
}

const OFFLINE_NOTE: &str =
    "const n = document.getElementById('offline-note'); return !n.hidden && n.textContent;";

/// With the server gone the app still opens at every address, in every language, from the
/// browser's copy; the pages that need the server say so.
async fn served_without_the_server(s: &Session, base: &str) {
    for (path, shown) in [
        (
            "/learn",
            "document.getElementById('learn-title').textContent === 'Learn to play' && document.querySelectorAll('#view-learn button').length > 3",
        ),
        (
            "/rules",
            "!document.getElementById('view-rules').hidden && document.querySelectorAll('#rules-text svg').length > 3",
        ),
        // A game on the server says that the server is not answering.
        (
            "/g/0123456789abcdef",
            "!document.getElementById('conn').hidden && document.getElementById('game-error').textContent.includes('not answering')",
        ),
    ] {
        s.goto(&format!("{base}{path}")).await;
        s.wait(
            &format!("{path} from the browser's copy"),
            &format!("return {shown};"),
        )
        .await;
    }
    s.goto(base).await;
    let note = s.wait("the offline note", OFFLINE_NOTE).await;
    assert!(note.as_str().unwrap().contains("need the server"), "{note}");
    s.click("#play-friend").await;
    s.wait(
        "a friend's game refused plainly",
        "return document.getElementById('home-error').textContent.includes('needs the server');",
    )
    .await;
    s.screenshot("offline-home").await;
    // Another language's texts come from the browser's copy too.
    s.eval("localStorage.setItem('punct.lang', 'fr');", json!([]))
        .await;
    s.goto(base).await;
    s.wait(
        "the home page in French",
        "return document.getElementById('home-title').textContent === 'Jouer à PÜNCT';",
    )
    .await;
    s.eval("localStorage.setItem('punct.lang', 'en');", json!([]))
        .await;
}

/// The game this page plays in the browser, and the legal moves of its position.
const LOCAL_GAME: &str = r#"
const done = arguments[arguments.length - 1];
(async () => {
  const id = location.pathname.split("/").pop();
  const kept = JSON.parse(localStorage.getItem(`punct.local.${id}`));
  const rules = await import("/js/rules-wasm.js");
  const game = await rules.replayGame(kept.start, kept.moves, kept.end || undefined);
  const legal = game.outcome ? [] : await rules.legalMoves(game.position);
  done({ id, moves: kept.moves, turn: game.turn, outcome: game.outcome, legal });
})().catch((e) => done(String(e)));
"#;

async fn local_game(s: &Session) -> Value {
    let v = s.eval_async(LOCAL_GAME, json!([])).await;
    assert!(v.is_object(), "the game kept in the browser: {v}");
    v
}

/// A game against the computer at `level`, started from the home page with the server gone
/// and played to its end (placements first, the others drawn at random), the computer
/// answering each move in the page; the analysis box answered by the engine in the page; the
/// finished game shown again after a reload.
async fn a_whole_game(s: &Session, base: &str, level: u8) {
    s.goto(base).await;
    s.wait("the offline note", OFFLINE_NOTE).await;
    s.eval(
        "document.getElementById('level-select').value = arguments[0];",
        json!([level.to_string()]),
    )
    .await;
    s.click("#start-game").await;
    s.wait(
        "our turn in a game played in the browser",
        "return location.pathname.startsWith('/g/local-') && document.getElementById('status').textContent.includes('your turn') && !document.getElementById('local-note').hidden;",
    )
    .await;
    let names = s.text("#p-black .name").await;
    assert!(names.contains(&format!("level {level}")), "{names}");
    let mut seed = 0x2545_f491_u64 ^ u64::from(level);
    let mut analysed = false;
    let mut game = local_game(s).await;
    while game["outcome"].is_null() {
        let moves = game["moves"].as_array().unwrap().len();
        assert!(moves < 400, "the game did not end: {game}");
        assert_eq!(game["turn"], "white", "our turn: {game}");
        let legal: Vec<&str> = game["legal"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let placements: Vec<&str> = legal.iter().copied().filter(|m| !m.contains('-')).collect();
        let choice = if placements.is_empty() {
            &legal
        } else {
            &placements
        };
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mv = choice[(seed % choice.len() as u64) as usize];
        s.type_into("#move-text", mv).await;
        s.click("#move-form button[type='submit']").await;
        s.wait(
            "the computer's answer",
            &format!(
                "const t = document.getElementById('status').textContent; return document.querySelectorAll('#move-list li').length >= {} && (t.includes('your turn') || !document.getElementById('game-result').hidden);",
                moves + 1
            ),
        )
        .await;
        if !analysed && moves >= 6 {
            analysed = true;
            s.click("#analysis-on").await;
            let said = s
                .wait(
                    "the analysis from the engine in the page",
                    "const t = document.getElementById('analysis').textContent; return t.includes('%') && t;",
                )
                .await;
            eprintln!("level {level}, move {}: {said}", moves / 2 + 1);
            s.click("#analysis-on").await;
        }
        game = local_game(s).await;
    }
    let plies = game["moves"].as_array().unwrap().len();
    let result = s
        .wait(
            "the result shown",
            "const b = document.getElementById('game-result'); return !b.hidden && b.textContent;",
        )
        .await;
    eprintln!("level {level} without the server: {result} after {plies} moves");
    assert!(analysed || plies < 8, "the analysis box was tried");
    s.screenshot(&format!("offline-game-level-{level}")).await;
    // Kept in the browser: the finished game comes back, from the browser's copy of the app.
    let id = game["id"].as_str().unwrap().to_owned();
    s.goto(&format!("{base}/g/{id}")).await;
    let again = s
        .wait(
            "the finished game again",
            "const b = document.getElementById('game-result'); return !b.hidden && document.querySelectorAll('#move-list li').length;",
        )
        .await;
    assert_eq!(again, json!(plies));
}
