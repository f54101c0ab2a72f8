use chrono::Duration;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::spawn_app;

pub(crate) fn auto_body(driver: &str, infraction: &str, committed_at: &str) -> Value {
    json!({"infraction_id": infraction, "driver_id": driver, "committed_at": committed_at,
           "place": "Av. Ministro João Alberto, em frente à rodoviária", "facts": "Embarcou passageiro na via pública sem intermediação da plataforma.",
           "inspector": "Fiscal de Posturas, matrícula 1234"})
}

/// Records the notification of ride-hailing auto `id` and its juntada; answers the auto.
async fn notify(
    app: &crate::helpers::TestApp,
    id: &str,
    notified_on: &str,
    juntada_on: &str,
) -> Value {
    let n = json!({"method": "post", "notified_on": notified_on, "juntada_on": juntada_on});
    let res = app
        .post(
            &format!("/api/v1/app-infraction-autos/{id}/notification"),
            &n,
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    res.json().await.unwrap()
}

/// APP-ART25 with the UPF table (AMB-03), APP-ART26-P1 recidivism, APP-ART22 deadlines.
#[tokio::test]
async fn autos_compute_fines_recidivism_and_procedure_deadlines() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let driver = grant["driver_id"].as_str().unwrap();

    // Without the year's UPF value the R$ amount is unknown, never guessed.
    let res = app
        .post(
            "/api/v1/app-infraction-autos",
            &auto_body(driver, "APP-ART26-IV", "2026-11-30T09:00:00-04:00"),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let first: Value = res.json().await.unwrap();
    assert_eq!(first["number"], "AI-APP-2026/000001");
    assert_eq!(first["fine"]["upf"], 570);
    assert!(first["fine"]["centavos"].is_null());
    assert_eq!(first["proposed_consequences"].as_array().unwrap().len(), 1);

    let res = app
        .client
        .put(app.url("/api/v1/upf-values/2026"))
        .bearer_auth(crate::helpers::ADMIN_TOKEN)
        .json(&json!({"centavos": 10_050, "act": "Decreto nº 1/2026"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);

    // Repeating art. 26 IV within 12 months: fine in R$ and a proposed 30-day suspension.
    app.clock.advance(Duration::days(10));
    let second: Value = app
        .post(
            "/api/v1/app-infraction-autos",
            &auto_body(driver, "APP-ART26-IV", "2026-12-09T20:00:00-04:00"),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(second["number"], "AI-APP-2026/000002");
    assert_eq!(second["fine"]["centavos"], 5_728_500);
    assert_eq!(second["fine"]["value"], "R$\u{a0}57.285,00");
    assert_eq!(
        second["fine"]["value_in_words"],
        "cinquenta e sete mil duzentos e oitenta e cinco reais"
    );
    let proposed = &second["proposed_consequences"][1];
    assert_eq!(
        (proposed["kind"].as_str(), proposed["days"].as_i64()),
        (Some("suspension"), Some(30))
    );
    assert_eq!(proposed["article"], "art. 26, §1º");

    // Notification: defence 15 days from the juntada, payment 30 days after it.
    let id = second["id"].as_str().unwrap();
    // The AR is filed on 15/12 and entered that day (never a future date).
    app.clock.set(crate::charter::noon("2026-12-15"));
    let notified = notify(&app, id, "2026-12-14", "2026-12-15").await;
    assert_eq!(notified["deadlines"]["dispatched_in_time"], true);
    // 15/12/2026 + 15 = 30/12/2026 (Wednesday, no recess decreed for 2026 yet).
    assert_eq!(notified["deadlines"]["defence_due"]["due"], "2026-12-30");
    assert!(notified["deadlines"].get("recommendation").is_none());
    assert_eq!(
        app.post(
            &format!("/api/v1/app-infraction-autos/{id}/notification"),
            &json!({"method": "post", "notified_on": "2026-12-14", "juntada_on": "2026-12-15"})
        )
        .await
        .status(),
        StatusCode::CONFLICT
    );

    let kinds = app
        .event_kinds(&format!("/api/v1/app-infraction-autos/{id}/history"))
        .await;
    assert_eq!(kinds, ["drawn_up", "notified"]);
}

/// APP-ART22-P1: a notice sent more than 90 days after the auto is late; archive it.
#[tokio::test]
async fn a_late_notice_recommends_archiving() {
    let app = spawn_app().await;
    let driver = app
        .create_driver(&crate::helpers::driver_body(
            crate::helpers::CPFS[0],
            crate::helpers::CNHS[0],
        ))
        .await;
    let a: Value = app
        .post(
            "/api/v1/app-infraction-autos",
            &auto_body(&driver, "APP-ART27", "2026-11-30T08:00:00-04:00"),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(a["fine"]["upf"], 950);
    let id = a["id"].as_str().unwrap();
    let n = json!({"method": "edital", "notified_on": "2027-03-15", "juntada_on": "2027-03-16"});
    app.clock.set(crate::charter::noon("2027-03-16"));
    let late: Value = app
        .post(
            &format!("/api/v1/app-infraction-autos/{id}/notification"),
            &n,
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(late["deadlines"]["dispatched_in_time"], false);
    assert!(
        late["deadlines"]["recommendation"]
            .as_str()
            .unwrap()
            .contains("arquivamento")
    );
}

#[tokio::test]
async fn auto_inputs_are_validated() {
    let app = spawn_app().await;
    let driver = app
        .create_driver(&crate::helpers::driver_body(
            crate::helpers::CPFS[0],
            crate::helpers::CNHS[0],
        ))
        .await;
    for body in [
        auto_body(&driver, "APP-ART99", "2026-11-30T08:00:00-04:00"),
        auto_body(&driver, "APP-ART26-I", "30/11/2026 08:00"),
        auto_body(&driver, "APP-ART26-I", "2026-12-30T08:00:00-04:00"),
        auto_body(
            "00000000-0000-4000-8000-000000000000",
            "APP-ART26-I",
            "2026-11-30T08:00:00-04:00",
        ),
    ] {
        assert_eq!(
            app.post("/api/v1/app-infraction-autos", &body)
                .await
                .status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}"
        );
    }
    let res = app
        .client
        .post(app.url("/api/v1/app-infraction-autos"))
        .json(&auto_body(
            &driver,
            "APP-ART26-I",
            "2026-11-30T08:00:00-04:00",
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
}

/// AMB-29 and AMB-34: the procedure of a ride-hailing auto (defence, decision, reconsideration)
/// and annulment recalculating the recidivism of the driver's later auto; the signed
/// Notificação de Penalidade in two copies, verifiable, and revoked once annulled.
#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one scenario, step by step")]
async fn annulment_recalculates_recidivism_and_the_notice_is_signed_and_verifiable() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let driver = grant["driver_id"].as_str().unwrap();
    let post_auto = |at: &'static str| {
        let app = &app;
        let mut body = auto_body(driver, "APP-ART26-IV", at);
        body["authorization_id"] = grant["id"].clone();
        async move {
            let res = app.post("/api/v1/app-infraction-autos", &body).await;
            assert_eq!(res.status(), StatusCode::CREATED);
            res.json::<Value>().await.unwrap()
        }
    };
    let first = post_auto("2026-11-30T09:00:00-04:00").await;
    app.clock.advance(Duration::days(2));
    let second = post_auto("2026-12-01T20:00:00-04:00").await;
    assert_eq!(second["current_consequences"][1]["kind"], "suspension");
    let notify = |id: String| {
        let app = &app;
        async move {
            let n =
                json!({"method": "post", "notified_on": "2026-12-02", "juntada_on": "2026-12-02"});
            let res = app
                .post(
                    &format!("/api/v1/app-infraction-autos/{id}/notification"),
                    &n,
                )
                .await;
            assert_eq!(res.status(), StatusCode::CREATED);
        }
    };
    let (id1, id2) = (
        first["id"].as_str().unwrap().to_owned(),
        second["id"].as_str().unwrap().to_owned(),
    );
    // The notice needs the notification first (deadlines count from the juntada).
    let res = app
        .post(
            &format!("/api/v1/app-infraction-autos/{id2}/notice"),
            &json!({}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    notify(id1.clone()).await;
    notify(id2.clone()).await;
    let res = app
        .post(
            &format!("/api/v1/app-infraction-autos/{id2}/notice"),
            &json!({}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let doc: Value = res.json().await.unwrap();
    let pdf = app
        .get_authed(doc["pdf"].as_str().unwrap())
        .await
        .bytes()
        .await
        .unwrap()
        .to_vec();
    assert!(crate::helpers::pdf_info(&pdf).contains("Pages:           2"));
    let text = crate::helpers::pdf_text(&pdf);
    for needle in [
        "2ª VIA — AUTUADO",
        "art. 26, IV (grave)",
        "570 UPFG",
        "***.982.247-**",
        "BRA2E19",
        // Juntada 02/12/2026 + 15 = 17/12/2026.
        "17/12/2026",
        "plataforma",
    ] {
        assert!(text.contains(needle), "{needle} missing from:\n{text}");
    }
    assert!(!text.contains("529.982.247-25"), "CPF printed in full");
    let token = crate::helpers::token_of(doc["verification_url"].as_str().unwrap());
    assert_eq!(app.verify(&token).await.1["verdict"], "valid");

    // Defence, then the first auto's penalty is annulled: the second is no longer a repeat.
    let act = |id: &str, body: Value| {
        let app = &app;
        let path = format!("/api/v1/app-infraction-autos/{id}/acts");
        async move { app.post(&path, &body).await }
    };
    let res = act(
        &id1,
        json!({"act": "decisao_prefeito", "outcome": "anulado", "decided_on": "2026-12-02"}),
    )
    .await;
    assert_eq!(res.status(), StatusCode::CONFLICT, "out of order");
    let res = act(
        &id1,
        json!({"act": "defesa", "protocol": "PG-1", "filed_on": "2026-12-02"}),
    )
    .await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = act(&id1, json!({"act": "decisao", "outcome": "anulado", "decided_on": "2026-12-02", "notified_on": "2026-12-02"})).await;
    assert_eq!(res.status(), StatusCode::OK);
    let annulled: Value = res.json().await.unwrap();
    assert_eq!(annulled["annulled"], true);
    assert!(annulled["current_consequences"].is_null());
    let now: Value = app
        .get_authed(&format!("/api/v1/app-infraction-autos/{id2}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        now["current_consequences"].as_array().unwrap().len(),
        1,
        "{now}"
    );
    // The second auto annulled on reconsideration: its notice verifies as revoked.
    act(&id2, json!({"act": "decisao", "outcome": "mantido", "decided_on": "2026-12-02", "notified_on": "2026-12-02"})).await;
    let res = act(
        &id2,
        json!({"act": "reconsideracao", "protocol": "PG-2", "filed_on": "2026-12-02"}),
    )
    .await;
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["procedure"]["routed_to"], "GABINETE_DO_PREFEITO");
    act(
        &id2,
        json!({"act": "decisao_prefeito", "outcome": "anulado", "decided_on": "2026-12-02"}),
    )
    .await;
    let (_, v) = app.verify(&token).await;
    assert_eq!(v["verdict"], "revoked");
    assert_eq!(v["document"]["status"], "anulado");
}

/// An auto records when the inspector drew it up (never in the future, never
/// before the infraction), and its notice states the date and time of the infraction, the
/// UPF value with the decree that set it, the defence and payment instructions, and the
/// profile version it was issued under.
#[tokio::test]
async fn an_auto_is_dated_when_drawn_up_and_its_notice_states_what_a_defence_needs() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let driver = grant["driver_id"].as_str().unwrap();
    let with = |committed: &str, drawn: &str| {
        let mut body = auto_body(driver, "APP-ART26-IV", committed);
        body["authorization_id"] = grant["id"].clone();
        body["drawn_up_at"] = json!(drawn);
        body
    };
    // The clock stands at 30/11/2026, 12:00 in Cuiabá.
    for (body, field) in [
        (with("2026-11-28T09:10", "2026-12-01T09:30"), "drawn_up_at"),
        (with("2026-11-28T09:40", "2026-11-28T09:30"), "committed_at"),
        (with("2026-11-28T09:10", "28/11/2026 09:30"), "drawn_up_at"),
    ] {
        let res = app.post("/api/v1/app-infraction-autos", &body).await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        let p: Value = res.json().await.unwrap();
        assert_eq!(p["errors"][0]["field"], field, "{p}");
    }
    let res = app
        .client
        .put(app.url("/api/v1/upf-values/2026"))
        .bearer_auth(crate::helpers::ADMIN_TOKEN)
        .json(&json!({"centavos": 10_050, "act": "Decreto nº 17/2026"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let res = app
        .post(
            "/api/v1/app-infraction-autos",
            &with("2026-11-28T09:10", "2026-11-28T09:30"),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let auto: Value = res.json().await.unwrap();
    assert_eq!(auto["drawn_up_at"], "2026-11-28T13:30:00Z");
    let id = auto["id"].as_str().unwrap();
    notify(&app, id, "2026-11-29", "2026-11-30").await;
    let res = app
        .post(
            &format!("/api/v1/app-infraction-autos/{id}/notice"),
            &json!({}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let doc: Value = res.json().await.unwrap();
    assert_eq!(doc["profile_version"], "BDG-PERFIL-2026-12/1");
    let text = app.issued_pdf_text(&doc).await;
    for needle in [
        "28/11/2026, às 09h10",
        "Lavrado em 28/11/2026 às 09:30",
        "R$ 100,50 por UPFG",
        "conforme Decreto nº 17/2026",
        "art. 25, III",
        "Documento de Arrecadação Municipal (DAM)",
        "dívida ativa",
        "Juntada do comprovante de notificação aos autos em 30/11/2026",
        "[A DEFINIR: e-mail para protocolo de defesas]",
    ] {
        assert!(text.contains(needle), "{needle} missing from:\n{text}");
    }
    assert!(!text.contains("analogia"), "{text}");
    assert!(!text.contains(") ("), "{text}");
}

/// APP-ART27 (AMB-36) and APP-ART26 (AMB-37): illegal transport is service
/// without a valid authorization, so an art. 27 auto against a driver whose authorization was
/// in force when the infraction was committed is refused with the rule and article; the
/// duties of art. 26 are an authorized driver's, so an art. 26 auto against a driver who held
/// none is refused the other way round.
#[tokio::test]
async fn app_art27_only_without_a_valid_authorization_and_art26_only_with_one() {
    let app = spawn_app().await;
    let grant = app.granted().await; // valid from 20/11/2026
    let authorized = grant["driver_id"].as_str().unwrap();
    let unauthorized = app
        .create_driver(&crate::helpers::driver_body(
            crate::helpers::CPFS[1],
            crate::helpers::CNHS[1],
        ))
        .await;
    let post = |driver: &str, infraction: &str, at: &str| {
        let body = auto_body(driver, infraction, at);
        let app = &app;
        async move {
            let res = app.post("/api/v1/app-infraction-autos", &body).await;
            let status = res.status();
            (status, res.json::<Value>().await.unwrap())
        }
    };
    let (status, p) = post(authorized, "APP-ART27", "2026-11-30T08:00").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{p}");
    assert_eq!(p["errors"][0]["rule"], "APP-ART27", "{p}");
    assert_eq!(p["errors"][0]["article"], "art. 27", "{p}");
    let (status, p) = post(&unauthorized, "APP-ART26-IV", "2026-11-30T08:00").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{p}");
    assert_eq!(p["errors"][0]["rule"], "APP-ART26-IV", "{p}");
    // Before the authorization began, the authorized driver had none: art. 27 applies.
    let (status, p) = post(authorized, "APP-ART27", "2026-11-10T08:00").await;
    assert_eq!(status, StatusCode::CREATED, "{p}");
    let (status, p) = post(&unauthorized, "APP-ART27", "2026-11-30T08:00").await;
    assert_eq!(status, StatusCode::CREATED, "{p}");
    let (status, p) = post(authorized, "APP-ART26-VI", "2026-11-30T08:00").await;
    assert_eq!(status, StatusCode::CREATED, "{p}");
}
