//! The computer in the page: punct-engine's search at every level, for a game's next move
//! or for analysis, with its progress reported along the way. On wasm32 the engine's clock
//! is the page's (punct-engine's `clock` module), so a search given a time ends in time.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use punct_engine::{Engine, Level, Options, Score, SearchInfo, SearchLimits};
use serde::{Deserialize, Serialize};

use crate::rules::{refused, replay};

/// A search: the game (its start and moves), the level and seed, and its bounds.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchRequest {
    start: String,
    #[serde(default)]
    moves: Vec<String>,
    #[serde(default = "full_strength")]
    level: u8,
    #[serde(default)]
    seed: u64,
    /// Think this long at most.
    movetime_ms: Option<u64>,
    /// Stop after this many playouts.
    nodes: Option<u64>,
    /// Think until the page stops it (by ending the worker: nothing else can reach a
    /// running search in the page).
    #[serde(default)]
    infinite: bool,
    /// Lines reported each round.
    #[serde(default = "one")]
    multipv: usize,
}

fn full_strength() -> u8 {
    Level::MAX
}

fn one() -> usize {
    1
}

/// One line of a search, side to move's view: reported along the way and in the answer.
#[derive(Clone, Serialize)]
pub struct Line {
    /// 1 for the best line, 2 for the next...
    multipv: usize,
    depth: u32,
    nodes: u64,
    time_ms: u64,
    win: f32,
    draw: f32,
    loss: f32,
    pv: Vec<String>,
}

impl Line {
    fn of(info: &SearchInfo) -> Line {
        Line {
            multipv: info.multipv,
            depth: info.depth,
            nodes: info.nodes,
            time_ms: millis(info.time),
            win: info.score.win,
            draw: info.score.draw,
            loss: info.score.loss,
            pv: info.pv.iter().map(ToString::to_string).collect(),
        }
    }
}

/// What a search found: the fields of the server's analysis (`POST /api/analyse`), its time,
/// and the last round of lines.
#[derive(Serialize)]
struct Found {
    best_move: Option<String>,
    win: f32,
    draw: f32,
    loss: f32,
    pv: Vec<String>,
    nodes: u64,
    time_ms: u64,
    move_number: u32,
    lines: Vec<Line>,
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Searches for `request` (JSON: `{"start", "moves", "level", "seed", "movetime_ms",
/// "nodes", "infinite", "multipv"}`), calling `progress` with each line as JSON along the
/// way; the answer is JSON: the best move (`null` when the game is over), its chances for
/// the side to move, the line, the playouts, the time and the last round of lines, or
/// `{"error": …}`. Bounds left out mean one second, as for the engine; levels 1 to 3 glance
/// rather than search, as they do on the server.
pub fn search_json(request: &str, progress: &mut dyn FnMut(&str)) -> String {
    let request: SearchRequest = match serde_json::from_str(request) {
        Ok(r) => r,
        Err(e) => return refused(format!("bad request: {e}")),
    };
    let Some(level) = Level::new(request.level) else {
        return refused(format!(
            "no level {}: the levels are 1 to {}",
            request.level,
            Level::MAX
        ));
    };
    let game = match replay(&request.start, &request.moves) {
        Ok(game) => game,
        Err(error) => return refused(error),
    };
    let limits = SearchLimits {
        movetime: request.movetime_ms.map(Duration::from_millis),
        nodes: request.nodes,
        infinite: request.infinite,
        ..SearchLimits::default()
    };
    let mut engine = Engine::new(Options {
        level,
        seed: request.seed,
        threads: 1,
    });
    engine.set_multipv(request.multipv);
    let mut lines: Vec<Line> = Vec::new();
    let result = engine.search(&game, &limits, &AtomicBool::new(false), &mut |info| {
        let line = Line::of(info);
        if line.multipv == 1 {
            lines.clear();
        }
        progress(&serde_json::to_string(&line).unwrap_or_default());
        lines.push(line);
    });
    let Score { win, draw, loss } = result.score;
    serde_json::to_string(&Found {
        best_move: result.best_move.map(|m| m.to_string()),
        win,
        draw,
        loss,
        pv: result.pv.iter().map(ToString::to_string).collect(),
        nodes: result.nodes,
        time_ms: millis(result.time),
        move_number: game.position().move_number(),
        lines,
    })
    .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use punct_core::Position;

    use super::*;

    fn search(request: serde_json::Value) -> (serde_json::Value, Vec<serde_json::Value>) {
        let mut reported = Vec::new();
        let answer = search_json(&request.to_string(), &mut |line| {
            reported.push(serde_json::from_str(line).unwrap());
        });
        (serde_json::from_str(&answer).unwrap(), reported)
    }

    #[test]
    fn every_level_moves_legally_and_the_same_seed_gives_the_same_move() {
        let start = "standard w 0 -";
        let moves = ["TE4:0"];
        let legal = Position::from_text("standard b 1 wTE4:0@1")
            .unwrap()
            .legal_move_texts();
        for level in 1..=Level::MAX {
            let request = serde_json::json!({
                "start": start, "moves": moves, "level": level, "seed": 7, "nodes": 50,
            });
            let (found, _) = search(request.clone());
            let mv = found["best_move"]
                .as_str()
                .unwrap_or_else(|| panic!("{found}"));
            assert!(legal.iter().any(|m| m == mv), "level {level}: {mv}");
            assert_eq!(found["move_number"], 1);
            assert_eq!(search(request).0["best_move"], found["best_move"]);
        }
    }

    #[test]
    fn an_analysis_reports_its_lines_and_answers_the_last_round() {
        let (found, reported) = search(serde_json::json!({
            "start": "standard w 0 -", "nodes": 300, "multipv": 3,
        }));
        let lines = found["lines"].as_array().unwrap();
        assert_eq!(lines.len(), 3, "{found}");
        assert_eq!(
            lines
                .iter()
                .map(|l| l["multipv"].as_u64().unwrap())
                .collect::<Vec<_>>(),
            [1, 2, 3]
        );
        assert_eq!(lines[0]["pv"], found["pv"]);
        assert_eq!(found["nodes"], 300);
        assert!(reported.len() >= 3);
        let expected = found["win"].as_f64().unwrap()
            + found["loss"].as_f64().unwrap()
            + found["draw"].as_f64().unwrap();
        assert!((expected - 1.0).abs() < 1e-3, "{found}");
    }

    #[test]
    fn a_bad_request_answers_why() {
        let error =
            |request: serde_json::Value| search(request).0["error"].as_str().unwrap().to_owned();
        assert!(
            error(serde_json::json!({ "start": "standard w 0 -", "level": 0 })).contains("1 to 9")
        );
        assert!(error(serde_json::json!({ "start": "nonsense" })).starts_with("bad position text"));
        assert!(
            error(serde_json::json!({ "start": "standard w 0 -", "moves": ["TI9:0"] }))
                .starts_with("move 1:")
        );
        assert!(
            error(serde_json::json!({ "start": "standard w 0 -", "movetime": 5 }))
                .starts_with("bad request")
        );
    }
}
