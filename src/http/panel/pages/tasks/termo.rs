//! The charter Termo de Autorização, granted or renewed, as one task: the company by its CNPJ,
//! the certidões of art. 7, II brought again, conferred with the law, then issued (Lei
//! 4.937/2025, arts. 7º e 8º).

use serde_json::json;

use super::filed::{self, FILING};
use super::{
    AppState, Competence, Field, HashMap, HttpRequest, Meta, Method, Outcome, Page, Section,
    Signed, StatusCode, answered_day, call, check_passes, conferred, day, posted, redirect,
    refused_outcome, task_page, typed, web,
};
use crate::domain::filings::FilingKind;
use crate::domain::legal_basis::CharterLegalBasis;

const ACTION: &str = "/painel/tarefa/termo";

/// The company documents that lapse (each with a validity) as the charter basis in force
/// lists them (Lei 4.937/2025, art. 7º, II): field, label and citation, in the file's order.
fn lapsing(basis: &CharterLegalBasis) -> Vec<(&'static str, &'static str, String)> {
    super::company::documents(basis)
        .into_iter()
        .filter(|(.., needs_validity)| *needs_validity)
        .map(|(field, label, citation, _)| (field, label, citation))
        .collect()
}

fn sections(basis: &CharterLegalBasis) -> Vec<Section> {
    let lapsing = lapsing(basis);
    let mut citations: Vec<&str> = Vec::new();
    let mut certidoes = Vec::new();
    for (field, label, citation) in &lapsing {
        if !citations.contains(&citation.as_str()) {
            citations.push(citation);
        }
        certidoes.push(Field::date(
            field,
            &format!("{} — emitida em", capitalised(label)),
        ));
        certidoes.push(Field::date(&format!("{field}.valid_until"), "Válida até"));
        certidoes.push(Field::text(
            &format!("{field}.reference"),
            "Número ou código de controle",
        ));
    }
    let cited = if citations.is_empty() {
        String::new()
    } else {
        format!(" ({})", citations.join("; "))
    };
    vec![
        Section::new(
            "Empresa",
            None,
            vec![Field::text("cnpj", "CNPJ da empresa").required()],
        ),
        Section::new(
            "Certidões negativas e regularidade",
            Some(format!(
                "O Termo é emitido ou renovado com todos os documentos exigidos em vigor{cited}. Digite as certidões que a empresa trouxe de novo; em branco, valem as já juntadas."
            )),
            certidoes,
        )
        .columns(3),
        Section::new(
            "Pedido",
            None,
            vec![
                Field::date("protocolled_on", "Data do protocolo do pedido")
                    .hint("Em branco: hoje."),
                // Opened from a filing sent online: the decision is recorded on it.
                Field::hidden(FILING, ""),
            ],
        ),
    ]
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

const META: Meta = Meta {
    title: "Termo de Autorização de fretamento (emissão ou renovação)",
    intro: "O Termo vale 2 anos e não se prorroga; renovado antes do fim, o novo começa no dia seguinte. “Conferir” aplica a lei sem gravar nada.",
    action: ACTION,
    buttons: [
        ("conferir", "Conferir, sem gravar"),
        ("emitir", "Emitir o Termo"),
    ],
    fallback: &["charter.file_checklist", "charter.grant_termo"],
};

fn page(s: &Signed, outcome: Outcome, status: StatusCode) -> Page {
    let basis = s.app.state.charter_basis();
    task_page(s, &META, sections(&basis), outcome, status)
}

pub(in crate::http::panel) async fn termo_task(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueCharter)?;
    let mut outcome = super::opened_on_company(&state, &query).await;
    let kind = FilingKind::CharterTermo;
    if let Some(v) =
        filed::prefill(&state, &query, kind, "protocolled_on", &[], &mut outcome).await?
    {
        outcome
            .values
            .insert("cnpj".into(), v.subject.number.clone());
    }
    page(&s, outcome, StatusCode::OK)
}

