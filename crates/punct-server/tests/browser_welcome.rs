//! The way in, in headless Chromium: a whole lesson of the course done by clicking, with a
//! refusal (said beside the cell it is about) and a miss explained on the way; the course's
//! progress surviving a reload; every
//! task of the course solved by clicking its solution, to the course's end; and a
//! newcomer's path without typing: home → Learn to play → the end of the course → a first
//! game against level 1, played to its end by clicking → its review → its share image.
//! Then "Play the computer" in one click, the game it starts drawn small among the games
//! being played now and watched from there, and the course on a 360 × 640 phone.
//!
//! Screenshots go to target/screenshots. Skipped (with a message) without Chromium.

mod common;
mod webdriver;

use std::time::Duration;

use serde_json::{Value, json};
use webdriver::{Driver, Session, scenario};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_way_in() {
    if !webdriver::available() {
        return;
    }
    webdriver::watchdog("the welcome browser tests", Duration::from_secs(600));
    let base = common::start_in_process(&common::temp_db("browser-welcome")).await;
    let driver = Driver::start().await;
    scenario(
        "a lesson by clicking, and progress after a reload",
        120,
        a_lesson_by_clicking_then_reload(&driver, &base),
    )
    .await;
    scenario(
        "the whole course by clicking",
        150,
        the_whole_course_by_clicking(&driver, &base),
    )
    .await;
    scenario(
        "a newcomer's path without typing",
        240,
        newcomers_path(&driver, &base),
    )
    .await;
    scenario(
        "one click to play, the games being played, a phone",
        90,
        one_click_and_the_games_being_played(&driver, &base),
    )
    .await;
}

/// The move of the piece in hand where it would go, on the board `board` (an svg's id).
async fn ghost(s: &Session, board: &str) -> String {
    s.eval(
        "const g = document.querySelector(`#${arguments[0]} g.ghost`); return g ? g.dataset.move : '';",
        json!([board]),
    )
    .await
    .as_str()
    .unwrap_or("")
    .to_owned()
}

/// The ids of one board's controls: the board, its reserve, its turn and put-down buttons.
struct Controls {
    board: &'static str,
    reserve: &'static str,
    turn: &'static str,
    put_down: &'static str,
}

const LESSON: Controls = Controls {
    board: "learn-board",
    reserve: "learn-reserve",
    turn: "learn-rot-right",
    put_down: "learn-put-down",
};

const GAME: Controls = Controls {
    board: "board",
    reserve: "reserve-me",
    turn: "rot-right",
    put_down: "put-down",
};

/// Makes move `mv` (`TE4:0` or `E4-E7:3`) by clicking: the piece (in the reserve or on the
/// board), its destination, the Turn button until its shadow is the move, and Put down.
async fn play_by_clicking(s: &Session, c: &Controls, mv: &str) {
    let (piece, to) = match mv.split_once('-') {
        Some((from, rest)) => (
            format!("#{} polygon.cell[data-cell='{from}']", c.board),
            rest.split(':').next().unwrap().to_owned(),
        ),
        None => (
            format!("#{} button[data-type='{}']", c.reserve, &mv[..1]),
            mv[1..].split(':').next().unwrap().to_owned(),
        ),
    };
    s.click(&piece).await;
    s.wait(
        "the marked destinations",
        &format!(
            "return document.querySelector(\"#{} circle.target[data-cell='{to}']\");",
            c.board
        ),
    )
    .await;
    s.click(&format!("#{} polygon.cell[data-cell='{to}']", c.board))
        .await;
    for _ in 0..6 {
        if ghost(s, c.board).await == mv {
            break;
        }
        s.click(&format!("#{}", c.turn)).await;
    }
    assert_eq!(ghost(s, c.board).await, mv, "{}: turning to {mv}", s.name());
    s.click(&format!("#{}", c.put_down)).await;
}

/// The course's feedback line once it says something.
async fn feedback(s: &Session) -> String {
    s.wait(
        "the course's answer",
        "return document.getElementById('learn-feedback').textContent;",
    )
    .await
    .as_str()
    .unwrap()
    .to_owned()
}

async fn clear_feedback(s: &Session) {
    s.eval(
        "document.getElementById('learn-feedback').textContent = '';",
        json!([]),
    )
    .await;
}

