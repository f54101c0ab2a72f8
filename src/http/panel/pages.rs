//! The back office's pages: handlers and the views they render (`templates/pages/panel/`).

use std::collections::HashMap;

use actix_web::http::header;
use actix_web::http::{Method, StatusCode};
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde_json::Value;

use super::forms::{self, Item, Variants};
use super::labels::{enum_label, label};
use super::{
    CSRF_FIELD, LOGIN_CSRF_COOKIE, PanelError, SESSION_COOKIE, Signed, call, competence, cookie,
    fill_pattern, match_get, operation, page_headers, params_of, problems, set_cookie, urlencode,
};
use crate::documents::format;
use crate::domain::officials::{Competence, Role};
use crate::issuance::officials as accounts;
use crate::signing::secrets;
use crate::state::AppState;
use crate::storage::search::HitKind;

type Page = Result<HttpResponse, PanelError>;

/// Registers the back office's routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/painel")
            .route(web::get().to(home))
            .route(web::post().to(search)),
    )
    .service(
        web::resource("/painel/entrar")
            .route(web::get().to(login_page))
            .route(web::post().to(login)),
    )
    .service(web::resource("/painel/sair").route(web::post().to(logout)))
    .service(
        web::resource("/painel/acao/{op}")
            .route(web::get().to(op_form))
            .route(web::post().to(op_submit)),
    )
    .service(web::resource("/painel/ver/{tail:.*}").route(web::get().to(view)))
    .service(web::resource("/painel/lista/{kind}").route(web::get().to(list)))
    .service(
        web::resource("/painel/servidores")
            .route(web::get().to(officials_page))
            .route(web::post().to(officials_add)),
    )
    .service(web::resource("/painel/servidores/{login}").route(web::post().to(official_change)))
    .service(
        web::resource("/painel/senha")
            .route(web::get().to(password_page))
            .route(web::post().to(password_change)),
    );
    super::photo::configure(cfg);
}

/// What every signed-in page shows around its content.
pub(super) struct Chrome {
    pub(super) name: String,
    pub(super) roles: String,
    pub(super) csrf: String,
    pub(super) nav: Vec<(String, String)>,
}

pub(super) fn chrome_of(s: &Signed) -> Chrome {
    let mut nav = Vec::new();
    for (kind, text, c) in LISTS {
        if s.official.roles.allow(*c)
            && ["authorization", "company", "app_auto", "charter_auto"].contains(kind)
        {
            nav.push((format!("/painel/lista/{kind}"), (*text).to_owned()));
        }
    }
    if s.official.roles.allow(Competence::Calendar) {
        nav.push((
            "/painel/acao/calendar.add_closed_days".to_owned(),
            "Calendário".to_owned(),
        ));
    }
    if s.is(Role::Admin) {
        nav.push(("/painel/servidores".to_owned(), "Servidores".to_owned()));
    }
    // Issue 11: the verifier that works with no signal, for the road.
    nav.push(("/fiscal/".to_owned(), "Verificador de campo".to_owned()));
    Chrome {
        name: s.official.name.clone(),
        roles: s
            .official
            .roles
            .iter()
            .map(short_role)
            .collect::<Vec<_>>()
            .join(", "),
        csrf: s.session.csrf_token.clone(),
        nav,
    }
}

fn short_role(r: Role) -> &'static str {
    match r {
        Role::Admin => "administração",
        Role::RideHailingIssuer => "emissão (aplicativo)",
        Role::CharterIssuer => "emissão (fretamento)",
        Role::Inspector => "fiscalização",
        Role::Auditor => "auditoria",
    }
}

fn html(status: StatusCode, body: String) -> HttpResponse {
    let mut res = HttpResponse::build(status);
    page_headers(&mut res);
    res.content_type("text/html; charset=utf-8").body(body)
}

fn render(t: &impl Template) -> Result<String, PanelError> {
    t.render().map_err(|e| {
        tracing::error!(error = %e, "back office page did not render");
        PanelError::Internal
    })
}

#[derive(Template)]
#[template(path = "pages/panel/message.html")]
struct MessagePage<'a> {
    chrome: Option<Chrome>,
    title: &'a str,
    text: &'a str,
}

/// A page that only says something (errors, refusals).
pub fn message(title: &str, text: &str) -> String {
    MessagePage {
        chrome: None,
        title,
        text,
    }
    .render()
    .unwrap_or_else(|_| "<!doctype html><title>Erro</title><p>Erro interno.</p>".to_owned())
}

// ---------------------------------------------------------------- sign-in and sign-out

#[derive(Template)]
#[template(path = "pages/panel/login.html")]
struct LoginPage {
    chrome: Option<Chrome>,
    csrf: String,
    back: String,
    login: String,
    error: Option<String>,
    expired: bool,
}

/// Only a path inside the back office is a place to come back to.
fn safe_back(back: Option<&String>) -> String {
    back.filter(|b| b.starts_with("/painel") && !b.starts_with("//") && !b.contains('\\'))
        .cloned()
        .unwrap_or_else(|| "/painel".to_owned())
}

fn login_form(
    state: &AppState,
    status: StatusCode,
    back: String,
    login: String,
    error: Option<String>,
    expired: bool,
) -> Page {
    let csrf = secrets::random_secret().map_err(|_| PanelError::Internal)?;
    let body = render(&LoginPage {
        chrome: None,
        csrf: csrf.clone(),
        back,
        login,
        error,
        expired,
    })?;
    let mut res = html(status, body);
    res.headers_mut().append(
        header::SET_COOKIE,
        set_cookie(state, LOGIN_CSRF_COOKIE, &csrf, Some(3600)),
    );
    Ok(res)
}

async fn login_page(
    state: web::Data<AppState>,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    login_form(
        &state,
        StatusCode::OK,
        safe_back(query.get("volta")),
        String::new(),
        None,
        query.contains_key("expirou"),
    )
}

