//! `punct engine`.

pub fn run() -> anyhow::Result<()> {
    let input = std::io::BufReader::new(std::io::stdin());
    punct_engine::protocol::run(input, std::io::stdout())?;
    Ok(())
}
