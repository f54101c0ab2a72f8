//! Use case: judge a ride-hailing grant before anything is written. The driver and the car may
//! be registered already or be typed from their papers; the same decision as the grant's
//! (APP-ART2, APP-ART3, APP-ART8, APP-ART12, APP-ART15, APP-ART24-I) runs on them, and every
//! failed requirement comes back with its article, so that the grant passes at its first
//! submission.

use chrono::NaiveDate;
use uuid::Uuid;

use super::grant::{grant_facts, protocol_date, renewed_of};
use super::register::{NewDriver, NewVehicle};
use crate::domain::dates::local_date;
use crate::domain::ride_hailing::driver_record::DriverRecord;
use crate::domain::ride_hailing::registry::{Driver, Vehicle};
use crate::domain::ride_hailing::renewal::decide_renewal;
use crate::domain::ride_hailing::{GrantDecision, decide_grant};
use crate::domain::rule::RuleFailure;
use crate::issuance::UseCaseError;
use crate::state::AppState;

/// A party of a grant: one of the register, or one to be entered with the grant.
pub enum Party<N> {
    Registered(Uuid),
    New(N),
}

/// What a grant would decide on these papers.
#[derive(Debug)]
pub struct GrantCheck {
    /// The driver as the grant would judge them (a new one with a provisional id).
    pub driver: Driver,
    pub driver_registered: bool,
    pub vehicle: Vehicle,
    pub vehicle_registered: bool,
    /// The grant that would be made; `None` when a requirement fails.
    pub decision: Option<GrantDecision>,
    /// Every failed requirement, each with its rule, article and field.
    pub failures: Vec<RuleFailure>,
    /// Data the register already holds for another person or car (field, sentence): a new
    /// driver's CPF or CNH, a new car's plate or RENAVAM.
    pub taken: Vec<(&'static str, &'static str)>,
}

impl GrantCheck {
    /// Whether the grant would be made as it stands.
    pub fn passes(&self) -> bool {
        self.decision.as_ref().is_some_and(|d| d.review.is_empty()) && self.taken.is_empty()
    }
}

/// What a check judges: a grant, or the renewal of an authorization (AMB-66).
pub struct CheckRequest {
    /// `None` for a renewal: the driver of the authorization renewed.
    pub driver: Option<Party<NewDriver>>,
    /// Certificates and records to be filed with the request.
    pub filed: Option<DriverRecord>,
    /// `None`: for a renewal, the car the authorization binds now.
    pub vehicle: Option<Party<NewVehicle>>,
    pub renewal_of: Option<Uuid>,
    pub fee_paid_on: NaiveDate,
    pub protocolled_on: Option<NaiveDate>,
}

/// Judges a grant (or a renewal) on its driver, with what is filed with it, and its car, paid
/// on `fee_paid_on`; writes nothing.
#[expect(
    clippy::too_many_lines,
    reason = "each party resolved the same way, read top to bottom"
)]
pub async fn check_grant(
    state: &AppState,
    request: CheckRequest,
) -> Result<GrantCheck, UseCaseError> {
    let CheckRequest {
        driver,
        filed,
        vehicle,
        renewal_of,
        fee_paid_on,
        protocolled_on,
    } = request;
    let current = match renewal_of {
        Some(id) => Some(
            state
                .store
                .get_authorization(id)
                .await?
                .ok_or(UseCaseError::NotFound("Autorização não encontrada."))?,
        ),
        None => None,
    };
    let driver = match (driver, &current) {
        (Some(d), _) => d,
        (None, Some(c)) => Party::Registered(c.driver_id),
        (None, None) => {
            return Err(UseCaseError::UnknownReference {
                field: "driver_id",
                message: "Informe o condutor.",
            });
        }
    };
    let vehicle = match (vehicle, &current) {
        (Some(v), _) => v,
        (None, Some(c)) => Party::Registered(c.vehicle_id),
        (None, None) => {
            return Err(UseCaseError::UnknownReference {
                field: "vehicle_id",
                message: "Informe o veículo.",
            });
        }
    };
    let now = state.clock.now();
    let protocolled_on = protocol_date(protocolled_on, local_date(now))?;
    let mut taken = Vec::new();
    let (mut driver, driver_registered) = match driver {
        Party::Registered(id) => (
            state
                .store
                .get_driver(id)
                .await?
                .ok_or(UseCaseError::UnknownReference {
                    field: "driver_id",
                    message: "Condutor não cadastrado.",
                })?,
            true,
        ),
        Party::New(new) => {
            if let Some((_, same_cpf)) = state
                .store
                .driver_id_by_cpf_or_cnh(new.cpf.as_str(), new.cnh.number.as_str())
                .await?
            {
                taken.push(if same_cpf {
                    ("cpf", "Já existe um condutor com este CPF.")
                } else {
                    ("cnh.number", "Já existe um condutor com esta CNH.")
                });
            }
            (new.into_driver(now), false)
        }
    };
    if let Some(filed) = filed {
        driver.record = driver.record.with_filing(filed);
    }
    let (vehicle, vehicle_registered) = match vehicle {
        Party::Registered(id) => (
            state
                .store
                .get_vehicle(id)
                .await?
                .ok_or(UseCaseError::UnknownReference {
                    field: "vehicle_id",
                    message: "Veículo não cadastrado.",
                })?,
            true,
        ),
        Party::New(new) => {
            if let Some((_, same_plate)) = state
                .store
                .vehicle_id_by_plate_or_renavam(&new.plate.mercosul_form(), new.renavam.as_str())
                .await?
            {
                taken.push(if same_plate {
                    ("vehicle.plate", "Já existe um veículo com esta placa.")
                } else {
                    ("vehicle.renavam", "Já existe um veículo com este RENAVAM.")
                });
            }
            (new.into_vehicle(now), false)
        }
    };
    let renewing = current.as_ref().map(|c| c.id);
    let facts = grant_facts(
        state,
        &driver,
        &vehicle,
        fee_paid_on,
        protocolled_on,
        renewing,
    )
    .await?;
    let basis = state.ride_hailing_basis();
    let decided = match &current {
        Some(c) => decide_renewal(&renewed_of(state, c).await?, &facts, &basis),
        None => decide_grant(&facts, &basis),
    };
    let (decision, failures) = match decided {
        Ok(d) => (Some(d), Vec::new()),
        Err(f) => (None, f),
    };
    Ok(GrantCheck {
        driver,
        driver_registered,
        vehicle,
        vehicle_registered,
        decision,
        failures,
        taken,
    })
}
