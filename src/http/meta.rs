//! `GET /health` and `GET /.well-known/selo-keys.json`.

use actix_web::{HttpResponse, web};
use serde_json::json;

use super::problem::ApiError;
use crate::state::AppState;
use crate::storage::Repository;

pub async fn health(state: web::Data<AppState>) -> HttpResponse {
    match state.store.ping().await {
        Ok(()) => HttpResponse::Ok()
            .json(json!({"status": "ok", "database": "ok", "backend": state.store.backend()})),
        Err(e) => {
            tracing::error!(error = %e, "health check: database unreachable");
            HttpResponse::ServiceUnavailable()
                .json(json!({"status": "degraded", "database": "unreachable", "backend": state.store.backend()}))
        }
    }
}

/// RFC 7517 JWK Set of every key that verifies selo documents, current and retired.
pub async fn jwks(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/jwk-set+json")
        .insert_header(("Cache-Control", "public, max-age=300"))
        .insert_header(("Access-Control-Allow-Origin", "*"))
        .body(state.keys.public.to_jwks().to_string())
}

pub async fn not_found() -> Result<HttpResponse, ApiError> {
    Err(ApiError::NotFound("Endereço não encontrado.".into()))
}

pub async fn method_not_allowed() -> Result<HttpResponse, ApiError> {
    Err(ApiError::MethodNotAllowed)
}

/// `GET /api/v1/openapi.json`: the API described in OpenAPI 3.1 (`src/http/openapi.json`,
/// the integration suite checks that every operation in it is served).
pub async fn openapi() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(include_str!("openapi.json"))
}
