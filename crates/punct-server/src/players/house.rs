//! The house bots: the site's own computer levels as bot accounts (`punct-level-1` …
//! `punct-level-9`), so that a level has a rating on the players' scale. They are made
//! when a server that runs them starts, with a rating seeded in every speed (docs/bots.md,
//! "The house bots": the engine ladder's measured Elo steps, then games against each other),
//! and moved from then on by every rated game as any player's is. Nobody can sign in as one
//! (no password) nor take its name (every name beginning with `punct` is reserved); the
//! server plays it through the API with a token made at each start, the previous one
//! revoked.

use punct_engine::Level;

use super::accounts::{self, AccountId};
use super::glicko2::Rating;
use super::secrets::{Secret, new_id};
use super::speed::Speed;
use super::tokens;
use super::username::Username;
use crate::store::sql::{Sql, args};

/// The name of the house bots' tokens.
const TOKEN_NAME: &str = "house";

/// The deviation a seeded rating starts with: what the games it was seeded from leave
/// unsure, below the provisional mark so that the level is shown with its rating.
pub const SEED_RD: f64 = 90.0;

/// The house bot's name of `level`.
pub fn name(level: Level) -> Username {
    Username::stored(format!("punct-level-{}", level.number()))
}

/// The rating `level`'s house bot starts with in every speed (docs/bots.md has how each
/// was obtained).
pub fn seed(level: Level) -> f64 {
    const SEEDS: [f64; Level::MAX as usize] = [
        567.0, 841.0, 1020.0, 1332.0, 1500.0, 1687.0, 2034.0, 2220.0, 2427.0,
    ];
    SEEDS[usize::from(level.number() - 1)]
}

/// Makes `level`'s house bot if it is missing (a bot account without a password, its
/// ratings seeded), and a new token for it, revoking the one made before: the token, to
/// play it with.
pub fn ensure(db: &mut dyn Sql, level: Level, now_ms: i64) -> anyhow::Result<Secret> {
    let name = name(level);
    let account = match accounts::by_name(db, &name.key())? {
        // A name taken before the house bots existed is left as it is: only a bot is played.
        Some(found) => {
            anyhow::ensure!(
                found.bot && found.is_open(),
                "the account {name} is not an open bot account, so it cannot be the house's level {}",
                level.number()
            );
            found.id
        }
        None => {
            let id = AccountId(new_id(now_ms)?);
            db.execute(
                "INSERT INTO accounts (id, username, username_key, password_hash, created_ms,
                     password_changed_ms, bot)
                 VALUES ($1, $2, $3, NULL, $4, $4, TRUE)",
                &args![id.as_str(), name.as_str(), name.key(), now_ms],
            )?;
            id
        }
    };
    for speed in Speed::ALL {
        db.execute(
            "INSERT INTO ratings (account, speed, rating, rd, volatility, games, updated_ms)
             VALUES ($1, $2, $3, $4, $5, 0, $6)
             ON CONFLICT (account, speed) DO NOTHING",
            &args![
                account.as_str(),
                speed.name(),
                seed(level),
                SEED_RD,
                Rating::NEW.volatility,
                now_ms
            ],
        )?;
    }
    for made in tokens::of_account(db, &account)? {
        if made.name == TOKEN_NAME {
            tokens::revoke(db, &account, &made.id)?;
        }
    }
    let (_, token) = tokens::create(db, &account, TOKEN_NAME, now_ms)?
        .map_err(|e| anyhow::anyhow!("the house's level {}: {e}", level.number()))?;
    Ok(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_house_names_are_reserved_and_the_seeds_climb_with_the_level() {
        for level in Level::all() {
            let name = name(level);
            assert!(
                Username::new(name.as_str()).is_err(),
                "{name} could be taken"
            );
        }
        let seeds: Vec<f64> = Level::all().map(seed).collect();
        assert!(seeds.windows(2).all(|w| w[0] < w[1]), "{seeds:?}");
        assert_eq!(seed(Level::new(5).unwrap()), Rating::NEW.rating);
    }
}
