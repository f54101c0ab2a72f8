//! The applicants' counter at `/servicos` and the e-mail outbox behind it: a code sent
//! through a real SMTP conversation, sessions, and messages sent once across restarts and
//! between senders.

use reqwest::StatusCode;
use selo::clock::Clock;

use crate::helpers::{TestApp, spawn_app, spawn_mailing};
use crate::panel::{Browser, field};
use crate::smtp::SmtpServer;

/// The six digits the sign-in message carries.
fn code_in(body: &str) -> String {
    body.split_whitespace()
        .find(|w| w.len() == 6 && w.chars().all(|c| c.is_ascii_digit()))
        .unwrap_or_else(|| panic!("no code in {body}"))
        .to_owned()
}

/// Asks for a code for `email`; answers the code form's path.
async fn ask_code(b: &mut Browser<'_>, email: &str) -> (StatusCode, String, Option<String>) {
    let (status, page, _) = b.get("/servicos").await;
    assert_eq!(status, StatusCode::OK);
    let csrf = field(&page, "_csrf").unwrap();
    b.post("/servicos/entrar", &[("_csrf", &csrf), ("email", email)])
        .await
}

/// Types `code` on the code form at `path`.
async fn type_code(
    b: &mut Browser<'_>,
    path: &str,
    code: &str,
) -> (StatusCode, String, Option<String>) {
    let (status, page, _) = b.get(path).await;
    assert_eq!(status, StatusCode::OK);
    let csrf = field(&page, "_csrf").unwrap();
    let challenge = field(&page, "desafio").unwrap();
    b.post(
        "/servicos/codigo",
        &[("_csrf", &csrf), ("desafio", &challenge), ("codigo", code)],
    )
    .await
}

/// Signs `email` in through the code it receives.
pub(crate) async fn signed_in<'a>(app: &'a TestApp, email: &str) -> Browser<'a> {
    let mut b = Browser::new(app);
    let before = app
        .smtp
        .inbox()
        .iter()
        .filter(|m| m.to.iter().any(|t| t == email))
        .count();
    let (_, _, to) = ask_code(&mut b, email).await;
    let mail = app.smtp.wait_for(email, before + 1).await;
    let code = code_in(&mail[before].body());
    let (status, _, _) = type_code(&mut b, &to.unwrap(), &code).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    b
}

