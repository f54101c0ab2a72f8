//! The filings that bring something new to the register, sent online and decided in the
//! desk's own tasks: a driver's first authorization (the driver and the car stated, their
//! documents attached), the substitution of the authorized car, and a charter company's
//! registration with the documents of art. 7, its Termo and a bus. Each task opens with what
//! the applicant stated and the filing's protocol date, confers the law as at the counter,
//! and records the decision on the filing.

use reqwest::StatusCode;

use crate::filings::{PDF, attach, file_ids, open_as, post_on_page, protocol_in, step_mails};
use crate::helpers::{CNHS, CPFS, OFFICIAL_PASSWORD, PLATES, RENAVAMS, TestApp, spawn_app};
use crate::pages::visible;
use crate::panel::{Browser, field};
use crate::services::signed_in;

const MARIA: &str = "maria@exemplo.com.br";

/// Opens a filing of `kind` on `number` and `document`: its page's path and its id.
async fn opened(b: &mut Browser<'_>, kind: &str, number: &str, document: &str) -> (String, String) {
    let (status, page, to) = open_as(b, kind, number, document).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let path = to.unwrap();
    let filing = path.trim_start_matches("/servicos/pedidos/").to_owned();
    (path, filing)
}

/// The slots a filing's page offers to attach to, in its order.
fn slots_of(page: &str) -> Vec<String> {
    page.split("name=\"documento\" value=\"")
        .skip(1)
        .map(|s| s.split('"').next().unwrap().to_owned())
        .collect()
}

/// Attaches a PDF to every slot the page offers.
async fn attach_all(b: &mut Browser<'_>, app: &TestApp, path: &str, filing: &str) {
    let (_, page, _) = b.get(path).await;
    let slots = slots_of(&page);
    assert!(!slots.is_empty(), "{page}");
    for slot in slots {
        let (status, page, _) =
            attach(b, app, filing, &slot, &format!("{slot}.pdf"), PDF.to_vec()).await;
        assert_eq!(status, StatusCode::SEE_OTHER, "{slot}: {page}");
    }
}

/// Sends the filing and answers its number, read from the protocol's e-mail (the `n`th
/// message to Maria).
async fn sent(b: &mut Browser<'_>, app: &TestApp, path: &str, n: usize) -> String {
    let (status, page, _) = post_on_page(b, path, &format!("{path}/protocolar"), &[]).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let mails = step_mails(app, MARIA, n).await;
    protocol_in(&mails[n - 1])
}

/// The desk's task link a filing's page offers.
fn task_link(page: &str) -> String {
    page.split("class=\"button\" href=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .map_or_else(
            || panic!("{page}"),
            |s| s.replace("&amp;", "&").replace("&#38;", "&"),
        )
}

/// Posts `form` (and the session's token) to a task.
async fn post_task(
    b: &mut Browser<'_>,
    action: &str,
    page: &str,
    form: &[(&str, &str)],
) -> (StatusCode, String, Option<String>) {
    let csrf = field(page, "_csrf").unwrap();
    let mut all = vec![("_csrf", csrf.as_str())];
    all.extend_from_slice(form);
    b.post(action, &all).await
}

/// The PDFs a decided filing's page offers the applicant, downloaded.
async fn downloads(b: &mut Browser<'_>, app: &TestApp, path: &str) -> Vec<Vec<u8>> {
    let (_, page, _) = b.get(path).await;
    let mut out = Vec::new();
    for id in page
        .split(&format!("href=\"{path}/documentos/"))
        .skip(1)
        .map(|s| s.split('"').next().unwrap().to_owned())
    {
        let res = b
            .client
            .get(app.url(&format!("{path}/documentos/{id}")))
            .header(reqwest::header::COOKIE, b.cookie_header())
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        out.push(res.bytes().await.unwrap().to_vec());
    }
    out
}

