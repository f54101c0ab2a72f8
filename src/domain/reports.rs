//! Reports (denúncias) a passenger sends from the verification page: what happened, when, and
//! an optional address for the answer. Only what the Ouvidoria needs to act is kept (LGPD,
//! Lei 13.709/2018, art. 6º, III): no name, no CPF, no client address; the contact goes when the
//! answer is sent. Pure: the clock's reading comes in.

use chrono::{NaiveDate, NaiveTime};

/// What the passenger says happened, as the form offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    /// The car, the plate or the driver differ from what the document shows.
    NotTheSame,
    /// The document was shown although it is not valid (expired, suspended, revoked, forged).
    InvalidDocument,
    /// The driver's conduct: rudeness, harassment, discrimination, dangerous driving.
    Conduct,
    /// A fare charged beyond what was agreed, or a ride refused.
    Charge,
    /// The vehicle's condition: safety, hygiene, air conditioning.
    Vehicle,
    Other,
}

impl Category {
    pub const ALL: [Category; 6] = [
        Category::NotTheSame,
        Category::InvalidDocument,
        Category::Conduct,
        Category::Charge,
        Category::Vehicle,
        Category::Other,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotTheSame => "divergencia",
            Self::InvalidDocument => "documento_invalido",
            Self::Conduct => "conduta",
            Self::Charge => "cobranca",
            Self::Vehicle => "veiculo",
            Self::Other => "outro",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == s)
    }

    /// As the passenger and the Ouvidoria read it.
    pub fn label(self) -> &'static str {
        match self {
            Self::NotTheSame => "O carro, a placa ou o motorista não são os do documento",
            Self::InvalidDocument => "Documento vencido, suspenso, revogado ou falso em uso",
            Self::Conduct => "Conduta do motorista (desrespeito, assédio, direção perigosa)",
            Self::Charge => "Cobrança indevida ou recusa de corrida",
            Self::Vehicle => "Condições do veículo (segurança, higiene, ar-condicionado)",
            Self::Other => "Outro assunto",
        }
    }
}

/// The longest account a report may carry, in characters.
pub const MAX_ACCOUNT: usize = 2000;
/// The shortest: a few words that say what happened.
pub const MIN_ACCOUNT: usize = 10;
/// How far back an event may be reported, in days.
pub const MAX_AGE_DAYS: i64 = 365;

/// A report as the form sent it, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportInput {
    pub category: Category,
    pub account: String,
    pub occurred_on: NaiveDate,
    pub occurred_at: Option<NaiveTime>,
    pub contact: Option<String>,
}

/// What the form sent, as typed.
#[derive(Debug, Clone, Default)]
pub struct Typed<'a> {
    pub category: &'a str,
    pub account: &'a str,
    pub date: &'a str,
    pub time: &'a str,
    pub contact: &'a str,
}

/// Checks a report typed on `today` (local date); every problem, in pt-BR, at once.
pub fn check(
    t: &Typed<'_>,
    today: NaiveDate,
    parse_email: impl Fn(&str) -> Option<String>,
) -> Result<ReportInput, Vec<&'static str>> {
    let mut errors = Vec::new();
    let category = Category::parse(t.category.trim());
    if category.is_none() {
        errors.push("Escolha o que aconteceu.");
    }
    let account = t.account.trim();
    let chars = account.chars().count();
    if chars < MIN_ACCOUNT {
        errors.push("Conte em poucas palavras o que aconteceu (ao menos 10 letras).");
    } else if chars > MAX_ACCOUNT {
        errors.push("O relato passou de 2.000 caracteres: resuma o essencial.");
    }
    let date = NaiveDate::parse_from_str(t.date.trim(), "%Y-%m-%d").ok();
    match date {
        None => errors.push("Informe a data em que aconteceu."),
        Some(d) if d > today => errors.push("A data não pode ser futura."),
        Some(d) if (today - d).num_days() > MAX_AGE_DAYS => {
            errors.push("A data passou de um ano: procure a Ouvidoria pelo telefone.");
        }
        Some(_) => {}
    }
    let time = match t.time.trim() {
        "" => None,
        s => {
            let parsed = NaiveTime::parse_from_str(s, "%H:%M").ok();
            if parsed.is_none() {
                errors.push("Confira a hora (por exemplo, 21:30) ou deixe-a em branco.");
            }
            parsed
        }
    };
    let contact = match t.contact.trim() {
        "" => None,
        s => {
            let parsed = parse_email(s);
            if parsed.is_none() {
                errors.push("Confira o e-mail (nome@provedor.com.br) ou deixe-o em branco.");
            }
            parsed
        }
    };
    match (category, date) {
        (Some(category), Some(occurred_on)) if errors.is_empty() => Ok(ReportInput {
            category,
            account: account.to_owned(),
            occurred_on,
            occurred_at: time,
            contact,
        }),
        _ => Err(errors),
    }
}

