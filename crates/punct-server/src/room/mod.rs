//! A game as the server holds it: the rules' [`Game`] plus seats, clock, offers and a
//! sequence number that counts every change. Pure logic, no I/O: the hub stores a changed
//! room before anyone hears of the change.

mod action;
mod audience;
pub mod clock;
mod expiry;
mod moves;
pub mod new;
mod record;
mod rematch;
mod seat;
mod snapshot;
mod stored;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;
use std::sync::Arc;

use punct_core::{Colour, Game, Move, Outcome, PlayError, Termination};
use punct_engine::Level;

pub use action::{Action, Change, Made, Request};
pub use audience::Audience;
pub use clock::Clock;
pub use expiry::Lifetimes;
use moves::MoveTexts;
pub use record::record_date;
pub use rematch::RematchStep;
pub use seat::{Holder, Mode, Person, Seat};
pub use snapshot::{Ending, SeatShown, Snapshot};
pub use stored::{Stored, Summary};

use crate::error::Error;
use crate::error::refusal::Refusal;
use crate::players::accounts::AccountId;
use crate::players::speed::{Speed, TimeControl};

/// A game in the server.
#[derive(Clone, Debug)]
pub struct Room {
    /// The game's public id (also its link).
    pub id: String,
    /// Who plays.
    pub mode: Mode,
    /// The rules' view of the game.
    pub game: Game,
    /// White's and Black's seats.
    pub seats: [Seat; 2],
    /// The clock, if the game is timed.
    pub clock: Option<Clock>,
    /// The side that offered a draw, until answered or a move is made.
    pub draw_offer: Option<Colour>,
    /// The side that asked for a takeback, until answered or a move is made.
    pub takeback_request: Option<Colour>,
    /// The side that offered a rematch of the finished game, until answered.
    pub rematch_offer: Option<Colour>,
    /// The id of the rematch, once it was made.
    pub rematch: Option<String>,
    /// Number of changes so far; every broadcast carries it.
    pub seq: u64,
    /// Creation time, ms since the epoch.
    pub created_ms: i64,
    /// Time of the last change, ms since the epoch.
    pub updated_ms: i64,
    /// The moves as a JSON list of their texts, kept beside the game so that states and
    /// stored forms copy it rather than write every move again at each change.
    texts: MoveTexts,
    /// The start position as text.
    start_text: Arc<str>,
    /// The secret a friend must show to take the open seat; `None` once it is taken.
    pub invite: Option<String>,
    /// The invitation the seat was taken with, and when: a join sent again with it soon
    /// after (its answer was lost) gets the same seat back rather than a refusal.
    pub joined: Option<Joined>,
    /// The last changes made at a seat holder's request, newest last, so that a request
    /// sent again gets the outcome of the first (see [`Room::answered`]).
    pub recent: VecDeque<Made>,
    /// Whether the game is rated: both players signed in and chose it, with a clock or days
    /// per move.
    pub rated: bool,
    /// White's and Black's rating changes, once a rated game has ended: computed in the
    /// transaction that stores its end, and read back from the players' rows with the game,
    /// so they are never part of its stored form.
    pub rating_changes: Option<[f64; 2]>,
}

/// How long a join may be sent again with its invitation and get its seat back: a repeat
/// comes soon after the first, and later the invitation (which may have been passed on)
/// gives nothing.
pub const JOIN_REPEAT_MS: i64 = 10 * 60 * 1000;

/// The taking of a friend game's open seat, kept for repeats of the join.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Joined {
    /// The invitation shown.
    pub invite: String,
    /// The id the joiner gave its request, which a repeat must give again: the invitation
    /// alone may have reached others (a link passed on), who must not get the seat.
    #[serde(default)]
    pub request: Option<String>,
    /// The seat's colour (0 White, 1 Black).
    pub colour: u8,
    /// When, ms since the epoch.
    pub at_ms: i64,
}

