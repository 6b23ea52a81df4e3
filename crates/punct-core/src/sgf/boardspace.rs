//! The meaning of a Boardspace PÜNCT game tree: the root's players, date and result, and
//! the move commands of the other nodes, replayed into a [`Game`].
//!
//! Boardspace records a turn as the steps that produced it (a robot's one `Dropb` or
//! `Move`; a person's `Pick`/`Pickb`/`Dropb` gestures) and then `Done`. The steps of a turn
//! are gathered as lifts and set-downs, and at `Done` their net effect becomes one move:
//! a reserve piece set down is a placement, a board piece set down elsewhere or turned is
//! a move.

use super::SgfError;
use super::tree::{GameTree, Node};
use crate::cell::Cell;
use crate::game::Game;
use crate::moves::Move;
use crate::piece::{Colour, PieceType, parse_rotation};
use crate::position::Variant;
use crate::record::Record;
use crate::status::{Outcome, Termination};

/// Boardspace's game number for PÜNCT (`GM`).
const GAME_NUMBER: &str = "25";

/// Reads one game tree as a record.
pub(super) fn record(tree: &GameTree) -> Result<Record, SgfError> {
    let root = &tree.nodes[0];
    check_root(root, tree.line)?;
    let white = player(root, "P0");
    let black = player(root, "P1");
    let mut replay = Replay {
        game: Game::new(Variant::Standard),
        turn: Turn::default(),
        last_index: None,
        ended: None,
    };
    for node in &tree.nodes[1..] {
        if let Some((mover, text, line)) = step(node) {
            replay
                .step(mover, text)
                .map_err(|message| SgfError::new(line, message))?;
        }
    }
    let result = Re::of(root, white.as_deref(), black.as_deref())?;
    let (game, result_tag) = replay.finish(&result, tree.line)?;
    let date = root
        .first("DT")
        .and_then(|(dt, _)| java_date(dt))
        .or_else(|| root.first("GN").and_then(|(gn, _)| name_date(gn)))
        .unwrap_or_else(|| "????.??.??".to_owned());
    let mut record = Record::from_game(
        game,
        white.as_deref().unwrap_or("?"),
        black.as_deref().unwrap_or("?"),
        &date,
    );
    if let Some(token) = result_tag {
        record.set_tag("Result", token);
    }
    record.set_tag("Site", "boardspace.net");
    if let Some((name, _)) = root.first("GN") {
        record.set_tag("GameName", name);
    }
    Ok(record)
}

/// Refuses a root that is not a PÜNCT game Boardspace could have written.
fn check_root(root: &Node, line: usize) -> Result<(), SgfError> {
    if let Some((gm, at)) = root.first("GM")
        && gm.trim() != GAME_NUMBER
    {
        return Err(SgfError::new(
            at,
            format!("GM[{gm}] is not PÜNCT: Boardspace's PÜNCT records say GM[{GAME_NUMBER}]"),
        ));
    }
    if let Some((vv, at)) = root.first("VV")
        && !matches!(vv.trim(), "1" | "2")
    {
        return Err(SgfError::new(
            at,
            format!("record version VV[{vv}] is unknown: Boardspace writes 1 or 2"),
        ));
    }
    if let Some((su, at)) = root.first("SU")
        && !su.trim().eq_ignore_ascii_case("punct")
    {
        return Err(SgfError::new(
            at,
            format!("setup SU[{su}] is not PÜNCT's: Boardspace's only one is `Punct`"),
        ));
    }
    if root.first("P0").is_none() && root.first("GM").is_none() {
        return Err(SgfError::new(
            line,
            "not a Boardspace record: the first node has neither GM[25] nor players",
        ));
    }
    Ok(())
}

/// A player's name from `P0[id "name"]` (or `P1`); other values such as
/// `P0[ranking …]` are not names.
fn player(root: &Node, name: &str) -> Option<String> {
    root.values(name).find_map(|(value, _)| {
        let id = value.trim_start().strip_prefix("id")?.trim();
        let id = id
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(id);
        (!id.is_empty()).then(|| id.to_owned())
    })
}

