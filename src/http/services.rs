//! The applicants' counter at `/servicos`: drivers and companies' representatives sign in
//! with a one-time code sent to their e-mail and see what they filed. Pages in pt-BR,
//! phone-first, working without JavaScript; every form carries a CSRF token (double submit
//! before sign-in, the session's after).

use std::collections::HashMap;

use actix_web::http::StatusCode;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

mod filings;

use super::panel::{cookie, page_headers, set_cookie};
use crate::domain::filings::{FilingKind, FilingStatus};
use crate::issuance::applicants::oidc::{self, Finished, OidcError};
use crate::issuance::applicants::{self as accounts, CodeRequest, Redemption};
use crate::issuance::ride_hailing::electronic_notice::OpenedNotice;
use crate::signing::secrets;
use crate::state::AppState;
use crate::storage::applicants::ApplicantSession;

/// The applicant's session cookie.
pub const SESSION_COOKIE: &str = "selo_servicos";
/// The state of a sign-in through the OpenID Connect provider, held by the browser that began it.
const OIDC_COOKIE: &str = "selo_servicos_oidc";
/// The CSRF cookie of the forms before sign-in.
const ENTRY_COOKIE: &str = "selo_servicos_entrada";
const CSRF_FIELD: &str = "_csrf";

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/servicos").route(web::get().to(start)))
        .service(web::resource("/servicos/entrar").route(web::post().to(ask_code)))
        .service(web::resource("/servicos/entrar/oidc").route(web::get().to(oidc_begin)))
        .service(web::resource(oidc::CALLBACK_PATH).route(web::get().to(oidc_return)))
        .service(
            web::resource("/servicos/codigo")
                .route(web::get().to(code_page))
                .route(web::post().to(enter_code)),
        )
        .service(web::resource("/servicos/inicio").route(web::get().to(home)))
        .service(web::resource("/servicos/notificacoes").route(web::get().to(notices)))
        .service(web::resource("/servicos/notificacoes/{id}").route(web::get().to(open_notice)))
        .service(
            web::resource("/servicos/notificacoes/{id}/documentos/{doc}")
                .route(web::get().to(notice_document)),
        )
        .service(
            web::resource("/servicos/acompanhar")
                .route(web::get().to(follow_form))
                .route(web::post().to(follow)),
        )
        .service(web::resource("/servicos/sair").route(web::post().to(sign_out)));
    filings::configure(cfg);
}

type Page = Result<HttpResponse, actix_web::Error>;

/// The signed-in applicant the layout names.
struct Who {
    email: String,
    csrf: String,
}

#[derive(Template)]
#[template(path = "pages/services/sign_in.html")]
struct SignInPage {
    who: Option<Who>,
    /// The provider's name on the "Entrar com …" button and the lowest trust level it takes,
    /// when one is configured.
    oidc: Option<(String, &'static str)>,
    csrf: String,
    email: String,
    error: Option<String>,
    ended: bool,
}

#[derive(Template)]
#[template(path = "pages/services/code.html")]
struct CodePage {
    who: Option<Who>,
    csrf: String,
    challenge: String,
    error: Option<String>,
}

#[derive(Template)]
#[template(path = "pages/services/home.html")]
struct HomePage {
    who: Option<Who>,
    new: bool,
    following_added: bool,
    followed: Vec<crate::issuance::follows::Followed>,
    /// How many electronic notices the applicant has not opened yet, and whether there is any.
    notices_unread: usize,
    has_notices: bool,
    filings: Vec<FilingLine>,
}

#[derive(Template)]
#[template(path = "pages/services/notices.html")]
struct NoticesPage {
    who: Option<Who>,
    notices: Vec<NoticeItem>,
}

/// An electronic notice in the applicant's list.
struct NoticeItem {
    id: String,
    auto_number: String,
    /// dd/mm/aaaa hh:mm, local time.
    sent: String,
    read: Option<String>,
}

#[derive(Template)]
#[template(path = "pages/services/notice.html")]
struct NoticePage {
    who: Option<Who>,
    id: String,
    number: String,
    citation: String,
    sent: String,
    read: String,
    infraction: String,
    committed: String,
    place: String,
    facts: String,
    inspector: String,
    drawn: String,
    fine: String,
    defence_days: u32,
    /// (id, number) of each signed Notificação de Penalidade.
    documents: Vec<(String, String)>,
}

#[derive(Template)]
#[template(path = "pages/services/follow.html")]
struct FollowPage {
    who: Option<Who>,
    csrf: String,
    /// "60, 30 e 7 dias antes".
    days: String,
    /// `motorista` or `empresa`: the form the values and the error belong to.
    kind: String,
    number: String,
    document: String,
    error: Option<String>,
}

/// A filing in the applicant's list.
struct FilingLine {
    id: String,
    title: String,
    status: &'static str,
}

#[derive(Template)]
#[template(path = "pages/services/message.html")]
struct MessagePage<'a> {
    who: Option<Who>,
    title: &'a str,
    text: &'a str,
    link: Option<(&'a str, &'a str)>,
}

