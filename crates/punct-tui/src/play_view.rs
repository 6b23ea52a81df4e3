//! Drawing the play screen.

use std::time::Instant;

use punct_core::Colour;
use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style, Stylize as _};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::board::{BoardView, Scale};
use crate::online::{Connection, RemoteGame};
use crate::panel;
use crate::play::{Message, Opponent, Play, Selection};
use crate::prompt::Purpose;
use crate::screen::{Screen, colours_unwanted, layout};

/// Rows under the board: two of messages, the text field, the keys.
const FOOTER_HEIGHT: u16 = 4;

/// Rows the move list should keep before the legend is shown in the panel.
const LEGEND_ROOM_FOR_MOVES: usize = 8;

/// The main keys, in the bottom line of a screen of 80 columns: how to quit goes before how to
/// start a new game, which the list of keys and the end of a game tell.
const KEYS: &str =
    "⏎ pick/play · TCELMR take · r turn · : type · u back · s save · ? keys · q quit";

/// The main keys on a wider screen.
const WIDE_KEYS: &str =
    "⏎ pick/play · TCELMR/p take · r turn · : type · u back · s save · n new · ? keys · q quit";

/// The main keys of a game played on from a review, where `q` goes back to it, in 80 columns.
const REVIEW_KEYS: &str =
    "⏎ pick/play · TCELMR · r turn · : type · u back · s save · ? keys · q review";

/// The main keys of a game played on from a review, on a wider screen.
const WIDE_REVIEW_KEYS: &str =
    "⏎ pick/play · TCELMR/p take · r turn · : type · u back · s save · n new · ? keys · q review";

/// The main keys of a game on a server, in 80 columns.
const ONLINE_KEYS: &str =
    "⏎ pick/play · TCELMR take · : type · d draw · x resign · u takeback · q games";

/// The main keys of a game on a server, on a wider screen.
const WIDE_ONLINE_KEYS: &str = "⏎ pick/play · TCELMR/p take · r turn · : type · d draw · x resign · u takeback · s save · ? keys · q games";

/// The keys of a game on a server that differ from a local game's, for the help window.
const ONLINE_HELP: [(&str, &str); 5] = [
    (
        "u, Backspace",
        "ask to take your last move back, or grant the request",
    ),
    ("d", "offer a draw, or accept the offer"),
    ("x x", "resign"),
    ("n", "new games are made in the list of games"),
    ("q", "back to the list of games (the game goes on)"),
];

/// What `q` does in a game played on from a review, for the help window.
const REVIEW_Q: (&str, &str) = ("q", "back to the review (twice when the game is not saved)");

/// Every key, for the help window.
const HELP: [(&str, &str); 14] = [
    (
        "arrows",
        "move the cursor; the panel lists the dots stacked there",
    ),
    ("T C E L M R", "take a piece of that type from your reserve"),
    ("p", "take the next type left in your reserve"),
    (
        "Enter, Space",
        "pick up your piece under the cursor, or set the piece down",
    ),
    ("r ]  /  [", "turn the piece one sixth clockwise / back"),
    ("Esc", "put the piece back, clear the message"),
    (
        ": or /",
        "type a move, any case: TE4:0 places, e4-e7:3 moves",
    ),
    (
        "u, Backspace",
        "take back your last move (and the computer's)",
    ),
    (
        "s",
        "save the game as a record (punct review FILE opens it)",
    ),
    ("n", "a new game: opponent, level, your colour, variant"),
    ("q", "quit (twice when the game is not saved)"),
    ("Ctrl-C", "quit at once"),
    ("Ctrl-Z", "suspend to the shell; fg comes back"),
    ("?", "this list; any key closes it"),
];

impl Screen for Play {
    fn draw(&self, frame: &mut Frame) {
        let Some(areas) = layout(frame.area(), FOOTER_HEIGHT) else {
            panel::too_small(frame);
            return;
        };
        let marks = self.marks();
        let board = BoardView {
            position: self.game().position(),
            marks: &marks,
            scale: areas.scale,
        };
        frame.render_widget(board, areas.board);
        frame.render_widget(
            Paragraph::new(self.panel_lines(areas.panel, areas.scale)),
            areas.panel,
        );
        self.draw_footer(frame, areas.footer);
        if self.shows_help() {
            let mut help = HELP.to_vec();
            if self.remote().is_some() {
                help.retain(|(key, _)| !ONLINE_HELP.iter().any(|(k, _)| k == key));
                help.extend(ONLINE_HELP);
            } else if self.returns_to_review()
                && let Some(q) = help.iter_mut().find(|(key, _)| *key == "q")
            {
                *q = REVIEW_Q;
            }
            panel::help_window(
                frame,
                &help,
                &panel::legend(areas.scale, &panel::PLAY_MARKS, !colours_unwanted()),
            );
        }
        if let Some(dialog) = self.new_game_dialog() {
            dialog.draw(frame);
        }
    }

