//! Versioned legal-basis parameter sets: every number of the law lives here, never as a
//! literal in a rule. The ride-hailing text is a draft (its article numbers are the draft's) and Lei 4.976/2025
//! may replace its numbers, so each set has a version and an effective date, and every
//! decision and document records the version that produced it.
//!
//! The numbers live in files beside this module (`legal_basis/*.toml`, one
//! per law and version), loaded and checked at start; an official activates a new version
//! from a date with the act that enacts it, and [`LegalBases`] answers which is in force.

use std::sync::Arc;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::charter::infractions::CharterInfraction;
use super::charter::requirement_kinds::CharterRequirement;
use super::dates::MonthOverflow;
use super::ids::IbgeCode;
use super::infractions::parse_catalogue;
use super::requirements::{AgeCountedFrom, Requirement, RequirementKind, parse_requirements};
pub use super::requirements::{Ctb306BarStart, Municipality};
use super::ride_hailing::infractions::{InfractionClass, InfractionType};

mod citations;
pub use citations::{
    CharterDocumentCitations, RideHailingDocumentCitations, citation_problems, with_provision,
};

/// Parameters of the consolidated ride-hailing law (the draft).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RideHailingLegalBasis {
    /// `ride_hailing`: a file of the other law is refused.
    pub law: Law,
    /// Recorded on every decision and document.
    pub version: String,
    /// First date on which this set applies.
    pub effective_from: NaiveDate,
    /// Short citation printed on documents.
    pub citation: String,
    /// The article the windshield sticker carries (APP-ART14).
    pub sticker_citation: String,
    /// APP-ART3-PU: authorization validity in months from fee payment.
    pub authorization_validity_months: u32,
    /// DL-6 switch.
    pub month_overflow: MonthOverflow,
    /// APP-ART25: fines per class, in UPFG.
    pub fine_upf_leve: u32,
    pub fine_upf_media: u32,
    pub fine_upf_grave: u32,
    pub fine_upf_gravissima: u32,
    /// APP-ART25: the provision that sets the fines, as the consequences of an auto cite it,
    /// and the one that sets each class's (printed on the notice of penalty).
    #[serde(default = "default_fine_citation")]
    pub fine_citation: String,
    #[serde(default)]
    pub fine_class_citations: FineClassCitations,
    /// AMB-26: recidivism window of art. 26 §§1º–2º and 27 PU (the text states none).
    pub recidivism_window_months: u32,
    /// The secretariat (a key of the municipality profile's `[secretariats]`) that issues and
    /// signs the law's documents, and the one that inspects the cars (the draft: the
    /// Secretaria Municipal de Finanças, art. 17, for both).
    #[serde(default = "default_ride_hailing_secretariat")]
    pub issuing_secretariat: String,
    #[serde(default = "default_ride_hailing_secretariat")]
    pub inspecting_secretariat: String,
    /// APP-ART4-P2: hours a platform has to deliver requested data (DL-7).
    pub data_request_hours: u32,
    /// APP-ART5-X: minimum APP insurance cover of a platform, in centavos (R$ 50.000,00).
    pub platform_min_app_cover_centavos: i64,
    /// APP-ART30 / W2: entry into force of the law; unknown for the draft, so `None`.
    #[serde(default)]
    pub entry_into_force: Option<NaiveDate>,
    /// APP-ART2-P3 switch (AMB-16): protect every car in service at EIF, whatever its age.
    pub transition_grandfather_all: bool,
    /// APP-ART22-P1: the notice of penalty goes out within 90 days of the auto.
    pub notice_dispatch_days: u32,
    /// APP-ART22-P1: the provision that lets the notice of penalty be delivered electronically
    /// (besides the post with proof of delivery, the legal default, and the edital), as it is
    /// cited; absent: the basis does not allow it, and selo sends no notice by e-mail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub electronic_notice_citation: Option<String>,
    /// The provisions the law's documents print (`[document_citations]`); absent: they print
    /// the law's name without article numbers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document_citations: Option<RideHailingDocumentCitations>,
    /// AMB-34: the app law sets no defence, reconsideration or payment periods; until the
    /// decree, the municipality's analogous law (Lei 4.937/2025 arts. 22–23): 15, 10, 30 days.
    pub defence_days: u32,
    pub reconsideration_days: u32,
    pub payment_days: u32,
    /// APP-ART9: days after approval to present the vehicle for vistoria.
    pub vistoria_presentation_days: u32,
    /// APP-ART16: the annual vistoria, in months (DL-6).
    pub vistoria_validity_months: u32,
    /// APP-ART16-P2: days to fix what a failed vistoria found.
    pub vistoria_fix_days: u32,
    /// APP-ART13-XIX: days to report a change of registration data.
    pub data_change_report_days: u32,
    /// The driver's history requirements — licence seniority
    /// (art. 12, I), no gravíssima in 12 months (art. 12, IV: "before the protocol"), the CTB
    /// 306 bar (art. 12, §1º) — are judged at the application's protocol date; `false`: at
    /// the grant.
    pub history_judged_at_protocol: bool,
    /// AMB-66: how many days before the end of an authorization its renewal may be asked and
    /// its fee paid (the draft is silent).
    #[serde(default = "default_renewal_window_days")]
    pub renewal_window_days: u32,
    /// AMB-66: a renewal paid before the current period ends starts the day after it ends (no
    /// gap, no overlap, never extended); `false`: it runs from the fee's payment, as a grant.
    #[serde(default = "default_renewal_continuous")]
    pub renewal_continuous: bool,
    /// What the law asks of the driver, the car and the platforms, as written in the file
    /// (`[[requirements]]`; read into `requirements` when the file is checked).
    #[serde(default, rename = "requirements", skip_serializing)]
    #[schema(ignore)]
    requirements_in_file: Vec<toml::Value>,
    /// The requirements in force: the file's, less those a court has suspended on the day
    /// the basis is read for (`LegalBases::ride_hailing_on`).
    #[serde(skip_deserializing)]
    #[schema(value_type = Vec<Object>)]
    pub requirements: Vec<Requirement>,
    /// The infractions the law types (`[[infractions]]`: id, citation, class, who commits
    /// them, what a first offence and a repeat bring), read into `infractions` when the file
    /// is checked.
    #[serde(default, rename = "infractions", skip_serializing)]
    #[schema(ignore)]
    infractions_in_file: Vec<toml::Value>,
    /// The catalogue in force: the file's, less the infractions a court has suspended on the
    /// day the basis is read for.
    #[serde(skip_deserializing)]
    pub infractions: Vec<InfractionType>,
    /// The provisions suspended on that day, as decisions cite them.
    #[serde(skip)]
    #[schema(ignore)]
    pub suspended: Vec<String>,
}

