//! Infractions, fines and the procedure of the charter law (Lei 4.937/2025, arts. 18–23):
//! the art. 19 catalogue as data, recidivism (art. 19 PU, never compounding, recalculated when
//! an earlier penalty is annulled), the art. 20 IV cassação ground, and the deadlines of
//! defence, reconsideration and payment.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::domain::calendar::{
    Calendar, Deadline, DeadlineRules, deadline_in_days, within_lookback,
};
use crate::domain::legal_basis::CharterLegalBasis;

pub use super::infractions::CharterInfraction;

/// An auto of the company, as the fine assessment needs it.
#[derive(Debug, Clone)]
pub struct AutoFacts {
    pub number: String,
    pub infraction: String,
    pub committed_on: NaiveDate,
    pub annulled: bool,
    pub final_: bool,
}

/// The fine of one auto.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct FineAssessment {
    pub upf: u32,
    /// Art. 19 PU: the same inciso repeated within 12 months.
    pub recidivism: bool,
    /// The earlier auto it repeats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeats: Option<String>,
    /// AMB-29: the doubled amount is confirmed once the earlier penalty is final.
    pub doubling_confirmed: bool,
    /// Art. 20, IV: repeating art. 19, VI opens the cassação procedure.
    pub cassacao_ground: bool,
    pub legal_basis_version: String,
}

/// FRET-ART19 and FRET-ART19-PU, with AMB-26/27/29 and DL-10: the fine of every auto of a
/// company, in the order given. An annulled auto has no fine (`None`) and no longer counts as
/// the earlier infraction of any other. Doubling never compounds: the earlier auto need not
/// itself be a first offence.
pub fn assess_fines(autos: &[AutoFacts], basis: &CharterLegalBasis) -> Vec<Option<FineAssessment>> {
    assess_fines_by(autos, |_| basis)
}

/// [`assess_fines`] with each auto judged by its own basis (`basis_of` its index): the law of
/// the day it was drawn up sets its fine, its window and whether its repeat is a ground.
pub fn assess_fines_by<'a>(
    autos: &[AutoFacts],
    basis_of: impl Fn(usize) -> &'a CharterLegalBasis,
) -> Vec<Option<FineAssessment>> {
    autos
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let basis = basis_of(i);
            if a.annulled {
                return None;
            }
            let prior = autos
                .iter()
                .filter(|p| {
                    !p.annulled
                        && p.number != a.number
                        && p.infraction == a.infraction
                        && p.committed_on < a.committed_on
                        && within_lookback(
                            p.committed_on,
                            a.committed_on,
                            basis.recidivism_window_months,
                            basis.month_overflow,
                        )
                })
                .max_by_key(|p| p.committed_on);
            let recidivism = prior.is_some();
            let ground = basis
                .infraction(&a.infraction)
                .is_some_and(|i| i.repeat_is_cassacao_ground)
                && recidivism;
            Some(FineAssessment {
                upf: if recidivism {
                    basis.fine_upf * basis.recidivism_multiplier
                } else {
                    basis.fine_upf
                },
                recidivism,
                repeats: prior.map(|p| p.number.clone()),
                doubling_confirmed: prior.is_some_and(|p| p.final_),
                cassacao_ground: ground,
                legal_basis_version: basis.version.clone(),
            })
        })
        .collect()
}

/// How the auto was served (art. 22 §1º).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum NoticeMethod {
    /// Copy handed over and signed for.
    Contrafe,
    /// Certificate issued by the inspector (e.g. on refusal to sign).
    CertidaoFiscal,
}

/// The outcome of a decision on an auto.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The penalty stands.
    Mantido,
    /// The penalty is annulled (recidivism of later autos is recalculated).
    Anulado,
}

