//! The pictures' addresses over real HTTP: a game's position and animation, any position,
//! their caching, their refusals, and the link preview in a game's page.

mod common;

use common::*;
use serde_json::{Value, json};

struct Got {
    status: u16,
    headers: reqwest::header::HeaderMap,
    body: Vec<u8>,
}

impl Got {
    fn header(&self, name: &str) -> &str {
        self.headers.get(name).map_or("", |v| v.to_str().unwrap())
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    /// The width and height a PNG's header gives.
    fn png_size(&self) -> (u32, u32) {
        assert!(self.body.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
        let word = |at: usize| u32::from_be_bytes(self.body[at..at + 4].try_into().unwrap());
        (word(16), word(20))
    }
}

async fn fetch(url: &str, headers: &[(&str, &str)]) -> Got {
    let client = reqwest::Client::new();
    let mut req = client.get(url);
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    let resp = req.send().await.expect("the server answers");
    Got {
        status: resp.status().as_u16(),
        headers: resp.headers().clone(),
        body: resp.bytes().await.unwrap().to_vec(),
    }
}

/// A game on one screen with `moves` placements played: (id, token).
async fn local_game(base: &str, moves: usize) -> (String, String) {
    let (id, token) = create(base, json!({ "mode": "local" })).await;
    for i in 0..moves {
        let (_, state) = get(&format!("{base}/api/games/{id}"), None).await;
        let mv = pick_move(base, state["position"].as_str().unwrap(), i).await;
        let (status, v) = play_move(base, &id, &token, &mv).await;
        assert_eq!(status, 200, "{mv}: {v}");
    }
    (id, token)
}

#[tokio::test]
async fn a_games_position_is_a_png_revalidated_while_the_game_goes_on() {
    let base = start_in_process(&temp_db("pictures-png")).await;
    let (id, _) = local_game(&base, 3).await;
    let got = fetch(&format!("{base}/g/{id}/image.png"), &[]).await;
    assert_eq!(got.status, 200, "{:?}", got.json());
    assert_eq!(got.header("content-type"), "image/png");
    assert_eq!(got.png_size(), (1200, 630));
    assert_eq!(got.header("cache-control"), "no-cache");
    let tag = got.header("etag").to_owned();
    assert!(tag.starts_with('"'), "{tag}");
    let again = fetch(
        &format!("{base}/g/{id}/image.png"),
        &[("if-none-match", &tag)],
    )
    .await;
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    // An earlier move's position is another picture.
    let first = fetch(&format!("{base}/g/{id}/image.png?ply=1"), &[]).await;
    assert_eq!(first.status, 200);
    assert_ne!(first.header("etag"), tag);
    assert_ne!(first.body, got.body);
    let start = fetch(&format!("{base}/g/{id}/image.png?ply=0"), &[]).await;
    assert_eq!(start.status, 200);
}

#[tokio::test]
async fn a_finished_games_pictures_are_kept_for_good() {
    let base = start_in_process(&temp_db("pictures-finished")).await;
    let (id, token) = local_game(&base, 4).await;
    let (status, v) = post(
        &format!("{base}/api/games/{id}/resign"),
        Some(&token),
        json!({}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    for path in ["image.png", "image.png?ply=2", "game.gif"] {
        let got = fetch(&format!("{base}/g/{id}/{path}"), &[]).await;
        assert_eq!(got.status, 200, "{path}");
        assert!(got.header("cache-control").contains("immutable"), "{path}");
    }
}

#[tokio::test]
async fn a_game_is_an_animated_gif() {
    let base = start_in_process(&temp_db("pictures-gif")).await;
    let (id, _) = local_game(&base, 4).await;
    let got = fetch(&format!("{base}/g/{id}/game.gif"), &[]).await;
    assert_eq!(got.status, 200, "{:?}", got.json());
    assert_eq!(got.header("content-type"), "image/gif");
    assert!(got.body.starts_with(b"GIF89a"));
    // The start and four moves: five image descriptors (0x2C after a graphic control block).
    let frames = got.body.windows(2).filter(|w| w == &[0x00, 0x2C]).count();
    assert!(frames >= 5, "{frames} frames");
    let again = fetch(
        &format!("{base}/g/{id}/game.gif"),
        &[("if-none-match", got.header("etag"))],
    )
    .await;
    assert_eq!(again.status, 304);
}

#[tokio::test]
async fn any_position_is_a_png() {
    let base = start_in_process(&temp_db("pictures-position")).await;
    let url = reqwest::Url::parse_with_params(
        &format!("{base}/image.png"),
        [(
            "position",
            "standard b 5 wTE4:0@1,bTK5:0@1,bEM12:3@1,wTE4:0@2",
        )],
    )
    .unwrap();
    let got = fetch(url.as_str(), &[]).await;
    assert_eq!(got.status, 200, "{:?}", got.json());
    assert_eq!(got.png_size(), (1200, 630));
    assert!(got.header("cache-control").contains("immutable"));
}

#[tokio::test]
async fn bad_requests_are_refused_in_words() {
    let base = start_in_process(&temp_db("pictures-refused")).await;
    let (id, _) = local_game(&base, 2).await;
    let bad_position = reqwest::Url::parse_with_params(
        &format!("{base}/image.png"),
        [("position", "standard x 0 -")],
    )
    .unwrap();
    for (url, status, words) in [
        (
            format!("{base}/g/{id}/image.png?ply=3"),
            400,
            "past the end of the game, which has 2 moves",
        ),
        (
            format!("{base}/g/{id}/image.png?ply=-1"),
            400,
            "`ply` is a number of moves, not `-1`",
        ),
        (format!("{base}/g/{id}/image.png?ply=two"), 400, "not `two`"),
        (format!("{base}/g/ffff0000/image.png"), 404, "no game"),
        (format!("{base}/g/ffff0000/game.gif"), 404, "no game"),
        (format!("{base}/g/..%2F..%2Fetc/image.png"), 404, "no game"),
        (format!("{base}/image.png"), 400, "missing `position`"),
        (bad_position.to_string(), 400, "bad position text"),
    ] {
        let got = fetch(&url, &[]).await;
        assert_eq!(got.status, status, "{url}");
        assert_eq!(got.header("content-type"), "application/json", "{url}");
        let error = got.json()["error"].as_str().unwrap_or_default().to_owned();
        assert!(error.contains(words), "{url}: {error}");
    }
}

#[tokio::test]
async fn a_games_page_carries_its_link_preview() {
    let base = start_in_process(&temp_db("pictures-page")).await;
    let (id, _) = local_game(&base, 2).await;
    let got = fetch(&format!("{base}/g/{id}"), &[]).await;
    assert_eq!(got.status, 200);
    assert_eq!(got.header("content-type"), "text/html; charset=utf-8");
    let page = String::from_utf8(got.body).unwrap();
    let host = base.trim_start_matches("http://");
    for tag in [
        format!("<meta property=\"og:image\" content=\"http://{host}/g/{id}/image.png\">"),
        format!("<meta property=\"og:url\" content=\"http://{host}/g/{id}\">"),
        "<meta name=\"twitter:card\" content=\"summary_large_image\">".to_owned(),
        "<meta property=\"og:description\" content=\"Move 2: White to move.\">".to_owned(),
    ] {
        assert!(page.contains(&tag), "{tag} missing from the page's head");
    }
    assert!(
        page.contains("<meta property=\"og:title\" content=\"PÜNCT: "),
        "a title"
    );
    assert!(page.find("og:image").unwrap() < page.find("</head>").unwrap());
    // In the reader's language.
    let french = fetch(
        &format!("{base}/g/{id}"),
        &[("accept-language", "fr-FR,fr;q=0.9")],
    )
    .await;
    let page = String::from_utf8(french.body).unwrap();
    assert!(page.contains("Coup 2 : aux Blancs de jouer."), "French");
    // No such game: the page, which says so, without a preview.
    let missing = fetch(&format!("{base}/g/ffff0000"), &[]).await;
    assert_eq!(missing.status, 200);
    assert!(
        !String::from_utf8(missing.body)
            .unwrap()
            .contains("og:image")
    );
}
