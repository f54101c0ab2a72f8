//! What tells the caches of this node that the register changed: a generation
//! bumped after every committed write of this node and, on PostgreSQL, on every notification
//! of a commit by any node (`LISTEN selo_register`, sent by the triggers of migration 0016).
//!
//! A cache stores the generation it read before it read the register and trusts what it
//! read only while the generation is unchanged: a write that commits while the read is in
//! flight bumps it afterwards, so nothing read before a commit outlives it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The generation of the register as this node knows it.
#[derive(Debug, Default)]
pub struct Changes {
    generation: AtomicU64,
}

impl Changes {
    /// The generation now: read it before reading the register.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Something was committed (here, or on another node): every cached read is stale.
    pub fn committed(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
    }
}

/// A write transaction that tells [`Changes`] once it commits. It dereferences to the
/// connection, so `&mut *tx` runs queries inside it as with `sqlx::Transaction`.
pub struct Tx<DB: sqlx::Database> {
    inner: sqlx::Transaction<'static, DB>,
    changes: Arc<Changes>,
}

impl<DB: sqlx::Database> Tx<DB> {
    pub(crate) async fn open(
        changes: Arc<Changes>,
        begin: impl Future<Output = Result<sqlx::Transaction<'static, DB>, sqlx::Error>>,
    ) -> Result<Self, sqlx::Error> {
        // Boxed: the begin future is large, and every write's future would carry it twice.
        Ok(Self {
            inner: Box::pin(begin).await?,
            changes,
        })
    }

    /// Commits, then bumps the generation (never before: a read between the two would cache
    /// the state before the commit under the new generation).
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        self.inner.commit().await?;
        self.changes.committed();
        Ok(())
    }

    /// Commits a change no verification and no deadline reads (officials' accounts and
    /// sessions, applicants' filings, passengers' reports, platforms' credentials and
    /// links): the caches stay warm.
    pub async fn commit_unseen(self) -> Result<(), sqlx::Error> {
        self.inner.commit().await
    }
}

impl<DB: sqlx::Database> std::ops::Deref for Tx<DB> {
    type Target = DB::Connection;
    fn deref(&self) -> &DB::Connection {
        &self.inner
    }
}

impl<DB: sqlx::Database> std::ops::DerefMut for Tx<DB> {
    fn deref_mut(&mut self) -> &mut DB::Connection {
        &mut self.inner
    }
}

/// The channel the triggers of migration 0016 notify on every committed change.
pub const CHANNEL: &str = "selo_register";

/// Listens for the commits of every node on `pool`'s database for as long as the process
/// runs, bumping `changes` on each. Notifications sent while the connection was down are
/// lost, so every (re)connection bumps too; while the database is unreachable nothing
/// bumps, so the last statuses read stay usable as the last known ones.
pub async fn listen(pool: sqlx::PgPool, changes: Arc<Changes>) {
    let mut logged_down = false;
    while !pool.is_closed() {
        match subscribe(&pool).await {
            Ok(mut listener) => {
                changes.committed();
                if logged_down {
                    tracing::info!("listening for other nodes' changes again");
                    logged_down = false;
                }
                loop {
                    match listener.try_recv().await {
                        Ok(Some(_)) => changes.committed(),
                        // The connection was lost: reconnect (and bump once connected).
                        Ok(None) => break,
                        Err(e) => {
                            tracing::warn!(error = %e, "change notifications interrupted");
                            break;
                        }
                    }
                }
            }
            Err(e) => {
                if !logged_down {
                    tracing::warn!(error = %e, "cannot listen for other nodes' changes; retrying");
                    logged_down = true;
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

async fn subscribe(pool: &sqlx::PgPool) -> Result<sqlx::postgres::PgListener, sqlx::Error> {
    let mut listener = sqlx::postgres::PgListener::connect_with(pool).await?;
    listener.listen(CHANNEL).await?;
    Ok(listener)
}
