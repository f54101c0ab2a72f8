//! `/api/v1/charter/…`: the charter register (Lei 4.937/2025): companies and their Termos,
//! vehicles and vistorias, drivers, contracts and trips, autos de infração and their
//! procedure, sanctions. Every failed rule is listed in a 422 with its id and article.

use actix_web::{HttpResponse, web};
use chrono::{DateTime, Datelike as _, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::auth::Official;
use super::calendar::calendar;
use super::fields::{Fields, parsed};
use super::problem::{ApiError, ProblemItem};
use super::rectification;
use crate::domain::calendar::Deadline;
use crate::domain::charter::sanctions::{
    CHARTER_INFRACTIONS, CharterInfraction, ProcedureAct, charter_infraction,
};
use crate::domain::charter::{
    self as rules, Baixa, CharterDriverFacts, CharterStatus, CharterVehicleFacts, CompanyChecklist,
    CompanySanction, CompanySanctionKind, ContractFacts, ContractKind, Modality, Passenger,
    SubstitutionReason, Vistoria,
};
use crate::domain::dates::local_date;
use crate::domain::ids::{CnhNumber, Cnpj, Cpf, Plate, Renavam};
use crate::domain::officials::Competence;
use crate::issuance::charter as issue;
use crate::issuance::charter::NewAuto;
use crate::issuance::charter::register::{
    self, NewCompany, NewDriver, NewVehicle, SubstitutionRequest, TripRequest,
};
use crate::issuance::verification_url;
use crate::standing::charter as reg;
use crate::standing::charter::{
    AutoView, CharterVehicle, Company, CompanyData, DriverBaixa, ItvReport, VehicleDocuments,
};
use crate::state::AppState;
use crate::storage::charter::CharterTable;
use crate::storage::documents::Document;
use crate::storage::{DocumentKind, Repository};

type Reply = Result<HttpResponse, ApiError>;

fn not_found(what: &str) -> ApiError {
    ApiError::NotFound(format!("{what} não encontrado(a)."))
}

fn path_id(raw: &str, what: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(raw.trim()).map_err(|_| not_found(what))
}

async fn company_or_404(state: &AppState, raw: &str) -> Result<Company, ApiError> {
    let id = path_id(raw, "Empresa")?;
    reg::load_company(&state.store, id)
        .await?
        .ok_or_else(|| not_found("Empresa"))
}

async fn vehicle_or_404(state: &AppState, raw: &str) -> Result<CharterVehicle, ApiError> {
    let id = path_id(raw, "Veículo")?;
    reg::load_vehicle(&state.store, id)
        .await?
        .ok_or_else(|| not_found("Veículo"))
}

/// A charter document just issued (Termo, selo, auto, certidão): where to verify and fetch it.
#[derive(Serialize, utoipa::ToSchema)]
pub struct DocumentView {
    id: Uuid,
    kind: DocumentKind,
    number: String,
    verification_code: String,
    verification_url: String,
    sha256: String,
    valid_until: Option<NaiveDate>,
    /// Onde baixar o PDF.
    pdf: String,
    /// A versão do perfil do município sob a qual foi emitido (issue 12).
    profile_version: Option<String>,
}

fn document_view(state: &AppState, d: &Document) -> DocumentView {
    DocumentView {
        id: d.id,
        kind: d.kind,
        number: d.number.clone(),
        verification_code: d.verification_code.clone(),
        verification_url: verification_url(&state.letterhead.public_url, &d.token),
        sha256: d.sha256.clone(),
        valid_until: d.valid_until,
        pdf: format!("/api/v1/charter/documents/{}", d.id),
        profile_version: d.profile_version.clone(),
    }
}

// ----------------------------------------------------------------------------------------
// Companies
// ----------------------------------------------------------------------------------------

#[derive(Deserialize, utoipa::ToSchema)]
pub struct NewCompanyDto {
    cnpj: String,
    name: String,
    address: String,
    phone: String,
    email: String,
    modality: Modality,
    protocol: String,
    applied_on: String,
    #[serde(default)]
    operating_before_law: bool,
    #[serde(default)]
    checklist: CompanyChecklist,
}

/// `POST /api/v1/charter/companies` (FRET-ART7): registers the application. An incomplete
/// checklist is accepted and reported; it blocks the Termo, not the filing.
#[utoipa::path(post, path = "/api/v1/charter/companies", tag = "charter companies", security(("bearer" = [])),
    responses((status = 201, description = "Empresa cadastrada", body = CompanyView)))]
pub async fn create_company(
    state: web::Data<AppState>,
    official: Official,
    body: web::Json<NewCompanyDto>,
) -> Reply {
    let new = NewCompany::try_from(body.into_inner())?;
    let id = register::register_company(&state, &official.actor, new).await?;
    let company = register::company(&state, id).await?;
    Ok(HttpResponse::Created().json(company_json(&state, &company).await?))
}

impl TryFrom<NewCompanyDto> for NewCompany {
    type Error = ApiError;

    fn try_from(dto: NewCompanyDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let cnpj = f.take("cnpj", Cnpj::parse(&dto.cnpj), "CNPJ inválido.");
        let name = f.text("name", &dto.name, 200);
        let address = f.text("address", &dto.address, 300);
        let phone = f.text("phone", &dto.phone, 40);
        let email = f.text("email", &dto.email, 200);
        let protocol = f.text("protocol", &dto.protocol, 60);
        let applied_on = f.date("applied_on", &dto.applied_on);
        if !dto.email.contains('@') {
            f.take::<(), ()>("email", Err(()), "E-mail inválido.");
        }
        let (cnpj, name, address, phone, email, protocol, applied_on) = f.done(parsed!(
            cnpj, name, address, phone, email, protocol, applied_on
        ))?;
        Ok(Self {
            cnpj,
            data: CompanyData {
                name,
                address,
                phone,
                email,
                modality: dto.modality,
                protocol,
                applied_on,
                operating_before_law: dto.operating_before_law,
                checklist: dto.checklist,
            },
        })
    }
}

async fn company_json(state: &AppState, c: &Company) -> Result<CompanyView, ApiError> {
    let now = state.clock.now();
    let today = local_date(now);
    let basis = &state.charter_basis();
    let termos = reg::termos_of(&state.store, c.id).await?;
    let (status, suspended_until) = reg::company_status(c, &termos, today);
    let mut checklist_failures = Vec::new();
    rules::fret_art7_checklist(&c.data.checklist, today, &mut checklist_failures);
    let mut ignored = Vec::new();
    let barred_until = rules::fret_art20_pu_bar(&c.cassations(), today, basis, &mut ignored);
    let cal = calendar(state).await?;
    let transition = rules::transition_deadlines(basis, &cal, &state.deadline_rules);
    let warnings: Vec<ProblemItem> = rules::late_transition_warning(
        c.data.operating_before_law,
        c.data.applied_on,
        &transition.company_registration,
        "FRET-ART26",
        "art. 26",
        "Pedido de registro de empresa que já operava",
    )
    .into_iter()
    .map(ProblemItem::from)
    .collect();
    let vehicles = reg::vehicles_of(&state.store, c.id).await?;
    let vehicles: Vec<_> = vehicles
        .iter()
        .map(|v| {
            let r = rules::vehicle_status(&v.record, &c.cnpj, today, basis);
            VehicleSummary {
                id: v.id,
                plate: v.plate.formatted(),
                status: r.status,
            }
        })
        .collect();
    let current = reg::current_termo(&termos, today);
    Ok(CompanyView {
        id: c.id,
        cnpj: c.cnpj.formatted(),
        name: c.data.name.clone(),
        address: c.data.address.clone(),
        phone: c.data.phone.clone(),
        email: c.data.email.clone(),
        modality: c.data.modality,
        protocol: c.data.protocol.clone(),
        applied_on: c.data.applied_on,
        operating_before_law: c.data.operating_before_law,
        status,
        status_label: status.label_pt(),
        suspended_until,
        new_registration_from: barred_until,
        termo: current.map(|t| TermoSummary::of(t, false)),
        termos: termos.iter().map(|t| TermoSummary::of(t, true)).collect(),
        checklist: c.data.checklist.clone(),
        checklist_failures: checklist_failures
            .into_iter()
            .map(ProblemItem::from)
            .collect(),
        sanctions: c.sanctions.clone(),
        vehicles,
        warnings,
        legal_basis_version: basis.version.clone(),
        created_at: c.created_at,
    })
}

