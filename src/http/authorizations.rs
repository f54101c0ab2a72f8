//! `/api/v1/app-authorizations`: grant, read, revoke ride-hailing authorizations.

use actix_web::{HttpResponse, web};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::auth::Official;
use super::fields::{Fields, parsed};
use super::problem::{ApiError, ProblemItem};
use crate::domain::calendar::{sanction_end_days, sanction_end_months};
use crate::domain::dates::MonthOverflow;
use crate::domain::ride_hailing::AuthorizationStatus;
use crate::domain::ride_hailing::registry::RideHailingAuthorization;
use crate::domain::ride_hailing::review::ReviewOutcome;
use crate::domain::ride_hailing::sanctions::{
    InfractionClass, Offender, Penalty, Sanction, SanctionKind, authorization_status,
};
use crate::domain::ride_hailing::vistoria::{
    InspectionReport, RideHailingVistoria, VistoriaSummons,
};
use crate::issuance::ride_hailing::authorizations;
use crate::issuance::ride_hailing::grant::ReviewDecided;
use crate::issuance::ride_hailing::substitution::SubstitutionRequest;
use crate::issuance::verification_url;
use crate::state::AppState;
use crate::storage::DocumentKind;
use crate::storage::documents::Document;
use crate::{issuance, standing};

#[derive(Deserialize, utoipa::ToSchema)]
pub struct GrantDto {
    driver_id: String,
    vehicle_id: String,
    fee_paid_on: String,
    /// Data do protocolo do requerimento: o histórico do condutor (art. 12, I e
    /// IV; §1º) é apurado nessa data; padrão: hoje.
    #[serde(default)]
    #[schema(format = Date)]
    protocolled_on: Option<String>,
}

#[derive(Deserialize, utoipa::ToSchema)]
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

/// A ride-hailing authorization with its status now, sanctions and documents.
#[derive(Serialize, utoipa::ToSchema)]
pub struct AuthorizationView {
    id: Uuid,
    number: String,
    driver_id: Uuid,
    /// O veículo que a autorização vincula agora (o concedido, ou o do último substituto).
    vehicle_id: Uuid,
    /// Quantas vezes o veículo foi substituído (art. 8º, §2º).
    vehicle_substitutions: u32,
    fee_paid_on: NaiveDate,
    /// Data do protocolo do requerimento (ausente nas concessões anteriores ao registro).
    #[serde(skip_serializing_if = "Option::is_none")]
    protocolled_on: Option<NaiveDate>,
    valid_from: NaiveDate,
    valid_until: NaiveDate,
    status: AuthorizationStatus,
    suspended_until: Option<NaiveDate>,
    sanctions: Vec<Sanction>,
    legal_basis_version: String,
    granted_at: DateTime<Utc>,
    revocation: Option<RevocationView>,
    documents: Vec<DocumentLink>,
    /// O endereço de verificação do adesivo (o que o QR code abre).
    verification_url: Option<String>,
    /// Vistorias e convocações (arts. 9º e 16); ausente na resposta da concessão.
    #[serde(skip_serializing_if = "Option::is_none")]
    inspection: Option<InspectionReport>,
    /// A autorização que esta renova para o ano seguinte (ausente numa concessão).
    #[serde(skip_serializing_if = "Option::is_none")]
    renewal_of: Option<Uuid>,
    /// Na resposta da concessão: os dispositivos suspensos por decisão judicial no dia, que a
    /// decisão não aplicou, como ela os cita.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suspended_provisions: Vec<String>,
}

/// When and why an authorization was revoked.
#[derive(Serialize, utoipa::ToSchema)]
pub struct RevocationView {
    revoked_at: DateTime<Utc>,
    reason: String,
}

/// An issued document of an authorization, with where to fetch and verify it.
#[derive(Serialize, utoipa::ToSchema)]
pub struct DocumentLink {
    kind: DocumentKind,
    id: Uuid,
    /// Onde baixar o PDF.
    url: String,
    /// Adesivo: onde baixar o arquivo para a gráfica (sangria e marcas de corte).
    #[serde(skip_serializing_if = "Option::is_none")]
    print_url: Option<String>,
    sha256: String,
    verification_code: String,
    verification_url: String,
}

