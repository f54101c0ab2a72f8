//! The charter register (Lei 4.937/2025) through the API: scenarios S03–S08 of docs/readings.md,
//! the Termo and selo documents, and verification of both, on either database.

use chrono::{DateTime, Utc};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{
    CNHS, CPFS, RENAVAMS, TestApp, pdf_info, pdf_text, qr_codes, spawn_app, token_of,
};

const CNPJ: &str = "11.222.333/0001-81";

/// Noon in Barra do Garças on `date` (YYYY-MM-DD).
pub(crate) fn noon(date: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(&format!("{date}T16:00:00Z"))
        .unwrap()
        .to_utc()
}

use crate::bodies::{checklist, company_body};

/// A bus of the test company (`CNPJ`).
pub(crate) fn bus_body(plate: &str, renavam: &str, kind: &str, first_registration: &str) -> Value {
    crate::bodies::bus_body(plate, renavam, kind, first_registration, CNPJ)
}

/// A charter driver of CNH category `category`, with every art. 15 document in force in 2025.
pub(crate) fn charter_driver(category: &str) -> Value {
    json!({
        "name": "João da Silva", "cpf": CPFS[1], "cnh_number": CNHS[1],
        "birth_date": "1990-05-01", "cnh_category": category, "cnh_ear": true,
        "cnh_expires_on": "2028-01-01",
        "course_certificate": {"reference": "Curso TCP", "valid_until": "2029-01-01"},
        "folha_corrida": {"reference": "FC-1", "issued_on": "2025-05-20"},
        "employment_link": {"kind": "ctps_digital", "reference": "CTPS 123"},
        "toxicological_exam_on": "2024-06-01",
    })
}

