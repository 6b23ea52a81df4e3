//! Lines of text shared by the play and review screens: the state of the game and why it
//! ended, the reserves, the stack under the cursor, an engine's evaluation, the legend.

use std::time::Duration;

use punct_core::geometry::GOALS;
use punct_core::{Cell, Colour, Move, Outcome, PieceType, Position, Termination};
use punct_engine::Score;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style, Stylize as _};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use crate::board::{Scale, owner_style};
use crate::screen::MIN_SIZE;

/// A colour's name in its dots' colours.
pub fn colour_span(colour: Colour) -> Span<'static> {
    Span::styled(format!(" {colour} "), owner_style(colour))
}

/// Whose turn it is and the centre count, or the result, why the game ended, and the
/// centre count; the reason wrapped to `width`.
pub fn status(pos: &Position, outcome: Option<Outcome>, width: u16) -> Vec<Line<'static>> {
    let [w, b] = pos.centre_count();
    let mut lines = match outcome {
        Some(outcome) => {
            let mut lines = vec![Line::from(vec![
                Span::styled("Game over: ", Style::new().bold()),
                Span::styled(
                    outcome.to_string(),
                    Style::new()
                        .fg(Color::LightMagenta)
                        .add_modifier(Modifier::BOLD),
                ),
            ])];
            lines.extend(
                wrapped(&reason(pos, outcome), width)
                    .into_iter()
                    .map(|l| Line::from(l).fg(Color::LightMagenta)),
            );
            lines
        }
        None => vec![Line::from(vec![
            colour_span(pos.turn()),
            Span::raw(format!(" to move · ply {}", pos.ply())),
        ])],
    };
    lines.push(Line::from(format!("Centre hexagon: White {w} · Black {b}")));
    lines
}

/// The goal sides of each pair of `GOALS`, as people name them.
const PAIR_NAMES: [&str; 3] = [
    "columns A and Q",
    "rows 1 and 17",
    "the sides J2–P8 and B10–H16",
];

/// Why the game ended, in words, from the final position.
pub fn reason(pos: &Position, outcome: Outcome) -> String {
    // After the last move the side to move is the one who did not make it.
    let mover = !pos.turn();
    let joined = |colour: Colour| {
        let chain = pos.winning_chain(colour);
        let pairs: Vec<&str> = GOALS
            .iter()
            .zip(PAIR_NAMES)
            .filter(|([a, b], _)| chain.intersects(*a) && chain.intersects(*b))
            .map(|(_, name)| name)
            .collect();
        pairs.join(" and ")
    };
    match outcome.termination {
        Termination::Connection => {
            let winner = outcome.winner.unwrap_or(mover);
            format!("{winner}'s visible dots join {}", joined(winner))
        }
        Termination::UncoveredConnection => {
            let winner = outcome.winner.unwrap_or(!mover);
            format!(
                "{mover}'s move uncovered {winner}'s line joining {}",
                joined(winner)
            )
        }
        Termination::CentreMajority | Termination::CentreTie => {
            format!("{mover} placed their last piece: the central hexagon decides")
        }
        Termination::AllPlaced => {
            format!("{mover} placed their last piece: in the basic game a draw")
        }
        Termination::Repetition => "the same position for the third time".to_owned(),
        Termination::NoLegalMove => format!("{} has no legal move", pos.turn()),
        Termination::Resignation
        | Termination::Timeout
        | Termination::Agreement
        | Termination::Aborted
        | Termination::Abandoned => "as the record says".to_owned(),
    }
}

