//! Charter drivers (Lei 4.937/2025, art. 15): what they must hold and their status.

use super::{
    CharterLegalBasis, CharterStatus, CnhCategory, Deserialize, Failures, NaiveDate, Proof,
    Serialize, add_months, br, fail,
};

/// What the register knows of a charter driver.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct CharterDriverFacts {
    pub birth_date: NaiveDate,
    pub cnh_category: String,
    pub cnh_ear: bool,
    pub cnh_expires_on: NaiveDate,
    /// Art. 15, II: collective passenger transport course.
    pub course_certificate: Option<Proof>,
    /// Art. 15, III: Alvará de Folha Corrida.
    pub folha_corrida: Option<Proof>,
    /// Art. 15, IV: `ctps`, `ctps_digital`, `esocial` or `socio` (AMB-49), with a reference.
    pub employment_link: Option<EmploymentLink>,
    /// Art. 15, V: date of the last toxicological exam.
    pub toxicological_exam_on: Option<NaiveDate>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct EmploymentLink {
    pub kind: String,
    pub reference: String,
}

/// FRET-ART15-I: CNH D or E (AD/AE accepted) with EAR, not expired.
pub fn fret_art15_i_cnh(f: &CharterDriverFacts, today: NaiveDate, out: &mut Failures) {
    if !matches!(
        CnhCategory::parse(&f.cnh_category),
        Ok(CnhCategory::D | CnhCategory::E | CnhCategory::Ad | CnhCategory::Ae)
    ) {
        let msg = format!(
            "A CNH deve ser da categoria D ou E (AD/AE aceitas); a categoria informada é {}.",
            f.cnh_category
        );
        fail(out, "FRET-ART15-I", "art. 15, I", "cnh_category", msg);
    }
    if !f.cnh_ear {
        let msg = "A CNH deve conter a observação \"Exerce Atividade Remunerada\".".to_owned();
        fail(out, "FRET-ART15-I", "art. 15, I", "cnh_ear", msg);
    }
    if f.cnh_expires_on < today {
        let msg = format!("CNH vencida em {}.", br(f.cnh_expires_on));
        fail(out, "FRET-ART15-I", "art. 15, I", "cnh_expires_on", msg);
    }
}

pub(super) fn proof_in_force(
    p: Option<&Proof>,
    default_days: Option<u32>,
    today: NaiveDate,
) -> Result<(), Option<NaiveDate>> {
    let p = p.ok_or(None)?;
    let until = p.valid_until.or_else(|| {
        default_days
            .zip(p.issued_on)
            .map(|(d, i)| i + chrono::Duration::days(i64::from(d)))
    });
    match until {
        Some(u) if u < today => Err(Some(u)),
        _ => Ok(()),
    }
}

/// FRET-ART15-II: the collective passenger transport course, in force.
pub fn fret_art15_ii_course(f: &CharterDriverFacts, today: NaiveDate, out: &mut Failures) {
    match proof_in_force(f.course_certificate.as_ref(), None, today) {
        Ok(()) => {}
        Err(None) => fail(
            out,
            "FRET-ART15-II",
            "art. 15, II",
            "course_certificate",
            "Apresente o certificado do curso de transporte coletivo de passageiros.".to_owned(),
        ),
        Err(Some(u)) => fail(
            out,
            "FRET-ART15-II",
            "art. 15, II",
            "course_certificate",
            format!(
                "Curso de transporte coletivo de passageiros vencido em {}.",
                br(u)
            ),
        ),
    }
}

/// FRET-ART15-III (AMB-58): the Alvará de Folha Corrida, in force (one that prints no validity
/// lasts `certificate_default_validity_days`).
pub fn fret_art15_iii_folha_corrida(
    f: &CharterDriverFacts,
    today: NaiveDate,
    basis: &CharterLegalBasis,
    out: &mut Failures,
) {
    let default = Some(basis.certificate_default_validity_days);
    match proof_in_force(f.folha_corrida.as_ref(), default, today) {
        Ok(()) => {}
        Err(None) => fail(
            out,
            "FRET-ART15-III",
            "art. 15, III",
            "folha_corrida",
            "Apresente o Alvará de Folha Corrida.".to_owned(),
        ),
        Err(Some(u)) => fail(
            out,
            "FRET-ART15-III",
            "art. 15, III",
            "folha_corrida",
            format!("Alvará de Folha Corrida vencido em {}.", br(u)),
        ),
    }
}

/// FRET-ART15-IV (AMB-49): the link with the company.
pub fn fret_art15_iv_employment_link(f: &CharterDriverFacts, out: &mut Failures) {
    let link_ok = f.employment_link.as_ref().is_some_and(|l| {
        matches!(
            l.kind.as_str(),
            "ctps" | "ctps_digital" | "esocial" | "socio"
        ) && !l.reference.trim().is_empty()
    });
    if !link_ok {
        let msg = "Comprove o vínculo com a empresa (CTPS, CTPS digital, eSocial ou contrato \
                   social, no caso de sócio)."
            .to_owned();
        fail(out, "FRET-ART15-IV", "art. 15, IV", "employment_link", msg);
    }
}

/// FRET-ART15-V (CTB art. 148-A, §2º): a toxicological exam within
/// `toxicological_validity_months`.
pub fn fret_art15_v_toxicological(
    f: &CharterDriverFacts,
    today: NaiveDate,
    basis: &CharterLegalBasis,
    out: &mut Failures,
) {
    match f.toxicological_exam_on {
        None => fail(
            out,
            "FRET-ART15-V",
            "art. 15, V",
            "toxicological_exam_on",
            "Apresente o exame toxicológico.".to_owned(),
        ),
        Some(d) => {
            let until = add_months(d, basis.toxicological_validity_months, basis.month_overflow);
            if today > until {
                let msg = format!(
                    "Exame toxicológico de {} vencido em {} (CTB, art. 148-A, §2º).",
                    br(d),
                    br(until)
                );
                fail(
                    out,
                    "FRET-ART15-V",
                    "art. 15, V",
                    "toxicological_exam_on",
                    msg,
                );
            }
        }
    }
}

/// AMB-58 [FED] CTB art. 145, I: at least `min_driver_age_years` of age.
pub fn ctb145_min_age(
    f: &CharterDriverFacts,
    today: NaiveDate,
    basis: &CharterLegalBasis,
    out: &mut Failures,
) {
    // DL-9: a minimum age is met on the birthday.
    let adult = add_months(
        f.birth_date,
        basis.min_driver_age_years * 12,
        basis.month_overflow,
    );
    if today < adult {
        let msg = format!(
            "O condutor deve ter no mínimo {} anos (CTB, art. 145, I).",
            basis.min_driver_age_years
        );
        fail(out, "FED-CTB145-I", "CTB, art. 145, I", "birth_date", msg);
    }
}

/// FRET-ART15, FRET-ART24: status of a driver on `today`.
pub fn driver_status(
    f: &CharterDriverFacts,
    deregistered_on: Option<NaiveDate>,
    today: NaiveDate,
    basis: &CharterLegalBasis,
) -> (CharterStatus, Failures) {
    if deregistered_on.is_some_and(|d| d <= today) {
        return (CharterStatus::Baixado, Vec::new());
    }
    let failures = super::driver_requirements(f, today, basis);
    let status = if failures.is_empty() {
        CharterStatus::Ativo
    } else {
        CharterStatus::Irregular
    };
    (status, failures)
}
