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
