//! Filings (requerimentos) an applicant makes online: their kinds, the documents each asks
//! for under the legal basis in force, how an uploaded file is recognised by its content, and
//! what a filing still lacks. Pure: the basis and the files come in.

pub mod stated;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::domain::requirements::{Requirement, RequirementKind};
use stated::StatedField;

/// What a filing asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilingKind {
    /// The yearly renewal of a ride-hailing authorization (APP-ART3-PU).
    AppRenewal,
    /// The certidão de situação cadastral of the authorization's driver.
    AppCertidaoDriver,
    /// The certidão de situação cadastral of the authorization's car.
    AppCertidaoVehicle,
    /// A driver's report of a change of registration data (APP-ART13-XIX: within the days the
    /// basis sets, 7 in the draft).
    AppDataChange,
    /// A driver's defence against a ride-hailing auto (APP-ART22, §2º).
    AppDefence,
    /// A driver's request for reconsideration of the decision on an auto, to the Mayor.
    AppReconsideration,
    /// A new ride-hailing authorization (APP-ART3, APP-ART12): the driver and the car stated,
    /// their documents attached.
    AppNewAuthorization,
    /// The substitution of the authorized car (APP-ART8-P2): the new car stated, its CRLV
    /// attached; the new car's vistoria is done in person.
    AppSubstitution,
    /// A charter company's registration with the documents of art. 7 (Lei 4.937/2025).
    CharterRegistration,
    /// The Termo de Autorização of a registered company, first or renewed (Lei 4.937/2025,
    /// art. 8º): the certidões that lapsed brought again.
    CharterTermo,
    /// The enrolment of a bus or minibus in a registered company (Lei 4.937/2025, arts. 10–12).
    CharterBusEnrolment,
}

/// What a filing is opened on, and so what the applicant names to open it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opening {
    /// An authorization's number and its driver's CPF.
    Authorization,
    /// An auto's number and its driver's CPF.
    Auto,
    /// The CPF of the driver asking for a first authorization.
    Driver,
    /// The CNPJ of a company asking to be registered.
    NewCompany,
    /// The CNPJ of a registered company the applicant follows (or a Termo's number with it).
    Company,
}

impl FilingKind {
    /// Every kind, in the order the applicant is offered them.
    pub const ALL: [Self; 11] = [
        Self::AppNewAuthorization,
        Self::AppRenewal,
        Self::AppSubstitution,
        Self::AppCertidaoDriver,
        Self::AppCertidaoVehicle,
        Self::AppDataChange,
        Self::AppDefence,
        Self::AppReconsideration,
        Self::CharterRegistration,
        Self::CharterTermo,
        Self::CharterBusEnrolment,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::AppRenewal => "app_renewal",
            Self::AppCertidaoDriver => "app_certidao_driver",
            Self::AppCertidaoVehicle => "app_certidao_vehicle",
            Self::AppDataChange => "app_data_change",
            Self::AppDefence => "app_defence",
            Self::AppReconsideration => "app_reconsideration",
            Self::AppNewAuthorization => "app_new_authorization",
            Self::AppSubstitution => "app_vehicle_substitution",
            Self::CharterRegistration => "charter_registration",
            Self::CharterTermo => "charter_termo",
            Self::CharterBusEnrolment => "charter_bus_enrolment",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// As the applicant and the official read it.
    pub fn label(self) -> &'static str {
        match self {
            Self::AppRenewal => "Renovação anual da autorização",
            Self::AppCertidaoDriver => "Certidão de situação cadastral do(a) condutor(a)",
            Self::AppCertidaoVehicle => "Certidão de situação cadastral do veículo",
            Self::AppDataChange => "Comunicação de alteração de dados cadastrais",
            Self::AppDefence => "Defesa contra auto de infração",
            Self::AppReconsideration => {
                "Pedido de reconsideração de decisão sobre auto de infração"
            }
            Self::AppNewAuthorization => "Nova autorização de motorista de aplicativo",
            Self::AppSubstitution => "Substituição do carro autorizado",
            Self::CharterRegistration => "Cadastro de empresa de fretamento",
            Self::CharterTermo => "Termo de Autorização de fretamento (emissão ou renovação)",
            Self::CharterBusEnrolment => "Cadastro de ônibus ou micro-ônibus de fretamento",
        }
    }

