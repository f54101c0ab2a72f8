//! Ride-hailing authorization (draft consolidated law, LEGAL_RULES §2B): who may be granted
//! one, for how long, and its status on a date. Pure functions: facts and the date come in,
//! a decision with reasons comes out.

pub mod deregistration;
pub mod driver_record;
pub mod platform;
pub mod registry;
pub mod sanctions;
pub mod substitution;
pub mod vistoria;

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use serde::Serialize;

use super::dates::{add_months, local_date};
use super::ids::{CnhCategory, IbgeCode};
use super::legal_basis::RideHailingLegalBasis;
use super::rule::{Failures, RuleFailure, fail};

/// What the register knows about the driver's licence.
#[derive(Debug, Clone)]
pub struct DriverFacts {
    /// The driver's CPF, canonical digits (to compare with the CRLV holder, art. 15).
    pub cpf: String,
    pub cnh_category: CnhCategory,
    pub ear: bool,
    pub first_license_date: NaiveDate,
    pub cnh_expires_on: NaiveDate,
    /// Certificates, traffic infractions and the CTB 306 record (art. 12, III, IV, §1º).
    pub record: driver_record::DriverRecord,
}

/// What the register knows about the car (from its CRLV).
#[derive(Debug, Clone)]
pub struct VehicleFacts {
    pub model_year: i32,
    pub doors: i32,
    pub air_conditioning: bool,
    pub capacity_including_driver: i32,
    pub registration_municipality: IbgeCode,
    /// Since when the car serves ride-hailing in the municipality, if known (APP-ART2-P3).
    pub in_service_since: Option<NaiveDate>,
    /// In whose name the CRLV is and how the driver holds the car (APP-ART15); `None` for a
    /// car registered before selo asked for it.
    pub owner: Option<VehicleOwner>,
}

/// APP-ART15 (art. 15, caput): how the driver may hold the car.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum OwnerType {
    /// In the driver's name, as owner.
    Proprietario,
    /// In the driver's name, as fiduciante (financed under fiduciary lien).
    Fiduciante,
    /// In the driver's name, as lessee (arrendamento mercantil).
    Arrendatario,
    /// In the name of a legal entity whose business is car rental, rented to the driver.
    LocadoraPj,
    /// Used with the express authorization of whoever holds it in one of the ways above.
    AutorizacaoExpressa,
}

impl OwnerType {
    pub const ALL: [Self; 5] = [
        Self::Proprietario,
        Self::Fiduciante,
        Self::Arrendatario,
        Self::LocadoraPj,
        Self::AutorizacaoExpressa,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Proprietario => "proprietario",
            Self::Fiduciante => "fiduciante",
            Self::Arrendatario => "arrendatario",
            Self::LocadoraPj => "locadora_pj",
            Self::AutorizacaoExpressa => "autorizacao_expressa",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// The CRLV must be in the driver's own name.
    pub fn in_drivers_name(self) -> bool {
        matches!(
            self,
            Self::Proprietario | Self::Fiduciante | Self::Arrendatario
        )
    }
}

/// The CRLV holder: how the driver holds the car and the holder's CPF or CNPJ (canonical).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VehicleOwner {
    pub kind: OwnerType,
    pub document: String,
}

/// Everything the grant decision depends on.
#[derive(Debug, Clone)]
pub struct GrantFacts {
    pub driver: DriverFacts,
    pub vehicle: VehicleFacts,
    pub fee_paid_on: NaiveDate,
    /// The grant date, in America/Cuiaba (DL-11).
    pub today: NaiveDate,
    /// The day the application was protocolled (issue 13, item 2): the driver's history
    /// requirements are judged at it (APP-ART12-IV; AMB-63, `history_judged_at_protocol`).
    pub protocolled_on: NaiveDate,
    pub driver_has_active_authorization: bool,
    pub vehicle_has_active_authorization: bool,
    /// Removed from the register since (art. 24, I, d and f; AMB-36).
    pub driver_deregistered_since: Option<NaiveDate>,
    pub vehicle_deregistered_since: Option<NaiveDate>,
}

/// An accepted grant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrantDecision {
    pub valid_from: NaiveDate,
    pub valid_until: NaiveDate,
    pub legal_basis_version: String,
}

/// APP-ART3-PU: `valid_until = fee_paid_on + 12 months` (DL-6), last day inclusive, never
/// extended for weekends or holidays (DL-8).
pub fn validity_until(fee_paid_on: NaiveDate, basis: &RideHailingLegalBasis) -> NaiveDate {
    add_months(
        fee_paid_on,
        basis.authorization_validity_months,
        basis.month_overflow,
    )
}

/// APP-ART2-P2: age counted year by year with the model year closing on 31 December.
pub fn vehicle_age(model_year: i32, today: NaiveDate) -> i32 {
    today.year() - model_year
}

