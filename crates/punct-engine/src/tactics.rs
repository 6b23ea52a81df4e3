//! Wins in one and the moves that stop them, found exactly.
//!
//! A move makes at most three cells its mover's (lifting a piece never gives the mover a
//! cell), so a player can connect at once only where a link costs at most three cells when
//! every cell not theirs costs one. That bound rules out almost every position cheaply;
//! where it does not, only moves landing on such a link are tried.

use punct_core::geometry::{CENTRE, GOALS};
use punct_core::{Bitboard, Cell, Colour, Move, PieceType, Position, Variant};

use crate::evaluation::distance::short_links;

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

/// A move that wins at once for the side to move, if there is one. `moves` must be the
/// legal moves of `pos`; pass `None` to have them generated only when needed.
pub fn winning_move(pos: &mut Position, moves: Option<&[Move]>) -> Option<Move> {
    let me = pos.turn();
    let placement_wins = last_placement_wins(pos);
    let links = short_links(pos.visible(me), 3);
    if !placement_wins && links.is_empty() {
        return None;
    }
    if placement_wins {
        let first = match moves {
            Some(m) => m.iter().copied().find(|m| m.is_placement()),
            // Placements come first, so the first placement is the first move if any is.
            None => pos.nth_legal_move(0).filter(|m| m.is_placement()),
        };
        if first.is_some() {
            return first;
        }
    }
    match moves {
        Some(m) => {
            let joins = Joins::new(pos, None);
            m.iter()
                .copied()
                .find(|&mv| joins.may_connect(pos, mv) && wins_at_once(pos, mv))
        }
        None => {
            let mut candidates = Vec::new();
            Joins::new(pos, Some(links)).extend_moves(pos, false, &mut candidates);
            candidates.into_iter().find(|&mv| wins_at_once(pos, mv))
        }
    }
}

/// The cells the legal move `mv` of the side to move in `pos` lands on.
fn footprint(pos: &Position, mv: Move) -> Option<[Cell; 3]> {
    pos.piece_type_of(mv)?
        .footprint(mv.destination(), mv.rotation())
}

/// A set of PÜNCT cells per piece type and rotation: the destinations of some kind of
/// move, told for every move of a type and rotation at once, which the move generator
/// can list without trying the others.
struct Destinations([[Bitboard; 6]; 6]);

impl Destinations {
    /// The sets `of(kind, rotation)`, for each rotation a type has.
    fn new(of: impl Fn(PieceType, u8) -> Bitboard) -> Destinations {
        Destinations(PieceType::ALL.map(|kind| {
            std::array::from_fn(|r| {
                let r = r as u8;
                if r < kind.rotations() {
                    of(kind, r)
                } else {
                    Bitboard::EMPTY
                }
            })
        }))
    }

    /// The set of a piece of type `kind` turned `rotation`, one of the type's rotations
    /// (as the move generator gives them; see [`PieceType::normalize`] for a move's).
    fn of(&self, kind: PieceType, rotation: u8) -> Bitboard {
        self.0[kind.index()][usize::from(rotation)]
    }

    /// Whether every set is empty.
    fn is_empty(&self) -> bool {
        self.0.iter().flatten().all(|set| set.is_empty())
    }

    /// Whether the legal move `mv` of the side to move in `pos` ends in its set.
    fn contains(&self, pos: &Position, mv: Move) -> bool {
        pos.piece_type_of(mv).is_some_and(|kind| {
            self.of(kind, kind.normalize(mv.rotation()))
                .contains(mv.destination())
        })
    }
}

/// Where the side to move's pieces could land to join its chains into a connection. After
/// a move the mover owns at most the cells it owned and the three it lands on (lifting a
/// piece never gives the mover a cell), and the landed cells, which are neighbours, join
/// the chains on them or next to them: a connection is possible only if the sides the
/// landed cells and those chains touch include two opposite ones. Told for every move of a
/// piece type and rotation at once, as a set of PÜNCT cells, this costs far less than
/// playing each move and flooding.
struct Joins {
    /// The PÜNCT cells from which a piece's cells would join two opposite sides.
    at: Destinations,
}

