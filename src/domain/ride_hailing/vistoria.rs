//! Vistorias of the ride-hailing law (draft consolidated law): presenting the vehicle within
//! 5 days of approval (art. 9º), the annual vistoria (art. 16), 15 days to fix a failed one
//! (art. 16 §2º), and the impedimento that follows (art. 26, II).

use chrono::{Duration, NaiveDate};
use serde::{Deserialize, Serialize};

use super::AuthorizationStatus;
use crate::domain::calendar::{Calendar, Deadline, DeadlineRules, deadline_in_days};
use crate::domain::dates::add_months;
use crate::domain::legal_basis::RideHailingLegalBasis;

/// A vistoria by the SMF, as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct RideHailingVistoria {
    pub performed_on: NaiveDate,
    pub approved: bool,
    pub inspector: String,
    #[serde(default)]
    pub notes: String,
    /// A failed vistoria: the day the driver was notified of what to fix (art. 16 §2º).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notified_on: Option<NaiveDate>,
}

/// Where an authorization stands with its vistorias on a date.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct InspectionReport {
    /// APP-ART9: the vehicle must be presented by this day.
    pub presentation_due: Deadline,
    pub last_vistoria: Option<RideHailingVistoria>,
    /// APP-ART16: last day of the annual vistoria in force.
    pub vistoria_valid_until: Option<NaiveDate>,
    /// APP-ART16-P2: after a failed vistoria, the last day to fix it.
    pub fix_due: Option<Deadline>,
    /// APP-ART26-II: barred from operating since this day (until it passes a vistoria).
    pub impedida_since: Option<NaiveDate>,
    /// `None` when the vistorias allow operating.
    pub status: Option<AuthorizationStatus>,
    /// APP-ART16-P1: the latest extra-vistoria summons, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summons: Option<SummonsStanding>,
}

/// APP-ART9, APP-ART16, APP-ART16-P2, APP-ART26-II (AMB-38): the vistoria standing of an
/// authorization approved on `approved_on`, on `today`.
pub fn inspection_report(
    approved_on: NaiveDate,
    vistorias: &[RideHailingVistoria],
    today: NaiveDate,
    cal: &Calendar,
    rules: &DeadlineRules,
    basis: &RideHailingLegalBasis,
) -> InspectionReport {
    let presentation_due =
        deadline_in_days(approved_on, basis.vistoria_presentation_days, cal, rules);
    let mut done: Vec<&RideHailingVistoria> = vistorias
        .iter()
        .filter(|v| v.performed_on <= today)
        .collect();
    done.sort_by_key(|v| v.performed_on);
    let mut report = InspectionReport {
        presentation_due,
        last_vistoria: done.last().map(|v| (*v).clone()),
        vistoria_valid_until: None,
        fix_due: None,
        impedida_since: None,
        status: None,
        summons: None,
    };
    let due = report.presentation_due.due;
    // Art. 9º: not presented in 5 days → the approval lapses (AMB-38); a late vistoria does
    // not revive it.
    match done.first() {
        None if today > due => {
            report.status = Some(AuthorizationStatus::Caducada);
            return report;
        }
        None => return report,
        Some(first) if first.performed_on > due => {
            report.status = Some(AuthorizationStatus::Caducada);
            return report;
        }
        Some(_) => {}
    }
    let Some(last) = done.last() else {
        return report;
    };
    if last.approved {
        let until = add_months(
            last.performed_on,
            basis.vistoria_validity_months,
            basis.month_overflow,
        );
        report.vistoria_valid_until = Some(until);
        if today > until {
            report.status = Some(AuthorizationStatus::VistoriaVencida);
        }
        return report;
    }
    // Art. 16 §2º: 15 days from the notice of the failure; then art. 26, II: impedida.
    let fix = deadline_in_days(
        last.notified_on.unwrap_or(last.performed_on),
        basis.vistoria_fix_days,
        cal,
        rules,
    );
    if today > fix.due {
        report.impedida_since = Some(fix.due + Duration::days(1));
        report.status = Some(AuthorizationStatus::Impedida);
    }
    report.fix_due = Some(fix);
    report
}

