//! A platform's own API: officials issue and revoke its credentials
//! (`/api/v1/platforms/{id}/credentials`); with one, the platform registers the drivers who
//! work through it and reads their authorizations' status in bulk (`/api/v1/platform/…`).
//! A credential reaches its own platform's drivers only.

use actix_web::{HttpResponse, web};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::auth::Official;
use super::problem::ApiError;
use crate::domain::ride_hailing::AuthorizationStatus;
use crate::issuance::ride_hailing::platform_access::{self, PlatformCaller};
use crate::state::AppState;

#[derive(Deserialize, utoipa::ToSchema)]
pub struct NewCredentialDto {
    /// Quem na plataforma usa a credencial (ex.: "Integração cadastro — TI").
    label: String,
}

/// A credential just issued: the token appears this once and is kept only as its SHA-256.
#[derive(Serialize, utoipa::ToSchema)]
pub struct IssuedCredentialView {
    id: Uuid,
    platform_id: String,
    label: String,
    /// `selo_plat_…`: enviado pela plataforma em `Authorization: Bearer`. Mostrado só agora.
    access_token: String,
    created_at: DateTime<Utc>,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct RevocationDto {
    /// Por que a credencial é revogada (vazou, a integração acabou…).
    reason: String,
}

/// A credential as recorded (never its token).
#[derive(Serialize, utoipa::ToSchema)]
pub struct CredentialView {
    id: String,
    platform_id: String,
    label: String,
    created_at: DateTime<Utc>,
    revoked_at: Option<DateTime<Utc>>,
}

/// `POST /api/v1/platforms/{id}/credentials`: a credential for the platform's own API.
#[utoipa::path(post, path = "/api/v1/platforms/{id}/credentials", tag = "platforms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "A plataforma")),
    responses((status = 201, description = "Credencial emitida; o token aparece só nesta resposta", body = IssuedCredentialView)))]
pub async fn issue_credential(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<NewCredentialDto>,
) -> Result<HttpResponse, ApiError> {
    let issued =
        platform_access::issue_credential(&state, &official.actor, &id, &body.label).await?;
    Ok(HttpResponse::Created().json(IssuedCredentialView {
        id: issued.id,
        platform_id: id.into_inner(),
        label: issued.label,
        access_token: issued.token,
        created_at: issued.created_at,
    }))
}

/// `POST /api/v1/platforms/{id}/credentials/{credential}/revocation`: the credential stops
/// working at once.
#[utoipa::path(post, path = "/api/v1/platforms/{id}/credentials/{credential}/revocation", tag = "platforms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "A plataforma"), ("credential" = Uuid, Path, description = "A credencial")),
    request_body = RevocationDto,
    responses((status = 200, description = "Credencial revogada (ou já revogada antes)", body = CredentialView)))]
pub async fn revoke_credential(
    state: web::Data<AppState>,
    official: Official,
    path: web::Path<(String, String)>,
    body: web::Json<RevocationDto>,
) -> Result<HttpResponse, ApiError> {
    let (platform, credential) = path.into_inner();
    let credential = Uuid::parse_str(&credential)
        .map_err(|_| ApiError::NotFound("Credencial não encontrada.".into()))?;
    let row = platform_access::revoke_credential(
        &state,
        &official.actor,
        &platform,
        credential,
        &body.reason,
    )
    .await?;
    Ok(HttpResponse::Ok().json(CredentialView {
        id: row.id,
        platform_id: row.platform_id,
        label: row.label,
        created_at: row.created_at,
        revoked_at: row.revoked_at,
    }))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct PlatformDriverDto {
    /// O número da autorização do motorista, como impresso (ex.: APP-2026/000001).
    authorization_number: String,
    /// O CPF do motorista que detém a autorização.
    cpf: String,
}

/// One of the platform's drivers: their latest authorization and its status now.
#[derive(Serialize, utoipa::ToSchema)]
pub struct PlatformDriverView {
    authorization_number: String,
    status: AuthorizationStatus,
    valid_from: NaiveDate,
    valid_until: NaiveDate,
    suspended_until: Option<NaiveDate>,
    /// A placa do carro que a autorização vincula agora.
    plate: String,
    registered_at: DateTime<Utc>,
}

/// The platform's drivers now.
#[derive(Serialize, utoipa::ToSchema)]
pub struct PlatformDriversView {
    platform_id: String,
    drivers: Vec<PlatformDriverView>,
}

async fn driver_view(
    state: &AppState,
    authorization: &str,
    registered_at: DateTime<Utc>,
) -> Result<PlatformDriverView, ApiError> {
    let id = crate::storage::parse_uuid(authorization).map_err(|_| ApiError::Internal)?;
    let now = super::authorizations::standing_now(state, id).await?;
    let plate = state
        .store
        .get_vehicle(now.vehicle_id)
        .await
        .map_err(crate::issuance::UseCaseError::from)?
        .map(|v| v.plate.as_str().to_owned())
        .unwrap_or_default();
    Ok(PlatformDriverView {
        authorization_number: now.number,
        status: now.status,
        valid_from: now.valid_from,
        valid_until: now.valid_until,
        suspended_until: now.suspended_until,
        plate,
        registered_at,
    })
}

/// `GET /api/v1/platform/drivers`: the drivers the calling platform registered, each with the
/// status of their latest authorization now (a renewal's new number included).
#[utoipa::path(get, path = "/api/v1/platform/drivers", tag = "platform access", security(("bearer" = [])),
    responses((status = 200, description = "Os motoristas da plataforma e a situação de cada um", body = PlatformDriversView),
        (status = 401, description = "Sem credencial de plataforma válida", content_type = "application/problem+json", body = super::problem::Problem)))]