/// An act of the procedure of a charter auto, in the order recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "act", rename_all = "snake_case")]
pub enum ProcedureAct {
    /// Art. 22 §1º.
    Notificacao {
        method: NoticeMethod,
        notified_on: NaiveDate,
    },
    /// Art. 22 §2º: filed at the Protocolo Geral, addressed to SIS.
    Defesa {
        protocol: String,
        filed_on: NaiveDate,
    },
    /// Decision of the SIS Secretary, and when it was notified.
    Decisao {
        outcome: Outcome,
        decided_on: NaiveDate,
        notified_on: NaiveDate,
    },
    /// Art. 22 §3º: reconsideration, forwarded to the Mayor.
    Reconsideracao {
        protocol: String,
        filed_on: NaiveDate,
    },
    /// The Mayor's decision on reconsideration.
    DecisaoPrefeito {
        outcome: Outcome,
        decided_on: NaiveDate,
    },
    /// Payment of the fine (FRET-ART23, APP-ART13-XXII): the guia (DAM) paid, the
    /// day it was paid (bank settlement) and the amount in centavos. Partial payments add up.
    Pagamento {
        guia: String,
        paid_on: NaiveDate,
        amount_centavos: i64,
    },
    /// Inscription of the unpaid balance in dívida ativa (FRET-ART23; APP-ART22-P1; Lei
    /// 4.320/1964, art. 39, §2º): the inscription's number and date.
    InscricaoDividaAtiva {
        number: String,
        inscribed_on: NaiveDate,
    },
    /// An act entered wrongly is voided by this act, with the reason and the
    /// day it was decided, never edited; the correct act is then entered anew and the history
    /// keeps all three. It voids the procedure's latest act of kind `voids` (a payment: the
    /// one of `guia`); to reach an earlier act, the later ones are voided first.
    Retificacao {
        voids: ActKind,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        guia: Option<String>,
        reason: String,
        rectified_on: NaiveDate,
    },
}

/// The kinds of act a rectification can void.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ActKind {
    Notificacao,
    Defesa,
    Decisao,
    Reconsideracao,
    DecisaoPrefeito,
    Pagamento,
    InscricaoDividaAtiva,
}

impl ActKind {
    fn of(act: &ProcedureAct) -> Option<Self> {
        Some(match act {
            ProcedureAct::Notificacao { .. } => Self::Notificacao,
            ProcedureAct::Defesa { .. } => Self::Defesa,
            ProcedureAct::Decisao { .. } => Self::Decisao,
            ProcedureAct::Reconsideracao { .. } => Self::Reconsideracao,
            ProcedureAct::DecisaoPrefeito { .. } => Self::DecisaoPrefeito,
            ProcedureAct::Pagamento { .. } => Self::Pagamento,
            ProcedureAct::InscricaoDividaAtiva { .. } => Self::InscricaoDividaAtiva,
            ProcedureAct::Retificacao { .. } => return None,
        })
    }
}

/// The acts as they stand once every rectification has voided its act, in order.
pub fn effective_acts(acts: &[ProcedureAct]) -> Vec<ProcedureAct> {
    let mut out: Vec<ProcedureAct> = Vec::with_capacity(acts.len());
    for act in acts {
        if let ProcedureAct::Retificacao { voids, guia, .. } = act {
            if let Some(i) = voided_index(&out, *voids, guia.as_deref()) {
                out.remove(i);
            }
        } else {
            out.push(act.clone());
        }
    }
    out
}

/// Which of `acts` (already effective) a rectification of `voids` would void.
fn voided_index(acts: &[ProcedureAct], voids: ActKind, guia: Option<&str>) -> Option<usize> {
    acts.iter().rposition(|a| {
        ActKind::of(a) == Some(voids)
            && match a {
                ProcedureAct::Pagamento { guia: g, .. } => guia.is_none_or(|x| x == g),
                _ => true,
            }
    })
}

/// Whether a rectification may void what it names in `acts` (effective): the procedure's
/// latest act, any payment by its guia, or the inscription; never a decision that annulled
/// the auto (undone only by a new decision). The pt-BR reason when not.
fn check_rectification(
    acts: &[ProcedureAct],
    voids: ActKind,
    guia: Option<&str>,
    reason: &str,
) -> Result<(), &'static str> {
    if reason.trim().is_empty() {
        return Err("Informe o motivo da retificação.");
    }
    let Some(i) = voided_index(acts, voids, guia) else {
        return Err("Não há ato desse tipo a retificar.");
    };
    let target = &acts[i];
    if matches!(
        target,
        ProcedureAct::Decisao {
            outcome: Outcome::Anulado,
            ..
        } | ProcedureAct::DecisaoPrefeito {
            outcome: Outcome::Anulado,
            ..
        }
    ) {
        return Err(
            "A decisão que anulou o auto só se desfaz por nova decisão, não por retificação.",
        );
    }
    if !target.is_of_the_account() && acts[i + 1..].iter().any(|a| !a.is_of_the_account()) {
        return Err(
            "Só o último ato do procedimento pode ser retificado: retifique antes os atos posteriores.",
        );
    }
    Ok(())
}

