//! The back office at `/painel` over HTTP — sign-in, sessions, CSRF, throttling,
//! roles, and acts done through forms that reach the same use cases as the JSON API.

use std::collections::HashMap;

use reqwest::StatusCode;
use reqwest::header::{COOKIE, LOCATION, SET_COOKIE};

use crate::helpers::{OFFICIAL_PASSWORD, TestApp, spawn_app};

/// A browser without JavaScript: a client that does not follow redirects, and its cookies.
pub(crate) struct Browser<'a> {
    app: &'a TestApp,
    pub(crate) client: reqwest::Client,
    cookies: HashMap<String, String>,
}

pub(crate) fn field(html: &str, name: &str) -> Option<String> {
    // The value of the tag that carries the name, whatever attributes lie between.
    let marker = format!("name=\"{name}\"");
    let start = html.find(&marker)? + marker.len();
    let tag = html[start..].split('>').next()?;
    let value = tag.split("value=\"").nth(1)?;
    Some(value.split('"').next()?.to_owned())
}

impl<'a> Browser<'a> {
    pub(crate) fn new(app: &'a TestApp) -> Self {
        Self {
            app,
            client: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap(),
            cookies: HashMap::new(),
        }
    }

    /// The application's address of `path`.
    pub(crate) fn app_url(&self, path: &str) -> String {
        self.app.url(path)
    }

    /// Keeps the cookies `res` sets, for a request sent by hand.
    pub(crate) fn keep_cookies(&mut self, res: &reqwest::Response) {
        self.keep(res);
    }

    fn keep(&mut self, res: &reqwest::Response) {
        for c in res.headers().get_all(SET_COOKIE) {
            let c = c.to_str().unwrap();
            let (pair, _) = c.split_once(';').unwrap_or((c, ""));
            let (k, v) = pair.split_once('=').unwrap();
            if v.is_empty() {
                self.cookies.remove(k);
            } else {
                self.cookies.insert(k.to_owned(), v.to_owned());
            }
        }
    }

    pub(crate) fn cookie_header(&self) -> String {
        self.cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    pub(crate) async fn get(&mut self, path: &str) -> (StatusCode, String, Option<String>) {
        let req = self.client.get(self.app.url(path));
        self.send(req).await
    }

    pub(crate) async fn post(
        &mut self,
        path: &str,
        form: &[(&str, &str)],
    ) -> (StatusCode, String, Option<String>) {
        let req = self.client.post(self.app.url(path)).form(form);
        self.send(req).await
    }

    /// Sends with the cookies kept; answers the status, the page and where it redirects.
    pub(crate) async fn send(
        &mut self,
        req: reqwest::RequestBuilder,
    ) -> (StatusCode, String, Option<String>) {
        let res = req
            .header(COOKIE, self.cookie_header())
            .send()
            .await
            .unwrap();
        self.keep(&res);
        let status = res.status();
        let location = res
            .headers()
            .get(LOCATION)
            .map(|l| l.to_str().unwrap().to_owned());
        (status, res.text().await.unwrap(), location)
    }

    /// Signs in through the form; the page's CSRF token of the session.
    pub(crate) async fn sign_in(
        &mut self,
        login: &str,
        password: &str,
    ) -> (StatusCode, String, Option<String>) {
        let (_, page, _) = self.get("/painel/entrar").await;
        let csrf = field(&page, "_csrf").unwrap();
        self.post(
            "/painel/entrar",
            &[
                ("_csrf", &csrf),
                ("login", login),
                ("password", password),
                ("volta", "/painel"),
            ],
        )
        .await
    }

    /// The CSRF token of the signed-in session, read from a page.
    async fn csrf(&mut self) -> String {
        let (_, page, _) = self.get("/painel").await;
        field(&page, "_csrf").unwrap()
    }
}

#[tokio::test]
async fn an_official_signs_in_and_out_and_a_wrong_password_changes_nothing() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let mut b = Browser::new(&app);
    let (status, _, location) = b.get("/painel").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(location.as_deref(), Some("/painel/entrar?volta=/painel"));

