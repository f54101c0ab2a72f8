//! Forms of the back office, generated from the OpenAPI document: every operation of the JSON
//! API is a form whose fields are its request body's schema, labelled in pt-BR, and whose
//! submission becomes the same JSON body an API client would send.

use std::collections::HashMap;
use std::sync::OnceLock;

use chrono::Datelike as _;
use serde_json::{Map, Value, json};

use super::labels::{enum_label, label};

/// The OpenAPI document as JSON, parsed once.
pub fn document() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(|| serde_json::from_str(crate::http::openapi::document()).unwrap_or_default())
}

fn resolve(schema: &Value) -> &Value {
    let mut s = schema;
    for _ in 0..8 {
        let Some(r) = s.get("$ref").and_then(Value::as_str) else {
            break;
        };
        let name = r.rsplit('/').next().unwrap_or_default();
        match document().pointer(&format!("/components/schemas/{name}")) {
            Some(next) => s = next,
            None => break,
        }
    }
    s
}

/// The request body schema of an operation, if it takes a JSON body.
pub fn body_schema(method: &str, pattern: &str) -> Option<&'static Value> {
    let op = document().get("paths")?.get(pattern)?.get(method)?;
    op.pointer("/requestBody/content/application~1json/schema")
}

/// One line of a generated form.
#[derive(Debug, Clone)]
pub enum Item {
    Open { legend: String },
    Close,
    Input(Input),
}

/// How a value is typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    LongText,
    Date,
    DateTime,
    Integer,
    Number,
    Bool,
    Choice,
    /// One value per line (an array of strings).
    Lines,
}

#[derive(Debug, Clone)]
pub struct Input {
    /// The form field's name: the JSON path, dotted (`cnh.number`, `passengers.0.cpf`).
    pub name: String,
    pub label: String,
    pub kind: Kind,
    pub required: bool,
    pub options: Vec<(String, String)>,
    pub value: String,
    pub error: Option<String>,
}

impl Input {
    pub fn html_type(&self) -> &'static str {
        match self.kind {
            Kind::Date => "date",
            Kind::DateTime => "datetime-local",
            Kind::Integer | Kind::Number => "number",
            _ => "text",
        }
    }
    pub fn is_select(&self) -> bool {
        matches!(self.kind, Kind::Choice | Kind::Bool)
    }
    pub fn is_textarea(&self) -> bool {
        matches!(self.kind, Kind::Lines | Kind::LongText)
    }
    pub fn step(&self) -> &'static str {
        if self.kind == Kind::Number {
            "any"
        } else {
            "1"
        }
    }
}

/// A discriminated union (`act`: one object per kind of act): the variants and the chosen one.
pub struct Variants {
    pub key: String,
    pub options: Vec<(String, String)>,
    pub chosen: String,
}

/// The variants of a `oneOf` of objects told apart by one constant property; of an `allOf`
/// with one such part (an act beside its `rectifies`), each variant with the other parts.
fn variants(schema: &Value) -> Option<(String, Vec<(String, Value)>)> {
    if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
        let (i, (key, vs)) = parts
            .iter()
            .enumerate()
            .find_map(|(i, p)| Some((i, variants(resolve(p))?)))?;
        let rest: Vec<&Value> = parts
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, p)| p)
            .collect();
        let merged = vs
            .into_iter()
            .map(|(tag, v)| {
                let mut all = vec![v];
                all.extend(rest.iter().map(|p| (*p).clone()));
                (tag, json!({ "allOf": all }))
            })
            .collect();
        return Some((key, merged));
    }
    let one_of = schema.get("oneOf")?.as_array()?;
    if one_of
        .iter()
        .any(|s| resolve(s).get("type") == Some(&json!("null")))
    {
        return None;
    }
    let first = resolve(one_of.first()?);
    let key = first
        .get("properties")?
        .as_object()?
        .iter()
        .find(|(_, p)| {
            p.get("enum")
                .and_then(Value::as_array)
                .is_some_and(|e| e.len() == 1)
        })?
        .0
        .clone();
    let mut out = Vec::new();
    for v in one_of {
        let v = resolve(v);
        let tag = v
            .pointer(&format!("/properties/{key}/enum/0"))?
            .as_str()?
            .to_owned();
        out.push((tag, v.clone()));
    }
    Some((key, out))
}

