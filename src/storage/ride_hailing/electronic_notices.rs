//! Autos notified electronically to the applicants who follow the driver, and when each copy
//! was first opened. The e-mails are queued in the transaction that records the sending.

use uuid::Uuid;

use super::{DateTime, StorageError, Store, Utc};
use crate::storage::outbox::{OutgoingMail, queue_mail};

/// One applicant's copy of an electronic notice.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ElectronicNoticeRow {
    pub id: String,
    pub auto_id: String,
    pub applicant_id: String,
    pub sent_at: DateTime<Utc>,
    pub read_at: Option<DateTime<Utc>>,
}

/// The auto's notice was sent electronically before.
pub const ALREADY_SENT: &str = "electronic_notice_sent";

const COLUMNS: &str = "id, auto_id, applicant_id, sent_at, read_at";

impl Store {
    /// Records the electronic notice of `auto_id` to each applicant of `to`, with the message
    /// each receives; once per auto.
    pub async fn send_electronic_notice(
        &self,
        auto_id: Uuid,
        to: &[(Uuid, OutgoingMail)],
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let before: i64 =
                sqlx::query_scalar("SELECT COUNT(*) FROM electronic_notices WHERE auto_id = $1")
                    .bind(auto_id.to_string())
                    .fetch_one(&mut *tx)
                    .await?;
            if before > 0 {
                return Err(StorageError::Conflict(ALREADY_SENT));
            }
            for (applicant, mail) in to {
                sqlx::query(
                    "INSERT INTO electronic_notices (id, auto_id, applicant_id, sent_at, sent_by) \
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(Uuid::new_v4().to_string())
                .bind(auto_id.to_string())
                .bind(applicant.to_string())
                .bind(now)
                .bind(actor)
                .execute(&mut *tx)
                .await?;
                queue_mail!(tx, mail, now);
            }
            append_event!(
                tx,
                "app_infraction_auto",
                auto_id.to_string(),
                "electronic_notice_sent",
                actor.to_owned(),
                None::<String>,
                None::<String>,
                now,
                serde_json::json!({ "recipients": to.len() }).to_string(),
            );
            tx.commit_unseen().await?;
            Ok(())
        })
    }

    /// The electronic notices of an auto, the first sent first.
    pub async fn electronic_notices_of_auto(
        &self,
        auto_id: Uuid,
    ) -> Result<Vec<ElectronicNoticeRow>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {COLUMNS} FROM electronic_notices WHERE auto_id = $1 ORDER BY sent_at, id"
            )))
            .bind(auto_id.to_string())
            .fetch_all(pool)
            .await?)
        })
    }

    /// The electronic notices sent to `applicant`, the latest first.
    pub async fn electronic_notices_of_applicant(
        &self,
        applicant: Uuid,
    ) -> Result<Vec<ElectronicNoticeRow>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {COLUMNS} FROM electronic_notices WHERE applicant_id = $1 \
                 ORDER BY sent_at DESC, id"
            )))
            .bind(applicant.to_string())
            .fetch_all(pool)
            .await?)
        })
    }

    /// Records that `applicant` opened notice `id` now, the first time only (an audit event of
    /// the auto); `None` when it is not the applicant's.
    pub async fn open_electronic_notice(
        &self,
        id: Uuid,
        applicant: Uuid,
        now: DateTime<Utc>,
    ) -> Result<Option<ElectronicNoticeRow>, StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let row: Option<ElectronicNoticeRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {COLUMNS} FROM electronic_notices WHERE id = $1 AND applicant_id = $2"
            )))
            .bind(id.to_string())
            .bind(applicant.to_string())
            .fetch_optional(&mut *tx)
            .await?;
            let Some(mut row) = row else {
                return Ok(None);
            };
            if row.read_at.is_none() {
                sqlx::query("UPDATE electronic_notices SET read_at = $2 WHERE id = $1")
                    .bind(id.to_string())
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                append_event!(
                    tx,
                    "app_infraction_auto",
                    row.auto_id.clone(),
                    "electronic_notice_opened",
                    format!("applicant:{applicant}"),
                    None::<String>,
                    None::<String>,
                    now,
                    serde_json::json!({ "notice_id": id }).to_string(),
                );
                row.read_at = Some(now);
            }
            tx.commit_unseen().await?;
            Ok(Some(row))
        })
    }
}
