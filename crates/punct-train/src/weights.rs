//! The fitted weights as the Rust source `punct-engine` compiles in
//! (`crates/punct-engine/src/learned/policy_weights.rs` and `value_weights.rs`).

use std::fmt::Write as _;

use punct_engine::learned::{FEATURES, VALUE_FEATURE_NAMES};

use crate::value_net::Weights;

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

/// The source text of the value function's weights file: the linear weights, each named
/// by its feature, the hidden units (none for a linear fit), and the spread the engine
/// stretches the logit by.
pub fn value_source(weights: &Weights, spread: f32, provenance: &[String]) -> String {
    let mut out = header("value", provenance);
    out.push_str(
        "/// How much wider than the fitted logit the engine spreads its values: as wide as the\n\
         /// hand-set evaluation's over the training positions.\n",
    );
    let _ = writeln!(out, "pub const VALUE_SPREAD: f32 = {spread:?};");
    out.push_str("/// The compiled-in value weights, one per feature, on the logit scale.\n");
    out.push_str("pub const VALUE_WEIGHTS: [f32; VALUE_FEATURES] = [\n");
    for (w, name) in weights.linear.iter().zip(VALUE_FEATURE_NAMES) {
        let _ = writeln!(out, "    {w:?}, // {name}");
    }
    out.push_str("];\n");
    let _ = writeln!(
        out,
        "/// Hidden units of the value function.\npub const VALUE_HIDDEN: usize = {};",
        weights.hidden.len()
    );
    out.push_str("/// Each hidden unit's weights, one per feature.\n");
    out.push_str("pub const VALUE_HIDDEN_WEIGHTS: [[f32; VALUE_FEATURES]; VALUE_HIDDEN] = [");
    for unit in &weights.hidden {
        out.push_str("\n    [\n");
        for w in unit {
            let _ = writeln!(out, "        {w:?},");
        }
        out.push_str("    ],");
    }
    out.push_str(if weights.hidden.is_empty() {
        "];\n"
    } else {
        "\n];\n"
    });
    out.push_str("/// Each hidden unit's weight in the logit.\n");
    out.push_str("pub const VALUE_OUTPUT: [f32; VALUE_HIDDEN] = [");
    for w in &weights.output {
        let _ = write!(out, "\n    {w:?},");
    }
    out.push_str(if weights.output.is_empty() {
        "];\n"
    } else {
        "\n];\n"
    });
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
    use punct_engine::learned::{VALUE_FEATURES, VALUE_HIDDEN};
    use punct_engine::learned::{VALUE_SPREAD, VALUE_WEIGHTS, WEIGHTS};

    /// The weights read back from a weights file's text (a hidden unit's brackets aside).
    fn read(text: &str) -> Vec<f32> {
        text.lines()
            .filter(|l| l.starts_with("    ") && !l.trim().starts_with(['[', ']']))
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
        let compiled = Weights::compiled();
        let text = value_source(&compiled, VALUE_SPREAD, &["a test".to_owned()]);
        assert!(text.starts_with("// Written by `punct train value`"));
        assert!(text.contains(&format!(
            "pub const VALUE_SPREAD: f32 = {VALUE_SPREAD:?};\n"
        )));
        assert!(text.contains("// a test\n"));
        assert!(text.contains(&format!("// {}\n", VALUE_FEATURE_NAMES[0])));
        assert!(text.contains(&format!(
            "pub const VALUE_HIDDEN: usize = {VALUE_HIDDEN};\n"
        )));
        let linear: Vec<f32> = read(&text).into_iter().take(VALUE_FEATURES).collect();
        assert_eq!(linear, VALUE_WEIGHTS.to_vec());
    }

    #[test]
    fn the_value_source_lists_every_hidden_weight_exactly() {
        let mut weights = Weights::compiled();
        weights.hidden = vec![[0.25; VALUE_FEATURES], [-1.0e-7; VALUE_FEATURES]];
        weights.output = vec![0.5, -3.0];
        let text = value_source(&weights, 1.5, &[]);
        assert!(text.contains("pub const VALUE_HIDDEN: usize = 2;\n"));
        let expected: Vec<f32> = weights
            .linear
            .iter()
            .chain(weights.hidden.iter().flatten())
            .chain(&weights.output)
            .copied()
            .collect();
        assert_eq!(read(&text), expected);
    }
}
