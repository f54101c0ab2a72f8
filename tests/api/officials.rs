//! Officials' accounts, personal tokens, the role matrix of every operation, and
//! every act signed by a named official.

use reqwest::StatusCode;
use selo::clock::Clock;
use serde_json::{Value, json};

use crate::helpers::{
    CNHS, CPFS, OFFICIAL_PASSWORD, PLATES, RENAVAMS, driver_body, spawn_app, vehicle_body,
};

/// Letters of the roles: a `admin`, r `ride_hailing_issuer`, c `charter_issuer`, i `inspector`,
/// u `auditor`.
const ROLES: [(char, &str); 5] = [
    ('a', "admin"),
    ('r', "ride_hailing_issuer"),
    ('c', "charter_issuer"),
    ('i', "inspector"),
    ('u', "auditor"),
];

/// Every operation and the roles allowed to call it; `*` public (no token needed).
const MATRIX: &[(&str, &str, &str)] = &[
    ("get", "/health", "*"),
    ("get", "/.well-known/selo-keys.json", "*"),
    ("get", "/api/v1/audit/checkpoints", "*"),
    ("get", "/api/v1/status-list", "*"),
    ("get", "/api/v2/status-list", "*"),
    ("get", "/api/v1/openapi.json", "*"),
    ("get", "/api/v1/me", "arciu"),
    ("post", "/api/v1/drivers", "r"),
    ("post", "/api/v1/vehicles", "r"),
    ("get", "/api/v1/drivers/{id}", "ariu"),
    ("put", "/api/v1/drivers/{id}/photo", "r"),
    ("get", "/api/v1/vehicles/by-plate/{plate}", "ariu"),
    ("get", "/api/v1/vehicles/{id}", "ariu"),
    ("post", "/api/v1/app-authorizations", "r"),
    ("get", "/api/v1/app-authorizations/{id}", "ariu"),
    ("post", "/api/v1/app-authorizations/{id}/revocation", "r"),
    ("post", "/api/v1/app-authorizations/{id}/renewal", "r"),
    ("post", "/api/v1/app-authorization-checks", "r"),
    ("get", "/api/v1/app-grant-reviews", "ariu"),
    ("get", "/api/v1/app-grant-reviews/{id}", "ariu"),
    ("post", "/api/v1/app-grant-reviews/{id}/decision", "r"),
    ("get", "/api/v1/documents/{id}", "ariu"),
    ("get", "/api/v1/documents/{id}/print", "r"),
    ("put", "/api/v1/upf-values/{year}", "arc"),
    ("post", "/api/v1/app-infraction-autos", "ri"),
    ("post", "/api/v1/app-infraction-auto-checks", "ri"),
    ("get", "/api/v1/app-infraction-autos/{id}", "ariu"),
    ("get", "/api/v1/app-infraction-autos/{id}/history", "ariu"),
    ("post", "/api/v1/app-infraction-autos/{id}/acts", "r"),
    ("post", "/api/v1/app-infraction-autos/{id}/act-checks", "r"),
    ("post", "/api/v1/app-infraction-autos/{id}/notice", "ri"),
    (
        "post",
        "/api/v1/app-infraction-autos/{id}/notification",
        "r",
    ),
    (
        "post",
        "/api/v1/app-infraction-autos/{id}/notification/rectification",
        "r",
    ),
    (
        "get",
        "/api/v1/app-infraction-autos/{id}/electronic-notice",
        "ariu",
    ),
    (
        "post",
        "/api/v1/app-infraction-autos/{id}/electronic-notice",
        "r",
    ),
    ("post", "/api/v1/drivers/{id}/data-changes", "r"),
    ("post", "/api/v1/drivers/{id}/register-acts", "r"),
    ("post", "/api/v1/vehicles/{id}/owner", "r"),
    ("post", "/api/v1/vehicles/{id}/register-acts", "r"),
    ("post", "/api/v1/drivers/{id}/record", "r"),
    ("post", "/api/v1/platforms", "r"),
    ("get", "/api/v1/platforms/{id}", "ariu"),
    ("post", "/api/v1/platforms/{id}/regularization-notices", "r"),
    (
        "post",
        "/api/v1/platforms/{id}/regularization-notices/{notice}/regularization",
        "r",
    ),
    ("post", "/api/v1/platforms/{id}/credentials", "r"),
    (
        "post",
        "/api/v1/platforms/{id}/credentials/{credential}/revocation",
        "r",
    ),
    ("get", "/api/v1/platform/drivers", ""),
    ("post", "/api/v1/platform/drivers", ""),
    ("post", "/api/v1/platform/driver-departures", ""),
    ("get", "/api/v1/platform/webhook", ""),
    ("put", "/api/v1/platform/webhook", ""),
    ("put", "/api/v1/platform/monthly-reports/{period}", ""),
    ("get", "/api/v1/platform/data-requests", ""),
    ("put", "/api/v1/platform/data-requests/{id}/delivery", ""),
    ("get", "/api/v1/platforms/{id}/files", "ariu"),
    ("get", "/api/v1/platform-files/{id}", "ariu"),
    (
        "post",
        "/api/v1/platforms/{id}/vehicle-suspension-notices",
        "r",
    ),
    ("post", "/api/v1/platforms/{id}/data-requests", "r"),
    ("get", "/api/v1/data-requests/{id}", "ariu"),
    ("post", "/api/v1/data-requests/{id}/delivery", "r"),
    ("get", "/api/v1/drivers/{id}/history", "ariu"),
    ("get", "/api/v1/vehicles/{id}/history", "ariu"),
    ("get", "/api/v1/app-authorizations/{id}/history", "ariu"),
    ("post", "/api/v1/app-authorizations/{id}/certidoes", "r"),
    (
        "post",
        "/api/v1/app-authorizations/{id}/vehicle-substitutions",
        "r",
    ),
    (
        "post",
        "/api/v1/app-authorizations/{id}/substitution-checks",
        "r",
    ),
    (
        "post",
        "/api/v1/app-authorizations/{id}/vistoria-summons",
        "r",
    ),
    ("post", "/api/v1/app-authorizations/{id}/vistorias", "r"),
    (
        "post",
        "/api/v1/app-authorizations/{id}/vistoria-checks",
        "r",
    ),
    ("post", "/api/v1/app-authorizations/{id}/sanctions", "r"),
    ("get", "/api/v1/app-infractions", "*"),
    ("get", "/api/v1/legal-bases", "*"),
    ("post", "/api/v1/legal-bases/ride-hailing", "r"),
    ("post", "/api/v1/legal-bases/ride-hailing/suspensions", "r"),
    ("post", "/api/v1/legal-bases/charter", "c"),
    ("post", "/api/v1/legal-bases/charter/suspensions", "c"),
    ("post", "/api/v1/calendar/closed-days", "arc"),
    ("get", "/api/v1/calendar/{year}", "*"),
    ("get", "/api/v1/deadlines", "*"),
    ("post", "/api/v1/charter/companies", "c"),
    ("post", "/api/v1/charter/company-checks", "c"),
    ("get", "/api/v1/charter/companies/{id}", "aciu"),
    ("post", "/api/v1/charter/companies/{id}/checklist", "c"),
    ("post", "/api/v1/charter/companies/{id}/termos", "c"),
    ("post", "/api/v1/charter/companies/{id}/termo-checks", "c"),
    ("post", "/api/v1/charter/companies/{id}/sanctions", "c"),
    ("post", "/api/v1/charter/companies/{id}/vehicles", "c"),
    ("post", "/api/v1/charter/companies/{id}/vehicle-checks", "c"),
    ("post", "/api/v1/charter/companies/{id}/drivers", "c"),
    ("post", "/api/v1/charter/companies/{id}/driver-checks", "c"),
    ("post", "/api/v1/charter/companies/{id}/contracts", "c"),
    (
        "post",
        "/api/v1/charter/companies/{id}/contract-checks",
        "c",
    ),
    ("post", "/api/v1/charter/companies/{id}/substitutions", "c"),
    ("post", "/api/v1/charter/companies/{id}/autos", "ci"),
    ("post", "/api/v1/charter/companies/{id}/auto-checks", "ci"),
    ("get", "/api/v1/charter/vehicles/by-plate/{plate}", "aciu"),
    ("get", "/api/v1/charter/vehicles/{id}", "aciu"),
    ("post", "/api/v1/charter/vehicles/{id}/itv", "c"),
    ("post", "/api/v1/charter/vehicles/{id}/documents", "c"),
    ("post", "/api/v1/charter/vehicles/{id}/vistorias", "c"),
    ("post", "/api/v1/charter/vehicles/{id}/vistoria-checks", "c"),
    ("post", "/api/v1/charter/vehicles/{id}/baixa", "c"),
    ("get", "/api/v1/charter/drivers/{id}", "aciu"),
    ("post", "/api/v1/charter/drivers/{id}/documents", "c"),
    ("post", "/api/v1/charter/drivers/{id}/baixa", "c"),
    ("post", "/api/v1/charter/contracts/{id}/end", "c"),
    ("post", "/api/v1/charter/contracts/{id}/trips", "c"),
    ("get", "/api/v1/charter/autos", "aciu"),
    ("get", "/api/v1/charter/autos/{id}", "aciu"),
    ("post", "/api/v1/charter/autos/{id}/acts", "c"),
    ("post", "/api/v1/charter/autos/{id}/act-checks", "c"),
    ("post", "/api/v1/charter/autos/{id}/notice", "ci"),
    ("post", "/api/v1/charter/certidoes", "c"),
    ("get", "/api/v1/charter/infractions", "*"),
    ("get", "/api/v1/charter/transition", "*"),
    ("get", "/api/v1/charter/documents/{id}", "arciu"),
    ("get", "/api/v1/charter/{entity}/{id}/history", "aciu"),
    ("post", "/api/v1/charter/{entity}/{id}/data-changes", "c"),
    ("post", "/api/v1/verify/pdf", "*"),
    ("get", "/api/v1/verify/code/{code}", "*"),
    ("get", "/api/v1/verify/{token}", "*"),
    ("get", "/api/v1/verify/{token}/photo", "*"),
    ("get", "/v", "*"),
    ("post", "/v/pdf", "*"),
    ("get", "/v/{token}", "*"),
    ("get", "/v/{token}/documento.pdf", "*"),
];

