//! What a platform sends with its own credential (`/api/v1/platform/monthly-reports/{period}`,
//! `/api/v1/platform/data-requests…`) and how officials read it (`/api/v1/platforms/{id}/files`,
//! `/api/v1/platform-files/{id}`). The file is the raw body, its type in `Content-Type`.

use actix_web::{HttpRequest, HttpResponse, http::header, web};

use serde::Serialize;

use super::auth::Official;
use super::platforms::{DataRequestView, PlatformFileView, file_view, files_of, request_view};
use super::problem::ApiError;
use crate::domain::ride_hailing::platform_files::{PlatformFileRefusal, PlatformFileType};
use crate::issuance::ride_hailing::platform_access::PlatformCaller;
use crate::issuance::ride_hailing::platform_files::{self, ReceiveError};
use crate::state::AppState;
use crate::storage::ride_hailing::platform_files::{PlatformFileRow, Received};

/// The body of a platform's upload, within the upload deadline and the size limit.
async fn receive(
    state: &AppState,
    req: &HttpRequest,
    payload: web::Payload,
) -> Result<(Option<String>, Vec<u8>), ApiError> {
    let content_type = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    if content_type
        .as_deref()
        .is_some_and(|c| c.starts_with("multipart/"))
    {
        return Err(ApiError::UnsupportedMediaType(
            PlatformFileRefusal::Undeclared.to_string(),
        ));
    }
    let max = state.settings.limits.platform_file_bytes;
    let deadline = state.settings.limits.upload_deadline;
    let bytes = tokio::time::timeout(deadline, super::verify::read_file(req, payload, max))
        .await
        .unwrap_or_else(|_| {
            Err(ApiError::RequestTimeout(format!(
                "O arquivo não chegou por inteiro em {} s; envie-o de novo.",
                deadline.as_secs()
            )))
        })?
        .unwrap_or_default();
    Ok((content_type, bytes))
}

impl From<ReceiveError> for ApiError {
    fn from(e: ReceiveError) -> Self {
        match e {
            ReceiveError::File(PlatformFileRefusal::TooLarge { .. }) => Self::PayloadTooLarge,
            ReceiveError::File(r @ PlatformFileRefusal::Empty) => Self::BadRequest(r.to_string()),
            ReceiveError::File(r) => Self::UnsupportedMediaType(r.to_string()),
            ReceiveError::UseCase(e) => e.into(),
        }
    }
}

fn answered<T: Serialize>(received: &Received, body: T) -> HttpResponse {
    match received {
        Received::New(_) => HttpResponse::Created().json(body),
        Received::Again(_) => HttpResponse::Ok().json(body),
    }
}

fn row_of(received: Received) -> PlatformFileRow {
    match received {
        Received::New(r) | Received::Again(r) => r,
    }
}

/// `PUT /api/v1/platform/monthly-reports/{period}`: the calling platform's report of a month
/// already ended, to the Secretaria Municipal de Finanças (Lei 4.976/2025).
#[utoipa::path(put, path = "/api/v1/platform/monthly-reports/{period}", tag = "platform access", security(("bearer" = [])),
    params(("period" = String, Path, description = "O mês do relatório, AAAA-MM (já encerrado)")),
    request_body(description = "O relatório: PDF, CSV ou JSON, o tipo em Content-Type",
        content((super::openapi::PdfFile = "application/pdf"), (super::openapi::PdfFile = "text/csv"), (super::openapi::PdfFile = "application/json"))),
    responses((status = 201, description = "Relatório recebido", body = PlatformFileView),
        (status = 200, description = "O mesmo relatório já tinha sido recebido (nova tentativa)", body = PlatformFileView),
        (status = 409, description = "Já há outro relatório deste mês", content_type = "application/problem+json", body = super::problem::Problem),
        (status = 413, description = "Arquivo maior que o máximo", content_type = "application/problem+json", body = super::problem::Problem),
        (status = 415, description = "Tipo não declarado ou conteúdo que não é o declarado", content_type = "application/problem+json", body = super::problem::Problem),
        (status = 422, description = "Mês inválido ou ainda não encerrado", content_type = "application/problem+json", body = super::problem::Problem)))]
pub async fn put_monthly_report(
    state: web::Data<AppState>,
    caller: PlatformCaller,
    period: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let (content_type, bytes) = receive(&state, &req, payload).await?;
    let received = platform_files::send_monthly_report(
        &state,
        &caller,
        &period,
        content_type.as_deref(),
        &bytes,
    )
    .await?;
    let view = file_view(row_of(received.clone()));
    Ok(answered(&received, view))
}

/// The data requests sent to the calling platform.
#[derive(Serialize, utoipa::ToSchema)]
pub struct PlatformDataRequestsView {
    platform_id: String,
    requests: Vec<DataRequestView>,
}