/// `standing`: what bars the authorization beyond its sanctions (`ride_hailing_standing`).
fn authorization_view(
    state: &AppState,
    a: &RideHailingAuthorization,
    docs: &[DocRef<'_>],
    sanctions: &[Sanction],
    standing: Option<AuthorizationStatus>,
    now: DateTime<Utc>,
) -> AuthorizationView {
    let (status, suspended_until) = authorization_status(
        a.valid_until,
        a.revocation.as_ref().map(|r| r.revoked_at),
        sanctions,
        standing,
        now,
    );
    let sticker_url = docs
        .iter()
        .find(|d| d.kind == DocumentKind::RideHailingSticker)
        .map(|d| verification_url(&state.letterhead.public_url, d.token));
    AuthorizationView {
        id: a.id,
        number: a.number.clone(),
        driver_id: a.driver_id,
        vehicle_id: a.vehicle_id,
        vehicle_substitutions: a.substitutions,
        fee_paid_on: a.fee_paid_on,
        protocolled_on: a.protocolled_on,
        valid_from: a.valid_from,
        valid_until: a.valid_until,
        status,
        suspended_until,
        sanctions: sanctions.to_vec(),
        legal_basis_version: a.legal_basis_version.clone(),
        granted_at: a.granted_at,
        revocation: a.revocation.as_ref().map(|r| RevocationView {
            revoked_at: r.revoked_at,
            reason: r.reason.clone(),
        }),
        documents: docs
            .iter()
            .map(|d| DocumentLink {
                kind: d.kind,
                id: d.id,
                url: format!("/api/v1/documents/{}", d.id),
                print_url: (d.kind == DocumentKind::RideHailingSticker)
                    .then(|| format!("/api/v1/documents/{}/print", d.id)),
                sha256: d.sha256.to_owned(),
                verification_code: d.code.to_owned(),
                verification_url: verification_url(&state.letterhead.public_url, d.token),
            })
            .collect(),
        verification_url: sticker_url,
        inspection: None,
        renewal_of: a.renewal_of,
        suspended_provisions: Vec::new(),
    }
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

pub(super) fn parse_id(raw: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(raw).map_err(|_| ApiError::NotFound("Autorização não encontrada.".into()))
}

/// A grant request, parsed.
pub struct GrantRequest {
    driver_id: Uuid,
    vehicle_id: Uuid,
    fee_paid_on: NaiveDate,
    protocolled_on: Option<NaiveDate>,
}

impl TryFrom<GrantDto> for GrantRequest {
    type Error = ApiError;

    fn try_from(dto: GrantDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let driver_id = f.uuid("driver_id", &dto.driver_id);
        let vehicle_id = f.uuid("vehicle_id", &dto.vehicle_id);
        let fee_paid_on = f.date("fee_paid_on", &dto.fee_paid_on);
        let protocolled_on = dto
            .protocolled_on
            .as_deref()
            .filter(|d| !d.trim().is_empty())
            .map(|d| f.date("protocolled_on", d));
        let (driver_id, vehicle_id, fee_paid_on) =
            f.done(parsed!(driver_id, vehicle_id, fee_paid_on))?;
        Ok(Self {
            driver_id,
            vehicle_id,
            fee_paid_on,
            protocolled_on: protocolled_on.flatten(),
        })
    }
}

/// Grants a ride-hailing authorization (arts. 7º–12) and issues its A4 authorization and
/// windshield sticker, signed; a request that a requirement of the basis sends to an
/// official's review is filed instead (202, `em_analise`), with nothing issued.
#[utoipa::path(post, path = "/api/v1/app-authorizations", tag = "ride-hailing authorizations", security(("bearer" = [])),
    responses(
        (status = 201, description = "Autorização concedida, com os documentos emitidos", body = AuthorizationView),
        (status = 202, description = "Pedido em análise: depende da decisão de um servidor; nada foi emitido", body = super::reviews::ReviewView)))]
pub async fn grant(
    state: web::Data<AppState>,
    official: Official,
    body: web::Json<GrantDto>,
) -> Result<HttpResponse, ApiError> {
    let GrantRequest {
        driver_id,
        vehicle_id,
        fee_paid_on,
        protocolled_on,
    } = body.into_inner().try_into()?;
    let filed = issuance::ride_hailing::grant::grant_app_authorization(
        &state,
        driver_id,
        vehicle_id,
        fee_paid_on,
        protocolled_on,
        &official.actor,
    )
    .await?;
    Ok(filed_answer(&state, &filed))
}

