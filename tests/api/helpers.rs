//! `spawn_app()` and friends.

use std::path::Path;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use reqwest::StatusCode;
use selo::clock::{Clock, FixedClock};
use selo::settings::{Environment, Settings};
use selo::startup::Application;
use serde_json::{Value, json};
use sqlx::Connection;

pub const ADMIN_TOKEN: &str = "test-admin-token-0123456789";
pub const OUVIDORIA: &str = "(66) 3401-9999";
pub const PUBLIC_URL: &str = "https://selo.example.test";

/// 30/11/2026 12:00 in Barra do Garças (UTC−4).
/// An instant written as RFC 3339, for the test clock.
pub fn at(rfc3339: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(rfc3339).unwrap().to_utc()
}

pub fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-30T16:00:00Z")
        .unwrap()
        .to_utc()
}

pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub clock: Arc<FixedClock>,
    pub backend: &'static str,
    /// The test's own database, for tests that check what the database itself refuses.
    pub database_url: String,
    pub keys_dir: tempfile::TempDir,
    /// The SMTP server the service's outbox sends to.
    pub smtp: crate::smtp::SmtpServer,
    _data_dir: tempfile::TempDir,
}

/// A fresh database URL: a SQLite file in a temporary folder that does not exist yet, or a
/// new PostgreSQL database next to `TEST_DATABASE_URL`.
async fn fresh_database(data_dir: &Path) -> (String, &'static str) {
    match std::env::var("TEST_DATABASE_URL") {
        Ok(url) if url.starts_with("postgres") => {
            let mut conn = sqlx::PgConnection::connect(&url).await.unwrap_or_else(|e| {
                panic!("TEST_DATABASE_URL is set but PostgreSQL is unreachable: {e}")
            });
            let name = format!("selo_test_{}", uuid::Uuid::new_v4().simple());
            sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
                .execute(&mut conn)
                .await
                .expect("create test database");
            let base = url.rsplit_once('/').map_or(url.as_str(), |(b, _)| b);
            (format!("{base}/{name}"), "postgres")
        }
        Ok(other) if !other.is_empty() => {
            panic!("TEST_DATABASE_URL must be a postgres:// URL, got another scheme")
        }
        _ => (
            format!("sqlite://{}/nested/selo.db", data_dir.display()),
            "sqlite",
        ),
    }
}

pub async fn spawn_app() -> TestApp {
    let data_dir = tempfile::tempdir().unwrap();
    let (database_url, backend) = fresh_database(data_dir.path()).await;
    spawn_app_on(
        database_url,
        backend,
        tempfile::tempdir().unwrap(),
        data_dir,
    )
    .await
}

/// A fresh database URL for a second application beside `spawn_app`'s (same backend).
pub async fn another_database(data_dir: &Path) -> (String, &'static str) {
    fresh_database(data_dir).await
}

/// Starts the application on an existing database and keys folder (both kept alive by the
/// returned `TestApp`).
pub async fn spawn_app_on(
    database_url: String,
    backend: &'static str,
    keys_dir: tempfile::TempDir,
    data_dir: tempfile::TempDir,
) -> TestApp {
    // Rate limits off: the suite makes many requests from one address; tests/api/limits.rs
    // turns them on where it tests them.
    spawn_configured(
        database_url,
        backend,
        keys_dir,
        data_dir,
        selo::settings::Limits {
            rates: selo::settings::Rates::UNLIMITED,
            ..selo::settings::Limits::default()
        },
    )
    .await
}

/// `spawn_app` with other limits on what clients may hold.
pub async fn spawn_app_with_limits(limits: selo::settings::Limits) -> TestApp {
    let data_dir = tempfile::tempdir().unwrap();
    let (database_url, backend) = fresh_database(data_dir.path()).await;
    spawn_configured(
        database_url,
        backend,
        tempfile::tempdir().unwrap(),
        data_dir,
        limits,
    )
    .await
}

