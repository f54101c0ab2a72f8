//! The municipal calendar and the deadline rules DL-1…DL-12 (docs/rules.md; the holidays in docs/readings.md).
//!
//! Lei 9.784/1999 art. 66 applies subsidiarily (STJ Súmula 633): periods in days are
//! continuous (DL-1), the start day is excluded and the end day included (DL-2), a deadline
//! ending on a day without office hours moves to the next business day (DL-5), months count
//! date to date (DL-6). Validity periods are never extended (DL-8).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveTime, TimeZone, Utc, Weekday};
use chrono_tz::America::Cuiaba;
use serde::{Deserialize, Serialize};

use super::dates::{MonthOverflow, add_months};

/// Why a day has no office hours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DayKind {
    /// National civil holiday (Lei 662/1949, Lei 6.802/1980, Lei 14.759/2023).
    National,
    /// Religious holiday observed nationwide (Lei 9.093/1995 art. 2), e.g. Good Friday.
    Religious,
    /// Mato Grosso state holiday.
    State,
    /// Holiday of the municipality (its profile's `[calendar]`).
    Municipal,
    /// Decreed *ponto facultativo* that closes the office.
    PontoFacultativo,
    /// Decreed recess (e.g. Decreto nº 5.802/2025, 20/12/2025–04/01/2026).
    Recess,
}

/// A day without office hours, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct ClosedDay {
    pub date: NaiveDate,
    pub kind: DayKind,
    pub description: String,
    /// The act that establishes it, when decreed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub act: Option<String>,
}

/// The municipality's own closed days, from its profile's `[calendar]`: its municipal holidays
/// (by day and month, as its laws set them) and whether the usual *pontos facultativos* close
/// the office. Barra do Garças's are in docs/readings.md (13/06 Santo Antônio on; 15/09, the
/// anniversary, UNSURE and off).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CalendarSettings {
    /// The municipal holidays, each every year on its day.
    #[serde(default)]
    pub municipal_holidays: Vec<MunicipalHoliday>,
    /// Carnival Monday and Tuesday close the office (ponto facultativo, usual: on).
    pub carnival_closed: bool,
    /// Corpus Christi closes the office (ponto facultativo in MT; UNSURE; default: off).
    pub corpus_christi_closed: bool,
}

/// A municipal holiday: its day and month, what it is, and the law that sets it, if known.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MunicipalHoliday {
    /// Month and day, `MM-DD` ("06-13").
    pub day: String,
    pub description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub act: Option<String>,
}

impl MunicipalHoliday {
    /// The holiday's month and day, if `day` is a day of every year (29/02 is not).
    pub fn month_day(&self) -> Option<(u32, u32)> {
        let (m, d) = self.day.split_once('-')?;
        if m.len() != 2 || d.len() != 2 {
            return None;
        }
        let (m, d) = (m.parse().ok()?, d.parse().ok()?);
        // 2023 is not a leap year: a day valid in it is valid in every year.
        NaiveDate::from_ymd_opt(2023, m, d).map(|_| (m, d))
    }
}

impl CalendarSettings {
    /// What is wrong with the settings, for the profile's check.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (i, h) in self.municipal_holidays.iter().enumerate() {
            if h.month_day().is_none() {
                out.push(format!(
                    "calendar.municipal_holidays[{i}].day: mês e dia no formato MM-DD (ex.: \"06-13\"), um dia de todos os anos."
                ));
            }
            if h.description.trim().is_empty() || h.description.len() > 200 {
                out.push(format!(
                    "calendar.municipal_holidays[{i}].description: de 1 a 200 caracteres."
                ));
            }
        }
        out
    }
}

impl Default for CalendarSettings {
    /// Barra do Garças's, as its profile sets them.
    fn default() -> Self {
        Self {
            municipal_holidays: vec![MunicipalHoliday {
                day: "06-13".into(),
                description: "Santo Antônio, padroeiro de Barra do Garças".into(),
                act: None,
            }],
            carnival_closed: true,
            corpus_christi_closed: false,
        }
    }
}

