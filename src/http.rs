//! The route table, extractor configuration and request-id middleware.

pub mod auth;
pub mod authorizations;
pub mod autos;
pub mod calendar;
pub mod charter;
pub mod electronic_notice;
pub mod fields;
pub mod fiscal;
pub mod grant_check;
pub mod history;
pub mod legal_bases;
pub mod limits;
pub mod meta;
pub mod municipality;
pub mod openapi;
pub mod panel;
pub mod platform_api;
pub mod platform_files;
pub mod platforms;
pub mod problem;
pub mod rectification;
pub mod registry;
pub mod renewal;
pub mod reports;
pub mod reviews;
pub mod services;
pub mod urls;
pub mod verify;

use actix_web::dev::{Service, ServiceResponse};
use actix_web::error::{JsonPayloadError, PathError, QueryPayloadError};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::{HttpRequest, Route, web};
use futures_util::FutureExt;

use crate::domain::officials::Competence;
use crate::state::AppState;
use openapi::Contract;
use problem::{ApiError, ProblemItem, REQUEST_ID};

/// Largest JSON body accepted.
pub const JSON_LIMIT: usize = 64 * 1024;

#[expect(
    clippy::needless_pass_by_value,
    reason = "the signature actix-web asks for"
)]
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

fn resource(path: &str, routes: Vec<Route>) -> impl actix_web::dev::HttpServiceFactory + use<> {
    let mut r = web::resource(path);
    for route in routes {
        r = r.route(route);
    }
    // RFC 9110, 15.5.6: a 405 names the methods the resource serves.
    let allow: String = ROUTES
        .iter()
        .filter(|(_, p)| *p == path)
        .map(|(m, _)| m.to_uppercase())
        .collect::<Vec<_>>()
        .join(", ");
    r.default_service(web::to(move || {
        std::future::ready(meta::method_not_allowed(&allow))
    }))
    .wrap(actix_web::middleware::from_fn(fields::printable_body))
    .wrap(actix_web::middleware::from_fn(auth::guard))
}

/// What every route reads besides its request: the application state and the verdicts served
/// from memory. The service and the back office's in-process calls are both assembled from it
/// by [`Assembly::configure`], so a route answers the same whichever way it is reached.
#[derive(Clone)]
pub struct Assembly {
    pub state: web::Data<AppState>,
    pub verdicts: web::Data<crate::verification::cache::VerdictCache>,
}

impl Assembly {
    pub fn new(state: AppState) -> Self {
        Self {
            verdicts: web::Data::new(crate::verification::cache::VerdictCache::new(
                state.settings.limits.resident_verdicts,
            )),
            state: web::Data::new(state),
        }
    }

    /// The one assembly of the application: its shared data, the extractor configuration and
    /// every route.
    pub fn configure(&self, cfg: &mut web::ServiceConfig) {
        cfg.app_data(self.state.clone())
            .app_data(self.verdicts.clone())
            .app_data(self.clone());
        configure(cfg);
    }
}

/// Registers the extractor configuration and every route.
fn configure(cfg: &mut web::ServiceConfig) {
    cfg.app_data(
        web::JsonConfig::default()
            .limit(JSON_LIMIT)
            .error_handler(json_error),
    )
    .app_data(web::PathConfig::default().error_handler(path_error))
    .app_data(web::QueryConfig::default().error_handler(query_error));
    register_routes(cfg);
    cfg.service(web::resource("/metrics").route(web::get().to(meta::metrics)));
    panel::configure(cfg);
    services::configure(cfg);
    reports::configure(cfg);
    fiscal::configure(cfg);
    cfg.default_service(web::to(meta::not_found));
}

/// The route table, written once: it registers every route, lists every operation and the
/// competence it needs as data (`ROUTES`, `ACCESS`) and names every handler in the OpenAPI document generated from their types
/// (`ApiDoc`), so a test checks the document against the table both ways.
macro_rules! route_table {
    ($($path:literal => [$($method:ident $module:ident :: $handler:ident : $access:ident),+ $(,)?]),+ $(,)?) => {
        /// Every operation served: (HTTP method in lower case, path pattern).
        pub const ROUTES: &[(&str, &str)] = &[$($((stringify!($method), $path)),+),+];

        /// What every operation needs: the role matrix, as data. `auth::guard`
        /// enforces it before any extractor runs.
        pub const ACCESS: &[(&str, &str, Competence)] =
            &[$($((stringify!($method), $path, Competence::$access)),+),+];

        /// Every operation's id in the OpenAPI document: `module.handler`, unique.
        pub const OPERATION_IDS: &[(&str, &str, &str)] = &[$($((
            stringify!($method),
            $path,
            concat!(stringify!($module), ".", stringify!($handler)),
        )),+),+];

        fn register_routes(cfg: &mut web::ServiceConfig) {
            $(cfg.service(resource($path, vec![$(web::$method().to($module::$handler)),+]));)+
        }

        /// The OpenAPI 3.1 document, generated from each handler's `#[utoipa::path]` and the
        /// request and response types it names.
        #[derive(utoipa::OpenApi)]
        #[openapi(paths($($($module::$handler),+),+), modifiers(&Contract))]
        pub struct ApiDoc;
    };
}

