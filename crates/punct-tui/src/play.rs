//! A game being played: against the computer or between two people at one keyboard.
//!
//! This module holds the state and what the keys do to it; `play_view` draws it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use punct_core::geometry::CENTRE;
use punct_core::{Bitboard, Cell, Colour, Game, Move, Piece, PieceType, Position, Variant};
use punct_engine::{Level, Options, SearchInfo, SearchLimits};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::board::Marks;
use crate::cursor::{Arrow, Cursor};
use crate::new_game::{Choice, NewGame};
use crate::online::remote::api_name;
use crate::online::{Action, Note, RemoteGame};
use crate::prompt::{Edit, History, Prompt, Purpose};
use crate::record_file;
use crate::worker::{Update, Worker};

/// Who plays against whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The computer at `level`; the person plays `human`.
    Computer {
        /// The engine's strength.
        level: Level,
        /// The person's colour.
        human: Colour,
    },
    /// Two people take turns at the keyboard.
    Human,
}

/// How to set up a game.
#[derive(Clone, Copy, Debug)]
pub struct PlayOptions {
    /// Basic or standard game.
    pub variant: Variant,
    /// The other side.
    pub opponent: Opponent,
    /// How long the computer thinks per move.
    pub movetime: Duration,
    /// Seed of the engine's randomness.
    pub seed: u64,
    /// Threads the computer searches with.
    pub threads: usize,
}

/// The piece being moved or placed with the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// A piece of this type from the reserve.
    Reserve(PieceType),
    /// The piece whose PÜNCT is on this cell.
    Board(Cell),
}

/// A line for the person: news, or why something was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// Something happened.
    Info(String),
    /// Something was refused, and why.
    Refusal(String),
}

/// The state of the play screen.
pub struct Play {
    game: Game,
    options: PlayOptions,
    cursor: Cursor,
    selection: Option<Selection>,
    rotation: u8,
    prompt: Option<Prompt>,
    /// The moves typed so far, which ↑ recalls in the text field.
    typed: History,
    message: Option<Message>,
    /// Where the other side's moves come from.
    source: Source,
    progress: Option<SearchInfo>,
    /// Whether moves were made or taken back since the last save.
    unsaved: bool,
    /// Whether the last key was a `q` refused because of unsaved moves.
    quit_asked: bool,
    /// The file the game was last saved to, which saving again replaces without asking.
    saved_to: Option<PathBuf>,
    /// Another existing file that the person was asked about replacing.
    replace_asked: Option<PathBuf>,
    /// The dialog setting up a new game, while it is open.
    new_game: Option<NewGame>,
    help: bool,
    quit: bool,
    /// Whether `q` goes back to the review this game was played on from, rather than
    /// ending the program.
    returns_to_review: bool,
    /// Whether the last key was an `x` asking to confirm a resignation.
    resign_asked: bool,
}

/// Where the moves of the side not at this keyboard come from: the one seam between the
/// play screen and its opponents. The board, the keys and the panel are the same for both.
enum Source {
    /// This machine: the engine on its thread against the computer, nothing between two
    /// people at one keyboard (or after the engine failed).
    Local(Option<Worker>),
    /// A game on a server: moves go there and come from there over its WebSocket.
    Server(Box<RemoteGame>),
}

/// The cell the cursor starts on: the centre of the board.
const START_CELL: Cell = match Cell::from_coords(8, 8) {
    Some(cell) => cell,
    None => panic!("I9 exists"),
};

impl Play {
    /// A new game; the computer starts thinking at once if it has White.
    pub fn new(options: PlayOptions) -> Play {
        Play::resume(options, Game::new(options.variant), None)
    }

    /// Plays on `game`, which may come from a record or start from a set position (its
    /// variant replaces the options'); the computer starts thinking at once if it is its
    /// turn. `file` is the record file the game came from, which saving offers to replace.
    pub fn resume(options: PlayOptions, game: Game, file: Option<PathBuf>) -> Play {
        let options = PlayOptions {
            variant: game.start().variant(),
            ..options
        };
        let worker = match options.opponent {
            Opponent::Computer { level, .. } => Some(Worker::spawn(Options {
                level,
                seed: options.seed,
                threads: options.threads,
            })),
            Opponent::Human => None,
        };
        let mut play = Play {
            game,
            options,
            cursor: Cursor::new(START_CELL),
            selection: None,
            rotation: 0,
            prompt: None,
            typed: History::default(),
            message: Some(Message::Info(
                "Pick a reserve piece with T C E L M R (or p), or a piece on the board with Enter"
                    .to_owned(),
            )),
            source: Source::Local(worker),
            progress: None,
            unsaved: false,
            quit_asked: false,
            saved_to: file,
            replace_asked: None,
            new_game: None,
            help: false,
            quit: false,
            returns_to_review: false,
            resign_asked: false,
        };
        play.let_engine_move();
        play
    }

    /// Plays the server's game `remote` on this screen; `q` goes back to the list it was
    /// chosen from. The game is the server's, so nothing is unsaved: `s` still saves a copy.
    pub fn online(remote: RemoteGame, options: PlayOptions) -> Play {
        let game = remote.game().clone();
        let mut play = Play::resume(
            PlayOptions {
                opponent: Opponent::Human,
                ..options
            },
            game,
            None,
        );
        let colours = remote.colours();
        play.message = Some(Message::Info(match remote.why_not_move() {
            None => format!(
                "Your turn ({}): T C E L M R or p takes a piece, : types a move",
                play.game.position().turn()
            ),
            Some(why) if colours.is_empty() => why,
            Some(why) => format!("{why}; moves arrive as they are made"),
        }));
        play.source = Source::Server(Box::new(remote));
        play
    }

    /// Replaces the latest message.
    pub(crate) fn set_message(&mut self, message: Message) {
        self.message = Some(message);
    }

    /// The server's game, when this screen plays one.
    pub fn remote(&self) -> Option<&RemoteGame> {
        match &self.source {
            Source::Server(remote) => Some(remote),
            Source::Local(_) => None,
        }
    }

    /// The engine, when the computer plays on this machine.
    fn engine(&mut self) -> Option<&mut Worker> {
        match &mut self.source {
            Source::Local(worker) => worker.as_mut(),
            Source::Server(_) => None,
        }
    }

    /// This game played on from a review: `q` goes back to it.
    pub(crate) fn returning_to_review(self) -> Play {
        Play {
            returns_to_review: true,
            ..self
        }
    }

