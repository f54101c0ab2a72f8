use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{CNHS, CPFS, driver_body, spawn_app};

async fn problem(res: reqwest::Response, status: StatusCode) -> Value {
    assert_eq!(res.status(), status);
    assert_eq!(res.headers()["content-type"], "application/problem+json");
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["status"], status.as_u16());
    assert!(body["title"].is_string() && body["detail"].is_string() && body["type"].is_string());
    assert!(body["request_id"].is_string());
    body
}

#[tokio::test]
async fn issuing_endpoints_answer_401_without_a_valid_token() {
    let app = spawn_app().await;
    let body = driver_body(CPFS[0], CNHS[0]);
    for path in [
        "/api/v1/drivers",
        "/api/v1/vehicles",
        "/api/v1/app-authorizations",
    ] {
        let res = app
            .client
            .post(app.url(path))
            .json(&body)
            .send()
            .await
            .unwrap();
        problem(res, StatusCode::UNAUTHORIZED).await;
        let res = app
            .client
            .post(app.url(path))
            .bearer_auth("wrong-token")
            .json(&body)
            .send()
            .await
            .unwrap();
        problem(res, StatusCode::UNAUTHORIZED).await;
    }
    let res = app
        .get("/api/v1/documents/00000000-0000-4000-8000-000000000000")
        .await;
    problem(res, StatusCode::UNAUTHORIZED).await;
    // Verification stays public.
    assert_eq!(
        app.get("/.well-known/selo-keys.json").await.status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn bad_json_wrong_types_unknown_routes_methods_and_big_bodies_are_problems() {
    let app = spawn_app().await;
    let post_raw = |body: &'static str| {
        app.client
            .post(app.url("/api/v1/drivers"))
            .bearer_auth(crate::helpers::ADMIN_TOKEN)
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    problem(
        post_raw("{not json").await.unwrap(),
        StatusCode::BAD_REQUEST,
    )
    .await;
    problem(
        post_raw(r#"{"name": 1, "cpf": "x", "cnh": {}}"#)
            .await
            .unwrap(),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    problem(app.get("/api/v1/nothing-here").await, StatusCode::NOT_FOUND).await;
    let res = app
        .client
        .delete(app.url("/api/v1/drivers"))
        .send()
        .await
        .unwrap();
    // RFC 9110: the 405 names what the resource serves.
    assert_eq!(res.headers()["allow"], "POST");
    problem(res, StatusCode::METHOD_NOT_ALLOWED).await;
    let res = app
        .client
        .post(app.url("/api/v1/platform/webhook"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(res.headers()["allow"], "GET, PUT");
    let big = json!({"name": "x".repeat(100_000)});
    problem(
        app.post("/api/v1/drivers", &big).await,
        StatusCode::PAYLOAD_TOO_LARGE,
    )
    .await;
    let res = app
        .client
        .post(app.url("/api/v1/drivers"))
        .bearer_auth(crate::helpers::ADMIN_TOKEN)
        .body("name=x")
        .send()
        .await
        .unwrap();
    problem(res, StatusCode::UNSUPPORTED_MEDIA_TYPE).await;
    problem(
        app.get_authed("/api/v1/app-authorizations/not-a-uuid")
            .await,
        StatusCode::NOT_FOUND,
    )
    .await;
}

#[tokio::test]
async fn health_reports_the_database_of_the_configured_backend() {
    let app = spawn_app().await;
    let res = app.get("/health").await;
    assert_eq!(res.status(), StatusCode::OK);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["database"], "ok");
    // A PostgreSQL run that silently fell back to SQLite would fail here.
    assert_eq!(body["backend"], app.backend);
    let expected = if std::env::var("TEST_DATABASE_URL").is_ok_and(|u| u.starts_with("postgres")) {
        "postgres"
    } else {
        "sqlite"
    };
    assert_eq!(body["backend"], expected);
}

#[tokio::test]
async fn the_request_id_is_echoed() {
    let app = spawn_app().await;
    let res = app
        .client
        .get(app.url("/nope"))
        .header("x-request-id", "abc-123")
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["x-request-id"], "abc-123");
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["request_id"], "abc-123");
}

/// Every operation the OpenAPI document describes is served (no 404 from the router, no 405).
#[tokio::test]
async fn every_operation_in_the_openapi_document_is_served() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/v1/openapi.json").await.json().await.unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    let paths = doc["paths"].as_object().unwrap();
    assert!(paths.len() >= 20);
    for (path, ops) in paths {
        let concrete = path
            .replace("{id}", "00000000-0000-4000-8000-000000000000")
            .replace("{year}", "2026")
            .replace("{token}", "x")
            .replace("{code}", "x")
            .replace("{plate}", "ABC1D23");
        for method in ops.as_object().unwrap().keys() {
            let m = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let res = app
                .client
                .request(m, app.url(&concrete))
                .bearer_auth(crate::helpers::ADMIN_TOKEN)
                .send()
                .await
                .unwrap();
            let status = res.status();
            let body = res.text().await.unwrap_or_default();
            assert_ne!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
            assert!(
                !body.contains("Endereço não encontrado"),
                "{method} {path} is not routed"
            );
        }
    }
}

/// Whether two path patterns name the same operation: the same template, parameter names
/// included (the document is generated from the handlers, whose attributes repeat the path).
fn same_path(a: &str, b: &str) -> bool {
    a == b
}

/// The OpenAPI document and the route table agree both ways: every route served is
/// documented, and every documented operation is a route.
#[tokio::test]
async fn every_route_is_documented_and_every_documented_operation_is_routed() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/v1/openapi.json").await.json().await.unwrap();
    let documented: Vec<(String, String)> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, ops)| {
            ops.as_object()
                .unwrap()
                .keys()
                .map(move |m| (m.to_lowercase(), path.clone()))
        })
        .collect();
    let routes = selo::http::ROUTES;
    assert!(routes.len() >= 70, "{} routes", routes.len());
    for (method, path) in routes {
        assert!(
            documented
                .iter()
                .any(|(m, p)| m == method && same_path(p, path)),
            "{method} {path} is served but not documented"
        );
    }
    for (method, path) in &documented {
        assert!(
            routes
                .iter()
                .any(|(m, p)| m == method && same_path(p, path)),
            "{method} {path} is documented but not routed"
        );
    }
    assert!(!same_path(
        "/api/v1/verify/{token}",
        "/api/v1/verify/code/{code}"
    ));
}