route_table! {
    "/health" => [get meta::health: Public],
    "/.well-known/selo-keys.json" => [get meta::jwks: Public],
    // The scans come first: a request is matched against the routes in this order, and a
    // pattern with a parameter is tried by a regular expression.
    "/api/v1/verify/pdf" => [post verify::api_pdf: Public],
    "/api/v1/verify/code/{code}" => [get verify::api_code: Public],
    "/api/v1/verify/{token}" => [get verify::api_token: Public],
    "/api/v1/verify/{token}/photo" => [get verify::api_photo: Public],
    "/v" => [get verify::page_code: Public],
    "/v/pdf" => [post verify::page_pdf: Public],
    "/v/{token}" => [get verify::page_token: Public],
    "/v/{token}/documento.pdf" => [get verify::validator_pdf: Public],
    "/api/v1/audit/checkpoints" => [get meta::audit_checkpoints: Public],
    "/api/v1/status-list" => [get verify::status_list: Public],
    "/api/v2/status-list" => [get verify::status_list_v2: Public],
    "/api/v1/drivers" => [post registry::create_driver: IssueRideHailing],
    "/api/v1/vehicles" => [post registry::create_vehicle: IssueRideHailing],
    "/api/v1/drivers/{id}" => [get registry::get_driver: ReadRideHailing],
    "/api/v1/drivers/{id}/photo" => [put registry::put_driver_photo: IssueRideHailing],
    "/api/v1/vehicles/by-plate/{plate}" => [get verify::by_plate: ReadRideHailing],
    "/api/v1/vehicles/{id}" => [get registry::get_vehicle: ReadRideHailing],
    "/api/v1/app-authorizations" => [post authorizations::grant: IssueRideHailing],
    "/api/v1/app-authorizations/{id}" => [get authorizations::get: ReadRideHailing],
    "/api/v1/app-authorizations/{id}/revocation" => [post authorizations::revoke: IssueRideHailing],
    "/api/v1/app-authorizations/{id}/renewal" => [post renewal::renew: IssueRideHailing],
    "/api/v1/app-authorization-checks" => [post grant_check::check: IssueRideHailing],
    "/api/v1/app-grant-reviews" => [get reviews::pending: ReadRideHailing],
    "/api/v1/app-grant-reviews/{id}" => [get reviews::get: ReadRideHailing],
    "/api/v1/app-grant-reviews/{id}/decision" => [post authorizations::decide_review: IssueRideHailing],
    "/api/v1/documents/{id}" => [get authorizations::document: ReadRideHailing],
    "/api/v1/documents/{id}/print" => [get authorizations::document_print: IssueRideHailing],
    "/api/v1/openapi.json" => [get meta::openapi: Public],
    "/api/v1/me" => [get meta::me: SignedIn],
    "/api/v1/upf-values/{year}" => [put autos::set_upf: Calendar],
    "/api/v1/app-infraction-autos" => [post autos::create: InspectRideHailing],
    "/api/v1/app-infraction-auto-checks" => [post autos::check: InspectRideHailing],
    "/api/v1/app-infraction-autos/{id}" => [get autos::get: ReadRideHailing],
    "/api/v1/app-infraction-autos/{id}/history" => [get history::auto: ReadRideHailing],
    "/api/v1/app-infraction-autos/{id}/acts" => [post autos::act: IssueRideHailing],
    "/api/v1/app-infraction-autos/{id}/act-checks" => [post autos::check_act: IssueRideHailing],
    "/api/v1/app-infraction-autos/{id}/notice" => [post autos::notice: InspectRideHailing],
    "/api/v1/app-infraction-autos/{id}/notification" => [post autos::notify: IssueRideHailing],
    "/api/v1/app-infraction-autos/{id}/electronic-notice" => [get electronic_notice::get: ReadRideHailing, post electronic_notice::send: IssueRideHailing],
    "/api/v1/app-infraction-autos/{id}/notification/rectification" => [post autos::rectify_notification: IssueRideHailing],
    "/api/v1/drivers/{id}/data-changes" => [post registry::data_change: IssueRideHailing],
    "/api/v1/drivers/{id}/register-acts" => [post registry::driver_register_act: IssueRideHailing],
    "/api/v1/vehicles/{id}/owner" => [post registry::declare_owner: IssueRideHailing],
    "/api/v1/vehicles/{id}/register-acts" => [post registry::vehicle_register_act: IssueRideHailing],
    "/api/v1/drivers/{id}/record" => [post registry::file_record: IssueRideHailing],
    "/api/v1/platforms" => [post platforms::create: IssueRideHailing],
    "/api/v1/platforms/{id}" => [get platforms::get: ReadRideHailing],
    "/api/v1/platforms/{id}/regularization-notices" => [post platforms::create_notice: IssueRideHailing],
    "/api/v1/platforms/{id}/regularization-notices/{notice}/regularization" => [post platforms::cure_notice: IssueRideHailing],
    "/api/v1/platforms/{id}/credentials" => [post platform_api::issue_credential: IssueRideHailing],
    "/api/v1/platforms/{id}/credentials/{credential}/revocation" => [post platform_api::revoke_credential: IssueRideHailing],
    "/api/v1/platform/drivers" => [get platform_api::list_drivers: Platform, post platform_api::register_driver: Platform],
    "/api/v1/platform/driver-departures" => [post platform_api::end_driver: Platform],
    "/api/v1/platform/webhook" => [get platform_api::get_webhook: Platform, put platform_api::put_webhook: Platform],
    "/api/v1/platform/monthly-reports/{period}" => [put platform_files::put_monthly_report: Platform],
    "/api/v1/platform/data-requests" => [get platform_files::list_data_requests: Platform],
    "/api/v1/platform/data-requests/{id}/delivery" => [put platform_files::put_data_request_delivery: Platform],
    "/api/v1/platforms/{id}/files" => [get platform_files::list_files: ReadRideHailing],
    "/api/v1/platform-files/{id}" => [get platform_files::download: ReadRideHailing],
    "/api/v1/platforms/{id}/vehicle-suspension-notices" => [post platform_api::notify_vehicle_suspension: IssueRideHailing],
    "/api/v1/platforms/{id}/data-requests" => [post platforms::create_data_request: IssueRideHailing],
    "/api/v1/data-requests/{id}" => [get platforms::get_data_request: ReadRideHailing],
    "/api/v1/data-requests/{id}/delivery" => [post platforms::record_delivery: IssueRideHailing],
    "/api/v1/drivers/{id}/history" => [get history::driver: ReadRideHailing],
    "/api/v1/vehicles/{id}/history" => [get history::vehicle: ReadRideHailing],
    "/api/v1/app-authorizations/{id}/history" => [get history::authorization: ReadRideHailing],
    "/api/v1/app-authorizations/{id}/certidoes" => [post authorizations::certidao: IssueRideHailing],
    "/api/v1/app-authorizations/{id}/vehicle-substitutions" => [post authorizations::substitute_vehicle: IssueRideHailing],
    "/api/v1/app-authorizations/{id}/substitution-checks" => [post authorizations::check_substitution: IssueRideHailing],
    "/api/v1/app-authorizations/{id}/vistoria-summons" => [post authorizations::vistoria_summons: IssueRideHailing],
    "/api/v1/app-authorizations/{id}/vistorias" => [post authorizations::vistoria: IssueRideHailing],
    "/api/v1/app-authorizations/{id}/vistoria-checks" => [post authorizations::check_vistoria: IssueRideHailing],
    "/api/v1/app-authorizations/{id}/sanctions" => [post authorizations::sanction: IssueRideHailing],
    "/api/v1/app-infractions" => [get authorizations::infractions: Public],
    "/api/v1/legal-bases" => [get legal_bases::list: Public],
    "/api/v1/legal-bases/ride-hailing" => [post legal_bases::activate_ride_hailing: IssueRideHailing],
    "/api/v1/legal-bases/ride-hailing/suspensions" => [post legal_bases::suspend_ride_hailing: IssueRideHailing],
    "/api/v1/legal-bases/charter" => [post legal_bases::activate_charter: IssueCharter],
    "/api/v1/legal-bases/charter/suspensions" => [post legal_bases::suspend_charter: IssueCharter],
    "/api/v1/calendar/closed-days" => [post calendar::add_closed_days: Calendar],
    "/api/v1/calendar/{year}" => [get calendar::year: Public],
    "/api/v1/deadlines" => [get calendar::deadline: Public],
    "/api/v1/charter/companies" => [post charter::create_company: IssueCharter],
    "/api/v1/charter/company-checks" => [post charter::check_company: IssueCharter],
    "/api/v1/charter/companies/{id}" => [get charter::get_company: ReadCharter],
    "/api/v1/charter/companies/{id}/checklist" => [post charter::file_checklist: IssueCharter],
    "/api/v1/charter/companies/{id}/termos" => [post charter::grant_termo: IssueCharter],
    "/api/v1/charter/companies/{id}/termo-checks" => [post charter::check_termo: IssueCharter],
    "/api/v1/charter/companies/{id}/sanctions" => [post charter::apply_sanction: IssueCharter],
    "/api/v1/charter/companies/{id}/vehicles" => [post charter::create_vehicle: IssueCharter],
    "/api/v1/charter/companies/{id}/vehicle-checks" => [post charter::check_vehicle: IssueCharter],
    "/api/v1/charter/companies/{id}/drivers" => [post charter::create_driver: IssueCharter],
    "/api/v1/charter/companies/{id}/driver-checks" => [post charter::check_driver: IssueCharter],
    "/api/v1/charter/companies/{id}/contracts" => [post charter::create_contract: IssueCharter],
    "/api/v1/charter/companies/{id}/contract-checks" => [post charter::check_contract: IssueCharter],
    "/api/v1/charter/companies/{id}/substitutions" => [post charter::authorize_substitution: IssueCharter],
    "/api/v1/charter/companies/{id}/autos" => [post charter::create_auto: InspectCharter],
    "/api/v1/charter/companies/{id}/auto-checks" => [post charter::check_auto: InspectCharter],
    "/api/v1/charter/vehicles/by-plate/{plate}" => [get charter::vehicle_by_plate: ReadCharter],
    "/api/v1/charter/vehicles/{id}" => [get charter::get_vehicle: ReadCharter],
    "/api/v1/charter/vehicles/{id}/itv" => [post charter::file_itv: IssueCharter],
    "/api/v1/charter/vehicles/{id}/documents" => [post charter::file_vehicle_documents: IssueCharter],
    "/api/v1/charter/vehicles/{id}/vistorias" => [post charter::record_vistoria: IssueCharter],
    "/api/v1/charter/vehicles/{id}/vistoria-checks" => [post charter::check_vistoria: IssueCharter],
    "/api/v1/charter/vehicles/{id}/baixa" => [post charter::baixa_vehicle: IssueCharter],
    "/api/v1/charter/drivers/{id}" => [get charter::get_driver: ReadCharter],
    "/api/v1/charter/drivers/{id}/documents" => [post charter::file_driver_documents: IssueCharter],
    "/api/v1/charter/drivers/{id}/baixa" => [post charter::baixa_driver: IssueCharter],
    "/api/v1/charter/contracts/{id}/end" => [post charter::end_contract: IssueCharter],
    "/api/v1/charter/contracts/{id}/trips" => [post charter::file_trip: IssueCharter],
    "/api/v1/charter/autos" => [get charter::list_autos: ReadCharter],
    "/api/v1/charter/autos/{id}" => [get charter::get_auto: ReadCharter],
    "/api/v1/charter/autos/{id}/acts" => [post charter::procedure_act: IssueCharter],
    "/api/v1/charter/autos/{id}/act-checks" => [post charter::check_procedure_act: IssueCharter],
    "/api/v1/charter/autos/{id}/notice" => [post charter::issue_notice: InspectCharter],
    "/api/v1/charter/certidoes" => [post charter::issue_certidao: IssueCharter],
    "/api/v1/charter/infractions" => [get charter::infractions: Public],
    "/api/v1/charter/transition" => [get charter::transition: Public],
    "/api/v1/charter/documents/{id}" => [get charter::document_pdf: SignedIn],
    "/api/v1/charter/{entity}/{id}/history" => [get charter::history: ReadCharter],
    "/api/v1/charter/{entity}/{id}/data-changes" => [post charter::data_change: IssueCharter],
    // Literal routes before `/api/v1/verify/{token}`, which would otherwise take them.
}

