//! Ride-hailing infractions and sanctions (draft consolidated law,
//! arts. 24–27): the catalogue as data, fines in UPFG and R$, recidivism, and the status of an
//! authorization under suspension or cassação.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;

use super::AuthorizationStatus;
use crate::domain::calendar::{
    Calendar, Deadline, DeadlineRules, deadline_in_days, sanction_end_days, sanction_end_months,
    within_lookback,
};
use crate::domain::dates::local_date;
use crate::domain::legal_basis::RideHailingLegalBasis;
use crate::domain::rule::RuleFailure;

pub use super::infractions::{InfractionClass, InfractionType, Offender, Penalty};

/// A consequence the law attaches to an infraction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Consequence {
    /// Fine in UPFG (art. 25); `centavos` when the UPF value of the year is known (W3).
    Fine {
        upf: u32,
        centavos: Option<i64>,
        article: String,
    },
    /// Suspension of the authorization for `[from, until)` (DL-9).
    Suspension {
        from: NaiveDate,
        until: NaiveDate,
        article: String,
    },
    /// Revocation by cassação (art. 26, §2º).
    Cassacao { from: NaiveDate, article: String },
    /// Notice to the platform to suspend the vehicle until regularized (art. 27, PU).
    PlatformNotice { article: String },
}

/// An earlier infraction of the same offender.
#[derive(Debug, Clone)]
pub struct PriorInfraction {
    pub id: String,
    pub committed_on: NaiveDate,
    /// Annulled penalties do not count (AMB-29).
    pub annulled: bool,
}

/// Consequences of infraction `kind` committed on `committed_on`, given the offender's prior
/// infractions and the UPF value (centavos) of the year, if known. The sanction starts on
/// `effective` (the date the decision takes effect). The fine is the class's (APP-ART25);
/// a repeat of the same infraction within the recidivism window brings the catalogue's
/// `on_repeat` (APP-ART26-P1, APP-ART26-P2, APP-ART27-PU), a first offence its `penalty`
/// (APP-ART26-V).
pub fn consequences(
    kind: &InfractionType,
    committed_on: NaiveDate,
    effective: NaiveDate,
    prior: &[PriorInfraction],
    upf_centavos: Option<i64>,
    basis: &RideHailingLegalBasis,
) -> Vec<Consequence> {
    let upf = basis.fine_upf(kind.class);
    let mut out = vec![Consequence::Fine {
        upf,
        centavos: upf_centavos.map(|v| v * i64::from(upf)),
        article: basis.fine_citation.clone(),
    }];
    // AMB-26: same article and inciso, committed within the window (DL-10), not annulled.
    let repeat = prior.iter().any(|p| {
        !p.annulled
            && p.id == kind.id
            && within_lookback(
                p.committed_on,
                committed_on,
                basis.recidivism_window_months,
                basis.month_overflow,
            )
    });
    let penalty = if repeat && kind.on_repeat.is_some() {
        kind.on_repeat.as_ref()
    } else {
        kind.penalty.as_ref()
    };
    out.extend(penalty.map(|p| match p {
        // DL-9: the suspension's exclusive end, by months or by days.
        Penalty::Suspension {
            months, citation, ..
        } if months.is_some() => Consequence::Suspension {
            from: effective,
            until: sanction_end_months(effective, months.unwrap_or_default(), basis.month_overflow),
            article: citation.clone(),
        },
        Penalty::Suspension { days, citation, .. } => Consequence::Suspension {
            from: effective,
            until: sanction_end_days(effective, days.unwrap_or_default()),
            article: citation.clone(),
        },
        Penalty::Cassacao { citation } => Consequence::Cassacao {
            from: effective,
            article: citation.clone(),
        },
        Penalty::PlatformNotice { citation } => Consequence::PlatformNotice {
            article: citation.clone(),
        },
    }));
    out
}

/// The procedure's deadlines once the notice of an auto was delivered and filed (juntada).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct AutoDeadlines {
    /// APP-ART22-P1: dispatch of the notice within 90 days of the auto (DL-5 applies, INTERP).
    pub dispatch_due: Deadline,
    pub dispatched_in_time: bool,
    /// AMB-34 / DL-3: defence within 15 days of the juntada (AMB-33).
    pub defence_due: Deadline,
    /// AMB-32: payment within 30 days of the effective end of the defence period.
    pub payment_due: Deadline,
    /// A pt-BR recommendation when the notice was late (AMB-33: archive the auto).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recommendation: Option<&'static str>,
}

