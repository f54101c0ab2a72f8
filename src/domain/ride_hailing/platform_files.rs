//! What a platform sends with its own credential: the monthly report to the Secretaria
//! Municipal de Finanças (a duty of Lei 4.976/2025, whose article is not yet known) and the file
//! that answers a data request (art. 4º, §§2º e 3º). Pure: the declared type, the bytes and the
//! date come in.

use chrono::{Datelike, NaiveDate};

/// The kinds of file a platform may send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlatformFileType {
    Pdf,
    Csv,
    Json,
}

impl PlatformFileType {
    pub fn mime(self) -> &'static str {
        match self {
            Self::Pdf => "application/pdf",
            Self::Csv => "text/csv",
            Self::Json => "application/json",
        }
    }

    /// The type a `Content-Type` header declares (its parameters aside).
    pub fn declared(content_type: &str) -> Option<Self> {
        let essence = content_type
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        [Self::Pdf, Self::Csv, Self::Json]
            .into_iter()
            .find(|t| t.mime() == essence)
    }

    /// The extension of a file of this type, for its download name.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Pdf => "pdf",
            Self::Csv => "csv",
            Self::Json => "json",
        }
    }
}

/// Why a platform's file is refused, in Brazilian Portuguese.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlatformFileRefusal {
    Empty,
    TooLarge {
        max_bytes: usize,
    },
    /// No `Content-Type`, or one selo does not take.
    Undeclared,
    /// The content is not what the `Content-Type` says.
    NotWhatDeclared {
        declared: PlatformFileType,
    },
}

impl std::fmt::Display for PlatformFileRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Empty => f.write_str("O arquivo está vazio."),
            Self::TooLarge { max_bytes } => write!(
                f,
                "O arquivo tem mais de {} MB, o máximo aceito.",
                max_bytes / (1024 * 1024)
            ),
            Self::Undeclared => f.write_str(
                "Declare o tipo do arquivo em Content-Type: application/pdf, text/csv ou application/json.",
            ),
            Self::NotWhatDeclared { declared } => write!(
                f,
                "O conteúdo do arquivo não é {} como declarado em Content-Type.",
                declared.mime()
            ),
        }
    }
}

/// Checks a platform's file: a declared type selo takes, at most `max_bytes`, and a content
/// that is what it declares — a PDF by its first bytes, JSON that parses, CSV as UTF-8 text
/// with no NUL and no markup.
pub fn check_platform_file(
    content_type: Option<&str>,
    bytes: &[u8],
    max_bytes: usize,
) -> Result<PlatformFileType, PlatformFileRefusal> {
    if bytes.is_empty() {
        return Err(PlatformFileRefusal::Empty);
    }
    if bytes.len() > max_bytes {
        return Err(PlatformFileRefusal::TooLarge { max_bytes });
    }
    let declared = content_type
        .and_then(PlatformFileType::declared)
        .ok_or(PlatformFileRefusal::Undeclared)?;
    let agrees = match declared {
        PlatformFileType::Pdf => bytes.starts_with(b"%PDF-"),
        PlatformFileType::Json => {
            serde_json::from_slice::<serde::de::IgnoredAny>(strip_bom(bytes)).is_ok()
        }
        PlatformFileType::Csv => is_csv_text(bytes),
    };
    if agrees {
        Ok(declared)
    } else {
        Err(PlatformFileRefusal::NotWhatDeclared { declared })
    }
}

fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

fn is_csv_text(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(strip_bom(bytes)) else {
        return false;
    };
    let first = text.trim_start();
    !first.is_empty()
        && !text.contains('\0')
        && !first.starts_with('<')
        && !first.starts_with("%PDF")
        && !first.starts_with('{')
}

/// The month a monthly report covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Period {
    pub year: i32,
    pub month: u32,
}

impl Period {
    /// `AAAA-MM`.
    pub fn parse(s: &str) -> Option<Self> {
        let (y, m) = s.trim().split_once('-')?;
        if y.len() != 4 || m.len() != 2 {
            return None;
        }
        let year: i32 = y.parse().ok()?;
        let month: u32 = m.parse().ok()?;
        ((2000..=9999).contains(&year) && (1..=12).contains(&month)).then_some(Self { year, month })
    }