fn default_fine_citation() -> String {
    "art. 25".into()
}

/// The provision that sets the fine of each class (the draft: art. 25, I to IV).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FineClassCitations {
    pub leve: String,
    pub media: String,
    pub grave: String,
    pub gravissima: String,
}

impl Default for FineClassCitations {
    fn default() -> Self {
        Self {
            leve: "art. 25, I".into(),
            media: "art. 25, II".into(),
            grave: "art. 25, III".into(),
            gravissima: "art. 25, IV".into(),
        }
    }
}

fn default_ride_hailing_secretariat() -> String {
    "smf".into()
}

fn default_charter_secretariat() -> String {
    "sis".into()
}

/// What is wrong with the secretariat keys a basis names (the profile checks that it has them).
fn secretariat_problems(keys: [(&str, &str); 2], out: &mut Vec<String>) {
    for (field, key) in keys {
        if key.is_empty()
            || key.len() > 16
            || !key.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
        {
            out.push(format!(
                "{field}: a chave de uma secretaria do perfil do município, em minúsculas (ex.: smf)."
            ));
        }
    }
}

fn default_renewal_window_days() -> u32 {
    60
}

fn default_renewal_continuous() -> bool {
    true
}

impl RideHailingLegalBasis {
    /// A municipality the basis names (where a car may be registered), by its IBGE code.
    pub fn municipality(&self, code: IbgeCode) -> Option<&Municipality> {
        self.requirements
            .iter()
            .filter_map(|r| match &r.kind {
                RequirementKind::VehicleRegistration { municipalities } => Some(municipalities),
                _ => None,
            })
            .flatten()
            .find(|m| m.ibge == code.code())
    }

    /// The car's age limit in force, if the basis has one: from which year, how many years.
    pub fn vehicle_age_limit(&self) -> Option<(AgeCountedFrom, i32)> {
        self.requirements.iter().find_map(|r| match r.kind {
            RequirementKind::VehicleAge {
                counted_from,
                max_years,
            } => Some((counted_from, max_years)),
            _ => None,
        })
    }

    /// The validity a criminal-record certificate without a printed one has (AMB-23), if the
    /// basis asks for certificates.
    pub fn certificate_default_validity_days(&self) -> Option<u32> {
        self.requirements.iter().find_map(|r| match r.kind {
            RequirementKind::CriminalCertificates {
                default_validity_days,
            } => Some(default_validity_days),
            _ => None,
        })
    }

    /// APP-ART25: the fine of a class, in UPFG (leve 115, média 285, grave 570, gravíssima 950
    /// in the draft).
    pub fn fine_upf(&self, class: InfractionClass) -> u32 {
        match class {
            InfractionClass::Leve => self.fine_upf_leve,
            InfractionClass::Media => self.fine_upf_media,
            InfractionClass::Grave => self.fine_upf_grave,
            InfractionClass::Gravissima => self.fine_upf_gravissima,
        }
    }

    /// The provision that sets a class's fine, as the basis cites it (APP-ART25 I–IV).
    pub fn fine_class_citation(&self, class: InfractionClass) -> &str {
        let c = &self.fine_class_citations;
        match class {
            InfractionClass::Leve => &c.leve,
            InfractionClass::Media => &c.media,
            InfractionClass::Grave => &c.grave,
            InfractionClass::Gravissima => &c.gravissima,
        }
    }

    /// The infraction `id` of the catalogue in force.
    pub fn infraction(&self, id: &str) -> Option<&InfractionType> {
        self.infractions.iter().find(|i| i.id == id)
    }
}

/// A basis a court's decision may take provisions out of, for the days it is suspended.
pub trait Suspendable: Clone {
    /// The citations a rule id has in this basis (its requirements' and its infraction's);
    /// none: the basis does not have it.
    fn citations_of(&self, rule: &str) -> Vec<&str>;
    /// The basis less the `suspended` rule ids, with `notes` (how decisions cite the
    /// suspensions) recorded.
    #[must_use]
    fn with_suspensions(&self, suspended: &[String], notes: Vec<String>) -> Self;
}

/// The citations of `rule` among (rule id, citation) pairs.
fn citations_among<'a>(
    pairs: impl Iterator<Item = (&'a str, &'a str)>,
    rule: &str,
) -> Vec<&'a str> {
    pairs.filter(|(r, _)| *r == rule).map(|(_, c)| c).collect()
}

impl Suspendable for RideHailingLegalBasis {
    fn citations_of(&self, rule: &str) -> Vec<&str> {
        let requirements = self.requirements.iter().map(|r| (&*r.rule, &*r.citation));
        let infractions = self.infractions.iter().map(|i| (&*i.id, &*i.article));
        citations_among(requirements.chain(infractions), rule)
    }
    fn with_suspensions(&self, suspended: &[String], notes: Vec<String>) -> Self {
        let mut b = self.clone();
        b.requirements.retain(|r| !suspended.contains(&r.rule));
        b.infractions.retain(|i| !suspended.contains(&i.id));
        b.suspended = notes;
        b
    }
}

impl Suspendable for CharterLegalBasis {
    fn citations_of(&self, rule: &str) -> Vec<&str> {
        let requirements = self.requirements.iter().map(|r| (&*r.rule, &*r.citation));
        let infractions = self.infractions.iter().map(|i| (&*i.id, &*i.article));
        citations_among(requirements.chain(infractions), rule)
    }
    fn with_suspensions(&self, suspended: &[String], notes: Vec<String>) -> Self {
        let mut b = Self {
            suspended: notes,
            ..self.clone()
        };
        b.requirements.retain(|r| !suspended.contains(&r.rule));
        b.infractions.retain(|i| !suspended.contains(&i.id));
        b
    }
}

