//! What a newcomer meets, in headless Chromium: the course on a 390 × 844 phone with its
//! board, task and answers within one screen; a refused move's reason beside the piece and
//! gone with Esc, the next drag and the next move; watchers without the controls they cannot
//! use; a game's end drawn plainly and its review (the move list following the move shown);
//! the settings menu's board themes and piece styles, kept in the browser; a Boardspace
//! record reviewed under its players' names; the rules in the page (WebAssembly), where
//! scripts/wasm.sh has built them, listing the server's legal moves; and every text on the
//! main pages coming from the language's catalogue.
//!
//! Screenshots go to target/screenshots. Skipped (with a message) without Chromium.

mod common;
mod webdriver;

use std::time::Duration;

use serde_json::{Value, json};
use webdriver::{Driver, Session, keys, scenario};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_site_for_a_newcomer() {
    if !webdriver::available() {
        return;
    }
    webdriver::watchdog("the site's browser tests", Duration::from_secs(600));
    let base = common::start_in_process(&common::temp_db("browser-site")).await;
    let driver = Driver::start().await;
    scenario(
        "the lesson on a phone",
        120,
        the_lesson_on_a_phone(&driver, &base),
    )
    .await;
    scenario(
        "a refusal beside the piece, then gone",
        120,
        a_refusal_beside_the_piece(&driver, &base),
    )
    .await;
    scenario(
        "watchers and players",
        90,
        watchers_see_what_they_can_use(&driver, &base),
    )
    .await;
    scenario(
        "a game's end and its review",
        90,
        a_games_end_and_its_review(&driver, &base),
    )
    .await;
    scenario("themes and pieces", 90, the_look(&driver, &base)).await;
    scenario(
        "the rules in the page (WebAssembly)",
        90,
        the_rules_in_the_page(&driver, &base),
    )
    .await;
    scenario(
        "a Boardspace record's players",
        60,
        a_boardspace_records_players(&driver, &base),
    )
    .await;
    scenario(
        "every text from the catalogue",
        150,
        every_text_from_the_catalogue(&driver, &base),
    )
    .await;
}

/// Where the element matching `css` is on the screen: `[top, bottom, left, right]`.
async fn rect(s: &Session, css: &str) -> [f64; 4] {
    let v = s
        .eval(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right];",
            json!([css]),
        )
        .await;
    let n = |i: usize| v[i].as_f64().unwrap();
    [n(0), n(1), n(2), n(3)]
}

async fn inner_height(s: &Session) -> f64 {
    s.eval("return window.innerHeight;", json!([]))
        .await
        .as_f64()
        .unwrap()
}

/// Whether the element matching `css` lies wholly within the window as scrolled now.
async fn on_screen(s: &Session, css: &str) -> bool {
    let [top, bottom, ..] = rect(s, css).await;
    top >= 0.0 && bottom <= inner_height(s).await + 0.5
}

/// The note over the board `board` once it says something beside a cell: its text and cell.
async fn note_beside(s: &Session, note: &str) -> (String, String) {
    let v = s
        .wait(
            "a note beside a cell",
            &format!(
                "const n = document.getElementById('{note}'); return n.textContent && n.classList.contains('anchored') && [n.textContent, n.dataset.cell];"
            ),
        )
        .await;
    (
        v[0].as_str().unwrap().to_owned(),
        v[1].as_str().unwrap().to_owned(),
    )
}

