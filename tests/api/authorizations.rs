use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{CNHS, CPFS, PLATES, RENAVAMS, driver_body, spawn_app, vehicle_body};

#[tokio::test]
async fn granting_returns_number_validity_documents_and_verification_url() {
    let app = spawn_app().await;
    let body = app.granted().await;
    assert_eq!(body["number"], "APP-2026/000001");
    // APP-ART3-PU: 12 months from fee payment (DL-6).
    assert_eq!(body["valid_from"], "2026-11-20");
    assert_eq!(body["valid_until"], "2027-11-20");
    assert_eq!(body["status"], "active");
    assert_eq!(body["legal_basis_version"], "APP-MINUTA-2023-11-23/v1");
    let kinds: Vec<&str> = body["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["app_authorization", "app_sticker"]);
    assert!(
        body["verification_url"]
            .as_str()
            .unwrap()
            .starts_with("https://selo.example.test/v/")
    );

    let id = body["id"].as_str().unwrap();
    let res = app
        .get_authed(&format!("/api/v1/app-authorizations/{id}"))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let fetched: Value = res.json().await.unwrap();
    assert_eq!(fetched["number"], body["number"]);
    assert_eq!(fetched["documents"], body["documents"]);
}

#[tokio::test]
async fn numbers_are_sequential_per_year() {
    let app = spawn_app().await;
    let mut numbers = Vec::new();
    for i in 0..3 {
        let d = app.create_driver(&driver_body(CPFS[i], CNHS[i])).await;
        let v = app
            .create_vehicle(&vehicle_body(PLATES[i], RENAVAMS[i]))
            .await;
        let res = app.grant(&d, &v, "2026-11-20").await;
        assert_eq!(res.status(), StatusCode::CREATED);
        numbers.push(
            res.json::<Value>().await.unwrap()["number"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    assert_eq!(
        numbers,
        ["APP-2026/000001", "APP-2026/000002", "APP-2026/000003"]
    );
}

/// Applies `change` to otherwise eligible inputs and expects a 422 naming exactly `rule`.
async fn expect_single_failure(
    change: impl Fn(&mut Value, &mut Value, &mut String),
    rule: &str,
    field: &str,
) {
    let app = spawn_app().await;
    let mut driver = driver_body(CPFS[0], CNHS[0]);
    let mut vehicle = vehicle_body(PLATES[0], RENAVAMS[0]);
    let mut fee = "2026-11-20".to_owned();
    change(&mut driver, &mut vehicle, &mut fee);
    let d = app.create_driver(&driver).await;
    let v = app.create_vehicle(&vehicle).await;
    let res = app.grant(&d, &v, &fee).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY, "{rule}");
    assert_eq!(res.headers()["content-type"], "application/problem+json");
    let body: Value = res.json().await.unwrap();
    let errors = body["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{rule}: {body}");
    assert_eq!(errors[0]["rule"], rule);
    assert_eq!(errors[0]["field"], field);
    assert!(errors[0]["article"].as_str().unwrap().starts_with("art."));
    assert!(!errors[0]["message"].as_str().unwrap().is_empty());
}

#[tokio::test]
async fn app_art12_i_cnh_category_a_is_rejected() {
    expect_single_failure(
        |d, _, _| d["cnh"]["category"] = json!("A"),
        "APP-ART12-I",
        "cnh.category",
    )
    .await;
}

#[tokio::test]
async fn app_art12_i_cnh_without_ear_is_rejected() {
    expect_single_failure(
        |d, _, _| d["cnh"]["ear"] = json!(false),
        "APP-ART12-I",
        "cnh.ear",
    )
    .await;
}

#[tokio::test]
async fn app_art12_i_licence_younger_than_two_years_is_rejected() {
    // Granted on 30/11/2026: a first licence of 01/12/2024 is one day short.
    expect_single_failure(
        |d, _, _| d["cnh"]["first_license_date"] = json!("2024-12-01"),
        "APP-ART12-I",
        "cnh.first_license_date",
    )
    .await;
}

#[tokio::test]
async fn app_art12_i_expired_cnh_is_rejected() {
    expect_single_failure(
        |d, _, _| d["cnh"]["expires_on"] = json!("2026-11-29"),
        "APP-ART12-I",
        "cnh.expires_on",
    )
    .await;
}

#[tokio::test]
async fn app_art2_p2_car_older_than_twelve_model_years_is_rejected() {
    expect_single_failure(
        |_, v, _| v["model_year"] = json!(2013),
        "APP-ART2-P2",
        "vehicle.model_year",
    )
    .await;
}

#[tokio::test]
async fn app_art2_p1_two_door_car_is_rejected() {
    expect_single_failure(
        |_, v, _| v["doors"] = json!(2),
        "APP-ART2-P1",
        "vehicle.doors",
    )
    .await;
}

#[tokio::test]
async fn app_art2_p1_car_without_air_conditioning_is_rejected() {
    expect_single_failure(
        |_, v, _| v["air_conditioning"] = json!(false),
        "APP-ART2-P1",
        "vehicle.air_conditioning",
    )
    .await;
}

#[tokio::test]
async fn app_art2_car_for_more_than_seven_people_is_rejected() {
    expect_single_failure(
        |_, v, _| v["capacity_including_driver"] = json!(8),
        "APP-ART2",
        "vehicle.capacity_including_driver",
    )
    .await;
}

#[tokio::test]
async fn app_art8_p1_i_car_registered_elsewhere_is_rejected() {
    // Cuiabá-MT (5103403) is not one of the three municipalities.
    expect_single_failure(
        |_, v, _| v["registration_municipality_ibge"] = json!(5_103_403),
        "APP-ART8-P1-I",
        "vehicle.registration_municipality_ibge",
    )
    .await;
}

#[tokio::test]
async fn app_art3_pu_fee_paid_in_the_future_is_rejected() {
    expect_single_failure(
        |_, _, fee| *fee = "2026-12-01".into(),
        "APP-ART3-PU",
        "fee_paid_on",
    )
    .await;
}

#[tokio::test]
async fn every_failed_requirement_is_listed_at_once() {
    let app = spawn_app().await;
    let mut driver = driver_body(CPFS[0], CNHS[0]);
    driver["cnh"]["ear"] = json!(false);
    let mut vehicle = vehicle_body(PLATES[0], RENAVAMS[0]);
    vehicle["doors"] = json!(2);
    vehicle["air_conditioning"] = json!(false);
    vehicle["registration_municipality_ibge"] = json!("5103403");
    let d = app.create_driver(&driver).await;
    let v = app.create_vehicle(&vehicle).await;
    let body: Value = app.grant(&d, &v, "2026-11-20").await.json().await.unwrap();
    let rules: Vec<&str> = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["rule"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        ["APP-ART12-I", "APP-ART2-P1", "APP-ART2-P1", "APP-ART8-P1-I"]
    );
}

#[tokio::test]
async fn app_art8_one_active_authorization_per_driver_and_per_vehicle() {
    let app = spawn_app().await;
    let first = app.granted().await;
    let driver_id = first["driver_id"].as_str().unwrap();
    let vehicle_id = first["vehicle_id"].as_str().unwrap();

    let other_vehicle = app
        .create_vehicle(&vehicle_body(PLATES[1], RENAVAMS[1]))
        .await;
    let body: Value = app
        .grant(driver_id, &other_vehicle, "2026-11-20")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["errors"][0]["rule"], "APP-ART8");
    assert_eq!(body["errors"][0]["field"], "driver_id");

    let other_driver = app.create_driver(&driver_body(CPFS[1], CNHS[1])).await;
    let body: Value = app
        .grant(&other_driver, vehicle_id, "2026-11-20")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["errors"][0]["rule"], "APP-ART8");
    assert_eq!(body["errors"][0]["field"], "vehicle_id");

    // Once revoked, the driver may be authorized again.
    let id = first["id"].as_str().unwrap();
    let res = app
        .post(
            &format!("/api/v1/app-authorizations/{id}/revocation"),
            &json!({"reason": "Pedido do condutor"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        app.grant(driver_id, &other_vehicle, "2026-11-20")
            .await
            .status(),
        StatusCode::CREATED
    );
}

#[tokio::test]
async fn concurrent_grants_for_one_driver_yield_exactly_one_authorization() {
    let app = spawn_app().await;
    let d = app.create_driver(&driver_body(CPFS[0], CNHS[0])).await;
    let v1 = app
        .create_vehicle(&vehicle_body(PLATES[0], RENAVAMS[0]))
        .await;
    let v2 = app
        .create_vehicle(&vehicle_body(PLATES[1], RENAVAMS[1]))
        .await;
    let (a, b) = tokio::join!(
        app.grant(&d, &v1, "2026-11-20"),
        app.grant(&d, &v2, "2026-11-20")
    );
    let mut statuses = [a.status(), b.status()];
    statuses.sort();
    assert_eq!(
        statuses,
        [StatusCode::CREATED, StatusCode::UNPROCESSABLE_ENTITY]
    );
    // The loser's reserved number, if any, was voided, not issued: the next grant still gets
    // a fresh number and no number is shared.
    let v3 = app
        .create_vehicle(&vehicle_body(PLATES[2], RENAVAMS[2]))
        .await;
    let d2 = app.create_driver(&driver_body(CPFS[1], CNHS[1])).await;
    let third: Value = app
        .grant(&d2, &v3, "2026-11-20")
        .await
        .json()
        .await
        .unwrap();
    let winner: Value = if a.status() == StatusCode::CREATED {
        a.json().await.unwrap()
    } else {
        b.json().await.unwrap()
    };
    assert_ne!(third["number"], winner["number"]);
}

#[tokio::test]
async fn registration_rejects_identifiers_with_wrong_check_digits() {
    let app = spawn_app().await;
    let cases = [
        (
            "/api/v1/drivers",
            driver_body("123.456.789-10", CNHS[0]),
            "cpf",
        ),
        (
            "/api/v1/drivers",
            driver_body(CPFS[0], "78623161668"),
            "cnh.number",
        ),
        (
            "/api/v1/vehicles",
            vehicle_body("ABC12D3", RENAVAMS[0]),
            "plate",
        ),
        (
            "/api/v1/vehicles",
            vehicle_body(PLATES[0], "13824652269"),
            "renavam",
        ),
    ];
    for (path, body, field) in cases {
        let res = app.post(path, &body).await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY, "{field}");
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["errors"][0]["field"], field);
    }
}

#[tokio::test]
async fn old_and_mercosul_forms_of_one_plate_are_the_same_vehicle() {
    let app = spawn_app().await;
    app.create_vehicle(&vehicle_body("ABC-1234", RENAVAMS[0]))
        .await;
    let res = app
        .post("/api/v1/vehicles", &vehicle_body("ABC1C34", RENAVAMS[1]))
        .await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
    let res = app
        .post("/api/v1/drivers", &driver_body(CPFS[0], CNHS[0]))
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let res = app
        .post("/api/v1/drivers", &driver_body("52998224725", CNHS[1]))
        .await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
}

#[tokio::test]
async fn revoking_twice_is_a_conflict_and_unknown_ids_are_404() {
    let app = spawn_app().await;
    let g = app.granted().await;
    let path = format!(
        "/api/v1/app-authorizations/{}/revocation",
        g["id"].as_str().unwrap()
    );
    let res = app
        .post(&path, &json!({"reason": "Fraude documental"}))
        .await;
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["status"], "revoked");
    assert_eq!(body["revocation"]["reason"], "Fraude documental");
    assert_eq!(
        app.post(&path, &json!({"reason": "de novo"}))
            .await
            .status(),
        StatusCode::CONFLICT
    );
    let missing = "/api/v1/app-authorizations/00000000-0000-4000-8000-000000000000/revocation";
    assert_eq!(
        app.post(missing, &json!({"reason": "x"})).await.status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.post(&path, &json!({"reason": "  "})).await.status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
}

#[tokio::test]
async fn unknown_driver_or_vehicle_is_a_field_error() {
    let app = spawn_app().await;
    let v = app
        .create_vehicle(&vehicle_body(PLATES[0], RENAVAMS[0]))
        .await;
    let res = app
        .grant("00000000-0000-4000-8000-000000000000", &v, "2026-11-20")
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["errors"][0]["field"], "driver_id");
}

