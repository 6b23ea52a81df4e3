//! The stored analyses (`game_analyses`): one row a game, its analysis as JSON, written once.

use super::review::GameAnalysis;
use crate::store::sql::{Sql, args};

/// Keeps `analysis` for `game`. A game analysed twice at once (two servers on one database)
/// keeps the first: both are the same game's analysis.
pub fn save(db: &mut dyn Sql, game: &str, analysis: &GameAnalysis) -> anyhow::Result<()> {
    let json = serde_json::to_string(analysis)?;
    db.execute(
        "INSERT INTO game_analyses (game, analysis, created_ms) VALUES ($1, $2, $3)
         ON CONFLICT (game) DO NOTHING",
        &args![game, json, analysis.created_ms],
    )?;
    Ok(())
}

/// The analysis kept for `game`, if any.
pub fn load(db: &mut dyn Sql, game: &str) -> anyhow::Result<Option<GameAnalysis>> {
    let Some(row) = db.query_opt(
        "SELECT analysis FROM game_analyses WHERE game = $1",
        &args![game],
    )?
    else {
        return Ok(None);
    };
    let text = row.text("analysis")?;
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| anyhow::anyhow!("the stored analysis of game {game} does not read: {e}"))
}
