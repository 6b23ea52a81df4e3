//! The dataset files: one sampled position per line, as text, so that a generation's data
//! can be read, diffed and cut with ordinary tools.
//!
//! ```text
//! <game>\t<white's score>\t<position text>[\t<value of each legal move, space separated>]
//! ```
//!
//! The values, when present, follow the order of `Position::legal_moves` (canonical).

use std::fmt::Write as _;

use punct_core::Position;

/// A position sampled from a self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The game it comes from (held-out data is split by game).
    pub game: u32,
    /// White's score in that game: 1, ½ or 0.
    pub white_score: f32,
    /// The position.
    pub position: Position,
    /// The one-ply value of each legal move, in canonical order, once labelled.
    pub values: Option<Vec<f32>>,
}

impl Sample {
    /// The sample as one line of a dataset file (without the line end).
    pub fn to_line(&self) -> String {
        let mut line = format!("{}\t{}\t{}", self.game, self.white_score, self.position);
        if let Some(values) = &self.values {
            line.push('\t');
            for (i, v) in values.iter().enumerate() {
                if i > 0 {
                    line.push(' ');
                }
                // A tenth of a cell is finer than the evaluation's own steps matter.
                let _ = write!(line, "{:.1}", v);
            }
        }
        line
    }

    /// Reads one line of a dataset file; `number` (from 1) names it in errors.
    pub fn from_line(line: &str, number: usize) -> Result<Sample, String> {
        let fail = |why: String| format!("dataset line {number}: {why}");
        let mut fields = line.split('\t');
        let (Some(game), Some(score), Some(text)) = (fields.next(), fields.next(), fields.next())
        else {
            return Err(fail(
                "expected game, white's score and position separated by tabs".to_owned(),
            ));
        };
        let game = game
            .parse::<u32>()
            .map_err(|e| fail(format!("game `{game}` is not a number: {e}")))?;
        let white_score = match score {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            _ => return Err(fail(format!("score `{score}` is not 1, 0.5 or 0"))),
        };
        let position = Position::from_text(text).map_err(|e| fail(format!("{e}")))?;
        let values = match fields.next() {
            None => None,
            Some(values) => {
                let values = values
                    .split(' ')
                    .map(|v| match v.parse::<f32>() {
                        Ok(x) if x.is_finite() => Ok(x),
                        _ => Err(fail(format!("value `{v}` is not a number"))),
                    })
                    .collect::<Result<Vec<f32>, String>>()?;
                let legal = position.legal_moves().len();
                if values.len() != legal {
                    return Err(fail(format!(
                        "{} values for a position with {legal} legal moves",
                        values.len()
                    )));
                }
                Some(values)
            }
        };
        if fields.next().is_some() {
            return Err(fail("more than four fields".to_owned()));
        }
        Ok(Sample {
            game,
            white_score,
            position,
            values,
        })
    }
}

/// Reads a whole dataset file's text.
pub fn read(text: &str) -> Result<Vec<Sample>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| Sample::from_line(l, i + 1))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any line, however mangled, is read or refused with its line number: never a panic.
        #[test]
        fn any_line_is_read_or_refused_by_number(line in "[0-9a-zA-Z:@,. \t-]{0,80}") {
            if let Err(e) = Sample::from_line(&line, 9) {
                prop_assert!(e.starts_with("dataset line 9: "), "{}", e);
            }
        }

        /// Scores and games survive writing and reading.
        #[test]
        fn written_samples_read_back(game in 0u32..1_000_000, score in 0usize..3) {
            let sample = Sample {
                game,
                white_score: [0.0, 0.5, 1.0][score],
                position: Position::new(punct_core::Variant::Basic),
                values: None,
            };
            prop_assert_eq!(Sample::from_line(&sample.to_line(), 1).unwrap(), sample);
        }
    }

    #[test]
    fn a_sample_reads_back_as_written() {
        let mut pos = Position::new(punct_core::Variant::Standard);
        let mv = pos.legal_moves()[7];
        pos.make(mv);
        let values: Vec<f32> = (0..pos.legal_moves().len())
            .map(|i| i as f32 / 10.0)
            .collect();
        let sample = Sample {
            game: 3,
            white_score: 0.5,
            position: pos,
            values: Some(values),
        };
        let back = Sample::from_line(&sample.to_line(), 1).unwrap();
        assert_eq!(back, sample);
    }

    #[test]
    fn bad_lines_are_named() {
        for (line, why) in [
            ("", "separated by tabs"),
            ("x\t1\tstandard w 0 -", "game `x`"),
            ("1\t2\tstandard w 0 -", "score `2`"),
            ("1\t1\tnonsense", "dataset line 1"),
            ("1\t1\tstandard w 0 -\t1 2", "2 values for a position with"),
            ("1\t1\tstandard w 0 -\tNaN", "value `NaN`"),
        ] {
            let err = Sample::from_line(line, 1).unwrap_err();
            assert!(err.contains(why), "{line:?}: {err}");
        }
    }
}
