//! The interface's languages in headless Chromium: the header's switch changes the page's
//! language on several pages (games, rules, import, a game), and the choice survives a
//! reload and Back; a browser whose own language is French gets the French page without
//! choosing; the players' rules page on a 360 × 640 phone fits the screen and shows its
//! diagrams, drawn by the board's renderer.
//!
//! Screenshots go to target/screenshots. Skipped (with a message) without Chromium.

mod common;
mod webdriver;

use std::time::Duration;

use serde_json::json;
use webdriver::{Driver, Session, scenario};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn languages_in_the_browser() {
    if !webdriver::available() {
        return;
    }
    webdriver::watchdog("the language tests", Duration::from_secs(400));
    let base = common::start_in_process(&common::temp_db("browser-i18n")).await;
    let driver = Driver::start().await;
    scenario("the switch", 150, the_switch(&driver, &base)).await;
    scenario(
        "the browser's language",
        60,
        the_browsers_language(&driver, &base),
    )
    .await;
    scenario(
        "the rules on a 360 × 640 phone",
        90,
        the_rules_on_a_phone(&driver, &base),
    )
    .await;
    scenario(
        "a game on a phone in every language",
        120,
        a_game_on_a_phone_in_every_language(&driver, &base),
    )
    .await;
}

/// Chooses `lang` in the header's switch, as a person does.
async fn choose_language(s: &Session, lang: &str) {
    s.eval(
        "const select = document.getElementById('language'); select.value = arguments[0]; select.dispatchEvent(new Event('change'));",
        json!([lang]),
    )
    .await;
}

/// A condition on the page once it has loaded in `lang`.
fn loaded_in(lang: &str, then: &str) -> String {
    format!(
        "return document.readyState === 'complete' && document.documentElement.lang === '{lang}' && document.getElementById('language').value === '{lang}' && {then};"
    )
}

async fn the_switch(driver: &Driver, base: &str) {
    let s = driver.session("i18n-switch").await;
    s.goto(&format!("{base}/games")).await;
    s.wait(
        "the games page in English",
        &loaded_in(
            "en",
            "document.getElementById('games-title').textContent === 'Games'",
        ),
    )
    .await;
    let options = s
        .eval(
            "return [...document.querySelectorAll('#language option')].map(o => o.value + ':' + o.textContent);",
            json!([]),
        )
        .await;
    assert_eq!(
        options,
        json!([
            "en:English",
            "fr:Français",
            "de:Deutsch",
            "es:Español",
            "it:Italiano",
            "nl:Nederlands",
            "pl:Polski",
            "ro:Română"
        ])
    );
    assert_eq!(
        s.eval(
            "return document.getElementById('language').getAttribute('aria-label');",
            json!([])
        )
        .await,
        "Language"
    );

    choose_language(&s, "fr").await;
    let games_fr = loaded_in(
        "fr",
        "location.pathname === '/games' && !document.getElementById('view-games').hidden && document.getElementById('games-title').textContent === 'Parties' && document.querySelector(\"nav a[data-view='rules']\").textContent === 'Règles' && document.getElementById('language').getAttribute('aria-label') === 'Langue' && document.title === 'Parties — PÜNCT'",
    );
    s.wait("the games page in French", &games_fr).await;
    s.screenshot("i18n-0-games-fr").await;

    s.click("nav a[data-view='rules']").await;
    let rules_fr = loaded_in(
        "fr",
        "location.pathname === '/rules' && document.getElementById('rules-title')?.textContent === 'Comment jouer à PÜNCT' && document.title === 'Règles — PÜNCT' && document.getElementById('rules-text').textContent.includes('hexagone central')",
    );
    s.wait("the rules in French", &rules_fr).await;
    s.eval("location.reload();", json!([])).await;
    s.wait("the rules in French after a reload", &rules_fr)
        .await;
    s.eval("history.back();", json!([])).await;
    s.wait("the games page in French after Back", &games_fr)
        .await;

    s.click("nav a[data-view='import']").await;
    s.wait(
        "the import page in French",
        &loaded_in(
            "fr",
            "document.getElementById('import-title').textContent === 'Importer une partie ou une position' && document.getElementById('import-review').textContent === 'La revoir'",
        ),
    )
    .await;

    // A game, watched: its status and panel in French, then in German after a switch on
    // the game's own page, which stays at its address.
    let (id, _) = common::create(base, json!({ "mode": "local" })).await;
    s.goto(&format!("{base}/g/{id}")).await;
    s.wait(
        "the game in French",
        &loaded_in(
            "fr",
            "document.getElementById('status').textContent === 'Au tour de Blanc.' && !document.getElementById('watching').hidden && document.getElementById('watching').textContent === 'Vous regardez cette partie.' && document.getElementById('centre').textContent.startsWith('Hexagone central : Blanc 0, Noir 0')",
        ),
    )
    .await;
    s.screenshot("i18n-1-game-fr").await;
    choose_language(&s, "de").await;
    s.wait(
        "the game in German",
        &loaded_in(
            "de",
            &format!("location.pathname === '/g/{id}' && document.getElementById('status').textContent === 'Weiß am Zug.' && document.getElementById('reserve-me-title').textContent === 'Vorrat von Weiß' && document.getElementById('flip').textContent === 'Brett drehen'"),
        ),
    )
    .await;
    s.screenshot("i18n-2-game-de").await;
    s.quit().await;
}

