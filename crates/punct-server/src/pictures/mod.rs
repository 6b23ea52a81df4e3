//! Pictures of games and positions (drawn by punct-picture) for sharing: a position as a
//! PNG the size of a link preview, a game as an animated GIF. Drawing takes a core for a
//! while (a long game's GIF most), so it runs off the async workers and only a few at once:
//! more are refused as busy rather than queued, as imports are.

use std::sync::Arc;

use punct_core::{Game, Move, Position};
use punct_picture::{Animation, Options};
use tokio::sync::Semaphore;

use crate::error::Error;

/// Pictures drawn at once by one server.
const PAINTERS: usize = 2;

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
}

/// The permits to draw, one set per server.
#[derive(Clone)]
pub struct Painters(Arc<Semaphore>);

impl Default for Painters {
    fn default() -> Painters {
        Painters(Arc::new(Semaphore::new(PAINTERS)))
    }
}

impl Painters {
    /// The PNG of `pos` (1200×630), with `last` marked.
    pub async fn png(&self, pos: Position, last: Option<Move>) -> Result<Vec<u8>, Error> {
        self.draw(move || punct_picture::png(&pos, last, &Options::default()))
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
        let _permit = self.0.try_acquire().map_err(|_| {
            Error::busy("the server is drawing other pictures: try again in a moment")
        })?;
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

    #[tokio::test]
    async fn drawing_past_the_permits_is_refused_as_busy() {
        let painters = Painters::default();
        let held: Vec<_> = (0..PAINTERS)
            .map(|_| painters.0.clone().try_acquire_owned().unwrap())
            .collect();
        let pos = Position::new(punct_core::Variant::Standard);
        let err = painters.png(pos.clone(), None).await.unwrap_err();
        assert_eq!(err.kind, crate::error::ErrorKind::Busy);
        drop(held);
        assert!(
            painters
                .png(pos, None)
                .await
                .unwrap()
                .starts_with(b"\x89PNG")
        );
    }
}
