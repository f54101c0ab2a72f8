//! `/api/v1/charter/…`: the charter register (Lei 4.937/2025): companies and their Termos,
//! vehicles and vistorias, drivers, contracts and trips, autos de infração and their
//! procedure, sanctions. Every failed rule is listed in a 422 with its id and article.

use actix_web::{HttpResponse, web};
use chrono::NaiveDate;
use serde::Deserialize;
use serde_json::json;
use uuid::Uuid;

use super::auth::Official;
use super::calendar::calendar;
use super::fields::{Fields, parsed};
use super::problem::{ApiError, ProblemItem};
use crate::domain::charter::CharterAct;
use crate::domain::charter::sanctions::{
    CHARTER_INFRACTIONS, Outcome, ProcedureAct, charter_infraction, check_act_order,
};
use crate::domain::charter::{
    self as rules, Baixa, CharterDriverFacts, CharterStatus, CharterVehicleFacts, CompanyChecklist,
    CompanySanction, CompanySanctionKind, ContractFacts, ListedVehicle, Modality, Passenger,
    PriorTermo, SubstitutionReason, Vistoria,
};
use crate::domain::dates::local_date;
use crate::domain::ids::{CnhNumber, Cnpj, Cpf, Plate, Renavam};
use crate::domain::rule::RuleFailure;
use crate::issuance::charter as issue;
use crate::issuance::charter::NewAuto;
use crate::issuance::verification_url;
use crate::standing::charter as reg;
use crate::standing::charter::{
    AutoView, CharterVehicle, Company, CompanyData, DriverBaixa, DriverData, ItvReport,
    VehicleData, VehicleDocuments,
};
use crate::state::AppState;
use crate::storage::charter::{CharterCommit, CharterRow, CharterTable, NewEvent};
use crate::storage::documents::Document;
use crate::storage::{DocumentKind, Repository, StorageError};

type Reply = Result<HttpResponse, ApiError>;

fn not_found(what: &str) -> ApiError {
    ApiError::NotFound(format!("{what} não encontrado(a)."))
}

fn requirements(failures: Vec<RuleFailure>) -> ApiError {
    ApiError::Requirements(failures.into_iter().map(ProblemItem::from).collect())
}

fn conflict(field: &'static str, message: &str) -> ApiError {
    ApiError::Conflict(
        "Já existe um cadastro com este dado.".into(),
        vec![ProblemItem::field(field, message)],
    )
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

fn event<'a>(
    table: CharterTable,
    id: Uuid,
    kind: &'a str,
    actor: &'a str,
    state: &'a AppState,
    data: serde_json::Value,
) -> NewEvent<'a> {
    NewEvent::act(
        table.entity_type(),
        id,
        kind,
        actor,
        state.charter_basis.version,
        state.clock.now(),
        data,
    )
}

async fn append(state: &AppState, e: NewEvent<'_>) -> Result<(), ApiError> {
    state
        .store
        .charter_commit(CharterCommit {
            events: vec![e],
            ..CharterCommit::default()
        })
        .await?;
    Ok(())
}

fn to_json<T: serde::Serialize>(v: &T) -> Result<serde_json::Value, ApiError> {
    serde_json::to_value(v).map_err(|_| ApiError::Internal)
}

fn document_json(state: &AppState, d: &Document) -> serde_json::Value {
    json!({
        "id": d.id,
        "kind": d.kind,
        "number": d.number,
        "verification_code": d.verification_code,
        "verification_url": verification_url(&state.letterhead.public_url, &d.token),
        "sha256": d.sha256,
        "valid_until": d.valid_until,
        "pdf": format!("/api/v1/charter/documents/{}", d.id),
    })
}

// ----------------------------------------------------------------------------------------
// Companies
// ----------------------------------------------------------------------------------------

#[derive(Deserialize)]
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
pub async fn create_company(
    state: web::Data<AppState>,
    official: Official,
    body: web::Json<NewCompanyDto>,
) -> Reply {
    let dto = body.into_inner();
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
    let now = state.clock.now();
    let data = CompanyData {
        name,
        address,
        phone,
        email,
        modality: dto.modality,
        protocol,
        applied_on,
        operating_before_law: dto.operating_before_law,
        checklist: dto.checklist,
    };
    let id = Uuid::new_v4();
    let data_json = to_json(&data)?;
    let commit = CharterCommit {
        row: Some((
            CharterTable::Companies,
            CharterRow {
                id,
                company_id: None,
                key: cnpj.as_str().to_owned(),
                alt_key: None,
                data: data_json,
                created_at: now,
                created_by: official.actor.clone(),
            },
        )),
        events: vec![event(
            CharterTable::Companies,
            id,
            CharterAct::Registered.as_str(),
            &official.actor,
            &state,
            json!({ "cnpj": cnpj.as_str(), "name": data.name, "modality": data.modality, "protocol": data.protocol }),
        )],
        ..CharterCommit::default()
    };
    match state.store.charter_commit(commit).await {
        Err(StorageError::Conflict(_)) => {
            return Err(conflict("cnpj", "Empresa já cadastrada com este CNPJ."));
        }
        other => other?,
    }
    let company = reg::load_company(&state.store, id)
        .await?
        .ok_or(ApiError::Internal)?;
    Ok(HttpResponse::Created().json(company_json(&state, &company).await?))
}

