//! The schema of the tables that came after the games' ones, as an ordered list of SQL
//! texts written once for SQLite and PostgreSQL ([`super::sql`]'s dialect). At start the
//! missing ones are applied in order, in one transaction, and recorded in
//! `schema_migrations` with a checksum of their text. On PostgreSQL the transaction first
//! takes an advisory lock, so that several servers starting at once on one database apply
//! each migration once; an SQLite file is held by one server only.
//!
//! A migration once released is never edited (the checksum catches it): a change is a new
//! migration at the end of the list.

use data_encoding::HEXLOWER;
use sha2::{Digest, Sha256};

use super::sql::{Dialect, Sql, args};

/// One step of the schema.
#[derive(Clone, Copy, Debug)]
pub struct Migration {
    /// Its number: the list is in increasing order.
    pub version: i64,
    /// What it makes, in a word.
    pub name: &'static str,
    /// Its statements.
    pub sql: &'static str,
}

/// Every migration, in order.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "players",
        sql: include_str!("migrations/0001_players.sql"),
    },
    Migration {
        version: 100,
        name: "account_settings",
        sql: include_str!("migrations/0100_account_settings.sql"),
    },
    Migration {
        version: 200,
        name: "lobby",
        sql: include_str!("migrations/0200_lobby.sql"),
    },
    Migration {
        version: 300,
        name: "cluster",
        sql: include_str!("migrations/0300_cluster.sql"),
    },
    Migration {
        version: 310,
        name: "engine_jobs",
        sql: include_str!("migrations/0310_engine_jobs.sql"),
    },
    Migration {
        version: 400,
        name: "analyses",
        sql: include_str!("migrations/0400_analyses.sql"),
    },
    Migration {
        version: 500,
        name: "chat",
        sql: include_str!("migrations/0500_chat.sql"),
    },
    Migration {
        version: 600,
        name: "bots",
        sql: include_str!("migrations/0600_bots.sql"),
    },
];

/// The key of PostgreSQL's advisory lock held while migrating and while the base tables are
/// made ("punct" in ASCII).
pub(super) const LOCK: i64 = 0x70_75_6e_63_74;

fn checksum(sql: &str) -> String {
    HEXLOWER.encode(&Sha256::digest(sql.as_bytes()))
}

/// Applies the migrations of [`MIGRATIONS`] that `db` lacks, returning their versions.
pub fn run(db: &mut dyn Sql, now_ms: i64) -> anyhow::Result<Vec<i64>> {
    apply(db, MIGRATIONS, now_ms)
}

/// Applies the migrations of `list` that `db` lacks, in one transaction.
pub(super) fn apply(db: &mut dyn Sql, list: &[Migration], now_ms: i64) -> anyhow::Result<Vec<i64>> {
    db.batch(match db.dialect() {
        // Takes the write lock at once, rather than at the first write.
        Dialect::Sqlite => "BEGIN IMMEDIATE",
        Dialect::Postgres => "BEGIN",
    })?;
    match apply_in_transaction(db, list, now_ms) {
        Ok(applied) => {
            db.batch("COMMIT")?;
            Ok(applied)
        }
        Err(e) => {
            let _ = db.batch("ROLLBACK");
            Err(e)
        }
    }
}

