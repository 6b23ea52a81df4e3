//! No byte string makes a reader panic (the cargo-fuzz targets in `fuzz/` search further).

use proptest::prelude::*;
use punct_core::{Move, Position, Record};

fn read_everything(text: &str) {
    let _ = Move::parse(text);
    let _ = Position::from_text(text);
    let _ = Record::parse(text);
    let _ = Record::parse_all(text);
    // Every game read from SGF writes a record that reads back.
    for record in punct_core::sgf::read_all(text).into_iter().flatten() {
        let written = record.to_string();
        assert!(Record::parse(&written).is_ok(), "{written}");
    }
}

/// Valid texts to mutate, so that the search reaches deep into each reader.
const SEEDS: [&str; 5] = [
    "E4-E7:3",
    "standard b 5 wTE4:0@1,bTK5:0@1,bEM12:3@1,wTE4:0@2",
    "[Variant \"standard\"]\n[White \"a\"]\n\n1. TE4:0 {hi} TK5:0 2. E4-E7:3 *\n",
    "standard w 12 wTC2:3@1,wED2:5@1,wED4:5@1,bTK5:0@1,wED2:5@2,wED4:5@2,wCD3:0@3",
    "(;GM[25]VV[1]P0[id \"a\"]P1[id \"b\"]RE[Game won by b]; P0[0 Start P0]\
     ; P0[1 Dropb 13 L 11 3]; P0[2 Done ]; P1[3 Pick B 32]; P1[4 Dropb 32 L 9 4]; P1[5 Done ]\
     ; P0[6 Pickb L 11]; P0[7 Dropb 13 L 13 1]; P0[8 Done ]; P1[9 Move L 9 K 9 4]\
     ; P1[10 Done ]; P0[11 Resign ]; P0[12 Done ];P0[time 0:00:00 ])(;GM[25])",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        read_everything(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn mutated_valid_texts(
        seed in 0..SEEDS.len(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0..3u8), 1..6),
    ) {
        let mut bytes = SEEDS[seed].as_bytes().to_vec();
        for (at, byte, kind) in edits {
            let i = at.index(bytes.len() + 1);
            match kind {
                0 => bytes.insert(i, byte),
                1 if i < bytes.len() => bytes[i] = byte,
                _ if i < bytes.len() => { bytes.remove(i); }
                _ => {}
            }
        }
        read_everything(&String::from_utf8_lossy(&bytes));
    }
}
