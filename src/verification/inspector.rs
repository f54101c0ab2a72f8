//! The inspector tier: beside the public verdict, an official who may read the
//! document's register (an inspector, an issuer of its law, an auditor or an admin) sees the
//! full record needed to act on the road — who holds the document, the vehicle, vistorias or
//! ITV, sanctions and revocation with their reasons, open autos, and links to the history and
//! to drawing up an auto. Never cached, never shown to a passenger.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use uuid::Uuid;

use crate::domain::dates::local_date;
use crate::domain::officials::{Competence, Roles};
use crate::standing::charter::{
    company_status, current_termo, load_company, load_vehicle, termos_of, vehicle_live_status,
};
use crate::standing::ride_hailing::{
    acts_of, load_ride_hailing_record, ride_hailing_standing, state_of,
};
use crate::state::AppState;
use crate::storage::documents::Document;
use crate::storage::{DocumentKind, StorageError};

/// The full record of a verified document, for officials.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct InspectorRecord {
    /// `ride_hailing` or `charter`.
    pub law: &'static str,
    /// The driver (ride-hailing) or the company (charter).
    pub holder: Holder,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vehicle: Option<RecordVehicle>,
    /// Ride-hailing: the vistorias (arts. 9º and 16). Charter: the vehicle's vistoria, ITV
    /// and insurance (arts. 12–13).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inspection: Option<RecordInspection>,
    /// The authorization (ride-hailing) or the Termo in force (charter).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authorization: Option<RecordAuthorization>,
    /// Suspensions, cassações, advertências, oldest first.
    pub sanctions: Vec<RecordSanction>,
    /// Autos whose procedure is not over (neither annulled nor final), latest first.
    pub open_autos: Vec<OpenAuto>,
    /// The record's page in the back office (history included).
    pub history_url: String,
    /// The back office's form to draw up an auto, filled with this record.
    pub new_auto_url: String,
}

/// Who holds the document.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Holder {
    /// Full name of the driver, or the company's name.
    pub name: String,
    /// The driver's CPF, masked (`***.456.789-**`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpf: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cnpj: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cnh_category: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cnh_expires_on: Option<NaiveDate>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct RecordVehicle {
    pub plate: String,
    pub make: String,
    pub model: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_year: Option<i32>,
}

