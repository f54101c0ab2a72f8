//! Vehicles (Lei 4.937/2025, arts. 10–14): enrolment, age, vistorias, the selo and
//! substitution.

use super::{
    CharterLegalBasis, CharterStatus, Cnpj, Datelike, Deserialize, Failures, NaiveDate,
    RuleFailure, Serialize, add_months, br, fail,
};

/// Third-party liability insurance (art. 12, III).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Insurance {
    pub policy: String,
    pub insurer: String,
    pub valid_from: NaiveDate,
    pub valid_to: NaiveDate,
}

/// What the register knows of a charter vehicle (CRV/CRLV and the art. 12 documents).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct CharterVehicleFacts {
    /// CRLV espécie/tipo: `onibus` or `micro_onibus` may be registered (art. 11).
    pub kind: String,
    pub doors: i32,
    pub has_turnstile: bool,
    /// Original seated capacity: CRLV lotação minus the driver (art. 10 PU).
    pub seated_capacity: i32,
    pub model_year: i32,
    /// Exact date of the first registration (art. 13 §1º, AMB-15).
    pub first_registration_date: NaiveDate,
    /// Only the year is known: 01/01 is used and the case goes to manual review (AMB-15).
    #[serde(default)]
    pub first_registration_year_only: bool,
    /// Zero-km at registration: exempt from the first ITV report only (art. 12, IV).
    #[serde(default)]
    pub zero_km: bool,
    /// CNPJ of the owner in the CRV, or of the buyer in the RTD contract (art. 12, I).
    pub owner_cnpj: String,
    /// `crv`, `crv_e`, `atpv_e`, `contrato_rtd` or `extrato_detran` (AMB-50).
    pub ownership_proof: String,
    /// Licensing year of the CRLV (art. 12, II).
    pub crlv_year: i32,
    pub insurance: Option<Insurance>,
}

impl CharterVehicleFacts {
    /// Art. 11: the vehicle as its CRLV names it, to head a line (`Ônibus`, `Micro-ônibus`).
    pub fn kind_label_pt(&self) -> &'static str {
        match self.kind.as_str() {
            "micro_onibus" => "Micro-ônibus",
            _ => "Ônibus",
        }
    }

    /// The same within a sentence (`ônibus`, `micro-ônibus`).
    pub fn kind_noun_pt(&self) -> &'static str {
        match self.kind.as_str() {
            "micro_onibus" => "micro-ônibus",
            _ => "ônibus",
        }
    }
}

/// FRET-ART11: only ônibus and micro-ônibus, with 1 or 2 doors and no turnstile.
pub fn fret_art11_type(f: &CharterVehicleFacts, out: &mut Failures) {
    if !matches!(f.kind.as_str(), "onibus" | "micro_onibus") {
        let msg = format!(
            "Somente ônibus e micro-ônibus podem ser cadastrados; o tipo informado é \"{}\".",
            f.kind
        );
        fail(out, "FRET-ART11", "art. 11", "kind", msg);
    }
    if !(1..=2).contains(&f.doors) {
        let msg = format!(
            "O veículo deve ter uma ou duas portas; foram informadas {}.",
            f.doors
        );
        fail(out, "FRET-ART11", "art. 11", "doors", msg);
    }
    if f.has_turnstile {
        let msg = "Veículo com catraca não pode ser cadastrado para fretamento.".to_owned();
        fail(out, "FRET-ART11", "art. 11", "has_turnstile", msg);
    }
}

/// FRET-ART10-PU: the original seated capacity must be known and positive.
pub fn fret_art10_pu_capacity(f: &CharterVehicleFacts, out: &mut Failures) {
    if f.seated_capacity < 1 {
        let msg = "Informe a lotação de passageiros sentados do CRLV (sem o condutor).".to_owned();
        fail(
            out,
            "FRET-ART10-PU",
            "art. 10, parágrafo único",
            "seated_capacity",
            msg,
        );
    }
}

