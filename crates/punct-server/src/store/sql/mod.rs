//! Statements written once for both databases, for the tables that came after the games'
//! (players, and later the lobby, jobs and leases): parameters written `$1`, `$2`, … (as
//! PostgreSQL has them; rewritten to `?1`, `?2`, … for SQLite), values as [`Value`], rows
//! read by column name ([`Row`]).
//!
//! The one dialect both understand: types `TEXT`, `BIGINT`, `DOUBLE PRECISION`, `BOOLEAN`;
//! `INSERT … ON CONFLICT … DO NOTHING / DO UPDATE SET x = excluded.x`; `RETURNING`; `CASE`
//! rather than `GREATEST`; ids made by the application, never by the database.

mod postgres;
mod sqlite;

pub(super) use sqlite::On;

use std::sync::Arc;

/// Which database a connection speaks to, for the few things that differ (a lock).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// SQLite.
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

/// A value bound to a parameter or read from a column.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// SQL's `NULL`.
    Null,
    /// A `BIGINT` (or a boolean, as SQLite keeps it).
    Int(i64),
    /// A `DOUBLE PRECISION`.
    Real(f64),
    /// A `TEXT`.
    Text(String),
    /// A `BOOLEAN`.
    Bool(bool),
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Real(v)
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Bool(v)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_owned())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}

impl From<&String> for Value {
    fn from(v: &String) -> Value {
        Value::Text(v.clone())
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

/// The arguments of a statement: `args![a, b]` is `[Value::from(a), Value::from(b)]`.
macro_rules! args {
    ($($v:expr),* $(,)?) => {
        [$($crate::store::sql::Value::from($v)),*]
    };
}
pub(crate) use args;

/// One row of a query's answer, read by column name.
#[derive(Clone, Debug)]
pub struct Row {
    columns: Arc<[String]>,
    values: Vec<Value>,
}

impl Row {
    /// A row of `values` under `columns`.
    fn new(columns: Arc<[String]>, values: Vec<Value>) -> Row {
        Row { columns, values }
    }

    /// The value of column `name`.
    pub fn get(&self, name: &str) -> anyhow::Result<&Value> {
        self.columns
            .iter()
            .position(|c| c == name)
            .map(|i| &self.values[i])
            .ok_or_else(|| anyhow::anyhow!("the answer has no column {name:?}"))
    }

    fn wrong(name: &str, wanted: &str, found: &Value) -> anyhow::Error {
        anyhow::anyhow!("column {name:?} holds {found:?}, not {wanted}")
    }

    /// Column `name` as an integer, or `None` for `NULL`.
    pub fn opt_int(&self, name: &str) -> anyhow::Result<Option<i64>> {
        match self.get(name)? {
            Value::Null => Ok(None),
            Value::Int(v) => Ok(Some(*v)),
            other => Err(Row::wrong(name, "an integer", other)),
        }
    }

    /// Column `name` as an integer.
    pub fn int(&self, name: &str) -> anyhow::Result<i64> {
        self.opt_int(name)?
            .ok_or_else(|| anyhow::anyhow!("column {name:?} is NULL, not an integer"))
    }

    /// Column `name` as a number, or `None` for `NULL` (an integer is read as one).
    pub fn opt_real(&self, name: &str) -> anyhow::Result<Option<f64>> {
        match self.get(name)? {
            Value::Null => Ok(None),
            Value::Real(v) => Ok(Some(*v)),
            Value::Int(v) => Ok(Some(*v as f64)),
            other => Err(Row::wrong(name, "a number", other)),
        }
    }

    /// Column `name` as a number.
    pub fn real(&self, name: &str) -> anyhow::Result<f64> {
        self.opt_real(name)?
            .ok_or_else(|| anyhow::anyhow!("column {name:?} is NULL, not a number"))
    }

    /// Column `name` as text, or `None` for `NULL`.
    pub fn opt_text(&self, name: &str) -> anyhow::Result<Option<String>> {
        match self.get(name)? {
            Value::Null => Ok(None),
            Value::Text(v) => Ok(Some(v.clone())),
            other => Err(Row::wrong(name, "text", other)),
        }
    }

    /// Column `name` as text.
    pub fn text(&self, name: &str) -> anyhow::Result<String> {
        self.opt_text(name)?
            .ok_or_else(|| anyhow::anyhow!("column {name:?} is NULL, not text"))
    }

    /// Column `name` as a boolean (SQLite keeps them as 0 and 1).
    pub fn bool(&self, name: &str) -> anyhow::Result<bool> {
        match self.get(name)? {
            Value::Bool(v) => Ok(*v),
            Value::Int(v @ (0 | 1)) => Ok(*v == 1),
            other => Err(Row::wrong(name, "a boolean", other)),
        }
    }
}

/// A connection (or a transaction on one) that runs the portable statements.
pub trait Sql {
    /// The database spoken to.
    fn dialect(&self) -> Dialect;
    /// Runs one statement, returning how many rows it changed.
    fn execute(&mut self, sql: &str, args: &[Value]) -> anyhow::Result<u64>;
    /// Runs one statement, returning the rows it answers.
    fn query(&mut self, sql: &str, args: &[Value]) -> anyhow::Result<Vec<Row>>;
    /// Runs statements without arguments, separated by `;`.
    fn batch(&mut self, sql: &str) -> anyhow::Result<()>;
}

impl dyn Sql + '_ {
    /// The first row the statement answers, if any.
    pub fn query_opt(&mut self, sql: &str, args: &[Value]) -> anyhow::Result<Option<Row>> {
        Ok(self.query(sql, args)?.into_iter().next())
    }

    /// Runs `work` under a savepoint: what it wrote is undone if it fails, and only then.
    pub fn savepoint<T>(
        &mut self,
        work: impl FnOnce(&mut dyn Sql) -> anyhow::Result<T>,
    ) -> anyhow::Result<T> {
        self.batch("SAVEPOINT punct_work")?;
        match work(self) {
            Ok(v) => {
                self.batch("RELEASE SAVEPOINT punct_work")?;
                Ok(v)
            }
            Err(e) => {
                self.batch("ROLLBACK TO SAVEPOINT punct_work; RELEASE SAVEPOINT punct_work")?;
                Err(e)
            }
        }
    }
}

/// A statement and its arguments, to run later (with a game's row, say).
#[derive(Clone, Debug, PartialEq)]
pub struct Statement {
    /// The statement, parameters written `$1`, `$2`, ….
    pub sql: &'static str,
    /// Its arguments.
    pub args: Vec<Value>,
}

impl Statement {
    /// `sql` with `args`.
    pub fn new(sql: &'static str, args: impl Into<Vec<Value>>) -> Statement {
        Statement {
            sql,
            args: args.into(),
        }
    }
}

/// What a write of a game's row carries: run in the same transaction right after the row
/// is written, and only if it is (not when the write is refused as stale). If one fails,
/// the row and everything it carries are undone together and the write fails alone.
pub trait Attached: Send + Sync + std::fmt::Debug {
    /// Makes its writes in the transaction.
    fn apply(&self, db: &mut dyn Sql) -> anyhow::Result<()>;
}

impl Attached for Statement {
    fn apply(&self, db: &mut dyn Sql) -> anyhow::Result<()> {
        db.execute(self.sql, &self.args).map(|_| ())
    }
}

/// `sql` with its `$n` parameters written `?n`, as SQLite numbers them: a `$` inside a
/// string literal or a quoted name is left alone.
pub fn numbered_for_sqlite(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quote: Option<char> = None;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match quote {
            Some(q) => {
                if c == q {
                    quote = None;
                }
                out.push(c);
            }
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                out.push(c);
            }
            None if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) => out.push('?'),
            None => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parameters_are_numbered_for_sqlite() {
        assert_eq!(
            numbered_for_sqlite("SELECT a FROM t WHERE b = $1 AND c = $12 OR d = $1"),
            "SELECT a FROM t WHERE b = ?1 AND c = ?12 OR d = ?1"
        );
        assert_eq!(
            numbered_for_sqlite("SELECT '$1', \"$2\" FROM t WHERE x = $3"),
            "SELECT '$1', \"$2\" FROM t WHERE x = ?3"
        );
        assert_eq!(
            numbered_for_sqlite("SELECT 'it''s $1' || $2"),
            "SELECT 'it''s $1' || ?2"
        );
        assert_eq!(numbered_for_sqlite("SELECT $ FROM t"), "SELECT $ FROM t");
    }

