//! Use case: replacing the car of a ride-hailing authorization (APP-ART8-P2).

use chrono::NaiveDate;
use serde_json::json;
use uuid::Uuid;

use crate::documents::RideHailingDocumentContext;
use crate::domain::dates::local_date;
use crate::domain::ride_hailing::AuthorizationStatus;
use crate::domain::ride_hailing::RideHailingAct;
use crate::domain::ride_hailing::registry::{Driver, RideHailingAuthorization, Vehicle};
use crate::domain::ride_hailing::sanctions::authorization_status;
use crate::domain::ride_hailing::substitution::{
    SubstitutionCause, SubstitutionFacts, app_art8_new_vehicle_bound, decide_substitution,
};
use crate::domain::ride_hailing::vistoria::{InspectionReport, RideHailingVistoria};
use crate::issuance::UseCaseError;
use crate::issuance::pipeline::issue_ride_hailing_document as issue_document;
use crate::standing::ride_hailing::{deregistered_on, ride_hailing_standing};
use crate::state::AppState;
use crate::storage::charter::NewEvent;
use crate::storage::documents::SignedDocument;
use crate::storage::ride_hailing::substitution::NewSubstitution;
use crate::storage::{DocumentKind, StorageError};

/// What an official files to replace the car.
#[derive(Debug, Clone)]
pub struct SubstitutionRequest {
    pub new_vehicle_id: Uuid,
    pub cause: SubstitutionCause,
    /// The SMF vistoria of the new car (art. 8º, §2º).
    pub vistoria_on: NaiveDate,
    /// The day the request was protocolled. AMB-65 (our reading): art.
    /// 8º, §2º's requirements of the new car are judged at the substitution, the act that
    /// rests on them; the protocol date is recorded with it.
    pub protocolled_on: NaiveDate,
    pub vistoria_approved: bool,
    pub inspector: String,
    pub notes: String,
}

/// A committed replacement: the authorization as it is now and its new documents.
#[derive(Debug, Clone)]
pub struct Substituted {
    pub authorization: RideHailingAuthorization,
    pub documents: Vec<SignedDocument>,
}

/// The authorization's status now (sanctions first, then the register and the vistorias)
/// and its vistoria report.
async fn status_now(
    state: &AppState,
    a: &RideHailingAuthorization,
) -> Result<(AuthorizationStatus, InspectionReport), StorageError> {
    let now = state.clock.now();
    let sanctions = state.store.sanctions_of(a.id).await?;
    let (standing, report) =
        ride_hailing_standing(state, a.id, a.driver_id, a.vehicle_id, a.granted_at, now).await?;
    let (status, _) = authorization_status(
        a.valid_until,
        a.revocation.as_ref().map(|r| r.revoked_at),
        &sanctions,
        standing,
        now,
    );
    Ok((status, report))
}

/// APP-ART8-P2: the facts of the replacement, gathered now, and the domain's decision.
pub(crate) async fn check(
    state: &AppState,
    a: &RideHailingAuthorization,
    vehicle: &Vehicle,
    driver: &Driver,
    req: &SubstitutionRequest,
) -> Result<(), UseCaseError> {
    let now = state.clock.now();
    let same_vehicle = vehicle.id == a.vehicle_id;
    let (_, bound) = state
        .store
        .active_authorization_flags(a.driver_id, vehicle.id, now, None)
        .await?;
    let new_facts = vehicle.facts();
    let (status, report) = status_now(state, a).await?;
    let facts = SubstitutionFacts {
        status,
        valid_from: a.valid_from,
        same_vehicle,
        new_vehicle: &new_facts,
        driver_cpf: driver.cpf.as_str(),
        new_vehicle_bound: bound && !same_vehicle,
        new_vehicle_deregistered_since: deregistered_on(
            state,
            "vehicle",
            vehicle.id,
            local_date(now),
        )
        .await?,
        last_vistoria_on: report.last_vistoria.as_ref().map(|v| v.performed_on),
        vistoria_on: req.vistoria_on,
        vistoria_approved: req.vistoria_approved,
        today: local_date(now),
    };
    decide_substitution(&facts, &state.ride_hailing_basis()).map_err(UseCaseError::Rules)?;
    Ok(())
}

const NO_AUTHORIZATION: &str = "Autorização não encontrada.";
const CONCURRENT: &str = "Outra substituição de veículo desta autorização foi registrada ao mesmo tempo; consulte a autorização e tente de novo.";

/// The authorization, the new car and the driver, or why one cannot be found.
async fn parties(
    state: &AppState,
    id: Uuid,
    new_vehicle_id: Uuid,
) -> Result<(RideHailingAuthorization, Vehicle, Driver), UseCaseError> {
    let store = &state.store;
    let a = store
        .get_authorization(id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_AUTHORIZATION))?;
    let vehicle =
        store
            .get_vehicle(new_vehicle_id)
            .await?
            .ok_or(UseCaseError::UnknownReference {
                field: "new_vehicle_id",
                message: "Veículo não cadastrado.",
            })?;
    let driver = store
        .get_driver(a.driver_id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_AUTHORIZATION))?;
    Ok((a, vehicle, driver))
}