    fn key(&mut self, key: KeyEvent) {
        Play::key(self, key);
    }

    fn tick(&mut self) {
        Play::tick(self);
    }

    fn is_done(&self) -> bool {
        Play::is_done(self)
    }
}

impl Play {
    fn panel_lines(&self, area: Rect, scale: Scale) -> Vec<Line<'static>> {
        let game = self.game();
        let pos = game.position();
        let mut lines = vec![Line::from(format!("PÜNCT · {} game", pos.variant())).bold()];
        match self.remote() {
            Some(remote) => lines.extend(online_lines(remote, area.width)),
            None => {
                lines.push(match self.options().opponent {
                    Opponent::Human => Line::from("Two players at this keyboard"),
                    Opponent::Computer { .. } => Line::from(vec![
                        panel::colour_span(Colour::White),
                        Span::raw(format!(" {}  ", self.player_name(Colour::White))),
                        panel::colour_span(Colour::Black),
                        Span::raw(format!(" {}", self.player_name(Colour::Black))),
                    ]),
                });
                lines.push(Line::default());
            }
        }
        lines.extend(panel::status(pos, game.outcome(), area.width));
        lines.push(Line::default());
        lines.extend(panel::reserves(pos));
        lines.push(Line::default());
        lines.push(match game.moves().last() {
            Some(mv) => Line::from(format!("Last move: {mv} by {}", !pos.turn())),
            None => Line::from("Last move: none yet"),
        });
        if let Opponent::Computer { level, .. } = self.options().opponent {
            lines.push(match self.thinking() {
                Some((elapsed, info)) => {
                    let detail = info.map_or(String::new(), |i| {
                        format!(" · depth {} · {} nodes", i.depth, panel::nodes(i.nodes))
                    });
                    Line::from(format!("Thinking {}{detail}", panel::spinner(elapsed)))
                        .fg(Color::LightCyan)
                        .bold()
                }
                None => Line::from(format!("Computer: {level}")),
            });
        }
        lines.extend(self.selection_lines(area.width));
        lines.push(Line::default());
        let mut lines = panel::with_stack(lines, pos, self.cursor(), usize::from(area.height));
        // The legend and the latest moves, in what room is left.
        let legend = panel::legend(scale, &panel::PLAY_MARKS, !colours_unwanted());
        let mut rows = usize::from(area.height).saturating_sub(lines.len() + 1);
        if rows >= legend.len() + 1 + LEGEND_ROOM_FOR_MOVES {
            lines.push(Line::default());
            rows -= legend.len() + 1;
            lines.extend(legend);
        }
        if rows > 1 && !game.moves().is_empty() {
            lines.push(Line::default());
            let moves = game.moves();
            lines.extend(panel::move_list(moves, game.start(), moves.len(), rows - 1));
        }
        lines
    }

    /// The piece in hand, where it can go, and what Enter would do with it at the cursor.
    fn selection_lines(&self, width: u16) -> Vec<Line<'static>> {
        let (Some(selection), Some(kind)) = (self.selection(), self.selected_type()) else {
            return Vec::new();
        };
        let (targets, other) = self.targets();
        let what = match selection {
            Selection::Reserve(t) => format!("Placing {t}"),
            Selection::Board(cell) => format!("Moving {kind} from {cell}"),
        };
        let mut head = format!(
            "{what}, rotation {}: {} places",
            kind.normalize(self.rotation()),
            targets.count()
        );
        if targets.is_empty() {
            head.push_str(&format!(" ({other} turned)"));
        }
        let mut lines: Vec<Line<'static>> = panel::wrapped(&head, width)
            .into_iter()
            .map(|line| Line::from(line).fg(Color::LightGreen))
            .collect();
        if let Some((mv, verdict)) = self.verdict() {
            let (text, colour) = match verdict {
                Ok(()) => (format!("{mv}: Enter plays it"), Color::LightGreen),
                Err(why) => (format!("{mv}: {why}"), Color::LightRed),
            };
            lines.extend(
                panel::wrapped(&text, width)
                    .into_iter()
                    .map(|l| Line::from(l).fg(colour)),
            );
        }
        lines
    }

    fn draw_footer(&self, frame: &mut Frame, area: Rect) {
        let message = match self.message() {
            Some(Message::Info(text)) => Line::from(text.clone()),
            Some(Message::Refusal(text)) => {
                Line::from(format!("Refused: {text}")).style(Style::new().fg(Color::LightRed))
            }
            None => Line::default(),
        };
        let field = match self.prompt() {
            Some(prompt) => {
                let (before, under, after) = prompt.split_at_cursor();
                // The cursor: the character under it reversed, or a block after the text.
                let cursor = match under {
                    Some(c) => Span::raw(c.to_string()).reversed(),
                    None => Span::raw("█").slow_blink(),
                };
                Line::from(vec![
                    Span::raw(format!("{}> ", prompt.purpose.label())).bold(),
                    Span::raw(before.to_owned()),
                    cursor,
                    Span::raw(after.to_owned()),
                    Span::raw(match prompt.purpose {
                        Purpose::Move => "   (Enter plays, Esc cancels, ↑ ↓ earlier moves)",
                        Purpose::Save => "   (Enter confirms, Esc cancels)",
                    })
                    .gray(),
                ])
            }
            None => Line::default(),
        };
        let [message_area, field_area, keys_area] = [
            Rect { height: 2, ..area },
            Rect {
                y: area.y + 2,
                height: 1,
                ..area
            },
            Rect {
                y: area.y + 3,
                height: 1,
                ..area
            },
        ];
        frame.render_widget(
            Paragraph::new(message).wrap(Wrap { trim: true }),
            message_area,
        );
        frame.render_widget(Paragraph::new(field), field_area);
        let (narrow, wide) = if self.remote().is_some() {
            (ONLINE_KEYS, WIDE_ONLINE_KEYS)
        } else if self.returns_to_review() {
            (REVIEW_KEYS, WIDE_REVIEW_KEYS)
        } else {
            (KEYS, WIDE_KEYS)
        };
        let keys = if usize::from(area.width) >= wide.chars().count() {
            wide
        } else {
            narrow
        };
        frame.render_widget(Paragraph::new(keys).gray(), keys_area);
    }
}