    #[test]
    fn rows_are_read_by_name_with_clear_errors() {
        let columns: Arc<[String]> = ["n", "r", "t", "b", "z"].map(String::from).into();
        let row = Row::new(
            columns,
            vec![
                Value::Int(3),
                Value::Real(1.5),
                Value::Text("x".into()),
                Value::Int(1),
                Value::Null,
            ],
        );
        assert_eq!(row.int("n").unwrap(), 3);
        assert_eq!(row.real("n").unwrap(), 3.0);
        assert_eq!(row.real("r").unwrap(), 1.5);
        assert_eq!(row.text("t").unwrap(), "x");
        assert!(row.bool("b").unwrap());
        assert_eq!(row.opt_int("z").unwrap(), None);
        assert!(
            row.int("z")
                .unwrap_err()
                .to_string()
                .contains("\"z\" is NULL")
        );
        assert!(
            row.int("t")
                .unwrap_err()
                .to_string()
                .contains("not an integer")
        );
        assert!(
            row.int("nope")
                .unwrap_err()
                .to_string()
                .contains("no column \"nope\"")
        );
    }

    #[test]
    fn values_come_from_rust_values() {
        let a = args![1i64, "x", 2.5, true, None::<i64>, Some("y")];
        assert_eq!(
            a,
            [
                Value::Int(1),
                Value::Text("x".into()),
                Value::Real(2.5),
                Value::Bool(true),
                Value::Null,
                Value::Text("y".into())
            ]
        );
    }

    proptest! {
        /// Only `$` followed by a digit outside quotes changes, to `?`; nothing else does.
        #[test]
        fn rewriting_changes_only_parameters(s in "[a-z $0-9'\"=]{0,40}") {
            let out = numbered_for_sqlite(&s);
            prop_assert_eq!(out.len(), s.len());
            for (a, b) in s.chars().zip(out.chars()) {
                prop_assert!(a == b || (a == '$' && b == '?'));
            }
        }
    }
}
