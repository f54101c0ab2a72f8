//! Guided tasks: the acts a clerk does every day, each as one page in the order of the papers
//! in hand, with labelled choices, days as `dd/mm/aaaa`, people and cars named by CPF and
//! plate, and a "Conferir" that runs the law's decision without writing anything. The acts
//! themselves go through the JSON API, as every form of the back office.

mod app_vistoria;
mod auto;
mod certidao;
mod charter_auto;
mod company;
mod contract;
mod enrolment;
mod filed;
mod grant;
mod procedure;
mod renewal;
mod sanction;
mod substitution;
mod termo;
mod vistoria;

/// Registers each task's page (`GET`) and its submission (`POST`).
macro_rules! task_routes {
    ($cfg:ident; $($path:literal => $module:ident :: $page:ident, $submit:ident;)+) => {
        $($cfg.service(
            web::resource($path)
                .route(web::get().to($module::$page))
                .route(web::post().to($module::$submit)),
        );)+
    };
}

/// The guided tasks' routes, under `/painel/tarefa/`.
pub(super) fn configure(cfg: &mut web::ServiceConfig) {
    task_routes! { cfg;
        "/painel/tarefa/autorizacao" => grant::grant_task, grant_submit;
        "/painel/tarefa/renovacao" => renewal::renewal_task, renewal_submit;
        "/painel/tarefa/substituicao" => substitution::substitution_task, substitution_submit;
        "/painel/tarefa/vistoria-aplicativo" => app_vistoria::app_vistoria_task, app_vistoria_submit;
        "/painel/tarefa/sancao" => sanction::sanction_task, sanction_submit;
        "/painel/tarefa/revogacao" => sanction::revocation_task, revocation_submit;
        "/painel/tarefa/alteracao" => sanction::data_change_task, data_change_submit;
        "/painel/tarefa/certidao" => certidao::certidao_task, certidao_submit;
        "/painel/tarefa/auto" => auto::auto_task, auto_submit;
        "/painel/tarefa/procedimento" => procedure::procedure_task, procedure_submit;
        "/painel/tarefa/empresa" => company::company_task, company_submit;
        "/painel/tarefa/termo" => termo::termo_task, termo_submit;
        "/painel/tarefa/onibus" => enrolment::bus_task, bus_submit;
        "/painel/tarefa/motorista" => enrolment::charter_driver_task, charter_driver_submit;
        "/painel/tarefa/vistoria" => vistoria::vistoria_task, vistoria_submit;
        "/painel/tarefa/contrato" => contract::contract_task, contract_submit;
        "/painel/tarefa/auto-fretamento" => charter_auto::charter_auto_task, charter_auto_submit;
        "/painel/tarefa/procedimento-fretamento" => procedure::charter_procedure_task, charter_procedure_submit;
    }
}

use serde_json::json;

/// The guided task that does the act `op` on the record `id` (an authorization, a bus, a
/// company), where there is one: the records' acts and the worklist's rows open it.
pub(super) fn guided_task_href(op: &str, id: &str) -> Option<String> {
    let task = match op {
        "renewal.renew" => "renovacao",
        "authorizations.substitute_vehicle" => "substituicao",
        "authorizations.certidao" => "certidao",
        "autos.act" | "autos.notify" => "procedimento",
        "charter.procedure_act" => "procedimento-fretamento",
        "charter.create_vehicle" => "onibus",
        "authorizations.sanction" => "sancao",
        "authorizations.revoke" => "revogacao",
        "authorizations.vistoria" => "vistoria-aplicativo",
        "registry.data_change" => "alteracao",
        "charter.create_driver" => "motorista",
        "charter.create_auto" => "auto-fretamento",
        "charter.create_contract" => "contrato",
        "charter.record_vistoria" => "vistoria",
        "charter.grant_termo" => "termo",
        _ => return None,
    };
    Some(format!("/painel/tarefa/{task}?id={}", urlencode(id)))
}

use super::*;
use crate::domain::legal_basis::RideHailingLegalBasis;
use crate::domain::requirements::driver_documents;
use crate::domain::ride_hailing::driver_record::Court;

