//! Field-by-field parsing of request bodies that reports every invalid field at once.

use chrono::NaiveDate;
use uuid::Uuid;

use super::problem::{ApiError, ProblemItem};

/// The values of parsed fields together, `Some` only when every one parsed: for
/// `Fields::done`.
macro_rules! parsed {
    ($($v:expr),+ $(,)?) => {
        (|| Some(($($v?,)+)))()
    };
}
pub(crate) use parsed;

/// Collects every field error before answering.
#[derive(Default)]
pub struct Fields(Vec<ProblemItem>);

impl Fields {
    pub fn take<T, E>(&mut self, field: &str, r: Result<T, E>, message: &str) -> Option<T> {
        if let Ok(v) = r {
            Some(v)
        } else {
            self.0.push(ProblemItem::field(field, message));
            None
        }
    }

    pub fn text(&mut self, field: &str, value: &str, max: usize) -> Option<String> {
        let v = value.trim();
        // NUL and the other control characters are refused (PostgreSQL cannot store a NUL;
        // none belongs in an official record); line breaks and tabs of long texts are kept.
        if let Some(c) = v
            .chars()
            .find(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
        {
            self.0.push(ProblemItem::field(
                field,
                format!(
                    "O texto contém um caractere de controle (U+{:04X}), que não é aceito.",
                    u32::from(c)
                ),
            ));
            return None;
        }
        if v.is_empty() || v.chars().count() > max {
            self.0.push(ProblemItem::field(
                field,
                format!("Informe um texto de 1 a {max} caracteres."),
            ));
            None
        } else {
            Some(v.to_owned())
        }
    }

    pub fn date(&mut self, field: &str, value: &str) -> Option<NaiveDate> {
        self.take(
            field,
            NaiveDate::parse_from_str(value.trim(), "%Y-%m-%d"),
            "Data inválida; use o formato AAAA-MM-DD.",
        )
    }

    /// An instant: RFC 3339, or Mato Grosso's local time without an offset.
    pub fn instant(&mut self, field: &str, value: &str) -> Option<chrono::DateTime<chrono::Utc>> {
        self.take(
            field,
            crate::domain::dates::parse_instant(value).ok_or(()),
            "Data e hora inválidas; use AAAA-MM-DDTHH:MM (horário de Mato Grosso) ou RFC 3339 com o fuso.",
        )
    }

    pub fn uuid(&mut self, field: &str, value: &str) -> Option<Uuid> {
        self.take(
            field,
            Uuid::parse_str(value.trim()),
            "Identificador inválido.",
        )
    }

    pub fn range(&mut self, field: &str, value: i32, min: i32, max: i32) -> Option<i32> {
        if (min..=max).contains(&value) {
            Some(value)
        } else {
            self.0.push(ProblemItem::field(
                field,
                format!("Valor fora do intervalo aceito ({min} a {max})."),
            ));
            None
        }
    }

    /// Answers every collected field error at once, or hands back every parsed value
    /// (`parsed!` gathers them: all `Some` once no error was collected).
    pub fn done<T>(self, values: Option<T>) -> Result<T, ApiError> {
        self.finish()?;
        // With no error collected every field parsed; `None` here is a defect of the handler.
        values.ok_or(ApiError::Internal)
    }

    pub fn finish(self) -> Result<(), ApiError> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(ApiError::Invalid(self.0))
        }
    }
}

