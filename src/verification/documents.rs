//! The live status of each kind of register document (certidões and autos of both laws,
//! charter Termos and selos), for verification's one dispatch on the document kind.

use chrono::{DateTime, NaiveDate, Utc};

use crate::domain::charter::{CharterStatus, termo_status, vehicle_with_company};
use crate::domain::dates::local_date;
use crate::standing::charter::{
    CertidaoSubject, CertifiedFacts, CertifiedItem, Company, Termo, certidao_subject,
    company_autos_now, company_status, load_company, load_vehicle, termos_of, vehicle_live_status,
};
use crate::standing::ride_hailing::{
    RideHailingCertifiedFacts, acts_of, load_ride_hailing_record, ride_hailing_certified_facts,
    state_of,
};
use crate::state::AppState;
use crate::storage::DocumentKind;
use crate::storage::StorageError;
use crate::storage::documents::Document;
use crate::verification::{LiveStatus, PublicDocument, PublicVehicle, Verdict};

/// The live state of a charter document, for verification.
#[derive(Debug, Clone)]
pub struct CharterDocumentStatus {
    pub status: CharterStatus,
    pub suspended_until: Option<NaiveDate>,
    /// The charter company (`None` for ride-hailing documents).
    pub company_name: Option<String>,
    /// Plate, CNPJ or masked CPF, formatted for reading.
    pub subject: String,
    /// Certidões: whether what was certified still holds.
    pub facts_hold: Option<bool>,
    /// The bus of a selo de vistoria.
    pub vehicle: Option<PublicVehicle>,
    /// The change log's scope the status belongs to (`c:` the company, `d:` the driver).
    pub scope: String,
}

/// FRET-ART8-P1, FRET-ART13, FRET-ART18–20, FRET-ART25: what a charter document says now.
pub async fn charter_verdict(
    state: &AppState,
    doc: &Document,
    now: DateTime<Utc>,
) -> Result<Option<CharterDocumentStatus>, StorageError> {
    let today = local_date(now);
    let basis = &state.charter_basis();
    let Some(company_id) = doc.company_id else {
        return Ok(None);
    };
    let Some(company) = load_company(&state.store, company_id).await? else {
        return Ok(None);
    };
    let termos = termos_of(&state.store, company.id).await?;
    let expired = doc.valid_until.is_some_and(|u| today > u);
    let mut facts_hold = None;
    let mut vehicle = None;
    let (status, suspended_until, subject) = match doc.kind {
        DocumentKind::CharterTermo => {
            let Some(t) = termos.iter().find(|t| t.id == doc.subject_id) else {
                return Ok(None);
            };
            let (s, until) = termo_status(
                t.data.valid_from,
                t.data.valid_until,
                &company.sanctions,
                today,
            );
            (s, until, company.cnpj.formatted())
        }
        DocumentKind::CharterSelo => {
            let Some(v) = load_vehicle(&state.store, doc.subject_id).await? else {
                return Ok(None);
            };
            let (report, owner_status) = vehicle_live_status(&v, &company, &termos, today, basis);
            // The selo's own last day counts after the final and company-wide statuses.
            let status = match vehicle_with_company(report.status, owner_status) {
                s @ (CharterStatus::Baixado
                | CharterStatus::VidaUtilVencida
                | CharterStatus::Cassado
                | CharterStatus::Suspenso) => s,
                _ if expired => CharterStatus::Vencido,
                s => s,
            };
            let until = (status == CharterStatus::Suspenso)
                .then(|| company_status(&company, &termos, today).1)
                .flatten();
            vehicle = Some(bus(&v));
            (status, until, v.plate.formatted())
        }
        DocumentKind::CharterAuto => {
            let views = company_autos_now(state, company.id, today).await?;
            let Some(view) = views.iter().find(|v| v.id == doc.subject_id) else {
                return Ok(None);
            };
            let status = if view.procedure.annulled {
                CharterStatus::Anulado
            } else {
                CharterStatus::Ativo
            };
            (status, None, company.cnpj.formatted())
        }
        DocumentKind::CharterCertidao => {
            let Some(subject) =
                certidao_subject(&state.store, &doc.subject_type, doc.subject_id).await?
            else {
                return Ok(None);
            };
            let (now_status, holds) =
                charter_certidao_holds(state, &subject, &company, &termos, doc, today).await?;
            facts_hold = Some(holds);
            let status = if expired {
                CharterStatus::Vencido
            } else {
                now_status
            };
            (status, None, subject.public_label())
        }
        _ => return Ok(None),
    };
    Ok(Some(CharterDocumentStatus {
        status,
        suspended_until,
        company_name: Some(company.data.name),
        subject,
        facts_hold,
        vehicle,
        scope: format!("c:{company_id}"),
    }))
}

