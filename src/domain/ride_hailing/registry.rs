//! Registered entities of the ride-hailing law, holding parsed values only.

use chrono::{DateTime, NaiveDate, Utc};
use uuid::Uuid;

use super::driver_record::DriverRecord;
use super::{DriverFacts, VehicleFacts, VehicleOwner};
use crate::domain::ids::{CnhCategory, CnhNumber, Cpf, IbgeCode, Plate, Renavam};

/// A driver's licence (CNH) as registered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cnh {
    pub number: CnhNumber,
    pub category: CnhCategory,
    pub first_license_date: NaiveDate,
    pub ear: bool,
    pub expires_on: NaiveDate,
}

/// A ride-hailing driver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Driver {
    pub id: Uuid,
    pub name: String,
    pub cpf: Cpf,
    pub cnh: Cnh,
    /// The latest filed record (art. 12, III, IV, §1º).
    pub record: DriverRecord,
    pub created_at: DateTime<Utc>,
}

impl Driver {
    pub fn facts(&self) -> DriverFacts {
        DriverFacts {
            cpf: self.cpf.as_str().to_owned(),
            cnh_category: self.cnh.category,
            ear: self.cnh.ear,
            first_license_date: self.cnh.first_license_date,
            cnh_expires_on: self.cnh.expires_on,
            record: self.record.clone(),
        }
    }
}

/// A car registered for ride-hailing (data from its CRLV).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vehicle {
    pub id: Uuid,
    pub plate: Plate,
    pub renavam: Renavam,
    pub make: String,
    pub model: String,
    pub color: String,
    pub model_year: i32,
    /// From the CRLV; `None` for a car registered before it was asked.
    pub manufacture_year: Option<i32>,
    pub doors: i32,
    pub air_conditioning: bool,
    pub capacity_including_driver: i32,
    pub registration_municipality: IbgeCode,
    /// Since when the car serves ride-hailing here, if declared (APP-ART2-P3).
    pub in_service_since: Option<NaiveDate>,
    /// In whose name the CRLV is and how the driver holds the car (APP-ART15); `None` for a
    /// car registered before it was asked.
    pub owner: Option<VehicleOwner>,
    pub created_at: DateTime<Utc>,
}

impl Vehicle {
    pub fn facts(&self) -> VehicleFacts {
        VehicleFacts {
            model_year: self.model_year,
            manufacture_year: self.manufacture_year,
            doors: self.doors,
            air_conditioning: self.air_conditioning,
            capacity_including_driver: self.capacity_including_driver,
            registration_municipality: self.registration_municipality,
            in_service_since: self.in_service_since,
            owner: self.owner.clone(),
        }
    }
}

/// A granted ride-hailing authorization.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RideHailingAuthorization {
    pub id: Uuid,
    pub number: String,
    pub driver_id: Uuid,
    /// The car it binds now: the granted one, or the latest replacement's (APP-ART8-P2).
    pub vehicle_id: Uuid,
    pub fee_paid_on: NaiveDate,
    pub valid_from: NaiveDate,
    pub valid_until: NaiveDate,
    pub legal_basis_version: String,
    pub granted_at: DateTime<Utc>,
    pub granted_by: String,
    /// When the application was protocolled; `None` for grants before it was kept.
    pub protocolled_on: Option<NaiveDate>,
    pub revocation: Option<Revocation>,
    /// How many times the car was replaced (APP-ART8-P2).
    pub substitutions: u32,
    /// The authorization this one renews for the next year (APP-ART3-PU, AMB-66).
    pub renewal_of: Option<Uuid>,
}

/// The act that revoked an authorization.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revocation {
    pub revoked_at: DateTime<Utc>,
    pub revoked_by: String,
    pub reason: String,
}
