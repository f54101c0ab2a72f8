//! `GET /api/v1/{drivers|vehicles|app-authorizations}/{id}/history`: the append-only events
//! of an entity (who, when, what, why, legal basis).

use actix_web::{HttpResponse, web};
use serde_json::json;

use super::auth::Official;
use super::problem::ApiError;
use crate::state::AppState;
use crate::storage::Repository;

/// The history JSON of any entity (ride-hailing or charter): `404` when it has no events.
pub(crate) async fn history(
    state: &AppState,
    entity_type: &str,
    id: &str,
) -> Result<HttpResponse, ApiError> {
    let not_found = || ApiError::NotFound("Registro não encontrado.".into());
    let id = uuid::Uuid::parse_str(id).map_err(|_| not_found())?;
    let events = state.store.events_of(entity_type, &id.to_string()).await?;
    if events.is_empty() {
        return Err(not_found());
    }
    let items: Vec<_> = events
        .iter()
        .map(|e| {
            json!({
                "kind": e.kind,
                "actor": e.actor,
                "reason": e.reason,
                "legal_basis_version": e.legal_basis_version,
                "occurred_at": e.occurred_at,
                "data": serde_json::from_str::<serde_json::Value>(&e.data).unwrap_or_default(),
            })
        })
        .collect();
    Ok(HttpResponse::Ok().json(json!({ "entity_type": entity_type, "id": id, "events": items })))
}

pub async fn driver(
    state: web::Data<AppState>,
    _o: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    history(&state, "driver", &id).await
}

pub async fn vehicle(
    state: web::Data<AppState>,
    _o: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    history(&state, "vehicle", &id).await
}

pub async fn authorization(
    state: web::Data<AppState>,
    _o: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    history(&state, "app_authorization", &id).await
}

pub async fn auto(
    state: web::Data<AppState>,
    _o: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    history(&state, "app_infraction_auto", &id).await
}
