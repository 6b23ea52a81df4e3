//! The browser app's files, built into the binary, and the rules page.
//!
//! Every `GET` outside `/api/` that names none of the app's files is answered with the app's
//! page, which shows what the address names (a game, the rules, …) or says there is no such
//! page: addresses are the app's, so reload and Back work everywhere.

use std::borrow::Cow;
use std::sync::OnceLock;

use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};

/// docs/rules.md as it was at build time (see build.rs).
const RULES_MD: &str = include_str!(concat!(env!("OUT_DIR"), "/rules.md"));

/// The app's files: static/ at build time (in every build, so that tests serve what ships),
/// less the unit tests, their support files and the file that tells Node they are modules.
#[derive(rust_embed::Embed)]
#[folder = "static/"]
#[exclude = "*.test.js"]
#[exclude = "*.test-support.js"]
#[exclude = "package.json"]
struct Files;

/// The response to `GET path` when it is the app's (a file, or any other address outside
/// `/api/`, which gets the page); `None` for the API's addresses and other methods.
pub(crate) fn serve(method: &Method, path: &str, headers: &HeaderMap) -> Option<Response> {
    if !(method == Method::GET || method == Method::HEAD)
        || path.starts_with("/api/")
        || path == "/api"
    {
        return None;
    }
    let name = path.trim_start_matches('/');
    let (name, file) = match file(name) {
        Some(file) if !name.is_empty() => (name, file),
        _ => ("index.html", file("index.html")?),
    };
    Some(respond(name, file, headers))
}

/// A file of the app: from the folder `PUNCT_STATIC_DIR` names when that variable is set and
/// the file is there (for working on the app without rebuilding), else the built-in one.
fn file(name: &str) -> Option<(Cow<'static, [u8]>, String)> {
    if name
        .split('/')
        .any(|part| part.is_empty() || part.starts_with('.'))
        && !name.is_empty()
    {
        return None;
    }
    if let Some(lang) = name
        .strip_prefix("i18n/")
        .and_then(|rest| rest.strip_suffix(".json"))
        .filter(|lang| !lang.contains('/'))
    {
        return catalogue(lang);
    }
    if let Some(dir) = std::env::var_os("PUNCT_STATIC_DIR")
        && let Ok(bytes) = std::fs::read(std::path::Path::new(&dir).join(name))
    {
        let tag = format!("\"d{:x}\"", fnv1a(&bytes));
        return Some((bytes.into(), tag));
    }
    let file = Files::get(name)?;
    let hash = file.metadata.sha256_hash();
    let tag = format!("\"{}\"", hex(&hash[..12]));
    Some((file.data, tag))
}

/// The app's page, index.html.
pub(crate) fn page() -> Option<Vec<u8>> {
    file("index.html").map(|(bytes, _)| bytes.into_owned())
}

