//! The applicant's filings at `/servicos/pedidos`: open the renewal of an authorization or a
//! certidão of its driver or car, attach the documents the basis in force asks for, send it,
//! answer an exigência and download what the decision issued. Another applicant's filing is
//! not found.

use std::collections::HashMap;

use actix_web::http::StatusCode;

use actix_web::{HttpRequest, web};
use askama::Template;
use futures_util::StreamExt as _;
use uuid::Uuid;

use super::{CSRF_FIELD, Page, Who, csrf_refused, internal, message, page, see_other, session_of};
use crate::documents::format;
use crate::domain::filings::FilingKind;
use crate::issuance::filings::{self, FilingError, FilingView, StatedRefusal};
use crate::state::AppState;
use crate::storage::applicants::ApplicantSession;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/servicos/pedidos/novo")
            .route(web::get().to(new_form))
            .route(web::post().to(open)),
    )
    .service(web::resource("/servicos/pedidos/{id}").route(web::get().to(show)))
    .service(web::resource("/servicos/pedidos/{id}/arquivos").route(web::post().to(upload)))
    .service(web::resource("/servicos/pedidos/{id}/protocolar").route(web::post().to(submit)))
    .service(web::resource("/servicos/pedidos/{id}/alteracao").route(web::post().to(change)))
    .service(web::resource("/servicos/pedidos/{id}/dados").route(web::post().to(data)))
    .service(
        web::resource("/servicos/pedidos/{id}/documentos/{doc}").route(web::get().to(document)),
    );
}