async fn company_json(state: &AppState, c: &Company) -> Result<serde_json::Value, ApiError> {
    let now = state.clock.now();
    let today = local_date(now);
    let basis = &state.charter_basis;
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
            json!({ "id": v.id, "plate": v.plate.formatted(), "status": r.status })
        })
        .collect();
    let current = reg::current_termo(&termos, today);
    Ok(json!({
        "id": c.id,
        "cnpj": c.cnpj.formatted(),
        "name": c.data.name,
        "address": c.data.address,
        "phone": c.data.phone,
        "email": c.data.email,
        "modality": c.data.modality,
        "protocol": c.data.protocol,
        "applied_on": c.data.applied_on,
        "operating_before_law": c.data.operating_before_law,
        "status": status,
        "status_label": status.label_pt(),
        "suspended_until": suspended_until,
        "new_registration_from": barred_until,
        "termo": current.map(|t| json!({ "id": t.id, "number": t.number, "valid_from": t.data.valid_from, "valid_until": t.data.valid_until })),
        "termos": termos.iter().map(|t| json!({ "id": t.id, "number": t.number, "valid_from": t.data.valid_from, "valid_until": t.data.valid_until, "renews": t.data.renews })).collect::<Vec<_>>(),
        "checklist": c.data.checklist,
        "checklist_failures": checklist_failures.into_iter().map(ProblemItem::from).collect::<Vec<_>>(),
        "sanctions": c.sanctions,
        "vehicles": vehicles,
        "warnings": warnings,
        "legal_basis_version": basis.version,
        "created_at": c.created_at,
    }))
}

pub async fn get_company(state: web::Data<AppState>, _o: Official, id: web::Path<String>) -> Reply {
    let c = company_or_404(&state, &id).await?;
    Ok(HttpResponse::Ok().json(company_json(&state, &c).await?))
}

/// `POST /api/v1/charter/companies/{id}/checklist` (FRET-ART7, FRET-ART8-P2): files the
/// documents again (a renewal needs fresh proofs).
pub async fn file_checklist(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<CompanyChecklist>,
) -> Reply {
    let c = company_or_404(&state, &id).await?;
    let checklist = body.into_inner();
    append(
        &state,
        event(
            CharterTable::Companies,
            c.id,
            CharterAct::ChecklistFiled.as_str(),
            &official.actor,
            &state,
            to_json(&checklist)?,
        ),
    )
    .await?;
    let c = company_or_404(&state, &id).await?;
    Ok(HttpResponse::Ok().json(company_json(&state, &c).await?))
}

/// `POST /api/v1/charter/companies/{id}/termos` (FRET-ART8, §1º, §2º, AMB-55): grants or
/// renews the Termo de Autorização and issues its signed PDF.
pub async fn grant_termo(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
) -> Reply {
    let c = company_or_404(&state, &id).await?;
    let today = local_date(state.clock.now());
    let termos = reg::termos_of(&state.store, c.id).await?;
    let latest = termos
        .iter()
        .max_by_key(|t| t.data.valid_until)
        .map(|t| PriorTermo {
            number: t.number.clone(),
            valid_from: t.data.valid_from,
            valid_until: t.data.valid_until,
        });
    let decision = rules::decide_termo(
        &c.data.checklist,
        &c.cassations(),
        latest.as_ref(),
        today,
        &state.charter_basis,
    )
    .map_err(requirements)?;
    let (termo, doc) = issue::issue_termo(&state, &c, &decision, &official.actor)
        .await
        .map_err(ApiError::from)?;
    Ok(HttpResponse::Created().json(json!({
        "id": termo.id,
        "number": termo.number,
        "company_id": c.id,
        "modality": termo.data.modality,
        "valid_from": termo.data.valid_from,
        "valid_until": termo.data.valid_until,
        "renews": termo.data.renews,
        "legal_basis_version": termo.data.legal_basis_version,
        "document": document_json(&state, &doc),
    })))
}

#[derive(Deserialize)]
pub struct SanctionDto {
    kind: CompanySanctionKind,
    effective_from: String,
    #[serde(default)]
    until: Option<String>,
    article: String,
    reason: String,
}

/// `POST /api/v1/charter/companies/{id}/sanctions` (FRET-ART18, FRET-ART20): records a
/// sanction decided by the competent authority.
pub async fn apply_sanction(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<SanctionDto>,
) -> Reply {
    let c = company_or_404(&state, &id).await?;
    let dto = body.into_inner();
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
    let sanction = CompanySanction {
        kind: dto.kind,
        effective_from,
        until: until.filter(|_| dto.kind == CompanySanctionKind::Suspensao),
        article: dto.article.trim().to_owned(),
        reason,
    };
    let mut e = event(
        CharterTable::Companies,
        c.id,
        CharterAct::SanctionApplied.as_str(),
        &official.actor,
        &state,
        to_json(&sanction)?,
    );
    e.reason = Some(&sanction.reason);
    append(&state, e).await?;
    let c = company_or_404(&state, &id).await?;
    Ok(HttpResponse::Created().json(company_json(&state, &c).await?))
}

// ----------------------------------------------------------------------------------------
// Vehicles
// ----------------------------------------------------------------------------------------

#[derive(Deserialize)]
pub struct NewVehicleDto {
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
}

