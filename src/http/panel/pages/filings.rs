//! The filings applicants sent online, at the desk: the queue, one filing with its files
//! (each opened as a download, accepted or refused with a reason), an exigência with its
//! deadline, a refusal, and the renewal task opened on the filing to decide it.

use super::*;
use crate::domain::filings::FilingKind;
use crate::issuance::filings::{self, FilingError, FilingView};

#[derive(Template)]
#[template(path = "pages/panel/filings.html")]
struct QueuePage {
    chrome: Option<Chrome>,
    rows: Vec<QueueRow>,
}

struct QueueRow {
    id: String,
    number: String,
    date: String,
    kind: &'static str,
    status: &'static str,
}

#[derive(Template)]
#[template(path = "pages/panel/filing.html")]
struct FilingPage {
    chrome: Option<Chrome>,
    csrf: String,
    number: String,
    protocolled: String,
    demand_due: String,
    open: bool,
    /// The desk's task that decides the filing: (link, button, what it does).
    task: Option<(String, &'static str, &'static str)>,
    v: FilingView,
    notice: Option<&'static str>,
    error: Option<String>,
}

/// Whose competence a filing of `kind` is: the secretariat that decides it.
fn competence_of(kind: FilingKind) -> Competence {
    if kind.is_charter() {
        Competence::IssueCharter
    } else {
        Competence::IssueRideHailing
    }
}

/// Refuses an official outside the competence of filing `id`'s law.
async fn require_for(s: &Signed, state: &AppState, id: uuid::Uuid) -> Result<(), PanelError> {
    let (row, _) = state.store.filing(id).await?.ok_or(PanelError::NotFound)?;
    let kind = FilingKind::parse(&row.kind).ok_or(PanelError::NotFound)?;
    s.require(competence_of(kind))
}

/// The desk's task that decides a filing of `kind` opened on it, where a task does: its link,
/// its button and what it does.
fn task_of(v: &FilingView) -> Option<(String, &'static str, &'static str)> {
    let (path, button, text) = match v.kind {
        FilingKind::AppRenewal => (
            "renovacao",
            "Decidir na tarefa de renovação",
            "A renovação é julgada como uma concessão, com a data do protocolo do pedido. Confira os documentos acima e abra a tarefa: ela confere a lei antes de gravar.",
        ),
        FilingKind::AppNewAuthorization => (
            "autorizacao",
            "Decidir na tarefa de nova autorização",
            "A tarefa abre com os dados que o requerente informou e a data do protocolo do pedido. Digite as certidões e as taxas como estão nos documentos juntados; “Conferir” aplica a lei antes de gravar.",
        ),
        FilingKind::AppSubstitution => (
            "substituicao",
            "Decidir na tarefa de substituição",
            "A tarefa abre com a autorização, o carro novo e o motivo informados; o carro novo é cadastrado com os dados do pedido quando a substituição é registrada. Registre a vistoria do carro novo, feita pessoalmente.",
        ),
        FilingKind::CharterRegistration => (
            "empresa",
            "Decidir na tarefa de cadastro de empresa",
            "A tarefa abre com os dados da empresa, o número e a data do protocolo deste requerimento. Digite o número, a emissão e a validade de cada documento do art. 7º juntado.",
        ),
        FilingKind::CharterTermo => (
            "termo",
            "Decidir na tarefa do Termo de Autorização",
            "A tarefa abre com a empresa e a data do protocolo. Digite as certidões novas juntadas; as que estão no cadastro e em vigor continuam valendo.",
        ),
        FilingKind::CharterBusEnrolment => (
            "onibus",
            "Decidir na tarefa de cadastro de ônibus",
            "A tarefa abre com os dados do veículo informados pela empresa e a data do protocolo; confira-os com o CRLV, o comprovante de propriedade, o laudo de ITV e a apólice juntados.",
        ),
        _ => return None,
    };
    let on = match v.kind.opening() {
        crate::domain::filings::Opening::Authorization
        | crate::domain::filings::Opening::Company => {
            format!("id={}&", v.row.subject_id)
        }
        _ => String::new(),
    };
    Some((
        format!("/painel/tarefa/{path}?{on}requerimento={}", v.row.id),
        button,
        text,
    ))
}

