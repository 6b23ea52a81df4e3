//! The dialog that sets up a new game from inside the play screen: the opponent (the
//! computer at a level, or two people at the keyboard), the person's colour and the variant.
//! It starts from the current game's setup, so the command line's choices stay the defaults.
//! The review screen opens it too, to play on from the position shown: the variant is then
//! the record's.

use punct_core::{Colour, Variant};
use punct_engine::Level;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style, Stylize as _};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Padding, Paragraph};

use crate::play::Opponent;

/// The computer's level offered when the current game is between two people: the same as
/// `punct play`'s default.
const DEFAULT_LEVEL: u8 = 5;

/// A line of the dialog, each holding one choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Row {
    Opponent,
    Level,
    Colour,
    Variant,
}

impl Row {
    const ALL: [Row; 4] = [Row::Opponent, Row::Level, Row::Colour, Row::Variant];

    fn label(self) -> &'static str {
        match self {
            Row::Opponent => "Opponent",
            Row::Level => "Level",
            Row::Colour => "You play",
            Row::Variant => "Variant",
        }
    }
}

/// What a key did to the dialog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// The dialog stays open.
    Choosing,
    /// Esc: the current game goes on.
    Cancel,
    /// Enter: a new game with this opponent and variant.
    Start(Opponent, Variant),
}

/// The dialog's state.
#[derive(Clone, Debug)]
pub struct NewGame {
    row: Row,
    against_computer: bool,
    level: Level,
    colour: Colour,
    variant: Variant,
    /// Whether the game on the board has moves not saved, which the new game discards.
    unsaved: bool,
    /// Whether the game goes on from a position shown, whose variant cannot change.
    play_on: bool,
}

impl NewGame {
    /// A dialog filled in with the setup of the current game.
    pub fn new(opponent: Opponent, variant: Variant, unsaved: bool) -> NewGame {
        let default_level = Level::new(DEFAULT_LEVEL).unwrap_or(Level::FULL);
        let (against_computer, level, colour) = match opponent {
            Opponent::Computer { level, human } => (true, level, human),
            Opponent::Human => (false, default_level, Colour::White),
        };
        NewGame {
            row: Row::Opponent,
            against_computer,
            level,
            colour,
            variant,
            unsaved,
            play_on: false,
        }
    }

    /// A dialog for playing on from a position of `variant`, against the computer by
    /// default, the person playing the side to move, `turn`; the computer at `level`, the
    /// record's computer's when it had one, or at `punct play`'s default.
    pub fn play_on(variant: Variant, turn: Colour, level: Option<Level>) -> NewGame {
        let level = level.or(Level::new(DEFAULT_LEVEL)).unwrap_or(Level::FULL);
        let opponent = Opponent::Computer { level, human: turn };
        NewGame {
            play_on: true,
            ..NewGame::new(opponent, variant, false)
        }
    }

    /// The opponent chosen so far.
    fn opponent(&self) -> Opponent {
        if self.against_computer {
            Opponent::Computer {
                level: self.level,
                human: self.colour,
            }
        } else {
            Opponent::Human
        }
    }

    /// Whether `row` means anything with the opponent chosen: level and colour only against
    /// the computer.
    fn applies(&self, row: Row) -> bool {
        match row {
            Row::Opponent => true,
            Row::Level | Row::Colour => self.against_computer,
            Row::Variant => !self.play_on,
        }
    }

    /// Moves the selection `step` rows down (or up, with −1), over the rows that do not apply.
    fn move_row(&mut self, step: isize) {
        let count = Row::ALL.len() as isize;
        let mut index = Row::ALL.iter().position(|&r| r == self.row).unwrap_or(0) as isize;
        for _ in 0..count {
            index = (index + step).rem_euclid(count);
            let row = Row::ALL[index as usize];
            if self.applies(row) {
                self.row = row;
                return;
            }
        }
    }