/// How far (pixels) the note `note` is from the cell `cell` of board `board`, and whether it
/// lies within the board.
async fn note_place(s: &Session, board: &str, note: &str, cell: &str) -> (f64, bool) {
    let v = s
        .eval(
            "const [board, note, cell] = arguments; const b = document.getElementById(board).getBoundingClientRect(), n = document.getElementById(note).getBoundingClientRect(), c = document.querySelector(`#${board} polygon.cell[data-cell='${cell}']`).getBoundingClientRect();
             const dx = Math.max(0, n.left - c.right, c.left - n.right), dy = Math.max(0, n.top - c.bottom, c.top - n.bottom);
             return [Math.hypot(dx, dy), n.top >= b.top - 0.5 && n.bottom <= b.bottom + 0.5 && n.left >= b.left - 0.5 && n.right <= b.right + 0.5];",
            json!([board, note, cell]),
        )
        .await;
    (v[0].as_f64().unwrap(), v[1].as_bool().unwrap())
}

/// On a 390 × 844 phone the course shows the task, the board under it and the course's
/// answer right under the board, all within the first screen; a refused attempt is said
/// beside the cell, on the board.
async fn the_lesson_on_a_phone(driver: &Driver, base: &str) {
    let s = driver.session_phone("site-lesson-phone").await;
    s.goto(&format!("{base}/learn")).await;
    s.wait(
        "the first task and its reserve",
        "return document.getElementById('learn-task').textContent && document.querySelector(\"#learn-reserve button[data-type='T'][aria-disabled='false']\");",
    )
    .await;
    let height = inner_height(&s).await;
    let task = rect(&s, "#learn-task").await;
    let board = rect(&s, "#learn-board").await;
    assert!(
        task[0] >= 0.0 && task[1] <= board[0] + 0.5,
        "the task above the board: {task:?} {board:?}"
    );
    assert!(
        board[1] <= height + 0.5,
        "the board within the first screen ({height} px): {board:?}"
    );
    for part in [
        "#learn-feedback",
        "#learn-reserve",
        "#learn-lesson .rotate-bar",
    ] {
        assert!(on_screen(&s, part).await, "{part} within the first screen");
    }
    s.screenshot("site-lesson-phone").await;

    // The first task by taps; "Well done!" is on the screen without scrolling to it.
    s.tap("#learn-reserve button[data-type='T']").await;
    s.wait(
        "the marked cells",
        "return document.querySelector(\"#learn-board circle.target[data-cell='E4']\");",
    )
    .await;
    s.tap("#learn-board polygon.cell[data-cell='E4']").await;
    s.wait(
        "the piece waiting on E4",
        "return document.querySelector('#learn-board g.ghost');",
    )
    .await;
    s.tap("#learn-board polygon.cell[data-cell='E4']").await;
    s.wait(
        "well done",
        "return document.getElementById('learn-feedback').textContent.startsWith('Well done');",
    )
    .await;
    assert!(
        on_screen(&s, "#learn-feedback").await && on_screen(&s, "#learn-board").await,
        "the answer and the board on the screen"
    );
    s.screenshot("site-lesson-phone-done").await;

    // The lesson that has the learner try the forbidden jump: its refusal is said beside K7.
    s.tap("#lesson-list button[data-lesson='resting']").await;
    s.wait(
        "the forbidden jump's task",
        "return document.getElementById('learn-task').textContent.includes('K7') && document.getElementById('learn-board').classList.contains('interactive');",
    )
    .await;
    s.tap("#learn-board polygon.cell[data-cell='K13']").await;
    s.wait(
        "the triangle in hand",
        "return document.querySelectorAll('#learn-board line.line').length === 3;",
    )
    .await;
    s.tap("#learn-board polygon.cell[data-cell='K7']").await;
    let (reason, cell) = note_beside(&s, "learn-note").await;
    assert_eq!(cell, "K7");
    assert!(reason.contains("own colour"), "{reason}");
    let (gap, within) = note_place(&s, "learn-board", "learn-note", "K7").await;
    assert!(
        gap < 12.0 && within,
        "the reason beside K7: {gap} px, within {within}"
    );
    s.wait(
        "the task met by the refusal",
        "return document.getElementById('learn-feedback').textContent.startsWith('Right: refused');",
    )
    .await;
    assert!(on_screen(&s, "#learn-note").await && on_screen(&s, "#learn-feedback").await);
    s.screenshot("site-lesson-phone-refusal").await;
    s.quit().await;
}