fn page(status: StatusCode, t: &impl Template) -> Page {
    let body = t.render().map_err(|e| {
        tracing::error!(error = %e, "applicants' page did not render");
        actix_web::error::ErrorInternalServerError("erro interno")
    })?;
    let mut res = HttpResponse::build(status);
    page_headers(&mut res);
    Ok(res.content_type("text/html; charset=utf-8").body(body))
}

fn see_other(to: &str) -> HttpResponse {
    let mut res = HttpResponse::SeeOther();
    res.insert_header((header::LOCATION, to.to_owned()));
    page_headers(&mut res);
    res.finish()
}

fn internal(e: impl std::fmt::Display) -> actix_web::Error {
    tracing::error!(error = %e, "applicants' counter failed");
    actix_web::error::ErrorInternalServerError("erro interno")
}

fn message(status: StatusCode, title: &str, text: &str, link: Option<(&str, &str)>) -> Page {
    page(
        status,
        &MessagePage {
            who: None,
            title,
            text,
            link,
        },
    )
}

/// The session of the request, if it has a live one.
async fn session_of(
    state: &AppState,
    req: &HttpRequest,
) -> Result<Option<ApplicantSession>, actix_web::Error> {
    match cookie(req, SESSION_COOKIE).filter(|c| !c.is_empty()) {
        Some(c) => accounts::session(state, &c).await.map_err(internal),
        None => Ok(None),
    }
}

/// The double-submit check of the forms before sign-in.
fn entry_csrf_ok(req: &HttpRequest, form: &HashMap<String, String>) -> bool {
    let sent = form.get(CSRF_FIELD).map_or("", String::as_str);
    let expected = cookie(req, ENTRY_COOKIE).unwrap_or_default();
    !sent.is_empty()
        && bool::from(subtle::ConstantTimeEq::ct_eq(
            sent.as_bytes(),
            expected.as_bytes(),
        ))
}

fn csrf_refused() -> Page {
    message(
        StatusCode::FORBIDDEN,
        "Formulário vencido",
        "Este formulário expirou ou foi aberto em outra janela. Volte ao início e tente de novo.",
        Some(("/servicos", "Voltar ao início")),
    )
}

/// A page carrying a fresh entry CSRF token in its cookie.
fn with_entry_cookie(state: &AppState, res: Page, csrf: &str) -> Page {
    let mut res = res?;
    res.headers_mut().append(
        header::SET_COOKIE,
        set_cookie(state, ENTRY_COOKIE, csrf, Some(3600)),
    );
    Ok(res)
}

fn sign_in_form(
    state: &AppState,
    status: StatusCode,
    email: String,
    error: Option<String>,
    ended: bool,
) -> Page {
    let csrf = secrets::random_secret().map_err(internal)?;
    let res = page(
        status,
        &SignInPage {
            who: None,
            oidc: state.settings.oidc.as_ref().map(|o| {
                (
                    o.name.clone(),
                    state.letterhead.profile.sign_in.min_trust_level.label(),
                )
            }),
            csrf: csrf.clone(),
            email,
            error,
            ended,
        },
    );
    with_entry_cookie(state, res, &csrf)
}

async fn start(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    if session_of(&state, &req).await?.is_some() {
        return Ok(see_other("/servicos/inicio"));
    }
    sign_in_form(
        &state,
        StatusCode::OK,
        String::new(),
        None,
        query.contains_key("saiu"),
    )
}

