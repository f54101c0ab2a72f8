//! Charter transport, Lei 4.937/2025 (LEGAL_RULES §2A): companies, vehicles, drivers,
//! contracts, the Termo de Autorização and statuses on a date. Pure functions: facts and the
//! date come in (America/Cuiaba, DL-11), a decision with reasons comes out. Every number is a
//! parameter of [`CharterLegalBasis`]. Infractions and the procedure are in `sanctions`.

pub mod sanctions;

use chrono::{Datelike, NaiveDate};
use serde::{Deserialize, Serialize};

use super::calendar::{Calendar, Deadline, DeadlineRules, bar_lifts_on, deadline_in_days};
use super::dates::add_months;
use super::ids::{CnhCategory, Cnpj, Cpf, Plate};
use super::legal_basis::CharterLegalBasis;
use super::rule::{RuleFailure, fail};

type Failures = Vec<RuleFailure>;

/// A document presented to SIS, with its printed dates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Proof {
    /// Number, protocol or short description of the document.
    pub reference: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issued_on: Option<NaiveDate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid_until: Option<NaiveDate>,
}

/// FRET-ART1-PU-I / FRET-ART4: the modality a Termo authorizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Modality {
    Continuo,
    Eventual,
    /// Art. 4: own-account transport, also under municipal authorization (AMB-12).
    TransporteProprio,
}

impl Modality {
    pub fn label_pt(self) -> &'static str {
        match self {
            Self::Continuo => "Fretamento contínuo",
            Self::Eventual => "Fretamento eventual",
            Self::TransporteProprio => "Transporte próprio (art. 4º)",
        }
    }
}

// ----------------------------------------------------------------------------------------
// Companies (art. 7) and the Termo de Autorização (art. 8)
// ----------------------------------------------------------------------------------------

/// The art. 7 document checklist. `None` means not presented.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CompanyChecklist {
    /// Art. 7, I, a: articles of incorporation, business purpose matching the activity.
    pub contrato_social: Option<Proof>,
    /// Art. 7, I, b: Junta Comercial registration.
    pub registro_junta_comercial: Option<Proof>,
    /// Art. 7, I, c: bylaws and amendments.
    pub estatuto_alteracoes: Option<Proof>,
    /// Art. 7, I, d: CNPJ card.
    pub cartao_cnpj: Option<Proof>,
    /// Art. 7, I, e: proof of address, phone and e-mail.
    pub comprovante_endereco: Option<Proof>,
    /// Art. 7, I, f: Alvará de Localização e Funcionamento.
    pub alvara_funcionamento: Option<Proof>,
    /// Art. 7, I, g: garage equipped for maintenance.
    pub garagem: Option<Proof>,
    /// Art. 7, I, g: registered, qualified mechanics and cleaning staff.
    pub equipe_manutencao_limpeza: Option<Proof>,
    /// Art. 7, I, g: customer-service office.
    pub escritorio_atendimento: Option<Proof>,
    /// Art. 7, I, g: licences and permits, environmental licences included.
    pub licencas_ambientais: Option<Proof>,
    /// Art. 7, II, a: CND of the Federal treasury.
    pub cnd_federal: Option<Proof>,
    /// Art. 7, II, a: CND of the State treasury.
    pub cnd_estadual: Option<Proof>,
    /// Art. 7, II, a: CND of the Municipal treasury.
    pub cnd_municipal: Option<Proof>,
    /// Art. 7, II, b: FGTS regularity (CRF).
    pub crf_fgts: Option<Proof>,
    /// Art. 7, II, c: labour-court regularity (CNDT).
    pub cndt: Option<Proof>,
}

/// One item of the checklist: field, rule, article, pt-BR name, the proof, and whether the
/// law requires a printed validity (art. 7, II).
pub struct ChecklistItem<'a> {
    pub field: &'static str,
    pub rule: &'static str,
    pub article: &'static str,
    pub label: &'static str,
    pub proof: Option<&'a Proof>,
    pub needs_validity: bool,
}

