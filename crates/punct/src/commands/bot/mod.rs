//! `punct bot`: plays a bot account on a server (API.md, "Bots"; docs/bots.md). The
//! account's event stream says which challenges are open and which games are being played;
//! each challenge to the bot is accepted or declined by its [`rules`], each game is played
//! on a thread of its own ([`game`]). Through a dropped connection or a server's restart
//! the stream is opened again with backoff, and tells every open challenge and live game
//! again: a game already being played is left to its thread, which reconnects by itself.

mod game;
mod rules;

use std::collections::BTreeMap;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::{Context as _, bail};
use punct_match::PlayerSpec;
use punct_tui::online::api::{EventStream, StreamNews};
use punct_tui::online::config;
use punct_tui::online::link::backoff;
use punct_tui::online::wire::{AccountEvent, Challenge, ChallengeRequest, ClockTerms};
use punct_tui::online::{Api, ApiError};

use crate::cli::BotArgs;
use rules::Rules;

/// What the threads tell the bot's main loop.
pub enum News {
    /// The event stream is open.
    Connected,
    /// A line of the event stream.
    Stream(StreamNews),
    /// The event stream broke off, and is opened again after `wait`.
    Lost {
        /// Why.
        why: String,
        /// The wait.
        wait: Duration,
    },
    /// The server no longer takes the token: nothing more can be done.
    Fatal(String),
    /// A line for the log.
    Log(String),
    /// A game's thread ended: the game's end, or why it could not be played.
    Ended {
        /// The game.
        id: String,
        /// Its end.
        result: Result<String, String>,
    },
}

/// Runs the bot until its token is refused.
pub fn run(args: BotArgs) -> anyhow::Result<()> {
    punct_server::ops::logging::init(punct_server::ops::logging::LogFormat::Human);
    let server = config::server_key(&args.server);
    let token = match args.token.clone() {
        Some(token) => token.trim().to_owned(),
        None => config::find(&config::path()?, &server)?
            .map(|login| login.token)
            .with_context(|| {
                format!("no token for {server}: give --token, or sign in with `punct login`")
            })?,
    };
    let engine: PlayerSpec = args
        .engine
        .parse()
        .map_err(|e| anyhow::anyhow!("--engine: {e}"))?;
    let rules = Rules::new(
        &args.speeds,
        &args.accept,
        !args.no_bots,
        usize::from(args.max_games),
    )
    .map_err(anyhow::Error::msg)?;
    let challenge = args
        .challenge
        .as_ref()
        .map(|to| challenge_request(to, args.clock.as_deref(), args.days, args.rated))
        .transpose()?;
    let api = Api::new(&server, Some(token))?;
    let me = whoami(&api)?;
    tracing::info!("signed in to {server} as {me}, playing with {engine}");
    let (tx, rx) = mpsc::channel();
    // The stream's thread ends by itself once nobody reads what it sends.
    {
        let (api, tx) = (api.clone(), tx.clone());
        std::thread::spawn(move || follow_events(&api, &tx));
    }
    let bot = Bot {
        api,
        me,
        engine,
        rules,
        movetime: Duration::from_millis(args.movetime),
        playing: BTreeMap::new(),
        seed: 0,
        news: tx,
    };
    bail!(bot.serve(&rx, challenge))
}

/// The request of `--challenge`.
fn challenge_request(
    to: &str,
    clock: Option<&str>,
    days: Option<u32>,
    rated: bool,
) -> anyhow::Result<ChallengeRequest> {
    let clock = match clock {
        None => None,
        Some(text) => {
            let (minutes, seconds) = text
                .split_once('+')
                .and_then(|(m, s)| Some((m.trim().parse::<i64>().ok()?, s.trim().parse().ok()?)))
                .with_context(|| {
                    format!("--clock `{text}`: expected MINUTES+SECONDS, such as 3+2")
                })?;
            Some(ClockTerms {
                initial: minutes.saturating_mul(60),
                increment: seconds,
            })
        }
    };
    if clock.is_none() && days.is_none() {
        bail!("--challenge needs --clock MINUTES+SECONDS or --days N");
    }
    Ok(ChallengeRequest {
        to: to.to_owned(),
        clock,
        days,
        rated,
    })
}

/// The account's name, asked again while the server cannot be reached.
fn whoami(api: &Api) -> anyhow::Result<String> {
    let mut attempt = 0;
    loop {
        match api.whoami() {
            Ok(name) => return Ok(name),
            Err(ApiError::Unreachable(why)) => {
                attempt += 1;
                let wait = backoff(attempt);
                tracing::warn!("{why}: trying again in {:.1} s", wait.as_secs_f64());
                std::thread::sleep(wait);
            }
            Err(e) => bail!("{e}"),
        }
    }
}