/// The form of an operation's body schema. `chosen` picks a variant of a discriminated body;
/// `rows` is how many rows each list of objects shows.
pub fn build(schema: &Value, chosen: Option<&str>, rows: usize) -> (Option<Variants>, Vec<Item>) {
    let schema = resolve(schema);
    if let Some((key, vs)) = variants(schema) {
        let chosen = chosen
            .filter(|c| vs.iter().any(|(t, _)| t == c))
            .map_or_else(|| vs[0].0.clone(), str::to_owned);
        let body = vs
            .iter()
            .find(|(t, _)| *t == chosen)
            .map_or(&Value::Null, |(_, s)| s);
        let mut items = Vec::new();
        object(body, "", &[key.as_str()], rows, true, &mut items);
        let options = vs.iter().map(|(t, _)| (t.clone(), enum_label(t))).collect();
        return (
            Some(Variants {
                key,
                options,
                chosen,
            }),
            items,
        );
    }
    let mut items = Vec::new();
    object(schema, "", &[], rows, true, &mut items);
    (None, items)
}

/// Properties and required names of an object schema, `allOf` merged.
fn properties(schema: &Value) -> (Vec<(String, Value)>, Vec<String>) {
    let s = resolve(schema);
    let mut props = Vec::new();
    let mut required = Vec::new();
    if let Some(parts) = s.get("allOf").and_then(Value::as_array) {
        // The part with required fields (name, CPF…) first, the optional record after.
        let mut parts: Vec<&Value> = parts.iter().collect();
        parts.sort_by_key(|p| {
            resolve(p)
                .get("required")
                .and_then(Value::as_array)
                .is_none_or(Vec::is_empty)
        });
        for p in parts {
            let (pp, rr) = properties(p);
            props.extend(pp);
            required.extend(rr);
        }
    }
    if let Some(obj) = s.get("properties").and_then(Value::as_object) {
        props.extend(obj.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    if let Some(r) = s.get("required").and_then(Value::as_array) {
        required.extend(r.iter().filter_map(Value::as_str).map(str::to_owned));
    }
    (props, required)
}

/// `(inner, optional)`: the schema of a nullable field without its `null`.
fn unwrap_nullable(schema: &Value) -> (Value, bool) {
    let s = resolve(schema);
    if let Some(one) = s.get("oneOf").and_then(Value::as_array)
        && one.len() == 2
        && let Some(other) = one.iter().find(|x| x.get("type") != Some(&json!("null")))
        && one.iter().any(|x| x.get("type") == Some(&json!("null")))
    {
        return (resolve(other).clone(), true);
    }
    if let Some(types) = s.get("type").and_then(Value::as_array) {
        let t: Vec<&Value> = types.iter().filter(|t| *t != "null").collect();
        if t.len() == 1 {
            let mut inner = s.clone();
            inner["type"] = t[0].clone();
            return (inner, true);
        }
    }
    (s.clone(), false)
}

/// Whether a schema is an object whose fields become a group of the form.
fn is_object(s: &Value) -> bool {
    s.get("type").and_then(Value::as_str) == Some("object")
        || s.get("properties").is_some()
        || s.get("allOf").is_some()
}

fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_owned()
    } else {
        format!("{prefix}.{name}")
    }
}

/// `within_required`: whether the object itself must be filled (a row of a list or an optional
/// group is not, so its fields are not marked required in the browser).
fn object(
    schema: &Value,
    prefix: &str,
    skip: &[&str],
    rows: usize,
    within_required: bool,
    out: &mut Vec<Item>,
) {
    let (props, required) = properties(schema);
    for (name, prop) in props {
        if skip.contains(&name.as_str()) {
            continue;
        }
        let path = join(prefix, &name);
        let (inner, nullable) = unwrap_nullable(&prop);
        let required = within_required && required.contains(&name) && !nullable;
        field(&name, &path, &inner, required, rows, out);
    }
}

