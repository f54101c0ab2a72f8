//! `GET /api/v1/{drivers|vehicles|app-authorizations}/{id}/history`: the append-only events
//! of an entity (who, when, what, why, legal basis).

use actix_web::{HttpResponse, web};
use serde::Serialize;

use super::auth::Official;
use super::problem::ApiError;
use crate::state::AppState;

/// The history JSON of any entity (ride-hailing or charter): `404` when it has no events.
pub(crate) async fn history(
    state: &AppState,
    entity_type: &str,
    id: &str,
) -> Result<HttpResponse, ApiError> {
    let not_found = || ApiError::NotFound("Registro não encontrado.".into());
    let id = uuid::Uuid::parse_str(id).map_err(|_| not_found())?;
    let events = state.store.history_of(entity_type, &id.to_string()).await?;
    if events.is_empty() {
        return Err(not_found());
    }
    let events = events
        .iter()
        .map(|e| EventView {
            id: e.id,
            kind: e.kind.clone(),
            actor: e.actor.clone(),
            actor_name: e.actor_name.clone(),
            reason: e.reason.clone(),
            legal_basis_version: e.legal_basis_version.clone(),
            occurred_at: e.occurred_at,
            data: serde_json::from_str::<serde_json::Value>(&e.data).unwrap_or_default(),
        })
        .collect();
    Ok(HttpResponse::Ok().json(HistoryView {
        entity_type: entity_type.to_owned(),
        id,
        events,
    }))
}

/// The append-only history of an entity, oldest first.
#[derive(Serialize, utoipa::ToSchema)]
pub struct HistoryView {
    entity_type: String,
    id: uuid::Uuid,
    events: Vec<EventView>,
}

/// One recorded act: who, when, what, why, under which legal basis.
#[derive(Serialize, utoipa::ToSchema)]
pub struct EventView {
    /// O número do ato no histórico: o que uma retificação indica em `rectifies.event`
    ///.
    id: i64,
    kind: String,
    /// Who did it: the official's id (`admin` or `system` on acts older than accounts).
    actor: String,
    /// The official's full name.
    actor_name: String,
    reason: Option<String>,
    legal_basis_version: Option<String>,
    occurred_at: chrono::DateTime<chrono::Utc>,
    /// Os dados do ato, como registrados.
    data: serde_json::Value,
}

#[utoipa::path(get, path = "/api/v1/drivers/{id}/history", tag = "history", security(("bearer" = [])),
    params(("id" = uuid::Uuid, Path, description = "O condutor")),
    responses((status = 200, description = "O histórico", body = HistoryView)))]
pub async fn driver(
    state: web::Data<AppState>,
    _o: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    history(&state, "driver", &id).await
}

#[utoipa::path(get, path = "/api/v1/vehicles/{id}/history", tag = "history", security(("bearer" = [])),
    params(("id" = uuid::Uuid, Path, description = "O veículo")),
    responses((status = 200, description = "O histórico", body = HistoryView)))]
pub async fn vehicle(
    state: web::Data<AppState>,
    _o: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    history(&state, "vehicle", &id).await
}

#[utoipa::path(get, path = "/api/v1/app-authorizations/{id}/history", tag = "history", security(("bearer" = [])),
    params(("id" = uuid::Uuid, Path, description = "A autorização")),
    responses((status = 200, description = "O histórico", body = HistoryView)))]
pub async fn authorization(
    state: web::Data<AppState>,
    _o: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    history(&state, "app_authorization", &id).await
}

#[utoipa::path(get, path = "/api/v1/app-infraction-autos/{id}/history", tag = "history", security(("bearer" = [])),
    params(("id" = uuid::Uuid, Path, description = "O auto de infração")),
    responses((status = 200, description = "O histórico", body = HistoryView)))]
pub async fn auto(
    state: web::Data<AppState>,
    _o: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    history(&state, "app_infraction_auto", &id).await
}
