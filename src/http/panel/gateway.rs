//! The back office's way to act: it calls the JSON API's own routes in process, as the signed-in
//! official, so every act goes through the same guard (roles), the same parsing and the same
//! use case as an API client's — nothing of a handler is written twice.

use std::cell::RefCell;

use actix_http::Request;
use actix_service::boxed::RcService;
use actix_service::{IntoServiceFactory, Service, ServiceFactory};
use actix_web::dev::{AppConfig, ServiceResponse};
use actix_web::http::header::{CONTENT_LENGTH, CONTENT_TYPE, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::web::Bytes;
use actix_web::{App, HttpMessage};

use crate::http::Assembly;
use crate::http::auth::{InProcess, Official};

type Api = RcService<Request, ServiceResponse, actix_web::Error>;

thread_local! {
    /// The API's routes, built once per worker thread (services are not `Send`), for the
    /// application state they were built with.
    static API: RefCell<Option<(usize, Api)>> = const { RefCell::new(None) };
}

async fn api(app: &Assembly) -> Result<Api, actix_web::Error> {
    let key = std::sync::Arc::as_ptr(&app.state.settings) as usize;
    if let Some(api) = API.with(|a| {
        a.borrow()
            .as_ref()
            .filter(|(k, _)| *k == key)
            .map(|(_, s)| s.clone())
    }) {
        return Ok(api);
    }
    let service = App::new()
        .configure(|cfg| app.configure(cfg))
        .into_factory()
        .new_service(AppConfig::default())
        .await
        .map_err(|()| actix_web::error::ErrorInternalServerError("api routes"))?;
    let service = actix_service::boxed::rc_service(service);
    API.with(|a| *a.borrow_mut() = Some((key, service.clone())));
    Ok(service)
}

/// What the API answered.
pub struct Answer {
    pub status: StatusCode,
    pub content_type: String,
    /// The file name the API gave a download (`Content-Disposition`).
    pub file_name: Option<String>,
    pub body: Bytes,
}

impl Answer {
    pub fn json(&self) -> Option<serde_json::Value> {
        serde_json::from_slice(&self.body).ok()
    }

    pub fn is_pdf(&self) -> bool {
        self.content_type.starts_with("application/pdf")
    }
}

/// Calls `method path` of the JSON API as `official`, with `body` as its JSON.
pub async fn call(
    app: &Assembly,
    official: &Official,
    method: Method,
    path: &str,
    body: Option<&serde_json::Value>,
) -> Result<Answer, actix_web::Error> {
    let bytes = body.map_or_else(Vec::new, |b| b.to_string().into_bytes());
    call_raw(app, official, method, path, "application/json", bytes).await
}

/// The same, with a body of any type (a driver's photo).
pub async fn call_raw(
    app: &Assembly,
    official: &Official,
    method: Method,
    path: &str,
    content_type: &'static str,
    bytes: Vec<u8>,
) -> Result<Answer, actix_web::Error> {
    let api = api(app).await?;
    let len = bytes.len();
    let mut req = Request::with_payload(actix_http::Payload::from(Bytes::from(bytes)));
    {
        let head = req.head_mut();
        head.method = method;
        head.uri = path
            .parse()
            .map_err(|_| actix_web::error::ErrorNotFound("path"))?;
        head.headers
            .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
        head.headers.insert(CONTENT_LENGTH, HeaderValue::from(len));
    }
    req.extensions_mut().insert(InProcess(official.clone()));
    let res = api.call(req).await?;
    let status = res.status();
    let content_type = res
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let file_name = res
        .headers()
        .get(actix_web::http::header::CONTENT_DISPOSITION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split("filename=\"").nth(1))
        .and_then(|v| v.split('"').next())
        .map(str::to_owned);
    let body = actix_web::body::to_bytes(res.into_body())
        .await
        .map_err(|_| actix_web::error::ErrorInternalServerError("api body"))?;
    Ok(Answer {
        status,
        content_type,
        file_name,
        body,
    })
}
