//! `/api/v1/platforms`: technology platforms registered with the SMF (arts. 3º, 5º X, 6º).

use actix_web::{HttpResponse, web};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;
use uuid::Uuid;

use super::auth::Official;
use super::fields::{Fields, parsed};
use super::problem::{ApiError, ProblemItem};
use crate::documents::format;
use crate::domain::dates::local_date;
use crate::domain::ids::Cnpj;
use crate::domain::ride_hailing::RideHailingAct;
use crate::domain::ride_hailing::platform::{
    DataRequestStatus, PlatformFacts, PlatformStatus, RegularizationNotice, RegularizationStatus,
    app_art24_ii_check, data_request_status, decide_platform, platform_status,
    regularization_status,
};
use crate::state::AppState;
use crate::storage::{PlatformRecord, Repository, StorageError};

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
    let dto = body.into_inner();
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
    let (name, cnpj, policy, insurer, insurance_valid_until, fee_paid_on) = f.done(parsed!(
        name,
        cnpj,
        policy,
        insurer,
        insurance_until,
        fee_paid_on
    ))?;
    let now = state.clock.now();
    let facts = PlatformFacts {
        insurance_cover_centavos: dto.app_insurance.cover_centavos,
        insurance_valid_until,
        fee_paid_on,
        today: local_date(now),
    };
    let valid_until = decide_platform(&facts, &state.ride_hailing_basis)
        .map_err(|v| ApiError::Requirements(v.into_iter().map(ProblemItem::from).collect()))?;
    let record = PlatformRecord {
        id: Uuid::new_v4().to_string(),
        cnpj: cnpj.as_str().to_owned(),
        name,
        insurance_policy: policy,
        insurer,
        insurance_cover_centavos: dto.app_insurance.cover_centavos,
        insurance_valid_until,
        fee_paid_on,
        valid_until,
        legal_basis_version: state.ride_hailing_basis.version.to_owned(),
        created_at: now,
    };
    match state.store.insert_platform(&record, &official.actor).await {
        Ok(()) => Ok(HttpResponse::Created().json(platform_view(&state, &record))),
        Err(StorageError::Conflict("cnpj")) => Err(ApiError::Conflict(
            "Já existe uma plataforma com este CNPJ.".into(),
            vec![ProblemItem::field("cnpj", "CNPJ já cadastrado.")],
        )),
        Err(e) => Err(e.into()),
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
        notices_of(&state, &p.id)
            .await?
            .iter()
            .map(|n| notice_view(n, today))
            .collect(),
    );
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

fn request_view(r: &crate::storage::DataRequest) -> DataRequestView {
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
    let platform = state
        .store
        .get_platform(&canonical_id(&id, NO_PLATFORM)?)
        .await?
        .ok_or_else(|| ApiError::NotFound(NO_PLATFORM.into()))?;
    let mut f = Fields::default();
    let justification = f.text("justification", &body.justification, 4000);
    let scope = f.text("scope", &body.scope, 4000);
    let notified_at = parse_instant(&mut f, "notified_at", &body.notified_at);
    let (justification, scope, notified_at) = f.done(parsed!(justification, scope, notified_at))?;
    let r = crate::storage::DataRequest {
        id: Uuid::new_v4().to_string(),
        platform_id: platform.id,
        justification,
        scope,
        notified_at,
        due_at: crate::domain::calendar::deadline_in_hours(
            notified_at,
            state.ride_hailing_basis.data_request_hours,
        ),
        delivered_at: None,
        sha256: None,
        signer: None,
    };
    state
        .store
        .insert_data_request(&r, &official.actor, state.clock.now())
        .await?;
    Ok(HttpResponse::Created().json(request_view(&r)))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct DeliveryDto {
    delivered_at: String,
    sha256: String,
    signer: String,
}

/// `POST /api/v1/data-requests/{id}/delivery` (art. 4º, §3º): the delivered file's hash and
/// the platform's authenticating agent.
/// Records the delivery of the requested data (art. 4º, §2º).
#[utoipa::path(post, path = "/api/v1/data-requests/{id}/delivery", tag = "platforms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "A solicitação")),
    responses((status = 201, description = "Entrega registrada", body = DataRequestView)))]
