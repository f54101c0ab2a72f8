//! The back office's pages: handlers and the views they render (`templates/pages/panel/`).

mod acts;
mod filings;
mod officials;
mod password;
mod records;
mod reports;
mod session;
mod start;
mod tasks;
mod worklist;

pub use acts::*;
pub use officials::*;
use password::{password_change, password_page};
pub use records::*;
use session::{login, login_page, logout};
pub use start::*;
use worklist::{worklist, worklist_csv, worklist_pdf};

use std::collections::HashMap;
use std::fmt::Write as _;

use actix_web::http::header;
use actix_web::http::{Method, StatusCode};
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde_json::Value;

use super::forms::{self, Item, Variants};
use super::labels::{enum_label, known_label, label};
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
    .configure(tasks::configure)
    .configure(filings::configure)
    .configure(reports::configure)
    .service(web::resource("/painel/pendencias").route(web::get().to(worklist)))
    .service(web::resource("/painel/pendencias.csv").route(web::get().to(worklist_csv)))
    .service(web::resource("/painel/pendencias.pdf").route(web::get().to(worklist_pdf)))
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
}

/// The id in a page's path; anything else is a page that does not exist.
fn uuid_of(s: &str) -> Result<uuid::Uuid, PanelError> {
    uuid::Uuid::parse_str(s).map_err(|_| PanelError::NotFound)
}

/// What every signed-in page shows around its content.
#[derive(Debug, Clone)]
pub struct Chrome {
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
    if s.official.roles.allow(Competence::ReadRideHailing)
        || s.official.roles.allow(Competence::ReadCharter)
    {
        nav.push(("/painel/pendencias".to_owned(), "Pendências".to_owned()));
    }
    if s.official.roles.allow(Competence::IssueRideHailing)
        || s.official.roles.allow(Competence::IssueCharter)
    {
        nav.push((
            "/painel/requerimentos".to_owned(),
            "Requerimentos".to_owned(),
        ));
    }
    if s.official.roles.allow(Competence::HandleReports) {
        nav.push(("/painel/denuncias".to_owned(), "Denúncias".to_owned()));
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
    // The verifier that works with no signal, for the road.
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
        Role::Ombudsman => "ouvidoria",
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
    message_with(None, title, text)
}

/// The same, with the signed-in official's menu.
pub(super) fn message_with(chrome: Option<Chrome>, title: &str, text: &str) -> String {
    MessagePage {
        chrome,
        title,
        text,
    }
    .render()
    .unwrap_or_else(|_| "<!doctype html><title>Erro</title><p>Erro interno.</p>".to_owned())
}
