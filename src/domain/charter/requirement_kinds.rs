//! The kinds of requirement the charter law's basis file may list, with their parameters,
//! as a basis file reads them; the checks are in `requirements`.

use super::CompanyChecklist;
use crate::domain::requirements::{KindSet, Requirement};

/// The kinds of charter requirement selo implements. Their numbers are the basis's keys
/// (`itv_validity_months`, `service_life_months`, `crlv_years_back_accepted`,
/// `toxicological_validity_months`, `certificate_default_validity_days`,
/// `min_driver_age_years`, `cassacao_bar_months`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum CharterRequirementKind {
    /// One document of the company's art. 7 checklist (`item`: its key, e.g. `cnd_federal`),
    /// presented and within the validity printed on it; `needs_validity`: it must print one.
    CompanyDocument { item: String, needs_validity: bool },
    /// After a cassação, no new registration for `cassacao_bar_months` (judged at the protocol
    /// and at the grant).
    CompanyCassacaoBar {},
    /// Only ônibus and micro-ônibus, one or two doors, no turnstile.
    BusType {},
    /// The seated capacity of the CRLV is known.
    BusCapacity {},
    /// The CRV (or an RTD-registered purchase) in the company's name.
    BusOwnership {},
    /// The CRLV of the exercise (or of `crlv_years_back_accepted` before).
    BusCrlv {},
    /// Third-party liability insurance in force.
    BusInsurance {},
    /// An ITV report within `itv_validity_months`.
    BusItv {},
    /// Within `service_life_months` of the first registration.
    BusServiceLife {},
    /// CNH D or E (AD/AE) with the EAR remark, in force.
    DriverLicense {},
    /// The collective passenger transport course.
    DriverCourse {},
    /// The criminal record (Alvará de Folha Corrida) in force.
    DriverCriminalRecord {},
    /// The link with the company (CTPS, eSocial, contrato social).
    DriverEmploymentLink {},
    /// A toxicological exam within `toxicological_validity_months`.
    DriverToxicological {},
    /// At least `min_driver_age_years` of age.
    DriverMinAge {},
}

/// Every charter kind, with the parameters each takes.
pub const CHARTER_KINDS: &[(&str, &[&str])] = &[
    ("company_document", &["item", "needs_validity"]),
    ("company_cassacao_bar", &[]),
    ("bus_type", &[]),
    ("bus_capacity", &[]),
    ("bus_ownership", &[]),
    ("bus_crlv", &[]),
    ("bus_insurance", &[]),
    ("bus_itv", &[]),
    ("bus_service_life", &[]),
    ("driver_license", &[]),
    ("driver_course", &[]),
    ("driver_criminal_record", &[]),
    ("driver_employment_link", &[]),
    ("driver_toxicological", &[]),
    ("driver_min_age", &[]),
];

impl KindSet for CharterRequirementKind {
    const KINDS: &'static [(&'static str, &'static [&'static str])] = CHARTER_KINDS;

    fn problems(&self, at: &str, out: &mut Vec<String>) {
        if let Self::CompanyDocument { item, .. } = self
            && CompanyChecklist::default().item(item).is_none()
        {
            let known: Vec<String> = CompanyChecklist::default()
                .items()
                .iter()
                .map(|i| i.key().to_owned())
                .collect();
            out.push(format!(
                "{at}: item `{item}` não é documento do cadastro da empresa; os conhecidos: {}.",
                known.join(", ")
            ));
        }
    }
}

/// A charter requirement of the basis.
pub type CharterRequirement = Requirement<CharterRequirementKind>;