pub async fn record_delivery(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<DeliveryDto>,
) -> Result<HttpResponse, ApiError> {
    let not_found = || ApiError::NotFound("Solicitação não encontrada.".into());
    let r = state
        .store
        .get_data_request(&canonical_id(&id, "Solicitação não encontrada.")?)
        .await?
        .ok_or_else(not_found)?;
    let mut f = Fields::default();
    let delivered_at = parse_instant(&mut f, "delivered_at", &body.delivered_at);
    let sha = body.sha256.trim().to_ascii_lowercase();
    if sha.len() != 64 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
        f.take::<(), ()>(
            "sha256",
            Err(()),
            "Informe o SHA-256 do arquivo entregue (64 caracteres hexadecimais).",
        );
    }
    let signer = f.text("signer", &body.signer, 200);
    let (delivered_at, signer) = f.done(parsed!(delivered_at, signer))?;
    if delivered_at < r.notified_at {
        return Err(ApiError::Invalid(vec![ProblemItem::field(
            "delivered_at",
            "A entrega não pode ser anterior à notificação.",
        )]));
    }
    match state
        .store
        .record_delivery(
            &r.id,
            delivered_at,
            &sha,
            &signer,
            &official.actor,
            state.clock.now(),
        )
        .await
    {
        Ok(()) => {}
        Err(StorageError::Conflict(_)) => {
            return Err(ApiError::Conflict(
                "A entrega já foi registrada.".into(),
                vec![],
            ));
        }
        Err(e) => return Err(e.into()),
    }
    let r = state
        .store
        .get_data_request(&canonical_id(&id, "Solicitação não encontrada.")?)
        .await?
        .ok_or_else(not_found)?;
    Ok(HttpResponse::Created().json(request_view(&r)))
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

/// The notices to regularize of a platform, with their regularizations applied.
async fn notices_of(
    state: &AppState,
    platform_id: &str,
) -> Result<Vec<RegularizationNotice>, ApiError> {
    let events = state.store.events_of("platform", platform_id).await?;
    let mut notices: Vec<RegularizationNotice> = Vec::new();
    for e in &events {
        match RideHailingAct::parse(&e.kind) {
            Some(RideHailingAct::RegularizationNotice) => {
                notices.extend(serde_json::from_str(&e.data).ok());
            }
            Some(RideHailingAct::RegularizationCured) => {
                let d: serde_json::Value = serde_json::from_str(&e.data).unwrap_or_default();
                let cured_on = d["cured_on"]
                    .as_str()
                    .and_then(|x| chrono::NaiveDate::parse_from_str(x, "%Y-%m-%d").ok());
                if let Some(n) = notices.iter_mut().find(|n| d["id"] == n.id.as_str()) {
                    n.cured_on = cured_on;
                }
            }
            _ => {}
        }
    }
    Ok(notices)
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

async fn platform_uuid(state: &AppState, raw: &str) -> Result<Uuid, ApiError> {
    let not_found = || ApiError::NotFound("Plataforma não encontrada.".into());
    let id = Uuid::parse_str(raw).map_err(|_| not_found())?;
    state
        .store
        .get_platform(&id.to_string())
        .await?
        .ok_or_else(not_found)?;
    Ok(id)
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
    let id = platform_uuid(&state, &id).await?;
    let mut f = Fields::default();
    let requirement = f.text("requirement", &body.requirement, 500);
    let notified_on = f.date("notified_on", &body.notified_on);
    let cure_by = f.date("cure_by", &body.cure_by);
    let (requirement, notified_on, cure_by) = f.done(parsed!(requirement, notified_on, cure_by))?;
    let notice = RegularizationNotice {
        id: Uuid::new_v4().to_string(),
        requirement,
        notified_on,
        cure_by,
        cured_on: None,
    };
    let today = local_date(state.clock.now());
    let failures = app_art24_ii_check(&notice, today);
    if !failures.is_empty() {
        return Err(ApiError::Requirements(
            failures.into_iter().map(ProblemItem::from).collect(),
        ));
    }
    crate::issuance::ride_hailing::acts::record(
        &state,
        &official.actor,
        "platform",
        id,
        RideHailingAct::RegularizationNotice.as_str(),
        &notice,
    )
    .await?;
    Ok(HttpResponse::Created().json(notice_view(&notice, today)))
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
    let id = platform_uuid(&state, &raw_id).await?;
    let mut f = Fields::default();
    let cured_on = f.date("cured_on", &body.cured_on);
    f.finish()?;
    let cured_on = cured_on.ok_or(ApiError::Internal)?;
    let mut notice = notices_of(&state, &id.to_string())
        .await?
        .into_iter()
        .find(|n| n.id == notice_id)
        .ok_or_else(|| ApiError::NotFound("Notificação não encontrada.".into()))?;
    if let Some(on) = notice.cured_on {
        return Err(ApiError::Conflict(
            format!(
                "A regularização já foi registrada em {}.",
                on.format("%d/%m/%Y")
            ),
            vec![],
        ));
    }
    notice.cured_on = Some(cured_on);
    let today = local_date(state.clock.now());
    let failures = app_art24_ii_check(&notice, today);
    if !failures.is_empty() {
        return Err(ApiError::Requirements(
            failures.into_iter().map(ProblemItem::from).collect(),
        ));
    }
    let data = json!({ "id": notice.id, "cured_on": cured_on });
    crate::issuance::ride_hailing::acts::record(
        &state,
        &official.actor,
        "platform",
        id,
        RideHailingAct::RegularizationCured.as_str(),
        &data,
    )
    .await?;
    Ok(HttpResponse::Ok().json(notice_view(&notice, today)))
}
