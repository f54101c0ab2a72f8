//! Rectification of an act of the register: an act entered wrongly — a
//! vistoria, an ITV report, a filing of documents, a data-change report, a sanction, a
//! register act — is corrected by a new act that names it, with the reason and the day, never
//! by editing it. The corrected act passes every check of its kind, as if entered now in its
//! place; the history keeps both, and every reader sees the act as rectified.
//!
//! The acts of an auto's procedure have their own rectification (`retificacao`, and the
//! ride-hailing notification's), which also keeps the procedure's order.

use chrono::NaiveDate;
use serde_json::json;

use crate::domain::dates::local_date;
use crate::issuance::UseCaseError;
use crate::state::AppState;
use crate::storage::StorageError;
use crate::storage::charter::{CharterCommit, EntityHead, NewEvent};
use crate::storage::rectifications::{ACT_RECTIFIED, RecordedEvent};

/// What a rectification asks: the event it corrects (its `id` in the entity's history), why,
/// and on what day it was decided.
#[derive(Debug, Clone)]
pub struct Rectifies {
    pub event: i64,
    pub reason: String,
    pub rectified_on: NaiveDate,
}

const FIELD: &str = "rectifies.event";
const NOT_HERE: &str = "Não há, no histórico deste registro, ato deste tipo com esse número.";
const CONCURRENT: &str =
    "Outro ato foi registrado neste registro ao mesmo tempo; consulte o histórico e tente de novo.";

/// The act `r` rectifies, when it is of `new`'s entity and kind and still stands: 422 on
/// `rectifies.event` otherwise, and on `rectifies.rectified_on` when the day is in the future
/// or before the act was recorded.
pub async fn target(
    state: &AppState,
    (entity_type, entity_id, kind): (&str, uuid::Uuid, &str),
    r: &Rectifies,
) -> Result<RecordedEvent, UseCaseError> {
    let found = state.store.recorded_event(r.event).await?;
    let Some(t) = found.filter(|t| {
        t.entity_type == entity_type && t.entity_id == entity_id.to_string() && t.kind == kind
    }) else {
        return Err(UseCaseError::Inconsistent {
            field: FIELD,
            message: NOT_HERE,
        });
    };
    let today = local_date(state.clock.now());
    if r.rectified_on > today || r.rectified_on < local_date(t.occurred_at) {
        return Err(UseCaseError::Inconsistent {
            field: "rectifies.rectified_on",
            message: "A retificação não pode ter data futura nem anterior ao registro do ato que corrige.",
        });
    }
    Ok(t)
}

/// The data of the rectification of `target` by `data` (the act as it should have been).
pub fn rectification_data(
    data: &serde_json::Value,
    target: &RecordedEvent,
    r: &Rectifies,
) -> serde_json::Value {
    let previous = serde_json::from_str::<serde_json::Value>(&target.data).unwrap_or_default();
    json!({
        "event": target.id,
        "kind": target.kind,
        "data": data,
        "previous": previous,
        "rectified_on": r.rectified_on,
    })
}

/// `new` (the act as it should have been recorded) as the rectification of `target`.
pub fn as_rectification<'a>(
    new: NewEvent<'a>,
    target: &RecordedEvent,
    r: &'a Rectifies,
) -> NewEvent<'a> {
    NewEvent {
        kind: ACT_RECTIFIED,
        reason: Some(&r.reason),
        data: rectification_data(&new.data, target, r),
        ..new
    }
}

/// Records `new`, or, with `rectifies`, the rectification of the act it names; committed only
/// if the entity's history is unchanged since the act was read (409 otherwise).
pub async fn record(
    state: &AppState,
    new: NewEvent<'_>,
    rectifies: Option<&Rectifies>,
) -> Result<(), UseCaseError> {
    let Some(r) = rectifies else {
        state
            .store
            .charter_commit(CharterCommit {
                events: vec![new],
                ..CharterCommit::default()
            })
            .await?;
        return Ok(());
    };
    let head = state
        .store
        .entity_head(new.entity_type, new.entity_id)
        .await?;
    let t = target(state, (new.entity_type, new.entity_id, new.kind), r).await?;
    commit(state, vec![as_rectification(new, &t, r)], head).await
}

/// Commits `events` if the entity's history still ends at `head`.
async fn commit(
    state: &AppState,
    events: Vec<NewEvent<'_>>,
    head: EntityHead<'_>,
) -> Result<(), UseCaseError> {
    match state
        .store
        .charter_commit(CharterCommit {
            events,
            unchanged_since: Some(head),
            ..CharterCommit::default()
        })
        .await
    {
        Ok(()) => Ok(()),
        Err(StorageError::Conflict("concurrent")) => Err(UseCaseError::Concurrent(CONCURRENT)),
        Err(e) => Err(e.into()),
    }
}
