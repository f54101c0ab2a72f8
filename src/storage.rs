//! Persistence: the [`Store`] that picks a backend at start-up (`sqlite`, `postgres`: the
//! connection and migrations of each) and the register written once for both (`app`,
//! `charter`, …): `on_backend!` expands each body per pool type.
//!
//! Both backends run the same SQL text (sqlx binds `$N` on SQLite too; the few dialect
//! differences are the row locks PostgreSQL takes); row structs are shared and every value read back is parsed again into a
//! domain type, so a bad row is `StorageError::Corrupt`, never a wrong document.

#[macro_use]
mod macros;

pub mod applicant_links;
pub mod applicants;
pub mod audit;
pub mod backup;
pub mod changes;
pub mod charter;
mod document_kind;
pub mod documents;
pub mod filings;
pub mod legal_bases;
pub mod officials;
pub mod outbox;
pub mod postgres;
mod records;
pub mod rectifications;
pub mod reports;
mod reworded;
pub mod ride_hailing;
mod rows;
pub mod search;
/// The statements, public for the tests that ask a database's planner about them.
#[doc(hidden)]
pub mod sql;
pub mod sqlite;
pub mod status_reads;
pub mod worklist;

pub use document_kind::*;
pub use records::*;
pub(crate) use rows::*;

use chrono::{DateTime, NaiveDate, Utc};
use uuid::Uuid;

use crate::domain::calendar::{ClosedDay, DayKind};
use crate::domain::ids::{CnhCategory, CnhNumber, Cpf, IbgeCode, Plate, Renavam};
use crate::domain::ride_hailing::driver_record::DriverRecord;
use crate::domain::ride_hailing::registry::{
    Cnh, Driver, Revocation, RideHailingAuthorization, Vehicle,
};
use crate::domain::ride_hailing::sanctions::{Sanction, SanctionKind};

#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// A uniqueness rule of the register was hit; the field says which.
    #[error("conflict on {0}")]
    Conflict(&'static str),
    #[error("not found")]
    NotFound,
    #[error("corrupt row: {0}")]
    Corrupt(String),
    #[error("database unavailable: {0}")]
    Unavailable(#[source] sqlx::Error),
    #[error("database error: {0}")]
    Database(#[source] sqlx::Error),
    /// The database was migrated by a newer selo: this binary does not know migration `.0`.
    #[error(
        "the database was migrated by a newer version of selo (its migration {0} is unknown to this binary): \
         run the newer binary, or restore the backup taken before the upgrade (selo restore)"
    )]
    NewerSchema(i64),
}

impl StorageError {
    /// A migration's failure, with a newer database's named as such.
    pub fn migration(e: sqlx::migrate::MigrateError) -> Self {
        match e {
            sqlx::migrate::MigrateError::VersionMissing(v) => Self::NewerSchema(v),
            other => Self::Database(sqlx::Error::Migrate(Box::new(other))),
        }
    }
}

impl From<sqlx::Error> for StorageError {
    fn from(e: sqlx::Error) -> Self {
        match &e {
            sqlx::Error::Database(db) if db.is_unique_violation() => {
                let text = format!("{} {}", db.message(), db.constraint().unwrap_or_default());
                let field = [
                    "cnpj",
                    "cpf",
                    "cnh_number",
                    "plate_mercosul",
                    "plate",
                    "renavam",
                    "verification_code",
                    "calendar_days",
                    "upf_values",
                    "app_auto_notifications",
                    "data_request_deliveries",
                    "number",
                ]
                .into_iter()
                .find(|f| text.contains(f))
                .unwrap_or("unique");
                Self::Conflict(field)
            }
            sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::Io(_)
            | sqlx::Error::Tls(_) => Self::Unavailable(e),
            _ => Self::Database(e),
        }
    }
}

fn corrupt(what: &str, id: &str) -> StorageError {
    StorageError::Corrupt(format!("{what} in row {id}"))
}

pub(crate) fn parse_uuid(s: &str) -> Result<Uuid, StorageError> {
    Uuid::parse_str(s).map_err(|_| corrupt("id", s))
}

/// Kinds of document selo issues.
#[derive(Debug, Clone)]
pub enum Store {
    Sqlite(sqlite::SqliteRepository),
    Postgres(postgres::PgRepository),
}

impl Store {
    /// Connects to `url` (`sqlite://…` or `postgres://…`) and applies the migrations.
    pub async fn connect(url: &str) -> Result<Self, StorageError> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Self::Postgres(postgres::PgRepository::connect(url).await?))
        } else {
            Ok(Self::Sqlite(sqlite::SqliteRepository::connect(url).await?))
        }
    }

    pub fn backend(&self) -> &'static str {
        match self {
            Self::Sqlite(_) => "sqlite",
            Self::Postgres(_) => "postgres",
        }
    }

    /// What the metrics read at each scrape: the pool's connections (open, idle), the e-mail
    /// outbox (pending, failed) and the webhook deliveries pending.
    pub async fn operational_readings(&self) -> Result<[i64; 5], StorageError> {
        let (size, idle) = match self {
            Self::Sqlite(r) => (r.pool().size(), r.pool().num_idle()),
            Self::Postgres(r) => (r.pool().size(), r.pool().num_idle()),
        };
        let (pending, failed, hooks): (i64, i64, i64) = on_backend!(self, |pool, _begin| {
            sqlx::query_as(
                "SELECT (SELECT COUNT(*) FROM outbox_messages WHERE status = 'pending'), \
                 (SELECT COUNT(*) FROM outbox_messages WHERE status = 'failed'), \
                 (SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'pending')",
            )
            .fetch_one(pool)
            .await?
        });
        Ok([
            i64::from(size),
            i64::try_from(idle).unwrap_or(i64::MAX),
            pending,
            failed,
            hooks,
        ])
    }

    /// The generation of the register this node knows (see [`changes`]).
    pub fn changes(&self) -> &std::sync::Arc<changes::Changes> {
        match self {
            Self::Sqlite(r) => r.changes(),
            Self::Postgres(r) => r.changes(),
        }
    }

    /// The gathering of this store's status reads.
    pub fn status_reads(&self) -> &std::sync::Arc<status_reads::StatusReads> {
        match self {
            Self::Sqlite(r) => r.status_reads(),
            Self::Postgres(r) => r.status_reads(),
        }
    }

    /// On PostgreSQL, starts listening for the commits of every node (the scale-out path:
    /// a revocation or decree made on one node is seen by the others at once). SQLite has
    /// one node.
    pub fn listen_for_other_nodes(&self) {
        if let Self::Postgres(r) = self {
            tokio::spawn(changes::listen(r.pool().clone(), r.changes().clone()));
        }
    }

    pub async fn close(&self) {
        match self {
            Self::Sqlite(r) => r.pool().close().await,
            Self::Postgres(r) => r.pool().close().await,
        }
    }
}

// ---------------------------------------------------------------------------------------

/// A new SQLite register in a folder removed with it (tests).
#[cfg(test)]
pub(crate) async fn temporary_store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::connect(&format!("sqlite://{}/selo.db", dir.path().display()))
        .await
        .unwrap();
    (dir, store)
}