pub(super) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/painel/requerimentos").route(web::get().to(queue)))
        .service(web::resource("/painel/requerimentos/{id}").route(web::get().to(show)))
        .service(
            web::resource("/painel/requerimentos/{id}/arquivos/{file}")
                .route(web::get().to(file))
                .route(web::post().to(examine)),
        )
        .service(
            web::resource("/painel/requerimentos/{id}/exigencia").route(web::post().to(demand)),
        )
        .service(
            web::resource("/painel/requerimentos/{id}/indeferir").route(web::post().to(refuse)),
        )
        .service(
            web::resource("/painel/requerimentos/{id}/certidao").route(
                web::post().to(|state, req, id, form| {
                    decide_by(state, req, id, form, DecidingAct::Certidao)
                }),
            ),
        )
        .service(
            web::resource("/painel/requerimentos/{id}/alteracao").route(
                web::post().to(|state, req, id, form| {
                    decide_by(state, req, id, form, DecidingAct::Change)
                }),
            ),
        )
        .service(
            web::resource("/painel/requerimentos/{id}/processo").route(
                web::post()
                    .to(|state, req, id, form| decide_by(state, req, id, form, DecidingAct::Join)),
            ),
        );
}

fn refused(e: FilingError) -> Result<String, PanelError> {
    match e {
        FilingError::Refused(m) => Ok(m),
        FilingError::NotFound => Err(PanelError::NotFound),
        FilingError::Storage(e) => Err(e.into()),
    }
}

/// After an act on a filing: back to its page with what was done, or the page again with the
/// refusal answered with `refused_status`.
async fn after_act(
    s: &Signed,
    state: &AppState,
    id: uuid::Uuid,
    done: Result<(), FilingError>,
    (feito, refused_status): (&str, StatusCode),
) -> Page {
    match done {
        Ok(()) => Ok(redirect(&format!(
            "/painel/requerimentos/{id}?feito={feito}"
        ))),
        Err(e) => {
            let e = refused(e)?;
            filing_page(s, state, id, refused_status, None, Some(e)).await
        }
    }
}

async fn queue(state: web::Data<AppState>, req: HttpRequest) -> Page {
    let s = Signed::of(&req, &state).await?;
    // Each secretariat has its queue: the filings of its law.
    if s.require(Competence::IssueCharter).is_err() {
        s.require(Competence::IssueRideHailing)?;
    }
    let rows = state
        .store
        .filing_queue()
        .await?
        .into_iter()
        .filter(|f| FilingKind::parse(&f.kind).is_some_and(|k| s.require(competence_of(k)).is_ok()))
        .map(|f| {
            let status = crate::domain::filings::FilingStatus::parse(&f.status);
            let due = f.demand_due.map(format::date).unwrap_or_default();
            QueueRow {
                number: f.number.clone().unwrap_or_default(),
                date: f.protocolled_on.map(format::date).unwrap_or_default(),
                kind: crate::domain::filings::FilingKind::parse(&f.kind)
                    .map_or("", crate::domain::filings::FilingKind::label),
                status: match status {
                    Some(crate::domain::filings::FilingStatus::Waiting) if !due.is_empty() => {
                        "Exigência feita; aguardando o requerente"
                    }
                    Some(st) => st.label(),
                    None => "",
                },
                id: f.id,
            }
        })
        .collect();
    let body = render(&QueuePage {
        chrome: Some(chrome_of(&s)),
        rows,
    })?;
    Ok(html(StatusCode::OK, body))
}

