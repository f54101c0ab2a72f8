//! Use cases: grant a ride-hailing authorization (APP-ART2, APP-ART3, APP-ART12), or renew one
//! for the next year (AMB-66), and issue its authorization and windshield sticker.

use chrono::{Datelike, NaiveDate};
use uuid::Uuid;

use crate::documents::RideHailingDocumentContext;
use crate::domain::dates::local_date;
use crate::domain::ride_hailing::registry::{Driver, RideHailingAuthorization, Vehicle};
use crate::domain::ride_hailing::renewal::{Renewed, decide_renewal};
use crate::domain::ride_hailing::review::{GrantReview, ReviewOutcome};
use crate::domain::ride_hailing::sanctions::authorization_status;
use crate::domain::ride_hailing::{GrantDecision, GrantFacts, decide_grant};
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
    /// The provisions a court had suspended on the day, as the decision cites them.
    pub suspended: Vec<String>,
}

/// What a grant or renewal request came to: granted, or filed for an official's review
/// (AMB-25) with nothing issued.
#[derive(Debug, Clone)]
pub enum Filed {
    Granted(Granted),
    UnderReview(GrantReview),
}

/// What an official's decision on a filing came to.
#[derive(Debug, Clone)]
pub enum ReviewDecided {
    Granted(Granted),
    Refused(GrantReview),
}

/// The request a grant or a renewal decides, whether now or after a review.
struct Request<'a> {
    driver: &'a Driver,
    vehicle: &'a Vehicle,
    fee_paid_on: NaiveDate,
    protocolled_on: NaiveDate,
    renewal_of: Option<Uuid>,
    /// The filing this grant decides, and the decision's grounds.
    review: Option<(Uuid, String)>,
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

/// When the application was protocolled (typed in later, never ahead); today by default.
pub(super) fn protocol_date(
    protocolled_on: Option<NaiveDate>,
    today: NaiveDate,
) -> Result<NaiveDate, UseCaseError> {
    let protocolled_on = protocolled_on.unwrap_or(today);
    if protocolled_on > today {
        return Err(UseCaseError::Inconsistent {
            field: "protocolled_on",
            message: "A data do protocolo do pedido não pode ser futura.",
        });
    }
    Ok(protocolled_on)
}

/// The facts a grant (or a renewal, leaving out the authorization it renews) is judged on.
pub(super) async fn grant_facts(
    state: &AppState,
    driver: &Driver,
    vehicle: &Vehicle,
    fee_paid_on: NaiveDate,
    protocolled_on: NaiveDate,
    renewing: Option<Uuid>,
) -> Result<GrantFacts, UseCaseError> {
    let now = state.clock.now();
    let today = local_date(now);
    let (driver_active, vehicle_active) = state
        .store
        .active_authorization_flags(driver.id, vehicle.id, now, renewing)
        .await?;
    Ok(GrantFacts {
        driver: driver.facts(),
        vehicle: vehicle.facts(),
        fee_paid_on,
        today,
        protocolled_on,
        driver_has_active_authorization: driver_active,
        vehicle_has_active_authorization: vehicle_active,
        driver_deregistered_since: deregistered_on(state, "driver", driver.id, today).await?,
        vehicle_deregistered_since: deregistered_on(state, "vehicle", vehicle.id, today).await?,
    })
}

/// Grants an authorization (APP-ART3, APP-ART8) and issues the authorization and the
/// windshield sticker (APP-ART14) — or, when a requirement of the basis asks for an
/// official's review (AMB-25), files the request `em_analise` and issues nothing.
pub async fn grant_app_authorization(
    state: &AppState,
    driver_id: Uuid,
    vehicle_id: Uuid,
    fee_paid_on: NaiveDate,
    protocolled_on: Option<NaiveDate>,
    actor: &str,
) -> Result<Filed, UseCaseError> {
    let (driver, vehicle) = parties(state, driver_id, vehicle_id).await?;
    let today = local_date(state.clock.now());
    let protocolled_on = protocol_date(protocolled_on, today)?;
    let request = Request {
        driver: &driver,
        vehicle: &vehicle,
        fee_paid_on,
        protocolled_on,
        renewal_of: None,
        review: None,
    };
    let facts = grant_facts(state, &driver, &vehicle, fee_paid_on, protocolled_on, None).await?;
    let decision =
        decide_grant(&facts, &state.ride_hailing_basis()).map_err(UseCaseError::Rules)?;
    if !decision.review.is_empty() {
        return file_for_review(state, &request, &decision, actor)
            .await
            .map(Filed::UnderReview);
    }
    grant_decided(state, &request, facts, &decision, actor)
        .await
        .map(Filed::Granted)
}

