//! Guided tasks: a grant judged before anything is written ("conferir", in the API and in the
//! back office), then the driver, the car and the grant done from one page of papers.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::bodies::{driver_body, vehicle_body};
use crate::helpers::{CNHS, CPFS, OFFICIAL_PASSWORD, PLATES, RENAVAMS, spawn_app};
use crate::pages::visible;
use crate::panel::{Browser, field};

/// The driver's certificates, the federal first-instance one issued `federal_1_on`.
fn certificates(federal_1_on: &str) -> Value {
    json!(
        ["estadual_1", "estadual_2", "federal_1", "federal_2"]
            .iter()
            .map(|c| {
                let on = if *c == "federal_1" {
                    federal_1_on
                } else {
                    "2026-11-10"
                };
                json!({"court": c, "issued_on": on, "valid_until": null, "clear": true})
            })
            .collect::<Vec<_>>()
    )
}

#[tokio::test]
#[expect(
    clippy::too_many_lines,
    reason = "one check after another on the same register"
)]
async fn a_check_judges_a_grant_with_every_article_and_writes_nothing() {
    let app = spawn_app().await;
    // 30/11/2026: a certificate of 22/08/2026 is 100 days old; without a printed validity it
    // lasted 90 days.
    let mut driver = driver_body(CPFS[0], CNHS[0]);
    driver["criminal_certificates"] = certificates("2026-08-22");
    let mut vehicle = vehicle_body(PLATES[0], RENAVAMS[0]);
    vehicle["doors"] = json!(2);
    let res = app
        .post(
            "/api/v1/app-authorization-checks",
            &json!({"driver": driver, "vehicle": vehicle, "fee_paid_on": "2026-11-20"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let check: Value = res.json().await.unwrap();
    assert_eq!(check["passes"], false, "{check}");
    assert_eq!(check["valid_until"], Value::Null);
    let errors = check["errors"].as_array().unwrap();
    let federal = errors
        .iter()
        .find(|e| e["field"] == "criminal_certificates.federal_1")
        .unwrap_or_else(|| panic!("{check}"));
    assert_eq!(federal["rule"], "APP-ART12-III");
    assert_eq!(federal["article"], "art. 12, III");
    let message = federal["message"].as_str().unwrap();
    assert!(message.contains("22/08/2026"), "{message}");
    assert!(message.contains("tem 100 dias"), "{message}");
    assert!(message.contains("a partir de 01/09/2026"), "{message}");
    assert!(
        errors
            .iter()
            .any(|e| e["field"] == "vehicle.doors" && e["rule"].is_string()),
        "{check}"
    );
    // Only the failures: the other three certificates are in force.
    assert_eq!(
        errors
            .iter()
            .filter(|e| e["rule"] == "APP-ART12-III")
            .count(),
        1,
        "{check}"
    );
    assert_eq!(check["driver"]["registered"], false);
    assert_eq!(check["driver"]["id"], Value::Null);

    // Nothing was written: the same driver and car register as new, and the first grant
    // takes the series' first number.
    let d = app.create_driver(&driver_body(CPFS[0], CNHS[0])).await;
    let v = app
        .create_vehicle(&vehicle_body(PLATES[0], RENAVAMS[0]))
        .await;

    // Registered parties by id, with a new certificate to file: the grant would be made.
    let res = app
        .post(
            "/api/v1/app-authorization-checks",
            &json!({"driver_id": d, "vehicle_id": v, "fee_paid_on": "2026-11-20",
                    "driver_record": {"criminal_certificates": certificates("2026-11-01")}}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let check: Value = res.json().await.unwrap();
    assert_eq!(check["passes"], true, "{check}");
    assert_eq!(check["valid_from"], "2026-11-20");
    assert_eq!(check["valid_until"], "2027-11-20");
    assert_eq!(check["driver"]["registered"], true);
    assert_eq!(check["driver"]["id"], d.as_str());
    assert_eq!(check["vehicle"]["plate"], "BRA2E19");
    let res = app.grant(&d, &v, "2026-11-20").await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let granted: Value = res.json().await.unwrap();
    assert_eq!(granted["number"], "APP-2026/000001", "{granted}");
    // Downloads are named by number, kind and plate.
    for (kind, name) in [
        ("app_sticker", "APP-2026-000001-adesivo-BRA2E19.pdf"),
        ("app_authorization", "APP-2026-000001-autorizacao.pdf"),
    ] {
        let doc = granted["documents"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["kind"] == kind)
            .unwrap();
        let res = app.get_authed(doc["url"].as_str().unwrap()).await;
        let disposition = res.headers()["content-disposition"].to_str().unwrap();
        assert!(
            disposition.contains(&format!("filename=\"{name}\"")),
            "{disposition}"
        );
    }

    // A new driver whose CPF is taken, a malformed plate: said by field, nothing judged.
    let res = app
        .post(
            "/api/v1/app-authorization-checks",
            &json!({"driver": driver_body(CPFS[0], CNHS[1]), "vehicle_id": v,
                    "fee_paid_on": "2026-11-20"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let check: Value = res.json().await.unwrap();
    assert_eq!(check["passes"], false);
    assert!(
        check["errors"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["field"] == "cpf" && e["message"].as_str().unwrap().contains("CPF")),
        "{check}"
    );
    let mut bad = vehicle_body("XX", RENAVAMS[1]);
    bad["doors"] = json!(4);
    let res = app
        .post(
            "/api/v1/app-authorization-checks",
            &json!({"driver_id": d, "vehicle": bad, "fee_paid_on": "20/11/2026"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let problem: Value = res.json().await.unwrap();
    let fields: Vec<&str> = problem["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert!(fields.contains(&"vehicle.plate"), "{problem}");
    assert!(fields.contains(&"fee_paid_on"), "{problem}");
}

/// The papers of a compliant new driver and car, as the task's fields.
fn papers<'a>(csrf: &'a str, cpf: &'a str, federal_1_on: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("_csrf", csrf),
        ("cpf", cpf),
        ("name", "Antônio Pereira Lima"),
        ("cnh.number", CNHS[1]),
        ("cnh.category", "B"),
        ("cnh.ear", "true"),
        ("cnh.first_license_date", "10/03/2015"),
        ("cnh.expires_on", "15/03/2030"),
        ("criminal_certificates.estadual_1", "10/11/2026"),
        ("criminal_certificates.estadual_2", "10/11/2026"),
        ("criminal_certificates.federal_1", federal_1_on),
        ("criminal_certificates.federal_2", "10/11/2026"),
        ("vehicle.plate", "QWE1R23"),
        ("vehicle.renavam", RENAVAMS[2]),
        ("vehicle.make", "Fiat"),
        ("vehicle.model", "Cronos"),
        ("vehicle.color", "Branca"),
        ("vehicle.model_year", "2023"),
        ("vehicle.doors", "4"),
        ("vehicle.air_conditioning", "true"),
        ("vehicle.capacity_including_driver", "5"),
        ("vehicle.registration_municipality_ibge", "5101803"),
        ("vehicle.owner_type", "proprietario"),
        ("fee_paid_on", "20/11/2026"),
    ]
}

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one clerk's morning at the counter")]
async fn a_clerk_confers_then_registers_and_grants_from_one_page() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let (status, home, _) = ana.get("/painel").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        home.contains("href=\"/painel/tarefa/autorizacao\""),
        "{home}"
    );
    let (status, page, _) = ana.get("/painel/tarefa/autorizacao").await;
    assert_eq!(status, StatusCode::OK);
    let csrf = field(&page, "_csrf").unwrap();
    // The labelled choices, never a code.
    assert!(page.contains(">Proprietário(a)</option>"), "{page}");
    assert!(page.contains(">Barra do Garças (MT)</option>"), "{page}");

    // Conferir with a 100-day-old federal certificate: the failure beside its field, with
    // its article; nothing written.
    let mut form = papers(&csrf, CPFS[1], "22/08/2026");
    form.push(("acao", "conferir"));
    let (status, page, _) = ana.post("/painel/tarefa/autorizacao", &form).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let beside = page
        .split("id=\"e-criminal_certificates.federal_1\">")
        .nth(1)
        .unwrap_or_else(|| panic!("{page}"));
    let beside = beside.split("</p>").next().unwrap();
    assert!(beside.contains("tem 100 dias"), "{beside}");
    assert!(beside.contains("art. 12, III"), "{beside}");
    assert!(page.contains("nada foi gravado"), "{page}");
    // What was typed stays, the days as the date fields show them.
    assert!(page.contains("value=\"2030-03-15\""), "{page}");
    let res = app
        .post("/api/v1/drivers", &driver_body(CPFS[1], CNHS[1]))
        .await;
    assert_eq!(
        res.status(),
        StatusCode::CREATED,
        "the check wrote the driver"
    );
    let registered: Value = res.json().await.unwrap();

    // A certificate in force: conferred, then granted in one submission. The driver is now
    // registered: the CPF is enough, and the name shows beside it.
    let mut form = papers(&csrf, CPFS[1], "10/11/2026");
    form.push(("acao", "conferir"));
    let (status, page, _) = ana.post("/painel/tarefa/autorizacao", &form).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        page.contains("Conferido: todos os requisitos atendidos. A autorização valerá de 20/11/2026 a 20/11/2027."),
        "{page}"
    );
    assert!(
        page.contains("Cadastrado(a): Maria da Silva Souza"),
        "{page}"
    );
    let mut form = papers(&csrf, CPFS[1], "10/11/2026");
    form.push(("acao", "conceder"));
    let (status, page, location) = ana.post("/painel/tarefa/autorizacao", &form).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let location = location.unwrap();
    assert!(
        location.starts_with("/painel/ver/app-authorizations/"),
        "{location}"
    );
    let id = location
        .trim_start_matches("/painel/ver/app-authorizations/")
        .split('?')
        .next()
        .unwrap();
    let granted = app
        .get_json(&format!("/api/v1/app-authorizations/{id}"))
        .await;
    assert_eq!(granted["driver_id"], registered["id"], "{granted}");
    assert_eq!(granted["valid_until"], "2027-11-20");
    // The car was new: registered with the task's data, in the driver's own name.
    let vehicle = app
        .get_json(&format!(
            "/api/v1/vehicles/{}",
            granted["vehicle_id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(vehicle["model"], "Cronos", "{vehicle}");
    assert_eq!(vehicle["owner_type"], "proprietario", "{vehicle}");
    // The certificates typed for a registered driver were filed with the grant.
    let driver = app
        .get_json(&format!(
            "/api/v1/drivers/{}",
            registered["id"].as_str().unwrap()
        ))
        .await;
    assert!(driver.to_string().contains("2026-11-10"), "{driver}");

    // Driver and car registered: CPF, plate and fee are the whole task.
    let d = app.create_driver(&driver_body(CPFS[2], CNHS[2])).await;
    let _ = d;
    app.create_vehicle(&vehicle_body(PLATES[0], RENAVAMS[0]))
        .await;
    let (status, page, location) = ana
        .post(
            "/painel/tarefa/autorizacao",
            &[
                ("_csrf", csrf.as_str()),
                ("cpf", CPFS[2]),
                ("vehicle.plate", "bra-2e19"),
                ("fee_paid_on", "25/11/2026"),
                ("acao", "conceder"),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    assert!(
        location
            .unwrap()
            .starts_with("/painel/ver/app-authorizations/")
    );

    // Without the CSRF token nothing happens.
    let (status, _, _) = ana
        .post(
            "/painel/tarefa/autorizacao",
            &[("cpf", CPFS[2]), ("acao", "conceder")],
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn an_irreversible_act_names_what_it_acts_on_and_asks_for_confirmation() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let grant = app.granted().await;
    let id = grant["id"].as_str().unwrap();
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let (status, page, _) = ana
        .get(&format!("/painel/acao/authorizations.revoke?id={id}"))
        .await;
    assert_eq!(status, StatusCode::OK);
    let text = visible(&page);
    assert!(
        text.contains("Sobre: Autorização APP-2026/000001 — Maria da Silva Souza, placa BRA2E19"),
        "{text}"
    );
    assert!(!text.contains(id), "{text}");
    assert!(text.contains("Este ato não pode ser desfeito"), "{text}");
    assert!(page.contains(">Revogar a autorização</button>"), "{page}");
    let csrf = field(&page, "_csrf").unwrap();
    let path = format!("/painel/acao/authorizations.revoke?id={id}");
    // Without the confirmation, nothing is revoked.
    let (status, page, _) = ana
        .post(
            &path,
            &[
                ("_csrf", csrf.as_str()),
                ("id", id),
                ("reason", "Pedido do condutor"),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.contains("Marque a confirmação"), "{page}");
    let now = app
        .get_json(&format!("/api/v1/app-authorizations/{id}"))
        .await;
    assert_eq!(now["status"], "active", "{now}");
    let (status, _, location) = ana
        .post(
            &path,
            &[
                ("_csrf", csrf.as_str()),
                ("id", id),
                ("reason", "Pedido do condutor"),
                ("_confirmo", "sim"),
            ],
        )
        .await;
    assert!(
        status.is_success() || status == StatusCode::SEE_OTHER,
        "{status} {location:?}"
    );
    let now = app
        .get_json(&format!("/api/v1/app-authorizations/{id}"))
        .await;
    assert_eq!(now["status"], "revoked", "{now}");

    // The record reads like a file: the driver's name and the plate, not "Abrir"; no id.
    let (_, page, _) = ana
        .get(&format!("/painel/ver/app-authorizations/{id}"))
        .await;
    let text = visible(&page);
    assert!(text.contains("Maria da Silva Souza"), "{text}");
    assert!(text.contains("BRA2E19 · Chevrolet Onix Plus"), "{text}");
    assert!(!text.contains(id), "{text}");
    assert!(!text.contains("\"kind\""), "{text}");
}

#[tokio::test]
async fn a_clerk_renews_from_the_worklist_by_cpf_with_a_check_first() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let a = app.granted().await;
    assert_eq!(
        app.vistoria(&a, "2026-11-30", true).await.status(),
        StatusCode::CREATED
    );
    app.clock.set(crate::helpers::at("2027-11-01T15:00:00Z"));
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let (status, page, _) = ana
        .get(&format!(
            "/painel/tarefa/renovacao?id={}",
            a["id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(status, StatusCode::OK);
    let csrf = field(&page, "_csrf").unwrap();
    // A fee paid before the window opens (60 days before 20/11/2027): the article says when.
    let (status, page, _) = ana
        .post(
            "/painel/tarefa/renovacao",
            &[
                ("_csrf", csrf.as_str()),
                ("autorizacao", CPFS[0]),
                ("fee_paid_on", "01/09/2027"),
                ("acao", "conferir"),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    let beside = page
        .split("id=\"e-fee_paid_on\">")
        .nth(1)
        .unwrap_or_else(|| panic!("{page}"));
    assert!(beside.contains("art. 3º"), "{beside}");
    assert!(page.contains("Autorização APP-2026/000001 — Maria da Silva Souza, placa BRA2E19, válida até 20/11/2027"), "{page}");
    let form = |acao: &'static str| -> Vec<(&'static str, String)> {
        vec![
            ("_csrf", csrf.clone()),
            ("autorizacao", "bra2e19".to_owned()),
            ("fee_paid_on", "01/11/2027".to_owned()),
            ("criminal_certificates.federal_1", "20/10/2027".to_owned()),
            ("acao", acao.to_owned()),
        ]
    };
    let conferir = form("conferir");
    let refs: Vec<(&str, &str)> = conferir.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (status, page, _) = ana.post("/painel/tarefa/renovacao", &refs).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        page.contains("A nova autorização valerá de 21/11/2027 a"),
        "{page}"
    );
    let renovar = form("renovar");
    let refs: Vec<(&str, &str)> = renovar.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (status, page, location) = ana.post("/painel/tarefa/renovacao", &refs).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let id = location
        .unwrap()
        .trim_start_matches("/painel/ver/app-authorizations/")
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    let renewed = app
        .get_json(&format!("/api/v1/app-authorizations/{id}"))
        .await;
    assert_eq!(renewed["number"], "APP-2027/000001", "{renewed}");
    assert_eq!(renewed["renewal_of"], a["id"], "{renewed}");
    assert_eq!(renewed["valid_from"], "2027-11-21", "{renewed}");
}

#[tokio::test]
async fn a_charter_clerk_renews_the_termo_with_the_certidoes_brought_again() {
    use crate::charter::{company, created, noon, termo};
    let app = spawn_app().await;
    app.official("carla.sis", "Carla Infraestrutura", "charter_issuer")
        .await;
    app.clock.set(noon("2025-06-02"));
    let c = company(&app, "2026-12-31").await;
    let first = created(termo(&app, &c).await).await;
    // On 10/05/2027 the certidões filed in 2025 have lapsed.
    app.clock.set(noon("2027-05-10"));
    let mut carla = Browser::new(&app);
    carla.sign_in("carla.sis", OFFICIAL_PASSWORD).await;
    let (status, page, _) = carla.get(&format!("/painel/tarefa/termo?id={c}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("value=\"11.222.333/0001-81\""), "{page}");
    let csrf = field(&page, "_csrf").unwrap();
    let (status, page, _) = carla
        .post(
            "/painel/tarefa/termo",
            &[
                ("_csrf", csrf.as_str()),
                ("cnpj", "11222333000181"),
                ("acao", "conferir"),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    let beside = page
        .split("id=\"e-checklist.cnd_federal\">")
        .nth(1)
        .unwrap_or_else(|| panic!("{page}"));
    assert!(
        beside.contains("31/12/2026") && beside.contains("art. 7º"),
        "{beside}"
    );
    assert!(
        page.contains("Cadastrada: Araguaia Fretamentos Ltda."),
        "{page}"
    );
    // The five brought again: conferred, then issued; the new Termo follows the first.
    let mut form: Vec<(String, String)> = vec![
        ("_csrf".into(), csrf.clone()),
        ("cnpj".into(), "11.222.333/0001-81".into()),
    ];
    for item in [
        "cnd_federal",
        "cnd_estadual",
        "cnd_municipal",
        "crf_fgts",
        "cndt",
    ] {
        form.push((format!("checklist.{item}"), "02/05/2027".into()));
        form.push((format!("checklist.{item}.valid_until"), "31/10/2027".into()));
    }
    let send = |acao: &str| {
        let mut f = form.clone();
        f.push(("acao".into(), acao.to_owned()));
        f
    };
    let conferir = send("conferir");
    let refs: Vec<(&str, &str)> = conferir
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let (status, page, _) = carla.post("/painel/tarefa/termo", &refs).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        page.contains(&format!(
            "O Termo valerá de 03/06/2027 a 02/06/2029, renovando o {}",
            first["number"].as_str().unwrap()
        )),
        "{page}"
    );
    let company_now = app
        .get_json(&format!("/api/v1/charter/companies/{c}"))
        .await;
    assert_eq!(
        company_now["termos"].as_array().unwrap().len(),
        1,
        "the check wrote"
    );
    let emitir = send("emitir");
    let refs: Vec<(&str, &str)> = emitir
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let (status, page, location) = carla.post("/painel/tarefa/termo", &refs).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    assert!(
        location
            .unwrap()
            .starts_with(&format!("/painel/ver/charter/companies/{c}"))
    );
    let company_now = app
        .get_json(&format!("/api/v1/charter/companies/{c}"))
        .await;
    let termos = company_now["termos"].as_array().unwrap();
    assert_eq!(termos.len(), 2, "{company_now}");
    assert!(
        termos.iter().any(|t| t["valid_until"] == "2029-06-02"),
        "{company_now}"
    );
}

#[tokio::test]
async fn a_charter_clerk_confers_and_records_a_vistoria_that_issues_the_selo() {
    use crate::charter::{minibus_company, noon};
    let (app, _, minibus) = minibus_company().await;
    app.official("carla.sis", "Carla Infraestrutura", "charter_issuer")
        .await;
    let vid = minibus["id"].as_str().unwrap();
    // The check through the API: on the day of the enrolment the minibus would get its selo;
    // a year later its ITV (every 6 months, art. 12, IV) has lapsed, and the check says so.
    let check = |on: &'static str| {
        let app = &app;
        async move {
            let res = app
                .post(
                    &format!("/api/v1/charter/vehicles/{vid}/vistoria-checks"),
                    &json!({"performed_on": on}),
                )
                .await;
            assert_eq!(res.status(), StatusCode::OK);
            res.json::<Value>().await.unwrap()
        }
    };
    assert_eq!(check("2025-06-02").await["passes"], true);
    app.clock.set(noon("2026-06-10"));
    let late = check("2026-06-10").await;
    assert_eq!(late["passes"], false, "{late}");
    assert!(
        late["errors"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["rule"] == "FRET-ART12-IV" && e["field"] == "itv_report_date"),
        "{late}"
    );
    assert_eq!(late["plate"], "QBA1C23");
    // Nothing was recorded by the checks.
    let kinds = app
        .event_kinds(&format!("/api/v1/charter/vehicles/{vid}/history"))
        .await;
    assert!(!kinds.iter().any(|k| k == "vistoria_recorded"), "{kinds:?}");

    // The task, back on the enrolment day: conferir, then record; the selo is issued.
    app.clock.set(noon("2025-06-02"));
    let mut carla = Browser::new(&app);
    carla.sign_in("carla.sis", OFFICIAL_PASSWORD).await;
    let (status, page, _) = carla
        .get(&format!("/painel/tarefa/vistoria?id={vid}"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("value=\"QBA1C23\""), "{page}");
    assert!(
        page.contains("value=\"Carla Infraestrutura\""),
        "the inspector is the official signed in: {page}"
    );
    let csrf = field(&page, "_csrf").unwrap();
    let form = |acao| {
        [
            ("_csrf", csrf.clone()),
            ("placa", "qba1c23".to_owned()),
            ("performed_on", "02/06/2025".to_owned()),
            ("approved", "true".to_owned()),
            ("inspector", "Carla Infraestrutura".to_owned()),
            ("acao", acao),
        ]
    };
    let sent = form("conferir".to_owned());
    let refs: Vec<(&str, &str)> = sent.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (status, page, _) = carla.post("/painel/tarefa/vistoria", &refs).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("emitirá o selo do veículo QBA1C23"), "{page}");
    let sent = form("registrar".to_owned());
    let refs: Vec<(&str, &str)> = sent.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (status, page, location) = carla.post("/painel/tarefa/vistoria", &refs).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    assert!(
        location
            .unwrap()
            .starts_with(&format!("/painel/ver/charter/vehicles/{vid}"))
    );
    let kinds = app
        .event_kinds(&format!("/api/v1/charter/vehicles/{vid}/history"))
        .await;
    assert!(kinds.iter().any(|k| k == "vistoria_recorded"), "{kinds:?}");
}

#[tokio::test]
async fn a_drivers_record_shows_the_certificate_in_force_per_court_and_marks_the_replaced() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let grant = app.granted().await;
    let driver = grant["driver_id"].as_str().unwrap();
    // A newer federal certificate of the first instance (no validity printed: 90 days)
    // replaces the one filed with the grant.
    let res = app
        .post(
            &format!("/api/v1/drivers/{driver}/record"),
            &json!({"criminal_certificates": [
                {"court": "federal_1", "issued_on": "2026-11-25", "clear": true},
            ]}),
        )
        .await;
    assert_eq!(
        res.status(),
        StatusCode::CREATED,
        "{}",
        res.text().await.unwrap()
    );
    let body: Value = res.json().await.unwrap();
    let standing = |court: &str, issued: &str| -> String {
        body["certificates"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["court"] == court && c["issued_on"] == issued)
            .unwrap_or_else(|| panic!("{court} {issued}: {body}"))["standing"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(standing("federal_1", "2026-11-25"), "em_vigor");
    assert_eq!(standing("federal_1", "2025-06-01"), "substituida");
    assert_eq!(standing("estadual_1", "2025-06-01"), "em_vigor");
    assert_eq!(body["certificates"].as_array().unwrap().len(), 5, "{body}");

    // The record page says so in words, in one table, without the raw list beside it.
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let (status, page, _) = ana.get(&format!("/painel/ver/drivers/{driver}")).await;
    assert_eq!(status, StatusCode::OK);
    let text = visible(&page);
    assert!(
        text.contains("Certidões criminais: situação de cada uma hoje"),
        "{text}"
    );
    assert!(text.contains("Substituída por uma mais recente"), "{text}");
    assert_eq!(text.matches("Em vigor").count(), 4, "{text}");
    assert!(
        text.contains("25/11/2026") && text.contains("23/02/2027"),
        "{text}"
    );
    assert!(
        !text.contains("federal_1") && !text.contains("em_vigor"),
        "{text}"
    );
    // One table, its columns as the certificate reads; the raw list is not shown beside it.
    assert!(
        text.contains("Justiça Emitido em Válido até Situação Nada consta"),
        "{text}"
    );
    assert!(!text.contains("Registros · Certidões criminais"), "{text}");
}

#[tokio::test]
async fn a_clerk_confers_and_substitutes_the_car_by_plate_and_the_check_writes_nothing() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let a = app.granted().await;
    let id = a["id"].as_str().unwrap();
    assert_eq!(
        app.vistoria(&a, "2026-11-30", true).await.status(),
        StatusCode::CREATED
    );
    app.clock.advance(chrono::Duration::days(10));
    app.create_vehicle(&crate::bodies::vehicle_body(PLATES[1], RENAVAMS[1]))
        .await;
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    // The record offers the task, with the authorization named.
    let (_, record, _) = ana
        .get(&format!("/painel/ver/app-authorizations/{id}"))
        .await;
    assert!(
        record.contains(&format!("/painel/tarefa/substituicao?id={id}")),
        "{record}"
    );
    let (status, page, _) = ana
        .get(&format!("/painel/tarefa/substituicao?id={id}"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        field(&page, "autorizacao").as_deref(),
        Some("APP-2026/000001")
    );
    assert!(visible(&page).contains("Motivo da substituição"), "{page}");
    assert!(page.contains(">Locação</option>"), "{page}");
    let csrf = field(&page, "_csrf").unwrap();
    let form = |approved: &'static str, acao: &'static str| {
        vec![
            ("_csrf", csrf.clone()),
            ("autorizacao", CPFS[0].to_owned()),
            ("placa_nova", "abc1234".to_owned()),
            ("cause", "venda".to_owned()),
            ("vistoria.performed_on", "09/12/2026".to_owned()),
            ("vistoria.approved", approved.to_owned()),
            ("vistoria.inspector", "Fiscal SMF".to_owned()),
            ("acao", acao.to_owned()),
        ]
    };
    // A failed vistoria: the reason beside the result, with its article; nothing written.
    let (status, page, _) = post_task(
        &mut ana,
        "/painel/tarefa/substituicao",
        &form("false", "substituir"),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    let beside = page
        .split("id=\"e-vistoria.approved\">")
        .nth(1)
        .unwrap_or_else(|| panic!("{page}"));
    assert!(
        beside.starts_with("O veículo novo precisa ser aprovado"),
        "{beside}"
    );
    assert!(beside.contains("art. 8º, §2º"), "{beside}");
    assert!(page.contains("Cadastrado: "), "{page}");
    let (status, page, _) = post_task(
        &mut ana,
        "/painel/tarefa/substituicao",
        &form("true", "conferir"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        visible(&page).contains("A autorização APP-2026/000001 passará ao veículo ABC"),
        "{}",
        visible(&page)
    );
    let unchanged = app
        .get_json(&format!("/api/v1/app-authorizations/{id}"))
        .await;
    assert_eq!(unchanged["vehicle_substitutions"], 0, "{unchanged}");
    let (status, page, location) = post_task(
        &mut ana,
        "/painel/tarefa/substituicao",
        &form("true", "substituir"),
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    assert!(
        location
            .unwrap()
            .starts_with(&format!("/painel/ver/app-authorizations/{id}?feito=")),
    );
    let after = app
        .get_json(&format!("/api/v1/app-authorizations/{id}"))
        .await;
    assert_eq!(after["vehicle_substitutions"], 1, "{after}");
    assert_eq!(after["number"], a["number"]);
}

#[tokio::test]
async fn a_clerk_issues_a_certidao_by_cpf_after_seeing_what_it_will_certify() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    app.granted().await;
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let (status, page, _) = ana.get("/painel/tarefa/certidao").await;
    assert_eq!(status, StatusCode::OK);
    let csrf = field(&page, "_csrf").unwrap();
    let (status, page, _) = ana
        .post(
            "/painel/tarefa/certidao",
            &[
                ("_csrf", csrf.as_str()),
                ("autorizacao", CPFS[0]),
                ("subject", "app_driver"),
                ("protocol", ""),
                ("acao", "emitir"),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(
        page.contains("id=\"e-protocol\">Campo obrigatório."),
        "{page}"
    );
    let (status, page, _) = ana
        .post(
            "/painel/tarefa/certidao",
            &[
                ("_csrf", csrf.as_str()),
                ("autorizacao", CPFS[0]),
                ("subject", "app_driver"),
                ("protocol", "2026/777"),
                ("acao", "conferir"),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        visible(&page).contains(
            "A certidão certificará a situação de hoje da autorização APP-2026/000001: ativa."
        ),
        "{}",
        visible(&page)
    );
    let (status, page, _) = ana
        .post(
            "/painel/tarefa/certidao",
            &[
                ("_csrf", csrf.as_str()),
                ("autorizacao", CPFS[0]),
                ("subject", "app_driver"),
                ("protocol", "2026/777"),
                ("acao", "emitir"),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let text = visible(&page);
    assert!(text.contains("Registrado."), "{text}");
    assert!(text.contains("CERT-APP-2026/000001"), "{text}");
    assert!(text.contains("Itens"), "{text}");
}

/// Posts a task's form (pairs of owned values).
async fn post_task(
    b: &mut Browser<'_>,
    path: &str,
    form: &[(&str, String)],
) -> (StatusCode, String, Option<String>) {
    let refs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    b.post(path, &refs).await
}

#[tokio::test]
#[expect(
    clippy::too_many_lines,
    reason = "one procedure walked act by act, as a clerk does"
)]
async fn a_clerk_records_the_notification_then_sees_the_defence_come_next_with_its_deadline() {
    let app = spawn_app().await; // 30/11/2026
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let grant = app.granted().await;
    let mut body = crate::autos::auto_body(
        grant["driver_id"].as_str().unwrap(),
        "APP-ART26-VI",
        "2026-11-30T08:00",
    );
    body["authorization_id"] = grant["id"].clone();
    let res = app.post("/api/v1/app-infraction-autos", &body).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let auto: Value = res.json().await.unwrap();
    let id = auto["id"].as_str().unwrap();
    let number = auto["number"].as_str().unwrap();
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    // The auto's page leads to the task; the task opens on the act that comes next.
    let (_, record, _) = ana
        .get(&format!("/painel/ver/app-infraction-autos/{id}"))
        .await;
    assert!(
        record.contains(&format!("/painel/tarefa/procedimento?id={id}")),
        "{record}"
    );
    let (status, page, _) = ana
        .get(&format!("/painel/tarefa/procedimento?id={id}"))
        .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let text = visible(&page);
    assert!(text.contains("Notificação do autuado"), "{text}");
    assert!(
        text.contains("fase: lavrado, aguardando a notificação"),
        "{text}"
    );
    assert!(text.contains("Maria da Silva Souza"), "{text}");
    assert!(
        page.contains(&format!("name=\"auto\" type=\"text\" value=\"{number}\"")),
        "{page}"
    );
    let csrf = field(&page, "_csrf").unwrap();
    let notification = |acao: &str| {
        vec![
            ("_csrf", csrf.clone()),
            ("auto", number.to_owned()),
            ("ato", "notificacao".to_owned()),
            ("method", "post".to_owned()),
            ("notified_on", "30/11/2026".to_owned()),
            ("juntada_on", "30/11/2026".to_owned()),
            ("acao", acao.to_owned()),
        ]
    };
    let path = "/painel/tarefa/procedimento";
    let (status, page, _) = post_task(&mut ana, path, &notification("conferir")).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let text = visible(&page);
    assert!(
        text.contains("Depois do ato, a fase será: notificado, no prazo de defesa; defesa até "),
        "{text}"
    );
    let unchanged = app
        .get_json(&format!("/api/v1/app-infraction-autos/{id}"))
        .await;
    assert!(unchanged["notification"].is_null(), "{unchanged}");
    let (status, page, location) = post_task(&mut ana, path, &notification("registrar")).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    assert_eq!(
        location.as_deref(),
        Some(format!("/painel/ver/app-infraction-autos/{id}?feito=autos.notify").as_str())
    );
    let notified = app
        .get_json(&format!("/api/v1/app-infraction-autos/{id}"))
        .await;
    assert_eq!(
        notified["notification"]["juntada_on"], "2026-11-30",
        "{notified}"
    );
    // Next: the defence, with the payment offered beside it.
    let (_, page, _) = ana
        .get(&format!("/painel/tarefa/procedimento?id={id}"))
        .await;
    let text = visible(&page);
    assert!(
        text.contains("Ato a registrar: Defesa · Decisão · Pagamento da multa"),
        "{text}"
    );
    assert!(text.contains("Número do protocolo"), "{text}");
    // A defence dated before the notification: the reason beside its date, nothing written.
    let defence = vec![
        ("_csrf", csrf.clone()),
        ("auto", number.to_owned()),
        ("ato", "defesa".to_owned()),
        ("protocol", "PG-2026/881".to_owned()),
        ("filed_on", "20/11/2026".to_owned()),
        ("acao", "conferir".to_owned()),
    ];
    let (status, page, _) = post_task(&mut ana, path, &defence).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("id=\"e-filed_on\">"), "{page}");
    // A payment typed in reais that is not an amount; an act the stage does not allow.
    let payment = vec![
        ("_csrf", csrf.clone()),
        ("auto", number.to_owned()),
        ("ato", "pagamento".to_owned()),
        ("guia", "DAM 2026/1".to_owned()),
        ("paid_on", "30/11/2026".to_owned()),
        ("amount_centavos", "mil reais".to_owned()),
        ("acao", "conferir".to_owned()),
    ];
    let (status, page, _) = post_task(&mut ana, path, &payment).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(
        page.contains("id=\"e-amount_centavos\">Valor inválido; use reais, como 1.150,00."),
        "{page}"
    );
    let inscription = vec![
        ("_csrf", csrf.clone()),
        ("auto", number.to_owned()),
        ("ato", "inscricao_divida_ativa".to_owned()),
        ("acao", "registrar".to_owned()),
    ];
    let (status, page, _) = post_task(&mut ana, path, &inscription).await;
    assert_eq!(status, StatusCode::CONFLICT, "{page}");
    assert!(
        visible(&page)
            .contains("Este ato não cabe na fase atual do auto (notificado, no prazo de defesa)."),
        "{page}"
    );
    let history = app
        .event_kinds(&format!("/api/v1/app-infraction-autos/{id}/history"))
        .await;
    assert!(!history.iter().any(|k| k == "procedure_act"), "{history:?}");
}

#[tokio::test]
#[expect(
    clippy::too_many_lines,
    reason = "two enrolments from their papers, each refused then accepted"
)]
async fn a_charter_clerk_enrols_a_bus_and_a_driver_from_their_papers_after_a_check() {
    use crate::charter::{company, noon};
    let app = spawn_app().await;
    app.official("carla.sis", "Carla Infraestrutura", "charter_issuer")
        .await;
    app.clock.set(noon("2025-06-02"));
    let c = company(&app, "2026-12-31").await;
    let mut carla = Browser::new(&app);
    carla.sign_in("carla.sis", OFFICIAL_PASSWORD).await;
    // The company's page leads to both tasks, with the company named.
    let (_, record, _) = carla
        .get(&format!("/painel/ver/charter/companies/{c}"))
        .await;
    assert!(
        record.contains(&format!("/painel/tarefa/onibus?id={c}")),
        "{record}"
    );
    assert!(
        record.contains(&format!("/painel/tarefa/motorista?id={c}")),
        "{record}"
    );
    let (status, page, _) = carla.get(&format!("/painel/tarefa/onibus?id={c}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("value=\"11.222.333/0001-81\""), "{page}");
    assert!(page.contains(">Micro-ônibus</option>"), "{page}");
    let csrf = field(&page, "_csrf").unwrap();
    let bus = |first_registration: &str, acao: &str| -> Vec<(&'static str, String)> {
        vec![
            ("_csrf", csrf.clone()),
            ("cnpj", "11.222.333/0001-81".into()),
            ("plate", "QWE1R23".into()),
            ("renavam", RENAVAMS[2].into()),
            ("kind", "micro_onibus".into()),
            ("make", "Marcopolo".into()),
            ("model", "Volare W9".into()),
            ("model_year", "2015".into()),
            ("first_registration_date", first_registration.into()),
            ("crlv_year", "2025".into()),
            ("seated_capacity", "20".into()),
            ("doors", "2".into()),
            ("has_turnstile", "false".into()),
            ("zero_km", "false".into()),
            ("owner_cnpj", "11.222.333/0001-81".into()),
            ("ownership_proof", "crv_e".into()),
            ("itv_report_date", "02/05/2025".into()),
            ("itv_provider", "ITV Credenciada Ltda.".into()),
            ("insurance.insurer", "Seguradora Exemplo".into()),
            ("insurance.policy", "RC-1".into()),
            ("insurance.valid_from", "01/01/2025".into()),
            ("insurance.valid_to", "31/12/2026".into()),
            ("acao", acao.into()),
        ]
    };
    // A bus first registered in 2005 is over the law's age: the reason beside its date.
    let (status, page, _) = post_task(
        &mut carla,
        "/painel/tarefa/onibus",
        &bus("10/03/2005", "conferir"),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    let beside = page
        .split("id=\"e-first_registration_date\">")
        .nth(1)
        .unwrap_or_else(|| panic!("{page}"));
    assert!(beside.contains("art. 13"), "{beside}");
    let (status, page, _) = post_task(
        &mut carla,
        "/painel/tarefa/onibus",
        &bus("10/03/2015", "conferir"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        visible(&page)
            .contains("O veículo será cadastrado na empresa. (Araguaia Fretamentos Ltda.)"),
        "{}",
        visible(&page)
    );
    assert!(
        app.get_authed("/api/v1/charter/vehicles/by-plate/QWE1R23")
            .await
            .status()
            == StatusCode::NOT_FOUND
    );
    let (status, page, location) = post_task(
        &mut carla,
        "/painel/tarefa/onibus",
        &bus("10/03/2015", "cadastrar"),
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    assert!(
        location
            .unwrap()
            .starts_with("/painel/ver/charter/vehicles/")
    );
    let bus = app
        .get_json("/api/v1/charter/vehicles/by-plate/QWE1R23")
        .await;
    assert_eq!(bus["company_id"], c.as_str(), "{bus}");

    // The driver: a category B licence is refused beside the category, with its article.
    let driver = |category: &str, acao: &str| -> Vec<(&'static str, String)> {
        vec![
            ("_csrf", csrf.clone()),
            ("cnpj", "11222333000181".into()),
            ("name", "João da Silva".into()),
            ("cpf", CPFS[1].into()),
            ("birth_date", "01/05/1990".into()),
            ("cnh_number", crate::helpers::CNHS[1].into()),
            ("cnh_category", category.into()),
            ("cnh_ear", "true".into()),
            ("cnh_expires_on", "01/01/2028".into()),
            ("course_certificate.reference", "Curso TCP".into()),
            ("course_certificate.valid_until", "01/01/2029".into()),
            ("folha_corrida.reference", "FC-1".into()),
            ("folha_corrida.issued_on", "20/05/2025".into()),
            ("employment_link.kind", "ctps_digital".into()),
            ("employment_link.reference", "CTPS 123".into()),
            ("toxicological_exam_on", "01/06/2024".into()),
            ("acao", acao.into()),
        ]
    };
    let (status, page, _) = post_task(
        &mut carla,
        "/painel/tarefa/motorista",
        &driver("B", "cadastrar"),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    let beside = page
        .split("id=\"e-cnh_category\">")
        .nth(1)
        .unwrap_or_else(|| panic!("{page}"));
    assert!(beside.contains("art. 15, I"), "{beside}");
    let (status, page, location) = post_task(
        &mut carla,
        "/painel/tarefa/motorista",
        &driver("D", "cadastrar"),
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let id = location
        .unwrap()
        .trim_start_matches("/painel/ver/charter/drivers/")
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    let enrolled = app.get_json(&format!("/api/v1/charter/drivers/{id}")).await;
    assert_eq!(enrolled["name"], "João da Silva", "{enrolled}");
}

#[tokio::test]
async fn an_inspector_confers_an_auto_with_its_fine_then_draws_it_up_by_cpf() {
    let app = spawn_app().await; // 30/11/2026
    app.official("ivo.fiscal", "Ivo Fiscal", "inspector").await;
    let grant = app.granted().await;
    let mut ivo = Browser::new(&app);
    ivo.sign_in("ivo.fiscal", OFFICIAL_PASSWORD).await;
    let (status, page, _) = ivo
        .get(&format!(
            "/painel/tarefa/auto?driver_id={}&authorization_id={}",
            grant["driver_id"].as_str().unwrap(),
            grant["id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    // The link's ids read as the papers do; the infraction is picked from the catalogue.
    assert!(page.contains("value=\"APP-2026/000001\""), "{page}");
    assert!(!visible(&page).contains(grant["driver_id"].as_str().unwrap()));
    assert!(page.contains("value=\"APP-ART26-VI\""), "{page}");
    assert!(
        page.contains("name=\"inspector\" type=\"text\" value=\"Ivo Fiscal\""),
        "{page}"
    );
    let csrf = field(&page, "_csrf").unwrap();
    let form = |committed_at: &str, acao: &str| -> Vec<(&'static str, String)> {
        vec![
            ("_csrf", csrf.clone()),
            ("driver_id", CPFS[0].into()),
            ("authorization_id", "bra2e19".into()),
            ("infraction_id", "APP-ART26-VI".into()),
            ("committed_at", committed_at.into()),
            ("place", "Av. Ministro João Alberto".into()),
            ("facts", "Embarcou passageiro fora da plataforma.".into()),
            ("inspector", "Ivo Fiscal".into()),
            ("acao", acao.into()),
        ]
    };
    // An infraction after now cannot be drawn up: the reason beside the instant.
    let (status, page, _) = post_task(
        &mut ivo,
        "/painel/tarefa/auto",
        &form("01/12/2026 10:00", "conferir"),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("id=\"e-committed_at\">"), "{page}");
    let (status, page, _) = post_task(
        &mut ivo,
        "/painel/tarefa/auto",
        &form("30/11/2026 08:00", "conferir"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let text = visible(&page);
    assert!(text.contains("O auto proporá: multa de "), "{text}");
    assert!(
        text.contains("Cadastrado(a): Maria da Silva Souza"),
        "{text}"
    );
    let (status, page, location) = post_task(
        &mut ivo,
        "/painel/tarefa/auto",
        &form("30/11/2026 08:00", "lavrar"),
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let id = location
        .unwrap()
        .trim_start_matches("/painel/ver/app-infraction-autos/")
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    let auto = app
        .get_json(&format!("/api/v1/app-infraction-autos/{id}"))
        .await;
    assert_eq!(auto["driver_id"], grant["driver_id"], "{auto}");
    assert_eq!(auto["authorization_id"], grant["id"], "{auto}");
    assert_eq!(auto["committed_at"], "2026-11-30T12:00:00Z", "{auto}");
}

#[tokio::test]
async fn a_clerk_suspends_an_authorization_seeing_its_dates_and_confirms_a_cassacao() {
    let app = spawn_app().await; // 30/11/2026
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let a = app.granted().await;
    let id = a["id"].as_str().unwrap();
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let (_, record, _) = ana
        .get(&format!("/painel/ver/app-authorizations/{id}"))
        .await;
    assert!(
        record.contains(&format!("/painel/tarefa/sancao?id={id}")),
        "{record}"
    );
    let (_, page, _) = ana.get(&format!("/painel/tarefa/sancao?id={id}")).await;
    let csrf = field(&page, "_csrf").unwrap();
    let form = |kind: &str, confirm: &str, acao: &str| -> Vec<(&'static str, String)> {
        vec![
            ("_csrf", csrf.clone()),
            ("autorizacao", "APP-2026/000001".into()),
            ("kind", kind.into()),
            ("effective_from", "01/12/2026".into()),
            ("duracao", "30".into()),
            ("unidade", "days".into()),
            ("legal_basis", "art. 26, V".into()),
            ("reason", "Decisão definitiva no auto.".into()),
            ("_confirmo", confirm.into()),
            ("acao", acao.into()),
        ]
    };
    let (status, page, _) = post_task(
        &mut ana,
        "/painel/tarefa/sancao",
        &form("suspension", "", "conferir"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        visible(&page).contains(
            "A autorização APP-2026/000001 ficará suspensa de 01/12/2026 a 30/12/2026 e volta a valer em 31/12/2026."
        ),
        "{}",
        visible(&page)
    );
    // A cassação without its confirmation is not recorded.
    let (status, page, _) = post_task(
        &mut ana,
        "/painel/tarefa/sancao",
        &form("cassacao", "", "aplicar"),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(
        page.contains("id=\"e-_confirmo\">Confirme a cassação."),
        "{page}"
    );
    let (status, page, _) = post_task(
        &mut ana,
        "/painel/tarefa/sancao",
        &form("suspension", "", "aplicar"),
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let after = app
        .get_json(&format!("/api/v1/app-authorizations/{id}"))
        .await;
    assert_eq!(after["sanctions"][0]["until"], "2026-12-31", "{after}");
}

#[tokio::test]
async fn a_clerk_records_a_data_change_reported_late_and_is_told_before() {
    let app = spawn_app().await; // 30/11/2026
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let a = app.granted().await;
    let driver = a["driver_id"].as_str().unwrap();
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let (_, record, _) = ana.get(&format!("/painel/ver/drivers/{driver}")).await;
    assert!(
        record.contains(&format!("/painel/tarefa/alteracao?id={driver}")),
        "{record}"
    );
    let (_, page, _) = ana
        .get(&format!("/painel/tarefa/alteracao?id={driver}"))
        .await;
    assert!(!visible(&page).contains(driver), "{page}");
    assert!(
        field(&page, "driver_id").is_some_and(|v| !v.is_empty()),
        "{page}"
    );
    let csrf = field(&page, "_csrf").unwrap();
    let form = |acao: &str| -> Vec<(&'static str, String)> {
        vec![
            ("_csrf", csrf.clone()),
            ("driver_id", CPFS[0].into()),
            ("what", "Mudou de endereço.".into()),
            ("changed_on", "02/11/2026".into()),
            ("reported_on", "30/11/2026".into()),
            ("acao", acao.into()),
        ]
    };
    let (status, page, _) =
        post_task(&mut ana, "/painel/tarefa/alteracao", &form("conferir")).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let text = visible(&page);
    assert!(
        text.contains("Comunicada depois do prazo, que foi até "),
        "{text}"
    );
    let (status, page, _) =
        post_task(&mut ana, "/painel/tarefa/alteracao", &form("registrar")).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let history = app
        .event_kinds(&format!("/api/v1/drivers/{driver}/history"))
        .await;
    assert!(
        history.iter().any(|k| k == "data_change_reported"),
        "{history:?}"
    );
}

#[tokio::test]
async fn a_clerk_records_a_failed_vistoria_seeing_the_days_to_fix_first() {
    let app = spawn_app().await; // 30/11/2026, fee paid 20/11/2026
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let a = app.granted().await;
    let id = a["id"].as_str().unwrap();
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let (_, record, _) = ana
        .get(&format!("/painel/ver/app-authorizations/{id}"))
        .await;
    assert!(
        record.contains(&format!("/painel/tarefa/vistoria-aplicativo?id={id}")),
        "{record}"
    );
    let (_, page, _) = ana
        .get(&format!("/painel/tarefa/vistoria-aplicativo?id={id}"))
        .await;
    let csrf = field(&page, "_csrf").unwrap();
    let form = |on: &str, approved: &str, acao: &str| -> Vec<(&'static str, String)> {
        vec![
            ("_csrf", csrf.clone()),
            ("autorizacao", PLATES[0].into()),
            ("performed_on", on.into()),
            ("approved", approved.into()),
            ("inspector", "Fiscal SMF".into()),
            (
                "notified_on",
                if approved == "false" {
                    on.into()
                } else {
                    String::new()
                },
            ),
            ("acao", acao.into()),
        ]
    };
    // Before the fee was paid: refused beside the day, with its article (art. 10).
    let path = "/painel/tarefa/vistoria-aplicativo";
    let (status, page, _) =
        post_task(&mut ana, path, &form("19/11/2026", "true", "conferir")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    let beside = page
        .split("id=\"e-performed_on\">")
        .nth(1)
        .unwrap_or_else(|| panic!("{page}"));
    assert!(beside.contains("art. 10"), "{beside}");
    let (status, page, _) =
        post_task(&mut ana, path, &form("27/11/2026", "true", "conferir")).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        visible(&page).contains("A vistoria anual valerá até 27/11/2027."),
        "{}",
        visible(&page)
    );
    let (status, page, _) =
        post_task(&mut ana, path, &form("27/11/2026", "false", "conferir")).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        visible(&page).contains("O condutor terá até "),
        "{}",
        visible(&page)
    );
    let before = app
        .get_json(&format!("/api/v1/app-authorizations/{id}"))
        .await;
    assert!(before["inspection"]["last_vistoria"].is_null(), "{before}");
    let (status, page, _) =
        post_task(&mut ana, path, &form("27/11/2026", "false", "registrar")).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let after = app
        .get_json(&format!("/api/v1/app-authorizations/{id}"))
        .await;
    assert_eq!(
        after["inspection"]["last_vistoria"]["approved"], false,
        "{after}"
    );
    assert!(after["inspection"]["fix_due"]["due"].is_string(), "{after}");
}

#[tokio::test]
async fn an_inspector_draws_up_a_charter_auto_seeing_its_fine_doubled_on_a_repeat() {
    use crate::charter::{auto, company, noon};
    let app = spawn_app().await;
    app.official("ivo.fiscal", "Ivo Fiscal", "inspector").await;
    app.clock.set(noon("2025-06-02"));
    let c = company(&app, "2026-12-31").await;
    // An earlier auto of the same inciso, three months before.
    let earlier = auto(&app, &c, "FRET-ART19-III", "2025-03-10").await;
    app.clock.set(noon("2025-06-02"));
    let mut ivo = Browser::new(&app);
    ivo.sign_in("ivo.fiscal", OFFICIAL_PASSWORD).await;
    let (_, record, _) = ivo.get(&format!("/painel/ver/charter/companies/{c}")).await;
    assert!(
        record.contains(&format!("/painel/tarefa/auto-fretamento?id={c}")),
        "{record}"
    );
    let (status, page, _) = ivo
        .get(&format!("/painel/tarefa/auto-fretamento?id={c}"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("value=\"11.222.333/0001-81\""), "{page}");
    assert!(page.contains("value=\"FRET-ART19-III\""), "{page}");
    let csrf = field(&page, "_csrf").unwrap();
    let form = |committed_at: &str, acao: &str| -> Vec<(&'static str, String)> {
        vec![
            ("_csrf", csrf.clone()),
            ("cnpj", "11.222.333/0001-81".into()),
            ("infraction", "FRET-ART19-III".into()),
            ("committed_at", committed_at.into()),
            ("place", "Rodovia BR-070".into()),
            ("facts", "Constatado em fiscalização.".into()),
            ("inspector", "Ivo Fiscal".into()),
            ("acao", acao.into()),
        ]
    };
    let path = "/painel/tarefa/auto-fretamento";
    let (status, page, _) = post_task(&mut ivo, path, &form("03/06/2025 10:00", "conferir")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("id=\"e-committed_at\">"), "{page}");
    let (status, page, _) = post_task(&mut ivo, path, &form("01/06/2025 10:00", "conferir")).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let text = visible(&page);
    assert!(
        text.contains(&format!(
            "O auto terá multa de 1000 UPFBG, em dobro: repete a infração do auto {}",
            earlier["number"].as_str().unwrap()
        )),
        "{text}"
    );
    let (status, page, location) =
        post_task(&mut ivo, path, &form("01/06/2025 10:00", "lavrar")).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let id = location
        .unwrap()
        .trim_start_matches("/painel/ver/charter/autos/")
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    let drawn = app.get_json(&format!("/api/v1/charter/autos/{id}")).await;
    assert_eq!(drawn["fine"]["upf"], 1000, "{drawn}");
    assert_eq!(drawn["fine"]["recidivism"], true, "{drawn}");
}

#[tokio::test]
async fn a_charter_clerk_registers_a_contract_with_its_passengers_typed_one_per_line() {
    use crate::charter::{created, minibus_company};
    let (app, c, minibus) = minibus_company().await; // 02/06/2025
    created(
        app.post(
            &format!(
                "/api/v1/charter/vehicles/{}/vistorias",
                minibus["id"].as_str().unwrap()
            ),
            &json!({"performed_on": "2025-06-02", "approved": true, "inspector": "Fiscal SIS"}),
        )
        .await,
    )
    .await;
    app.official("carla.sis", "Carla Infraestrutura", "charter_issuer")
        .await;
    let mut carla = Browser::new(&app);
    carla.sign_in("carla.sis", OFFICIAL_PASSWORD).await;
    let (_, record, _) = carla
        .get(&format!("/painel/ver/charter/companies/{c}"))
        .await;
    assert!(
        record.contains(&format!("/painel/tarefa/contrato?id={c}")),
        "{record}"
    );
    let (_, page, _) = carla.get(&format!("/painel/tarefa/contrato?id={c}")).await;
    let csrf = field(&page, "_csrf").unwrap();
    let form = |plate: &str, acao: &str| -> Vec<(&'static str, String)> {
        vec![
            ("_csrf", csrf.clone()),
            ("cnpj", "11.222.333/0001-81".into()),
            ("kind", "continuo".into()),
            ("contractor_type", "pessoa_juridica".into()),
            ("contractor_name", "Frigorífico Araguaia".into()),
            ("contractor_uses_own_vehicles", "false".into()),
            ("purpose", "Funcionários".into()),
            ("tourism", "false".into()),
            ("signed_on", "02/06/2025".into()),
            ("start_date", "02/06/2025".into()),
            ("end_date", "01/06/2026".into()),
            ("communicated_on", "02/06/2025".into()),
            ("notary_registration", "1º Ofício nº 9".into()),
            ("nfse_number", "2025/1".into()),
            ("origin", "Centro".into()),
            ("destination", "Distrito Industrial".into()),
            ("within_municipality", "true".into()),
            ("itinerary", "Av. Ministro João Alberto".into()),
            ("timetable", "Seg a sex 06:00\nSáb 07:00".into()),
            ("vehicle_plates", plate.into()),
            (
                "passageiros",
                format!("Maria Souza; {}\nJoão Lima; {}", CPFS[0], CPFS[1]),
            ),
            ("acao", acao.into()),
        ]
    };
    let path = "/painel/tarefa/contrato";
    // A bus not registered for the company: refused beside the plates, nothing written.
    let (status, page, _) = post_task(&mut carla, path, &form("ZZZ9Z99", "conferir")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("id=\"e-vehicle_plates\">"), "{page}");
    let (status, page, _) = post_task(&mut carla, path, &form("QBA1C23", "conferir")).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        visible(&page).contains("O contrato será registrado para Araguaia Fretamentos Ltda.; o prazo para comunicá-lo vai até "),
        "{}",
        visible(&page)
    );
    let (status, page, location) = post_task(&mut carla, path, &form("QBA1C23", "registrar")).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let id = location
        .unwrap()
        .trim_start_matches("/painel/ver/charter/contracts/")
        .split('/')
        .next()
        .unwrap()
        .to_owned();
    let history = app
        .get_json(&format!("/api/v1/charter/contracts/{id}/history"))
        .await;
    assert_eq!(history["events"][0]["kind"], "registered", "{history}");
    assert_eq!(
        history["events"][0]["actor_name"], "Carla Infraestrutura",
        "{history}"
    );
    // The list typed one per line reached the register: a trip with its passengers fits.
    let trip = app
        .post(
            &format!("/api/v1/charter/contracts/{id}/trips"),
            &json!({"date": "2025-06-03", "leg": "ida", "vehicle_plate": "QBA1C23",
                    "passengers": [{"name": "Maria Souza", "cpf": CPFS[0]}]}),
        )
        .await;
    assert_eq!(trip.status(), StatusCode::CREATED);
}

#[tokio::test]
async fn a_revocation_task_names_the_authorization_and_needs_the_confirmation() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let a = app.granted().await;
    let id = a["id"].as_str().unwrap();
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let (_, page, _) = ana.get(&format!("/painel/tarefa/revogacao?id={id}")).await;
    let csrf = field(&page, "_csrf").unwrap();
    let form = |confirm: &str, acao: &str| -> Vec<(&'static str, String)> {
        vec![
            ("_csrf", csrf.clone()),
            ("autorizacao", CPFS[0].into()),
            ("reason", "Art. 24, I, c: pedido do condutor.".into()),
            ("_confirmo", confirm.into()),
            ("acao", acao.into()),
        ]
    };
    let path = "/painel/tarefa/revogacao";
    let (status, page, _) = post_task(&mut ana, path, &form("", "conferir")).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let text = visible(&page);
    assert!(
        text.contains("A autorização APP-2026/000001 será revogada"),
        "{text}"
    );
    assert!(
        text.contains("Autorização APP-2026/000001 — Maria da Silva Souza, placa BRA2E19"),
        "{text}"
    );
    let (status, page, _) = post_task(&mut ana, path, &form("", "revogar")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(
        page.contains("id=\"e-_confirmo\">Confirme a revogação."),
        "{page}"
    );
    let now = app
        .get_json(&format!("/api/v1/app-authorizations/{id}"))
        .await;
    assert_eq!(now["status"], "active", "{now}");
    let (status, page, _) = post_task(&mut ana, path, &form("sim", "revogar")).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let now = app
        .get_json(&format!("/api/v1/app-authorizations/{id}"))
        .await;
    assert_eq!(now["status"], "revoked", "{now}");
    // Once revoked, the task says so beside the authorization.
    let (status, page, _) = post_task(&mut ana, path, &form("sim", "conferir")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("A autorização já foi revogada em "), "{page}");
}

#[tokio::test]
async fn a_charter_clerk_registers_a_company_and_is_told_what_its_termo_still_needs() {
    use crate::charter::noon;
    let app = spawn_app().await;
    app.official("carla.sis", "Carla Infraestrutura", "charter_issuer")
        .await;
    app.clock.set(noon("2025-06-02"));
    let mut carla = Browser::new(&app);
    carla.sign_in("carla.sis", OFFICIAL_PASSWORD).await;
    let (status, page, _) = carla.get("/painel/tarefa/empresa").await;
    assert_eq!(status, StatusCode::OK);
    // The documents the charter basis in force lists, each with its article.
    assert!(visible(&page).contains("art. 7º, II, a"), "{page}");
    let csrf = field(&page, "_csrf").unwrap();
    let mut form: Vec<(String, String)> = [
        ("_csrf", csrf.as_str()),
        ("cnpj", "11.222.333/0001-81"),
        ("name", "Araguaia Fretamentos Ltda."),
        ("address", "Av. Ministro João Alberto, 100"),
        ("phone", "(66) 3401-0000"),
        ("email", "contato@araguaia.example"),
        ("modality", "continuo"),
        ("operating_before_law", "false"),
        ("protocol", "SIS-2025/0042"),
        ("applied_on", "20/05/2025"),
    ]
    .iter()
    .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
    .collect();
    let items: Vec<String> = crate::bodies::CHECKLIST_ITEMS
        .iter()
        .filter(|i| **i != "cndt")
        .map(|i| (*i).to_owned())
        .collect();
    // Every document but the CNDT, the certidões with their validity.
    for (i, item) in items.iter().enumerate() {
        form.push((format!("checklist.{item}.reference"), format!("DOC-{i}")));
        form.push((format!("checklist.{item}.issued_on"), "02/01/2025".into()));
        if i >= 10 {
            form.push((format!("checklist.{item}.valid_until"), "31/12/2026".into()));
        }
    }
    let with = |acao: &str| -> Vec<(String, String)> {
        let mut f = form.clone();
        f.push(("acao".into(), acao.into()));
        f
    };
    let conferir = with("conferir");
    let (status, page, _) =
        post_task(&mut carla, "/painel/tarefa/empresa", &as_refs(&conferir)).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let text = visible(&page);
    assert!(
        text.contains("A empresa será cadastrada, mas o Termo ainda não poderá ser emitido: "),
        "{text}"
    );
    assert!(text.contains("CNDT"), "{text}");
    let cadastrar = with("cadastrar");
    let (status, page, location) =
        post_task(&mut carla, "/painel/tarefa/empresa", &as_refs(&cadastrar)).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let id = location
        .unwrap()
        .trim_start_matches("/painel/ver/charter/companies/")
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    let company = app
        .get_json(&format!("/api/v1/charter/companies/{id}"))
        .await;
    assert_eq!(company["name"], "Araguaia Fretamentos Ltda.", "{company}");
    // A second filing of the same CNPJ is refused beside it before anything is sent.
    let (status, page, _) =
        post_task(&mut carla, "/painel/tarefa/empresa", &as_refs(&conferir)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(
        page.contains("id=\"e-cnpj\">Empresa já cadastrada com este CNPJ."),
        "{page}"
    );
}

/// A form of owned names as `post_task` takes it.
fn as_refs(f: &[(String, String)]) -> Vec<(&str, String)> {
    f.iter().map(|(k, v)| (k.as_str(), v.clone())).collect()
}
