//! The check on requests that could change something on a signed-in visitor's behalf
//! (`POST`, `PUT`, `PATCH`, `DELETE`, and WebSocket upgrades): a page on another site can
//! make the visitor's browser send them, cookies included. Such a request carrying a live
//! session is let through only if it says it comes from one of our pages (`Origin`, or
//! `Referer` when a browser sends no `Origin`) and carries the session's CSRF token
//! (`X-CSRF-Token`; a browser cannot set headers on a WebSocket, so an upgrade may carry it
//! as the `csrf` query parameter instead). Whatever the credentials, an unsafe request that
//! names another site as its `Origin` is refused: signing a visitor into someone else's
//! account is an attack too.

use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, header};

use crate::players::sessions::Session;

/// The header the page sends its CSRF token in.
pub const HEADER: &str = "x-csrf-token";

/// Whether `parts` asks for a change: an unsafe method, or a WebSocket upgrade.
pub fn is_unsafe(parts: &Parts) -> bool {
    !matches!(
        parts.method,
        Method::GET | Method::HEAD | Method::OPTIONS | Method::TRACE
    ) || is_upgrade(&parts.headers)
}

fn is_upgrade(headers: &HeaderMap) -> bool {
    headers
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"))
}

/// The host and port (`authority`) of a URL `scheme://authority/…`, if it is `http` or
/// `https`.
fn authority(url: &str) -> Option<&str> {
    let (scheme, rest) = url.split_once("://")?;
    if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")) {
        return None;
    }
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    Some(&rest[..end]).filter(|a| !a.is_empty())
}

/// Where a request says it comes from.
#[derive(Debug, PartialEq, Eq)]
enum Claimed {
    /// Nothing says.
    Unknown,
    /// One of our pages.
    Us,
    /// Another site (or something that is not a web page's address, like `null`).
    Elsewhere,
}

/// Where `headers` say the request comes from. Ours means the same host and port as the
/// request's `Host`: the scheme is not compared, since behind a proxy that ends TLS the
/// server cannot tell it without trusting the proxy.
fn from(headers: &HeaderMap) -> Claimed {
    let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    let Some(claimed) = text(header::ORIGIN).or_else(|| text(header::REFERER)) else {
        return Claimed::Unknown;
    };
    let host = text(header::HOST);
    match (authority(claimed), host) {
        (Some(a), Some(host)) if a.eq_ignore_ascii_case(host.trim()) => Claimed::Us,
        _ => Claimed::Elsewhere,
    }
}

/// Refuses an unsafe request that names another site as its origin (with or without
/// credentials).
pub fn foreign(parts: &Parts) -> Option<&'static str> {
    (is_unsafe(parts) && from(&parts.headers) == Claimed::Elsewhere).then_some(
        "refused: this request comes from another site (its Origin or Referer is not this server)",
    )
}

/// The token an unsafe request of `session`'s carries, if any.
fn presented(parts: &Parts) -> Option<&str> {
    if let Some(v) = parts.headers.get(HEADER).and_then(|v| v.to_str().ok()) {
        return Some(v.trim());
    }
    if !is_upgrade(&parts.headers) {
        return None;
    }
    parts
        .uri
        .query()?
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(name, _)| *name == "csrf")
        .map(|(_, value)| value)
}

/// Why the unsafe request `parts`, carrying the live `session`'s cookie, is refused, if it
/// is.
pub fn refusal(parts: &Parts, session: &Session) -> Option<&'static str> {
    if !is_unsafe(parts) {
        return None;
    }
    match from(&parts.headers) {
        Claimed::Us => {}
        Claimed::Unknown => {
            return Some(
                "refused: a signed-in change must say where it comes from (an Origin or Referer header)",
            );
        }
        Claimed::Elsewhere => {
            return Some(
                "refused: this request comes from another site (its Origin or Referer is not this server)",
            );
        }
    }
    match presented(parts) {
        None => {
            Some("refused: a signed-in change needs the session's CSRF token (header X-CSRF-Token)")
        }
        Some(token) if !session.csrf_matches(token) => {
            Some("refused: the CSRF token is not this session's (sign in again if it persists)")
        }
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::Request;

    fn parts(method: &str, uri: &str, headers: &[(&str, &str)]) -> Parts {
        let mut r = Request::builder().method(method).uri(uri);
        for (n, v) in headers {
            r = r.header(*n, *v);
        }
        r.body(()).unwrap().into_parts().0
    }

    #[test]
    fn the_origin_is_ours_when_its_host_is_the_request_s() {
        let ours = |h: &[(&str, &str)]| from(&parts("POST", "/", h).headers);
        let host = ("host", "punct.example:8080");
        assert_eq!(ours(&[host]), Claimed::Unknown);
        assert_eq!(
            ours(&[host, ("origin", "https://punct.example:8080")]),
            Claimed::Us
        );
        assert_eq!(
            ours(&[host, ("origin", "http://PUNCT.example:8080")]),
            Claimed::Us
        );
        assert_eq!(
            ours(&[host, ("origin", "https://punct.example")]),
            Claimed::Elsewhere
        );
        assert_eq!(
            ours(&[host, ("origin", "https://evil.example")]),
            Claimed::Elsewhere
        );
        assert_eq!(ours(&[host, ("origin", "null")]), Claimed::Elsewhere);
        assert_eq!(
            ours(&[host, ("origin", "https://punct.example:8080.evil.example")]),
            Claimed::Elsewhere
        );
        assert_eq!(
            ours(&[host, ("referer", "http://punct.example:8080/account?x#y")]),
            Claimed::Us
        );
        assert_eq!(
            ours(&[host, ("referer", "http://evil.example/punct.example:8080")]),
            Claimed::Elsewhere
        );
        assert_eq!(
            ours(&[("origin", "http://punct.example:8080")]),
            Claimed::Elsewhere
        );
    }

    #[test]
    fn reads_and_plain_gets_are_safe_but_upgrades_are_not() {
        assert!(!is_unsafe(&parts("GET", "/", &[])));
        assert!(!is_unsafe(&parts("HEAD", "/", &[])));
        assert!(is_unsafe(&parts("DELETE", "/", &[])));
        assert!(is_unsafe(&parts("GET", "/ws", &[("upgrade", "websocket")])));
    }

    #[test]
    fn an_upgrade_may_carry_the_token_in_its_query() {
        let ws = parts("GET", "/ws?a=1&csrf=tok", &[("upgrade", "WebSocket")]);
        assert_eq!(presented(&ws), Some("tok"));
        let post = parts("POST", "/x?csrf=tok", &[]);
        assert_eq!(presented(&post), None);
        let header = parts("POST", "/x", &[(HEADER, " tok ")]);
        assert_eq!(presented(&header), Some("tok"));
    }
}
