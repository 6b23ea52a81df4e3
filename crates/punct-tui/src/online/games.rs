//! The list of the player's games on a server, live and correspondence: whose turn, the
//! time left. Enter plays the chosen game on the play screen, `q` there comes back here;
//! `n` makes a new game ([`super::new_online`]).
//!
//! The list is read over HTTP (the player's games, then each game's state) when the screen
//! opens, on `r`, on coming back from a game, and every [`REFRESH`] while it is shown.

use std::time::{Duration, Instant};

use punct_core::{Colour, Variant};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::style::{Color, Modifier, Style, Stylize as _};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::api::Api;
use super::new_online::{Asked, NewOnline};
use super::remote::{RemoteGame, colour_named, replay};
use super::wire::GameState;
use crate::play::{Message, Opponent, Play, PlayOptions};
use crate::screen::Screen;

/// How often the list is read again while it is shown.
const REFRESH: Duration = Duration::from_secs(30);

/// The most games listed (the API's page).
const MOST: usize = 50;

/// A game of the list.
#[derive(Clone, Debug)]
struct Listed {
    /// Its state when the list was read.
    state: GameState,
    /// When that was.
    read: Instant,
}

impl Listed {
    /// Whether it is the player's turn in it.
    fn our_turn(&self) -> bool {
        let Ok(game) = replay(&self.state) else {
            return false;
        };
        game.outcome().is_none()
            && self
                .state
                .you
                .iter()
                .any(|c| colour_named(c) == Some(game.position().turn()))
    }

    /// The time the side to move has left now, if the game has a clock.
    fn time_left(&self) -> Option<Duration> {
        let clock = self.state.clock.as_ref()?;
        let running = clock.running.as_deref()?;
        let ms = if running == "white" {
            clock.white_ms
        } else {
            clock.black_ms
        };
        Some(Duration::from_millis(ms.max(0).unsigned_abs()).saturating_sub(self.read.elapsed()))
    }

    /// The line as the list shows it.
    fn text(&self) -> String {
        let s = &self.state;
        let ours: Vec<Colour> = s.you.iter().filter_map(|c| colour_named(c)).collect();
        let colour = ours.first().copied().unwrap_or(Colour::White);
        let opponent = match colour {
            Colour::White => &s.seats.black,
            Colour::Black => &s.seats.white,
        };
        let kind = match s.clock.as_ref() {
            Some(clock) => match clock.days_per_move {
                Some(days) => format!("{days} d/move"),
                None => "live".to_owned(),
            },
            None => "untimed".to_owned(),
        };
        let turn = if self.our_turn() {
            "your turn".to_owned()
        } else if opponent.open {
            "waiting for a friend".to_owned()
        } else {
            "their turn".to_owned()
        };
        let left = self
            .time_left()
            .map_or(String::new(), |d| format!(" · {}", duration(d)));
        format!(
            "{:<20} {colour} vs {:<16} {kind:<10} {} moves{left}",
            turn,
            cut(&opponent.name, 16),
            s.moves.len()
        )
    }
}

/// `text` cut to `n` characters.
fn cut(text: &str, n: usize) -> String {
    text.chars().take(n).collect()
}

/// A duration as a clock shows it: `2d 23h`, `5h 02m`, `4:05`.
pub fn duration(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        86_400.. => format!("{}d {}h", s / 86_400, s % 86_400 / 3600),
        3600.. => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
        _ => format!("{}:{:02}", s / 60, s % 60),
    }
}

/// The screen of the player's games.
pub struct Games {
    api: Api,
    username: String,
    lines: Vec<Listed>,
    /// Games made from this screen, listed even before the server lists them (a friend
    /// game is on the player's list once the friend has taken the seat).
    made: Vec<String>,
    selected: usize,
    message: Option<Message>,
    read_at: Option<Instant>,
    playing: Option<Play>,
    dialog: Option<NewOnline>,
    quit: bool,
}

impl Games {
    /// The games of `username` on the server of `api`, read at once.
    pub fn open(api: Api, username: String) -> Games {
        let mut games = Games {
            api,
            username,
            lines: Vec::new(),
            made: Vec::new(),
            selected: 0,
            message: None,
            read_at: None,
            playing: None,
            dialog: None,
            quit: false,
        };
        games.read();
        games
    }

    /// Reads the list again.
    fn read(&mut self) {
        self.read_at = Some(Instant::now());
        let listed = match self.api.live_games(&self.username) {
            Ok(list) => list.games,
            Err(e) => {
                self.message = Some(Message::Refusal(format!("{e}: r tries again")));
                return;
            }
        };
        let mut ids: Vec<String> = listed.into_iter().map(|g| g.game).collect();
        for id in &self.made {
            if !ids.contains(id) {
                ids.push(id.clone());
            }
        }
        let mut lines = Vec::new();
        let mut failed = None;
        for id in ids.iter().take(MOST) {
            match self.api.state(id) {
                Ok(state) if state.outcome.is_none() => lines.push(Listed {
                    state,
                    read: Instant::now(),
                }),
                Ok(_) => {}
                Err(e) => failed = Some(format!("game {id}: {e}")),
            }
        }
        // The games waiting for the player first, the least time left first.
        lines.sort_by_key(|l| (!l.our_turn(), l.time_left().unwrap_or(Duration::MAX)));
        self.lines = lines;
        self.selected = self.selected.min(self.lines.len().saturating_sub(1));
        self.message = Some(match failed {
            Some(why) => Message::Refusal(why),
            None if self.lines.is_empty() => Message::Info(
                "no games being played: n makes one (the computer, or a friend by correspondence)"
                    .to_owned(),
            ),
            None => Message::Info(format!(
                "{} games · ↑ ↓ choose, Enter plays",
                self.lines.len()
            )),
        });
    }