/// APP-ART12-I (art. 12, I): CNH category B or higher, with the EAR remark, issued at least
/// two years ago (AMB-22: counted from the first licence; DL-9: met on the anniversary day),
/// and not expired.
pub fn app_art12_i_cnh(
    d: &DriverFacts,
    today: NaiveDate,
    basis: &RideHailingLegalBasis,
    out: &mut Failures,
) {
    app_art12_i_cnh_category(d, out);
    app_art12_i_cnh_seniority(d, today, basis, out);
    app_art12_i_cnh_in_force(d.cnh_expires_on, today, out);
}

/// APP-ART12-I: category B or higher, with the EAR remark.
pub fn app_art12_i_cnh_category(d: &DriverFacts, out: &mut Failures) {
    if !d.cnh_category.is_b_or_higher() {
        let msg = format!(
            "A CNH deve ser da categoria B ou superior; a categoria informada é {}.",
            d.cnh_category
        );
        fail(out, "APP-ART12-I", "art. 12, I", "cnh.category", msg);
    }
    if !d.ear {
        let msg = "A CNH deve conter a observação EAR (exerce atividade remunerada).".to_owned();
        fail(out, "APP-ART12-I", "art. 12, I", "cnh.ear", msg);
    }
}

/// APP-ART12-I: the first licence at least two years before `on` (AMB-22, DL-9).
pub fn app_art12_i_cnh_seniority(
    d: &DriverFacts,
    on: NaiveDate,
    basis: &RideHailingLegalBasis,
    out: &mut Failures,
) {
    let seniority = add_months(
        d.first_license_date,
        basis.min_years_since_first_license * 12,
        basis.month_overflow,
    );
    if on < seniority {
        let msg = format!(
            "A CNH deve ter sido expedida há pelo menos {} anos (primeira habilitação); o requisito só é cumprido em {}.",
            basis.min_years_since_first_license,
            seniority.format("%d/%m/%Y")
        );
        fail(
            out,
            "APP-ART12-I",
            "art. 12, I",
            "cnh.first_license_date",
            msg,
        );
    }
}

/// APP-ART12-I (art. 12, I): the driver's CNH is not expired on `today` (the grant checks it;
/// the inspector's record lists it as pending).
pub fn app_art12_i_cnh_in_force(expires_on: NaiveDate, today: NaiveDate, out: &mut Failures) {
    if expires_on < today {
        let msg = format!(
            "A CNH está vencida desde {}.",
            expires_on.format("%d/%m/%Y")
        );
        fail(out, "APP-ART12-I", "art. 12, I", "cnh.expires_on", msg);
    }
}

/// APP-ART2-P1 and APP-ART2-P2 (art. 2º, §§1º e 2º): at most 12 years counted from the model
/// year, year by year; four doors; air conditioning.
pub fn app_art2_p1_p2_vehicle(
    v: &VehicleFacts,
    today: NaiveDate,
    basis: &RideHailingLegalBasis,
    out: &mut Failures,
) {
    let age = vehicle_age(v.model_year, today);
    if age > basis.max_vehicle_age_years
        && app_art2_p3_grandfathered_until(v, today, basis).is_none()
    {
        let msg = format!(
            "O veículo tem {age} anos contados do ano-modelo {}; o máximo é {} anos (apto até 31/12/{}).",
            v.model_year,
            basis.max_vehicle_age_years,
            v.model_year + basis.max_vehicle_age_years
        );
        fail(
            out,
            "APP-ART2-P2",
            "art. 2º, §§1º e 2º",
            "vehicle.model_year",
            msg,
        );
    }
    if v.doors != basis.required_doors {
        let msg = format!(
            "O veículo deve ter {} portas; tem {}.",
            basis.required_doors, v.doors
        );
        fail(out, "APP-ART2-P1", "art. 2º, §1º", "vehicle.doors", msg);
    }
    if !v.air_conditioning {
        let msg = "O veículo deve ter ar-condicionado.".to_owned();
        fail(
            out,
            "APP-ART2-P1",
            "art. 2º, §1º",
            "vehicle.air_conditioning",
            msg,
        );
    }
}

/// APP-ART2-P3 (art. 2º, §3º, INTERP AMB-16): a car already in service on the entry into
/// force (EIF) with at most 12 years then stays eligible through EIF + 1 year, even if it
/// turns 13 meanwhile; with `transition_grandfather_all`, every car in service at EIF does.
/// Returns the last day of the protection when it applies on `today`.
pub fn app_art2_p3_grandfathered_until(
    v: &VehicleFacts,
    today: NaiveDate,
    basis: &RideHailingLegalBasis,
) -> Option<NaiveDate> {
    let eif = basis.entry_into_force?;
    let in_service = v.in_service_since?;
    if in_service > eif {
        return None;
    }
    let until = add_months(eif, 12, basis.month_overflow);
    let young_enough = vehicle_age(v.model_year, eif) <= basis.max_vehicle_age_years;
    (today <= until && (young_enough || basis.transition_grandfather_all)).then_some(until)
}

