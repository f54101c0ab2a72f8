//! Rectifications of acts of the register: an act entered wrongly is
//! corrected by a new event `act_rectified` on the same entity that names it, never by
//! editing it. `events_in_force` (migration 0024) is the history as it stands; the history
//! endpoints read every event as recorded.

use chrono::{DateTime, NaiveDate, Utc};

use super::{Event, StorageError, Store, sql};

/// The kind of the event that rectifies another: the same in both laws' histories, and the
/// one `events_in_force` leaves out.
pub const ACT_RECTIFIED: &str = crate::domain::charter::CharterAct::ActRectified.as_str();

/// An event as recorded, with the entity it belongs to: what a rectification checks.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RecordedEvent {
    pub id: i64,
    pub entity_type: String,
    pub entity_id: String,
    pub kind: String,
    pub occurred_at: DateTime<Utc>,
    /// JSON text of the act as it stands (its latest rectification applied).
    pub data: String,
}

const SELECT_RECORDED: &str = "SELECT e.id, e.entity_type, e.entity_id, e.kind, e.occurred_at, \
    f.data FROM events e JOIN events_in_force f ON f.id = e.id WHERE e.id = $1";

/// A platform's delivery as it should have been recorded (art. 4º, §3º), and why.
pub struct DeliveryRectification<'a> {
    pub request_id: &'a str,
    pub delivered_at: DateTime<Utc>,
    pub sha256: &'a str,
    pub signer: &'a str,
    pub reason: &'a str,
    pub rectified_on: NaiveDate,
    pub actor: &'a str,
    pub at: DateTime<Utc>,
}

/// The kind of the event of a data request whose delivery was rectified.
pub const DELIVERY_RECTIFIED: &str =
    crate::domain::ride_hailing::RideHailingAct::DeliveryRectified.as_str();

const NEXT_DELIVERY_SEQ: &str = "SELECT CAST(COALESCE(MAX(seq), 0) + 1 AS INTEGER) \
    FROM data_request_delivery_rectifications WHERE request_id = $1";
const INSERT_DELIVERY: &str = "INSERT INTO data_request_delivery_rectifications (request_id, seq, \
    delivered_at, sha256, signer, reason, rectified_on, recorded_at, recorded_by) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";

/// A ride-hailing sanction's period as it should have been recorded, and why.
pub struct SanctionRectification<'a> {
    pub authorization_id: uuid::Uuid,
    /// The `sanctioned` event it corrects, with its data now.
    pub target: &'a RecordedEvent,
    pub effective_from: NaiveDate,
    pub until: Option<NaiveDate>,
    /// The corrected act, as the event's data.
    pub data: serde_json::Value,
    pub reason: &'a str,
    pub rectified_on: NaiveDate,
    pub actor: &'a str,
    pub at: DateTime<Utc>,
}

/// The ids of the `sanctioned` events of an authorization and of its sanction rows, each in
/// the order recorded: one of each per sanction, written in one transaction.
const SANCTION_EVENTS: &str = "SELECT id FROM events WHERE entity_type = 'app_authorization' \
    AND entity_id = $1 AND kind = $2 ORDER BY id";
const SANCTION_ROWS: &str =
    "SELECT id FROM app_authorization_sanctions WHERE authorization_id = $1 ORDER BY id";
const NEXT_SANCTION_SEQ: &str = "SELECT CAST(COALESCE(MAX(seq), 0) + 1 AS INTEGER) \
    FROM app_sanction_rectifications WHERE sanction_id = $1";
const INSERT_SANCTION: &str = "INSERT INTO app_sanction_rectifications (sanction_id, seq, \
    effective_from, until, reason, rectified_on, recorded_at, recorded_by) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";

