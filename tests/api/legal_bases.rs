//! The legal bases are files in the repository, and a new version is an act
//! of an official with a date, not a rebuild. What is granted from that date follows the new
//! numbers and records (and prints) the new version; what came before keeps its own.

use reqwest::StatusCode;
use selo::domain::legal_basis::{DRAFT_2023_FILE, LEI_4937_2025_FILE};
use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_app};

const V2: &str = "APP-LEI-4976-2025/v1";

/// The draft's file with a new version and a 6-month authorization.
fn enacted_file() -> String {
    DRAFT_2023_FILE
        .replace("APP-MINUTA-2023-11-23/v1", V2)
        .replace(
            "authorization_validity_months = 12",
            "authorization_validity_months = 6",
        )
}

fn activation(basis: &str, effective_from: &str) -> Value {
    json!({
        "basis": basis,
        "effective_from": effective_from,
        "act": {"kind": "Lei", "number": "4.976/2025", "date": "2025-06-10"},
    })
}

async fn first_field(res: reqwest::Response) -> (StatusCode, String, Value) {
    let status = res.status();
    let body: Value = res.json().await.unwrap();
    let field = body["errors"][0]["field"].as_str().unwrap_or("").to_owned();
    (status, field, body)
}

async fn legal_bases(app: &TestApp) -> Value {
    app.get("/api/v1/legal-bases").await.json().await.unwrap()
}

