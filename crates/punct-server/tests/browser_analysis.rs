//! The engine's analysis in headless Chromium: a finished game's computer analysis asked for
//! on its page (the graph of White's win chance, each move's class in the move list, the
//! players' figures, the engine's better move as an arrow on the board, its line played out
//! by a click), and the fairness refusal on a live game's page and at the server. Screenshots
//! go to target/screenshots. Skipped (with a message) without Chromium.

mod common;
mod webdriver;

use std::time::Duration;

use serde_json::{Value, json};
use webdriver::Driver;

/// The position after `moves` from `position`, as the server plays them.
async fn after(base: &str, position: &str, moves: &[Value]) -> String {
    let mut pos = position.to_owned();
    for m in moves {
        let url = reqwest::Url::parse_with_params(
            &format!("{base}/api/legal"),
            [("position", pos.as_str()), ("move", m.as_str().unwrap())],
        )
        .unwrap();
        let (status, v) = common::get(url.as_str(), None).await;
        assert_eq!((status, &v["legal"]), (200, &json!(true)), "{v}");
        pos = v["position"].as_str().unwrap().to_owned();
    }
    pos
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_games_analysis_is_asked_for_shown_and_its_line_played_out() {
    if !webdriver::available() {
        return;
    }
    webdriver::watchdog("the analysis browser test", Duration::from_secs(300));
    let base = common::start_in_process(&common::temp_db("browser-analysis")).await;
    tokio::time::timeout(Duration::from_secs(240), async {
        let (id, token) = common::local_game_played(&base, 12).await;
        let (status, v) = common::post(
            &format!("{base}/api/games/{id}/resign"),
            Some(&token),
            json!({}),
        )
        .await;
        assert_eq!(status, 200, "{v}");
        let driver = Driver::start().await;
        let s = driver.session("analysis").await;
        s.goto(&format!("{base}/g/{id}")).await;
        s.wait(
            "the offer of a computer analysis",
            "const b = document.getElementById('review-request'); return !!b && !b.hidden && !document.getElementById('review-box').hidden;",
        )
        .await;
        s.click("#review-request").await;
        s.wait(
            "the graph of the analysed game: a point per position",
            "return document.querySelectorAll('#review-graph circle[data-ply]').length === 13;",
        )
        .await;
        let (_, view) = common::get(&format!("{base}/api/games/{id}/analysis"), None).await;
        assert_eq!(view["state"], "done", "{view}");

        // Each move's class in the move list, as the server classed it.
        let marked = s
            .eval(
                "return [...document.querySelectorAll('#move-list button')].map((b) => b.dataset.class || null);",
                json!([]),
            )
            .await;
        let classes: Vec<Value> = view["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["class"].clone())
            .collect();
        assert_eq!(marked, json!(classes));
        // The players' figures: a row each, their accuracy shown.
        let rows = s
            .eval(
                "return [...document.querySelectorAll('#review-summary tr[data-colour] td:last-child')].map((td) => td.textContent);",
                json!([]),
            )
            .await;
        assert_eq!(rows.as_array().unwrap().len(), 2, "{rows}");
        assert!(rows[0].as_str().unwrap() != "–", "{rows}");

        // A click on the graph's point goes there; the engine's best move there is the
        // board's arrow. The point is the first (after a move) whose line has two moves.
        let k = (1..12)
            .find(|&k| view["positions"][k]["pv"].as_array().unwrap().len() >= 2)
            .expect("a line of two moves");
        s.eval(
            &format!("document.querySelector('#review-graph circle[data-ply=\"{k}\"]').dispatchEvent(new MouseEvent('click', {{ bubbles: true }}));"),
            json!([]),
        )
        .await;
        s.wait(
            "the point's move shown",
            &format!("return document.querySelector('#move-list li:nth-child({k}) button.current');"),
        )
        .await;
        let best = view["positions"][k]["best"].as_str().unwrap().to_owned();
        s.wait(
            "the engine's move as the board's arrow",
            &format!("return !!document.querySelector('#board .hint-move[data-move=\"{best}\"]');"),
        )
        .await;
        s.eval(
            "document.getElementById('review-box').scrollIntoView();",
            json!([]),
        )
        .await;
        s.screenshot("analysis-0-review").await;

        // The line's second move, clicked: the board shows the line played out to it.
        let pv = view["positions"][k]["pv"].as_array().unwrap().clone();
        s.click("#review-line .line-move:nth-of-type(2)").await;
        s.wait(
            "the line played out",
            "return !document.getElementById('review-back').hidden && !!document.querySelector('#review-line .line-move.current');",
        )
        .await;
        let (_, replay) = common::get(&format!("{base}/api/games/{id}/replay"), None).await;
        let expected = after(&base, replay["positions"][k].as_str().unwrap(), &pv[..2]).await;
        s.click("#export-position").await;
        let shown = s
            .wait(
                "the position text",
                "return document.getElementById('export').value;",
            )
            .await;
        assert_eq!(shown.as_str().unwrap(), expected);
        s.screenshot("analysis-1-line").await;
        s.click("#review-back").await;
        s.wait(
            "back in the game",
            "return document.getElementById('review-back').hidden;",
        )
        .await;

        // The record carries the evaluations.
        s.click("#export-record").await;
        s.wait(
            "the record with its evaluations",
            "return document.getElementById('export').value.includes('{White ');",
        )
        .await;
        s.quit().await;
    })
    .await
    .expect("the analysis scenario finishes within 240 s");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_game_is_not_analysed_for_its_watchers_nor_its_players() {
    if !webdriver::available() {
        return;
    }
    webdriver::watchdog("the fairness browser test", Duration::from_secs(200));
    let base = common::start_in_process(&common::temp_db("browser-fairness")).await;
    tokio::time::timeout(Duration::from_secs(150), async {
        let (id, _token) = common::local_game_played(&base, 8).await;
        let driver = Driver::start().await;
        let s = driver.session("fairness").await;
        s.goto(&format!("{base}/g/{id}")).await;
        s.wait(
            "the live game",
            "return document.querySelectorAll('#move-list li').length === 8;",
        )
        .await;
        s.click("#analysis-on").await;
        s.wait(
            "the refusal",
            "return document.getElementById('analysis').textContent.includes('no position of a game being played');",
        )
        .await;
        // The server refuses the page's own request, whatever the page shows.
        let answer = s
            .eval_async(
                "const done = arguments[arguments.length - 1]; fetch('/api/games/' + arguments[0]).then((r) => r.json()).then((g) => fetch('/api/analyse', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ position: g.position }) })).then(async (r) => done([r.status, (await r.json()).error]));",
                json!([id]),
            )
            .await;
        assert_eq!(answer[0], 403, "{answer}");
        assert!(answer[1].as_str().unwrap().contains("game being played"), "{answer}");
        assert!(
            s.eval("return document.getElementById('review-box').hidden;", json!([]))
                .await
                .as_bool()
                .unwrap(),
            "no computer analysis is offered while the game is played"
        );
        s.screenshot("analysis-2-refused").await;
        s.quit().await;
    })
    .await
    .expect("the fairness scenario finishes within 150 s");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_free_board_plays_both_sides_shows_the_engines_move_and_shares_its_position() {
    if !webdriver::available() {
        return;
    }
    webdriver::watchdog("the analysis board browser test", Duration::from_secs(200));
    let base = common::start_in_process(&common::temp_db("browser-board")).await;
    if !webdriver::wasm_served(&base, "the free analysis board").await {
        return;
    }
    tokio::time::timeout(Duration::from_secs(150), async {
        let driver = Driver::start().await;
        let s = driver.session("board").await;
        s.goto(&format!("{base}/analysis")).await;
        s.wait(
            "the empty analysis board",
            "return !document.getElementById('board-setup').hidden && document.getElementById('board-position').value === 'standard w 0 -';",
        )
        .await;
        // Both sides played here, by move text.
        let mut position = "standard w 0 -".to_owned();
        for i in 0..2 {
            let mv = common::pick_move(&base, &position, i).await;
            s.eval(
                "document.getElementById('move-text').value = arguments[0]; document.getElementById('move-form').requestSubmit();",
                json!([mv]),
            )
            .await;
            position = after(&base, &position, &[json!(mv)]).await;
            s.wait(
                "the move played",
                &format!("return document.querySelectorAll('#move-list li').length === {};", i + 1),
            )
            .await;
        }
        s.wait(
            "the position's text",
            &format!("return document.getElementById('board-position').value === {position:?};"),
        )
        .await;
        // The engine's line of the shown position, its move the board's arrow.
        s.wait(
            "the engine's analysis and its arrow",
            "return document.getElementById('analysis').textContent.includes('%') && !!document.querySelector('#board .hint-move');",
        )
        .await;
        s.screenshot("analysis-3-board").await;
        // The share link opens the board on the position.
        let link = s
            .eval("return document.getElementById('board-link').value;", json!([]))
            .await;
        let link = link.as_str().unwrap().to_owned();
        assert!(link.starts_with(&format!("{base}/analysis#position=")), "{link}");
        let other = driver.session("board-shared").await;
        other.goto(&link).await;
        other
            .wait(
                "the shared position",
                &format!("return document.getElementById('board-position').value === {position:?} && !!document.querySelector('#board .hint-move');"),
            )
            .await;
        // Set up: the other side to move.
        other.click("#board-side").await;
        let flipped = other
            .wait(
                "Black to move",
                "const v = document.getElementById('board-position').value; return v.split(' ')[1] === 'b' && v;",
            )
            .await;
        assert!(flipped.as_str().unwrap().ends_with(position.split(' ').nth(3).unwrap()));
        other.quit().await;
        s.quit().await;
    })
    .await
    .expect("the board scenario finishes within 150 s");
}

/// The free board's piece editor: pieces put on the empty board by clicking cells (White's,
/// Black's, one on another), one the rules do not take refused with their reason, the top
/// one taken off, Black set to move; the position's text and link follow every edit, and the
/// engine analyses the position set up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_piece_editor_sets_a_position_up_for_the_engine() {
    if !webdriver::available() {
        return;
    }
    webdriver::watchdog("the piece editor browser test", Duration::from_secs(200));
    let base = common::start_in_process(&common::temp_db("browser-editor")).await;
    if !webdriver::wasm_served(&base, "the piece editor").await {
        return;
    }
    tokio::time::timeout(Duration::from_secs(150), async {
        let driver = Driver::start().await;
        let s = driver.session("editor").await;
        s.goto(&format!("{base}/analysis")).await;
        s.wait(
            "the empty analysis board",
            "return !document.getElementById('board-setup').hidden && document.getElementById('board-position').value === 'standard w 0 -';",
        )
        .await;
        s.click("#edit-on").await;
        s.wait(
            "the editor's choices",
            "return !document.getElementById('edit-tools').hidden;",
        )
        .await;
        let choose = |colour: &'static str, piece: &'static str| {
            json!([colour, piece])
        };
        let pick = "document.getElementById('edit-colour').value = arguments[0]; document.getElementById('edit-piece').value = arguments[1];";
        let expect = |text: &str| {
            format!("return document.getElementById('board-position').value === {text:?} && document.getElementById('board-link').value.endsWith({:?});",
                format!("#position={}", text.replace(' ', "+").replace(':', "%3A").replace('@', "%40").replace(',', "%2C")))
        };
        for (colour, piece, cell, text) in [
            ("white", "T", "E4", "standard w 0 wTE4:0@1"),
            ("black", "T", "K5", "standard w 0 wTE4:0@1,bTK5:0@1"),
            ("white", "T", "E4", "standard w 0 wTE4:0@1,bTK5:0@1,wTE4:0@2"),
        ] {
            s.eval(pick, choose(colour, piece)).await;
            s.click(&format!("#board polygon.cell[data-cell='{cell}']")).await;
            s.wait(&format!("{colour} {piece} on {cell}"), &expect(text)).await;
        }
        // Black's PÜNCT may not rest on White's piece: the rules say so, nothing changes.
        s.eval(pick, choose("black", "T")).await;
        s.click("#board polygon.cell[data-cell='E4']").await;
        s.wait(
            "the rules' refusal",
            "return document.getElementById('game-error').textContent.startsWith('The rules do not take this position');",
        )
        .await;
        s.wait("nothing changed", &expect("standard w 0 wTE4:0@1,bTK5:0@1,wTE4:0@2"))
            .await;
        // The top piece taken off, then Black to move.
        s.eval(pick, choose("white", "remove")).await;
        s.click("#board polygon.cell[data-cell='E4']").await;
        s.wait("the top piece off", &expect("standard w 0 wTE4:0@1,bTK5:0@1"))
            .await;
        s.click("#edit-black").await;
        s.wait("Black to move", &expect("standard b 1 wTE4:0@1,bTK5:0@1"))
            .await;
        // The engine's line of the position set up, its move the board's arrow.
        s.wait(
            "the engine's analysis and its arrow",
            "return document.getElementById('analysis').textContent.includes('%') && !!document.querySelector('#board .hint-move');",
        )
        .await;
        s.screenshot("analysis-4-editor").await;
        s.quit().await;
    })
    .await
    .expect("the editor scenario finishes within 150 s");
}
