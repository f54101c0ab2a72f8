//! The applicants' counter in a real browser at 390 px: a driver signs in with a code read from
//! the e-mail the SMTP server received, files the yearly renewal with three uploads, is told
//! what is missing and adds it; an official refuses one file with a reason; the driver
//! replaces it; the official decides in the renewal task; the driver reads each e-mail and
//! downloads the new sticker, whose QR verifies AUTORIZADO.
//!
//! The SMTP server is the one `SELO_TEST_SMTP_URL` names, its messages read from the Maildir
//! `SELO_TEST_MAILDIR` (`.ci/run` starts PyPI's `aiosmtpd` so); without them, the SMTP server
//! written in the API suite, in process.

use std::path::{Path, PathBuf};
use std::time::Duration;

use fantoccini::{Client, Locator};

use super::smtp::{Received, SmtpServer};
use super::tasks::api_post_as;
use super::{
    at, browser, chromedriver, click_and_wait, download, follow, path, pdf, set, shot, sign_in,
    spawn_app_with, text,
};

/// Where the messages sent are read.
enum Inbox {
    InProcess(SmtpServer),
    Maildir(PathBuf),
}

impl Inbox {
    /// The inbox and the SMTP URL selo sends to.
    async fn start() -> (Self, String) {
        match (
            std::env::var("SELO_TEST_SMTP_URL"),
            std::env::var("SELO_TEST_MAILDIR"),
        ) {
            (Ok(url), Ok(dir)) => (Self::Maildir(PathBuf::from(dir)), url),
            _ => {
                let server = SmtpServer::start().await;
                let url = server.url();
                (Self::InProcess(server), url)
            }
        }
    }

    fn all(&self) -> Vec<Received> {
        match self {
            Self::InProcess(s) => s.inbox(),
            Self::Maildir(dir) => maildir(dir),
        }
    }