impl ProcedureAct {
    /// The date the law counts from for this act: the protocol date of a
    /// petition, the date of a decision, of the notice, of the payment, of the inscription —
    /// never the instant it was entered, which the event records beside it.
    pub fn date(&self) -> NaiveDate {
        match self {
            Self::Notificacao { notified_on, .. } => *notified_on,
            Self::Defesa { filed_on, .. } | Self::Reconsideracao { filed_on, .. } => *filed_on,
            Self::Decisao { decided_on, .. } | Self::DecisaoPrefeito { decided_on, .. } => {
                *decided_on
            }
            Self::Pagamento { paid_on, .. } => *paid_on,
            Self::InscricaoDividaAtiva { inscribed_on, .. } => *inscribed_on,
            Self::Retificacao { rectified_on, .. } => *rectified_on,
        }
    }

    /// The field that carries [`Self::date`].
    pub fn date_field(&self) -> &'static str {
        match self {
            Self::Notificacao { .. } => "notified_on",
            Self::Defesa { .. } | Self::Reconsideracao { .. } => "filed_on",
            Self::Decisao { .. } | Self::DecisaoPrefeito { .. } => "decided_on",
            Self::Pagamento { .. } => "paid_on",
            Self::InscricaoDividaAtiva { .. } => "inscribed_on",
            Self::Retificacao { .. } => "rectified_on",
        }
    }

    /// Whether the act concerns the fine's account (or voids an act), not the procedure's
    /// stages: it neither moves the stage nor sets the date later acts follow.
    pub fn is_of_the_account(&self) -> bool {
        matches!(
            self,
            Self::Pagamento { .. } | Self::InscricaoDividaAtiva { .. } | Self::Retificacao { .. }
        )
    }
}

/// The latest date among the procedure's acts (the account's acts aside): an act that
/// follows them may not bear an earlier date.
pub fn latest_act_date(acts: &[ProcedureAct]) -> Option<NaiveDate> {
    acts.iter()
        .filter(|a| !a.is_of_the_account())
        .map(ProcedureAct::date)
        .max()
}

/// Where an auto stands on a date, with every deadline and how it was computed.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ProcedureState {
    pub stage: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notified_on: Option<NaiveDate>,
    /// Art. 22 §1º: contrafé or the inspector's certificate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice_method: Option<NoticeMethod>,
    /// FRET-ART22: 15 days from notification.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub defence_due: Option<Deadline>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub defence_timely: Option<bool>,
    /// FRET-ART23: 30 days from the effective end of the defence period (AMB-32).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payment_due: Option<Deadline>,
    /// FRET-ART22-P3: 10 days from the decision's notice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reconsideration_due: Option<Deadline>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reconsideration_timely: Option<bool>,
    /// `GABINETE_DO_PREFEITO` while a reconsideration awaits the Mayor (art. 22 §3º).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub routed_to: Option<&'static str>,
    pub annulled: bool,
    /// The penalty can no longer be challenged.
    pub final_: bool,
}

impl ProcedureState {
    /// An auto just drawn up: no act yet.
    fn drawn_up() -> Self {
        Self {
            stage: "lavrado",
            notified_on: None,
            notice_method: None,
            defence_due: None,
            defence_timely: None,
            payment_due: None,
            reconsideration_due: None,
            reconsideration_timely: None,
            routed_to: None,
            annulled: false,
            final_: false,
        }
    }
}

/// The periods of the procedure: Lei 4.937/2025 arts. 22–23; the ride-hailing law borrows
/// them until its decree (AMB-34).
#[derive(Debug, Clone, Copy)]
pub struct ProcedureDays {
    pub defence: u32,
    pub reconsideration: u32,
    pub payment: u32,
}

