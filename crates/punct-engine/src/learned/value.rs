//! The learned static evaluation: a logistic model of the side to move's chance of winning,
//! linear in a few features of the position, fitted to self-play outcomes
//! (`punct train value`, see `docs/training.md`).
//!
//! The features are the side to move's view: the terms of the hand-set evaluation each on
//! its own (the connection distance gap, the second axis's gap, the centre as the phase
//! weighs it, reserves, each player's movable pieces and dots open to a cut), and what that
//! formula could not say: how many moves each player still needs to link (a move makes at
//! most three cells its own, so 2 cells away is one move and 15 against 18 is no
//! difference), who wins the race counted in moves (the side to move moves first), the
//! 18th placement's centre win, and the phase. All of it comes from the distances the
//! caller already has and one [`Reach`], as the hand-set formula did, so it costs what that
//! cost: the evaluation is called for every move judged one ply deep.
//!
//! Beside the linear part the fit may add a small hidden layer of rectified units over the
//! same features ([`VALUE_HIDDEN`] of them, none when the fit was linear), for what the
//! features say together rather than each on its own: a few hundred multiplications, next
//! to nothing beside the distances the features come from.
//!
//! The fitted logit is calibrated to the outcomes; the engine spreads it as widely as the
//! hand-set evaluation's ([`VALUE_SPREAD`], measured by the fit), the scale the search was
//! tuned to.

use punct_core::{Colour, Position, Variant};

use crate::evaluation::reach::Reach;
use crate::evaluation::{Distances, LOGIT_PER_CELL, centre_weight};

/// Always one: moving first, the model's intercept.
const TEMPO: usize = 0;
/// The opponent's best distance minus the mover's.
const GAP: usize = 1;
/// The same for the second best axes, each capped at 25.
const SECOND: usize = 2;
/// Central majority times the phase's centre weight.
const CENTRE: usize = 3;
/// Pieces in reserve, mover's minus opponent's.
const RESERVES: usize = 4;
/// The mover's movable pieces.
const MOBILE_MINE: usize = 5;
/// The opponent's movable pieces.
const MOBILE_THEIRS: usize = 6;
/// The opponent's dots the mover could cover with one jump.
const CUTS_MINE: usize = 7;
/// The mover's dots the opponent could cover with one jump.
const CUTS_THEIRS: usize = 8;
/// One-hot: the mover needs at least 1, 2, 3 or 4 moves to link (further: none set).
const MOVES_MINE: usize = 9;
/// The same for the opponent.
const MOVES_THEIRS: usize = MOVES_MINE + MOVE_BUCKETS;
/// The mover needs no more moves than the opponent: moving first, they link first.
const RACE_WON: usize = MOVES_THEIRS + MOVE_BUCKETS;
/// The opponent's moves to link minus the mover's, within ±4.
const RACE: usize = RACE_WON + 1;
/// The mover's next placement is their 18th and wins on the centre count.
const LAST_PLACEMENT_MINE: usize = RACE + 1;
/// The opponent's next placement would be.
const LAST_PLACEMENT_THEIRS: usize = LAST_PLACEMENT_MINE + 1;
/// How late the game is: 0 with full reserves, 1 once a player has placed all 18.
const LATE: usize = LAST_PLACEMENT_THEIRS + 1;
/// The distance gap times [`LATE`].
const GAP_LATE: usize = LATE + 1;
/// Central majority, unweighted.
const CENTRE_CELLS: usize = GAP_LATE + 1;

/// Buckets of moves still needed to link.
const MOVE_BUCKETS: usize = 4;

/// Number of features of a position.
pub const VALUE_FEATURES: usize = CENTRE_CELLS + 1;

/// Each feature's name, in order (for the weights file and reports).
pub const VALUE_FEATURE_NAMES: [&str; VALUE_FEATURES] = [
    "tempo",
    "distance gap",
    "second axis gap",
    "centre, phase weighted",
    "reserves",
    "movable, mine",
    "movable, theirs",
    "cuts, mine",
    "cuts, theirs",
    "1 move to link, mine",
    "2 moves to link, mine",
    "3 moves to link, mine",
    "4 moves to link, mine",
    "1 move to link, theirs",
    "2 moves to link, theirs",
    "3 moves to link, theirs",
    "4 moves to link, theirs",
    "race won",
    "race in moves",
    "last placement wins, mine",
    "last placement wins, theirs",
    "late",
    "distance gap, late",
    "centre cells",
];

// The fitted weights, written by `punct train value`.
include!("value_weights.rs");

