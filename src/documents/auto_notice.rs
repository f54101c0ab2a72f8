//! What an Auto de Infração e Notificação states, for both laws (autos that hold
//! up): the infraction's own article and the penalty article, the date and time and place,
//! the fine in units with the unit's value, the act that set it and the amount in reais and
//! in words, the notification, the defence deadline with where and how to file it, payment
//! instructions and deadline, and who drew it up and when. The profile's facts (where to file,
//! how to pay, who the authority is) are composed by the template, so a fact still to be
//! supplied prints highlighted.

use chrono::{DateTime, NaiveDate, Utc};
use serde_json::json;

use super::format;
use super::profile::LawCitation;

/// The UPF value of the year the auto was drawn up, and the act that fixed it (AMB-03, W3).
#[derive(Debug, Clone)]
pub struct UpfOfYear {
    pub year: i32,
    pub centavos: i64,
    pub act: String,
}

/// The facts of one auto, presentation-neutral.
pub struct AutoNotice<'a> {
    pub number: &'a str,
    pub title: &'a str,
    /// The profile's secretariat that judges the defence: `sis` or `smf`.
    pub secretariat: &'a str,
    pub infractor_name: &'a str,
    pub infractor_doc_label: &'a str,
    pub infractor_doc: &'a str,
    pub committed_on: NaiveDate,
    /// `None` for autos drawn up before the time was recorded.
    pub committed_at: Option<DateTime<Utc>>,
    pub place: &'a str,
    pub plate: Option<String>,
    /// The infraction's own article, e.g. `art. 19, III`.
    pub article: &'a str,
    /// The class of a ride-hailing infraction (`grave`), printed after the article.
    pub class: Option<&'a str>,
    pub description: &'a str,
    pub facts: &'a str,
    /// The penalty article, e.g. `art. 19, caput` or `art. 25, III`.
    pub penalty_article: String,
    /// `UPFBG` (charter) or `UPFG` (ride-hailing): both name the municipal unit (AMB-03).
    pub unit: &'a str,
    pub fine_upf: u64,
    pub upf: Option<UpfOfYear>,
    /// Recidivism, cassação grounds, platform copy: each a sentence.
    pub notes: Vec<String>,
    pub notified_on: NaiveDate,
    pub notice_method: &'a str,
    /// The juntada of the AR, from which the ride-hailing defence period runs.
    pub juntada_on: Option<NaiveDate>,
    pub defence_due: NaiveDate,
    /// "15 dias contados da notificação (art. 22, caput)".
    pub defence_period: String,
    pub reconsideration: String,
    pub payment_due: NaiveDate,
    /// What happens without payment, with its article when the law has one.
    pub payment_consequence: String,
    pub deadline_explanation: &'a str,
    pub inspector: &'a str,
    pub drawn_up_at: DateTime<Utc>,
}

/// "27/11/2026, às 09h40" or, without a recorded time, "27/11/2026 (hora não registrada)".
pub fn date_and_time(on: NaiveDate, at: Option<DateTime<Utc>>) -> String {
    at.map_or_else(
        || format!("{} (hora não registrada)", format::date(on)),
        |t| {
            format!(
                "{}, às {}",
                format::date(on),
                format::time_local(t).replace(':', "h")
            )
        },
    )
}

impl AutoNotice<'_> {
    /// The fine in reais, when the UPF value of the year is known.
    pub fn fine_centavos(&self) -> Option<i64> {
        let upf = i64::try_from(self.fine_upf).ok()?;
        self.upf.as_ref().map(|u| u.centavos * upf)
    }

    /// Inputs of `templates/auto_infracao.typ` besides the common ones; `law` cites the legal
    /// basis the auto was drawn up under.
    pub fn inputs(&self, law: Option<&LawCitation>, fallback_law: &str) -> serde_json::Value {
        let (law_text, short) = law.map_or_else(
            || (fallback_law.to_owned(), fallback_law.to_owned()),
            |l| (l.law(), l.short()),
        );
        let centavos = self.fine_centavos();
        let article = match self.class {
            Some(class) => format!("{} ({class})", self.article),
            None => self.article.to_owned(),
        };
        let upf_value = self.upf.as_ref().map_or_else(
            || {
                format!(
                    "valor da {} do exercício não cadastrado: o valor em reais será calculado quando o decreto for registrado",
                    self.unit
                )
            },
            |u| {
                format!(
                    "{} por {} no exercício de {}, conforme {}",
                    format::money(u.centavos),
                    self.unit,
                    u.year,
                    u.act
                )
            },
        );
        json!({
            "number": self.number,
            "title": self.title,
            "signer": self.secretariat,
            "infractor_name": self.infractor_name,
            "infractor_doc_label": self.infractor_doc_label,
            "infractor_doc": self.infractor_doc,
            "committed": date_and_time(self.committed_on, self.committed_at),
            "place": self.place,
            "plate": self.plate.clone().unwrap_or_else(|| "—".to_owned()),
            "infraction_cited": format!("{article} da {law_text}"),
            "description": self.description,
            "facts": self.facts,
            "penalty_cited": format!("{} da {short}", self.penalty_article),
            "fine_upf": format!("{} {}", format::thousands(self.fine_upf), self.unit),
            "upf_value": upf_value,
            "fine_brl": centavos.map_or_else(|| "a calcular".to_owned(), format::money),
            "fine_words": centavos.map_or_else(|| "—".to_owned(), format::money_in_words),
            "fine_note": self.notes.join(" "),
            "notified_on": format::date(self.notified_on),
            "notice_method": self.notice_method,
            "juntada_on": self.juntada_on.map(format::date),
            "defence_due": format::date(self.defence_due),
            "defence_period": self.defence_period,
            "reconsideration": self.reconsideration,
            "payment_due": format::date(self.payment_due),
            "payment_consequence": self.payment_consequence,
            "deadline_explanation": self.deadline_explanation,
            "inspector": self.inspector,
            "drawn_up_at": format::datetime_local(self.drawn_up_at),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_of_the_infraction_prints_in_mato_grosso_time() {
        let on = NaiveDate::from_ymd_opt(2026, 11, 27).unwrap();
        let at = crate::domain::dates::parse_instant("2026-11-27T09:40");
        assert_eq!(date_and_time(on, at), "27/11/2026, às 09h40");
        assert_eq!(date_and_time(on, None), "27/11/2026 (hora não registrada)");
    }
}
