//! The browser app in headless Chromium: against the computer with the mouse (placing,
//! turning by button, wheel and by dragging a dot, moving, refusals with reasons, takeback,
//! analysis, resigning); a game on one screen to its end, reviewed with the keyboard,
//! exported and imported again; the stack viewer and "lift"; the whole app with the keyboard
//! alone; joining by link from a second browser on a phone-sized touch screen, offers
//! between the two, and a kill -9 of the server under the open pages; every page's address,
//! with reload and Back; drag and drop with the mouse and by touch; a game on a 360 × 640
//! phone; the dark theme.
//!
//! Screenshots go to target/screenshots. Skipped (with a message) without Chromium.
//!
//! Nothing here may hang: every scenario has a time budget, every WebDriver call a timeout,
//! and a watchdog ends the process (after killing the browsers) if all else fails.

mod common;
mod webdriver;

use std::time::Duration;

use serde_json::{Value, json};
use webdriver::{Driver, Session, keys, scenario};

/// The number of moves in the page's move list.
const MOVE_COUNT: &str = "document.querySelectorAll('#move-list li').length";

/// Whether it is the page's player's turn.
const OUR_TURN: &str = "return document.getElementById('status').textContent.includes('your turn') && [...document.querySelectorAll('#reserve-me button')].some(b => b.getAttribute('aria-disabled') === 'false');";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_games() {
    if !webdriver::available() {
        return;
    }
    webdriver::watchdog("the browser tests", Duration::from_secs(600));
    let base = common::start_in_process(&common::temp_db("browser")).await;
    let driver = Driver::start().await;
    scenario(
        "against the computer",
        150,
        against_the_computer(&driver, &base),
    )
    .await;
    scenario(
        "one screen to the end, review, export, import",
        150,
        one_screen_to_the_end_then_review(&driver, &base),
    )
    .await;
    scenario("stacks and lift", 60, stacks_and_lift(&driver, &base)).await;
    scenario("keyboard alone", 90, keyboard_alone(&driver, &base)).await;
    scenario(
        "addresses: reload and Back on every page",
        120,
        addresses_reload_and_back(&driver, &base),
    )
    .await;
    scenario(
        "drag and drop with the mouse",
        90,
        drag_and_drop_with_the_mouse(&driver, &base),
    )
    .await;
    scenario(
        "a phone at 360 × 640, by touch",
        90,
        a_phone_at_360_by_touch(&driver, &base),
    )
    .await;
    scenario(
        "join by link, offers, restart",
        150,
        join_by_link_and_survive_a_restart(&driver),
    )
    .await;
}

/// The ghost piece's move text (the piece in hand where it would go), if any.
async fn ghost(s: &Session) -> String {
    s.eval(
        "const g = document.querySelector('g.ghost'); return g ? g.dataset.move : '';",
        json!([]),
    )
    .await
    .as_str()
    .unwrap_or("")
    .to_owned()
}

/// The centre of a board cell in the window, for pointer actions.
async fn cell_centre(s: &Session, cell: &str) -> (i64, i64) {
    let v = s
        .eval(
            "const r = document.querySelector(`polygon.cell[data-cell='${arguments[0]}']`).getBoundingClientRect(); return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)];",
            json!([cell]),
        )
        .await;
    (v[0].as_i64().unwrap(), v[1].as_i64().unwrap())
}

async fn move_count(s: &Session) -> u64 {
    s.eval(&format!("return {MOVE_COUNT};"), json!([]))
        .await
        .as_u64()
        .unwrap()
}

/// Sets the home page's computer to level 1 (the quickest to answer).
async fn choose_level_1(s: &Session) {
    s.eval(
        "document.getElementById('level-select').value = '1';",
        json!([]),
    )
    .await;
}

