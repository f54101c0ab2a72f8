//! What one anonymous client may hold of the service.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::helpers::spawn_app_with_limits;

/// A client that declares a 5 MB PDF and stalls holds its verification slot only until the
/// upload deadline (then 408); while the slots are taken, another upload is refused at once
/// with 429, `Retry-After` and a problem body, and a token still verifies.
#[tokio::test]
async fn a_stalled_upload_holds_its_slot_only_until_the_deadline_and_others_get_429() {
    let app = spawn_app_with_limits(selo::settings::Limits {
        pdf_verify_slots: 1,
        upload_deadline: Duration::from_secs(1),
        ..selo::settings::Limits::default()
    })
    .await;
    let addr = app.address.trim_start_matches("http://").to_owned();
    let mut stalled = tokio::net::TcpStream::connect(&addr).await.unwrap();
    stalled
        .write_all(
            b"POST /api/v1/verify/pdf HTTP/1.1\r\nHost: selo\r\nContent-Type: application/pdf\r\n\
              Content-Length: 5000000\r\n\r\n%PDF-1.7\n",
        )
        .await
        .unwrap();
    let started = Instant::now();
    tokio::time::sleep(Duration::from_millis(200)).await;

    let url = app.url("/api/v1/verify/pdf");
    let res = app
        .client
        .post(&url)
        .header("Content-Type", "application/pdf")
        .body(b"%PDF-1.7\nnot really".to_vec())
        .send()
        .await
        .unwrap();
    let res = crate::contract::checked("post", "/api/v1/verify/pdf", res).await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(res.headers().get("retry-after").is_some());
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["type"], "/problems/too-many-requests");

    // The token endpoint is not held up by uploads.
    let t = Instant::now();
    let (status, _) = app.verify("not-a-token").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(t.elapsed() < Duration::from_millis(500));

    // The stalled upload is answered 408 once the deadline passes, and its slot is free.
    let mut answer = vec![0u8; 64];
    let n = tokio::time::timeout(Duration::from_secs(5), stalled.read(&mut answer))
        .await
        .expect("the stalled upload is answered")
        .unwrap();
    let head = String::from_utf8_lossy(&answer[..n]);
    assert!(head.starts_with("HTTP/1.1 408"), "{head}");
    assert!(started.elapsed() >= Duration::from_millis(900));
    let res = app
        .client
        .post(&url)
        .header("Content-Type", "application/pdf")
        .body(b"%PDF-1.7\nnot really".to_vec())
        .send()
        .await
        .unwrap();
    assert_ne!(res.status(), StatusCode::TOO_MANY_REQUESTS);
}

/// The state and void reason of a number, read from the database itself.
async fn number_state(url: &str, number: &str) -> (String, Option<String>) {
    const Q: &str = "SELECT state, void_reason FROM document_numbers WHERE number = $1";
    if url.starts_with("postgres") {
        let pool = sqlx::PgPool::connect(url).await.unwrap();
        sqlx::query_as(Q)
            .bind(number)
            .fetch_one(&pool)
            .await
            .unwrap()
    } else {
        let pool = sqlx::SqlitePool::connect(url).await.unwrap();
        sqlx::query_as(Q)
            .bind(number)
            .fetch_one(&pool)
            .await
            .unwrap()
    }
}

/// A number reserved by an issuance that never committed (the process killed
/// between reservation and commit) does not stay `reserved` for ever: the sweep at start (and
/// every minute) voids it as "emissão interrompida"; a reservation in flight is left alone.
#[tokio::test]
async fn a_number_left_reserved_by_a_crash_is_voided_as_interrupted() {
    let app = crate::helpers::spawn_app().await;
    let store = selo::storage::Store::connect(&app.database_url)
        .await
        .unwrap();
    let t0 = crate::helpers::t0();
    let crashed = store
        .reserve_number("AIF", 2026, t0 - chrono::Duration::hours(1), "test")
        .await
        .unwrap();
    let in_flight = store.reserve_number("AIF", 2026, t0, "test").await.unwrap();
    assert_eq!(
        number_state(&app.database_url, &crashed.number).await.0,
        "reserved"
    );
    // Another node starting on the same database (or this one restarting) sweeps at once.
    let _restarted = crate::helpers::spawn_app_on(
        app.database_url.clone(),
        app.backend,
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    )
    .await;
    let mut state = number_state(&app.database_url, &crashed.number).await;
    for _ in 0..50 {
        if state.0 != "reserved" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        state = number_state(&app.database_url, &crashed.number).await;
    }
    assert_eq!(state.0, "voided");
    assert_eq!(state.1.as_deref(), Some("emissão interrompida"));
    assert_eq!(
        number_state(&app.database_url, &in_flight.number).await.0,
        "reserved"
    );
}

