//! The arguments of `position`.

use punct_core::{Game, Move, Position, Variant};

/// A game from `position startpos …` or `position pos …` arguments.
pub(super) fn parse_position(words: &[&str]) -> Result<Game, String> {
    let (start, rest) = match words {
        ["startpos", rest @ ..] => match rest.first().and_then(|v| Variant::from_name(v)) {
            Some(v) => (Position::new(v), &rest[1..]),
            None => (Position::new(Variant::Standard), rest),
        },
        ["pos", rest @ ..] => {
            if rest.len() < 4 {
                return Err("expected `position pos <variant> <side> <ply> <pieces>`".to_owned());
            }
            let text = rest[..4].join(" ");
            let pos = Position::from_text(&text).map_err(|e| format!("bad position: {e}"))?;
            (pos, &rest[4..])
        }
        _ => return Err("expected `position startpos …` or `position pos …`".to_owned()),
    };
    let mut game = Game::from_position(start);
    match rest {
        [] => {}
        ["moves", moves @ ..] => {
            for (n, text) in (1..).zip(moves) {
                let refused = |e: String| format!("move {n} of the list: {e}");
                let mv = Move::parse(text).map_err(|e| refused(e.to_string()))?;
                game.play(mv).map_err(|e| refused(e.to_string()))?;
            }
        }
        [other, ..] => return Err(format!("expected `moves`, not `{other}`")),
    }
    Ok(game)
}