/// One field of a task.
pub struct Field {
    name: String,
    label: String,
    /// `text`, `date`, `number`, `select` or `textarea`.
    kind: &'static str,
    required: bool,
    options: Vec<(String, String)>,
    /// Whether a select starts with an empty "escolha" choice.
    blank: bool,
    value: String,
    hint: Option<String>,
    /// Takes a whole line of its section.
    wide: bool,
    /// What the register holds for what was typed (the driver's name beside the CPF).
    found: Option<String>,
    error: Option<String>,
}

impl Field {
    fn new(name: &str, label: &str, kind: &'static str) -> Self {
        Self {
            name: name.to_owned(),
            label: label.to_owned(),
            kind,
            required: false,
            options: Vec::new(),
            blank: false,
            value: String::new(),
            hint: None,
            wide: false,
            found: None,
            error: None,
        }
    }
    fn text(name: &str, label: &str) -> Self {
        Self::new(name, label, "text")
    }
    fn date(name: &str, label: &str) -> Self {
        Self::new(name, label, "date")
    }
    /// A day and a time, as on an inspector's paper (`30/11/2026 10:00` typed, or picked).
    fn datetime(name: &str, label: &str) -> Self {
        Self::new(name, label, "datetime-local")
    }
    fn number(name: &str, label: &str) -> Self {
        Self::new(name, label, "number")
    }
    /// A value the page carries without showing it (the act a procedure's page is about).
    fn hidden(name: &str, value: &str) -> Self {
        Self {
            value: value.to_owned(),
            ..Self::new(name, "", "hidden")
        }
    }
    fn textarea(name: &str, label: &str) -> Self {
        Self {
            wide: true,
            ..Self::new(name, label, "textarea")
        }
    }
    fn select(name: &str, label: &str, options: Vec<(String, String)>) -> Self {
        Self {
            options,
            blank: true,
            ..Self::new(name, label, "select")
        }
    }
    fn required(self) -> Self {
        Self {
            required: true,
            ..self
        }
    }
    fn hint(self, hint: impl Into<String>) -> Self {
        Self {
            hint: Some(hint.into()),
            ..self
        }
    }
    /// The value shown before anything is typed; a select with one has no empty choice.
    fn preset(self, value: &str) -> Self {
        Self {
            value: value.to_owned(),
            blank: false,
            ..self
        }
    }
}

pub struct Section {
    legend: String,
    note: Option<String>,
    fields: Vec<Field>,
    /// Fields side by side on a wide screen (one per line on a phone).
    columns: u8,
}

impl Section {
    fn new(legend: &str, note: Option<String>, fields: Vec<Field>) -> Self {
        Self {
            legend: legend.to_owned(),
            note,
            fields,
            columns: 1,
        }
    }
    fn columns(self, columns: u8) -> Self {
        Self { columns, ..self }
    }
}

#[derive(Template)]
#[template(path = "pages/panel/task.html")]
struct TaskPage {
    chrome: Option<Chrome>,
    title: String,
    intro: String,
    back: Option<(String, String)>,
    ok: Option<String>,
    headline: String,
    general: Vec<String>,
    action: String,
    csrf: String,
    sections: Vec<Section>,
    /// (value of `acao`, text, primary)
    buttons: Vec<(String, String, bool)>,
    /// Links to the generic forms for the cases the task does not cover.
    fallback: Vec<(String, String)>,
    /// Links to the other forms of the task (href, text, the one shown).
    choices: Vec<(String, String, bool)>,
}

/// What a task page shows after a round trip.
#[derive(Default)]
struct Outcome {
    values: HashMap<String, String>,
    errors: Vec<(String, String)>,
    found: Vec<(String, String)>,
    ok: Option<String>,
    headline: String,
    general: Vec<String>,
    /// The other forms of the task, as links (href, text, the one shown).
    choices: Vec<(String, String, bool)>,
    /// The page the task was opened from (a filing sent online), as a link.
    back: Option<(String, String)>,
}

impl Outcome {
    /// What was typed and found, sent back with `errors` under `headline`: nothing recorded.
    fn refused(
        values: &HashMap<String, String>,
        found: &[(String, String)],
        errors: Vec<(String, String)>,
        headline: &str,
    ) -> Self {
        Self {
            values: values.clone(),
            errors,
            found: found.to_vec(),
            headline: headline.to_owned(),
            ..Self::default()
        }
    }

