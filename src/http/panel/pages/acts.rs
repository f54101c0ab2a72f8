//! Every act of the API as a form: the form of an operation, the references it
//! resolves (a CPF, a plate) and the submission through the in-process API.

use super::*;

/// Rows each list of a form shows at first (the four criminal certificates of art. 12, III
/// fit); "Mais linhas" adds more.
pub(super) const DEFAULT_ROWS: usize = 4;

/// How many rows each list of a form shows: the form's own field, else the link's query.
pub(super) fn rows_of(values: &HashMap<String, String>) -> usize {
    values
        .get("_linhas")
        .or_else(|| values.get("linhas"))
        .and_then(|r| r.parse::<usize>().ok())
        .filter(|r| (1..=50).contains(r))
        .unwrap_or(DEFAULT_ROWS)
}

/// Operations of the JSON API and their pt-BR names.
pub(super) const OPERATIONS: &[(&str, &str)] = &[
    ("registry.create_driver", "Cadastrar condutor (aplicativo)"),
    ("registry.create_vehicle", "Cadastrar veículo (aplicativo)"),
    (
        "registry.put_driver_photo",
        "Enviar a foto do(a) motorista (para passageiros)",
    ),
    (
        "authorizations.document_print",
        "Arquivo do adesivo para a gráfica",
    ),
    ("authorizations.grant", "Conceder autorização (aplicativo)"),
    ("authorizations.revoke", "Revogar a autorização"),
    ("renewal.renew", "Renovar a autorização para o ano seguinte"),
    ("reviews.pending", "Pedidos em análise (aplicativo)"),
    ("reviews.get", "Pedido em análise"),
    (
        "authorizations.decide_review",
        "Decidir o pedido em análise",
    ),
    (
        "grant_check.check",
        "Conferir um pedido de autorização (sem gravar)",
    ),
    ("authorizations.certidao", "Emitir certidão"),
    (
        "authorizations.substitute_vehicle",
        "Substituir o veículo (art. 8º §2º)",
    ),
    (
        "authorizations.check_substitution",
        "Conferir a substituição do veículo (sem gravar)",
    ),
    ("authorizations.vistoria_summons", "Convocar para vistoria"),
    ("authorizations.vistoria", "Registrar vistoria"),
    (
        "authorizations.check_vistoria",
        "Conferir a vistoria (sem gravar)",
    ),
    ("authorizations.sanction", "Aplicar sanção"),
    ("autos.set_upf", "Valor da UPF do ano"),
    ("autos.create", "Lavrar auto de infração (aplicativo)"),
    (
        "autos.check",
        "Conferir um auto antes de lavrar (sem gravar)",
    ),
    ("autos.act", "Registrar ato do procedimento"),
    (
        "autos.check_act",
        "Conferir um ato do procedimento (sem gravar)",
    ),
    ("autos.notice", "Emitir o auto (PDF)"),
    ("autos.notify", "Registrar a notificação"),
    ("autos.rectify_notification", "Retificar a notificação"),
    (
        "electronic_notice.send",
        "Notificar o auto por meio eletrônico (a quem acompanha o cadastro)",
    ),
    ("electronic_notice.get", "Notificação por meio eletrônico"),
    ("registry.data_change", "Registrar alteração de dados"),
    (
        "registry.driver_register_act",
        "Descadastrar ou recadastrar o condutor",
    ),
    (
        "registry.declare_owner",
        "Declarar a situação do veículo (art. 15)",
    ),
    (
        "registry.vehicle_register_act",
        "Descadastrar ou recadastrar o veículo",
    ),
    (
        "registry.file_record",
        "Juntar certidões e registros do condutor",
    ),
    ("platforms.create", "Cadastrar plataforma"),
    ("platforms.create_notice", "Notificar para regularizar"),
    ("platforms.cure_notice", "Registrar regularização"),
    (
        "platforms.create_data_request",
        "Requisitar dados à plataforma",
    ),
    ("platforms.record_delivery", "Registrar entrega dos dados"),
    (
        "platform_files.list_files",
        "Arquivos recebidos da plataforma",
    ),
    ("platform_files.download", "Arquivo recebido da plataforma"),
    (
        "platform_api.issue_credential",
        "Emitir credencial de acesso da plataforma",
    ),
    (
        "platform_api.revoke_credential",
        "Revogar credencial de acesso da plataforma",
    ),
    (
        "platform_api.notify_vehicle_suspension",
        "Avisar a plataforma para suspender um veículo",
    ),
    (
        "calendar.add_closed_days",
        "Registrar dias sem expediente (decreto)",
    ),
    (
        "legal_bases.activate_ride_hailing",
        "Ativar nova versão da base legal do transporte por aplicativo",
    ),
    (
        "legal_bases.activate_charter",
        "Ativar nova versão da base legal do fretamento",
    ),
    (
        "legal_bases.suspend_ride_hailing",
        "Registrar decisão judicial que suspende ou restabelece dispositivos (aplicativo)",
    ),
    (
        "legal_bases.suspend_charter",
        "Registrar decisão judicial que suspende ou restabelece dispositivos (fretamento)",
    ),
    ("charter.create_company", "Cadastrar empresa de fretamento"),
    (
        "charter.check_company",
        "Conferir o cadastro da empresa (sem gravar)",
    ),
    ("charter.file_checklist", "Juntar documentos do art. 7º"),
    ("charter.grant_termo", "Emitir o Termo de Autorização"),
    (
        "charter.check_termo",
        "Conferir a emissão do Termo (sem gravar)",
    ),
    ("charter.apply_sanction", "Aplicar sanção à empresa"),
    ("charter.create_vehicle", "Cadastrar ônibus ou micro-ônibus"),
    (
        "charter.check_vehicle",
        "Conferir o cadastro do ônibus ou micro-ônibus (sem gravar)",
    ),
    ("charter.create_driver", "Cadastrar motorista"),
    (
        "charter.check_driver",
        "Conferir o cadastro do motorista (sem gravar)",
    ),
    ("charter.create_contract", "Registrar contrato"),
    (
        "charter.check_contract",
        "Conferir o registro do contrato (sem gravar)",
    ),
    (
        "charter.authorize_substitution",
        "Autorizar substituição de veículo",
    ),
    (
        "charter.create_auto",
        "Lavrar auto de infração (fretamento)",
    ),
    (
        "charter.check_auto",
        "Conferir um auto antes de lavrar (fretamento, sem gravar)",
    ),
    ("charter.file_itv", "Juntar laudo de ITV"),
    (
        "charter.file_vehicle_documents",
        "Juntar documentos do veículo",
    ),
    ("charter.record_vistoria", "Registrar vistoria (selo)"),
    ("charter.check_vistoria", "Conferir a vistoria (sem gravar)"),
    ("charter.baixa_vehicle", "Dar baixa no veículo"),
    (
        "charter.file_driver_documents",
        "Juntar documentos do motorista",
    ),
    ("charter.baixa_driver", "Dar baixa no motorista"),
    ("charter.end_contract", "Encerrar contrato"),
    ("charter.file_trip", "Registrar viagem"),
    ("charter.procedure_act", "Registrar ato do procedimento"),
    (
        "charter.check_procedure_act",
        "Conferir um ato do procedimento (sem gravar)",
    ),
    ("charter.issue_notice", "Emitir o auto (PDF)"),
    ("charter.issue_certidao", "Emitir certidão (fretamento)"),
    ("history.driver", "Histórico"),
    ("history.vehicle", "Histórico"),
    ("history.authorization", "Histórico"),
    ("history.auto", "Histórico"),
    ("charter.history", "Histórico"),
];

