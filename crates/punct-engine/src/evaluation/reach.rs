//! What each player's pieces can still do: how many may move, and which of the opponent's
//! dots one of them could cover by jumping, the way chains are cut.
//!
//! A jump lands on three cells of one height h with the PÜNCT on one's own dot, so an
//! opponent's dot at height h next to one's own dot at height h, which a movable piece's
//! PÜNCT can reach along its lines, is open to a cut. Shapes are not checked: this is a
//! cheap sign of danger for the evaluation, not a move generator.

use punct_core::geometry::lines;
use punct_core::{Bitboard, Colour, Position};

/// Levels tracked; stacks higher than this are rare enough to ignore.
const LEVELS: usize = 8;

/// Both players' mobility and cutting chances, indexed by colour.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reach {
    /// Pieces on the board nothing covers.
    pub movable: [u32; 2],
    /// The opponent's visible dots the player could cover with one jump.
    pub coverable: [Bitboard; 2],
}

impl Reach {
    /// Measures `pos`.
    pub fn of(pos: &Position) -> Reach {
        let mut planes = [Bitboard::EMPTY; LEVELS];
        for cell in pos.occupied() {
            let h = usize::from(pos.height(cell));
            if h < LEVELS {
                planes[h].insert(cell);
            }
        }
        let mut reach = Reach::default();
        for colour in [Colour::White, Colour::Black] {
            let free = pos.movable_of(colour);
            reach.movable[colour.index()] = free.count();
            let mut landing = Bitboard::EMPTY;
            for cell in free {
                landing |= lines(cell);
            }
            let own = pos.visible(colour) & landing;
            let theirs = pos.visible(!colour);
            let mut coverable = Bitboard::EMPTY;
            for plane in &planes[1..] {
                let support = own & *plane;
                if !support.is_empty() {
                    coverable |= theirs & *plane & support.dilate();
                }
            }
            reach.coverable[colour.index()] = coverable;
        }
        reach
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dot_next_to_ones_own_at_its_height_is_open_to_a_cut() {
        // White's triangle on E4 is free; Black's on F4 lies beside it at the same height.
        let pos = Position::from_text("standard w 2 wTE4:0@1,bTG4:0@1").unwrap();
        let reach = Reach::of(&pos);
        assert_eq!(reach.movable, [1, 1]);
        let white = reach.coverable[Colour::White.index()];
        assert!(!white.is_empty());
        assert!(
            white
                .into_iter()
                .all(|c| pos.visible(Colour::Black).contains(c))
        );
        // Covered, White's triangle can move no more, and cuts nothing.
        let pos = Position::from_text("standard w 4 wTE4:0@1,bTG4:0@1,wTE4:0@2").unwrap();
        let reach = Reach::of(&pos);
        assert_eq!(reach.movable, [1, 1]);
        let pos = Position::from_text("standard w 4 wTE4:0@1,bTK5:0@1,bEM12:3@1").unwrap();
        assert!(Reach::of(&pos).coverable[0].is_empty());
    }
}
