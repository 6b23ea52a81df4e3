//! The bench signature: fixed-playout searches by a fresh full-strength engine over fixed
//! positions, summed up as a node count and a signature of what they found. Nothing in them
//! depends on time, so a change that only makes the engine faster leaves both as they were,
//! and a change that alters play almost surely alters the signature.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use punct_core::{Game, Move, Position};
use punct_engine::{Engine, Options, SearchLimits};

/// The positions searched: the two empty boards, openings, middle games with stacks, late
/// positions with few moves left, and threats to answer.
pub const POSITIONS: [&str; 8] = [
    "standard w 0 -",
    "basic w 0 -",
    "standard w 2 bLG3:3@1,wLH11:3@1",
    "standard w 16 bCC2:1@1,wMD4:0@1,bEE4:4@1,wCE7:1@1,bLE8:3@1,bCG11:0@1,wLH11:3@1,bEH15:0@1,\
     wEJ13:4@1,bTJ15:0@1,wRF8:0@2,bTG11:4@2,wRG10:0@3",
    "standard w 44 bEB8:3@1,bRC6:5@1,wMD3:3@1,bCD5:2@1,wED12:4@1,bLE2:1@1,wEE9:0@1,wRE10:5@1,\
     wCF5:0@1,bTG5:3@1,bEH2:2@1,bTH7:2@1,bLI3:2@1,wRI5:4@1,bEI10:1@1,wCJ3:0@1,bMJ5:4@1,\
     wMJ9:5@1,bTJ11:5@1,bCL6:2@1,bRN6:0@1,bME5:3@2,wLE7:0@2,bEG8:2@2,bTH4:3@2,wEJ4:4@2,\
     wEJ9:3@2,wLD5:5@3",
    "basic b 9 bCC2:0@1,wEC7:1@1,wEF10:1@1,bEH8:3@1,wCH11:2@1,wCJ10:2@1,bCJ12:0@1,bTK7:0@1,\
     bEK8:5@1,wEN12:1@1",
    "standard b 21 bCA7:0@1,bCB4:2@1,wRB8:1@1,bTC10:1@1,bEE3:2@1,bRF3:3@1,wCF10:1@1,wTG3:0@1,\
     bEH1:2@1,bTH2:3@1,wCH8:1@1,wLI6:0@1,bTJ3:0@1,wEJ12:2@1,bRL13:3@1,wEN11:2@1,wTO7:3@1,\
     wMP11:1@1",
    "basic w 18 wCB2:0@1,wCB5:0@1,bCB7:2@1,bTB8:4@1,bTD5:2@1,wED9:0@1,wLE5:1@1,wRF7:5@1,\
     bEG15:0@1,wLH2:3@1,bCH12:0@1,wEI13:0@1,wEI16:0@1,bEJ10:2@1,wEK10:0@1,bLL11:4@1,bEN8:0@1,\
     bEN11:0@1",
];

/// One position's search.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The position text.
    pub position: &'static str,
    /// Playouts searched.
    pub nodes: u64,
    /// The move chosen (none when the game is over).
    pub best: Option<Move>,
    /// Its expected score for the side to move.
    pub score: f32,
    /// The line the search expects.
    pub pv: Vec<Move>,
}

/// The whole bench.
#[derive(Clone, Debug)]
pub struct Bench {
    /// Each position's search, in the order of [`POSITIONS`].
    pub lines: Vec<BenchLine>,
    /// Playouts over all positions.
    pub nodes: u64,
    /// A hash of every search's playouts, move, score and line.
    pub signature: u64,
    /// Wall time of the searches (not part of the signature).
    pub time: Duration,
}

/// Searches every position of [`POSITIONS`] for `nodes` playouts.
pub fn run(nodes: u64) -> Result<Bench, String> {
    let started = Instant::now();
    let stop = AtomicBool::new(false);
    let mut lines = Vec::new();
    let mut hash = Fnv::default();
    for text in POSITIONS {
        let pos = Position::from_text(text).map_err(|e| format!("bench position `{text}`: {e}"))?;
        let mut engine = Engine::new(Options::default());
        let result = engine.search(
            &Game::from_position(pos),
            &SearchLimits::nodes(nodes),
            &stop,
            &mut |_| {},
        );
        let line = BenchLine {
            position: text,
            nodes: result.nodes,
            best: result.best_move,
            score: result.score.expectation(),
            pv: result.pv,
        };
        hash.write(&line.nodes.to_le_bytes());
        hash.write(
            line.best
                .map(|m| m.to_string())
                .unwrap_or_default()
                .as_bytes(),
        );
        hash.write(&line.score.to_bits().to_le_bytes());
        for mv in &line.pv {
            hash.write(mv.to_string().as_bytes());
        }
        lines.push(line);
    }
    Ok(Bench {
        nodes: lines.iter().map(|l| l.nodes).sum(),
        signature: hash.0,
        lines,
        time: started.elapsed(),
    })
}

/// FNV-1a, 64 bits: a fixed hash, the same on every machine and every build (std's hasher
/// promises neither).
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        // A separator, so that moving bytes between fields changes the hash.
        self.0 = (self.0 ^ 0xff).wrapping_mul(0x0100_0000_01b3);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_positions_are_valid() {
        for text in POSITIONS {
            assert!(Position::from_text(text).is_ok(), "{text}");
        }
    }

    #[test]
    fn the_signature_is_the_same_run_after_run_and_moves_with_the_budget() {
        let a = run(20).unwrap();
        let b = run(20).unwrap();
        assert_eq!(a.signature, b.signature);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.lines.len(), POSITIONS.len());
        let c = run(21).unwrap();
        assert_ne!(a.signature, c.signature);
    }

    #[test]
    fn fields_are_hashed_apart() {
        let (mut a, mut b) = (Fnv::default(), Fnv::default());
        a.write(b"ab");
        a.write(b"c");
        b.write(b"a");
        b.write(b"bc");
        assert_ne!(a.0, b.0);
    }
}