/// The pt-BR name of an operation of the JSON API.
pub fn op_label(op: &str) -> &'static str {
    OPERATIONS
        .iter()
        .find(|(k, _)| *k == op)
        .map_or("Ato", |(_, v)| *v)
}

pub struct PathInput {
    name: String,
    label: String,
    value: String,
    error: Option<String>,
}

#[derive(Template)]
#[template(path = "pages/panel/form.html")]
pub(super) struct FormPage {
    chrome: Option<Chrome>,
    title: String,
    headline: String,
    back: Option<String>,
    general: Vec<String>,
    failed: bool,
    variants: Option<Variants>,
    variant_href: String,
    action: String,
    csrf: String,
    rows: usize,
    path_inputs: Vec<PathInput>,
    items: Vec<Item>,
    has_rows: bool,
    more_rows_href: String,
    submit: String,
    /// The record the act is on, as a person names it (its path parameters then hidden).
    about: Option<String>,
    /// For an act that cannot be undone: the sentence the official confirms.
    confirm: Option<String>,
}

/// Acts that cannot be undone, and the variants of an act that cannot: they name what they
/// act on and ask for confirmation.
const IRREVERSIBLE: &[(&str, Option<&str>)] = &[
    ("authorizations.revoke", None),
    ("authorizations.sanction", Some("cassacao")),
    ("charter.apply_sanction", Some("cassacao")),
    ("autos.act", Some("inscricao_divida_ativa")),
    ("charter.procedure_act", Some("inscricao_divida_ativa")),
];