/// Starts a game against the computer at level 1 and waits for the player's turn.
async fn start_against_level_1(s: &Session, base: &str) {
    s.goto(base).await;
    s.eval(
        "document.getElementById('level-select').value = '1';",
        json!([]),
    )
    .await;
    s.click("#start-game").await;
    s.wait(
        "our turn",
        "return document.getElementById('status').textContent.includes('your turn') && [...document.querySelectorAll('#reserve-me button')].some(b => b.getAttribute('aria-disabled') === 'false');",
    )
    .await;
}

const NOTE: &str = "document.getElementById('game-error').textContent";

/// A refused placement is said beside its cell, over the board; Esc, the next piece taken
/// and the next choice of a cell each clear it; a typed move's refusal is said beside the
/// cell it names.
async fn a_refusal_beside_the_piece(driver: &Driver, base: &str) {
    let s = driver.session("site-refusal").await;
    start_against_level_1(&s, base).await;
    let refuse_on_i9 = || async {
        s.click("#reserve-me button[data-type='T']").await;
        s.click("#board polygon.cell[data-cell='I9']").await;
        let (reason, cell) = note_beside(&s, "game-error").await;
        assert!(reason.contains("central hexagon"), "{reason}");
        assert_eq!(cell, "I9");
        let (gap, within) = note_place(&s, "board", "game-error", "I9").await;
        assert!(gap < 12.0 && within, "beside I9: {gap} px, within {within}");
    };
    refuse_on_i9().await;
    s.screenshot("site-refusal-beside-the-piece").await;
    s.keys(keys::ESCAPE).await;
    s.wait("Esc clears it", &format!("return {NOTE} === '';"))
        .await;

    refuse_on_i9().await;
    // The next piece taken from the reserve (a press there starts a drag).
    s.click("#reserve-me button[data-type='E']").await;
    s.wait(
        "the next piece clears it",
        &format!("return {NOTE} === '';"),
    )
    .await;

    refuse_on_i9().await;
    // The next move: a marked cell chosen, then confirmed.
    s.click("#board polygon.cell[data-cell='E4']").await;
    s.wait(
        "choosing a cell clears it",
        &format!("return {NOTE} === '';"),
    )
    .await;
    s.click("#board polygon.cell[data-cell='E4']").await;
    s.wait(
        "the computer's answer",
        "return document.querySelectorAll('#move-list li').length >= 2 && document.getElementById('status').textContent.includes('your turn');",
    )
    .await;

    // A typed move's refusal (the server's, over the socket) beside the cell it names.
    s.type_into("#move-text", "TI9:0\n").await;
    let (reason, cell) = note_beside(&s, "game-error").await;
    assert!(reason.contains("TI9"), "{reason}");
    assert_eq!(cell, "I9");
    s.quit().await;
}

/// The hidden-or-shown state of the controls a watcher cannot use, and of "play on".
async fn controls(s: &Session) -> Value {
    s.eval(
        "return Object.fromEntries(['rot-left', 'rot-right', 'put-down', 'cancel-sel', 'confirm-moves-label', 'play-from-row', 'flip'].map(id => [id, !document.getElementById(id).hidden && document.getElementById(id).getClientRects().length > 0]));",
        json!([]),
    )
    .await
}

