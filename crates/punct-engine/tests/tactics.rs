//! The tactics suite: positions with a win in one (by connection or by the centre count at
//! the 18th placement), and positions where the opponent threatens to win and must be
//! stopped, some only by jumping onto their chain, and traps where the most tempting move
//! loses at once. Any winning or saving move is accepted, at a small node budget.

use std::sync::atomic::AtomicBool;

use punct_core::{Game, Move, Position};
use punct_engine::evaluation::Distances;
use punct_engine::learned::{hand_set_value_weights, value_features, value_logit};
use punct_engine::tactics::{Defence, cannot_stop, defend, winning_move};
use punct_engine::{Engine, Options, SearchLimits};

/// Found in self-play of the reference players: the side to move wins at once.
const WINS: &[&str] = &[
    "basic w 10 bCC2:0@1,wEC7:1@1,wEF10:1@1,bEH8:3@1,wCH11:2@1,wCJ10:2@1,bCJ12:0@1,bTK7:0@1,bEK8:5@1,wEN12:1@1",
    "standard b 15 wCB2:0@1,wCB5:0@1,wEB9:0@1,bRD12:1@1,wEE10:1@1,bCH15:0@1,wTI11:0@1,bCI13:2@1,wEI16:0@1,bEK5:0@1,bMK6:1@1,bLK14:5@1,bEL10:0@1,wEL16:1@1",
    "standard w 20 bEA7:0@1,wCB2:0@1,bCB4:2@1,bEB10:0@1,bCD3:2@1,wCD5:0@1,wEE9:0@1,wTF7:0@1,bEG2:2@1,wEH12:1@1,bTI3:0@1,wLI15:4@1,wEK15:1@1,bRM15:3@1,wEM17:5@1,bMO8:0@1,wTB3:4@2,bEB4:4@2",
    "standard w 22 bEA7:0@1,wCB2:0@1,bCB4:2@1,bEB10:0@1,bCD3:2@1,wCD5:0@1,wEE9:0@1,wTF7:0@1,bEG2:2@1,wMG13:1@1,wEH12:1@1,bTI3:0@1,wLI15:4@1,wEK15:1@1,bRM15:3@1,wEM17:5@1,bMO12:0@1,wTB3:4@2,bEB4:4@2",
    "basic w 26 wCB2:0@1,wCB5:0@1,bCB7:2@1,bTB8:4@1,wTD7:0@1,bLD8:4@1,wLE5:1@1,wRF7:5@1,wMG10:3@1,bEG15:0@1,wLH2:3@1,bCH8:2@1,wEI13:0@1,wEI16:0@1,bEJ10:2@1,bLL11:4@1,bEN8:0@1,bEN11:0@1,bTB8:5@2,wEG10:1@2,wEI14:2@2",
    "standard b 17 wCB2:0@1,wCB5:0@1,wEB9:0@1,wEE11:3@1,bCI2:1@1,bCJ5:0@1,bEJ14:0@1,wEJ15:1@1,bTJ17:0@1,bTK8:0@1,bRK10:5@1,wRL6:3@1,bTL16:1@1,wMN7:5@1,wRO14:1@1,wTQ13:2@1",
    "standard b 21 bCA7:0@1,bCB4:2@1,wRB8:1@1,bTC10:1@1,bEE3:2@1,bRF3:3@1,wCF10:1@1,wTG3:0@1,bEH1:2@1,bTH2:3@1,wCH8:1@1,wLI6:0@1,bTJ3:0@1,wEJ12:2@1,bRL13:3@1,wEN11:2@1,wTO7:3@1,wMP11:1@1",
    "standard w 30 bEA7:0@1,bCB4:2@1,bLB10:0@1,wEC8:0@1,wLC10:0@1,bTD2:0@1,bCD3:2@1,wCD5:0@1,wMD11:5@1,wTE9:1@1,wEF4:0@1,bEG1:2@1,wLG3:4@1,bLI2:2@1,bTI12:0@1,wEJ4:0@1,wTJ12:4@1,wEK5:4@1,wTL5:0@1,wTL16:5@1,bEA6:4@2,bMB9:3@2,wCF2:0@2",
];