/// Whether `op` (with its chosen variant) cannot be undone.
fn irreversible(op: &str, values: &HashMap<String, String>) -> bool {
    let chosen = values
        .get("_variante")
        .or_else(|| values.get("variante"))
        .or_else(|| values.get("kind"))
        .map(String::as_str);
    IRREVERSIBLE
        .iter()
        .any(|(o, v)| *o == op && (v.is_none() || *v == chosen))
}

/// The record an act's path names, as a person names it (`Autorização APP-2026/000001`).
pub(super) async fn about(
    s: &Signed,
    pattern: &str,
    values: &HashMap<String, String>,
) -> Result<Option<String>, PanelError> {
    let mut p = pattern.to_owned();
    while let Some((head, _)) = p.rsplit_once('/') {
        p = head.to_owned();
        if !p.contains('{') {
            return Ok(None);
        }
        if crate::http::ROUTES
            .iter()
            .any(|(m, r)| *m == "get" && *r == p)
        {
            let Some(path) = fill_pattern(&p, values) else {
                return Ok(None);
            };
            let answer = call(s, Method::GET, &path, None).await?;
            if !answer.status.is_success() {
                return Ok(None);
            }
            let json = answer.json().unwrap_or_default();
            let mut title = title_of(&p, &json);
            // Who and what an authorization binds, beside its number.
            if let Some(driver) = json.get("driver_id").and_then(Value::as_str)
                && let Ok(id) = uuid::Uuid::parse_str(driver)
                && let Some(d) = s.app.state.store.get_driver(id).await?
            {
                let _ = write!(title, " — {}", d.name);
            }
            if let Some(vehicle) = json.get("vehicle_id").and_then(Value::as_str)
                && let Ok(id) = uuid::Uuid::parse_str(vehicle)
                && let Some(v) = s.app.state.store.get_vehicle(id).await?
            {
                let _ = write!(title, ", placa {}", v.plate.as_str());
            }
            return Ok(Some(title));
        }
    }
    Ok(None)
}

pub(super) fn path_label(name: &str) -> String {
    match name {
        "id" => "Identificador do registro".into(),
        "notice" => "Identificador do aviso".into(),
        "year" => "Ano".into(),
        other => label(other),
    }
}

/// Where a record of the API (a GET pattern with its parameters) opens in the back office.
pub(super) fn record_href(get_pattern: &str, values: &HashMap<String, String>) -> Option<String> {
    fill_pattern(get_pattern, values)
        .map(|p| format!("/painel/ver/{}", p.trim_start_matches("/api/v1/")))
}

