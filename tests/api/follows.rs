//! An applicant follows a driver (authorization number and CPF together) or a charter company
//! (Termo number and CNPJ together) at `/servicos`, sees its status there, and receives a
//! reminder by e-mail on the days before the expiry the profile names — each once, only the
//! nearest when days were skipped, none after a renewal and none to anyone else.

use chrono::{Duration, NaiveDate};
use reqwest::StatusCode;

use crate::charter::{company, created, minibus_company, noon, termo};
use crate::helpers::{CPFS, TestApp, spawn_app};
use crate::panel::{Browser, field};
use crate::services::signed_in;

/// Follows the record `number` of kind `tipo` with `document`; the status and the page.
async fn follow(
    b: &mut Browser<'_>,
    tipo: &str,
    number: &str,
    document: &str,
) -> (StatusCode, String, Option<String>) {
    let (status, page, _) = b.get("/servicos/acompanhar").await;
    assert_eq!(status, StatusCode::OK);
    let csrf = field(&page, "_csrf").unwrap();
    b.post(
        "/servicos/acompanhar",
        &[
            ("_csrf", &csrf),
            ("tipo", tipo),
            ("numero", number),
            ("documento", document),
        ],
    )
    .await
}

/// The reminders `email` has received so far (subjects), after the reminder passes of a
/// moment.
async fn reminders_of(app: &TestApp, email: &str) -> Vec<String> {
    tokio::time::sleep(std::time::Duration::from_millis(900)).await;
    app.smtp
        .inbox()
        .iter()
        .filter(|m| m.to.iter().any(|t| t == email))
        .map(crate::smtp::Received::subject)
        .filter(|s| s.contains("vence"))
        .collect()
}

