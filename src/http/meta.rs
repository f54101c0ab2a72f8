//! `GET /health`, `GET /.well-known/selo-keys.json` and `GET /api/v1/openapi.json`.

use actix_web::{HttpResponse, web};
use serde::Serialize;

use super::problem::ApiError;
use crate::domain::officials::Role;
use crate::state::AppState;

/// Whether the service and its database answer.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Health {
    /// `ok` or `degraded`.
    status: &'static str,
    /// `ok` or `unreachable`.
    database: &'static str,
    /// `sqlite` or `postgres`.
    backend: &'static str,
}

/// The service's health: 200 when the database answers, 503 otherwise.
#[utoipa::path(get, path = "/health", tag = "meta",
    responses(
        (status = 200, description = "Serviço e banco de dados respondem", body = Health),
        (status = 503, description = "Banco de dados inacessível", body = Health),
    ))]
pub async fn health(state: web::Data<AppState>) -> HttpResponse {
    // Answered within a second, whatever the database does.
    let ping = tokio::time::timeout(std::time::Duration::from_millis(800), state.store.ping())
        .await
        .unwrap_or_else(|_| {
            Err(crate::storage::StorageError::Unavailable(
                sqlx::Error::PoolTimedOut,
            ))
        });
    match ping {
        Ok(()) => HttpResponse::Ok().json(Health {
            status: "ok",
            database: "ok",
            backend: state.store.backend(),
        }),
        Err(e) => {
            tracing::error!(error = %e, "health check: database unreachable");
            HttpResponse::ServiceUnavailable().json(Health {
                status: "degraded",
                database: "unreachable",
                backend: state.store.backend(),
            })
        }
    }
}

/// RFC 7517 JWK Set of every key that verifies selo documents, current and retired.
#[utoipa::path(get, path = "/.well-known/selo-keys.json", tag = "verification",
    responses((status = 200, description = "JWK Set (RFC 7517) das chaves Ed25519 (OKP) que verificam os documentos",
        content_type = "application/jwk-set+json", body = serde_json::Value)))]
pub async fn jwks(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/jwk-set+json")
        .insert_header(("Cache-Control", "public, max-age=300"))
        .insert_header(("Access-Control-Allow-Origin", "*"))
        .body(state.keys.public.to_jwks().to_string())
}

/// The audit chain's signed checkpoints.
#[derive(Serialize, utoipa::ToSchema)]
pub struct AuditCheckpoints {
    /// How a row's hash is made and how to check a checkpoint, in one sentence.
    pub method: &'static str,
    /// Newest first, at most 400.
    pub checkpoints: Vec<crate::issuance::audit::Checkpoint>,
}

/// The signed checkpoints of the audit log's hash chain, newest first: keep a copy outside
/// the municipality's database, and `selo audit verify --checkpoints FILE` detects any
/// rewrite of the history before them.
#[utoipa::path(get, path = "/api/v1/audit/checkpoints", tag = "verification",
    responses((status = 200, description = "Pontos de controle assinados (COSE_Sign1) da cadeia de hashes do histórico", body = AuditCheckpoints)))]
pub async fn audit_checkpoints(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let checkpoints = crate::issuance::audit::checkpoints(&state.store).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(AuditCheckpoints {
            method: "hash = SHA-256 do JSON [\"selo-audit-v1\", hash anterior, entity_type, entity_id, kind, actor, reason, legal_basis_version, occurred_at (RFC 3339, microssegundos, Z), data]; token = COSE_Sign1 (EdDSA, chaves de /.well-known/selo-keys.json) sobre {v, t, day, e, n, h, at}",
            checkpoints,
        }))
}

pub async fn not_found() -> Result<HttpResponse, ApiError> {
    Err(ApiError::NotFound("Endereço não encontrado.".into()))
}

/// `GET /metrics`: the node's metrics, for the operator's token only (404 when none is set,
/// 401 for another).
pub async fn metrics(
    state: web::Data<AppState>,
    cache: web::Data<crate::verification::cache::VerdictCache>,
    req: actix_web::HttpRequest,
) -> HttpResponse {
    let Some(token) = state.settings.metrics_token.as_deref() else {
        return actix_web::ResponseError::error_response(&ApiError::NotFound(
            "Endereço não encontrado.".into(),
        ));
    };
    let sent = req
        .headers()
        .get(actix_web::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default();
    if !bool::from(subtle::ConstantTimeEq::ct_eq(
        sent.as_bytes(),
        token.as_bytes(),
    )) {
        return actix_web::ResponseError::error_response(&ApiError::Unauthorized(
            "As métricas pedem o token do operador (SELO_METRICS_TOKEN).".into(),
        ));
    }
    let sampled = match state.store.operational_readings().await {
        Ok(
            [
                pool_size,
                pool_idle,
                mail_queued,
                mail_failed,
                webhooks_queued,
            ],
        ) => Some(crate::metrics::Sampled {
            pool_size,
            pool_idle,
            mail_queued,
            mail_failed,
            webhooks_queued,
            status_list_age: crate::verification::status_list::age_seconds(
                &cache,
                state.clock.now(),
            ),
        }),
        Err(e) => {
            tracing::warn!(error = %e, "metrics: the database readings failed");
            None
        }
    };
    match state.metrics.encode(sampled.as_ref()) {
        Ok(text) => HttpResponse::Ok()
            .content_type("application/openmetrics-text; version=1.0.0; charset=utf-8")
            .insert_header(("Cache-Control", "no-store"))
            .body(text),
        Err(_) => HttpResponse::InternalServerError().finish(),
    }
}

/// A method the resource does not serve: 405 with `Allow` listing those it does.
pub fn method_not_allowed(allow: &str) -> HttpResponse {
    let mut res = actix_web::ResponseError::error_response(&ApiError::MethodNotAllowed);
    if let Ok(v) = actix_web::http::header::HeaderValue::from_str(allow) {
        res.headers_mut().insert(actix_web::http::header::ALLOW, v);
    }
    res
}

/// This document: the API in OpenAPI 3.1, generated from the handlers' types.
#[utoipa::path(get, path = "/api/v1/openapi.json", tag = "meta",
    responses((status = 200, description = "Documento OpenAPI 3.1", body = serde_json::Value)))]
pub async fn openapi() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(super::openapi::document())
}

/// The official a token stands for.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Me {
    id: String,
    login: String,
    name: String,
    /// Role names: `admin`, `ride_hailing_issuer`, `charter_issuer`, `inspector`, `auditor`.
    roles: Vec<&'static str>,
}

/// Who the presented token signs in as, and with which roles.
#[utoipa::path(get, path = "/api/v1/me", tag = "officials", security(("bearer" = [])),
    responses((status = 200, description = "O(a) servidor(a) do token", body = Me)))]
pub async fn me(official: super::auth::Official) -> HttpResponse {
    HttpResponse::Ok().json(Me {
        id: official.actor,
        login: official.account.login.to_string(),
        name: official.name,
        roles: official.roles.iter().map(Role::as_str).collect(),
    })
}
