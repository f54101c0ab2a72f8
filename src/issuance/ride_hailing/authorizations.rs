//! Use cases on a granted ride-hailing authorization: vistorias and summons (arts. 9º, 10, 16),
//! revocation, sanctions (arts. 25–26) and the certidão of its driver or car.

use uuid::Uuid;

use crate::domain::dates::local_date;
use crate::domain::ride_hailing::RideHailingAct;
use crate::domain::ride_hailing::sanctions::Sanction;
use crate::domain::ride_hailing::vistoria::{
    RideHailingVistoria, VistoriaSummons, app_art10_fee_before_vistoria, app_art16_p1_check,
};
use crate::issuance::UseCaseError;
use crate::issuance::rectification::Rectifies;
use crate::standing;
use crate::state::AppState;
use crate::storage::documents::Document;
use crate::storage::{RevokeOutcome, StorageError};

const NO_AUTHORIZATION: &str = "Autorização não encontrada.";
const ENTITY: &str = "app_authorization";

/// Records a vistoria of the authorized car by the SMF (APP-ART9, APP-ART16, §2º); the fee
/// must have been paid before it (APP-ART10).
pub async fn record_vistoria(
    state: &AppState,
    actor: &str,
    id: Uuid,
    v: &RideHailingVistoria,
    rectifies: Option<&Rectifies>,
) -> Result<(), UseCaseError> {
    let authorization = state
        .store
        .get_authorization(id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_AUTHORIZATION))?;
    if let Some(f) = app_art10_fee_before_vistoria(authorization.fee_paid_on, v.performed_on) {
        return Err(UseCaseError::Rules(vec![f]));
    }
    super::acts::record_or_rectify(
        state,
        actor,
        (ENTITY, id, RideHailingAct::VistoriaRecorded.as_str()),
        v,
        rectifies,
    )
    .await
}

/// A vistoria judged as it would be recorded now, writing nothing (APP-ART10, APP-ART16):
/// the requirements it fails, and the authorization's vistoria standing after it.
pub async fn check_vistoria(
    state: &AppState,
    id: Uuid,
    v: &RideHailingVistoria,
) -> Result<
    (
        Vec<crate::domain::rule::RuleFailure>,
        crate::domain::ride_hailing::vistoria::InspectionReport,
    ),
    UseCaseError,
> {
    let a = state
        .store
        .get_authorization(id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_AUTHORIZATION))?;
    let failures: Vec<_> = app_art10_fee_before_vistoria(a.fee_paid_on, v.performed_on)
        .into_iter()
        .collect();
    let (_, report) = crate::standing::ride_hailing::standing_with(
        state,
        (a.id, a.driver_id, a.vehicle_id),
        a.granted_at,
        state.clock.now(),
        Some(v),
    )
    .await?;
    Ok((failures, report))
}

/// Records the notice to present the car for an extra vistoria (APP-ART16-P1); missing it is
/// the infraction of art. 26, I (AMB-38).
pub async fn summon_vistoria(
    state: &AppState,
    actor: &str,
    id: Uuid,
    summons: &VistoriaSummons,
    rectifies: Option<&Rectifies>,
) -> Result<(), UseCaseError> {
    if state.store.get_authorization(id).await?.is_none() {
        return Err(UseCaseError::NotFound(NO_AUTHORIZATION));
    }
    let failures = app_art16_p1_check(summons, local_date(state.clock.now()));
    if !failures.is_empty() {
        return Err(UseCaseError::Rules(failures));
    }
    super::acts::record_or_rectify(
        state,
        actor,
        (ENTITY, id, RideHailingAct::VistoriaSummons.as_str()),
        summons,
        rectifies,
    )
    .await
}

/// Revokes an authorization, once, with the reason.
pub async fn revoke(
    state: &AppState,
    actor: &str,
    id: Uuid,
    reason: &str,
) -> Result<(), UseCaseError> {
    match state
        .store
        .revoke_authorization(id, reason, actor, state.clock.now())
        .await?
    {
        RevokeOutcome::NotFound => Err(UseCaseError::NotFound(NO_AUTHORIZATION)),
        RevokeOutcome::AlreadyRevoked(r) => Err(UseCaseError::Conflict {
            detail: format!(
                "A autorização já foi revogada em {}.",
                crate::documents::format::datetime_local(r.revoked_at)
            ),
            field: None,
        }),
        RevokeOutcome::Revoked(_) => Ok(()),
    }
}

