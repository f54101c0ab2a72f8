//! Use cases of the charter register (Lei 4.937/2025): load each entity (its row, with its
//! later acts folded in), issue the Termo de Autorização and the selo de vistoria, and the
//! live status that verification shows. The rules themselves are in `domain::charter`.

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;
use uuid::Uuid;

use crate::documents::{A4_QR_MM, STICKER_QR_MM, format};
use crate::domain::calendar::{Calendar, DeadlineRules};
use crate::domain::charter::{
    CharterDriverFacts, CharterStatus, CharterVehicleFacts, CompanyChecklist, CompanySanction,
    CompanySanctionKind, Insurance, Modality, TermoDecision, VehicleRecord, VehicleStatusReport,
    Vistoria, termo_status, vehicle_status, vistoria_valid_until,
};
use crate::domain::charter_sanctions::{
    AutoFacts, FineAssessment, ProcedureAct, ProcedureState, assess_fines, procedure_state,
};
use crate::domain::dates::local_date;
use crate::domain::ids::{Cnpj, Plate};
use crate::domain::legal_basis::CharterLegalBasis;
use crate::issuance::{GrantError, mark, render_signed};
use crate::signing::token::TokenPayload;
use crate::state::AppState;
use crate::storage::charter::{
    CharterCommit, CharterDocument, CharterEvent, CharterRow, CharterTable,
};
use crate::storage::{Event, Repository, StorageError, Store};

/// Series of Termo numbers (`FRET-2025/000001`), selos and autos.
pub const TERMO_SERIES: &str = "FRET";
pub const SELO_SERIES: &str = "SELO";
pub const AUTO_SERIES: &str = "AIF";
/// Who issues charter documents: Secretaria de Infraestrutura e Serviços (FRET-ART8, 13).
pub const CHARTER_ISSUER: &str = "BDG-SIS";

/// Event kinds of the charter register.
pub mod acts {
    pub const REGISTERED: &str = "registered";
    pub const CHECKLIST: &str = "checklist_filed";
    pub const SANCTION: &str = "sanction_applied";
    pub const TERMO: &str = "termo_granted";
    pub const ITV: &str = "itv_report_filed";
    pub const VEHICLE_DOCUMENTS: &str = "vehicle_documents_filed";
    pub const VISTORIA: &str = "vistoria_recorded";
    pub const BAIXA: &str = "baixa";
    pub const SUBSTITUTION: &str = "substitution_authorized";
    pub const DRIVER_DOCUMENTS: &str = "driver_documents_filed";
    pub const CONTRACT_END: &str = "contract_ended";
    pub const TRIP: &str = "trip_manifest_filed";
    pub const PROCEDURE: &str = "procedure_act";
}

fn corrupt(what: &str, id: Uuid) -> StorageError {
    StorageError::Corrupt(format!("{what} in charter row {id}"))
}

fn parse<T: for<'de> Deserialize<'de>>(v: &serde_json::Value, id: Uuid) -> Result<T, StorageError> {
    serde_json::from_value(v.clone()).map_err(|_| corrupt("data", id))
}

fn event_data<T: for<'de> Deserialize<'de>>(e: &Event, id: Uuid) -> Result<T, StorageError> {
    serde_json::from_str(&e.data).map_err(|_| corrupt(e.kind.as_str(), id))
}

// ---------------------------------------------------------------------------------------
// Companies and Termos
// ---------------------------------------------------------------------------------------

/// A company's filing (art. 7 caput: the SIS form and protocol).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CompanyData {
    pub name: String,
    pub address: String,
    pub phone: String,
    pub email: String,
    pub modality: Modality,
    pub protocol: String,
    pub applied_on: NaiveDate,
    /// Already operating when the law was published (art. 26).
    pub operating_before_law: bool,
    pub checklist: CompanyChecklist,
}

#[derive(Debug, Clone)]
pub struct Company {
    pub id: Uuid,
    pub cnpj: Cnpj,
    /// The filing, with the latest checklist.
    pub data: CompanyData,
    pub sanctions: Vec<CompanySanction>,
    pub created_at: DateTime<Utc>,
}

