//! Use cases of charter autos de infração: drawing up, the acts of the procedure,
//! the notice and certidões (Lei 4.937/2025, arts. 18–23).

use super::{
    AppState, CharterAct, CharterRow, CharterTable, Document, NO_AUTO, Outcome, ProcedureAct,
    ProcedureCase, UseCaseError, Uuid, act_floor, company, event, local_date, reg, to_json,
};

/// The auto `id` and its company.
pub async fn auto_company(state: &AppState, id: Uuid) -> Result<(CharterRow, Uuid), UseCaseError> {
    let row = state
        .store
        .charter_get(CharterTable::Autos, id)
        .await?
        .ok_or(UseCaseError::NotFound(NO_AUTO))?;
    let company_id = row
        .company_id
        .ok_or(UseCaseError::Internal("an auto without its company"))?;
    Ok((row, company_id))
}

pub(super) async fn auto_view(
    state: &AppState,
    company_id: Uuid,
    auto_id: Uuid,
) -> Result<reg::AutoView, UseCaseError> {
    reg::company_autos_now(state, company_id, local_date(state.clock.now()))
        .await?
        .into_iter()
        .find(|v| v.id == auto_id)
        .ok_or(UseCaseError::NotFound(NO_AUTO))
}

/// Whether `act` may follow the procedure of the auto `view` (FRET-ART22, FRET-ART23).
async fn judge(
    state: &AppState,
    view: &reg::AutoView,
    act: &ProcedureAct,
    cal: &crate::domain::calendar::Calendar,
) -> Result<(), UseCaseError> {
    // FRET-ART22: the procedure opens with the auto; no act of it (the notification first)
    // is dated before the auto was drawn up.
    let drawn_up_on = local_date(view.data.drawn_up_at);
    let start = drawn_up_on.max(view.data.committed_on);
    crate::issuance::procedure::check_procedure_act(
        state,
        &ProcedureCase {
            acts: &view.acts,
            start,
            floor: act_floor(&view.acts, start),
            fine_upf: view.fine.as_ref().map_or(0, |f| i64::from(f.upf)),
            drawn_up_on,
            days: state.charter_basis().as_ref().into(),
        },
        act,
        cal,
    )
    .await
}

/// What recording `act` on auto `auto_id` would do, writing nothing: the procedure as it
/// would stand today after it (FRET-ART22, FRET-ART23), or why it cannot be recorded.
pub async fn check_act(
    state: &AppState,
    auto_id: Uuid,
    act: &ProcedureAct,
) -> Result<crate::domain::charter::sanctions::ProcedureState, UseCaseError> {
    let (row, company_id) = auto_company(state, auto_id).await?;
    let view = auto_view(state, company_id, row.id).await?;
    let cal = state.calendar().await?;
    judge(state, &view, act, &cal).await?;
    let mut acts = view.acts.clone();
    acts.push(act.clone());
    let acts = crate::domain::charter::sanctions::effective_acts(&acts);
    Ok(crate::domain::charter::sanctions::procedure_state(
        &acts,
        local_date(state.clock.now()),
        &cal,
        &state.deadline_rules,
        state.charter_basis().as_ref().into(),
    ))
}

/// Records an act of an auto's procedure (FRET-ART22, §§1º–3º, FRET-ART23): notification,
/// defence, decision, reconsideration to the Mayor and the Mayor's decision, in order.
/// Answers the auto's company.
pub async fn procedure_act(
    state: &AppState,
    actor: &str,
    auto_id: Uuid,
    act: &ProcedureAct,
) -> Result<Uuid, UseCaseError> {
    let (row, company_id) = auto_company(state, auto_id).await?;
    // Read first: whatever is recorded on the auto after this is caught at the commit.
    let head = state
        .store
        .entity_head(CharterTable::Autos.entity_type(), row.id)
        .await?;
    let view = auto_view(state, company_id, row.id).await?;
    judge(state, &view, act, &state.calendar().await?).await?;
    crate::issuance::procedure::commit_act(
        state,
        head,
        vec![event(
            state,
            actor,
            CharterTable::Autos,
            row.id,
            CharterAct::ProcedureAct,
            to_json(act)?,
        )],
    )
    .await?;
    if matches!(
        act,
        ProcedureAct::Decisao {
            outcome: Outcome::Anulado,
            ..
        } | ProcedureAct::DecisaoPrefeito {
            outcome: Outcome::Anulado,
            ..
        }
    ) {
        // AMB-29: later autos of the company are recalculated on read.
        tracing::info!(auto = %row.key, "charter auto annulled; recidivism recalculated");
    }
    Ok(company_id)
}

/// Issues the signed Auto de Infração e Notificação of an auto (FRET-ART19–23, APP-ART19): two
/// copies, every deadline dated; the fine in reais uses the UPF value of the year it was drawn
/// up (AMB-03).
pub async fn auto_notice(
    state: &AppState,
    actor: &str,
    auto_id: Uuid,
) -> Result<Document, UseCaseError> {
    let (row, company_id) = auto_company(state, auto_id).await?;
    let c = company(state, company_id).await?;
    let view = auto_view(state, company_id, row.id).await?;
    let upf = crate::issuance::pipeline::upf_when_drawn_up(state, view.data.drawn_up_at).await?;
    crate::issuance::charter::issue_auto_notice(state, &c, &view, upf, actor).await
}

/// Issues the certidão de situação cadastral of a vehicle or driver (FRET-ART25), on a
/// petition filed at the protocol.
pub async fn certidao(
    state: &AppState,
    actor: &str,
    subject_type: &str,
    id: Uuid,
    protocol: &str,
) -> Result<Document, UseCaseError> {
    let subject = reg::certidao_subject(&state.store, subject_type, id)
        .await?
        .ok_or(UseCaseError::NotFound("Registro não encontrado(a)."))?;
    let c = company(state, subject.company_id()).await?;
    crate::issuance::charter::issue_certidao(state, &subject, &c, protocol, actor).await
}
