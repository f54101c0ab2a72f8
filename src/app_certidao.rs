//! The certidão de situação cadastral of a ride-hailing driver or vehicle (the same as
//! Lei 4.937/2025 art. 25 offers for charter, issue 4): the authorization's status at the
//! instant of issue and each requirement with its validity. Verifying it later answers
//! `outdated` when those facts no longer hold.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;
use uuid::Uuid;

use crate::charter_register::{CertifiedItem, DocSpec, Numbering, issue_document};
use crate::documents::{A4_QR_MM, common_inputs, format, merge};
use crate::domain::dates::local_date;
use crate::domain::ride_hailing::driver_record;
use crate::domain::ride_hailing::registry::{AppAuthorization, Driver, Vehicle};
use crate::domain::ride_hailing::sanctions::authorization_status;
use crate::domain::ride_hailing::{self, AuthorizationStatus};
use crate::issuance::GrantError;
use crate::state::AppState;
use crate::storage::charter::{CharterDocument, CharterEvent};
use crate::storage::{Repository, StorageError};
use crate::verification::{LiveStatus, PublicDocument, Verdict, app_standing};

pub const KIND_APP_CERTIDAO: &str = "app_certidao";
const SERIES: &str = "CERT-APP";

/// What a ride-hailing certidão certifies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AppCertifiedFacts {
    pub status: AuthorizationStatus,
    pub items: Vec<CertifiedItem>,
}

/// The authorization with its driver and vehicle.
pub struct AppRecord {
    pub authorization: AppAuthorization,
    pub driver: Driver,
    pub vehicle: Vehicle,
}

pub async fn load(
    state: &AppState,
    authorization_id: Uuid,
) -> Result<Option<AppRecord>, StorageError> {
    let Some(authorization) = state.store.get_authorization(authorization_id).await? else {
        return Ok(None);
    };
    let driver = state.store.get_driver(authorization.driver_id).await?;
    let vehicle = state.store.get_vehicle(authorization.vehicle_id).await?;
    Ok(driver.zip(vehicle).map(|(driver, vehicle)| AppRecord {
        authorization,
        driver,
        vehicle,
    }))
}

fn item(item: &str, ok: bool, valid_until: Option<NaiveDate>) -> CertifiedItem {
    CertifiedItem {
        item: item.to_owned(),
        situation: if ok { "regular" } else { "irregular" }.to_owned(),
        valid_until,
    }
}

/// The facts on `now`: the authorization's status (sanctions and vistorias included) and the
/// requirements of the driver (art. 12) or of the vehicle (arts. 2º, 8º, 16).
pub async fn facts(
    state: &AppState,
    r: &AppRecord,
    subject: &str,
    now: DateTime<Utc>,
) -> Result<AppCertifiedFacts, StorageError> {
    let today = local_date(now);
    let basis = &state.app_basis;
    let a = &r.authorization;
    let sanctions = state.store.sanctions_of(a.id).await?;
    let (standing, report) =
        app_standing(state, a.id, a.driver_id, a.vehicle_id, a.granted_at, now).await?;
    let (status, _) = authorization_status(
        a.valid_until,
        a.revocation.as_ref().map(|x| x.revoked_at),
        &sanctions,
        standing,
        now,
    );
    let mut items = vec![item(
        &format!("Autorização nº {} (art. 3º)", a.number),
        status == AuthorizationStatus::Active,
        Some(a.valid_until),
    )];
    if subject == "app_driver" {
        let d = r.driver.facts();
        let mut f = Vec::new();
        ride_hailing::app_art12_i_cnh(&d, today, basis, &mut f);
        items.push(item(
            &format!(
                "CNH categoria {} com EAR (art. 12, I)",
                r.driver.cnh.category
            ),
            f.is_empty(),
            Some(r.driver.cnh.expires_on),
        ));
        let mut f = Vec::new();
        driver_record::app_art12_iii_certificates(&d.record, today, basis, &mut f);
        items.push(item(
            "Certidões criminais (art. 12, III)",
            f.is_empty(),
            None,
        ));
        let mut f = Vec::new();
        driver_record::app_art12_iv_no_gravissima(&d.record, today, basis, &mut f);
        items.push(item(
            "Sem infração gravíssima nos últimos 12 meses (art. 12, IV)",
            f.is_empty(),
            None,
        ));
        let mut f = Vec::new();
        driver_record::app_art12_p1_ctb306(&d.record, today, basis, &mut f);
        items.push(item("CTB, art. 306 (art. 12, §1º)", f.is_empty(), None));
    } else {
        let v = r.vehicle.facts();
        let mut f = Vec::new();
        ride_hailing::app_art2_p1_p2_vehicle(&v, today, basis, &mut f);
        let last_year = r.vehicle.model_year + basis.max_vehicle_age_years;
        items.push(item(
            &format!(
                "Idade, portas e ar-condicionado — ano-modelo {} (art. 2º)",
                r.vehicle.model_year
            ),
            f.is_empty(),
            NaiveDate::from_ymd_opt(last_year, 12, 31),
        ));
        let mut f = Vec::new();
        ride_hailing::app_art8_p1_i_municipality(&v, basis, &mut f);
        items.push(item(
            "Emplacamento no município (art. 8º, §1º, I)",
            f.is_empty(),
            None,
        ));
        items.push(item(
            "Vistoria anual (art. 16)",
            report.vistoria_valid_until.is_some_and(|u| today <= u),
            report.vistoria_valid_until,
        ));
    }
    Ok(AppCertifiedFacts { status, items })
}