/// A charter company: its filing, status now, Termos, sanctions and fleet.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CompanyView {
    id: Uuid,
    /// CNPJ formatado.
    cnpj: String,
    name: String,
    address: String,
    phone: String,
    email: String,
    modality: Modality,
    protocol: String,
    applied_on: NaiveDate,
    operating_before_law: bool,
    status: CharterStatus,
    status_label: &'static str,
    suspended_until: Option<NaiveDate>,
    /// Depois de uma cassação, a partir de quando pode pedir novo registro (art. 20, parágrafo único).
    new_registration_from: Option<NaiveDate>,
    /// O Termo em vigor hoje.
    termo: Option<TermoSummary>,
    termos: Vec<TermoSummary>,
    checklist: CompanyChecklist,
    checklist_failures: Vec<ProblemItem>,
    sanctions: Vec<CompanySanction>,
    vehicles: Vec<VehicleSummary>,
    warnings: Vec<ProblemItem>,
    legal_basis_version: String,
    created_at: DateTime<Utc>,
}

/// A Termo de Autorização, in a company's list.
#[derive(Serialize, utoipa::ToSchema)]
pub struct TermoSummary {
    id: Uuid,
    number: String,
    valid_from: NaiveDate,
    valid_until: NaiveDate,
    /// O número do Termo que este renova (só na lista `termos`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[allow(clippy::option_option)] // absent from `termo`; null in `termos` when a first grant
    renews: Option<Option<String>>,
}

impl TermoSummary {
    fn of(t: &reg::Termo, with_renews: bool) -> Self {
        Self {
            id: t.id,
            number: t.number.clone(),
            valid_from: t.data.valid_from,
            valid_until: t.data.valid_until,
            renews: with_renews.then(|| t.data.renews.clone()),
        }
    }
}

/// A vehicle of a company's fleet, with its status now.
#[derive(Serialize, utoipa::ToSchema)]
pub struct VehicleSummary {
    id: Uuid,
    plate: String,
    status: CharterStatus,
}

#[utoipa::path(get, path = "/api/v1/charter/companies/{id}", tag = "charter companies", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    responses((status = 200, description = "A empresa", body = CompanyView)))]
pub async fn get_company(state: web::Data<AppState>, _o: Official, id: web::Path<String>) -> Reply {
    let c = company_or_404(&state, &id).await?;
    Ok(HttpResponse::Ok().json(company_json(&state, &c).await?))
}

/// `POST /api/v1/charter/companies/{id}/checklist` (FRET-ART7, FRET-ART8-P2): files the
/// documents again (a renewal needs fresh proofs).
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/checklist", tag = "charter companies", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    responses((status = 200, description = "Documentos registrados", body = CompanyView)))]
pub async fn file_checklist(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<CompanyChecklist>,
) -> Reply {
    let id = path_id(&id, "Empresa")?;
    register::file_checklist(&state, &official.actor, id, &body.into_inner()).await?;
    let c = register::company(&state, id).await?;
    Ok(HttpResponse::Ok().json(company_json(&state, &c).await?))
}

/// What a Termo's application may say; the body may be empty or `{}`.
#[derive(Deserialize, Default, utoipa::ToSchema)]
pub struct TermoRequestDto {
    /// The day the application was protocolled at SIS (AAAA-MM-DD; default today, never
    /// future): the art. 20 bar is judged there too (AMB-64).
    protocolled_on: Option<String>,
}

/// `POST /api/v1/charter/companies/{id}/termos` (FRET-ART8, §1º, §2º, AMB-55): grants or
/// renews the Termo de Autorização and issues its signed PDF.
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/termos", tag = "charter companies", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    request_body = TermoRequestDto,
    responses((status = 201, description = "Termo de Autorização emitido", body = TermoView)))]
pub async fn grant_termo(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Bytes,
) -> Reply {
    let id = path_id(&id, "Empresa")?;
    let dto: TermoRequestDto = if body.iter().all(u8::is_ascii_whitespace) {
        TermoRequestDto::default()
    } else {
        serde_json::from_slice(&body).map_err(|_| {
            ApiError::Invalid(vec![ProblemItem::field(
                "body",
                "Corpo inválido: envie {} ou {\"protocolled_on\": \"AAAA-MM-DD\"}.",
            )])
        })?
    };
    let mut f = Fields::default();
    let protocolled_on = dto
        .protocolled_on
        .as_deref()
        .map(|d| f.date("protocolled_on", d));
    f.finish()?;
    let (c, termo, doc) =
        register::grant_termo(&state, &official.actor, id, protocolled_on.flatten()).await?;
    Ok(HttpResponse::Created().json(TermoView {
        id: termo.id,
        number: termo.number.clone(),
        company_id: c.id,
        modality: termo.data.modality,
        valid_from: termo.data.valid_from,
        valid_until: termo.data.valid_until,
        renews: termo.data.renews.clone(),
        legal_basis_version: termo.data.legal_basis_version.clone(),
        protocolled_on: termo.data.protocolled_on,
        document: document_view(&state, &doc),
    }))
}

/// A Termo de Autorização just granted, with its signed document.
#[derive(Serialize, utoipa::ToSchema)]
pub struct TermoView {
    id: Uuid,
    /// The day the application was protocolled (issue 13, item 2).
    protocolled_on: Option<NaiveDate>,
    number: String,
    company_id: Uuid,
    modality: Modality,
    valid_from: NaiveDate,
    valid_until: NaiveDate,
    renews: Option<String>,
    legal_basis_version: String,
    document: DocumentView,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct CharterSanctionDto {
    kind: CompanySanctionKind,
    effective_from: String,
    #[serde(default)]
    until: Option<String>,
    article: String,
    reason: String,
    /// Retifica o ato de mesmo tipo que o histórico numera `event` (issue 13).
    #[serde(default)]
    rectifies: Option<crate::http::rectification::RectifiesDto>,
}

/// `POST /api/v1/charter/companies/{id}/sanctions` (FRET-ART18, FRET-ART20): records a
/// sanction decided by the competent authority.
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/sanctions", tag = "charter companies", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    responses((status = 201, description = "Sanção registrada", body = CompanyView)))]
pub async fn apply_sanction(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<CharterSanctionDto>,
) -> Reply {
    // The record is looked up before the body is parsed: a missing one is a 404 first.
    let id = register::company(&state, path_id(&id, "Empresa")?)
        .await?
        .id;
    let today = local_date(state.clock.now());
    let rectifies = rectification::parse_alone(body.rectifies.as_ref(), today)?;
    let sanction = CompanySanction::try_from(body.into_inner())?;
    register::apply_sanction(&state, &official.actor, id, &sanction, rectifies.as_ref()).await?;
    let c = register::company(&state, id).await?;
    Ok(HttpResponse::Created().json(company_json(&state, &c).await?))
}

impl TryFrom<CharterSanctionDto> for CompanySanction {
    type Error = ApiError;

