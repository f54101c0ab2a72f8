//! `/api/v1/app-authorizations`: grant, read, revoke ride-hailing authorizations.

use actix_web::{HttpResponse, web};
use serde::Deserialize;
use serde_json::json;
use uuid::Uuid;

use super::auth::Official;
use super::fields::{Fields, parsed};
use super::problem::{ApiError, ProblemItem};
use crate::domain::calendar::{sanction_end_days, sanction_end_months};
use crate::domain::ride_hailing::AuthorizationStatus;
use crate::domain::ride_hailing::RideHailingAct;
use crate::domain::ride_hailing::registry::RideHailingAuthorization;
use crate::domain::ride_hailing::sanctions::{Sanction, SanctionKind, authorization_status};
use crate::issuance::verification_url;
use crate::state::AppState;
use crate::storage::documents::Document;
use crate::storage::{DocumentKind, Repository, RevokeOutcome};
use crate::{issuance, standing};

#[derive(Deserialize)]
pub struct GrantDto {
    driver_id: String,
    vehicle_id: String,
    fee_paid_on: String,
}

#[derive(Deserialize)]
pub struct RevocationDto {
    reason: String,
}

struct DocRef<'a> {
    kind: DocumentKind,
    id: Uuid,
    sha256: &'a str,
    code: &'a str,
    token: &'a str,
}

/// `standing`: what bars the authorization beyond its sanctions (`ride_hailing_standing`).
fn authorization_json(
    state: &AppState,
    a: &RideHailingAuthorization,
    docs: &[DocRef<'_>],
    sanctions: &[Sanction],
    standing: Option<AuthorizationStatus>,
) -> serde_json::Value {
    let (status, suspended_until) = authorization_status(
        a.valid_until,
        a.revocation.as_ref().map(|r| r.revoked_at),
        sanctions,
        standing,
        state.clock.now(),
    );
    let sticker_url = docs
        .iter()
        .find(|d| d.kind == DocumentKind::RideHailingSticker)
        .map(|d| verification_url(&state.letterhead.public_url, d.token));
    json!({
        "id": a.id,
        "number": a.number,
        "driver_id": a.driver_id,
        "vehicle_id": a.vehicle_id,
        "vehicle_substitutions": a.substitutions,
        "fee_paid_on": a.fee_paid_on,
        "valid_from": a.valid_from,
        "valid_until": a.valid_until,
        "status": status,
        "suspended_until": suspended_until,
        "sanctions": sanctions,
        "legal_basis_version": a.legal_basis_version,
        "granted_at": a.granted_at,
        "revocation": a.revocation.as_ref().map(|r| json!({
            "revoked_at": r.revoked_at,
            "reason": r.reason,
        })),
        "documents": docs.iter().map(|d| json!({
            "kind": d.kind,
            "id": d.id,
            "url": format!("/api/v1/documents/{}", d.id),
            "sha256": d.sha256,
            "verification_code": d.code,
            "verification_url": verification_url(&state.letterhead.public_url, d.token),
        })).collect::<Vec<_>>(),
        "verification_url": sticker_url,
    })
}

fn refs(docs: &[Document]) -> Vec<DocRef<'_>> {
    docs.iter()
        .map(|d| DocRef {
            kind: d.kind,
            id: d.id,
            sha256: &d.sha256,
            code: &d.verification_code,
            token: &d.token,
        })
        .collect()
}

fn parse_id(raw: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(raw).map_err(|_| ApiError::NotFound("Autorização não encontrada.".into()))
}