impl CompanyChecklist {
    #[allow(clippy::too_many_lines)] // a table of the 15 items of art. 7
    pub fn items(&self) -> [ChecklistItem<'_>; 15] {
        type Make = for<'p> fn(
            &'static str,
            &'static str,
            &'static str,
            &'p Option<Proof>,
        ) -> ChecklistItem<'p>;
        let i: Make = |field, article, label, proof| ChecklistItem {
            field,
            rule: "FRET-ART7-I",
            article,
            label,
            proof: proof.as_ref(),
            needs_validity: false,
        };
        let ii: Make = |field, article, label, proof| ChecklistItem {
            field,
            rule: "FRET-ART7-II",
            article,
            label,
            proof: proof.as_ref(),
            needs_validity: true,
        };
        [
            i(
                "checklist.contrato_social",
                "art. 7º, I, a",
                "ato constitutivo com objeto social compatível",
                &self.contrato_social,
            ),
            i(
                "checklist.registro_junta_comercial",
                "art. 7º, I, b",
                "registro na Junta Comercial",
                &self.registro_junta_comercial,
            ),
            i(
                "checklist.estatuto_alteracoes",
                "art. 7º, I, c",
                "estatuto e alterações",
                &self.estatuto_alteracoes,
            ),
            i(
                "checklist.cartao_cnpj",
                "art. 7º, I, d",
                "cartão do CNPJ",
                &self.cartao_cnpj,
            ),
            i(
                "checklist.comprovante_endereco",
                "art. 7º, I, e",
                "comprovante de endereço, telefone e e-mail",
                &self.comprovante_endereco,
            ),
            i(
                "checklist.alvara_funcionamento",
                "art. 7º, I, f",
                "Alvará de Localização e Funcionamento",
                &self.alvara_funcionamento,
            ),
            i(
                "checklist.garagem",
                "art. 7º, I, g",
                "garagem equipada para manutenção",
                &self.garagem,
            ),
            i(
                "checklist.equipe_manutencao_limpeza",
                "art. 7º, I, g",
                "pessoal registrado e habilitado para mecânica e limpeza",
                &self.equipe_manutencao_limpeza,
            ),
            i(
                "checklist.escritorio_atendimento",
                "art. 7º, I, g",
                "escritório de atendimento ao usuário",
                &self.escritorio_atendimento,
            ),
            i(
                "checklist.licencas_ambientais",
                "art. 7º, I, g",
                "licenças e alvarás, inclusive ambientais",
                &self.licencas_ambientais,
            ),
            ii(
                "checklist.cnd_federal",
                "art. 7º, II, a",
                "certidão negativa de débitos federais",
                &self.cnd_federal,
            ),
            ii(
                "checklist.cnd_estadual",
                "art. 7º, II, a",
                "certidão negativa de débitos estaduais",
                &self.cnd_estadual,
            ),
            ii(
                "checklist.cnd_municipal",
                "art. 7º, II, a",
                "certidão negativa de débitos municipais",
                &self.cnd_municipal,
            ),
            ii(
                "checklist.crf_fgts",
                "art. 7º, II, b",
                "certificado de regularidade do FGTS (CRF)",
                &self.crf_fgts,
            ),
            ii(
                "checklist.cndt",
                "art. 7º, II, c",
                "certidão negativa de débitos trabalhistas (CNDT)",
                &self.cndt,
            ),
        ]
    }
}

fn br(d: NaiveDate) -> String {
    d.format("%d/%m/%Y").to_string()
}

/// FRET-ART7-I and FRET-ART7-II: every document presented, and every certificate within the
/// validity printed on it on `today` (DL-8: the last day counts).
pub fn fret_art7_checklist(c: &CompanyChecklist, today: NaiveDate, out: &mut Failures) {
    for item in c.items() {
        let Some(proof) = item.proof else {
            let msg = format!("Documento não apresentado: {}.", item.label);
            fail(out, item.rule, item.article, item.field, msg);
            continue;
        };
        match proof.valid_until {
            Some(until) if until < today => {
                let msg = format!("{} vencida em {}.", capitalise(item.label), br(until));
                fail(out, item.rule, item.article, item.field, msg);
            }
            None if item.needs_validity => {
                let msg = format!(
                    "Informe a validade impressa na {}: cada certidão deve estar dentro do prazo.",
                    item.label
                );
                fail(out, item.rule, item.article, item.field, msg);
            }
            _ => {}
        }
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// FRET-ART20-PU (DL-9): after a cassação the company may be registered again only from the
/// day after cassação + 12 months. Returns that first eligible day, if still in the future.
pub fn fret_art20_pu_bar(
    cassations: &[NaiveDate],
    today: NaiveDate,
    basis: &CharterLegalBasis,
    out: &mut Failures,
) -> Option<NaiveDate> {
    let lifts = cassations
        .iter()
        .map(|c| bar_lifts_on(*c, basis.cassacao_bar_months, basis.month_overflow))
        .max()?;
    if today < lifts {
        let msg = format!(
            "Registro cassado: novo registro somente após 12 meses da cassação, a partir de {}.",
            br(lifts)
        );
        fail(
            out,
            "FRET-ART20-PU",
            "art. 20, parágrafo único",
            "company",
            msg,
        );
        Some(lifts)
    } else {
        None
    }
}

/// The Termo a company holds, as far as a renewal needs to know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PriorTermo {
    pub number: String,
    pub valid_from: NaiveDate,
    pub valid_until: NaiveDate,
}

/// An accepted Termo de Autorização.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct TermoDecision {
    pub valid_from: NaiveDate,
    pub valid_until: NaiveDate,
    /// The Termo this one renews without a gap (AMB-55), if any.
    pub renews: Option<String>,
    pub legal_basis_version: String,
    /// The day the application was protocolled (issue 13, item 2).
    pub protocolled_on: NaiveDate,
}

