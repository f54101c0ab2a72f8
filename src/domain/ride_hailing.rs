//! Ride-hailing authorization (draft consolidated law): who may be granted
//! one, for how long, and its status on a date. Pure functions: facts and the date come in,
//! a decision with reasons comes out.

pub mod deregistration;
pub mod driver_record;
pub mod infractions;
pub mod platform;
pub mod platform_files;
pub mod registry;
pub mod renewal;
pub mod review;
pub mod sanctions;
pub mod substitution;
pub mod vistoria;

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use serde::Serialize;

use super::dates::{add_months, local_date};
use super::ids::{CnhCategory, IbgeCode};
use super::legal_basis::RideHailingLegalBasis;
use super::requirements::{AgeCountedFrom, DriverInput, ReviewReason, VehicleInput};
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
    /// The year of manufacture, when the CRLV's was recorded (a basis may count the age from
    /// it).
    pub manufacture_year: Option<i32>,
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

impl DriverFacts {
    /// What the driver requirements read.
    pub fn input(&self) -> DriverInput<'_> {
        DriverInput {
            cnh_category: self.cnh_category,
            ear: self.ear,
            first_license_date: self.first_license_date,
            record: &self.record,
        }
    }
}

impl VehicleFacts {
    /// What the vehicle requirements read.
    pub fn input(&self) -> VehicleInput {
        VehicleInput {
            model_year: self.model_year,
            manufacture_year: self.manufacture_year,
            doors: self.doors,
            air_conditioning: self.air_conditioning,
            capacity_including_driver: self.capacity_including_driver,
            registration_municipality: self.registration_municipality,
        }
    }
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
    /// The day the application was protocolled: the driver's history
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
    /// Requirements an official must review before the grant (AMB-25): empty for a grant
    /// that stands on the requirements alone.
    pub review: Vec<ReviewReason>,
    /// The provisions a court had suspended on the day, as the decision cites them.
    pub suspended: Vec<String>,
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

/// The driver requirements of the basis in force (`requirements`, art. 12 and whatever
/// a newer basis asks): the documents judged on `today`, the history on `history_on`.
/// Requirements that send the application to an official's review go to `review`.
pub fn driver_requirements(
    d: &DriverFacts,
    today: NaiveDate,
    history_on: NaiveDate,
    basis: &RideHailingLegalBasis,
    out: &mut Failures,
    review: &mut Vec<ReviewReason>,
) {
    let input = d.input();
    for r in &basis.requirements {
        r.check_driver(&input, today, history_on, basis.month_overflow, out, review);
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

/// The vehicle requirements of the basis in force (art. 2º and art. 8º, §1º, I in the draft:
/// age, doors, air conditioning, capacity, registration), judged on `today`; the transition
/// of art. 2º, §3º protects a car in service from the age limit.
pub fn vehicle_requirements(
    v: &VehicleFacts,
    today: NaiveDate,
    basis: &RideHailingLegalBasis,
    out: &mut Failures,
) {
    let input = v.input();
    let grandfathered = app_art2_p3_grandfathered_until(v, today, basis).is_some();
    for r in &basis.requirements {
        r.check_vehicle(&input, today, grandfathered, out);
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
    let young_enough = match basis.vehicle_age_limit() {
        None => true,
        Some((AgeCountedFrom::ModelYear, max)) => vehicle_age(v.model_year, eif) <= max,
        Some((AgeCountedFrom::ManufactureYear, max)) => v
            .manufacture_year
            .is_some_and(|y| vehicle_age(y, eif) <= max),
    };
    (today <= until && (young_enough || basis.transition_grandfather_all)).then_some(until)
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
    let mut review = Vec::new();
    // APP-ART12-IV counts back from the protocol; AMB-63 reads the other history requirements
    // (licence seniority, the CTB 306 bar) the same way. Documents must be in force at the
    // grant, the act that rests on them.
    let history_on = if basis.history_judged_at_protocol {
        facts.protocolled_on
    } else {
        facts.today
    };
    app_art12_i_cnh_in_force(facts.driver.cnh_expires_on, facts.today, &mut failures);
    driver_requirements(
        &facts.driver,
        facts.today,
        history_on,
        basis,
        &mut failures,
        &mut review,
    );
    vehicle_requirements(&facts.vehicle, facts.today, basis, &mut failures);
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
            review,
            suspended: basis.suspended.clone(),
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
    /// The driver's photo shown to passengers was set or replaced.
    PhotoSet,
    /// An auto's notification entered wrongly, rectified by a new one.
    NotificationRectified,
    /// An act of the register entered wrongly, rectified by a new one.
    ActRectified,
    /// A platform's delivery of data entered wrongly, rectified.
    DeliveryRectified,
    /// APP-ART3-PU (AMB-66): the authorization was renewed by a new one for the next year.
    Renewed,
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
        Self::Renewed,
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
            Self::Renewed => "renewed",
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
            "renewed" => Self::Renewed,
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
mod tests;
