//! Stepping through recorded games, with the engine's view of the shown position on request.
//! A file may hold many games, as `punct match` writes them; the review goes from one to the
//! next, passing over those that did not read. `p` plays on from the position shown, against
//! the computer (at the record's computer's level by default) or between two people, on the
//! whole screen until `q` there comes back; a position where the game is over has nothing
//! to play on, and `p` says so.

use std::time::Duration;

use punct_core::{Bitboard, Cell, Colour, Game, Move, Record};
use punct_engine::search::threads;
use punct_engine::{Level, Options, Score, SearchLimits};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::{Color, Stylize as _};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use crate::board::{BoardView, Marks, Scale};
use crate::cursor::{Arrow, Cursor};
use crate::new_game::{Choice, NewGame};
use crate::panel;
use crate::play::{Opponent, Play, PlayOptions, last_move_cells, position_after};
use crate::record_file::Loaded;
use crate::screen::{Screen, colours_unwanted, layout};
use crate::worker::{Update, Worker};

/// What the engine said about one shown position.
#[derive(Clone, Debug)]
struct Analysis {
    /// The number of moves played in the position analysed.
    shown: usize,
    score: Score,
    pv: Vec<Move>,
    depth: u32,
    nodes: u64,
}

/// The state of the review screen, and of the game played on from it once there is one:
/// that game then has the screen until `q` there comes back to the review.
pub struct Review {
    /// The games of the file that read, never empty.
    games: Vec<Record>,
    /// The number of each of `games` in the file, counted from 1.
    numbers: Vec<usize>,
    /// How many games the file holds, read or not.
    count: usize,
    /// The games of the file that did not read, each with its number and why.
    skipped: Vec<(usize, String)>,
    /// Which of `games` is shown.
    game: usize,
    title: String,
    /// How many of the record's moves are played on the board shown.
    shown: usize,
    /// `Some` while the arrows move a cursor over the board to look at stacks.
    cursor: Option<Cursor>,
    analysing: bool,
    analysis: Option<Analysis>,
    help: bool,
    worker: Worker,
    movetime: Duration,
    seed: u64,
    /// The dialog setting up a game played on from the position shown, while it is open.
    play_on: Option<NewGame>,
    /// The game played on from the position shown, which has the screen once started.
    playing: Option<Play>,
    /// Why the last key did nothing, shown in place of the keys until the next one.
    notice: Option<String>,
    quit: bool,
}

/// Every key, for the help window.
const HELP: [(&str, &str); 10] = [
    ("← →", "one move back / forward"),
    ("↑ ↓ PgUp PgDn", "ten moves back / forward"),
    ("Home End", "the start / the end of the game"),
    ("a", "the engine's evaluation and best line, on / off"),
    ("x", "look at stacks: arrows move a cursor, x or Esc ends"),
    ("p", "play on from here, against the computer or two people"),
    ("q, Esc", "quit"),
    ("Ctrl-C", "quit at once"),
    ("Ctrl-Z", "suspend to the shell; fg comes back"),
    ("?", "this list; any key closes it"),
];

/// The help line of the keys that go from game to game, after the first three of [`HELP`].
const GAMES_HELP: (&str, &str) = ("[ ]", "the previous / next game in the file");

/// Rows the move list should keep before the legend is shown in the panel.
const LEGEND_ROOM_FOR_MOVES: usize = 8;
/// Most lines a move's comment takes in the panel.
const COMMENT_LINES: usize = 3;
/// Most lines the games that did not read take in the panel.
const SKIPPED_LINES: usize = 3;
const STACK_KEYS: &str = "arrows move the cursor · x or Esc back to stepping · ? keys · q quit";

impl Review {
    /// A review of `games`, the records of one file (titled `title`, usually its name),
    /// showing the final position of game `index` (counted from 0); the engine analyses for
    /// `movetime` per position when asked. `None` when there is no game `index`.
    pub fn new(
        games: Vec<Record>,
        index: usize,
        title: &str,
        movetime: Duration,
        seed: u64,
    ) -> Option<Review> {
        let loaded = Loaded {
            games: (1..).zip(games).collect(),
            skipped: Vec::new(),
        };
        Review::of_file(loaded, index, title, movetime, seed)
    }