const DRIVER_AND_CAR: [(&str, &str); 17] = [
    ("name", "Antônio Pereira Lima"),
    ("cnh.number", CNHS[1]),
    ("cnh.category", "B"),
    ("cnh.ear", "true"),
    ("cnh.first_license_date", "10/03/2015"),
    ("cnh.expires_on", "15/03/2030"),
    ("vehicle.plate", "QWE1R23"),
    ("vehicle.renavam", RENAVAMS[2]),
    ("vehicle.make", "Fiat"),
    ("vehicle.model", "Cronos"),
    ("vehicle.color", "Branca"),
    ("vehicle.model_year", "2023"),
    ("vehicle.doors", "4"),
    ("vehicle.air_conditioning", "true"),
    ("vehicle.capacity_including_driver", "5"),
    ("vehicle.registration_municipality_ibge", "5101803"),
    ("vehicle.owner_type", "proprietario"),
];

#[tokio::test]
#[expect(
    clippy::too_many_lines,
    reason = "one driver's first authorization, from the first page to the sticker"
)]
async fn a_driver_asks_for_a_first_authorization_online_and_the_desk_grants_it_in_its_task() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let held = app.granted().await;
    let mut maria = signed_in(&app, MARIA).await;

    // A CPF that holds an authorization in force renews it; an invalid one is refused.
    let (status, page, _) = open_as(&mut maria, "app_new_authorization", "", CPFS[0]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(
        page.contains(held["number"].as_str().unwrap()) && page.contains("renovação"),
        "{page}"
    );
    let (status, page, _) = open_as(&mut maria, "app_new_authorization", "", "123").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("CPF não é válido"), "{page}");
    let (path, filing) = opened(&mut maria, "app_new_authorization", "", CPFS[1]).await;

    // Nothing stated yet: the page asks for the data, and the filing cannot be sent.
    let (_, page, _) = maria.get(&path).await;
    assert!(page.contains("Seus dados e os do carro"), "{page}");
    assert!(
        page.contains(">Carro no meu nome (proprietário)</option>"),
        "{page}"
    );
    assert!(page.contains("os dados pedidos (17 campos)"), "{page}");
    // Out of form: each problem beside its field, what was typed kept, nothing written.
    let mut typed: Vec<(&str, &str)> = DRIVER_AND_CAR.to_vec();
    typed[4] = ("cnh.first_license_date", "31/02/2015");
    typed[11] = ("vehicle.model_year", "dois mil");
    let (status, page, _) = post_on_page(&mut maria, &path, &format!("{path}/dados"), &typed).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("os 2 campos marcados"), "{page}");
    assert!(page.contains("id=\"e-cnh.first_license_date\""), "{page}");
    assert!(page.contains("id=\"e-vehicle.model_year\""), "{page}");
    assert!(page.contains("value=\"Antônio Pereira Lima\""), "{page}");
    let (_, page, _) = maria.get(&path).await;
    assert!(
        !page.contains("value=\"Antônio Pereira Lima\""),
        "kept: {page}"
    );
    // Stated whole, the data are conferred as the grant would confer them: a two-door car
    // fails art. 2, a RENAVAM with a wrong check digit is named beside its field.
    let mut typed: Vec<(&str, &str)> = DRIVER_AND_CAR.to_vec();
    typed[12] = ("vehicle.doors", "2");
    let (status, page, _) = post_on_page(&mut maria, &path, &format!("{path}/dados"), &typed).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let (_, page, _) = maria.get(&path).await;
    let shown = visible(&page);
    assert!(
        shown.contains("Conferência dos dados informados"),
        "{shown}"
    );
    assert!(shown.contains("esbarraria em um ponto"), "{shown}");
    assert!(shown.contains("art. 2"), "{shown}");
    typed[12] = ("vehicle.doors", "4");
    typed[7] = ("vehicle.renavam", "12345678901");
    post_on_page(&mut maria, &path, &format!("{path}/dados"), &typed).await;
    let (_, page, _) = maria.get(&path).await;
    assert!(page.contains("id=\"e-vehicle.renavam\""), "{page}");
    assert!(page.contains("dados que não conferem"), "{page}");
    let (status, page, _) =
        post_on_page(&mut maria, &path, &format!("{path}/dados"), &DRIVER_AND_CAR).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let (_, page, _) = maria.get(&path).await;
    assert!(page.contains("value=\"10/03/2015\""), "{page}");
    let shown = visible(&page);
    assert!(shown.contains("hoje nada impede a autorização"), "{shown}");
    assert!(shown.contains("Pelos dados informados: atende."), "{shown}");
    assert!(!page.contains("os dados pedidos"), "{page}");
    // The documents of a grant: the CNH, the certificates, the CRLV, the fee.
    assert_eq!(slots_of(&page), ["cnh", "certidoes", "crlv", "taxas"]);
    assert!(
        page.contains("Comprovante de pagamento das taxas da autorização"),
        "{page}"
    );
    attach_all(&mut maria, &app, &path, &filing).await;
    let protocol = sent(&mut maria, &app, &path, 2).await;
    let mails = step_mails(&app, MARIA, 2).await;
    assert!(
        mails[1].contains("Primeira autorização — Antônio Pereira Lima")
            && mails[1].contains("vistoria da Prefeitura em até 5 dias da aprovação"),
        "{mails:?}"
    );
    // Sent, the data can no longer change.
    let (status, _, _) =
        post_on_page(&mut maria, &path, &format!("{path}/dados"), &DRIVER_AND_CAR).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    // The desk: the stated data listed, the task opened on the filing with them.
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let desk = format!("/painel/requerimentos/{filing}");
    let (_, page, _) = ana.get(&desk).await;
    let shown = visible(&page);
    assert!(
        shown.contains("Dados informados pelo requerente"),
        "{shown}"
    );
    assert!(
        shown.contains("Carro no meu nome (proprietário)"),
        "{shown}"
    );
    assert_eq!(file_ids(&page, &filing).len(), 4, "{page}");
    let link = task_link(&page);
    assert!(
        link.starts_with(&format!("/painel/tarefa/autorizacao?requerimento={filing}")),
        "{link}"
    );
    let (status, task, _) = ana.get(&link).await;
    assert_eq!(status, StatusCode::OK, "{task}");
    assert!(task.contains("value=\"Antônio Pereira Lima\""), "{task}");
    assert!(task.contains("value=\"QWE1R23\""), "{task}");
    assert_eq!(
        field(&task, "requerimento").as_deref(),
        Some(filing.as_str())
    );
    assert!(
        visible(&task).contains(&format!("Requerimento {protocol}")),
        "{task}"
    );
    // The certificates and the fee as the documents show them; the protocol date is the
    // filing's whatever is typed.
    let mut form: Vec<(&str, &str)> = DRIVER_AND_CAR.to_vec();
    form.extend([
        ("cpf", CPFS[1]),
        ("criminal_certificates.estadual_1", "10/11/2026"),
        ("criminal_certificates.estadual_2", "10/11/2026"),
        ("criminal_certificates.federal_1", "10/11/2026"),
        ("criminal_certificates.federal_2", "10/11/2026"),
        ("fee_paid_on", "20/11/2026"),
        ("protocolled_on", "01/01/2026"),
        ("requerimento", filing.as_str()),
        ("acao", "conceder"),
    ]);
    let (status, page, location) =
        post_task(&mut ana, "/painel/tarefa/autorizacao", &task, &form).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let id = location
        .unwrap()
        .trim_start_matches("/painel/ver/app-authorizations/")
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    let granted = app
        .get_json(&format!("/api/v1/app-authorizations/{id}"))
        .await;
    let today = selo::clock::Clock::now(app.clock.as_ref())
        .date_naive()
        .to_string();
    assert_eq!(granted["protocolled_on"], today, "{granted}");
    // Decided once: the filing is no longer in review.
    let (_, page, _) = ana.get(&desk).await;
    assert!(page.contains("deferido"), "{page}");
    let (status, page, _) = post_task(&mut ana, "/painel/tarefa/autorizacao", &task, &form).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("já foi decidido"), "{page}");

    // The driver is told, and downloads the authorization and the sticker.
    let mails = step_mails(&app, MARIA, 3).await;
    assert!(
        mails[2].contains("a autorização foi concedida"),
        "{mails:?}"
    );
    let pdfs = downloads(&mut maria, &app, &path).await;
    assert_eq!(pdfs.len(), 2);
    let text: String = pdfs.iter().map(|p| crate::pdf::pdf_text(p)).collect();
    assert!(text.contains(granted["number"].as_str().unwrap()), "{text}");
    assert!(text.contains("QWE1R23"), "{text}");
}

