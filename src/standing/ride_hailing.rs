//! The ride-hailing register as it stands: what bars an authorization now (register acts,
//! vistorias), the acts of an auto's procedure, and the facts a certidão states. Read-only;
//! the rules themselves are in `domain::ride_hailing`.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::domain::calendar::{Calendar, DeadlineRules};
use crate::domain::charter::sanctions::{
    NoticeMethod, ProcedureAct, ProcedureState, procedure_state,
};
use crate::domain::dates::local_date;
use crate::domain::legal_basis::RideHailingLegalBasis;
use crate::domain::requirements::{
    AgeCountedFrom, RequirementKind, class_pt as infraction_class_pt,
};
use crate::domain::ride_hailing;
use crate::domain::ride_hailing::AuthorizationStatus;
use crate::domain::ride_hailing::RideHailingAct;
use crate::domain::ride_hailing::deregistration::{RegisterAct, deregistered_since};
use crate::domain::ride_hailing::registry::{Driver, RideHailingAuthorization, Vehicle};
use crate::domain::ride_hailing::sanctions::{
    Consequence, PriorInfraction, authorization_status, consequences,
};
use crate::domain::ride_hailing::vistoria::{
    RideHailingVistoria, VistoriaSummons, inspection_report, summons_standing,
};
use crate::standing::charter::CertifiedItem;
use crate::state::AppState;
use crate::storage::{RideHailingAuto, StorageError};

/// What a ride-hailing certidão certifies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct RideHailingCertifiedFacts {
    pub status: AuthorizationStatus,
    pub items: Vec<CertifiedItem>,
}

/// The authorization with its driver and vehicle.
pub struct RideHailingRecord {
    pub authorization: RideHailingAuthorization,
    pub driver: Driver,
    pub vehicle: Vehicle,
}

pub async fn load_ride_hailing_record(
    state: &AppState,
    authorization_id: Uuid,
) -> Result<Option<RideHailingRecord>, StorageError> {
    let Some(authorization) = state.store.get_authorization(authorization_id).await? else {
        return Ok(None);
    };
    let driver = state.store.get_driver(authorization.driver_id).await?;
    let vehicle = state.store.get_vehicle(authorization.vehicle_id).await?;
    Ok(driver
        .zip(vehicle)
        .map(|(driver, vehicle)| RideHailingRecord {
            authorization,
            driver,
            vehicle,
        }))
}

fn certified_item(item: &str, ok: bool, valid_until: Option<NaiveDate>) -> CertifiedItem {
    CertifiedItem {
        item: item.to_owned(),
        situation: if ok { "regular" } else { "irregular" }.to_owned(),
        valid_until,
    }
}