pub async fn spawn_configured(
    database_url: String,
    backend: &'static str,
    keys_dir: tempfile::TempDir,
    data_dir: tempfile::TempDir,
    limits: selo::settings::Limits,
) -> TestApp {
    spawn_with_profile(database_url, backend, keys_dir, data_dir, limits, None).await
}

/// `spawn_app` serving the municipality profile at `profile`.
pub async fn spawn_app_for(profile: std::path::PathBuf) -> TestApp {
    let data_dir = tempfile::tempdir().unwrap();
    let (database_url, backend) = fresh_database(data_dir.path()).await;
    spawn_with_profile(
        database_url,
        backend,
        tempfile::tempdir().unwrap(),
        data_dir,
        selo::settings::Limits {
            rates: selo::settings::Rates::UNLIMITED,
            ..selo::settings::Limits::default()
        },
        Some(profile),
    )
    .await
}

async fn spawn_with_profile(
    database_url: String,
    backend: &'static str,
    keys_dir: tempfile::TempDir,
    data_dir: tempfile::TempDir,
    limits: selo::settings::Limits,
    profile: Option<std::path::PathBuf>,
) -> TestApp {
    let smtp = crate::smtp::SmtpServer::start().await;
    spawn_mailing(
        database_url,
        backend,
        keys_dir,
        data_dir,
        limits,
        profile,
        smtp,
    )
    .await
}

/// The mail settings that send to the test's SMTP server.
pub fn mail_to(smtp: &crate::smtp::SmtpServer) -> selo::settings::Mail {
    selo::settings::Mail {
        smtp_url: Some(smtp.url()),
        from: "Prefeitura de Barra do Garças <selo@barradogarcas.mt.gov.br>".into(),
        poll: std::time::Duration::from_millis(200),
        reminder_poll: std::time::Duration::from_millis(200),
        ..selo::settings::Mail::default()
    }
}

/// Starts the application sending its e-mail to `smtp`.
pub async fn spawn_mailing(
    database_url: String,
    backend: &'static str,
    keys_dir: tempfile::TempDir,
    data_dir: tempfile::TempDir,
    limits: selo::settings::Limits,
    profile: Option<std::path::PathBuf>,
    smtp: crate::smtp::SmtpServer,
) -> TestApp {
    spawn_tuned(
        (database_url, backend),
        keys_dir,
        data_dir,
        limits,
        profile,
        smtp,
        |_| {},
    )
    .await
}

/// `spawn_app` signing applicants in through the OpenID Connect provider `oidc` names.
pub async fn spawn_app_with_oidc(oidc: selo::settings::Oidc) -> TestApp {
    spawn_app_tuned(|s| s.oidc = Some(oidc)).await
}

/// `spawn_app` with the test settings as `tune` changes them.
pub async fn spawn_app_tuned(tune: impl FnOnce(&mut Settings)) -> TestApp {
    let data_dir = tempfile::tempdir().unwrap();
    let database = fresh_database(data_dir.path()).await;
    spawn_tuned_unlimited(database, tempfile::tempdir().unwrap(), data_dir, tune).await
}