    fn try_from(dto: CharterSanctionDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let from = f.date("effective_from", &dto.effective_from);
        let until = dto.until.as_deref().map(|u| f.date("until", u));
        let reason = f.text("reason", &dto.reason, 2000);
        if !rules::sanction_grounded(dto.kind, dto.article.trim()) {
            f.take::<(), ()>(
                "article",
                Err(()),
                "Artigo incompatível com a sanção: cassação (art. 20, I a IV), advertência (art. 18, I), suspensão (art. 18, III) ou apreensão (art. 18, IV).",
            );
        }
        let until = until.flatten();
        if let Some(message) = rules::fret_art18_iii_suspension_end(dto.kind, from, until) {
            f.take::<(), ()>("until", Err(()), message);
        }
        let (effective_from, reason) = f.done(parsed!(from, reason))?;
        Ok(Self {
            kind: dto.kind,
            effective_from,
            until: until.filter(|_| dto.kind == CompanySanctionKind::Suspensao),
            article: dto.article.trim().to_owned(),
            reason,
        })
    }
}

// ----------------------------------------------------------------------------------------
// Vehicles
// ----------------------------------------------------------------------------------------

#[derive(Deserialize, utoipa::ToSchema)]
pub struct CharterNewVehicleDto {
    plate: String,
    renavam: String,
    make: String,
    model: String,
    #[serde(flatten)]
    facts: CharterVehicleFacts,
    #[serde(default)]
    itv_report_date: Option<String>,
    #[serde(default)]
    itv_provider: Option<String>,
    /// Data do protocolo do pedido de cadastro na SIS (art. 26, §1º); padrão: hoje.
    #[serde(default)]
    #[schema(format = Date)]
    enrolled_on: Option<String>,
}

/// `POST /api/v1/charter/companies/{id}/vehicles` (FRET-ART10–13, FRET-ART24): enrols a
/// bus or minibus; every requirement of arts. 10–13 must hold on the filing day.
#[allow(clippy::too_many_lines)] // one filing: parse, rules, row, events, warning
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/vehicles", tag = "charter vehicles", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    responses((status = 201, description = "Veículo cadastrado", body = CharterVehicleView)))]
pub async fn create_vehicle(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<CharterNewVehicleDto>,
) -> Reply {
    let company_id = register::company(&state, path_id(&id, "Empresa")?)
        .await?
        .id;
    let today = local_date(state.clock.now());
    let mut f = Fields::default();
    check_vehicle_facts(&mut f, &body.facts, today);
    f.finish()?;
    let new = NewVehicle::try_from(body.into_inner())?;
    let (vid, warning) = register::enrol_vehicle(&state, &official.actor, company_id, new).await?;
    let c = register::company(&state, company_id).await?;
    let v = register::vehicle(&state, vid).await?;
    let mut body = vehicle_json(&state, &v, &c).await?;
    body.warnings = Some(warning.into_iter().map(ProblemItem::from).collect());
    Ok(HttpResponse::Created().json(body))
}

impl TryFrom<CharterNewVehicleDto> for NewVehicle {
    type Error = ApiError;

    fn try_from(dto: CharterNewVehicleDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let plate = f.take("plate", Plate::parse(&dto.plate), "Placa inválida.");
        let renavam = f.take("renavam", Renavam::parse(&dto.renavam), "RENAVAM inválido.");
        let make = f.text("make", &dto.make, 60);
        let model = f.text("model", &dto.model, 60);
        let itv = dto
            .itv_report_date
            .as_deref()
            .map(|d| f.date("itv_report_date", d));
        let enrolled_on = dto.enrolled_on.as_deref().map(|d| f.date("enrolled_on", d));
        let (plate, renavam, make, model) = f.done(parsed!(plate, renavam, make, model))?;
        Ok(Self {
            plate,
            renavam,
            make,
            model,
            facts: dto.facts,
            itv: itv.flatten().map(|report_date| ItvReport {
                report_date,
                provider: dto.itv_provider.unwrap_or_default(),
            }),
            enrolled_on: enrolled_on.flatten(),
        })
    }
}

async fn vehicle_json(
    state: &AppState,
    v: &CharterVehicle,
    c: &Company,
) -> Result<CharterVehicleView, ApiError> {
    let today = local_date(state.clock.now());
    let termos = reg::termos_of(&state.store, c.id).await?;
    let (report, company_status) =
        reg::vehicle_live_status(v, c, &termos, today, &state.charter_basis());
    let docs = state.store.documents_of_subject(v.id).await?;
    let may_operate =
        report.status == CharterStatus::Ativo && company_status == CharterStatus::Ativo;
    let transition = if c.data.operating_before_law {
        let cal = state.calendar().await?;
        let due = rules::transition_deadlines(&state.charter_basis(), &cal, &state.deadline_rules)
            .vehicle_enrolment
            .due;
        Some(VehicleTransition {
            rule: "FRET-ART26-P1",
            due,
            enrolled_on: v.enrolled_on,
            within_deadline: v.enrolled_on <= due,
        })
    } else {
        None
    };
    Ok(CharterVehicleView {
        id: v.id,
        company_id: c.id,
        company: c.data.name.clone(),
        company_status,
        plate: v.plate.formatted(),
        renavam: v.renavam.clone(),
        make: v.make.clone(),
        model: v.model.clone(),
        facts: v.record.facts.clone(),
        enrolled_on: v.enrolled_on,
        transition,
        status: report.status,
        status_label: report.status.label_pt(),
        may_operate,
        service_life_until: report.service_life_until,
        vistoria_valid_until: report.vistoria_valid_until,
        itv_valid_until: report.itv_valid_until,
        insurance_valid_to: report.insurance_valid_to,
        irregularities: report
            .irregularities
            .into_iter()
            .map(ProblemItem::from)
            .collect(),
        vistorias: v.record.vistorias.clone(),
        baixa: v.record.baixa.clone(),
        selos: docs.iter().map(|d| document_view(state, d)).collect(),
        warnings: None,
        selo: None,
    })
}

/// Art. 26, §1º for one vehicle of a company that operated before the law.
#[derive(Serialize, utoipa::ToSchema)]
pub struct VehicleTransition {
    rule: &'static str,
    due: NaiveDate,
    enrolled_on: NaiveDate,
    within_deadline: bool,
}

/// A charter bus or minibus: its facts, status now and selos de vistoria.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CharterVehicleView {
    id: Uuid,
    company_id: Uuid,
    company: String,
    company_status: CharterStatus,
    plate: String,
    renavam: String,
    make: String,
    model: String,
    facts: CharterVehicleFacts,
    /// Data do protocolo do cadastro na SIS (issue 13).
    enrolled_on: NaiveDate,
    /// Empresa que já operava antes da lei: o prazo de transição do art. 26, §1º, e se o
    /// cadastro deste veículo o cumpriu.
    #[serde(skip_serializing_if = "Option::is_none")]
    transition: Option<VehicleTransition>,
    status: CharterStatus,
    status_label: &'static str,
    /// Se pode circular agora: veículo e empresa ativos.
    may_operate: bool,
    service_life_until: NaiveDate,
    vistoria_valid_until: Option<NaiveDate>,
    itv_valid_until: Option<NaiveDate>,
    insurance_valid_to: Option<NaiveDate>,
    irregularities: Vec<ProblemItem>,
    vistorias: Vec<Vistoria>,
    baixa: Option<Baixa>,
    /// Os documentos emitidos para o veículo (selos e certidões).
    selos: Vec<DocumentView>,
    /// Avisos do cadastro (prazo de transição, art. 26, §1º); só na resposta do cadastro.
    #[serde(skip_serializing_if = "Option::is_none")]
    warnings: Option<Vec<ProblemItem>>,
    /// O selo emitido pela vistoria (nulo se reprovada); só na resposta da vistoria.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[allow(clippy::option_option)] // absent outside a vistoria's answer; null when failed
    selo: Option<Option<DocumentView>>,
}

async fn vehicle_reply(state: &AppState, v: &CharterVehicle) -> Reply {
    let c = reg::load_company(&state.store, v.company_id)
        .await?
        .ok_or(ApiError::Internal)?;
    Ok(HttpResponse::Ok().json(vehicle_json(state, v, &c).await?))
}

