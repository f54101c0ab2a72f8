//! Presentation formats of LEGAL_RULES §4.6–4.7: what a citizen reads on a document.

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use chrono_tz::America::Cuiaba;

const MONTHS: [&str; 12] = [
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

/// `dd/mm/aaaa`.
pub fn date(d: NaiveDate) -> String {
    d.format("%d/%m/%Y").to_string()
}

/// `26 de fevereiro de 2025` (month in lower case; day without leading zero, "1º" for the
/// first day as is usual in official texts).
pub fn date_long(d: NaiveDate) -> String {
    let day = if d.day() == 1 {
        "1º".to_owned()
    } else {
        d.day().to_string()
    };
    format!("{day} de {} de {}", MONTHS[d.month0() as usize], d.year())
}

/// `30/11/2026 às 14:05` in America/Cuiaba (DL-11).
pub fn datetime_local(t: DateTime<Utc>) -> String {
    t.with_timezone(&Cuiaba)
        .format("%d/%m/%Y às %H:%M")
        .to_string()
}

/// `R$ 1.234,56` with a no-break space (U+00A0) after the symbol.
pub fn money(centavos: i64) -> String {
    let sign = if centavos < 0 { "-" } else { "" };
    let abs = centavos.unsigned_abs();
    let reais = (abs / 100).to_string();
    let mut grouped = String::new();
    for (i, c) in reais.chars().enumerate() {
        if i > 0 && (reais.len() - i).is_multiple_of(3) {
            grouped.push('.');
        }
        grouped.push(c);
    }
    format!("{sign}R$\u{a0}{grouped},{:02}", abs % 100)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn formats_follow_legal_rules_section_4() {
        let d = NaiveDate::from_ymd_opt(2025, 2, 26).unwrap();
        assert_eq!(date(d), "26/02/2025");
        assert_eq!(date_long(d), "26 de fevereiro de 2025");
        assert_eq!(
            date_long(NaiveDate::from_ymd_opt(2026, 3, 1).unwrap()),
            "1º de março de 2026"
        );
        assert_eq!(money(123_456), "R$\u{a0}1.234,56");
        assert_eq!(money(5_000_000), "R$\u{a0}50.000,00");
        assert_eq!(money(99), "R$\u{a0}0,99");
        assert_eq!(money(-123_456), "-R$\u{a0}1.234,56");
        let t = DateTime::parse_from_rfc3339("2026-01-01T02:05:00Z")
            .unwrap()
            .to_utc();
        assert_eq!(datetime_local(t), "31/12/2025 às 22:05");
    }
}
