//! The officials' back office at `/painel`: sign-in with a session cookie, CSRF
//! tokens on every form, a search box across both laws, the registers listed, every record
//! with the acts that apply to it, and every act of the JSON API as a form. Pages are
//! server-rendered in pt-BR and work without JavaScript. Every act goes through
//! [`gateway`]: the API's own route, guard and use case, as the signed-in official.

pub mod forms;
pub mod gateway;
pub mod labels;
mod pages;
mod photo;

use std::collections::HashMap;
use std::fmt::Write as _;

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::{HttpRequest, HttpResponse, ResponseError, web};
use subtle::ConstantTimeEq;

use super::auth::Official;
use crate::domain::officials::{Competence, Role};
use crate::issuance::officials as accounts;
use crate::state::AppState;
use crate::storage::officials::Session;

/// Registers the back office's routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    pages::configure(cfg);
    photo::configure(cfg);
}

/// The session cookie.
pub const SESSION_COOKIE: &str = "selo_sessao";
/// The sign-in form's CSRF cookie (double submit: no session exists yet).
const LOGIN_CSRF_COOKIE: &str = "selo_entrada";
/// The CSRF field of every form.
pub const CSRF_FIELD: &str = "_csrf";

/// Why a page is not shown; each answer is a page in pt-BR.
#[derive(Debug)]
pub enum PanelError {
    /// No live session: go sign in (and come back to `back`).
    SignIn {
        expired: bool,
        back: String,
    },
    /// Signed in, outside the official's roles: why, and the official's menu to go on from.
    Forbidden {
        detail: String,
        chrome: Box<pages::Chrome>,
    },
    /// A form posted without its CSRF token, or with another session's.
    Csrf,
    NotFound,
    /// Too many failed sign-ins: wait this many seconds.
    Throttled(u64),
    /// The API refused the request: its status, title and what it said.
    Refused {
        status: StatusCode,
        title: String,
        detail: String,
    },
    Internal,
}

impl std::fmt::Display for PanelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl ResponseError for PanelError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::SignIn { .. } => StatusCode::SEE_OTHER,
            Self::Forbidden { .. } | Self::Csrf => StatusCode::FORBIDDEN,
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::Throttled(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::Refused { status, .. } => *status,
            Self::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let (title, text) = match self {
            Self::SignIn { expired, back } => {
                let mut to = format!("/painel/entrar?volta={}", urlencode(back));
                if *expired {
                    to.push_str("&expirou=1");
                }
                return HttpResponse::SeeOther()
                    .insert_header((header::LOCATION, to))
                    .finish();
            }
            Self::Forbidden { detail, chrome } => {
                let mut res = HttpResponse::build(self.status_code());
                page_headers(&mut res);
                return res
                    .content_type("text/html; charset=utf-8")
                    .body(pages::message_with(
                        Some((**chrome).clone()),
                        "Fora da sua competência",
                        detail,
                    ));
            }
            Self::Csrf => (
                "Formulário recusado",
                "O formulário não trouxe o código de segurança desta sessão (proteção contra \
                 falsificação de requisição). Nada foi gravado. Volte, recarregue a página e \
                 envie de novo."
                    .to_owned(),
            ),
            Self::NotFound => (
                "Não encontrado",
                "Esta página ou registro não existe.".to_owned(),
            ),
            Self::Throttled(secs) => (
                "Muitas tentativas",
                format!(
                    "Muitas tentativas de entrada sem sucesso. Aguarde {secs} s e tente de novo."
                ),
            ),
            Self::Refused { title, detail, .. } => (title.as_str(), detail.clone()),
            Self::Internal => (
                "Erro interno",
                "Ocorreu um erro interno. Nada foi gravado pela metade; tente novamente."
                    .to_owned(),
            ),
        };
        let mut res = HttpResponse::build(self.status_code());
        if let Self::Throttled(secs) = self {
            res.insert_header((header::RETRY_AFTER, secs.to_string()));
        }
        page_headers(&mut res);
        res.content_type("text/html; charset=utf-8")
            .body(pages::message(title, &text))
    }
}

