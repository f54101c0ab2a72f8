use chrono::Duration;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::spawn_app;

fn auto_body(driver: &str, infraction: &str, committed_at: &str) -> Value {
    json!({"infraction_id": infraction, "driver_id": driver, "committed_at": committed_at,
           "place": "Av. Ministro João Alberto, em frente à rodoviária", "facts": "Embarcou passageiro na via pública sem intermediação da plataforma.",
           "inspector": "Fiscal de Posturas, matrícula 1234"})
}

/// APP-ART25 with the UPF table (AMB-03), APP-ART26-P1 recidivism, APP-ART22 deadlines.
#[tokio::test]
async fn autos_compute_fines_recidivism_and_procedure_deadlines() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let driver = grant["driver_id"].as_str().unwrap();

    // Without the year's UPF value the R$ amount is unknown, never guessed.
    let res = app
        .post(
            "/api/v1/app-infraction-autos",
            &auto_body(driver, "APP-ART26-IV", "2026-11-30T09:00:00-04:00"),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let first: Value = res.json().await.unwrap();
    assert_eq!(first["number"], "AI-APP-2026/000001");
    assert_eq!(first["fine"]["upf"], 570);
    assert!(first["fine"]["centavos"].is_null());
    assert_eq!(first["proposed_consequences"].as_array().unwrap().len(), 1);

    let res = app
        .client
        .put(app.url("/api/v1/upf-values/2026"))
        .bearer_auth(crate::helpers::ADMIN_TOKEN)
        .json(&json!({"centavos": 10_050, "act": "Decreto nº 1/2026"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);

    // Repeating art. 26 IV within 12 months: fine in R$ and a proposed 30-day suspension.
    app.clock.advance(Duration::days(10));
    let second: Value = app
        .post(
            "/api/v1/app-infraction-autos",
            &auto_body(driver, "APP-ART26-IV", "2026-12-09T20:00:00-04:00"),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(second["number"], "AI-APP-2026/000002");
    assert_eq!(second["fine"]["centavos"], 5_728_500);
    assert_eq!(second["fine"]["value"], "R$\u{a0}57.285,00");
    assert_eq!(
        second["fine"]["value_in_words"],
        "cinquenta e sete mil duzentos e oitenta e cinco reais"
    );
    let proposed = &second["proposed_consequences"][1];
    assert_eq!(
        (proposed["kind"].as_str(), proposed["days"].as_i64()),
        (Some("suspension"), Some(30))
    );
    assert_eq!(proposed["article"], "art. 26, §1º");

    // Notification: defence 15 days from the juntada, payment 30 days after it.
    let id = second["id"].as_str().unwrap();
    let n = json!({"method": "post", "notified_on": "2026-12-14", "juntada_on": "2026-12-15"});
    let res = app
        .post(
            &format!("/api/v1/app-infraction-autos/{id}/notification"),
            &n,
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let notified: Value = res.json().await.unwrap();
    assert_eq!(notified["deadlines"]["dispatched_in_time"], true);
    // 15/12/2026 + 15 = 30/12/2026 (Wednesday, no recess decreed for 2026 yet).
    assert_eq!(notified["deadlines"]["defence_due"]["due"], "2026-12-30");
    assert!(notified["deadlines"].get("recommendation").is_none());
    assert_eq!(
        app.post(
            &format!("/api/v1/app-infraction-autos/{id}/notification"),
            &n
        )
        .await
        .status(),
        StatusCode::CONFLICT
    );

    let h: Value = app
        .get_authed(&format!("/api/v1/app-infraction-autos/{id}/history"))
        .await
        .json()
        .await
        .unwrap();
    let kinds: Vec<&str> = h["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["drawn_up", "notified"]);
}

/// APP-ART22-P1: a notice sent more than 90 days after the auto is late; archive it.
#[tokio::test]
async fn a_late_notice_recommends_archiving() {
    let app = spawn_app().await;
    let driver = app
        .create_driver(&crate::helpers::driver_body(
            crate::helpers::CPFS[0],
            crate::helpers::CNHS[0],
        ))
        .await;
    let a: Value = app
        .post(
            "/api/v1/app-infraction-autos",
            &auto_body(&driver, "APP-ART27", "2026-11-30T08:00:00-04:00"),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(a["fine"]["upf"], 950);
    let id = a["id"].as_str().unwrap();
    let n = json!({"method": "edital", "notified_on": "2027-03-15", "juntada_on": "2027-03-16"});
    let late: Value = app
        .post(
            &format!("/api/v1/app-infraction-autos/{id}/notification"),
            &n,
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(late["deadlines"]["dispatched_in_time"], false);
    assert!(
        late["deadlines"]["recommendation"]
            .as_str()
            .unwrap()
            .contains("arquivamento")
    );
}

#[tokio::test]
async fn auto_inputs_are_validated() {
    let app = spawn_app().await;
    let driver = app
        .create_driver(&crate::helpers::driver_body(
            crate::helpers::CPFS[0],
            crate::helpers::CNHS[0],
        ))
        .await;
    for body in [
        auto_body(&driver, "APP-ART99", "2026-11-30T08:00:00-04:00"),
        auto_body(&driver, "APP-ART26-I", "30/11/2026 08:00"),
        auto_body(&driver, "APP-ART26-I", "2026-12-30T08:00:00-04:00"),
        auto_body(
            "00000000-0000-4000-8000-000000000000",
            "APP-ART26-I",
            "2026-11-30T08:00:00-04:00",
        ),
    ] {
        assert_eq!(
            app.post("/api/v1/app-infraction-autos", &body)
                .await
                .status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}"
        );
    }
    let res = app
        .client
        .post(app.url("/api/v1/app-infraction-autos"))
        .json(&auto_body(
            &driver,
            "APP-ART26-I",
            "2026-11-30T08:00:00-04:00",
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
}
