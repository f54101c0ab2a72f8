//! Charter certidões: the signed statement of a company's standing.

use super::{
    ApiError, AppState, Deserialize, DocumentView, Fields, HttpResponse, Official, Reply,
    Serialize, Uuid, document_view, parsed, register, web,
};

#[derive(Deserialize, utoipa::ToSchema)]
pub struct CharterCertidaoDto {
    subject: String,
    id: String,
    protocol: String,
}

/// `POST /api/v1/charter/certidoes` (FRET-ART25): the certidão de situação cadastral of a
/// vehicle or a driver, on a petition filed at the protocol.
#[utoipa::path(post, path = "/api/v1/charter/certidoes", tag = "charter certidões", security(("bearer" = [])),
    responses((status = 201, description = "Certidão emitida", body = CertidaoView)))]
pub async fn issue_certidao(
    state: web::Data<AppState>,
    official: Official,
    body: web::Json<CharterCertidaoDto>,
) -> Reply {
    let req = CertidaoRequest::try_from(body.into_inner())?;
    let doc =
        register::certidao(&state, &official.actor, req.subject, req.id, &req.protocol).await?;
    Ok(HttpResponse::Created().json(CertidaoView {
        document: document_view(&state, &doc),
        facts: doc.facts.clone().unwrap_or_default(),
    }))
}

/// A petition for a certidão (FRET-ART25), parsed.
pub struct CertidaoRequest {
    subject: &'static str,
    id: Uuid,
    protocol: String,
}

impl TryFrom<CharterCertidaoDto> for CertidaoRequest {
    type Error = ApiError;

    fn try_from(dto: CharterCertidaoDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let id = f.uuid("id", &dto.id);
        let protocol = f.text("protocol", &dto.protocol, 60);
        let subject = match dto.subject.as_str() {
            "vehicle" => Some("vehicle"),
            "driver" => Some("driver"),
            _ => f.take(
                "subject",
                Err::<&'static str, ()>(()),
                "Use \"vehicle\" ou \"driver\".",
            ),
        };
        let (id, protocol, subject) = f.done(parsed!(id, protocol, subject))?;
        Ok(Self {
            subject,
            id,
            protocol,
        })
    }
}

/// A certidão just issued, with the facts it certifies.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CertidaoView {
    #[serde(flatten)]
    document: DocumentView,
    /// Os fatos certificados, como assinados.
    facts: serde_json::Value,
}
