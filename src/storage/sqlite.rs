//! SQLite backend, the embedded default: the connection (WAL, `synchronous=FULL`, foreign
//! keys on) and its migrations. The register itself is written once for both backends
//! (`app.rs`, `charter.rs`); on SQLite its check-then-insert writes take the write lock up
//! front (`BEGIN IMMEDIATE`).

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

use super::StorageError;
use super::changes::Changes;

pub(crate) static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");

#[derive(Debug, Clone)]
pub struct SqliteRepository {
    pool: SqlitePool,
    changes: Arc<Changes>,
    inline: Arc<InlineReaders>,
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
        let file = options.get_filename().to_path_buf();
        let in_memory = file.as_os_str().is_empty() || file.as_os_str() == ":memory:";
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
            inline: Arc::new(InlineReaders {
                file: (!in_memory).then_some(file),
                idle: Mutex::default(),
            }),
        })
    }

    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    pub fn changes(&self) -> &Arc<Changes> {
        &self.changes
    }

    pub(crate) fn inline(&self) -> &InlineReaders {
        &self.inline
    }
}

/// Read-only connections to the register's file, used on the caller's own thread.
///
/// A read through the pool hands the query to the connection's thread and waits to be woken
/// with the rows: two thread switches and a channel for a read that takes tens of
/// microseconds. The verification of a scanned token, the read that runs most, reads its
/// status here instead. Each statement sees the last commit (WAL: readers never wait for the
/// writer); a read that fails for any reason (the file busy past [`INLINE_BUSY`], a
/// connection that cannot be opened) is `None`, and the caller reads through the pool, whose
/// errors and deadlines are the ones it answers with.
#[derive(Debug)]
pub(crate) struct InlineReaders {
    /// `None` for a database in memory, which another connection cannot open.
    file: Option<PathBuf>,
    idle: Mutex<Vec<rusqlite::Connection>>,
}

/// How many readers are kept open between reads (one per request thread is enough).
const INLINE_IDLE: usize = 8;
/// How long a read waits for a lock on the file before it gives way to the pool.
const INLINE_BUSY: Duration = Duration::from_millis(50);

impl InlineReaders {
    /// `read` on a reader of this thread's own, or `None` (read through the pool).
    pub(crate) fn read<T>(
        &self,
        read: impl FnOnce(&rusqlite::Connection) -> rusqlite::Result<T>,
    ) -> Option<T> {
        let file = self.file.as_deref()?;
        let taken = self
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        let conn = match taken {
            Some(conn) => conn,
            None => match open_reader(file) {
                Ok(conn) => conn,
                Err(e) => {
                    tracing::warn!(error = %e, "inline reader: the register could not be opened");
                    return None;
                }
            },
        };
        match read(&conn) {
            Ok(value) => {
                let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
                if idle.len() < INLINE_IDLE {
                    idle.push(conn);
                }
                Some(value)
            }
            Err(e) => {
                tracing::warn!(error = %e, "inline reader: read failed, read through the pool");
                None
            }
        }
    }
}

fn open_reader(file: &Path) -> rusqlite::Result<rusqlite::Connection> {
    use rusqlite::OpenFlags;
    let conn = rusqlite::Connection::open_with_flags(
        file,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(INLINE_BUSY)?;
    Ok(conn)
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
