//! The browser app's files, built into the binary, and the rules page.

use std::sync::OnceLock;

use axum::http::header;
use axum::response::{Html, IntoResponse, Response};

const INDEX: &str = include_str!("../static/index.html");
const APP_JS: &str = include_str!("../static/app.js");
const STYLE: &str = include_str!("../static/style.css");
/// docs/rules.md as it was at build time (see build.rs).
const RULES_MD: &str = include_str!(concat!(env!("OUT_DIR"), "/rules.md"));

/// The built-in file `name`, or (for working on the app without rebuilding) the file of that
/// name in the folder `PUNCT_STATIC_DIR` names, when that variable is set.
fn file(name: &str, built_in: &'static str) -> std::borrow::Cow<'static, str> {
    match std::env::var_os("PUNCT_STATIC_DIR") {
        Some(dir) => std::fs::read_to_string(std::path::Path::new(&dir).join(name))
            .map_or(built_in.into(), Into::into),
        None => built_in.into(),
    }
}

pub(crate) async fn index() -> Response {
    (
        [(header::CACHE_CONTROL, "no-cache")],
        Html(file("index.html", INDEX)),
    )
        .into_response()
}

pub(crate) async fn app_js() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        file("app.js", APP_JS),
    )
        .into_response()
}

pub(crate) async fn style_css() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        file("style.css", STYLE),
    )
        .into_response()
}

/// The rules as HTML, rendered once. Links into the source tree (to other Markdown files)
/// mean nothing on the web page, so they become plain text; web links stay.
pub(crate) async fn rules() -> Html<&'static str> {
    static HTML: OnceLock<String> = OnceLock::new();
    Html(HTML.get_or_init(|| rules_html(RULES_MD)))
}

fn rules_html(markdown: &str) -> String {
    use pulldown_cmark::{Event, Tag, TagEnd};
    let mut dropped = false;
    let parser =
        pulldown_cmark::Parser::new_ext(markdown, pulldown_cmark::Options::all()).filter(|event| {
            match event {
                Event::Start(Tag::Link { dest_url, .. }) => {
                    dropped = !(dest_url.starts_with("http") || dest_url.starts_with('#'));
                    !dropped
                }
                Event::End(TagEnd::Link) => !std::mem::take(&mut dropped),
                _ => true,
            }
        });
    let mut out = String::new();
    pulldown_cmark::html::push_html(&mut out, parser);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn links_into_the_source_tree_become_text() {
        let html = super::rules_html(
            "See [RULINGS.md](../RULINGS.md) and [the site](https://example.org).",
        );
        assert!(html.contains("See RULINGS.md and"), "{html}");
        assert!(
            html.contains("<a href=\"https://example.org\">the site</a>"),
            "{html}"
        );
    }
}
