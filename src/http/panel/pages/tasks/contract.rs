//! A charter contract as one task (Lei 4.937/2025, arts. 2º, 3º and 8º, §3º): the company by
//! its CNPJ, the contract in the order of the paper, the buses by their plates and the
//! passengers' list typed one per line; "Conferir" applies the law — an authorized company,
//! regular buses with the seats for the list — and counts the days to communicate it.

use std::collections::HashMap;

use super::{
    AppState, Competence, Field, HttpRequest, Meta, Method, Outcome, Page, Section, Signed,
    StatusCode, answered_day, call, check_passes, conferred, id_of, posted, redirect,
    refused_outcome, task_page, web,
};

const PATTERN: &str = "/api/v1/charter/companies/{id}/contracts";

const META: Meta = Meta {
    title: "Registro de contrato de fretamento",
    intro: "Os campos seguem o contrato. “Conferir” aplica a lei sem gravar nada: empresa autorizada, veículos cadastrados e regulares, lugares para a lista de passageiros, e o prazo para comunicar o contrato à Secretaria.",
    action: "/painel/tarefa/contrato",
    buttons: [
        ("conferir", "Conferir, sem gravar"),
        ("registrar", "Registrar o contrato"),
    ],
    fallback: &["charter.create_contract", "charter.file_trip"],
};

fn sections() -> Vec<Section> {
    let contractors = [
        ("pessoa_juridica", "Pessoa jurídica"),
        ("instituicao_ensino", "Instituição de ensino"),
        (
            "entidade_estudantil_associacao",
            "Entidade estudantil ou associação",
        ),
        ("orgao_publico", "Órgão público"),
        ("assentamento", "Assentamento"),
        ("prefeitura", "Prefeitura"),
        ("transporte_escolar_regular", "Transporte escolar regular"),
        ("grupo_particular", "Grupo particular"),
    ]
    .iter()
    .map(|(v, t)| ((*v).to_owned(), (*t).to_owned()))
    .collect();
    vec![
        Section::new(
            "Empresa",
            None,
            vec![Field::text("cnpj", "CNPJ da empresa de fretamento").required()],
        ),
        Section::new(
            "Contrato (art. 2º)",
            None,
            vec![
                Field::select(
                    "kind",
                    "Fretamento",
                    vec![
                        ("continuo".into(), "Contínuo".into()),
                        ("eventual".into(), "Eventual".into()),
                    ],
                )
                .required(),
                Field::select("contractor_type", "Contratante", contractors).required(),
                Field::text("contractor_name", "Nome do contratante").required(),
                Field::select(
                    "contractor_uses_own_vehicles",
                    "Órgão público com veículos próprios ou locados",
                    super::yes_no(),
                )
                .preset("false"),
                Field::text("purpose", "Finalidade").required(),
                Field::select("tourism", "Turismo", super::yes_no()).preset("false"),
                Field::date("signed_on", "Assinado em").required(),
                Field::date("start_date", "Vigência de").required(),
                Field::date("end_date", "Vigência até").required(),
                Field::date("communicated_on", "Comunicado à Secretaria em").required(),
                Field::text("notary_registration", "Registro em cartório (contínuo)"),
                Field::text("nfse_number", "Nota fiscal de serviço"),
            ],
        )
        .columns(3),
        Section::new(
            "Viagem",
            None,
            vec![
                Field::text("origin", "Origem").required(),
                Field::text("destination", "Destino").required(),
                Field::select(
                    "within_municipality",
                    "Origem e destino em Barra do Garças",
                    super::yes_no(),
                )
                .required(),
                Field::textarea("itinerary", "Itinerário").required(),
                Field::textarea("timetable", "Dias e horários")
                    .required()
                    .hint("Um por linha: Seg a sex 06:00."),
            ],
        )
        .columns(3),
        Section::new(
            "Veículos e passageiros (art. 8º, §3º)",
            None,
            vec![
                Field::textarea("vehicle_plates", "Placas dos veículos")
                    .required()
                    .hint("Uma por linha."),
                Field::textarea("passageiros", "Lista de passageiros")
                    .required()
                    .hint("Uma pessoa por linha: nome; CPF (ou outro documento)."),
            ],
        )
        .columns(2),
    ]
}

fn page(s: &Signed, outcome: Outcome, status: StatusCode) -> Page {
    task_page(s, &META, sections(), outcome, status)
}

pub(in crate::http::panel) async fn contract_task(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueCharter)?;
    let outcome = super::opened_on_company(&state, &query).await;
    page(&s, outcome, StatusCode::OK)
}