async fn ask_code(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<HashMap<String, String>>,
) -> Page {
    if !entry_csrf_ok(&req, &form) {
        return csrf_refused();
    }
    let typed = form.get("email").cloned().unwrap_or_default();
    match accounts::request_code(&state, &typed).await {
        Ok(CodeRequest::Sent { challenge }) => Ok(see_other(&format!(
            "/servicos/codigo?desafio={}",
            super::panel::urlencode(&challenge)
        ))),
        Ok(CodeRequest::TooMany) => message(
            StatusCode::TOO_MANY_REQUESTS,
            "Muitos códigos pedidos",
            "Já enviamos vários códigos para este e-mail nos últimos minutos. Use o mais recente \
             que chegou, ou espere 15 minutos para pedir outro.",
            Some(("/servicos", "Voltar ao início")),
        ),
        Err(accounts::ApplicantError::InvalidEmail) => sign_in_form(
            &state,
            StatusCode::UNPROCESSABLE_ENTITY,
            typed,
            Some("Confira o e-mail: ele precisa ter a forma nome@provedor.com.br.".to_owned()),
            false,
        ),
        Err(e) => Err(internal(e)),
    }
}

/// The provider's state cookie: `SameSite=Lax`, since the provider sends the browser back
/// from its own site; scoped to the callback, ten minutes.
fn oidc_cookie(state: &AppState, value: &str, max_age: i64) -> header::HeaderValue {
    let mut c = format!(
        "{OIDC_COOKIE}={value}; Path={}; HttpOnly; SameSite=Lax; Max-Age={max_age}",
        oidc::CALLBACK_PATH
    );
    if state.settings.public_url.starts_with("https://") {
        c.push_str("; Secure");
    }
    header::HeaderValue::from_str(&c).unwrap_or_else(|_| header::HeaderValue::from_static(""))
}

/// "Entrar com gov.br": to the provider, with a fresh state in the browser's cookie.
async fn oidc_begin(state: web::Data<AppState>) -> Page {
    match oidc::begin(&state).await {
        Ok(begun) => {
            let mut res = see_other(&begun.location);
            res.headers_mut().append(
                header::SET_COOKIE,
                oidc_cookie(&state, &begun.state, oidc::REQUEST_LIFETIME.num_seconds()),
            );
            Ok(res)
        }
        Err(OidcError::NotConfigured) => Ok(HttpResponse::NotFound().finish()),
        Err(e) => oidc_failed(&state, &e),
    }
}

/// The provider's name as the pages say it.
fn provider_name(state: &AppState) -> &str {
    state
        .settings
        .oidc
        .as_ref()
        .map_or("gov.br", |o| o.name.as_str())
}

/// A sign-in through the provider that could not finish.
fn oidc_failed(state: &AppState, e: &OidcError) -> Page {
    let (name, again) = (
        provider_name(state),
        Some(("/servicos", "Voltar ao início")),
    );
    match e {
        OidcError::State => message(
            StatusCode::BAD_REQUEST,
            "Entrada vencida",
            "Esta entrada expirou, já foi usada ou foi aberta em outra janela. Volte ao início e \
             entre de novo.",
            again,
        ),
        OidcError::Denied => message(
            StatusCode::UNAUTHORIZED,
            "Entrada não concluída",
            &format!(
                "A entrada pelo {name} foi cancelada. Você pode tentar de novo, ou entrar com um \
                 código enviado ao seu e-mail."
            ),
            again,
        ),
        OidcError::Provider(_) | OidcError::Token(_) => {
            tracing::warn!(error = %e, "sign-in through the provider failed");
            message(
                StatusCode::BAD_GATEWAY,
                "Não foi possível entrar agora",
                &format!(
                    "O {name} não respondeu como esperado. Tente de novo em alguns minutos, ou \
                     entre com um código enviado ao seu e-mail."
                ),
                again,
            )
        }
        OidcError::NotConfigured | OidcError::Secret(_) | OidcError::Storage(_) => Err(internal(e)),
    }
}