/// How many changes [`Room::recent`] keeps: a request is repeated only when its answer was
/// lost, which is soon after it was made.
const RECENT: usize = 8;

/// Keeps `made` among the recent changes `recent`.
fn remember(recent: &mut VecDeque<Made>, made: Made) {
    if recent.len() == RECENT {
        recent.pop_front();
    }
    recent.push_back(made);
}

/// Names a colour as the API writes it.
pub fn colour_name(c: Colour) -> &'static str {
    match c {
        Colour::White => "white",
        Colour::Black => "black",
    }
}

/// Reads a colour as the API writes it.
pub fn parse_colour(s: &str) -> Option<Colour> {
    match s {
        "white" => Some(Colour::White),
        "black" => Some(Colour::Black),
        _ => None,
    }
}

impl Room {
    /// A new room; its clock waits for the first move (as on lichess: nobody's time runs
    /// before the game has begun). An open seat gets an invitation secret.
    pub fn new(
        id: String,
        mode: Mode,
        game: Game,
        seats: [Seat; 2],
        clock: Option<Clock>,
        now: i64,
    ) -> Room {
        let texts = MoveTexts::new(game.moves());
        let start_text = game.start().to_string().into();
        let mut room = Room {
            id,
            mode,
            game,
            seats,
            clock,
            draw_offer: None,
            takeback_request: None,
            rematch_offer: None,
            rematch: None,
            seq: 1,
            created_ms: now,
            updated_ms: now,
            texts,
            start_text,
            invite: None,
            joined: None,
            recent: VecDeque::new(),
            rated: false,
            rating_changes: None,
        };
        if room.seats.iter().any(Seat::is_open) {
            room.invite = Some(crate::room::new::random_hex::<16>());
        }
        room.start_clock_if_ready(now);
        room
    }

    /// Starts the clock of a game under way: both seats taken, a move made (the first move
    /// starts the second player's time), the game not over.
    fn start_clock_if_ready(&mut self, now: i64) {
        let ready = !self.seats.iter().any(Seat::is_open)
            && !self.game.moves().is_empty()
            && self.game.outcome().is_none();
        if let Some(clock) = self.clock.as_mut().filter(|_| ready) {
            clock.start(now);
        }
    }

    /// Whether the game is still being played.
    pub fn is_live(&self) -> bool {
        self.game.outcome().is_none()
    }

    /// The side to move.
    pub fn turn(&self) -> Colour {
        self.game.position().turn()
    }

    /// Whose view the holder of `token` has: the seats it holds (both on one screen, none
    /// for a stranger).
    pub fn audience(&self, token: Option<&str>) -> Audience {
        self.audience_of(token, None)
    }

    /// Whose view the holder of `token`, or the signed-in `account`, has: the seats either
    /// holds.
    pub fn audience_of(&self, token: Option<&str>, account: Option<&AccountId>) -> Audience {
        let holds = |c: Colour| self.seats[c.index()].is_held_by(token, account);
        Audience::holding(holds(Colour::White), holds(Colour::Black))
    }

    /// The speed the game is rated in (and listed under on profiles): by its clock, or
    /// correspondence for days per move; `None` for a game without a clock.
    pub fn speed(&self) -> Option<Speed> {
        let clock = self.clock.as_ref()?;
        Some(match clock.days_per_move() {
            Some(_) => Speed::Correspondence,
            None => TimeControl::Clock {
                initial_ms: clock.initial_ms,
                increment_ms: clock.increment_ms,
            }
            .speed(),
        })
    }

    /// Whether the game's end moves its players' ratings: rated, between two different
    /// accounts, and not played against the computer.
    pub fn is_rated(&self) -> bool {
        let [white, black] = [self.seats[0].account(), self.seats[1].account()];
        self.rated
            && self.mode == Mode::Friend
            && self.speed().is_some()
            && white.is_some()
            && black.is_some()
            && white != black
    }