/// The facts on `now`: the authorization's status (sanctions and vistorias included) and the
/// requirements of the driver (art. 12) or of the vehicle (arts. 2º, 8º, 16).
#[expect(
    clippy::too_many_lines,
    reason = "one item per requirement of the basis, labelled as the certidão prints it"
)]
pub async fn ride_hailing_certified_facts(
    state: &AppState,
    r: &RideHailingRecord,
    subject: &str,
    now: DateTime<Utc>,
) -> Result<RideHailingCertifiedFacts, StorageError> {
    let today = local_date(now);
    let basis = &state.ride_hailing_basis();
    let a = &r.authorization;
    let sanctions = state.store.sanctions_of(a.id).await?;
    let (standing, report) =
        ride_hailing_standing(state, a.id, a.driver_id, a.vehicle_id, a.granted_at, now).await?;
    let (status, _) = authorization_status(
        a.valid_until,
        a.revocation.as_ref().map(|x| x.revoked_at),
        &sanctions,
        standing,
        now,
    );
    let mut items = vec![certified_item(
        &format!("Autorização nº {} (art. 3º)", a.number),
        status == AuthorizationStatus::Ativa,
        Some(a.valid_until),
    )];
    if subject == "app_driver" {
        let d = r.driver.facts();
        let input = d.input();
        for req in &basis.requirements {
            let mut f = Vec::new();
            let mut review = Vec::new();
            req.check_driver(
                &input,
                today,
                today,
                basis.month_overflow,
                &mut f,
                &mut review,
            );
            let (label, until) = match &req.kind {
                RequirementKind::License { ear, .. } => {
                    ride_hailing::app_art12_i_cnh_in_force(d.cnh_expires_on, today, &mut f);
                    let ear = if *ear { " com EAR" } else { "" };
                    let label = format!("CNH categoria {}{ear}", r.driver.cnh.category);
                    (label, Some(r.driver.cnh.expires_on))
                }
                RequirementKind::CriminalCertificates { .. } => {
                    ("Certidões criminais".to_owned(), None)
                }
                RequirementKind::NoInfractions { class, months } => (
                    format!(
                        "Sem infração {} nos últimos {months} meses",
                        infraction_class_pt(class)
                    ),
                    None,
                ),
                RequirementKind::Ctb306 { .. } => ("CTB, art. 306".to_owned(), None),
                RequirementKind::Document { label, .. } => (label.clone(), None),
                _ => continue,
            };
            items.push(certified_item(
                &format!("{label} ({})", req.citation),
                f.is_empty() && review.is_empty(),
                until,
            ));
        }
        items.push(crate::standing::charter::fines_item(
            "Multas municipais pagas ou no prazo (art. 13, XXII)",
            &fines_in_debt(state, a.driver_id, today).await?,
        ));
    } else {
        let v = &r.vehicle;
        let facts = v.facts();
        let input = facts.input();
        let grandfathered =
            ride_hailing::app_art2_p3_grandfathered_until(&facts, today, basis).is_some();
        for req in &basis.requirements {
            let mut f = Vec::new();
            req.check_vehicle(&input, today, grandfathered, &mut f);
            let (label, until) = match &req.kind {
                RequirementKind::VehicleAge {
                    counted_from,
                    max_years,
                } => {
                    let (what, year) = match counted_from {
                        AgeCountedFrom::ModelYear => ("ano-modelo", Some(v.model_year)),
                        AgeCountedFrom::ManufactureYear => {
                            ("ano de fabricação", v.manufacture_year)
                        }
                    };
                    let shown = year.map_or_else(|| "não informado".to_owned(), |y| y.to_string());
                    (
                        format!("Idade — {what} {shown}"),
                        year.and_then(|y| NaiveDate::from_ymd_opt(y + max_years, 12, 31)),
                    )
                }
                RequirementKind::VehicleDoors { doors } => (format!("{doors} portas"), None),
                RequirementKind::VehicleAirConditioning {} => ("Ar-condicionado".to_owned(), None),
                RequirementKind::VehicleCapacity {
                    max_including_driver,
                } => (
                    format!("Até {max_including_driver} pessoas, incluído o motorista"),
                    None,
                ),
                RequirementKind::VehicleRegistration { .. } => {
                    ("Emplacamento no município".to_owned(), None)
                }
                _ => continue,
            };
            items.push(certified_item(
                &format!("{label} ({})", req.citation),
                f.is_empty(),
                until,
            ));
        }
        items.push(certified_item(
            "Vistoria anual (art. 16)",
            report.vistoria_valid_until.is_some_and(|u| today <= u),
            report.vistoria_valid_until,
        ));
    }
    // Provisions a court has suspended are named, not judged.
    items.extend(basis.suspended.iter().map(|note| CertifiedItem {
        item: note.clone(),
        situation: "suspenso".to_owned(),
        valid_until: None,
    }));
    Ok(RideHailingCertifiedFacts { status, items })
}

