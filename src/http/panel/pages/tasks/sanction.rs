//! Two ride-hailing acts as tasks: a sanction on an authorization (suspension for days or
//! months, or cassação; draft consolidated law, arts. 24–26), named by its number, CPF or
//! plate, with its dates computed and confirmed before it is recorded; and the report of a
//! change of the driver's data (art. 13, XIX), with its seven days counted.

use serde_json::json;

use super::{
    AppState, Competence, Field, HashMap, HttpRequest, Meta, Method, Outcome, Page, Section,
    Signed, StatusCode, call, conferred, day, posted, redirect, refused_outcome, task_page, typed,
    web,
};
use crate::documents::format::date as br;
use crate::domain::calendar::{sanction_end_days, sanction_end_months};

const SANCTION: Meta = Meta {
    title: "Sanção sobre a autorização (suspensão ou cassação)",
    intro: "Registra a suspensão por dias ou meses, ou a cassação, com o fundamento e o motivo. “Conferir” mostra as datas que a sanção terá, sem gravar nada; a cassação pede confirmação.",
    action: "/painel/tarefa/sancao",
    buttons: [
        ("conferir", "Conferir, sem gravar"),
        ("aplicar", "Aplicar a sanção"),
    ],
    fallback: &["authorizations.sanction"],
};

fn sanction_sections() -> Vec<Section> {
    vec![
        Section::new("Autorização", None, vec![super::authorization_field()]),
        Section::new(
            "Sanção",
            None,
            vec![
                Field::select(
                    "kind",
                    "Sanção",
                    vec![
                        ("suspension".into(), "Suspensão".into()),
                        ("cassacao".into(), "Cassação".into()),
                    ],
                )
                .required(),
                Field::date("effective_from", "A partir de").required(),
                Field::number("duracao", "Duração da suspensão"),
                Field::select(
                    "unidade",
                    "Em",
                    vec![
                        ("days".into(), "dias".into()),
                        ("months".into(), "meses".into()),
                    ],
                )
                .preset("days"),
                Field::text("legal_basis", "Fundamento")
                    .required()
                    .hint("O artigo, como na decisão: art. 26, V."),
                Field::textarea("reason", "Motivo").required(),
                Field::select(
                    "_confirmo",
                    "Confirmação (cassação)",
                    vec![(
                        "sim".into(),
                        "Confirmo a cassação, que não se desfaz".into(),
                    )],
                ),
            ],
        )
        .columns(2),
    ]
}

pub(in crate::http::panel) async fn sanction_task(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueRideHailing)?;
    let outcome = super::opened_on_authorization(&state, &query, "autorizacao").await?;
    task_page(&s, &SANCTION, sanction_sections(), outcome, StatusCode::OK)
}

fn sanction_field(field: &str) -> String {
    match field {
        "id" | "status" | "authorization" => "autorizacao".into(),
        "days" | "months" => "duracao".into(),
        other => other.to_owned(),
    }
}

pub(in crate::http::panel) async fn sanction_submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueRideHailing)?;
    let values = posted(&s, form.into_inner())?;
    let act = values.get("acao").map(String::as_str) == Some("aplicar");
    let page = |o: Outcome, status| task_page(&s, &SANCTION, sanction_sections(), o, status);
    let mut errors = Vec::new();
    let mut found = Vec::new();
    let current =
        super::authorization_named(&state, &values, "autorizacao", &mut errors, &mut found).await?;
    let kind = typed(&values, "kind").unwrap_or_default();
    let from = day(&values, "effective_from", &mut errors);
    for name in ["kind", "effective_from", "legal_basis", "reason"] {
        if typed(&values, name).is_none() {
            errors.push((name.to_owned(), "Campo obrigatório.".into()));
        }
    }
    let months = typed(&values, "unidade") == Some("months");
    let duration = typed(&values, "duracao").map(str::parse::<u32>);
    let mut body = json!({
        "kind": kind,
        "effective_from": from,
        "legal_basis": typed(&values, "legal_basis").unwrap_or_default(),
        "reason": typed(&values, "reason").unwrap_or_default(),
    });
    let mut until = None;
    match (kind, duration) {
        ("suspension", Some(Ok(n))) if n > 0 => {
            body[if months { "months" } else { "days" }] = json!(n);
            until = from
                .as_deref()
                .and_then(|f| chrono::NaiveDate::parse_from_str(f, "%Y-%m-%d").ok())
                .map(|f| {
                    if months {
                        sanction_end_months(f, n, state.ride_hailing_basis().month_overflow)
                    } else {
                        sanction_end_days(f, n)
                    }
                });
        }
        ("suspension", _) => errors.push((
            "duracao".into(),
            "Informe a duração da suspensão (um número de dias ou de meses).".into(),
        )),
        ("cassacao", _) if act && typed(&values, "_confirmo") != Some("sim") => {
            errors.push(("_confirmo".into(), "Confirme a cassação.".into()));
        }
        _ => {}
    }
    let refused = |errors, headline: &str| Outcome::refused(&values, &found, errors, headline);
    let Some(a) = current.filter(|_| errors.is_empty()) else {
        let o = refused(errors, "Confira os campos; nada foi gravado.");
        return page(o, StatusCode::UNPROCESSABLE_ENTITY);
    };
    if !act {
        let first = from
            .as_deref()
            .and_then(|f| chrono::NaiveDate::parse_from_str(f, "%Y-%m-%d").ok());
        let what = match (until, first) {
            (Some(until), Some(first)) => format!(
                "A autorização {} ficará suspensa de {} a {} e volta a valer em {}.",
                a.number,
                br(first),
                br(until.pred_opt().unwrap_or(until)),
                br(until)
            ),
            (_, Some(first)) => format!(
                "A autorização {} será cassada a partir de {}; a cassação não se desfaz.",
                a.number,
                br(first)
            ),
            _ => String::new(),
        };
        return page(conferred(&values, found, &what), StatusCode::OK);
    }
    let path = format!("/api/v1/app-authorizations/{}/sanctions", a.id);
    let answer = call(&s, Method::POST, &path, Some(&body)).await?;
    if !answer.status.is_success() {
        let (o, status) = refused_outcome(&s, &answer, refused(Vec::new(), ""), sanction_field)?;
        return page(o, status);
    }
    Ok(redirect(&format!(
        "/painel/ver/app-authorizations/{}?feito=authorizations.sanction",
        a.id
    )))
}

