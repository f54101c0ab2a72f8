//! PostgreSQL backend, the path to scale: the connection pool and its migrations. The
//! register itself is written once for both backends (`app.rs`, `charter.rs`); on PostgreSQL
//! its check-then-insert writes lock the rows they check (`SELECT … FOR UPDATE`) so
//! concurrent nodes cannot both pass the check.

use std::time::Duration;

use sqlx::postgres::{PgPool, PgPoolOptions};

use super::StorageError;

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

#[derive(Debug, Clone)]
pub struct PgRepository {
    pool: PgPool,
}

impl PgRepository {
    /// Opens (creating file and folder if needed) and migrates the database at `url`.
    pub async fn connect(url: &str) -> Result<Self, StorageError> {
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(Duration::from_secs(5))
            .connect(url)
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
