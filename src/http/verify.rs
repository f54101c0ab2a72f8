//! Public verification: `GET /api/v1/verify/{token}` (JSON), `GET /api/v1/verify/code/{code}`
//! (the short printed code), and the pt-BR pages `GET /v/{token}` and `GET /v?codigo=…` that a
//! phone opens when the QR code is scanned. Public tier: no names, no CPF (LGPD art. 6º, III).

use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use super::problem::ApiError;
use crate::documents::format;
use crate::state::AppState;
use crate::storage::DocumentKind;
use crate::verification::cache::VerdictCache;
use crate::verification::{
    PdfVerification, PublicDocument, Verdict, Verification, verify_code, verify_pdf_upload,
    verify_token,
};

fn status_for(v: Verdict) -> StatusCode {
    match v {
        Verdict::Malformed => StatusCode::BAD_REQUEST,
        Verdict::StatusUnavailable => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::OK,
    }
}

/// The verification of `token` now, from memory when it holds (`verification::cache`).
async fn verified(state: &AppState, cache: &VerdictCache, token: &str) -> Verification {
    verify_token(token, &state.keys.public, state, cache, state.clock.now()).await
}

/// Verifies a QR token (`COSE_Sign1`, base64url): signature, then the document's standing now.
#[utoipa::path(get, path = "/api/v1/verify/{token}", tag = "verification",
    params(("token" = String, Path, description = "O token COSE do QR code (base64url)")),
    responses(
        (status = 200, description = "Veredito (valid, expired, revoked, suspended, replaced, outdated, forged…)", body = Verification),
        (status = 400, description = "Token ilegível (`malformed`)", body = Verification),
        (status = 503, description = "Assinatura verificada, situação indisponível (`status_unavailable`)", body = Verification),
    ))]
pub async fn api_token(
    state: web::Data<AppState>,
    cache: web::Data<VerdictCache>,
    token: web::Path<String>,
) -> HttpResponse {
    let v = verified(&state, &cache, &token).await;
    HttpResponse::build(status_for(v.verdict))
        .insert_header(("Cache-Control", "no-store"))
        .json(v)
}

/// The signed status list: every document that does not verify `valid` now, as a tagged
/// `COSE_Sign1` over CBOR (README, "The status list"), for verifiers that work offline.
#[utoipa::path(get, path = "/api/v1/status-list", tag = "verification",
    responses(
        (status = 200, description = "COSE_Sign1 (CBOR, tag 18) assinado com as chaves do JWK Set: {v, t, iat, exp, docs: [{d, s, u?}]}", content_type = "application/cose", body = super::openapi::CoseFile),
        (status = 304, description = "A lista não mudou (`If-None-Match`)"),
        (status = 503, description = "O cadastro não respondeu e não há lista válida", body = super::problem::Problem),
    ))]
pub async fn status_list(
    state: web::Data<AppState>,
    cache: web::Data<VerdictCache>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let Some(list) =
        crate::verification::status_list::current(&state, &cache, state.clock.now()).await
    else {
        return Err(ApiError::Unavailable(
            "A lista de situações não pôde ser montada agora: o cadastro não respondeu. Tente de novo em instantes."
                .into(),
        ));
    };
    let unchanged = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',')
                .any(|t| t.trim() == list.etag || t.trim() == "*")
        });
    let mut res = if unchanged {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    res.insert_header((header::ETAG, list.etag.clone()))
        .insert_header(("Cache-Control", "public, max-age=60"))
        .insert_header(("Access-Control-Allow-Origin", "*"));
    Ok(if unchanged {
        res.finish()
    } else {
        res.content_type("application/cose")
            .body(list.bytes.to_vec())
    })
}

/// Verifies the short code printed under the QR code.
#[utoipa::path(get, path = "/api/v1/verify/code/{code}", tag = "verification",
    params(("code" = String, Path, description = "O código impresso no documento")),
    responses(
        (status = 200, description = "Veredito", body = Verification),
        (status = 400, description = "Código ilegível (`malformed`)", body = Verification),
        (status = 404, description = "Nenhum documento com este código (`unknown_document`)", body = Verification),
        (status = 503, description = "Situação indisponível (`status_unavailable`)", body = Verification),
    ))]
