//! An act of the register entered wrongly is rectified by a new act with
//! its reason, sent to the same endpoint with `rectifies`; never by editing. The rectified act
//! passes the checks of its kind, every reader (status, deadlines, verification, documents)
//! follows it, and the history keeps both.

use chrono::Duration;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::charter::{created, noon};
use crate::helpers::{TestApp, failures, spawn_app, token_of};

/// The history at `path`.
async fn history(app: &TestApp, path: &str) -> Vec<Value> {
    let h: Value = app.get_authed(path).await.json().await.unwrap();
    h["events"].as_array().unwrap().clone()
}

/// The `id` of the last event of `kind` in the history at `path`.
async fn event_id(app: &TestApp, path: &str, kind: &str) -> i64 {
    history(app, path)
        .await
        .iter()
        .rev()
        .find(|e| e["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} in {path}"))["id"]
        .as_i64()
        .unwrap()
}

fn rectifies(event: i64, on: Option<&str>) -> Value {
    let mut r = json!({"event": event, "reason": "Digitado errado: confira o laudo original."});
    if let Some(on) = on {
        r["rectified_on"] = json!(on);
    }
    r
}

async fn refused_on(res: reqwest::Response, status: StatusCode) -> Value {
    assert_eq!(res.status(), status);
    res.json().await.unwrap()
}

