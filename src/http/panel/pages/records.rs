//! Records: any GET of the API read as a record page, with its history and the
//! acts that can follow.

use super::*;

pub struct Row {
    label: String,
    value: String,
    link: Option<String>,
}

pub struct Cell {
    text: String,
    link: Option<String>,
}

pub struct Moment {
    when: String,
    who: String,
    what: String,
    reason: String,
    details: String,
}

pub struct Section {
    heading: String,
    rows: Vec<Row>,
    timeline: Vec<Moment>,
    headers: Vec<String>,
    table: Vec<Vec<Cell>>,
    /// For a list: its JSON key and each row's id, to offer the acts on a row.
    key: String,
    ids: Vec<Option<String>>,
}

#[derive(Template)]
#[template(path = "pages/panel/record.html")]
pub(super) struct RecordPage {
    pub(super) chrome: Option<Chrome>,
    pub(super) title: String,
    pub(super) notice: Option<String>,
    pub(super) actions: Vec<(String, String)>,
    pub(super) sections: Vec<Section>,
}

/// What a person calls the records a page names by id (id → the driver's name, the car's
/// plate and model, the authorization's number).
pub(super) type Names = HashMap<String, String>;

/// The names of the records `json` names by id, read from the register.
pub(super) async fn names_of(state: &AppState, json: &Value) -> Result<Names, PanelError> {
    fn collect(v: &Value, out: &mut Vec<(String, uuid::Uuid)>) {
        match v {
            Value::Object(o) => {
                for (k, v) in o {
                    if let Some(id) = v.as_str().and_then(|s| uuid::Uuid::parse_str(s).ok()) {
                        out.push((k.clone(), id));
                    } else {
                        collect(v, out);
                    }
                }
            }
            Value::Array(a) => a.iter().for_each(|v| collect(v, out)),
            _ => {}
        }
    }
    let mut ids = Vec::new();
    collect(json, &mut ids);
    let mut names = Names::new();
    for (key, id) in ids {
        if names.contains_key(&id.to_string()) || names.len() > 50 {
            continue;
        }
        let name = match key.as_str() {
            "driver_id" => state.store.get_driver(id).await?.map(|d| d.name),
            "vehicle_id" | "new_vehicle_id" | "old_vehicle_id" | "replaced_vehicle_id" => state
                .store
                .get_vehicle(id)
                .await?
                .map(|v| format!("{} · {} {}", v.plate.as_str(), v.make, v.model)),
            "authorization_id" | "renewal_of" | "renewed_by" => state
                .store
                .get_authorization(id)
                .await?
                .map(|a| format!("Autorização {}", a.number)),
            _ => None,
        };
        if let Some(n) = name {
            names.insert(id.to_string(), n);
        }
    }
    Ok(names)
}

/// A value as a person reads it, and where it links.
pub(super) fn show(key: &str, v: &Value, names: &Names) -> (String, Option<String>) {
    match v {
        Value::Null => ("—".into(), None),
        Value::Bool(b) => ((if *b { "Sim" } else { "Não" }).into(), None),
        // An amount in centavos, in reais (`R$ 1.150,00`).
        Value::Number(n) if key == "centavos" || key.ends_with("_centavos") => (
            n.as_i64()
                .map_or_else(|| n.to_string(), crate::domain::money::money),
            None,
        ),
        Value::Number(n) => (n.to_string(), None),
        Value::String(s) => {
            if let Some(tail) = s.strip_prefix("/api/v1/") {
                let text = if tail.contains("documents/") {
                    "Baixar PDF"
                } else {
                    "Abrir"
                };
                return (text.into(), Some(format!("/painel/ver/{tail}")));
            }
            if s.starts_with("http://") || s.starts_with("https://") {
                let text = if key.contains("verification") {
                    "Abrir a página de verificação".to_owned()
                } else {
                    s.clone()
                };
                return (text, Some(s.clone()));
            }
            if let Ok(d) = chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d") {
                return (format::date(d), None);
            }
            if let Ok(t) = chrono::DateTime::parse_from_rfc3339(s) {
                return (format::datetime_local(t.to_utc()), None);
            }
            if uuid::Uuid::parse_str(s).is_ok() {
                // A record named by what a person calls it; an id is for machines.
                let link = id_link(key, s);
                let text = names
                    .get(s)
                    .cloned()
                    .unwrap_or_else(|| if link.is_some() { "Abrir" } else { "—" }.to_owned());
                return (text, link);
            }
            if matches!(
                key,
                "status" | "kind" | "verdict" | "outcome" | "method" | "modality"
            ) || is_code(s)
            {
                return (enum_label(s), None);
            }
            if let Some(known) = known_label(s) {
                return (known.to_owned(), None);
            }
            (s.clone(), None)
        }
        other => (other.to_string(), None),
    }
}