    /// Puts the typed values, what was found and the errors beside their fields; an error
    /// whose field the page does not have goes to the top.
    fn apply(mut self, sections: &mut [Section]) -> Self {
        for f in sections.iter_mut().flat_map(|s| s.fields.iter_mut()) {
            if let Some(v) = self.values.get(&f.name) {
                f.value = if f.kind == "date" {
                    // A date input shows only an ISO day; a typed one is converted back.
                    forms::api_date(v.trim()).unwrap_or_else(|| v.clone())
                } else if f.kind == "datetime-local" {
                    forms::api_local_datetime(v.trim()).unwrap_or_else(|| v.clone())
                } else {
                    v.clone()
                };
            }
            if let Some((_, found)) = self.found.iter().find(|(n, _)| *n == f.name) {
                f.found = Some(found.clone());
            }
        }
        for (field, message) in std::mem::take(&mut self.errors) {
            let hit = sections
                .iter_mut()
                .flat_map(|s| s.fields.iter_mut())
                .find(|f| f.name == field);
            match hit {
                Some(f) => {
                    f.error = Some(match f.error.take() {
                        Some(prev) => format!("{prev} · {message}"),
                        None => message,
                    });
                }
                None => self.general.push(message),
            }
        }
        self
    }
}

/// The day typed in `name` as the API takes it; an error beside the field if it is not one.
fn day(
    values: &HashMap<String, String>,
    name: &str,
    errors: &mut Vec<(String, String)>,
) -> Option<String> {
    let raw = values.get(name).map_or("", |v| v.trim());
    if raw.is_empty() {
        return None;
    }
    let day = forms::api_date(raw);
    if day.is_none() {
        errors.push((name.to_owned(), "Data inválida; use dd/mm/aaaa.".into()));
    }
    day
}

/// The text typed in `name`, trimmed; `None` when empty.
fn typed<'a>(values: &'a HashMap<String, String>, name: &str) -> Option<&'a str> {
    values.get(name).map(|v| v.trim()).filter(|v| !v.is_empty())
}

/// A form posted to a task: its fields, the CSRF token checked.
fn posted(s: &Signed, form: Vec<(String, String)>) -> Result<HashMap<String, String>, PanelError> {
    let mut values = HashMap::new();
    for (k, v) in form {
        values.insert(k, v);
    }
    s.check_csrf(&values)?;
    Ok(values)
}

/// The problem items of an API answer as (field, message), each with its article.
fn answer_problems(
    answer: &crate::http::panel::gateway::Answer,
) -> (Vec<(String, String)>, String) {
    let json = answer.json().unwrap_or_default();
    let items = problems(&json);
    let detail = json
        .get("detail")
        .and_then(Value::as_str)
        .unwrap_or("O pedido foi recusado.")
        .to_owned();
    (items, detail)
}

/// The court's code in the API and its field in a task.
fn court_code(court: Court) -> &'static str {
    court.field().trim_start_matches("criminal_certificates.")
}

/// The four criminal certificates of art. 12, III (one row each: the day of issue, the result,
/// the validity printed) and the gravíssimas of art. 12, IV.
/// `required`: a new driver must bring all four; for a registered one, blank keeps those filed.
fn certificate_fields(required: bool) -> Vec<Field> {
    let mut certificates = Vec::new();
    for court in Court::ALL {
        let code = court_code(court);
        certificates.push(Field {
            required,
            ..Field::date(court.field(), &format!("{} — emitida em", court.label_pt()))
        });
        certificates.push(
            Field::select(
                &format!("criminal_certificates.{code}.clear"),
                "Resultado",
                vec![
                    ("true".into(), "Nada consta".into()),
                    ("false".into(), "Consta registro".into()),
                ],
            )
            .preset("true"),
        );
        certificates.push(Field::date(
            &format!("criminal_certificates.{code}.valid_until"),
            "Validade impressa na certidão (se houver)",
        ));
    }
    certificates.push(
        Field::textarea(
            "traffic_infractions",
            "Infrações gravíssimas do extrato do DETRAN nos 12 meses antes do pedido",
        )
        .hint("Uma data por linha (dd/mm/aaaa); em branco se não houver."),
    );
    certificates
}

