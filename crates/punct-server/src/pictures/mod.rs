//! Pictures of games and positions (drawn by punct-picture) for sharing: a position as a
//! PNG the size of a link preview (a game's with its players' names and result), a game as
//! an animated GIF. Drawing takes a core for a while (a long game's GIF most), so it runs off
//! the async workers and only a few at once: a picture asked for while they are all drawing
//! waits a little for its turn (a chat app asks for a link's preview once, and a refusal
//! shows as no picture), and is refused as busy only past that.

use std::sync::Arc;
use std::time::Duration;

use punct_core::{Game, Move, Position};
use punct_picture::{Animation, Caption, Options};
use tokio::sync::Semaphore;

use crate::error::Error;

/// Pictures drawn at once by one server.
const PAINTERS: usize = 2;

/// How long a picture waits for a painter before it is refused as busy: a few PNGs' time.
const QUEUE: Duration = Duration::from_secs(5);

/// The site's name on a shared game's picture.
const SITE: &str = "PÜNCT";

/// A game as its pictures and link preview show it.
#[derive(Clone, Debug)]
pub struct Shared {
    /// The moves from the start.
    pub game: Game,
    /// White's and Black's names.
    pub names: [String; 2],
    /// Whether the game may still change (moves, takebacks); a finished game's pictures
    /// never do.
    pub live: bool,
}

impl Shared {
    /// The position after `ply` moves (the last when `None`) and the move that led to it;
    /// refused when the game has fewer moves.
    pub fn at(&self, ply: Option<usize>) -> Result<(Position, Option<Move>), Error> {
        let moves = self.game.moves();
        let ply = ply.unwrap_or(moves.len());
        if ply > moves.len() {
            return Err(Error::bad_request(format!(
                "`ply` {ply} is past the end of the game, which has {} moves",
                moves.len()
            )));
        }
        Ok((
            self.game.position_after(ply),
            ply.checked_sub(1).map(|i| moves[i]),
        ))
    }

    /// What the picture of the position after `ply` moves (the last when `None`) says
    /// beside the board: the players' names, and the result when it shows the game's end.
    pub fn caption(&self, ply: Option<usize>) -> Caption {
        let end = ply.is_none_or(|p| p == self.game.moves().len());
        Caption {
            names: self.names.clone(),
            outcome: self.game.outcome().filter(|_| end),
            site: SITE.to_owned(),
        }
    }
}

/// The permits to draw, one set per server, and how long a picture waits for one.
#[derive(Clone)]
pub struct Painters {
    permits: Arc<Semaphore>,
    wait: Duration,
}

impl Default for Painters {
    fn default() -> Painters {
        Painters {
            permits: Arc::new(Semaphore::new(PAINTERS)),
            wait: QUEUE,
        }
    }
}

impl Painters {
    /// The PNG of `pos` (1200×630), with `last` marked and `caption` beside the board.
    pub async fn png(
        &self,
        pos: Position,
        last: Option<Move>,
        caption: Option<Caption>,
    ) -> Result<Vec<u8>, Error> {
        self.draw(move || match caption {
            Some(c) => punct_picture::captioned_png(&pos, last, &Options::default(), &c),
            None => punct_picture::png(&pos, last, &Options::default()),
        })
        .await
    }

    /// The GIF of `game` (see [`Animation`]'s defaults for its size and bound on frames).
    pub async fn gif(&self, game: Game) -> Result<Vec<u8>, Error> {
        self.draw(move || punct_picture::gif(&game, &Animation::default()))
            .await
    }

    async fn draw(
        &self,
        work: impl FnOnce() -> Result<Vec<u8>, punct_picture::PictureError> + Send + 'static,
    ) -> Result<Vec<u8>, Error> {
        let busy = || Error::busy("the server is drawing other pictures: try again in a moment");
        let _permit = tokio::time::timeout(self.wait, self.permits.acquire())
            .await
            .map_err(|_| busy())?
            .map_err(|_| busy())?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| Error::internal(format!("drawing failed: {e}")))?
            .map_err(|e| Error::internal(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared(moves: &[&str]) -> Shared {
        let mut game = Game::new(punct_core::Variant::Standard);
        for m in moves {
            game.play(Move::parse(m).unwrap()).unwrap();
        }
        Shared {
            game,
            names: ["A".into(), "B".into()],
            live: true,
        }
    }

    #[test]
    fn a_ply_names_a_position_of_the_game() {
        let game = shared(&["TE4:0", "TK5:0"]);
        let (pos, last) = game.at(Some(1)).unwrap();
        assert_eq!(pos.to_string(), "standard b 1 wTE4:0@1");
        assert_eq!(last, Some(Move::parse("TE4:0").unwrap()));
        assert_eq!(game.at(Some(0)).unwrap().1, None);
        assert_eq!(game.at(None).unwrap().0, *game.game.position());
        let err = game.at(Some(3)).unwrap_err();
        assert_eq!(err.kind, crate::error::ErrorKind::BadRequest);
        assert!(err.reason.contains("has 2 moves"), "{}", err.reason);
    }

    #[test]
    fn the_caption_names_the_players_and_the_result_at_the_end_only() {
        let mut game = shared(&["TE4:0", "TK5:0"]);
        assert_eq!(game.caption(None).names, ["A".to_owned(), "B".to_owned()]);
        assert_eq!(game.caption(None).outcome, None);
        let resigned = punct_core::Outcome {
            winner: Some(punct_core::Colour::Black),
            termination: punct_core::Termination::Resignation,
        };
        game.game.end(resigned);
        let outcome = Some(resigned);
        assert_eq!(game.caption(None).outcome, outcome);
        assert_eq!(game.caption(Some(2)).outcome, outcome);
        assert_eq!(game.caption(Some(1)).outcome, None, "an earlier position");
        assert_eq!(game.caption(None).site, "PÜNCT");
    }

    #[tokio::test]
    async fn a_picture_waits_for_a_painter_and_past_the_wait_is_refused_as_busy() {
        let painters = Painters {
            wait: Duration::from_millis(200),
            ..Painters::default()
        };
        let mut held: Vec<_> = (0..PAINTERS)
            .map(|_| painters.permits.clone().try_acquire_owned().unwrap())
            .collect();
        let pos = Position::new(punct_core::Variant::Standard);
        // Nobody finishes within the wait: busy.
        let err = painters.png(pos.clone(), None, None).await.unwrap_err();
        assert_eq!(err.kind, crate::error::ErrorKind::Busy);
        // A painter finishing while the picture waits draws it.
        let waiting = tokio::spawn({
            let painters = Painters {
                wait: Duration::from_secs(60),
                ..painters.clone()
            };
            async move { painters.png(pos, None, None).await }
        });
        tokio::task::yield_now().await;
        held.pop();
        assert!(waiting.await.unwrap().unwrap().starts_with(b"\x89PNG"));
    }
}