/// The refusal said over the lesson board once there is one, and the cell it is beside.
async fn refusal(s: &Session) -> (String, String) {
    let v = s
        .wait(
            "the refusal beside its cell",
            "const n = document.getElementById('learn-note'); return n.textContent && n.classList.contains('anchored') && [n.textContent, n.dataset.cell];",
        )
        .await;
    (
        v[0].as_str().unwrap().to_owned(),
        v[1].as_str().unwrap().to_owned(),
    )
}

/// The text of the task shown.
async fn task_text(s: &Session) -> String {
    s.text("#learn-task").await
}

/// Lesson 1 done by clicking (a placement, then a placement that needs turning), the next
/// lesson's refusal and miss explained; then a reload keeps lesson 1 done and resumes at
/// the task the learner was on.
async fn a_lesson_by_clicking_then_reload(driver: &Driver, base: &str) {
    let s = driver.session("lesson").await;
    s.goto(&format!("{base}/learn")).await;
    s.wait(
        "the first task",
        "return document.getElementById('learn-task').textContent.startsWith('Place any piece');",
    )
    .await;
    s.wait(
        "the reserve",
        "return document.querySelector(\"#learn-reserve button[data-type='T'][aria-disabled='false']\");",
    )
    .await;
    s.screenshot("welcome-learn-0-start").await;

    play_by_clicking(&s, &LESSON, "TE4:0").await;
    assert!(feedback(&s).await.starts_with("Well done"));
    s.click("#learn-next").await;
    s.wait(
        "the second task",
        "return document.getElementById('learn-task').textContent.startsWith('Cover the three marked cells');",
    )
    .await;
    // The cells to cover are marked on the board.
    let marked = s
        .eval(
            "return [...document.querySelectorAll('#learn-board polygon.chain')].map(e => e.dataset.cell).sort().join(' ');",
            json!([]),
        )
        .await;
    assert_eq!(marked, json!("D4 E5 F6"));
    clear_feedback(&s).await;
    play_by_clicking(&s, &LESSON, "ED4:4").await;
    assert!(feedback(&s).await.starts_with("Well done"));
    s.screenshot("welcome-learn-1-lesson-done").await;
    assert_eq!(
        s.eval(
            "return document.querySelector(\"#lesson-list button[data-lesson='placing']\").classList.contains('done');",
            json!([])
        )
        .await,
        json!(true),
        "the lesson list shows lesson 1 done"
    );

    // Lesson 2: a placement touching the hexagon is refused with the rules' reason; a legal
    // one that misses the task says what is missing.
    s.click("#learn-next").await;
    s.wait(
        "the hexagon task",
        "return document.getElementById('learn-task').textContent.includes('F7');",
    )
    .await;
    clear_feedback(&s).await;
    s.click("#learn-reserve button[data-type='T']").await;
    s.click("#learn-board polygon.cell[data-cell='I9']").await;
    let (reason, cell) = refusal(&s).await;
    assert!(reason.contains("central hexagon"), "{reason}");
    assert_eq!(cell, "I9");
    assert_eq!(
        s.text("#learn-feedback").await,
        "",
        "a refusal is no verdict"
    );
    play_by_clicking(&s, &LESSON, "TC10:0").await;
    let miss = feedback(&s).await;
    assert!(miss.contains("F7") && miss.contains("Try again"), "{miss}");
    s.screenshot("welcome-learn-2-missed").await;
    s.click("#learn-retry").await;
    s.wait(
        "the task set up again",
        "return !document.querySelector('#learn-board polygon.last-fill') && document.getElementById('learn-retry').hidden;",
    )
    .await;

    // A reload resumes the course: lesson 1 done, the hexagon task shown.
    s.goto(&format!("{base}/learn")).await;
    s.wait(
        "the course resumed",
        "return document.getElementById('learn-task').textContent.includes('F7');",
    )
    .await;
    assert_eq!(
        s.eval(
            "return [...document.querySelectorAll('#lesson-list button.done')].map(b => b.dataset.lesson);",
            json!([])
        )
        .await,
        json!(["placing"])
    );
    assert!(task_text(&s).await.contains("F7"));
    s.screenshot("welcome-learn-3-resumed").await;
    s.quit().await;
}