    pub fn as_string(self) -> String {
        format!("{:04}-{:02}", self.year, self.month)
    }

    /// "novembro de 2026".
    pub fn label(self) -> String {
        let name = usize::try_from(self.month - 1)
            .ok()
            .and_then(|i| crate::domain::dates::MONTHS_PT.get(i))
            .copied()
            .unwrap_or_default();
        format!("{name} de {}", self.year)
    }

    fn of(date: NaiveDate) -> Self {
        Self {
            year: date.year(),
            month: date.month(),
        }
    }
}

/// A monthly report covers a month that has ended by `today` (local date): the current
/// month's report cannot be complete yet, and a future one is an error of the caller.
pub fn monthly_report_period_closed(period: Period, today: NaiveDate) -> bool {
    period < Period::of(today)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAX: usize = 1024 * 1024;

    #[test]
    fn a_file_is_taken_only_as_what_its_content_is() {
        let pdf = b"%PDF-1.7\n...";
        assert_eq!(
            check_platform_file(Some("application/pdf"), pdf, MAX),
            Ok(PlatformFileType::Pdf)
        );
        assert_eq!(
            check_platform_file(
                Some("text/csv; charset=utf-8"),
                b"placa;viagens\nQRS1A23;41\n",
                MAX
            ),
            Ok(PlatformFileType::Csv)
        );
        assert_eq!(
            check_platform_file(Some("Application/JSON"), br#"{"viagens": 41}"#, MAX),
            Ok(PlatformFileType::Json)
        );
        // A PDF declared as CSV, HTML declared as CSV, broken JSON, an image as PDF.
        for (ct, body) in [
            ("text/csv", &pdf[..]),
            ("text/csv", b"<html><script>x</script></html>"),
            ("application/json", b"{\"viagens\": "),
            ("application/pdf", b"\x89PNG\r\n\x1a\n...."),
            ("text/csv", b"a;b\n\0\0"),
            ("text/csv", b"\xff\xfe\x00a"),
        ] {
            assert!(
                matches!(
                    check_platform_file(Some(ct), body, MAX),
                    Err(PlatformFileRefusal::NotWhatDeclared { .. })
                ),
                "{ct}: {body:?}"
            );
        }
    }

    #[test]
    fn an_empty_oversized_or_undeclared_file_is_refused_with_its_reason() {
        assert_eq!(
            check_platform_file(Some("text/csv"), b"", MAX),
            Err(PlatformFileRefusal::Empty)
        );
        assert_eq!(
            check_platform_file(Some("text/csv"), &vec![b'a'; MAX + 1], MAX),
            Err(PlatformFileRefusal::TooLarge { max_bytes: MAX })
        );
        assert_eq!(
            check_platform_file(None, b"a;b\n", MAX),
            Err(PlatformFileRefusal::Undeclared)
        );
        assert_eq!(
            check_platform_file(Some("text/html"), b"a;b\n", MAX),
            Err(PlatformFileRefusal::Undeclared)
        );
    }

    #[test]
    fn a_monthly_report_covers_a_month_already_ended() {
        let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day).unwrap();
        let nov = Period::parse("2026-11").unwrap();
        assert_eq!(nov.label(), "novembro de 2026");
        assert_eq!(nov.as_string(), "2026-11");
        assert!(!monthly_report_period_closed(nov, d(2026, 11, 30)));
        assert!(monthly_report_period_closed(nov, d(2026, 12, 1)));
        assert!(monthly_report_period_closed(nov, d(2027, 1, 1)));
        assert!(!monthly_report_period_closed(
            Period::parse("2027-01").unwrap(),
            d(2026, 12, 5)
        ));
        for bad in [
            "2026-13",
            "2026-00",
            "26-11",
            "2026-1",
            "novembro",
            "2026-11-01",
        ] {
            assert_eq!(Period::parse(bad), None, "{bad}");
        }
    }
}