/// APP-ART16-P1 (art. 16, §1º): an extra vistoria ordered by notice to the driver and the
/// platform, with the day to attend set in the notice (AMB-38).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct VistoriaSummons {
    /// When the driver received the notice.
    pub notified_on: NaiveDate,
    /// When the platform received it, if recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform_notified_on: Option<NaiveDate>,
    /// The last day to present the car, as set in the notice.
    pub attend_by: NaiveDate,
    pub reason: String,
}

/// Where the latest summons stands on a date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct SummonsStanding {
    pub summons: VistoriaSummons,
    /// The first vistoria on or after the notice, passed or failed (a failed one then runs
    /// the 15 days of art. 16, §2º).
    pub attended_on: Option<NaiveDate>,
    /// Not attended by the day set: the infraction of art. 26, I (leve, AMB-38).
    pub overdue: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infraction: Option<&'static str>,
}

/// APP-ART16-P1, APP-ART26-I (AMB-38): the latest summons and whether it was answered in
/// time, on `today`. Missing it is a fine, not an impedimento: the status does not change.
pub fn summons_standing(
    summons: &[VistoriaSummons],
    vistorias: &[RideHailingVistoria],
    today: NaiveDate,
) -> Option<SummonsStanding> {
    let latest = summons
        .iter()
        .filter(|s| s.notified_on <= today)
        .max_by_key(|s| s.notified_on)?;
    let attended_on = vistorias
        .iter()
        .map(|v| v.performed_on)
        .filter(|&on| on >= latest.notified_on && on <= today)
        .min();
    let overdue = attended_on.map_or(today > latest.attend_by, |on| on > latest.attend_by);
    Some(SummonsStanding {
        summons: latest.clone(),
        attended_on,
        overdue,
        infraction: overdue.then_some("APP-ART26-I"),
    })
}

/// APP-ART16-P1: a summons is notified (not in the future) and sets a day to attend that is
/// not before the notice.
pub fn app_art16_p1_check(s: &VistoriaSummons, today: NaiveDate) -> Vec<super::RuleFailure> {
    let mut out = Vec::new();
    if s.notified_on > today {
        let msg = "A notificação não pode ter data futura.".to_owned();
        super::fail(&mut out, "APP-ART16-P1", "art. 16, §1º", "notified_on", msg);
    }
    if s.attend_by < s.notified_on {
        let msg = format!(
            "O prazo para apresentar o veículo deve terminar no dia da notificação ({}) ou depois.",
            s.notified_on.format("%d/%m/%Y")
        );
        super::fail(&mut out, "APP-ART16-P1", "art. 16, §1º", "attend_by", msg);
    }
    out
}

/// APP-ART10: the vistoria is preceded by payment of the fees: none before `fee_paid_on`.
pub fn app_art10_fee_before_vistoria(
    fee_paid_on: NaiveDate,
    performed_on: NaiveDate,
) -> Option<super::RuleFailure> {
    (performed_on < fee_paid_on).then(|| super::RuleFailure {
        rule: "APP-ART10".into(),
        article: "art. 10".into(),
        field: "performed_on",
        message: format!(
            "A vistoria é precedida do pagamento das taxas, feito em {}.",
            fee_paid_on.format("%d/%m/%Y")
        ),
    })
}

/// APP-ART6-PU (AMB-17): ride-pooling is allowed within the vehicle's capacity — the
/// passengers of every shared ride together, the driver excluded.
pub fn app_art6_pu_pooling_fits(passengers: u32, capacity_including_driver: i32) -> bool {
    i64::from(passengers) < i64::from(capacity_including_driver)
}

/// APP-ART13-XIX: a change of registration data is reported within 7 days (DL-2, DL-5; the
/// change is not a notification, so DL-4 does not move the start). A late report is the
/// infraction of art. 26, III (leve): a warning for the SMF, never a refusal of the report.
pub fn app_art13_xix_report(
    changed_on: NaiveDate,
    reported_on: NaiveDate,
    cal: &Calendar,
    rules: &DeadlineRules,
    basis: &RideHailingLegalBasis,
) -> (Deadline, Option<super::RuleFailure>) {
    let from_change = DeadlineRules {
        notification_on_closed_day_moves: false,
        ..rules.clone()
    };
    let due = deadline_in_days(changed_on, basis.data_change_report_days, cal, &from_change);
    let late = (reported_on > due.due).then(|| super::RuleFailure {
        rule: "APP-ART13-XIX".into(),
        article: "art. 13, XIX".into(),
        field: "reported_on",
        message: format!(
            "Alteração comunicada em {}, depois do prazo de 7 dias, que terminou em {}: infração do art. 26, III (leve).",
            reported_on.format("%d/%m/%Y"),
            due.due.format("%d/%m/%Y")
        ),
    });
    (due, late)
}

