//! The portable statements on SQLite.

use std::sync::Arc;

use rusqlite::Connection;
use rusqlite::types::{ToSqlOutput, ValueRef};

use super::{Dialect, Row, Sql, Value, numbered_for_sqlite};

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Value::Int(v) => ToSqlOutput::Borrowed(ValueRef::Integer(*v)),
            Value::Real(v) => ToSqlOutput::Borrowed(ValueRef::Real(*v)),
            Value::Text(v) => ToSqlOutput::Borrowed(ValueRef::Text(v.as_bytes())),
            Value::Bool(v) => ToSqlOutput::Borrowed(ValueRef::Integer(i64::from(*v))),
        })
    }
}

fn value(v: ValueRef<'_>) -> anyhow::Result<Value> {
    Ok(match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(v) => Value::Int(v),
        ValueRef::Real(v) => Value::Real(v),
        ValueRef::Text(v) => Value::Text(std::str::from_utf8(v)?.to_owned()),
        ValueRef::Blob(_) => anyhow::bail!("a column holds a blob, which no portable table has"),
    })
}

/// The statements on a connection (or a transaction, through which it is reached).
pub(in crate::store) struct On<'a>(pub &'a Connection);

impl Sql for On<'_> {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn execute(&mut self, sql: &str, args: &[Value]) -> anyhow::Result<u64> {
        let mut st = self.0.prepare_cached(&numbered_for_sqlite(sql))?;
        Ok(st.execute(rusqlite::params_from_iter(args))? as u64)
    }

    fn query(&mut self, sql: &str, args: &[Value]) -> anyhow::Result<Vec<Row>> {
        let mut st = self.0.prepare_cached(&numbered_for_sqlite(sql))?;
        let columns: Arc<[String]> = st.column_names().into_iter().map(String::from).collect();
        let mut rows = st.query(rusqlite::params_from_iter(args))?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let values = (0..columns.len())
                .map(|i| value(r.get_ref(i)?))
                .collect::<anyhow::Result<_>>()?;
            out.push(Row::new(columns.clone(), values));
        }
        Ok(out)
    }

    fn batch(&mut self, sql: &str) -> anyhow::Result<()> {
        Ok(self.0.execute_batch(sql)?)
    }
}

impl Sql for Connection {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn execute(&mut self, sql: &str, args: &[Value]) -> anyhow::Result<u64> {
        On(self).execute(sql, args)
    }

    fn query(&mut self, sql: &str, args: &[Value]) -> anyhow::Result<Vec<Row>> {
        On(self).query(sql, args)
    }

    fn batch(&mut self, sql: &str) -> anyhow::Result<()> {
        On(self).batch(sql)
    }
}
