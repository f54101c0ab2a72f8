//! A platform's own access: credentials an official issues and revokes (shown once, kept as
//! SHA-256, scoped to one platform), and the drivers the platform registers as working
//! through it, by authorization number and CPF together. Only the platform's own drivers are
//! ever listed to it.

use uuid::Uuid;

use crate::domain::ids::Cpf;
use crate::domain::requirements::Requirement;
use crate::issuance::UseCaseError;
use crate::issuance::ride_hailing::authorizations::held_by;
use crate::signing::secrets;
use crate::state::AppState;
use crate::storage::StorageError;
use crate::storage::ride_hailing::platform_access::{
    ALREADY_REGISTERED, CAP_REACHED, CredentialRow, PlatformDriverRow,
};

/// The prefix of a platform's token, so it is never taken for an official's.
pub const TOKEN_PREFIX: &str = "selo_plat_";

/// The platform a request comes from, by its credential.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlatformCaller {
    pub platform_id: String,
    pub credential_id: String,
}

impl PlatformCaller {
    /// How the audit chain names it.
    pub fn actor(&self) -> String {
        format!("platform:{}:{}", self.platform_id, self.credential_id)
    }
}

/// A credential just issued: its token is shown this once.
pub struct Issued {
    pub id: Uuid,
    pub label: String,
    pub token: String,
    pub created_at: chrono::DateTime<chrono::Utc>,
}

/// Issues a credential to platform `platform_id`, named `label` (who at the platform uses it).
pub async fn issue_credential(
    state: &AppState,
    actor: &str,
    platform_id: &str,
    label: &str,
) -> Result<Issued, UseCaseError> {
    let platform_id = super::platforms::platform_id(state, platform_id).await?;
    let label = label.trim();
    if label.is_empty() || label.chars().count() > 100 {
        return Err(UseCaseError::Inconsistent {
            field: "label",
            message: "Dê um nome à credencial (quem na plataforma a usa), com até 100 caracteres.",
        });
    }
    let secret = secrets::random_secret().map_err(|_| UseCaseError::Encoding)?;
    let token = format!("{TOKEN_PREFIX}{secret}");
    let id = Uuid::new_v4();
    let now = state.clock.now();
    state
        .store
        .insert_platform_credential(
            id,
            &platform_id,
            &secrets::sha256_hex(&token),
            label,
            actor,
            now,
        )
        .await?;
    tracing::info!(credential = %id, platform = %platform_id, "platform credential issued");
    Ok(Issued {
        id,
        label: label.to_owned(),
        token,
        created_at: now,
    })
}

/// Revokes credential `id` of platform `platform_id` for `reason` (again: nothing changes).
pub async fn revoke_credential(
    state: &AppState,
    actor: &str,
    platform_id: &str,
    id: Uuid,
    reason: &str,
) -> Result<CredentialRow, UseCaseError> {
    let platform_id = super::platforms::platform_id(state, platform_id).await?;
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(UseCaseError::Inconsistent {
            field: "reason",
            message: "Diga por que a credencial é revogada (ex.: vazou, a integração acabou).",
        });
    }
    state
        .store
        .revoke_platform_credential(&platform_id, id, reason, actor, state.clock.now())
        .await?
        .ok_or(UseCaseError::NotFound("Credencial não encontrada."))
}

/// The platform whose live credential `presented` is; `None` for anything else.
pub async fn authenticate(
    state: &AppState,
    presented: &str,
) -> Result<Option<PlatformCaller>, StorageError> {
    if !presented.starts_with(TOKEN_PREFIX) {
        return Ok(None);
    }
    Ok(state
        .store
        .platform_credential(&secrets::sha256_hex(presented))
        .await?
        .map(|(credential_id, platform_id)| PlatformCaller {
            platform_id,
            credential_id,
        }))
}

const NOT_HELD: &str = "Não há autorização com este número para este CPF. Confira os dois como estão impressos na autorização do motorista.";

/// The driver of authorization `number` held by `cpf`, for the platform's acts.
async fn driver_of(state: &AppState, number: &str, cpf: &str) -> Result<Uuid, UseCaseError> {
    let refused = UseCaseError::Inconsistent {
        field: "authorization_number",
        message: NOT_HELD,
    };
    let Ok(cpf) = Cpf::parse(cpf) else {
        return Err(refused);
    };
    held_by(state, number, &cpf)
        .await?
        .map(|a| a.driver_id)
        .ok_or(refused)
}

/// Registers the holder of authorization `number` (with `cpf`) as a driver of the caller,
/// within the cap on a platform's drivers where the basis in force has one (and no court
/// suspended it).
pub async fn register_driver(
    state: &AppState,
    caller: &PlatformCaller,
    number: &str,
    cpf: &str,
) -> Result<Uuid, UseCaseError> {
    let driver = driver_of(state, number, cpf).await?;
    let basis = state.ride_hailing_basis();
    let cap = basis
        .requirements
        .iter()
        .find(|r| r.platform_drivers_cap().is_some());
    match state
        .store
        .register_platform_driver(
            &caller.platform_id,
            driver,
            cap.and_then(Requirement::platform_drivers_cap),
            &caller.actor(),
            state.clock.now(),
        )
        .await
    {
        Ok(()) => Ok(driver),
        Err(StorageError::Conflict(CAP_REACHED)) => {
            let mut failures = Vec::new();
            if let Some(r) = cap {
                r.check_platform_drivers(
                    r.platform_drivers_cap().unwrap_or_default(),
                    &mut failures,
                );
            }
            Err(UseCaseError::Rules(failures))
        }
        Err(StorageError::Conflict(ALREADY_REGISTERED)) => Err(UseCaseError::Duplicate {
            field: "authorization_number",
            message: "Este motorista já está cadastrado nesta plataforma.",
        }),
        Err(e) => Err(e.into()),
    }
}

/// Ends the registration of the holder of authorization `number` (with `cpf`) with the
/// caller; answers when.
pub async fn end_driver(
    state: &AppState,
    caller: &PlatformCaller,
    number: &str,
    cpf: &str,
) -> Result<chrono::DateTime<chrono::Utc>, UseCaseError> {
    let driver = driver_of(state, number, cpf).await?;
    let now = state.clock.now();
    let ended = state
        .store
        .end_platform_driver(&caller.platform_id, driver, &caller.actor(), now)
        .await?;
    if ended {
        Ok(now)
    } else {
        Err(UseCaseError::NotFound(
            "Este motorista não está cadastrado nesta plataforma.",
        ))
    }
}

/// The caller's drivers now, each with their latest authorization.
pub async fn drivers(
    state: &AppState,
    caller: &PlatformCaller,
) -> Result<Vec<PlatformDriverRow>, StorageError> {
    state.store.platform_drivers(&caller.platform_id).await
}
