//! What both laws' auto procedures share when an act is recorded:
//! the act's own date judged against the procedure as it stood on that date, and a payment
//! or an inscription in dívida ativa against the fine's account on that date.

use chrono::NaiveDate;

use crate::domain::calendar::Calendar;
use crate::domain::charter::sanctions::{
    ActRefusal, ProcedureAct, ProcedureDays, check_act, procedure_state,
};
use crate::domain::fines::{check_account_act, fine_standing, years_needed};
use crate::issuance::UseCaseError;
use crate::standing::charter::upf_values;
use crate::state::AppState;

/// The auto an act is recorded on.
pub struct ProcedureCase<'a> {
    /// The acts recorded so far (for a ride-hailing auto, with its notification as the start
    /// event).
    pub acts: &'a [ProcedureAct],
    /// No act is dated before this: the infraction's day, or a ride-hailing notice's delivery.
    pub start: NaiveDate,
    /// No act of the procedure is dated before this (`act_floor`).
    pub floor: NaiveDate,
    pub fine_upf: i64,
    pub drawn_up_on: NaiveDate,
    pub days: ProcedureDays,
}

/// Another act on the same auto was committed between reading it and writing this one.
pub const CONCURRENT_ACT: &str =
    "Outro ato deste auto foi registrado ao mesmo tempo; consulte o auto e tente de novo.";

/// Commits the events of an act on an auto only if its history is still as read when the act
/// was checked (two payments at once never both pass the balance).
pub async fn commit_act(
    state: &AppState,
    head: crate::storage::charter::EntityHead<'_>,
    events: Vec<crate::storage::charter::NewEvent<'_>>,
) -> Result<(), UseCaseError> {
    match state
        .store
        .charter_commit(crate::storage::charter::CharterCommit {
            events,
            unchanged_since: Some(head),
            ..crate::storage::charter::CharterCommit::default()
        })
        .await
    {
        Ok(()) => Ok(()),
        Err(crate::storage::StorageError::Conflict("concurrent")) => {
            Err(UseCaseError::Concurrent(CONCURRENT_ACT))
        }
        Err(e) => Err(e.into()),
    }
}

/// Whether `act` may be recorded on `case`: 422 naming the date field when its date cannot
/// be, 409 when it cannot follow the procedure or the account as they stood on that date.
pub async fn check_procedure_act(
    state: &AppState,
    case: &ProcedureCase<'_>,
    act: &ProcedureAct,
    cal: &Calendar,
) -> Result<(), UseCaseError> {
    let today = crate::domain::dates::local_date(state.clock.now());
    check_act(
        case.acts,
        act,
        case.start,
        case.floor,
        today,
        cal,
        &state.deadline_rules,
        case.days,
    )
    .map_err(|refusal| match refusal {
        ActRefusal::Date(message) => UseCaseError::Inconsistent {
            field: act.date_field(),
            message,
        },
        ActRefusal::Order(message) => UseCaseError::Conflict {
            detail: "Ato fora da ordem do procedimento.".into(),
            field: Some(("act", message.to_owned())),
        },
    })?;
    if act.is_of_the_account() {
        let on = act.date();
        let p = procedure_state(case.acts, on, cal, &state.deadline_rules, case.days);
        let values =
            upf_values(&state.store, &years_needed(case.drawn_up_on, case.acts, on)).await?;
        let account = fine_standing(case.fine_upf, case.drawn_up_on, case.acts, &p, &values, on);
        let field = match act {
            ProcedureAct::Pagamento { .. } => "amount_centavos",
            _ => "act",
        };
        check_account_act(&account, act).map_err(|message| UseCaseError::Conflict {
            detail: "Ato incompatível com a situação da multa.".into(),
            field: Some((field, message)),
        })?;
    }
    Ok(())
}