#[tokio::test]
async fn a_new_version_of_the_law_is_an_act_with_a_date_not_a_rebuild() {
    let app = spawn_app().await;
    let listed = legal_bases(&app).await;
    assert_eq!(
        listed["ride_hailing"]["in_force"],
        "APP-MINUTA-2023-11-23/v1"
    );
    assert_eq!(listed["charter"]["in_force"], "LEI-4937-2025/v1");
    let first = &listed["ride_hailing"]["versions"][0];
    assert_eq!(first["origin"], "repositorio");
    assert_eq!(first["parameters"]["authorization_validity_months"], 12);
    assert_eq!(first["parameters"]["fine_upf_gravissima"], 950);

    // Granted today (30/11/2026) under the draft: 12 months.
    let before = app.granted_to(0).await;
    assert_eq!(before["legal_basis_version"], "APP-MINUTA-2023-11-23/v1");
    assert_eq!(before["valid_until"], "2027-11-20");

    let res = app
        .post(
            "/api/v1/legal-bases/ride-hailing",
            &activation(&enacted_file(), "2026-12-15"),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let activated: Value = res.json().await.unwrap();
    assert_eq!(activated["version"], V2);
    assert_eq!(activated["effective_from"], "2026-12-15");
    assert_eq!(activated["act"]["number"], "4.976/2025");
    assert_eq!(activated["sha256"].as_str().unwrap().len(), 64);

    // Scheduled: the draft stays in force until 14/12.
    let listed = legal_bases(&app).await;
    assert_eq!(
        listed["ride_hailing"]["in_force"],
        "APP-MINUTA-2023-11-23/v1"
    );
    let versions = listed["ride_hailing"]["versions"].as_array().unwrap();
    assert_eq!(versions.len(), 2);
    assert_eq!(versions[1]["origin"], "ativacao");
    assert_eq!(versions[1]["act"]["kind"], "Lei");
    assert_eq!(
        versions[1]["parameters"]["authorization_validity_months"],
        6
    );
    app.clock.set(crate::charter::noon("2026-12-14"));
    assert_eq!(
        app.granted_to(1).await["valid_until"],
        "2027-11-20",
        "the day before, the draft's 12 months"
    );

    // From 15/12 the enacted law's numbers apply, and the documents say which version.
    app.clock.set(crate::charter::noon("2026-12-15"));
    assert_eq!(legal_bases(&app).await["ride_hailing"]["in_force"], V2);
    let after = app.granted_to(2).await;
    assert_eq!(after["legal_basis_version"], V2);
    assert_eq!(after["valid_until"], "2027-05-20");
    let pdf = app.document_bytes(&after, "app_authorization").await;
    let text = crate::pdf::pdf_text(&pdf).replace('\u{a0}', " ");
    assert!(
        text.contains(V2),
        "the authorization prints its version: {text}"
    );
    // What was granted before keeps its version and its validity.
    let id = before["id"].as_str().unwrap();
    let fetched = app
        .get_json(&format!("/api/v1/app-authorizations/{id}"))
        .await;
    assert_eq!(fetched["legal_basis_version"], "APP-MINUTA-2023-11-23/v1");
    assert_eq!(fetched["valid_until"], "2027-11-20");

    // The activation is an event of the audit chain, with its act.
    let store = app.store().await;
    let rows = store.chain_rows(0, 10_000).await.unwrap();
    let event = rows
        .iter()
        .map(selo::storage::audit::ChainRow::fields)
        .find(|e| e.entity_type == "legal_basis")
        .expect("an activation event");
    assert_eq!(event.entity_id, V2);
    assert_eq!(event.kind, "activated");
    assert_eq!(event.reason, Some("Lei nº 4.976/2025, de 10/06/2025"));
}

#[tokio::test]
#[expect(
    clippy::too_many_lines,
    reason = "every way an activation is refused, then the one that is accepted"
)]
async fn an_activation_is_refused_whole_when_its_file_dates_or_role_are_wrong() {
    let app = spawn_app().await;
    let path = "/api/v1/legal-bases/ride-hailing";
    // Only the law's own secretariat activates it.
    let charter = app.official("sis", "Servidora SIS", "charter_issuer").await;
    let inspector = app.official("fiscal", "Fiscal", "inspector").await;
    for token in [&charter, &inspector] {
        let res = app
            .send_as(
                Some(token),
                "post",
                path,
                Some(&activation(&enacted_file(), "2026-12-15")),
            )
            .await;
        assert_eq!(res.status(), StatusCode::FORBIDDEN);
    }
    let cases = [
        (
            activation(
                &enacted_file().replace("defence_days = 15", "defence_days = 0"),
                "2026-12-15",
            ),
            "basis",
        ),
        (activation("version = ", "2026-12-15"), "basis"),
        (activation(LEI_4937_2025_FILE, "2026-12-15"), "basis"),
        // Its documents are issued by a secretariat the municipality profile does not have.
        (
            activation(
                &enacted_file().replace(
                    "inspecting_secretariat = \"smf\"",
                    "inspecting_secretariat = \"sdus\"",
                ),
                "2026-12-15",
            ),
            "basis",
        ),
        // A basis does not reach back over acts already judged.
        (activation(&enacted_file(), "2026-11-29"), "effective_from"),
        (activation(&enacted_file(), "2026-02-30"), "effective_from"),
    ];
    for (body, field) in cases {
        let (status, got, problem) = first_field(app.post(path, &body).await).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{problem}");
        assert_eq!(got, field, "{problem}");
    }
    let mut future_act = activation(&enacted_file(), "2026-12-15");
    future_act["act"]["date"] = json!("2026-12-01");
    let (status, field, _) = first_field(app.post(path, &future_act).await).await;
    assert_eq!(
        (status, field.as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, "act.date")
    );
    // The repository's version cannot be taken again.
    let (status, field, _) = first_field(
        app.post(path, &activation(DRAFT_2023_FILE, "2026-12-15"))
            .await,
    )
    .await;
    assert_eq!((status, field.as_str()), (StatusCode::CONFLICT, "version"));
    assert_eq!(
        legal_bases(&app).await["ride_hailing"]["versions"]
            .as_array()
            .unwrap()
            .len(),
        1,
        "nothing was written"
    );

    // One activation; the next must start after it, under a version of its own.
    assert_eq!(
        app.post(path, &activation(&enacted_file(), "2026-12-15"))
            .await
            .status(),
        StatusCode::CREATED
    );
    let (status, field, _) = first_field(
        app.post(path, &activation(&enacted_file(), "2027-01-01"))
            .await,
    )
    .await;
    assert_eq!((status, field.as_str()), (StatusCode::CONFLICT, "version"));
    let v3 = enacted_file().replace(V2, "APP-LEI-4976-2025/v2");
    let (status, field, _) =
        first_field(app.post(path, &activation(&v3, "2026-12-15")).await).await;
    assert_eq!(
        (status, field.as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, "effective_from")
    );

    // The charter secretariat activates its own law.
    let charter_v2 = LEI_4937_2025_FILE
        .replace("LEI-4937-2025/v1", "LEI-4937-2025/v2")
        .replace("fine_upf = 500", "fine_upf = 600");
    let res = app
        .send_as(
            Some(&charter),
            "post",
            "/api/v1/legal-bases/charter",
            Some(&activation(&charter_v2, "2026-11-30")),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let listed = legal_bases(&app).await;
    assert_eq!(listed["charter"]["in_force"], "LEI-4937-2025/v2");
    assert_eq!(
        listed["charter"]["versions"][1]["parameters"]["fine_upf"],
        600
    );
    assert_eq!(
        listed["ride_hailing"]["in_force"],
        "APP-MINUTA-2023-11-23/v1"
    );
}

/// The back office offers the activation to the law's secretariat: its form asks for the file,
/// the date and the act, and submitting it activates the version.
#[tokio::test]
async fn a_version_is_activated_from_the_back_office() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let mut b = crate::panel::Browser::new(&app);
    b.sign_in("ana.smf", crate::helpers::OFFICIAL_PASSWORD)
        .await;
    let (_, home, _) = b.get("/painel").await;
    assert!(
        home.contains("Ativar nova versão da base legal do transporte por aplicativo"),
        "{home}"
    );
    assert!(!home.contains("base legal do fretamento"), "{home}");
    let path = "/painel/acao/legal_bases.activate_ride_hailing";
    let (status, form, _) = b.get(path).await;
    assert_eq!(status, StatusCode::OK);
    for label in [
        "Arquivo da base legal (TOML)",
        "Vigente a partir de",
        "Número",
        "<textarea",
    ] {
        assert!(
            form.contains(label),
            "{label} missing from the form: {form}"
        );
    }
    let csrf = crate::panel::field(&form, "_csrf").unwrap();
    let file = enacted_file();
    let req = b.client.post(app.url(path)).form(&[
        ("_csrf", csrf.as_str()),
        ("basis", file.as_str()),
        ("effective_from", "2026-12-15"),
        ("act.kind", "Lei"),
        ("act.number", "4.976/2025"),
        ("act.date", "2025-06-10"),
    ]);
    let (status, page, _) = b.send(req).await;
    assert!(
        status == StatusCode::SEE_OTHER || status == StatusCode::OK,
        "{status}: {page}"
    );
    let versions = legal_bases(&app).await["ride_hailing"]["versions"].clone();
    assert_eq!(versions.as_array().unwrap().len(), 2, "{page}");
    assert_eq!(versions[1]["version"], V2);
    assert_eq!(versions[1]["act"]["number"], "4.976/2025");
}

/// The test fixture shaped on Lei 4.976/2025 (placeholder citations; not the law).
const FIXTURE: &str = include_str!("../fixtures/lei-4976-2025-fixture.toml");