/// Easter Sunday, Gregorian computus (Meeus/Jones/Butcher); the letters are the algorithm's.
#[expect(
    clippy::many_single_char_names,
    reason = "the letters are the algorithm's"
)]
pub fn easter(year: i32) -> NaiveDate {
    let a = year % 19;
    let b = year / 100;
    let c = year % 100;
    let d = b / 4;
    let e = b % 4;
    let f = (b + 8) / 25;
    let g = (b - f + 1) / 3;
    let h = (19 * a + b - d - g + 15) % 30;
    let i = c / 4;
    let k = c % 4;
    let l = (32 + 2 * e + 2 * i - h - k) % 7;
    let m = (a + 11 * h + 22 * l) / 451;
    let month = (h + l - 7 * m + 114) / 31;
    let day = (h + l - 7 * m + 114) % 31 + 1;
    NaiveDate::from_ymd_opt(
        year,
        u32::try_from(month).unwrap_or(4),
        u32::try_from(day).unwrap_or(1),
    )
    .unwrap_or_default()
}

/// The calendar of one municipality: statutory days computed, decreed days added.
#[derive(Debug, Clone, Default)]
pub struct Calendar {
    settings: CalendarSettings,
    decreed: BTreeMap<NaiveDate, ClosedDay>,
}

impl Calendar {
    pub fn new(settings: CalendarSettings, decreed: impl IntoIterator<Item = ClosedDay>) -> Self {
        Self {
            settings,
            decreed: decreed.into_iter().map(|d| (d.date, d)).collect(),
        }
    }

    /// Statutory and computed closed days of `year` (weekends not included).
    pub fn statutory(&self, year: i32) -> Vec<ClosedDay> {
        let day = |m, d| NaiveDate::from_ymd_opt(year, m, d).unwrap_or_default();
        let closed = |date, kind, description: &str| ClosedDay {
            date,
            kind,
            description: description.into(),
            act: None,
        };
        let e = easter(year);
        let mut days = vec![
            closed(day(1, 1), DayKind::National, "Confraternização Universal"),
            closed(day(4, 21), DayKind::National, "Tiradentes"),
            closed(day(5, 1), DayKind::National, "Dia do Trabalho"),
            closed(day(9, 7), DayKind::National, "Independência do Brasil"),
            closed(day(10, 12), DayKind::National, "Nossa Senhora Aparecida"),
            closed(day(11, 2), DayKind::National, "Finados"),
            closed(day(11, 15), DayKind::National, "Proclamação da República"),
            closed(
                day(11, 20),
                DayKind::National,
                "Dia Nacional de Zumbi e da Consciência Negra",
            ),
            closed(day(12, 25), DayKind::National, "Natal"),
            closed(
                e - Duration::days(2),
                DayKind::Religious,
                "Sexta-feira da Paixão",
            ),
        ];
        if self.settings.carnival_closed {
            days.push(closed(
                e - Duration::days(48),
                DayKind::PontoFacultativo,
                "Carnaval (segunda-feira)",
            ));
            days.push(closed(
                e - Duration::days(47),
                DayKind::PontoFacultativo,
                "Carnaval (terça-feira)",
            ));
        }
        if self.settings.corpus_christi_closed {
            days.push(closed(
                e + Duration::days(60),
                DayKind::PontoFacultativo,
                "Corpus Christi",
            ));
        }
        for h in &self.settings.municipal_holidays {
            if let Some((m, d)) = h.month_day() {
                days.push(ClosedDay {
                    date: day(m, d),
                    kind: DayKind::Municipal,
                    description: h.description.clone(),
                    act: h.act.clone(),
                });
            }
        }
        days.sort_by_key(|d| d.date);
        days
    }

