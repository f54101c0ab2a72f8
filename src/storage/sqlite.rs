//! SQLite backend, the embedded default: the connection (WAL, `synchronous=FULL`, foreign
//! keys on) and its migrations. The register itself is written once for both backends
//! (`app.rs`, `charter.rs`); on SQLite its check-then-insert writes take the write lock up
//! front (`BEGIN IMMEDIATE`).

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

use super::StorageError;
use super::changes::Changes;
use super::status_reads::StatusReads;

pub(crate) static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");

#[derive(Debug, Clone)]
pub struct SqliteRepository {
    pool: SqlitePool,
    changes: Arc<Changes>,
    status_reads: Arc<StatusReads>,
}

impl SqliteRepository {
    /// Opens (creating file and folder if needed) and migrates the database at `url`.
    pub async fn connect(url: &str) -> Result<Self, StorageError> {
        let options = SqliteConnectOptions::from_str(url)?;
        if let Some(parent) = options.get_filename().parent()
            && !parent.as_os_str().is_empty()
        {
            std::fs::create_dir_all(parent)
                .map_err(|e| StorageError::Unavailable(sqlx::Error::Io(e)))?;
        }
        let options = options
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            // A connection is a file handle in this process: the ping before each use would be
            // a round trip to its thread for nothing (a broken file fails the query itself).
            .test_before_acquire(false)
            .acquire_timeout(Duration::from_secs(2))
            .connect_with(options)
            .await?;
        migrate(&pool).await.map_err(StorageError::migration)?;
        Ok(Self {
            pool,
            changes: Arc::default(),
            status_reads: Arc::default(),
        })
    }

    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    pub fn changes(&self) -> &Arc<Changes> {
        &self.changes
    }

    pub fn status_reads(&self) -> &Arc<StatusReads> {
        &self.status_reads
    }
}

/// Applies the migrations, after bringing the records of reworded ones up to date.
async fn migrate(pool: &SqlitePool) -> Result<(), sqlx::migrate::MigrateError> {
    migrate_reworded!(
        pool,
        MIGRATOR,
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'",
        super::reworded::SQLITE
    )
    .await
}

/// SQLite's plan of `sql` on `store` (a SQLite store), one line per step; its parameters
/// are left unbound (the plan does not depend on their values).
#[cfg(test)]
pub(crate) async fn query_plan(store: &super::Store, sql: &str) -> String {
    let super::Store::Sqlite(r) = store else {
        unreachable!("a SQLite store")
    };
    let rows: Vec<(i64, i64, i64, String)> =
        sqlx::query_as(sqlx::AssertSqlSafe(format!("EXPLAIN QUERY PLAN {sql}")))
            .fetch_all(r.pool())
            .await
            .unwrap();
    rows.into_iter().map(|r| r.3).collect::<Vec<_>>().join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bundled SQLite is built as `.cargo/config.toml` says: each connection its own page
    /// cache and no global count of allocations, so readers on their own threads do not
    /// queue on one lock for every page.
    #[tokio::test]
    async fn each_connection_keeps_its_own_page_cache() {
        let dir = tempfile::tempdir().unwrap();
        let repo =
            SqliteRepository::connect(&format!("sqlite://{}/build.db", dir.path().display()))
                .await
                .unwrap();
        let options: Vec<(String,)> = sqlx::query_as("PRAGMA compile_options")
            .fetch_all(repo.pool())
            .await
            .unwrap();
        let options: Vec<String> = options.into_iter().map(|(o,)| o).collect();
        assert!(
            options.iter().any(|o| o == "THREADSAFE=1"),
            "the options are read: {options:?}"
        );
        assert!(
            !options.iter().any(|o| o == "ENABLE_MEMORY_MANAGEMENT"),
            "one page cache shared by every connection: {options:?}"
        );
        assert!(
            options.iter().any(|o| o == "DEFAULT_MEMSTATUS=0"),
            "allocations counted under a global lock: {options:?}"
        );
    }
}
