use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{CPFS, spawn_app};

fn platform(cnpj: &str, cover: i64) -> Value {
    json!({"name": "Plataforma Exemplo Ltda.", "cnpj": cnpj, "fee_paid_on": "2026-11-02",
           "app_insurance": {"policy": "APP-123", "insurer": "Seguradora Exemplo S.A.", "cover_centavos": cover, "valid_until": "2027-06-30"}})
}

/// A platform registered on 02/11/2026, with its id.
pub(crate) async fn registered_platform() -> (crate::helpers::TestApp, String) {
    let app = spawn_app().await;
    let res = app
        .post(
            "/api/v1/platforms",
            &platform("11.222.333/0001-81", 5_000_000),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let p: Value = res.json().await.unwrap();
    let id = p["id"].as_str().unwrap().to_owned();
    (app, id)
}

/// APP-ART5-X and AMB-45 through the API, with an alphanumeric CNPJ (IN RFB 2.229/2024).
#[tokio::test]
async fn platforms_register_with_app_insurance_of_at_least_fifty_thousand_reais() {
    let app = spawn_app().await;
    let res = app
        .post(
            "/api/v1/platforms",
            &platform("12.ABC.345/01DE-35", 5_000_000),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let p: Value = res.json().await.unwrap();
    assert_eq!(p["cnpj"], "12.ABC.345/01DE-35");
    assert_eq!(p["valid_until"], "2027-11-02");
    assert_eq!(p["status"], "active");
    assert_eq!(p["app_insurance"]["cover"], "R$\u{a0}50.000,00");
    let got: Value = app
        .get_authed(&format!("/api/v1/platforms/{}", p["id"].as_str().unwrap()))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(got["id"], p["id"]);

    assert_eq!(
        app.post(
            "/api/v1/platforms",
            &platform("12.ABC.345/01DE-35", 5_000_000)
        )
        .await
        .status(),
        StatusCode::CONFLICT
    );
    let res = app
        .post(
            "/api/v1/platforms",
            &platform("11.222.333/0001-81", 4_999_999),
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["errors"][0]["rule"], "APP-ART5-X");
    let res = app
        .post(
            "/api/v1/platforms",
            &platform("12.ABC.345/01DE-53", 5_000_000),
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["errors"][0]["field"], "cnpj");
}

/// APP-ART4-P2 / DL-7: 24 hours minute by minute from receipt, no weekend extension.
#[tokio::test]
async fn data_requests_are_due_twenty_four_hours_after_receipt() {
    let (app, pid) = registered_platform().await;
    let pid = pid.as_str();
    // Received on Saturday 28/11/2026 at 15:37 local time.
    let body = json!({"justification": "Apuração de embarque irregular na rodoviária", "scope": "Viagens da placa BRA2E19 em 27/11/2026",
                      "notified_at": "2026-11-28T15:37:00-04:00"});
    let res = app
        .post(&format!("/api/v1/platforms/{pid}/data-requests"), &body)
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let r: Value = res.json().await.unwrap();
    assert_eq!(r["due_at"], "2026-11-29T19:37:00Z");
    assert_eq!(r["status"], "pending");
    let rid = r["id"].as_str().unwrap();
    let sha = "a".repeat(64);
    let late = json!({"delivered_at": "2026-11-29T15:38:00-04:00", "sha256": sha, "signer": "Representante legal"});
    let d: Value = app
        .post(&format!("/api/v1/data-requests/{rid}/delivery"), &late)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(d["status"], "delivered_late");
    assert_eq!(
        app.post(&format!("/api/v1/data-requests/{rid}/delivery"), &late)
            .await
            .status(),
        StatusCode::CONFLICT
    );

    let r2: Value = app
        .post(&format!("/api/v1/platforms/{pid}/data-requests"), &body)
        .await
        .json()
        .await
        .unwrap();
    let on_time = json!({"delivered_at": "2026-11-29T15:37:00-04:00", "sha256": sha, "signer": "Representante legal"});
    let d: Value = app
        .post(
            &format!(
                "/api/v1/data-requests/{}/delivery",
                r2["id"].as_str().unwrap()
            ),
            &on_time,
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(d["status"], "delivered_in_time");

    let no_reason =
        json!({"justification": " ", "scope": "x", "notified_at": "2026-11-28T15:37:00-04:00"});
    assert_eq!(
        app.post(
            &format!("/api/v1/platforms/{pid}/data-requests"),
            &no_reason
        )
        .await
        .status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
}

/// APP-ART24-II (AMB-36): a platform breach with no penalty of its own gets a notice to
/// regularize by a set day; the platform's record shows where it stands.
#[tokio::test]
async fn app_art24_ii_notice_to_regularize_a_platform() {
    let (app, id) = registered_platform().await;
    let path = format!("/api/v1/platforms/{id}/regularization-notices");
    let notice = |cure_by: &str| {
        json!({"requirement": "Entregar os dados de viagens pedidos em 20/11/2026 (art. 4º, §2º)",
               "notified_on": "2026-11-30", "cure_by": cure_by})
    };
    let res = app.post(&path, &notice("2026-11-29")).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["errors"][0]["rule"], "APP-ART24-II", "{body}");
    assert_eq!(body["errors"][0]["field"], "cure_by");

    let res = app.post(&path, &notice("2026-12-07")).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let n: Value = res.json().await.unwrap();
    assert_eq!(n["status"], "pendente");
    let nid = n["id"].as_str().unwrap();
    // Past the day set: vencida, shown on the platform.
    app.clock.advance(chrono::Duration::days(8));
    let got: Value = app.get_json(&format!("/api/v1/platforms/{id}")).await;
    assert_eq!(
        got["regularization_notices"][0]["status"], "vencida",
        "{got}"
    );
    // Regularized late, once.
    let cure = format!("{path}/{nid}/regularization");
    let res = app.post(&cure, &json!({"cured_on": "2026-12-08"})).await;
    assert_eq!(res.status(), StatusCode::OK);
    let n: Value = res.json().await.unwrap();
    assert_eq!(n["status"], "regularizada_fora_do_prazo");
    let res = app.post(&cure, &json!({"cured_on": "2026-12-08"})).await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
    let res = app
        .post(
            &format!("{path}/nao-existe/regularization"),
            &json!({"cured_on": "2026-12-08"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}

/// APP-ART4-P3: a delivery typed in with the wrong minute is rectified by
/// a new record with its reason, and its timeliness judged again; the first stays in the
/// request's events; a rectification needs a delivery to correct, and passes the delivery's
/// own checks.
#[tokio::test]
async fn app_art4_p3_a_delivery_entered_wrongly_is_rectified() {
    let (app, pid) = registered_platform().await;
    let body = json!({"justification": "Apuração de embarque irregular", "scope": "Viagens de 27/11/2026",
                      "notified_at": "2026-11-28T15:37:00-04:00"});
    let r: Value = app
        .post(&format!("/api/v1/platforms/{pid}/data-requests"), &body)
        .await
        .json()
        .await
        .unwrap();
    let path = format!(
        "/api/v1/data-requests/{}/delivery",
        r["id"].as_str().unwrap()
    );
    let sha = "b".repeat(64);
    let delivery = |at: &str, rectifies: Option<Value>| {
        let mut d = json!({"delivered_at": at, "sha256": sha, "signer": "Representante legal"});
        if let Some(x) = rectifies {
            d["rectifies"] = x;
        }
        d
    };
    let why = json!({"reason": "Hora digitada errada: o protocolo mostra 15h30."});
    // Nothing delivered yet: nothing to rectify.
    let res = app
        .post(
            &path,
            &delivery("2026-11-29T15:30:00-04:00", Some(why.clone())),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
    let d: Value = app
        .post(&path, &delivery("2026-11-29T16:30:00-04:00", None))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(d["status"], "delivered_late");
    // The rectified delivery is checked as any delivery: not before the notice.
    let res = app
        .post(
            &path,
            &delivery("2026-11-28T15:00:00-04:00", Some(why.clone())),
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let res = app
        .post(
            &path,
            &delivery("2026-11-29T15:30:00-04:00", Some(json!({"reason": ""}))),
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let p: Value = res.json().await.unwrap();
    assert_eq!(p["errors"][0]["field"], "rectifies.reason", "{p}");
    let res = app
        .post(&path, &delivery("2026-11-29T15:30:00-04:00", Some(why)))
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let d: Value = res.json().await.unwrap();
    assert_eq!(d["status"], "delivered_in_time", "{d}");
    assert_eq!(d["delivered_at"], "2026-11-29T19:30:00Z", "{d}");
    let again: Value = app.get_json(&path.replace("/delivery", "")).await;
    assert_eq!(again["status"], "delivered_in_time", "{again}");
    // Without `rectifies`, a second delivery is still refused.
    let res = app
        .post(&path, &delivery("2026-11-29T15:31:00-04:00", None))
        .await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
}

/// A credential of `platform`, issued by an official; its token.
pub(crate) async fn credential(app: &crate::helpers::TestApp, platform: &str) -> (String, String) {
    let res = app
        .post(
            &format!("/api/v1/platforms/{platform}/credentials"),
            &json!({"label": "Integração de cadastro"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let c: Value = res.json().await.unwrap();
    assert!(
        c["access_token"]
            .as_str()
            .unwrap()
            .starts_with("selo_plat_"),
        "{c}"
    );
    (
        c["id"].as_str().unwrap().to_owned(),
        c["access_token"].as_str().unwrap().to_owned(),
    )
}

async fn drivers_of(app: &crate::helpers::TestApp, token: &str) -> (StatusCode, Value) {
    let res = app
        .send_as(Some(token), "get", "/api/v1/platform/drivers", None)
        .await;
    let status = res.status();
    (status, res.json().await.unwrap_or(Value::Null))
}

/// A platform's credential reaches its own drivers only: it registers them by authorization
/// number and CPF, reads their status now (a suspension included), ends a link; an official's
/// token is not a platform's, and a revoked credential stops at once.
#[tokio::test]
#[expect(
    clippy::too_many_lines,
    reason = "two platforms, their drivers and their credentials, from issue to revocation"
)]
async fn a_platforms_credential_lists_only_its_own_drivers() {
    let (app, p1) = registered_platform().await;
    let res = app
        .post(
            "/api/v1/platforms",
            &platform("11.444.777/0001-61", 5_000_000),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let p2 = res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let a = app.granted_to(0).await;
    let b = app.granted_to(1).await;
    let (c1, t1) = credential(&app, &p1).await;
    let (_, t2) = credential(&app, &p2).await;

    let register = |token: &str, number: &str, cpf: &str| {
        let body = json!({"authorization_number": number, "cpf": cpf});
        let token = token.to_owned();
        let app = &app;
        async move {
            app.send_as(
                Some(&token),
                "post",
                "/api/v1/platform/drivers",
                Some(&body),
            )
            .await
        }
    };
    let a_number = a["number"].as_str().unwrap();
    let b_number = b["number"].as_str().unwrap();
    let res = register(&t1, a_number, CPFS[0]).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let d: Value = res.json().await.unwrap();
    assert_eq!(d["authorization_number"], a_number);
    assert_eq!(d["status"], "active");
    assert_eq!(d["plate"], "BRA2E19");
    assert_eq!(
        register(&t1, a_number, CPFS[0]).await.status(),
        StatusCode::CONFLICT
    );
    // Another driver's CPF with this number: refused as a number that does not exist.
    let res = register(&t1, b_number, CPFS[0]).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        register(&t2, b_number, CPFS[1]).await.status(),
        StatusCode::CREATED
    );

    let (status, list) = drivers_of(&app, &t1).await;
    assert_eq!(status, StatusCode::OK);
    let numbers: Vec<&str> = list["drivers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["authorization_number"].as_str().unwrap())
        .collect();
    assert_eq!(numbers, [a_number], "{list}");
    let (_, list) = drivers_of(&app, &t2).await;
    assert_eq!(list["drivers"].as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list["drivers"][0]["authorization_number"], b_number);

    // A suspension reads at once in the platform's list.
    let path = format!(
        "/api/v1/app-authorizations/{}/sanctions",
        a["id"].as_str().unwrap()
    );
    let body = json!({"kind": "suspension", "effective_from": "2026-11-30", "days": 30,
                      "reason": "Reincidência", "legal_basis": "art. 26, §1º"});
    assert_eq!(app.post(&path, &body).await.status(), StatusCode::CREATED);
    let (_, list) = drivers_of(&app, &t1).await;
    assert_eq!(list["drivers"][0]["status"], "suspended", "{list}");
    assert_eq!(
        list["drivers"][0]["suspended_until"], "2026-12-30",
        "{list}"
    );

    // Not an official's: an official's token is 403, none or a made-up one 401; a platform's
    // credential opens nothing of the officials'.
    let official = app
        .official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let res = app
        .send_as(Some(&official), "get", "/api/v1/platform/drivers", None)
        .await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert_eq!(
        drivers_of(&app, "selo_plat_inventado").await.0,
        StatusCode::UNAUTHORIZED
    );
    let res = app
        .send_as(None, "get", "/api/v1/platform/drivers", None)
        .await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    let res = app
        .send_as(Some(&t1), "get", &format!("/api/v1/platforms/{p1}"), None)
        .await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);

    // A link ended is gone from the list, once.
    let body = json!({"authorization_number": b_number, "cpf": CPFS[1]});
    let res = app
        .send_as(
            Some(&t2),
            "post",
            "/api/v1/platform/driver-departures",
            Some(&body),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let (_, list) = drivers_of(&app, &t2).await;
    assert_eq!(list["drivers"], json!([]), "{list}");
    let res = app
        .send_as(
            Some(&t2),
            "post",
            "/api/v1/platform/driver-departures",
            Some(&body),
        )
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);

    // The back office issues one too, and shows its token once.
    let mut ana = crate::panel::Browser::new(&app);
    ana.sign_in("ana.smf", crate::helpers::OFFICIAL_PASSWORD)
        .await;
    let form_path = format!("/painel/acao/platform_api.issue_credential?id={p1}");
    let (status, form, _) = ana.get(&form_path).await;
    assert_eq!(status, StatusCode::OK, "{form}");
    assert!(form.contains("Nome da credencial"), "{form}");
    let csrf = crate::panel::field(&form, "_csrf").unwrap();
    let (status, page, _) = ana
        .post(
            &form_path,
            &[
                ("_csrf", csrf.as_str()),
                ("id", p1.as_str()),
                ("label", "Suporte"),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        page.contains("selo_plat_") && page.contains("não será mostrado de novo"),
        "{page}"
    );

    // Revoked: refused at once; the record keeps when and by whom, never the token.
    let revoke = format!("/api/v1/platforms/{p1}/credentials/{c1}/revocation");
    let res = app.post(&revoke, &json!({"reason": " "})).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let res = app
        .post(&revoke, &json!({"reason": "Vazou num repositório"}))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let c: Value = res.json().await.unwrap();
    assert!(
        c["revoked_at"].is_string() && c.get("access_token").is_none(),
        "{c}"
    );
    assert_eq!(drivers_of(&app, &t1).await.0, StatusCode::UNAUTHORIZED);
    // Another platform's credential id under this platform: not found.
    let res = app
        .post(
            &format!("/api/v1/platforms/{p2}/credentials/{c1}/revocation"),
            &json!({"reason": "x"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}
