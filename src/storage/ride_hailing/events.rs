//! Reads of the ride-hailing history that the verification path needs in one round trip,
//! written once for both backends.

use uuid::Uuid;

use crate::storage::sql::{
    SELECT_DOCUMENT_STATUS_STANDING_PG, SELECT_DOCUMENT_STATUS_STANDING_SQLITE, STANDING_EVENTS,
};
use crate::storage::{DocumentStatus, DocumentStatusRow, StorageError, Store};

/// One event read for the standing of an authorization.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StandingEvent {
    pub entity_type: String,
    pub kind: String,
    /// JSON text.
    pub data: String,
}

/// A row of the status read with the standing's events (the same on every row).
#[derive(sqlx::FromRow)]
struct StatusStandingRow {
    #[sqlx(flatten)]
    status: DocumentStatusRow,
    /// JSON: `[[entity_type, kind, data], …]`.
    standing: String,
}

impl Store {
    /// The status of the ride-hailing document `id` ([`Store::document_status`]) with the
    /// events of its authorization's standing ([`Store::standing_events`] for the
    /// authorization, its driver and the car it names now) in one round trip: the
    /// verification of a token the register holds reads nothing else.
    pub async fn document_status_standing(
        &self,
        id: Uuid,
        authorization_kinds: [&str; 2],
        register_kind: &str,
    ) -> Result<Option<(DocumentStatus, Vec<StandingEvent>)>, StorageError> {
        let rows: Vec<StatusStandingRow> = on_backend!(self, |pool, _begin, pg| {
            sqlx::query_as(if pg {
                SELECT_DOCUMENT_STATUS_STANDING_PG
            } else {
                SELECT_DOCUMENT_STATUS_STANDING_SQLITE
            })
            .bind(id.to_string())
            .bind(authorization_kinds[0])
            .bind(authorization_kinds[1])
            .bind(register_kind)
            .fetch_all(pool)
            .await?
        });
        let Some(first) = rows.first() else {
            return Ok(None);
        };
        let events: Vec<(String, String, String)> = serde_json::from_str(&first.standing)
            .map_err(|_| super::super::corrupt("standing events", &id.to_string()))?;
        let events = events
            .into_iter()
            .map(|(entity_type, kind, data)| StandingEvent {
                entity_type,
                kind,
                data,
            })
            .collect();
        let status =
            super::super::document_status_from_rows(rows.into_iter().map(|r| r.status).collect())?;
        Ok(status.map(|s| (s, events)))
    }

    /// In the order recorded: the `authorization_kinds` events of an authorization and the
    /// `register_kind` events of its driver and its car.
    pub async fn standing_events(
        &self,
        authorization_id: Uuid,
        driver_id: Uuid,
        vehicle_id: Uuid,
        authorization_kinds: [&str; 2],
        register_kind: &str,
    ) -> Result<Vec<StandingEvent>, StorageError> {
        Ok(on_backend!(self, |pool, _begin| {
            sqlx::query_as(STANDING_EVENTS)
                .bind(authorization_id.to_string())
                .bind(driver_id.to_string())
                .bind(vehicle_id.to_string())
                .bind(authorization_kinds[0])
                .bind(authorization_kinds[1])
                .bind(register_kind)
                .fetch_all(pool)
                .await?
        }))
    }
}