/// The step a node holds: its player (`P0` is White), the step text and its line. Nodes
/// without one (the final node with the clocks, `P0[time 0:12:03 ]`) give `None`.
fn step(node: &Node) -> Option<(Colour, &str, usize)> {
    [("P0", Colour::White), ("P1", Colour::Black)]
        .into_iter()
        .find_map(|(name, colour)| {
            let (value, line) = node.first(name)?;
            (!value.trim_start().starts_with("time")).then_some((colour, value, line))
        })
}

/// What the root's `RE` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Re {
    /// No `RE`: the game was not over when written.
    Missing,
    /// `The game is a draw`.
    Draw,
    /// `Game won by <name>`: the winner, or `None` when both players have that name.
    Won(Option<Colour>),
}

impl Re {
    fn of(root: &Node, white: Option<&str>, black: Option<&str>) -> Result<Re, SgfError> {
        let Some((re, line)) = root.first("RE") else {
            return Ok(Re::Missing);
        };
        let re = re.trim();
        if re.eq_ignore_ascii_case("the game is a draw") {
            return Ok(Re::Draw);
        }
        let Some(name) = re.strip_prefix("Game won by ").map(str::trim) else {
            return Err(SgfError::new(
                line,
                format!(
                    "unknown result RE[{re}]: expected `Game won by <player>` or `The game is a draw`"
                ),
            ));
        };
        match (white == Some(name), black == Some(name)) {
            (true, true) => Ok(Re::Won(None)),
            (true, false) => Ok(Re::Won(Some(Colour::White))),
            (false, true) => Ok(Re::Won(Some(Colour::Black))),
            (false, false) => Err(SgfError::new(
                line,
                format!(
                    "RE[{re}] names nobody in the game (P0 is `{}`, P1 is `{}`)",
                    white.unwrap_or("?"),
                    black.unwrap_or("?")
                ),
            )),
        }
    }

    /// Whether the result agrees with `winner` (`None`: a draw).
    fn allows(self, winner: Option<Colour>) -> bool {
        match self {
            Re::Missing => true,
            Re::Draw => winner.is_none(),
            Re::Won(None) => winner.is_some(),
            Re::Won(Some(c)) => winner == Some(c),
        }
    }
}

/// Where the piece handled in a turn came from.
#[derive(Clone, Copy, Debug)]
enum Origin {
    Reserve(PieceType),
    Board(Cell),
}

/// The steps of the turn being gathered: the piece lifted, where it was set down, and
/// whether the player resigned.
#[derive(Default)]
struct Turn {
    from: Option<Origin>,
    to: Option<(Cell, u8)>,
    resigned: bool,
}

const SECOND_PIECE: &str = "a second piece handled in one turn: a PÜNCT turn moves one piece";

impl Turn {
    fn lift_from_reserve(&mut self, kind: PieceType) -> Result<(), String> {
        if self.from.is_some() {
            return Err(SECOND_PIECE.into());
        }
        self.from = Some(Origin::Reserve(kind));
        Ok(())
    }

    fn lift_from_board(&mut self, at: Cell) -> Result<(), String> {
        match (self.from, self.to) {
            // The piece set down in this turn, picked up again.
            (Some(_), Some((to, _))) if to == at => self.to = None,
            (Some(_), _) => return Err(SECOND_PIECE.into()),
            (None, _) => self.from = Some(Origin::Board(at)),
        }
        Ok(())
    }

    fn set_down(&mut self, kind: PieceType, at: Cell, rotation: u8) -> Result<(), String> {
        if self.to.is_some() {
            return Err("a piece set down twice without being picked up again".into());
        }
        // A robot's placement comes without a `Pick` before it.
        self.from.get_or_insert(Origin::Reserve(kind));
        self.to = Some((at, rotation));
        Ok(())
    }