/// FRET-ART8, FRET-ART8-P1, FRET-ART8-P2 with AMB-55: grant or renew the Termo on `today`,
/// on an application protocolled on `protocolled_on` (issue 13, item 2).
///
/// - The art. 7 checklist is re-run in full on every grant and renewal (art. 8 §2º), at the
///   grant: the documents must be in force when the Termo rests on them.
/// - A company within the art. 20 bar is refused. AMB-64 (our reading): the bar forbids the
///   application itself, so it is judged at the protocol date, and again at the grant (a
///   cassação between the two bars too).
/// - Validity is 2 years, date to date (DL-6), last day inclusive, never extended (DL-8).
/// - Renewed before the current Termo ends: the new term starts the day after it ends and
///   runs to its end + 2 years, so nothing is lost. After it ended: from `today`.
pub fn decide_termo(
    checklist: &CompanyChecklist,
    cassations: &[NaiveDate],
    latest: Option<&PriorTermo>,
    (protocolled_on, today): (NaiveDate, NaiveDate),
    basis: &CharterLegalBasis,
) -> Result<TermoDecision, Failures> {
    let mut out = Vec::new();
    fret_art7_checklist(checklist, today, &mut out);
    if fret_art20_pu_bar(cassations, protocolled_on, basis, &mut out).is_none() {
        fret_art20_pu_bar(cassations, today, basis, &mut out);
    }
    if let Some(p) = latest
        && p.valid_from > today
    {
        let msg = format!(
            "A empresa já tem Termo renovado ({}) com início em {}.",
            p.number,
            br(p.valid_from)
        );
        fail(&mut out, "FRET-ART8-P1", "art. 8º, §1º", "company", msg);
    }
    if !out.is_empty() {
        return Err(out);
    }
    let (valid_from, renews) = match latest {
        // A cassação ends the Termo in force on its date: nothing is carried over.
        Some(p)
            if today <= p.valid_until
                && !cassations.iter().any(|c| p.valid_from <= *c && *c <= today) =>
        {
            (
                p.valid_until.succ_opt().unwrap_or(p.valid_until),
                Some(p.number.clone()),
            )
        }
        _ => (today, None),
    };
    let base = if renews.is_some() {
        latest.map_or(today, |p| p.valid_until)
    } else {
        today
    };
    Ok(TermoDecision {
        valid_from,
        valid_until: add_months(base, basis.termo_validity_months, basis.month_overflow),
        renews,
        legal_basis_version: basis.version.clone(),
        protocolled_on,
    })
}

/// The acts of the charter law recorded in an entity's history (Lei 4.937/2025).
/// Stored as the snake-case text of `as_str` in the append-only `events` table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CharterAct {
    Registered,
    ChecklistFiled,
    SanctionApplied,
    TermoGranted,
    ItvReportFiled,
    VehicleDocumentsFiled,
    VistoriaRecorded,
    Baixa,
    SubstitutionAuthorized,
    DriverDocumentsFiled,
    ContractEnded,
    TripManifestFiled,
    ProcedureAct,
    AutoDrawnUp,
    NoticeIssued,
    CertidaoIssued,
    DriverEnrolled,
    VehicleEnrolled,
    /// FRET-ART9: a change of registration data communicated to SIS.
    DataChangeReported,
    /// Issue 13, item 1: an act of the register entered wrongly, rectified by a new one.
    ActRectified,
}

impl CharterAct {
    /// Every act, for exhaustive tests.
    pub const ALL: &[Self] = &[
        Self::Registered,
        Self::ChecklistFiled,
        Self::SanctionApplied,
        Self::TermoGranted,
        Self::ItvReportFiled,
        Self::VehicleDocumentsFiled,
        Self::VistoriaRecorded,
        Self::Baixa,
        Self::SubstitutionAuthorized,
        Self::DriverDocumentsFiled,
        Self::ContractEnded,
        Self::TripManifestFiled,
        Self::ProcedureAct,
        Self::AutoDrawnUp,
        Self::NoticeIssued,
        Self::CertidaoIssued,
        Self::DriverEnrolled,
        Self::VehicleEnrolled,
        Self::DataChangeReported,
        Self::ActRectified,
    ];

    /// The kind as stored.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Registered => "registered",
            Self::ChecklistFiled => "checklist_filed",
            Self::SanctionApplied => "sanction_applied",
            Self::TermoGranted => "termo_granted",
            Self::ItvReportFiled => "itv_report_filed",
            Self::VehicleDocumentsFiled => "vehicle_documents_filed",
            Self::VistoriaRecorded => "vistoria_recorded",
            Self::Baixa => "baixa",
            Self::SubstitutionAuthorized => "substitution_authorized",
            Self::DriverDocumentsFiled => "driver_documents_filed",
            Self::ContractEnded => "contract_ended",
            Self::TripManifestFiled => "trip_manifest_filed",
            Self::ProcedureAct => "procedure_act",
            Self::AutoDrawnUp => "auto_drawn_up",
            Self::NoticeIssued => "notice_issued",
            Self::CertidaoIssued => "certidao_issued",
            Self::DriverEnrolled => "driver_enrolled",
            Self::VehicleEnrolled => "vehicle_enrolled",
            Self::DataChangeReported => "data_change_reported",
            Self::ActRectified => "act_rectified",
        }
    }

    /// The act of a stored kind; `None` for a kind of the other law or of a later version.
    pub fn parse(kind: &str) -> Option<Self> {
        Some(match kind {
            "registered" => Self::Registered,
            "checklist_filed" => Self::ChecklistFiled,
            "sanction_applied" => Self::SanctionApplied,
            "termo_granted" => Self::TermoGranted,
            "itv_report_filed" => Self::ItvReportFiled,
            "vehicle_documents_filed" => Self::VehicleDocumentsFiled,
            "vistoria_recorded" => Self::VistoriaRecorded,
            "baixa" => Self::Baixa,
            "substitution_authorized" => Self::SubstitutionAuthorized,
            "driver_documents_filed" => Self::DriverDocumentsFiled,
            "contract_ended" => Self::ContractEnded,
            "trip_manifest_filed" => Self::TripManifestFiled,
            "procedure_act" => Self::ProcedureAct,
            "auto_drawn_up" => Self::AutoDrawnUp,
            "notice_issued" => Self::NoticeIssued,
            "certidao_issued" => Self::CertidaoIssued,
            "driver_enrolled" => Self::DriverEnrolled,
            "vehicle_enrolled" => Self::VehicleEnrolled,
            "data_change_reported" => Self::DataChangeReported,
            "act_rectified" => Self::ActRectified,
            _ => return None,
        })
    }
}