/// APP-ART2 (art. 2º, caput): capacity of up to 7 people including the driver.
pub fn app_art2_capacity(v: &VehicleFacts, basis: &RideHailingLegalBasis, out: &mut Failures) {
    if v.capacity_including_driver > basis.max_capacity_including_driver {
        let msg = format!(
            "A capacidade do veículo deve ser de até {} pessoas, incluído o motorista; é de {}.",
            basis.max_capacity_including_driver, v.capacity_including_driver
        );
        fail(
            out,
            "APP-ART2",
            "art. 2º, caput",
            "vehicle.capacity_including_driver",
            msg,
        );
    }
}

/// APP-ART8-P1-I (art. 8º, §1º, I): registered in Barra do Garças-MT, Aragarças-GO or Pontal
/// do Araguaia-MT (from the CRLV; the plate cannot prove it, AMB-19).
pub fn app_art8_p1_i_municipality(
    v: &VehicleFacts,
    basis: &RideHailingLegalBasis,
    out: &mut Failures,
) {
    if basis.municipality(v.registration_municipality).is_none() {
        let names: Vec<String> = basis
            .allowed_municipalities
            .iter()
            .map(|m| format!("{}-{}", m.name, m.uf))
            .collect();
        let msg = format!(
            "O veículo deve estar registrado em {}; o município informado (IBGE {}) não é um deles.",
            names.join(", "),
            v.registration_municipality.code()
        );
        fail(
            out,
            "APP-ART8-P1-I",
            "art. 8º, §1º, I",
            "vehicle.registration_municipality_ibge",
            msg,
        );
    }
}

/// APP-ART15 (art. 15, caput): the car is in the driver's name as owner, fiduciante or
/// lessee, or in the name of a car-rental company, or used with the express authorization of
/// one of them. In the driver's own name means the CRLV holder's CPF is the driver's.
pub fn app_art15_owner(owner: Option<&VehicleOwner>, driver_cpf: &str, out: &mut Failures) {
    match owner {
        None => fail(
            out,
            "APP-ART15",
            "art. 15, caput",
            "vehicle.owner_type",
            "Informe em nome de quem está o veículo e o vínculo do condutor com ele (proprietário, fiduciante, arrendatário, locadora ou autorização expressa).".to_owned(),
        ),
        Some(o) if o.kind.in_drivers_name() && o.document != driver_cpf => fail(
            out,
            "APP-ART15",
            "art. 15, caput",
            "vehicle.owner_document",
            "O veículo informado como próprio (proprietário, fiduciante ou arrendatário) está em nome de outra pessoa; nesse caso é preciso locação por locadora ou autorização expressa do titular.".to_owned(),
        ),
        Some(_) => {}
    }
}

/// APP-ART8 (art. 8º, caput): one vehicle per driver and (INTERP) one driver per vehicle.
pub fn app_art8_one_to_one(driver_active: bool, vehicle_active: bool, out: &mut Failures) {
    if driver_active {
        let msg = "O condutor já possui uma autorização ativa; cada condutor pode ter um único veículo autorizado.";
        fail(
            out,
            "APP-ART8",
            "art. 8º, caput",
            "driver_id",
            msg.to_owned(),
        );
    }
    if vehicle_active {
        let msg = "O veículo já possui uma autorização ativa vinculada a um condutor.";
        fail(
            out,
            "APP-ART8",
            "art. 8º, caput",
            "vehicle_id",
            msg.to_owned(),
        );
    }
}

/// APP-ART3-PU (art. 3º, parágrafo único): the fee payment starts the 12 months; it cannot
/// lie in the future, nor so far back that the period has already ended.
pub fn app_art3_pu_fee_payment(
    fee_paid_on: NaiveDate,
    today: NaiveDate,
    basis: &RideHailingLegalBasis,
    out: &mut Failures,
) {
    let valid_until = validity_until(fee_paid_on, basis);
    if fee_paid_on > today {
        let msg = format!(
            "A data de pagamento das taxas ({}) não pode ser posterior à data da concessão ({}).",
            fee_paid_on.format("%d/%m/%Y"),
            today.format("%d/%m/%Y")
        );
        fail(
            out,
            "APP-ART3-PU",
            "art. 3º, parágrafo único",
            "fee_paid_on",
            msg,
        );
    } else if valid_until < today {
        let msg = format!(
            "O pagamento de {} daria validade só até {}, data já passada; é preciso pagar as taxas do período atual.",
            fee_paid_on.format("%d/%m/%Y"),
            valid_until.format("%d/%m/%Y")
        );
        fail(
            out,
            "APP-ART3-PU",
            "art. 3º, parágrafo único",
            "fee_paid_on",
            msg,
        );
    }
}