#[utoipa::path(get, path = "/api/v1/charter/vehicles/{id}", tag = "charter vehicles", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O veículo")),
    responses((status = 200, description = "O veículo", body = CharterVehicleView)))]
pub async fn get_vehicle(state: web::Data<AppState>, _o: Official, id: web::Path<String>) -> Reply {
    let v = vehicle_or_404(&state, &id).await?;
    vehicle_reply(&state, &v).await
}

/// `GET /api/v1/charter/vehicles/by-plate/{plate}` (FRET-ART19-III): what an inspector
/// needs on the road: registration, vistoria and service-life status by plate.
#[utoipa::path(get, path = "/api/v1/charter/vehicles/by-plate/{plate}", tag = "charter vehicles", security(("bearer" = [])), params(("plate" = String, Path, description = "A placa (ABC1234, ABC-1234 ou Mercosul)")),
    responses((status = 200, description = "O veículo", body = CharterVehicleView)))]
pub async fn vehicle_by_plate(
    state: web::Data<AppState>,
    _o: Official,
    plate: web::Path<String>,
) -> Reply {
    let plate = Plate::parse(&plate).map_err(|_| not_found("Veículo"))?;
    let v = reg::vehicle_by_plate(&state.store, &plate)
        .await?
        .ok_or_else(|| {
            ApiError::NotFound(
                "Veículo não cadastrado na Secretaria de Infraestrutura e Serviços (art. 19, III)."
                    .into(),
            )
        })?;
    vehicle_reply(&state, &v).await
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct ItvDto {
    report_date: String,
    provider: String,
    /// Retifica o ato de mesmo tipo que o histórico numera `event` (issue 13).
    #[serde(default)]
    rectifies: Option<crate::http::rectification::RectifiesDto>,
}

/// `POST /api/v1/charter/vehicles/{id}/itv` (FRET-ART12-IV): a new ITV report.
#[utoipa::path(post, path = "/api/v1/charter/vehicles/{id}/itv", tag = "charter vehicles", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O veículo")),
    responses((status = 200, description = "Laudo registrado", body = CharterVehicleView)))]
pub async fn file_itv(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<ItvDto>,
) -> Reply {
    let vid = register::vehicle(&state, path_id(&id, "Veículo")?)
        .await?
        .id;
    let today = local_date(state.clock.now());
    let rectifies = rectification::parse_alone(body.rectifies.as_ref(), today)?;
    let report = ItvReport::try_from((body.into_inner(), today))?;
    register::file_itv(&state, &official.actor, vid, &report, rectifies.as_ref()).await?;
    vehicle_reply(&state, &register::vehicle(&state, vid).await?).await
}

impl TryFrom<(ItvDto, NaiveDate)> for ItvReport {
    type Error = ApiError;

    /// `today`: a report cannot be future.
    fn try_from((dto, today): (ItvDto, NaiveDate)) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let day = f.date("report_date", &dto.report_date);
        let provider = f.text("provider", &dto.provider, 200);
        if day.is_some_and(|d| d > today) {
            f.take::<(), ()>("report_date", Err(()), "O laudo não pode ter data futura.");
        }
        let (report_date, provider) = f.done(parsed!(day, provider))?;
        Ok(Self {
            report_date,
            provider,
        })
    }
}

/// `POST /api/v1/charter/vehicles/{id}/documents` (FRET-ART12-II/III): a new CRLV year or
/// insurance policy.
#[utoipa::path(post, path = "/api/v1/charter/vehicles/{id}/documents", tag = "charter vehicles", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O veículo")),
    responses((status = 200, description = "Documentos registrados", body = CharterVehicleView)))]
pub async fn file_vehicle_documents(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<VehicleDocumentsDto>,
) -> Reply {
    let vid = path_id(&id, "Veículo")?;
    let today = local_date(state.clock.now());
    let mut f = Fields::default();
    check_crlv_year(&mut f, body.documents.crlv_year, today);
    let rectifies = rectification::parse(&mut f, body.rectifies.as_ref(), today);
    let rectifies = f.done(rectifies)?;
    register::file_vehicle_documents(
        &state,
        &official.actor,
        vid,
        &body.documents,
        rectifies.as_ref(),
    )
    .await?;
    vehicle_reply(&state, &register::vehicle(&state, vid).await?).await
}

/// A vehicle's baixa, or the rectification of one entered wrongly.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct BaixaDto {
    #[serde(flatten)]
    baixa: Baixa,
    /// Retifica o ato de mesmo tipo que o histórico numera `event` (issue 13).
    #[serde(default)]
    rectifies: Option<crate::http::rectification::RectifiesDto>,
}

/// A driver's baixa, or the rectification of one entered wrongly.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct DriverBaixaDto {
    #[serde(flatten)]
    baixa: DriverBaixa,
    /// Retifica o ato de mesmo tipo que o histórico numera `event` (issue 13).
    #[serde(default)]
    rectifies: Option<crate::http::rectification::RectifiesDto>,
}

/// A CRLV year or insurance policy, or the rectification of one filed wrongly.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct VehicleDocumentsDto {
    #[serde(flatten)]
    documents: VehicleDocuments,
    /// Retifica o ato de mesmo tipo que o histórico numera `event` (issue 13).
    #[serde(default)]
    rectifies: Option<crate::http::rectification::RectifiesDto>,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct CharterVistoriaDto {
    performed_on: String,
    approved: bool,
    inspector: String,
    #[serde(default)]
    notes: String,
    /// Retifica o ato de mesmo tipo que o histórico numera `event` (issue 13).
    #[serde(default)]
    rectifies: Option<crate::http::rectification::RectifiesDto>,
}

/// `POST /api/v1/charter/vehicles/{id}/vistorias` (FRET-ART13, §1º): records a municipal
/// vistoria; an approved one issues the selo de vistoria, in the same transaction.
#[utoipa::path(post, path = "/api/v1/charter/vehicles/{id}/vistorias", tag = "charter vehicles", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O veículo")),
    responses((status = 201, description = "Vistoria registrada; `selo` traz o selo emitido (nulo se reprovada)", body = CharterVehicleView)))]
pub async fn record_vistoria(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<CharterVistoriaDto>,
) -> Reply {
    let vid = register::vehicle(&state, path_id(&id, "Veículo")?)
        .await?
        .id;
    let today = local_date(state.clock.now());
    let rectifies = rectification::parse_alone(body.rectifies.as_ref(), today)?;
    let vistoria = Vistoria::try_from((body.into_inner(), today))?;
    let selo =
        register::record_vistoria(&state, &official.actor, vid, &vistoria, rectifies.as_ref())
            .await?;
    let v = register::vehicle(&state, vid).await?;
    let c = register::company(&state, v.company_id).await?;
    let mut body = vehicle_json(&state, &v, &c).await?;
    body.selo = Some(selo.map(|doc| document_view(&state, &doc)));
    Ok(HttpResponse::Created().json(body))
}

impl TryFrom<(CharterVistoriaDto, NaiveDate)> for Vistoria {
    type Error = ApiError;

    /// `today`: a vistoria cannot be future.
    fn try_from((dto, today): (CharterVistoriaDto, NaiveDate)) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let performed_on = f.date("performed_on", &dto.performed_on);
        let inspector = f.text("inspector", &dto.inspector, 200);
        if performed_on.is_some_and(|d| d > today) {
            f.take::<(), ()>(
                "performed_on",
                Err(()),
                "A vistoria não pode ter data futura.",
            );
        }
        let (performed_on, inspector) = f.done(parsed!(performed_on, inspector))?;
        Ok(Self {
            performed_on,
            approved: dto.approved,
            inspector,
            notes: dto.notes,
        })
    }
}

