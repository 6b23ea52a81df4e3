//! axe-core, the accessibility checker, on every page of the app in headless Chromium: home,
//! games, learn, rules, import, analysis, a live game, a finished game under review and the
//! missing page, in the light and the dark theme, on a desktop window and a 360 × 640 phone.
//! Not one violation may be found.
//!
//! axe-core comes from the npm registry at test time, into target/axe (.ci/run installs it
//! there first). Skipped, with a message, without Chromium, npm or the network.

mod common;
mod webdriver;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use webdriver::{Driver, Session};

/// The pages, each as its address (after the server's base) and what shows it is ready.
fn pages(live: &str, finished: &str) -> Vec<(&'static str, String, &'static str)> {
    let game_ready = "return document.querySelector('#p-white .name').textContent.length > 0 && document.querySelector('#board polygon.cell') && document.querySelectorAll('#board g.piece').length > 0;";
    vec![
        (
            "home",
            "/".into(),
            "return !document.getElementById('view-home').hidden;",
        ),
        (
            "games",
            "/games".into(),
            "return !document.getElementById('view-games').hidden && document.querySelectorAll('#live-list li, #game-list li').length > 0;",
        ),
        (
            "learn",
            "/learn".into(),
            "return !document.getElementById('view-learn').hidden;",
        ),
        (
            "rules",
            "/rules".into(),
            "return !document.getElementById('view-rules').hidden && document.querySelector('#rules-text h1, #rules-text h2');",
        ),
        (
            "import",
            "/import".into(),
            "return !document.getElementById('view-import').hidden;",
        ),
        (
            "analysis",
            "/analysis#text=standard+w+2+wTE4%3A0%401%2CbTK5%3A0%401".into(),
            "return !document.getElementById('view-game').hidden && document.querySelectorAll('#board g.piece').length === 2;",
        ),
        ("live game", format!("/g/{live}"), game_ready),
        ("finished game review", format!("/g/{finished}"), game_ready),
        (
            "missing",
            "/no/such/page".into(),
            "return !document.getElementById('view-missing').hidden;",
        ),
    ]
}

/// axe-core's script, installed into target/axe with npm when it is not there yet; `None`
/// (the test is skipped) without npm or the registry.
fn axe_script() -> Option<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/axe");
    let file: PathBuf = dir.join("node_modules/axe-core/axe.min.js");
    if !file.exists() {
        let installed = Command::new("npm")
            .args([
                "install",
                "--no-audit",
                "--no-fund",
                "--no-save",
                "--prefix",
            ])
            .arg(&dir)
            .arg("axe-core@4")
            .stdin(Stdio::null())
            .output();
        match installed {
            Ok(out) if out.status.success() => {}
            Ok(out) => {
                eprintln!(
                    "SKIPPED the axe checks: `npm install axe-core` failed (no network?): {}",
                    String::from_utf8_lossy(&out.stderr)
                        .lines()
                        .last()
                        .unwrap_or("")
                );
                return None;
            }
            Err(_) => {
                eprintln!("SKIPPED the axe checks: no npm (apt-get install -y npm)");
                return None;
            }
        }
    }
    std::fs::read_to_string(&file).ok()
}

/// A live game on one screen and a finished one, with moves, made over the API: their ids
/// and the token that holds their seats.
async fn games(base: &str) -> (String, String, String) {
    let (live, token) = common::create(base, json!({ "mode": "local", "name": "Ada" })).await;
    let (finished, finished_token) =
        common::create(base, json!({ "mode": "local", "name": "Bo" })).await;
    for (id, token) in [(&live, &token), (&finished, &finished_token)] {
        for mv in ["TE4:0", "TK5:0"] {
            let (status, v) = common::play_move(base, id, token, mv).await;
            assert_eq!(status, 200, "{v}");
        }
    }
    let (status, v) = common::post(
        &format!("{base}/api/games/{finished}/resign"),
        Some(&finished_token),
        json!({}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    // One token for both: the page holds the seats of both games.
    let (status, v) = common::post(
        &format!("{base}/api/games/{finished}/action"),
        Some(&finished_token),
        json!({ "action": "rematch" }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    (live, finished, format!("{token} {finished_token}"))
}

/// The violations axe finds on the page shown, one line each.
async fn violations(s: &Session) -> Vec<String> {
    let found = s
        .eval_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, { resultTypes: ['violations'] })
               .then((r) => done(r.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(', ')}`)))
               .catch((e) => done([`axe failed: ${e.message}`]));",
            json!([]),
        )
        .await;
    found
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_else(|| vec![format!("axe gave no list: {found}")])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn axe_finds_nothing_on_any_page() {
    if !webdriver::available() {
        return;
    }
    let Some(axe) = axe_script() else {
        return;
    };
    webdriver::watchdog("the axe checks", Duration::from_secs(480));
    let base = common::start_in_process(&common::temp_db("browser-axe")).await;
    let (live, finished, tokens) = games(&base).await;
    let driver = Driver::start().await;
    let mut found = Vec::new();
    for (size, phone) in [("desktop", false), ("phone 360x640", true)] {
        let s = if phone {
            driver.session_phone_sized("axe-phone", 360, 640).await
        } else {
            driver.session("axe-desktop").await
        };
        for theme in ["light", "dark"] {
            s.goto(&base).await;
            let (live_token, finished_token) = tokens.split_once(' ').unwrap();
            s.eval(
                "localStorage.setItem('punct.theme', arguments[0]); localStorage.setItem(`punct.token.${arguments[1]}`, arguments[2]); localStorage.setItem(`punct.token.${arguments[3]}`, arguments[4]);",
                json!([theme, live, live_token, finished, finished_token]),
            )
            .await;
            for (name, path, ready) in pages(&live, &finished) {
                // Each page loaded afresh: as a visitor would, with the theme applied first.
                s.goto(&format!("{base}{path}")).await;
                s.wait(&format!("{name} ({size}, {theme})"), ready).await;
                if name == "finished game review" {
                    // Review: back to the first move.
                    s.click("#prev").await;
                }
                // Let the page settle (fonts, the socket's first state) before it is judged.
                tokio::time::sleep(Duration::from_millis(300)).await;
                s.eval(&format!("{axe}\n;return true;"), json!([])).await;
                let shot = format!(
                    "axe-{}-{}-{}",
                    if phone { "phone" } else { "desktop" },
                    theme,
                    name.replace(' ', "-")
                );
                s.screenshot(&shot).await;
                for v in violations(&s).await {
                    found.push(format!("{name} ({size}, {theme}): {v}"));
                }
            }
        }
        s.quit().await;
    }
    assert!(
        found.is_empty(),
        "axe found {} violations:\n{}",
        found.len(),
        found.join("\n")
    );
}
