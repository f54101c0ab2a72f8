//! PostgreSQL backend, the path to scale: the connection pool and its migrations. The
//! register itself is written once for both backends (`app.rs`, `charter.rs`); on PostgreSQL
//! its check-then-insert writes lock the rows they check (`SELECT … FOR UPDATE`) so
//! concurrent nodes cannot both pass the check.

use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};

use super::StorageError;
use super::changes::Changes;
use super::status_reads::StatusReads;

pub(crate) static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

#[derive(Debug, Clone)]
pub struct PgRepository {
    pool: PgPool,
    changes: Arc<Changes>,
    status_reads: Arc<StatusReads>,
    /// False while the migrations wait for a database that did not answer at start.
    migrated: Arc<AtomicBool>,
}

impl PgRepository {
    /// Opens (creating file and folder if needed) and migrates the database at `url`.
    pub async fn connect(url: &str) -> Result<Self, StorageError> {
        // Fail fast. A statement the server runs longer than 10 s is cancelled by the
        // server; a connection not free within 2 s is a 503, not a queue. No JIT: the register's
        // queries read a few rows each, and a cost estimated high before the tables are
        // analysed (a freshly migrated database) made PostgreSQL spend ≈ 350 ms compiling a
        // status read that runs in 1 ms — past the verification's deadline.
        let options = PgConnectOptions::from_str(url)?
            .options([("statement_timeout", "10s"), ("jit", "off")]);
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(Duration::from_secs(2))
            .connect_lazy_with(options);
        let migrated = Arc::new(AtomicBool::new(true));
        match migrate(&pool).await {
            Ok(()) => {}
            // A database that does not answer at start does not keep selo down: it
            // serves (health 503, register operations 503, verification `status_unavailable`)
            // and migrates as soon as the database answers, without a restart.
            Err(sqlx::migrate::MigrateError::Execute(e)) if unreachable(&e) => {
                tracing::warn!(error = %e, "PostgreSQL does not answer at start; serving as unhealthy until it does");
                migrated.store(false, Ordering::Release);
                let (pool, migrated) = (pool.clone(), migrated.clone());
                tokio::spawn(async move {
                    loop {
                        tokio::time::sleep(Duration::from_millis(250)).await;
                        match migrate(&pool).await {
                            Ok(()) => {
                                migrated.store(true, Ordering::Release);
                                tracing::info!("PostgreSQL answers again; migrations applied");
                                break;
                            }
                            Err(sqlx::migrate::MigrateError::Execute(e)) if unreachable(&e) => {}
                            Err(e) => {
                                tracing::error!(error = %e, "migrations failed once PostgreSQL answered");
                                break;
                            }
                        }
                    }
                });
            }
            Err(e) => return Err(StorageError::migration(e)),
        }
        Ok(Self {
            pool,
            migrated,
            changes: Arc::default(),
            status_reads: Arc::default(),
        })
    }

    /// Whether the schema is in place (false only while a database that did not answer at
    /// start is still awaited).
    pub fn migrated(&self) -> bool {
        self.migrated.load(Ordering::Acquire)
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    pub fn changes(&self) -> &Arc<Changes> {
        &self.changes
    }

    pub fn status_reads(&self) -> &Arc<StatusReads> {
        &self.status_reads
    }
}

/// Says when the server does not analyse the tables by itself (`autovacuum`, on unless the
/// server's configuration turns it off): without statistics the planner guesses, and a guess
/// can read a whole register where an index would do (the search by plate read every
/// authorization). The service calls it at start (not the command line, whose output a log
/// line would mix with); a server that cannot be asked is left for the health check to tell.
pub(crate) async fn warn_without_autovacuum(pool: &PgPool) {
    let setting = sqlx::query_scalar::<_, String>("SELECT current_setting('autovacuum')")
        .fetch_one(pool)
        .await;
    if matches!(setting.as_deref(), Ok("off")) {
        tracing::warn!(
            "PostgreSQL's autovacuum is off: the planner's statistics are not kept up to date; \
             run ANALYZE after large changes (docs/operations.md)"
        );
    }
}

/// Whether `e` says the server did not answer (as opposed to refusing what was asked).
fn unreachable(e: &sqlx::Error) -> bool {
    matches!(
        e,
        sqlx::Error::PoolTimedOut | sqlx::Error::Io(_) | sqlx::Error::PoolClosed
    )
}

/// Applies the migrations, after bringing the records of reworded ones up to date.
async fn migrate(pool: &PgPool) -> Result<(), sqlx::migrate::MigrateError> {
    migrate_reworded!(
        pool,
        MIGRATOR,
        "SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = '_sqlx_migrations'",
        super::reworded::POSTGRES
    )
    .await
}
