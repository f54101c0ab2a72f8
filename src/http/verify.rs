//! Public verification: `GET /api/v1/verify/{token}` (JSON), `GET /api/v1/verify/code/{code}`
//! (the short printed code), and the pt-BR pages `GET /v/{token}` and `GET /v?codigo=…` that a
//! phone opens when the QR code is scanned. Public tier: what a passenger needs to match the
//! car and driver, and no more (LGPD art. 6º, III).

pub(crate) mod page;

use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;

use super::problem::ApiError;
use crate::state::AppState;
use crate::verification::cache::VerdictCache;
use crate::verification::{
    PdfVerification, Scanned, Verdict, Verification, verify_code, verify_pdf_upload, verify_token,
    with_record,
};
use page::{Source, html};

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

/// The verification of what was scanned, with the inspector's record for an official who may
/// read the document's register.
async fn verified_for(
    state: &AppState,
    cache: &VerdictCache,
    scanned: Scanned<'_>,
    official: Option<&super::auth::Official>,
) -> Verification {
    let now = state.clock.now();
    let v = match scanned {
        Scanned::Token(token) => verified(state, cache, token).await,
        Scanned::Code(code) => verify_code(code, state, now).await,
    };
    match official {
        Some(o) => with_record(state, v, scanned, &o.roles, now).await,
        None => v,
    }
}

/// Verifies a QR token (`COSE_Sign1`, base64url): signature, then the document's standing now
/// — or, for a signed-in official, at the end of a past day (`as_of`).
#[utoipa::path(get, path = "/api/v1/verify/{token}", tag = "verification",
    params(("token" = String, Path, description = "O token COSE do QR code (base64url)"), super::authorizations::AsOfQuery),
    responses(
        (status = 200, description = "Veredito (valid, expired, revoked, suspended, replaced, outdated, forged…)", body = Verification),
        (status = 400, description = "Token ilegível (`malformed`); parâmetros de consulta inválidos (problem+json)", content((Verification = "application/json"), (super::problem::Problem = "application/problem+json"))),
        (status = 401, description = "`as_of` pedido sem credencial de servidor", content_type = "application/problem+json", body = super::problem::Problem),
        (status = 422, description = "`as_of` futuro, malformado ou anterior à emissão do documento", content_type = "application/problem+json", body = super::problem::Problem),
        (status = 503, description = "Assinatura verificada, situação indisponível (`status_unavailable`)", body = Verification),
    ))]
pub async fn api_token(
    state: web::Data<AppState>,
    cache: web::Data<VerdictCache>,
    token: web::Path<String>,
    req: HttpRequest,
    q: web::Query<super::authorizations::AsOfQuery>,
) -> Result<HttpResponse, ApiError> {
    let official = super::auth::optional_official(&state, &req).await?;
    if let Some(day) = q.day(&state)? {
        // A past day is an official's question (the Procuradoria's, a court's).
        let Some(official) = official else {
            return Err(ApiError::Unauthorized(
                "A situação em data passada é consultada só por servidores identificados.".into(),
            ));
        };
        let at = crate::domain::dates::end_of_local_day(day);
        let v = crate::verification::verify_token_as_of(&token, &state.keys.public, &state, at)
            .await
            .map_err(|_| super::authorizations::AsOfQuery::before_record("O documento"))?;
        let v = with_record(&state, v, Scanned::Token(&token), &official.roles, at).await;
        return Ok(HttpResponse::build(status_for(v.verdict))
            .insert_header(("Cache-Control", "no-store"))
            .json(v));
    }
    let v = verified_for(&state, &cache, Scanned::Token(&token), official.as_ref()).await;
    Ok(HttpResponse::build(status_for(v.verdict))
        .insert_header(("Cache-Control", "no-store"))
        .json(v))
}

/// The driver's photo of a valid ride-hailing authorization or sticker: served only
/// through its signed token and only while the verdict is `valid`.
#[utoipa::path(get, path = "/api/v1/verify/{token}/photo", tag = "verification",
    params(("token" = String, Path, description = "O token COSE do QR code (base64url)")),
    responses(
        (status = 200, description = "A foto do(a) motorista (JPEG, sem metadados)", content_type = "image/jpeg", body = super::openapi::JpegFile),
        (status = 404, description = "Sem foto: documento sem condutor, autorização fora de vigor ou nenhuma foto no cadastro", content_type = "application/problem+json", body = super::problem::Problem),
        (status = 503, description = "O cadastro não respondeu", content_type = "application/problem+json", body = super::problem::Problem),
    ))]
