//! Platforms' webhooks: a platform sets its address with its own credential; a suspension of
//! one of its drivers reaches it signed (RFC 9421, Ed25519, the published JWK Set), is retried
//! when the platform fails, and shows in the back office's log; a tampered or replayed
//! delivery is caught with the published key; an official's notice to suspend a vehicle
//! reaches it too.

use std::sync::{Arc, Mutex};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use reqwest::StatusCode;
use selo::signing::http_signature::{Refusal, SignedHeaders, verify_post};
use selo::signing::keys::KeySet;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;

use crate::helpers::{CPFS, TestApp};

/// One request the receiver took.
#[derive(Debug, Clone)]
pub struct Received {
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Received {
    fn header(&self, name: &str) -> String {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }

    fn signed(&self) -> SignedHeaders {
        SignedHeaders {
            content_digest: self.header("content-digest"),
            signature_input: self.header("signature-input"),
            signature: self.header("signature"),
        }
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap()
    }
}

/// A platform's endpoint over real TCP: records every request and answers each with the next
/// status of `script` (200 once it runs out).
pub struct Receiver {
    pub url: String,
    pub got: Arc<Mutex<Vec<Received>>>,
}

impl Receiver {
    pub async fn start(script: Vec<u16>) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!(
            "http://127.0.0.1:{}/selo/eventos",
            listener.local_addr().unwrap().port()
        );
        let got = Arc::new(Mutex::new(Vec::new()));
        let script = Arc::new(Mutex::new(script.into_iter()));
        let seen = got.clone();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let Some((head, body)) = crate::helpers::read_http_request(&mut socket).await
                else {
                    continue;
                };
                let mut lines = head.lines();
                let path = lines
                    .next()
                    .and_then(|l| l.split(' ').nth(1))
                    .unwrap_or_default()
                    .to_owned();
                let headers = lines
                    .filter_map(|l| l.split_once(':'))
                    .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
                    .collect();
                seen.lock().unwrap().push(Received {
                    path,
                    headers,
                    body,
                });
                let status = script.lock().unwrap().next().unwrap_or(200);
                let answer = format!(
                    "HTTP/1.1 {status} X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                );
                let _ = socket.write_all(answer.as_bytes()).await;
            }
        });
        Self { url, got }
    }

    /// Waits until `n` requests arrived (10 s at most).
    pub async fn wait_for(&self, n: usize) -> Vec<Received> {
        for _ in 0..200 {
            let got = self.got.lock().unwrap().clone();
            if got.len() >= n {
                return got;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!(
            "expected {n} deliveries, got {:?}",
            self.got.lock().unwrap()
        );
    }
}

/// The keys the service publishes, read from its JWK Set as a platform would.
async fn published_keys(app: &TestApp) -> KeySet {
    let jwks: Value = app
        .client
        .get(format!("{}/.well-known/selo-keys.json", app.address))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut set = KeySet::default();
    for k in jwks["keys"].as_array().unwrap() {
        let x = URL_SAFE_NO_PAD.decode(k["x"].as_str().unwrap()).unwrap();
        set.insert(ed25519_dalek::VerifyingKey::from_bytes(&x.try_into().unwrap()).unwrap());
    }
    set
}

async fn credential(app: &TestApp, platform: &str) -> String {
    let res = app
        .post(
            &format!("/api/v1/platforms/{platform}/credentials"),
            &json!({"label": "Integração de eventos"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    res.json::<Value>().await.unwrap()["access_token"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn set_webhook(app: &TestApp, token: &str, url: Option<&str>) -> (StatusCode, Value) {
    let res = app
        .send_as(
            Some(token),
            "put",
            "/api/v1/platform/webhook",
            Some(&json!({ "url": url })),
        )
        .await;
    let status = res.status();
    (status, res.json().await.unwrap_or(Value::Null))
}

/// Waits until the platform's log shows `n` deliveries all `status` after at least
/// `attempts` tries each (10 s at most): the receiver may hold a request before the
/// delivery's try is written down.
async fn log_when(app: &TestApp, token: &str, n: usize, status: &str, attempts: u64) -> Value {
    let mut last = Value::Null;
    for _ in 0..200 {
        last = app
            .send_as(Some(token), "get", "/api/v1/platform/webhook", None)
            .await
            .json()
            .await
            .unwrap();
        let d = last["deliveries"].as_array().unwrap();
        if d.len() == n
            && d.iter()
                .all(|x| x["status"] == status && x["attempts"].as_u64() >= Some(attempts))
        {
            return last;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("expected {n} deliveries {status} after {attempts} tries: {last}");
}

#[tokio::test]
#[expect(
    clippy::too_many_lines,
    reason = "one platform's webhook from its address to a retried, verified, logged delivery"
)]
async fn a_suspension_reaches_the_platforms_webhook_signed_and_is_retried_until_taken() {
    let (app, platform) = crate::platforms::registered_platform().await;
    let token = credential(&app, &platform).await;
    // The first try fails (the platform is down): the delivery waits and goes again.
    let receiver = Receiver::start(vec![503]).await;

    // Only https, or http to this machine outside production.
    let (status, p) = set_webhook(&app, &token, Some("http://plataforma.example/eventos")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{p}");
    let (status, w) = set_webhook(&app, &token, Some(&receiver.url)).await;
    assert_eq!(status, StatusCode::OK, "{w}");
    assert_eq!(w["url"], receiver.url.as_str());
    assert!(w["signature"].as_str().unwrap().contains("RFC 9421"), "{w}");

    let a = app.granted_to(0).await;
    let number = a["number"].as_str().unwrap();
    let res = app
        .send_as(
            Some(&token),
            "post",
            "/api/v1/platform/drivers",
            Some(&json!({"authorization_number": number, "cpf": CPFS[0]})),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    // Being registered tells the platform nothing it did not just read.
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    assert!(receiver.got.lock().unwrap().is_empty());

    let path = format!(
        "/api/v1/app-authorizations/{}/sanctions",
        a["id"].as_str().unwrap()
    );
    let body = json!({"kind": "suspension", "effective_from": "2026-11-30", "days": 30,
                      "reason": "Reincidência", "legal_basis": "art. 26, §1º"});
    assert_eq!(app.post(&path, &body).await.status(), StatusCode::CREATED);

    let first = receiver.wait_for(1).await;
    let log = log_when(&app, &token, 1, "pending", 1).await;
    assert_eq!(log["deliveries"][0]["attempts"], 1, "{log}");
    assert!(
        log["deliveries"][0]["last_error"]
            .as_str()
            .unwrap()
            .contains("503"),
        "{log}"
    );
    // The retry is due a minute later.
    app.clock.advance(chrono::Duration::minutes(2));
    let got = receiver.wait_for(2).await;
    log_when(&app, &token, 1, "delivered", 2).await;

    let keys = published_keys(&app).await;
    let now = selo::clock::Clock::now(app.clock.as_ref()).timestamp();
    let delivery = &got[1];
    assert_eq!(delivery.path, "/selo/eventos");
    assert_eq!(delivery.header("content-type"), "application/json");
    let event = delivery.json();
    assert_eq!(event["type"], "authorization.suspended", "{event}");
    assert_eq!(event["platform_id"], platform.as_str());
    assert_eq!(event["data"]["previous"]["status"], "active", "{event}");
    assert_eq!(event["data"]["current"]["status"], "suspended", "{event}");
    assert_eq!(event["data"]["current"]["suspended_until"], "2026-12-30");
    assert_eq!(event["data"]["current"]["plate"], "BRA2E19");
    assert_eq!(event["data"]["current"]["authorization_number"], number);
    // No CPF, no name: the platform knows its driver by the number.
    let text = String::from_utf8_lossy(&delivery.body);
    assert!(
        !text.to_lowercase().contains("cpf") && !text.contains(CPFS[0]),
        "{text}"
    );
    // The same event both times, each attempt signed anew with its own nonce.
    assert_eq!(first[0].json()["id"], event["id"]);
    let v1 = verify_post(
        &keys,
        &receiver.url,
        &first[0].signed(),
        "application/json",
        &first[0].body,
        now,
        300,
    );
    let v2 = verify_post(
        &keys,
        &receiver.url,
        &delivery.signed(),
        "application/json",
        &delivery.body,
        now,
        300,
    )
    .unwrap();
    assert_ne!(v1.unwrap().nonce, v2.nonce);

    // Tampered: another status in the body, with or without a digest to match.
    let forged = text.replace("\"suspended\"", "\"active\"");
    assert_eq!(
        verify_post(
            &keys,
            &receiver.url,
            &delivery.signed(),
            "application/json",
            forged.as_bytes(),
            now,
            300
        ),
        Err(Refusal::Digest)
    );
    let mut redigested = delivery.signed();
    redigested.content_digest = selo::signing::http_signature::content_digest(forged.as_bytes());
    assert_eq!(
        verify_post(
            &keys,
            &receiver.url,
            &redigested,
            "application/json",
            forged.as_bytes(),
            now,
            300
        ),
        Err(Refusal::BadSignature)
    );
    // Replayed ten minutes later: too old (and its nonce was seen).
    assert_eq!(
        verify_post(
            &keys,
            &receiver.url,
            &delivery.signed(),
            "application/json",
            &delivery.body,
            now + 600,
            300
        ),
        Err(Refusal::Stale)
    );

    // The back office's record of the platform shows the address and the log.
    let record: Value = app
        .get_authed(&format!("/api/v1/platforms/{platform}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(record["webhook_url"], receiver.url.as_str());
    assert_eq!(
        record["webhook_deliveries"][0]["event_type"],
        "authorization.suspended"
    );
    assert_eq!(record["webhook_deliveries"][0]["attempts"], 2, "{record}");

    // A second act on another driver of nobody's: nothing more goes out.
    app.granted_to(1).await;
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    assert_eq!(receiver.got.lock().unwrap().len(), 2);
}

/// The art. 27 notice: an official tells the platform to suspend a vehicle, on an auto that
/// proposes it; an auto that does not is refused; the platform receives the notice signed.
#[tokio::test]
async fn a_notice_to_suspend_a_vehicle_reaches_the_platform() {
    let (app, platform) = crate::platforms::registered_platform().await;
    let token = credential(&app, &platform).await;
    let receiver = Receiver::start(vec![]).await;
    assert_eq!(
        set_webhook(&app, &token, Some(&receiver.url)).await.0,
        StatusCode::OK
    );
    let driver = app
        .create_driver(&crate::helpers::driver_body(
            crate::helpers::CPFS[2],
            crate::helpers::CNHS[2],
        ))
        .await;
    let mut autos = Vec::new();
    for at in ["2026-11-02T08:00:00-04:00", "2026-11-30T08:00:00-04:00"] {
        let res = app
            .post(
                "/api/v1/app-infraction-autos",
                &crate::autos::auto_body(&driver, "APP-ART27", at),
            )
            .await;
        assert_eq!(res.status(), StatusCode::CREATED);
        autos.push(res.json::<Value>().await.unwrap());
    }
    let notices = format!("/api/v1/platforms/{platform}/vehicle-suspension-notices");
    // The first auto proposes no notice.
    let res = app
        .post(
            &notices,
            &json!({"auto_id": autos[0]["id"], "plate": "QBA1D23"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let res = app
        .post(
            &notices,
            &json!({"auto_id": autos[1]["id"], "plate": "QBA-1D23"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED, "{autos:?}");
    let notice: Value = res.json().await.unwrap();
    assert_eq!(notice["webhook"], true);
    assert_eq!(notice["plate"], "QBA1D23");

    let got = receiver.wait_for(1).await;
    let event = got[0].json();
    assert_eq!(event["type"], "vehicle.suspension_notice", "{event}");
    assert_eq!(event["data"]["plate"], "QBA1D23");
    assert_eq!(event["data"]["auto_number"], autos[1]["number"]);
    assert!(
        event["data"]["article"]
            .as_str()
            .unwrap()
            .contains("parágrafo único"),
        "{event}"
    );
    let keys = published_keys(&app).await;
    let now = selo::clock::Clock::now(app.clock.as_ref()).timestamp();
    verify_post(
        &keys,
        &receiver.url,
        &got[0].signed(),
        "application/json",
        &got[0].body,
        now,
        300,
    )
    .unwrap();
}