    /// Whether `q` goes back to a review rather than ending the program.
    pub(crate) fn returns_to_review(&self) -> bool {
        self.returns_to_review
    }

    /// What `q` does, as the messages say it.
    fn q_does(&self) -> &'static str {
        if self.remote().is_some() {
            "goes back to the list of games"
        } else if self.returns_to_review {
            "goes back to the review"
        } else {
            "quits"
        }
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The setup of the game.
    pub fn options(&self) -> &PlayOptions {
        &self.options
    }

    /// The cell under the cursor.
    pub fn cursor(&self) -> Cell {
        self.cursor.cell
    }

    /// The piece being placed or moved.
    pub fn selection(&self) -> Option<Selection> {
        self.selection
    }

    /// The rotation chosen for the selected piece.
    pub fn rotation(&self) -> u8 {
        self.rotation
    }

    /// The text field, when typing.
    pub fn prompt(&self) -> Option<&Prompt> {
        self.prompt.as_ref()
    }

    /// The latest message.
    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }

    /// How long the computer has been thinking and what it reported last, while it thinks.
    pub fn thinking(&self) -> Option<(Duration, Option<&SearchInfo>)> {
        let Source::Local(Some(worker)) = &self.source else {
            return None;
        };
        let since = worker.thinking_since()?;
        Some((since.elapsed(), self.progress.as_ref()))
    }

    /// Whether the list of keys is shown.
    pub fn shows_help(&self) -> bool {
        self.help
    }

    /// The new-game dialog, while it is open.
    pub(crate) fn new_game_dialog(&self) -> Option<&NewGame> {
        self.new_game.as_ref()
    }

    /// Whether the screen should close (and the review come back, for a game played on
    /// from one).
    pub fn is_done(&self) -> bool {
        self.quit
    }

    /// The name of the player of `colour` as people read it and records store it.
    pub fn player_name(&self, colour: Colour) -> String {
        if let Some(remote) = self.remote() {
            return remote.name(colour);
        }
        match self.options.opponent {
            Opponent::Computer { level, human } if human != colour => level.player_name(),
            Opponent::Computer { .. } => std::env::var("USER")
                .ok()
                .filter(|u| !u.is_empty())
                .unwrap_or_else(|| "you".to_owned()),
            Opponent::Human => colour.name().to_owned(),
        }
    }

    /// Whether it is the computer's turn in a game still going.
    fn engine_to_move(&self) -> bool {
        match self.options.opponent {
            Opponent::Computer { human, .. } => {
                self.game.outcome().is_none() && self.game.position().turn() != human
            }
            Opponent::Human => false,
        }
    }

    /// Starts the computer thinking if it is its turn.
    fn let_engine_move(&mut self) {
        if self.engine_to_move() {
            let (game, movetime) = (self.game.clone(), self.options.movetime);
            if let Some(worker) = self.engine() {
                worker.start(&game, SearchLimits::movetime(movetime));
                self.progress = None;
            }
        }
    }

    /// Takes in the computer's news; called regularly by the screen loop.
    pub fn tick(&mut self) {
        if let Source::Server(remote) = &mut self.source {
            let notes = remote.poll();
            self.take_remote(notes);
            return;
        }
        let Some(update) = self.engine().and_then(Worker::poll) else {
            return;
        };
        match update {
            Update::Progress(info) => self.progress = Some(info),
            Update::Failed => self.lose_the_computer("it stopped working"),
            Update::Done(result) => {
                self.progress = None;
                if !self.engine_to_move() {
                    return;
                }
                match result.best_move.map(|mv| self.game.play(mv)) {
                    Some(Ok(mv)) => self.after_move(mv),
                    Some(Err(e)) => self.lose_the_computer(&format!("it tried a bad move: {e}")),
                    None => self.lose_the_computer("it found no move"),
                }
            }
        }
    }

    /// Replaces the game with a new one against `opponent`, keeping the computer's time per
    /// move; the computer starts thinking at once if it has White.
    fn start_new_game(&mut self, opponent: Opponent, variant: Variant) {
        let options = PlayOptions {
            variant,
            opponent,
            // Another seed, so that the computer does not repeat its last game.
            seed: self.options.seed.wrapping_add(1),
            ..self.options
        };
        // The old game's engine thread is stopped and joined as the old state is dropped.
        let returns_to_review = self.returns_to_review;
        *self = Play::new(options);
        self.returns_to_review = returns_to_review;
        let who = match opponent {
            Opponent::Computer { level, human } => format!("you play {human} against {level}"),
            Opponent::Human => "two people at this keyboard".to_owned(),
        };
        self.message = Some(Message::Info(format!("New {variant} game: {who}")));
    }

    /// Goes on without the computer after a bug in the engine, rather than waiting forever
    /// for its move.
    fn lose_the_computer(&mut self, why: &str) {
        self.progress = None;
        self.source = Source::Local(None);
        self.options.opponent = Opponent::Human;
        self.refuse(format!(
            "the computer failed ({why}): you now play both sides"
        ));
    }

    /// Handles one key press.
    pub fn key(&mut self, key: KeyEvent) {
        if let Some(dialog) = &mut self.new_game {
            match dialog.key(key) {
                Choice::Choosing => {}
                Choice::Cancel => self.new_game = None,
                Choice::Start(opponent, variant) => self.start_new_game(opponent, variant),
            }
            return;
        }
        if let Some(prompt) = &mut self.prompt {
            let purpose = prompt.purpose;
            let history = match purpose {
                Purpose::Move => self.typed.entries(),
                Purpose::Save => &[],
            };
            match prompt.key(key, history) {
                Edit::Typing => {}
                Edit::Cancel => {
                    self.prompt = None;
                    self.replace_asked = None;
                }
                Edit::Submit(text) => {
                    self.prompt = None;
                    match purpose {
                        Purpose::Move => {
                            self.typed.add(&text);
                            self.play_text(&text);
                        }
                        Purpose::Save => {
                            let home = std::env::var_os("HOME").map(PathBuf::from);
                            self.save(&expand_home(&text, home.as_deref()));
                        }
                    }
                }
            }
            return;
        }
        let quit_asked = std::mem::take(&mut self.quit_asked);
        let resign_asked = std::mem::take(&mut self.resign_asked);
        if std::mem::take(&mut self.help) {
            return;
        }
        // A letter with Ctrl or Alt is not that letter: Ctrl-U, which clears the text field,
        // pressed once the field has closed must not take moves back.
        if let KeyCode::Char(c) = key.code
            && key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            let held = if key.modifiers.contains(KeyModifiers::CONTROL) {
                "Ctrl"
            } else {
                "Alt"
            };
            let c = c.to_ascii_uppercase();
            self.refuse(format!("{held}-{c} does nothing here (? lists the keys)"));
            return;
        }
        if self.remote().is_some() && self.online_key(key.code, resign_asked) {
            return;
        }
        match key.code {
            KeyCode::Up => self.cursor.step(Arrow::Up),
            KeyCode::Down => self.cursor.step(Arrow::Down),
            KeyCode::Left => self.cursor.step(Arrow::Left),
            KeyCode::Right => self.cursor.step(Arrow::Right),
            KeyCode::Enter | KeyCode::Char(' ') => self.pick(),
            KeyCode::Esc => {
                self.selection = None;
                self.message = None;
            }
            KeyCode::Char('r' | ']') => self.rotate(1),
            KeyCode::Char('[') => self.rotate(5),
            KeyCode::Char('p') => self.cycle_reserve(),
            KeyCode::Char(':' | '/') => self.prompt = Some(Prompt::new(Purpose::Move, "")),
            KeyCode::Char('u') | KeyCode::Backspace => self.take_back(),
            KeyCode::Char('s') => {
                let name = match &self.saved_to {
                    Some(path) => path.display().to_string(),
                    None => record_file::default_name(),
                };
                self.prompt = Some(Prompt::new(Purpose::Save, &name));
            }
            KeyCode::Char('q') if self.unsaved && !quit_asked => {
                self.quit_asked = true;
                let q = self.q_does();
                self.refuse(format!("the game is not saved: q again {q}, s saves"));
            }
            KeyCode::Char('q') => self.quit = true,
            KeyCode::Char('n') => {
                let dialog =
                    NewGame::new(self.options.opponent, self.options.variant, self.unsaved);
                self.new_game = Some(dialog);
            }
            KeyCode::Char('?') => self.help = true,
            KeyCode::Char(c) => match PieceType::from_letter(c) {
                Some(t) => self.select_reserve(t),
                None if PieceType::from_letter(c.to_ascii_uppercase()).is_some() => self.refuse(
                    "reserve pieces are taken with capitals: T C E L M R (r turns the piece)"
                        .to_owned(),
                ),
                None => self.refuse(format!(
                    "the key `{c}` does nothing here (? lists the keys)"
                )),
            },
            _ => {}
        }
    }

    /// The keys of a game on a server that differ from a local game's; whether `code` was
    /// one of them. `resign_asked` says the key before was an `x`.
    fn online_key(&mut self, code: KeyCode, resign_asked: bool) -> bool {
        let Source::Server(remote) = &mut self.source else {
            return false;
        };
        let over = remote.game().outcome().is_some();
        let offered = remote.state().draw_offer.clone();
        let requested = remote.state().takeback_request.clone();
        let ours: Vec<&str> = remote.colours().into_iter().map(api_name).collect();
        let by_other = |side: &Option<String>| side.as_deref().is_some_and(|s| !ours.contains(&s));
        let (action, done) = match code {
            KeyCode::Char('q') => {
                self.quit = true;
                return true;
            }
            KeyCode::Char('n') => {
                self.refuse("new games are made in the list of games: q goes back to it".into());
                return true;
            }
            _ if over && matches!(code, KeyCode::Char('d' | 'x' | 'u') | KeyCode::Backspace) => {
                self.refuse("the game is over: q goes back to the list of games".into());
                return true;
            }
            KeyCode::Char('d') if by_other(&offered) => (Action::OfferDraw, "draw accepted"),
            KeyCode::Char('d') => (Action::OfferDraw, "draw offered"),
            KeyCode::Char('x') if resign_asked => (Action::Resign, "resigned"),
            KeyCode::Char('x') => {
                self.resign_asked = true;
                self.refuse("resign this game? x again resigns, any other key does not".into());
                return true;
            }
            KeyCode::Char('u') | KeyCode::Backspace if by_other(&requested) => {
                (Action::Takeback, "takeback granted")
            }
            KeyCode::Char('u') | KeyCode::Backspace => {
                (Action::Takeback, "asked to take your last move back")
            }
            _ => return false,
        };
        self.message = Some(match remote.act(action) {
            Ok(()) => Message::Info(done.to_owned()),
            Err(why) => Message::Refusal(why),
        });
        true
    }

    /// Takes in the news of the server's game: its moves, endings, refusals and the
    /// connection's ups and downs.
    fn take_remote(&mut self, notes: Vec<Note>) {
        let Source::Server(remote) = &self.source else {
            return;
        };
        let shown = remote.game();
        if shown.moves() != self.game.moves() || shown.outcome() != self.game.outcome() {
            self.game = shown.clone();
            if remote.pending().is_none() {
                self.selection = None;
            }
        }
        if let Some(note) = notes.into_iter().last() {
            self.message = Some(match note {
                Note::Info(text) => Message::Info(text),
                Note::Refusal(text) => Message::Refusal(text),
            });
        }
    }

    /// Whether the person may move now; says why not otherwise.
    fn may_move(&mut self) -> bool {
        if let Some(why) = self.remote().and_then(RemoteGame::why_not_move)
            && self.game.outcome().is_none()
        {
            self.refuse(why);
            return false;
        }
        if let Some(outcome) = self.game.outcome() {
            let q = self.q_does();
            self.refuse(format!(
                "the game is over: {outcome}. u takes back, s saves, n starts another, q {q}"
            ));
            false
        } else if self.engine_to_move() {
            self.refuse("wait: it is the computer's turn (u takes your move back)".to_owned());
            false
        } else {
            true
        }
    }

    fn refuse(&mut self, text: String) {
        self.message = Some(Message::Refusal(text));
    }

    /// Enter: picks up the piece under the cursor, or sets the selected piece down there.
    fn pick(&mut self) {
        if !self.may_move() {
            return;
        }
        if let Some(mv) = self.candidate() {
            if self.puts_back(mv) {
                self.selection = None;
                self.message = Some(Message::Info("put back".to_owned()));
                return;
            }
            // Enter on another of one's own pieces, where the piece in hand cannot go, means
            // taking that piece instead.
            let other = self.own_piece_at_cursor().filter(|p| {
                self.selection != Some(Selection::Board(p.at))
                    && self.game.position().check(mv).is_err()
            });
            if other.is_none() {
                self.play_move(mv);
                return;
            }
        }
        let pos = self.game.position();
        let cell = self.cursor.cell;
        match pos.top(cell).map(|dot| dot.piece) {
            None => self.refuse(format!(
                "there is no piece on {cell}: take a reserve piece with T C E L M R or p"
            )),
            Some(piece) if piece.colour != pos.turn() => {
                self.refuse(format!("the piece on {cell} is {}'s", piece.colour));
            }
            Some(piece) if !pos.movable().contains(piece.at) => self.refuse(format!(
                "the {} on {} cannot move: another piece lies above it",
                piece.kind, piece.at
            )),
            Some(piece) => {
                self.selection = Some(Selection::Board(piece.at));
                self.rotation = piece.rotation;
                // The cursor stands for the PÜNCT, so it starts where the PÜNCT is.
                self.cursor.jump(piece.at);
                self.message = Some(Message::Info(format!(
                    "{} on {} picked up: move the cursor, r turns it, Enter sets it down",
                    piece.kind, piece.at
                )));
            }
        }
    }

    /// Whether `mv` would set the piece in hand down unturned where it was picked up.
    fn puts_back(&self, mv: Move) -> bool {
        self.game
            .position()
            .piece_at(self.cursor.cell)
            .is_some_and(|p| {
                self.selection == Some(Selection::Board(p.at)) && p.rotation == mv.rotation()
            })
    }

    /// The mover's piece whose top dot is under the cursor.
    fn own_piece_at_cursor(&self) -> Option<Piece> {
        let pos = self.game.position();
        let piece = pos.top(self.cursor.cell)?.piece;
        (piece.colour == pos.turn()).then_some(piece)
    }

    fn select_reserve(&mut self, t: PieceType) {
        if !self.may_move() {
            return;
        }
        let pos = self.game.position();
        if pos.reserve(pos.turn()).get(t) == 0 {
            self.refuse(format!("{} has no {t} piece left to place", pos.turn()));
            return;
        }
        self.selection = Some(Selection::Reserve(t));
        self.rotation = 0;
        // Placements never touch the central hexagon in the standard game: leave it.
        if CENTRE.contains(self.cursor.cell) {
            self.cursor
                .jump(Cell::from_coords(4, 5).unwrap_or(START_CELL));
        }
        self.message = Some(Message::Info(format!(
            "{t} from the reserve: move the cursor, r rotates, Enter places it"
        )));
    }

    /// Selects the next type left in the mover's reserve.
    fn cycle_reserve(&mut self) {
        let pos = self.game.position();
        let reserve = pos.reserve(pos.turn());
        let start = match self.selection {
            Some(Selection::Reserve(t)) => t.index() + 1,
            _ => 0,
        };
        let next = (0..6)
            .map(|k| PieceType::ALL[(start + k) % 6])
            .find(|&t| reserve.get(t) > 0);
        match next {
            Some(t) => self.select_reserve(t),
            None => self.refuse(format!("{} has no piece left to place", pos.turn())),
        }
    }

    fn rotate(&mut self, by: u8) {
        let Some(kind) = self.selected_type() else {
            self.refuse("pick a piece first, then r turns it".to_owned());
            return;
        };
        self.rotation = kind.normalize(self.rotation + by);
    }

    /// The type of the selected piece.
    pub fn selected_type(&self) -> Option<PieceType> {
        match self.selection? {
            Selection::Reserve(t) => Some(t),
            Selection::Board(cell) => self.game.position().piece_at(cell).map(|p| p.kind),
        }
    }

    /// The move the selection would make with its PÜNCT on the cursor.
    pub fn candidate(&self) -> Option<Move> {
        let to = self.cursor.cell;
        Some(match self.selection? {
            Selection::Reserve(t) => Move::place(t, to, self.rotation),
            Selection::Board(from) => Move::shift(self.selected_type()?, from, to, self.rotation),
        })
    }

    /// The legal moves of the selected piece, in any rotation.
    fn selected_moves(&self) -> Vec<Move> {
        let Some(selection) = self.selection else {
            return Vec::new();
        };
        self.game
            .position()
            .legal_moves()
            .into_iter()
            .filter(|&mv| match (selection, mv) {
                (Selection::Reserve(t), Move::Place { piece, .. }) => piece == t,
                (Selection::Board(f), Move::Shift { from, .. }) => from == f,
                _ => false,
            })
            .collect()
    }

    /// Where the selected piece's PÜNCT may go in the chosen rotation, and how many moves
    /// it has in the other rotations.
    pub fn targets(&self) -> (Bitboard, usize) {
        let Some(kind) = self.selected_type() else {
            return (Bitboard::EMPTY, 0);
        };
        let rotation = kind.normalize(self.rotation);
        let (here, other): (Vec<Move>, Vec<Move>) = self
            .selected_moves()
            .into_iter()
            .partition(|mv| mv.rotation() == rotation);
        (
            here.into_iter().map(Move::destination).collect(),
            other.len(),
        )
    }

    /// The move the piece in hand would make at the cursor, and why it is illegal if it is.
    pub fn verdict(&self) -> Option<(Move, Result<(), String>)> {
        let mv = self.candidate()?;
        let check = self.game.position().check(mv);
        Some((mv, check.map(|_| ()).map_err(|e| e.to_string())))
    }

    /// What the board should highlight.
    pub fn marks(&self) -> Marks {
        let pos = self.game.position();
        let (targets, _) = self.targets();
        let preview = self.verdict().map(|(_, verdict)| {
            let at = self.cursor.cell;
            // A piece reaching off the board shows only its PÜNCT.
            let cells = self
                .selected_type()
                .and_then(|kind| kind.footprint(at, self.rotation))
                .map_or(Bitboard::from_cell(at), |cells| cells.into_iter().collect());
            (cells, verdict.is_ok())
        });
        let origin = match self.selection {
            Some(Selection::Board(at)) => piece_cells(pos, at),
            _ => Bitboard::EMPTY,
        };
        let after = self
            .verdict()
            .filter(|(_, verdict)| verdict.is_ok())
            .and_then(|(mv, _)| position_after(pos, mv));
        Marks {
            cursor: Some(self.cursor.cell),
            last_move: last_move_cells(pos, self.game.moves().last().copied()),
            origin,
            targets,
            preview,
            after,
            chain: match self.game.outcome().and_then(|o| o.winner) {
                Some(winner) => pos.winning_chain(winner),
                None => Bitboard::EMPTY,
            },
        }
    }

    fn play_text(&mut self, text: &str) {
        if !self.may_move() {
            return;
        }
        // Move text is capitals only, so lower case can only mean the same move.
        match Move::parse(&text.to_ascii_uppercase()) {
            Ok(mv) => self.play_move(mv),
            Err(e) => self.refuse(e.to_string()),
        }
    }

    fn play_move(&mut self, mv: Move) {
        if let Source::Server(remote) = &mut self.source {
            match remote.play(mv) {
                Ok(note) => {
                    self.game = remote.game().clone();
                    self.selection = None;
                    self.take_remote(vec![note]);
                }
                Err(why) => self.refuse(why),
            }
            return;
        }
        match self.game.play(mv) {
            Ok(mv) => {
                self.after_move(mv);
                self.let_engine_move();
            }
            Err(e) => self.refuse(e.to_string()),
        }
    }

    fn after_move(&mut self, mv: Move) {
        self.unsaved = true;
        let mover = !self.game.position().turn();
        self.selection = None;
        self.message = Some(Message::Info(match self.game.outcome() {
            Some(outcome) => format!("{mover} played {mv}. Game over: {outcome} (n: a new game)"),
            None => format!("{mover} played {mv}"),
        }));
    }

    /// Takes back the person's last move (and the computer's answer to it).
    fn take_back(&mut self) {
        let keep = match self.options.opponent {
            Opponent::Human => self.game.moves().len().checked_sub(1),
            Opponent::Computer { human, .. } => {
                let first = self.game.start().turn();
                (0..self.game.moves().len())
                    .rev()
                    .find(|i| (if i % 2 == 0 { first } else { !first }) == human)
            }
        };
        let Some(keep) = keep else {
            self.refuse("there is no move of yours to take back".to_owned());
            return;
        };
        if let Some(worker) = self.engine() {
            worker.cancel();
        }
        self.progress = None;
        let mut undone = Vec::new();
        while self.game.moves().len() > keep {
            undone.extend(self.game.undo());
        }
        self.selection = None;
        self.unsaved = true;
        let list: Vec<String> = undone.iter().rev().map(Move::to_string).collect();
        self.message = Some(Message::Info(format!("took back {}", list.join(" "))));
        self.let_engine_move();
    }

    fn save(&mut self, path: &Path) {
        if path.as_os_str().is_empty() {
            self.refuse("no file name given: nothing saved".to_owned());
            return;
        }
        if path.is_dir() {
            let file = path.join(record_file::default_name());
            self.prompt = Some(Prompt::new(Purpose::Save, &file.display().to_string()));
            self.refuse(format!(
                "{} is a folder: Enter saves in it under the name shown",
                path.display()
            ));
            return;
        }
        let known = [&self.saved_to, &self.replace_asked].contains(&&Some(path.to_owned()));
        if path.exists() && !known {
            self.replace_asked = Some(path.to_owned());
            self.prompt = Some(Prompt::new(Purpose::Save, &path.display().to_string()));
            self.refuse(format!(
                "{} already exists: Enter replaces it, Esc keeps it",
                path.display()
            ));
            return;
        }
        let white = self.player_name(Colour::White);
        let black = self.player_name(Colour::Black);
        self.message = Some(match record_file::save(path, &self.game, &white, &black) {
            Ok(()) => {
                self.unsaved = false;
                self.saved_to = Some(path.to_owned());
                self.replace_asked = None;
                Message::Info(format!("saved to {}", path.display()))
            }
            Err(e) => {
                // The name stays in the field, to be corrected rather than typed again.
                self.prompt = Some(Prompt::new(Purpose::Save, &path.display().to_string()));
                Message::Refusal(format!("{e:#}"))
            }
        });
    }
}

