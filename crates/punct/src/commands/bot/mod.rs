//! `punct bot`: plays a bot account on a server (API.md, "Bots"; docs/bots.md). The
//! account's event stream says which challenges are open and which games are being played;
//! each challenge to the bot is accepted or declined by its [`rules`], each game is played
//! on a thread of its own ([`game`]). Through a dropped connection or a server's restart
//! the stream is opened again with backoff, and tells every open challenge and live game
//! again: a game already being played is left to its thread, which reconnects by itself.

mod game;
pub mod house;
mod rules;

use std::collections::BTreeMap;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

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

/// What a bot is told to do: whom it plays as, with what, and by which rules.
pub struct Plan {
    /// The server, as [`config::server_key`] gives it.
    pub server: String,
    /// The bot account's token.
    pub token: String,
    /// Who plays.
    pub engine: PlayerSpec,
    /// Which challenges it accepts.
    pub rules: Rules,
    /// The longest search of a move.
    pub movetime: Duration,
    /// A challenge made once connected.
    pub challenge: Option<ChallengeRequest>,
    /// A challenge made again whenever the bot has none open and no game with its
    /// opponent (the house bots' sparring).
    pub spar: Option<ChallengeRequest>,
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
    bail!(play(Plan {
        server,
        token,
        engine,
        rules,
        movetime: Duration::from_millis(args.movetime),
        challenge,
        spar: None,
    })?)
}

