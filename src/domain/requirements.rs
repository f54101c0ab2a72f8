//! Requirements of eligibility as data. A legal basis lists what its law asks of a driver, a
//! car or a platform as `[[requirements]]`, each an instance of a kind implemented (and
//! tested) once here: the rule id it answers to, its citation as printed on decisions, and its
//! parameters. A new basis adds, drops, re-parameterizes and re-cites requirements without a
//! build; a court's suspension takes one out from a date (`legal_basis::Suspension`).
//!
//! Checking a file lists every problem: an unknown kind, a missing or unknown parameter, an
//! empty citation, an implausible number.

use std::borrow::Cow;

use chrono::{Datelike, Duration, NaiveDate};
use serde::{Deserialize, Serialize};

use super::calendar::within_lookback;
use super::dates::{MonthOverflow, add_months};
use super::ids::IbgeCode;
use super::rule::{Failures, RuleFailure};

/// A municipality where an app vehicle may be registered (APP-ART8-P1-I).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Municipality {
    pub ibge: u32,
    pub name: String,
    pub uf: String,
}

/// AMB-25: where the CTB art. 306 bar's years start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Ctb306BarStart {
    /// The day the sentence was served or extinguished (analogy with CP art. 64, I).
    SentenceExtinguished,
    /// The day the conviction became final.
    FinalConviction,
}

/// One requirement of a legal basis: which rule, as cited, with which parameters. `K` is the
/// law's set of kinds (the ride-hailing law's by default, [`RequirementKind`]).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Requirement<K = RequirementKind> {
    /// The rule id it answers to (`APP-ART2-P1`, or a new basis's own id).
    pub rule: String,
    /// The provision as printed on decisions ("art. 2º, §1º").
    pub citation: String,
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub kind: K,
}

/// A law's set of requirement kinds: each kind's name in the file with the parameters it
/// takes, and what is implausible in them.
pub trait KindSet: serde::de::DeserializeOwned {
    const KINDS: &'static [(&'static str, &'static [&'static str])];
    /// Pushes to `out` what is implausible in the parameters (`at` names the requirement).
    fn problems(&self, at: &str, out: &mut Vec<String>);
}

impl KindSet for RequirementKind {
    const KINDS: &'static [(&'static str, &'static [&'static str])] = KINDS;
    fn problems(&self, at: &str, out: &mut Vec<String>) {
        self.implausible(at, out);
    }
}

/// From which year a car's age is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AgeCountedFrom {
    /// The model year printed on the CRLV (the draft, art. 2º, §2º).
    ModelYear,
    /// The year of manufacture.
    ManufactureYear,
}

/// What a prosecution under way (no final conviction) for the CTB art. 306 crime does to an
/// application (AMB-25).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PendingProsecution {
    /// Nothing: only a final conviction bars.
    Ignore,
    /// It bars as a conviction would.
    Bar,
    /// It sends the application to an official's review (`em_analise`).
    Review,
}

/// The kinds of requirement selo implements, each with its parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum RequirementKind {
    /// The CNH: category B or higher, the EAR remark if asked, held for at least `min_years`
    /// since the first licence (DL-9: met on the anniversary).
    License { min_years: u32, ear: bool },
    /// Clear criminal-record certificates of each court, in force; one without a printed
    /// validity lasts `default_validity_days` from issue.
    CriminalCertificates { default_validity_days: u32 },
    /// No traffic infraction of `class` in the `months` before the history date (DL-10).
    NoInfractions { class: String, months: u32 },
    /// The CTB art. 306 crime bars for `bar_years`, counted from `counted_from`; a
    /// prosecution under way does what `pending_prosecution` says.
    Ctb306 {
        bar_years: u32,
        counted_from: Ctb306BarStart,
        pending_prosecution: PendingProsecution,
    },
    /// A document the driver files (INSS enrolment, alvará, a debt certificate…), in force on
    /// the grant: within its printed validity, or issued at most `max_age_days` before.
    Document {
        document: String,
        label: String,
        max_age_days: u32,
    },
    /// At most `max_years` of age, year by year, counted from the model year or the year of
    /// manufacture.
    VehicleAge {
        counted_from: AgeCountedFrom,
        max_years: i32,
    },
    /// Exactly this many doors.
    VehicleDoors { doors: i32 },
    /// Air conditioning.
    VehicleAirConditioning {},
    /// At most this many seats, the driver's included.
    VehicleCapacity { max_including_driver: i32 },
    /// Registered in one of these municipalities (from the CRLV).
    VehicleRegistration { municipalities: Vec<Municipality> },
    /// At most `max` platforms registered and in force at once.
    PlatformsCap { max: u32 },
    /// At most `max` drivers registered with one platform at once.
    PlatformDriversCap { max: u32 },
}