/// `GET /api/v1/platform/data-requests`: the data requests sent to the calling platform, the
/// latest first, each with its deadline and whether it was delivered.
#[utoipa::path(get, path = "/api/v1/platform/data-requests", tag = "platform access", security(("bearer" = [])),
    responses((status = 200, description = "As solicitações de dados à plataforma", body = PlatformDataRequestsView)))]
pub async fn list_data_requests(
    state: web::Data<AppState>,
    caller: PlatformCaller,
) -> Result<HttpResponse, ApiError> {
    let requests = platform_files::data_requests(&state, &caller).await?;
    Ok(HttpResponse::Ok().json(PlatformDataRequestsView {
        platform_id: caller.platform_id,
        requests: requests.iter().map(request_view).collect(),
    }))
}

/// A data request answered, with the file that answered it.
#[derive(Serialize, utoipa::ToSchema)]
pub struct DataRequestAnswerView {
    request: DataRequestView,
    file: PlatformFileView,
}

/// `PUT /api/v1/platform/data-requests/{id}/delivery`: the file that answers a data request
/// (art. 4º, §2º), authenticated by the platform's credential (art. 4º, §3º); the request is
/// delivered at its arrival.
#[utoipa::path(put, path = "/api/v1/platform/data-requests/{id}/delivery", tag = "platform access", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "A solicitação")),
    request_body(description = "Os dados pedidos: PDF, CSV ou JSON, o tipo em Content-Type",
        content((super::openapi::PdfFile = "application/pdf"), (super::openapi::PdfFile = "text/csv"), (super::openapi::PdfFile = "application/json"))),
    responses((status = 201, description = "Entrega registrada", body = DataRequestAnswerView),
        (status = 200, description = "O mesmo arquivo já tinha sido entregue (nova tentativa)", body = DataRequestAnswerView),
        (status = 404, description = "A plataforma não tem esta solicitação", content_type = "application/problem+json", body = super::problem::Problem),
        (status = 409, description = "Solicitação já respondida com outro conteúdo", content_type = "application/problem+json", body = super::problem::Problem),
        (status = 413, description = "Arquivo maior que o máximo", content_type = "application/problem+json", body = super::problem::Problem),
        (status = 415, description = "Tipo não declarado ou conteúdo que não é o declarado", content_type = "application/problem+json", body = super::problem::Problem)))]
pub async fn put_data_request_delivery(
    state: web::Data<AppState>,
    caller: PlatformCaller,
    id: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let (content_type, bytes) = receive(&state, &req, payload).await?;
    let (received, request) =
        platform_files::answer_data_request(&state, &caller, &id, content_type.as_deref(), &bytes)
            .await?;
    let body = DataRequestAnswerView {
        request: request_view(&request),
        file: file_view(row_of(received.clone())),
    };
    Ok(answered(&received, body))
}

/// The files a platform sent.
#[derive(Serialize, utoipa::ToSchema)]
pub struct PlatformFilesView {
    platform_id: String,
    files: Vec<PlatformFileView>,
}

/// `GET /api/v1/platforms/{id}/files`: the monthly reports and data answers a platform sent,
/// the latest first.
#[utoipa::path(get, path = "/api/v1/platforms/{id}/files", tag = "platforms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "A plataforma")),
    responses((status = 200, description = "Os arquivos recebidos da plataforma", body = PlatformFilesView)))]
pub async fn list_files(
    state: web::Data<AppState>,
    _o: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let platform_id =
        crate::issuance::ride_hailing::platforms::platform_id(&state, id.trim()).await?;
    Ok(HttpResponse::Ok().json(PlatformFilesView {
        files: files_of(&state, &platform_id).await?,
        platform_id,
    }))
}

/// `GET /api/v1/platform-files/{id}`: a file a platform sent, as it arrived.
#[utoipa::path(get, path = "/api/v1/platform-files/{id}", tag = "platforms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "O arquivo")),
    responses((status = 200, description = "O arquivo, com o tipo em que chegou",
        content((super::openapi::PdfFile = "application/pdf"), (super::openapi::PdfFile = "text/csv"), (super::openapi::JsonFile = "application/json")))))]
pub async fn download(
    state: web::Data<AppState>,
    _o: Official,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let (row, content) = platform_files::file(&state, &id).await?;
    let extension = PlatformFileType::declared(&row.media_type).map_or("bin", |t| t.extension());
    let name = match &row.period {
        Some(p) => format!("relatorio-mensal-{p}.{extension}"),
        None => format!("dados-solicitacao-{}.{extension}", row.id),
    };
    Ok(HttpResponse::Ok()
        .content_type(row.media_type.as_str())
        .insert_header((
            "Content-Disposition",
            format!("attachment; filename=\"{name}\""),
        ))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .insert_header(("Cache-Control", "no-store"))
        .body(content))
}
