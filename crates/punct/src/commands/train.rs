//! `punct train`: the learned engine's training steps over `punct-train`.

use std::io::Write as _;
use std::time::Instant;

use anyhow::{Context as _, anyhow};
use punct_engine::Level;
use punct_engine::learned::Priors;
use punct_engine::search::params::Params;
use punct_match::PlayerSpec;
use punct_train::dataset::{self, Sample};
use punct_train::fit::{self, TOP_K};
use punct_train::{labels, selfplay, value, value_net, visits, weights};

use crate::cli::TrainStep;

pub fn run(step: TrainStep) -> anyhow::Result<()> {
    let started = Instant::now();
    match step {
        TrainStep::Selfplay {
            games,
            variant,
            random_plies,
            level,
            policy,
            every,
            seed,
            out,
        } => {
            let settings = selfplay::Settings {
                games,
                variant,
                random_plies,
                level: Level::new(level).ok_or_else(|| anyhow!("no level {level}"))?,
                priors: match policy.as_str() {
                    "learned" => Priors::default(),
                    _ => Priors::HandSet,
                },
                every,
                max_plies: 400,
                seed,
            };
            let samples = selfplay::generate(&settings, &|n| {
                if n % 10 == 0 || n == games as usize {
                    eprint!("\r{n}/{games} games");
                }
            });
            eprintln!();
            write_generated(&out, &samples, games, started)?;
        }
        TrainStep::Visits {
            games,
            variant,
            random_plies,
            nodes,
            search,
            every,
            seed,
            out,
        } => {
            let settings = visits::Settings {
                games,
                variant,
                random_plies,
                nodes,
                params: search_params(&search)?,
                every,
                max_plies: 400,
                seed,
            };
            let samples = visits::generate(&settings, &|n| {
                eprint!("\r{n}/{games} games");
            });
            eprintln!();
            write_generated(&out, &samples, games, started)?;
        }
        TrainStep::Label { input, out } => {
            let mut samples = read(&input)?;
            let total = samples.len();
            labels::label(&mut samples, &|n| {
                if n % 50 == 0 || n == total {
                    eprint!("\r{n}/{total} positions");
                }
            });
            eprintln!();
            write(&out, &samples)?;
            eprintln!(
                "{total} positions labelled in {:.1} s",
                started.elapsed().as_secs_f64()
            );
        }
        TrainStep::Fit {
            input,
            epochs,
            batch,
            learning_rate,
            sharpness,
            visits,
            holdout,
            out,
        } => {
            let samples = read(&input)?;
            let settings = fit::Settings {
                epochs,
                batch: batch as usize,
                learning_rate,
                holdout,
                seed: 1,
                sharpness,
                visits,
            };
            let report = fit::fit(&samples, &settings, &mut |epoch, loss| {
                eprintln!("epoch {epoch}: training cross-entropy {loss:.4}");
            })
            .map_err(|e| anyhow!(e))?;
            let mut lines = vec![format!(
                "fitted {epochs} epochs, batch {batch}, Adam {learning_rate}, label sharpness {sharpness}, visit share {visits}, one game in {holdout} held out"
            )];
            lines.extend(summary(&report, &input.display().to_string()));
            let source = weights::source(&report.weights, &lines);
            write_weights(&out, &lines, &source, started)?;
        }
        TrainStep::Value {
            inputs,
            l2,
            holdout,
            hidden,
            epochs,
            learning_rate,
            decay,
            out,
        } => {
            // Each file numbers its games from 0: later files' games follow the earlier ones'.
            let mut samples: Vec<Sample> = Vec::new();
            for input in &inputs {
                let first = samples.iter().map(|s| s.game + 1).max().unwrap_or(0);
                samples.extend(read(input)?.into_iter().map(|mut s| {
                    s.game += first;
                    s
                }));
            }
            let settings = value::Settings {
                holdout,
                l2,
                net: value_net::Settings {
                    hidden: hidden as usize,
                    epochs,
                    learning_rate,
                    decay,
                    ..value_net::Settings::default()
                },
                ..value::Settings::default()
            };
            let report = value::fit(&samples, &settings, &mut |stage, step, loss| {
                eprintln!("{stage} {step}: training log-loss {loss:.5}");
            })
            .map_err(|e| anyhow!(e))?;
            let names: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
            let lines = value_summary(&report, &names.join(" "), &settings);
            let source = weights::value_source(&report.weights, report.spread, &lines);
            write_weights(&out, &lines, &source, started)?;
        }
    }
    Ok(())
}