    /// A review of the games of a file that read, showing game `index` of them (counted
    /// from 0) and naming those that did not read. `None` when there is no game `index`.
    pub(crate) fn of_file(
        loaded: Loaded,
        index: usize,
        title: &str,
        movetime: Duration,
        seed: u64,
    ) -> Option<Review> {
        let count = loaded.count();
        let (numbers, games): (Vec<usize>, Vec<Record>) = loaded.games.into_iter().unzip();
        let shown = games.get(index)?.game.moves().len();
        Some(Review {
            shown,
            games,
            numbers,
            count,
            skipped: loaded
                .skipped
                .into_iter()
                .map(|(number, e)| (number, e.to_string()))
                .collect(),
            game: index,
            title: title.to_owned(),
            cursor: None,
            analysing: false,
            analysis: None,
            help: false,
            worker: Worker::spawn(Options {
                level: Level::FULL,
                seed,
                threads: threads::available(),
            }),
            movetime,
            seed,
            play_on: None,
            playing: None,
            notice: None,
            quit: false,
        })
    }

    /// Starts the game set up in the play-on dialog from the position shown; the computer
    /// thinks as long per move as the analysis does.
    fn start_playing_on(&mut self, opponent: Opponent) {
        self.worker.cancel();
        let game = self.shown_game();
        let options = PlayOptions {
            variant: game.start().variant(),
            opponent,
            movetime: self.movetime,
            seed: self.seed,
            threads: threads::available(),
        };
        self.playing = Some(Play::resume(options, game, None).returning_to_review());
    }

    /// The game played on has ended with `q`: the review is shown again as it was.
    fn back_from_playing_on(&mut self) {
        self.playing = None;
        if self.analysing {
            self.analyse();
        }
    }

    /// The computer's level in the record, for playing on against it: that of the player
    /// facing the person who plays `human`, or else of the other, when named as the
    /// computer is (`punct level 1`).
    fn record_level(&self, human: Colour) -> Option<Level> {
        let record = self.record();
        let level = |colour: Colour| record.tag(colour.name()).and_then(Level::from_player_name);
        level(!human).or_else(|| level(human))
    }

    /// Why there is nothing to play on from the position shown, if there is not: the game
    /// is over there.
    fn nothing_to_play_on(&self) -> Option<String> {
        let outcome = self.shown_game().outcome()?;
        Some(format!("Nothing to play on here: {outcome}. ← steps back"))
    }

    /// The keys line of the footer.
    fn keys(&self) -> String {
        if self.cursor.is_some() {
            return STACK_KEYS.to_owned();
        }
        let mut keys = vec![
            "← → step",
            if self.games.len() > 1 {
                "[ ] game"
            } else {
                "Home End"
            },
            "a analyse",
            "x stacks",
        ];
        if self.nothing_to_play_on().is_none() {
            keys.push("p play on");
        }
        keys.extend(["? keys", "q quit"]);
        keys.join(" · ")
    }

    /// How many moves are played on the board shown.
    pub fn shown(&self) -> usize {
        self.shown
    }

    /// Which game of the file is shown, counted from 0, and how many the file holds.
    pub fn game(&self) -> (usize, usize) {
        (self.game, self.games.len())
    }

    /// The record of the game shown.
    fn record(&self) -> &Record {
        &self.games[self.game]
    }

    /// Shows game `index` of the file, if there is one, from its final position.
    fn go_to_game(&mut self, index: usize) {
        if index >= self.games.len() || index == self.game {
            return;
        }
        self.game = index;
        self.cursor = None;
        self.analysis = None;
        self.go(self.record().game.moves().len());
    }

    /// The game up to the shown move.
    fn shown_game(&self) -> Game {
        let record = self.record();
        let mut game = Game::from_position(record.game.start().clone());
        for &mv in &record.game.moves()[..self.shown] {
            if game.play(mv).is_err() {
                break;
            }
        }
        game
    }

    fn go(&mut self, shown: usize) {
        self.shown = shown.min(self.record().game.moves().len());
        if self.analysing {
            self.analyse();
        }
    }

    fn analyse(&mut self) {
        let game = self.shown_game();
        if game.outcome().is_some() {
            self.worker.cancel();
            return;
        }
        self.worker
            .start(&game, SearchLimits::movetime(self.movetime));
    }

