//! The API answers what its OpenAPI document says: every JSON answer the suite receives
//! through `TestApp::{get, get_authed, post}` is validated against the schema the generated
//! document gives that operation and status (JSON Schema 2020-12, as OpenAPI 3.1 uses), with
//! undeclared properties refused, so a field added to or dropped from an answer without its
//! type changing fails the suite.

use std::sync::LazyLock;

use serde_json::{Map, Value, json};

struct Contract {
    doc: Value,
    /// The document's components, with `additionalProperties: false` on every plain object.
    components: Value,
}

static CONTRACT: LazyLock<Contract> = LazyLock::new(|| {
    let doc: Value =
        serde_json::from_str(selo::http::openapi::document()).expect("the document is JSON");
    let mut components = doc["components"].clone();
    let composed = composed_names(&doc);
    if let Some(schemas) = components["schemas"].as_object_mut() {
        for (name, schema) in schemas.iter_mut() {
            if !composed.contains(name) {
                close(schema);
            }
        }
    }
    Contract { doc, components }
});

/// The schemas used as parts of an `allOf` (serde `flatten`): they cannot be closed alone.
fn composed_names(doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk(doc, &mut |v| {
        if let Some(parts) = v.get("allOf").and_then(Value::as_array) {
            for p in parts {
                if let Some(r) = p.get("$ref").and_then(Value::as_str) {
                    out.push(r.rsplit('/').next().unwrap_or_default().to_owned());
                }
            }
        }
    });
    out
}

fn walk(v: &Value, f: &mut impl FnMut(&Value)) {
    f(v);
    match v {
        Value::Object(m) => m.values().for_each(|x| walk(x, f)),
        Value::Array(a) => a.iter().for_each(|x| walk(x, f)),
        _ => {}
    }
}

/// Refuses undeclared properties on every object schema that lists its properties, except
/// inside an `allOf`.
fn close(schema: &mut Value) {
    let Some(m) = schema.as_object_mut() else {
        return;
    };
    if m.contains_key("allOf") {
        return;
    }
    if m.contains_key("properties") && !m.contains_key("additionalProperties") {
        m.insert("additionalProperties".into(), Value::Bool(false));
    }
    for (k, v) in m.iter_mut() {
        match k.as_str() {
            "properties" => {
                if let Some(props) = v.as_object_mut() {
                    props.values_mut().for_each(close);
                }
            }
            "items" | "additionalProperties" => close(v),
            "oneOf" | "anyOf" => {
                if let Some(a) = v.as_array_mut() {
                    a.iter_mut().for_each(close);
                }
            }
            _ => {}
        }
    }
}

/// The documented operation for a concrete request path: the template that matches with the
/// most literal segments (`/verify/pdf` before `/verify/{token}`).
fn operation(method: &str, path: &str) -> Option<(&'static str, &'static Value)> {
    let path = path.split('?').next().unwrap_or(path);
    let segs: Vec<&str> = path.split('/').collect();
    let mut best: Option<(usize, &'static str, &'static Value)> = None;
    for (template, item) in CONTRACT.doc["paths"].as_object()? {
        let t: Vec<&str> = template.split('/').collect();
        if t.len() != segs.len()
            || !t
                .iter()
                .zip(&segs)
                .all(|(a, b)| a == b || a.starts_with('{'))
        {
            continue;
        }
        let Some(op) = item.get(method) else { continue };
        let literal = t.iter().filter(|s| !s.starts_with('{')).count();
        if best.is_none_or(|(n, ..)| literal > n) {
            best = Some((literal, template.as_str(), op));
        }
    }
    best.map(|(_, t, op)| (t, op))
}

