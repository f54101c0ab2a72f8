use chrono::Duration;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{spawn_app, token_of};

/// A suspended driver's sticker verifies as suspended, with until when.
#[tokio::test]
async fn a_suspended_authorization_verifies_as_suspended_until_reinstated() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let token = token_of(grant["verification_url"].as_str().unwrap());
    let path = format!(
        "/api/v1/app-authorizations/{}/sanctions",
        grant["id"].as_str().unwrap()
    );
    // Art. 26, §1º: 30 days from 01/12/2026 → reinstated on 31/12/2026 (DL-9).
    let body = json!({"kind": "suspension", "effective_from": "2026-12-01", "days": 30,
                      "reason": "Reincidência no art. 26, IV", "legal_basis": "art. 26, §1º"});
    let res = app.post(&path, &body).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let a: Value = res.json().await.unwrap();
    assert_eq!(a["status"], "active", "not yet in effect on 30/11");
    assert_eq!(a["sanctions"][0]["until"], "2026-12-31");

    // Presented for vistoria within the 5 days of art. 9º.
    let res = app.vistoria(&grant, "2026-11-30", true).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    app.clock.advance(Duration::days(1)); // 01/12/2026 12:00 local
    let (status, v) = app.verify(&token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["verdict"], "suspended");
    assert_eq!(v["document"]["status"], "suspended");
    assert_eq!(v["document"]["suspended_until"], "2026-12-31");
    let page = app.get(&format!("/v/{token}")).await.text().await.unwrap();
    assert!(
        page.contains("SUSPENSO") && page.contains("suspensa até 30/12/2026"),
        "{page}"
    );

    app.clock.advance(Duration::days(30)); // 31/12/2026: reinstated
    assert_eq!(app.verify(&token).await.1["verdict"], "valid");
}

#[tokio::test]
async fn a_cassacao_verifies_as_revoked_with_status_cassada() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let path = format!(
        "/api/v1/app-authorizations/{}/sanctions",
        grant["id"].as_str().unwrap()
    );
    let body = json!({"kind": "cassacao", "effective_from": "2026-11-30",
                      "reason": "Reincidência no art. 26, V", "legal_basis": "art. 26, §2º"});
    let a: Value = app.post(&path, &body).await.json().await.unwrap();
    assert_eq!(a["status"], "cassada");
    let (_, v) = app
        .verify(&token_of(grant["verification_url"].as_str().unwrap()))
        .await;
    assert_eq!(v["verdict"], "revoked");
    assert_eq!(v["document"]["status"], "cassada");
}

