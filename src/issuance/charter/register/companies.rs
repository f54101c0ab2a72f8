//! Use cases of charter companies: registration, the art. 7 checklist, the Termo and
//! sanctions (Lei 4.937/2025, arts. 7–9, 18).

use super::{
    AppState, CharterAct, CharterCommit, CharterTable, Cnpj, Company, CompanyData, CompanySanction,
    Document, NaiveDate, Rectifies, StorageError, UseCaseError, Uuid, append, company, event, json,
    local_date, new_row, rectification, reg, rules, to_json,
};

/// A company's application (FRET-ART7), parsed.
pub struct NewCompany {
    pub cnpj: Cnpj,
    pub data: CompanyData,
}

/// Registers a company's application (FRET-ART7). An incomplete checklist is accepted; it
/// blocks the Termo, not the filing. The CNPJ is unique.
pub async fn register_company(
    state: &AppState,
    actor: &str,
    new: NewCompany,
) -> Result<Uuid, UseCaseError> {
    let NewCompany { cnpj, data } = new;
    let id = Uuid::new_v4();
    let registered = json!({
        "cnpj": cnpj.as_str(),
        "name": data.name,
        "modality": data.modality,
        "protocol": data.protocol,
    });
    let commit = CharterCommit {
        row: new_row(
            state,
            actor,
            CharterTable::Companies,
            id,
            None,
            cnpj.as_str().to_owned(),
            None,
            &data,
        )?,
        events: vec![event(
            state,
            actor,
            CharterTable::Companies,
            id,
            CharterAct::Registered,
            registered,
        )],
        ..CharterCommit::default()
    };
    match state.store.charter_commit(commit).await {
        Err(StorageError::Conflict(_)) => Err(UseCaseError::Duplicate {
            field: "cnpj",
            message: "Empresa já cadastrada com este CNPJ.",
        }),
        other => Ok(other.map(|()| id)?),
    }
}

/// A company's application judged as it would be registered now, writing nothing: whether
/// its CNPJ is already registered, and the documents of art. 7 the basis in force asks for
/// that are missing or lapsed — they do not block the filing, they block the Termo (FRET-ART7).
pub async fn check_company(
    state: &AppState,
    new: &NewCompany,
) -> Result<(bool, crate::domain::rule::Failures), UseCaseError> {
    let registered = !state
        .store
        .charter_by_key(CharterTable::Companies, new.cnpj.as_str())
        .await?
        .is_empty();
    let mut missing = Vec::new();
    crate::domain::charter::company_documents(
        &new.data.checklist,
        local_date(state.clock.now()),
        &state.charter_basis(),
        &mut missing,
    );
    Ok((registered, missing))
}

/// Files the company's documents again (FRET-ART7, FRET-ART8-P2: a renewal needs fresh
/// proofs).
pub async fn file_checklist(
    state: &AppState,
    actor: &str,
    company_id: Uuid,
    checklist: &rules::CompanyChecklist,
) -> Result<(), UseCaseError> {
    let c = company(state, company_id).await?;
    append(
        state,
        event(
            state,
            actor,
            CharterTable::Companies,
            c.id,
            CharterAct::ChecklistFiled,
            to_json(checklist)?,
        ),
    )
    .await
}

/// Grants or renews the Termo de Autorização (FRET-ART8, §1º, §2º, AMB-55) and issues its
/// signed PDF.
pub async fn grant_termo(
    state: &AppState,
    actor: &str,
    company_id: Uuid,
    protocolled_on: Option<NaiveDate>,
) -> Result<(Company, reg::Termo, Document), UseCaseError> {
    let c = company(state, company_id).await?;
    let decision = termo_decision(state, &c, &c.data.checklist, protocolled_on)
        .await?
        .map_err(UseCaseError::Rules)?;
    let (termo, doc) = crate::issuance::charter::issue_termo(state, &c, &decision, actor).await?;
    Ok((c, termo, doc))
}

/// What the Termo's grant or renewal would decide now for company `c` with `checklist`.
async fn termo_decision(
    state: &AppState,
    c: &Company,
    checklist: &rules::CompanyChecklist,
    protocolled_on: Option<NaiveDate>,
) -> Result<Result<rules::TermoDecision, crate::domain::rule::Failures>, UseCaseError> {
    let today = local_date(state.clock.now());
    let protocolled_on = protocolled_on.unwrap_or(today);
    if protocolled_on > today {
        return Err(UseCaseError::Inconsistent {
            field: "protocolled_on",
            message: "A data de protocolo do pedido não pode ser futura.",
        });
    }
    let termos = reg::termos_of(&state.store, c.id).await?;
    let latest = termos
        .iter()
        .max_by_key(|t| t.data.valid_until)
        .map(|t| rules::PriorTermo {
            number: t.number.clone(),
            valid_from: t.data.valid_from,
            valid_until: t.data.valid_until,
        });
    Ok(rules::decide_termo(
        checklist,
        &c.cassations(),
        latest.as_ref(),
        (protocolled_on, today),
        &state.charter_basis(),
    ))
}

/// Judges the Termo's grant or renewal (FRET-ART7, FRET-ART8) as it would be decided now,
/// with `checklist` in place of the one filed when given; writes nothing.
pub async fn check_termo(
    state: &AppState,
    company_id: Uuid,
    checklist: Option<&rules::CompanyChecklist>,
    protocolled_on: Option<NaiveDate>,
) -> Result<
    (
        Company,
        Result<rules::TermoDecision, crate::domain::rule::Failures>,
    ),
    UseCaseError,
> {
    let c = company(state, company_id).await?;
    let decided = termo_decision(
        state,
        &c,
        checklist.unwrap_or(&c.data.checklist),
        protocolled_on,
    )
    .await?;
    Ok((c, decided))
}

/// Records a sanction decided by the competent authority (FRET-ART18, FRET-ART20).
pub async fn apply_sanction(
    state: &AppState,
    actor: &str,
    company_id: Uuid,
    sanction: &CompanySanction,
    rectifies: Option<&Rectifies>,
) -> Result<(), UseCaseError> {
    let c = company(state, company_id).await?;
    let mut e = event(
        state,
        actor,
        CharterTable::Companies,
        c.id,
        CharterAct::SanctionApplied,
        to_json(sanction)?,
    );
    e.reason = Some(&sanction.reason);
    rectification::record(state, e, rectifies).await
}