fn field(name: &str, path: &str, s: &Value, required: bool, rows: usize, out: &mut Vec<Item>) {
    let ty = s.get("type").and_then(Value::as_str).unwrap_or("");
    if is_object(s) {
        out.push(Item::Open {
            legend: label(name),
        });
        object(s, path, &[], rows, required, out);
        out.push(Item::Close);
        return;
    }
    if ty == "array" {
        let items = resolve(s.get("items").unwrap_or(&Value::Null)).clone();
        if is_object(&items) {
            for i in 0..rows {
                out.push(Item::Open {
                    legend: format!("{} — linha {}", label(name), i + 1),
                });
                object(&items, &format!("{path}.{i}"), &[], rows, false, out);
                out.push(Item::Close);
            }
        } else {
            out.push(Item::Input(Input {
                name: path.to_owned(),
                label: format!("{} (um por linha)", label(name)),
                kind: Kind::Lines,
                required: false,
                options: Vec::new(),
                value: String::new(),
                error: None,
            }));
        }
        return;
    }
    let (kind, options) = if let Some(e) = s.get("enum").and_then(Value::as_array) {
        let opts = e
            .iter()
            .filter_map(Value::as_str)
            .map(|v| (v.to_owned(), enum_label(v)))
            .collect();
        (Kind::Choice, opts)
    } else {
        match (ty, s.get("format").and_then(Value::as_str)) {
            ("string", Some("date")) => (Kind::Date, Vec::new()),
            ("string", _) if is_date_name(name) => (Kind::Date, Vec::new()),
            ("string", Some("date-time")) => (Kind::DateTime, Vec::new()),
            // Money: typed in reais as on paper (`1.150,00`).
            ("integer", _) if is_money_name(name) => (Kind::Text, Vec::new()),
            ("integer", _) => (Kind::Integer, Vec::new()),
            ("number", _) => (Kind::Number, Vec::new()),
            ("boolean", _) => (
                Kind::Bool,
                vec![
                    ("true".into(), "Sim".into()),
                    ("false".into(), "Não".into()),
                ],
            ),
            _ if long_text(name) => (Kind::LongText, Vec::new()),
            _ => (Kind::Text, Vec::new()),
        }
    };
    out.push(Item::Input(Input {
        name: path.to_owned(),
        // Money is typed in reais: the label says so (records show the amount with its R$).
        label: if is_money_name(name) {
            format!("{} (R$)", label(name))
        } else {
            label(name)
        },
        kind,
        required,
        options,
        value: String::new(),
        error: None,
    }));
}

/// A field that holds a day, by its name (`fee_paid_on`, `first_license_date`, `valid_until`…),
/// for the API's fields typed as plain strings.
fn is_date_name(name: &str) -> bool {
    ["_on", "_date", "_until", "_from", "_since"]
        .iter()
        .any(|end| name.ends_with(end))
}

/// Makes the field `name` a choice among `options` (values the schema cannot list, such as
/// the infractions of the legal basis in force).
pub fn offer(items: &mut [Item], name: &str, options: &[(String, String)]) {
    for item in items {
        if let Item::Input(input) = item
            && input.name == name
        {
            input.kind = Kind::Choice;
            input.options = options.to_vec();
        }
    }
}

/// A field of the API that holds an amount in centavos (`amount_centavos`, `centavos`).
fn is_money_name(name: &str) -> bool {
    name == "centavos" || name.ends_with("_centavos")
}

/// An amount in reais as a clerk types it — `1.150,00`, `R$ 1.150,00`, `1150,5`, `1150` —
/// in centavos (`115000`); `None` for anything else. A point followed by three digits
/// separates thousands (`1.150` is R$ 1.150,00); a comma, the centavos.
pub(super) fn api_centavos(raw: &str) -> Option<i64> {
    let s: String = raw
        .trim()
        .trim_start_matches("R$")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let (reais, cents) = match s.rsplit_once(',') {
        Some((r, c)) => (r.to_owned(), c.to_owned()),
        None => match s.rsplit_once('.') {
            // `1150.50`: a decimal point, as a calculator writes it.
            Some((r, c)) if !r.contains('.') && (1..=2).contains(&c.len()) => {
                (r.to_owned(), c.to_owned())
            }
            _ => (s.clone(), String::new()),
        },
    };
    // Thousands: groups of three after the first.
    let mut groups = reais.split('.');
    let first = groups.next()?;
    let rest: Vec<&str> = groups.collect();
    if first.is_empty()
        || first.len() > 3 && !rest.is_empty()
        || rest.iter().any(|g| g.len() != 3)
        || cents.len() > 2
    {
        return None;
    }
    let digits = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit());
    let whole: String = std::iter::once(first).chain(rest).collect();
    if !digits(&whole) || !(cents.is_empty() || digits(&cents)) || s.contains(",.") {
        return None;
    }
    let reais: i64 = whole.parse().ok()?;
    let cents: i64 = match cents.len() {
        0 => 0,
        1 => cents.parse::<i64>().ok()? * 10,
        _ => cents.parse().ok()?,
    };
    reais.checked_mul(100)?.checked_add(cents)
}