async fn against_the_computer(driver: &Driver, base: &str) {
    let s = driver.session("computer").await;
    s.goto(base).await;
    choose_level_1(&s).await;
    s.click("#start-game").await;
    s.wait(
        "the game page",
        "return location.pathname.startsWith('/g/');",
    )
    .await;
    s.wait("our turn", OUR_TURN).await;
    s.screenshot("computer-0-start").await;

    // Pick a T from the reserve: every cell where its PÜNCT may go is marked, and none in the
    // central hexagon (the standard game forbids it).
    s.click("#reserve-me button[data-type='T']").await;
    let marked = s
        .wait(
            "placement targets",
            "return document.querySelectorAll('circle.target').length;",
        )
        .await;
    assert!(marked.as_u64().unwrap() > 100, "{marked}");
    assert_eq!(
        s.eval(
            "return document.querySelectorAll(\"circle.target[data-cell='I9'], circle.target[data-cell='H8']\").length;",
            json!([])
        )
        .await,
        json!(0)
    );
    // A refused attempt says why.
    s.click("polygon.cell[data-cell='I9']").await;
    let reason = s
        .wait(
            "the reason for the refusal",
            "return document.getElementById('game-error').textContent;",
        )
        .await;
    assert!(
        reason.as_str().unwrap().contains("central hexagon"),
        "{reason}"
    );

    // Choose E4 (the confirm step shows the piece there), then turn it three ways: the
    // button, the mouse wheel, and dragging one of its minor dots around the PÜNCT.
    s.click("polygon.cell[data-cell='E4']").await;
    assert_eq!(ghost(&s).await, "TE4:0");
    s.click("#rot-right").await;
    assert_eq!(ghost(&s).await, "TE4:1");
    s.wheel("#board", 120).await;
    s.wait(
        "the wheel to turn the piece",
        "const g = document.querySelector('g.ghost'); return g && g.dataset.move === 'TE4:2';",
    )
    .await;
    // With rotation 2 the first minor dot is on D4 (PÜNCT + D2); dragged to F5 (PÜNCT + D4)
    // the piece turns to rotation 4.
    let handle = s.find("g.ghost circle.handle[data-minor='0']").await;
    let (fx, fy) = cell_centre(&s, "F5").await;
    let (dx, dy) = cell_centre(&s, "D4").await;
    s.pointer(
        "mouse",
        vec![
            json!({ "type": "pointerMove", "x": 0, "y": 0, "origin": { "element-6066-11e4-a52e-4f735466cecf": handle } }),
            json!({ "type": "pointerDown", "button": 0 }),
            json!({ "type": "pointerMove", "x": (dx + fx) / 2, "y": (dy + fy) / 2 + 8, "duration": 100 }),
            json!({ "type": "pointerMove", "x": fx, "y": fy, "duration": 100 }),
            json!({ "type": "pointerUp", "button": 0 }),
        ],
    )
    .await;
    s.wait(
        "the drag to turn the piece",
        "const g = document.querySelector('g.ghost'); return g && g.dataset.move === 'TE4:4';",
    )
    .await;
    s.screenshot("computer-1-piece-in-hand").await;
    s.click("#put-down").await;
    s.wait(
        "the computer's answer",
        &format!("return {MOVE_COUNT} >= 2;"),
    )
    .await;
    assert_eq!(s.text("#move-list li:first-child").await, "TE4:4");

    // An illegal move typed in is refused with the server's reason.
    s.wait("our turn", OUR_TURN).await;
    s.type_into("#move-text", "TI9:0\n").await;
    let reason = s
        .wait(
            "the refusal",
            "const t = document.getElementById('game-error').textContent; return t.includes('TI9') && t;",
        )
        .await;
    let reason = reason.as_str().unwrap();
    assert!(
        reason.contains("TI9:0 is not allowed") && reason.contains("central hexagon"),
        "{reason}"
    );

    // Pick up the piece on E4: its three lines of travel and its destinations appear; move it.
    s.click("polygon.cell[data-cell='E4']").await;
    let dest = s
        .wait(
            "destinations",
            "const t = document.querySelector('circle.target'); return t && document.querySelectorAll('line.line').length === 3 ? t.dataset.cell : null;",
        )
        .await;
    let dest = dest.as_str().unwrap().to_owned();
    s.screenshot("computer-2-lines-of-travel").await;
    s.click(&format!("polygon.cell[data-cell='{dest}']")).await;
    s.screenshot("computer-3-moving-a-piece").await;
    s.click(&format!("polygon.cell[data-cell='{dest}']")).await;
    s.wait(
        "the computer's second answer",
        &format!("return {MOVE_COUNT} >= 4;"),
    )
    .await;
    let third = s.text("#move-list li:nth-child(3)").await;
    assert!(third.starts_with("E4-"), "{third}");
    s.screenshot("computer-4-after-answer").await;
    move_a_board_piece_by_keys(&s, base).await;
    // The moves went over the WebSocket, and the page did not download the game again after
    // each one.
    let http = s
        .eval(
            "return performance.getEntriesByType('resource').map(e => new URL(e.name).pathname).filter(p => p.endsWith('/move') || p.endsWith('/replay') || p.endsWith('/action'));",
            json!([]),
        )
        .await;
    assert_eq!(http, json!([]), "moves and replays over HTTP");

    // Take back at once against the computer: back to before our last move.
    s.wait("our turn", OUR_TURN).await;
    let before = move_count(&s).await;
    s.click("#takeback").await;
    s.wait(
        "the takeback",
        &format!("return {MOVE_COUNT} === {};", before - 2),
    )
    .await;

    // No engine analysis of a game being played (API.md, Fairness), for anyone.
    s.click("#analysis-on").await;
    s.wait(
        "the analysis refused while the game is played",
        "return document.getElementById('analysis').textContent.includes('no position of a game being played');",
    )
    .await;
    s.click("#analysis-on").await;
    colours_stay_apart(&s).await;

    // Resigning asks once more first.
    s.click("#resign").await;
    assert_eq!(s.text("#resign").await, "Really resign?");
    s.click("#resign").await;
    s.wait(
        "the resignation",
        "return document.getElementById('status').textContent.includes('resign');",
    )
    .await;

    // Once the game is over, analysis of the shown position: the evaluation, the best line,
    // and the best move on the board.
    s.click("#first").await;
    s.click("#next").await;
    s.click("#analysis-on").await;
    let analysis = s
        .wait(
            "the analysis",
            "const t = document.getElementById('analysis').textContent; return t.includes('Best line') && document.querySelector('g.hint-move') && t;",
        )
        .await;
    assert!(analysis.as_str().unwrap().contains("win"), "{analysis}");
    s.screenshot("computer-5-analysis").await;
    s.quit().await;
}

/// Moves one of our board pieces with key presses alone: the cursor to it, Enter to pick it
/// up, an arrow to a destination, Enter to put it down.
async fn move_a_board_piece_by_keys(s: &Session, base: &str) {
    s.wait("our turn", OUR_TURN).await;
    let before = move_count(s).await;
    // Which of our pieces may move, from the server.
    let id = s
        .eval("return location.pathname.split('/')[2];", json!([]))
        .await;
    let (_, game) = common::get(&format!("{base}/api/games/{}", id.as_str().unwrap()), None).await;
    let from = first_shift_origin(base, game["position"].as_str().unwrap()).await;

    // Walk the cursor (on the last cell clicked, or else I9) to the piece; the first arrow
    // shows it.
    s.type_into("#board", keys::UP).await;
    walk_cursor_to(s, &from).await;
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
        &format!("return {MOVE_COUNT} >= {};", before + 2),
    )
    .await;
    let mine = s
        .text(&format!("#move-list li:nth-child({})", before + 1))
        .await;
    assert!(mine.starts_with(&format!("{from}-")), "{mine}");
}

