//! `/api/v1/charter/…`: the charter register (Lei 4.937/2025): companies and their Termos,
//! vehicles and vistorias, drivers, contracts and trips, autos de infração and their
//! procedure, sanctions. Every failed rule is listed in a 422 with its id and article.

mod autos;
mod certidoes;
mod companies;
mod contracts;
mod documents;
mod drivers;
mod history;
mod vehicles;

pub use autos::*;
pub use certidoes::*;
pub use companies::*;
pub use contracts::*;
pub use documents::*;
pub use drivers::*;
pub use history::*;
pub use vehicles::*;

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
use crate::domain::charter::sanctions::{CharterInfraction, ProcedureAct};
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
use crate::storage::DocumentKind;
use crate::storage::charter::CharterTable;
use crate::storage::documents::Document;

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
    /// A versão do perfil do município sob a qual foi emitido.
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

// Facts checked at the door: enumerations, plausible years and dates.

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