/// The side to move has one placement left and more of the centre.
const CENTRE_WINS: &[&str] = &[
    "standard w 52 wEB7:3@1,wEC7:5@1,bRC8:0@1,wTD6:0@1,bLE2:5@1,wLE6:0@1,bMF4:0@1,bEF8:0@1,wMG3:2@1,bLG10:1@1,wTH6:0@1,wRH14:2@1,wTI3:0@1,bTI5:0@1,bTI8:0@1,bCI12:1@1,wCJ3:0@1,wLJ14:5@1,bRJ15:0@1,bTL6:4@1,wTL7:2@1,wCL10:0@1,bCL13:1@1,bTN13:1@1,bMO9:4@1,wEO15:2@1,bEQ16:1@1,wTE5:4@2,bEF7:1@2,bTJ13:2@2,wEK14:0@2,bEN13:3@2,wTO15:5@2,wRF6:4@3",
    "standard b 53 wEB7:3@1,wEC7:5@1,bRC8:0@1,wTD6:0@1,bLE2:5@1,wLE6:0@1,bMF4:0@1,bEF8:0@1,bLG10:1@1,wTH6:0@1,wRH14:2@1,wTI3:0@1,bTI5:0@1,bTI8:0@1,bCI12:1@1,wCJ3:0@1,wLJ14:5@1,bRJ15:0@1,bTL6:4@1,wTL7:2@1,wCL10:0@1,bCL13:1@1,bTN13:1@1,bMO9:4@1,wMO11:3@1,wEO15:2@1,bEQ16:1@1,wTE5:4@2,bEF7:1@2,bTJ13:2@2,wEK14:0@2,bEN13:3@2,wTO15:5@2,wRF6:4@3",
    "standard b 55 wEB7:3@1,wEC7:5@1,bRC8:0@1,wTD6:0@1,bLE2:5@1,wLE6:0@1,bMF4:0@1,bEF8:0@1,bLG10:1@1,wRH14:2@1,wTI3:0@1,bTI5:0@1,wTI6:4@1,bCI12:1@1,wCJ3:0@1,bTJ9:5@1,wLJ14:5@1,bRJ15:0@1,bTL6:4@1,wTL7:2@1,wCL10:0@1,bCL13:1@1,bTN13:1@1,bMO9:4@1,wMO11:3@1,wEO15:2@1,bEQ16:1@1,wTE5:4@2,bEF7:1@2,bTJ13:2@2,wEK14:0@2,bEN13:3@2,wTO15:5@2,wRF6:4@3",
    "basic b 43 wCB2:0@1,bCB4:2@1,wCC6:0@1,bCE5:1@1,wTE6:1@1,bTE12:5@1,bTF5:0@1,wEF14:5@1,bRG3:2@1,bEH1:2@1,wTH8:1@1,wTH12:0@1,bEI8:1@1,bTJ5:5@1,wTJ13:2@1,wEJ17:0@1,bMK13:4@1,bRL6:0@1,bEL10:1@1,wML15:0@1,wTN10:0@1,bEO12:1@1,wMO15:2@1,wEP13:0@1,bLQ11:1@1,bTQ15:0@1,bMC4:0@2,wTD5:5@2,wLG8:0@2,bTM8:3@2,wEN10:5@2,bLC4:4@3",
    "standard w 50 bEA4:0@1,bCB2:0@1,wTB6:0@1,wCC4:2@1,bTC8:0@1,bCD2:1@1,wED12:0@1,bTE10:0@1,wLF6:4@1,wTF8:0@1,wMF11:5@1,wTF13:0@1,wEG14:0@1,bTH5:0@1,bEH6:1@1,wLH9:2@1,wTH12:0@1,wRI3:2@1,wEI5:5@1,wMJ3:2@1,wTJ11:2@1,bEK8:1@1,bLL6:0@1,wCL14:1@1,wEM6:4@1,bTM10:0@1,bLN8:1@1,bEN12:1@1,bMO11:5@1,bRO13:1@1,bRB3:1@2,bTE10:4@2,wRI5:5@2,bTK4:1@2",
    "standard w 52 bEA4:0@1,bCB2:0@1,wTB6:0@1,wCC4:2@1,bTC8:0@1,bCD2:1@1,bTE10:0@1,wLF6:4@1,wTF8:0@1,wMF11:5@1,wTF13:0@1,wEG14:0@1,bTH5:0@1,bEH6:1@1,wLH9:2@1,wTH12:0@1,wRI3:2@1,wEI5:5@1,wMJ3:2@1,wTJ11:2@1,bEK8:1@1,bLL6:0@1,wCL14:1@1,wEM6:4@1,bTM10:0@1,bEN12:1@1,bMO11:5@1,bRO13:1@1,bRB3:1@2,bTE10:4@2,wEG12:2@2,wRI5:5@2,bTK4:1@2,bLJ4:2@3",
];