/// `POST /api/v1/charter/vehicles/{id}/baixa` (FRET-ART13-P5, FRET-ART24).
#[utoipa::path(post, path = "/api/v1/charter/vehicles/{id}/baixa", tag = "charter vehicles", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O veículo")),
    responses((status = 200, description = "Baixa registrada", body = CharterVehicleView)))]
pub async fn baixa_vehicle(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<BaixaDto>,
) -> Reply {
    let vid = path_id(&id, "Veículo")?;
    let today = local_date(state.clock.now());
    let rectifies = rectification::parse_alone(body.rectifies.as_ref(), today)?;
    register::baixa_vehicle(
        &state,
        &official.actor,
        vid,
        &body.baixa,
        rectifies.as_ref(),
    )
    .await?;
    vehicle_reply(&state, &register::vehicle(&state, vid).await?).await
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct CharterSubstitutionDto {
    replaced_vehicle_id: String,
    substitute_vehicle_id: String,
    reason: SubstitutionReason,
    authorized_from: String,
    authorized_to: String,
    decision: String,
}

/// `POST /api/v1/charter/companies/{id}/substitutions` (FRET-ART14, AMB-48): a temporary,
/// revocable replacement of a vehicle made unusable by accident, theft or damage.
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/substitutions", tag = "charter vehicles", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    responses((status = 201, description = "Substituição autorizada", body = register::AuthorizedSubstitution)))]
pub async fn authorize_substitution(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<CharterSubstitutionDto>,
) -> Reply {
    let company_id = register::company(&state, path_id(&id, "Empresa")?)
        .await?
        .id;
    let req = SubstitutionRequest::try_from(body.into_inner())?;
    let authorized =
        register::authorize_substitution(&state, &official.actor, company_id, req).await?;
    Ok(HttpResponse::Created().json(authorized))
}

impl TryFrom<CharterSubstitutionDto> for SubstitutionRequest {
    type Error = ApiError;

    fn try_from(dto: CharterSubstitutionDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let replaced = f.uuid("replaced_vehicle_id", &dto.replaced_vehicle_id);
        let substitute = f.uuid("substitute_vehicle_id", &dto.substitute_vehicle_id);
        let from = f.date("authorized_from", &dto.authorized_from);
        let to = f.date("authorized_to", &dto.authorized_to);
        let decision = f.text("decision", &dto.decision, 200);
        let (replaced_vehicle_id, substitute_vehicle_id, authorized_from, authorized_to, decision) =
            f.done(parsed!(replaced, substitute, from, to, decision))?;
        Ok(Self {
            replaced_vehicle_id,
            substitute_vehicle_id,
            reason: dto.reason,
            authorized_from,
            authorized_to,
            decision,
        })
    }
}

// ----------------------------------------------------------------------------------------
// Drivers
// ----------------------------------------------------------------------------------------

#[derive(Deserialize, utoipa::ToSchema)]
pub struct CharterNewDriverDto {
    name: String,
    cpf: String,
    cnh_number: String,
    #[serde(flatten)]
    facts: CharterDriverFacts,
}

/// `POST /api/v1/charter/companies/{id}/drivers` (FRET-ART15, FRET-ART24).
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/drivers", tag = "charter drivers", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    responses((status = 201, description = "Condutor cadastrado", body = CharterDriverView)))]
pub async fn create_driver(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<CharterNewDriverDto>,
) -> Reply {
    let company_id = register::company(&state, path_id(&id, "Empresa")?)
        .await?
        .id;
    let mut f = Fields::default();
    check_driver_facts(&mut f, &body.facts, local_date(state.clock.now()));
    f.finish()?;
    let new = NewDriver::try_from(body.into_inner())?;
    let did = register::enrol_driver(&state, &official.actor, company_id, new).await?;
    driver_reply(&state, did, StatusCodeKind::Created).await
}

impl TryFrom<CharterNewDriverDto> for NewDriver {
    type Error = ApiError;

    fn try_from(dto: CharterNewDriverDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let name = f.text("name", &dto.name, 200);
        let cpf = f.take("cpf", Cpf::parse(&dto.cpf), "CPF inválido.");
        let cnh = f.take(
            "cnh_number",
            CnhNumber::parse(&dto.cnh_number),
            "Número de registro da CNH inválido.",
        );
        let (name, cpf, cnh_number) = f.done(parsed!(name, cpf, cnh))?;
        Ok(Self {
            name,
            cpf,
            cnh_number,
            facts: dto.facts,
        })
    }
}

enum StatusCodeKind {
    Ok,
    Created,
}

async fn driver_reply(state: &AppState, id: Uuid, code: StatusCodeKind) -> Reply {
    let d = reg::load_driver(&state.store, id)
        .await?
        .ok_or_else(|| not_found("Condutor"))?;
    let today = local_date(state.clock.now());
    let (status, failures) = rules::driver_status(
        &d.data.facts,
        d.deregistered_on,
        today,
        &state.charter_basis(),
    );
    let cpf = Cpf::parse(&d.cpf).map_err(|_| ApiError::Internal)?;
    let body = CharterDriverView {
        id: d.id,
        company_id: d.company_id,
        name: d.data.name.clone(),
        cpf: cpf.formatted(),
        cnh_number: d.data.cnh_number.clone(),
        facts: d.data.facts.clone(),
        status,
        status_label: status.label_pt(),
        deregistered_on: d.deregistered_on,
        irregularities: failures.into_iter().map(ProblemItem::from).collect(),
    };
    Ok(match code {
        StatusCodeKind::Ok => HttpResponse::Ok().json(body),
        StatusCodeKind::Created => HttpResponse::Created().json(body),
    })
}

/// A driver of a charter company, with the requirements of art. 15 checked today.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CharterDriverView {
    id: Uuid,
    company_id: Uuid,
    name: String,
    /// CPF formatado.
    cpf: String,
    cnh_number: String,
    facts: CharterDriverFacts,
    status: CharterStatus,
    status_label: &'static str,
    deregistered_on: Option<NaiveDate>,
    irregularities: Vec<ProblemItem>,
}

#[utoipa::path(get, path = "/api/v1/charter/drivers/{id}", tag = "charter drivers", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O condutor")),
    responses((status = 200, description = "O condutor", body = CharterDriverView)))]
pub async fn get_driver(state: web::Data<AppState>, _o: Official, id: web::Path<String>) -> Reply {
    driver_reply(&state, path_id(&id, "Condutor")?, StatusCodeKind::Ok).await
}

/// A driver's documents, or the rectification of a filing entered wrongly.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct DriverDocumentsDto {
    #[serde(flatten)]
    facts: CharterDriverFacts,
    /// Retifica o ato de mesmo tipo que o histórico numera `event` (issue 13).
    #[serde(default)]
    rectifies: Option<crate::http::rectification::RectifiesDto>,
}

/// `POST /api/v1/charter/drivers/{id}/documents` (FRET-ART9, FRET-ART15): updated documents.
#[utoipa::path(post, path = "/api/v1/charter/drivers/{id}/documents", tag = "charter drivers", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O condutor")),
    responses((status = 200, description = "Documentos registrados", body = CharterDriverView)))]
pub async fn file_driver_documents(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<DriverDocumentsDto>,
) -> Reply {
    let did = path_id(&id, "Condutor")?;
    let today = local_date(state.clock.now());
    let mut f = Fields::default();
    check_driver_facts(&mut f, &body.facts, today);
    let rectifies = rectification::parse(&mut f, body.rectifies.as_ref(), today);
    let rectifies = f.done(rectifies)?;
    register::file_driver_documents(
        &state,
        &official.actor,
        did,
        &body.facts,
        rectifies.as_ref(),
    )
    .await?;
    driver_reply(&state, did, StatusCodeKind::Ok).await
}

