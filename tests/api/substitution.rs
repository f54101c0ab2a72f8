//! APP-ART8-P2 (replacing the authorized car) and APP-ART15 (how the driver holds it).

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{
    CNHS, CPFS, PLATES, RENAVAMS, driver_body, failures, pdf_info, pdf_text, qr_codes, spawn_app,
    sticker_url, token_of, vehicle_body,
};

fn substitution(vehicle_id: &str, cause: &str, on: &str, approved: bool) -> Value {
    json!({
        "new_vehicle_id": vehicle_id,
        "cause": cause,
        "vistoria": {"performed_on": on, "approved": approved, "inspector": "Fiscal SMF"},
    })
}

/// A grant with its vistoria on 30/11/2026, ten days later, and a second car registered.
async fn granted_then_a_new_car(app: &crate::helpers::TestApp) -> (Value, String) {
    let grant = app.granted().await;
    assert_eq!(
        app.vistoria(&grant, "2026-11-30", true).await.status(),
        StatusCode::CREATED
    );
    app.clock.advance(chrono::Duration::days(10));
    let new_vehicle = app
        .create_vehicle(&vehicle_body(PLATES[1], RENAVAMS[1]))
        .await;
    (grant, new_vehicle)
}

#[tokio::test]
async fn app_art8_p2_replacing_the_car_reissues_the_sticker_and_retires_the_old_one() {
    let app = spawn_app().await;
    // Ten days after the grant the car is sold.
    let (grant, new_vehicle) = granted_then_a_new_car(&app).await;
    let id = grant["id"].as_str().unwrap();
    let old_vehicle = grant["vehicle_id"].as_str().unwrap().to_owned();
    let old_sticker = sticker_url(&grant);

    let res = app
        .post(
            &format!("/api/v1/app-authorizations/{id}/vehicle-substitutions"),
            &substitution(&new_vehicle, "venda", "2026-12-09", true),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let after: Value = res.json().await.unwrap();
    // Same authorization, same number and validity (INTERP), new car.
    assert_eq!(after["id"], grant["id"]);
    assert_eq!(after["number"], grant["number"]);
    assert_eq!(after["valid_until"], grant["valid_until"]);
    assert_eq!(after["vehicle_id"], new_vehicle.as_str());
    assert_eq!(after["vehicle_substitutions"], 1);
    assert_eq!(after["status"], "active");
    // The new car's vistoria restarts the annual one (APP-ART16).
    assert_eq!(after["inspection"]["vistoria_valid_until"], "2027-12-09");
    let new_sticker = sticker_url(&after);
    assert_ne!(new_sticker, old_sticker);
    let ids = |v: &Value| -> Vec<String> {
        v["documents"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["id"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(ids(&after).len(), 2);
    assert!(ids(&after).iter().all(|d| !ids(&grant).contains(d)));

    // The new sticker names the new plate, prints its QR and verifies; the old one no
    // longer authorizes anything.
    let pdf = app.document_bytes(&after, "app_sticker").await;
    assert!(pdf_text(&pdf).contains("ABC-1234"), "{}", pdf_text(&pdf));
    assert_eq!(qr_codes(&pdf), std::slice::from_ref(&new_sticker));
    let authorization = app.document_bytes(&after, "app_authorization").await;
    assert!(pdf_info(&authorization).contains("Pages:           1"));
    let text = pdf_text(&authorization);
    assert!(text.contains("ABC-1234"), "{text}");
    assert!(text.contains("1ª substituição"), "{text}");
    assert!(
        !pdf_text(&app.document_bytes(&grant, "app_authorization").await).contains("substituição")
    );
    let (status, new) = app.verify(&token_of(&new_sticker)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(new["verdict"], "valid", "{new}");
    assert_eq!(new["document"]["plate"], "ABC-1234");
    let (_, old) = app.verify(&token_of(&old_sticker)).await;
    assert_eq!(old["verdict"], "replaced", "{old}");
    assert_eq!(old["document"]["plate"], "BRA2E19");
    let page = app
        .get(&format!("/v/{}", token_of(&old_sticker)))
        .await
        .text()
        .await
        .unwrap();
    assert!(page.contains("VEÍCULO SUBSTITUÍDO"), "{page}");

    // Art. 8º: the old car left the authorization, so another driver may bring it; the new
    // one is bound and may not.
    let other = app.create_driver(&driver_body(CPFS[1], CNHS[1])).await;
    let res = app.grant(&other, &new_vehicle, "2026-11-20").await;
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["errors"][0]["rule"], "APP-ART8", "{body}");
    assert_eq!(body["errors"][0]["field"], "vehicle_id");
    assert_eq!(
        app.grant(&other, &old_vehicle, "2026-11-20").await.status(),
        StatusCode::CREATED
    );

    // The acts are in the histories of the authorization and of both cars.
    let authorization = app
        .event_kinds(&format!("/api/v1/app-authorizations/{id}/history"))
        .await;
    assert!(authorization.contains(&"vehicle_substituted".to_owned()));
    let old = app
        .event_kinds(&format!("/api/v1/vehicles/{old_vehicle}/history"))
        .await;
    assert!(old.contains(&"unbound".to_owned()), "{old:?}");
    let new = app
        .event_kinds(&format!("/api/v1/vehicles/{new_vehicle}/history"))
        .await;
    assert!(new.contains(&"bound".to_owned()), "{new:?}");
}

/// Read as of a past day by an official, a sticker is what it was then: valid before its car
/// was replaced, replaced from that day; the new one did not exist before it.
#[tokio::test]
async fn a_stickers_verdict_as_of_a_past_day_follows_the_replacement() {
    let app = spawn_app().await;
    let (grant, new_vehicle) = granted_then_a_new_car(&app).await;
    let id = grant["id"].as_str().unwrap();
    let old_sticker = sticker_url(&grant);
    let res = app
        .post(
            &format!("/api/v1/app-authorizations/{id}/vehicle-substitutions"),
            &substitution(&new_vehicle, "venda", "2026-12-09", true),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let after: Value = res.json().await.unwrap();
    let new_sticker = sticker_url(&after);
    let as_of = |url: &str, day: &str| {
        app.get_authed_owned(format!("/api/v1/verify/{}?as_of={day}", token_of(url)))
    };
    let before: Value = as_of(&old_sticker, "2026-12-05")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(before["verdict"], "valid", "{before}");
    let on: Value = as_of(&old_sticker, "2026-12-10")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(on["verdict"], "replaced", "{on}");
    assert_eq!(
        as_of(&new_sticker, "2026-12-05").await.status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let anonymous = app
        .get(&format!(
            "/api/v1/verify/{}?as_of=2026-12-05",
            token_of(&old_sticker)
        ))
        .await;
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn app_art8_p2_a_replacement_must_meet_the_law() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let id = grant["id"].as_str().unwrap();
    let path = format!("/api/v1/app-authorizations/{id}/vehicle-substitutions");
    let mut old_car = vehicle_body(PLATES[1], RENAVAMS[1]);
    old_car["model_year"] = json!(2013);
    let old_car = app.create_vehicle(&old_car).await;
    let good_car = app
        .create_vehicle(&vehicle_body(PLATES[2], RENAVAMS[2]))
        .await;

    // Art. 2º, §2º: too old; and the vistoria failed.
    let res = app
        .post(
            &path,
            &substitution(&old_car, "sinistro", "2026-11-29", false),
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = res.json().await.unwrap();
    assert_eq!(
        failures(&body),
        [
            ("APP-ART2-P2".into(), "vehicle.model_year".into()),
            ("APP-ART8-P2".into(), "vistoria.approved".into()),
        ]
    );
    // The car already authorized is not a replacement.
    let current = grant["vehicle_id"].as_str().unwrap();
    let body: Value = app
        .post(&path, &substitution(current, "venda", "2026-11-29", true))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        failures(&body),
        [("APP-ART8-P2".into(), "new_vehicle_id".into())]
    );
    // A car bound to another driver's authorization is not free.
    let other = app.create_driver(&driver_body(CPFS[1], CNHS[1])).await;
    assert_eq!(
        app.grant(&other, &good_car, "2026-11-20").await.status(),
        StatusCode::CREATED
    );
    let body: Value = app
        .post(
            &path,
            &substitution(&good_car, "locacao", "2026-11-29", true),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        failures(&body),
        [("APP-ART8".into(), "new_vehicle_id".into())]
    );
    // Field errors: unknown cause, future vistoria.
    let body: Value = app
        .post(&path, &substitution(&good_car, "troca", "2026-12-25", true))
        .await
        .json()
        .await
        .unwrap();
    let fields: Vec<&str> = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["cause", "vistoria.performed_on"], "{body}");
    // Nothing was replaced: the sticker in force is still the granted one.
    let now: Value = app
        .get_json(&format!("/api/v1/app-authorizations/{id}"))
        .await;
    assert_eq!(now["vehicle_substitutions"], 0);
    assert_eq!(now["documents"], grant["documents"]);
    let (_, v) = app.verify(&token_of(&sticker_url(&grant))).await;
    assert_eq!(v["verdict"], "valid");
}

#[tokio::test]
async fn app_art8_p2_a_revoked_authorization_has_no_car_to_replace() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let id = grant["id"].as_str().unwrap();
    let path = format!("/api/v1/app-authorizations/{id}/vehicle-substitutions");
    app.post(
        &format!("/api/v1/app-authorizations/{id}/revocation"),
        &json!({"reason": "Pedido do condutor"}),
    )
    .await;
    let spare = app
        .create_vehicle(&vehicle_body("RST4U56", "63110465006"))
        .await;
    let body: Value = app
        .post(&path, &substitution(&spare, "venda", "2026-11-29", true))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["errors"][0]["rule"], "APP-ART8-P2", "{body}");
    assert_eq!(body["errors"][0]["field"], "authorization");
    assert_eq!(body["errors"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn app_art15_how_the_driver_holds_the_car() {
    let app = spawn_app().await;
    let driver = app.create_driver(&driver_body(CPFS[0], CNHS[0])).await;
    // Registration asks for it, with the holder's document of the right kind.
    let mut v = vehicle_body(PLATES[0], RENAVAMS[0]);
    v.as_object_mut().unwrap().remove("owner_type");
    let res = app.post("/api/v1/vehicles", &v).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["errors"][0]["field"], "owner_type", "{body}");
    let mut v = vehicle_body(PLATES[0], RENAVAMS[0]);
    v["owner_document"] = json!("529.982.247-25");
    let body: Value = app.post("/api/v1/vehicles", &v).await.json().await.unwrap();
    assert_eq!(body["errors"][0]["field"], "owner_document", "{body}");

    // In the driver's own name: the CRLV holder must be the driver.
    let mut someone_elses = vehicle_body(PLATES[0], RENAVAMS[0]);
    someone_elses["owner_type"] = json!("proprietario");
    someone_elses["owner_document"] = json!(CPFS[1]);
    let someone_elses_car = app.create_vehicle(&someone_elses).await;
    let body: Value = app
        .grant(&driver, &someone_elses_car, "2026-11-20")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["errors"][0]["rule"], "APP-ART15", "{body}");
    assert_eq!(body["errors"][0]["field"], "vehicle.owner_document");
    let mut own = vehicle_body(PLATES[1], RENAVAMS[1]);
    own["owner_type"] = json!("fiduciante");
    own["owner_document"] = json!(CPFS[0]);
    let car = app.create_vehicle(&own).await;
    assert_eq!(
        app.grant(&driver, &car, "2026-11-20").await.status(),
        StatusCode::CREATED
    );

    // The holder of the first car lends it with an express authorization: declared, another
    // driver may be granted it.
    let other = app.create_driver(&driver_body(CPFS[2], CNHS[2])).await;
    let res = app
        .post(
            &format!("/api/v1/vehicles/{someone_elses_car}/owner"),
            &json!({"owner_type": "autorizacao_expressa", "owner_document": CPFS[1]}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        res.json::<Value>().await.unwrap()["owner_type"],
        "autorizacao_expressa"
    );
    let history = app
        .event_kinds(&format!("/api/v1/vehicles/{someone_elses_car}/history"))
        .await;
    assert!(
        history.contains(&"owner_declared".to_owned()),
        "{history:?}"
    );
    let res = app.grant(&other, &someone_elses_car, "2026-11-20").await;
    assert_eq!(res.status(), StatusCode::CREATED);
}

/// A substitution records the day its request was protocolled
/// (never future), in the register and in the history; the new car is judged at the act.
#[tokio::test]
async fn app_art8_p2_a_substitution_records_its_protocol_date() {
    let app = spawn_app().await;
    let (grant, new_vehicle) = granted_then_a_new_car(&app).await;
    let id = grant["id"].as_str().unwrap();
    let path = format!("/api/v1/app-authorizations/{id}/vehicle-substitutions");
    let mut body = substitution(&new_vehicle, "venda", "2026-12-09", true);
    body["protocolled_on"] = json!("2026-12-11");
    let res = app.post(&path, &body).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let problem: Value = res.json().await.unwrap();
    assert_eq!(problem["errors"][0]["field"], "protocolled_on", "{problem}");
    body["protocolled_on"] = json!("2026-12-04");
    let res = app.post(&path, &body).await;
    assert_eq!(
        res.status(),
        StatusCode::CREATED,
        "{}",
        res.text().await.unwrap()
    );
    let history = app
        .get_json(&format!("/api/v1/app-authorizations/{id}/history"))
        .await;
    let substituted = history["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "vehicle_substituted")
        .unwrap_or_else(|| panic!("no substitution event: {history}"));
    assert_eq!(substituted["data"]["protocolled_on"], "2026-12-04");
}
