//! Use cases about technology platforms (arts. 3º, 4º, 5º X, 24 II): registration, data
//! requests and their delivery, notices to regularize and their regularization.

use chrono::{DateTime, NaiveDate, Utc};
use uuid::Uuid;

use crate::domain::calendar::deadline_in_hours;
use crate::domain::dates::local_date;
use crate::domain::ids::Cnpj;
use crate::domain::ride_hailing::RideHailingAct;
use crate::domain::ride_hailing::platform::{
    PlatformFacts, RegularizationNotice, app_art24_ii_check, decide_platform,
};
use crate::issuance::UseCaseError;
use crate::standing;
use crate::state::AppState;
use crate::storage::{DataRequest, PlatformRecord, StorageError};

const NO_PLATFORM: &str = "Plataforma não encontrada.";
const NO_REQUEST: &str = "Solicitação não encontrada.";

/// The platform `id`, if registered.
pub async fn platform_id(state: &AppState, id: &str) -> Result<String, UseCaseError> {
    state
        .store
        .get_platform(id)
        .await?
        .map(|p| p.id)
        .ok_or(UseCaseError::NotFound(NO_PLATFORM))
}

/// The data request `id`, if recorded.
pub async fn request_id(state: &AppState, id: &str) -> Result<String, UseCaseError> {
    state
        .store
        .get_data_request(id)
        .await?
        .map(|r| r.id)
        .ok_or(UseCaseError::NotFound(NO_REQUEST))
}

/// A platform to register (arts. 3º and 5º, X), parsed.
pub struct NewPlatform {
    pub name: String,
    pub cnpj: Cnpj,
    pub insurance_policy: String,
    pub insurer: String,
    pub insurance_cover_centavos: i64,
    pub insurance_valid_until: NaiveDate,
    pub fee_paid_on: NaiveDate,
}

/// Registers a platform whose insurance and fee meet the law; the CNPJ is unique.
pub async fn register_platform(
    state: &AppState,
    actor: &str,
    new: NewPlatform,
) -> Result<PlatformRecord, UseCaseError> {
    let now = state.clock.now();
    let facts = PlatformFacts {
        insurance_cover_centavos: new.insurance_cover_centavos,
        insurance_valid_until: new.insurance_valid_until,
        fee_paid_on: new.fee_paid_on,
        today: local_date(now),
    };
    let basis = state.ride_hailing_basis();
    let decided = decide_platform(&facts, &basis);
    // A cap on the platforms in force, where the basis has one (and no court suspended it).
    let mut failures = decided.clone().err().unwrap_or_default();
    let in_force = state.store.platforms_in_force(facts.today).await?;
    for r in &basis.requirements {
        r.check_platforms(in_force, &mut failures);
    }
    let valid_until = match decided {
        Ok(until) if failures.is_empty() => until,
        _ => return Err(UseCaseError::Rules(failures)),
    };
    let record = PlatformRecord {
        id: Uuid::new_v4().to_string(),
        cnpj: new.cnpj.as_str().to_owned(),
        name: new.name,
        insurance_policy: new.insurance_policy,
        insurer: new.insurer,
        insurance_cover_centavos: new.insurance_cover_centavos,
        insurance_valid_until: new.insurance_valid_until,
        fee_paid_on: new.fee_paid_on,
        valid_until,
        legal_basis_version: state.ride_hailing_basis().version.clone(),
        created_at: now,
    };
    match state.store.insert_platform(&record, actor).await {
        Ok(()) => Ok(record),
        Err(StorageError::Conflict("cnpj")) => Err(UseCaseError::Duplicate {
            field: "cnpj",
            message: "Já existe uma plataforma com este CNPJ.",
        }),
        Err(e) => Err(e.into()),
    }
}

/// A justified request for data (art. 4º, caput), parsed.
pub struct NewDataRequest {
    pub justification: String,
    pub scope: String,
    pub notified_at: DateTime<Utc>,
}

/// Records a data request with 24 hours to deliver, counted minute by minute (art. 4º, §2º;
/// DL-7).
pub async fn request_data(
    state: &AppState,
    actor: &str,
    platform_id: &str,
    new: NewDataRequest,
) -> Result<DataRequest, UseCaseError> {
    let platform = state
        .store
        .get_platform(platform_id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_PLATFORM))?;
    // The notice was served, not to be served.
    if new.notified_at > state.clock.now() {
        return Err(UseCaseError::Inconsistent {
            field: "notified_at",
            message: "A notificação à plataforma não pode ter data futura.",
        });
    }
    let r = DataRequest {
        id: Uuid::new_v4().to_string(),
        platform_id: platform.id,
        justification: new.justification,
        scope: new.scope,
        notified_at: new.notified_at,
        due_at: deadline_in_hours(
            new.notified_at,
            state.ride_hailing_basis().data_request_hours,
        ),
        delivered_at: None,
        sha256: None,
        signer: None,
    };
    state
        .store
        .insert_data_request(&r, actor, state.clock.now())
        .await?;
    Ok(r)
}

/// The delivery of requested data (art. 4º, §3º), parsed: the file's hash and the platform's
/// authenticating agent.
pub struct Delivery {
    pub delivered_at: DateTime<Utc>,
    pub sha256: String,
    pub signer: String,
}