/// Every text a JSON body carries may end up printed on a document; one that
/// the documents' fonts cannot draw is refused here with 422, naming the field and the
/// character, before any handler runs (so no number is ever reserved for a document that
/// cannot be rendered). Runs on every resource of the route table, inside the role guard.
pub async fn printable_body(
    mut req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<
    actix_web::dev::ServiceResponse<actix_web::body::EitherBody<impl actix_web::body::MessageBody>>,
    actix_web::Error,
> {
    use actix_web::ResponseError as _;
    let json = req
        .headers()
        .get(actix_web::http::header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !json {
        return next
            .call(req)
            .await
            .map(actix_web::dev::ServiceResponse::map_into_left_body);
    }
    let bytes = req.extract::<actix_web::web::Bytes>().await?;
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(&bytes)
        && let Some((field, c)) = unprintable_in(&value, "")
    {
        let e = ApiError::Invalid(vec![ProblemItem::field(
            &field,
            format!(
                "O caractere {} não pode ser impresso nos documentos da Prefeitura: use letras (inclusive acentuadas, gregas ou cirílicas), números e sinais comuns.",
                crate::documents::printable::describe(c)
            ),
        )]);
        let (http, _) = req.into_parts();
        return Ok(
            actix_web::dev::ServiceResponse::new(http, e.error_response()).map_into_right_body(),
        );
    }
    // A date no official act can bear (a signed or five-digit year, before
    // 1900 or after 2100) is refused here too, whatever field carries it.
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(&bytes)
        && let Some(field) = implausible_date_in(&value, "")
    {
        let e = ApiError::Invalid(vec![ProblemItem::field(
            &field,
            "Data implausível: o ano deve estar entre 1900 e 2100 (formato AAAA-MM-DD).".to_owned(),
        )]);
        let (http, _) = req.into_parts();
        return Ok(
            actix_web::dev::ServiceResponse::new(http, e.error_response()).map_into_right_body(),
        );
    }
    req.set_payload(actix_http::Payload::from(bytes));
    next.call(req)
        .await
        .map(actix_web::dev::ServiceResponse::map_into_left_body)
}

/// Whether `s` is written as a date (`AAAA-MM-DD`, possibly signed or with more year digits,
/// possibly followed by a time) whose year is not between 1900 and 2100.
pub fn implausible_date(s: &str) -> bool {
    let t = s.trim();
    let (signed, body) = match t.as_bytes().first() {
        Some(b'+' | b'-') => (true, &t[1..]),
        _ => (false, t),
    };
    let digits = body.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &body.as_bytes()[digits..];
    let dated = digits >= 4
        && rest.len() >= 6
        && rest[0] == b'-'
        && rest[1..3].iter().all(u8::is_ascii_digit)
        && rest[3] == b'-'
        && rest[4..6].iter().all(u8::is_ascii_digit)
        && rest.get(6).is_none_or(|c| matches!(c, b'T' | b't' | b' '));
    let year: u32 = body[..digits].parse().unwrap_or(u32::MAX);
    dated && (signed || digits > 4 || !(1900..=2100).contains(&year))
}

/// The path of the first string of `value` written as an implausible date.
fn implausible_date_in(value: &serde_json::Value, path: &str) -> Option<String> {
    use serde_json::Value;
    match value {
        Value::String(s) => implausible_date(s).then(|| path.to_owned()),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| implausible_date_in(v, &format!("{path}[{i}]"))),
        Value::Object(map) => map.iter().find_map(|(k, v)| {
            let here = if path.is_empty() {
                k.clone()
            } else {
                format!("{path}.{k}")
            };
            implausible_date_in(v, &here)
        }),
        _ => None,
    }
}

/// The first string of `value` (or object key) holding a character no document can print:
/// its path (`name`, `cnh.number`, `criminal_certificates[0].court`) and the character.
fn unprintable_in(value: &serde_json::Value, path: &str) -> Option<(String, char)> {
    use crate::documents::printable::first_unprintable;
    use serde_json::Value;
    match value {
        Value::String(s) => first_unprintable(s).map(|c| (path.to_owned(), c)),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| unprintable_in(v, &format!("{path}[{i}]"))),
        Value::Object(map) => map.iter().find_map(|(k, v)| {
            let here = if path.is_empty() {
                k.clone()
            } else {
                format!("{path}.{k}")
            };
            first_unprintable(k)
                .map(|c| (here.clone(), c))
                .or_else(|| unprintable_in(v, &here))
        }),
        _ => None,
    }
}

#[cfg(test)]
mod date_tests {
    #[test]
    fn dates_outside_1900_2100_are_implausible() {
        for bad in [
            "-0001-01-01",
            "+10000-01-01",
            "0000-01-01",
            "1899-12-31",
            "2101-01-01T00:00",
            "10000-01-01",
        ] {
            assert!(super::implausible_date(bad), "{bad}");
        }
        for fine in [
            "1900-01-01",
            "2026-11-30",
            "2026-11-30T14:35",
            "2026-11-30 14:35:00",
            "PG-2026/5532",
            "12345",
            "2026-13",
            "AIF-2026/000031",
        ] {
            assert!(!super::implausible_date(fine), "{fine}");
        }
    }
}
