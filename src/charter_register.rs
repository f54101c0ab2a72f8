//! Use cases of the charter register (Lei 4.937/2025): load each entity (its row, with its
//! later acts folded in), issue the Termo de Autorização and the selo de vistoria, and the
//! live status that verification shows. The rules themselves are in `domain::charter`.

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;
use uuid::Uuid;

use crate::documents::{A4_QR_MM, STICKER_QR_MM, common_inputs, format, merge};
use crate::domain::calendar::{Calendar, DeadlineRules};
use crate::domain::charter::sanctions::{
    AutoFacts, FineAssessment, ProcedureAct, ProcedureState, assess_fines, procedure_state,
};
use crate::domain::charter::{
    CharterDriverFacts, CharterStatus, CharterVehicleFacts, CompanyChecklist, CompanySanction,
    CompanySanctionKind, Insurance, Modality, TermoDecision, VehicleRecord, VehicleStatusReport,
    Vistoria, termo_status, vehicle_status, vehicle_with_company, vistoria_valid_until,
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

/// The Termo that covers `today` (the latest granted, if several), else the latest one.
pub fn current_termo(termos: &[Termo], today: NaiveDate) -> Option<&Termo> {
    // The latest granted among those covering today: a Termo granted after a cassação's bar
    // overlaps the one the cassação ended.
    termos
        .iter()
        .filter(|t| t.data.valid_from <= today && today <= t.data.valid_until)
        .max_by_key(|t| t.data.valid_from)
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

/// FRET-ART13, FRET-ART19-III: the vehicle's own report and its company's status; the two
/// combine in `domain::charter::vehicle_with_company`.
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
        let procedure = procedure_state(&acts_, today, cal, rules, basis.into());
        let infraction = crate::domain::charter::sanctions::charter_infraction(&data.infraction)
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
pub const KIND_AUTO: &str = "charter_auto";
pub const KIND_CERTIDAO: &str = "charter_certidao";
/// Series of certidão numbers (FRET-ART25).
pub const CERTIDAO_SERIES: &str = "CERT";
const SIS: &str = "Secretaria Municipal de Infraestrutura e Serviços";

/// The inputs every charter document shares, under Lei 4.937/2025.
fn charter_common(
    public_url: &str,
    basis: &CharterLegalBasis,
    code: &str,
    qr_width_mm: f64,
    now: DateTime<Utc>,
) -> serde_json::Value {
    common_inputs(
        public_url,
        basis.citation,
        basis.version,
        code,
        qr_width_mm,
        now,
    )
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
        charter_common(public_url, basis, code, qr_width_mm, now),
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
        charter_common(public_url, basis, code, qr_width_mm, now),
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

/// Where a charter document's number comes from.
pub enum Numbering {
    /// The next number of a series, reserved now and issued with the document.
    Reserve(&'static str),
    /// The number of the record the document prints (an auto's own number).
    Fixed(String),
}

/// What a charter document is about and how it is rendered.
pub struct DocSpec {
    pub kind: &'static str,
    pub subject_type: &'static str,
    pub subject_id: Uuid,
    /// The charter company; `None` for ride-hailing documents.
    pub company_id: Option<Uuid>,
    /// `BDG-SIS` (charter) or `BDG-SMF` (ride-hailing), printed in the token.
    pub issuer: &'static str,
    pub numbering: Numbering,
    /// What the token's `p` carries: plate or CNPJ, never a CPF (the token is public).
    pub subject_key: Option<String>,
    pub valid_until: NaiveDate,
    pub template: &'static str,
    pub reason: &'static str,
    pub qr_mm: f64,
    pub facts: Option<serde_json::Value>,
}

/// Issues one signed charter document: number ▶ token ▶ QR ▶ render ▶ PAdES ▶ one
/// transaction with `row(number)` and `events(number)`. A reserved number that is not
/// issued is voided; nothing half-written remains.
pub async fn issue_document<'a>(
    state: &AppState,
    spec: DocSpec,
    inputs: impl FnOnce(&str, &str, f64) -> serde_json::Value,
    row: impl FnOnce(&str) -> Result<Option<(CharterTable, CharterRow)>, GrantError>,
    events: impl FnOnce(&str) -> Vec<CharterEvent<'a>>,
) -> Result<CharterDocument, GrantError> {
    let now = state.clock.now();
    let today = local_date(now);
    let (number, reserved) = match spec.numbering {
        Numbering::Reserve(series) => {
            let r = state
                .store
                .reserve_number(series, today.year(), now)
                .await?;
            (r.number, true)
        }
        Numbering::Fixed(n) => (n, false),
    };
    let result = async {
        let doc_id = Uuid::new_v4();
        let subject_key = spec.subject_key.unwrap_or_else(|| number.clone());
        let payload = TokenPayload {
            kind: spec.kind.to_owned(),
            document_id: doc_id,
            number: number.clone(),
            plate: subject_key.clone(),
            issued_at: now.timestamp(),
            valid_until: spec.valid_until,
            issuer: spec.issuer.to_owned(),
        };
        let marks = mark(state, &payload)?;
        let inputs = inputs(&number, &marks.code, marks.qr.printed_width_mm(spec.qr_mm));
        let (pdf, sha256) = render_signed(
            state,
            spec.template,
            inputs,
            marks.qr.svg.clone(),
            spec.reason,
            now,
        )
        .await?;
        let document = CharterDocument {
            id: doc_id,
            kind: spec.kind.to_owned(),
            subject_type: spec.subject_type.to_owned(),
            subject_id: spec.subject_id,
            company_id: spec.company_id,
            number: number.clone(),
            verification_code: marks.code,
            token: marks.token,
            key_id: state.keys.active.kid().to_owned(),
            sha256,
            subject_key,
            valid_until: Some(spec.valid_until),
            legal_basis_version: state.charter_basis.version.to_owned(),
            issued_at: now,
            facts: spec.facts,
        };
        state
            .store
            .charter_commit(CharterCommit {
                row: row(&number)?,
                issue_number: reserved.then_some(number.as_str()),
                documents: vec![(document.clone(), pdf)],
                events: events(&number),
            })
            .await?;
        Ok::<_, GrantError>(document)
    }
    .await;
    if result.is_err() && reserved {
        void(state, &number).await;
    }
    result
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

/// FRET-ART8: grants (or renews) the Termo and issues its signed PDF, all or nothing.
pub async fn issue_termo(
    state: &AppState,
    company: &Company,
    decision: &TermoDecision,
    actor: &str,
) -> Result<(Termo, CharterDocument), GrantError> {
    let now = state.clock.now();
    let id = Uuid::new_v4();
    let data = TermoData {
        modality: company.data.modality,
        issued_on: local_date(now),
        valid_from: decision.valid_from,
        valid_until: decision.valid_until,
        renews: decision.renews.clone(),
        legal_basis_version: decision.legal_basis_version.to_owned(),
    };
    let data_json = serde_json::to_value(&data).map_err(|_| GrantError::Encoding)?;
    let spec = DocSpec {
        kind: KIND_TERMO,
        subject_type: "termo",
        subject_id: id,
        company_id: Some(company.id),
        issuer: CHARTER_ISSUER,
        numbering: Numbering::Reserve(TERMO_SERIES),
        subject_key: Some(company.cnpj.as_str().to_owned()),
        valid_until: data.valid_until,
        template: "charter_termo.typ",
        reason: "Termo de Autorização de fretamento",
        qr_mm: A4_QR_MM,
        facts: None,
    };
    let public_url = &state.letterhead.public_url;
    let basis = &state.charter_basis;
    let termo = |number: &str| Termo {
        id,
        number: number.to_owned(),
        data: data.clone(),
    };
    let doc = issue_document(
        state,
        spec,
        |number, code, qr| termo_inputs(company, &termo(number), public_url, basis, code, qr, now),
        |number| {
            Ok(Some((
                CharterTable::Termos,
                CharterRow {
                    id,
                    company_id: Some(company.id),
                    key: number.to_owned(),
                    alt_key: None,
                    data: data_json.clone(),
                    created_at: now,
                    created_by: actor.to_owned(),
                },
            )))
        },
        |number| {
            let at = now;
            let version = basis.version;
            vec![
                CharterEvent {
                    entity_type: CharterTable::Termos.entity_type(),
                    entity_id: id,
                    kind: acts::TERMO,
                    actor,
                    reason: None,
                    legal_basis_version: version,
                    at,
                    data: data_json.clone(),
                },
                CharterEvent {
                    entity_type: CharterTable::Companies.entity_type(),
                    entity_id: company.id,
                    kind: acts::TERMO,
                    actor,
                    reason: None,
                    legal_basis_version: version,
                    at,
                    data: json!({ "termo_id": id, "number": number, "valid_from": data.valid_from, "valid_until": data.valid_until }),
                },
            ]
        },
    )
    .await?;
    Ok((termo(&doc.number), doc))
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
    let basis = &state.charter_basis;
    let public_url = &state.letterhead.public_url;
    let data = serde_json::to_value(vistoria).map_err(|_| GrantError::Encoding)?;
    let spec = DocSpec {
        kind: KIND_SELO,
        subject_type: "vehicle",
        subject_id: vehicle.id,
        company_id: Some(company.id),
        issuer: CHARTER_ISSUER,
        numbering: Numbering::Reserve(SELO_SERIES),
        subject_key: Some(vehicle.plate.as_str().to_owned()),
        valid_until: vistoria_valid_until(vistoria.performed_on, basis),
        template: "charter_selo.typ",
        reason: "Selo de vistoria de veículo de fretamento",
        qr_mm: STICKER_QR_MM,
        facts: None,
    };
    issue_document(
        state,
        spec,
        |number, code, qr| {
            selo_inputs(
                company, vehicle, vistoria, number, public_url, basis, code, qr, now,
            )
        },
        |_| Ok(None),
        |_| {
            vec![CharterEvent {
                entity_type: CharterTable::Vehicles.entity_type(),
                entity_id: vehicle.id,
                kind: acts::VISTORIA,
                actor,
                reason: None,
                legal_basis_version: basis.version,
                at: now,
                data,
            }]
        },
    )
    .await
}

// ---------------------------------------------------------------------------------------
// Certidões (FRET-ART25) and autos
// ---------------------------------------------------------------------------------------

/// One regularity item a certidão states.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CertifiedItem {
    pub item: String,
    pub situation: String,
    pub valid_until: Option<NaiveDate>,
}

/// The rows a certidão prints: item, situation, validity (`—` when none).
pub(crate) fn certified_rows(items: &[CertifiedItem]) -> Vec<[String; 3]> {
    items
        .iter()
        .map(|i| {
            [
                i.item.clone(),
                i.situation.clone(),
                i.valid_until.map_or_else(|| "—".to_owned(), format::date),
            ]
        })
        .collect()
}

/// What a certidão certifies: the status and every item, at the instant of issue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CertifiedFacts {
    pub status: CharterStatus,
    pub items: Vec<CertifiedItem>,
}

fn dated_item(item: &str, until: Option<NaiveDate>, today: NaiveDate) -> CertifiedItem {
    let situation = match until {
        Some(u) if u >= today => "regular",
        Some(_) => "vencido",
        None => "não apresentado",
    };
    CertifiedItem {
        item: item.to_owned(),
        situation: situation.to_owned(),
        valid_until: until,
    }
}

/// The certidão's subject: a charter vehicle or driver.
pub enum CertidaoSubject {
    Vehicle(CharterVehicle),
    Driver(CharterDriver),
}

impl CertidaoSubject {
    pub fn id(&self) -> Uuid {
        match self {
            Self::Vehicle(v) => v.id,
            Self::Driver(d) => d.id,
        }
    }

    pub fn company_id(&self) -> Uuid {
        match self {
            Self::Vehicle(v) => v.company_id,
            Self::Driver(d) => d.company_id,
        }
    }

    /// What a reader of the public verification page may see (masked CPF, LGPD).
    pub fn public_label(&self) -> String {
        match self {
            Self::Vehicle(v) => v.plate.formatted(),
            Self::Driver(d) => crate::domain::ids::Cpf::parse(&d.cpf)
                .map(|c| format!("Condutor CPF {}", c.masked()))
                .unwrap_or_default(),
        }
    }
}

/// FRET-ART25: the facts a certidão of `subject` states on `today`.
pub fn certified_facts(
    subject: &CertidaoSubject,
    company: &Company,
    termos: &[Termo],
    today: NaiveDate,
    basis: &CharterLegalBasis,
) -> CertifiedFacts {
    match subject {
        CertidaoSubject::Vehicle(v) => vehicle_facts(v, company, termos, today, basis),
        CertidaoSubject::Driver(d) => driver_facts(d, today, basis),
    }
}

fn vehicle_facts(
    v: &CharterVehicle,
    company: &Company,
    termos: &[Termo],
    today: NaiveDate,
    basis: &CharterLegalBasis,
) -> CertifiedFacts {
    let (r, company_status) = vehicle_live_status(v, company, termos, today, basis);
    let f = &v.record.facts;
    let mut crlv = Vec::new();
    crate::domain::charter::fret_art12_ii_crlv(f, today, basis, &mut crlv);
    let status = vehicle_with_company(r.status, company_status);
    CertifiedFacts {
        status,
        items: vec![
            dated_item(
                "Vistoria municipal (art. 13)",
                r.vistoria_valid_until,
                today,
            ),
            dated_item(
                "Inspeção técnica veicular — ITV (art. 12, IV)",
                r.itv_valid_until,
                today,
            ),
            dated_item(
                "Seguro de responsabilidade civil (art. 12, III)",
                r.insurance_valid_to,
                today,
            ),
            CertifiedItem {
                item: format!("CRLV do exercício {} (art. 12, II)", f.crlv_year),
                situation: if crlv.is_empty() {
                    "regular"
                } else {
                    "vencido"
                }
                .to_owned(),
                valid_until: None,
            },
            dated_item(
                "Vida útil de 15 anos (art. 13, §1º)",
                Some(r.service_life_until),
                today,
            ),
            CertifiedItem {
                item: "Empresa autorizada (Termo de Autorização)".into(),
                situation: company_status.label_pt().to_owned(),
                valid_until: current_termo(termos, today).map(|t| t.data.valid_until),
            },
        ],
    }
}

fn driver_facts(d: &CharterDriver, today: NaiveDate, basis: &CharterLegalBasis) -> CertifiedFacts {
    let f = &d.data.facts;
    let (status, _) = crate::domain::charter::driver_status(f, d.deregistered_on, today, basis);
    let folha = f.folha_corrida.as_ref().and_then(|p| {
        p.valid_until.or_else(|| {
            p.issued_on.map(|i| {
                i + chrono::Duration::days(i64::from(basis.certificate_default_validity_days))
            })
        })
    });
    let tox = f.toxicological_exam_on.map(|e| {
        crate::domain::dates::add_months(
            e,
            basis.toxicological_validity_months,
            basis.month_overflow,
        )
    });
    let ear = if f.cnh_ear { "com EAR" } else { "sem EAR" };
    CertifiedFacts {
        status,
        items: vec![
            dated_item(
                &format!("CNH categoria {} {ear} (art. 15, I)", f.cnh_category),
                Some(f.cnh_expires_on),
                today,
            ),
            dated_item(
                "Curso de transporte coletivo de passageiros (art. 15, II)",
                f.course_certificate.as_ref().and_then(|p| p.valid_until),
                today,
            ),
            dated_item("Alvará de Folha Corrida (art. 15, III)", folha, today),
            CertifiedItem {
                item: "Vínculo com a empresa (art. 15, IV)".into(),
                situation: f
                    .employment_link
                    .as_ref()
                    .map_or("não apresentado", |_| "regular")
                    .to_owned(),
                valid_until: None,
            },
            dated_item("Exame toxicológico (art. 15, V)", tox, today),
        ],
    }
}

/// Loads the certidão's subject.
pub async fn certidao_subject(
    store: &Store,
    subject_type: &str,
    id: Uuid,
) -> Result<Option<CertidaoSubject>, StorageError> {
    Ok(match subject_type {
        "vehicle" => load_vehicle(store, id).await?.map(CertidaoSubject::Vehicle),
        "driver" => load_driver(store, id).await?.map(CertidaoSubject::Driver),
        _ => None,
    })
}

/// What a certidão prints besides its number and marks.
pub struct CertidaoPrint<'a> {
    pub subject: &'a CertidaoSubject,
    pub company: &'a Company,
    pub termos: &'a [Termo],
    pub facts: &'a CertifiedFacts,
    pub protocol: &'a str,
    pub valid_until: NaiveDate,
}

/// The identifying fields of the subject, as printed (CPF masked).
fn subject_fields(
    subject: &CertidaoSubject,
    basis: &CharterLegalBasis,
) -> (&'static str, Vec<[String; 2]>) {
    let pair = |k: &str, v: String| [k.to_owned(), v];
    let yes_no = |b: bool| if b { "sim" } else { "não" };
    match subject {
        CertidaoSubject::Vehicle(v) => {
            let f = &v.record.facts;
            let life = crate::domain::charter::service_life_until(f.first_registration_date, basis);
            let kind = if f.kind == "onibus" {
                "Ônibus"
            } else {
                "Micro-ônibus"
            };
            (
                "Veículo",
                vec![
                    pair("Placa", v.plate.formatted()),
                    pair("RENAVAM", v.renavam.clone()),
                    pair("Tipo", kind.to_owned()),
                    pair("Marca/modelo", format!("{} {}", v.make, v.model)),
                    pair("Ano-modelo", f.model_year.to_string()),
                    pair("Lugares sentados", f.seated_capacity.to_string()),
                    pair(
                        "Primeiro emplacamento",
                        format::date(f.first_registration_date),
                    ),
                    pair("Vida útil até", format::date(life)),
                    pair(
                        "Portas / catraca",
                        format!("{} / {}", f.doors, yes_no(f.has_turnstile)),
                    ),
                ],
            )
        }
        CertidaoSubject::Driver(d) => {
            let cpf = crate::domain::ids::Cpf::parse(&d.cpf)
                .map_or_else(|_| "—".to_owned(), |c| c.masked());
            let f = &d.data.facts;
            (
                "Condutor",
                vec![
                    pair("Nome", d.data.name.clone()),
                    pair("CPF", cpf),
                    pair("CNH nº de registro", d.data.cnh_number.clone()),
                    pair(
                        "Categoria / EAR",
                        format!("{} / {}", f.cnh_category, yes_no(f.cnh_ear)),
                    ),
                    pair("Validade da CNH", format::date(f.cnh_expires_on)),
                    pair(
                        "Desligamento",
                        d.deregistered_on
                            .map_or_else(|| "—".to_owned(), format::date),
                    ),
                ],
            )
        }
    }
}

fn sanctions_note(company: &Company) -> String {
    if company.sanctions.is_empty() {
        return "Não constam sanções aplicadas à empresa.".to_owned();
    }
    let list: Vec<String> = company
        .sanctions
        .iter()
        .map(|x| format!("{} desde {}", x.article, format::date(x.effective_from)))
        .collect();
    format!("Sanções registradas da empresa: {}.", list.join("; "))
}

/// Inputs of `templates/certidao.typ` (FRET-ART25).
pub fn certidao_inputs(
    p: &CertidaoPrint<'_>,
    number: &str,
    public_url: &str,
    basis: &CharterLegalBasis,
    code: &str,
    qr_width_mm: f64,
    now: DateTime<Utc>,
) -> serde_json::Value {
    let (title, fields) = subject_fields(p.subject, basis);
    let termo = current_termo(p.termos, local_date(now)).map_or_else(
        || "—".to_owned(),
        |t| format!("{} (até {})", t.number, format::date(t.data.valid_until)),
    );
    let items = certified_rows(&p.facts.items);
    merge(
        charter_common(public_url, basis, code, qr_width_mm, now),
        json!({
            "number": number,
            "secretariat": SIS,
            "protocol": p.protocol,
            "status": p.facts.status.label_pt(),
            "subject_title": title,
            "subject_fields": fields,
            "grounds": "com fundamento no art. 25 da Lei Municipal nº 4.937/2025",
            "link_title": "Empresa e autorização",
            "link_fields": [
                ["Empresa", p.company.data.name.as_str()],
                ["CNPJ", p.company.cnpj.formatted().as_str()],
                ["Termo de Autorização", termo.as_str()],
            ],
            "items": items,
            "notes": sanctions_note(p.company),
            "valid_until": format::date(p.valid_until),
            "validity_days": basis.certidao_validity_days.to_string(),
            "signatory": "Secretário(a) Municipal de Infraestrutura e Serviços",
        }),
    )
}

/// FRET-ART25: issues the certidão de situação cadastral of a vehicle or a driver.
pub async fn issue_certidao(
    state: &AppState,
    subject: &CertidaoSubject,
    company: &Company,
    protocol: &str,
    actor: &str,
) -> Result<CharterDocument, GrantError> {
    let now = state.clock.now();
    let today = local_date(now);
    let basis = &state.charter_basis;
    let termos = termos_of(&state.store, company.id).await?;
    let facts = certified_facts(subject, company, &termos, today, basis);
    let (subject_type, table, key) = match subject {
        CertidaoSubject::Vehicle(v) => (
            "vehicle",
            CharterTable::Vehicles,
            Some(v.plate.as_str().to_owned()),
        ),
        // Never a CPF in the public token.
        CertidaoSubject::Driver(_) => ("driver", CharterTable::Drivers, None),
    };
    let print = CertidaoPrint {
        subject,
        company,
        termos: &termos,
        facts: &facts,
        protocol,
        valid_until: today + chrono::Duration::days(i64::from(basis.certidao_validity_days)),
    };
    let spec = DocSpec {
        kind: KIND_CERTIDAO,
        subject_type,
        subject_id: subject.id(),
        company_id: Some(company.id),
        issuer: CHARTER_ISSUER,
        numbering: Numbering::Reserve(CERTIDAO_SERIES),
        subject_key: key,
        valid_until: print.valid_until,
        template: "certidao.typ",
        reason: "Certidão de situação cadastral",
        qr_mm: A4_QR_MM,
        facts: Some(serde_json::to_value(&facts).map_err(|_| GrantError::Encoding)?),
    };
    let public_url = &state.letterhead.public_url;
    issue_document(
        state,
        spec,
        |number, code, qr| certidao_inputs(&print, number, public_url, basis, code, qr, now),
        |_| Ok(None),
        |number| {
            vec![CharterEvent {
                entity_type: table.entity_type(),
                entity_id: subject.id(),
                kind: "certidao_issued",
                actor,
                reason: None,
                legal_basis_version: basis.version,
                at: now,
                data: json!({ "number": number, "status": facts.status, "protocol": protocol }),
            }]
        },
    )
    .await
}

fn rule_failure(
    rule: &'static str,
    article: &'static str,
    field: &'static str,
    message: &str,
) -> GrantError {
    GrantError::Rules(vec![crate::domain::rule::RuleFailure {
        rule,
        article,
        field,
        message: message.to_owned(),
    }])
}

/// Inputs of `templates/auto_infracao.typ` for a charter auto; `None` until the notification
/// is recorded or when the auto was annulled.
#[allow(clippy::too_many_arguments)]
pub fn auto_notice_inputs(
    company: &Company,
    view: &AutoView,
    upf_centavos: Option<i64>,
    public_url: &str,
    basis: &CharterLegalBasis,
    code: &str,
    qr_width_mm: f64,
    now: DateTime<Utc>,
) -> Option<serde_json::Value> {
    use crate::domain::charter::sanctions::{NoticeMethod, charter_infraction};
    let p = &view.procedure;
    let (notified_on, defence, payment, fine) = (
        p.notified_on?,
        p.defence_due.as_ref()?,
        p.payment_due.as_ref()?,
        view.fine.as_ref()?,
    );
    let infraction = charter_infraction(&view.data.infraction)?;
    let centavos = upf_centavos.map(|v| v * i64::from(fine.upf));
    let mut notes = Vec::new();
    if let Some(prior) = &fine.repeats {
        let pending = if fine.doubling_confirmed {
            ""
        } else {
            " (a confirmar quando a penalidade anterior for definitiva)"
        };
        notes.push(format!(
            "Reincidência — art. 19, parágrafo único: repete, em menos de 12 meses, a infração do auto nº {prior}; multa em dobro{pending}."
        ));
    }
    if fine.cassacao_ground {
        notes.push(
            "A reincidência no art. 19, VI, é causa de cassação do registro (art. 20, IV)."
                .to_owned(),
        );
    }
    if centavos.is_none() {
        notes.push(
            "Valor em reais a calcular: a UPF do ano da lavratura não está cadastrada.".to_owned(),
        );
    }
    let method = match p.notice_method {
        Some(NoticeMethod::Contrafe) => "contrafé",
        Some(NoticeMethod::CertidaoFiscal) => "certidão do agente",
        None => "—",
    };
    let plate = view
        .data
        .vehicle_plate
        .as_deref()
        .and_then(|p| Plate::parse(p).ok())
        .map_or_else(|| "—".to_owned(), |p| p.formatted());
    Some(merge(
        charter_common(public_url, basis, code, qr_width_mm, now),
        json!({
            "number": view.number,
            "title": "AUTO DE INFRAÇÃO E NOTIFICAÇÃO",
            "secretariat": SIS,
            "law": "Lei Municipal nº 4.937/2025",
            "infractor_name": company.data.name,
            "infractor_doc_label": "CNPJ",
            "infractor_doc": company.cnpj.formatted(),
            "committed_on": format::date(view.data.committed_on),
            "place": view.data.place,
            "plate": plate,
            "article": infraction.article,
            "description": infraction.description,
            "facts": view.data.facts,
            "fine_upf": format!("{} UPFBG", format::thousands(u64::from(fine.upf))),
            "fine_brl": centavos.map_or_else(|| "a calcular".to_owned(), format::money),
            "fine_words": centavos.map_or_else(|| "—".to_owned(), format::money_in_words),
            "fine_note": notes.join(" "),
            "notified_on": format::date(notified_on),
            "notice_method": method,
            "inspector": view.data.inspector,
            "defence_due": format::date(defence.due),
            "payment_due": format::date(payment.due),
            "defence_how": format!("por escrito, dirigida à Secretaria de Infraestrutura e Serviços e protocolada no Protocolo Geral da Prefeitura até {} (art. 22, caput e §2º).", format::date(defence.due)),
            "reconsideration_how": "da decisão do Secretário cabe pedido de reconsideração em 10 dias da ciência da decisão, encaminhado ao Prefeito Municipal (art. 22, §3º).",
            "payment_how": format!("sem defesa no prazo, os fatos se presumem verdadeiros e a multa deve ser paga até {} (art. 23).", format::date(payment.due)),
            "deadline_explanation": defence.explanation,
            "drawn_up_at": format::datetime_local(view.data.drawn_up_at),
        }),
    ))
}

/// FRET-ART19–23, APP-ART19: the Auto de Infração e Notificação of a charter auto, two copies,
/// with every deadline dated. Requires the notification to be recorded (the start event).
pub async fn issue_auto_notice(
    state: &AppState,
    company: &Company,
    view: &AutoView,
    upf_centavos: Option<i64>,
    actor: &str,
) -> Result<CharterDocument, GrantError> {
    let now = state.clock.now();
    let basis = &state.charter_basis;
    let p = &view.procedure;
    let Some(payment) = p.payment_due.as_ref().filter(|_| p.notified_on.is_some()) else {
        return Err(rule_failure(
            "FRET-ART22-P1",
            "art. 22, §1º",
            "notification",
            "Registre a notificação (contrafé ou certidão do fiscal) antes de emitir o auto: os prazos contam dela.",
        ));
    };
    let Some(fine) = view.fine.as_ref() else {
        return Err(rule_failure(
            "FRET-ART19-PU",
            "art. 19",
            "auto",
            "O auto foi anulado: não há penalidade a notificar.",
        ));
    };
    let public_url = &state.letterhead.public_url;
    // Fail before taking any number if the inputs cannot be built.
    auto_notice_inputs(company, view, upf_centavos, public_url, basis, "", 0.0, now)
        .ok_or(GrantError::Missing("auto"))?;
    let spec = DocSpec {
        kind: KIND_AUTO,
        subject_type: "auto",
        subject_id: view.id,
        company_id: Some(company.id),
        issuer: CHARTER_ISSUER,
        numbering: Numbering::Fixed(view.number.clone()),
        subject_key: Some(company.cnpj.as_str().to_owned()),
        valid_until: payment.due,
        template: "auto_infracao.typ",
        reason: "Auto de Infração e Notificação",
        qr_mm: A4_QR_MM,
        facts: None,
    };
    let centavos = upf_centavos.map(|v| v * i64::from(fine.upf));
    issue_document(
        state,
        spec,
        |_, code, qr| {
            auto_notice_inputs(
                company,
                view,
                upf_centavos,
                public_url,
                basis,
                code,
                qr,
                now,
            )
            .unwrap_or_default()
        },
        |_| Ok(None),
        |number| {
            vec![CharterEvent {
                entity_type: CharterTable::Autos.entity_type(),
                entity_id: view.id,
                kind: "notice_issued",
                actor,
                reason: None,
                legal_basis_version: basis.version,
                at: now,
                data: json!({ "number": number, "fine_upf": fine.upf, "fine_centavos": centavos }),
            }]
        },
    )
    .await
}

/// The live state of a charter document, for verification.
#[derive(Debug, Clone)]
pub struct CharterDocumentStatus {
    pub status: CharterStatus,
    pub suspended_until: Option<NaiveDate>,
    /// The charter company (`None` for ride-hailing documents).
    pub company_name: Option<String>,
    /// Plate, CNPJ or masked CPF, formatted for reading.
    pub subject: String,
    /// Certidões: whether what was certified still holds.
    pub facts_hold: Option<bool>,
}

/// FRET-ART8-P1, FRET-ART13, FRET-ART18–20, FRET-ART25: what a charter document says now.
pub async fn document_status(
    state: &AppState,
    doc: &CharterDocument,
    now: DateTime<Utc>,
) -> Result<Option<CharterDocumentStatus>, StorageError> {
    let today = local_date(now);
    let basis = &state.charter_basis;
    let Some(company_id) = doc.company_id else {
        return crate::app_procedure::document_status(state, doc, now).await;
    };
    let Some(company) = load_company(&state.store, company_id).await? else {
        return Ok(None);
    };
    let termos = termos_of(&state.store, company.id).await?;
    let expired = doc.valid_until.is_some_and(|u| today > u);
    let mut facts_hold = None;
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
            let (report, owner_status) = vehicle_live_status(&v, &company, &termos, today, basis);
            // The selo's own last day counts after the final and company-wide statuses.
            let status = match vehicle_with_company(report.status, owner_status) {
                s @ (CharterStatus::Baixado
                | CharterStatus::VidaUtilVencida
                | CharterStatus::Cassado
                | CharterStatus::Suspenso) => s,
                _ if expired => CharterStatus::Vencido,
                s => s,
            };
            let until = (status == CharterStatus::Suspenso)
                .then(|| company_status(&company, &termos, today).1)
                .flatten();
            (status, until, v.plate.formatted())
        }
        KIND_AUTO => {
            let cal = state.calendar().await?;
            let views = company_autos(
                &state.store,
                company.id,
                today,
                &cal,
                &state.deadline_rules,
                basis,
            )
            .await?;
            let Some(view) = views.iter().find(|v| v.id == doc.subject_id) else {
                return Ok(None);
            };
            let status = if view.procedure.annulled {
                CharterStatus::Anulado
            } else {
                CharterStatus::Ativo
            };
            (status, None, company.cnpj.formatted())
        }
        KIND_CERTIDAO => {
            let Some(subject) =
                certidao_subject(&state.store, &doc.subject_type, doc.subject_id).await?
            else {
                return Ok(None);
            };
            let now_facts = certified_facts(&subject, &company, &termos, today, basis);
            let then: Option<CertifiedFacts> = doc
                .facts
                .as_ref()
                .and_then(|f| serde_json::from_value(f.clone()).ok());
            facts_hold = Some(then.as_ref() == Some(&now_facts));
            let status = if expired {
                CharterStatus::Vencido
            } else {
                now_facts.status
            };
            (status, None, subject.public_label())
        }
        _ => return Ok(None),
    };
    Ok(Some(CharterDocumentStatus {
        status,
        suspended_until,
        company_name: Some(company.data.name),
        subject,
        facts_hold,
    }))
}