/// The opponent threatens to win at once; placements can stop it.
const BLOCKS: &[&str] = &[
    "basic b 9 bCC2:0@1,wEC7:1@1,wEF10:1@1,bEH8:3@1,wCH11:2@1,wCJ10:2@1,bCJ12:0@1,bEK8:5@1,wEN12:1@1",
    "standard w 14 wCB2:0@1,bCB4:2@1,wLB6:5@1,wCD5:0@1,bEE3:2@1,wEF9:1@1,bMG5:4@1,wEH3:4@1,wEI12:1@1,bEK8:1@1,bML12:1@1,wLM15:2@1,bCP12:2@1,bRP16:4@1",
    "basic b 31 wTB3:0@1,bCB4:2@1,bED1:2@1,bCD3:2@1,wCD5:0@1,wEE9:0@1,wLF1:2@1,wEF4:0@1,bEG6:1@1,wEG14:0@1,bTH5:0@1,wRH11:4@1,wTI14:0@1,bTI16:0@1,wRJ3:5@1,wMJ6:0@1,bEJ8:1@1,wEJ17:0@1,wLK16:0@1,bEM10:1@1,bLN13:4@1,bTO10:1@1,bTQ11:0@1,wCD4:2@2,bTE3:4@2,bTI15:4@2,wME4:5@3",
    "standard w 14 wCB2:0@1,wCB5:0@1,wEB9:0@1,wTD6:4@1,bRD12:1@1,wEE10:1@1,bCH15:0@1,bCI13:2@1,wEI16:0@1,bEK5:0@1,bMK6:1@1,bLK14:5@1,bEL10:0@1,wEL16:1@1",
    "standard b 15 wCB2:0@1,bCB4:2@1,bCC2:0@1,wMC10:2@1,wED3:0@1,wCD5:0@1,wED9:0@1,bEE8:0@1,bEF11:0@1,bTG2:3@1,wTG13:0@1,wLG14:3@1,bEH15:0@1,wLI15:3@1,bEK16:1@1",
    "basic b 15 wCB2:0@1,bCB4:2@1,bEC3:0@1,bCE5:1@1,wCE6:1@1,wEG12:0@1,bEI8:1@1,bMI10:0@1,bEI16:0@1,wTJ13:0@1,wEJ14:1@1,wEJ17:0@1,bLP13:2@1,wMD5:4@2",
    "basic w 18 wCB2:0@1,wCB5:0@1,bCB7:2@1,bTB8:4@1,bTD5:2@1,wED9:0@1,wLE5:1@1,wRF7:5@1,bEG15:0@1,wLH2:3@1,bCH12:0@1,wEI13:0@1,wEI16:0@1,bEJ10:2@1,wEK10:0@1,bLL11:4@1,bEN8:0@1,bEN11:0@1",
    "standard w 18 wCB2:0@1,wCB5:0@1,wEB9:0@1,wEE11:3@1,bCI2:1@1,bCJ5:0@1,bEJ14:0@1,wEJ15:1@1,bTJ17:0@1,bTK8:0@1,bRK10:5@1,wRL6:3@1,bTL16:1@1,bTM5:2@1,wMN7:5@1,wRO14:1@1,wTQ13:2@1",
];

/// The opponent threatens to win at once; only moving a piece (onto their chain) stops it.
const CUTS: &[&str] = &[
    "standard b 21 bEB3:4@1,bTB5:0@1,wMD12:4@1,bTE5:0@1,bCF3:0@1,wCG3:0@1,bEH1:2@1,bTI3:0@1,wCI6:1@1,bTJ3:3@1,wTJ14:3@1,wTL12:2@1,bTM6:0@1,wEM10:1@1,wMN13:5@1,wRN15:0@1,bCO8:1@1,wLO10:2@1,wRG3:3@2",
    "standard b 37 bEB3:4@1,wMD12:4@1,bCF3:0@1,bEF10:2@1,wCG3:0@1,wTG13:0@1,bEH1:2@1,wTH6:1@1,bTI5:0@1,wCI6:1@1,wTI14:2@1,bTJ3:3@1,wTJ14:3@1,bTK11:0@1,wTL12:2@1,wEL16:0@1,bTM6:0@1,bLM9:0@1,bLM16:4@1,wMN13:5@1,bCO8:1@1,wLO10:2@1,bMO12:2@1,wTQ11:0@1,bTF3:3@2,wRG3:3@2,bTI5:2@2,wEQ10:1@2,wRF2:0@3",
    "standard b 17 wCB2:0@1,bCB4:2@1,wLB6:5@1,wCD5:0@1,bEE3:2@1,wEF9:1@1,bMG5:4@1,wEI12:1@1,bEK8:1@1,wTK14:0@1,bML12:1@1,wLM15:2@1,bEN11:1@1,bCP12:2@1,bRP16:4@1,wEB3:5@2",
    "standard b 19 wCB2:0@1,bCB4:2@1,wLB6:5@1,wCD5:0@1,bEE3:2@1,wEF9:1@1,bMG5:4@1,wEI12:1@1,wTI13:1@1,wTK14:0@1,bML12:1@1,wLM15:2@1,bEN11:1@1,bCP12:2@1,bRP16:4@1,wEB3:5@2,bEK12:2@2",
    "standard b 23 wCB2:0@1,bCB4:2@1,wLB6:5@1,wCD5:0@1,bEE3:2@1,wTE13:0@1,wEF9:1@1,bMG5:4@1,wEI12:1@1,bEK8:1@1,wTK14:0@1,wTK15:1@1,bML12:1@1,wLM15:2@1,bEN11:1@1,bCP12:2@1,bRP16:4@1,wEB3:5@2,bEK12:3@2",
    "basic w 12 wCB2:0@1,bCB4:2@1,bCD3:2@1,wCD5:0@1,wME12:2@1,wEF4:0@1,bEG6:1@1,wRH11:4@1,wRJ3:5@1,bEJ8:1@1,bEM10:1@1,bTO10:1@1",
];