/// The record an operation acts on (`/api/v1/x/{id}/act` → the GET of `/api/v1/x/{id}`).
pub(super) fn parent_record(pattern: &str, values: &HashMap<String, String>) -> Option<String> {
    let mut p = pattern.to_owned();
    while let Some((head, _)) = p.rsplit_once('/') {
        p = head.to_owned();
        if crate::http::ROUTES
            .iter()
            .any(|(m, r)| *m == "get" && *r == p)
            && p.contains('{')
        {
            return record_href(&p, values);
        }
    }
    None
}

/// An infraction catalogue as choices: "art. 26, VI — description".
pub(super) fn infraction_choices<'a>(
    entries: impl Iterator<Item = (&'a String, &'a String, &'a String)>,
) -> Vec<(String, String)> {
    entries
        .map(|(id, article, description)| (id.clone(), format!("{article} — {description}")))
        .collect()
}

pub(super) struct FormState {
    values: HashMap<String, String>,
    errors: Vec<(String, String)>,
    general: Vec<String>,
    headline: String,
    about: Option<String>,
}

/// The infractions of the basis in force, by article and description, never by code.
fn offer_catalogue(s: &Signed, op: &str, items: &mut [forms::Item]) {
    match op {
        "autos.create" | "autos.check" => forms::offer(
            items,
            "infraction_id",
            &infraction_choices(
                s.app
                    .state
                    .ride_hailing_basis()
                    .infractions
                    .iter()
                    .map(|i| (&i.id, &i.article, &i.description)),
            ),
        ),
        "charter.create_auto" | "charter.check_auto" => forms::offer(
            items,
            "infraction",
            &infraction_choices(
                s.app
                    .state
                    .charter_basis()
                    .infractions
                    .iter()
                    .map(|i| (&i.id, &i.article, &i.description)),
            ),
        ),
        _ => {}
    }
}

pub(super) fn form_page(s: &Signed, op: &str, state_: FormState, status: StatusCode) -> Page {
    let (method, pattern) = operation(op).ok_or(PanelError::NotFound)?;
    if method == "get" {
        return Err(PanelError::NotFound);
    }
    s.require(competence(method, pattern))?;
    let values = &state_.values;
    let rows = rows_of(values);
    let chosen = values
        .get("_variante")
        .or_else(|| values.get("variante"))
        .map(String::as_str);
    let (variants, mut items) = forms::body_schema(method, pattern)
        .map_or((None, Vec::new()), |schema| {
            forms::build(schema, chosen, rows)
        });
    offer_catalogue(s, op, &mut items);
    forms::fill(&mut items, values);
    let mut general = state_.general;
    general.extend(forms::mark_errors(&mut items, &state_.errors));
    let path_inputs: Vec<PathInput> = params_of(pattern)
        .into_iter()
        .map(|n| PathInput {
            name: n.to_owned(),
            label: path_label(n),
            value: values.get(n).cloned().unwrap_or_default(),
            error: state_
                .errors
                .iter()
                .find(|(f, _)| f == n)
                .map(|(_, m)| m.clone()),
        })
        .collect();
    let keep: String = params_of(pattern)
        .iter()
        .filter_map(|n| values.get(*n).map(|v| format!("&{n}={}", urlencode(v))))
        .collect();
    let base = format!("/painel/acao/{op}?linhas={rows}{keep}");
    let has_rows = items
        .iter()
        .any(|i| matches!(i, Item::Open { legend } if legend.contains("— linha")));
    let failed = !state_.errors.is_empty() || !general.is_empty();
    let confirm = irreversible(op, values).then(|| {
        format!(
            "Confirmo: {}{}. Este ato não pode ser desfeito.",
            op_label(op).to_lowercase(),
            state_
                .about
                .as_ref()
                .map(|a| format!(" — {a}"))
                .unwrap_or_default()
        )
    });
    let confirm_error = state_.errors.iter().any(|(f, _)| f == CONFIRM_FIELD);
    if confirm_error {
        general.push("Marque a confirmação para registrar este ato.".into());
    }
    let body = render(&FormPage {
        chrome: Some(chrome_of(s)),
        title: op_label(op).to_owned(),
        headline: state_.headline,
        back: parent_record(pattern, values),
        failed,
        general,
        variant_href: base.clone(),
        more_rows_href: format!(
            "/painel/acao/{op}?linhas={}{keep}{}",
            rows + 2,
            chosen.map(|c| format!("&variante={c}")).unwrap_or_default()
        ),
        variants,
        action: format!(
            "/painel/acao/{op}?linhas={rows}{keep}{}",
            chosen.map(|c| format!("&variante={c}")).unwrap_or_default()
        ),
        csrf: s.session.csrf_token.clone(),
        rows,
        path_inputs,
        items,
        has_rows,
        submit: if confirm.is_some() {
            op_label(op).to_owned()
        } else {
            "Registrar".to_owned()
        },
        confirm,
        about: state_.about,
    })?;
    Ok(html(status, body))
}