/// A NUL (or any other control character) in a text field is refused with 422
/// naming the field, on both backends (PostgreSQL cannot store it and answered 500).
#[tokio::test]
async fn a_control_character_in_a_text_field_is_refused_naming_the_field() {
    let app = spawn_app().await;
    let res = app
        .client
        .put(app.url("/api/v1/upf-values/2026"))
        .bearer_auth(crate::helpers::ADMIN_TOKEN)
        .json(&serde_json::json!({"centavos": 11972, "act": "Decreto a\u{0}b"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["errors"][0]["field"], "act", "{body}");
    assert!(
        body["errors"][0]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("U+0000"),
        "{body}"
    );
    // Nothing was stored: the same year can still be set with a clean act.
    let res = app
        .client
        .put(app.url("/api/v1/upf-values/2026"))
        .bearer_auth(crate::helpers::ADMIN_TOKEN)
        .json(&serde_json::json!({"centavos": 11972, "act": "Decreto 1/2026"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
}

/// A path id that is not an id (a NUL, say) is a 404 problem, never a database
/// error.
#[tokio::test]
async fn a_path_id_that_is_not_an_id_is_not_found() {
    let app = spawn_app().await;
    for path in ["/api/v1/platforms/%00", "/api/v1/data-requests/%00"] {
        let res = app.get_authed(path).await;
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{path}");
        assert_eq!(
            res.headers()["content-type"],
            "application/problem+json",
            "{path}"
        );
    }
}

/// No other site may frame the verification page.
#[tokio::test]
async fn the_verification_page_cannot_be_framed() {
    let app = spawn_app().await;
    let res = app.get("/v").await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["x-frame-options"], "DENY");
    let csp = res.headers()["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
}

/// A request that names a record that does not exist is a 404, even when its body is invalid
/// too: the record is looked up before the body is parsed (the order every handler kept
/// through the restructuring).
#[tokio::test]
async fn a_missing_record_is_reported_before_an_invalid_body() {
    let app = spawn_app().await;
    let nobody = "00000000-0000-4000-8000-000000000000";
    let bad_vistoria = json!({"performed_on": "ontem", "approved": true, "inspector": ""});
    for (path, body) in [
        (
            format!("/api/v1/charter/vehicles/{nobody}/vistorias"),
            bad_vistoria.clone(),
        ),
        (
            format!("/api/v1/charter/companies/{nobody}/drivers"),
            json!({"name": "", "cpf": "1", "cnh_number": "2", "birth_date": "1980-01-01",
                   "cnh_category": "D", "cnh_ear": true, "cnh_expires_on": "2030-01-01"}),
        ),
        (
            format!("/api/v1/platforms/{nobody}/data-requests"),
            json!({"justification": "", "scope": "", "notified_at": "x"}),
        ),
        (
            format!("/api/v1/drivers/{nobody}/data-changes"),
            json!({"what": "", "changed_on": "x", "reported_on": "y"}),
        ),
    ] {
        let res = app.post(&path, &body).await;
        let status = res.status();
        let text = res.text().await.unwrap();
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {text}");
    }
}
