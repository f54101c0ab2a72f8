//! The route table, extractor configuration and request-id middleware.

pub mod auth;
pub mod authorizations;
pub mod autos;
pub mod calendar;
pub mod charter;
pub mod fields;
pub mod history;
pub mod meta;
pub mod platforms;
pub mod problem;
pub mod registry;
pub mod verify;

use actix_web::dev::{Service, ServiceResponse};
use actix_web::error::{JsonPayloadError, PathError, QueryPayloadError};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::{HttpRequest, Route, web};
use futures_util::FutureExt;

use problem::{ApiError, ProblemItem, REQUEST_ID};

/// Largest JSON body accepted.
pub const JSON_LIMIT: usize = 64 * 1024;

#[allow(clippy::needless_pass_by_value)] // the signature actix-web asks for
fn json_error(err: JsonPayloadError, _req: &HttpRequest) -> actix_web::Error {
    let api = match &err {
        JsonPayloadError::Overflow { .. } | JsonPayloadError::OverflowKnownLength { .. } => {
            ApiError::PayloadTooLarge
        }
        JsonPayloadError::ContentType => ApiError::UnsupportedMediaType(
            "Envie o corpo como JSON (Content-Type: application/json).".into(),
        ),
        JsonPayloadError::Deserialize(e) if e.is_data() => {
            ApiError::Invalid(vec![ProblemItem::field(
                "body",
                format!(
                    "Campo obrigatório ausente ou com tipo errado (linha {}, coluna {}); veja os campos esperados na documentação da API.",
                    e.line(),
                    e.column()
                ),
            )])
        }
        _ => ApiError::BadRequest("O corpo da requisição não é um JSON válido.".into()),
    };
    api.into()
}

fn path_error(_err: PathError, _req: &HttpRequest) -> actix_web::Error {
    ApiError::NotFound("Endereço não encontrado.".into()).into()
}

fn query_error(_err: QueryPayloadError, _req: &HttpRequest) -> actix_web::Error {
    ApiError::BadRequest("Parâmetros de consulta inválidos.".into()).into()
}

fn resource(path: &str, routes: Vec<Route>) -> actix_web::Resource {
    let mut r = web::resource(path);
    for route in routes {
        r = r.route(route);
    }
    r.default_service(web::to(meta::method_not_allowed))
}

