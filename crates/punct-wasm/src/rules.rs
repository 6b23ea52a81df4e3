//! What the rules answer the page: a position's legal moves, whether a move is legal there
//! (and what follows it), and a whole game replayed, as `GET /api/legal` and the server's
//! game state answer them.

use punct_core::{Game, Move, Outcome, Position, Record, Termination};
use serde::{Deserialize, Serialize};

use crate::outcome::{OutcomeView, colour_name, colour_of};

/// The answers of this module, written as JSON.
#[derive(Serialize)]
#[serde(untagged)]
enum Answer {
    Moves {
        moves: Vec<String>,
    },
    Legal {
        r#move: String,
        legal: bool,
        canonical: String,
        position: String,
        outcome: Option<OutcomeView>,
    },
    Illegal {
        r#move: String,
        legal: bool,
        reason: String,
    },
    Game(GameView),
    Record {
        record: String,
    },
    Refused {
        error: String,
    },
}

/// A game replayed: the moves as the rules write them, the position before the first and
/// after each, and where it stands now.
#[derive(Serialize)]
struct GameView {
    moves: Vec<String>,
    positions: Vec<String>,
    position: String,
    turn: &'static str,
    centre: Centre,
    outcome: Option<OutcomeView>,
}

/// Pieces on the central hexagon, per colour.
#[derive(Serialize)]
struct Centre {
    white: u32,
    black: u32,
}

/// A game to replay: its start, its moves, and how it ended off the board, if it did.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameRequest {
    start: String,
    #[serde(default)]
    moves: Vec<String>,
    end: Option<End>,
}

/// A game to write as a record: the game, and its players' names and date for the tags.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordRequest {
    start: String,
    #[serde(default)]
    moves: Vec<String>,
    end: Option<End>,
    white: String,
    black: String,
    date: String,
}

/// An end off the board: a resignation, an agreed draw.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct End {
    winner: Option<String>,
    termination: String,
}

/// `answer` as JSON text.
fn json(answer: &Answer) -> String {
    // Strings, numbers and lists of them: serde_json cannot fail on them.
    serde_json::to_string(answer).unwrap_or_default()
}

/// The answer that names what is wrong.
pub(crate) fn refused(error: String) -> String {
    json(&Answer::Refused { error })
}

/// The position a text gives, or why it gives none.
pub(crate) fn position(text: &str) -> Result<Position, String> {
    Position::from_text(text.trim()).map_err(|e| format!("bad position text: {e}"))
}

/// The game from `start` (a position text) through `moves` (move texts), or what is wrong
/// with them: the first move that does not parse or is not legal, by its number.
pub(crate) fn replay(start: &str, moves: &[String]) -> Result<Game, String> {
    let mut game = Game::from_position(position(start)?);
    for (i, text) in moves.iter().enumerate() {
        let mv = Move::parse(text.trim())
            .map_err(|e| format!("move {} `{text}` is no move: {e}", i + 1))?;
        game.play(mv).map_err(|e| format!("move {}: {e}", i + 1))?;
    }
    Ok(game)
}

/// The legal moves of the position `text` (a position text), as JSON: `{"moves": [...]}` in
/// the rules' canonical order, or `{"error": "..."}` naming what is wrong with the text.
pub fn legal_moves_json(text: &str) -> String {
    match position(text) {
        Ok(pos) => json(&Answer::Moves {
            moves: pos.legal_move_texts(),
        }),
        Err(error) => refused(error),
    }
}