/// (title, printed fields, entity type, entity id, token subject) of the certidão's subject;
/// the CPF is masked and never in the token.
#[allow(clippy::type_complexity)]
fn subject_fields(
    r: &AppRecord,
    subject: &str,
) -> (
    &'static str,
    Vec<[String; 2]>,
    &'static str,
    Uuid,
    Option<String>,
) {
    if subject == "app_driver" {
        let d = &r.driver;
        (
            "Condutor",
            vec![
                ["Nome".to_owned(), d.name.clone()],
                ["CPF".to_owned(), d.cpf.masked()],
                [
                    "CNH nº de registro".to_owned(),
                    d.cnh.number.as_str().to_owned(),
                ],
                [
                    "Categoria / EAR".to_owned(),
                    format!(
                        "{} / {}",
                        d.cnh.category,
                        if d.cnh.ear { "sim" } else { "não" }
                    ),
                ],
                [
                    "Primeira habilitação".to_owned(),
                    format::date(d.cnh.first_license_date),
                ],
                ["Validade da CNH".to_owned(), format::date(d.cnh.expires_on)],
            ],
            "driver",
            d.id,
            None,
        )
    } else {
        let v = &r.vehicle;
        (
            "Veículo",
            vec![
                ["Placa".to_owned(), v.plate.formatted()],
                ["RENAVAM".to_owned(), v.renavam.as_str().to_owned()],
                ["Marca/modelo".to_owned(), format!("{} {}", v.make, v.model)],
                ["Cor".to_owned(), v.color.clone()],
                ["Ano-modelo".to_owned(), v.model_year.to_string()],
                [
                    "Portas / ar-condicionado".to_owned(),
                    format!(
                        "{} / {}",
                        v.doors,
                        if v.air_conditioning { "sim" } else { "não" }
                    ),
                ],
            ],
            "vehicle",
            v.id,
            Some(v.plate.as_str().to_owned()),
        )
    }
}

/// What a ride-hailing certidão prints besides its number and marks.
pub struct AppCertidaoPrint<'a> {
    pub record: &'a AppRecord,
    pub subject: &'a str,
    pub facts: &'a AppCertifiedFacts,
    pub protocol: &'a str,
    pub valid_until: NaiveDate,
    pub validity_days: u32,
}

