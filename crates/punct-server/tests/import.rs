//! Records in and out over HTTP: `POST /api/import` reads punct's records, positions,
//! Boardspace SGF files (one game or many) and `.zip` archives, and says which games it
//! could not read and why; `POST /api/record` writes the record of a game the page holds.

mod common;

use std::io::Write as _;
use std::path::PathBuf;

use common::*;
use punct_core::Record;
use serde_json::{Value, json};

/// The 22 Boardspace records of punct-core's test data, with their expected moves.
fn boardspace() -> Vec<(String, String, String)> {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../punct-core/tests/data/boardspace-sgf");
    let tsv = std::fs::read_to_string(dir.join("expected.tsv")).unwrap();
    tsv.lines()
        .skip(1)
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let text = std::fs::read_to_string(dir.join(fields[0])).unwrap();
            (fields[0].to_owned(), text, fields[9].to_owned())
        })
        .collect()
}

/// A `.zip` archive of `files` (name, bytes), compressed as archivers do.
fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in files {
        if name.ends_with('/') {
            writer.add_directory(*name, options).unwrap();
        } else {
            writer.start_file(*name, options).unwrap();
            writer.write_all(bytes).unwrap();
        }
    }
    writer.finish().unwrap().into_inner()
}

/// Posts `body` typed `content_type` to `/api/import`.
async fn post_raw(base: &str, content_type: &str, body: Vec<u8>) -> (u16, Value) {
    let resp = reqwest::Client::new()
        .post(format!("{base}/api/import"))
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap())
}

async fn import_text(base: &str, text: &str) -> (u16, Value) {
    post(&format!("{base}/api/import"), None, json!({ "text": text })).await
}

fn moves_of(game: &Value) -> String {
    let moves: Vec<&str> = game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    moves.join(" ")
}

/// A game of the answer: its record reads back to the same moves and tags.
fn check_record(game: &Value) {
    let record = Record::parse(game["record"].as_str().unwrap())
        .unwrap_or_else(|e| panic!("{e}\n{}", game["record"]));
    let moves: Vec<String> = record.moves.iter().map(|m| m.mv.to_string()).collect();
    assert_eq!(moves.join(" "), moves_of(game));
    for (name, value) in &record.tags {
        assert_eq!(game["tags"][name], value.as_str(), "{name}");
    }
}

#[tokio::test]
async fn every_boardspace_record_imports_with_its_moves_and_names() {
    let base = start_in_process(&temp_db("import-sgf")).await;
    for (file, text, moves) in boardspace() {
        let (status, v) = import_text(&base, &text).await;
        assert_eq!(status, 200, "{file}: {v}");
        assert_eq!(v["skipped"], json!([]), "{file}");
        let game = &v["games"][0];
        assert_eq!(moves_of(game), moves, "{file}");
        check_record(game);
        let white = game["tags"]["White"].as_str().unwrap();
        let black = game["tags"]["Black"].as_str().unwrap();
        assert_eq!(game["name"], format!("{white} vs {black}, 2026.11.25"));
        assert!(["punct level 6", "boardspace-smartbot"].contains(&white));
        assert_eq!(
            game["numbers"].as_array().unwrap().len(),
            game["moves"].as_array().unwrap().len()
        );
    }
}