pub async fn grant(
    state: web::Data<AppState>,
    official: Official,
    body: web::Json<GrantDto>,
) -> Result<HttpResponse, ApiError> {
    let mut f = Fields::default();
    let driver_id = f.uuid("driver_id", &body.driver_id);
    let vehicle_id = f.uuid("vehicle_id", &body.vehicle_id);
    let fee_paid_on = f.date("fee_paid_on", &body.fee_paid_on);
    let (driver_id, vehicle_id, fee_paid_on) =
        f.done(parsed!(driver_id, vehicle_id, fee_paid_on))?;
    match issuance::ride_hailing::grant::grant_app_authorization(
        &state,
        driver_id,
        vehicle_id,
        fee_paid_on,
        &official.actor,
    )
    .await
    {
        Ok(granted) => {
            let docs: Vec<DocRef<'_>> = granted
                .documents
                .iter()
                .map(|d| DocRef {
                    kind: d.document.kind,
                    id: d.document.id,
                    sha256: &d.document.sha256,
                    code: &d.document.verification_code,
                    token: &d.document.token,
                })
                .collect();
            let body = authorization_json(&state, &granted.authorization, &docs, &[], None);
            Ok(HttpResponse::Created()
                .insert_header((
                    "Location",
                    format!("/api/v1/app-authorizations/{}", granted.authorization.id),
                ))
                .json(body))
        }
        Err(e) => Err(e.into()),
    }
}

pub async fn get(
    state: web::Data<AppState>,
    _official: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id)?;
    Ok(HttpResponse::Ok().json(stored_json(&state, id).await?))
}

/// The authorization as stored now: record, documents and sanctions.
async fn stored_json(state: &AppState, id: Uuid) -> Result<serde_json::Value, ApiError> {
    let a = state
        .store
        .get_authorization(id)
        .await?
        .ok_or_else(|| ApiError::NotFound("Autorização não encontrada.".into()))?;
    let docs = state.store.documents_of(id).await?;
    let sanctions = state.store.sanctions_of(id).await?;
    // Art. 24, I (descadastramento) and APP-ART9, APP-ART16, APP-ART26-II (vistorias) can
    // bar an active authorization.
    let (standing, report) = standing::ride_hailing::ride_hailing_standing(
        state,
        a.id,
        a.driver_id,
        a.vehicle_id,
        a.granted_at,
        state.clock.now(),
    )
    .await?;
    let mut body = authorization_json(state, &a, &refs(&docs), &sanctions, standing);
    body["inspection"] = json!(report);
    Ok(body)
}

#[derive(Deserialize)]
pub struct VistoriaDto {
    performed_on: String,
    approved: bool,
    inspector: String,
    #[serde(default)]
    notes: String,
    /// A failed vistoria: when the driver was notified of what to fix (art. 16 §2º).
    #[serde(default)]
    notified_on: Option<String>,
}

/// `POST /api/v1/app-authorizations/{id}/vistorias` (APP-ART9, APP-ART16, §2º): records a
/// vistoria of the authorized vehicle by the SMF.
pub async fn vistoria(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<VistoriaDto>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id)?;
    let dto = body.into_inner();
    let today = crate::domain::dates::local_date(state.clock.now());
    let mut f = Fields::default();
    let performed_on = f.date("performed_on", &dto.performed_on);
    let inspector = f.text("inspector", &dto.inspector, 200);
    let notified_on = dto.notified_on.as_deref().map(|d| f.date("notified_on", d));
    if performed_on.is_some_and(|d| d > today) {
        f.take::<(), ()>(
            "performed_on",
            Err(()),
            "A vistoria não pode ter data futura.",
        );
    }
    if let Some(message) =
        crate::domain::ride_hailing::vistoria::app_art16_p2_notice_only_on_failure(
            dto.approved,
            notified_on.is_some(),
        )
    {
        f.take::<(), ()>("notified_on", Err(()), message);
    }
    let (performed_on, inspector) = f.done(parsed!(performed_on, inspector))?;
    let Some(authorization) = state.store.get_authorization(id).await? else {
        return Err(ApiError::NotFound("Autorização não encontrada.".into()));
    };
    if let Some(f) = crate::domain::ride_hailing::vistoria::app_art10_fee_before_vistoria(
        authorization.fee_paid_on,
        performed_on,
    ) {
        return Err(ApiError::Requirements(vec![ProblemItem::from(f)]));
    }
    let v = crate::domain::ride_hailing::vistoria::RideHailingVistoria {
        performed_on,
        approved: dto.approved,
        inspector,
        notes: dto.notes,
        notified_on: notified_on.flatten(),
    };
    crate::issuance::ride_hailing::acts::record(
        &state,
        &official.actor,
        "app_authorization",
        id,
        RideHailingAct::VistoriaRecorded.as_str(),
        &v,
    )
    .await?;
    Ok(HttpResponse::Created().json(stored_json(&state, id).await?))
}