/// Status of a Termo, a company, a vehicle or a driver of the charter register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CharterStatus {
    /// Termo in force / vehicle or driver in order.
    Ativo,
    /// Termo or vistoria past its last day.
    Vencido,
    Suspenso,
    /// Cassação of the registration (art. 20).
    Cassado,
    /// Registered, but no Termo granted yet.
    PendenteAutorizacao,
    /// Vehicle registered but without an approved municipal vistoria (art. 13).
    PendenteVistoria,
    /// Vehicle past its 15-year service life (art. 13 §1º and §4º).
    VidaUtilVencida,
    /// A requirement lapsed (ITV, insurance, CRLV, CNH, course, exam…): may not operate.
    Irregular,
    /// Deregistered (art. 13 §5º, art. 24).
    Baixado,
    /// An auto whose penalty was annulled.
    Anulado,
}

impl CharterStatus {
    pub fn label_pt(self) -> &'static str {
        match self {
            Self::Ativo => "ativo",
            Self::Vencido => "vencido",
            Self::Suspenso => "suspenso",
            Self::Cassado => "cassado",
            Self::PendenteAutorizacao => "pendente de autorização",
            Self::PendenteVistoria => "pendente de vistoria",
            Self::VidaUtilVencida => "vida útil vencida",
            Self::Irregular => "irregular",
            Self::Baixado => "baixado",
            Self::Anulado => "anulado",
        }
    }
}

/// A sanction on a charter company (art. 18): written warning, suspension, cassação, or
/// seizure of a vehicle. Fines are assessed on the autos (`sanctions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CompanySanctionKind {
    Advertencia,
    Suspensao,
    Cassacao,
    Apreensao,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct CompanySanction {
    pub kind: CompanySanctionKind,
    pub effective_from: NaiveDate,
    /// Suspension: first day back (DL-9), set by the deciding authority (art. 18 gives none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<NaiveDate>,
    /// Article applied, e.g. `art. 20, IV`.
    pub article: String,
    pub reason: String,
}

/// FRET-ART18 and FRET-ART20: the article that grounds each sanction — cassação only under
/// art. 20, I–IV; warning, suspension and seizure under art. 18, I, III and IV.
pub fn sanction_grounded(kind: CompanySanctionKind, article: &str) -> bool {
    match kind {
        CompanySanctionKind::Cassacao => {
            ["art. 20, I", "art. 20, II", "art. 20, III", "art. 20, IV"].contains(&article)
        }
        CompanySanctionKind::Advertencia => article == "art. 18, I",
        CompanySanctionKind::Suspensao => article == "art. 18, III",
        CompanySanctionKind::Apreensao => article == "art. 18, IV",
    }
}

/// FRET-ART18 (art. 18, III): the law fixes no length for a suspension, so the deciding
/// authority sets its end, after its start. Returns what is wrong with the end given, if
/// anything (the `until` field).
pub fn fret_art18_iii_suspension_end(
    kind: CompanySanctionKind,
    from: Option<NaiveDate>,
    until: Option<NaiveDate>,
) -> Option<&'static str> {
    match (kind, from, until) {
        (CompanySanctionKind::Suspensao, Some(from), Some(until)) if until <= from => {
            Some("O fim da suspensão deve ser posterior ao início.")
        }
        (CompanySanctionKind::Suspensao, _, None) => {
            Some("Informe o fim da suspensão: a lei não fixa a duração (art. 18, III).")
        }
        _ => None,
    }
}

/// FRET-ART13-P5 (art. 13, §5º): a vehicle whose baixa was filed (its selo returned) is out
/// of the register and is not inspected again.
pub fn fret_art13_p5_no_vistoria_after_baixa(baixado: bool) -> Option<RuleFailure> {
    baixado.then(|| RuleFailure {
        rule: "FRET-ART13-P5",
        article: "art. 13, §5º",
        field: "vehicle",
        message: "Veículo baixado: não pode ser vistoriado.".into(),
    })
}

/// FRET-ART2-I (art. 2º, I, a): only an authorized company, with a Termo in force, provides
/// continuous charter service.
pub fn fret_art2_i_authorized_company(company_status: CharterStatus) -> Option<RuleFailure> {
    (company_status != CharterStatus::Ativo).then(|| RuleFailure {
        rule: "FRET-ART2-I",
        article: "art. 2º, I, a",
        field: "company",
        message: "Somente empresa autorizada, com Termo em vigor, presta o serviço.".into(),
    })
}