/// Issues and commits a decided grant; a grant committed meanwhile for the same driver or
/// car is reported as the rule it breaks.
async fn grant_decided(
    state: &AppState,
    request: &Request<'_>,
    facts: GrantFacts,
    decision: &GrantDecision,
    actor: &str,
) -> Result<Granted, UseCaseError> {
    match issue_and_commit(state, request, decision, actor).await {
        Err(UseCaseError::Storage(StorageError::Conflict("active_authorization"))) => {
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
        other => other,
    }
}

/// AMB-25: a requirement the basis sends to an official's review is never granted outright:
/// the request is filed `em_analise` with its reasons, and no sticker exists before the
/// official decides (`decide_review`).
async fn file_for_review(
    state: &AppState,
    request: &Request<'_>,
    decision: &GrantDecision,
    actor: &str,
) -> Result<GrantReview, UseCaseError> {
    let review = GrantReview {
        id: Uuid::new_v4(),
        driver_id: request.driver.id,
        vehicle_id: request.vehicle.id,
        renewal_of: request.renewal_of,
        fee_paid_on: request.fee_paid_on,
        protocolled_on: request.protocolled_on,
        reasons: decision.review.clone(),
        legal_basis_version: decision.legal_basis_version.clone(),
        filed_at: state.clock.now(),
        filed_by: actor.to_owned(),
        decision: None,
    };
    match state.store.file_review(&review).await {
        Ok(()) => Ok(review),
        Err(StorageError::Conflict("pending_review")) => Err(UseCaseError::Conflict {
            detail: "Já há um pedido em análise para este(a) condutor(a) ou este veículo; \
                     decida-o antes de protocolar outro."
                .into(),
            field: Some((
                "driver_id",
                "Pedido em análise aguardando decisão.".to_owned(),
            )),
        }),
        Err(e) => Err(e.into()),
    }
}

/// An official decides a filing (AMB-25) with the decision's grounds. Refused: recorded, and
/// nothing is issued. Granted: the grant (or the renewal) is judged again on every other
/// requirement, today, with the filing's fee and protocol dates — a requirement that fails
/// now refuses it as a grant would be refused — and issues the authorization and the sticker,
/// the filing decided in the same transaction.
pub async fn decide_review(
    state: &AppState,
    review_id: Uuid,
    outcome: ReviewOutcome,
    grounds: &str,
    actor: &str,
) -> Result<ReviewDecided, UseCaseError> {
    let review = state
        .store
        .get_review(review_id)
        .await?
        .ok_or(UseCaseError::NotFound("Pedido em análise não encontrado."))?;
    if let Some(d) = &review.decision {
        return Err(already_decided(d.decided_at));
    }
    let decided = async {
        if outcome == ReviewOutcome::Refused {
            let now = state.clock.now();
            state
                .store
                .refuse_review(review.id, grounds, now, actor)
                .await?;
            let refused = state
                .store
                .get_review(review.id)
                .await?
                .ok_or(UseCaseError::Internal("refused review not read back"))?;
            return Ok(ReviewDecided::Refused(refused));
        }
        let (driver, vehicle) = parties(state, review.driver_id, review.vehicle_id).await?;
        let request = Request {
            driver: &driver,
            vehicle: &vehicle,
            fee_paid_on: review.fee_paid_on,
            protocolled_on: review.protocolled_on,
            renewal_of: review.renewal_of,
            review: Some((review.id, grounds.to_owned())),
        };
        match review.renewal_of {
            None => {
                let facts = grant_facts(
                    state,
                    &driver,
                    &vehicle,
                    review.fee_paid_on,
                    review.protocolled_on,
                    None,
                )
                .await?;
                let decision = decide_grant(&facts, &state.ride_hailing_basis())
                    .map_err(UseCaseError::Rules)?;
                grant_decided(state, &request, facts, &decision, actor).await
            }
            Some(renewed) => {
                let current = state
                    .store
                    .get_authorization(renewed)
                    .await?
                    .ok_or(UseCaseError::NotFound("Autorização não encontrada."))?;
                let judged = judge_renewal(state, &current, &request).await?;
                renewal_decided(state, &current, &request, judged, actor).await
            }
        }
        .map(ReviewDecided::Granted)
    }
    .await;
    match decided {
        Err(UseCaseError::Storage(StorageError::Conflict("review_decided"))) => {
            let at = state
                .store
                .get_review(review.id)
                .await?
                .and_then(|r| r.decision)
                .map_or(state.clock.now(), |d| d.decided_at);
            Err(already_decided(at))
        }
        other => other,
    }
}

fn already_decided(at: chrono::DateTime<chrono::Utc>) -> UseCaseError {
    UseCaseError::Conflict {
        detail: format!(
            "O pedido já foi decidido em {}.",
            local_date(at).format("%d/%m/%Y")
        ),
        field: None,
    }
}

/// Renews an authorization for the next year (APP-ART3-PU, reading AMB-66): a new
/// authorization with a new number that names the one it renews, judged on every requirement
/// of a grant, with its own authorization and sticker — or filed for review as a grant is.
/// `vehicle_id` is the car of the new year (by default the one the authorization binds now).
pub async fn renew_app_authorization(
    state: &AppState,
    authorization_id: Uuid,
    fee_paid_on: NaiveDate,
    protocolled_on: Option<NaiveDate>,
    vehicle_id: Option<Uuid>,
    actor: &str,
) -> Result<Filed, UseCaseError> {
    let current = state
        .store
        .get_authorization(authorization_id)
        .await?
        .ok_or(UseCaseError::NotFound("Autorização não encontrada."))?;
    let (driver, vehicle) = parties(
        state,
        current.driver_id,
        vehicle_id.unwrap_or(current.vehicle_id),
    )
    .await?;
    let today = local_date(state.clock.now());
    let request = Request {
        driver: &driver,
        vehicle: &vehicle,
        fee_paid_on,
        protocolled_on: protocol_date(protocolled_on, today)?,
        renewal_of: Some(current.id),
        review: None,
    };
    let judged = judge_renewal(state, &current, &request).await?;
    if !judged.decision.review.is_empty() {
        return file_for_review(state, &request, &judged.decision, actor)
            .await
            .map(Filed::UnderReview);
    }
    renewal_decided(state, &current, &request, judged, actor)
        .await
        .map(Filed::Granted)
}

/// A renewal judged: what it was judged on, and the decision.
struct JudgedRenewal {
    renewed: Renewed,
    facts: GrantFacts,
    decision: GrantDecision,
}

/// Judges a renewal on every requirement of a grant and on the authorization it renews.
async fn judge_renewal(
    state: &AppState,
    current: &RideHailingAuthorization,
    request: &Request<'_>,
) -> Result<JudgedRenewal, UseCaseError> {
    let renewed = renewed_of(state, current).await?;
    let facts = grant_facts(
        state,
        request.driver,
        request.vehicle,
        request.fee_paid_on,
        request.protocolled_on,
        Some(current.id),
    )
    .await?;
    let decision = decide_renewal(&renewed, &facts, &state.ride_hailing_basis())
        .map_err(UseCaseError::Rules)?;
    Ok(JudgedRenewal {
        renewed,
        facts,
        decision,
    })
}

/// Issues a judged renewal; another act that came first (a grant, or the same renewal) is
/// reported as the rule it breaks.
async fn renewal_decided(
    state: &AppState,
    current: &RideHailingAuthorization,
    request: &Request<'_>,
    judged: JudgedRenewal,
    actor: &str,
) -> Result<Granted, UseCaseError> {
    let JudgedRenewal {
        renewed,
        facts,
        decision,
    } = judged;
    let basis = state.ride_hailing_basis();
    let issued = issue_and_commit(state, request, &decision, actor).await;
    match issued {
        Err(UseCaseError::Storage(StorageError::Conflict(
            conflict @ ("active_authorization" | "renewal_of"),
        ))) => {
            // Another act came first (a grant, or the same renewal): report it as the rule.
            let renewed = Renewed {
                renewed_by: Some(if conflict == "renewal_of" {
                    state
                        .store
                        .renewal_of(current.id)
                        .await?
                        .map_or_else(|| "outra".to_owned(), |(_, n)| n)
                } else {
                    "outra".to_owned()
                }),
                ..renewed
            };
            let facts = GrantFacts {
                driver_has_active_authorization: conflict == "active_authorization",
                ..facts
            };
            Err(decide_renewal(&renewed, &facts, &basis).err().map_or(
                UseCaseError::Internal("renewal conflict without a failed rule"),
                UseCaseError::Rules,
            ))
        }
        other => other,
    }
}

/// What a renewal is judged on of the authorization it renews: its number, its end, its
/// status now and the renewal that already took its place, if any.
pub(super) async fn renewed_of(
    state: &AppState,
    current: &RideHailingAuthorization,
) -> Result<Renewed, UseCaseError> {
    let now = state.clock.now();
    let sanctions = state.store.sanctions_of(current.id).await?;
    let (standing, _) = crate::standing::ride_hailing::ride_hailing_standing(
        state,
        current.id,
        current.driver_id,
        current.vehicle_id,
        current.granted_at,
        now,
    )
    .await?;
    let (status, _) = authorization_status(
        current.valid_until,
        current.revocation.as_ref().map(|r| r.revoked_at),
        &sanctions,
        standing,
        now,
    );
    Ok(Renewed {
        number: current.number.clone(),
        valid_until: current.valid_until,
        status,
        renewed_by: state
            .store
            .renewal_of(current.id)
            .await?
            .map(|(_, number)| number),
    })
}

/// Reserves the number, issues the authorization and the sticker, and commits them (which
/// re-checks the one-authorization rule under lock); on any failure the number is voided.
async fn issue_and_commit(
    state: &AppState,
    request: &Request<'_>,
    decision: &GrantDecision,
    actor: &str,
) -> Result<Granted, UseCaseError> {
    let Request {
        driver,
        vehicle,
        fee_paid_on,
        protocolled_on,
        renewal_of,
        ..
    } = *request;
    let store = &state.store;
    let now = state.clock.now();
    let today = local_date(now);
    let reserved = store
        .reserve_number(APP_SERIES, today.year(), now, actor)
        .await?;
    let authorization = RideHailingAuthorization {
        id: Uuid::new_v4(),
        number: reserved.number.clone(),
        driver_id: driver.id,
        vehicle_id: vehicle.id,
        fee_paid_on,
        valid_from: decision.valid_from,
        valid_until: decision.valid_until,
        legal_basis_version: decision.legal_basis_version.clone(),
        granted_at: now,
        granted_by: actor.to_owned(),
        protocolled_on: Some(protocolled_on),
        revocation: None,
        substitutions: 0,
        renewal_of,
    };
    let ctx = RideHailingDocumentContext {
        authorization: &authorization,
        driver,
        vehicle,
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
            review: request.review.clone(),
            suspended: decision.suspended.clone(),
        };
        store.commit_grant(&grant).await?;
        Ok::<_, UseCaseError>(grant.documents)
    }
    .await;
    match result {
        Ok(documents) => Ok(Granted {
            authorization,
            documents,
            suspended: decision.suspended.clone(),
        }),
        Err(e) => {
            void(state, &reserved.number, &e).await;
            Err(e)
        }
    }
}