#[tokio::test]
async fn a_multi_game_file_and_an_archive_give_every_game_in_order() {
    let base = start_in_process(&temp_db("import-many")).await;
    let records = boardspace();
    let all: String = records.iter().map(|(_, text, _)| text.as_str()).collect();
    let (status, v) = import_text(&base, &all).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["games"].as_array().unwrap().len(), 22);
    for (game, (file, _, moves)) in v["games"].as_array().unwrap().iter().zip(&records) {
        assert_eq!(&moves_of(game), moves, "{file}");
    }

    // One game per entry, as Boardspace's archive keeps them, in a folder; a punct record
    // file of two games among them; an entry that is no game; and the Finder's extras.
    let two = "[Variant \"basic\"]\n[White \"Ada\"]\n\n1. TE4:0 *\n\n\
               [Position \"standard b 1 wTE4:0@1\"]\n\n1... TK5:0 *\n";
    let mut files: Vec<(String, Vec<u8>)> = vec![("games/".into(), vec![])];
    for (file, text, _) in &records[..3] {
        files.push((format!("games/{file}"), text.clone().into_bytes()));
    }
    files.push(("games/two.pgn".into(), two.as_bytes().to_vec()));
    files.push((
        "games/logo.png".into(),
        vec![0x89, b'P', b'N', b'G', 0xff, 0xfe],
    ));
    files.push(("__MACOSX/games/._x.sgf".into(), vec![0, 5, 22, 7]));
    files.push((
        format!("games/{}", records[3].0),
        records[3].1.clone().into_bytes(),
    ));
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let (status, v) = post_raw(&base, "application/zip", zip_of(&refs)).await;
    assert_eq!(status, 200, "{v}");
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 6, "{v}");
    for (i, (file, _, moves)) in records[..3].iter().enumerate() {
        assert_eq!(&moves_of(&games[i]), moves);
        assert_eq!(games[i]["file"], format!("games/{file}"));
    }
    assert_eq!(games[3]["tags"]["Variant"], "basic");
    assert_eq!(games[4]["start"], "standard b 1 wTE4:0@1");
    assert_eq!(games[4]["numbers"], json!([1]));
    assert_eq!(moves_of(&games[5]), records[3].2);
    for game in games {
        check_record(game);
    }
    assert_eq!(
        v["skipped"],
        json!([{ "game": 6, "file": "games/logo.png", "code": "not_text",
                 "reason": "not text (UTF-8): expected a game record, an SGF file or a position" }])
    );
    // Windows names the type its own way.
    let (status, _) = post_raw(&base, "application/x-zip-compressed", zip_of(&refs)).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn damaged_games_are_named_with_the_reason_and_the_rest_is_read() {
    let base = start_in_process(&temp_db("import-damaged")).await;
    let records = boardspace();
    let damaged = records[1].1.replacen("Dropb ", "Dropb 9", 1);
    let text = format!("{}{damaged}{}", records[0].1, records[2].1);
    let (status, v) = import_text(&base, &text).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["games"].as_array().unwrap().len(), 2);
    let skipped = v["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1, "{v}");
    assert_eq!(skipped[0]["game"], 2);
    let reason = skipped[0]["reason"].as_str().unwrap();
    assert!(reason.starts_with("Boardspace SGF, line "), "{reason}");
    assert!(
        reason.contains("does not exist: pieces are numbered 0 to 37"),
        "{reason}"
    );
    // The same in punct's own records: the bad game and its line.
    let good = "[White \"a\"]\n\n1. TE4:0 *\n";
    let bad = "[White \"b\"]\n\n1. TE4:0 TE4:0 *\n";
    let (status, v) = import_text(&base, &format!("{good}\n{bad}\n{good}")).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["games"].as_array().unwrap().len(), 2);
    assert_eq!(v["skipped"][0]["game"], 2);
    assert!(
        v["skipped"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("record line 7: move 2 `TE4:0`"),
        "{v}"
    );
}

#[tokio::test]
async fn an_import_that_reads_nothing_is_refused_with_the_reasons() {
    let base = start_in_process(&temp_db("import-nothing")).await;
    let (status, v) = import_text(&base, "nonsense").await;
    assert_eq!(status, 400, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("no game could be read: not a game record"),
        "{v}"
    );
    let (status, v) = import_text(&base, "(;GM[1])(;GM[25]VV[9])").await;
    assert_eq!(status, 400, "{v}");
    let error = v["error"].as_str().unwrap();
    assert!(
        error.contains("game 1: Boardspace SGF, line 1: GM[1]"),
        "{error}"
    );
    assert!(
        error.contains("game 2: Boardspace SGF, line 1: record version VV[9]"),
        "{error}"
    );
    let (status, v) = post_raw(&base, "application/zip", b"PK not really".to_vec()).await;
    assert_eq!(status, 400, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("not a .zip archive"),
        "{v}"
    );
    let (status, v) = post_raw(&base, "application/zip", zip_of(&[("a/", &[][..])])).await;
    assert_eq!(status, 400, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("holds no file"),
        "{v}"
    );
    let (status, v) = post(&format!("{base}/api/import"), None, json!({})).await;
    assert_eq!(status, 400, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("missing `text`"),
        "{v}"
    );
}