/// Panics with the reason when `body` is not what the document promises for this answer.
pub fn check(method: &str, path: &str, status: u16, content_type: &str, body: &[u8]) {
    let media = content_type.split(';').next().unwrap_or_default().trim();
    if !media.ends_with("json") {
        return;
    }
    let Some((template, op)) = operation(method, path) else {
        // Unrouted paths answer the generic 404 problem; nothing documents them.
        assert_eq!(
            status, 404,
            "{method} {path}: answered {status} but is not documented"
        );
        return;
    };
    let responses = &op["responses"];
    let range = format!("{}XX", status / 100);
    let response = responses
        .get(status.to_string())
        .or_else(|| responses.get(&range))
        .or_else(|| responses.get("default"))
        .unwrap_or_else(|| panic!("{method} {template}: status {status} is not documented"));
    let Some(schema) = response["content"].get(media).map(|c| &c["schema"]) else {
        panic!("{method} {template}: {status} {media} is not documented");
    };
    let mut schema = schema.clone();
    close(&mut schema);
    let mut root = Map::new();
    root.insert(
        "$schema".into(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    root.insert("components".into(), CONTRACT.components.clone());
    root.insert("allOf".into(), json!([schema]));
    let validator = jsonschema::draft202012::new(&Value::Object(root))
        .unwrap_or_else(|e| panic!("{method} {template}: schema does not compile: {e}"));
    let instance: Value = serde_json::from_slice(body)
        .unwrap_or_else(|e| panic!("{method} {template}: {status} body is not JSON: {e}"));
    let errors: Vec<String> = validator
        .iter_errors(&instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{method} {template} answered {status} outside its documented schema:\n{}\n{instance:#}",
        errors.join("\n")
    );
}

/// Reads a response, checks it against the contract, and gives it back unread.
pub async fn checked(method: &str, path: &str, res: reqwest::Response) -> reqwest::Response {
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = res.bytes().await.expect("response body");
    let content_type = headers
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    check(method, path, status.as_u16(), content_type, &bytes);
    let mut rebuilt = http::Response::builder().status(status.as_u16());
    for (k, v) in &headers {
        rebuilt = rebuilt.header(k.as_str(), v.as_bytes());
    }
    reqwest::Response::from(rebuilt.body(bytes).expect("rebuilt response"))
}

/// The checker refuses what it should: an undeclared field, a missing field, a wrong type,
/// an undocumented status.
#[test]
fn the_contract_check_can_fail() {
    let ok = json!({"status": "ok", "database": "ok", "backend": "sqlite"}).to_string();
    check("get", "/health", 200, "application/json", ok.as_bytes());
    for bad in [
        json!({"status": "ok", "database": "ok", "backend": "sqlite", "extra": 1}),
        json!({"status": "ok", "database": "ok"}),
        json!({"status": 1, "database": "ok", "backend": "sqlite"}),
    ] {
        let body = bad.to_string();
        let failed = std::panic::catch_unwind(|| {
            check("get", "/health", 200, "application/json", body.as_bytes());
        });
        assert!(failed.is_err(), "{bad} passed the contract check");
    }
    let undocumented = std::panic::catch_unwind(|| {
        check("get", "/health", 201, "application/json", ok.as_bytes());
    });
    assert!(undocumented.is_err());
}

/// The generated document, as served, is kept in `tests/snapshots/openapi.json`: a change of
/// any request or response type shows in review (`UPDATE_SNAPSHOTS=1` to accept it).
#[tokio::test]
async fn the_openapi_document_is_served_as_generated_and_matches_its_snapshot() {
    let app = crate::helpers::spawn_app().await;
    let res = app.get("/api/v1/openapi.json").await;
    assert_eq!(res.status(), 200);
    let served = res.text().await.unwrap();
    assert_eq!(served, selo::http::openapi::document());
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/openapi.json");
    if std::env::var("UPDATE_SNAPSHOTS").is_ok() {
        std::fs::write(&path, format!("{served}\n")).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("missing {} (UPDATE_SNAPSHOTS=1 creates it)", path.display()));
    assert!(
        expected.trim_end() == served,
        "the OpenAPI document changed (run with UPDATE_SNAPSHOTS=1 if intended)"
    );
}

/// Every operation has an id, used once; every request body, answer and parameter names a
/// schema, and every schema a `$ref` names exists.
#[test]
fn every_operation_is_described_by_types() {
    let doc = &CONTRACT.doc;
    let mut ids = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let id = op["operationId"]
                .as_str()
                .unwrap_or_else(|| panic!("{method} {path}: no operationId"));
            assert!(!ids.contains(&id.to_owned()), "operationId {id} used twice");
            ids.push(id.to_owned());
            let ok = op["responses"]
                .as_object()
                .unwrap()
                .iter()
                .find(|(s, _)| s.starts_with('2'));
            let (_, ok) = ok.unwrap_or_else(|| panic!("{method} {path}: no success answer"));
            assert!(
                ok["content"]
                    .as_object()
                    .is_some_and(|c| c.values().all(|m| m.get("schema").is_some())),
                "{method} {path}: the success answer has no typed content"
            );
            for p in path.split('/').filter(|s| s.starts_with('{')) {
                let name = p.trim_matches(['{', '}']);
                assert!(
                    op["parameters"].as_array().is_some_and(|ps| ps
                        .iter()
                        .any(|x| x["name"] == name && x["in"] == "path")),
                    "{method} {path}: path parameter {name} undocumented"
                );
            }
            if method == "post" || method == "put" {
                let typed = op["requestBody"]["content"]
                    .as_object()
                    .is_some_and(|c| !c.is_empty());
                let bodyless = ["/notice", "/electronic-notice", "/termos"]
                    .iter()
                    .any(|s| path.ends_with(s));
                assert!(typed || bodyless, "{method} {path}: request body untyped");
            }
        }
    }
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    walk(doc, &mut |v| {
        if let Some(r) = v.get("$ref").and_then(Value::as_str) {
            let name = r.trim_start_matches("#/components/schemas/");
            assert!(schemas.contains_key(name), "{r} names no schema");
        }
    });
    assert!(ids.len() >= 70, "{} operations", ids.len());
}
