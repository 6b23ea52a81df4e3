//! Who is asking: a watcher, or the holder of one seat or (on one screen) of both. What each
//! of them is shown is decided in one place, the wire layer's view of a game.

use punct_core::Colour;

/// Whose view of a game a request or a socket has, by the seats its token holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Audience {
    /// No seat: a watcher (also a stranger, or a wrong token).
    Watcher,
    /// One seat.
    Seat(Colour),
    /// Both seats: two people on one screen.
    BothSeats,
}

impl Audience {
    /// How many audiences there are (for what is kept per audience).
    pub const COUNT: usize = 4;

    /// The audience of whoever holds `colours`.
    pub fn holding(white: bool, black: bool) -> Audience {
        match (white, black) {
            (false, false) => Audience::Watcher,
            (true, false) => Audience::Seat(Colour::White),
            (false, true) => Audience::Seat(Colour::Black),
            (true, true) => Audience::BothSeats,
        }
    }

    /// The colours held, White's first.
    pub fn colours(self) -> &'static [Colour] {
        match self {
            Audience::Watcher => &[],
            Audience::Seat(Colour::White) => &[Colour::White],
            Audience::Seat(Colour::Black) => &[Colour::Black],
            Audience::BothSeats => &[Colour::White, Colour::Black],
        }
    }

    /// Whether a seat is held.
    pub fn holds_a_seat(self) -> bool {
        self != Audience::Watcher
    }

    /// A number below [`Audience::COUNT`], one per audience.
    pub fn index(self) -> usize {
        match self {
            Audience::Watcher => 0,
            Audience::Seat(Colour::White) => 1,
            Audience::Seat(Colour::Black) => 2,
            Audience::BothSeats => 3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_audience_holds_its_colours_and_has_its_own_index() {
        let all = [
            Audience::holding(false, false),
            Audience::holding(true, false),
            Audience::holding(false, true),
            Audience::holding(true, true),
        ];
        for (i, audience) in all.iter().enumerate() {
            assert_eq!(audience.index(), i);
            let colours = audience.colours();
            assert_eq!(
                Audience::holding(
                    colours.contains(&Colour::White),
                    colours.contains(&Colour::Black)
                ),
                *audience
            );
        }
        assert!(!Audience::Watcher.holds_a_seat());
    }
}
