//! Acts entered after the fact with the date they happened,
//! fines paid or inscribed in dívida ativa, and a charter vehicle's enrolment date. Every
//! act is tried entered on the day, late but timely, really late and dated in the future.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::charter::{auto, company, created, get_auto, noon, notify};
use crate::helpers::{ADMIN_TOKEN, TestApp, spawn_app};

/// Posts an act on charter auto `a`, the clock at noon of `entered_on`.
async fn charter_act(
    app: &TestApp,
    a: &Value,
    entered_on: &str,
    body: &Value,
) -> (StatusCode, Value) {
    app.clock.set(noon(entered_on));
    let res = app
        .post(
            &format!("/api/v1/charter/autos/{}/acts", a["id"].as_str().unwrap()),
            body,
        )
        .await;
    let status = res.status();
    (status, res.json().await.unwrap_or_default())
}

/// An art. 26, VI auto against the granted driver, committed at `at` and notified by e-mail
/// on 30/11/2026 (juntada the same day).
async fn notified_auto(app: &TestApp, grant: &Value, at: &str) -> Value {
    let mut body =
        crate::autos::auto_body(grant["driver_id"].as_str().unwrap(), "APP-ART26-VI", at);
    body["authorization_id"] = grant["id"].clone();
    let a = created(app.post("/api/v1/app-infraction-autos", &body).await).await;
    created(
        app.post(
            &format!(
                "/api/v1/app-infraction-autos/{}/notification",
                a["id"].as_str().unwrap()
            ),
            &json!({"method": "electronic", "notified_on": "2026-11-30", "juntada_on": "2026-11-30"}),
        )
        .await,
    )
    .await;
    a
}

/// The last event of the history at `path`, and the whole history.
async fn last_event(app: &TestApp, path: &str) -> (Value, Value) {
    let history: Value = app.get_authed(path).await.json().await.unwrap();
    let last = history["events"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    (last, history)
}

async fn set_upf(app: &TestApp, year: i32, centavos: i64) {
    let res = app
        .client
        .put(app.url(&format!("/api/v1/upf-values/{year}")))
        .bearer_auth(ADMIN_TOKEN)
        .json(&json!({"centavos": centavos, "act": format!("Decreto nº 1/{year}")}))
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success());
}

