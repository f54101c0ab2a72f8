//! What a backup reads of the register and what a restore checks: a consistent copy of a
//! SQLite database taken while the service writes (`VACUUM INTO`, one read transaction), the
//! rows of each table the manifest counts, and the number series.

use super::{StorageError, Store};

/// The tables a backup's manifest counts, and a restore checks.
pub const COUNTED: [&str; 8] = [
    "events",
    "documents",
    "document_numbers",
    "app_authorizations",
    "drivers",
    "vehicles",
    "charter_companies",
    "applicants",
];

/// One series of numbers and a year: its counter and what its numbers are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Series {
    pub series: String,
    pub year: i64,
    /// The counter's last value.
    pub last_value: i64,
    /// How many numbers were reserved, the highest and the lowest sequence.
    pub count: i64,
    pub max_seq: i64,
    pub min_seq: i64,
    /// Numbers still reserved (an issuance under way when the copy was taken).
    pub reserved: i64,
}

/// A PostgreSQL snapshot held open for `pg_dump --snapshot`: what the dump will hold is what
/// this transaction reads.
pub struct PgSnapshot {
    tx: sqlx::Transaction<'static, sqlx::Postgres>,
    /// The exported snapshot's id.
    pub id: String,
}

impl PgSnapshot {
    /// The rows of each counted table, the audit chain's last row and the schema version, as
    /// of the snapshot.
    pub async fn facts(
        &mut self,
    ) -> Result<(Vec<(String, i64)>, Option<(i64, String)>, i64), StorageError> {
        let mut counts = Vec::new();
        for table in COUNTED {
            let n: i64 =
                sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}")))
                    .fetch_one(&mut *self.tx)
                    .await?;
            counts.push((table.to_owned(), n));
        }
        let head: Option<(i64, String)> = sqlx::query_as(
            "SELECT id, hash FROM events WHERE hash IS NOT NULL ORDER BY id DESC LIMIT 1",
        )
        .fetch_optional(&mut *self.tx)
        .await?;
        let version: i64 = sqlx::query_scalar(
            "SELECT COALESCE(MAX(version), 0) FROM _sqlx_migrations WHERE success",
        )
        .fetch_one(&mut *self.tx)
        .await?;
        Ok((counts, head, version))
    }

    /// Ends the snapshot (after `pg_dump` took it).
    pub async fn finish(self) -> Result<(), StorageError> {
        self.tx.rollback().await?;
        Ok(())
    }
}

impl Store {
    /// On PostgreSQL, a repeatable-read transaction whose snapshot is exported for `pg_dump`.
    pub async fn pg_snapshot(&self) -> Result<PgSnapshot, StorageError> {
        let Self::Postgres(r) = self else {
            return Err(StorageError::Conflict("sqlite_snapshot"));
        };
        let mut tx = r.pool().begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .execute(&mut *tx)
            .await?;
        let id: String = sqlx::query_scalar("SELECT pg_export_snapshot()")
            .fetch_one(&mut *tx)
            .await?;
        Ok(PgSnapshot { tx, id })
    }

    /// Writes a consistent copy of the SQLite database to `path` (which must not exist), while
    /// other connections go on writing. `Err(Conflict)` on PostgreSQL: `pg_dump` copies it.
    pub async fn copy_sqlite_into(&self, path: &str) -> Result<(), StorageError> {
        match self {
            Self::Sqlite(r) => {
                sqlx::query("VACUUM INTO $1")
                    .bind(path)
                    .execute(r.pool())
                    .await?;
                Ok(())
            }
            Self::Postgres(_) => Err(StorageError::Conflict("postgres_backup")),
        }
    }

    /// The rows of `table` (one of [`COUNTED`]).
    pub async fn count_rows(&self, table: &str) -> Result<i64, StorageError> {
        if !COUNTED.contains(&table) {
            return Err(StorageError::Conflict("unknown_table"));
        }
        let sql = format!("SELECT COUNT(*) FROM {table}");
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_scalar(sqlx::AssertSqlSafe(sql.clone()))
                .fetch_one(pool)
                .await?)
        })
    }

    /// The number of the last migration applied.
    pub async fn schema_version(&self) -> Result<i64, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_scalar(
                "SELECT COALESCE(MAX(version), 0) FROM _sqlx_migrations WHERE success",
            )
            .fetch_one(pool)
            .await?)
        })
    }

    /// Whether the database holds any document or event: a restore goes only into an empty
    /// register.
    pub async fn holds_anything(&self) -> Result<bool, StorageError> {
        let n: i64 = on_backend!(self, |pool, _begin| {
            sqlx::query_scalar(
                "SELECT (SELECT COUNT(*) FROM events) + (SELECT COUNT(*) FROM documents) \
                 + (SELECT COUNT(*) FROM document_numbers)",
            )
            .fetch_one(pool)
            .await?
        });
        Ok(n > 0)
    }

    /// Gathers the planner's statistics of every table now (PostgreSQL; SQLite plans without
    /// them). A restored PostgreSQL register has none until autovacuum analyses it, and
    /// without them the planner guesses (the search by plate read every authorization).
    pub async fn analyze(&self) -> Result<(), StorageError> {
        if let Self::Postgres(r) = self {
            sqlx::query("ANALYZE").execute(r.pool()).await?;
        }
        Ok(())
    }

    /// Every series and year, with its counter and what its numbers are.
    pub async fn number_series(&self) -> Result<Vec<Series>, StorageError> {
        let rows: Vec<(String, i64, i64, i64, i64, i64, i64)> = on_backend!(
            self,
            |pool, _begin| {
                sqlx::query_as(
                "SELECT c.series, CAST(c.year AS BIGINT), CAST(c.last_value AS BIGINT), \
                 COUNT(n.number), CAST(COALESCE(MAX(n.seq), 0) AS BIGINT), \
                 CAST(COALESCE(MIN(n.seq), 0) AS BIGINT), \
                 CAST(COALESCE(SUM(CASE WHEN n.state = 'reserved' THEN 1 ELSE 0 END), 0) AS BIGINT) \
                 FROM number_counters c \
                 LEFT JOIN document_numbers n ON n.series = c.series AND n.year = c.year \
                 GROUP BY c.series, c.year, c.last_value ORDER BY c.series, c.year",
            )
            .fetch_all(pool)
            .await?
            }
        );
        Ok(rows
            .into_iter()
            .map(
                |(series, year, last_value, count, max_seq, min_seq, reserved)| Series {
                    series,
                    year,
                    last_value,
                    count,
                    max_seq,
                    min_seq,
                    reserved,
                },
            )
            .collect())
    }
}
