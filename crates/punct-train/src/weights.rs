//! The fitted weights as the Rust source `punct-engine` compiles in
//! (`crates/punct-engine/src/learned/policy_weights.rs`).

use std::fmt::Write as _;

use punct_engine::learned::FEATURES;

/// The source text of a weights file; `provenance` (one line per entry) says how they
/// were made.
pub fn source(weights: &[f32; FEATURES], provenance: &[String]) -> String {
    let mut out = String::from("// Written by `punct train fit`; do not edit by hand.\n");
    for line in provenance {
        let _ = writeln!(out, "// {line}");
    }
    out.push_str("/// The compiled-in policy weights, one per feature.\n");
    out.push_str("pub const WEIGHTS: [f32; FEATURES] = [\n");
    for w in weights {
        // `{:?}` writes the shortest text that reads back as the same f32.
        let _ = writeln!(out, "    {w:?},");
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_engine::learned::WEIGHTS;

    #[test]
    fn the_source_lists_every_weight_exactly() {
        let text = source(&WEIGHTS, &["a test".to_owned()]);
        assert!(text.contains("// a test\n"));
        let read: Vec<f32> = text
            .lines()
            .filter_map(|l| l.trim().strip_suffix(','))
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(read, WEIGHTS.to_vec());
    }
}
