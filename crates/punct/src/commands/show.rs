//! `punct show`.

use punct_core::Position;

pub fn run(pos: &Position) -> anyhow::Result<()> {
    println!("{pos}");
    print!("{}", punct_core::diagram::diagram(pos));
    Ok(())
}