impl From<crate::storage::StorageError> for PanelError {
    fn from(e: crate::storage::StorageError) -> Self {
        tracing::error!(error = %e, "back office: storage");
        Self::Internal
    }
}

impl From<actix_web::Error> for PanelError {
    fn from(e: actix_web::Error) -> Self {
        tracing::error!(error = %e, "back office: in-process call");
        Self::Internal
    }
}

/// Headers of every back-office page: never cached, never framed, no referrer outside.
pub fn page_headers(res: &mut actix_web::HttpResponseBuilder) {
    res.insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header(("X-Frame-Options", "DENY"))
        .insert_header((
            "Content-Security-Policy",
            "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; form-action 'self'",
        ))
        .insert_header(("Referrer-Policy", "same-origin"))
        .insert_header(("X-Content-Type-Options", "nosniff"));
}

pub use super::urls::urlencode;

/// The value of cookie `name` of the request.
pub fn cookie(req: &HttpRequest, name: &str) -> Option<String> {
    req.headers()
        .get_all(header::COOKIE)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_owned())
}

/// A `Set-Cookie` value: `HttpOnly`, `SameSite=Strict`, path `/`, `Secure` over https;
/// `max_age` 0 deletes it.
pub fn set_cookie(state: &AppState, name: &str, value: &str, max_age: Option<i64>) -> HeaderValue {
    // Path `/`: the verification pages (`/v`) show a signed-in official the inspector tier.
    let mut c = format!("{name}={value}; Path=/; HttpOnly; SameSite=Strict");
    if state.settings.public_url.starts_with("https://") {
        c.push_str("; Secure");
    }
    if let Some(age) = max_age {
        let _ = write!(c, "; Max-Age={age}");
    }
    HeaderValue::from_str(&c).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The signed-in official of a page, and their session; else a redirect to sign in.
pub struct Signed {
    pub official: Official,
    pub session: Session,
    /// The application the back office's acts are sent to, in process.
    pub app: crate::http::Assembly,
}

impl Signed {
    pub async fn of(req: &HttpRequest, state: &AppState) -> Result<Self, PanelError> {
        let back = req
            .uri()
            .path_and_query()
            .map_or("/painel", |p| p.as_str())
            .to_owned();
        let Some(cookie) = cookie(req, SESSION_COOKIE) else {
            return Err(PanelError::SignIn {
                expired: false,
                back,
            });
        };
        let app = req
            .app_data::<crate::http::Assembly>()
            .cloned()
            .ok_or(PanelError::Internal)?;
        match accounts::session(state, &cookie).await? {
            Some(session) => Ok(Self {
                official: Official::from_account(session.official.clone()),
                session,
                app,
            }),
            None => Err(PanelError::SignIn {
                expired: true,
                back,
            }),
        }
    }

    /// Refuses a form whose CSRF field is not this session's token.
    pub fn check_csrf(&self, form: &HashMap<String, String>) -> Result<(), PanelError> {
        let sent = form.get(CSRF_FIELD).map_or("", String::as_str);
        if bool::from(sent.as_bytes().ct_eq(self.session.csrf_token.as_bytes())) && !sent.is_empty()
        {
            Ok(())
        } else {
            Err(PanelError::Csrf)
        }
    }

    pub fn require(&self, competence: Competence) -> Result<(), PanelError> {
        if competence.allows(Some(&self.official.roles)) {
            Ok(())
        } else {
            Err(self.forbidden(competence.refusal_page_pt()))
        }
    }

    /// The refusal the API answered (403 problem+json), its roles named in Portuguese.
    pub fn forbidden_by(&self, problem: &serde_json::Value) -> PanelError {
        let roles: Vec<Role> = problem
            .get("required_roles")
            .and_then(serde_json::Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|r| r.as_str().and_then(|r| Role::parse(r).ok()))
                    .collect()
            })
            .unwrap_or_default();
        self.forbidden(if roles.is_empty() {
            "Esta operação não cabe aos seus papéis.".to_owned()
        } else {
            crate::domain::officials::refusal_of_roles_pt(&roles)
        })
    }

    /// The refusal of an act outside this official's roles, with their menu.
    pub fn forbidden(&self, detail: String) -> PanelError {
        PanelError::Forbidden {
            detail,
            chrome: Box::new(pages::chrome_of(self)),
        }
    }

    pub fn is(&self, role: Role) -> bool {
        self.official.roles.contains(role)
    }
}

