//! Passengers' reports (`/denuncia`): sent from the page of a verified document with no
//! account, tied to the document and plate the page showed, received by the Ouvidoria in the
//! back office, answered by e-mail when the passenger left one (then the address is erased),
//! deleted after the retention; rate-limited per address.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{OFFICIAL_PASSWORD, TestApp, spawn_app, sticker_url, token_of};
use crate::panel::{Browser, field};

const PASSENGER: &str = "passageira@exemplo.com.br";

/// The address of the report form a verification page links, `&amp;` read back.
fn report_link(page: &str) -> String {
    let start = page
        .find("href=\"/denuncia")
        .unwrap_or_else(|| panic!("no report link in {page}"))
        + "href=\"".len();
    page[start..]
        .split('"')
        .next()
        .unwrap()
        .replace("&amp;", "&")
        .replace("&#x2f;", "/")
        .replace("&#47;", "/")
}

/// Sends the report form at `form_path` with `fields`.
async fn send(
    b: &mut Browser<'_>,
    form_path: &str,
    fields: &[(&str, &str)],
) -> (StatusCode, String, Option<String>) {
    let (status, page, _) = b.get(form_path).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let csrf = field(&page, "_csrf").unwrap();
    let mut form = vec![("_csrf", csrf.as_str())];
    // The reference the form carries, as a browser would send it back.
    let t = field(&page, "t");
    let code = field(&page, "codigo");
    if let Some(t) = &t {
        form.push(("t", t));
    }
    if let Some(c) = &code {
        form.push(("codigo", c));
    }
    form.extend_from_slice(fields);
    b.post("/denuncia", &form).await
}

async fn ouvidoria(app: &TestApp) -> Browser<'_> {
    app.official("olga.ouv", "Olga Ouvidoria", "ombudsman")
        .await;
    let mut b = Browser::new(app);
    let (status, _, _) = b.sign_in("olga.ouv", OFFICIAL_PASSWORD).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    b
}