/// Parameters of the charter law, Lei 4.937/2025, read as the catalogue (docs/rules.md) reads it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CharterLegalBasis {
    /// `charter`: a file of the other law is refused.
    pub law: Law,
    /// Recorded on every decision and document.
    pub version: String,
    /// First date on which this version applies (an activation sets its own).
    pub effective_from: NaiveDate,
    /// FRET-ART29: in force on publication (AMB-02: 26/02/2025 assumed, UNSURE).
    pub publication_date: NaiveDate,
    /// Short citation printed on documents.
    pub citation: String,
    /// The provisions the law's documents print (`[document_citations]`); absent: they print
    /// the law's name without article numbers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document_citations: Option<CharterDocumentCitations>,
    /// The secretariat (a key of the municipality profile's `[secretariats]`) that issues and
    /// signs the law's documents, and the one that inspects the buses (Lei 4.937/2025, art.
    /// 2º: the Secretaria Municipal de Infraestrutura e Serviços, for both).
    #[serde(default = "default_charter_secretariat")]
    pub issuing_secretariat: String,
    #[serde(default = "default_charter_secretariat")]
    pub inspecting_secretariat: String,
    /// FRET-ART8-P1: Termo de Autorização validity, in months (2 years).
    pub termo_validity_months: u32,
    /// FRET-ART13-P1-A: service life in months from the first registration (15 years).
    pub service_life_months: u32,
    /// FRET-ART13-P1-B: municipal vistoria validity in months (annual).
    pub vistoria_validity_months: u32,
    /// FRET-ART12-IV: ITV report validity in months (renewed every 6 months).
    pub itv_validity_months: u32,
    /// FRET-ART12-II (INTERP): a CRLV of the previous exercise is still accepted, since the
    /// DETRAN-MT licensing calendar runs through the year by plate ending.
    pub crlv_years_back_accepted: i32,
    /// FRET-ART19 I–VI: the fine, in UPFBG.
    pub fine_upf: u32,
    /// FRET-ART19-PU: multiplier for repeating the same inciso; never compounds (AMB-27).
    pub recidivism_multiplier: u32,
    /// FRET-ART19-PU / FRET-ART20-IV: recidivism window in months (DL-10).
    pub recidivism_window_months: u32,
    /// FRET-ART20-PU: months barred after cassação (DL-9: eligible from the day after).
    pub cassacao_bar_months: u32,
    /// FRET-ART22: defence, days from notification.
    pub defence_days: u32,
    /// FRET-ART22-P3: reconsideration to the Mayor, days from the decision's notice.
    pub reconsideration_days: u32,
    /// FRET-ART23: payment, days from the effective end of the defence period (AMB-32).
    pub payment_days: u32,
    /// FRET-ART3: days to notify SIS of a contract's signing and of its end.
    pub contract_notice_days: u32,
    /// FRET-ART26: days from publication for operating companies to register.
    pub transition_company_days: u32,
    /// FRET-ART26-P1: days from publication for vehicle vistoria and enrolment.
    pub transition_vehicle_days: u32,
    /// FRET-ART15-V (INTERP, CTB art. 148-A §2): toxicological exam validity in months.
    pub toxicological_validity_months: u32,
    /// FRET-ART15-III (AMB-58): validity of a folha corrida that prints none.
    pub certificate_default_validity_days: u32,
    /// FRET-ART25: validity of a certidão de situação cadastral (default 30 days).
    pub certidao_validity_days: u32,
    /// AMB-58 [FED] CTB art. 145, I: minimum age of a charter driver.
    pub min_driver_age_years: u32,
    /// DL-6 switch.
    pub month_overflow: MonthOverflow,
    /// What the law asks of a company, a bus and a charter driver, as written in the file
    /// (`[[requirements]]`; read into `requirements` when the file is checked).
    #[serde(default, rename = "requirements", skip_serializing)]
    #[schema(ignore)]
    requirements_in_file: Vec<toml::Value>,
    /// The requirements in force.
    #[serde(skip_deserializing)]
    #[schema(value_type = Vec<Object>)]
    pub requirements: Vec<CharterRequirement>,
    /// The infractions the law types (`[[infractions]]`: id, citation, description, whether a
    /// repeat is a ground for cassação), read into `infractions` when the file is checked.
    #[serde(default, rename = "infractions", skip_serializing)]
    #[schema(ignore)]
    infractions_in_file: Vec<toml::Value>,
    #[serde(skip_deserializing)]
    pub infractions: Vec<CharterInfraction>,
    /// The provisions suspended on the day the basis is read for, as decisions cite them.
    #[serde(skip)]
    #[schema(ignore)]
    pub suspended: Vec<String>,
}

impl CharterLegalBasis {
    /// The infraction `id` of the catalogue.
    pub fn infraction(&self, id: &str) -> Option<&CharterInfraction> {
        self.infractions.iter().find(|i| i.id == id)
    }
}

/// The law a basis belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Law {
    /// The consolidated ride-hailing law (Secretaria Municipal de Finanças).
    RideHailing,
    /// Lei 4.937/2025 (Secretaria de Infraestrutura e Serviços).
    Charter,
}

impl Law {
    pub fn as_str(self) -> &'static str {
        match self {
            Law::RideHailing => "ride_hailing",
            Law::Charter => "charter",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "ride_hailing" => Some(Law::RideHailing),
            "charter" => Some(Law::Charter),
            _ => None,
        }
    }
}

/// The file of the draft ride-hailing basis, in the repository beside this module.
pub const DRAFT_2023_FILE: &str = include_str!("legal_basis/app-minuta-2023-11-23-v1.toml");
/// The file of the charter basis, Lei 4.937/2025.
pub const LEI_4937_2025_FILE: &str = include_str!("legal_basis/lei-4937-2025-v1.toml");

/// Why a basis file was refused: each problem in Portuguese, for the official who sent it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BasisRefused(pub Vec<String>);

impl std::fmt::Display for BasisRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.join("; "))
    }
}

impl std::error::Error for BasisRefused {}

/// A legal basis read from its file: parsed, then checked as a whole.
pub trait BasisFile: Sized + serde::de::DeserializeOwned {
    const LAW: Law;

    fn version(&self) -> &str;
    fn effective_from(&self) -> NaiveDate;
    fn set_effective_from(&mut self, from: NaiveDate);
    fn law(&self) -> Law;
    /// What is implausible in the numbers (a zero period, a fine out of order…).
    fn problems(&mut self, out: &mut Vec<String>);

    /// Parses and checks the text of a basis file.
    /// Rewrites a file of an earlier format into the current one (a version activated before
    /// the format changed must still load); the default leaves it as it is.
    fn upgrade(_file: &mut toml::Table) {}

    fn from_toml(text: &str) -> Result<Self, BasisRefused> {
        let unreadable = |e: &dyn std::fmt::Display| {
            BasisRefused(vec![format!("Arquivo da base legal ilegível: {e}")])
        };
        let mut table: toml::Table = toml::from_str(text).map_err(|e| unreadable(&e.message()))?;
        Self::upgrade(&mut table);
        let mut basis: Self = toml::Value::Table(table)
            .try_into()
            .map_err(|e: toml::de::Error| unreadable(&e.message()))?;
        let mut out = Vec::new();
        if basis.law() != Self::LAW {
            out.push(format!(
                "law: o arquivo é da lei `{}`, não de `{}`.",
                basis.law().as_str(),
                Self::LAW.as_str()
            ));
        }
        let v = basis.version();
        if v.is_empty()
            || v.len() > 64
            || !v
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"./_-".contains(&b))
        {
            out.push(
                "version: de 1 a 64 caracteres, letras, algarismos, `.`, `/`, `_` ou `-`.".into(),
            );
        }
        plausible_date("effective_from", basis.effective_from(), &mut out);
        basis.problems(&mut out);
        if out.is_empty() {
            Ok(basis)
        } else {
            Err(BasisRefused(out))
        }
    }
}

