//! Use cases of charter drivers: enrolment, documents and baixa (Lei 4.937/2025,
//! art. 15).

use super::{
    AppState, CharterAct, CharterCommit, CharterDriverFacts, CharterTable, CnhNumber, Cpf,
    DriverBaixa, DriverData, NO_DRIVER, Rectifies, StorageError, UseCaseError, Uuid, company,
    event, json, local_date, new_row, problems, rectification, reg, rules, to_json,
};

/// A driver to enrol (FRET-ART15), parsed.
pub struct NewDriver {
    pub name: String,
    pub cpf: Cpf,
    pub cnh_number: CnhNumber,
    pub facts: CharterDriverFacts,
}

/// The enrolment of a driver judged as it would be decided now (FRET-ART15), writing
/// nothing: every requirement not met.
pub async fn check_driver(
    state: &AppState,
    company_id: Uuid,
    new: &NewDriver,
) -> Result<Vec<crate::domain::rule::RuleFailure>, UseCaseError> {
    company(state, company_id).await?;
    Ok(rules::driver_requirements(
        &new.facts,
        local_date(state.clock.now()),
        &state.charter_basis(),
    ))
}

/// Enrols a driver of a company (FRET-ART15, FRET-ART24); the CPF is unique in the company.
pub async fn enrol_driver(
    state: &AppState,
    actor: &str,
    company_id: Uuid,
    new: NewDriver,
) -> Result<Uuid, UseCaseError> {
    let c = company(state, company_id).await?;
    let now = state.clock.now();
    problems(rules::driver_requirements(
        &new.facts,
        local_date(now),
        &state.charter_basis(),
    ))?;
    let did = Uuid::new_v4();
    let data = DriverData {
        name: new.name,
        cnh_number: new.cnh_number.as_str().to_owned(),
        facts: new.facts,
    };
    let commit = CharterCommit {
        row: new_row(
            state,
            actor,
            CharterTable::Drivers,
            did,
            Some(c.id),
            new.cpf.as_str().to_owned(),
            None,
            &data,
        )?,
        events: vec![
            event(
                state,
                actor,
                CharterTable::Drivers,
                did,
                CharterAct::Registered,
                json!({ "company_id": c.id }),
            ),
            event(
                state,
                actor,
                CharterTable::Companies,
                c.id,
                CharterAct::DriverEnrolled,
                json!({ "driver_id": did }),
            ),
        ],
        ..CharterCommit::default()
    };
    match state.store.charter_commit(commit).await {
        Err(StorageError::Conflict(_)) => Err(UseCaseError::Duplicate {
            field: "cpf",
            message: "Condutor já cadastrado nesta empresa.",
        }),
        other => Ok(other.map(|()| did)?),
    }
}

/// Files a driver's updated documents (FRET-ART9, FRET-ART15).
pub async fn file_driver_documents(
    state: &AppState,
    actor: &str,
    driver_id: Uuid,
    facts: &CharterDriverFacts,
    rectifies: Option<&Rectifies>,
) -> Result<(), UseCaseError> {
    reg::load_driver(&state.store, driver_id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_DRIVER))?;
    rectification::record(
        state,
        event(
            state,
            actor,
            CharterTable::Drivers,
            driver_id,
            CharterAct::DriverDocumentsFiled,
            to_json(facts)?,
        ),
        rectifies,
    )
    .await
}

/// Records a driver's baixa (FRET-ART24), once.
pub async fn baixa_driver(
    state: &AppState,
    actor: &str,
    driver_id: Uuid,
    baixa: &DriverBaixa,
    rectifies: Option<&Rectifies>,
) -> Result<(), UseCaseError> {
    let d = reg::load_driver(&state.store, driver_id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_DRIVER))?;
    // A baixa entered wrongly is rectified, never entered twice.
    if d.deregistered_on.is_some() && rectifies.is_none() {
        return Err(UseCaseError::Conflict {
            detail: "Condutor já baixado.".into(),
            field: Some(("driver", "A baixa já foi registrada.".into())),
        });
    }
    rectification::record(
        state,
        event(
            state,
            actor,
            CharterTable::Drivers,
            driver_id,
            CharterAct::Baixa,
            to_json(baixa)?,
        ),
        rectifies,
    )
    .await
}
