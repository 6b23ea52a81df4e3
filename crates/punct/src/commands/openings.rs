//! `punct openings`.

use std::io::Write as _;

use anyhow::bail;
use punct_match::openings::{Generation, generate, header, line};

use crate::cli::OpeningsArgs;

pub fn run(args: OpeningsArgs) -> anyhow::Result<()> {
    if !(0.0..=0.5).contains(&args.tolerance) {
        bail!("--tolerance must be 0 to 0.5, not {}", args.tolerance);
    }
    let settings = Generation {
        variant: args.variant,
        count: args.count as usize,
        plies: args.plies as usize,
        nodes: args.nodes,
        tolerance: args.tolerance,
        seed: args.seed,
    };
    let mut out = std::io::stdout().lock();
    out.write_all(header(&settings).as_bytes())?;
    out.flush()?;
    // Each opening is written as soon as it is kept, so that an interrupted run keeps them.
    let (mut tried, mut kept) = (0, 0);
    let mut written = Ok(());
    let suite = generate(&settings, &mut |judged, keep| {
        tried += 1;
        if keep {
            kept += 1;
            if written.is_ok() {
                written = out
                    .write_all(line(judged).as_bytes())
                    .and_then(|()| out.flush());
            }
        }
        eprint!("\r{kept}/{} kept of {tried} judged", settings.count);
    });
    eprintln!();
    written?;
    if suite.len() < settings.count {
        eprintln!(
            "punct: only {} balanced openings among {tried} candidates",
            suite.len()
        );
    }
    Ok(())
}
