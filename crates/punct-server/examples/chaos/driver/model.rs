//! What a game must be, by the acknowledged actions: each game's client is its only actor,
//! so the state the server holds follows from the changes it acknowledged, in order, plus
//! the few changes it makes by itself (the computer's reply, a flag falling). Every state
//! the server shows is compared with that.

use punct_core::{Colour, Game, Move, Outcome, Position, Termination};
use serde_json::{Value, json};

/// Who plays a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Against the engine; the person holds `human`.
    Computer {
        /// The person's colour.
        human: Colour,
    },
    /// Two seats, two tokens (both held by the one client).
    Friend,
    /// One token holds both colours.
    Local,
}

impl Mode {
    /// The mode's name in the API.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Computer { .. } => "computer",
            Mode::Friend => "friend",
            Mode::Local => "local",
        }
    }
}

/// An action a seat holder sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Act {
    /// A move, as move text (canonical, or with spaces around it).
    Move(String),
    /// Give up.
    Resign,
    /// Offer a draw, or accept the opponent's offer.
    OfferDraw,
    /// Turn the opponent's offer down.
    DeclineDraw,
    /// Take back, ask to, or grant the opponent's request.
    Takeback,
    /// Turn the opponent's request down.
    DeclineTakeback,
}

impl Act {
    /// The action's name in the API.
    pub fn name(&self) -> &'static str {
        match self {
            Act::Move(_) => "move",
            Act::Resign => "resign",
            Act::OfferDraw => "offer_draw",
            Act::DeclineDraw => "decline_draw",
            Act::Takeback => "takeback",
            Act::DeclineTakeback => "decline_takeback",
        }
    }

    /// The fields of `/action` and of a WebSocket action, made on state `seq`.
    pub fn fields(&self, seq: u64) -> Value {
        let mut v = json!({ "action": self.name(), "seq": seq });
        if let Act::Move(text) = self {
            v["move"] = json!(text);
        }
        v
    }

    /// The action's own route (after `/api/games/{id}`) and its body, made on state `seq`.
    pub fn route(&self, seq: u64) -> (&'static str, Value) {
        let path = match self {
            Act::Move(text) => return ("/move", json!({ "move": text, "seq": seq })),
            Act::Resign => "/resign",
            Act::OfferDraw => "/draw",
            Act::DeclineDraw => "/draw/decline",
            Act::Takeback => "/takeback",
            Act::DeclineTakeback => "/takeback/decline",
        };
        (path, json!({ "seq": seq }))
    }
}

/// The parts of a game's state that the acknowledged actions determine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    /// The number of the state.
    pub seq: u64,
    /// The moves.
    pub moves: Vec<String>,
    /// The winner and the termination's name, once over.
    pub outcome: Option<(Option<String>, String)>,
    /// The side whose draw offer stands.
    pub draw_offer: Option<String>,
    /// The side whose takeback request stands.
    pub takeback_request: Option<String>,
}

fn text_of(v: &Value) -> Result<Option<String>, String> {
    match v {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s.clone())),
        other => Err(format!("expected a string or null, got {other}")),
    }
}

impl Seen {
    /// Reads a state as the API gives it.
    pub fn from_state(v: &Value) -> Result<Seen, String> {
        let seq = v["seq"].as_u64().ok_or("no `seq`")?;
        let moves = v["moves"]
            .as_array()
            .ok_or("no `moves`")?
            .iter()
            .map(|m| {
                m.as_str()
                    .map(str::to_owned)
                    .ok_or("a move that is not text")
            })
            .collect::<Result<Vec<_>, _>>()?;
        let outcome = match &v["outcome"] {
            Value::Null => None,
            o => Some((
                text_of(&o["winner"])?,
                o["termination"]
                    .as_str()
                    .ok_or("an outcome without `termination`")?
                    .to_owned(),
            )),
        };
        Ok(Seen {
            seq,
            moves,
            outcome,
            draw_offer: text_of(&v["draw_offer"])?,
            takeback_request: text_of(&v["takeback_request"])?,
        })
    }
}