async fn login(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<HashMap<String, String>>,
) -> Page {
    let sent = form.get(CSRF_FIELD).map_or("", String::as_str);
    let expected = cookie(&req, LOGIN_CSRF_COOKIE).unwrap_or_default();
    if sent.is_empty()
        || !bool::from(subtle::ConstantTimeEq::ct_eq(
            sent.as_bytes(),
            expected.as_bytes(),
        ))
    {
        return Err(PanelError::Csrf);
    }
    let login_typed = form.get("login").cloned().unwrap_or_default();
    let password = form.get("password").cloned().unwrap_or_default();
    let back = safe_back(form.get("volta"));
    let client = super::super::limits::client_of(&req)
        .map_or_else(|| "desconhecido".to_owned(), |ip| ip.to_string());
    let login_key = format!("login:{}", login_typed.trim().to_lowercase());
    let keys = [login_key.clone(), format!("addr:{client}")];
    if let Err(wait) = state.login_throttle.check(&keys) {
        return Err(PanelError::Throttled(wait.as_secs().max(1)));
    }
    match accounts::sign_in(&state, &login_typed, &password).await {
        Ok(Some(new)) => {
            state.login_throttle.succeeded(&login_key);
            tracing::info!(official = %new.session.official.id, "signed in to the back office");
            let mut res = HttpResponse::SeeOther();
            res.insert_header((header::LOCATION, back));
            page_headers(&mut res);
            let mut res = res.finish();
            res.headers_mut().append(
                header::SET_COOKIE,
                set_cookie(&state, SESSION_COOKIE, &new.cookie, None),
            );
            res.headers_mut().append(
                header::SET_COOKIE,
                set_cookie(&state, LOGIN_CSRF_COOKIE, "", Some(0)),
            );
            Ok(res)
        }
        Ok(None) => {
            state.login_throttle.failed(&keys);
            login_form(
                &state,
                StatusCode::UNAUTHORIZED,
                back,
                login_typed,
                Some("Login ou senha incorretos, ou conta desativada.".to_owned()),
                false,
            )
        }
        Err(e) => {
            tracing::error!(error = %e, "sign-in failed");
            Err(PanelError::Internal)
        }
    }
}

async fn logout(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<HashMap<String, String>>,
) -> Page {
    let signed = Signed::of(&req, &state).await?;
    signed.check_csrf(&form)?;
    if let Some(c) = cookie(&req, SESSION_COOKIE) {
        accounts::sign_out(&state, &c).await?;
    }
    let mut res = HttpResponse::SeeOther();
    res.insert_header((header::LOCATION, "/painel/entrar"));
    page_headers(&mut res);
    let mut res = res.finish();
    res.headers_mut().append(
        header::SET_COOKIE,
        set_cookie(&state, SESSION_COOKIE, "", Some(0)),
    );
    Ok(res)
}

// ---------------------------------------------------------------- start page and search

/// The registers, what each is called, and who reads it.
const LISTS: &[(&str, &str, Competence)] = &[
    (
        "authorization",
        "Autorizações (aplicativo)",
        Competence::ReadRideHailing,
    ),
    (
        "driver",
        "Condutores (aplicativo)",
        Competence::ReadRideHailing,
    ),
    (
        "vehicle",
        "Veículos (aplicativo)",
        Competence::ReadRideHailing,
    ),
    ("platform", "Plataformas", Competence::ReadRideHailing),
    (
        "app_auto",
        "Autos (aplicativo)",
        Competence::ReadRideHailing,
    ),
    ("company", "Empresas de fretamento", Competence::ReadCharter),
    (
        "charter_vehicle",
        "Ônibus e micro-ônibus",
        Competence::ReadCharter,
    ),
    (
        "charter_driver",
        "Motoristas (fretamento)",
        Competence::ReadCharter,
    ),
    ("termo", "Termos de Autorização", Competence::ReadCharter),
    (
        "charter_auto",
        "Autos (fretamento)",
        Competence::ReadCharter,
    ),
];

/// The acts that start from nothing, offered on the start page.
const NEW: &[&str] = &[
    "registry.create_driver",
    "registry.create_vehicle",
    "authorizations.grant",
    "platforms.create",
    "autos.create",
    "charter.create_company",
    "charter.issue_certidao",
    "calendar.add_closed_days",
    "autos.set_upf",
    "legal_bases.activate_ride_hailing",
    "legal_bases.activate_charter",
];

pub struct HitView {
    kind: String,
    title: String,
    detail: String,
    href: String,
}

impl HitView {
    fn of(h: crate::storage::search::Hit) -> Self {
        Self {
            kind: kind_label(&h.kind, &h.sub),
            href: href_of(&h.kind, &h.id, &h.sub),
            title: h.title,
            detail: detail_of(&h.detail),
        }
    }
}

fn kind_label(kind: &str, sub: &str) -> String {
    match kind {
        "driver" => "Condutor (aplicativo)".into(),
        "vehicle" => "Veículo (aplicativo)".into(),
        "authorization" => "Autorização (aplicativo)".into(),
        "platform" => "Plataforma".into(),
        "app_auto" => "Auto de infração (aplicativo)".into(),
        "company" => "Empresa de fretamento".into(),
        "charter_vehicle" => "Veículo de fretamento".into(),
        "charter_driver" => "Motorista de fretamento".into(),
        "termo" => "Termo de Autorização".into(),
        "charter_auto" => "Auto de infração (fretamento)".into(),
        "document" => crate::storage::DocumentKind::parse(sub)
            .map_or_else(|| "Documento".to_owned(), |k| k.label_pt().to_owned()),
        _ => kind.to_owned(),
    }
}

/// Where a record of the register opens in the back office.
fn href_of(kind: &str, id: &str, sub: &str) -> String {
    match kind {
        "driver" => format!("/painel/ver/drivers/{id}"),
        "vehicle" => format!("/painel/ver/vehicles/{id}"),
        "authorization" => format!("/painel/ver/app-authorizations/{id}"),
        "platform" => format!("/painel/ver/platforms/{id}"),
        "app_auto" => format!("/painel/ver/app-infraction-autos/{id}"),
        "company" => format!("/painel/ver/charter/companies/{id}"),
        "charter_vehicle" => format!("/painel/ver/charter/vehicles/{id}"),
        "charter_driver" => format!("/painel/ver/charter/drivers/{id}"),
        "termo" => format!("/painel/ver/charter/termos/{id}/history"),
        "charter_auto" => format!("/painel/ver/charter/autos/{id}"),
        "document" => match crate::storage::DocumentKind::parse(sub) {
            Some(
                crate::storage::DocumentKind::RideHailingAuthorization
                | crate::storage::DocumentKind::RideHailingSticker,
            ) => format!("/painel/ver/documents/{id}"),
            _ => format!("/painel/ver/charter/documents/{id}"),
        },
        _ => "/painel".to_owned(),
    }
}