/// A day as a clerk types it, `15/03/2030` (or `15/3/2030`), as the API takes it
/// (`2030-03-15`); an ISO day passes as it is; `None` for anything else.
pub(super) fn api_date(raw: &str) -> Option<String> {
    if chrono::NaiveDate::parse_from_str(raw, "%Y-%m-%d").is_ok() {
        return Some(raw.to_owned());
    }
    chrono::NaiveDate::parse_from_str(raw, "%d/%m/%Y")
        .ok()
        .filter(|d| raw.rsplit('/').next().is_some_and(|y| y.len() == 4) && d.year() >= 1900)
        .map(|d| d.format("%Y-%m-%d").to_string())
}

/// An instant typed as `30/11/2026 10:00` (or `… às 10:00`), or as a browser's
/// `2026-11-30T10:00`: the local time the API reads (`2026-11-30T10:00`); `None` when it is
/// neither.
pub(super) fn api_local_datetime(raw: &str) -> Option<String> {
    if raw.len() == 16 && chrono::NaiveDateTime::parse_from_str(raw, "%Y-%m-%dT%H:%M").is_ok() {
        return Some(raw.to_owned());
    }
    let mut parts = raw.split_whitespace().filter(|p| *p != "às");
    let day = api_date(parts.next()?)?;
    let time = chrono::NaiveTime::parse_from_str(parts.next()?, "%H:%M").ok()?;
    if parts.next().is_some() {
        return None;
    }
    Some(format!("{day}T{}", time.format("%H:%M")))
}

fn long_text(name: &str) -> bool {
    matches!(
        name,
        "facts"
            | "basis"
            | "reason"
            | "justification"
            | "scope"
            | "description"
            | "notes"
            | "decision"
            | "itinerary"
            | "what"
    )
}

/// Puts the submitted (or prefilled) values into the form.
pub fn fill<S: std::hash::BuildHasher>(items: &mut [Item], values: &HashMap<String, String, S>) {
    for item in items {
        if let Item::Input(i) = item
            && let Some(v) = values.get(&i.name)
        {
            i.value.clone_from(v);
        }
    }
}

/// Marks the fields the answer's problem names; answers the messages no field took (with the
/// field's label when the problem names one outside the form).
pub fn mark_errors(items: &mut [Item], problems: &[(String, String)]) -> Vec<String> {
    let mut rest = Vec::new();
    for (field, message) in problems {
        let normal = normalize(field);
        let first = normal.split('.').next().unwrap_or_default();
        // A requirement about the driver's record or the car goes beside the field that
        // names the driver or the car.
        let owner = match first {
            "cnh" | "criminal_certificates" | "traffic_infractions" | "ctb306" | "driver" => {
                "driver_id".to_owned()
            }
            other => format!("{other}_id"),
        };
        let target = [normal.clone(), owner];
        let hit = items.iter_mut().find_map(|it| match it {
            Item::Input(i) if target.contains(&i.name) => Some(i),
            _ => None,
        });
        match hit {
            Some(i) => {
                i.error = Some(match i.error.take() {
                    Some(prev) => format!("{prev} · {message}"),
                    None => message.clone(),
                });
            }
            None if field.is_empty() || field == "body" => rest.push(message.clone()),
            None => rest.push(format!("{}: {message}", label(first))),
        }
    }
    rest
}

/// `passengers[0].cpf` → `passengers.0.cpf`.
fn normalize(field: &str) -> String {
    field.replace('[', ".").replace(']', "")
}

