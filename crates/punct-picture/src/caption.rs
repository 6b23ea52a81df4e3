//! A shared picture's caption: each player's name at the top of their reserve's box, with a
//! disc of their colour and, once the game is over, their score (1, 0 or ½); and the site's
//! name at the foot of White's box. The words are names and figures only, so the picture is
//! the same in every language.

use punct_core::{Colour, Outcome};
use tiny_skia::Transform;

use crate::canvas::Canvas;
use crate::palette;
use crate::text;

/// What a shared picture of a game says beside the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caption {
    /// White's and Black's names.
    pub names: [String; 2],
    /// How the game ended, once it has; an ended game without a result shows no scores.
    pub outcome: Option<Outcome>,
    /// The site's name.
    pub site: String,
}

/// The share of a reserve's box (its height) that the name takes at the top and the site's
/// name at the foot.
const HEAD: f32 = 0.14;
const FOOT: f32 = 0.08;

/// The part of a reserve's box `[left, top, width, height]` left for the pieces.
pub(crate) fn pieces_box([x, y, w, h]: [f32; 4]) -> [f32; 4] {
    [x, y + HEAD * h, w, h * (1.0 - HEAD - FOOT)]
}

/// The score `colour` made in `outcome`, as a scoresheet writes it.
fn score(outcome: Option<Outcome>, colour: Colour) -> Option<&'static str> {
    let outcome = outcome.filter(|o| !o.termination.is_void())?;
    Some(match outcome.winner {
        None => "½",
        Some(w) if w == colour => "1",
        Some(_) => "0",
    })
}

/// Writes `colour`'s name (and score) at the top of its box `[left, top, width, height]`.
pub(crate) fn name(canvas: &mut Canvas, caption: &Caption, colour: Colour, [x, y, w, h]: [f32; 4]) {
    canvas.transform = Transform::identity();
    let band = HEAD * h;
    let size = 0.42 * band;
    let pad = 0.06 * w;
    let baseline = y + 0.5 * band + 0.36 * size;
    let side = &palette::SIDES[colour.index()];
    let r = 0.3 * size;
    let disc = (x + pad + r, y + 0.5 * band);
    canvas.disc(disc, r + 1.5, side.edge);
    canvas.disc(disc, r, side.tile);
    let left = disc.0 + r + 0.35 * size;
    let mut right = x + w - pad;
    if let Some(score) = score(caption.outcome, colour) {
        let big = 1.25 * size;
        let at = right - text::width(score, big);
        text::write(
            canvas,
            score,
            (at, baseline + 0.1 * size),
            big,
            palette::LABEL,
        );
        right = at - 0.4 * size;
    }
    let shown = text::fit(&caption.names[colour.index()], size, right - left);
    text::write(canvas, &shown, (left, baseline), size, palette::LABEL);
}

/// Writes the site's name at the foot of White's box `[left, top, width, height]`.
pub(crate) fn site(canvas: &mut Canvas, caption: &Caption, [x, y, w, h]: [f32; 4]) {
    canvas.transform = Transform::identity();
    let size = 0.4 * FOOT * h;
    let shown = text::fit(&caption.site, size, 0.88 * w);
    let at = x + (w - text::width(&shown, size)) / 2.0;
    text::write(
        canvas,
        &shown,
        (at, y + h - 0.35 * FOOT * h),
        size,
        palette::MUTED,
    );
}

#[cfg(test)]
mod tests {
    use punct_core::Termination;

    use super::*;

    #[test]
    fn each_side_scores_as_a_scoresheet_writes_it() {
        let won = Outcome {
            winner: Some(Colour::Black),
            termination: Termination::Connection,
        };
        assert_eq!(score(Some(won), Colour::Black), Some("1"));
        assert_eq!(score(Some(won), Colour::White), Some("0"));
        let drawn = Outcome {
            winner: None,
            termination: Termination::Agreement,
        };
        assert_eq!(score(Some(drawn), Colour::White), Some("½"));
        let void = Outcome {
            winner: None,
            termination: Termination::Aborted,
        };
        assert_eq!(score(Some(void), Colour::White), None);
        assert_eq!(score(None, Colour::White), None);
    }
}
