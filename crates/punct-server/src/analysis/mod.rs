//! Computer analysis of finished games, asked for by anyone: the job of analysing a game
//! position by position in the engine's analysis lane (one search at a time, so that a
//! game's analysis never takes more of the lane than one person's request), its progress
//! while it runs, and its result, stored with the game once and served from then on.
//!
//! A job is a request to the engine pool's public API (`EnginePool::analyse`) per position,
//! counted against the address that asked, and retried while the lane is busy. Its progress
//! lives in memory: a job cut short by a restart is lost and asked for again; a finished one
//! is in the database (`game_analyses`) and survives restarts.

pub mod review;
pub mod stored;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use punct_core::{Game, Position, Record};
use punct_engine::SearchResult;

use review::{Eval, GameAnalysis, Review};

use crate::error::refusal::Refusal;
use crate::error::{Error, ErrorKind};
use crate::games::Hub;

/// Analyses of whole games that may run at once (each holds one search at a time).
const MAX_JOBS: usize = 2;

/// Forced moves in a row searched past for a position's value (each costs a search).
const MAX_FORCED: usize = 4;

/// Searches without a playout made again before one is taken as it is.
const MAX_EMPTY: usize = 10;

/// Wait before asking a busy analysis lane again.
const RETRY: Duration = Duration::from_millis(250);

/// Where a game's analysis stands.
#[derive(Clone, Debug)]
pub enum Progress {
    /// Never asked for (or cut short by a restart).
    None,
    /// Running: `done` of `total` positions analysed so far.
    Running {
        /// Positions analysed.
        done: usize,
        /// Positions to analyse (one more than the moves).
        total: usize,
    },
    /// Finished and stored.
    Done(Arc<GameAnalysis>, Review),
    /// It failed, saying why; asking again starts it again.
    Failed(String),
}

/// The analyses: the jobs running and the way to the stored ones.
#[derive(Clone)]
pub struct Analyses {
    hub: Hub,
    /// The engine's time a position (the pool's), as the stored analysis says.
    movetime: Duration,
    jobs: Arc<Mutex<HashMap<String, Job>>>,
}

/// A job in memory.
#[derive(Clone, Debug)]
enum Job {
    Running {
        client: IpAddr,
        done: usize,
        total: usize,
    },
    Failed(String),
}

impl Analyses {
    /// The analyses of the games of `hub`, whose engine thinks `movetime` a position.
    pub fn new(hub: Hub, movetime: Duration) -> Analyses {
        Analyses {
            hub,
            movetime,
            jobs: Arc::default(),
        }
    }

    fn jobs(&self) -> MutexGuard<'_, HashMap<String, Job>> {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Where the analysis of game `id` stands.
    pub async fn progress(&self, id: &str) -> Result<Progress, Error> {
        let job = self.jobs().get(id).cloned();
        match job {
            Some(Job::Running { done, total, .. }) => return Ok(Progress::Running { done, total }),
            Some(Job::Failed(why)) => return Ok(Progress::Failed(why)),
            None => {}
        }
        // Before the store: a game that does not exist is 404, not "never analysed".
        let game = self.hub.game(id).await?;
        Ok(match self.stored(id).await? {
            Some(analysis) => {
                let review = Review::of(&analysis, game.start().turn());
                Progress::Done(Arc::new(analysis), review)
            }
            None => Progress::None,
        })
    }

    async fn stored(&self, id: &str) -> Result<Option<GameAnalysis>, Error> {
        let id = id.to_owned();
        self.hub
            .database()
            .query(move |db| stored::load(db, &id))
            .await
            .map_err(|e| Error::storage(format!("cannot read the analysis: {e:#}")))
    }