/// APP-ART16-P2 (art. 16, §2º): the 15 days to fix a vehicle count from the notice of a
/// *failed* vistoria; an approved one has nothing to notify. Returns what is wrong with a
/// notice date given, if anything (the `notified_on` field).
pub fn app_art16_p2_notice_only_on_failure(approved: bool, notified: bool) -> Option<&'static str> {
    (approved && notified)
        .then_some("A ciência das correções só se aplica a vistoria reprovada (art. 16, §2º).")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::calendar::CalendarSettings;

    #[test]
    fn app_art16_p2_a_notice_to_fix_follows_only_a_failed_vistoria() {
        assert_eq!(app_art16_p2_notice_only_on_failure(false, true), None);
        assert_eq!(app_art16_p2_notice_only_on_failure(false, false), None);
        assert_eq!(app_art16_p2_notice_only_on_failure(true, false), None);
        assert!(app_art16_p2_notice_only_on_failure(true, true).is_some());
    }

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    fn v(on: NaiveDate, approved: bool, notified_on: Option<NaiveDate>) -> RideHailingVistoria {
        RideHailingVistoria {
            performed_on: on,
            approved,
            inspector: "Fiscal SMF".into(),
            notes: String::new(),
            notified_on,
        }
    }

    fn report(vistorias: &[RideHailingVistoria], today: NaiveDate) -> InspectionReport {
        let cal = Calendar::new(CalendarSettings::default(), []);
        // Approved on Monday 02/06/2025: day 5 is Saturday 07/06 → Monday 09/06 (DL-5).
        inspection_report(
            d(2025, 6, 2),
            vistorias,
            today,
            &cal,
            &DeadlineRules::default(),
            &RideHailingLegalBasis::draft_2023(),
        )
    }

    #[test]
    fn app_art16_p1_summons_answered_late_or_never_is_art26_i() {
        let summons = vec![VistoriaSummons {
            notified_on: d(2027, 3, 1),
            platform_notified_on: Some(d(2027, 3, 1)),
            attend_by: d(2027, 3, 10),
            reason: "Denúncia de pneus lisos".into(),
        }];
        let annual = v(d(2026, 12, 1), true, None);
        let cases = [
            // Before the notice: nothing to report.
            (vec![annual.clone()], d(2027, 2, 28), None),
            // Pending, within the deadline (the day itself included).
            (vec![annual.clone()], d(2027, 3, 10), Some((None, false))),
            (vec![annual.clone()], d(2027, 3, 11), Some((None, true))),
            // Attended on the last day, even if failed: complied.
            (
                vec![annual.clone(), v(d(2027, 3, 10), false, None)],
                d(2027, 3, 20),
                Some((Some(d(2027, 3, 10)), false)),
            ),
            // Attended late: the infraction stands.
            (
                vec![annual, v(d(2027, 3, 12), true, None)],
                d(2027, 3, 20),
                Some((Some(d(2027, 3, 12)), true)),
            ),
        ];
        for (vistorias, today, want) in cases {
            let got = summons_standing(&summons, &vistorias, today);
            assert_eq!(
                got.as_ref().map(|s| (s.attended_on, s.overdue)),
                want,
                "{today}"
            );
            if let Some(s) = got {
                assert_eq!(s.infraction.is_some(), s.overdue);
            }
        }
        let mut bad = summons[0].clone();
        bad.attend_by = d(2027, 2, 28);
        let fields: Vec<_> = app_art16_p1_check(&bad, d(2027, 3, 2))
            .iter()
            .map(|f| f.field)
            .collect();
        assert_eq!(fields, ["attend_by"]);
        assert!(
            app_art16_p1_check(&summons[0], d(2027, 2, 1))
                .iter()
                .any(|f| f.field == "notified_on")
        );
    }

    #[test]
    fn app_art10_no_vistoria_before_the_fees_are_paid() {
        assert!(app_art10_fee_before_vistoria(d(2026, 11, 20), d(2026, 11, 20)).is_none());
        let f = app_art10_fee_before_vistoria(d(2026, 11, 20), d(2026, 11, 19));
        assert_eq!(f.as_ref().map(|f| f.rule.as_ref()), Some("APP-ART10"));
    }

    #[test]
    fn app_art6_pu_pooling_within_capacity() {
        assert!(app_art6_pu_pooling_fits(4, 5));
        assert!(!app_art6_pu_pooling_fits(5, 5));
        assert!(app_art6_pu_pooling_fits(6, 7));
    }

    #[test]
    fn app_art30_entry_into_force_is_a_parameter_unknown_for_the_draft() {
        let b = RideHailingLegalBasis::draft_2023();
        assert_eq!(b.entry_into_force, None);
        assert_eq!(b.version, "APP-MINUTA-2023-11-23/v1");
    }

    #[test]
    fn app_art13_xix_data_changes_reported_within_seven_days() {
        let cal = Calendar::new(CalendarSettings::default(), []);
        let b = RideHailingLegalBasis::draft_2023();
        let r = DeadlineRules::default();
        // Changed Monday 01/06/2026: day 7 is Monday 08/06.
        let (due, late) = app_art13_xix_report(d(2026, 6, 1), d(2026, 6, 8), &cal, &r, &b);
        assert_eq!(due.due, d(2026, 6, 8));
        assert!(late.is_none());
        let (_, late) = app_art13_xix_report(d(2026, 6, 1), d(2026, 6, 9), &cal, &r, &b);
        assert_eq!(
            late.as_ref().map(|f| f.rule.as_ref()),
            Some("APP-ART13-XIX")
        );
        // Changed Tuesday 01/12/2026: day 7 is Tuesday 08/12 (no extension needed).
        let (due, _) = app_art13_xix_report(d(2026, 12, 1), d(2026, 12, 1), &cal, &r, &b);
        assert_eq!(due.due, d(2026, 12, 8));
    }

    #[test]
    fn app_art9_five_days_to_present_the_vehicle() {
        let r = report(&[], d(2025, 6, 9));
        assert_eq!(r.presentation_due.due, d(2025, 6, 9));
        assert_eq!(r.status, None);
        assert_eq!(
            report(&[], d(2025, 6, 10)).status,
            Some(AuthorizationStatus::Caducada)
        );
        // Presented late: still lapsed.
        let late = [v(d(2025, 6, 10), true, None)];
        assert_eq!(
            report(&late, d(2025, 6, 11)).status,
            Some(AuthorizationStatus::Caducada)
        );
        let on_time = [v(d(2025, 6, 9), true, None)];
        assert_eq!(report(&on_time, d(2025, 6, 11)).status, None);
    }

    #[test]
    fn app_art16_annual_vistoria_valid_through_its_anniversary() {
        let done = [v(d(2025, 6, 5), true, None)];
        let r = report(&done, d(2026, 6, 5));
        assert_eq!(r.vistoria_valid_until, Some(d(2026, 6, 5)));
        assert_eq!(r.status, None);
        assert_eq!(
            report(&done, d(2026, 6, 6)).status,
            Some(AuthorizationStatus::VistoriaVencida)
        );
    }

    #[test]
    fn app_art16_p2_and_app_art26_ii_fifteen_days_then_impedida() {
        // Failed on 03/06, notified Friday 06/06/2025: day 15 is Saturday 21/06 → Monday 23/06.
        let failed = vec![v(d(2025, 6, 3), false, Some(d(2025, 6, 6)))];
        let r = report(&failed, d(2025, 6, 23));
        assert_eq!(r.fix_due.as_ref().unwrap().due, d(2025, 6, 23));
        assert_eq!(r.status, None);
        let r = report(&failed, d(2025, 6, 24));
        assert_eq!(r.status, Some(AuthorizationStatus::Impedida));
        assert_eq!(r.impedida_since, Some(d(2025, 6, 24)));
        // Passing a new vistoria lifts the impedimento.
        let mut fixed = failed;
        fixed.push(v(d(2025, 6, 30), true, None));
        assert_eq!(report(&fixed, d(2025, 7, 1)).status, None);
    }
}
