//! "Pendências": the back office lists what is due — an authorization near the end of its
//! year, a car never presented to its vistoria, an auto whose 90 days to notify are running
//! out — each row linking to its record and to the task that resolves it; CSV in Portuguese.

use reqwest::StatusCode;
use reqwest::header::COOKIE;
use serde_json::{Value, json};

use crate::bodies::{driver_body, vehicle_body};
use crate::helpers::{CNHS, CPFS, OFFICIAL_PASSWORD, PLATES, RENAVAMS, at, spawn_app};
use crate::panel::Browser;

#[tokio::test]
#[expect(
    clippy::too_many_lines,
    reason = "one clerk's morning: the register, the list, its filter, the start page, the CSV"
)]
async fn the_worklist_lists_what_is_due_with_links_to_its_tasks_and_exports_csv() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    // A: valid until 20/11/2027, its vistoria done.
    let a = app.granted().await;
    assert_eq!(
        app.vistoria(&a, "2026-11-30", true).await.status(),
        StatusCode::CREATED
    );
    // B: granted on 20/10/2027, its car never presented (art. 9º: 5 days).
    app.clock.set(at("2027-10-20T15:00:00Z"));
    let driver = app.create_driver(&driver_body(CPFS[1], CNHS[1])).await;
    let vehicle = app
        .create_vehicle(&vehicle_body(PLATES[1], RENAVAMS[1]))
        .await;
    let res = app.grant(&driver, &vehicle, "2027-10-20").await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let b: Value = res.json().await.unwrap();

    // On 31/10/2027: A ends in 20 days; an auto drawn up on 12/08/2027 and never notified has
    // 10 days left of its 90 (art. 22, §1º).
    app.clock.set(at("2027-10-31T15:00:00Z"));
    let auto = auto_drawn_up(
        &app,
        a["driver_id"].as_str().unwrap(),
        "2027-08-12T08:00",
        "2027-08-12T08:30",
    )
    .await;

    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let (status, page, _) = ana.get("/painel/pendencias?prazo=30").await;
    assert_eq!(status, StatusCode::OK);
    let row_of = |number: &str, what: &str| -> String {
        page.split("<tr>")
            .find(|r| r.contains(number) && r.contains(what))
            .unwrap_or_else(|| panic!("no row {number} / {what}: {page}"))
            .to_owned()
    };
    let a_number = a["number"].as_str().unwrap();
    let row = row_of(a_number, "renovar");
    assert!(
        row.contains("20/11/2027") && row.contains("faltam 20 dias"),
        "{row}"
    );
    assert!(
        row.contains(&format!(
            "/painel/tarefa/renovacao?id={}",
            a["id"].as_str().unwrap()
        )),
        "{row}"
    );
    assert!(
        row.contains("Maria da Silva Souza") && row.contains("BRA2E19"),
        "{row}"
    );
    let row = row_of(
        b["number"].as_str().unwrap(),
        "não apresentado à vistoria no prazo",
    );
    assert!(row.contains("vencido há"), "{row}");
    assert!(
        row.contains(&format!(
            "/painel/tarefa/vistoria-aplicativo?id={}",
            b["id"].as_str().unwrap()
        )),
        "{row}"
    );
    let row = row_of(auto["number"].as_str().unwrap(), "Notificar");
    assert!(
        row.contains("10/11/2027") && row.contains("faltam 10 dias"),
        "{row}"
    );
    assert!(
        row.contains(&format!(
            "/painel/tarefa/procedimento?id={}",
            auto["id"].as_str().unwrap()
        )),
        "{row}"
    );
    // Each task link opens its task, the authorization named by its number.
    let (status, page, _) = ana
        .get(&format!(
            "/painel/tarefa/renovacao?id={}",
            a["id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains(&format!("value=\"{a_number}\"")), "{page}");

    // Filtered by kind: only the autos.
    let (_, page, _) = ana.get("/painel/pendencias?prazo=30&tipo=auto").await;
    assert!(page.contains(auto["number"].as_str().unwrap()), "{page}");
    assert!(!page.contains(a_number), "{page}");
    // The start page shows the same, and links to the whole list.
    let (_, home, _) = ana.get("/painel").await;
    assert!(home.contains("Pendências dos próximos 30 dias"), "{home}");
    assert!(home.contains(a_number), "{home}");

    // The CSV opens in a Portuguese spreadsheet: BOM, `;`, headers in Portuguese.
    let res = ana
        .client
        .get(app.url("/painel/pendencias.csv?prazo=30"))
        .header(COOKIE, ana.cookie_header())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "text/csv; charset=utf-8");
    assert!(
        res.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains("pendencias-2027-10-31.csv")
    );
    let csv = res.text().await.unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "\u{feff}Prazo;Situação do prazo;Pendência;Registro;Interessado(a);Placa"
    );
    let line = lines.find(|l| l.contains(a_number)).unwrap();
    assert!(line.starts_with("20/11/2027;faltam 20 dias;"), "{line}");

    // Without a session: sign in first; a charter issuer sees their own register's list, not
    // this one's.
    let res = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(app.url("/painel/pendencias"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    app.official("carla.sis", "Carla Infraestrutura", "charter_issuer")
        .await;
    let mut carla = Browser::new(&app);
    carla.sign_in("carla.sis", OFFICIAL_PASSWORD).await;
    let (status, page, _) = carla.get("/painel/pendencias").await;
    assert_eq!(status, StatusCode::OK);
    assert!(!page.contains(a_number), "{page}");
}

#[tokio::test]
#[expect(
    clippy::too_many_lines,
    reason = "one charter clerk's list over a year: its rows, their links, the PDF"
)]
async fn the_charter_worklist_lists_termos_vistorias_itv_and_autos_and_prints_as_pdf() {
    use crate::charter::{auto, minibus_company, noon};
    let (app, c, minibus) = minibus_company().await;
    let vid = minibus["id"].as_str().unwrap();
    let res = app
        .post(
            &format!("/api/v1/charter/vehicles/{vid}/vistorias"),
            &json!({"performed_on": "2025-06-02", "approved": true, "inspector": "Fiscal SIS"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let a = auto(&app, &c, "FRET-ART19-I", "2026-05-04").await;
    app.official("carla.sis", "Carla Infraestrutura", "charter_issuer")
        .await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;

    // On 20/05/2026: the annual vistoria ends on 02/06/2026 (art. 13, §1º), the ITV of
    // 02/05/2025 lapsed on 02/11/2025 (art. 12, IV), the auto waits for its notice.
    app.clock.set(noon("2026-05-20"));
    let mut carla = Browser::new(&app);
    carla.sign_in("carla.sis", OFFICIAL_PASSWORD).await;
    let (status, page, _) = carla.get("/painel/pendencias?prazo=30").await;
    assert_eq!(status, StatusCode::OK);
    let row_of = |page: &str, needle: &str, what: &str| -> String {
        page.split("<tr>")
            .find(|r| r.contains(needle) && r.contains(what))
            .unwrap_or_else(|| panic!("no row {needle} / {what}: {page}"))
            .to_owned()
    };
    let row = row_of(&page, "QBA1C23", "Vistoria anual do micro-ônibus");
    assert!(
        row.contains("02/06/2026") && row.contains("faltam 13 dias"),
        "{row}"
    );
    // The company's bus is a micro-ônibus (art. 11), and the line says so.
    assert!(row.contains("Micro-ônibus QBA1C23"), "{row}");
    assert!(
        row.contains(&format!("/painel/tarefa/vistoria?id={vid}")),
        "{row}"
    );
    let row = row_of(&page, "QBA1C23", "ITV");
    assert!(row.contains("vencido há 199 dias"), "{row}");
    assert!(
        row.contains(&format!("/painel/acao/charter.file_itv?id={vid}")),
        "{row}"
    );
    let number = a["number"].as_str().unwrap();
    let row = row_of(&page, number, "Notificar a empresa");
    assert!(row.contains("aguardando há 16 dias"), "{row}");
    assert!(
        row.contains(&format!(
            "/painel/tarefa/procedimento-fretamento?id={}",
            a["id"].as_str().unwrap()
        )),
        "{row}"
    );
    // The Termo (until 02/06/2027) is not due within 90 days; its insurance is not either.
    let (_, page90, _) = carla.get("/painel/pendencias?prazo=90").await;
    assert!(!page90.contains("Termo de Autorização chega"), "{page90}");
    assert!(!page90.contains("Seguro de responsabilidade"), "{page90}");
    // A ride-hailing clerk does not see the charter register's pendencies.
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let (_, theirs, _) = ana.get("/painel/pendencias?prazo=90").await;
    assert!(
        !theirs.contains("QBA1C23") && !theirs.contains(number),
        "{theirs}"
    );

    // The printable list: a PDF with the same rows, headed by the secretariat.
    let res = carla
        .client
        .get(app.url("/painel/pendencias.pdf?prazo=30"))
        .header(COOKIE, carla.cookie_header())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "application/pdf");
    assert!(
        res.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains("pendencias-2026-05-20.pdf")
    );
    let text = crate::pdf::pdf_text(&res.bytes().await.unwrap());
    for needle in [
        "PENDÊNCIAS",
        "Secretaria Municipal de Infraestrutura e Serviços",
        "Vistoria anual do micro-ônibus",
        "QBA1C23",
        number,
        "Carla Infraestrutura",
    ] {
        assert!(text.contains(needle), "{needle} missing: {text}");
    }

    // On 10/05/2027 the Termo's two years end in 23 days (art. 8º, §1º): renew it from the
    // task, which names the company.
    app.clock.set(noon("2027-05-10"));
    let mut carla = Browser::new(&app);
    carla.sign_in("carla.sis", OFFICIAL_PASSWORD).await;
    let (_, page, _) = carla
        .get("/painel/pendencias?prazo=30&tipo=renovacao")
        .await;
    let row = row_of(&page, "Termo de Autorização", "renovar");
    assert!(
        row.contains("02/06/2027") && row.contains("faltam 23 dias"),
        "{row}"
    );
    assert!(
        row.contains(&format!("/painel/tarefa/termo?id={c}")),
        "{row}"
    );
    assert!(!page.contains("Vistoria anual"), "{page}");
}

#[tokio::test]
async fn the_worklist_lists_a_summons_not_attended_and_a_platforms_data_still_due() {
    let (app, pid) = crate::platforms::registered_platform().await;
    let grant = app.granted().await;
    assert_eq!(
        app.vistoria(&grant, "2026-11-27", true).await.status(),
        StatusCode::CREATED
    );
    let id = grant["id"].as_str().unwrap();
    // The driver is summoned to an extra vistoria by 10/12/2026 (art. 16, §1º).
    let res = app
        .post(
            &format!("/api/v1/app-authorizations/{id}/vistoria-summons"),
            &json!({"notified_on": "2026-11-30", "attend_by": "2026-12-10", "reason": "Denúncia de passageiro"}),
        )
        .await;
    assert_eq!(
        res.status(),
        StatusCode::CREATED,
        "{}",
        res.text().await.unwrap()
    );
    // A data request received at 10:00 on 30/11/2026: due at 10:00 the next day.
    let res = app
        .post(
            &format!("/api/v1/platforms/{pid}/data-requests"),
            &json!({"justification": "Apuração de embarque irregular", "scope": "Viagens da placa BRA2E19",
                    "notified_at": "2026-11-30T10:00:00-04:00"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let request: Value = res.json().await.unwrap();
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let (_, page, _) = ana.get("/painel/pendencias").await;
    let row_of = |needle: &str| -> String {
        page.split("<tr>")
            .find(|r| r.contains(needle))
            .unwrap_or_else(|| panic!("no row {needle}: {page}"))
            .to_owned()
    };
    let row = row_of("vistoria extraordinária");
    assert!(row.contains("10/12/2026"), "{row}");
    assert!(
        row.contains(&format!("/painel/tarefa/vistoria-aplicativo?id={id}")),
        "{row}"
    );
    let row = row_of("entregar os dados");
    assert!(
        row.contains("01/12/2026") && row.contains("até as 10:00"),
        "{row}"
    );
    assert!(
        row.contains(&format!(
            "/painel/acao/platforms.record_delivery?id={}",
            request["id"].as_str().unwrap()
        )),
        "{row}"
    );
    // Two days later the request is overdue; once the car is presented, the summons is gone.
    app.clock.set(at("2026-12-02T15:00:00Z"));
    assert_eq!(
        app.vistoria(&grant, "2026-12-02", true).await.status(),
        StatusCode::CREATED
    );
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let (_, page, _) = ana.get("/painel/pendencias?tipo=dados").await;
    assert!(
        page.contains("não entregou os dados no prazo de 24 horas"),
        "{page}"
    );
    let (_, page, _) = ana.get("/painel/pendencias").await;
    assert!(!page.contains("vistoria extraordinária"), "{page}");
}

/// The worklist keeps what each authorization has due between requests: an act on the
/// authorization's driver the same day is seen by the next request (the vistoria recorded, the
/// presentation leaves the list), and another driver's row is still there.
#[tokio::test]
async fn the_worklist_follows_an_act_made_the_same_day() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let a = app.granted().await;
    let b = app.granted_to(1).await;
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let presentations = |page: &str, number: &str| {
        page.split("<tr>")
            .filter(|r| r.contains(number) && r.contains("Apresentar o veículo à vistoria"))
            .count()
    };
    let (status, page, _) = ana.get("/painel/pendencias?prazo=30").await;
    assert_eq!(status, StatusCode::OK);
    let (a_number, b_number) = (a["number"].as_str().unwrap(), b["number"].as_str().unwrap());
    assert_eq!(presentations(&page, a_number), 1, "{page}");
    assert_eq!(presentations(&page, b_number), 1, "{page}");

    assert_eq!(
        app.vistoria(&a, "2026-11-30", true).await.status(),
        StatusCode::CREATED
    );
    let (_, page, _) = ana.get("/painel/pendencias?prazo=30").await;
    assert_eq!(presentations(&page, a_number), 0, "{page}");
    assert_eq!(presentations(&page, b_number), 1, "{page}");
}

/// A long list is shown a page at a time, each page's links keeping the filter; the
/// spreadsheet still holds every row.
#[tokio::test]
async fn a_long_worklist_is_paged_and_the_spreadsheet_holds_every_row() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let a = app.granted().await;
    let driver = a["driver_id"].as_str().unwrap();
    // 51 autos never notified: 51 pendencies, one more than a page holds.
    let mut autos = Vec::new();
    for i in 0..51 {
        let at_time = format!("2026-11-{:02}T{:02}:{:02}", 21 + i / 20, 8 + i % 10, i);
        let auto = auto_drawn_up(&app, driver, &at_time, &at_time).await;
        autos.push(auto["number"].as_str().unwrap().to_owned());
    }
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let shown = |page: &str| autos.iter().filter(|n| page.contains(n.as_str())).count();

    let (status, first, _) = ana.get("/painel/pendencias?prazo=90&tipo=auto").await;
    assert_eq!(status, StatusCode::OK);
    assert!(first.contains("51 pendências · página 1 de 2"), "{first}");
    assert_eq!(shown(&first), 50, "{first}");
    let next = "/painel/pendencias?prazo=90&#38;tipo=auto&#38;pagina=2";
    assert!(
        first.contains(&format!("href=\"{next}\" rel=\"next\"")),
        "{first}"
    );
    assert!(!first.contains("rel=\"prev\""), "{first}");

    let (status, second, _) = ana.get(&next.replace("&#38;", "&")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(shown(&second), 1, "{second}");
    assert!(second.contains("página 2 de 2"), "{second}");
    assert!(second.contains("rel=\"prev\"") && !second.contains("rel=\"next\""));
    // Every auto is on one page or the other.
    assert!(
        autos
            .iter()
            .all(|n| first.contains(n.as_str()) || second.contains(n.as_str()))
    );
    // A page past the last shows the last.
    let (_, past, _) = ana
        .get("/painel/pendencias?prazo=90&tipo=auto&pagina=7")
        .await;
    assert_eq!(shown(&past), 1, "{past}");

    let csv = ana.get("/painel/pendencias.csv?prazo=90&tipo=auto").await.1;
    assert_eq!(shown(&csv), 51);
}

/// An auto of art. 26, VI against `driver`, of an infraction at `at`, drawn up at
/// `drawn_up_at` (and never notified).
async fn auto_drawn_up(
    app: &crate::helpers::TestApp,
    driver: &str,
    at: &str,
    drawn_up_at: &str,
) -> Value {
    let mut body = crate::autos::auto_body(driver, "APP-ART26-VI", at);
    body["drawn_up_at"] = json!(drawn_up_at);
    crate::charter::created(app.post("/api/v1/app-infraction-autos", &body).await).await
}
