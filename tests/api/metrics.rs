//! `GET /metrics`: the operator's token only; after a grant and a verification the scrape
//! counts them, by route pattern (never a path with an identifier), verdict and kind.

use reqwest::StatusCode;

use crate::helpers::{spawn_app_tuned, token_of};

const OPERATOR: &str = "operador-de-metricas-0123456789";

#[tokio::test]
async fn a_scrape_counts_a_grant_and_a_verification_for_the_operator_only() {
    let app = spawn_app_tuned(|s| s.metrics_token = Some(OPERATOR.into())).await;
    let grant = app.granted().await;
    let token = token_of(grant["verification_url"].as_str().unwrap());
    let (status, v) = app.verify(&token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["verdict"], "valid");

    // The status list built once: its age is read at the scrape.
    assert_eq!(
        app.get("/api/v1/status-list").await.status(),
        StatusCode::OK
    );
    app.clock.advance(chrono::Duration::seconds(90));

    let scrape = |bearer: Option<&'static str>| {
        let mut req = app.client.get(app.url("/metrics"));
        if let Some(b) = bearer {
            req = req.bearer_auth(b);
        }
        req.send()
    };
    assert_eq!(
        scrape(None).await.unwrap().status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        scrape(Some("outro-token")).await.unwrap().status(),
        StatusCode::UNAUTHORIZED
    );
    let res = scrape(Some(OPERATOR)).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/openmetrics-text")
    );
    let text = res.text().await.unwrap();
    for line in [
        r#"selo_http_requests_total{route="/api/v1/app-authorizations",method="POST",status="201"} 1"#,
        r#"selo_http_requests_total{route="/api/v1/verify/{token}",method="GET",status="200"} 1"#,
        r#"selo_verifications_total{by="token",verdict="valid"} 1"#,
        r#"selo_documents_signed_total{kind="app_authorization"} 1"#,
        r#"selo_documents_signed_total{kind="app_sticker"} 1"#,
        "selo_document_render_sign_seconds_count 2",
        "selo_outbox_queued_messages 0",
        "selo_status_list_age_seconds 90",
    ] {
        assert!(text.contains(line), "{line} in\n{text}");
    }
    assert!(text.contains("selo_db_pool_connections "), "{text}");
    assert!(
        text.contains(
            r#"selo_http_request_duration_seconds_count{route="/api/v1/verify/{token}"} 1"#
        ),
        "{text}"
    );
    // No token, CPF or plate in any label.
    assert!(!text.contains(&token));
    assert!(!text.contains("BRA2E19"));
    assert!(!text.contains("52998224725"));
}

#[tokio::test]
async fn without_an_operator_token_the_metrics_are_not_served() {
    let app = crate::helpers::spawn_app().await;
    let res = app.client.get(app.url("/metrics")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}
