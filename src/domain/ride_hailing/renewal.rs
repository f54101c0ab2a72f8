//! The yearly renewal of a ride-hailing authorization. The draft says an authorization lasts
//! 12 months from the fee and is never extended (art. 3º, parágrafo único) and nothing of its
//! renewal; selo takes the reading AMB-66: a renewal is a new approval, judged on every
//! requirement of a grant, that names the authorization it renews.

use chrono::{Days, NaiveDate};

use super::{AuthorizationStatus, GrantDecision, GrantFacts, decide_grant, validity_until};
use crate::domain::legal_basis::RideHailingLegalBasis;
use crate::domain::rule::{Failures, RuleFailure, fail};

/// The authorization being renewed, as it stands on the renewal's day.
#[derive(Debug, Clone)]
pub struct Renewed {
    pub number: String,
    pub valid_until: NaiveDate,
    pub status: AuthorizationStatus,
    /// The number of the authorization that already renews it, if any.
    pub renewed_by: Option<String>,
}

/// The first day a renewal of an authorization ending on `valid_until` may be asked and paid
/// (AMB-66, `renewal_window_days`).
pub fn renewal_opens_on(valid_until: NaiveDate, basis: &RideHailingLegalBasis) -> NaiveDate {
    valid_until
        .checked_sub_days(Days::new(u64::from(basis.renewal_window_days)))
        .unwrap_or(valid_until)
}

/// AMB-66: only an authorization in force or expired by time, not yet renewed, is renewed; a
/// revoked, cassada, lapsed, suspended or barred one needs its own act first (or a new
/// request).
fn app_art3_pu_renewable(current: &Renewed, out: &mut Failures) {
    if let Some(by) = &current.renewed_by {
        fail(
            out,
            "APP-ART3-PU",
            "art. 3º, parágrafo único",
            "authorization",
            format!(
                "A autorização {} já foi renovada pela {by}.",
                current.number
            ),
        );
    }
    if !matches!(
        current.status,
        AuthorizationStatus::Ativa | AuthorizationStatus::Vencida
    ) {
        fail(
            out,
            "APP-ART3-PU",
            "art. 3º, parágrafo único",
            "authorization",
            format!(
                "A autorização {} está {}: só uma autorização ativa ou vencida pelo tempo é \
                 renovada; nas demais situações é preciso um novo pedido ou o ato que a regulariza.",
                current.number,
                current.status.label_pt()
            ),
        );
    }
}

/// AMB-66: the renewal is asked and its fee paid from `renewal_window_days` before the
/// current period ends.
fn app_art3_pu_renewal_window(
    current: &Renewed,
    fee_paid_on: NaiveDate,
    today: NaiveDate,
    basis: &RideHailingLegalBasis,
    out: &mut Failures,
) {
    let opens = renewal_opens_on(current.valid_until, basis);
    if today < opens {
        fail(
            out,
            "APP-ART3-PU",
            "art. 3º, parágrafo único",
            "authorization",
            format!(
                "A renovação da {} pode ser pedida a partir de {} ({} dias antes do fim da \
                 validade, {}).",
                current.number,
                opens.format("%d/%m/%Y"),
                basis.renewal_window_days,
                current.valid_until.format("%d/%m/%Y")
            ),
        );
    } else if fee_paid_on < opens {
        fail(
            out,
            "APP-ART3-PU",
            "art. 3º, parágrafo único",
            "fee_paid_on",
            format!(
                "As taxas pagas em {} são do período atual; a renovação pede o pagamento feito \
                 a partir de {}.",
                fee_paid_on.format("%d/%m/%Y"),
                opens.format("%d/%m/%Y")
            ),
        );
    }
}