/// A charter row's JSON facts shown as its name.
fn detail_of(detail: &str) -> String {
    if detail.starts_with('{') {
        serde_json::from_str::<Value>(detail)
            .ok()
            .and_then(|v| v.get("name").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_default()
    } else {
        detail.to_owned()
    }
}

fn allowed_hit(s: &Signed, kind: &str, sub: &str) -> bool {
    let ride = match HitKind::parse(kind) {
        Some(HitKind::Document) => crate::storage::DocumentKind::parse(sub)
            .is_some_and(crate::storage::DocumentKind::is_ride_hailing),
        Some(k) => k.is_ride_hailing(),
        None => return false,
    };
    s.official.roles.allow(if ride {
        Competence::ReadRideHailing
    } else {
        Competence::ReadCharter
    })
}

#[derive(Template)]
#[template(path = "pages/panel/home.html")]
struct HomePage {
    chrome: Option<Chrome>,
    csrf: String,
    q: String,
    hits: Vec<HitView>,
    hidden: usize,
    new: Vec<(String, String)>,
    lists: Vec<(String, String)>,
}

async fn home(state: web::Data<AppState>, req: HttpRequest) -> Page {
    let s = Signed::of(&req, &state).await?;
    start_page(&state, &s, String::new()).await
}

/// The search is posted, never put in the address: a CPF typed in it stays out of URLs,
/// browser history and proxy logs.
async fn search(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.check_csrf(&form)?;
    let q = form
        .get("q")
        .map(|q| q.trim().to_owned())
        .unwrap_or_default();
    start_page(&state, &s, q).await
}

async fn start_page(state: &AppState, s: &Signed, q: String) -> Page {
    let found = if q.is_empty() {
        Vec::new()
    } else {
        state.store.search(&q).await?
    };
    let total = found.len();
    let hits: Vec<HitView> = found
        .into_iter()
        .filter(|h| allowed_hit(s, &h.kind, &h.sub))
        .map(HitView::of)
        .collect();
    let new = NEW
        .iter()
        .filter_map(|op| {
            let (m, p) = operation(op)?;
            s.official
                .roles
                .allow(competence(m, p))
                .then(|| (format!("/painel/acao/{op}"), op_label(op).to_owned()))
        })
        .collect();
    let lists = LISTS
        .iter()
        .filter(|(.., c)| s.official.roles.allow(*c))
        .map(|(k, t, _)| (format!("/painel/lista/{k}"), (*t).to_owned()))
        .collect();
    let body = render(&HomePage {
        chrome: Some(chrome_of(s)),
        csrf: s.session.csrf_token.clone(),
        q,
        hidden: total - hits.len(),
        hits,
        new,
        lists,
    })?;
    Ok(html(StatusCode::OK, body))
}

#[derive(Template)]
#[template(path = "pages/panel/list.html")]
struct ListPage {
    chrome: Option<Chrome>,
    title: String,
    hits: Vec<HitView>,
    page: i64,
    more: bool,
}

/// Rows per page of a list.
const PAGE_SIZE: i64 = 25;

async fn list(
    state: web::Data<AppState>,
    req: HttpRequest,
    kind: web::Path<String>,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    let Some((kind, title, c)) = LISTS.iter().find(|(k, ..)| *k == kind.as_str()) else {
        return Err(PanelError::NotFound);
    };
    s.require(*c)?;
    let page = query
        .get("pagina")
        .and_then(|p| p.parse::<i64>().ok())
        .filter(|p| (1..=100_000).contains(p))
        .unwrap_or(1);
    let (rows, more) = state
        .store
        .list(kind, PAGE_SIZE, (page - 1) * PAGE_SIZE)
        .await?;
    let hits = rows.into_iter().map(HitView::of).collect();
    let body = render(&ListPage {
        chrome: Some(chrome_of(&s)),
        title: (*title).to_owned(),
        hits,
        page,
        more,
    })?;
    Ok(html(StatusCode::OK, body))
}

// ---------------------------------------------------------------- every act as a form

/// Rows each list of a form shows at first (the four criminal certificates of art. 12, III
/// fit); "Mais linhas" adds more.
const DEFAULT_ROWS: usize = 4;

/// How many rows each list of a form shows: the form's own field, else the link's query.
fn rows_of(values: &HashMap<String, String>) -> usize {
    values
        .get("_linhas")
        .or_else(|| values.get("linhas"))
        .and_then(|r| r.parse::<usize>().ok())
        .filter(|r| (1..=50).contains(r))
        .unwrap_or(DEFAULT_ROWS)
}

/// Operations of the JSON API and their pt-BR names.
const OPERATIONS: &[(&str, &str)] = &[
    ("registry.create_driver", "Cadastrar condutor (aplicativo)"),
    ("registry.create_vehicle", "Cadastrar veículo (aplicativo)"),
    (
        "registry.put_driver_photo",
        "Enviar a foto do(a) motorista (para passageiros)",
    ),
    (
        "authorizations.document_print",
        "Arquivo do adesivo para a gráfica",
    ),
    ("authorizations.grant", "Conceder autorização (aplicativo)"),
    ("authorizations.revoke", "Revogar a autorização"),
    ("authorizations.certidao", "Emitir certidão"),
    (
        "authorizations.substitute_vehicle",
        "Substituir o veículo (art. 8º §2º)",
    ),
    ("authorizations.vistoria_summons", "Convocar para vistoria"),
    ("authorizations.vistoria", "Registrar vistoria"),
    ("authorizations.sanction", "Aplicar sanção"),
    ("autos.set_upf", "Valor da UPF do ano"),
    ("autos.create", "Lavrar auto de infração (aplicativo)"),
    ("autos.act", "Registrar ato do procedimento"),
    ("autos.notice", "Emitir o auto (PDF)"),
    ("autos.notify", "Registrar a notificação"),
    ("autos.rectify_notification", "Retificar a notificação"),
    ("registry.data_change", "Registrar alteração de dados"),
    (
        "registry.driver_register_act",
        "Descadastrar ou recadastrar o condutor",
    ),
    (
        "registry.declare_owner",
        "Declarar a situação do veículo (art. 15)",
    ),
    (
        "registry.vehicle_register_act",
        "Descadastrar ou recadastrar o veículo",
    ),
    (
        "registry.file_record",
        "Juntar certidões e registros do condutor",
    ),
    ("platforms.create", "Cadastrar plataforma"),
    ("platforms.create_notice", "Notificar para regularizar"),
    ("platforms.cure_notice", "Registrar regularização"),
    (
        "platforms.create_data_request",
        "Requisitar dados à plataforma",
    ),
    ("platforms.record_delivery", "Registrar entrega dos dados"),
    (
        "calendar.add_closed_days",
        "Registrar dias sem expediente (decreto)",
    ),
    (
        "legal_bases.activate_ride_hailing",
        "Ativar nova versão da base legal do transporte por aplicativo",
    ),
    (
        "legal_bases.activate_charter",
        "Ativar nova versão da base legal do fretamento",
    ),
    ("charter.create_company", "Cadastrar empresa de fretamento"),
    ("charter.file_checklist", "Juntar documentos do art. 7º"),
    ("charter.grant_termo", "Emitir o Termo de Autorização"),
    ("charter.apply_sanction", "Aplicar sanção à empresa"),
    ("charter.create_vehicle", "Cadastrar ônibus ou micro-ônibus"),
    ("charter.create_driver", "Cadastrar motorista"),
    ("charter.create_contract", "Registrar contrato"),
    (
        "charter.authorize_substitution",
        "Autorizar substituição de veículo",
    ),
    (
        "charter.create_auto",
        "Lavrar auto de infração (fretamento)",
    ),
    ("charter.file_itv", "Juntar laudo de ITV"),
    (
        "charter.file_vehicle_documents",
        "Juntar documentos do veículo",
    ),
    ("charter.record_vistoria", "Registrar vistoria (selo)"),
    ("charter.baixa_vehicle", "Dar baixa no veículo"),
    (
        "charter.file_driver_documents",
        "Juntar documentos do motorista",
    ),
    ("charter.baixa_driver", "Dar baixa no motorista"),
    ("charter.end_contract", "Encerrar contrato"),
    ("charter.file_trip", "Registrar viagem"),
    ("charter.procedure_act", "Registrar ato do procedimento"),
    ("charter.issue_notice", "Emitir o auto (PDF)"),
    ("charter.issue_certidao", "Emitir certidão (fretamento)"),
    ("history.driver", "Histórico"),
    ("history.vehicle", "Histórico"),
    ("history.authorization", "Histórico"),
    ("history.auto", "Histórico"),
    ("charter.history", "Histórico"),
];

/// The pt-BR name of an operation of the JSON API.
pub fn op_label(op: &str) -> &'static str {
    OPERATIONS
        .iter()
        .find(|(k, _)| *k == op)
        .map_or("Ato", |(_, v)| *v)
}