/// 201 with the authorization a grant or a renewal made, or 202 with the filing for an
/// official's review it became.
pub(super) fn filed_answer(
    state: &AppState,
    filed: &issuance::ride_hailing::grant::Filed,
) -> HttpResponse {
    match filed {
        issuance::ride_hailing::grant::Filed::Granted(granted) => created(state, granted),
        issuance::ride_hailing::grant::Filed::UnderReview(review) => {
            super::reviews::accepted(review)
        }
    }
}

/// 201 with a new authorization (a grant's or a renewal's) and its documents.
pub(super) fn created(
    state: &AppState,
    granted: &issuance::ride_hailing::grant::Granted,
) -> HttpResponse {
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
    let mut body = authorization_view(
        state,
        &granted.authorization,
        &docs,
        &[],
        None,
        state.clock.now(),
    );
    body.suspended_provisions.clone_from(&granted.suspended);
    HttpResponse::Created()
        .insert_header((
            "Location",
            format!("/api/v1/app-authorizations/{}", granted.authorization.id),
        ))
        .json(body)
}

/// A past day to read a record as of.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AsOfQuery {
    /// AAAA-MM-DD: a situação ao fim desse dia (em Barra do Garças), calculada com os atos em
    /// vigor então; padrão: agora.
    as_of: Option<String>,
}

impl AsOfQuery {
    /// The past day asked, if any: a 422 on `as_of` for a malformed or future day.
    pub(super) fn day(&self, state: &AppState) -> Result<Option<NaiveDate>, ApiError> {
        let Some(text) = self.as_of.as_deref().filter(|t| !t.trim().is_empty()) else {
            return Ok(None);
        };
        let mut f = Fields::default();
        let day = f.date("as_of", text);
        let day = f.done(day)?;
        if day > state.today() {
            return Err(ApiError::Invalid(vec![ProblemItem::field(
                "as_of",
                "A data da consulta não pode ser futura.",
            )]));
        }
        Ok(Some(day))
    }

    /// A 422 on `as_of` for a day before the record existed.
    pub(super) fn before_record(what: &str) -> ApiError {
        ApiError::Invalid(vec![ProblemItem::field(
            "as_of",
            format!("{what} ainda não existia nessa data."),
        )])
    }
}

/// An authorization with its status now — or at the end of a past day (`as_of`) — its
/// sanctions, vistorias and documents.
#[utoipa::path(get, path = "/api/v1/app-authorizations/{id}", tag = "ride-hailing authorizations", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A autorização"), AsOfQuery),
    responses((status = 200, description = "A autorização", body = AuthorizationView)))]
pub async fn get(
    state: web::Data<AppState>,
    _official: Official,
    id: web::Path<String>,
    q: web::Query<AsOfQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id)?;
    let Some(day) = q.day(&state)? else {
        return Ok(HttpResponse::Ok().json(stored_json(&state, id).await?));
    };
    let body = stored_json_at(&state, id, crate::domain::dates::end_of_local_day(day)).await?;
    if day < crate::domain::dates::local_date(body.granted_at) {
        return Err(AsOfQuery::before_record("A autorização"));
    }
    Ok(HttpResponse::Ok().json(body))
}

/// The authorization as stored now: record, documents and sanctions.
async fn stored_json(state: &AppState, id: Uuid) -> Result<AuthorizationView, ApiError> {
    stored_json_at(state, id, state.clock.now()).await
}

/// The authorization as it stood at `at`, from the acts recorded.
async fn stored_json_at(
    state: &AppState,
    id: Uuid,
    at: DateTime<Utc>,
) -> Result<AuthorizationView, ApiError> {
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
        at,
    )
    .await?;
    let mut body = authorization_view(state, &a, &refs(&docs), &sanctions, standing, at);
    body.inspection = Some(report);
    Ok(body)
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct VistoriaDto {
    performed_on: String,
    approved: bool,
    inspector: String,
    #[serde(default)]
    notes: String,
    /// A failed vistoria: when the driver was notified of what to fix (art. 16 §2º).
    #[serde(default)]
    notified_on: Option<String>,
    /// Retifica o ato de mesmo tipo que o histórico numera `event`.
    #[serde(default)]
    rectifies: Option<crate::http::rectification::RectifiesDto>,
}