async fn filing_page(
    s: &Signed,
    state: &AppState,
    id: uuid::Uuid,
    status: StatusCode,
    notice: Option<&'static str>,
    error: Option<String>,
) -> Page {
    let v = filings::view(state, id, None)
        .await
        .map_err(|e| match refused(e) {
            Ok(_) => PanelError::Internal,
            Err(e) => e,
        })?;
    // A draft is the applicant's until it is protocolled.
    if v.row.number.is_none() {
        return Err(PanelError::NotFound);
    }
    let body = render(&FilingPage {
        chrome: Some(chrome_of(s)),
        csrf: s.session.csrf_token.clone(),
        number: v.row.number.clone().unwrap_or_default(),
        protocolled: v.row.protocolled_on.map(format::date).unwrap_or_default(),
        demand_due: v.row.demand_due.map(format::date).unwrap_or_default(),
        open: matches!(v.row.status.as_str(), "protocolado" | "exigencia"),
        task: task_of(&v),
        v,
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
    let id = uuid_of(&id)?;
    require_for(&s, &state, id).await?;
    let notice = match query.get("feito").map(String::as_str) {
        Some("exame") => Some("Arquivo examinado; o requerente foi avisado se recusado."),
        Some("exigencia") => Some("Exigência enviada ao requerente por e-mail."),
        Some("indeferido") => Some("Pedido indeferido; o requerente foi avisado por e-mail."),
        Some("certidao") => Some("Certidão emitida; o requerente foi avisado por e-mail."),
        Some("alteracao") => Some("Alteração registrada; o requerente foi avisado por e-mail."),
        Some("processo") => {
            Some("Juntado ao processo do auto; o requerente foi avisado por e-mail.")
        }
        _ => None,
    };
    filing_page(&s, &state, id, StatusCode::OK, notice, None).await
}

/// A file as sent, for the official to open: downloaded, never rendered in the back office's
/// origin.
async fn file(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    let (id, file) = (uuid_of(&path.0)?, uuid_of(&path.1)?);
    require_for(&s, &state, id).await?;
    let (name, media, content) = state
        .store
        .filing_file_content(id, file)
        .await?
        .ok_or(PanelError::NotFound)?;
    let ascii: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || ".-_".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut res = HttpResponse::Ok();
    page_headers(&mut res);
    Ok(res
        .content_type(media)
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{ascii}\""),
        ))
        .body(content))
}

async fn examine(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    form: web::Form<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.check_csrf(&form)?;
    let (id, file) = (uuid_of(&path.0)?, uuid_of(&path.1)?);
    require_for(&s, &state, id).await?;
    let refusing = form.get("acao").map(String::as_str) == Some("recusar");
    let reason = form.get("motivo").map(|m| m.trim()).unwrap_or_default();
    if refusing && reason.is_empty() {
        let e = "Para recusar, escreva o motivo: o requerente o recebe por e-mail.".to_owned();
        return filing_page(
            &s,
            &state,
            id,
            StatusCode::UNPROCESSABLE_ENTITY,
            None,
            Some(e),
        )
        .await;
    }
    let refusal = refusing.then_some(reason);
    let done = filings::examine(&state, &s.official.actor, id, file, refusal).await;
    after_act(&s, &state, id, done, ("exame", StatusCode::CONFLICT)).await
}

async fn demand(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
    form: web::Form<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.check_csrf(&form)?;
    let id = uuid_of(&id)?;
    require_for(&s, &state, id).await?;
    let text = form.get("texto").map_or("", String::as_str);
    let days = form
        .get("prazo")
        .and_then(|d| d.trim().parse::<i64>().ok())
        .unwrap_or(0);
    let done = filings::demand(&state, &s.official.actor, id, text, days).await;
    after_act(
        &s,
        &state,
        id,
        done,
        ("exigencia", StatusCode::UNPROCESSABLE_ENTITY),
    )
    .await
}

async fn refuse(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
    form: web::Form<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.check_csrf(&form)?;
    let id = uuid_of(&id)?;
    require_for(&s, &state, id).await?;
    let note = form.get("motivo").map(String::as_str);
    let outcome = filings::Outcome::Refused;
    let done = filings::decide(&state, &s.official.actor, id, outcome, note).await;
    after_act(
        &s,
        &state,
        id,
        done,
        ("indeferido", StatusCode::UNPROCESSABLE_ENTITY),
    )
    .await
}

/// The act a filing's kind is decided by, at the desk, in one step.
#[derive(Clone, Copy)]
enum DecidingAct {
    /// A certidão filing: the certidão issued.
    Certidao,
    /// A report of changed data: the change recorded.
    Change,
    /// A defence or a reconsideration: joined to the auto's procedure.
    Join,
}

/// Runs the act `which` on the filing and decides it with the act's result.
async fn decide_by(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
    form: web::Form<HashMap<String, String>>,
    which: DecidingAct,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.check_csrf(&form)?;
    let id = uuid_of(&id)?;
    require_for(&s, &state, id).await?;
    let actor = &s.official.actor;
    let (done, feito) = match which {
        DecidingAct::Certidao => (filings::issue_certidao(&state, actor, id).await, "certidao"),
        DecidingAct::Change => (filings::record_change(&state, actor, id).await, "alteracao"),
        DecidingAct::Join => (filings::file_on_auto(&state, actor, id).await, "processo"),
    };
    after_act(&s, &state, id, done, (feito, StatusCode::CONFLICT)).await
}
