//! End to end: bot accounts on a real server (`punct serve`, SQLite), played by real
//! `punct bot` processes, one with the built-in engine at level 2 and one with a `cmd:`
//! engine (this binary's `punct engine`, over the engine protocol). They play a rated game
//! against each other through the site while the server is killed and started again; then
//! one plays a person's challenge and declines one its rules exclude.

mod common;
#[allow(dead_code)] // `databases` is for the server's tests.
#[path = "../../punct-server/tests/common/pg_cluster.rs"]
mod pg_cluster;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::server::{Server, account_with_token, bot_with_token, http};
use common::{free_addr, temp_db};
use serde_json::{Value, json};

/// A `punct bot` process, killed when dropped; its log kept in a file for failures.
struct Bot {
    child: Child,
    log: PathBuf,
}

impl Bot {
    fn start(dir: &Path, name: &str, url: &str, token: &str, args: &[&str]) -> Bot {
        let log = dir.join(format!("{name}.log"));
        let child = Command::new(env!("CARGO_BIN_EXE_punct"))
            .args(["bot", "--server", url, "--movetime", "150"])
            .args(args)
            .env("PUNCT_TOKEN", token)
            .env("RUST_LOG", "info")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        Bot { child, log }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("punct-bots-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn get(url: &str, token: Option<&str>) -> (u16, Value) {
    let bearer = token.map(|t| format!("Bearer {t}"));
    let headers: Vec<(&str, &str)> = bearer
        .as_deref()
        .map(|b| vec![("Authorization", b)])
        .unwrap_or_default();
    let (status, body, _) = http("GET", url, &headers, None);
    (status, body)
}

fn post(url: &str, token: &str, body: Value) -> (u16, Value) {
    let bearer = format!("Bearer {token}");
    let (status, body, _) = http("POST", url, &[("Authorization", &bearer)], Some(body));
    (status, body)
}

/// Waits up to `secs` for `found` to give something, saying `what` and the bots' logs
/// otherwise.
fn wait_for<T>(secs: u64, what: &str, bots: &[&Bot], mut found: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(t) = found() {
            return t;
        }
        if Instant::now() > deadline {
            let logs: Vec<String> = bots.iter().map(|b| b.log()).collect();
            panic!("{what}: not within {secs} s\n{}", logs.join("\n-----\n"));
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The live game of `player`, if any.
fn live_game(url: &str, player: &str) -> Option<String> {
    let (status, games) = get(&format!("{url}/api/players/{player}/games?live=true"), None);
    assert_eq!(status, 200, "{games}");
    games["games"][0]["game"].as_str().map(str::to_owned)
}

fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .map(|m| {
            m.iter()
                .filter_map(|m| m.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// Ada (`token`) challenges with `challenge`, which the bot accepts as White's opponent;
/// she plays the first move and the bot answers it within `secs`. The challenge made and
/// the game's state URL.
fn challenge_answered(
    url: &str,
    token: &str,
    challenge: Value,
    bots: &[&Bot],
    secs: u64,
) -> (Value, String) {
    let (status, made) = post(&format!("{url}/api/challenges"), token, challenge);
    assert_eq!(status, 201, "{made}");
    let game = wait_for(30, "Ada's game with the bot", bots, || {
        live_game(url, "Ada")
    });
    let state_url = format!("{url}/api/games/{game}");
    let (status, state) = post(
        &format!("{state_url}/move"),
        token,
        json!({"move": "TE4:0"}),
    );
    assert_eq!(status, 200, "{state}");
    wait_for(secs, "the bot's answer to Ada", bots, || {
        let (_, state) = get(&state_url, None);
        (moves(&state).len() == 2).then_some(())
    });
    (made, state_url)
}

fn rapid(profile: &Value) -> Value {
    profile["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["speed"] == "rapid")
        .cloned()
        .unwrap()
}

#[test]
fn two_bots_play_a_rated_game_through_a_server_restart_and_a_person_s_challenge() {
    let dir = scratch_dir("match");
    let server = Server::start(&dir.join("bots.db"));
    let url = server.url();

    // A bot account made at sign-up, one made from a fresh account, and a person.
    let level_two = bot_with_token(&url, "LevelTwo");
    let scripted = account_with_token(&url, "Scripted");
    let (status, made) = post(&format!("{url}/api/account/bot"), &scripted, json!({}));
    assert_eq!(status, 200, "{made}");
    assert_eq!(made["bot"], true, "{made}");
    let ada = account_with_token(&url, "Ada");
    let (_, profile) = get(&format!("{url}/api/players/LevelTwo"), None);
    assert_eq!(profile["bot"], true, "{profile}");
    let (_, profile) = get(&format!("{url}/api/players/Ada"), None);
    assert_eq!(profile["bot"], false, "{profile}");
    // Bots play by challenges, not in the lobby's seeks and pools.
    let (status, refused) = post(&format!("{url}/api/seeks"), &level_two, json!({"days": 3}));
    assert_eq!(status, 403, "{refused}");
    assert!(
        refused["error"].as_str().unwrap().contains("bot"),
        "{refused}"
    );
    let (status, refused) = post(&format!("{url}/api/pool/5+3"), &scripted, json!({}));
    assert_eq!(status, 403, "{refused}");

    let punct = env!("CARGO_BIN_EXE_punct");
    let a = Bot::start(
        &dir,
        "level-two",
        &url,
        &level_two,
        &["--engine", "level2", "--speeds", "rapid,correspondence"],
    );
    let b = Bot::start(
        &dir,
        "scripted",
        &url,
        &scripted,
        &[
            "--engine",
            &format!("cmd:{punct} engine"),
            "--challenge",
            "LevelTwo",
            "--clock",
            "10+5",
            "--rated",
        ],
    );
    let bots = [&a, &b];
    let game = wait_for(60, "the bots' game", &bots, || live_game(&url, "LevelTwo"));
    let state_url = format!("{url}/api/games/{game}");
    let before = wait_for(120, "six moves of the bots' game", &bots, || {
        let (_, state) = get(&state_url, None);
        let played = moves(&state);
        (played.len() >= 6).then_some(played)
    });

    // The server dies mid-game and comes back: no move it acknowledged is lost, and the
    // bots play on to the end.
    let (addr, db) = server.kill();
    std::thread::sleep(Duration::from_millis(1500));
    let server = Server::on(&addr, &db);
    let end = wait_for(400, "the end of the bots' game", &bots, || {
        let (status, state) = get(&state_url, None);
        (status == 200 && !state["outcome"].is_null()).then_some(state)
    });
    let after = moves(&end);
    assert_eq!(
        &after[..before.len()],
        &before[..],
        "moves lost over the restart"
    );
    assert!(after.len() > before.len(), "{end}");
    assert_eq!(end["outcome"]["termination"], "connection", "{end}");
    for log in [a.log(), b.log()] {
        assert!(log.contains("event stream lost"), "{log}");
        assert!(log.contains(&format!("game {game} over")), "{log}");
    }
    // Rated: both bots' rapid ratings moved, one game each.
    for name in ["LevelTwo", "Scripted"] {
        let (_, profile) = get(&format!("{url}/api/players/{name}"), None);
        let r = rapid(&profile);
        assert_eq!(r["games"], 1, "{profile}");
        assert_ne!(r["rating"], 1500, "{profile}");
    }
    let (_, games) = get(&format!("{url}/api/players/Scripted/games"), None);
    assert_eq!(games["games"][0]["opponent_bot"], true, "{games}");

    // A person's challenge: accepted, played, and the bot answers each move.
    let (challenge, state_url) = challenge_answered(
        &url,
        &ada,
        json!({"to": "LevelTwo", "days": 3, "colour": "white"}),
        &bots,
        60,
    );
    assert_eq!(challenge["to_bot"], true, "{challenge}");
    let (status, state) = post(&format!("{state_url}/resign"), &ada, json!({}));
    assert_eq!(status, 200, "{state}");
    wait_for(30, "the bot to see the game's end", &bots, || {
        a.log().contains(&format!("game {game} over")).then_some(())
    });
    // One the bot's rules exclude (blitz) is declined; an account with games cannot become
    // a bot.
    let (status, challenge) = post(
        &format!("{url}/api/challenges"),
        &ada,
        json!({"to": "LevelTwo", "clock": {"initial": 180, "increment": 2}}),
    );
    assert_eq!(status, 201, "{challenge}");
    let id = challenge["id"].as_str().unwrap().to_owned();
    wait_for(30, "the blitz challenge declined", &bots, || {
        a.log()
            .contains(&format!(
                "declined challenge {id} from Ada: blitz games are not played here"
            ))
            .then_some(())
    });
    let (_, open) = get(&format!("{url}/api/challenges"), Some(&ada));
    assert_eq!(open["outgoing"], json!([]), "{open}");
    let (status, refused) = post(&format!("{url}/api/account/bot"), &ada, json!({}));
    assert_eq!(status, 409, "{refused}");
    drop((a, b, server));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bot_whose_engine_is_gone_resigns_and_says_why() {
    let dir = scratch_dir("gone");
    let server = Server::start(&dir.join("gone.db"));
    let url = server.url();
    let crashy = bot_with_token(&url, "Crashy");
    let ada = account_with_token(&url, "Ada");
    // A program that ends at once: no engine to start, none after starting it again.
    let bot = Bot::start(
        &dir,
        "crashy",
        &url,
        &crashy,
        &["--engine", "cmd:/bin/false"],
    );
    let (status, challenge) = post(
        &format!("{url}/api/challenges"),
        &ada,
        json!({"to": "Crashy", "days": 3, "colour": "black"}),
    );
    assert_eq!(status, 201, "{challenge}");
    // The game may be over before it is seen live: Ada's latest game, live or not.
    let game = wait_for(30, "Ada's game with the bot", &[&bot], || {
        let (_, games) = get(&format!("{url}/api/players/Ada/games"), None);
        games["games"][0]["game"].as_str().map(str::to_owned)
    });
    let end = wait_for(30, "the bot's resignation", &[&bot], || {
        let (_, state) = get(&format!("{url}/api/games/{game}"), None);
        (!state["outcome"].is_null()).then_some(state)
    });
    assert_eq!(end["outcome"]["termination"], "resignation", "{end}");
    assert_eq!(end["outcome"]["winner"], "black", "{end}");
    let log = wait_for(10, "the bot's word on it", &[&bot], || {
        let log = bot.log();
        log.contains(&format!("game {game} stopped: resigned:"))
            .then_some(log)
    });
    assert!(log.contains("/bin/false"), "{log}");
    drop((bot, server));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The speed `speed`'s rating in a profile.
fn rating(profile: &Value, speed: &str) -> Value {
    profile["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["speed"] == speed)
        .cloned()
        .unwrap()
}

#[test]
fn the_site_s_levels_are_rated_bot_accounts_that_spar_and_take_challenges() {
    let dir = scratch_dir("house");
    let options = ["--house-bots", "1,2", "--house-sparring"];
    let server = Server::start_with(&dir.join("house.db"), &options);
    let url = server.url();
    // The levels asked for are bot accounts with their seeded ratings; no other level is.
    let (status, two) = get(&format!("{url}/api/players/punct-level-2"), None);
    assert_eq!(status, 200, "{two}");
    assert_eq!(two["bot"], true, "{two}");
    let correspondence = rating(&two, "correspondence");
    let seed = |n| punct_server::players::house::seed(punct_engine::Level::new(n).unwrap());
    assert_eq!(correspondence["rating"].as_f64(), Some(seed(2)), "{two}");
    assert_eq!(correspondence["provisional"], false, "{two}");
    let (status, _) = get(&format!("{url}/api/players/punct-level-3"), None);
    assert_eq!(status, 404);
    // Nobody can take a house name nor sign in as a house bot.
    let (status, refused, _) = http(
        "POST",
        &format!("{url}/api/account"),
        &[],
        Some(json!({"username": "Punct-Level-3", "password": "a long secret of mine"})),
    );
    assert_eq!(status, 400, "{refused}");
    let (status, refused, _) = http(
        "POST",
        &format!("{url}/api/session"),
        &[("Origin", &url)],
        Some(json!({"username": "punct-level-1", "password": "a long secret of mine"})),
    );
    assert_eq!(status, 401, "{refused}");

    // Sparring: level 1 challenges level 2 to rated blitz games, which move both ratings.
    let (one, two) = wait_for(120, "a sparring game rated", &[], || {
        let (_, one) = get(&format!("{url}/api/players/punct-level-1"), None);
        let (_, two) = get(&format!("{url}/api/players/punct-level-2"), None);
        let played = |p: &Value| rating(p, "blitz")["games"].as_i64().unwrap_or(0) >= 1;
        (played(&one) && played(&two)).then_some((one, two))
    });
    assert_ne!(
        rating(&one, "blitz")["rating"].as_f64(),
        Some(seed(1)),
        "{one}"
    );
    assert_ne!(
        rating(&two, "blitz")["rating"].as_f64(),
        Some(seed(2)),
        "{two}"
    );
    let (_, games) = get(&format!("{url}/api/players/punct-level-1/games"), None);
    let sparred = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| !g["result"].is_null())
        .cloned()
        .unwrap_or_else(|| panic!("{games}"));
    assert_eq!(sparred["opponent"], "punct-level-2", "{sparred}");
    assert_eq!(sparred["opponent_bot"], true, "{sparred}");
    assert_eq!(sparred["rated"], true, "{sparred}");

    // A person's rated challenge to a level is accepted and answered, and again after the
    // server restarts (the house bots play on with new tokens).
    let ada = account_with_token(&url, "Ada");
    let (challenge, state_url) = challenge_answered(
        &url,
        &ada,
        json!({"to": "punct-level-1", "days": 3, "colour": "white", "rated": true}),
        &[],
        30,
    );
    assert_eq!(challenge["to_bot"], true, "{challenge}");
    let (addr, db) = server.kill();
    let server = Server::on_with(&addr, &db, &options);
    let (_, state) = get(&state_url, None);
    let position: String = state["position"]
        .as_str()
        .unwrap()
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => char::from(b).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    let (_, legal) = get(&format!("{url}/api/legal?position={position}"), None);
    let (status, state) = post(
        &format!("{state_url}/move"),
        &ada,
        json!({"move": legal["moves"][0], "seq": state["seq"]}),
    );
    assert_eq!(status, 200, "{state}");
    wait_for(30, "level 1's answer after the restart", &[], || {
        let (_, state) = get(&state_url, None);
        (moves(&state).len() == 4).then_some(())
    });
    let (_, games) = get(&format!("{url}/api/players/Ada/games"), None);
    assert_eq!(games["games"][0]["opponent_bot"], true, "{games}");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn punct_house_plays_the_levels_from_another_process() {
    // Another machine's process shares the server's database: PostgreSQL (an SQLite file
    // is its one server's).
    let Some(pg) = pg_cluster::Cluster::start("punct house") else {
        return;
    };
    let dir = scratch_dir("house-apart");
    let db = Path::new(&pg.url);
    let server = Server::start_with(db, &["--house-bots", "none"]);
    let url = server.url();
    let (status, _) = get(&format!("{url}/api/players/punct-level-3"), None);
    assert_eq!(status, 404, "the server made a house bot");
    let log = dir.join("house.log");
    let mut house = Command::new(env!("CARGO_BIN_EXE_punct"))
        .args(["house", "--server", &url, "--levels", "3", "--db", &pg.url])
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let ada = account_with_token(&url, "Ada");
    let answered = || {
        let (status, three) = wait_for(30, "level 3's account", &[], || {
            let (status, three) = get(&format!("{url}/api/players/punct-level-3"), None);
            (status == 200).then_some((status, three))
        });
        assert_eq!((status, &three["bot"]), (200, &json!(true)), "{three}");
        challenge_answered(
            &url,
            &ada,
            json!({"to": "punct-level-3", "days": 1, "colour": "white"}),
            &[],
            30,
        );
    };
    let played = std::panic::catch_unwind(answered);
    let _ = house.kill();
    let _ = house.wait();
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(played.is_ok(), "punct house's log:\n{text}");
    assert!(text.contains("accepted challenge"), "{text}");
    drop((server, pg));
    let _ = std::fs::remove_dir_all(&dir);
}
