//! Technology platforms (draft consolidated law, arts. 3º, 5º X and 6º; AMB-42, AMB-45):
//! registration with the SMF, 12 months from fee payment, APP insurance of at least
//! R$ 50.000,00 in force.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;

use super::validity_until;
use crate::domain::dates::local_date;
use crate::domain::legal_basis::RideHailingLegalBasis;
use crate::domain::rule::{RuleFailure, fail};

/// What a platform files to register.
#[derive(Debug, Clone)]
pub struct PlatformFacts {
    pub insurance_cover_centavos: i64,
    pub insurance_valid_until: NaiveDate,
    pub fee_paid_on: NaiveDate,
    pub today: NaiveDate,
}

/// Decides a platform registration; `Ok(valid_until)` when accepted.
pub fn decide_platform(
    f: &PlatformFacts,
    basis: &RideHailingLegalBasis,
) -> Result<NaiveDate, Vec<RuleFailure>> {
    let mut out = Vec::new();
    // Art. 5º, X: seguro de Acidentes Pessoais a Passageiros de no mínimo R$ 50.000,00.
    if f.insurance_cover_centavos < basis.platform_min_app_cover_centavos {
        out.push(RuleFailure {
            rule: "APP-ART5-X".into(),
            article: "art. 5º, X".into(),
            field: "app_insurance.cover_centavos",
            message: format!(
                "A cobertura do seguro APP deve ser de no mínimo {}; informada: {}.",
                crate::domain::money::money(basis.platform_min_app_cover_centavos),
                crate::domain::money::money(f.insurance_cover_centavos)
            ),
        });
    }
    if f.insurance_valid_until < f.today {
        out.push(RuleFailure {
            rule: "APP-ART5-X".into(),
            article: "art. 5º, X".into(),
            field: "app_insurance.valid_until",
            message: format!(
                "O seguro APP venceu em {}.",
                f.insurance_valid_until.format("%d/%m/%Y")
            ),
        });
    }
    // Art. 3º, parágrafo único (AMB-45): 12 months from the fee payment.
    let until = validity_until(f.fee_paid_on, basis);
    if f.fee_paid_on > f.today || until < f.today {
        out.push(RuleFailure {
            rule: "APP-ART3-PU".into(),
            article: "art. 3º, parágrafo único".into(),
            field: "fee_paid_on",
            message: "O pagamento das taxas deve ser do período atual e não pode ser futuro."
                .into(),
        });
    }
    if out.is_empty() { Ok(until) } else { Err(out) }
}

/// Status of a registered platform at an instant (APP-ART6: rides only through a platform
/// registered with the SMF).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlatformStatus {
    Active,
    /// The registration's 12 months ended (DL-8).
    Expired,
    /// The APP insurance lapsed: the platform must renew it (AMB-36: notice to regularize).
    InsuranceLapsed,
}

pub fn platform_status(
    valid_until: NaiveDate,
    insurance_valid_until: NaiveDate,
    now: DateTime<Utc>,
) -> PlatformStatus {
    let today = local_date(now);
    if today > valid_until {
        PlatformStatus::Expired
    } else if today > insurance_valid_until {
        PlatformStatus::InsuranceLapsed
    } else {
        PlatformStatus::Active
    }
}

/// APP-ART24-II (art. 24, II, a; AMB-36): a notice to regularize, the administrative measure
/// for a breach the law gives no penalty (a platform's lapsed APP insurance, a late data
/// delivery): what to regularize and the last day to do it, set in the notice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct RegularizationNotice {
    pub id: String,
    pub requirement: String,
    pub notified_on: NaiveDate,
    pub cure_by: NaiveDate,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cured_on: Option<NaiveDate>,
}

/// Where a notice to regularize stands on a date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RegularizationStatus {
    /// Within the day set in the notice.
    Pendente,
    /// Regularized by the day set.
    Regularizada,
    /// Regularized after the day set.
    RegularizadaForaDoPrazo,
    /// Not regularized by the day set: the Municipality may act by decree (AMB-36).
    Vencida,
}

pub fn regularization_status(n: &RegularizationNotice, today: NaiveDate) -> RegularizationStatus {
    match n.cured_on.filter(|&on| on <= today) {
        Some(on) if on <= n.cure_by => RegularizationStatus::Regularizada,
        Some(_) => RegularizationStatus::RegularizadaForaDoPrazo,
        None if today > n.cure_by => RegularizationStatus::Vencida,
        None => RegularizationStatus::Pendente,
    }
}