fn plausible_date(field: &str, date: NaiveDate, out: &mut Vec<String>) {
    use chrono::Datelike as _;
    if !(1990..=2100).contains(&date.year()) {
        out.push(format!("{field}: data fora de 1990 a 2100."));
    }
}

/// Pushes a problem for each `(name, value)` that is zero.
fn positive(values: &[(&str, u32)], out: &mut Vec<String>) {
    for (name, value) in values {
        if *value == 0 {
            out.push(format!("{name}: deve ser maior que zero."));
        }
    }
}

/// The accessors of `BasisFile` every basis struct shares (its `version`, `effective_from`
/// and `law` fields).
macro_rules! basis_fields {
    () => {
        fn version(&self) -> &str {
            &self.version
        }
        fn effective_from(&self) -> NaiveDate {
            self.effective_from
        }
        fn set_effective_from(&mut self, from: NaiveDate) {
            self.effective_from = from;
        }
        fn law(&self) -> Law {
            self.law
        }
    };
}

impl BasisFile for RideHailingLegalBasis {
    const LAW: Law = Law::RideHailing;

    basis_fields!();

    /// A file written before requirements and infractions were data reads as the same
    /// requirements and catalogue, cited as the draft cites them.
    fn upgrade(file: &mut toml::Table) {
        upgrade_requirements(file);
        upgrade_infractions(file);
    }

    fn problems(&mut self, out: &mut Vec<String>) {
        secretariat_problems(
            [
                ("issuing_secretariat", &self.issuing_secretariat),
                ("inspecting_secretariat", &self.inspecting_secretariat),
            ],
            out,
        );
        positive(
            &[
                (
                    "authorization_validity_months",
                    self.authorization_validity_months,
                ),
                ("fine_upf_leve", self.fine_upf_leve),
                ("recidivism_window_months", self.recidivism_window_months),
                ("data_request_hours", self.data_request_hours),
                ("notice_dispatch_days", self.notice_dispatch_days),
                ("defence_days", self.defence_days),
                ("reconsideration_days", self.reconsideration_days),
                ("payment_days", self.payment_days),
                (
                    "vistoria_presentation_days",
                    self.vistoria_presentation_days,
                ),
                ("vistoria_validity_months", self.vistoria_validity_months),
                ("vistoria_fix_days", self.vistoria_fix_days),
                ("data_change_report_days", self.data_change_report_days),
                ("renewal_window_days", self.renewal_window_days),
            ],
            out,
        );
        let fines = [
            self.fine_upf_leve,
            self.fine_upf_media,
            self.fine_upf_grave,
            self.fine_upf_gravissima,
        ];
        if fines.windows(2).any(|w| w[0] >= w[1]) {
            out.push(
                "fine_upf_*: as multas devem crescer de leve a média, grave e gravíssima.".into(),
            );
        }
        self.requirements = parse_requirements(&self.requirements_in_file, out);
        self.infractions = parse_catalogue(&self.infractions_in_file, out);
        let c = &self.fine_class_citations;
        for (field, text) in [
            ("citation", &self.citation),
            ("sticker_citation", &self.sticker_citation),
            ("fine_citation", &self.fine_citation),
            ("fine_class_citations.leve", &c.leve),
            ("fine_class_citations.media", &c.media),
            ("fine_class_citations.grave", &c.grave),
            ("fine_class_citations.gravissima", &c.gravissima),
        ] {
            if text.trim().is_empty() || text.len() > 400 {
                out.push(format!("{field}: de 1 a 400 caracteres."));
            }
        }
        if let Some(text) = &self.electronic_notice_citation
            && (text.trim().is_empty() || text.len() > 400)
        {
            out.push(
                "electronic_notice_citation: de 1 a 400 caracteres (ou ausente: sem notificação eletrônica)."
                    .into(),
            );
        }
        if let Some(eif) = self.entry_into_force {
            plausible_date("entry_into_force", eif, out);
        }
        citation_problems(self.document_citations.as_ref(), out);
    }
}

/// A ride-hailing file written before requirements were data (its eligibility numbers as flat
/// keys, no `[[requirements]]`): the same requirements, cited as the draft cites them.
fn upgrade_requirements(file: &mut toml::Table) {
    use toml::Value;
    if file.contains_key("requirements") || !file.contains_key("max_vehicle_age_years") {
        return;
    }

    // The draft's requirements, as its file cites them, with the old file's numbers.
    let Some(Value::Array(mut list)) = toml::from_str::<toml::Table>(DRAFT_2023_FILE)
        .ok()
        .and_then(|mut draft| draft.remove("requirements"))
    else {
        return;
    };
    let final_only = file.remove("ctb306_requires_final_conviction") != Some(Value::Boolean(false));
    let moved: [(&str, &str, &str); 7] = [
        ("license", "min_years", "min_years_since_first_license"),
        (
            "criminal_certificates",
            "default_validity_days",
            "certificate_default_validity_days",
        ),
        ("ctb306", "bar_years", "ctb306_bar_years"),
        ("ctb306", "counted_from", "ctb306_bar_counted_from"),
        ("vehicle_age", "max_years", "max_vehicle_age_years"),
        ("vehicle_doors", "doors", "required_doors"),
        (
            "vehicle_capacity",
            "max_including_driver",
            "max_capacity_including_driver",
        ),
    ];
    for requirement in list.iter_mut().filter_map(Value::as_table_mut) {
        let kind = requirement
            .get("kind")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        for (_, param, old) in moved.iter().filter(|(k, _, _)| *k == kind) {
            if let Some(v) = file.get(*old) {
                requirement.insert((*param).to_owned(), v.clone());
            }
        }
        match kind.as_str() {
            "ctb306" => {
                let pending = if final_only { "ignore" } else { "bar" };
                requirement.insert("pending_prosecution".into(), Value::String(pending.into()));
            }
            "vehicle_registration" => {
                if let Some(m) = file.get("allowed_municipalities") {
                    requirement.insert("municipalities".into(), m.clone());
                }
            }
            _ => {}
        }
    }
    for (_, _, old) in moved {
        file.remove(old);
    }
    file.remove("allowed_municipalities");
    file.insert("requirements".into(), Value::Array(list));
}