/// FRET-ART10-PU: no standing passengers: a passenger list larger than the seated capacity
/// is refused.
pub fn fret_art10_pu_passengers(
    passengers: usize,
    seated_capacity: i64,
    field: &'static str,
    out: &mut Failures,
) {
    if i64::try_from(passengers).unwrap_or(i64::MAX) > seated_capacity {
        let msg = format!(
            "Não é permitido transportar passageiros em pé: {passengers} passageiros para {seated_capacity} lugares sentados."
        );
        fail(out, "FRET-ART10-PU", "art. 10, parágrafo único", field, msg);
    }
}

/// FRET-ART12-I: the CRV (or RTD-registered purchase contract) names the company.
pub fn fret_art12_i_ownership(f: &CharterVehicleFacts, company: &Cnpj, out: &mut Failures) {
    let owner = Cnpj::parse(&f.owner_cnpj).ok();
    if owner.as_ref() != Some(company) {
        let msg = "O CRV ou o contrato registrado no RTD deve estar em nome da empresa (CNPJ)."
            .to_owned();
        fail(out, "FRET-ART12-I", "art. 12, I", "owner_cnpj", msg);
    }
    if !matches!(
        f.ownership_proof.as_str(),
        "crv" | "crv_e" | "atpv_e" | "contrato_rtd" | "extrato_detran"
    ) {
        let msg = "Comprovante de propriedade deve ser CRV, CRV-e, ATPV-e, contrato registrado \
                   no RTD ou extrato do DETRAN."
            .to_owned();
        fail(out, "FRET-ART12-I", "art. 12, I", "ownership_proof", msg);
    }
}

/// FRET-ART12-II: the CRLV of the current exercise (or the previous one while the DETRAN
/// calendar still allows it; parameter).
pub fn fret_art12_ii_crlv(
    f: &CharterVehicleFacts,
    today: NaiveDate,
    basis: &CharterLegalBasis,
    out: &mut Failures,
) {
    if f.crlv_year < today.year() - basis.crlv_years_back_accepted || f.crlv_year > today.year() {
        let msg = format!(
            "CRLV do exercício {} não está em vigor em {}.",
            f.crlv_year,
            br(today)
        );
        fail(out, "FRET-ART12-II", "art. 12, II", "crlv_year", msg);
    }
}

/// FRET-ART12-III: liability insurance in force on `today`.
pub fn fret_art12_iii_insurance(f: &CharterVehicleFacts, today: NaiveDate, out: &mut Failures) {
    match &f.insurance {
        None => fail(
            out,
            "FRET-ART12-III",
            "art. 12, III",
            "insurance",
            "Apresente o seguro de responsabilidade civil do veículo.".to_owned(),
        ),
        Some(i) if today < i.valid_from || today > i.valid_to => {
            let msg = format!(
                "Seguro de responsabilidade civil fora da vigência ({} a {}).",
                br(i.valid_from),
                br(i.valid_to)
            );
            fail(out, "FRET-ART12-III", "art. 12, III", "insurance", msg);
        }
        Some(_) => {}
    }
}

/// FRET-ART12-IV with AMB-14: the ITV report is valid for 6 months (DL-6). A zero-km vehicle
/// is exempt from the first report only: its first is due 6 months after first registration.
pub fn itv_valid_until(
    f: &CharterVehicleFacts,
    last_report: Option<NaiveDate>,
    basis: &CharterLegalBasis,
) -> Option<NaiveDate> {
    let months = basis.itv_validity_months;
    match last_report {
        Some(r) => Some(add_months(r, months, basis.month_overflow)),
        None if f.zero_km => Some(add_months(
            f.first_registration_date,
            months,
            basis.month_overflow,
        )),
        None => None,
    }
}

