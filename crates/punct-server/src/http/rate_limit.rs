//! Rate limits per client address on the requests that cost the server most to grant: new
//! games, joins and analyses. Each address has a bucket (governor's GCRA): a burst at once,
//! then one request every so often; past it the answer is 429 with `Retry-After` and a
//! JSON reason. The buckets fill by the server's time source ([`crate::ops::time`]).

use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::Clock;
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

use crate::http::error::ApiError;
use crate::ops::time::TimeSource;

/// How often the buckets of addresses that have not been seen for a while are dropped.
const FORGET_EVERY: Duration = Duration::from_secs(60);

/// A rate: `burst` requests at once, then one more every `every`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// Requests an address may make at once.
    pub burst: u32,
    /// The time after which an address may make one more.
    pub every: Duration,
}

/// The rate limits per client address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimits {
    /// Creating games (`POST /api/games`).
    pub create: Rate,
    /// Joining games (`POST /api/games/{id}/join`).
    pub join: Rate,
    /// Analyses (`POST /api/analyse`).
    pub analyse: Rate,
}

impl Default for RateLimits {
    fn default() -> RateLimits {
        // Generous for people (a few games a minute, several behind one shared address);
        // tight for a script.
        RateLimits {
            create: Rate {
                burst: 20,
                every: Duration::from_secs(3),
            },
            join: Rate {
                burst: 20,
                every: Duration::from_secs(3),
            },
            analyse: Rate {
                burst: 30,
                every: Duration::from_secs(1),
            },
        }
    }
}

/// The server's time source as the rate limiter's clock: the time since the epoch.
#[derive(Clone, Debug)]
struct ServerClock(TimeSource);

impl Clock for ServerClock {
    type Instant = Duration;

    fn now(&self) -> Duration {
        Duration::from_millis(u64::try_from(self.0.now_ms()).unwrap_or(0))
    }
}

/// Each address's bucket.
type Buckets =
    RateLimiter<IpAddr, DefaultKeyedStateStore<IpAddr>, ServerClock, NoOpMiddleware<Duration>>;

/// One limit, shared by the routes it guards.
#[derive(Clone)]
pub(crate) struct Limiter(Arc<Inner>);

struct Inner {
    /// What is limited, for the refusal: "new games".
    what: &'static str,
    rate: Rate,
    buckets: Buckets,
    clock: ServerClock,
    forgotten: Mutex<Instant>,
}

impl Limiter {
    /// The limit `rate` on `what`, its buckets filling by `time`.
    pub(crate) fn new(what: &'static str, rate: Rate, time: TimeSource) -> Limiter {
        let quota = Quota::with_period(rate.every.max(Duration::from_nanos(1)))
            .expect("a period above zero")
            .allow_burst(NonZeroU32::new(rate.burst).unwrap_or(NonZeroU32::MIN));
        let clock = ServerClock(time);
        Limiter(Arc::new(Inner {
            what,
            rate,
            buckets: RateLimiter::hashmap_with_clock(quota, clock.clone()),
            clock,
            forgotten: Mutex::new(Instant::now()),
        }))
    }

    /// Takes one request from `ip`'s bucket, or says how long until it may be made.
    fn check(&self, ip: IpAddr) -> Result<(), Duration> {
        let inner = &self.0;
        if let Ok(mut forgotten) = inner.forgotten.try_lock()
            && forgotten.elapsed() >= FORGET_EVERY
        {
            *forgotten = Instant::now();
            inner.buckets.retain_recent();
            inner.buckets.shrink_to_fit();
        }
        inner
            .buckets
            .check_key(&key(ip))
            .map_err(|not_until| not_until.wait_time_from(inner.clock.now()))
    }
}

/// The address a limit is kept for: an IPv6 client is known by its /64 network, since one
/// machine often has a whole /64 to itself (an IPv4 address mapped into IPv6 counts as
/// itself).
fn key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from_bits(v6.to_bits() & !((1u128 << 64) - 1))),
        },
        v4 => v4,
    }
}

/// The middleware: refuses the request with 429 when its address is over the limit.
pub(crate) async fn limit(
    State(limiter): State<Limiter>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    let Err(wait) = limiter.check(peer.ip()) else {
        return next.run(request).await;
    };
    let Rate { burst, every } = limiter.0.rate;
    let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
    let mut refusal = ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        format!(
            "too many {} from your address (at most {burst} at once, then one every {}); \
             try again in {seconds} s",
            limiter.0.what,
            humane(every)
        ),
    )
    .into_response();
    refusal
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    refusal
}

/// `every` as people say it: "3 s", "500 ms".
fn humane(every: Duration) -> String {
    if every.subsec_millis() == 0 {
        format!("{} s", every.as_secs())
    } else {
        format!("{} ms", every.as_millis())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_one_per_period_for_each_address() {
        let limiter = Limiter::new(
            "tests",
            Rate {
                burst: 2,
                every: Duration::from_secs(60),
            },
            TimeSource::system(),
        );
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        assert!(limiter.check(a).is_ok());
        assert!(limiter.check(a).is_ok());
        let wait = limiter.check(a).unwrap_err();
        assert!(wait > Duration::from_secs(50) && wait <= Duration::from_secs(60));
        assert!(limiter.check(b).is_ok());
    }

    #[test]
    fn ipv6_clients_are_known_by_their_64_network() {
        let one: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let same_net: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let other_net: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(key(one), key(same_net));
        assert_ne!(key(one), key(other_net));
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        assert_eq!(key(mapped), "192.0.2.7".parse::<IpAddr>().unwrap());
    }
}
