//! The fitted weights as the Rust source `punct-engine` compiles in
//! (`crates/punct-engine/src/learned/policy_weights.rs` and `value_weights.rs`).

use std::fmt::Write as _;

use punct_engine::learned::{FEATURES, VALUE_FEATURE_NAMES, VALUE_FEATURES};

/// The source text of the policy's weights file; `provenance` (one line per entry) says how
/// they were made.
pub fn source(weights: &[f32; FEATURES], provenance: &[String]) -> String {
    let mut out = header("fit", provenance);
    out.push_str("/// The compiled-in policy weights, one per feature.\n");
    out.push_str("pub const WEIGHTS: [f32; FEATURES] = [\n");
    for w in weights {
        // `{:?}` writes the shortest text that reads back as the same f32.
        let _ = writeln!(out, "    {w:?},");
    }
    out.push_str("];\n");
    out
}

/// The source text of the value function's weights file, each weight named by its feature,
/// and the spread the engine stretches the logit by.
pub fn value_source(weights: &[f32; VALUE_FEATURES], spread: f32, provenance: &[String]) -> String {
    let mut out = header("value", provenance);
    out.push_str(
        "/// How much wider than the fitted logit the engine spreads its values: as wide as the\n\
         /// hand-set evaluation's over the training positions.\n",
    );
    let _ = writeln!(out, "pub const VALUE_SPREAD: f32 = {spread:?};");
    out.push_str("/// The compiled-in value weights, one per feature, on the logit scale.\n");
    out.push_str("pub const VALUE_WEIGHTS: [f32; VALUE_FEATURES] = [\n");
    for (w, name) in weights.iter().zip(VALUE_FEATURE_NAMES) {
        let _ = writeln!(out, "    {w:?}, // {name}");
    }
    out.push_str("];\n");
    out
}

fn header(step: &str, provenance: &[String]) -> String {
    let mut out = format!("// Written by `punct train {step}`; do not edit by hand.\n");
    for line in provenance {
        let _ = writeln!(out, "// {line}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_engine::learned::{VALUE_SPREAD, VALUE_WEIGHTS, WEIGHTS};

    /// The weights read back from a weights file's text.
    fn read(text: &str) -> Vec<f32> {
        text.lines()
            .filter(|l| l.starts_with("    "))
            .map(|l| l.split(',').next().unwrap().trim().parse().unwrap())
            .collect()
    }

    #[test]
    fn the_source_lists_every_weight_exactly() {
        let text = source(&WEIGHTS, &["a test".to_owned()]);
        assert!(text.contains("// a test\n"));
        assert_eq!(read(&text), WEIGHTS.to_vec());
    }

    #[test]
    fn the_value_source_lists_every_weight_exactly_with_its_name() {
        let text = value_source(&VALUE_WEIGHTS, VALUE_SPREAD, &["a test".to_owned()]);
        assert!(text.starts_with("// Written by `punct train value`"));
        assert!(text.contains(&format!(
            "pub const VALUE_SPREAD: f32 = {VALUE_SPREAD:?};\n"
        )));
        assert!(text.contains("// a test\n"));
        assert!(text.contains(&format!("// {}\n", VALUE_FEATURE_NAMES[0])));
        assert_eq!(read(&text), VALUE_WEIGHTS.to_vec());
    }
}