/// A watcher of a live game sees no piece-in-hand controls and no "play on"; its players
/// do; once the game is over nobody has the piece controls, "play on" is there, and its
/// review says it returns to the last position, not to a live game.
async fn watchers_see_what_they_can_use(driver: &Driver, base: &str) {
    let (id, token) = common::create(base, json!({ "mode": "local", "name": "Ada" })).await;
    let (status, _) = common::play_move(base, &id, &token, "TE4:0").await;
    assert_eq!(status, 200);
    let player = driver.session("site-player").await;
    player.goto(base).await;
    player
        .eval(
            "localStorage.setItem(`punct.token.${arguments[0]}`, arguments[1]);",
            json!([id, token]),
        )
        .await;
    player.goto(&format!("{base}/g/{id}")).await;
    player
        .wait(
            "the player's game",
            "return document.getElementById('status').textContent.includes('your turn');",
        )
        .await;
    let seen = controls(&player).await;
    assert_eq!(
        seen,
        json!({ "rot-left": true, "rot-right": true, "put-down": true, "cancel-sel": true, "confirm-moves-label": true, "play-from-row": false, "flip": true }),
        "a player's controls"
    );

    let watcher = driver.session("site-watcher").await;
    watcher.goto(&format!("{base}/g/{id}")).await;
    watcher
        .wait(
            "the watched game",
            "return !document.getElementById('watching').hidden && document.querySelectorAll('#move-list li').length === 1;",
        )
        .await;
    let seen = controls(&watcher).await;
    assert_eq!(
        seen,
        json!({ "rot-left": false, "rot-right": false, "put-down": false, "cancel-sel": false, "confirm-moves-label": false, "play-from-row": false, "flip": true }),
        "a watcher's controls"
    );
    watcher.screenshot("site-watcher").await;

    let (status, _) = common::post(
        &format!("{base}/api/games/{id}/resign"),
        Some(&token),
        json!({}),
    )
    .await;
    assert_eq!(status, 200);
    for s in [&player, &watcher] {
        s.wait(
            "the game's end",
            "return document.getElementById('status').textContent.includes('resignation');",
        )
        .await;
        let seen = controls(s).await;
        assert_eq!(
            seen,
            json!({ "rot-left": false, "rot-right": false, "put-down": false, "cancel-sel": false, "confirm-moves-label": false, "play-from-row": true, "flip": true }),
            "{}: the controls of a finished game",
            s.name()
        );
        s.click("#first").await;
        let review = s
            .wait(
                "the review of the finished game",
                "const t = document.getElementById('status').textContent; return t.startsWith('Reviewing') && t;",
            )
            .await;
        let review = review.as_str().unwrap();
        assert!(
            review.contains("last position") && !review.contains("live game"),
            "{review}"
        );
    }
    player.quit().await;
    watcher.quit().await;
}

/// The home page's demo game: a real game to a win by connection.
fn demo_moves() -> Vec<String> {
    let demo: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/static/js/home/demo.json"
        ))
        .unwrap(),
    )
    .unwrap();
    demo["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect()
}

/// A game on one screen with the first `n` moves of the demo game played; its id and token.
async fn demo_game(base: &str, n: usize) -> (String, String) {
    let (id, token) = common::create(base, json!({ "mode": "local", "name": "Ada" })).await;
    for mv in demo_moves().iter().take(n) {
        let (status, v) = common::play_move(base, &id, &token, mv).await;
        assert_eq!(status, 200, "{mv}: {v}");
    }
    (id, token)
}

/// Whether the move list's current move lies within the list as it is scrolled.
const CURRENT_IN_VIEW: &str = "const l = document.getElementById('move-list').getBoundingClientRect(), c = document.querySelector('#move-list button.current'); if (!c) return false; const r = c.getBoundingClientRect(); return r.top >= l.top - 0.5 && r.bottom <= l.bottom + 0.5;";

