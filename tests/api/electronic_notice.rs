//! An auto notified electronically (art. 22, §1º): sent only to applicants who follow the
//! driver, opened by them at `/servicos` with the instant recorded as proof of delivery, and
//! the signed Notificação de Penalidade reachable there once the notification is recorded.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::autos::auto_body;
use crate::helpers::{CPFS, spawn_app};
use crate::panel::field;
use crate::services::signed_in;

#[tokio::test]
#[expect(
    clippy::too_many_lines,
    reason = "one auto from its drawing up to the notice downloaded by the driver"
)]
async fn app_art22_p1_an_auto_is_notified_electronically_to_the_driver_who_follows_it() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let driver = grant["driver_id"].as_str().unwrap();
    let mut body = auto_body(driver, "APP-ART26-IV", "2026-11-30T09:00:00-04:00");
    body["authorization_id"] = grant["id"].clone();
    let res = app.post("/api/v1/app-infraction-autos", &body).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let auto: Value = res.json().await.unwrap();
    let id = auto["id"].as_str().unwrap();
    let number = auto["number"].as_str().unwrap();
    let path = format!("/api/v1/app-infraction-autos/{id}/electronic-notice");

    // Nobody follows the driver: nothing to send, and the answer says how to notify instead.
    let res = app.post(&path, &json!({})).await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
    let p: Value = res.json().await.unwrap();
    assert!(p["detail"].as_str().unwrap().contains("via postal"), "{p}");

    let email = "joao.motorista@exemplo.com.br";
    let mut b = signed_in(&app, email).await;
    let (_, page, _) = b.get("/servicos/acompanhar").await;
    let csrf = field(&page, "_csrf").unwrap();
    let number_a = grant["number"].as_str().unwrap();
    let (status, _, _) = b
        .post(
            "/servicos/acompanhar",
            &[
                ("_csrf", &csrf),
                ("tipo", "motorista"),
                ("numero", number_a),
                ("documento", CPFS[0]),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let stranger = "curioso@exemplo.com.br";
    let mut other = signed_in(&app, stranger).await;

    let res = app.post(&path, &json!({})).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let sent: Value = res.json().await.unwrap();
    assert_eq!(sent["copies"].as_array().unwrap().len(), 1, "{sent}");
    assert!(sent["copies"][0]["read_at"].is_null());
    // Once per auto.
    assert_eq!(
        app.post(&path, &json!({})).await.status(),
        StatusCode::CONFLICT
    );

    let mail = app.smtp.wait_for(email, 2).await;
    let m = &mail[1];
    assert_eq!(
        m.subject(),
        format!("Notificação: auto de infração {number}")
    );
    let text = m.body();
    assert!(
        text.contains("art. 22, §1º") && text.contains("/servicos/notificacoes"),
        "{text}"
    );
    assert!(!text.contains("529.982"), "no CPF in the e-mail");
    assert!(
        app.smtp
            .inbox()
            .iter()
            .all(|m| !m.to.iter().any(|t| t == stranger) || !m.subject().contains("auto")),
        "only the follower is written to"
    );

    // The applicant's start page says there is one unopened; the list links it.
    let (_, page, _) = b.get("/servicos/inicio").await;
    assert!(
        page.contains("1 notificação(ões) de auto de infração ainda não aberta(s)"),
        "{page}"
    );
    let (_, page, _) = b.get("/servicos/notificacoes").await;
    assert!(
        page.contains(&format!("Auto de infração {number}")) && page.contains("ainda não aberta"),
        "{page}"
    );
    let link = page
        .split("href=\"/servicos/notificacoes/")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap()
        .to_owned();
    // Another applicant does not reach it, and opening nothing records nothing.
    let (status, _, _) = other.get(&format!("/servicos/notificacoes/{link}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(app.get_json(&path).await["copies"][0]["read_at"].is_null());

    let (status, page, _) = b.get(&format!("/servicos/notificacoes/{link}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Av. Ministro João Alberto"), "{page}");
    assert!(
        page.contains("A Notificação de Penalidade ainda não foi emitida"),
        "{page}"
    );
    let read = app.get_json(&path).await;
    let read_at = read["copies"][0]["read_at"].as_str().unwrap().to_owned();
    assert_eq!(read_at, "2026-11-30T16:00:00Z");
    let history = app
        .event_kinds(&format!("/api/v1/app-infraction-autos/{id}/history"))
        .await;
    assert!(
        history.iter().any(|k| k == "electronic_notice_sent"),
        "{history:?}"
    );
    assert!(
        history.iter().any(|k| k == "electronic_notice_opened"),
        "{history:?}"
    );
    // Opening it again keeps the first instant.
    app.clock.advance(chrono::Duration::minutes(20));
    b.get(&format!("/servicos/notificacoes/{link}")).await;
    assert_eq!(
        app.get_json(&path).await["copies"][0]["read_at"],
        read_at.as_str()
    );

    // The official records the notification from that proof; the signed notice follows and
    // is on the applicant's page.
    let n =
        json!({"method": "electronic", "notified_on": "2026-11-30", "juntada_on": "2026-11-30"});
    let res = app
        .post(
            &format!("/api/v1/app-infraction-autos/{id}/notification"),
            &n,
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(
        app.post(&path, &json!({})).await.status(),
        StatusCode::CONFLICT
    );
    let res = app
        .post(
            &format!("/api/v1/app-infraction-autos/{id}/notice"),
            &json!({}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let doc: Value = res.json().await.unwrap();
    let (_, page, _) = b.get(&format!("/servicos/notificacoes/{link}")).await;
    let download = format!(
        "/servicos/notificacoes/{link}/documentos/{}",
        doc["id"].as_str().unwrap()
    );
    assert!(page.contains(&download), "{page}");
    let res = b
        .client
        .get(app.url(&download))
        .header("cookie", b.cookie_header())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let pdf = res.bytes().await.unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    let official = app
        .get_authed(doc["pdf"].as_str().unwrap())
        .await
        .bytes()
        .await
        .unwrap();
    assert_eq!(pdf, official, "the same signed notice");
    let (status, _, _) = other.get(&download).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