/// Positions from self-play where a move the hand-set static evaluation (the one they were
/// collected with, before the evaluation was learned) favours, ignoring the end of the
/// game, loses at once: it lifts the piece that covers the opponent's line, or it is
/// the 18th placement while the opponent holds more of the centre.
const TRAPS: &[&str] = &[
    "standard w 36 wMA6:2@1,bLA8:5@1,wLB1:3@1,wTC5:4@1,wED4:4@1,bMD9:4@1,bME7:3@1,bRE8:4@1,bCG7:2@1,wLH10:0@1,bRI7:5@1,wCI13:0@1,bEJ7:0@1,wCJ9:2@1,wEJ17:0@1,wTK11:1@1,bCL8:1@1,bEM10:1@1,wEM12:5@1,bTP10:3@1,bEP12:1@1,wEA6:3@2,bLF8:4@2,bEI7:3@2",
    "standard w 58 bMB5:1@1,wCC9:2@1,bTD5:3@1,bED7:4@1,wTF7:2@1,wEG10:2@1,wTH8:1@1,wLH10:4@1,bCJ8:1@1,wEJ9:2@1,bRJ12:4@1,wLK11:1@1,wEK12:5@1,bEK13:5@1,bTM15:5@1,wMO12:4@1,bTO15:0@1,wTP11:5@1,bTP13:3@1,wED9:0@2,bTE8:5@2,wCF10:2@2,bEH11:0@2,bLJ8:2@2,wRL12:0@2,bEL13:1@2,wRG10:2@3,wMJ9:5@3,bLJ11:1@3,wTG10:5@4,bMI8:2@4,bCI10:1@4,bRI10:4@5",
    "standard w 62 wCC6:1@1,bMF7:2@1,wTF9:1@1,wLG8:3@1,bLG10:3@1,wEG12:1@1,bEH6:0@1,bCH8:0@1,wEH11:4@1,wTH14:0@1,bTH15:3@1,bTI2:1@1,bEI15:0@1,wTJ2:3@1,wTJ9:0@1,wRJ10:5@1,bCK10:0@1,wMK12:1@1,wCK15:1@1,wTM15:3@1,wLF11:4@2,bRG10:1@2,bEH7:4@2,bEH9:4@2,bLI13:5@2,wRJ8:0@2,bRH7:1@3,wEH12:5@3,wMJ10:5@3,bMI11:3@4,wEJ9:1@4",
    "standard w 72 wTA8:4@1,wEB7:0@1,bEE11:3@1,wEF4:2@1,bCF8:1@1,bMF10:5@1,bLF11:3@1,bCG5:0@1,bTG8:5@1,bEH3:2@1,bTI5:1@1,bEI9:0@1,bMJ4:5@1,wEJ6:2@1,wMJ8:3@1,wLJ11:1@1,wRK3:0@1,bRK4:5@1,wMK10:0@1,wTM6:2@1,wTF4:4@2,bEH4:3@2,bLH8:3@2,wEH10:1@2,bTI8:4@2,wRJ6:2@2,wLJ11:0@2,wCG5:1@3,bRH5:1@3,bTH9:2@3,wTI9:0@3,bTI10:4@3,wCI6:2@4,wTI9:3@4",
];

/// From a game greedy won in eight moves: White threatens C2-D3:2, and 16 of Black's 3 334
/// moves stop it (the engine gave up looking for them on a short clock).
const RACE: &str = "standard b 13 wTC2:0@1,wEC11:0@1,bED4:1@1,wCD6:0@1,wCE3:2@1,wTE9:1@1,bLF6:0@1,bLF7:2@1,bMF9:3@1,wTH4:0@1,wMJ3:5@1,bEJ13:1@1,bEL15:4@1";

