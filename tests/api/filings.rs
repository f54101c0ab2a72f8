//! Filings sent online at `/servicos/pedidos`: the yearly renewal put together by the driver
//! (the documents the basis asks for, files known by their content), protocolled with a
//! number, examined file by file at the desk, answered after an exigência, and decided through
//! the renewal task; a certidão asked for and issued the same way; every step told by e-mail
//! through a real SMTP conversation.

use reqwest::StatusCode;
use reqwest::multipart::{Form, Part};

use crate::helpers::{CPFS, OFFICIAL_PASSWORD, TestApp, spawn_app};
use crate::panel::{Browser, field};
use crate::services::signed_in;

const MARIA: &str = "maria@exemplo.com.br";
pub(crate) const PDF: &[u8] = b"%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n";
const PNG: &[u8] = &[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13];
const JPEG: &[u8] = &[0xFF, 0xD8, 0xFF, 0xE0, 0, 16, b'J', b'F', b'I', b'F'];

/// Sends `bytes` named `name` into the filing's slot `slot`.
pub(crate) async fn attach(
    b: &mut Browser<'_>,
    app: &TestApp,
    filing: &str,
    slot: &str,
    name: &str,
    bytes: Vec<u8>,
) -> (StatusCode, String, Option<String>) {
    // The session's token, as every page of the counter carries it.
    let (status, page, _) = b.get("/servicos/inicio").await;
    let csrf = field(&page, "_csrf").unwrap_or_else(|| panic!("{status}: {page}"));
    let form = Form::new()
        .text("_csrf", csrf)
        .text("documento", slot.to_owned())
        .part("arquivo", Part::bytes(bytes).file_name(name.to_owned()));
    let req = b
        .client
        .post(app.url(&format!("/servicos/pedidos/{filing}/arquivos")))
        .multipart(form);
    b.send(req).await
}

/// Opens the renewal of `number` for the driver with `cpf` (the form's default kind).
async fn open(
    b: &mut Browser<'_>,
    number: &str,
    cpf: &str,
) -> (StatusCode, String, Option<String>) {
    open_as(b, "", number, cpf).await
}

/// Opens a filing of `kind` (none: the form's default) on `number` for the driver with `cpf`.
pub(crate) async fn open_as(
    b: &mut Browser<'_>,
    kind: &str,
    number: &str,
    cpf: &str,
) -> (StatusCode, String, Option<String>) {
    let (status, page, _) = b.get("/servicos/pedidos/novo").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let csrf = field(&page, "_csrf").unwrap();
    let mut form = vec![("_csrf", csrf.as_str()), ("numero", number), ("cpf", cpf)];
    if !kind.is_empty() {
        form.push(("tipo", kind));
    }
    b.post("/servicos/pedidos/novo", &form).await
}

pub(crate) async fn post_on_page(
    b: &mut Browser<'_>,
    page_path: &str,
    action: &str,
    extra: &[(&str, &str)],
) -> (StatusCode, String, Option<String>) {
    let (_, page, _) = b.get(page_path).await;
    let csrf = field(&page, "_csrf").unwrap();
    let mut form = vec![("_csrf", csrf.as_str())];
    form.extend_from_slice(extra);
    b.post(action, &form).await
}

/// The ids of the files the desk's page of the filing links, in the order shown.
pub(crate) fn file_ids(page: &str, filing: &str) -> Vec<String> {
    let marker = format!("href=\"/painel/requerimentos/{filing}/arquivos/");
    let mut ids: Vec<String> = page
        .split(&marker)
        .skip(1)
        .map(|s| s.split('"').next().unwrap().to_owned())
        .collect();
    ids.dedup();
    ids
}

/// Sends the renewal task (`page`, opened on the filing) with the fee of 01/11/2027 and a
/// federal certificate brought again.
async fn renew_in_task(
    b: &mut Browser<'_>,
    page: &str,
    number: &str,
    filing: &str,
) -> (StatusCode, String, Option<String>) {
    let csrf = field(page, "_csrf").unwrap();
    b.post(
        "/painel/tarefa/renovacao",
        &[
            ("_csrf", csrf.as_str()),
            ("autorizacao", number),
            ("requerimento", filing),
            ("fee_paid_on", "01/11/2027"),
            ("criminal_certificates.federal_1", "20/10/2027"),
            ("acao", "renovar"),
        ],
    )
    .await
}