/// A date field for each document the basis in force asks the driver for (its issue and the
/// validity printed on it), under `documents.<name>.`.
fn document_fields(basis: &RideHailingLegalBasis, required: bool) -> Vec<Field> {
    let mut fields = Vec::new();
    for (name, label) in driver_documents(&basis.requirements) {
        fields.push(Field {
            required,
            ..Field::date(
                &format!("documents.{name}.issued_on"),
                &format!("{label} — emitido em"),
            )
        });
        fields.push(Field::date(
            &format!("documents.{name}.valid_until"),
            "Validade impressa (se houver)",
        ));
    }
    fields
}

/// The driver's record typed in the task, as the API takes it: certificates, gravíssimas and
/// the documents the basis asks for; `None` when nothing was typed.
fn record_json(
    values: &HashMap<String, String>,
    errors: &mut Vec<(String, String)>,
    basis: &RideHailingLegalBasis,
) -> Option<Value> {
    let (certificates, infractions) = certificates_json(values, errors);
    let mut documents = Vec::new();
    for (name, _) in driver_documents(&basis.requirements) {
        let Some(issued_on) = day(values, &format!("documents.{name}.issued_on"), errors) else {
            continue;
        };
        let valid_until = day(values, &format!("documents.{name}.valid_until"), errors);
        documents.push(json!({
            "document": name, "issued_on": issued_on, "valid_until": valid_until,
        }));
    }
    (!certificates.is_empty() || !infractions.is_empty() || !documents.is_empty()).then(|| {
        json!({
            "criminal_certificates": certificates,
            "traffic_infractions": infractions,
            "documents": documents,
        })
    })
}

/// The driver's certificates and gravíssimas typed in the task, as the API takes them.
fn certificates_json(
    values: &HashMap<String, String>,
    errors: &mut Vec<(String, String)>,
) -> (Vec<Value>, Vec<Value>) {
    let mut certificates = Vec::new();
    for court in Court::ALL {
        let code = court_code(court);
        let Some(issued_on) = day(values, court.field(), errors) else {
            continue;
        };
        let valid_until = day(
            values,
            &format!("criminal_certificates.{code}.valid_until"),
            errors,
        );
        let clear = typed(values, &format!("criminal_certificates.{code}.clear")) != Some("false");
        certificates.push(json!({
            "court": code, "issued_on": issued_on, "valid_until": valid_until, "clear": clear,
        }));
    }
    let mut infractions = Vec::new();
    for line in values
        .get("traffic_infractions")
        .map(String::as_str)
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
    {
        match forms::api_date(line) {
            Some(d) => infractions.push(json!({"committed_on": d, "class": "gravissima"})),
            None => errors.push((
                "traffic_infractions".into(),
                format!("“{line}” não é uma data; use dd/mm/aaaa, uma por linha."),
            )),
        }
    }
    (certificates, infractions)
}

/// The id of the record an API answer created.
fn id_of(answer: &crate::http::panel::gateway::Answer) -> String {
    answer
        .json()
        .and_then(|j| j.get("id").and_then(Value::as_str).map(str::to_owned))
        .unwrap_or_default()
}

/// An API refusal as a task shows it: each reason beside its field (`field` maps the API's
/// names to the task's), the others on top; a refusal of the role is the 403 page.
fn refused_outcome(
    s: &Signed,
    answer: &crate::http::panel::gateway::Answer,
    mut o: Outcome,
    field: fn(&str) -> String,
) -> Result<(Outcome, StatusCode), PanelError> {
    if answer.status == StatusCode::FORBIDDEN {
        return Err(s.forbidden_by(&answer.json().unwrap_or_default()));
    }
    let (items, detail) = answer_problems(answer);
    if items.is_empty() {
        o.general.insert(0, detail);
    }
    o.general.retain(|g| !g.is_empty());
    o.errors = items.into_iter().map(|(f, m)| (field(&f), m)).collect();
    o.headline = "O pedido foi recusado.".into();
    let status = if answer.status.is_client_error() {
        answer.status
    } else {
        StatusCode::BAD_GATEWAY
    };
    Ok((o, status))
}