pub fn fret_art12_iv_itv(
    f: &CharterVehicleFacts,
    last_report: Option<NaiveDate>,
    today: NaiveDate,
    basis: &CharterLegalBasis,
    out: &mut Failures,
) {
    match itv_valid_until(f, last_report, basis) {
        None => fail(
            out,
            "FRET-ART12-IV",
            "art. 12, IV",
            "itv_report_date",
            "Apresente o laudo de inspeção técnica veicular (ITV) de empresa credenciada."
                .to_owned(),
        ),
        Some(until) if today > until => {
            let msg = format!(
                "Laudo de inspeção técnica veicular vencido em {}: renovação semestral.",
                br(until)
            );
            fail(out, "FRET-ART12-IV", "art. 12, IV", "itv_report_date", msg);
        }
        Some(_) => {}
    }
}

/// FRET-ART13-P1-A: last day of the 15-year service life, counted date to date from the first
/// registration (DL-6; 29/02/2012 → 28/02/2027, or 01/03/2027 with `NextDay`).
pub fn service_life_until(first_registration: NaiveDate, basis: &CharterLegalBasis) -> NaiveDate {
    add_months(
        first_registration,
        basis.service_life_months,
        basis.month_overflow,
    )
}

pub fn fret_art13_p1_a_service_life(
    f: &CharterVehicleFacts,
    today: NaiveDate,
    basis: &CharterLegalBasis,
    out: &mut Failures,
) {
    let until = service_life_until(f.first_registration_date, basis);
    if today > until {
        let msg = format!(
            "Vida útil máxima de 15 anos encerrada em {} (primeiro emplacamento em {}).",
            br(until),
            br(f.first_registration_date)
        );
        fail(
            out,
            "FRET-ART13-P1-A",
            "art. 13, §1º",
            "first_registration_date",
            msg,
        );
    }
}

/// FRET-ART13-P1-B: the municipal vistoria is valid for 12 months (DL-6, DL-8).
pub fn vistoria_valid_until(vistoria_on: NaiveDate, basis: &CharterLegalBasis) -> NaiveDate {
    add_months(
        vistoria_on,
        basis.vistoria_validity_months,
        basis.month_overflow,
    )
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Vistoria {
    pub performed_on: NaiveDate,
    pub approved: bool,
    pub inspector: String,
    #[serde(default)]
    pub notes: String,
}

/// The baixa of a vehicle (art. 13 §5º): the selo returned, or an incident report if lost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Baixa {
    pub requested_on: NaiveDate,
    pub selo_returned: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incident_report: Option<String>,
    pub reason: String,
}

/// FRET-ART13-P5: a baixa needs the selo returned, or an incident report when it was lost.
pub fn fret_art13_p5_baixa(b: &Baixa, out: &mut Failures) {
    let has_report = b
        .incident_report
        .as_deref()
        .is_some_and(|r| !r.trim().is_empty());
    if !b.selo_returned && !has_report {
        let msg = "A baixa exige a devolução do selo de vistoria ou o boletim de ocorrência \
                   da sua perda."
            .to_owned();
        fail(out, "FRET-ART13-P5", "art. 13, §5º", "selo_returned", msg);
    }
}

/// Everything recorded about a vehicle, folded from its history.
#[derive(Debug, Clone)]
pub struct VehicleRecord {
    pub facts: CharterVehicleFacts,
    pub itv_reports: Vec<NaiveDate>,
    pub vistorias: Vec<Vistoria>,
    pub baixa: Option<Baixa>,
}

impl VehicleRecord {
    pub fn last_itv(&self, today: NaiveDate) -> Option<NaiveDate> {
        self.itv_reports
            .iter()
            .copied()
            .filter(|d| *d <= today)
            .max()
    }

    /// The latest approved vistoria on or before `today`.
    pub fn last_approved_vistoria(&self, today: NaiveDate) -> Option<&Vistoria> {
        self.vistorias
            .iter()
            .filter(|v| v.approved && v.performed_on <= today)
            .max_by_key(|v| v.performed_on)
    }
}

/// The status of a vehicle on `today`, with the dates an inspector needs.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct VehicleStatusReport {
    pub status: CharterStatus,
    pub service_life_until: NaiveDate,
    pub vistoria_valid_until: Option<NaiveDate>,
    pub itv_valid_until: Option<NaiveDate>,
    pub insurance_valid_to: Option<NaiveDate>,
    /// Every requirement not met on `today` (empty when `ativo`).
    pub irregularities: Vec<RuleFailure>,
}