/// Where the provider sends the applicant back.
async fn oidc_return(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let cookie_state = cookie(&req, OIDC_COOKIE);
    let answer = oidc::Answer {
        cookie_state: cookie_state.as_deref(),
        state: query.get("state").map_or("", String::as_str),
        code: query.get("code").map(String::as_str),
        error: query.get("error").map(String::as_str),
    };
    let finished = oidc::finish(&state, &answer).await;
    let (name, again) = (
        provider_name(&state),
        Some(("/servicos", "Voltar ao início")),
    );
    let mut res = match finished {
        Ok(Finished::SignedIn { cookie, new }) => {
            let to = if new {
                "/servicos/inicio?novo"
            } else {
                "/servicos/inicio"
            };
            // A page of selo's own, not a redirect: the session cookie is `SameSite=Strict`,
            // and a browser arriving from the provider's site would not send it on a redirect.
            let mut res = message(
                StatusCode::OK,
                "Você entrou",
                &format!("Você entrou com sua conta {name}."),
                Some((to, "Continuar")),
            )?;
            res.headers_mut().insert(
                header::HeaderName::from_static("refresh"),
                header::HeaderValue::from_str(&format!("0; url={to}"))
                    .unwrap_or_else(|_| header::HeaderValue::from_static("0")),
            );
            res.headers_mut().append(
                header::SET_COOKIE,
                set_cookie(&state, SESSION_COOKIE, &cookie, None),
            );
            res
        }
        Ok(Finished::LevelTooLow { held, needed }) => message(
            StatusCode::FORBIDDEN,
            "Nível da conta insuficiente",
            &format!(
                "Sua conta {name} é de nível {}. Para os serviços de transporte, a Prefeitura \
                 pede uma conta de nível {} ou acima. Você pode elevar o nível da conta no \
                 aplicativo {name} e tentar de novo.",
                held.map_or("desconhecido", |h| h.label()),
                needed.label()
            ),
            again,
        )?,
        Ok(Finished::NoCpf) => message(
            StatusCode::FORBIDDEN,
            "Conta sem CPF",
            &format!(
                "A conta {name} não informou um CPF válido. Entre com um código enviado ao seu e-mail."
            ),
            again,
        )?,
        Ok(Finished::NoEmail) => message(
            StatusCode::UNPROCESSABLE_ENTITY,
            "Conta sem e-mail",
            &format!(
                "Sua conta {name} não tem um e-mail cadastrado, e os serviços avisam cada passo \
                 por e-mail. Cadastre um e-mail na conta {name} e entre de novo."
            ),
            again,
        )?,
        Ok(Finished::EmailTaken) => message(
            StatusCode::CONFLICT,
            "E-mail já usado por outro CPF",
            &format!(
                "O e-mail da sua conta {name} já está ligado, nos serviços, a uma conta de outro \
                 CPF. Use na conta {name} o seu próprio e-mail."
            ),
            again,
        )?,
        Err(e) => oidc_failed(&state, &e)?,
    };
    res.headers_mut()
        .append(header::SET_COOKIE, oidc_cookie(&state, "", 0));
    Ok(res)
}

fn code_form(
    state: &AppState,
    status: StatusCode,
    challenge: String,
    error: Option<String>,
) -> Page {
    let csrf = secrets::random_secret().map_err(internal)?;
    let res = page(
        status,
        &CodePage {
            who: None,
            csrf: csrf.clone(),
            challenge,
            error,
        },
    );
    with_entry_cookie(state, res, &csrf)
}

async fn code_page(state: web::Data<AppState>, query: web::Query<HashMap<String, String>>) -> Page {
    let challenge = query.get("desafio").cloned().unwrap_or_default();
    if challenge.is_empty() {
        return Ok(see_other("/servicos"));
    }
    code_form(&state, StatusCode::OK, challenge, None)
}

async fn enter_code(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<HashMap<String, String>>,
) -> Page {
    if !entry_csrf_ok(&req, &form) {
        return csrf_refused();
    }
    let challenge = form.get("desafio").cloned().unwrap_or_default();
    let typed = form.get("codigo").cloned().unwrap_or_default();
    match accounts::redeem(&state, &challenge, &typed)
        .await
        .map_err(internal)?
    {
        Redemption::SignedIn { cookie, new } => {
            let mut res = see_other(if new {
                "/servicos/inicio?novo"
            } else {
                "/servicos/inicio"
            });
            res.headers_mut().append(
                header::SET_COOKIE,
                set_cookie(&state, SESSION_COOKIE, &cookie, None),
            );
            res.headers_mut().append(
                header::SET_COOKIE,
                set_cookie(&state, ENTRY_COOKIE, "", Some(0)),
            );
            Ok(res)
        }
        Redemption::Wrong { left } => code_form(
            &state,
            StatusCode::UNAUTHORIZED,
            challenge,
            Some(if left <= 0 {
                "Código incorreto. Não restam tentativas com este código: peça um novo.".to_owned()
            } else if left == 1 {
                "Código incorreto. Resta 1 tentativa.".to_owned()
            } else {
                format!("Código incorreto. Restam {left} tentativas.")
            }),
        ),
        Redemption::Gone => message(
            StatusCode::GONE,
            "Código vencido",
            "Este código expirou, já foi usado ou teve tentativas demais. Peça um novo código.",
            Some(("/servicos", "Pedir novo código")),
        ),
    }
}