/// From self-play: the opponent's last move threatens wins in one that no single move stops
/// (the side to move has no win of its own).
const DOUBLE_THREATS: &[&str] = &[
    "standard w 48 wCA4:0@1,bCB3:1@1,bCC5:2@1,wEE3:2@1,bEF4:2@1,bEG5:5@1,wRH4:4@1,bRH7:1@1,bTI3:5@1,bLJ5:4@1,wTJ9:1@1,bTJ10:3@1,wLK5:1@1,bTL5:0@1,bTM7:2@1,wCN7:1@1,wLN11:1@1,wRO9:0@1,bEO10:3@1,bLP13:3@1,bMQ10:0@1,wEA5:5@2,wED3:3@2,bRE4:2@2,wMI8:4@2,bTJ10:0@2,wEK5:2@2,wMM6:1@2,bEJ9:1@3,bML5:1@3",
    "standard b 31 bLA5:3@1,bEB3:3@1,wCC8:2@1,bME2:0@1,wRE8:2@1,wEE9:4@1,bCE10:1@1,bRF4:0@1,wCG10:1@1,bLG12:3@1,wMH8:5@1,wEH10:1@1,wTJ13:1@1,bCJ16:1@1,wLM14:1@1,wEN14:5@1,wEQ12:3@1,wLB8:0@2,bMD9:4@2,bEF11:0@2,bRG12:2@2,wMD8:1@3",
    "standard w 28 bMB10:3@1,bEC10:0@1,wTD7:2@1,bED9:5@1,wED12:0@1,bCE7:0@1,bLF4:2@1,bCG3:0@1,wEG10:2@1,bEH10:5@1,bRJ3:4@1,bTK4:4@1,wRL10:2@1,bRM8:0@1,bLP8:1@1,wLQ10:1@1,wMD10:5@2,bME9:0@2,wLO9:2@2,wEP9:1@2,wTD9:5@3",
    "standard b 51 bLC2:4@1,wLC3:4@1,wMC7:0@1,wEC11:0@1,wTD6:1@1,wTE5:2@1,bTF8:5@1,wTG5:1@1,wCH6:2@1,bLI3:1@1,bMI8:3@1,wRI9:3@1,wRI10:4@1,wEK4:2@1,wCK6:1@1,wTK8:2@1,bRK10:5@1,bCL6:1@1,wMM6:4@1,bRQ10:5@1,bTD3:2@2,bEF8:4@2,bEI8:1@2,wEI10:5@2,wLK4:1@2,bMK5:4@2,wTM6:2@2,bTJ4:0@3,bEK5:4@3,wEK10:1@3",
    "standard b 55 wTB9:0@1,bCC4:0@1,bTC7:5@1,bCC9:0@1,bTD11:3@1,bME9:0@1,wTF8:5@1,wMF10:2@1,wEF12:1@1,bLG1:2@1,bMG2:2@1,bRG7:1@1,wTG11:3@1,wEH6:0@1,wCH9:2@1,wEI2:3@1,wRI13:0@1,wTJ9:5@1,wRK4:3@1,bEK10:2@1,wTM5:1@1,bED11:5@2,wCF10:2@2,wEF12:2@2,wLG9:4@2,bEH2:5@2,wMH4:0@2,wLH9:0@2,bLK10:1@2,bTF11:0@3,bRJ9:4@3",
    "standard b 33 wEA7:0@1,wEA8:4@1,wRB2:5@1,wTB4:2@1,wTC1:3@1,wLD8:1@1,bED10:4@1,wED11:4@1,wLE10:1@1,wTG12:3@1,bTH9:1@1,bRH12:1@1,wCH14:2@1,bTI10:5@1,wRI13:0@1,bLI15:2@1,wTI16:4@1,wCL14:2@1,wML16:1@1,bEM15:2@1,bEO14:5@1,wMO15:4@1,bRD10:4@2,wEJ15:2@2,bLK15:1@2,bEO14:2@2",
];