/// Decides a driver-and-vehicle authorization request. Every failed requirement is
/// reported, not only the first.
pub fn decide_grant(
    facts: &GrantFacts,
    basis: &RideHailingLegalBasis,
) -> Result<GrantDecision, Vec<RuleFailure>> {
    let mut failures = Vec::new();
    // APP-ART12-IV counts back from the protocol; AMB-63 reads the other history requirements
    // (licence seniority, the CTB 306 bar) the same way. Documents must be in force at the
    // grant, the act that rests on them.
    let history_on = if basis.history_judged_at_protocol {
        facts.protocolled_on
    } else {
        facts.today
    };
    app_art12_i_cnh_category(&facts.driver, &mut failures);
    app_art12_i_cnh_seniority(&facts.driver, history_on, basis, &mut failures);
    app_art12_i_cnh_in_force(facts.driver.cnh_expires_on, facts.today, &mut failures);
    let record = &facts.driver.record;
    driver_record::app_art12_iii_certificates(record, facts.today, basis, &mut failures);
    driver_record::app_art12_iv_no_gravissima(record, history_on, basis, &mut failures);
    driver_record::app_art12_p1_ctb306(record, history_on, basis, &mut failures);
    app_art2_p1_p2_vehicle(&facts.vehicle, facts.today, basis, &mut failures);
    app_art2_capacity(&facts.vehicle, basis, &mut failures);
    app_art8_p1_i_municipality(&facts.vehicle, basis, &mut failures);
    app_art15_owner(
        facts.vehicle.owner.as_ref(),
        &facts.driver.cpf,
        &mut failures,
    );
    app_art8_one_to_one(
        facts.driver_has_active_authorization,
        facts.vehicle_has_active_authorization,
        &mut failures,
    );
    deregistration::app_art24_i_not_deregistered(
        "driver_id",
        facts.driver_deregistered_since,
        &mut failures,
    );
    deregistration::app_art24_i_not_deregistered(
        "vehicle_id",
        facts.vehicle_deregistered_since,
        &mut failures,
    );
    app_art3_pu_fee_payment(facts.fee_paid_on, facts.today, basis, &mut failures);
    if failures.is_empty() {
        Ok(GrantDecision {
            valid_from: facts.fee_paid_on,
            valid_until: validity_until(facts.fee_paid_on, basis),
            legal_basis_version: basis.version.clone(),
        })
    } else {
        Err(failures)
    }
}

/// The acts of the ride-hailing law recorded in an entity's history.
/// Stored as the snake-case text of `as_str` in the append-only `events` table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RideHailingAct {
    Registered,
    RecordFiled,
    Voided,
    Granted,
    Sanctioned,
    DrawnUp,
    Notified,
    Revoked,
    OwnerDeclared,
    ProcedureAct,
    AutoAnnulled,
    VistoriaSummons,
    VistoriaRecorded,
    RegisterAct,
    VehicleSubstituted,
    RegularizationNotice,
    RegularizationCured,
    NoticeIssued,
    CertidaoIssued,
    /// APP-ART13-XIX: a change of registration data reported by the driver.
    DataChangeReported,
    /// Issue 11: the driver's photo shown to passengers was set or replaced.
    PhotoSet,
    /// Issue 13, item 1: an auto's notification entered wrongly, rectified by a new one.
    NotificationRectified,
    /// Issue 13, item 1: an act of the register entered wrongly, rectified by a new one.
    ActRectified,
    /// Issue 13, item 1: a platform's delivery of data entered wrongly, rectified.
    DeliveryRectified,
}

impl RideHailingAct {
    /// Every act, for exhaustive tests.
    pub const ALL: &[Self] = &[
        Self::Registered,
        Self::RecordFiled,
        Self::Voided,
        Self::Granted,
        Self::Sanctioned,
        Self::DrawnUp,
        Self::Notified,
        Self::Revoked,
        Self::OwnerDeclared,
        Self::ProcedureAct,
        Self::AutoAnnulled,
        Self::VistoriaSummons,
        Self::VistoriaRecorded,
        Self::RegisterAct,
        Self::VehicleSubstituted,
        Self::RegularizationNotice,
        Self::RegularizationCured,
        Self::NoticeIssued,
        Self::CertidaoIssued,
        Self::DataChangeReported,
        Self::PhotoSet,
        Self::NotificationRectified,
        Self::ActRectified,
        Self::DeliveryRectified,
    ];

