//! The print shop's file of a windshield sticker (APP-ART14): the sticker as issued
//! — same number, validity, printed code and signed token — with bleed, crop marks and the
//! PDF print boxes, signed by the city like every document selo hands out.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::documents::{Qr, StickerFace, print, sticker_inputs};
use crate::domain::ids::Plate;
use crate::issuance::pipeline::sign_rendered;
use crate::issuance::{UseCaseError, verification_url};
use crate::state::AppState;
use crate::storage::DocumentKind;

const NOT_A_STICKER: &str = "Adesivo não encontrado.";

/// The print shop's PDF of sticker document `id`, rendered now.
pub async fn print_shop_sticker(
    state: &AppState,
    id: Uuid,
    now: DateTime<Utc>,
) -> Result<Vec<u8>, UseCaseError> {
    let doc = state
        .store
        .document(id)
        .await?
        .filter(|d| d.kind == DocumentKind::RideHailingSticker)
        .ok_or(UseCaseError::NotFound(NOT_A_STICKER))?;
    let plate = Plate::parse(&doc.subject_key)
        .map_err(|_| UseCaseError::Internal("a sticker whose subject is not a plate"))?;
    let valid_until = doc
        .valid_until
        .ok_or(UseCaseError::Internal("a sticker without validity"))?;
    let url = verification_url(&state.letterhead.public_url, &doc.token);
    let qr = Qr::sticker(&url).ok_or(UseCaseError::Encoding)?;
    let citation = crate::documents::sticker_citation(
        &state.letterhead.profile,
        &state.ride_hailing_basis_of(&doc.legal_basis_version),
    );
    let mut inputs = sticker_inputs(&StickerFace {
        number: &doc.number,
        plate: &plate,
        valid_until,
        code: &doc.verification_code,
        qr: &qr,
        citation: &citation,
        legal_basis_version: &doc.legal_basis_version,
        letterhead: &state.letterhead,
    });
    inputs["print_shop"] = serde_json::Value::Bool(true);
    let rendered = state
        .renderer
        .render("app_sticker.typ", inputs, Some(qr.svg), doc.issued_at)
        .await?;
    let boxed = tokio::task::spawn_blocking(move || print::set_print_boxes(&rendered))
        .await
        .map_err(|_| UseCaseError::Encoding)?
        .map_err(|_| UseCaseError::Internal("the rendered sticker could not be reopened"))?;
    let pdf = sign_rendered(state, boxed, "Arte do adesivo para a gráfica", now)
        .await?
        .pdf;
    Ok(pdf)
}