/// The origin of the first legal board move in `position`.
async fn first_shift_origin(base: &str, position: &str) -> String {
    let position = position.replace(' ', "%20");
    let (_, legal) = common::get(&format!("{base}/api/legal?position={position}"), None).await;
    legal["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m.as_str()?.split_once('-').map(|(f, _)| f.to_owned()))
        .next()
        .expect("a piece of ours that may move")
}

/// Presses arrow keys on the board until its cursor is on `to`.
async fn walk_cursor_to(s: &Session, to: &str) {
    let step = "const b = document.getElementById('board'); if (b.dataset.cursor === arguments[0]) return ''; const at = document.querySelector(`polygon.cell[data-cell='${b.dataset.cursor || 'I9'}']`).getBoundingClientRect(); const to = document.querySelector(`polygon.cell[data-cell='${arguments[0]}']`).getBoundingClientRect(); const dx = to.x - at.x, dy = to.y - at.y; return Math.abs(dx) > at.width / 2 ? (dx > 0 ? 'right' : 'left') : (dy > 0 ? 'down' : 'up');";
    for _ in 0..40 {
        let dir = s.eval(step, json!([to])).await;
        let key = match dir.as_str().unwrap() {
            "" => return,
            "right" => keys::RIGHT,
            "left" => keys::LEFT,
            "down" => keys::DOWN,
            _ => keys::UP,
        };
        s.type_into("#board", key).await;
    }
    panic!("the cursor did not reach {to}");
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
    let id = s
        .eval("return location.pathname.split('/')[2];", json!([]))
        .await
        .as_str()
        .unwrap()
        .to_owned();
    // A game that ends in a connection (the engine as White against random placements),
    // played with the mouse: a piece from the reserve or from the board, its cell, R until it
    // is turned right, then the cell again to confirm.
    let moves = tokio::task::spawn_blocking(connection_game).await.unwrap();
    for (i, mv) in moves.iter().enumerate() {
        s.wait("our turn", OUR_TURN).await;
        let to = match mv.split_once('-') {
            None => {
                let (kind, cell) = mv.split_at(1);
                s.click(&format!("#reserve-me button[data-type='{kind}']"))
                    .await;
                cell.split(':').next().unwrap().to_owned()
            }
            Some((from, to)) => {
                s.click(&format!("polygon.cell[data-cell='{from}']")).await;
                to.split(':').next().unwrap().to_owned()
            }
        };
        let css = format!("polygon.cell[data-cell='{to}']");
        s.click(&css).await;
        for _ in 0..6 {
            if ghost(&s).await == *mv {
                break;
            }
            s.keys("r").await;
        }
        assert_eq!(ghost(&s).await, *mv, "the piece in hand turned to {mv}");
        s.click(&css).await;
        s.wait(
            "the move in the list",
            &format!("return {MOVE_COUNT} === {};", i + 1),
        )
        .await;
    }
    s.wait(
        "the end",
        "return document.getElementById('status').textContent.includes('wins by connection');",
    )
    .await;
    let plies = moves.len();
    let result = s.text("#status").await;
    let (_, state) = common::get(&format!("{base}/api/games/{id}"), None).await;
    // The winning chain is highlighted, cell for cell.
    let mut chain: Vec<&str> = state["outcome"]["winning_chain"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    chain.sort_unstable();
    assert!(chain.len() >= 7, "{chain:?}");
    let drawn = s
        .eval(
            "return [...document.querySelectorAll('polygon.chain')].map(p => p.dataset.cell).sort();",
            json!([]),
        )
        .await;
    assert_eq!(drawn, json!(chain), "the winning chain is highlighted");
    s.screenshot("local-1-game-over").await;

    // Review with the keyboard: Home, →, →, ←, End; the last move is marked on the way.
    s.click("#board").await;
    s.type_into("#board", keys::HOME).await;
    s.wait(
        "the start",
        "return document.getElementById('status').textContent.includes('after 0 of') && document.querySelectorAll('#board circle.dot').length === 0;",
    )
    .await;
    s.type_into(
        "#board",
        &format!("{}{}{}", keys::RIGHT, keys::RIGHT, keys::LEFT),
    )
    .await;
    s.wait(
        "ply 1",
        "return document.getElementById('status').textContent.includes('after 1 of') && document.querySelectorAll('polygon.last-fill').length === 3 && document.querySelectorAll('polygon.chain').length === 0;",
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

    // Export the record and the position text.
    s.click("#export-record").await;
    let record = s
        .wait(
            "the record",
            "const t = document.getElementById('export'); return !document.getElementById('export-box').hidden && t.value;",
        )
        .await;
    let record = record.as_str().unwrap().to_owned();
    let parsed = punct_core::Record::parse(&record).expect("the exported record reads back");
    assert_eq!(parsed.moves.len(), plies);
    s.click("#export-position").await;
    assert_eq!(s.text("#export").await, state["position"].as_str().unwrap());

    // Import the record to review it: the same moves, the same result, the keys work.
    s.click("nav a[data-view='import']").await;
    s.eval(
        "document.getElementById('import-text').value = arguments[0];",
        json!([record]),
    )
    .await;
    s.click("#import-review").await;
    s.wait(
        "the imported game",
        &format!("return {MOVE_COUNT} === {plies} && document.getElementById('status').textContent.includes(' by ');"),
    )
    .await;
    s.click("#board").await;
    s.type_into("#board", &format!("{}{}", keys::HOME, keys::RIGHT))
        .await;
    s.wait(
        "the imported game's first move",
        "return document.getElementById('status').textContent.includes('after 1 of');",
    )
    .await;
    s.screenshot("local-3-imported-review").await;

    // Play on from a position of it against the computer, as the side to move there.
    let (_, replay) = common::get(&format!("{base}/api/games/{id}/replay"), None).await;
    let midgame = replay["positions"][4].as_str().unwrap().to_owned();
    s.click("nav a[data-view='import']").await;
    s.eval(
        "document.getElementById('import-text').value = arguments[0]; document.getElementById('import-level').value = '1';",
        json!([midgame]),
    )
    .await;
    s.click("#import-play").await;
    s.wait(
        "a new game from the imported position",
        "return location.pathname.startsWith('/g/') && document.getElementById('status').textContent.includes('your turn');",
    )
    .await;
    let new_id = s
        .eval("return location.pathname.split('/')[2];", json!([]))
        .await;
    let new_id = new_id.as_str().unwrap();
    let token = s
        .eval(
            "return localStorage.getItem('punct.token.' + arguments[0]);",
            json!([new_id]),
        )
        .await;
    let (_, state) = common::get(&format!("{base}/api/games/{new_id}"), token.as_str()).await;
    assert_eq!(state["start"], midgame.as_str());
    assert_eq!(state["mode"], "computer");
    assert_eq!(state["you"], json!(["white"]), "white was to move there");
    s.quit().await;
}

async fn stacks_and_lift(driver: &Driver, base: &str) {
    let s = driver.session("stacks").await;
    s.goto(&format!("{base}/")).await;
    s.click("nav a[data-view='import']").await;
    s.eval(
        "document.getElementById('import-text').value = 'standard b 5 wTE4:0@1,bTK5:0@1,bEM12:3@1,wTE4:0@2';",
        json!([]),
    )
    .await;
    s.click("#import-review").await;
    s.wait(
        "the position",
        "return document.querySelectorAll('circle.badge').length === 3;",
    )
    .await;
    // Hovering a cell lists its stack from the bottom up.
    let (x, y) = cell_centre(&s, "E4").await;
    s.pointer(
        "mouse",
        vec![json!({ "type": "pointerMove", "x": x, "y": y, "duration": 50 })],
    )
    .await;
    let info = s
        .wait(
            "the stack of E4",
            "const t = document.getElementById('stack-info').textContent; return t.startsWith('E4') && t;",
        )
        .await;
    assert_eq!(
        info,
        "E4, bottom to top: white T PÜNCT (level 1), white T PÜNCT (level 2)"
    );
    // Lifting spreads the stack: the level-2 dot moves well off its cell, showing the one
    // below.
    let offset = "const d = document.querySelector(\"circle.dot[data-cell='E4'][data-level='2']\"); const c = document.querySelector(\"circle.dot[data-cell='E4'][data-level='1']\"); return Math.hypot(d.cx.baseVal.value - c.cx.baseVal.value, d.cy.baseVal.value - c.cy.baseVal.value);";
    let flat = s.eval(offset, json!([])).await.as_f64().unwrap();
    s.screenshot("stacks-1").await;
    s.click("#lift").await;
    let lifted = s.eval(offset, json!([])).await.as_f64().unwrap();
    assert!(flat > 1.0 && lifted > 3.0 * flat, "{flat} {lifted}");
    s.screenshot("stacks-2-lifted").await;

    // An M (PÜNCT at the elbow, on F5), opened by its analysis address: both its bars
    // start at the PÜNCT; none joins the two minor dots, which are not neighbours.
    s.goto(&format!("{base}/analysis#text=standard+b+1+wMF5%3A0%401"))
        .await;
    s.wait(
        "the M",
        "return document.querySelector(\"#board circle.dot.punct[data-cell='F5']\");",
    )
    .await;
    let m_bars = s
        .eval(
            "const p = document.querySelector(\"#board circle.dot.punct[data-cell='F5']\"); const g = p.closest('g.piece'); const [x, y] = [p.cx.baseVal.value, p.cy.baseVal.value]; return [...g.querySelectorAll('line.tile')].map((l) => Math.min(Math.hypot(l.x1.baseVal.value - x, l.y1.baseVal.value - y), Math.hypot(l.x2.baseVal.value - x, l.y2.baseVal.value - y)) < 0.5);",
            json!([]),
        )
        .await;
    assert_eq!(m_bars, json!([true, true]), "the M's bars");
    s.screenshot("stacks-3-an-m").await;

    // A watcher sees a clock run down (shown in tenths and marked when low) and the game
    // end on time.
    // The clocks wait for the first move, so White makes it and Black's runs down.
    let (id, white, _) =
        common::friend_game(base, Some(json!({ "minutes": 0.05, "increment": 0 }))).await;
    let (status, v) = common::post(
        &format!("{base}/api/games/{id}/move"),
        Some(&white),
        json!({ "move": "TE4:0" }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    s.goto(&format!("{base}/g/{id}")).await;
    s.wait(
        "the low clock",
        "const c = document.querySelector('#p-black .clock'); return c.classList.contains('low') && c.textContent.startsWith('0:0');",
    )
    .await;
    s.wait(
        "the loss on time",
        "return document.getElementById('status').textContent.includes('White wins by time forfeit');",
    )
    .await;
    assert_eq!(s.text("#p-black .clock").await, "0:00.0");
    s.quit().await;
}

/// The colours that tell things apart stay apart for the three kinds of colour blindness
/// (Machado et al. 2009 simulation, CIE76 ΔE ≥ 15 for every pair), and the goal pairs also
/// differ by dash pattern.
async fn colours_stay_apart(s: &Session) {
    let report = s
        .eval(
            r#"
const M = {
  protan: [[0.152286,1.052583,-0.204868],[0.114503,0.786281,0.099216],[-0.003882,-0.048116,1.051998]],
  deutan: [[0.367322,0.860646,-0.227968],[0.280085,0.672501,0.047413],[-0.011820,0.042940,0.968881]],
  tritan: [[1.255528,-0.076749,-0.178779],[-0.078411,0.930809,0.147602],[0.004733,0.691367,0.303900]],
  normal: [[1,0,0],[0,1,0],[0,0,1]],
};
const css = getComputedStyle(document.documentElement);
const hex = (v) => css.getPropertyValue(v).trim();
const lin = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
const lab = ([r, g, b]) => {
  const X = 0.4124*r + 0.3576*g + 0.1805*b, Y = 0.2126*r + 0.7152*g + 0.0722*b, Z = 0.0193*r + 0.1192*g + 0.9505*b;
  const f = (t) => t > 0.008856 ? Math.cbrt(t) : 7.787*t + 16/116;
  const [fx, fy, fz] = [f(X/0.95047), f(Y), f(Z/1.08883)];
  return [116*fy - 16, 500*(fx - fy), 200*(fy - fz)];
};
const sim = (h, m) => { const v = [1, 3, 5].map((i) => lin(parseInt(h.slice(i, i + 2), 16))); return lab(m.map((row) => Math.min(1, Math.max(0, row[0]*v[0] + row[1]*v[1] + row[2]*v[2])))); };
const sets = [["--goal0", "--goal1", "--goal2"], ["--accent", "--last", "--chain"]];
const bad = [];
for (const [kind, m] of Object.entries(M)) for (const set of sets)
  for (let i = 0; i < set.length; i++) for (let j = i + 1; j < set.length; j++) {
    const [a, b] = [sim(hex(set[i]), m), sim(hex(set[j]), m)];
    const d = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    if (!(d >= 15)) bad.push(`${kind}: ${set[i]} ${set[j]} ΔE ${d.toFixed(1)}`);
  }
const dashes = new Set([0, 1, 2].map((g) => getComputedStyle(document.querySelector(`polygon.goal${g}`)).strokeDasharray));
if (dashes.size !== 3) bad.push(`goal dash patterns: ${[...dashes].join(' | ')}`);
return bad.join('; ');
"#,
            json!([]),
        )
        .await;
    assert_eq!(report, json!(""), "colours too close");
}

/// A whole game start with the keyboard alone: Tab to the form's Start, Enter; Tab to a
/// reserve piece, Enter (the board takes the focus with a cell chosen), R to turn, Enter to
/// put it down; then review with Home and End.
async fn keyboard_alone(driver: &Driver, base: &str) {
    let s = driver.session("keyboard").await;
    s.goto(base).await;
    choose_level_1(&s).await;
    tab_to(&s, "#start-game").await;
    s.keys(keys::ENTER).await;
    s.wait("our turn", OUR_TURN).await;
    tab_to(&s, "#reserve-me button[data-type='E']").await;
    s.keys(keys::ENTER).await;
    s.wait(
        "the board focused with the piece on a cell",
        "return document.activeElement.id === 'board' && document.querySelector('g.ghost') && document.querySelector('polygon.cursor');",
    )
    .await;
    let first = ghost(&s).await;
    s.keys(&format!("{}r", keys::DOWN)).await;
    let chosen = ghost(&s).await;
    assert!(
        chosen.starts_with('E') && chosen != first,
        "{first} {chosen}"
    );
    s.screenshot("keyboard-1-piece-on-the-board").await;
    s.keys(keys::ENTER).await;
    s.wait(
        "the move and the computer's answer",
        &format!("return {MOVE_COUNT} === 2;"),
    )
    .await;
    assert_eq!(s.text("#move-list li:first-child").await, chosen);
    // Review from anywhere but the board: Home goes to the start, End back to the game.
    tab_to(&s, "#first").await;
    s.keys(keys::HOME).await;
    s.wait(
        "the start",
        "return document.getElementById('status').textContent.includes('after 0 of 2');",
    )
    .await;
    s.keys(keys::END).await;
    s.wait(
        "the live game",
        "return document.getElementById('status').textContent.includes('your turn');",
    )
    .await;
    // Every control shows where the focus is.
    let outline = s
        .eval(
            "return getComputedStyle(document.activeElement).outlineStyle;",
            json!([]),
        )
        .await;
    assert_ne!(outline, "none");
    s.quit().await;
}

/// The moves of a game that ends in a connection: the engine as White (a small node budget)
/// against Black placing pieces at random, over seeds until White connects.
fn connection_game() -> Vec<String> {
    use punct_core::{Game, Termination, Variant};
    use punct_engine::{Engine, Level, Options, SearchLimits};
    let stop = std::sync::atomic::AtomicBool::new(false);
    for seed in 0..30_u64 {
        let mut game = Game::new(Variant::Standard);
        let mut engine = Engine::new(Options {
            level: Level::new(6).unwrap(),
            seed,
            ..Options::default()
        });
        while game.outcome().is_none() && game.moves().len() < 60 {
            let mv = if game.moves().len().is_multiple_of(2) {
                engine
                    .search(&game, &SearchLimits::nodes(64), &stop, &mut |_| {})
                    .best_move
                    .unwrap()
            } else {
                let moves = game.position().legal_moves();
                let placements: Vec<_> = moves
                    .iter()
                    .filter(|m| !m.to_string().contains('-'))
                    .copied()
                    .collect();
                let pool = if placements.is_empty() {
                    &moves
                } else {
                    &placements
                };
                pool[(seed as usize * 7919 + game.moves().len() * 104_729) % pool.len()]
            };
            game.play(mv).unwrap();
        }
        if game
            .outcome()
            .is_some_and(|o| o.termination == Termination::Connection)
        {
            return game.moves().iter().map(ToString::to_string).collect();
        }
    }
    panic!("no game of the engine against random placements ended in a connection");
}

/// Presses Tab until the element matching `css` has the focus.
async fn tab_to(s: &Session, css: &str) {
    for _ in 0..60 {
        let here = s
            .eval(
                "return document.activeElement.matches(arguments[0]);",
                json!([css]),
            )
            .await;
        if here == json!(true) {
            return;
        }
        s.keys(keys::TAB).await;
    }
    panic!("{}: Tab never reached {css}", s.name());
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
    let link = link.as_str().unwrap().to_owned();
    // The friend is on a phone, and once typed a name on the home page: it is theirs in the
    // game they join.
    let b = driver.session_phone("friend-b").await;
    b.goto(base).await;
    b.type_into("#new-game input[name='name']", "Bo").await;
    b.goto(&link).await;
    b.wait(
        "black's seat",
        "return document.querySelector('#p-black .name').textContent === 'Bo — you';",
    )
    .await;
    // The phone layout: nothing wider than the screen, the clocks above the board.
    let fits = b
        .eval(
            "return document.documentElement.scrollWidth <= window.innerWidth && document.getElementById('p-white').getBoundingClientRect().bottom <= document.getElementById('board').getBoundingClientRect().top;",
            json!([]),
        )
        .await;
    assert_eq!(fits, json!(true), "the page fits a phone");
    a.wait("the friend arriving", "return document.getElementById('share').hidden && !document.getElementById('move-text').disabled;").await;
    a.type_into("#move-text", "TE4:0\n").await;
    b.wait("white's move", &format!("return {MOVE_COUNT} === 1;"))
        .await;

    // Black plays by touch: a reserve piece, a cell (chosen, then confirmed).
    b.wait("black's turn", OUR_TURN).await;
    b.tap("#reserve-me button[data-type='T']").await;
    b.wait(
        "targets",
        "return document.querySelector(\"circle.target[data-cell='K5']\");",
    )
    .await;
    b.tap("polygon.cell[data-cell='K5']").await;
    b.wait(
        "the piece on K5",
        "return document.querySelector('g.ghost');",
    )
    .await;
    // A tap is not the keyboard: no keyboard cursor on the board, and no word of the cell
    // the cursor would start on.
    assert_eq!(
        b.eval(
            "return !document.querySelector('polygon.cursor') && !document.getElementById('stack-info').textContent.includes('I9');",
            json!([])
        )
        .await,
        json!(true)
    );
    b.screenshot("friend-2-black-on-a-phone").await;
    b.tap("polygon.cell[data-cell='K5']").await;
    a.wait("black's move", &format!("return {MOVE_COUNT} === 2;"))
        .await;

    // A takeback between people is asked for and granted; a draw offer is declined.
    a.type_into("#move-text", "TC3:0\n").await;
    b.wait(
        "white's second move",
        &format!("return {MOVE_COUNT} === 3;"),
    )
    .await;
    a.click("#takeback").await;
    b.wait(
        "the takeback request",
        "return document.getElementById('allow-takeback');",
    )
    .await;
    b.tap("#allow-takeback").await;
    a.wait("the takeback", &format!("return {MOVE_COUNT} === 2;"))
        .await;
    a.click("#offer-draw").await;
    b.wait(
        "the draw offer",
        "return document.getElementById('decline-draw');",
    )
    .await;
    b.screenshot("friend-3-offer-on-a-phone").await;
    b.tap("#decline-draw").await;
    a.wait(
        "the declined offer",
        "return !document.getElementById('offers').textContent.includes('draw');",
    )
    .await;

    // Black steps back to the start while White plays (with the confirm step off: one click
    // puts the piece down); Black's page stays where it was, counts the new move, and ▶|
    // returns to the live game.
    b.tap("#first").await;
    b.wait(
        "black reviewing",
        "return document.getElementById('status').textContent.includes('after 0 of 2');",
    )
    .await;
    a.click("#confirm-moves").await;
    a.click("#reserve-me button[data-type='T']").await;
    a.wait(
        "targets",
        "return document.querySelector(\"circle.target[data-cell='C3']\");",
    )
    .await;
    a.click("polygon.cell[data-cell='C3']").await;
    a.wait(
        "white's one-click move",
        &format!("return {MOVE_COUNT} === 3;"),
    )
    .await;
    b.wait(
        "the move arriving while black reviews",
        &format!("return {MOVE_COUNT} === 3 && document.getElementById('status').textContent.includes('after 0 of 3') && document.querySelectorAll('#board circle.dot').length === 0;"),
    )
    .await;
    b.tap("#last").await;
    b.wait("black back in the live game", OUR_TURN).await;
    a.screenshot("friend-1-white").await;

    // A third browser opening the link watches.
    let c = driver.session("friend-watcher").await;
    c.goto(&link).await;
    c.wait(
        "the watcher's board",
        &format!("return {MOVE_COUNT} === 3;"),
    )
    .await;
    assert!(!c.text("#p-white .name").await.contains("you"));
    assert!(!c.text("#p-black .name").await.contains("you"));

    // kill -9 the server: the pages say so. Restart it; a move made meanwhile reaches every
    // open page, which reconnect by themselves.
    server.kill();
    for s in [&a, &b, &c] {
        s.wait(
            "the page noticing the lost connection",
            "return !document.getElementById('conn').hidden;",
        )
        .await;
    }
    a.screenshot("friend-4-server-down").await;
    // Said in words, on the game page and on a page that asks the server for something.
    assert!(
        a.text("#conn").await.contains("not answering"),
        "{}",
        a.text("#conn").await
    );
    c.click("nav a[data-view='games']").await;
    let words = c
        .wait(
            "the games list failing",
            "const t = document.getElementById('live-list').textContent; return t.includes('not answering') && t;",
        )
        .await;
    assert!(!words.as_str().unwrap().contains("fetch"), "{words}");
    c.eval("history.back();", json!([])).await;
    c.wait(
        "the game page again, saying the server is not answering",
        "return location.pathname.startsWith('/g/') && !document.getElementById('conn').hidden;",
    )
    .await;
    let _server = common::Process::start(addr, &db).await;
    // The link is `/g/{id}#invite=…`: the invitation rides after `#`, out of the server's logs.
    let (page, invite) = link
        .split_once("#invite=")
        .expect("the link carries the invitation");
    assert_eq!(invite.len(), 32, "{link}");
    let id = page.rsplit('/').next().unwrap();
    let token: Value = b
        .eval(
            "return localStorage.getItem('punct.token.' + arguments[0]);",
            json!([id]),
        )
        .await;
    let (status, v) = common::post(
        &format!("{base}/api/games/{id}/move"),
        token.as_str(),
        json!({ "move": "TM12:0" }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    for s in [&a, &b, &c] {
        s.wait(
            "the move made after the restart",
            &format!("return {MOVE_COUNT} === 4 && document.getElementById('conn').hidden;"),
        )
        .await;
    }
    a.screenshot("friend-5-after-restart").await;
    // The lists of games show it live.
    c.click("nav a[data-view='games']").await;
    c.wait(
        "the game in the live list",
        &format!("return document.querySelector(\"#live-list a[href='/g/{id}']\");"),
    )
    .await;
    c.click("nav a[data-view='rules']").await;
    c.wait(
        "the rules",
        "return document.getElementById('rules-text').textContent.includes('central hexagon');",
    )
    .await;
    for s in [a, b, c] {
        s.quit().await;
    }
}

/// The first visit's figures on loopback, printed (run by hand: `cargo test -p punct-server
/// --test browser -- --ignored first_visit`): a friend opens the link to a game where they are
/// to move, in a browser with nothing cached; the bytes it downloaded (page, files, API
/// answers) by the time the board takes a move, and how long that took from the start of the
/// navigation; then the bytes the page downloads per move later in the game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement, not a test: prints figures"]
async fn first_visit_figures() {
    if !webdriver::available() {
        return;
    }
    webdriver::watchdog("the first-visit figures", Duration::from_secs(300));
    let base = common::start_in_process(&common::temp_db("first-visit")).await;
    let driver = Driver::start().await;
    const BYTES: &str = "return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource')).reduce((n, e) => n + e.transferSize, 0);";
    let mut runs = Vec::new();
    for run in 0..7 {
        let (status, created) = common::post(
            &format!("{base}/api/games"),
            None,
            json!({ "mode": "friend", "colour": "black", "name": "Ada" }),
        )
        .await;
        assert_eq!(status, 201, "{created}");
        let id = created["id"].as_str().unwrap();
        let invite = created["invite"].as_str().unwrap();
        let s = driver.session(&format!("first-visit-{run}")).await;
        s.goto(&format!("{base}/g/{id}#invite={invite}")).await;
        let ms = s
            .eval_async(
                &format!("const done = arguments[0]; const ready = () => {{ {OUR_TURN} }}; const poll = () => ready() ? done(performance.now()) : setTimeout(poll, 5); poll();"),
                json!([]),
            )
            .await
            .as_f64()
            .unwrap();
        let bytes = s.eval(BYTES, json!([])).await.as_f64().unwrap();
        // Moves made by both players (through the API, as the page's player would make
        // them: pieces moved on the board rather than placed where they can be, so that
        // the game goes on); the bytes the page downloads per move over moves 51 to 60.
        let token = s
            .eval(
                "return localStorage.getItem('punct.token.' + arguments[0]);",
                json!([id]),
            )
            .await;
        let black = created["token"].as_str().unwrap();
        let mut mark = 0.0;
        for ply in 0..60 {
            if ply == 50 {
                s.wait("fifty moves", &format!("return {MOVE_COUNT} === 50;"))
                    .await;
                tokio::time::sleep(Duration::from_millis(300)).await;
                mark = s.eval(BYTES, json!([])).await.as_f64().unwrap();
            }
            let (_, state) = common::get(&format!("{base}/api/games/{id}"), None).await;
            assert!(state["outcome"].is_null(), "the game ended at ply {ply}");
            let mv = board_move_first(&base, state["position"].as_str().unwrap(), ply).await;
            let token = if ply % 2 == 0 {
                token.as_str()
            } else {
                Some(black)
            };
            let (status, v) = common::post(
                &format!("{base}/api/games/{id}/move"),
                token,
                json!({ "move": mv }),
            )
            .await;
            assert_eq!(status, 200, "{v}");
            // The page sees each move (and fetches what it fetches) before the next.
            s.wait("the move", &format!("return {MOVE_COUNT} === {};", ply + 1))
                .await;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        let after = s.eval(BYTES, json!([])).await.as_f64().unwrap();
        let per_move = (after - mark) / 10.0;
        eprintln!(
            "run {run}: {bytes:.0} bytes, board usable after {ms:.0} ms; then {per_move:.0} bytes per move (moves 51-60)"
        );
        runs.push((bytes, ms, per_move));
        s.quit().await;
    }
    runs.sort_by(|a, b| a.1.total_cmp(&b.1));
    let (bytes, ms, per_move) = runs[runs.len() / 2];
    eprintln!(
        "median of {}: {bytes:.0} bytes, board usable after {ms:.0} ms, {per_move:.0} bytes per move (HTTP; WebSocket frames not counted)",
        runs.len()
    );
}

/// Every page has its own address: reached by the links, each survives a reload, and Back
/// walks back through them. An unknown game says so; an unknown address gets the page.
async fn addresses_reload_and_back(driver: &Driver, base: &str) {
    let s = driver.session("addresses").await;
    s.goto(base).await;
    s.wait(
        "the home page",
        "return !document.getElementById('view-home').hidden;",
    )
    .await;
    // The pages, by the header's links: (link, address, the section shown).
    let pages = [
        ("games", "/games", "view-games"),
        ("learn", "/learn", "view-learn"),
        ("rules", "/rules", "view-rules"),
        ("import", "/import", "view-import"),
    ];
    for (link, path, view) in pages {
        s.click(&format!("nav a[data-view='{link}']")).await;
        s.wait(
            &format!("the {link} page"),
            &format!("return location.pathname === '{path}' && !document.getElementById('{view}').hidden;"),
        )
        .await;
        s.eval("location.reload();", json!([])).await;
        s.wait(
            &format!("the {link} page after a reload"),
            &format!("return document.readyState === 'complete' && location.pathname === '{path}' && !document.getElementById('{view}').hidden && document.querySelector(\"nav a[aria-current='page']\")?.dataset.view === '{link}';"),
        )
        .await;
    }
    // An imported position is reviewed at an address of its own, which a reload reads again.
    let position = "standard b 5 wTE4:0@1,bTK5:0@1,bEM12:3@1,wTE4:0@2";
    s.eval(
        "document.getElementById('import-text').value = arguments[0];",
        json!([position]),
    )
    .await;
    s.click("#import-review").await;
    let analysis = "return location.pathname === '/analysis' && !document.getElementById('view-game').hidden && document.querySelectorAll('circle.badge').length === 3;";
    s.wait("the analysis page", analysis).await;
    s.eval("location.reload();", json!([])).await;
    s.wait("the analysis page after a reload", analysis).await;
    // A game.
    let (id, _) = common::create(base, json!({ "mode": "computer", "level": 1 })).await;
    s.eval(
        "history.pushState(null, '', arguments[0]); window.dispatchEvent(new PopStateEvent('popstate'));",
        json!([format!("/g/{id}")]),
    )
    .await;
    let game = "return location.pathname.startsWith('/g/') && document.querySelectorAll('polygon.cell').length === 211 && document.getElementById('status').textContent.includes('to move');";
    s.wait("the game page", game).await;
    s.eval("location.reload();", json!([])).await;
    s.wait("the game page after a reload", game).await;
    s.screenshot("addresses-1-game").await;
    // Back, all the way: the game, the analysis, import, rules, learn, games, home.
    for (what, check) in [
        (
            "analysis",
            "location.pathname === '/analysis' && document.querySelectorAll('circle.badge').length === 3",
        ),
        (
            "import",
            "location.pathname === '/import' && !document.getElementById('view-import').hidden",
        ),
        (
            "rules",
            "location.pathname === '/rules' && document.getElementById('rules-text').textContent.includes('central hexagon')",
        ),
        (
            "learn",
            "location.pathname === '/learn' && !document.getElementById('view-learn').hidden",
        ),
        (
            "games",
            "location.pathname === '/games' && !document.getElementById('view-games').hidden",
        ),
        (
            "home",
            "location.pathname === '/' && !document.getElementById('view-home').hidden",
        ),
    ] {
        s.eval("history.back();", json!([])).await;
        s.wait(
            &format!("Back to {what}"),
            &format!("return document.readyState === 'complete' && {check};"),
        )
        .await;
    }
    // A game that does not exist, and an address that means nothing.
    s.goto(&format!("{base}/g/0000000000000000")).await;
    s.wait(
        "no such game",
        "return !document.getElementById('game-missing').hidden && document.getElementById('game-missing').textContent.includes('No such game');",
    )
    .await;
    s.screenshot("addresses-2-no-such-game").await;
    s.goto(&format!("{base}/no/such/page")).await;
    s.wait(
        "no such page",
        "return !document.getElementById('view-missing').hidden && document.getElementById('missing-path').textContent === '/no/such/page';",
    )
    .await;
    let (status, body) = common::get(&format!("{base}/api/no-such-endpoint"), None).await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["status"], 404, "the API still answers in JSON");
    // The dark theme, from the switch (and kept).
    s.goto(base).await;
    let background = "return getComputedStyle(document.body).backgroundColor;";
    let light = s.eval(background, json!([])).await;
    s.click("#theme").await;
    s.click("#theme").await;
    s.wait(
        "the dark theme",
        "return document.documentElement.dataset.theme === 'dark';",
    )
    .await;
    let dark = s.eval(background, json!([])).await;
    assert_ne!(light, dark);
    s.eval("location.reload();", json!([])).await;
    s.wait(
        "the dark theme kept",
        "return document.documentElement.dataset.theme === 'dark';",
    )
    .await;
    s.goto(&format!("{base}/g/{id}")).await;
    s.wait("the game page", game).await;
    s.screenshot("addresses-3-dark-theme").await;
    s.quit().await;
}

/// The centre of the element matching `css` in the window, scrolled to the bottom of the
/// window so that as much of the board above it as can be is in view.
async fn centre_of(s: &Session, css: &str) -> (i64, i64) {
    let v = s
        .eval(
            "const e = document.querySelector(arguments[0]); const r0 = e.getBoundingClientRect(); if (r0.top < 0 || r0.bottom > innerHeight) e.scrollIntoView({ block: 'end' }); const r = e.getBoundingClientRect(); return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)];",
            json!([css]),
        )
        .await;
    (v[0].as_i64().unwrap(), v[1].as_i64().unwrap())
}

/// Drags with `pointer` ("mouse" or "touch") from the centre of `from` to the centre of the
/// board cell `to`, in steps.
async fn drag(s: &Session, pointer: &str, from: &str, to: &str) {
    let (fx, fy) = centre_of(s, from).await;
    let (tx, ty) = cell_centre(s, to).await;
    s.pointer(
        pointer,
        vec![
            json!({ "type": "pointerMove", "x": fx, "y": fy }),
            json!({ "type": "pointerDown", "button": 0 }),
            json!({ "type": "pointerMove", "x": fx + (tx - fx) / 4, "y": fy + (ty - fy) / 4, "duration": 60 }),
            json!({ "type": "pointerMove", "x": (fx + tx) / 2, "y": (fy + ty) / 2, "duration": 60 }),
            json!({ "type": "pointerMove", "x": tx, "y": ty, "duration": 60 }),
            json!({ "type": "pointerUp", "button": 0 }),
        ],
    )
    .await;
}

/// A piece dragged from the reserve and dropped on a marked cell is put down at once; one
/// dropped where it may not go stays in hand with the reason beside the board; a piece on
/// the board is dragged to a destination.
async fn drag_and_drop_with_the_mouse(driver: &Driver, base: &str) {
    let s = driver.session("drag-mouse").await;
    s.goto(base).await;
    choose_level_1(&s).await;
    s.click("#start-game").await;
    s.wait("our turn", OUR_TURN).await;
    // Onto the central hexagon: refused, with the reason next to the cell of the drop.
    drag(&s, "mouse", "#reserve-me button[data-type='E']", "I9").await;
    let reason = s
        .wait(
            "the refusal",
            "const t = document.getElementById('game-error').textContent; return t.includes('central hexagon') && t;",
        )
        .await;
    assert!(reason.as_str().unwrap().contains("E"), "{reason}");
    let near = s
        .eval(
            "const c = document.querySelector(\"#board polygon.cell[data-cell='I9']\").getBoundingClientRect(), b = document.getElementById('board').getBoundingClientRect(), e = document.getElementById('game-error').getBoundingClientRect(); return e.top >= b.top && e.bottom <= b.bottom && Math.min(Math.abs(e.bottom - c.top), Math.abs(e.top - c.bottom)) < 12 && e.left <= c.right && e.right >= c.left;",
            json!([]),
        )
        .await;
    assert_eq!(
        near,
        json!(true),
        "the reason is shown over the board, just above or below the cell"
    );
    assert_eq!(move_count(&s).await, 0);
    // Onto E4: placed at once (a drop needs no confirmation).
    drag(&s, "mouse", "#reserve-me button[data-type='E']", "E4").await;
    s.wait(
        "the drop and the answer",
        &format!("return {MOVE_COUNT} >= 2;"),
    )
    .await;
    let first = s.text("#move-list li:first-child").await;
    assert!(first.starts_with("EE4:"), "{first}");
    s.screenshot("drag-1-dropped-from-the-reserve").await;
    // The piece on E4 dragged to one of its destinations.
    s.wait("our turn", OUR_TURN).await;
    let dest = destination_of(&s, base, "E4").await;
    drag(&s, "mouse", "polygon.cell[data-cell='E4']", &dest).await;
    s.wait(
        "the board move and the answer",
        &format!("return {MOVE_COUNT} >= 4;"),
    )
    .await;
    let third = s.text("#move-list li:nth-child(3)").await;
    assert!(third.starts_with(&format!("E4-{dest}:")), "{third} {dest}");
    s.quit().await;
}

/// A game on a 360 × 640 touch screen: nothing overlaps or runs off the side, the move list
/// is wide enough to read, and a piece is dragged from the reserve to the board by touch.
async fn a_phone_at_360_by_touch(driver: &Driver, base: &str) {
    let s = driver.session_phone_sized("phone-360", 360, 640).await;
    s.goto(base).await;
    s.eval(
        "document.getElementById('level-select').value = '1'; document.querySelector('select[name=clock]').value = '5+3';",
        json!([]),
    )
    .await;
    s.tap("#start-game").await;
    s.wait("our turn", OUR_TURN).await;
    s.screenshot("phone-1-start").await;
    // By touch: a T dragged from the reserve onto E4.
    drag(&s, "touch", "#reserve-me button[data-type='T']", "E4").await;
    s.wait(
        "the touch drop and the answer",
        &format!("return {MOVE_COUNT} >= 2;"),
    )
    .await;
    assert!(
        s.text("#move-list li:first-child")
            .await
            .starts_with("TE4:")
    );
    s.wait("our turn", OUR_TURN).await;
    s.screenshot("phone-2-after-a-touch-drop").await;
    // By touch on the board: the T on E4 dragged to one of its destinations.
    let dest = destination_of(&s, base, "E4").await;
    drag(&s, "touch", "polygon.cell[data-cell='E4']", &dest).await;
    s.wait(
        "the touch move and the answer",
        &format!("return {MOVE_COUNT} >= 4;"),
    )
    .await;
    let third = s.text("#move-list li:nth-child(3)").await;
    assert!(third.starts_with(&format!("E4-{dest}:")), "{third} {dest}");
    s.wait("our turn", OUR_TURN).await;
    let report = s
        .eval(
            r#"
const bad = [];
if (document.documentElement.scrollWidth > window.innerWidth) bad.push(`page ${document.documentElement.scrollWidth} px wide`);
const parts = ['.players', '#board', '#reserve-me', '#reserve-them', '.rotate-bar', '#move-list', '#actions', '.review-bar'];
const boxes = parts.map((css) => [css, document.querySelector(css).getBoundingClientRect()]);
for (const [css, r] of boxes) if (r.left < -0.5 || r.right > window.innerWidth + 0.5) bad.push(`${css} off the side`);
for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
  const [a, ra] = boxes[i], [b, rb] = boxes[j];
  const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left), h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
  if (w > 1 && h > 1 && ra.width && rb.width) bad.push(`${a} overlaps ${b}`);
}
const list = document.getElementById('move-list').getBoundingClientRect();
if (list.width < 200) bad.push(`move list ${list.width} px wide`);
const board = document.getElementById('board').getBoundingClientRect();
if (board.width < 330) bad.push(`board ${board.width} px wide`);
return bad.join('; ');
"#,
            json!([]),
        )
        .await;
    assert_eq!(report, json!(""), "the phone layout");
    s.quit().await;
}

/// A legal move in `position`, one of the pieces on the board moving when any can (picked by
/// `seed`), else a placement.
async fn board_move_first(base: &str, position: &str, seed: usize) -> String {
    let position = position.replace(' ', "%20");
    let (_, legal) = common::get(&format!("{base}/api/legal?position={position}"), None).await;
    let moves: Vec<&str> = legal["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let shifts: Vec<&str> = moves.iter().copied().filter(|m| m.contains('-')).collect();
    let pool = if shifts.is_empty() { &moves } else { &shifts };
    pool[seed.wrapping_mul(7919) % pool.len()].to_owned()
}

/// A cell other than `from` where the piece whose PÜNCT is on `from` may move now, in the
/// page's game.
async fn destination_of(s: &Session, base: &str, from: &str) -> String {
    let id = s
        .eval("return location.pathname.split('/')[2];", json!([]))
        .await;
    let (_, game) = common::get(&format!("{base}/api/games/{}", id.as_str().unwrap()), None).await;
    let position = game["position"].as_str().unwrap().replace(' ', "%20");
    let (_, legal) = common::get(&format!("{base}/api/legal?position={position}"), None).await;
    legal["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m.as_str()?.strip_prefix(&format!("{from}-")))
        .map(|rest| rest.split(':').next().unwrap().to_owned())
        .find(|to| to != from)
        .unwrap_or_else(|| panic!("a destination for the piece on {from}"))
}