    /// Handles one key press.
    pub fn key(&mut self, key: KeyEvent) {
        if let Some(dialog) = &mut self.play_on {
            match dialog.key(key) {
                Choice::Choosing => {}
                Choice::Cancel => self.play_on = None,
                Choice::Start(opponent, _) => {
                    self.play_on = None;
                    self.start_playing_on(opponent);
                }
            }
            return;
        }
        self.notice = None;
        if std::mem::take(&mut self.help) {
            return;
        }
        // A letter with Ctrl or Alt is not that letter.
        if matches!(key.code, KeyCode::Char(_))
            && key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            return;
        }
        if key.code == KeyCode::Char('?') {
            self.help = true;
            return;
        }
        if let Some(cursor) = &mut self.cursor {
            match key.code {
                KeyCode::Up => cursor.step(Arrow::Up),
                KeyCode::Down => cursor.step(Arrow::Down),
                KeyCode::Left => cursor.step(Arrow::Left),
                KeyCode::Right => cursor.step(Arrow::Right),
                KeyCode::Esc | KeyCode::Char('x') => self.cursor = None,
                KeyCode::Char('q') => self.quit = true,
                _ => {}
            }
            return;
        }
        let last = self.record().game.moves().len();
        match key.code {
            KeyCode::Left => self.go(self.shown.saturating_sub(1)),
            KeyCode::Right => self.go(self.shown + 1),
            KeyCode::Up | KeyCode::PageUp => self.go(self.shown.saturating_sub(10)),
            KeyCode::Down | KeyCode::PageDown => self.go(self.shown + 10),
            KeyCode::Home => self.go(0),
            KeyCode::End => self.go(last),
            KeyCode::Char(']') => self.go_to_game(self.game + 1),
            KeyCode::Char('[') => self.go_to_game(self.game.saturating_sub(1)),
            KeyCode::Char('a') => {
                self.analysing = !self.analysing;
                if self.analysing {
                    self.analyse();
                } else {
                    self.worker.cancel();
                }
            }
            KeyCode::Char('x') => {
                // Start on the piece just moved, where a stack most likely needs a look.
                let game = self.shown_game();
                let cell = game
                    .moves()
                    .last()
                    .map(|mv| mv.destination())
                    .or(Cell::from_coords(8, 8));
                self.cursor = cell.map(Cursor::new);
            }
            KeyCode::Char('p') => match self.nothing_to_play_on() {
                Some(why) => self.notice = Some(why),
                None => {
                    let pos = self.shown_game().position().clone();
                    let level = self.record_level(pos.turn());
                    self.play_on = Some(NewGame::play_on(pos.variant(), pos.turn(), level));
                }
            },
            KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
            _ => {}
        }
    }

    /// Takes in the engine's news.
    pub fn tick(&mut self) {
        let (score, pv, depth, nodes) = match self.worker.poll() {
            Some(Update::Progress(i)) => (i.score, i.pv, i.depth, i.nodes),
            Some(Update::Done(r)) => {
                // A search stopped very early may name its move without a line.
                let pv = if r.pv.is_empty() {
                    r.best_move.into_iter().collect()
                } else {
                    r.pv
                };
                (r.score, pv, 0, r.nodes)
            }
            Some(Update::Failed) => {
                self.analysing = false;
                return;
            }
            None => return,
        };
        let depth = if depth == 0 {
            self.analysis
                .as_ref()
                .filter(|a| a.shown == self.shown)
                .map_or(0, |a| a.depth)
        } else {
            depth
        };
        self.analysis = Some(Analysis {
            shown: self.shown,
            score,
            pv,
            depth,
            nodes,
        });
    }

    /// The engine's analysis of the position shown, once it has one.
    fn current_analysis(&self) -> Option<&Analysis> {
        self.analysis
            .as_ref()
            .filter(|a| self.analysing && a.shown == self.shown)
    }

    /// What the board highlights in `game`, the shown part of the record.
    fn marks(&self, game: &Game) -> Marks {
        let pos = game.position();
        // The engine's best move, where it would put the piece.
        let best_move = self.current_analysis().and_then(|a| a.pv.first()).copied();
        let best = best_move
            .and_then(|mv| {
                let kind = match mv {
                    Move::Place { piece, .. } => piece,
                    Move::Shift { from, .. } => pos.piece_at(from)?.kind,
                };
                kind.footprint(mv.destination(), mv.rotation())
            })
            .map(|cells| (cells.into_iter().collect(), true));
        Marks {
            after: best_move.and_then(|mv| position_after(pos, mv)),
            cursor: self.cursor.map(|c| c.cell),
            last_move: last_move_cells(pos, game.moves().last().copied()),
            preview: best,
            chain: match game.outcome().and_then(|o| o.winner) {
                Some(winner) => pos.winning_chain(winner),
                None => Bitboard::EMPTY,
            },
            ..Marks::default()
        }
    }

    fn panel_lines(&self, game: &Game, area: Rect, scale: Scale) -> Vec<Line<'static>> {
        let pos = game.position();
        // Records from elsewhere may lack tags, or hold the `?` of PGN for unknown ones.
        let record = self.record();
        let tag = |name| record.tag(name).filter(|v| !v.is_empty() && *v != "?");
        let players = format!(
            "{} (White) – {} (Black)",
            tag("White").unwrap_or("someone"),
            tag("Black").unwrap_or("someone")
        );
        let total = record.game.moves().len();
        // A file of one game needs no word about others; that line is left empty then.
        let which = match (self.count, self.games.len()) {
            (1, _) => Line::default(),
            (count, 1) => Line::from(format!("Game {} of {count}", self.numbers[self.game])),
            (count, _) => Line::from(format!(
                "Game {} of {count} · [ ] other games",
                self.numbers[self.game]
            )),
        }
        .fg(Color::LightYellow);
        // Long names, as `punct match` gives programs, wrap; the date goes after them or, when
        // it does not fit there, on a line of its own.
        let mut about = panel::wrapped(&players, area.width);
        if let Some(date) = tag("Date") {
            match about.last_mut() {
                Some(last)
                    if last.chars().count() + 3 + date.chars().count()
                        <= usize::from(area.width) =>
                {
                    last.push_str(" · ");
                    last.push_str(date);
                }
                _ => about.push(date.to_owned()),
            }
        }
        let mut lines = vec![Line::from(format!("PÜNCT review · {}", self.title)).bold()];
        lines.extend(about.into_iter().map(Line::from));
        lines.extend([
            Line::from(match record.game.outcome() {
                Some(outcome) => format!("{} · {outcome}", pos.variant()),
                None => format!("{} · unfinished", pos.variant()),
            }),
            which,
        ]);
        lines.extend(
            self.skipped_lines(area.width)
                .into_iter()
                .map(|line| Line::from(line).fg(Color::LightRed)),
        );
        lines.extend([Line::from(match self.shown {
            0 => format!("Start position (0 of {total} moves)"),
            n => format!(
                "After move {n} of {total}: {} by {}",
                record.game.moves()[n - 1],
                !pos.turn()
            ),
        })
        .fg(Color::LightGreen)]);
        let comment = match self.shown {
            0 => record.intro.as_ref(),
            n => record.moves.get(n - 1).and_then(|m| m.comment.as_ref()),
        };
        if let Some(comment) = comment {
            // A long comment would push the position's details off the panel: its start is
            // shown, and a mark says there is more.
            let text = panel::clipped(&format!("{{{comment}}}"), area.width, COMMENT_LINES);
            lines.extend(text.into_iter().map(|line| Line::from(line).italic()));
        }
        lines.extend(panel::status(pos, game.outcome(), area.width));
        lines.extend(panel::reserves(pos));
        lines.push(Line::default());
        if self.analysing {
            let current = self.current_analysis();
            let head = match self.worker.thinking_since() {
                Some(since) => format!("Analysing {}", panel::spinner(since.elapsed())),
                None => "Analysis".to_owned(),
            };
            match current {
                Some(a) => {
                    lines.push(
                        Line::from(format!(
                            "{head} · depth {} · {} nodes",
                            a.depth,
                            panel::nodes(a.nodes)
                        ))
                        .fg(Color::LightCyan),
                    );
                    lines.extend(panel::evaluation(pos, a.score, &a.pv, area.width));
                }
                None if game.outcome().is_some() => {
                    lines.push(Line::from("Analysis: the game is over here").fg(Color::LightCyan));
                }
                None => lines.push(Line::from(head).fg(Color::LightCyan)),
            }
        } else {
            lines.push(Line::from("a: the engine's evaluation and best line").gray());
        }
        lines.push(Line::default());
        match self.cursor {
            Some(cursor) => {
                lines = panel::with_stack(lines, pos, cursor.cell, usize::from(area.height));
            }
            None => {
                let legend = panel::legend(scale, &panel::REVIEW_MARKS, !colours_unwanted());
                let mut rows = usize::from(area.height).saturating_sub(lines.len());
                if rows >= legend.len() + 1 + LEGEND_ROOM_FOR_MOVES {
                    rows -= legend.len() + 1;
                    lines.extend(legend);
                    lines.push(Line::default());
                }
                let moves = record.game.moves();
                let start = record.game.start();
                lines.extend(panel::move_list(moves, start, self.shown, rows));
            }
        }
        lines
    }
}

