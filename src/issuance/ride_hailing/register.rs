//! Use cases of the ride-hailing register (arts. 2º, 12, 13 XIX, 15, 24 I): drivers and cars
//! entered, their records filed, changes reported, holders declared, removals and returns.

use chrono::NaiveDate;
use uuid::Uuid;

use crate::domain::calendar::Deadline;
use crate::domain::dates::local_date;
use crate::domain::ids::{Cpf, IbgeCode, Plate, Renavam};
use crate::domain::ride_hailing::deregistration::{
    RegisterAct, Subject, check_act, deregistered_since,
};
use crate::domain::ride_hailing::driver_record::DriverRecord;
use crate::domain::ride_hailing::registry::{Cnh, Driver, Vehicle};
use crate::domain::ride_hailing::{RideHailingAct, VehicleOwner};
use crate::domain::rule::RuleFailure;
use crate::issuance::UseCaseError;
use crate::issuance::rectification::Rectifies;
use crate::standing;
use crate::state::AppState;
use crate::storage::StorageError;

const NO_DRIVER: &str = "Condutor não encontrado.";
const NO_VEHICLE: &str = "Veículo não encontrado.";

/// The driver `id`, if registered.
pub async fn driver_id(state: &AppState, id: Uuid) -> Result<Uuid, UseCaseError> {
    state
        .store
        .get_driver(id)
        .await?
        .map(|d| d.id)
        .ok_or(UseCaseError::NotFound(NO_DRIVER))
}

/// A driver to enter in the register (art. 12), parsed.
pub struct NewDriver {
    pub name: String,
    pub cpf: Cpf,
    pub cnh: Cnh,
    /// Art. 12, III, IV and §1º: optional at registration, required to be granted.
    pub record: DriverRecord,
}

impl NewDriver {
    /// The driver as the register would hold it, with a new id.
    pub fn into_driver(self, now: chrono::DateTime<chrono::Utc>) -> Driver {
        Driver {
            id: Uuid::new_v4(),
            name: self.name,
            cpf: self.cpf,
            cnh: self.cnh,
            record: self.record,
            created_at: now,
        }
    }
}

/// Enters a driver; the CPF and the CNH are unique in the register.
pub async fn register_driver(
    state: &AppState,
    actor: &str,
    new: NewDriver,
) -> Result<Driver, UseCaseError> {
    let driver = new.into_driver(state.clock.now());
    match state.store.insert_driver(&driver, actor).await {
        Ok(()) => Ok(driver),
        Err(StorageError::Conflict("cpf")) => Err(UseCaseError::Duplicate {
            field: "cpf",
            message: "Já existe um condutor com este CPF.",
        }),
        Err(StorageError::Conflict("cnh_number")) => Err(UseCaseError::Duplicate {
            field: "cnh.number",
            message: "Já existe um condutor com esta CNH.",
        }),
        Err(e) => Err(e.into()),
    }
}

/// A car to enter in the register (arts. 2º and 15), parsed.
pub struct NewVehicle {
    pub plate: Plate,
    pub renavam: Renavam,
    pub make: String,
    pub model: String,
    pub color: String,
    pub model_year: i32,
    pub manufacture_year: Option<i32>,
    pub doors: i32,
    pub air_conditioning: bool,
    pub capacity_including_driver: i32,
    pub registration_municipality: IbgeCode,
    pub in_service_since: Option<NaiveDate>,
    pub owner: VehicleOwner,
}

impl NewVehicle {
    /// The car as the register would hold it, with a new id.
    pub fn into_vehicle(self, now: chrono::DateTime<chrono::Utc>) -> Vehicle {
        Vehicle {
            id: Uuid::new_v4(),
            plate: self.plate,
            renavam: self.renavam,
            make: self.make,
            model: self.model,
            color: self.color,
            model_year: self.model_year,
            manufacture_year: self.manufacture_year,
            doors: self.doors,
            air_conditioning: self.air_conditioning,
            capacity_including_driver: self.capacity_including_driver,
            registration_municipality: self.registration_municipality,
            in_service_since: self.in_service_since,
            owner: Some(self.owner),
            created_at: now,
        }
    }
}

/// Enters a car; the plate and the RENAVAM are unique in the register.
pub async fn register_vehicle(
    state: &AppState,
    actor: &str,
    new: NewVehicle,
) -> Result<Vehicle, UseCaseError> {
    let vehicle = new.into_vehicle(state.clock.now());
    match state.store.insert_vehicle(&vehicle, actor).await {
        Ok(()) => Ok(vehicle),
        Err(StorageError::Conflict("plate_mercosul")) => Err(UseCaseError::Duplicate {
            field: "plate",
            message: "Já existe um veículo com esta placa.",
        }),
        Err(StorageError::Conflict("renavam")) => Err(UseCaseError::Duplicate {
            field: "renavam",
            message: "Já existe um veículo com este RENAVAM.",
        }),
        Err(e) => Err(e.into()),
    }
}