pub(super) async fn op_form(
    state: web::Data<AppState>,
    req: HttpRequest,
    op: web::Path<String>,
    query: web::Query<HashMap<String, String>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    let mut values = query.into_inner();
    present_references(&state, &mut values).await?;
    // An auto is drawn up by the inspector who is signed in, unless the form says otherwise.
    if matches!(op.as_str(), "autos.create" | "charter.create_auto") {
        values
            .entry("inspector".to_owned())
            .or_insert_with(|| s.official.name.clone());
    }
    let about = match operation(&op) {
        Some((_, pattern)) => about(&s, pattern, &values).await?,
        None => None,
    };
    form_page(
        &s,
        &op,
        FormState {
            values,
            errors: Vec::new(),
            general: Vec::new(),
            headline: String::new(),
            about,
        },
        StatusCode::OK,
    )
}

/// The checkbox an irreversible act is confirmed with.
const CONFIRM_FIELD: &str = "_confirmo";

/// A link's ids shown as a clerk types them — the driver's CPF, the car's plate, the
/// authorization's number — so a prefilled form reads like the papers; the submission resolves
/// them back ([`resolve_references`]). The ids stay in the link, which carries no CPF.
pub(super) async fn present_references(
    state: &AppState,
    values: &mut HashMap<String, String>,
) -> Result<(), PanelError> {
    for (field, value) in values.iter_mut() {
        let Ok(id) = uuid::Uuid::parse_str(value.trim()) else {
            continue;
        };
        let shown = match field.as_str() {
            "driver_id" => state.store.get_driver(id).await?.map(|d| d.cpf.formatted()),
            "vehicle_id" | "new_vehicle_id" => state
                .store
                .get_vehicle(id)
                .await?
                .map(|v| v.plate.as_str().to_owned()),
            "replaced_vehicle_id" | "substitute_vehicle_id" => {
                crate::standing::charter::load_vehicle(&state.store, id)
                    .await?
                    .map(|v| v.plate.as_str().to_owned())
            }
            "authorization_id" => state.store.get_authorization(id).await?.map(|a| a.number),
            _ => None,
        };
        if let Some(shown) = shown {
            *value = shown;
        }
    }
    Ok(())
}

