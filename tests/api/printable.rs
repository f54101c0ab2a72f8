//! Any name an official can type prints, or is refused at the door — never
//! a 500 after a number was reserved.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{CNHS, CPFS, PLATES, RENAVAMS, driver_body, spawn_app, vehicle_body};

#[tokio::test]
async fn a_name_the_documents_cannot_print_is_refused_with_the_field_and_the_character() {
    let app = spawn_app().await;
    for (name, shown) in [
        ("Maria 😀 Souza", "U+1F600"),
        ("李雷", "U+674E"),
        ("Ana\u{FFFE}", "U+FFFE"),
        ("𝐌aria", "U+1D40C"),
    ] {
        let mut body = driver_body(CPFS[0], CNHS[0]);
        body["name"] = json!(name);
        let res = app.post("/api/v1/drivers", &body).await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY, "{name}");
        let p: Value = res.json().await.unwrap();
        assert_eq!(p["errors"][0]["field"], "name", "{p}");
        let message = p["errors"][0]["message"].as_str().unwrap();
        assert!(message.contains(shown), "{message}");
    }
    // Nested fields are named by their path.
    let mut body = driver_body(CPFS[0], CNHS[0]);
    body["criminal_certificates"][2]["court"] = json!("federal_1 🚗");
    let res = app.post("/api/v1/drivers", &body).await;
    let p: Value = res.json().await.unwrap();
    assert_eq!(
        p["errors"][0]["field"], "criminal_certificates[2].court",
        "{p}"
    );
    // A charter company's name too.
    let res = app
        .post(
            "/api/v1/charter/companies",
            &json!({"cnpj": "11.222.333/0001-81", "name": "Fretamentos ★ Estrela"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let p: Value = res.json().await.unwrap();
    assert_eq!(p["errors"][0]["field"], "name", "{p}");
}

#[tokio::test]
async fn greek_and_cyrillic_names_register_grant_and_print() {
    let app = spawn_app().await;
    for (i, name) in ["Σωκράτης Παπαδόπουλος", "Пётр Ильич Чайковский"]
        .into_iter()
        .enumerate()
    {
        let mut body = driver_body(CPFS[i], CNHS[i]);
        body["name"] = json!(name);
        let driver = app.create_driver(&body).await;
        let vehicle = app
            .create_vehicle(&vehicle_body(PLATES[i], RENAVAMS[i]))
            .await;
        let res = app.grant(&driver, &vehicle, "2026-11-20").await;
        assert_eq!(res.status(), StatusCode::CREATED, "{name}");
        let grant: Value = res.json().await.unwrap();
        // Numbers follow on: nothing was voided for a document that could not render.
        assert_eq!(grant["number"], format!("APP-2026/00000{}", i + 1));
        let text = crate::helpers::pdf_text(&app.document_bytes(&grant, "app_authorization").await);
        assert!(text.contains(name), "{name} missing from:\n{text}");
    }
}
