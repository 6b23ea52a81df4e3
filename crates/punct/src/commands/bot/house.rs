//! The house bots (`punct serve --house-bots`): the site's computer levels played as bot
//! accounts by the server's own process, each on a thread that is a `punct bot` talking to
//! the server over HTTP like any other (docs/bots.md, "The house bots"). With
//! `--house-sparring`, each level but the last keeps challenging the level above to a rated
//! blitz game, which is how the levels' ratings settle among themselves.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::Path;
use std::time::Duration;

use anyhow::Context as _;
use punct_engine::Level;
use punct_server::ops::time::TimeSource;
use punct_server::players::house;
use punct_server::room::Stored;
use punct_server::store::Store;
use punct_tui::online::wire::{ChallengeRequest, ClockTerms};

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

/// Makes the house bots of `levels` in database `db` (when missing) with new tokens, and
/// starts a thread playing each against the server that is about to listen on `addr`.
pub fn start(db: &Path, addr: SocketAddr, levels: &[Level], sparring: bool) -> anyhow::Result<()> {
    if levels.is_empty() {
        return Ok(());
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
    let addr = local(addr);
    let server = format!("http://{addr}");
    for (&level, token) in levels.iter().zip(tokens) {
        let spar = (sparring && level < Level::FULL).then(|| ChallengeRequest {
            to: house::name(Level::new(level.number() + 1).unwrap_or(Level::FULL)).to_string(),
            clock: Some(SPARRING_CLOCK),
            days: None,
            rated: true,
        });
        let plan = Plan {
            server: server.clone(),
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
        std::thread::Builder::new()
            .name(name.to_string())
            .spawn(move || {
                let _span = tracing::info_span!("house", bot = %name).entered();
                wait_for(addr);
                match play(plan) {
                    Ok(why) => tracing::warn!("stopped: {why}"),
                    Err(e) => tracing::warn!("stopped: {e:#}"),
                }
            })?;
    }
    Ok(())
}
