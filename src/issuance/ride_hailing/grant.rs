//! Use case: grant a ride-hailing authorization (APP-ART2, APP-ART3, APP-ART12) and issue its
//! authorization and windshield sticker.

use chrono::Datelike;
use uuid::Uuid;

use crate::documents::RideHailingDocumentContext;
use crate::domain::dates::local_date;
use crate::domain::ride_hailing::registry::{Driver, RideHailingAuthorization, Vehicle};
use crate::domain::ride_hailing::{GrantFacts, decide_grant};
use crate::issuance::UseCaseError;
use crate::issuance::pipeline::{issue_ride_hailing_document, void};
use crate::standing::ride_hailing::deregistered_on;
use crate::state::AppState;
use crate::storage::documents::SignedDocument;
use crate::storage::{DocumentKind, NewGrant, StorageError};

/// The series of ride-hailing authorization numbers.
pub const APP_SERIES: &str = "APP";

/// A granted authorization with its documents.
#[derive(Debug, Clone)]
pub struct Granted {
    pub authorization: RideHailingAuthorization,
    pub documents: Vec<SignedDocument>,
}

/// The driver and the car a grant names.
async fn parties(
    state: &AppState,
    driver_id: Uuid,
    vehicle_id: Uuid,
) -> Result<(Driver, Vehicle), UseCaseError> {
    let driver =
        state
            .store
            .get_driver(driver_id)
            .await?
            .ok_or(UseCaseError::UnknownReference {
                field: "driver_id",
                message: "Condutor não cadastrado.",
            })?;
    let vehicle =
        state
            .store
            .get_vehicle(vehicle_id)
            .await?
            .ok_or(UseCaseError::UnknownReference {
                field: "vehicle_id",
                message: "Veículo não cadastrado.",
            })?;
    Ok((driver, vehicle))
}

/// Grants an authorization (APP-ART3, APP-ART8) and issues the authorization and the
/// windshield sticker (APP-ART14).
pub async fn grant_app_authorization(
    state: &AppState,
    driver_id: Uuid,
    vehicle_id: Uuid,
    fee_paid_on: chrono::NaiveDate,
    protocolled_on: Option<chrono::NaiveDate>,
    actor: &str,
) -> Result<Granted, UseCaseError> {
    let store = &state.store;
    let (driver, vehicle) = parties(state, driver_id, vehicle_id).await?;
    let now = state.clock.now();
    let today = local_date(now);
    // When the application was protocolled; typed in later, never ahead.
    let protocolled_on = protocolled_on.unwrap_or(today);
    if protocolled_on > today {
        return Err(UseCaseError::Inconsistent {
            field: "protocolled_on",
            message: "A data do protocolo do pedido não pode ser futura.",
        });
    }
    let (driver_active, vehicle_active) = store
        .active_authorization_flags(driver_id, vehicle_id, now)
        .await?;
    let facts = GrantFacts {
        driver: driver.facts(),
        vehicle: vehicle.facts(),
        fee_paid_on,
        today,
        protocolled_on,
        driver_has_active_authorization: driver_active,
        vehicle_has_active_authorization: vehicle_active,
        driver_deregistered_since: deregistered_on(state, "driver", driver_id, today).await?,
        vehicle_deregistered_since: deregistered_on(state, "vehicle", vehicle_id, today).await?,
    };
    let decision =
        decide_grant(&facts, &state.ride_hailing_basis()).map_err(UseCaseError::Rules)?;

    let reserved = store
        .reserve_number(APP_SERIES, today.year(), now, actor)
        .await?;
    let authorization = RideHailingAuthorization {
        id: Uuid::new_v4(),
        number: reserved.number.clone(),
        driver_id,
        vehicle_id,
        fee_paid_on,
        valid_from: decision.valid_from,
        valid_until: decision.valid_until,
        legal_basis_version: decision.legal_basis_version.clone(),
        granted_at: now,
        granted_by: actor.to_owned(),
        protocolled_on: Some(protocolled_on),
        revocation: None,
        substitutions: 0,
    };
    let ctx = RideHailingDocumentContext {
        authorization: &authorization,
        driver: &driver,
        vehicle: &vehicle,
        basis: &state.ride_hailing_basis(),
        letterhead: &state.letterhead,
        issued_at: now,
    };
    let result = async {
        let mut docs = Vec::with_capacity(2);
        for kind in [
            DocumentKind::RideHailingAuthorization,
            DocumentKind::RideHailingSticker,
        ] {
            docs.push(issue_ride_hailing_document(state, &ctx, kind, None, now, actor).await?);
        }
        let grant = NewGrant {
            authorization: authorization.clone(),
            documents: docs,
        };
        store.commit_grant(&grant).await?;
        Ok::<_, UseCaseError>(grant.documents)
    }
    .await;
    match result {
        Ok(documents) => Ok(Granted {
            authorization,
            documents,
        }),
        Err(e) => {
            void(state, &reserved.number, &e).await;
            match e {
                UseCaseError::Storage(StorageError::Conflict("active_authorization")) => {
                    // Someone else was granted meanwhile: report it as the rule it is.
                    let facts = GrantFacts {
                        driver_has_active_authorization: true,
                        ..facts
                    };
                    Err(decide_grant(&facts, &state.ride_hailing_basis())
                        .err()
                        .map_or(
                            UseCaseError::Internal("grant conflict without a failed rule"),
                            UseCaseError::Rules,
                        ))
                }
                other => Err(other),
            }
        }
    }
}