    /// The engine's level if the computer is to move in a live game.
    pub fn computer_to_move(&self) -> Option<Level> {
        self.is_live()
            .then(|| self.seats[self.turn().index()].level())
            .flatten()
    }

    /// Gives the open seat to a newcomer with `token`, who must show the game's invitation
    /// secret: the game's id alone, which watchers see, does not give the seat. `request`
    /// is the id the joiner gave this request, for a repeat of it.
    pub fn join(
        &mut self,
        token: String,
        name: &str,
        account: Option<AccountId>,
        invite: Option<&str>,
        request: Option<&str>,
        now: i64,
    ) -> Result<Colour, Error> {
        if let Some(outcome) = self.game.outcome() {
            return Err(Error::refused(Refusal::JoinOver {
                outcome: outcome.into(),
            }));
        }
        let colour = Colour::ALL
            .into_iter()
            .find(|c| self.seats[c.index()].is_open())
            .ok_or_else(|| Error::refused(Refusal::SeatsTaken))?;
        if let Some(secret) = &self.invite
            && invite != Some(secret.as_str())
        {
            return Err(Error::refused(match invite {
                None => Refusal::InvitationNeeded,
                Some(_) => Refusal::InvitationWrong,
            }));
        }
        self.joined = self.invite.take().map(|invite| Joined {
            invite,
            request: request.map(str::to_owned),
            colour: colour.index() as u8,
            at_ms: now,
        });
        let seat = &mut self.seats[colour.index()];
        let name = crate::room::new::clean_name(name).unwrap_or_else(|| seat.name().to_owned());
        *seat = Seat::player(name, token, account);
        // A rated game stays rated only between two different accounts: whoever joins it
        // otherwise plays it casual.
        self.rated = self.rated && self.is_rated();
        self.start_clock_if_ready(now);
        self.touch(now);
        Ok(colour)
    }

    /// The seat taken with `invite` by a join whose request had id `request`, if it was
    /// carried out less than [`JOIN_REPEAT_MS`] before `now`: a repeat of that join, whose
    /// answer was lost. A join that gave no id has no repeat.
    pub fn repeated_join(&self, invite: &str, request: Option<&str>, now: i64) -> Option<Colour> {
        let joined = self.joined.as_ref()?;
        (joined.invite == invite
            && request.is_some()
            && joined.request.as_deref() == request
            && now - joined.at_ms <= JOIN_REPEAT_MS)
            .then(|| Colour::ALL[usize::from(joined.colour) & 1])
    }

    fn touch(&mut self, now: i64) {
        self.seq += 1;
        self.updated_ms = now;
    }

    fn finish(&mut self, outcome: Outcome, now: i64) {
        self.game.end(outcome);
        self.after_end(now);
    }

    fn after_end(&mut self, now: i64) {
        let turn = self.turn();
        if let Some(c) = self.clock.as_mut() {
            c.stop(turn, now);
        }
        self.draw_offer = None;
        self.takeback_request = None;
    }

    /// Whether the side to move has run out of time in a live game at `now`.
    pub fn flag_fell(&self, now: i64) -> bool {
        let turn = self.turn();
        self.is_live() && self.clock.as_ref().is_some_and(|c| c.flagged(turn, now))
    }

    /// Ends the game on time if the side to move has run out. Returns whether it did.
    pub fn check_flag(&mut self, now: i64) -> bool {
        let turn = self.turn();
        let flagged = self.flag_fell(now);
        if flagged {
            self.finish(
                Outcome {
                    winner: Some(!turn),
                    termination: Termination::Timeout,
                },
                now,
            );
            self.touch(now);
        }
        flagged
    }