    /// What the applicant names to open it.
    pub fn opening(self) -> Opening {
        match self {
            Self::AppRenewal
            | Self::AppSubstitution
            | Self::AppCertidaoDriver
            | Self::AppCertidaoVehicle
            | Self::AppDataChange => Opening::Authorization,
            Self::AppDefence | Self::AppReconsideration => Opening::Auto,
            Self::AppNewAuthorization => Opening::Driver,
            Self::CharterRegistration => Opening::NewCompany,
            Self::CharterTermo | Self::CharterBusEnrolment => Opening::Company,
        }
    }

    /// Whether the charter law (Lei 4.937/2025) governs it, and so the charter desk decides it.
    pub fn is_charter(self) -> bool {
        matches!(
            self,
            Self::CharterRegistration | Self::CharterTermo | Self::CharterBusEnrolment
        )
    }

    /// What the applicant states besides the files, each field named as the desk's task names
    /// it; `municipalities` are the car registrations the ride-hailing basis accepts.
    pub fn stated_fields(self, municipalities: &[(String, String)]) -> Vec<StatedField> {
        match self {
            Self::AppNewAuthorization => {
                let mut fields = stated::driver_fields();
                fields.extend(stated::car_fields(municipalities));
                fields
            }
            Self::AppSubstitution => {
                let mut fields = vec![stated::cause_field()];
                fields.extend(stated::car_fields(municipalities));
                fields
            }
            Self::CharterRegistration => stated::company_fields(),
            Self::CharterBusEnrolment => stated::bus_fields(),
            Self::AppRenewal
            | Self::AppCertidaoDriver
            | Self::AppCertidaoVehicle
            | Self::AppDataChange
            | Self::AppDefence
            | Self::AppReconsideration
            | Self::CharterTermo => Vec::new(),
        }
    }