/// Reads the legal bases again, beside the request, once the register changed since they were
/// read (an activation on another node is in force here within the moment a
/// reading takes; one on this node, at once, as its use case reads them itself). The request
/// never waits for the reading, so a slow or frozen database costs it nothing here.
pub async fn legal_bases_middleware(
    req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<ServiceResponse<impl actix_web::body::MessageBody>, actix_web::Error> {
    if let Some(state) = req.app_data::<web::Data<AppState>>()
        && state.legal_bases_stale()
    {
        let state = state.get_ref().clone();
        actix_web::rt::spawn(async move {
            if let Err(e) = state.refresh_legal_bases().await {
                tracing::error!(error = %e, "legal bases not read again; the last read stay in force");
            }
        });
    }
    next.call(req).await
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
            let elapsed = started.elapsed();
            tracing::info!(
                request_id = %id,
                method = %method,
                route = %pattern,
                status = res.status().as_u16(),
                micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX),
                "request"
            );
            if let Some(state) = res.request().app_data::<web::Data<AppState>>() {
                state.metrics.request(
                    pattern,
                    method.as_str(),
                    res.status().as_u16(),
                    elapsed.as_secs_f64(),
                );
            }
            if let Ok(v) = HeaderValue::from_str(&header_id) {
                res.headers_mut()
                    .insert(HeaderName::from_static("x-request-id"), v);
            }
            res
        })
    })
}