pub async fn api_code(state: web::Data<AppState>, code: web::Path<String>) -> HttpResponse {
    let v = verify_code(&code, &state, state.clock.now()).await;
    let status = match v.verdict {
        Verdict::UnknownDocument => StatusCode::NOT_FOUND,
        other => status_for(other),
    };
    HttpResponse::build(status)
        .insert_header(("Cache-Control", "no-store"))
        .json(v)
}

/// Largest PDF accepted for verification.
pub const MAX_PDF_BYTES: usize = 5 * 1024 * 1024;

/// A slot to receive and check one PDF (issue 14: at most `SELO_PDF_VERIFY_SLOTS` bodies are
/// held at once); none free is a 429 with `Retry-After`, answered before the body is read.
fn pdf_slot(state: &AppState) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
    state
        .pdf_slots
        .clone()
        .try_acquire_owned()
        .map_err(|_| ApiError::TooManyRequests {
            detail: "Muitas verificações de PDF em andamento; tente de novo em instantes.".into(),
            retry_after: 2,
        })
}

/// Reads an uploaded PDF within the upload deadline (408 otherwise).
async fn receive_upload(
    state: &AppState,
    req: &HttpRequest,
    payload: web::Payload,
) -> Result<Vec<u8>, ApiError> {
    let deadline = state.settings.limits.upload_deadline;
    tokio::time::timeout(deadline, read_upload(req, payload))
        .await
        .unwrap_or_else(|_| {
            Err(ApiError::RequestTimeout(format!(
                "O arquivo não chegou por inteiro em {} s; envie-o de novo.",
                deadline.as_secs()
            )))
        })
}

/// Reads an uploaded PDF: a multipart form (first file part, e.g. field `pdf`) or the raw
/// body. Refuses more than [`MAX_PDF_BYTES`].
async fn read_upload(req: &HttpRequest, payload: web::Payload) -> Result<Vec<u8>, ApiError> {
    use futures_util::StreamExt as _;
    let too_large = || ApiError::PayloadTooLarge;
    if req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok())
        .is_some_and(|n| n > MAX_PDF_BYTES + 64 * 1024)
    {
        return Err(too_large());
    }
    let is_multipart = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    let mut out = Vec::new();
    if is_multipart {
        let mut form = actix_multipart::Multipart::new(req.headers(), payload);
        while let Some(field) = form.next().await {
            let mut field =
                field.map_err(|_| ApiError::BadRequest("Formulário multipart inválido.".into()))?;
            if field
                .content_disposition()
                .and_then(|cd| cd.get_filename())
                .is_none()
            {
                continue; // not a file part
            }
            while let Some(chunk) = field.next().await {
                let chunk = chunk
                    .map_err(|_| ApiError::BadRequest("Falha ao receber o arquivo.".into()))?;
                if out.len() + chunk.len() > MAX_PDF_BYTES {
                    return Err(too_large());
                }
                out.extend_from_slice(&chunk);
            }
            break;
        }
    } else {
        let mut payload = payload;
        while let Some(chunk) = payload.next().await {
            let chunk =
                chunk.map_err(|_| ApiError::BadRequest("Falha ao receber o arquivo.".into()))?;
            if out.len() + chunk.len() > MAX_PDF_BYTES {
                return Err(too_large());
            }
            out.extend_from_slice(&chunk);
        }
    }
    if out.is_empty() {
        return Err(ApiError::BadRequest("Envie um arquivo PDF.".into()));
    }
    Ok(out)
}

async fn check_pdf(state: &AppState, pdf: &[u8]) -> PdfVerification {
    verify_pdf_upload(
        pdf,
        &state.keys.chain.root,
        &state.keys.public,
        state,
        state.clock.now(),
    )
    .await
}

/// `POST /api/v1/verify/pdf`: raw body (`application/pdf`) or multipart.
/// Checks the PAdES signature of an uploaded PDF and the standing of the document it carries.
#[utoipa::path(post, path = "/api/v1/verify/pdf", tag = "verification",
    request_body(description = "O PDF (até 5 MB), como corpo `application/pdf` ou parte de arquivo de um formulário multipart",
        content((super::openapi::PdfFile = "application/pdf"), (super::openapi::PdfUpload = "multipart/form-data"))),
    responses(
        (status = 200, description = "Veredito, com o resultado da assinatura do PDF", body = PdfVerification),
        (status = 400, description = "Arquivo que não é um PDF assinado legível (`malformed`)", body = PdfVerification),
        (status = 503, description = "Situação indisponível (`status_unavailable`)", body = PdfVerification),
    ))]