/// A finished game shows its result over the board and its winning chain as a bold line;
/// its review keeps the move shown in view in the move list.
async fn a_games_end_and_its_review(driver: &Driver, base: &str) {
    let moves = demo_moves();
    let (id, _) = demo_game(base, moves.len()).await;
    let (_, state) = common::get(&format!("{base}/api/games/{id}"), None).await;
    let chain = state["outcome"]["winning_chain"].as_array().unwrap().len();
    assert!(chain >= 7, "{state}");
    let s = driver.session("site-game-end").await;
    s.goto(&format!("{base}/g/{id}")).await;
    let banner = s
        .wait(
            "the result over the board",
            "const b = document.getElementById('game-result'); return !b.hidden && b.textContent;",
        )
        .await;
    assert_eq!(banner, json!("Black wins by connection"));
    let drawn = s
        .eval(
            "return [document.querySelectorAll('#board polygon.chain.won').length, document.querySelectorAll('#board line.chain-link:not(.edge)').length];",
            json!([]),
        )
        .await;
    // Every cell of the chain filled, and joined to the chain by one link each but the first.
    assert_eq!(drawn, json!([chain, chain - 1]));
    let [b_top, _, b_left, b_right] = rect(&s, "#board").await;
    let [top, _, left, right] = rect(&s, "#game-result").await;
    assert!(top >= b_top && left >= b_left && right <= b_right);
    s.screenshot("site-game-end").await;

    // The review: the move shown stays in view in the (scrolled) move list.
    assert_eq!(s.eval(CURRENT_IN_VIEW, json!([])).await, json!(true));
    s.click("#first").await;
    s.click("#next").await;
    s.wait(
        "move 1 shown",
        "return document.getElementById('status').textContent.includes('after 1 of');",
    )
    .await;
    assert_eq!(
        s.eval(CURRENT_IN_VIEW, json!([])).await,
        json!(true),
        "the first move in view"
    );
    for _ in 0..20 {
        s.click("#next").await;
    }
    s.wait(
        "move 21 shown",
        "return document.getElementById('status').textContent.includes('after 21 of');",
    )
    .await;
    assert_eq!(
        s.eval(CURRENT_IN_VIEW, json!([])).await,
        json!(true),
        "move 21 in view"
    );
    let review = s.text("#status").await;
    assert!(!review.contains("live game"), "{review}");
    s.screenshot("site-game-review").await;
    s.quit().await;
}

/// Chooses `value` in the settings menu's group `part` ("board" or "pieces"), as a person does.
async fn choose_look(s: &Session, part: &str, value: &str) {
    s.click("#settings > summary").await;
    s.click(&format!(
        "#settings input[name='look-{part}'][value='{value}']"
    ))
    .await;
    s.keys(keys::ESCAPE).await;
}

/// The colours and sizes that show the look: a cell's fill, the board's frame, a dot's radius.
const LOOK: &str = "const cell = getComputedStyle(document.querySelector('#board polygon.cell')).fill, frame = getComputedStyle(document.getElementById('board')).backgroundColor, dot = getComputedStyle(document.querySelector('#board g.piece circle.dot')).r; return [document.documentElement.dataset.board, document.documentElement.dataset.pieces, cell, frame, dot];";

/// The settings menu's board themes and piece styles change every board at once, without a
/// reload, and are kept for the next visit; a screenshot of each.
async fn the_look(driver: &Driver, base: &str) {
    let (id, _) = demo_game(base, 14).await;
    let s = driver.session("site-look").await;
    s.goto(&format!("{base}/g/{id}")).await;
    s.wait(
        "the game",
        "return document.querySelectorAll('#move-list li').length === 14;",
    )
    .await;
    let mut seen = Vec::new();
    for board in ["sand", "slate", "meadow"] {
        choose_look(&s, "board", board).await;
        let look = s.eval(LOOK, json!([])).await;
        assert_eq!(look[0], json!(board));
        seen.push((look[2].clone(), look[3].clone()));
        s.screenshot(&format!("site-theme-{board}")).await;
    }
    seen.dedup();
    assert_eq!(seen.len(), 3, "each theme its own colours: {seen:?}");
    let tiles = s.eval(LOOK, json!([])).await;
    choose_look(&s, "pieces", "stones").await;
    let stones = s.eval(LOOK, json!([])).await;
    assert_eq!(stones[1], json!("stones"));
    assert_ne!(stones[4], tiles[4], "the stones are larger dots");
    s.screenshot("site-pieces-stones").await;
    // Kept for the next visit, applied before the board is drawn.
    s.eval("location.reload();", json!([])).await;
    s.wait(
        "the game again",
        "return document.querySelectorAll('#move-list li').length === 14;",
    )
    .await;
    assert_eq!(s.eval(LOOK, json!([])).await, stones);
    assert_eq!(
        s.eval(
            "return document.querySelector(\"#settings input[name='look-board'][value='meadow']\").checked;",
            json!([])
        )
        .await,
        json!(true)
    );
    // In the dark theme too.
    s.click("#theme").await;
    s.click("#theme").await;
    s.wait(
        "the dark theme",
        "return document.documentElement.dataset.theme === 'dark';",
    )
    .await;
    choose_look(&s, "board", "slate").await;
    s.screenshot("site-theme-slate-dark").await;
    choose_look(&s, "pieces", "tiles").await;
    choose_look(&s, "board", "sand").await;
    s.screenshot("site-theme-sand-dark").await;
    s.quit().await;
}