fn task_field(field: &str) -> String {
    match field {
        "company" | "id" | "status" => "cnpj".into(),
        other if other.starts_with("passengers") => "passageiros".into(),
        other if other.starts_with("vehicle") => "vehicle_plates".into(),
        other if other.starts_with("timetable") => "timetable".into(),
        other => other.to_owned(),
    }
}

/// The passengers' list typed one per line (`name; CPF`) as the rows the API's reader takes
/// (`passengers.0.name`, `passengers.0.cpf`…); the number of rows.
fn passenger_rows(values: &mut HashMap<String, String>) -> usize {
    let lines: Vec<String> = values
        .get("passageiros")
        .map(String::as_str)
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    for (i, line) in lines.iter().enumerate() {
        let mut parts = line.splitn(2, [';', '\t']).map(str::trim);
        let name = parts.next().unwrap_or_default();
        let document = parts.next().unwrap_or_default();
        values.insert(format!("passengers.{i}.name"), name.to_owned());
        // A CPF is eleven digits with or without its punctuation; anything else is another
        // document, for manual review.
        let digits = document.chars().filter(char::is_ascii_digit).count();
        let is_cpf = digits == 11
            && document
                .chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == '-');
        let key = if is_cpf { "cpf" } else { "other_document" };
        if !document.is_empty() {
            values.insert(format!("passengers.{i}.{key}"), document.to_owned());
        }
    }
    lines.len()
}

pub(in crate::http::panel) async fn contract_submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueCharter)?;
    let shown = posted(&s, form.into_inner())?;
    let act = shown.get("acao").map(String::as_str) == Some("registrar");
    let mut errors = Vec::new();
    let mut found = Vec::new();
    let company = super::company_named(&state, &shown, "cnpj", &mut errors, &mut found).await?;
    let mut values = shown.clone();
    let rows = passenger_rows(&mut values);
    if rows == 0 {
        errors.push(("passageiros".into(), "Campo obrigatório.".into()));
    }
    let body = super::api_body_rows(PATTERN, &values, rows.max(1), &mut errors);
    for e in &mut errors {
        e.0 = task_field(&e.0);
    }
    errors.dedup();
    let refused = |errors, headline: &str| Outcome::refused(&shown, &found, errors, headline);
    let (Some(c), Some(body)) = (company, body.filter(|_| errors.is_empty())) else {
        let o = refused(errors, "Confira os campos; nada foi gravado.");
        return page(&s, o, StatusCode::UNPROCESSABLE_ENTITY);
    };
    let path = format!("/api/v1/charter/companies/{}/contract-checks", c.id);
    let checked = match check_passes(&s, &path, &body, refused(Vec::new(), ""), task_field).await? {
        Ok(checked) => checked,
        Err((o, status)) => return page(&s, o, status),
    };
    if !act {
        let mut what = format!(
            "O contrato será registrado para {}; o prazo para comunicá-lo vai até {}.",
            c.data.name,
            answered_day(&checked["notice_due"], "due")
        );
        for w in checked["warnings"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            what.push(' ');
            what.push_str(w["message"].as_str().unwrap_or_default());
        }
        return page(&s, conferred(&shown, found, &what), StatusCode::OK);
    }
    let path = format!("/api/v1/charter/companies/{}/contracts", c.id);
    let answer = call(&s, Method::POST, &path, Some(&body)).await?;
    if !answer.status.is_success() {
        let (o, status) = refused_outcome(&s, &answer, refused(Vec::new(), ""), task_field)?;
        return page(&s, o, status);
    }
    // The contract's own page: its history, with the registration and what follows it.
    Ok(redirect(&format!(
        "/painel/ver/charter/contracts/{}/history?feito=charter.create_contract",
        id_of(&answer)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passenger_list_is_typed_one_per_line() {
        let mut values = HashMap::new();
        values.insert(
            "passageiros".to_owned(),
            "Maria Souza; 529.982.247-25\n\nJoão Lima; RG 123456 SSP-MT\nAna\tl11144477735\nPedro"
                .to_owned(),
        );
        assert_eq!(passenger_rows(&mut values), 4);
        assert_eq!(values["passengers.0.name"], "Maria Souza");
        assert_eq!(values["passengers.0.cpf"], "529.982.247-25");
        assert_eq!(values["passengers.1.other_document"], "RG 123456 SSP-MT");
        assert_eq!(values["passengers.2.other_document"], "l11144477735");
        assert_eq!(values["passengers.3.name"], "Pedro");
        assert!(!values.contains_key("passengers.3.cpf"));
        assert!(!values.contains_key("passengers.3.other_document"));
    }
}