/// `text` broken into lines of at most `width` characters at spaces (a longer word gets a
/// line of its own and is cut by the screen).
pub fn wrapped(text: &str, width: u16) -> Vec<String> {
    let width = usize::from(width.max(1));
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

/// `text` wrapped to `width` in at most `rows` lines, the last ending in ` …` when there is
/// more.
pub fn clipped(text: &str, width: u16, rows: usize) -> Vec<String> {
    let mut lines = wrapped(text, width);
    if rows > 0 && lines.len() > rows {
        lines.truncate(rows);
        let last = &mut lines[rows - 1];
        while last.chars().count() + 2 > usize::from(width)
            && let Some(space) = last.rfind(' ')
        {
            last.truncate(space);
        }
        last.push_str(" …");
    }
    lines
}

/// A count of nodes in a few characters: `950`, `12k`, `3.4M`.
pub fn nodes(n: u64) -> String {
    match n {
        0..10_000 => n.to_string(),
        10_000..1_000_000 => format!("{}k", n / 1000),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
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

/// `lines` followed by the dots in `cell`, bottom to top, each with the piece it belongs to,
/// the whole in at most `rows` lines where it can be. A stack too tall for the room first
/// takes the room of empty lines in `lines` (the lowest first), then has its lowest dots
/// counted in one line: the top dots, which decide whose the cell is, always stay in view.
pub fn with_stack(
    mut lines: Vec<Line<'static>>,
    pos: &Position,
    cell: Cell,
    rows: usize,
) -> Vec<Line<'static>> {
    let dots = pos.stack(cell);
    if dots.is_empty() {
        lines.push(Line::from(format!("{cell}: empty board")).gray());
        return lines;
    }
    let wanted = lines.len() + 1 + dots.len();
    let mut excess = wanted.saturating_sub(rows);
    while excess > 0 {
        let Some(blank) = lines.iter().rposition(|line| line.width() == 0) else {
            break;
        };
        lines.remove(blank);
        excess -= 1;
    }
    // The header, a line for the hidden dots, and at least the top dot.
    let hidden = match excess {
        0 => 0,
        _ => (excess + 1).min(dots.len() - 1),
    };
    lines.push(Line::from(format!("Stack on {cell}, bottom to top:")).gray());
    if hidden > 0 {
        let s = if hidden == 1 { "" } else { "s" };
        lines.push(Line::from(format!("  … {hidden} lower dot{s}")).gray());
    }
    for dot in &dots[hidden..] {
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

/// An evaluation from the side to move's view, and the best line wrapped to `width`.
pub fn evaluation(pos: &Position, score: Score, pv: &[Move], width: u16) -> Vec<Line<'static>> {
    let pct = |x: f32| (x * 100.0).round() as i32;
    let line: Vec<String> = pv.iter().take(12).map(Move::to_string).collect();
    let who = format!("{} to move:", pos.turn());
    let chances = format!(
        "win {}% · draw {}% · loss {}%",
        pct(score.win),
        pct(score.draw),
        pct(score.loss)
    );
    // On two lines when one is too narrow, rather than breaking the figures apart.
    let mut lines = if who.chars().count() + 1 + chances.chars().count() <= usize::from(width) {
        vec![Line::from(format!("{who} {chances}"))]
    } else {
        vec![Line::from(who), Line::from(chances)]
    };
    let best = format!("Best line: {}", line.join(" "));
    for (i, text) in wrapped(&best, width).into_iter().enumerate() {
        // The first move in the colours the board shows it in.
        let first = line.first().filter(|_| i == 0);
        lines.push(match first.and_then(|mv| text.split_once(mv.as_str())) {
            Some((before, after)) => Line::from(vec![
                Span::raw(before.to_owned()),
                Span::styled(
                    line[0].clone(),
                    Style::new().fg(Color::Black).bg(Color::Green),
                ),
                Span::raw(after.to_owned()),
            ]),
            None => Line::from(text),
        });
    }
    lines
}

/// The highlights of the play screen's board, for [`legend`].
pub const PLAY_MARKS: [(&str, Color); 6] = [
    ("last move", Color::Yellow),
    ("targets", Color::Cyan),
    ("in hand", Color::Blue),
    ("at cursor", Color::Green),
    ("illegal", Color::Red),
    ("winning line", Color::Magenta),
];

/// The highlights of the review screen's board, for [`legend`].
pub const REVIEW_MARKS: [(&str, Color); 3] = [
    ("last move", Color::Yellow),
    ("engine's move", Color::Green),
    ("winning line", Color::Magenta),
];

/// Width of the legend's lines.
const LEGEND_WIDTH: usize = 42;

/// What the glyphs of the board and its highlights (`marks`, each a name and colour) mean,
/// in lines of at most 42 characters. Without colours (`colours` false) every highlight is
/// shown reversed, or as half blocks beside a dot, so the legend names the highlights in a
/// list rather than in their colours.
pub fn legend(scale: Scale, marks: &[(&'static str, Color)], colours: bool) -> Vec<Line<'static>> {
    let dots = match scale {
        Scale::Compact => [
            "White 1 2 3, Black a b c: top dot's level",
            "Underlined and bold: a PÜNCT dot",
        ],
        Scale::Wide | Scale::Large => [
            "W1 b2: owner and level of the top dot",
            "Capital and underlined: a PÜNCT dot",
        ],
    };
    let mut lines: Vec<Line<'static>> = dots.into_iter().map(Line::from).collect();
    lines.extend([
        Line::from(vec![
            Span::styled("+", Style::new().fg(Color::Yellow)),
            Span::raw(" central hexagon · "),
            Span::styled("\\ - /", Style::new().fg(Color::Cyan)),
            Span::raw(" goal sides"),
        ]),
        Line::from("To win, join two parallel goal sides"),
    ]);
    if !colours {
        lines.push(Line::from("Marks, reversed or ▐ ▌ beside a dot:"));
        let names: Vec<&str> = marks.iter().map(|&(name, _)| name).collect();
        let list = wrapped(&names.join(", "), LEGEND_WIDTH as u16 - 2);
        lines.extend(list.into_iter().map(|line| Line::from(format!("  {line}"))));
        return lines;
    }
    let mut line = vec![Span::raw("Marks:")];
    let mut used = "Marks:".len();
    for &(name, colour) in marks {
        if used + 1 + name.chars().count() > LEGEND_WIDTH {
            lines.push(Line::from(std::mem::take(&mut line)));
            line.push(Span::raw("      "));
            used = "      ".len();
        }
        line.push(Span::raw(" "));
        line.push(Span::styled(name, Style::new().fg(Color::Black).bg(colour)));
        used += 1 + name.chars().count();
    }
    lines.push(Line::from(line));
    lines
}

/// The moves played from `start`, two plies a line, numbered as records number them (a
/// game from a set position may begin with `3...`), at most `rows` lines around the first
/// `shown` moves' last one, which is highlighted.
pub fn move_list(
    moves: &[Move],
    start: &Position,
    shown: usize,
    rows: usize,
) -> Vec<Line<'static>> {
    let current = Style::new().fg(Color::Black).bg(Color::LightGreen);
    // A White move opens each numbered line; a game from a Black-to-move position starts
    // with a half line.
    let offset = usize::from(start.turn() == Colour::Black);
    let first_number = usize::try_from(start.move_number()).unwrap_or(1);
    // Every column as wide as the longest move and a space, so that long moves such as
    // `K14-K15:0` never run into the next one.
    let column = moves
        .iter()
        .map(|mv| mv.to_string().chars().count() + 1)
        .max()
        .unwrap_or(0)
        .max(MOVE_COLUMN);
    let numbered = (moves.len() + offset).div_ceil(2);
    let number_width = (first_number + numbered).to_string().len().max(3);
    let shown_line = (shown + offset).saturating_sub(1) / 2;
    let from = shown_line
        .saturating_sub(rows / 2)
        .min(numbered.saturating_sub(rows));
    let mut lines = Vec::new();
    for line in from..numbered.min(from + rows) {
        let number = first_number + line;
        // The half line of a Black-to-move start reads `3...` as in records, the third dot
        // taking a place of the empty column after it.
        let half_line = line == 0 && offset == 1;
        let dots = if half_line { "..." } else { ". " };
        let mut spans = vec![Span::styled(
            format!("{number:>number_width$}{dots}"),
            Style::new().gray(),
        )];
        for half in 0..2 {
            let ply = 2 * line + half;
            let Some(index) = ply.checked_sub(offset).filter(|&i| i < moves.len()) else {
                let blank = if half_line { column - 1 } else { column };
                spans.push(Span::raw(" ".repeat(blank)));
                continue;
            };
            let text = format!("{:<column$}", moves[index].to_string());
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

/// Narrowest column of the move list: the width of the usual moves and a space.
const MOVE_COLUMN: usize = 8;

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

/// The keys (each with what it does) and the legend in a window over the middle of the
/// screen.
pub fn help_window(frame: &mut Frame, keys: &[(&str, &str)], legend: &[Line<'static>]) {
    let mut lines: Vec<Line> = keys
        .iter()
        .map(|(keys, what)| {
            Line::from(vec![
                Span::raw(format!("{keys:>13}  ")).bold(),
                Span::raw(*what),
            ])
        })
        .collect();
    lines.push(Line::default());
    lines.extend(
        legend
            .iter()
            .map(|line| Line::from([vec![Span::raw("  ")], line.spans.clone()].concat())),
    );
    let area = frame.area();
    let width = area.width.min(78);
    let height = area.height.min(lines.len() as u16 + 2);
    let window = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    frame.render_widget(Clear, window);
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" Keys ")),
        window,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[Line]) -> Vec<String> {
        lines.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn the_evaluation_wraps_to_the_panel() {
        let pos = Position::new(punct_core::Variant::Standard);
        let score = Score {
            win: 0.45,
            draw: 0.1,
            loss: 0.45,
        };
        let pv = [
            Move::parse("TE4:0").unwrap(),
            Move::parse("TM12:0").unwrap(),
        ];
        let lines = texts(&evaluation(&pos, score, &pv, 43));
        assert_eq!(
            lines,
            [
                "White to move:",
                "win 45% · draw 10% · loss 45%",
                "Best line: TE4:0 TM12:0"
            ]
        );
        let wide = texts(&evaluation(&pos, score, &pv, 44));
        assert_eq!(wide[0], "White to move: win 45% · draw 10% · loss 45%");
    }

    #[test]
    fn a_tall_stack_takes_the_room_of_empty_lines_then_keeps_its_top_dots() {
        let pos = Position::from_text(
            "standard b 9 wTE4:0@1,bTK5:0@1,wTE4:0@2,wTE4:0@3,wTE4:0@4,wTE4:0@5",
        )
        .unwrap();
        let e4 = Cell::parse("E4").unwrap();
        let head = || {
            vec![
                Line::from("a"),
                Line::default(),
                Line::from("b"),
                Line::default(),
            ]
        };
        // Room for everything: nothing changes.
        let all = texts(&with_stack(head(), &pos, e4, 10));
        assert_eq!(all.len(), 10);
        assert_eq!(all[4], "Stack on E4, bottom to top:");
        assert_eq!(all[5], "  1 White T PÜNCT (TE4:0)");
        assert_eq!(all[9], "  5 White T PÜNCT (TE4:0)");
        // Two rows fewer: the empty lines go.
        let squeezed = texts(&with_stack(head(), &pos, e4, 8));
        assert_eq!(squeezed[..3], ["a", "b", "Stack on E4, bottom to top:"]);
        assert_eq!(squeezed.len(), 8);
        // Fewer still: the lowest dots are counted, the top ones listed.
        let cut = texts(&with_stack(head(), &pos, e4, 6));
        assert_eq!(
            cut[2..],
            [
                "Stack on E4, bottom to top:",
                "  … 3 lower dots",
                "  4 White T PÜNCT (TE4:0)",
                "  5 White T PÜNCT (TE4:0)",
            ]
        );
        // No room at all: the top dot still comes last.
        let tiny = texts(&with_stack(head(), &pos, e4, 1));
        assert_eq!(tiny.last().unwrap(), "  5 White T PÜNCT (TE4:0)");
        assert_eq!(tiny[tiny.len() - 2], "  … 4 lower dots");
        let empty = texts(&with_stack(head(), &pos, Cell::parse("E5").unwrap(), 1));
        assert_eq!(empty.last().unwrap(), "E5: empty board");
    }

    #[test]
    fn legend_lines_fit_their_width_and_name_the_owners_glyphs() {
        for scale in Scale::LARGEST_FIRST {
            for marks in [&PLAY_MARKS[..], &REVIEW_MARKS[..]] {
                for colours in [true, false] {
                    for line in legend(scale, marks, colours) {
                        assert!(line.width() <= LEGEND_WIDTH, "{line} at {scale:?}");
                    }
                }
            }
        }
        let compact = legend(Scale::Compact, &PLAY_MARKS, true)[0].to_string();
        assert!(compact.contains("White 1 2 3, Black a b c"), "{compact}");
    }

    #[test]
    fn without_colours_the_legend_lists_the_marks_apart() {
        let lines = texts(&legend(Scale::Compact, &PLAY_MARKS, false));
        assert_eq!(
            lines[4..],
            [
                "Marks, reversed or ▐ ▌ beside a dot:",
                "  last move, targets, in hand, at cursor,",
                "  illegal, winning line",
            ]
        );
        // No span keeps a colour that would be the only way to tell the marks apart.
        let coloured = legend(Scale::Compact, &REVIEW_MARKS, false)
            .iter()
            .flat_map(|line| line.spans.clone())
            .any(|span| span.style.bg.is_some());
        assert!(!coloured);
    }

    #[test]
    fn the_move_list_keeps_long_moves_apart_and_counts_from_the_start_position() {
        let moves = [
            "EL16:2",
            "TN11:2",
            "LP11:5",
            "TL15:0",
            "RK12:5",
            "LP14:3",
            "K12-J11:5",
            "N11-N14:0",
            "J11-H11:1",
            "P14-H14:2",
            "P11-Q11:1",
        ]
        .map(|mv| Move::parse(mv).unwrap());
        // Five moves in: Black to move, ply 5, the third move's half.
        let mut game = punct_core::Game::new(punct_core::Variant::Standard);
        for &mv in &moves[..5] {
            game.play(mv).unwrap();
        }
        let pos = game.position().clone();
        let lines = texts(&move_list(&moves[5..], &pos, 6, 10));
        assert_eq!(
            lines,
            [
                "  3...         LP14:3    ",
                "  4. K12-J11:5 N11-N14:0 ",
                "  5. J11-H11:1 P14-H14:2 ",
                "  6. P11-Q11:1           ",
            ]
        );
        // From the empty board: `1.`, and the usual columns while moves are short.
        let start = Position::new(punct_core::Variant::Standard);
        let short = [Move::parse("TE4:0").unwrap(), Move::parse("TK5:0").unwrap()];
        assert_eq!(
            texts(&move_list(&short, &start, 2, 10)),
            ["  1. TE4:0   TK5:0   "]
        );
    }
}
