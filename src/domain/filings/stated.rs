//! What an applicant states in a filing besides its files: the driver's and the car's data of a
//! new authorization, the new car of a substitution, the company of an art. 7 registration, the
//! bus of an enrolment. Each field is named as the desk's task names it, so the official opens
//! the task on the filing with the applicant's data already in place; the law is conferred
//! there, as at the counter. Here only the form of each answer is checked.

use std::collections::{BTreeMap, HashMap};

use chrono::NaiveDate;

use crate::domain::ride_hailing::OwnerType;
use crate::domain::ride_hailing::substitution::SubstitutionCause;

/// How a stated field is typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Text,
    /// A day, `dd/mm/aaaa` (or `aaaa-mm-dd`), kept as `aaaa-mm-dd`.
    Date,
    /// A whole number.
    Number,
    /// One of (value, label).
    Choice(Vec<(String, String)>),
}

/// One thing the applicant states.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatedField {
    /// Its name, as the desk's task names the field.
    pub name: String,
    pub label: String,
    pub input: Input,
    pub required: bool,
    pub hint: Option<String>,
}

impl StatedField {
    fn new(name: &str, label: &str, input: Input) -> Self {
        Self {
            name: name.to_owned(),
            label: label.to_owned(),
            input,
            required: true,
            hint: None,
        }
    }
    fn text(name: &str, label: &str) -> Self {
        Self::new(name, label, Input::Text)
    }
    fn date(name: &str, label: &str) -> Self {
        Self::new(name, label, Input::Date)
    }
    fn number(name: &str, label: &str) -> Self {
        Self::new(name, label, Input::Number)
    }
    fn choice(name: &str, label: &str, options: &[(&str, &str)]) -> Self {
        let options = options
            .iter()
            .map(|(v, l)| ((*v).to_owned(), (*l).to_owned()))
            .collect();
        Self::new(name, label, Input::Choice(options))
    }
    fn yes_no(name: &str, label: &str) -> Self {
        Self::choice(name, label, &[("true", "Sim"), ("false", "Não")])
    }
    fn optional(self) -> Self {
        Self {
            required: false,
            ..self
        }
    }
    fn hint(self, hint: &str) -> Self {
        Self {
            hint: Some(hint.to_owned()),
            ..self
        }
    }

    /// The options of a choice (empty for the other inputs).
    pub fn options(&self) -> &[(String, String)] {
        match &self.input {
            Input::Choice(o) => o,
            _ => &[],
        }
    }

    /// The HTML input type the field is typed in.
    pub fn html_type(&self) -> &'static str {
        match self.input {
            Input::Number => "number",
            Input::Choice(_) => "select",
            Input::Text | Input::Date => "text",
        }
    }

    pub fn is_date(&self) -> bool {
        self.input == Input::Date
    }

    /// A kept value as the applicant reads it (a day as `dd/mm/aaaa`, a choice by its label).
    pub fn shown(&self, value: &str) -> String {
        match &self.input {
            Input::Date => NaiveDate::parse_from_str(value, "%Y-%m-%d")
                .map_or_else(|_| value.to_owned(), |d| d.format("%d/%m/%Y").to_string()),
            Input::Choice(options) => options
                .iter()
                .find(|(v, _)| v == value)
                .map_or_else(|| value.to_owned(), |(_, l)| l.clone()),
            Input::Text | Input::Number => value.to_owned(),
        }
    }
}

/// The car's fields as the CRLV gives them, under `vehicle.` (a new authorization's car, or the
/// new car of a substitution); `municipalities` are the registrations the basis accepts
/// (IBGE code, name), the owner's CPF defaulting to the driver's.
pub fn car_fields(municipalities: &[(String, String)]) -> Vec<StatedField> {
    let owners: Vec<(String, String)> = OwnerType::ALL
        .iter()
        .map(|o| (o.as_str().to_owned(), owner_label(*o).to_owned()))
        .collect();
    let mut registration = StatedField::new(
        "vehicle.registration_municipality_ibge",
        "Município do CRLV",
        Input::Choice(municipalities.to_vec()),
    );
    if municipalities.is_empty() {
        registration = StatedField::text(
            "vehicle.registration_municipality_ibge",
            "Código IBGE do município do CRLV",
        );
    }
    vec![
        StatedField::text("vehicle.plate", "Placa"),
        StatedField::text("vehicle.renavam", "RENAVAM"),
        StatedField::text("vehicle.make", "Marca"),
        StatedField::text("vehicle.model", "Modelo"),
        StatedField::text("vehicle.color", "Cor"),
        StatedField::number("vehicle.model_year", "Ano do modelo"),
        StatedField::number("vehicle.manufacture_year", "Ano de fabricação").optional(),
        StatedField::number("vehicle.doors", "Portas"),
        StatedField::yes_no("vehicle.air_conditioning", "Tem ar-condicionado?"),
        StatedField::number(
            "vehicle.capacity_including_driver",
            "Lugares, contando o do motorista",
        ),
        registration,
        StatedField::new(
            "vehicle.owner_type",
            "Seu vínculo com o carro",
            Input::Choice(owners),
        ),
        StatedField::text(
            "vehicle.owner_document",
            "CPF ou CNPJ de quem consta no CRLV",
        )
        .optional()
        .hint("Em branco: o seu CPF (carro no seu nome)."),
    ]
}