    /// Carries out `action` for the holder of `colours`, returning the change it made. On an
    /// error nothing has changed.
    pub fn act(&mut self, colours: &[Colour], action: &Action, now: i64) -> Result<Change, Error> {
        if colours.is_empty() {
            return Err(Error::refused(Refusal::NotSeated));
        }
        match action {
            Action::Rematch => return self.offer_rematch(colours, now),
            Action::DeclineRematch => return self.decline_rematch(colours, now),
            _ => {}
        }
        if let Some(outcome) = self.game.outcome() {
            return Err(Error::refused(Refusal::GameOver {
                outcome: outcome.into(),
            }));
        }
        let turn = self.turn();
        let me = if colours.contains(&turn) {
            turn
        } else {
            colours[0]
        };
        let local = colours.len() == 2;
        let opponent_is_computer = self.seats[(!me).index()].level().is_some();
        let change = match action {
            Action::Move { text } => {
                if !colours.contains(&turn) {
                    return Err(Error::refused(Refusal::NotYourTurn {
                        colour: colour_name(turn),
                    }));
                }
                if self.seats.iter().any(Seat::is_open) {
                    return Err(Error::refused(Refusal::NotStarted));
                }
                let mv = Move::parse(text.trim()).map_err(|e| {
                    Error::refused(Refusal::MalformedMove {
                        text: crate::error::refusal::cut(text.trim()).into_owned(),
                        problem: crate::error::refusal::cut(&e.to_string()).into_owned(),
                    })
                })?;
                self.play(mv, now)?;
                Change::Move
            }
            Action::Resign => {
                self.finish(
                    Outcome {
                        winner: Some(!me),
                        termination: Termination::Resignation,
                    },
                    now,
                );
                Change::Resign
            }
            Action::OfferDraw => {
                if local || self.draw_offer == Some(!me) {
                    self.finish(
                        Outcome {
                            winner: None,
                            termination: Termination::Agreement,
                        },
                        now,
                    );
                    Change::Draw
                } else if opponent_is_computer {
                    return Err(Error::refused(Refusal::ComputerDeclinesDraw));
                } else if self.draw_offer == Some(me) {
                    return Err(Error::refused(Refusal::DrawAlreadyOffered));
                } else {
                    self.draw_offer = Some(me);
                    Change::DrawOffer
                }
            }
            Action::DeclineDraw => {
                if self.draw_offer != Some(!me) || local {
                    return Err(Error::refused(Refusal::NoDrawOffer));
                }
                self.draw_offer = None;
                Change::DrawDeclined
            }
            Action::Takeback => {
                if local || opponent_is_computer || self.takeback_request == Some(!me) {
                    let requester = if local {
                        !turn
                    } else if opponent_is_computer {
                        me
                    } else {
                        !me
                    };
                    self.take_back(requester, local, now)?;
                    Change::Takeback
                } else if self.takeback_request == Some(me) {
                    return Err(Error::refused(Refusal::TakebackAlreadyAsked));
                } else if !self.has_moved(me) {
                    return Err(Error::refused(Refusal::NoMoveToTakeBack));
                } else {
                    self.takeback_request = Some(me);
                    Change::TakebackRequest
                }
            }
            Action::DeclineTakeback => {
                if self.takeback_request != Some(!me) || local {
                    return Err(Error::refused(Refusal::NoTakebackRequest));
                }
                self.takeback_request = None;
                Change::TakebackDeclined
            }
            Action::Rematch | Action::DeclineRematch => {
                return Err(Error::internal(
                    "a rematch action reached the live game's actions",
                ));
            }
        };
        // A move is remembered as played (its canonical text), as its pending row keeps it,
        // so that a repeat is recognised the same way before and after a restart.
        let action = match (change, self.game.moves().last()) {
            (Change::Move, Some(played)) => Action::Move {
                text: played.to_string(),
            },
            _ => action.clone(),
        };
        self.made(me, action, now);
        Ok(change)
    }

