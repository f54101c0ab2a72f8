//! One HTTP error type rendering `application/problem+json` (RFC 9457) with the failed
//! fields or legal requirements and the request id. 5xx bodies carry no internals.

use actix_web::http::StatusCode;
use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;

use crate::domain::rule::RuleFailure;
use crate::issuance::UseCaseError;

tokio::task_local! {
    /// The id of the request being served, set by the request-id middleware.
    pub static REQUEST_ID: String;
}

fn current_request_id() -> Option<String> {
    REQUEST_ID.try_with(Clone::clone).ok()
}

/// One failed field or legal requirement.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct ProblemItem {
    pub field: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub article: Option<String>,
    pub message: String,
}

impl ProblemItem {
    pub fn field(field: &str, message: impl Into<String>) -> Self {
        Self {
            field: field.to_owned(),
            rule: None,
            article: None,
            message: message.into(),
        }
    }
}

impl From<RuleFailure> for ProblemItem {
    fn from(f: RuleFailure) -> Self {
        Self {
            field: f.field.to_owned(),
            rule: Some(f.rule.into_owned()),
            article: Some(f.article.into_owned()),
            message: f.message,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("invalid input")]
    Invalid(Vec<ProblemItem>),
    #[error("legal requirements not met")]
    Requirements(Vec<ProblemItem>),
    #[error("bad request: {0}")]
    BadRequest(String),
    #[error("not found: {0}")]
    NotFound(String),
    #[error("method not allowed")]
    MethodNotAllowed,
    #[error("conflict: {0}")]
    Conflict(String, Vec<ProblemItem>),
    #[error("unauthorized")]
    Unauthorized(String),
    /// Signed in, but outside the official's roles: the sentence names the roles needed.
    #[error("forbidden")]
    Forbidden {
        detail: String,
        roles: &'static [crate::domain::officials::Role],
    },
    #[error("payload too large")]
    PayloadTooLarge,
    #[error("unsupported media type")]
    UnsupportedMediaType(String),
    #[error("service unavailable")]
    Unavailable(String),
    /// Too many requests of this kind at once or from this client; retry after the seconds
    /// given (`Retry-After`).
    #[error("too many requests")]
    TooManyRequests { detail: String, retry_after: u64 },
    /// The request body did not arrive in time.
    #[error("request timeout")]
    RequestTimeout(String),
    #[error("internal error")]
    Internal,
}

/// An error, as RFC 9457 `application/problem+json`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Problem<'a> {
    /// The problem's kind, e.g. `/problems/legal-requirements`.
    #[serde(rename = "type")]
    kind: &'a str,
    title: &'a str,
    status: u16,
    /// What went wrong, in Portuguese, for the official or citizen reading it.
    detail: &'a str,
    /// The failed fields or legal requirements, each with its rule and article.
    #[serde(skip_serializing_if = "<[ProblemItem]>::is_empty")]
    errors: &'a [ProblemItem],
    #[serde(skip_serializing_if = "Option::is_none")]
    request_id: Option<String>,
    /// On 403: the roles any one of which the operation needs.
    #[serde(skip_serializing_if = "Option::is_none")]
    required_roles: Option<Vec<&'static str>>,
}

impl ApiError {
    /// The pt-BR sentence of this error, for a page that shows it.
    pub fn detail(&self) -> String {
        self.parts().2
    }