/// Wraps every text of the page's catalogue in ⟦ ⟧ as it arrives, so that a text on the
/// page that did not come from the catalogue shows as one outside them.
const MARK_CATALOGUE: &str = r#"
(() => {
  const real = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const response = await real(input, init);
    const url = new URL(typeof input === "string" ? input : input.url, location.href);
    if (!/^\/i18n\/\w+\.json$/.test(url.pathname)) return response;
    const texts = await response.json();
    for (const k of Object.keys(texts)) texts[k] = `⟦${texts[k]}⟧`;
    return new Response(JSON.stringify(texts), { status: response.status, headers: { "content-type": "application/json" } });
  };
})();
"#;

/// The words on the page, shown or said to screen readers, that are outside every text of
/// the catalogue: anything but the players' names (arguments[0]), cell and move names, the
/// game's name, notation in <code> and the languages' own names in the language switch.
const WORDS_NOT_FROM_THE_CATALOGUE: &str = r##"
const names = arguments[0];
const out = [];
const shown = (e) => {
  for (let x = e; x && x !== document.documentElement; x = x.parentElement) {
    if (x.hidden) return false;
    const cs = getComputedStyle(x);
    if (cs.display === "none" || cs.visibility === "hidden") return false;
  }
  return e.getClientRects().length > 0;
};
const outside = (s) => { let before; do { before = s; s = s.replace(/⟦[^⟦⟧]*⟧/g, " "); } while (s !== before); return s; };
const OURS = /^(PÜNCT|[TCELMR]?[A-Q]\d{1,2}(-[A-Q]\d{1,2})?(:\d)?)$/;
const check = (text, where) => {
  for (const w of outside(text).match(/\p{L}[\p{L}\d]+/gu) || []) {
    if (!OURS.test(w) && !names.includes(w)) out.push(`${where}: "${w}" in "${text.trim().slice(0, 90)}"`);
  }
};
const skip = (e) => ["SCRIPT", "STYLE"].includes(e.tagName) || e.closest("#language, code") || !shown(e);
const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n = walk.nextNode(); n; n = walk.nextNode()) {
  const e = n.parentElement;
  if (e && n.textContent.trim() && !skip(e)) check(n.textContent, e.id || e.className || e.tagName);
}
for (const e of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
  if (skip(e)) continue;
  for (const a of ["aria-label", "title", "placeholder", "alt"]) if (e.hasAttribute(a)) check(e.getAttribute(a), `${e.id || e.tagName}[${a}]`);
}
document.title && check(document.title, "title");
return [...new Set(out)];
"##;

