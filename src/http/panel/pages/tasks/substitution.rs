//! Replacing the authorized car as one task (draft consolidated law, art. 8º, §2º): the
//! authorization (by its number, the driver's CPF or the plate), the new car by its plate,
//! the cause and the new car's SMF vistoria; conferred with the law, then recorded with a new
//! authorization PDF and sticker under the same number and validity.

use serde_json::json;

use super::filed::{self, FILING};
use super::{
    AppState, Competence, Field, HashMap, HttpRequest, Meta, Method, Outcome, Page, Section,
    Signed, StatusCode, call, check_passes, conferred, day, posted, redirect, refused_outcome,
    task_page, typed, web,
};
use crate::domain::filings::FilingKind;
use crate::domain::ride_hailing::substitution::SubstitutionCause;

const ACTION: &str = "/painel/tarefa/substituicao";

const META: Meta = Meta {
    title: "Substituição do veículo da autorização",
    intro: "Depois de sinistro, venda ou fim da locação, o condutor pode trazer outro veículo que atenda aos requisitos e passe por nova vistoria. A autorização mantém o número e a validade; são emitidos nova autorização e novo adesivo. “Conferir” aplica a lei sem gravar nada.",
    action: ACTION,
    buttons: [
        ("conferir", "Conferir, sem gravar"),
        ("substituir", "Substituir e emitir autorização e adesivo"),
    ],
    fallback: &[
        "registry.create_vehicle",
        "authorizations.substitute_vehicle",
    ],
};

fn sections(inspector: &str) -> Vec<Section> {
    let causes = SubstitutionCause::ALL
        .iter()
        .map(|c| (c.as_str().to_owned(), capitalized(c.label_pt())))
        .collect();
    let results = super::vistoria_results();
    vec![
        Section::new(
            "Autorização",
            None,
            vec![
                Field::text(
                    "autorizacao",
                    "Número da autorização, CPF do condutor ou placa atual",
                )
                .required(),
            ],
        ),
        Section::new(
            "Veículo novo (art. 8º, §2º)",
            Some("O veículo novo precisa estar cadastrado (Cadastrar veículo).".into()),
            vec![
                Field::text("placa_nova", "Placa do veículo novo").required(),
                Field::select("cause", "Motivo da substituição", causes).required(),
            ],
        )
        .columns(2),
        Section::new(
            "Vistoria do veículo novo",
            None,
            vec![
                Field::date("vistoria.performed_on", "Realizada em").required(),
                Field::select("vistoria.approved", "Resultado", results)
                    .required()
                    .preset("true"),
                Field::text("vistoria.inspector", "Servidor(a) que vistoriou")
                    .required()
                    .preset(inspector),
                Field::textarea("vistoria.notes", "Observações"),
            ],
        )
        .columns(3),
        Section::new(
            "Pedido",
            None,
            vec![
                Field::date("protocolled_on", "Data do protocolo do pedido")
                    .hint("Em branco: hoje."),
                // Opened from a filing sent online: the new car comes from it.
                Field::hidden(FILING, ""),
            ],
        ),
    ]
}

/// "locação" → "Locação".
fn capitalized(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn page(s: &Signed, outcome: Outcome, status: StatusCode) -> Page {
    task_page(s, &META, sections(&s.official.name), outcome, status)
}

pub(in crate::http::panel) async fn substitution_task(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueRideHailing)?;
    let mut outcome = super::opened_on_authorization(&state, &query, "autorizacao").await?;
    let kind = FilingKind::AppSubstitution;
    let renamed = [("vehicle.plate", "placa_nova")];
    if let Some(v) = filed::prefill(
        &state,
        &query,
        kind,
        "protocolled_on",
        &renamed,
        &mut outcome,
    )
    .await?
    {
        outcome
            .values
            .insert("autorizacao".into(), v.subject.number.clone());
    }
    page(&s, outcome, StatusCode::OK)
}

/// Where the API's field names land in the task.
fn task_field(field: &str) -> String {
    match field {
        "id" | "status" | "authorization" => "autorizacao".into(),
        "new_vehicle_id" | "vehicle" => "placa_nova".into(),
        other if other.starts_with("vehicle.") || other.starts_with("new_vehicle.") => {
            "placa_nova".into()
        }
        other => other.to_owned(),
    }
}

