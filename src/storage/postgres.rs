//! PostgreSQL backend, the path to scale: the connection pool and its migrations. The
//! register itself is written once for both backends (`app.rs`, `charter.rs`); on PostgreSQL
//! its check-then-insert writes lock the rows they check (`SELECT … FOR UPDATE`) so
//! concurrent nodes cannot both pass the check.

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};

use super::StorageError;

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

#[derive(Debug, Clone)]
pub struct PgRepository {
    pool: PgPool,
}

impl PgRepository {
    /// Opens (creating file and folder if needed) and migrates the database at `url`.
    pub async fn connect(url: &str) -> Result<Self, StorageError> {
        // Issue 14: fail fast. A statement the server runs longer than 10 s is cancelled by the
        // server; a connection not free within 2 s is a 503, not a queue.
        let options = PgConnectOptions::from_str(url)?.options([("statement_timeout", "10s")]);
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(Duration::from_secs(2))
            .connect_with(options)
            .await?;
        MIGRATOR
            .run(&pool)
            .await
            .map_err(|e| StorageError::Database(sqlx::Error::Migrate(Box::new(e))))?;
        Ok(Self { pool })
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }
}