    /// Plays `mv` for the side to move, checked by the rules: the clock charged, the offers
    /// withdrawn. On an error nothing has changed.
    fn play(&mut self, mv: Move, now: i64) -> Result<(), Error> {
        let turn = self.turn();
        let mv = match self.game.play(mv) {
            Ok(mv) => mv,
            Err(PlayError::Illegal(mv, why)) => {
                let refusal = Refusal::illegal_move(&mv, &why, self.game.position());
                return Err(Error::refused(refusal));
            }
            Err(PlayError::GameOver(outcome)) => {
                return Err(Error::refused(Refusal::GameOver {
                    outcome: outcome.into(),
                }));
            }
        };
        self.texts.push(mv);
        self.draw_offer = None;
        self.takeback_request = None;
        if let Some(c) = self.clock.as_mut() {
            c.moved(turn, now);
        }
        if self.game.outcome().is_some() {
            self.after_end(now);
        }
        Ok(())
    }

    /// Plays `mv`, the computer's move, in a live game where the computer is to move. On an
    /// error nothing has changed.
    pub fn play_computer(&mut self, mv: Move, now: i64) -> Result<Change, Error> {
        if self.computer_to_move().is_none() {
            return Err(Error::internal("the computer is not to move in this game"));
        }
        let turn = self.turn();
        self.play(mv, now)?;
        let played = self.game.moves().last().copied().unwrap_or(mv);
        self.made(
            turn,
            Action::Move {
                text: played.to_string(),
            },
            now,
        );
        Ok(Change::Move)
    }

    /// Counts a change asked for by `by` and remembers it for repeats of the request.
    fn made(&mut self, by: Colour, action: Action, now: i64) {
        self.touch(now);
        remember(
            &mut self.recent,
            Made {
                seq: self.seq,
                by: by.index() as u8,
                action,
            },
        );
    }

    /// What becomes of `action`, asked for by the holder of `colours` on the state numbered
    /// `made_on`: `None` if that is the present state, so that it is to be carried out now;
    /// the outcome of the first request (the number of the state it made) if it was carried
    /// out already, so that a request sent again is never applied twice; a refusal if the
    /// game has changed since in another way.
    pub fn answered(
        &self,
        colours: &[Colour],
        action: &Action,
        made_on: u64,
    ) -> Option<Result<u64, Error>> {
        if made_on == self.seq {
            return None;
        }
        if made_on > self.seq {
            return Some(Err(Error::refused(Refusal::StateAhead {
                seq: made_on,
                at: self.seq,
            })));
        }
        let first = self.recent.iter().find(|m| m.seq == made_on + 1);
        Some(match first {
            Some(m)
                if m.action.is_repeated_by(action)
                    && colours.iter().any(|c| c.index() == usize::from(m.by)) =>
            {
                Ok(m.seq)
            }
            _ => Err(Error::refused(Refusal::StateChanged {
                seq: made_on,
                at: self.seq,
            })),
        })
    }

    /// Whether `colour` has a move of its own in this game to take back.
    fn has_moved(&self, colour: Colour) -> bool {
        let n = self.game.moves().len();
        let start_turn = self.game.start().turn();
        (0..n).any(|i| if i % 2 == 0 { start_turn } else { !start_turn } == colour)
    }

    /// Takes back moves until `requester` is to move again, having undone at least one of
    /// theirs (on one screen: just the last move). The side that was thinking is charged
    /// for it first, as for a move: otherwise taking back again and again (at once against
    /// the computer) would stop a player's clock for as long as they liked.
    fn take_back(&mut self, requester: Colour, local: bool, now: i64) -> Result<(), Error> {
        if self.game.moves().is_empty() || (!local && !self.has_moved(requester)) {
            return Err(Error::refused(Refusal::NothingToTakeBack));
        }
        let thinking = self.turn();
        if let Some(c) = self.clock.as_mut() {
            c.stop(thinking, now);
        }
        self.game.undo();
        self.texts.pop();
        if !local && self.turn() != requester {
            self.game.undo();
            self.texts.pop();
        }
        self.draw_offer = None;
        self.takeback_request = None;
        // Once started, the clock runs on, even back at the start: taking back must not
        // stop anyone's time.
        if let Some(c) = self.clock.as_mut() {
            c.start(now);
        }
        Ok(())
    }
}
