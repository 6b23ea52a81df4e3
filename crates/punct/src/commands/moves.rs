//! `punct moves`.

use std::io::{BufRead as _, Write as _};

use anyhow::Context as _;
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
    for (i, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line?;
        let pos = Position::from_text(&line)
            .with_context(|| format!("standard input line {}: position `{line}`", i + 1))?;
        writeln!(out, "{}", pos.legal_move_texts().join(" "))?;
    }
    out.flush()?;
    Ok(())
}