pub struct PathInput {
    name: String,
    label: String,
    value: String,
    error: Option<String>,
}

#[derive(Template)]
#[template(path = "pages/panel/form.html")]
struct FormPage {
    chrome: Option<Chrome>,
    title: String,
    headline: String,
    back: Option<String>,
    general: Vec<String>,
    failed: bool,
    variants: Option<Variants>,
    variant_href: String,
    action: String,
    csrf: String,
    rows: usize,
    path_inputs: Vec<PathInput>,
    items: Vec<Item>,
    has_rows: bool,
    more_rows_href: String,
    submit: String,
}

fn path_label(name: &str) -> String {
    match name {
        "id" => "Identificador do registro".into(),
        "notice" => "Identificador do aviso".into(),
        "year" => "Ano".into(),
        other => label(other),
    }
}

/// Where a record of the API (a GET pattern with its parameters) opens in the back office.
fn record_href(get_pattern: &str, values: &HashMap<String, String>) -> Option<String> {
    fill_pattern(get_pattern, values)
        .map(|p| format!("/painel/ver/{}", p.trim_start_matches("/api/v1/")))
}

/// The record an operation acts on (`/api/v1/x/{id}/act` → the GET of `/api/v1/x/{id}`).
fn parent_record(pattern: &str, values: &HashMap<String, String>) -> Option<String> {
    let mut p = pattern.to_owned();
    while let Some((head, _)) = p.rsplit_once('/') {
        p = head.to_owned();
        if crate::http::ROUTES
            .iter()
            .any(|(m, r)| *m == "get" && *r == p)
            && p.contains('{')
        {
            return record_href(&p, values);
        }
    }
    None
}

struct FormState {
    values: HashMap<String, String>,
    errors: Vec<(String, String)>,
    general: Vec<String>,
    headline: String,
}

#[allow(clippy::too_many_lines)]
fn form_page(s: &Signed, op: &str, state_: FormState, status: StatusCode) -> Page {
    let (method, pattern) = operation(op).ok_or(PanelError::NotFound)?;
    if method == "get" {
        return Err(PanelError::NotFound);
    }
    s.require(competence(method, pattern))?;
    let values = &state_.values;
    let rows = rows_of(values);
    let chosen = values
        .get("_variante")
        .or_else(|| values.get("variante"))
        .map(String::as_str);
    let (variants, mut items) = forms::body_schema(method, pattern)
        .map_or((None, Vec::new()), |schema| {
            forms::build(schema, chosen, rows)
        });
    forms::fill(&mut items, values);
    let mut general = state_.general;
    general.extend(forms::mark_errors(&mut items, &state_.errors));
    let path_inputs: Vec<PathInput> = params_of(pattern)
        .into_iter()
        .map(|n| PathInput {
            name: n.to_owned(),
            label: path_label(n),
            value: values.get(n).cloned().unwrap_or_default(),
            error: state_
                .errors
                .iter()
                .find(|(f, _)| f == n)
                .map(|(_, m)| m.clone()),
        })
        .collect();
    let keep: String = params_of(pattern)
        .iter()
        .filter_map(|n| values.get(*n).map(|v| format!("&{n}={}", urlencode(v))))
        .collect();
    let base = format!("/painel/acao/{op}?linhas={rows}{keep}");
    let has_rows = items
        .iter()
        .any(|i| matches!(i, Item::Open { legend } if legend.contains("— linha")));
    let failed = !state_.errors.is_empty() || !general.is_empty();
    let body = render(&FormPage {
        chrome: Some(chrome_of(s)),
        title: op_label(op).to_owned(),
        headline: state_.headline,
        back: parent_record(pattern, values),
        failed,
        general,
        variant_href: base.clone(),
        more_rows_href: format!(
            "/painel/acao/{op}?linhas={}{keep}{}",
            rows + 2,
            chosen.map(|c| format!("&variante={c}")).unwrap_or_default()
        ),
        variants,
        action: format!(
            "/painel/acao/{op}?linhas={rows}{keep}{}",
            chosen.map(|c| format!("&variante={c}")).unwrap_or_default()
        ),
        csrf: s.session.csrf_token.clone(),
        rows,
        path_inputs,
        items,
        has_rows,
        submit: "Registrar".to_owned(),
    })?;
    Ok(html(status, body))
}

async fn op_form(
    state: web::Data<AppState>,
    req: HttpRequest,
    op: web::Path<String>,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    form_page(
        &s,
        &op,
        FormState {
            values: query.into_inner(),
            errors: Vec::new(),
            general: Vec::new(),
            headline: String::new(),
        },
        StatusCode::OK,
    )
}

/// `driver_id` typed as a CPF, `vehicle_id` as a plate: the ids the API expects.
async fn resolve_references(
    state: &AppState,
    values: &mut HashMap<String, String>,
    errors: &mut Vec<(String, String)>,
) -> Result<(), PanelError> {
    for (field, kinds) in [
        ("driver_id", &["driver"][..]),
        ("vehicle_id", &["vehicle"][..]),
        ("new_vehicle_id", &["vehicle"][..]),
        ("replaced_vehicle_id", &["charter_vehicle"][..]),
        ("substitute_vehicle_id", &["charter_vehicle"][..]),
        ("authorization_id", &["authorization"][..]),
    ] {
        let Some(v) = values.get(field).map(|v| v.trim().to_owned()) else {
            continue;
        };
        if v.is_empty() || uuid::Uuid::parse_str(&v).is_ok() {
            continue;
        }
        let hits = state.store.search(&v).await?;
        let found: Vec<_> = hits
            .iter()
            .filter(|h| kinds.contains(&h.kind.as_str()))
            .collect();
        match found.as_slice() {
            [one] => {
                values.insert(field.to_owned(), one.id.clone());
            }
            [] => errors.push((field.to_owned(), format!("Nada encontrado para “{v}”."))),
            _ => errors.push((
                field.to_owned(),
                format!("“{v}” corresponde a mais de um registro; informe o identificador."),
            )),
        }
    }
    Ok(())
}