/// What a report records as its verdict when the passenger verified nothing before sending
/// it (the form opened from a PDF's page, or directly).
pub const NOT_VERIFIED: &str = "nao_verificado";

/// Where a report stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportStatus {
    /// In the Ouvidoria's queue.
    Received,
    /// Answered and closed.
    Closed,
}

impl ReportStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Received => "recebida",
            Self::Closed => "encerrada",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "recebida" => Some(Self::Received),
            "encerrada" => Some(Self::Closed),
            _ => None,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::Received => "Recebida, aguardando a Ouvidoria",
            Self::Closed => "Encerrada",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn email(s: &str) -> Option<String> {
        s.contains('@').then(|| s.to_lowercase())
    }

    fn typed<'a>(date: &'a str, time: &'a str, contact: &'a str) -> Typed<'a> {
        Typed {
            category: "conduta",
            account: "O motorista dirigiu falando ao celular.",
            date,
            time,
            contact,
        }
    }

    #[test]
    fn a_complete_report_is_taken_with_its_optional_parts() {
        let today = d("2026-12-04");
        let r = check(
            &typed("2026-12-03", "21:30", "Ana@Exemplo.com"),
            today,
            email,
        )
        .unwrap();
        assert_eq!(r.category, Category::Conduct);
        assert_eq!(r.occurred_on, d("2026-12-03"));
        assert_eq!(r.occurred_at, NaiveTime::from_hms_opt(21, 30, 0));
        assert_eq!(r.contact.as_deref(), Some("ana@exemplo.com"));
        let r = check(&typed("2026-12-04", "", ""), today, email).unwrap();
        assert_eq!((r.occurred_at, r.contact), (None, None));
    }

    #[test]
    fn every_problem_is_named_at_once() {
        let today = d("2026-12-04");
        let t = Typed {
            category: "x",
            account: "curto",
            date: "2026-12-05",
            time: "25h",
            contact: "sem-arroba",
        };
        let errors = check(&t, today, email).unwrap_err();
        assert_eq!(errors.len(), 5, "{errors:?}");
        let old = check(&typed("2025-12-03", "", ""), today, email).unwrap_err();
        assert_eq!(
            old,
            ["A data passou de um ano: procure a Ouvidoria pelo telefone."]
        );
        assert!(check(&typed("2025-12-04", "", ""), today, email).is_ok());
        let long = "a".repeat(MAX_ACCOUNT + 1);
        let t = Typed {
            account: &long,
            ..typed("2026-12-04", "", "")
        };
        assert_eq!(check(&t, today, email).unwrap_err().len(), 1);
    }

    #[test]
    fn categories_round_trip() {
        for c in Category::ALL {
            assert_eq!(Category::parse(c.as_str()), Some(c));
        }
        for s in [ReportStatus::Received, ReportStatus::Closed] {
            assert_eq!(ReportStatus::parse(s.as_str()), Some(s));
        }
        assert_eq!(Category::parse("conduta "), None);
    }
}