    /// Why `date` has no office hours, if it has none (weekends included).
    pub fn closed_reason(&self, date: NaiveDate) -> Option<String> {
        if let Some(d) = self.decreed.get(&date) {
            return Some(match &d.act {
                Some(act) => format!("{} ({act})", d.description),
                None => d.description.clone(),
            });
        }
        if let Some(d) = self
            .statutory(date.year())
            .into_iter()
            .find(|d| d.date == date)
        {
            return Some(d.description);
        }
        match date.weekday() {
            Weekday::Sat => Some("sábado".into()),
            Weekday::Sun => Some("domingo".into()),
            _ => None,
        }
    }

    pub fn is_business_day(&self, date: NaiveDate) -> bool {
        self.closed_reason(date).is_none()
    }

    /// The first business day on or after `date`, with the reasons of every day skipped.
    pub fn next_business_day(&self, date: NaiveDate) -> (NaiveDate, Vec<Skipped>) {
        let mut d = date;
        let mut skipped = Vec::new();
        while let Some(reason) = self.closed_reason(d) {
            skipped.push(Skipped { date: d, reason });
            d = d.succ_opt().unwrap_or(d);
        }
        (d, skipped)
    }

    /// Every closed day of `year`, weekends excluded, decreed days included.
    pub fn closed_days(&self, year: i32) -> Vec<ClosedDay> {
        let mut days: BTreeMap<NaiveDate, ClosedDay> = self
            .statutory(year)
            .into_iter()
            .map(|d| (d.date, d))
            .collect();
        for d in self.decreed.values().filter(|d| d.date.year() == year) {
            days.insert(d.date, d.clone());
        }
        days.into_values().collect()
    }
}

/// A day a deadline skipped, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Skipped {
    pub date: NaiveDate,
    pub reason: String,
}

/// DL-4 switch and DL-12 parameter.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct DeadlineRules {
    /// DL-4: a notification on a non-business day counts from the next business day.
    pub notification_on_closed_day_moves: bool,
    /// DL-12: closing time of the Protocolo Geral for paper filings (local time).
    pub protocol_closing_time: NaiveTime,
}

impl Default for DeadlineRules {
    fn default() -> Self {
        Self {
            notification_on_closed_day_moves: true,
            protocol_closing_time: NaiveTime::from_hms_opt(17, 0, 0).unwrap_or_default(),
        }
    }
}

/// A deadline in days, with how it was computed (every deadline the API shows carries this).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Deadline {
    /// The start event (notification, juntada…), as given.
    pub start_event: NaiveDate,
    /// DL-4: the day counting starts from (the start event, or the next business day).
    pub counted_from: NaiveDate,
    pub days: u32,
    /// DL-2: `counted_from + days`.
    pub raw_end: NaiveDate,
    /// DL-5: the raw end, or the first business day after it.
    pub due: NaiveDate,
    /// Days skipped at the start (DL-4) and at the end (DL-5), with reasons.
    pub extended_because: Vec<Skipped>,
    pub explanation: String,
}

/// DL-1, DL-2, DL-4, DL-5: a deadline of `days` calendar days from `start_event`.
pub fn deadline_in_days(
    start_event: NaiveDate,
    days: u32,
    cal: &Calendar,
    rules: &DeadlineRules,
) -> Deadline {
    let mut extended_because = Vec::new();
    let counted_from = if rules.notification_on_closed_day_moves {
        let (d, skipped) = cal.next_business_day(start_event);
        extended_because.extend(skipped);
        d
    } else {
        start_event
    };
    let raw_end = counted_from + Duration::days(i64::from(days));
    let (due, skipped) = cal.next_business_day(raw_end);
    extended_because.extend(skipped);
    let mut explanation = format!(
        "Prazo de {days} dias corridos contados a partir de {} (exclui-se o dia do começo e inclui-se o do vencimento): termo em {}",
        counted_from.format("%d/%m/%Y"),
        raw_end.format("%d/%m/%Y"),
    );
    if counted_from != start_event {
        explanation = format!(
            "Ciência em {}, dia sem expediente; contagem a partir do primeiro dia útil seguinte. {explanation}",
            start_event.format("%d/%m/%Y")
        );
    }
    if due == raw_end {
        explanation.push('.');
    } else {
        let _ = write!(
            explanation,
            ", sem expediente; prorrogado para o primeiro dia útil seguinte, {} (Lei 9.784/1999, art. 66, §1º).",
            due.format("%d/%m/%Y")
        );
    }
    Deadline {
        start_event,
        counted_from,
        days,
        raw_end,
        due,
        extended_because,
        explanation,
    }
}