/// Plays as the bot of `plan` until its token is refused: why it stopped.
pub fn play(plan: Plan) -> anyhow::Result<String> {
    let api = Api::new(&plan.server, Some(plan.token))?;
    let me = whoami(&api)?;
    tracing::info!(
        "signed in to {} as {me}, playing with {}",
        plan.server,
        plan.engine
    );
    let (tx, rx) = mpsc::channel();
    // The stream's thread ends by itself once nobody reads what it sends.
    {
        let (api, tx) = (api.clone(), tx.clone());
        std::thread::spawn(move || follow_events(&api, &tx, SILENCE));
    }
    let bot = Bot {
        api,
        me,
        engine: plan.engine,
        rules: plan.rules,
        movetime: plan.movetime,
        playing: BTreeMap::new(),
        seed: 0,
        news: tx,
        spar: plan.spar.map(Spar::new),
    };
    Ok(bot.serve(&rx, plan.challenge))
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

/// How long the event stream may stay silent before it is taken for lost: the server
/// writes an empty line every 5 s, so this long without one means a connection that broke
/// without saying so (a network dropping packets without a reset).
const SILENCE: Duration = Duration::from_secs(20);

/// Reads the event stream into `news`, opening it again whenever it breaks or stays
/// silent for `silence`, until the token is refused or the bot is gone.
fn follow_events(api: &Api, news: &Sender<News>, silence: Duration) {
    let mut attempt = 0;
    loop {
        let why = match api.events() {
            Ok(stream) => {
                attempt = 0;
                if news.send(News::Connected).is_err() {
                    return;
                }
                match read_stream(stream, news, silence) {
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

/// Hands the stream's lines to `news` until it breaks or stays silent for `silence` (why),
/// or nobody listens (`None`). The stream is read on a thread of its own, which a silent
/// connection leaves blocked until the operating system gives the connection up; what it
/// reads then goes nowhere.
fn read_stream(mut stream: EventStream, news: &Sender<News>, silence: Duration) -> Option<String> {
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        loop {
            let line = stream.read();
            let broke = line.is_err();
            if tx.send(line).is_err() || broke {
                return;
            }
        }
    });
    loop {
        match lines.recv_timeout(silence) {
            Ok(Ok(line)) => news.send(News::Stream(line)).ok()?,
            Ok(Err(e)) => return Some(e.to_string()),
            Err(RecvTimeoutError::Timeout) => {
                return Some(format!("nothing heard for {} s", silence.as_secs_f64()));
            }
            Err(RecvTimeoutError::Disconnected) => return Some("the stream ended".to_owned()),
        }
    }
}

/// A game being played, on its thread.
struct Playing {
    thread: JoinHandle<()>,
    /// The opponent's name.
    opponent: Option<String>,
}

/// A challenge the bot makes again and again, one at a time.
struct Spar {
    request: ChallengeRequest,
    /// The challenge made and still open.
    open: Option<String>,
    /// No challenge before this.
    next: Instant,
}

impl Spar {
    /// How long after a challenge ends the next is made (longer after a failure).
    const PAUSE: Duration = Duration::from_secs(2);
    const AFTER_FAILURE: Duration = Duration::from_secs(30);

    /// Whether `opponent` is the one sparred with.
    fn against(&self, opponent: Option<&str>) -> bool {
        opponent.is_some_and(|o| o.eq_ignore_ascii_case(&self.request.to))
    }

    fn new(request: ChallengeRequest) -> Spar {
        Spar {
            request,
            open: None,
            next: Instant::now(),
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
    playing: BTreeMap<String, Playing>,
    seed: u64,
    news: Sender<News>,
    spar: Option<Spar>,
}

impl Bot {
    /// Serves until the token is refused; why it stopped.
    fn serve(mut self, news: &Receiver<News>, mut challenge: Option<ChallengeRequest>) -> String {
        loop {
            self.spar();
            let got = match news.recv_timeout(Duration::from_millis(500)) {
                Ok(got) => got,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return "the event stream stopped".into(),
            };
            match got {
                News::Connected => {
                    tracing::info!("event stream open");
                    // The stream tells every open challenge again, the sparring one too.
                    if let Some(spar) = &mut self.spar {
                        spar.open = None;
                        spar.next = Instant::now() + Duration::from_secs(5);
                    }
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
                    if let Some(game) = self.playing.remove(&id) {
                        let _ = game.thread.join();
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
                if let Some(spar) = &mut self.spar
                    && spar.open.as_ref() == Some(&id)
                {
                    spar.open = None;
                    spar.next = Instant::now() + Spar::PAUSE;
                }
            }
            AccountEvent::GameStart { game } => {
                // The sparring challenge, accepted: the stream may not have told it open
                // (made and accepted between two of its reads), so it is not told gone.
                if let Some(spar) = &mut self.spar
                    && spar.against(game.opponent.as_deref())
                {
                    spar.open = None;
                }
                if !self.playing.contains_key(&game.game) {
                    let against = game.opponent.as_deref().unwrap_or("a player");
                    tracing::info!(
                        "game {} ({} {}, {against}): playing {}",
                        game.game,
                        if game.rated { "rated" } else { "casual" },
                        game.speed,
                        game.colour
                    );
                    self.start(game.game, game.opponent);
                }
            }
            AccountEvent::GameFinish { game } => {
                let result = game.result.as_deref().unwrap_or("ended");
                tracing::info!("game {} finished: {result}", game.game);
            }
            AccountEvent::Other => {}
        }
    }

    fn on_challenge(&mut self, challenge: &Challenge) {
        if !challenge.to.eq_ignore_ascii_case(&self.me) {
            tracing::info!("challenge {} to {} is open", challenge.id, challenge.to);
            if let Some(spar) = &mut self.spar
                && spar.against(Some(&challenge.to))
            {
                spar.open = Some(challenge.id.clone());
            }
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

    /// Makes the sparring challenge when it is due: none open, no game being played
    /// against that opponent, and room for one more game.
    fn spar(&mut self) {
        let Some(spar) = &mut self.spar else {
            return;
        };
        let busy = self
            .playing
            .values()
            .any(|g| spar.against(g.opponent.as_deref()));
        if spar.open.is_some()
            || busy
            || Instant::now() < spar.next
            || self.playing.len() >= self.rules.max_games
        {
            return;
        }
        match self.api.challenge(&spar.request) {
            Ok(c) => {
                tracing::info!("challenged {} ({})", spar.request.to, c.id);
                spar.open = Some(c.id);
            }
            Err(e) => {
                tracing::warn!("cannot challenge {}: {e}", spar.request.to);
                spar.next = Instant::now() + Spar::AFTER_FAILURE;
            }
        }
    }

    fn start(&mut self, id: String, opponent: Option<String>) {
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
        self.playing.insert(id, Playing { thread, opponent });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead as _, BufReader, Write as _};
    use std::net::TcpListener;

    /// A server that answers the event stream's request with its head and then says
    /// nothing more, holding each connection open: a connection broken without a reset.
    fn silent_server() -> String {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            let mut held = Vec::new();
            for stream in listener.incoming() {
                let mut stream = stream.unwrap();
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                while reader.read_line(&mut line).unwrap() > 2 {
                    line.clear();
                }
                stream
                    .write_all(
                        b"HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\n\
                          Connection: close\r\n\r\n",
                    )
                    .unwrap();
                held.push(stream);
            }
        });
        format!("http://{addr}")
    }

    #[test]
    fn a_silent_event_stream_is_taken_for_lost_and_opened_again() {
        let api = Api::new(&silent_server(), Some("punct_test".to_owned())).unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || follow_events(&api, &tx, Duration::from_millis(300)));
        let next = || rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(matches!(next(), News::Connected));
        match next() {
            News::Lost { why, .. } => assert_eq!(why, "nothing heard for 0.3 s"),
            _ => panic!("not lost"),
        }
        assert!(matches!(next(), News::Connected), "not opened again");
    }
}