fn date(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

/// Noon, local time, `days` before `until`.
fn before(until: NaiveDate, days: i64) -> chrono::DateTime<chrono::Utc> {
    noon(&(until - Duration::days(days)).to_string())
}

#[tokio::test]
async fn a_driver_follows_the_authorization_and_is_reminded_before_it_expires() {
    let app = spawn_app().await;
    let a = app.granted().await;
    let vistoria = app.vistoria(&a, "2026-11-23", true).await;
    assert!(vistoria.status().is_success());
    let number = a["number"].as_str().unwrap();
    let until = date(a["valid_until"].as_str().unwrap());

    let email = "joao.motorista@exemplo.com.br";
    let mut b = signed_in(&app, email).await;
    let (_, page, _) = b.get("/servicos/inicio").await;
    assert!(page.contains("Nenhum cadastro ainda"), "{page}");
    // A number with another driver's CPF: the same answer as an unknown number.
    let (status, page, _) = follow(&mut b, "motorista", number, CPFS[1]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        page.contains("Não encontramos uma autorização com este número e este CPF"),
        "{page}"
    );
    assert!(
        page.contains(&format!("value=\"{number}\"")),
        "the form keeps what was typed"
    );
    let (status, _, to) = follow(&mut b, "motorista", number, CPFS[0]).await;
    assert_eq!(
        (status, to.as_deref()),
        (StatusCode::SEE_OTHER, Some("/servicos/inicio?acompanhando"))
    );
    let (_, page, _) = b.get("/servicos/inicio?acompanhando").await;
    assert!(page.contains(&format!("Autorização {number}")), "{page}");
    assert!(page.contains("Situação: ativa"), "{page}");
    assert!(
        page.contains(&format!("válido até {}", until.format("%d/%m/%Y"))),
        "{page}"
    );
    // Following twice changes nothing.
    follow(&mut b, "motorista", number, CPFS[0]).await;
    let (_, page, _) = b.get("/servicos/inicio").await;
    assert_eq!(page.matches(&format!("Autorização {number}")).count(), 1);

    // Someone who follows nothing is never written to.
    let other = "ninguem@exemplo.com.br";
    signed_in(&app, other).await;

    // 61 days before: nothing yet. 60 days before: the first reminder, once.
    app.clock.set(before(until, 61));
    assert!(reminders_of(&app, email).await.is_empty());
    app.clock.set(before(until, 60));
    let sent = reminders_of(&app, email).await;
    assert_eq!(
        sent,
        [format!("A autorização {number} vence em 60 dias")],
        "{sent:?}"
    );
    app.clock.set(before(until, 45));
    assert_eq!(
        reminders_of(&app, email).await.len(),
        1,
        "no second 60-day reminder"
    );
    // Skipped from 45 to 7 days before: the 7-day reminder alone, not the 30-day one late.
    app.clock.set(before(until, 7));
    let sent = reminders_of(&app, email).await;
    assert_eq!(
        sent,
        [
            format!("A autorização {number} vence em 60 dias"),
            format!("A autorização {number} vence em 7 dias")
        ]
    );
    let mail = app
        .smtp
        .inbox()
        .into_iter()
        .rfind(|m| m.to.iter().any(|t| t == email))
        .unwrap();
    let body = mail.body();
    assert!(
        body.contains(&format!("vale até {}", until.format("%d/%m/%Y"))),
        "{body}"
    );
    assert!(body.contains("/servicos"), "{body}");
    assert!(
        !body.contains(CPFS[0]) && !body.contains("529.982"),
        "no CPF in a reminder"
    );
    // The day after the expiry: nothing more.
    app.clock.set(before(until, -1));
    assert_eq!(reminders_of(&app, email).await.len(), 2);
    assert!(reminders_of(&app, other).await.is_empty());
}

#[tokio::test]
async fn a_company_follows_its_termo_and_is_reminded_before_it_expires() {
    let app = spawn_app().await;
    app.clock.set(noon("2025-05-23"));
    let c = company(&app, "2027-12-31").await;
    let t = created(termo(&app, &c).await).await;
    let number = t["number"].as_str().unwrap();
    let until = date(t["valid_until"].as_str().unwrap());

    let email = "fretamento@exemplo.com.br";
    let mut b = signed_in(&app, email).await;
    let (status, page, _) = follow(&mut b, "empresa", number, "11.444.777/0001-61").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        page.contains("Não encontramos um Termo de Autorização"),
        "{page}"
    );
    let (status, _, _) = follow(&mut b, "empresa", number, "11.222.333/0001-81").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let (_, page, _) = b.get("/servicos/inicio").await;
    assert!(
        page.contains(&format!("Termo de Autorização {number}")),
        "{page}"
    );
    assert!(page.contains("Situação: ativo"), "{page}");

    app.clock.set(before(until, 30));
    let sent = reminders_of(&app, email).await;
    assert_eq!(
        sent,
        [format!("O Termo de Autorização {number} vence em 30 dias")],
        "{sent:?}"
    );
}

#[tokio::test]
async fn a_company_is_reminded_of_its_bus_s_itv_and_no_one_else_is() {
    // A company with its Termo and a minibus (QBA1C23) whose ITV report of 02/05/2025 holds
    // until 02/11/2025 (FRET-ART12-IV).
    let (app, c, _) = minibus_company().await;
    let company: serde_json::Value = app
        .get_authed(&format!("/api/v1/charter/companies/{c}"))
        .await
        .json()
        .await
        .unwrap();
    let number = company["termos"][0]["number"].as_str().unwrap();
    let email = "frota@exemplo.com.br";
    let mut b = signed_in(&app, email).await;
    let (status, _, _) = follow(&mut b, "empresa", number, "11.222.333/0001-81").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    // An applicant who follows nothing is told nothing.
    let other = "ninguem@exemplo.com.br";
    signed_in(&app, other).await;

    app.clock.set(before(date("2025-11-02"), 30));
    let sent = reminders_of(&app, email).await;
    assert_eq!(
        sent,
        ["O laudo de inspeção técnica (ITV) do micro-ônibus QBA1C23 vence em 30 dias"],
        "{sent:?}"
    );
    assert!(reminders_of(&app, other).await.is_empty());
}