    /// The messages to `address`, in the order received, once there are `n` (15 s at most).
    async fn wait_for(&self, address: &str, n: usize) -> Vec<Received> {
        for _ in 0..150 {
            let got: Vec<Received> = self
                .all()
                .into_iter()
                .filter(|m| m.to.iter().any(|t| t.eq_ignore_ascii_case(address)))
                .collect();
            if got.len() >= n {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("fewer than {n} messages to {address}");
    }
}

/// The messages of a Maildir (Python's `mailbox`, as aiosmtpd writes it), oldest first.
fn maildir(dir: &Path) -> Vec<Received> {
    let mut files: Vec<(std::time::SystemTime, String, PathBuf)> = ["new", "cur"]
        .iter()
        .filter_map(|sub| std::fs::read_dir(dir.join(sub)).ok())
        .flatten()
        .filter_map(Result::ok)
        .map(|e| {
            let modified = e
                .metadata()
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            (
                modified,
                e.file_name().to_string_lossy().into_owned(),
                e.path(),
            )
        })
        .collect();
    files.sort();
    files
        .into_iter()
        .filter_map(|(_, _, p)| std::fs::read_to_string(p).ok())
        .map(|text| {
            let data = text.replace("\r\n", "\n").replace('\n', "\r\n");
            let mut m = Received {
                from: String::new(),
                to: Vec::new(),
                data,
                user: None,
            };
            m.to = m
                .header("X-RcptTo")
                .or_else(|| m.header("To"))
                .unwrap_or_default()
                .split(',')
                .map(|t| t.trim().trim_matches(['<', '>']).to_owned())
                .collect();
            m
        })
        .collect()
}

fn subject_and_body(m: &Received) -> String {
    format!("{}\n{}", m.header("Subject").unwrap_or_default(), m.body())
}

const PDF: &[u8] = b"%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n";
const PNG: &[u8] = &[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13];
const JPEG: &[u8] = &[0xFF, 0xD8, 0xFF, 0xE0, 0, 16, b'J', b'F', b'I', b'F'];

/// Chooses `file` in the upload form of slot `slot` and sends it.
async fn upload(c: &Client, slot: &str, file: &Path) {
    let Ok(input) = c.find(Locator::Id(&format!("arquivo-{slot}"))).await else {
        panic!(
            "no upload for {slot} on {}: {}",
            path(c).await,
            text(c).await
        );
    };
    input.send_keys(&file.display().to_string()).await.unwrap();
    click_and_wait(c, &format!("#doc-{slot} button[type=submit]")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[expect(
    clippy::too_many_lines,
    reason = "one renewal from the driver's sign-in to the verified sticker, in the browser"
)]
async fn a_driver_renews_online_on_a_phone_and_downloads_the_new_sticker() {
    let (inbox, smtp_url) = Inbox::start().await;
    let app = spawn_app_with(selo::settings::Mail {
        smtp_url: Some(smtp_url),
        from: "Prefeitura de Barra do Garças <selo@barradogarcas.mt.gov.br>".into(),
        poll: Duration::from_millis(200),
        ..selo::settings::Mail::default()
    })
    .await;
    // A unique address: a Maildir may hold earlier runs' messages.
    let maria = format!(
        "maria.{}@exemplo.com.br",
        app.base.rsplit(':').next().unwrap()
    );
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let driver = api_post_as(
        &app,
        "ana.smf",
        "/api/v1/drivers",
        &super::bodies::driver_body("529.982.247-25", "58316794534"),
    )
    .await;
    let car = api_post_as(
        &app,
        "ana.smf",
        "/api/v1/vehicles",
        &super::bodies::vehicle_body("BRA2E19", "13824652268"),
    )
    .await;
    let a = api_post_as(
        &app,
        "ana.smf",
        "/api/v1/app-authorizations",
        &serde_json::json!({"driver_id": driver["id"], "vehicle_id": car["id"], "fee_paid_on": "2026-11-30"}),
    )
    .await;
    let number = a["number"].as_str().unwrap().to_owned();
    api_post_as(
        &app,
        "ana.smf",
        &format!(
            "/api/v1/app-authorizations/{}/vistorias",
            a["id"].as_str().unwrap()
        ),
        &serde_json::json!({"performed_on": "2026-11-30", "approved": true, "inspector": "Fiscal SMF"}),
    )
    .await;
    app.clock.set(at("2027-11-01T15:00:00Z"));
    let files = tempfile::tempdir().unwrap();
    let file = |name: &str, bytes: &[u8]| {
        let p = files.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    };

    let driver_b = chromedriver().await;
    let c = browser(&driver_b, 390).await;
    c.goto(&format!("{}/servicos", app.base)).await.unwrap();
    shot(&c, "services-sign-in-390").await;
    set(&c, "email", &maria).await;
    click_and_wait(&c, "form[action='/servicos/entrar'] button").await;
    assert!(
        path(&c).await.starts_with("/servicos/codigo"),
        "{}",
        path(&c).await
    );
    let mails = inbox.wait_for(&maria, 1).await;
    let code = mails[0]
        .body()
        .split_whitespace()
        .find(|w| w.len() == 6 && w.chars().all(|d| d.is_ascii_digit()))
        .unwrap_or_else(|| panic!("no code in {}", mails[0].body()))
        .to_owned();
    set(&c, "codigo", &code).await;
    click_and_wait(&c, "form[action='/servicos/codigo'] button").await;
    assert!(
        path(&c).await.starts_with("/servicos/inicio"),
        "{}",
        text(&c).await
    );
    follow(&c, &app, "Pedir a renovação da autorização (aplicativo)").await;
    assert!(
        !super::overflows(&c).await,
        "the new filing's form scrolls sideways"
    );
    shot(&c, "services-new-filing-390").await;
    set(&c, "numero", &number).await;
    set(&c, "cpf", "529.982.247-25").await;
    click_and_wait(&c, "form[action='/servicos/pedidos/novo'] button").await;
    let filing = path(&c).await;
    assert!(
        filing.starts_with("/servicos/pedidos/"),
        "{}",
        text(&c).await
    );

    // Three uploads; the fees' receipt is still missing, and the page says so.
    upload(&c, "cnh", &file("CNH digital.pdf", PDF)).await;
    upload(&c, "certidoes", &file("certidoes.pdf", PDF)).await;
    upload(&c, "crlv", &file("crlv.png", PNG)).await;
    let page = text(&c).await;
    assert!(page.contains("ainda falta juntar"), "{page}");
    assert!(page.contains("aguardando análise"), "{page}");
    assert!(
        !super::overflows(&c).await,
        "the filing overflows at 390 px"
    );
    shot(&c, "services-filing-missing-390").await;
    upload(&c, "taxas", &file("comprovante.jpeg", JPEG)).await;
    click_and_wait(&c, "form[action$='/protocolar'] button").await;
    let page = text(&c).await;
    assert!(page.contains("Pedido REQ-2027/000001"), "{page}");
    shot(&c, "services-filing-sent-390").await;
    let mails = inbox.wait_for(&maria, 2).await;
    assert!(
        subject_and_body(&mails[1]).contains("REQ-2027/000001"),
        "{}",
        subject_and_body(&mails[1])
    );

    // The official refuses the CRLV with a reason and accepts the rest.
    let desk = browser(&driver_b, 1280).await;
    sign_in(&desk, &app, "ana.smf").await;
    desk.goto(&format!("{}/painel/requerimentos", app.base))
        .await
        .unwrap();
    follow(&desk, &app, "REQ-2027/000001").await;
    shot(&desk, "desk-filing-1280").await;
    let forms = desk
        .find_all(Locator::Css("form[action*='/arquivos/']"))
        .await
        .unwrap();
    assert_eq!(forms.len(), 4);
    let crlv = forms[2].attr("action").await.unwrap().unwrap();
    set_in(
        &desk,
        &crlv,
        "motivo",
        "Imagem ilegível: envie o CRLV inteiro.",
    )
    .await;
    click_and_wait(
        &desk,
        &format!("form[action='{crlv}'] button[value=recusar]"),
    )
    .await;
    for _ in 0..3 {
        click_and_wait(&desk, "form[action*='/arquivos/'] button[value=aceitar]").await;
    }
    // …and asks for it again, with a deadline: the filing waits for the driver.
    set(&desk, "texto", "Envie o CRLV 2027, legível.").await;
    click_and_wait(&desk, "form[action$='/exigencia'] button").await;
    let mails = inbox.wait_for(&maria, 4).await;
    assert!(
        subject_and_body(&mails[2]).contains("Imagem ilegível"),
        "{}",
        subject_and_body(&mails[2])
    );
    assert!(
        subject_and_body(&mails[3]).contains("Envie o CRLV 2027"),
        "{}",
        subject_and_body(&mails[3])
    );

    // The driver reads the refusal, replaces the file and sends the answer.
    c.goto(&format!("{}{filing}", app.base)).await.unwrap();
    let page = text(&c).await;
    assert!(page.contains("A Prefeitura pede"), "{page}");
    assert!(page.contains("recusado: Imagem ilegível"), "{page}");
    shot(&c, "services-filing-demand-390").await;
    upload(&c, "crlv", &file("crlv-2027.pdf", PDF)).await;
    click_and_wait(&c, "form[action$='/protocolar'] button").await;

    // The official decides in the renewal task opened from the filing.
    desk.refresh().await.unwrap();
    follow(&desk, &app, "Decidir na tarefa de renovação").await;
    for court in ["estadual_1", "estadual_2", "federal_1", "federal_2"] {
        set(
            &desk,
            &format!("criminal_certificates.{court}"),
            "2027-10-20",
        )
        .await;
    }
    set(&desk, "fee_paid_on", "2027-11-01").await;
    click_and_wait(&desk, "button[value=renovar]").await;
    assert!(
        text(&desk).await.contains("APP-2027/000001"),
        "{}",
        text(&desk).await
    );

    // The driver is told, and downloads the new sticker, which verifies.
    let mails = inbox.wait_for(&maria, 5).await;
    let decided = subject_and_body(mails.last().unwrap());
    assert!(decided.contains("deferido"), "{decided}");
    assert!(!decided.contains("529.982.247-25"), "{decided}");
    c.goto(&format!("{}{filing}", app.base)).await.unwrap();
    let page = text(&c).await;
    assert!(page.contains("deferido"), "{page}");
    shot(&c, "services-filing-decided-390").await;
    let sticker = c
        .find(Locator::XPath("//a[contains(., 'Adesivo do para-brisa')]"))
        .await
        .unwrap()
        .attr("href")
        .await
        .unwrap()
        .unwrap();
    let qr = pdf::qr_codes(&download(&c, &app, &sticker).await)
        .into_iter()
        .find(|u| u.starts_with(&format!("{}/v/", app.base)))
        .expect("the new sticker's verification QR");
    let on_site = qr.trim_start_matches(&app.base).to_owned();
    super::verdicts::verdict(&c, &app, &on_site, "AUTORIZADO", "services-new-sticker-390").await;

    // A first authorization: the driver's and the car's data stated on the phone, and a
    // two-door car named by the conferência before anything is sent.
    c.goto(&format!(
        "{}/servicos/pedidos/novo?tipo=app_new_authorization",
        app.base
    ))
    .await
    .unwrap();
    set(&c, "cpf", "111.444.777-35").await;
    click_and_wait(&c, "form[action='/servicos/pedidos/novo'] button").await;
    for (name, value) in [
        ("name", "Antônio Pereira Lima"),
        ("cnh.number", "65821310502"),
        ("cnh.category", "B"),
        ("cnh.ear", "true"),
        ("cnh.first_license_date", "10/03/2015"),
        ("cnh.expires_on", "15/03/2030"),
        ("vehicle.plate", "QWE1R23"),
        ("vehicle.renavam", "09769017014"),
        ("vehicle.make", "Fiat"),
        ("vehicle.model", "Mobi"),
        ("vehicle.color", "Branca"),
        ("vehicle.model_year", "2023"),
        ("vehicle.doors", "2"),
        ("vehicle.air_conditioning", "true"),
        ("vehicle.capacity_including_driver", "5"),
        ("vehicle.registration_municipality_ibge", "5101803"),
        ("vehicle.owner_type", "proprietario"),
    ] {
        set(&c, name, value).await;
    }
    click_and_wait(&c, "form[action$='/dados'] button").await;
    let page = text(&c).await;
    assert!(page.contains("esbarraria em um ponto"), "{page}");
    assert!(page.contains("Pelos dados informados"), "{page}");
    assert!(
        !super::overflows(&c).await,
        "the first authorization's page scrolls sideways"
    );
    shot(&c, "services-first-authorization-390").await;
    c.execute(
        "document.getElementById('conferencia').scrollIntoView();",
        vec![],
    )
    .await
    .unwrap();
    shot(&c, "services-first-authorization-check-390").await;
    desk.close().await.unwrap();
    c.close().await.unwrap();
}

/// Sets field `name` inside the form whose action is `action`.
async fn set_in(c: &Client, action: &str, name: &str, value: &str) {
    let found = c
        .execute(
            "const e = document.querySelector(`form[action=\"${arguments[0]}\"] [name=\"${arguments[1]}\"]`);\
             if (!e) return false; e.value = arguments[2]; return true;",
            vec![
                serde_json::json!(action),
                serde_json::json!(name),
                serde_json::json!(value),
            ],
        )
        .await
        .unwrap();
    assert_eq!(found, serde_json::json!(true), "no {name} in {action}");
}