/// `POST /api/v1/app-authorizations/{id}/vistorias` (APP-ART9, APP-ART16, §2º): records a
/// vistoria of the authorized vehicle by the SMF.
#[utoipa::path(post, path = "/api/v1/app-authorizations/{id}/vistorias", tag = "ride-hailing authorizations", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A autorização")),
    responses((status = 201, description = "Vistoria registrada", body = AuthorizationView)))]
pub async fn vistoria(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<VistoriaDto>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id)?;
    let today = crate::domain::dates::local_date(state.clock.now());
    let rectifies = super::rectification::parse_alone(body.rectifies.as_ref(), today)?;
    let v = RideHailingVistoria::try_from((body.into_inner(), today))?;
    authorizations::record_vistoria(&state, &official.actor, id, &v, rectifies.as_ref()).await?;
    Ok(HttpResponse::Created().json(stored_json(&state, id).await?))
}

/// What recording a vistoria would do.
#[derive(Serialize, utoipa::ToSchema)]
pub struct VistoriaCheckView {
    /// `true` quando a vistoria seria registrada como está.
    passes: bool,
    /// A situação das vistorias da autorização depois desta (validade anual, prazo para
    /// corrigir, impedimento).
    inspection: InspectionReport,
    /// Cada requisito não atendido, com o artigo e o campo.
    errors: Vec<ProblemItem>,
}

/// `POST /api/v1/app-authorizations/{id}/vistoria-checks` (APP-ART10, APP-ART16): judges a
/// vistoria as it would be recorded now and the standing it would leave; writes nothing.
#[utoipa::path(post, path = "/api/v1/app-authorizations/{id}/vistoria-checks", tag = "ride-hailing authorizations", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A autorização")),
    responses((status = 200, description = "O que a vistoria decidiria, com cada requisito não atendido", body = VistoriaCheckView)))]
pub async fn check_vistoria(
    state: web::Data<AppState>,
    _official: Official,
    id: web::Path<String>,
    body: web::Json<VistoriaDto>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id)?;
    let today = crate::domain::dates::local_date(state.clock.now());
    let v = RideHailingVistoria::try_from((body.into_inner(), today))?;
    let (failures, inspection) = authorizations::check_vistoria(&state, id, &v).await?;
    Ok(HttpResponse::Ok().json(VistoriaCheckView {
        passes: failures.is_empty(),
        inspection,
        errors: failures.into_iter().map(ProblemItem::from).collect(),
    }))
}

impl TryFrom<(VistoriaDto, NaiveDate)> for RideHailingVistoria {
    type Error = ApiError;

    /// `today`: a vistoria cannot be future.
    fn try_from((dto, today): (VistoriaDto, NaiveDate)) -> Result<Self, ApiError> {
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
        Ok(Self {
            performed_on,
            approved: dto.approved,
            inspector,
            notes: dto.notes,
            notified_on: notified_on.flatten(),
        })
    }
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct SummonsDto {
    notified_on: String,
    #[serde(default)]
    platform_notified_on: Option<String>,
    attend_by: String,
    reason: String,
    /// Retifica o ato de mesmo tipo que o histórico numera `event`.
    #[serde(default)]
    rectifies: Option<crate::http::rectification::RectifiesDto>,
}

/// `POST /api/v1/app-authorizations/{id}/vistoria-summons` (APP-ART16-P1): records the
/// notice to the driver and the platform to present the car for an extra vistoria by the
/// day it sets; missing it is the infraction of art. 26, I (AMB-38).
#[utoipa::path(post, path = "/api/v1/app-authorizations/{id}/vistoria-summons", tag = "ride-hailing authorizations", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A autorização")),
    responses((status = 201, description = "Convocação registrada", body = AuthorizationView)))]
pub async fn vistoria_summons(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<SummonsDto>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id)?;
    let today = crate::domain::dates::local_date(state.clock.now());
    let rectifies = super::rectification::parse_alone(body.rectifies.as_ref(), today)?;
    let summons = VistoriaSummons::try_from(body.into_inner())?;
    authorizations::summon_vistoria(&state, &official.actor, id, &summons, rectifies.as_ref())
        .await?;
    Ok(HttpResponse::Created().json(stored_json(&state, id).await?))
}

impl TryFrom<SummonsDto> for VistoriaSummons {
    type Error = ApiError;

