//! The house bots (`punct serve --house-bots`, or `punct house` on another machine): the
//! site's computer levels played as bot accounts, each on a thread that is a `punct bot`
//! talking to the server over HTTP like any other (docs/bots.md, "The house bots"). With
//! `--house-sparring`, each level but the last keeps challenging the level above to a rated
//! blitz game, which is how the levels' ratings settle among themselves.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::Path;
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::Context as _;
use punct_engine::Level;
use punct_server::ops::time::TimeSource;
use punct_server::players::house;
use punct_server::room::Stored;
use punct_server::store::Store;
use punct_tui::online::config;
use punct_tui::online::wire::{ChallengeRequest, ClockTerms};

use crate::cli::HouseArgs;

use super::rules::{Rules, SPEEDS};
use super::{Plan, play};

/// The longest a house bot thinks on a move: the web app's full strength.
const MOVETIME: Duration = Duration::from_secs(2);

/// The sparring games' clock: blitz, 3 minutes and 2 seconds a move.
const SPARRING_CLOCK: ClockTerms = ClockTerms {
    initial: 180,
    increment: 2,
};

/// The most games a house bot plays at once: fewer at full strength, which searches for
/// as long as its clock allows.
fn max_games(level: Level) -> usize {
    if level == Level::FULL { 2 } else { 4 }
}

/// The address the house bots reach a server listening on `addr` at.
fn local(addr: SocketAddr) -> SocketAddr {
    match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => (Ipv4Addr::LOCALHOST, addr.port()).into(),
        IpAddr::V6(ip) if ip.is_unspecified() => (Ipv6Addr::LOCALHOST, addr.port()).into(),
        _ => addr,
    }
}

/// Waits until something listens on `addr`: the server, which starts after the house bots.
fn wait_for(addr: SocketAddr) {
    while std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(1)).is_err() {
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// `punct house`: plays the house bots against a server elsewhere until every one has
/// stopped (its token refused: another process made the house bots new ones).
pub fn run(args: HouseArgs) -> anyhow::Result<()> {
    punct_server::ops::logging::init(punct_server::ops::logging::LogFormat::Human);
    let server = config::server_key(&args.server);
    let bots = start(&args.db, &server, None, &args.levels.0, args.sparring)?;
    for bot in bots {
        let _ = bot.join();
    }
    anyhow::bail!("every house bot has stopped")
}

/// `punct serve --house-bots`: plays the house bots against the server about to listen on
/// `addr`, each once it listens.
pub fn start_beside(
    db: &Path,
    addr: SocketAddr,
    levels: &[Level],
    sparring: bool,
) -> anyhow::Result<()> {
    let addr = local(addr);
    start(db, &format!("http://{addr}"), Some(addr), levels, sparring).map(drop)
}

/// Makes the house bots of `levels` in database `db` (when missing) with new tokens, and
/// starts a thread playing each against `server` (once something listens on `wait`).
fn start(
    db: &Path,
    server: &str,
    wait: Option<SocketAddr>,
    levels: &[Level],
    sparring: bool,
) -> anyhow::Result<Vec<JoinHandle<()>>> {
    if levels.is_empty() {
        return Ok(Vec::new());
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let tokens = runtime.block_on(async {
        let time = TimeSource::system();
        let store = Store::open::<Stored>(db, time.clone())
            .with_context(|| format!("cannot open the database {}", db.display()))?;
        let mut tokens = Vec::new();
        for &level in levels {
            let now = time.now_ms();
            tokens.push(
                store
                    .transact(move |db| house::ensure(db, level, now))
                    .await?,
            );
        }
        anyhow::Ok(tokens)
    })?;
    let mut bots = Vec::new();
    for (&level, token) in levels.iter().zip(tokens) {
        let spar = (sparring && level < Level::FULL).then(|| ChallengeRequest {
            to: house::name(Level::new(level.number() + 1).unwrap_or(Level::FULL)).to_string(),
            clock: Some(SPARRING_CLOCK),
            days: None,
            rated: true,
        });
        let plan = Plan {
            server: server.to_owned(),
            token: token.expose().to_owned(),
            engine: format!("level{}", level.number())
                .parse()
                .map_err(anyhow::Error::msg)?,
            rules: Rules {
                speeds: SPEEDS.iter().map(|s| (*s).to_owned()).collect(),
                rated: None,
                bots: true,
                max_games: max_games(level),
            },
            movetime: MOVETIME,
            challenge: None,
            spar,
        };
        let name = house::name(level);
        bots.push(
            std::thread::Builder::new()
                .name(name.to_string())
                .spawn(move || {
                    let _span = tracing::info_span!("house", bot = %name).entered();
                    if let Some(addr) = wait {
                        wait_for(addr);
                    }
                    match play(plan) {
                        Ok(why) => tracing::warn!("stopped: {why}"),
                        Err(e) => tracing::warn!("stopped: {e:#}"),
                    }
                })?,
        );
    }
    Ok(bots)
}