    fn shift(&mut self, from: Cell, to: Cell, rotation: u8) -> Result<(), String> {
        match (self.from, self.to) {
            (Some(_), Some((last, _))) if last == from => {}
            (Some(_), _) => return Err(SECOND_PIECE.into()),
            (None, _) => self.from = Some(Origin::Board(from)),
        }
        self.to = Some((to, rotation));
        Ok(())
    }

    /// The turn's net effect as one move.
    fn into_move(self) -> Result<Move, String> {
        match (self.from, self.to) {
            (Some(Origin::Reserve(kind)), Some((at, r))) => Ok(Move::place(kind, at, r)),
            (Some(Origin::Board(from)), Some((to, rotation))) => {
                Ok(Move::Shift { from, to, rotation })
            }
            (Some(_), None) => Err("the turn ends (`Done`) with a piece still in hand".into()),
            (None, _) => Err("the turn ends (`Done`) without a move".into()),
        }
    }
}

struct Replay {
    game: Game,
    turn: Turn,
    /// The history index of the last step, which the next must follow without a gap.
    last_index: Option<u64>,
    /// How the game ended off the board: the termination and the winner.
    ended: Option<(Termination, Colour)>,
}

impl Replay {
    /// Applies one step, `<index> <command> <arguments…>`, made by `mover`.
    fn step(&mut self, mover: Colour, text: &str) -> Result<(), String> {
        let mut words = text.split_whitespace();
        let index = words.next().and_then(|w| w.parse::<u64>().ok());
        let (Some(index), Some(command)) = (index, words.next()) else {
            return Err(format!(
                "step `{text}`: expected `<number> <command> …`, e.g. `3 Done`"
            ));
        };
        if let Some(last) = self.last_index
            && index != last + 1
        {
            return Err(format!(
                "step {index} follows step {last}: the steps are numbered without gaps, so \
                 the record is damaged"
            ));
        }
        self.last_index = Some(index);
        let args: Vec<&str> = words.collect();
        self.apply(mover, &command.to_ascii_lowercase(), &args)
            .map_err(|why| format!("step {index} `{}`: {why}", text.trim()))
    }

    /// Carries out one command (in lower case) with its arguments.
    fn apply(&mut self, mover: Colour, command: &str, args: &[&str]) -> Result<(), String> {
        match (command, args) {
            ("start", ["P0"]) => return Ok(()),
            ("start", _) => {
                return Err("PÜNCT games start with `Start P0` (White moves first)".into());
            }
            ("edit", _) => {
                return Err(
                    "the game was edited on Boardspace, so its moves cannot be replayed".into(),
                );
            }
            _ => {}
        }
        if let Some(outcome) = self.game.outcome() {
            return Err(format!("the game is already over ({outcome})"));
        }
        if let Some((termination, _)) = self.ended {
            return Err(format!("the game is already over ({})", termination.name()));
        }
        if command == "winontime" {
            self.ended = Some((Termination::Timeout, mover));
            return Ok(());
        }
        let to_move = self.game.position().turn();
        if mover != to_move {
            return Err(format!(
                "P{} ({mover}) made it, but it is {to_move}'s turn",
                mover.index()
            ));
        }
        let turn = &mut self.turn;
        match (command, args) {
            ("pick", [side, id]) => {
                let kind = own_piece(id, mover)?;
                let side = side.chars().next().map(|c| c.to_ascii_lowercase());
                if side.and_then(Colour::from_letter) != Some(mover) {
                    return Err(format!("`{}` is not {mover}'s reserve", args[0]));
                }
                turn.lift_from_reserve(kind)
            }
            ("pickb", [col, row]) => turn.lift_from_board(cell(col, row)?),
            ("dropb", [id, col, row, r]) => {
                let kind = own_piece(id, mover)?;
                turn.set_down(kind, cell(col, row)?, rotation(r)?)
            }
            ("move", [fc, fr, tc, tr, r]) => turn.shift(cell(fc, fr)?, cell(tc, tr)?, rotation(r)?),
            ("resign", []) => {
                turn.resigned = true;
                Ok(())
            }
            ("done", []) => self.done(mover),
            ("pick" | "pickb" | "dropb" | "move" | "resign" | "done", _) => {
                Err("wrong number of arguments".into())
            }
            _ => Err(format!("unknown command `{command}`")),
        }
    }