/// APP-ART16-P2 and APP-ART26-II: a vistoria typed in as failed, when the car passed, bars the
/// sticker fifteen days later; rectified, the sticker is valid again, the history shows the
/// wrong act and its rectification, and the rectified act is judged as any vistoria (APP-ART10).
#[tokio::test]
async fn app_art16_a_vistoria_entered_wrongly_is_rectified_and_verification_follows() {
    let app = spawn_app().await; // 30/11/2026
    let grant = app.granted().await;
    let token = token_of(grant["verification_url"].as_str().unwrap());
    let id = grant["id"].as_str().unwrap();
    let path = format!("/api/v1/app-authorizations/{id}/vistorias");
    let hist = format!("/api/v1/app-authorizations/{id}/history");
    app.clock.advance(Duration::days(2)); // 02/12
    let failed = json!({"performed_on": "2026-12-02", "approved": false, "inspector": "Fiscal SMF",
                        "notes": "Pneus carecas", "notified_on": "2026-12-02"});
    assert_eq!(app.post(&path, &failed).await.status(), StatusCode::CREATED);
    let wrong = event_id(&app, &hist, "vistoria_recorded").await;
    app.clock.advance(Duration::days(16)); // 18/12: impedida by the wrong act
    assert_ne!(app.verify(&token).await.1["verdict"], "valid");
    let before = history(&app, &hist).await.len();

    let right = |r: Value| json!({"performed_on": "2026-12-02", "approved": true, "inspector": "Fiscal SMF", "rectifies": r});
    // Refused, and nothing written: a future day, an event of another kind or entity, a
    // rectification itself, no reason, and a rectified act its own kind would refuse.
    let p = refused_on(
        app.post(&path, &right(rectifies(wrong, Some("2026-12-19"))))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(p["errors"][0]["field"], "rectifies.rectified_on", "{p}");
    let granted = event_id(&app, &hist, "granted").await;
    for other in [granted, wrong + 10_000] {
        let p = refused_on(
            app.post(&path, &right(rectifies(other, None))).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(p["errors"][0]["field"], "rectifies.event", "{p}");
    }
    let p = refused_on(
        app.post(&path, &right(json!({"event": wrong, "reason": " "})))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(p["errors"][0]["field"], "rectifies.reason", "{p}");
    let mut early = right(rectifies(wrong, None));
    early["performed_on"] = json!("2026-11-19"); // before the fee (20/11)
    let p = refused_on(
        app.post(&path, &early).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(p["errors"][0]["rule"], "APP-ART10", "{p}");
    assert_eq!(history(&app, &hist).await.len(), before);

    // Rectified: valid again, on the register and on the road.
    let res = app.post(&path, &right(rectifies(wrong, None))).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let a: Value = res.json().await.unwrap();
    assert_eq!(a["status"], "active", "{a}");
    let (_, v) = app.verify(&token).await;
    assert_eq!(v["verdict"], "valid", "{v}");
    let events = history(&app, &hist).await;
    assert_eq!(events.len(), before + 1);
    let original = events.iter().find(|e| e["id"] == wrong).unwrap();
    assert_eq!(
        original["data"]["approved"], false,
        "the wrong act stays as recorded"
    );
    let r = events.last().unwrap();
    assert_eq!(r["kind"], "act_rectified", "{r}");
    assert_eq!(r["reason"], "Digitado errado: confira o laudo original.");
    assert_eq!(r["data"]["event"], wrong);
    assert_eq!(r["data"]["kind"], "vistoria_recorded");
    assert_eq!(r["data"]["previous"]["approved"], false);
    assert_eq!(r["data"]["data"]["approved"], true);
    assert_eq!(r["data"]["rectified_on"], "2026-12-18");
    // A rectification is not itself rectified: the act is, again.
    let rid = r["id"].as_i64().unwrap();
    let p = refused_on(
        app.post(&path, &right(rectifies(rid, None))).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(p["errors"][0]["field"], "rectifies.event", "{p}");
}

/// FRET-ART13, §1º, FRET-ART12-II and FRET-ART18: a vistoria typed in with the wrong day is
/// rectified and the selo of the right one is issued, with its own validity; a CRLV year and a
/// suspension's period entered wrongly are rectified, and the vehicle's and the company's
/// status follow.
#[tokio::test]
async fn fret_art13_a_vistoria_documents_and_a_suspension_entered_wrongly_are_rectified() {
    let (app, c, v) = crate::charter::minibus_company().await;
    let vid = v["id"].as_str().unwrap();
    let path = format!("/api/v1/charter/vehicles/{vid}/vistorias");
    let hist = format!("/api/v1/charter/vehicles/{vid}/history");
    let vistoria =
        |on: &str| json!({"performed_on": on, "approved": true, "inspector": "Fiscal SIS"});
    let first = created(app.post(&path, &vistoria("2025-05-02")).await).await;
    assert_eq!(first["vistoria_valid_until"], "2026-05-02", "{first}");
    let wrong = event_id(&app, &hist, "vistoria_recorded").await;
    let mut right = vistoria("2025-06-02");
    right["rectifies"] = rectifies(wrong, None);
    let second = created(app.post(&path, &right).await).await;
    assert_eq!(second["vistoria_valid_until"], "2026-06-02", "{second}");
    assert_eq!(second["vistorias"].as_array().unwrap().len(), 1, "{second}");
    assert_eq!(second["vistorias"][0]["performed_on"], "2025-06-02");
    let selo = &second["selo"];
    assert_ne!(selo["number"], first["selo"]["number"], "{second}");
    let text = app.issued_pdf_text(selo).await;
    assert!(text.contains("02/06/2026"), "{text}");
    let kinds: Vec<Value> = history(&app, &hist)
        .await
        .iter()
        .map(|e| e["kind"].clone())
        .collect();
    assert!(kinds.contains(&json!("vistoria_recorded")) && kinds.contains(&json!("act_rectified")));

    // A CRLV year typed wrongly: rectified; the rectified one is checked like any filing.
    let docs = format!("/api/v1/charter/vehicles/{vid}/documents");
    created_ok(app.post(&docs, &json!({"crlv_year": 2024})).await).await;
    let filed = event_id(&app, &hist, "vehicle_documents_filed").await;
    let p = refused_on(
        app.post(
            &docs,
            &json!({"crlv_year": 2030, "rectifies": rectifies(filed, None)}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(p["errors"][0]["field"], "crlv_year", "{p}");
    let body = created_ok(
        app.post(
            &docs,
            &json!({"crlv_year": 2025, "rectifies": rectifies(filed, None)}),
        )
        .await,
    )
    .await;
    assert_eq!(body["facts"]["crlv_year"], 2025, "{body}");

    // A suspension entered with the wrong period (the decision said May): rectified, the
    // company is no longer suspended now.
    app.clock.set(noon("2025-06-20"));
    let sanctions = format!("/api/v1/charter/companies/{c}/sanctions");
    let suspension = |from: &str, until: &str| {
        json!({"kind": "suspensao", "effective_from": from, "until": until,
               "article": "art. 18, III", "reason": "Descumprimento de notificação."})
    };
    let body = created(
        app.post(&sanctions, &suspension("2025-06-10", "2025-07-10"))
            .await,
    )
    .await;
    assert_eq!(body["status"], "suspenso", "{body}");
    let chist = format!("/api/v1/charter/companies/{c}/history");
    let applied = event_id(&app, &chist, "sanction_applied").await;
    // Not an act of another entity: the vehicle's vistoria is not this company's act.
    let mut elsewhere = suspension("2025-05-01", "2025-05-31");
    elsewhere["rectifies"] = rectifies(wrong, None);
    let p = refused_on(
        app.post(&sanctions, &elsewhere).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(p["errors"][0]["field"], "rectifies.event", "{p}");
    let mut may = suspension("2025-05-01", "2025-05-31");
    may["rectifies"] = rectifies(applied, None);
    let body = created(app.post(&sanctions, &may).await).await;
    assert_eq!(body["status"], "ativo", "{body}");

    // A baixa entered with the wrong day: not twice, but rectified, under FRET-ART13-P5 still.
    let baixa = format!("/api/v1/charter/vehicles/{vid}/baixa");
    let sold = |on: &str, returned: bool| json!({"requested_on": on, "selo_returned": returned, "reason": "Venda do veículo"});
    let body = created_ok(app.post(&baixa, &sold("2025-06-20", true)).await).await;
    assert_eq!(body["status"], "baixado", "{body}");
    let res = app.post(&baixa, &sold("2025-06-18", true)).await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
    let recorded = event_id(&app, &hist, "baixa").await;
    let mut no_selo = sold("2025-06-18", false);
    no_selo["rectifies"] = rectifies(recorded, None);
    let p = refused_on(
        app.post(&baixa, &no_selo).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(p["errors"][0]["rule"], "FRET-ART13-P5", "{p}");
    let mut right_day = sold("2025-06-18", true);
    right_day["rectifies"] = rectifies(recorded, None);
    let body = created_ok(app.post(&baixa, &right_day).await).await;
    assert_eq!(body["baixa"]["requested_on"], "2025-06-18", "{body}");
}

async fn created_ok(res: reqwest::Response) -> Value {
    let status = res.status();
    let body: Value = res.json().await.unwrap();
    assert!(status.is_success(), "{status}: {body}");
    body
}

/// APP-ART13-XIX and APP-ART24-I: a data-change report typed in with the wrong day is
/// rectified and its deadline judged again; a register act is rectified only while it is the
/// last, and the sticker follows the rectified one.
#[tokio::test]
async fn app_art24_i_a_register_act_and_a_data_change_entered_wrongly_are_rectified() {
    let app = spawn_app().await; // 30/11/2026
    let grant = app.granted().await;
    app.vistoria(&grant, "2026-11-30", true).await;
    let driver = grant["driver_id"].as_str().unwrap();
    let dhist = format!("/api/v1/drivers/{driver}/history");

    // Changed Friday 20/11/2026, due 27/11; typed as reported on 30/11 (late), it was on 26/11.
    let changes = format!("/api/v1/drivers/{driver}/data-changes");
    let change = |reported: &str| json!({"what": "Novo endereço", "changed_on": "2026-11-20", "reported_on": reported});
    let body = created(app.post(&changes, &change("2026-11-30")).await).await;
    assert_eq!(body["warnings"][0]["rule"], "APP-ART13-XIX", "{body}");
    let reported = event_id(&app, &dhist, "data_change_reported").await;
    let mut right = change("2026-11-26");
    right["rectifies"] = rectifies(reported, None);
    let body = created(app.post(&changes, &right).await).await;
    assert!(body["warnings"].as_array().unwrap().is_empty(), "{body}");
    let r = history(&app, &dhist).await.last().unwrap().clone();
    assert_eq!(r["data"]["data"]["late"], false, "{r}");
    assert_eq!(r["data"]["previous"]["late"], true, "{r}");

    // A car removed from the register with the wrong effective day, then restored.
    let car = grant["vehicle_id"].as_str().unwrap();
    let acts = format!("/api/v1/vehicles/{car}/register-acts");
    let vhist = format!("/api/v1/vehicles/{car}/history");
    let removal = |effective: &str| {
        json!({"act": "descadastramento", "ground": "idade_veiculo", "notified_on": "2026-11-25",
               "effective_on": effective, "reference": "Portaria SMF nº 7/2026"})
    };
    created(app.post(&acts, &removal("2026-11-30")).await).await;
    let removed = event_id(&app, &vhist, "register_act").await;
    app.clock.advance(Duration::days(3)); // 03/12
    let back = json!({"act": "recadastramento", "effective_on": "2026-12-03", "reference": "Despacho SMF"});
    created(app.post(&acts, &back).await).await;
    let restored = event_id(&app, &vhist, "register_act").await;
    // The removal is no longer the last act: the restoration was judged against it.
    let mut fixed = removal("2026-11-26");
    fixed["rectifies"] = rectifies(removed, None);
    let p = refused_on(app.post(&acts, &fixed).await, StatusCode::CONFLICT).await;
    assert_eq!(p["errors"][0]["field"], "rectifies.event", "{p}");
    // The restoration is, and its rectified day is judged against the removal.
    let mut early = back.clone();
    early["effective_on"] = json!("2026-11-29");
    early["rectifies"] = rectifies(restored, None);
    let p = refused_on(
        app.post(&acts, &early).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(failures(&p)[0].0, "APP-ART24-I", "{p}");
    let mut earlier = back.clone();
    earlier["effective_on"] = json!("2026-12-01");
    earlier["rectifies"] = rectifies(restored, None);
    let body = created(app.post(&acts, &earlier).await).await;
    assert_eq!(body["deregistered_since"], Value::Null, "{body}");
    assert_eq!(body["acts"].as_array().unwrap().len(), 2, "{body}");
    assert_eq!(body["acts"][1]["effective_on"], "2026-12-01", "{body}");
    // Rectified the other way, the removal is back in force until the right day.
    let mut later = back.clone();
    later["effective_on"] = json!("2026-12-10");
    later["rectifies"] = rectifies(restored, None);
    let body = created(app.post(&acts, &later).await).await;
    assert_eq!(body["deregistered_since"], "2026-11-30", "{body}");
    let (_, v) = app
        .verify(&crate::register_acts::sticker_token(&grant))
        .await;
    assert_eq!(v["document"]["status"], "veiculo_descadastrado", "{v}");
}

/// APP-ART26-V and §1º: a suspension typed in from the wrong day is
/// rectified; the authorization and the sticker's verification follow the right period at
/// once, the history keeps both, and the rectification cannot turn it into another sanction.
#[tokio::test]
async fn app_art26_p1_a_suspension_entered_from_the_wrong_day_is_rectified() {
    let app = spawn_app().await; // 30/11/2026
    let grant = app.granted().await;
    app.vistoria(&grant, "2026-11-30", true).await;
    let token = token_of(grant["verification_url"].as_str().unwrap());
    let id = grant["id"].as_str().unwrap();
    let path = format!("/api/v1/app-authorizations/{id}/sanctions");
    let hist = format!("/api/v1/app-authorizations/{id}/history");
    let suspension = |from: &str| {
        json!({"kind": "suspension", "effective_from": from, "days": 30,
               "reason": "Reincidência no art. 26, IV", "legal_basis": "art. 26, §1º"})
    };
    // The decision suspended from 20/11; typed in from 20/12, the car still drives.
    let a = created(app.post(&path, &suspension("2026-12-20")).await).await;
    assert_eq!(a["status"], "active", "{a}");
    assert_eq!(app.verify(&token).await.1["verdict"], "valid");
    let wrong = event_id(&app, &hist, "sanctioned").await;
    // Not into a cassação: another sanction is another decision.
    let cassacao = json!({"kind": "cassacao", "effective_from": "2026-11-20", "reason": "x",
                          "legal_basis": "art. 26, §2º", "rectifies": rectifies(wrong, None)});
    let p = refused_on(
        app.post(&path, &cassacao).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(p["errors"][0]["field"], "kind", "{p}");
    let vistoria = event_id(&app, &hist, "vistoria_recorded").await;
    let mut other = suspension("2026-11-20");
    other["rectifies"] = rectifies(vistoria, None);
    let p = refused_on(
        app.post(&path, &other).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(p["errors"][0]["field"], "rectifies.event", "{p}");
    let mut right = suspension("2026-11-20");
    right["rectifies"] = rectifies(wrong, None);
    let a = created(app.post(&path, &right).await).await;
    assert_eq!(a["status"], "suspended", "{a}");
    assert_eq!(a["sanctions"].as_array().unwrap().len(), 1, "{a}");
    assert_eq!(a["sanctions"][0]["effective_from"], "2026-11-20", "{a}");
    assert_eq!(a["sanctions"][0]["until"], "2026-12-20", "{a}");
    let (_, v) = app.verify(&token).await;
    assert_eq!(v["verdict"], "suspended", "{v}");
    assert_eq!(v["document"]["suspended_until"], "2026-12-20", "{v}");
    let events = history(&app, &hist).await;
    let first = events.iter().find(|e| e["id"] == wrong).unwrap();
    assert_eq!(
        first["data"]["effective_from"], "2026-12-20",
        "kept as recorded"
    );
    let last = events.last().unwrap();
    assert_eq!(last["kind"], "act_rectified", "{last}");
    assert_eq!(
        last["data"]["data"]["effective_from"], "2026-11-20",
        "{last}"
    );
}
