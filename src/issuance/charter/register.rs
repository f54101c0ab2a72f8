//! Use cases of the charter register (Lei 4.937/2025): companies, their vehicles and drivers,
//! contracts and trips, sanctions and the acts of an auto's procedure. Every act is an event of
//! the entity's append-only history, stamped with the official, the instant and the legal
//! basis; every rule is checked by `domain::charter` before anything is written.

mod autos;
mod companies;
mod contracts;
mod drivers;
mod vehicles;

pub use autos::*;
pub use companies::*;
pub use contracts::*;
pub use drivers::*;
pub use vehicles::*;

use chrono::NaiveDate;
use serde::Serialize;
use serde_json::json;
use uuid::Uuid;

use crate::domain::calendar::Deadline;
use crate::domain::charter::sanctions::{Outcome, ProcedureAct, act_floor};
use crate::domain::charter::{
    self as rules, Baixa, CharterAct, CharterDriverFacts, CharterVehicleFacts, CompanySanction,
    ContractFacts, ListedVehicle, Passenger, SubstitutionReason, TripLeg, Vistoria,
};
use crate::domain::dates::local_date;
use crate::domain::ids::{CnhNumber, Cnpj, Cpf, Plate, Renavam};
use crate::domain::rule::RuleFailure;
use crate::issuance::UseCaseError;
use crate::issuance::procedure::ProcedureCase;
use crate::issuance::rectification::{self, Rectifies};
use crate::standing::charter::{
    self as reg, CharterVehicle, Company, CompanyData, DriverBaixa, DriverData, ItvReport,
    VehicleData, VehicleDocuments,
};
use crate::state::AppState;
use crate::storage::StorageError;
use crate::storage::charter::{CharterCommit, CharterRow, CharterTable, NewEvent};
use crate::storage::documents::Document;

const NO_COMPANY: &str = "Empresa não encontrado(a).";
const NO_VEHICLE: &str = "Veículo não encontrado(a).";
const NO_DRIVER: &str = "Condutor não encontrado(a).";
const NO_CONTRACT: &str = "Contrato não encontrado(a).";
const NO_AUTO: &str = "Auto de infração não encontrado(a).";

fn to_json<T: Serialize>(v: &T) -> Result<serde_json::Value, UseCaseError> {
    serde_json::to_value(v).map_err(|_| UseCaseError::Encoding)
}

/// Act `act` of the charter law on `table` row `id`, by `actor`, now.
fn event<'a>(
    state: &'a AppState,
    actor: &'a str,
    table: CharterTable,
    id: Uuid,
    act: CharterAct,
    data: serde_json::Value,
) -> NewEvent<'a> {
    NewEvent::act(
        table.entity_type(),
        id,
        act.as_str(),
        actor,
        &state.charter_basis().version,
        state.clock.now(),
        data,
    )
}

/// A new row of `table`, created by `actor` now: the registered entity's own data.
#[expect(
    clippy::too_many_arguments,
    reason = "one row: its table, keys and data, who and when"
)]
fn new_row(
    state: &AppState,
    actor: &str,
    table: CharterTable,
    id: Uuid,
    company_id: Option<Uuid>,
    key: String,
    alt_key: Option<String>,
    data: &impl Serialize,
) -> Result<Option<(CharterTable, CharterRow)>, UseCaseError> {
    Ok(Some((
        table,
        CharterRow {
            id,
            company_id,
            key,
            alt_key,
            data: to_json(data)?,
            created_at: state.clock.now(),
            created_by: actor.to_owned(),
        },
    )))
}

async fn append(state: &AppState, e: NewEvent<'_>) -> Result<(), UseCaseError> {
    state
        .store
        .charter_commit(CharterCommit {
            events: vec![e],
            ..CharterCommit::default()
        })
        .await?;
    Ok(())
}

/// FRET-ART9 (AMB-53): a change of a company's, vehicle's or driver's registration data
/// communicated to SIS, recorded with the day it changed and the day it was communicated. The
/// law sets no deadline, so none is computed and no warning is given.
pub async fn report_data_change(
    state: &AppState,
    actor: &str,
    table: CharterTable,
    id: Uuid,
    change: &crate::issuance::ride_hailing::register::DataChange,
    rectifies: Option<&Rectifies>,
) -> Result<(), UseCaseError> {
    state
        .store
        .charter_get(table, id)
        .await?
        .ok_or(UseCaseError::NotFound("Registro não encontrado."))?;
    rectification::record(
        state,
        event(
            state,
            actor,
            table,
            id,
            CharterAct::DataChangeReported,
            json!({
                "what": change.what,
                "changed_on": change.changed_on,
                "reported_on": change.reported_on,
            }),
        ),
        rectifies,
    )
    .await
}

/// The company `id`, as it stands.
pub async fn company(state: &AppState, id: Uuid) -> Result<Company, UseCaseError> {
    reg::load_company(&state.store, id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_COMPANY))
}

/// The vehicle `id`, as it stands.
pub async fn vehicle(state: &AppState, id: Uuid) -> Result<CharterVehicle, UseCaseError> {
    reg::load_vehicle(&state.store, id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_VEHICLE))
}

fn problems(failures: Vec<RuleFailure>) -> Result<(), UseCaseError> {
    if failures.is_empty() {
        Ok(())
    } else {
        Err(UseCaseError::Rules(failures))
    }
}