impl Company {
    pub fn cassations(&self) -> Vec<NaiveDate> {
        self.sanctions
            .iter()
            .filter(|s| s.kind == CompanySanctionKind::Cassacao)
            .map(|s| s.effective_from)
            .collect()
    }
}

pub async fn load_company(store: &Store, id: Uuid) -> Result<Option<Company>, StorageError> {
    let Some(row) = store.charter_get(CharterTable::Companies, id).await? else {
        return Ok(None);
    };
    let mut data: CompanyData = parse(&row.data, id)?;
    let cnpj = Cnpj::parse(&row.key).map_err(|_| corrupt("cnpj", id))?;
    let mut sanctions = Vec::new();
    for e in store.charter_events(CharterTable::Companies, id).await? {
        match e.kind.as_str() {
            acts::CHECKLIST => data.checklist = event_data(&e, id)?,
            acts::SANCTION => sanctions.push(event_data(&e, id)?),
            _ => {}
        }
    }
    Ok(Some(Company {
        id,
        cnpj,
        data,
        sanctions,
        created_at: row.created_at,
    }))
}

/// A Termo de Autorização as granted (FRET-ART8).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TermoData {
    pub modality: Modality,
    pub issued_on: NaiveDate,
    pub valid_from: NaiveDate,
    pub valid_until: NaiveDate,
    pub renews: Option<String>,
    pub legal_basis_version: String,
}

#[derive(Debug, Clone)]
pub struct Termo {
    pub id: Uuid,
    pub number: String,
    pub data: TermoData,
}

pub async fn termos_of(store: &Store, company_id: Uuid) -> Result<Vec<Termo>, StorageError> {
    store
        .charter_of_company(CharterTable::Termos, company_id)
        .await?
        .into_iter()
        .map(|r| {
            Ok(Termo {
                id: r.id,
                data: parse(&r.data, r.id)?,
                number: r.key,
            })
        })
        .collect()
}

/// The Termo that covers `today`, else the latest one.
pub fn current_termo(termos: &[Termo], today: NaiveDate) -> Option<&Termo> {
    termos
        .iter()
        .find(|t| t.data.valid_from <= today && today <= t.data.valid_until)
        .or_else(|| termos.iter().max_by_key(|t| t.data.valid_until))
}

/// Status of a company on `today` (FRET-ART8-P1, FRET-ART18, FRET-ART20).
pub fn company_status(
    company: &Company,
    termos: &[Termo],
    today: NaiveDate,
) -> (CharterStatus, Option<NaiveDate>) {
    match current_termo(termos, today) {
        Some(t) => termo_status(
            t.data.valid_from,
            t.data.valid_until,
            &company.sanctions,
            today,
        ),
        None if company.cassations().iter().any(|c| *c <= today) => (CharterStatus::Cassado, None),
        None => (CharterStatus::PendenteAutorizacao, None),
    }
}

// ---------------------------------------------------------------------------------------
// Vehicles
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct VehicleData {
    pub make: String,
    pub model: String,
    #[serde(flatten)]
    pub facts: CharterVehicleFacts,
}

/// A later filing of the art. 12 II–III documents.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct VehicleDocuments {
    pub crlv_year: i32,
    pub insurance: Option<Insurance>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ItvReport {
    pub report_date: NaiveDate,
    pub provider: String,
}

#[derive(Debug, Clone)]
pub struct CharterVehicle {
    pub id: Uuid,
    pub company_id: Uuid,
    pub plate: Plate,
    pub renavam: String,
    pub make: String,
    pub model: String,
    pub record: VehicleRecord,
}

