//! The two cookies of a signed-in browser: the session (`punct_session`, `HttpOnly`: no
//! script reads it) and its CSRF token (`punct_csrf`, readable by the page, which sends it
//! back in `X-CSRF-Token`). Both `SameSite=Lax; Path=/`, and `Secure` when the request came
//! over HTTPS. The token is checked against the session's stored hash, never against the
//! cookie: the cookie only carries it to the page.

use axum::http::{HeaderMap, HeaderValue, header};

use crate::players::sessions::{IDLE_MS, NewSession};

/// The session cookie's name.
pub const SESSION: &str = "punct_session";

/// The CSRF token cookie's name.
pub const CSRF: &str = "punct_csrf";

/// The value of cookie `name` among the request's `Cookie` headers, if it has one.
pub fn read<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, _)| *n == name)
        .map(|(_, value)| value.trim().trim_matches('"'))
        .filter(|value| !value.is_empty())
}

/// `Set-Cookie` for cookie `name` holding `value` (our secrets: base32 and hex, nothing to
/// escape), lasting as long as an unused session, readable by scripts or not.
pub fn set(name: &str, value: &str, http_only: bool, secure: bool) -> HeaderValue {
    let max_age = IDLE_MS / 1000;
    header_value(name, value, max_age, http_only, secure)
}

/// Gives the browser the cookies of `session`.
pub fn begin(headers: &mut HeaderMap, session: &NewSession, secure: bool) {
    let cookie = set(SESSION, session.cookie.expose(), true, secure);
    headers.append(header::SET_COOKIE, cookie);
    headers.append(
        header::SET_COOKIE,
        set(CSRF, session.csrf.expose(), false, secure),
    );
}

/// Removes the session's cookies from the browser.
pub fn end(headers: &mut HeaderMap, secure: bool) {
    headers.append(header::SET_COOKIE, clear(SESSION, true, secure));
    headers.append(header::SET_COOKIE, clear(CSRF, false, secure));
}

/// `Set-Cookie` that removes cookie `name`.
pub fn clear(name: &str, http_only: bool, secure: bool) -> HeaderValue {
    header_value(name, "", 0, http_only, secure)
}

fn header_value(
    name: &str,
    value: &str,
    max_age: i64,
    http_only: bool,
    secure: bool,
) -> HeaderValue {
    let mut text = format!("{name}={value}; Path=/; Max-Age={max_age}; SameSite=Lax");
    if http_only {
        text.push_str("; HttpOnly");
    }
    if secure {
        text.push_str("; Secure");
    }
    HeaderValue::from_str(&text)
        .unwrap_or_else(|_| HeaderValue::from_static("punct_invalid=; Max-Age=0"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(cookies: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for c in cookies {
            h.append(header::COOKIE, HeaderValue::from_str(c).unwrap());
        }
        h
    }

    #[test]
    fn a_cookie_is_found_among_others_and_across_headers() {
        let h = headers(&["a=1; punct_csrf=xyz", "punct_session=abc"]);
        assert_eq!(read(&h, SESSION), Some("abc"));
        assert_eq!(read(&h, CSRF), Some("xyz"));
        assert_eq!(read(&h, "b"), None);
        assert_eq!(read(&headers(&["punct_session="]), SESSION), None);
        assert_eq!(read(&headers(&["xpunct_session=1"]), SESSION), None);
    }

    #[test]
    fn the_flags_are_as_asked() {
        let s = set(SESSION, "abc", true, true);
        assert_eq!(
            s.to_str().unwrap(),
            "punct_session=abc; Path=/; Max-Age=2592000; SameSite=Lax; HttpOnly; Secure"
        );
        let c = clear(CSRF, false, false);
        assert_eq!(
            c.to_str().unwrap(),
            "punct_csrf=; Path=/; Max-Age=0; SameSite=Lax"
        );
    }
}
