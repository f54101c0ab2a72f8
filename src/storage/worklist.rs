//! What the back office's worklist reads: the ride-hailing authorizations still in force and
//! the autos whose procedure is open. The deadlines themselves are computed by the domain.

use std::collections::HashMap;

use chrono::{DateTime, NaiveDate, Utc};
use uuid::Uuid;

use super::{StorageError, Store, parse_uuid};

/// An authorization in force (not revoked, not past its last day), with what its pendencies
/// are judged from.
#[derive(Debug, Clone)]
pub struct AuthorizationInForce {
    pub id: Uuid,
    pub number: String,
    pub valid_until: NaiveDate,
    pub granted_at: DateTime<Utc>,
    pub driver_id: Uuid,
    pub vehicle_id: Uuid,
    /// Already renewed for the next year.
    pub renewed: bool,
}

#[derive(sqlx::FromRow)]
struct AuthorizationInForceRow {
    id: String,
    number: String,
    valid_until: NaiveDate,
    granted_at: DateTime<Utc>,
    driver_id: String,
    vehicle_id: String,
    renewals: i64,
}

/// Authorizations whose labels one query reads.
const LABELS_AT_ONCE: usize = 500;

/// The ids of the ride-hailing autos not yet past their procedure: not in dívida ativa and
/// not annulled is decided by the domain; this reads every auto of the last `since` days.
const AUTOS_SINCE: &str =
    "SELECT id FROM app_infraction_autos WHERE drawn_up_at >= $1 ORDER BY drawn_up_at, number";

impl Store {
    /// Up to `limit` ride-hailing authorizations not revoked whose last day is `from` or
    /// later, by id after `after` (a register is read a page at a time).
    pub async fn authorizations_in_force_page(
        &self,
        from: NaiveDate,
        after: Option<Uuid>,
        limit: i64,
    ) -> Result<Vec<AuthorizationInForce>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let rows: Vec<AuthorizationInForceRow> =
                sqlx::query_as(super::sql::AUTHORIZATIONS_IN_FORCE_PAGE)
                    .bind(from)
                    .bind(after.map_or_else(String::new, |a| a.to_string()))
                    .bind(limit)
                    .fetch_all(pool)
                    .await?;
            in_force(rows)
        })
    }

    /// The same, of one driver.
    pub async fn authorizations_in_force_of(
        &self,
        driver: Uuid,
        from: NaiveDate,
    ) -> Result<Vec<AuthorizationInForce>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let rows: Vec<AuthorizationInForceRow> =
                sqlx::query_as(super::sql::AUTHORIZATIONS_IN_FORCE_OF)
                    .bind(from)
                    .bind(driver.to_string())
                    .fetch_all(pool)
                    .await?;
            in_force(rows)
        })
    }

    /// The name of the driver of each of the authorizations `ids` and the plate of the car
    /// it binds now, by id (the worklist's rows).
    pub async fn authorization_labels(
        &self,
        ids: &[Uuid],
    ) -> Result<HashMap<Uuid, (String, String)>, StorageError> {
        let mut labels = HashMap::with_capacity(ids.len());
        for chunk in ids.chunks(LABELS_AT_ONCE) {
            let marks: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
            let q = format!(
                "{} ({})",
                super::sql::AUTHORIZATION_LABELS,
                marks.join(", ")
            );
            let rows: Vec<(String, String, String)> = on_backend!(self, |pool, _begin| {
                let mut query = sqlx::query_as(sqlx::AssertSqlSafe(q));
                for id in chunk {
                    query = query.bind(id.to_string());
                }
                query.fetch_all(pool).await?
            });
            for (id, name, plate) in rows {
                labels.insert(parse_uuid(&id)?, (name, plate));
            }
        }
        Ok(labels)
    }

    /// The ids of the ride-hailing autos drawn up since `since`, oldest first.
    pub async fn autos_since(&self, since: DateTime<Utc>) -> Result<Vec<Uuid>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let ids: Vec<String> = sqlx::query_scalar(AUTOS_SINCE)
                .bind(since)
                .fetch_all(pool)
                .await?;
            ids.iter().map(|id| parse_uuid(id)).collect()
        })
    }
}

fn in_force(rows: Vec<AuthorizationInForceRow>) -> Result<Vec<AuthorizationInForce>, StorageError> {
    rows.into_iter()
        .map(|r| {
            Ok(AuthorizationInForce {
                id: parse_uuid(&r.id)?,
                driver_id: parse_uuid(&r.driver_id)?,
                vehicle_id: parse_uuid(&r.vehicle_id)?,
                number: r.number,
                valid_until: r.valid_until,
                granted_at: r.granted_at,
                renewed: r.renewals > 0,
            })
        })
        .collect()
}