impl RequirementKind {
    /// The kind's name in the file.
    pub fn name(&self) -> &'static str {
        match self {
            Self::License { .. } => "license",
            Self::CriminalCertificates { .. } => "criminal_certificates",
            Self::NoInfractions { .. } => "no_infractions",
            Self::Ctb306 { .. } => "ctb306",
            Self::Document { .. } => "document",
            Self::VehicleAge { .. } => "vehicle_age",
            Self::VehicleDoors { .. } => "vehicle_doors",
            Self::VehicleAirConditioning {} => "vehicle_air_conditioning",
            Self::VehicleCapacity { .. } => "vehicle_capacity",
            Self::VehicleRegistration { .. } => "vehicle_registration",
            Self::PlatformsCap { .. } => "platforms_cap",
            Self::PlatformDriversCap { .. } => "platform_drivers_cap",
        }
    }
}

/// Every kind a basis may use, with the parameters each takes (for the rule page and the
/// refusal of an unknown one).
pub const KINDS: &[(&str, &[&str])] = &[
    ("license", &["min_years", "ear"]),
    ("criminal_certificates", &["default_validity_days"]),
    ("no_infractions", &["class", "months"]),
    (
        "ctb306",
        &["bar_years", "counted_from", "pending_prosecution"],
    ),
    ("document", &["document", "label", "max_age_days"]),
    ("vehicle_age", &["counted_from", "max_years"]),
    ("vehicle_doors", &["doors"]),
    ("vehicle_air_conditioning", &[]),
    ("vehicle_capacity", &["max_including_driver"]),
    ("vehicle_registration", &["municipalities"]),
    ("platforms_cap", &["max"]),
    ("platform_drivers_cap", &["max"]),
];

/// Whether `id` reads as a rule id: 1 to 40 capitals, digits and hyphens (`APP-ART2-P1`).
pub fn is_rule_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 40
        && id
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-')
}

/// A requirement as written in the file, before its kind is known.
#[derive(Deserialize)]
struct RawRequirement {
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    rule: Option<String>,
    #[serde(default)]
    citation: Option<String>,
    #[serde(flatten)]
    params: toml::Table,
}

/// Reads the `[[requirements]]` of a basis file, each checked; every problem is pushed to
/// `out` (in Portuguese, naming the requirement by its position and rule).
pub fn parse_requirements<K: KindSet>(
    raw: &[toml::Value],
    out: &mut Vec<String>,
) -> Vec<Requirement<K>> {
    let mut list = Vec::new();
    for (i, value) in raw.iter().enumerate() {
        let at = format!("requirements[{}]", i + 1);
        let r: RawRequirement = match value.clone().try_into() {
            Ok(r) => r,
            Err(e) => {
                out.push(format!("{at}: ilegível ({}).", e.message()));
                continue;
            }
        };
        let rule = r.rule.unwrap_or_default();
        let at = if rule.is_empty() {
            at
        } else {
            format!("{at} ({rule})")
        };
        if !is_rule_id(&rule) {
            out.push(format!(
                "{at}: rule deve ser o identificador da regra, em maiúsculas, algarismos e hífens."
            ));
        }
        let citation = r.citation.unwrap_or_default();
        if citation.trim().is_empty() || citation.len() > 200 {
            out.push(format!(
                "{at}: citation (o dispositivo como impresso) de 1 a 200 caracteres."
            ));
        }
        let Some(kind) = r.kind else {
            out.push(format!("{at}: falta kind (o tipo do requisito)."));
            continue;
        };
        match kind_of::<K>(&kind, r.params) {
            Ok(k) => {
                k.problems(&at, out);
                list.push(Requirement {
                    rule,
                    citation,
                    kind: k,
                });
            }
            Err(problem) => out.push(format!("{at}: {problem}")),
        }
    }
    list
}

fn kind_of<K: KindSet>(kind: &str, params: toml::Table) -> Result<K, String> {
    let Some((_, names)) = K::KINDS.iter().find(|(k, _)| *k == kind) else {
        let known: Vec<&str> = K::KINDS.iter().map(|(k, _)| *k).collect();
        return Err(format!(
            "tipo de requisito desconhecido `{kind}`; os conhecidos: {}.",
            known.join(", ")
        ));
    };
    let mut problems = Vec::new();
    for key in params.keys() {
        if !names.contains(&key.as_str()) {
            problems.push(format!("parâmetro desconhecido `{key}`"));
        }
    }
    for name in *names {
        if !params.contains_key(*name) {
            problems.push(format!("falta o parâmetro `{name}`"));
        }
    }
    if !problems.is_empty() {
        return Err(format!("{kind}: {}.", problems.join(", ")));
    }
    let mut table = params;
    table.insert("kind".into(), toml::Value::String(kind.to_owned()));
    toml::Value::Table(table)
        .try_into::<K>()
        .map_err(|e| format!("{kind}: {}", e.message()))
}

