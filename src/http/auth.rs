//! Who may do what. Every route of the JSON API names the competence it needs in
//! the route table (`http::ACCESS`); [`guard`] runs on every resource before any extractor:
//! a public operation passes, any other needs `Authorization: Bearer` with a personal token
//! (or, outside production, the development token) whose official holds a role that grants
//! it — 401 without one, 403 naming the roles otherwise. The handler reads the official with
//! the [`Official`] extractor.

use std::future::{Ready, ready};

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{FromRequest, HttpMessage, HttpRequest, ResponseError, web};

use super::problem::ApiError;
use crate::domain::officials::{Competence, Roles};
use crate::issuance::officials::{BearerRefusal, authenticate_bearer};
use crate::issuance::ride_hailing::platform_access::{self, PlatformCaller};
use crate::state::AppState;

/// The official an in-process call of the back office acts as (`panel::gateway` is the only
/// code that creates it). It lives in a request's extensions, which a request from the network
/// cannot set, so the guard trusts it.
#[derive(Clone)]
pub struct InProcess(pub Official);

/// The official a request acts as; the extractor answers 401 when the route's guard let no
/// one in (a public route's handler asking for one).
#[derive(Debug, Clone)]
pub struct Official {
    /// Recorded on events, documents and number reservations as the actor: the official's id.
    pub actor: String,
    pub name: String,
    pub roles: Roles,
    /// The stored account.
    pub account: crate::storage::officials::Official,
}

impl Official {
    pub fn from_account(account: crate::storage::officials::Official) -> Self {
        Self {
            actor: account.id.to_string(),
            name: account.name.clone(),
            roles: account.roles.clone(),
            account,
        }
    }
}

impl Official {
    /// A check inside a handler whose route admits several laws (a document served by id):
    /// 403 naming the roles when the record's law is outside this official's competence.
    pub fn require(&self, competence: Competence) -> Result<(), ApiError> {
        if competence.allows(Some(&self.roles)) {
            Ok(())
        } else {
            Err(forbidden(competence))
        }
    }
}

fn forbidden(competence: Competence) -> ApiError {
    ApiError::Forbidden {
        detail: competence.refusal_pt(),
        roles: competence.roles(),
    }
}

impl FromRequest for Official {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(req.extensions().get::<Official>().cloned().ok_or_else(|| {
            ApiError::Unauthorized(
                "É preciso apresentar um token de acesso (Authorization: Bearer …).".into(),
            )
        }))
    }
}

/// The competence the matched route needs; `None` for a method the resource does not serve
/// (its default service answers 405).
fn competence_of(req: &ServiceRequest) -> Option<Competence> {
    let pattern = req.match_pattern()?;
    let method = req.method().as_str().to_ascii_lowercase();
    super::ACCESS
        .iter()
        .find(|(m, p, _)| *m == method && *p == pattern)
        .map(|(_, _, c)| *c)
}

/// Middleware on every resource of the route table: authenticates and checks the competence
/// before any extractor or handler runs.
pub async fn guard(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let competence = competence_of(&req);
    let Some(competence) = competence.filter(|c| *c != Competence::Public) else {
        return next
            .call(req)
            .await
            .map(ServiceResponse::map_into_left_body);
    };
    // The back office's in-process call (`panel::gateway`) comes with its signed-in official;
    // a request from the network never carries one.
    let in_process = req.extensions().get::<InProcess>().map(|p| p.0.clone());
    // Who is asking, put beside the request for the handler's extractor.
    let admitted = if competence == Competence::Platform {
        match in_process {
            // An official is never a platform, in the back office as through the API.
            Some(_) => Err(forbidden(competence)),
            None => platform_caller(&req).await.map(|caller| {
                req.extensions_mut().insert(caller);
            }),
        }
    } else {
        match in_process {
            Some(o) if competence.allows(Some(&o.roles)) => Ok(o),
            Some(_) => Err(forbidden(competence)),
            None => authorize(&req, competence).await,
        }
        .map(|official| {
            req.extensions_mut().insert(official);
        })
    };
    match admitted {
        Ok(()) => next
            .call(req)
            .await
            .map(ServiceResponse::map_into_left_body),
        Err(e) => {
            let (http, _) = req.into_parts();
            Ok(ServiceResponse::new(http, e.error_response()).map_into_right_body())
        }
    }
}

