//! Use case: record one act of the ride-hailing law in an entity's append-only history (a
//! vistoria, a summons, a register act, a notice to a platform…), signed by the official who
//! did it and stamped with the legal basis in force.

use crate::issuance::UseCaseError;
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
    let data = serde_json::to_value(data).map_err(|_| UseCaseError::Encoding)?;
    state
        .store
        .append_events(vec![NewEvent::act(
            entity_type,
            id,
            kind,
            actor,
            &state.ride_hailing_basis().version,
            state.clock.now(),
            data,
        )])
        .await?;
    Ok(())
}