    /// The certidão's subject as the certidão use case names it, for a certidão filing.
    pub fn certidao_subject(self) -> Option<&'static str> {
        match self {
            Self::AppCertidaoDriver => Some("app_driver"),
            Self::AppCertidaoVehicle => Some("app_vehicle"),
            _ => None,
        }
    }

    /// The documents the filing asks for under the bases in force (`ctx`): a renewal's and a
    /// new authorization's (see [`renewal_slots`]); a certidão asks for none, the register's
    /// data is what it certifies; a report of changed data takes, if the driver has one, the
    /// document that shows it; a company's registration, each document of art. 7 the charter
    /// basis lists; a Termo, the certidões that lapse, brought again where they did.
    #[expect(
        clippy::too_many_lines,
        reason = "one table: each kind's documents, in the order the applicant gathers them"
    )]
    pub fn slots(self, ctx: &SlotContext<'_>) -> Vec<Slot> {
        let slot = |key: &str, label: &str, citation: &str, max_files, required| Slot {
            key: key.to_owned(),
            label: label.to_owned(),
            citation: citation.to_owned(),
            max_files,
            rules: Vec::new(),
            required,
        };
        match self {
            Self::AppRenewal => renewal_slots(ctx.requirements),
            Self::AppNewAuthorization => authorization_slots(
                ctx.requirements,
                "Comprovante de pagamento das taxas da autorização",
            ),
            Self::AppCertidaoDriver | Self::AppCertidaoVehicle => Vec::new(),
            Self::AppSubstitution => {
                let mut crlv = slot(
                    "crlv",
                    "CRLV do carro novo",
                    ctx.substitution_citation,
                    1,
                    true,
                );
                crlv.rules = car_rules(ctx.requirements);
                vec![
                    crlv,
                    slot(
                        "motivo",
                        "Comprovante do motivo (boletim de ocorrência, recibo de venda, fim do contrato de locação)",
                        ctx.substitution_citation,
                        2,
                        false,
                    ),
                ]
            }
            Self::AppDataChange => vec![slot(
                "comprovante",
                "Documento que mostra a alteração (CNH nova, CRLV, comprovante de endereço…)",
                ctx.data_change_citation,
                2,
                false,
            )],
            Self::AppDefence | Self::AppReconsideration => {
                let petition = if self == Self::AppDefence {
                    "Defesa escrita e assinada (os fatos e as razões)"
                } else {
                    "Pedido de reconsideração escrito e assinado (as razões)"
                };
                vec![
                    slot("peticao", petition, "", 1, true),
                    slot(
                        "provas",
                        "Provas (fotos, documentos, declarações)",
                        "",
                        4,
                        false,
                    ),
                ]
            }
            Self::CharterRegistration => {
                let mut slots = vec![slot(
                    "requerimento",
                    "Requerimento assinado pelo representante legal",
                    "",
                    1,
                    true,
                )];
                slots.extend(
                    ctx.company_documents
                        .iter()
                        .map(|d| slot(&d.key, &d.label, &d.citation, 1, true)),
                );
                slots
            }
            Self::CharterTermo => ctx
                .company_documents
                .iter()
                .filter(|d| d.lapses)
                .map(|d| {
                    slot(
                        &d.key,
                        &format!("{} (se a que está no cadastro venceu)", d.label),
                        &d.citation,
                        1,
                        false,
                    )
                })
                .collect(),
            Self::CharterBusEnrolment => vec![
                slot("crlv", "CRLV do veículo", "", 1, true),
                slot("propriedade", "Comprovante de propriedade", "", 1, true),
                slot(
                    "itv",
                    "Laudo de inspeção técnica veicular (ITV)",
                    "",
                    1,
                    true,
                ),
                slot(
                    "seguro",
                    "Apólice do seguro de responsabilidade civil",
                    "",
                    1,
                    true,
                ),
            ],
        }
    }

    /// Whether the filing is about an auto de infração (its number opens it), not an
    /// authorization.
    pub fn on_auto(self) -> bool {
        matches!(self, Self::AppDefence | Self::AppReconsideration)
    }

    /// What a granted filing of this kind did, as its page tells the applicant.
    pub fn granted_line(self) -> &'static str {
        match self {
            Self::AppRenewal => "a autorização foi renovada.",
            Self::AppCertidaoDriver | Self::AppCertidaoVehicle => "a certidão foi emitida.",
            Self::AppDataChange => "a alteração foi registrada no cadastro.",
            Self::AppDefence | Self::AppReconsideration => {
                "foi juntado ao processo do auto, com a data do protocolo. A decisão será comunicada a você."
            }
            Self::AppNewAuthorization => "a autorização foi concedida.",
            Self::AppSubstitution => {
                "o carro novo passou a ser o da autorização, com o mesmo número e a mesma validade."
            }
            Self::CharterRegistration => {
                "a empresa foi cadastrada. O Termo de Autorização é pedido em seguida, na opção “Termo de Autorização”."
            }
            Self::CharterTermo => "o Termo de Autorização foi emitido.",
            Self::CharterBusEnrolment => {
                "o veículo foi cadastrado na empresa. O selo de vistoria é emitido depois da vistoria, feita pessoalmente."
            }
        }
    }

    /// Whether the decision issues documents the applicant downloads from the filing.
    pub fn issues_documents(self) -> bool {
        matches!(
            self,
            Self::AppRenewal
                | Self::AppNewAuthorization
                | Self::AppSubstitution
                | Self::AppCertidaoDriver
                | Self::AppCertidaoVehicle
                | Self::CharterTermo
        )
    }

    /// Whether the applicant states what changed and when (a report of changed data).
    pub fn states_a_change(self) -> bool {
        self == Self::AppDataChange
    }
}

/// What a driver reports changed (APP-ART13-XIX), as the filing states it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangeStated {
    /// What changed, in the driver's words.
    pub what: String,
    /// The day it changed: the period to report it counts from it.
    pub changed_on: NaiveDate,
}

impl ChangeStated {
    /// Reads what the driver typed: the change (1 to 500 characters) and its day, `dd/mm/aaaa`
    /// or `aaaa-mm-dd`, neither after `today` nor more than 5 years back.
    pub fn parse(what: &str, changed_on: &str, today: NaiveDate) -> Result<Self, &'static str> {
        let what = what.trim();
        if what.is_empty() || what.chars().count() > 500 {
            return Err("Diga, em até 500 caracteres, o que mudou.");
        }
        let text = changed_on.trim();
        let day = NaiveDate::parse_from_str(text, "%d/%m/%Y")
            .or_else(|_| NaiveDate::parse_from_str(text, "%Y-%m-%d"))
            .map_err(|_| "Informe a data da alteração (dd/mm/aaaa).")?;
        if day > today {
            return Err("A data da alteração não pode ser futura.");
        }
        if (today - day).num_days() > 5 * 366 {
            return Err("A data da alteração está longe demais no passado; confira o ano.");
        }
        Ok(Self {
            what: what.to_owned(),
            changed_on: day,
        })
    }
}