/// The JSON body of a submitted form; `Err` lists (field, message) of what the form itself
/// refuses (a required field left empty, a number that is not one).
pub fn to_json<S: std::hash::BuildHasher>(
    schema: &Value,
    values: &HashMap<String, String, S>,
    chosen: Option<&str>,
    rows: usize,
) -> Result<Value, Vec<(String, String)>> {
    let schema = resolve(schema);
    let mut errors = Vec::new();
    let body = if let Some((key, vs)) = variants(schema) {
        let chosen = chosen.unwrap_or(&vs[0].0);
        let v = vs
            .iter()
            .find(|(t, _)| t == chosen)
            .map_or(&Value::Null, |(_, s)| s);
        let mut obj = object_json(v, "", values, rows, &mut errors, &[key.as_str()]);
        obj.insert(key, Value::String(chosen.to_owned()));
        Value::Object(obj)
    } else {
        Value::Object(object_json(schema, "", values, rows, &mut errors, &[]))
    };
    if errors.is_empty() {
        Ok(body)
    } else {
        Err(errors)
    }
}

fn any_value<S: std::hash::BuildHasher>(prefix: &str, values: &HashMap<String, String, S>) -> bool {
    values
        .iter()
        .any(|(k, v)| k.starts_with(&format!("{prefix}.")) && !v.trim().is_empty())
}

