//! The pages of the report form that only say something — received (with the protocol),
//! refused, past the rate limit — apart from the form, so the rate limiter can answer with one
//! without depending on the form's handlers.

use actix_web::HttpResponse;
use actix_web::http::{StatusCode, header};
use askama::Template;

use crate::http::problem::ApiError;
use crate::http::verify::page::{html, tel};
use crate::state::AppState;

/// The Ouvidoria's phone, printed at the foot of every page: (as written, as a `tel:` address).
pub struct Phone(pub String, pub String);

impl Phone {
    pub fn of(state: &AppState) -> Self {
        let p = &state.letterhead.ouvidoria_phone;
        Phone(p.clone(), tel(p))
    }
}

#[derive(Template)]
#[template(path = "pages/report_message.html")]
pub struct MessagePage<'a> {
    pub title: &'a str,
    pub text: &'a str,
    pub number: Option<&'a str>,
    pub phone: Phone,
}

/// The 429 of a client past its reports, as a page.
pub fn refused_page(state: &AppState, e: &ApiError) -> HttpResponse {
    let text = format!(
        "{} Se precisar, ligue para a Ouvidoria Municipal.",
        e.detail()
    );
    let body = MessagePage {
        title: "Muitas denúncias enviadas",
        text: &text,
        number: None,
        phone: Phone::of(state),
    }
    .render()
    .unwrap_or_else(|e| {
        tracing::error!(error = %e, "report refusal page did not render");
        "<!doctype html><title>Erro</title><p>Muitas denúncias enviadas.</p>".to_owned()
    });
    let status: StatusCode = actix_web::ResponseError::status_code(e);
    let mut res = html(status, &body);
    if let ApiError::TooManyRequests { retry_after, .. } = e
        && let Ok(value) = header::HeaderValue::from_str(&retry_after.to_string())
    {
        res.headers_mut().insert(header::RETRY_AFTER, value);
    }
    res
}