/// The account of `auto`'s fine on `today`, with its procedure's state.
pub async fn fine_standing_of(
    state: &AppState,
    auto: &RideHailingAuto,
    today: NaiveDate,
) -> Result<(ProcedureState, crate::domain::fines::FineStanding), StorageError> {
    let acts = acts_of(state, auto.id).await?;
    let cal = state.calendar().await?;
    let procedure = state_of(
        auto,
        &acts,
        today,
        &cal,
        &state.deadline_rules,
        &state.ride_hailing_basis(),
    );
    let all = with_notification(auto, &acts);
    let drawn_up_on = local_date(auto.drawn_up_at);
    let values = crate::standing::charter::upf_values(
        &state.store,
        &crate::domain::fines::years_needed(drawn_up_on, &all, today),
    )
    .await?;
    let account = crate::domain::fines::fine_standing(
        auto.fine_upf,
        drawn_up_on,
        &all,
        &procedure,
        &values,
        today,
    );
    Ok((procedure, account))
}

/// The numbers of the driver's autos whose fine is past due or in dívida ativa on `today`
/// (APP-ART13-XXII: fines are paid within the set deadline).
pub async fn fines_in_debt(
    state: &AppState,
    driver_id: Uuid,
    today: NaiveDate,
) -> Result<Vec<String>, StorageError> {
    let mut numbers = Vec::new();
    for auto in state.store.autos_of_driver(driver_id).await? {
        let (_, account) = fine_standing_of(state, &auto, today).await?;
        if account.status.is_debt() {
            numbers.push(auto.number);
        }
    }
    numbers.sort();
    Ok(numbers)
}

/// Entity type of a ride-hailing auto's events.
pub const ENTITY: &str = "app_infraction_auto";

/// The procedure acts recorded for an auto, in order.
pub async fn acts_of(state: &AppState, auto_id: Uuid) -> Result<Vec<ProcedureAct>, StorageError> {
    let recorded: Vec<ProcedureAct> = state
        .store
        .events_of(ENTITY, &auto_id.to_string())
        .await?
        .iter()
        .filter(|e| e.kind == RideHailingAct::ProcedureAct.as_str())
        .map(|e| {
            serde_json::from_str(&e.data)
                .map_err(|_| StorageError::Corrupt(format!("procedure act of auto {auto_id}")))
        })
        .collect::<Result<_, _>>()?;
    // The acts as they stand, rectifications applied (the history keeps them all).
    Ok(crate::domain::charter::sanctions::effective_acts(&recorded))
}

/// The acts of `auto`'s procedure with its start event first: the juntada of the notice
/// (art. 22, §2º, DL-3), when recorded.
pub fn with_notification(auto: &RideHailingAuto, acts: &[ProcedureAct]) -> Vec<ProcedureAct> {
    let mut all = Vec::with_capacity(acts.len() + 1);
    if let Some(n) = &auto.notification {
        all.push(ProcedureAct::Notificacao {
            method: NoticeMethod::CertidaoFiscal,
            notified_on: n.juntada_on,
        });
    }
    all.extend(acts.iter().cloned());
    all
}

/// Where the procedure of `auto` stands on `today`. The start event is the juntada (DL-3).
pub fn state_of(
    auto: &RideHailingAuto,
    acts: &[ProcedureAct],
    today: NaiveDate,
    cal: &Calendar,
    rules: &DeadlineRules,
    basis: &RideHailingLegalBasis,
) -> ProcedureState {
    let mut s = procedure_state(
        &with_notification(auto, acts),
        today,
        cal,
        rules,
        basis.into(),
    );
    // The notice method of a ride-hailing auto is its own (post, electronic, edital).
    s.notice_method = None;
    s
}