/// The messages of the filing's steps to `address` (the reminders the driver now receives
/// as a follower of the record aside: `tests/api/follows.rs` checks them).
fn mails_to(app: &TestApp, address: &str) -> Vec<String> {
    app.smtp
        .inbox()
        .iter()
        .filter(|m| m.to.iter().any(|t| t == address))
        .filter(|m| !m.body().contains("Você recebe este lembrete"))
        .map(|m| format!("{}\n{}", m.header("Subject").unwrap_or_default(), m.body()))
        .collect()
}

/// Opens a filing of `kind` on `number` for the driver of `CPFS[0]`: its page and its id.
async fn opened(b: &mut Browser<'_>, kind: &str, number: &str) -> (String, String) {
    let (status, page, to) = open_as(b, kind, number, CPFS[0]).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let path = to.unwrap();
    let filing = path.trim_start_matches("/servicos/pedidos/").to_owned();
    (path, filing)
}

/// Decides the filing at `desk` by its act `act` (`certidao`, `alteracao`, `processo`), and
/// finds the same act refused the second time.
async fn decided_once(ana: &mut Browser<'_>, desk: &str, act: &str) {
    let action = format!("{desk}/{act}");
    let (status, page, _) = post_on_page(ana, desk, &action, &[]).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let (status, page, _) = post_on_page(ana, desk, &action, &[]).await;
    assert_eq!(status, StatusCode::CONFLICT, "{page}");
}