/// Every word on the main pages, in every state a newcomer meets (playing the computer,
/// a friend's game waiting, watching, a finished game, its review, the course, the lists,
/// the rules, the import page, the help and share boxes opened), comes from the catalogue.
async fn every_text_from_the_catalogue(driver: &Driver, base: &str) {
    let s = driver.session("site-catalogue").await;
    s.before_each_page(MARK_CATALOGUE).await;
    let mut found = Vec::new();
    let mut look = async |what: &str, ready: &str| {
        s.wait(what, ready).await;
        // The boxes closed until asked for, opened.
        s.eval(
            "for (const d of document.querySelectorAll('details')) d.open = true;",
            json!([]),
        )
        .await;
        let words = s
            .eval(WORDS_NOT_FROM_THE_CATALOGUE, json!([["Ada", "Bo"]]))
            .await;
        for w in words.as_array().unwrap() {
            found.push(format!("{what}: {}", w.as_str().unwrap()));
        }
    };
    let marked = "document.documentElement.lang === 'en' && document.getElementById('home-title').textContent.startsWith('⟦')";

    // A game against the computer, unnamed, as one click starts it.
    s.goto(base).await;
    look(
        "home",
        &format!("return {marked} && document.querySelector('#home-board g.piece');"),
    )
    .await;
    s.click("#play-computer").await;
    look(
        "a game against the computer",
        &format!("return {marked} && location.pathname.startsWith('/g/') && document.querySelector('#p-black .name').textContent.includes('3') && document.getElementById('status').textContent.includes('⟦');"),
    )
    .await;
    let computer = s
        .eval("return location.pathname;", json!([]))
        .await
        .as_str()
        .unwrap()
        .to_owned();

    // A friend's game waiting for the friend, and one of its watchers.
    let (friend, _) = common::create(base, json!({ "mode": "friend" })).await;
    s.goto(&format!("{base}/g/{friend}")).await;
    look(
        "a friend's game, watched while its seat is open",
        &format!("return {marked} && !document.getElementById('watching').hidden;"),
    )
    .await;

    // A finished game, at its end and reviewed.
    let (done, token) = demo_game(base, demo_moves().len()).await;
    s.goto(base).await;
    s.eval(
        "localStorage.setItem(`punct.token.${arguments[0]}`, arguments[1]);",
        json!([done, token]),
    )
    .await;
    s.goto(&format!("{base}/g/{done}")).await;
    look(
        "a finished game",
        &format!("return {marked} && !document.getElementById('game-result').hidden;"),
    )
    .await;
    s.click("#prev").await;
    look(
        "its review",
        &format!(
            "return {marked} && document.getElementById('status').textContent.includes('33');"
        ),
    )
    .await;

    for (page, ready) in [
        (
            "/learn",
            "document.getElementById('learn-task').textContent",
        ),
        (
            "/games",
            "document.querySelectorAll('#game-list li, #live-list li').length > 2",
        ),
        (
            "/rules",
            "document.querySelectorAll('#rules-text svg.diagram').length === 8",
        ),
        (
            "/import",
            "document.getElementById('import-title').textContent",
        ),
        (
            &computer,
            "document.getElementById('status').textContent.includes('⟦')",
        ),
    ] {
        s.goto(&format!("{base}{page}")).await;
        look(page, &format!("return {marked} && {ready};")).await;
    }
    s.screenshot("site-catalogue-marked").await;
    assert!(
        found.is_empty(),
        "words not from the catalogue:\n{}",
        found.join("\n")
    );
    s.quit().await;
}