fn vehicle_from(row: CharterRow, events: &[Event]) -> Result<CharterVehicle, StorageError> {
    let id = row.id;
    let data: VehicleData = parse(&row.data, id)?;
    let mut record = VehicleRecord {
        facts: data.facts,
        itv_reports: Vec::new(),
        vistorias: Vec::new(),
        baixa: None,
    };
    for e in events {
        match e.kind.as_str() {
            acts::ITV => record
                .itv_reports
                .push(event_data::<ItvReport>(e, id)?.report_date),
            acts::VEHICLE_DOCUMENTS => {
                let docs: VehicleDocuments = event_data(e, id)?;
                record.facts.crlv_year = docs.crlv_year;
                record.facts.insurance = docs.insurance;
            }
            acts::VISTORIA => record.vistorias.push(event_data(e, id)?),
            acts::BAIXA => record.baixa = Some(event_data(e, id)?),
            _ => {}
        }
    }
    Ok(CharterVehicle {
        id,
        company_id: row.company_id.ok_or_else(|| corrupt("company_id", id))?,
        plate: Plate::parse(&row.key).map_err(|_| corrupt("plate", id))?,
        renavam: row.alt_key.unwrap_or_default(),
        make: data.make,
        model: data.model,
        record,
    })
}

pub async fn load_vehicle(store: &Store, id: Uuid) -> Result<Option<CharterVehicle>, StorageError> {
    let Some(row) = store.charter_get(CharterTable::Vehicles, id).await? else {
        return Ok(None);
    };
    let events = store.charter_events(CharterTable::Vehicles, id).await?;
    vehicle_from(row, &events).map(Some)
}

pub async fn vehicle_by_plate(
    store: &Store,
    plate: &Plate,
) -> Result<Option<CharterVehicle>, StorageError> {
    let Some(row) = store
        .charter_by_key(CharterTable::Vehicles, plate.as_str())
        .await?
        .pop()
    else {
        return Ok(None);
    };
    let events = store.charter_events(CharterTable::Vehicles, row.id).await?;
    vehicle_from(row, &events).map(Some)
}

pub async fn vehicles_of(
    store: &Store,
    company_id: Uuid,
) -> Result<Vec<CharterVehicle>, StorageError> {
    let mut out = Vec::new();
    for row in store
        .charter_of_company(CharterTable::Vehicles, company_id)
        .await?
    {
        let events = store.charter_events(CharterTable::Vehicles, row.id).await?;
        out.push(vehicle_from(row, &events)?);
    }
    Ok(out)
}

/// FRET-ART13, FRET-ART19-III: the vehicle's own status, and the company's when that is worse
/// (a cassada, suspended or expired company may not run any vehicle).
pub fn vehicle_live_status(
    v: &CharterVehicle,
    company: &Company,
    termos: &[Termo],
    today: NaiveDate,
    basis: &CharterLegalBasis,
) -> (VehicleStatusReport, CharterStatus) {
    let report = vehicle_status(&v.record, &company.cnpj, today, basis);
    let (company_status, _) = company_status(company, termos, today);
    (report, company_status)
}

// ---------------------------------------------------------------------------------------
// Drivers
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DriverData {
    pub name: String,
    pub cnh_number: String,
    #[serde(flatten)]
    pub facts: CharterDriverFacts,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DriverBaixa {
    pub on: NaiveDate,
    pub reason: String,
}

#[derive(Debug, Clone)]
pub struct CharterDriver {
    pub id: Uuid,
    pub company_id: Uuid,
    pub cpf: String,
    pub data: DriverData,
    pub deregistered_on: Option<NaiveDate>,
}

pub async fn load_driver(store: &Store, id: Uuid) -> Result<Option<CharterDriver>, StorageError> {
    let Some(row) = store.charter_get(CharterTable::Drivers, id).await? else {
        return Ok(None);
    };
    let mut data: DriverData = parse(&row.data, id)?;
    let mut deregistered_on = None;
    for e in store.charter_events(CharterTable::Drivers, id).await? {
        match e.kind.as_str() {
            acts::DRIVER_DOCUMENTS => data.facts = event_data(&e, id)?,
            acts::BAIXA => deregistered_on = Some(event_data::<DriverBaixa>(&e, id)?.on),
            _ => {}
        }
    }
    Ok(Some(CharterDriver {
        id,
        company_id: row.company_id.ok_or_else(|| corrupt("company_id", id))?,
        cpf: row.key,
        data,
        deregistered_on,
    }))
}

// ---------------------------------------------------------------------------------------
// Autos
// ---------------------------------------------------------------------------------------

/// An auto de infração as drawn up (FRET-ART19, FRET-ART21).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AutoData {
    pub infraction: String,
    pub committed_on: NaiveDate,
    pub place: String,
    pub facts: String,
    pub inspector: String,
    pub drawn_up_at: DateTime<Utc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vehicle_plate: Option<String>,
    pub legal_basis_version: String,
}