/// Served under an https public URL, every answer tells browsers to keep to https.
#[tokio::test]
async fn an_https_public_url_sends_hsts() {
    let app = crate::helpers::spawn_app().await; // PUBLIC_URL is https
    let res = app.get("/health").await;
    let hsts = res
        .headers()
        .get("strict-transport-security")
        .expect("HSTS header")
        .to_str()
        .unwrap();
    assert!(hsts.starts_with("max-age="), "{hsts}");
}

fn rates(f: impl FnOnce(&mut selo::settings::Rates)) -> selo::settings::Limits {
    let mut rates = selo::settings::Rates::UNLIMITED;
    f(&mut rates);
    selo::settings::Limits {
        rates,
        ..selo::settings::Limits::default()
    }
}

async fn get_from(
    app: &crate::helpers::TestApp,
    path: &str,
    forwarded: Option<&str>,
) -> reqwest::Response {
    let mut req = app.client.get(app.url(path));
    if let Some(f) = forwarded {
        req = req.header("X-Forwarded-For", f);
    }
    crate::contract::checked("get", path, req.send().await.unwrap()).await
}

/// Printed codes (40 bits) cannot be tried at thousands per second: past the limit
/// an address is answered 429 with `Retry-After`, by the API and by the page alike.
#[tokio::test]
async fn printed_code_look_ups_are_limited_per_address() {
    let app = spawn_app_with_limits(rates(|r| r.code = 3)).await;
    for _ in 0..3 {
        let res = get_from(&app, "/api/v1/verify/code/ABCD-EFGH", None).await;
        assert_ne!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    }
    let res = get_from(&app, "/api/v1/verify/code/ABCD-EFGH", None).await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["type"], "/problems/too-many-requests");
    // The page's form counts against the same limit, and answers as a page.
    let res = get_from(&app, "/v?codigo=ABCD-EFGH", None).await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    assert!(res.text().await.unwrap().contains("tente de novo"));
    // Other verifications are not limited by it.
    assert_ne!(
        get_from(&app, "/api/v1/verify/x", None).await.status(),
        StatusCode::TOO_MANY_REQUESTS
    );
}

/// Token verifications are limited per address too.
#[tokio::test]
async fn token_verifications_are_limited_per_address() {
    let app = spawn_app_with_limits(rates(|r| r.verify = 2)).await;
    for _ in 0..2 {
        assert_eq!(
            get_from(&app, "/api/v1/verify/x", None).await.status(),
            StatusCode::BAD_REQUEST
        );
    }
    assert_eq!(
        get_from(&app, "/api/v1/verify/x", None).await.status(),
        StatusCode::TOO_MANY_REQUESTS
    );
}

/// `X-Forwarded-For` names the client only when a configured proxy sends it;
/// from anyone else it is ignored, so a client cannot dodge its limit by inventing addresses.
#[tokio::test]
async fn forwarded_addresses_are_believed_only_from_trusted_proxies() {
    let mut limits = rates(|r| r.code = 2);
    limits.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    let behind_proxy = spawn_app_with_limits(limits).await;
    for _ in 0..2 {
        let s = get_from(&behind_proxy, "/api/v1/verify/code/X", Some("203.0.113.5"))
            .await
            .status();
        assert_ne!(s, StatusCode::TOO_MANY_REQUESTS);
    }
    let s = get_from(&behind_proxy, "/api/v1/verify/code/X", Some("203.0.113.5"))
        .await
        .status();
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
    // Another client behind the same proxy has its own limit; a forged hop before it does not
    // change who the proxy says the client is.
    let s = get_from(
        &behind_proxy,
        "/api/v1/verify/code/X",
        Some("198.51.100.7, 203.0.113.6"),
    )
    .await
    .status();
    assert_ne!(s, StatusCode::TOO_MANY_REQUESTS);

    let direct = spawn_app_with_limits(rates(|r| r.code = 2)).await;
    for forwarded in ["203.0.113.1", "203.0.113.2"] {
        let s = get_from(&direct, "/api/v1/verify/code/X", Some(forwarded))
            .await
            .status();
        assert_ne!(s, StatusCode::TOO_MANY_REQUESTS);
    }
    let s = get_from(&direct, "/api/v1/verify/code/X", Some("203.0.113.3"))
        .await
        .status();
    assert_eq!(
        s,
        StatusCode::TOO_MANY_REQUESTS,
        "an untrusted X-Forwarded-For must be ignored"
    );
}

/// Bearer tokens cannot be guessed at speed: past the failures allowed, the address
/// is refused before its token is even compared, a good one included.
#[tokio::test]
async fn failed_bearer_tokens_lock_the_address_out_for_the_minute() {
    let app = spawn_app_with_limits(rates(|r| r.auth_failures = 3)).await;
    let path = "/api/v1/drivers/00000000-0000-4000-8000-000000000000/history";
    for _ in 0..3 {
        let res = app
            .client
            .get(app.url(path))
            .bearer_auth("wrong")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    }
    let res = app.get_authed(path).await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(res.headers().get("retry-after").is_some());
}

