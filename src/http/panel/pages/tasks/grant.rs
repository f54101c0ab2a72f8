//! The new ride-hailing authorization as one task: the driver (or their CPF, if registered),
//! the car (or its plate), the fee; conferred with the law, then registered and granted.

use serde_json::json;

use super::filed::{self, FILING};
use super::{
    AppState, Competence, Field, HashMap, HttpRequest, Meta, Method, Outcome, Page, PanelError,
    Section, Signed, StatusCode, Value, answered_day, call, certificate_fields, conferred_grant,
    day, document_fields, enum_label, goes_to_review, id_of, posted, problems, record_json,
    redirect, refused_outcome, task_page, typed, web,
};
use crate::domain::filings::FilingKind;
use crate::domain::ids::Cpf;
use crate::domain::ride_hailing::OwnerType;
use crate::domain::ride_hailing::driver_record::Court;
use crate::http::panel::gateway::Answer;

const ACTION: &str = "/painel/tarefa/autorizacao";

#[expect(
    clippy::too_many_lines,
    reason = "the fields of the papers, in their order, read top to bottom"
)]
fn sections(state: &AppState) -> Vec<Section> {
    let basis = state.ride_hailing_basis();
    let yes_no = |yes: &str, no: &str| {
        vec![
            ("true".to_owned(), yes.to_owned()),
            ("false".to_owned(), no.to_owned()),
        ]
    };
    let categories = ["B", "AB", "C", "AC", "D", "AD", "E", "AE", "A"]
        .iter()
        .map(|c| ((*c).to_owned(), (*c).to_owned()))
        .collect();
    let driver = vec![
        Field::text("cpf", "CPF").required(),
        Field::text("name", "Nome completo").required(),
        Field::text("cnh.number", "Número de registro da CNH").required(),
        Field::select("cnh.category", "Categoria da CNH", categories).required(),
        Field::select(
            "cnh.ear",
            "A CNH traz a observação EAR (exerce atividade remunerada)?",
            yes_no("Sim", "Não"),
        )
        .required(),
        Field::date("cnh.first_license_date", "Data da primeira habilitação").required(),
        Field::date("cnh.expires_on", "Validade da CNH").required(),
    ];
    let certificates = certificate_fields(true);
    let owners = OwnerType::ALL
        .iter()
        .map(|o| (o.as_str().to_owned(), enum_label(o.as_str())))
        .collect();
    let municipalities = crate::domain::filings::car_municipalities(&basis.requirements);
    let first_municipality = municipalities
        .first()
        .map(|(v, _)| v.clone())
        .unwrap_or_default();
    let vehicle = vec![
        Field::text("vehicle.plate", "Placa").required(),
        Field::text("vehicle.renavam", "RENAVAM").required(),
        Field::text("vehicle.make", "Marca").required(),
        Field::text("vehicle.model", "Modelo").required(),
        Field::text("vehicle.color", "Cor").required(),
        Field::number("vehicle.model_year", "Ano do modelo").required(),
        Field::number("vehicle.manufacture_year", "Ano de fabricação"),
        Field::number("vehicle.doors", "Portas")
            .required()
            .preset("4"),
        Field::select(
            "vehicle.air_conditioning",
            "Ar-condicionado",
            yes_no("Sim", "Não"),
        )
        .required()
        .preset("true"),
        Field::number(
            "vehicle.capacity_including_driver",
            "Lugares, contando o do condutor",
        )
        .required()
        .preset("5"),
        Field::select(
            "vehicle.registration_municipality_ibge",
            "Município do CRLV",
            municipalities,
        )
        .required()
        .preset(&first_municipality),
        Field::select(
            "vehicle.owner_type",
            "Vínculo do condutor com o veículo",
            owners,
        )
        .required()
        .preset(OwnerType::Proprietario.as_str()),
        Field::text("vehicle.owner_document", "CPF ou CNPJ do titular do CRLV")
            .hint("Em branco: o CPF do condutor (veículo em nome dele)."),
        Field::date(
            "vehicle.in_service_since",
            "Em serviço de aplicativo aqui desde (se já servia)",
        ),
    ];
    let mut sections = vec![
        Section::new(
            "Condutor(a)",
            Some(
                "Se o(a) condutor(a) já está cadastrado(a), basta o CPF: os demais dados desta parte vêm do cadastro."
                    .into(),
            ),
            driver,
        )
        .columns(3),
        Section::new(
            "Certidões negativas criminais e infrações (art. 12, III e IV)",
            Some(format!(
                "As quatro certidões são exigidas. Sem validade impressa, cada uma vale {} dias da emissão. Para quem já está cadastrado(a), as datas digitadas juntam certidões novas ao cadastro; em branco, valem as já juntadas.",
                basis.certificate_default_validity_days().unwrap_or(0)
            )),
            certificates,
        )
        .columns(3),

        Section::new(
            "Veículo (dados do CRLV)",
            Some(
                "Se o veículo já está cadastrado, basta a placa: os demais dados desta parte vêm do cadastro."
                    .into(),
            ),
            vehicle,
        )
        .columns(3),
        Section::new(
            "Taxas",
            None,
            vec![
                Field::date("fee_paid_on", "Taxas pagas em").required(),
                Field::date("protocolled_on", "Data do protocolo do pedido")
                    .hint("Em branco: hoje."),
                // Opened from a filing sent online: the decision is recorded on it.
                Field::hidden(FILING, ""),
            ],
        ),
    ];
    let documents = document_fields(&basis, true);
    if !documents.is_empty() {
        let docs = Section::new(
            "Outros documentos exigidos pela base legal em vigor",
            Some("Sem validade impressa, cada um vale o prazo que a base legal lhe dá.".into()),
            documents,
        )
        .columns(2);
        sections.insert(2, docs);
    }
    sections
}

