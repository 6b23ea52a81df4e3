// Written by `punct train value`; do not edit by hand.
// fitted on /work/scratch/value/b1.positions /work/scratch/value/b2.positions /work/scratch/value/b3.positions /work/scratch/value/b4.positions /work/scratch/value/b5.positions: 70169 positions of 1600 games, 400 games held out (one in 5); L2 0.001, 5 Newton steps
// the hand-set evaluation's logits spread 1.423 times as wide: the engine stretches the fitted logit by that
// held-out log-loss (nats), all (17407 positions): learned 0.5768 (as played, stretched: 0.5813), hand-set 0.6001, constant 0.6931
// held-out log-loss (nats), no win in one for the mover (17036 positions): learned 0.5838 (as played, stretched: 0.5891), hand-set 0.6067, constant 0.6933
/// How much wider than the fitted logit the engine spreads its values: as wide as the
/// hand-set evaluation's over the training positions.
pub const VALUE_SPREAD: f32 = 1.422602;
/// The compiled-in value weights, one per feature, on the logit scale.
pub const VALUE_WEIGHTS: [f32; VALUE_FEATURES] = [
    0.43548104, // tempo
    0.20217943, // distance gap
    0.05373476, // second axis gap
    0.3156256, // centre, phase weighted
    -0.15489806, // reserves
    0.14547963, // movable, mine
    -0.15460582, // movable, theirs
    0.073962286, // cuts, mine
    -0.072515145, // cuts, theirs
    0.012043168, // 1 move to link, mine
    -0.08946424, // 2 moves to link, mine
    -0.07352386, // 3 moves to link, mine
    -0.022434074, // 4 moves to link, mine
    -0.15067056, // 1 move to link, theirs
    0.065408036, // 2 moves to link, theirs
    0.066103205, // 3 moves to link, theirs
    0.042438027, // 4 moves to link, theirs
    -0.020925326, // race won
    -0.1228396, // race in moves
    0.5337634, // last placement wins, mine
    -0.08526692, // last placement wins, theirs
    0.14987132, // late
    0.007523153, // distance gap, late
    -0.037271578, // centre cells
];
/// Hidden units of the value function.
pub const VALUE_HIDDEN: usize = 0;
/// Each hidden unit's weights, one per feature.
pub const VALUE_HIDDEN_WEIGHTS: [[f32; VALUE_FEATURES]; VALUE_HIDDEN] = [];
/// Each hidden unit's weight in the logit.
pub const VALUE_OUTPUT: [f32; VALUE_HIDDEN] = [];
