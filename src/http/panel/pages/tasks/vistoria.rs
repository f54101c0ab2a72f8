//! The municipal vistoria of a charter bus as one task (Lei 4.937/2025, art. 13, §1º): the bus
//! by its plate, the day, the result and the inspector; an approval conferred with the
//! vehicle's requirements (arts. 10–13) before it is recorded and issues the selo.

use serde_json::json;

use super::{
    AppState, Competence, Field, HashMap, HttpRequest, Meta, Method, Outcome, Page, PanelError,
    Section, Signed, StatusCode, call, check_passes, conferred, day, named_record, posted,
    redirect, refused_outcome, task_page, typed, web,
};
use crate::issuance::charter::register;

const ACTION: &str = "/painel/tarefa/vistoria";

const META: Meta = Meta {
    title: "Vistoria de ônibus ou micro-ônibus de fretamento (selo)",
    intro: "A vistoria aprovada emite o selo de vistoria do veículo; reprovada, fica registrada sem selo. “Conferir” verifica, sem gravar, se o veículo atende aos requisitos da lei para receber o selo.",
    action: ACTION,
    buttons: [
        ("conferir", "Conferir, sem gravar"),
        ("registrar", "Registrar a vistoria"),
    ],
    fallback: &[
        "charter.file_itv",
        "charter.file_vehicle_documents",
        "charter.record_vistoria",
    ],
};

fn sections(inspector: &str) -> Vec<Section> {
    let yes_no = super::vistoria_results();
    vec![
        Section::new(
            "Veículo",
            Some("Laudo de ITV ou documentos novos: junte-os antes, pelos atos do veículo.".into()),
            vec![Field::text("placa", "Placa do ônibus ou micro-ônibus").required()],
        ),
        Section::new(
            "Vistoria",
            None,
            vec![
                Field::date("performed_on", "Realizada em").required(),
                Field::select("approved", "Resultado", yes_no)
                    .required()
                    .preset("true"),
                Field::text("inspector", "Servidor(a) que vistoriou")
                    .required()
                    .preset(inspector),
                Field::textarea("notes", "Observações"),
            ],
        )
        .columns(3),
    ]
}

fn page(s: &Signed, outcome: Outcome, status: StatusCode) -> Page {
    task_page(s, &META, sections(&s.official.name), outcome, status)
}

pub(in crate::http::panel) async fn vistoria_task(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueCharter)?;
    let mut values = HashMap::new();
    if let Some(id) = query.get("id").and_then(|i| uuid::Uuid::parse_str(i).ok())
        && let Ok(v) = register::vehicle(&state, id).await
    {
        values.insert("placa".to_owned(), v.plate.as_str().to_owned());
    }
    let outcome = Outcome {
        values,
        ..Outcome::default()
    };
    page(&s, outcome, StatusCode::OK)
}

fn task_field(field: &str) -> String {
    match field {
        "vehicle" | "id" => "placa".into(),
        other => other.to_owned(),
    }
}

pub(in crate::http::panel) async fn vistoria_submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueCharter)?;
    let values = posted(&s, form.into_inner())?;
    let record = values.get("acao").map(String::as_str) == Some("registrar");
    let mut errors = Vec::new();
    let mut found = Vec::new();
    let id = named_record(
        &state,
        &values,
        "placa",
        "charter_vehicle",
        "Nenhum ônibus ou micro-ônibus de fretamento com a placa",
        &mut errors,
    )
    .await?;
    let mut vehicle = None;
    if let Some(id) = id {
        let v = register::vehicle(&state, id)
            .await
            .map_err(|_| PanelError::NotFound)?;
        let c = register::company(&state, v.company_id)
            .await
            .map_err(|_| PanelError::NotFound)?;
        found.push((
            "placa".to_owned(),
            format!("Cadastrado: {} {}, de {}", v.make, v.model, c.data.name),
        ));
        vehicle = Some(v);
    }
    let performed_on = day(&values, "performed_on", &mut errors);
    if typed(&values, "performed_on").is_none() {
        errors.push(("performed_on".into(), "Campo obrigatório.".into()));
    }
    let inspector = typed(&values, "inspector").unwrap_or_default().to_owned();
    if inspector.is_empty() {
        errors.push(("inspector".into(), "Campo obrigatório.".into()));
    }
    let approved = typed(&values, "approved") != Some("false");
    let refused = |errors, headline: &str| Outcome::refused(&values, &found, errors, headline);
    let Some(v) = vehicle.filter(|_| errors.is_empty()) else {
        let o = refused(errors, "Confira os campos; nada foi gravado.");
        return page(&s, o, StatusCode::UNPROCESSABLE_ENTITY);
    };
    // An approval issues the selo: conferred with the vehicle's requirements first.
    if approved {
        let path = format!("/api/v1/charter/vehicles/{}/vistoria-checks", v.id);
        let body = json!({"performed_on": performed_on});
        let blank = refused(Vec::new(), "");
        if let Err((o, status)) = check_passes(&s, &path, &body, blank, task_field).await? {
            return page(&s, o, status);
        }
        if !record {
            let what = format!(
                "Aprovada, a vistoria emitirá o selo do veículo {}.",
                v.plate.as_str()
            );
            return page(&s, conferred(&values, found, &what), StatusCode::OK);
        }
    } else if !record {
        let what = "Reprovada, a vistoria ficará registrada sem selo.".to_owned();
        return page(&s, conferred(&values, found, &what), StatusCode::OK);
    }
    let body = json!({
        "performed_on": performed_on, "approved": approved, "inspector": inspector,
        "notes": typed(&values, "notes").unwrap_or_default(),
    });
    let path = format!("/api/v1/charter/vehicles/{}/vistorias", v.id);
    let answer = call(&s, Method::POST, &path, Some(&body)).await?;
    if !answer.status.is_success() {
        let (o, status) = refused_outcome(&s, &answer, refused(Vec::new(), ""), task_field)?;
        return page(&s, o, status);
    }
    Ok(redirect(&format!(
        "/painel/ver/charter/vehicles/{}?feito=charter.record_vistoria",
        v.id
    )))
}