    // Wrong password and unknown login: the same answer, the login kept in the form.
    for (login, password) in [
        ("ana.smf", "senha-errada-123"),
        ("ninguem", OFFICIAL_PASSWORD),
    ] {
        let (status, page, _) = b.sign_in(login, password).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert!(page.contains("Login ou senha incorretos"), "{page}");
        assert!(page.contains(&format!("value=\"{login}\"")), "{page}");
        assert!(!b.cookies.contains_key("selo_sessao"));
    }

    let res = {
        let (_, page, _) = b.get("/painel/entrar").await;
        let csrf = field(&page, "_csrf").unwrap();
        b.client
            .post(app.url("/painel/entrar"))
            .header(COOKIE, b.cookie_header())
            .form(&[
                ("_csrf", csrf.as_str()),
                ("login", "ana.smf"),
                ("password", OFFICIAL_PASSWORD),
            ])
            .send()
            .await
            .unwrap()
    };
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let set: Vec<String> = res
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .map(|c| c.to_str().unwrap().to_owned())
        .collect();
    let session = set.iter().find(|c| c.starts_with("selo_sessao=")).unwrap();
    for attr in ["HttpOnly", "SameSite=Strict", "Secure", "Path=/;"] {
        assert!(session.contains(attr), "{session}");
    }
    b.keep(&res);
    let (status, page, _) = b.get("/painel").await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Ana Finanças"), "{page}");

    let csrf = b.csrf().await;
    let (status, _, location) = b.post("/painel/sair", &[("_csrf", &csrf)]).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(location.as_deref(), Some("/painel/entrar"));
    // The old cookie no longer opens anything, even if a browser kept it.
    let old = session.split(';').next().unwrap().to_owned();
    let res = b
        .client
        .get(app.url("/painel"))
        .header(COOKIE, old)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert!(
        res.headers()[LOCATION]
            .to_str()
            .unwrap()
            .contains("expirou=1"),
        "{:?}",
        res.headers()
    );
}

#[tokio::test]
async fn a_form_without_its_csrf_token_is_refused_and_records_nothing() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let mut b = Browser::new(&app);
    // The sign-in form itself needs its token.
    let (status, _, _) = b
        .post(
            "/painel/entrar",
            &[("login", "ana.smf"), ("password", OFFICIAL_PASSWORD)],
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        b.sign_in("ana.smf", OFFICIAL_PASSWORD).await.0,
        StatusCode::SEE_OTHER
    );
    let driver = [
        ("name", "José da Silva"),
        ("cpf", "529.982.247-25"),
        ("cnh.number", "58316794534"),
        ("cnh.category", "B"),
        ("cnh.ear", "true"),
        ("cnh.expires_on", "2030-01-01"),
        ("cnh.first_license_date", "2010-01-01"),
    ];
    for csrf in [None, Some("um-token-de-outra-sessao")] {
        let mut form = driver.to_vec();
        if let Some(c) = csrf {
            form.push(("_csrf", c));
        }
        let (status, page, _) = b.post("/painel/acao/registry.create_driver", &form).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert!(page.contains("Nada foi gravado"), "{page}");
    }
    let hits = app.store().await.search("52998224725").await.unwrap();
    assert!(hits.is_empty(), "{hits:?}");

    // With its token the same form registers the driver, named in the history.
    let csrf = b.csrf().await;
    let mut form = driver.to_vec();
    form.push(("_csrf", &csrf));
    let (status, _, location) = b.post("/painel/acao/registry.create_driver", &form).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let location = location.unwrap();
    assert!(location.starts_with("/painel/ver/drivers/"), "{location}");
    let (status, page, _) = b.get(&location).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains("Ana Finanças"),
        "the history names the official: {page}"
    );
    assert!(page.contains("registrado"), "{page}");
}

#[tokio::test]
async fn failed_sign_ins_are_throttled_per_login() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "auditor").await;
    let mut b = Browser::new(&app);
    for _ in 0..5 {
        assert_eq!(
            b.sign_in("ana.smf", "senha-errada-123").await.0,
            StatusCode::UNAUTHORIZED
        );
    }
    // Now even the right password waits.
    let (_, page, _) = b.get("/painel/entrar").await;
    let csrf = field(&page, "_csrf").unwrap();
    let res = b
        .client
        .post(app.url("/painel/entrar"))
        .header(COOKIE, b.cookie_header())
        .form(&[
            ("_csrf", csrf.as_str()),
            ("login", "ana.smf"),
            ("password", OFFICIAL_PASSWORD),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=2).contains(&wait), "{wait}");
    assert!(res.text().await.unwrap().contains("Aguarde"));
}