fn owner_label(o: OwnerType) -> &'static str {
    match o {
        OwnerType::Proprietario => "Carro no meu nome (proprietário)",
        OwnerType::Fiduciante => "Carro no meu nome, financiado (alienação fiduciária)",
        OwnerType::Arrendatario => "Carro no meu nome, em arrendamento (leasing)",
        OwnerType::LocadoraPj => "Carro alugado de uma locadora (empresa)",
        OwnerType::AutorizacaoExpressa => "Carro de outra pessoa, com autorização expressa dela",
    }
}

/// The driver's fields of a new authorization, as the CNH gives them (the CPF is the one the
/// filing was opened with).
pub fn driver_fields() -> Vec<StatedField> {
    let categories: Vec<(&str, &str)> = ["B", "AB", "C", "AC", "D", "AD", "E", "AE"]
        .iter()
        .map(|c| (*c, *c))
        .collect();
    vec![
        StatedField::text("name", "Nome completo"),
        StatedField::text("cnh.number", "Número de registro da CNH"),
        StatedField::choice("cnh.category", "Categoria da CNH", &categories),
        StatedField::yes_no(
            "cnh.ear",
            "A CNH traz a observação EAR (exerce atividade remunerada)?",
        ),
        StatedField::date("cnh.first_license_date", "Data da primeira habilitação"),
        StatedField::date("cnh.expires_on", "Validade da CNH"),
    ]
}

/// The cause of a car's substitution.
pub fn cause_field() -> StatedField {
    let causes: Vec<(String, String)> = SubstitutionCause::ALL
        .iter()
        .map(|c| (c.as_str().to_owned(), cause_label(*c).to_owned()))
        .collect();
    StatedField::new("cause", "Por que troca de carro", Input::Choice(causes))
}

fn cause_label(c: SubstitutionCause) -> &'static str {
    match c {
        SubstitutionCause::Sinistro => "Sinistro (acidente, roubo, perda)",
        SubstitutionCause::Venda => "Venda do carro autorizado",
        SubstitutionCause::Locacao => "Fim da locação do carro autorizado",
    }
}

/// The company's fields of an art. 7 registration (the CNPJ is the one the filing was opened
/// with).
pub fn company_fields() -> Vec<StatedField> {
    vec![
        StatedField::text("name", "Razão social"),
        StatedField::text("address", "Endereço da sede"),
        StatedField::text("phone", "Telefone"),
        StatedField::text("email", "E-mail da empresa"),
        StatedField::choice(
            "modality",
            "Modalidade",
            &[
                ("continuo", "Fretamento contínuo"),
                ("eventual", "Fretamento eventual"),
                ("transporte_proprio", "Transporte próprio"),
            ],
        ),
        StatedField::yes_no(
            "operating_before_law",
            "A empresa já fazia fretamento no município antes da lei?",
        ),
    ]
}

/// A bus's fields as its CRLV, its ownership proof, its ITV report and its insurance give them.
pub fn bus_fields() -> Vec<StatedField> {
    vec![
        StatedField::text("plate", "Placa"),
        StatedField::text("renavam", "RENAVAM"),
        StatedField::choice(
            "kind",
            "Espécie/tipo",
            &[("onibus", "Ônibus"), ("micro_onibus", "Micro-ônibus")],
        ),
        StatedField::text("make", "Marca"),
        StatedField::text("model", "Modelo"),
        StatedField::number("model_year", "Ano do modelo"),
        StatedField::date("first_registration_date", "Primeiro licenciamento em"),
        StatedField::number("crlv_year", "Ano do licenciamento (CRLV)"),
        StatedField::number("seated_capacity", "Lugares sentados, sem o motorista"),
        StatedField::number("doors", "Portas"),
        StatedField::yes_no("has_turnstile", "Tem catraca?"),
        StatedField::yes_no("zero_km", "É zero-quilômetro?"),
        StatedField::text("owner_cnpj", "CNPJ do proprietário")
            .hint("O do CRV, ou o do comprador no contrato registrado."),
        StatedField::choice(
            "ownership_proof",
            "Comprovante de propriedade",
            &[
                ("crv", "CRV"),
                ("crv_e", "CRV-e"),
                ("atpv_e", "ATPV-e"),
                (
                    "contrato_rtd",
                    "Contrato registrado em títulos e documentos",
                ),
                ("extrato_detran", "Extrato do DETRAN"),
            ],
        ),
        StatedField::date("itv_report_date", "Laudo de ITV emitido em"),
        StatedField::text("itv_provider", "Organismo que fez a ITV"),
        StatedField::text("insurance.insurer", "Seguradora"),
        StatedField::text("insurance.policy", "Número da apólice"),
        StatedField::date("insurance.valid_from", "Seguro válido de"),
        StatedField::date("insurance.valid_to", "Seguro válido até"),
    ]
}

