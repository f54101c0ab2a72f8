//! The driver's photo in the back office: a multipart form whose file goes, through
//! the gateway, to `PUT /api/v1/drivers/{id}/photo` as the signed-in official — the API's own
//! guard, limits and use case.

use actix_web::http::{Method, StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use futures_util::StreamExt as _;

use super::pages::{Chrome, chrome_of};
use super::{CSRF_FIELD, PanelError, Signed};
use crate::domain::officials::Competence;
use crate::issuance::ride_hailing::photo::MAX_UPLOAD_BYTES;
use crate::state::AppState;

#[derive(Template)]
#[template(path = "pages/panel/photo.html")]
struct PhotoPage {
    chrome: Option<Chrome>,
    csrf: String,
    action: String,
    back: String,
    error: Option<String>,
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/painel/foto/{id}")
            .route(web::get().to(form))
            .route(web::post().to(upload)),
    );
}

fn driver_id(id: &str) -> Result<uuid::Uuid, PanelError> {
    uuid::Uuid::parse_str(id).map_err(|_| PanelError::NotFound)
}

fn page(
    s: &Signed,
    id: uuid::Uuid,
    error: Option<String>,
    status: StatusCode,
) -> Result<HttpResponse, PanelError> {
    let body = PhotoPage {
        chrome: Some(chrome_of(s)),
        csrf: s.session.csrf_token.clone(),
        action: format!("/painel/foto/{id}"),
        back: format!("/painel/ver/drivers/{id}"),
        error,
    }
    .render()
    .map_err(|_| PanelError::Internal)?;
    let mut res = HttpResponse::build(status);
    super::page_headers(&mut res);
    Ok(res.content_type("text/html; charset=utf-8").body(body))
}

async fn form(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse, PanelError> {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueRideHailing)?;
    page(&s, driver_id(&id)?, None, StatusCode::OK)
}

/// The CSRF field and the file of the form; `None` for the file when none was chosen.
async fn read_form(
    req: &HttpRequest,
    payload: web::Payload,
) -> Result<(String, Option<Vec<u8>>), String> {
    let mut form = actix_multipart::Multipart::new(req.headers(), payload);
    let (mut csrf, mut file) = (String::new(), None);
    while let Some(field) = form.next().await {
        let mut field =
            field.map_err(|_| "O formulário não chegou inteiro; envie de novo.".to_owned())?;
        let name = field.name().unwrap_or_default().to_owned();
        let mut bytes = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk =
                chunk.map_err(|_| "O arquivo não chegou inteiro; envie de novo.".to_owned())?;
            if bytes.len() + chunk.len() > MAX_UPLOAD_BYTES {
                return Err("A foto tem mais de 2 MB: envie uma foto menor.".to_owned());
            }
            bytes.extend_from_slice(&chunk);
        }
        match name.as_str() {
            CSRF_FIELD => csrf = String::from_utf8_lossy(&bytes).into_owned(),
            "foto" if !bytes.is_empty() => file = Some(bytes),
            _ => {}
        }
    }
    Ok((csrf, file))
}

async fn upload(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
    payload: web::Payload,
) -> Result<HttpResponse, PanelError> {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueRideHailing)?;
    let id = driver_id(&id)?;
    let (csrf, file) = match read_form(&req, payload).await {
        Ok(read) => read,
        Err(e) => return page(&s, id, Some(e), StatusCode::BAD_REQUEST),
    };
    let mut fields = std::collections::HashMap::new();
    fields.insert(CSRF_FIELD.to_owned(), csrf);
    s.check_csrf(&fields)?;
    let Some(file) = file else {
        return page(
            &s,
            id,
            Some("Escolha o arquivo da foto.".into()),
            StatusCode::BAD_REQUEST,
        );
    };
    let answer = super::gateway::call_raw(
        &s.app,
        &s.official,
        Method::PUT,
        &format!("/api/v1/drivers/{id}/photo"),
        "application/octet-stream",
        file,
    )
    .await?;
    if answer.status.is_success() {
        return Ok(HttpResponse::SeeOther()
            .insert_header((
                header::LOCATION,
                format!("/painel/ver/drivers/{id}?foto=ok"),
            ))
            .finish());
    }
    let detail = serde_json::from_slice::<serde_json::Value>(&answer.body)
        .ok()
        .and_then(|p| {
            p["detail"]
                .as_str()
                .map(str::to_owned)
                .or_else(|| p["errors"][0]["message"].as_str().map(str::to_owned))
        })
        .unwrap_or_else(|| "A foto não pôde ser guardada.".into());
    page(&s, id, Some(detail), answer.status)
}
