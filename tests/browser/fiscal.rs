//! The offline verifier at `/fiscal/`, in headless Chromium, with the network really
//! cut: the browser reaches selo through a TCP relay that this test stops (every connection
//! dropped, new ones refused). Online it shows the service's answer; cut off, a valid sticker
//! still verifies from the keys and status list kept on the device, a revoked one in the list
//! shows REVOGADO, a tampered token FALSO OU ALTERADO, a typo in a printed code is caught; an
//! expired list shows its warning. The camera path reads the sticker's QR code from a fake
//! camera fed with the rendered sticker (jsQR, as on a phone without BarcodeDetector).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use fantoccini::{Client, Locator};
use selo::clock::Clock;
use serde_json::{Value, json};

use super::{App, browser_with, chromedriver, shot, spawn_app};

/// A TCP relay in front of selo that can be cut like a lost signal.
struct Relay {
    port: u16,
    up: Arc<AtomicBool>,
    links: Arc<Mutex<Vec<tokio::task::JoinHandle<()>>>>,
}

impl Relay {
    async fn start(target: String) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let up = Arc::new(AtomicBool::new(true));
        let links: Arc<Mutex<Vec<tokio::task::JoinHandle<()>>>> = Arc::default();
        let (up2, links2) = (up.clone(), links.clone());
        tokio::spawn(async move {
            loop {
                let Ok((mut inbound, _)) = listener.accept().await else {
                    return;
                };
                if !up2.load(Ordering::SeqCst) {
                    drop(inbound); // no signal
                    continue;
                }
                let target = target.clone();
                let link = tokio::spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(&target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                links2.lock().unwrap().push(link);
            }
        });
        Self { port, up, links }
    }

    fn cut(&self) {
        self.up.store(false, Ordering::SeqCst);
        for link in self.links.lock().unwrap().drain(..) {
            link.abort();
        }
    }

    fn restore(&self) {
        self.up.store(true, Ordering::SeqCst);
    }
}

async fn api_token(app: &App) -> String {
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    selo::issuance::officials::issue_token(
        &app.store,
        "ana.smf",
        &selo::storage::officials::CLI_OFFICIAL.to_string(),
        app.clock.now(),
    )
    .await
    .unwrap()
}

async fn post(app: &App, token: &str, path: &str, body: Value) -> Value {
    let res = reqwest::Client::new()
        .post(format!("{}{path}", app.base))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{path}: {}", res.status());
    res.json().await.unwrap()
}

/// Registers a driver and a car and grants, with the fee paid today.
async fn grant(app: &App, token: &str, cpf: &str, cnh: &str, plate: &str, renavam: &str) -> Value {
    let driver = post(
        app,
        token,
        "/api/v1/drivers",
        super::bodies::driver_body(cpf, cnh),
    )
    .await;
    let car = post(
        app,
        token,
        "/api/v1/vehicles",
        super::bodies::vehicle_body(plate, renavam),
    )
    .await;
    let today = selo::domain::dates::local_date(app.clock.now());
    post(
        app,
        token,
        "/api/v1/app-authorizations",
        json!({"driver_id": driver["id"],
        "vehicle_id": car["id"], "fee_paid_on": today.to_string()}),
    )
    .await
}

