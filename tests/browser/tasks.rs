//! A clerk at the counter with a new driver's papers: the guided task registers the driver and
//! the car and grants, counted in fields typed and clicks; "Conferir" shows a stale
//! certificate beside its field before anything is written; with both registered, the grant
//! is the CPF, the plate and the day of the fee.

use fantoccini::{Client, Locator};
use selo::clock::Clock as _;
use serde_json::Value;

use super::{
    App, at, browser, chromedriver, click_and_wait, download, href, overflows, path, pdf, set,
    shot, sign_in, spawn_app, text,
};

/// What the clerk did after signing in.
#[derive(Default)]
struct Count {
    fields: usize,
    clicks: usize,
}

impl Count {
    /// Types `value` in the field `name`: keys for a text box, the value for a date or a
    /// choice (a date input takes its day whatever the locale this way).
    async fn field(&mut self, c: &Client, name: &str, value: &str) {
        let e = c
            .find(Locator::Css(&format!("[name=\"{name}\"]")))
            .await
            .unwrap_or_else(|_| panic!("no field {name}"));
        let kind = e.attr("type").await.unwrap().unwrap_or_default();
        let tag = e.tag_name().await.unwrap();
        if tag == "input" && (kind == "text" || kind == "number") {
            e.clear().await.unwrap();
            e.send_keys(value).await.unwrap();
        } else {
            set(c, name, value).await;
        }
        self.fields += 1;
    }

    async fn click(&mut self, c: &Client, selector: &str) {
        click_and_wait(c, selector).await;
        self.clicks += 1;
    }
}

const TASK_LINK: &str = "a[href=\"/painel/tarefa/autorizacao\"]";
const CONFERIR: &str = "button[value=conferir]";
const CONCEDER: &str = "button[value=conceder]";

/// The papers of a new driver and a new car, typed into the task.
async fn type_papers(c: &Client, n: &mut Count, cpf: &str, cnh: &str, federal_1: &str) {
    for (name, value) in [
        ("cpf", cpf),
        ("name", "Antônio Pereira Lima"),
        ("cnh.number", cnh),
        ("cnh.category", "B"),
        ("cnh.ear", "true"),
        ("cnh.first_license_date", "2015-03-10"),
        ("cnh.expires_on", "2030-03-15"),
        ("criminal_certificates.estadual_1", "2026-11-10"),
        ("criminal_certificates.estadual_2", "2026-11-10"),
        ("criminal_certificates.federal_1", federal_1),
        ("criminal_certificates.federal_2", "2026-11-10"),
        ("vehicle.plate", "QWE1R23"),
        ("vehicle.renavam", "09769017014"),
        ("vehicle.make", "Fiat"),
        ("vehicle.model", "Cronos"),
        ("vehicle.color", "Branca"),
        ("vehicle.model_year", "2023"),
        ("fee_paid_on", "2026-11-20"),
    ] {
        n.field(c, name, value).await;
    }
}