/// `POST /api/v1/charter/companies/{id}/vehicles` (FRET-ART10–13, FRET-ART24): enrols a
/// bus or minibus; every requirement of arts. 10–13 must hold on the filing day.
#[allow(clippy::too_many_lines)] // one filing: parse, rules, row, events, warning
pub async fn create_vehicle(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<NewVehicleDto>,
) -> Reply {
    let c = company_or_404(&state, &id).await?;
    let dto = body.into_inner();
    let mut f = Fields::default();
    let plate = f.take("plate", Plate::parse(&dto.plate), "Placa inválida.");
    let renavam = f.take("renavam", Renavam::parse(&dto.renavam), "RENAVAM inválido.");
    let make = f.text("make", &dto.make, 60);
    let model = f.text("model", &dto.model, 60);
    let itv = dto
        .itv_report_date
        .as_deref()
        .map(|d| f.date("itv_report_date", d));
    let (plate, renavam, make, model) = f.done(parsed!(plate, renavam, make, model))?;
    let itv = itv.flatten();
    let now = state.clock.now();
    let today = local_date(now);
    let basis = &state.charter_basis;
    let failures = rules::vehicle_requirements(
        &dto.facts,
        &c.cnpj,
        itv.filter(|d| *d <= today),
        today,
        basis,
    );
    if !failures.is_empty() {
        return Err(requirements(failures));
    }
    let vid = Uuid::new_v4();
    let data = VehicleData {
        make,
        model,
        facts: dto.facts,
    };
    let mut events = vec![event(
        CharterTable::Vehicles,
        vid,
        CharterAct::Registered.as_str(),
        &official.actor,
        &state,
        json!({ "company_id": c.id, "plate": plate.as_str(), "renavam": renavam.as_str() }),
    )];
    let itv_json = itv
        .map(|d| {
            to_json(&ItvReport {
                report_date: d,
                provider: dto.itv_provider.clone().unwrap_or_default(),
            })
        })
        .transpose()?;
    if let Some(j) = itv_json {
        events.push(event(
            CharterTable::Vehicles,
            vid,
            CharterAct::ItvReportFiled.as_str(),
            &official.actor,
            &state,
            j,
        ));
    }
    events.push(event(
        CharterTable::Companies,
        c.id,
        CharterAct::VehicleEnrolled.as_str(),
        &official.actor,
        &state,
        json!({ "vehicle_id": vid, "plate": plate.as_str() }),
    ));
    let commit = CharterCommit {
        row: Some((
            CharterTable::Vehicles,
            CharterRow {
                id: vid,
                company_id: Some(c.id),
                key: plate.as_str().to_owned(),
                alt_key: Some(renavam.as_str().to_owned()),
                data: to_json(&data)?,
                created_at: now,
                created_by: official.actor.clone(),
            },
        )),
        events,
        ..CharterCommit::default()
    };
    match state.store.charter_commit(commit).await {
        Err(StorageError::Conflict(field)) => {
            let field = if field == "renavam" {
                "renavam"
            } else {
                "plate"
            };
            return Err(conflict(field, "Veículo já cadastrado para fretamento."));
        }
        other => other?,
    }
    let cal = calendar(&state).await?;
    let transition = rules::transition_deadlines(basis, &cal, &state.deadline_rules);
    let warning = rules::late_transition_warning(
        c.data.operating_before_law,
        today,
        &transition.vehicle_enrolment,
        "FRET-ART26-P1",
        "art. 26, §1º",
        "Vistoria e cadastro de veículo de empresa que já operava",
    );
    let v = reg::load_vehicle(&state.store, vid)
        .await?
        .ok_or(ApiError::Internal)?;
    let mut body = vehicle_json(&state, &v, &c).await?;
    body["warnings"] = json!(
        warning
            .into_iter()
            .map(ProblemItem::from)
            .collect::<Vec<_>>()
    );
    Ok(HttpResponse::Created().json(body))
}

async fn vehicle_json(
    state: &AppState,
    v: &CharterVehicle,
    c: &Company,
) -> Result<serde_json::Value, ApiError> {
    let today = local_date(state.clock.now());
    let termos = reg::termos_of(&state.store, c.id).await?;
    let (report, company_status) =
        reg::vehicle_live_status(v, c, &termos, today, &state.charter_basis);
    let docs = state.store.documents_of_subject(v.id).await?;
    let may_operate =
        report.status == CharterStatus::Ativo && company_status == CharterStatus::Ativo;
    Ok(json!({
        "id": v.id,
        "company_id": c.id,
        "company": c.data.name,
        "company_status": company_status,
        "plate": v.plate.formatted(),
        "renavam": v.renavam,
        "make": v.make,
        "model": v.model,
        "facts": v.record.facts,
        "status": report.status,
        "status_label": report.status.label_pt(),
        "may_operate": may_operate,
        "service_life_until": report.service_life_until,
        "vistoria_valid_until": report.vistoria_valid_until,
        "itv_valid_until": report.itv_valid_until,
        "insurance_valid_to": report.insurance_valid_to,
        "irregularities": report.irregularities.into_iter().map(ProblemItem::from).collect::<Vec<_>>(),
        "vistorias": v.record.vistorias,
        "baixa": v.record.baixa,
        "selos": docs.iter().map(|d| document_json(state, d)).collect::<Vec<_>>(),
    }))
}

async fn vehicle_reply(state: &AppState, v: &CharterVehicle) -> Reply {
    let c = reg::load_company(&state.store, v.company_id)
        .await?
        .ok_or(ApiError::Internal)?;
    Ok(HttpResponse::Ok().json(vehicle_json(state, v, &c).await?))
}

pub async fn get_vehicle(state: web::Data<AppState>, _o: Official, id: web::Path<String>) -> Reply {
    let v = vehicle_or_404(&state, &id).await?;
    vehicle_reply(&state, &v).await
}

/// `GET /api/v1/charter/vehicles/by-plate/{plate}` (FRET-ART19-III): what an inspector
/// needs on the road: registration, vistoria and service-life status by plate.
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

#[derive(Deserialize)]
pub struct ItvDto {
    report_date: String,
    provider: String,
}

/// `POST /api/v1/charter/vehicles/{id}/itv` (FRET-ART12-IV): a new ITV report.
pub async fn file_itv(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<ItvDto>,
) -> Reply {
    let v = vehicle_or_404(&state, &id).await?;
    let mut f = Fields::default();
    let day = f.date("report_date", &body.report_date);
    let provider = f.text("provider", &body.provider, 200);
    if day.is_some_and(|d| d > local_date(state.clock.now())) {
        f.take::<(), ()>("report_date", Err(()), "O laudo não pode ter data futura.");
    }
    let (report_date, provider) = f.done(parsed!(day, provider))?;
    let data = to_json(&ItvReport {
        report_date,
        provider,
    })?;
    append(
        &state,
        event(
            CharterTable::Vehicles,
            v.id,
            CharterAct::ItvReportFiled.as_str(),
            &official.actor,
            &state,
            data,
        ),
    )
    .await?;
    let v = vehicle_or_404(&state, &id).await?;
    vehicle_reply(&state, &v).await
}