#[allow(clippy::too_many_lines)] // one form's whole round trip, read top to bottom
async fn op_submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    op: web::Path<String>,
    query: web::Query<HashMap<String, String>>,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    // What the form sent wins over the query of its action (the path parameters are both).
    let mut sent: HashMap<String, String> = HashMap::new();
    for (k, v) in form.into_inner() {
        sent.entry(k)
            .and_modify(|old| {
                old.push('\n');
                old.push_str(&v);
            })
            .or_insert(v);
    }
    let mut values: HashMap<String, String> = query.into_inner();
    values.extend(sent);
    s.check_csrf(&values)?;
    let (method, pattern) = operation(&op).ok_or(PanelError::NotFound)?;
    if method == "get" {
        return Err(PanelError::NotFound);
    }
    s.require(competence(method, pattern))?;
    let shown = values.clone();
    let mut errors = Vec::new();
    resolve_references(&state, &mut values, &mut errors).await?;
    let rows = rows_of(&values);
    let body = match forms::body_schema(method, pattern) {
        Some(schema) => match forms::to_json(
            schema,
            &values,
            values.get("_variante").map(String::as_str),
            rows,
        ) {
            Ok(b) => Some(b),
            Err(e) => {
                errors.extend(e);
                None
            }
        },
        None => None,
    };
    let path = fill_pattern(pattern, &values);
    if path.is_none() {
        for n in params_of(pattern) {
            if values.get(n).is_none_or(|v| v.trim().is_empty()) {
                errors.push((n.to_owned(), "Campo obrigatório.".into()));
            }
        }
    }
    let refuse = |errors: Vec<(String, String)>, general: Vec<String>, headline: &str, status| {
        form_page(
            &s,
            &op,
            FormState {
                values: shown.clone(),
                errors,
                general,
                headline: headline.to_owned(),
            },
            status,
        )
    };
    let Some(path) = path.filter(|_| errors.is_empty()) else {
        return refuse(
            errors,
            Vec::new(),
            "Confira os campos.",
            StatusCode::UNPROCESSABLE_ENTITY,
        );
    };
    let method = if method == "put" {
        Method::PUT
    } else {
        Method::POST
    };
    let answer = call(&state, &s, method, &path, body.as_ref()).await?;
    if answer.status.is_success() {
        return done(&s, &op, pattern, &values, &answer);
    }
    let problem = answer.json().unwrap_or_default();
    let detail = problem
        .get("detail")
        .and_then(Value::as_str)
        .unwrap_or("O pedido foi recusado.")
        .to_owned();
    match answer.status {
        StatusCode::FORBIDDEN => Err(PanelError::Forbidden(detail)),
        StatusCode::NOT_FOUND => refuse(
            vec![("id".to_owned(), detail.clone())],
            vec![detail],
            "Registro não encontrado.",
            StatusCode::NOT_FOUND,
        ),
        status => {
            let items = problems(&problem);
            let general = if items.is_empty() {
                vec![detail.clone()]
            } else {
                Vec::new()
            };
            let headline = if problem.get("type").and_then(Value::as_str)
                == Some("/problems/legal-requirements")
            {
                "Requisitos legais não atendidos; nada foi gravado."
            } else {
                "O pedido foi recusado; nada foi gravado."
            };
            let status = if status.is_client_error() {
                status
            } else {
                StatusCode::BAD_GATEWAY
            };
            refuse(items, general, headline, status)
        }
    }
}

/// After an act: the record it created or acted on, with the answer shown.
fn done(
    s: &Signed,
    op: &str,
    pattern: &str,
    values: &HashMap<String, String>,
    answer: &super::gateway::Answer,
) -> Page {
    let json = answer.json().unwrap_or(Value::Null);
    // A new record with its own page: open it.
    if let Some(id) = json.get("id").and_then(Value::as_str) {
        // The record's own page: under the collection, its history, or the same kind of
        // record at the top of its law's paths (`companies/{id}/vehicles` → `vehicles/{id}`).
        let own = format!("{pattern}/{{id}}");
        let history = format!("{pattern}/{{id}}/history");
        let base = if pattern.starts_with("/api/v1/charter/") {
            "/api/v1/charter"
        } else {
            "/api/v1"
        };
        let top = format!(
            "{base}/{}/{{id}}",
            pattern.rsplit('/').next().unwrap_or_default()
        );
        let get = [own, history, top].into_iter().find(|g| {
            crate::http::ROUTES
                .iter()
                .any(|(m, p)| *m == "get" && p == g)
        });
        if let Some(get) = get {
            let mut v = values.clone();
            v.insert("id".into(), id.to_owned());
            if let Some(href) = record_href(&get, &v) {
                return Ok(redirect(&format!("{href}?feito={}", urlencode(op))));
            }
        }
    }
    let mut sections = Vec::new();
    if json.is_object() {
        sections = record_sections(&json, "Resultado");
    }
    let body = render(&RecordPage {
        chrome: Some(chrome_of(s)),
        title: op_label(op).to_owned(),
        notice: Some("Registrado.".to_owned()),
        actions: parent_record(pattern, values)
            .map(|h| vec![(h, "Voltar ao registro".to_owned())])
            .unwrap_or_default(),
        sections,
    })?;
    Ok(html(StatusCode::OK, body))
}

fn redirect(to: &str) -> HttpResponse {
    let mut res = HttpResponse::SeeOther();
    res.insert_header((header::LOCATION, to.to_owned()));
    page_headers(&mut res);
    res.finish()
}

// ---------------------------------------------------------------- records

pub struct Row {
    label: String,
    value: String,
    link: Option<String>,
}

pub struct Cell {
    text: String,
    link: Option<String>,
}

pub struct Moment {
    when: String,
    who: String,
    what: String,
    reason: String,
    details: String,
}

pub struct Section {
    heading: String,
    rows: Vec<Row>,
    timeline: Vec<Moment>,
    headers: Vec<String>,
    table: Vec<Vec<Cell>>,
    /// For a list: its JSON key and each row's id, to offer the acts on a row.
    key: String,
    ids: Vec<Option<String>>,
}

#[derive(Template)]
#[template(path = "pages/panel/record.html")]
struct RecordPage {
    chrome: Option<Chrome>,
    title: String,
    notice: Option<String>,
    actions: Vec<(String, String)>,
    sections: Vec<Section>,
}

