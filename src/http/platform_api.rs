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
use crate::issuance::ride_hailing::webhooks;
use crate::state::AppState;
use crate::storage::ride_hailing::platform_access::PlatformDriverRow;

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
    row: &PlatformDriverRow,
) -> Result<Option<PlatformDriverView>, ApiError> {
    Ok(webhooks::row_standing(state, row)
        .await?
        .map(|s| PlatformDriverView {
            authorization_number: s.authorization_number,
            status: s.status,
            valid_from: s.valid_from,
            valid_until: s.valid_until,
            suspended_until: s.suspended_until,
            plate: s.plate,
            registered_at: row.registered_at,
        }))
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
    for row in &rows {
        drivers.extend(driver_view(&state, row).await?);
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
    let view = driver_view(&state, &row).await?.ok_or(ApiError::Internal)?;
    Ok(HttpResponse::Created().json(view))
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

#[derive(Deserialize, utoipa::ToSchema)]
pub struct WebhookDto {
    /// O endereço https:// que recebe os eventos por POST; `null` para não receber mais.
    url: Option<String>,
}

/// A delivery of an event to a platform's webhook, as the log shows it.
#[derive(Serialize, utoipa::ToSchema)]
pub struct DeliveryView {
    id: String,
    /// O tipo do evento (`authorization.suspended`, `vehicle.suspension_notice`…).
    event_type: String,
    created_at: DateTime<Utc>,
    /// `pending` (aguardando ou em nova tentativa), `delivered` ou `failed`.
    status: String,
    attempts: i64,
    delivered_at: Option<DateTime<Utc>>,
    /// O que a última tentativa encontrou, se falhou.
    last_error: Option<String>,
}

/// The latest deliveries to `platform_id`, newest first.
pub(crate) async fn deliveries(
    state: &AppState,
    platform_id: &str,
) -> Result<Vec<DeliveryView>, ApiError> {
    Ok(state
        .store
        .webhook_deliveries_of(platform_id, 50)
        .await
        .map_err(crate::issuance::UseCaseError::from)?
        .into_iter()
        .map(|d| DeliveryView {
            id: d.id,
            event_type: d.event_type,
            created_at: d.created_at,
            status: d.status,
            attempts: d.attempts,
            delivered_at: d.delivered_at,
            last_error: d.last_error,
        })
        .collect())
}

/// The calling platform's webhook, how deliveries are signed, and the latest deliveries.
#[derive(Serialize, utoipa::ToSchema)]
pub struct WebhookView {
    platform_id: String,
    /// O endereço que recebe os eventos; `null`: nenhum.
    url: Option<String>,
    updated_at: Option<DateTime<Utc>>,
    /// Os tipos de evento que podem chegar.
    event_types: Vec<&'static str>,
    /// Como cada entrega é assinada e onde está a chave pública.
    signature: &'static str,
    /// O conjunto de chaves públicas (JWK Set) que verifica as assinaturas.
    key_set_url: String,
    deliveries: Vec<DeliveryView>,
}

const SIGNATURE: &str = "RFC 9421 (HTTP Message Signatures), rótulo `selo`, Ed25519: cobre \
    @method, @target-uri, content-digest (RFC 9530, SHA-256 do corpo) e content-type, com \
    created, keyid (o kid do JWK Set) e nonce. Recuse assinatura inválida, `created` com mais \
    de 5 minutos e `nonce` já visto; o `id` do evento repete-se nas novas tentativas.";

async fn webhook_view(state: &AppState, platform_id: &str) -> Result<WebhookView, ApiError> {
    let row = state
        .store
        .platform_webhook(platform_id)
        .await
        .map_err(crate::issuance::UseCaseError::from)?;
    Ok(WebhookView {
        platform_id: platform_id.to_owned(),
        url: row.as_ref().and_then(|w| w.url.clone()),
        updated_at: row.map(|w| w.updated_at),
        event_types: webhooks::EVENT_TYPES.to_vec(),
        signature: SIGNATURE,
        key_set_url: format!(
            "{}/.well-known/selo-keys.json",
            state.letterhead.public_url.trim_end_matches('/')
        ),
        deliveries: deliveries(state, platform_id).await?,
    })
}

/// `GET /api/v1/platform/webhook`: the calling platform's webhook and its latest deliveries.
#[utoipa::path(get, path = "/api/v1/platform/webhook", tag = "platform access", security(("bearer" = [])),
    responses((status = 200, description = "O webhook da plataforma e as últimas entregas", body = WebhookView)))]
pub async fn get_webhook(
    state: web::Data<AppState>,
    caller: PlatformCaller,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(webhook_view(&state, &caller.platform_id).await?))
}

/// `PUT /api/v1/platform/webhook`: sets (or, with `url: null`, clears) where the calling
/// platform receives signed events about its drivers.
#[utoipa::path(put, path = "/api/v1/platform/webhook", tag = "platform access", security(("bearer" = [])),
    request_body = WebhookDto,
    responses((status = 200, description = "Webhook cadastrado", body = WebhookView),
        (status = 422, description = "Endereço recusado", content_type = "application/problem+json", body = super::problem::Problem)))]
pub async fn put_webhook(
    state: web::Data<AppState>,
    caller: PlatformCaller,
    body: web::Json<WebhookDto>,
) -> Result<HttpResponse, ApiError> {
    webhooks::set_webhook(&state, &caller, body.url.as_deref()).await?;
    Ok(HttpResponse::Ok().json(webhook_view(&state, &caller.platform_id).await?))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct VehicleNoticeDto {
    /// O auto de infração cuja decisão manda avisar a plataforma.
    auto_id: String,
    /// A placa do veículo a suspender.
    plate: String,
}

/// `POST /api/v1/platforms/{id}/vehicle-suspension-notices`: tells the platform to suspend a
/// vehicle until it is regularized, on the decision of an auto that proposes it; the platform
/// receives it by webhook.
#[utoipa::path(post, path = "/api/v1/platforms/{id}/vehicle-suspension-notices", tag = "platforms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "A plataforma")),
    request_body = VehicleNoticeDto,
    responses((status = 201, description = "Aviso registrado e enviado ao webhook da plataforma", body = webhooks::VehicleNotice)))]
pub async fn notify_vehicle_suspension(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<VehicleNoticeDto>,
) -> Result<HttpResponse, ApiError> {
    let notice = webhooks::notify_vehicle_suspension(
        &state,
        &official.actor,
        &id,
        &body.auto_id,
        &body.plate,
    )
    .await?;
    Ok(HttpResponse::Created().json(notice))
}