/// Weights that give the hand-set evaluation: its terms with their hand-set weights, on the
/// logit scale. Fitting starts from them, and is judged against them.
pub fn hand_set_value_weights() -> [f32; VALUE_FEATURES] {
    let mut w = [0.0; VALUE_FEATURES];
    w[TEMPO] = 1.0;
    w[GAP] = 1.0;
    w[SECOND] = 0.25;
    w[CENTRE] = 1.0;
    w[RESERVES] = 0.05;
    w[MOBILE_MINE] = 0.2;
    w[MOBILE_THEIRS] = -0.2;
    w[CUTS_MINE] = 0.3;
    w[CUTS_THEIRS] = -0.3;
    w.map(|x| x * LOGIT_PER_CELL)
}

/// The features of `pos` for the side to move; `d` are its distances
/// ([`Distances::quick`] suffices).
pub fn value_features(pos: &Position, d: &Distances) -> [f32; VALUE_FEATURES] {
    let me = pos.turn();
    let [mine, theirs] = [me.index(), (!me).index()];
    let mut f = [0.0; VALUE_FEATURES];
    let (my_best, their_best) = (d.me.best(), d.op.best());
    f[TEMPO] = 1.0;
    f[GAP] = their_best as f32 - my_best as f32;
    f[SECOND] = d.op.second().min(25) as f32 - d.me.second().min(25) as f32;
    let centre = centre_count(pos, me);
    f[CENTRE] = centre * centre_weight(pos);
    f[CENTRE_CELLS] = centre;
    f[RESERVES] = f32::from(pos.reserve(me).total()) - f32::from(pos.reserve(!me).total());
    let reach = Reach::of(pos);
    f[MOBILE_MINE] = reach.movable[mine] as f32;
    f[MOBILE_THEIRS] = reach.movable[theirs] as f32;
    f[CUTS_MINE] = reach.coverable[mine].count() as f32;
    f[CUTS_THEIRS] = reach.coverable[theirs].count() as f32;
    let (my_moves, their_moves) = (moves_to_link(my_best), moves_to_link(their_best));
    if my_moves <= MOVE_BUCKETS {
        f[MOVES_MINE + my_moves - 1] = 1.0;
    }
    if their_moves <= MOVE_BUCKETS {
        f[MOVES_THEIRS + their_moves - 1] = 1.0;
    }
    f[RACE_WON] = f32::from(my_moves <= their_moves);
    f[RACE] = (their_moves as f32 - my_moves as f32).clamp(-4.0, 4.0);
    f[LAST_PLACEMENT_MINE] = f32::from(last_placement_wins(pos, me));
    f[LAST_PLACEMENT_THEIRS] = f32::from(last_placement_wins(pos, !me));
    let least = pos.reserve(me).total().min(pos.reserve(!me).total());
    f[LATE] = 1.0 - f32::from(least) / 18.0;
    f[GAP_LATE] = f[GAP] * f[LATE];
    f
}

/// The side to move's logit of winning under the linear `weights`.
pub fn value_logit(weights: &[f32; VALUE_FEATURES], features: &[f32; VALUE_FEATURES]) -> f32 {
    weights.iter().zip(features).map(|(w, x)| w * x).sum()
}

/// What a hidden layer adds to the linear logit: each unit's rectified weighted sum of the
/// features (its bias the weight of the first feature, the constant tempo), times its `output`
/// weight.
pub fn hidden_logit(
    hidden: &[[f32; VALUE_FEATURES]],
    output: &[f32],
    features: &[f32; VALUE_FEATURES],
) -> f32 {
    hidden
        .iter()
        .zip(output)
        .map(|(unit, out)| out * value_logit(unit, features).max(0.0))
        .sum()
}

/// The side to move's advantage in cells of connection distance, by the compiled-in model,
/// stretched by [`VALUE_SPREAD`]: the search's constants (the exploration term, the priors'
/// softmax) were tuned with the hand-set evaluation, whose values spread wider than the
/// outcomes bear out, and the calibrated model at its own spread plays no better than it.
pub fn learned_advantage(pos: &Position, d: &Distances) -> f32 {
    let features = value_features(pos, d);
    let logit = value_logit(&VALUE_WEIGHTS, &features)
        + hidden_logit(&VALUE_HIDDEN_WEIGHTS, &VALUE_OUTPUT, &features);
    VALUE_SPREAD * logit / LOGIT_PER_CELL
}

/// Moves still needed to link `distance` cells, a move making at most three one's own.
fn moves_to_link(distance: u32) -> usize {
    distance.div_ceil(3).max(1) as usize
}