    /// Asks for the analysis of finished game `id` for `client`: starts it unless it is
    /// running or stored (then says where it stands). Refused while the game is being
    /// played, while one of its positions is in a live game (`games::fairness`), when
    /// `client` has a game's analysis running already or the server has its share running.
    pub async fn request(&self, id: &str, client: IpAddr) -> Result<Progress, Error> {
        match self.progress(id).await? {
            Progress::None | Progress::Failed(_) => {}
            known => return Ok(known),
        }
        let shared = self.hub.shared(id).await?;
        if shared.live {
            return Err(Error::refused(Refusal::AnalysisWhileLive));
        }
        let game = shared.game;
        let positions: Vec<Position> = (0..=game.moves().len())
            .map(|n| game.position_after(n))
            .collect();
        if let Some((i, _)) = self.hub.withheld(&positions).await? {
            return Err(Error::refused(Refusal::Withheld { position: Some(i) }));
        }
        let total = positions.len();
        {
            let mut jobs = self.jobs();
            let running = jobs.values().filter(|j| matches!(j, Job::Running { .. }));
            let (mut all, mut mine) = (0, 0);
            for job in running {
                all += 1;
                if matches!(job, Job::Running { client: c, .. } if *c == client) {
                    mine += 1;
                }
            }
            if mine > 0 {
                return Err(Error::busy(
                    "a game's analysis you asked for is running: wait for it to finish",
                ));
            }
            if all >= MAX_JOBS {
                return Err(Error::busy(
                    "the engine is analysing other games; try again shortly",
                ));
            }
            jobs.insert(
                id.to_owned(),
                Job::Running {
                    client,
                    done: 0,
                    total,
                },
            );
        }
        tokio::spawn(self.clone().run(id.to_owned(), game, positions, client));
        Ok(Progress::Running { done: 0, total })
    }

    /// The job: each position in turn, then the whole stored.
    async fn run(self, id: String, game: Game, positions: Vec<Position>, client: IpAddr) {
        let outcome = self.analyse_all(&id, &positions, client).await;
        let failed = match outcome {
            Ok(evals) => {
                let analysis = GameAnalysis {
                    moves: game.moves().iter().map(ToString::to_string).collect(),
                    positions: evals,
                    movetime_ms: self.movetime.as_millis() as u64,
                    created_ms: self.hub.time().now_ms(),
                };
                let key = id.clone();
                let saved = self
                    .hub
                    .database()
                    .transact(move |db| stored::save(db, &key, &analysis))
                    .await;
                saved
                    .err()
                    .map(|e| format!("the analysis could not be stored: {e}"))
            }
            Err(e) => Some(e.reason),
        };
        let mut jobs = self.jobs();
        match failed {
            None => {
                jobs.remove(&id);
            }
            Some(why) => {
                tracing::warn!(game = %id, "a game's analysis failed: {why}");
                jobs.insert(id, Job::Failed(why));
            }
        }
    }

    async fn analyse_all(
        &self,
        id: &str,
        positions: &[Position],
        client: IpAddr,
    ) -> Result<Vec<Eval>, Error> {
        let mut evals = Vec::with_capacity(positions.len());
        for (i, pos) in positions.iter().enumerate() {
            evals.push(self.analyse_one(pos, client).await?);
            if let Some(Job::Running { done, .. }) = self.jobs().get_mut(id) {
                *done = i + 1;
            }
        }
        Ok(evals)
    }

    /// One position's evaluation: the game's end where it is over, else the engine's,
    /// checked against the live games again (one may have reached it since the request).
    /// Where a single move stops the opponent's win, the engine plays it without a search and
    /// without a value: the position is worth what it is after that move, which is searched
    /// instead (a few such moves in a row at most), the forced moves heading the line.
    async fn analyse_one(&self, pos: &Position, client: IpAddr) -> Result<Eval, Error> {
        if self
            .hub
            .withheld(std::slice::from_ref(pos))
            .await?
            .is_some()
        {
            return Err(Error::refused(Refusal::WithheldMeanwhile));
        }
        let mut at = pos.clone();
        let mut forced = Vec::new();
        let mut nodes = 0;
        loop {
            let game = Game::from_position(at.clone());
            if let Some(outcome) = game.outcome() {
                let white = match outcome.winner {
                    Some(punct_core::Colour::White) => 1.0,
                    Some(punct_core::Colour::Black) => 0.0,
                    None => 0.5,
                };
                return Ok(Eval {
                    white,
                    best: forced.first().map(ToString::to_string),
                    pv: forced.iter().map(ToString::to_string).collect(),
                    nodes,
                });
            }
            let found = self.search(game, client).await?;
            nodes += found.nodes;
            match found.best_move {
                Some(mv) if is_forced(&found) && forced.len() < MAX_FORCED => {
                    forced.push(mv);
                    at.make(mv);
                }
                _ => {
                    let mut eval = eval_of(&found, &at);
                    if !forced.is_empty() {
                        let rest = std::mem::take(&mut eval.pv);
                        eval.pv = forced.iter().map(ToString::to_string).collect();
                        eval.pv.extend(rest);
                        eval.best = eval.pv.first().cloned();
                    }
                    eval.nodes = nodes;
                    return Ok(eval);
                }
            }
        }
    }