/// `spawn_tuned` with the rates off and no profile.
async fn spawn_tuned_unlimited(
    database: (String, &'static str),
    keys_dir: tempfile::TempDir,
    data_dir: tempfile::TempDir,
    tune: impl FnOnce(&mut Settings),
) -> TestApp {
    spawn_tuned(
        database,
        keys_dir,
        data_dir,
        selo::settings::Limits {
            rates: selo::settings::Rates::UNLIMITED,
            ..selo::settings::Limits::default()
        },
        None,
        crate::smtp::SmtpServer::start().await,
        tune,
    )
    .await
}

/// A copy of the folder `from` (a keys folder, say) in `to`.
pub fn copy_dir(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// Another node on `a`'s database, with a copy of its keys folder, as `tune` sets it.
pub async fn spawn_beside(a: &TestApp, tune: impl FnOnce(&mut Settings)) -> TestApp {
    let keys = tempfile::tempdir().unwrap();
    copy_dir(a.keys_dir.path(), keys.path());
    spawn_tuned_unlimited(
        (a.database_url.clone(), a.backend),
        keys,
        tempfile::tempdir().unwrap(),
        tune,
    )
    .await
}

/// Starts the application with the test settings, as `tune` changes them.
async fn spawn_tuned(
    (database_url, backend): (String, &'static str),
    keys_dir: tempfile::TempDir,
    data_dir: tempfile::TempDir,
    limits: selo::settings::Limits,
    profile: Option<std::path::PathBuf>,
    smtp: crate::smtp::SmtpServer,
    tune: impl FnOnce(&mut Settings),
) -> TestApp {
    let mut settings = Settings {
        listen: "127.0.0.1:0".into(),
        public_url: PUBLIC_URL.into(),
        database_url: database_url.clone(),
        keys_dir: keys_dir.path().to_path_buf(),
        environment: Environment::Development,
        admin_token: Some(ADMIN_TOKEN.into()),
        ouvidoria_phone: Some(OUVIDORIA.into()),
        profile,
        render_threads: 2,
        workers: 1,
        limits,
        mail: mail_to(&smtp),
        webhooks: selo::settings::Webhooks {
            poll: std::time::Duration::from_millis(100),
            ..selo::settings::Webhooks::default()
        },
        oidc: None,
        icp_policy: None,
        metrics_token: None,
        tsa: Ok(None),
        crl_timeout: std::time::Duration::from_secs(5),
    };
    tune(&mut settings);
    let clock = Arc::new(FixedClock::new(t0()));
    let app = Application::build(settings, clock.clone())
        .await
        .expect("application builds");
    let address = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    TestApp {
        address,
        client: reqwest::Client::new(),
        clock,
        backend,
        database_url,
        keys_dir,
        smtp,
        _data_dir: data_dir,
    }
}

pub use crate::bodies::{clear_certificates, driver_body, vehicle_body};

/// Valid identifiers for several drivers and vehicles (docs/readings.md, identifiers).
pub const CPFS: [&str; 3] = ["529.982.247-25", "111.444.777-35", "123.456.789-09"];
pub const CNHS: [&str; 3] = ["58316794534", "65821310502", "22571182500"];
pub const PLATES: [&str; 3] = ["BRA2E19", "ABC-1234", "QWE1R23"];
pub const RENAVAMS: [&str; 3] = ["13824652268", "08543317523", "09769017014"];

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    /// An official's POST; the answer is checked against the OpenAPI document.
    pub async fn post(&self, path: &str, body: &Value) -> reqwest::Response {
        let res = self
            .client
            .post(self.url(path))
            .bearer_auth(ADMIN_TOKEN)
            .json(body)
            .send()
            .await
            .unwrap();
        crate::contract::checked("post", path, res).await
    }

    /// An official's GET; the answer is checked against the OpenAPI document.
    pub async fn get_authed(&self, path: &str) -> reqwest::Response {
        let res = self
            .client
            .get(self.url(path))
            .bearer_auth(ADMIN_TOKEN)
            .send()
            .await
            .unwrap();
        crate::contract::checked("get", path, res).await
    }

    /// `get_authed` with an owned path, for closures that build it.
    pub async fn get_authed_owned(&self, path: String) -> reqwest::Response {
        self.get_authed(&path).await
    }

    /// The published JWK Set.
    pub async fn jwks(&self) -> Value {
        self.get("/.well-known/selo-keys.json")
            .await
            .json()
            .await
            .unwrap()
    }

    /// The text of the PDF of a document just issued (`doc["pdf"]`).
    pub async fn issued_pdf_text(&self, doc: &Value) -> String {
        let pdf = self
            .get_authed(doc["pdf"].as_str().unwrap())
            .await
            .bytes()
            .await
            .unwrap();
        pdf_text(&pdf).replace('\u{a0}', " ")
    }

    /// An official's GET, read as JSON.
    pub async fn get_json(&self, path: &str) -> Value {
        self.get_authed(path).await.json().await.unwrap()
    }

    /// The kinds of the events at a history endpoint.
    pub async fn event_kinds(&self, path: &str) -> Vec<String> {
        self.get_json(path).await["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["kind"].as_str().unwrap().to_owned())
            .collect()
    }

    /// An anonymous GET; the answer is checked against the OpenAPI document.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        let res = self.client.get(self.url(path)).send().await.unwrap();
        crate::contract::checked("get", path, res).await
    }

    pub async fn create_driver(&self, body: &Value) -> String {
        let res = self.post("/api/v1/drivers", body).await;
        assert_eq!(
            res.status(),
            StatusCode::CREATED,
            "{}",
            res.text().await.unwrap()
        );
        res.json::<Value>().await.unwrap()["id"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    pub async fn create_vehicle(&self, body: &Value) -> String {
        let res = self.post("/api/v1/vehicles", body).await;
        assert_eq!(
            res.status(),
            StatusCode::CREATED,
            "{}",
            res.text().await.unwrap()
        );
        res.json::<Value>().await.unwrap()["id"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    pub async fn grant(
        &self,
        driver_id: &str,
        vehicle_id: &str,
        fee_paid_on: &str,
    ) -> reqwest::Response {
        self.post(
            "/api/v1/app-authorizations",
            &json!({"driver_id": driver_id, "vehicle_id": vehicle_id, "fee_paid_on": fee_paid_on}),
        )
        .await
    }

    /// Registers driver 0 and vehicle 0 and grants; returns the 201 body.
    pub async fn granted(&self) -> Value {
        self.granted_to(0).await
    }

    /// A grant to the `i`-th driver of `CPFS` with the `i`-th car of `PLATES`.
    pub async fn granted_to(&self, i: usize) -> Value {
        let d = self.create_driver(&driver_body(CPFS[i], CNHS[i])).await;
        let v = self
            .create_vehicle(&vehicle_body(PLATES[i], RENAVAMS[i]))
            .await;
        let res = self.grant(&d, &v, "2026-11-20").await;
        assert_eq!(
            res.status(),
            StatusCode::CREATED,
            "{}",
            res.text().await.unwrap()
        );
        res.json().await.unwrap()
    }

    /// Records an approved SMF vistoria on `on` (APP-ART9: within 5 days of the grant).
    pub async fn vistoria(&self, grant: &Value, on: &str, approved: bool) -> reqwest::Response {
        let id = grant["id"].as_str().unwrap();
        self.post(
            &format!("/api/v1/app-authorizations/{id}/vistorias"),
            &json!({"performed_on": on, "approved": approved, "inspector": "Fiscal SMF"}),
        )
        .await
    }

    pub async fn document_bytes(&self, grant: &Value, kind: &str) -> Vec<u8> {
        let doc = grant["documents"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["kind"] == kind)
            .unwrap();
        let res = self.get_authed(doc["url"].as_str().unwrap()).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()["content-type"], "application/pdf");
        res.bytes().await.unwrap().to_vec()
    }

    pub async fn verify(&self, token: &str) -> (StatusCode, Value) {
        let res = self.get(&format!("/api/v1/verify/{token}")).await;
        let status = res.status();
        (status, res.json().await.unwrap())
    }
}

/// The (rule, field) of every error of a problem+json body.
pub fn failures(body: &Value) -> Vec<(String, String)> {
    body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["rule"].as_str().unwrap_or_default().to_owned(),
                e["field"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// The token at the end of a verification URL.
/// The verification URL of an authorization's sticker (a grant's or a record's body).
pub fn sticker_url(a: &Value) -> String {
    a["documents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["kind"] == "app_sticker")
        .unwrap()["verification_url"]
        .as_str()
        .unwrap()
        .to_owned()
}

pub fn token_of(url: &str) -> String {
    url.rsplit_once("/v/")
        .expect("verification URL")
        .1
        .to_owned()
}

pub use crate::pdf::{pdf_info, pdf_text, qr_codes};

/// A password every test official uses.
pub const OFFICIAL_PASSWORD: &str = "cavalo-bateria-grampo";

impl TestApp {
    /// The register, opened beside the running application.
    pub async fn store(&self) -> selo::storage::Store {
        selo::storage::Store::connect(&self.database_url)
            .await
            .unwrap()
    }

    /// Runs `statements` on the app's database directly, bypassing selo (data as an older
    /// version left it, or tampering).
    pub async fn exec_sql(&self, statements: &[&str]) {
        if self.backend == "postgres" {
            let mut c = sqlx::PgConnection::connect(&self.database_url)
                .await
                .unwrap();
            for s in statements {
                sqlx::query(sqlx::AssertSqlSafe(*s))
                    .execute(&mut c)
                    .await
                    .unwrap();
            }
        } else {
            let mut c = sqlx::SqliteConnection::connect(&self.database_url)
                .await
                .unwrap();
            for s in statements {
                sqlx::query(sqlx::AssertSqlSafe(*s))
                    .execute(&mut c)
                    .await
                    .unwrap();
            }
        }
    }

    /// The number `query` (a `SELECT COUNT(*) …`) answers on the app's database.
    pub async fn count(&self, query: &str) -> i64 {
        if self.backend == "postgres" {
            let mut c = sqlx::PgConnection::connect(&self.database_url)
                .await
                .unwrap();
            sqlx::query_scalar(sqlx::AssertSqlSafe(query))
                .fetch_one(&mut c)
                .await
                .unwrap()
        } else {
            let mut c = sqlx::SqliteConnection::connect(&self.database_url)
                .await
                .unwrap();
            sqlx::query_scalar(sqlx::AssertSqlSafe(query))
                .fetch_one(&mut c)
                .await
                .unwrap()
        }
    }

    /// Creates an official with `roles` (as `selo officials add` does) and returns a new
    /// personal API token of theirs.
    pub async fn official(&self, login: &str, name: &str, roles: &str) -> String {
        let store = self.store().await;
        let actor = selo::storage::officials::CLI_OFFICIAL.to_string();
        selo::issuance::officials::add(
            &store,
            &actor,
            login,
            name,
            roles,
            OFFICIAL_PASSWORD,
            self.clock.now(),
        )
        .await
        .unwrap();
        selo::issuance::officials::issue_token(&store, login, &actor, self.clock.now())
            .await
            .unwrap()
    }

    /// A request with a personal token (or none); JSON answers are checked against the
    /// OpenAPI document.
    pub async fn send_as(
        &self,
        token: Option<&str>,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> reqwest::Response {
        let m = reqwest::Method::from_bytes(method.to_ascii_uppercase().as_bytes()).unwrap();
        let mut req = self.client.request(m, self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(b);
        }
        let res = req.send().await.unwrap();
        crate::contract::checked(method, path, res).await
    }

    /// Sends `bytes` as the raw body, of `content_type` when given, with `token`.
    pub async fn send_file(
        &self,
        token: &str,
        method: &str,
        path: &str,
        content_type: Option<&str>,
        bytes: Vec<u8>,
    ) -> reqwest::Response {
        let m = reqwest::Method::from_bytes(method.to_ascii_uppercase().as_bytes()).unwrap();
        let mut req = self.client.request(m, self.url(path)).bearer_auth(token);
        if let Some(ct) = content_type {
            req = req.header("content-type", ct);
        }
        let res = req.body(bytes).send().await.unwrap();
        crate::contract::checked(method, path, res).await
    }
}

/// Reads one HTTP/1.1 request from `socket`: its head (request line and headers, without the
/// blank line) and its body of `Content-Length` bytes; `None` when the peer closed first.
pub async fn read_http_request(socket: &mut tokio::net::TcpStream) -> Option<(String, Vec<u8>)> {
    use tokio::io::AsyncReadExt as _;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let (head_end, length) = loop {
        let n = socket.read(&mut chunk).await.unwrap_or(0);
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok())
                .unwrap_or(0);
            break (end + 4, length);
        }
    };
    while buf.len() < head_end + length {
        let n = socket.read(&mut chunk).await.unwrap_or(0);
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let head = String::from_utf8_lossy(&buf[..head_end - 4]).into_owned();
    Some((head, buf[head_end..].to_vec()))
}
