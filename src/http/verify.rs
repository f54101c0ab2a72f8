//! Public verification: `GET /api/v1/verify/{token}` (JSON), `GET /api/v1/verify/code/{code}`
//! (the short printed code), and the pt-BR pages `GET /v/{token}` and `GET /v?codigo=…` that a
//! phone opens when the QR code is scanned. Public tier: no names, no CPF (LGPD art. 6º, III).

use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;

use super::problem::ApiError;
use crate::documents::format;
use crate::state::AppState;
use crate::storage::DocumentKind;
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

pub async fn api_token(state: web::Data<AppState>, token: web::Path<String>) -> HttpResponse {
    let v = verify_token(&token, &state.keys.public, &state, state.clock.now()).await;
    HttpResponse::build(status_for(v.verdict))
        .insert_header(("Cache-Control", "no-store"))
        .json(v)
}

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
pub async fn api_pdf(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let pdf = read_upload(&req, payload).await?;
    let v = check_pdf(&state, &pdf).await;
    Ok(HttpResponse::build(status_for(v.verdict))
        .insert_header(("Cache-Control", "no-store"))
        .json(v))
}

/// `POST /v/pdf`: the upload form of the verification page.
pub async fn page_pdf(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> HttpResponse {
    match read_upload(&req, payload).await {
        Ok(pdf) => {
            let v = check_pdf(&state, &pdf).await;
            let as_token = Verification {
                verdict: v.verdict,
                checked_at: v.checked_at,
                document: v.document.clone(),
            };
            let note = v.signature.as_ref().map(|s| s.detail);
            html(status_for(v.verdict), &page(&state, Some(&as_token), note))
        }
        Err(e) => {
            let status = actix_web::ResponseError::status_code(&e);
            let v = Verification {
                verdict: Verdict::Malformed,
                checked_at: state.clock.now(),
                document: None,
            };
            html(
                status,
                &page(
                    &state,
                    Some(&v),
                    Some("Não foi possível ler o arquivo enviado (máximo de 5 MB)."),
                ),
            )
        }
    }
}

pub async fn page_token(state: web::Data<AppState>, token: web::Path<String>) -> HttpResponse {
    let v = verify_token(&token, &state.keys.public, &state, state.clock.now()).await;
    html(status_for(v.verdict), &page(&state, Some(&v), None))
}

#[derive(Deserialize)]
pub struct CodeQuery {
    codigo: Option<String>,
}

pub async fn page_code(state: web::Data<AppState>, q: web::Query<CodeQuery>) -> HttpResponse {
    match q.codigo.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
        None => html(StatusCode::OK, &page(&state, None, None)),
        Some(code) => {
            let v = verify_code(code, &state, state.clock.now()).await;
            html(status_for(v.verdict), &page(&state, Some(&v), None))
        }
    }
}

fn html(status: StatusCode, body: &str) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header(("Cache-Control", "no-store"))
        .insert_header((
            "Content-Security-Policy",
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
        ))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .insert_header(("Referrer-Policy", "no-referrer"))
        .body(body.to_owned())
}

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
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
        DocumentKind::CharterCertidao | DocumentKind::AppCertidao => {
            ("Registro", "o registro apresentado")
        }
        DocumentKind::AppAuto => ("Placa ou auto", "a placa do veículo ou o número do auto"),
        _ => ("Placa", "a placa do veículo"),
    }
}