/// An auto with where its procedure stands and its fine, recomputed from every auto of the
/// company (recidivism follows annulments, AMB-29).
#[derive(Debug, Clone, Serialize)]
pub struct AutoView {
    pub id: Uuid,
    pub number: String,
    pub company_id: Uuid,
    #[serde(flatten)]
    pub data: AutoData,
    pub procedure: ProcedureState,
    /// `None` when annulled.
    pub fine: Option<FineAssessment>,
}

pub async fn company_autos(
    store: &Store,
    company_id: Uuid,
    today: NaiveDate,
    cal: &Calendar,
    rules: &DeadlineRules,
    basis: &CharterLegalBasis,
) -> Result<Vec<AutoView>, StorageError> {
    let mut views = Vec::new();
    let mut facts = Vec::new();
    for row in store
        .charter_of_company(CharterTable::Autos, company_id)
        .await?
    {
        let data: AutoData = parse(&row.data, row.id)?;
        let acts_: Vec<ProcedureAct> = store
            .charter_events(CharterTable::Autos, row.id)
            .await?
            .iter()
            .filter(|e| e.kind == acts::PROCEDURE)
            .map(|e| event_data(e, row.id))
            .collect::<Result<_, _>>()?;
        let procedure = procedure_state(&acts_, today, cal, rules, basis);
        let infraction = crate::domain::charter_sanctions::charter_infraction(&data.infraction)
            .ok_or_else(|| corrupt("infraction", row.id))?;
        facts.push(AutoFacts {
            number: row.key.clone(),
            infraction: infraction.id,
            committed_on: data.committed_on,
            annulled: procedure.annulled,
            final_: procedure.final_,
        });
        views.push(AutoView {
            id: row.id,
            number: row.key,
            company_id,
            data,
            procedure,
            fine: None,
        });
    }
    for (view, fine) in views.iter_mut().zip(assess_fines(&facts, basis)) {
        view.fine = fine;
    }
    Ok(views)
}

// ---------------------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------------------

/// Document kinds of the charter register, as printed in tokens.
pub const KIND_TERMO: &str = "charter_termo";
pub const KIND_SELO: &str = "charter_selo";

async fn render_document(
    state: &AppState,
    payload: &TokenPayload,
    template: &'static str,
    reason: &'static str,
    inputs: impl FnOnce(&str, f64) -> serde_json::Value,
    qr_mm: f64,
) -> Result<(Vec<u8>, String, crate::issuance::Marks), GrantError> {
    let marks = mark(state, payload)?;
    let inputs = inputs(&marks.code, marks.qr.printed_width_mm(qr_mm));
    let (pdf, sha) = render_signed(
        state,
        template,
        inputs,
        marks.qr.svg.clone(),
        reason,
        payload_time(payload),
    )
    .await?;
    Ok((pdf, sha, marks))
}

fn payload_time(p: &TokenPayload) -> DateTime<Utc> {
    DateTime::from_timestamp(p.issued_at, 0).unwrap_or_default()
}

/// Common inputs of every charter document.
fn common_inputs(
    public_url: &str,
    basis: &CharterLegalBasis,
    code: &str,
    qr_width_mm: f64,
    now: DateTime<Utc>,
) -> serde_json::Value {
    json!({
        "code": code,
        "qr_width_mm": qr_width_mm,
        "verify_address": format!("{public_url}/v"),
        "issued_at": format::datetime_local(now),
        "issued_on": format::date(local_date(now)),
        "issued_on_long": format::date_long(local_date(now)),
        "legal_basis": basis.citation,
        "legal_basis_version": basis.version,
    })
}