/// The positions before those: the side to move, neither threatened nor able to win at
/// once, makes a double threat with its next move.
const MAKES_DOUBLE_THREATS: &[&str] = &[
    "standard b 47 wCA4:0@1,bCB3:1@1,bCC5:2@1,wEE3:2@1,bEF4:2@1,bEG5:5@1,wRH4:4@1,bRH7:1@1,bTI3:5@1,bLJ5:4@1,wTJ9:1@1,bTJ10:3@1,wLK5:1@1,bTL5:0@1,wCN7:1@1,wLN11:1@1,wRO9:0@1,bEO10:3@1,bLP13:3@1,bMQ10:0@1,wEA5:5@2,wED3:3@2,bRE4:2@2,wMI8:4@2,bTJ10:0@2,wEK5:2@2,wMM6:1@2,bEJ9:1@3,bML5:1@3",
    "standard w 30 bLA5:3@1,bEB3:3@1,wCC8:2@1,bME2:0@1,wEE9:4@1,bCE10:1@1,bRF4:0@1,wCG10:1@1,bLG12:3@1,wMH8:5@1,wEH10:1@1,wTJ13:1@1,bCJ16:1@1,wLM14:1@1,wEN14:5@1,wEQ12:3@1,wLB8:0@2,bMD9:4@2,bEF11:0@2,bRG12:2@2,wMD8:1@3",
    "standard b 27 bMB10:3@1,bEC10:0@1,wTD7:2@1,bED9:5@1,wED12:0@1,bCE7:0@1,bLF4:2@1,bCG3:0@1,wEG10:2@1,bRJ3:4@1,bTK4:4@1,wRL10:2@1,bRM8:0@1,bEM10:4@1,bLP8:1@1,wLQ10:1@1,wMD10:5@2,bME9:0@2,wLO9:2@2,wEP9:1@2,wTD9:5@3",
    "standard w 50 bLC2:4@1,wLC3:4@1,wMC7:0@1,wEC11:0@1,wTD6:1@1,wTE5:2@1,bTF8:5@1,wTG5:1@1,wCH6:2@1,bLI3:1@1,bMI8:3@1,wRI9:3@1,wRI10:4@1,wEK4:2@1,wCK6:1@1,bRK10:5@1,bCL6:1@1,wTL8:2@1,wMM6:4@1,bRQ10:5@1,bTD3:2@2,bEF8:4@2,bEI8:1@2,wEI10:5@2,wLK4:1@2,bMK5:4@2,wTM6:2@2,bTJ4:0@3,bEK5:4@3,wEK10:1@3",
    "standard w 54 wTB9:0@1,bCC4:0@1,bTC7:5@1,bCC9:0@1,bTD11:3@1,bME9:0@1,wMF10:2@1,wEF12:1@1,bLG1:2@1,bMG2:2@1,bRG7:1@1,wTG11:3@1,wEH6:0@1,wCH9:2@1,wEI2:3@1,wRI13:0@1,wTJ9:5@1,wRK4:3@1,bEK10:2@1,wTM5:1@1,wTB8:4@2,bED11:5@2,wCF10:2@2,wEF12:2@2,wLG9:4@2,bEH2:5@2,wMH4:0@2,wLH9:0@2,bLK10:1@2,bTF11:0@3,bRJ9:4@3",
    "standard w 32 wEA7:0@1,wEA8:4@1,wRB2:5@1,wTB4:2@1,wLD8:1@1,bED10:4@1,wED11:4@1,wLE10:1@1,wTG12:3@1,bTH9:1@1,bRH12:1@1,wCH14:2@1,bTI10:5@1,wRI13:0@1,bLI15:2@1,wTI16:4@1,wCL14:2@1,wML16:1@1,bEM15:2@1,bEO14:5@1,wMO15:4@1,bRD10:4@2,wEJ15:2@2,bLK15:1@2,bEO14:2@2",
];

fn engine_move(text: &str) -> (Position, Move) {
    let pos = Position::from_text(text).unwrap();
    let mut engine = Engine::new(Options::default());
    let stop = AtomicBool::new(false);
    let result = engine.search(
        &Game::from_position(pos.clone()),
        &SearchLimits::nodes(200),
        &stop,
        &mut |_| {},
    );
    let mv = result.best_move.expect("a move");
    assert!(pos.is_legal(mv), "{text}: illegal {mv}");
    (pos, mv)
}

/// Whether the side to move in `pos` has a move that wins at once, by trying them all.
fn can_win_now(pos: &mut Position) -> bool {
    let me = pos.turn();
    pos.legal_moves().into_iter().any(|mv| {
        let undo = pos.make(mv);
        let won = pos.decisive_outcome().is_some_and(|o| o.winner == Some(me));
        pos.unmake(undo);
        won
    })
}

fn assert_wins(texts: &[&str]) {
    for text in texts {
        let (mut pos, mv) = engine_move(text);
        let me = pos.turn();
        pos.make(mv);
        let outcome = pos.decisive_outcome();
        assert!(
            outcome.is_some_and(|o| o.winner == Some(me)),
            "{text}: {mv} does not win ({outcome:?})"
        );
    }
}

/// Whether `mv` neither loses at once nor leaves the opponent a win in one, as
/// `can_win` judges wins in one.
fn saves(pos: &mut Position, mv: Move, can_win: fn(&mut Position) -> bool) -> bool {
    let me = pos.turn();
    let undo = pos.make(mv);
    let safe = match pos.decisive_outcome() {
        Some(o) => o.winner != Some(!me),
        None => !can_win(pos),
    };
    pos.unmake(undo);
    safe
}