/// Why a delivery recorded was wrong, and on what day that was decided.
pub struct DeliveryRectifies {
    pub reason: String,
    pub rectified_on: chrono::NaiveDate,
}

/// Records the delivery, once, no earlier than the notice; or, with `rectifies`, the
/// delivery as it should have been recorded, by a new record with the reason (the first
/// stays).
pub async fn record_delivery(
    state: &AppState,
    actor: &str,
    request_id: &str,
    d: Delivery,
    rectifies: Option<&DeliveryRectifies>,
) -> Result<DataRequest, UseCaseError> {
    let r = state
        .store
        .get_data_request(request_id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_REQUEST))?;
    if d.delivered_at > state.clock.now() {
        return Err(UseCaseError::Inconsistent {
            field: "delivered_at",
            message: "A entrega não pode ter data futura.",
        });
    }
    if d.delivered_at < r.notified_at {
        return Err(UseCaseError::Inconsistent {
            field: "delivered_at",
            message: "A entrega não pode ser anterior à notificação.",
        });
    }
    if let Some(x) = rectifies {
        let Some(recorded) = r.delivered_at else {
            return Err(UseCaseError::Conflict {
                detail: "Não há entrega registrada a retificar.".into(),
                field: None,
            });
        };
        let today = crate::domain::dates::local_date(state.clock.now());
        if x.rectified_on > today
            || x.rectified_on < crate::domain::dates::local_date(recorded.min(d.delivered_at))
        {
            return Err(UseCaseError::Inconsistent {
                field: "rectifies.rectified_on",
                message: "A retificação não pode ter data futura nem anterior à entrega que corrige.",
            });
        }
        state
            .store
            .rectify_delivery(&crate::storage::rectifications::DeliveryRectification {
                request_id: &r.id,
                delivered_at: d.delivered_at,
                sha256: &d.sha256,
                signer: &d.signer,
                reason: &x.reason,
                rectified_on: x.rectified_on,
                actor,
                at: state.clock.now(),
            })
            .await?;
        return state
            .store
            .get_data_request(request_id)
            .await?
            .ok_or(UseCaseError::NotFound(NO_REQUEST));
    }
    match state
        .store
        .record_delivery(
            &r.id,
            d.delivered_at,
            &d.sha256,
            &d.signer,
            actor,
            state.clock.now(),
        )
        .await
    {
        Ok(()) => {}
        Err(StorageError::Conflict(_)) => {
            return Err(UseCaseError::Conflict {
                detail: "A entrega já foi registrada.".into(),
                field: None,
            });
        }
        Err(e) => return Err(e.into()),
    }
    state
        .store
        .get_data_request(request_id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_REQUEST))
}

async fn existing_platform(state: &AppState, id: Uuid) -> Result<(), UseCaseError> {
    state
        .store
        .get_platform(&id.to_string())
        .await?
        .map(|_| ())
        .ok_or(UseCaseError::NotFound(NO_PLATFORM))
}

/// A notice to regularize (APP-ART24-II, AMB-36), parsed.
pub struct NewNotice {
    pub requirement: String,
    pub notified_on: NaiveDate,
    pub cure_by: NaiveDate,
}

/// Notifies the platform to regularize a requirement by the day the notice sets.
pub async fn notify_regularization(
    state: &AppState,
    actor: &str,
    platform_id: Uuid,
    new: NewNotice,
) -> Result<RegularizationNotice, UseCaseError> {
    existing_platform(state, platform_id).await?;
    let notice = RegularizationNotice {
        id: Uuid::new_v4().to_string(),
        requirement: new.requirement,
        notified_on: new.notified_on,
        cure_by: new.cure_by,
        cured_on: None,
    };
    let failures = app_art24_ii_check(&notice, local_date(state.clock.now()));
    if !failures.is_empty() {
        return Err(UseCaseError::Rules(failures));
    }
    super::acts::record(
        state,
        actor,
        "platform",
        platform_id,
        RideHailingAct::RegularizationNotice.as_str(),
        &notice,
    )
    .await?;
    Ok(notice)
}

/// Records that the platform regularized what a notice asked, on `cured_on`, once.
pub async fn record_regularization(
    state: &AppState,
    actor: &str,
    platform_id: Uuid,
    notice_id: &str,
    cured_on: NaiveDate,
) -> Result<RegularizationNotice, UseCaseError> {
    existing_platform(state, platform_id).await?;
    let mut notice = standing::ride_hailing::regularization_notices(state, platform_id)
        .await?
        .into_iter()
        .find(|n| n.id == notice_id)
        .ok_or(UseCaseError::NotFound("Notificação não encontrada."))?;
    if let Some(on) = notice.cured_on {
        return Err(UseCaseError::Conflict {
            detail: format!(
                "A regularização já foi registrada em {}.",
                on.format("%d/%m/%Y")
            ),
            field: None,
        });
    }
    notice.cured_on = Some(cured_on);
    let failures = app_art24_ii_check(&notice, local_date(state.clock.now()));
    if !failures.is_empty() {
        return Err(UseCaseError::Rules(failures));
    }
    let data = serde_json::json!({ "id": notice.id, "cured_on": cured_on });
    super::acts::record(
        state,
        actor,
        "platform",
        platform_id,
        RideHailingAct::RegularizationCured.as_str(),
        &data,
    )
    .await?;
    Ok(notice)
}