    /// The engine's search of `game` in the analysis lane, waiting while the lane is busy.
    /// A search that ran no playout at all (its thread got no CPU time within the engine's
    /// time, on a loaded machine) knows nothing of the position: it is made again, a few
    /// times at most.
    async fn search(&self, game: Game, client: IpAddr) -> Result<SearchResult, Error> {
        let mut empty = 0;
        loop {
            match self.hub.engine().analyse(game.clone(), client).await {
                Ok(found) if found.nodes == 0 && empty < MAX_EMPTY => empty += 1,
                Ok(found) => return Ok(found),
                Err(e) if e.kind == ErrorKind::Busy => tokio::time::sleep(RETRY).await,
                Err(e) => return Err(e),
            }
        }
    }

    /// The record of game `id` with each move's evaluation as a comment (`{White 56%, best
    /// TE4:0, mistake}`), the engine's figures in the comment before the first move. Read
    /// back by punct-core's record parser as any record's comments are.
    pub async fn record(&self, id: &str) -> Result<String, Error> {
        let Progress::Done(analysis, review) = self.progress(id).await? else {
            return Err(Error::not_found(format!("game `{id}` has no analysis yet")));
        };
        let text = self.hub.record(id).await?;
        let mut record = Record::parse(&text)
            .map_err(|e| Error::internal(format!("the game's record does not read: {e}")))?;
        Ok(commented(&mut record, &analysis, &review))
    }
}

/// `record` with the evaluations of `analysis` as its moves' comments.
pub fn commented(record: &mut Record, analysis: &GameAnalysis, review: &Review) -> String {
    let nodes: u64 = analysis.positions.iter().map(|e| e.nodes).sum();
    let searched = analysis
        .positions
        .iter()
        .filter(|e| e.nodes > 0)
        .count()
        .max(1);
    record.intro = Some(format!(
        "Analysed by the punct engine: {} ms and {} playouts a position on average; White's \
         win chance after each move",
        analysis.movetime_ms,
        nodes / searched as u64
    ));
    for (i, (mv, judged)) in record.moves.iter_mut().zip(&review.moves).enumerate() {
        let Some(after) = analysis.positions.get(i + 1) else {
            break;
        };
        let mut comment = format!("White {:.0}%", after.white * 100.0);
        if let Some(better) = &judged.better {
            comment.push_str(&format!(", best {better}"));
        }
        if let Some(class) = judged.class {
            comment.push_str(match class {
                review::Class::Inaccuracy => ", inaccuracy",
                review::Class::Mistake => ", mistake",
                review::Class::Blunder => ", blunder",
            });
        }
        mv.comment = Some(comment);
    }
    record.to_string()
}

/// Whether the engine played `found`'s move without a search or a value: the one move that
/// stops the opponent's win (a won position's move comes with its proven value).
fn is_forced(found: &SearchResult) -> bool {
    found.root_visits.is_empty() && found.nodes == 1 && found.pv.len() == 1 && found.score.win < 1.0
}

/// The evaluation of `pos` that the engine found (its score is the side to move's).
fn eval_of(found: &SearchResult, pos: &Position) -> Eval {
    let mover = found.score.expectation();
    Eval {
        white: match pos.turn() {
            punct_core::Colour::White => mover,
            punct_core::Colour::Black => 1.0 - mover,
        },
        best: found.best_move.map(|m| m.to_string()),
        pv: found.pv.iter().map(ToString::to_string).collect(),
        nodes: found.nodes,
    }
}