#[derive(Debug, Clone, Default, Serialize, utoipa::ToSchema)]
pub struct RecordInspection {
    /// The latest vistoria: its day and whether it passed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_vistoria_on: Option<NaiveDate>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_vistoria_approved: Option<bool>,
    /// Last day of the vistoria in force.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vistoria_valid_until: Option<NaiveDate>,
    /// Charter: last day of the ITV report in force (art. 12, IV).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub itv_valid_until: Option<NaiveDate>,
    /// Charter: last day of the liability insurance (art. 12, III).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub insurance_valid_until: Option<NaiveDate>,
    /// What is pending or lapsed now, in pt-BR, each with its article.
    pub pending: Vec<String>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct RecordAuthorization {
    pub number: String,
    pub valid_from: NaiveDate,
    pub valid_until: NaiveDate,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revoked_at: Option<DateTime<Utc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revocation_reason: Option<String>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct RecordSanction {
    /// `suspension`, `cassacao`, `advertencia`…, as the law's API names it.
    pub kind: String,
    pub effective_from: NaiveDate,
    /// Suspensions: the day the holder may operate again (DL-9, exclusive).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<NaiveDate>,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct OpenAuto {
    pub number: String,
    /// The infraction (rule id or inciso).
    pub infraction: String,
    pub committed_on: NaiveDate,
    /// Where the procedure stands (`aguardando_defesa`, …).
    pub stage: String,
}

/// Whether `roles` may read the register of `kind`'s law.
pub fn may_read(roles: &Roles, kind: DocumentKind) -> bool {
    let competence = if kind.is_ride_hailing() {
        Competence::ReadRideHailing
    } else {
        Competence::ReadCharter
    };
    roles.allow(competence)
}

fn json_name<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// The record behind `doc` at `now`; `None` when its subject is gone from the register.
pub async fn record(
    state: &AppState,
    doc: &Document,
    now: DateTime<Utc>,
) -> Result<Option<InspectorRecord>, StorageError> {
    if doc.kind.is_ride_hailing() {
        ride_hailing(state, doc, now).await
    } else {
        charter(state, doc, now).await
    }
}

/// The authorization a ride-hailing document belongs to.
async fn authorization_of(state: &AppState, doc: &Document) -> Result<Option<Uuid>, StorageError> {
    Ok(match doc.kind {
        DocumentKind::RideHailingAuto => state
            .store
            .get_auto(doc.subject_id)
            .await?
            .and_then(|a| a.authorization_id),
        DocumentKind::RideHailingCertidao => Some(doc.subject_id),
        _ => doc.authorization_id,
    })
}

async fn ride_hailing(
    state: &AppState,
    doc: &Document,
    now: DateTime<Utc>,
) -> Result<Option<InspectorRecord>, StorageError> {
    let Some(id) = authorization_of(state, doc).await? else {
        return Ok(None);
    };
    let Some(r) = load_ride_hailing_record(state, id).await? else {
        return Ok(None);
    };
    let a = &r.authorization;
    let (_, report) =
        ride_hailing_standing(state, a.id, a.driver_id, a.vehicle_id, a.granted_at, now).await?;
    let today = local_date(now);
    let mut pending = Vec::new();
    if let Some(status) = report.status {
        pending.push(format!("{} (arts. 9º, 16 e 26, II)", status.label_pt()));
    }
    let mut cnh = Vec::new();
    crate::domain::ride_hailing::app_art12_i_cnh_in_force(r.driver.cnh.expires_on, today, &mut cnh);
    pending.extend(cnh.iter().map(|f| format!("{} ({})", f.message, f.article)));
    let sanctions = state.store.sanctions_of(a.id).await?;
    let cal = state.calendar().await?;
    let mut open_autos = Vec::new();
    for auto in state.store.autos_of_driver(r.driver.id).await? {
        let acts = acts_of(state, auto.id).await?;
        let p = state_of(
            &auto,
            &acts,
            today,
            &cal,
            &state.deadline_rules,
            &state.ride_hailing_basis(),
        );
        if !p.annulled && !p.final_ {
            open_autos.push(OpenAuto {
                number: auto.number.clone(),
                infraction: auto.infraction_id.clone(),
                committed_on: auto.committed_on,
                stage: p.stage.to_owned(),
            });
        }
    }
    Ok(Some(InspectorRecord {
        law: "ride_hailing",
        holder: Holder {
            name: r.driver.name.clone(),
            cpf: Some(r.driver.cpf.masked()),
            cnpj: None,
            cnh_category: Some(r.driver.cnh.category.as_str().to_owned()),
            cnh_expires_on: Some(r.driver.cnh.expires_on),
        },
        vehicle: Some(RecordVehicle {
            plate: r.vehicle.plate.formatted(),
            make: r.vehicle.make.clone(),
            model: r.vehicle.model.clone(),
            color: Some(r.vehicle.color.clone()),
            model_year: Some(r.vehicle.model_year),
        }),
        inspection: Some(RecordInspection {
            last_vistoria_on: report.last_vistoria.as_ref().map(|v| v.performed_on),
            last_vistoria_approved: report.last_vistoria.as_ref().map(|v| v.approved),
            vistoria_valid_until: report.vistoria_valid_until,
            pending,
            ..RecordInspection::default()
        }),
        authorization: Some(RecordAuthorization {
            number: a.number.clone(),
            valid_from: a.valid_from,
            valid_until: a.valid_until,
            revoked_at: a.revocation.as_ref().map(|r| r.revoked_at),
            revocation_reason: a.revocation.as_ref().map(|r| r.reason.clone()),
        }),
        sanctions: sanctions
            .iter()
            .map(|s| RecordSanction {
                kind: json_name(&s.kind),
                effective_from: s.effective_from,
                until: s.until,
                reason: s.reason.clone(),
            })
            .collect(),
        open_autos,
        history_url: format!("/painel/ver/app-authorizations/{}", a.id),
        new_auto_url: format!(
            "/painel/acao/autos.create?driver_id={}&authorization_id={}",
            r.driver.id, a.id
        ),
    }))
}

/// The bus of a selo: what it is and where its vistoria, ITV and insurance stand.
async fn bus_record(
    state: &AppState,
    vehicle_id: Uuid,
    company: &crate::standing::charter::Company,
    termos: &[crate::standing::charter::Termo],
    today: NaiveDate,
) -> Result<Option<(RecordVehicle, RecordInspection)>, StorageError> {
    let Some(v) = load_vehicle(&state.store, vehicle_id).await? else {
        return Ok(None);
    };
    let (report, _) = vehicle_live_status(&v, company, termos, today, &state.charter_basis());
    let last = v.record.vistorias.last();
    let inspection = RecordInspection {
        last_vistoria_on: last.map(|x| x.performed_on),
        last_vistoria_approved: last.map(|x| x.approved),
        vistoria_valid_until: report.vistoria_valid_until,
        itv_valid_until: report.itv_valid_until,
        insurance_valid_until: report.insurance_valid_to,
        pending: report
            .irregularities
            .iter()
            .map(|f| format!("{} ({})", f.message, f.article))
            .collect(),
    };
    let vehicle = RecordVehicle {
        plate: v.plate.formatted(),
        make: v.make.clone(),
        model: v.model.clone(),
        color: None,
        model_year: Some(v.record.facts.model_year),
    };
    Ok(Some((vehicle, inspection)))
}

async fn charter(
    state: &AppState,
    doc: &Document,
    now: DateTime<Utc>,
) -> Result<Option<InspectorRecord>, StorageError> {
    let Some(company_id) = doc.company_id else {
        return Ok(None);
    };
    let Some(company) = load_company(&state.store, company_id).await? else {
        return Ok(None);
    };
    let today = local_date(now);
    let termos = termos_of(&state.store, company.id).await?;
    let (vehicle, inspection) = match doc.kind {
        DocumentKind::CharterSelo => bus_record(state, doc.subject_id, &company, &termos, today)
            .await?
            .map_or((None, None), |(v, i)| (Some(v), Some(i))),
        _ => (None, None),
    };
    let (status, _) = company_status(&company, &termos, today);
    let authorization =
        current_termo(&termos, today)
            .or(termos.last())
            .map(|t| RecordAuthorization {
                number: t.number.clone(),
                valid_from: t.data.valid_from,
                valid_until: t.data.valid_until,
                revoked_at: None,
                revocation_reason: None,
            });
    let open_autos = crate::standing::charter::company_autos_now(state, company.id, today)
        .await?
        .into_iter()
        .rev()
        .filter(|a| !a.procedure.annulled && !a.procedure.final_)
        .map(|a| OpenAuto {
            number: a.number,
            infraction: a.data.infraction,
            committed_on: a.data.committed_on,
            stage: a.procedure.stage.to_owned(),
        })
        .collect();
    let plate = vehicle
        .as_ref()
        .map(|v| format!("&vehicle_plate={}", v.plate.replace('-', "")))
        .unwrap_or_default();
    let mut pending_company = Vec::new();
    if !matches!(status, crate::domain::charter::CharterStatus::Ativo) {
        pending_company.push(format!("Empresa: {}", status.label_pt()));
    }
    let inspection = match inspection {
        Some(mut i) => {
            i.pending.extend(pending_company);
            Some(i)
        }
        None if !pending_company.is_empty() => Some(RecordInspection {
            pending: pending_company,
            ..RecordInspection::default()
        }),
        None => None,
    };
    Ok(Some(InspectorRecord {
        law: "charter",
        holder: Holder {
            name: company.data.name.clone(),
            cpf: None,
            cnpj: Some(company.cnpj.formatted()),
            cnh_category: None,
            cnh_expires_on: None,
        },
        vehicle,
        inspection,
        authorization,
        sanctions: company
            .sanctions
            .iter()
            .map(|s| RecordSanction {
                kind: json_name(&s.kind),
                effective_from: s.effective_from,
                until: s.until,
                reason: format!("{} ({})", s.reason, s.article),
            })
            .collect(),
        open_autos,
        history_url: format!("/painel/ver/charter/companies/{}", company.id),
        new_auto_url: format!("/painel/acao/charter.create_auto?id={}{plate}", company.id),
    }))
}
