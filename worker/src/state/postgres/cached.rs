//! Statements prepared once per connection.
//!
//! tokio-postgres sends a statement given as text in two round trips, "prepare" (the server
//! parses and plans it) then "execute". The state sends the same few dozen statements for
//! every record, so each connection prepares each of them once (`deadpool-postgres`'s
//! statement cache) and afterwards sends only "execute": half the round trips, and no parsing
//! or planning on the server, which was most of its work in a pool of workers
//! (docs/benchmarks.md, "Pool throughput").

use std::future::Future;

use deadpool_postgres::{ClientWrapper, Transaction};
use tokio_postgres::types::ToSql;
use tokio_postgres::{Error, GenericClient, Row, Statement};

/// A connection or a transaction whose statements are prepared once and then reused.
pub(crate) trait Cached: Sync {
    /// `sql`, prepared on this connection the first time it is seen.
    fn prepared(&self, sql: &str) -> impl Future<Output = Result<Statement, Error>> + Send;

    /// What runs the prepared statements.
    fn runner(&self) -> &(impl GenericClient + Sync);

    /// Like `execute`, with `sql` prepared once per connection.
    fn execute_cached(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> impl Future<Output = Result<u64, Error>> + Send {
        async move {
            let statement = self.prepared(sql).await?;
            self.runner().execute(&statement, params).await
        }
    }

    /// Like `query`, with `sql` prepared once per connection.
    fn query_cached(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> impl Future<Output = Result<Vec<Row>, Error>> + Send {
        async move {
            let statement = self.prepared(sql).await?;
            self.runner().query(&statement, params).await
        }
    }

    /// Like `query_one`, with `sql` prepared once per connection.
    fn query_one_cached(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> impl Future<Output = Result<Row, Error>> + Send {
        async move {
            let statement = self.prepared(sql).await?;
            self.runner().query_one(&statement, params).await
        }
    }

    /// Like `query_opt`, with `sql` prepared once per connection.
    fn query_opt_cached(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> impl Future<Output = Result<Option<Row>, Error>> + Send {
        async move {
            let statement = self.prepared(sql).await?;
            self.runner().query_opt(&statement, params).await
        }
    }
}

impl Cached for ClientWrapper {
    fn prepared(&self, sql: &str) -> impl Future<Output = Result<Statement, Error>> + Send {
        self.prepare_cached(sql)
    }

    fn runner(&self) -> &(impl GenericClient + Sync) {
        &**self
    }
}

impl Cached for Transaction<'_> {
    fn prepared(&self, sql: &str) -> impl Future<Output = Result<Statement, Error>> + Send {
        self.prepare_cached(sql)
    }

    fn runner(&self) -> &(impl GenericClient + Sync) {
        &**self
    }
}