    fn parts(&self) -> (&'static str, &'static str, String, &[ProblemItem]) {
        match self {
            Self::Invalid(items) => (
                "/problems/invalid-input",
                "Dados inválidos",
                "Um ou mais campos são inválidos.".into(),
                items,
            ),
            Self::Requirements(items) => (
                "/problems/legal-requirements",
                "Requisitos legais não atendidos",
                "O pedido não atende a um ou mais requisitos da lei; veja a lista em `errors`."
                    .into(),
                items,
            ),
            Self::BadRequest(d) => (
                "/problems/bad-request",
                "Requisição inválida",
                d.clone(),
                &[],
            ),
            Self::NotFound(d) => ("/problems/not-found", "Não encontrado", d.clone(), &[]),
            Self::MethodNotAllowed => (
                "/problems/method-not-allowed",
                "Método não permitido",
                "Este endereço não aceita este método HTTP.".into(),
                &[],
            ),
            Self::Conflict(d, items) => ("/problems/conflict", "Conflito", d.clone(), items),
            Self::Unauthorized(d) => ("/problems/unauthorized", "Não autorizado", d.clone(), &[]),
            Self::Forbidden { detail, .. } => (
                "/problems/forbidden",
                "Fora da competência",
                detail.clone(),
                &[],
            ),
            Self::PayloadTooLarge => (
                "/problems/payload-too-large",
                "Conteúdo grande demais",
                "O corpo da requisição excede o tamanho máximo aceito.".into(),
                &[],
            ),
            Self::UnsupportedMediaType(d) => (
                "/problems/unsupported-media-type",
                "Tipo de conteúdo não suportado",
                d.clone(),
                &[],
            ),
            Self::Unavailable(d) => (
                "/problems/unavailable",
                "Serviço indisponível",
                d.clone(),
                &[],
            ),
            Self::TooManyRequests { detail, .. } => (
                "/problems/too-many-requests",
                "Muitas requisições",
                detail.clone(),
                &[],
            ),
            Self::RequestTimeout(d) => (
                "/problems/request-timeout",
                "Tempo esgotado",
                d.clone(),
                &[],
            ),
            Self::Internal => (
                "/problems/internal",
                "Erro interno",
                "Ocorreu um erro interno. Nada foi gravado pela metade; tente novamente.".into(),
                &[],
            ),
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::Invalid(_) | Self::Requirements(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::Conflict(..) => StatusCode::CONFLICT,
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::Forbidden { .. } => StatusCode::FORBIDDEN,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::RequestTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            Self::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let status = self.status_code();
        let (kind, title, detail, errors) = self.parts();
        let body = Problem {
            kind,
            title,
            status: status.as_u16(),
            detail: &detail,
            errors,
            request_id: current_request_id(),
            required_roles: match self {
                Self::Forbidden { roles, .. } => Some(roles.iter().map(|r| r.as_str()).collect()),
                _ => None,
            },
        };
        let mut res = HttpResponse::build(status);
        res.content_type(ContentType(
            "application/problem+json".parse().unwrap_or(mime_json()),
        ));
        if matches!(self, Self::Unauthorized(_)) {
            res.insert_header(("WWW-Authenticate", "Bearer"));
        }
        if let Self::TooManyRequests { retry_after, .. } = self {
            res.insert_header(("Retry-After", retry_after.to_string()));
        }
        if matches!(self, Self::RequestTimeout(_) | Self::TooManyRequests { .. }) {
            // The rest of a refused body may still be arriving: do not keep reading it.
            res.insert_header(("Connection", "close"));
        }
        res.body(serde_json::to_vec(&body).unwrap_or_default())
    }
}

fn mime_json() -> actix_web::mime::Mime {
    actix_web::mime::APPLICATION_JSON
}

/// The one mapping of a use case's failure to problem+json, for every operation.
impl From<UseCaseError> for ApiError {
    fn from(e: UseCaseError) -> Self {
        match e {
            UseCaseError::Rules(failures) => {
                Self::Requirements(failures.into_iter().map(ProblemItem::from).collect())
            }
            UseCaseError::NotFound(detail) => Self::NotFound(detail.to_owned()),
            UseCaseError::UnknownReference { field, message }
            | UseCaseError::Inconsistent { field, message } => {
                Self::Invalid(vec![ProblemItem::field(field, message)])
            }
            UseCaseError::Concurrent(detail) => Self::Conflict(detail.to_owned(), vec![]),
            UseCaseError::Duplicate { field, message } => Self::Conflict(
                "Já existe um cadastro com este dado.".into(),
                vec![ProblemItem::field(field, message)],
            ),
            UseCaseError::Conflict { detail, field } => Self::Conflict(
                detail,
                field
                    .map(|(f, m)| vec![ProblemItem::field(f, m)])
                    .unwrap_or_default(),
            ),
            UseCaseError::Storage(e) => e.into(),
            UseCaseError::SignerRevoked(e) => {
                tracing::error!(error = %e, "the signer's certificate is revoked; nothing issued");
                Self::Unavailable(
                    "O certificado da Prefeitura consta como revogado na lista de revogação da \
                     autoridade certificadora; nenhum documento foi emitido. Importe um \
                     certificado válido."
                        .into(),
                )
            }
            UseCaseError::Timestamp(e) => {
                // Nothing was committed and the reserved number was voided.
                tracing::warn!(error = %e, "no signature timestamp; nothing issued");
                Self::Unavailable(
                    "A autoridade de carimbo do tempo não respondeu; nenhum documento foi emitido. \
                     Tente novamente em alguns minutos."
                        .into(),
                )
            }
            e @ (UseCaseError::Render(_)
            | UseCaseError::PdfSignature(_)
            | UseCaseError::Encoding
            | UseCaseError::Internal(_)) => {
                // Nothing was committed and the reserved number was voided.
                tracing::error!(error = %e, "use case failed; nothing committed");
                Self::Internal
            }
        }
    }
}

impl From<crate::storage::StorageError> for ApiError {
    fn from(e: crate::storage::StorageError) -> Self {
        use crate::storage::StorageError as S;
        match e {
            S::Unavailable(_) => {
                tracing::error!(error = %e, "database unavailable");
                Self::Unavailable("O banco de dados está inacessível no momento.".into())
            }
            S::NotFound => Self::NotFound("Registro não encontrado.".into()),
            other => {
                tracing::error!(error = %other, "storage error");
                Self::Internal
            }
        }
    }
}