/// `POST /api/v1/charter/vehicles/{id}/documents` (FRET-ART12-II/III): a new CRLV year or
/// insurance policy.
pub async fn file_vehicle_documents(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<VehicleDocuments>,
) -> Reply {
    let v = vehicle_or_404(&state, &id).await?;
    let docs = body.into_inner();
    if docs
        .insurance
        .as_ref()
        .is_some_and(|i| i.valid_to < i.valid_from)
    {
        return Err(ApiError::Invalid(vec![ProblemItem::field(
            "insurance",
            "A vigência do seguro termina antes de começar.",
        )]));
    }
    append(
        &state,
        event(
            CharterTable::Vehicles,
            v.id,
            CharterAct::VehicleDocumentsFiled.as_str(),
            &official.actor,
            &state,
            to_json(&docs)?,
        ),
    )
    .await?;
    let v = vehicle_or_404(&state, &id).await?;
    vehicle_reply(&state, &v).await
}

#[derive(Deserialize)]
pub struct VistoriaDto {
    performed_on: String,
    approved: bool,
    inspector: String,
    #[serde(default)]
    notes: String,
}

/// `POST /api/v1/charter/vehicles/{id}/vistorias` (FRET-ART13, §1º): records a municipal
/// vistoria; an approved one issues the selo de vistoria, in the same transaction.
pub async fn record_vistoria(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<VistoriaDto>,
) -> Reply {
    let v = vehicle_or_404(&state, &id).await?;
    let dto = body.into_inner();
    let today = local_date(state.clock.now());
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
    let c = reg::load_company(&state.store, v.company_id)
        .await?
        .ok_or(ApiError::Internal)?;
    let vistoria = Vistoria {
        performed_on,
        approved: dto.approved,
        inspector,
        notes: dto.notes,
    };
    if let Some(failure) = rules::fret_art13_p5_no_vistoria_after_baixa(v.record.baixa.is_some()) {
        return Err(requirements(vec![failure]));
    }
    if !vistoria.approved {
        append(
            &state,
            event(
                CharterTable::Vehicles,
                v.id,
                CharterAct::VistoriaRecorded.as_str(),
                &official.actor,
                &state,
                to_json(&vistoria)?,
            ),
        )
        .await?;
        let v = vehicle_or_404(&state, &id).await?;
        let mut body = vehicle_json(&state, &v, &c).await?;
        body["selo"] = serde_json::Value::Null;
        return Ok(HttpResponse::Created().json(body));
    }
    // An approved vistoria certifies that arts. 10–13 hold on that day.
    let failures = rules::vehicle_requirements(
        &v.record.facts,
        &c.cnpj,
        v.record.last_itv(performed_on),
        performed_on,
        &state.charter_basis,
    );
    if !failures.is_empty() {
        return Err(requirements(failures));
    }
    let doc = issue::issue_selo(&state, &c, &v, &vistoria, &official.actor)
        .await
        .map_err(ApiError::from)?;
    let v = vehicle_or_404(&state, &id).await?;
    let mut body = vehicle_json(&state, &v, &c).await?;
    body["selo"] = document_json(&state, &doc);
    Ok(HttpResponse::Created().json(body))
}

/// `POST /api/v1/charter/vehicles/{id}/baixa` (FRET-ART13-P5, FRET-ART24).
pub async fn baixa_vehicle(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<Baixa>,
) -> Reply {
    let v = vehicle_or_404(&state, &id).await?;
    if v.record.baixa.is_some() {
        return Err(ApiError::Conflict(
            "Veículo já baixado.".into(),
            vec![ProblemItem::field("vehicle", "A baixa já foi registrada.")],
        ));
    }
    let baixa = body.into_inner();
    let mut failures = Vec::new();
    rules::fret_art13_p5_baixa(&baixa, &mut failures);
    if !failures.is_empty() {
        return Err(requirements(failures));
    }
    append(
        &state,
        event(
            CharterTable::Vehicles,
            v.id,
            CharterAct::Baixa.as_str(),
            &official.actor,
            &state,
            to_json(&baixa)?,
        ),
    )
    .await?;
    let v = vehicle_or_404(&state, &id).await?;
    vehicle_reply(&state, &v).await
}

#[derive(Deserialize)]
pub struct SubstitutionDto {
    replaced_vehicle_id: String,
    substitute_vehicle_id: String,
    reason: SubstitutionReason,
    authorized_from: String,
    authorized_to: String,
    decision: String,
}

/// `POST /api/v1/charter/companies/{id}/substitutions` (FRET-ART14, AMB-48): a temporary,
/// revocable replacement of a vehicle made unusable by accident, theft or damage.
pub async fn authorize_substitution(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<SubstitutionDto>,
) -> Reply {
    let c = company_or_404(&state, &id).await?;
    let dto = body.into_inner();
    let mut f = Fields::default();
    let replaced = f.uuid("replaced_vehicle_id", &dto.replaced_vehicle_id);
    let substitute = f.uuid("substitute_vehicle_id", &dto.substitute_vehicle_id);
    let from = f.date("authorized_from", &dto.authorized_from);
    let to = f.date("authorized_to", &dto.authorized_to);
    let decision = f.text("decision", &dto.decision, 200);
    let (replaced, substitute, from, to, decision) =
        f.done(parsed!(replaced, substitute, from, to, decision))?;
    let replaced_v = reg::load_vehicle(&state.store, replaced)
        .await?
        .filter(|v| v.company_id == c.id)
        .ok_or_else(|| not_found("Veículo substituído desta empresa"))?;
    let sub = reg::load_vehicle(&state.store, substitute)
        .await?
        .ok_or_else(|| not_found("Veículo substituto"))?;
    let owner = reg::load_company(&state.store, sub.company_id)
        .await?
        .ok_or(ApiError::Internal)?;
    let sub_failures = rules::vehicle_requirements(
        &sub.record.facts,
        &owner.cnpj,
        sub.record.last_itv(from),
        from,
        &state.charter_basis,
    );
    let mut failures = Vec::new();
    rules::fret_art14_substitution(from, to, &sub_failures, &mut failures);
    if !failures.is_empty() {
        return Err(requirements(failures));
    }
    let data = json!({
        "replaced_vehicle_id": replaced_v.id,
        "replaced_plate": replaced_v.plate.as_str(),
        "substitute_vehicle_id": sub.id,
        "substitute_plate": sub.plate.as_str(),
        "reason": dto.reason,
        "authorized_from": from,
        "authorized_to": to,
        "decision": decision,
    });
    append(
        &state,
        event(
            CharterTable::Companies,
            c.id,
            CharterAct::SubstitutionAuthorized.as_str(),
            &official.actor,
            &state,
            data.clone(),
        ),
    )
    .await?;
    Ok(HttpResponse::Created().json(data))
}