impl Joins {
    /// The joins of the side to move in `pos`. With `links`, its short links (see
    /// [`short_links`]), only moves landing on one of them as well: when it links no two
    /// sides yet, every connecting move does.
    fn new(pos: &Position, links: Option<Bitboard>) -> Joins {
        let me = pos.turn();
        let own = pos.visible(me);
        let links = links.filter(|_| !pos.is_connected(me));
        // For each side, the cells whose owning touches it: its own, and those on or next
        // to a chain that touches it. A piece's cells lie within two steps of each other,
        // so the sides of a pair whose cells lie further apart are not joined by one move.
        let pairs = GOALS.map(|pair| {
            let [a, b] = pair.map(|side| side | (own & side).flood(own).dilate());
            a.dilate().dilate().intersects(b).then_some([a, b])
        });
        let at = Destinations::new(|kind, r| {
            let at = pairs.iter().flatten().fold(Bitboard::EMPTY, |at, [a, b]| {
                at | (kind.covering(*a, r) & kind.covering(*b, r))
            });
            match links {
                Some(links) if !at.is_empty() => at & kind.covering(links, r),
                _ => at,
            }
        });
        Joins { at }
    }

    /// Whether the legal move `mv` of the side to move in `pos` could connect.
    fn may_connect(&self, pos: &Position, mv: Move) -> bool {
        self.at.contains(pos, mv)
    }

    /// Appends the legal moves of `pos` (whose side to move these are the joins of) that
    /// could connect, in generation order; with `placements`, every placement as well.
    fn extend_moves(&self, pos: &Position, placements: bool, out: &mut Vec<Move>) {
        if placements {
            pos.extend_legal_moves_within(
                |kind, r, from| match from {
                    None => Bitboard::ALL,
                    Some(_) => self.at.of(kind, r),
                },
                out,
            );
        } else if !self.at.is_empty() {
            pos.extend_legal_moves_within(|kind, r, _| self.at.of(kind, r), out);
        }
    }
}

/// What the side to move must do about the opponent's threats.
pub enum Defence {
    /// The opponent threatens nothing.
    None,
    /// These moves (not empty) stop every threat, or at least draw.
    Stoppers(Vec<Move>),
    /// Nothing stops the threats: every legal move was tried, and each loses at once.
    Lost,
    /// Time ran out before a stopper was found; nothing is known.
    Unfinished,
}

/// Finds the moves of `pos` after which the opponent cannot win at once, when the opponent
/// threatens to. `moves` are the legal moves of `pos`, which has no winning move itself.
/// When `give_up` says so (time is short), the stoppers found so far are returned.
pub fn defend(pos: &mut Position, moves: &[Move], give_up: &dyn Fn() -> bool) -> Defence {
    if moves.is_empty() {
        // No legal move: the game is drawn before any threat is carried out.
        return Defence::None;
    }
    let Some(threats) = Threats::of(pos) else {
        return Defence::None;
    };
    let touching = Touching::new(pos, threats.critical);
    let mut stoppers = Vec::new();
    for &mv in moves {
        if !touching.touches(pos, mv) {
            continue;
        }
        if give_up() {
            return if stoppers.is_empty() {
                Defence::Unfinished
            } else {
                Defence::Stoppers(stoppers)
            };
        }
        if threats.parried_by(pos, mv, false) {
            stoppers.push(mv);
        }
    }
    if !stoppers.is_empty() {
        return Defence::Stoppers(stoppers);
    }
    // The cells above are where a stopper is expected, not a proof that there is none
    // elsewhere: a loss is claimed only once every move has been tried.
    let safe = safe_moves(pos, moves);
    if safe.is_empty() {
        Defence::Lost
    } else {
        Defence::Stoppers(safe)
    }
}

/// The opponent's wins in one, found as if the side to move passed, and the cells they
/// depend on.
struct Threats {
    /// The winning moves.
    moves: Vec<Move>,
    /// Where a move of the side to move may change a threat: a move elsewhere leaves every
    /// one of them standing.
    critical: Bitboard,
}

impl Threats {
    /// Whether playing `mv` in `pos` leaves the opponent no win in one: it ends the game
    /// without losing it, or none of these threats wins after it and no other move does.
    /// With `trust_placements`, a placement that parries these threats is taken to stop the
    /// rest without trying each reply (it uncovers nothing, so it seldom opens a new win).
    fn parried_by(&self, pos: &mut Position, mv: Move, trust_placements: bool) -> bool {
        let me = pos.turn();
        let undo = pos.make(mv);
        let parried = match pos.decisive_outcome() {
            Some(o) => o.winner != Some(!me),
            // Most moves leave one of the known threats standing: trying those first spares
            // generating every reply, which made the search of stoppers ten times slower.
            None => {
                !self
                    .moves
                    .iter()
                    .any(|&t| pos.is_legal(t) && wins_at_once(pos, t))
                    && ((trust_placements && mv.is_placement())
                        || winning_move(pos, None).is_none())
            }
        };
        pos.unmake(undo);
        parried
    }