    /// Changes the selected row's value one step right (`up`) or left.
    fn change(&mut self, up: bool) {
        match self.row {
            Row::Opponent => self.against_computer = !self.against_computer,
            Row::Level => {
                let n = self.level.number();
                let next = if up {
                    n.saturating_add(1)
                } else {
                    n.saturating_sub(1)
                };
                if let Some(level) = Level::new(next) {
                    self.level = level;
                }
            }
            Row::Colour => self.colour = !self.colour,
            Row::Variant => {
                self.variant = match self.variant {
                    Variant::Basic => Variant::Standard,
                    Variant::Standard => Variant::Basic,
                }
            }
        }
    }

    /// Handles one key.
    pub fn key(&mut self, key: KeyEvent) -> Choice {
        match key.code {
            KeyCode::Enter => return Choice::Start(self.opponent(), self.variant),
            KeyCode::Esc | KeyCode::Char('q') => return Choice::Cancel,
            KeyCode::Up | KeyCode::BackTab => self.move_row(-1),
            KeyCode::Down | KeyCode::Tab => self.move_row(1),
            KeyCode::Left => self.change(false),
            KeyCode::Right | KeyCode::Char(' ') => self.change(true),
            // A digit picks the computer at that level.
            KeyCode::Char(c) => {
                let level = c.to_digit(10).and_then(|d| Level::new(d as u8));
                if let Some(level) = level {
                    self.against_computer = true;
                    self.level = level;
                    self.row = Row::Level;
                }
            }
            _ => {}
        }
        Choice::Choosing
    }

    /// The text of `row`'s value, and a word after it.
    fn value(&self, row: Row) -> (String, String) {
        match row {
            Row::Opponent if self.against_computer => ("the computer".to_owned(), String::new()),
            Row::Opponent => ("two people".to_owned(), "at this keyboard".to_owned()),
            Row::Level => (
                self.level.number().to_string(),
                format!("{} (1 to {})", self.level.name(), Level::MAX),
            ),
            Row::Colour => (
                self.colour.name().to_owned(),
                match self.colour {
                    Colour::White => "moves first".to_owned(),
                    Colour::Black => "the computer starts".to_owned(),
                },
            ),
            Row::Variant => (
                self.variant.to_string(),
                match self.variant {
                    Variant::Basic => "no centre count".to_owned(),
                    Variant::Standard => "centre count at the end".to_owned(),
                },
            ),
        }
    }