/// The filing's number a protocol message announces.
pub(crate) fn protocol_in(mail: &str) -> String {
    mail.split("com o número ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .unwrap_or_else(|| panic!("no number in {mail}"))
        .to_owned()
}

/// The step messages to `address` once there are `n` of them (15 s at most).
pub(crate) async fn step_mails(app: &TestApp, address: &str, n: usize) -> Vec<String> {
    for _ in 0..150 {
        let mails = mails_to(app, address);
        if mails.len() >= n {
            return mails;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!(
        "fewer than {n} messages to {address}: {:?}",
        mails_to(app, address)
    );
}

#[tokio::test]
#[expect(
    clippy::too_many_lines,
    reason = "one renewal from the driver's first page to the downloaded sticker"
)]
async fn a_driver_renews_online_and_the_desk_examines_asks_and_decides() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let a = app.granted().await;
    let number = a["number"].as_str().unwrap().to_owned();
    assert_eq!(
        app.vistoria(&a, "2026-11-30", true).await.status(),
        StatusCode::CREATED
    );
    app.clock.set(crate::helpers::at("2027-11-01T15:00:00Z"));
    let mut maria = signed_in(&app, MARIA).await;

    // A number with someone else's CPF is refused as a number that does not exist.
    let (status, page, _) = open(&mut maria, &number, CPFS[1]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("Não encontramos uma autorização"), "{page}");
    let (status, page, to) = open(&mut maria, &number.to_lowercase(), CPFS[0]).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let path = to.unwrap();
    let filing = path.trim_start_matches("/servicos/pedidos/").to_owned();
    // Opening it again goes back to the same draft.
    let (_, _, again) = open(&mut maria, &number, CPFS[0]).await;
    assert_eq!(again.as_deref(), Some(path.as_str()));

    // The page lists what the basis in force asks for, with the provision.
    let (status, page, _) = maria.get(&path).await;
    assert_eq!(status, StatusCode::OK);
    for asked in [
        "CNH com a observação EAR",
        "art. 12, I",
        "Certidões",
        "CRLV",
        "taxas",
    ] {
        assert!(page.contains(asked), "{asked}: {page}");
    }
    // Before anything is sent, the page judges the renewal on the register's data: the licence,
    // the certificates and the car are in order (the fees' receipt is no data of the register).
    assert!(page.contains("Conferência com o cadastro"), "{page}");
    let card = |key: &str| {
        let start = page.find(&format!("id=\"doc-{key}\"")).unwrap();
        let end = page[start..].find("</div>").unwrap();
        page[start..start + end].to_owned()
    };
    assert!(
        card("cnh").contains("No cadastro: em dia."),
        "{}",
        card("cnh")
    );
    assert!(
        card("crlv").contains("No cadastro: em dia."),
        "{}",
        card("crlv")
    );
    let conf =
        &page[page.find("id=\"conferencia\"").unwrap()..page.find("<h2>Documentos").unwrap()];
    assert!(
        card("certidoes").contains("No cadastro: em dia."),
        "{}",
        card("certidoes")
    );
    assert!(conf.contains("nada impede a renovação"), "{conf}");
    assert!(!card("taxas").contains("No cadastro"), "{}", card("taxas"));
    // Nothing can be sent while a document is missing.
    let (status, page, _) =
        post_on_page(&mut maria, &path, &format!("{path}/protocolar"), &[]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("Ainda falta juntar"), "{page}");

    // Files known by their content: an HTML page named .pdf, a PDF named .jpg and an
    // 11 MB file are refused, and nothing of them is kept.
    let (status, page, _) = attach(
        &mut maria,
        &app,
        &filing,
        "cnh",
        "cnh.pdf",
        b"<!DOCTYPE html><html><script>alert(1)</script>".to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("não é PDF, JPEG nem PNG"), "{page}");
    let (status, page, _) = attach(&mut maria, &app, &filing, "cnh", "cnh.jpg", PDF.to_vec()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("não corresponde ao conteúdo"), "{page}");
    let mut big = PDF.to_vec();
    big.resize(11 * 1024 * 1024, b' ');
    let (status, page, _) = attach(&mut maria, &app, &filing, "cnh", "cnh.pdf", big).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{page}");
    assert!(page.contains("mais de 10 MB"), "{page}");
    assert!(page.contains("Nenhum arquivo ainda"), "{page}");
    assert!(!page.contains("aguardando análise"), "{page}");

    for (slot, name, bytes) in [
        ("cnh", "CNH digital.pdf", PDF),
        ("certidoes", "certidao-federal.pdf", PDF),
        ("crlv", "crlv.png", PNG),
        ("taxas", "comprovante.jpeg", JPEG),
    ] {
        let (status, page, to) =
            attach(&mut maria, &app, &filing, slot, name, bytes.to_vec()).await;
        assert_eq!(status, StatusCode::SEE_OTHER, "{slot}: {page}");
        assert!(to.unwrap().contains("?arquivo"));
    }
    let (status, page, to) =
        post_on_page(&mut maria, &path, &format!("{path}/protocolar"), &[]).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    assert_eq!(to.unwrap(), format!("{path}?enviado"));
    let (_, page, _) = maria.get(&path).await;
    assert!(page.contains("Pedido REQ-2027/000001"), "{page}");
    assert!(page.contains("protocolado em 01/11/2027"), "{page}");
    // Sent: no more uploads.
    assert!(!page.contains("Enviar arquivo"), "{page}");
    let mails = step_mails(&app, MARIA, 2).await;
    assert!(mails[1].contains("REQ-2027/000001 recebido"), "{mails:?}");

    // At the desk: the queue, the filing, its files as sent.
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let (status, page, _) = ana.get("/painel/requerimentos").await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("REQ-2027/000001"), "{page}");
    let desk = format!("/painel/requerimentos/{filing}");
    // The worklist lists it too, opening the filing's page.
    let (status, page, _) = ana.get("/painel/pendencias?tipo=requerimento").await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("REQ-2027/000001"), "{page}");
    assert!(
        page.contains("Examinar os arquivos do requerimento"),
        "{page}"
    );
    assert!(page.contains(&format!("href=\"{desk}\"")), "{page}");
    let (status, page, _) = ana.get(&desk).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let files = file_ids(&page, &filing);
    assert_eq!(files.len(), 4, "{page}");
    let res = ana
        .client
        .get(app.url(&format!("{desk}/arquivos/{}", files[0])))
        .header(reqwest::header::COOKIE, ana.cookie_header())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["x-content-type-options"], "nosniff");
    assert!(
        res.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .starts_with("attachment"),
    );
    assert_eq!(res.bytes().await.unwrap().as_ref(), PDF);

    // The CRLV refused with a reason the driver reads; the rest accepted.
    let crlv = &files[2];
    let (status, page, _) = post_on_page(
        &mut ana,
        &desk,
        &format!("{desk}/arquivos/{crlv}"),
        &[("acao", "recusar"), ("motivo", "")],
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    let (status, _, _) = post_on_page(
        &mut ana,
        &desk,
        &format!("{desk}/arquivos/{crlv}"),
        &[
            ("acao", "recusar"),
            ("motivo", "Imagem ilegível: envie o CRLV inteiro."),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    for f in [&files[0], &files[1], &files[3]] {
        let (status, _, _) = post_on_page(
            &mut ana,
            &desk,
            &format!("{desk}/arquivos/{f}"),
            &[("acao", "aceitar")],
        )
        .await;
        assert_eq!(status, StatusCode::SEE_OTHER);
    }
    // Examined once.
    let (status, _, _) = post_on_page(
        &mut ana,
        &desk,
        &format!("{desk}/arquivos/{}", files[0]),
        &[("acao", "aceitar")],
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, _, _) = post_on_page(
        &mut ana,
        &desk,
        &format!("{desk}/exigencia"),
        &[("texto", "Envie o CRLV 2027, legível."), ("prazo", "10")],
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let (_, page, _) = ana.get("/painel/pendencias?tipo=requerimento").await;
    assert!(page.contains("Exigência feita"), "{page}");
    assert!(page.contains("11/11/2027"), "{page}");
    let mails = step_mails(&app, MARIA, 4).await;
    assert!(mails[2].contains("Imagem ilegível"), "{mails:?}");
    assert!(
        mails[3].contains("Envie o CRLV 2027") && mails[3].contains("11/11/2027"),
        "{mails:?}"
    );

    // The driver sees the exigência and the refusal, replaces the file and answers.
    let (_, page, _) = maria.get(&path).await;
    assert!(page.contains("A Prefeitura pede"), "{page}");
    assert!(page.contains("recusado: Imagem ilegível"), "{page}");
    // Accepted files stay: only the refused CRLV is replaced, and the certificates (up to four
    // files) still take more.
    assert_eq!(page.matches("Enviar arquivo").count(), 2, "{page}");
    assert!(page.contains("Trocar o arquivo"), "{page}");
    assert!(page.contains("Juntar mais um arquivo"), "{page}");
    let (status, page, _) = attach(
        &mut maria,
        &app,
        &filing,
        "crlv",
        "crlv-2027.pdf",
        PDF.to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let (status, _, _) = post_on_page(&mut maria, &path, &format!("{path}/protocolar"), &[]).await;
    assert_eq!(status, StatusCode::SEE_OTHER);

    // Decided through the renewal task opened on the filing: its protocol date counts.
    let task = format!(
        "/painel/tarefa/renovacao?id={}&requerimento={filing}",
        a["id"].as_str().unwrap()
    );
    let (status, page, _) = ana.get(&task).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(
        field(&page, "requerimento").as_deref(),
        Some(filing.as_str())
    );
    let (status, page, to) = renew_in_task(&mut ana, &page, &number, &filing).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let renewed_id = to
        .unwrap()
        .trim_start_matches("/painel/ver/app-authorizations/")
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    let renewed = app
        .get_json(&format!("/api/v1/app-authorizations/{renewed_id}"))
        .await;
    assert_eq!(renewed["renewal_of"], a["id"], "{renewed}");
    assert_eq!(renewed["protocolled_on"], "2027-11-01", "{renewed}");

    // The driver is told and downloads the new authorization and sticker.
    let mails = step_mails(&app, MARIA, 6).await;
    assert!(mails[5].contains("deferido"), "{mails:?}");
    let (_, page, _) = maria.get(&path).await;
    assert!(page.contains("deferido"), "{page}");
    let links: Vec<String> = page
        .split(&format!("href=\"{path}/documentos/"))
        .skip(1)
        .map(|s| s.split('"').next().unwrap().to_owned())
        .collect();
    assert_eq!(links.len(), 2, "{page}");
    let doc = format!("{path}/documentos/{}", links[1]);
    let res = maria
        .client
        .get(app.url(&doc))
        .header(reqwest::header::COOKIE, maria.cookie_header())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.bytes().await.unwrap().starts_with(b"%PDF-"));
    // Decided: out of the queue, and the task will not decide it twice.
    let (_, page, _) = ana.get("/painel/requerimentos").await;
    assert!(!page.contains("REQ-2027/000001"), "{page}");

    // Another applicant finds neither the filing nor its documents.
    let mut joao = signed_in(&app, "joao@exemplo.com.br").await;
    let (status, _, _) = joao.get(&path).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _, _) = joao.get(&doc).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, page, _) = attach(&mut joao, &app, &filing, "cnh", "cnh.pdf", PDF.to_vec()).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{page}");
}

#[tokio::test]
async fn the_desk_refuses_a_filing_with_its_reason_and_the_driver_is_told() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let a = app.granted().await;
    let number = a["number"].as_str().unwrap().to_owned();
    app.clock.set(crate::helpers::at("2027-11-01T15:00:00Z"));
    // A gravíssima traffic infraction in August 2027 is on record (art. 12, IV).
    let res = app
        .post(
            &format!(
                "/api/v1/drivers/{}/record",
                a["driver_id"].as_str().unwrap()
            ),
            &serde_json::json!({"traffic_infractions": [{"committed_on": "2027-08-01",
                "class": "gravissima"}]}),
        )
        .await;
    assert!(res.status().is_success(), "{}", res.text().await.unwrap());
    let mut maria = signed_in(&app, MARIA).await;
    let (_, _, to) = open(&mut maria, &number, CPFS[0]).await;
    let path = to.unwrap();
    let filing = path.trim_start_matches("/servicos/pedidos/").to_owned();
    // The page says, before anything is sent, what the register's data would stop: the
    // infraction and the authorization lapsed for want of a vistoria, which no document of the
    // filing answers, each with its provision.
    let (_, page, _) = maria.get(&path).await;
    let conf =
        &page[page.find("id=\"conferencia\"").unwrap()..page.find("<h2>Documentos").unwrap()];
    assert!(conf.contains("esbarraria em 2 pontos"), "{conf}");
    assert!(conf.contains("art. 12, IV"), "{conf}");
    assert!(conf.contains("caducada"), "{conf}");
    // A draft is the applicant's: the desk does not see it.
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let desk = format!("/painel/requerimentos/{filing}");
    let (status, _, _) = ana.get(&desk).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    for slot in ["cnh", "certidoes", "crlv", "taxas"] {
        let (status, page, _) =
            attach(&mut maria, &app, &filing, slot, "doc.pdf", PDF.to_vec()).await;
        assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    }
    let (status, _, _) = post_on_page(&mut maria, &path, &format!("{path}/protocolar"), &[]).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    // A refusal needs its reason.
    let (status, page, _) = post_on_page(
        &mut ana,
        &desk,
        &format!("{desk}/indeferir"),
        &[("motivo", " ")],
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    let (status, _, _) = post_on_page(
        &mut ana,
        &desk,
        &format!("{desk}/indeferir"),
        &[("motivo", "Condutor com CNH suspensa.")],
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let mails = step_mails(&app, MARIA, 3).await;
    assert!(
        mails[2].contains("indeferido") && mails[2].contains("CNH suspensa"),
        "{mails:?}"
    );
    let (_, page, _) = maria.get(&path).await;
    assert!(page.contains("indeferido"), "{page}");
    assert!(!page.contains("Enviar arquivo"), "{page}");
    // Decided once: the renewal task refuses to decide it again, and nothing is issued.
    let (_, page, _) = ana
        .get(&format!(
            "/painel/tarefa/renovacao?id={}&requerimento={filing}",
            a["id"].as_str().unwrap()
        ))
        .await;
    let (status, page, _) = renew_in_task(&mut ana, &page, &number, &filing).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("já foi decidido"), "{page}");
}

/// An applicant's upload that stalls is answered 408 at the upload deadline, as the page says,
/// and nothing of it is kept.
#[tokio::test]
async fn a_stalled_attachment_is_answered_at_the_upload_deadline() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = crate::helpers::spawn_app_with_limits(selo::settings::Limits {
        upload_deadline: std::time::Duration::from_secs(1),
        ..selo::settings::Limits::default()
    })
    .await;
    let a = app.granted().await;
    app.clock.set(crate::helpers::at("2027-11-01T15:00:00Z"));
    let mut maria = signed_in(&app, MARIA).await;
    let (_, _, to) = open(&mut maria, a["number"].as_str().unwrap(), CPFS[0]).await;
    let path = to.unwrap();
    let (_, page, _) = maria.get("/servicos/inicio").await;
    let csrf = field(&page, "_csrf").unwrap();
    let head = format!(
        "POST {path}/arquivos HTTP/1.1\r\nHost: selo\r\nCookie: {}\r\n\
         Content-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: 5000000\r\n\r\n\
         --XyZ\r\nContent-Disposition: form-data; name=\"_csrf\"\r\n\r\n{csrf}\r\n\
         --XyZ\r\nContent-Disposition: form-data; name=\"documento\"\r\n\r\ncnh\r\n\
         --XyZ\r\nContent-Disposition: form-data; name=\"arquivo\"; filename=\"cnh.pdf\"\r\n\
         Content-Type: application/pdf\r\n\r\n%PDF-1.7\n",
        maria.cookie_header()
    );
    let addr = app.address.trim_start_matches("http://").to_owned();
    let mut stalled = tokio::net::TcpStream::connect(&addr).await.unwrap();
    stalled.write_all(head.as_bytes()).await.unwrap();
    let mut answer = vec![0u8; 65536];
    let n = tokio::time::timeout(std::time::Duration::from_secs(5), stalled.read(&mut answer))
        .await
        .expect("the stalled upload is answered")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer[..n]).into_owned();
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    let (_, page, _) = maria.get(&path).await;
    assert!(!page.contains("aguardando análise"), "{page}");
    assert_eq!(page.matches("Nenhum arquivo ainda").count(), 4, "{page}");
}