/// The field a 422 names first.
pub(crate) async fn refused_field(res: reqwest::Response) -> String {
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let p: Value = res.json().await.unwrap();
    p["errors"][0]["field"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

pub(crate) async fn created(res: reqwest::Response) -> Value {
    let status = res.status();
    let body: Value = res.json().await.unwrap();
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body
}

fn rules_of(problem: &Value) -> Vec<String> {
    problem["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["rule"].as_str().unwrap_or_default().to_owned())
        .collect()
}

pub(crate) async fn company(app: &TestApp, certificates_until: &str) -> String {
    let body = created(
        app.post(
            "/api/v1/charter/companies",
            &company_body(CNPJ, certificates_until),
        )
        .await,
    )
    .await;
    body["id"].as_str().unwrap().to_owned()
}

pub(crate) async fn termo(app: &TestApp, company: &str) -> reqwest::Response {
    app.post(
        &format!("/api/v1/charter/companies/{company}/termos"),
        &json!({}),
    )
    .await
}

#[tokio::test]
async fn s05_termo_two_years_prints_validity_and_renews_without_gap() {
    let app = spawn_app().await;
    app.clock.set(noon("2025-05-23"));
    let c = company(&app, "2027-12-31").await;
    let t = created(termo(&app, &c).await).await;
    assert_eq!(t["valid_from"], "2025-05-23");
    assert_eq!(t["valid_until"], "2027-05-23");
    assert_eq!(t["legal_basis_version"], "LEI-4937-2025/v1");
    // The PDF: A4, the validity printed, the company and its CNPJ, the QR decodes.
    let pdf = app
        .get_authed(t["document"]["pdf"].as_str().unwrap())
        .await
        .bytes()
        .await
        .unwrap()
        .to_vec();
    assert!(pdf_info(&pdf).contains("595.276 x 841.89 pts (A4)"));
    let text = pdf_text(&pdf);
    for needle in [
        "TERMO DE AUTORIZAÇÃO",
        "Araguaia Fretamentos Ltda.",
        "11.222.333/0001-81",
        "Fretamento contínuo",
        "23/05/2027",
        t["number"].as_str().unwrap(),
    ] {
        assert!(text.contains(needle), "{needle} missing from:\n{text}");
    }
    // Letter-spaced: pdftotext may put spaces between the code's glyphs.
    let code = t["document"]["verification_code"].as_str().unwrap();
    assert!(text.replace(' ', "").contains(code), "{text}");
    let url = t["document"]["verification_url"].as_str().unwrap();
    assert_eq!(qr_codes(&pdf), vec![url.to_owned()]);
    // The signed file itself, uploaded: intact, ours, found in the register by its SHA-256.
    let res = app
        .client
        .post(app.url("/api/v1/verify/pdf"))
        .header("Content-Type", "application/pdf")
        .body(pdf.clone())
        .send()
        .await
        .unwrap();
    let up: Value = res.json().await.unwrap();
    assert_eq!(up["verdict"], "valid", "{up}");
    assert_eq!(up["signature"]["intact"], true);
    assert_eq!(up["document"]["kind"], "charter_termo");
    assert_eq!(up["document"]["number"], t["number"]);
    let token = token_of(url);
    // Sunday 23/05/2027 still valid; Monday 24/05 expired (DL-8, no extension).
    app.clock.set(noon("2027-05-23"));
    let (_, v) = app.verify(&token).await;
    assert_eq!(v["verdict"], "valid", "{v}");
    assert_eq!(v["document"]["status"], "ativo");
    assert_eq!(v["document"]["plate"], "11.222.333/0001-81");
    assert_eq!(v["document"]["company"], "Araguaia Fretamentos Ltda.");
    app.clock.set(noon("2027-05-24"));
    assert_eq!(app.verify(&token).await.1["verdict"], "expired");
    // Renewal on 10/05/2027 with current certificates: 24/05/2027 → 23/05/2029.
    app.clock.set(noon("2027-05-10"));
    let r = created(termo(&app, &c).await).await;
    assert_eq!(r["valid_from"], "2027-05-24");
    assert_eq!(r["valid_until"], "2029-05-23");
    assert_eq!(r["renews"], t["number"]);
    let company: Value = app
        .get_authed(&format!("/api/v1/charter/companies/{c}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(company["status"], "ativo");
    assert_eq!(company["termos"].as_array().unwrap().len(), 2);
    // As of a past day, the Termo in force then: the first on its last day, the renewal
    // from the next.
    app.clock.set(noon("2027-06-01"));
    let as_of =
        |day: &str| app.get_authed_owned(format!("/api/v1/charter/companies/{c}?as_of={day}"));
    let last_day: Value = as_of("2027-05-23").await.json().await.unwrap();
    assert_eq!(last_day["termo"]["number"], t["number"], "{last_day}");
    let next_day: Value = as_of("2027-05-24").await.json().await.unwrap();
    assert_eq!(next_day["termo"]["number"], r["number"], "{next_day}");
    assert_eq!(next_day["status"], "ativo");
    assert_eq!(
        as_of("2025-05-22").await.status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
}

#[tokio::test]
async fn fret_art8_p2_termo_refused_with_expired_certificates_listing_each() {
    let app = spawn_app().await;
    app.clock.set(noon("2025-06-01"));
    let c = company(&app, "2025-05-31").await;
    let res = termo(&app, &c).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = res.json().await.unwrap();
    assert_eq!(rules_of(&body), vec!["FRET-ART7-II"; 5]);
    // Filing fresh certificates (art. 8 §2º) lets it through.
    let res = app
        .post(
            &format!("/api/v1/charter/companies/{c}/checklist"),
            &checklist("2025-12-31"),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    created(termo(&app, &c).await).await;
}

/// On 02/06/2025: a company with its Termo and a registered 20-seat minibus, QBA1C23.
pub(crate) async fn minibus_company() -> (TestApp, String, Value) {
    let app = spawn_app().await;
    app.clock.set(noon("2025-06-02"));
    let c = company(&app, "2026-12-31").await;
    created(termo(&app, &c).await).await;
    let minibus = created(
        app.post(
            &format!("/api/v1/charter/companies/{c}/vehicles"),
            &bus_body("QBA1C23", RENAVAMS[0], "micro_onibus", "2015-03-10"),
        )
        .await,
    )
    .await;
    (app, c, minibus)
}

/// Approves the vistoria of minibus `vid` (QBA1C23) of company `c` and files a continuous
/// contract with it; returns the contract.
async fn minibus_contract(app: &TestApp, c: &str, vid: &str) -> Value {
    created(
        app.post(
            &format!("/api/v1/charter/vehicles/{vid}/vistorias"),
            &json!({"performed_on": "2025-06-02", "approved": true, "inspector": "Fiscal SIS"}),
        )
        .await,
    )
    .await;
    let contract = json!({
        "kind": "continuo", "contractor_type": "pessoa_juridica", "contractor_name": "Frigorífico Araguaia",
        "purpose": "Funcionários", "origin": "Centro", "destination": "Distrito Industrial",
        "itinerary": "Av. Ministro João Alberto", "within_municipality": true,
        "timetable": ["Seg a sex 06:00"], "signed_on": "2025-06-02", "start_date": "2025-06-02",
        "end_date": "2026-06-01", "notary_registration": "1º Ofício nº 9", "nfse_number": "2025/1",
        "passengers": [{"name": "Maria", "cpf": CPFS[0]}], "vehicle_plates": ["QBA1C23"],
        "communicated_on": "2025-06-20",
    });
    let k = created(
        app.post(
            &format!("/api/v1/charter/companies/{c}/contracts"),
            &contract,
        )
        .await,
    )
    .await;
    // Communicated after 15 days (17/06): filed, with the art. 3º warning.
    assert_eq!(k["warnings"][0]["rule"], "FRET-ART3");
    k
}

#[tokio::test]
async fn fret_art2_iii_the_group_returns_in_the_vehicle_that_took_it() {
    let (app, c, minibus) = minibus_company().await;
    let k = minibus_contract(&app, &c, minibus["id"].as_str().unwrap()).await;
    let trips = format!(
        "/api/v1/charter/contracts/{}/trips",
        k["id"].as_str().unwrap()
    );
    let group: Vec<Value> = (0..3)
        .map(|i| json!({"name": format!("P{i}"), "cpf": CPFS[i]}))
        .collect();
    let trip = |leg: &str, plate: &str, passengers: &[Value]| json!({"date": "2025-06-03", "leg": leg, "vehicle_plate": plate, "passengers": passengers});
    // A return with no outbound trip filed.
    let res = app.post(&trips, &trip("volta", "QBA1C23", &group)).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let p: Value = res.json().await.unwrap();
    assert_eq!(rules_of(&p), vec!["FRET-ART2-III"]);
    assert_eq!(p["errors"][0]["field"], "leg");
    let out = created(app.post(&trips, &trip("ida", "QBA1C23", &group)).await).await;
    assert!(
        !out.to_string().contains("529"),
        "no CPF in the record: {out}"
    );
    // Someone boarded on the way: not a closed circuit.
    let mut changed = group.clone();
    changed[2] = json!({"name": "Outro", "cpf": "123.456.789-09"});
    changed[1] = json!({"name": "Mais um", "other_document": "RG 123"});
    let res = app.post(&trips, &trip("volta", "QBA1C23", &changed)).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let p: Value = res.json().await.unwrap();
    assert_eq!(p["errors"][0]["field"], "passengers", "{p}");
    // The same group, listed in another order, returns in the same minibus.
    let mut back = group.clone();
    back.reverse();
    created(app.post(&trips, &trip("volta", "QBA1C23", &back)).await).await;
}

#[tokio::test]
async fn s04_vehicle_type_rules_and_no_standing_passengers() {
    let (app, c, minibus) = minibus_company().await;
    let path = format!("/api/v1/charter/companies/{c}/vehicles");
    assert_eq!(minibus["status"], "pendente_vistoria");
    let mut turnstile = bus_body("QBA1C24", RENAVAMS[1], "onibus", "2015-03-10");
    turnstile["has_turnstile"] = json!(true);
    let van = bus_body("QBA1C24", RENAVAMS[1], "camioneta", "2015-03-10");
    let mut three_doors = bus_body("QBA1C24", RENAVAMS[1], "onibus", "2015-03-10");
    three_doors["doors"] = json!(3);
    for (body, field) in [
        (turnstile, "has_turnstile"),
        (van, "kind"),
        (three_doors, "doors"),
    ] {
        let res = app.post(&path, &body).await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let p: Value = res.json().await.unwrap();
        assert_eq!(rules_of(&p), vec!["FRET-ART11"]);
        assert_eq!(p["errors"][0]["field"], field);
    }
    // Vistoria → selo; then a contract with the 20-seat minibus and a 21-passenger trip.
    let k = minibus_contract(&app, &c, minibus["id"].as_str().unwrap()).await;
    let passengers: Vec<Value> = (0..21)
        .map(|i| json!({"name": format!("P{i}"), "cpf": CPFS[i % 3]}))
        .collect();
    let trip = json!({"date": "2025-06-03", "vehicle_plate": "QBA1C23", "passengers": passengers});
    let res = app
        .post(
            &format!(
                "/api/v1/charter/contracts/{}/trips",
                k["id"].as_str().unwrap()
            ),
            &trip,
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(rules_of(&res.json().await.unwrap()), vec!["FRET-ART10-PU"]);
    let ok =
        json!({"date": "2025-06-03", "vehicle_plate": "QBA1C23", "passengers": &passengers[..20]});
    created(
        app.post(
            &format!(
                "/api/v1/charter/contracts/{}/trips",
                k["id"].as_str().unwrap()
            ),
            &ok,
        )
        .await,
    )
    .await;
}

#[tokio::test]
async fn s03_service_life_and_the_selo_verifies_live() {
    let app = spawn_app().await;
    app.clock.set(noon("2025-03-10"));
    let c = company(&app, "2026-12-31").await;
    created(termo(&app, &c).await).await;
    let mut body = bus_body("QBA1C23", RENAVAMS[0], "onibus", "2010-03-15");
    body["itv_report_date"] = json!("2025-03-01");
    let v = created(
        app.post(&format!("/api/v1/charter/companies/{c}/vehicles"), &body)
            .await,
    )
    .await;
    let vid = v["id"].as_str().unwrap();
    assert_eq!(v["service_life_until"], "2025-03-15");
    let selo = created(
        app.post(
            &format!("/api/v1/charter/vehicles/{vid}/vistorias"),
            &json!({"performed_on": "2025-03-10", "approved": true, "inspector": "Fiscal SIS"}),
        )
        .await,
    )
    .await;
    assert_eq!(selo["status"], "ativo");
    let doc = &selo["selo"];
    let pdf = app
        .get_authed(doc["pdf"].as_str().unwrap())
        .await
        .bytes()
        .await
        .unwrap()
        .to_vec();
    assert!(
        pdf_info(&pdf).contains("297.638 x 419.528 pts"),
        "{}",
        pdf_info(&pdf)
    );
    let text = pdf_text(&pdf);
    for needle in [
        "SELO DE VISTORIA",
        "QBA1C23",
        "10/03/2026",
        "15/03/2025",
        "Araguaia Fretamentos",
    ] {
        assert!(text.contains(needle), "{needle} missing from:\n{text}");
    }
    let url = doc["verification_url"].as_str().unwrap();
    assert_eq!(qr_codes(&pdf), vec![url.to_owned()]);
    let token = token_of(url);
    // By plate (inspector) and by token (anyone), on the last day and the day after.
    app.clock.set(noon("2025-03-15"));
    assert_eq!(app.verify(&token).await.1["verdict"], "valid");
    let by_plate: Value = app
        .get_authed("/api/v1/charter/vehicles/by-plate/QBA-1C23")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(by_plate["status"], "ativo");
    assert_eq!(by_plate["may_operate"], true);
    app.clock.set(noon("2025-03-16"));
    let (_, v) = app.verify(&token).await;
    assert_eq!(v["verdict"], "expired");
    assert_eq!(v["document"]["status"], "vida_util_vencida");
    let by_plate: Value = app
        .get_authed("/api/v1/charter/vehicles/by-plate/QBA1C23")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(by_plate["status"], "vida_util_vencida");
    assert_eq!(by_plate["may_operate"], false);
    // The printed code finds the same document; an unknown plate is not registered.
    let code = doc["verification_code"].as_str().unwrap();
    let res = app.get(&format!("/api/v1/verify/code/{code}")).await;
    assert_eq!(
        res.json::<Value>().await.unwrap()["document"]["number"],
        doc["number"]
    );
    let res = app
        .get_authed("/api/v1/charter/vehicles/by-plate/ABC1D23")
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn selo_turns_irregular_when_itv_lapses_and_revoked_on_baixa() {
    let app = spawn_app().await;
    app.clock.set(noon("2025-06-02"));
    let c = company(&app, "2026-12-31").await;
    created(termo(&app, &c).await).await;
    let v = created(
        app.post(
            &format!("/api/v1/charter/companies/{c}/vehicles"),
            &bus_body("QBA1C23", RENAVAMS[0], "micro_onibus", "2018-01-10"),
        )
        .await,
    )
    .await;
    let vid = v["id"].as_str().unwrap();
    let selo = created(
        app.post(
            &format!("/api/v1/charter/vehicles/{vid}/vistorias"),
            &json!({"performed_on": "2025-06-02", "approved": true, "inspector": "Fiscal SIS"}),
        )
        .await,
    )
    .await;
    let token = token_of(selo["selo"]["verification_url"].as_str().unwrap());
    // The ITV of 02/05/2025 lapses after 02/11/2025 (FRET-ART12-IV).
    app.clock.set(noon("2025-11-03"));
    let (_, v) = app.verify(&token).await;
    assert_eq!(v["verdict"], "irregular", "{v}");
    app.post(
        &format!("/api/v1/charter/vehicles/{vid}/itv"),
        &json!({"report_date": "2025-11-03", "provider": "ITV Credenciada"}),
    )
    .await;
    assert_eq!(app.verify(&token).await.1["verdict"], "valid");
    // Baixa without returning the selo or an incident report is refused (art. 13 §5º).
    let res = app
        .post(
            &format!("/api/v1/charter/vehicles/{vid}/baixa"),
            &json!({"requested_on": "2025-11-03", "selo_returned": false, "reason": "venda"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(rules_of(&res.json().await.unwrap()), vec!["FRET-ART13-P5"]);
    let res = app
        .post(
            &format!("/api/v1/charter/vehicles/{vid}/baixa"),
            &json!({"requested_on": "2025-11-03", "selo_returned": true, "reason": "venda"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let (_, v) = app.verify(&token).await;
    assert_eq!(v["verdict"], "revoked");
    assert_eq!(v["document"]["status"], "baixado");
    // As of a past day: in order the day before the baixa, baixado from its day; nothing
    // before the enrolment, nor in the future.
    let as_of =
        |day: &str| app.get_authed_owned(format!("/api/v1/charter/vehicles/{vid}?as_of={day}"));
    let before: Value = as_of("2025-11-02").await.json().await.unwrap();
    assert_eq!(before["status"], "ativo", "{before}");
    let on: Value = as_of("2025-11-03").await.json().await.unwrap();
    assert_eq!(on["status"], "baixado", "{on}");
    assert_eq!(
        as_of("2025-06-01").await.status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        as_of("2025-11-04").await.status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    // A failed vistoria issues nothing.
    let kinds = app
        .event_kinds(&format!("/api/v1/charter/vehicles/{vid}/history"))
        .await;
    assert_eq!(
        kinds,
        [
            "registered",
            "itv_report_filed",
            "vistoria_recorded",
            "itv_report_filed",
            "baixa"
        ]
    );
}

/// A charter auto takes the time of the infraction and the instant it was drawn up
/// in the field; "Lavrado em" is that instant, not when it was typed in.
#[tokio::test]
async fn a_charter_auto_states_the_time_of_the_infraction_and_when_it_was_drawn_up() {
    let app = spawn_app().await;
    app.clock.set(noon("2026-11-30"));
    let company = company(&app, "2027-12-31").await;
    let url = format!("/api/v1/charter/companies/{company}/autos");
    let body = |extra: Value| {
        let mut b = json!({"infraction": "FRET-ART19-III", "place": "Rodovia BR-070", "facts": "Constatado em fiscalização.", "inspector": "Fiscal SIS 12"});
        b.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        b
    };
    for (extra, field) in [
        (json!({}), "committed_on"),
        (
            json!({"committed_on": "2026-11-27", "committed_at": "2026-11-28T09:40"}),
            "committed_on",
        ),
        (
            json!({"committed_at": "2026-11-28T09:40", "drawn_up_at": "2026-11-28T09:00"}),
            "committed_at",
        ),
        (
            json!({"committed_at": "2026-11-28T09:40", "drawn_up_at": "2026-12-01T09:00"}),
            "drawn_up_at",
        ),
    ] {
        let res = app.post(&url, &body(extra.clone())).await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY, "{extra}");
        let p: Value = res.json().await.unwrap();
        assert_eq!(p["errors"][0]["field"], field, "{extra}: {p}");
    }
    let auto = created(
        app.post(
            &url,
            &body(json!({"committed_at": "2026-11-28T09:40", "drawn_up_at": "2026-11-28T09:55"})),
        )
        .await,
    )
    .await;
    assert_eq!(auto["committed_on"], "2026-11-28");
    assert_eq!(auto["committed_at"], "2026-11-28T13:40:00Z");
    assert_eq!(auto["drawn_up_at"], "2026-11-28T13:55:00Z");
    notify(&app, &auto, "2026-11-30").await;
    let res = app
        .post(
            &format!(
                "/api/v1/charter/autos/{}/notice",
                auto["id"].as_str().unwrap()
            ),
            &json!({}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let doc: Value = res.json().await.unwrap();
    assert_eq!(doc["profile_version"], "BDG-PERFIL-2026-12/1");
    let text = app.issued_pdf_text(&doc).await;
    for needle in [
        "28/11/2026, às 09h40",
        "Lavrado em 28/11/2026 às 09:55",
        "art. 19, caput",
        "art. 19, III da Lei Municipal nº 4.937, de 26 de fevereiro de 2025",
    ] {
        assert!(text.contains(needle), "{needle} missing from:\n{text}");
    }
}

pub(crate) async fn auto(app: &TestApp, company: &str, inciso: &str, on: &str) -> Value {
    app.clock.set(noon(on));
    created(
        app.post(
            &format!("/api/v1/charter/companies/{company}/autos"),
            &json!({"infraction": inciso, "committed_on": on, "place": "Rodovia BR-070", "facts": "Constatado em fiscalização.", "inspector": "Fiscal SIS 12"}),
        )
        .await,
    )
    .await
}

pub(crate) async fn notify(app: &TestApp, auto: &Value, on: &str) -> Value {
    app.clock.set(noon(on));
    let res = app
        .post(
            &format!(
                "/api/v1/charter/autos/{}/acts",
                auto["id"].as_str().unwrap()
            ),
            &json!({"act": "notificacao", "method": "contrafe", "notified_on": on}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    res.json().await.unwrap()
}

pub(crate) async fn get_auto(app: &TestApp, auto: &Value) -> Value {
    app.get_authed(&format!(
        "/api/v1/charter/autos/{}",
        auto["id"].as_str().unwrap()
    ))
    .await
    .json()
    .await
    .unwrap()
}

#[tokio::test]
async fn s06_fine_doubles_within_twelve_months_of_the_same_inciso() {
    let app = spawn_app().await;
    app.clock.set(noon("2025-03-01"));
    let c = company(&app, "2026-12-31").await;
    let first = auto(&app, &c, "FRET-ART19-III", "2025-04-10").await;
    assert_eq!(first["fine"]["upf"], 500);
    assert_eq!(first["article"], "art. 19, III");
    // The notice: defence 15 days from notification; no defence → final (art. 23).
    let n = notify(&app, &first, "2025-04-11").await;
    assert_eq!(n["procedure"]["defence_due"]["due"], "2025-04-28");
    let other = auto(&app, &c, "FRET-ART19-I", "2025-06-01").await;
    assert_eq!(other["fine"]["upf"], 500);
    let again = auto(&app, &c, "FRET-ART19-III", "2026-04-10").await;
    assert_eq!(again["fine"]["upf"], 1000);
    assert_eq!(again["fine"]["recidivism"], true);
    assert_eq!(again["fine"]["repeats"], first["number"]);
    assert_eq!(again["fine"]["doubling_confirmed"], true);
    let late = auto(&app, &c, "FRET-ART19-III", "2026-04-11").await;
    // Repeats 10/04/2026 (within 12 months), not 10/04/2025 (one day out).
    assert_eq!(late["fine"]["repeats"], again["number"]);
}

#[tokio::test]
async fn s07_doubling_never_compounds_and_annulment_recalculates() {
    let app = spawn_app().await;
    app.clock.set(noon("2025-03-01"));
    let c = company(&app, "2026-12-31").await;
    // UPF value of 2025 known: amounts in R$ and in words.
    let res = app
        .client
        .put(app.url("/api/v1/upf-values/2025"))
        .bearer_auth(crate::helpers::ADMIN_TOKEN)
        .json(&json!({"centavos": 10_000, "act": "Decreto nº 1/2025"}))
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success());
    let a1 = auto(&app, &c, "FRET-ART19-III", "2025-04-10").await;
    let a2 = auto(&app, &c, "FRET-ART19-III", "2025-09-01").await;
    assert_eq!(a2["fine"]["upf"], 1000);
    assert_eq!(a2["fine_brl"], "R$\u{a0}100.000,00");
    assert_eq!(a2["fine_in_words"], "cem mil reais");
    let a3 = auto(&app, &c, "FRET-ART19-III", "2026-01-15").await;
    assert_eq!(a3["fine"]["upf"], 1000, "never 2,000");
    // Annul the first: notified, defended, decided "anulado".
    notify(&app, &a1, "2026-01-20").await;
    let id = a1["id"].as_str().unwrap();
    let act = |body: Value| {
        let app = &app;
        async move {
            app.post(&format!("/api/v1/charter/autos/{id}/acts"), &body)
                .await
        }
    };
    app.clock.set(noon("2026-01-25"));
    assert_eq!(
        act(json!({"act": "defesa", "protocol": "PG-1", "filed_on": "2026-01-25"}))
            .await
            .status(),
        StatusCode::OK
    );
    // Out of order: reconsideration before any decision.
    assert_eq!(
        act(json!({"act": "reconsideracao", "protocol": "PG-2", "filed_on": "2026-01-25"}))
            .await
            .status(),
        StatusCode::CONFLICT
    );
    app.clock.set(noon("2026-02-10"));
    let res = act(json!({"act": "decisao", "outcome": "anulado", "decided_on": "2026-02-09", "notified_on": "2026-02-10"})).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.json::<Value>().await.unwrap()["fine"].is_null());
    assert_eq!(get_auto(&app, &a2).await["fine"]["upf"], 500);
    let third = get_auto(&app, &a3).await;
    assert_eq!(third["fine"]["upf"], 1000);
    assert_eq!(third["fine"]["repeats"], a2["number"]);
}

#[tokio::test]
async fn s08_cassacao_and_the_twelve_month_bar() {
    let app = spawn_app().await;
    app.clock.set(noon("2025-01-10"));
    let c = company(&app, "2027-12-31").await;
    let t = created(termo(&app, &c).await).await;
    let token = token_of(t["document"]["verification_url"].as_str().unwrap());
    let first = auto(&app, &c, "FRET-ART19-VI", "2025-02-03").await;
    assert_eq!(first["fine"]["cassacao_ground"], false);
    let second = auto(&app, &c, "FRET-ART19-VI", "2025-11-20").await;
    assert_eq!(second["fine"]["upf"], 1000);
    assert_eq!(second["fine"]["cassacao_ground"], true);
    app.clock.set(noon("2025-12-15"));
    let res = app
        .post(
            &format!("/api/v1/charter/companies/{c}/sanctions"),
            &json!({"kind": "cassacao", "effective_from": "2025-12-15", "article": "art. 20, IV", "reason": "Reincidência no art. 19, VI."}),
        )
        .await;
    let body = created(res).await;
    assert_eq!(body["status"], "cassado");
    assert_eq!(body["new_registration_from"], "2026-12-16");
    let (_, v) = app.verify(&token).await;
    assert_eq!(v["verdict"], "revoked");
    assert_eq!(v["document"]["status"], "cassado");
    app.clock.set(noon("2026-12-15"));
    let res = termo(&app, &c).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(rules_of(&res.json().await.unwrap()), vec!["FRET-ART20-PU"]);
    app.clock.set(noon("2026-12-16"));
    let again = created(termo(&app, &c).await).await;
    assert_eq!(again["valid_from"], "2026-12-16");
    assert!(again["renews"].is_null());
    // The new Termo is in force; the old one stays cassado.
    let new_token = token_of(again["document"]["verification_url"].as_str().unwrap());
    assert_eq!(app.verify(&new_token).await.1["verdict"], "valid");
    assert_eq!(app.verify(&token).await.1["verdict"], "revoked");
    let company: Value = app
        .get_authed(&format!("/api/v1/charter/companies/{c}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(company["status"], "ativo");
    // As of the day before the cassação the company was in order; from its day, cassado.
    let as_of =
        |day: &str| app.get_authed_owned(format!("/api/v1/charter/companies/{c}?as_of={day}"));
    let before: Value = as_of("2025-12-14").await.json().await.unwrap();
    assert_eq!(before["status"], "ativo", "{before}");
    let on: Value = as_of("2025-12-15").await.json().await.unwrap();
    assert_eq!(on["status"], "cassado", "{on}");
    // A cassação needs an art. 20 ground.
    let res = app
        .post(
            &format!("/api/v1/charter/companies/{c}/sanctions"),
            &json!({"kind": "cassacao", "effective_from": "2026-12-16", "article": "art. 19, I", "reason": "x"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn fret_art15_driver_registration_and_status() {
    let app = spawn_app().await;
    app.clock.set(noon("2025-06-02"));
    let c = company(&app, "2026-12-31").await;
    let driver = charter_driver;
    let path = format!("/api/v1/charter/companies/{c}/drivers");
    let res = app.post(&path, &driver("B")).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(rules_of(&res.json().await.unwrap()), vec!["FRET-ART15-I"]);
    let d = created(app.post(&path, &driver("AE")).await).await;
    assert_eq!(d["status"], "ativo");
    assert_eq!(d["cpf"], "111.444.777-35");
    let res = app.post(&path, &driver("D")).await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
    // The folha corrida printed no validity: 90 days from issue (18/08/2025).
    app.clock.set(noon("2025-08-19"));
    let now: Value = app
        .get_authed(&format!(
            "/api/v1/charter/drivers/{}",
            d["id"].as_str().unwrap()
        ))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(now["status"], "irregular");
    assert_eq!(now["irregularities"][0]["rule"], "FRET-ART15-III");
}

/// A charter driver's status as of a past day: the documents filed by then, judged on that
/// day; never before the enrolment nor in the future.
#[tokio::test]
async fn a_charter_drivers_status_as_of_a_past_day() {
    let app = spawn_app().await;
    app.clock.set(noon("2025-06-02"));
    let c = company(&app, "2026-12-31").await;
    let path = format!("/api/v1/charter/companies/{c}/drivers");
    let d = created(app.post(&path, &charter_driver("D")).await).await;
    let id = d["id"].as_str().unwrap().to_owned();
    let as_of = |day: &str| {
        let url = format!("/api/v1/charter/drivers/{id}?as_of={day}");
        let app = &app;
        async move {
            let res = app.get_authed(&url).await;
            let status = res.status();
            (status, res.json::<Value>().await.unwrap())
        }
    };
    // The folha corrida printed no validity: in force through 18/08/2025 (90 days).
    app.clock.set(noon("2025-09-01"));
    let mut facts = charter_driver("D");
    for k in ["name", "cpf", "cnh_number"] {
        facts.as_object_mut().unwrap().remove(k);
    }
    facts["folha_corrida"] = json!({"reference": "FC-2", "issued_on": "2025-08-30"});
    let res = app
        .post(&format!("/api/v1/charter/drivers/{id}/documents"), &facts)
        .await;
    assert!(res.status().is_success(), "{}", res.text().await.unwrap());
    let (_, on_18) = as_of("2025-08-18").await;
    assert_eq!(on_18["status"], "ativo", "{on_18}");
    let (_, on_19) = as_of("2025-08-19").await;
    assert_eq!(on_19["status"], "irregular", "{on_19}");
    assert_eq!(on_19["irregularities"][0]["rule"], "FRET-ART15-III");
    assert_eq!(on_19["facts"]["folha_corrida"]["reference"], "FC-1");
    // The new folha was filed on 01/09: from that day the driver is in order again.
    let (_, before) = as_of("2025-08-31").await;
    assert_eq!(before["status"], "irregular", "{before}");
    let (_, refiled) = as_of("2025-09-01").await;
    assert_eq!(refiled["status"], "ativo", "{refiled}");
    assert_eq!(refiled["facts"]["folha_corrida"]["reference"], "FC-2");
    for day in ["2025-06-01", "2025-09-02"] {
        let (status, body) = as_of(day).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{day}: {body}");
        assert_eq!(body["errors"][0]["field"], "as_of");
    }
}

/// What no act can say is refused at the door with the field — a CNH
/// category outside the CTB's list, an age under 18 or over 100, a CRLV year of 0 or −1, a
/// first registration in the future, a date with a signed or far year in any field.
#[tokio::test]
async fn inputs_are_checked_at_the_door_enumerations_years_and_dates() {
    let app = spawn_app().await;
    app.clock.set(noon("2025-06-02"));
    let c = company(&app, "2026-12-31").await;
    let driver = |field: &str, value: Value| {
        let mut d = charter_driver("D");
        d[field] = value;
        d
    };
    let path = format!("/api/v1/charter/companies/{c}/drivers");
    for (field, value) in [
        ("cnh_category", json!("Z")),
        ("cnh_category", json!("ônibus")),
        ("birth_date", json!("2015-01-01")),
        ("birth_date", json!("1901-01-01")),
        ("birth_date", json!("-0001-01-01")),
        ("toxicological_exam_on", json!("2025-07-01")),
        ("cnh_expires_on", json!("+10000-01-01")),
    ] {
        let res = app.post(&path, &driver(field, value.clone())).await;
        assert_eq!(refused_field(res).await, field, "{value}");
    }
    let vpath = format!("/api/v1/charter/companies/{c}/vehicles");
    for (field, value) in [
        ("crlv_year", json!(0)),
        ("crlv_year", json!(-1)),
        ("model_year", json!(3000)),
        ("first_registration_date", json!("2025-07-01")),
    ] {
        let mut bus = bus_body("QBA1C23", "13824652268", "onibus", "2019-02-14");
        bus[field] = value.clone();
        let res = app.post(&vpath, &bus).await;
        assert_eq!(refused_field(res).await, field, "{value}");
    }
    // Any date field of any body: an auto's date too.
    let res = app
        .post(
            &format!("/api/v1/charter/companies/{c}/autos"),
            &json!({"infraction": "FRET-ART19-III", "committed_on": "0999-12-31", "place": "BR-070", "facts": "x", "inspector": "Fiscal"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let p: Value = res.json().await.unwrap();
    assert_eq!(p["errors"][0]["field"], "committed_on", "{p}");
    // The valid ones still register.
    created(app.post(&path, &driver("cnh_category", json!("AE"))).await).await;
}

#[tokio::test]
async fn fret_art26_transition_deadlines_are_published() {
    let app = spawn_app().await;
    let body: Value = app
        .get("/api/v1/charter/transition")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["company_registration"]["due"], "2025-05-27");
    assert_eq!(body["vehicle_enrolment"]["due"], "2025-04-28");
    let catalogue: Value = app
        .get("/api/v1/charter/infractions")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(catalogue["infractions"].as_array().unwrap().len(), 6);
    assert_eq!(catalogue["recidivism_fine_upf"], 1000);
}

#[tokio::test]
async fn auto_notice_two_copies_with_dated_deadlines_and_verifiable() {
    let app = spawn_app().await;
    app.clock.set(noon("2025-10-01"));
    let c = company(&app, "2026-12-31").await;
    let res = app
        .client
        .put(app.url("/api/v1/upf-values/2025"))
        .bearer_auth(crate::helpers::ADMIN_TOKEN)
        .json(&json!({"centavos": 12_345, "act": "Decreto nº 1/2025"}))
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success());
    let a = auto(&app, &c, "FRET-ART19-IV", "2025-10-17").await;
    let path = format!("/api/v1/charter/autos/{}/notice", a["id"].as_str().unwrap());
    // Before the notification there is no start event for the deadlines.
    let res = app.post(&path, &json!({})).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(rules_of(&res.json().await.unwrap()), vec!["FRET-ART22-P1"]);
    notify(&app, &a, "2025-10-17").await;
    let doc = created(app.post(&path, &json!({})).await).await;
    let pdf = app
        .get_authed(doc["pdf"].as_str().unwrap())
        .await
        .bytes()
        .await
        .unwrap()
        .to_vec();
    let info = pdf_info(&pdf);
    assert!(info.contains("Pages:           2"), "{info}");
    assert!(info.contains("(A4)"), "{info}");
    // pdftotext turns the no-break space after "R$" into a plain space.
    let text = pdf_text(&pdf).replace('\u{a0}', " ");
    for needle in [
        "1ª VIA — PROCESSO",
        "2ª VIA — AUTUADO",
        "art. 19, IV",
        "500 UPFBG",
        "R$ 61.725,00",
        "sessenta e um mil setecentos",
        // S09: notified Friday 17/10/2025 → defence Monday 03/11, payment 03/12/2025.
        "03/11/2025",
        "03/12/2025",
        "Prefeito",
        a["number"].as_str().unwrap(),
    ] {
        assert!(text.contains(needle), "{needle} missing from:\n{text}");
    }
    let url = doc["verification_url"].as_str().unwrap();
    // `qr_codes` reads the first page: the case file's copy.
    assert_eq!(qr_codes(&pdf), vec![url.to_owned()]);
    let token = token_of(url);
    assert_eq!(app.verify(&token).await.1["verdict"], "valid");
    // Annulled on decision: the notice verifies as revoked (anulado).
    app.clock.set(noon("2025-10-25"));
    let res = app
        .post(
            &format!("/api/v1/charter/autos/{}/acts", a["id"].as_str().unwrap()),
            &json!({"act": "decisao", "outcome": "anulado", "decided_on": "2025-10-24", "notified_on": "2025-10-25"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let (_, v) = app.verify(&token).await;
    assert_eq!(v["verdict"], "revoked");
    assert_eq!(v["document"]["status"], "anulado");
}

#[tokio::test]
async fn fret_art25_certidao_states_the_facts_and_tells_when_they_change() {
    let app = spawn_app().await;
    app.clock.set(noon("2025-06-02"));
    let c = company(&app, "2026-12-31").await;
    created(termo(&app, &c).await).await;
    let v = created(
        app.post(
            &format!("/api/v1/charter/companies/{c}/vehicles"),
            &bus_body("QBA1C23", RENAVAMS[0], "onibus", "2018-01-10"),
        )
        .await,
    )
    .await;
    let vid = v["id"].as_str().unwrap();
    created(
        app.post(
            &format!("/api/v1/charter/vehicles/{vid}/vistorias"),
            &json!({"performed_on": "2025-06-02", "approved": true, "inspector": "Fiscal SIS"}),
        )
        .await,
    )
    .await;
    let cert = created(
        app.post(
            "/api/v1/charter/certidoes",
            &json!({"subject": "vehicle", "id": vid, "protocol": "PG-2025/777"}),
        )
        .await,
    )
    .await;
    assert_eq!(cert["facts"]["status"], "ativo");
    assert_eq!(cert["valid_until"], "2025-07-02");
    let pdf = app
        .get_authed(cert["pdf"].as_str().unwrap())
        .await
        .bytes()
        .await
        .unwrap()
        .to_vec();
    let text = pdf_text(&pdf);
    for needle in [
        "CERTIDÃO DE SITUAÇÃO CADASTRAL",
        "PG-2025/777",
        "ATIVO",
        "QBA1C23",
        "Vistoria municipal",
        "02/06/2026",
        "10/01/2033",
        "02/07/2025",
    ] {
        assert!(text.contains(needle), "{needle} missing from:\n{text}");
    }
    let token = token_of(cert["verification_url"].as_str().unwrap());
    let (_, now) = app.verify(&token).await;
    assert_eq!(now["verdict"], "valid", "{now}");
    assert_eq!(now["document"]["facts_hold"], true);
    // A company suspension changes what the certidão said: outdated, not valid.
    app.post(
        &format!("/api/v1/charter/companies/{c}/sanctions"),
        &json!({"kind": "suspensao", "effective_from": "2025-06-02", "until": "2025-07-02", "article": "art. 18, III", "reason": "Descumprimento de notificação."}),
    )
    .await;
    let (_, later) = app.verify(&token).await;
    assert_eq!(later["verdict"], "outdated", "{later}");
    assert_eq!(later["document"]["facts_hold"], false);
    // Past its 30 days: expired.
    app.clock.set(noon("2025-07-03"));
    assert_eq!(app.verify(&token).await.1["verdict"], "expired");
    // A driver's certidão never puts the CPF in the public answer.
    app.clock.set(noon("2025-06-02"));
    let d = created(
        app.post(
            &format!("/api/v1/charter/companies/{c}/drivers"),
            &charter_driver("D"),
        )
        .await,
    )
    .await;
    let dc = created(
        app.post(
            "/api/v1/charter/certidoes",
            &json!({"subject": "driver", "id": d["id"], "protocol": "PG-2025/778"}),
        )
        .await,
    )
    .await;
    let (_, v) = app
        .verify(&token_of(dc["verification_url"].as_str().unwrap()))
        .await;
    let public = v.to_string();
    assert!(
        !public.contains("111.444.777-35") && !public.contains("11144477735"),
        "{public}"
    );
    assert_eq!(v["document"]["plate"], "Condutor CPF ***.444.777-**");
}

/// S10 through the API: the Secretary's decision notified Thursday 04/09/2025 → reconsideration
/// due Monday 15/09 (15/09 not a holiday by default); filed, it goes to the Mayor.
#[tokio::test]
async fn s10_reconsideration_due_after_a_sunday_and_routed_to_the_mayor() {
    let app = spawn_app().await;
    app.clock.set(noon("2025-08-01"));
    let c = company(&app, "2026-12-31").await;
    let a = auto(&app, &c, "FRET-ART19-II", "2025-08-01").await;
    notify(&app, &a, "2025-08-01").await;
    let path = format!("/api/v1/charter/autos/{}/acts", a["id"].as_str().unwrap());
    app.clock.set(noon("2025-08-10"));
    let res = app
        .post(
            &path,
            &json!({"act": "defesa", "protocol": "PG-8", "filed_on": "2025-08-10"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    app.clock.set(noon("2025-09-04"));
    let res = app
        .post(&path, &json!({"act": "decisao", "outcome": "mantido", "decided_on": "2025-09-02", "notified_on": "2025-09-04"}))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let body: Value = res.json().await.unwrap();
    assert_eq!(
        body["procedure"]["reconsideration_due"]["raw_end"],
        "2025-09-14"
    );
    assert_eq!(
        body["procedure"]["reconsideration_due"]["due"],
        "2025-09-15"
    );
    app.clock.set(noon("2025-09-15"));
    let res = app
        .post(
            &path,
            &json!({"act": "reconsideracao", "protocol": "PG-9", "filed_on": "2025-09-15"}),
        )
        .await;
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["procedure"]["reconsideration_timely"], true);
    assert_eq!(body["procedure"]["routed_to"], "GABINETE_DO_PREFEITO");
}