// ----------------------------------------------------------------------------------------
// Drivers
// ----------------------------------------------------------------------------------------

#[derive(Deserialize)]
pub struct NewDriverDto {
    name: String,
    cpf: String,
    cnh_number: String,
    #[serde(flatten)]
    facts: CharterDriverFacts,
}

/// `POST /api/v1/charter/companies/{id}/drivers` (FRET-ART15, FRET-ART24).
pub async fn create_driver(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<NewDriverDto>,
) -> Reply {
    let c = company_or_404(&state, &id).await?;
    let dto = body.into_inner();
    let mut f = Fields::default();
    let name = f.text("name", &dto.name, 200);
    let cpf = f.take("cpf", Cpf::parse(&dto.cpf), "CPF inválido.");
    let cnh = f.take(
        "cnh_number",
        CnhNumber::parse(&dto.cnh_number),
        "Número de registro da CNH inválido.",
    );
    let (name, cpf, cnh) = f.done(parsed!(name, cpf, cnh))?;
    let now = state.clock.now();
    let failures = rules::driver_requirements(&dto.facts, local_date(now), &state.charter_basis);
    if !failures.is_empty() {
        return Err(requirements(failures));
    }
    let did = Uuid::new_v4();
    let data = DriverData {
        name,
        cnh_number: cnh.as_str().to_owned(),
        facts: dto.facts,
    };
    let commit = CharterCommit {
        row: Some((
            CharterTable::Drivers,
            CharterRow {
                id: did,
                company_id: Some(c.id),
                key: cpf.as_str().to_owned(),
                alt_key: None,
                data: to_json(&data)?,
                created_at: now,
                created_by: official.actor.clone(),
            },
        )),
        events: vec![
            event(
                CharterTable::Drivers,
                did,
                CharterAct::Registered.as_str(),
                &official.actor,
                &state,
                json!({ "company_id": c.id }),
            ),
            event(
                CharterTable::Companies,
                c.id,
                CharterAct::DriverEnrolled.as_str(),
                &official.actor,
                &state,
                json!({ "driver_id": did }),
            ),
        ],
        ..CharterCommit::default()
    };
    match state.store.charter_commit(commit).await {
        Err(StorageError::Conflict(_)) => {
            return Err(conflict("cpf", "Condutor já cadastrado nesta empresa."));
        }
        other => other?,
    }
    driver_reply(&state, did, StatusCodeKind::Created).await
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
        &state.charter_basis,
    );
    let cpf = Cpf::parse(&d.cpf).map_err(|_| ApiError::Internal)?;
    let body = json!({
        "id": d.id,
        "company_id": d.company_id,
        "name": d.data.name,
        "cpf": cpf.formatted(),
        "cnh_number": d.data.cnh_number,
        "facts": d.data.facts,
        "status": status,
        "status_label": status.label_pt(),
        "deregistered_on": d.deregistered_on,
        "irregularities": failures.into_iter().map(ProblemItem::from).collect::<Vec<_>>(),
    });
    Ok(match code {
        StatusCodeKind::Ok => HttpResponse::Ok().json(body),
        StatusCodeKind::Created => HttpResponse::Created().json(body),
    })
}

pub async fn get_driver(state: web::Data<AppState>, _o: Official, id: web::Path<String>) -> Reply {
    driver_reply(&state, path_id(&id, "Condutor")?, StatusCodeKind::Ok).await
}

/// `POST /api/v1/charter/drivers/{id}/documents` (FRET-ART9, FRET-ART15): updated documents.
pub async fn file_driver_documents(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<CharterDriverFacts>,
) -> Reply {
    let did = path_id(&id, "Condutor")?;
    reg::load_driver(&state.store, did)
        .await?
        .ok_or_else(|| not_found("Condutor"))?;
    append(
        &state,
        event(
            CharterTable::Drivers,
            did,
            CharterAct::DriverDocumentsFiled.as_str(),
            &official.actor,
            &state,
            to_json(&body.into_inner())?,
        ),
    )
    .await?;
    driver_reply(&state, did, StatusCodeKind::Ok).await
}

/// `POST /api/v1/charter/drivers/{id}/baixa` (FRET-ART24).
pub async fn baixa_driver(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<DriverBaixa>,
) -> Reply {
    let did = path_id(&id, "Condutor")?;
    let d = reg::load_driver(&state.store, did)
        .await?
        .ok_or_else(|| not_found("Condutor"))?;
    if d.deregistered_on.is_some() {
        return Err(ApiError::Conflict(
            "Condutor já baixado.".into(),
            vec![ProblemItem::field("driver", "A baixa já foi registrada.")],
        ));
    }
    append(
        &state,
        event(
            CharterTable::Drivers,
            did,
            CharterAct::Baixa.as_str(),
            &official.actor,
            &state,
            to_json(&body.into_inner())?,
        ),
    )
    .await?;
    driver_reply(&state, did, StatusCodeKind::Ok).await
}

// ----------------------------------------------------------------------------------------
// Contracts and trips
// ----------------------------------------------------------------------------------------