    fn try_from(dto: SummonsDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let notified_on = f.date("notified_on", &dto.notified_on);
        let platform_notified_on = dto
            .platform_notified_on
            .as_deref()
            .map(|d| f.date("platform_notified_on", d));
        let attend_by = f.date("attend_by", &dto.attend_by);
        let reason = f.text("reason", &dto.reason, 1000);
        let (notified_on, attend_by, reason) = f.done(parsed!(notified_on, attend_by, reason))?;
        Ok(Self {
            notified_on,
            platform_notified_on: platform_notified_on.flatten(),
            attend_by,
            reason,
        })
    }
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct SubstitutionDto {
    new_vehicle_id: String,
    /// `sinistro`, `venda` or `locacao` (art. 8º, §2º).
    cause: String,
    vistoria: SubstitutionVistoriaDto,
    /// The day the request was protocolled (AAAA-MM-DD; default today, never future).
    #[serde(default)]
    protocolled_on: Option<String>,
}

#[derive(Deserialize, utoipa::ToSchema)]
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
#[utoipa::path(post, path = "/api/v1/app-authorizations/{id}/vehicle-substitutions", tag = "ride-hailing authorizations", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A autorização")),
    responses((status = 201, description = "Veículo substituído; autorização e adesivo novos emitidos", body = AuthorizationView)))]
pub async fn substitute_vehicle(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<SubstitutionDto>,
) -> Result<HttpResponse, ApiError> {
    let (id, req) = substitution_request(&state, &id, body.into_inner())?;
    match issuance::ride_hailing::substitution::substitute_vehicle(&state, id, req, &official.actor)
        .await
    {
        Ok(_) => Ok(HttpResponse::Created()
            .insert_header(("Location", format!("/api/v1/app-authorizations/{id}")))
            .json(stored_json(&state, id).await?)),
        Err(e) => Err(e.into()),
    }
}

/// The authorization of the path and the replacement of the body, parsed (APP-ART8-P2).
fn substitution_request(
    state: &AppState,
    id: &str,
    body: SubstitutionDto,
) -> Result<(Uuid, SubstitutionRequest), ApiError> {
    let id = parse_id(id)?;
    let today = crate::domain::dates::local_date(state.clock.now());
    Ok((id, SubstitutionRequest::try_from((body, today))?))
}

/// What the replacement of the car would decide.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SubstitutionCheckView {
    /// `true` quando a substituição seria registrada como está.
    passes: bool,
    /// O número da autorização, que a substituição mantém.
    number: String,
    /// A placa do veículo novo.
    plate: String,
    /// Cada requisito não atendido, com o artigo e o campo.
    errors: Vec<ProblemItem>,
}

/// `POST /api/v1/app-authorizations/{id}/substitution-checks` (APP-ART8-P2): judges the
/// replacement of the car as it would be decided now; writes nothing.
#[utoipa::path(post, path = "/api/v1/app-authorizations/{id}/substitution-checks", tag = "ride-hailing authorizations", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A autorização")),
    responses((status = 200, description = "O que a substituição decidiria, com cada requisito não atendido", body = SubstitutionCheckView)))]
pub async fn check_substitution(
    state: web::Data<AppState>,
    _official: Official,
    id: web::Path<String>,
    body: web::Json<SubstitutionDto>,
) -> Result<HttpResponse, ApiError> {
    let (id, req) = substitution_request(&state, &id, body.into_inner())?;
    let (number, plate, failures) =
        issuance::ride_hailing::substitution::check_substitution(&state, id, &req).await?;
    Ok(HttpResponse::Ok().json(SubstitutionCheckView {
        passes: failures.is_empty(),
        number,
        plate,
        errors: failures.into_iter().map(ProblemItem::from).collect(),
    }))
}

impl TryFrom<(SubstitutionDto, NaiveDate)> for SubstitutionRequest {
    type Error = ApiError;

