//! The rules of PÜNCT, Kris Burm's connection game: board geometry, pieces, positions,
//! legal moves, the end of the game, and the text formats for moves, positions and game
//! records (punct's own, and Boardspace.net's SGF records to import). No I/O and no threads; everything else in the project stands on this crate.
//!
//! Text flows one way: text → [`Setup`] → [`Position`] → moves → [`Outcome`] → text.
//!
//! ```
//! use punct_core::{Position, Variant, Move};
//! let mut pos = Position::new(Variant::Standard);
//! assert_eq!(pos.count_legal_moves(), 4986);
//! pos.play(Move::parse("TE4:0").unwrap()).unwrap();
//! assert_eq!(pos.to_string(), "standard b 1 wTE4:0@1");
//! ```

#![warn(missing_docs)]

pub mod bitboard;
pub mod cell;
pub mod diagram;
pub mod game;
pub mod geometry;
pub mod legality;
mod movegen;
pub mod moves;
pub mod perft;
pub mod piece;
pub mod position;
pub mod record;
pub mod setup;
pub mod sgf;
pub mod status;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use cell::{Cell, CellError, Direction};
pub use game::{Game, PlayError};
pub use legality::Illegal;
pub use moves::{Move, MoveError};
pub use perft::{divide, perft};
pub use piece::{Colour, PieceType, Reserve};
pub use position::{Dot, Piece, Position, Undo, Variant};
pub use record::{Record, RecordError, RecordMove};
pub use setup::{PositionError, Setup};
pub use sgf::SgfError;
pub use status::{Outcome, Termination};