/// APP-ART26 §§1º–2º, APP-ART27-PU with AMB-29: the consequences of `auto` now, counting
/// only the driver's other autos whose penalty was not annulled.
pub async fn current_consequences(
    state: &AppState,
    auto: &RideHailingAuto,
    annulled: bool,
) -> Result<Option<Vec<Consequence>>, StorageError> {
    if annulled {
        return Ok(None);
    }
    // The catalogue and the numbers of the basis the auto was drawn up under.
    let basis = state.ride_hailing_basis_of(&auto.legal_basis_version);
    let Some(kind) = basis.infraction(&auto.infraction_id) else {
        return Err(StorageError::Corrupt(format!(
            "infraction of auto {}",
            auto.id
        )));
    };
    let mut prior: Vec<(String, NaiveDate)> = state.store.prior_autos(auto.driver_id).await?;
    let mut remove = |infraction: &str, on: NaiveDate| {
        if let Some(i) = prior
            .iter()
            .position(|(id, d)| id == infraction && *d == on)
        {
            prior.remove(i);
        }
    };
    // The auto itself, then every annulled one.
    remove(&auto.infraction_id, auto.committed_on);
    for e in state
        .store
        .events_of("driver", &auto.driver_id.to_string())
        .await?
        .iter()
        .filter(|e| e.kind == RideHailingAct::AutoAnnulled.as_str())
    {
        let v: serde_json::Value = serde_json::from_str(&e.data).unwrap_or_default();
        if let (Some(i), Some(d)) = (
            v["infraction_id"].as_str(),
            v["committed_on"].as_str().and_then(|d| d.parse().ok()),
        ) {
            remove(i, d);
        }
    }
    let prior: Vec<PriorInfraction> = prior
        .into_iter()
        .map(|(id, committed_on)| PriorInfraction {
            id,
            committed_on,
            annulled: false,
        })
        .collect();
    let upf = auto.fine_centavos.map(|c| c / auto.fine_upf.max(1));
    Ok(Some(consequences(
        kind,
        auto.committed_on,
        local_date(auto.drawn_up_at),
        &prior,
        upf,
        &basis,
    )))
}

/// The descadastramentos and recadastramentos of a driver (`"driver"`) or car (`"vehicle"`),
/// in the order recorded.
pub async fn register_acts(
    state: &AppState,
    entity_type: &str,
    id: uuid::Uuid,
) -> Result<Vec<RegisterAct>, StorageError> {
    let events = state.store.events_of(entity_type, &id.to_string()).await?;
    Ok(events
        .iter()
        .filter(|e| e.kind == RideHailingAct::RegisterAct.as_str())
        .filter_map(|e| serde_json::from_str(&e.data).ok())
        .collect())
}

/// Since when the driver (`"driver"`) or car (`"vehicle"`) is removed from the register on
/// `today` (art. 24, I, d and f), if it is.
pub async fn deregistered_on(
    state: &AppState,
    entity_type: &str,
    id: uuid::Uuid,
    today: NaiveDate,
) -> Result<Option<NaiveDate>, StorageError> {
    Ok(deregistered_since(
        &register_acts(state, entity_type, id).await?,
        today,
    ))
}

/// The parsed data of the `kind` events of `entity_type` among `events`.
pub(crate) fn of<T: serde::de::DeserializeOwned>(
    events: &[crate::storage::ride_hailing::events::StandingEvent],
    entity_type: &str,
    kind: &str,
) -> Vec<T> {
    events
        .iter()
        .filter(|e| e.entity_type == entity_type && e.kind == kind)
        .filter_map(|e| serde_json::from_str(&e.data).ok())
        .collect()
}