    /// `today`: the new car's vistoria cannot be future.
    fn try_from((dto, today): (SubstitutionDto, NaiveDate)) -> Result<Self, ApiError> {
        use crate::domain::ride_hailing::substitution::SubstitutionCause;
        let mut f = Fields::default();
        let new_vehicle_id = f.uuid("new_vehicle_id", &dto.new_vehicle_id);
        let cause = f.take(
            "cause",
            SubstitutionCause::parse(dto.cause.trim()).ok_or(()),
            "Informe o motivo da substituição: sinistro, venda ou locacao (art. 8º, §2º).",
        );
        let performed_on = f.date("vistoria.performed_on", &dto.vistoria.performed_on);
        let inspector = f.text("vistoria.inspector", &dto.vistoria.inspector, 200);
        let protocolled_on = match dto.protocolled_on.as_deref() {
            Some(d) => f.date("protocolled_on", d),
            None => Some(today),
        };
        if protocolled_on.is_some_and(|d| d > today) {
            f.take::<(), ()>(
                "protocolled_on",
                Err(()),
                "A data de protocolo do pedido não pode ser futura.",
            );
        }
        if performed_on.is_some_and(|d| d > today) {
            f.take::<(), ()>(
                "vistoria.performed_on",
                Err(()),
                "A vistoria não pode ter data futura.",
            );
        }
        let (new_vehicle_id, cause, vistoria_on, inspector, protocolled_on) = f.done(parsed!(
            new_vehicle_id,
            cause,
            performed_on,
            inspector,
            protocolled_on
        ))?;
        Ok(Self {
            new_vehicle_id,
            cause,
            vistoria_on,
            protocolled_on,
            vistoria_approved: dto.vistoria.approved,
            inspector,
            notes: dto.vistoria.notes,
        })
    }
}

/// Revokes an authorization, with the reason.
#[utoipa::path(post, path = "/api/v1/app-authorizations/{id}/revocation", tag = "ride-hailing authorizations", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A autorização")),
    responses((status = 200, description = "Autorização revogada", body = AuthorizationView)))]
pub async fn revoke(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<RevocationDto>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id)?;
    let Reason(reason) = Reason::try_from(body.into_inner())?;
    authorizations::revoke(&state, &official.actor, id, &reason).await?;
    Ok(HttpResponse::Ok().json(stored_json(&state, id).await?))
}

/// The reason of a revocation, parsed.
pub struct Reason(String);

impl TryFrom<RevocationDto> for Reason {
    type Error = ApiError;

    fn try_from(dto: RevocationDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let reason = f.text("reason", &dto.reason, 1000);
        Ok(Self(f.done(reason)?))
    }
}

/// The signed PDF of a ride-hailing authorization or sticker.
/// `GET /api/v1/documents/{id}/print`: the print shop's file of a windshield sticker —
/// both faces with 3 mm of bleed, crop marks and the PDF `TrimBox`/`BleedBox`.
#[utoipa::path(get, path = "/api/v1/documents/{id}/print", tag = "ride-hailing authorizations", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "O documento do adesivo")),
    responses((status = 200, description = "PDF para a gráfica (120 × 160 mm por face: 100 × 140 mm de corte, sangria de 3 mm, marcas de corte), assinado", content_type = "application/pdf", body = super::openapi::PdfFile)))]
pub async fn document_print(
    state: web::Data<AppState>,
    _official: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id =
        Uuid::parse_str(&id).map_err(|_| ApiError::NotFound("Adesivo não encontrado.".into()))?;
    let pdf =
        crate::issuance::ride_hailing::print::print_shop_sticker(&state, id, state.clock.now())
            .await?;
    let name = state
        .store
        .document(id)
        .await?
        .map_or_else(|| "adesivo-grafica.pdf".to_owned(), |d| d.file_name(true));
    Ok(HttpResponse::Ok()
        .content_type("application/pdf")
        .insert_header((
            "Content-Disposition",
            format!("attachment; filename=\"{name}\""),
        ))
        .body(pdf))
}

#[utoipa::path(get, path = "/api/v1/documents/{id}", tag = "ride-hailing authorizations", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "O documento")),
    responses((status = 200, description = "O PDF assinado (PAdES)", content_type = "application/pdf", body = super::openapi::PdfFile)))]
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
    let filename = meta.file_name(false);
    Ok(HttpResponse::Ok()
        .content_type("application/pdf")
        .insert_header((
            "Content-Disposition",
            format!("inline; filename=\"{filename}\""),
        ))
        // The file as it stands: the one issued, or it with its later archive updates.
        .insert_header((
            "X-Content-SHA256",
            crate::signing::hex(&<sha2::Sha256 as sha2::Digest>::digest(&pdf)),
        ))
        .body(pdf))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct SanctionDto {
    kind: String,
    effective_from: String,
    days: Option<u32>,
    months: Option<u32>,
    reason: String,
    legal_basis: String,
    /// Retifica o período da sanção que o histórico numera `event`.
    #[serde(default)]
    rectifies: Option<super::rectification::RectifiesDto>,
}