/// `selo keys rotate` keeps the old key published (its documents keep verifying);
/// `selo keys retire KID` makes the documents it signed verify as no longer trusted, with the
/// reason, and takes it out of the JWK Set.
#[tokio::test]
async fn a_retired_key_no_longer_verifies_and_says_why() {
    let app = crate::helpers::spawn_app().await;
    let grant = app.granted().await;
    let token = crate::helpers::token_of(grant["verification_url"].as_str().unwrap());
    let old_kid = {
        let jwks: Value = app.jwks().await;
        jwks["keys"][0]["kid"].as_str().unwrap().to_owned()
    };
    // Rotate: a new active key beside the old one; then retire the old one.
    let keys = app.keys_dir.path();
    let new_kid = selo::signing::keys::generate(keys).unwrap();
    assert!(matches!(
        selo::signing::keys::retire(keys, &new_kid, "2026-11-30", "x"),
        Err(selo::signing::keys::KeyError::RetireActive { .. })
    ));
    // A node restarted on the same database with the keys folder as it is now.
    let restart = || async {
        let copy = tempfile::tempdir().unwrap();
        for e in std::fs::read_dir(keys).unwrap() {
            let p = e.unwrap().path();
            std::fs::copy(&p, copy.path().join(p.file_name().unwrap())).unwrap();
        }
        crate::helpers::spawn_app_on(
            app.database_url.clone(),
            app.backend,
            copy,
            tempfile::tempdir().unwrap(),
        )
        .await
    };
    // After rotation alone, the old documents still verify on a restarted node.
    let rotated = restart().await;
    let (_, body) = rotated.verify(&token).await;
    assert_eq!(body["verdict"], "valid", "{body}");

    selo::signing::keys::retire(keys, &old_kid, "2026-11-30", "chave exposta em incidente")
        .unwrap();
    let restarted = restart().await;
    let (status, body) = restarted.verify(&token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["verdict"], "unknown_key", "{body}");
    let reason = body["reason"].as_str().unwrap();
    assert!(
        reason.contains("chave exposta em incidente") && reason.contains("2026-11-30"),
        "{reason}"
    );
    let jwks: Value = restarted
        .get("/.well-known/selo-keys.json")
        .await
        .json()
        .await
        .unwrap();
    let kids: Vec<&str> = jwks["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["kid"].as_str().unwrap())
        .collect();
    assert_eq!(kids, vec![new_kid.as_str()]);
    // The page a passenger opens says it too.
    let page = restarted
        .get(&format!("/v/{token}"))
        .await
        .text()
        .await
        .unwrap();
    assert!(page.contains("chave exposta em incidente"));
    // The sticker's PDF, uploaded, says it too: certified by the city, but by a retired key.
    let pdf = app.document_bytes(&grant, "app_sticker").await;
    let res = restarted
        .client
        .post(restarted.url("/api/v1/verify/pdf"))
        .header("content-type", "application/pdf")
        .body(pdf)
        .send()
        .await
        .unwrap();
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["verdict"], "unknown_key", "{body}");
    assert_eq!(body["signature"]["intact"], true);
    assert_eq!(body["signature"]["trusted"], false);
    let detail = body["signature"]["detail"].as_str().unwrap();
    assert!(
        detail.contains("retirada de uso em 2026-11-30: chave exposta em incidente"),
        "{detail}"
    );
}

/// Twenty reports a minute from one address: those past the limit are refused with 429,
/// `Retry-After` and a page that says why, and are not recorded.
#[tokio::test]
async fn passengers_reports_are_limited_per_address() {
    let app = spawn_app_with_limits(rates(|r| r.report = 5)).await;
    let mut b = crate::panel::Browser::new(&app);
    let (_, page, _) = b.get("/denuncia").await;
    let csrf = crate::panel::field(&page, "_csrf").unwrap();
    let (mut taken, mut refused) = (0, 0);
    for i in 0..20 {
        let relato = format!("Relato número {i} sobre o mesmo carro.");
        let req = b.client.post(app.url("/denuncia")).form(&[
            ("_csrf", csrf.as_str()),
            ("categoria", "conduta"),
            ("relato", relato.as_str()),
            ("data", "2026-11-30"),
        ]);
        let cookies = b.cookie_header();
        let res = req
            .header(reqwest::header::COOKIE, cookies)
            .send()
            .await
            .unwrap();
        match res.status() {
            StatusCode::SEE_OTHER => taken += 1,
            StatusCode::TOO_MANY_REQUESTS => {
                assert!(res.headers().contains_key("retry-after"));
                let page = res.text().await.unwrap();
                assert!(page.contains("Muitas denúncias"), "{page}");
                refused += 1;
            }
            other => panic!("{other}: {}", res.text().await.unwrap()),
        }
    }
    // The quota refills one report every 12 s; the loop takes far less.
    assert!((5..=6).contains(&taken), "{taken} taken");
    assert_eq!(taken + refused, 20);
    let store = app.store().await;
    let recorded = store.report_queue(0).await.unwrap();
    assert_eq!(recorded.len(), taken);
}