    /// The threats against the side to move in `pos`; `None` when there is none.
    fn of(pos: &Position) -> Option<Threats> {
        let mut other = pos.passed();
        let links = short_links(other.visible(other.turn()), 3);
        let centre_wins = last_placement_wins(&other);
        if !centre_wins && links.is_empty() {
            return None;
        }
        // Every move that may win is among these (any placement, when one wins on the
        // centre count), in the order of all the legal moves.
        let mut their_moves = Vec::new();
        let joins = Joins::new(&other, (!centre_wins).then_some(links));
        joins.extend_moves(&other, centre_wins, &mut their_moves);
        let mut critical = links;
        if centre_wins {
            // A move into the centre or out of it may tip the count.
            critical |= CENTRE;
        }
        let mut moves = Vec::new();
        for &mv in &their_moves {
            let lands = footprint(&other, mv);
            let lifted = match mv {
                Move::Shift { from, .. } => other.piece_at(from).and_then(|p| p.cells()),
                Move::Place { .. } => None,
            };
            let undo = other.make(mv);
            let wins = other
                .decisive_outcome()
                .is_some_and(|o| o.winner == Some(!other.turn()));
            if wins {
                critical |= other.winning_chain(!other.turn());
            }
            other.unmake(undo);
            if wins {
                moves.push(mv);
                for cells in [lands, lifted].into_iter().flatten() {
                    critical |= cells.into_iter().collect::<Bitboard>();
                }
            }
        }
        // A last placement that wins on the centre count is a threat without being played.
        let threatens =
            !moves.is_empty() || (centre_wins && their_moves.iter().any(|m| m.is_placement()));
        threatens.then_some(Threats { moves, critical })
    }
}

/// The moves of the side to move that land on, or lift from, the cells a set of threats
/// depends on (see [`Threats::critical`]), or end the game: any other move leaves every one
/// of the threats standing. Told per piece type and rotation as a set of PÜNCT cells, as
/// [`Joins`] are.
struct Touching {
    /// The PÜNCT cells from which a piece lands on the cells.
    at: Destinations,
    /// The PÜNCT cells of the side to move's pieces that cover one of the cells.
    lifting: Bitboard,
    /// Whether a placement is the side to move's last, which ends the game.
    last: bool,
}

impl Touching {
    /// The moves of the side to move in `pos` that touch the `critical` cells.
    fn new(pos: &Position, critical: Bitboard) -> Touching {
        let lifting = pos
            .movable()
            .into_iter()
            .filter(|&from| {
                pos.piece_at(from)
                    .and_then(|p| p.cells())
                    .is_some_and(|cells| cells.iter().any(|&c| critical.contains(c)))
            })
            .collect();
        Touching {
            at: Destinations::new(|kind, r| kind.covering(critical, r)),
            lifting,
            last: pos.reserve(pos.turn()).total() == 1,
        }
    }

    /// The destinations of the moves of a piece of type `kind` turned `rotation` (one of
    /// its rotations), moved from `from` (`None` for a placement), that touch.
    fn within(&self, kind: PieceType, rotation: u8, from: Option<Cell>) -> Bitboard {
        // A piece lifted from the cells, or a last placement, touches wherever it lands.
        let anywhere = match from {
            None => self.last,
            Some(from) => self.lifting.contains(from),
        };
        if anywhere {
            Bitboard::ALL
        } else {
            self.at.of(kind, rotation)
        }
    }

    /// Whether the legal move `mv` of the side to move in `pos` touches.
    fn touches(&self, pos: &Position, mv: Move) -> bool {
        let from = match mv {
            Move::Place { .. } => None,
            Move::Shift { from, .. } => Some(from),
        };
        pos.piece_type_of(mv).is_some_and(|kind| {
            self.within(kind, kind.normalize(mv.rotation()), from)
                .contains(mv.destination())
        })
    }

    /// Appends the legal moves of `pos` that touch, in generation order.
    fn extend_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        pos.extend_legal_moves_within(|kind, r, from| self.within(kind, r, from), out);
    }
}