/// FRET-ART8-P1 (DL-8), FRET-ART18-III, FRET-ART20: status of a Termo on `today`, and the
/// suspension's end when suspended.
pub fn termo_status(
    valid_from: NaiveDate,
    valid_until: NaiveDate,
    sanctions: &[CompanySanction],
    today: NaiveDate,
) -> (CharterStatus, Option<NaiveDate>) {
    // A cassação ends the Termo in force on its date; a Termo granted after the bar
    // (art. 20, parágrafo único) is not touched by it.
    if sanctions.iter().any(|s| {
        s.kind == CompanySanctionKind::Cassacao
            && s.effective_from <= today
            && valid_from <= s.effective_from
            && s.effective_from <= valid_until
    }) {
        return (CharterStatus::Cassado, None);
    }
    if today > valid_until {
        return (CharterStatus::Vencido, None);
    }
    let suspended = sanctions
        .iter()
        .filter(|s| s.kind == CompanySanctionKind::Suspensao && s.effective_from <= today)
        .filter_map(|s| s.until.filter(|u| today < *u))
        .max();
    if let Some(until) = suspended {
        return (CharterStatus::Suspenso, Some(until));
    }
    (CharterStatus::Ativo, None)
}

/// FRET-ART26 and FRET-ART26-P1: the transitional deadlines, counted from publication
/// (DL-2, DL-5; publication is not a notification, so DL-4 does not move the start).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct TransitionDeadlines {
    pub publication_date: NaiveDate,
    /// Art. 26: companies already operating register within 90 days.
    pub company_registration: Deadline,
    /// Art. 26 §1º: vehicle vistoria, enrolment and everything else within 60 days.
    pub vehicle_enrolment: Deadline,
}

pub fn transition_deadlines(
    basis: &CharterLegalBasis,
    cal: &Calendar,
    rules: &DeadlineRules,
) -> TransitionDeadlines {
    let from_publication = DeadlineRules {
        notification_on_closed_day_moves: false,
        ..rules.clone()
    };
    TransitionDeadlines {
        publication_date: basis.publication_date,
        company_registration: deadline_in_days(
            basis.publication_date,
            basis.transition_company_days,
            cal,
            &from_publication,
        ),
        vehicle_enrolment: deadline_in_days(
            basis.publication_date,
            basis.transition_vehicle_days,
            cal,
            &from_publication,
        ),
    }
}

/// FRET-ART26 / FRET-ART26-P1: a warning (not a refusal: registering late is still due)
/// when an operating company or its vehicle is registered after the transitional deadline.
pub fn late_transition_warning(
    operating_before_law: bool,
    registered_on: NaiveDate,
    deadline: &Deadline,
    rule: &'static str,
    article: &'static str,
    what: &str,
) -> Option<RuleFailure> {
    (operating_before_law && registered_on > deadline.due).then(|| RuleFailure {
        rule,
        article,
        field: "operating_before_law",
        message: format!(
            "{what} após o prazo de transição, que terminou em {}.",
            br(deadline.due)
        ),
    })
}

// ----------------------------------------------------------------------------------------
// Vehicles (arts. 10–14)
// ----------------------------------------------------------------------------------------

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

/// Every vehicle requirement of arts. 10–13 on `today`: what registration, vistoria, the
/// selo and art. 14 substitutes need.
pub fn vehicle_requirements(
    f: &CharterVehicleFacts,
    company: &Cnpj,
    last_itv: Option<NaiveDate>,
    today: NaiveDate,
    basis: &CharterLegalBasis,
) -> Failures {
    let mut out = Vec::new();
    fret_art11_type(f, &mut out);
    fret_art10_pu_capacity(f, &mut out);
    fret_art12_i_ownership(f, company, &mut out);
    fret_art12_ii_crlv(f, today, basis, &mut out);
    fret_art12_iii_insurance(f, today, &mut out);
    fret_art12_iv_itv(f, last_itv, today, basis, &mut out);
    fret_art13_p1_a_service_life(f, today, basis, &mut out);
    out
}

/// A municipal vistoria as recorded (art. 13).
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
        vehicle_requirements(&v.facts, company, v.last_itv(today), today, basis);
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
        fail(out, f.rule, f.article, "substitute_vehicle_id", msg);
    }
}

// ----------------------------------------------------------------------------------------
// Drivers (art. 15)
// ----------------------------------------------------------------------------------------

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