/// Decides the renewal of `current` on the grant facts of the new year (whose one-to-one flags
/// leave `current` out). Every failed requirement is reported, not only the first.
pub fn decide_renewal(
    current: &Renewed,
    facts: &GrantFacts,
    basis: &RideHailingLegalBasis,
) -> Result<GrantDecision, Vec<RuleFailure>> {
    let mut failures = Vec::new();
    app_art3_pu_renewable(current, &mut failures);
    app_art3_pu_renewal_window(
        current,
        facts.fee_paid_on,
        facts.today,
        basis,
        &mut failures,
    );
    let grant = decide_grant(facts, basis);
    let (review, suspended) = match &grant {
        Ok(g) => (g.review.clone(), g.suspended.clone()),
        Err(more) => {
            failures.extend(more.iter().cloned());
            (Vec::new(), Vec::new())
        }
    };
    if !failures.is_empty() {
        return Err(failures);
    }
    // AMB-66: paid before the current period ends, the new year starts the day after it.
    let valid_from = match current.valid_until.checked_add_days(Days::new(1)) {
        Some(next) if basis.renewal_continuous && facts.fee_paid_on <= current.valid_until => next,
        _ => facts.fee_paid_on,
    };
    Ok(GrantDecision {
        valid_from,
        valid_until: validity_until(valid_from, basis),
        legal_basis_version: basis.version.clone(),
        review,
        suspended,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ride_hailing::tests::{compliant_grant_facts, d};

    fn current(valid_until: NaiveDate, status: AuthorizationStatus) -> Renewed {
        Renewed {
            number: "APP-2026/000002".into(),
            valid_until,
            status,
            renewed_by: None,
        }
    }

    #[test]
    fn amb_66_a_renewal_paid_in_time_starts_the_day_after_the_current_year() {
        let basis = RideHailingLegalBasis::draft_2023();
        let mut facts = compliant_grant_facts(d(2027, 10, 15));
        facts.fee_paid_on = d(2027, 10, 10);
        let c = current(d(2027, 11, 20), AuthorizationStatus::Ativa);
        let decision = decide_renewal(&c, &facts, &basis).unwrap();
        assert_eq!(decision.valid_from, d(2027, 11, 21));
        assert_eq!(decision.valid_until, d(2028, 11, 21));
        // Paid after the year ended (expired by time): from the payment, with the gap uncovered.
        let mut late = compliant_grant_facts(d(2027, 12, 5));
        late.fee_paid_on = d(2027, 12, 1);
        let c = current(d(2027, 11, 20), AuthorizationStatus::Vencida);
        let decision = decide_renewal(&c, &late, &basis).unwrap();
        assert_eq!(decision.valid_from, d(2027, 12, 1));
        // The switch off: every renewal runs from its payment, as a grant.
        let mut basis_off = basis;
        basis_off.renewal_continuous = false;
        let c = current(d(2027, 11, 20), AuthorizationStatus::Ativa);
        let decision = decide_renewal(&c, &facts, &basis_off).unwrap();
        assert_eq!(decision.valid_from, d(2027, 10, 10));
    }

    #[test]
    fn amb_66_the_window_the_status_and_a_second_renewal_are_checked() {
        let basis = RideHailingLegalBasis::draft_2023();
        let facts = compliant_grant_facts(d(2027, 9, 1));
        let c = current(d(2027, 11, 20), AuthorizationStatus::Ativa);
        let failures = decide_renewal(&c, &facts, &basis).unwrap_err();
        assert!(
            failures
                .iter()
                .any(|f| f.rule == "APP-ART3-PU" && f.message.contains("21/09/2027")),
            "{failures:?}"
        );
        // In the window, but the fee is the current period's.
        let mut facts = compliant_grant_facts(d(2027, 10, 15));
        facts.fee_paid_on = d(2027, 8, 1);
        let failures = decide_renewal(&c, &facts, &basis).unwrap_err();
        assert!(
            failures.iter().any(|f| f.field == "fee_paid_on"),
            "{failures:?}"
        );
        let facts = compliant_grant_facts(d(2027, 10, 15));
        for status in [
            AuthorizationStatus::Revogada,
            AuthorizationStatus::Cassada,
            AuthorizationStatus::Suspensa,
        ] {
            let failures =
                decide_renewal(&current(d(2027, 11, 20), status), &facts, &basis).unwrap_err();
            assert!(
                failures.iter().any(|f| f.field == "authorization"),
                "{status:?}: {failures:?}"
            );
        }
        let mut renewed = current(d(2027, 11, 20), AuthorizationStatus::Ativa);
        renewed.renewed_by = Some("APP-2027/000001".into());
        let failures = decide_renewal(&renewed, &facts, &basis).unwrap_err();
        assert!(
            failures[0]
                .message
                .contains("já foi renovada pela APP-2027/000001"),
            "{failures:?}"
        );
    }

    #[test]
    fn amb_66_a_renewal_judges_every_requirement_of_a_grant_again() {
        let basis = RideHailingLegalBasis::draft_2023();
        let mut facts = compliant_grant_facts(d(2027, 10, 15));
        // The car, eleven model years old at the grant, is now past the limit.
        facts.vehicle.model_year = 2014;
        let c = current(d(2027, 11, 20), AuthorizationStatus::Ativa);
        let failures = decide_renewal(&c, &facts, &basis).unwrap_err();
        assert!(
            failures.iter().any(|f| f.rule.starts_with("APP-ART2")),
            "{failures:?}"
        );
    }
}