/// DL-7: an hour period runs minute by minute from the exact instant, with no extension.
pub fn deadline_in_hours(received_at: DateTime<Utc>, hours: u32) -> DateTime<Utc> {
    received_at + Duration::hours(i64::from(hours))
}

/// How a filing was made (DL-12).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilingChannel {
    Paper,
    Electronic,
}

/// DL-12: the last instant of the due day: the Protocolo's closing time for paper filings,
/// 23:59:59 local time for electronic ones.
pub fn last_instant(
    due: NaiveDate,
    channel: FilingChannel,
    rules: &DeadlineRules,
) -> DateTime<Utc> {
    let time = match channel {
        FilingChannel::Paper => rules.protocol_closing_time,
        FilingChannel::Electronic => NaiveTime::from_hms_opt(23, 59, 59).unwrap_or_default(),
    };
    Cuiaba
        .from_local_datetime(&due.and_time(time))
        .single()
        .map_or_else(|| due.and_time(time).and_utc(), |t| t.with_timezone(&Utc))
}

/// DL-9: a sanction of `months` starting on `effective` covers `[effective, end)`; the person
/// is reinstated on the returned day.
pub fn sanction_end_months(
    effective: NaiveDate,
    months: u32,
    overflow: MonthOverflow,
) -> NaiveDate {
    add_months(effective, months, overflow)
}

/// DL-9: a sanction of `days` covers `[effective, effective + days)`.
pub fn sanction_end_days(effective: NaiveDate, days: u32) -> NaiveDate {
    effective + Duration::days(i64::from(days))
}

/// DL-9: a waiting bar ("somente após 12 meses da cassação") allows the act from the
/// anniversary plus one day.
pub fn bar_lifts_on(event: NaiveDate, months: u32, overflow: MonthOverflow) -> NaiveDate {
    add_months(event, months, overflow) + Duration::days(1)
}

