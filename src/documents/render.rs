//! The Typst engine, built once at start-up with fonts and templates embedded in the binary,
//! and a bounded blocking pool to run it off the async workers.

use std::sync::Arc;

use chrono::{DateTime, Datelike, Timelike, Utc};
use tokio::sync::Semaphore;
use typst::foundations::{Bytes, Datetime, Dict, Value};
use typst_as_lib::TypstEngine;
use typst_layout::PagedDocument;
use typst_pdf::{PdfOptions, PdfStandard, PdfStandards, Timestamp};

pub(crate) static FONT_REGULAR: &[u8] =
    include_bytes!("../../templates/fonts/NotoSans-Regular.ttf");
pub(crate) static FONT_BOLD: &[u8] = include_bytes!("../../templates/fonts/NotoSans-Bold.ttf");

static TEMPLATES: [(&str, &str); 8] = [
    ("common.typ", include_str!("../../templates/common.typ")),
    ("worklist.typ", include_str!("../../templates/worklist.typ")),
    (
        "app_authorization.typ",
        include_str!("../../templates/app_authorization.typ"),
    ),
    (
        "app_sticker.typ",
        include_str!("../../templates/app_sticker.typ"),
    ),
    (
        "charter_termo.typ",
        include_str!("../../templates/charter_termo.typ"),
    ),
    (
        "charter_selo.typ",
        include_str!("../../templates/charter_selo.typ"),
    ),
    (
        "auto_infracao.typ",
        include_str!("../../templates/auto_infracao.typ"),
    ),
    ("certidao.typ", include_str!("../../templates/certidao.typ")),
];

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("template input could not be converted: {0}")]
    Input(String),
    #[error("typst compilation failed: {0}")]
    Compile(String),
    #[error("PDF export failed: {0}")]
    Export(String),
    #[error("the render pool is shut down")]
    PoolClosed,
}

/// Renders templates to PDF/A-2b bytes.
#[derive(Clone)]
pub struct Renderer {
    engine: Arc<TypstEngine>,
    permits: Arc<Semaphore>,
    /// The municipality profile every document states: given to each template
    /// as `profile`, its brasão as the bytes `brasao`.
    profile: Arc<super::profile::Profile>,
    profile_inputs: Arc<Value>,
    brasao: Option<Bytes>,
}

impl std::fmt::Debug for Renderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderer").finish_non_exhaustive()
    }
}

impl Renderer {
    /// Builds the engine; `threads` bounds how many renders run at once; every document
    /// states the facts of `profile`.
    pub fn new(threads: usize, profile: Arc<super::profile::Profile>) -> Self {
        let engine = TypstEngine::builder()
            .fonts([FONT_REGULAR, FONT_BOLD])
            .with_static_source_file_resolver(TEMPLATES)
            .build();
        let profile_inputs = serde_json::from_value::<Dict>(profile.template_inputs())
            .map_or(Value::None, Value::Dict);
        let brasao = profile.brasao.as_ref().map(|b| Bytes::new(b.bytes.clone()));
        Self {
            engine: Arc::new(engine),
            permits: Arc::new(Semaphore::new(threads.max(1))),
            brasao,
            profile,
            profile_inputs: Arc::new(profile_inputs),
        }
    }

    /// The profile the documents state.
    pub fn profile(&self) -> &super::profile::Profile {
        &self.profile
    }

