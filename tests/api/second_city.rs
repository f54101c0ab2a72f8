//! One binary, another city: a municipality profile that names its own ride-hailing basis
//! serves documents, verification pages and the law's numbers of that city.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{CNHS, CPFS, PLATES, RENAVAMS, driver_body, spawn_app_for, vehicle_body};

fn fixture() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/second-city/perfil.toml")
}

#[tokio::test]
#[expect(
    clippy::too_many_lines,
    reason = "one city's walk: catalogue, refusal, grant, documents, verification"
)]
async fn a_second_citys_profile_and_basis_serve_documents_and_verification_naming_that_city() {
    let app = spawn_app_for(fixture()).await;

    // Its own basis is the one in force, with its own fines.
    let catalogue: Value = app
        .get("/api/v1/app-infractions")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        catalogue["legal_basis_version"],
        "PATROCINIO-APP-FIXTURE/v1"
    );
    let fines: Vec<u64> = catalogue["infractions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["fine_upf"].as_u64().unwrap())
        .collect();
    assert!(fines.contains(&800) && !fines.contains(&950), "{fines:?}");
    // Its own infractions, cited as its law cites them: none of the draft's.
    for i in catalogue["infractions"].as_array().unwrap() {
        assert_eq!(i["article"], "Lei 5.832/2025, art. [a definir]", "{i}");
        assert!(i["id"].as_str().unwrap().starts_with("PAT-"), "{i}");
    }

    // A car plated in Barra do Garças is not accepted here, with this city's citation.
    let d = app.create_driver(&driver_body(CPFS[0], CNHS[0])).await;
    let there = app
        .create_vehicle(&vehicle_body(PLATES[0], RENAVAMS[0]))
        .await;
    let res = app.grant(&d, &there, "2026-11-20").await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = res.json().await.unwrap();
    let refusal = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["rule"] == "APP-ART8-P1-I")
        .unwrap_or_else(|| panic!("{body}"));
    assert_eq!(refusal["article"], "Lei 5.832/2025, art. [a definir]");

    // A car plated in Patrocínio is.
    let mut here = vehicle_body(PLATES[1], RENAVAMS[1]);
    here["registration_municipality_ibge"] = json!("3148103");
    let here = app.create_vehicle(&here).await;
    let res = app.grant(&d, &here, "2026-11-20").await;
    assert_eq!(
        res.status(),
        StatusCode::CREATED,
        "{}",
        res.text().await.unwrap()
    );
    let granted: Value = res.json().await.unwrap();
    assert_eq!(granted["legal_basis_version"], "PATROCINIO-APP-FIXTURE/v1");

    // The documents name the city, and are signed in its name.
    for kind in ["app_authorization", "app_sticker"] {
        let pdf = app.document_bytes(&granted, kind).await;
        let text = crate::pdf::pdf_text(&pdf);
        assert!(text.contains("PATROCÍNIO"), "{kind}: {text}");
        assert!(
            !text.contains("GARÇAS") && !text.contains("Garças"),
            "{kind}: {text}"
        );
        // The signature's location, a PDF text string in UTF-16BE written in hexadecimal.
        let location = "Patrocínio-MG"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .fold(String::new(), |mut hex, b| {
                use std::fmt::Write as _;
                write!(hex, "{b:02X}").unwrap();
                hex
            });
        let raw = String::from_utf8_lossy(&pdf).to_uppercase();
        assert!(raw.contains(&location), "{kind}: no signature location");
    }
    // Issued and signed by the secretariat its basis names, a secretariat of its profile.
    let text = crate::pdf::pdf_text(&app.document_bytes(&granted, "app_authorization").await);
    assert!(text.contains("Patrocínio-MG"), "{text}");
    assert!(
        text.contains("A Secretaria Municipal de Trânsito e Transportes de Patrocínio-MG")
            && text.contains("Secretário(a) Municipal de Trânsito e Transportes"),
        "{text}"
    );

    // Its provisions are its basis's: none of the draft's articles, its own placeholders.
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("com fundamento no art. [a definir] da Lei Municipal nº 5.832"),
        "{flat}"
    );
    for draft in [
        "art. 3º",
        "art. 13, I",
        "art. 14",
        "art. 16",
        "arts. 2º, 3º",
    ] {
        assert!(!flat.contains(draft), "{draft}: {flat}");
    }
    let sticker_text = crate::pdf::pdf_text(&app.document_bytes(&granted, "app_sticker").await);
    let sticker_flat = sticker_text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        sticker_flat.contains("Art. [a definir] da Lei Municipal nº 5.832"),
        "{sticker_flat}"
    );
    assert!(!sticker_flat.contains("Art. 14"), "{sticker_flat}");

    // The verification page, the code page and the field app name it too; the sticker
    // verifies.
    let sticker = granted["documents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["kind"] == "app_sticker")
        .unwrap();
    let url = sticker["verification_url"].as_str().unwrap();
    let token = url.rsplit('/').next().unwrap();
    let (status, verdict) = app.verify(token).await;
    assert_eq!(
        (status, verdict["verdict"].as_str()),
        (StatusCode::OK, Some("valid"))
    );
    for path in [
        format!("/v/{token}"),
        "/v".to_owned(),
        "/fiscal/".to_owned(),
    ] {
        let page = app.get(&path).await.text().await.unwrap();
        assert!(
            page.contains("Prefeitura Municipal de Patrocínio – MG"),
            "{path}: {page}"
        );
        assert!(!page.contains("Garças"), "{path}: {page}");
    }
}

#[tokio::test]
async fn a_second_citys_calendar_is_its_profiles() {
    let app = spawn_app_for(fixture()).await;
    // Its calendar is its own: its municipal holiday closes the office and moves a deadline,
    // Barra do Garças's Santo Antônio does not.
    let cal: Value = app.get("/api/v1/calendar/2026").await.json().await.unwrap();
    let days = cal["closed_days"].as_array().unwrap();
    let has = |date: &str| days.iter().any(|d| d["date"] == date);
    assert!(has("2026-08-14") && !has("2026-06-13"), "{cal}");
    let due: Value = app
        .get("/api/v1/deadlines?start=2026-07-30&days=15")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(due["due"], "2026-08-17", "{due}");
    let due: Value = app
        .get("/api/v1/deadlines?start=2025-05-29&days=15")
        .await
        .json()
        .await
        .unwrap();
    // Friday 13/06/2025: a business day here (in Barra do Garças, Monday 16/06).
    assert_eq!(due["due"], "2025-06-13", "{due}");
}