/// A concrete path for a route pattern: ids that exist nowhere, so no act is committed.
fn concrete(pattern: &str) -> String {
    pattern
        .replace("{id}", "6f1c3f0e-5d5e-4b8a-9a39-3c2d6a0f0001")
        .replace("{notice}", "6f1c3f0e-5d5e-4b8a-9a39-3c2d6a0f0002")
        .replace("{credential}", "6f1c3f0e-5d5e-4b8a-9a39-3c2d6a0f0003")
        .replace("{year}", "2026")
        .replace("{plate}", "BRA2E19")
        .replace("{token}", "nao-e-um-token")
        .replace("{code}", "ABCD-EFGH")
        .replace("{entity}", "companies")
}

#[test]
fn the_matrix_names_every_operation_of_the_route_table_once() {
    let mut table: Vec<(&str, &str)> = MATRIX.iter().map(|(m, p, _)| (*m, *p)).collect();
    table.sort_unstable();
    let mut routes: Vec<(&str, &str)> = selo::http::ROUTES.to_vec();
    routes.sort_unstable();
    assert_eq!(table, routes);
}

/// The role matrix on the API: each operation × each role → allowed or 403 naming the
/// roles, and without a token → 401 unless public; on both databases.
#[tokio::test]
async fn every_operation_answers_each_role_as_the_matrix_says() {
    let app = spawn_app().await;
    let mut tokens = Vec::new();
    for (letter, role) in ROLES {
        let token = app
            .official(
                &format!("papel-{}", role.replace('_', "-")),
                &format!("Servidor {role}"),
                role,
            )
            .await;
        tokens.push((letter, role, token));
    }
    let mut checked = 0;
    for (method, pattern, allowed) in MATRIX {
        let path = concrete(pattern);
        let body = (*method != "get").then(|| json!({}));
        let anonymous = app.send_as(None, method, &path, body.as_ref()).await;
        if *allowed == "*" {
            assert!(
                !matches!(
                    anonymous.status(),
                    StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN
                ),
                "{method} {pattern} is public: {}",
                anonymous.status()
            );
            continue;
        }
        assert_eq!(
            anonymous.status(),
            StatusCode::UNAUTHORIZED,
            "{method} {pattern} without a token"
        );
        for (letter, role, token) in &tokens {
            let res = app.send_as(Some(token), method, &path, body.as_ref()).await;
            let status = res.status();
            if allowed.contains(*letter) {
                assert!(
                    !matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN),
                    "{method} {pattern} must be allowed to {role}: {status}"
                );
            } else {
                assert_eq!(
                    status,
                    StatusCode::FORBIDDEN,
                    "{method} {pattern} must be refused to {role}"
                );
                let problem: Value = res.json().await.unwrap();
                let needed: Vec<&str> = problem["required_roles"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_str().unwrap())
                    .collect();
                let expected: Vec<&str> = ROLES
                    .iter()
                    .filter(|(l, _)| allowed.contains(*l))
                    .map(|(_, r)| *r)
                    .collect();
                let mut sorted = needed.clone();
                sorted.sort_unstable();
                let mut expected_sorted = expected.clone();
                expected_sorted.sort_unstable();
                assert_eq!(sorted, expected_sorted, "{method} {pattern}");
                let detail = problem["detail"].as_str().unwrap();
                assert!(
                    expected.iter().all(|r| detail.contains(r)),
                    "the refusal names the roles: {detail}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 300, "{checked}");
}

#[tokio::test]
async fn a_personal_token_says_who_it_is_and_stops_working_when_revoked_or_disabled() {
    let app = spawn_app().await;
    let token = app
        .official(
            "maria.souza",
            "Maria de Souza",
            "ride_hailing_issuer,auditor",
        )
        .await;
    let me: Value = app
        .send_as(Some(&token), "get", "/api/v1/me", None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(me["login"], "maria.souza");
    assert_eq!(me["name"], "Maria de Souza");
    assert_eq!(me["roles"], json!(["ride_hailing_issuer", "auditor"]));

    let store = app.store().await;
    let cli = selo::storage::officials::CLI_OFFICIAL.to_string();
    let now = app.clock.now();
    // A second token; the first keeps working until revoked.
    let second = selo::issuance::officials::issue_token(&store, "maria.souza", &cli, now)
        .await
        .unwrap();
    assert_ne!(second, token);
    for t in [&token, &second] {
        let res = app.send_as(Some(t), "get", "/api/v1/me", None).await;
        assert_eq!(res.status(), StatusCode::OK);
    }
    selo::issuance::officials::revoke_tokens(&store, "maria.souza", &cli, now)
        .await
        .unwrap();
    for t in [&token, &second] {
        let res = app.send_as(Some(t), "get", "/api/v1/me", None).await;
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    }

    let third = selo::issuance::officials::issue_token(&store, "maria.souza", &cli, now)
        .await
        .unwrap();
    selo::issuance::officials::disable(&store, "maria.souza", &cli, now)
        .await
        .unwrap();
    let res = app.send_as(Some(&third), "get", "/api/v1/me", None).await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    let problem: Value = res.json().await.unwrap();
    assert!(
        problem["detail"].as_str().unwrap().contains("desativada"),
        "{problem}"
    );
    // A made-up token is refused too, and nothing in the answer echoes it.
    let res = app
        .send_as(Some("selo_inventado"), "get", "/api/v1/me", None)
        .await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn bad_account_input_is_refused_and_changes_nothing() {
    let app = spawn_app().await;
    let store = app.store().await;
    let cli = selo::storage::officials::CLI_OFFICIAL.to_string();
    let now = app.clock.now();
    let add = |login: &'static str, roles: &'static str, password: &'static str| {
        let store = store.clone();
        let cli = cli.clone();
        async move {
            selo::issuance::officials::add(&store, &cli, login, "Ana Lima", roles, password, now)
                .await
        }
    };
    let weak = add("ana.lima", "auditor", "curta123").await.unwrap_err();
    assert!(weak.to_string().contains("12 caracteres"), "{weak}");
    let role = add("ana.lima", "auditor,prefeito", OFFICIAL_PASSWORD)
        .await
        .unwrap_err();
    assert!(role.to_string().contains("prefeito"), "{role}");
    let login = add("Ana Lima", "auditor", OFFICIAL_PASSWORD)
        .await
        .unwrap_err();
    assert!(login.to_string().contains("login inválido"), "{login}");
    assert!(store.officials().await.unwrap().is_empty());

    add("ana.lima", "auditor", OFFICIAL_PASSWORD).await.unwrap();
    let taken = add("ana.lima", "inspector", OFFICIAL_PASSWORD)
        .await
        .unwrap_err();
    assert!(taken.to_string().contains("já existe"), "{taken}");
    let listed = store.officials().await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].roles.to_string(), "auditor");
    let unknown = selo::issuance::officials::issue_token(&store, "ninguem", &cli, now)
        .await
        .unwrap_err();
    assert!(unknown.to_string().contains("ninguem"), "{unknown}");
}

/// The grant, its documents and its number name the official who made them,
/// and the history shows their name.
#[tokio::test]
#[expect(
    clippy::too_many_lines,
    reason = "one story: register, grant, read back, then the dev token"
)]
async fn every_act_names_the_official_who_made_it() {
    let app = spawn_app().await;
    let token = app
        .official(
            "joao.emissor",
            "João Batista Emissor",
            "ride_hailing_issuer",
        )
        .await;
    let post = |path: &'static str, body: Value| {
        let app = &app;
        let token = token.clone();
        async move {
            let res = app.send_as(Some(&token), "post", path, Some(&body)).await;
            assert_eq!(res.status(), StatusCode::CREATED, "{path}");
            res.json::<Value>().await.unwrap()
        }
    };
    let driver = post("/api/v1/drivers", driver_body(CPFS[0], CNHS[0])).await;
    let vehicle = post("/api/v1/vehicles", vehicle_body(PLATES[0], RENAVAMS[0])).await;
    // Both read back as registered, for the back office's pages.
    for (path, created) in [("drivers", &driver), ("vehicles", &vehicle)] {
        let read: Value = app
            .send_as(
                Some(&token),
                "get",
                &format!("/api/v1/{path}/{}", created["id"].as_str().unwrap()),
                None,
            )
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(&read, created);
    }
    let grant = post(
        "/api/v1/app-authorizations",
        json!({
            "driver_id": driver["id"],
            "vehicle_id": vehicle["id"],
            "fee_paid_on": "2026-11-20",
        }),
    )
    .await;
    let id = grant["id"].as_str().unwrap();
    let history: Value = app
        .send_as(
            Some(&token),
            "get",
            &format!("/api/v1/app-authorizations/{id}/history"),
            None,
        )
        .await
        .json()
        .await
        .unwrap();
    let events = history["events"].as_array().unwrap();
    assert!(!events.is_empty());
    let me: Value = app
        .send_as(Some(&token), "get", "/api/v1/me", None)
        .await
        .json()
        .await
        .unwrap();
    for e in events {
        assert_eq!(e["actor"], me["id"], "{e}");
        assert_eq!(e["actor_name"], "João Batista Emissor", "{e}");
    }
    let driver_history: Value = app
        .send_as(
            Some(&token),
            "get",
            &format!("/api/v1/drivers/{}/history", driver["id"].as_str().unwrap()),
            None,
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        driver_history["events"][0]["actor_name"],
        "João Batista Emissor"
    );
    // The documents and the number record the official too.
    let store = app.store().await;
    let auth_id = uuid::Uuid::parse_str(id).unwrap();
    let docs = store.documents_of_authorization(auth_id).await.unwrap();
    assert_eq!(docs.len(), 2);
    for d in &docs {
        assert_eq!(d.issued_by.as_deref(), me["id"].as_str());
    }
    let reserved_by = store
        .number_reserved_by(grant["number"].as_str().unwrap())
        .await
        .unwrap();
    assert_eq!(reserved_by.as_deref(), me["id"].as_str());

    // The development token is named as such.
    let res = app
        .post("/api/v1/drivers", &driver_body(CPFS[1], CNHS[1]))
        .await;
    let other: Value = res.json().await.unwrap();
    let h = app
        .get_json(&format!(
            "/api/v1/drivers/{}/history",
            other["id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(h["events"][0]["actor_name"], "token de desenvolvimento");
}

#[tokio::test]
async fn a_charter_issuer_cannot_grant_under_the_ride_hailing_law() {
    let app = spawn_app().await;
    let token = app
        .official("carla.sis", "Carla Infraestrutura", "charter_issuer")
        .await;
    let res = app
        .send_as(
            Some(&token),
            "post",
            "/api/v1/drivers",
            Some(&driver_body(CPFS[0], CNHS[0])),
        )
        .await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let problem: Value = res.json().await.unwrap();
    assert_eq!(problem["type"], "/problems/forbidden");
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("ride_hailing_issuer"),
        "{problem}"
    );
    // Nothing was recorded: the CPF is still free for the right secretariat.
    let res = app
        .post("/api/v1/drivers", &driver_body(CPFS[0], CNHS[0]))
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
}

/// A document served by id under the register's path is read only by its own law's officials.
#[tokio::test]
async fn a_ride_hailing_certidao_is_not_served_to_the_charter_secretariat() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let id = grant["id"].as_str().unwrap();
    let res = app
        .post(
            &format!("/api/v1/app-authorizations/{id}/certidoes"),
            &json!({"subject": "app_vehicle", "protocol": "PG-2026/9"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let cert: Value = res.json().await.unwrap();
    let pdf_path = cert["pdf"].as_str().unwrap();
    assert!(
        pdf_path.starts_with("/api/v1/charter/documents/"),
        "{pdf_path}"
    );
    let charter = app.official("carla.sis", "Carla", "charter_issuer").await;
    let auditor = app.official("abel.auditor", "Abel", "auditor").await;
    let res = app.send_as(Some(&charter), "get", pdf_path, None).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let res = app.send_as(Some(&auditor), "get", pdf_path, None).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.bytes().await.unwrap().starts_with(b"%PDF"));
}

/// The command line an administrator uses on a fresh install: add (password on standard
/// input, weak ones refused), token, list, disable.
#[test]
fn the_officials_command_line_creates_lists_and_disables_accounts() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}/cli.db", dir.path().display());
    let selo = |args: &[&str], stdin: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_selo"))
            .args(args)
            .env("DATABASE_URL", &db)
            .env("SELO_KEYS_DIR", dir.path().join("keys"))
            .env("RUST_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let add = [
        "officials",
        "add",
        "admin.geral",
        "--name",
        "Helena Prado",
        "--role",
        "admin",
    ];
    let (ok, _, err) = selo(&add, "curta\n");
    assert!(!ok);
    assert!(err.contains("12 caracteres"), "{err}");
    let (ok, out, err) = selo(&add, &format!("{OFFICIAL_PASSWORD}\n"));
    assert!(ok, "{err}");
    assert!(
        out.contains("admin.geral") && out.contains("Helena Prado"),
        "{out}"
    );
    let (ok, token, err) = selo(&["officials", "token", "admin.geral"], "");
    assert!(ok, "{err}");
    assert!(token.trim().starts_with("selo_"), "{token}");
    assert!(!err.contains(token.trim()), "the token goes to stdout only");
    let (ok, list, _) = selo(&["officials", "list"], "");
    assert!(ok);
    assert!(
        list.contains("admin.geral\tativo\tadmin\tHelena Prado"),
        "{list}"
    );
    assert!(
        !list.contains("token-dev"),
        "pseudo-officials are not listed: {list}"
    );
    // The last active admin stays: disabling them is refused with the reason.
    let (ok, _, err) = selo(&["officials", "disable", "admin.geral"], "");
    assert!(!ok);
    assert!(err.contains("último(a) administrador(a) ativo(a)"), "{err}");
    let second = [
        "officials",
        "add",
        "admin.dois",
        "--name",
        "Bruno Lima",
        "--role",
        "admin",
    ];
    let (ok, _, err) = selo(&second, &format!("{OFFICIAL_PASSWORD}\n"));
    assert!(ok, "{err}");
    let (ok, _, _) = selo(&["officials", "disable", "admin.geral"], "");
    assert!(ok);
    let (_, list, _) = selo(&["officials", "list"], "");
    assert!(list.contains("admin.geral\tdesativado"), "{list}");
    let (ok, _, err) = selo(&["officials", "disable", "ninguem"], "");
    assert!(!ok);
    assert!(err.contains("ninguem"), "{err}");
}

/// The certidão's audit line names the official who issued it.
#[tokio::test]
async fn a_certidao_names_the_official_who_issued_it() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let id = grant["id"].as_str().unwrap();
    let token = app
        .official("ana.smf", "Ana Beatriz Finanças", "ride_hailing_issuer")
        .await;
    let res = app
        .send_as(
            Some(&token),
            "post",
            &format!("/api/v1/app-authorizations/{id}/certidoes"),
            Some(&json!({"subject": "app_vehicle", "protocol": "PG-2026/9"})),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let cert: Value = res.json().await.unwrap();
    let pdf = app
        .send_as(Some(&token), "get", cert["pdf"].as_str().unwrap(), None)
        .await
        .bytes()
        .await
        .unwrap();
    let text = crate::helpers::pdf_text(&pdf);
    assert!(text.contains("Emitida por Ana Beatriz Finanças"), "{text}");
}