/// What bars an otherwise active ride-hailing authorization on `now`: its driver or car
/// removed from the register (art. 24, I, d and f), then its vistorias (APP-ART9,
/// APP-ART16, APP-ART26-II). Returns that status (`None`: may operate) and the vistoria
/// report with the latest extra-vistoria summons (APP-ART16-P1). One query reads every event
/// it needs: this is the verification hot path.
pub async fn ride_hailing_standing(
    state: &AppState,
    authorization_id: uuid::Uuid,
    driver_id: uuid::Uuid,
    vehicle_id: uuid::Uuid,
    approved_at: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<Standing, StorageError> {
    standing_with(
        state,
        (authorization_id, driver_id, vehicle_id),
        approved_at,
        now,
        None,
    )
    .await
}

/// The standing as it would be with `extra`, a vistoria not yet recorded, among the
/// recorded ones (what recording it would do; APP-ART16).
pub async fn standing_with(
    state: &AppState,
    (authorization_id, driver_id, vehicle_id): (uuid::Uuid, uuid::Uuid, uuid::Uuid),
    approved_at: DateTime<Utc>,
    now: DateTime<Utc>,
    extra: Option<&RideHailingVistoria>,
) -> Result<Standing, StorageError> {
    let events = state
        .store
        .standing_events(
            authorization_id,
            driver_id,
            vehicle_id,
            STANDING_AUTHORIZATION_KINDS,
            STANDING_REGISTER_KIND,
        )
        .await?;
    standing_of(state, &events, approved_at, now, extra).await
}

/// What bars an authorization now (`None`: nothing), with its vistoria report.
pub type Standing = (
    Option<AuthorizationStatus>,
    crate::domain::ride_hailing::vistoria::InspectionReport,
);

/// The kinds of an authorization's own events its standing reads.
pub const STANDING_AUTHORIZATION_KINDS: [&str; 2] = [
    RideHailingAct::VistoriaRecorded.as_str(),
    RideHailingAct::VistoriaSummons.as_str(),
];
/// The kind of its driver's and its car's events its standing reads.
pub const STANDING_REGISTER_KIND: &str = RideHailingAct::RegisterAct.as_str();

/// The standing from the events read for it (`Store::standing_events`, or with the
/// document's status by `Store::document_status_standing`).
pub async fn standing_of(
    state: &AppState,
    events: &[crate::storage::ride_hailing::events::StandingEvent],
    approved_at: DateTime<Utc>,
    now: DateTime<Utc>,
    extra: Option<&RideHailingVistoria>,
) -> Result<Standing, StorageError> {
    let mut vistorias: Vec<RideHailingVistoria> = of(
        events,
        "app_authorization",
        RideHailingAct::VistoriaRecorded.as_str(),
    );
    vistorias.extend(extra.cloned());
    let summons: Vec<VistoriaSummons> = of(
        events,
        "app_authorization",
        RideHailingAct::VistoriaSummons.as_str(),
    );
    let driver_acts: Vec<RegisterAct> = of(events, "driver", RideHailingAct::RegisterAct.as_str());
    let vehicle_acts: Vec<RegisterAct> =
        of(events, "vehicle", RideHailingAct::RegisterAct.as_str());
    let cal = state.calendar().await?;
    let today = crate::domain::dates::local_date(now);
    let mut report = inspection_report(
        crate::domain::dates::local_date(approved_at),
        &vistorias,
        today,
        &cal,
        &state.deadline_rules,
        &state.ride_hailing_basis(),
    );
    report.summons = summons_standing(&summons, &vistorias, today);
    let status = if deregistered_since(&driver_acts, today).is_some() {
        Some(AuthorizationStatus::Descadastrada)
    } else if deregistered_since(&vehicle_acts, today).is_some() {
        Some(AuthorizationStatus::VeiculoDescadastrado)
    } else {
        report.status
    };
    Ok((status, report))
}

/// A platform's notices to regularize (art. 24, II, a), with their regularizations applied.
pub async fn regularization_notices(
    state: &AppState,
    platform_id: Uuid,
) -> Result<Vec<ride_hailing::platform::RegularizationNotice>, StorageError> {
    let events = state
        .store
        .events_of("platform", &platform_id.to_string())
        .await?;
    let mut notices: Vec<ride_hailing::platform::RegularizationNotice> = Vec::new();
    for e in &events {
        match RideHailingAct::parse(&e.kind) {
            Some(RideHailingAct::RegularizationNotice) => {
                notices.extend(serde_json::from_str(&e.data).ok());
            }
            Some(RideHailingAct::RegularizationCured) => {
                let d: serde_json::Value = serde_json::from_str(&e.data).unwrap_or_default();
                let cured_on = d["cured_on"]
                    .as_str()
                    .and_then(|x| NaiveDate::parse_from_str(x, "%Y-%m-%d").ok());
                if let Some(n) = notices.iter_mut().find(|n| d["id"] == n.id.as_str()) {
                    n.cured_on = cured_on;
                }
            }
            _ => {}
        }
    }
    Ok(notices)
}
