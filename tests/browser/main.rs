//! The back office in a real browser: headless Chromium driven over WebDriver
//! (`chromedriver`, started here). Not part of `cargo test --release`; `.ci/run` installs
//! Debian's `chromium` and `chromium-driver` and runs `cargo test --release --test browser`.
//! Screenshots of the main pages at 1280 and 390 px are written to `target/screenshots/`.
//!
//! An official signs in, registers a driver and a car, grants, downloads the sticker and
//! decodes its QR code, opens the verification page and sees AUTORIZADO; a refused grant
//! shows the article beside its field; a charter issuer registers a company, takes its Termo,
//! enrols a minibus and records the vistoria that issues its selo, and is refused the
//! ride-hailing grant; a form posted without its CSRF token is refused; logout ends it all.
//! `counter.rs` walks a driver's renewal filed online at 390 px, from the e-mailed code to the
//! verified sticker.

#[path = "../api/bodies.rs"]
mod bodies;
mod counter;
mod fiscal;
#[path = "../api/pdf.rs"]
#[expect(
    dead_code,
    reason = "a module shared with the API suite; this target uses part of it"
)]
mod pdf;
#[path = "../api/smtp.rs"]
#[expect(
    dead_code,
    reason = "a module shared with the API suite; this target uses part of it"
)]
mod smtp;
mod tasks;
mod verdicts;

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use fantoccini::{Client, ClientBuilder, Locator};
use selo::clock::{Clock, FixedClock};
use selo::settings::{Environment, Settings};
use selo::startup::Application;
use serde_json::{Value, json};

const PASSWORD: &str = "cavalo-bateria-grampo";

fn at(instant: &str) -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::parse_from_rfc3339(instant)
        .unwrap()
        .to_utc()
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// chromedriver on a free port, killed on drop.
struct Driver(Child, u16);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
    }
}

async fn chromedriver() -> Driver {
    let port = free_port();
    let bin = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
    let child = Command::new(&bin)
        .arg(format!("--port={port}"))
        // Chromium takes its locale (how a date field shows its day) from the environment.
        .env("LANGUAGE", "pt_BR")
        .env("LANG", "pt_BR.UTF-8")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{bin} did not start ({e}): install Debian's chromium-driver"));
    let driver = Driver(child, port);
    for _ in 0..100 {
        if reqwest::get(format!("http://127.0.0.1:{port}/status"))
            .await
            .is_ok()
        {
            return driver;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("chromedriver did not answer");
}

async fn browser(driver: &Driver, width: u32) -> Client {
    browser_with(driver, width, &[]).await
}

/// A browser `width` px wide, with more command-line switches.
async fn browser_with(driver: &Driver, width: u32, extra: &[&str]) -> Client {
    let mut caps = serde_json::Map::new();
    let binary = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let mut args = vec![
        json!("--headless=new"),
        json!("--no-sandbox"),
        json!("--disable-gpu"),
        json!("--disable-dev-shm-usage"),
        json!(format!("--window-size={width},900")),
        json!("--lang=pt-BR"),
    ];
    args.extend(extra.iter().map(|a| json!(a)));
    let mut options = json!({"binary": binary, "args": args});
    // A desktop window cannot be narrower than 500 px: a phone is emulated.
    if width < 500 {
        options["mobileEmulation"] =
            json!({"deviceMetrics": {"width": width, "height": PHONE_HEIGHT, "pixelRatio": 1.0}});
    }
    caps.insert("goog:chromeOptions".into(), options);
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.1))
        .await
        .expect("a WebDriver session")
}

struct App {
    base: String,
    store: selo::storage::Store,
    clock: Arc<FixedClock>,
    _dirs: (tempfile::TempDir, tempfile::TempDir),
}

async fn spawn_app() -> App {
    spawn_app_with(selo::settings::Mail::default()).await
}