/// `colour`'s central majority.
fn centre_count(pos: &Position, colour: Colour) -> f32 {
    let [w, b] = pos.centre_count();
    let (mine, theirs) = if colour == Colour::White {
        (w, b)
    } else {
        (b, w)
    };
    mine as f32 - theirs as f32
}

/// Whether `colour`'s next placement is their 18th and wins on the centre count as it stands.
fn last_placement_wins(pos: &Position, colour: Colour) -> bool {
    pos.variant() == Variant::Standard
        && pos.reserve(colour).total() == 1
        && centre_count(pos, colour) > 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluation::reach::Reach;

    const POSITIONS: [&str; 3] = [
        "standard w 0 -",
        "standard w 16 bCC2:1@1,wMD4:0@1,bEE4:4@1,wCE7:1@1,bLE8:3@1,bCG11:0@1,\
         wLH11:3@1,bEH15:0@1,wEJ13:4@1,bTJ15:0@1,wRF8:0@2,bTG11:4@2,wRG10:0@3",
        "standard w 44 bEB8:3@1,bRC6:5@1,wMD3:3@1,bCD5:2@1,wED12:4@1,bLE2:1@1,\
         wEE9:0@1,wRE10:5@1,wCF5:0@1,bTG5:3@1,bEH2:2@1,bTH7:2@1,bLI3:2@1,wRI5:4@1,\
         bEI10:1@1,wCJ3:0@1,bMJ5:4@1,wMJ9:5@1,bTJ11:5@1,bCL6:2@1,bRN6:0@1,bME5:3@2,\
         wLE7:0@2,bEG8:2@2,bTH4:3@2,wEJ4:4@2,wEJ9:3@2,wLD5:5@3",
    ];

    /// The hand-set evaluation as it was written before it was learned: the fit's baseline
    /// must be exactly that formula.
    fn hand_set_advantage(pos: &Position, d: &Distances) -> f32 {
        let me = pos.turn();
        let reach = Reach::of(pos);
        let [mine, theirs] = [me.index(), (!me).index()];
        d.op.best() as f32 - d.me.best() as f32
            + (d.op.second().min(25) as f32 - d.me.second().min(25) as f32) * 0.25
            + 1.0
            + centre_count(pos, me) * centre_weight(pos)
            + 0.05 * (f32::from(pos.reserve(me).total()) - f32::from(pos.reserve(!me).total()))
            + 0.2 * (reach.movable[mine] as f32 - reach.movable[theirs] as f32)
            + 0.3 * (reach.coverable[mine].count() as f32 - reach.coverable[theirs].count() as f32)
    }

    #[test]
    fn hand_set_weights_give_the_hand_set_evaluation() {
        for text in POSITIONS {
            let pos = Position::from_text(text).unwrap();
            let d = Distances::quick(&pos);
            let learned = value_logit(&hand_set_value_weights(), &value_features(&pos, &d));
            let hand = hand_set_advantage(&pos, &d) * LOGIT_PER_CELL;
            assert!((learned - hand).abs() < 1e-4, "{text}: {learned} vs {hand}");
        }
    }

    #[test]
    fn features_are_the_side_to_moves_view() {
        for text in POSITIONS {
            let pos = Position::from_text(text).unwrap();
            let d = Distances::quick(&pos);
            let f = value_features(&pos, &d);
            assert_eq!(f[TEMPO], 1.0);
            assert_eq!(f[GAP], d.op.best() as f32 - d.me.best() as f32);
            // Exactly one bucket at most per player, and the race read from the same counts.
            for first in [MOVES_MINE, MOVES_THEIRS] {
                assert!(f[first..first + MOVE_BUCKETS].iter().sum::<f32>() <= 1.0);
            }
            assert!((0.0..=1.0).contains(&f[LATE]));
        }
    }

    #[test]
    fn the_compiled_in_value_favours_a_mover_one_move_from_linking() {
        // Black, to move, links with one move (a position of the tactics suite).
        let near = Position::from_text(
            "standard b 15 wCB2:0@1,wCB5:0@1,wEB9:0@1,bRD12:1@1,wEE10:1@1,bCH15:0@1,\
             wTI11:0@1,bCI13:2@1,wEI16:0@1,bEK5:0@1,bMK6:1@1,bLK14:5@1,bEL10:0@1,wEL16:1@1",
        )
        .unwrap();
        let start = Position::new(Variant::Standard);
        let value = |pos: &Position| learned_advantage(pos, &Distances::quick(pos));
        assert!(value(&near) > value(&start).max(0.0));
    }
}