/// Where a filing stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilingStatus {
    /// Being put together by the applicant; nothing protocolled yet.
    Draft,
    /// Protocolled, waiting for the officials.
    Filed,
    /// The officials asked for something; waiting for the applicant until the deadline.
    Waiting,
    /// Decided (granted, refused, or sent to an official's review).
    Decided,
}

impl FilingStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Draft => "rascunho",
            Self::Filed => "protocolado",
            Self::Waiting => "exigencia",
            Self::Decided => "decidido",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "rascunho" => Self::Draft,
            "protocolado" => Self::Filed,
            "exigencia" => Self::Waiting,
            "decidido" => Self::Decided,
            _ => return None,
        })
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::Draft => "Em preparo (ainda não enviado)",
            Self::Filed => "Protocolado, em análise",
            Self::Waiting => "Aguardando você: há uma exigência",
            Self::Decided => "Decidido",
        }
    }
}

/// One document a filing asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    /// Its key in the filing (`cnh`, `certidoes`, or a basis's document name).
    pub key: String,
    /// As the applicant reads it.
    pub label: String,
    /// The provision that asks for it, as the basis cites it; empty when none does.
    pub citation: String,
    /// How many files it takes (the certificates come one per court).
    pub max_files: usize,
    /// The rules of the basis whose data the document carries.
    pub rules: Vec<String>,
    /// Whether the filing cannot be sent without it.
    pub required: bool,
}

/// What a kind's documents depend on: the bases in force.
pub struct SlotContext<'a> {
    /// The ride-hailing basis's requirements.
    pub requirements: &'a [Requirement],
    /// The provision on reporting changed data, as the basis cites it.
    pub data_change_citation: &'a str,
    /// The provision on the car's substitution, as the basis cites it.
    pub substitution_citation: &'a str,
    /// The company documents the charter basis lists (Lei 4.937/2025, art. 7º).
    pub company_documents: &'a [CompanyDocument],
}

/// One company document of the charter basis, as a filing asks for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompanyDocument {
    /// Its checklist item (`cnd_federal`).
    pub key: String,
    pub label: String,
    pub citation: String,
    /// Whether it prints a validity and lapses (art. 7º, II).
    pub lapses: bool,
}

/// The company documents the charter basis lists (Lei 4.937/2025, art. 7º), in its order.
pub fn company_documents(
    basis: &crate::domain::legal_basis::CharterLegalBasis,
) -> Vec<CompanyDocument> {
    use crate::domain::charter::CompanyChecklist;
    use crate::domain::charter::requirement_kinds::CharterRequirementKind;
    let checklist = CompanyChecklist::default();
    basis
        .requirements
        .iter()
        .filter_map(|r| match &r.kind {
            CharterRequirementKind::CompanyDocument {
                item,
                needs_validity,
            } => checklist.item(item).map(|i| {
                let mut label = i.label.to_owned();
                if let Some(first) = label.get(0..1) {
                    label.replace_range(0..1, &first.to_uppercase());
                }
                CompanyDocument {
                    key: i.key().to_owned(),
                    label,
                    citation: r.citation.clone(),
                    lapses: *needs_validity,
                }
            }),
            _ => None,
        })
        .collect()
}

/// The municipalities whose car registrations the basis accepts, as (IBGE code, "Name (UF)").
pub fn car_municipalities(requirements: &[Requirement]) -> Vec<(String, String)> {
    requirements
        .iter()
        .filter_map(|r| match &r.kind {
            RequirementKind::VehicleRegistration { municipalities } => Some(municipalities),
            _ => None,
        })
        .flatten()
        .map(|m| (m.ibge.to_string(), format!("{} ({})", m.name, m.uf)))
        .collect()
}

/// The rules of the basis about the car (age, doors, air conditioning, seats, registration).
fn car_rules(requirements: &[Requirement]) -> Vec<String> {
    requirements
        .iter()
        .filter(|r| {
            matches!(
                r.kind,
                RequirementKind::VehicleAge { .. }
                    | RequirementKind::VehicleDoors { .. }
                    | RequirementKind::VehicleAirConditioning {}
                    | RequirementKind::VehicleCapacity { .. }
                    | RequirementKind::VehicleRegistration { .. }
            )
        })
        .map(|r| r.rule.clone())
        .collect()
}

