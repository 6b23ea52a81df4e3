//! The browser app in headless Chromium: against the computer with the mouse, a game on one
//! screen to its end reviewed with the keyboard, and joining by link from a second browser.
//! Screenshots go to target/screenshots. Skipped (with a message) without Chromium.

mod common;
mod webdriver;

use serde_json::json;
use webdriver::{Driver, keys};

/// The number of moves in the page's move list.
const MOVE_COUNT: &str = "return document.querySelectorAll('#move-list li').length;";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_games() {
    if !webdriver::available() {
        return;
    }
    let base = common::start_in_process(&common::temp_db("browser")).await;
    let driver = Driver::start().await;
    against_the_computer(&driver, &base).await;
    one_screen_to_the_end_then_review(&driver, &base).await;
    join_by_link_and_survive_a_restart(&driver).await;
}

async fn against_the_computer(driver: &Driver, base: &str) {
    let s = driver.session("computer").await;
    s.goto(base).await;
    s.eval(
        "document.getElementById('level-select').value = '1';",
        json!([]),
    )
    .await;
    s.click("#start-game").await;
    s.wait(
        "the game page",
        "return location.pathname.startsWith('/g/');",
    )
    .await;
    s.wait(
        "the legal moves",
        "return !document.querySelector('#reserve-me button').disabled;",
    )
    .await;

    // Pick a T from the reserve, put its PÜNCT on E4, turn it, put it down.
    s.click("#reserve-me button:first-child").await;
    s.wait(
        "placement targets",
        "return document.querySelectorAll('circle.target').length > 0;",
    )
    .await;
    s.click("polygon.cell[data-cell='E4']").await;
    s.click("#rot-right").await;
    s.screenshot("computer-1-piece-in-hand").await;
    s.click("#put-down").await;
    s.wait(
        "the computer's answer",
        &format!("{MOVE_COUNT} return n >= 2;").replace("return document", "const n = document"),
    )
    .await;
    let first = s.text("#move-list li:first-child").await;
    assert!(first.starts_with("TE4:"), "{first}");

    // An illegal move typed in is refused with the server's reason.
    s.type_into("#move-text", "TI9:0\n").await;
    let reason = s
        .wait(
            "the refusal",
            "return document.getElementById('game-error').textContent;",
        )
        .await;
    assert!(reason.as_str().unwrap().contains("illegal"), "{reason}");

    // Pick up the piece on E4: its lines of travel and destinations appear; move it.
    s.wait(
        "our turn",
        "return !document.querySelector('#reserve-me button').disabled;",
    )
    .await;
    s.click("polygon.cell[data-cell='E4']").await;
    let dest = s
        .wait(
            "destinations",
            "const t = document.querySelector('circle.target'); return t && document.querySelectorAll('line.line').length === 3 ? t.dataset.cell : null;",
        )
        .await;
    let dest = dest.as_str().unwrap().to_owned();
    s.click(&format!("polygon.cell[data-cell='{dest}']")).await;
    s.screenshot("computer-2-moving-a-piece").await;
    s.click(&format!("polygon.cell[data-cell='{dest}']")).await;
    s.wait(
        "the computer's second answer",
        "return document.querySelectorAll('#move-list li').length >= 4;",
    )
    .await;
    let third = s.text("#move-list li:nth-child(3)").await;
    assert!(third.starts_with("E4-"), "{third}");
    s.screenshot("computer-3-after-answer").await;
    move_a_board_piece_by_keys(&s, base).await;
    s.quit().await;
}