/// `driver_id` typed as a CPF, `vehicle_id` as a plate: the ids the API expects.
pub(super) async fn resolve_references(
    state: &AppState,
    values: &mut HashMap<String, String>,
    errors: &mut Vec<(String, String)>,
) -> Result<(), PanelError> {
    for (field, kinds) in [
        ("driver_id", &["driver"][..]),
        ("vehicle_id", &["vehicle"][..]),
        ("new_vehicle_id", &["vehicle"][..]),
        ("replaced_vehicle_id", &["charter_vehicle"][..]),
        ("substitute_vehicle_id", &["charter_vehicle"][..]),
        ("authorization_id", &["authorization"][..]),
    ] {
        let Some(v) = values.get(field).map(|v| v.trim().to_owned()) else {
            continue;
        };
        if v.is_empty() || uuid::Uuid::parse_str(&v).is_ok() {
            continue;
        }
        let hits = state.store.search(&v).await?;
        let found: Vec<_> = hits
            .iter()
            .filter(|h| kinds.contains(&h.kind.as_str()))
            .collect();
        match found.as_slice() {
            [one] => {
                values.insert(field.to_owned(), one.id.clone());
            }
            [] => errors.push((field.to_owned(), format!("Nada encontrado para “{v}”."))),
            _ => errors.push((
                field.to_owned(),
                format!("“{v}” corresponde a mais de um registro; informe o identificador."),
            )),
        }
    }
    Ok(())
}

#[expect(
    clippy::too_many_lines,
    reason = "one form's whole round trip, read top to bottom"
)]
pub(super) async fn op_submit(
    state: web::Data<AppState>,
    req: HttpRequest,
    op: web::Path<String>,
    query: web::Query<HashMap<String, String>>,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    // What the form sent wins over the query of its action (the path parameters are both).
    let mut sent: HashMap<String, String> = HashMap::new();
    for (k, v) in form.into_inner() {
        sent.entry(k)
            .and_modify(|old| {
                old.push('\n');
                old.push_str(&v);
            })
            .or_insert(v);
    }
    let mut values: HashMap<String, String> = query.into_inner();
    values.extend(sent);
    s.check_csrf(&values)?;
    let (method, pattern) = operation(&op).ok_or(PanelError::NotFound)?;
    if method == "get" {
        return Err(PanelError::NotFound);
    }
    s.require(competence(method, pattern))?;
    let shown = values.clone();
    let mut errors = Vec::new();
    if irreversible(&op, &values) && values.get(CONFIRM_FIELD).map(String::as_str) != Some("sim") {
        errors.push((CONFIRM_FIELD.to_owned(), "Confirme o ato.".to_owned()));
    }
    let about_record = about(&s, pattern, &values).await?;
    resolve_references(&state, &mut values, &mut errors).await?;
    let rows = rows_of(&values);
    let body = match forms::body_schema(method, pattern) {
        Some(schema) => match forms::to_json(
            schema,
            &values,
            values.get("_variante").map(String::as_str),
            rows,
        ) {
            Ok(b) => Some(b),
            Err(e) => {
                errors.extend(e);
                None
            }
        },
        None => None,
    };
    let path = fill_pattern(pattern, &values);
    if path.is_none() {
        for n in params_of(pattern) {
            if values.get(n).is_none_or(|v| v.trim().is_empty()) {
                errors.push((n.to_owned(), "Campo obrigatório.".into()));
            }
        }
    }
    let refuse = |errors: Vec<(String, String)>, general: Vec<String>, headline: &str, status| {
        form_page(
            &s,
            &op,
            FormState {
                values: shown.clone(),
                errors,
                general,
                headline: headline.to_owned(),
                about: about_record.clone(),
            },
            status,
        )
    };
    let Some(path) = path.filter(|_| errors.is_empty()) else {
        return refuse(
            errors,
            Vec::new(),
            "Confira os campos.",
            StatusCode::UNPROCESSABLE_ENTITY,
        );
    };
    let method = if method == "put" {
        Method::PUT
    } else {
        Method::POST
    };
    let answer = call(&s, method, &path, body.as_ref()).await?;
    if answer.status.is_success() {
        return done(&s, &op, pattern, &values, &answer);
    }
    let problem = answer.json().unwrap_or_default();
    let detail = problem
        .get("detail")
        .and_then(Value::as_str)
        .unwrap_or("O pedido foi recusado.")
        .to_owned();
    match answer.status {
        StatusCode::FORBIDDEN => Err(s.forbidden_by(&problem)),
        StatusCode::NOT_FOUND => refuse(
            vec![("id".to_owned(), detail.clone())],
            vec![detail],
            "Registro não encontrado.",
            StatusCode::NOT_FOUND,
        ),
        status => {
            let items = problems(&problem);
            let general = if items.is_empty() {
                vec![detail.clone()]
            } else {
                Vec::new()
            };
            let headline = if problem.get("type").and_then(Value::as_str)
                == Some("/problems/legal-requirements")
            {
                "Requisitos legais não atendidos; nada foi gravado."
            } else {
                "O pedido foi recusado; nada foi gravado."
            };
            let status = if status.is_client_error() {
                status
            } else {
                StatusCode::BAD_GATEWAY
            };
            refuse(items, general, headline, status)
        }
    }
}

