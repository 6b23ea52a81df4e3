//! Records written for the page: it sends a game as it holds it (a start, the moves, the
//! tags) and gets back the record text punct-core writes, so that the page never writes
//! records itself and every record it offers reads back.

use std::collections::BTreeMap;

use punct_core::{Game, Move, Position, Record, Variant};
use serde::Deserialize;

use crate::error::Error;

/// A game to write as a record.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordRequest {
    /// The starting position's text; the empty board of `variant` when absent.
    pub start: Option<String>,
    /// `standard` (default) or `basic`; must agree with `start` when both are given.
    pub variant: Option<String>,
    /// The moves played from the start, as move text.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Tag pairs (`White`, `Black`, `Date`, `Result`, `Termination`, any other).
    #[serde(default)]
    pub tags: BTreeMap<String, String>,
}

/// The record of `req`, as punct-core writes it: `Game`, `Variant`, `White`, `Black`,
/// `Date`, `Result`, `Termination` (once the game has ended) and `Position` (when it did not
/// start from the empty board) first, then the other tags by name. Refuses, naming it, a
/// bad start, move or tag, and tags that contradict the moves.
pub fn write(req: &RecordRequest) -> Result<String, Error> {
    let variant = match req.variant.as_deref() {
        None => None,
        Some(name) => Some(Variant::from_name(name).ok_or_else(|| {
            Error::bad_request(format!(
                "unknown variant `{name}`: expected basic or standard"
            ))
        })?),
    };
    let start = match req.start.as_deref().map(str::trim) {
        Some(text) if !text.is_empty() => {
            let start = Position::from_text(text)
                .map_err(|e| Error::bad_request(format!("bad start position: {e}")))?;
            if let Some(variant) = variant.filter(|&v| v != start.variant()) {
                return Err(Error::bad_request(format!(
                    "variant `{variant}` differs from the start position's `{}`",
                    start.variant()
                )));
            }
            start
        }
        _ => Position::new(variant.unwrap_or(Variant::Standard)),
    };
    let mut game = Game::from_position(start);
    for (i, text) in req.moves.iter().enumerate() {
        let bad = |why: String| Error::bad_request(format!("move {} `{text}`: {why}", i + 1));
        let mv = Move::parse(text.trim()).map_err(|e| bad(e.to_string()))?;
        game.play(mv).map_err(|e| bad(e.to_string()))?;
    }
    let mut record = Record::from_game(game, "?", "?", "????.??.??");
    for (name, value) in &req.tags {
        check_tag(&record, name, value)?;
        record.set_tag(name, value);
    }
    let text = record.to_string();
    // What the tags say must fit what the moves did (a Result against the board's ending):
    // the reader is the judge, so a record written here always reads back.
    Record::parse(&text)
        .map_err(|e| Error::bad_request(format!("the tags do not fit the game: {}", e.message)))?;
    Ok(text)
}

/// Refuses a tag the record cannot carry, or one that contradicts the start.
fn check_tag(record: &Record, name: &str, value: &str) -> Result<(), Error> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(Error::bad_request(format!(
            "tag name `{name}`: only letters, digits and _ may be used"
        )));
    }
    let fixed = match name {
        "Game" | "Variant" => record.tag(name).map(str::to_owned),
        "Position" => Some(record.game.start().to_string()),
        "Result" if !matches!(value, "1-0" | "0-1" | "1/2-1/2" | "*") => {
            return Err(Error::bad_request(format!(
                "tag Result `{value}`: expected 1-0, 0-1, 1/2-1/2 or *"
            )));
        }
        _ => None,
    };
    match fixed {
        Some(fixed) if fixed != value.trim() => Err(Error::bad_request(format!(
            "tag {name} `{value}` differs from the game's `{fixed}` (it follows from `start` and `variant`)"
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: serde_json::Value) -> RecordRequest {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn a_basic_game_from_black_to_move_reads_back_with_its_tags() {
        let req = request(serde_json::json!({
            "start": "basic b 5 wTE4:0@1,bTK5:0@1,bEM12:3@1,wTE4:0@2",
            "moves": ["K5-K9:0", "TC2:0"],
            "tags": {"White": "Ada", "Black": "Bo", "Date": "2026.11.22",
                     "Result": "0-1", "Termination": "resignation", "Event": "club night"},
        }));
        let text = write(&req).unwrap();
        let read = Record::parse(&text).unwrap();
        assert_eq!(read.to_string(), text);
        for (name, value) in [
            ("Variant", "basic"),
            ("White", "Ada"),
            ("Black", "Bo"),
            ("Date", "2026.11.22"),
            ("Result", "0-1"),
            ("Termination", "resignation"),
            ("Event", "club night"),
        ] {
            assert_eq!(read.tag(name), Some(value), "{text}");
        }
        assert!(text.contains("\n3... K5-K9:0 4. TC2:0 0-1\n"), "{text}");
        assert_eq!(read.game.outcome().unwrap().result_token(), "0-1");
    }

    #[test]
    fn bad_requests_name_the_move_or_tag() {
        let cases = [
            (
                serde_json::json!({"variant": "giant"}),
                "unknown variant `giant`",
            ),
            (
                serde_json::json!({"start": "standard w 0 -", "variant": "basic"}),
                "differs from the start position's",
            ),
            (
                serde_json::json!({"start": "standard x"}),
                "bad start position",
            ),
            (
                serde_json::json!({"moves": ["TE4:0", "TE4:0"]}),
                "move 2 `TE4:0`: illegal",
            ),
            (
                serde_json::json!({"moves": ["zz"]}),
                "move 1 `zz`: malformed",
            ),
            (
                serde_json::json!({"tags": {"Bad name": "x"}}),
                "tag name `Bad name`",
            ),
            (
                serde_json::json!({"tags": {"Result": "white"}}),
                "tag Result `white`",
            ),
            (
                serde_json::json!({"tags": {"Variant": "basic"}}),
                "tag Variant `basic` differs",
            ),
            (
                serde_json::json!({"tags": {"Position": "standard b 1 wTE4:0@1"}}),
                "tag Position",
            ),
            (
                serde_json::json!({
                    "start": "standard w 14 wTA8:5@1,wEB9:5@1,wEE9:5@1,wEH9:5@1,bTK5:0@1,wCL9:2@1,wCO9:2@1,wEH9:5@2",
                    "moves": ["TQ10:2"],
                    "tags": {"Result": "0-1"},
                }),
                "the tags do not fit the game: result `0-1` but the game ended: White wins by connection",
            ),
        ];
        for (json, needle) in cases {
            let err = write(&request(json.clone())).unwrap_err();
            assert!(err.reason.contains(needle), "{json}: {}", err.reason);
        }
    }

    #[test]
    fn tags_that_agree_with_the_game_are_taken() {
        let req = request(serde_json::json!({
            "variant": "basic",
            "moves": ["TE4:0"],
            "tags": {"Game": "PÜNCT", "Variant": "basic"},
        }));
        let text = write(&req).unwrap();
        assert!(text.starts_with("[Game \"PÜNCT\"]\n[Variant \"basic\"]\n[White \"?\"]"));
    }
}