/// The path typed as `text`, with a leading `~` meaning the home folder `home`, as in a shell.
fn expand_home(text: &str, home: Option<&Path>) -> PathBuf {
    match (text.strip_prefix('~'), home) {
        (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with('/') => {
            home.join(rest.trim_start_matches('/'))
        }
        _ => PathBuf::from(text),
    }
}

/// The position after `mv`, when it is legal in `pos`.
pub fn position_after(pos: &Position, mv: Move) -> Option<Position> {
    let mut after = pos.clone();
    after.play(mv).ok().map(|_| after)
}

/// The cells of the piece that `last` moved or placed to reach `pos`.
pub fn last_move_cells(pos: &Position, last: Option<Move>) -> Bitboard {
    last.map_or(Bitboard::EMPTY, |mv| piece_cells(pos, mv.destination()))
}

/// The cells of the top piece whose PÜNCT is on `at`.
pub fn piece_cells(pos: &Position, at: Cell) -> Bitboard {
    pos.piece_at(at)
        .and_then(|piece| piece.cells())
        .map_or(Bitboard::EMPTY, |cells| cells.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn press(play: &mut Play, code: KeyCode) {
        play.key(KeyEvent::new(code, KeyModifiers::NONE));
    }

    fn typed(play: &mut Play, text: &str) {
        for c in text.chars() {
            press(play, KeyCode::Char(c));
        }
    }

    fn two_people() -> Play {
        Play::new(PlayOptions {
            variant: Variant::Standard,
            opponent: Opponent::Human,
            movetime: Duration::from_millis(20),
            seed: 1,
            threads: 1,
        })
    }

    fn refusal(play: &Play) -> String {
        match play.message() {
            Some(Message::Refusal(text)) => text.clone(),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn a_reserve_piece_is_placed_with_the_cursor_and_rotation() {
        let mut play = two_people();
        press(&mut play, KeyCode::Char('T'));
        assert_eq!(play.selection(), Some(Selection::Reserve(PieceType::T)));
        // The cursor leaves the central hexagon for E6.
        assert_eq!(play.cursor().to_string(), "E6");
        assert!(play.targets().0.contains(play.cursor()));
        press(&mut play, KeyCode::Char('r'));
        press(&mut play, KeyCode::Left);
        assert_eq!(play.candidate().unwrap().to_string(), "TD6:1");
        press(&mut play, KeyCode::Enter);
        assert_eq!(play.game().moves()[0].to_string(), "TD6:1");
        assert_eq!(play.selection(), None);
    }

    #[test]
    fn illegal_input_is_refused_with_the_reason() {
        let mut play = two_people();
        press(&mut play, KeyCode::Char('T'));
        play.cursor.jump(Cell::parse("I9").unwrap());
        assert!(play.marks().preview.is_some_and(|(_, legal)| !legal));
        press(&mut play, KeyCode::Enter);
        assert!(
            refusal(&play).contains("central hexagon"),
            "{}",
            refusal(&play)
        );
        press(&mut play, KeyCode::Char(':'));
        typed(&mut play, "TZ4:0");
        press(&mut play, KeyCode::Enter);
        assert!(refusal(&play).contains("malformed move"));
        press(&mut play, KeyCode::Esc);
        press(&mut play, KeyCode::Enter);
        assert!(refusal(&play).contains("there is no piece on I9"));
        press(&mut play, KeyCode::Char('x'));
        assert!(refusal(&play).contains("does nothing"));
        press(&mut play, KeyCode::Char('t'));
        assert!(refusal(&play).contains("capitals"));
        assert!(play.game().moves().is_empty());
    }

    #[test]
    fn typed_moves_take_any_case_and_come_back_with_up() {
        let mut play = two_people();
        press(&mut play, KeyCode::Char(':'));
        typed(&mut play, "te4:0");
        press(&mut play, KeyCode::Enter);
        assert_eq!(play.game().moves()[0].to_string(), "TE4:0");
        // ↑ recalls it; edited (the 4 becomes 12, the `te` becomes `TM`) it is Black's move.
        press(&mut play, KeyCode::Char(':'));
        press(&mut play, KeyCode::Up);
        assert_eq!(play.prompt().unwrap().text, "te4:0");
        for key in [KeyCode::Left, KeyCode::Left, KeyCode::Backspace] {
            press(&mut play, key);
        }
        typed(&mut play, "12");
        press(&mut play, KeyCode::Home);
        press(&mut play, KeyCode::Delete);
        press(&mut play, KeyCode::Delete);
        typed(&mut play, "TM");
        press(&mut play, KeyCode::Enter);
        assert_eq!(play.game().moves()[1].to_string(), "TM12:0");
        press(&mut play, KeyCode::Char(':'));
        press(&mut play, KeyCode::Up);
        assert_eq!(play.prompt().unwrap().text, "TM12:0");
        press(&mut play, KeyCode::Up);
        assert_eq!(play.prompt().unwrap().text, "te4:0");
    }

    /// A server's correspondence game between Ada (White, us) and Bo, `moves` played.
    fn server_state(seq: u64, moves: &[&str]) -> String {
        let moves: Vec<String> = moves.iter().map(|m| format!("\"{m}\"")).collect();
        format!(
            r#"{{"id":"g1","seq":{seq},"mode":"friend","start":"standard w 0 -","moves":[{}],
            "seats":{{"white":{{"name":"Ada","computer":null}},"black":{{"name":"Bo","computer":null}}}},
            "clock":{{"white_ms":259200000,"black_ms":259200000,"running":null,"days_per_move":3}},
            "draw_offer":null,"takeback_request":null,"outcome":null,"you":["white"]}}"#,
            moves.join(",")
        )
    }

    fn online(moves: &[&str]) -> Play {
        let state = serde_json::from_str(&server_state(2, moves)).unwrap();
        Play::online(RemoteGame::detached(state).unwrap(), two_people().options)
    }

    fn from_server(play: &mut Play, text: &str) {
        let Source::Server(remote) = &mut play.source else {
            panic!("not a server's game");
        };
        let notes = remote.receive(text);
        play.take_remote(notes);
    }

    #[test]
    fn a_servers_game_is_played_on_the_same_screen_its_moves_coming_from_the_server() {
        let mut play = online(&[]);
        assert_eq!(play.player_name(Colour::Black), "Bo");
        press(&mut play, KeyCode::Char(':'));
        typed(&mut play, "TE4:0");
        press(&mut play, KeyCode::Enter);
        assert_eq!(play.game().moves().len(), 1, "shown at once");
        assert!(matches!(play.message(), Some(Message::Info(t)) if t.contains("sending")));
        // While the move is on its way, and then on Bo's turn, the board refuses.
        press(&mut play, KeyCode::Char('T'));
        assert!(refusal(&play).contains("on its way"), "{}", refusal(&play));
        let state = |seq, moves: &[&str]| {
            format!(
                r#"{{"type":"event","seq":{seq},"event":"move","state":{}}}"#,
                server_state(seq, moves)
            )
        };
        from_server(&mut play, &state(3, &["TE4:0"]));
        press(&mut play, KeyCode::Char('T'));
        assert!(refusal(&play).contains("Bo's turn"), "{}", refusal(&play));
        from_server(&mut play, &state(4, &["TE4:0", "TM12:0"]));
        assert_eq!(play.game().moves().len(), 2);
        assert!(matches!(play.message(), Some(Message::Info(t)) if t == "Bo played TM12:0"));
        // The server's game has its own keys: x asks before resigning, n is for the list,
        // and q goes back to the list at once (nothing to save).
        press(&mut play, KeyCode::Char('d'));
        assert!(matches!(play.message(), Some(Message::Info(t)) if t == "draw offered"));
        press(&mut play, KeyCode::Char('x'));
        assert!(refusal(&play).contains("x again resigns"));
        press(&mut play, KeyCode::Esc);
        press(&mut play, KeyCode::Char('n'));
        assert!(refusal(&play).contains("list of games"));
        assert!(play.new_game_dialog().is_none());
        // A message that does not read is named, and the game stays as it was.
        from_server(&mut play, "{\"type\":\"state\"");
        assert!(refusal(&play).contains("does not understand"));
        assert_eq!(play.game().moves().len(), 2);
        press(&mut play, KeyCode::Char('q'));
        assert!(play.is_done());
    }

    #[test]
    fn a_game_resumed_from_a_file_saves_back_to_it() {
        let mut game = Game::new(Variant::Basic);
        game.play(Move::parse("TE4:0").unwrap()).unwrap();
        let file = PathBuf::from("/somewhere/game.pgn");
        let mut play = Play::resume(
            PlayOptions {
                variant: Variant::Standard,
                ..two_people().options
            },
            game,
            Some(file.clone()),
        );
        assert_eq!(play.options().variant, Variant::Basic);
        assert_eq!(play.game().moves().len(), 1);
        press(&mut play, KeyCode::Char('s'));
        assert_eq!(play.prompt().unwrap().text, file.display().to_string());
        press(&mut play, KeyCode::Esc);
        // Nothing new since the file: q quits at once.
        press(&mut play, KeyCode::Char('q'));
        assert!(play.is_done());
    }

    #[test]
    fn letters_with_ctrl_or_alt_are_not_commands() {
        let mut play = two_people();
        for text in ["TE4:0", "TM12:0"] {
            press(&mut play, KeyCode::Char(':'));
            typed(&mut play, text);
            press(&mut play, KeyCode::Enter);
        }
        play.key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
        assert_eq!(
            refusal(&play),
            "Ctrl-U does nothing here (? lists the keys)"
        );
        play.key(KeyEvent::new(KeyCode::Char('q'), KeyModifiers::ALT));
        play.key(KeyEvent::new(KeyCode::Char('n'), KeyModifiers::CONTROL));
        play.key(KeyEvent::new(
            KeyCode::Char('T'),
            KeyModifiers::CONTROL | KeyModifiers::SHIFT,
        ));
        assert_eq!(play.game().moves().len(), 2);
        assert!(!play.is_done() && play.new_game_dialog().is_none());
        assert_eq!(play.selection(), None);
        // Shift is how capitals come, and still takes a reserve piece.
        play.key(KeyEvent::new(KeyCode::Char('T'), KeyModifiers::SHIFT));
        assert_eq!(play.selection(), Some(Selection::Reserve(PieceType::T)));
    }

    #[test]
    fn a_board_piece_is_picked_up_and_moved() {
        let mut play = two_people();
        for text in ["TE4:0", "TM12:0"] {
            press(&mut play, KeyCode::Char(':'));
            typed(&mut play, text);
            press(&mut play, KeyCode::Enter);
        }
        assert_eq!(play.game().moves().len(), 2);
        play.cursor.jump(Cell::parse("M12").unwrap());
        press(&mut play, KeyCode::Enter);
        assert!(refusal(&play).contains("Black's"));
        play.cursor.jump(Cell::parse("E4").unwrap());
        press(&mut play, KeyCode::Enter);
        assert_eq!(
            play.selection(),
            Some(Selection::Board(Cell::parse("E4").unwrap()))
        );
        press(&mut play, KeyCode::Enter);
        assert_eq!(play.selection(), None, "set down where it was: put back");
        press(&mut play, KeyCode::Enter);
        press(&mut play, KeyCode::Up);
        press(&mut play, KeyCode::Enter);
        let last = play.game().moves().last().unwrap().to_string();
        assert!(last.starts_with("E4-"), "{last}");
        // Two people: one move back at a time.
        press(&mut play, KeyCode::Char('u'));
        assert_eq!(play.game().moves().len(), 2);
        // Quitting an unsaved game asks for a second q.
        press(&mut play, KeyCode::Char('q'));
        assert!(!play.is_done() && refusal(&play).contains("not saved"));
        press(&mut play, KeyCode::Char('?'));
        assert!(play.shows_help());
        press(&mut play, KeyCode::Char('q'));
        assert!(!play.shows_help() && !play.is_done());
        press(&mut play, KeyCode::Char('q'));
        press(&mut play, KeyCode::Char('q'));
        assert!(play.is_done());
    }

    #[test]
    fn the_piece_in_hand_says_what_enter_would_do_and_can_be_swapped() {
        let mut play = two_people();
        for text in ["TE4:0", "TM12:0", "TE7:0", "TE10:0"] {
            press(&mut play, KeyCode::Char(':'));
            typed(&mut play, text);
            press(&mut play, KeyCode::Enter);
        }
        // A reserve E at the bottom edge, pointing off the board: only its PÜNCT is shown,
        // in red, with the reason.
        press(&mut play, KeyCode::Char('E'));
        play.cursor.jump(Cell::parse("E1").unwrap());
        let (mv, verdict) = play.verdict().unwrap();
        assert_eq!(mv.to_string(), "EE1:0");
        assert!(verdict.unwrap_err().contains("off the board"));
        let (cells, legal) = play.marks().preview.unwrap();
        assert!(!legal && cells == Bitboard::from_cell(Cell::parse("E1").unwrap()));
        // Enter on White's own triangle, where the E cannot be placed: that triangle is
        // taken instead, by its minor dot D6, and the cursor goes to its PÜNCT.
        play.cursor.jump(Cell::parse("D6").unwrap());
        press(&mut play, KeyCode::Enter);
        assert_eq!(
            play.selection(),
            Some(Selection::Board(Cell::parse("E7").unwrap()))
        );
        assert_eq!(play.cursor().to_string(), "E7");
        assert_eq!(play.marks().origin.count(), 3);
        // Turned on the spot it is legal; the other rotations' moves are counted apart.
        press(&mut play, KeyCode::Char('r'));
        let (mv, verdict) = play.verdict().unwrap();
        assert_eq!((mv.to_string(), verdict), ("E7-E7:1".to_owned(), Ok(())));
        let (here, other) = play.targets();
        assert!(here.contains(play.cursor()) && other > 0);
        // Black's triangle up column E cannot be jumped on with the PÜNCT: the reason is
        // shown before Enter.
        play.rotation = 0;
        play.cursor.jump(Cell::parse("E10").unwrap());
        let (_, verdict) = play.verdict().unwrap();
        assert!(verdict.unwrap_err().contains("own colour"));
        press(&mut play, KeyCode::Enter);
        assert!(refusal(&play).contains("own colour"));
        assert_eq!(play.game().moves().len(), 4);
    }

    #[test]
    fn against_the_computer_it_answers_and_takeback_undoes_both_moves() {
        let mut play = Play::new(PlayOptions {
            variant: Variant::Basic,
            opponent: Opponent::Computer {
                level: Level::new(1).unwrap(),
                human: Colour::Black,
            },
            movetime: Duration::from_millis(20),
            seed: 7,
            threads: 1,
        });
        let wait = |play: &mut Play| {
            let deadline = Instant::now() + Duration::from_secs(20);
            while play.thinking().is_some() && Instant::now() < deadline {
                play.tick();
                std::thread::sleep(Duration::from_millis(5));
            }
        };
        wait(&mut play);
        assert_eq!(play.game().moves().len(), 1);
        press(&mut play, KeyCode::Char('u'));
        assert!(refusal(&play).contains("no move of yours"));
        let mv = play.game().position().legal_moves()[0];
        press(&mut play, KeyCode::Char(':'));
        typed(&mut play, &mv.to_string());
        press(&mut play, KeyCode::Enter);
        assert!(play.thinking().is_some());
        // While it thinks the board refuses moves, and takeback cancels the search.
        press(&mut play, KeyCode::Char('T'));
        assert!(refusal(&play).contains("computer's turn"));
        press(&mut play, KeyCode::Char('u'));
        assert_eq!(play.game().moves().len(), 1);
        assert!(play.thinking().is_none());
        press(&mut play, KeyCode::Char(':'));
        typed(&mut play, &mv.to_string());
        press(&mut play, KeyCode::Enter);
        wait(&mut play);
        assert_eq!(play.game().moves().len(), 3);
        press(&mut play, KeyCode::Char('u'));
        assert_eq!(play.game().moves().len(), 1);
        assert_eq!(play.player_name(Colour::White), "punct level 1");
    }

    #[test]
    fn n_sets_up_a_new_game_in_a_dialog() {
        let mut play = two_people();
        press(&mut play, KeyCode::Char(':'));
        typed(&mut play, "TE4:0");
        press(&mut play, KeyCode::Enter);
        // Esc closes the dialog and the game goes on.
        press(&mut play, KeyCode::Char('n'));
        assert!(play.new_game_dialog().is_some());
        press(&mut play, KeyCode::Esc);
        assert!(play.new_game_dialog().is_none());
        assert_eq!(play.game().moves().len(), 1);
        // Against the computer at level 1, as Black, in the basic game: it starts at once.
        press(&mut play, KeyCode::Char('n'));
        for key in [
            KeyCode::Right,
            KeyCode::Char('1'),
            KeyCode::Down,
            KeyCode::Right,
        ] {
            press(&mut play, key);
        }
        press(&mut play, KeyCode::Down);
        press(&mut play, KeyCode::Left);
        press(&mut play, KeyCode::Enter);
        assert!(play.new_game_dialog().is_none());
        assert_eq!(
            play.options().opponent,
            Opponent::Computer {
                level: Level::new(1).unwrap(),
                human: Colour::Black
            }
        );
        assert_eq!(play.game().position().variant(), Variant::Basic);
        assert!(play.game().moves().is_empty() && play.thinking().is_some());
        assert_eq!(play.player_name(Colour::White), "punct level 1");
        // The dialog starts from this game's setup; back to two people, same variant.
        press(&mut play, KeyCode::Char('n'));
        press(&mut play, KeyCode::Left);
        press(&mut play, KeyCode::Enter);
        assert_eq!(play.options().opponent, Opponent::Human);
        assert_eq!(play.game().position().variant(), Variant::Basic);
        assert!(play.thinking().is_none());
    }

    #[test]
    fn saving_writes_a_record_and_bad_paths_are_refused() {
        let mut play = two_people();
        press(&mut play, KeyCode::Char(':'));
        typed(&mut play, "TE4:0");
        press(&mut play, KeyCode::Enter);
        press(&mut play, KeyCode::Char('s'));
        assert_eq!(play.prompt().unwrap().purpose, Purpose::Save);
        let path = std::env::temp_dir().join(format!("punct-play-{}.pgn", std::process::id()));
        play.key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
        typed(&mut play, path.to_str().unwrap());
        press(&mut play, KeyCode::Enter);
        assert!(matches!(play.message(), Some(Message::Info(t)) if t.starts_with("saved")));
        assert_eq!(
            record_file::load_all(&path).unwrap().games[0]
                .1
                .game
                .moves()
                .len(),
            1
        );
        // Saving again offers the same file and replaces it without asking.
        press(&mut play, KeyCode::Char(':'));
        typed(&mut play, "TM12:0");
        press(&mut play, KeyCode::Enter);
        press(&mut play, KeyCode::Char('s'));
        assert_eq!(play.prompt().unwrap().text, path.to_str().unwrap());
        press(&mut play, KeyCode::Enter);
        assert_eq!(
            record_file::load_all(&path).unwrap().games[0]
                .1
                .game
                .moves()
                .len(),
            2
        );
        // Another game asks before replacing an existing file, and Esc keeps it.
        let mut other = two_people();
        press(&mut other, KeyCode::Char('s'));
        other.key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
        typed(&mut other, path.to_str().unwrap());
        press(&mut other, KeyCode::Enter);
        assert!(refusal(&other).contains("already exists"));
        press(&mut other, KeyCode::Esc);
        assert_eq!(
            record_file::load_all(&path).unwrap().games[0]
                .1
                .game
                .moves()
                .len(),
            2
        );
        press(&mut other, KeyCode::Char('s'));
        other.key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
        typed(&mut other, path.to_str().unwrap());
        press(&mut other, KeyCode::Enter);
        assert_eq!(other.prompt().unwrap().text, path.to_str().unwrap());
        press(&mut other, KeyCode::Enter);
        assert_eq!(
            record_file::load_all(&path).unwrap().games[0]
                .1
                .game
                .moves()
                .len(),
            0
        );
        std::fs::remove_file(&path).unwrap();
        press(&mut play, KeyCode::Char('s'));
        play.key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
        typed(&mut play, "/nonexistent-dir/x.pgn");
        press(&mut play, KeyCode::Enter);
        assert!(refusal(&play).contains("cannot write"));
        // The name stays in the field to be corrected.
        assert_eq!(play.prompt().unwrap().text, "/nonexistent-dir/x.pgn");
        press(&mut play, KeyCode::Esc);
        assert!(play.prompt().is_none());
        press(&mut play, KeyCode::Char('q'));
        assert!(play.is_done());
    }

    #[test]
    fn a_folder_given_to_save_in_gets_a_file_name_and_tilde_is_home() {
        let mut play = two_people();
        press(&mut play, KeyCode::Char(':'));
        typed(&mut play, "TE4:0");
        press(&mut play, KeyCode::Enter);
        let dir = std::env::temp_dir().join(format!("punct-play-dir-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        press(&mut play, KeyCode::Char('s'));
        play.key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
        typed(&mut play, dir.to_str().unwrap());
        press(&mut play, KeyCode::Enter);
        assert!(refusal(&play).contains("is a folder"), "{}", refusal(&play));
        let offered = PathBuf::from(&play.prompt().unwrap().text);
        assert_eq!(offered.parent(), Some(dir.as_path()));
        press(&mut play, KeyCode::Enter);
        assert!(matches!(play.message(), Some(Message::Info(t)) if t.starts_with("saved")));
        assert_eq!(
            record_file::load_all(&offered).unwrap().games[0]
                .1
                .game
                .moves()
                .len(),
            1
        );
        std::fs::remove_dir_all(&dir).unwrap();

        let home = Path::new("/home/ada");
        assert_eq!(expand_home("~/g.pgn", Some(home)), home.join("g.pgn"));
        assert_eq!(expand_home("~", Some(home)), home);
        assert_eq!(
            expand_home("~bob/g.pgn", Some(home)),
            Path::new("~bob/g.pgn")
        );
        assert_eq!(expand_home("a/~/g.pgn", Some(home)), Path::new("a/~/g.pgn"));
        assert_eq!(expand_home("~/g.pgn", None), Path::new("~/g.pgn"));
    }
}