async fn listed_vehicles(
    state: &AppState,
    c: &Company,
    plates: &[String],
    on: NaiveDate,
) -> Result<Vec<ListedVehicle>, ApiError> {
    let mut out = Vec::new();
    for raw in plates {
        let found = match Plate::parse(raw) {
            Ok(p) => reg::vehicle_by_plate(&state.store, &p)
                .await?
                .filter(|v| v.company_id == c.id)
                .map(|v| {
                    let r = rules::vehicle_status(&v.record, &c.cnpj, on, &state.charter_basis);
                    (r.status, v.record.facts.seated_capacity)
                }),
            Err(_) => None,
        };
        out.push(ListedVehicle {
            plate: raw.clone(),
            found,
        });
    }
    Ok(out)
}

/// `POST /api/v1/charter/companies/{id}/contracts` (FRET-ART1-PU, FRET-ART2, FRET-ART3,
/// FRET-ART5, FRET-ART8-P3, FRET-ART10-PU, FRET-ART28).
pub async fn create_contract(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<ContractFacts>,
) -> Reply {
    let c = company_or_404(&state, &id).await?;
    let contract = body.into_inner();
    let now = state.clock.now();
    let today = local_date(now);
    let termos = reg::termos_of(&state.store, c.id).await?;
    let mut failures: Vec<RuleFailure> =
        rules::fret_art2_i_authorized_company(reg::company_status(&c, &termos, today).0)
            .into_iter()
            .collect();
    let listed = listed_vehicles(&state, &c, &contract.vehicle_plates, today).await?;
    let review = rules::contract_requirements(&contract, &listed, &mut failures);
    if !failures.is_empty() {
        return Err(requirements(failures));
    }
    let cal = calendar(&state).await?;
    let (notice_due, late) = rules::fret_art3_notice(
        contract.signed_on,
        contract.communicated_on,
        &cal,
        &state.deadline_rules,
        &state.charter_basis,
    );
    let cid = Uuid::new_v4();
    let commit = CharterCommit {
        row: Some((
            CharterTable::Contracts,
            CharterRow {
                id: cid,
                company_id: Some(c.id),
                key: cid.to_string(),
                alt_key: None,
                data: to_json(&contract)?,
                created_at: now,
                created_by: official.actor.clone(),
            },
        )),
        events: vec![event(
            CharterTable::Contracts,
            cid,
            CharterAct::Registered.as_str(),
            &official.actor,
            &state,
            json!({ "company_id": c.id, "kind": contract.kind, "late_notice": late.is_some(), "manual_review": review }),
        )],
        ..CharterCommit::default()
    };
    state.store.charter_commit(commit).await?;
    Ok(HttpResponse::Created().json(json!({
        "id": cid,
        "company_id": c.id,
        "kind": contract.kind,
        "notice_due": notice_due,
        "warnings": late.into_iter().map(ProblemItem::from).collect::<Vec<_>>(),
        "manual_review": review,
        "legal_basis_version": state.charter_basis.version,
    })))
}

async fn contract_or_404(
    state: &AppState,
    raw: &str,
) -> Result<(CharterRow, ContractFacts), ApiError> {
    let id = path_id(raw, "Contrato")?;
    let row = state
        .store
        .charter_get(CharterTable::Contracts, id)
        .await?
        .ok_or_else(|| not_found("Contrato"))?;
    let facts: ContractFacts =
        serde_json::from_value(row.data.clone()).map_err(|_| ApiError::Internal)?;
    Ok((row, facts))
}

#[derive(Deserialize)]
pub struct ContractEndDto {
    ended_on: String,
    communicated_on: String,
}

/// `POST /api/v1/charter/contracts/{id}/end` (FRET-ART3: notice within 15 days of the end).
pub async fn end_contract(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<ContractEndDto>,
) -> Reply {
    let (row, _) = contract_or_404(&state, &id).await?;
    let mut f = Fields::default();
    let ended = f.date("ended_on", &body.ended_on);
    let communicated = f.date("communicated_on", &body.communicated_on);
    let (ended_on, communicated_on) = f.done(parsed!(ended, communicated))?;
    let cal = calendar(&state).await?;
    let (due, late) = rules::fret_art3_notice(
        ended_on,
        communicated_on,
        &cal,
        &state.deadline_rules,
        &state.charter_basis,
    );
    let data = json!({ "ended_on": ended_on, "communicated_on": communicated_on, "late_notice": late.is_some() });
    append(
        &state,
        event(
            CharterTable::Contracts,
            row.id,
            CharterAct::ContractEnded.as_str(),
            &official.actor,
            &state,
            data,
        ),
    )
    .await?;
    Ok(HttpResponse::Ok().json(json!({
        "id": row.id,
        "ended_on": ended_on,
        "notice_due": due,
        "warnings": late.into_iter().map(ProblemItem::from).collect::<Vec<_>>(),
    })))
}

#[derive(Deserialize)]
pub struct TripDto {
    date: String,
    vehicle_plate: String,
    passengers: Vec<Passenger>,
    /// `ida` (default) or `volta`: the return of the group that went (art. 2º, III).
    #[serde(default)]
    leg: Option<rules::TripLeg>,
}

/// The trips filed on a contract, in the order filed.
async fn filed_trips(
    state: &AppState,
    contract_id: Uuid,
) -> Result<Vec<rules::FiledTrip>, ApiError> {
    let events = state
        .store
        .charter_events(CharterTable::Contracts, contract_id)
        .await?;
    Ok(events
        .iter()
        .filter(|e| e.kind == CharterAct::TripManifestFiled.as_str())
        .filter_map(|e| serde_json::from_str(&e.data).ok())
        .collect())
}