    /// Opens game `state` on the play screen.
    fn play(&mut self, state: GameState) {
        match RemoteGame::connect(&self.api, state) {
            Ok(remote) => self.playing = Some(Play::online(remote, play_options())),
            Err(why) => self.message = Some(Message::Refusal(why)),
        }
    }

    fn make(&mut self, request: &super::wire::NewGame) {
        let made = match self.api.create(request) {
            Ok(made) => made,
            Err(e) => {
                self.message = Some(Message::Refusal(e.to_string()));
                return;
            }
        };
        self.made.push(made.id.clone());
        let state = match self.api.state(&made.id) {
            Ok(state) => state,
            Err(e) => {
                self.message = Some(Message::Refusal(e.to_string()));
                return;
            }
        };
        self.play(state);
        if let (Some(invite), Some(play)) = (made.invite, &mut self.playing) {
            let link = format!("{}/g/{}#invite={invite}", self.api.base(), made.id);
            play.set_message(Message::Info(format!(
                "send your friend this link; the game starts when they open it: {link}"
            )));
        }
    }
}

/// The play screen's options for a server's game: only the variant matters (the server's).
fn play_options() -> PlayOptions {
    PlayOptions {
        variant: Variant::Standard,
        opponent: Opponent::Human,
        movetime: Duration::from_secs(1),
        seed: 0,
        threads: 1,
    }
}

impl Screen for Games {
    fn draw(&self, frame: &mut Frame) {
        if let Some(play) = &self.playing {
            play.draw(frame);
            return;
        }
        let area = frame.area();
        let mut lines = vec![
            Line::from(format!("PÜNCT · {} on {}", self.username, self.api.base())).bold(),
            Line::default(),
        ];
        for (i, line) in self.lines.iter().enumerate() {
            let style = if i == self.selected {
                Style::new().add_modifier(Modifier::REVERSED)
            } else {
                Style::new()
            };
            let mark = if line.our_turn() { "▶ " } else { "  " };
            lines.push(Line::from(vec![
                Span::raw(mark).fg(Color::LightGreen),
                Span::styled(line.text(), style),
            ]));
        }
        lines.push(Line::default());
        if let Some(message) = &self.message {
            lines.push(match message {
                Message::Info(text) => Line::from(text.clone()),
                Message::Refusal(text) => Line::from(text.clone()).fg(Color::LightRed),
            });
        }
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
        let keys = "↑ ↓ choose · ⏎ play · n new game · r read again · q quit";
        let bottom = ratatui::layout::Rect {
            y: area.bottom().saturating_sub(1),
            height: 1,
            ..area
        };
        frame.render_widget(Paragraph::new(keys).gray(), bottom);
        if let Some(dialog) = &self.dialog {
            dialog.draw(frame);
        }
    }

    fn key(&mut self, key: KeyEvent) {
        if let Some(play) = &mut self.playing {
            play.key(key);
            if play.is_done() {
                self.playing = None;
                self.read();
            }
            return;
        }
        if let Some(dialog) = &mut self.dialog {
            match dialog.key(key) {
                Asked::Choosing => {}
                Asked::Cancel => self.dialog = None,
                Asked::Make(request) => {
                    self.dialog = None;
                    self.make(&request);
                }
            }
            return;
        }
        match key.code {
            KeyCode::Up => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down => {
                self.selected = (self.selected + 1).min(self.lines.len().saturating_sub(1));
            }
            KeyCode::Enter => match self.lines.get(self.selected) {
                Some(line) => {
                    let id = line.state.id.clone();
                    // The state again: the list may be half a minute old.
                    match self.api.state(&id) {
                        Ok(state) => self.play(state),
                        Err(e) => self.message = Some(Message::Refusal(e.to_string())),
                    }
                }
                None => {
                    self.message = Some(Message::Refusal("no game to play: n makes one".into()));
                }
            },
            KeyCode::Char('n') => self.dialog = Some(NewOnline::default()),
            KeyCode::Char('r') => self.read(),
            KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
            _ => {}
        }
    }

    fn tick(&mut self) {
        match &mut self.playing {
            Some(play) => play.tick(),
            None => {
                if self.read_at.is_none_or(|at| at.elapsed() > REFRESH) && self.dialog.is_none() {
                    self.read();
                }
            }
        }
    }

    fn is_done(&self) -> bool {
        self.quit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_clocks_do() {
        assert_eq!(duration(Duration::from_secs(3 * 86_400 - 1)), "2d 23h");
        assert_eq!(duration(Duration::from_secs(5 * 3600 + 120)), "5h 02m");
        assert_eq!(duration(Duration::from_secs(245)), "4:05");
    }
}