/// Inputs of `templates/charter_termo.typ` (FRET-ART8).
pub fn termo_inputs(
    company: &Company,
    t: &Termo,
    public_url: &str,
    basis: &CharterLegalBasis,
    code: &str,
    qr_width_mm: f64,
    now: DateTime<Utc>,
) -> serde_json::Value {
    merge(
        common_inputs(public_url, basis, code, qr_width_mm, now),
        json!({
            "number": t.number,
            "company_name": company.data.name,
            "cnpj": company.cnpj.formatted(),
            "address": company.data.address,
            "modality": t.data.modality.label_pt(),
            "valid_from": format::date(t.data.valid_from),
            "valid_until": format::date(t.data.valid_until),
            "valid_until_long": format::date_long(t.data.valid_until),
            "renewal_note": t.data.renews.as_ref().map_or_else(String::new, |n| format!(
                "Este Termo renova o Termo nº {n}, sem interrupção de vigência."
            )),
        }),
    )
}

/// Inputs of `templates/charter_selo.typ` (FRET-ART13).
#[allow(clippy::too_many_arguments)]
pub fn selo_inputs(
    company: &Company,
    vehicle: &CharterVehicle,
    vistoria: &Vistoria,
    number: &str,
    public_url: &str,
    basis: &CharterLegalBasis,
    code: &str,
    qr_width_mm: f64,
    now: DateTime<Utc>,
) -> serde_json::Value {
    let facts = &vehicle.record.facts;
    merge(
        common_inputs(public_url, basis, code, qr_width_mm, now),
        json!({
            "number": number,
            "plate": vehicle.plate.formatted(),
            "company_name": company.data.name,
            "cnpj": company.cnpj.formatted(),
            "kind": if facts.kind == "onibus" { "Ônibus" } else { "Micro-ônibus" },
            "seated_capacity": facts.seated_capacity.to_string(),
            "performed_on": format::date(vistoria.performed_on),
            "valid_until": format::date(vistoria_valid_until(vistoria.performed_on, basis)),
            "service_life_until": format::date(
                crate::domain::charter::service_life_until(facts.first_registration_date, basis)
            ),
        }),
    )
}

fn merge(mut a: serde_json::Value, b: serde_json::Value) -> serde_json::Value {
    if let (Some(a), serde_json::Value::Object(b)) = (a.as_object_mut(), b) {
        a.extend(b);
    }
    a
}

