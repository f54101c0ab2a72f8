//! The yearly renewal of a ride-hailing authorization (APP-ART3-PU, reading AMB-66): a new
//! authorization with its own number and documents that names the one it renews, judged on
//! every requirement of a grant; the year before's sticker verifies until its own last day.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, at, failures, pdf_text, qr_codes, spawn_app, sticker_url, token_of};

async fn renew(app: &TestApp, a: &Value, body: &Value) -> (StatusCode, Value) {
    let res = app
        .post(
            &format!(
                "/api/v1/app-authorizations/{}/renewal",
                a["id"].as_str().unwrap()
            ),
            body,
        )
        .await;
    (res.status(), res.json().await.unwrap())
}

#[tokio::test]
async fn amb_66_a_renewal_a_year_later_issues_the_next_years_documents_and_the_old_sticker_expires()
{
    let app = spawn_app().await;
    // Granted on 30/11/2026 with the fee of 20/11/2026: valid until 20/11/2027.
    let grant = app.granted().await;
    assert_eq!(grant["valid_until"], "2027-11-20");
    assert_eq!(
        app.vistoria(&grant, "2026-11-30", true).await.status(),
        StatusCode::CREATED
    );

    // Too early: the renewal opens 60 days before the end, and nothing is written.
    app.clock.set(at("2027-09-01T15:00:00Z"));
    let (status, body) = renew(&app, &grant, &json!({"fee_paid_on": "2027-09-01"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(body.to_string().contains("21/09/2027"), "{body}");
    assert_eq!(
        failures(&body),
        vec![("APP-ART3-PU".into(), "authorization".into())]
    );

    // In the window, paid on 10/10/2027: the next year starts the day after this one ends.
    app.clock.set(at("2027-10-15T15:00:00Z"));
    let (status, renewed) = renew(&app, &grant, &json!({"fee_paid_on": "2027-10-10"})).await;
    assert_eq!(status, StatusCode::CREATED, "{renewed}");
    assert_eq!(renewed["renewal_of"], grant["id"]);
    assert_ne!(renewed["id"], grant["id"]);
    assert!(
        renewed["number"].as_str().unwrap().starts_with("APP-2027/"),
        "{renewed}"
    );
    assert_eq!(renewed["driver_id"], grant["driver_id"]);
    assert_eq!(renewed["vehicle_id"], grant["vehicle_id"]);
    assert_eq!(renewed["valid_from"], "2027-11-21");
    assert_eq!(renewed["valid_until"], "2028-11-21");
    assert_eq!(renewed["documents"].as_array().unwrap().len(), 2);
    let new_sticker = sticker_url(&renewed);
    let old_sticker = sticker_url(&grant);
    assert_ne!(new_sticker, old_sticker);
    let pdf = app.document_bytes(&renewed, "app_sticker").await;
    let text = pdf_text(&pdf);
    assert!(text.contains("21/11/2028"), "{text}");
    assert_eq!(qr_codes(&pdf), std::slice::from_ref(&new_sticker));

    // Renewed once only; the old authorization's history says by which.
    let (status, body) = renew(&app, &grant, &json!({"fee_paid_on": "2027-10-10"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body.to_string().contains(&format!(
            "já foi renovada pela {}",
            renewed["number"].as_str().unwrap()
        )),
        "{body}"
    );
    let kinds = app
        .event_kinds(&format!(
            "/api/v1/app-authorizations/{}/history",
            grant["id"].as_str().unwrap()
        ))
        .await;
    assert!(kinds.contains(&"renewed".to_owned()), "{kinds:?}");

    // The renewal's vistoria (art. 9º), as for any approval.
    app.clock.set(at("2027-10-16T15:00:00Z"));
    assert_eq!(
        app.vistoria(&renewed, "2027-10-16", true).await.status(),
        StatusCode::CREATED
    );

    // On the old year's last day both stickers verify; the day after, the old one is expired
    // and its page says so, while the new one is in force.
    app.clock.set(at("2027-11-20T15:00:00Z"));
    let (_, old) = app.verify(&token_of(&old_sticker)).await;
    assert_eq!(old["verdict"], "valid", "{old}");
    let (_, new) = app.verify(&token_of(&new_sticker)).await;
    assert_eq!(new["verdict"], "valid", "{new}");
    app.clock.set(at("2027-11-21T15:00:00Z"));
    let (_, old) = app.verify(&token_of(&old_sticker)).await;
    assert_eq!(old["verdict"], "expired", "{old}");
    let (_, new) = app.verify(&token_of(&new_sticker)).await;
    assert_eq!(new["verdict"], "valid", "{new}");
    let page = app
        .get(&format!("/v/{}", token_of(&old_sticker)))
        .await
        .text()
        .await
        .unwrap();
    assert!(page.contains("VENCIDO"), "{page}");
}

#[tokio::test]
async fn amb_66_a_revoked_authorization_is_not_renewed_and_a_late_one_runs_from_its_payment() {
    let app = spawn_app().await;
    let revoked = app.granted_to(1).await;
    let res = app
        .post(
            &format!(
                "/api/v1/app-authorizations/{}/revocation",
                revoked["id"].as_str().unwrap()
            ),
            &json!({"reason": "Cassação por fraude"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let late = app.granted_to(0).await;
    assert_eq!(
        app.vistoria(&late, "2026-11-30", true).await.status(),
        StatusCode::CREATED
    );

    app.clock.set(at("2027-10-15T15:00:00Z"));
    let (status, body) = renew(&app, &revoked, &json!({"fee_paid_on": "2027-10-10"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(body.to_string().contains("revogada"), "{body}");

    // Expired on 20/11/2027, renewed on 05/12 with the fee of 01/12: from the payment on, and
    // the days between are not covered.
    app.clock.set(at("2027-12-05T15:00:00Z"));
    let (status, renewed) = renew(
        &app,
        &late,
        &json!({"fee_paid_on": "2027-12-01", "protocolled_on": "2027-12-02"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{renewed}");
    assert_eq!(renewed["valid_from"], "2027-12-01");
    assert_eq!(renewed["valid_until"], "2028-12-01");
    assert_eq!(renewed["protocolled_on"], "2027-12-02");
    // An unknown authorization is 404.
    let res = app
        .post(
            "/api/v1/app-authorizations/00000000-0000-4000-8000-000000000000/renewal",
            &json!({"fee_paid_on": "2027-12-01"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}