/// APP-ART22-P1/P2 with AMB-32…34: every deadline of the procedure of an auto.
pub fn auto_deadlines(
    drawn_up_on: NaiveDate,
    notified_on: NaiveDate,
    juntada_on: NaiveDate,
    cal: &Calendar,
    rules: &DeadlineRules,
    basis: &RideHailingLegalBasis,
) -> AutoDeadlines {
    // The 90 days run from the drawing-up itself, not from a notification.
    let dispatch_rules = DeadlineRules {
        notification_on_closed_day_moves: false,
        ..rules.clone()
    };
    let dispatch_due = deadline_in_days(
        drawn_up_on,
        basis.notice_dispatch_days,
        cal,
        &dispatch_rules,
    );
    let dispatched_in_time = notified_on <= dispatch_due.due;
    let defence_due = deadline_in_days(juntada_on, basis.defence_days, cal, rules);
    let payment_due = deadline_in_days(defence_due.due, basis.payment_days, cal, &dispatch_rules);
    AutoDeadlines {
        recommendation: (!dispatched_in_time).then_some(
            "Notificação intempestiva: expedida depois de 90 dias da lavratura do auto (art. 22, §1º); recomenda-se o arquivamento.",
        ),
        dispatch_due,
        dispatched_in_time,
        defence_due,
        payment_due,
    }
}

/// A sanction in force on an authorization, as registered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Sanction {
    pub kind: SanctionKind,
    pub effective_from: NaiveDate,
    /// Suspensions: the day the authorization is reinstated (DL-9, exclusive end).
    pub until: Option<NaiveDate>,
    pub reason: String,
    pub legal_basis: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SanctionKind {
    /// Suspensão (art. 26, V and §1º); the JSON value the API has always used.
    #[serde(rename = "suspension")]
    Suspensao,
    Cassacao,
}

impl SanctionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Suspensao => "suspension",
            Self::Cassacao => "cassacao",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "suspension" => Some(Self::Suspensao),
            "cassacao" => Some(Self::Cassacao),
            _ => None,
        }
    }
}

/// The status of an authorization at `now`: revocation, cassação, expiry and suspension
/// first (`status_with_sanctions`); one they leave active may still be barred by its
/// `standing` — driver or car descadastrado (art. 24, I), vistorias (arts. 9º, 16, 26, II).
pub fn authorization_status(
    valid_until: NaiveDate,
    revoked_at: Option<DateTime<Utc>>,
    sanctions: &[Sanction],
    standing: Option<AuthorizationStatus>,
    now: DateTime<Utc>,
) -> (AuthorizationStatus, Option<NaiveDate>) {
    match status_with_sanctions(valid_until, revoked_at, sanctions, now) {
        (AuthorizationStatus::Ativa, _) => (standing.unwrap_or(AuthorizationStatus::Ativa), None),
        other => other,
    }
}

/// Status at `now` with sanctions: revoked or cassada first, then expired, then suspended
/// (with the reinstatement day), else active.
pub fn status_with_sanctions(
    valid_until: NaiveDate,
    revoked_at: Option<DateTime<Utc>>,
    sanctions: &[Sanction],
    now: DateTime<Utc>,
) -> (AuthorizationStatus, Option<NaiveDate>) {
    let base = super::status_at(valid_until, revoked_at, now);
    if base == AuthorizationStatus::Revogada {
        return (base, None);
    }
    let today = local_date(now);
    if sanctions
        .iter()
        .any(|s| s.kind == SanctionKind::Cassacao && s.effective_from <= today)
    {
        return (AuthorizationStatus::Cassada, None);
    }
    if base == AuthorizationStatus::Vencida {
        return (base, None);
    }
    let suspended_until = sanctions
        .iter()
        .filter(|s| s.kind == SanctionKind::Suspensao && s.effective_from <= today)
        .filter_map(|s| s.until.filter(|u| today < *u))
        .max();
    match suspended_until {
        Some(until) => (AuthorizationStatus::Suspensa, Some(until)),
        None => (AuthorizationStatus::Ativa, None),
    }
}

