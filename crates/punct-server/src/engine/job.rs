//! An engine job as it travels through the queue (`store::engine_queue`): what a node asks
//! of a worker ([`JobSpec`]) and what the worker answers ([`JobResult`]), each one serde type
//! written as JSON. Either may come from another version of punct or a damaged row, so
//! reading one is an error naming the job and what does not read, never a panic.

use std::time::Duration;

use punct_core::{Game, Move, Position};
use punct_engine::{Level, Score, SearchResult};
use serde::{Deserialize, Serialize};

use super::budget::ComputerClock;

/// What a worker is asked to search: a game (its start and moves, replayed with the rules,
/// so that repetitions count as in the node's game), at a level, within the node's limits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobSpec {
    /// The starting position's text.
    pub start: String,
    /// The moves played since, as text.
    pub moves: Vec<String>,
    /// The computer's level (1–9); an analysis is at full strength.
    pub level: u8,
    /// The computer's clock in a timed game, as the node saw it when it queued the job.
    pub clock: Option<ComputerClock>,
    /// The longest the search may think (the node's `--engine-movetime`).
    pub movetime_ms: u64,
}

/// A job read back: the game to search and how.
#[derive(Clone, Debug)]
pub struct Search {
    /// The game, its moves replayed.
    pub game: Game,
    /// The level.
    pub level: Level,
    /// The computer's clock, if timed.
    pub clock: Option<ComputerClock>,
    /// The longest the search may think.
    pub movetime: Duration,
}

impl JobSpec {
    /// The job of searching `game` at `level`, with `clock` and `movetime`.
    pub fn of(
        game: &Game,
        level: Level,
        clock: Option<ComputerClock>,
        movetime: Duration,
    ) -> JobSpec {
        JobSpec {
            start: game.start().to_string(),
            moves: game.moves().iter().map(ToString::to_string).collect(),
            level: level.number(),
            clock,
            movetime_ms: movetime.as_millis() as u64,
        }
    }

    /// The job as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a job is always written as JSON")
    }

    /// Reads job `id` from its JSON, replaying its game: an error names the job and what
    /// in it does not read.
    pub fn read(id: &str, json: &str) -> Result<Search, String> {
        let spec: JobSpec = serde_json::from_str(json)
            .map_err(|e| format!("engine job {id} does not read: {e}"))?;
        let start = Position::from_text(&spec.start)
            .map_err(|e| format!("engine job {id}: its start position does not read: {e}"))?;
        let mut game = Game::from_position(start);
        for (i, text) in spec.moves.iter().enumerate() {
            let mv = Move::parse(text).map_err(|e| {
                format!(
                    "engine job {id}: move {} `{text}` does not read: {e}",
                    i + 1
                )
            })?;
            game.play(mv)
                .map_err(|e| format!("engine job {id}: move {} `{text}` is illegal: {e}", i + 1))?;
        }
        let level = Level::new(spec.level).ok_or_else(|| {
            format!(
                "engine job {id}: level {} is none of 1 to {}",
                spec.level,
                Level::MAX
            )
        })?;
        Ok(Search {
            game,
            level,
            clock: spec.clock,
            movetime: Duration::from_millis(spec.movetime_ms),
        })
    }
}

/// A search's result as the worker writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobResult {
    /// The move to play, if any.
    pub best: Option<String>,
    /// Win, draw and loss chances, the side to move's.
    pub score: [f32; 3],
    /// The expected line, starting with `best`.
    pub pv: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent, in ms.
    pub time_ms: u64,
    /// Each root move kept, with its visits.
    pub root_visits: Vec<(String, u32)>,
}

impl JobResult {
    /// The result of `found`.
    pub fn of(found: &SearchResult) -> JobResult {
        JobResult {
            best: found.best_move.map(|m| m.to_string()),
            score: [found.score.win, found.score.draw, found.score.loss],
            pv: found.pv.iter().map(ToString::to_string).collect(),
            nodes: found.nodes,
            time_ms: found.time.as_millis() as u64,
            root_visits: found
                .root_visits
                .iter()
                .map(|(m, n)| (m.to_string(), *n))
                .collect(),
        }
    }