/// Runs a check operation (`…-checks`, which writes nothing): the answer when the act would
/// pass; otherwise the task's page content for the refusal — the API's, or the requirements
/// the act does not meet, each beside its field. `blank` carries what was typed.
async fn check_passes(
    s: &Signed,
    path: &str,
    body: &Value,
    blank: Outcome,
    field: fn(&str) -> String,
) -> Result<Result<Value, (Outcome, StatusCode)>, PanelError> {
    let answer = call(s, Method::POST, path, Some(body)).await?;
    if !answer.status.is_success() {
        return refused_outcome(s, &answer, blank, field).map(Err);
    }
    let checked = answer.json().unwrap_or_default();
    if checked["passes"] != json!(true) && !goes_to_review(&checked) {
        let mut o = blank;
        o.errors = problems(&checked)
            .into_iter()
            .map(|(f, m)| (field(&f), m))
            .collect();
        o.headline = "Requisitos legais não atendidos; nada foi gravado.".into();
        return Ok(Err((o, StatusCode::UNPROCESSABLE_ENTITY)));
    }
    Ok(Ok(checked))
}

/// A check with no requirement failed whose request an official must review (AMB-25): the
/// act files it `em_analise`.
fn goes_to_review(checked: &Value) -> bool {
    checked["errors"].as_array().is_none_or(Vec::is_empty)
        && checked["review"].as_array().is_some_and(|r| !r.is_empty())
}

/// What the clerk is told of a request that will be filed for review.
fn review_note(checked: &Value) -> Option<String> {
    let reasons: Vec<String> = checked["review"]
        .as_array()?
        .iter()
        .map(|r| {
            format!(
                "{} ({})",
                r["reason"].as_str().unwrap_or_default(),
                r["citation"].as_str().unwrap_or_default()
            )
        })
        .collect();
    (!reasons.is_empty()).then(|| {
        format!(
            "O pedido depende da análise de um servidor: {}. Ao enviar, ele fica em análise e nenhum documento é emitido até a decisão.",
            reasons.join("; ")
        )
    })
}

/// What a task is called, where it posts, its buttons and the generic forms it stands for.
struct Meta {
    title: &'static str,
    intro: &'static str,
    action: &'static str,
    /// (value of `acao`, text): "conferir" first, then the act.
    buttons: [(&'static str, &'static str); 2],
    fallback: &'static [&'static str],
}

/// A task's page: its sections with what the round trip left in them.
fn task_page(
    s: &Signed,
    meta: &Meta,
    mut sections: Vec<Section>,
    outcome: Outcome,
    status: StatusCode,
) -> Page {
    let outcome = outcome.apply(&mut sections);
    let body = render(&TaskPage {
        chrome: Some(chrome_of(s)),
        title: meta.title.into(),
        intro: meta.intro.into(),
        back: outcome.back,
        ok: outcome.ok,
        headline: outcome.headline,
        general: outcome.general,
        action: meta.action.into(),
        csrf: s.session.csrf_token.clone(),
        sections,
        buttons: meta
            .buttons
            .iter()
            .enumerate()
            .map(|(i, (v, t))| ((*v).to_owned(), (*t).to_owned(), i > 0))
            .collect(),
        fallback: meta
            .fallback
            .iter()
            .map(|op| (format!("/painel/acao/{op}"), op_label(op).to_owned()))
            .collect(),
        choices: outcome.choices,
    })?;
    Ok(html(status, body))
}