    /// The kind as stored.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Registered => "registered",
            Self::RecordFiled => "record_filed",
            Self::Voided => "voided",
            Self::Granted => "granted",
            Self::Sanctioned => "sanctioned",
            Self::DrawnUp => "drawn_up",
            Self::Notified => "notified",
            Self::Revoked => "revoked",
            Self::OwnerDeclared => "owner_declared",
            Self::ProcedureAct => "procedure_act",
            Self::AutoAnnulled => "auto_annulled",
            Self::VistoriaSummons => "vistoria_summons",
            Self::VistoriaRecorded => "vistoria_recorded",
            Self::RegisterAct => "register_act",
            Self::VehicleSubstituted => "vehicle_substituted",
            Self::RegularizationNotice => "regularization_notice",
            Self::RegularizationCured => "regularization_cured",
            Self::NoticeIssued => "notice_issued",
            Self::CertidaoIssued => "certidao_issued",
            Self::DataChangeReported => "data_change_reported",
            Self::PhotoSet => "photo_set",
            Self::NotificationRectified => "notification_rectified",
            Self::ActRectified => "act_rectified",
            Self::DeliveryRectified => "delivery_rectified",
        }
    }

    /// The act of a stored kind; `None` for a kind of the other law or of a later version.
    pub fn parse(kind: &str) -> Option<Self> {
        Some(match kind {
            "registered" => Self::Registered,
            "record_filed" => Self::RecordFiled,
            "voided" => Self::Voided,
            "granted" => Self::Granted,
            "sanctioned" => Self::Sanctioned,
            "drawn_up" => Self::DrawnUp,
            "notified" => Self::Notified,
            "revoked" => Self::Revoked,
            "owner_declared" => Self::OwnerDeclared,
            "procedure_act" => Self::ProcedureAct,
            "auto_annulled" => Self::AutoAnnulled,
            "vistoria_summons" => Self::VistoriaSummons,
            "vistoria_recorded" => Self::VistoriaRecorded,
            "register_act" => Self::RegisterAct,
            "vehicle_substituted" => Self::VehicleSubstituted,
            "regularization_notice" => Self::RegularizationNotice,
            "regularization_cured" => Self::RegularizationCured,
            "notice_issued" => Self::NoticeIssued,
            "certidao_issued" => Self::CertidaoIssued,
            "data_change_reported" => Self::DataChangeReported,
            "photo_set" => Self::PhotoSet,
            "notification_rectified" => Self::NotificationRectified,
            "act_rectified" => Self::ActRectified,
            "delivery_rectified" => Self::DeliveryRectified,
            _ => return None,
        })
    }
}

/// Status of an authorization at an instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AuthorizationStatus {
    // The law's own terms name the variants, as in `CharterStatus`; the first four keep the
    // JSON values the API has always answered.
    #[serde(rename = "active")]
    Ativa,
    /// Past its last day (art. 3º, parágrafo único).
    #[serde(rename = "expired")]
    Vencida,
    /// Revoked by a decision (art. 24).
    #[serde(rename = "revoked")]
    Revogada,
    /// Suspended (art. 24 PU, art. 26 V and §1º); see `sanctions`.
    #[serde(rename = "suspended")]
    Suspensa,
    /// Revoked by cassação (art. 26 §2º).
    Cassada,
    /// The approval lapsed: the vehicle was not presented for vistoria within 5 days
    /// (art. 9º, AMB-38); a new request is needed.
    Caducada,
    /// Barred from operating: a failed vistoria not fixed within 15 days (art. 26, II).
    Impedida,
    /// The annual vistoria lapsed (art. 16).
    VistoriaVencida,
    /// The driver was removed from the register (art. 24, I, d; AMB-36).
    Descadastrada,
    /// The car was removed from the register (art. 24, I, f; AMB-36): it may not operate
    /// until replaced (art. 8º, §2º).
    VeiculoDescadastrado,
}

impl AuthorizationStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Ativa => "active",
            Self::Vencida => "expired",
            Self::Revogada => "revoked",
            Self::Suspensa => "suspended",
            Self::Cassada => "cassada",
            Self::Caducada => "caducada",
            Self::Impedida => "impedida",
            Self::VistoriaVencida => "vistoria_vencida",
            Self::Descadastrada => "descadastrada",
            Self::VeiculoDescadastrado => "veiculo_descadastrado",
        }
    }

    /// The word a citizen reads.
    pub fn label_pt(self) -> &'static str {
        match self {
            Self::Ativa => "ativa",
            Self::Vencida => "vencida",
            Self::Revogada => "revogada",
            Self::Suspensa => "suspensa",
            Self::Cassada => "cassada",
            Self::Caducada => "caducada (vistoria não apresentada no prazo)",
            Self::Impedida => "impedida de operar (art. 26, II)",
            Self::VistoriaVencida => "vistoria anual vencida",
            Self::Descadastrada => "condutor descadastrado (art. 24, I, d)",
            Self::VeiculoDescadastrado => "veículo descadastrado (art. 24, I, f)",
        }
    }
}