async fn the_browsers_language(driver: &Driver, base: &str) {
    let s = driver.session_in_language("i18n-browser-fr", "fr").await;
    s.goto(&format!("{base}/games")).await;
    // Nothing was chosen in this browser: its own language decides.
    s.wait(
        "the page in the browser's language",
        &loaded_in(
            "fr",
            "navigator.languages[0].startsWith('fr') && localStorage.getItem('punct.lang') === null && document.getElementById('games-title').textContent === 'Parties'",
        ),
    )
    .await;
    s.quit().await;
}

async fn the_rules_on_a_phone(driver: &Driver, base: &str) {
    let s = driver
        .session_phone_sized("i18n-rules-phone", 360, 640)
        .await;
    s.goto(&format!("{base}/rules")).await;
    // Every diagram is a board of 211 cells with pieces, shown at a readable size.
    s.wait(
        "the rules with their diagrams",
        "const figures = [...document.querySelectorAll('#rules-text figure svg.diagram')]; return figures.length === 8 && figures.every(f => f.querySelectorAll('polygon.cell').length === 211 && f.getBoundingClientRect().width > 250 && f.getBoundingClientRect().height > 150);",
    )
    .await;
    let overflow = s.overflow_x().await;
    assert!(
        overflow <= 0,
        "the rules page is {overflow} px wider than the phone"
    );
    let pieces = s
        .eval(
            "return Object.fromEntries([...document.querySelectorAll('#rules-text figure')].map(f => [f.dataset.diagram, f.querySelectorAll('g.piece').length]));",
            json!([]),
        )
        .await;
    assert_eq!(
        pieces,
        json!({ "goal": 0, "place": 2, "move": 2, "jump": 4, "cover": 4, "bridge": 3, "win": 10, "centre": 5 }),
        "pieces drawn per diagram (a move's landing is drawn as circles, a forbidden piece faintly)"
    );
    assert!(
        s.text("#rules-centre figcaption")
            .await
            .contains("White is on top in 6 cells, Black in 5")
    );
    // The header, language switch included, fits the phone's width.
    let header = s
        .eval(
            "const h = document.querySelector('header').getBoundingClientRect(); const l = document.getElementById('language').getBoundingClientRect(); return [h.right, l.right, window.innerWidth];",
            json!([]),
        )
        .await;
    assert!(
        header[0].as_f64() <= header[2].as_f64() && header[1].as_f64() <= header[2].as_f64(),
        "{header}"
    );
    s.screenshot("i18n-3-rules-phone-top").await;
    for name in ["pieces", "move", "cover", "bridge", "win", "centre"] {
        s.eval(
            "document.getElementById(`rules-${arguments[0]}`).scrollIntoView();",
            json!([name]),
        )
        .await;
        s.screenshot(&format!("i18n-4-rules-phone-{name}")).await;
    }
    // In German, whose words are the longest, the page and its header still fit.
    choose_language(&s, "de").await;
    s.wait(
        "the rules in German",
        &loaded_in(
            "de",
            "document.getElementById('rules-title')?.textContent === 'So wird PÜNCT gespielt' && document.querySelectorAll('#rules-text svg.diagram').length === 8",
        ),
    )
    .await;
    let overflow = s.overflow_x().await;
    assert!(
        overflow <= 0,
        "the German rules page is {overflow} px wider than the phone"
    );
    s.eval("window.scrollTo(0, 0);", json!([])).await;
    s.screenshot("i18n-5-rules-phone-de").await;
    s.quit().await;
}