/// Reads the event stream into `news`, opening it again whenever it breaks, until the
/// token is refused or the bot is gone.
fn follow_events(api: &Api, news: &Sender<News>) {
    let mut attempt = 0;
    loop {
        let why = match api.events() {
            Ok(stream) => {
                attempt = 0;
                if news.send(News::Connected).is_err() {
                    return;
                }
                match read_stream(stream, news) {
                    Some(why) => why,
                    None => return,
                }
            }
            Err(ApiError::BadToken) => {
                let _ = news.send(News::Fatal(ApiError::BadToken.to_string()));
                return;
            }
            Err(e) => e.to_string(),
        };
        attempt += 1;
        let wait = backoff(attempt);
        if news.send(News::Lost { why, wait }).is_err() {
            return;
        }
        std::thread::sleep(wait);
    }
}

/// Hands the stream's lines to `news` until it breaks (why) or nobody listens (`None`).
fn read_stream(mut stream: EventStream, news: &Sender<News>) -> Option<String> {
    loop {
        match stream.read() {
            Ok(line) => news.send(News::Stream(line)).ok()?,
            Err(e) => return Some(e.to_string()),
        }
    }
}

/// The bot's state: its games being played, each on a thread.
struct Bot {
    api: Api,
    me: String,
    engine: PlayerSpec,
    rules: Rules,
    movetime: Duration,
    playing: BTreeMap<String, JoinHandle<()>>,
    seed: u64,
    news: Sender<News>,
}

impl Bot {
    /// Serves until the token is refused; why it stopped.
    fn serve(mut self, news: &Receiver<News>, mut challenge: Option<ChallengeRequest>) -> String {
        loop {
            let got = match news.recv_timeout(Duration::from_millis(500)) {
                Ok(got) => got,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return "the event stream stopped".into(),
            };
            match got {
                News::Connected => {
                    tracing::info!("event stream open");
                    if let Some(request) = challenge.take() {
                        match self.api.challenge(&request) {
                            Ok(c) => tracing::info!("challenged {} ({})", request.to, c.id),
                            Err(e) => tracing::warn!("cannot challenge {}: {e}", request.to),
                        }
                    }
                }
                News::Stream(StreamNews::Event(event)) => self.on_event(event),
                News::Stream(StreamNews::Alive) => {}
                News::Stream(StreamNews::Unread(why)) => {
                    tracing::warn!("an event this bot does not read: {why}");
                }
                News::Lost { why, wait } => tracing::warn!(
                    "event stream lost ({why}): opening it again in {:.1} s",
                    wait.as_secs_f64()
                ),
                News::Fatal(why) => return why,
                News::Log(line) => tracing::info!("{line}"),
                News::Ended { id, result } => {
                    if let Some(thread) = self.playing.remove(&id) {
                        let _ = thread.join();
                    }
                    match result {
                        Ok(end) => tracing::info!("game {id} over: {end}"),
                        Err(why) => tracing::warn!("game {id} stopped: {why}"),
                    }
                }
            }
        }
    }

    fn on_event(&mut self, event: AccountEvent) {
        match event {
            AccountEvent::Challenge { challenge } => self.on_challenge(&challenge),
            AccountEvent::ChallengeGone { id, status } => {
                tracing::info!("challenge {id} {status}");
            }
            AccountEvent::GameStart { game } => {
                if !self.playing.contains_key(&game.game) {
                    let against = game.opponent.as_deref().unwrap_or("a player");
                    tracing::info!(
                        "game {} ({} {}, {against}): playing {}",
                        game.game,
                        if game.rated { "rated" } else { "casual" },
                        game.speed,
                        game.colour
                    );
                    self.start(game.game);
                }
            }
            AccountEvent::GameFinish { game } => {
                let result = game.result.as_deref().unwrap_or("ended");
                tracing::info!("game {} finished: {result}", game.game);
            }
            AccountEvent::Other => {}
        }
    }

    fn on_challenge(&self, challenge: &Challenge) {
        if !challenge.to.eq_ignore_ascii_case(&self.me) {
            tracing::info!("challenge {} to {} is open", challenge.id, challenge.to);
            return;
        }
        let refused = self.rules.refuse(challenge, self.playing.len());
        let accept = refused.is_none();
        match (self.api.answer_challenge(&challenge.id, accept), refused) {
            (Ok(()), None) => tracing::info!(
                "accepted challenge {} from {} ({}{})",
                challenge.id,
                challenge.from,
                if challenge.rated { "rated " } else { "" },
                challenge.speed
            ),
            (Ok(()), Some(why)) => tracing::info!(
                "declined challenge {} from {}: {why}",
                challenge.id,
                challenge.from
            ),
            (Err(e), _) => tracing::warn!("cannot answer challenge {}: {e}", challenge.id),
        }
    }

    fn start(&mut self, id: String) {
        self.seed += 1;
        let seat = game::Seat {
            api: self.api.clone(),
            id: id.clone(),
            engine: self.engine.clone(),
            seed: self.seed,
            movetime: self.movetime,
        };
        let news = self.news.clone();
        let thread = std::thread::spawn({
            let id = id.clone();
            move || {
                let result = game::play(seat, &news);
                let _ = news.send(News::Ended { id, result });
            }
        });
        self.playing.insert(id, thread);
    }
}
