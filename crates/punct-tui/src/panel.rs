//! Lines of text shared by the play and review screens: the state of the game, the
//! reserves, the stack under the cursor, an engine's evaluation.

use std::time::Duration;

use punct_core::{Cell, Colour, Move, Outcome, PieceType, Position};
use punct_engine::Score;
use ratatui::Frame;
use ratatui::style::{Color, Modifier, Style, Stylize as _};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::board::owner_style;
use crate::screen::MIN_SIZE;

/// A colour's name in its dots' colours.
pub fn colour_span(colour: Colour) -> Span<'static> {
    Span::styled(format!(" {colour} "), owner_style(colour))
}

/// Whose turn it is and the centre count, or the result and its reason.
pub fn status(pos: &Position, outcome: Option<Outcome>) -> Vec<Line<'static>> {
    let [w, b] = pos.centre_count();
    let first = match outcome {
        Some(outcome) => Line::from(vec![
            Span::styled("Game over: ", Style::new().bold()),
            Span::styled(
                outcome.to_string(),
                Style::new()
                    .fg(Color::LightMagenta)
                    .add_modifier(Modifier::BOLD),
            ),
        ]),
        None => Line::from(vec![
            colour_span(pos.turn()),
            Span::raw(format!(" to move · ply {}", pos.ply())),
        ]),
    };
    vec![
        first,
        Line::from(format!("Centre hexagon: White {w} · Black {b}")),
    ]
}

/// The pieces left in both reserves, by type.
pub fn reserves(pos: &Position) -> Vec<Line<'static>> {
    let header: String = PieceType::ALL.iter().map(|t| format!(" {t}")).collect();
    let mut lines = vec![Line::from(format!("Reserve{header}  left")).gray()];
    for colour in Colour::ALL {
        let reserve = pos.reserve(colour);
        let counts: String = PieceType::ALL
            .iter()
            .map(|&t| format!(" {}", reserve.get(t)))
            .collect();
        lines.push(Line::from(vec![
            Span::styled(format!("{:<7}", colour.name()), owner_style(colour)),
            Span::raw(format!("{counts}  {:>2}", reserve.total())),
        ]));
    }
    lines
}

/// The dots in `cell`, bottom to top, each with the piece it belongs to.
pub fn stack(pos: &Position, cell: Cell) -> Vec<Line<'static>> {
    let dots = pos.stack(cell);
    if dots.is_empty() {
        return vec![Line::from(format!("{cell}: empty board")).gray()];
    }
    let mut lines = vec![Line::from(format!("Stack on {cell}, bottom to top:")).gray()];
    for dot in dots {
        let p = dot.piece;
        let what = if dot.is_punct {
            "PÜNCT".to_owned()
        } else {
            format!("dot of {}", p.at)
        };
        lines.push(Line::from(vec![
            Span::raw(format!(" {:>2} ", p.level)),
            Span::styled(format!("{:<5}", p.colour.name()), owner_style(p.colour)),
            Span::raw(format!(
                " {} {what} ({}{}:{})",
                p.kind, p.kind, p.at, p.rotation
            )),
        ]));
    }
    lines
}

/// An evaluation from the side to move's view, and the best line.
pub fn evaluation(pos: &Position, score: Score, pv: &[Move]) -> Vec<Line<'static>> {
    let pct = |x: f32| (x * 100.0).round() as i32;
    let line: Vec<String> = pv.iter().take(8).map(Move::to_string).collect();
    vec![
        Line::from(format!(
            "{} to move: win {}% · draw {}% · loss {}%",
            pos.turn(),
            pct(score.win),
            pct(score.draw),
            pct(score.loss)
        )),
        Line::from(format!("Best line: {}", line.join(" "))),
    ]
}

/// The moves two plies a line, numbered, at most `rows` lines around the first `shown`
/// moves' last one, which is highlighted.
pub fn move_list(moves: &[Move], first: Colour, shown: usize, rows: usize) -> Vec<Line<'static>> {
    let current = Style::new().fg(Color::Black).bg(Color::LightGreen);
    // A White move opens each numbered line; a game from a Black-to-move position starts
    // with a half line.
    let offset = usize::from(first == Colour::Black);
    let numbered = (moves.len() + offset).div_ceil(2);
    let shown_line = (shown + offset).saturating_sub(1) / 2;
    let from = shown_line
        .saturating_sub(rows / 2)
        .min(numbered.saturating_sub(rows));
    let mut lines = Vec::new();
    for line in from..numbered.min(from + rows) {
        let mut spans = vec![Span::styled(
            format!("{:>3}. ", line + 1),
            Style::new().gray(),
        )];
        for half in 0..2 {
            let ply = 2 * line + half;
            let Some(index) = ply.checked_sub(offset).filter(|&i| i < moves.len()) else {
                spans.push(Span::raw("        "));
                continue;
            };
            let text = format!("{:<8}", moves[index].to_string());
            spans.push(if index + 1 == shown {
                Span::styled(text, current)
            } else {
                Span::raw(text)
            });
        }
        lines.push(Line::from(spans));
    }
    lines
}

/// A turning wheel for work under way, with its time so far.
pub fn spinner(elapsed: Duration) -> String {
    const FRAMES: [char; 4] = ['|', '/', '-', '\\'];
    let frame = FRAMES[(elapsed.as_millis() / 120 % 4) as usize];
    format!("{frame} {:.1}s", elapsed.as_secs_f32())
}

/// Draws a request to enlarge the terminal instead of a cramped screen.
pub fn too_small(frame: &mut Frame) {
    let text = format!(
        "PÜNCT needs a terminal of at least {}×{}; this one is {}×{}. q quits.",
        MIN_SIZE.0,
        MIN_SIZE.1,
        frame.area().width,
        frame.area().height
    );
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), frame.area());
}