/// Status at `now`: revoked from the revocation instant on; expired from 00:00 (America/Cuiaba)
/// of the day after `valid_until` (DL-8).
pub fn status_at(
    valid_until: NaiveDate,
    revoked_at: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> AuthorizationStatus {
    if revoked_at.is_some_and(|r| r <= now) {
        AuthorizationStatus::Revogada
    } else if local_date(now) > valid_until {
        AuthorizationStatus::Vencida
    } else {
        AuthorizationStatus::Ativa
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn every_ride_hailing_act_reads_back_from_its_stored_kind() {
        for act in RideHailingAct::ALL {
            assert_eq!(RideHailingAct::parse(act.as_str()), Some(*act));
        }
        let kinds: std::collections::BTreeSet<_> =
            RideHailingAct::ALL.iter().map(|a| a.as_str()).collect();
        assert_eq!(
            kinds.len(),
            RideHailingAct::ALL.len(),
            "each act has its own kind"
        );
        assert_eq!(RideHailingAct::parse("termo_granted"), None);
    }

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    fn clean_record() -> crate::domain::ride_hailing::driver_record::DriverRecord {
        use crate::domain::ride_hailing::driver_record::{
            Court, CriminalCertificate, DriverRecord,
        };
        DriverRecord {
            criminal_certificates: Court::ALL
                .iter()
                .map(|&court| CriminalCertificate {
                    court,
                    issued_on: d(2023, 1, 1),
                    valid_until: Some(d(2030, 1, 1)),
                    clear: true,
                })
                .collect(),
            ..DriverRecord::default()
        }
    }

    fn eligible() -> GrantFacts {
        GrantFacts {
            driver: DriverFacts {
                cpf: "52998224725".to_owned(),
                cnh_category: CnhCategory::B,
                ear: true,
                first_license_date: d(2015, 3, 10),
                cnh_expires_on: d(2030, 1, 1),
                record: clean_record(),
            },
            vehicle: VehicleFacts {
                model_year: 2020,
                doors: 4,
                air_conditioning: true,
                capacity_including_driver: 5,
                registration_municipality: IbgeCode::from_const(5_101_803),
                in_service_since: None,
                owner: Some(VehicleOwner {
                    kind: OwnerType::Proprietario,
                    document: "52998224725".to_owned(),
                }),
            },
            fee_paid_on: d(2026, 11, 20),
            today: d(2026, 11, 30),
            protocolled_on: d(2026, 11, 30),
            driver_has_active_authorization: false,
            vehicle_has_active_authorization: false,
            driver_deregistered_since: None,
            vehicle_deregistered_since: None,
        }
    }

    fn rules_failed(f: &GrantFacts) -> Vec<(&'static str, &'static str)> {
        match decide_grant(f, &RideHailingLegalBasis::draft_2023()) {
            Ok(_) => vec![],
            Err(v) => v.iter().map(|x| (x.rule, x.field)).collect(),
        }
    }

    #[test]
    fn app_art3_pu_valid_until_is_fee_date_plus_twelve_months() {
        let dec = decide_grant(&eligible(), &RideHailingLegalBasis::draft_2023()).unwrap();
        assert_eq!(dec.valid_from, d(2026, 11, 20));
        assert_eq!(dec.valid_until, d(2027, 11, 20));
        assert_eq!(dec.legal_basis_version, "APP-MINUTA-2023-11-23/v1");
        // DL-6 overflow: 29/02/2024 + 12 months = 28/02/2025.
        assert_eq!(
            validity_until(d(2024, 2, 29), &RideHailingLegalBasis::draft_2023()),
            d(2025, 2, 28)
        );
    }

    #[test]
    fn app_art3_pu_fee_in_future_or_stale_is_rejected() {
        let mut f = eligible();
        f.fee_paid_on = d(2026, 12, 1);
        assert_eq!(rules_failed(&f), vec![("APP-ART3-PU", "fee_paid_on")]);
        f.fee_paid_on = d(2025, 11, 29);
        assert_eq!(rules_failed(&f), vec![("APP-ART3-PU", "fee_paid_on")]);
        // Paid 30/11/2025 → valid through 30/11/2026, today: still grantable.
        f.fee_paid_on = d(2025, 11, 30);
        assert!(rules_failed(&f).is_empty());
    }

    #[test]
    fn app_art12_i_cnh_requirements_table() {
        type Change = Box<dyn Fn(&mut GrantFacts)>;
        let cases: Vec<(&str, Change, Option<&str>)> = vec![
            (
                "category A",
                Box::new(|f| f.driver.cnh_category = CnhCategory::A),
                Some("cnh.category"),
            ),
            (
                "category ACC",
                Box::new(|f| f.driver.cnh_category = CnhCategory::Acc),
                Some("cnh.category"),
            ),
            (
                "category AE ok",
                Box::new(|f| f.driver.cnh_category = CnhCategory::Ae),
                None,
            ),
            (
                "no EAR",
                Box::new(|f| f.driver.ear = false),
                Some("cnh.ear"),
            ),
            // DL-9: met on the anniversary day.
            (
                "2 years on the day",
                Box::new(|f| f.driver.first_license_date = d(2024, 11, 30)),
                None,
            ),
            (
                "one day short",
                Box::new(|f| f.driver.first_license_date = d(2024, 12, 1)),
                Some("cnh.first_license_date"),
            ),
            (
                "expired yesterday",
                Box::new(|f| f.driver.cnh_expires_on = d(2026, 11, 29)),
                Some("cnh.expires_on"),
            ),
            (
                "expires today ok",
                Box::new(|f| f.driver.cnh_expires_on = d(2026, 11, 30)),
                None,
            ),
        ];
        for (name, change, expected) in cases {
            let mut f = eligible();
            change(&mut f);
            let got = rules_failed(&f);
            match expected {
                None => assert!(got.is_empty(), "{name}: {got:?}"),
                Some(field) => assert_eq!(got, vec![("APP-ART12-I", field)], "{name}"),
            }
        }
    }

    #[test]
    fn app_art2_p2_age_counts_by_model_year_in_cuiaba() {
        let mut f = eligible();
        f.vehicle.model_year = 2014; // 2026 − 2014 = 12: eligible through 31/12/2026
        assert!(rules_failed(&f).is_empty());
        f.vehicle.model_year = 2013;
        assert_eq!(
            rules_failed(&f),
            vec![("APP-ART2-P2", "vehicle.model_year")]
        );
        let mut f = eligible();
        f.vehicle.model_year = 2014;
        f.today = d(2027, 1, 1);
        f.fee_paid_on = d(2027, 1, 1);
        assert_eq!(
            rules_failed(&f),
            vec![("APP-ART2-P2", "vehicle.model_year")]
        );
    }

    /// APP-ART12-IV (DL-10) and AMB-63: the driver's history is judged at the protocol, the
    /// documents at the grant; the switch of the legal basis judges both at the grant.
    #[test]
    fn app_art12_iv_history_is_judged_at_the_protocol_and_documents_at_the_grant() {
        let mut f = eligible();
        f.driver.first_license_date = d(2024, 11, 25); // two years on 25/11/2026
        f.protocolled_on = d(2026, 11, 20);
        assert_eq!(
            rules_failed(&f),
            vec![("APP-ART12-I", "cnh.first_license_date")]
        );
        f.protocolled_on = d(2026, 11, 25);
        assert!(rules_failed(&f).is_empty());
        // A CNH that expired after the protocol fails at the grant.
        f.driver.cnh_expires_on = d(2026, 11, 28);
        assert_eq!(rules_failed(&f), vec![("APP-ART12-I", "cnh.expires_on")]);
        let mut basis = RideHailingLegalBasis::draft_2023();
        basis.history_judged_at_protocol = false;
        let mut f = eligible();
        f.driver.first_license_date = d(2024, 11, 25);
        f.protocolled_on = d(2026, 11, 20);
        assert!(decide_grant(&f, &basis).is_ok());
    }

    // S02 — APP-ART2-P3 with a hypothetical EIF of 2025-07-01.
    #[test]
    fn s02_app_art2_p3_transitional_rule() {
        let mut basis = RideHailingLegalBasis::draft_2023();
        basis.entry_into_force = Some(d(2025, 7, 1));
        let check = |model_year, on: NaiveDate, basis: &RideHailingLegalBasis| {
            let mut f = eligible();
            f.vehicle.model_year = model_year;
            f.vehicle.in_service_since = Some(d(2024, 1, 10));
            f.today = on;
            f.fee_paid_on = on;
            decide_grant(&f, basis).is_ok()
        };
        assert!(check(2013, d(2026, 3, 15), &basis));
        assert!(check(2013, d(2026, 7, 1), &basis));
        assert!(!check(2013, d(2026, 7, 2), &basis));
        // Model 2012 was 13 at EIF: not protected, unless every car in service is.
        assert!(!check(2012, d(2026, 3, 15), &basis));
        basis.transition_grandfather_all = true;
        assert!(check(2012, d(2026, 3, 15), &basis));
        assert!(!check(2012, d(2026, 7, 2), &basis));
        // Without a known EIF (the default, W2) nothing is grandfathered.
        assert!(!check(
            2013,
            d(2026, 3, 15),
            &RideHailingLegalBasis::draft_2023()
        ));
        // A car that entered service after EIF is not protected.
        let mut f = eligible();
        f.vehicle.model_year = 2013;
        f.vehicle.in_service_since = Some(d(2025, 8, 1));
        f.today = d(2026, 3, 15);
        f.fee_paid_on = f.today;
        basis.transition_grandfather_all = false;
        assert!(decide_grant(&f, &basis).is_err());
    }

    #[test]
    fn app_art2_vehicle_requirements_table() {
        type Change = Box<dyn Fn(&mut GrantFacts)>;
        let cases: Vec<(Change, &str, &str)> = vec![
            (
                Box::new(|f| f.vehicle.doors = 2),
                "APP-ART2-P1",
                "vehicle.doors",
            ),
            (
                Box::new(|f| f.vehicle.air_conditioning = false),
                "APP-ART2-P1",
                "vehicle.air_conditioning",
            ),
            (
                Box::new(|f| f.vehicle.capacity_including_driver = 8),
                "APP-ART2",
                "vehicle.capacity_including_driver",
            ),
            (
                Box::new(|f| f.vehicle.registration_municipality = IbgeCode::from_const(5_103_403)),
                "APP-ART8-P1-I",
                "vehicle.registration_municipality_ibge",
            ),
            (
                Box::new(|f| f.driver_has_active_authorization = true),
                "APP-ART8",
                "driver_id",
            ),
            (
                Box::new(|f| f.vehicle_has_active_authorization = true),
                "APP-ART8",
                "vehicle_id",
            ),
        ];
        for (change, rule, field) in cases {
            let mut f = eligible();
            change(&mut f);
            assert_eq!(rules_failed(&f), vec![(rule, field)]);
        }
        let mut f = eligible();
        f.vehicle.capacity_including_driver = 7;
        f.vehicle.registration_municipality = IbgeCode::from_const(5_201_702);
        assert!(rules_failed(&f).is_empty());
        f.vehicle.registration_municipality = IbgeCode::from_const(5_106_653);
        assert!(rules_failed(&f).is_empty());
    }

    #[test]
    fn every_failure_is_reported_at_once() {
        let mut f = eligible();
        f.driver.ear = false;
        f.vehicle.doors = 2;
        f.vehicle.air_conditioning = false;
        assert_eq!(rules_failed(&f).len(), 3);
    }

    // DL-8 / DL-11: the status changes at 00:00 America/Cuiaba of the day after valid_until.
    #[test]
    fn app_art3_pu_status_changes_after_last_day_in_cuiaba() {
        let until = d(2027, 5, 23);
        let at = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().to_utc();
        assert_eq!(
            status_at(until, None, at("2027-05-24T03:59:59Z")),
            AuthorizationStatus::Ativa
        );
        assert_eq!(
            status_at(until, None, at("2027-05-24T04:00:00Z")),
            AuthorizationStatus::Vencida
        );
        let revoked = Some(at("2026-12-01T12:00:00Z"));
        assert_eq!(
            status_at(until, revoked, at("2026-12-01T11:59:59Z")),
            AuthorizationStatus::Ativa
        );
        assert_eq!(
            status_at(until, revoked, at("2026-12-01T12:00:00Z")),
            AuthorizationStatus::Revogada
        );
    }

    /// APP-ART10-PU: only a driver whose fees cover the current period may operate: the
    /// authorization is active through the last day the payment covers, expired the day after.
    #[test]
    fn app_art10_pu_operates_only_within_the_paid_period() {
        let until = validity_until(d(2026, 11, 20), &RideHailingLegalBasis::draft_2023());
        let at = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().to_utc();
        // 20/11/2027 23:59 in Barra do Garças (UTC−4) is still paid; 21/11 00:00 is not.
        assert_eq!(
            status_at(until, None, at("2027-11-21T03:59:00Z")),
            AuthorizationStatus::Ativa
        );
        assert_eq!(
            status_at(until, None, at("2027-11-21T04:00:00Z")),
            AuthorizationStatus::Vencida
        );
    }

    /// APP-ART15-P1: the car's checklist (V air conditioning, VII fee, VIII plated here) is
    /// enforced by the rules that carry each item; IV (DPVAT) has no premium to check (AMB-43).
    #[test]
    fn app_art15_p1_vehicle_checklist_items_are_enforced() {
        let mut no_ac = eligible();
        no_ac.vehicle.air_conditioning = false;
        assert_eq!(
            rules_failed(&no_ac),
            vec![("APP-ART2-P1", "vehicle.air_conditioning")]
        );
        let mut elsewhere = eligible();
        elsewhere.vehicle.registration_municipality = IbgeCode::from_const(5_103_403);
        assert_eq!(
            rules_failed(&elsewhere),
            vec![("APP-ART8-P1-I", "vehicle.registration_municipality_ibge")]
        );
        let mut unpaid = eligible();
        unpaid.fee_paid_on = d(2025, 1, 1);
        assert_eq!(rules_failed(&unpaid), vec![("APP-ART3-PU", "fee_paid_on")]);
    }

    #[test]
    fn app_art15_owner_type_table() {
        let owner = |kind, document: &str| {
            Some(VehicleOwner {
                kind,
                document: document.to_owned(),
            })
        };
        let other_cpf = "11144477735";
        let rental_cnpj = "11222333000181";
        let cases = [
            (
                "own car",
                owner(OwnerType::Proprietario, "52998224725"),
                true,
            ),
            (
                "fiduciante",
                owner(OwnerType::Fiduciante, "52998224725"),
                true,
            ),
            (
                "lessee",
                owner(OwnerType::Arrendatario, "52998224725"),
                true,
            ),
            (
                "someone else's car as owner",
                owner(OwnerType::Proprietario, other_cpf),
                false,
            ),
            (
                "someone else's as fiduciante",
                owner(OwnerType::Fiduciante, other_cpf),
                false,
            ),
            (
                "rental company",
                owner(OwnerType::LocadoraPj, rental_cnpj),
                true,
            ),
            (
                "express authorization",
                owner(OwnerType::AutorizacaoExpressa, other_cpf),
                true,
            ),
            ("not declared", None, false),
        ];
        for (name, o, ok) in cases {
            let mut f = eligible();
            f.vehicle.owner = o;
            let failed = rules_failed(&f);
            if ok {
                assert!(failed.is_empty(), "{name}: {failed:?}");
            } else {
                assert_eq!(failed.len(), 1, "{name}: {failed:?}");
                assert_eq!(failed[0].0, "APP-ART15", "{name}");
            }
        }
    }
}