/// The service with its e-mail going out as `mail` says.
async fn spawn_app_with(mail: selo::settings::Mail) -> App {
    let data = tempfile::tempdir().unwrap();
    let keys = tempfile::tempdir().unwrap();
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let database_url = format!("sqlite://{}/selo.db", data.path().display());
    let settings = Settings {
        listen: format!("127.0.0.1:{port}"),
        public_url: base.clone(),
        database_url: database_url.clone(),
        keys_dir: keys.path().to_path_buf(),
        environment: Environment::Development,
        admin_token: None,
        ouvidoria_phone: Some("(66) 3401-9999".into()),
        profile: None,
        render_threads: 2,
        workers: 2,
        limits: selo::settings::Limits {
            rates: selo::settings::Rates::UNLIMITED,
            ..selo::settings::Limits::default()
        },
        mail,
        webhooks: selo::settings::Webhooks::default(),
        oidc: None,
        icp_policy: None,
        metrics_token: None,
        tsa: Ok(None),
        crl_timeout: std::time::Duration::from_secs(5),
    };
    let clock = Arc::new(FixedClock::new(at("2026-11-30T16:00:00Z")));
    let app = Application::build(settings, clock.clone()).await.unwrap();
    tokio::spawn(app.run_until_stopped());
    let store = selo::storage::Store::connect(&database_url).await.unwrap();
    App {
        base,
        store,
        clock,
        _dirs: (data, keys),
    }
}

impl App {
    async fn official(&self, login: &str, name: &str, roles: &str) {
        selo::issuance::officials::add(
            &self.store,
            &selo::storage::officials::CLI_OFFICIAL.to_string(),
            login,
            name,
            roles,
            PASSWORD,
            self.clock.now(),
        )
        .await
        .unwrap();
    }
}

/// The screenshots `docs/officials-guide.md` shows.
const GUIDE_SCREENSHOTS: &[&str] = &[
    "login-1280",
    "home-1280",
    "authorization-1280",
    "task-grant-conferir-1280",
    "task-renewal-1280",
    "task-vistoria-1280",
    "verification-1280",
    "company-1280",
    "officials-1280",
    "home-390",
    "fiscal-online-390",
    "fiscal-offline-valid-390",
];

fn shots() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Whether the page is wider than the window (it scrolls sideways).
async fn overflows(c: &Client) -> bool {
    c.execute(
        "return document.documentElement.scrollWidth > window.innerWidth + 1",
        vec![],
    )
    .await
    .unwrap()
        == Value::Bool(true)
}

async fn shot(c: &Client, name: &str) {
    // The whole page: the window (or, for an emulated phone, the device's screen) grows to the
    // document's height first.
    let height: u64 = c
        .execute("return document.documentElement.scrollHeight", vec![])
        .await
        .unwrap()
        .as_u64()
        .unwrap_or(900);
    let (width, _) = c.get_window_size().await.unwrap();
    let tall = u32::try_from(height.clamp(600, 6000)).unwrap();
    let phone = phone_width(c).await;
    if let Some(w) = phone {
        device_height(c, w, tall).await;
    } else {
        c.set_window_size(u32::try_from(width).unwrap(), tall)
            .await
            .unwrap();
    }
    let png = c.screenshot().await.unwrap();
    std::fs::write(shots().join(format!("{name}.png")), &png).unwrap();
    // `UPDATE_GUIDE_SCREENSHOTS=1` also refreshes the pictures of the officials' guide.
    if GUIDE_SCREENSHOTS.contains(&name) && std::env::var("UPDATE_GUIDE_SCREENSHOTS").is_ok() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/img");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
    if let Some(w) = phone {
        device_height(c, w, PHONE_HEIGHT).await;
    } else {
        c.set_window_size(u32::try_from(width).unwrap(), 900)
            .await
            .unwrap();
    }
}

/// The height of the emulated phone's screen.
const PHONE_HEIGHT: u32 = 844;

/// The emulated phone's width, when the browser is one (narrower than a desktop window).
async fn phone_width(c: &Client) -> Option<u32> {
    let w = c
        .execute("return window.innerWidth", vec![])
        .await
        .ok()?
        .as_u64()?;
    u32::try_from(w).ok().filter(|w| *w < 500)
}

/// A DevTools command sent through chromedriver (`/session/{id}/goog/cdp/execute`).
#[derive(Debug)]
struct Cdp(Value);

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(self.0.to_string()))
    }
}