/// A ride-hailing file written before its infractions were data (the sanctions' lengths as flat
/// keys, no `[[infractions]]`): the draft's catalogue, with the old file's lengths.
fn upgrade_infractions(file: &mut toml::Table) {
    use toml::Value;
    if file.contains_key("infractions") {
        return;
    }
    let Some(Value::Array(mut list)) = toml::from_str::<toml::Table>(DRAFT_2023_FILE)
        .ok()
        .and_then(|mut draft| draft.remove("infractions"))
    else {
        return;
    };
    let moved = [
        (
            "APP-ART26-IV",
            "on_repeat",
            "days",
            "suspension_repeat_iv_days",
        ),
        (
            "APP-ART26-V",
            "penalty",
            "months",
            "suspension_general_months",
        ),
    ];
    for (id, field, param, old) in moved {
        let Some(value) = file.remove(old) else {
            continue;
        };
        if let Some(Value::Table(penalty)) = list
            .iter_mut()
            .filter_map(Value::as_table_mut)
            .find(|i| i.get("id").and_then(Value::as_str) == Some(id))
            .and_then(|i| i.get_mut(field))
        {
            penalty.insert(param.into(), value);
        }
    }
    file.insert("infractions".into(), Value::Array(list));
}

impl BasisFile for CharterLegalBasis {
    const LAW: Law = Law::Charter;

    basis_fields!();

    /// A file written before the charter requirements and infractions were data (no
    /// `[[requirements]]`, no `[[infractions]]`) asks for and types what Lei 4.937/2025 does,
    /// cited as its file cites it.
    fn upgrade(file: &mut toml::Table) {
        for key in ["requirements", "infractions"] {
            if file.contains_key(key) {
                continue;
            }
            if let Some(list) = toml::from_str::<toml::Table>(LEI_4937_2025_FILE)
                .ok()
                .and_then(|mut shipped| shipped.remove(key))
            {
                file.insert(key.into(), list);
            }
        }
    }

    fn problems(&mut self, out: &mut Vec<String>) {
        self.requirements = parse_requirements(&self.requirements_in_file, out);
        self.infractions = parse_catalogue(&self.infractions_in_file, out);
        secretariat_problems(
            [
                ("issuing_secretariat", &self.issuing_secretariat),
                ("inspecting_secretariat", &self.inspecting_secretariat),
            ],
            out,
        );
        positive(
            &[
                ("termo_validity_months", self.termo_validity_months),
                ("service_life_months", self.service_life_months),
                ("vistoria_validity_months", self.vistoria_validity_months),
                ("itv_validity_months", self.itv_validity_months),
                ("fine_upf", self.fine_upf),
                ("recidivism_multiplier", self.recidivism_multiplier),
                ("recidivism_window_months", self.recidivism_window_months),
                ("cassacao_bar_months", self.cassacao_bar_months),
                ("defence_days", self.defence_days),
                ("reconsideration_days", self.reconsideration_days),
                ("payment_days", self.payment_days),
                ("contract_notice_days", self.contract_notice_days),
                ("transition_company_days", self.transition_company_days),
                ("transition_vehicle_days", self.transition_vehicle_days),
                (
                    "toxicological_validity_months",
                    self.toxicological_validity_months,
                ),
                (
                    "certificate_default_validity_days",
                    self.certificate_default_validity_days,
                ),
                ("certidao_validity_days", self.certidao_validity_days),
                ("min_driver_age_years", self.min_driver_age_years),
            ],
            out,
        );
        if !(0..=5).contains(&self.crlv_years_back_accepted) {
            out.push("crlv_years_back_accepted: de 0 a 5 exercícios.".into());
        }
        plausible_date("publication_date", self.publication_date, out);
        if self.citation.trim().is_empty() || self.citation.len() > 400 {
            out.push("citation: de 1 a 400 caracteres.".into());
        }
        citation_problems(self.document_citations.as_ref(), out);
    }
}

impl RideHailingLegalBasis {
    /// The draft consolidated text, from its file in the repository
    /// (`tests::the_files_in_the_repository_load` keeps it loadable).
    #[expect(
        clippy::expect_used,
        reason = "the repository's own file; a test keeps it loadable"
    )]
    pub fn draft_2023() -> Self {
        Self::from_toml(DRAFT_2023_FILE).expect("the draft's basis file in the repository loads")
    }
}

impl CharterLegalBasis {
    /// Lei 4.937/2025, from its file in the repository.
    #[expect(
        clippy::expect_used,
        reason = "the repository's own file; a test keeps it loadable"
    )]
    pub fn lei_4937_2025() -> Self {
        Self::from_toml(LEI_4937_2025_FILE).expect("Lei 4.937/2025's basis file loads")
    }
}

/// The act that enacts a legal basis (a law, a decree), recorded with its activation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct EnactingAct {
    /// "Lei", "Decreto", "Lei Complementar"…
    pub kind: String,
    /// "4.976/2025".
    pub number: String,
    /// Its date (of signature or publication, as the act reads).
    pub date: NaiveDate,
}

/// A version of a law activated by an official: its file, from when, by which act.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Activation {
    pub law: Law,
    pub version: String,
    pub effective_from: NaiveDate,
    pub act: EnactingAct,
    /// SHA-256 of the file, hex.
    pub sha256: String,
    pub activated_at: chrono::DateTime<chrono::Utc>,
    pub activated_by: String,
    /// The file, as sent.
    #[serde(skip)]
    pub source: String,
}

/// Whether a court's act suspends provisions or restores them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SuspensionAct {
    /// The provisions stop applying from `effective_from`.
    Suspensao,
    /// The provisions apply again from `effective_from`.
    Restabelecimento,
}

impl SuspensionAct {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Suspensao => "suspensao",
            Self::Restabelecimento => "restabelecimento",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        [Self::Suspensao, Self::Restabelecimento]
            .into_iter()
            .find(|a| a.as_str() == s)
    }
}

/// A court's decision recorded by an official: provisions of a law (by rule id) suspended, or
/// restored, from a date. Append-only: a restoration is another act.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Suspension {
    pub id: String,
    pub law: Law,
    pub act: SuspensionAct,
    /// The rule ids of the provisions.
    pub rules: Vec<String>,
    /// "TJMT", "STF"…
    pub court: String,
    pub case_number: String,
    /// The day of the decision.
    pub decided_on: NaiveDate,
    /// The first day it takes effect.
    pub effective_from: NaiveDate,
    pub recorded_at: chrono::DateTime<chrono::Utc>,
    pub recorded_by: String,
}