pub async fn api_photo(
    state: web::Data<AppState>,
    cache: web::Data<VerdictCache>,
    token: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let v = verified(&state, &cache, &token).await;
    if v.verdict == Verdict::StatusUnavailable {
        return Err(ApiError::Unavailable(
            "A situação do documento não pôde ser consultada agora; tente de novo em instantes."
                .into(),
        ));
    }
    let no_photo = || ApiError::NotFound("Não há foto a mostrar para este documento.".into());
    let shown = v
        .document
        .as_ref()
        .and_then(|d| d.driver.as_ref())
        .is_some_and(|d| d.photo_url.is_some());
    if v.verdict != Verdict::Valid || !shown {
        return Err(no_photo());
    }
    let payload =
        crate::signing::token::verify(&token, &state.keys.public).map_err(|_| no_photo())?;
    let status = state
        .store
        .document_status(payload.document_id)
        .await?
        .ok_or_else(no_photo)?;
    let jpeg = state
        .store
        .driver_photo(status.driver_id)
        .await?
        .ok_or_else(no_photo)?;
    Ok(HttpResponse::Ok()
        .content_type("image/jpeg")
        // Never kept by a browser or a proxy: the photo must not outlive the authorization.
        .insert_header(("Cache-Control", "no-store"))
        .insert_header(("Cross-Origin-Resource-Policy", "same-origin"))
        .body(jpeg))
}

/// The signed status list: every document that does not verify `valid` now, as a tagged
/// `COSE_Sign1` over CBOR (docs/verification-formats.md, "The status list"), for verifiers that work offline.
#[utoipa::path(get, path = "/api/v1/status-list", tag = "verification",
    responses(
        (status = 200, description = "COSE_Sign1 (CBOR, tag 18) assinado com as chaves do JWK Set: {v, t, iat, exp, docs: [{d, s, u?}]}", content_type = "application/cose", body = super::openapi::CoseFile),
        (status = 304, description = "A lista não mudou (`If-None-Match`)"),
        (status = 503, description = "O cadastro não respondeu e não há lista válida", content_type = "application/problem+json", body = super::problem::Problem),
    ))]
pub async fn status_list(
    state: web::Data<AppState>,
    cache: web::Data<VerdictCache>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let list =
        crate::verification::status_list::current(&state, &cache.into_inner(), state.clock.now())
            .await
            .ok_or_else(no_list)?;
    Ok(signed_answer(&req, &list.etag, Some(&list.bytes)))
}

fn no_list() -> ApiError {
    ApiError::Unavailable(
        "A lista de situações não pôde ser montada agora: o cadastro não respondeu. Tente de novo em instantes."
            .into(),
    )
}

/// A signed list (or delta) as served: 304 when `If-None-Match` names `etag` or there are no
/// `bytes` to send, else the bytes; cacheable for a minute by anyone.
fn signed_answer(req: &HttpRequest, etag: &str, bytes: Option<&[u8]>) -> HttpResponse {
    let send = bytes.filter(|_| !holds(req, etag));
    let mut res = if send.is_some() {
        HttpResponse::Ok()
    } else {
        HttpResponse::NotModified()
    };
    res.insert_header((header::ETAG, etag.to_owned()))
        .insert_header(("Cache-Control", "public, max-age=60"))
        .insert_header(("Access-Control-Allow-Origin", "*"));
    match send {
        Some(b) => res.content_type("application/cose").body(b.to_vec()),
        None => res.finish(),
    }
}

/// Which version-2 list a verifier already holds.
#[derive(Deserialize, utoipa::IntoParams)]
pub struct SinceQuery {
    /// The `ETag` of the version-2 list the verifier holds (with or without its quotes): the
    /// answer is then what changed since it, when that list is still known.
    since: Option<String>,
}

/// Whether `If-None-Match` names `etag` (or `*`).
fn holds(req: &HttpRequest, etag: &str) -> bool {
    req.headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"))
}

/// The signed status list, version 2: the documents not `valid` now, less those expired by
/// their own last day (the token carries it); with `since`, a signed delta from that list
/// (docs/verification-formats.md, "The status list").
#[utoipa::path(get, path = "/api/v2/status-list", tag = "verification", params(SinceQuery),
    responses(
        (status = 200, description = "COSE_Sign1 (CBOR, tag 18): a lista {v: 2, t: \"selo-status-list\", iat, exp, docs} ou, com `since` de uma lista conhecida, o que mudou desde ela {v: 2, t: \"selo-status-list-delta\", iat, exp, base, set, del}; o `ETag` é sempre o da lista atual", content_type = "application/cose", body = super::openapi::CoseFile),
        (status = 304, description = "A lista não mudou (`If-None-Match` ou `since`)"),
        (status = 503, description = "O cadastro não respondeu e não há lista válida", content_type = "application/problem+json", body = super::problem::Problem),
    ))]