async fn wait_js(c: &Client, condition: &str) {
    for _ in 0..200 {
        if c.execute(&format!("return !!({condition});"), vec![])
            .await
            .unwrap_or(Value::Bool(false))
            == Value::Bool(true)
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("never true: {condition}");
}

async fn text_of(c: &Client, id: &str) -> String {
    c.find(Locator::Id(id)).await.unwrap().text().await.unwrap()
}

/// Opens the app and waits for its keys and list (kept or fresh).
async fn open(c: &Client, base: &str) {
    c.goto(&format!("{base}/fiscal/")).await.unwrap();
    wait_js(c, "window.seloReady").await;
    c.execute("return window.seloReady.then(() => true)", vec![])
        .await
        .unwrap();
}

/// Verifies `input` typed into the box; the headline and the freshness line.
async fn verify(c: &Client, input: &str) -> (String, String) {
    c.execute(
        "document.getElementById('result').hidden = true; document.getElementById('entrada').value = arguments[0]; \
         document.getElementById('typed').requestSubmit();",
        vec![json!(input)],
    )
    .await
    .unwrap();
    wait_js(c, "!document.getElementById('result').hidden").await;
    (text_of(c, "headline").await, text_of(c, "freshness").await)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_offline_verifier_works_with_the_network_cut() {
    let app = spawn_app().await;
    // The browser's clock is the real one: so is the service's here.
    app.clock.set(chrono::Utc::now());
    let token = api_token(&app).await;
    let valid = grant(
        &app,
        &token,
        "529.982.247-25",
        "58316794534",
        "BRA2E19",
        "13824652268",
    )
    .await;
    let revoked = grant(
        &app,
        &token,
        "111.444.777-35",
        "65821310502",
        "ABC-1234",
        "08543317523",
    )
    .await;
    post(
        &app,
        &token,
        &format!(
            "/api/v1/app-authorizations/{}/revocation",
            revoked["id"].as_str().unwrap()
        ),
        json!({"reason": "Cassação por fraude"}),
    )
    .await;
    let url_valid = valid["verification_url"].as_str().unwrap().to_owned();
    let url_revoked = revoked["verification_url"].as_str().unwrap().to_owned();
    let code = valid["documents"][1]["verification_code"]
        .as_str()
        .unwrap()
        .to_owned();

    let relay = Relay::start(app.base.trim_start_matches("http://").to_owned()).await;
    let base = format!("http://127.0.0.1:{}", relay.port);
    let driver = chromedriver().await;
    let c = browser_with(&driver, 390, &[]).await;

    // Online, once: the app, its keys and the list are kept on the device.
    open(&c, &base).await;
    wait_js(&c, "navigator.serviceWorker.controller").await;
    assert!(
        text_of(&c, "data").await.starts_with("Online"),
        "{}",
        text_of(&c, "data").await
    );
    let (headline, freshness) = verify(&c, &url_valid).await;
    assert_eq!(
        (headline.as_str(), freshness.as_str()),
        ("AUTORIZADO", "online agora")
    );
    shot(&c, "fiscal-online-390").await;

    // No signal: without a reload, the banner follows what the next request finds.
    relay.cut();
    let (headline, _) = verify(&c, &url_valid).await;
    assert_eq!(headline, "AUTORIZADO");
    let data = text_of(&c, "data").await;
    assert!(data.starts_with("Sem conexão"), "{data}");
    // The page itself comes from the service worker.
    open(&c, &base).await;
    let data = text_of(&c, "data").await;
    assert!(
        data.starts_with("Sem conexão: usando a lista de situações de"),
        "{data}"
    );
    let (headline, freshness) = verify(&c, &url_valid).await;
    assert_eq!(headline, "AUTORIZADO");
    assert!(
        freshness.starts_with("offline — situação de "),
        "{freshness}"
    );
    shot(&c, "fiscal-offline-valid-390").await;
    let (headline, _) = verify(&c, &url_revoked).await;
    assert_eq!(headline, "REVOGADO");
    shot(&c, "fiscal-offline-revoked-390").await;
    // One character of the signed part changed.
    let token_part = url_valid.rsplit('/').next().unwrap();
    let mut tampered: Vec<char> = token_part.chars().collect();
    let i = tampered.len() / 2;
    tampered[i] = if tampered[i] == 'A' { 'B' } else { 'A' };
    let tampered: String = tampered.into_iter().collect();
    let (headline, _) = verify(&c, &tampered).await;
    assert_eq!(headline, "FALSO OU ALTERADO");
    // Its card alone: no empty box of details below it.
    assert_eq!(
        c.execute(
            "return getComputedStyle(document.getElementById('details')).display",
            vec![],
        )
        .await
        .unwrap(),
        json!("none")
    );
    shot(&c, "fiscal-offline-forged-390").await;
    let mut typo: Vec<char> = code.chars().collect();
    typo[0] = if typo[0] == '8' { 'B' } else { '8' };
    let (headline, _) = verify(&c, &typo.into_iter().collect::<String>()).await;
    assert_eq!(headline, "CÓDIGO DIGITADO INCORRETAMENTE");
    // The right code needs the network: only its form was checked, and the page says so —
    // never that a signature is authentic.
    let (headline, freshness) = verify(&c, &code).await;
    assert_eq!(headline, "CÓDIGO BEM FORMADO");
    assert!(
        freshness.contains("só é consultado com internet"),
        "{freshness}"
    );
    let explanation = text_of(&c, "explanation").await;
    assert!(
        explanation.contains("a situação só pode ser consultada com sinal")
            && !explanation.contains("autêntica"),
        "{explanation}"
    );
    // A code that looks right but was never issued says the same offline.
    let (headline, _) = verify(&c, "CAB-7JX-1V2").await;
    assert_eq!(headline, "CÓDIGO BEM FORMADO");

    // The signal returns: the next request finds it and the banner says so, without a reload.
    relay.restore();
    let (headline, freshness) = verify(&c, &url_valid).await;
    assert_eq!(
        (headline.as_str(), freshness.as_str()),
        ("AUTORIZADO", "online agora")
    );
    wait_js(
        &c,
        "document.getElementById('data').textContent.startsWith('Online')",
    )
    .await;
    relay.cut();

    // A list made 25 h ago (expired an hour ago), kept, then the signal lost again.
    relay.restore();
    app.clock
        .set(chrono::Utc::now() - chrono::Duration::hours(25));
    open(&c, &base).await;
    let data = text_of(&c, "data").await;
    assert!(
        data.starts_with("Atenção: a lista de situações guardada"),
        "{data}"
    );
    relay.cut();
    open(&c, &base).await;
    let (headline, freshness) = verify(&c, &url_valid).await;
    assert_eq!(headline, "AUTORIZADO");
    assert!(freshness.contains("VENCIDA"), "{freshness}");
    shot(&c, "fiscal-offline-expired-list-390").await;
    c.close().await.unwrap();
    relay.restore();
    app.clock.set(chrono::Utc::now());

    // The camera: a fake one showing the sticker's QR code, read by jsQR.
    let pdf = reqwest::Client::new()
        .get(format!(
            "{}{}",
            app.base,
            valid["documents"][1]["url"].as_str().unwrap()
        ))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let y4m = std::env::temp_dir().join(format!("selo-camera-{}.y4m", std::process::id()));
    std::fs::write(&y4m, camera_frames(&pdf)).unwrap();
    let capture = format!("--use-file-for-fake-video-capture={}", y4m.display());
    let c = browser_with(
        &driver,
        390,
        &[
            "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream",
            &capture,
        ],
    )
    .await;
    open(&c, &base).await;
    c.find(Locator::Id("scan"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_js(&c, "!document.getElementById('result').hidden").await;
    assert_eq!(text_of(&c, "headline").await, "AUTORIZADO");
    let typed: Value = c
        .execute("return document.getElementById('entrada').value", vec![])
        .await
        .unwrap();
    assert_eq!(typed, json!(url_valid), "the QR code read from the camera");
    shot(&c, "fiscal-camera-390").await;
    c.close().await.unwrap();
    let _ = std::fs::remove_file(y4m);
}

/// A one-frame Y4M video (640 × 480, 4:2:0) of the QR code on the sticker's first face.
fn camera_frames(pdf: &[u8]) -> Vec<u8> {
    let (w, h, grey) = super::pdf::render_grey(pdf, 0, 150.0);
    let (fw, fh) = (640usize, 480usize);
    let mut y = vec![255u8; fw * fh];
    // The middle of the face (the QR code) scaled to fit the frame's height.
    let (top, side) = (h * 34 / 100, h * 42 / 100);
    let left = w / 2 - side / 2;
    for fy in 0..fh {
        for fx in 0..fh {
            let (sx, sy) = (left + fx * side / fh, top + fy * side / fh);
            y[fy * fw + fx + (fw - fh) / 2] = grey[sy * w + sx];
        }
    }
    let mut out = format!("YUV4MPEG2 W{fw} H{fh} F10:1 Ip A1:1 C420jpeg\nFRAME\n").into_bytes();
    out.extend_from_slice(&y);
    out.extend(std::iter::repeat_n(128u8, fw * fh / 2));
    out
}
