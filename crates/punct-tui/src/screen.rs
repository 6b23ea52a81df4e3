//! The terminal: taking it over and giving it back, the event loop, and the screen layout
//! shared by the play and review screens.

use std::io::IsTerminal as _;
use std::time::Duration;

use anyhow::bail;
use punct_core::Colour;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{self, EnterAlternateScreen};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};
use ratatui::{DefaultTerminal, Frame};

use signal_hook::consts::SIGTSTP;

use crate::board::{Scale, owner_style};
use crate::{hangup, signals};

/// A full-screen program: what it shows and what keys do to it.
pub trait Screen {
    /// Draws the whole screen.
    fn draw(&self, frame: &mut Frame);
    /// Handles a key press.
    fn key(&mut self, key: KeyEvent);
    /// Takes in news from background work; called several times a second.
    fn tick(&mut self);
    /// Whether the program should end.
    fn is_done(&self) -> bool;
}

/// How often the screen is redrawn and background news is read while no key is pressed.
const TICK: Duration = Duration::from_millis(50);

/// Runs `screen` in the terminal until it is done or Ctrl-C is pressed, then restores the
/// terminal; ratatui's panic hook restores it on a panic too, before the panic's message is
/// printed. Ctrl-Z suspends the program, giving the terminal back until it is resumed;
/// Ctrl-L draws the screen anew.
/// SIGTERM, SIGHUP and SIGINT end the screen like Ctrl-C; once the terminal is restored, the
/// process ends by that signal. When the terminal goes away the process ends at once, by
/// SIGHUP, whatever it was doing.
pub fn run(screen: &mut dyn Screen) -> anyhow::Result<()> {
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        bail!("this command draws a full-screen board and needs a terminal");
    }
    let signals = signals::Watch::start()?;
    hangup::watch_stdin()?;
    let mut terminal = ratatui::try_init()?;
    quiet_engine_panics();
    let result = event_loop(&mut terminal, screen, &signals);
    match signals.caught() {
        Some(signal) => {
            // After a hangup the terminal is gone and cannot be restored; there is no one to
            // tell about it either.
            let _ = ratatui::try_restore();
            Err(signals::obey(signal))
        }
        None => {
            ratatui::restore();
            result
        }
    }
}

/// Keeps a panic in the engine thread from tearing the screen down: ratatui's hook would
/// give the terminal back while the program goes on. The engine thread just ends, and the
/// screens go on without it; panics elsewhere reach ratatui's hook as before.
fn quiet_engine_panics() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() != Some(crate::worker::THREAD_NAME) {
            previous(info);
        }
    }));
}

fn event_loop(
    terminal: &mut DefaultTerminal,
    screen: &mut dyn Screen,
    signals: &signals::Watch,
) -> anyhow::Result<()> {
    let colourless = colours_unwanted();
    while !screen.is_done() && signals.caught().is_none() {
        terminal.draw(|frame| {
            screen.draw(frame);
            if colourless {
                strip_colours(frame.buffer_mut());
            }
        })?;
        if event::poll(TICK)? {
            // Resizes need nothing more: the next draw lays the screen out anew.
            if let Event::Key(key) = event::read()? {
                if key.kind == KeyEventKind::Release {
                    continue;
                }
                // Raw mode turns Ctrl-C and Ctrl-Z into keys rather than signals.
                if key.modifiers.contains(KeyModifiers::CONTROL) {
                    match key.code {
                        KeyCode::Char('c') => break,
                        KeyCode::Char('z') => {
                            suspend(terminal)?;
                            continue;
                        }
                        // As in most full-screen programs: everything drawn anew, over
                        // whatever else wrote to the terminal.
                        KeyCode::Char('l') => {
                            terminal.clear()?;
                            continue;
                        }
                        _ => {}
                    }
                }
                screen.key(key);
            }
        }
        screen.tick();
    }
    Ok(())
}

/// Stops the program as Ctrl-Z does in a shell, with the terminal given back meanwhile, and
/// takes the terminal again when the shell resumes the program (`fg`).
fn suspend(terminal: &mut DefaultTerminal) -> anyhow::Result<()> {
    terminal.show_cursor()?;
    ratatui::try_restore()?;
    signal_hook::low_level::raise(SIGTSTP)?;
    // Resumed: raw mode and the alternate screen again, and everything drawn anew over
    // whatever the shell left there.
    terminal::enable_raw_mode()?;
    execute!(std::io::stdout(), EnterAlternateScreen)?;
    terminal.clear()?;
    Ok(())
}

/// Whether the person asked for no colours by setting `NO_COLOR` (<https://no-color.org>).
pub fn colours_unwanted() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty())
}

