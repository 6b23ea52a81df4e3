//! `punct moves`.

use std::io::{BufRead as _, Write as _};

use anyhow::{Context as _, bail};
use punct_core::Position;

pub fn run(position: Option<&str>) -> anyhow::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if let Some(text) = position {
        let pos = Position::from_text(text).with_context(|| format!("in position `{text}`"))?;
        for mv in pos.legal_move_texts() {
            writeln!(out, "{mv}")?;
        }
        return Ok(());
    }
    // One output line per input line, so that answers stay aligned with the questions: a
    // line that is not a position gets an empty line, its error goes to standard error, and
    // the run goes on to fail at the end.
    let mut bad = 0;
    let mut input = std::io::stdin().lock();
    let mut bytes = Vec::new();
    for number in 1.. {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            break;
        }
        let answer = match std::str::from_utf8(&bytes) {
            Ok(line) => {
                let line = line.trim_end_matches(['\n', '\r']);
                Position::from_text(line)
                    .map_err(|e| format!("position `{line}`: {e}"))
                    .map(|pos| pos.legal_move_texts().join(" "))
            }
            Err(e) => Err(format!("not UTF-8 text: {e}")),
        };
        match answer {
            Ok(moves) => writeln!(out, "{moves}")?,
            Err(e) => {
                writeln!(out)?;
                out.flush()?;
                eprintln!("punct: standard input line {number}: {e}");
                bad += 1;
            }
        }
    }
    out.flush()?;
    if bad > 0 {
        bail!("{bad} line(s) of standard input were not positions");
    }
    Ok(())
}