pub async fn status_list_v2(
    state: web::Data<AppState>,
    cache: web::Data<VerdictCache>,
    query: web::Query<SinceQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    use crate::verification::status_list::V2;
    let since = query
        .since
        .as_deref()
        .map(|t| format!("\"{}\"", t.trim().trim_matches('"')));
    let answer = crate::verification::status_list::current_v2(
        &state,
        &cache.into_inner(),
        state.clock.now(),
        since.as_deref(),
    )
    .await
    .ok_or_else(no_list)?;
    let (etag, bytes) = match answer {
        V2::Unchanged(etag) => (etag, None),
        V2::Full(list) => (list.etag, Some(list.bytes)),
        V2::Delta { bytes, etag, .. } => (etag, Some(bytes)),
    };
    Ok(signed_answer(
        &req,
        &etag,
        bytes.as_deref().map(Vec::as_slice),
    ))
}

/// Verifies the short code printed under the QR code.
#[utoipa::path(get, path = "/api/v1/verify/code/{code}", tag = "verification",
    params(("code" = String, Path, description = "O código impresso no documento")),
    responses(
        (status = 200, description = "Veredito", body = Verification),
        (status = 400, description = "Código ilegível (`malformed`)", content((Verification = "application/json"), (super::problem::Problem = "application/problem+json"))),
        (status = 404, description = "Nenhum documento com este código (`unknown_document`); ou endereço inválido (problem+json)", content((Verification = "application/json"), (super::problem::Problem = "application/problem+json"))),
        (status = 503, description = "Situação indisponível (`status_unavailable`)", content((Verification = "application/json"), (super::problem::Problem = "application/problem+json"))),
    ))]
pub async fn api_code(
    state: web::Data<AppState>,
    cache: web::Data<VerdictCache>,
    code: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let official = super::auth::optional_official(&state, &req).await?;
    let v = verified_for(&state, &cache, Scanned::Code(&code), official.as_ref()).await;
    let status = match v.verdict {
        Verdict::UnknownDocument => StatusCode::NOT_FOUND,
        other => status_for(other),
    };
    Ok(HttpResponse::build(status)
        .insert_header(("Cache-Control", "no-store"))
        .json(v))
}

/// `GET /api/v1/vehicles/by-plate/{plate}`: the ride-hailing look-up by plate on
/// the road — the verdict of the latest sticker issued for the car, with the full record,
/// exactly as if the inspector had scanned it.
#[utoipa::path(get, path = "/api/v1/vehicles/by-plate/{plate}", tag = "verification", security(("bearer" = [])),
    params(("plate" = String, Path, description = "A placa (ABC1234, ABC-1234 ou Mercosul)")),
    responses(
        (status = 200, description = "Veredito do adesivo mais recente do carro, com o registro completo", body = Verification),
        (status = 503, description = "Situação indisponível (`status_unavailable`)", body = Verification),
    ))]
pub async fn by_plate(
    state: web::Data<AppState>,
    cache: web::Data<VerdictCache>,
    official: super::auth::Official,
    plate: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let plate = crate::domain::ids::Plate::parse(&plate).map_err(|_| {
        ApiError::Invalid(vec![super::problem::ProblemItem::field(
            "plate",
            "Placa inválida: use o formato ABC1234, ABC-1234 ou Mercosul (ABC1D23).",
        )])
    })?;
    let doc = state
        .store
        .latest_sticker_for_plate(&plate)
        .await?
        .ok_or_else(|| {
            ApiError::NotFound(
                "Nenhum adesivo de transporte por aplicativo foi emitido para esta placa: o carro não é autorizado."
                    .into(),
            )
        })?;
    let v = verified_for(&state, &cache, Scanned::Token(&doc.token), Some(&official)).await;
    Ok(HttpResponse::build(status_for(v.verdict))
        .insert_header(("Cache-Control", "no-store"))
        .json(v))
}

/// The signed-in official of a verification page (the back office's session cookie), if any.
async fn page_official(state: &AppState, req: &HttpRequest) -> Option<super::auth::Official> {
    let cookie = super::panel::cookie(req, super::panel::SESSION_COOKIE)?;
    match crate::issuance::officials::session(state, &cookie).await {
        Ok(s) => s.map(|s| super::auth::Official::from_account(s.official)),
        Err(e) => {
            tracing::error!(error = %e, "verification page: the session could not be read");
            None
        }
    }
}

/// Largest PDF accepted for verification.
pub const MAX_PDF_BYTES: usize = 5 * 1024 * 1024;