/// `POST /api/v1/charter/contracts/{id}/trips` (FRET-ART1-PU-III, FRET-ART2, FRET-ART10-PU):
/// the passenger list of one trip, in one registered, regular vehicle of the contract; a
/// return (`"leg":"volta"`) carries the group that went in the vehicle that took it (FRET-ART2-III).
pub async fn file_trip(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<TripDto>,
) -> Reply {
    let (row, contract) = contract_or_404(&state, &id).await?;
    let dto = body.into_inner();
    let mut f = Fields::default();
    let trip_day = f.date("date", &dto.date);
    let plate = f.take(
        "vehicle_plate",
        Plate::parse(&dto.vehicle_plate),
        "Placa inválida.",
    );
    let (trip_day, plate) = f.done(parsed!(trip_day, plate))?;
    let company_id = row.company_id.ok_or(ApiError::Internal)?;
    let c = reg::load_company(&state.store, company_id)
        .await?
        .ok_or(ApiError::Internal)?;
    let mut failures = Vec::new();
    rules::fret_trip_in_contract(&contract, trip_day, &plate, &mut failures);
    let listed = listed_vehicles(&state, &c, &[plate.as_str().to_owned()], trip_day).await?;
    let trip = ContractFacts {
        passengers: dto.passengers.clone(),
        vehicle_plates: vec![plate.as_str().to_owned()],
        ..contract
    };
    // The trip's own list against this one vehicle: status on the day, CPFs, seats.
    let review = rules::contract_requirements(&trip, &listed, &mut failures);
    failures.retain(|f| {
        matches!(
            f.rule,
            "FRET-ART8-P3" | "FRET-ART10-PU" | "FRET-ART1-PU-III"
        )
    });
    let leg = dto.leg.unwrap_or(rules::TripLeg::Ida);
    let group = rules::passenger_group(&dto.passengers);
    if leg == rules::TripLeg::Volta {
        let earlier = filed_trips(&state, row.id).await?;
        let outbound = rules::outbound_of(&earlier, trip_day);
        rules::fret_art2_iii_closed_circuit(
            outbound.map(|t| {
                (
                    t.vehicle_plate.as_str(),
                    t.group.as_deref().unwrap_or_default(),
                )
            }),
            plate.as_str(),
            &group,
            &mut failures,
        );
    }
    if !failures.is_empty() {
        return Err(requirements(failures));
    }
    let data = json!({ "date": trip_day, "leg": leg, "vehicle_plate": plate.as_str(), "passengers": dto.passengers.len(), "group": group, "manual_review": review });
    append(
        &state,
        event(
            CharterTable::Contracts,
            row.id,
            CharterAct::TripManifestFiled.as_str(),
            &official.actor,
            &state,
            data.clone(),
        ),
    )
    .await?;
    Ok(HttpResponse::Created().json(data))
}

// ----------------------------------------------------------------------------------------
// Autos de infração and their procedure
// ----------------------------------------------------------------------------------------

#[derive(Deserialize)]
pub struct NewAutoDto {
    infraction: String,
    committed_on: String,
    place: String,
    facts: String,
    inspector: String,
    #[serde(default)]
    vehicle_plate: Option<String>,
}