#[derive(Deserialize)]
pub struct SummonsDto {
    notified_on: String,
    #[serde(default)]
    platform_notified_on: Option<String>,
    attend_by: String,
    reason: String,
}

/// `POST /api/v1/app-authorizations/{id}/vistoria-summons` (APP-ART16-P1): records the
/// notice to the driver and the platform to present the car for an extra vistoria by the
/// day it sets; missing it is the infraction of art. 26, I (AMB-38).
pub async fn vistoria_summons(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<SummonsDto>,
) -> Result<HttpResponse, ApiError> {
    use crate::domain::ride_hailing::vistoria::{VistoriaSummons, app_art16_p1_check};
    let id = parse_id(&id)?;
    let dto = body.into_inner();
    let mut f = Fields::default();
    let notified_on = f.date("notified_on", &dto.notified_on);
    let platform_notified_on = dto
        .platform_notified_on
        .as_deref()
        .map(|d| f.date("platform_notified_on", d));
    let attend_by = f.date("attend_by", &dto.attend_by);
    let reason = f.text("reason", &dto.reason, 1000);
    let (notified_on, attend_by, reason) = f.done(parsed!(notified_on, attend_by, reason))?;
    if state.store.get_authorization(id).await?.is_none() {
        return Err(ApiError::NotFound("Autorização não encontrada.".into()));
    }
    let summons = VistoriaSummons {
        notified_on,
        platform_notified_on: platform_notified_on.flatten(),
        attend_by,
        reason,
    };
    let today = crate::domain::dates::local_date(state.clock.now());
    let failures = app_art16_p1_check(&summons, today);
    if !failures.is_empty() {
        return Err(ApiError::Requirements(
            failures.into_iter().map(ProblemItem::from).collect(),
        ));
    }
    crate::issuance::ride_hailing::acts::record(
        &state,
        &official.actor,
        "app_authorization",
        id,
        RideHailingAct::VistoriaSummons.as_str(),
        &summons,
    )
    .await?;
    Ok(HttpResponse::Created().json(stored_json(&state, id).await?))
}

#[derive(Deserialize)]
pub struct SubstitutionDto {
    new_vehicle_id: String,
    /// `sinistro`, `venda` or `locacao` (art. 8º, §2º).
    cause: String,
    vistoria: SubstitutionVistoriaDto,
}

#[derive(Deserialize)]
pub struct SubstitutionVistoriaDto {
    performed_on: String,
    approved: bool,
    inspector: String,
    #[serde(default)]
    notes: String,
}

