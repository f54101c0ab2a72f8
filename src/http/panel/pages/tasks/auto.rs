//! Drawing up a ride-hailing auto de infração as one task (draft consolidated law, arts.
//! 22–27): the driver by CPF, the authorization by its number or plate, the infraction
//! picked from the catalogue of the basis in force, the instant as on the inspector's paper;
//! "Conferir" shows the fine and the consequences it would propose, recidivism counted.

use serde_json::Value;

use super::{
    AppState, Competence, Field, HashMap, HttpRequest, Meta, Method, Outcome, Page, Section,
    Signed, StatusCode, call, check_passes, conferred, id_of, posted, redirect, refused_outcome,
    task_page, typed, web,
};
use crate::domain::legal_basis::RideHailingLegalBasis;

const PATTERN: &str = "/api/v1/app-infraction-autos";

const META: Meta = Meta {
    title: "Lavrar auto de infração (aplicativo)",
    intro: "Os campos seguem o auto preenchido pelo agente. “Conferir” mostra, sem gravar, a multa e as consequências que o auto proporá, com a reincidência contada; suspensão e cassação só se aplicam quando a decisão for definitiva.",
    action: "/painel/tarefa/auto",
    buttons: [
        ("conferir", "Conferir, sem gravar"),
        ("lavrar", "Lavrar o auto"),
    ],
    fallback: &["autos.create"],
};

fn sections(basis: &RideHailingLegalBasis, inspector: &str) -> Vec<Section> {
    let mut sections = vec![
        Section::new(
            "Autuado(a)",
            None,
            vec![
                Field::text("driver_id", "CPF do(a) condutor(a)").required(),
                Field::text("authorization_id", "Número da autorização ou placa")
                    .hint("Se o condutor tem autorização; em branco, se não tem."),
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
    sections.extend(super::auto_sections("infraction_id", catalogue, inspector));
    sections
}

fn page(s: &Signed, outcome: Outcome, status: StatusCode) -> Page {
    let basis = s.app.state.ride_hailing_basis();
    task_page(
        s,
        &META,
        sections(&basis, &s.official.name),
        outcome,
        status,
    )
}

pub(in crate::http::panel) async fn auto_task(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::InspectRideHailing)?;
    // From a record or the verification page: the ids of the link shown as CPF and number.
    let mut values: HashMap<String, String> = query
        .into_inner()
        .into_iter()
        .filter(|(k, _)| k == "driver_id" || k == "authorization_id")
        .collect();
    super::super::acts::present_references(&state, &mut values).await?;
    let outcome = Outcome {
        values,
        ..Outcome::default()
    };
    page(&s, outcome, StatusCode::OK)
}

/// What the check says the auto would bring.
fn proposed(checked: &Value) -> String {
    let mut parts = Vec::new();
    for p in checked["proposed_consequences"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
    {
        let article = p["article"].as_str().unwrap_or_default();
        let part = match p["kind"].as_str().unwrap_or_default() {
            "fine" => match p["value"].as_str() {
                Some(value) => format!("multa de {} UPFG ({value}), {article}", p["upf"]),
                None => format!(
                    "multa de {} UPFG, {article} (valor em reais quando o valor da UPF do ano for registrado)",
                    p["upf"]
                ),
            },
            "suspension" => format!("suspensão de {} dias, {article}", p["days"]),
            "cassacao" => format!("cassação da autorização, {article}"),
            "platform_notice" => format!("aviso à plataforma para suspender o veículo, {article}"),
            _ => continue,
        };
        parts.push(part);
    }
    format!("O auto proporá: {}.", parts.join("; "))
}

pub(in crate::http::panel) async fn auto_submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::InspectRideHailing)?;
    let shown = posted(&s, form.into_inner())?;
    let act = shown.get("acao").map(String::as_str) == Some("lavrar");
    let mut errors = Vec::new();
    let mut found = Vec::new();
    if typed(&shown, "authorization_id").is_some() {
        super::authorization_named(&state, &shown, "authorization_id", &mut errors, &mut found)
            .await?;
    }
    let mut values = shown.clone();
    super::super::acts::resolve_references(&state, &mut values, &mut errors).await?;
    if let Some(d) = values
        .get("driver_id")
        .and_then(|d| uuid::Uuid::parse_str(d).ok())
        && let Some(driver) = state.store.get_driver(d).await?
    {
        found.push((
            "driver_id".to_owned(),
            format!("Cadastrado(a): {}", driver.name),
        ));
    }
    let body = super::api_body(PATTERN, &values, &mut errors);
    errors.dedup();
    let refused = |errors, headline: &str| Outcome::refused(&shown, &found, errors, headline);
    let Some(body) = body.filter(|_| errors.is_empty()) else {
        let o = refused(errors, "Confira os campos; nada foi gravado.");
        return page(&s, o, StatusCode::UNPROCESSABLE_ENTITY);
    };
    let path = "/api/v1/app-infraction-auto-checks";
    let checked =
        match check_passes(&s, path, &body, refused(Vec::new(), ""), str::to_owned).await? {
            Ok(checked) => checked,
            Err((o, status)) => return page(&s, o, status),
        };
    if !act {
        return page(
            &s,
            conferred(&shown, found, &proposed(&checked)),
            StatusCode::OK,
        );
    }
    let answer = call(&s, Method::POST, PATTERN, Some(&body)).await?;
    if !answer.status.is_success() {
        let (o, status) = refused_outcome(&s, &answer, refused(Vec::new(), ""), str::to_owned)?;
        return page(&s, o, status);
    }
    Ok(redirect(&format!(
        "/painel/ver/app-infraction-autos/{}?feito=autos.create",
        id_of(&answer)
    )))
}