/// APP-ART8 (art. 8º, one vehicle per driver; INTERP one driver per vehicle): whether an
/// authorization still binds its driver and vehicle at `now`. Suspended ones do; expired,
/// revoked and cassadas do not (AMB-54: no bar after a ride-hailing cassação).
pub fn binds_driver_and_vehicle(
    valid_until: NaiveDate,
    revoked_at: Option<DateTime<Utc>>,
    sanctions: &[Sanction],
    now: DateTime<Utc>,
) -> bool {
    matches!(
        status_with_sanctions(valid_until, revoked_at, sanctions, now).0,
        AuthorizationStatus::Ativa | AuthorizationStatus::Suspensa
    )
}

/// APP-ART22 §§1º–2º: the notice reaches the driver after the auto is
/// drawn up, and neither its delivery nor its juntada is in the future (the charter auto's
/// rule too, `check_act`). The field and the pt-BR reason when not.
pub fn app_art22_notice_dates(
    drawn_up_on: NaiveDate,
    notified_on: NaiveDate,
    juntada_on: NaiveDate,
    today: NaiveDate,
) -> Result<(), (&'static str, &'static str)> {
    if notified_on < drawn_up_on {
        return Err((
            "notified_on",
            "A notificação não pode ser anterior à lavratura do auto.",
        ));
    }
    for (field, on) in [("notified_on", notified_on), ("juntada_on", juntada_on)] {
        if on > today {
            return Err((field, "A data não pode ser futura."));
        }
    }
    Ok(())
}

/// What the register holds of one authorization of a driver, to judge what the driver held on
/// a past date.
#[derive(Debug, Clone)]
pub struct AuthorizationFacts {
    pub valid_from: NaiveDate,
    pub valid_until: NaiveDate,
    pub revoked_at: Option<DateTime<Utc>>,
    pub sanctions: Vec<Sanction>,
}

/// What a driver held at `at`: `Ativa` when an authorization was in force, `Suspensa` when
/// the only one was suspended, `None` when none bound the driver.
pub fn held_at(facts: &[AuthorizationFacts], at: DateTime<Utc>) -> Option<AuthorizationStatus> {
    let on = local_date(at);
    let statuses: Vec<AuthorizationStatus> = facts
        .iter()
        .filter(|f| f.valid_from <= on)
        .map(|f| status_with_sanctions(f.valid_until, f.revoked_at, &f.sanctions, at).0)
        .collect();
    [AuthorizationStatus::Ativa, AuthorizationStatus::Suspensa]
        .into_iter()
        .find(|s| statuses.contains(s))
}

