//! Reads of the ride-hailing history that the verification path needs in one round trip,
//! written once for both backends.

use uuid::Uuid;

use crate::storage::{StorageError, Store};

const STANDING: &str = "SELECT entity_type, kind, data FROM events_in_force \
    WHERE (entity_type = 'app_authorization' AND entity_id = $1 AND kind IN ($4, $5)) \
    OR (kind = $6 AND ((entity_type = 'driver' AND entity_id = $2) \
    OR (entity_type = 'vehicle' AND entity_id = $3))) ORDER BY id";

/// One event read for the standing of an authorization.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StandingEvent {
    pub entity_type: String,
    pub kind: String,
    /// JSON text.
    pub data: String,
}

impl Store {
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
            sqlx::query_as(STANDING)
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
