//! Who may issue: officials presenting a bearer token. For now the one configured
//! `SELO_ADMIN_TOKEN`, compared in constant time.

use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use subtle::ConstantTimeEq;

use super::problem::ApiError;
use crate::state::AppState;

/// An authenticated official; the extractor answers 401 otherwise.
#[derive(Debug, Clone)]
pub struct Official {
    /// Recorded on events as the actor.
    pub actor: String,
}

fn check(req: &HttpRequest) -> Result<Official, ApiError> {
    let state = req
        .app_data::<web::Data<AppState>>()
        .ok_or(ApiError::Internal)?;
    // Issue 14: an address past its failed tokens is refused before its token is compared.
    let client = state
        .rate_limits
        .client(req.peer_addr().map(|a| a.ip()), req.headers());
    state
        .rate_limits
        .before_auth(client)
        .map_err(super::limits::too_many)?;
    let outcome = compare(state, req);
    if outcome.is_err() {
        state.rate_limits.auth_failed(client);
    }
    outcome
}

fn compare(state: &AppState, req: &HttpRequest) -> Result<Official, ApiError> {
    let Some(expected) = state.settings.admin_token.as_deref() else {
        return Err(ApiError::Unauthorized(
            "Nenhum token de emissão está configurado neste servidor (SELO_ADMIN_TOKEN).".into(),
        ));
    };
    let presented = req
        .headers()
        .get(actix_web::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    let Some(presented) = presented else {
        return Err(ApiError::Unauthorized(
            "É preciso apresentar um token de acesso (Authorization: Bearer …).".into(),
        ));
    };
    // Constant time over the bytes; a length mismatch is itself not secret.
    if bool::from(presented.as_bytes().ct_eq(expected.as_bytes())) {
        Ok(Official {
            actor: "admin".into(),
        })
    } else {
        Err(ApiError::Unauthorized("Token de acesso inválido.".into()))
    }
}

impl FromRequest for Official {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(check(req))
    }
}