async fn auto_views(state: &AppState, company_id: Uuid) -> Result<Vec<AutoView>, ApiError> {
    let cal = calendar(state).await?;
    Ok(reg::company_autos(
        &state.store,
        company_id,
        local_date(state.clock.now()),
        &cal,
        &state.deadline_rules,
        &state.charter_basis,
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
    let mut body = to_json(&view)?;
    body["article"] = json!(infraction.map(|i| i.article));
    body["description"] = json!(infraction.map(|i| i.description));
    body["fine_centavos"] = json!(centavos);
    body["fine_brl"] = json!(centavos.map(crate::documents::format::money));
    body["fine_in_words"] = json!(centavos.map(crate::documents::format::money_in_words));
    body["upf_year"] = json!(year);
    Ok(if created {
        HttpResponse::Created().json(body)
    } else {
        HttpResponse::Ok().json(body)
    })
}

/// `POST /api/v1/charter/companies/{id}/autos` (FRET-ART19, FRET-ART19-PU, FRET-ART20-IV,
/// FRET-ART21): draws up an auto; the fine follows recidivism.
pub async fn create_auto(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<NewAutoDto>,
) -> Reply {
    let c = company_or_404(&state, &id).await?;
    let dto = body.into_inner();
    let now = state.clock.now();
    let today = local_date(now);
    let mut f = Fields::default();
    let infraction = f.take(
        "infraction",
        charter_infraction(dto.infraction.trim()).ok_or(()),
        "Infração desconhecida: use FRET-ART19-I a FRET-ART19-VI.",
    );
    let committed_on = f.date("committed_on", &dto.committed_on);
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
    let (infraction, committed_on, place, facts, inspector) =
        f.done(parsed!(infraction, committed_on, place, facts, inspector))?;
    let auto = NewAuto {
        infraction: infraction.id,
        committed_on,
        place,
        facts,
        inspector,
        vehicle_plate: vehicle_plate.flatten(),
    };
    let aid = issue::draw_up_auto(&state, c.id, auto, &official.actor).await?;
    auto_reply(&state, c.id, aid, true).await
}

async fn auto_row(state: &AppState, raw: &str) -> Result<CharterRow, ApiError> {
    let id = path_id(raw, "Auto de infração")?;
    state
        .store
        .charter_get(CharterTable::Autos, id)
        .await?
        .ok_or_else(|| not_found("Auto de infração"))
}

pub async fn get_auto(state: web::Data<AppState>, _o: Official, id: web::Path<String>) -> Reply {
    let row = auto_row(&state, &id).await?;
    auto_reply(
        &state,
        row.company_id.ok_or(ApiError::Internal)?,
        row.id,
        false,
    )
    .await
}

/// `POST /api/v1/charter/autos/{id}/acts` (FRET-ART22, §§1º–3º, FRET-ART23): notification,
/// defence, decision, reconsideration to the Mayor and the Mayor's decision, in order.
pub async fn procedure_act(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
    body: web::Json<ProcedureAct>,
) -> Reply {
    let row = auto_row(&state, &id).await?;
    let company_id = row.company_id.ok_or(ApiError::Internal)?;
    let act = body.into_inner();
    let views = auto_views(&state, company_id).await?;
    let view = views
        .iter()
        .find(|v| v.id == row.id)
        .ok_or(ApiError::Internal)?;
    let p = &view.procedure;
    let today = local_date(state.clock.now());
    if let Err(message) = check_act_order(p, &act, view.data.committed_on, today) {
        return Err(ApiError::Conflict(
            "Ato fora da ordem do procedimento.".into(),
            vec![ProblemItem::field("act", message)],
        ));
    }
    let annuls = matches!(
        act,
        ProcedureAct::Decisao {
            outcome: Outcome::Anulado,
            ..
        } | ProcedureAct::DecisaoPrefeito {
            outcome: Outcome::Anulado,
            ..
        }
    );
    append(
        &state,
        event(
            CharterTable::Autos,
            row.id,
            CharterAct::ProcedureAct.as_str(),
            &official.actor,
            &state,
            to_json(&act)?,
        ),
    )
    .await?;
    if annuls {
        // AMB-29: later autos of the company are recalculated on read.
        tracing::info!(auto = %row.key, "charter auto annulled; recidivism recalculated");
    }
    auto_reply(&state, company_id, row.id, false).await
}

/// `POST /api/v1/charter/autos/{id}/notice` (FRET-ART19–23, APP-ART19): issues the signed
/// Auto de Infração e Notificação, two copies, every deadline dated.
pub async fn issue_notice(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
) -> Reply {
    let row = auto_row(&state, &id).await?;
    let company_id = row.company_id.ok_or(ApiError::Internal)?;
    let c = reg::load_company(&state.store, company_id)
        .await?
        .ok_or(ApiError::Internal)?;
    let views = auto_views(&state, company_id).await?;
    let view = views
        .iter()
        .find(|v| v.id == row.id)
        .ok_or(ApiError::Internal)?;
    let year = chrono::Datelike::year(&local_date(view.data.drawn_up_at));
    let upf = state.store.upf_value(year).await?;
    let doc = issue::issue_auto_notice(&state, &c, view, upf, &official.actor)
        .await
        .map_err(ApiError::from)?;
    Ok(HttpResponse::Created().json(document_json(&state, &doc)))
}

#[derive(Deserialize)]
pub struct CertidaoDto {
    subject: String,
    id: String,
    protocol: String,
}

/// `POST /api/v1/charter/certidoes` (FRET-ART25): the certidão de situação cadastral of a
/// vehicle or a driver, on a petition filed at the protocol.
pub async fn issue_certidao(
    state: web::Data<AppState>,
    official: Official,
    body: web::Json<CertidaoDto>,
) -> Reply {
    let dto = body.into_inner();
    let mut f = Fields::default();
    let id = f.uuid("id", &dto.id);
    let protocol = f.text("protocol", &dto.protocol, 60);
    if !matches!(dto.subject.as_str(), "vehicle" | "driver") {
        f.take::<(), ()>("subject", Err(()), "Use \"vehicle\" ou \"driver\".");
    }
    let (id, protocol) = f.done(parsed!(id, protocol))?;
    let subject = reg::certidao_subject(&state.store, &dto.subject, id)
        .await?
        .ok_or_else(|| not_found("Registro"))?;
    let c = reg::load_company(&state.store, subject.company_id())
        .await?
        .ok_or(ApiError::Internal)?;
    let doc = issue::issue_certidao(&state, &subject, &c, &protocol, &official.actor)
        .await
        .map_err(ApiError::from)?;
    let mut body = document_json(&state, &doc);
    body["facts"] = doc.facts.clone().unwrap_or_default();
    Ok(HttpResponse::Created().json(body))
}

/// `GET /api/v1/charter/autos?company_id=…`: every auto of a company with its current fine.
#[derive(Deserialize)]
pub struct AutosQuery {
    company_id: String,
}

pub async fn list_autos(
    state: web::Data<AppState>,
    _o: Official,
    q: web::Query<AutosQuery>,
) -> Reply {
    let c = company_or_404(&state, &q.company_id).await?;
    let views = auto_views(&state, c.id).await?;
    Ok(HttpResponse::Ok().json(json!({ "company_id": c.id, "autos": views })))
}

/// `GET /api/v1/charter/infractions`: the art. 19 catalogue with the fine in force.
pub async fn infractions(state: web::Data<AppState>) -> Reply {
    let b = &state.charter_basis;
    Ok(HttpResponse::Ok().json(json!({
        "legal_basis_version": b.version,
        "fine_upf": b.fine_upf,
        "recidivism_fine_upf": b.fine_upf * b.recidivism_multiplier,
        "recidivism_window_months": b.recidivism_window_months,
        "infractions": CHARTER_INFRACTIONS,
    })))
}

/// `GET /api/v1/charter/transition` (FRET-ART26, §1º): the transitional deadlines.
pub async fn transition(state: web::Data<AppState>) -> Reply {
    let cal = calendar(&state).await?;
    Ok(HttpResponse::Ok().json(rules::transition_deadlines(
        &state.charter_basis,
        &cal,
        &state.deadline_rules,
    )))
}

/// `GET /api/v1/charter/documents/{id}`: the signed PDF.
pub async fn document_pdf(
    state: web::Data<AppState>,
    _o: Official,
    id: web::Path<String>,
) -> Reply {
    let id = path_id(&id, "Documento")?;
    // Every document of the register but the ride-hailing authorization and sticker, which
    // are served under `/api/v1/documents/{id}`.
    state
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

/// `GET /api/v1/charter/{entity}/{id}/history`: the append-only events of an entity.
pub async fn history(
    state: web::Data<AppState>,
    _o: Official,
    path: web::Path<(String, String)>,
) -> Reply {
    let (entity, raw) = path.into_inner();
    let table = match entity.as_str() {
        "companies" => CharterTable::Companies,
        "vehicles" => CharterTable::Vehicles,
        "drivers" => CharterTable::Drivers,
        "contracts" => CharterTable::Contracts,
        "termos" => CharterTable::Termos,
        "autos" => CharterTable::Autos,
        _ => return Err(not_found("Registro")),
    };
    super::history::history(&state, table.entity_type(), &raw).await
}