fn details(doc: &PublicDocument) -> String {
    let holds = match doc.facts_hold {
        Some(true) => " · os fatos certificados continuam verdadeiros",
        Some(false) => " · a situação mudou desde a emissão",
        None => "",
    };
    format!(
        "<dl><dt>Documento</dt><dd>{kind}</dd><dt>Número</dt><dd>{number}</dd>{company}\
         <dt>{subject}</dt><dd class=\"plate\">{plate}</dd><dt>Válido até</dt><dd>{until}</dd>\
         <dt>Situação</dt><dd>{status}{suspension}</dd></dl>\
         <p class=\"hint\">Confira se {check} é <strong>{plate}</strong>.</p>",
        kind = esc(doc.kind.label_pt()),
        company = doc.company.as_deref().map_or_else(String::new, |c| format!(
            "<dt>Empresa</dt><dd>{}</dd>",
            esc(c)
        )),
        subject = subject_label(doc.kind).0,
        check = subject_label(doc.kind).1,
        number = esc(&doc.number),
        plate = esc(&doc.plate),
        until = esc(&format::date(doc.valid_until)),
        status = esc(doc.status.label_pt()) + holds,
        suspension = doc.suspended_until.map_or_else(String::new, |u| format!(
            " até {}",
            esc(&format::date(u - chrono::Duration::days(1)))
        )),
    )
}

fn page(state: &AppState, v: Option<&Verification>, note: Option<&str>) -> String {
    let result = v.map_or_else(String::new, |v| {
        let (class, icon, headline, text) = banner(v.verdict);
        let doc = v.document.as_ref().map_or_else(String::new, details);
        format!(
            "<section class=\"verdict {class}\" role=\"status\"><div class=\"icon\" aria-hidden=\"true\">{icon}</div>\
             <h1>{headline}</h1><p>{text}</p></section>{doc}\
             {note}<p class=\"when\">Verificado em {when} (horário de Mato Grosso).</p>",
            note = note.map_or_else(String::new, |n| format!("<p class=\"hint\">{}</p>", esc(n))),
            when = esc(&format::datetime_local(v.checked_at)),
        )
    });
    let title = v.map_or("Verificar documento", |v| banner(v.verdict).2);
    format!(
        r#"<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Prefeitura de Barra do Garças</title>
<style>
body{{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f4f6f8;color:#1b1f23}}
header{{background:#0b3d91;color:#fff;padding:12px 16px}}header b{{display:block;font-size:1.05rem}}header span{{font-size:.9rem;opacity:.9}}
main{{max-width:560px;margin:0 auto;padding:16px}}
.verdict{{border-radius:12px;padding:20px;text-align:center;color:#fff;margin-bottom:16px}}
.verdict h1{{margin:.2em 0;font-size:2rem;letter-spacing:.02em}}.verdict p{{margin:0;font-size:1.05rem}}
.verdict .icon{{font-size:3.5rem;line-height:1}}
.ok{{background:#1e7b34}}.warn{{background:#b35c00}}.bad{{background:#b00020}}
dl{{background:#fff;border-radius:12px;padding:12px 16px;margin:0 0 12px;display:grid;grid-template-columns:auto 1fr;gap:6px 12px;font-size:1.1rem}}
dt{{color:#57606a}}dd{{margin:0;font-weight:600}}.plate{{font-size:1.4rem;letter-spacing:.08em}}
.hint,.when{{color:#57606a}}form{{background:#fff;border-radius:12px;padding:12px 16px;margin-top:16px}}
input{{font-size:1.2rem;padding:8px;width:10em;text-transform:uppercase;letter-spacing:.1em}}button{{font-size:1.1rem;padding:8px 14px}}
footer{{color:#57606a;font-size:.9rem;padding:16px;text-align:center}}
</style></head>
<body><header><b>Prefeitura Municipal de Barra do Garças – MT</b><span>Verificação de documentos de transporte</span></header>
<main>{result}
<form method="get" action="/v"><label for="codigo">Verificar pelo código impresso no documento:</label><br>
<input id="codigo" name="codigo" placeholder="XXXX-XXXX" maxlength="12" autocomplete="off"> <button type="submit">Verificar</button></form>
<form method="post" action="/v/pdf" enctype="multipart/form-data"><label for="pdf">Verificar um PDF (assinatura digital e situação):</label><br>
<input id="pdf" name="pdf" type="file" accept="application/pdf"> <button type="submit">Verificar PDF</button></form>
</main>
<footer>Sugestões e reclamações: Ouvidoria Municipal {phone}</footer>
</body></html>"#,
        title = esc(title),
        phone = esc(&state.letterhead.ouvidoria_phone),
    )
}