/// Whether a move is legal, for `{"position": "…", "move": "…"}`, as
/// `GET /api/legal?position=…&move=…` answers it: a legal move with its canonical text, the
/// position after it and the outcome it brings; an illegal one with the rules' reason (in
/// English: the codes that translate it are the server's).
pub fn check_move_json(request: &str) -> String {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Check {
        position: String,
        r#move: String,
    }
    let check: Check = match serde_json::from_str(request) {
        Ok(c) => c,
        Err(e) => return refused(format!("bad request: {e}")),
    };
    let mut pos = match position(&check.position) {
        Ok(pos) => pos,
        Err(error) => return refused(error),
    };
    let text = check.r#move;
    let mv = match Move::parse(text.trim()) {
        Ok(mv) => mv,
        Err(e) => return refused(format!("bad move text `{text}`: {e}")),
    };
    json(&match pos.check(mv) {
        Ok(canonical) => {
            pos.make(canonical);
            Answer::Legal {
                r#move: text,
                legal: true,
                canonical: canonical.to_string(),
                outcome: pos.outcome().map(|o| OutcomeView::of(&o, &pos)),
                position: pos.to_string(),
            }
        }
        Err(reason) => Answer::Illegal {
            r#move: text,
            legal: false,
            reason: reason.to_string(),
        },
    })
}

/// A game replayed, for `{"start": "…", "moves": [...], "end": {"winner", "termination"}}`
/// (`end` for a resignation or an agreed draw, ignored once the board has ended the game):
/// the canonical moves, the positions before and after each, the side to move, the centre
/// count and the outcome; or `{"error": …}` naming the first move that is not legal.
pub fn game_json(request: &str) -> String {
    let game = match serde_json::from_str(request) {
        Ok(GameRequest { start, moves, end }) => played(&start, &moves, end.as_ref()),
        Err(e) => Err(format!("bad request: {e}")),
    };
    let game = match game {
        Ok(game) => game,
        Err(error) => return refused(error),
    };
    let pos = game.position();
    let [white, black] = pos.centre_count();
    let mut positions = Vec::with_capacity(game.moves().len() + 1);
    let mut at = game.start().clone();
    positions.push(at.to_string());
    for &mv in game.moves() {
        at.make(mv);
        positions.push(at.to_string());
    }
    json(&Answer::Game(GameView {
        moves: game.moves().iter().map(Move::to_string).collect(),
        positions,
        position: pos.to_string(),
        turn: colour_name(pos.turn()),
        centre: Centre { white, black },
        outcome: game.outcome().map(|o| OutcomeView::of(&o, pos)),
    }))
}

/// A game's record (the text `GET /api/games/{id}/record` gives), for `{"start", "moves",
/// "end", "white", "black", "date"}` (the game as [`game_json`] takes it, the players' names
/// and the date, `2026.05.01`, for its tags): `{"record": "…"}`, or `{"error": …}`.
pub fn record_json(request: &str) -> String {
    let request: RecordRequest = match serde_json::from_str(request) {
        Ok(r) => r,
        Err(e) => return refused(format!("bad request: {e}")),
    };
    match played(&request.start, &request.moves, request.end.as_ref()) {
        Ok(game) => json(&Answer::Record {
            record: Record::from_game(game, &request.white, &request.black, &request.date)
                .to_string(),
        }),
        Err(error) => refused(error),
    }
}

/// The game from `start` through `moves`, ended off the board by `end` if it is not over.
fn played(start: &str, moves: &[String], end: Option<&End>) -> Result<Game, String> {
    let mut game = replay(start, moves)?;
    if let Some(end) = end
        && game.outcome().is_none()
    {
        game.end(ended(end)?);
    }
    Ok(game)
}

