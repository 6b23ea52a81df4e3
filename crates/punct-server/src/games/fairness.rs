//! Fairness: the engine is no help to a player of a game going on. A position that occurs in
//! a live game is not analysed for anyone (players could ask through a friend, or as a
//! spectator), whoever asks and however it is asked (one position, or a finished game, an
//! import of the live one's moves, holding it). Once the game is over, its whole review may be
//! analysed.
//!
//! A position is matched by its pieces, their levels and either side to move (the ply and the
//! move number are ignored, so that rewriting the position's text does not get round the
//! rule, nor does asking what the opponent threatens). The first few plies are every game's
//! opening: a position with at most [`OPENING_PIECES`] pieces is refused only while a live
//! game is at it now, so that the analysis board still opens on an empty board.
//!
//! Several nodes share the database: a game live on another node is not in this one's memory
//! (or is there as it was when this node last read it), so the live games are also read from
//! the database, the truth, with their pending moves, and each replayed to its positions. That
//! is one read of every live game's row per check: a check guards an engine search, which
//! costs far more.

use std::time::Duration;

use punct_core::Position;

use super::Hub;
use crate::error::Error;
use crate::ops::metrics::StorageOp;
use crate::room::{Room, Stored};

/// Positions with at most this many pieces on the board are openings shared by many games.
pub const OPENING_PIECES: usize = 4;

/// How long a check waits for a live game being changed before refusing to answer unchecked.
const LOCK_WAIT: Duration = Duration::from_secs(2);

/// A position asked about, as the check matches it.
struct Asked {
    /// Its hash with either side to move.
    keys: [u64; 2],
    /// Whether it is an opening, refused only where a live game is at it now.
    opening: bool,
}

impl Asked {
    fn of(pos: &Position) -> Asked {
        Asked {
            keys: [pos.hash(), pos.passed().hash()],
            opening: pos.pieces().len() <= OPENING_PIECES,
        }
    }

    /// Whether a live game that has been in the positions `hashes` (its current one last)
    /// rules this one out.
    fn ruled_out_by(&self, hashes: &[u64]) -> bool {
        let current = hashes.last().copied();
        if self.opening {
            return current.is_some_and(|h| self.keys.contains(&h));
        }
        hashes.iter().any(|h| self.keys.contains(h))
    }
}

impl Hub {
    /// The index of the first of `positions` that the fairness rule (module docs) withholds
    /// from analysis while a game is live, with that game's id; `None` when all may be
    /// analysed. Busy when a live game stays locked (a change being stored) too long to be
    /// checked: a position is never analysed unchecked.
    pub async fn withheld(&self, positions: &[Position]) -> Result<Option<(usize, String)>, Error> {
        let asked: Vec<Asked> = positions.iter().map(Asked::of).collect();
        let cells: Vec<_> = self.rooms().values().cloned().collect();
        for cell in cells {
            let room = tokio::time::timeout(LOCK_WAIT, cell.room.lock())
                .await
                .map_err(|_| Error::busy("a live game is being changed; try again shortly"))?;
            if !room.is_live() {
                continue;
            }
            let hashes = room.game.hashes();
            if let Some(i) = asked.iter().position(|a| a.ruled_out_by(hashes)) {
                return Ok(Some((i, room.id.clone())));
            }
        }
        if self.inner.store.is_shared() {
            return self.withheld_in_the_database(&asked).await;
        }
        Ok(None)
    }

    /// [`Hub::withheld`]'s check of the live games as the database holds them.
    async fn withheld_in_the_database(
        &self,
        asked: &[Asked],
    ) -> Result<Option<(usize, String)>, Error> {
        let live = self
            .inner
            .store
            .live_games::<Stored>()
            .await
            .map_err(|e| self.storage_error(StorageOp::Read, e))?;
        // A game that cannot be read back is set aside by whoever loads it; it is no live
        // game to anyone meanwhile.
        for stored in live.into_iter().flatten() {
            let id = stored.id().to_owned();
            let Ok(room) = Room::from_stored(stored, 0, 0) else {
                continue;
            };
            if !room.is_live() {
                continue;
            }
            let hashes = room.game.hashes();
            if let Some(i) = asked.iter().position(|a| a.ruled_out_by(hashes)) {
                return Ok(Some((i, id)));
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use punct_core::{Game, Move, Variant};

    use super::*;

    /// A game of `plies` placements, each the first legal one (else the last).
    fn game_by(plies: usize, first: bool) -> Game {
        let mut g = Game::new(Variant::Standard);
        for _ in 0..plies {
            let mut moves = g.position().legal_move_texts();
            moves.retain(|m| !m.contains('-'));
            let pick = if first {
                &moves[0]
            } else {
                &moves[moves.len() - 1]
            };
            g.play(Move::parse(pick).unwrap()).unwrap();
        }
        g
    }

    fn game(plies: usize) -> Game {
        game_by(plies, true)
    }

    #[test]
    fn an_opening_is_ruled_out_only_where_a_game_is_at_it_now() {
        let live = game(2);
        let empty = Asked::of(&Position::new(Variant::Standard));
        assert!(empty.opening);
        assert!(!empty.ruled_out_by(live.hashes()), "every game began there");
        assert!(Asked::of(live.position()).ruled_out_by(live.hashes()));
    }

    #[test]
    fn past_the_opening_every_position_of_the_game_is_ruled_out_with_either_side_to_move() {
        let live = game(9);
        let earlier = live.position_after(6);
        assert!(!Asked::of(&earlier).opening);
        assert!(Asked::of(&earlier).ruled_out_by(live.hashes()));
        assert!(Asked::of(&earlier.passed()).ruled_out_by(live.hashes()));
        let elsewhere = game_by(7, false);
        assert!(!Asked::of(elsewhere.position()).ruled_out_by(live.hashes()));
    }
}
