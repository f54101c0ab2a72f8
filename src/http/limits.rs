//! Rate limits per client address: token verification, printed-code look-ups
//! (strict: the codes are 40 bits), PDF uploads, passengers' reports, and failed bearer tokens. A request over its
//! limit is answered 429 with `Retry-After` before anything else is done; the pages under `/v`
//! answer it as a page. The client address is the peer's, or, when the peer is a configured
//! reverse proxy (`SELO_TRUSTED_PROXIES`), the nearest untrusted address of `X-Forwarded-For`.

use std::net::IpAddr;

use actix_web::HttpRequest;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{Service, ServiceRequest, ServiceResponse};
use futures_util::FutureExt;
use futures_util::future::Either;

use super::problem::ApiError;
use crate::state::limits::{Class, Refused};

/// The 429 of a request over its limit.
pub fn too_many(r: Refused) -> ApiError {
    let secs = r.wait.as_secs() + u64::from(r.wait.subsec_nanos() > 0);
    ApiError::TooManyRequests {
        detail: format!(
            "Muitas {} vindas deste endereço; tente de novo em {} s.",
            r.what,
            secs.max(1)
        ),
        retry_after: secs.max(1),
    }
}

/// What a request counts against, from its method, path and query.
fn class_of(method: &actix_web::http::Method, path: &str, query: &str) -> Option<Class> {
    let post = method == actix_web::http::Method::POST;
    if post
        && (path == "/api/v1/verify/pdf"
            || path == "/v/pdf"
            || (path.starts_with("/servicos/pedidos/") && path.ends_with("/arquivos")))
    {
        return Some(Class::Upload);
    }

    if post && path == "/denuncia" {
        return Some(Class::Report);
    }
    // The report form names the document by its printed code, like `/v?codigo=`.
    // ITI's validator presents the printed code too (`/v/{token}?_secretCode=`).
    if path.starts_with("/api/v1/verify/code/")
        || ((path == "/v" || path == "/denuncia") && query.contains("codigo="))
        || (path.starts_with("/v/") && query.contains("_secretCode="))
    {
        return Some(Class::Code);
    }
    if path.starts_with("/api/v1/verify/") || path.starts_with("/v/") {
        return Some(Class::Verify);
    }
    None
}

/// A platform's file (its credential is its limit): the upload deadline applies to it, not
/// the request's, and no per-address rate.
fn is_platform_upload(method: &actix_web::http::Method, path: &str) -> bool {
    method == actix_web::http::Method::PUT
        && (path.starts_with("/api/v1/platform/monthly-reports/")
            || (path.starts_with("/api/v1/platform/data-requests/") && path.ends_with("/delivery")))
}

/// The client address of a request, as the limits see it.
pub fn client_of(req: &HttpRequest) -> Option<IpAddr> {
    let limits = req
        .app_data::<actix_web::web::Data<crate::state::AppState>>()?
        .rate_limits
        .clone();
    limits.client(req.peer_addr().map(|a| a.ip()), req.headers())
}

/// Middleware: counts each verification, code look-up and upload against its client's limit,
/// and answers 429 when over it, before the handler runs.
pub fn middleware<S, B>(
    req: ServiceRequest,
    srv: &S,
) -> impl std::future::Future<Output = Result<ServiceResponse<EitherBody<B>>, actix_web::Error>>
+ use<S, B>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
    S::Future: 'static,
    B: MessageBody,
{
    let refused = class_of(req.method(), req.path(), req.query_string()).and_then(|class| {
        let state = req.app_data::<actix_web::web::Data<crate::state::AppState>>()?;
        let limits = &state.rate_limits;
        let client = limits.client(req.peer_addr().map(|a| a.ip()), req.headers())?;
        let refused = limits.check(class, client).err()?;
        state.metrics.rate_limited(class.as_str());
        Some(too_many(refused))
    });
    match refused {
        None => Either::Left(
            srv.call(req)
                .map(|r| r.map(ServiceResponse::map_into_left_body)),
        ),
        Some(e) => Either::Right(async move {
            let page = req.path() == "/v" || req.path().starts_with("/v/");
            let report = req.path() == "/denuncia";
            let state = req
                .app_data::<actix_web::web::Data<crate::state::AppState>>()
                .cloned();
            let res = match (page, report, state) {
                (true, _, Some(state)) => {
                    super::verify::page::refused_page(&state, &e, &e.detail())
                }
                (_, true, Some(state)) => super::reports::message::refused_page(&state, &e),
                _ => actix_web::ResponseError::error_response(&e),
            };
            Ok(req.into_response(res).map_into_right_body())
        }),
    }
}

/// Middleware: a request (uploads aside: they have their own deadline) not answered within
/// `SELO_REQUEST_DEADLINE_SECS` is answered 503; the handler is dropped, and with it any
/// transaction it had open (a database that stopped answering held requests 75 s).
pub fn deadline<S, B>(
    req: ServiceRequest,
    srv: &S,
) -> impl std::future::Future<Output = Result<ServiceResponse<B>, actix_web::Error>> + use<S, B>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
    S::Future: 'static,
    B: MessageBody,
{
    let upload = class_of(req.method(), req.path(), req.query_string()) == Some(Class::Upload)
        || is_platform_upload(req.method(), req.path());
    let limit = req
        .app_data::<actix_web::web::Data<crate::state::AppState>>()
        .map(|s| s.settings.limits.request_deadline)
        .filter(|_| !upload);
    let fut = srv.call(req);
    async move {
        let Some(limit) = limit else {
            return fut.await;
        };
        if let Ok(res) = tokio::time::timeout(limit, fut).await {
            res
        } else {
            tracing::error!("request deadline passed; answered 503");
            // Returned as the service's error: actix renders it (problem+json) without the
            // request, which the router still holds.
            Err(ApiError::Unavailable(
                "O serviço não concluiu a tempo (banco de dados sem resposta). Se a operação emitia um documento, confira o histórico antes de repetir."
                    .into(),
            )
            .into())
        }
    }
}