/// What a state shown by the server says of the model.
#[derive(Debug)]
pub enum Verdict {
    /// The state follows from the model: here it is, and whether the action in question
    /// was applied.
    Follows(Box<Model>, bool),
    /// Acknowledged changes are missing (the caller counts them from its ledger).
    Lost(String),
    /// More changes than could have been made: how many more.
    Twice(usize, String),
    /// Neither: the state does not match any way the game could have gone.
    Inconsistent(String),
}

fn colour_name(c: Colour) -> &'static str {
    match c {
        Colour::White => "white",
        Colour::Black => "black",
    }
}

/// A game as the acknowledged actions make it.
#[derive(Clone, Debug)]
pub struct Model {
    /// Who plays.
    pub mode: Mode,
    /// Whether a clock runs (a flag may fall).
    pub timed: bool,
    start: Position,
    /// The game on the board.
    pub game: Game,
    /// The number of the state.
    pub seq: u64,
    /// The side whose draw offer stands.
    pub draw_offer: Option<Colour>,
    /// The side whose takeback request stands.
    pub takeback_request: Option<Colour>,
}

impl Model {
    /// The model of a game whose state (as the API gives it) is `state`.
    pub fn new(mode: Mode, timed: bool, state: &Value) -> Result<Model, String> {
        let start = state["start"].as_str().ok_or("no `start`")?;
        let start = Position::from_text(start).map_err(|e| e.to_string())?;
        let mut model = Model {
            mode,
            timed,
            game: Game::from_position(start.clone()),
            start,
            seq: 0,
            draw_offer: None,
            takeback_request: None,
        };
        model.adopt(&Seen::from_state(state)?)?;
        Ok(model)
    }

    /// Makes the model what the server shows (after a discrepancy has been counted).
    pub fn adopt(&mut self, seen: &Seen) -> Result<(), String> {
        let mut game = Game::from_position(self.start.clone());
        for text in &seen.moves {
            let mv = Move::parse(text).map_err(|e| e.to_string())?;
            game.play(mv).map_err(|e| e.to_string())?;
        }
        if let Some((winner, termination)) = &seen.outcome
            && game.outcome().is_none()
        {
            let termination = Termination::from_name(termination)
                .ok_or_else(|| format!("unknown termination `{termination}`"))?;
            let winner = match winner.as_deref() {
                Some("white") => Some(Colour::White),
                Some("black") => Some(Colour::Black),
                _ => None,
            };
            game.end(Outcome {
                winner,
                termination,
            });
        }
        let colour = |c: &Option<String>| match c.as_deref() {
            Some("white") => Some(Colour::White),
            Some("black") => Some(Colour::Black),
            _ => None,
        };
        self.game = game;
        self.seq = seen.seq;
        self.draw_offer = colour(&seen.draw_offer);
        self.takeback_request = colour(&seen.takeback_request);
        Ok(())
    }

    /// What the server should show.
    pub fn seen(&self) -> Seen {
        Seen {
            seq: self.seq,
            moves: self.game.moves().iter().map(Move::to_string).collect(),
            outcome: self.game.outcome().map(|o| {
                (
                    o.winner.map(|c| colour_name(c).to_owned()),
                    o.termination.name().to_owned(),
                )
            }),
            draw_offer: self.draw_offer.map(|c| colour_name(c).to_owned()),
            takeback_request: self.takeback_request.map(|c| colour_name(c).to_owned()),
        }
    }

    /// Whether the game goes on.
    pub fn live(&self) -> bool {
        self.game.outcome().is_none()
    }

    /// The side to move.
    pub fn turn(&self) -> Colour {
        self.game.position().turn()
    }

    /// Whether the computer is to move.
    pub fn computer_to_move(&self) -> bool {
        matches!(self.mode, Mode::Computer { human } if human != self.turn()) && self.live()
    }

    /// Whether `colour` has played a move of its own in this game.
    pub fn has_moved(&self, colour: Colour) -> bool {
        let first = self.game.start().turn();
        (0..self.game.moves().len()).any(|i| if i % 2 == 0 { first } else { !first } == colour)
    }

    fn end(&mut self, winner: Option<Colour>, termination: Termination) {
        self.game.end(Outcome {
            winner,
            termination,
        });
        self.draw_offer = None;
        self.takeback_request = None;
    }