impl From<&CharterLegalBasis> for ProcedureDays {
    fn from(b: &CharterLegalBasis) -> Self {
        Self {
            defence: b.defence_days,
            reconsideration: b.reconsideration_days,
            payment: b.payment_days,
        }
    }
}

impl From<&crate::domain::legal_basis::RideHailingLegalBasis> for ProcedureDays {
    fn from(b: &crate::domain::legal_basis::RideHailingLegalBasis) -> Self {
        Self {
            defence: b.defence_days,
            reconsideration: b.reconsideration_days,
            payment: b.payment_days,
        }
    }
}

/// FRET-ART22, FRET-ART22-P1…P3, FRET-ART23 (DL-1…DL-5): fold the acts of an auto. The
/// notification act is the start event (for ride-hailing autos: the juntada, DL-3).
pub fn procedure_state(
    acts: &[ProcedureAct],
    today: NaiveDate,
    cal: &Calendar,
    rules: &DeadlineRules,
    days: ProcedureDays,
) -> ProcedureState {
    let mut s = ProcedureState::drawn_up();
    // Counting from an already-effective day: no DL-4 move (AMB-32).
    let plain = DeadlineRules {
        notification_on_closed_day_moves: false,
        ..rules.clone()
    };
    let mut decided: Option<Outcome> = None;
    let mut mayor: Option<(Outcome, NaiveDate)> = None;
    let mut recon_filed = false;
    let mut defence_filed = false;
    for act in acts {
        match act {
            ProcedureAct::Notificacao {
                notified_on,
                method,
            } => {
                s.notice_method = Some(*method);
                let due = deadline_in_days(*notified_on, days.defence, cal, rules);
                s.payment_due = Some(deadline_in_days(due.due, days.payment, cal, &plain));
                s.defence_due = Some(due);
                s.notified_on = Some(*notified_on);
                s.stage = "notificado";
            }
            ProcedureAct::Defesa { filed_on, .. } => {
                // Judged on its protocol date. A defence protocolled after
                // the period is on record but the facts stay admitted (art. 23).
                let timely = s.defence_due.as_ref().is_some_and(|d| *filed_on <= d.due);
                s.defence_timely = Some(timely);
                if timely {
                    defence_filed = true;
                    s.stage = "defesa_apresentada";
                }
            }
            ProcedureAct::Decisao {
                outcome,
                notified_on,
                ..
            } => {
                decided = Some(*outcome);
                s.reconsideration_due = Some(deadline_in_days(
                    *notified_on,
                    days.reconsideration,
                    cal,
                    rules,
                ));
                s.stage = "decidido";
            }
            ProcedureAct::Reconsideracao { filed_on, .. } => {
                let timely = s
                    .reconsideration_due
                    .as_ref()
                    .is_some_and(|d| *filed_on <= d.due);
                s.reconsideration_timely = Some(timely);
                if timely {
                    recon_filed = true;
                    s.routed_to = Some("GABINETE_DO_PREFEITO");
                    s.stage = "reconsideracao";
                }
            }
            ProcedureAct::DecisaoPrefeito {
                outcome,
                decided_on,
            } => {
                mayor = Some((*outcome, *decided_on));
                s.routed_to = None;
                s.stage = "decidido_prefeito";
            }
            // The fine's account: `domain::fines`; rectifications: `effective_acts`.
            ProcedureAct::Pagamento { .. }
            | ProcedureAct::InscricaoDividaAtiva { .. }
            | ProcedureAct::Retificacao { .. } => {}
        }
    }
    let last_outcome = mayor.map(|m| m.0).or(decided);
    s.annulled = last_outcome == Some(Outcome::Anulado);
    s.final_ = is_final(&s, decided, mayor, recon_filed, defence_filed, today);
    s.payment_due = payment_deadline(
        &mut s,
        decided,
        mayor,
        recon_filed,
        defence_filed,
        cal,
        &plain,
        days,
    );
    if s.annulled {
        s.stage = "anulado";
    }
    if s.final_ && s.stage != "anulado" {
        s.stage = "definitivo";
    }
    s
}

