//! `/api/v1/app-infraction-autos/{id}/electronic-notice`: the notice of penalty sent by
//! e-mail to the applicants who follow the driver (art. 22, §1º), and when each opened it.

use actix_web::{HttpResponse, web};
use chrono::{DateTime, Utc};
use serde::Serialize;
use uuid::Uuid;

use super::auth::Official;
use super::problem::ApiError;
use crate::issuance::ride_hailing::electronic_notice;
use crate::state::AppState;

fn auto_id(raw: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(raw.trim())
        .map_err(|_| ApiError::NotFound("Auto de infração não encontrado.".into()))
}

/// One recipient's copy: sent, and opened or not.
#[derive(Serialize, utoipa::ToSchema)]
pub struct NoticeCopyView {
    sent_at: DateTime<Utc>,
    /// Quando o destinatário abriu a notificação pela primeira vez (comprovante de
    /// recebimento); `null`: ainda não abriu.
    read_at: Option<DateTime<Utc>>,
}

/// The electronic notice of an auto.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ElectronicNoticeView {
    auto_id: Uuid,
    /// Um item por destinatário (quem acompanha o cadastro do condutor); vazio: não enviada.
    copies: Vec<NoticeCopyView>,
}

async fn view(state: &AppState, id: Uuid) -> Result<ElectronicNoticeView, ApiError> {
    let rows = state
        .store
        .electronic_notices_of_auto(id)
        .await
        .map_err(crate::issuance::UseCaseError::from)?;
    Ok(ElectronicNoticeView {
        auto_id: id,
        copies: rows
            .into_iter()
            .map(|r| NoticeCopyView {
                sent_at: r.sent_at,
                read_at: r.read_at,
            })
            .collect(),
    })
}

/// `POST /api/v1/app-infraction-autos/{id}/electronic-notice` (APP-ART22-P1): sends the
/// Notificação de Penalidade already issued to the applicants who follow the driver, where the
/// auto's legal basis allows the electronic means.
#[utoipa::path(post, path = "/api/v1/app-infraction-autos/{id}/electronic-notice", tag = "ride-hailing infractions", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "O auto de infração")),
    responses((status = 201, description = "Notificação enviada por meio eletrônico", body = ElectronicNoticeView),
        (status = 409, description = "A base não prevê o meio eletrônico, não há notificação emitida, ninguém acompanha o cadastro, ou já foi enviada ou registrada", content_type = "application/problem+json", body = super::problem::Problem)))]
pub async fn send(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = auto_id(&id)?;
    electronic_notice::send(&state, &official.actor, id).await?;
    Ok(HttpResponse::Created().json(view(&state, id).await?))
}

/// `GET /api/v1/app-infraction-autos/{id}/electronic-notice`: each copy sent and when it was
/// opened.
#[utoipa::path(get, path = "/api/v1/app-infraction-autos/{id}/electronic-notice", tag = "ride-hailing infractions", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "O auto de infração")),
    responses((status = 200, description = "As cópias enviadas e quando foram abertas", body = ElectronicNoticeView)))]
pub async fn get(
    state: web::Data<AppState>,
    _official: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = auto_id(&id)?;
    state
        .store
        .get_auto(id)
        .await
        .map_err(crate::issuance::UseCaseError::from)?
        .ok_or_else(|| ApiError::NotFound("Auto de infração não encontrado.".into()))?;
    Ok(HttpResponse::Ok().json(view(&state, id).await?))
}
