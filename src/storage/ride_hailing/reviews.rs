//! Grants and renewals filed for an official's review (AMB-25): filed with their reasons,
//! read, refused — or granted, which `commit_grant` records in the grant's own transaction.
//! Each step is an event of the entity `app_grant_review`.

use chrono::{DateTime, NaiveDate, Utc};
use uuid::Uuid;

use crate::domain::requirements::ReviewReason;
use crate::domain::ride_hailing::review::{GrantReview, ReviewDecision, ReviewOutcome};
use crate::storage::{StorageError, Store, corrupt, parse_uuid};

/// The entity type of a filing's events.
pub const ENTITY: &str = "app_grant_review";
/// Its events' kinds.
pub const FILED: &str = "filed_for_review";
pub const DECIDED: &str = "review_decided";

macro_rules! review_select {
    ($tail:literal) => {
        concat!(
            "SELECT id, driver_id, vehicle_id, renewal_of, fee_paid_on, protocolled_on, reasons, ",
            "legal_basis_version, filed_at, filed_by, outcome, grounds, decided_at, decided_by, ",
            "authorization_id FROM app_grant_reviews ",
            $tail
        )
    };
}
const BY_ID: &str = review_select!("WHERE id = $1");
const PENDING: &str = review_select!("WHERE outcome IS NULL ORDER BY filed_at, id");
const PENDING_FOR: &str = "SELECT COUNT(*) FROM app_grant_reviews WHERE outcome IS NULL \
    AND (driver_id = $1 OR vehicle_id = $2)";
const INSERT: &str = "INSERT INTO app_grant_reviews (id, driver_id, vehicle_id, renewal_of, \
    fee_paid_on, protocolled_on, reasons, legal_basis_version, filed_at, filed_by) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
/// Decides a filing still pending; no row changes when it was decided meanwhile.
pub(super) const DECIDE: &str = "UPDATE app_grant_reviews SET outcome = $2, grounds = $3, \
    decided_at = $4, decided_by = $5, authorization_id = $6 WHERE id = $1 AND outcome IS NULL";

#[derive(sqlx::FromRow)]
struct ReviewRow {
    id: String,
    driver_id: String,
    vehicle_id: String,
    renewal_of: Option<String>,
    fee_paid_on: NaiveDate,
    protocolled_on: NaiveDate,
    reasons: String,
    legal_basis_version: String,
    filed_at: DateTime<Utc>,
    filed_by: String,
    outcome: Option<String>,
    grounds: Option<String>,
    decided_at: Option<DateTime<Utc>>,
    decided_by: Option<String>,
    authorization_id: Option<String>,
}

impl TryFrom<ReviewRow> for GrantReview {
    type Error = StorageError;

    fn try_from(r: ReviewRow) -> Result<Self, StorageError> {
        let reasons: Vec<ReviewReason> = serde_json::from_str(&r.reasons)
            .map_err(|_| corrupt("app_grant_reviews.reasons", &r.id))?;
        let decision = match (r.outcome, r.decided_at) {
            (Some(outcome), Some(decided_at)) => Some(ReviewDecision {
                outcome: ReviewOutcome::parse(&outcome)
                    .ok_or_else(|| corrupt("app_grant_reviews.outcome", &r.id))?,
                grounds: r.grounds.unwrap_or_default(),
                decided_at,
                decided_by: r.decided_by.unwrap_or_default(),
                authorization_id: r.authorization_id.as_deref().map(parse_uuid).transpose()?,
            }),
            _ => None,
        };
        Ok(GrantReview {
            id: parse_uuid(&r.id)?,
            driver_id: parse_uuid(&r.driver_id)?,
            vehicle_id: parse_uuid(&r.vehicle_id)?,
            renewal_of: r.renewal_of.as_deref().map(parse_uuid).transpose()?,
            fee_paid_on: r.fee_paid_on,
            protocolled_on: r.protocolled_on,
            reasons,
            legal_basis_version: r.legal_basis_version,
            filed_at: r.filed_at,
            filed_by: r.filed_by,
            decision,
        })
    }
}

/// What a filing's decision event records.
pub(super) fn decided_data(outcome: ReviewOutcome, number: Option<&str>) -> String {
    serde_json::json!({"outcome": outcome.status().as_str(), "number": number}).to_string()
}

impl Store {
    /// Files a grant for review, with its event; `Conflict("pending_review")` while the driver
    /// or the car has another filing waiting.
    pub async fn file_review(&self, r: &GrantReview) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let _ = pool;
            let mut tx = begin().await?;
            let pending: i64 = sqlx::query_scalar(PENDING_FOR)
                .bind(r.driver_id.to_string())
                .bind(r.vehicle_id.to_string())
                .fetch_one(&mut *tx)
                .await?;
            if pending > 0 {
                return Err(StorageError::Conflict("pending_review"));
            }
            let reasons = serde_json::to_string(&r.reasons).unwrap_or_default();
            sqlx::query(INSERT)
                .bind(r.id.to_string())
                .bind(r.driver_id.to_string())
                .bind(r.vehicle_id.to_string())
                .bind(r.renewal_of.map(|a| a.to_string()))
                .bind(r.fee_paid_on)
                .bind(r.protocolled_on)
                .bind(&reasons)
                .bind(&r.legal_basis_version)
                .bind(r.filed_at)
                .bind(&r.filed_by)
                .execute(&mut *tx)
                .await?;
            let data = serde_json::json!({
                "driver_id": r.driver_id, "vehicle_id": r.vehicle_id, "renewal_of": r.renewal_of,
                "fee_paid_on": r.fee_paid_on, "protocolled_on": r.protocolled_on,
                "reasons": r.reasons,
            });
            append_event!(
                tx,
                ENTITY,
                r.id.to_string(),
                FILED,
                &r.filed_by,
                r.reasons.first().map(|x| x.reason.clone()),
                Some(&r.legal_basis_version),
                r.filed_at,
                data.to_string(),
            );
            tx.commit().await?;
            Ok(())
        })
    }

    pub async fn get_review(&self, id: Uuid) -> Result<Option<GrantReview>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let row: Option<ReviewRow> = sqlx::query_as(BY_ID)
                .bind(id.to_string())
                .fetch_optional(pool)
                .await?;
            row.map(GrantReview::try_from).transpose()
        })
    }

    /// The filings still waiting for a decision, oldest first.
    pub async fn pending_reviews(&self) -> Result<Vec<GrantReview>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let rows: Vec<ReviewRow> = sqlx::query_as(PENDING).fetch_all(pool).await?;
            rows.into_iter().map(GrantReview::try_from).collect()
        })
    }

    /// Refuses a pending filing with its grounds and event; `Conflict("review_decided")` when
    /// it was decided meanwhile.
    pub async fn refuse_review(
        &self,
        id: Uuid,
        grounds: &str,
        at: DateTime<Utc>,
        actor: &str,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let _ = pool;
            let mut tx = begin().await?;
            let changed = sqlx::query(DECIDE)
                .bind(id.to_string())
                .bind(ReviewOutcome::Refused.status().as_str())
                .bind(grounds)
                .bind(at)
                .bind(actor)
                .bind(None::<String>)
                .execute(&mut *tx)
                .await?;
            if changed.rows_affected() != 1 {
                return Err(StorageError::Conflict("review_decided"));
            }
            append_event!(
                tx,
                ENTITY,
                id.to_string(),
                DECIDED,
                actor,
                Some(grounds),
                None::<String>,
                at,
                decided_data(ReviewOutcome::Refused, None),
            );
            tx.commit().await?;
            Ok(())
        })
    }
}