/// A value as a person reads it, and where it links.
fn show(key: &str, v: &Value) -> (String, Option<String>) {
    match v {
        Value::Null => ("—".into(), None),
        Value::Bool(b) => ((if *b { "Sim" } else { "Não" }).into(), None),
        Value::Number(n) => (n.to_string(), None),
        Value::String(s) => {
            if let Some(tail) = s.strip_prefix("/api/v1/") {
                let text = if tail.contains("documents/") {
                    "Baixar PDF"
                } else {
                    "Abrir"
                };
                return (text.into(), Some(format!("/painel/ver/{tail}")));
            }
            if s.starts_with("http://") || s.starts_with("https://") {
                let text = if key.contains("verification") {
                    "Abrir a página de verificação".to_owned()
                } else {
                    s.clone()
                };
                return (text, Some(s.clone()));
            }
            if let Ok(d) = chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d") {
                return (format::date(d), None);
            }
            if let Ok(t) = chrono::DateTime::parse_from_rfc3339(s) {
                return (format::datetime_local(t.to_utc()), None);
            }
            if uuid::Uuid::parse_str(s).is_ok() {
                let link = id_link(key, s);
                return (
                    if link.is_some() {
                        "Abrir".into()
                    } else {
                        s.clone()
                    },
                    link,
                );
            }
            if matches!(
                key,
                "status" | "kind" | "verdict" | "outcome" | "method" | "modality"
            ) {
                return (enum_label(s), None);
            }
            (s.clone(), None)
        }
        other => (other.to_string(), None),
    }
}

/// Where an id named by `key` opens.
fn id_link(key: &str, id: &str) -> Option<String> {
    let path = match key {
        "driver_id" => format!("drivers/{id}"),
        "vehicle_id" | "new_vehicle_id" => format!("vehicles/{id}"),
        "authorization_id" => format!("app-authorizations/{id}"),
        "platform_id" => format!("platforms/{id}"),
        "company_id" => format!("charter/companies/{id}"),
        "auto_id" => format!("app-infraction-autos/{id}"),
        _ => return None,
    };
    Some(format!("/painel/ver/{path}"))
}

fn compact(v: &Value) -> String {
    // A deadline: its day and why.
    if let (Some(due), Some(why)) = (v.get("due"), v.get("explanation").and_then(Value::as_str)) {
        return format!("{} — {why}", show("due", due).0);
    }
    match v {
        Value::Object(o) => o
            .iter()
            .map(|(k, v)| format!("{}: {}", label(k), show(k, v).0))
            .collect::<Vec<_>>()
            .join("; "),
        Value::Array(a) => a.iter().map(compact).collect::<Vec<_>>().join(", "),
        other => show("", other).0,
    }
}

/// A field's label on a record page (the forms' hints on what to type dropped).
fn record_label(key: &str) -> String {
    let l = label(key);
    match l.split_once(" (") {
        Some((head, hint)) if hint.ends_with("id)") => head.to_owned(),
        _ => l,
    }
}

/// Fields no person reads on a page.
const HIDDEN: &[&str] = &["id", "sha256", "token"];

/// A JSON record as sections: its fields, its lists as tables, its events as a timeline.
#[allow(clippy::too_many_lines)] // one walk over the record's JSON
fn record_sections(json: &Value, heading: &str) -> Vec<Section> {
    let mut main = Section {
        key: String::new(),
        ids: Vec::new(),
        heading: heading.to_owned(),
        rows: Vec::new(),
        timeline: Vec::new(),
        headers: Vec::new(),
        table: Vec::new(),
    };
    let mut more = Vec::new();
    let Some(obj) = json.as_object() else {
        return vec![main];
    };
    for (k, v) in obj {
        match v {
            Value::Object(inner) => {
                for (ik, iv) in inner {
                    let (value, link) = match iv {
                        Value::Object(_) | Value::Array(_) => (compact(iv), None),
                        _ => show(ik, iv),
                    };
                    main.rows.push(Row {
                        label: format!("{} · {}", record_label(k), record_label(ik)),
                        value,
                        link,
                    });
                }
            }
            Value::Array(items) if k == "events" => {
                more.push(Section {
                    key: String::new(),
                    ids: Vec::new(),
                    heading: "Histórico".into(),
                    rows: Vec::new(),
                    timeline: items
                        .iter()
                        .map(|e| {
                            let s =
                                |f: &str| e.get(f).and_then(Value::as_str).unwrap_or("").to_owned();
                            Moment {
                                when: show(
                                    "occurred_at",
                                    e.get("occurred_at").unwrap_or(&Value::Null),
                                )
                                .0,
                                who: s("actor_name"),
                                // Issue 13: the number a rectification names.
                                what: match e.get("id").and_then(Value::as_i64) {
                                    Some(id) => format!("Ato nº {id} · {}", enum_label(&s("kind"))),
                                    None => enum_label(&s("kind")),
                                },
                                reason: s("reason"),
                                details: e.get("data").map(compact).unwrap_or_default(),
                            }
                        })
                        .collect(),
                    headers: Vec::new(),
                    table: Vec::new(),
                });
            }
            Value::Array(items) if items.iter().all(Value::is_object) && !items.is_empty() => {
                let mut headers: Vec<String> = Vec::new();
                for it in items {
                    for key in it.as_object().into_iter().flat_map(|o| o.keys()) {
                        // Ids and digests are for machines; the row links to what it is.
                        if !headers.contains(key) && !HIDDEN.contains(&key.as_str()) {
                            headers.push(key.clone());
                        }
                    }
                }
                let table = items
                    .iter()
                    .map(|it| {
                        headers
                            .iter()
                            .map(|h| {
                                let v = it.get(h).unwrap_or(&Value::Null);
                                match v {
                                    Value::Object(_) | Value::Array(_) => Cell {
                                        text: compact(v),
                                        link: None,
                                    },
                                    _ => {
                                        let (text, link) = show(h, v);
                                        Cell { text, link }
                                    }
                                }
                            })
                            .collect()
                    })
                    .collect();
                more.push(Section {
                    heading: record_label(k),
                    rows: Vec::new(),
                    timeline: Vec::new(),
                    headers: headers.iter().map(|h| record_label(h)).collect(),
                    table,
                    key: k.clone(),
                    ids: items
                        .iter()
                        .map(|it| it.get("id").and_then(Value::as_str).map(str::to_owned))
                        .collect(),
                });
            }
            Value::Array(items) => main.rows.push(Row {
                label: record_label(k),
                value: if items.is_empty() {
                    "—".into()
                } else {
                    compact(v)
                },
                link: None,
            }),
            _ if HIDDEN.contains(&k.as_str()) && k != "id" => {}
            _ => {
                let (value, link) = show(k, v);
                main.rows.push(Row {
                    label: record_label(k),
                    value,
                    link,
                });
            }
        }
    }
    let mut out = vec![main];
    out.extend(more);
    out
}