/// Files certificates, traffic infractions or the CTB 306 record (art. 12, III, IV, §1º): they
/// add to the record in force (append-only snapshots).
pub async fn file_driver_record(
    state: &AppState,
    actor: &str,
    id: Uuid,
    filed: DriverRecord,
) -> Result<Driver, UseCaseError> {
    let driver = state
        .store
        .get_driver(id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_DRIVER))?;
    let record = driver.record.with_filing(filed);
    if !state
        .store
        .add_driver_record(id, &record, actor, state.clock.now())
        .await?
    {
        return Err(UseCaseError::NotFound(NO_DRIVER));
    }
    state
        .store
        .get_driver(id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_DRIVER))
}

/// A change of registration data as reported by the driver (APP-ART13-XIX).
#[derive(serde::Serialize)]
pub struct DataChange {
    pub what: String,
    pub changed_on: NaiveDate,
    pub reported_on: NaiveDate,
}

/// Records a reported change with its 7-day deadline; a late report carries the art. 26, III
/// warning.
pub async fn report_data_change(
    state: &AppState,
    actor: &str,
    id: Uuid,
    change: &DataChange,
    rectifies: Option<&Rectifies>,
) -> Result<(Deadline, Option<RuleFailure>), UseCaseError> {
    state
        .store
        .get_driver(id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_DRIVER))?;
    let cal = state.calendar().await?;
    let (due, late) = crate::domain::ride_hailing::vistoria::app_art13_xix_report(
        change.changed_on,
        change.reported_on,
        &cal,
        &state.deadline_rules,
        &state.ride_hailing_basis(),
    );
    let data = serde_json::json!({
        "what": change.what,
        "changed_on": change.changed_on,
        "reported_on": change.reported_on,
        "due": due.due,
        "late": late.is_some(),
    });
    super::acts::record_or_rectify(
        state,
        actor,
        ("driver", id, RideHailingAct::DataChangeReported.as_str()),
        &data,
        rectifies,
    )
    .await?;
    Ok((due, late))
}

/// Declares how the driver holds the car (APP-ART15), for a car registered before selo asked
/// it or when the CRLV holder changes.
pub async fn declare_owner(
    state: &AppState,
    actor: &str,
    id: Uuid,
    owner: &VehicleOwner,
) -> Result<Vehicle, UseCaseError> {
    if !state
        .store
        .set_vehicle_owner(id, owner, actor, state.clock.now())
        .await?
    {
        return Err(UseCaseError::NotFound(NO_VEHICLE));
    }
    state
        .store
        .get_vehicle(id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_VEHICLE))
}

/// Removes a driver or car that lost a requirement from the register, after notice, or
/// restores it (art. 24, I, d and f; AMB-36). Answers since when it is out of the register,
/// if it is, and every act so far.
pub async fn register_act(
    state: &AppState,
    actor: &str,
    subject: Subject,
    id: Uuid,
    act: RegisterAct,
    rectifies: Option<&Rectifies>,
) -> Result<(Option<NaiveDate>, Vec<RegisterAct>), UseCaseError> {
    let (entity_type, missing, exists) = match subject {
        Subject::Driver => (
            "driver",
            NO_DRIVER,
            state.store.get_driver(id).await?.is_some(),
        ),
        Subject::Vehicle => (
            "vehicle",
            NO_VEHICLE,
            state.store.get_vehicle(id).await?.is_some(),
        ),
    };
    if !exists {
        return Err(UseCaseError::NotFound(missing));
    }
    let today = local_date(state.clock.now());
    let kind = RideHailingAct::RegisterAct.as_str();
    let mut recorded: Vec<(i64, RegisterAct)> = state
        .store
        .events_of(entity_type, &id.to_string())
        .await?
        .iter()
        .filter(|e| e.kind == kind)
        .filter_map(|e| Some((e.id, serde_json::from_str(&e.data).ok()?)))
        .collect();
    // A rectified act is judged in its place, which is the last: the acts
    // after it were judged against it.
    if let Some(r) = rectifies {
        if recorded.last().is_some_and(|(last, _)| *last != r.event)
            && recorded.iter().any(|(e, _)| *e == r.event)
        {
            return Err(UseCaseError::Conflict {
                detail: "Só o último ato de descadastramento ou recadastramento pode ser retificado: retifique antes os posteriores.".into(),
                field: Some(("rectifies.event", "Há atos posteriores a este.".into())),
            });
        }
        recorded.retain(|(e, _)| *e != r.event);
    }
    let acts: Vec<RegisterAct> = recorded.into_iter().map(|(_, a)| a).collect();
    let failures = check_act(&act, subject, &acts, today);
    if !failures.is_empty() {
        return Err(UseCaseError::Rules(failures));
    }
    super::acts::record_or_rectify(state, actor, (entity_type, id, kind), &act, rectifies).await?;
    let acts = standing::ride_hailing::register_acts(state, entity_type, id).await?;
    Ok((deregistered_since(&acts, today), acts))
}