/// The acts that may be recorded next at `stage` of a procedure ([`ProcedureState::stage`]),
/// the one the law expects first (arts. 22–23 of both laws): the notification after the auto;
/// the defence, the decision or the payment after it; the reconsideration, the payment or the
/// inscription in dívida ativa after a decision; the Mayor's decision after a reconsideration.
/// An annulled auto takes none. [`check_act`] still judges each act's order and dates.
pub fn acts_that_may_follow(stage: &str) -> &'static [&'static str] {
    match stage {
        "lavrado" => &["notificacao"],
        "notificado" => &["defesa", "decisao", "pagamento"],
        "defesa_apresentada" => &["decisao", "pagamento"],
        "decidido" => &["reconsideracao", "pagamento", "inscricao_divida_ativa"],
        "reconsideracao" => &["decisao_prefeito"],
        "decidido_prefeito" | "definitivo" => &["pagamento", "inscricao_divida_ativa"],
        _ => &[],
    }
}

/// Whether the penalty can no longer be challenged on `today` (art. 22, §3º; art. 23).
fn is_final(
    s: &ProcedureState,
    decided: Option<Outcome>,
    mayor: Option<(Outcome, NaiveDate)>,
    recon_filed: bool,
    defence_filed: bool,
    today: NaiveDate,
) -> bool {
    match (decided, mayor) {
        _ if s.annulled => false,
        (_, Some((Outcome::Mantido, _))) => true,
        (Some(Outcome::Mantido), None) => {
            !recon_filed
                && s.reconsideration_due
                    .as_ref()
                    .is_some_and(|d| today > d.due)
        }
        // Art. 23: no defence by the end of the period → facts deemed admitted.
        (None, None) => !defence_filed && s.defence_due.as_ref().is_some_and(|d| today > d.due),
        _ => false,
    }
}

/// The payment deadline (AMB-62): art. 23's 30 days count from the effective end of
/// the period the penalty became final by — the defence period (no defence, AMB-32), the
/// reconsideration period (decision upheld, no reconsideration), or the Mayor's decision.
#[expect(
    clippy::too_many_arguments,
    reason = "the procedure's state and each act that moves it"
)]
fn payment_deadline(
    s: &mut ProcedureState,
    decided: Option<Outcome>,
    mayor: Option<(Outcome, NaiveDate)>,
    recon_filed: bool,
    defence_filed: bool,
    cal: &Calendar,
    plain: &DeadlineRules,
    days: ProcedureDays,
) -> Option<Deadline> {
    match (decided, mayor) {
        _ if s.annulled => None,
        (_, Some((Outcome::Mantido, on))) => Some(deadline_in_days(on, days.payment, cal, plain)),
        (Some(Outcome::Mantido), None) if !recon_filed => s
            .reconsideration_due
            .as_ref()
            .map(|r| deadline_in_days(r.due, days.payment, cal, plain)),
        (None, None) if !defence_filed => s.payment_due.take(),
        _ => None,
    }
}

/// The earliest date an act may bear: not before the auto (`start`: the infraction's day, or
/// for a ride-hailing auto the notice's delivery) nor before the procedure's acts it follows.
pub fn act_floor(acts: &[ProcedureAct], start: NaiveDate) -> NaiveDate {
    latest_act_date(acts).map_or(start, |d| d.max(start))
}

/// Whether `act` may be recorded, with the date it bears: not in the
/// future, not before the act it follows (`floor`, [`act_floor`]; a payment: not before the
/// auto, `start`), and in the procedure's order **as it stood on that date** — so a defence
/// protocolled on its last day and typed in days later is timely, and one protocolled after
/// the period is recorded as untimely (the facts stay admitted, art. 23). The pt-BR reason
/// when not.
#[expect(
    clippy::too_many_arguments,
    reason = "the procedure's state and each act that moves it"
)]
pub fn check_act(
    acts: &[ProcedureAct],
    act: &ProcedureAct,
    start: NaiveDate,
    floor: NaiveDate,
    today: NaiveDate,
    cal: &Calendar,
    rules: &DeadlineRules,
    days: ProcedureDays,
) -> Result<(), ActRefusal> {
    let on = act.date();
    let noticed_later = match act {
        ProcedureAct::Decisao { notified_on, .. } => *notified_on,
        _ => on,
    };
    if on > today || noticed_later > today {
        return Err(ActRefusal::Date("A data do ato não pode ser futura."));
    }
    if on < start {
        return Err(ActRefusal::Date(
            "A data do ato não pode ser anterior à do auto de infração.",
        ));
    }
    if !act.is_of_the_account() && on < floor {
        return Err(ActRefusal::Date(
            "A data do ato não pode ser anterior à do ato que ele segue no procedimento.",
        ));
    }
    let p = procedure_state(acts, on, cal, rules, days);
    check_act_order(&p, acts, act).map_err(ActRefusal::Order)
}