const DATA_CHANGE: Meta = Meta {
    title: "Comunicação de alteração de dados do condutor",
    intro: "O condutor tem sete dias para comunicar a mudança de seus dados (art. 13, XIX). “Conferir” conta o prazo e diz se a comunicação está em dia, sem gravar nada.",
    action: "/painel/tarefa/alteracao",
    buttons: [
        ("conferir", "Conferir, sem gravar"),
        ("registrar", "Registrar a comunicação"),
    ],
    fallback: &["registry.data_change"],
};

fn data_change_sections() -> Vec<Section> {
    vec![
        Section::new(
            "Condutor(a)",
            None,
            vec![Field::text("driver_id", "CPF do(a) condutor(a)").required()],
        ),
        Section::new(
            "Alteração",
            None,
            vec![
                Field::textarea("what", "O que mudou").required(),
                Field::date("changed_on", "Mudou em").required(),
                Field::date("reported_on", "Comunicada em").required(),
            ],
        )
        .columns(2),
    ]
}

pub(in crate::http::panel) async fn data_change_task(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueRideHailing)?;
    let mut values: HashMap<String, String> = query
        .into_inner()
        .into_iter()
        .filter(|(k, _)| k == "id")
        .map(|(_, v)| ("driver_id".to_owned(), v))
        .collect();
    super::super::acts::present_references(&state, &mut values).await?;
    let outcome = Outcome {
        values,
        ..Outcome::default()
    };
    task_page(
        &s,
        &DATA_CHANGE,
        data_change_sections(),
        outcome,
        StatusCode::OK,
    )
}

pub(in crate::http::panel) async fn data_change_submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueRideHailing)?;
    let shown = posted(&s, form.into_inner())?;
    let act = shown.get("acao").map(String::as_str) == Some("registrar");
    let page = |o: Outcome, status| task_page(&s, &DATA_CHANGE, data_change_sections(), o, status);
    let mut errors = Vec::new();
    let mut found = Vec::new();
    let mut values = shown.clone();
    super::super::acts::resolve_references(&state, &mut values, &mut errors).await?;
    let driver = match values
        .get("driver_id")
        .and_then(|d| uuid::Uuid::parse_str(d).ok())
    {
        Some(d) => state.store.get_driver(d).await?,
        None => None,
    };
    if let Some(d) = &driver {
        found.push(("driver_id".to_owned(), format!("Cadastrado(a): {}", d.name)));
    } else if typed(&values, "driver_id").is_none() {
        errors.push(("driver_id".into(), "Campo obrigatório.".into()));
    }
    let changed_on = day(&values, "changed_on", &mut errors);
    let reported_on = day(&values, "reported_on", &mut errors);
    for name in ["what", "changed_on", "reported_on"] {
        if typed(&values, name).is_none() {
            errors.push((name.to_owned(), "Campo obrigatório.".into()));
        }
    }
    let refused = |errors, headline: &str| Outcome::refused(&shown, &found, errors, headline);
    let (Some(d), Some(changed), Some(reported)) = (
        driver.filter(|_| errors.is_empty()),
        changed_on
            .as_deref()
            .and_then(|c| chrono::NaiveDate::parse_from_str(c, "%Y-%m-%d").ok()),
        reported_on
            .as_deref()
            .and_then(|r| chrono::NaiveDate::parse_from_str(r, "%Y-%m-%d").ok()),
    ) else {
        let o = refused(errors, "Confira os campos; nada foi gravado.");
        return page(o, StatusCode::UNPROCESSABLE_ENTITY);
    };
    if !act {
        // Art. 13, XIX: the same count the act records.
        let cal = state.calendar().await?;
        let (due, late) = crate::domain::ride_hailing::vistoria::app_art13_xix_report(
            changed,
            reported,
            &cal,
            &state.deadline_rules,
            &state.ride_hailing_basis(),
        );
        let what = match late {
            None => format!("Comunicada no prazo, que vai até {}.", br(due.due)),
            Some(f) => format!(
                "Comunicada depois do prazo, que foi até {}: {} ({}). Registrar mesmo assim deixa o atraso no histórico.",
                br(due.due),
                f.message,
                f.article
            ),
        };
        return page(conferred(&shown, found, &what), StatusCode::OK);
    }
    let body = json!({
        "what": typed(&values, "what").unwrap_or_default(),
        "changed_on": changed_on,
        "reported_on": reported_on,
    });
    let path = format!("/api/v1/drivers/{}/data-changes", d.id);
    let answer = call(&s, Method::POST, &path, Some(&body)).await?;
    if !answer.status.is_success() {
        let (o, status) = refused_outcome(&s, &answer, refused(Vec::new(), ""), str::to_owned)?;
        return page(o, status);
    }
    Ok(redirect(&format!(
        "/painel/ver/drivers/{}?feito=registry.data_change",
        d.id
    )))
}