#[tokio::test]
async fn an_applicant_signs_in_with_a_code_sent_through_smtp_and_signs_out() {
    let app = spawn_app().await;
    let mut b = Browser::new(&app);
    let (status, _, to) = ask_code(&mut b, "  Maria.Motorista@Exemplo.com.br ").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let to = to.unwrap();
    // The address never travels in a URL; only the random challenge does.
    assert!(to.starts_with("/servicos/codigo?desafio="), "{to}");
    assert!(!to.to_lowercase().contains("maria"), "{to}");

    let mail = app.smtp.wait_for("maria.motorista@exemplo.com.br", 1).await;
    let m = &mail[0];
    assert_eq!(m.user.as_deref(), Some("selo"), "the sender authenticates");
    assert_eq!(m.from, "selo@barradogarcas.mt.gov.br");
    let body = m.body();
    let code = code_in(&body);
    assert!(body.contains("10 minutos"), "{body}");
    assert!(m.header("Message-ID").unwrap().contains('@'));

    // A wrong code says how many tries are left and opens nothing.
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let (status, page, _) = type_code(&mut b, &to, wrong).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(page.contains("Restam 4 tentativas"), "{page}");
    let (status, _, back) = b.get("/servicos/inicio").await;
    assert_eq!(
        (status, back.as_deref()),
        (StatusCode::SEE_OTHER, Some("/servicos"))
    );

    // The right one opens the account and a session.
    let (status, _, home) = type_code(&mut b, &to, &code).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(home.as_deref(), Some("/servicos/inicio?novo"));
    let (status, page, _) = b.get("/servicos/inicio").await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("maria.motorista@exemplo.com.br"), "{page}");
    assert!(!page.contains("Conta criada"), "{page}");
    let (_, page, _) = b.get("/servicos/inicio?novo").await;
    assert!(page.contains("Conta criada"), "{page}");

    // Used once: the same code no longer opens anything.
    let mut other = Browser::new(&app);
    let (status, page, _) = type_code(&mut other, &to, &code).await;
    assert_eq!(status, StatusCode::GONE, "{page}");

    // Signing out ends the session for good.
    let (_, page, _) = b.get("/servicos/inicio").await;
    let csrf = field(&page, "_csrf").unwrap();
    let kept = b.cookie_header();
    let (status, _, to) = b.post("/servicos/sair", &[("_csrf", &csrf)]).await;
    assert_eq!(
        (status, to.as_deref()),
        (StatusCode::SEE_OTHER, Some("/servicos?saiu"))
    );
    let res = b
        .client
        .get(app.url("/servicos/inicio"))
        .header(reqwest::header::COOKIE, kept)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn codes_wear_out_after_five_wrong_tries_and_are_rationed_per_address() {
    let app = spawn_app().await;
    let mut b = Browser::new(&app);
    let (_, _, to) = ask_code(&mut b, "joao@exemplo.com").await;
    let to = to.unwrap();
    let code = code_in(&app.smtp.wait_for("joao@exemplo.com", 1).await[0].body());
    let wrong = if code == "999999" { "888888" } else { "999999" };
    for said in [
        "Restam 4 tentativas",
        "Restam 3 tentativas",
        "Restam 2 tentativas",
        "Resta 1 tentativa",
        "Não restam tentativas",
    ] {
        let (status, page, _) = type_code(&mut b, &to, wrong).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{page}");
        assert!(page.contains(said), "{said}: {page}");
    }
    // Worn out: even the right code is refused now.
    let (status, _, _) = type_code(&mut b, &to, &code).await;
    assert_eq!(status, StatusCode::GONE);

    // Three codes per address in 15 minutes; the fourth is refused and nothing is sent.
    for _ in 0..2 {
        let (status, _, _) = ask_code(&mut b, "joao@exemplo.com").await;
        assert_eq!(status, StatusCode::SEE_OTHER);
    }
    let (status, page, _) = ask_code(&mut b, "joao@exemplo.com").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{page}");
    app.smtp.wait_for("joao@exemplo.com", 3).await;
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    assert_eq!(
        app.smtp
            .inbox()
            .iter()
            .filter(|m| m.to.iter().any(|t| t == "joao@exemplo.com"))
            .count(),
        3
    );
    // After the window, a new code may be asked for.
    app.clock.advance(chrono::Duration::minutes(16));
    let (status, _, _) = ask_code(&mut b, "joao@exemplo.com").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn a_malformed_address_is_refused_beside_its_field_and_nothing_is_queued() {
    let app = spawn_app().await;
    let mut b = Browser::new(&app);
    let (status, page, _) = ask_code(&mut b, "maria@exemplo").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.contains("aria-invalid=\"true\""), "{page}");
    assert!(page.contains("value=\"maria@exemplo\""), "{page}");
    // Without the form's CSRF token nothing is done.
    let (status, _, _) = b
        .post(
            "/servicos/entrar",
            &[("_csrf", "forjado"), ("email", "maria@exemplo.com")],
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    assert!(app.smtp.inbox().is_empty());
}

/// A message queued while the SMTP server is down is sent once it is back, after a restart
/// of the service; a message a stopped node had claimed is sent by the next once its lease
/// ends, and only once.
#[tokio::test]
async fn a_queued_message_survives_a_restart_and_is_sent_exactly_once() {
    // The first service's SMTP server never answers: it was never started on that port.
    let dead = SmtpServer::unanswered();
    let data_dir = tempfile::tempdir().unwrap();
    let keys_dir = tempfile::tempdir().unwrap();
    let (database_url, backend) = crate::helpers::another_database(data_dir.path()).await;
    let first = spawn_mailing(
        database_url.clone(),
        backend,
        keys_dir,
        data_dir,
        selo::settings::Limits {
            rates: selo::settings::Rates::UNLIMITED,
            ..selo::settings::Limits::default()
        },
        None,
        dead,
    )
    .await;
    let mut b = Browser::new(&first);
    let (status, _, _) = ask_code(&mut b, "ana@exemplo.com").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    // The attempt failed and was scheduled again; the message waits in the outbox.
    let store = selo::storage::Store::connect(&database_url).await.unwrap();
    let mut waited = 0;
    loop {
        let failed_once: i64 = attempts(&store).await;
        if failed_once >= 1 {
            break;
        }
        waited += 1;
        assert!(waited < 100, "the first service never tried");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(store.mail_backlog().await.unwrap(), 1);

    // A second node, with a working SMTP server, starts on the same database: the message is
    // not due yet (the retry waits a minute), then it is, and it goes out once.
    let smtp = SmtpServer::start().await;
    let second = spawn_mailing(
        database_url.clone(),
        backend,
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        selo::settings::Limits::default(),
        None,
        smtp.clone(),
    )
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert!(smtp.inbox().is_empty(), "sent before its retry time");
    second.clock.advance(chrono::Duration::minutes(2));
    smtp.wait_for("ana@exemplo.com", 1).await;
    tokio::time::sleep(std::time::Duration::from_millis(800)).await;
    assert_eq!(smtp.inbox().len(), 1, "sent more than once");
    assert_eq!(store.mail_backlog().await.unwrap(), 0);

    // A message a node claimed and then died with (its lease still running) is left alone
    // until the lease ends, then sent once by a live node.
    let mail = selo::storage::outbox::OutgoingMail {
        recipient: "bia@exemplo.com".into(),
        subject: "Teste".into(),
        body: "Corpo".into(),
        topic: "test",
        entity: None,
    };
    // Due a minute ahead of the live node's clock, so the dead node is the one that claims it.
    let now = second.clock.now() + chrono::Duration::minutes(1);
    store.queue_mail(&mail, now).await.unwrap();
    let claimed = store
        .claim_mail("node-dead", now, now + chrono::Duration::minutes(2), 10)
        .await
        .unwrap();
    assert_eq!(claimed.len(), 1);
    second.clock.advance(chrono::Duration::minutes(2));
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    assert!(smtp.inbox().iter().all(|m| m.to != ["bia@exemplo.com"]));
    second.clock.advance(chrono::Duration::minutes(2));
    smtp.wait_for("bia@exemplo.com", 1).await;
    // The dead node's late report changes nothing.
    assert!(
        !store
            .mail_attempted(
                claimed[0].id,
                "node-dead",
                now,
                &selo::storage::outbox::AttemptOutcome::Sent
            )
            .await
            .unwrap()
    );
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    assert_eq!(
        smtp.inbox()
            .iter()
            .filter(|m| m.to == ["bia@exemplo.com"])
            .count(),
        1
    );
    drop(first);
}

/// Two senders on one database send each of 30 messages once.
#[tokio::test]
async fn two_senders_on_one_database_send_each_message_once() {
    let app = spawn_app().await;
    let store = selo::storage::Store::connect(&app.database_url)
        .await
        .unwrap();
    let now = app.clock.now();
    for i in 0..30 {
        store
            .queue_mail(
                &selo::storage::outbox::OutgoingMail {
                    recipient: format!("pessoa{i}@exemplo.com"),
                    subject: format!("Mensagem {i}"),
                    body: "Corpo".into(),
                    topic: "test",
                    entity: None,
                },
                now,
            )
            .await
            .unwrap();
    }
    let sender = |node: &str| selo::mail::Sender {
        store: store.clone(),
        clock: app.clock.clone(),
        settings: crate::helpers::mail_to(&app.smtp),
        transport: selo::mail::Transport::from_settings(&crate::helpers::mail_to(&app.smtp), false)
            .unwrap()
            .unwrap(),
        node: node.to_owned(),
        host: "selo.example.test".into(),
    };
    let (a, b) = (sender("node-a"), sender("node-b"));
    let (ra, rb) = tokio::join!(a.drain(), b.drain());
    let (ra, rb) = (ra.unwrap(), rb.unwrap());
    // The service's own sender may have taken some too; together, each once.
    for i in 0..30 {
        app.smtp
            .wait_for(&format!("pessoa{i}@exemplo.com"), 1)
            .await;
    }
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    assert_eq!(app.smtp.inbox().len(), 30, "{ra} + {rb} attempts");
    assert_eq!(store.mail_backlog().await.unwrap(), 0);
}

/// A recipient the server refuses for good is marked failed at once, with the server's word,
/// for the officials to see.
#[tokio::test]
async fn a_refused_address_fails_for_good_with_the_servers_reason() {
    let app = spawn_app().await;
    app.smtp.refuse("nao.existe@exemplo.com");
    let mut b = Browser::new(&app);
    ask_code(&mut b, "nao.existe@exemplo.com").await;
    let store = selo::storage::Store::connect(&app.database_url)
        .await
        .unwrap();
    for _ in 0..100 {
        let failed = store.failed_mail().await.unwrap();
        if let Some(f) = failed.first() {
            assert_eq!(f.recipient, "nao.existe@exemplo.com");
            assert_eq!(f.attempts, 1);
            assert!(f.last_error.as_deref().unwrap().contains("550"), "{f:?}");
            assert_eq!(store.mail_backlog().await.unwrap(), 0);
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the refused message was never marked failed");
}

async fn attempts(store: &selo::storage::Store) -> i64 {
    store.mail_attempts_total().await.unwrap()
}

/// A session ends after 30 minutes without use and after 8 hours in any case.
#[tokio::test]
async fn an_applicants_session_ends_when_idle_and_after_eight_hours() {
    let app = spawn_app().await;
    let mut b = signed_in(&app, "idle@exemplo.com").await;
    app.clock.advance(chrono::Duration::minutes(29));
    assert_eq!(b.get("/servicos/inicio").await.0, StatusCode::OK);
    app.clock.advance(chrono::Duration::minutes(31));
    let (status, _, to) = b.get("/servicos/inicio").await;
    assert_eq!(
        (status, to.as_deref()),
        (StatusCode::SEE_OTHER, Some("/servicos"))
    );

    // Kept busy, it still ends at eight hours.
    let mut b = signed_in(&app, "ocupada@exemplo.com").await;
    for _ in 0..16 {
        app.clock.advance(chrono::Duration::minutes(29));
        assert_eq!(b.get("/servicos/inicio").await.0, StatusCode::OK);
    }
    app.clock.advance(chrono::Duration::minutes(29));
    let (status, _, _) = b.get("/servicos/inicio").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
}