/// Every task of the course, in order, solved by clicking the solution its data keeps: the
/// board takes every kind of move the course asks for (placements, slides, jumps, a
/// bridge), and the course ends with its first game's button.
async fn the_whole_course_by_clicking(driver: &Driver, base: &str) {
    let course: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/static/js/learn/lessons.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let s = driver.session("course").await;
    s.goto(&format!("{base}/learn")).await;
    let mut solved = 0;
    for lesson in course["lessons"].as_array().unwrap() {
        for task in lesson["tasks"].as_array().unwrap() {
            let name = format!(
                "{}/{}",
                lesson["id"].as_str().unwrap(),
                task["id"].as_str().unwrap()
            );
            s.wait(
                &format!("task {name} ready"),
                "return document.getElementById('learn-board').classList.contains('interactive') && document.getElementById('learn-next').hidden;",
            )
            .await;
            let solution = task["solution"].as_str().unwrap();
            if task["goal"]["refused"].is_string() {
                // The task is to try what the rules forbid: the piece, then the cell that
                // is not marked for it.
                let (from, to) = solution.split_once('-').unwrap();
                s.click(&format!("#learn-board polygon.cell[data-cell='{from}']"))
                    .await;
                let to = to.split(':').next().unwrap();
                s.click(&format!("#learn-board polygon.cell[data-cell='{to}']"))
                    .await;
                assert_eq!(refusal(&s).await.1, to, "{name}");
            } else {
                play_by_clicking(&s, &LESSON, solution).await;
            }
            let said = s
                .wait(
                    &format!("{name} met"),
                    "const f = document.getElementById('learn-feedback'); return f.classList.contains('good') && !document.getElementById('learn-next').hidden && f.textContent;",
                )
                .await;
            eprintln!("{name}: {said}");
            s.click("#learn-next").await;
            solved += 1;
        }
    }
    s.wait(
        "the end of the course",
        "return !document.getElementById('learn-end').hidden && document.activeElement.id === 'learn-play';",
    )
    .await;
    assert_eq!(
        s.text("#learn-overall").await,
        format!("Tasks done: {solved} of {solved}")
    );
    s.screenshot("welcome-course-complete").await;
    s.quit().await;
}

/// Whether the game page's player may move now, and the game's position; or the game's end.
const GAME_TURN: &str = r#"
const id = decodeURIComponent(location.pathname.split('/')[2]);
const done = arguments[arguments.length - 1];
fetch(`/api/games/${id}`).then(r => r.json()).then(s => done({
  over: !!s.outcome,
  ours: !s.outcome && s.turn === 'white' && !s.thinking
    && [...document.querySelectorAll('#reserve-me button')].some(b => b.getAttribute('aria-disabled') === 'false'),
  position: s.position,
}));
"#;

/// A legal move of `position`, as the page can make it: a placement while there is one,
/// the `n`-th of them.
const PICK_MOVE: &str = r#"
const [position, n] = arguments;
const done = arguments[arguments.length - 1];
fetch(`/api/legal?position=${encodeURIComponent(position)}`).then(r => r.json()).then(({ moves }) => {
  const places = moves.filter(m => !m.includes('-'));
  const from = places.length ? places : moves;
  done(from[(n * 7919) % from.length]);
});
"#;