/// A certidão asked for online: no document to attach, protocolled with a number, issued at
/// the desk through the certidão act with that number as its protocol, downloaded by the
/// driver alone.
#[tokio::test]
async fn a_driver_asks_for_a_certidao_online_and_the_desk_issues_it() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let a = app.granted().await;
    let number = a["number"].as_str().unwrap().to_owned();
    let mut maria = signed_in(&app, MARIA).await;

    // The link of the home page preselects the kind; an unknown kind is refused.
    let (status, page, _) = maria
        .get("/servicos/pedidos/novo?tipo=app_certidao_vehicle")
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains("value=\"app_certidao_vehicle\" checked"),
        "{page}"
    );
    let (status, page, _) = open_as(&mut maria, "app_licenca", &number, CPFS[0]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("Escolha o que você pede"), "{page}");
    let (path, filing) = opened(&mut maria, "app_certidao_vehicle", &number).await;

    // Nothing to attach, nothing judged: the page says so and the filing can be sent.
    let (_, page, _) = maria.get(&path).await;
    assert!(
        page.contains("Certidão de situação cadastral do veículo"),
        "{page}"
    );
    assert!(page.contains("não pede documentos"), "{page}");
    assert!(!page.contains("Conferência com o cadastro"), "{page}");
    let (status, page, _) = attach(&mut maria, &app, &filing, "cnh", "cnh.pdf", PDF.to_vec()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    let (status, _, _) = post_on_page(&mut maria, &path, &format!("{path}/protocolar"), &[]).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    // The first message is the sign-in code.
    let mails = step_mails(&app, MARIA, 2).await;
    assert!(
        mails[1].contains("“Certidão de situação cadastral do veículo”")
            && mails[1].contains(&number)
            && mails[1].contains("foi protocolado"),
        "{mails:?}"
    );
    let protocol = protocol_in(&mails[1]);

    // The desk issues it; a second time the filing is no longer in review.
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let desk = format!("/painel/requerimentos/{filing}");
    let (_, page, _) = ana.get(&desk).await;
    assert!(page.contains("Emitir a certidão"), "{page}");
    assert!(!page.contains("tarefa de renovação"), "{page}");
    decided_once(&mut ana, &desk, "certidao").await;
    let mails = step_mails(&app, MARIA, 3).await;
    assert!(
        mails[2].contains("a certidão de situação cadastral do veículo foi emitida"),
        "{mails:?}"
    );

    // The driver downloads it: the car's certidão, numbered with the filing's protocol.
    let (_, page, _) = maria.get(&path).await;
    assert!(page.contains("a certidão foi emitida"), "{page}");
    let link = page
        .split(&format!("href=\"{path}/documentos/"))
        .nth(1)
        .and_then(|s| s.split('"').next())
        .map_or_else(|| panic!("{page}"), |id| format!("{path}/documentos/{id}"));
    let res = maria
        .client
        .get(app.url(&link))
        .header(reqwest::header::COOKIE, maria.cookie_header())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let pdf = res.bytes().await.unwrap();
    let text = crate::pdf::pdf_text(&pdf);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(&format!("protocolado sob o nº {protocol}")),
        "{flat}"
    );
    assert!(flat.contains("VEÍCULO PLACA"), "{flat}");
    // Nobody else gets it.
    let mut joao = signed_in(&app, "joao@exemplo.com.br").await;
    let (status, _, _) = joao.get(&link).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// A change of data reported online (art. 13, XIX): the driver says what changed and when,