/// The documents a renewal asks for under `requirements`: the CNH when the basis asks about
/// the licence (APP-ART12-I), the criminal-record certificates (APP-ART12-III), the CRLV when
/// it asks about the car (APP-ART2, APP-ART8), every document the basis lists, and the proof
/// that the new year's fee was paid (APP-ART3-PU: the year counts from the payment).
pub fn renewal_slots(requirements: &[Requirement]) -> Vec<Slot> {
    authorization_slots(
        requirements,
        "Comprovante de pagamento das taxas do novo ano",
    )
}

/// An authorization's documents (a renewal's, a new one's), the fee's proof named `fee_label`.
fn authorization_slots(requirements: &[Requirement], fee_label: &str) -> Vec<Slot> {
    let slot = |key: &str, label: &str, citation: &str, max_files, rule: &str| Slot {
        key: key.to_owned(),
        label: label.to_owned(),
        citation: citation.to_owned(),
        max_files,
        rules: if rule.is_empty() {
            Vec::new()
        } else {
            vec![rule.to_owned()]
        },
        required: true,
    };
    let mut slots = Vec::new();
    let mut car: Vec<&str> = Vec::new();
    let mut car_rules: Vec<String> = Vec::new();
    for r in requirements {
        match &r.kind {
            RequirementKind::License { ear, .. } => slots.push(slot(
                "cnh",
                if *ear {
                    "CNH com a observação EAR (exerce atividade remunerada)"
                } else {
                    "CNH"
                },
                &r.citation,
                1,
                &r.rule,
            )),
            RequirementKind::CriminalCertificates { .. } => slots.push(slot(
                "certidoes",
                "Certidões de antecedentes criminais (Justiça Estadual e Federal, 1º e 2º graus)",
                &r.citation,
                4,
                &r.rule,
            )),
            RequirementKind::Document {
                document, label, ..
            } => slots.push(slot(document, label, &r.citation, 1, &r.rule)),
            RequirementKind::VehicleAge { .. }
            | RequirementKind::VehicleDoors { .. }
            | RequirementKind::VehicleAirConditioning {}
            | RequirementKind::VehicleCapacity { .. }
            | RequirementKind::VehicleRegistration { .. } => {
                if !car.contains(&r.citation.as_str()) {
                    car.push(&r.citation);
                }
                car_rules.push(r.rule.clone());
            }
            RequirementKind::NoInfractions { .. }
            | RequirementKind::Ctb306 { .. }
            | RequirementKind::PlatformsCap { .. }
            | RequirementKind::PlatformDriversCap { .. } => {}
        }
    }
    if !car.is_empty() {
        let mut crlv = slot(
            "crlv",
            "CRLV do veículo (documento do carro)",
            &car.join("; "),
            1,
            "",
        );
        crlv.rules = car_rules;
        slots.push(crlv);
    }
    slots.push(slot("taxas", fee_label, "", 1, ""));
    slots
}

/// The kinds of file a filing takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaType {
    Pdf,
    Jpeg,
    Png,
}

impl MediaType {
    pub fn mime(self) -> &'static str {
        match self {
            Self::Pdf => "application/pdf",
            Self::Jpeg => "image/jpeg",
            Self::Png => "image/png",
        }
    }

    pub fn parse(mime: &str) -> Option<Self> {
        [Self::Pdf, Self::Jpeg, Self::Png]
            .into_iter()
            .find(|m| m.mime() == mime)
    }

    fn extensions(self) -> &'static [&'static str] {
        match self {
            Self::Pdf => &["pdf"],
            Self::Jpeg => &["jpg", "jpeg"],
            Self::Png => &["png"],
        }
    }

    /// As the refusal names it.
    fn name(self) -> &'static str {
        match self {
            Self::Pdf => "PDF",
            Self::Jpeg => "JPEG",
            Self::Png => "PNG",
        }
    }
}

/// What a file is, by its first bytes (never by its name): PDF, JPEG or PNG.
pub fn sniff(bytes: &[u8]) -> Option<MediaType> {
    if bytes.starts_with(b"%PDF-") {
        Some(MediaType::Pdf)
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some(MediaType::Jpeg)
    } else if bytes.starts_with(&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A]) {
        Some(MediaType::Png)
    } else {
        None
    }
}