/// A Boardspace game pasted into the import page and reviewed shows its players' names,
/// as its record has them, where a game's page shows its players.
async fn a_boardspace_records_players(driver: &Driver, base: &str) {
    let sgf = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../punct-core/tests/data/boardspace-sgf/PT-boardspace-smartbot-punct+level+6-2026-11-25-0628.sgf"
    ))
    .unwrap();
    let s = driver.session("site-boardspace").await;
    s.goto(&format!("{base}/import")).await;
    s.wait(
        "the import page",
        "return document.getElementById('import-title').textContent;",
    )
    .await;
    s.eval(
        "const t = document.getElementById('import-text'); t.value = arguments[0]; t.dispatchEvent(new Event('input'));",
        json!([sgf]),
    )
    .await;
    s.click("#import-review").await;
    let names = s
        .wait(
            "the record under review",
            "const w = document.querySelector('#p-white .name').textContent, b = document.querySelector('#p-black .name').textContent; return location.pathname === '/analysis' && document.querySelectorAll('#move-list li').length > 10 && [w, b];",
        )
        .await;
    assert_eq!(names, json!(["boardspace-smartbot", "Computer, level 6"]));
    s.screenshot("site-boardspace-review").await;
    s.quit().await;
}

/// Whether the page can compile the rules' module: "compiled", or the browser's reason.
const COMPILE: &str = r#"
const done = arguments[arguments.length - 1];
fetch("/wasm/punct_wasm.wasm").then((r) => r.arrayBuffer()).then((b) => WebAssembly.compile(b))
  .then(() => done("compiled"), (e) => done(String(e)));
"#;

/// The legal moves the page's WebAssembly rules list for a position, and the server's.
const BOTH_LISTS: &str = r#"
const [position] = arguments;
const done = arguments[arguments.length - 1];
import("/js/rules-wasm.js").then(async (m) => {
  const page = await m.legalMoves(position);
  const server = (await (await fetch(`/api/legal?position=${encodeURIComponent(position)}`)).json()).moves;
  done([page, server]);
});
"#;

/// Where the server has the WebAssembly rules: they list exactly the server's legal moves
/// for positions of every kind, and a game's page takes its legal moves from them (it asks
/// the server for none).
async fn the_rules_in_the_page(driver: &Driver, base: &str) {
    if !webdriver::wasm_served(base, "the rules in the page").await {
        return;
    }
    let s = driver.session("site-wasm").await;
    s.goto(base).await;
    // The server's Content-Security-Policy lets the page compile WebAssembly
    // (`script-src 'self' 'wasm-unsafe-eval'`).
    let compiled = s.eval_async(COMPILE, json!([])).await;
    assert_eq!(compiled, json!("compiled"), "the module in the page");
    let course: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/static/js/learn/lessons.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let mut positions = vec!["standard w 0 -".to_owned(), "basic w 0 -".to_owned()];
    for lesson in course["lessons"].as_array().unwrap() {
        for task in lesson["tasks"].as_array().unwrap() {
            positions.push(task["position"].as_str().unwrap().to_owned());
        }
    }
    for position in &positions {
        let lists = s.eval_async(BOTH_LISTS, json!([position])).await;
        assert!(
            lists[1].as_array().is_some_and(|m| !m.is_empty()),
            "{position}: {lists}"
        );
        assert!(!lists[0].is_null(), "the page has no rules module");
        assert!(
            lists[0] == lists[1],
            "{position}: the page's list is not the server's"
        );
    }
    eprintln!(
        "the page's rules list the server's moves in {} positions",
        positions.len()
    );

    start_against_level_1(&s, base).await;
    s.click("#reserve-me button[data-type='T']").await;
    s.click("#board polygon.cell[data-cell='E4']").await;
    s.click("#board polygon.cell[data-cell='E4']").await;
    s.wait(
        "the computer's answer",
        "return document.querySelectorAll('#move-list li').length >= 2 && document.getElementById('status').textContent.includes('your turn') && document.querySelector(\"#reserve-me button[aria-disabled='false']\");",
    )
    .await;
    let asked = s
        .eval(
            "return performance.getEntriesByType('resource').map(e => new URL(e.name)).filter(u => u.pathname === '/api/legal' && !u.searchParams.has('move')).length;",
            json!([]),
        )
        .await;
    assert_eq!(
        asked,
        json!(0),
        "the game's legal moves asked of the server"
    );
    s.quit().await;
}
