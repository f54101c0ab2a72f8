//! The charter register as it stands (Lei 4.937/2025): each entity loaded from storage with
//! its later acts folded in, and what the register certifies about it now. Read-only; the
//! rules themselves are in `domain::charter`.

use std::sync::Arc;

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::domain::calendar::{Calendar, DeadlineRules};
use crate::domain::charter::CharterAct;
use crate::domain::charter::sanctions::{
    AutoFacts, FineAssessment, ProcedureAct, ProcedureState, assess_fines_by, procedure_state,
};
use crate::domain::charter::{
    CharterDriverFacts, CharterStatus, CharterVehicleFacts, CompanyChecklist, CompanySanction,
    CompanySanctionKind, Insurance, Modality, VehicleRecord, VehicleStatusReport, termo_status,
    vehicle_status, vehicle_with_company,
};
use crate::domain::dates::local_date;
use crate::domain::fines::{FineStanding, UpfValues, fine_standing};
use crate::domain::ids::{Cnpj, Plate};
use crate::domain::legal_basis::CharterLegalBasis;
use crate::storage::charter::{CharterRow, CharterTable};
use crate::storage::{Event, StorageError, Store};

fn corrupt(what: &str, id: Uuid) -> StorageError {
    StorageError::Corrupt(format!("{what} in charter row {id}"))
}

fn parse_data<T: for<'de> Deserialize<'de>>(
    v: &serde_json::Value,
    id: Uuid,
) -> Result<T, StorageError> {
    serde_json::from_value(v.clone()).map_err(|_| corrupt("data", id))
}

fn event_data<T: for<'de> Deserialize<'de>>(e: &Event, id: Uuid) -> Result<T, StorageError> {
    serde_json::from_str(&e.data).map_err(|_| corrupt(e.kind.as_str(), id))
}

// ---------------------------------------------------------------------------------------
// Companies and Termos
// ---------------------------------------------------------------------------------------

/// A company's filing (art. 7 caput: the SIS form and protocol).
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
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
    let mut data: CompanyData = parse_data(&row.data, id)?;
    let cnpj = Cnpj::parse(&row.key).map_err(|_| corrupt("cnpj", id))?;
    let mut sanctions = Vec::new();
    for e in store.charter_events(CharterTable::Companies, id).await? {
        match CharterAct::parse(&e.kind) {
            Some(CharterAct::ChecklistFiled) => data.checklist = event_data(&e, id)?,
            Some(CharterAct::SanctionApplied) => sanctions.push(event_data(&e, id)?),
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
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct TermoData {
    pub modality: Modality,
    pub issued_on: NaiveDate,
    pub valid_from: NaiveDate,
    pub valid_until: NaiveDate,
    pub renews: Option<String>,
    pub legal_basis_version: String,
    /// The day the application was protocolled at SIS; absent on Termos
    /// granted before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocolled_on: Option<NaiveDate>,
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
                data: parse_data(&r.data, r.id)?,
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

#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct VehicleData {
    pub make: String,
    pub model: String,
    #[serde(flatten)]
    pub facts: CharterVehicleFacts,
    /// The day the enrolment was protocolled at SIS (FRET-ART24, art. 26
    /// §1º); absent in vehicles enrolled before it was recorded: the day it was entered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enrolled_on: Option<NaiveDate>,
}

/// A later filing of the art. 12 II–III documents.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct VehicleDocuments {
    pub crlv_year: i32,
    pub insurance: Option<Insurance>,
}

#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
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
    /// The day the enrolment was protocolled (or, before it was recorded, entered).
    pub enrolled_on: NaiveDate,
    pub record: VehicleRecord,
}

