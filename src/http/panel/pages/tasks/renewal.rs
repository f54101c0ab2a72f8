//! The yearly renewal of a ride-hailing authorization as one task: the authorization (by its
//! number, the driver's CPF or the plate), the new year's fee, the certificates brought again
//! and, if the driver changed cars, the new plate; conferred with the law, then renewed.

use serde_json::json;

use crate::domain::filings::FilingKind;

use super::{
    AppState, Competence, Court, Field, HashMap, HttpRequest, Meta, Method, Outcome, Page, Section,
    Signed, StatusCode, answered_day, call, certificate_fields, check_passes, conferred_grant, day,
    id_of, posted, record_json, redirect, refused_outcome, task_page, typed, web,
};

const ACTION: &str = "/painel/tarefa/renovacao";
use super::filed::{self, FILING};

fn sections() -> Vec<Section> {
    vec![
        Section::new(
            "Autorização a renovar",
            None,
            vec![
                super::authorization_field(),
                Field::text("vehicle.plate", "Placa do veículo do novo ano, se trocou de carro")
                    .hint("Em branco: o mesmo veículo. O novo precisa estar cadastrado."),
                // Opened from a filing sent online: the decision is recorded on it.
                Field::hidden(FILING, ""),
            ],
        ),
        Section::new(
            "Certidões e infrações (art. 12, III e IV)",
            Some(
                "A renovação é julgada como uma concessão: as certidões precisam estar em vigor na data de hoje. Digite as que o condutor trouxe; em branco, valem as já juntadas."
                    .into(),
            ),
            certificate_fields(false),
        )
        .columns(3),
        Section::new(
            "Taxas do novo ano",
            None,
            vec![
                Field::date("fee_paid_on", "Taxas pagas em").required(),
                Field::date("protocolled_on", "Data do protocolo do pedido")
                    .hint("Em branco: hoje."),
            ],
        ),
    ]
}

const META: Meta = Meta {
    title: "Renovação anual da autorização",
    intro: "A autorização vale 12 meses e não se prorroga; a renovação é uma nova autorização, com novo número, que começa no dia seguinte ao fim da atual quando as taxas são pagas antes dele. “Conferir” aplica a lei sem gravar nada.",
    action: ACTION,
    buttons: [
        ("conferir", "Conferir, sem gravar"),
        ("renovar", "Renovar e emitir autorização e adesivo"),
    ],
    fallback: &["renewal.renew", "registry.file_record"],
};

fn page(s: &Signed, outcome: Outcome, status: StatusCode) -> Page {
    task_page(s, &META, sections(), outcome, status)
}

pub(in crate::http::panel) async fn renewal_task(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueRideHailing)?;
    // From the worklist or the record: `?id=` names the authorization; shown by its number.
    let mut outcome = super::opened_on_authorization(&state, &query, "autorizacao").await?;
    let kind = FilingKind::AppRenewal;
    filed::prefill(&state, &query, kind, "protocolled_on", &[], &mut outcome).await?;
    page(&s, outcome, StatusCode::OK)
}

/// Where the API's field names land in the task.
fn task_field(field: &str) -> String {
    match field {
        "id" | "renewal_of" | "driver_id" | "authorization" => "autorizacao".into(),
        "vehicle_id" | "vehicle" => "vehicle.plate".into(),
        "criminal_certificates" => Court::Estadual1.field().into(),
        other if other.starts_with("vehicle.") => "vehicle.plate".into(),
        other => other.replace('[', ".").replace(']', ""),
    }
}

pub(in crate::http::panel) async fn renewal_submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    s.require(Competence::IssueRideHailing)?;
    let mut values = posted(&s, form.into_inner())?;
    let renew = values.get("acao").map(String::as_str) == Some("renovar");
    let mut errors = Vec::new();
    // A filing sent online: its protocol date is the one the law counts from.
    let kind = FilingKind::AppRenewal;
    let at = ("autorizacao", &mut errors);
    let filing = filed::posted(&state, &mut values, kind, "protocolled_on", at).await?;
    let mut found = Vec::new();
    // The authorization: the newest one the number, the CPF or the plate names.
    let current =
        super::authorization_named(&state, &values, "autorizacao", &mut errors, &mut found).await?;
    let mut vehicle_id = None;
    if typed(&values, "vehicle.plate").is_some() {
        match super::registered_car(&state, typed(&values, "vehicle.plate")).await? {
            Some((id, shown)) => {
                vehicle_id = Some(id);
                found.push(("vehicle.plate".to_owned(), shown));
            }
            None => errors.push((
                "vehicle.plate".into(),
                "Veículo não cadastrado: cadastre-o antes (Cadastrar veículo).".into(),
            )),
        }
    }
    let record = record_json(&values, &mut errors, &state.ride_hailing_basis());
    let fee = day(&values, "fee_paid_on", &mut errors);
    if typed(&values, "fee_paid_on").is_none() {
        errors.push(("fee_paid_on".into(), "Campo obrigatório.".into()));
    }
    let protocolled_on = day(&values, "protocolled_on", &mut errors);
    let refused = |errors, headline: &str| Outcome::refused(&values, &found, errors, headline);
    let typed_record = current.as_ref().map(|c| c.id);
    filed::same_subject(filing.as_ref(), typed_record, ("autorizacao", &mut errors));
    let Some(current) = current.filter(|_| errors.is_empty()) else {
        let o = refused(errors, "Confira os campos; nada foi gravado.");
        return page(&s, o, StatusCode::UNPROCESSABLE_ENTITY);
    };
    let filed = record;
    let mut check = json!({
        "renewal_of": current.id, "fee_paid_on": fee, "protocolled_on": protocolled_on,
    });
    if let Some(v) = vehicle_id {
        check["vehicle_id"] = json!(v);
    }
    if let Some(f) = &filed {
        check["driver_record"] = f.clone();
    }
    let path = "/api/v1/app-authorization-checks";
    let checked = match check_passes(&s, path, &check, refused(Vec::new(), ""), task_field).await? {
        Ok(checked) => checked,
        Err((o, status)) => return page(&s, o, status),
    };
    if !renew {
        let what = format!(
            "A nova autorização valerá de {} a {}.",
            answered_day(&checked, "valid_from"),
            answered_day(&checked, "valid_until")
        );
        return page(
            &s,
            conferred_grant(&values, found, &checked, &what),
            StatusCode::OK,
        );
    }
    if let Some(f) = &filed {
        let path = format!("/api/v1/drivers/{}/record", current.driver_id);
        let answer = call(&s, Method::POST, &path, Some(f)).await?;
        if !answer.status.is_success() {
            let (o, status) = refused_outcome(&s, &answer, refused(Vec::new(), ""), task_field)?;
            return page(&s, o, status);
        }
    }
    let mut body = json!({"fee_paid_on": fee, "protocolled_on": protocolled_on});
    if let Some(v) = vehicle_id {
        body["vehicle_id"] = json!(v);
    }
    let path = format!("/api/v1/app-authorizations/{}/renewal", current.id);
    let answer = call(&s, Method::POST, &path, Some(&body)).await?;
    if !answer.status.is_success() {
        let (o, status) = refused_outcome(&s, &answer, refused(Vec::new(), ""), task_field)?;
        return page(&s, o, status);
    }
    filed::record_decision(&state, &s, filing.as_ref(), &answer).await;
    if let Some(to) = super::super::acts::filed_for_review(&answer) {
        return Ok(to);
    }
    Ok(redirect(&format!(
        "/painel/ver/app-authorizations/{}?feito=renewal.renew",
        id_of(&answer)
    )))
}