/// may attach its proof, and sends it; the desk records it as reported on the protocol date,
/// and a report after the period is told as such.
#[tokio::test]
async fn a_driver_reports_a_change_online_and_the_desk_records_it_late() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let a = app.granted().await;
    let number = a["number"].as_str().unwrap().to_owned();
    let mut maria = signed_in(&app, MARIA).await;
    let (path, filing) = opened(&mut maria, "app_data_change", &number).await;
    let (_, page, _) = maria.get(&path).await;
    assert!(
        page.contains("Comunicação de alteração de dados cadastrais"),
        "{page}"
    );
    assert!(page.contains("Opcional: junte se tiver."), "{page}");
    assert!(page.contains("art. 13, XIX"), "{page}");

    // Not sent before saying what changed; a future day is refused.
    let (status, page, _) =
        post_on_page(&mut maria, &path, &format!("{path}/protocolar"), &[]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("Diga o que mudou"), "{page}");
    let change = format!("{path}/alteracao");
    let (status, page, _) = post_on_page(
        &mut maria,
        &path,
        &change,
        &[("o_que", "Novo endereço"), ("data", "01/12/2026")],
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("não pode ser futura"), "{page}");
    let (status, page, _) = post_on_page(
        &mut maria,
        &path,
        &change,
        &[
            ("o_que", "Novo endereço: Rua das Acácias, 12"),
            ("data", "01/11/2026"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let (status, page, _) = attach(
        &mut maria,
        &app,
        &filing,
        "comprovante",
        "conta.png",
        PNG.to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let (status, _, _) = post_on_page(&mut maria, &path, &format!("{path}/protocolar"), &[]).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    // Sent: the change can no longer be restated.
    let (status, page, _) = post_on_page(
        &mut maria,
        &path,
        &change,
        &[("o_que", "Outra coisa"), ("data", "02/11/2026")],
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");

    // The desk sees what was stated and records it once.
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let desk = format!("/painel/requerimentos/{filing}");
    let (_, page, _) = ana.get(&desk).await;
    assert!(page.contains("Rua das Acácias, 12"), "{page}");
    assert!(page.contains("Registrar a alteração"), "{page}");
    decided_once(&mut ana, &desk, "alteracao").await;

    // Reported on the protocol date, 29 days after the change: late, and the driver is told.
    let mails = step_mails(&app, MARIA, 3).await;
    assert!(
        mails[2].contains("foi registrada no cadastro") && mails[2].contains("depois do prazo"),
        "{mails:?}"
    );
    let (_, page, _) = maria.get(&path).await;
    assert!(
        page.contains("a alteração foi registrada no cadastro"),
        "{page}"
    );
    let driver = a["driver_id"].as_str().unwrap();
    let history = app
        .get_json(&format!("/api/v1/drivers/{driver}/history"))
        .await
        .to_string();
    assert!(history.contains("Rua das Acácias, 12"), "{history}");
    assert!(history.contains("2026-11-30"), "{history}");
}

/// A defence against an auto sent online: opened with the auto's number and the driver's CPF,
/// the petition attached, protocolled; the desk joins it to the auto's procedure as filed on
/// the protocol date with the filing's number, once; the auto's procedure reads it as timely.
#[tokio::test]
async fn a_driver_defends_against_an_auto_online_and_the_desk_joins_it_to_the_procedure() {
    let app = spawn_app().await;
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    let grant = app.granted().await;
    let driver = grant["driver_id"].as_str().unwrap();
    let mut body = crate::autos::auto_body(driver, "APP-ART26-IV", "2026-11-29T09:00:00-04:00");
    body["authorization_id"] = grant["id"].clone();
    let res = app.post("/api/v1/app-infraction-autos", &body).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let auto: serde_json::Value = res.json().await.unwrap();
    let (auto_id, auto_number) = (
        auto["id"].as_str().unwrap().to_owned(),
        auto["number"].as_str().unwrap().to_owned(),
    );
    let res = app
        .post(
            &format!("/api/v1/app-infraction-autos/{auto_id}/notification"),
            &serde_json::json!({"method": "post", "notified_on": "2026-11-30", "juntada_on": "2026-11-30"}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);

    let mut maria = signed_in(&app, MARIA).await;
    // Another CPF, or the authorization's number, does not open a defence.
    let (status, page, _) = open_as(&mut maria, "app_defence", &auto_number, CPFS[1]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(
        page.contains("Não encontramos um auto de infração"),
        "{page}"
    );
    let number = grant["number"].as_str().unwrap();
    let (status, _, _) = open_as(&mut maria, "app_defence", number, CPFS[0]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (path, filing) = opened(&mut maria, "app_defence", &auto_number).await;
    let (_, page, _) = maria.get(&path).await;
    assert!(
        page.contains(&format!("Auto de infração {auto_number}")),
        "{page}"
    );
    assert!(
        page.contains("Para enviar, ainda falta juntar: Defesa escrita"),
        "{page}"
    );
    let (status, page, _) = attach(
        &mut maria,
        &app,
        &filing,
        "peticao",
        "defesa.pdf",
        PDF.to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let (status, _, _) = post_on_page(&mut maria, &path, &format!("{path}/protocolar"), &[]).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let mails = step_mails(&app, MARIA, 2).await;
    let protocol = protocol_in(&mails[1]);

    // The desk joins it to the procedure once.
    let mut ana = Browser::new(&app);
    ana.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let desk = format!("/painel/requerimentos/{filing}");
    let (_, page, _) = ana.get(&desk).await;
    assert!(page.contains("Juntar ao processo do auto"), "{page}");
    assert!(
        page.contains(&format!("/painel/ver/app-infraction-autos/{auto_id}")),
        "{page}"
    );
    decided_once(&mut ana, &desk, "processo").await;

    // The auto's procedure has the defence, on the protocol date, under the filing's number.
    let a = app
        .get_json(&format!("/api/v1/app-infraction-autos/{auto_id}"))
        .await;
    assert_eq!(a["procedure"]["stage"], "defesa_apresentada", "{a}");
    assert_eq!(a["procedure"]["defence_timely"], true, "{a}");
    let history = app
        .get_json(&format!("/api/v1/app-infraction-autos/{auto_id}/history"))
        .await
        .to_string();
    assert!(history.contains(&protocol), "{history}");
    let mails = step_mails(&app, MARIA, 3).await;
    assert!(
        mails[2].contains("foi juntado ao processo do auto de infração"),
        "{mails:?}"
    );
    let (_, page, _) = maria.get(&path).await;
    assert!(page.contains("foi juntado ao processo do auto"), "{page}");
}
