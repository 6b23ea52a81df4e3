//! `punct perft`.

use std::io::Write as _;

use punct_core::Position;

pub fn run(pos: &Position, depth: u32, divide: bool) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    let total = if divide {
        let mut total = 0;
        for (mv, n) in punct_core::divide(pos, depth) {
            writeln!(out, "{mv} {n}")?;
            total += n;
        }
        total
    } else {
        punct_core::perft(pos, depth)
    };
    writeln!(out, "{total}")?;
    Ok(())
}