fn proof_in_force(
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

/// FRET-ART15-II … V and AMB-58 [FED]: course, folha corrida, employment link,
/// toxicological exam (CTB art. 148-A: 30 months), age ≥ 21 (CTB art. 145, I).
pub fn fret_art15_documents(
    f: &CharterDriverFacts,
    today: NaiveDate,
    basis: &CharterLegalBasis,
    out: &mut Failures,
) {
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

/// Every driver requirement of art. 15 on `today`.
pub fn driver_requirements(
    f: &CharterDriverFacts,
    today: NaiveDate,
    basis: &CharterLegalBasis,
) -> Failures {
    let mut out = Vec::new();
    fret_art15_i_cnh(f, today, &mut out);
    fret_art15_documents(f, today, basis, &mut out);
    out
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
    let failures = driver_requirements(f, today, basis);
    let status = if failures.is_empty() {
        CharterStatus::Ativo
    } else {
        CharterStatus::Irregular
    };
    (status, failures)
}

// ----------------------------------------------------------------------------------------
// Contracts (arts. 1–6, 8 §3º, 28)
// ----------------------------------------------------------------------------------------

/// Continuous or occasional charter (art. 2, I and II).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ContractKind {
    Continuo,
    Eventual,
}

/// Who hires the service (art. 2, I, h; art. 5; art. 28).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ContractorType {
    /// Employees or collaborators of a legal entity.
    PessoaJuridica,
    /// Teachers, students or technical staff of an educational institution.
    InstituicaoEnsino,
    /// A student body or a legally constituted association.
    EntidadeEstudantilAssociacao,
    /// A government entity that does not use an official or leased vehicle.
    OrgaoPublico,
    /// A rural settlement or its association (art. 5: not continuous charter).
    Assentamento,
    /// A Prefeitura carrying residents (art. 5: not continuous charter).
    Prefeitura,
    /// Regular school transport (art. 28: out of scope of the law).
    TransporteEscolarRegular,
    /// Occasional charter for a private group.
    GrupoParticular,
}

/// One passenger of the list (art. 8 §3º): a CPF, or another document for manual review
/// (AMB-56).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Passenger {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpf: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_document: Option<String>,
}

/// A service contract as filed (art. 2, art. 3, art. 8 §3º).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ContractFacts {
    pub kind: ContractKind,
    pub contractor_type: ContractorType,
    pub contractor_name: String,
    /// Whether the government contractor uses official or leased vehicles (art. 2, I, h).
    #[serde(default)]
    pub contractor_uses_own_vehicles: bool,
    /// Purpose of the trip; tourism is not occasional charter (art. 2, II).
    pub purpose: String,
    #[serde(default)]
    pub tourism: bool,
    pub origin: String,
    pub destination: String,
    pub itinerary: String,
    /// Both ends inside Barra do Garças (art. 1 PU VII, AMB-10), as declared and checked.
    pub within_municipality: bool,
    /// Days and times of the trips (art. 2, I, e; art. 8 §3º).
    pub timetable: Vec<String>,
    pub signed_on: NaiveDate,
    pub start_date: NaiveDate,
    pub end_date: NaiveDate,
    /// Registration at the notary (continuous charter, art. 2, I, g).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notary_registration: Option<String>,
    /// Nota Fiscal de serviço (art. 2, I, d and II).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nfse_number: Option<String>,
    pub passengers: Vec<Passenger>,
    /// Plates of the vehicles used (art. 8 §3º).
    pub vehicle_plates: Vec<String>,
    /// The day the company notified SIS of the contract (art. 3).
    pub communicated_on: NaiveDate,
}

/// What the register says of a plate listed in a contract.
#[derive(Debug, Clone)]
pub struct ListedVehicle {
    pub plate: String,
    /// Registered to this company, and its status and seated capacity on the start date.
    pub found: Option<(CharterStatus, i32)>,
}

/// Which way a trip of a contract goes (art. 2º, III).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TripLeg {
    Ida,
    Volta,
}

/// A passenger group, as compared between the outbound and the return trip: a SHA-256 of the
/// sorted identities (CPF, else the other document, else the name), so the comparison needs
/// no personal data kept in the history.
pub fn passenger_group(passengers: &[Passenger]) -> String {
    use sha2::{Digest, Sha256};
    let mut ids: Vec<String> = passengers
        .iter()
        .map(|p| {
            if let Some(cpf) = p.cpf.as_deref().and_then(|c| Cpf::parse(c).ok()) {
                format!("cpf:{}", cpf.as_str())
            } else if let Some(doc) = p.other_document.as_deref().filter(|d| !d.trim().is_empty()) {
                format!("doc:{}", doc.trim().to_uppercase())
            } else {
                format!("nome:{}", p.name.trim().to_lowercase())
            }
        })
        .collect();
    ids.sort();
    let digest = Sha256::digest(ids.join("\n").as_bytes());
    digest.iter().fold(String::with_capacity(64), |mut hex, b| {
        use std::fmt::Write;
        let _ = write!(hex, "{b:02x}");
        hex
    })
}

/// A trip filed on a contract, as its history records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct FiledTrip {
    pub date: NaiveDate,
    /// Trips filed before returns existed are outbound.
    #[serde(default = "outbound_leg")]
    pub leg: TripLeg,
    pub vehicle_plate: String,
    /// `passenger_group` of its list; absent on trips filed before it was kept.
    #[serde(default)]
    pub group: Option<String>,
}

fn outbound_leg() -> TripLeg {
    TripLeg::Ida
}