const CLASSES: [&str; 4] = ["leve", "media", "grave", "gravissima"];

impl RequirementKind {
    /// What is implausible in the parameters.
    fn implausible(&self, at: &str, out: &mut Vec<String>) {
        let mut bad = |what: &str| out.push(format!("{at}: {what}"));
        match self {
            Self::License { min_years, .. } if *min_years > 50 => {
                bad("min_years: de 0 a 50 anos.");
            }
            Self::CriminalCertificates {
                default_validity_days: 0,
            } => bad("default_validity_days: deve ser maior que zero."),
            Self::NoInfractions { class, months } => {
                if !CLASSES.contains(&class.as_str()) {
                    bad("class: leve, media, grave ou gravissima.");
                }
                if *months == 0 {
                    bad("months: deve ser maior que zero.");
                }
            }
            Self::Document {
                document,
                label,
                max_age_days,
            } => {
                if document.is_empty()
                    || document.len() > 40
                    || !document
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
                {
                    bad("document: de 1 a 40 letras minúsculas, algarismos ou `_`.");
                }
                if label.trim().is_empty() || label.len() > 120 {
                    bad("label: o nome do documento, de 1 a 120 caracteres.");
                }
                if *max_age_days == 0 {
                    bad("max_age_days: deve ser maior que zero.");
                }
            }
            Self::VehicleAge { max_years, .. } if !(1..=50).contains(max_years) => {
                bad("max_years: de 1 a 50 anos.");
            }
            Self::VehicleDoors { doors } if !(2..=5).contains(doors) => {
                bad("doors: de 2 a 5 portas.");
            }
            Self::VehicleCapacity {
                max_including_driver,
            } if !(2..=9).contains(max_including_driver) => {
                bad("max_including_driver: de 2 a 9 lugares.");
            }
            Self::VehicleRegistration { municipalities } => {
                if municipalities.is_empty() {
                    bad("municipalities: ao menos um município.");
                }
                for m in municipalities {
                    if IbgeCode::parse(&m.ibge.to_string()).is_err() || m.name.trim().is_empty() {
                        bad(&format!(
                            "municipalities: código IBGE ou nome inválido ({}).",
                            m.ibge
                        ));
                    }
                }
            }
            Self::PlatformsCap { max: 0 } | Self::PlatformDriversCap { max: 0 } => {
                bad("max: deve ser maior que zero.");
            }
            _ => {}
        }
    }
}

/// Records a failure of requirement `r` on `field`.
fn fail(out: &mut Failures, r: &Requirement, field: &'static str, message: String) {
    out.push(RuleFailure {
        rule: Cow::Owned(r.rule.clone()),
        article: Cow::Owned(r.citation.clone()),
        field,
        message,
    });
}

fn day(d: NaiveDate) -> String {
    d.format("%d/%m/%Y").to_string()
}

/// What the driver requirements read.
pub struct DriverInput<'a> {
    pub cnh_category: super::ids::CnhCategory,
    pub ear: bool,
    pub first_license_date: NaiveDate,
    pub record: &'a super::ride_hailing::driver_record::DriverRecord,
}

/// What the vehicle requirements read.
pub struct VehicleInput {
    pub model_year: i32,
    pub manufacture_year: Option<i32>,
    pub doors: i32,
    pub air_conditioning: bool,
    pub capacity_including_driver: i32,
    pub registration_municipality: IbgeCode,
}

/// A requirement a file asks for but that needs an official's review instead of a refusal
/// (AMB-25's prosecution under way).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ReviewReason {
    pub rule: String,
    pub citation: String,
    pub reason: String,
}