/// The opponent's wins in one against the side to move, and the moves that might stop
/// them, for a search that tries the likeliest stoppers first: most candidates do not stop
/// the threats.
pub struct Threatened {
    threats: Threats,
    /// The moves of the side to move that might stop the threats: every move that does is
    /// among them, and most are.
    pub candidates: Vec<Move>,
}

impl Threatened {
    /// The threats against the side to move in `pos` and the candidates, in the order
    /// the legal moves are generated; `None` when the opponent threatens nothing. Far
    /// cheaper than [`defend`], which tries each candidate.
    pub fn of(pos: &Position) -> Option<Threatened> {
        Threats::of(pos).map(|threats| Threatened::against(threats, pos))
    }

    /// `threats` against the side to move in `pos` and the candidates.
    fn against(threats: Threats, pos: &Position) -> Threatened {
        let mut candidates = Vec::new();
        Touching::new(pos, threats.critical).extend_moves(pos, &mut candidates);
        Threatened {
            threats,
            candidates,
        }
    }

    /// Whether the legal move `mv` might stop the threats: false only when, after it, the
    /// opponent wins at once (exact); true when it stops them, or is a placement that
    /// parries every threat found (taken for a stopper without trying each reply).
    pub fn parried_by(&self, pos: &mut Position, mv: Move) -> bool {
        self.threats.parried_by(pos, mv, true)
    }
}

/// The moves of `moves` (legal in `pos`) that do not lose at once: after them the game is
/// not won by the opponent and the opponent has no winning move. Exact: every move is
/// tried. Repetition, which needs the game's history, is not considered.
pub fn safe_moves(pos: &mut Position, moves: &[Move]) -> Vec<Move> {
    safe_moves_unless(pos, moves, &|| false).unwrap_or_default()
}

/// [`safe_moves`], or `None` as soon as `give_up` says so: trying thousands of moves takes
/// milliseconds, longer than a search may overrun its stop.
pub fn safe_moves_unless(
    pos: &mut Position,
    moves: &[Move],
    give_up: &dyn Fn() -> bool,
) -> Option<Vec<Move>> {
    // The opponent's winning moves found so far: most moves leave one of them standing,
    // which two moves made show without generating every reply.
    let mut threats = Vec::new();
    let mut safe = Vec::new();
    for (i, &mv) in moves.iter().enumerate() {
        // Asking costs a clock read; every 32 moves is often enough (well under a millisecond).
        if i % 32 == 0 && give_up() {
            return None;
        }
        if !loses_at_once(pos, mv, &mut threats) {
            safe.push(mv);
        }
    }
    Some(safe)
}

/// Whether the legal move `mv` loses at once: the game ends in the opponent's favour, or
/// the opponent can then win with one move. Winning replies found are added to `threats`,
/// which are tried first.
fn loses_at_once(pos: &mut Position, mv: Move, threats: &mut Vec<Move>) -> bool {
    let me = pos.turn();
    let undo = pos.make(mv);
    let lost = match pos.decisive_outcome() {
        Some(o) => o.winner == Some(!me),
        None => {
            threats
                .iter()
                .any(|&t| pos.is_legal(t) && wins_at_once(pos, t))
                || winning_move(pos, None)
                    .inspect(|&t| threats.push(t))
                    .is_some()
        }
    };
    pos.unmake(undo);
    lost
}

/// Whether the side to move, which has no winning move, loses whatever it plays: the
/// opponent threatens wins in one that no single move stops (a double threat, say).
/// `moves` is a buffer; the legal moves are generated into it only when the opponent
/// threatens at all.
pub fn cannot_stop(pos: &mut Position, moves: &mut Vec<Move>) -> bool {
    let Some(threats) = Threats::of(pos) else {
        return false;
    };
    moves.clear();
    pos.extend_legal_moves(moves);
    if moves.is_empty() {
        return false;
    }
    // A placement that parries every threat found is taken for a stopper without trying
    // each reply: it uncovers nothing, so it seldom opens a new win, and a wrong guess only
    // leaves a loss unproven. A shift may uncover a line, so it is tried in full. A loss is
    // claimed only once every move has been tried.
    let threatened = Threatened::against(threats, pos);
    let parried = threatened
        .candidates
        .iter()
        .any(|&mv| threatened.parried_by(pos, mv));
    !parried && safe_moves(pos, moves).is_empty()
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
        Defence::None | Defence::Lost | Defence::Unfinished => Err(moves),
    }
}
