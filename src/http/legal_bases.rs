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
    Activation, DRAFT_2023_FILE, EnactingAct, LEI_4937_2025_FILE, Law, LegalBases, Suspension,
    SuspensionAct,
};
use crate::issuance::legal_bases::{ActivationRefused, NewActivation, NewSuspension};
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
    /// The courts' suspensions and restorations of its provisions, in the order they take
    /// effect.
    suspensions: Vec<Suspension>,
    /// The provisions suspended today, as decisions cite them.
    suspended_today: Vec<String>,
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
            suspensions: of_law(&bases, Law::RideHailing),
            suspended_today: bases.ride_hailing_on(today).suspended.clone(),
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
            suspensions: of_law(&bases, Law::Charter),
            suspended_today: bases.charter_on(today).suspended.clone(),
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

fn of_law(bases: &LegalBases, law: Law) -> Vec<Suspension> {
    bases
        .suspensions()
        .iter()
        .filter(|s| s.law == law)
        .cloned()
        .collect()
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

/// A court's decision on provisions of the ride-hailing law, as sent.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct NewSuspensionDto {
    /// `suspensao` (the provisions stop applying from `effective_from`) or `restabelecimento`
    /// (they apply again).
    act: String,
    /// The rule ids of the provisions (`rule` of the requirements in `GET /api/v1/legal-bases`).
    rules: Vec<String>,
    /// The court: "TJMT", "STF"…
    court: String,
    /// The case number as the court prints it.
    case_number: String,
    /// The day of the decision (AAAA-MM-DD).
    decided_on: String,
    /// The first day it takes effect (AAAA-MM-DD).
    effective_from: String,
}

/// Records a court's suspension or restoration of provisions of the ride-hailing law from a
/// date (SMF): from then the requirements and infractions named are neither applied nor
/// cited, and decisions and certidões name the suspension.
#[utoipa::path(post, path = "/api/v1/legal-bases/ride-hailing/suspensions", tag = "legal_bases",
    security(("bearer" = [])), request_body = NewSuspensionDto,
    responses((status = 201, description = "Decisão registrada", body = Suspension)))]
pub async fn suspend_ride_hailing(
    state: web::Data<AppState>,
    official: Official,
    body: web::Json<NewSuspensionDto>,
) -> Result<HttpResponse, ApiError> {
    suspend(&state, &official, body.into_inner(), Law::RideHailing).await
}

/// The same for the charter law (SIS): its requirements (company, bus, charter driver) and
/// infractions named stop applying from the decision's effect date.
#[utoipa::path(post, path = "/api/v1/legal-bases/charter/suspensions", tag = "legal_bases",
    security(("bearer" = [])), request_body = NewSuspensionDto,
    responses((status = 201, description = "Decisão registrada", body = Suspension)))]
pub async fn suspend_charter(
    state: web::Data<AppState>,
    official: Official,
    body: web::Json<NewSuspensionDto>,
) -> Result<HttpResponse, ApiError> {
    suspend(&state, &official, body.into_inner(), Law::Charter).await
}

async fn suspend(
    state: &AppState,
    official: &Official,
    dto: NewSuspensionDto,
    law: Law,
) -> Result<HttpResponse, ApiError> {
    let mut f = Fields::default();
    let act = f.take(
        "act",
        SuspensionAct::parse(&dto.act).ok_or(()),
        "Use suspensao ou restabelecimento.",
    );
    let court = f.text("court", &dto.court, 80);
    let case_number = f.text("case_number", &dto.case_number, 60);
    let decided_on = f.date("decided_on", &dto.decided_on);
    let effective_from = f.date("effective_from", &dto.effective_from);
    let (act, court, case_number, decided_on, effective_from) =
        f.done(parsed!(act, court, case_number, decided_on, effective_from))?;
    let new = NewSuspension {
        law,
        act,
        rules: dto.rules.iter().map(|r| r.trim().to_owned()).collect(),
        court,
        case_number,
        decided_on,
        effective_from,
    };
    match crate::issuance::legal_bases::record_suspension(state, &official.actor, new).await {
        Ok(s) => Ok(HttpResponse::Created().json(s)),
        Err(ActivationRefused::File(problems)) => Err(ApiError::Invalid(
            problems
                .into_iter()
                .map(|p| ProblemItem::field("rules", p))
                .collect(),
        )),
        Err(ActivationRefused::Date(field, message)) => {
            Err(ApiError::Invalid(vec![ProblemItem::field(field, message)]))
        }
        Err(ActivationRefused::Other(e)) => Err(e.into()),
    }
}