pub(in crate::http::panel) async fn substitution_submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueRideHailing)?;
    let mut values = posted(&s, form.into_inner())?;
    let act = values.get("acao").map(String::as_str) == Some("substituir");
    let mut errors = Vec::new();
    let mut found = Vec::new();
    let kind = FilingKind::AppSubstitution;
    let at = ("autorizacao", &mut errors);
    let filing = filed::posted(&state, &mut values, kind, "protocolled_on", at).await?;
    let current =
        super::authorization_named(&state, &values, "autorizacao", &mut errors, &mut found).await?;
    let typed_record = current.as_ref().map(|c| c.id);
    filed::same_subject(filing.as_ref(), typed_record, ("autorizacao", &mut errors));
    let mut new_car = super::registered_car(&state, typed(&values, "placa_nova")).await?;
    // The new car as the filing states it, registered when the act is taken.
    let stated_car = filing.as_ref().filter(|f| {
        new_car.is_none()
            && typed(&values, "placa_nova")
                .is_some_and(|p| p.eq_ignore_ascii_case(f.stated_value("vehicle.plate")))
    });
    match (&new_car, typed(&values, "placa_nova")) {
        (Some((_, shown)), _) => found.push(("placa_nova".to_owned(), shown.clone())),
        (None, Some(_)) if stated_car.is_some() => found.push((
            "placa_nova".to_owned(),
            "A cadastrar com os dados do requerimento.".to_owned(),
        )),
        (None, Some(_)) => errors.push((
            "placa_nova".into(),
            "Veículo não cadastrado: cadastre-o antes (Cadastrar veículo).".into(),
        )),
        (None, None) => errors.push(("placa_nova".into(), "Campo obrigatório.".into())),
    }
    let cause = typed(&values, "cause").unwrap_or_default();
    if SubstitutionCause::parse(cause).is_none() {
        errors.push(("cause".into(), "Escolha o motivo.".into()));
    }
    let vistoria = vistoria_json(&values, &mut errors);
    let protocolled_on = day(&values, "protocolled_on", &mut errors);
    let refused = |errors, headline: &str| Outcome::refused(&values, &found, errors, headline);
    let Some(a) = current.as_ref().filter(|_| errors.is_empty()) else {
        let o = refused(errors, "Confira os campos; nada foi gravado.");
        return page(&s, o, StatusCode::UNPROCESSABLE_ENTITY);
    };
    if let (None, Some(f)) = (&new_car, stated_car) {
        if !act {
            // Conferred before the car is registered: the law's check needs the car.
            let what = format!(
                "O carro novo ({}) será cadastrado com os dados do requerimento ao substituir; a lei é conferida então, com ele.",
                f.stated_value("vehicle.plate")
            );
            return page(&s, conferred(&values, found, &what), StatusCode::OK);
        }
        match register_stated_car(&state, &s, f, a, refused(Vec::new(), "")).await? {
            Ok(id) => new_car = Some((id, String::new())),
            Err((o, status)) => return page(&s, o, status),
        }
    }
    let Some((vehicle_id, _)) = new_car.as_ref() else {
        let o = refused(errors, "Confira os campos; nada foi gravado.");
        return page(&s, o, StatusCode::UNPROCESSABLE_ENTITY);
    };
    let body = json!({
        "new_vehicle_id": vehicle_id,
        "cause": cause,
        "protocolled_on": protocolled_on,
        "vistoria": vistoria,
    });
    let path = format!("/api/v1/app-authorizations/{}/substitution-checks", a.id);
    let checked = match check_passes(&s, &path, &body, refused(Vec::new(), ""), task_field).await? {
        Ok(checked) => checked,
        Err((o, status)) => return page(&s, o, status),
    };
    if !act {
        let what = format!(
            "A autorização {} passará ao veículo {}, com a mesma validade; serão emitidos nova autorização e novo adesivo.",
            checked["number"].as_str().unwrap_or_default(),
            checked["plate"].as_str().unwrap_or_default(),
        );
        return page(&s, conferred(&values, found, &what), StatusCode::OK);
    }
    let path = format!("/api/v1/app-authorizations/{}/vehicle-substitutions", a.id);
    let answer = call(&s, Method::POST, &path, Some(&body)).await?;
    if !answer.status.is_success() {
        let (o, status) = refused_outcome(&s, &answer, refused(Vec::new(), ""), task_field)?;
        return page(&s, o, status);
    }
    filed::record_decision(&state, &s, filing.as_ref(), &answer).await;
    Ok(redirect(&format!(
        "/painel/ver/app-authorizations/{}?feito=authorizations.substitute_vehicle",
        a.id
    )))
}

/// Registers the new car as the filing states it (its owner the driver when the filing names
/// none): its id, or the page's outcome when the register refuses it.
async fn register_stated_car(
    state: &AppState,
    s: &Signed,
    f: &crate::issuance::filings::FilingView,
    a: &crate::domain::ride_hailing::registry::RideHailingAuthorization,
    refused: Outcome,
) -> Result<Result<uuid::Uuid, (Outcome, StatusCode)>, crate::http::panel::PanelError> {
    let mut car = f.stated.clone();
    if !car.contains_key("vehicle.owner_document")
        && let Some(d) = state.store.get_driver(a.driver_id).await?
    {
        car.insert("vehicle.owner_document".into(), d.cpf.as_str().to_owned());
    }
    let car: HashMap<String, String> = car.into_iter().collect();
    let mut problems = Vec::new();
    let body = super::grant::new_vehicle_json(&car, &mut problems);
    if !problems.is_empty() {
        let problems = problems
            .into_iter()
            .map(|(f, m)| (task_field(&f), format!("{f}: {m}")))
            .collect();
        let o = Outcome {
            errors: problems,
            headline: "O carro do requerimento está incompleto; nada foi gravado.".into(),
            ..refused
        };
        return Ok(Err((o, StatusCode::UNPROCESSABLE_ENTITY)));
    }
    let answer = call(s, Method::POST, "/api/v1/vehicles", Some(&body)).await?;
    if !answer.status.is_success() {
        return Ok(Err(refused_outcome(s, &answer, refused, task_field)?));
    }
    uuid::Uuid::parse_str(&super::id_of(&answer))
        .map(Ok)
        .map_err(|_| crate::http::panel::PanelError::Internal)
}

/// The new car's SMF vistoria as typed: day, result, inspector and notes, the day and the
/// inspector required.
fn vistoria_json(
    values: &HashMap<String, String>,
    errors: &mut Vec<(String, String)>,
) -> serde_json::Value {
    let performed_on = day(values, "vistoria.performed_on", errors);
    if typed(values, "vistoria.performed_on").is_none() {
        errors.push(("vistoria.performed_on".into(), "Campo obrigatório.".into()));
    }
    let inspector = typed(values, "vistoria.inspector").unwrap_or_default();
    if inspector.is_empty() {
        errors.push(("vistoria.inspector".into(), "Campo obrigatório.".into()));
    }
    json!({
        "performed_on": performed_on,
        "approved": typed(values, "vistoria.approved") != Some("false"),
        "inspector": inspector,
        "notes": typed(values, "vistoria.notes").unwrap_or_default(),
    })
}
