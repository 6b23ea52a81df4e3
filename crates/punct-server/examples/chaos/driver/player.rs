//! A client that plays games, one after another, as the only actor in each: it sends every
//! action with the seq of the state it was made on, hangs up at random moments, retries
//! the same action after a hang-up or an error until it gets an answer, and checks every
//! state it is shown against what its acknowledged actions make of the game.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use futures_util::{SinkExt as _, StreamExt as _};
use punct_core::Colour;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom as _;
use rand::{Rng as _, SeedableRng as _};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

use super::http::{Close, HangUp, Reply, request};
use super::model::{Act, Mode, Model, Seen, Verdict};
use super::stats::Stats;

/// How long an action may go without a final answer, the computer without replying, and
/// a game without being readable, before the game counts as half-done.
const PATIENCE: Duration = Duration::from_secs(60);

/// What the clients share.
pub struct Ctx {
    /// The nodes' addresses (the same across restarts): each request goes to the next,
    /// as a load balancer would send it.
    pub addrs: Vec<SocketAddr>,
    /// The node the next request goes to.
    pub turn: AtomicUsize,
    /// No new action is started after this.
    pub until: Instant,
    /// The share of attempts that hang up.
    pub hang_share: f64,
    /// The share of attempts sent over a WebSocket.
    pub ws_share: f64,
    /// The share of moves whose text is sent with spaces around it (the server trims it),
    /// so that a retry must be recognised by the move rather than by its spelling.
    pub odd_spellings: f64,
    /// The counts.
    pub stats: Mutex<Stats>,
    /// The ids of the games so far, for the watchers.
    pub ids: Mutex<Vec<String>>,
}

impl Ctx {
    /// The node the next request goes to, in turn.
    pub fn addr(&self) -> SocketAddr {
        self.addrs[self.turn.fetch_add(1, Ordering::Relaxed) % self.addrs.len()]
    }

    /// The counts, to change.
    pub fn stats(&self) -> MutexGuard<'_, Stats> {
        self.stats.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A game a client played, and what its acknowledged actions make of it.
pub struct Played {
    id: String,
    /// The tokens of White's and Black's seats that the client holds.
    tokens: [Option<String>; 2],
    model: Model,
    /// The acknowledged changes: the seq each made and the action's name.
    ledger: Vec<(u64, &'static str)>,
    /// Counted as half-done already: nothing more is asked of it.
    stuck: bool,
}

impl Played {
    fn token(&self, colour: Colour) -> &str {
        self.tokens[colour.index()]
            .as_deref()
            .or(self.tokens[(!colour).index()].as_deref())
            .unwrap_or_default()
    }