    /// Carries out `act` by `me`, as the server's rules do (only actions the server
    /// accepts are ever sent).
    pub fn apply(&mut self, me: Colour, act: &Act) -> Result<(), String> {
        if !self.live() {
            return Err("the game is over".into());
        }
        let local = self.mode == Mode::Local;
        let computer = matches!(self.mode, Mode::Computer { .. });
        match act {
            Act::Move(text) => {
                let mv = Move::parse(text.trim()).map_err(|e| e.to_string())?;
                self.game.play(mv).map_err(|e| e.to_string())?;
                self.draw_offer = None;
                self.takeback_request = None;
            }
            Act::Resign => self.end(Some(!me), Termination::Resignation),
            Act::OfferDraw if local || self.draw_offer == Some(!me) => {
                self.end(None, Termination::Agreement)
            }
            Act::OfferDraw => self.draw_offer = Some(me),
            Act::DeclineDraw => self.draw_offer = None,
            Act::Takeback if local || computer || self.takeback_request == Some(!me) => {
                let requester = if local {
                    !self.turn()
                } else if computer {
                    me
                } else {
                    !me
                };
                self.game.undo().ok_or("no move to take back")?;
                if !local && self.turn() != requester {
                    self.game.undo().ok_or("no move to take back")?;
                }
                self.draw_offer = None;
                self.takeback_request = None;
            }
            Act::Takeback => self.takeback_request = Some(me),
            Act::DeclineTakeback => self.takeback_request = None,
        }
        self.seq += 1;
        Ok(())
    }

    /// The computer's reply `text`, if it is legal here.
    fn computer_moved(&self, text: &str) -> Option<Model> {
        let mut next = self.clone();
        let mv = Move::parse(text).ok()?;
        next.game.play(mv).ok()?;
        next.draw_offer = None;
        next.takeback_request = None;
        next.seq += 1;
        Some(next)
    }

    fn timed_out(&self) -> Model {
        let mut next = self.clone();
        next.end(Some(!self.turn()), Termination::Timeout);
        next.seq += 1;
        next
    }

    /// Which way the game went to become `seen`: with `pending` (an action by a colour,
    /// made on this model's state) applied or not (`must`: it was acknowledged, so it must
    /// be), then the computer's reply where it is to move, then a flag falling where a
    /// clock runs. Nothing else can change a game its client alone plays.
    pub fn explain(&self, pending: Option<(Colour, &Act)>, must: bool, seen: &Seen) -> Verdict {
        let mut bases = Vec::new();
        if let Some((me, act)) = pending {
            let mut applied = self.clone();
            match applied.apply(me, act) {
                Ok(()) => bases.push((applied, true)),
                Err(e) => return Verdict::Inconsistent(format!("the driver sent {act:?}: {e}")),
            }
        }
        if pending.is_none() || !must {
            bases.push((self.clone(), false));
        }
        let mut ways = Vec::new();
        for (base, applied) in bases {
            let replied = base
                .computer_to_move()
                .then(|| seen.moves.get(base.game.moves().len()))
                .flatten()
                .and_then(|text| base.computer_moved(text));
            let mut steps = vec![base];
            steps.extend(replied);
            for step in steps {
                if step.timed && step.live() {
                    ways.push((step.timed_out(), applied));
                }
                ways.push((step, applied));
            }
        }
        if let Some((model, applied)) = ways.iter().find(|(m, _)| m.seen() == *seen) {
            return Verdict::Follows(Box::new(model.clone()), *applied);
        }
        let least = ways.iter().map(|(m, _)| m.seq).min().unwrap_or(self.seq);
        let most = ways.iter().map(|(m, _)| m.seq).max().unwrap_or(self.seq);
        let detail = format!("expected {:?}, the server shows {seen:?}", ways[0].0.seen());
        if seen.seq < least {
            Verdict::Lost(detail)
        } else if seen.seq > most {
            Verdict::Twice((seen.seq - most) as usize, detail)
        } else {
            Verdict::Inconsistent(detail)
        }
    }
}
