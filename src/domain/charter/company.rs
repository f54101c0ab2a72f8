//! Companies (Lei 4.937/2025, art. 7) and the Termo de Autorização (art. 8): the
//! checklist, the grant, its renewal and the company's standing on a date.

use super::{
    Calendar, CharterLegalBasis, Deadline, DeadlineRules, Deserialize, Failures, NaiveDate, Proof,
    RuleFailure, Serialize, add_months, bar_lifts_on, deadline_in_days, fail,
};

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
    #[expect(clippy::too_many_lines, reason = "a table of the 15 items of art. 7")]
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

impl ChecklistItem<'_> {
    /// The item's key in the checklist (`cnd_federal`), as a basis names it.
    pub fn key(&self) -> &'static str {
        self.field.trim_start_matches("checklist.")
    }
}

impl CompanyChecklist {
    /// The item `key` (`cnd_federal`), if the checklist has one.
    pub fn item(&self, key: &str) -> Option<ChecklistItem<'_>> {
        self.items().into_iter().find(|i| i.key() == key)
    }
}

pub(super) fn br(d: NaiveDate) -> String {
    d.format("%d/%m/%Y").to_string()
}

/// FRET-ART7-I and FRET-ART7-II: every document presented, and every certificate within the
/// validity printed on it on `today` (DL-8: the last day counts).
pub fn fret_art7_checklist(c: &CompanyChecklist, today: NaiveDate, out: &mut Failures) {
    for item in c.items() {
        check_item(&item, today, out);
    }
}

/// One item of the checklist: presented, and within the validity printed on it on `today`
/// (one that must print a validity and does not is refused).
pub fn check_item(item: &ChecklistItem<'_>, today: NaiveDate, out: &mut Failures) {
    let Some(proof) = item.proof else {
        let msg = format!("Documento não apresentado: {}.", item.label);
        fail(out, item.rule, item.article, item.field, msg);
        return;
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

pub(super) fn capitalise(s: &str) -> String {
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
    /// The day the application was protocolled.
    pub protocolled_on: NaiveDate,
}

/// FRET-ART8, FRET-ART8-P1, FRET-ART8-P2 with AMB-55: grant or renew the Termo on `today`,
/// on an application protocolled on `protocolled_on`.
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
    // The documents and the bar the basis asks for.
    super::company_documents(checklist, today, basis, &mut out);
    if super::company_bar(cassations, protocolled_on, basis, &mut out).is_none() {
        super::company_bar(cassations, today, basis, &mut out);
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
    /// An act of the register entered wrongly, rectified by a new one.
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
        rule: "FRET-ART13-P5".into(),
        article: "art. 13, §5º".into(),
        field: "vehicle",
        message: "Veículo baixado: não pode ser vistoriado.".into(),
    })
}

/// FRET-ART2-I (art. 2º, I, a): only an authorized company, with a Termo in force, provides
/// continuous charter service.
pub fn fret_art2_i_authorized_company(company_status: CharterStatus) -> Option<RuleFailure> {
    (company_status != CharterStatus::Ativo).then(|| RuleFailure {
        rule: "FRET-ART2-I".into(),
        article: "art. 2º, I, a".into(),
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
        rule: rule.into(),
        article: article.into(),
        field: "operating_before_law",
        message: format!(
            "{what} após o prazo de transição, que terminou em {}.",
            br(deadline.due)
        ),
    })
}