/// A slot to receive and check one PDF (at most `SELO_PDF_VERIFY_SLOTS` bodies are
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
    read_file(req, payload, MAX_PDF_BYTES)
        .await?
        .ok_or(ApiError::BadRequest(NO_PDF_PT.into()))
}

/// The answer to an upload with no file in it.
pub const NO_PDF_PT: &str =
    "Nenhum arquivo foi enviado: escolha o PDF do documento e envie de novo.";

/// Reads an uploaded file: the first file part of a multipart form, or the raw body; `None`
/// when it is empty. Refuses more than `max` bytes (413).
pub(crate) async fn read_file(
    req: &HttpRequest,
    payload: web::Payload,
    max: usize,
) -> Result<Option<Vec<u8>>, ApiError> {
    use futures_util::StreamExt as _;
    let too_large = || ApiError::PayloadTooLarge;
    if req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok())
        .is_some_and(|n| n > max + 64 * 1024)
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
                if out.len() + chunk.len() > max {
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
            if out.len() + chunk.len() > max {
                return Err(too_large());
            }
            out.extend_from_slice(&chunk);
        }
    }
    Ok((!out.is_empty()).then_some(out))
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
        (status = 400, description = "Arquivo que não é um PDF assinado legível (`malformed`); um envio recusado antes de ler o PDF (sem arquivo, tipo errado) vem como problem+json", content((PdfVerification = "application/json"), (super::problem::Problem = "application/problem+json"))),
        (status = 503, description = "Situação indisponível (`status_unavailable`); verificações de PDF demais ao mesmo tempo (problem+json)", content((PdfVerification = "application/json"), (super::problem::Problem = "application/problem+json"))),
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
                record: None,
            };
            let note = v.signature.as_ref().map(|s| s.detail.as_str());
            html(
                status_for(v.verdict),
                &page::render(&state, Some(&as_token), note, Source::Pdf, None),
            )
        }
        Err(e) => {
            let note = match &e {
                ApiError::PayloadTooLarge => {
                    "O arquivo tem mais de 5 MB: não é um documento emitido pelo selo (os documentos têm poucas centenas de kB).".to_owned()
                }
                _ => e.detail(),
            };
            page::refused_page(&state, &e, &note)
        }
    }
}

/// ITI's QR protocol: what VALIDAR sends to a QR's address.
#[derive(Deserialize, utoipa::IntoParams)]
pub struct ValidatorQuery {
    /// `application/validador-iti+json`: ITI's VALIDAR asks for the signed file; without it,
    /// the page.
    #[serde(rename = "_format")]
    format: Option<String>,
    /// The verification code printed on the document (`K7Q2-9XHM`), which VALIDAR asks of
    /// whoever holds the paper.
    #[serde(rename = "_secretCode")]
    secret_code: Option<String>,
}

/// ITI's answer: where the signed file is.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct ValidatorPrescription {
    /// `1.0.0`.
    version: &'static str,
    prescription: ValidatorFiles,
}

#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct ValidatorFiles {
    #[serde(rename = "signatureFiles")]
    signature_files: Vec<ValidatorFile>,
}

#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct ValidatorFile {
    /// The signed PDF, served with the same code.
    url: String,
}

/// The document for ITI's validator, or its refusal.
async fn for_validator(
    state: &AppState,
    token: &str,
    code: Option<&str>,
) -> Result<Box<crate::storage::documents::Document>, ApiError> {
    use crate::verification::validator::ForValidator;
    match crate::verification::validator::for_validator(state, token, code).await {
        Ok(ForValidator::File(doc)) => Ok(doc),
        Ok(ForValidator::WrongCode) => Err(ApiError::Unauthorized(
            "O código de verificação não é o impresso neste documento.".into(),
        )),
        Ok(ForValidator::Unknown) => Err(ApiError::NotFound(
            "Nenhum documento emitido pelo selo tem este código QR.".into(),
        )),
        Err(e) => {
            tracing::error!(error = %e, "the validator's request could not be answered");
            Err(ApiError::Unavailable(
                "O cadastro não respondeu; tente de novo em instantes.".into(),
            ))
        }
    }
}

