//! The dialog that makes a new game on the server, from the list of games: the kinds the
//! API offers a terminal today, a game against the server's computer and a correspondence
//! game with a friend (who gets an invitation link).
//!
//! Each kind is a [`Kind`] and the request it makes is [`NewOnline::request`]; the lobby's
//! quick pairing, seeks and challenges (`/api/pool/{slot}`, `/api/seeks`,
//! `/api/challenges`) come in as more kinds, each with its own request, once the server has
//! those routes.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style, Stylize as _};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Padding, Paragraph};

use super::wire::NewGame;

/// The days per move the server allows, in order.
pub const DAYS: [u32; 6] = [1, 2, 3, 5, 7, 14];

/// What kind of game to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Against the server's computer, untimed.
    Computer,
    /// With a friend, by invitation, a number of days per move.
    Correspondence,
}

/// The colours a creator may ask for, as the API names them.
const COLOURS: [&str; 3] = ["white", "black", "random"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Row {
    Kind,
    Level,
    Days,
    Colour,
}

/// What a key did to the dialog.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Asked {
    /// Still choosing.
    Choosing,
    /// Esc.
    Cancel,
    /// Enter: make this game.
    Make(NewGame),
}

/// The dialog's state.
#[derive(Clone, Debug)]
pub struct NewOnline {
    row: Row,
    kind: Kind,
    level: u8,
    days: usize,
    colour: usize,
}

impl Default for NewOnline {
    fn default() -> NewOnline {
        NewOnline {
            row: Row::Kind,
            kind: Kind::Correspondence,
            level: 5,
            days: 2,
            colour: 0,
        }
    }
}

impl NewOnline {
    fn rows(&self) -> [Row; 3] {
        match self.kind {
            Kind::Computer => [Row::Kind, Row::Level, Row::Colour],
            Kind::Correspondence => [Row::Kind, Row::Days, Row::Colour],
        }
    }

    /// The request the choices make.
    pub fn request(&self) -> NewGame {
        NewGame {
            mode: match self.kind {
                Kind::Computer => "computer",
                Kind::Correspondence => "friend",
            },
            level: (self.kind == Kind::Computer).then_some(self.level),
            colour: COLOURS[self.colour],
            days: (self.kind == Kind::Correspondence).then_some(DAYS[self.days]),
        }
    }

    /// Handles one key.
    pub fn key(&mut self, key: KeyEvent) -> Asked {
        let rows = self.rows();
        let index = rows.iter().position(|&r| r == self.row).unwrap_or(0);
        match key.code {
            KeyCode::Enter => return Asked::Make(self.request()),
            KeyCode::Esc | KeyCode::Char('q') => return Asked::Cancel,
            KeyCode::Up | KeyCode::BackTab => {
                self.row = rows[(index + rows.len() - 1) % rows.len()]
            }
            KeyCode::Down | KeyCode::Tab => self.row = rows[(index + 1) % rows.len()],
            KeyCode::Left => self.change(false),
            KeyCode::Right | KeyCode::Char(' ') => self.change(true),
            _ => {}
        }
        Asked::Choosing
    }

    fn change(&mut self, up: bool) {
        let step = |i: usize, n: usize| if up { (i + 1) % n } else { (i + n - 1) % n };
        match self.row {
            Row::Kind => {
                self.kind = match self.kind {
                    Kind::Computer => Kind::Correspondence,
                    Kind::Correspondence => Kind::Computer,
                }
            }
            Row::Level => self.level = step(usize::from(self.level) - 1, 9) as u8 + 1,
            Row::Days => self.days = step(self.days, DAYS.len()),
            Row::Colour => self.colour = step(self.colour, COLOURS.len()),
        }
    }

    fn value(&self, row: Row) -> (&'static str, String) {
        match row {
            Row::Kind => (
                "Game",
                match self.kind {
                    Kind::Computer => "against the computer".to_owned(),
                    Kind::Correspondence => "correspondence, with a friend".to_owned(),
                },
            ),
            Row::Level => ("Level", format!("{} (1 to 9)", self.level)),
            Row::Days => ("Per move", format!("{} days", DAYS[self.days])),
            Row::Colour => ("You play", COLOURS[self.colour].to_owned()),
        }
    }

    /// Draws the dialog over the middle of the screen.
    pub fn draw(&self, frame: &mut Frame) {
        let mut lines = vec![Line::default()];
        for row in self.rows() {
            let (label, value) = self.value(row);
            let selected = row == self.row;
            let style = if selected {
                Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
            } else {
                Style::new().bold()
            };
            lines.push(Line::from(vec![
                Span::raw(format!("{}{label:<9} ", if selected { "> " } else { "  " })),
                Span::styled(format!("< {value} >"), style),
            ]));
        }
        lines.push(Line::default());
        lines.push(Line::from("↑ ↓ choose · ← → change").gray());
        lines.push(Line::from("Enter makes the game on the server · Esc goes back").gray());
        let area = frame.area();
        let width = area.width.min(58);
        let height = area.height.min(lines.len() as u16 + 2);
        let window = Rect::new(
            area.x + (area.width - width) / 2,
            area.y + (area.height - height) / 2,
            width,
            height,
        );
        frame.render_widget(Clear, window);
        frame.render_widget(
            Paragraph::new(lines).block(
                Block::bordered()
                    .title(" New game on the server ")
                    .padding(Padding::horizontal(1)),
            ),
            window,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyModifiers;

    fn press(dialog: &mut NewOnline, code: KeyCode) -> Asked {
        dialog.key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    #[test]
    fn the_choices_make_the_requests_the_api_takes() {
        let mut dialog = NewOnline::default();
        let Asked::Make(game) = press(&mut dialog, KeyCode::Enter) else {
            panic!("no game");
        };
        assert_eq!(
            serde_json::to_string(&game).unwrap(),
            r#"{"mode":"friend","colour":"white","days":3}"#
        );
        press(&mut dialog, KeyCode::Right);
        press(&mut dialog, KeyCode::Down);
        press(&mut dialog, KeyCode::Left);
        press(&mut dialog, KeyCode::Down);
        press(&mut dialog, KeyCode::Right);
        let Asked::Make(game) = press(&mut dialog, KeyCode::Enter) else {
            panic!("no game");
        };
        assert_eq!(
            serde_json::to_string(&game).unwrap(),
            r#"{"mode":"computer","level":4,"colour":"black"}"#
        );
        assert_eq!(press(&mut dialog, KeyCode::Esc), Asked::Cancel);
    }
}