/// DL-10: an event on `event` counts for `reference` iff `event ≤ reference ≤ event + months`.
pub fn within_lookback(
    event: NaiveDate,
    reference: NaiveDate,
    months: u32,
    overflow: MonthOverflow,
) -> bool {
    event <= reference && reference <= add_months(event, months, overflow)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    fn recess_2025() -> Vec<ClosedDay> {
        let mut days = Vec::new();
        let mut day = d(2025, 12, 20);
        while day <= d(2026, 1, 4) {
            days.push(ClosedDay {
                date: day,
                kind: DayKind::Recess,
                description: "Recesso de fim de ano".into(),
                act: Some("Decreto nº 5.802/2025".into()),
            });
            day = day.succ_opt().unwrap();
        }
        days
    }

    fn default_calendar() -> Calendar {
        Calendar::new(CalendarSettings::default(), recess_2025())
    }

    #[test]
    fn easter_matches_the_computed_calendar_2025_to_2027() {
        assert_eq!(easter(2025), d(2025, 4, 20));
        assert_eq!(easter(2026), d(2026, 4, 5));
        assert_eq!(easter(2027), d(2027, 3, 28));
        let cal = default_calendar();
        // Good Friday and Carnival (docs/readings.md, computed calendar).
        assert!(!cal.is_business_day(d(2025, 4, 18)));
        assert!(!cal.is_business_day(d(2026, 4, 3)));
        assert!(!cal.is_business_day(d(2027, 3, 26)));
        assert!(!cal.is_business_day(d(2026, 2, 16)) && !cal.is_business_day(d(2026, 2, 17)));
        // Ash Wednesday opens late: not a closed day (DL-5).
        assert!(cal.is_business_day(d(2026, 2, 18)));
    }

    // S09 — DL-2/DL-5: Friday 17/10/2025 + 15 = Saturday 01/11; Sunday 02/11 Finados → Monday 03/11.
    #[test]
    fn s09_defence_deadline_ending_on_a_saturday() {
        let dl = deadline_in_days(
            d(2025, 10, 17),
            15,
            &default_calendar(),
            &DeadlineRules::default(),
        );
        assert_eq!(dl.raw_end, d(2025, 11, 1));
        assert_eq!(dl.due, d(2025, 11, 3));
        assert_eq!(dl.extended_because.len(), 2);
        assert_eq!(dl.extended_because[1].reason, "Finados");
        assert!(dl.explanation.contains("03/11/2025"));
    }

    // S10 — Thursday 04/09/2025 + 10 = Sunday 14/09 → 15/09, or 16/09 with the anniversary switch.
    #[test]
    fn s10_reconsideration_deadline_and_the_anniversary_switch() {
        let rules = DeadlineRules::default();
        let dl = deadline_in_days(d(2025, 9, 4), 10, &default_calendar(), &rules);
        assert_eq!((dl.raw_end, dl.due), (d(2025, 9, 14), d(2025, 9, 15)));
        let cal = Calendar::new(
            CalendarSettings {
                municipal_holidays: vec![MunicipalHoliday {
                    day: "09-15".into(),
                    description: "Aniversário de Barra do Garças".into(),
                    act: None,
                }],
                ..CalendarSettings::default()
            },
            recess_2025(),
        );
        assert_eq!(
            deadline_in_days(d(2025, 9, 4), 10, &cal, &rules).due,
            d(2025, 9, 16)
        );
    }

    // S11 — Friday 05/12/2025 + 15 = Saturday 20/12, recess to 04/01/2026 → Monday 05/01/2026.
    #[test]
    fn s11_deadline_running_into_the_year_end_recess() {
        let dl = deadline_in_days(
            d(2025, 12, 5),
            15,
            &default_calendar(),
            &DeadlineRules::default(),
        );
        assert_eq!(dl.due, d(2026, 1, 5));
        assert!(
            dl.extended_because
                .iter()
                .any(|s| s.reason.contains("Decreto nº 5.802/2025"))
        );
    }

    // S12 — Thursday 29/05/2025 + 15 = Friday 13/06 (Santo Antônio) → Monday 16/06; without it, 13/06.
    #[test]
    fn s12_santo_antonio_and_its_switch() {
        let rules = DeadlineRules::default();
        assert_eq!(
            deadline_in_days(d(2025, 5, 29), 15, &default_calendar(), &rules).due,
            d(2025, 6, 16)
        );
        let cal = Calendar::new(
            CalendarSettings {
                municipal_holidays: vec![],
                ..CalendarSettings::default()
            },
            vec![],
        );
        assert_eq!(
            deadline_in_days(d(2025, 5, 29), 15, &cal, &rules).due,
            d(2025, 6, 13)
        );
    }

    #[test]
    fn a_municipal_holiday_is_a_day_of_every_year() {
        let holiday = |day: &str| MunicipalHoliday {
            day: day.into(),
            description: "Feriado".into(),
            act: None,
        };
        assert_eq!(holiday("06-13").month_day(), Some((6, 13)));
        for bad in ["02-29", "13-01", "6-13", "06-31", "0613"] {
            assert_eq!(holiday(bad).month_day(), None, "{bad}");
        }
        let settings = CalendarSettings {
            municipal_holidays: vec![holiday("02-30"), holiday("08-15")],
            ..CalendarSettings::default()
        };
        let problems = settings.problems();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].starts_with("calendar.municipal_holidays[0].day"));
        let days = Calendar::new(settings, []).statutory(2026);
        assert!(
            days.iter()
                .any(|c| c.date == d(2026, 8, 15) && c.kind == DayKind::Municipal)
        );
        assert!(!days.iter().any(|c| c.date == d(2026, 6, 13)));
    }

    // DL-4: a notice handed over on a Saturday counts from Monday; the switch turns it off.
    #[test]
    fn dl4_notification_on_a_closed_day_counts_from_the_next_business_day() {
        let cal = default_calendar();
        let dl = deadline_in_days(d(2026, 3, 7), 15, &cal, &DeadlineRules::default());
        assert_eq!(dl.counted_from, d(2026, 3, 9));
        assert_eq!(dl.raw_end, d(2026, 3, 24));
        let off = DeadlineRules {
            notification_on_closed_day_moves: false,
            ..DeadlineRules::default()
        };
        assert_eq!(
            deadline_in_days(d(2026, 3, 7), 15, &cal, &off).raw_end,
            d(2026, 3, 22)
        );
    }

    // DL-7 and DL-12.
    #[test]
    fn dl7_hours_run_minute_by_minute_and_dl12_end_of_day() {
        let t = DateTime::parse_from_rfc3339("2026-11-28T15:37:00Z")
            .unwrap()
            .to_utc(); // a Saturday
        assert_eq!(
            deadline_in_hours(t, 24),
            DateTime::parse_from_rfc3339("2026-11-29T15:37:00Z")
                .unwrap()
                .to_utc()
        );
        let rules = DeadlineRules::default();
        assert_eq!(
            last_instant(d(2026, 11, 30), FilingChannel::Electronic, &rules),
            DateTime::parse_from_rfc3339("2026-12-01T03:59:59Z")
                .unwrap()
                .to_utc()
        );
        assert_eq!(
            last_instant(d(2026, 11, 30), FilingChannel::Paper, &rules),
            DateTime::parse_from_rfc3339("2026-11-30T21:00:00Z")
                .unwrap()
                .to_utc()
        );
    }

    // DL-9 and DL-10 (S08: cassação 15/12/2025 → blocked through 15/12/2026, possible from 16/12).
    #[test]
    fn dl9_sanctions_and_bars_dl10_lookback() {
        let o = MonthOverflow::LastDay;
        assert_eq!(sanction_end_days(d(2026, 1, 10), 30), d(2026, 2, 9));
        assert_eq!(sanction_end_months(d(2026, 1, 31), 12, o), d(2027, 1, 31));
        assert_eq!(bar_lifts_on(d(2025, 12, 15), 12, o), d(2026, 12, 16));
        // S06: 10/04/2025 counts for 10/04/2026, not for 11/04/2026.
        assert!(within_lookback(d(2025, 4, 10), d(2026, 4, 10), 12, o));
        assert!(!within_lookback(d(2025, 4, 10), d(2026, 4, 11), 12, o));
        assert!(!within_lookback(d(2025, 4, 10), d(2025, 4, 9), 12, o));
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            // An extended deadline never ends on a day without office hours, never before the
            // raw end, and only skips closed days.
            #[test]
            fn extended_deadline_never_ends_on_a_closed_day(offset in 0i64..3_000, days in 1u32..120) {
                let cal = default_calendar();
                let start = d(2024, 1, 1) + Duration::days(offset);
                let dl = deadline_in_days(start, days, &cal, &DeadlineRules::default());
                prop_assert!(cal.is_business_day(dl.due));
                prop_assert!(dl.due >= dl.raw_end);
                prop_assert!(dl.raw_end >= start + Duration::days(i64::from(days)));
                let mut day = dl.raw_end;
                while day < dl.due {
                    prop_assert!(!cal.is_business_day(day));
                    day = day.succ_opt().unwrap();
                }
            }

            // A validity period is never extended (DL-8): the authorization's last day is the
            // DL-6 date even when the office is closed on it.
            #[test]
            fn validity_is_never_extended(offset in 0i64..3_000) {
                let cal = default_calendar();
                let basis = crate::domain::legal_basis::RideHailingLegalBasis::draft_2023();
                let fee = d(2024, 1, 1) + Duration::days(offset);
                let until = crate::domain::ride_hailing::validity_until(fee, &basis);
                prop_assert_eq!(until, add_months(fee, 12, MonthOverflow::LastDay));
                if !cal.is_business_day(until) {
                    prop_assert_ne!(until, cal.next_business_day(until).0);
                }
            }
        }
    }
}