fn errors_of(body: &Value) -> Vec<(String, String, String)> {
    body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["rule"].as_str().unwrap_or_default().to_owned(),
                e["article"].as_str().unwrap_or_default().to_owned(),
                e["field"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// The cap on one platform's drivers is a requirement of the basis like any other: from the
/// fixture's date a platform at its cap registers no one more, refused with the fixture's
/// citation; the court's suspension lifts it from its effect date.
#[tokio::test]
async fn the_cap_on_a_platforms_drivers_applies_until_a_court_suspends_it() {
    use crate::charter::noon;
    let (app, platform) = crate::platforms::registered_platform().await;
    let a = app.granted_to(0).await;
    let b = app.granted_to(1).await;
    let (_, token) = crate::platforms::credential(&app, &platform).await;
    let register = |number: &str, cpf: &str| {
        let body = json!({"authorization_number": number, "cpf": cpf});
        let (app, token) = (&app, token.clone());
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
    let capped = FIXTURE.replace("max = 50", "max = 1");
    assert_ne!(capped, FIXTURE);
    let res = app
        .post(
            "/api/v1/legal-bases/ride-hailing",
            &activation(&capped, "2026-12-10"),
        )
        .await;
    assert_eq!(
        res.status(),
        StatusCode::CREATED,
        "{}",
        res.text().await.unwrap()
    );
    app.clock.set(noon("2026-12-10"));
    let (a_number, b_number) = (a["number"].as_str().unwrap(), b["number"].as_str().unwrap());
    assert_eq!(
        register(a_number, crate::helpers::CPFS[0]).await.status(),
        StatusCode::CREATED
    );
    let res = register(b_number, crate::helpers::CPFS[1]).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let refused = errors_of(&res.json().await.unwrap());
    assert_eq!(
        refused,
        vec![(
            "L4976-MOTORISTAS-POR-PLATAFORMA".to_owned(),
            "Lei 4.976/2025, art. [a definir]".to_owned(),
            "authorization_number".to_owned()
        )]
    );

    let res = app
        .post(
            "/api/v1/legal-bases/ride-hailing/suspensions",
            &json!({"act": "suspensao", "rules": ["L4976-MOTORISTAS-POR-PLATAFORMA"], "court": "TJMT",
                    "case_number": "1000000-00.2026.8.11.0000", "decided_on": "2026-12-10",
                    "effective_from": "2026-12-15"}),
        )
        .await;
    assert_eq!(
        res.status(),
        StatusCode::CREATED,
        "{}",
        res.text().await.unwrap()
    );
    app.clock.set(noon("2026-12-14"));
    assert_eq!(
        register(b_number, crate::helpers::CPFS[1]).await.status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    app.clock.set(noon("2026-12-15"));
    assert_eq!(
        register(b_number, crate::helpers::CPFS[1]).await.status(),
        StatusCode::CREATED
    );
}

/// Requirements are data: activating another basis from a date changes which cars and
/// drivers are accepted, with the new file's citations and no build; a court's suspension
/// takes a requirement out from its effective date, and a grant made after it names the
/// suspension; a restoration brings it back. Under it, a prosecution under way files the
/// grant `em_analise` with nothing issued, until an official refuses or grants it.
#[tokio::test]
#[expect(
    clippy::too_many_lines,
    reason = "one story: the draft, the new law from its date, the suspension, the restoration"
)]
async fn a_new_laws_requirements_apply_from_its_date_and_a_courts_suspension_from_its_own() {
    use crate::bodies::{driver_body, vehicle_body};
    use crate::charter::noon;
    use crate::helpers::{CNHS, CPFS, PLATES, RENAVAMS};
    let app = spawn_app().await;
    let made = |i: usize, year: i32| {
        let mut v = vehicle_body(PLATES[i], RENAVAMS[i]);
        v["manufacture_year"] = json!(year);
        v
    };
    let made_2015 = || {
        let mut v = vehicle_body(PLATES[0], RENAVAMS[0]);
        v["model_year"] = json!(2016);
        v["manufacture_year"] = json!(2015);
        v
    };
    // Under the draft, a 2016 model made in 2015 is accepted (12 years from the model year).
    let d0 = app.create_driver(&driver_body(CPFS[0], CNHS[0])).await;
    let v0 = app.create_vehicle(&made_2015()).await;
    let check = json!({"driver_id": d0, "vehicle_id": v0, "fee_paid_on": "2026-11-30"});
    let checked: Value = app
        .post("/api/v1/app-authorization-checks", &check)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(checked["passes"], true, "{checked}");

    // A file with an unknown kind or a missing parameter is refused with every problem.
    let broken = FIXTURE
        .replace("kind = \"platforms_cap\"", "kind = \"teto_de_plataformas\"")
        .replace("max_age_days = 30\n", "");
    let (status, field, body) = first_field(
        app.post(
            "/api/v1/legal-bases/ride-hailing",
            &activation(&broken, "2026-12-10"),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(field, "basis");
    let all = body["errors"].to_string();
    assert!(all.contains("teto_de_plataformas"), "{all}");
    assert!(all.contains("falta o parâmetro `max_age_days`"), "{all}");

    let res = app
        .post(
            "/api/v1/legal-bases/ride-hailing",
            &activation(FIXTURE, "2026-12-10"),
        )
        .await;
    assert_eq!(
        res.status(),
        StatusCode::CREATED,
        "{}",
        res.text().await.unwrap()
    );

    // From 10/12: the car is 11 years from manufacture, and the driver has no INSS, alvará
    // nor debt certificate; each refusal cites the fixture's provisions.
    app.clock.set(noon("2026-12-10"));
    let res = app.grant(&d0, &v0, "2026-12-10").await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let refused = errors_of(&res.json().await.unwrap());
    let placeholder = "Lei 4.976/2025, art. [a definir]".to_owned();
    for (rule, field) in [
        ("L4976-VEICULO-IDADE", "vehicle.manufacture_year"),
        ("L4976-INSS", "documents"),
        ("L4976-ALVARA", "documents"),
        ("L4976-CND", "documents"),
    ] {
        assert!(
            refused.contains(&(rule.to_owned(), placeholder.clone(), field.to_owned())),
            "{rule} missing from {refused:?}"
        );
    }

    // A newer car, and the INSS and the alvará filed: only the debt certificate is missing.
    let v1 = app.create_vehicle(&made(1, 2021)).await;
    let docs = json!({"documents": [
        {"document": "inss", "issued_on": "2026-12-01"},
        {"document": "alvara", "issued_on": "2026-12-01", "valid_until": "2027-12-01"},
    ]});
    let res = app
        .post(&format!("/api/v1/drivers/{d0}/record"), &docs)
        .await;
    assert!(res.status().is_success(), "{}", res.text().await.unwrap());
    let res = app.grant(&d0, &v1, "2026-12-10").await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let refused = errors_of(&res.json().await.unwrap());
    assert_eq!(
        refused,
        vec![(
            "L4976-CND".to_owned(),
            placeholder.clone(),
            "documents".to_owned()
        )]
    );

    // The TJMT suspends the debt certificate and the platforms cap from 15/12.
    app.clock.set(noon("2026-12-12"));
    let suspension = |act: &str, decided: &str, from: &str| {
        json!({"act": act, "rules": ["L4976-CND", "L4976-PLATAFORMAS"], "court": "TJMT",
               "case_number": "1000000-00.2026.8.11.0000", "decided_on": decided, "effective_from": from})
    };
    let (status, field, _) = first_field(
        app.post(
            "/api/v1/legal-bases/ride-hailing/suspensions",
            &json!({"act": "suspensao", "rules": ["NADA-1"], "court": "TJMT",
                    "case_number": "1", "decided_on": "2026-12-12", "effective_from": "2026-12-15"}),
        )
        .await,
    )
    .await;
    assert_eq!(
        (status, field.as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, "rules")
    );
    let res = app
        .post(
            "/api/v1/legal-bases/ride-hailing/suspensions",
            &suspension("suspensao", "2026-12-12", "2026-12-15"),
        )
        .await;
    assert_eq!(
        res.status(),
        StatusCode::CREATED,
        "{}",
        res.text().await.unwrap()
    );
    // The day before the effect, the certificate is still required.
    app.clock.set(noon("2026-12-14"));
    let res = app.grant(&d0, &v1, "2026-12-14").await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    // From 15/12 it is not, and the grant names the suspension.
    app.clock.set(noon("2026-12-15"));
    let listed = legal_bases(&app).await;
    assert_eq!(
        listed["ride_hailing"]["suspensions"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        listed["ride_hailing"]["suspended_today"]
            .as_array()
            .unwrap()
            .len(),
        2,
        "{listed}"
    );
    let res = app.grant(&d0, &v1, "2026-12-15").await;
    assert_eq!(
        res.status(),
        StatusCode::CREATED,
        "{}",
        res.text().await.unwrap()
    );
    let granted: Value = res.json().await.unwrap();
    assert_eq!(granted["legal_basis_version"], "LEI-4976-2025-FIXTURE/v1");
    let named = granted["suspended_provisions"].to_string();
    assert!(
        named.contains(
            "Lei 4.976/2025, art. [a definir] (L4976-CND) suspenso por decisão do TJMT, processo 1000000-00.2026.8.11.0000, de 12/12/2026, desde 15/12/2026"
        ),
        "{named}"
    );
    // The authorization's PDF records it too.
    let text = crate::pdf::pdf_text(&app.document_bytes(&granted, "app_authorization").await)
        .replace('\n', "");
    assert!(
        text.contains("Não aplicado(s) nesta decisão: Lei 4.976/2025")
            && text.contains("suspenso por decisão do TJMT"),
        "{text}"
    );
    // Every provision it states is the fixture's placeholder, none of the draft's articles.
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("com fundamento no art. [a definir] da Lei Municipal nº 4.976/2025"),
        "{flat}"
    );
    for draft in [
        "art. 3º",
        "art. 13, I",
        "art. 13, XIX",
        "art. 14",
        "art. 16",
    ] {
        assert!(!flat.contains(draft), "{draft}: {flat}");
    }

    // Restored from 20/12: the certificate is required again.
    app.clock.set(noon("2026-12-20"));
    let res = app
        .post(
            "/api/v1/legal-bases/ride-hailing/suspensions",
            &suspension("restabelecimento", "2026-12-20", "2026-12-20"),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let d1 = app.create_driver(&driver_body(CPFS[1], CNHS[1])).await;
    let v2 = app.create_vehicle(&made(2, 2021)).await;
    let res = app
        .post(&format!("/api/v1/drivers/{d1}/record"), &docs)
        .await;
    assert!(res.status().is_success());
    let res = app.grant(&d1, &v2, "2026-12-20").await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(errors_of(&res.json().await.unwrap())[0].0, "L4976-CND");

    // AMB-25 as the fixture reads it: a prosecution under way goes to an official's review:
    // the request is filed `em_analise`, nothing is issued, and an official decides it.
    let record = json!({
        "documents": [{"document": "cnd_municipal", "issued_on": "2026-12-19"}],
        "ctb306": {"final_conviction_on": null, "sentence_extinguished_on": null},
    });
    let res = app
        .post(&format!("/api/v1/drivers/{d1}/record"), &record)
        .await;
    assert!(res.status().is_success());
    let check = json!({"driver_id": d1, "vehicle_id": v2, "fee_paid_on": "2026-12-20"});
    let checked: Value = app
        .post("/api/v1/app-authorization-checks", &check)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(checked["passes"], false, "{checked}");
    assert_eq!(checked["errors"], json!([]), "{checked}");
    assert_eq!(checked["review"][0]["rule"], "APP-ART12-P1", "{checked}");
    let filed = |res: reqwest::Response| async move {
        assert_eq!(res.status(), StatusCode::ACCEPTED);
        let location = res.headers()["location"].to_str().unwrap().to_owned();
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["status"], "em_analise", "{body}");
        assert_eq!(
            location,
            format!("/api/v1/app-grant-reviews/{}", body["id"].as_str().unwrap())
        );
        body
    };
    let review = filed(app.grant(&d1, &v2, "2026-12-20").await).await;
    assert_eq!(review["reasons"][0]["rule"], "APP-ART12-P1");
    let review_id = review["id"].as_str().unwrap().to_owned();
    // Nothing was issued: the car has no authorization, and no second filing is taken.
    let res = app
        .get_authed(&format!("/api/v1/vehicles/by-plate/{}", PLATES[2]))
        .await;
    assert_eq!(
        res.status(),
        StatusCode::NOT_FOUND,
        "no sticker before the decision"
    );
    let res = app.grant(&d1, &v2, "2026-12-20").await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
    let pending: Value = app
        .get_authed("/api/v1/app-grant-reviews")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(pending["app_grant_reviews"][0]["id"], review_id.as_str());
    // The worklist lists it, linked to its decision, and the filing's page reads in Portuguese.
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let mut ana = crate::panel::Browser::new(&app);
    ana.sign_in("ana.smf", crate::helpers::OFFICIAL_PASSWORD)
        .await;
    let (status, page, _) = ana.get("/painel/pendencias?tipo=analise").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains("Decidir o pedido em análise: Processo em curso"),
        "{page}"
    );
    assert!(
        page.contains(&format!(
            "/painel/acao/authorizations.decide_review?id={review_id}"
        )),
        "{page}"
    );
    let (status, page, _) = ana
        .get(&format!("/painel/ver/app-grant-reviews/{review_id}"))
        .await;
    assert_eq!(status, StatusCode::OK);
    for words in [
        "Pedido de autorização em análise",
        "Em análise",
        "Decidir o pedido em análise",
    ] {
        assert!(page.contains(words), "{words} missing: {page}");
    }
    let (status, page, _) = ana
        .get(&format!(
            "/painel/acao/authorizations.decide_review?id={review_id}"
        ))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains("Deferir: conceder e emitir os documentos"),
        "{page}"
    );

    // A decision needs a choice and its grounds.
    let decide = |decision: &str, grounds: &str| json!({"decision": decision, "grounds": grounds});
    let path = format!("/api/v1/app-grant-reviews/{review_id}/decision");
    let res = app.post(&path, &decide("talvez", "")).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = res.json().await.unwrap();
    let fields: Vec<&str> = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["decision", "grounds"], "{body}");

    // Refused: nothing issued, the filing says why.
    let res = app
        .post(
            &path,
            &decide("indeferir", "Denúncia recebida por crime do art. 306."),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let refused: Value = res.json().await.unwrap();
    assert_eq!(refused["status"], "indeferido", "{refused}");
    assert!(refused["decision"]["authorization_id"].is_null());
    let res = app.post(&path, &decide("deferir", "Reconsiderado.")).await;
    assert_eq!(res.status(), StatusCode::CONFLICT);

    // Filed again and granted: the grant issues the authorization and the sticker, and
    // the filing names it; a second decision is refused.
    app.clock.set(noon("2026-12-21"));
    let again = filed(app.grant(&d1, &v2, "2026-12-20").await).await;
    let path = format!(
        "/api/v1/app-grant-reviews/{}/decision",
        again["id"].as_str().unwrap()
    );
    let res = app
        .post(
            &path,
            &decide("deferir", "Processo sem denúncia recebida; não há óbice."),
        )
        .await;
    assert_eq!(
        res.status(),
        StatusCode::CREATED,
        "{}",
        res.text().await.unwrap()
    );
    let granted: Value = res.json().await.unwrap();
    assert_eq!(granted["valid_from"], "2026-12-20");
    assert_eq!(granted["documents"].as_array().unwrap().len(), 2);
    let decided: Value = app
        .get_authed(&format!(
            "/api/v1/app-grant-reviews/{}",
            again["id"].as_str().unwrap()
        ))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(decided["status"], "deferido");
    assert_eq!(decided["decision"]["authorization_id"], granted["id"]);
    let res = app.post(&path, &decide("deferir", "De novo.")).await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
    let pending: Value = app
        .get_authed("/api/v1/app-grant-reviews")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(pending["app_grant_reviews"], json!([]));
}

/// The infraction catalogue in force today.
async fn catalogue(app: &TestApp) -> Value {
    app.get("/api/v1/app-infractions")
        .await
        .json()
        .await
        .unwrap()
}

/// The infractions an auto may charge are the catalogue of the basis in force: a new law's
/// from its date (with its own citations, fines and repeat penalties), none of the old one's;
/// and a court may suspend an infraction as it suspends a requirement.
#[tokio::test]
#[expect(
    clippy::too_many_lines,
    reason = "one story: the draft's catalogue, the new law's from its date, a court's suspension"
)]
async fn the_infraction_catalogue_is_the_basis_in_force_and_a_court_may_suspend_an_infraction() {
    use crate::bodies::{driver_body, vehicle_body};
    use crate::charter::noon;
    use crate::helpers::{CNHS, CPFS, PLATES, RENAVAMS};
    let app = spawn_app().await;
    let d0 = app.create_driver(&driver_body(CPFS[0], CNHS[0])).await;
    let v0 = app
        .create_vehicle(&vehicle_body(PLATES[0], RENAVAMS[0]))
        .await;
    let res = app.grant(&d0, &v0, "2026-11-30").await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let auto = |infraction: &str, at: &str| crate::autos::auto_body(&d0, infraction, at);
    let ids = |catalogue: &Value| -> Vec<String> {
        catalogue["infractions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["id"].as_str().unwrap().to_owned())
            .collect()
    };

    // The draft's catalogue, with what a first offence and a repeat bring.
    let draft: Value = catalogue(&app).await;
    assert!(ids(&draft).contains(&"APP-ART26-IV".to_owned()), "{draft}");
    let v = draft["infractions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["id"] == "APP-ART26-V")
        .unwrap();
    assert_eq!(v["on_repeat"]["kind"], "cassacao", "{v}");
    assert_eq!(v["penalty"]["months"], 12, "{v}");

    let res = app
        .post(
            "/api/v1/legal-bases/ride-hailing",
            &activation(FIXTURE, "2026-12-10"),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    app.clock.set(noon("2026-12-10"));
    let fixture: Value = catalogue(&app).await;
    assert_eq!(fixture["legal_basis_version"], "LEI-4976-2025-FIXTURE/v1");
    assert!(
        ids(&fixture).iter().all(|id| id.starts_with("L4976-")),
        "{fixture}"
    );

    // The draft's infraction is no longer one an auto may charge.
    let refused = |infraction: &'static str, at: &'static str| {
        let body = auto(infraction, at);
        let app = &app;
        async move {
            let (status, field, body) =
                first_field(app.post("/api/v1/app-infraction-autos", &body).await).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
            assert_eq!(field, "infraction_id");
        }
    };
    refused("APP-ART26-IV", "2026-12-10T09:00:00-04:00").await;

    // The new law's: its citation and fine; a repeat brings its 30 days of suspension.
    let placeholder = "Lei 4.976/2025, art. [a definir]";
    let mut drawn = Vec::new();
    for at in ["2026-12-09T09:00:00-04:00", "2026-12-10T09:00:00-04:00"] {
        let res = app
            .post(
                "/api/v1/app-infraction-autos",
                &auto("L4976-DEVER-CONDUTOR", at),
            )
            .await;
        assert_eq!(
            res.status(),
            StatusCode::CREATED,
            "{}",
            res.text().await.unwrap()
        );
        drawn.push(res.json::<Value>().await.unwrap());
    }
    assert_eq!(drawn[0]["infraction"]["article"], placeholder);
    assert_eq!(drawn[0]["fine"]["upf"], 115);
    assert_eq!(drawn[0]["proposed_consequences"][0]["article"], placeholder);
    assert_eq!(
        drawn[0]["proposed_consequences"].as_array().unwrap().len(),
        1
    );
    let repeat = &drawn[1]["proposed_consequences"][1];
    assert_eq!(repeat["kind"], "suspension", "{}", drawn[1]);
    assert_eq!(repeat["days"], 30);
    assert_eq!(repeat["article"], placeholder);

    // A court suspends one infraction from 12/12: from that day it is neither in the
    // catalogue nor charged; the day before it still is.
    let res = app
        .post(
            "/api/v1/legal-bases/ride-hailing/suspensions",
            &json!({"act": "suspensao", "rules": ["L4976-AGRESSAO"], "court": "TJMT",
                    "case_number": "1000001-00.2026.8.11.0000", "decided_on": "2026-12-10",
                    "effective_from": "2026-12-12"}),
        )
        .await;
    assert_eq!(
        res.status(),
        StatusCode::CREATED,
        "{}",
        res.text().await.unwrap()
    );
    let listed: Value = catalogue(&app).await;
    assert!(ids(&listed).contains(&"L4976-AGRESSAO".to_owned()));
    app.clock.set(noon("2026-12-12"));
    let listed: Value = catalogue(&app).await;
    assert!(
        !ids(&listed).contains(&"L4976-AGRESSAO".to_owned()),
        "{listed}"
    );
    refused("L4976-AGRESSAO", "2026-12-12T09:00:00-04:00").await;
    // The autos drawn up before keep their infraction as it was typified.
    let kept: Value = app
        .get_authed(&format!(
            "/api/v1/app-infraction-autos/{}",
            drawn[0]["id"].as_str().unwrap()
        ))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(kept["infraction"]["id"], "L4976-DEVER-CONDUTOR", "{kept}");
}

/// The charter law's requirements and infractions are data too: a version that drops one no
/// longer asks for (or charges) it, one that re-cites another cites it anew; a file naming an
/// unknown kind or document is refused with both problems.
#[tokio::test]
#[expect(
    clippy::too_many_lines,
    reason = "one story: the law's requirements and catalogue, then a version that changes both"
)]
async fn a_charter_basis_drops_and_re_cites_requirements_without_a_build() {
    let app = spawn_app().await;
    app.clock.set(crate::charter::noon("2025-06-02"));
    let c = crate::charter::company(&app, "2027-12-31").await;
    let path = format!("/api/v1/charter/companies/{c}/drivers");
    let activation = |file: &str| {
        let mut a = activation(file, "2025-06-02");
        a["act"]["date"] = json!("2025-06-01");
        a
    };
    let driver = |category: &str| {
        let mut d = crate::charter::charter_driver(category);
        d["toxicological_exam_on"] = Value::Null;
        d
    };
    let refused = |res: reqwest::Response| async move {
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let body: Value = res.json().await.unwrap();
        errors_of(&body)
            .into_iter()
            .map(|(rule, article, _)| (rule, article))
            .collect::<Vec<_>>()
    };
    // Lei 4.937/2025 asks for the toxicological exam.
    assert_eq!(
        refused(app.post(&path, &driver("D")).await).await,
        vec![("FRET-ART15-V".to_owned(), "art. 15, V".to_owned())]
    );

    let unknown = LEI_4937_2025_FILE
        .replace("LEI-4937-2025/v1", "LEI-4937-2025/v2")
        .replace("kind = \"bus_crlv\"", "kind = \"bus_color\"")
        .replace("item = \"cndt\"", "item = \"cnd_lunar\"");
    let (status, field, body) = first_field(
        app.post("/api/v1/legal-bases/charter", &activation(&unknown))
            .await,
    )
    .await;
    assert_eq!(
        (status, field.as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, "basis")
    );
    let all = body["errors"].to_string();
    assert!(
        all.contains("bus_color") && all.contains("cnd_lunar"),
        "{all}"
    );

    // A version without the exam, citing the licence its own way; it no longer types charging
    // on board, and cites the unregistered bus anew.
    let charging_at_the_door = "[[infractions]]\nid = \"FRET-ART19-IV\"\narticle = \"art. 19, IV\"\ndescription = \"Cobrar tarifa ou qualquer valor a bordo do veículo.\"\n";
    assert!(LEI_4937_2025_FILE.contains(charging_at_the_door));
    let tox = "[[requirements]]\nkind = \"driver_toxicological\"\nrule = \"FRET-ART15-V\"\ncitation = \"art. 15, V\"\n";
    assert!(LEI_4937_2025_FILE.contains(tox));
    let v2 = LEI_4937_2025_FILE
        .replace("LEI-4937-2025/v1", "LEI-4937-2025/v2")
        .replace(tox, "")
        .replace(
            "rule = \"FRET-ART15-I\"\ncitation = \"art. 15, I\"",
            "rule = \"FRET-ART15-I\"\ncitation = \"art. 15, I, na redação nova\"",
        )
        .replace(charging_at_the_door, "")
        .replace(
            "article = \"art. 19, III\"",
            "article = \"art. 19, III, na redação nova\"",
        );
    let res = app
        .post("/api/v1/legal-bases/charter", &activation(&v2))
        .await;
    assert_eq!(
        res.status(),
        StatusCode::CREATED,
        "{}",
        res.text().await.unwrap()
    );
    assert_eq!(
        refused(app.post(&path, &driver("B")).await).await,
        vec![(
            "FRET-ART15-I".to_owned(),
            "art. 15, I, na redação nova".to_owned()
        )]
    );
    let d = crate::charter::created(app.post(&path, &driver("D")).await).await;
    assert_eq!(d["status"], "ativo", "{d}");
    let catalogue: Value = app
        .get("/api/v1/charter/infractions")
        .await
        .json()
        .await
        .unwrap();
    let articles: Vec<&str> = catalogue["infractions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["article"].as_str().unwrap())
        .collect();
    assert_eq!(articles.len(), 5, "{catalogue}");
    assert!(
        articles.contains(&"art. 19, III, na redação nova"),
        "{articles:?}"
    );
    let auto = |infraction: &str| {
        json!({"infraction": infraction, "committed_on": "2025-06-01", "place": "BR-070",
               "facts": "Cobrança a bordo.", "inspector": "Fiscal de Posturas"})
    };
    let autos = format!("/api/v1/charter/companies/{c}/autos");
    assert_eq!(
        crate::charter::refused_field(app.post(&autos, &auto("FRET-ART19-IV")).await).await,
        "infraction"
    );
    let drawn = crate::charter::created(app.post(&autos, &auto("FRET-ART19-III")).await).await;
    assert_eq!(drawn["article"], "art. 19, III, na redação nova", "{drawn}");
    let listed = legal_bases(&app).await;
    let requirements = listed["charter"]["versions"][1]["parameters"]["requirements"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(
        requirements + 1,
        listed["charter"]["versions"][0]["parameters"]["requirements"]
            .as_array()
            .unwrap()
            .len()
    );
}

/// A court may suspend the charter law's provisions too: from the effect date the suspended
/// requirement is not asked for, and the law's listing names the suspension.
#[tokio::test]
async fn a_courts_suspension_of_a_charter_requirement_applies_from_its_date() {
    let app = spawn_app().await;
    app.clock.set(crate::charter::noon("2025-06-02"));
    let c = crate::charter::company(&app, "2027-12-31").await;
    let path = format!("/api/v1/charter/companies/{c}/drivers");
    let mut driver = crate::charter::charter_driver("D");
    driver["toxicological_exam_on"] = Value::Null;
    let suspension = |rules: Value| {
        json!({"act": "suspensao", "rules": rules, "court": "TJMT",
               "case_number": "1000002-00.2025.8.11.0000", "decided_on": "2025-06-02",
               "effective_from": "2025-06-03"})
    };
    let url = "/api/v1/legal-bases/charter/suspensions";
    let (status, field, _) =
        first_field(app.post(url, &suspension(json!(["APP-ART12-I"]))).await).await;
    assert_eq!(
        (status, field.as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, "rules")
    );
    let res = app.post(url, &suspension(json!(["FRET-ART15-V"]))).await;
    assert_eq!(
        res.status(),
        StatusCode::CREATED,
        "{}",
        res.text().await.unwrap()
    );
    // The day before its effect, the exam is still asked for.
    assert_eq!(
        crate::charter::refused_field(app.post(&path, &driver).await).await,
        "toxicological_exam_on"
    );
    app.clock.set(crate::charter::noon("2025-06-03"));
    let d = crate::charter::created(app.post(&path, &driver).await).await;
    assert_eq!(d["status"], "ativo", "{d}");
    let listed = legal_bases(&app).await;
    let today = listed["charter"]["suspended_today"].to_string();
    assert!(
        today.contains("art. 15, V") && today.contains("TJMT"),
        "{listed}"
    );
    assert_eq!(
        listed["ride_hailing"]["suspended_today"],
        json!([]),
        "{listed}"
    );
}

#[tokio::test]
async fn a_charter_auto_keeps_the_fine_of_the_basis_it_was_drawn_up_under() {
    let app = spawn_app().await;
    app.clock.set(crate::charter::noon("2025-06-20"));
    let c = crate::charter::company(&app, "2027-12-31").await;
    let autos = format!("/api/v1/charter/companies/{c}/autos");
    let auto = |infraction: &str, on: &str| {
        json!({"infraction": infraction, "committed_on": on, "place": "BR-070",
               "facts": "Constatado em fiscalização.", "inspector": "Fiscal de Posturas"})
    };
    let before = crate::charter::created(
        app.post(&autos, &auto("FRET-ART19-III", "2025-06-20"))
            .await,
    )
    .await;
    assert_eq!(before["fine"]["upf"], 500, "{before}");
    // From 01/07/2025 a new version fines 600 UPF.
    assert!(LEI_4937_2025_FILE.contains("\nfine_upf = 500\n"));
    let v2 = LEI_4937_2025_FILE
        .replace("LEI-4937-2025/v1", "LEI-4937-2025/v2")
        .replace("\nfine_upf = 500\n", "\nfine_upf = 600\n");
    let res = app
        .post(
            "/api/v1/legal-bases/charter",
            &activation(&v2, "2025-07-01"),
        )
        .await;
    assert_eq!(
        res.status(),
        StatusCode::CREATED,
        "{}",
        res.text().await.unwrap()
    );
    app.clock.set(crate::charter::noon("2025-07-10"));
    let after =
        crate::charter::created(app.post(&autos, &auto("FRET-ART19-II", "2025-07-10")).await).await;
    assert_eq!(after["fine"]["upf"], 600, "{after}");
    assert_eq!(after["legal_basis_version"], "LEI-4937-2025/v2", "{after}");
    // The earlier auto is still judged by the law of its day.
    let again: Value = app
        .get_authed(&format!(
            "/api/v1/charter/autos/{}",
            before["id"].as_str().unwrap()
        ))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(again["fine"]["upf"], 500, "{again}");
    assert_eq!(again["legal_basis_version"], "LEI-4937-2025/v1", "{again}");
}

/// The Termo task's page as Carla (charter issuer) opens it.
async fn termo_task(app: &TestApp) -> String {
    let mut carla = crate::panel::Browser::new(app);
    carla
        .sign_in("carla.sis", crate::helpers::OFFICIAL_PASSWORD)
        .await;
    let (status, page, _) = carla.get("/painel/tarefa/termo").await;
    assert_eq!(status, StatusCode::OK);
    page
}

#[tokio::test]
async fn the_termo_task_asks_for_the_certidoes_the_charter_basis_in_force_lists() {
    let app = spawn_app().await;
    app.clock.set(crate::charter::noon("2025-06-02"));
    app.official("carla.sis", "Carla Infraestrutura", "charter_issuer")
        .await;
    let page = termo_task(&app).await;
    assert!(page.contains("name=\"checklist.cndt\""), "{page}");
    assert!(page.contains("art. 7º, II, c"), "{page}");
    // A version without the CNDT, citing the FGTS its own way.
    let cndt = "[[requirements]]\nkind = \"company_document\"\nrule = \"FRET-ART7-II\"\ncitation = \"art. 7º, II, c\"\nitem = \"cndt\"\nneeds_validity = true\n";
    assert!(LEI_4937_2025_FILE.contains(cndt));
    let v2 = LEI_4937_2025_FILE
        .replace("LEI-4937-2025/v1", "LEI-4937-2025/v2")
        .replace(cndt, "")
        .replace(
            "citation = \"art. 7º, II, b\"\nitem = \"crf_fgts\"",
            "citation = \"art. 7º, II, b, na redação nova\"\nitem = \"crf_fgts\"",
        );
    let mut a = activation(&v2, "2025-06-02");
    a["act"]["date"] = json!("2025-06-01");
    let res = app.post("/api/v1/legal-bases/charter", &a).await;
    assert_eq!(
        res.status(),
        StatusCode::CREATED,
        "{}",
        res.text().await.unwrap()
    );
    let page = termo_task(&app).await;
    assert!(!page.contains("name=\"checklist.cndt\""), "{page}");
    assert!(page.contains("name=\"checklist.crf_fgts\""), "{page}");
    assert!(page.contains("art. 7º, II, b, na redação nova"), "{page}");
    assert!(!page.contains("art. 7º, II, c"), "{page}");
}