/// The outcome an end off the board names: only the ends a player makes (a resignation, an
/// agreed draw), never one the board decides.
fn ended(end: &End) -> Result<Outcome, String> {
    let winner = match end.winner.as_deref() {
        None => None,
        Some(name) => Some(colour_of(name).ok_or_else(|| format!("no colour `{name}`"))?),
    };
    let termination = match Termination::from_name(&end.termination) {
        Some(t @ Termination::Resignation) if winner.is_some() => t,
        Some(t @ Termination::Agreement) if winner.is_none() => t,
        _ => {
            return Err(format!(
                "`{}` with {} is no end a player makes: a resignation has a winner, an agreed draw none",
                end.termination,
                end.winner.as_deref().unwrap_or("no winner")
            ));
        }
    };
    Ok(Outcome {
        winner,
        termination,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> serde_json::Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn a_position_answers_its_legal_moves_in_the_rules_order() {
        let v = value(&legal_moves_json("standard w 0 -"));
        let moves: Vec<&str> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let expected = Position::from_text("standard w 0 -")
            .unwrap()
            .legal_move_texts();
        assert_eq!(moves, expected);
        assert!(moves.contains(&"TE4:0") && !moves.iter().any(|m| m.starts_with("TI9")));
    }

    #[test]
    fn a_bad_text_answers_why() {
        let v = value(&legal_moves_json("standard x 0 -"));
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .starts_with("bad position text:"),
            "{v}"
        );
        assert!(v.get("moves").is_none());
        assert!(legal_moves_json("").contains("error"));
    }

    #[test]
    fn a_move_checked_is_legal_with_what_follows_or_refused_with_the_reason() {
        let ask = |position: &str, mv: &str| {
            value(&check_move_json(
                &serde_json::json!({ "position": position, "move": mv }).to_string(),
            ))
        };
        let legal = ask("standard w 0 -", "TE4:0");
        assert_eq!(legal["legal"], true);
        assert_eq!(legal["canonical"], "TE4:0");
        assert_eq!(legal["position"], "standard b 1 wTE4:0@1");
        assert!(legal["outcome"].is_null());
        let illegal = ask("standard w 0 -", "TI9:0");
        assert_eq!(illegal["legal"], false);
        assert!(
            illegal["reason"].as_str().unwrap().contains("central"),
            "{illegal}"
        );
        assert!(
            ask("standard w 0 -", "nonsense")["error"]
                .as_str()
                .unwrap()
                .starts_with("bad move text")
        );
        assert!(
            value(&check_move_json("{}"))["error"]
                .as_str()
                .unwrap()
                .starts_with("bad request")
        );
    }

    #[test]
    fn a_game_replays_to_its_positions_and_names_the_first_illegal_move() {
        let ask = |request: serde_json::Value| value(&game_json(&request.to_string()));
        let v = ask(serde_json::json!({ "start": "standard w 0 -", "moves": ["TE4:0", "TK5:0"] }));
        assert_eq!(v["moves"], serde_json::json!(["TE4:0", "TK5:0"]));
        assert_eq!(v["positions"].as_array().unwrap().len(), 3);
        assert_eq!(v["positions"][0], "standard w 0 -");
        assert_eq!(v["position"], v["positions"][2]);
        assert_eq!(v["turn"], "white");
        assert!(v["outcome"].is_null());
        let bad =
            ask(serde_json::json!({ "start": "standard w 0 -", "moves": ["TE4:0", "TE4:0"] }));
        assert!(
            bad["error"].as_str().unwrap().starts_with("move 2:"),
            "{bad}"
        );
        let resigned = ask(serde_json::json!({
            "start": "standard w 0 -", "moves": ["TE4:0"],
            "end": { "winner": "white", "termination": "resignation" },
        }));
        assert_eq!(resigned["outcome"]["result"], "1-0");
        assert_eq!(resigned["outcome"]["text"], "White wins by resignation");
        let agreed = ask(serde_json::json!({
            "start": "standard w 0 -", "end": { "winner": null, "termination": "agreement" },
        }));
        assert_eq!(agreed["outcome"]["result"], "1/2-1/2");
        let record = value(&record_json(
            &serde_json::json!({
                "start": "standard w 0 -", "moves": ["TE4:0"], "white": "Ada", "black": "punct level 3",
                "date": "2026.05.01", "end": { "winner": "black", "termination": "resignation" },
            })
            .to_string(),
        ));
        let text = record["record"].as_str().unwrap();
        assert!(
            text.contains("[White \"Ada\"]")
                && text.contains("[Result \"0-1\"]")
                && text.contains("TE4:0"),
            "{text}"
        );
        let read = Record::parse(text).unwrap();
        assert_eq!(read.game.moves().len(), 1);
        for end in [
            serde_json::json!({ "winner": null, "termination": "resignation" }),
            serde_json::json!({ "winner": "white", "termination": "connection" }),
            serde_json::json!({ "winner": "grey", "termination": "resignation" }),
        ] {
            let v = ask(serde_json::json!({ "start": "standard w 0 -", "end": end }));
            assert!(v["error"].is_string(), "{end}: {v}");
        }
    }
}