/// FRET-ART8, FRET-ART13, FRET-ART19-III: what a charter vehicle may do given its own
/// status and its company's. Baixa and the end of the service life are the vehicle's own and
/// final; a cassada or suspended company stops every vehicle; without a Termo in force
/// (expired or never granted) no vehicle of the company may run: irregular.
pub fn vehicle_with_company(vehicle: CharterStatus, company: CharterStatus) -> CharterStatus {
    match (vehicle, company) {
        (CharterStatus::Baixado | CharterStatus::VidaUtilVencida, _) => vehicle,
        (_, CharterStatus::Cassado | CharterStatus::Suspenso) => company,
        (_, CharterStatus::Vencido | CharterStatus::PendenteAutorizacao) => {
            CharterStatus::Irregular
        }
        (own, _) => own,
    }
}

/// FRET-ART12, FRET-ART13 (§1º, §4º, §5º), FRET-ART19-III: status of a vehicle on `today`.
/// Order: baixado, vida útil vencida, pendente de vistoria, vencido (vistoria), irregular.
pub fn vehicle_status(
    v: &VehicleRecord,
    company: &Cnpj,
    today: NaiveDate,
    basis: &CharterLegalBasis,
) -> VehicleStatusReport {
    let life = service_life_until(v.facts.first_registration_date, basis);
    let vistoria_until = v
        .last_approved_vistoria(today)
        .map(|x| vistoria_valid_until(x.performed_on, basis));
    let itv_until = itv_valid_until(&v.facts, v.last_itv(today), basis);
    let mut irregularities =
        super::vehicle_requirements(&v.facts, company, v.last_itv(today), today, basis);
    match vistoria_until {
        None => fail(
            &mut irregularities,
            "FRET-ART13",
            "art. 13",
            "vistoria",
            "Veículo sem vistoria municipal aprovada.".to_owned(),
        ),
        Some(u) if today > u => fail(
            &mut irregularities,
            "FRET-ART13-P1-B",
            "art. 13, §1º",
            "vistoria",
            format!("Vistoria anual vencida em {}.", br(u)),
        ),
        Some(_) => {}
    }
    let status = if v.baixa.as_ref().is_some_and(|b| b.requested_on <= today) {
        CharterStatus::Baixado
    } else if today > life {
        CharterStatus::VidaUtilVencida
    } else if vistoria_until.is_none() {
        CharterStatus::PendenteVistoria
    } else if vistoria_until.is_some_and(|u| today > u) {
        CharterStatus::Vencido
    } else if irregularities.is_empty() {
        CharterStatus::Ativo
    } else {
        CharterStatus::Irregular
    };
    VehicleStatusReport {
        status,
        service_life_until: life,
        vistoria_valid_until: vistoria_until,
        itv_valid_until: itv_until,
        insurance_valid_to: v.facts.insurance.as_ref().map(|i| i.valid_to),
        irregularities,
    }
}

/// FRET-ART14 (AMB-48): why a temporary replacement is authorized.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SubstitutionReason {
    Acidente,
    Roubo,
    Avaria,
}

/// FRET-ART14 with AMB-48: a temporary, revocable replacement needs an end date set by the
/// decision, and the substitute must itself meet arts. 11–13 on the first day.
pub fn fret_art14_substitution(
    authorized_from: NaiveDate,
    authorized_to: NaiveDate,
    substitute_failures: &[RuleFailure],
    out: &mut Failures,
) {
    if authorized_to < authorized_from {
        let msg = "A substituição temporária deve terminar depois de começar.".to_owned();
        fail(out, "FRET-ART14", "art. 14", "authorized_to", msg);
    }
    for f in substitute_failures {
        let msg = format!("Veículo substituto: {}", f.message);
        out.push(RuleFailure {
            field: "substitute_vehicle_id",
            message: msg,
            ..f.clone()
        });
    }
}