    /// Draws the dialog in a window over the middle of the screen.
    pub fn draw(&self, frame: &mut Frame) {
        let mut lines = vec![Line::default()];
        for row in Row::ALL {
            let selected = row == self.row;
            let marker = if selected { "> " } else { "  " };
            let label = format!("{marker}{:<9} ", row.label());
            let line = if self.applies(row) {
                let (value, note) = self.value(row);
                let value_style = if selected {
                    Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
                } else {
                    Style::new().bold()
                };
                Line::from(vec![
                    Span::raw(label),
                    Span::styled(format!("< {value} >"), value_style),
                    Span::raw(format!(" {note}")).gray(),
                ])
            } else if row == Row::Variant {
                Line::from(format!("{label}  {} (the record's)", self.variant)).gray()
            } else {
                Line::from(format!("{label}  -")).fg(Color::DarkGray)
            };
            lines.push(line);
        }
        lines.push(Line::default());
        lines.push(Line::from("↑ ↓ choose · ← → change · 1-9 level").gray());
        lines.push(
            Line::from(if self.play_on {
                "Enter plays on from here · Esc goes back"
            } else {
                "Enter starts the game · Esc goes back"
            })
            .gray(),
        );
        if self.unsaved {
            lines.push(Line::from("The game on the board is not saved (s).").fg(Color::LightRed));
        }
        let area = frame.area();
        let width = area.width.min(54);
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
                    .title(if self.play_on {
                        " Play on from here "
                    } else {
                        " New game "
                    })
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

    fn press(dialog: &mut NewGame, code: KeyCode) -> Choice {
        dialog.key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    #[test]
    fn the_choices_start_from_the_current_game_and_change_with_the_arrows() {
        let level = Level::new(2).unwrap();
        let current = Opponent::Computer {
            level,
            human: Colour::Black,
        };
        let mut dialog = NewGame::new(current, Variant::Basic, false);
        assert_eq!(
            press(&mut dialog, KeyCode::Enter),
            Choice::Start(current, Variant::Basic)
        );
        press(&mut dialog, KeyCode::Down);
        press(&mut dialog, KeyCode::Left);
        press(&mut dialog, KeyCode::Left);
        press(&mut dialog, KeyCode::Left);
        press(&mut dialog, KeyCode::Down);
        press(&mut dialog, KeyCode::Right);
        press(&mut dialog, KeyCode::Down);
        press(&mut dialog, KeyCode::Right);
        let expected = Opponent::Computer {
            level: Level::new(1).unwrap(),
            human: Colour::White,
        };
        assert_eq!(
            press(&mut dialog, KeyCode::Enter),
            Choice::Start(expected, Variant::Standard)
        );
        // Up from the top goes round to the bottom row.
        press(&mut dialog, KeyCode::Up);
        press(&mut dialog, KeyCode::Up);
        press(&mut dialog, KeyCode::Up);
        assert_eq!(dialog.row, Row::Opponent);
        press(&mut dialog, KeyCode::Up);
        assert_eq!(dialog.row, Row::Variant);
        assert_eq!(press(&mut dialog, KeyCode::Esc), Choice::Cancel);
    }

    #[test]
    fn playing_on_keeps_the_variant_and_offers_the_side_to_move() {
        let first = Level::new(1).unwrap();
        let dialog = NewGame::play_on(Variant::Standard, Colour::White, Some(first));
        assert_eq!(
            dialog.opponent(),
            Opponent::Computer {
                level: first,
                human: Colour::White
            }
        );
        let mut dialog = NewGame::play_on(Variant::Basic, Colour::Black, None);
        let level = Level::new(DEFAULT_LEVEL).unwrap();
        // The variant row is passed over and left alone.
        press(&mut dialog, KeyCode::Up);
        assert_eq!(dialog.row, Row::Colour);
        press(&mut dialog, KeyCode::Down);
        press(&mut dialog, KeyCode::Down);
        assert_eq!(dialog.row, Row::Level);
        assert_eq!(
            press(&mut dialog, KeyCode::Enter),
            Choice::Start(
                Opponent::Computer {
                    level,
                    human: Colour::Black
                },
                Variant::Basic
            )
        );
        press(&mut dialog, KeyCode::Up);
        press(&mut dialog, KeyCode::Left);
        assert_eq!(
            press(&mut dialog, KeyCode::Enter),
            Choice::Start(Opponent::Human, Variant::Basic)
        );
    }

    #[test]
    fn two_people_skip_level_and_colour_and_a_digit_picks_the_computer() {
        let mut dialog = NewGame::new(Opponent::Human, Variant::Standard, true);
        press(&mut dialog, KeyCode::Down);
        assert_eq!(dialog.row, Row::Variant, "level and colour do not apply");
        assert_eq!(
            press(&mut dialog, KeyCode::Enter),
            Choice::Start(Opponent::Human, Variant::Standard)
        );
        // The level is bounded by 1 and 9.
        press(&mut dialog, KeyCode::Char('9'));
        assert_eq!(dialog.row, Row::Level);
        press(&mut dialog, KeyCode::Right);
        press(&mut dialog, KeyCode::Char('0'));
        assert_eq!(
            press(&mut dialog, KeyCode::Enter),
            Choice::Start(
                Opponent::Computer {
                    level: Level::FULL,
                    human: Colour::White
                },
                Variant::Standard
            )
        );
    }
}
