//! `punct bench`.

use std::io::Write as _;

use anyhow::anyhow;
use punct_core::Move;

pub fn run(nodes: u64) -> anyhow::Result<()> {
    let bench = punct_match::bench::run(nodes).map_err(|e| anyhow!(e))?;
    let mut out = std::io::stdout().lock();
    for (i, line) in bench.lines.iter().enumerate() {
        let pv: Vec<String> = line.pv.iter().map(Move::to_string).collect();
        writeln!(
            out,
            "{:>2} nodes {:>7} best {:<8} score {:.4} pv {}",
            i + 1,
            line.nodes,
            line.best
                .map_or_else(|| "none".to_owned(), |m| m.to_string()),
            line.score,
            pv.join(" ")
        )?;
    }
    let seconds = bench.time.as_secs_f64();
    writeln!(out, "nodes {}", bench.nodes)?;
    writeln!(out, "signature {:016x}", bench.signature)?;
    writeln!(
        out,
        "time {seconds:.2} s, {:.0} playouts/s",
        bench.nodes as f64 / seconds.max(1e-9)
    )?;
    Ok(())
}