    fn describe(&self) -> String {
        format!(
            "game {} ({}{})",
            self.id,
            self.model.mode.name(),
            if self.model.timed { ", timed" } else { "" }
        )
    }
}

/// Plays games until `ctx.until`, returning them.
pub async fn client(ctx: Arc<Ctx>, index: usize, seed: u64) -> Vec<Played> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut played = Vec::new();
    let mut round = index;
    while Instant::now() < ctx.until {
        round += 1;
        let Some(mut game) = start_game(&ctx, &mut rng, round).await else {
            continue;
        };
        ctx.ids
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(game.id.clone());
        play(&ctx, &mut rng, &mut game).await;
        played.push(game);
    }
    played
}

/// A POST or GET without hang-ups, retried while the server is away, for at most
/// [`PATIENCE`]: its final answer.
async fn steady(
    ctx: &Ctx,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> Option<(u16, String)> {
    let started = Instant::now();
    while started.elapsed() < PATIENCE {
        match request(ctx.addr(), method, path, token, body, None).await {
            Reply::Answer(500 | 503, _) => ctx.stats().server_errors += 1,
            Reply::Answer(status, body) => return Some((status, body)),
            _ => ctx.stats().no_answer += 1,
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    None
}

/// Creates a game of the kind numbered `round` (every mode, untimed, with a long clock
/// and with one so short that flags fall) and takes both its seats.
async fn start_game(ctx: &Ctx, rng: &mut StdRng, round: usize) -> Option<Played> {
    let human = if rng.random_bool(0.5) {
        Colour::White
    } else {
        Colour::Black
    };
    let mode = [Mode::Computer { human }, Mode::Friend, Mode::Local][round % 3];
    let (clock, clock_name) = match (round / 3) % 3 {
        0 => (Value::Null, "untimed"),
        1 => (json!({ "minutes": 10, "increment": 2 }), "10+2"),
        _ => (json!({ "minutes": 0.05, "increment": 0 }), "3 s"),
    };
    let mut body = json!({ "mode": mode.name(), "name": "Ada", "clock": clock });
    if let Mode::Computer { human } = mode {
        body["level"] = json!(1);
        body["colour"] = json!(if human == Colour::White {
            "white"
        } else {
            "black"
        });
    }
    let (status, text) = steady(ctx, "POST", "/api/games", None, Some(&body.to_string())).await?;
    let created: Value = serde_json::from_str(&text).unwrap_or_default();
    if status != 201 {
        ctx.stats()
            .problem(format!("creating {body} was answered {status} {text}"));
        return None;
    }
    let id = created["id"].as_str()?.to_owned();
    let token = created["token"].as_str().map(str::to_owned);
    let mut tokens = [None, None];
    let mut state = created["state"].clone();
    match mode {
        Mode::Local => tokens = [token.clone(), token],
        Mode::Computer { human } => tokens[human.index()] = token,
        Mode::Friend => {
            tokens[0] = token;
            // The request's id makes a repeat of the join (its answer lost) get the seat.
            let join = json!({ "name": "Bo", "invite": created["invite"], "request": format!("join-{id}") })
                .to_string();
            let path = format!("/api/games/{id}/join");
            let started = Instant::now();
            let mut tries = 0;
            loop {
                if started.elapsed() > PATIENCE {
                    ctx.stats()
                        .problem(format!("joining game {id}: no answer in {PATIENCE:?}"));
                    return None;
                }
                tries += 1;
                match request(ctx.addr(), "POST", &path, None, Some(&join), None).await {
                    Reply::Answer(200, text) => {
                        let joined: Value = serde_json::from_str(&text).unwrap_or_default();
                        tokens[1] = joined["token"].as_str().map(str::to_owned);
                        state = joined["state"].clone();
                        break;
                    }
                    // A repeat of a join whose answer was lost gets the seat back.
                    Reply::Answer(409, text) if tries > 1 => {
                        let mut stats = ctx.stats();
                        stats.wrong_answers += 1;
                        stats.problem(format!("a repeated join of game {id} was refused: {text}"));
                        return None;
                    }
                    Reply::Answer(500 | 503, _) => ctx.stats().server_errors += 1,
                    Reply::Answer(status, text) => {
                        ctx.stats()
                            .problem(format!("joining game {id} was answered {status} {text}"));
                        return None;
                    }
                    Reply::HungUp | Reply::Failed(_) => ctx.stats().no_answer += 1,
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    let model = match Model::new(mode, !clock.is_null(), &state) {
        Ok(m) => m,
        Err(e) => {
            ctx.stats()
                .problem(format!("game {id}: its first state is unreadable: {e}"));
            return None;
        }
    };
    *ctx.stats()
        .games
        .entry(format!("{} {clock_name}", mode.name()))
        .or_default() += 1;
    Some(Played {
        id,
        tokens,
        model,
        ledger: Vec::new(),
        stuck: false,
    })
}

/// A move for the side to move, a placement when there is one (so games end).
fn pick_move(model: &Model, rng: &mut StdRng) -> Option<Act> {
    let moves = model.game.position().legal_moves();
    let texts: Vec<String> = moves.iter().map(ToString::to_string).collect();
    let placements: Vec<&String> = texts.iter().filter(|t| !t.contains('-')).collect();
    let text = match placements.choose(rng) {
        Some(t) => (*t).clone(),
        None => texts.choose(rng)?.clone(),
    };
    Some(Act::Move(text))
}

/// The next action of the game's only actor, and the colour it acts for.
fn choose(model: &Model, rng: &mut StdRng) -> Option<(Colour, Act)> {
    let turn = model.turn();
    let r: f64 = rng.random();
    let mv = |rng: &mut StdRng| pick_move(model, rng).map(|m| (turn, m));
    match model.mode {
        Mode::Local => match r {
            _ if r < 0.88 || model.game.moves().is_empty() => mv(rng),
            _ if r < 0.97 => Some((turn, Act::Takeback)),
            _ if r < 0.985 => Some((turn, Act::OfferDraw)),
            _ => Some((turn, Act::Resign)),
        },
        Mode::Computer { human } => match r {
            _ if r < 0.89 => mv(rng),
            _ if r < 0.98 && model.has_moved(human) => Some((human, Act::Takeback)),
            _ if r < 0.98 => mv(rng),
            _ => Some((human, Act::Resign)),
        },
        Mode::Friend => {
            if let Some(by) = model.draw_offer {
                let other = !by;
                return match r {
                    _ if r < 0.5 => Some((other, Act::DeclineDraw)),
                    _ if r < 0.65 => Some((other, Act::OfferDraw)),
                    _ if turn == other => mv(rng),
                    _ => Some((other, Act::DeclineDraw)),
                };
            }
            if let Some(by) = model.takeback_request {
                let other = !by;
                return match r {
                    _ if r < 0.5 => Some((other, Act::Takeback)),
                    _ if r < 0.85 => Some((other, Act::DeclineTakeback)),
                    _ if turn == other => mv(rng),
                    _ => Some((other, Act::DeclineTakeback)),
                };
            }
            let side = if rng.random_bool(0.5) { turn } else { !turn };
            match r {
                _ if r < 0.84 => mv(rng),
                _ if r < 0.90 => Some((side, Act::OfferDraw)),
                _ if r < 0.98 && model.has_moved(side) => Some((side, Act::Takeback)),
                _ if r < 0.98 => mv(rng),
                _ => Some((side, Act::Resign)),
            }
        }
    }
}

/// Plays `game` until it ends or the run's time is up.
async fn play(ctx: &Ctx, rng: &mut StdRng, game: &mut Played) {
    while Instant::now() < ctx.until && game.model.live() && !game.stuck {
        if game.model.computer_to_move() {
            wait_for_computer(ctx, game).await;
            continue;
        }
        if game.model.timed && rng.random_bool(0.03) {
            // A player thinking, so that the shortest clocks run out now and then.
            tokio::time::sleep(Duration::from_millis(rng.random_range(0..4000))).await;
        }
        let Some((by, mut act)) = choose(&game.model, rng) else {
            ctx.stats()
                .problem(format!("{}: no action to choose", game.describe()));
            game.stuck = true;
            return;
        };
        if let Act::Move(text) = &mut act
            && rng.random_bool(ctx.odd_spellings)
        {
            *text = format!(" {text} ");
        }
        act_until_answered(ctx, rng, game, by, act).await;
    }
}

/// A hang-up at a random moment, closed with FIN or RST at random.
fn hang_up_plan(rng: &mut StdRng) -> (HangUp, Close) {
    let when = match rng.random_range(0..3) {
        0 => HangUp::Partial(rng.random()),
        1 => HangUp::AfterSend,
        _ => HangUp::AfterDelay(Duration::from_micros(rng.random_range(0..30_000))),
    };
    let close = if rng.random_bool(0.5) {
        Close::Fin
    } else {
        Close::Rst
    };
    (when, close)
}

/// Sends `act` by `by`, made on the model's state, until it gets a final answer, and
/// checks the state after it.
async fn act_until_answered(ctx: &Ctx, rng: &mut StdRng, game: &mut Played, by: Colour, act: Act) {
    let made_on = game.model.seq;
    let token = game.token(by).to_owned();
    let started = Instant::now();
    let mut hangups = 0;
    let mut tries = 0;
    let mut last_failure = String::new();
    loop {
        if started.elapsed() > PATIENCE {
            let what = format!(
                "{}: {act:?} on seq {made_on} had no final answer in {} s (last: {last_failure})",
                game.describe(),
                PATIENCE.as_secs()
            );
            let mut stats = ctx.stats();
            stats.half_done += 1;
            stats.problem(what);
            game.stuck = true;
            return;
        }
        tries += 1;
        let plan = (hangups < 3 && rng.random_bool(ctx.hang_share)).then(|| hang_up_plan(rng));
        let over_ws = rng.random_bool(ctx.ws_share);
        let reply = if over_ws {
            ctx.stats().ws_attempts += 1;
            let msg = {
                let mut m = act.fields(made_on);
                m["type"] = json!("action");
                m
            };
            ws_act(ctx.addr(), &game.id, &token, &msg, plan).await
        } else {
            ctx.stats().http_attempts += 1;
            let (path, body) = if rng.random_bool(0.5) {
                ("/action", act.fields(made_on))
            } else {
                act.route(made_on)
            };
            let path = format!("/api/games/{}{path}", game.id);
            let body = body.to_string();
            request(ctx.addr(), "POST", &path, Some(&token), Some(&body), plan).await
        };
        match reply {
            Reply::HungUp => {
                hangups += 1;
                let mut stats = ctx.stats();
                if let Some((when, close)) = plan {
                    match close {
                        Close::Fin => stats.hangups_fin += 1,
                        Close::Rst => stats.hangups_rst += 1,
                    }
                    match when {
                        HangUp::Partial(_) => stats.hangups_partial += 1,
                        HangUp::AfterSend => stats.hangups_after_send += 1,
                        HangUp::AfterDelay(_) => stats.hangups_after_delay += 1,
                    }
                    if over_ws {
                        stats.ws_drops += 1;
                    }
                }
            }
            Reply::Failed(why) => {
                last_failure = why;
                ctx.stats().no_answer += 1;
                tokio::time::sleep(Duration::from_millis(rng.random_range(20..200))).await;
            }
            Reply::Answer(status @ (500 | 503), body) => {
                last_failure = format!("{status} {body}");
                ctx.stats().server_errors += 1;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Reply::Answer(200, body) => {
                game.ledger.push((made_on + 1, act.name()));
                {
                    let mut stats = ctx.stats();
                    *stats.acked.entry(act.name()).or_default() += 1;
                    stats.slowest_answer = stats.slowest_answer.max(started.elapsed());
                }
                let seen = if over_ws {
                    let v: Value = serde_json::from_str(&body).unwrap_or_default();
                    if v["seq"].as_u64() != Some(made_on + 1) {
                        let mut stats = ctx.stats();
                        stats.half_done += 1;
                        stats.problem(format!(
                            "{}: {act:?} on seq {made_on} acknowledged over the WebSocket as {body}",
                            game.describe()
                        ));
                    }
                    let Some(seen) = observe(ctx, game).await else {
                        return;
                    };
                    seen
                } else {
                    match serde_json::from_str(&body)
                        .map_err(|e| e.to_string())
                        .and_then(|v| Seen::from_state(&v))
                    {
                        Ok(seen) => seen,
                        Err(e) => {
                            let mut stats = ctx.stats();
                            stats.half_done += 1;
                            stats.problem(format!(
                                "{}: {act:?} acknowledged with an unreadable state ({e}): {body}",
                                game.describe()
                            ));
                            return;
                        }
                    }
                };
                let verdict = game.model.explain(Some((by, &act)), true, &seen);
                settle(
                    ctx,
                    game,
                    verdict,
                    &seen,
                    &format!("after {act:?} on seq {made_on}"),
                );
                return;
            }
            Reply::Answer(status, body) => {
                // A final refusal: look at the game to see what became of the action.
                let first = tries == 1;
                let Some(seen) = observe(ctx, game).await else {
                    return;
                };
                let verdict = game.model.explain(Some((by, &act)), false, &seen);
                let context = format!("after {act:?} on seq {made_on} was refused {status} {body}");
                let applied = settle(ctx, game, verdict, &seen, &context);
                let mut stats = ctx.stats();
                stats.refused += 1;
                stats.slowest_answer = stats.slowest_answer.max(started.elapsed());
                if applied || (status != 409 && status != 404) {
                    stats.wrong_answers += 1;
                    stats.problem(format!(
                        "{}: {act:?} on seq {made_on} (attempt {tries}, {}) was refused {status} \
                         {body}, and it {} applied",
                        game.describe(),
                        if first { "the first" } else { "a retry" },
                        if applied { "was" } else { "was not" }
                    ));
                }
                return;
            }
        }
    }
}

/// Sends an action over a WebSocket of its own: waits for `ok` or `error` (as an answer
/// 200 with the `ok` message, or the error's status), or drops the socket as `plan` says
/// (before sending, for a plan that would cut the request).
async fn ws_act(
    addr: SocketAddr,
    id: &str,
    token: &str,
    msg: &Value,
    plan: Option<(HangUp, Close)>,
) -> Reply {
    let url = format!("ws://{addr}/api/games/{id}/ws?token={token}");
    let mut ws = match open_ws(addr, &url).await {
        Ok(ws) => ws,
        Err(e) => return Reply::Failed(e),
    };
    let wait = Duration::from_secs(5);
    if !matches!(tokio::time::timeout(wait, ws.next()).await, Ok(Some(Ok(_)))) {
        return Reply::Failed("no state on the WebSocket".into());
    }
    if let Some((when, close)) = plan {
        if !matches!(when, HangUp::Partial(_)) {
            let _ = ws.send(Message::Text(msg.to_string().into())).await;
        }
        if let HangUp::AfterDelay(d) = when {
            tokio::time::sleep(d).await;
        }
        drop_ws(ws, close).await;
        return Reply::HungUp;
    }
    if let Err(e) = ws.send(Message::Text(msg.to_string().into())).await {
        return Reply::Failed(format!("WebSocket send: {e}"));
    }
    loop {
        let next = tokio::time::timeout(Duration::from_secs(30), ws.next()).await;
        let Ok(Some(Ok(message))) = next else {
            return Reply::Failed("the WebSocket closed before the answer".into());
        };
        let Message::Text(text) = message else {
            continue;
        };
        let v: Value = serde_json::from_str(&text).unwrap_or_default();
        match v["type"].as_str() {
            Some("ok") => return Reply::Answer(200, text.to_string()),
            Some("error") => {
                let status = v["status"].as_u64().unwrap_or(0) as u16;
                return Reply::Answer(status, text.to_string());
            }
            _ => {}
        }
    }
}

type Ws = tokio_tungstenite::WebSocketStream<TcpStream>;

/// A WebSocket over a TCP stream the caller can reset.
async fn open_ws(addr: SocketAddr, url: &str) -> Result<Ws, String> {
    let wait = Duration::from_secs(5);
    let stream = match tokio::time::timeout(wait, TcpStream::connect(addr)).await {
        Ok(Ok(s)) => s,
        _ => return Err("cannot connect".into()),
    };
    match tokio::time::timeout(wait, tokio_tungstenite::client_async(url, stream)).await {
        Ok(Ok((ws, _))) => Ok(ws),
        Ok(Err(e)) => Err(format!("WebSocket handshake: {e}")),
        Err(_) => Err("WebSocket handshake timed out".into()),
    }
}

/// Drops a WebSocket without the close handshake: the TCP stream closed with FIN or RST.
async fn drop_ws(mut ws: Ws, close: Close) {
    match close {
        Close::Fin => {
            let _ = tokio::io::AsyncWriteExt::shutdown(ws.get_mut()).await;
        }
        Close::Rst => {
            let _ = socket2::SockRef::from(ws.get_ref()).set_linger(Some(Duration::ZERO));
        }
    }
    drop(ws);
}

/// The game's state as the server shows it, asked until it answers ([`PATIENCE`]); a game
/// that cannot be read counts as lost (404) or half-done.
async fn observe(ctx: &Ctx, game: &mut Played) -> Option<Seen> {
    let path = format!("/api/games/{}", game.id);
    let token = game.tokens.iter().flatten().next().cloned();
    let answer = steady(ctx, "GET", &path, token.as_deref(), None).await;
    let problem = match answer {
        Some((200, body)) => match serde_json::from_str(&body)
            .map_err(|e| e.to_string())
            .and_then(|v| Seen::from_state(&v))
        {
            Ok(seen) => return Some(seen),
            Err(e) => format!("its state is unreadable ({e}): {body}"),
        },
        Some((404, body)) => {
            let mut stats = ctx.stats();
            stats.lost += game.ledger.len().max(1);
            stats.problem(format!("{}: the game is gone: {body}", game.describe()));
            game.stuck = true;
            return None;
        }
        Some((status, body)) => format!("reading it was answered {status} {body}"),
        None => format!("no answer in {} s", PATIENCE.as_secs()),
    };
    let mut stats = ctx.stats();
    stats.half_done += 1;
    stats.problem(format!("{}: {problem}", game.describe()));
    game.stuck = true;
    None
}

/// Takes in what the state `seen` says of the game: a state that follows from the model
/// becomes the model; otherwise the discrepancy is counted and the model becomes what the
/// server shows, so that play goes on. Returns whether the action in question was applied.
fn settle(ctx: &Ctx, game: &mut Played, verdict: Verdict, seen: &Seen, context: &str) -> bool {
    let mut stats = ctx.stats();
    let what = match verdict {
        Verdict::Follows(model, applied) => {
            game.model = *model;
            return applied;
        }
        Verdict::Lost(detail) => {
            let missing = game.ledger.iter().filter(|(s, _)| *s > seen.seq).count();
            let missing_kinds: Vec<&str> = game
                .ledger
                .iter()
                .filter(|(s, _)| *s > seen.seq)
                .map(|(_, k)| *k)
                .collect();
            stats.lost += missing.max(1);
            game.ledger.retain(|(s, _)| *s <= seen.seq);
            format!("lost {missing_kinds:?}: {detail}")
        }
        Verdict::Twice(n, detail) => {
            stats.twice += n;
            format!("{n} change(s) too many: {detail}")
        }
        Verdict::Inconsistent(detail) => {
            stats.half_done += 1;
            format!("inconsistent: {detail}")
        }
    };
    stats.problem(format!("{} {context}: {what}", game.describe()));
    stats.suspects.insert(game.id.clone());
    if let Err(e) = game.model.adopt(seen) {
        stats.problem(format!(
            "{}: the server's state is unplayable: {e}",
            game.describe()
        ));
        game.stuck = true;
    }
    false
}

/// Waits for the computer's reply (or a flag falling), [`PATIENCE`] at most.
async fn wait_for_computer(ctx: &Ctx, game: &mut Played) {
    let started = Instant::now();
    while started.elapsed() < PATIENCE {
        let Some(seen) = observe(ctx, game).await else {
            return;
        };
        match game.model.explain(None, false, &seen) {
            Verdict::Follows(model, _) if model.seq == game.model.seq => {}
            Verdict::Follows(model, _) => {
                if model.game.moves().len() > game.model.game.moves().len() {
                    let mut stats = ctx.stats();
                    stats.computer_moves += 1;
                    stats.slowest_computer = stats.slowest_computer.max(started.elapsed());
                }
                game.model = *model;
                return;
            }
            verdict => {
                settle(ctx, game, verdict, &seen, "while the computer was to move");
                return;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut stats = ctx.stats();
    stats.half_done += 1;
    stats.problem(format!(
        "{}: the computer never replied at seq {} (waited {} s)",
        game.describe(),
        game.model.seq,
        PATIENCE.as_secs()
    ));
    game.stuck = true;
}

/// Compares a game with what the server holds once all is done: its state follows from
/// the acknowledged changes, the computer replies where it is to move, and its record
/// reads back with the same moves.
pub async fn check(ctx: &Ctx, mut game: Played) {
    ctx.stats().checked += 1;
    if game.stuck {
        return;
    }
    let Some(seen) = observe(ctx, &mut game).await else {
        return;
    };
    let verdict = game.model.explain(None, false, &seen);
    settle(ctx, &mut game, verdict, &seen, "at the end");
    if game.model.computer_to_move() && !game.stuck {
        wait_for_computer(ctx, &mut game).await;
    }
    let ending = game
        .model
        .seen()
        .outcome
        .map_or("live".to_owned(), |(_, t)| t);
    *ctx.stats().endings.entry(ending).or_default() += 1;
    let path = format!("/api/games/{}/record", game.id);
    let problem = match steady(ctx, "GET", &path, None, None).await {
        Some((200, text)) => match punct_core::Record::parse(&text) {
            Ok(record) => {
                let moves: Vec<String> = record.moves.iter().map(|m| m.mv.to_string()).collect();
                let expected = game.model.seen().moves;
                if moves == expected {
                    return;
                }
                format!("its record has the moves {moves:?}, its state {expected:?}")
            }
            Err(e) => format!("its record does not read back ({e}): {text}"),
        },
        Some((status, text)) => format!("its record was answered {status} {text}"),
        None => "its record was never answered".to_owned(),
    };
    let mut stats = ctx.stats();
    stats.half_done += 1;
    stats.problem(format!("{}: {problem}", game.describe()));
}

/// Watches random games over WebSockets until `ctx.until`, checking that events come in
/// sequence, and drops each socket abruptly after a while.
pub async fn watcher(ctx: Arc<Ctx>, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    while Instant::now() < ctx.until {
        let id = {
            let ids = ctx.ids.lock().unwrap_or_else(|e| e.into_inner());
            let recent = &ids[ids.len().saturating_sub(50)..];
            recent.choose(&mut rng).cloned()
        };
        let Some(id) = id else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let addr = ctx.addr();
        let url = format!("ws://{addr}/api/games/{id}/ws");
        let Ok(mut ws) = open_ws(addr, &url).await else {
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        ctx.stats().watchers += 1;
        let watch = Duration::from_millis(rng.random_range(100..3000));
        let started = Instant::now();
        let mut last: Option<u64> = None;
        while let Some(left) = watch.checked_sub(started.elapsed()) {
            let Ok(Some(Ok(Message::Text(text)))) = tokio::time::timeout(left, ws.next()).await
            else {
                break;
            };
            let v: Value = serde_json::from_str(&text).unwrap_or_default();
            let seq = v["seq"].as_u64();
            match (v["type"].as_str(), last, seq) {
                (Some("state"), _, Some(s)) => last = Some(s),
                (Some("event"), Some(l), Some(s)) if s == l + 1 => last = Some(s),
                (Some("event"), l, s) => {
                    let mut stats = ctx.stats();
                    stats.broadcast_gaps += 1;
                    stats.problem(format!(
                        "game {id}: a watcher got event seq {s:?} after seq {l:?}"
                    ));
                    last = s;
                }
                _ => {}
            }
        }
        let close = if rng.random_bool(0.5) {
            Close::Fin
        } else {
            Close::Rst
        };
        drop_ws(ws, close).await;
        ctx.stats().ws_drops += 1;
    }
}