const META: Meta = Meta {
    title: "Nova autorização de transporte por aplicativo",
    intro: "Condutor(a), veículo e taxas em uma só página. “Conferir” aplica a lei sem gravar nada; “Conceder” cadastra o que for novo, concede a autorização e emite os documentos.",
    action: ACTION,
    buttons: [
        ("conferir", "Conferir, sem gravar"),
        ("conceder", "Conceder e emitir autorização e adesivo"),
    ],
    fallback: &[
        "registry.create_driver",
        "registry.create_vehicle",
        "registry.file_record",
        "authorizations.grant",
    ],
};

fn page(state: &AppState, s: &Signed, outcome: Outcome, status: StatusCode) -> Page {
    task_page(s, &META, sections(state), outcome, status)
}

pub(in crate::http::panel) async fn grant_task(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueRideHailing)?;
    // A link may name the driver or the car already (`?cpf=…`, `?placa=…`).
    let mut values = HashMap::new();
    if let Some(cpf) = query.get("cpf") {
        values.insert("cpf".to_owned(), cpf.clone());
    }
    if let Some(plate) = query.get("placa") {
        values.insert("vehicle.plate".to_owned(), plate.clone());
    }
    let mut outcome = Outcome {
        values,
        ..Outcome::default()
    };
    let kind = FilingKind::AppNewAuthorization;
    filed::prefill(&state, &query, kind, "protocolled_on", &[], &mut outcome).await?;
    page(&state, &s, outcome, StatusCode::OK)
}

/// The registered driver and car the CPF and the plate name, with what to show beside them.
struct Parties {
    driver: Option<(uuid::Uuid, String)>,
    vehicle: Option<(uuid::Uuid, String)>,
}

async fn registered(
    state: &AppState,
    values: &HashMap<String, String>,
) -> Result<Parties, PanelError> {
    let mut parties = Parties {
        driver: None,
        vehicle: None,
    };
    if let Some(cpf) = typed(values, "cpf").and_then(|c| Cpf::parse(c).ok())
        && let Some((id, true)) = state
            .store
            .driver_id_by_cpf_or_cnh(cpf.as_str(), "")
            .await?
        && let Some(d) = state.store.get_driver(id).await?
    {
        parties.driver = Some((id, format!("Cadastrado(a): {}", d.name)));
    }
    parties.vehicle = super::registered_car(state, typed(values, "vehicle.plate")).await?;
    Ok(parties)
}

/// A required field of a party not yet registered.
fn need<'a>(
    values: &'a HashMap<String, String>,
    name: &str,
    errors: &mut Vec<(String, String)>,
) -> &'a str {
    let v = typed(values, name);
    if v.is_none() {
        errors.push((name.to_owned(), "Campo obrigatório.".into()));
    }
    v.unwrap_or_default()
}

fn number(
    values: &HashMap<String, String>,
    name: &str,
    errors: &mut Vec<(String, String)>,
) -> Value {
    let raw = need(values, name, errors);
    if let Ok(n) = raw.parse::<i32>() {
        json!(n)
    } else {
        if !raw.is_empty() {
            errors.push((name.to_owned(), "Informe um número inteiro.".into()));
        }
        Value::Null
    }
}