async fn home(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let Some(session) = session_of(&state, &req).await? else {
        return Ok(see_other("/servicos"));
    };
    let filings = state
        .store
        .filings_of(session.applicant.id)
        .await
        .map_err(internal)?
        .into_iter()
        .map(|f| {
            let kind = FilingKind::parse(&f.kind).map_or("Pedido", FilingKind::label);
            FilingLine {
                title: match &f.number {
                    Some(n) => format!("{kind} — {n}"),
                    None => kind.to_owned(),
                },
                status: FilingStatus::parse(&f.status).map_or("", FilingStatus::label),
                id: f.id,
            }
        })
        .collect();
    let followed = crate::issuance::follows::followed(&state, &session.applicant)
        .await
        .map_err(internal)?;
    let notices = state
        .store
        .electronic_notices_of_applicant(session.applicant.id)
        .await
        .map_err(internal)?;
    page(
        StatusCode::OK,
        &HomePage {
            who: Some(Who {
                email: session.applicant.email,
                csrf: session.csrf_token,
            }),
            new: query.contains_key("novo"),
            following_added: query.contains_key("acompanhando"),
            followed,
            notices_unread: notices.iter().filter(|n| n.read_at.is_none()).count(),
            has_notices: !notices.is_empty(),
            filings,
        },
    )
}

fn local_instant(at: chrono::DateTime<chrono::Utc>) -> String {
    crate::documents::format::datetime_local(at)
}

async fn notices(state: web::Data<AppState>, req: HttpRequest) -> Page {
    let Some(session) = session_of(&state, &req).await? else {
        return Ok(see_other("/servicos"));
    };
    let lines =
        crate::issuance::ride_hailing::electronic_notice::of_applicant(&state, &session.applicant)
            .await
            .map_err(internal)?;
    page(
        StatusCode::OK,
        &NoticesPage {
            who: Some(Who {
                email: session.applicant.email,
                csrf: session.csrf_token,
            }),
            notices: lines
                .into_iter()
                .map(|l| NoticeItem {
                    id: l.row.id,
                    auto_number: l.auto_number,
                    sent: local_instant(l.row.sent_at),
                    read: l.row.read_at.map(local_instant),
                })
                .collect(),
        },
    )
}

fn notice_missing() -> Page {
    message(
        StatusCode::NOT_FOUND,
        "Notificação não encontrada",
        "Esta notificação não existe ou não foi enviada a você.",
        Some(("/servicos/notificacoes", "Notificações")),
    )
}

/// The notice `raw` opened for the signed-in applicant, or the page to answer instead.
async fn opened_notice(
    state: &AppState,
    req: &HttpRequest,
    raw: &str,
) -> Result<Result<(ApplicantSession, OpenedNotice), HttpResponse>, actix_web::Error> {
    let Some(session) = session_of(state, req).await? else {
        return Ok(Err(see_other("/servicos")));
    };
    let Ok(id) = uuid::Uuid::parse_str(raw.trim()) else {
        return Ok(Err(notice_missing()?));
    };
    let opened =
        crate::issuance::ride_hailing::electronic_notice::open(state, &session.applicant, id)
            .await
            .map_err(internal)?;
    Ok(match opened {
        Some(o) => Ok((session, o)),
        None => Err(notice_missing()?),
    })
}

async fn open_notice(state: web::Data<AppState>, req: HttpRequest, id: web::Path<String>) -> Page {
    use crate::documents::format;
    let (session, o) = match opened_notice(&state, &req, &id).await? {
        Ok(found) => found,
        Err(res) => return Ok(res),
    };
    let a = &o.auto;
    let fine = match a.fine_centavos {
        Some(c) => format!("{} UPFG ({})", a.fine_upf, format::money(c)),
        None => format!(
            "{} UPFG (o valor em reais depende da UPFG do ano)",
            a.fine_upf
        ),
    };
    page(
        StatusCode::OK,
        &NoticePage {
            who: Some(Who {
                email: session.applicant.email.clone(),
                csrf: session.csrf_token.clone(),
            }),
            id: o.row.id.clone(),
            number: a.number.clone(),
            citation: o.citation.clone(),
            sent: local_instant(o.row.sent_at),
            read: o.row.read_at.map(local_instant).unwrap_or_default(),
            infraction: o.infraction.as_ref().map_or_else(
                || a.infraction_id.clone(),
                |i| format!("{} ({}), {}", i.description, i.article, i.class.label_pt()),
            ),
            committed: local_instant(a.committed_at),
            place: a.place.clone(),
            facts: a.facts.clone(),
            inspector: a.inspector.clone(),
            drawn: local_instant(a.drawn_up_at),
            fine,
            defence_days: o.defence_days,
            documents: o
                .documents
                .iter()
                .map(|d| (d.id.to_string(), d.number.clone()))
                .collect(),
        },
    )
}