/// The bus of a selo de vistoria, as a passenger sees it.
fn bus(v: &crate::standing::charter::CharterVehicle) -> PublicVehicle {
    PublicVehicle {
        make: v.make.clone(),
        model: v.model.clone(),
        color: None,
        body: Some(v.record.facts.kind_label_pt().to_owned()),
    }
}

/// A charter certidão's subject's status now, and whether its facts still hold as certified.
async fn charter_certidao_holds(
    state: &AppState,
    subject: &CertidaoSubject,
    company: &Company,
    termos: &[Termo],
    doc: &Document,
    today: NaiveDate,
) -> Result<(CharterStatus, bool), StorageError> {
    let now_facts =
        crate::standing::charter::certidao_facts_now(state, subject, company, termos, today)
            .await?;
    let then: Option<CertifiedFacts> = doc
        .facts
        .as_ref()
        .and_then(|f| serde_json::from_value(f.clone()).ok());
    let holds = then
        .as_ref()
        .is_some_and(|t| t.status == now_facts.status && same_items(&t.items, &now_facts.items));
    Ok((now_facts.status, holds))
}

/// Whether each item a certidão certified still holds as certified. Items a later version of
/// selo certifies (the line of fines in debt) are not held against a certidão issued before
/// them; an item no longer certified makes it outdated.
fn same_items(then: &[CertifiedItem], now: &[CertifiedItem]) -> bool {
    then.iter().all(|t| now.contains(t))
}

/// The verdict on a ride-hailing certidão now: expired after its 30 days, `outdated` when
/// the certified facts changed, else valid.
pub async fn ride_hailing_certidao_verdict(
    state: &AppState,
    doc: &Document,
    now: DateTime<Utc>,
) -> Result<Option<(Verdict, PublicDocument, String)>, StorageError> {
    let Some(r) = load_ride_hailing_record(state, doc.subject_id).await? else {
        return Ok(None);
    };
    let current = ride_hailing_certified_facts(state, &r, &doc.subject_type, now).await?;
    let then: Option<RideHailingCertifiedFacts> = doc
        .facts
        .as_ref()
        .and_then(|f| serde_json::from_value(f.clone()).ok());
    let holds = then
        .as_ref()
        .is_some_and(|t| t.status == current.status && same_items(&t.items, &current.items));
    let expired = doc.valid_until.is_some_and(|u| local_date(now) > u);
    let verdict = if expired {
        Verdict::Expired
    } else if holds {
        Verdict::Valid
    } else {
        Verdict::Outdated
    };
    let subject = if doc.subject_type == "app_driver" {
        format!("Condutor CPF {}", r.driver.cpf.masked())
    } else {
        r.vehicle.plate.formatted()
    };
    let Some(valid_until) = doc.valid_until else {
        return Ok(None);
    };
    Ok(Some((
        verdict,
        PublicDocument {
            kind: crate::storage::DocumentKind::RideHailingCertidao,
            number: doc.number.clone(),
            plate: subject,
            valid_until,
            status: LiveStatus::RideHailing(current.status),
            company: None,
            facts_hold: Some(holds),
            suspended_until: None,
            vehicle: None,
            driver: None,
        },
        format!("d:{}", r.driver.id),
    )))
}

/// What a ride-hailing auto notice says now: `anulado` once annulled, else `ativo`.
pub async fn auto_verdict(
    state: &AppState,
    doc: &Document,
    now: DateTime<Utc>,
) -> Result<Option<CharterDocumentStatus>, StorageError> {
    if doc.kind != DocumentKind::RideHailingAuto {
        return Ok(None);
    }
    let Some(auto) = state.store.get_auto(doc.subject_id).await? else {
        return Ok(None);
    };
    let acts = acts_of(state, auto.id).await?;
    let cal = state.calendar().await?;
    let p = state_of(
        &auto,
        &acts,
        local_date(now),
        &cal,
        &state.deadline_rules,
        &state.ride_hailing_basis(),
    );
    Ok(Some(CharterDocumentStatus {
        status: if p.annulled {
            CharterStatus::Anulado
        } else {
            CharterStatus::Ativo
        },
        suspended_until: None,
        company_name: None,
        subject: crate::domain::ids::Plate::parse(&doc.subject_key)
            .map_or_else(|_| doc.subject_key.clone(), |p| p.formatted()),
        facts_hold: None,
        vehicle: None,
        scope: format!("d:{}", auto.driver_id),
    }))
}
