//! The charter law's eligibility as data: the basis file lists what it asks of a company
//! (art. 7's documents, the art. 20 bar), a bus (arts. 10–13) and a charter driver (art. 15)
//! as `[[requirements]]`, each a kind implemented once in this module's siblings, with the
//! rule id and the citation the file gives it. The periods the checks count (ITV, service
//! life, toxicological exam, age…) are the basis's own keys. A basis that drops a requirement
//! no longer asks for it; one that re-cites it refuses with its own citation.

use std::borrow::Cow;

pub use super::requirement_kinds::{CharterRequirement, CharterRequirementKind};
use super::{
    CharterDriverFacts, CharterLegalBasis, CharterVehicleFacts, Cnpj, CompanyChecklist, Failures,
    NaiveDate, check_item, ctb145_min_age, fret_art10_pu_capacity, fret_art11_type,
    fret_art12_i_ownership, fret_art12_ii_crlv, fret_art12_iii_insurance, fret_art12_iv_itv,
    fret_art13_p1_a_service_life, fret_art15_i_cnh, fret_art15_ii_course,
    fret_art15_iii_folha_corrida, fret_art15_iv_employment_link, fret_art15_v_toxicological,
    fret_art20_pu_bar,
};

/// The failures pushed since `from` carry the requirement's rule and citation.
fn cited(out: &mut Failures, from: usize, r: &CharterRequirement) {
    for f in &mut out[from..] {
        f.rule = Cow::Owned(r.rule.clone());
        f.article = Cow::Owned(r.citation.clone());
    }
}

/// The company's documents the basis asks for (art. 7), each in force on `today`.
pub fn company_documents(
    checklist: &CompanyChecklist,
    today: NaiveDate,
    basis: &CharterLegalBasis,
    out: &mut Failures,
) {
    for r in &basis.requirements {
        let CharterRequirementKind::CompanyDocument {
            item,
            needs_validity,
        } = &r.kind
        else {
            continue;
        };
        let Some(mut i) = checklist.item(item) else {
            continue;
        };
        i.needs_validity = *needs_validity;
        let from = out.len();
        check_item(&i, today, out);
        cited(out, from, r);
    }
}

/// The art. 20 bar, if the basis has it: the first day the company may register again, if
/// after `on` (a failure is pushed then).
pub fn company_bar(
    cassations: &[NaiveDate],
    on: NaiveDate,
    basis: &CharterLegalBasis,
    out: &mut Failures,
) -> Option<NaiveDate> {
    let r = basis
        .requirements
        .iter()
        .find(|r| r.kind == CharterRequirementKind::CompanyCassacaoBar {})?;
    let from = out.len();
    let lifts = fret_art20_pu_bar(cassations, on, basis, out);
    cited(out, from, r);
    lifts
}

/// Runs `check` on each requirement of the basis; the failures it pushes for one carry that
/// one's rule and citation. `check` answers whether the kind is one it checks.
fn each(
    basis: &CharterLegalBasis,
    mut check: impl FnMut(&CharterRequirementKind, &mut Failures) -> bool,
) -> Failures {
    let mut out = Vec::new();
    for r in &basis.requirements {
        let from = out.len();
        if check(&r.kind, &mut out) {
            cited(&mut out, from, r);
        }
    }
    out
}

/// Every requirement of a bus the basis asks for, on `today`.
pub fn vehicle_requirements(
    f: &CharterVehicleFacts,
    company: &Cnpj,
    last_itv: Option<NaiveDate>,
    today: NaiveDate,
    basis: &CharterLegalBasis,
) -> Failures {
    use CharterRequirementKind as K;
    each(basis, |kind, out| {
        match kind {
            K::BusType {} => fret_art11_type(f, out),
            K::BusCapacity {} => fret_art10_pu_capacity(f, out),
            K::BusOwnership {} => fret_art12_i_ownership(f, company, out),
            K::BusCrlv {} => fret_art12_ii_crlv(f, today, basis, out),
            K::BusInsurance {} => fret_art12_iii_insurance(f, today, out),
            K::BusItv {} => fret_art12_iv_itv(f, last_itv, today, basis, out),
            K::BusServiceLife {} => fret_art13_p1_a_service_life(f, today, basis, out),
            _ => return false,
        }
        true
    })
}

/// Every requirement of a charter driver the basis asks for, on `today`.
pub fn driver_requirements(
    f: &CharterDriverFacts,
    today: NaiveDate,
    basis: &CharterLegalBasis,
) -> Failures {
    use CharterRequirementKind as K;
    each(basis, |kind, out| {
        match kind {
            K::DriverLicense {} => fret_art15_i_cnh(f, today, out),
            K::DriverCourse {} => fret_art15_ii_course(f, today, out),
            K::DriverCriminalRecord {} => fret_art15_iii_folha_corrida(f, today, basis, out),
            K::DriverEmploymentLink {} => fret_art15_iv_employment_link(f, out),
            K::DriverToxicological {} => fret_art15_v_toxicological(f, today, basis, out),
            K::DriverMinAge {} => ctb145_min_age(f, today, basis, out),
            _ => return false,
        }
        true
    })
}
