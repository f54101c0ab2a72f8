//! Rectifications of a ride-hailing auto's notification: a new record with
//! its reason and date, numbered per auto, and its event, committed only if the auto's history
//! is still as it was read when the rectification was checked.

use chrono::{DateTime, NaiveDate, Utc};
use uuid::Uuid;

use crate::domain::ride_hailing::RideHailingAct;
use crate::storage::charter::EntityHead;
use crate::storage::{AutoNotification, StorageError, Store};

/// A notification that replaces the one in force, and why.
#[derive(Debug)]
pub struct NotificationRectification<'a> {
    pub auto_id: Uuid,
    pub notification: &'a AutoNotification,
    pub reason: &'a str,
    pub rectified_on: NaiveDate,
    pub actor: &'a str,
    pub at: DateTime<Utc>,
    /// The auto's history as read when the rectification was checked.
    pub head: EntityHead<'a>,
}

const NEXT_SEQ: &str = "SELECT CAST(COALESCE(MAX(seq), 0) + 1 AS INTEGER) FROM app_auto_notification_rectifications \
    WHERE auto_id = $1";
const INSERT: &str = "INSERT INTO app_auto_notification_rectifications (auto_id, seq, method, \
    notified_on, juntada_on, reason, rectified_on, recorded_at, recorded_by) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";

impl Store {
    /// Commits the rectification and its event, or nothing: `Conflict("concurrent")` when
    /// another act was recorded on the auto since it was read.
    pub async fn rectify_notification(
        &self,
        r: &NotificationRectification<'_>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let _ = pool;
            let mut tx = begin().await?;
            let id = r.auto_id.to_string();
            ensure_head!(tx, &r.head);
            let seq: i32 = sqlx::query_scalar(NEXT_SEQ)
                .bind(&id)
                .fetch_one(&mut *tx)
                .await?;
            let n = r.notification;
            sqlx::query(INSERT)
                .bind(&id)
                .bind(seq)
                .bind(&n.method)
                .bind(n.notified_on)
                .bind(n.juntada_on)
                .bind(r.reason)
                .bind(r.rectified_on)
                .bind(r.at)
                .bind(r.actor)
                .execute(&mut *tx)
                .await?;
            let data = serde_json::json!({"seq": seq, "method": n.method, "notified_on": n.notified_on,
                "juntada_on": n.juntada_on, "rectified_on": r.rectified_on});
            append_event!(
                tx,
                r.head.entity_type,
                &id,
                RideHailingAct::NotificationRectified.as_str(),
                r.actor,
                Some(r.reason),
                None::<String>,
                r.at,
                data.to_string(),
            );
            tx.commit().await?;
            Ok(())
        })
    }
}