impl Requirement {
    /// Checks a driver requirement: the documents in force on `today`, the history judged on
    /// `history_on` (the protocol or the grant, AMB-63). Not a driver requirement: nothing.
    #[expect(
        clippy::too_many_lines,
        reason = "one arm per kind of driver requirement, each read top to bottom"
    )]
    pub fn check_driver(
        &self,
        d: &DriverInput<'_>,
        today: NaiveDate,
        history_on: NaiveDate,
        overflow: MonthOverflow,
        out: &mut Failures,
        review: &mut Vec<ReviewReason>,
    ) {
        match &self.kind {
            RequirementKind::License { min_years, ear } => {
                if !d.cnh_category.is_b_or_higher() {
                    let msg = format!(
                        "A CNH deve ser da categoria B ou superior; a categoria informada é {}.",
                        d.cnh_category
                    );
                    fail(out, self, "cnh.category", msg);
                }
                if *ear && !d.ear {
                    let msg =
                        "A CNH deve conter a observação EAR (exerce atividade remunerada).".into();
                    fail(out, self, "cnh.ear", msg);
                }
                let seniority = add_months(d.first_license_date, min_years * 12, overflow);
                if history_on < seniority {
                    let msg = format!(
                        "A CNH deve ter sido expedida há pelo menos {min_years} anos (primeira habilitação); o requisito só é cumprido em {}.",
                        day(seniority)
                    );
                    fail(out, self, "cnh.first_license_date", msg);
                }
            }
            RequirementKind::CriminalCertificates {
                default_validity_days,
            } => {
                for (field, msg) in super::ride_hailing::driver_record::certificates_missing(
                    d.record,
                    today,
                    *default_validity_days,
                ) {
                    fail(out, self, field, msg);
                }
            }
            RequirementKind::NoInfractions { class, months } => {
                let blocking = d.record.traffic_infractions.iter().filter(|i| {
                    !i.cancelled
                        && i.class == *class
                        && within_lookback(i.committed_on, history_on, *months, overflow)
                });
                if let Some(latest) = blocking.map(|i| i.committed_on).max() {
                    let msg = format!(
                        "Infração de trânsito {} em {}, nos {months} meses anteriores ao pedido; pedido possível a partir de {}.",
                        class_pt(class),
                        day(latest),
                        day(add_months(latest, *months, overflow) + Duration::days(1))
                    );
                    fail(out, self, "traffic_infractions", msg);
                }
            }
            RequirementKind::Ctb306 {
                bar_years,
                counted_from,
                pending_prosecution,
            } => {
                let Some(rec) = &d.record.ctb306 else { return };
                let message = match (rec.final_conviction_on, counted_from) {
                    (None, _) => match pending_prosecution {
                        PendingProsecution::Ignore => return,
                        PendingProsecution::Bar => "Registro do crime do art. 306 do CTB com processo em curso: a base legal em vigor impede a autorização até a decisão.".to_owned(),
                        PendingProsecution::Review => {
                            review.push(ReviewReason {
                                rule: self.rule.clone(),
                                citation: self.citation.clone(),
                                reason: "Processo em curso pelo crime do art. 306 do CTB, sem condenação definitiva: o pedido vai à análise de um servidor.".into(),
                            });
                            return;
                        }
                    },
                    (Some(_), Ctb306BarStart::SentenceExtinguished)
                        if rec.sentence_extinguished_on.is_none() =>
                    {
                        "Condenação definitiva pelo crime do art. 306 do CTB com pena ainda não cumprida ou extinta.".to_owned()
                    }
                    (Some(conviction), start) => {
                        let (from, what) = match (start, rec.sentence_extinguished_on) {
                            (Ctb306BarStart::SentenceExtinguished, Some(ext)) => {
                                (ext, "da extinção da pena")
                            }
                            _ => (conviction, "do trânsito em julgado"),
                        };
                        let eligible_from =
                            add_months(from, bar_years * 12, overflow) + Duration::days(1);
                        if history_on >= eligible_from {
                            return;
                        }
                        format!(
                            "Condenação pelo crime do art. 306 do CTB: impedimento por {bar_years} anos a contar {what} ({}); pedido possível a partir de {}.",
                            day(from),
                            day(eligible_from)
                        )
                    }
                };
                fail(out, self, "ctb306", message);
            }
            RequirementKind::Document {
                document,
                label,
                max_age_days,
            } => {
                let filed = d
                    .record
                    .documents
                    .iter()
                    .filter(|f| f.document == *document);
                let until = |f: &super::ride_hailing::driver_record::FiledDocument| {
                    f.valid_until
                        .unwrap_or(f.issued_on + Duration::days(i64::from(*max_age_days)))
                };
                if filed
                    .clone()
                    .any(|f| f.issued_on <= today && today <= until(f))
                {
                    return;
                }
                let msg = match filed.max_by_key(|f| f.issued_on) {
                    None => format!("Falta o documento: {label}."),
                    Some(f) if f.issued_on > today => format!(
                        "{label}: a data de emissão ({}) é futura.",
                        day(f.issued_on)
                    ),
                    Some(f) => format!(
                        "{label}: o documento emitido em {} valia até {}; junte um em vigor.",
                        day(f.issued_on),
                        day(until(f))
                    ),
                };
                fail(out, self, "documents", msg);
            }
            _ => {}
        }
    }

    /// Checks a vehicle requirement on `today`; `grandfathered` says whether the transition
    /// of the law protects the car from the age limit. Not a vehicle requirement: nothing.
    pub fn check_vehicle(
        &self,
        v: &VehicleInput,
        today: NaiveDate,
        grandfathered: bool,
        out: &mut Failures,
    ) {
        match &self.kind {
            RequirementKind::VehicleAge {
                counted_from,
                max_years,
            } => {
                let (year, what, field) = match counted_from {
                    AgeCountedFrom::ModelYear => {
                        (Some(v.model_year), "do ano-modelo", "vehicle.model_year")
                    }
                    AgeCountedFrom::ManufactureYear => (
                        v.manufacture_year,
                        "do ano de fabricação",
                        "vehicle.manufacture_year",
                    ),
                };
                let Some(year) = year else {
                    let msg = "Informe o ano de fabricação do veículo (CRLV): a idade é contada a partir dele.".to_owned();
                    fail(out, self, field, msg);
                    return;
                };
                let age = today.year() - year;
                if age > *max_years && !grandfathered {
                    let msg = format!(
                        "O veículo tem {age} anos contados {what} {year}; o máximo é {max_years} anos (apto até 31/12/{}).",
                        year + max_years
                    );
                    fail(out, self, field, msg);
                }
            }
            RequirementKind::VehicleDoors { doors } if v.doors != *doors => {
                let msg = format!("O veículo deve ter {doors} portas; tem {}.", v.doors);
                fail(out, self, "vehicle.doors", msg);
            }
            RequirementKind::VehicleAirConditioning {} if !v.air_conditioning => {
                let msg = "O veículo deve ter ar-condicionado.".to_owned();
                fail(out, self, "vehicle.air_conditioning", msg);
            }
            RequirementKind::VehicleCapacity {
                max_including_driver,
            } if v.capacity_including_driver > *max_including_driver => {
                let msg = format!(
                    "A capacidade do veículo deve ser de até {max_including_driver} pessoas, incluído o motorista; é de {}.",
                    v.capacity_including_driver
                );
                fail(out, self, "vehicle.capacity_including_driver", msg);
            }
            RequirementKind::VehicleRegistration { municipalities }
                if !municipalities
                    .iter()
                    .any(|m| m.ibge == v.registration_municipality.code()) =>
            {
                let names: Vec<String> = municipalities
                    .iter()
                    .map(|m| format!("{}-{}", m.name, m.uf))
                    .collect();
                let msg = format!(
                    "O veículo deve estar registrado em {}; o município informado (IBGE {}) não é um deles.",
                    names.join(", "),
                    v.registration_municipality.code()
                );
                fail(out, self, "vehicle.registration_municipality_ibge", msg);
            }
            _ => {}
        }
    }

    /// Checks the platforms cap against the platforms in force besides the new one.
    pub fn check_platforms(&self, in_force: u32, out: &mut Failures) {
        if let RequirementKind::PlatformsCap { max } = &self.kind
            && in_force >= *max
        {
            let msg = format!(
                "O número de plataformas autorizadas está limitado a {max}; já há {in_force} em vigor."
            );
            fail(out, self, "platform", msg);
        }
    }

    /// The cap on one platform's drivers, if this requirement is one.
    pub fn platform_drivers_cap(&self) -> Option<u32> {
        match self.kind {
            RequirementKind::PlatformDriversCap { max } => Some(max),
            _ => None,
        }
    }

    /// Checks the cap on one platform's drivers against the `registered` it has now.
    pub fn check_platform_drivers(&self, registered: u32, out: &mut Failures) {
        if let Some(max) = self.platform_drivers_cap()
            && registered >= max
        {
            let msg = format!(
                "Cada plataforma pode ter até {max} motoristas cadastrados; esta já tem {registered}."
            );
            fail(out, self, "authorization_number", msg);
        }
    }
}

pub fn class_pt(class: &str) -> &'static str {
    match class {
        "leve" => "leve",
        "media" => "média",
        "grave" => "grave",
        _ => "gravíssima",
    }
}

/// The documents a driver must file under `requirements` (for the forms that ask for them).
pub fn driver_documents(requirements: &[Requirement]) -> Vec<(&str, &str)> {
    requirements
        .iter()
        .filter_map(|r| match &r.kind {
            RequirementKind::Document {
                document, label, ..
            } => Some((document.as_str(), label.as_str())),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests;