fn new_driver_json(
    values: &HashMap<String, String>,
    errors: &mut Vec<(String, String)>,
    record: Option<&Value>,
) -> Value {
    let d = |name: &str, errors: &mut Vec<(String, String)>| {
        let v = day(values, name, errors);
        if v.is_none() && typed(values, name).is_none() {
            errors.push((name.to_owned(), "Campo obrigatório.".into()));
        }
        v
    };
    let first = d("cnh.first_license_date", errors);
    let expires = d("cnh.expires_on", errors);
    let ear = need(values, "cnh.ear", errors) == "true";
    json!({
        "name": need(values, "name", errors),
        "cpf": need(values, "cpf", errors),
        "cnh": {
            "number": need(values, "cnh.number", errors),
            "category": need(values, "cnh.category", errors),
            "ear": ear,
            "first_license_date": first,
            "expires_on": expires,
        },
        "criminal_certificates": record.map_or(json!([]), |r| r["criminal_certificates"].clone()),
        "traffic_infractions": record.map_or(json!([]), |r| r["traffic_infractions"].clone()),
        "documents": record.map_or(json!([]), |r| r["documents"].clone()),
    })
}

pub(super) fn new_vehicle_json(
    values: &HashMap<String, String>,
    errors: &mut Vec<(String, String)>,
) -> Value {
    let owner_type = need(values, "vehicle.owner_type", errors);
    // The CRLV in the driver's own name: the driver's CPF unless another is typed.
    let owner_document = typed(values, "vehicle.owner_document")
        .or_else(|| typed(values, "cpf"))
        .unwrap_or_default();
    json!({
        "plate": need(values, "vehicle.plate", errors),
        "renavam": need(values, "vehicle.renavam", errors),
        "make": need(values, "vehicle.make", errors),
        "model": need(values, "vehicle.model", errors),
        "color": need(values, "vehicle.color", errors),
        "model_year": number(values, "vehicle.model_year", errors),
        "manufacture_year": typed(values, "vehicle.manufacture_year")
            .map_or(Value::Null, |_| number(values, "vehicle.manufacture_year", errors)),
        "doors": number(values, "vehicle.doors", errors),
        "air_conditioning": need(values, "vehicle.air_conditioning", errors) == "true",
        "capacity_including_driver": number(values, "vehicle.capacity_including_driver", errors),
        "registration_municipality_ibge": need(values, "vehicle.registration_municipality_ibge", errors),
        "owner_type": owner_type,
        "owner_document": owner_document,
        "in_service_since": day(values, "vehicle.in_service_since", errors),
    })
}

/// Where the API's field names land in the task.
fn task_field(field: &str) -> String {
    match field {
        "driver_id" | "driver" => "cpf".into(),
        "vehicle_id" | "vehicle" => "vehicle.plate".into(),
        "cnh" => "cnh.number".into(),
        "criminal_certificates" => Court::Estadual1.field().into(),
        "plate"
        | "renavam"
        | "make"
        | "model"
        | "color"
        | "model_year"
        | "manufacture_year"
        | "doors"
        | "air_conditioning"
        | "capacity_including_driver"
        | "registration_municipality_ibge"
        | "owner_type"
        | "owner_document"
        | "in_service_since" => format!("vehicle.{field}"),
        other => other.replace('[', ".").replace(']', ""),
    }
}

fn mapped(items: Vec<(String, String)>) -> Vec<(String, String)> {
    items
        .into_iter()
        .map(|(f, m)| (task_field(&f), m))
        .collect()
}