#[tokio::test]
#[expect(
    clippy::too_many_lines,
    reason = "one report from the page of a suspended sticker to the Ouvidoria's answer"
)]
async fn a_report_from_a_suspended_stickers_page_reaches_the_ouvidoria_with_the_plate() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let token = token_of(&sticker_url(&grant));
    let path = format!(
        "/api/v1/app-authorizations/{}/sanctions",
        grant["id"].as_str().unwrap()
    );
    let body = json!({"kind": "suspension", "effective_from": "2026-12-01", "days": 30,
                      "reason": "Reincidência", "legal_basis": "art. 26, §1º"});
    assert_eq!(app.post(&path, &body).await.status(), StatusCode::CREATED);
    assert_eq!(
        app.vistoria(&grant, "2026-11-30", true).await.status(),
        StatusCode::CREATED
    );
    app.clock.advance(chrono::Duration::days(1));

    // The page of the scanned sticker offers the report about it.
    let mut passenger = Browser::new(&app);
    let (status, page, _) = passenger.get(&format!("/v/{token}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("SUSPENSO"), "{page}");
    let link = report_link(&page);
    assert!(link.starts_with("/denuncia?t="), "{link}");
    // A verdict that says not to board puts the report first, before the car to compare.
    assert!(
        page.find("Denunciar pela internet") < page.find("class=\"match\""),
        "{page}"
    );
    let (status, form, _) = passenger.get(&link).await;
    assert_eq!(status, StatusCode::OK, "{form}");
    assert!(
        form.contains("BRA2E19") && form.contains("SUSPENSO") && form.contains("Adesivo"),
        "{form}"
    );

    // Every problem named at once; nothing recorded.
    let (status, page, _) = send(
        &mut passenger,
        &link,
        &[("relato", "curto"), ("data", "2026-12-09"), ("email", "x")],
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    for e in [
        "Escolha o que aconteceu",
        "ao menos 10 letras",
        "não pode ser futura",
        "Confira o e-mail",
    ] {
        assert!(page.contains(e), "{e}: {page}");
    }
    // Without the form's token (another site's form): refused.
    let (status, _, _) = passenger
        .post(
            "/denuncia",
            &[
                ("categoria", "conduta"),
                ("relato", "x".repeat(20).as_str()),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    let account = "O motorista mostrou o adesivo e levou passageiros mesmo suspenso.";
    let (status, page, to) = send(
        &mut passenger,
        &link,
        &[
            ("categoria", "documento_invalido"),
            ("relato", account),
            ("data", "2026-12-01"),
            ("hora", "21:30"),
            ("email", "Passageira@Exemplo.com.br"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let to = to.unwrap();
    let (status, page, _) = passenger.get(&to).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("DEN-2026/000001"), "{page}");
    let receipt = app.smtp.wait_for(PASSENGER, 1).await;
    assert!(
        receipt[0].body().contains("DEN-2026/000001") && !receipt[0].body().contains("BRA2E19"),
        "{}",
        receipt[0].body()
    );

    // The typed code's page offers the report too, naming the same document.
    let code = grant["documents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["kind"] == "app_sticker")
        .unwrap()["verification_code"]
        .as_str()
        .unwrap()
        .to_owned();
    let (_, page, _) = passenger.get(&format!("/v?codigo={code}")).await;
    let link = report_link(&page);
    assert!(link.starts_with("/denuncia?codigo="), "{link}");
    let (status, page, _) = send(
        &mut passenger,
        &link,
        &[
            ("categoria", "conduta"),
            ("relato", "Dirigiu falando ao celular o tempo todo."),
            ("data", "2026-12-01"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");

    // The Ouvidoria's queue, with the plate; the issuers' back office has no such page.
    let mut issuer = Browser::new(&app);
    app.official("ana.smf", "Ana Finanças", "ride_hailing_issuer")
        .await;
    issuer.sign_in("ana.smf", OFFICIAL_PASSWORD).await;
    let (status, _, _) = issuer.get("/painel/denuncias").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let mut olga = ouvidoria(&app).await;
    let (status, queue, _) = olga.get("/painel/denuncias").await;
    assert_eq!(status, StatusCode::OK, "{queue}");
    assert!(
        queue.contains("href=\"/painel/denuncias\""),
        "menu: {queue}"
    );
    for s in ["DEN-2026/000001", "DEN-2026/000002", "BRA2E19", "SUSPENSO"] {
        assert!(queue.contains(s), "{s}: {queue}");
    }
    let marker = "href=\"/painel/denuncias/";
    let id = queue
        .split(marker)
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    let report_path = format!("/painel/denuncias/{id}");
    let (_, page, _) = olga.get(&report_path).await;
    assert!(
        page.contains(account) && page.contains("01/12/2026 às 21:30"),
        "{page}"
    );
    assert!(page.contains("deixou e-mail"), "{page}");
    // The Ouvidoria reads no register: its start is its queue.
    let (status, _, to) = olga.get("/painel").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(to.as_deref(), Some("/painel/denuncias"));

    // An empty answer is refused; the answer closes it and reaches the passenger.
    let csrf = field(&page, "_csrf").unwrap();
    let close = format!("{report_path}/encerrar");
    let (status, page, _) = olga
        .post(&close, &[("_csrf", csrf.as_str()), ("resposta", " ")])
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    let answer = "A autorização está suspensa; o motorista foi autuado pela fiscalização.";
    let (status, _, to) = olga
        .post(&close, &[("_csrf", csrf.as_str()), ("resposta", answer)])
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let (_, page, _) = olga.get(&to.unwrap()).await;
    assert!(
        page.contains("Encerrada") && page.contains(answer),
        "{page}"
    );
    let mails = app.smtp.wait_for(PASSENGER, 2).await;
    assert!(
        mails[1].body().contains(answer) && mails[1].body().contains("DEN-2026/000001"),
        "{}",
        mails[1].body()
    );
    let (status, page, _) = olga
        .post(&close, &[("_csrf", csrf.as_str()), ("resposta", answer)])
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("já foi respondida"), "{page}");

    // The address is gone once answered; the audit chain never held the account.
    let store = app.store().await;
    let row = store
        .report(uuid::Uuid::parse_str(&id).unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.contact_email, None);
    assert_eq!(row.plate.as_deref(), Some("BRA2E19"));
    assert_eq!(row.verdict, "suspended");
    let events: Vec<_> = store
        .chain_rows(0, 100_000)
        .await
        .unwrap()
        .into_iter()
        .filter(|e| e.entity_type == "passenger_report")
        .collect();
    assert_eq!(events.len(), 3, "two received, one closed");
    assert!(
        events
            .iter()
            .all(|e| !e.data.contains("celular") && !e.data.contains("passageira")),
        "{events:?}"
    );

    // Past the retention, the closed report is deleted; the open one stays.
    let later = selo::clock::Clock::now(app.clock.as_ref()) + chrono::Duration::days(731);
    assert_eq!(store.purge_reports(later).await.unwrap(), 1);
    let (_, queue, _) = olga.get("/painel/denuncias").await;
    assert!(
        !queue.contains("DEN-2026/000001") && queue.contains("DEN-2026/000002"),
        "{queue}"
    );
}