    /// Renders synchronously (for the blocking pool, benches and `selo samples`).
    /// `inputs` is the presentation-ready JSON; `qr_svg`, if any, is passed as bytes `qr`.
    /// `issued_at` fixes the PDF's dates so equal inputs give identical bytes.
    pub fn render_blocking(
        &self,
        template: &str,
        inputs: &serde_json::Value,
        qr_svg: Option<&str>,
        issued_at: DateTime<Utc>,
    ) -> Result<Vec<u8>, RenderError> {
        let mut dict: Dict = serde_json::from_value(inputs.clone())
            .map_err(|e| RenderError::Input(e.to_string()))?;
        dict.insert("profile".into(), self.profile_inputs.as_ref().clone());
        if let Some(b) = &self.brasao {
            dict.insert("brasao".into(), Value::Bytes(b.clone()));
        }
        if let Some(svg) = qr_svg {
            dict.insert(
                "qr".into(),
                Value::Bytes(Bytes::new(svg.as_bytes().to_vec())),
            );
        }
        let doc: PagedDocument = self
            .engine
            .compile_with_input(template, dict)
            .output
            .map_err(|e| RenderError::Compile(format!("{e:?}")))?;
        let timestamp = Datetime::from_ymd_hms(
            issued_at.year(),
            u8::try_from(issued_at.month()).unwrap_or(1),
            u8::try_from(issued_at.day()).unwrap_or(1),
            u8::try_from(issued_at.hour()).unwrap_or(0),
            u8::try_from(issued_at.minute()).unwrap_or(0),
            u8::try_from(issued_at.second()).unwrap_or(0),
        )
        .map(Timestamp::new_utc);
        let options = PdfOptions {
            ident: typst::foundations::Smart::Custom(template.to_owned()),
            timestamp,
            standards: PdfStandards::new(&[PdfStandard::A_2b])
                .map_err(|e| RenderError::Export(format!("{e:?}")))?,
            ..PdfOptions::default()
        };
        typst_pdf::pdf(&doc, &options).map_err(|e| RenderError::Export(format!("{e:?}")))
    }

    /// Renders on the blocking pool, at most `threads` at a time.
    pub async fn render(
        &self,
        template: &'static str,
        inputs: serde_json::Value,
        qr_svg: Option<String>,
        issued_at: DateTime<Utc>,
    ) -> Result<Vec<u8>, RenderError> {
        let _permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| RenderError::PoolClosed)?;
        let this = self.clone();
        tokio::task::spawn_blocking(move || {
            this.render_blocking(template, &inputs, qr_svg.as_deref(), issued_at)
        })
        .await
        .map_err(|_| RenderError::PoolClosed)?
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn test_profile() -> Arc<crate::documents::profile::Profile> {
        Arc::new(crate::documents::profile::Profile::embedded().unwrap())
    }

    /// Sticker inputs, QR and instant shared by the rendering and signing tests.
    pub(crate) fn sticker_fixture() -> (serde_json::Value, crate::documents::Qr, DateTime<Utc>) {
        let qr = crate::documents::Qr::new("https://selo.example.test/v/abc").unwrap();
        let inputs = serde_json::json!({
            "number": "APP-2026/000001", "plate": "BRA2E19", "valid_until": "20/11/2027",
            "valid_month_year": "11/2027", "band_color": "#6a1b9a",
            "ouvidoria_phone": "(66) 3401-9999", "code": "K7Q-29X-HM6",
            "verify_address": "https://selo.example.test/v", "qr_width_mm": 52.0,
            "citation": "Art. 14", "legal_basis_version": "test",
        });
        let at = DateTime::parse_from_rfc3339("2026-11-30T16:00:00Z")
            .unwrap()
            .to_utc();
        (inputs, qr, at)
    }

    /// A rendered, unsigned sticker.
    pub(crate) fn sticker_pdf() -> Vec<u8> {
        let (inputs, qr, at) = sticker_fixture();
        Renderer::new(1, test_profile())
            .render_blocking("app_sticker.typ", &inputs, Some(&qr.svg), at)
            .unwrap()
    }

    #[test]
    fn same_record_and_clock_give_identical_pdf_bytes_and_pdfa_metadata() {
        let (inputs, qr, at) = sticker_fixture();
        let renderer = Renderer::new(1, test_profile());
        let a = renderer
            .render_blocking("app_sticker.typ", &inputs, Some(&qr.svg), at)
            .unwrap();
        let b = Renderer::new(1, test_profile())
            .render_blocking("app_sticker.typ", &inputs, Some(&qr.svg), at)
            .unwrap();
        assert_eq!(a, b, "rendering must be deterministic");
        let later = at + chrono::Duration::seconds(1);
        let c = renderer
            .render_blocking("app_sticker.typ", &inputs, Some(&qr.svg), later)
            .unwrap();
        assert_ne!(a, c, "the issue instant is part of the document");
        let text = String::from_utf8_lossy(&a);
        assert!(
            text.contains("pdfaid:part") && text.contains("pdfaid:conformance"),
            "PDF/A identification in XMP"
        );
    }
}