/// Records a final sanction on the authorization: a suspension (DL-9: reinstated on the day
/// after the last) or a cassação.
pub async fn sanction(
    state: &AppState,
    actor: &str,
    id: Uuid,
    sanction: &Sanction,
    rectifies: Option<&Rectifies>,
) -> Result<(), UseCaseError> {
    if let Some(r) = rectifies {
        return rectify_sanction(state, actor, id, sanction, r).await;
    }
    if state
        .store
        .add_sanction(id, sanction, actor, state.clock.now())
        .await?
    {
        Ok(())
    } else {
        Err(UseCaseError::NotFound(NO_AUTHORIZATION))
    }
}

/// Issues the certidão de situação cadastral of the authorization's driver (`app_driver`) or
/// car (`app_vehicle`).
pub async fn certidao(
    state: &AppState,
    actor: &str,
    id: Uuid,
    subject: &'static str,
    protocol: &str,
) -> Result<Document, UseCaseError> {
    let record = standing::ride_hailing::load_ride_hailing_record(state, id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_AUTHORIZATION))?;
    super::certidao::issue(state, &record, subject, protocol, actor).await
}

/// The period of a sanction entered wrongly (its start, its end), by a new
/// record with the reason; its kind stays, for another sanction is another decision.
async fn rectify_sanction(
    state: &AppState,
    actor: &str,
    id: Uuid,
    sanction: &Sanction,
    r: &Rectifies,
) -> Result<(), UseCaseError> {
    if state.store.get_authorization(id).await?.is_none() {
        return Err(UseCaseError::NotFound(NO_AUTHORIZATION));
    }
    let kind = RideHailingAct::Sanctioned.as_str();
    let target = crate::issuance::rectification::target(state, (ENTITY, id, kind), r).await?;
    let data = serde_json::json!({"kind": sanction.kind.as_str(), "effective_from": sanction.effective_from,
        "until": sanction.until, "legal_basis": sanction.legal_basis});
    let recorded: serde_json::Value = serde_json::from_str(&target.data).unwrap_or_default();
    if recorded["kind"] != data["kind"] {
        return Err(UseCaseError::Inconsistent {
            field: "kind",
            message: "A retificação corrige o período da sanção, não o seu tipo: outra sanção é outra decisão.",
        });
    }
    let rectification = crate::storage::rectifications::SanctionRectification {
        authorization_id: id,
        target: &target,
        effective_from: sanction.effective_from,
        until: sanction.until,
        data,
        reason: &r.reason,
        rectified_on: r.rectified_on,
        actor,
        at: state.clock.now(),
    };
    match state.store.rectify_sanction(&rectification).await {
        Ok(()) => Ok(()),
        Err(crate::storage::StorageError::Conflict("sanction")) => {
            Err(UseCaseError::Inconsistent {
                field: "rectifies.event",
                message: "Não há, no histórico desta autorização, sanção com esse número.",
            })
        }
        Err(e) => Err(e.into()),
    }
}

/// The authorization numbered `number` (any case) when the driver whose CPF is `cpf` holds it;
/// `None` for a number that does not exist and for one held by someone else alike, so an
/// answer tells nobody whose number it is.
pub async fn held_by(
    state: &AppState,
    number: &str,
    cpf: &crate::domain::ids::Cpf,
) -> Result<Option<crate::domain::ride_hailing::registry::RideHailingAuthorization>, StorageError> {
    let number = number.trim();
    if number.is_empty() {
        return Ok(None);
    }
    for hit in state.store.search(number).await? {
        if hit.kind != "authorization" {
            continue;
        }
        let Some(a) = state
            .store
            .get_authorization(crate::storage::parse_uuid(&hit.id)?)
            .await?
        else {
            continue;
        };
        if !a.number.eq_ignore_ascii_case(number) {
            continue;
        }
        let holder = state.store.get_driver(a.driver_id).await?;
        return Ok(holder.filter(|d| d.cpf == *cpf).map(|_| a));
    }
    Ok(None)
}