/// FRET-ART1-PU-III, FRET-ART8-P3: a trip runs within the contract's dates, in a vehicle the
/// contract lists.
pub fn fret_trip_in_contract(c: &ContractFacts, day: NaiveDate, plate: &Plate, out: &mut Failures) {
    if day < c.start_date || day > c.end_date {
        let msg = "A viagem está fora da vigência do contrato.".to_owned();
        fail(
            out,
            "FRET-ART1-PU-III",
            "art. 1º, parágrafo único, III",
            "date",
            msg,
        );
    }
    let listed = c
        .vehicle_plates
        .iter()
        .any(|p| canonical_plate(p).as_deref() == Some(plate.as_str()));
    if !listed {
        let msg = "Veículo não consta do contrato.".to_owned();
        fail(out, "FRET-ART8-P3", "art. 8º, §3º", "vehicle_plate", msg);
    }
}

/// FRET-ART2-III: the outbound trip a return on `day` closes — the one of latest date up to
/// that day, the last filed on that date (`earlier` in the order filed).
pub fn outbound_of(earlier: &[FiledTrip], day: NaiveDate) -> Option<&FiledTrip> {
    earlier
        .iter()
        .enumerate()
        .filter(|(_, t)| t.leg == TripLeg::Ida && t.date <= day)
        .max_by_key(|(i, t)| (t.date, *i))
        .map(|(_, t)| t)
}

/// FRET-ART2-III (art. 2º, III; art. 1º, parágrafo único, III): a closed circuit — the group
/// that went returns to the origin in the vehicle that took it. `outbound` is the outbound
/// trip's (plate, passenger group), if one was filed.
pub fn fret_art2_iii_closed_circuit(
    outbound: Option<(&str, &str)>,
    plate: &str,
    group: &str,
    out: &mut Failures,
) {
    let Some((out_plate, out_group)) = outbound else {
        let msg = "Não há viagem de ida registrada neste contrato até esta data para o retorno."
            .to_owned();
        fail(out, "FRET-ART2-III", "art. 2º, III", "leg", msg);
        return;
    };
    if out_plate != plate {
        let msg = format!(
            "O grupo deve retornar no mesmo veículo que fez a viagem de ida (placa {out_plate})."
        );
        fail(out, "FRET-ART2-III", "art. 2º, III", "vehicle_plate", msg);
    }
    if out_group != group {
        let msg = "O grupo de passageiros do retorno deve ser o mesmo da viagem de ida (sem embarques nem desembarques no itinerário).".to_owned();
        fail(out, "FRET-ART2-III", "art. 2º, III", "passengers", msg);
    }
}

/// FRET-ART1-PU-III/VI/VII, FRET-ART2-I/II, FRET-ART5, FRET-ART8-P3, FRET-ART10-PU,
/// FRET-ART28: whether a contract may be filed. Returns (refusals, passengers sent to
/// manual review).
pub fn contract_requirements(
    c: &ContractFacts,
    vehicles: &[ListedVehicle],
    out: &mut Failures,
) -> Vec<String> {
    use ContractorType as T;
    if c.contractor_type == T::TransporteEscolarRegular {
        let msg = "O transporte escolar regular não é regido por esta lei.".to_owned();
        fail(out, "FRET-ART28", "art. 28", "contractor_type", msg);
    }
    if c.kind == ContractKind::Continuo {
        if matches!(c.contractor_type, T::Assentamento | T::Prefeitura) {
            let msg = "Contratos com assentamentos, suas associações ou Prefeituras não \
                       caracterizam fretamento contínuo."
                .to_owned();
            fail(out, "FRET-ART5", "art. 5º", "contractor_type", msg);
        }
        if c.contractor_type == T::GrupoParticular {
            let msg = "No fretamento contínuo o contratante deve ser pessoa jurídica, \
                       instituição de ensino, entidade estudantil ou associação, ou órgão público."
                .to_owned();
            fail(out, "FRET-ART2-I", "art. 2º, I, h", "contractor_type", msg);
        }
        if c.contractor_type == T::OrgaoPublico && c.contractor_uses_own_vehicles {
            let msg = "Órgão público que usa veículo oficial ou locado não contrata fretamento \
                       contínuo."
                .to_owned();
            fail(
                out,
                "FRET-ART2-I",
                "art. 2º, I, h",
                "contractor_uses_own_vehicles",
                msg,
            );
        }
        if c.notary_registration
            .as_deref()
            .is_none_or(|s| s.trim().is_empty())
        {
            let msg =
                "O contrato de fretamento contínuo deve ser registrado em cartório.".to_owned();
            fail(
                out,
                "FRET-ART2-I",
                "art. 2º, I, g",
                "notary_registration",
                msg,
            );
        }
        if c.timetable.iter().all(|t| t.trim().is_empty()) {
            let msg = "Informe o número de viagens, a frequência e os horários.".to_owned();
            fail(out, "FRET-ART2-I", "art. 2º, I, e", "timetable", msg);
        }
    }
    if c.kind == ContractKind::Eventual && c.tourism {
        let msg = "O fretamento eventual não se destina ao turismo.".to_owned();
        fail(out, "FRET-ART2-II", "art. 2º, II", "tourism", msg);
    }
    if c.nfse_number.as_deref().is_none_or(|s| s.trim().is_empty()) {
        let msg = "Informe a Nota Fiscal de serviço do contrato.".to_owned();
        fail(out, "FRET-ART2-I", "art. 2º, I, d", "nfse_number", msg);
    }
    if !c.within_municipality {
        let msg = "Origem e destino devem estar no Município de Barra do Garças; viagens \
                   intermunicipais ou interestaduais são da AGER-MT ou da ANTT."
            .to_owned();
        fail(
            out,
            "FRET-ART1-PU-VII",
            "art. 1º, parágrafo único, VII",
            "within_municipality",
            msg,
        );
    }
    if c.end_date < c.start_date {
        let msg = "O contrato deve ter prazo de vigência: o fim vem antes do início.".to_owned();
        fail(
            out,
            "FRET-ART1-PU-III",
            "art. 1º, parágrafo único, III",
            "end_date",
            msg,
        );
    }
    if c.contractor_name.trim().is_empty() {
        let msg = "Identifique o contratante e o grupo de passageiros.".to_owned();
        fail(
            out,
            "FRET-ART1-PU-VI",
            "art. 1º, parágrafo único, VI",
            "contractor_name",
            msg,
        );
    }
    if c.origin.trim().is_empty()
        || c.destination.trim().is_empty()
        || c.itinerary.trim().is_empty()
    {
        let msg = "Informe origem, destino e itinerário.".to_owned();
        fail(out, "FRET-ART8-P3", "art. 8º, §3º", "itinerary", msg);
    }
    fret_art8_p3_lists(c, vehicles, out)
}

