//! The headers every response carries so that browsers hold the app to its own files: no
//! script, style or connection from elsewhere, no framing by other sites (clickjacking), no
//! guessing of content types, and no address sent to sites the app links to.

use axum::Router;
use axum::http::{HeaderName, HeaderValue, header};
use tower_http::set_header::SetResponseHeaderLayer;

/// The app loads only its own script and style sheet (no inline code or styles: the
/// script sets styles through the DOM, which the policy allows) and talks only to its own
/// origin, WebSocket included (`'self'` covers `ws:`/`wss:` on the same host). Its scripts
/// may compile WebAssembly (`'wasm-unsafe-eval'`: the rules and engine in the page, its own
/// module; no `eval` of text), in its workers too.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// `router` with the security headers added to every response that does not set them.
pub(crate) fn add(router: Router) -> Router {
    [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
    ]
    .into_iter()
    .fold(
        router,
        |router, (name, value): (HeaderName, &'static str)| {
            router.layer(SetResponseHeaderLayer::if_not_present(
                name,
                HeaderValue::from_static(value),
            ))
        },
    )
}