/// Registers every route.
#[allow(clippy::too_many_lines)] // the route table reads best as one list
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.app_data(
        web::JsonConfig::default()
            .limit(JSON_LIMIT)
            .error_handler(json_error),
    )
    .app_data(web::PathConfig::default().error_handler(path_error))
    .app_data(web::QueryConfig::default().error_handler(query_error))
    .service(resource("/health", vec![web::get().to(meta::health)]))
    .service(resource(
        "/.well-known/selo-keys.json",
        vec![web::get().to(meta::jwks)],
    ))
    .service(resource(
        "/api/v1/drivers",
        vec![web::post().to(registry::create_driver)],
    ))
    .service(resource(
        "/api/v1/vehicles",
        vec![web::post().to(registry::create_vehicle)],
    ))
    .service(resource(
        "/api/v1/app-authorizations",
        vec![web::post().to(authorizations::grant)],
    ))
    .service(resource(
        "/api/v1/app-authorizations/{id}",
        vec![web::get().to(authorizations::get)],
    ))
    .service(resource(
        "/api/v1/app-authorizations/{id}/revocation",
        vec![web::post().to(authorizations::revoke)],
    ))
    .service(resource(
        "/api/v1/documents/{id}",
        vec![web::get().to(authorizations::document)],
    ))
    .service(resource(
        "/api/v1/openapi.json",
        vec![web::get().to(meta::openapi)],
    ))
    .service(resource(
        "/api/v1/upf-values/{year}",
        vec![web::put().to(autos::set_upf)],
    ))
    .service(resource(
        "/api/v1/app-infraction-autos",
        vec![web::post().to(autos::create)],
    ))
    .service(resource(
        "/api/v1/app-infraction-autos/{id}",
        vec![web::get().to(autos::get)],
    ))
    .service(resource(
        "/api/v1/app-infraction-autos/{id}/history",
        vec![web::get().to(history::auto)],
    ))
    .service(resource(
        "/api/v1/app-infraction-autos/{id}/acts",
        vec![web::post().to(autos::act)],
    ))
    .service(resource(
        "/api/v1/app-infraction-autos/{id}/notice",
        vec![web::post().to(autos::notice)],
    ))
    .service(resource(
        "/api/v1/app-infraction-autos/{id}/notification",
        vec![web::post().to(autos::notify)],
    ))
    .service(resource(
        "/api/v1/drivers/{id}/data-changes",
        vec![web::post().to(registry::data_change)],
    ))
    .service(resource(
        "/api/v1/drivers/{id}/register-acts",
        vec![web::post().to(registry::driver_register_act)],
    ))
    .service(resource(
        "/api/v1/vehicles/{id}/owner",
        vec![web::post().to(registry::declare_owner)],
    ))
    .service(resource(
        "/api/v1/vehicles/{id}/register-acts",
        vec![web::post().to(registry::vehicle_register_act)],
    ))
    .service(resource(
        "/api/v1/drivers/{id}/record",
        vec![web::post().to(registry::file_record)],
    ))
    .service(resource(
        "/api/v1/platforms",
        vec![web::post().to(platforms::create)],
    ))
    .service(resource(
        "/api/v1/platforms/{id}",
        vec![web::get().to(platforms::get)],
    ))
    .service(resource(
        "/api/v1/platforms/{id}/regularization-notices",
        vec![web::post().to(platforms::create_notice)],
    ))
    .service(resource(
        "/api/v1/platforms/{id}/regularization-notices/{notice}/regularization",
        vec![web::post().to(platforms::cure_notice)],
    ))
    .service(resource(
        "/api/v1/platforms/{id}/data-requests",
        vec![web::post().to(platforms::create_data_request)],
    ))
    .service(resource(
        "/api/v1/data-requests/{id}",
        vec![web::get().to(platforms::get_data_request)],
    ))
    .service(resource(
        "/api/v1/data-requests/{id}/delivery",
        vec![web::post().to(platforms::record_delivery)],
    ))
    .service(resource(
        "/api/v1/drivers/{id}/history",
        vec![web::get().to(history::driver)],
    ))
    .service(resource(
        "/api/v1/vehicles/{id}/history",
        vec![web::get().to(history::vehicle)],
    ))
    .service(resource(
        "/api/v1/app-authorizations/{id}/history",
        vec![web::get().to(history::authorization)],
    ))
    .service(resource(
        "/api/v1/app-authorizations/{id}/certidoes",
        vec![web::post().to(authorizations::certidao)],
    ))
    .service(resource(
        "/api/v1/app-authorizations/{id}/vehicle-substitutions",
        vec![web::post().to(authorizations::substitute_vehicle)],
    ))
    .service(resource(
        "/api/v1/app-authorizations/{id}/vistoria-summons",
        vec![web::post().to(authorizations::vistoria_summons)],
    ))
    .service(resource(
        "/api/v1/app-authorizations/{id}/vistorias",
        vec![web::post().to(authorizations::vistoria)],
    ))
    .service(resource(
        "/api/v1/app-authorizations/{id}/sanctions",
        vec![web::post().to(authorizations::sanction)],
    ))
    .service(resource(
        "/api/v1/app-infractions",
        vec![web::get().to(authorizations::infractions)],
    ))
    .service(resource(
        "/api/v1/calendar/closed-days",
        vec![web::post().to(calendar::add_closed_days)],
    ))
    .service(resource(
        "/api/v1/calendar/{year}",
        vec![web::get().to(calendar::year)],
    ))
    .service(resource(
        "/api/v1/deadlines",
        vec![web::get().to(calendar::deadline)],
    ))
    .service(resource(
        "/api/v1/charter/companies",
        vec![web::post().to(charter::create_company)],
    ))
    .service(resource(
        "/api/v1/charter/companies/{id}",
        vec![web::get().to(charter::get_company)],
    ))
    .service(resource(
        "/api/v1/charter/companies/{id}/checklist",
        vec![web::post().to(charter::file_checklist)],
    ))
    .service(resource(
        "/api/v1/charter/companies/{id}/termos",
        vec![web::post().to(charter::grant_termo)],
    ))
    .service(resource(
        "/api/v1/charter/companies/{id}/sanctions",
        vec![web::post().to(charter::apply_sanction)],
    ))
    .service(resource(
        "/api/v1/charter/companies/{id}/vehicles",
        vec![web::post().to(charter::create_vehicle)],
    ))
    .service(resource(
        "/api/v1/charter/companies/{id}/drivers",
        vec![web::post().to(charter::create_driver)],
    ))
    .service(resource(
        "/api/v1/charter/companies/{id}/contracts",
        vec![web::post().to(charter::create_contract)],
    ))
    .service(resource(
        "/api/v1/charter/companies/{id}/substitutions",
        vec![web::post().to(charter::authorize_substitution)],
    ))
    .service(resource(
        "/api/v1/charter/companies/{id}/autos",
        vec![web::post().to(charter::create_auto)],
    ))
    .service(resource(
        "/api/v1/charter/vehicles/by-plate/{plate}",
        vec![web::get().to(charter::vehicle_by_plate)],
    ))
    .service(resource(
        "/api/v1/charter/vehicles/{id}",
        vec![web::get().to(charter::get_vehicle)],
    ))
    .service(resource(
        "/api/v1/charter/vehicles/{id}/itv",
        vec![web::post().to(charter::file_itv)],
    ))
    .service(resource(
        "/api/v1/charter/vehicles/{id}/documents",
        vec![web::post().to(charter::file_vehicle_documents)],
    ))
    .service(resource(
        "/api/v1/charter/vehicles/{id}/vistorias",
        vec![web::post().to(charter::record_vistoria)],
    ))
    .service(resource(
        "/api/v1/charter/vehicles/{id}/baixa",
        vec![web::post().to(charter::baixa_vehicle)],
    ))
    .service(resource(
        "/api/v1/charter/drivers/{id}",
        vec![web::get().to(charter::get_driver)],
    ))
    .service(resource(
        "/api/v1/charter/drivers/{id}/documents",
        vec![web::post().to(charter::file_driver_documents)],
    ))
    .service(resource(
        "/api/v1/charter/drivers/{id}/baixa",
        vec![web::post().to(charter::baixa_driver)],
    ))
    .service(resource(
        "/api/v1/charter/contracts/{id}/end",
        vec![web::post().to(charter::end_contract)],
    ))
    .service(resource(
        "/api/v1/charter/contracts/{id}/trips",
        vec![web::post().to(charter::file_trip)],
    ))
    .service(resource(
        "/api/v1/charter/autos",
        vec![web::get().to(charter::list_autos)],
    ))
    .service(resource(
        "/api/v1/charter/autos/{id}",
        vec![web::get().to(charter::get_auto)],
    ))
    .service(resource(
        "/api/v1/charter/autos/{id}/acts",
        vec![web::post().to(charter::procedure_act)],
    ))
    .service(resource(
        "/api/v1/charter/autos/{id}/notice",
        vec![web::post().to(charter::issue_notice)],
    ))
    .service(resource(
        "/api/v1/charter/certidoes",
        vec![web::post().to(charter::issue_certidao)],
    ))
    .service(resource(
        "/api/v1/charter/infractions",
        vec![web::get().to(charter::infractions)],
    ))
    .service(resource(
        "/api/v1/charter/transition",
        vec![web::get().to(charter::transition)],
    ))
    .service(resource(
        "/api/v1/charter/documents/{id}",
        vec![web::get().to(charter::document_pdf)],
    ))
    .service(resource(
        "/api/v1/charter/{entity}/{id}/history",
        vec![web::get().to(charter::history)],
    ))
    // Literal routes before `/api/v1/verify/{token}`, which would otherwise take them.
    .service(resource(
        "/api/v1/verify/pdf",
        vec![web::post().to(verify::api_pdf)],
    ))
    .service(resource(
        "/api/v1/verify/code/{code}",
        vec![web::get().to(verify::api_code)],
    ))
    .service(resource(
        "/api/v1/verify/{token}",
        vec![web::get().to(verify::api_token)],
    ))
    .service(resource("/v", vec![web::get().to(verify::page_code)]))
    .service(resource("/v/pdf", vec![web::post().to(verify::page_pdf)]))
    .service(resource(
        "/v/{token}",
        vec![web::get().to(verify::page_token)],
    ))
    .default_service(web::to(meta::not_found));
}

