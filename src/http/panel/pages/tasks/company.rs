//! A charter company's application as one task (Lei 4.937/2025, art. 7º): the company's
//! data, the petition, and the documents of art. 7º the basis in force lists, each with its
//! number, issue and — where the law asks one — validity; "Conferir" says what the Termo would
//! still need. An incomplete list is filed; it keeps the Termo from being issued.

use std::collections::HashMap;

use super::filed::{self, FILING};
use super::{
    AppState, Competence, Field, HttpRequest, Meta, Method, Outcome, Page, Section, Signed,
    StatusCode, call, check_passes, id_of, posted, redirect, refused_outcome, task_page, web,
};
use crate::domain::charter::CompanyChecklist;
use crate::domain::filings::FilingKind;
use crate::domain::legal_basis::CharterLegalBasis;

const PATTERN: &str = "/api/v1/charter/companies";

const META: Meta = Meta {
    title: "Cadastro de empresa de fretamento (art. 7º)",
    intro: "Os campos seguem o requerimento e a lista de documentos do art. 7º. Uma lista incompleta é registrada, mas impede o Termo de Autorização. “Conferir” mostra, sem gravar, o que ainda faltaria para o Termo.",
    action: "/painel/tarefa/empresa",
    buttons: [
        ("conferir", "Conferir, sem gravar"),
        ("cadastrar", "Cadastrar a empresa"),
    ],
    fallback: &["charter.create_company", "charter.file_checklist"],
};

/// The company documents the basis in force asks for (Lei 4.937/2025, art. 7º): field
/// (`checklist.cnd_federal`), label, citation and whether it must print a validity, in the
/// file's order.
pub(super) fn documents(
    basis: &CharterLegalBasis,
) -> Vec<(&'static str, &'static str, String, bool)> {
    let checklist = CompanyChecklist::default();
    crate::domain::filings::company_documents(basis)
        .into_iter()
        .filter_map(|d| {
            checklist
                .item(&d.key)
                .map(|i| (i.field, i.label, d.citation, d.lapses))
        })
        .collect()
}

fn sections(basis: &CharterLegalBasis) -> Vec<Section> {
    let mut papers = Vec::new();
    for (field, label, citation, needs_validity) in documents(basis) {
        let mut title = label.to_owned();
        if let Some(first) = title.get(0..1) {
            title.replace_range(0..1, &first.to_uppercase());
        }
        papers.push(Field::text(
            &format!("{field}.reference"),
            &format!("{title} ({citation}) — número ou referência"),
        ));
        papers.push(Field::date(&format!("{field}.issued_on"), "Emitido em"));
        if needs_validity {
            papers.push(Field::date(&format!("{field}.valid_until"), "Válido até"));
        } else {
            papers.push(Field::date(
                &format!("{field}.valid_until"),
                "Válido até (se impresso)",
            ));
        }
    }
    vec![
        Section::new(
            "Empresa",
            None,
            vec![
                Field::text("cnpj", "CNPJ").required(),
                Field::text("name", "Razão social").required(),
                Field::text("address", "Endereço").required(),
                Field::text("phone", "Telefone").required(),
                Field::text("email", "E-mail").required(),
                Field::select(
                    "modality",
                    "Modalidade",
                    vec![
                        ("continuo".into(), "Fretamento contínuo".into()),
                        ("eventual".into(), "Fretamento eventual".into()),
                        ("transporte_proprio".into(), "Transporte próprio".into()),
                    ],
                )
                .required(),
                Field::select(
                    "operating_before_law",
                    "Já operava antes da lei",
                    super::yes_no(),
                )
                .preset("false"),
            ],
        )
        .columns(3),
        Section::new(
            "Requerimento",
            None,
            vec![
                Field::text("protocol", "Número do protocolo").required(),
                Field::date("applied_on", "Protocolado em").required(),
                // Opened from a filing sent online: its number and date are the protocol's.
                Field::hidden(FILING, ""),
            ],
        )
        .columns(2),
        Section::new(
            "Documentos do art. 7º",
            Some("Em branco, o documento não foi apresentado.".into()),
            papers,
        )
        .columns(3),
    ]
}

