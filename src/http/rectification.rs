//! `rectifies` beside an act: the same request that records an act, sent
//! with `rectifies`, records it instead as the rectification of the act of that kind the
//! entity's history numbers `event`, with the reason and the day; the act passes every check
//! it would pass if entered now.

use chrono::NaiveDate;
use serde::Deserialize;

use super::fields::{Fields, parsed};
use super::problem::ApiError;
use crate::issuance::rectification::Rectifies;

/// Which act this one rectifies, and why.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct RectifiesDto {
    /// O número do ato a retificar, como o histórico do registro o mostra (`id`).
    event: i64,
    /// Por que o ato registrado estava errado.
    reason: String,
    /// O dia da retificação (AAAA-MM-DD; padrão: hoje).
    #[serde(default)]
    rectified_on: Option<String>,
}

/// `rectifies` parsed into `f`'s errors; `Some(None)` when the act rectifies nothing.
pub fn parse(
    f: &mut Fields,
    dto: Option<&RectifiesDto>,
    today: NaiveDate,
) -> Option<Option<Rectifies>> {
    let Some(dto) = dto else {
        return Some(None);
    };
    let event = if dto.event >= 1 {
        Some(dto.event)
    } else {
        f.range("rectifies.event", 0, 1, i32::MAX);
        None
    };
    let reason = f.text("rectifies.reason", &dto.reason, 500);
    let rectified_on = match dto.rectified_on.as_deref() {
        Some(d) => f.date("rectifies.rectified_on", d),
        None => Some(today),
    };
    let (event, reason, rectified_on) = parsed!(event, reason, rectified_on)?;
    Some(Some(Rectifies {
        event,
        reason,
        rectified_on,
    }))
}

/// `rectifies` alone: 422 naming its fields when malformed.
pub fn parse_alone(
    dto: Option<&RectifiesDto>,
    today: NaiveDate,
) -> Result<Option<Rectifies>, ApiError> {
    let mut f = Fields::default();
    let r = parse(&mut f, dto, today);
    f.done(r)
}

/// Why a record that has no number in a history (a platform's delivery) was wrong.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct RectificationDto {
    /// Por que o registro anterior estava errado.
    reason: String,
    /// O dia da retificação (AAAA-MM-DD; padrão: hoje).
    #[serde(default)]
    rectified_on: Option<String>,
}

/// A `RectificationDto` parsed: the reason and the day; 422 naming `rectifies.*`.
pub fn parse_reason(
    dto: Option<&RectificationDto>,
    today: NaiveDate,
) -> Result<Option<(String, NaiveDate)>, ApiError> {
    let Some(dto) = dto else {
        return Ok(None);
    };
    let mut f = Fields::default();
    let reason = f.text("rectifies.reason", &dto.reason, 500);
    let rectified_on = match dto.rectified_on.as_deref() {
        Some(d) => f.date("rectifies.rectified_on", d),
        None => Some(today),
    };
    f.done(parsed!(reason, rectified_on)).map(Some)
}