/// Why an act cannot be recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActRefusal {
    /// Its date cannot be (future, before the act it follows): the pt-BR reason.
    Date(&'static str),
    /// It cannot follow the procedure as it stood on its date: the pt-BR reason.
    Order(&'static str),
}

/// Whether `act` may follow `acts`, the procedure standing as `p` on the act's own date; the
/// pt-BR reason when not.
fn check_act_order(
    p: &ProcedureState,
    acts: &[ProcedureAct],
    act: &ProcedureAct,
) -> Result<(), &'static str> {
    if p.stage == "anulado" {
        return Err("O auto foi anulado: o procedimento está encerrado.");
    }
    let decided = acts
        .iter()
        .any(|a| matches!(a, ProcedureAct::Decisao { .. }));
    let (ok, message) = match act {
        ProcedureAct::Notificacao { .. } => (
            p.notified_on.is_none(),
            "A notificação deve ser única, posterior à infração e não futura.",
        ),
        // A defence after the period is recorded as untimely: finality does not bar it.
        ProcedureAct::Defesa { .. } => {
            return if p.notified_on.is_some() && p.defence_timely.is_none() && !decided {
                Ok(())
            } else {
                Err("A defesa exige notificação prévia e não pode ser apresentada duas vezes.")
            };
        }
        ProcedureAct::Decisao {
            decided_on,
            notified_on,
            ..
        } => (
            matches!(p.stage, "notificado" | "defesa_apresentada") && decided_on <= notified_on,
            "A decisão exige notificação do auto, e sua ciência não pode anteceder a decisão.",
        ),
        ProcedureAct::Reconsideracao { .. } => {
            return if decided
                && p.reconsideration_timely.is_none()
                && matches!(p.stage, "decidido" | "definitivo")
            {
                Ok(())
            } else {
                Err("O pedido de reconsideração exige decisão da Secretaria (art. 22, §3º).")
            };
        }
        ProcedureAct::DecisaoPrefeito { .. } => (
            p.stage == "reconsideracao",
            "A decisão do Prefeito exige pedido de reconsideração pendente.",
        ),
        ProcedureAct::Pagamento {
            amount_centavos,
            guia,
            ..
        } => {
            return if p.notified_on.is_none() {
                Err("O pagamento exige a notificação do auto, com a guia de recolhimento.")
            } else if *amount_centavos <= 0 {
                Err("O valor pago deve ser positivo (em centavos).")
            } else if guia.trim().is_empty() {
                Err("Informe o número da guia (DAM) paga.")
            } else {
                Ok(())
            };
        }
        ProcedureAct::Retificacao {
            voids,
            guia,
            reason,
            ..
        } => {
            return check_rectification(acts, *voids, guia.as_deref(), reason);
        }
        ProcedureAct::InscricaoDividaAtiva { number, .. } => {
            let inscribed = acts
                .iter()
                .any(|a| matches!(a, ProcedureAct::InscricaoDividaAtiva { .. }));
            return if inscribed {
                Err("A multa já foi inscrita em dívida ativa.")
            } else if number.trim().is_empty() {
                Err("Informe o número da inscrição em dívida ativa.")
            } else if p.payment_due.as_ref().is_none_or(|d| act.date() <= d.due) {
                Err("Só a multa vencida e não paga é inscrita em dívida ativa (art. 23).")
            } else {
                Ok(())
            };
        }
    };
    if !ok || (p.final_ && !matches!(act, ProcedureAct::Notificacao { .. })) {
        return Err(message);
    }
    Ok(())
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod per_rule;