/// A code of the register (`federal_1`, `locadora_pj`): read by its label, never as it is.
fn is_code(s: &str) -> bool {
    s.contains('_')
        && s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Where an id named by `key` opens.
pub(super) fn id_link(key: &str, id: &str) -> Option<String> {
    let path = match key {
        "driver_id" => format!("drivers/{id}"),
        "vehicle_id" | "new_vehicle_id" => format!("vehicles/{id}"),
        "authorization_id" => format!("app-authorizations/{id}"),
        "platform_id" => format!("platforms/{id}"),
        "company_id" => format!("charter/companies/{id}"),
        "auto_id" => format!("app-infraction-autos/{id}"),
        _ => return None,
    };
    Some(format!("/painel/ver/{path}"))
}

pub(super) fn compact(v: &Value, names: &Names) -> String {
    // A deadline: its day and why.
    if let (Some(due), Some(why)) = (v.get("due"), v.get("explanation").and_then(Value::as_str)) {
        return format!("{} — {why}", show("due", due, names).0);
    }
    match v {
        Value::Object(o) => o
            .iter()
            .filter(|(k, v)| !HIDDEN.contains(&k.as_str()) && !is_unnamed_id(v, names))
            .map(|(k, v)| {
                let value = match v {
                    Value::Object(_) | Value::Array(_) => compact(v, names),
                    _ => show(k, v, names).0,
                };
                format!("{}: {value}", record_label(k))
            })
            .collect::<Vec<_>>()
            .join("; "),
        Value::Array(a) => a
            .iter()
            .map(|v| compact(v, names))
            .collect::<Vec<_>>()
            .join(" · "),
        other => show("", other, names).0,
    }
}

/// An id the page cannot name (nothing a person reads).
fn is_unnamed_id(v: &Value, names: &Names) -> bool {
    v.as_str()
        .is_some_and(|s| uuid::Uuid::parse_str(s).is_ok() && !names.contains_key(s))
}

/// The fields a person looks for first, in this order; the rest follow.
const FIRST: &[&str] = &[
    "number",
    "name",
    "plate",
    "status",
    "driver_id",
    "vehicle_id",
    "cpf",
    "cnpj",
    "court",
    "issued_on",
    "valid_from",
    "valid_until",
    "standing",
    "fee_paid_on",
    "granted_at",
];

fn rank(label_key: &str) -> usize {
    FIRST
        .iter()
        .position(|k| *k == label_key)
        .unwrap_or(FIRST.len())
}

/// A field's label on a record page (the forms' hints on what to type dropped).
pub(super) fn record_label(key: &str) -> String {
    let l = label(key);
    match l.split_once(" (") {
        Some((head, hint)) if hint.ends_with("id)") => head.to_owned(),
        _ => l,
    }
}

/// Fields no person reads on a page.
pub(super) const HIDDEN: &[&str] = &["id", "sha256", "token"];

/// A nested list the record also shows apart with more to say (the certificates with their
/// standing): the nested key, and the key of the list shown apart.
const SHOWN_APART: &[(&str, &str)] = &[("criminal_certificates", "certificates")];

/// A JSON record as sections: its fields, its lists as tables, its events as a timeline.
#[expect(clippy::too_many_lines, reason = "one walk over the record's JSON")]
pub(super) fn record_sections(json: &Value, heading: &str, names: &Names) -> Vec<Section> {
    let mut main = Section {
        key: String::new(),
        ids: Vec::new(),
        heading: heading.to_owned(),
        rows: Vec::new(),
        timeline: Vec::new(),
        headers: Vec::new(),
        table: Vec::new(),
    };
    let mut more = Vec::new();
    let Some(obj) = json.as_object() else {
        return vec![main];
    };
    let mut keys: Vec<(&String, &Value)> = obj.iter().collect();
    keys.sort_by_key(|(k, _)| rank(k));
    for (k, v) in keys {
        match v {
            Value::Object(inner) => {
                for (ik, iv) in inner {
                    if SHOWN_APART
                        .iter()
                        .any(|(nested, apart)| ik == nested && obj.contains_key(*apart))
                    {
                        continue;
                    }
                    let (value, link) = match iv {
                        Value::Object(_) | Value::Array(_) => (compact(iv, names), None),
                        _ if is_unnamed_id(iv, names) && id_link(ik, "x").is_none() => continue,
                        _ => show(ik, iv, names),
                    };
                    main.rows.push(Row {
                        label: format!("{} · {}", record_label(k), record_label(ik)),
                        value,
                        link,
                    });
                }
            }
            Value::Array(items) if k == "events" => {
                more.push(Section {
                    key: String::new(),
                    ids: Vec::new(),
                    heading: "Histórico".into(),
                    rows: Vec::new(),
                    timeline: items
                        .iter()
                        .map(|e| {
                            let s =
                                |f: &str| e.get(f).and_then(Value::as_str).unwrap_or("").to_owned();
                            Moment {
                                when: show(
                                    "occurred_at",
                                    e.get("occurred_at").unwrap_or(&Value::Null),
                                    names,
                                )
                                .0,
                                who: s("actor_name"),
                                // The number a rectification names.
                                what: match e.get("id").and_then(Value::as_i64) {
                                    Some(id) => format!("Ato nº {id} · {}", enum_label(&s("kind"))),
                                    None => enum_label(&s("kind")),
                                },
                                reason: s("reason"),
                                details: e
                                    .get("data")
                                    .map(|d| compact(d, names))
                                    .unwrap_or_default(),
                            }
                        })
                        .collect(),
                    headers: Vec::new(),
                    table: Vec::new(),
                });
            }
            Value::Array(items) if items.iter().all(Value::is_object) && !items.is_empty() => {
                let mut headers: Vec<String> = Vec::new();
                for it in items {
                    for key in it.as_object().into_iter().flat_map(|o| o.keys()) {
                        // Ids and digests are for machines; the row links to what it is.
                        if !headers.contains(key) && !HIDDEN.contains(&key.as_str()) {
                            headers.push(key.clone());
                        }
                    }
                }
                headers.sort_by_key(|h| rank(h));
                let table = items
                    .iter()
                    .map(|it| {
                        headers
                            .iter()
                            .map(|h| {
                                let v = it.get(h).unwrap_or(&Value::Null);
                                match v {
                                    // A document in a row: its PDF to download.
                                    Value::Object(o)
                                        if o.get("pdf")
                                            .and_then(Value::as_str)
                                            .is_some_and(|p| p.starts_with("/api/v1/")) =>
                                    {
                                        let (text, link) = show("pdf", &o["pdf"], names);
                                        Cell { text, link }
                                    }
                                    Value::Object(_) | Value::Array(_) => Cell {
                                        text: compact(v, names),
                                        link: None,
                                    },
                                    _ => {
                                        let (text, link) = show(h, v, names);
                                        Cell { text, link }
                                    }
                                }
                            })
                            .collect()
                    })
                    .collect();
                more.push(Section {
                    heading: record_label(k),
                    rows: Vec::new(),
                    timeline: Vec::new(),
                    headers: headers.iter().map(|h| record_label(h)).collect(),
                    table,
                    key: k.clone(),
                    ids: items
                        .iter()
                        .map(|it| it.get("id").and_then(Value::as_str).map(str::to_owned))
                        .collect(),
                });
            }
            Value::Array(items) => main.rows.push(Row {
                label: record_label(k),
                value: if items.is_empty() {
                    "—".into()
                } else {
                    compact(v, names)
                },
                link: None,
            }),
            _ if HIDDEN.contains(&k.as_str()) => {}
            _ if is_unnamed_id(v, names) && id_link(k, "x").is_none() => {}
            _ => {
                let (value, link) = show(k, v, names);
                main.rows.push(Row {
                    label: record_label(k),
                    value,
                    link,
                });
            }
        }
    }
    let mut out = vec![main];
    out.extend(more);
    out
}

/// The acts on one row of a record's list (`/platforms/{id}/regularization-notices/{notice}/…`
/// on each notice of the platform), as a last column of links.
pub(super) fn row_actions(
    s: &Signed,
    get_pattern: &str,
    params: &HashMap<String, String>,
    sections: &mut [Section],
) {
    let base = if get_pattern.starts_with("/api/v1/charter/") {
        "/api/v1/charter"
    } else {
        "/api/v1"
    };
    for section in sections.iter_mut().filter(|x| !x.key.is_empty()) {
        let segment = section.key.replace('_', "-");
        // Each row's own page, when its kind has one (`data_requests` → `data-requests/{id}`).
        let own = format!("{base}/{segment}/{{id}}");
        if section.key != "documents"
            && crate::http::ROUTES
                .iter()
                .any(|(m, p)| *m == "get" && *p == own)
            && s.official.roles.allow(competence("get", &own))
        {
            section.headers.push("Registro".to_owned());
            for (row, id) in section.table.iter_mut().zip(&section.ids) {
                row.push(Cell {
                    text: if id.is_some() {
                        "Abrir".into()
                    } else {
                        String::new()
                    },
                    link: id.as_ref().map(|id| {
                        format!(
                            "/painel/ver/{}",
                            own.trim_start_matches("/api/v1/")
                                .replace("{id}", &urlencode(id))
                        )
                    }),
                });
            }
        }
        let prefix = format!("{get_pattern}/{segment}/{{");
        let ops: Vec<(&str, &str, String)> = crate::http::OPERATION_IDS
            .iter()
            .filter(|(m, p, _)| *m != "get" && p.starts_with(&prefix))
            .filter(|(m, p, _)| s.official.roles.allow(competence(m, p)))
            .filter_map(|(_, p, id)| {
                let name = p[prefix.len()..].split('}').next()?.to_owned();
                Some((*id, op_label(id), name))
            })
            .collect();
        if ops.is_empty() {
            continue;
        }
        section.headers.push("Atos".to_owned());
        for (row, id) in section.table.iter_mut().zip(&section.ids) {
            let Some(id) = id else {
                row.push(Cell {
                    text: String::new(),
                    link: None,
                });
                continue;
            };
            // One cell, one link per act (the template shows one link a cell: the first act,
            // the common case of one act per row).
            let (op, text, name) = &ops[0];
            let mut query: Vec<String> = params
                .iter()
                .map(|(k, v)| format!("{k}={}", urlencode(v)))
                .collect();
            query.push(format!("{name}={}", urlencode(id)));
            row.push(Cell {
                text: (*text).to_owned(),
                link: Some(format!("/painel/acao/{op}?{}", query.join("&"))),
            });
        }
    }
}

/// The acts and readings offered on a record's page: the API's operations under its path,
/// those the official's roles allow.
pub(super) fn record_actions(
    s: &Signed,
    get_pattern: &str,
    params: &HashMap<String, String>,
) -> Vec<(String, String)> {
    let query: String = params
        .iter()
        .map(|(k, v)| format!("{k}={}", urlencode(v)))
        .collect::<Vec<_>>()
        .join("&");
    let mut out = Vec::new();
    for (m, p, id) in crate::http::OPERATION_IDS {
        let Some(rest) = p
            .strip_prefix(get_pattern)
            .and_then(|r| r.strip_prefix('/'))
        else {
            continue;
        };
        if !s.official.roles.allow(competence(m, p)) {
            continue;
        }
        if let Some(href) = params
            .get("id")
            .and_then(|record| super::tasks::guided_task_href(id, record))
        {
            // The guided task, with the authorization, the bus or the company named.
            out.push((href, op_label(id).to_owned()));
        } else if *id == "registry.put_driver_photo" {
            // A file, not a form of fields: its own page (`panel::photo`).
            if let Some(driver) = params.get("id") {
                out.push((format!("/painel/foto/{driver}"), op_label(id).to_owned()));
            }
        } else if *m == "get" {
            if !rest.contains('{')
                && let Some(h) = record_href(p, params)
            {
                out.push((h, op_label(id).to_owned()));
            }
        } else if params_of(p).iter().all(|n| params.contains_key(*n)) || rest.contains('{') {
            out.push((
                format!("/painel/acao/{id}?{query}"),
                op_label(id).to_owned(),
            ));
        }
    }
    out
}

pub(super) async fn view(
    state: web::Data<AppState>,
    req: HttpRequest,
    tail: web::Path<String>,
) -> Page {
    let s = Signed::of(&req, &state).await?;
    let path = format!("/api/v1/{}", tail.trim_start_matches('/'));
    let Some((pattern, params)) = match_get(&path) else {
        return Err(PanelError::NotFound);
    };
    // The query goes along: the API reads some answers' parameters there.
    let target = match req.uri().query() {
        Some(q) => format!("{path}?{q}"),
        None => path.clone(),
    };
    let answer = call(&s, Method::GET, &target, None).await?;
    if answer.status == StatusCode::FORBIDDEN {
        return Err(s.forbidden_by(&answer.json().unwrap_or_default()));
    }
    if answer.status == StatusCode::NOT_FOUND {
        return Err(PanelError::NotFound);
    }
    if answer.is_pdf() && answer.status.is_success() {
        let name = answer
            .file_name
            .clone()
            .unwrap_or_else(|| format!("{}.pdf", tail.rsplit('/').next().unwrap_or("documento")));
        let mut res = HttpResponse::Ok();
        page_headers(&mut res);
        return Ok(res
            .content_type("application/pdf")
            .insert_header((
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ))
            .body(answer.body));
    }
    if !answer.status.is_success() {
        return Err(refused(&answer));
    }
    if !answer.content_type.starts_with("application/json") {
        // A photo, a status list: served as the API serves it.
        let mut res = HttpResponse::build(answer.status);
        page_headers(&mut res);
        return Ok(res.content_type(answer.content_type).body(answer.body));
    }
    let json = answer.json().unwrap_or(Value::Null);
    let title = title_of(pattern, &json);
    let names = names_of(&state, &json).await?;
    let mut sections = record_sections(&json, "Dados", &names);
    // The record's history on its own page, as a timeline.
    let history = format!("{pattern}/history");
    if crate::http::ROUTES
        .iter()
        .any(|(m, p)| *m == "get" && *p == history)
        && let Some(h) = fill_pattern(&history, &params)
    {
        let events = call(&s, Method::GET, &h, None).await?;
        if events.status.is_success()
            && let Some(events) = events.json()
        {
            let mut names = names;
            names.extend(names_of(&state, &events).await?);
            sections.extend(
                record_sections(&events, "Histórico", &names)
                    .into_iter()
                    .skip(1),
            );
        }
    }
    let notice = req
        .uri()
        .query()
        .and_then(|q| q.split('&').find_map(|p| p.strip_prefix("feito=")))
        .map(|op| match op {
            "em_analise" => "Pedido protocolado e enviado à análise de um servidor: nenhum documento é emitido antes da decisão.".to_owned(),
            op => format!("{} — registrado.", op_label(&op.replace("%2E", "."))),
        });
    row_actions(&s, pattern, &params, &mut sections);
    let body = render(&RecordPage {
        chrome: Some(chrome_of(&s)),
        actions: record_actions(&s, pattern, &params),
        sections,
        title,
        notice,
    })?;
    Ok(html(StatusCode::OK, body))
}

/// The page of a refusal of the API: its status, its title and what it said, field by field.
pub(super) fn refused(answer: &crate::http::panel::gateway::Answer) -> PanelError {
    let problem = answer.json().unwrap_or(Value::Null);
    let text = |k: &str| {
        problem
            .get(k)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let mut detail = text("detail");
    for (field, message) in crate::http::panel::problems(&problem) {
        let _ = write!(detail, "\n{field}: {message}");
    }
    let title = match text("title") {
        t if t.is_empty() => "Pedido recusado".to_owned(),
        t => t,
    };
    PanelError::Refused {
        status: answer.status,
        title,
        detail,
    }
}

pub(super) fn title_of(pattern: &str, json: &Value) -> String {
    let s = |k: &str| json.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    let what = match pattern {
        "/api/v1/app-authorizations/{id}" => format!("Autorização {}", s("number")),
        "/api/v1/app-infraction-autos/{id}" | "/api/v1/charter/autos/{id}" => {
            format!("Auto de infração {}", s("number"))
        }
        "/api/v1/platforms/{id}" => format!("Plataforma {}", s("name")),
        "/api/v1/drivers/{id}" => format!("Condutor {}", s("name")),
        "/api/v1/vehicles/{id}" => format!("Veículo {}", s("plate")),
        "/api/v1/charter/companies/{id}" => format!("Empresa {}", s("name")),
        "/api/v1/charter/vehicles/{id}" | "/api/v1/charter/vehicles/by-plate/{plate}" => {
            format!("Veículo de fretamento {}", s("plate"))
        }
        "/api/v1/charter/drivers/{id}" => format!("Motorista {}", s("name")),
        "/api/v1/data-requests/{id}" => "Requisição de dados".to_owned(),
        "/api/v1/app-grant-reviews/{id}" => "Pedido de autorização em análise".to_owned(),
        "/api/v1/app-grant-reviews" => "Pedidos em análise".to_owned(),
        p if p.ends_with("/history") => "Histórico".to_owned(),
        _ => "Registro".to_owned(),
    };
    what.trim().to_owned()
}
