//! The answer to `POST /api/analyse` (what the engine found in a position), and a whole
//! game's analysis as `GET`/`POST /api/games/{id}/analysis` give it.

use punct_core::Move;
use punct_engine::SearchResult;
use serde::Serialize;

use crate::analysis::Progress;
use crate::analysis::review::{self, Class};

/// What the engine found, for the side to move (API.md, `POST /api/analyse`).
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// The best move's text, if the position has one.
    pub best_move: Option<String>,
    /// The side to move's chance of winning.
    pub win: f32,
    /// Its chance of a draw.
    pub draw: f32,
    /// Its chance of losing.
    pub loss: f32,
    /// The expected line, moves as text.
    pub pv: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// The number of the line's first move, as records and move lists print it.
    pub move_number: u32,
}

impl Analysis {
    /// The answer for `result`, the search of a position whose move number is
    /// `move_number`.
    pub fn of(result: &SearchResult, move_number: u32) -> Analysis {
        Analysis {
            best_move: result.best_move.map(|m| m.to_string()),
            win: result.score.win,
            draw: result.score.draw,
            loss: result.score.loss,
            pv: result.pv.iter().map(Move::to_string).collect(),
            nodes: result.nodes,
            move_number,
        }
    }
}

/// A whole game's analysis, or where it stands (API.md, "A game's analysis"): the one
/// message of its progress, asked for again until `state` is `done` or `failed`.
#[derive(Clone, Debug, Serialize)]
pub struct GameAnalysisView {
    /// `none` (never asked for), `running`, `done` or `failed`.
    pub state: &'static str,
    /// Positions analysed so far (all of them once done).
    pub done: usize,
    /// Positions to analyse: one more than the moves (0 when never asked for).
    pub total: usize,
    /// Why it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Once done: the engine's time a position, in ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub movetime_ms: Option<u64>,
    /// Once done: each position's evaluation, the start's first.
    pub positions: Vec<PositionEval>,
    /// Once done: each move judged.
    pub moves: Vec<MoveJudged>,
    /// Once done: White's and Black's figures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<PlayersView>,
    /// The win chance lost from which a move is an inaccuracy, a mistake, a blunder.
    pub thresholds: Thresholds,
}

/// One position's evaluation.
#[derive(Clone, Debug, Serialize)]
pub struct PositionEval {
    /// White's expected score there (win + draw / 2).
    pub white: f32,
    /// The engine's best move, if the game goes on there.
    pub best: Option<String>,
    /// Its line, from `best`.
    pub pv: Vec<String>,
    /// Playouts searched.
    pub nodes: u64,
}

/// One move judged.
#[derive(Clone, Debug, Serialize)]
pub struct MoveJudged {
    /// The move's text.
    #[serde(rename = "move")]
    pub mv: String,
    /// `white` or `black`.
    pub mover: &'static str,
    /// The mover's win chance it lost (0 to 1).
    pub loss: f32,
    /// `inaccuracy`, `mistake`, `blunder` or null.
    pub class: Option<Class>,
    /// The engine's better move, where the move played was not its own.
    pub better: Option<String>,
    /// The move's accuracy, 0 to 100.
    pub accuracy: f32,
}

/// Both players' figures.
#[derive(Clone, Debug, Serialize)]
pub struct PlayersView {
    /// White's.
    pub white: PlayerView,
    /// Black's.
    pub black: PlayerView,
}

/// One player's figures.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerView {
    /// Moves classed as inaccuracies.
    pub inaccuracies: u32,
    /// As mistakes.
    pub mistakes: u32,
    /// As blunders.
    pub blunders: u32,
    /// Mean accuracy of their moves, 0 to 100 (null before their first move).
    pub accuracy: Option<f32>,
}

/// The classes' thresholds.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Thresholds {
    /// Inaccuracy from this loss.
    pub inaccuracy: f32,
    /// Mistake from this loss.
    pub mistake: f32,
    /// Blunder from this loss.
    pub blunder: f32,
}

impl GameAnalysisView {
    /// The view of `progress`.
    pub fn of(progress: &Progress) -> GameAnalysisView {
        let mut view = GameAnalysisView {
            state: "none",
            done: 0,
            total: 0,
            reason: None,
            movetime_ms: None,
            positions: Vec::new(),
            moves: Vec::new(),
            players: None,
            thresholds: Thresholds {
                inaccuracy: review::INACCURACY,
                mistake: review::MISTAKE,
                blunder: review::BLUNDER,
            },
        };
        match progress {
            Progress::None => {}
            Progress::Running { done, total } => {
                view.state = "running";
                (view.done, view.total) = (*done, *total);
            }
            Progress::Failed(why) => {
                view.state = "failed";
                view.reason = Some(why.clone());
            }
            Progress::Done(analysis, judged) => {
                view.state = "done";
                view.total = analysis.positions.len();
                view.done = view.total;
                view.movetime_ms = Some(analysis.movetime_ms);
                view.positions = analysis
                    .positions
                    .iter()
                    .map(|e| PositionEval {
                        white: e.white,
                        best: e.best.clone(),
                        pv: e.pv.clone(),
                        nodes: e.nodes,
                    })
                    .collect();
                view.moves = analysis
                    .moves
                    .iter()
                    .zip(&judged.moves)
                    .map(|(mv, j)| MoveJudged {
                        mv: mv.clone(),
                        mover: crate::room::colour_name(j.mover),
                        loss: j.loss,
                        class: j.class,
                        better: j.better.clone(),
                        accuracy: j.accuracy,
                    })
                    .collect();
                let player = |p: &review::Player| PlayerView {
                    inaccuracies: p.inaccuracies,
                    mistakes: p.mistakes,
                    blunders: p.blunders,
                    accuracy: p.accuracy,
                };
                view.players = Some(PlayersView {
                    white: player(&judged.players[0]),
                    black: player(&judged.players[1]),
                });
            }
        }
        view
    }
}
