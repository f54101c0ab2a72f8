//! The Ouvidoria's queue of passengers' reports: each with what the verification page showed
//! (verdict, document, plate), the passenger's account, and the answer that closes it (sent to
//! the passenger when they left an address).

use super::*;
use crate::domain::reports::{Category, ReportStatus};
use crate::issuance::reports::{self, ReportError};
use crate::storage::reports::ReportRow;

/// Closed reports shown under the open ones.
const RECENTLY_CLOSED: i64 = 20;

#[derive(Template)]
#[template(path = "pages/panel/reports.html")]
struct QueuePage {
    chrome: Option<Chrome>,
    open: Vec<ReportView>,
    closed: Vec<ReportView>,
    retention_days: i64,
}

#[derive(Template)]
#[template(path = "pages/panel/report.html")]
struct ReportPage {
    chrome: Option<Chrome>,
    csrf: String,
    r: ReportView,
    notice: Option<&'static str>,
    error: Option<&'static str>,
}

/// A report as the Ouvidoria reads it.
struct ReportView {
    id: String,
    number: String,
    received: String,
    /// What the page showed: "Adesivo APP-2026/000001 · placa ABC1D23 · SUSPENSO".
    subject: String,
    plate: String,
    category: &'static str,
    account: String,
    when: String,
    contact: bool,
    open: bool,
    status: &'static str,
    outcome: String,
    closed: String,
}

impl ReportView {
    fn of(r: ReportRow) -> Self {
        let document = match (&r.document_kind, &r.document_number) {
            (Some(kind), Some(number)) => {
                let kind = crate::storage::DocumentKind::parse(kind)
                    .map_or(kind.as_str(), |k| k.label_pt());
                format!("{kind} {number}")
            }
            _ => "Nenhum documento identificado".to_owned(),
        };
        let when = match &r.occurred_time {
            Some(t) => format!("{} às {t}", format::date(r.occurred_on)),
            None => format::date(r.occurred_on),
        };
        let status = ReportStatus::parse(&r.status).unwrap_or(ReportStatus::Received);
        Self {
            subject: match crate::http::verify::page::headline_of(&r.verdict) {
                Some(h) => format!("{document} · a verificação mostrou {h}"),
                None => format!("{document} · enviada sem verificar um documento"),
            },
            plate: r.plate.clone().unwrap_or_default(),
            number: r.number,
            received: format::datetime_local(r.created_at),
            category: Category::parse(&r.category).map_or("—", Category::label),
            account: r.account,
            when,
            contact: r.contact_email.is_some(),
            open: status == ReportStatus::Received,
            status: status.label(),
            outcome: r.outcome.unwrap_or_default(),
            closed: r.closed_at.map(format::datetime_local).unwrap_or_default(),
            id: r.id,
        }
    }
}

pub(super) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/painel/denuncias").route(web::get().to(queue)))
        .service(web::resource("/painel/denuncias/{id}").route(web::get().to(show)))
        .service(web::resource("/painel/denuncias/{id}/encerrar").route(web::post().to(close)));
}

async fn queue(state: web::Data<AppState>, req: HttpRequest) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::HandleReports)?;
    let (open, closed): (Vec<_>, Vec<_>) = state
        .store
        .report_queue(RECENTLY_CLOSED)
        .await?
        .into_iter()
        .map(ReportView::of)
        .partition(|r| r.open);
    let body = render(&QueuePage {
        chrome: Some(chrome_of(&s)),
        open,
        closed,
        retention_days: state.settings.limits.report_retention_days,
    })?;
    Ok(html(StatusCode::OK, body))
}

async fn report_page(
    s: &Signed,
    state: &AppState,
    id: uuid::Uuid,
    status: StatusCode,
    notice: Option<&'static str>,
    error: Option<&'static str>,
) -> Page {
    let row = state.store.report(id).await?.ok_or(PanelError::NotFound)?;
    let body = render(&ReportPage {
        chrome: Some(chrome_of(s)),
        csrf: s.session.csrf_token.clone(),
        r: ReportView::of(row),
        notice,
        error,
    })?;
    Ok(html(status, body))
}

async fn show(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::HandleReports)?;
    let notice = query
        .contains_key("encerrada")
        .then_some("Denúncia encerrada com a resposta registrada.");
    report_page(&s, &state, uuid_of(&id)?, StatusCode::OK, notice, None).await
}

async fn close(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
    form: web::Form<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::HandleReports)?;
    s.check_csrf(&form)?;
    let id = uuid_of(&id)?;
    let outcome = form.get("resposta").map_or("", String::as_str);
    match reports::close(&state, &s.official.actor, id, outcome).await {
        Ok(()) => Ok(redirect(&format!("/painel/denuncias/{id}?encerrada"))),
        Err(ReportError::NotFound) => Err(PanelError::NotFound),
        Err(ReportError::Refused(m)) => {
            report_page(
                &s,
                &state,
                id,
                StatusCode::UNPROCESSABLE_ENTITY,
                None,
                Some(m),
            )
            .await
        }
        Err(ReportError::Storage(e)) => Err(e.into()),
    }
}