#[tokio::test]
async fn sanction_requests_are_validated() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let path = format!(
        "/api/v1/app-authorizations/{}/sanctions",
        grant["id"].as_str().unwrap()
    );
    for body in [
        json!({"kind": "suspension", "effective_from": "2026-12-01", "days": 30, "months": 1, "reason": "x", "legal_basis": "art. 26"}),
        json!({"kind": "suspension", "effective_from": "2026-12-01", "reason": "x", "legal_basis": "art. 26"}),
        json!({"kind": "multa", "effective_from": "2026-12-01", "reason": "x", "legal_basis": "art. 26"}),
        json!({"kind": "cassacao", "effective_from": "01/12/2026", "reason": "x", "legal_basis": "art. 26"}),
    ] {
        assert_eq!(
            app.post(&path, &body).await.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}"
        );
    }
    let missing = "/api/v1/app-authorizations/00000000-0000-4000-8000-000000000000/sanctions";
    let body = json!({"kind": "cassacao", "effective_from": "2026-12-01", "reason": "x", "legal_basis": "art. 26"});
    assert_eq!(
        app.post(missing, &body).await.status(),
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn the_infraction_catalogue_lists_fines_in_upf() {
    let app = spawn_app().await;
    let body: Value = app
        .get("/api/v1/app-infractions")
        .await
        .json()
        .await
        .unwrap();
    let items = body["infractions"].as_array().unwrap();
    assert_eq!(items.len(), 7);
    let fine = |id: &str| {
        items.iter().find(|i| i["id"] == id).unwrap()["fine_upf"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(
        (fine("APP-ART26-I"), fine("APP-ART26-IV"), fine("APP-ART27")),
        (115, 570, 950)
    );
}

/// AMB-54: the ride-hailing law sets no bar after cassação, so the driver may be authorized
/// again (with another car, or the same one).
#[tokio::test]
async fn after_cassacao_the_driver_may_apply_again() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let (d, v) = (
        grant["driver_id"].as_str().unwrap(),
        grant["vehicle_id"].as_str().unwrap(),
    );
    assert_eq!(
        app.grant(d, v, "2026-11-20").await.status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let path = format!(
        "/api/v1/app-authorizations/{}/sanctions",
        grant["id"].as_str().unwrap()
    );
    let body = json!({"kind": "cassacao", "effective_from": "2026-11-30", "reason": "x", "legal_basis": "art. 26, §2º"});
    assert_eq!(app.post(&path, &body).await.status(), StatusCode::CREATED);
    assert_eq!(
        app.grant(d, v, "2026-11-20").await.status(),
        StatusCode::CREATED
    );
}

/// Every state change is an append-only event readable at the entity's history.
#[tokio::test]
async fn history_lists_grant_sanction_and_revocation_events() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let id = grant["id"].as_str().unwrap();
    let body = json!({"kind": "suspension", "effective_from": "2026-12-01", "months": 1, "reason": "Agressão", "legal_basis": "art. 26, V"});
    app.post(&format!("/api/v1/app-authorizations/{id}/sanctions"), &body)
        .await;
    app.post(
        &format!("/api/v1/app-authorizations/{id}/revocation"),
        &json!({"reason": "Pedido"}),
    )
    .await;
    let res = app
        .get_authed(&format!("/api/v1/app-authorizations/{id}/history"))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let h: Value = res.json().await.unwrap();
    let kinds: Vec<&str> = h["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["granted", "sanctioned", "revoked"]);
    assert_eq!(
        h["events"][0]["legal_basis_version"],
        "APP-MINUTA-2023-11-23/v1"
    );
    assert_eq!(h["events"][0]["data"]["number"], "APP-2026/000001");
    assert_eq!(h["events"][1]["data"]["until"], "2027-01-01");
    assert_eq!(h["events"][2]["reason"], "Pedido");
    let driver = grant["driver_id"].as_str().unwrap();
    let h: Value = app
        .get_authed(&format!("/api/v1/drivers/{driver}/history"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(h["events"][0]["kind"], "registered");
    // Officials only.
    assert_eq!(
        app.get(&format!("/api/v1/app-authorizations/{id}/history"))
            .await
            .status(),
        StatusCode::UNAUTHORIZED
    );
}

/// APP-ART9 (AMB-38): not presented for vistoria within 5 days of approval → caducada.
#[tokio::test]
async fn app_art9_approval_lapses_without_vistoria_in_five_days() {
    let app = spawn_app().await;
    // Granted Monday 30/11/2026: day 5 is Saturday 05/12 → due Monday 07/12 (DL-5).
    let grant = app.granted().await;
    let token = token_of(grant["verification_url"].as_str().unwrap());
    let id = grant["id"].as_str().unwrap();
    let a: Value = app
        .get_authed(&format!("/api/v1/app-authorizations/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(a["inspection"]["presentation_due"]["due"], "2026-12-07");
    // APP-ART10: no vistoria before the fees were paid (20/11/2026).
    let res = app.vistoria(&grant, "2026-11-19", true).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let p: Value = res.json().await.unwrap();
    assert_eq!(p["errors"][0]["rule"], "APP-ART10");
    app.clock.advance(Duration::days(7)); // 07/12/2026
    assert_eq!(app.verify(&token).await.1["verdict"], "valid");
    app.clock.advance(Duration::days(1)); // 08/12/2026
    let (_, v) = app.verify(&token).await;
    assert_eq!(v["verdict"], "revoked");
    assert_eq!(v["document"]["status"], "caducada");
}

/// APP-ART16-P2 and APP-ART26-II: a failed vistoria not fixed in 15 days → impedida, until
/// an approved vistoria; APP-ART16: the annual vistoria lapses after 12 months.
#[tokio::test]
async fn app_art26_ii_impedida_after_fifteen_days_until_a_new_vistoria() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let token = token_of(grant["verification_url"].as_str().unwrap());
    let id = grant["id"].as_str().unwrap();
    // Failed on 02/12/2026, notified the same day: fix by 17/12/2026 (a Thursday).
    app.clock.advance(Duration::days(2));
    let res = app
        .post(
            &format!("/api/v1/app-authorizations/{id}/vistorias"),
            &json!({"performed_on": "2026-12-02", "approved": false, "inspector": "Fiscal SMF", "notes": "Pneus carecas", "notified_on": "2026-12-02"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let a: Value = res.json().await.unwrap();
    assert_eq!(a["inspection"]["fix_due"]["due"], "2026-12-17");
    app.clock.advance(Duration::days(15)); // 17/12
    assert_eq!(app.verify(&token).await.1["verdict"], "valid");
    app.clock.advance(Duration::days(1)); // 18/12
    let (_, v) = app.verify(&token).await;
    assert_eq!(v["verdict"], "irregular");
    assert_eq!(v["document"]["status"], "impedida");
    let page = app.get(&format!("/v/{token}")).await.text().await.unwrap();
    assert!(
        page.contains("IRREGULAR") && page.contains("impedida de operar"),
        "{page}"
    );
    let res = app.vistoria(&grant, "2026-12-18", true).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(app.verify(&token).await.1["verdict"], "valid");
    // The annual vistoria of 18/12/2026 holds through 18/12/2027 — past the authorization,
    // which expires first (20/11/2027).
    let a: Value = app
        .get_authed(&format!("/api/v1/app-authorizations/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(a["inspection"]["vistoria_valid_until"], "2027-12-18");
}

/// The ride-hailing certidão: status and requirements at issue; `outdated` once a
/// suspension changes them; the driver's CPF never in the public answer.
#[tokio::test]
async fn app_certidao_of_driver_and_vehicle_tells_when_facts_change() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let id = grant["id"].as_str().unwrap();
    assert_eq!(
        app.vistoria(&grant, "2026-11-30", true).await.status(),
        StatusCode::CREATED
    );
    let path = format!("/api/v1/app-authorizations/{id}/certidoes");
    let res = app
        .post(
            &path,
            &json!({"subject": "app_vehicle", "protocol": "PG-2026/9"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let cert: Value = res.json().await.unwrap();
    assert_eq!(cert["facts"]["status"], "active");
    let pdf = app
        .get_authed(cert["pdf"].as_str().unwrap())
        .await
        .bytes()
        .await
        .unwrap()
        .to_vec();
    let text = crate::helpers::pdf_text(&pdf);
    for needle in [
        "CERTIDÃO DE SITUAÇÃO CADASTRAL",
        "BRA2E19",
        "Vistoria anual",
        "30/11/2027",
        "PG-2026/9",
    ] {
        assert!(text.contains(needle), "{needle} missing from:\n{text}");
    }
    let token = token_of(cert["verification_url"].as_str().unwrap());
    let (_, v) = app.verify(&token).await;
    assert_eq!(v["verdict"], "valid", "{v}");
    assert_eq!(v["document"]["facts_hold"], true);
    let res = app
        .post(
            &path,
            &json!({"subject": "app_driver", "protocol": "PG-2026/10"}),
        )
        .await;
    let driver_cert: Value = res.json().await.unwrap();
    let (_, d) = app
        .verify(&token_of(driver_cert["verification_url"].as_str().unwrap()))
        .await;
    assert_eq!(d["document"]["plate"], "Condutor CPF ***.982.247-**");
    assert!(!d.to_string().contains("529.982.247-25"));
    // A suspension from today: what the certidão said no longer holds.
    let res = app
        .post(
            &format!("/api/v1/app-authorizations/{id}/sanctions"),
            &json!({"kind": "suspension", "effective_from": "2026-11-30", "days": 30, "reason": "r", "legal_basis": "art. 26, §1º"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let (_, later) = app.verify(&token).await;
    assert_eq!(later["verdict"], "outdated");
    assert_eq!(later["document"]["status"], "suspended");
}

/// APP-ART16-P1 and APP-ART26-I (AMB-38): an extra-vistoria summons sets a day to attend;
/// missing it is a leve infraction, reported on the authorization, without barring it.
#[tokio::test]
async fn app_art16_p1_extra_vistoria_summons_and_its_deadline() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    app.vistoria(&grant, "2026-11-30", true).await;
    let id = grant["id"].as_str().unwrap();
    let path = format!("/api/v1/app-authorizations/{id}/vistoria-summons");
    app.clock.advance(Duration::days(30));
    // The day to attend cannot precede the notice.
    let res = app
        .post(
            &path,
            &json!({"notified_on": "2026-12-28", "attend_by": "2026-12-20", "reason": "Denúncia"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["errors"][0]["rule"], "APP-ART16-P1", "{body}");
    assert_eq!(body["errors"][0]["field"], "attend_by");

    let res = app
        .post(
            &path,
            &json!({"notified_on": "2026-12-28", "platform_notified_on": "2026-12-28",
                    "attend_by": "2027-01-05", "reason": "Denúncia de pneus lisos"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["inspection"]["summons"]["overdue"], false, "{body}");
    assert_eq!(body["inspection"]["summons"]["attended_on"], Value::Null);

    // Past the day set, not attended: art. 26, I — still active (a fine, not an impedimento).
    app.clock.advance(Duration::days(10));
    let now: Value = app
        .get_json(&format!("/api/v1/app-authorizations/{id}"))
        .await;
    assert_eq!(now["inspection"]["summons"]["overdue"], true, "{now}");
    assert_eq!(now["inspection"]["summons"]["infraction"], "APP-ART26-I");
    assert_eq!(now["status"], "active");
    // Attending late records the vistoria; the infraction stands.
    let later: Value = app
        .vistoria(&grant, "2027-01-09", true)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(later["inspection"]["summons"]["attended_on"], "2027-01-09");
    assert_eq!(later["inspection"]["summons"]["overdue"], true);
}

/// Invariant 4: a ride-hailing certidão records the ride-hailing legal basis it was issued
/// under, not the charter law's.
#[tokio::test]
async fn app_certidao_records_the_ride_hailing_legal_basis() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let id = grant["id"].as_str().unwrap();
    let res = app
        .post(
            &format!("/api/v1/app-authorizations/{id}/certidoes"),
            &json!({"subject": "app_vehicle", "protocol": "PG-2026/9"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let cert: Value = res.json().await.unwrap();
    let store = selo::storage::Store::connect(&app.database_url)
        .await
        .unwrap();
    let doc = store
        .document(cert["id"].as_str().unwrap().parse().unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(doc.legal_basis_version, "APP-MINUTA-2023-11-23/v1");
}
