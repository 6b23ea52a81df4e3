//! Wins in one and the moves that stop them, found exactly.
//!
//! A move makes at most three cells its mover's (lifting a piece never gives the mover a
//! cell), so a player can connect at once only where a link costs at most three cells when
//! every cell not theirs costs one. That bound rules out almost every position cheaply;
//! where it does not, only moves landing on such a link are tried.

use punct_core::{Bitboard, Colour, Move, Position, Variant};

use crate::evaluation::distance::short_links;
use crate::evaluation::features::Lifts;

/// Whether a placement now would be the mover's 18th and win on the centre count.
fn last_placement_wins(pos: &Position) -> bool {
    let me = pos.turn();
    if pos.variant() != Variant::Standard || pos.reserve(me).total() != 1 {
        return false;
    }
    let [w, b] = pos.centre_count();
    match me {
        Colour::White => w > b,
        Colour::Black => b > w,
    }
}

/// Whether the side to move could conceivably win with one move.
pub fn may_win_in_one(pos: &Position) -> bool {
    last_placement_wins(pos) || !short_links(pos.visible(pos.turn()), 3).is_empty()
}

/// A move that wins at once for the side to move, if there is one. `moves` must be the
/// legal moves of `pos`; pass `None` to have them generated only when needed.
pub fn winning_move(pos: &mut Position, moves: Option<&[Move]>) -> Option<Move> {
    let me = pos.turn();
    let placement_wins = last_placement_wins(pos);
    let links = short_links(pos.visible(me), 3);
    if !placement_wins && links.is_empty() {
        return None;
    }
    let generated;
    let moves = match moves {
        Some(m) => m,
        None => {
            generated = pos.legal_moves();
            &generated
        }
    };
    if placement_wins && let Some(&mv) = moves.iter().find(|m| m.is_placement()) {
        return Some(mv);
    }
    let ctx = Lifts::new(pos);
    moves
        .iter()
        .copied()
        .find(|&mv| lands_on(&ctx, mv, links) && wins_at_once(pos, mv))
}

fn lands_on(ctx: &Lifts, mv: Move, cells: Bitboard) -> bool {
    ctx.footprint(mv)
        .is_some_and(|f| f.iter().any(|&c| cells.contains(c)))
}

/// The position with the other side to move, as if the mover passed.
pub fn passed(pos: &Position) -> Option<Position> {
    let mut setup = pos.to_setup();
    setup.turn = !setup.turn;
    Position::from_setup(&setup).ok()
}

/// What the side to move must do about the opponent's threats.
pub enum Defence {
    /// The opponent threatens nothing.
    None,
    /// These moves (not empty) stop every threat, or at least draw.
    Stoppers(Vec<Move>),
    /// Nothing stops the threat.
    Lost,
}

/// Finds the moves of `pos` after which the opponent cannot win at once, when the opponent
/// threatens to. `moves` are the legal moves of `pos`, which has no winning move itself.
/// When `give_up` says so (time is short), the stoppers found so far are returned.
pub fn defend(pos: &mut Position, moves: &[Move], give_up: &dyn Fn() -> bool) -> Defence {
    let Some(mut other) = passed(pos) else {
        return Defence::None;
    };
    if !may_win_in_one(&other) {
        return Defence::None;
    }
    let their_moves = other.legal_moves();
    let Some(threat) = winning_move(&mut other, Some(&their_moves)) else {
        return Defence::None;
    };
    // The cells every threat depends on: a move of ours elsewhere changes nothing of it.
    let links = short_links(other.visible(other.turn()), 3);
    let their_ctx = Lifts::new(&other);
    let mut critical = links;
    let mut threats = Vec::new();
    for &mv in &their_moves {
        if mv == threat || lands_on(&their_ctx, mv, links) {
            let undo = other.make(mv);
            let wins = other
                .decisive_outcome()
                .is_some_and(|o| o.winner == Some(!other.turn()));
            if wins {
                critical |= other.winning_chain(!other.turn());
            }
            other.unmake(undo);
            if wins {
                threats.push(mv);
                if let Some(f) = their_ctx.footprint(mv) {
                    critical |= f.into_iter().collect::<Bitboard>();
                }
                if let Move::Shift { from, .. } = mv
                    && let Some(p) = other.piece_at(from)
                    && let Some(cells) = p.cells()
                {
                    critical |= cells.into_iter().collect::<Bitboard>();
                }
            }
        }
    }
    let me = pos.turn();
    let ours = Lifts::new(pos);
    let mut stoppers = Vec::new();
    for &mv in moves {
        let touches = lands_on(&ours, mv, critical)
            || ours.lifted(mv).is_some_and(|l| l.intersects(critical))
            || (mv.is_placement() && pos.reserve(me).total() == 1);
        if !touches {
            continue;
        }
        if give_up() {
            break;
        }
        let undo = pos.make(mv);
        let safe = match pos.decisive_outcome() {
            Some(o) => o.winner != Some(!me),
            // Most moves leave one of the known threats standing: trying those first spares
            // generating every reply, which made the search of stoppers ten times slower.
            None => {
                !threats
                    .iter()
                    .any(|&t| pos.is_legal(t) && wins_at_once(pos, t))
                    && winning_move(pos, None).is_none()
            }
        };
        pos.unmake(undo);
        if safe {
            stoppers.push(mv);
        }
    }
    if stoppers.is_empty() {
        Defence::Lost
    } else {
        Defence::Stoppers(stoppers)
    }
}

/// Whether the legal move `mv` wins at once for the side to move in `pos`.
fn wins_at_once(pos: &mut Position, mv: Move) -> bool {
    let me = pos.turn();
    let undo = pos.make(mv);
    let won = pos.decisive_outcome().is_some_and(|o| o.winner == Some(me));
    pos.unmake(undo);
    won
}

/// What a player without search does first: the winning move when there is one, else the
/// moves worth considering (those that stop the opponent's win in one when it threatens
/// one and something stops it, else all of them).
pub fn triage(pos: &mut Position) -> Result<Move, Vec<Move>> {
    let moves = pos.legal_moves();
    if let Some(win) = winning_move(pos, Some(&moves)) {
        return Ok(win);
    }
    match defend(pos, &moves, &|| false) {
        Defence::Stoppers(stoppers) => Err(stoppers),
        Defence::None | Defence::Lost => Err(moves),
    }
}