pub async fn list_drivers(
    state: web::Data<AppState>,
    caller: PlatformCaller,
) -> Result<HttpResponse, ApiError> {
    let rows = platform_access::drivers(&state, &caller)
        .await
        .map_err(crate::issuance::UseCaseError::from)?;
    let mut drivers = Vec::with_capacity(rows.len());
    for row in rows {
        if let Some(a) = &row.authorization_id {
            drivers.push(driver_view(&state, a, row.registered_at).await?);
        }
    }
    Ok(HttpResponse::Ok().json(PlatformDriversView {
        platform_id: caller.platform_id,
        drivers,
    }))
}

/// `POST /api/v1/platform/drivers`: registers the holder of an authorization (its number and
/// the driver's CPF together) as working through the calling platform.
#[utoipa::path(post, path = "/api/v1/platform/drivers", tag = "platform access", security(("bearer" = [])),
    request_body = PlatformDriverDto,
    responses((status = 201, description = "Motorista cadastrado na plataforma", body = PlatformDriverView),
        (status = 409, description = "Já cadastrado nesta plataforma", content_type = "application/problem+json", body = super::problem::Problem),
        (status = 422, description = "Número e CPF não conferem", content_type = "application/problem+json", body = super::problem::Problem)))]
pub async fn register_driver(
    state: web::Data<AppState>,
    caller: PlatformCaller,
    body: web::Json<PlatformDriverDto>,
) -> Result<HttpResponse, ApiError> {
    let driver =
        platform_access::register_driver(&state, &caller, &body.authorization_number, &body.cpf)
            .await?;
    let row = platform_access::drivers(&state, &caller)
        .await
        .map_err(crate::issuance::UseCaseError::from)?
        .into_iter()
        .find(|r| r.driver_id == driver.to_string())
        .ok_or(ApiError::Internal)?;
    let a = row.authorization_id.as_deref().ok_or(ApiError::Internal)?;
    Ok(HttpResponse::Created().json(driver_view(&state, a, row.registered_at).await?))
}

/// A driver's link with the platform, ended.
#[derive(Serialize, utoipa::ToSchema)]
pub struct DepartureView {
    authorization_number: String,
    ended_at: DateTime<Utc>,
}

/// `POST /api/v1/platform/driver-departures`: the driver no longer works through the calling
/// platform.
#[utoipa::path(post, path = "/api/v1/platform/driver-departures", tag = "platform access", security(("bearer" = [])),
    request_body = PlatformDriverDto,
    responses((status = 200, description = "Vínculo encerrado", body = DepartureView),
        (status = 404, description = "O motorista não está cadastrado nesta plataforma", content_type = "application/problem+json", body = super::problem::Problem)))]
pub async fn end_driver(
    state: web::Data<AppState>,
    caller: PlatformCaller,
    body: web::Json<PlatformDriverDto>,
) -> Result<HttpResponse, ApiError> {
    let ended_at =
        platform_access::end_driver(&state, &caller, &body.authorization_number, &body.cpf).await?;
    Ok(HttpResponse::Ok().json(DepartureView {
        authorization_number: body.authorization_number.trim().to_owned(),
        ended_at,
    }))
}