/// Makes the emulated phone's screen `height` px tall (its width kept).
async fn device_height(c: &Client, width: u32, height: u32) {
    c.issue_cmd(Cdp(json!({
        "cmd": "Emulation.setDeviceMetricsOverride",
        "params": {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": true},
    })))
    .await
    .unwrap();
}

/// Sets a form field by name, as typing would (date inputs take ISO dates this way whatever
/// the browser's locale).
async fn set(c: &Client, name: &str, value: &str) {
    let found = c
        .execute(
            "const e = document.querySelector(`[name=\"${arguments[0]}\"]`);\
             if (!e) return false; e.value = arguments[1]; return true;",
            vec![json!(name), json!(value)],
        )
        .await
        .unwrap();
    assert_eq!(
        found,
        json!(true),
        "no field {name} on {}",
        c.current_url().await.unwrap()
    );
}

/// Clicks `selector` and waits until the next page has loaded.
async fn click_and_wait(c: &Client, selector: &str) {
    c.execute("window.__stale = true;", vec![]).await.unwrap();
    c.find(Locator::Css(selector))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    for _ in 0..200 {
        let fresh = c
            .execute(
                "return window.__stale === undefined && document.readyState === 'complete';",
                vec![],
            )
            .await
            .unwrap_or(Value::Bool(false));
        if fresh == Value::Bool(true) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no page loaded after clicking {selector}");
}

/// The `href` of the element `xpath` finds.
async fn href(c: &Client, xpath: &str) -> String {
    c.find(Locator::XPath(xpath))
        .await
        .unwrap_or_else(|_| panic!("nothing at {xpath}"))
        .attr("href")
        .await
        .unwrap()
        .unwrap()
}

/// Opens the link with this text, as a click would.
async fn follow(c: &Client, app: &App, link: &str) {
    let href = c
        .find(Locator::LinkText(link))
        .await
        .unwrap_or_else(|_| panic!("no link {link}"))
        .attr("href")
        .await
        .unwrap()
        .unwrap();
    let url = if href.starts_with("http") {
        href
    } else {
        format!("{}{href}", app.base)
    };
    c.goto(&url).await.unwrap();
}

async fn submit(c: &Client) {
    click_and_wait(c, "main form[method=post] button[type=submit]").await;
}

async fn text(c: &Client) -> String {
    c.find(Locator::Css("main"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

async fn path(c: &Client) -> String {
    let url = c.current_url().await.unwrap();
    format!(
        "{}{}",
        url.path(),
        url.query().map(|q| format!("?{q}")).unwrap_or_default()
    )
}

async fn sign_in(c: &Client, app: &App, login: &str) {
    c.goto(&format!("{}/painel", app.base)).await.unwrap();
    assert!(
        path(c).await.starts_with("/painel/entrar"),
        "{}",
        path(c).await
    );
    c.find(Locator::Id("login"))
        .await
        .unwrap()
        .send_keys(login)
        .await
        .unwrap();
    c.find(Locator::Id("password"))
        .await
        .unwrap()
        .send_keys(PASSWORD)
        .await
        .unwrap();
    submit(c).await;
    assert_eq!(path(c).await, "/painel");
}

async fn sign_out(c: &Client) {
    click_and_wait(c, "header form button").await;
    assert_eq!(path(c).await, "/painel/entrar");
}

async fn open_form(c: &Client, app: &App, op: &str) {
    c.goto(&format!("{}/painel/acao/{op}", app.base))
        .await
        .unwrap();
}

async fn register_driver(c: &Client, app: &App, cpf: &str, cnh: &str, certificates: bool) {
    open_form(c, app, "registry.create_driver").await;
    for (k, v) in [
        ("name", "José da Silva"),
        ("cpf", cpf),
        ("cnh.number", cnh),
        ("cnh.category", "B"),
        ("cnh.ear", "true"),
        ("cnh.expires_on", "2030-01-01"),
        ("cnh.first_license_date", "2010-01-01"),
    ] {
        set(c, k, v).await;
    }
    if certificates {
        for (i, court) in ["estadual_1", "estadual_2", "federal_1", "federal_2"]
            .iter()
            .enumerate()
        {
            set(c, &format!("criminal_certificates.{i}.court"), court).await;
            set(
                c,
                &format!("criminal_certificates.{i}.issued_on"),
                "2026-11-01",
            )
            .await;
            set(
                c,
                &format!("criminal_certificates.{i}.valid_until"),
                "2027-01-30",
            )
            .await;
            set(c, &format!("criminal_certificates.{i}.clear"), "true").await;
        }
    }
    submit(c).await;
    assert!(
        path(c).await.starts_with("/painel/ver/drivers/"),
        "{}: {}",
        path(c).await,
        text(c).await
    );
}

async fn register_car(c: &Client, app: &App, plate: &str, renavam: &str) {
    open_form(c, app, "registry.create_vehicle").await;
    fill_car(c, plate, renavam).await;
    submit(c).await;
    assert!(
        path(c).await.starts_with("/painel/ver/vehicles/"),
        "{}: {}",
        path(c).await,
        text(c).await
    );
}

async fn fill_car(c: &Client, plate: &str, renavam: &str) {
    for (k, v) in [
        ("plate", plate),
        ("renavam", renavam),
        ("make", "Chevrolet"),
        ("model", "Onix Plus"),
        ("color", "Prata"),
        ("model_year", "2022"),
        ("doors", "4"),
        ("air_conditioning", "true"),
        ("capacity_including_driver", "5"),
        ("registration_municipality_ibge", "5101803"),
        ("owner_type", "locadora_pj"),
        ("owner_document", "11.222.333/0001-81"),
    ] {
        set(c, k, v).await;
    }
}

async fn grant(c: &Client, app: &App, cpf: &str, plate: &str) {
    open_form(c, app, "authorizations.grant").await;
    set(c, "driver_id", cpf).await;
    set(c, "vehicle_id", plate).await;
    set(c, "fee_paid_on", "2026-11-20").await;
    submit(c).await;
}

/// The bytes behind a link of the page, fetched with the browser's session cookie.
async fn download(c: &Client, app: &App, href: &str) -> Vec<u8> {
    let cookies = c.get_all_cookies().await.unwrap();
    let header = cookies
        .iter()
        .map(|k| format!("{}={}", k.name(), k.value()))
        .collect::<Vec<_>>()
        .join("; ");
    let url = if href.starts_with("http") {
        href.to_owned()
    } else {
        format!("{}{href}", app.base)
    };
    let res = reqwest::Client::new()
        .get(url)
        .header("Cookie", header)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "application/pdf");
    res.bytes().await.unwrap().to_vec()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn officials_work_both_laws_in_a_real_browser() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    app.official("carla.sis", "Carla Infraestrutura", "charter_issuer")
        .await;
    app.official("helena.admin", "Helena Prado", "admin").await;
    let driver = chromedriver().await;
    let c = browser(&driver, 1280).await;

    // Ride-hailing: register, grant, download the sticker, verify it.
    c.goto(&format!("{}/painel/entrar", app.base))
        .await
        .unwrap();
    shot(&c, "login-1280").await;
    sign_in(&c, &app, "ana.smf").await;
    shot(&c, "home-1280").await;
    register_driver(&c, &app, "529.982.247-25", "58316794534", true).await;
    register_car(&c, &app, "BRA2E19", "13824652268").await;
    grant(&c, &app, "529.982.247-25", "BRA2E19").await;
    let here = path(&c).await;
    assert!(
        here.starts_with("/painel/ver/app-authorizations/"),
        "{here}: {}",
        text(&c).await
    );
    let page = text(&c).await;
    assert!(page.contains("APP-2026/000001"), "{page}");
    assert!(
        page.contains("Conceder autorização (aplicativo) — registrado"),
        "{page}"
    );
    shot(&c, "authorization-1280").await;
    let sticker = href(
        &c,
        "//tr[td[contains(., 'Adesivo do para-brisa')]]//a[contains(., 'Baixar PDF')]",
    )
    .await;
    let pdf = download(&c, &app, &sticker).await;
    let codes = pdf::qr_codes(&pdf);
    let url = codes
        .iter()
        .find(|u| u.starts_with(&format!("{}/v/", app.base)))
        .unwrap_or_else(|| panic!("no verification QR in {codes:?}"));
    c.goto(url).await.unwrap();
    let verdict = c
        .find(Locator::Css("h1"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(verdict, "AUTORIZADO");
    shot(&c, "verification-1280").await;

    // A refused grant: the article beside the driver's field, what was typed kept.
    register_driver(&c, &app, "111.444.777-35", "65821310502", false).await;
    register_car(&c, &app, "ABC1234", "08543317523").await;
    grant(&c, &app, "111.444.777-35", "ABC1234").await;
    let beside = c
        .find(Locator::Id("e-driver_id"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(beside.contains("art. 12, III"), "{beside}");
    let kept = c
        .find(Locator::Id("f-driver_id"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap();
    assert_eq!(kept.as_deref(), Some("111.444.777-35"));
    shot(&c, "grant-refused-1280").await;

    // A form posted without its CSRF token is refused, and records nothing.
    open_form(&c, &app, "registry.create_vehicle").await;
    c.execute(
        "document.querySelector('main form[method=post] [name=_csrf]').remove()",
        vec![],
    )
    .await
    .unwrap();
    fill_car(&c, "QWE1R23", "09769017014").await;
    submit(&c).await;
    assert!(
        text(&c).await.contains("Formulário recusado"),
        "{}",
        text(&c).await
    );
    assert!(app.store.search("QWE1R23").await.unwrap().is_empty());
    c.goto(&format!("{}/painel", app.base)).await.unwrap();
    sign_out(&c).await;
    // After logout the back office asks to sign in again.
    c.goto(&format!("{}/painel", app.base)).await.unwrap();
    assert!(path(&c).await.starts_with("/painel/entrar"));

    // Charter: a company, its Termo, a minibus and the vistoria that issues its selo.
    app.clock.set(at("2025-06-02T16:00:00Z"));
    sign_in(&c, &app, "carla.sis").await;
    open_form(&c, &app, "charter.create_company").await;
    for (k, v) in [
        ("cnpj", "11.222.333/0001-81"),
        ("name", "Araguaia Fretamentos Ltda."),
        (
            "address",
            "Av. Ministro João Alberto, 100, Barra do Garças-MT",
        ),
        ("phone", "(66) 3401-0000"),
        ("email", "contato@araguaia.example"),
        ("modality", "continuo"),
        ("protocol", "SIS-2025/0042"),
        ("applied_on", "2025-05-20"),
    ] {
        set(&c, k, v).await;
    }
    for item in bodies::CHECKLIST_ITEMS {
        set(&c, &format!("checklist.{item}.reference"), "doc").await;
        set(&c, &format!("checklist.{item}.issued_on"), "2025-01-02").await;
        if item.starts_with("cnd") || item == "crf_fgts" {
            set(&c, &format!("checklist.{item}.valid_until"), "2026-12-31").await;
        }
    }
    shot(&c, "company-form-1280").await;
    submit(&c).await;
    let company = path(&c).await;
    assert!(
        company.starts_with("/painel/ver/charter/companies/"),
        "{company}: {}",
        text(&c).await
    );
    let company_id = company
        .trim_start_matches("/painel/ver/charter/companies/")
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    // The record's act opens the guided task, the company already named by its CNPJ.
    follow(&c, &app, "Emitir o Termo de Autorização").await;
    click_and_wait(&c, "button[value=conferir]").await;
    assert!(
        text(&c)
            .await
            .contains("O Termo valerá de 02/06/2025 a 02/06/2027"),
        "{}",
        text(&c).await
    );
    click_and_wait(&c, "button[value=emitir]").await;
    assert!(text(&c).await.contains("registrado"), "{}", text(&c).await);
    let termo_pdf = href(&c, "//a[contains(., 'Baixar PDF')]").await;
    assert!(download(&c, &app, &termo_pdf).await.starts_with(b"%PDF"));
    c.goto(&format!(
        "{}/painel/acao/charter.create_vehicle?id={company_id}",
        app.base
    ))
    .await
    .unwrap();
    for (k, v) in [
        ("plate", "QBA1C23"),
        ("renavam", "13824652268"),
        ("make", "Marcopolo"),
        ("model", "Volare W9"),
        ("kind", "micro_onibus"),
        ("doors", "2"),
        ("has_turnstile", "false"),
        ("seated_capacity", "20"),
        ("model_year", "2015"),
        ("first_registration_date", "2015-03-10"),
        ("owner_cnpj", "11.222.333/0001-81"),
        ("ownership_proof", "crv_e"),
        ("crlv_year", "2025"),
        ("insurance.policy", "RC-1"),
        ("insurance.insurer", "Seguradora Exemplo"),
        ("insurance.valid_from", "2025-01-01"),
        ("insurance.valid_to", "2026-12-31"),
        ("itv_report_date", "2025-05-02"),
        ("itv_provider", "ITV Credenciada Ltda."),
    ] {
        set(&c, k, v).await;
    }
    submit(&c).await;
    let vehicle = path(&c).await;
    assert!(
        vehicle.starts_with("/painel/ver/charter/vehicles/"),
        "{vehicle}: {}",
        text(&c).await
    );
    follow(&c, &app, "Registrar vistoria (selo)").await;
    set(&c, "performed_on", "2025-06-02").await;
    click_and_wait(&c, "button[value=conferir]").await;
    assert!(
        text(&c).await.contains("emitirá o selo do veículo QBA1C23"),
        "{}",
        text(&c).await
    );
    shot(&c, "task-vistoria-1280").await;
    click_and_wait(&c, "button[value=registrar]").await;
    let page = text(&c).await;
    assert!(page.contains("registrado"), "{page}");
    let selo = href(&c, "//a[contains(., 'Baixar PDF')]").await;
    let selo_pdf = download(&c, &app, &selo).await;
    assert!(
        !pdf::qr_codes(&selo_pdf).is_empty(),
        "the selo carries its QR code"
    );
    c.goto(&format!(
        "{}/painel/ver/charter/companies/{company_id}",
        app.base
    ))
    .await
    .unwrap();
    shot(&c, "company-1280").await;

    // Outside her law: the ride-hailing grant is refused, in Portuguese, naming the role.
    open_form(&c, &app, "authorizations.grant").await;
    let page = text(&c).await;
    assert!(page.contains("Fora da sua competência"), "{page}");
    assert!(
        page.contains("Emissor(a) — transporte por aplicativo") && !page.contains("_issuer"),
        "{page}"
    );
    // The menu stays, to go on from there.
    assert!(c.find(Locator::LinkText("Minha senha")).await.is_ok());
    c.goto(&format!("{}/painel", app.base)).await.unwrap();
    sign_out(&c).await;

    // The admin's accounts page.
    sign_in(&c, &app, "helena.admin").await;
    c.goto(&format!("{}/painel/servidores", app.base))
        .await
        .unwrap();
    assert!(text(&c).await.contains("carla.sis"));
    shot(&c, "officials-1280").await;
    sign_out(&c).await;
    c.close().await.unwrap();

    // The same pages on a phone, 390 px wide: nothing overflows sideways.
    let phone = browser(&driver, 390).await;
    app.clock.set(at("2026-11-30T16:00:00Z"));
    sign_in(&phone, &app, "ana.smf").await;
    shot(&phone, "home-390").await;
    for (name, url) in [
        ("authorization-390", here.clone()),
        (
            "grant-form-390",
            "/painel/acao/authorizations.grant".to_owned(),
        ),
        (
            "driver-form-390",
            "/painel/acao/registry.create_driver".to_owned(),
        ),
        ("list-390", "/painel/lista/authorization".to_owned()),
    ] {
        phone.goto(&format!("{}{url}", app.base)).await.unwrap();
        let overflow = overflows(&phone).await;
        shot(&phone, name).await;
        assert!(!overflow, "{name} overflows sideways at 390 px");
    }
    phone.close().await.unwrap();
}
