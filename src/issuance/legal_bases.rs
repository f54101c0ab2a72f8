//! Use case of the legal bases: an official activates a new version of a
//! law from a date, with the act that enacts it. The file is checked whole before anything
//! is written; the activation and its event commit together; every node reads the bases
//! again on its next request (`AppState::refresh_legal_bases`).

use chrono::NaiveDate;
use sha2::{Digest as _, Sha256};

use crate::domain::legal_basis::{
    Activation, BasisFile, CharterLegalBasis, EnactingAct, Law, RideHailingLegalBasis,
};
use crate::issuance::UseCaseError;
use crate::state::AppState;
use crate::storage::StorageError;

/// What an official asks: this file, in force from `effective_from`, enacted by `act`.
pub struct NewActivation {
    pub law: Law,
    pub source: String,
    pub effective_from: NaiveDate,
    pub act: EnactingAct,
}

/// Why an activation was refused before anything was written.
#[derive(Debug)]
pub enum ActivationRefused {
    /// The file does not load: each problem, in Portuguese.
    File(Vec<String>),
    /// A date contradicts the register: the field and the sentence.
    Date(&'static str, String),
    Other(UseCaseError),
}

impl From<UseCaseError> for ActivationRefused {
    fn from(e: UseCaseError) -> Self {
        Self::Other(e)
    }
}

/// The SHA-256 of a basis file, hex: what an activation records and the list shows.
pub fn file_sha256(text: &str) -> String {
    crate::signing::hex(&Sha256::digest(text.as_bytes()))
}

/// Checks the file and the dates, records the activation and its event, and reads the bases
/// again. A version never takes effect before today (a basis does not reach back over acts
/// already judged) nor before the version it follows.
pub async fn activate(
    state: &AppState,
    actor: &str,
    new: NewActivation,
) -> Result<Activation, ActivationRefused> {
    let version = match new.law {
        Law::RideHailing => RideHailingLegalBasis::from_toml(&new.source).map(|b| b.version),
        Law::Charter => CharterLegalBasis::from_toml(&new.source).map(|b| b.version),
    }
    .map_err(|e| ActivationRefused::File(e.0))?;
    let today = state.today();
    if new.effective_from < today {
        return Err(ActivationRefused::Date(
            "effective_from",
            format!(
                "Uma base legal não retroage: a vigência começa hoje ({}) ou depois.",
                today.format("%d/%m/%Y")
            ),
        ));
    }
    if new.act.date > today {
        return Err(ActivationRefused::Date(
            "act.date",
            "O ato que institui a base legal não pode ter data futura.".into(),
        ));
    }
    let bases = state.legal_bases.current();
    let latest = bases.latest_effective_from(new.law);
    if new.effective_from <= latest {
        return Err(ActivationRefused::Date(
            "effective_from",
            format!(
                "A vigência deve começar depois de {}, quando começa a versão mais recente desta lei.",
                latest.format("%d/%m/%Y")
            ),
        ));
    }
    if bases.knows(&version) {
        return Err(UseCaseError::Duplicate {
            field: "version",
            message: "Esta versão de base legal já existe; dê ao arquivo uma versão nova.",
        }
        .into());
    }
    let activation = Activation {
        law: new.law,
        version,
        effective_from: new.effective_from,
        act: new.act,
        sha256: file_sha256(&new.source),
        activated_at: state.clock.now(),
        activated_by: actor.to_owned(),
        source: new.source,
    };
    match state.store.activate_legal_basis(&activation).await {
        Ok(()) => {}
        Err(StorageError::Conflict("effective_from")) => {
            return Err(ActivationRefused::Date(
                "effective_from",
                "Outra versão desta lei já começa nesta data.".into(),
            ));
        }
        Err(StorageError::Conflict(_)) => {
            return Err(UseCaseError::Duplicate {
                field: "version",
                message: "Esta versão de base legal já existe; dê ao arquivo uma versão nova.",
            }
            .into());
        }
        Err(e) => return Err(UseCaseError::from(e).into()),
    }
    if let Err(e) = state.refresh_legal_bases_now().await {
        // Committed: the next request reads the bases again.
        tracing::error!(error = %e, "legal bases not read again after an activation");
    }
    tracing::info!(law = activation.law.as_str(), version = %activation.version, effective_from = %activation.effective_from, "legal basis activated");
    Ok(activation)
}
