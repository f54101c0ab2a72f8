//! Use case of the legal bases: an official activates a new version of a
//! law from a date, with the act that enacts it. The file is checked whole before anything
//! is written; the activation and its event commit together; every node reads the bases
//! again on its next request (`AppState::refresh_legal_bases`).

use chrono::NaiveDate;
use sha2::{Digest as _, Sha256};

use crate::domain::legal_basis::{
    Activation, BasisFile, CharterLegalBasis, EnactingAct, Law, RideHailingLegalBasis, Suspension,
    SuspensionAct,
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
    let (version, secretariats) = match new.law {
        Law::RideHailing => RideHailingLegalBasis::from_toml(&new.source)
            .map(|b| (b.version, [b.issuing_secretariat, b.inspecting_secretariat])),
        Law::Charter => CharterLegalBasis::from_toml(&new.source)
            .map(|b| (b.version, [b.issuing_secretariat, b.inspecting_secretariat])),
    }
    .map_err(|e| ActivationRefused::File(e.0))?;
    // The documents name and are signed by a secretariat of the municipality profile.
    let unknown: Vec<String> = secretariats
        .iter()
        .filter(|k| state.letterhead.profile.secretariat(k).is_none())
        .map(|k| {
            format!(
                "A secretaria `{k}` não consta do perfil do município ([secretariats.{k}]); inclua-a no perfil antes de ativar esta base."
            )
        })
        .collect();
    if !unknown.is_empty() {
        return Err(ActivationRefused::File(unknown));
    }
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

/// What an official records of a court's decision on provisions of a law.
pub struct NewSuspension {
    pub law: Law,
    pub act: SuspensionAct,
    pub rules: Vec<String>,
    pub court: String,
    pub case_number: String,
    pub decided_on: NaiveDate,
    pub effective_from: NaiveDate,
}

/// Records a court's suspension (or restoration) of provisions from a date, after checking
/// that each rule names a requirement of the law and that the dates hold; every node reads
/// the bases again on its next request. Decisions already made keep the basis they were made
/// under; from the effective date, the provisions suspended are neither applied nor cited.
pub async fn record_suspension(
    state: &AppState,
    actor: &str,
    new: NewSuspension,
) -> Result<Suspension, ActivationRefused> {
    let bases = state.legal_bases.current();
    let unknown: Vec<&str> = new
        .rules
        .iter()
        .filter(|r| !bases.knows_rule(new.law, r))
        .map(String::as_str)
        .collect();
    if new.rules.is_empty() || !unknown.is_empty() {
        return Err(ActivationRefused::Date(
            "rules",
            if new.rules.is_empty() {
                "Indique ao menos um dispositivo (o identificador da regra).".to_owned()
            } else {
                format!(
                    "Nenhuma versão da base legal desta lei tem requisito ou infração com o identificador {}.",
                    unknown.join(", ")
                )
            },
        ));
    }
    let today = state.today();
    if new.decided_on > today {
        return Err(ActivationRefused::Date(
            "decided_on",
            "A decisão não pode ter data futura.".into(),
        ));
    }
    if new.effective_from < new.decided_on {
        return Err(ActivationRefused::Date(
            "effective_from",
            "Os efeitos não começam antes da decisão.".into(),
        ));
    }
    let s = Suspension {
        id: uuid::Uuid::new_v4().to_string(),
        law: new.law,
        act: new.act,
        rules: new.rules,
        court: new.court,
        case_number: new.case_number,
        decided_on: new.decided_on,
        effective_from: new.effective_from,
        recorded_at: state.clock.now(),
        recorded_by: actor.to_owned(),
    };
    state
        .store
        .record_suspension(&s)
        .await
        .map_err(|e| ActivationRefused::Other(e.into()))?;
    if let Err(e) = state.refresh_legal_bases_now().await {
        // Committed: the next request reads the bases again.
        tracing::error!(error = %e, "legal bases not read again after a suspension");
    }
    tracing::info!(law = s.law.as_str(), act = s.act.as_str(), effective_from = %s.effective_from, "provisions suspended or restored");
    Ok(s)
}
