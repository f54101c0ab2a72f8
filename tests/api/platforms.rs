use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::spawn_app;

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
