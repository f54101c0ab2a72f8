//! Data changes and histories of any charter record (company, vehicle, driver, Termo,
//! auto).

use super::{
    AppState, CharterTable, HttpResponse, NaiveDate, Official, Reply, Serialize, Uuid, local_date,
    not_found, path_id, rectification, register, web,
};

/// `POST /api/v1/charter/{companies|vehicles|drivers}/{id}/data-changes` (FRET-ART9): a
/// change of registration data communicated to SIS, with the day it changed and the day it was
/// communicated (not future, not before the change). Art. 9º sets no deadline (AMB-53).
#[utoipa::path(post, path = "/api/v1/charter/{entity}/{id}/data-changes", tag = "charter companies", security(("bearer" = [])),
    params(("entity" = String, Path, description = "companies, vehicles ou drivers"), ("id" = Uuid, Path, description = "O registro")),
    responses((status = 201, description = "Alteração registrada", body = CharterDataChangeView)))]
pub async fn data_change(
    state: web::Data<AppState>,
    official: Official,
    path: web::Path<(String, String)>,
    body: web::Json<crate::http::registry::DataChangeDto>,
) -> Reply {
    let (entity, raw) = path.into_inner();
    let table = table_of(&entity)
        .filter(|t| {
            matches!(
                t,
                CharterTable::Companies | CharterTable::Vehicles | CharterTable::Drivers
            )
        })
        .ok_or_else(|| not_found("Registro"))?;
    let id = path_id(&raw, "Registro")?;
    let today = local_date(state.clock.now());
    let rectifies = rectification::parse_alone(body.rectifies.as_ref(), today)?;
    let change =
        crate::issuance::ride_hailing::register::DataChange::try_from((body.into_inner(), today))?;
    register::report_data_change(
        &state,
        &official.actor,
        table,
        id,
        &change,
        rectifies.as_ref(),
    )
    .await?;
    Ok(HttpResponse::Created().json(CharterDataChangeView {
        id,
        what: change.what,
        changed_on: change.changed_on,
        reported_on: change.reported_on,
        rule: "FRET-ART9",
        note: "O art. 9º não fixa prazo para a comunicação (AMB-53): nenhum prazo é calculado.",
    }))
}

/// A change of registration data communicated to SIS (FRET-ART9).
#[derive(Serialize, utoipa::ToSchema)]
pub struct CharterDataChangeView {
    id: Uuid,
    what: String,
    changed_on: NaiveDate,
    reported_on: NaiveDate,
    rule: &'static str,
    note: &'static str,
}

/// `GET /api/v1/charter/{entity}/{id}/history`: the append-only events of an entity.
#[utoipa::path(get, path = "/api/v1/charter/{entity}/{id}/history", tag = "charter history", security(("bearer" = [])), params(("entity" = String, Path, description = "companies, vehicles, drivers, contracts, termos ou autos"), ("id" = Uuid, Path, description = "O registro")),
    responses((status = 200, description = "O histórico", body = crate::http::history::HistoryView)))]
pub async fn history(
    state: web::Data<AppState>,
    _o: Official,
    path: web::Path<(String, String)>,
) -> Reply {
    let (entity, raw) = path.into_inner();
    let table = table_of(&entity).ok_or_else(|| not_found("Registro"))?;
    crate::http::history::history(&state, table.entity_type(), &raw).await
}

/// The register table a path segment names (`companies`, `vehicles`, …).
pub(super) fn table_of(entity: &str) -> Option<CharterTable> {
    Some(match entity {
        "companies" => CharterTable::Companies,
        "vehicles" => CharterTable::Vehicles,
        "drivers" => CharterTable::Drivers,
        "contracts" => CharterTable::Contracts,
        "termos" => CharterTable::Termos,
        "autos" => CharterTable::Autos,
        _ => return None,
    })
}