/// Scenario S01 (docs/readings.md): model year 2013 at the year rollover, in America/Cuiaba.
#[tokio::test]
async fn s01_vehicle_age_boundary_follows_the_local_year() {
    let at = |s: &str| chrono::DateTime::parse_from_rfc3339(s).unwrap().to_utc();
    for (instant, expected) in [
        ("2025-12-31T23:59:00-04:00", StatusCode::CREATED),
        (
            "2026-01-01T00:00:00-04:00",
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        // 02:00Z is still 31/12/2025 22:00 in Barra do Garças.
        ("2026-01-01T02:00:00Z", StatusCode::CREATED),
    ] {
        let app = spawn_app().await;
        app.clock.set(at(instant));
        let mut vehicle = vehicle_body(PLATES[0], RENAVAMS[0]);
        vehicle["model_year"] = json!(2013);
        let d = app.create_driver(&driver_body(CPFS[0], CNHS[0])).await;
        let v = app.create_vehicle(&vehicle).await;
        let res = app.grant(&d, &v, "2025-12-01").await;
        assert_eq!(res.status(), expected, "{instant}");
        if expected == StatusCode::UNPROCESSABLE_ENTITY {
            let body: Value = res.json().await.unwrap();
            assert_eq!(body["errors"][0]["rule"], "APP-ART2-P2");
        }
    }
}

#[tokio::test]
async fn a_vehicle_may_declare_since_when_it_serves() {
    let app = spawn_app().await;
    let mut body = vehicle_body(PLATES[0], RENAVAMS[0]);
    body["in_service_since"] = json!("2024-01-10");
    let res = app.post("/api/v1/vehicles", &body).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(
        res.json::<Value>().await.unwrap()["in_service_since"],
        "2024-01-10"
    );
    let mut body = vehicle_body(PLATES[1], RENAVAMS[1]);
    body["in_service_since"] = json!("10/01/2024");
    assert_eq!(
        app.post("/api/v1/vehicles", &body).await.status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
}

/// APP-ART12-III: without the four certificates the grant lists each missing one; filing
/// them afterwards (append-only) makes the driver eligible.
#[tokio::test]
async fn app_art12_iii_certificates_can_be_filed_after_registration() {
    let app = spawn_app().await;
    let mut driver = driver_body(CPFS[0], CNHS[0]);
    driver
        .as_object_mut()
        .unwrap()
        .remove("criminal_certificates");
    let d = app.create_driver(&driver).await;
    let v = app
        .create_vehicle(&vehicle_body(PLATES[0], RENAVAMS[0]))
        .await;
    let body: Value = app.grant(&d, &v, "2026-11-20").await.json().await.unwrap();
    let fields: Vec<&str> = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(
        fields,
        [
            "criminal_certificates.estadual_1",
            "criminal_certificates.estadual_2",
            "criminal_certificates.federal_1",
            "criminal_certificates.federal_2"
        ]
    );
    let res = app
        .post(
            &format!("/api/v1/drivers/{d}/record"),
            &json!({"criminal_certificates": crate::helpers::clear_certificates()}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(
        app.grant(&d, &v, "2026-11-20").await.status(),
        StatusCode::CREATED
    );
    let h: Value = app
        .get_authed(&format!("/api/v1/drivers/{d}/history"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(h["events"][1]["kind"], "record_filed");
}

#[tokio::test]
async fn app_art12_iv_a_recent_gravissima_is_rejected() {
    expect_single_failure(
        |d, _, _| {
            d["traffic_infractions"] =
                json!([{"committed_on": "2026-06-01", "class": "gravissima"}]);
        },
        "APP-ART12-IV",
        "traffic_infractions",
    )
    .await;
}

#[tokio::test]
async fn app_art12_p1_a_ctb306_conviction_not_yet_extinguished_is_rejected() {
    expect_single_failure(
        |d, _, _| {
            d["ctb306"] =
                json!({"final_conviction_on": "2024-03-01", "sentence_extinguished_on": null});
        },
        "APP-ART12-P1",
        "ctb306",
    )
    .await;
}

/// APP-ART13-XIX: a change of registration data is reported within 7 days; a late report is
/// recorded with the art. 26, III warning and shows in the driver's history.
#[tokio::test]
async fn app_art13_xix_data_change_reports_within_seven_days() {
    let app = spawn_app().await;
    let d = app.create_driver(&driver_body(CPFS[0], CNHS[0])).await;
    let path = format!("/api/v1/drivers/{d}/data-changes");
    // Changed Friday 20/11/2026: day 7 is Friday 27/11.
    let on_time =
        json!({"what": "Novo endereço", "changed_on": "2026-11-20", "reported_on": "2026-11-27"});
    let res = app.post(&path, &on_time).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["report_due"]["due"], "2026-11-27");
    assert!(body["warnings"].as_array().unwrap().is_empty());
    let late =
        json!({"what": "Novo telefone", "changed_on": "2026-11-20", "reported_on": "2026-11-30"});
    let body: Value = app.post(&path, &late).await.json().await.unwrap();
    assert_eq!(body["warnings"][0]["rule"], "APP-ART13-XIX");
    let future = json!({"what": "x", "changed_on": "2026-11-20", "reported_on": "2026-12-30"});
    assert_eq!(
        app.post(&path, &future).await.status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let kinds = app
        .event_kinds(&format!("/api/v1/drivers/{d}/history"))
        .await;
    assert_eq!(
        kinds
            .iter()
            .filter(|k| *k == "data_change_reported")
            .count(),
        2
    );
}

/// DL-8 and APP-ART3-PU read as of a past day: an authorization granted a year earlier is
/// ATIVA on its last day and VENCIDA on the next; a day before the grant or in the future is
/// refused.
#[tokio::test]
async fn as_of_a_date_an_authorization_is_active_on_its_last_day_and_expired_the_next() {
    let app = spawn_app().await;
    let granted = app.granted_to(0).await;
    let id = granted["id"].as_str().unwrap();
    assert_eq!(granted["valid_until"], "2027-11-20");
    // The vistoria of art. 9º, on the day of the grant (valid for 12 months).
    assert_eq!(
        app.vistoria(&granted, "2026-11-30", true).await.status(),
        StatusCode::CREATED
    );
    // A year and more later, the clock on 10/01/2028.
    app.clock.set(crate::charter::noon("2028-01-10"));
    let as_of = |day: &str| format!("/api/v1/app-authorizations/{id}?as_of={day}");
    assert_eq!(app.get_json(&as_of("2027-11-20")).await["status"], "active");
    assert_eq!(
        app.get_json(&as_of("2027-11-21")).await["status"],
        "expired"
    );
    assert_eq!(
        app.get_json(&format!("/api/v1/app-authorizations/{id}"))
            .await["status"],
        "expired"
    );
    for day in ["2026-11-29", "2028-01-11", "20/11/2027"] {
        let res = app.get_authed(&as_of(day)).await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY, "{day}");
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["errors"][0]["field"], "as_of", "{day}: {body}");
    }
}