/// Gives each request an id (the caller's `X-Request-Id` if sane, else a new UUID), makes it
/// visible to problem bodies and logs, and echoes it in the response.
pub fn request_id_middleware<S, B>(
    req: actix_web::dev::ServiceRequest,
    srv: &S,
) -> impl std::future::Future<Output = Result<ServiceResponse<B>, actix_web::Error>> + use<S, B>
where
    S: Service<
            actix_web::dev::ServiceRequest,
            Response = ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    S::Future: 'static,
{
    let id = req
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| {
            !v.is_empty()
                && v.len() <= 64
                && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
        .map_or_else(|| uuid::Uuid::new_v4().to_string(), str::to_owned);
    let method = req.method().clone();
    // Only the route pattern is logged, so no identifier in a path reaches the logs.
    let started = std::time::Instant::now();
    let fut = srv.call(req);
    let header_id = id.clone();
    REQUEST_ID.scope(id.clone(), fut).map(move |res| {
        res.map(|mut res| {
            let pattern = res
                .request()
                .match_pattern()
                .unwrap_or_else(|| "<unmatched>".into());
            tracing::info!(
                request_id = %id,
                method = %method,
                route = %pattern,
                status = res.status().as_u16(),
                micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX),
                "request"
            );
            if let Ok(v) = HeaderValue::from_str(&header_id) {
                res.headers_mut()
                    .insert(HeaderName::from_static("x-request-id"), v);
            }
            res
        })
    })
}