fn apply_in_transaction(
    db: &mut dyn Sql,
    list: &[Migration],
    now_ms: i64,
) -> anyhow::Result<Vec<i64>> {
    if db.dialect() == Dialect::Postgres {
        // Held until the transaction ends; a second server waits here, then finds the
        // migrations applied.
        db.execute("SELECT pg_advisory_xact_lock($1)", &args![LOCK])?;
        db.batch("SET LOCAL client_min_messages TO warning")?;
    }
    db.batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
            version BIGINT PRIMARY KEY,
            name TEXT NOT NULL,
            checksum TEXT NOT NULL,
            applied_ms BIGINT NOT NULL
        )",
    )?;
    let mut applied = Vec::new();
    for row in db.query(
        "SELECT version, name, checksum FROM schema_migrations ORDER BY version",
        &[],
    )? {
        let (version, sum) = (row.int("version")?, row.text("checksum")?);
        match list.iter().find(|m| m.version == version) {
            Some(m) if checksum(m.sql) != sum => anyhow::bail!(
                "migration {version} ({}) is not the one applied to this database: a released \
                 migration was edited (add a new one instead)",
                m.name
            ),
            Some(_) => {}
            None => tracing::warn!(
                version,
                name = row.text("name")?,
                "the database has a migration this server does not know (a newer server \
                 applied it)"
            ),
        }
        applied.push(version);
    }
    let mut made = Vec::new();
    for m in list.iter().filter(|m| !applied.contains(&m.version)) {
        db.batch(m.sql)
            .map_err(|e| anyhow::anyhow!("migration {} ({}) failed: {e:#}", m.version, m.name))?;
        db.execute(
            "INSERT INTO schema_migrations (version, name, checksum, applied_ms)
             VALUES ($1, $2, $3, $4)",
            &args![m.version, m.name, checksum(m.sql), now_ms],
        )?;
        made.push(m.version);
    }
    Ok(made)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_increase() {
        assert!(MIGRATIONS.windows(2).all(|w| w[0].version < w[1].version));
        assert!(MIGRATIONS.iter().all(|m| m.version > 0));
    }

    #[test]
    fn migrations_apply_once_and_in_order_on_sqlite() {
        let mut db = rusqlite::Connection::open_in_memory().unwrap();
        let db: &mut dyn Sql = &mut db;
        let versions: Vec<i64> = MIGRATIONS.iter().map(|m| m.version).collect();
        assert_eq!(run(db, 1).unwrap(), versions);
        assert!(run(db, 2).unwrap().is_empty());
        let next = versions[versions.len() - 1] + 1;
        let mut more = MIGRATIONS.to_vec();
        more.push(Migration {
            version: next,
            name: "more",
            sql: "CREATE TABLE more (id TEXT PRIMARY KEY)",
        });
        assert_eq!(apply(db, &more, 3).unwrap(), [next]);
        let rows = db
            .query(
                "SELECT version, applied_ms FROM schema_migrations ORDER BY version",
                &[],
            )
            .unwrap();
        let seen: Vec<(i64, i64)> = rows
            .iter()
            .map(|r| (r.int("version").unwrap(), r.int("applied_ms").unwrap()))
            .collect();
        let mut expected: Vec<(i64, i64)> = versions.iter().map(|&v| (v, 1)).collect();
        expected.push((next, 3));
        assert_eq!(seen, expected);
    }

    #[test]
    fn an_edited_migration_is_refused_by_name() {
        let mut db = rusqlite::Connection::open_in_memory().unwrap();
        let db: &mut dyn Sql = &mut db;
        run(db, 1).unwrap();
        let edited = [Migration {
            sql: "CREATE TABLE other (id TEXT)",
            ..MIGRATIONS[0]
        }];
        let e = apply(db, &edited, 2).unwrap_err().to_string();
        assert!(e.contains("migration 1 (players)"), "{e}");
    }

    #[test]
    fn a_failing_migration_leaves_nothing_behind() {
        let mut db = rusqlite::Connection::open_in_memory().unwrap();
        let db: &mut dyn Sql = &mut db;
        let bad = [Migration {
            version: 1,
            name: "bad",
            sql: "CREATE TABLE half (id TEXT); CREATE TABLE half (id TEXT)",
        }];
        let e = apply(db, &bad, 1).unwrap_err().to_string();
        assert!(e.contains("migration 1 (bad) failed"), "{e}");
        assert!(db.query("SELECT * FROM half", &[]).is_err());
        assert!(db.query("SELECT * FROM schema_migrations", &[]).is_err());
    }
}