async fn notice_document(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
) -> Page {
    let (session, o) = match opened_notice(&state, &req, &path.0).await? {
        Ok(found) => found,
        Err(res) => return Ok(res),
    };
    drop(session);
    let Some(d) = o
        .documents
        .iter()
        .find(|d| d.id.to_string() == path.1.trim())
    else {
        return notice_missing();
    };
    let Some(pdf) = state.store.document_pdf(d.id).await.map_err(internal)? else {
        return notice_missing();
    };
    Ok(pdf_download(&d.number, pdf))
}

/// A signed document downloaded by its applicant, named by its number.
fn pdf_download(number: &str, pdf: Vec<u8>) -> HttpResponse {
    let mut res = HttpResponse::Ok();
    page_headers(&mut res);
    res.content_type("application/pdf")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{}.pdf\"", number.replace('/', "-")),
        ))
        .body(pdf)
}

/// "60, 30 e 7 dias antes", from the profile.
fn reminder_days(state: &AppState) -> String {
    let mut days = state.letterhead.profile.reminders.days_before.clone();
    days.sort_unstable_by(|a, b| b.cmp(a));
    let words: Vec<String> = days.iter().map(u32::to_string).collect();
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => format!("{last} dias antes"),
        Some((last, rest)) => format!("{} e {last} dias antes", rest.join(", ")),
    }
}

fn follow_page(
    state: &AppState,
    session: &ApplicantSession,
    status: StatusCode,
    form: Option<(&str, &str, &str)>,
    error: Option<String>,
) -> Page {
    let (kind, number, document) = form.unwrap_or_default();
    page(
        status,
        &FollowPage {
            who: Some(Who {
                email: session.applicant.email.clone(),
                csrf: session.csrf_token.clone(),
            }),
            csrf: session.csrf_token.clone(),
            days: reminder_days(state),
            kind: kind.to_owned(),
            number: number.to_owned(),
            document: document.to_owned(),
            error,
        },
    )
}

async fn follow_form(state: web::Data<AppState>, req: HttpRequest) -> Page {
    let Some(session) = session_of(&state, &req).await? else {
        return Ok(see_other("/servicos"));
    };
    follow_page(&state, &session, StatusCode::OK, None, None)
}

async fn follow(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<HashMap<String, String>>,
) -> Page {
    use crate::issuance::UseCaseError;
    let Some(session) = session_of(&state, &req).await? else {
        return Ok(see_other("/servicos"));
    };
    if !filings::csrf_ok(&session, form.get(CSRF_FIELD).map_or("", String::as_str)) {
        return csrf_refused();
    }
    let field = |k: &str| form.get(k).map_or("", String::as_str);
    let (kind, number, document) = (field("tipo"), field("numero"), field("documento"));
    let done = match kind {
        "empresa" => {
            crate::issuance::follows::follow_company(&state, &session.applicant, number, document)
                .await
        }
        _ => {
            crate::issuance::follows::follow_driver(&state, &session.applicant, number, document)
                .await
        }
    };
    match done {
        Ok(()) => Ok(see_other("/servicos/inicio?acompanhando")),
        Err(UseCaseError::Inconsistent { message, .. }) => follow_page(
            &state,
            &session,
            StatusCode::UNPROCESSABLE_ENTITY,
            Some((kind, number, document)),
            Some(message.to_owned()),
        ),
        Err(e) => Err(internal(e)),
    }
}

async fn sign_out(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<HashMap<String, String>>,
) -> Page {
    let Some(session) = session_of(&state, &req).await? else {
        return Ok(see_other("/servicos"));
    };
    if !filings::csrf_ok(&session, form.get(CSRF_FIELD).map_or("", String::as_str)) {
        return csrf_refused();
    }
    if let Some(c) = cookie(&req, SESSION_COOKIE) {
        accounts::sign_out(&state, &c).await.map_err(internal)?;
    }
    let mut res = see_other("/servicos?saiu");
    res.headers_mut().append(
        header::SET_COOKIE,
        set_cookie(&state, SESSION_COOKIE, "", Some(0)),
    );
    Ok(res)
}