/// FRET-ART8-P3 and FRET-ART10-PU: the passenger list (name and CPF; another ID goes to
/// manual review, AMB-56) and the plates of registered, regular vehicles with enough seats.
pub fn fret_art8_p3_lists(
    c: &ContractFacts,
    vehicles: &[ListedVehicle],
    out: &mut Failures,
) -> Vec<String> {
    let mut review = Vec::new();
    if c.passengers.is_empty() {
        let msg = "A relação de passageiros é obrigatória.".to_owned();
        fail(out, "FRET-ART8-P3", "art. 8º, §3º", "passengers", msg);
    }
    for (i, p) in c.passengers.iter().enumerate() {
        match (&p.cpf, &p.other_document) {
            (Some(cpf), _) if Cpf::parse(cpf).is_err() => {
                let msg = format!("CPF inválido do passageiro nº {}.", i + 1);
                fail(out, "FRET-ART8-P3", "art. 8º, §3º", "passengers", msg);
            }
            (Some(_), _) => {}
            (None, Some(doc)) if !doc.trim().is_empty() => review.push(format!(
                "Passageiro nº {} sem CPF (documento apresentado): análise manual.",
                i + 1
            )),
            (None, _) => {
                let msg = format!("Informe o CPF do passageiro nº {}.", i + 1);
                fail(out, "FRET-ART8-P3", "art. 8º, §3º", "passengers", msg);
            }
        }
    }
    if c.vehicle_plates.is_empty() {
        let msg = "Informe as placas dos veículos utilizados.".to_owned();
        fail(out, "FRET-ART8-P3", "art. 8º, §3º", "vehicle_plates", msg);
    }
    let mut capacity = 0i64;
    for v in vehicles {
        match v.found {
            Some((CharterStatus::Ativo, seats)) => capacity += i64::from(seats),
            Some((status, _)) => {
                let msg = format!(
                    "Veículo {} está {} e não pode ser usado.",
                    v.plate,
                    status.label_pt()
                );
                fail(out, "FRET-ART8-P3", "art. 8º, §3º", "vehicle_plates", msg);
            }
            None => {
                let msg = format!("Veículo {} não está cadastrado para esta empresa.", v.plate);
                fail(out, "FRET-ART8-P3", "art. 8º, §3º", "vehicle_plates", msg);
            }
        }
    }
    // Seats are counted only when every listed vehicle may run; otherwise the plate error
    // above is the one to fix first.
    if !vehicles.is_empty()
        && vehicles
            .iter()
            .all(|v| matches!(v.found, Some((CharterStatus::Ativo, _))))
    {
        fret_art10_pu_passengers(c.passengers.len(), capacity, "passengers", out);
    }
    review
}

/// FRET-ART3: SIS is notified within 15 days of signing (and of the end). Late filing is an
/// untyped violation (AMB-30): a warning for SIS, not a refusal.
pub fn fret_art3_notice(
    event_on: NaiveDate,
    communicated_on: NaiveDate,
    cal: &Calendar,
    rules: &DeadlineRules,
    basis: &CharterLegalBasis,
) -> (Deadline, Option<RuleFailure>) {
    let signing = DeadlineRules {
        notification_on_closed_day_moves: false,
        ..rules.clone()
    };
    let due = deadline_in_days(event_on, basis.contract_notice_days, cal, &signing);
    let late = (communicated_on > due.due).then(|| RuleFailure {
        rule: "FRET-ART3",
        article: "art. 3º",
        field: "communicated_on",
        message: format!(
            "Comunicação à SIS feita em {}, depois do prazo de 15 dias, que terminou em {}.",
            br(communicated_on),
            br(due.due)
        ),
    });
    (due, late)
}

/// Canonical plate text, for matching contract plates to the register.
pub fn canonical_plate(raw: &str) -> Option<String> {
    Plate::parse(raw).ok().map(|p| p.as_str().to_owned())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests;
