//! Use case: the ride-hailing certidão (what the register certifies about a driver or car).

use chrono::{DateTime, NaiveDate, Utc};
use serde_json::json;
use uuid::Uuid;

use crate::documents::{A4_QR_MM, common_inputs, format, merge};
use crate::domain::dates::local_date;
use crate::domain::ride_hailing::RideHailingAct;
use crate::issuance::UseCaseError;
use crate::issuance::pipeline::{Act, DocSpec, Numbering, issue_document};
use crate::standing::ride_hailing::{
    RideHailingCertifiedFacts, RideHailingRecord, ride_hailing_certified_facts,
};
use crate::state::AppState;
use crate::storage::DocumentKind;
use crate::storage::documents::Document;

const SERIES: &str = "CERT-APP";

/// (title, printed fields, entity type, entity id, token subject) of the certidão's subject;
/// the CPF is masked and never in the token.
fn ride_hailing_subject_fields(
    r: &RideHailingRecord,
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
pub struct RideHailingCertidaoPrint<'a> {
    pub record: &'a RideHailingRecord,
    pub subject: &'a str,
    pub facts: &'a RideHailingCertifiedFacts,
    pub protocol: &'a str,
    pub valid_until: NaiveDate,
    pub validity_days: u32,
    /// The official who issues it, by name (the certidão's audit line).
    pub issued_by: &'a str,
}

/// Inputs of `templates/certidao.typ` for a ride-hailing driver or vehicle.
pub fn inputs(
    p: &RideHailingCertidaoPrint<'_>,
    number: &str,
    letterhead: &crate::documents::Letterhead,
    basis: &crate::domain::legal_basis::RideHailingLegalBasis,
    code: &str,
    qr_width_mm: f64,
    now: DateTime<Utc>,
) -> serde_json::Value {
    let (title, fields, ..) = ride_hailing_subject_fields(p.record, p.subject);
    let a = &p.record.authorization;
    let items = crate::issuance::pipeline::certified_rows(&p.facts.items);
    let law = letterhead.profile.law(&basis.version).map_or_else(
        || basis.citation.clone(),
        crate::documents::profile::LawCitation::law,
    );
    let provision = basis
        .document_citations
        .as_ref()
        .map(|c| c.certidao.as_str());
    merge(
        common_inputs(
            &letterhead.public_url,
            &crate::documents::cite_provision(
                &letterhead.profile,
                &basis.version,
                provision,
                &basis.citation,
            ),
            &basis.version,
            code,
            qr_width_mm,
            now,
        ),
        json!({
        "number": number,
        "secretariat": letterhead.profile.secretariat(&basis.issuing_secretariat).map_or("Secretaria Municipal de Finanças", |s| s.name.as_str()),
        // APP-ART17: the SMF's police power over the service; art. 3º: the authorization.
        "grounds": crate::documents::grounded_on(provision, &law),
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
        "signer": basis.issuing_secretariat,
        "issued_by": p.issued_by,
        }),
    )
}

/// Issues the certidão of the driver (`app_driver`) or vehicle (`app_vehicle`) of an
/// authorization.
pub async fn issue(
    state: &AppState,
    r: &RideHailingRecord,
    subject: &'static str,
    protocol: &str,
    actor: &str,
) -> Result<Document, UseCaseError> {
    let now = state.clock.now();
    let today = local_date(now);
    let facts = ride_hailing_certified_facts(state, r, subject, now).await?;
    let issued_by = crate::issuance::officials::name_of(&state.store, actor).await?;
    let valid_until =
        today + chrono::Duration::days(i64::from(state.charter_basis().certidao_validity_days));
    let (_, _, entity, entity_id, key) = ride_hailing_subject_fields(r, subject);
    let spec = DocSpec {
        legal_basis_version: state.ride_hailing_basis().version.clone(),
        kind: DocumentKind::RideHailingCertidao,
        subject_type: subject,
        subject_id: r.authorization.id,
        company_id: None,
        issuer: crate::documents::RIDE_HAILING_ISSUER,
        numbering: Numbering::Reserve(SERIES),
        subject_key: key,
        valid_until,
        template: "certidao.typ",
        reason: "Certidão de situação cadastral",
        qr_mm: A4_QR_MM,
        facts: Some(serde_json::to_value(&facts).map_err(|_| UseCaseError::Encoding)?),
    };
    let letterhead = state.letterhead.as_ref();
    let basis = &state.ride_hailing_basis();
    issue_document(
        state,
        spec,
        actor,
        |number, code, qr| {
            let print = RideHailingCertidaoPrint {
                record: r,
                subject,
                facts: &facts,
                protocol,
                valid_until,
                validity_days: state.charter_basis().certidao_validity_days,
                issued_by: &issued_by,
            };
            inputs(&print, number, letterhead, basis, code, qr, now)
        },
        |_| Ok(None),
        |number| {
            vec![Act::new(
                entity,
                entity_id,
                RideHailingAct::CertidaoIssued.as_str(),
                json!({ "number": number, "status": facts.status, "protocol": protocol }),
            )]
        },
    )
    .await
}