impl Store {
    /// Commits the rectification of a sanction's period and its `act_rectified` event, or
    /// nothing; `Conflict("sanction")` when the event names no sanction row of the
    /// authorization.
    pub async fn rectify_sanction(
        &self,
        r: &SanctionRectification<'_>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let _ = pool;
            let mut tx = begin().await?;
            let id = r.authorization_id.to_string();
            let events: Vec<i64> = sqlx::query_scalar(SANCTION_EVENTS)
                .bind(&id)
                .bind(crate::domain::ride_hailing::RideHailingAct::Sanctioned.as_str())
                .fetch_all(&mut *tx)
                .await?;
            let rows: Vec<i64> = sqlx::query_scalar(SANCTION_ROWS)
                .bind(&id)
                .fetch_all(&mut *tx)
                .await?;
            let row = match events.iter().position(|e| *e == r.target.id) {
                Some(i) if events.len() == rows.len() => rows[i],
                _ => return Err(StorageError::Conflict("sanction")),
            };
            let seq: i32 = sqlx::query_scalar(NEXT_SANCTION_SEQ)
                .bind(row)
                .fetch_one(&mut *tx)
                .await?;
            sqlx::query(INSERT_SANCTION)
                .bind(row)
                .bind(seq)
                .bind(r.effective_from)
                .bind(r.until)
                .bind(r.reason)
                .bind(r.rectified_on)
                .bind(r.at)
                .bind(r.actor)
                .execute(&mut *tx)
                .await?;
            let previous =
                serde_json::from_str::<serde_json::Value>(&r.target.data).unwrap_or_default();
            let data = serde_json::json!({"event": r.target.id, "kind": r.target.kind,
                "data": r.data, "previous": previous, "rectified_on": r.rectified_on});
            append_event!(
                tx,
                "app_authorization",
                &id,
                ACT_RECTIFIED,
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

    /// Commits the rectification of a delivery and its event, or nothing.
    pub async fn rectify_delivery(
        &self,
        r: &DeliveryRectification<'_>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let _ = pool;
            let mut tx = begin().await?;
            let seq: i32 = sqlx::query_scalar(NEXT_DELIVERY_SEQ)
                .bind(r.request_id)
                .fetch_one(&mut *tx)
                .await?;
            sqlx::query(INSERT_DELIVERY)
                .bind(r.request_id)
                .bind(seq)
                .bind(r.delivered_at)
                .bind(r.sha256)
                .bind(r.signer)
                .bind(r.reason)
                .bind(r.rectified_on)
                .bind(r.at)
                .bind(r.actor)
                .execute(&mut *tx)
                .await?;
            let data = serde_json::json!({"seq": seq, "delivered_at": r.delivered_at,
                "sha256": r.sha256, "signer": r.signer, "rectified_on": r.rectified_on});
            append_event!(
                tx,
                "data_request",
                r.request_id,
                DELIVERY_RECTIFIED,
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

    /// Every event of an entity as recorded, oldest first, rectifications included.
    pub async fn history_of(
        &self,
        entity_type: &str,
        entity_id: &str,
    ) -> Result<Vec<Event>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(sql::SELECT_HISTORY)
                .bind(entity_type)
                .bind(entity_id)
                .fetch_all(pool)
                .await?)
        })
    }

    /// Event `id` with the data it stands with now; `None` when there is none or it is itself
    /// a rectification.
    pub async fn recorded_event(&self, id: i64) -> Result<Option<RecordedEvent>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(SELECT_RECORDED)
                .bind(id)
                .fetch_optional(pool)
                .await?)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::ACT_RECTIFIED;
    use crate::domain::ride_hailing::RideHailingAct;

    #[test]
    fn both_laws_name_the_rectification_as_the_view_does() {
        assert_eq!(RideHailingAct::ActRectified.as_str(), ACT_RECTIFIED);
        for sql in [
            include_str!("../../migrations/sqlite/0024_act_rectifications.sql"),
            include_str!("../../migrations/postgres/0024_act_rectifications.sql"),
        ] {
            assert_eq!(sql.matches(&format!("'{ACT_RECTIFIED}'")).count(), 2);
        }
    }
}
