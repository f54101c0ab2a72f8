//! Every verdict of the public verification page on a phone (390 px, and 320 px for
//! the narrowest), in light and dark mode: the headline in words, what to do, nothing
//! overflowing sideways; and the inspector's page. Screenshots in `target/screenshots/`.

use fantoccini::{Client, Locator};
use selo::clock::Clock;
use serde_json::{Value, json};

use super::{App, at, browser, chromedriver, shot, spawn_app};

/// The API as an official with a personal token.
struct Api<'a> {
    app: &'a App,
    token: String,
    http: reqwest::Client,
}

impl Api<'_> {
    async fn send(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut req = self
            .http
            .request(method, format!("{}{path}", self.app.base))
            .bearer_auth(&self.token);
        if let Some(b) = body {
            req = req.json(&b);
        }
        let res = req.send().await.unwrap();
        let status = res.status();
        let text = res.text().await.unwrap();
        assert!(status.is_success(), "{path}: {status} {text}");
        serde_json::from_str(&text).unwrap_or(Value::Null)
    }

    async fn post(&self, path: &str, body: Value) -> Value {
        self.send(reqwest::Method::POST, path, Some(body)).await
    }

    /// Registers driver `cpf` (named `name`) and car `plate` and grants; the grant's answer.
    async fn grant(&self, name: &str, cpf: &str, cnh: &str, plate: &str, renavam: &str) -> Value {
        let mut driver = super::bodies::driver_body(cpf, cnh);
        driver["name"] = json!(name);
        let driver = self.post("/api/v1/drivers", driver).await;
        let car = self
            .post(
                "/api/v1/vehicles",
                super::bodies::vehicle_body(plate, renavam),
            )
            .await;
        self.post(
            "/api/v1/app-authorizations",
            json!({"driver_id": driver["id"], "vehicle_id": car["id"], "fee_paid_on": "2026-11-20"}),
        )
        .await
    }
}

/// A charter company with its Termo and a minibus with its selo de vistoria; the selo's token.
async fn charter_selo(api: &Api<'_>) -> String {
    let cnpj = "11.222.333/0001-81";
    let mut company = super::bodies::company_body(cnpj, "2027-12-31");
    company["name"] = json!("Araguaia Fretamentos e Turismo Ltda.");
    let company = api.post("/api/v1/charter/companies", company).await;
    let id = company["id"].as_str().unwrap();
    api.post(&format!("/api/v1/charter/companies/{id}/termos"), json!({}))
        .await;
    // In force on 30/11/2026: a 2020 minibus, ITV of this month, insured to 2027.
    let mut bus =
        super::bodies::bus_body("QBA1C23", "13824652268", "micro_onibus", "2020-01-15", cnpj);
    bus["model_year"] = json!(2020);
    bus["crlv_year"] = json!(2026);
    bus["itv_report_date"] = json!("2026-11-02");
    bus["insurance"]["valid_to"] = json!("2027-12-31");
    let bus = api
        .post(&format!("/api/v1/charter/companies/{id}/vehicles"), bus)
        .await;
    let selo = api
        .post(
            &format!(
                "/api/v1/charter/vehicles/{}/vistorias",
                bus["id"].as_str().unwrap()
            ),
            json!({"performed_on": "2026-11-30", "approved": true, "inspector": "Fiscal SIS"}),
        )
        .await;
    let url = selo["selo"]["verification_url"].as_str().unwrap();
    url.rsplit('/').next().unwrap().to_owned()
}

fn token_of(grant: &Value) -> String {
    let url = grant["verification_url"].as_str().unwrap();
    url.rsplit('/').next().unwrap().to_owned()
}

/// A portrait photo: a plain face-like drawing, enough to see where the photo goes.
fn portrait() -> Vec<u8> {
    let img = image::RgbImage::from_fn(300, 400, |x, y| {
        let (dx, dy) = (f64::from(x) - 150.0, f64::from(y) - 170.0);
        if dx * dx / 90.0_f64.powi(2) + dy * dy / 115.0_f64.powi(2) < 1.0 {
            image::Rgb([224, 180, 140])
        } else if y > 300 {
            image::Rgb([30, 70, 140])
        } else {
            image::Rgb([200, 210, 220])
        }
    });
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 85)
        .encode_image(&img)
        .unwrap();
    out
}