pub async fn api_pdf(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let _slot = pdf_slot(&state)?;
    let pdf = receive_upload(&state, &req, payload).await?;
    let v = check_pdf(&state, &pdf).await;
    Ok(HttpResponse::build(status_for(v.verdict))
        .insert_header(("Cache-Control", "no-store"))
        .json(v))
}

/// `POST /v/pdf`: the upload form of the verification page.
#[utoipa::path(post, path = "/v/pdf", tag = "verification",
    request_body(content = super::openapi::PdfUpload, description = "O PDF enviado pelo formulário da página", content_type = "multipart/form-data"),
    responses((status = 200, description = "Página de resultado (pt-BR)", content_type = "text/html", body = String),
        (status = "4XX", description = "Página com o veredito `malformed` ou arquivo recusado", content_type = "text/html", body = String),
        (status = "5XX", description = "Página com a situação indisponível", content_type = "text/html", body = String)))]
pub async fn page_pdf(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> HttpResponse {
    let upload = match pdf_slot(&state) {
        Ok(slot) => receive_upload(&state, &req, payload)
            .await
            .map(|pdf| (slot, pdf)),
        Err(e) => Err(e),
    };
    match upload {
        Ok((_slot, pdf)) => {
            let v = check_pdf(&state, &pdf).await;
            let as_token = Verification {
                verdict: v.verdict,
                checked_at: v.checked_at,
                document: v.document.clone(),
                reason: None,
                last_known: None,
            };
            let note = v.signature.as_ref().map(|s| s.detail.as_str());
            html(status_for(v.verdict), &page(&state, Some(&as_token), note))
        }
        Err(e) => {
            let note = match &e {
                ApiError::TooManyRequests { .. } | ApiError::RequestTimeout(_) => e.detail(),
                _ => "Não foi possível ler o arquivo enviado (máximo de 5 MB).".to_owned(),
            };
            refused_page(&state, &e, &note)
        }
    }
}

/// The page a phone opens when it scans the QR code.
#[utoipa::path(get, path = "/v/{token}", tag = "verification",
    params(("token" = String, Path, description = "O token COSE do QR code")),
    responses((status = 200, description = "Página de resultado (pt-BR), sem dados pessoais", content_type = "text/html", body = String),
        (status = "4XX", description = "Página com o veredito `malformed` ou arquivo recusado", content_type = "text/html", body = String),
        (status = "5XX", description = "Página com a situação indisponível", content_type = "text/html", body = String)))]
pub async fn page_token(
    state: web::Data<AppState>,
    cache: web::Data<VerdictCache>,
    token: web::Path<String>,
) -> HttpResponse {
    let v = verified(&state, &cache, &token).await;
    html(
        status_for(v.verdict),
        &page(&state, Some(&v), v.reason.as_deref()),
    )
}

#[derive(Deserialize, utoipa::IntoParams)]
pub struct CodeQuery {
    /// O código impresso no documento; sem ele, a página mostra o formulário.
    codigo: Option<String>,
}

/// The verification page: a form for the printed code, or the result for `?codigo=`.
#[utoipa::path(get, path = "/v", tag = "verification", params(CodeQuery),
    responses((status = 200, description = "Formulário ou resultado (pt-BR)", content_type = "text/html", body = String),
        (status = "4XX", description = "Página com o veredito `malformed` ou arquivo recusado", content_type = "text/html", body = String),
        (status = "5XX", description = "Página com a situação indisponível", content_type = "text/html", body = String)))]
pub async fn page_code(state: web::Data<AppState>, q: web::Query<CodeQuery>) -> HttpResponse {
    match q.codigo.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
        None => html(StatusCode::OK, &page(&state, None, None)),
        Some(code) => {
            let v = verify_code(code, &state, state.clock.now()).await;
            html(
                status_for(v.verdict),
                &page(&state, Some(&v), v.reason.as_deref()),
            )
        }
    }
}