/// The players of a server's game with their clocks, and the connection.
fn online_lines(remote: &RemoteGame, width: u16) -> Vec<Line<'static>> {
    let ours = remote.colours();
    let mut lines = Vec::new();
    for colour in Colour::ALL {
        let mut spans = vec![
            panel::colour_span(colour),
            Span::raw(format!(" {}", remote.name(colour))),
        ];
        if ours.contains(&colour) && ours.len() == 1 {
            spans.push(Span::raw(" (you)").gray());
        }
        if let Some(left) = remote.time_left(colour) {
            let running = remote
                .state()
                .clock
                .as_ref()
                .and_then(|c| c.running.as_deref())
                == Some(crate::online::remote::api_name(colour));
            let text = format!("  {}", crate::online::clock_text(left));
            spans.push(if running {
                Span::raw(text).bold().fg(Color::LightCyan)
            } else {
                Span::raw(text)
            });
        }
        lines.push(Line::from(spans));
    }
    if let Some(days) = remote.state().clock.as_ref().and_then(|c| c.days_per_move) {
        lines.push(Line::from(format!("Correspondence: {days} days a move")).gray());
    }
    let status = match remote.connection() {
        Connection::Connected => Line::from("● connected").fg(Color::LightGreen),
        Connection::Connecting => Line::from("○ connecting…").fg(Color::Yellow),
        Connection::Lost {
            why,
            attempt,
            retry_at,
        } => {
            let wait = retry_at.saturating_duration_since(Instant::now());
            let text = format!(
                "○ offline, try {} in {:.0} s: {why}",
                attempt + 1,
                wait.as_secs_f32().ceil()
            );
            Line::from(panel::clipped(&text, width, 1).join(" ")).fg(Color::LightRed)
        }
        Connection::Refused(why) => {
            Line::from(panel::clipped(why, width, 1).join(" ")).fg(Color::LightRed)
        }
    };
    lines.push(status);
    if let Some(p) = remote.pending() {
        lines.push(Line::from(format!("Sending {}…", p.mv)).fg(Color::Yellow));
    }
    if let Some(offer) = &remote.state().draw_offer {
        lines.push(Line::from(format!("{offer} offers a draw")).fg(Color::LightMagenta));
    }
    lines.push(Line::default());
    lines
}
