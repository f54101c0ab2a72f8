//! The certidão de situação cadastral of a ride-hailing driver or car as one task: the
//! authorization (by its number, the driver's CPF or the plate), whose situation it
//! certifies and the petition's protocol; "Conferir" shows what it would certify today.

use serde_json::json;

use crate::domain::ride_hailing::AuthorizationStatus;

use super::{
    AppState, Competence, Field, HashMap, HttpRequest, Meta, Method, Outcome, Page, Section,
    Signed, StatusCode, call, conferred, posted, refused_outcome, task_page, typed, web,
};

const ACTION: &str = "/painel/tarefa/certidao";
const PATTERN: &str = "/api/v1/app-authorizations/{id}/certidoes";

const META: Meta = Meta {
    title: "Certidão de situação cadastral (aplicativo)",
    intro: "Certifica, na data de hoje, a situação do(a) condutor(a) ou do veículo de uma autorização, a pedido protocolado. “Conferir” mostra a situação que será certificada, sem emitir nada.",
    action: ACTION,
    buttons: [
        ("conferir", "Conferir, sem emitir"),
        ("emitir", "Emitir a certidão"),
    ],
    fallback: &["authorizations.certidao"],
};

fn sections() -> Vec<Section> {
    let subjects = vec![
        ("app_driver".to_owned(), "Do(a) condutor(a)".to_owned()),
        ("app_vehicle".to_owned(), "Do veículo".to_owned()),
    ];
    vec![
        Section::new(
            "Certidão",
            None,
            vec![
                super::authorization_field(),
                Field::select("subject", "Situação de quem", subjects)
                    .required()
                    .preset("app_driver"),
                Field::text("protocol", "Número do protocolo do pedido").required(),
            ],
        )
        .columns(3),
    ]
}

fn page(s: &Signed, outcome: Outcome, status: StatusCode) -> Page {
    task_page(s, &META, sections(), outcome, status)
}

pub(in crate::http::panel) async fn certidao_task(
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
        "id" => "autorizacao".into(),
        other => other.to_owned(),
    }
}

pub(in crate::http::panel) async fn certidao_submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueRideHailing)?;
    let values = posted(&s, form.into_inner())?;
    let issue = values.get("acao").map(String::as_str) == Some("emitir");
    let mut errors = Vec::new();
    let mut found = Vec::new();
    let current =
        super::authorization_named(&state, &values, "autorizacao", &mut errors, &mut found).await?;
    let subject = typed(&values, "subject").unwrap_or("app_driver");
    let protocol = typed(&values, "protocol").unwrap_or_default();
    if protocol.is_empty() {
        errors.push(("protocol".into(), "Campo obrigatório.".into()));
    }
    let refused = |errors, headline: &str| Outcome::refused(&values, &found, errors, headline);
    let Some(a) = current.filter(|_| errors.is_empty()) else {
        let o = refused(errors, "Confira os campos; nada foi emitido.");
        return page(&s, o, StatusCode::UNPROCESSABLE_ENTITY);
    };
    if !issue {
        // What the certidão would certify: the authorization's situation now.
        let answer = call(
            &s,
            Method::GET,
            &format!("/api/v1/app-authorizations/{}", a.id),
            None,
        )
        .await?;
        if !answer.status.is_success() {
            let (o, status) = refused_outcome(&s, &answer, refused(Vec::new(), ""), task_field)?;
            return page(&s, o, status);
        }
        let status = answer
            .json()
            .and_then(|j| serde_json::from_value::<AuthorizationStatus>(j["status"].clone()).ok())
            .map_or("", AuthorizationStatus::label_pt);
        let what = format!(
            "A certidão certificará a situação de hoje da autorização {}: {status}.",
            a.number,
        );
        return page(&s, conferred(&values, found, &what), StatusCode::OK);
    }
    let body = json!({"subject": subject, "protocol": protocol});
    let path = PATTERN.replace("{id}", &a.id.to_string());
    let answer = call(&s, Method::POST, &path, Some(&body)).await?;
    if !answer.status.is_success() {
        let (o, status) = refused_outcome(&s, &answer, refused(Vec::new(), ""), task_field)?;
        return page(&s, o, status);
    }
    let mut v = values.clone();
    v.insert("id".into(), a.id.to_string());
    super::super::acts::done(&s, "authorizations.certidao", PATTERN, &v, &answer)
}