/// A verification page refused (a rate limit, an upload not read): `note` says why, with the
/// error's status and, for a 429, its `Retry-After`.
pub(crate) fn refused_page(state: &AppState, e: &ApiError, note: &str) -> HttpResponse {
    let v = Verification {
        verdict: Verdict::Malformed,
        checked_at: state.clock.now(),
        document: None,
        reason: None,
        last_known: None,
    };
    let mut res = html(
        actix_web::ResponseError::status_code(e),
        &page(state, Some(&v), Some(note)),
    );
    if let ApiError::TooManyRequests { retry_after, .. } = e
        && let Ok(value) = header::HeaderValue::from_str(&retry_after.to_string())
    {
        res.headers_mut().insert(header::RETRY_AFTER, value);
    }
    res
}

fn html(status: StatusCode, body: &str) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header(("Cache-Control", "no-store"))
        .insert_header((
            "Content-Security-Policy",
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
        ))
        // No other site may frame the page (clickjacking); older browsers read this header.
        .insert_header(("X-Frame-Options", "DENY"))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .insert_header(("Referrer-Policy", "no-referrer"))
        .body(body.to_owned())
}

/// (css class, icon, headline, explanation) for a verdict.
fn banner(v: Verdict) -> (&'static str, &'static str, &'static str, &'static str) {
    match v {
        Verdict::Valid => (
            "ok",
            "✔",
            "AUTORIZADO",
            "Documento autêntico, emitido pela Prefeitura e em vigor.",
        ),
        Verdict::Expired => (
            "warn",
            "⚠",
            "VENCIDO",
            "Documento autêntico, mas a validade terminou. O veículo não está autorizado.",
        ),
        Verdict::Revoked => (
            "bad",
            "✖",
            "REVOGADO",
            "Documento autêntico, mas a autorização foi revogada ou cassada. O veículo não está autorizado.",
        ),
        Verdict::Suspended => (
            "bad",
            "✖",
            "SUSPENSO",
            "Documento autêntico, mas a autorização está suspensa: o veículo não pode prestar o serviço agora.",
        ),
        Verdict::Replaced => (
            "bad",
            "✖",
            "VEÍCULO SUBSTITUÍDO",
            "Documento autêntico, mas o veículo que ele identifica foi substituído na autorização: este documento não vale mais. O veículo autorizado leva adesivo e autorização novos.",
        ),
        Verdict::Outdated => (
            "warn",
            "⚠",
            "DESATUALIZADA",
            "Documento autêntico, mas a situação certificada mudou desde a emissão: peça uma certidão nova.",
        ),
        Verdict::Irregular => (
            "bad",
            "✖",
            "IRREGULAR",
            "Documento autêntico, mas há exigência pendente ou vencida (vistoria, inspeção, seguro ou autorização da empresa): o veículo não pode operar agora.",
        ),
        Verdict::InvalidSignature => (
            "bad",
            "✖",
            "FALSO OU ALTERADO",
            "A assinatura digital não confere: este documento não foi emitido assim pela Prefeitura.",
        ),
        Verdict::UnknownKey => (
            "bad",
            "✖",
            "NÃO RECONHECIDO",
            "Assinado por uma chave que a Prefeitura não publicou: não confie neste documento.",
        ),
        Verdict::Malformed => (
            "bad",
            "✖",
            "CÓDIGO INVÁLIDO",
            "Este código não é de um documento do selo. Confira se leu o QR code ou digitou o código corretamente.",
        ),
        Verdict::UnknownDocument => (
            "bad",
            "✖",
            "NÃO ENCONTRADO",
            "Não há documento com estes dados no cadastro da Prefeitura: não confie nele.",
        ),
        Verdict::StatusUnavailable => (
            "warn",
            "?",
            "SITUAÇÃO INDISPONÍVEL",
            "A assinatura é autêntica, mas o cadastro não pôde ser consultado agora. Tente novamente em instantes.",
        ),
    }
}

/// (label, what to compare) of the subject a document names.
fn subject_label(kind: DocumentKind) -> (&'static str, &'static str) {
    match kind {
        DocumentKind::CharterTermo | DocumentKind::CharterAuto => ("CNPJ", "o CNPJ da empresa"),
        DocumentKind::CharterCertidao | DocumentKind::RideHailingCertidao => {
            ("Registro", "o registro apresentado")
        }
        DocumentKind::RideHailingAuto => {
            ("Placa ou auto", "a placa do veículo ou o número do auto")
        }
        _ => ("Placa", "a placa do veículo"),
    }
}