#[tokio::test]
async fn a_session_ends_when_idle_and_when_its_official_is_disabled() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "auditor").await;
    let mut b = Browser::new(&app);
    assert_eq!(
        b.sign_in("ana.smf", OFFICIAL_PASSWORD).await.0,
        StatusCode::SEE_OTHER
    );
    app.clock.advance(chrono::Duration::minutes(29));
    assert_eq!(b.get("/painel").await.0, StatusCode::OK);
    // Used 29 minutes later: the idle expiry counts again from there.
    app.clock.advance(chrono::Duration::minutes(29));
    assert_eq!(b.get("/painel").await.0, StatusCode::OK);
    app.clock.advance(chrono::Duration::minutes(31));
    let (status, _, location) = b.get("/painel").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert!(location.unwrap().contains("expirou=1"));

    assert_eq!(
        b.sign_in("ana.smf", OFFICIAL_PASSWORD).await.0,
        StatusCode::SEE_OTHER
    );
    assert_eq!(b.get("/painel").await.0, StatusCode::OK);
    let store = app.store().await;
    selo::issuance::officials::disable(
        &store,
        "ana.smf",
        &selo::storage::officials::CLI_OFFICIAL.to_string(),
        selo::clock::Clock::now(app.clock.as_ref()),
    )
    .await
    .unwrap();
    assert_eq!(b.get("/painel").await.0, StatusCode::SEE_OTHER);
    // A disabled official cannot sign in again either.
    assert_eq!(
        b.sign_in("ana.smf", OFFICIAL_PASSWORD).await.0,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn the_back_office_refuses_acts_outside_the_officials_roles_in_portuguese() {
    let app = spawn_app().await;
    app.official("carla.sis", "Carla Infraestrutura", "charter_issuer")
        .await;
    let mut b = Browser::new(&app);
    assert_eq!(
        b.sign_in("carla.sis", OFFICIAL_PASSWORD).await.0,
        StatusCode::SEE_OTHER
    );
    let (status, page, _) = b.get("/painel/acao/authorizations.grant").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(page.contains("Fora da sua competência"), "{page}");
    assert!(
        page.contains("Emissor(a) — transporte por aplicativo"),
        "{page}"
    );
    let csrf = b.csrf().await;
    let (status, _, _) = b
        .post(
            "/painel/acao/authorizations.grant",
            &[
                ("_csrf", &csrf),
                ("driver_id", "x"),
                ("vehicle_id", "y"),
                ("fee_paid_on", "2026-11-20"),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Her own law's forms open, and the start page offers only them.
    let (status, page, _) = b.get("/painel").await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("/painel/tarefa/empresa"), "{page}");
    assert!(
        !page.contains("/painel/acao/authorizations.grant"),
        "{page}"
    );
    assert_eq!(
        b.get("/painel/acao/charter.create_company").await.0,
        StatusCode::OK
    );
    // Only an admin manages accounts.
    assert_eq!(b.get("/painel/servidores").await.0, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_refused_grant_shows_each_requirement_beside_its_field_and_keeps_what_was_typed() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    // A driver without the criminal certificates of art. 12, III, and a car.
    let res = app
        .post(
            "/api/v1/drivers",
            &serde_json::json!({
                "name": "José da Silva", "cpf": "529.982.247-25",
                "cnh": {"number": "58316794534", "category": "B", "ear": true,
                        "expires_on": "2030-01-01", "first_license_date": "2010-01-01"}
            }),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    app.create_vehicle(&crate::helpers::vehicle_body("BRA2E19", "13824652268"))
        .await;
    let mut b = Browser::new(&app);
    assert_eq!(
        b.sign_in("ana.smf", OFFICIAL_PASSWORD).await.0,
        StatusCode::SEE_OTHER
    );
    let csrf = b.csrf().await;
    // The driver by CPF and the car by plate, as an official types them.
    let (status, page, _) = b
        .post(
            "/painel/acao/authorizations.grant",
            &[
                ("_csrf", &csrf),
                ("driver_id", "529.982.247-25"),
                ("vehicle_id", "BRA-2E19"),
                ("fee_paid_on", "2026-11-20"),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.contains("Requisitos legais não atendidos"), "{page}");
    // Beside the driver field: the failed requirement with its article and rule.
    let beside = page
        .split("id=\"e-driver_id\">")
        .nth(1)
        .and_then(|s| s.split("</p>").next())
        .unwrap_or_default();
    assert!(beside.contains("art. 12"), "{beside} / {page}");
    assert!(beside.contains("APP-ART12"), "{beside}");
    assert!(
        page.contains("value=\"529.982.247-25\""),
        "typed value kept: {page}"
    );
    assert!(page.contains("value=\"2026-11-20\""), "{page}");
    // Nothing was granted.
    let hits = app
        .store()
        .await
        .list("authorization", 10, 0)
        .await
        .unwrap();
    assert!(hits.0.is_empty());
}

#[tokio::test]
async fn the_search_box_finds_records_of_the_officials_own_law_only() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    app.official("carla.sis", "Carla Infraestrutura", "charter_issuer")
        .await;
    let grant = app.granted().await;
    let number = grant["number"].as_str().unwrap().to_owned();
    let mut ana = Browser::new(&app);
    assert_eq!(
        ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await.0,
        StatusCode::SEE_OTHER
    );
    let csrf = ana.csrf().await;
    for q in ["529.982.247-25", "bra2e19", &number] {
        let (status, page, _) = ana.post("/painel", &[("_csrf", &csrf), ("q", q)]).await;
        assert_eq!(status, StatusCode::OK);
        assert!(page.contains("/painel/ver/"), "{q}: {page}");
    }
    // A search never goes in the address (a CPF would land in logs and history): a query
    // string is not searched.
    let (_, page, _) = ana.get("/painel?q=52998224725").await;
    assert!(!page.contains("Resultados para"), "{page}");
    // The authorization's page: its data, documents to download and the acts it allows.
    let (_, page, _) = ana
        .post("/painel", &[("_csrf", &csrf), ("q", &number)])
        .await;
    let href = page
        .split("href=\"/painel/ver/app-authorizations/")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .unwrap();
    let (status, page, _) = ana
        .get(&format!("/painel/ver/app-authorizations/{href}"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains(&number), "{page}");
    assert!(page.contains("/painel/tarefa/revogacao?id="), "{page}");
    assert!(page.contains("Baixar PDF"), "{page}");
    let pdf = page
        .split("href=\"/painel/ver/documents/")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .unwrap();
    let res = ana
        .client
        .get(app.url(&format!("/painel/ver/documents/{pdf}")))
        .header(COOKIE, ana.cookie_header())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "application/pdf");
    assert!(res.bytes().await.unwrap().starts_with(b"%PDF"));

    let mut carla = Browser::new(&app);
    assert_eq!(
        carla.sign_in("carla.sis", OFFICIAL_PASSWORD).await.0,
        StatusCode::SEE_OTHER
    );
    let csrf = carla.csrf().await;
    let (_, page, _) = carla
        .post("/painel", &[("_csrf", &csrf), ("q", "52998224725")])
        .await;
    assert!(
        page.contains("Nada encontrado que seus papéis permitam ver"),
        "{page}"
    );
    let (status, _, _) = carla
        .get(&format!("/painel/ver/app-authorizations/{href}"))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
#[expect(
    clippy::too_many_lines,
    reason = "one story: create, sign in, change, reset, roles, history"
)]
async fn an_admin_manages_accounts_and_an_official_changes_their_own_password() {
    let app = spawn_app().await;
    app.official("helena.admin", "Helena Prado", "admin").await;
    let mut admin = Browser::new(&app);
    assert_eq!(
        admin.sign_in("helena.admin", OFFICIAL_PASSWORD).await.0,
        StatusCode::SEE_OTHER
    );
    let csrf = admin.csrf().await;
    // A weak password is refused with a clear message, what was typed kept.
    let (status, page, _) = admin
        .post(
            "/painel/servidores",
            &[
                ("_csrf", &csrf),
                ("login", "bruno.fiscal"),
                ("nome", "Bruno Fiscal"),
                ("papel", "inspector"),
                ("senha", "curta"),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.contains("12 caracteres"), "{page}");
    assert!(page.contains("value=\"bruno.fiscal\""), "{page}");
    assert!(page.contains("value=\"inspector\" checked"), "{page}");
    assert!(app.store().await.officials().await.unwrap().len() == 1);
    let (status, page, _) = admin
        .post(
            "/painel/servidores",
            &[
                ("_csrf", &csrf),
                ("login", "bruno.fiscal"),
                ("nome", "Bruno Fiscal"),
                ("papel", "inspector"),
                ("papel", "auditor"),
                ("senha", OFFICIAL_PASSWORD),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("bruno.fiscal cadastrado"), "{page}");

    // The new official signs in and changes their own password.
    let mut bruno = Browser::new(&app);
    assert_eq!(
        bruno.sign_in("bruno.fiscal", OFFICIAL_PASSWORD).await.0,
        StatusCode::SEE_OTHER
    );
    let csrf_b = bruno.csrf().await;
    let (status, page, _) = bruno
        .post(
            "/painel/senha",
            &[
                ("_csrf", &csrf_b),
                ("atual", "nao-e-a-senha"),
                ("nova", "outra-senha-bem-longa"),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.contains("A senha atual não confere"), "{page}");
    let (status, page, _) = bruno
        .post(
            "/painel/senha",
            &[
                ("_csrf", &csrf_b),
                ("atual", OFFICIAL_PASSWORD),
                ("nova", "outra-senha-bem-longa"),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    // Still signed in; the old password no longer opens a session.
    assert_eq!(bruno.get("/painel").await.0, StatusCode::OK);
    let mut again = Browser::new(&app);
    assert_eq!(
        again.sign_in("bruno.fiscal", OFFICIAL_PASSWORD).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        again
            .sign_in("bruno.fiscal", "outra-senha-bem-longa")
            .await
            .0,
        StatusCode::SEE_OTHER
    );

    // An admin's reset ends every session of the official at once.
    let (status, page, _) = admin
        .post(
            "/painel/servidores/bruno.fiscal",
            &[
                ("_csrf", &csrf),
                ("acao", "senha"),
                ("senha", "senha-redefinida-pelo-admin"),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(bruno.get("/painel").await.0, StatusCode::SEE_OTHER);
    assert_eq!(again.get("/painel").await.0, StatusCode::SEE_OTHER);
    // Roles change; the history of the account names who did each act.
    let (status, _, _) = admin
        .post(
            "/painel/servidores/bruno.fiscal",
            &[("_csrf", &csrf), ("acao", "papeis"), ("papel", "auditor")],
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let store = app.store().await;
    let bruno_account = store
        .official_by_login(&selo::domain::officials::Login::parse("bruno.fiscal").unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(bruno_account.official.roles.to_string(), "auditor");
    let events = store
        .events_of("official", &bruno_account.official.id.to_string())
        .await
        .unwrap();
    let kinds: Vec<(&str, &str)> = events
        .iter()
        .map(|e| (e.kind.as_str(), e.actor_name.as_str()))
        .collect();
    for expected in [
        ("official_created", "Helena Prado"),
        ("official_signed_in", "Bruno Fiscal"),
        ("official_password_changed", "Bruno Fiscal"),
        ("official_password_reset", "Helena Prado"),
        ("official_roles_changed", "Helena Prado"),
    ] {
        assert!(kinds.contains(&expected), "{expected:?} in {kinds:?}");
    }
}

#[tokio::test]
async fn a_session_ends_ten_hours_after_sign_in_however_used() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "auditor").await;
    let mut b = Browser::new(&app);
    assert_eq!(
        b.sign_in("ana.smf", OFFICIAL_PASSWORD).await.0,
        StatusCode::SEE_OTHER
    );
    // Used every 25 minutes: never idle, but 10 h is the most a session lives.
    for _ in 0..24 {
        app.clock.advance(chrono::Duration::minutes(25));
        assert_eq!(b.get("/painel").await.0, StatusCode::OK);
    }
    app.clock.advance(chrono::Duration::minutes(25));
    let (status, _, location) = b.get("/painel").await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{location:?}");
}

/// The driver's photo is sent from the driver's page, as a file, and refused with
/// its reason when it is not a usable photo.
#[tokio::test]
async fn an_issuer_uploads_a_drivers_photo_from_the_back_office() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let driver = grant["driver_id"].as_str().unwrap();
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let mut b = Browser::new(&app);
    b.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let (_, page, _) = b.get(&format!("/painel/ver/drivers/{driver}")).await;
    assert!(page.contains(&format!("/painel/foto/{driver}")), "{page}");
    assert!(
        page.contains("/fiscal/"),
        "the field verifier is in the menu"
    );
    let (status, form, _) = b.get(&format!("/painel/foto/{driver}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        form.contains("multipart/form-data") && form.contains("LGPD"),
        "{form}"
    );
    let csrf = field(&form, "_csrf").unwrap();
    let send = |bytes: Vec<u8>, csrf: String| {
        reqwest::multipart::Form::new().text("_csrf", csrf).part(
            "foto",
            reqwest::multipart::Part::bytes(bytes).file_name("foto.png"),
        )
    };
    // Not an image: the page says why, nothing stored.
    let req = b
        .client
        .post(app.url(&format!("/painel/foto/{driver}")))
        .multipart(send(b"not an image".to_vec(), csrf.clone()));
    let (status, page, _) = b.send(req).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(page.contains("JPEG ou PNG"), "{page}");
    // Without the session's CSRF token: refused.
    let png = {
        let img = image::RgbImage::from_pixel(300, 400, image::Rgb([200, 150, 120]));
        let mut out = Vec::new();
        image::DynamicImage::ImageRgb8(img)
            .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
            .unwrap();
        out
    };
    let req = b
        .client
        .post(app.url(&format!("/painel/foto/{driver}")))
        .multipart(send(png.clone(), "forged".into()));
    let (status, _, _) = b.send(req).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let token = crate::helpers::token_of(grant["verification_url"].as_str().unwrap());
    assert!(
        app.verify(&token).await.1["document"]["driver"]
            .get("photo_url")
            .is_none()
    );
    // A photo: stored, back to the driver's page, shown to passengers.
    let req = b
        .client
        .post(app.url(&format!("/painel/foto/{driver}")))
        .multipart(send(png, csrf));
    let (status, _, location) = b.send(req).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(
        location.unwrap(),
        format!("/painel/ver/drivers/{driver}?foto=ok")
    );
    assert!(app.verify(&token).await.1["document"]["driver"]["photo_url"].is_string());
    // The authorization's page links the sticker's print-shop file.
    let (_, page, _) = b
        .get(&format!(
            "/painel/ver/app-authorizations/{}",
            grant["id"].as_str().unwrap()
        ))
        .await;
    assert!(page.contains("/print"), "{page}");
}

#[tokio::test]
async fn the_search_finds_printed_codes_as_typed_and_names_without_accents() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let mut body = crate::bodies::driver_body(crate::helpers::CPFS[0], crate::helpers::CNHS[0]);
    body["name"] = serde_json::json!("Antônio Conceição Araújo");
    let driver = app.create_driver(&body).await;
    let vehicle = app
        .create_vehicle(&crate::bodies::vehicle_body(
            crate::helpers::PLATES[0],
            crate::helpers::RENAVAMS[0],
        ))
        .await;
    let res = app.grant(&driver, &vehicle, "2026-11-20").await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let grant: serde_json::Value = res.json().await.unwrap();
    let code = grant["documents"][1]["verification_code"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(code.len(), 11, "{code}");
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let csrf = ana.csrf().await;
    let typed = code.to_lowercase().replace('-', "");
    for q in [
        code.as_str(),
        typed.as_str(),
        "antonio",
        "CONCEICAO araujo",
        "Antônio",
    ] {
        let (status, page, _) = ana.post("/painel", &[("_csrf", &csrf), ("q", q)]).await;
        assert_eq!(status, StatusCode::OK);
        assert!(page.contains("/painel/ver/"), "{q}: {page}");
    }
    // A name that is not there finds nothing; two letters are too few, and the page says so.
    let (_, page, _) = ana
        .post("/painel", &[("_csrf", &csrf), ("q", "joaquim")])
        .await;
    assert!(
        !page.contains("/painel/ver/") && page.contains("Nada encontrado"),
        "{page}"
    );
    let (_, page, _) = ana.post("/painel", &[("_csrf", &csrf), ("q", "an")]).await;
    assert!(!page.contains("/painel/ver/"), "{page}");
    assert!(page.contains("digite ao menos 3 letras"), "{page}");
}

#[tokio::test]
async fn the_last_active_admin_can_neither_be_disabled_nor_lose_the_role() {
    let app = spawn_app().await;
    app.official("helena.adm", "Helena Prado", "admin").await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let mut helena = Browser::new(&app);
    helena.sign_in("helena.adm", OFFICIAL_PASSWORD).await;
    let csrf = helena.csrf().await;
    let (status, page, _) = helena
        .post(
            "/painel/servidores/helena.adm",
            &[("_csrf", &csrf), ("acao", "desativar")],
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(
        page.contains("último(a) administrador(a) ativo(a)"),
        "{page}"
    );
    let (status, page, _) = helena
        .post(
            "/painel/servidores/helena.adm",
            &[("_csrf", &csrf), ("acao", "papeis"), ("papel", "auditor")],
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    // Nothing changed: she is still an active admin and can still manage accounts.
    let (status, page, _) = helena.get("/painel/servidores").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let store = app.store().await;
    let official = selo::issuance::officials::find(&store, "helena.adm")
        .await
        .unwrap();
    assert!(official.active);
    assert!(
        official
            .roles
            .contains(selo::domain::officials::Role::Admin)
    );
    // With a second admin, the first may step down.
    let (status, page, _) = helena
        .post(
            "/painel/servidores/ana.smf",
            &[
                ("_csrf", &csrf),
                ("acao", "papeis"),
                ("papel", "admin"),
                ("papel", "ride_hailing_issuer"),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let (status, page, _) = helena
        .post(
            "/painel/servidores/helena.adm",
            &[("_csrf", &csrf), ("acao", "desativar")],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{page}");
}

#[tokio::test]
async fn one_logins_failures_do_not_throttle_a_colleague_at_the_same_address() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "auditor").await;
    app.official("bruno.smf", "Bruno Lima", "auditor").await;
    let mut b = Browser::new(&app);
    for _ in 0..8 {
        let status = b.sign_in("ana.smf", "senha-errada-123").await.0;
        assert!(
            [StatusCode::UNAUTHORIZED, StatusCode::TOO_MANY_REQUESTS].contains(&status),
            "{status}"
        );
    }
    assert_eq!(
        b.sign_in("ana.smf", OFFICIAL_PASSWORD).await.0,
        StatusCode::TOO_MANY_REQUESTS
    );
    // Bruno, behind the same address, signs in at once.
    let mut bruno = Browser::new(&app);
    assert_eq!(
        bruno.sign_in("bruno.smf", OFFICIAL_PASSWORD).await.0,
        StatusCode::SEE_OTHER
    );
    // A success clears that login's count: four typos after it are still free.
    for _ in 0..4 {
        assert_eq!(
            bruno.sign_in("bruno.smf", "senha-errada-123").await.0,
            StatusCode::UNAUTHORIZED
        );
    }
    assert_eq!(
        bruno.sign_in("bruno.smf", OFFICIAL_PASSWORD).await.0,
        StatusCode::SEE_OTHER
    );
    for _ in 0..4 {
        assert_eq!(
            bruno.sign_in("bruno.smf", "senha-errada-123").await.0,
            StatusCode::UNAUTHORIZED
        );
    }
}

#[tokio::test]
async fn the_refusal_page_names_the_roles_in_portuguese_and_keeps_the_menu() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "auditor").await;
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let (status, page, _) = ana.get("/painel/acao/authorizations.grant").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(
        page.contains("Emissor(a) — transporte por aplicativo"),
        "{page}"
    );
    assert!(!page.contains("ride_hailing_issuer"), "{page}");
    assert!(
        page.contains("Minha senha") && page.contains("Sair"),
        "{page}"
    );
}
