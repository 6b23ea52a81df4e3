//! The dataset files: one sampled position per line, as text, so that a generation's data
//! can be read, diffed and cut with ordinary tools.
//!
//! ```text
//! <game>\t<white's score>\t<position text>[\t<values>[\t<visits>]]
//! ```
//!
//! The values, when present, are the one-ply value of each legal move, space separated, in
//! the order of `Position::legal_moves` (canonical); the field is empty in a line that has
//! visits but no values. The visits, when present, are the root visits of a search of the
//! position, `<index>:<visits>` space separated, by the moves' canonical index (moves the
//! search did not keep are left out). Lines of files written before visits existed read
//! as before.

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
    /// The root visits of a search of the position: (canonical index of the move, visits),
    /// by index, for the moves the search kept.
    pub visits: Option<Vec<(u32, u32)>>,
}

impl Sample {
    /// The sample as one line of a dataset file (without the line end).
    pub fn to_line(&self) -> String {
        let mut line = format!("{}\t{}\t{}", self.game, self.white_score, self.position);
        if self.values.is_some() || self.visits.is_some() {
            line.push('\t');
        }
        for (i, v) in self.values.iter().flatten().enumerate() {
            if i > 0 {
                line.push(' ');
            }
            // A tenth of a cell is finer than the evaluation's own steps matter.
            let _ = write!(line, "{:.1}", v);
        }
        if let Some(visits) = &self.visits {
            line.push('\t');
            for (i, (index, n)) in visits.iter().enumerate() {
                if i > 0 {
                    line.push(' ');
                }
                let _ = write!(line, "{index}:{n}");
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
        let legal = || position.legal_moves().len();
        let values = match fields.next() {
            None | Some("") => None,
            Some(values) => {
                let values = values
                    .split(' ')
                    .map(|v| match v.parse::<f32>() {
                        Ok(x) if x.is_finite() => Ok(x),
                        _ => Err(fail(format!("value `{v}` is not a number"))),
                    })
                    .collect::<Result<Vec<f32>, String>>()?;
                let legal = legal();
                if values.len() != legal {
                    return Err(fail(format!(
                        "{} values for a position with {legal} legal moves",
                        values.len()
                    )));
                }
                Some(values)
            }
        };
        let visits = match fields.next() {
            None => None,
            Some(visits) => Some(read_visits(visits, legal()).map_err(fail)?),
        };
        if fields.next().is_some() {
            return Err(fail("more than five fields".to_owned()));
        }
        Ok(Sample {
            game,
            white_score,
            position,
            values,
            visits,
        })
    }
}

/// Reads a visits field: `<index>:<visits>` pairs, indices rising and below `legal`.
fn read_visits(field: &str, legal: usize) -> Result<Vec<(u32, u32)>, String> {
    let mut visits: Vec<(u32, u32)> = Vec::new();
    for pair in field.split(' ').filter(|p| !p.is_empty()) {
        let parsed = pair
            .split_once(':')
            .and_then(|(i, n)| Some((i.parse::<u32>().ok()?, n.parse::<u32>().ok()?)));
        let Some((index, n)) = parsed else {
            return Err(format!("visits `{pair}` are not <index>:<visits>"));
        };
        if index as usize >= legal || visits.last().is_some_and(|&(last, _)| last >= index) {
            return Err(format!(
                "visits `{pair}`: indices must rise and stay below the {legal} legal moves"
            ));
        }
        visits.push((index, n));
    }
    Ok(visits)
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
                visits: None,
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
        let mut sample = Sample {
            game: 3,
            white_score: 0.5,
            position: pos,
            values: Some(values),
            visits: None,
        };
        let back = Sample::from_line(&sample.to_line(), 1).unwrap();
        assert_eq!(back, sample);
        // Visits with values, then visits alone.
        sample.visits = Some(vec![(0, 12), (5, 300), (40, 1)]);
        let back = Sample::from_line(&sample.to_line(), 1).unwrap();
        assert_eq!(back, sample);
        sample.values = None;
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
            ("1\t1\tstandard w 0 -\t\t3", "visits `3` are not"),
            ("1\t1\tstandard w 0 -\t\t3:1 2:1", "indices must rise"),
            ("1\t1\tstandard w 0 -\t\t99999:1", "indices must rise"),
            ("1\t1\tstandard w 0 -\t\t\t", "more than five fields"),
        ] {
            let err = Sample::from_line(line, 1).unwrap_err();
            assert!(err.contains(why), "{line:?}: {err}");
        }
    }
}