/// The page a phone opens when it scans the QR code; with ITI's `_format`, the address of
/// the signed file for VALIDAR.
#[utoipa::path(get, path = "/v/{token}", tag = "verification",
    params(("token" = String, Path, description = "O token COSE do QR code"), ValidatorQuery),
    responses((status = 200, description = "Página de resultado (pt-BR), sem dados pessoais; com `_format=application/validador-iti+json` e o código impresso, o endereço do PDF assinado para o VALIDAR do ITI (JSON)",
            content((String = "text/html"), (ValidatorPrescription = "application/json"))),
        (status = 401, description = "Protocolo do ITI: o código não é o impresso no documento", content_type = "application/problem+json", body = super::problem::Problem),
        (status = 404, description = "Protocolo do ITI: o QR não é de um documento do selo", content_type = "application/problem+json", body = super::problem::Problem),
        (status = "4XX", description = "Página com o veredito `malformed` ou arquivo recusado", content_type = "text/html", body = String),
        (status = "5XX", description = "Página com a situação indisponível", content_type = "text/html", body = String)))]
pub async fn page_token(
    state: web::Data<AppState>,
    cache: web::Data<VerdictCache>,
    token: web::Path<String>,
    q: web::Query<ValidatorQuery>,
    req: HttpRequest,
) -> HttpResponse {
    if q.format.as_deref() == Some(crate::verification::validator::ITI_FORMAT) {
        return match for_validator(&state, &token, q.secret_code.as_deref()).await {
            Ok(doc) => HttpResponse::Ok().json(ValidatorPrescription {
                version: "1.0.0",
                prescription: ValidatorFiles {
                    signature_files: vec![ValidatorFile {
                        url: format!(
                            "{}/v/{}/documento.pdf?_secretCode={}",
                            state.settings.public_url.trim_end_matches('/'),
                            super::urls::urlencode(&token),
                            super::urls::urlencode(&doc.verification_code)
                        ),
                    }],
                },
            }),
            Err(e) => actix_web::ResponseError::error_response(&e),
        };
    }
    let official = page_official(&state, &req).await;
    let v = verified_for(&state, &cache, Scanned::Token(&token), official.as_ref()).await;
    let viewer = official.as_ref().map(|o| o.name.as_str());
    html(
        status_for(v.verdict),
        &page::render(
            &state,
            Some(&v),
            v.reason.as_deref(),
            Source::Token(&token),
            viewer,
        ),
    )
}

/// The signed PDF, for ITI's VALIDAR, to whoever presents the code printed on it.
#[utoipa::path(get, path = "/v/{token}/documento.pdf", tag = "verification",
    params(("token" = String, Path, description = "O token COSE do QR code"), ValidatorQuery),
    responses((status = 200, description = "O PDF assinado, como emitido", content_type = "application/pdf", body = super::openapi::PdfFile),
        (status = 401, description = "O código não é o impresso no documento", content_type = "application/problem+json", body = super::problem::Problem),
        (status = 404, description = "O QR não é de um documento do selo", content_type = "application/problem+json", body = super::problem::Problem)))]
pub async fn validator_pdf(
    state: web::Data<AppState>,
    token: web::Path<String>,
    q: web::Query<ValidatorQuery>,
) -> Result<HttpResponse, ApiError> {
    let doc = for_validator(&state, &token, q.secret_code.as_deref()).await?;
    let pdf = state
        .store
        .document_pdf(doc.id)
        .await
        .map_err(|e| {
            tracing::error!(error = %e, "a document's PDF could not be read");
            ApiError::Unavailable("O cadastro não respondeu; tente de novo em instantes.".into())
        })?
        .ok_or_else(|| ApiError::NotFound("O arquivo deste documento não está guardado.".into()))?;
    let file = doc.number.replace('/', "-");
    Ok(HttpResponse::Ok()
        .content_type("application/pdf")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("inline; filename=\"{file}.pdf\""),
        ))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(pdf))
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
pub async fn page_code(
    state: web::Data<AppState>,
    cache: web::Data<VerdictCache>,
    q: web::Query<CodeQuery>,
    req: HttpRequest,
) -> HttpResponse {
    let official = page_official(&state, &req).await;
    let viewer = official.as_ref().map(|o| o.name.as_str());
    match q.codigo.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
        None => html(
            StatusCode::OK,
            &page::render(&state, None, None, Source::Form, viewer),
        ),
        Some(code) => {
            // Shown back as typed, at most as long as the field takes.
            let typed: String = code.chars().take(16).collect();
            let mistyped = crate::documents::normalise_verification_code(code)
                == Err(crate::documents::CodeError::Mistyped);
            let v = verified_for(&state, &cache, Scanned::Code(code), official.as_ref()).await;
            let source = Source::Code {
                typed: &typed,
                mistyped,
            };
            // A typo's banner says it all; the reason is for API clients.
            let note = if mistyped { None } else { v.reason.as_deref() };
            html(
                status_for(v.verdict),
                &page::render(&state, Some(&v), note, source, viewer),
            )
        }
    }
}