/// A grant or a renewal the API filed for an official's review (202): the filing's page.
pub(super) fn filed_for_review(
    answer: &crate::http::panel::gateway::Answer,
) -> Option<HttpResponse> {
    if answer.status != StatusCode::ACCEPTED {
        return None;
    }
    let json = answer.json()?;
    let id = json.get("id").and_then(Value::as_str)?;
    Some(redirect(&format!(
        "/painel/ver/app-grant-reviews/{}?feito=em_analise",
        urlencode(id)
    )))
}

/// After an act: the record it created or acted on, with the answer shown.
pub(super) fn done(
    s: &Signed,
    op: &str,
    pattern: &str,
    values: &HashMap<String, String>,
    answer: &crate::http::panel::gateway::Answer,
) -> Page {
    if let Some(to) = filed_for_review(answer) {
        return Ok(to);
    }
    let json = answer.json().unwrap_or(Value::Null);
    // A decision on a filing: the authorization it granted, or the filing refused.
    if op == "authorizations.decide_review"
        && let Some(id) = json.get("id").and_then(Value::as_str)
    {
        let record = if answer.status == StatusCode::CREATED {
            "app-authorizations"
        } else {
            "app-grant-reviews"
        };
        return Ok(redirect(&format!(
            "/painel/ver/{record}/{}?feito={}",
            urlencode(id),
            urlencode(op)
        )));
    }
    // A new record with its own page: open it.
    if let Some(id) = json.get("id").and_then(Value::as_str) {
        // The record's own page: under the collection, its history, or the same kind of
        // record at the top of its law's paths (`companies/{id}/vehicles` → `vehicles/{id}`).
        let own = format!("{pattern}/{{id}}");
        let history = format!("{pattern}/{{id}}/history");
        let base = if pattern.starts_with("/api/v1/charter/") {
            "/api/v1/charter"
        } else {
            "/api/v1"
        };
        let top = format!(
            "{base}/{}/{{id}}",
            pattern.rsplit('/').next().unwrap_or_default()
        );
        let get = [own, history, top].into_iter().find(|g| {
            crate::http::ROUTES
                .iter()
                .any(|(m, p)| *m == "get" && p == g)
        });
        if let Some(get) = get {
            let mut v = values.clone();
            v.insert("id".into(), id.to_owned());
            if let Some(href) = record_href(&get, &v) {
                return Ok(redirect(&format!("{href}?feito={}", urlencode(op))));
            }
        }
    }
    let mut sections = Vec::new();
    if json.is_object() {
        sections = record_sections(&json, "Resultado", &Names::new());
    }
    let body = render(&RecordPage {
        chrome: Some(chrome_of(s)),
        title: op_label(op).to_owned(),
        notice: Some("Registrado.".to_owned()),
        actions: parent_record(pattern, values)
            .map(|h| vec![(h, "Voltar ao registro".to_owned())])
            .unwrap_or_default(),
        sections,
    })?;
    Ok(html(StatusCode::OK, body))
}

pub(super) fn redirect(to: &str) -> HttpResponse {
    let mut res = HttpResponse::SeeOther();
    res.insert_header((header::LOCATION, to.to_owned()));
    page_headers(&mut res);
    res.finish()
}
