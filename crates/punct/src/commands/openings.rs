//! `punct openings`.

use std::io::Write as _;

use anyhow::bail;
use punct_match::openings::{Generation, generate, to_text};

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
    let (mut tried, mut kept) = (0, 0);
    let suite = generate(&settings, &mut |_, keep| {
        tried += 1;
        kept += usize::from(keep);
        eprint!("\r{kept}/{} kept of {tried} judged", settings.count);
    });
    eprintln!();
    if suite.len() < settings.count {
        eprintln!(
            "punct: only {} balanced openings among {tried} candidates",
            suite.len()
        );
    }
    let mut out = std::io::stdout().lock();
    out.write_all(to_text(&settings, &suite).as_bytes())?;
    out.flush()?;
    Ok(())
}
