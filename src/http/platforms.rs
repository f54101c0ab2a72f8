//! `/api/v1/platforms`: technology platforms registered with the SMF (arts. 3º, 5º X, 6º).

use actix_web::{HttpResponse, web};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::auth::Official;
use super::fields::{Fields, parsed};
use super::problem::ApiError;
use crate::documents::format;
use crate::domain::dates::local_date;
use crate::domain::ids::Cnpj;
use crate::domain::ride_hailing::platform::{
    DataRequestStatus, PlatformStatus, RegularizationNotice, RegularizationStatus,
    data_request_status, platform_status, regularization_status,
};
use crate::issuance::ride_hailing::platforms::{
    self, Delivery, NewDataRequest, NewNotice, NewPlatform,
};
use crate::standing;
use crate::state::AppState;
use crate::storage::PlatformRecord;

#[derive(Deserialize, utoipa::ToSchema)]
pub struct InsuranceDto {
    policy: String,
    insurer: String,
    cover_centavos: i64,
    valid_until: String,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct NewPlatformDto {
    name: String,
    cnpj: String,
    app_insurance: InsuranceDto,
    fee_paid_on: String,
}

/// A technology platform registered with the SMF, with its status now.
#[derive(Serialize, utoipa::ToSchema)]
pub struct PlatformView {
    id: String,
    name: String,
    /// CNPJ formatado.
    cnpj: String,
    app_insurance: InsuranceView,
    fee_paid_on: NaiveDate,
    valid_until: NaiveDate,
    status: PlatformStatus,
    legal_basis_version: String,
    /// As notificações para regularizar (art. 24, II, a); só na consulta.
    #[serde(skip_serializing_if = "Option::is_none")]
    regularization_notices: Option<Vec<NoticeView>>,
    /// O endereço de webhook que a plataforma cadastrou; só na consulta.
    #[serde(skip_serializing_if = "Option::is_none")]
    webhook_url: Option<String>,
    /// As últimas entregas de eventos ao webhook, da mais recente; só na consulta.
    #[serde(skip_serializing_if = "Option::is_none")]
    webhook_deliveries: Option<Vec<super::platform_api::DeliveryView>>,
    /// Os relatórios mensais e as respostas a solicitações de dados que a plataforma enviou,
    /// do mais recente; só na consulta.
    #[serde(skip_serializing_if = "Option::is_none")]
    received_files: Option<Vec<PlatformFileView>>,
}

/// The platform's insurance for passengers (art. 5º, X).
#[derive(Serialize, utoipa::ToSchema)]
pub struct InsuranceView {
    policy: String,
    insurer: String,
    cover_centavos: i64,
    /// A cobertura em reais.
    cover: String,
    valid_until: NaiveDate,
}

fn platform_view(state: &AppState, p: &PlatformRecord) -> PlatformView {
    let cnpj = Cnpj::parse(&p.cnpj).map_or_else(|_| p.cnpj.clone(), |c| c.formatted());
    PlatformView {
        id: p.id.clone(),
        name: p.name.clone(),
        cnpj,
        app_insurance: InsuranceView {
            policy: p.insurance_policy.clone(),
            insurer: p.insurer.clone(),
            cover_centavos: p.insurance_cover_centavos,
            cover: format::money(p.insurance_cover_centavos),
            valid_until: p.insurance_valid_until,
        },
        fee_paid_on: p.fee_paid_on,
        valid_until: p.valid_until,
        status: platform_status(p.valid_until, p.insurance_valid_until, state.clock.now()),
        legal_basis_version: p.legal_basis_version.clone(),
        regularization_notices: None,
        webhook_url: None,
        webhook_deliveries: None,
        received_files: None,
    }
}

const NO_PLATFORM: &str = "Plataforma não encontrada.";

/// A path id parsed before it reaches SQL (a NUL or any non-UUID text is a 404, never a
/// database error), in the canonical text the register stores.
fn canonical_id(raw: &str, not_found: &str) -> Result<String, ApiError> {
    Uuid::parse_str(raw.trim())
        .map(|u| u.to_string())
        .map_err(|_| ApiError::NotFound(not_found.to_owned()))
}

/// Registers a technology platform (arts. 3º and 5º, X).
#[utoipa::path(post, path = "/api/v1/platforms", tag = "platforms", security(("bearer" = [])),
    responses((status = 201, description = "Plataforma cadastrada", body = PlatformView)))]