#[derive(Template)]
#[template(path = "pages/services/filing_new.html")]
struct NewPage {
    who: Option<Who>,
    csrf: String,
    /// (value, label, hint, checked) of each kind offered to drivers, then to companies.
    kinds: Vec<(&'static str, &'static str, &'static str, bool)>,
    charter_kinds: Vec<(&'static str, &'static str, &'static str, bool)>,
    number: String,
    cpf: String,
    error: Option<String>,
}

/// The kinds of one law (`charter`) the applicant chooses from, `chosen` checked.
fn kinds(
    chosen: FilingKind,
    charter: bool,
) -> Vec<(&'static str, &'static str, &'static str, bool)> {
    FilingKind::ALL
        .into_iter()
        .filter(|k| k.is_charter() == charter)
        .map(|k| {
            let hint = match k {
                FilingKind::AppNewAuthorization => {
                    "Para quem ainda não tem autorização: informe só o seu CPF; os dados da CNH e do carro vêm depois."
                }
                FilingKind::AppSubstitution => {
                    "Troca do carro da autorização depois de sinistro, venda ou fim da locação. O carro novo passa por vistoria."
                }
                FilingKind::CharterRegistration => {
                    "Para a empresa que ainda não é cadastrada: informe só o CNPJ; os dados e os documentos do art. 7º vêm depois."
                }
                FilingKind::CharterTermo => {
                    "Para empresa cadastrada: o primeiro Termo ou a renovação. Informe o CNPJ (e o número do Termo atual, se houver)."
                }
                FilingKind::CharterBusEnrolment => {
                    "Para empresa cadastrada: um ônibus ou micro-ônibus por pedido. Informe o CNPJ (e o número do Termo, se houver)."
                }
                FilingKind::AppRenewal => "Com os documentos que a lei em vigor pede para renovar.",
                FilingKind::AppCertidaoDriver => {
                    "O que o cadastro certifica sobre o(a) motorista e a autorização."
                }
                FilingKind::AppCertidaoVehicle => {
                    "O que o cadastro certifica sobre o carro autorizado."
                }
                FilingKind::AppDataChange => {
                    "Avise de uma mudança de endereço, telefone, CNH ou do carro, no prazo que a lei fixa."
                }
                FilingKind::AppDefence => {
                    "Contra um auto de infração, no prazo que a notificação indica. Informe o número do auto."
                }
                FilingKind::AppReconsideration => {
                    "Contra a decisão sobre a sua defesa, no prazo que a decisão indica. Informe o número do auto."
                }
            };
            (k.as_str(), k.label(), hint, k == chosen)
        })
        .collect()
}

/// The kind a form or a link names; the renewal when it names none.
fn kind_named(value: Option<&String>) -> Option<FilingKind> {
    match value.map(String::as_str) {
        None | Some("") => Some(FilingKind::AppRenewal),
        Some(v) => FilingKind::parse(v),
    }
}

#[derive(Template)]
#[template(path = "pages/services/filing.html")]
struct FilingPage {
    who: Option<Who>,
    title: String,
    csrf: String,
    v: FilingView,
    protocolled: Option<String>,
    demand_due: Option<String>,
    missing: String,
    max_mb: usize,
    notice: Option<&'static str>,
    error: Option<String>,
    /// The stated fields as typed, with the problem beside each, after a refused form.
    typed: HashMap<String, String>,
    problems: HashMap<String, String>,
}

impl FilingPage {
    /// What a stated field shows: as typed after a refusal, else as kept (a day as
    /// `dd/mm/aaaa`).
    fn value_of(&self, f: &crate::domain::filings::stated::StatedField) -> String {
        if let Some(t) = self.typed.get(&f.name) {
            return t.clone();
        }
        let kept = self.v.stated_value(&f.name);
        if f.is_date() {
            f.shown(kept)
        } else {
            kept.to_owned()
        }
    }

    fn problem_of(&self, name: &str) -> Option<&String> {
        self.problems.get(name)
    }
}

fn who(s: &ApplicantSession) -> Who {
    Who {
        email: s.applicant.email.clone(),
        csrf: s.csrf_token.clone(),
    }
}

pub(super) fn csrf_ok(s: &ApplicantSession, sent: &str) -> bool {
    !sent.is_empty()
        && bool::from(subtle::ConstantTimeEq::ct_eq(
            sent.as_bytes(),
            s.csrf_token.as_bytes(),
        ))
}

fn not_found() -> Page {
    message(
        StatusCode::NOT_FOUND,
        "Pedido não encontrado",
        "Este pedido não existe ou não é seu.",
        Some(("/servicos/inicio", "Meus serviços")),
    )
}

fn filing_id(id: &str) -> Option<Uuid> {
    Uuid::parse_str(id).ok()
}

async fn new_form(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let Some(s) = session_of(&state, &req).await? else {
        return Ok(see_other("/servicos"));
    };
    let chosen = kind_named(query.get("tipo")).unwrap_or(FilingKind::AppRenewal);
    page(
        StatusCode::OK,
        &NewPage {
            csrf: s.csrf_token.clone(),
            who: Some(who(&s)),
            kinds: kinds(chosen, false),
            charter_kinds: kinds(chosen, true),
            number: String::new(),
            cpf: String::new(),
            error: None,
        },
    )
}

async fn open(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<HashMap<String, String>>,
) -> Page {
    let Some(s) = session_of(&state, &req).await? else {
        return Ok(see_other("/servicos"));
    };
    if !csrf_ok(&s, form.get(CSRF_FIELD).map_or("", String::as_str)) {
        return csrf_refused();
    }
    let number = form.get("numero").cloned().unwrap_or_default();
    let cpf = form.get("cpf").cloned().unwrap_or_default();
    let kind = kind_named(form.get("tipo"));
    let opened = match kind {
        Some(kind) => filings::open(&state, &s.applicant, kind, &number, &cpf).await,
        None => Err(FilingError::Refused("Escolha o que você pede.".into())),
    };
    match opened {
        Ok(id) => Ok(see_other(&format!("/servicos/pedidos/{id}"))),
        Err(FilingError::Refused(e)) => page(
            StatusCode::UNPROCESSABLE_ENTITY,
            &NewPage {
                csrf: s.csrf_token.clone(),
                who: Some(who(&s)),
                kinds: kinds(kind.unwrap_or(FilingKind::AppRenewal), false),
                charter_kinds: kinds(kind.unwrap_or(FilingKind::AppRenewal), true),
                number,
                cpf,
                error: Some(e),
            },
        ),
        Err(e) => Err(internal(e)),
    }
}

async fn filing_page(
    state: &AppState,
    s: &ApplicantSession,
    id: Uuid,
    status: StatusCode,
    notice: Option<&'static str>,
    error: Option<String>,
) -> Page {
    let mut v = match filings::view(state, id, Some(&s.applicant)).await {
        Ok(v) => v,
        Err(FilingError::NotFound) => return not_found(),
        Err(e) => return Err(internal(e)),
    };
    let problems = stated_preview(state, &mut v).await?;
    let mut p = filing_page_of(state, s, v, notice, error);
    p.problems = problems;
    page(status, &p)
}

/// A first authorization's data, once stated whole and while the applicant may change it,
/// judged as the grant would judge it today (APP-ART2, APP-ART12-I): the requirements failed
/// go to the filing's preview, those a document still to be examined answers (the
/// certificates, the fee, a document the basis lists) left out; data out of form come back
/// beside their fields.
async fn stated_preview(
    state: &AppState,
    v: &mut FilingView,
) -> Result<HashMap<String, String>, actix_web::Error> {
    if v.kind != FilingKind::AppNewAuthorization
        || !v.is_open_to_applicant()
        || !v.unanswered().is_empty()
    {
        return Ok(HashMap::new());
    }
    match crate::http::grant_check::judge_stated(state, &v.stated)
        .await
        .map_err(internal)?
    {
        Ok(failures) => {
            let judged_by_documents: Vec<String> = v
                .slots
                .iter()
                .filter(|s| !v.preview_judges(s))
                .flat_map(|s| s.rules.iter().cloned())
                .collect();
            v.preview = Some(
                failures
                    .into_iter()
                    .filter(|f| !judged_by_documents.iter().any(|r| *r == f.rule))
                    .collect(),
            );
            Ok(HashMap::new())
        }
        Err(problems) => Ok(problems.into_iter().collect()),
    }
}

fn filing_page_of(
    state: &AppState,
    s: &ApplicantSession,
    v: FilingView,
    notice: Option<&'static str>,
    error: Option<String>,
) -> FilingPage {
    let mut missing: Vec<&str> = v
        .slots
        .iter()
        .filter(|sl| v.missing.contains(&sl.key))
        .map(|sl| sl.label.as_str())
        .collect();
    let unanswered = v.unanswered().len();
    let data = format!(
        "os dados pedidos ({unanswered} campo{})",
        if unanswered == 1 { "" } else { "s" }
    );
    if unanswered > 0 {
        missing.insert(0, &data);
    }
    let missing = missing.join("; ");
    FilingPage {
        who: Some(who(s)),
        title: v.row.number.clone().unwrap_or_else(|| "em preparo".into()),
        csrf: s.csrf_token.clone(),
        protocolled: v.row.protocolled_on.map(format::date),
        demand_due: v.row.demand_due.map(format::date),
        missing,
        max_mb: state.settings.limits.filing_file_bytes / (1024 * 1024),
        notice,
        error,
        typed: HashMap::new(),
        problems: HashMap::new(),
        v,
    }
}

/// After the applicant's step: on to `to`, or the filing's page again with the refusal.
async fn after_step(
    state: &AppState,
    s: &ApplicantSession,
    id: Uuid,
    done: Result<(), FilingError>,
    to: &str,
) -> Page {
    match done {
        Ok(()) => Ok(see_other(to)),
        Err(FilingError::NotFound) => not_found(),
        Err(FilingError::Refused(e)) => {
            let status = StatusCode::UNPROCESSABLE_ENTITY;
            filing_page(state, s, id, status, None, Some(e)).await
        }
        Err(e) => Err(internal(e)),
    }
}

async fn show(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let Some(s) = session_of(&state, &req).await? else {
        return Ok(see_other("/servicos"));
    };
    let Some(id) = filing_id(&id) else {
        return not_found();
    };
    let notice = if query.contains_key("enviado") {
        Some("Pedido enviado. Você receberá um e-mail a cada novidade.")
    } else if query.contains_key("arquivo") {
        Some("Arquivo juntado.")
    } else if query.contains_key("alteracao") {
        Some("Alteração anotada no pedido.")
    } else if query.contains_key("dados") {
        Some("Dados anotados no pedido.")
    } else {
        None
    };
    filing_page(&state, &s, id, StatusCode::OK, notice, None).await
}

/// The multipart form of an upload: the CSRF token, the slot, and the file's name and bytes.
struct Upload {
    csrf: String,
    slot: String,
    file: Option<(String, Vec<u8>)>,
}

enum ReadError {
    TooLarge,
    Broken,
    Late,
}

/// Reads the form with the file capped at `max` bytes (and text fields at 1 KiB): reading
/// stops at the first byte over.
async fn read_upload(
    req: &HttpRequest,
    payload: web::Payload,
    max: usize,
) -> Result<Upload, ReadError> {
    let mut form = actix_multipart::Multipart::new(req.headers(), payload);
    let mut up = Upload {
        csrf: String::new(),
        slot: String::new(),
        file: None,
    };
    while let Some(field) = form.next().await {
        let mut field = field.map_err(|_| ReadError::Broken)?;
        let name = field.name().unwrap_or_default().to_owned();
        let file_name = field
            .content_disposition()
            .and_then(|d| d.get_filename())
            .map(str::to_owned);
        let cap = if name == "arquivo" { max } else { 1024 };
        let mut bytes = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(|_| ReadError::Broken)?;
            if bytes.len() + chunk.len() > cap {
                return Err(ReadError::TooLarge);
            }
            bytes.extend_from_slice(&chunk);
        }
        match name.as_str() {
            CSRF_FIELD => up.csrf = String::from_utf8_lossy(&bytes).into_owned(),
            "documento" => up.slot = String::from_utf8_lossy(&bytes).into_owned(),
            "arquivo" if !bytes.is_empty() || file_name.is_some() => {
                up.file = Some((file_name.unwrap_or_default(), bytes));
            }
            _ => {}
        }
    }
    Ok(up)
}

async fn upload(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
    payload: web::Payload,
) -> Page {
    let Some(s) = session_of(&state, &req).await? else {
        return Ok(see_other("/servicos"));
    };
    let Some(id) = filing_id(&id) else {
        return not_found();
    };
    let max = state.settings.limits.filing_file_bytes;
    // Exempt from the request deadline, an upload has its own: a stalled client frees the
    // connection.
    let deadline = state.settings.limits.upload_deadline;
    let read = tokio::time::timeout(deadline, read_upload(&req, payload, max)).await;
    let up = match read.unwrap_or(Err(ReadError::Late)) {
        Ok(up) => up,
        Err(ReadError::Late) => {
            let e = format!(
                "O arquivo não chegou em {} segundos; tente de novo com uma conexão melhor ou um arquivo menor.",
                deadline.as_secs()
            );
            let status = StatusCode::REQUEST_TIMEOUT;
            return filing_page(&state, &s, id, status, None, Some(e)).await;
        }
        Err(ReadError::TooLarge) => {
            let e = crate::domain::filings::FileRefusal::TooLarge { max_bytes: max };
            let status = StatusCode::PAYLOAD_TOO_LARGE;
            return filing_page(&state, &s, id, status, None, Some(e.to_string())).await;
        }
        Err(ReadError::Broken) => {
            let e = "O arquivo não chegou inteiro; envie de novo.".to_owned();
            return filing_page(&state, &s, id, StatusCode::BAD_REQUEST, None, Some(e)).await;
        }
    };
    if !csrf_ok(&s, &up.csrf) {
        return csrf_refused();
    }
    let Some((name, bytes)) = up.file else {
        let e = "Escolha o arquivo antes de enviar.".to_owned();
        return filing_page(&state, &s, id, StatusCode::BAD_REQUEST, None, Some(e)).await;
    };
    let done = filings::add_file(&state, &s.applicant, id, &up.slot, &name, &bytes).await;
    let to = format!("/servicos/pedidos/{id}?arquivo#doc-{}", up.slot);
    after_step(&state, &s, id, done, &to).await
}

/// The signed-in applicant and the filing a form was posted to; or, in `Err`, the page that
/// answers instead (sign in first, a stale form, no such filing).
async fn posted_to(
    state: &AppState,
    req: &HttpRequest,
    id: &str,
    form: &HashMap<String, String>,
) -> Result<Result<(ApplicantSession, Uuid), Page>, actix_web::Error> {
    let Some(s) = session_of(state, req).await? else {
        return Ok(Err(Ok(see_other("/servicos"))));
    };
    if !csrf_ok(&s, form.get(CSRF_FIELD).map_or("", String::as_str)) {
        return Ok(Err(csrf_refused()));
    }
    Ok(filing_id(id).map(|id| (s, id)).ok_or_else(not_found))
}

/// What changed and when, in a report of changed data.
async fn change(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
    form: web::Form<HashMap<String, String>>,
) -> Page {
    let (s, id) = match posted_to(&state, &req, &id, &form).await? {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let what = form.get("o_que").map_or("", String::as_str);
    let day = form.get("data").map_or("", String::as_str);
    let done = filings::state_change(&state, &s.applicant, id, what, day).await;
    let to = format!("/servicos/pedidos/{id}?alteracao#alteracao");
    after_step(&state, &s, id, done, &to).await
}

/// What the applicant states: a new authorization's driver and car, a new car, a company, a
/// bus. A refusal shows the form again as typed, each problem beside its field.
async fn data(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
    form: web::Form<HashMap<String, String>>,
) -> Page {
    let (s, id) = match posted_to(&state, &req, &id, &form).await? {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    match filings::state_data(&state, &s.applicant, id, &form).await {
        Ok(()) => Ok(see_other(&format!("/servicos/pedidos/{id}?dados#dados"))),
        Err(StatedRefusal::Filing(e)) => after_step(&state, &s, id, Err(e), "").await,
        Err(StatedRefusal::Fields(problems)) => {
            let v = match filings::view(&state, id, Some(&s.applicant)).await {
                Ok(v) => v,
                Err(FilingError::NotFound) => return not_found(),
                Err(e) => return Err(internal(e)),
            };
            let typed = v
                .fields
                .iter()
                .filter_map(|f| form.get(&f.name).map(|t| (f.name.clone(), t.clone())))
                .collect();
            let error = format!(
                "Confira {}: nada foi anotado.",
                if problems.len() == 1 {
                    "o campo marcado".to_owned()
                } else {
                    format!("os {} campos marcados", problems.len())
                }
            );
            let mut p = filing_page_of(&state, &s, v, None, Some(error));
            p.typed = typed;
            p.problems = problems.into_iter().collect();
            page(StatusCode::UNPROCESSABLE_ENTITY, &p)
        }
    }
}

async fn submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
    form: web::Form<HashMap<String, String>>,
) -> Page {
    let (s, id) = match posted_to(&state, &req, &id, &form).await? {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let done = filings::submit(&state, &s.applicant, id).await.map(|_| ());
    after_step(
        &state,
        &s,
        id,
        done,
        &format!("/servicos/pedidos/{id}?enviado"),
    )
    .await
}

async fn document(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
) -> Page {
    let Some(s) = session_of(&state, &req).await? else {
        return Ok(see_other("/servicos"));
    };
    let (Some(id), Some(doc)) = (filing_id(&path.0), filing_id(&path.1)) else {
        return not_found();
    };
    let v = match filings::view(&state, id, Some(&s.applicant)).await {
        Ok(v) => v,
        Err(FilingError::NotFound) => return not_found(),
        Err(e) => return Err(internal(e)),
    };
    let Some(d) = v.documents.iter().find(|d| d.id == doc) else {
        return not_found();
    };
    let Some(pdf) = state.store.document_pdf(doc).await.map_err(internal)? else {
        return not_found();
    };
    Ok(super::pdf_download(&d.number, pdf))
}