/// Leaves the colours out of a drawn screen and keeps bold, underline and reverse, which mark
/// the PÜNCT dots and the cursor. This is done here rather than left to the terminal library,
/// whose own `NO_COLOR` support sends a bare `ESC [ m` for each change of colour, and that
/// resets the attributes too.
///
/// A highlight drawn as a background colour (the legal destinations, the piece in hand, the
/// engine's move, the current move of a list) would vanish with it, so such cells are shown
/// reversed instead. The dots' own backgrounds are not highlights: their text names the owner.
fn strip_colours(buffer: &mut Buffer) {
    let dots = Colour::ALL.map(|colour| owner_style(colour).bg);
    for cell in &mut buffer.content {
        if cell.bg != Color::Reset && !dots.contains(&Some(cell.bg)) {
            cell.modifier.insert(Modifier::REVERSED);
        }
        cell.set_fg(Color::Reset).set_bg(Color::Reset);
    }
}

/// Where the parts of a screen go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Areas {
    /// The board drawing.
    pub board: Rect,
    /// How large the board is drawn.
    pub scale: Scale,
    /// Status, reserves and details right of the board.
    pub panel: Rect,
    /// Messages, the text field and the keys, across the bottom.
    pub footer: Rect,
}

/// Smallest terminal the screens are laid out for.
pub const MIN_SIZE: (u16, u16) = (64, 22);

/// Width the side panel needs beside the wide board before the wide board is used.
const PANEL_WIDTH: u16 = 44;

/// Splits the screen: the board top left, the panel at its right, the footer below; the
/// largest board that leaves room for the panel.
pub fn layout(area: Rect, footer_height: u16) -> Option<Areas> {
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        return None;
    }
    let top_height = area.height - footer_height;
    let fits = |scale: Scale| {
        area.width >= scale.width() + 1 + PANEL_WIDTH && top_height >= scale.height()
    };
    let scale = Scale::LARGEST_FIRST
        .into_iter()
        .find(|&scale| fits(scale))
        .unwrap_or(Scale::Compact);
    let board_width = scale.width() + 1;
    Some(Areas {
        board: Rect::new(area.x, area.y, board_width, top_height.min(scale.height())),
        scale,
        panel: Rect::new(
            area.x + board_width,
            area.y,
            area.width - board_width,
            top_height,
        ),
        footer: Rect::new(area.x, area.y + top_height, area.width, footer_height),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Style;

    #[test]
    fn stripping_colours_keeps_text_and_attributes_and_shows_highlights_reversed() {
        let mut buffer = Buffer::empty(Rect::new(0, 0, 4, 1));
        let punct = Style::new()
            .fg(Color::Black)
            .bg(Color::White)
            .add_modifier(Modifier::UNDERLINED);
        buffer.set_string(0, 0, "1", punct);
        buffer.set_string(1, 0, "a", owner_style(Colour::Black));
        // A legal destination on empty board, and plain text.
        buffer.set_string(2, 0, ".", Style::new().fg(Color::Black).bg(Color::Cyan));
        buffer.set_string(3, 0, "x", Style::new().fg(Color::Gray));
        strip_colours(&mut buffer);
        let cell = &buffer[(0, 0)];
        assert_eq!(
            (cell.symbol(), cell.fg, cell.bg),
            ("1", Color::Reset, Color::Reset)
        );
        assert!(cell.modifier.contains(Modifier::UNDERLINED));
        let reversed = |x: u16| buffer[(x, 0)].modifier.contains(Modifier::REVERSED);
        assert_eq!(
            [0, 1, 2, 3].map(reversed),
            [false, false, true, false],
            "only the highlight is reversed"
        );
        assert!(buffer.content.iter().all(|c| c.bg == Color::Reset));
    }

    #[test]
    fn layouts_fit_the_screen_and_use_the_room_there_is() {
        let small = layout(Rect::new(0, 0, 80, 24), 4).unwrap();
        assert_eq!(small.scale, Scale::Compact);
        assert_eq!(small.board.height, 18);
        assert!(small.panel.right() <= 80 && small.footer.bottom() == 24);
        let wide = layout(Rect::new(0, 0, 140, 30), 4).unwrap();
        assert_eq!(wide.scale, Scale::Wide);
        assert!(wide.panel.width >= PANEL_WIDTH);
        let large = layout(Rect::new(0, 0, 160, 50), 4).unwrap();
        assert_eq!(large.scale, Scale::Large);
        assert!(large.panel.width >= PANEL_WIDTH);
        assert!(large.board.bottom() <= large.footer.y);
        // Wide enough for the large board but too low: the wide one.
        assert_eq!(
            layout(Rect::new(0, 0, 160, 30), 4).unwrap().scale,
            Scale::Wide
        );
        assert!(layout(Rect::new(0, 0, 40, 10), 4).is_none());
    }
}