fn page(s: &Signed, outcome: Outcome, status: StatusCode) -> Page {
    let basis = s.app.state.charter_basis();
    task_page(s, &META, sections(&basis), outcome, status)
}

pub(in crate::http::panel) async fn company_task(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueCharter)?;
    let mut outcome = Outcome::default();
    let kind = FilingKind::CharterRegistration;
    if let Some(v) = filed::prefill(&state, &query, kind, "applied_on", &[], &mut outcome).await? {
        outcome
            .values
            .insert("protocol".into(), v.row.number.clone().unwrap_or_default());
    }
    page(&s, outcome, StatusCode::OK)
}

fn task_field(field: &str) -> String {
    match field {
        other if other.starts_with("checklist.") && other.matches('.').count() == 1 => {
            format!("{other}.reference")
        }
        other => other.to_owned(),
    }
}

pub(in crate::http::panel) async fn company_submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueCharter)?;
    let mut values: HashMap<String, String> = posted(&s, form.into_inner())?;
    let act = values.get("acao").map(String::as_str) == Some("cadastrar");
    let mut errors = Vec::new();
    // A filing sent online: its number and date are the protocol's.
    let kind = FilingKind::CharterRegistration;
    let at = ("protocol", &mut errors);
    let filing = filed::posted(&state, &mut values, kind, "applied_on", at).await?;
    if let Some(number) = filing.as_ref().and_then(|f| f.row.number.clone()) {
        values.insert("protocol".into(), number);
    }
    let body = super::api_body(PATTERN, &values, &mut errors);
    let refused = |errors, headline: &str| Outcome::refused(&values, &[], errors, headline);
    let Some(body) = body.filter(|_| errors.is_empty()) else {
        let o = refused(errors, "Confira os campos; nada foi gravado.");
        return page(&s, o, StatusCode::UNPROCESSABLE_ENTITY);
    };
    let checked = match check_passes(
        &s,
        "/api/v1/charter/company-checks",
        &body,
        refused(Vec::new(), ""),
        task_field,
    )
    .await?
    {
        Ok(checked) => checked,
        Err((o, status)) => return page(&s, o, status),
    };
    if !act {
        // Not presented, by name; the others (lapsed…) as the law's check says them.
        let mut absent = Vec::new();
        let mut other = Vec::new();
        for m in checked["missing_for_termo"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            let message = m["message"]
                .as_str()
                .unwrap_or_default()
                .trim_end_matches('.');
            let article = m["article"].as_str().unwrap_or_default();
            match message.strip_prefix("Documento não apresentado: ") {
                Some(label) => absent.push(format!("{label} ({article})")),
                None => other.push(format!("{message} ({article})")),
            }
        }
        let mut needs = Vec::new();
        if !absent.is_empty() {
            needs.push(format!("faltam {}", absent.join(", ")));
        }
        needs.extend(other);
        let what = if needs.is_empty() {
            "A empresa será cadastrada com todos os documentos do art. 7º em vigor: o Termo poderá ser emitido.".to_owned()
        } else {
            format!(
                "A empresa será cadastrada, mas o Termo ainda não poderá ser emitido: {}.",
                needs.join("; ")
            )
        };
        let o = Outcome {
            values: values.clone(),
            ok: Some(format!("Conferido. {what} Nada foi gravado ainda.")),
            ..Outcome::default()
        };
        return page(&s, o, StatusCode::OK);
    }
    let answer = call(&s, Method::POST, PATTERN, Some(&body)).await?;
    if !answer.status.is_success() {
        let (o, status) = refused_outcome(&s, &answer, refused(Vec::new(), ""), task_field)?;
        return page(&s, o, status);
    }
    filed::record_decision(&state, &s, filing.as_ref(), &answer).await;
    Ok(redirect(&format!(
        "/painel/ver/charter/companies/{}?feito=charter.create_company",
        id_of(&answer)
    )))
}