/// `POST /api/v1/app-authorizations/{id}/sanctions`: a suspension for `days` or `months`
/// from `effective_from` (DL-9: reinstated on the day after the last), or a cassação.
#[utoipa::path(post, path = "/api/v1/app-authorizations/{id}/sanctions", tag = "ride-hailing authorizations", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A autorização")),
    responses((status = 201, description = "Sanção aplicada", body = AuthorizationView)))]
pub async fn sanction(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<SanctionDto>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id)?;
    let today = crate::domain::dates::local_date(state.clock.now());
    let rectifies = super::rectification::parse_alone(body.rectifies.as_ref(), today)?;
    let sanction =
        Sanction::try_from((body.into_inner(), state.ride_hailing_basis().month_overflow))?;
    authorizations::sanction(&state, &official.actor, id, &sanction, rectifies.as_ref()).await?;
    Ok(HttpResponse::Created().json(stored_json(&state, id).await?))
}

impl TryFrom<(SanctionDto, MonthOverflow)> for Sanction {
    type Error = ApiError;

    /// `overflow`: how a suspension in months ends on a short month (legal-basis parameter).
    fn try_from((dto, overflow): (SanctionDto, MonthOverflow)) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let from = f.date("effective_from", &dto.effective_from);
        let reason = f.text("reason", &dto.reason, 1000);
        let legal_basis = f.text("legal_basis", &dto.legal_basis, 200);
        let kind = f.take(
            "kind",
            SanctionKind::parse(&dto.kind).ok_or(()),
            "Use suspension ou cassacao.",
        );
        let until = match (kind, dto.days, dto.months, from) {
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
        Ok(Self {
            kind,
            effective_from,
            until,
            reason,
            legal_basis,
        })
    }
}

/// `GET /api/v1/app-infractions`: the catalogue of arts. 26–27 with the fines of the
/// legal basis in force.
#[utoipa::path(get, path = "/api/v1/app-infractions", tag = "ride-hailing infractions",
    responses((status = 200, description = "O catálogo de infrações", body = InfractionCatalogue)))]
pub async fn infractions(state: web::Data<AppState>) -> HttpResponse {
    let basis = state.ride_hailing_basis();
    let infractions = basis
        .infractions
        .iter()
        .map(|i| InfractionView {
            id: i.id.clone(),
            article: i.article.clone(),
            class: i.class,
            description: i.description.clone(),
            offender: i.offender,
            penalty: i.penalty.clone(),
            on_repeat: i.on_repeat.clone(),
            fine_upf: basis.fine_upf(i.class),
        })
        .collect();
    HttpResponse::Ok().json(InfractionCatalogue {
        legal_basis_version: basis.version.clone(),
        infractions,
    })
}

/// The infractions of arts. 26 and 27 with the fines of the legal basis in force.
#[derive(Serialize, utoipa::ToSchema)]
pub struct InfractionCatalogue {
    legal_basis_version: String,
    infractions: Vec<InfractionView>,
}

/// One infraction of the catalogue.
#[derive(Serialize, utoipa::ToSchema)]
pub struct InfractionView {
    /// O código da infração, que o auto registra.
    id: String,
    /// O dispositivo, como impresso no auto.
    article: String,
    class: InfractionClass,
    description: String,
    /// Quem pode cometê-la: condutor autorizado, sem autorização ou qualquer um.
    offender: Offender,
    /// O que a primeira infração acarreta além da multa.
    #[serde(skip_serializing_if = "Option::is_none")]
    penalty: Option<Penalty>,
    /// O que a reincidência no prazo da base legal acarreta além da multa.
    #[serde(skip_serializing_if = "Option::is_none")]
    on_repeat: Option<Penalty>,
    /// A multa em UPFG da classe (parâmetro da base legal).
    fine_upf: u32,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct CertidaoDto {
    subject: String,
    protocol: String,
}

/// `POST /api/v1/app-authorizations/{id}/certidoes`: the certidão de situação cadastral of
/// the authorization's driver (`app_driver`) or vehicle (`app_vehicle`).
#[utoipa::path(post, path = "/api/v1/app-authorizations/{id}/certidoes", tag = "ride-hailing authorizations", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A autorização")),
    responses((status = 201, description = "Certidão emitida", body = IssuedDocument)))]