/// Why a file is refused, in Brazilian Portuguese.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileRefusal {
    Empty,
    TooLarge { max_bytes: usize },
    NotAccepted,
    NameDisagrees { is: MediaType },
}

impl std::fmt::Display for FileRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Empty => f.write_str("O arquivo está vazio."),
            Self::TooLarge { max_bytes } => write!(
                f,
                "O arquivo tem mais de {} MB: envie um arquivo menor (uma foto com menos resolução, ou o PDF comprimido).",
                max_bytes / (1024 * 1024)
            ),
            Self::NotAccepted => f.write_str(
                "O arquivo não é PDF, JPEG nem PNG (pelo seu conteúdo): envie o documento em um desses formatos.",
            ),
            Self::NameDisagrees { is } => write!(
                f,
                "O nome do arquivo não corresponde ao conteúdo: o conteúdo é {}; renomeie o arquivo com a extensão .{} ou envie o arquivo certo.",
                is.name(),
                is.extensions()[0]
            ),
        }
    }
}

/// Checks a file by its content and its name: it must be PDF, JPEG or PNG by its first bytes,
/// at most `max_bytes`, and its name's extension must say the same.
pub fn check_file(name: &str, bytes: &[u8], max_bytes: usize) -> Result<MediaType, FileRefusal> {
    if bytes.is_empty() {
        return Err(FileRefusal::Empty);
    }
    if bytes.len() > max_bytes {
        return Err(FileRefusal::TooLarge { max_bytes });
    }
    let is = sniff(bytes).ok_or(FileRefusal::NotAccepted)?;
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    if !is.extensions().contains(&ext.as_str()) {
        return Err(FileRefusal::NameDisagrees { is });
    }
    Ok(is)
}

/// A file name safe to keep and to show: its last path part, without control characters,
/// at most 120 characters.
pub fn clean_name(name: &str) -> String {
    let last = name.rsplit(['/', '\\']).next().unwrap_or_default();
    let cleaned: String = last
        .chars()
        .filter(|c| !c.is_control() && *c != '"')
        .take(120)
        .collect();
    if cleaned.trim().is_empty() {
        "arquivo".to_owned()
    } else {
        cleaned
    }
}

/// The slots with no file standing (none sent, or every one sent refused or replaced).
pub fn missing<'a>(slots: &'a [Slot], standing: &[&str]) -> Vec<&'a Slot> {
    slots
        .iter()
        .filter(|s| s.required && !standing.contains(&s.key.as_str()))
        .collect()
}

