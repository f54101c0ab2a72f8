//! Files a platform sends with its own credential: its monthly reports and the files that
//! answer data requests (each recorded as the request's delivery in the same transaction).
//! Append-only; the bytes are read only when an official downloads one.

use uuid::Uuid;

use super::{DateTime, StorageError, Store, Utc, sql};

/// Inserts one row of `platform_files` in `$tx`.
macro_rules! insert_file {
    ($tx:expr, $id:expr, $file:expr, $purpose:expr, $period:expr, $request:expr, $now:expr) => {
        sqlx::query(
            "INSERT INTO platform_files (id, platform_id, purpose, period, request_id, media_type, \
             size_bytes, sha256, content, received_at, credential_id) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(&$id)
        .bind($file.platform_id)
        .bind($purpose)
        .bind($period)
        .bind($request)
        .bind($file.media_type)
        .bind(i64::try_from($file.content.len()).unwrap_or(i64::MAX))
        .bind($file.sha256)
        .bind($file.content)
        .bind($now)
        .bind($file.credential_id)
        .execute(&mut *$tx)
        .await?;
    };
}

/// A file received from a platform, without its bytes.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PlatformFileRow {
    pub id: String,
    pub platform_id: String,
    /// `monthly_report` or `data_request`.
    pub purpose: String,
    /// AAAA-MM of a monthly report.
    pub period: Option<String>,
    pub request_id: Option<String>,
    pub media_type: String,
    pub size_bytes: i64,
    pub sha256: String,
    pub received_at: DateTime<Utc>,
    pub credential_id: String,
}

/// A file as it arrives.
pub struct NewPlatformFile<'a> {
    pub platform_id: &'a str,
    pub credential_id: &'a str,
    pub media_type: &'a str,
    pub sha256: &'a str,
    pub content: &'a [u8],
}

/// What receiving a file did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Received {
    /// Recorded now.
    New(PlatformFileRow),
    /// The same bytes were received before (a retry): nothing written.
    Again(PlatformFileRow),
}

/// Another file is recorded already for that month or that request.
pub const ANOTHER_FILE: &str = "platform_file_another";

const COLUMNS: &str = "id, platform_id, purpose, period, request_id, media_type, size_bytes, \
    sha256, received_at, credential_id";