/// FRET-ART22 (§§1º–3º) and FRET-ART23: a defence protocolled on its last day and typed in
/// two days later is timely; one protocolled after the period is recorded as untimely and
/// the facts stay admitted; no act may bear a future date or one before the act it follows;
/// the decision and the reconsideration are judged on their own dates too.
#[tokio::test]
async fn fret_art22_acts_are_judged_on_the_date_they_happened() {
    let app = spawn_app().await;
    app.clock.set(noon("2025-03-01"));
    let firm = company(&app, "2026-12-31").await;
    let a = auto(&app, &firm, "FRET-ART19-III", "2025-04-10").await;
    // Entered on the day: notified 11/04 → defence due Monday 28/04 (26/04 is a Saturday).
    let notified = notify(&app, &a, "2025-04-11").await;
    assert_eq!(notified["procedure"]["defence_due"]["due"], "2025-04-28");
    let defesa = |on: &str| json!({"act": "defesa", "protocol": "PG-2025/881", "filed_on": on});
    // Dated in the future: 422 naming the date.
    let (status, p) = charter_act(&app, &a, "2025-04-20", &defesa("2025-04-21")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{p}");
    assert_eq!(p["errors"][0]["field"], "filed_on", "{p}");
    // Before the notification it follows: 422.
    let (status, p) = charter_act(&app, &a, "2025-04-20", &defesa("2025-04-10")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{p}");
    assert_eq!(p["errors"][0]["field"], "filed_on", "{p}");
    // Late but timely: protocolled on the last day, typed in on 30/04 (was a 409 before).
    let (status, p) = charter_act(&app, &a, "2025-04-30", &defesa("2025-04-28")).await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["procedure"]["defence_timely"], true, "{p}");
    assert_eq!(p["procedure"]["stage"], "defesa_apresentada", "{p}");
    assert_eq!(p["payment"]["status"], "aguardando_decisao", "{p}");
    // A second defence is out of order.
    let (status, _) = charter_act(&app, &a, "2025-04-30", &defesa("2025-04-29")).await;
    assert_eq!(status, StatusCode::CONFLICT);
    // The decision, typed in weeks later with its own dates; its notice may not be future.
    let decisao = |decided: &str, notified: &str| json!({"act": "decisao", "outcome": "mantido", "decided_on": decided, "notified_on": notified});
    let (status, p) =
        charter_act(&app, &a, "2025-05-21", &decisao("2025-05-20", "2025-05-22")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{p}");
    let (status, p) =
        charter_act(&app, &a, "2025-04-30", &decisao("2025-04-27", "2025-04-30")).await;
    assert_eq!(
        status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "before the defence: {p}"
    );
    let (status, p) =
        charter_act(&app, &a, "2025-06-10", &decisao("2025-05-20", "2025-05-22")).await;
    assert_eq!(status, StatusCode::OK, "{p}");
    // 22/05 + 10 = 01/06, a Sunday → 02/06 (DL-5).
    assert_eq!(p["procedure"]["reconsideration_due"]["due"], "2025-06-02");
    // Reconsideration protocolled on its last day, typed in on 10/06: timely, to the Mayor.
    let recon =
        |on: &str| json!({"act": "reconsideracao", "protocol": "PG-2025/990", "filed_on": on});
    let (status, p) = charter_act(&app, &a, "2025-06-10", &recon("2025-06-02")).await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["procedure"]["reconsideration_timely"], true, "{p}");
    assert_eq!(p["procedure"]["routed_to"], "GABINETE_DO_PREFEITO", "{p}");
    // The Mayor upholds it: the fine is due 30 days after that decision.
    let (status, p) = charter_act(
        &app,
        &a,
        "2025-06-20",
        &json!({"act": "decisao_prefeito", "outcome": "mantido", "decided_on": "2025-06-16"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["procedure"]["stage"], "definitivo");
    assert_eq!(p["procedure"]["payment_due"]["due"], "2025-07-16");
    assert_eq!(p["payment"]["status"], "a_pagar");

    // Really late: a defence protocolled the day after the period is on record as untimely,
    // and the facts stay admitted (art. 23): final, with the payment due.
    let late = auto(&app, &firm, "FRET-ART19-II", "2025-04-10").await;
    notify(&app, &late, "2025-04-11").await;
    let (status, p) = charter_act(&app, &late, "2025-05-02", &defesa("2025-04-29")).await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["procedure"]["defence_timely"], false, "{p}");
    assert_eq!(p["procedure"]["stage"], "definitivo", "{p}");
    assert_eq!(p["procedure"]["payment_due"]["due"], "2025-05-28", "{p}");
    // The history shows the act's own date beside when it was entered and by whom.
    app.clock.set(noon("2025-05-02"));
    let (last, history) = last_event(
        &app,
        &format!(
            "/api/v1/charter/autos/{}/history",
            late["id"].as_str().unwrap()
        ),
    )
    .await;
    assert_eq!(last["data"]["filed_on"], "2025-04-29", "{history}");
    assert!(
        last["occurred_at"]
            .as_str()
            .unwrap()
            .starts_with("2025-05-02"),
        "{history}"
    );
    assert!(!last["actor"].as_str().unwrap().is_empty(), "{history}");
}

/// APP-ART22 (§§1º–2º, AMB-33/34): the notice cannot precede the auto nor be dated in the
/// future; a defence protocolled before the juntada's period ends and typed in later is
/// timely; one protocolled after it is untimely; the juntada counts, not the typing.
#[tokio::test]
async fn app_art22_notification_and_defence_are_judged_on_their_dates() {
    let app = spawn_app().await; // 30/11/2026
    let grant = app.granted().await;
    let driver = grant["driver_id"].as_str().unwrap();
    let mut body = crate::autos::auto_body(driver, "APP-ART26-VI", "2026-11-30T08:00");
    body["authorization_id"] = grant["id"].clone();
    let a = created(app.post("/api/v1/app-infraction-autos", &body).await).await;
    let id = a["id"].as_str().unwrap();
    let notification = |notified: &str, juntada: &str| json!({"method": "post", "notified_on": notified, "juntada_on": juntada});
    let path = format!("/api/v1/app-infraction-autos/{id}/notification");
    for (n, field) in [
        (notification("2026-11-29", "2026-11-30"), "notified_on"),
        (notification("2026-11-30", "2026-12-01"), "juntada_on"),
        (notification("2026-12-02", "2026-12-02"), "notified_on"),
    ] {
        let res = app.post(&path, &n).await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY, "{n}");
        let p: Value = res.json().await.unwrap();
        assert_eq!(p["errors"][0]["field"], field, "{p}");
    }
    // The AR came back by post a week later: entered on 07/12 with its true dates.
    app.clock.set(noon("2026-12-07"));
    let n = created(
        app.post(&path, &notification("2026-12-01", "2026-12-04"))
            .await,
    )
    .await;
    let due = n["procedure"]["defence_due"]["due"]
        .as_str()
        .unwrap()
        .to_owned();
    let due_date: chrono::NaiveDate = due.parse().unwrap();
    // Typed in three days after the period ended, protocolled on its last day: timely.
    app.clock
        .set(noon(&(due_date + chrono::Days::new(3)).to_string()));
    let acts = format!("/api/v1/app-infraction-autos/{id}/acts");
    let defesa = |on: String| json!({"act": "defesa", "protocol": "PG-2026/1201", "filed_on": on});
    let res = app.post(&acts, &defesa(due.clone())).await;
    assert_eq!(res.status(), StatusCode::OK);
    let p: Value = res.json().await.unwrap();
    assert_eq!(p["procedure"]["defence_timely"], true, "{p}");
    assert_eq!(p["procedure"]["stage"], "defesa_apresentada", "{p}");

    // A second auto, defence protocolled the day after its period: untimely, final.
    app.clock.set(noon("2026-12-07"));
    let mut body = crate::autos::auto_body(driver, "APP-ART26-VI", "2026-12-05T08:00");
    body["authorization_id"] = grant["id"].clone();
    let b = created(app.post("/api/v1/app-infraction-autos", &body).await).await;
    let bid = b["id"].as_str().unwrap();
    let n = created(
        app.post(
            &format!("/api/v1/app-infraction-autos/{bid}/notification"),
            &notification("2026-12-07", "2026-12-07"),
        )
        .await,
    )
    .await;
    let due: chrono::NaiveDate = n["procedure"]["defence_due"]["due"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let acts = format!("/api/v1/app-infraction-autos/{bid}/acts");
    // Dated in the future: 422.
    let res = app.post(&acts, &defesa("2026-12-08".into())).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    app.clock
        .set(noon(&(due + chrono::Days::new(5)).to_string()));
    let late = (due + chrono::Days::new(1)).to_string();
    let res = app.post(&acts, &defesa(late)).await;
    assert_eq!(res.status(), StatusCode::OK);
    let p: Value = res.json().await.unwrap();
    assert_eq!(p["procedure"]["defence_timely"], false, "{p}");
    assert_eq!(p["procedure"]["stage"], "definitivo", "{p}");
}

/// FRET-ART23 and AMB-03: a fine is paid by guia in parts, the rest falls
/// due (`vencida`) after the deadline and is inscribed in dívida ativa; paid late, the units
/// owed are valued at the UPF of the year of payment. Nothing is paid before notice, beyond
/// the balance, or in the future; only a fine past its deadline is inscribed, once.
#[tokio::test]
async fn fines_are_paid_in_parts_fall_due_and_are_inscribed_in_divida_ativa() {
    let app = spawn_app().await;
    app.clock.set(noon("2025-03-01"));
    set_upf(&app, 2025, 10_000).await;
    set_upf(&app, 2026, 11_000).await;
    let firm = company(&app, "2026-12-31").await;
    let a = auto(&app, &firm, "FRET-ART19-III", "2025-04-10").await;
    let pay = |on: &str, centavos: i64| json!({"act": "pagamento", "guia": "DAM 2025/000123", "paid_on": on, "amount_centavos": centavos});
    // Before the notice there is no guia.
    let (status, p) = charter_act(&app, &a, "2025-04-10", &pay("2025-04-10", 100)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{p}");
    notify(&app, &a, "2025-04-11").await; // payment due 28/05/2025 (art. 23)
    let (status, p) = charter_act(&app, &a, "2025-05-20", &pay("2025-05-20", 1_000_000)).await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["payment"]["status"], "a_pagar", "{p}");
    assert_eq!(p["payment"]["due"], "2025-05-28", "{p}");
    assert_eq!(p["payment"]["amount_centavos"], 5_000_000, "{p}");
    assert_eq!(p["payment"]["paid_centavos"], 1_000_000, "{p}");
    assert_eq!(p["payment"]["balance_centavos"], 4_000_000, "{p}");
    // More than the balance, or in the future: refused, naming the field.
    let (status, p) = charter_act(&app, &a, "2025-05-21", &pay("2025-05-21", 4_000_001)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{p}");
    assert_eq!(p["errors"][0]["field"], "amount_centavos", "{p}");
    let (status, p) = charter_act(&app, &a, "2025-05-21", &pay("2025-05-22", 10)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{p}");
    assert_eq!(p["errors"][0]["field"], "paid_on", "{p}");
    // The day after the deadline the balance is vencida.
    app.clock.set(noon("2025-05-29"));
    assert_eq!(get_auto(&app, &a).await["payment"]["status"], "vencida");
    // Dívida ativa only after the deadline (dated on it: refused), and once.
    let inscribe = |on: &str| json!({"act": "inscricao_divida_ativa", "number": "CDA 2025/0007", "inscribed_on": on});
    let (status, p) = charter_act(&app, &a, "2025-06-10", &inscribe("2025-05-28")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{p}");
    let (status, p) = charter_act(&app, &a, "2025-06-10", &inscribe("2025-06-09")).await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["payment"]["status"], "inscrita_em_divida_ativa", "{p}");
    assert_eq!(p["payment"]["divida_ativa"]["number"], "CDA 2025/0007");
    assert_eq!(p["payment"]["divida_ativa"]["balance_centavos"], 4_000_000);
    let (status, _) = charter_act(&app, &a, "2025-06-11", &inscribe("2025-06-11")).await;
    assert_eq!(status, StatusCode::CONFLICT);
    // In 2026 the 400 units owed are worth R$ 44.000,00; paying them settles the debt.
    app.clock.set(noon("2026-02-01"));
    let now = get_auto(&app, &a).await;
    assert_eq!(now["payment"]["balance_centavos"], 4_400_000, "{now}");
    let (status, p) = charter_act(&app, &a, "2026-02-02", &pay("2026-02-01", 4_400_000)).await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["payment"]["status"], "paga", "{p}");
    assert_eq!(p["payment"]["payments"][1]["late"], true, "{p}");
    assert_eq!(p["payment"]["payments"][1]["upf_year"], 2026, "{p}");
    let (status, _) = charter_act(&app, &a, "2026-02-02", &pay("2026-02-02", 1)).await;
    assert_eq!(status, StatusCode::CONFLICT, "nothing left to pay");
}

/// APP-ART13-XXII with the charter periods by analogy (AMB-34): a ride-hailing fine paid in
/// full within its deadline reads `paga`; an unpaid one reads `vencida` after it.
#[tokio::test]
async fn app_art13_xxii_a_ride_hailing_fine_is_paid_or_falls_due() {
    let app = spawn_app().await; // 30/11/2026
    set_upf(&app, 2026, 11_972).await;
    let grant = app.granted().await;
    let mut autos = Vec::new();
    for at in ["2026-11-30T08:00", "2026-11-30T09:00"] {
        let a = notified_auto(&app, &grant, at).await;
        autos.push((
            a["id"].as_str().unwrap().to_owned(),
            a["fine"]["upf"].as_i64().unwrap(),
        ));
    }
    let (paid_id, upf) = &autos[0];
    let res = app
        .post(
            &format!("/api/v1/app-infraction-autos/{paid_id}/acts"),
            &json!({"act": "pagamento", "guia": "DAM 2026/5532", "paid_on": "2026-11-30", "amount_centavos": upf * 11_972}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let p: Value = res.json().await.unwrap();
    assert_eq!(p["payment"]["status"], "paga", "{p}");
    let due: chrono::NaiveDate = p["payment"]["due"].as_str().unwrap().parse().unwrap();
    app.clock
        .set(noon(&(due + chrono::Days::new(1)).to_string()));
    let unpaid: Value = app
        .get_authed(&format!("/api/v1/app-infraction-autos/{}", autos[1].0))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(unpaid["payment"]["status"], "vencida", "{unpaid}");
    assert_eq!(
        unpaid["payment"]["balance_centavos"],
        upf * 11_972,
        "{unpaid}"
    );
    // The driver's certidão states the fine in debt by the auto's number.
    let cert = created(
        app.post(
            &format!(
                "/api/v1/app-authorizations/{}/certidoes",
                grant["id"].as_str().unwrap()
            ),
            &json!({"subject": "app_driver", "protocol": "PG-2026/77"}),
        )
        .await,
    )
    .await;
    let line = cert["facts"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["item"].as_str().unwrap().contains("art. 13, XXII"))
        .unwrap()
        .clone();
    assert_eq!(
        line["situation"],
        format!("em débito: {}", unpaid["number"].as_str().unwrap()),
        "{cert}"
    );
    let pdf = app
        .get_authed(cert["pdf"].as_str().unwrap())
        .await
        .bytes()
        .await
        .unwrap();
    let text = crate::helpers::pdf_text(&pdf);
    assert!(text.contains("em débito"), "{text}");
}

/// FRET-ART26-P1: each vehicle's enrolment date is the day it was
/// protocolled at SIS; the transitional deadline is judged on it, not on the day it is typed.
#[tokio::test]
async fn fret_art26_p1_is_judged_on_each_vehicles_enrolment_date() {
    let app = spawn_app().await;
    app.clock.set(noon("2025-04-01"));
    let mut body = crate::bodies::company_body("11.222.333/0001-81", "2026-12-31");
    body["operating_before_law"] = json!(true);
    body["applied_on"] = json!("2025-04-01");
    let c = created(app.post("/api/v1/charter/companies", &body).await).await;
    let path = format!(
        "/api/v1/charter/companies/{}/vehicles",
        c["id"].as_str().unwrap()
    );
    // Typed in on 10/06/2025, after the deadline of 28/04/2025, but protocolled on 25/04.
    app.clock.set(noon("2025-06-10"));
    let mut bus = crate::charter::bus_body("QBA1C23", "13824652268", "onibus", "2019-02-14");
    bus["enrolled_on"] = json!("2025-04-25");
    let v = created(app.post(&path, &bus).await).await;
    assert_eq!(v["enrolled_on"], "2025-04-25", "{v}");
    assert_eq!(v["transition"]["due"], "2025-04-28", "{v}");
    assert_eq!(v["transition"]["within_deadline"], true, "{v}");
    assert!(v["warnings"].as_array().unwrap().is_empty(), "{v}");
    // Protocolled today: late, with the art. 26 §1º warning.
    let bus = crate::charter::bus_body("RBG4H56", "08543317523", "micro_onibus", "2019-02-14");
    let v = created(app.post(&path, &bus).await).await;
    assert_eq!(v["enrolled_on"], "2025-06-10", "{v}");
    assert_eq!(v["transition"]["within_deadline"], false, "{v}");
    assert_eq!(v["warnings"][0]["rule"], "FRET-ART26-P1", "{v}");
    // In the future: refused.
    let mut bus = crate::charter::bus_body("QWE1R23", "09769017014", "onibus", "2019-02-14");
    bus["enrolled_on"] = json!("2025-06-11");
    let res = app.post(&path, &bus).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let p: Value = res.json().await.unwrap();
    assert_eq!(p["errors"][0]["field"], "enrolled_on", "{p}");
}

/// FRET-ART9 (AMB-53): a change of a company's, vehicle's or driver's registration data is
/// recorded with the day it changed and the day it was communicated; the law sets no deadline,
/// so a late communication carries no warning; a communication cannot precede the change nor
/// be dated in the future, and it shows in the entity's history.
#[tokio::test]
async fn fret_art9_changes_are_recorded_with_their_dates_and_no_deadline() {
    let app = spawn_app().await;
    app.clock.set(noon("2025-06-10"));
    let firm = company(&app, "2026-12-31").await;
    let path = format!("/api/v1/charter/companies/{firm}/data-changes");
    let change = |changed: &str, reported: &str| json!({"what": "Novo endereço da sede: Rua Couto Magalhães, 200", "changed_on": changed, "reported_on": reported});
    // Communicated four months after the change: recorded, with no deadline and no warning.
    let res = app.post(&path, &change("2025-02-01", "2025-06-09")).await;
    let body = created(res).await;
    assert_eq!(body["rule"], "FRET-ART9");
    assert_eq!(body["changed_on"], "2025-02-01");
    assert_eq!(body["reported_on"], "2025-06-09");
    for bad in [
        change("2025-06-01", "2025-05-31"),
        change("2025-06-01", "2025-06-11"),
    ] {
        let res = app.post(&path, &bad).await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
        let p: Value = res.json().await.unwrap();
        assert_eq!(p["errors"][0]["field"], "reported_on", "{p}");
    }
    let (last, history) =
        last_event(&app, &format!("/api/v1/charter/companies/{firm}/history")).await;
    assert_eq!(last["kind"], "data_change_reported", "{history}");
    assert_eq!(last["data"]["changed_on"], "2025-02-01", "{history}");
    // Unknown entity kinds and records are 404.
    let res = app
        .post(
            &format!("/api/v1/charter/termos/{firm}/data-changes"),
            &change("2025-02-01", "2025-06-09"),
        )
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let res = app
        .post(
            &format!(
                "/api/v1/charter/vehicles/{}/data-changes",
                uuid::Uuid::new_v4()
            ),
            &change("2025-02-01", "2025-06-09"),
        )
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}

/// A fine's payment, end to end in the back office: the act form offers the payment with the
/// guia, the date and the amount; recording it settles the fine, and the auto's page shows it.
#[tokio::test]
async fn a_payment_is_recorded_from_the_back_office_and_shown_on_the_autos_page() {
    let app = spawn_app().await; // 30/11/2026
    set_upf(&app, 2026, 11_972).await;
    let grant = app.granted().await;
    let a = notified_auto(&app, &grant, "2026-11-30T08:00").await;
    let id = a["id"].as_str().unwrap();
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let mut b = crate::panel::Browser::new(&app);
    b.sign_in("ana.smf", crate::helpers::OFFICIAL_PASSWORD)
        .await;
    let (status, form, _) = b
        .get(&format!(
            "/painel/acao/autos.act?id={id}&variante=pagamento"
        ))
        .await;
    assert_eq!(status, StatusCode::OK);
    for label in ["Pagamento da multa", "Guia (DAM)", "Paga em", "Valor (R$)"] {
        assert!(
            form.contains(label),
            "{label} missing from the form: {form}"
        );
    }
    let csrf = crate::panel::field(&form, "_csrf").unwrap();
    // Typed in reais, as on the guia: `27535,60`.
    let centavos = a["fine"]["upf"].as_i64().unwrap() * 11_972;
    let amount = format!("{},{:02}", centavos / 100, centavos % 100);
    let req = b
        .client
        .post(app.url(&format!(
            "/painel/acao/autos.act?linhas=1&id={id}&variante=pagamento"
        )))
        .form(&[
            ("_csrf", csrf.as_str()),
            ("_variante", "pagamento"),
            ("guia", "DAM 2026/5532"),
            ("paid_on", "2026-11-30"),
            ("amount_centavos", amount.as_str()),
        ]);
    let (status, page, _) = b.send(req).await;
    assert!(
        status == StatusCode::SEE_OTHER || status == StatusCode::OK,
        "{status}: {page}"
    );
    let now: Value = app
        .get_authed(&format!("/api/v1/app-infraction-autos/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(now["payment"]["status"], "paga", "{now}");
    assert_eq!(
        now["payment"]["payments"][0]["guia"], "DAM 2026/5532",
        "{now}"
    );
    let (_, page, _) = b
        .get(&format!("/painel/ver/app-infraction-autos/{id}"))
        .await;
    assert!(page.contains("Multa: pagamento"), "{page}");
    assert!(page.contains("DAM 2026/5532"), "{page}");
    // Amounts read in reais, never in centavos.
    let paid = crate::pages::visible(&page);
    assert!(
        paid.contains(&selo::domain::money::money(centavos).replace('\u{a0}', " ")),
        "{paid}"
    );
}

/// APP-ART12-IV (DL-10) and AMB-63: an application protocolled on
/// 20/11/2026 and granted on 30/11 is judged on the driver's history as of the protocol: a
/// first licence of 25/11/2024 had not reached its two years then. Protocolled on its
/// anniversary it is granted, and the authorization records the protocol date; a protocol
/// date in the future is a 422.
#[tokio::test]
async fn app_art12_a_grant_judges_the_drivers_history_at_the_applications_protocol() {
    let app = spawn_app().await; // 30/11/2026
    let mut driver = crate::bodies::driver_body(crate::helpers::CPFS[0], crate::helpers::CNHS[0]);
    driver["cnh"]["first_license_date"] = json!("2024-11-25");
    let d = app.create_driver(&driver).await;
    let v = app
        .create_vehicle(&crate::bodies::vehicle_body(
            crate::helpers::PLATES[0],
            crate::helpers::RENAVAMS[0],
        ))
        .await;
    let grant = |protocol: &str| json!({"driver_id": d, "vehicle_id": v, "fee_paid_on": "2026-11-20", "protocolled_on": protocol});
    let res = app
        .post("/api/v1/app-authorizations", &grant("2026-11-20"))
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let p: Value = res.json().await.unwrap();
    assert_eq!(p["errors"][0]["rule"], "APP-ART12-I", "{p}");
    assert_eq!(p["errors"][0]["field"], "cnh.first_license_date", "{p}");
    let res = app
        .post("/api/v1/app-authorizations", &grant("2026-12-01"))
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let p: Value = res.json().await.unwrap();
    assert_eq!(p["errors"][0]["field"], "protocolled_on", "{p}");
    let a = created(
        app.post("/api/v1/app-authorizations", &grant("2026-11-25"))
            .await,
    )
    .await;
    assert_eq!(a["protocolled_on"], "2026-11-25", "{a}");
    let again: Value = app
        .get_authed(&format!(
            "/api/v1/app-authorizations/{}",
            a["id"].as_str().unwrap()
        ))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(again["protocolled_on"], "2026-11-25", "{again}");
}

/// An act entered wrongly is rectified by a new act with a reason, never by
/// editing. A defence typed with the wrong protocol date (after the period: untimely) is voided
/// and entered again with its true date (timely); only the latest act can be voided, a payment
/// by its guia; the history keeps the wrong act, the rectification and the right one.
#[tokio::test]
async fn a_wrong_act_is_voided_by_a_rectification_and_entered_again() {
    let app = spawn_app().await;
    app.clock.set(noon("2025-03-01"));
    set_upf(&app, 2025, 10_000).await;
    let firm = company(&app, "2026-12-31").await;
    let a = auto(&app, &firm, "FRET-ART19-III", "2025-04-10").await;
    notify(&app, &a, "2025-04-11").await; // defence due 28/04/2025
    let defesa = |on: &str| json!({"act": "defesa", "protocol": "PG-2025/881", "filed_on": on});
    let (status, p) = charter_act(&app, &a, "2025-05-02", &defesa("2025-04-29")).await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["procedure"]["defence_timely"], false);
    let retifica = |voids: &str, reason: &str| json!({"act": "retificacao", "voids": voids, "reason": reason, "rectified_on": "2025-05-02"});
    // The notification is not the latest act: it cannot be voided before the defence.
    let (status, p) = charter_act(&app, &a, "2025-05-02", &retifica("notificacao", "Erro")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{p}");
    // Without a reason: refused.
    let (status, _) = charter_act(&app, &a, "2025-05-02", &retifica("defesa", " ")).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, p) = charter_act(
        &app,
        &a,
        "2025-05-02",
        &retifica(
            "defesa",
            "Data do protocolo digitada errada: o carimbo diz 28/04/2025.",
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert!(p["procedure"]["defence_timely"].is_null(), "{p}");
    let (status, p) = charter_act(&app, &a, "2025-05-02", &defesa("2025-04-28")).await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["procedure"]["defence_timely"], true, "{p}");
    assert_eq!(p["procedure"]["stage"], "defesa_apresentada", "{p}");
    let (_, history) = last_event(
        &app,
        &format!(
            "/api/v1/charter/autos/{}/history",
            a["id"].as_str().unwrap()
        ),
    )
    .await;
    let acts: Vec<&str> = history["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["data"]["act"].as_str())
        .collect();
    assert_eq!(
        acts,
        ["notificacao", "defesa", "retificacao", "defesa"],
        "{history}"
    );
    // A payment entered with the wrong amount is voided by its guia.
    let b = auto(&app, &firm, "FRET-ART19-II", "2025-04-10").await;
    notify(&app, &b, "2025-04-11").await;
    let pay = json!({"act": "pagamento", "guia": "DAM 1", "paid_on": "2025-04-20", "amount_centavos": 4_000_000});
    let (status, p) = charter_act(&app, &b, "2025-04-20", &pay).await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["payment"]["balance_centavos"], 1_000_000);
    let mut wrong_guia = retifica("pagamento", "Valor digitado errado.");
    wrong_guia["guia"] = json!("DAM 2");
    let (status, _) = charter_act(&app, &b, "2025-05-02", &wrong_guia).await;
    assert_eq!(status, StatusCode::CONFLICT);
    wrong_guia["guia"] = json!("DAM 1");
    let (status, p) = charter_act(&app, &b, "2025-05-02", &wrong_guia).await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["payment"]["paid_centavos"], 0, "{p}");
    assert_eq!(p["payment"]["balance_centavos"], 5_000_000, "{p}");
}

/// A Termo's application has a protocol date; the art. 20 bar
/// forbids the application itself, so one protocolled within the bar is refused even when
/// the bar has lifted by the grant; a future protocol date is a 422; the Termo records it.
#[tokio::test]
async fn fret_art20_pu_a_termo_application_is_judged_at_its_protocol_date() {
    use crate::charter::{refused_field, termo};
    let app = spawn_app().await;
    app.clock.set(noon("2025-01-10"));
    let c = company(&app, "2027-12-31").await;
    created(termo(&app, &c).await).await;
    app.clock.set(noon("2025-12-15"));
    let cassacao = json!({"kind": "cassacao", "effective_from": "2025-12-15",
        "article": "art. 20, IV", "reason": "Reincidência no art. 19, VI."});
    created(
        app.post(
            &format!("/api/v1/charter/companies/{c}/sanctions"),
            &cassacao,
        )
        .await,
    )
    .await;
    app.clock.set(noon("2026-12-20"));
    let path = format!("/api/v1/charter/companies/{c}/termos");
    let res = app
        .post(&path, &json!({"protocolled_on": "2026-12-10"}))
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["errors"][0]["rule"], "FRET-ART20-PU", "{body}");
    let res = app
        .post(&path, &json!({"protocolled_on": "2026-12-21"}))
        .await;
    assert_eq!(refused_field(res).await, "protocolled_on");
    let res = app
        .post(&path, &json!({"protocolled_on": "16/12/2026"}))
        .await;
    assert_eq!(refused_field(res).await, "protocolled_on");
    let t = created(
        app.post(&path, &json!({"protocolled_on": "2026-12-16"}))
            .await,
    )
    .await;
    assert_eq!(t["protocolled_on"], "2026-12-16");
    assert_eq!(t["valid_from"], "2026-12-20");
}

/// Two officials record the same fine's payment at once: acts on an auto are committed only
/// if its history is still as it was read, so exactly one of several full payments sent
/// together passes the balance; the others are a 409 (the balance, or "another act at the
/// same time") and nothing is paid twice.
#[tokio::test]
async fn concurrent_payments_of_one_fine_never_overpay_it() {
    let app = spawn_app().await; // 30/11/2026
    set_upf(&app, 2026, 11_972).await;
    let grant = app.granted().await;
    let a = notified_auto(&app, &grant, "2026-11-30T08:00").await;
    let (id, upf) = (
        a["id"].as_str().unwrap(),
        a["fine"]["upf"].as_i64().unwrap(),
    );
    let path = format!("/api/v1/app-infraction-autos/{id}/acts");
    let sends = (0..8).map(|i| {
        let body = json!({"act": "pagamento", "guia": format!("DAM 2026/{i}"),
                          "paid_on": "2026-11-30", "amount_centavos": upf * 11_972});
        let (app, path) = (&app, &path);
        async move { app.post(path, &body).await.status() }
    });
    let statuses = futures_util::future::join_all(sends).await;
    let ok = statuses.iter().filter(|s| s.is_success()).count();
    assert_eq!(ok, 1, "{statuses:?}");
    assert!(
        statuses
            .iter()
            .all(|s| s.is_success() || *s == StatusCode::CONFLICT),
        "{statuses:?}"
    );
    let paid = app
        .get_json(&format!("/api/v1/app-infraction-autos/{id}"))
        .await;
    assert_eq!(paid["payment"]["status"], "paga", "{paid}");
    assert_eq!(
        paid["payment"]["payments"].as_array().unwrap().len(),
        1,
        "{paid}"
    );
}

/// A ride-hailing notification entered wrongly is
/// rectified by a new record with its reason, never edited: the defence period then counts
/// from the right juntada, the history keeps both; not while acts counted from it follow, not
/// with dates the first could not have, not dated in the future.
#[tokio::test]
async fn app_art22_a_wrong_notification_is_rectified_and_the_deadlines_follow() {
    let app = spawn_app().await; // 30/11/2026
    let grant = app.granted().await;
    let a = notified_auto(&app, &grant, "2026-11-30T08:00").await;
    let id = a["id"].as_str().unwrap();
    let before: Value = app
        .get_json(&format!("/api/v1/app-infraction-autos/{id}"))
        .await;
    let path = format!("/api/v1/app-infraction-autos/{id}/notification/rectification");
    let right = |juntada: &str, on: &str| {
        json!({"method": "post", "notified_on": "2026-11-30", "juntada_on": juntada,
               "reason": "A juntada do AR foi digitada com a data errada.", "rectified_on": on})
    };
    app.clock.set(noon("2026-12-03"));
    for (body, field) in [
        (right("2026-12-02", "2026-12-04"), "rectified_on"),
        (right("2026-12-05", "2026-12-03"), "juntada_on"),
        (right("2026-11-29", "2026-12-03"), "juntada_on"),
    ] {
        let res = app.post(&path, &body).await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let problem: Value = res.json().await.unwrap();
        assert_eq!(problem["errors"][0]["field"], field, "{problem}");
    }
    let res = app.post(&path, &right("2026-12-02", "2026-12-03")).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let after: Value = res.json().await.unwrap();
    assert_eq!(after["notification"]["juntada_on"], "2026-12-02", "{after}");
    assert_ne!(
        after["procedure"]["defence_due"], before["procedure"]["defence_due"],
        "the defence period counts from the right juntada: {after}"
    );
    let (last, history) =
        last_event(&app, &format!("/api/v1/app-infraction-autos/{id}/history")).await;
    assert_eq!(last["kind"], "notification_rectified", "{history}");
    let kinds: Vec<&str> = history["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"notified"),
        "the wrong one stays: {kinds:?}"
    );
    // Once a defence counts from it, the defence is rectified first.
    let defence = json!({"act": "defesa", "protocol": "PG-2026/1300", "filed_on": "2026-12-03"});
    let res = app
        .post(&format!("/api/v1/app-infraction-autos/{id}/acts"), &defence)
        .await;
    assert_eq!(
        res.status(),
        StatusCode::OK,
        "{}",
        res.text().await.unwrap()
    );
    let res = app.post(&path, &right("2026-12-01", "2026-12-03")).await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
    // An auto never notified has nothing to rectify.
    let fresh = crate::autos::auto_body(
        grant["driver_id"].as_str().unwrap(),
        "APP-ART26-VI",
        "2026-12-01T10:00",
    );
    let mut fresh = fresh;
    fresh["authorization_id"] = grant["id"].clone();
    let b = created(app.post("/api/v1/app-infraction-autos", &fresh).await).await;
    let res = app
        .post(
            &format!(
                "/api/v1/app-infraction-autos/{}/notification/rectification",
                b["id"].as_str().unwrap()
            ),
            &right("2026-12-02", "2026-12-03"),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
}

/// FRET-ART22 and AMB-03: a charter auto's notification is never dated before the auto was
/// drawn up; no payment is taken while the UPF value that prices the fine is unknown, nor
/// beyond the balance once it is.
#[tokio::test]
async fn fret_art22_no_notification_before_the_auto_and_no_payment_of_an_unknown_fine() {
    let app = spawn_app().await;
    app.clock.set(noon("2025-03-01"));
    let firm = company(&app, "2026-12-31").await;
    // Committed on 10/04, drawn up on 15/04.
    app.clock.set(noon("2025-04-15"));
    let a = created(
        app.post(
            &format!("/api/v1/charter/companies/{firm}/autos"),
            &json!({"infraction": "FRET-ART19-III", "committed_on": "2025-04-10", "place": "Rodovia BR-070", "facts": "Constatado em fiscalização.", "inspector": "Fiscal SIS 12"}),
        )
        .await,
    )
    .await;
    let notify = |on: &str| json!({"act": "notificacao", "method": "contrafe", "notified_on": on});
    let (status, p) = charter_act(&app, &a, "2025-04-16", &notify("2025-04-12")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{p}");
    assert_eq!(p["errors"][0]["field"], "notified_on", "{p}");
    assert!(
        p["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("auto de infração"),
        "{p}"
    );
    let (status, p) = charter_act(&app, &a, "2025-04-16", &notify("2025-04-15")).await;
    assert_eq!(status, StatusCode::OK, "{p}");

    // The UPF value of 2025 is not recorded: the fine's amount is unknown, so is its balance.
    let pay = |centavos: i64| json!({"act": "pagamento", "guia": "DAM 2025/7", "paid_on": "2025-04-20", "amount_centavos": centavos});
    for _ in 0..2 {
        let (status, p) = charter_act(&app, &a, "2025-04-20", &pay(999_999_999_999)).await;
        assert_eq!(status, StatusCode::CONFLICT, "{p}");
        assert_eq!(p["errors"][0]["field"], "amount_centavos", "{p}");
        assert!(
            p["errors"][0]["message"].as_str().unwrap().contains("UPF"),
            "{p}"
        );
    }
    let now = get_auto(&app, &a).await;
    assert_eq!(now["payment"]["paid_centavos"], 0, "{now}");
    assert!(now["payment"]["payments"].as_array().unwrap().is_empty());

    // Once recorded: not beyond the balance, and the exact amount settles it.
    set_upf(&app, 2025, 10_000).await;
    let owed = now["fine"]["upf"].as_i64().unwrap() * 10_000;
    let (status, p) = charter_act(&app, &a, "2025-04-20", &pay(owed + 1)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{p}");
    let (status, p) = charter_act(&app, &a, "2025-04-20", &pay(owed)).await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["payment"]["status"], "paga", "{p}");
    assert_eq!(p["payment"]["paid_centavos"], owed, "{p}");
}