impl Review {
    /// The games of the file that did not read, and why, in a few lines of `width`.
    fn skipped_lines(&self, width: u16) -> Vec<String> {
        let (numbers, why): (Vec<String>, Vec<String>) = self
            .skipped
            .iter()
            .map(|(number, e)| (number.to_string(), format!("game {number}: {e}")))
            .unzip();
        let text = match numbers.as_slice() {
            [] => return Vec::new(),
            [_] => format!("Skipped {}", why.join("")),
            _ => format!(
                "Skipped games {} (damaged): {}",
                numbers.join(", "),
                why.join("; ")
            ),
        };
        panel::clipped(&text, width, SKIPPED_LINES)
    }
}

impl Screen for Review {
    fn draw(&self, frame: &mut Frame) {
        // The game played on has the whole screen: nothing of the review shows under it.
        if let Some(play) = &self.playing {
            play.draw(frame);
            return;
        }
        let Some(areas) = layout(frame.area(), 1) else {
            panel::too_small(frame);
            return;
        };
        let game = self.shown_game();
        let pos = game.position();
        let marks = self.marks(&game);
        let board = BoardView {
            position: pos,
            marks: &marks,
            scale: areas.scale,
        };
        frame.render_widget(board, areas.board);
        frame.render_widget(
            Paragraph::new(self.panel_lines(&game, areas.panel, areas.scale)),
            areas.panel,
        );
        let several = self.games.len() > 1;
        let footer = match &self.notice {
            Some(notice) => Paragraph::new(notice.as_str()).fg(Color::LightRed),
            None => Paragraph::new(self.keys()).gray(),
        };
        frame.render_widget(footer, areas.footer);
        if self.help {
            let mut help = HELP.to_vec();
            if several {
                help.insert(3, GAMES_HELP);
            }
            let legend = panel::legend(areas.scale, &panel::REVIEW_MARKS, !colours_unwanted());
            panel::help_window(frame, &help, &legend);
        }
        if let Some(dialog) = &self.play_on {
            dialog.draw(frame);
        }
    }

