//! The link preview of a game's page: the Open Graph and Twitter Card tags that chat apps
//! and social sites read to show a game's link as its picture, names and state. The texts
//! come from the interface's catalogue (part `share`), in the language the request prefers.

use punct_core::Colour;
use serde_json::{Map, Value};

use crate::http::catalogue::LANGUAGES;
use crate::pictures::Shared;

/// The first of the languages in an `Accept-Language` header that the interface has, else
/// English.
pub(crate) fn language(accept: Option<&str>) -> &'static str {
    accept
        .into_iter()
        .flat_map(|v| v.split(','))
        .filter_map(|tag| {
            let code = tag.split(';').next()?.trim().split('-').next()?;
            LANGUAGES
                .iter()
                .find(|l| l.eq_ignore_ascii_case(code))
                .copied()
        })
        .next()
        .unwrap_or("en")
}

/// The page of a game's address with its preview tags: `page` with them before `</head>`.
/// `base` is the site's origin (`https://example.org`), which the tags' addresses need.
pub(crate) fn page(
    page: &str,
    shared: &Shared,
    id: &str,
    base: &str,
    texts: &Map<String, Value>,
) -> String {
    let tags = tags(shared, id, base, texts);
    match page.find("</head>") {
        Some(at) => format!("{}{tags}{}", &page[..at], &page[at..]),
        None => page.to_owned(),
    }
}

fn tags(shared: &Shared, id: &str, base: &str, texts: &Map<String, Value>) -> String {
    let game = &shared.game;
    let text = |key: &str, vars: &[(&str, &str)]| {
        let mut out = texts
            .get(&format!("share.{key}"))
            .and_then(Value::as_str)
            .unwrap_or(key)
            .to_owned();
        for (name, value) in vars {
            out = out.replace(&format!("{{{name}}}"), value);
        }
        out
    };
    let [white, black] = &shared.names;
    let title = text("preview_title", &[("white", white), ("black", black)]);
    let moves = game.moves().len();
    let description = match game.outcome() {
        None => {
            let number = game.position().move_number().to_string();
            let key = match game.position().turn() {
                Colour::White => "preview_white_to_move",
                Colour::Black => "preview_black_to_move",
            };
            text(key, &[("number", &number)])
        }
        Some(outcome) => {
            let number = game
                .position_after(moves.saturating_sub(1))
                .move_number()
                .to_string();
            let key = match outcome.winner {
                _ if outcome.termination.is_void() => "preview_no_result",
                Some(Colour::White) => "preview_white_won",
                Some(Colour::Black) => "preview_black_won",
                None => "preview_drawn",
            };
            text(key, &[("number", &number)])
        }
    };
    let url = format!("{base}/g/{id}");
    let image = format!("{url}/image.png");
    let alt = text("image_alt", &[]);
    let meta = |attr: &str, name: &str, content: &str| {
        format!("<meta {attr}=\"{name}\" content=\"{}\">\n", escape(content))
    };
    [
        meta("property", "og:type", "website"),
        meta("property", "og:site_name", "PÜNCT"),
        meta("property", "og:title", &title),
        meta("property", "og:description", &description),
        meta("property", "og:url", &url),
        meta("property", "og:image", &image),
        meta("property", "og:image:type", "image/png"),
        meta("property", "og:image:width", "1200"),
        meta("property", "og:image:height", "630"),
        meta("property", "og:image:alt", &alt),
        meta("name", "twitter:card", "summary_large_image"),
        meta("name", "twitter:title", &title),
        meta("name", "twitter:description", &description),
        meta("name", "twitter:image", &image),
    ]
    .concat()
}

/// `text` safe inside a double-quoted HTML attribute.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(ch),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use punct_core::{Game, Move, Variant};
    use serde_json::json;

    use super::*;

    fn texts() -> Map<String, Value> {
        let value = json!({
            "share.preview_title": "PÜNCT: {white} – {black}",
            "share.preview_white_to_move": "Move {number}: White to move.",
            "share.preview_black_to_move": "Move {number}: Black to move.",
            "share.image_alt": "The board",
        });
        value.as_object().unwrap().clone()
    }

    #[test]
    fn the_tags_name_the_players_the_state_and_the_picture() {
        let mut game = Game::new(Variant::Standard);
        game.play(Move::parse("TE4:0").unwrap()).unwrap();
        let shared = Shared {
            game,
            names: ["Ann <b>".into(), "\"Bob\"".into()],
            live: true,
        };
        let html = page(
            "<head><title>x</title></head><body>",
            &shared,
            "abc1",
            "https://p.example",
            &texts(),
        );
        assert!(
            html.contains(
                "<meta property=\"og:image\" content=\"https://p.example/g/abc1/image.png\">"
            ),
            "{html}"
        );
        assert!(
            html.contains("content=\"PÜNCT: Ann &lt;b&gt; – &quot;Bob&quot;\""),
            "{html}"
        );
        assert!(
            html.contains("content=\"Move 1: Black to move.\""),
            "{html}"
        );
        assert!(
            html.contains("<meta name=\"twitter:card\" content=\"summary_large_image\">"),
            "{html}"
        );
        assert!(
            html.ends_with("</head><body>"),
            "the tags go in the head: {html}"
        );
    }

    proptest::proptest! {
        #[test]
        fn any_header_gives_one_of_our_languages(header in ".{0,80}") {
            proptest::prop_assert!(LANGUAGES.contains(&language(Some(&header))));
        }

        #[test]
        fn names_never_break_out_of_their_attribute(white in ".{0,40}", black in ".{0,40}") {
            let shared = Shared {
                game: punct_core::Game::new(Variant::Standard),
                names: [white, black],
                live: true,
            };
            let html = page("<head></head>", &shared, "ab", "", &texts());
            // Every tag is one line of the form <meta … content="…">, its content quote-free.
            for line in html.trim_start_matches("<head>").trim_end_matches("</head>").lines() {
                let content = line.split_once("content=\"").unwrap().1;
                proptest::prop_assert!(content.ends_with("\">"), "{line}");
                proptest::prop_assert!(!content[..content.len() - 2].contains(['"', '<', '>']), "{line}");
            }
        }
    }

    #[test]
    fn the_language_is_the_first_the_interface_has() {
        assert_eq!(language(Some("fr-CA,fr;q=0.9,en;q=0.8")), "fr");
        assert_eq!(language(Some("xx, de;q=0.5")), "de");
        assert_eq!(language(Some("*")), "en");
        assert_eq!(language(None), "en");
    }
}