/// `POST /api/v1/charter/drivers/{id}/baixa` (FRET-ART24).
#[utoipa::path(post, path = "/api/v1/charter/drivers/{id}/baixa", tag = "charter drivers", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O condutor")),
    responses((status = 200, description = "Baixa registrada", body = CharterDriverView)))]
pub async fn baixa_driver(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<DriverBaixaDto>,
) -> Reply {
    let did = path_id(&id, "Condutor")?;
    let today = local_date(state.clock.now());
    let rectifies = rectification::parse_alone(body.rectifies.as_ref(), today)?;
    register::baixa_driver(
        &state,
        &official.actor,
        did,
        &body.baixa,
        rectifies.as_ref(),
    )
    .await?;
    driver_reply(&state, did, StatusCodeKind::Ok).await
}

// ----------------------------------------------------------------------------------------
// Contracts and trips
// ----------------------------------------------------------------------------------------

/// `POST /api/v1/charter/companies/{id}/contracts` (FRET-ART1-PU, FRET-ART2, FRET-ART3,
/// FRET-ART5, FRET-ART8-P3, FRET-ART10-PU, FRET-ART28).
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/contracts", tag = "charter contracts", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    responses((status = 201, description = "Contrato registrado", body = ContractView)))]
pub async fn create_contract(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<ContractFacts>,
) -> Reply {
    let company_id = path_id(&id, "Empresa")?;
    let contract = body.into_inner();
    let registered =
        register::register_contract(&state, &official.actor, company_id, &contract).await?;
    Ok(HttpResponse::Created().json(ContractView {
        id: registered.id,
        company_id,
        kind: contract.kind,
        notice_due: registered.notice_due,
        warnings: registered.late.into_iter().map(ProblemItem::from).collect(),
        manual_review: registered.manual_review,
        legal_basis_version: state.charter_basis().version.clone(),
    }))
}

/// A charter contract just registered, with its notice deadline (art. 3º).
#[derive(Serialize, utoipa::ToSchema)]
pub struct ContractView {
    id: Uuid,
    company_id: Uuid,
    kind: ContractKind,
    /// O prazo para comunicar o contrato à Secretaria (art. 3º).
    notice_due: Deadline,
    warnings: Vec<ProblemItem>,
    /// O que a Secretaria precisa conferir à mão.
    manual_review: Vec<String>,
    legal_basis_version: String,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct ContractEndDto {
    ended_on: String,
    communicated_on: String,
}

/// `POST /api/v1/charter/contracts/{id}/end` (FRET-ART3: notice within 15 days of the end).
#[utoipa::path(post, path = "/api/v1/charter/contracts/{id}/end", tag = "charter contracts", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O contrato")),
    responses((status = 200, description = "Encerramento registrado", body = ContractEndView)))]
pub async fn end_contract(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<ContractEndDto>,
) -> Reply {
    let contract_id = register::contract_id(&state, path_id(&id, "Contrato")?).await?;
    let end = ContractEnd::try_from(body.into_inner())?;
    let (due, late) = register::end_contract(
        &state,
        &official.actor,
        contract_id,
        end.ended_on,
        end.communicated_on,
    )
    .await?;
    Ok(HttpResponse::Ok().json(ContractEndView {
        id: contract_id,
        ended_on: end.ended_on,
        notice_due: due,
        warnings: late.into_iter().map(ProblemItem::from).collect(),
    }))
}

/// The end of a contract and when it was communicated, parsed.
pub struct ContractEnd {
    ended_on: NaiveDate,
    communicated_on: NaiveDate,
}

impl TryFrom<ContractEndDto> for ContractEnd {
    type Error = ApiError;

    fn try_from(dto: ContractEndDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let ended = f.date("ended_on", &dto.ended_on);
        let communicated = f.date("communicated_on", &dto.communicated_on);
        let (ended_on, communicated_on) = f.done(parsed!(ended, communicated))?;
        Ok(Self {
            ended_on,
            communicated_on,
        })
    }
}

/// The end of a contract, with the deadline to communicate it (art. 3º).
#[derive(Serialize, utoipa::ToSchema)]
pub struct ContractEndView {
    id: Uuid,
    ended_on: NaiveDate,
    notice_due: Deadline,
    warnings: Vec<ProblemItem>,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct TripDto {
    date: String,
    vehicle_plate: String,
    passengers: Vec<Passenger>,
    /// `ida` (default) or `volta`: the return of the group that went (art. 2º, III).
    #[serde(default)]
    leg: Option<rules::TripLeg>,
}

/// `POST /api/v1/charter/contracts/{id}/trips` (FRET-ART1-PU-III, FRET-ART2, FRET-ART10-PU):
/// the passenger list of one trip, in one registered, regular vehicle of the contract; a
/// return (`"leg":"volta"`) carries the group that went in the vehicle that took it (FRET-ART2-III).
#[utoipa::path(post, path = "/api/v1/charter/contracts/{id}/trips", tag = "charter contracts", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O contrato")),
    responses((status = 201, description = "Lista de passageiros registrada", body = register::FiledTripList)))]
pub async fn file_trip(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<TripDto>,
) -> Reply {
    let contract_id = register::contract_id(&state, path_id(&id, "Contrato")?).await?;
    let trip = TripRequest::try_from(body.into_inner())?;
    let filed = register::file_trip(&state, &official.actor, contract_id, trip).await?;
    Ok(HttpResponse::Created().json(filed))
}

impl TryFrom<TripDto> for TripRequest {
    type Error = ApiError;

    fn try_from(dto: TripDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let date = f.date("date", &dto.date);
        let plate = f.take(
            "vehicle_plate",
            Plate::parse(&dto.vehicle_plate),
            "Placa inválida.",
        );
        let (date, vehicle_plate) = f.done(parsed!(date, plate))?;
        Ok(Self {
            date,
            vehicle_plate,
            passengers: dto.passengers,
            leg: dto.leg.unwrap_or(rules::TripLeg::Ida),
        })
    }
}

// ----------------------------------------------------------------------------------------
// Facts checked at the door (issue 13, item 7): enumerations, plausible years and dates
// ----------------------------------------------------------------------------------------

/// The first year of a plausible CRLV, model year or first registration: the oldest bus a
/// charter company could still enrol is far younger (art. 13, §1º: 15 years of service).
const OLDEST_VEHICLE_YEAR: i32 = 1950;

/// A charter driver's facts as typed: a CNH category of the CTB's list, a birth date that
/// makes an age between 18 and 100 today, dates of documents not in the future (the CNH's
/// expiry may be).
pub(crate) fn check_driver_facts(f: &mut Fields, facts: &CharterDriverFacts, today: NaiveDate) {
    use crate::domain::ids::CnhCategory;
    f.take(
        "cnh_category",
        CnhCategory::parse(&facts.cnh_category),
        "Categoria de CNH inválida: use A, B, C, D, E, AB, AC, AD ou AE.",
    );
    let age = today.years_since(facts.birth_date);
    if !age.is_some_and(|a| (18..=100).contains(&a)) {
        f.take::<(), ()>(
            "birth_date",
            Err(()),
            "Data de nascimento implausível: o condutor deve ter entre 18 e 100 anos.",
        );
    }
    if facts.toxicological_exam_on.is_some_and(|d| d > today) {
        f.take::<(), ()>(
            "toxicological_exam_on",
            Err(()),
            "O exame toxicológico não pode ter data futura.",
        );
    }
    if !(OLDEST_VEHICLE_YEAR..=2100).contains(&facts.cnh_expires_on.year()) {
        f.take::<(), ()>("cnh_expires_on", Err(()), "Validade da CNH implausível.");
    }
}