/// Home → Learn to play → the end of the course → a first game against level 1, played to
/// its end by clicking → its review; every step by clicking.
async fn newcomers_path(driver: &Driver, base: &str) {
    let s = driver.session("newcomer").await;
    s.goto(base).await;
    // The home page shows the game: the demo game plays itself on the board.
    s.wait(
        "the demo game on the board",
        "return document.querySelectorAll('#home-board g.piece').length > 0;",
    )
    .await;
    let first = s
        .eval(
            "return document.querySelectorAll('#home-board g.piece').length;",
            json!([]),
        )
        .await;
    s.wait(
        "the demo game to move on",
        &format!("return document.querySelectorAll('#home-board g.piece').length !== {first};"),
    )
    .await;
    s.screenshot("welcome-path-0-home").await;

    s.click("#go-learn").await;
    s.wait(
        "the course",
        "return location.pathname === '/learn' && document.getElementById('learn-task').textContent;",
    )
    .await;
    // The home page's board is emptied once the page is left.
    assert_eq!(
        s.eval(
            "return document.querySelectorAll('#home-board *, #home-live svg').length;",
            json!([])
        )
        .await,
        json!(0)
    );
    s.click("#learn-skip").await;
    s.wait(
        "the end of the course",
        "return !document.getElementById('learn-end').hidden;",
    )
    .await;
    s.screenshot("welcome-path-1-course-end").await;
    s.click("#learn-play").await;
    s.wait(
        "the game page",
        "return location.pathname.startsWith('/g/') && document.querySelector('#p-black .name').textContent.includes('1');",
    )
    .await;

    let mut n = 0;
    loop {
        let turn = wait_turn(&s).await;
        if turn["over"] == json!(true) {
            break;
        }
        let position = turn["position"].as_str().unwrap().to_owned();
        let mv = s.eval_async(PICK_MOVE, json!([position, n])).await;
        play_by_clicking(&s, &GAME, mv.as_str().unwrap()).await;
        s.wait(
            "the move played",
            &format!(
                "return !document.querySelector('#board g.ghost') && document.querySelectorAll('#move-list li').length > {};",
                2 * n
            ),
        )
        .await;
        n += 1;
        assert!(n < 40, "the game did not end");
    }
    let status = s
        .wait(
            "the result",
            "const t = document.getElementById('status').textContent; return /wins|draw/.test(t) && t;",
        )
        .await;
    s.screenshot("welcome-path-2-game-over").await;
    eprintln!("the newcomer's first game: {n} moves of ours, {status}");

    // Its review: back to the start and forward again.
    s.click("#first").await;
    s.wait(
        "the review at the start",
        "return document.getElementById('status').textContent.startsWith('Reviewing') && !document.querySelector('#board g.piece');",
    )
    .await;
    s.click("#next").await;
    s.wait(
        "the first move shown",
        "return document.querySelectorAll('#board g.piece').length === 1;",
    )
    .await;
    s.screenshot("welcome-path-3-review").await;

    // Its share image: the shown move's picture, loaded in the page and opened at its own
    // address as a link would open it.
    let href = s
        .wait(
            "the share picture of the shown move",
            "const i = document.getElementById('share-thumb'); const a = document.getElementById('share-image-open'); return !!i && i.complete && i.naturalWidth === 1200 && i.currentSrc === i.src && a.href.endsWith('/image.png?ply=1') && a.href;",
        )
        .await;
    s.goto(href.as_str().unwrap()).await;
    s.wait(
        "the share picture at its own address",
        "const i = document.images[0]; return document.images.length === 1 && i.complete && i.naturalWidth === 1200 && i.naturalHeight === 630;",
    )
    .await;
    s.screenshot("welcome-path-4-share-image").await;

    s.quit().await;
}

/// Waits until the game page's player is to move or the game is over (see `GAME_TURN`).
async fn wait_turn(s: &Session) -> Value {
    for _ in 0..600 {
        let v = s.eval_async(GAME_TURN, json!([])).await;
        if v["over"] == json!(true) || v["ours"] == json!(true) {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{}: neither our turn nor the end came", s.name());
}

/// "Play the computer" starts a game at once; back home, that game is among the games being
/// played now, drawn small, and its picture leads to it. The course fits a phone's width.
async fn one_click_and_the_games_being_played(driver: &Driver, base: &str) {
    let s = driver.session("one-click").await;
    s.goto(base).await;
    s.click("#play-computer").await;
    let game = s
        .wait(
            "the game against level 3",
            "return location.pathname.startsWith('/g/') && document.querySelector('#p-black .name').textContent.includes('3') && location.pathname;",
        )
        .await;
    let game = game.as_str().unwrap().to_owned();
    // A game is among those being played once its first move is made.
    let turn = wait_turn(&s).await;
    let position = turn["position"].as_str().unwrap().to_owned();
    let mv = s.eval_async(PICK_MOVE, json!([position, 0])).await;
    play_by_clicking(&s, &GAME, mv.as_str().unwrap()).await;
    s.wait(
        "the move played",
        "return !document.querySelector('#board g.ghost') && document.querySelectorAll('#move-list li').length > 0;",
    )
    .await;
    s.click("header a.brand").await;
    let link = format!("#home-live a[href='{game}']");
    s.wait(
        "the game drawn small",
        &format!("return document.querySelector(\"{link} svg.thumb\");"),
    )
    .await;
    s.screenshot("welcome-home-live-games").await;
    s.click(&link).await;
    s.wait(
        "the game from its picture",
        &format!(
            "return location.pathname === '{game}' && !document.getElementById('view-game').hidden;"
        ),
    )
    .await;
    s.quit().await;

    let phone = driver.session_phone("welcome-phone").await;
    for (page, name) in [("/", "home"), ("/learn", "learn")] {
        phone.goto(&format!("{base}{page}")).await;
        phone
            .wait(
                "the page drawn",
                "return document.querySelector('#home-board g.cells, #learn-board g.cells');",
            )
            .await;
        let overflow = phone.overflow_x().await;
        assert!(overflow <= 0, "{page} is wider than the phone: {overflow}");
        phone.screenshot(&format!("welcome-phone-{name}")).await;
    }
    phone.quit().await;
}