/// A day the API answered (`AAAA-MM-DD`) as a person reads it.
fn answered_day(json: &Value, key: &str) -> String {
    json[key]
        .as_str()
        .and_then(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
        .map(crate::documents::format::date)
        .unwrap_or_default()
}

/// The page after a check that passed: what was typed kept, and what the act would do.
fn conferred(
    values: &HashMap<String, String>,
    found: Vec<(String, String)>,
    what: &str,
) -> Outcome {
    Outcome {
        values: values.clone(),
        found,
        ok: Some(format!(
            "Conferido: todos os requisitos atendidos. {what} Nada foi gravado ainda."
        )),
        ..Outcome::default()
    }
}

/// A grant's or a renewal's check: conferred, or — when an official must review it — what
/// the clerk must know before sending it.
fn conferred_grant(
    values: &HashMap<String, String>,
    found: Vec<(String, String)>,
    checked: &Value,
    what: &str,
) -> Outcome {
    match review_note(checked) {
        Some(note) => Outcome {
            values: values.clone(),
            found,
            ok: Some(format!(
                "Conferido, sem requisito falho. {note} Nada foi gravado ainda."
            )),
            ..Outcome::default()
        },
        None => conferred(values, found, what),
    }
}

/// The newest record of `kind` that what was typed in `field` names (a number, a CPF, a plate,
/// a CNPJ, as the search box reads them); otherwise the reason beside the field.
async fn named_record(
    state: &AppState,
    values: &HashMap<String, String>,
    field: &str,
    kind: &str,
    none: &str,
    errors: &mut Vec<(String, String)>,
) -> Result<Option<uuid::Uuid>, PanelError> {
    let Some(q) = typed(values, field) else {
        errors.push((field.to_owned(), "Campo obrigatório.".into()));
        return Ok(None);
    };
    let hit = state
        .store
        .search(q)
        .await?
        .into_iter()
        .find(|h| h.kind == kind)
        .and_then(|h| uuid::Uuid::parse_str(&h.id).ok());
    if hit.is_none() {
        errors.push((field.to_owned(), format!("{none} “{q}”.")));
    }
    Ok(hit)
}

/// The ride-hailing authorization the number, the CPF or the plate typed in `field` names
/// (the newest), with the driver's name, the plate and the validity shown beside the field.
async fn authorization_named(
    state: &AppState,
    values: &HashMap<String, String>,
    field: &str,
    errors: &mut Vec<(String, String)>,
    found: &mut Vec<(String, String)>,
) -> Result<Option<crate::domain::ride_hailing::registry::RideHailingAuthorization>, PanelError> {
    let id = named_record(
        state,
        values,
        field,
        "authorization",
        "Nenhuma autorização encontrada para",
        errors,
    )
    .await?;
    let Some(a) = (match id {
        Some(id) => state.store.get_authorization(id).await?,
        None => None,
    }) else {
        return Ok(None);
    };
    let driver = state.store.get_driver(a.driver_id).await?;
    let vehicle = state.store.get_vehicle(a.vehicle_id).await?;
    found.push((
        field.to_owned(),
        format!(
            "Autorização {} — {}, placa {}, válida até {}",
            a.number,
            driver.map(|d| d.name).unwrap_or_default(),
            vehicle
                .map(|v| v.plate.as_str().to_owned())
                .unwrap_or_default(),
            crate::documents::format::date(a.valid_until)
        ),
    ));
    Ok(Some(a))
}

/// The registered car (ride-hailing) with the plate typed, and what to show beside it.
async fn registered_car(
    state: &AppState,
    typed_plate: Option<&str>,
) -> Result<Option<(uuid::Uuid, String)>, PanelError> {
    let Some(plate) = typed_plate.and_then(|p| crate::domain::ids::Plate::parse(p).ok()) else {
        return Ok(None);
    };
    let Some((id, true)) = state
        .store
        .vehicle_id_by_plate_or_renavam(&plate.mercosul_form(), "")
        .await?
    else {
        return Ok(None);
    };
    Ok(state.store.get_vehicle(id).await?.map(|v| {
        (
            id,
            format!(
                "Cadastrado: {} {} {}, {}",
                v.make, v.model, v.model_year, v.color
            ),
        )
    }))
}

/// The charter company the CNPJ typed in `field` names, with its name shown beside it.
async fn company_named(
    state: &AppState,
    values: &HashMap<String, String>,
    field: &str,
    errors: &mut Vec<(String, String)>,
    found: &mut Vec<(String, String)>,
) -> Result<Option<crate::standing::charter::Company>, PanelError> {
    let id = named_record(
        state,
        values,
        field,
        "company",
        "Nenhuma empresa de fretamento com o CNPJ",
        errors,
    )
    .await?;
    let Some(id) = id else { return Ok(None) };
    let c = crate::issuance::charter::register::company(state, id)
        .await
        .map_err(|_| PanelError::NotFound)?;
    found.push((field.to_owned(), format!("Cadastrada: {}", c.data.name)));
    Ok(Some(c))
}

/// The body of the API operation `pattern` (a POST) from a task's fields, named as the API
/// names them and read as its generic form reads them (days, money, choices); the reasons
/// beside the fields otherwise.
fn api_body(
    pattern: &str,
    values: &HashMap<String, String>,
    errors: &mut Vec<(String, String)>,
) -> Option<Value> {
    api_body_rows(pattern, values, 1, errors)
}

/// [`api_body`] with `rows` rows for each list of objects (`passengers.0.name`…).
fn api_body_rows(
    pattern: &str,
    values: &HashMap<String, String>,
    rows: usize,
    errors: &mut Vec<(String, String)>,
) -> Option<Value> {
    let schema = forms::body_schema("post", pattern)?;
    match forms::to_json(schema, values, None, rows) {
        Ok(body) => Some(body),
        Err(e) => {
            errors.extend(e);
            None
        }
    }
}

/// A task opened from a record or from Pendências: `?id=` names the authorization, shown in
/// `field` by its number (the link carries ids, never a CPF).
async fn opened_on_authorization(
    state: &AppState,
    query: &HashMap<String, String>,
    field: &str,
) -> Result<Outcome, PanelError> {
    let mut values = HashMap::new();
    if let Some(id) = query.get("id").and_then(|i| uuid::Uuid::parse_str(i).ok())
        && let Some(a) = state.store.get_authorization(id).await?
    {
        values.insert(field.to_owned(), a.number);
    }
    Ok(Outcome {
        values,
        ..Outcome::default()
    })
}

/// A task opened from a company's record: `?id=` names it, shown by its CNPJ in `cnpj`.
async fn opened_on_company(state: &AppState, query: &HashMap<String, String>) -> Outcome {
    let mut values = HashMap::new();
    if let Some(id) = query.get("id").and_then(|i| uuid::Uuid::parse_str(i).ok())
        && let Ok(c) = crate::issuance::charter::register::company(state, id).await
    {
        values.insert("cnpj".to_owned(), c.cnpj.formatted());
    }
    Outcome {
        values,
        ..Outcome::default()
    }
}

/// A vistoria's result, as a clerk picks it.
fn vistoria_results() -> Vec<(String, String)> {
    vec![
        ("true".to_owned(), "Aprovada".to_owned()),
        ("false".to_owned(), "Reprovada".to_owned()),
    ]
}

/// A yes-or-no choice, "Não" first.
fn yes_no() -> Vec<(String, String)> {
    vec![
        ("false".to_owned(), "Não".to_owned()),
        ("true".to_owned(), "Sim".to_owned()),
    ]
}

/// The authorization a task acts on, named as the clerk has it at hand.
fn authorization_field() -> Field {
    Field::text(
        "autorizacao",
        "Número da autorização, CPF do condutor ou placa",
    )
    .required()
}

/// The infraction and the agent of an auto, as on the inspector's paper: the infraction
/// (`name`) picked from `catalogue` (article and description), the instant, place and facts;
/// then who drew it up and when.
fn auto_sections(name: &str, catalogue: Vec<(String, String)>, inspector: &str) -> [Section; 2] {
    [
        Section::new(
            "Infração",
            None,
            vec![
                Field::select(name, "Infração", catalogue).required(),
                Field::datetime("committed_at", "Cometida em (data e hora)").required(),
                Field::text("place", "Local").required(),
                Field::textarea("facts", "Descrição dos fatos").required(),
            ],
        ),
        Section::new(
            "Agente",
            None,
            vec![
                Field::text("inspector", "Agente autuante")
                    .required()
                    .preset(inspector),
                Field::datetime("drawn_up_at", "Lavrado em (data e hora)")
                    .hint("Em branco: agora. Preencha se o auto foi lavrado antes, em papel."),
            ],
        )
        .columns(2),
    ]
}