async fn registered(app: &App, cpf: &str) -> bool {
    !app.store.search(cpf).await.unwrap().is_empty()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clerk_grants_from_the_papers_in_one_task() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let driver = chromedriver().await;
    let c = browser(&driver, 1280).await;
    sign_in(&c, &app, "ana.smf").await;

    // A certificate of 22/08/2026 on 30/11/2026: "Conferir" says so beside it, with its
    // article, and nothing is written.
    let mut n = Count::default();
    n.click(&c, TASK_LINK).await;
    type_papers(&c, &mut n, "111.444.777-35", "65821310502", "2026-08-22").await;
    n.click(&c, CONFERIR).await;
    let beside = c
        .find(Locator::Id("e-criminal_certificates.federal_1"))
        .await
        .unwrap_or_else(|_| panic!("no error beside the certificate"))
        .text()
        .await
        .unwrap();
    assert!(beside.contains("tem 100 dias"), "{beside}");
    assert!(beside.contains("art. 12, III"), "{beside}");
    assert!(text(&c).await.contains("nada foi gravado"));
    assert!(!registered(&app, "11144477735").await);
    shot(&c, "task-grant-conferir-1280").await;

    // The compliant papers: ≤ 30 fields and ≤ 10 clicks after sign-in, one submission, no
    // refusal.
    c.goto(&format!("{}/painel", app.base)).await.unwrap();
    let mut n = Count::default();
    n.click(&c, TASK_LINK).await;
    type_papers(&c, &mut n, "111.444.777-35", "65821310502", "2026-11-10").await;
    n.click(&c, CONCEDER).await;
    let here = path(&c).await;
    assert!(
        here.starts_with("/painel/ver/app-authorizations/"),
        "{here}: {}",
        text(&c).await
    );
    let page = text(&c).await;
    assert!(page.contains("APP-2026/000001"), "{page}");
    shot(&c, "task-grant-done-1280").await;
    let sticker = href(
        &c,
        "//tr[td[contains(., 'Adesivo do para-brisa')]]//a[contains(., 'Baixar PDF')]",
    )
    .await;
    n.clicks += 1;
    let pdf = download(&c, &app, &sticker).await;
    let old_sticker = pdf::qr_codes(&pdf)
        .into_iter()
        .find(|u| u.starts_with(&format!("{}/v/", app.base)))
        .expect("the sticker's verification QR");
    assert!(n.fields <= 30, "{} fields typed", n.fields);
    assert!(n.clicks <= 10, "{} clicks", n.clicks);
    println!(
        "new driver and car granted: {} fields, {} clicks",
        n.fields, n.clicks
    );

    // Its car presented to the vistoria (art. 9º), as the inspector records it.
    let first = here
        .trim_start_matches("/painel/ver/app-authorizations/")
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    api_post(
        &app,
        &format!("/api/v1/app-authorizations/{first}/vistorias"),
        &serde_json::json!({"performed_on": "2026-11-30", "approved": true, "inspector": "Fiscal SMF"}),
    )
    .await;

    // Driver and car registered (a grant of the year before, revoked… or simply entered):
    // the CPF, the plate, the day of the fee and one click.
    register_pair(&app).await;
    c.goto(&format!("{}/painel", app.base)).await.unwrap();
    let mut n = Count::default();
    n.click(&c, TASK_LINK).await;
    n.field(&c, "cpf", "529.982.247-25").await;
    n.field(&c, "vehicle.plate", "bra2e19").await;
    n.field(&c, "fee_paid_on", "2026-11-25").await;
    n.click(&c, CONCEDER).await;
    assert!(
        path(&c)
            .await
            .starts_with("/painel/ver/app-authorizations/"),
        "{}",
        text(&c).await
    );
    assert!(text(&c).await.contains("APP-2026/000002"));
    assert!(n.fields + n.clicks <= 5, "{} actions", n.fields + n.clicks);

    // A year later, from the worklist: the renewal with the certificates brought again; a
    // new sticker in force, and the old one expired the day after its year.
    app.clock.set(at("2027-11-01T15:00:00Z"));
    // A session lasts a working day: a year later the clerk signs in again.
    sign_in(&c, &app, "ana.smf").await;
    c.goto(&format!("{}/painel/pendencias", app.base))
        .await
        .unwrap();
    click_and_wait(
        &c,
        "tr:has(a[href*='/painel/tarefa/renovacao']) a[href*='/painel/tarefa/renovacao']",
    )
    .await;
    let number = c
        .find(Locator::Css("[name=autorizacao]"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default();
    // The first to end comes first.
    assert_eq!(number, "APP-2026/000001");
    for court in ["estadual_1", "estadual_2", "federal_1", "federal_2"] {
        set(&c, &format!("criminal_certificates.{court}"), "2027-10-20").await;
    }
    set(&c, "fee_paid_on", "2027-11-01").await;
    click_and_wait(&c, "button[value=conferir]").await;
    assert!(text(&c).await.contains("Conferido"), "{}", text(&c).await);
    shot(&c, "task-renewal-1280").await;
    click_and_wait(&c, "button[value=renovar]").await;
    let page = text(&c).await;
    assert!(page.contains("APP-2027/000001"), "{page}");
    let sticker = href(
        &c,
        "//tr[td[contains(., 'Adesivo do para-brisa')]]//a[contains(., 'Baixar PDF')]",
    )
    .await;
    let new_sticker = pdf::qr_codes(&download(&c, &app, &sticker).await)
        .into_iter()
        .find(|u| u.starts_with(&format!("{}/v/", app.base)))
        .expect("the new sticker's verification QR");
    let verdict = |url: String| {
        let c = c.clone();
        async move {
            c.goto(&url).await.unwrap();
            c.find(Locator::Css("h1"))
                .await
                .unwrap()
                .text()
                .await
                .unwrap()
        }
    };
    assert_eq!(verdict(new_sticker).await, "AUTORIZADO");
    app.clock.set(at("2027-11-21T15:00:00Z"));
    assert_eq!(verdict(old_sticker).await, "VENCIDO");
    c.close().await.unwrap();

    // The task on a phone: nothing overflows sideways.
    let phone = browser(&driver, 390).await;
    app.clock.set(at("2026-11-30T16:00:00Z"));
    sign_in(&phone, &app, "ana.smf").await;
    phone
        .goto(&format!("{}/painel/tarefa/autorizacao", app.base))
        .await
        .unwrap();
    let overflow = overflows(&phone).await;
    shot(&phone, "task-grant-390").await;
    assert!(!overflow, "the task overflows sideways at 390 px");
    phone.close().await.unwrap();
}

/// A driver and a car entered through the API, as an earlier day's work.
async fn register_pair(app: &App) {
    api_post(
        app,
        "/api/v1/drivers",
        &super::bodies::driver_body("529.982.247-25", "58316794534"),
    )
    .await;
    api_post(
        app,
        "/api/v1/vehicles",
        &super::bodies::vehicle_body("BRA2E19", "13824652268"),
    )
    .await;
}

/// An act through the API, as the signed-in clerk's colleague would do it.
async fn api_post(app: &App, path: &str, body: &Value) -> Value {
    api_post_as(app, "ana.smf", path, body).await
}

/// The charter clerk's year: the bus's annual vistoria and, a year on, the Termo's renewal,
/// each opened from "Pendências" and done in its task, each printing its new document.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_charter_clerk_renews_the_selo_and_the_termo_from_the_worklist() {
    let app = spawn_app().await;
    app.official("carla.sis", "Carla Infraestrutura", "charter_issuer")
        .await;
    // A colleague's work of 02/06/2025: the company, its Termo, a minibus and its vistoria.
    app.clock.set(at("2025-06-02T16:00:00Z"));
    let cnpj = "11.222.333/0001-81";
    let company = api_post_as(
        &app,
        "carla.sis",
        "/api/v1/charter/companies",
        &super::bodies::company_body(cnpj, "2026-12-31"),
    )
    .await;
    let c = company["id"].as_str().unwrap().to_owned();
    let first = api_post_as(
        &app,
        "carla.sis",
        &format!("/api/v1/charter/companies/{c}/termos"),
        &serde_json::json!({}),
    )
    .await;
    let bus = api_post_as(
        &app,
        "carla.sis",
        &format!("/api/v1/charter/companies/{c}/vehicles"),
        &super::bodies::bus_body("QBA1C23", "13824652268", "micro_onibus", "2015-03-10", cnpj),
    )
    .await;
    let vid = bus["id"].as_str().unwrap().to_owned();
    api_post_as(
        &app,
        "carla.sis",
        &format!("/api/v1/charter/vehicles/{vid}/vistorias"),
        &serde_json::json!({"performed_on": "2025-06-02", "approved": true, "inspector": "Fiscal SIS"}),
    )
    .await;

    // 25/05/2026: the ITV report of the month is filed; the annual vistoria ends on 02/06.
    app.clock.set(at("2026-05-25T15:00:00Z"));
    api_post_as(
        &app,
        "carla.sis",
        &format!("/api/v1/charter/vehicles/{vid}/itv"),
        &serde_json::json!({"report_date": "2026-05-20", "provider": "ITV Credenciada Ltda."}),
    )
    .await;
    let driver = chromedriver().await;
    let b = browser(&driver, 1280).await;
    sign_in(&b, &app, "carla.sis").await;
    b.goto(&format!("{}/painel/pendencias", app.base))
        .await
        .unwrap();
    let list = text(&b).await;
    assert!(list.contains("Vistoria anual do micro-ônibus"), "{list}");
    shot(&b, "worklist-charter-1280").await;
    click_and_wait(&b, "a[href*='/painel/tarefa/vistoria']").await;
    let plate = b
        .find(Locator::Css("[name=placa]"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default();
    assert_eq!(plate, "QBA1C23");
    set(&b, "performed_on", "2026-05-25").await;
    click_and_wait(&b, "button[value=conferir]").await;
    assert!(
        text(&b).await.contains("emitirá o selo do veículo QBA1C23"),
        "{}",
        text(&b).await
    );
    click_and_wait(&b, "button[value=registrar]").await;
    let selo = href(&b, "(//a[contains(., 'Baixar PDF')])[last()]").await;
    let qr = pdf::qr_codes(&download(&b, &app, &selo).await)
        .into_iter()
        .find(|u| u.starts_with(&format!("{}/v/", app.base)))
        .expect("the new selo's verification QR");
    b.goto(&qr).await.unwrap();
    let verdict = text(&b).await;
    assert!(verdict.contains("QBA1C23"), "{verdict}");
    assert!(verdict.contains("25/05/2027"), "valid a year: {verdict}");
    // The vistoria is no longer due.
    b.goto(&format!("{}/painel/pendencias?prazo=90", app.base))
        .await
        .unwrap();
    assert!(!text(&b).await.contains("Vistoria anual do micro-ônibus"));

    // 10/05/2027: the Termo's two years end on 02/06; renewed from the list with the five
    // certidões of art. 7º, II brought again.
    app.clock.set(at("2027-05-10T15:00:00Z"));
    sign_in(&b, &app, "carla.sis").await;
    b.goto(&format!("{}/painel/pendencias?tipo=renovacao", app.base))
        .await
        .unwrap();
    click_and_wait(&b, "a[href*='/painel/tarefa/termo']").await;
    for item in [
        "cnd_federal",
        "cnd_estadual",
        "cnd_municipal",
        "crf_fgts",
        "cndt",
    ] {
        set(&b, &format!("checklist.{item}"), "2027-05-02").await;
        set(&b, &format!("checklist.{item}.valid_until"), "2027-10-31").await;
    }
    click_and_wait(&b, "button[value=conferir]").await;
    let page = text(&b).await;
    assert!(
        page.contains(&format!(
            "O Termo valerá de 03/06/2027 a 02/06/2029, renovando o {}",
            first["number"].as_str().unwrap()
        )),
        "{page}"
    );
    shot(&b, "task-termo-renewal-1280").await;
    click_and_wait(&b, "button[value=emitir]").await;
    assert!(text(&b).await.contains("registrado"), "{}", text(&b).await);
    let termo = href(&b, "(//a[contains(., 'Baixar PDF')])[last()]").await;
    let termo_pdf = download(&b, &app, &termo).await;
    let qr = pdf::qr_codes(&termo_pdf)
        .into_iter()
        .find(|u| u.starts_with(&format!("{}/v/", app.base)))
        .expect("the new Termo's verification QR");
    b.goto(&qr).await.unwrap();
    let verdict = text(&b).await;
    assert!(verdict.contains("02/06/2029"), "{verdict}");
    b.close().await.unwrap();
}

/// An act through the API as `login`.
pub(super) async fn api_post_as(app: &App, login: &str, path: &str, body: &Value) -> Value {
    let token = selo::issuance::officials::issue_token(
        &app.store,
        login,
        &selo::storage::officials::CLI_OFFICIAL.to_string(),
        app.clock.now(),
    )
    .await
    .unwrap();
    let res = reqwest::Client::new()
        .post(format!("{}{path}", app.base))
        .bearer_auth(&token)
        .json(body)
        .send()
        .await
        .unwrap();
    assert!(
        res.status().is_success(),
        "{path}: {}",
        res.text().await.unwrap()
    );
    res.json().await.unwrap()
}

/// An inspector draws up an auto from the papers at 390 px, seeing its fine first; the clerk
/// opens its procedure from the auto's page, which offers the notification, then the defence.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_auto_is_drawn_up_and_its_procedure_walked_in_tasks() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    app.official("ivo.fiscal", "Ivo Fiscal", "inspector").await;
    register_pair(&app).await;
    let driver = chromedriver().await;
    let phone = browser(&driver, 390).await;
    sign_in(&phone, &app, "ivo.fiscal").await;
    phone
        .goto(&format!("{}/painel/tarefa/auto", app.base))
        .await
        .unwrap();
    set(&phone, "driver_id", "529.982.247-25").await;
    set(&phone, "infraction_id", "APP-ART27").await;
    set(&phone, "committed_at", "2026-11-30T08:00").await;
    set(&phone, "place", "Av. Ministro João Alberto").await;
    set(&phone, "facts", "Transporte de passageiro sem autorização.").await;
    click_and_wait(&phone, "button[value=conferir]").await;
    let page = text(&phone).await;
    assert!(page.contains("O auto proporá: multa de 950 UPFG"), "{page}");
    assert!(
        page.contains("Cadastrado(a): Maria da Silva Souza"),
        "{page}"
    );
    shot(&phone, "task-auto-conferir-390").await;
    assert!(
        !overflows(&phone).await,
        "the auto task overflows at 390 px"
    );
    click_and_wait(&phone, "button[value=lavrar]").await;
    let here = path(&phone).await;
    assert!(
        here.starts_with("/painel/ver/app-infraction-autos/"),
        "{here}"
    );
    phone.close().await.unwrap();

    // The clerk: from the auto's page to its procedure, which opens on the notification.
    let c = browser(&driver, 1280).await;
    sign_in(&c, &app, "ana.smf").await;
    c.goto(&format!("{}{here}", app.base)).await.unwrap();
    click_and_wait(&c, "a[href*='/painel/tarefa/procedimento']").await;
    let page = text(&c).await;
    assert!(page.contains("Notificação do autuado"), "{page}");
    assert!(
        page.contains("fase: lavrado, aguardando a notificação"),
        "{page}"
    );
    set(&c, "notified_on", "2026-11-30").await;
    set(&c, "juntada_on", "2026-11-30").await;
    click_and_wait(&c, "button[value=conferir]").await;
    let page = text(&c).await;
    assert!(page.contains("defesa até 15/12/2026"), "{page}");
    shot(&c, "task-procedure-conferir-1280").await;
    click_and_wait(&c, "button[value=registrar]").await;
    click_and_wait(&c, "a[href*='/painel/tarefa/procedimento']").await;
    let page = text(&c).await;
    assert!(
        page.contains("Ato a registrar: Defesa · Decisão · Pagamento da multa"),
        "{page}"
    );
    shot(&c, "task-procedure-defence-1280").await;
    c.close().await.unwrap();
}

/// A charter clerk files a company's application on a phone: the art. 7º list fits at 390 px,
/// and "Conferir" says what the Termo would still need.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_company_is_filed_from_its_papers_on_a_phone() {
    let app = spawn_app().await;
    app.official("carla.sis", "Carla Infraestrutura", "charter_issuer")
        .await;
    app.clock.set(at("2025-06-02T16:00:00Z"));
    let driver = chromedriver().await;
    let phone = browser(&driver, 390).await;
    sign_in(&phone, &app, "carla.sis").await;
    click_and_wait(&phone, "a[href='/painel/tarefa/empresa']").await;
    for (name, value) in [
        ("cnpj", "11.222.333/0001-81"),
        ("name", "Araguaia Fretamentos Ltda."),
        ("address", "Av. Ministro João Alberto, 100"),
        ("phone", "(66) 3401-0000"),
        ("email", "contato@araguaia.example"),
        ("modality", "continuo"),
        ("protocol", "SIS-2025/0042"),
        ("applied_on", "2025-05-20"),
        (
            "checklist.contrato_social.reference",
            "Contrato social, 3ª alteração",
        ),
        ("checklist.contrato_social.issued_on", "2024-03-01"),
    ] {
        set(&phone, name, value).await;
    }
    click_and_wait(&phone, "button[value=conferir]").await;
    let page = text(&phone).await;
    assert!(
        page.contains("A empresa será cadastrada, mas o Termo ainda não poderá ser emitido"),
        "{page}"
    );
    shot(&phone, "task-company-conferir-390").await;
    assert!(
        !overflows(&phone).await,
        "the company task overflows at 390 px"
    );
    click_and_wait(&phone, "button[value=cadastrar]").await;
    let here = path(&phone).await;
    assert!(here.starts_with("/painel/ver/charter/companies/"), "{here}");
    phone.close().await.unwrap();
}