/// A charter vehicle's facts as typed: positive and plausible years (model, CRLV, first
/// registration), a first registration not in the future.
pub(crate) fn check_vehicle_facts(f: &mut Fields, facts: &CharterVehicleFacts, today: NaiveDate) {
    check_crlv_year(f, facts.crlv_year, today);
    if !(OLDEST_VEHICLE_YEAR..=today.year() + 1).contains(&facts.model_year) {
        f.take::<(), ()>(
            "model_year",
            Err(()),
            &format!(
                "Ano-modelo implausível: entre {OLDEST_VEHICLE_YEAR} e {}.",
                today.year() + 1
            ),
        );
    }
    let first = facts.first_registration_date;
    if first > today || first.year() < OLDEST_VEHICLE_YEAR {
        f.take::<(), ()>(
            "first_registration_date",
            Err(()),
            "Data do primeiro emplacamento implausível: não pode ser futura nem anterior a 1950.",
        );
    }
}

fn check_crlv_year(f: &mut Fields, year: i32, today: NaiveDate) {
    if !(OLDEST_VEHICLE_YEAR..=today.year() + 1).contains(&year) {
        f.take::<(), ()>(
            "crlv_year",
            Err(()),
            &format!(
                "Exercício do CRLV implausível: um ano entre {OLDEST_VEHICLE_YEAR} e {}.",
                today.year() + 1
            ),
        );
    }
}

// ----------------------------------------------------------------------------------------
// Autos de infração and their procedure
// ----------------------------------------------------------------------------------------

#[derive(Deserialize, utoipa::ToSchema)]
pub struct NewAutoDto {
    infraction: String,
    /// A data da infração; dispensável quando `committed_at` a traz.
    #[serde(default)]
    committed_on: Option<String>,
    /// Data e hora da infração (issue 12), no horário de Mato Grosso ou RFC 3339.
    #[serde(default)]
    #[schema(format = DateTime)]
    committed_at: Option<String>,
    place: String,
    facts: String,
    inspector: String,
    #[serde(default)]
    vehicle_plate: Option<String>,
    /// Quando o agente lavrou o auto, se antes do registro no sistema; padrão: agora.
    #[serde(default)]
    #[schema(format = DateTime)]
    drawn_up_at: Option<String>,
}

async fn auto_views(state: &AppState, company_id: Uuid) -> Result<Vec<AutoView>, ApiError> {
    let cal = calendar(state).await?;
    Ok(reg::company_autos(
        &state.store,
        company_id,
        local_date(state.clock.now()),
        &cal,
        &state.deadline_rules,
        &state.charter_basis(),
    )
    .await?)
}

async fn auto_reply(state: &AppState, company_id: Uuid, auto_id: Uuid, created: bool) -> Reply {
    let views = auto_views(state, company_id).await?;
    let view = views
        .into_iter()
        .find(|v| v.id == auto_id)
        .ok_or_else(|| not_found("Auto de infração"))?;
    // AMB-03: the R$ amount uses the UPF value of the year the auto was drawn up.
    let year = chrono::Datelike::year(&local_date(view.data.drawn_up_at));
    let upf = state.store.upf_value(year).await?;
    let infraction = charter_infraction(&view.data.infraction);
    let centavos = view
        .fine
        .as_ref()
        .zip(upf)
        .map(|(f, v)| i64::from(f.upf) * v);
    let body = CharterAutoView {
        article: infraction.map(|i| i.article),
        description: infraction.map(|i| i.description),
        fine_centavos: centavos,
        fine_brl: centavos.map(crate::documents::format::money),
        fine_in_words: centavos.map(crate::documents::format::money_in_words),
        upf_year: year,
        view,
    };
    Ok(if created {
        HttpResponse::Created().json(body)
    } else {
        HttpResponse::Ok().json(body)
    })
}

/// A charter auto de infração with its procedure and fine in reais (art. 19).
#[derive(Serialize, utoipa::ToSchema)]
pub struct CharterAutoView {
    #[serde(flatten)]
    view: AutoView,
    article: Option<&'static str>,
    description: Option<&'static str>,
    /// A multa em centavos, com o valor da UPF do ano da lavratura (AMB-03).
    fine_centavos: Option<i64>,
    fine_brl: Option<String>,
    fine_in_words: Option<String>,
    upf_year: i32,
}

/// `POST /api/v1/charter/companies/{id}/autos` (FRET-ART19, FRET-ART19-PU, FRET-ART20-IV,
/// FRET-ART21): draws up an auto; the fine follows recidivism.
#[utoipa::path(post, path = "/api/v1/charter/companies/{id}/autos", tag = "charter autos", security(("bearer" = [])), params(("id" = Uuid, Path, description = "A empresa")),
    responses((status = 201, description = "Auto lavrado", body = CharterAutoView)))]
pub async fn create_auto(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<NewAutoDto>,
) -> Reply {
    let c = company_or_404(&state, &id).await?;
    let today = local_date(state.clock.now());
    let auto = NewAuto::try_from((body.into_inner(), today))?;
    let aid = issue::draw_up_auto(&state, c.id, auto, &official.actor).await?;
    auto_reply(&state, c.id, aid, true).await
}

impl TryFrom<(NewAutoDto, NaiveDate)> for NewAuto {
    type Error = ApiError;

    /// `today`: an infraction cannot be future.
    fn try_from((dto, today): (NewAutoDto, NaiveDate)) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let infraction = f.take(
            "infraction",
            charter_infraction(dto.infraction.trim()).ok_or(()),
            "Infração desconhecida: use FRET-ART19-I a FRET-ART19-VI.",
        );
        let committed_at = dto
            .committed_at
            .as_deref()
            .and_then(|t| f.instant("committed_at", t));
        let committed_on = match (&dto.committed_on, committed_at) {
            (Some(d), at) => {
                let d = f.date("committed_on", d);
                if let (Some(d), Some(at)) = (d, at)
                    && local_date(at) != d
                {
                    f.take::<(), ()>(
                        "committed_on",
                        Err(()),
                        "A data não confere com a data e hora da infração (committed_at).",
                    );
                }
                d
            }
            (None, Some(at)) => Some(local_date(at)),
            (None, None) => f.take(
                "committed_on",
                Err::<NaiveDate, ()>(()),
                "Informe a data da infração (committed_on) ou a data e hora (committed_at).",
            ),
        };
        let drawn_up_at = match &dto.drawn_up_at {
            Some(t) => f.instant("drawn_up_at", t).map(Some),
            None => Some(None),
        };
        let place = f.text("place", &dto.place, 300);
        let facts = f.text("facts", &dto.facts, 4000);
        let inspector = f.text("inspector", &dto.inspector, 200);
        if committed_on.is_some_and(|d| d > today) {
            f.take::<(), ()>(
                "committed_on",
                Err(()),
                "A infração não pode ter data futura.",
            );
        }
        let vehicle_plate = dto
            .vehicle_plate
            .as_deref()
            .map(|p| f.take("vehicle_plate", Plate::parse(p), "Placa inválida."));
        let (infraction, committed_on, drawn_up_at, place, facts, inspector) = f.done(parsed!(
            infraction,
            committed_on,
            drawn_up_at,
            place,
            facts,
            inspector
        ))?;
        Ok(Self {
            infraction: infraction.id,
            committed_on,
            committed_at,
            drawn_up_at,
            place,
            facts,
            inspector,
            vehicle_plate: vehicle_plate.flatten(),
        })
    }
}

#[utoipa::path(get, path = "/api/v1/charter/autos/{id}", tag = "charter autos", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O auto de infração")),
    responses((status = 200, description = "O auto", body = CharterAutoView)))]
pub async fn get_auto(state: web::Data<AppState>, _o: Official, id: web::Path<String>) -> Reply {
    let (row, company_id) =
        register::auto_company(&state, path_id(&id, "Auto de infração")?).await?;
    auto_reply(&state, company_id, row.id, false).await
}