fn task_field(field: &str) -> String {
    match field {
        "company" | "id" => "cnpj".into(),
        other => other.to_owned(),
    }
}

pub(in crate::http::panel) async fn termo_submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueCharter)?;
    let mut values = posted(&s, form.into_inner())?;
    let issue = values.get("acao").map(String::as_str) == Some("emitir");
    let mut errors = Vec::new();
    let mut found = Vec::new();
    let kind = FilingKind::CharterTermo;
    let at = ("cnpj", &mut errors);
    let filing = filed::posted(&state, &mut values, kind, "protocolled_on", at).await?;
    let company = super::company_named(&state, &values, "cnpj", &mut errors, &mut found).await?;
    let typed_record = company.as_ref().map(|c| c.id);
    filed::same_subject(filing.as_ref(), typed_record, ("cnpj", &mut errors));
    // The checklist filed, with the certidões typed in place of the old ones.
    let mut checklist = company
        .as_ref()
        .and_then(|c| serde_json::to_value(&c.data.checklist).ok())
        .unwrap_or_else(|| json!({}));
    let mut renewed_any = false;
    for (field, _, _) in lapsing(&state.charter_basis()) {
        let item = field.trim_start_matches("checklist.");
        let Some(issued_on) = day(&values, field, &mut errors) else {
            continue;
        };
        let valid_until = day(&values, &format!("{field}.valid_until"), &mut errors);
        if valid_until.is_none() {
            errors.push((
                format!("{field}.valid_until"),
                "Informe a validade impressa na certidão.".into(),
            ));
        }
        let reference = typed(&values, &format!("{field}.reference")).unwrap_or("certidão");
        checklist[item] =
            json!({"reference": reference, "issued_on": issued_on, "valid_until": valid_until});
        renewed_any = true;
    }
    let protocolled_on = day(&values, "protocolled_on", &mut errors);
    let refused = |errors, headline: &str| Outcome::refused(&values, &found, errors, headline);
    let Some(c) = company.filter(|_| errors.is_empty()) else {
        let o = refused(errors, "Confira os campos; nada foi gravado.");
        return page(&s, o, StatusCode::UNPROCESSABLE_ENTITY);
    };
    let mut check = json!({"protocolled_on": protocolled_on});
    if renewed_any {
        check["checklist"] = checklist.clone();
    }
    let path = format!("/api/v1/charter/companies/{}/termo-checks", c.id);
    let checked = match check_passes(&s, &path, &check, refused(Vec::new(), ""), task_field).await?
    {
        Ok(checked) => checked,
        Err((o, status)) => return page(&s, o, status),
    };
    if !issue {
        let renews = checked["renews"]
            .as_str()
            .map(|n| format!(", renovando o {n}"))
            .unwrap_or_default();
        let what = format!(
            "O Termo valerá de {} a {}{renews}.",
            answered_day(&checked, "valid_from"),
            answered_day(&checked, "valid_until")
        );
        return page(&s, conferred(&values, found, &what), StatusCode::OK);
    }
    if renewed_any {
        let path = format!("/api/v1/charter/companies/{}/checklist", c.id);
        let answer = call(&s, Method::POST, &path, Some(&checklist)).await?;
        if !answer.status.is_success() {
            let (o, status) = refused_outcome(&s, &answer, refused(Vec::new(), ""), task_field)?;
            return page(&s, o, status);
        }
    }
    let path = format!("/api/v1/charter/companies/{}/termos", c.id);
    let answer = call(
        &s,
        Method::POST,
        &path,
        Some(&json!({"protocolled_on": protocolled_on})),
    )
    .await?;
    if !answer.status.is_success() {
        let (o, status) = refused_outcome(&s, &answer, refused(Vec::new(), ""), task_field)?;
        return page(&s, o, status);
    }
    filed::record_decision(&state, &s, filing.as_ref(), &answer).await;
    Ok(redirect(&format!(
        "/painel/ver/charter/companies/{}?feito=charter.grant_termo",
        c.id
    )))
}