#[expect(
    clippy::too_many_lines,
    reason = "one reader per JSON type, in the order the schema gives them"
)]
fn object_json<S: std::hash::BuildHasher>(
    schema: &Value,
    prefix: &str,
    values: &HashMap<String, String, S>,
    rows: usize,
    errors: &mut Vec<(String, String)>,
    skip: &[&str],
) -> Map<String, Value> {
    let (props, required) = properties(schema);
    let mut obj = Map::new();
    for (name, prop) in props {
        if skip.contains(&name.as_str()) {
            continue;
        }
        let path = join(prefix, &name);
        let (inner, nullable) = unwrap_nullable(&prop);
        let required = required.contains(&name) && !nullable;
        let ty = inner.get("type").and_then(Value::as_str).unwrap_or("");
        if is_object(&inner) {
            if required || any_value(&path, values) {
                obj.insert(
                    name,
                    Value::Object(object_json(&inner, &path, values, rows, errors, &[])),
                );
            }
            continue;
        }
        if ty == "array" {
            let items = resolve(inner.get("items").unwrap_or(&Value::Null)).clone();
            if is_object(&items) {
                let list: Vec<Value> = (0..rows)
                    .filter(|i| any_value(&format!("{path}.{i}"), values))
                    .map(|i| {
                        Value::Object(object_json(
                            &items,
                            &format!("{path}.{i}"),
                            values,
                            rows,
                            errors,
                            &[],
                        ))
                    })
                    .collect();
                if required || !list.is_empty() {
                    obj.insert(name, Value::Array(list));
                }
            } else {
                let list: Vec<Value> = values
                    .get(&path)
                    .map(|v| {
                        v.lines()
                            .map(str::trim)
                            .filter(|l| !l.is_empty())
                            .map(|l| Value::String(l.to_owned()))
                            .collect()
                    })
                    .unwrap_or_default();
                if required || !list.is_empty() {
                    obj.insert(name, Value::Array(list));
                }
            }
            continue;
        }
        let raw = values.get(&path).map_or("", |v| v.trim());
        if raw.is_empty() {
            if required {
                errors.push((path, "Campo obrigatório.".into()));
            }
            continue;
        }
        let value = match (ty, inner.get("format").and_then(Value::as_str)) {
            ("integer", _) if is_money_name(&name) => {
                let Some(centavos) = api_centavos(raw) else {
                    errors.push((path, "Valor inválido; use reais, como 1.150,00.".into()));
                    continue;
                };
                Some(Value::from(centavos))
            }
            ("integer", _) => raw.parse::<i64>().map(Value::from).ok(),
            ("number", _) => raw
                .replace(',', ".")
                .parse::<f64>()
                .ok()
                .and_then(|n| serde_json::Number::from_f64(n).map(Value::Number)),
            ("boolean", _) => match raw {
                "true" => Some(Value::Bool(true)),
                "false" => Some(Value::Bool(false)),
                _ => None,
            },
            // A local time in Barra do Garças (America/Cuiaba, UTC−4, DL-11), from the
            // browser's picker or typed as `30/11/2026 10:00`.
            ("string", Some("date-time")) if api_local_datetime(raw).is_some() => {
                api_local_datetime(raw).map(|t| Value::String(format!("{t}:00-04:00")))
            }
            ("string", Some("date-time")) if raw.contains('/') => {
                errors.push((path, "Data e hora inválidas; use dd/mm/aaaa hh:mm.".into()));
                continue;
            }
            // A day: typed `dd/mm/aaaa` where the browser has no date picker.
            ("string", format) if format == Some("date") || is_date_name(&name) => {
                let Some(day) = api_date(raw) else {
                    errors.push((path, "Data inválida; use dd/mm/aaaa.".into()));
                    continue;
                };
                Some(Value::String(day))
            }
            _ => Some(Value::String(raw.to_owned())),
        };
        match value {
            Some(v) => {
                obj.insert(name, v);
            }
            None => errors.push((path, "Valor inválido para este campo.".into())),
        }
    }
    obj
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_is_typed_in_reais_as_on_paper() {
        for (typed, centavos) in [
            ("1.150,00", Some(115_000)),
            ("R$ 1.150,00", Some(115_000)),
            ("1150,5", Some(115_050)),
            ("1150", Some(115_000)),
            ("1.150", Some(115_000)),
            ("1150.50", Some(115_050)),
            ("12.345.678,09", Some(1_234_567_809)),
            ("0,99", Some(99)),
            ("1,150,00", None),
            ("11.50.00", None),
            ("1150,001", None),
            ("mil", None),
            ("", None),
            ("-5,00", None),
        ] {
            assert_eq!(api_centavos(typed), centavos, "{typed}");
        }
    }

    #[test]
    fn an_instant_is_typed_as_on_paper_or_picked() {
        for (typed, read) in [
            ("30/11/2026 10:00", Some("2026-11-30T10:00")),
            ("30/11/2026 às 09:05", Some("2026-11-30T09:05")),
            ("2026-11-30T10:00", Some("2026-11-30T10:00")),
            ("31/11/2026 10:00", None),
            ("30/11/2026", None),
            ("30/11/2026 25:00", None),
        ] {
            assert_eq!(api_local_datetime(typed).as_deref(), read, "{typed}");
        }
    }

    fn vals(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn a_driver_form_has_nested_cnh_fields_and_builds_the_api_body() {
        let schema = body_schema("post", "/api/v1/drivers").unwrap();
        let (variants, items) = build(schema, None, 1);
        assert!(variants.is_none());
        let names: Vec<&str> = items
            .iter()
            .filter_map(|i| match i {
                Item::Input(i) => Some(i.name.as_str()),
                _ => None,
            })
            .collect();
        for n in ["name", "cpf", "cnh.number", "cnh.category", "cnh.ear"] {
            assert!(names.contains(&n), "{n} in {names:?}");
        }
        let body = to_json(
            schema,
            &vals(&[
                ("name", " Ana "),
                ("cpf", "529.982.247-25"),
                ("cnh.number", "58316794534"),
                ("cnh.category", "B"),
                ("cnh.ear", "true"),
                ("cnh.expires_on", "2030-01-01"),
                ("cnh.first_license_date", "2010-01-01"),
            ]),
            None,
            1,
        )
        .unwrap();
        assert_eq!(body["name"], "Ana");
        assert_eq!(body["cnh"]["ear"], true);
        assert_eq!(body["cnh"]["expires_on"], "2030-01-01");
        // Days as a clerk types them go to the API as it takes them; a day that does not
        // exist stays beside its field.
        let typed = |expires: &str| {
            to_json(
                schema,
                &vals(&[
                    ("name", "Ana"),
                    ("cpf", "529.982.247-25"),
                    ("cnh.number", "58316794534"),
                    ("cnh.category", "B"),
                    ("cnh.ear", "true"),
                    ("cnh.expires_on", expires),
                    ("cnh.first_license_date", "10/1/2010"),
                ]),
                None,
                1,
            )
        };
        let body = typed("15/03/2030").unwrap();
        assert_eq!(body["cnh"]["expires_on"], "2030-03-15");
        assert_eq!(body["cnh"]["first_license_date"], "2010-01-10");
        let err = typed("31/02/2030").unwrap_err();
        assert!(
            err.iter()
                .any(|(f, m)| f == "cnh.expires_on" && m.contains("dd/mm/aaaa")),
            "{err:?}"
        );
        // The form offers a date picker for every day, whatever the API's type says.
        let kinds: Vec<(&str, Kind)> = items
            .iter()
            .filter_map(|i| match i {
                Item::Input(i) => Some((i.name.as_str(), i.kind)),
                _ => None,
            })
            .collect();
        assert!(kinds.contains(&("cnh.expires_on", Kind::Date)), "{kinds:?}");
        assert!(body.get("criminal_certificates").is_none());
        // A required field left empty is refused by the form itself.
        let err = to_json(schema, &vals(&[("name", "Ana")]), None, 1).unwrap_err();
        assert!(err.iter().any(|(f, _)| f == "cpf"), "{err:?}");
    }

    #[test]
    fn a_procedure_act_is_chosen_by_its_kind() {
        let schema = body_schema("post", "/api/v1/charter/autos/{id}/acts").unwrap();
        let (variants, items) = build(schema, Some("defesa"), 1);
        let v = variants.unwrap();
        assert_eq!(v.key, "act");
        assert_eq!(v.chosen, "defesa");
        assert!(
            items
                .iter()
                .any(|i| matches!(i, Item::Input(i) if i.name == "protocol"))
        );
        let body = to_json(
            schema,
            &vals(&[("protocol", "PG-1"), ("filed_on", "2026-11-30")]),
            Some("defesa"),
            1,
        )
        .unwrap();
        assert_eq!(
            body,
            json!({"act": "defesa", "protocol": "PG-1", "filed_on": "2026-11-30"})
        );
    }

    /// An act sent with `rectifies` keeps its variants in the form, with the
    /// rectification's group beside them, left out of the body when blank.
    #[test]
    fn a_register_act_keeps_its_variants_beside_its_rectification() {
        let schema = body_schema("post", "/api/v1/drivers/{id}/register-acts").unwrap();
        let (variants, items) = build(schema, Some("recadastramento"), 1);
        let v = variants.unwrap();
        assert_eq!(v.key, "act");
        assert_eq!(v.options.len(), 2, "{:?}", v.options);
        let names: Vec<&str> = items
            .iter()
            .filter_map(|i| match i {
                Item::Input(i) => Some(i.name.as_str()),
                _ => None,
            })
            .collect();
        for n in [
            "effective_on",
            "reference",
            "rectifies.event",
            "rectifies.reason",
        ] {
            assert!(names.contains(&n), "{n} in {names:?}");
        }
        let fields = [
            ("effective_on", "2026-12-01"),
            ("reference", "Despacho SMF"),
        ];
        let body = to_json(schema, &vals(&fields), Some("recadastramento"), 1).unwrap();
        assert_eq!(
            body,
            json!({"act": "recadastramento", "effective_on": "2026-12-01", "reference": "Despacho SMF"})
        );
        let mut with = fields.to_vec();
        with.extend([
            ("rectifies.event", "7"),
            ("rectifies.reason", "Data errada"),
        ]);
        let body = to_json(schema, &vals(&with), Some("recadastramento"), 1).unwrap();
        assert_eq!(body["rectifies"]["event"], 7, "{body}");
    }

    #[test]
    fn errors_go_beside_their_fields_or_to_the_top() {
        let schema = body_schema("post", "/api/v1/app-authorizations").unwrap();
        let (_, mut items) = build(schema, None, 1);
        let rest = mark_errors(
            &mut items,
            &[
                ("cnh.category".into(), "Categoria B exigida".into()),
                ("vehicle.doors".into(), "Quatro portas".into()),
                ("fee_paid_on".into(), "Pagamento futuro".into()),
                ("outra_coisa".into(), "Algo".into()),
            ],
        );
        let error_of = |n: &str| {
            items.iter().find_map(|i| match i {
                Item::Input(i) if i.name == n => i.error.clone(),
                _ => None,
            })
        };
        assert!(error_of("driver_id").unwrap().contains("Categoria B"));
        assert!(error_of("vehicle_id").unwrap().contains("Quatro portas"));
        assert_eq!(error_of("fee_paid_on").unwrap(), "Pagamento futuro");
        assert_eq!(rest.len(), 1);
    }
}