/// The route (method, pattern) of an operation id of the JSON API.
pub fn operation(op: &str) -> Option<(&'static str, &'static str)> {
    crate::http::OPERATION_IDS
        .iter()
        .find(|(.., id)| *id == op)
        .map(|(m, p, _)| (*m, *p))
}

/// The competence an operation needs.
pub fn competence(method: &str, pattern: &str) -> Competence {
    crate::http::ACCESS
        .iter()
        .find(|(m, p, _)| *m == method && *p == pattern)
        .map_or(Competence::ManageOfficials, |(.., c)| *c)
}

/// The parameter names of a route pattern, in order.
pub fn params_of(pattern: &str) -> Vec<&str> {
    pattern
        .split('/')
        .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
        .collect()
}

/// The pattern with its parameters filled; `None` when one is missing or holds a `/`.
pub fn fill_pattern<S: std::hash::BuildHasher>(
    pattern: &str,
    values: &HashMap<String, String, S>,
) -> Option<String> {
    let mut out = Vec::new();
    for seg in pattern.split('/') {
        if let Some(name) = seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            let v = values
                .get(name)
                .map(|v| v.trim())
                .filter(|v| !v.is_empty())?;
            if v.contains('/') || v.contains('?') || v.contains('#') {
                return None;
            }
            out.push(urlencode(v));
        } else {
            out.push(seg.to_owned());
        }
    }
    Some(out.join("/"))
}

/// Matches a concrete API path to a GET route pattern: the pattern and its parameters.
pub fn match_get(path: &str) -> Option<(&'static str, HashMap<String, String>)> {
    let segs: Vec<&str> = path.split('/').collect();
    let mut best: Option<(&'static str, HashMap<String, String>, usize)> = None;
    for (m, p) in crate::http::ROUTES {
        if *m != "get" {
            continue;
        }
        let ps: Vec<&str> = p.split('/').collect();
        if ps.len() != segs.len() {
            continue;
        }
        let mut params = HashMap::new();
        let mut literal = 0;
        let ok = ps.iter().zip(&segs).all(|(a, b)| {
            if let Some(n) = a.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                params.insert(n.to_owned(), (*b).to_owned());
                true
            } else {
                literal += 1;
                a == b
            }
        });
        // The most literal pattern wins (`by-plate/{plate}` over `{id}`).
        if ok && best.as_ref().is_none_or(|(.., l)| literal > *l) {
            best = Some((p, params, literal));
        }
    }
    best.map(|(p, params, _)| (p, params))
}

/// Calls the API as the signed-in official.
pub async fn call(
    signed: &Signed,
    method: Method,
    path: &str,
    body: Option<&serde_json::Value>,
) -> Result<gateway::Answer, PanelError> {
    Ok(gateway::call(&signed.app, &signed.official, method, path, body).await?)
}

/// The problem items of an API answer: (field, message with rule and article).
pub fn problems(answer: &serde_json::Value) -> Vec<(String, String)> {
    answer
        .get("errors")
        .and_then(serde_json::Value::as_array)
        .map(|items| {
            items
                .iter()
                .map(|i| {
                    let s = |k: &str| i.get(k).and_then(serde_json::Value::as_str).unwrap_or("");
                    let mut message = s("message").to_owned();
                    match (s("article"), s("rule")) {
                        ("", "") => {}
                        (article, rule) => {
                            let _ = write!(message, " ({article} — {rule})");
                        }
                    }
                    (s("field").to_owned(), message)
                })
                .collect()
        })
        .unwrap_or_default()
}
