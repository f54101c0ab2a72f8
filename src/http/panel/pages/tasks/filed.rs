//! A task opened on a filing sent online (`?requerimento=`): what the applicant stated fills
//! the task's fields, the filing's protocol date is the act's, and once the act commits the
//! filing records the decision and the applicant is told. The law is conferred by the task, as
//! at the counter: nothing is granted by the applicant's data alone.

use super::{AppState, HashMap, Outcome, PanelError, Signed, StatusCode, typed};
use crate::domain::filings::FilingKind;
use crate::http::panel::gateway::Answer;
use crate::issuance::filings::{self, FilingError, FilingView};

/// The hidden field that carries the filing through the task's round trips.
pub(super) const FILING: &str = "requerimento";

/// The filing `id` of `kind`, as the desk sees it; another kind's or an unknown one is not
/// found.
async fn filing_of(state: &AppState, id: &str, kind: FilingKind) -> Result<FilingView, PanelError> {
    let id = uuid::Uuid::parse_str(id).map_err(|_| PanelError::NotFound)?;
    match filings::view(state, id, None).await {
        Ok(v) if v.kind == kind && v.row.number.is_some() => Ok(v),
        Ok(_) | Err(FilingError::NotFound | FilingError::Refused(_)) => Err(PanelError::NotFound),
        Err(FilingError::Storage(e)) => Err(e.into()),
    }
}

fn in_review(v: &FilingView) -> bool {
    matches!(v.row.status.as_str(), "protocolado" | "exigencia")
}

/// Fills a task opened with `?requerimento=` from the filing of `kind`: the stated data under
/// the task's names (`renamed` maps a stated name to the task's where they differ), the
/// protocol date in `date_field`, the filing carried in the hidden field and linked above.
pub(super) async fn prefill(
    state: &AppState,
    query: &HashMap<String, String>,
    kind: FilingKind,
    date_field: &str,
    renamed: &[(&str, &str)],
    outcome: &mut Outcome,
) -> Result<Option<FilingView>, PanelError> {
    let Some(id) = query.get(FILING).filter(|f| !f.is_empty()) else {
        return Ok(None);
    };
    let v = filing_of(state, id, kind).await?;
    for (name, value) in &v.stated {
        let name = renamed
            .iter()
            .find(|(from, _)| from == name)
            .map_or(name.as_str(), |(_, to)| to);
        outcome.values.insert(name.to_owned(), value.clone());
    }
    if let Some(d) = v.row.protocolled_on {
        outcome.values.insert(date_field.to_owned(), d.to_string());
    }
    outcome.values.insert(FILING.to_owned(), v.row.id.clone());
    let number = v.row.number.clone().unwrap_or_default();
    outcome.back = Some((
        format!("/painel/requerimentos/{}", v.row.id),
        format!(
            "Requerimento {number}: os dados vêm do pedido; confira-os com os documentos juntados"
        ),
    ));
    if !in_review(&v) {
        outcome.headline = "O requerimento já foi decidido ou não está em análise.".into();
    }
    Ok(Some(v))
}

/// The filing a task's form carries, still with the officials: its protocol date replaces
/// whatever `date_field` holds (the law counts from it). A decided one is an error beside
/// `field`.
pub(super) async fn posted(
    state: &AppState,
    values: &mut HashMap<String, String>,
    kind: FilingKind,
    date_field: &str,
    (field, errors): (&str, &mut Vec<(String, String)>),
) -> Result<Option<FilingView>, PanelError> {
    let Some(id) = typed(values, FILING).map(str::to_owned) else {
        return Ok(None);
    };
    let v = filing_of(state, &id, kind).await?;
    if !in_review(&v) {
        errors.push((
            field.to_owned(),
            "O requerimento já foi decidido ou não está em análise.".into(),
        ));
        return Ok(None);
    }
    if let Some(d) = v.row.protocolled_on {
        values.insert(date_field.to_owned(), d.to_string());
    }
    Ok(Some(v))
}

/// Records the decision on the filing after the act committed, with what the act created
/// (its `id`), or as sent to an official's review. A failure here leaves the filing in the
/// queue and is logged; the act stands.
pub(super) async fn record_decision(
    state: &AppState,
    s: &Signed,
    filing: Option<&FilingView>,
    answer: &Answer,
) {
    let Some(v) = filing else { return };
    let Ok(id) = uuid::Uuid::parse_str(&v.row.id) else {
        return;
    };
    let outcome = match answer
        .json()
        .and_then(|j| j["id"].as_str().map(str::to_owned))
    {
        Some(new) if answer.status == StatusCode::CREATED || answer.status == StatusCode::OK => {
            uuid::Uuid::parse_str(&new)
                .map_or(filings::Outcome::InReview, filings::Outcome::Granted)
        }
        _ => filings::Outcome::InReview,
    };
    if let Err(e) = filings::decide(state, &s.official.actor, id, outcome, None).await {
        tracing::error!(filing = %id, error = %e, "filing's decision not recorded after the act");
    }
}

/// Refuses, beside `field`, a task whose record is not the one its filing is about
/// (`subject`: the authorization, the company typed).
pub(super) fn same_subject(
    filing: Option<&FilingView>,
    subject: Option<uuid::Uuid>,
    (field, errors): (&str, &mut Vec<(String, String)>),
) {
    if let (Some(f), Some(id)) = (filing, subject)
        && f.row.subject_id != id.to_string()
    {
        errors.push((
            field.to_owned(),
            "O requerimento é de outro registro: abra a tarefa pelo requerimento.".into(),
        ));
    }
}