/// The public data of a verified document, as the page prints it.
struct DocumentView {
    kind: &'static str,
    number: String,
    company: Option<String>,
    subject_label: &'static str,
    subject_check: &'static str,
    subject: String,
    valid_until: String,
    /// "Situação", or "Última situação" while the register does not answer.
    status_label: &'static str,
    /// When the last known status was read (`HH:MM`), while the register does not answer.
    status_as_of: Option<String>,
    status: &'static str,
    holds: &'static str,
    suspended_until: Option<String>,
}

impl DocumentView {
    fn of(doc: &PublicDocument) -> Self {
        let (subject_label, subject_check) = subject_label(doc.kind);
        Self {
            kind: doc.kind.label_pt(),
            number: doc.number.clone(),
            company: doc.company.clone(),
            subject_label,
            subject_check,
            subject: doc.plate.clone(),
            valid_until: format::date(doc.valid_until),
            status_label: "Situação",
            status_as_of: None,
            status: doc.status.label_pt(),
            holds: match doc.facts_hold {
                Some(true) => " · os fatos certificados continuam verdadeiros",
                Some(false) => " · a situação mudou desde a emissão",
                None => "",
            },
            // The last day of the suspension: it ends the day before `suspended_until`.
            suspended_until: doc
                .suspended_until
                .map(|u| format::date(u - chrono::Duration::days(1))),
        }
    }
}

/// One verdict as the page shows it.
struct ResultView<'a> {
    class: &'static str,
    icon: &'static str,
    headline: &'static str,
    text: &'static str,
    document: Option<DocumentView>,
    note: Option<&'a str>,
    checked_at: String,
}

/// `templates/pages/verify.html`: escaped by the template engine.
#[derive(Template)]
#[template(path = "pages/verify.html")]
struct VerifyPage<'a> {
    title: &'static str,
    result: Option<ResultView<'a>>,
    phone: &'a str,
}

fn page(state: &AppState, v: Option<&Verification>, note: Option<&str>) -> String {
    let result = v.map(|v| {
        let (class, icon, headline, text) = banner(v.verdict);
        ResultView {
            class,
            icon,
            headline,
            text,
            document: v.document.as_ref().map(|d| {
                let mut view = DocumentView::of(d);
                // Issue 14: a status read earlier never reads as the status now.
                if let Some(last) = &v.last_known {
                    view.status_label = "Última situação";
                    view.status_as_of = Some(format::time_local(last.as_of));
                }
                view
            }),
            note,
            checked_at: format::datetime_local(v.checked_at),
        }
    });
    let page = VerifyPage {
        title: v.map_or("Verificar documento", |v| banner(v.verdict).2),
        result,
        phone: &state.letterhead.ouvidoria_phone,
    };
    page.render().unwrap_or_else(|e| {
        tracing::error!(error = %e, "verification page did not render");
        "<!doctype html><title>Erro</title><p>Erro interno ao montar a página.</p>".to_owned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_text_is_escaped_by_the_template_engine() {
        let page = VerifyPage {
            title: "AUTORIZADO",
            result: Some(ResultView {
                class: "ok",
                icon: "✔",
                headline: "AUTORIZADO",
                text: "Documento autêntico.",
                document: Some(DocumentView {
                    kind: "Termo de Autorização",
                    number: "FRET-2026/000001".into(),
                    company: Some("<script>alert('x')</script> & Cia \"Ltda\"".into()),
                    subject_label: "CNPJ",
                    subject_check: "o CNPJ da empresa",
                    subject: "11.222.333/0001-81".into(),
                    valid_until: "20/11/2028".into(),
                    status_label: "Situação",
                    status_as_of: None,
                    status: "ativo",
                    holds: "",
                    suspended_until: None,
                }),
                note: Some("<img src=x>"),
                checked_at: "30/11/2026 12:00".into(),
            }),
            phone: "(66) 3401-9999",
        }
        .render()
        .unwrap();
        assert!(!page.contains("<script>"), "{page}");
        assert!(!page.contains("<img"), "{page}");
        assert!(
            page.contains("&#60;script&#62;") || page.contains("&lt;script&gt;"),
            "{page}"
        );
        assert!(page.contains("FRET-2026/000001"));
        assert!(page.contains("<h1>AUTORIZADO</h1>"));
    }
}