    /// Ends the turn: plays its move, or carries out a resignation.
    fn done(&mut self, mover: Colour) -> Result<(), String> {
        let turn = std::mem::take(&mut self.turn);
        if turn.resigned {
            self.ended = Some((Termination::Resignation, !mover));
            return Ok(());
        }
        let mv = turn.into_move()?;
        let n = self.game.moves().len() + 1;
        self.game
            .play(mv)
            .map(|_| ())
            .map_err(|e| format!("move {n} ({mv}): {e}"))
    }

    /// The game with its ending, checked against `RE`, and the `Result` tag to write when
    /// the record decides a game the moves leave open.
    fn finish(self, re: &Re, line: usize) -> Result<(Game, Option<&'static str>), SgfError> {
        let mut game = self.game;
        // A turn without its `Done` was never confirmed, so it is not part of the game.
        let disagree = |how: String| {
            SgfError::new(
                line,
                format!("the record's result (RE) disagrees with its moves: {how}"),
            )
        };
        if let Some(outcome) = game.outcome() {
            if !re.allows(outcome.winner) {
                return Err(disagree(format!("they end the game, {outcome}")));
            }
            return Ok((game, None));
        }
        match (self.ended, *re) {
            (Some((Termination::Timeout, issuer)), re) => {
                // `WinOnTime` is claimed by the winner; `RE` says it outright.
                let winner = match re {
                    Re::Won(Some(winner)) => winner,
                    Re::Draw => return Err(disagree("a win on time, but RE says a draw".into())),
                    _ => issuer,
                };
                game.end(Outcome {
                    winner: Some(winner),
                    termination: Termination::Timeout,
                });
                Ok((game, None))
            }
            (Some((termination, winner)), re) => {
                if !re.allows(Some(winner)) {
                    return Err(disagree(format!("{} resigned", !winner)));
                }
                game.end(Outcome {
                    winner: Some(winner),
                    termination,
                });
                Ok((game, None))
            }
            (None, Re::Missing) => Ok((game, None)),
            (None, Re::Draw) => Ok((game, Some("1/2-1/2"))),
            (None, Re::Won(Some(Colour::White))) => Ok((game, Some("1-0"))),
            (None, Re::Won(Some(Colour::Black))) => Ok((game, Some("0-1"))),
            (None, Re::Won(None)) => Err(disagree(
                "RE names a winner whose name both players have, and the moves do not say which"
                    .into(),
            )),
        }
    }
}

/// The type of Boardspace piece `id` (0–37: `id mod 19` is the piece, `id div 19` the
/// colour), which must be one of `mover`'s game pieces.
fn own_piece(id: &str, mover: Colour) -> Result<PieceType, String> {
    use PieceType::{C, E, L, M, R, T};
    const TYPES: [Option<PieceType>; 19] = [
        None,
        Some(T),
        Some(T),
        Some(T),
        Some(T),
        Some(T),
        Some(T),
        Some(C),
        Some(C),
        Some(E),
        Some(E),
        Some(E),
        Some(E),
        Some(L),
        Some(L),
        Some(M),
        Some(M),
        Some(R),
        Some(R),
    ];
    let number: usize = id
        .parse()
        .ok()
        .filter(|&n| n < 2 * TYPES.len())
        .ok_or_else(|| format!("piece `{id}` does not exist: pieces are numbered 0 to 37"))?;
    let colour = if number < TYPES.len() {
        Colour::White
    } else {
        Colour::Black
    };
    let kind = TYPES[number % TYPES.len()]
        .ok_or_else(|| format!("piece {id} is the round PÜNCT marker, not a game piece"))?;
    if colour != mover {
        return Err(format!("piece {id} is {colour}'s, not {mover}'s"));
    }
    Ok(kind)
}