/// Prints a fit's report `lines`, writes the weights file `source` to `out`, and says so
/// with the time since `started`.
fn write_weights(
    out: &std::path::Path,
    lines: &[String],
    source: &str,
    started: Instant,
) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    for line in lines {
        writeln!(stdout, "{line}")?;
    }
    std::fs::write(out, source).with_context(|| format!("cannot write {}", out.display()))?;
    writeln!(
        stdout,
        "weights written to {} in {:.1} s",
        out.display(),
        started.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// Writes the positions of `games` self-play games to `out` and says how many, and how long
/// it took since `started`.
fn write_generated(
    out: &std::path::Path,
    samples: &[Sample],
    games: u32,
    started: Instant,
) -> anyhow::Result<()> {
    write(out, samples)?;
    eprintln!(
        "{} positions from {games} games in {:.1} s",
        samples.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The value fit's report, a few lines (also kept at the head of the weights file).
fn value_summary(report: &value::Report, input: &str, settings: &value::Settings) -> Vec<String> {
    let losses = |name: &str, l: &value::LogLoss| {
        format!(
            "held-out log-loss (nats), {name} ({} positions): learned {:.4} (as played, stretched: {:.4}), compiled-in as played {:.4}, hand-set {:.4}, constant {:.4}",
            l.positions, l.learned, l.played, l.compiled, l.hand_set, l.constant
        )
    };
    let net = &settings.net;
    let hidden = if net.hidden == 0 {
        "no hidden layer".to_owned()
    } else {
        format!(
            "then {} hidden units, {} passes of Adam {} (batch {}), decay {}, seed {}",
            net.hidden, net.epochs, net.learning_rate, net.batch, net.decay, net.seed
        )
    };
    vec![
        format!(
            "fitted on {input}: {} positions of {} games, {} games held out (one in {}); L2 {}, {} Newton steps, {hidden}",
            report.train,
            report.games.0,
            report.games.1,
            settings.holdout,
            settings.l2,
            report.iterations
        ),
        format!(
            "the hand-set evaluation's logits spread {:.3} times as wide: the engine stretches the fitted logit by that",
            report.spread
        ),
        losses("all", &report.all),
        losses("no win in one for the mover", &report.quiet),
    ]
}

/// The fit's report, a few lines (also kept at the head of the weights file).
fn summary(report: &fit::Report, input: &str) -> Vec<String> {
    let mut lines = vec![format!(
        "fitted on {input}: {} positions, {} held out (mean {:.0} legal moves)",
        report.train, report.test, report.moves
    )];
    for (scores, label) in [
        (
            &report.one_ply,
            "one-ply labels (best: the one-ply best move)",
        ),
        (&report.visits, "root visits (best: the most visited move)"),
    ] {
        let Some(s) = scores else { continue };
        lines.push(format!(
            "held out against {label}, {} positions: cross-entropy (nats) learned {:.3}, compiled-in {:.3}, hand-set {:.3}, uniform {:.3}, label entropy {:.3}",
            s.positions,
            s.learned.cross_entropy,
            s.compiled.cross_entropy,
            s.hand_set.cross_entropy,
            s.uniform,
            s.entropy
        ));
        for (name, q) in [
            ("learned", &s.learned),
            ("compiled-in", &s.compiled),
            ("hand-set", &s.hand_set),
        ] {
            let top = TOP_K
                .iter()
                .zip(&q.top_k)
                .map(|(k, share)| format!("top-{k} {:.1} %", 100.0 * share))
                .collect::<Vec<_>>()
                .join(", ");
            lines.push(format!("  best move in the policy's k best, {name}: {top}"));
        }
    }
    lines
}

/// The search settings of `punct train visits --search`, read as a player spec's.
fn search_params(search: &str) -> anyhow::Result<Params> {
    if search.is_empty() {
        return Ok(Params::default());
    }
    match format!("full:{search}").parse::<PlayerSpec>() {
        Ok(PlayerSpec::Tuned(settings)) if settings.nodes.is_none() && settings.threads == 1 => {
            Ok(settings.params)
        }
        Ok(_) => Err(anyhow!(
            "--search takes search settings only: give playouts with --nodes; games run one thread each"
        )),
        Err(e) => Err(anyhow!("--search: {e}")),
    }
}

fn read(path: &std::path::Path) -> anyhow::Result<Vec<Sample>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    dataset::read(&text).map_err(|e| anyhow!("{}: {e}", path.display()))
}

fn write(path: &std::path::Path, samples: &[Sample]) -> anyhow::Result<()> {
    let file =
        std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    let mut out = std::io::BufWriter::new(file);
    for sample in samples {
        writeln!(out, "{}", sample.to_line())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    out.flush()
        .with_context(|| format!("cannot write {}", path.display()))
}