/// APP-ART8-P2 judged as the replacement would be decided now, writing nothing: the
/// authorization's number and the new car's plate, and every requirement not met.
pub async fn check_substitution(
    state: &AppState,
    id: Uuid,
    req: &SubstitutionRequest,
) -> Result<(String, String, Vec<crate::domain::rule::RuleFailure>), UseCaseError> {
    let (a, vehicle, driver) = parties(state, id, req.new_vehicle_id).await?;
    let failures = match check(state, &a, &vehicle, &driver, req).await {
        Ok(()) => Vec::new(),
        Err(UseCaseError::Rules(failures)) => failures,
        Err(e) => return Err(e),
    };
    Ok((a.number, vehicle.plate.as_str().to_owned(), failures))
}

/// APP-ART8-P2: replaces the car of authorization `id`.
pub async fn substitute_vehicle(
    state: &AppState,
    id: Uuid,
    req: SubstitutionRequest,
    actor: &str,
) -> Result<Substituted, UseCaseError> {
    let store = &state.store;
    let (a, vehicle, driver) = parties(state, id, req.new_vehicle_id).await?;
    let now = state.clock.now();
    check(state, &a, &vehicle, &driver, &req).await?;

    let seq = a.substitutions + 1;
    let updated = RideHailingAuthorization {
        vehicle_id: vehicle.id,
        substitutions: seq,
        ..a.clone()
    };
    let ctx = RideHailingDocumentContext {
        authorization: &updated,
        driver: &driver,
        vehicle: &vehicle,
        basis: &state.ride_hailing_basis(),
        letterhead: &state.letterhead,
        issued_at: now,
    };
    let issued_for =
        i32::try_from(seq).map_err(|_| UseCaseError::Internal("replacement number"))?;
    let mut documents = Vec::with_capacity(2);
    for kind in [
        DocumentKind::RideHailingAuthorization,
        DocumentKind::RideHailingSticker,
    ] {
        documents.push(issue_document(state, &ctx, kind, Some(issued_for), now, actor).await?);
    }
    let vistoria = RideHailingVistoria {
        performed_on: req.vistoria_on,
        approved: true,
        inspector: req.inspector,
        notes: req.notes,
        notified_on: None,
    };
    let version = state.ride_hailing_basis().version.clone();
    let reason = format!("substituição por {}", req.cause.label_pt());
    let link = json!({"authorization_id": a.id, "number": a.number, "seq": seq});
    let event = |entity_type, entity_id, kind, data| NewEvent {
        entity_type,
        entity_id,
        kind,
        actor,
        reason: Some(reason.as_str()),
        legal_basis_version: version.clone(),
        at: now,
        data,
    };
    let events = vec![
        event(
            "app_authorization",
            a.id,
            RideHailingAct::VehicleSubstituted.as_str(),
            json!({
                "seq": seq,
                "old_vehicle_id": a.vehicle_id,
                "new_vehicle_id": vehicle.id,
                "cause": req.cause,
                "vistoria_on": req.vistoria_on,
                "protocolled_on": req.protocolled_on,
                "documents": documents.iter().map(|d| json!({"id": d.document.id, "kind": d.document.kind.as_str(), "sha256": d.document.sha256})).collect::<Vec<_>>(),
            }),
        ),
        event(
            "app_authorization",
            a.id,
            RideHailingAct::VistoriaRecorded.as_str(),
            serde_json::to_value(&vistoria).map_err(|_| UseCaseError::Encoding)?,
        ),
        event("vehicle", a.vehicle_id, "unbound", link.clone()),
        event("vehicle", vehicle.id, "bound", link),
    ];
    let commit = NewSubstitution {
        authorization_id: a.id,
        seq,
        old_vehicle_id: a.vehicle_id,
        new_vehicle_id: vehicle.id,
        cause: req.cause,
        vistoria_on: req.vistoria_on,
        protocolled_on: req.protocolled_on,
        at: now,
        actor,
        documents: &documents,
        events,
    };
    match store.commit_substitution(&commit).await {
        Ok(()) => Ok(Substituted {
            authorization: updated,
            documents,
        }),
        // Bound meanwhile: report it as the rule it is.
        Err(StorageError::Conflict("active_authorization")) => {
            Err(UseCaseError::Rules(vec![app_art8_new_vehicle_bound()]))
        }
        Err(StorageError::Conflict("substitution")) => Err(UseCaseError::Concurrent(CONCURRENT)),
        Err(e) => Err(e.into()),
    }
}
