//! `GET /api/v1/openapi.json`: the OpenAPI 3.1 document, generated at start from the route
//! table and the request and response types each handler names (`#[utoipa::path]`). Nothing
//! of it is kept by hand; a test checks it against the route table both ways and every JSON
//! answer of the integration suite against the schema it documents.

use std::sync::OnceLock;

use utoipa::openapi::response::ResponseBuilder;
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::openapi::{ContentBuilder, OpenApi, PathItem, Ref, RefOr};
use utoipa::{Modify, OpenApi as _, PartialSchema, ToSchema};

use super::ApiDoc;
use super::problem::Problem;

/// The media type of every error body (RFC 9457).
pub const PROBLEM_JSON: &str = "application/problem+json";

/// What every operation shares, added after generation: the document's info, the bearer
/// scheme, and the problem+json answers for 4xx and 5xx that an operation does not spell
/// out itself.
pub struct Contract;

impl Modify for Contract {
    fn modify(&self, doc: &mut OpenApi) {
        doc.info.title = "selo".into();
        doc.info.version = env!("CARGO_PKG_VERSION").into();
        doc.info.description = Some(
            "Emite e verifica os documentos assinados do transporte remunerado de passageiros \
             em Barra do Garças-MT (Lei 4.937/2025, fretamento; lei consolidada do transporte \
             por aplicativo). Todo erro 4xx/5xx das operações de emissão é \
             application/problem+json (RFC 9457) com `detail` em português; a verificação \
             responde com um veredito (`verdict`) mesmo quando o documento não confere."
                .into(),
        );
        doc.info.license = None;
        doc.info.contact = None;
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)),
        );
        let mut schemas = vec![(Problem::name().into_owned(), Problem::schema())];
        <Problem as ToSchema>::schemas(&mut schemas);
        for (name, schema) in schemas {
            components.schemas.entry(name).or_insert(schema);
        }
        for (path, item) in &mut doc.paths.paths {
            for (method, op) in operations(item) {
                // The handler's name alone (`get`, `create`) repeats across modules.
                op.operation_id = super::OPERATION_IDS
                    .iter()
                    .find(|(m, p, _)| *m == method && p == path)
                    .map(|(.., id)| (*id).to_owned());
                // Who may call it, from the route table's competence.
                if let Some((.., c)) = super::ACCESS
                    .iter()
                    .find(|(m, p, _)| *m == method && p == path)
                    .filter(|(.., c)| !c.roles().is_empty())
                {
                    let roles: Vec<&str> = c.roles().iter().map(|r| r.as_str()).collect();
                    let line = format!("Papéis que podem chamar: {}.", roles.join(", "));
                    op.description = Some(match op.description.take() {
                        Some(d) if !d.is_empty() => format!("{d}\n\n{line}"),
                        _ => line,
                    });
                }
                for (range, description) in [
                    (
                        "4XX",
                        "Pedido recusado (problem+json com os campos ou requisitos)",
                    ),
                    (
                        "5XX",
                        "Falha do servidor ou banco indisponível (problem+json)",
                    ),
                ] {
                    op.responses
                        .responses
                        .entry(range.to_owned())
                        .or_insert_with(|| problem_response(description));
                }
            }
        }
    }
}

fn operations(
    item: &mut PathItem,
) -> impl Iterator<Item = (&'static str, &mut utoipa::openapi::path::Operation)> {
    [
        ("get", item.get.as_mut()),
        ("put", item.put.as_mut()),
        ("post", item.post.as_mut()),
        ("delete", item.delete.as_mut()),
        ("patch", item.patch.as_mut()),
    ]
    .into_iter()
    .filter_map(|(m, op)| op.map(|op| (m, op)))
}

fn problem_response(description: &str) -> RefOr<utoipa::openapi::response::Response> {
    ResponseBuilder::new()
        .description(description)
        .content(
            PROBLEM_JSON,
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("Problem")))
                .build(),
        )
        .build()
        .into()
}

/// The document as served, generated once.
pub fn document() -> &'static str {
    static DOC: OnceLock<String> = OnceLock::new();
    DOC.get_or_init(|| {
        ApiDoc::openapi()
            .to_pretty_json()
            .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    })
}

/// `string`, `format: binary`: a file as the body of a request or an answer.
fn binary() -> RefOr<utoipa::openapi::schema::Schema> {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(
            utoipa::openapi::KnownFormat::Binary,
        )))
        .into()
}

/// A JSON file a platform sent, as it arrived: any JSON value.
pub struct JsonFile;

impl utoipa::PartialSchema for JsonFile {
    fn schema() -> RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::SchemaType::AnyValue)
            .description(Some("O arquivo JSON como chegou"))
            .into()
    }
}

impl ToSchema for JsonFile {}

/// A PDF file, as the body of a request or an answer.
pub struct PdfFile;

impl utoipa::PartialSchema for PdfFile {
    fn schema() -> RefOr<utoipa::openapi::schema::Schema> {
        binary()
    }
}

impl ToSchema for PdfFile {}

/// A tagged `COSE_Sign1` (CBOR), as an answer (`application/cose`).
pub struct CoseFile;

impl utoipa::PartialSchema for CoseFile {
    fn schema() -> RefOr<utoipa::openapi::schema::Schema> {
        binary()
    }
}

impl ToSchema for CoseFile {}

/// An image file (a driver's photo), as the body of a request or an answer.
pub struct JpegFile;

impl utoipa::PartialSchema for JpegFile {
    fn schema() -> RefOr<utoipa::openapi::schema::Schema> {
        binary()
    }
}

impl ToSchema for JpegFile {}

/// The verification form's upload: one file part carrying the PDF (any field name; `pdf` by
/// convention).
#[derive(utoipa::ToSchema)]
pub struct PdfUpload {
    /// O arquivo PDF.
    #[schema(value_type = String, format = Binary)]
    #[expect(
        dead_code,
        reason = "described, never built: the handler streams the part"
    )]
    pdf: Vec<u8>,
}
