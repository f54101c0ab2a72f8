//! `/api/v1/calendar` and `/api/v1/deadlines`: the municipal calendar (statutory days computed,
//! decreed days recorded through the API) and deadlines with how they were computed.

use actix_web::{HttpResponse, web};
use chrono::{Datelike, Duration, NaiveDate};
use serde::{Deserialize, Serialize};

use super::auth::Official;
use super::fields::{Fields, parsed};
use super::problem::{ApiError, ProblemItem};
use crate::domain::calendar::{
    Calendar, CalendarSettings, ClosedDay, DayKind, Deadline, deadline_in_days,
};
use crate::state::AppState;

/// Longest decreed range accepted at once (a recess is a few weeks).
const MAX_RANGE_DAYS: i64 = 62;

/// The calendar in force: statutory days, switches and decreed days.
pub(crate) async fn calendar(state: &AppState) -> Result<Calendar, ApiError> {
    Ok(state.calendar().await?)
}

/// The closed days of a year (holidays, pontos facultativos, recess).
#[utoipa::path(get, path = "/api/v1/calendar/{year}", tag = "calendar",
    params(("year" = i32, Path, description = "O ano (1990 a 2100)")),
    responses((status = 200, description = "O calendário do ano", body = YearView)))]
pub async fn year(
    state: web::Data<AppState>,
    year: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let year: i32 = year
        .parse()
        .ok()
        .filter(|y| (1990..=2100).contains(y))
        .ok_or_else(|| ApiError::NotFound("Ano fora do calendário (1990 a 2100).".into()))?;
    let cal = calendar(&state).await?;
    Ok(HttpResponse::Ok().json(YearView {
        year,
        settings: (*state.calendar_settings).clone(),
        note: "Sábados e domingos não têm expediente e não estão listados.",
        closed_days: cal.closed_days(year),
    }))
}

/// The municipal calendar of a year: the days without office hours besides weekends.
#[derive(Serialize, utoipa::ToSchema)]
pub struct YearView {
    year: i32,
    settings: CalendarSettings,
    note: &'static str,
    closed_days: Vec<ClosedDay>,
}

/// Decreed days just recorded.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ClosedDaysView {
    closed_days: Vec<ClosedDay>,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct NewClosedDaysDto {
    from: String,
    until: Option<String>,
    kind: String,
    description: String,
    act: Option<String>,
}

/// Records decreed days without office hours (DL-5).
#[utoipa::path(post, path = "/api/v1/calendar/closed-days", tag = "calendar", security(("bearer" = [])),
    responses((status = 201, description = "Dias registrados", body = ClosedDaysView)))]
pub async fn add_closed_days(
    state: web::Data<AppState>,
    official: Official,
    body: web::Json<NewClosedDaysDto>,
) -> Result<HttpResponse, ApiError> {
    let days = DecreedDays::try_from(body.into_inner())?;
    let closed_days =
        crate::issuance::calendar::add_closed_days(&state, &official.actor, days.0).await?;
    Ok(HttpResponse::Created().json(ClosedDaysView { closed_days }))
}

/// The days a decree closes, parsed: one per day of the range.
pub struct DecreedDays(Vec<ClosedDay>);

impl TryFrom<NewClosedDaysDto> for DecreedDays {
    type Error = ApiError;

    fn try_from(dto: NewClosedDaysDto) -> Result<Self, ApiError> {
        let mut f = Fields::default();
        let from = f.date("from", &dto.from);
        let until = match &dto.until {
            Some(u) => f.date("until", u),
            None => from,
        };
        let description = f.text("description", &dto.description, 200);
        let act = match dto.act.as_deref().map(str::trim) {
            Some("") | None => None,
            Some(a) => f.text("act", a, 200),
        };
        let kind = match dto.kind.as_str() {
            "ponto_facultativo" => Some(DayKind::PontoFacultativo),
            "recess" => Some(DayKind::Recess),
            "municipal" => Some(DayKind::Municipal),
            _ => f.take::<DayKind, ()>(
                "kind",
                Err(()),
                "Use ponto_facultativo, recess ou municipal.",
            ),
        };
        let (from, until, description, kind) = f.done(parsed!(from, until, description, kind))?;
        let span = (until - from).num_days();
        if !(0..MAX_RANGE_DAYS).contains(&span) {
            return Err(ApiError::Invalid(vec![ProblemItem::field(
                "until",
                format!("O período deve começar em `from` e ter no máximo {MAX_RANGE_DAYS} dias."),
            )]));
        }
        Ok(Self(
            (0..=span)
                .map(|i| ClosedDay {
                    date: from + Duration::days(i),
                    kind,
                    description: description.clone(),
                    act: act.clone(),
                })
                .collect(),
        ))
    }
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DeadlineQuery {
    /// O evento inicial (AAAA-MM-DD).
    start: String,
    /// O prazo em dias (1 a 3650).
    days: u32,
}

/// `GET /api/v1/deadlines?start=2025-10-17&days=15`: DL-1…DL-5 with the explanation.
#[utoipa::path(get, path = "/api/v1/deadlines", tag = "calendar", params(DeadlineQuery),
    responses((status = 200, description = "O prazo, com o cálculo explicado", body = Deadline)))]
pub async fn deadline(
    state: web::Data<AppState>,
    q: web::Query<DeadlineQuery>,
) -> Result<HttpResponse, ApiError> {
    let start = NaiveDate::parse_from_str(&q.start, "%Y-%m-%d")
        .ok()
        .filter(|d| (1990..=2100).contains(&d.year()))
        .ok_or_else(|| {
            ApiError::Invalid(vec![ProblemItem::field(
                "start",
                "Data inválida; use AAAA-MM-DD.",
            )])
        })?;
    if q.days == 0 || q.days > 3650 {
        return Err(ApiError::Invalid(vec![ProblemItem::field(
            "days",
            "Informe de 1 a 3650 dias.",
        )]));
    }
    let cal = calendar(&state).await?;
    Ok(HttpResponse::Ok().json(deadline_in_days(start, q.days, &cal, &state.deadline_rules)))
}