    fn key(&mut self, key: KeyEvent) {
        match &mut self.playing {
            Some(play) => {
                play.key(key);
                if play.is_done() {
                    self.back_from_playing_on();
                }
            }
            None => Review::key(self, key),
        }
    }

    fn tick(&mut self) {
        match &mut self.playing {
            Some(play) => play.tick(),
            None => Review::tick(self),
        }
    }

    fn is_done(&self) -> bool {
        self.quit
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn press(review: &mut Review, code: KeyCode) {
        review.key(KeyEvent::new(code, KeyModifiers::NONE));
    }

    #[test]
    fn arrows_step_and_the_engine_analyses_the_shown_position() {
        let text =
            "[Game \"PÜNCT\"]\n[Variant \"standard\"]\n\n1. TE4:0 {solid} TM12:0 2. TD6:1 *\n";
        let record = Record::parse(text).unwrap();
        let mut review =
            Review::new(vec![record], 0, "test", Duration::from_millis(20), 1).unwrap();
        assert_eq!(review.shown(), 3);
        press(&mut review, KeyCode::Right);
        assert_eq!(review.shown(), 3);
        press(&mut review, KeyCode::Left);
        press(&mut review, KeyCode::Left);
        assert_eq!(review.shown(), 1);
        let text: Vec<String> = review
            .panel_lines(
                &review.shown_game(),
                Rect::new(0, 0, 43, 30),
                Scale::Compact,
            )
            .iter()
            .map(ToString::to_string)
            .collect();
        assert!(text.contains(&"{solid}".to_owned()), "{text:?}");
        press(&mut review, KeyCode::Home);
        assert_eq!(review.shown(), 0);
        press(&mut review, KeyCode::Char('a'));
        let deadline = Instant::now() + Duration::from_secs(20);
        while review.worker.thinking_since().is_some() && Instant::now() < deadline {
            review.tick();
            std::thread::sleep(Duration::from_millis(5));
        }
        review.tick();
        let analysis = review.analysis.clone().expect("an analysis");
        assert_eq!(analysis.shown, 0);
        assert!(!analysis.pv.is_empty());
        // The best move is shown on the board where it would put the piece.
        let best = analysis.pv[0];
        let (cells, legal) = review
            .marks(&review.shown_game())
            .preview
            .expect("best move");
        assert!(legal && cells.contains(best.destination()) && cells.count() == 3);
        press(&mut review, KeyCode::Right);
        assert!(
            review.marks(&review.shown_game()).preview.is_none(),
            "stale"
        );
        press(&mut review, KeyCode::Left);
        // The stack viewer starts on the piece moved last, here none: the centre.
        press(&mut review, KeyCode::Char('x'));
        assert_eq!(review.cursor.unwrap().cell.to_string(), "I9");
        press(&mut review, KeyCode::Left);
        assert_eq!(
            review.shown(),
            0,
            "arrows move the cursor while looking at stacks"
        );
        press(&mut review, KeyCode::Esc);
        press(&mut review, KeyCode::End);
        assert_eq!(review.shown(), 3);
        press(&mut review, KeyCode::Char('x'));
        assert_eq!(
            review.cursor.unwrap().cell.to_string(),
            "D6",
            "TD6:1 was last"
        );
        press(&mut review, KeyCode::Esc);
        // Letters with Ctrl or Alt do nothing.
        review.key(KeyEvent::new(KeyCode::Char('q'), KeyModifiers::CONTROL));
        review.key(KeyEvent::new(KeyCode::Char('a'), KeyModifiers::ALT));
        assert!(!review.is_done() && review.analysing);
        // ? shows the keys; the next key only closes them.
        press(&mut review, KeyCode::Char('?'));
        assert!(review.help);
        press(&mut review, KeyCode::Char('q'));
        assert!(!review.help && !review.is_done());
        press(&mut review, KeyCode::Char('q'));
        assert!(review.is_done());
    }

    fn panel_text(review: &Review, area: Rect) -> Vec<String> {
        review
            .panel_lines(&review.shown_game(), area, Scale::Compact)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn long_comments_wrap_and_tall_stacks_fit_the_panel() {
        let moves = [
            "TE4:0", "TK5:0", "TE7:0", "EM12:3", "E7-E4:0", "TO14:0", "TE7:0", "TC10:0", "E7-E4:0",
            "TP12:0", "TE7:0", "EB7:0", "E7-E4:0",
        ];
        let mut game = Game::new(punct_core::Variant::Standard);
        for mv in moves {
            game.play(Move::parse(mv).unwrap()).unwrap();
        }
        let mut record = Record::from_game(game, "Ada", "Bob", "2026.11.22");
        record.moves[11].comment = Some("a comment that needs two lines here".to_owned());
        record.moves[12].comment = Some(
            "the fourth triangle on E4, a tower no piece of Black's can jump on, \
             and a comment far too long for the panel, which shows its start"
                .to_owned(),
        );
        let mut review =
            Review::new(vec![record], 0, "t.pgn", Duration::from_millis(1), 1).unwrap();
        let area = Rect::new(0, 0, 30, 21);
        press(&mut review, KeyCode::Left);
        let text = panel_text(&review, area);
        assert!(
            text.contains(&"{a comment that needs two".to_owned()),
            "{text:?}"
        );
        assert!(text.contains(&"lines here}".to_owned()), "{text:?}");
        press(&mut review, KeyCode::Right);
        let text = panel_text(&review, area);
        let start = text.iter().position(|l| l.starts_with('{')).unwrap();
        assert_eq!(
            text[start..start + 4],
            [
                "{the fourth triangle on E4, a",
                "tower no piece of Black's can",
                "jump on, and a comment far …",
                " Black  to move · ply 13",
            ],
            "{text:?}"
        );
        // The stack on E4, where the last move went, with its top dot in view, also when the
        // panel is too low for the whole stack.
        press(&mut review, KeyCode::Char('x'));
        let low = Rect::new(0, 0, 30, 17);
        let text = panel_text(&review, low);
        assert_eq!(text.len(), 17, "{text:?}");
        assert_eq!(
            text[14..],
            [
                "Stack on E4, bottom to top:",
                "  … 3 lower dots",
                "  4 White T PÜNCT (TE4:0)"
            ],
            "{text:?}"
        );
    }

    #[test]
    fn p_plays_on_from_the_position_shown() {
        let text = "[Variant \"basic\"]\n\n1. TE4:0 TM12:0 2. TD6:1 *\n";
        let record = Record::parse(text).unwrap();
        let mut review =
            Review::new(vec![record], 0, "r.pgn", Duration::from_millis(20), 1).unwrap();
        press(&mut review, KeyCode::Left);
        // Esc closes the dialog and the review goes on.
        press(&mut review, KeyCode::Char('p'));
        assert!(review.play_on.is_some());
        press(&mut review, KeyCode::Esc);
        assert!(review.play_on.is_none() && review.playing.is_none());
        // The computer by default, the person playing the side to move (Black here): the
        // computer waits for the person's move.
        press(&mut review, KeyCode::Char('p'));
        press(&mut review, KeyCode::Enter);
        let play = review.playing.as_ref().expect("a game");
        assert_eq!(play.game().moves().len(), 2);
        assert_eq!(play.game().position().variant(), punct_core::Variant::Basic);
        assert!(play.thinking().is_none());
        // Keys now go to the game, and q there goes back to the review as it was.
        let key = |review: &mut Review, code| {
            Screen::key(review, KeyEvent::new(code, KeyModifiers::NONE));
        };
        key(&mut review, KeyCode::Char(':'));
        assert!(review.playing.as_ref().unwrap().prompt().is_some());
        key(&mut review, KeyCode::Esc);
        key(&mut review, KeyCode::Char('q'));
        assert!(review.playing.is_none() && !Screen::is_done(&review));
        assert_eq!(review.shown(), 2);
        // A move played on makes the game unsaved: q asks once more.
        press(&mut review, KeyCode::Char('p'));
        press(&mut review, KeyCode::Left);
        press(&mut review, KeyCode::Enter);
        key(&mut review, KeyCode::Char(':'));
        for c in "TB5:0".chars() {
            key(&mut review, KeyCode::Char(c));
        }
        key(&mut review, KeyCode::Enter);
        assert_eq!(review.playing.as_ref().unwrap().game().moves().len(), 3);
        key(&mut review, KeyCode::Char('q'));
        let play = review.playing.as_ref().expect("still playing");
        assert!(matches!(
            play.message(),
            Some(crate::Message::Refusal(t)) if t.contains("q again goes back to the review")
        ));
        key(&mut review, KeyCode::Char('q'));
        assert!(review.playing.is_none());
        press(&mut review, KeyCode::Char('q'));
        assert!(Screen::is_done(&review));
    }

    #[test]
    fn playing_on_offers_the_records_computer_level() {
        let text = "[White \"Ada\"]\n[Black \"punct level 1\"]\n[Variant \"basic\"]\n\n\
                    1. TE4:0 TM12:0 2. TD6:1 *\n";
        let record = Record::parse(text).unwrap();
        let mut review =
            Review::new(vec![record], 0, "r.pgn", Duration::from_millis(20), 1).unwrap();
        // Black to move: the person plays Black, and the computer White at the record's
        // level although it played Black there.
        press(&mut review, KeyCode::Char('p'));
        press(&mut review, KeyCode::Enter);
        let play = review.playing.as_ref().unwrap();
        assert_eq!(
            play.options().opponent,
            Opponent::Computer {
                level: Level::new(1).unwrap(),
                human: Colour::Black
            }
        );
        // White to move: the computer plays Black, as in the record.
        Screen::key(
            &mut review,
            KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE),
        );
        press(&mut review, KeyCode::Left);
        press(&mut review, KeyCode::Char('p'));
        press(&mut review, KeyCode::Enter);
        assert_eq!(
            review.playing.as_ref().unwrap().options().opponent,
            Opponent::Computer {
                level: Level::new(1).unwrap(),
                human: Colour::White
            }
        );
        // No computer in the record: `punct play`'s default level.
        let text = "[White \"Ada\"]\n[Black \"Bob\"]\n\n1. TE4:0 *\n";
        let mut review = Review::new(
            vec![Record::parse(text).unwrap()],
            0,
            "r.pgn",
            Duration::from_millis(20),
            1,
        )
        .unwrap();
        press(&mut review, KeyCode::Char('p'));
        press(&mut review, KeyCode::Enter);
        assert!(matches!(
            review.playing.as_ref().unwrap().options().opponent,
            Opponent::Computer { level, .. } if level.number() == 5
        ));
    }

    #[test]
    fn a_finished_position_has_nothing_to_play_on_and_says_so() {
        let mut game = Game::new(punct_core::Variant::Basic);
        for mv in [
            "EA8:5", "TE3:0", "ED8:5", "TH3:0", "EG8:5", "TK5:0", "EJ8:5", "TL13:0", "CN8:2",
            "TH13:0", "LP8:3",
        ] {
            game.play(Move::parse(mv).unwrap()).unwrap();
        }
        assert!(game.outcome().is_some());
        let record = Record::from_game(game, "Ada", "Bob", "2026.11.22");
        let mut review =
            Review::new(vec![record], 0, "won.pgn", Duration::from_millis(20), 1).unwrap();
        assert!(!review.keys().contains("p play on"), "{}", review.keys());
        press(&mut review, KeyCode::Char('p'));
        assert!(review.play_on.is_none() && review.playing.is_none());
        let notice = review.notice.clone().expect("why not");
        assert_eq!(
            notice,
            "Nothing to play on here: White wins by connection. ← steps back"
        );
        // The next key clears it; one move back, p is offered and works.
        press(&mut review, KeyCode::Left);
        assert!(review.notice.is_none());
        assert!(review.keys().contains("p play on"), "{}", review.keys());
        press(&mut review, KeyCode::Char('p'));
        assert!(review.play_on.is_some());
    }

    #[test]
    fn skipped_games_are_named_with_why_and_numbers_stay_the_files() {
        let games = Record::parse_all("[White \"Ada\"]\n\n1. TE4:0 *\n").unwrap();
        let error = |line| punct_core::RecordError {
            line,
            message: "move 2 `TE4:0`: E4 is not free".to_owned(),
        };
        let loaded = Loaded {
            games: vec![(2, games[0].clone()), (4, games[0].clone())],
            skipped: vec![(1, error(3)), (3, error(11))],
        };
        let review = Review::of_file(loaded, 1, "d.pgn", Duration::from_millis(1), 1).unwrap();
        let text = panel_text(&review, Rect::new(0, 0, 43, 30)).join("\n");
        assert!(text.contains("Game 4 of 4 · [ ] other games"), "{text}");
        assert!(
            text.contains(
                "Skipped games 1, 3 (damaged): game 1:\nrecord line 3: move 2 `TE4:0`: E4 is not\n"
            ),
            "{text}"
        );
        let single = Loaded {
            games: vec![(1, games[0].clone())],
            skipped: vec![(2, error(7))],
        };
        let review = Review::of_file(single, 0, "d.pgn", Duration::from_millis(1), 1).unwrap();
        let text = panel_text(&review, Rect::new(0, 0, 43, 30)).join("\n");
        assert!(text.contains("Game 1 of 2\n"), "{text}");
        assert!(
            text.contains("Skipped game 2: record line 7: move 2"),
            "{text}"
        );
    }

    #[test]
    fn brackets_go_from_game_to_game_of_a_file() {
        let text = "[White \"Ada\"]\n[Variant \"basic\"]\n\n1. TE4:0 TM12:0 *\n\n\
                    [White \"Bob\"]\n[Variant \"standard\"]\n\n1. TE4:0 *\n\n\
                    [White \"Cy\"]\n[Variant \"basic\"]\n\n*\n";
        let games = Record::parse_all(text).unwrap();
        assert!(Review::new(games.clone(), 3, "m.pgn", Duration::from_millis(1), 1).is_none());
        let mut review = Review::new(games, 1, "m.pgn", Duration::from_millis(1), 1).unwrap();
        let panel = |review: &Review| -> String {
            review
                .panel_lines(
                    &review.shown_game(),
                    Rect::new(0, 0, 43, 30),
                    Scale::Compact,
                )
                .iter()
                .map(|line| format!("{line}\n"))
                .collect()
        };
        assert_eq!((review.game(), review.shown()), ((1, 3), 1));
        assert!(panel(&review).contains("Game 2 of 3 · [ ] other games"));
        assert!(panel(&review).contains("Bob (White)"));
        press(&mut review, KeyCode::Char('['));
        press(&mut review, KeyCode::Char('x'));
        press(&mut review, KeyCode::Char('['));
        // While looking at stacks the brackets do nothing; back to stepping, they go on.
        assert_eq!(review.game(), (0, 3));
        press(&mut review, KeyCode::Esc);
        press(&mut review, KeyCode::Left);
        assert_eq!(review.shown(), 1);
        press(&mut review, KeyCode::Char('['));
        assert_eq!(
            (review.game(), review.shown()),
            ((0, 3), 1),
            "no game before the first"
        );
        press(&mut review, KeyCode::Char(']'));
        press(&mut review, KeyCode::Char(']'));
        assert_eq!((review.game(), review.shown()), ((2, 3), 0));
        assert!(panel(&review).contains("Cy (White)"));
        press(&mut review, KeyCode::Char(']'));
        assert_eq!(review.game(), (2, 3));
        // Names too long for one line wrap, and the date that no longer fits after them gets
        // a line of its own.
        let long = Record::parse_all(
            "[White \"cmd:/usr/local/bin/engine --threads 4\"]\n[Black \"punct level 6\"]\n\
             [Date \"2026.11.22\"]\n\n1. TE4:0 *\n",
        )
        .unwrap();
        let long = Review::new(long, 0, "l.pgn", Duration::from_millis(1), 1).unwrap();
        assert!(
            panel(&long).contains(
                "cmd:/usr/local/bin/engine --threads 4\n(White) – punct level 6 (Black)\n2026.11.22\n"
            ),
            "{}",
            panel(&long)
        );
        // One game alone: no line about others.
        let single = Record::parse_all("[White \"Ada\"]\n\n1. TE4:0 *\n").unwrap();
        let single = Review::new(single, 0, "a.pgn", Duration::from_millis(1), 1).unwrap();
        assert!(!panel(&single).contains("other games"));
    }
}
