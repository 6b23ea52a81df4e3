//! What is known of where a request came from: the client's address (for the limits on
//! guessing) and whether it came over HTTPS (for the cookies' `Secure`). The server itself
//! serves plain HTTP; behind a reverse proxy that terminates TLS, `Config::trust_proxy` makes
//! it believe the proxy's `X-Forwarded-Proto` and the last address of `X-Forwarded-For` (the
//! one the proxy added). Without it both headers are ignored: any client could write them.

use std::net::{IpAddr, SocketAddr};

use axum::extract::ConnectInfo;
use axum::http::request::Parts;

/// Where a request came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Client {
    /// The client's address, if known.
    pub address: Option<IpAddr>,
    /// Whether the client reached us over HTTPS.
    pub https: bool,
}

/// Where `parts` came from, believing the proxy's headers when `trust_proxy`.
pub fn of(parts: &Parts, trust_proxy: bool) -> Client {
    let peer = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(peer)| peer.ip());
    if !trust_proxy {
        return Client {
            address: peer,
            https: false,
        };
    }
    let header = |name: &str| {
        parts
            .headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .next_back()
            .map(str::to_owned)
    };
    let forwarded = header("x-forwarded-for").and_then(|a| a.parse::<IpAddr>().ok());
    Client {
        address: forwarded.or(peer),
        https: header("x-forwarded-proto").is_some_and(|p| p.eq_ignore_ascii_case("https")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::Request;

    fn parts(headers: &[(&str, &str)]) -> Parts {
        let mut r = Request::builder().uri("/");
        for (n, v) in headers {
            r = r.header(*n, *v);
        }
        let (mut parts, ()) = r.body(()).unwrap().into_parts();
        parts
            .extensions
            .insert(ConnectInfo(SocketAddr::from(([10, 0, 0, 1], 5000))));
        parts
    }

    #[test]
    fn the_headers_count_only_from_a_trusted_proxy() {
        let p = parts(&[
            ("x-forwarded-for", "1.2.3.4, 5.6.7.8"),
            ("x-forwarded-proto", "https"),
        ]);
        let peer: IpAddr = "10.0.0.1".parse().unwrap();
        assert_eq!(
            of(&p, false),
            Client {
                address: Some(peer),
                https: false
            }
        );
        let trusted = of(&p, true);
        assert_eq!(trusted.address, Some("5.6.7.8".parse().unwrap()));
        assert!(trusted.https);
        let bare = of(&parts(&[("x-forwarded-for", "nonsense")]), true);
        assert_eq!(
            bare,
            Client {
                address: Some(peer),
                https: false
            }
        );
    }
}