/// Inputs of `templates/certidao.typ` for a ride-hailing driver or vehicle.
pub fn inputs(
    p: &AppCertidaoPrint<'_>,
    number: &str,
    public_url: &str,
    basis: &crate::domain::legal_basis::AppLegalBasis,
    code: &str,
    qr_width_mm: f64,
    now: DateTime<Utc>,
) -> serde_json::Value {
    let (title, fields, ..) = subject_fields(p.record, p.subject);
    let a = &p.record.authorization;
    let items = crate::charter_register::certified_rows(&p.facts.items);
    merge(
        common_inputs(
            public_url,
            basis.citation,
            basis.version,
            code,
            qr_width_mm,
            now,
        ),
        json!({
        "number": number,
        "secretariat": "Secretaria Municipal de Finanças",
        "grounds": "com fundamento na lei municipal do transporte remunerado privado individual de passageiros por plataformas tecnológicas",
        "protocol": p.protocol,
        "status": p.facts.status.label_pt(),
        "subject_title": title,
        "subject_fields": fields,
        "link_title": "Autorização",
        "link_fields": [
            ["Autorização nº".to_owned(), a.number.clone()],
            ["Vigência".to_owned(), format!("{} a {}", format::date(a.valid_from), format::date(a.valid_until))],
            ["Situação".to_owned(), p.facts.status.label_pt().to_owned()],
        ],
        "items": items,
        "notes": "",
        "valid_until": format::date(p.valid_until),
        "validity_days": p.validity_days.to_string(),
        "signatory": "Secretário(a) Municipal de Finanças",
        }),
    )
}

/// Issues the certidão of the driver (`app_driver`) or vehicle (`app_vehicle`) of an
/// authorization.
pub async fn issue(
    state: &AppState,
    r: &AppRecord,
    subject: &'static str,
    protocol: &str,
    actor: &str,
) -> Result<CharterDocument, GrantError> {
    let now = state.clock.now();
    let today = local_date(now);
    let facts = facts(state, r, subject, now).await?;
    let valid_until =
        today + chrono::Duration::days(i64::from(state.charter_basis.certidao_validity_days));
    let (_, _, entity, entity_id, key) = subject_fields(r, subject);
    let spec = DocSpec {
        kind: KIND_APP_CERTIDAO,
        subject_type: subject,
        subject_id: r.authorization.id,
        company_id: None,
        issuer: crate::documents::APP_ISSUER,
        numbering: Numbering::Reserve(SERIES),
        subject_key: key,
        valid_until,
        template: "certidao.typ",
        reason: "Certidão de situação cadastral",
        qr_mm: A4_QR_MM,
        facts: Some(serde_json::to_value(&facts).map_err(|_| GrantError::Encoding)?),
    };
    let public_url = &state.letterhead.public_url;
    let basis = &state.app_basis;
    issue_document(
        state,
        spec,
        |number, code, qr| {
            let print = AppCertidaoPrint {
                record: r,
                subject,
                facts: &facts,
                protocol,
                valid_until,
                validity_days: state.charter_basis.certidao_validity_days,
            };
            inputs(&print, number, public_url, basis, code, qr, now)
        },
        |_| Ok(None),
        |number| {
            vec![CharterEvent {
                entity_type: entity,
                entity_id,
                kind: "certidao_issued",
                actor,
                reason: None,
                legal_basis_version: basis.version,
                at: now,
                data: json!({ "number": number, "status": facts.status, "protocol": protocol }),
            }]
        },
    )
    .await
}

/// The verdict on a ride-hailing certidão now: expired after its 30 days, `outdated` when
/// the certified facts changed, else valid.
pub async fn verdict(
    state: &AppState,
    doc: &CharterDocument,
    now: DateTime<Utc>,
) -> Result<Option<(Verdict, PublicDocument)>, StorageError> {
    let Some(r) = load(state, doc.subject_id).await? else {
        return Ok(None);
    };
    let current = facts(state, &r, &doc.subject_type, now).await?;
    let then: Option<AppCertifiedFacts> = doc
        .facts
        .as_ref()
        .and_then(|f| serde_json::from_value(f.clone()).ok());
    let holds = then.as_ref() == Some(&current);
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
            kind: crate::storage::DocumentKind::AppCertidao,
            number: doc.number.clone(),
            plate: subject,
            valid_until,
            status: LiveStatus::App(current.status),
            company: None,
            facts_hold: Some(holds),
            suspended_until: None,
        },
    )))
}