impl Store {
    /// Records the platform's report for `period` (AAAA-MM): once; the same bytes again are a
    /// retry, other bytes a conflict.
    pub async fn receive_monthly_report(
        &self,
        file: &NewPlatformFile<'_>,
        period: &str,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<Received, StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let before: Option<PlatformFileRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {COLUMNS} FROM platform_files WHERE platform_id = $1 AND period = $2"
            )))
            .bind(file.platform_id)
            .bind(period)
            .fetch_optional(&mut *tx)
            .await?;
            if let Some(row) = before {
                return if row.sha256 == file.sha256 {
                    Ok(Received::Again(row))
                } else {
                    Err(StorageError::Conflict(ANOTHER_FILE))
                };
            }
            let id = Uuid::new_v4().to_string();
            insert_file!(
                tx,
                id,
                file,
                "monthly_report",
                Some(period),
                None::<&str>,
                now
            );
            append_event!(
                tx,
                "platform",
                file.platform_id.to_owned(),
                "platform_monthly_report_received",
                actor.to_owned(),
                None::<String>,
                None::<String>,
                now,
                serde_json::json!({ "file_id": id, "period": period, "sha256": file.sha256 })
                    .to_string(),
            );
            let row: PlatformFileRow = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {COLUMNS} FROM platform_files WHERE id = $1"
            )))
            .bind(&id)
            .fetch_one(&mut *tx)
            .await?;
            tx.commit_unseen().await?;
            Ok(Received::New(row))
        })
    }

    /// Records the file that answers data request `request_id` of the platform, and with it
    /// the request's delivery (now, its SHA-256, `signer`); `Ok(None)` when the platform has
    /// no such request. A request answered otherwise already (an official recorded its
    /// delivery) is a conflict.
    pub async fn answer_data_request(
        &self,
        file: &NewPlatformFile<'_>,
        request_id: &str,
        signer: &str,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<Received>, StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let ours: Option<String> = sqlx::query_scalar(
                "SELECT id FROM data_requests WHERE id = $1 AND platform_id = $2",
            )
            .bind(request_id)
            .bind(file.platform_id)
            .fetch_optional(&mut *tx)
            .await?;
            if ours.is_none() {
                return Ok(None);
            }
            let before: Option<PlatformFileRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {COLUMNS} FROM platform_files WHERE request_id = $1"
            )))
            .bind(request_id)
            .fetch_optional(&mut *tx)
            .await?;
            if let Some(row) = before {
                return if row.sha256 == file.sha256 {
                    Ok(Some(Received::Again(row)))
                } else {
                    Err(StorageError::Conflict(ANOTHER_FILE))
                };
            }
            let delivered: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM data_request_deliveries WHERE request_id = $1",
            )
            .bind(request_id)
            .fetch_one(&mut *tx)
            .await?;
            if delivered > 0 {
                return Err(StorageError::Conflict(ANOTHER_FILE));
            }
            let id = Uuid::new_v4().to_string();
            insert_file!(
                tx,
                id,
                file,
                "data_request",
                None::<&str>,
                Some(request_id),
                now
            );
            sqlx::query(sql::INSERT_DELIVERY)
                .bind(request_id)
                .bind(now)
                .bind(file.sha256)
                .bind(signer)
                .bind(now)
                .bind(actor)
                .execute(&mut *tx)
                .await?;
            append_event!(
                tx,
                "data_request",
                request_id.to_owned(),
                "data_request_answered",
                actor.to_owned(),
                None::<String>,
                None::<String>,
                now,
                serde_json::json!({ "file_id": id, "sha256": file.sha256 }).to_string(),
            );
            let row: PlatformFileRow = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {COLUMNS} FROM platform_files WHERE id = $1"
            )))
            .bind(&id)
            .fetch_one(&mut *tx)
            .await?;
            tx.commit_unseen().await?;
            Ok(Some(Received::New(row)))
        })
    }

    /// The files received from `platform_id`, newest first.
    pub async fn platform_files_of(
        &self,
        platform_id: &str,
    ) -> Result<Vec<PlatformFileRow>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {COLUMNS} FROM platform_files WHERE platform_id = $1 \
                 ORDER BY received_at DESC, id"
            )))
            .bind(platform_id)
            .fetch_all(pool)
            .await?)
        })
    }

    /// One received file with its bytes.
    pub async fn platform_file(
        &self,
        id: &str,
    ) -> Result<Option<(PlatformFileRow, Vec<u8>)>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let row: Option<PlatformFileRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {COLUMNS} FROM platform_files WHERE id = $1"
            )))
            .bind(id)
            .fetch_optional(pool)
            .await?;
            let Some(row) = row else {
                return Ok(None);
            };
            let content: Vec<u8> =
                sqlx::query_scalar("SELECT content FROM platform_files WHERE id = $1")
                    .bind(id)
                    .fetch_one(pool)
                    .await?;
            Ok(Some((row, content)))
        })
    }

    /// The data requests sent to `platform_id`, the latest notice first.
    pub async fn data_requests_of(
        &self,
        platform_id: &str,
    ) -> Result<Vec<super::DataRequest>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(
                "SELECT r.id, r.platform_id, r.justification, r.scope, r.notified_at, r.due_at, \
                 d.delivered_at, d.sha256, d.signer FROM data_requests r \
                 LEFT JOIN data_request_deliveries_in_force d ON d.request_id = r.id \
                 WHERE r.platform_id = $1 ORDER BY r.notified_at DESC, r.id",
            )
            .bind(platform_id)
            .fetch_all(pool)
            .await?)
        })
    }
}

impl Store {
    /// The label of credential `id` (who at the platform uses it).
    pub async fn platform_credential_label(
        &self,
        id: &str,
    ) -> Result<Option<String>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(
                sqlx::query_scalar("SELECT label FROM platform_credentials WHERE id = $1")
                    .bind(id)
                    .fetch_optional(pool)
                    .await?,
            )
        })
    }
}