pub async fn create(
    state: web::Data<AppState>,
    official: Official,
    body: web::Json<NewPlatformDto>,
) -> Result<HttpResponse, ApiError> {
    let new = NewPlatform::try_from(body.into_inner())?;
    let record = platforms::register_platform(&state, &official.actor, new).await?;
    Ok(HttpResponse::Created().json(platform_view(&state, &record)))
}

impl TryFrom<NewPlatformDto> for NewPlatform {
    type Error = ApiError;

    fn try_from(dto: NewPlatformDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let name = f.text("name", &dto.name, 200);
        let cnpj = f.take(
            "cnpj",
            Cnpj::parse(&dto.cnpj),
            "CNPJ inválido: confira os dígitos verificadores.",
        );
        let policy = f.text("app_insurance.policy", &dto.app_insurance.policy, 100);
        let insurer = f.text("app_insurance.insurer", &dto.app_insurance.insurer, 200);
        let insurance_until = f.date("app_insurance.valid_until", &dto.app_insurance.valid_until);
        let fee_paid_on = f.date("fee_paid_on", &dto.fee_paid_on);
        let (name, cnpj, insurance_policy, insurer, insurance_valid_until, fee_paid_on) = f.done(
            parsed!(name, cnpj, policy, insurer, insurance_until, fee_paid_on),
        )?;
        Ok(Self {
            name,
            cnpj,
            insurance_policy,
            insurer,
            insurance_cover_centavos: dto.app_insurance.cover_centavos,
            insurance_valid_until,
            fee_paid_on,
        })
    }
}

/// A platform with its status and notices.
#[utoipa::path(get, path = "/api/v1/platforms/{id}", tag = "platforms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "A plataforma")),
    responses((status = 200, description = "A plataforma", body = PlatformView)))]
pub async fn get(
    state: web::Data<AppState>,
    _o: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let p = state
        .store
        .get_platform(&canonical_id(&id, NO_PLATFORM)?)
        .await?
        .ok_or_else(|| ApiError::NotFound(NO_PLATFORM.into()))?;
    let today = local_date(state.clock.now());
    let mut body = platform_view(&state, &p);
    body.regularization_notices = Some(
        standing::ride_hailing::regularization_notices(&state, platform_uuid(&p.id)?)
            .await?
            .iter()
            .map(|n| notice_view(n, today))
            .collect(),
    );
    body.webhook_url = state
        .store
        .platform_webhook(&p.id)
        .await?
        .and_then(|w| w.url);
    body.webhook_deliveries = Some(super::platform_api::deliveries(&state, &p.id).await?);
    body.received_files = Some(files_of(&state, &p.id).await?);
    Ok(HttpResponse::Ok().json(body))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct DataRequestDto {
    justification: String,
    scope: String,
    notified_at: String,
}

/// A data request to a platform (art. 4º) and its delivery.
#[derive(Serialize, utoipa::ToSchema)]
pub struct DataRequestView {
    id: String,
    platform_id: String,
    justification: String,
    scope: String,
    notified_at: DateTime<Utc>,
    due_at: DateTime<Utc>,
    deadline: &'static str,
    delivered_at: Option<DateTime<Utc>>,
    sha256: Option<String>,
    signer: Option<String>,
    status: DataRequestStatus,
}

pub(crate) fn request_view(r: &crate::storage::DataRequest) -> DataRequestView {
    DataRequestView {
        id: r.id.clone(),
        platform_id: r.platform_id.clone(),
        justification: r.justification.clone(),
        scope: r.scope.clone(),
        notified_at: r.notified_at,
        due_at: r.due_at,
        deadline: "24 horas contadas minuto a minuto do recebimento da notificação, sem prorrogação (art. 4º, §2º; DL-7)",
        delivered_at: r.delivered_at,
        sha256: r.sha256.clone(),
        signer: r.signer.clone(),
        status: data_request_status(r.due_at, r.delivered_at),
    }
}

fn parse_instant(f: &mut Fields, field: &str, raw: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    f.take(
        field,
        chrono::DateTime::parse_from_rfc3339(raw.trim()).map(|t| t.to_utc()),
        "Data e hora inválidas; use RFC 3339, ex. 2026-11-30T14:05:00-04:00.",
    )
}

/// `POST /api/v1/platforms/{id}/data-requests` (art. 4º, §2º): a justified request (art. 4º,
/// caput) with 24 hours to deliver, counted minute by minute (DL-7).
#[utoipa::path(post, path = "/api/v1/platforms/{id}/data-requests", tag = "platforms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "A plataforma")),
    responses((status = 201, description = "Solicitação registrada", body = DataRequestView)))]
