//! The SMF's vistoria of an authorized car as one task (draft consolidated law, arts. 9º, 10
//! and 16): the authorization by its number, the driver's CPF or the plate, the day, the
//! result and, for a failure, when the driver was told what to fix; "Conferir" shows the
//! standing it would leave (the annual vistoria's last day, or the days to fix).

use serde_json::json;

use super::{
    AppState, Competence, Field, HashMap, HttpRequest, Meta, Method, Outcome, Page, Section,
    Signed, StatusCode, call, check_passes, conferred, day, posted, redirect, refused_outcome,
    task_page, typed, web,
};
use crate::documents::format::date as br;

const META: Meta = Meta {
    title: "Vistoria do veículo autorizado (aplicativo)",
    intro: "Registra a vistoria da SMF: aprovada, renova a vistoria anual; reprovada, abre o prazo para corrigir, contado da notificação ao condutor. “Conferir” mostra, sem gravar, como fica a situação da autorização.",
    action: "/painel/tarefa/vistoria-aplicativo",
    buttons: [
        ("conferir", "Conferir, sem gravar"),
        ("registrar", "Registrar a vistoria"),
    ],
    fallback: &["authorizations.vistoria", "authorizations.vistoria_summons"],
};

fn sections(inspector: &str) -> Vec<Section> {
    vec![
        Section::new("Autorização", None, vec![super::authorization_field()]),
        Section::new(
            "Vistoria",
            None,
            vec![
                Field::date("performed_on", "Realizada em").required(),
                Field::select("approved", "Resultado", super::vistoria_results())
                    .required()
                    .preset("true"),
                Field::text("inspector", "Servidor(a) que vistoriou")
                    .required()
                    .preset(inspector),
                Field::date("notified_on", "Reprovada: condutor notificado em")
                    .hint("O prazo para corrigir conta desta data; em branco se aprovada."),
                Field::textarea("notes", "Observações (o que corrigir, se reprovada)"),
            ],
        )
        .columns(2),
    ]
}

fn page(s: &Signed, outcome: Outcome, status: StatusCode) -> Page {
    task_page(s, &META, sections(&s.official.name), outcome, status)
}

pub(in crate::http::panel) async fn app_vistoria_task(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueRideHailing)?;
    let outcome = super::opened_on_authorization(&state, &query, "autorizacao").await?;
    page(&s, outcome, StatusCode::OK)
}

fn task_field(field: &str) -> String {
    match field {
        "id" | "authorization" => "autorizacao".into(),
        "fee_paid_on" => "performed_on".into(),
        other => other.to_owned(),
    }
}

/// The standing the check says the vistoria would leave.
fn after(checked: &serde_json::Value) -> String {
    let inspection = &checked["inspection"];
    let day_of = |v: &serde_json::Value| {
        v.as_str()
            .and_then(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
            .map(br)
    };
    if let Some(until) = day_of(&inspection["vistoria_valid_until"]) {
        return format!("A vistoria anual valerá até {until}.");
    }
    if let Some(fix) = day_of(&inspection["fix_due"]["due"]) {
        return format!(
            "O condutor terá até {fix} para corrigir e apresentar o veículo de novo; depois disso, o veículo fica impedido de operar."
        );
    }
    String::new()
}

pub(in crate::http::panel) async fn app_vistoria_submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueRideHailing)?;
    let values = posted(&s, form.into_inner())?;
    let record = values.get("acao").map(String::as_str) == Some("registrar");
    let mut errors = Vec::new();
    let mut found = Vec::new();
    let current =
        super::authorization_named(&state, &values, "autorizacao", &mut errors, &mut found).await?;
    let performed_on = day(&values, "performed_on", &mut errors);
    let notified_on = day(&values, "notified_on", &mut errors);
    for name in ["performed_on", "inspector"] {
        if typed(&values, name).is_none() {
            errors.push((name.to_owned(), "Campo obrigatório.".into()));
        }
    }
    let refused = |errors, headline: &str| Outcome::refused(&values, &found, errors, headline);
    let Some(a) = current.filter(|_| errors.is_empty()) else {
        let o = refused(errors, "Confira os campos; nada foi gravado.");
        return page(&s, o, StatusCode::UNPROCESSABLE_ENTITY);
    };
    let body = json!({
        "performed_on": performed_on,
        "approved": typed(&values, "approved") != Some("false"),
        "inspector": typed(&values, "inspector").unwrap_or_default(),
        "notes": typed(&values, "notes").unwrap_or_default(),
        "notified_on": notified_on,
    });
    let path = format!("/api/v1/app-authorizations/{}/vistoria-checks", a.id);
    let checked = match check_passes(&s, &path, &body, refused(Vec::new(), ""), task_field).await? {
        Ok(checked) => checked,
        Err((o, status)) => return page(&s, o, status),
    };
    if !record {
        return page(
            &s,
            conferred(&values, found, &after(&checked)),
            StatusCode::OK,
        );
    }
    let path = format!("/api/v1/app-authorizations/{}/vistorias", a.id);
    let answer = call(&s, Method::POST, &path, Some(&body)).await?;
    if !answer.status.is_success() {
        let (o, status) = refused_outcome(&s, &answer, refused(Vec::new(), ""), task_field)?;
        return page(&s, o, status);
    }
    Ok(redirect(&format!(
        "/painel/ver/app-authorizations/{}?feito=authorizations.vistoria",
        a.id
    )))
}