/// Reads what the applicant typed for `fields`: every required one answered, days as days,
/// numbers as whole numbers, choices among their options, nothing over 200 characters. The
/// kept map has only these fields (days as `aaaa-mm-dd`); the problems are beside each field.
pub fn read<S: std::hash::BuildHasher>(
    fields: &[StatedField],
    form: &HashMap<String, String, S>,
) -> Result<BTreeMap<String, String>, Vec<(String, String)>> {
    let mut kept = BTreeMap::new();
    let mut problems = Vec::new();
    for f in fields {
        let raw = form.get(&f.name).map_or("", |v| v.trim());
        if raw.is_empty() {
            if f.required {
                problems.push((f.name.clone(), "Preencha este campo.".to_owned()));
            }
            continue;
        }
        if raw.chars().count() > 200 {
            problems.push((f.name.clone(), "No máximo 200 caracteres.".to_owned()));
            continue;
        }
        let value = match &f.input {
            Input::Text => Ok(raw.to_owned()),
            Input::Date => NaiveDate::parse_from_str(raw, "%d/%m/%Y")
                .or_else(|_| NaiveDate::parse_from_str(raw, "%Y-%m-%d"))
                .map(|d| d.format("%Y-%m-%d").to_string())
                .map_err(|_| "Informe a data como dd/mm/aaaa."),
            Input::Number => raw
                .parse::<u32>()
                .map(|n| n.to_string())
                .map_err(|_| "Informe um número inteiro."),
            Input::Choice(options) => options
                .iter()
                .find(|(v, _)| v == raw)
                .map(|(v, _)| v.clone())
                .ok_or("Escolha uma das opções."),
        };
        match value {
            Ok(v) => {
                kept.insert(f.name.clone(), v);
            }
            Err(m) => problems.push((f.name.clone(), m.to_owned())),
        }
    }
    if problems.is_empty() {
        Ok(kept)
    } else {
        Err(problems)
    }
}

/// The required fields `stated` leaves unanswered.
pub fn unanswered<'a>(
    fields: &'a [StatedField],
    stated: &BTreeMap<String, String>,
) -> Vec<&'a StatedField> {
    fields
        .iter()
        .filter(|f| f.required && !stated.contains_key(&f.name))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn answers_are_read_by_their_input_and_each_problem_is_named() {
        let fields = driver_fields();
        let good = form(&[
            ("name", " Ana Souza "),
            ("cnh.number", "12345678900"),
            ("cnh.category", "B"),
            ("cnh.ear", "true"),
            ("cnh.first_license_date", "02/03/2010"),
            ("cnh.expires_on", "2030-01-31"),
            ("ignored", "x"),
        ]);
        let kept = read(&fields, &good).unwrap();
        assert_eq!(kept["name"], "Ana Souza");
        assert_eq!(kept["cnh.first_license_date"], "2010-03-02");
        assert_eq!(kept["cnh.expires_on"], "2030-01-31");
        assert!(!kept.contains_key("ignored"));
        assert!(unanswered(&fields, &kept).is_empty());

        let bad = form(&[
            ("name", "Ana"),
            ("cnh.category", "Z"),
            ("cnh.ear", "true"),
            ("cnh.first_license_date", "31/02/2010"),
            ("cnh.expires_on", "2030-01-31"),
        ]);
        let problems = read(&fields, &bad).unwrap_err();
        let named: Vec<&str> = problems.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(
            named,
            ["cnh.number", "cnh.category", "cnh.first_license_date"]
        );
    }

    #[test]
    fn a_car_s_optional_fields_may_stay_blank_and_numbers_are_whole() {
        let fields = car_fields(&[("5101803".into(), "Barra do Garças (MT)".into())]);
        let mut typed = form(&[
            ("vehicle.plate", "ABC1D23"),
            ("vehicle.renavam", "12345678901"),
            ("vehicle.make", "Fiat"),
            ("vehicle.model", "Cronos"),
            ("vehicle.color", "Prata"),
            ("vehicle.model_year", "2022"),
            ("vehicle.doors", "4"),
            ("vehicle.air_conditioning", "true"),
            ("vehicle.capacity_including_driver", "5"),
            ("vehicle.registration_municipality_ibge", "5101803"),
            ("vehicle.owner_type", "proprietario"),
        ]);
        let kept = read(&fields, &typed).unwrap();
        assert!(!kept.contains_key("vehicle.owner_document"));
        typed.insert("vehicle.doors".into(), "4.5".into());
        typed.insert("vehicle.registration_municipality_ibge".into(), "1".into());
        let problems = read(&fields, &typed).unwrap_err();
        assert_eq!(problems.len(), 2);
        let f = &fields[10];
        assert_eq!(f.shown("5101803"), "Barra do Garças (MT)");
        assert_eq!(
            StatedField::date("d", "D").shown("2026-12-06"),
            "06/12/2026"
        );
    }
}