/// APP-ART24-II: a notice is notified (not in the future) and its day to regularize is not
/// before the notice; a regularization is recorded once, not before the notice nor later
/// than today.
pub fn app_art24_ii_check(n: &RegularizationNotice, today: NaiveDate) -> Vec<RuleFailure> {
    let mut out = Vec::new();
    if n.notified_on > today {
        let msg = "A notificação não pode ter data futura.".to_owned();
        fail(
            &mut out,
            "APP-ART24-II",
            "art. 24, II, a",
            "notified_on",
            msg,
        );
    }
    if n.cure_by < n.notified_on {
        let msg = format!(
            "O prazo para regularizar deve terminar no dia da notificação ({}) ou depois.",
            n.notified_on.format("%d/%m/%Y")
        );
        fail(&mut out, "APP-ART24-II", "art. 24, II, a", "cure_by", msg);
    }
    if let Some(on) = n.cured_on
        && (on < n.notified_on || on > today)
    {
        let msg = format!(
            "A regularização deve ser datada entre a notificação ({}) e hoje.",
            n.notified_on.format("%d/%m/%Y")
        );
        fail(&mut out, "APP-ART24-II", "art. 24, II, a", "cured_on", msg);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    fn facts() -> PlatformFacts {
        PlatformFacts {
            insurance_cover_centavos: 5_000_000,
            insurance_valid_until: d(2027, 6, 30),
            fee_paid_on: d(2026, 11, 2),
            today: d(2026, 11, 30),
        }
    }

    // APP-ART5-X: R$ 50.000,00 is enough, a centavo less is not; a lapsed policy is refused.
    #[test]
    fn app_art5_x_app_insurance_cover_and_validity() {
        let b = RideHailingLegalBasis::draft_2023();
        assert_eq!(decide_platform(&facts(), &b), Ok(d(2027, 11, 2)));
        let low = PlatformFacts {
            insurance_cover_centavos: 4_999_999,
            ..facts()
        };
        assert_eq!(
            decide_platform(&low, &b).unwrap_err()[0].field,
            "app_insurance.cover_centavos"
        );
        let lapsed = PlatformFacts {
            insurance_valid_until: d(2026, 11, 29),
            ..facts()
        };
        assert_eq!(
            decide_platform(&lapsed, &b).unwrap_err()[0].field,
            "app_insurance.valid_until"
        );
    }

    #[test]
    fn platform_status_on_a_date() {
        let at = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().to_utc();
        assert_eq!(
            platform_status(d(2027, 11, 2), d(2027, 6, 30), at("2027-06-30T12:00:00Z")),
            PlatformStatus::Active
        );
        assert_eq!(
            platform_status(d(2027, 11, 2), d(2027, 6, 30), at("2027-07-01T12:00:00Z")),
            PlatformStatus::InsuranceLapsed
        );
        assert_eq!(
            platform_status(d(2027, 11, 2), d(2027, 6, 30), at("2027-11-03T12:00:00Z")),
            PlatformStatus::Expired
        );
    }

    #[test]
    fn app_art24_ii_notice_to_regularize_table() {
        let n = RegularizationNotice {
            id: "n1".into(),
            requirement: "Renovar o seguro APP".into(),
            notified_on: d(2026, 12, 1),
            cure_by: d(2026, 12, 15),
            cured_on: None,
        };
        let with = |cured: Option<NaiveDate>| RegularizationNotice {
            cured_on: cured,
            ..n.clone()
        };
        let cases = [
            (with(None), d(2026, 12, 15), RegularizationStatus::Pendente),
            (with(None), d(2026, 12, 16), RegularizationStatus::Vencida),
            (
                with(Some(d(2026, 12, 15))),
                d(2027, 1, 1),
                RegularizationStatus::Regularizada,
            ),
            (
                with(Some(d(2026, 12, 20))),
                d(2027, 1, 1),
                RegularizationStatus::RegularizadaForaDoPrazo,
            ),
        ];
        for (notice, today, want) in cases {
            assert_eq!(regularization_status(&notice, today), want, "{today}");
        }
        let fields = |n: &RegularizationNotice| -> Vec<&str> {
            app_art24_ii_check(n, d(2026, 12, 10))
                .iter()
                .map(|f| f.field)
                .collect()
        };
        assert!(fields(&n).is_empty());
        let mut bad = n.clone();
        bad.cure_by = d(2026, 11, 30);
        assert_eq!(fields(&bad), ["cure_by"]);
        assert_eq!(fields(&with(Some(d(2026, 11, 30)))), ["cured_on"]);
        assert_eq!(fields(&with(Some(d(2026, 12, 11)))), ["cured_on"]);
    }
}

/// State of a data request (APP-ART4-P2): pending, or delivered in time or late against the
/// 24 hours counted minute by minute (DL-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DataRequestStatus {
    Pending,
    DeliveredInTime,
    DeliveredLate,
}

pub fn data_request_status(
    due_at: DateTime<Utc>,
    delivered_at: Option<DateTime<Utc>>,
) -> DataRequestStatus {
    match delivered_at {
        None => DataRequestStatus::Pending,
        Some(at) if at <= due_at => DataRequestStatus::DeliveredInTime,
        Some(_) => DataRequestStatus::DeliveredLate,
    }
}

#[cfg(test)]
mod per_rule {
    use super::*;

    #[test]
    fn app_art4_p2_data_due_in_24_hours_minute_by_minute() {
        let due: DateTime<Utc> = "2026-11-29T19:37:00Z".parse().unwrap();
        assert_eq!(data_request_status(due, None), DataRequestStatus::Pending);
        assert_eq!(
            data_request_status(due, Some(due)),
            DataRequestStatus::DeliveredInTime
        );
        let late = due + chrono::Duration::minutes(1);
        assert_eq!(
            data_request_status(due, Some(late)),
            DataRequestStatus::DeliveredLate
        );
    }
}