/// The platform of a request to a platform's operation, by its credential. An official's
/// valid token is 403 (not theirs to use); anything else is 401 and counts as a failure.
async fn platform_caller(req: &ServiceRequest) -> Result<PlatformCaller, ApiError> {
    let (state, client) = admitted(req)?;
    let presented = req
        .headers()
        .get(actix_web::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .unwrap_or_default();
    if let Some(caller) = platform_access::authenticate(state, presented).await? {
        return Ok(caller);
    }
    if !presented.is_empty()
        && !presented.starts_with(platform_access::TOKEN_PREFIX)
        && authenticate_bearer(state, presented).await?.is_ok()
    {
        return Err(forbidden(Competence::Platform));
    }
    state.rate_limits.auth_failed(client);
    Err(ApiError::Unauthorized(
        "É preciso apresentar a credencial da plataforma (Authorization: Bearer selo_plat_…), válida e não revogada."
            .into(),
    ))
}

impl FromRequest for PlatformCaller {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(
            req.extensions()
                .get::<PlatformCaller>()
                .cloned()
                .ok_or_else(|| {
                    ApiError::Unauthorized(
                        "É preciso apresentar a credencial da plataforma (Authorization: Bearer selo_plat_…)."
                            .into(),
                    )
                }),
        )
    }
}

/// The state and the client address of a request about to present a credential; an address
/// past its failed tokens is refused, token or not.
fn admitted(req: &ServiceRequest) -> Result<(&AppState, Option<std::net::IpAddr>), ApiError> {
    let state = req
        .app_data::<web::Data<AppState>>()
        .ok_or(ApiError::Internal)?;
    let client = state
        .rate_limits
        .client(req.peer_addr().map(|a| a.ip()), req.headers());
    state
        .rate_limits
        .before_auth(client)
        .map_err(super::limits::too_many)?;
    Ok((state, client))
}

async fn authorize(req: &ServiceRequest, competence: Competence) -> Result<Official, ApiError> {
    let (state, _) = admitted(req)?;
    let official = bearer_official(state, req.peer_addr().map(|a| a.ip()), req.headers())
        .await?
        .ok_or_else(|| {
            ApiError::Unauthorized(
                "É preciso apresentar um token de acesso (Authorization: Bearer …).".into(),
            )
        })?;
    if !competence.allows(Some(&official.roles)) {
        return Err(forbidden(competence));
    }
    Ok(official)
}

/// The official of a public route's request, when it presents a token (the
/// inspector tier of verification): `None` without `Authorization`, 401 for a token that is
/// not valid, so a client never mistakes a refused token for the public answer.
pub async fn optional_official(
    state: &AppState,
    req: &HttpRequest,
) -> Result<Option<Official>, ApiError> {
    bearer_official(state, req.peer_addr().map(|a| a.ip()), req.headers()).await
}

async fn bearer_official(
    state: &AppState,
    peer: Option<std::net::IpAddr>,
    headers: &actix_web::http::header::HeaderMap,
) -> Result<Option<Official>, ApiError> {
    let presented = headers
        .get(actix_web::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|v| !v.is_empty());
    let Some(presented) = presented else {
        return Ok(None);
    };
    // An address past its failed tokens is refused before its token is compared.
    let client = state.rate_limits.client(peer, headers);
    state
        .rate_limits
        .before_auth(client)
        .map_err(super::limits::too_many)?;
    match authenticate_bearer(state, presented).await? {
        Ok(o) => Ok(Some(Official::from_account(o))),
        Err(refusal) => {
            state.rate_limits.auth_failed(client);
            Err(ApiError::Unauthorized(match refusal {
                BearerRefusal::Invalid => "Token de acesso inválido ou revogado.".into(),
                BearerRefusal::Disabled => {
                    "A conta deste token está desativada; procure o(a) administrador(a).".into()
                }
            }))
        }
    }
}