/// The lowest contrast ratio of any visible text of the page, and that text.
const CONTRAST: &str = r"
const lum = (c) => {
  const [r, g, b] = c.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => {
    v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const behind = (e) => {
  for (; e; e = e.parentElement) {
    const c = getComputedStyle(e).backgroundColor;
    if (c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') return c;
  }
  return 'rgb(255, 255, 255)';
};
let worst = [99, ''];
for (const e of document.querySelectorAll('h1, h2, h3, p, dt, dd, li, a, label, span, footer')) {
  if (!e.offsetParent || !e.textContent.trim()) continue;
  const a = lum(getComputedStyle(e).color), b = lum(behind(e));
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio < worst[0]) worst = [ratio, e.tagName + ': ' + e.textContent.trim().slice(0, 40)];
}
return worst;";

/// Opens `path`, checks the headline and that nothing overflows, and takes the screenshot.
pub(super) async fn verdict(
    c: &Client,
    app: &App,
    path: &str,
    headline: &str,
    name: &str,
) -> String {
    c.goto(&format!("{}{path}", app.base)).await.unwrap();
    let h1 = c
        .find(Locator::Css("h1"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(h1, headline, "{path}");
    let overflow = super::overflows(c).await;
    shot(c, name).await;
    assert!(!overflow, "{name} overflows sideways");
    // WCAG 2.2 AA: every visible text at least 4.5:1 against what is behind it.
    let worst = c.execute(CONTRAST, vec![]).await.unwrap();
    assert!(
        worst[0].as_f64().unwrap() >= 4.5,
        "{name}: contrast {worst} below 4.5:1"
    );
    c.find(Locator::Css("main"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_verdict_on_a_phone() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    app.official("fiscal.rui", "Rui Fiscal", "inspector").await;
    let actor = selo::storage::officials::CLI_OFFICIAL.to_string();
    let token =
        selo::issuance::officials::issue_token(&app.store, "ana.smf", &actor, app.clock.now())
            .await
            .unwrap();
    let api = Api {
        app: &app,
        token,
        http: reqwest::Client::new(),
    };
    let valid = api
        .grant(
            "Maria da Silva Souza",
            "529.982.247-25",
            "58316794534",
            "BRA2E19",
            "13824652268",
        )
        .await;
    let suspended = api
        .grant(
            "João Pereira Lima",
            "111.444.777-35",
            "65821310502",
            "ABC-1234",
            "08543317523",
        )
        .await;
    let revoked = api
        .grant(
            "Rita de Cássia Moraes",
            "123.456.789-09",
            "22571182500",
            "QWE1R23",
            "09769017014",
        )
        .await;
    // The valid one: a photo, and the vistoria that keeps it valid on the later days.
    let driver = valid["driver_id"].as_str().unwrap();
    let res = api
        .http
        .put(format!("{}/api/v1/drivers/{driver}/photo", app.base))
        .bearer_auth(&api.token)
        .header("content-type", "image/jpeg")
        .body(portrait())
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success());
    let id = |g: &Value| g["id"].as_str().unwrap().to_owned();
    api.post(
        &format!("/api/v1/app-authorizations/{}/vistorias", id(&valid)),
        json!({"performed_on": "2026-11-30", "approved": true, "inspector": "Fiscal SMF"}),
    )
    .await;
    // Presented, failed and notified: barred once its 15 days to fix pass (art. 26, II).
    api.post(
        &format!("/api/v1/app-authorizations/{}/vistorias", id(&suspended)),
        json!({"performed_on": "2026-11-30", "approved": false, "inspector": "Fiscal SMF",
            "notes": "Pneus carecas", "notified_on": "2026-11-30"}),
    )
    .await;
    api.post(
        &format!("/api/v1/app-authorizations/{}/sanctions", id(&suspended)),
        json!({"kind": "suspension", "effective_from": "2026-11-30", "days": 30,
            "reason": "Infração grave", "legal_basis": "art. 26, §1º"}),
    )
    .await;
    api.post(
        &format!("/api/v1/app-authorizations/{}/revocation", id(&revoked)),
        json!({"reason": "Cassação por fraude documental"}),
    )
    .await;

    let driver = chromedriver().await;
    for width in [390, 320] {
        let c = browser(&driver, width).await;
        let w = |name: &str| format!("verdict-{name}-{width}");
        let page = verdict(
            &c,
            &app,
            &format!("/v/{}", token_of(&valid)),
            "AUTORIZADO",
            &w("valid"),
        )
        .await;
        assert!(
            page.contains("Maria") && page.contains("Onix Plus"),
            "{page}"
        );
        let photo_loaded = c
            .execute(
                "const i = document.querySelector('.match img'); return !!i && i.complete && i.naturalWidth > 0;",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(photo_loaded, Value::Bool(true), "the driver's photo shows");
        let page = verdict(
            &c,
            &app,
            &format!("/v/{}", token_of(&suspended)),
            "SUSPENSO",
            &w("suspended"),
        )
        .await;
        assert!(page.contains("Não embarque"), "{page}");
        let page = verdict(
            &c,
            &app,
            &format!("/v/{}", token_of(&revoked)),
            "REVOGADO",
            &w("revoked"),
        )
        .await;
        assert!(
            page.contains("Não embarque") && !page.contains("Rita"),
            "{page}"
        );
        let mut forged = token_of(&valid).into_bytes();
        let i = forged.len() - 10;
        forged[i] = if forged[i] == b'x' { b'y' } else { b'x' };
        let forged = String::from_utf8(forged).unwrap();
        verdict(
            &c,
            &app,
            &format!("/v/{forged}"),
            "FALSO OU ALTERADO",
            &w("forged"),
        )
        .await;
        verdict(
            &c,
            &app,
            "/v/isto-nao-e-um-token",
            "CÓDIGO INVÁLIDO",
            &w("malformed"),
        )
        .await;
        let code = valid["documents"][1]["verification_code"].as_str().unwrap();
        let mut typo: Vec<char> = code.chars().collect();
        typo[0] = if typo[0] == '8' { 'B' } else { '8' };
        let typo: String = typo.into_iter().collect();
        let page = verdict(
            &c,
            &app,
            &format!("/v?codigo={typo}"),
            "CÓDIGO DIGITADO INCORRETAMENTE",
            &w("typo"),
        )
        .await;
        assert!(page.contains(&typo), "the code typed is shown back");
        verdict(
            &c,
            &app,
            "/v?codigo=000-000-000",
            "NÃO ENCONTRADO",
            &w("unknown"),
        )
        .await;
        verdict(&c, &app, "/v", "Verificar documento", &w("form")).await;
        c.close().await.unwrap();
    }

    // A charter selo (company and bus) at 360 and 320 px.
    app.official("carla.sis", "Carla Infraestrutura", "charter_issuer")
        .await;
    let charter = Api {
        app: &app,
        token: selo::issuance::officials::issue_token(
            &app.store,
            "carla.sis",
            &actor,
            app.clock.now(),
        )
        .await
        .unwrap(),
        http: reqwest::Client::new(),
    };
    let selo_token = charter_selo(&charter).await;
    for width in [360, 320] {
        let c = browser(&driver, width).await;
        let page = verdict(
            &c,
            &app,
            &format!("/v/{selo_token}"),
            "AUTORIZADO",
            &format!("verdict-charter-selo-{width}"),
        )
        .await;
        assert!(
            page.contains("Marcopolo") && page.contains("Araguaia Fretamentos"),
            "{page}"
        );
        c.close().await.unwrap();
    }

    // Signed by a key the city never published.
    let foreign = tempfile::tempdir().unwrap();
    selo::signing::keys::generate(foreign.path()).unwrap();
    let foreign = selo::signing::keys::load(foreign.path(), true).unwrap();
    let payload = selo::signing::token::TokenPayload {
        kind: "app_sticker".into(),
        document_id: uuid::Uuid::new_v4(),
        number: "APP-2026/000001".into(),
        plate: "BRA2E19".into(),
        issued_at: app.clock.now().timestamp(),
        valid_until: chrono::NaiveDate::from_ymd_opt(2027, 11, 20).unwrap(),
        issuer: "BDG-SMF".into(),
    };
    let alien = selo::signing::token::sign(&payload, &foreign.active);
    let c = browser(&driver, 390).await;
    verdict(
        &c,
        &app,
        &format!("/v/{alien}"),
        "NÃO RECONHECIDO",
        "verdict-unknown-key-390",
    )
    .await;
    c.close().await.unwrap();

    // Dark mode, for night use: dark background, light text, same verdict.
    let c = super::browser_with(&driver, 390, &["--blink-settings=preferredColorScheme=0"]).await;
    verdict(
        &c,
        &app,
        &format!("/v/{}", token_of(&valid)),
        "AUTORIZADO",
        "verdict-valid-390-dark",
    )
    .await;
    let colours = c
        .execute(
            "const s = getComputedStyle(document.body); return [s.backgroundColor, s.color];",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        colours,
        json!(["rgb(13, 17, 23)", "rgb(230, 237, 243)"]),
        "dark mode"
    );
    verdict(
        &c,
        &app,
        &format!("/v/{}", token_of(&revoked)),
        "REVOGADO",
        "verdict-revoked-390-dark",
    )
    .await;
    c.close().await.unwrap();

    // The valid authorization's car replaced (art. 8º §2º): the old sticker no longer
    // authorizes any car. The new car certified, then a suspension: the certidão is outdated.
    let spare = api
        .post(
            "/api/v1/vehicles",
            super::bodies::vehicle_body("RST4U56", "63110465006"),
        )
        .await;
    api.post(
        &format!("/api/v1/app-authorizations/{}/vehicle-substitutions", id(&valid)),
        json!({"new_vehicle_id": spare["id"], "cause": "venda",
            "vistoria": {"performed_on": "2026-11-30", "approved": true, "inspector": "Fiscal SMF"}}),
    )
    .await;
    let c = browser(&driver, 390).await;
    verdict(
        &c,
        &app,
        &format!("/v/{}", token_of(&valid)),
        "VEÍCULO SUBSTITUÍDO",
        "verdict-replaced-390",
    )
    .await;
    let certidao = api
        .post(
            &format!("/api/v1/app-authorizations/{}/certidoes", id(&valid)),
            json!({"subject": "app_vehicle", "protocol": "PG-2026/0001"}),
        )
        .await;
    api.post(
        &format!("/api/v1/app-authorizations/{}/sanctions", id(&valid)),
        json!({"kind": "suspension", "effective_from": "2026-11-30", "days": 2,
            "reason": "Infração média", "legal_basis": "art. 26, §1º"}),
    )
    .await;
    verdict(
        &c,
        &app,
        &format!("/v/{}", token_of(&certidao)),
        "DESATUALIZADA",
        "verdict-outdated-390",
    )
    .await;
    c.close().await.unwrap();

    // Later days: the suspended car, its failed vistoria never fixed, is barred (irregular) once
    // the suspension ends;
    // every authorization is expired a year on.
    let c = browser(&driver, 390).await;
    app.clock.set(at("2027-01-05T16:00:00Z"));
    let page = verdict(
        &c,
        &app,
        &format!("/v/{}", token_of(&suspended)),
        "IRREGULAR",
        "verdict-irregular-390",
    )
    .await;
    assert!(!page.contains("empresa"), "ride-hailing wording: {page}");
    app.clock.set(at("2027-11-21T16:00:00Z"));
    verdict(
        &c,
        &app,
        &format!("/v/{}", token_of(&valid)),
        "VENCIDO",
        "verdict-expired-390",
    )
    .await;

    // The inspector, signed in: the full record on the same page.
    app.clock.set(at("2026-11-30T16:00:00Z"));
    super::sign_in(&c, &app, "fiscal.rui").await;
    let page = verdict(
        &c,
        &app,
        &format!("/v/{}", token_of(&suspended)),
        "SUSPENSO",
        "verdict-inspector-390",
    )
    .await;
    for needle in [
        "Registro completo",
        "João Pereira Lima",
        "Suspensão",
        "Lavrar auto",
    ] {
        assert!(page.contains(needle), "{needle}: {page}");
    }
    c.close().await.unwrap();
}