const REVOCATION: Meta = Meta {
    title: "Revogação da autorização",
    intro: "A revogação encerra a autorização: a autorização e o adesivo passam a ser verificados como REVOGADOS, e ela não se desfaz. “Conferir” diz sobre o que o ato age, sem gravar nada; o registro pede confirmação.",
    action: "/painel/tarefa/revogacao",
    buttons: [
        ("conferir", "Conferir, sem gravar"),
        ("revogar", "Revogar a autorização"),
    ],
    fallback: &["authorizations.revoke"],
};

fn revocation_sections() -> Vec<Section> {
    vec![Section::new(
        "Revogação",
        None,
        vec![
            super::authorization_field(),
            Field::textarea("reason", "Fundamento e motivo, como na decisão").required(),
            Field::select(
                "_confirmo",
                "Confirmação",
                vec![(
                    "sim".into(),
                    "Confirmo a revogação, que não se desfaz".into(),
                )],
            ),
        ],
    )]
}

pub(in crate::http::panel) async fn revocation_task(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueRideHailing)?;
    let outcome = super::opened_on_authorization(&state, &query, "autorizacao").await?;
    task_page(
        &s,
        &REVOCATION,
        revocation_sections(),
        outcome,
        StatusCode::OK,
    )
}

pub(in crate::http::panel) async fn revocation_submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueRideHailing)?;
    let values = posted(&s, form.into_inner())?;
    let act = values.get("acao").map(String::as_str) == Some("revogar");
    let page = |o: Outcome, status| task_page(&s, &REVOCATION, revocation_sections(), o, status);
    let mut errors = Vec::new();
    let mut found = Vec::new();
    let current =
        super::authorization_named(&state, &values, "autorizacao", &mut errors, &mut found).await?;
    if let Some(r) = current.as_ref().and_then(|a| a.revocation.as_ref()) {
        errors.push((
            "autorizacao".into(),
            format!(
                "A autorização já foi revogada em {}.",
                crate::documents::format::datetime_local(r.revoked_at)
            ),
        ));
    }
    if typed(&values, "reason").is_none() {
        errors.push(("reason".into(), "Campo obrigatório.".into()));
    }
    if act && typed(&values, "_confirmo") != Some("sim") {
        errors.push(("_confirmo".into(), "Confirme a revogação.".into()));
    }
    let refused = |errors, headline: &str| Outcome::refused(&values, &found, errors, headline);
    let Some(a) = current.filter(|_| errors.is_empty()) else {
        let o = refused(errors, "Confira os campos; nada foi gravado.");
        return page(o, StatusCode::UNPROCESSABLE_ENTITY);
    };
    if !act {
        let what = format!(
            "A autorização {} será revogada; a autorização e o adesivo passarão a ser verificados como REVOGADOS, e a revogação não se desfaz.",
            a.number
        );
        return page(conferred(&values, found, &what), StatusCode::OK);
    }
    let body = json!({"reason": typed(&values, "reason").unwrap_or_default()});
    let path = format!("/api/v1/app-authorizations/{}/revocation", a.id);
    let answer = call(&s, Method::POST, &path, Some(&body)).await?;
    if !answer.status.is_success() {
        let (o, status) = refused_outcome(&s, &answer, refused(Vec::new(), ""), sanction_field)?;
        return page(o, status);
    }
    Ok(redirect(&format!(
        "/painel/ver/app-authorizations/{}?feito=authorizations.revoke",
        a.id
    )))
}