/// `POST /api/v1/app-authorizations/{id}/vehicle-substitutions` (APP-ART8-P2): replaces the
/// car after a casualty, sale or rental, once the new one passed a new SMF vistoria; issues
/// the authorization and the sticker for the new car with the same number and validity.
pub async fn substitute_vehicle(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<SubstitutionDto>,
) -> Result<HttpResponse, ApiError> {
    use crate::domain::ride_hailing::substitution::SubstitutionCause;
    use issuance::ride_hailing::substitution::SubstitutionRequest;
    let id = parse_id(&id)?;
    let dto = body.into_inner();
    let today = crate::domain::dates::local_date(state.clock.now());
    let mut f = Fields::default();
    let new_vehicle_id = f.uuid("new_vehicle_id", &dto.new_vehicle_id);
    let cause = f.take(
        "cause",
        SubstitutionCause::parse(dto.cause.trim()).ok_or(()),
        "Informe o motivo da substituição: sinistro, venda ou locacao (art. 8º, §2º).",
    );
    let performed_on = f.date("vistoria.performed_on", &dto.vistoria.performed_on);
    let inspector = f.text("vistoria.inspector", &dto.vistoria.inspector, 200);
    if performed_on.is_some_and(|d| d > today) {
        f.take::<(), ()>(
            "vistoria.performed_on",
            Err(()),
            "A vistoria não pode ter data futura.",
        );
    }
    let (new_vehicle_id, cause, vistoria_on, inspector) =
        f.done(parsed!(new_vehicle_id, cause, performed_on, inspector))?;
    let req = SubstitutionRequest {
        new_vehicle_id,
        cause,
        vistoria_on,
        vistoria_approved: dto.vistoria.approved,
        inspector,
        notes: dto.vistoria.notes,
    };
    match issuance::ride_hailing::substitution::substitute_vehicle(&state, id, req, &official.actor)
        .await
    {
        Ok(_) => Ok(HttpResponse::Created()
            .insert_header(("Location", format!("/api/v1/app-authorizations/{id}")))
            .json(stored_json(&state, id).await?)),
        Err(e) => Err(e.into()),
    }
}

pub async fn revoke(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<RevocationDto>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id)?;
    let mut f = Fields::default();
    let reason = f.text("reason", &body.reason, 1000);
    f.finish()?;
    let reason = reason.ok_or(ApiError::Internal)?;
    match state
        .store
        .revoke_authorization(id, &reason, &official.actor, state.clock.now())
        .await?
    {
        RevokeOutcome::NotFound => Err(ApiError::NotFound("Autorização não encontrada.".into())),
        RevokeOutcome::AlreadyRevoked(r) => Err(ApiError::Conflict(
            format!(
                "A autorização já foi revogada em {}.",
                crate::documents::format::datetime_local(r.revoked_at)
            ),
            vec![],
        )),
        RevokeOutcome::Revoked(_) => Ok(HttpResponse::Ok().json(stored_json(&state, id).await?)),
    }
}

pub async fn document(
    state: web::Data<AppState>,
    _official: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let not_found = || ApiError::NotFound("Documento não encontrado.".into());
    let id = Uuid::parse_str(&id).map_err(|_| not_found())?;
    // This path serves the ride-hailing authorization and sticker; the register's other
    // documents are served under `/api/v1/charter/documents/{id}`.
    let meta = state
        .store
        .document(id)
        .await?
        .filter(|d| {
            matches!(
                d.kind,
                DocumentKind::RideHailingAuthorization | DocumentKind::RideHailingSticker
            )
        })
        .ok_or_else(not_found)?;
    let pdf = state.store.document_pdf(id).await?.ok_or_else(not_found)?;
    let filename = format!(
        "{}-{}.pdf",
        meta.kind.as_str(),
        meta.number.replace('/', "-")
    );
    Ok(HttpResponse::Ok()
        .content_type("application/pdf")
        .insert_header((
            "Content-Disposition",
            format!("inline; filename=\"{filename}\""),
        ))
        .insert_header(("X-Content-SHA256", meta.sha256))
        .body(pdf))
}

#[derive(Deserialize)]
pub struct SanctionDto {
    kind: String,
    effective_from: String,
    days: Option<u32>,
    months: Option<u32>,
    reason: String,
    legal_basis: String,
}