fn vehicle_from(row: CharterRow, events: &[Event]) -> Result<CharterVehicle, StorageError> {
    let id = row.id;
    let data: VehicleData = parse_data(&row.data, id)?;
    let mut record = VehicleRecord {
        facts: data.facts,
        itv_reports: Vec::new(),
        vistorias: Vec::new(),
        baixa: None,
    };
    for e in events {
        match CharterAct::parse(&e.kind) {
            Some(CharterAct::ItvReportFiled) => record
                .itv_reports
                .push(event_data::<ItvReport>(e, id)?.report_date),
            Some(CharterAct::VehicleDocumentsFiled) => {
                let docs: VehicleDocuments = event_data(e, id)?;
                record.facts.crlv_year = docs.crlv_year;
                record.facts.insurance = docs.insurance;
            }
            Some(CharterAct::VistoriaRecorded) => record.vistorias.push(event_data(e, id)?),
            Some(CharterAct::Baixa) => record.baixa = Some(event_data(e, id)?),
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
        enrolled_on: data
            .enrolled_on
            .unwrap_or_else(|| local_date(row.created_at)),
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

#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct DriverData {
    pub name: String,
    pub cnh_number: String,
    #[serde(flatten)]
    pub facts: CharterDriverFacts,
}

#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
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
    /// When the driver was enrolled.
    pub enrolled_at: DateTime<Utc>,
}

pub async fn load_driver(store: &Store, id: Uuid) -> Result<Option<CharterDriver>, StorageError> {
    load_driver_at(store, id, None).await
}

/// The driver as the acts recorded up to `until` left it (the documents filed by then; `None`:
/// every act).
pub async fn load_driver_at(
    store: &Store,
    id: Uuid,
    until: Option<DateTime<Utc>>,
) -> Result<Option<CharterDriver>, StorageError> {
    let Some(row) = store.charter_get(CharterTable::Drivers, id).await? else {
        return Ok(None);
    };
    let mut data: DriverData = parse_data(&row.data, id)?;
    let mut deregistered_on = None;
    for e in store
        .charter_events(CharterTable::Drivers, id)
        .await?
        .into_iter()
        .filter(|e| until.is_none_or(|u| e.occurred_at <= u))
    {
        match CharterAct::parse(&e.kind) {
            Some(CharterAct::DriverDocumentsFiled) => data.facts = event_data(&e, id)?,
            Some(CharterAct::Baixa) => {
                deregistered_on = Some(event_data::<DriverBaixa>(&e, id)?.on);
            }
            _ => {}
        }
    }
    Ok(Some(CharterDriver {
        id,
        company_id: row.company_id.ok_or_else(|| corrupt("company_id", id))?,
        cpf: row.key,
        data,
        deregistered_on,
        enrolled_at: row.created_at,
    }))
}

// ---------------------------------------------------------------------------------------
// Autos
// ---------------------------------------------------------------------------------------

/// An auto de infração as drawn up (FRET-ART19, FRET-ART21).
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct AutoData {
    pub infraction: String,
    pub committed_on: NaiveDate,
    /// The time of the infraction, when it was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub committed_at: Option<DateTime<Utc>>,
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
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[schema(as = CharterAutoState)]
pub struct AutoView {
    pub id: Uuid,
    pub number: String,
    pub company_id: Uuid,
    #[serde(flatten)]
    pub data: AutoData,
    pub procedure: ProcedureState,
    /// `None` when annulled.
    pub fine: Option<FineAssessment>,
    /// The fine's account: payments, deadline, vencida, dívida ativa.
    pub payment: FineStanding,
    /// The acts recorded, in order (the history shows them with who entered them and when).
    #[serde(skip)]
    pub acts: Vec<ProcedureAct>,
}

/// Every auto of a company as it stands on `today`. Each auto is judged by the basis it was
/// drawn up under (`basis_of` its version): its fine, the recidivism window, whether a repeat
/// is a cassação ground and its procedure's periods.
pub async fn company_autos(
    store: &Store,
    company_id: Uuid,
    today: NaiveDate,
    cal: &Calendar,
    rules: &DeadlineRules,
    basis_of: &(dyn Fn(&str) -> Arc<CharterLegalBasis> + Sync),
) -> Result<Vec<AutoView>, StorageError> {
    let mut views = Vec::new();
    let mut facts = Vec::new();
    let mut bases = Vec::new();
    for row in store
        .charter_of_company(CharterTable::Autos, company_id)
        .await?
    {
        let data: AutoData = parse_data(&row.data, row.id)?;
        let acts_: Vec<ProcedureAct> = store
            .charter_events(CharterTable::Autos, row.id)
            .await?
            .iter()
            .filter(|e| e.kind == CharterAct::ProcedureAct.as_str())
            .map(|e| event_data(e, row.id))
            .collect::<Result<_, _>>()?;
        // The acts as they stand, rectifications applied.
        let acts_ = crate::domain::charter::sanctions::effective_acts(&acts_);
        let own = basis_of(&data.legal_basis_version);
        let procedure = procedure_state(&acts_, today, cal, rules, own.as_ref().into());
        bases.push(own);
        facts.push(AutoFacts {
            number: row.key.clone(),
            infraction: data.infraction.clone(),
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
            payment: FineStanding::default(),
            acts: acts_,
        });
    }
    let fines = assess_fines_by(&facts, |i| bases[i].as_ref());
    for (view, fine) in views.iter_mut().zip(fines) {
        let drawn_up_on = local_date(view.data.drawn_up_at);
        let values = upf_values(
            store,
            &crate::domain::fines::years_needed(drawn_up_on, &view.acts, today),
        )
        .await?;
        view.payment = fine_standing(
            fine.as_ref().map_or(0, |f| i64::from(f.upf)),
            drawn_up_on,
            &view.acts,
            &view.procedure,
            &values,
            today,
        );
        view.fine = fine;
    }
    Ok(views)
}

/// The UPF values of `years` that the register holds.
pub async fn upf_values(store: &Store, years: &[i32]) -> Result<UpfValues, StorageError> {
    let mut values = UpfValues::new();
    for &year in years {
        if let Some(v) = store.upf_value(year).await? {
            values.insert(year, v);
        }
    }
    Ok(values)
}

// ---------------------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------------------

/// One regularity item a certidão states.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct CertifiedItem {
    pub item: String,
    pub situation: String,
    pub valid_until: Option<NaiveDate>,
}

/// What a certidão certifies: the status and every item, at the instant of issue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
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
/// `fines_in_debt`: the company's autos whose fine is past due or in dívida ativa
/// ([`company_fines_in_debt`]); the vehicle's certidão states them (FRET-ART23).
pub fn certified_facts(
    subject: &CertidaoSubject,
    company: &Company,
    termos: &[Termo],
    fines_in_debt: &[String],
    today: NaiveDate,
    basis: &CharterLegalBasis,
) -> CertifiedFacts {
    match subject {
        CertidaoSubject::Vehicle(v) => {
            let mut facts = vehicle_facts(v, company, termos, today, basis);
            facts.items.push(fines_item(
                "Multas da empresa pagas ou no prazo (art. 23)",
                fines_in_debt,
            ));
            facts
        }
        CertidaoSubject::Driver(d) => driver_facts(d, today, basis),
    }
}

/// A certidão's line on fines: `regular`, or `em débito` with each auto's number.
pub fn fines_item(item: &str, in_debt: &[String]) -> CertifiedItem {
    CertifiedItem {
        item: item.to_owned(),
        situation: if in_debt.is_empty() {
            "regular".to_owned()
        } else {
            format!("em débito: {}", in_debt.join(", "))
        },
        valid_until: None,
    }
}

/// What a certidão of `subject` certifies on `today`, the company's fines in debt included:
/// the one reading for issuing a certidão and for verifying it later.
pub async fn certidao_facts_now(
    state: &crate::state::AppState,
    subject: &CertidaoSubject,
    company: &Company,
    termos: &[Termo],
    today: NaiveDate,
) -> Result<CertifiedFacts, StorageError> {
    let in_debt: Vec<String> = company_autos_now(state, company.id, today)
        .await?
        .into_iter()
        .filter(|a| a.payment.status.is_debt())
        .map(|a| a.number)
        .collect();
    Ok(certified_facts(
        subject,
        company,
        termos,
        &in_debt,
        today,
        &state.charter_basis(),
    ))
}

/// [`company_autos`] with the register's calendar, deadline rules and legal bases.
pub async fn company_autos_now(
    state: &crate::state::AppState,
    company_id: Uuid,
    today: NaiveDate,
) -> Result<Vec<AutoView>, StorageError> {
    let cal = state.calendar().await?;
    company_autos(
        &state.store,
        company_id,
        today,
        &cal,
        &state.deadline_rules,
        &|version| state.charter_basis_of(version),
    )
    .await
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