fn assert_saves(texts: &[&str]) {
    for text in texts {
        let (mut pos, mv) = engine_move(text);
        assert!(
            saves(&mut pos, mv, can_win_now),
            "{text}: {mv} loses or lets the opponent win"
        );
    }
}

#[test]
fn takes_wins_in_one() {
    assert_wins(WINS);
}

#[test]
fn wins_on_the_centre_count() {
    assert_wins(CENTRE_WINS);
}

/// Every suite position and, for variety, those after every 7th of its legal moves: most
/// are a move or two from a connection, where wins in one come and go.
fn near_wins() -> Vec<Position> {
    let mut out = Vec::new();
    for text in WINS
        .iter()
        .chain(CENTRE_WINS)
        .chain(BLOCKS)
        .chain(CUTS)
        .chain(TRAPS)
        .chain(DOUBLE_THREATS)
        .chain(MAKES_DOUBLE_THREATS)
    {
        let mut pos = Position::from_text(text).unwrap();
        out.push(pos.clone());
        for mv in pos.legal_moves().into_iter().step_by(7) {
            let undo = pos.make(mv);
            if pos.decisive_outcome().is_none() {
                out.push(pos.clone());
            }
            pos.unmake(undo);
        }
    }
    out
}

#[test]
fn the_winning_move_found_is_the_first_legal_move_that_wins() {
    let mut with_win = 0;
    for mut pos in near_wins() {
        let me = pos.turn();
        let first = pos.legal_moves().into_iter().find(|&mv| {
            let undo = pos.make(mv);
            let won = pos.decisive_outcome().is_some_and(|o| o.winner == Some(me));
            pos.unmake(undo);
            won
        });
        let moves = pos.legal_moves();
        assert_eq!(winning_move(&mut pos, None), first, "{pos}");
        assert_eq!(winning_move(&mut pos, Some(&moves)), first, "{pos}");
        with_win += usize::from(first.is_some());
    }
    assert!(
        with_win > 100,
        "only {with_win} positions with a win in one"
    );
}

#[test]
fn blocks_a_win_in_one() {
    assert_saves(BLOCKS);
}

#[test]
fn the_stoppers_are_every_move_after_which_no_win_in_one_is_left() {
    for text in BLOCKS.iter().chain(CUTS).chain([&RACE]) {
        let mut pos = Position::from_text(text).unwrap();
        let moves = pos.legal_moves();
        let Defence::Stoppers(mut found) = defend(&mut pos, &moves, &|| false) else {
            panic!("{text}: no stoppers");
        };
        let mut all: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&mv| saves(&mut pos, mv, |p| winning_move(p, None).is_some()))
            .collect();
        found.sort();
        all.sort();
        assert_eq!(found, all, "{text}");
    }
    assert_saves(&[RACE]);
}

#[test]
fn cuts_a_chain_by_jumping() {
    assert_saves(CUTS);
}

#[test]
fn never_plays_a_move_that_loses_at_once() {
    for text in TRAPS {
        let (mut pos, mv) = engine_move(text);
        let me = pos.turn();
        pos.make(mv);
        let outcome = pos.decisive_outcome();
        assert!(
            outcome.is_none_or(|o| o.winner != Some(!me)),
            "{text}: {mv} loses at once ({outcome:?})"
        );
    }
}

/// Whether the side to move in `pos` has a move that loses at once and is the one the
/// hand-set static evaluation, blind to the end of the game, likes best.
fn tempted_to_lose(pos: &mut Position) -> bool {
    let me = pos.turn();
    let best = pos
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let undo = pos.make(mv);
            let value = -value_logit(
                &hand_set_value_weights(),
                &value_features(pos, &Distances::quick(pos)),
            );
            let loses = pos
                .decisive_outcome()
                .is_some_and(|o| o.winner == Some(!me));
            pos.unmake(undo);
            (value, loses)
        })
        .max_by(|a, b| a.0.total_cmp(&b.0));
    best.is_some_and(|(_, loses)| loses)
}

#[test]
fn suite_positions_are_what_they_claim() {
    for text in TRAPS {
        let mut pos = Position::from_text(text).unwrap();
        assert!(!can_win_now(&mut pos), "{text}: a win in one");
        assert!(tempted_to_lose(&mut pos), "{text}: no trap");
    }
    for text in WINS.iter().chain(CENTRE_WINS) {
        assert!(
            can_win_now(&mut Position::from_text(text).unwrap()),
            "{text}"
        );
    }
    for text in BLOCKS.iter().chain(CUTS) {
        let pos = Position::from_text(text).unwrap();
        assert!(!can_win_now(&mut pos.clone()), "{text}");
        let mut passed = pos.passed();
        assert!(can_win_now(&mut passed), "{text}: no threat");
    }
}