impl Suspension {
    /// How a decision made while it holds cites it.
    pub fn note(&self, rule: &str, citation: &str) -> String {
        format!(
            "{citation} ({rule}) suspenso por decisão do {}, processo {}, de {}, desde {}",
            self.court,
            self.case_number,
            self.decided_on.format("%d/%m/%Y"),
            self.effective_from.format("%d/%m/%Y")
        )
    }
}

/// The sources (TOML) of the versions in force from the start, before any activation: `None`
/// for the ones selo ships (the draft of the ride-hailing law, Lei 4.937/2025); a municipality
/// profile names its own.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InitialBases {
    pub ride_hailing: Option<String>,
    pub charter: Option<String>,
}

/// Every version of both laws the register knows, in the order they take effect: the files in
/// the repository first, then the activations; and the courts' suspensions of provisions.
#[derive(Debug, Clone)]
pub struct LegalBases {
    ride_hailing: Vec<Arc<RideHailingLegalBasis>>,
    charter: Vec<Arc<CharterLegalBasis>>,
    activations: Vec<Activation>,
    suspensions: Vec<Suspension>,
}

impl LegalBases {
    /// The files in the repository, with the register's activations on top.
    pub fn load(activations: Vec<Activation>) -> Result<Self, BasisRefused> {
        Self::load_from(&InitialBases::default(), activations)
    }

    /// The same, starting from the versions `initial` names (a municipality profile's own)
    /// instead of the ones selo ships.
    pub fn load_from(
        initial: &InitialBases,
        activations: Vec<Activation>,
    ) -> Result<Self, BasisRefused> {
        let mut ride_hailing = vec![Arc::new(RideHailingLegalBasis::from_toml(
            initial.ride_hailing.as_deref().unwrap_or(DRAFT_2023_FILE),
        )?)];
        let mut charter = vec![Arc::new(CharterLegalBasis::from_toml(
            initial.charter.as_deref().unwrap_or(LEI_4937_2025_FILE),
        )?)];
        let mut sorted = activations;
        sorted.sort_by_key(|a| (a.effective_from, a.activated_at));
        for a in &sorted {
            let tag = |e: BasisRefused| {
                BasisRefused(vec![format!("{} ({}): {e}", a.version, a.law.as_str())])
            };
            match a.law {
                Law::RideHailing => {
                    let mut b = RideHailingLegalBasis::from_toml(&a.source).map_err(tag)?;
                    b.set_effective_from(a.effective_from);
                    ride_hailing.push(Arc::new(b));
                }
                Law::Charter => {
                    let mut b = CharterLegalBasis::from_toml(&a.source).map_err(tag)?;
                    b.set_effective_from(a.effective_from);
                    charter.push(Arc::new(b));
                }
            }
        }
        Ok(Self {
            ride_hailing,
            charter,
            activations: sorted,
            suspensions: Vec::new(),
        })
    }

    /// The same bases with the courts' suspensions recorded.
    #[must_use]
    pub fn with_suspensions(mut self, mut suspensions: Vec<Suspension>) -> Self {
        suspensions.sort_by_key(|s| (s.effective_from, s.recorded_at));
        self.suspensions = suspensions;
        self
    }

    /// Every suspension and restoration recorded, in the order they take effect.
    pub fn suspensions(&self) -> &[Suspension] {
        &self.suspensions
    }

    /// The act in force on `date` for each rule of `law` a court has acted on: the last to
    /// take effect by then.
    fn suspended_on(&self, law: Law, date: NaiveDate) -> Vec<(&str, &Suspension)> {
        let mut last: Vec<(&str, &Suspension)> = Vec::new();
        for s in self
            .suspensions
            .iter()
            .filter(|s| s.law == law && s.effective_from <= date)
        {
            for rule in &s.rules {
                last.retain(|(r, _)| *r != rule.as_str());
                last.push((rule.as_str(), s));
            }
        }
        last.retain(|(_, s)| s.act == SuspensionAct::Suspensao);
        last
    }

    /// The ride-hailing version in force on `date` (the last to take effect by then; the first
    /// one before any took effect), less the requirements a court had suspended on that day.
    pub fn ride_hailing_on(&self, date: NaiveDate) -> Arc<RideHailingLegalBasis> {
        let basis = in_force(&self.ride_hailing, date, |b| b.effective_from);
        self.less_suspended(basis, Law::RideHailing, date)
    }

    /// `basis` less the provisions of `law` a court had suspended on `date`, naming them.
    fn less_suspended<B: Suspendable>(&self, basis: Arc<B>, law: Law, date: NaiveDate) -> Arc<B> {
        let suspended = self.suspended_on(law, date);
        let hit: Vec<(&str, &Suspension)> = suspended
            .into_iter()
            .filter(|(rule, _)| !basis.citations_of(rule).is_empty())
            .collect();
        if hit.is_empty() {
            return basis;
        }
        let rules: Vec<String> = hit.iter().map(|(r, _)| (*r).to_owned()).collect();
        let notes = hit
            .iter()
            .map(|(rule, s)| s.note(rule, &basis.citations_of(rule).join("; ")))
            .collect();
        Arc::new(basis.with_suspensions(&rules, notes))
    }

    /// Whether `rule` names a requirement or an infraction of some version of `law` (what a
    /// court may suspend).
    pub fn knows_rule(&self, law: Law, rule: &str) -> bool {
        match law {
            Law::RideHailing => self
                .ride_hailing
                .iter()
                .any(|b| !b.citations_of(rule).is_empty()),
            Law::Charter => self
                .charter
                .iter()
                .any(|b| !b.citations_of(rule).is_empty()),
        }
    }

    /// The charter version in force on `date`, less the provisions a court had suspended on
    /// that day.
    pub fn charter_on(&self, date: NaiveDate) -> Arc<CharterLegalBasis> {
        let basis = in_force(&self.charter, date, |b| b.effective_from);
        self.less_suspended(basis, Law::Charter, date)
    }

    /// The ride-hailing version named `version`, as its file reads (no suspension applied).
    pub fn ride_hailing_version(&self, version: &str) -> Option<Arc<RideHailingLegalBasis>> {
        self.ride_hailing
            .iter()
            .rev()
            .find(|b| b.version == version)
            .cloned()
    }

    /// The charter version named `version`.
    pub fn charter_version(&self, version: &str) -> Option<Arc<CharterLegalBasis>> {
        self.charter
            .iter()
            .rev()
            .find(|b| b.version == version)
            .cloned()
    }

