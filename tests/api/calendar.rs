use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::spawn_app;

async fn due(app: &crate::helpers::TestApp, start: &str, days: u32) -> Value {
    let res = app
        .get(&format!("/api/v1/deadlines?start={start}&days={days}"))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    res.json().await.unwrap()
}

/// S09 and S11 through the API: the seeded recess of Decreto nº 5.802/2025 extends deadlines.
#[tokio::test]
async fn deadlines_are_extended_by_holidays_and_the_seeded_recess() {
    let app = spawn_app().await;
    let s09 = due(&app, "2025-10-17", 15).await;
    assert_eq!(s09["raw_end"], "2025-11-01");
    assert_eq!(s09["due"], "2025-11-03");
    let s11 = due(&app, "2025-12-05", 15).await;
    assert_eq!(s11["due"], "2026-01-05");
    assert!(s11["explanation"].as_str().unwrap().contains("05/01/2026"));
    assert!(
        s11["extended_because"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["reason"].as_str().unwrap().contains("5.802/2025"))
    );
}

#[tokio::test]
async fn a_decreed_ponto_facultativo_moves_deadlines_and_shows_in_the_calendar() {
    let app = spawn_app().await;
    // 2026-11-20 (Friday) is a holiday; 15 days from 2026-11-16 end on Tuesday 2026-12-01.
    assert_eq!(due(&app, "2026-11-16", 15).await["due"], "2026-12-01");
    let body = json!({"from": "2026-12-01", "kind": "ponto_facultativo", "description": "Ponto facultativo", "act": "Decreto nº 9.999/2026"});
    let res = app.post("/api/v1/calendar/closed-days", &body).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(due(&app, "2026-11-16", 15).await["due"], "2026-12-02");
    // The same day twice is a conflict; without a token, 401.
    assert_eq!(
        app.post("/api/v1/calendar/closed-days", &body)
            .await
            .status(),
        StatusCode::CONFLICT
    );
    let res = app
        .client
        .post(app.url("/api/v1/calendar/closed-days"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);

    let cal: Value = app.get("/api/v1/calendar/2026").await.json().await.unwrap();
    let days = cal["closed_days"].as_array().unwrap();
    let has = |date: &str| days.iter().any(|d| d["date"] == date);
    assert!(has("2026-04-03"), "Good Friday 2026");
    assert!(has("2026-01-02"), "recess of Decreto nº 5.802/2025");
    assert!(has("2026-12-01"), "the decreed ponto facultativo");
    assert!(has("2026-06-13"), "Santo Antônio");
    assert!(!has("2026-09-15"), "the anniversary is off by default");
}

#[tokio::test]
async fn bad_calendar_inputs_are_problems() {
    let app = spawn_app().await;
    assert_eq!(
        app.get("/api/v1/deadlines?start=2025-13-01&days=15")
            .await
            .status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        app.get("/api/v1/deadlines?start=2025-10-17&days=0")
            .await
            .status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        app.get("/api/v1/deadlines?start=2025-10-17").await.status(),
        StatusCode::BAD_REQUEST
    );
    let body =
        json!({"from": "2026-12-10", "until": "2026-12-01", "kind": "recess", "description": "x"});
    assert_eq!(
        app.post("/api/v1/calendar/closed-days", &body)
            .await
            .status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let body = json!({"from": "2026-12-10", "kind": "feriado", "description": "x"});
    assert_eq!(
        app.post("/api/v1/calendar/closed-days", &body)
            .await
            .status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
}

/// S12 through the API: 13/06 (Santo Antônio, municipal holiday by default) moves the due day.
#[tokio::test]
async fn s12_santo_antonio_moves_the_defence_to_monday() {
    let app = spawn_app().await;
    let s12 = due(&app, "2025-05-29", 15).await;
    assert_eq!(s12["raw_end"], "2025-06-13");
    assert_eq!(s12["due"], "2025-06-16");
}