/// Moves one of our board pieces with key presses alone: the cursor to it, Enter to pick it
/// up, an arrow to a destination, Enter to put it down.
async fn move_a_board_piece_by_keys(s: &webdriver::Session, base: &str) {
    s.wait(
        "our turn",
        "return !document.querySelector('#reserve-me button').disabled;",
    )
    .await;
    // Which of our pieces may move, from the server.
    let id = s
        .eval("return location.pathname.split('/')[2];", json!([]))
        .await;
    let (_, game) = common::get(&format!("{base}/api/games/{}", id.as_str().unwrap()), None).await;
    let position = game["position"].as_str().unwrap().replace(' ', "%20");
    let (_, legal) = common::get(&format!("{base}/api/legal?position={position}"), None).await;
    let from = legal["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m.as_str()?.split_once('-').map(|(f, _)| f.to_owned()))
        .next()
        .expect("a piece of ours that may move");

    // Walk the cursor (on the last cell clicked, or else I9) to the piece; the first arrow
    // shows it.
    s.type_into("#board", keys::UP).await;
    let step = "const b = document.getElementById('board');         if (b.dataset.cursor === arguments[0]) return '';         const at = document.querySelector(`polygon.cell[data-cell='${b.dataset.cursor || 'I9'}']`).getBoundingClientRect();         const to = document.querySelector(`polygon.cell[data-cell='${arguments[0]}']`).getBoundingClientRect();         const dx = to.x - at.x, dy = to.y - at.y;         return Math.abs(dx) > at.width / 2 ? (dx > 0 ? 'right' : 'left') : (dy > 0 ? 'down' : 'up');";
    for _ in 0..40 {
        let dir = s.eval(step, json!([from])).await;
        let key = match dir.as_str().unwrap() {
            "" => break,
            "right" => keys::RIGHT,
            "left" => keys::LEFT,
            "down" => keys::DOWN,
            _ => keys::UP,
        };
        s.type_into("#board", key).await;
    }
    s.wait(
        "the cursor on our piece",
        &format!("const b = document.getElementById('board'); return b.dataset.cursor === '{from}' && document.querySelector('polygon.cursor') && document.getElementById('stack-info').textContent.includes('Enter picks it up');"),
    )
    .await;
    s.type_into("#board", keys::ENTER).await;
    s.wait(
        "its lines of travel and destinations",
        "return document.querySelectorAll('line.line').length === 3 && document.querySelectorAll('circle.target').length > 0;",
    )
    .await;
    // Arrows until the cursor reaches a destination (the piece in hand shows there).
    for key in [keys::UP, keys::DOWN, keys::LEFT, keys::RIGHT]
        .iter()
        .cycle()
        .take(12)
    {
        let held = s
            .eval(
                "return document.getElementById('stack-info').textContent.includes('Enter puts it down');",
                json!([]),
            )
            .await;
        if held == json!(true) {
            break;
        }
        s.type_into("#board", key).await;
    }
    s.wait(
        "a destination chosen",
        "return document.querySelector('g.ghost') && document.getElementById('stack-info').textContent.includes('Enter puts it down');",
    )
    .await;
    s.type_into("#board", "r").await;
    s.screenshot("computer-4-moving-by-keys").await;
    s.type_into("#board", keys::ENTER).await;
    s.wait(
        "the keyed move and the computer's answer",
        "return document.querySelectorAll('#move-list li').length >= 6;",
    )
    .await;
    let fifth = s.text("#move-list li:nth-child(5)").await;
    assert!(fifth.starts_with(&format!("{from}-")), "{fifth}");
    s.screenshot("computer-5-after-keyed-move").await;
}

async fn one_screen_to_the_end_then_review(driver: &Driver, base: &str) {
    let s = driver.session("local").await;
    s.goto(base).await;
    s.click("input[name='mode'][value='local']").await;
    s.eval(
        "document.querySelector('select[name=clock]').value = '';",
        json!([]),
    )
    .await;
    s.click("#start-game").await;
    s.wait(
        "the game page",
        "return location.pathname.startsWith('/g/');",
    )
    .await;
    let mut plies = 0;
    loop {
        let over = s
            .eval(
                "return document.getElementById('status').textContent.includes(' by ');",
                json!([]),
            )
            .await;
        if over == json!(true) {
            break;
        }
        assert!(plies < 40, "the game should end within 36 placements");
        s.wait(
            "a placeable piece",
            "return [...document.querySelectorAll('#reserve-me button')].some(b => !b.disabled);",
        )
        .await;
        // The first type still in reserve, then the middle one of its targets, clicked twice
        // (choose, then confirm).
        s.eval(
            "[...document.querySelectorAll('#reserve-me button')].find(b => !b.disabled).click();",
            json!([]),
        )
        .await;
        let cell = s
            .wait(
                "targets",
                "const t = [...document.querySelectorAll('circle.target')]; return t.length ? t[Math.floor(t.length / 2)].dataset.cell : null;",
            )
            .await;
        let css = format!("polygon.cell[data-cell='{}']", cell.as_str().unwrap());
        s.click(&css).await;
        s.click(&css).await;
        plies += 1;
        s.wait(
            "the move in the list",
            &format!("return document.querySelectorAll('#move-list li').length === {plies} || document.getElementById('status').textContent.includes(' by ');"),
        )
        .await;
    }
    let result = s.text("#status").await;
    s.screenshot("local-1-game-over").await;

    // Review with the keyboard: Home, →, →, ←, End.
    s.click("#board").await;
    s.type_into("#board", keys::HOME).await;
    s.wait(
        "the start",
        "return document.getElementById('status').textContent.includes('after 0 of');",
    )
    .await;
    s.type_into(
        "#board",
        &format!("{}{}{}", keys::RIGHT, keys::RIGHT, keys::LEFT),
    )
    .await;
    s.wait(
        "ply 1",
        "return document.getElementById('status').textContent.includes('after 1 of');",
    )
    .await;
    s.screenshot("local-2-review").await;
    s.type_into("#board", keys::END).await;
    s.wait(
        "the end again",
        "return document.getElementById('status').textContent.includes(' by ');",
    )
    .await;
    assert_eq!(s.text("#status").await, result);
    s.quit().await;
}

async fn join_by_link_and_survive_a_restart(driver: &Driver) {
    // The real server binary, so that it can be killed and restarted under the pages.
    let db = common::temp_db("browser-restart");
    let addr = common::free_addr();
    let base = &format!("http://{addr}");
    let mut server = common::Process::start(addr, &db).await;
    let a = driver.session("friend-a").await;
    a.goto(base).await;
    a.click("input[name='mode'][value='friend']").await;
    a.click("#start-game").await;
    let link = a
        .wait("the link", "const s = document.getElementById('share'); return !s.hidden && document.getElementById('share-link').value;")
        .await;
    // The friend is on a phone.
    let b = driver.session("friend-b").await;
    b.resize(390, 844).await;
    b.goto(link.as_str().unwrap()).await;
    b.wait(
        "black's seat",
        "return document.querySelector('#p-black .name').textContent.includes('you');",
    )
    .await;
    a.wait("the friend arriving", "return document.getElementById('share').hidden && !document.getElementById('move-text').disabled;").await;
    a.type_into("#move-text", "TE4:0\n").await;
    b.wait(
        "white's move",
        "return document.querySelectorAll('#move-list li').length === 1;",
    )
    .await;
    a.screenshot("friend-1-white").await;
    b.screenshot("friend-2-black").await;
    // A third browser opening the link watches.
    let c = driver.session("friend-watcher").await;
    c.goto(link.as_str().unwrap()).await;
    c.wait(
        "the watcher's board",
        "return document.querySelectorAll('#move-list li').length === 1;",
    )
    .await;
    assert!(!c.text("#p-white .name").await.contains("you"));
    assert!(!c.text("#p-black .name").await.contains("you"));

    // kill -9 the server; restart it; a move made meanwhile reaches both open pages, which
    // reconnect by themselves.
    server.kill();
    let _server = common::Process::start(addr, &db).await;
    let id = b
        .eval("return location.pathname.split('/')[2];", json!([]))
        .await;
    let id = id.as_str().unwrap();
    let token = b
        .eval(
            "return localStorage.getItem('punct.token.' + arguments[0]);",
            json!([id]),
        )
        .await;
    let (status, v) = common::post(
        &format!("{base}/api/games/{id}/move"),
        token.as_str(),
        json!({ "move": "TK5:0" }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    for s in [&a, &b, &c] {
        s.wait(
            "the move made after the restart",
            "return document.querySelectorAll('#move-list li').length === 2;",
        )
        .await;
    }
    a.screenshot("friend-3-after-restart").await;
    for s in [a, b, c] {
        s.quit().await;
    }
}
