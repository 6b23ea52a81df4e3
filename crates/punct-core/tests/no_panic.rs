//! No byte string makes a reader panic (the cargo-fuzz targets in `fuzz/` search further).

use proptest::prelude::*;
use punct_core::{Move, Position, Record};

fn read_everything(text: &str) {
    let _ = Move::parse(text);
    let _ = Position::from_text(text);
    let _ = Record::parse(text);
    let _ = Record::parse_all(text);
    let _ = Record::parse_each(text);
}

/// Valid texts to mutate, so that the search reaches deep into each reader.
const SEEDS: [&str; 4] = [
    "E4-E7:3",
    "standard b 5 wTE4:0@1,bTK5:0@1,bEM12:3@1,wTE4:0@2",
    "[Variant \"standard\"]\n[White \"a\"]\n\n1. TE4:0 {hi} TK5:0 2. E4-E7:3 *\n",
    "standard w 12 wTC2:3@1,wED2:5@1,wED4:5@1,bTK5:0@1,wED2:5@2,wED4:5@2,wCD3:0@3",
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