/// An archive is taken only as `/api/import`'s raw body with an archive's type (which no
/// form on another site can send), and up to the import's own size limit.
#[tokio::test]
async fn archives_need_their_type_and_fit_the_import_limit() {
    let base = start_in_process_with(&temp_db("import-limits"), |config| {
        config.max_body_bytes = 1024;
        config.max_import_bytes = 64 * 1024;
    })
    .await;
    let records = boardspace();
    let files: Vec<(&str, &[u8])> = records
        .iter()
        .map(|(name, text, _)| (name.as_str(), text.as_bytes()))
        .collect();
    let archive = zip_of(&files);
    assert!(archive.len() > 1024 && archive.len() < 64 * 1024);
    let (status, v) = post_raw(&base, "application/zip", archive.clone()).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["games"].as_array().unwrap().len(), 22);
    for ty in [
        "text/plain",
        "application/octet-stream",
        "multipart/form-data",
    ] {
        let (status, v) = post_raw(&base, ty, archive.clone()).await;
        assert_eq!(status, 415, "{ty}: {v}");
    }
    let resp = reqwest::Client::new()
        .post(format!("{base}/api/games"))
        .header("content-type", "application/zip")
        .body(archive)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 415);
    let (status, v) = post_raw(&base, "application/zip", vec![0; 65 * 1024]).await;
    assert_eq!(status, 413, "{v}");
    assert!(v["error"].as_str().unwrap().contains("65536 bytes"), "{v}");
    // Other routes keep the general limit.
    let (status, _) = post(
        &format!("{base}/api/record"),
        None,
        json!({ "tags": { "Event": "x".repeat(2000) } }),
    )
    .await;
    assert_eq!(status, 413);
}

#[tokio::test]
async fn records_are_written_by_the_server_and_read_back() {
    let base = start_in_process(&temp_db("record")).await;
    let client = reqwest::Client::new();
    let write = |body: Value| {
        let client = client.clone();
        let url = format!("{base}/api/record");
        async move {
            let resp = client.post(url).json(&body).send().await.unwrap();
            let status = resp.status().as_u16();
            let ty = resp.headers()["content-type"].to_str().unwrap().to_owned();
            (status, ty, resp.text().await.unwrap())
        }
    };
    let (status, ty, text) = write(json!({
        "start": "basic b 5 wTE4:0@1,bTK5:0@1,bEM12:3@1,wTE4:0@2",
        "variant": "basic",
        "moves": ["K5-K9:0", "TC2:0"],
        "tags": { "White": "Ada", "Black": "Bo", "Date": "2026.11.22", "Result": "1-0",
                  "Termination": "time forfeit", "Site": "the club" },
    }))
    .await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(ty, "text/plain; charset=utf-8");
    assert!(text.contains("\n3... K5-K9:0 4. TC2:0 1-0\n"), "{text}");
    let read = Record::parse(&text).unwrap();
    assert_eq!(read.tag("Variant"), Some("basic"));
    assert_eq!(read.tag("Site"), Some("the club"));
    assert_eq!(read.game.outcome().unwrap().result_token(), "1-0");

    // The record written imports as the same game with every tag, and the imported game's
    // parts write the same record again: an exported imported game reads back.
    let (status, v) = import_text(&base, &text).await;
    assert_eq!(status, 200, "{v}");
    let game = &v["games"][0];
    assert_eq!(game["record"], text.as_str());
    assert_eq!(game["name"], "Ada vs Bo, 2026.11.22");
    assert_eq!(game["outcome"]["result"], "1-0");
    let (status, _, again) = write(json!({
        "start": game["start"], "moves": game["moves"], "tags": game["tags"],
    }))
    .await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again, text);

    for (body, needle) in [
        (json!({ "moves": ["TE4:0", "TQ20:0"] }), "move 2 `TQ20:0`"),
        (json!({ "moves": ["TI9:0"] }), "central hexagon"),
        (json!({ "tags": { "Result": "won" } }), "tag Result `won`"),
        (
            json!({ "tags": { "Variant": "basic" } }),
            "tag Variant `basic` differs",
        ),
        (json!({ "tags": { "White": 3 } }), "bad JSON body"),
        (json!({ "players": [] }), "unknown field `players`"),
    ] {
        let (status, _, text) = write(body.clone()).await;
        assert_eq!(status, 400, "{body}: {text}");
        let v: Value = serde_json::from_str(&text).unwrap();
        assert!(v["error"].as_str().unwrap().contains(needle), "{body}: {v}");
    }
}