pub async fn certidao(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<CertidaoDto>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id)?;
    let req = CertidaoRequest::try_from(body.into_inner())?;
    let doc =
        authorizations::certidao(&state, &official.actor, id, req.subject, &req.protocol).await?;
    Ok(HttpResponse::Created().json(IssuedDocument::of(&state, &doc)))
}

/// A petition for the certidão of an authorization's driver or car, parsed.
pub struct CertidaoRequest {
    subject: &'static str,
    protocol: String,
}

impl TryFrom<CertidaoDto> for CertidaoRequest {
    type Error = ApiError;

    fn try_from(dto: CertidaoDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let protocol = f.text("protocol", &dto.protocol, 60);
        let subject = match dto.subject.as_str() {
            "app_driver" => Some("app_driver"),
            "app_vehicle" => Some("app_vehicle"),
            _ => f.take(
                "subject",
                Err::<&'static str, ()>(()),
                "Use app_driver ou app_vehicle.",
            ),
        };
        let (protocol, subject) = f.done(parsed!(protocol, subject))?;
        Ok(Self { subject, protocol })
    }
}

/// A document just issued: its number, where to verify it and where to fetch the PDF.
#[derive(Serialize, utoipa::ToSchema)]
pub struct IssuedDocument {
    id: Uuid,
    kind: DocumentKind,
    number: String,
    verification_code: String,
    verification_url: String,
    valid_until: Option<NaiveDate>,
    /// Os fatos certificados, como assinados.
    facts: Option<serde_json::Value>,
    /// Onde baixar o PDF.
    pdf: String,
    /// A versão do perfil do município sob a qual foi emitido.
    profile_version: Option<String>,
}

impl IssuedDocument {
    pub fn of(state: &AppState, doc: &Document) -> Self {
        Self {
            id: doc.id,
            kind: doc.kind,
            number: doc.number.clone(),
            verification_code: doc.verification_code.clone(),
            verification_url: verification_url(&state.letterhead.public_url, &doc.token),
            valid_until: doc.valid_until,
            facts: doc.facts.clone(),
            pdf: format!("/api/v1/charter/documents/{}", doc.id),
            profile_version: doc.profile_version.clone(),
        }
    }
}

/// What an official may decide of a filing.
#[derive(utoipa::ToSchema)]
#[schema(rename_all = "snake_case")]
#[expect(
    dead_code,
    reason = "named only in the API document, for the choice it lists"
)]
enum ReviewChoice {
    /// Conceder: a autorização e o adesivo são emitidos.
    Deferir,
    /// Indeferir: nada é emitido.
    Indeferir,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct ReviewDecisionDto {
    /// `deferir` (conceder e emitir os documentos) ou `indeferir`.
    #[schema(value_type = ReviewChoice)]
    decision: String,
    /// Os fundamentos da decisão, que ficam no histórico.
    grounds: String,
}

/// An official decides a filing, with the grounds: `deferir` judges the request again on every
/// other requirement (today, with the filing's fee and protocol dates) and issues the
/// authorization and the sticker; `indeferir` records the refusal and issues nothing.
#[utoipa::path(post, path = "/api/v1/app-grant-reviews/{id}/decision", tag = "ride-hailing authorizations", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O pedido em análise")),
    responses(
        (status = 201, description = "Deferido: a autorização concedida, com os documentos emitidos", body = AuthorizationView),
        (status = 200, description = "Indeferido: o pedido com a decisão", body = super::reviews::ReviewView)))]
pub async fn decide_review(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<ReviewDecisionDto>,
) -> Result<HttpResponse, ApiError> {
    let id = super::reviews::parse_review_id(&id)?;
    let mut f = Fields::default();
    let outcome = f.take(
        "decision",
        match body.decision.as_str() {
            "deferir" => Ok(ReviewOutcome::Granted),
            "indeferir" => Ok(ReviewOutcome::Refused),
            _ => Err(()),
        },
        "Escolha deferir ou indeferir.",
    );
    let grounds = f.text("grounds", &body.grounds, 2000);
    let (outcome, grounds) = f.done(outcome.zip(grounds))?;
    match issuance::ride_hailing::grant::decide_review(
        &state,
        id,
        outcome,
        &grounds,
        &official.actor,
    )
    .await?
    {
        ReviewDecided::Granted(granted) => Ok(created(&state, &granted)),
        ReviewDecided::Refused(review) => {
            Ok(HttpResponse::Ok().json(super::reviews::ReviewView::from(&review)))
        }
    }
}