/// The acts on one row of a record's list (`/platforms/{id}/regularization-notices/{notice}/…`
/// on each notice of the platform), as a last column of links.
fn row_actions(
    s: &Signed,
    get_pattern: &str,
    params: &HashMap<String, String>,
    sections: &mut [Section],
) {
    let base = if get_pattern.starts_with("/api/v1/charter/") {
        "/api/v1/charter"
    } else {
        "/api/v1"
    };
    for section in sections.iter_mut().filter(|x| !x.key.is_empty()) {
        let segment = section.key.replace('_', "-");
        // Each row's own page, when its kind has one (`data_requests` → `data-requests/{id}`).
        let own = format!("{base}/{segment}/{{id}}");
        if section.key != "documents"
            && crate::http::ROUTES
                .iter()
                .any(|(m, p)| *m == "get" && *p == own)
            && s.official.roles.allow(competence("get", &own))
        {
            section.headers.push("Registro".to_owned());
            for (row, id) in section.table.iter_mut().zip(&section.ids) {
                row.push(Cell {
                    text: if id.is_some() {
                        "Abrir".into()
                    } else {
                        String::new()
                    },
                    link: id.as_ref().map(|id| {
                        format!(
                            "/painel/ver/{}",
                            own.trim_start_matches("/api/v1/")
                                .replace("{id}", &urlencode(id))
                        )
                    }),
                });
            }
        }
        let prefix = format!("{get_pattern}/{segment}/{{");
        let ops: Vec<(&str, &str, String)> = crate::http::OPERATION_IDS
            .iter()
            .filter(|(m, p, _)| *m != "get" && p.starts_with(&prefix))
            .filter(|(m, p, _)| s.official.roles.allow(competence(m, p)))
            .filter_map(|(_, p, id)| {
                let name = p[prefix.len()..].split('}').next()?.to_owned();
                Some((*id, op_label(id), name))
            })
            .collect();
        if ops.is_empty() {
            continue;
        }
        section.headers.push("Atos".to_owned());
        for (row, id) in section.table.iter_mut().zip(&section.ids) {
            let Some(id) = id else {
                row.push(Cell {
                    text: String::new(),
                    link: None,
                });
                continue;
            };
            // One cell, one link per act (the template shows one link a cell: the first act,
            // the common case of one act per row).
            let (op, text, name) = &ops[0];
            let mut query: Vec<String> = params
                .iter()
                .map(|(k, v)| format!("{k}={}", urlencode(v)))
                .collect();
            query.push(format!("{name}={}", urlencode(id)));
            row.push(Cell {
                text: (*text).to_owned(),
                link: Some(format!("/painel/acao/{op}?{}", query.join("&"))),
            });
        }
    }
}

/// The acts and readings offered on a record's page: the API's operations under its path,
/// those the official's roles allow.
fn record_actions(
    s: &Signed,
    get_pattern: &str,
    params: &HashMap<String, String>,
) -> Vec<(String, String)> {
    let query: String = params
        .iter()
        .map(|(k, v)| format!("{k}={}", urlencode(v)))
        .collect::<Vec<_>>()
        .join("&");
    let mut out = Vec::new();
    for (m, p, id) in crate::http::OPERATION_IDS {
        let Some(rest) = p
            .strip_prefix(get_pattern)
            .and_then(|r| r.strip_prefix('/'))
        else {
            continue;
        };
        if !s.official.roles.allow(competence(m, p)) {
            continue;
        }
        if *id == "registry.put_driver_photo" {
            // A file, not a form of fields: its own page (`panel::photo`).
            if let Some(driver) = params.get("id") {
                out.push((format!("/painel/foto/{driver}"), op_label(id).to_owned()));
            }
        } else if *m == "get" {
            if !rest.contains('{')
                && let Some(h) = record_href(p, params)
            {
                out.push((h, op_label(id).to_owned()));
            }
        } else if params_of(p).iter().all(|n| params.contains_key(*n)) || rest.contains('{') {
            out.push((
                format!("/painel/acao/{id}?{query}"),
                op_label(id).to_owned(),
            ));
        }
    }
    out
}

async fn view(state: web::Data<AppState>, req: HttpRequest, tail: web::Path<String>) -> Page {
    let s = Signed::of(&req, &state).await?;
    let path = format!("/api/v1/{}", tail.trim_start_matches('/'));
    let Some((pattern, params)) = match_get(&path) else {
        return Err(PanelError::NotFound);
    };
    let answer = call(&state, &s, Method::GET, &path, None).await?;
    if answer.status == StatusCode::FORBIDDEN {
        let detail = answer
            .json()
            .and_then(|p| p.get("detail").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_default();
        return Err(PanelError::Forbidden(detail));
    }
    if answer.status == StatusCode::NOT_FOUND {
        return Err(PanelError::NotFound);
    }
    if answer.is_pdf() && answer.status.is_success() {
        let name = tail.rsplit('/').next().unwrap_or("documento");
        let mut res = HttpResponse::Ok();
        page_headers(&mut res);
        return Ok(res
            .content_type("application/pdf")
            .insert_header((
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}.pdf\""),
            ))
            .body(answer.body));
    }
    if !answer.status.is_success() {
        return Err(PanelError::Internal);
    }
    let json = answer.json().unwrap_or(Value::Null);
    let title = title_of(pattern, &json);
    let mut sections = record_sections(&json, "Dados");
    // The record's history on its own page, as a timeline.
    let history = format!("{pattern}/history");
    if crate::http::ROUTES
        .iter()
        .any(|(m, p)| *m == "get" && *p == history)
        && let Some(h) = fill_pattern(&history, &params)
    {
        let events = call(&state, &s, Method::GET, &h, None).await?;
        if events.status.is_success()
            && let Some(events) = events.json()
        {
            sections.extend(record_sections(&events, "Histórico").into_iter().skip(1));
        }
    }
    let notice = req
        .uri()
        .query()
        .and_then(|q| q.split('&').find_map(|p| p.strip_prefix("feito=")))
        .map(|op| format!("{} — registrado.", op_label(&op.replace("%2E", "."))));
    row_actions(&s, pattern, &params, &mut sections);
    let body = render(&RecordPage {
        chrome: Some(chrome_of(&s)),
        actions: record_actions(&s, pattern, &params),
        sections,
        title,
        notice,
    })?;
    Ok(html(StatusCode::OK, body))
}

fn title_of(pattern: &str, json: &Value) -> String {
    let s = |k: &str| json.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    let what = match pattern {
        "/api/v1/app-authorizations/{id}" => format!("Autorização {}", s("number")),
        "/api/v1/app-infraction-autos/{id}" | "/api/v1/charter/autos/{id}" => {
            format!("Auto de infração {}", s("number"))
        }
        "/api/v1/platforms/{id}" => format!("Plataforma {}", s("name")),
        "/api/v1/drivers/{id}" => format!("Condutor {}", s("name")),
        "/api/v1/vehicles/{id}" => format!("Veículo {}", s("plate")),
        "/api/v1/charter/companies/{id}" => format!("Empresa {}", s("name")),
        "/api/v1/charter/vehicles/{id}" | "/api/v1/charter/vehicles/by-plate/{plate}" => {
            format!("Veículo de fretamento {}", s("plate"))
        }
        "/api/v1/charter/drivers/{id}" => format!("Motorista {}", s("name")),
        "/api/v1/data-requests/{id}" => "Requisição de dados".to_owned(),
        p if p.ends_with("/history") => "Histórico".to_owned(),
        _ => "Registro".to_owned(),
    };
    what.trim().to_owned()
}