    /// The result as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a result is always written as JSON")
    }

    /// Reads the result of job `id` from its JSON: an error names the job and what does not
    /// read. Its moves are read as moves; whether they are legal is for the game to say.
    pub fn read(id: &str, json: &str) -> Result<SearchResult, String> {
        let r: JobResult = serde_json::from_str(json)
            .map_err(|e| format!("the result of engine job {id} does not read: {e}"))?;
        let mv = |text: &str| {
            Move::parse(text).map_err(|e| {
                format!("the result of engine job {id}: move `{text}` does not read: {e}")
            })
        };
        let [win, draw, loss] = r.score;
        if ![win, draw, loss].iter().all(|p| (0.0..=1.0).contains(p)) {
            return Err(format!(
                "the result of engine job {id}: its score {:?} is not three chances",
                r.score
            ));
        }
        Ok(SearchResult {
            best_move: r.best.as_deref().map(mv).transpose()?,
            score: Score { win, draw, loss },
            pv: r.pv.iter().map(|m| mv(m)).collect::<Result<_, _>>()?,
            nodes: r.nodes,
            time: Duration::from_millis(r.time_ms),
            root_visits: r
                .root_visits
                .iter()
                .map(|(m, n)| Ok((mv(m)?, *n)))
                .collect::<Result<_, String>>()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use punct_core::Variant;

    use super::*;

    fn played(n: usize) -> Game {
        let mut game = Game::new(Variant::Standard);
        for _ in 0..n {
            let mv = game.position().legal_moves()[0];
            game.play(mv).unwrap();
        }
        game
    }

    #[test]
    fn a_job_reads_back_as_the_game_it_was() {
        let game = played(5);
        let clock = ComputerClock {
            deadline_ms: 1_000,
            increment_ms: 2,
        };
        let spec = JobSpec::of(
            &game,
            Level::new(3).unwrap(),
            Some(clock),
            Duration::from_millis(700),
        );
        let read = JobSpec::read("g:5", &spec.to_json()).unwrap();
        assert_eq!(read.game.moves(), game.moves());
        assert_eq!(read.game.hashes(), game.hashes());
        assert_eq!(read.level, Level::new(3).unwrap());
        assert_eq!(read.clock, Some(clock));
        assert_eq!(read.movetime, Duration::from_millis(700));
    }

    #[test]
    fn a_bad_job_is_an_error_naming_it_and_what_is_wrong() {
        let good = JobSpec::of(
            &played(2),
            Level::new(3).unwrap(),
            None,
            Duration::from_secs(1),
        );
        let e = JobSpec::read("g:7", "{\"start\": 3}").unwrap_err();
        assert!(e.contains("engine job g:7 does not read"), "{e}");
        let bad_move = JobSpec {
            moves: vec!["zz99".into()],
            ..good.clone()
        };
        let e = JobSpec::read("g:7", &bad_move.to_json()).unwrap_err();
        assert!(e.contains("engine job g:7: move 1 `zz99`"), "{e}");
        let bad_level = JobSpec { level: 42, ..good };
        let e = JobSpec::read("g:7", &bad_level.to_json()).unwrap_err();
        assert!(e.contains("level 42"), "{e}");
    }

    #[test]
    fn a_result_reads_back_and_a_bad_one_is_named() {
        let game = played(3);
        let mv = game.position().legal_moves()[1];
        let found = SearchResult {
            best_move: Some(mv),
            score: Score {
                win: 0.5,
                draw: 0.25,
                loss: 0.25,
            },
            pv: vec![mv],
            nodes: 120,
            time: Duration::from_millis(15),
            root_visits: vec![(mv, 120)],
        };
        let back = JobResult::read("a-1", &JobResult::of(&found).to_json()).unwrap();
        assert_eq!(back.best_move, found.best_move);
        assert_eq!(back.score, found.score);
        assert_eq!(back.pv, found.pv);
        assert_eq!(back.root_visits, found.root_visits);
        let e = JobResult::read("a-1", "[]").unwrap_err();
        assert!(
            e.contains("the result of engine job a-1 does not read"),
            "{e}"
        );
        let odd = JobResult {
            score: [2.0, 0.0, 0.0],
            ..JobResult::of(&found)
        };
        let e = JobResult::read("a-1", &odd.to_json()).unwrap_err();
        assert!(e.contains("a-1") && e.contains("score"), "{e}");
    }

    proptest! {
        #[test]
        fn any_text_reads_or_is_refused_without_a_panic(text in ".{0,200}") {
            let _ = JobSpec::read("x", &text);
            let _ = JobResult::read("x", &text);
        }

        #[test]
        fn any_moves_read_or_are_refused_without_a_panic(
            moves in proptest::collection::vec("[a-z0-9-]{0,8}", 0..6),
            best in proptest::option::of("[a-z0-9-]{0,8}"),
        ) {
            let spec = JobSpec {
                start: Game::new(Variant::Standard).start().to_string(),
                moves,
                level: 5,
                clock: None,
                movetime_ms: 10,
            };
            let _ = JobSpec::read("x", &spec.to_json());
            let result = JobResult {
                best,
                score: [0.3, 0.3, 0.4],
                pv: Vec::new(),
                nodes: 0,
                time_ms: 0,
                root_visits: Vec::new(),
            };
            let _ = JobResult::read("x", &result.to_json());
        }
    }
}