/// Whether a slot takes one more file, given the statuses of its files (replaced ones aside):
/// a one-file slot until its file is accepted (a pending or refused one is replaced by the
/// next), a larger one while its files not refused leave room.
pub fn has_room(slot: &Slot, statuses: &[&str]) -> bool {
    if slot.max_files == 1 {
        !statuses.contains(&"aceito")
    } else {
        statuses.iter().filter(|s| **s != "recusado").count() < slot.max_files
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::legal_basis::RideHailingLegalBasis;

    fn ctx<'a>(
        requirements: &'a [Requirement],
        company_documents: &'a [CompanyDocument],
    ) -> SlotContext<'a> {
        SlotContext {
            requirements,
            data_change_citation: "art. 13, XIX",
            substitution_citation: "art. 8º, §2º",
            company_documents,
        }
    }

    #[test]
    fn every_kind_reads_back_and_a_certidao_asks_for_no_document() {
        let basis = RideHailingLegalBasis::draft_2023();
        let ctx = ctx(&basis.requirements, &[]);
        for kind in FilingKind::ALL {
            assert_eq!(FilingKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(FilingKind::parse("app_certidao"), None);
        assert!(FilingKind::AppCertidaoVehicle.slots(&ctx).is_empty());
        assert_eq!(
            FilingKind::AppRenewal.slots(&ctx),
            renewal_slots(&basis.requirements)
        );
        // The report of a change takes its proof if there is one; it can be sent without.
        let change = FilingKind::AppDataChange.slots(&ctx);
        assert_eq!(change.len(), 1);
        assert!(!change[0].required);
        assert!(missing(&change, &[]).is_empty());
        assert!(FilingKind::AppDataChange.states_a_change());
        // A defence asks for its petition and takes evidence if there is some.
        let defence = FilingKind::AppDefence.slots(&ctx);
        assert_eq!(
            defence
                .iter()
                .map(|s| (s.key.as_str(), s.required))
                .collect::<Vec<_>>(),
            [("peticao", true), ("provas", false)]
        );
        assert_eq!(missing(&defence, &["provas"]).len(), 1);
        assert!(missing(&defence, &["peticao"]).is_empty());
        assert!(FilingKind::AppReconsideration.on_auto() && !FilingKind::AppRenewal.on_auto());
        assert_eq!(
            FilingKind::AppCertidaoDriver.certidao_subject(),
            Some("app_driver")
        );
        assert_eq!(FilingKind::AppRenewal.certidao_subject(), None);
    }

    #[test]
    fn new_filings_state_their_data_and_ask_for_their_documents() {
        let basis = RideHailingLegalBasis::draft_2023();
        let documents = [
            CompanyDocument {
                key: "cartao_cnpj".into(),
                label: "cartão do CNPJ".into(),
                citation: "art. 7º, I, d".into(),
                lapses: false,
            },
            CompanyDocument {
                key: "cnd_federal".into(),
                label: "CND federal".into(),
                citation: "art. 7º, II, a".into(),
                lapses: true,
            },
        ];
        let ctx = ctx(&basis.requirements, &documents);
        // A first authorization asks for what a renewal does; its fee is the first one.
        let new = FilingKind::AppNewAuthorization.slots(&ctx);
        let keys: Vec<&str> = new.iter().map(|s| s.key.as_str()).collect();
        assert_eq!(keys, ["cnh", "certidoes", "crlv", "taxas"]);
        assert!(!new[3].label.contains("novo ano"));
        let fields = FilingKind::AppNewAuthorization.stated_fields(&[]);
        assert!(fields.iter().any(|f| f.name == "cnh.number"));
        assert!(fields.iter().any(|f| f.name == "vehicle.plate"));
        assert_eq!(FilingKind::AppNewAuthorization.opening(), Opening::Driver);
        // A substitution: the new car's CRLV, judged by the car's rules; the cause's proof.
        let sub = FilingKind::AppSubstitution.slots(&ctx);
        assert_eq!(sub[0].key, "crlv");
        assert!(sub[0].required && !sub[0].rules.is_empty());
        assert!(!sub[1].required);
        assert_eq!(
            FilingKind::AppSubstitution.stated_fields(&[])[0].name,
            "cause"
        );
        // A company: its petition and each document of art. 7º, all required.
        let reg = FilingKind::CharterRegistration.slots(&ctx);
        let keys: Vec<&str> = reg.iter().map(|s| s.key.as_str()).collect();
        assert_eq!(keys, ["requerimento", "cartao_cnpj", "cnd_federal"]);
        assert!(reg.iter().all(|s| s.required));
        // A Termo: the certidões that lapse, optional (those on file may still be in force).
        let termo = FilingKind::CharterTermo.slots(&ctx);
        assert_eq!(termo.len(), 1);
        assert_eq!(termo[0].key, "cnd_federal");
        assert!(!termo[0].required);
        assert!(FilingKind::CharterTermo.is_charter() && !FilingKind::AppSubstitution.is_charter());
        assert_eq!(FilingKind::CharterBusEnrolment.slots(&ctx).len(), 4);
        assert_eq!(FilingKind::CharterBusEnrolment.opening(), Opening::Company);
    }

    #[test]
    fn a_change_is_stated_with_its_day_never_future() {
        let today = NaiveDate::from_ymd_opt(2026, 12, 5).unwrap();
        let c = ChangeStated::parse(" Novo endereço ", "01/12/2026", today).unwrap();
        assert_eq!(c.what, "Novo endereço");
        assert_eq!(c.changed_on, NaiveDate::from_ymd_opt(2026, 12, 1).unwrap());
        assert!(ChangeStated::parse("x", "2026-12-05", today).is_ok());
        assert!(ChangeStated::parse("x", "06/12/2026", today).is_err());
        assert!(ChangeStated::parse(" ", "01/12/2026", today).is_err());
        assert!(ChangeStated::parse("x", "31/02/2026", today).is_err());
        assert!(ChangeStated::parse("x", "01/12/2016", today).is_err());
        assert!(ChangeStated::parse(&"a".repeat(501), "01/12/2026", today).is_err());
    }

    #[test]
    fn a_renewal_asks_for_the_licence_certificates_car_papers_and_fee_the_basis_asks_about() {
        let basis = RideHailingLegalBasis::draft_2023();
        let slots = renewal_slots(&basis.requirements);
        let keys: Vec<&str> = slots.iter().map(|s| s.key.as_str()).collect();
        assert_eq!(keys, ["cnh", "certidoes", "crlv", "taxas"]);
        assert_eq!(slots[0].citation, "art. 12, I");
        assert!(slots[0].label.contains("EAR"));
        assert_eq!(slots[1].max_files, 4);
        assert!(
            slots[2].citation.contains("art. 2º"),
            "{}",
            slots[2].citation
        );
    }

    #[test]
    fn a_document_the_basis_lists_becomes_a_slot_of_its_own() {
        let mut basis = RideHailingLegalBasis::draft_2023();
        basis.requirements.push(Requirement {
            rule: "L-INSS".into(),
            citation: "art. [a definir]".into(),
            kind: RequirementKind::Document {
                document: "inss".into(),
                label: "Comprovante de inscrição no INSS".into(),
                max_age_days: 90,
            },
        });
        let slots = renewal_slots(&basis.requirements);
        assert!(slots.iter().any(|s| s.key == "inss"
            && s.label == "Comprovante de inscrição no INSS"
            && s.citation == "art. [a definir]"));
    }

    #[test]
    fn files_are_known_by_their_content_and_their_name_must_agree() {
        let pdf = b"%PDF-1.7\n...";
        let png = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0];
        let jpeg = [0xFF, 0xD8, 0xFF, 0xE0, 0];
        assert_eq!(check_file("cnh.PDF", pdf, 100), Ok(MediaType::Pdf));
        assert_eq!(check_file("foto.jpeg", &jpeg, 100), Ok(MediaType::Jpeg));
        assert_eq!(check_file("crlv.png", &png, 100), Ok(MediaType::Png));
        // A PDF renamed .jpg, an HTML page named .pdf, too large, empty.
        assert_eq!(
            check_file("cnh.jpg", pdf, 100),
            Err(FileRefusal::NameDisagrees { is: MediaType::Pdf })
        );
        assert_eq!(
            check_file("cnh.pdf", b"<!DOCTYPE html><html>", 100),
            Err(FileRefusal::NotAccepted)
        );
        assert_eq!(
            check_file("cnh.pdf", pdf, 5),
            Err(FileRefusal::TooLarge { max_bytes: 5 })
        );
        assert_eq!(check_file("cnh.pdf", b"", 5), Err(FileRefusal::Empty));
        assert!(
            check_file("cnh", pdf, 100)
                .unwrap_err()
                .to_string()
                .contains(".pdf")
        );
    }

    #[test]
    fn names_keep_only_their_last_part_without_control_characters() {
        assert_eq!(clean_name("C:\\fotos\\cnh.pdf"), "cnh.pdf");
        assert_eq!(clean_name("../../etc/passwd"), "passwd");
        assert_eq!(clean_name("a\u{0}b\"c.pdf"), "abc.pdf");
        assert_eq!(clean_name("/"), "arquivo");
    }

    #[test]
    fn a_slot_has_room_until_accepted_or_full() {
        let slots = renewal_slots(&RideHailingLegalBasis::draft_2023().requirements);
        let (cnh, certidoes) = (&slots[0], &slots[1]);
        assert!(has_room(cnh, &[]));
        assert!(has_room(cnh, &["pendente"]));
        assert!(has_room(cnh, &["recusado"]));
        assert!(!has_room(cnh, &["aceito"]));
        assert!(has_room(certidoes, &["aceito", "pendente", "recusado"]));
        assert!(!has_room(
            certidoes,
            &["aceito", "aceito", "pendente", "aceito"]
        ));
    }

    #[test]
    fn what_is_missing_is_every_slot_without_a_standing_file() {
        let slots = renewal_slots(&RideHailingLegalBasis::draft_2023().requirements);
        let missing: Vec<&str> = missing(&slots, &["cnh", "crlv", "certidoes"])
            .iter()
            .map(|s| s.key.as_str())
            .collect();
        assert_eq!(missing, ["taxas"]);
    }
}