/// The game page on a 360 × 640 phone fits the screen in every language, header included.
async fn a_game_on_a_phone_in_every_language(driver: &Driver, base: &str) {
    let s = driver
        .session_phone_sized("i18n-game-phone", 360, 640)
        .await;
    let (id, _) = common::create(base, json!({ "mode": "local" })).await;
    s.goto(&format!("{base}/g/{id}")).await;
    for lang in ["en", "fr", "de", "es", "it", "nl", "pl", "ro"] {
        choose_language(&s, lang).await;
        s.wait(
            &format!("the game in {lang}"),
            &loaded_in(
                lang,
                "document.getElementById('status').textContent !== '' && document.querySelectorAll('#reserve-me button').length === 6",
            ),
        )
        .await;
        let overflow = s.overflow_x().await;
        assert!(
            overflow <= 0,
            "in {lang} the game page is {overflow} px wider than the phone"
        );
        if lang == "pl" {
            s.screenshot("i18n-6-game-phone-pl").await;
        }
    }
    s.quit().await;
}

/// What the server refuses over a game's socket is said in the page's language, from its
/// code: a French player's typed move that breaks a rule, and the seats the server names
/// itself (nobody's name given) worded in French too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_from_the_server_is_said_in_the_pages_language() {
    if !webdriver::available() {
        return;
    }
    webdriver::watchdog("the translated refusal test", Duration::from_secs(150));
    let base = common::start_in_process(&common::temp_db("browser-refusal-fr")).await;
    let driver = Driver::start().await;
    scenario("the refusal in French", 100, async {
        let (id, token) = common::create(&base, json!({ "mode": "local" })).await;
        let s = driver.session_in_language("i18n-refusal-fr", "fr").await;
        s.goto(&format!("{base}/")).await;
        s.eval(
            "localStorage.setItem(`punct.token.${arguments[0]}`, arguments[1]);",
            json!([id, token]),
        )
        .await;
        s.goto(&format!("{base}/g/{id}")).await;
        s.wait(
            "the game in French, its unnamed seats worded so",
            &loaded_in(
                "fr",
                "!document.getElementById('move-text').disabled && [...document.querySelectorAll('.players .name')].map(n => n.textContent).join('|').includes('Anonyme 2')",
            ),
        )
        .await;
        // The first placement may not touch the centre: refused over the socket, said in
        // French, with none of the server's English.
        s.type_into("#move-text", "TI9:0\n").await;
        let said = s
            .wait(
                "the refusal in French",
                "const t = document.getElementById('game-error').textContent; return t.includes('TI9:0 n') && t;",
            )
            .await;
        let said = said.as_str().unwrap();
        assert!(!said.contains("illegal move"), "{said}");
        assert!(!said.contains("standard game"), "{said}");
        s.screenshot("i18n-3-refusal-fr").await;
        s.quit().await;
    })
    .await;
}