/// Whether infraction `kind` can apply to a driver who held `held` when it was committed.
/// `None`: it can.
/// - `Unauthorized` (APP-ART27, AMB-36): illegal transport is service *without* a valid
///   authorization; a driver whose authorization was in force is fined for an authorized
///   driver's infraction instead.
/// - `Authorized` (APP-ART26 I–VI, AMB-37): duties of an authorized driver; without any
///   authorization (in force or suspended) the conduct is service without one.
pub fn precondition(
    kind: &InfractionType,
    held: Option<AuthorizationStatus>,
    committed_on: NaiveDate,
) -> Option<RuleFailure> {
    let date = committed_on.format("%d/%m/%Y");
    let message = match kind.offender {
        Offender::Unauthorized if held == Some(AuthorizationStatus::Ativa) => format!(
            "O condutor tinha autorização em vigor em {date}: a infração do {} só se aplica a quem presta o serviço sem autorização válida. Enquadre a conduta numa infração de condutor autorizado.",
            kind.article
        ),
        Offender::Authorized if held.is_none() => format!(
            "O condutor não tinha autorização em {date}: a infração do {} é de condutor autorizado; sem autorização válida, a conduta é a de quem presta o serviço sem autorização.",
            kind.article
        ),
        _ => return None,
    };
    Some(RuleFailure {
        rule: kind.id.clone().into(),
        article: kind.article.clone().into(),
        field: "infraction_id",
        message,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    /// An infraction of the draft's catalogue.
    fn infraction(id: &str) -> InfractionType {
        RideHailingLegalBasis::draft_2023()
            .infraction(id)
            .cloned()
            .unwrap()
    }

    fn prior(id: &str, on: NaiveDate) -> PriorInfraction {
        PriorInfraction {
            id: id.into(),
            committed_on: on,
            annulled: false,
        }
    }

    // APP-ART25: one fine per class, in UPFG and in R$ when the UPF value is known.
    #[test]
    fn app_art25_fines_by_class() {
        let b = RideHailingLegalBasis::draft_2023();
        let upf = |id| match consequences(
            &infraction(id),
            d(2026, 5, 1),
            d(2026, 6, 1),
            &[],
            Some(10_000),
            &b,
        )[0]
        {
            Consequence::Fine { upf, centavos, .. } => (upf, centavos),
            _ => unreachable!(),
        };
        assert_eq!(upf("APP-ART26-I"), (115, Some(1_150_000)));
        assert_eq!(upf("APP-ART26-IV"), (570, Some(5_700_000)));
        assert_eq!(upf("APP-ART27"), (950, Some(9_500_000)));
        assert_eq!(b.fine_upf(InfractionClass::Media), 285);
        let c = consequences(
            &infraction("APP-ART26-III"),
            d(2026, 5, 1),
            d(2026, 6, 1),
            &[],
            None,
            &b,
        );
        assert_eq!(
            c,
            vec![Consequence::Fine {
                upf: 115,
                centavos: None,
                article: "art. 25".into()
            }]
        );
    }

    // APP-ART26-V: grave + 12 months of suspension; APP-ART26-P2: repeating V → cassação.
    #[test]
    fn app_art26_v_suspension_and_app_art26_p2_cassacao() {
        let b = RideHailingLegalBasis::draft_2023();
        let v = &infraction("APP-ART26-V");
        let first = consequences(v, d(2026, 1, 10), d(2026, 2, 1), &[], None, &b);
        assert_eq!(
            first[1],
            Consequence::Suspension {
                from: d(2026, 2, 1),
                until: d(2027, 2, 1),
                article: "art. 26, V".into()
            }
        );
        let again = consequences(
            v,
            d(2026, 9, 1),
            d(2026, 10, 1),
            &[prior("APP-ART26-V", d(2026, 1, 10))],
            None,
            &b,
        );
        assert_eq!(
            again[1],
            Consequence::Cassacao {
                from: d(2026, 10, 1),
                article: "art. 26, §2º".into()
            }
        );
    }

    // APP-ART26-P1: repeating IV within 12 months (AMB-26, DL-10 inclusive) → 30 days.
    #[test]
    fn app_art26_p1_repeat_of_iv_suspends_for_thirty_days() {
        let b = RideHailingLegalBasis::draft_2023();
        let iv = &infraction("APP-ART26-IV");
        let within = consequences(
            iv,
            d(2026, 4, 10),
            d(2026, 5, 4),
            &[prior("APP-ART26-IV", d(2025, 4, 10))],
            None,
            &b,
        );
        assert_eq!(
            within[1],
            Consequence::Suspension {
                from: d(2026, 5, 4),
                until: d(2026, 6, 3),
                article: "art. 26, §1º".into()
            }
        );
        let outside = consequences(
            iv,
            d(2026, 4, 11),
            d(2026, 5, 4),
            &[prior("APP-ART26-IV", d(2025, 4, 10))],
            None,
            &b,
        );
        assert_eq!(outside.len(), 1);
        // A different inciso is not a repeat; an annulled penalty does not count (AMB-29).
        let other = consequences(
            iv,
            d(2026, 1, 1),
            d(2026, 2, 1),
            &[prior("APP-ART26-VI", d(2025, 6, 1))],
            None,
            &b,
        );
        assert_eq!(other.len(), 1);
        let annulled = PriorInfraction {
            annulled: true,
            ..prior("APP-ART26-IV", d(2025, 6, 1))
        };
        assert_eq!(
            consequences(iv, d(2026, 1, 1), d(2026, 2, 1), &[annulled], None, &b).len(),
            1
        );
    }

    // APP-ART27-PU: repeating clandestine service → notice to the platform.
    #[test]
    fn app_art27_pu_repeat_notifies_the_platform() {
        let b = RideHailingLegalBasis::draft_2023();
        let c = consequences(
            &infraction("APP-ART27"),
            d(2026, 3, 1),
            d(2026, 3, 2),
            &[prior("APP-ART27", d(2026, 1, 1))],
            None,
            &b,
        );
        assert_eq!(
            c[1],
            Consequence::PlatformNotice {
                article: "art. 27, parágrafo único".into()
            }
        );
    }

    // APP-ART8 / AMB-54: which authorizations keep their driver and vehicle bound.
    #[test]
    fn app_art8_suspended_binds_cassada_expired_and_revoked_do_not() {
        let at = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().to_utc();
        let now = at("2026-12-05T12:00:00Z");
        let sanction = |kind, until| Sanction {
            kind,
            effective_from: d(2026, 12, 1),
            until,
            reason: "r".into(),
            legal_basis: "b".into(),
        };
        let until = d(2027, 11, 20);
        assert!(binds_driver_and_vehicle(until, None, &[], now));
        assert!(binds_driver_and_vehicle(
            until,
            None,
            &[sanction(SanctionKind::Suspensao, Some(d(2026, 12, 31)))],
            now
        ));
        assert!(!binds_driver_and_vehicle(
            until,
            None,
            &[sanction(SanctionKind::Cassacao, None)],
            now
        ));
        assert!(!binds_driver_and_vehicle(d(2026, 12, 4), None, &[], now));
        assert!(!binds_driver_and_vehicle(
            until,
            Some(at("2026-12-02T10:00:00Z")),
            &[],
            now
        ));
    }

    // APP-ART22-P1: 90 days from the auto; AMB-33/34: defence from the juntada, payment after it.
    #[test]
    fn app_art22_p1_notice_deadlines_and_late_notice() {
        let b = RideHailingLegalBasis::draft_2023();
        let cal = Calendar::default();
        let rules = DeadlineRules::default();
        // Auto on Monday 02/03/2026: day 90 is Sunday 31/05 → dispatch due Monday 01/06.
        let dl = auto_deadlines(
            d(2026, 3, 2),
            d(2026, 5, 29),
            d(2026, 6, 3),
            &cal,
            &rules,
            &b,
        );
        assert_eq!(dl.dispatch_due.due, d(2026, 6, 1));
        assert!(dl.dispatched_in_time && dl.recommendation.is_none());
        // Juntada Wednesday 03/06 + 15 = Thursday 18/06; + 30 = Saturday 18/07 → Monday 20/07.
        assert_eq!(dl.defence_due.due, d(2026, 6, 18));
        assert_eq!(dl.payment_due.due, d(2026, 7, 20));
        let late = auto_deadlines(
            d(2026, 3, 2),
            d(2026, 6, 2),
            d(2026, 6, 3),
            &cal,
            &rules,
            &b,
        );
        assert!(!late.dispatched_in_time);
        assert!(late.recommendation.unwrap().contains("arquivamento"));
    }

    // APP-ART24-PU / DL-9: suspended on [from, until), reinstated on `until`; cassação wins.
    #[test]
    fn status_under_sanctions() {
        let at = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().to_utc();
        let s = Sanction {
            kind: SanctionKind::Suspensao,
            effective_from: d(2026, 12, 1),
            until: Some(d(2026, 12, 31)),
            reason: "r".into(),
            legal_basis: "art. 26, §1º".into(),
        };
        let until = d(2027, 11, 20);
        assert_eq!(
            status_with_sanctions(
                until,
                None,
                std::slice::from_ref(&s),
                at("2026-12-01T03:59:00Z")
            )
            .0,
            AuthorizationStatus::Ativa
        );
        assert_eq!(
            status_with_sanctions(
                until,
                None,
                std::slice::from_ref(&s),
                at("2026-12-01T04:00:00Z")
            ),
            (AuthorizationStatus::Suspensa, Some(d(2026, 12, 31)))
        );
        assert_eq!(
            status_with_sanctions(
                until,
                None,
                std::slice::from_ref(&s),
                at("2026-12-31T04:00:00Z")
            )
            .0,
            AuthorizationStatus::Ativa
        );
        let c = Sanction {
            kind: SanctionKind::Cassacao,
            until: None,
            ..s.clone()
        };
        assert_eq!(
            status_with_sanctions(until, None, &[s.clone(), c], at("2026-12-05T12:00:00Z")).0,
            AuthorizationStatus::Cassada
        );
        // The standing (descadastramento, vistorias) bars only what the sanctions leave
        // active: a suspension keeps its reinstatement day.
        let barred = Some(AuthorizationStatus::Impedida);
        let now = at("2026-12-05T12:00:00Z");
        assert_eq!(
            authorization_status(until, None, &[], barred, now),
            (AuthorizationStatus::Impedida, None)
        );
        assert_eq!(
            authorization_status(until, None, std::slice::from_ref(&s), barred, now),
            (AuthorizationStatus::Suspensa, Some(d(2026, 12, 31)))
        );
        assert_eq!(
            authorization_status(until, None, &[], None, now),
            (AuthorizationStatus::Ativa, None)
        );
    }
}

#[cfg(test)]
mod per_rule {
    //! One test per rule id of arts. 22–27 (each also covered by the tables above).
    use super::*;
    use crate::domain::calendar::{Calendar, CalendarSettings};

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    /// An infraction of the draft's catalogue.
    fn infraction(id: &str) -> InfractionType {
        RideHailingLegalBasis::draft_2023()
            .infraction(id)
            .cloned()
            .unwrap()
    }

    fn first(id: &str, prior: &[PriorInfraction]) -> Vec<Consequence> {
        consequences(
            &infraction(id),
            d(2026, 5, 1),
            d(2026, 6, 1),
            prior,
            None,
            &RideHailingLegalBasis::draft_2023(),
        )
    }

    fn upf_of(c: &[Consequence]) -> u32 {
        match c[0] {
            Consequence::Fine { upf, .. } => upf,
            _ => 0,
        }
    }

    #[test]
    fn app_art26_i_missed_vistoria_summons_is_leve_115() {
        assert_eq!(upf_of(&first("APP-ART26-I", &[])), 115);
        assert_eq!(infraction("APP-ART26-I").class, InfractionClass::Leve);
    }

    /// APP-ART5-P1: a platform registration is no municipal authorization; operating on it
    /// alone is clandestine transport (art. 27, AMB-36): gravíssima, 950 UPFG.
    #[test]
    fn app_art5_p1_platform_registration_alone_is_art27_gravissima_950() {
        let i = &infraction("APP-ART27");
        assert_eq!(i.class, InfractionClass::Gravissima);
        assert_eq!(upf_of(&first("APP-ART27", &[])), 950);
    }

    /// APP-ART13-XXII (AMB-34): a fine is due by the day the notice sets: 30 days after the
    /// defence period, extended to a business day.
    #[test]
    fn app_art13_xxii_fine_due_thirty_days_after_the_defence_period() {
        let dl = juntada_on_wednesday();
        // Defence ends Thursday 18/06; + 30 = Saturday 18/07 → Monday 20/07.
        assert_eq!(dl.payment_due.start_event, d(2026, 6, 18));
        assert_eq!(dl.payment_due.due, d(2026, 7, 20));
    }

    #[test]
    fn app_art26_iii_breach_of_art_13_is_leve_115() {
        assert_eq!(upf_of(&first("APP-ART26-III", &[])), 115);
    }

    #[test]
    fn app_art26_iv_street_pickup_is_grave_570() {
        assert_eq!(upf_of(&first("APP-ART26-IV", &[])), 570);
    }

    #[test]
    fn app_art26_vi_taxi_rank_is_grave_570() {
        assert_eq!(upf_of(&first("APP-ART26-VI", &[])), 570);
    }

    #[test]
    fn app_art24_pu_a_suspension_is_twelve_months() {
        let c = first("APP-ART26-V", &[]);
        assert_eq!(
            c[1],
            Consequence::Suspension {
                from: d(2026, 6, 1),
                until: d(2027, 6, 1),
                article: "art. 26, V".into(),
            }
        );
    }

    /// An auto of 20/05/2026, notified Monday 01/06, filed (juntada) Wednesday 03/06.
    fn juntada_on_wednesday() -> AutoDeadlines {
        auto_deadlines(
            d(2026, 5, 20),
            d(2026, 6, 1),
            d(2026, 6, 3),
            &Calendar::new(CalendarSettings::default(), []),
            &DeadlineRules::default(),
            &RideHailingLegalBasis::draft_2023(),
        )
    }

    #[test]
    fn app_art22_p2_defence_counts_from_the_juntada() {
        // 15 days from the juntada: Thursday 18/06.
        let dl = juntada_on_wednesday();
        assert_eq!(dl.defence_due.start_event, d(2026, 6, 3));
        assert_eq!(dl.defence_due.due, d(2026, 6, 18));
    }
}
