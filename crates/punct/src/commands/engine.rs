//! `punct engine`.

pub fn run() -> anyhow::Result<()> {
    punct_engine::protocol::run(std::io::stdin().lock(), std::io::stdout())?;
    Ok(())
}
