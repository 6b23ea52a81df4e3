//! The browser app's files, built into the binary, and the rules page.

use std::sync::OnceLock;

use axum::http::header;
use axum::response::{Html, IntoResponse, Response};

const INDEX: &str = include_str!("../static/index.html");
const APP_JS: &str = include_str!("../static/app.js");
const STYLE: &str = include_str!("../static/style.css");
/// docs/rules.md as it was at build time (see build.rs).
const RULES_MD: &str = include_str!(concat!(env!("OUT_DIR"), "/rules.md"));

pub(crate) async fn index() -> Html<&'static str> {
    Html(INDEX)
}

pub(crate) async fn app_js() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        APP_JS,
    )
        .into_response()
}

pub(crate) async fn style_css() -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE).into_response()
}

/// The rules as HTML, rendered once.
pub(crate) async fn rules() -> Html<&'static str> {
    static HTML: OnceLock<String> = OnceLock::new();
    Html(HTML.get_or_init(|| {
        let parser = pulldown_cmark::Parser::new_ext(RULES_MD, pulldown_cmark::Options::all());
        let mut out = String::new();
        pulldown_cmark::html::push_html(&mut out, parser);
        out
    }))
}