#[expect(
    clippy::too_many_lines,
    reason = "one task's round trip: resolve, check, then each act in order"
)]
pub(in crate::http::panel) async fn grant_submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueRideHailing)?;
    let mut values = posted(&s, form.into_inner())?;
    let grant = values.get("acao").map(String::as_str) == Some("conceder");
    let mut errors = Vec::new();
    // A filing sent online: its protocol date is the one the law counts from.
    let kind = FilingKind::AppNewAuthorization;
    let at = ("cpf", &mut errors);
    let filing = filed::posted(&state, &mut values, kind, "protocolled_on", at).await?;
    let parties = registered(&state, &values).await?;
    let mut found = Vec::new();
    let record = record_json(&values, &mut errors, &state.ride_hailing_basis());
    let mut body = json!({});
    let new_driver = if let Some((id, shown)) = &parties.driver {
        found.push(("cpf".to_owned(), shown.clone()));
        body["driver_id"] = json!(id);
        if let Some(r) = &record {
            body["driver_record"] = r.clone();
        }
        None
    } else {
        let d = new_driver_json(&values, &mut errors, record.as_ref());
        body["driver"] = d.clone();
        Some(d)
    };
    let new_vehicle = if let Some((id, shown)) = &parties.vehicle {
        found.push(("vehicle.plate".to_owned(), shown.clone()));
        body["vehicle_id"] = json!(id);
        None
    } else {
        let v = new_vehicle_json(&values, &mut errors);
        body["vehicle"] = v.clone();
        Some(v)
    };
    let fee = day(&values, "fee_paid_on", &mut errors);
    if typed(&values, "fee_paid_on").is_none() {
        errors.push(("fee_paid_on".into(), "Campo obrigatório.".into()));
    }
    body["fee_paid_on"] = json!(fee);
    let protocolled_on = day(&values, "protocolled_on", &mut errors);
    body["protocolled_on"] = json!(protocolled_on);
    let refused = |errors, headline: &str, general| Outcome {
        general,
        ..Outcome::refused(&values, &found, errors, headline)
    };
    if !errors.is_empty() {
        let o = refused(errors, "Confira os campos; nada foi gravado.", Vec::new());
        return page(&state, &s, o, StatusCode::UNPROCESSABLE_ENTITY);
    }
    let answer = call(
        &s,
        Method::POST,
        "/api/v1/app-authorization-checks",
        Some(&body),
    )
    .await?;
    if !answer.status.is_success() {
        return refusal(&state, &s, &answer, refused(Vec::new(), "", Vec::new()));
    }
    let check = answer.json().unwrap_or_default();
    if check["passes"] != json!(true) && !goes_to_review(&check) {
        let errors: Vec<(String, String)> = mapped(problems(&check));
        let o = refused(
            errors,
            "Requisitos legais não atendidos; nada foi gravado.",
            Vec::new(),
        );
        return page(&state, &s, o, StatusCode::UNPROCESSABLE_ENTITY);
    }
    if !grant {
        let what = format!(
            "A autorização valerá de {} a {}.",
            answered_day(&check, "valid_from"),
            answered_day(&check, "valid_until")
        );
        return page(
            &state,
            &s,
            conferred_grant(&values, found, &check, &what),
            StatusCode::OK,
        );
    }
    // The acts, in the order the register needs them; each through the API.
    let mut kept = Vec::new();
    let driver_id = match (&parties.driver, new_driver) {
        (Some((id, _)), _) => {
            if let Some(filed) = body.get("driver_record") {
                let answer = call(
                    &s,
                    Method::POST,
                    &format!("/api/v1/drivers/{id}/record"),
                    Some(filed),
                )
                .await?;
                if !answer.status.is_success() {
                    return refusal(&state, &s, &answer, refused(Vec::new(), "", Vec::new()));
                }
                kept.push("as certidões foram juntadas ao cadastro do condutor");
            }
            id.to_string()
        }
        (None, Some(d)) => {
            let answer = call(&s, Method::POST, "/api/v1/drivers", Some(&d)).await?;
            if !answer.status.is_success() {
                return refusal(&state, &s, &answer, refused(Vec::new(), "", Vec::new()));
            }
            kept.push("o(a) condutor(a) foi cadastrado(a)");
            id_of(&answer)
        }
        (None, None) => return Err(PanelError::Internal),
    };
    let vehicle_id = match (&parties.vehicle, new_vehicle) {
        (Some((id, _)), _) => id.to_string(),
        (None, Some(v)) => {
            let answer = call(&s, Method::POST, "/api/v1/vehicles", Some(&v)).await?;
            if !answer.status.is_success() {
                let mut o = refused(Vec::new(), "", Vec::new());
                o.general.push(kept_note(&kept));
                return refusal(&state, &s, &answer, o);
            }
            kept.push("o veículo foi cadastrado");
            id_of(&answer)
        }
        (None, None) => return Err(PanelError::Internal),
    };
    let grant_body = json!({
        "driver_id": driver_id, "vehicle_id": vehicle_id,
        "fee_paid_on": fee, "protocolled_on": protocolled_on,
    });
    let answer = call(
        &s,
        Method::POST,
        "/api/v1/app-authorizations",
        Some(&grant_body),
    )
    .await?;
    if !answer.status.is_success() {
        let mut o = refused(Vec::new(), "", Vec::new());
        o.general.push(kept_note(&kept));
        return refusal(&state, &s, &answer, o);
    }
    filed::record_decision(&state, &s, filing.as_ref(), &answer).await;
    if let Some(to) = super::super::acts::filed_for_review(&answer) {
        return Ok(to);
    }
    Ok(redirect(&format!(
        "/painel/ver/app-authorizations/{}?feito=authorizations.grant",
        id_of(&answer)
    )))
}

fn kept_note(kept: &[&str]) -> String {
    if kept.is_empty() {
        String::new()
    } else {
        format!(
            "Ficou gravado: {}. Corrija e envie de novo; o que já está no cadastro é reconhecido pelo CPF e pela placa.",
            kept.join("; ")
        )
    }
}

/// The API refused a step: its reasons beside the fields, nothing more written.
fn refusal(state: &AppState, s: &Signed, answer: &Answer, o: Outcome) -> Page {
    let (o, status) = refused_outcome(s, answer, o, task_field)?;
    page(state, s, o, status)
}
