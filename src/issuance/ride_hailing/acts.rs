//! Use case: record one act of the ride-hailing law in an entity's append-only history (a
//! vistoria, a summons, a register act, a notice to a platform…), signed by the official who
//! did it and stamped with the legal basis in force.

use crate::issuance::UseCaseError;
use crate::issuance::rectification::{self, Rectifies};
use crate::state::AppState;
use crate::storage::charter::NewEvent;

/// Appends act `kind` by `actor` with `data` to the history of `entity_type` `id`.
pub async fn record(
    state: &AppState,
    actor: &str,
    entity_type: &str,
    id: uuid::Uuid,
    kind: &str,
    data: &impl serde::Serialize,
) -> Result<(), UseCaseError> {
    record_or_rectify(state, actor, (entity_type, id, kind), data, None).await
}

/// As `record`, or, with `rectifies`, the rectification of the act of that kind it names
///.
pub async fn record_or_rectify(
    state: &AppState,
    actor: &str,
    (entity_type, id, kind): (&str, uuid::Uuid, &str),
    data: &impl serde::Serialize,
    rectifies: Option<&Rectifies>,
) -> Result<(), UseCaseError> {
    let data = serde_json::to_value(data).map_err(|_| UseCaseError::Encoding)?;
    let event = NewEvent::act(
        entity_type,
        id,
        kind,
        actor,
        &state.ride_hailing_basis().version,
        state.clock.now(),
        data,
    );
    rectification::record(state, event, rectifies).await
}
