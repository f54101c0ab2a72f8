//! Drawing up a charter auto de infração as one task (Lei 4.937/2025, arts. 18–21): the
//! company by its CNPJ, the bus by its plate, the infraction picked from the art. 19
//! catalogue of the basis in force; "Conferir" shows the fine, recidivism counted.

use std::fmt::Write as _;

use serde_json::Value;

use super::{
    AppState, Competence, Field, HashMap, HttpRequest, Meta, Method, Outcome, Page, Section,
    Signed, StatusCode, call, check_passes, conferred, id_of, posted, redirect, refused_outcome,
    task_page, web,
};
use crate::domain::legal_basis::CharterLegalBasis;

const META: Meta = Meta {
    title: "Lavrar auto de infração (fretamento)",
    intro: "Os campos seguem o auto preenchido pelo agente. “Conferir” mostra, sem gravar, a multa que o auto terá, com a reincidência contada entre os autos da empresa.",
    action: "/painel/tarefa/auto-fretamento",
    buttons: [
        ("conferir", "Conferir, sem gravar"),
        ("lavrar", "Lavrar o auto"),
    ],
    fallback: &["charter.create_auto"],
};

fn sections(basis: &CharterLegalBasis, inspector: &str) -> Vec<Section> {
    let mut sections = vec![
        Section::new(
            "Autuada",
            None,
            vec![
                Field::text("cnpj", "CNPJ da empresa").required(),
                Field::text("vehicle_plate", "Placa do ônibus ou micro-ônibus"),
            ],
        )
        .columns(2),
    ];
    let catalogue = super::super::acts::infraction_choices(
        basis
            .infractions
            .iter()
            .map(|i| (&i.id, &i.article, &i.description)),
    );
    sections.extend(super::auto_sections("infraction", catalogue, inspector));
    sections
}

fn page(s: &Signed, outcome: Outcome, status: StatusCode) -> Page {
    let basis = s.app.state.charter_basis();
    task_page(
        s,
        &META,
        sections(&basis, &s.official.name),
        outcome,
        status,
    )
}

pub(in crate::http::panel) async fn charter_auto_task(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::InspectCharter)?;
    let outcome = super::opened_on_company(&state, &query).await;
    page(&s, outcome, StatusCode::OK)
}

fn task_field(field: &str) -> String {
    match field {
        "company" | "id" => "cnpj".into(),
        "committed_on" => "committed_at".into(),
        other => other.to_owned(),
    }
}

/// What the check says the fine would be.
fn fine_of(checked: &Value) -> String {
    let fine = &checked["fine"];
    let mut out = format!("O auto terá multa de {} UPFBG", fine["upf"]);
    if let Some(brl) = checked["fine_brl"].as_str() {
        let _ = write!(out, " ({brl})");
    }
    if fine["recidivism"] == Value::Bool(true) {
        let _ = write!(
            out,
            ", em dobro: repete a infração do auto {} (art. 19, parágrafo único)",
            fine["repeats"].as_str().unwrap_or_default()
        );
    }
    out.push('.');
    if fine["cassacao_ground"] == Value::Bool(true) {
        out.push_str(" A repetição é fundamento para a cassação (art. 20, IV).");
    }
    out
}

pub(in crate::http::panel) async fn charter_auto_submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::InspectCharter)?;
    let values = posted(&s, form.into_inner())?;
    let act = values.get("acao").map(String::as_str) == Some("lavrar");
    let mut errors = Vec::new();
    let mut found = Vec::new();
    let company = super::company_named(&state, &values, "cnpj", &mut errors, &mut found).await?;
    let body = super::api_body("/api/v1/charter/companies/{id}/autos", &values, &mut errors);
    let refused = |errors, headline: &str| Outcome::refused(&values, &found, errors, headline);
    let (Some(c), Some(body)) = (company, body.filter(|_| errors.is_empty())) else {
        let o = refused(errors, "Confira os campos; nada foi gravado.");
        return page(&s, o, StatusCode::UNPROCESSABLE_ENTITY);
    };
    let path = format!("/api/v1/charter/companies/{}/auto-checks", c.id);
    let checked = match check_passes(&s, &path, &body, refused(Vec::new(), ""), task_field).await? {
        Ok(checked) => checked,
        Err((o, status)) => return page(&s, o, status),
    };
    if !act {
        return page(
            &s,
            conferred(&values, found, &fine_of(&checked)),
            StatusCode::OK,
        );
    }
    let path = format!("/api/v1/charter/companies/{}/autos", c.id);
    let answer = call(&s, Method::POST, &path, Some(&body)).await?;
    if !answer.status.is_success() {
        let (o, status) = refused_outcome(&s, &answer, refused(Vec::new(), ""), task_field)?;
        return page(&s, o, status);
    }
    Ok(redirect(&format!(
        "/painel/ver/charter/autos/{}?feito=charter.create_auto",
        id_of(&answer)
    )))
}
