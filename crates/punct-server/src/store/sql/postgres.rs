//! The portable statements on PostgreSQL.

use std::error::Error;
use std::sync::Arc;

use bytes::BytesMut;
use postgres::types::{IsNull, ToSql, Type, to_sql_checked};
use postgres::{Client, GenericClient, Transaction};

use super::{Dialect, Row, Sql, Value};

impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        // PostgreSQL says which type it wants for each parameter; integers and numbers are
        // given in that one.
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(v) => match *ty {
                Type::INT2 => i16::try_from(*v)?.to_sql(ty, out),
                Type::INT4 => i32::try_from(*v)?.to_sql(ty, out),
                Type::FLOAT8 => (*v as f64).to_sql(ty, out),
                Type::BOOL => (*v != 0).to_sql(ty, out),
                _ => v.to_sql(ty, out),
            },
            Value::Real(v) => match *ty {
                Type::FLOAT4 => (*v as f32).to_sql(ty, out),
                _ => v.to_sql(ty, out),
            },
            Value::Text(v) => v.to_sql(ty, out),
            Value::Bool(v) => v.to_sql(ty, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// Column `i` of `row` as a [`Value`].
fn value(row: &postgres::Row, i: usize) -> anyhow::Result<Value> {
    let column = &row.columns()[i];
    let ty = column.type_();
    let v = match *ty {
        Type::BOOL => row.try_get::<_, Option<bool>>(i)?.map(Value::Bool),
        Type::INT2 => row
            .try_get::<_, Option<i16>>(i)?
            .map(|v| Value::Int(v.into())),
        Type::INT4 => row
            .try_get::<_, Option<i32>>(i)?
            .map(|v| Value::Int(v.into())),
        Type::INT8 => row.try_get::<_, Option<i64>>(i)?.map(Value::Int),
        Type::FLOAT4 => row
            .try_get::<_, Option<f32>>(i)?
            .map(|v| Value::Real(v.into())),
        Type::FLOAT8 => row.try_get::<_, Option<f64>>(i)?.map(Value::Real),
        Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME => {
            row.try_get::<_, Option<String>>(i)?.map(Value::Text)
        }
        _ => anyhow::bail!(
            "column {:?} is of type {ty}, which no portable table has",
            column.name()
        ),
    };
    Ok(v.unwrap_or(Value::Null))
}

fn params(args: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    args.iter().map(|a| a as &(dyn ToSql + Sync)).collect()
}

fn execute(c: &mut impl GenericClient, sql: &str, args: &[Value]) -> anyhow::Result<u64> {
    Ok(c.execute(sql, &params(args))?)
}

fn query(c: &mut impl GenericClient, sql: &str, args: &[Value]) -> anyhow::Result<Vec<Row>> {
    let rows = c.query(sql, &params(args))?;
    let Some(first) = rows.first() else {
        return Ok(Vec::new());
    };
    let columns: Arc<[String]> = first
        .columns()
        .iter()
        .map(|c| c.name().to_owned())
        .collect();
    rows.iter()
        .map(|r| {
            let values = (0..columns.len())
                .map(|i| value(r, i))
                .collect::<anyhow::Result<_>>()?;
            Ok(Row::new(columns.clone(), values))
        })
        .collect()
}

/// Implements [`Sql`] on a client type (a connection, a transaction) of PostgreSQL.
macro_rules! sql_on {
    ($($client:ty),*) => {$(
        impl Sql for $client {
            fn dialect(&self) -> Dialect {
                Dialect::Postgres
            }

            fn execute(&mut self, sql: &str, args: &[Value]) -> anyhow::Result<u64> {
                execute(self, sql, args)
            }

            fn query(&mut self, sql: &str, args: &[Value]) -> anyhow::Result<Vec<Row>> {
                query(self, sql, args)
            }

            fn batch(&mut self, sql: &str) -> anyhow::Result<()> {
                Ok(self.batch_execute(sql)?)
            }
        }
    )*};
}

sql_on!(Client, Transaction<'_>);