/// The texts of `lang` (one of the interface's), merged over English, as an object.
pub(crate) fn texts(lang: &str) -> serde_json::Map<String, serde_json::Value> {
    catalogue(lang)
        .and_then(|(bytes, _)| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

/// A language's texts, merged from its parts (see catalogue.rs), read as the app's files are.
fn catalogue(lang: &str) -> Option<(Cow<'static, [u8]>, String)> {
    let names: Vec<_> = Files::iter().collect();
    let bytes = crate::http::catalogue::merged(
        lang,
        crate::http::catalogue::parts(names.iter().map(|n| n.as_ref())),
        |part| file(part).map(|(bytes, _)| bytes.into_owned()),
    )?;
    let tag = format!("\"c{:x}\"", fnv1a(&bytes));
    Some((bytes.into(), tag))
}

/// The file's response: its type, and its tag, so that a browser holding it already is
/// answered 304 without the body.
fn respond(name: &str, (body, tag): (Cow<'static, [u8]>, String), headers: &HeaderMap) -> Response {
    let tag_value = HeaderValue::from_str(&tag).unwrap_or(HeaderValue::from_static("\"\""));
    let fresh = headers.get(header::IF_NONE_MATCH).is_some_and(|v| {
        v.as_bytes()
            .split(|b| *b == b',')
            .any(|t| t.trim_ascii() == tag.as_bytes())
    });
    let cache = [
        // Always asked again (a new version must show at once), answered 304 when unchanged.
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (header::ETAG, tag_value),
    ];
    if fresh {
        return (StatusCode::NOT_MODIFIED, cache).into_response();
    }
    let kind = HeaderValue::from_static(content_type(name));
    (cache, [(header::CONTENT_TYPE, kind)], body.into_owned()).into_response()
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("webmanifest") => "application/manifest+json",
        Some("png") => "image/png",
        // WebAssembly.instantiateStreaming and the browsers' checks want the module's own type.
        Some("wasm") => "application/wasm",
        _ => "application/octet-stream",
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A quick tag for files read from `PUNCT_STATIC_DIR` (a change shows on the next reload).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
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
    use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};

    use super::serve;

    fn get(path: &str) -> axum::response::Response {
        serve(&Method::GET, path, &HeaderMap::new()).expect("the app's address")
    }

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

    #[test]
    fn files_have_their_types_and_every_other_address_gets_the_page() {
        let kind = |path: &str| get(path).headers()[header::CONTENT_TYPE].clone();
        assert_eq!(kind("/js/app.js"), "text/javascript; charset=utf-8");
        assert_eq!(kind("/js/board/board.js"), "text/javascript; charset=utf-8");
        assert_eq!(kind("/style.css"), "text/css; charset=utf-8");
        assert_eq!(kind("/favicon.svg"), "image/svg+xml");
        assert_eq!(kind("/i18n/fr.json"), "application/json");
        // The rules' WebAssembly module is built apart (scripts/wasm.sh), so only its type is
        // checked here.
        assert_eq!(
            super::content_type("wasm/punct_wasm.wasm"),
            "application/wasm"
        );
        for page in [
            "/",
            "/g/0123",
            "/rules",
            "/no/such/page",
            "/js/nothing.js",
            "/../Cargo.toml",
            "/i18n/xx.json",
            "/i18n/en/../fr.json",
        ] {
            assert_eq!(kind(page), "text/html; charset=utf-8", "{page}");
        }
    }

    #[test]
    fn the_api_and_other_methods_are_not_the_apps() {
        assert!(serve(&Method::GET, "/api/nothing", &HeaderMap::new()).is_none());
        assert!(serve(&Method::POST, "/rules", &HeaderMap::new()).is_none());
    }

    #[test]
    fn unit_tests_and_node_settings_are_not_served() {
        for path in [
            "/js/geometry.test.js",
            "/js/game/replay.test.js",
            "/package.json",
        ] {
            assert_eq!(
                get(path).headers()[header::CONTENT_TYPE],
                "text/html; charset=utf-8",
                "{path}"
            );
        }
    }

    #[test]
    fn the_page_preloads_every_module() {
        let page =
            String::from_utf8(super::Files::get("index.html").unwrap().data.into_owned()).unwrap();
        // The service worker is no module of the page.
        let modules = super::Files::iter().filter(|n| n.ends_with(".js") && *n != "js/app.js");
        for name in modules.filter(|n| *n != "sw.js") {
            assert!(
                page.contains(&format!("<link rel=\"modulepreload\" href=\"/{name}\">")),
                "index.html does not preload {name}"
            );
        }
    }

    #[test]
    fn a_file_the_browser_holds_is_not_sent_again() {
        let first = get("/style.css");
        let tag = first.headers()[header::ETAG].clone();
        let mut headers = HeaderMap::new();
        headers.insert(header::IF_NONE_MATCH, tag);
        let again = serve(&Method::GET, "/style.css", &headers).unwrap();
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        headers.insert(header::IF_NONE_MATCH, HeaderValue::from_static("\"other\""));
        assert_eq!(
            serve(&Method::GET, "/style.css", &headers)
                .unwrap()
                .status(),
            StatusCode::OK
        );
    }
}