/// `POST /api/v1/app-authorizations/{id}/sanctions`: a suspension for `days` or `months`
/// from `effective_from` (DL-9: reinstated on the day after the last), or a cassação.
pub async fn sanction(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<SanctionDto>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id)?;
    let mut f = Fields::default();
    let from = f.date("effective_from", &body.effective_from);
    let reason = f.text("reason", &body.reason, 1000);
    let legal_basis = f.text("legal_basis", &body.legal_basis, 200);
    let kind = f.take(
        "kind",
        SanctionKind::parse(&body.kind).ok_or(()),
        "Use suspension ou cassacao.",
    );
    let overflow = state.ride_hailing_basis.month_overflow;
    let until = match (kind, body.days, body.months, from) {
        (Some(SanctionKind::Suspensao), Some(d), None, Some(from)) if d > 0 => {
            Some(sanction_end_days(from, d))
        }
        (Some(SanctionKind::Suspensao), None, Some(m), Some(from)) if m > 0 => {
            Some(sanction_end_months(from, m, overflow))
        }
        (Some(SanctionKind::Suspensao), ..) => {
            f.take::<(), ()>(
                "days",
                Err(()),
                "Informe a duração da suspensão em `days` ou em `months` (apenas um).",
            );
            None
        }
        _ => None,
    };
    let (kind, effective_from, reason, legal_basis) =
        f.done(parsed!(kind, from, reason, legal_basis))?;
    let sanction = Sanction {
        kind,
        effective_from,
        until,
        reason,
        legal_basis,
    };
    if !state
        .store
        .add_sanction(id, &sanction, &official.actor, state.clock.now())
        .await?
    {
        return Err(ApiError::NotFound("Autorização não encontrada.".into()));
    }
    Ok(HttpResponse::Created().json(stored_json(&state, id).await?))
}

/// `GET /api/v1/app-infractions`: the catalogue of arts. 26–27 with the fines of the
/// legal basis in force.
pub async fn infractions(state: web::Data<AppState>) -> HttpResponse {
    let items: Vec<_> = crate::domain::ride_hailing::sanctions::RIDE_HAILING_INFRACTIONS
        .iter()
        .map(|i| {
            json!({
                "id": i.id,
                "article": i.article,
                "class": i.class,
                "description": i.description,
                "fine_upf": i.class.upf(&state.ride_hailing_basis),
            })
        })
        .collect();
    HttpResponse::Ok().json(
        json!({"legal_basis_version": state.ride_hailing_basis.version, "infractions": items}),
    )
}

#[derive(Deserialize)]
pub struct CertidaoDto {
    subject: String,
    protocol: String,
}

/// `POST /api/v1/app-authorizations/{id}/certidoes`: the certidão de situação cadastral of
/// the authorization's driver (`app_driver`) or vehicle (`app_vehicle`).
pub async fn certidao(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<CertidaoDto>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id)?;
    let mut f = Fields::default();
    let protocol = f.text("protocol", &body.protocol, 60);
    let subject = match body.subject.as_str() {
        "app_driver" => Some("app_driver"),
        "app_vehicle" => Some("app_vehicle"),
        _ => f.take(
            "subject",
            Err::<&'static str, ()>(()),
            "Use app_driver ou app_vehicle.",
        ),
    };
    let (protocol, subject) = f.done(parsed!(protocol, subject))?;
    let record = standing::ride_hailing::load_ride_hailing_record(&state, id)
        .await?
        .ok_or_else(|| ApiError::NotFound("Autorização não encontrada.".into()))?;
    match issuance::ride_hailing::certidao::issue(
        &state,
        &record,
        subject,
        &protocol,
        &official.actor,
    )
    .await
    {
        Ok(doc) => Ok(HttpResponse::Created().json(json!({
            "id": doc.id,
            "kind": doc.kind,
            "number": doc.number,
            "verification_code": doc.verification_code,
            "verification_url": verification_url(&state.letterhead.public_url, &doc.token),
            "valid_until": doc.valid_until,
            "facts": doc.facts,
            "pdf": format!("/api/v1/charter/documents/{}", doc.id),
        }))),
        Err(e) => Err(e.into()),
    }
}