#[test]
fn the_reference_players_take_wins_and_stop_threats() {
    use punct_engine::players::{AlphaBeta, Greedy, Player};
    let players: [Box<dyn Player>; 2] = [Box::new(Greedy), Box::new(AlphaBeta)];
    for mut player in players {
        let name = player.name();
        let mut choose = |text: &str| {
            let pos = Position::from_text(text).unwrap();
            let mv = player
                .choose(&Game::from_position(pos.clone()), &SearchLimits::default())
                .unwrap();
            assert!(pos.is_legal(mv), "{name}: {text}: illegal {mv}");
            (pos, mv)
        };
        for text in WINS.iter().chain(CENTRE_WINS) {
            let (mut pos, mv) = choose(text);
            let me = pos.turn();
            pos.make(mv);
            let outcome = pos.decisive_outcome();
            assert!(
                outcome.is_some_and(|o| o.winner == Some(me)),
                "{name}: {text}: {mv} does not win"
            );
        }
        for text in BLOCKS.iter().chain(CUTS) {
            let (mut pos, mv) = choose(text);
            assert!(
                saves(&mut pos, mv, can_win_now),
                "{name}: {text}: {mv} loses or allows a win"
            );
        }
    }
}

/// Whether every legal move of the side to move in `pos` loses at once or leaves the
/// opponent a win in one, by trying them all (and, after each, the opponent's moves: those
/// that won before first).
fn every_move_loses(pos: &mut Position) -> bool {
    let me = pos.turn();
    let mut wins: Vec<Move> = Vec::new();
    let moves = pos.legal_moves();
    !moves.is_empty()
        && moves.into_iter().all(|mv| {
            let undo = pos.make(mv);
            let lost = match pos.decisive_outcome() {
                Some(o) => o.winner == Some(!me),
                None => {
                    let them = pos.turn();
                    let wins_now = |pos: &mut Position, t: Move| {
                        let undo = pos.make(t);
                        let won = pos
                            .decisive_outcome()
                            .is_some_and(|o| o.winner == Some(them));
                        pos.unmake(undo);
                        won
                    };
                    if wins.iter().any(|&t| pos.is_legal(t) && wins_now(pos, t)) {
                        true
                    } else if let Some(t) =
                        pos.legal_moves().into_iter().find(|&t| wins_now(pos, t))
                    {
                        wins.push(t);
                        true
                    } else {
                        false
                    }
                }
            };
            pos.unmake(undo);
            lost
        })
}

#[test]
fn double_threat_positions_are_what_they_claim() {
    for text in DOUBLE_THREATS {
        let mut pos = Position::from_text(text).unwrap();
        assert!(!can_win_now(&mut pos), "{text}: a win in one");
        assert!(every_move_loses(&mut pos), "{text}: a move saves");
    }
    for text in MAKES_DOUBLE_THREATS {
        let mut pos = Position::from_text(text).unwrap();
        assert!(!can_win_now(&mut pos), "{text}: a win in one");
        let mut passed = pos.passed();
        assert!(!can_win_now(&mut passed), "{text}: threatened");
    }
}

#[test]
fn a_double_threat_is_seen_as_lost() {
    for text in DOUBLE_THREATS {
        let mut pos = Position::from_text(text).unwrap();
        let moves = pos.legal_moves();
        assert!(
            matches!(defend(&mut pos, &moves, &|| false), Defence::Lost),
            "{text}"
        );
        assert!(cannot_stop(&mut pos, &mut Vec::new()), "{text}");
    }
    // A single threat can be stopped.
    for text in BLOCKS.iter().chain(CUTS) {
        let mut pos = Position::from_text(text).unwrap();
        assert!(!cannot_stop(&mut pos, &mut Vec::new()), "{text}");
    }
}

#[test]
fn makes_a_double_threat() {
    for text in MAKES_DOUBLE_THREATS {
        let (mut pos, mv) = engine_move(text);
        pos.make(mv);
        assert!(
            pos.decisive_outcome().is_none() && every_move_loses(&mut pos),
            "{text}: {mv} leaves a defence"
        );
    }
}

#[test]
fn safe_moves_can_be_given_up_and_otherwise_are_all_found() {
    use punct_engine::tactics::{safe_moves, safe_moves_unless};

    for text in WINS.iter().take(3) {
        let mut pos = Position::from_text(text).unwrap();
        let moves = pos.legal_moves();
        let all = safe_moves(&mut pos, &moves);
        assert_eq!(safe_moves_unless(&mut pos, &moves, &|| false), Some(all));
        assert_eq!(safe_moves_unless(&mut pos, &moves, &|| true), None);
    }
}