#[tokio::test]
async fn a_driver_asks_online_to_substitute_the_car_and_the_desk_registers_it_in_the_task() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let a = app.granted().await;
    let id = a["id"].as_str().unwrap();
    let number = a["number"].as_str().unwrap();
    assert_eq!(
        app.vistoria(&a, "2026-11-30", true).await.status(),
        StatusCode::CREATED
    );
    app.clock.advance(chrono::Duration::days(10));
    let mut maria = signed_in(&app, MARIA).await;
    let (path, filing) = opened(&mut maria, "app_vehicle_substitution", number, CPFS[0]).await;
    let (_, page, _) = maria.get(&path).await;
    assert!(page.contains("O carro novo"), "{page}");
    assert_eq!(slots_of(&page), ["crlv", "motivo"]);
    let mut car: Vec<(&str, &str)> = DRIVER_AND_CAR[6..].to_vec();
    car[0] = ("vehicle.plate", PLATES[1]);
    car[1] = ("vehicle.renavam", RENAVAMS[1]);
    car.push(("cause", "venda"));
    let (status, page, _) = post_on_page(&mut maria, &path, &format!("{path}/dados"), &car).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    // The cause's proof is optional: the CRLV alone lets it go.
    let (status, page, _) =
        attach(&mut maria, &app, &filing, "crlv", "crlv.pdf", PDF.to_vec()).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    sent(&mut maria, &app, &path, 2).await;

    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let (_, page, _) = ana.get(&format!("/painel/requerimentos/{filing}")).await;
    let link = task_link(&page);
    assert!(
        link.starts_with(&format!(
            "/painel/tarefa/substituicao?id={id}&requerimento="
        )),
        "{link}"
    );
    let (_, task, _) = ana.get(&link).await;
    assert_eq!(field(&task, "autorizacao").as_deref(), Some(number));
    assert_eq!(field(&task, "placa_nova").as_deref(), Some(PLATES[1]));
    assert!(task.contains("value=\"venda\" selected"), "{task}");
    let form = |acao| {
        vec![
            ("autorizacao", number),
            ("placa_nova", PLATES[1]),
            ("cause", "venda"),
            ("vistoria.performed_on", "09/12/2026"),
            ("vistoria.approved", "true"),
            ("vistoria.inspector", "Fiscal SMF"),
            ("requerimento", filing.as_str()),
            ("acao", acao),
        ]
    };
    // Conferred, nothing is written: the car is not registered yet.
    let (status, page, _) = post_task(
        &mut ana,
        "/painel/tarefa/substituicao",
        &task,
        &form("conferir"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        visible(&page).contains("será cadastrado com os dados do requerimento"),
        "{page}"
    );
    let unchanged = app
        .get_json(&format!("/api/v1/app-authorizations/{id}"))
        .await;
    assert_eq!(unchanged["vehicle_substitutions"], 0, "{unchanged}");
    let (status, page, _) = post_task(
        &mut ana,
        "/painel/tarefa/substituicao",
        &task,
        &form("substituir"),
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let after = app
        .get_json(&format!("/api/v1/app-authorizations/{id}"))
        .await;
    assert_eq!(after["vehicle_substitutions"], 1, "{after}");
    assert_eq!(after["number"], a["number"]);
    // The applicant downloads the new pair, for the new car.
    let pdfs = downloads(&mut maria, &app, &path).await;
    assert_eq!(pdfs.len(), 2);
    let text: String = pdfs.iter().map(|p| crate::pdf::pdf_text(p)).collect();
    assert!(
        text.contains("ABC1234") || text.contains("ABC-1234"),
        "{text}"
    );
    let mails = step_mails(&app, MARIA, 3).await;
    assert!(
        mails[2].contains("o carro novo passou a ser o da autorização"),
        "{mails:?}"
    );
}

#[tokio::test]
#[expect(
    clippy::too_many_lines,
    reason = "a company's way in: the registration, the Termo, a bus"
)]
async fn a_company_registers_online_then_gets_its_termo_and_enrols_a_bus() {
    use crate::bodies::CHECKLIST_ITEMS;
    use crate::charter::noon;
    const CNPJ: &str = "11.222.333/0001-81";
    let app = spawn_app().await;
    app.clock.set(noon("2025-06-02"));
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    app.official("carla.sis", "Carla Infraestrutura", "charter_issuer")
        .await;
    let mut maria = signed_in(&app, MARIA).await;
    // A company not registered cannot ask for a Termo.
    let (status, page, _) = open_as(&mut maria, "charter_termo", "", CNPJ).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    let (path, filing) = opened(&mut maria, "charter_registration", "", CNPJ).await;
    let (_, page, _) = maria.get(&path).await;
    assert!(page.contains("Dados da empresa"), "{page}");
    // The petition and every document of art. 7 the basis lists, each required.
    let slots = slots_of(&page);
    assert_eq!(slots.len(), 16, "{slots:?}");
    assert_eq!(slots[0], "requerimento");
    assert!(page.contains("Exigido por: art. 7º, II, a"), "{page}");
    let company = [
        ("name", "Araguaia Fretamentos Ltda."),
        (
            "address",
            "Av. Ministro João Alberto, 100, Barra do Garças-MT",
        ),
        ("phone", "(66) 3401-0000"),
        ("email", "contato@araguaia.example"),
        ("modality", "continuo"),
        ("operating_before_law", "false"),
    ];
    let (status, page, _) =
        post_on_page(&mut maria, &path, &format!("{path}/dados"), &company).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    // Sixteen files: more than the twelve a filing takes by default, as many as it requires.
    attach_all(&mut maria, &app, &path, &filing).await;
    let protocol = sent(&mut maria, &app, &path, 2).await;

    // The charter desk decides it; the ride-hailing desk does not see it.
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let (_, queue, _) = ana.get("/painel/requerimentos").await;
    assert!(!queue.contains(&protocol), "{queue}");
    let (status, _, _) = ana.get(&format!("/painel/requerimentos/{filing}")).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let mut carla = Browser::new(&app);
    carla.sign_in("carla.sis", OFFICIAL_PASSWORD).await;
    let (_, queue, _) = carla.get("/painel/requerimentos").await;
    assert!(queue.contains(&protocol), "{queue}");
    let (_, page, _) = carla.get(&format!("/painel/requerimentos/{filing}")).await;
    let link = task_link(&page);
    assert!(
        link.starts_with("/painel/tarefa/empresa?requerimento="),
        "{link}"
    );
    let (_, task, _) = carla.get(&link).await;
    assert_eq!(field(&task, "protocol").as_deref(), Some(protocol.as_str()));
    assert!(
        task.contains("value=\"Araguaia Fretamentos Ltda.\""),
        "{task}"
    );
    let mut form: Vec<(String, String)> = company
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    form.extend([
        ("cnpj".into(), CNPJ.into()),
        ("protocol".into(), "typed".into()),
        ("applied_on".into(), "01/01/2025".into()),
        ("requerimento".into(), filing.clone()),
        ("acao".into(), "cadastrar".into()),
    ]);
    for (i, item) in CHECKLIST_ITEMS.iter().enumerate() {
        form.push((format!("checklist.{item}.reference"), format!("DOC-{i}")));
        form.push((format!("checklist.{item}.issued_on"), "20/05/2025".into()));
        if i >= 10 {
            form.push((format!("checklist.{item}.valid_until"), "31/12/2025".into()));
        }
    }
    let refs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let (status, page, location) =
        post_task(&mut carla, "/painel/tarefa/empresa", &task, &refs).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let c = location
        .unwrap()
        .trim_start_matches("/painel/ver/charter/companies/")
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    let registered = app
        .get_json(&format!("/api/v1/charter/companies/{c}"))
        .await;
    assert_eq!(registered["protocol"], protocol.as_str(), "{registered}");
    assert_eq!(registered["applied_on"], "2025-06-02", "{registered}");
    let mails = step_mails(&app, MARIA, 3).await;
    assert!(mails[2].contains("a empresa foi cadastrada"), "{mails:?}");

    // Whoever registered it follows it: the Termo is asked for by the CNPJ alone.
    let (path, termo_filing) = opened(&mut maria, "charter_termo", "", CNPJ).await;
    sent(&mut maria, &app, &path, 4).await;
    let (_, page, _) = carla
        .get(&format!("/painel/requerimentos/{termo_filing}"))
        .await;
    let link = task_link(&page);
    let (_, task, _) = carla.get(&link).await;
    assert_eq!(field(&task, "cnpj").as_deref(), Some(CNPJ));
    let form = [
        ("cnpj", CNPJ),
        ("requerimento", termo_filing.as_str()),
        ("acao", "emitir"),
    ];
    let (status, page, _) = post_task(&mut carla, "/painel/tarefa/termo", &task, &form).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let pdfs = downloads(&mut maria, &app, &path).await;
    assert_eq!(pdfs.len(), 1);
    let text = crate::pdf::pdf_text(&pdfs[0]);
    assert!(text.contains("Araguaia Fretamentos"), "{text}");

    // A bus: its data stated, its four papers attached, enrolled in the desk's task.
    let (path, bus_filing) = opened(&mut maria, "charter_bus_enrolment", "", CNPJ).await;
    let bus = [
        ("plate", "QBA1C23"),
        ("renavam", RENAVAMS[0]),
        ("kind", "micro_onibus"),
        ("make", "Marcopolo"),
        ("model", "Volare W9"),
        ("model_year", "2015"),
        ("first_registration_date", "10/03/2015"),
        ("crlv_year", "2025"),
        ("seated_capacity", "20"),
        ("doors", "2"),
        ("has_turnstile", "false"),
        ("zero_km", "false"),
        ("owner_cnpj", CNPJ),
        ("ownership_proof", "crv_e"),
        ("itv_report_date", "02/05/2025"),
        ("itv_provider", "ITV Credenciada Ltda."),
        ("insurance.insurer", "Seguradora Exemplo"),
        ("insurance.policy", "RC-1"),
        ("insurance.valid_from", "01/01/2025"),
        ("insurance.valid_to", "31/12/2026"),
    ];
    let (status, page, _) = post_on_page(&mut maria, &path, &format!("{path}/dados"), &bus).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    attach_all(&mut maria, &app, &path, &bus_filing).await;
    sent(&mut maria, &app, &path, 6).await;
    let (_, page, _) = carla
        .get(&format!("/painel/requerimentos/{bus_filing}"))
        .await;
    assert!(visible(&page).contains("Volare W9"), "{page}");
    let link = task_link(&page);
    let (_, task, _) = carla.get(&link).await;
    assert!(task.contains("value=\"QBA1C23\""), "{task}");
    let mut form: Vec<(&str, &str)> = bus.to_vec();
    form.extend([
        ("cnpj", CNPJ),
        ("requerimento", bus_filing.as_str()),
        ("acao", "cadastrar"),
    ]);
    let (status, page, _) = post_task(&mut carla, "/painel/tarefa/onibus", &task, &form).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let company_now = app
        .get_json(&format!("/api/v1/charter/companies/{c}"))
        .await;
    assert!(company_now.to_string().contains("QBA1C23"), "{company_now}");
    let mails = step_mails(&app, MARIA, 7).await;
    assert!(
        mails[6].contains("o veículo foi cadastrado na empresa"),
        "{mails:?}"
    );
}