pub async fn create_data_request(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<DataRequestDto>,
) -> Result<HttpResponse, ApiError> {
    // The record is looked up before the body is parsed: a missing one is a 404 first.
    let platform_id = platforms::platform_id(&state, &canonical_id(&id, NO_PLATFORM)?).await?;
    let new = NewDataRequest::try_from(body.into_inner())?;
    let r = platforms::request_data(&state, &official.actor, &platform_id, new).await?;
    Ok(HttpResponse::Created().json(request_view(&r)))
}

impl TryFrom<DataRequestDto> for NewDataRequest {
    type Error = ApiError;

    fn try_from(dto: DataRequestDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let justification = f.text("justification", &dto.justification, 4000);
        let scope = f.text("scope", &dto.scope, 4000);
        let notified_at = parse_instant(&mut f, "notified_at", &dto.notified_at);
        let (justification, scope, notified_at) =
            f.done(parsed!(justification, scope, notified_at))?;
        Ok(Self {
            justification,
            scope,
            notified_at,
        })
    }
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct DeliveryDto {
    delivered_at: String,
    sha256: String,
    signer: String,
    /// Retifica a entrega já registrada, com o motivo.
    #[serde(default)]
    rectifies: Option<super::rectification::RectificationDto>,
}

/// `POST /api/v1/data-requests/{id}/delivery` (art. 4º, §3º): the delivered file's hash and
/// the platform's authenticating agent.
#[utoipa::path(post, path = "/api/v1/data-requests/{id}/delivery", tag = "platforms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "A solicitação")),
    responses((status = 201, description = "Entrega registrada", body = DataRequestView)))]
pub async fn record_delivery(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<DeliveryDto>,
) -> Result<HttpResponse, ApiError> {
    let request_id =
        platforms::request_id(&state, &canonical_id(&id, "Solicitação não encontrada.")?).await?;
    let today = crate::domain::dates::local_date(state.clock.now());
    let rectifies = super::rectification::parse_reason(body.rectifies.as_ref(), today)?.map(
        |(reason, rectified_on)| platforms::DeliveryRectifies {
            reason,
            rectified_on,
        },
    );
    let delivery = Delivery::try_from(body.into_inner())?;
    let r = platforms::record_delivery(
        &state,
        &official.actor,
        &request_id,
        delivery,
        rectifies.as_ref(),
    )
    .await?;
    Ok(HttpResponse::Created().json(request_view(&r)))
}

impl TryFrom<DeliveryDto> for Delivery {
    type Error = ApiError;

    fn try_from(dto: DeliveryDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let delivered_at = parse_instant(&mut f, "delivered_at", &dto.delivered_at);
        let sha256 = dto.sha256.trim().to_ascii_lowercase();
        if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
            f.take::<(), ()>(
                "sha256",
                Err(()),
                "Informe o SHA-256 do arquivo entregue (64 caracteres hexadecimais).",
            );
        }
        let signer = f.text("signer", &dto.signer, 200);
        let (delivered_at, signer) = f.done(parsed!(delivered_at, signer))?;
        Ok(Self {
            delivered_at,
            sha256,
            signer,
        })
    }
}

/// A data request with its deadline and status.
#[utoipa::path(get, path = "/api/v1/data-requests/{id}", tag = "platforms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "A solicitação")),
    responses((status = 200, description = "A solicitação", body = DataRequestView)))]
pub async fn get_data_request(
    state: web::Data<AppState>,
    _o: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let r = state
        .store
        .get_data_request(&canonical_id(&id, "Solicitação não encontrada.")?)
        .await?
        .ok_or_else(|| ApiError::NotFound("Solicitação não encontrada.".into()))?;
    Ok(HttpResponse::Ok().json(request_view(&r)))
}

/// A notice to regularize (art. 24, II, a) and whether it was met.
#[derive(Serialize, utoipa::ToSchema)]
pub struct NoticeView {
    id: String,
    requirement: String,
    notified_on: NaiveDate,
    cure_by: NaiveDate,
    cured_on: Option<NaiveDate>,
    status: RegularizationStatus,
    legal_basis: &'static str,
}

fn notice_view(n: &RegularizationNotice, today: NaiveDate) -> NoticeView {
    NoticeView {
        id: n.id.clone(),
        requirement: n.requirement.clone(),
        notified_on: n.notified_on,
        cure_by: n.cure_by,
        cured_on: n.cured_on,
        status: regularization_status(n, today),
        legal_basis: "art. 24, II, a",
    }
}