// ---------------------------------------------------------------- officials (admin)

pub struct OfficialRow {
    login: String,
    name: String,
    roles: String,
    state: &'static str,
    active: bool,
    role_boxes: Vec<(String, String, bool)>,
}

#[derive(Template)]
#[template(path = "pages/panel/officials.html")]
struct OfficialsPage {
    chrome: Option<Chrome>,
    csrf: String,
    officials: Vec<OfficialRow>,
    notice: Option<String>,
    error: Option<String>,
    form_login: String,
    form_name: String,
    form_roles: Vec<(String, String, bool)>,
}

fn role_boxes(checked: &[String]) -> Vec<(String, String, bool)> {
    Role::ALL
        .iter()
        .map(|r| {
            (
                r.as_str().to_owned(),
                r.label_pt().to_owned(),
                checked.iter().any(|c| c == r.as_str()),
            )
        })
        .collect()
}

async fn officials_view(
    state: &AppState,
    s: &Signed,
    notice: Option<String>,
    error: Option<String>,
    form: (String, String, Vec<String>),
    status: StatusCode,
) -> Page {
    let officials = state
        .store
        .officials()
        .await?
        .into_iter()
        .map(|o| OfficialRow {
            role_boxes: role_boxes(
                &o.roles
                    .iter()
                    .map(|r| r.as_str().to_owned())
                    .collect::<Vec<_>>(),
            ),
            login: o.login.to_string(),
            name: o.name,
            roles: o
                .roles
                .iter()
                .map(Role::label_pt)
                .collect::<Vec<_>>()
                .join("; "),
            state: if o.active {
                "ativo(a)"
            } else {
                "desativado(a)"
            },
            active: o.active,
        })
        .collect();
    let body = render(&OfficialsPage {
        chrome: Some(chrome_of(s)),
        csrf: s.session.csrf_token.clone(),
        officials,
        notice,
        error,
        form_login: form.0,
        form_name: form.1,
        form_roles: role_boxes(&form.2),
    })?;
    Ok(html(status, body))
}

async fn officials_page(state: web::Data<AppState>, req: HttpRequest) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::ManageOfficials)?;
    officials_view(&state, &s, None, None, Default::default(), StatusCode::OK).await
}

fn form_pairs(form: Vec<(String, String)>) -> (HashMap<String, String>, Vec<String>) {
    let mut map = HashMap::new();
    let mut roles = Vec::new();
    for (k, v) in form {
        if k == "papel" {
            roles.push(v);
        } else {
            map.insert(k, v);
        }
    }
    (map, roles)
}

async fn officials_add(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    let (map, roles) = form_pairs(form.into_inner());
    s.check_csrf(&map)?;
    s.require(Competence::ManageOfficials)?;
    let get = |k: &str| map.get(k).cloned().unwrap_or_default();
    match accounts::add(
        &state.store,
        &s.official.actor,
        &get("login"),
        &get("nome"),
        &roles.join(","),
        &get("senha"),
        state.clock.now(),
    )
    .await
    {
        Ok(o) => {
            officials_view(
                &state,
                &s,
                Some(format!("{} cadastrado(a).", o.login)),
                None,
                Default::default(),
                StatusCode::OK,
            )
            .await
        }
        Err(accounts::AccountError::Storage(e)) => Err(e.into()),
        Err(e) => {
            let msg = capitalize(&e.to_string());
            officials_view(
                &state,
                &s,
                None,
                Some(msg),
                (get("login"), get("nome"), roles),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| {
        f.to_uppercase().chain(c).collect::<String>() + "."
    })
}

async fn official_change(
    state: web::Data<AppState>,
    req: HttpRequest,
    login: web::Path<String>,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    let (map, roles) = form_pairs(form.into_inner());
    s.check_csrf(&map)?;
    s.require(Competence::ManageOfficials)?;
    let now = state.clock.now();
    let actor = s.official.actor.clone();
    let result = match map.get("acao").map(String::as_str) {
        Some("desativar") => accounts::disable(&state.store, &login, &actor, now)
            .await
            .map(|o| {
                format!(
                    "{} desativado(a): sessões encerradas e tokens recusados.",
                    o.login
                )
            }),
        Some("reativar") => accounts::enable(&state.store, &login, &actor, now)
            .await
            .map(|o| format!("{} reativado(a).", o.login)),
        Some("papeis") => accounts::set_roles(&state.store, &login, &roles.join(","), &actor, now)
            .await
            .map(|o| format!("Papéis de {} salvos.", o.login)),
        Some("senha") => accounts::reset_password(
            &state.store,
            &login,
            map.get("senha").map_or("", String::as_str),
            &actor,
            now,
        )
        .await
        .map(|o| {
            format!(
                "Senha de {} redefinida; as sessões dele(a) foram encerradas.",
                o.login
            )
        }),
        _ => return Err(PanelError::NotFound),
    };
    match result {
        Ok(n) => {
            officials_view(
                &state,
                &s,
                Some(n),
                None,
                Default::default(),
                StatusCode::OK,
            )
            .await
        }
        Err(accounts::AccountError::Storage(e)) => Err(e.into()),
        Err(e) => {
            officials_view(
                &state,
                &s,
                None,
                Some(capitalize(&e.to_string())),
                Default::default(),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
    }
}

// ---------------------------------------------------------------- own password

#[derive(Template)]
#[template(path = "pages/panel/password.html")]
struct PasswordPage {
    chrome: Option<Chrome>,
    csrf: String,
    notice: Option<String>,
    error: Option<String>,
}

async fn password_page(state: web::Data<AppState>, req: HttpRequest) -> Page {
    let s = Signed::of(&req, &state).await?;
    let body = render(&PasswordPage {
        chrome: Some(chrome_of(&s)),
        csrf: s.session.csrf_token.clone(),
        notice: None,
        error: None,
    })?;
    Ok(html(StatusCode::OK, body))
}

async fn password_change(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.check_csrf(&form)?;
    let get = |k: &str| form.get(k).map_or("", String::as_str);
    let (status, notice, error) = match accounts::change_own_password(
        &state.store,
        &s.session.official,
        get("atual"),
        get("nova"),
        state.clock.now(),
    )
    .await
    {
        Ok(()) => (StatusCode::OK, Some("Senha trocada.".to_owned()), None),
        Err(accounts::AccountError::Storage(e)) => return Err(e.into()),
        Err(e) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            None,
            Some(capitalize(&e.to_string())),
        ),
    };
    let body = render(&PasswordPage {
        chrome: Some(chrome_of(&s)),
        csrf: s.session.csrf_token.clone(),
        notice,
        error,
    })?;
    Ok(html(status, body))
}