/// `POST /api/v1/charter/autos/{id}/acts` (FRET-ART22, §§1º–3º, FRET-ART23): notification,
/// defence, decision, reconsideration to the Mayor and the Mayor's decision, in order.
#[utoipa::path(post, path = "/api/v1/charter/autos/{id}/acts", tag = "charter autos", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O auto de infração")),
    responses((status = 200, description = "Ato registrado", body = CharterAutoView)))]
pub async fn procedure_act(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<ProcedureAct>,
) -> Reply {
    let auto_id = path_id(&id, "Auto de infração")?;
    let company_id =
        register::procedure_act(&state, &official.actor, auto_id, &body.into_inner()).await?;
    auto_reply(&state, company_id, auto_id, false).await
}

/// `POST /api/v1/charter/autos/{id}/notice` (FRET-ART19–23, APP-ART19): issues the signed
/// Auto de Infração e Notificação, two copies, every deadline dated.
#[utoipa::path(post, path = "/api/v1/charter/autos/{id}/notice", tag = "charter autos", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O auto de infração")),
    responses((status = 201, description = "Auto de Infração e Notificação emitido", body = DocumentView)))]
pub async fn issue_notice(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
) -> Reply {
    let auto_id = path_id(&id, "Auto de infração")?;
    let doc = register::auto_notice(&state, &official.actor, auto_id).await?;
    Ok(HttpResponse::Created().json(document_view(&state, &doc)))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct CharterCertidaoDto {
    subject: String,
    id: String,
    protocol: String,
}

/// `POST /api/v1/charter/certidoes` (FRET-ART25): the certidão de situação cadastral of a
/// vehicle or a driver, on a petition filed at the protocol.
#[utoipa::path(post, path = "/api/v1/charter/certidoes", tag = "charter certidões", security(("bearer" = [])),
    responses((status = 201, description = "Certidão emitida", body = CertidaoView)))]
pub async fn issue_certidao(
    state: web::Data<AppState>,
    official: Official,
    body: web::Json<CharterCertidaoDto>,
) -> Reply {
    let req = CertidaoRequest::try_from(body.into_inner())?;
    let doc =
        register::certidao(&state, &official.actor, req.subject, req.id, &req.protocol).await?;
    Ok(HttpResponse::Created().json(CertidaoView {
        document: document_view(&state, &doc),
        facts: doc.facts.clone().unwrap_or_default(),
    }))
}

/// A petition for a certidão (FRET-ART25), parsed.
pub struct CertidaoRequest {
    subject: &'static str,
    id: Uuid,
    protocol: String,
}

impl TryFrom<CharterCertidaoDto> for CertidaoRequest {
    type Error = ApiError;

    fn try_from(dto: CharterCertidaoDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let id = f.uuid("id", &dto.id);
        let protocol = f.text("protocol", &dto.protocol, 60);
        let subject = match dto.subject.as_str() {
            "vehicle" => Some("vehicle"),
            "driver" => Some("driver"),
            _ => f.take(
                "subject",
                Err::<&'static str, ()>(()),
                "Use \"vehicle\" ou \"driver\".",
            ),
        };
        let (id, protocol, subject) = f.done(parsed!(id, protocol, subject))?;
        Ok(Self {
            subject,
            id,
            protocol,
        })
    }
}

/// A certidão just issued, with the facts it certifies.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CertidaoView {
    #[serde(flatten)]
    document: DocumentView,
    /// Os fatos certificados, como assinados.
    facts: serde_json::Value,
}

/// `GET /api/v1/charter/autos?company_id=…`: every auto of a company with its current fine.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AutosQuery {
    /// A empresa.
    company_id: String,
}

#[utoipa::path(get, path = "/api/v1/charter/autos", tag = "charter autos", security(("bearer" = [])), params(AutosQuery),
    responses((status = 200, description = "Os autos da empresa", body = CompanyAutos)))]
pub async fn list_autos(
    state: web::Data<AppState>,
    _o: Official,
    q: web::Query<AutosQuery>,
) -> Reply {
    let c = company_or_404(&state, &q.company_id).await?;
    let views = auto_views(&state, c.id).await?;
    Ok(HttpResponse::Ok().json(CompanyAutos {
        company_id: c.id,
        autos: views,
    }))
}

/// Every auto of a company, with where its procedure stands.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CompanyAutos {
    company_id: Uuid,
    autos: Vec<AutoView>,
}

/// `GET /api/v1/charter/infractions`: the art. 19 catalogue with the fine in force.
#[utoipa::path(get, path = "/api/v1/charter/infractions", tag = "charter autos",
    responses((status = 200, description = "O catálogo do art. 19", body = CharterInfractionCatalogue)))]
pub async fn infractions(state: web::Data<AppState>) -> Reply {
    let b = &state.charter_basis();
    Ok(HttpResponse::Ok().json(CharterInfractionCatalogue {
        legal_basis_version: b.version.clone(),
        fine_upf: b.fine_upf,
        recidivism_fine_upf: b.fine_upf * b.recidivism_multiplier,
        recidivism_window_months: b.recidivism_window_months,
        infractions: CHARTER_INFRACTIONS,
    }))
}

/// The infractions of art. 19 with the fines of the legal basis in force.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CharterInfractionCatalogue {
    legal_basis_version: String,
    fine_upf: u32,
    /// A multa na reincidência (art. 21).
    recidivism_fine_upf: u32,
    recidivism_window_months: u32,
    infractions: &'static [CharterInfraction],
}

/// `GET /api/v1/charter/transition` (FRET-ART26, §1º): the transitional deadlines.
#[utoipa::path(get, path = "/api/v1/charter/transition", tag = "charter companies",
    responses((status = 200, description = "Os prazos de transição (art. 26)", body = rules::TransitionDeadlines)))]
pub async fn transition(state: web::Data<AppState>) -> Reply {
    let cal = calendar(&state).await?;
    Ok(HttpResponse::Ok().json(rules::transition_deadlines(
        &state.charter_basis(),
        &cal,
        &state.deadline_rules,
    )))
}

/// `GET /api/v1/charter/documents/{id}`: the signed PDF.
#[utoipa::path(get, path = "/api/v1/charter/documents/{id}", tag = "charter documents", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O documento")),
    responses((status = 200, description = "O PDF assinado (PAdES)", content_type = "application/pdf", body = super::openapi::PdfFile)))]
pub async fn document_pdf(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
) -> Reply {
    let id = path_id(&id, "Documento")?;
    // Every document of the register but the ride-hailing authorization and sticker, which
    // are served under `/api/v1/documents/{id}`.
    let doc = state
        .store
        .document(id)
        .await?
        .filter(|d| {
            !matches!(
                d.kind,
                DocumentKind::RideHailingAuthorization | DocumentKind::RideHailingSticker
            )
        })
        .ok_or_else(|| not_found("Documento"))?;
    // Issue 10: each law's documents are read by that law's officials.
    official.require(if doc.kind.is_ride_hailing() {
        Competence::ReadRideHailing
    } else {
        Competence::ReadCharter
    })?;
    let pdf = state
        .store
        .document_pdf(id)
        .await?
        .ok_or_else(|| not_found("Documento"))?;
    Ok(HttpResponse::Ok()
        .content_type("application/pdf")
        .insert_header((
            "Content-Disposition",
            format!("inline; filename=\"{id}.pdf\""),
        ))
        .body(pdf))
}

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
    responses((status = 200, description = "O histórico", body = super::history::HistoryView)))]
pub async fn history(
    state: web::Data<AppState>,
    _o: Official,
    path: web::Path<(String, String)>,
) -> Reply {
    let (entity, raw) = path.into_inner();
    let table = table_of(&entity).ok_or_else(|| not_found("Registro"))?;
    super::history::history(&state, table.entity_type(), &raw).await
}

/// The register table a path segment names (`companies`, `vehicles`, …).
fn table_of(entity: &str) -> Option<CharterTable> {
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