/// A platform's path id, parsed before it reaches the database.
fn platform_uuid(raw: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(raw.trim()).map_err(|_| ApiError::NotFound(NO_PLATFORM.into()))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct NoticeDto {
    requirement: String,
    notified_on: String,
    cure_by: String,
}

/// `POST /api/v1/platforms/{id}/regularization-notices` (APP-ART24-II, AMB-36): notifies the
/// platform to regularize a requirement by the day the notice sets.
#[utoipa::path(post, path = "/api/v1/platforms/{id}/regularization-notices", tag = "platforms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "A plataforma")),
    responses((status = 201, description = "Notificação registrada", body = NoticeView)))]
pub async fn create_notice(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<NoticeDto>,
) -> Result<HttpResponse, ApiError> {
    let id = platform_uuid(&id)?;
    platforms::platform_id(&state, &id.to_string()).await?;
    let new = NewNotice::try_from(body.into_inner())?;
    let notice = platforms::notify_regularization(&state, &official.actor, id, new).await?;
    let today = local_date(state.clock.now());
    Ok(HttpResponse::Created().json(notice_view(&notice, today)))
}

impl TryFrom<NoticeDto> for NewNotice {
    type Error = ApiError;

    fn try_from(dto: NoticeDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let requirement = f.text("requirement", &dto.requirement, 500);
        let notified_on = f.date("notified_on", &dto.notified_on);
        let cure_by = f.date("cure_by", &dto.cure_by);
        let (requirement, notified_on, cure_by) =
            f.done(parsed!(requirement, notified_on, cure_by))?;
        Ok(Self {
            requirement,
            notified_on,
            cure_by,
        })
    }
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct CureDto {
    cured_on: String,
}

/// `POST /api/v1/platforms/{id}/regularization-notices/{notice}/regularization`: records that
/// the platform regularized what the notice asked, on `cured_on`.
#[utoipa::path(post, path = "/api/v1/platforms/{id}/regularization-notices/{notice}/regularization", tag = "platforms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "A plataforma"), ("notice" = String, Path, description = "A notificação")),
    responses((status = 200, description = "Regularização registrada", body = NoticeView)))]
pub async fn cure_notice(
    state: web::Data<AppState>,
    official: Official,
    path: web::Path<(String, String)>,
    body: web::Json<CureDto>,
) -> Result<HttpResponse, ApiError> {
    let (raw_id, notice_id) = path.into_inner();
    let id = platform_uuid(&raw_id)?;
    platforms::platform_id(&state, &id.to_string()).await?;
    let Cured(cured_on) = Cured::try_from(body.into_inner())?;
    let notice =
        platforms::record_regularization(&state, &official.actor, id, &notice_id, cured_on).await?;
    let today = local_date(state.clock.now());
    Ok(HttpResponse::Ok().json(notice_view(&notice, today)))
}

/// The day a platform regularized what a notice asked, parsed.
pub struct Cured(NaiveDate);

impl TryFrom<CureDto> for Cured {
    type Error = ApiError;

    fn try_from(dto: CureDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let cured_on = f.date("cured_on", &dto.cured_on);
        Ok(Self(f.done(cured_on)?))
    }
}

/// A file received from a platform (never its content).
#[derive(Serialize, utoipa::ToSchema)]
pub struct PlatformFileView {
    id: String,
    platform_id: String,
    /// `monthly_report` (relatório mensal) ou `data_request` (resposta a uma solicitação de dados).
    purpose: String,
    /// O mês do relatório (AAAA-MM).
    period: Option<String>,
    /// A solicitação de dados respondida.
    request_id: Option<String>,
    media_type: String,
    size_bytes: i64,
    sha256: String,
    received_at: DateTime<Utc>,
    /// Onde um servidor baixa o arquivo.
    download_url: String,
}

pub(crate) fn file_view(
    row: crate::storage::ride_hailing::platform_files::PlatformFileRow,
) -> PlatformFileView {
    PlatformFileView {
        download_url: format!("/api/v1/platform-files/{}", row.id),
        id: row.id,
        platform_id: row.platform_id,
        purpose: row.purpose,
        period: row.period,
        request_id: row.request_id,
        media_type: row.media_type,
        size_bytes: row.size_bytes,
        sha256: row.sha256,
        received_at: row.received_at,
    }
}

/// The files received from `platform_id`, as the record shows them.
pub(crate) async fn files_of(
    state: &AppState,
    platform_id: &str,
) -> Result<Vec<PlatformFileView>, ApiError> {
    Ok(
        crate::issuance::ride_hailing::platform_files::files_of(state, platform_id)
            .await?
            .into_iter()
            .map(file_view)
            .collect(),
    )
}