/// FRET-ART8: grants (or renews) the Termo and issues its signed PDF, all or nothing.
#[allow(clippy::too_many_lines)] // reserve, render, sign, commit or void: one unit
pub async fn issue_termo(
    state: &AppState,
    company: &Company,
    decision: &TermoDecision,
    actor: &str,
) -> Result<(Termo, CharterDocument), GrantError> {
    let now = state.clock.now();
    let today = local_date(now);
    let store = &state.store;
    let reserved = store
        .reserve_number(TERMO_SERIES, today.year(), now)
        .await?;
    let termo = Termo {
        id: Uuid::new_v4(),
        number: reserved.number.clone(),
        data: TermoData {
            modality: company.data.modality,
            issued_on: today,
            valid_from: decision.valid_from,
            valid_until: decision.valid_until,
            renews: decision.renews.clone(),
            legal_basis_version: decision.legal_basis_version.to_owned(),
        },
    };
    let result = async {
        let doc_id = Uuid::new_v4();
        let payload = TokenPayload {
            kind: KIND_TERMO.to_owned(),
            document_id: doc_id,
            number: termo.number.clone(),
            plate: company.cnpj.as_str().to_owned(),
            issued_at: now.timestamp(),
            valid_until: termo.data.valid_until,
            issuer: CHARTER_ISSUER.to_owned(),
        };
        let t = &termo;
        let (pdf, sha256, marks) = render_document(
            state,
            &payload,
            "charter_termo.typ",
            "Termo de Autorização de fretamento",
            |code, qr| {
                termo_inputs(company, t, &state.letterhead.public_url, &state.charter_basis, code, qr, now)
            },
            A4_QR_MM,
        )
        .await?;
        let document = CharterDocument {
            id: doc_id,
            kind: KIND_TERMO.to_owned(),
            subject_type: "termo".to_owned(),
            subject_id: t.id,
            company_id: company.id,
            number: t.number.clone(),
            verification_code: marks.code,
            token: marks.token,
            key_id: state.keys.active.kid().to_owned(),
            sha256,
            subject_key: company.cnpj.as_str().to_owned(),
            valid_until: Some(t.data.valid_until),
            legal_basis_version: t.data.legal_basis_version.clone(),
            issued_at: now,
        };
        let data = serde_json::to_value(&t.data).map_err(|_| GrantError::Encoding)?;
        store
            .charter_commit(CharterCommit {
                row: Some((
                    CharterTable::Termos,
                    CharterRow {
                        id: t.id,
                        company_id: Some(company.id),
                        key: t.number.clone(),
                        alt_key: None,
                        data: data.clone(),
                        created_at: now,
                        created_by: actor.to_owned(),
                    },
                )),
                issue_number: Some(&t.number),
                documents: vec![(document.clone(), pdf)],
                events: vec![
                    CharterEvent {
                        entity_type: CharterTable::Termos.entity_type(),
                        entity_id: t.id,
                        kind: acts::TERMO,
                        actor,
                        reason: None,
                        legal_basis_version: &t.data.legal_basis_version,
                        at: now,
                        data: data.clone(),
                    },
                    CharterEvent {
                        entity_type: CharterTable::Companies.entity_type(),
                        entity_id: company.id,
                        kind: acts::TERMO,
                        actor,
                        reason: None,
                        legal_basis_version: &t.data.legal_basis_version,
                        at: now,
                        data: json!({ "termo_id": t.id, "number": t.number, "valid_from": t.data.valid_from, "valid_until": t.data.valid_until }),
                    },
                ],
            })
            .await?;
        Ok::<_, GrantError>(document)
    }
    .await;
    match result {
        Ok(doc) => Ok((termo, doc)),
        Err(e) => {
            void(state, &reserved.number).await;
            Err(e)
        }
    }
}

async fn void(state: &AppState, number: &str) {
    if let Err(e) = state
        .store
        .void_number(number, "falha ao emitir o documento", state.clock.now())
        .await
    {
        tracing::error!(number, error = %e, "could not void a reserved number");
    }
}

