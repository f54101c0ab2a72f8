//! Presentation formats of docs/readings.md, identifiers–4.7: what a citizen reads on a document.

pub use crate::domain::money::{money, thousands};
use chrono::{DateTime, Datelike, NaiveDate, Utc};
use chrono_tz::America::Cuiaba;

use crate::domain::dates::MONTHS_PT as MONTHS;

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

/// `14:05` in America/Cuiaba (DL-11).
pub fn time_local(t: DateTime<Utc>) -> String {
    t.with_timezone(&Cuiaba).format("%H:%M").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_grouped_with_dots() {
        assert_eq!(thousands(500), "500");
        assert_eq!(thousands(1000), "1.000");
        assert_eq!(thousands(1_234_567), "1.234.567");
    }

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

const UNITS: [&str; 20] = [
    "zero",
    "um",
    "dois",
    "três",
    "quatro",
    "cinco",
    "seis",
    "sete",
    "oito",
    "nove",
    "dez",
    "onze",
    "doze",
    "treze",
    "quatorze",
    "quinze",
    "dezesseis",
    "dezessete",
    "dezoito",
    "dezenove",
];
const TENS: [&str; 10] = [
    "",
    "",
    "vinte",
    "trinta",
    "quarenta",
    "cinquenta",
    "sessenta",
    "setenta",
    "oitenta",
    "noventa",
];
const HUNDREDS: [&str; 10] = [
    "",
    "cento",
    "duzentos",
    "trezentos",
    "quatrocentos",
    "quinhentos",
    "seiscentos",
    "setecentos",
    "oitocentos",
    "novecentos",
];

/// 1..=999 in words ("cem", "cento e um", "novecentos e noventa e nove").
fn below_thousand(n: u64) -> String {
    let n = usize::try_from(n).unwrap_or(0);
    if n == 100 {
        return "cem".into();
    }
    let (h, rest) = (n / 100, n % 100);
    let mut parts = Vec::new();
    if h > 0 {
        parts.push(HUNDREDS[h].to_owned());
    }
    if rest > 0 {
        if rest < 20 {
            parts.push(UNITS[rest].to_owned());
        } else if rest % 10 == 0 {
            parts.push(TENS[rest / 10].to_owned());
        } else {
            parts.push(format!("{} e {}", TENS[rest / 10], UNITS[rest % 10]));
        }
    }
    parts.join(" e ")
}

/// A whole number in Brazilian Portuguese words, up to the billions.
pub fn number_in_words(n: u64) -> String {
    if n == 0 {
        return UNITS[0].into();
    }
    let groups = [
        (1_000_000_000, "bilhão", "bilhões"),
        (1_000_000, "milhão", "milhões"),
        (1_000, "mil", "mil"),
        (1, "", ""),
    ];
    let mut parts: Vec<(u64, String)> = Vec::new();
    let mut rest = n;
    for (size, singular, plural) in groups {
        let g = rest / size;
        rest %= size;
        if g == 0 {
            continue;
        }
        let words = match (size, g) {
            (1_000, 1) => "mil".to_owned(),
            (1, _) => below_thousand(g),
            (_, 1) => format!("um {singular}"),
            _ => format!("{} {plural}", below_thousand(g)),
        };
        parts.push((g, words));
    }
    // "e" before the last group when it is below one hundred or a round hundred
    // ("mil e quinhentos", "dois mil e vinte"), a comma-free join otherwise.
    let mut out = String::new();
    let count = parts.len();
    for (i, (g, words)) in parts.into_iter().enumerate() {
        if i > 0 {
            let last = i == count - 1;
            out.push_str(if last && (g < 100 || g % 100 == 0) {
                " e "
            } else {
                " "
            });
        }
        out.push_str(&words);
    }
    out
}

/// An amount in reais written out, as legal documents do: "mil cento e cinquenta reais",
/// "cinquenta reais e noventa e nove centavos", "um real".
pub fn money_in_words(centavos: i64) -> String {
    let abs = centavos.unsigned_abs();
    let (reais, cents) = (abs / 100, abs % 100);
    let mut parts = Vec::new();
    if reais > 0 {
        let words = number_in_words(reais);
        // "um milhão de reais", "dois milhões de reais"
        let de = if reais % 1_000_000 == 0 { " de" } else { "" };
        parts.push(format!(
            "{words}{de} {}",
            if reais == 1 { "real" } else { "reais" }
        ));
    }
    if cents > 0 {
        parts.push(format!(
            "{} {}",
            number_in_words(cents),
            if cents == 1 { "centavo" } else { "centavos" }
        ));
    }
    if parts.is_empty() {
        return "zero real".into();
    }
    let text = parts.join(" e ");
    if centavos < 0 {
        format!("menos {text}")
    } else {
        text
    }
}

#[cfg(test)]
mod words_tests {
    use super::*;

    // docs/readings.md, identifiers: "R$ 1.150,00 (mil cento e cinquenta reais)".
    #[test]
    fn amounts_in_words() {
        let cases = [
            (115_000, "mil cento e cinquenta reais"),
            (100, "um real"),
            (5_099, "cinquenta reais e noventa e nove centavos"),
            (1, "um centavo"),
            (10_000, "cem reais"),
            (10_100, "cento e um reais"),
            (150_000, "mil e quinhentos reais"),
            (202_000, "dois mil e vinte reais"),
            (5_000_000, "cinquenta mil reais"),
            (
                5_728_500,
                "cinquenta e sete mil duzentos e oitenta e cinco reais",
            ),
            (100_000_000, "um milhão de reais"),
            (
                123_456_789,
                "um milhão duzentos e trinta e quatro mil quinhentos e sessenta e sete reais e oitenta e nove centavos",
            ),
            (0, "zero real"),
        ];
        for (c, words) in cases {
            assert_eq!(money_in_words(c), words, "{c}");
        }
        assert_eq!(number_in_words(950), "novecentos e cinquenta");
        assert_eq!(number_in_words(1_000_000_000), "um bilhão");
    }
}
