//! `/api/v1/legal-bases`: the versions of both laws' legal bases, which is
//! in force today, and the activation of a new version by an official of the law's
//! secretariat (SMF for the ride-hailing law, SIS for the charter law).

use actix_web::{HttpResponse, web};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use super::auth::Official;
use super::fields::{Fields, parsed};
use super::problem::{ApiError, ProblemItem};
use crate::domain::legal_basis::{
    Activation, DRAFT_2023_FILE, EnactingAct, LEI_4937_2025_FILE, Law, LegalBases,
};
use crate::issuance::legal_bases::{ActivationRefused, NewActivation};
use crate::state::AppState;

/// The versions of both laws, in the order they take effect.
#[derive(Serialize, utoipa::ToSchema)]
pub struct LegalBasesView {
    /// Today in Barra do Garças, the day `in_force` is judged at.
    today: NaiveDate,
    ride_hailing: LawVersions,
    charter: LawVersions,
}

/// The versions of one law.
#[derive(Serialize, utoipa::ToSchema)]
pub struct LawVersions {
    /// The version in force today.
    in_force: String,
    versions: Vec<VersionView>,
}

/// One version of a law's legal basis.
#[derive(Serialize, utoipa::ToSchema)]
pub struct VersionView {
    law: Law,
    version: String,
    effective_from: NaiveDate,
    /// `repositorio` (a file of the build) or `ativacao` (activated by an official).
    origin: &'static str,
    /// The act that enacts it (activations only).
    act: Option<EnactingAct>,
    activated_at: Option<DateTime<Utc>>,
    /// SHA-256 of the file, hex.
    sha256: String,
    /// Every parameter of the version, as loaded.
    #[schema(value_type = Object)]
    parameters: serde_json::Value,
}

fn versions_of<B: Serialize>(
    law: Law,
    versions: &[std::sync::Arc<B>],
    repository_file: &str,
    bases: &LegalBases,
    version_of: impl Fn(&B) -> (&str, NaiveDate),
) -> Vec<VersionView> {
    versions
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let (version, effective_from) = version_of(b);
            let activation = bases.activations().iter().find(|a| a.version == version);
            VersionView {
                law,
                version: version.to_owned(),
                effective_from,
                origin: if i == 0 { "repositorio" } else { "ativacao" },
                act: activation.map(|a| a.act.clone()),
                activated_at: activation.map(|a| a.activated_at),
                sha256: activation.map_or_else(
                    || crate::issuance::legal_bases::file_sha256(repository_file),
                    |a| a.sha256.clone(),
                ),
                parameters: serde_json::to_value(b.as_ref()).unwrap_or_default(),
            }
        })
        .collect()
}

/// Every version of both laws' legal bases, and the one in force today.
#[utoipa::path(get, path = "/api/v1/legal-bases", tag = "legal_bases",
    responses((status = 200, description = "As versões das bases legais", body = LegalBasesView)))]
pub async fn list(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    if !state.legal_bases.read_from_register() {
        // Only the repository's files are known: the register's activations are not read yet.
        return Err(ApiError::Unavailable(
            "O banco de dados está inacessível no momento.".into(),
        ));
    }
    let bases = state.legal_bases.current();
    let today = state.today();
    Ok(HttpResponse::Ok().json(LegalBasesView {
        today,
        ride_hailing: LawVersions {
            in_force: bases.ride_hailing_on(today).version.clone(),
            versions: versions_of(
                Law::RideHailing,
                bases.ride_hailing_versions(),
                DRAFT_2023_FILE,
                &bases,
                |b| (&b.version, b.effective_from),
            ),
        },
        charter: LawVersions {
            in_force: bases.charter_on(today).version.clone(),
            versions: versions_of(
                Law::Charter,
                bases.charter_versions(),
                LEI_4937_2025_FILE,
                &bases,
                |b| (&b.version, b.effective_from),
            ),
        },
    }))
}

/// The act that enacts a version, as sent.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct EnactingActDto {
    /// "Lei", "Decreto", "Lei Complementar"…
    kind: String,
    /// "4.976/2025".
    number: String,
    /// AAAA-MM-DD.
    date: String,
}

/// A new version of a law's legal basis.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct NewActivationDto {
    /// The basis file (TOML), a copy of the repository's with a new `version`.
    basis: String,
    /// The first day it applies (AAAA-MM-DD): today or later, after the latest version.
    effective_from: String,
    act: EnactingActDto,
}

/// The version just activated.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ActivationView {
    law: Law,
    version: String,
    effective_from: NaiveDate,
    act: EnactingAct,
    sha256: String,
    activated_at: DateTime<Utc>,
}

impl From<Activation> for ActivationView {
    fn from(a: Activation) -> Self {
        Self {
            law: a.law,
            version: a.version,
            effective_from: a.effective_from,
            act: a.act,
            sha256: a.sha256,
            activated_at: a.activated_at,
        }
    }
}

fn parse(law: Law, dto: NewActivationDto) -> Result<NewActivation, ApiError> {
    let mut f = Fields::default();
    let effective_from = f.date("effective_from", &dto.effective_from);
    let kind = f.text("act.kind", &dto.act.kind, 40);
    let number = f.text("act.number", &dto.act.number, 40);
    let date = f.date("act.date", &dto.act.date);
    let (effective_from, kind, number, date) =
        f.done(parsed!(effective_from, kind, number, date))?;
    Ok(NewActivation {
        law,
        source: dto.basis,
        effective_from,
        act: EnactingAct { kind, number, date },
    })
}

async fn activate(
    state: &AppState,
    official: &Official,
    law: Law,
    dto: NewActivationDto,
) -> Result<HttpResponse, ApiError> {
    let new = parse(law, dto)?;
    match crate::issuance::legal_bases::activate(state, &official.actor, new).await {
        Ok(a) => Ok(HttpResponse::Created().json(ActivationView::from(a))),
        Err(ActivationRefused::File(problems)) => Err(ApiError::Invalid(
            problems
                .into_iter()
                .map(|p| ProblemItem::field("basis", p))
                .collect(),
        )),
        Err(ActivationRefused::Date(field, message)) => {
            Err(ApiError::Invalid(vec![ProblemItem::field(field, message)]))
        }
        Err(ActivationRefused::Other(e)) => Err(e.into()),
    }
}

/// Activates a new version of the ride-hailing law's basis from a date (SMF).
#[utoipa::path(post, path = "/api/v1/legal-bases/ride-hailing", tag = "legal_bases",
    security(("bearer" = [])), request_body = NewActivationDto,
    responses((status = 201, description = "Versão ativada", body = ActivationView)))]
pub async fn activate_ride_hailing(
    state: web::Data<AppState>,
    official: Official,
    body: web::Json<NewActivationDto>,
) -> Result<HttpResponse, ApiError> {
    activate(&state, &official, Law::RideHailing, body.into_inner()).await
}

/// Activates a new version of the charter law's basis from a date (SIS).
#[utoipa::path(post, path = "/api/v1/legal-bases/charter", tag = "legal_bases",
    security(("bearer" = [])), request_body = NewActivationDto,
    responses((status = 201, description = "Versão ativada", body = ActivationView)))]
pub async fn activate_charter(
    state: web::Data<AppState>,
    official: Official,
    body: web::Json<NewActivationDto>,
) -> Result<HttpResponse, ApiError> {
    activate(&state, &official, Law::Charter, body.into_inner()).await
}