    pub fn ride_hailing_versions(&self) -> &[Arc<RideHailingLegalBasis>] {
        &self.ride_hailing
    }

    pub fn charter_versions(&self) -> &[Arc<CharterLegalBasis>] {
        &self.charter
    }

    pub fn activations(&self) -> &[Activation] {
        &self.activations
    }

    /// Whether `version` is a version of either law already.
    pub fn knows(&self, version: &str) -> bool {
        self.ride_hailing.iter().any(|b| b.version == version)
            || self.charter.iter().any(|b| b.version == version)
    }

    /// The day the latest version of `law` took (or takes) effect.
    pub fn latest_effective_from(&self, law: Law) -> NaiveDate {
        match law {
            Law::RideHailing => self.ride_hailing.iter().map(|b| b.effective_from).max(),
            Law::Charter => self.charter.iter().map(|b| b.effective_from).max(),
        }
        .unwrap_or(NaiveDate::MIN)
    }
}

/// The last of `versions` to take effect by `date`; the first (the repository's file, which
/// `LegalBases::load` always puts there) before any did.
fn in_force<B>(versions: &[Arc<B>], date: NaiveDate, from: impl Fn(&B) -> NaiveDate) -> Arc<B> {
    let first = &versions[0];
    versions
        .iter()
        .rev()
        .find(|b| from(b) <= date)
        .unwrap_or(first)
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn the_files_in_the_repository_load() {
        let app = RideHailingLegalBasis::from_toml(DRAFT_2023_FILE).unwrap();
        assert_eq!(app.version, "APP-MINUTA-2023-11-23/v1");
        assert_eq!(app.fine_upf_gravissima, 950);
        assert!(app.municipality(IbgeCode::from_const(5_201_702)).is_some());
        assert_eq!(app.entry_into_force, None);
        assert_eq!(
            app.vehicle_age_limit(),
            Some((AgeCountedFrom::ModelYear, 12))
        );
        assert_eq!(app.certificate_default_validity_days(), Some(90));
        let charter = CharterLegalBasis::from_toml(LEI_4937_2025_FILE).unwrap();
        assert_eq!(charter.version, "LEI-4937-2025/v1");
        assert_eq!(charter.fine_upf, 500);
        assert_eq!(charter.publication_date, d(2025, 2, 26));
    }

    /// The provisions documents print are all filled in, or the file is refused naming each
    /// empty one; a file without them loads and its documents cite no article.
    #[test]
    fn a_document_citation_left_empty_refuses_the_file() {
        let app = RideHailingLegalBasis::from_toml(DRAFT_2023_FILE).unwrap();
        assert_eq!(
            app.document_citations.as_ref().map(|c| c.carry.as_str()),
            Some("art. 13, I")
        );
        let emptied = DRAFT_2023_FILE
            .replace(r#"carry = "art. 13, I""#, r#"carry = " ""#)
            .replace(r#"vistoria = "art. 16""#, r#"vistoria = """#);
        let refused = RideHailingLegalBasis::from_toml(&emptied).unwrap_err();
        let named: Vec<_> = refused
            .0
            .iter()
            .filter(|p| p.starts_with("document_citations."))
            .collect();
        assert_eq!(named.len(), 2, "{refused}");
        assert!(
            named[0].starts_with("document_citations.carry:"),
            "{refused}"
        );
        let start = DRAFT_2023_FILE.find("[document_citations]").unwrap();
        let end = DRAFT_2023_FILE[start..].find("\n\n").unwrap() + start;
        let without = format!("{}{}", &DRAFT_2023_FILE[..start], &DRAFT_2023_FILE[end..]);
        let loaded = RideHailingLegalBasis::from_toml(&without).unwrap();
        assert!(loaded.document_citations.is_none());
        let charter = CharterLegalBasis::from_toml(LEI_4937_2025_FILE).unwrap();
        assert_eq!(
            charter.document_citations.map(|c| c.termo),
            Some("art. 8º".to_owned())
        );
    }

    /// A version activated before requirements were data still loads, as the same rules.
    #[test]
    fn a_file_of_the_earlier_format_reads_as_the_same_requirements() {
        let old = r#"
law = "ride_hailing"
version = "APP-ANTIGA/v1"
effective_from = "2024-01-01"
citation = "Lei antiga"
sticker_citation = "Art. 14"
authorization_validity_months = 12
max_vehicle_age_years = 10
required_doors = 4
max_capacity_including_driver = 7
min_years_since_first_license = 2
month_overflow = "last_day"
fine_upf_leve = 115
fine_upf_media = 285
fine_upf_grave = 570
fine_upf_gravissima = 950
recidivism_window_months = 12
suspension_repeat_iv_days = 45
suspension_general_months = 6
data_request_hours = 24
platform_min_app_cover_centavos = 5000000
certificate_default_validity_days = 60
ctb306_bar_years = 5
ctb306_requires_final_conviction = false
ctb306_bar_counted_from = "final_conviction"
transition_grandfather_all = false
notice_dispatch_days = 90
defence_days = 15
reconsideration_days = 10
payment_days = 30
vistoria_presentation_days = 5
vistoria_validity_months = 12
vistoria_fix_days = 15
data_change_report_days = 7
history_judged_at_protocol = true

[[allowed_municipalities]]
ibge = 5101803
name = "Barra do Garças"
uf = "MT"
"#;
        let b = RideHailingLegalBasis::from_toml(old).unwrap();
        let draft = RideHailingLegalBasis::draft_2023();
        assert_eq!(b.requirements.len(), draft.requirements.len());
        assert_eq!(b.vehicle_age_limit(), Some((AgeCountedFrom::ModelYear, 10)));
        assert_eq!(b.certificate_default_validity_days(), Some(60));
        assert!(b.municipality(IbgeCode::from_const(5_101_803)).is_some());
        assert!(b.requirements.iter().any(|r| r.kind
            == RequirementKind::Ctb306 {
                bar_years: 5,
                counted_from: Ctb306BarStart::FinalConviction,
                pending_prosecution: crate::domain::requirements::PendingProsecution::Bar,
            }));
    }

    /// A version activated before infractions were data reads as the draft's catalogue, with
    /// the sanctions' lengths its flat keys set.
    #[test]
    fn a_file_of_the_earlier_format_reads_as_the_drafts_catalogue_with_its_lengths() {
        use crate::domain::ride_hailing::sanctions::Penalty;
        let old = DRAFT_2023_FILE[..DRAFT_2023_FILE.find("[[infractions]]").unwrap()]
            .replace(
                "recidivism_window_months = 12",
                "recidivism_window_months = 12\nsuspension_repeat_iv_days = 45\nsuspension_general_months = 6",
            );
        let b = RideHailingLegalBasis::from_toml(&old).unwrap();
        assert_eq!(
            b.infractions.len(),
            RideHailingLegalBasis::draft_2023().infractions.len()
        );
        assert_eq!(
            b.infraction("APP-ART26-IV").unwrap().on_repeat,
            Some(Penalty::Suspension {
                months: None,
                days: Some(45),
                citation: "art. 26, §1º".into()
            })
        );
        assert_eq!(
            b.infraction("APP-ART26-V").unwrap().penalty,
            Some(Penalty::Suspension {
                months: Some(6),
                days: None,
                citation: "art. 26, V".into()
            })
        );
    }

    /// A charter file written before its requirements and infractions were data asks for and
    /// types what Lei 4.937/2025 does; the shipped file uses every charter kind.
    #[test]
    fn a_charter_file_without_requirements_asks_for_the_shipped_ones() {
        use crate::domain::charter::requirement_kinds::CHARTER_KINDS;
        let shipped = CharterLegalBasis::lei_4937_2025();
        for (kind, _) in CHARTER_KINDS {
            assert!(
                LEI_4937_2025_FILE.contains(&format!("kind = \"{kind}\"")),
                "{kind} unused"
            );
        }
        let old = &LEI_4937_2025_FILE[..LEI_4937_2025_FILE.find("[[requirements]]").unwrap()];
        let b = CharterLegalBasis::from_toml(old).unwrap();
        assert_eq!(b.requirements, shipped.requirements);
        assert_eq!(shipped.requirements.len(), 29);
        assert_eq!(b.infractions, shipped.infractions);
        assert!(
            shipped
                .infraction("FRET-ART19-VI")
                .unwrap()
                .repeat_is_cassacao_ground
        );
    }

    /// A catalogue with problems is refused with every one of them listed.
    #[test]
    fn a_catalogue_with_problems_is_refused_with_each_listed() {
        let bad = DRAFT_2023_FILE
            .replace("id = \"APP-ART26-II\"", "id = \"APP-ART26-I\"")
            .replace("article = \"art. 26, VI\"", "article = \"\"")
            .replace(
                "penalty = { kind = \"suspension\", months = 12,",
                "penalty = { kind = \"suspension\", months = 12, days = 3,",
            )
            .replace(
                "class = \"gravissima\"\noffender",
                "class = \"pesadissima\"\noffender",
            );
        let BasisRefused(problems) = RideHailingLegalBasis::from_toml(&bad).unwrap_err();
        assert_eq!(problems.len(), 4, "{problems:?}");
        for expected in [
            "infractions[2] (APP-ART26-I).id: APP-ART26-I repetida",
            "infractions[6] (APP-ART26-VI).article",
            "infractions[5] (APP-ART26-V).penalty: uma suspensão",
            "infractions[7] (APP-ART27): unknown variant `pesadissima`",
        ] {
            assert!(
                problems.iter().any(|p| p.starts_with(expected)),
                "{expected}: {problems:?}"
            );
        }
        let empty = "infractions = []\n".to_owned()
            + &DRAFT_2023_FILE[..DRAFT_2023_FILE.find("[[infractions]]").unwrap()];
        let BasisRefused(problems) = RideHailingLegalBasis::from_toml(&empty).unwrap_err();
        assert_eq!(
            problems,
            vec!["infractions: o catálogo de infrações não pode ser vazio.".to_owned()]
        );
    }

    #[test]
    fn a_file_with_an_unknown_missing_or_implausible_key_is_refused() {
        let unknown = format!("{DRAFT_2023_FILE}\nsurprise = 1\n");
        assert!(RideHailingLegalBasis::from_toml(&unknown).is_err());
        let missing = DRAFT_2023_FILE.replace("defence_days = 15\n", "");
        assert!(RideHailingLegalBasis::from_toml(&missing).is_err());
        let zero = DRAFT_2023_FILE.replace("defence_days = 15", "defence_days = 0");
        let BasisRefused(problems) = RideHailingLegalBasis::from_toml(&zero).unwrap_err();
        assert_eq!(
            problems,
            vec!["defence_days: deve ser maior que zero.".to_owned()]
        );
        let disorder = DRAFT_2023_FILE.replace("fine_upf_grave = 570", "fine_upf_grave = 1000");
        assert!(RideHailingLegalBasis::from_toml(&disorder).is_err());
        let other_law = RideHailingLegalBasis::from_toml(LEI_4937_2025_FILE);
        assert!(other_law.is_err());
        let wrong_law = DRAFT_2023_FILE.replace("law = \"ride_hailing\"", "law = \"charter\"");
        let BasisRefused(problems) = RideHailingLegalBasis::from_toml(&wrong_law).unwrap_err();
        assert!(problems[0].starts_with("law:"), "{problems:?}");
    }

    fn activation(version: &str, from: NaiveDate, fine: u32) -> Activation {
        Activation {
            law: Law::Charter,
            version: version.into(),
            effective_from: from,
            act: EnactingAct {
                kind: "Lei".into(),
                number: "5.000/2026".into(),
                date: from,
            },
            sha256: String::new(),
            activated_at: chrono::DateTime::UNIX_EPOCH,
            activated_by: "test".into(),
            source: LEI_4937_2025_FILE
                .replace("LEI-4937-2025/v1", version)
                .replace("fine_upf = 500", &format!("fine_upf = {fine}")),
        }
    }

    #[test]
    fn the_version_in_force_is_the_last_to_take_effect_by_the_date() {
        let bases = LegalBases::load(vec![
            activation("LEI-4937-2025/v3", d(2027, 1, 1), 700),
            activation("LEI-4937-2025/v2", d(2026, 6, 1), 600),
        ])
        .unwrap();
        assert_eq!(bases.charter_on(d(2024, 1, 1)).version, "LEI-4937-2025/v1");
        assert_eq!(bases.charter_on(d(2026, 5, 31)).fine_upf, 500);
        assert_eq!(bases.charter_on(d(2026, 6, 1)).fine_upf, 600);
        assert_eq!(
            bases.charter_on(d(2026, 12, 31)).version,
            "LEI-4937-2025/v2"
        );
        assert_eq!(bases.charter_on(d(2027, 1, 1)).fine_upf, 700);
        assert_eq!(
            bases.ride_hailing_on(d(2027, 1, 1)).version,
            "APP-MINUTA-2023-11-23/v1"
        );
        assert!(bases.knows("LEI-4937-2025/v2"));
        assert_eq!(bases.latest_effective_from(Law::Charter), d(2027, 1, 1));
    }
}