/// A cell written as two words, column letter and row number: `E 4`.
fn cell(column: &str, row: &str) -> Result<Cell, String> {
    let ok = column.len() == 1 && !row.is_empty() && row.bytes().all(|b| b.is_ascii_digit());
    if !ok {
        return Err(format!(
            "`{column} {row}` is not a cell: expected a column letter and a row number"
        ));
    }
    Cell::parse(&format!("{}{row}", column.to_ascii_uppercase())).map_err(|e| e.to_string())
}

fn rotation(text: &str) -> Result<u8, String> {
    parse_rotation(text).ok_or_else(|| format!("rotation `{text}` is not 0 to 5"))
}

/// `yyyy.mm.dd` from Java's `Date.toString()`, `Wed Nov 25 06:19:00 GMT 2026`, as it
/// reads in the zone written.
fn java_date(text: &str) -> Option<String> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let words: Vec<&str> = text.split_whitespace().collect();
    let [_, month, day, _, .., year] = words.as_slice() else {
        return None;
    };
    let month = MONTHS.iter().position(|m| m.eq_ignore_ascii_case(month))? + 1;
    let day: u32 = day.parse().ok().filter(|d| (1..=31).contains(d))?;
    let year: u32 = year.parse().ok().filter(|y| (1000..=9999).contains(y))?;
    Some(format!("{year:04}.{month:02}.{day:02}"))
}

/// `yyyy.mm.dd` from the end of a game name, `PT-a-b-2026-11-25-0619` (the start in GMT).
fn name_date(name: &str) -> Option<String> {
    let parts: Vec<&str> = name.rsplitn(5, '-').collect();
    let [_, day, month, year, _] = parts.as_slice() else {
        return None;
    };
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    (digits(year, 4) && digits(month, 2) && digits(day, 2)).then(|| format!("{year}.{month}.{day}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_come_from_dt_or_the_game_name() {
        assert_eq!(
            java_date("Wed Nov 25 06:19:00 GMT 2026").as_deref(),
            Some("2026.11.25")
        );
        assert_eq!(
            java_date("Sun Mar 1 23:00:00 CET 2020").as_deref(),
            Some("2020.03.01")
        );
        assert_eq!(java_date("yesterday"), None);
        assert_eq!(java_date("Wed Foo 25 06:19:00 GMT 2026"), None);
        assert_eq!(
            name_date("U!PT-ann-bob-2026-11-25-0619").as_deref(),
            Some("2026.11.25")
        );
        assert_eq!(name_date("PT-ann-bob"), None);
    }

    #[test]
    fn piece_numbers_give_type_and_owner() {
        assert_eq!(own_piece("1", Colour::White), Ok(PieceType::T));
        assert_eq!(own_piece("8", Colour::White), Ok(PieceType::C));
        assert_eq!(own_piece("28", Colour::Black), Ok(PieceType::E));
        assert_eq!(own_piece("37", Colour::Black), Ok(PieceType::R));
        assert!(
            own_piece("0", Colour::White)
                .unwrap_err()
                .contains("marker")
        );
        assert!(
            own_piece("19", Colour::Black)
                .unwrap_err()
                .contains("marker")
        );
        assert!(
            own_piece("20", Colour::White)
                .unwrap_err()
                .contains("Black's")
        );
        assert!(
            own_piece("38", Colour::Black)
                .unwrap_err()
                .contains("0 to 37")
        );
        assert!(
            own_piece("-1", Colour::Black)
                .unwrap_err()
                .contains("0 to 37")
        );
    }

    #[test]
    fn cells_are_two_words() {
        assert_eq!(cell("E", "4").unwrap().to_string(), "E4");
        assert_eq!(cell("m", "12").unwrap().to_string(), "M12");
        assert!(cell("A", "1").unwrap_err().contains("A1"));
        assert!(cell("E4", "1").unwrap_err().contains("not a cell"));
        assert!(cell("E", "-4").unwrap_err().contains("not a cell"));
    }
}