/// FRET-ART13: records an approved vistoria and issues the selo in one transaction.
pub async fn issue_selo(
    state: &AppState,
    company: &Company,
    vehicle: &CharterVehicle,
    vistoria: &Vistoria,
    actor: &str,
) -> Result<CharterDocument, GrantError> {
    let now = state.clock.now();
    let today = local_date(now);
    let basis = &state.charter_basis;
    let store = &state.store;
    let reserved = store.reserve_number(SELO_SERIES, today.year(), now).await?;
    let valid_until = vistoria_valid_until(vistoria.performed_on, basis);
    let result = async {
        let doc_id = Uuid::new_v4();
        let payload = TokenPayload {
            kind: KIND_SELO.to_owned(),
            document_id: doc_id,
            number: reserved.number.clone(),
            plate: vehicle.plate.as_str().to_owned(),
            issued_at: now.timestamp(),
            valid_until,
            issuer: CHARTER_ISSUER.to_owned(),
        };
        let (pdf, sha256, marks) = render_document(
            state,
            &payload,
            "charter_selo.typ",
            "Selo de vistoria de veículo de fretamento",
            |code, qr| {
                selo_inputs(
                    company,
                    vehicle,
                    vistoria,
                    &reserved.number,
                    &state.letterhead.public_url,
                    basis,
                    code,
                    qr,
                    now,
                )
            },
            STICKER_QR_MM,
        )
        .await?;
        let document = CharterDocument {
            id: doc_id,
            kind: KIND_SELO.to_owned(),
            subject_type: "vehicle".to_owned(),
            subject_id: vehicle.id,
            company_id: company.id,
            number: reserved.number.clone(),
            verification_code: marks.code,
            token: marks.token,
            key_id: state.keys.active.kid().to_owned(),
            sha256,
            subject_key: vehicle.plate.as_str().to_owned(),
            valid_until: Some(valid_until),
            legal_basis_version: basis.version.to_owned(),
            issued_at: now,
        };
        let data = serde_json::to_value(vistoria).map_err(|_| GrantError::Encoding)?;
        store
            .charter_commit(CharterCommit {
                row: None,
                issue_number: Some(&reserved.number),
                documents: vec![(document.clone(), pdf)],
                events: vec![CharterEvent {
                    entity_type: CharterTable::Vehicles.entity_type(),
                    entity_id: vehicle.id,
                    kind: acts::VISTORIA,
                    actor,
                    reason: None,
                    legal_basis_version: basis.version,
                    at: now,
                    data,
                }],
            })
            .await?;
        Ok::<_, GrantError>(document)
    }
    .await;
    match result {
        Ok(doc) => Ok(doc),
        Err(e) => {
            void(state, &reserved.number).await;
            Err(e)
        }
    }
}

/// The live state of a charter document, for verification.
#[derive(Debug, Clone)]
pub struct CharterDocumentStatus {
    pub status: CharterStatus,
    pub suspended_until: Option<NaiveDate>,
    pub company_name: String,
    /// Plate (selo) or CNPJ (Termo), formatted for reading.
    pub subject: String,
}

/// FRET-ART8-P1, FRET-ART13, FRET-ART18–20: what a Termo or selo says now.
pub async fn document_status(
    state: &AppState,
    doc: &CharterDocument,
    now: DateTime<Utc>,
) -> Result<Option<CharterDocumentStatus>, StorageError> {
    let today = local_date(now);
    let Some(company) = load_company(&state.store, doc.company_id).await? else {
        return Ok(None);
    };
    let termos = termos_of(&state.store, company.id).await?;
    let expired = doc.valid_until.is_some_and(|u| today > u);
    let (status, suspended_until, subject) = match doc.kind.as_str() {
        KIND_TERMO => {
            let Some(t) = termos.iter().find(|t| t.id == doc.subject_id) else {
                return Ok(None);
            };
            let (s, until) = termo_status(
                t.data.valid_from,
                t.data.valid_until,
                &company.sanctions,
                today,
            );
            (s, until, company.cnpj.formatted())
        }
        KIND_SELO => {
            let Some(v) = load_vehicle(&state.store, doc.subject_id).await? else {
                return Ok(None);
            };
            let (report, company_status) =
                vehicle_live_status(&v, &company, &termos, today, &state.charter_basis);
            let status = match (report.status, company_status) {
                (CharterStatus::Baixado | CharterStatus::VidaUtilVencida, _) => report.status,
                (_, s @ (CharterStatus::Cassado | CharterStatus::Suspenso)) => s,
                _ if expired => CharterStatus::Vencido,
                (_, CharterStatus::Vencido | CharterStatus::PendenteAutorizacao) => {
                    CharterStatus::Irregular
                }
                (s, _) => s,
            };
            let until = (status == CharterStatus::Suspenso)
                .then(|| company_status_until(&company, &termos, today))
                .flatten();
            (status, until, v.plate.formatted())
        }
        _ => return Ok(None),
    };
    Ok(Some(CharterDocumentStatus {
        status,
        suspended_until,
        company_name: company.data.name,
        subject,
    }))
}

fn company_status_until(
    company: &Company,
    termos: &[Termo],
    today: NaiveDate,
) -> Option<NaiveDate> {
    company_status(company, termos, today).1
}
