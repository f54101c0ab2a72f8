//! The signed PDF of a charter document.

use super::{
    AppState, Competence, DocumentKind, HttpResponse, Official, Reply, not_found, path_id, web,
};

/// `GET /api/v1/charter/documents/{id}`: the signed PDF.
#[utoipa::path(get, path = "/api/v1/charter/documents/{id}", tag = "charter documents", security(("bearer" = [])), params(("id" = Uuid, Path, description = "O documento")),
    responses((status = 200, description = "O PDF assinado (PAdES)", content_type = "application/pdf", body = crate::http::openapi::PdfFile)))]
pub async fn document_pdf(
    state: web::Data<AppState>,
    official: Official,
    id: web::Path<String>,
) -> Reply {
    let id = path_id(&id, "Documento")?;
    // Every document of the register but the ride-hailing authorization and sticker, which
    // are served under `/api/v1/documents/{id}`.
    let doc = state
        .store
        .document(id)
        .await?
        .filter(|d| {
            !matches!(
                d.kind,
                DocumentKind::RideHailingAuthorization | DocumentKind::RideHailingSticker
            )
        })
        .ok_or_else(|| not_found("Documento"))?;
    // Each law's documents are read by that law's officials.
    official.require(if doc.kind.is_ride_hailing() {
        Competence::ReadRideHailing
    } else {
        Competence::ReadCharter
    })?;
    let pdf = state
        .store
        .document_pdf(id)
        .await?
        .ok_or_else(|| not_found("Documento"))?;
    Ok(HttpResponse::Ok()
        .content_type("application/pdf")
        .insert_header((
            "Content-Disposition",
            format!("inline; filename=\"{}\"", doc.file_name(false)),
        ))
        .body(pdf))
}
