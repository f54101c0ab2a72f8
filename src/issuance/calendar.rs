//! Use case of the municipal calendar: the days a decree closes (pontos facultativos, recess,
//! municipal holidays), which every deadline then skips (DL-5).

use crate::domain::calendar::ClosedDay;
use crate::issuance::UseCaseError;
use crate::state::AppState;
use crate::storage::StorageError;

/// Records decreed days, none already recorded, which every node's cached calendar then reads again.
pub async fn add_closed_days(
    state: &AppState,
    actor: &str,
    days: Vec<ClosedDay>,
) -> Result<Vec<ClosedDay>, UseCaseError> {
    match state
        .store
        .add_decreed_days(&days, actor, state.clock.now())
        .await
    {
        // The commit bumps the register's generation: every node reads the calendar again.
        Ok(()) => Ok(days),
        Err(StorageError::Conflict(_)) => Err(UseCaseError::Conflict {
            detail: "Um dos dias já está registrado no calendário.".into(),
            field: Some(("from", "Dia já registrado.".into())),
        }),
        Err(e) => Err(e.into()),
    }
}
