//! Legal date arithmetic (DL-6 and DL-11, docs/rules.md).

use chrono::{DateTime, Datelike, Months, NaiveDate, Utc};
use chrono_tz::America::Cuiaba;

/// DL-6 switch: what `date + N months` gives when the target month lacks the day.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum MonthOverflow {
    /// Lei 9.784/1999 art. 66 §3: the last day of the target month (recommended).
    LastDay,
    /// Código Civil art. 132 §3 / Lei 810/1949 art. 3: the first day after it.
    NextDay,
}

/// DL-6: month and year arithmetic "de data a data".
/// 29/02/2024 + 12 months = 28/02/2025 under `LastDay`, 01/03/2025 under `NextDay`.
pub fn add_months(date: NaiveDate, months: u32, overflow: MonthOverflow) -> NaiveDate {
    // chrono clamps to the last day of the month, which is exactly the LastDay reading.
    let clamped = date
        .checked_add_months(Months::new(months))
        .unwrap_or(NaiveDate::MAX);
    if overflow == MonthOverflow::NextDay && clamped.day() != date.day() {
        clamped.succ_opt().unwrap_or(clamped)
    } else {
        clamped
    }
}

/// The last instant of `date` in America/Cuiaba (DL-11): what a reading "as of" that day
/// judges at.
pub fn end_of_local_day(date: NaiveDate) -> DateTime<Utc> {
    let next = date
        .succ_opt()
        .unwrap_or(date)
        .and_time(chrono::NaiveTime::MIN);
    chrono::TimeZone::from_local_datetime(&Cuiaba, &next)
        .earliest()
        .map_or(DateTime::<Utc>::MAX_UTC, |t| t.with_timezone(&Utc))
        - chrono::Duration::microseconds(1)
}

/// DL-11: the legal calendar date of an instant, in America/Cuiaba.
pub fn local_date(instant: DateTime<Utc>) -> NaiveDate {
    instant.with_timezone(&Cuiaba).date_naive()
}

/// An instant as an official types it: RFC 3339 with its offset (`2026-11-30T14:35:00-04:00`)
/// or the local time of Mato Grosso without one (`2026-11-30T14:35`, `2026-11-30 14:35:00`),
/// read in America/Cuiaba (DL-11).
pub fn parse_instant(input: &str) -> Option<DateTime<Utc>> {
    use chrono::TimeZone as _;
    let s = input.trim();
    if let Ok(t) = DateTime::parse_from_rfc3339(s) {
        return Some(t.to_utc());
    }
    [
        "%Y-%m-%dT%H:%M:%S",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%d %H:%M",
    ]
    .iter()
    .find_map(|f| chrono::NaiveDateTime::parse_from_str(s, f).ok())
    .and_then(|naive| Cuiaba.from_local_datetime(&naive).earliest())
    .map(|t| t.to_utc())
}

/// The months as written in Brazilian Portuguese, January first.
pub const MONTHS_PT: [&str; 12] = [
    "janeiro",
    "fevereiro",
    "março",
    "abril",
    "maio",
    "junho",
    "julho",
    "agosto",
    "setembro",
    "outubro",
    "novembro",
    "dezembro",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn instants_are_read_with_their_offset_or_in_mato_grosso_time() {
        let utc = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().to_utc();
        assert_eq!(
            parse_instant("2026-11-30T14:35:00-04:00"),
            Some(utc("2026-11-30T18:35:00Z"))
        );
        assert_eq!(
            parse_instant("2026-11-30T14:35"),
            Some(utc("2026-11-30T18:35:00Z"))
        );
        assert_eq!(
            parse_instant(" 2026-11-30 14:35:10 "),
            Some(utc("2026-11-30T18:35:10Z"))
        );
        assert_eq!(parse_instant("30/11/2026 14:35"), None);
        assert_eq!(parse_instant("2026-11-30"), None);
    }

    // DL-6
    #[test]
    fn dl6_month_arithmetic_date_to_date() {
        assert_eq!(
            add_months(d(2026, 5, 23), 12, MonthOverflow::LastDay),
            d(2027, 5, 23)
        );
        assert_eq!(
            add_months(d(2024, 2, 29), 12, MonthOverflow::LastDay),
            d(2025, 2, 28)
        );
        assert_eq!(
            add_months(d(2024, 2, 29), 12, MonthOverflow::NextDay),
            d(2025, 3, 1)
        );
        assert_eq!(
            add_months(d(2026, 1, 31), 1, MonthOverflow::LastDay),
            d(2026, 2, 28)
        );
        assert_eq!(
            add_months(d(2026, 1, 31), 1, MonthOverflow::NextDay),
            d(2026, 3, 1)
        );
        assert_eq!(
            add_months(d(2026, 1, 30), 24, MonthOverflow::NextDay),
            d(2028, 1, 30)
        );
    }

    // DL-11: 2026-01-01T02:00Z is 31/12/2025 22:00 in Barra do Garças.
    #[test]
    fn dl11_local_date_is_cuiaba() {
        let t = DateTime::parse_from_rfc3339("2026-01-01T02:00:00Z")
            .unwrap()
            .to_utc();
        assert_eq!(local_date(t), d(2025, 12, 31));
        let t = DateTime::parse_from_rfc3339("2026-01-01T04:00:00Z")
            .unwrap()
            .to_utc();
        assert_eq!(local_date(t), d(2026, 1, 1));
    }

    mod props {
        use super::super::*;
        use proptest::prelude::*;

        proptest! {
            // DL-6: the result is always in the target month, never before the same day
            // number unless the month is shorter, and NextDay differs from LastDay only
            // by one day on overflow.
            #[test]
            fn month_arithmetic_lands_in_target_month(days in 0i64..40_000, months in 0u32..120) {
                let start = NaiveDate::from_ymd_opt(1990, 1, 1).unwrap() + chrono::Duration::days(days);
                let last = add_months(start, months, MonthOverflow::LastDay);
                let total = start.month0() + months;
                prop_assert_eq!(last.month0(), total % 12);
                prop_assert!(last.day() <= start.day());
                let next = add_months(start, months, MonthOverflow::NextDay);
                if last.day() == start.day() {
                    prop_assert_eq!(next, last);
                } else {
                    prop_assert_eq!(next, last.succ_opt().unwrap());
                    prop_assert_eq!(next.day(), 1);
                }
            }
        }
    }
}
