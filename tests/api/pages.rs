//! Every page of the back office reads as Portuguese for a person: walked from the start page
//! through every list, record, history and form of a register with one of everything, no
//! visible text carries an id, an ISO date, an internal code, JSON or English.

use std::collections::{BTreeSet, VecDeque};

use reqwest::StatusCode;
use serde_json::json;

use crate::charter::{auto, created, minibus_company};
use crate::helpers::{CNHS, CPFS, OFFICIAL_PASSWORD, PLATES, RENAVAMS, at};
use crate::panel::Browser;

/// The text a person sees in a page's `<main>`: tags, scripts and styles dropped, entities
/// read.
pub(crate) fn visible(page: &str) -> String {
    let body = page.split("<main>").nth(1).unwrap_or(page);
    let body = body.split("</main>").next().unwrap_or(body);
    let mut out = String::new();
    let mut rest = body;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let tail = &rest[open..];
        // The text of a <script> or <style> is not seen.
        let skip_to = ["script", "style"].iter().find_map(|t| {
            tail.starts_with(&format!("<{t}"))
                .then(|| tail.find(&format!("</{t}>")).map(|e| e + t.len() + 3))
                .flatten()
        });
        let end = skip_to.unwrap_or_else(|| tail.find('>').map_or(tail.len(), |e| e + 1));
        out.push(' ');
        rest = &tail[end..];
    }
    out.push_str(rest);
    let out = out
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#39;", "'");
    // As a browser shows it: one space for any run of spaces and line breaks.
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn is_hex(s: &str) -> bool {
    s.chars().all(|c| c.is_ascii_hexdigit())
}

/// What in `text` no person should read: ids, ISO dates, codes, JSON, English.
pub(crate) fn offences(text: &str) -> Vec<String> {
    const ENGLISH: &[&str] = &[
        "the", "and", "of", "null", "true", "false", "Items", "Fine", "Profile", "version", "Open",
        "Download", "Submit", "Error", "status", "kind", "Warning", "None", "Some",
    ];
    let mut out = Vec::new();
    for word in text.split(|c: char| c.is_whitespace() || ",;()[]«»“”\"·:".contains(c)) {
        let w = word.trim_matches(|c: char| ".!?'".contains(c));
        if w.is_empty() {
            continue;
        }
        let parts: Vec<&str> = w.split('-').collect();
        if parts.len() == 5
            && [8, 4, 4, 4, 12]
                .iter()
                .zip(&parts)
                .all(|(n, p)| p.len() == *n && is_hex(p))
        {
            out.push(format!("an id: {w}"));
        }
        let b = w.as_bytes();
        if b.len() >= 10
            && b[..4].iter().all(u8::is_ascii_digit)
            && b[4] == b'-'
            && b[5..7].iter().all(u8::is_ascii_digit)
            && b[7] == b'-'
            && b[8..10].iter().all(u8::is_ascii_digit)
        {
            out.push(format!("an ISO date: {w}"));
        }
        if w.contains('_')
            && w.starts_with(|c: char| c.is_ascii_lowercase())
            && w.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        {
            out.push(format!("a code: {w}"));
        }
        if ENGLISH.contains(&w) {
            out.push(format!("English: {w}"));
        }
    }
    if text.contains("{\"") || text.contains("\":") {
        out.push("JSON".to_owned());
    }
    out
}

/// The back-office links of a page (records, lists, forms, tasks), each once.
fn links(page: &str) -> Vec<String> {
    page.split("href=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .map(|h| h.replace("&amp;", "&"))
        .filter(|h| {
            h.starts_with("/painel/") && !h.contains(".csv") && !h.starts_with("/painel/sair")
        })
        .collect()
}

#[tokio::test]
async fn every_back_office_page_reads_without_ids_iso_dates_codes_json_or_english() {
    // Charter: a company with its Termo, a minibus with its selo, an auto.
    let (app, company, minibus) = minibus_company().await;
    let vid = minibus["id"].as_str().unwrap();
    created(
        app.post(
            &format!("/api/v1/charter/vehicles/{vid}/vistorias"),
            &json!({"performed_on": "2025-06-02", "approved": true, "inspector": "Fiscal SIS"}),
        )
        .await,
    )
    .await;
    auto(&app, &company, "FRET-ART19-III", "2025-06-10").await;
    // Ride-hailing: two grants, a vistoria, an auto, a platform, a revocation.
    app.clock.set(at("2026-11-30T16:00:00Z"));
    let a = app.granted().await;
    assert_eq!(
        app.vistoria(&a, "2026-11-30", true).await.status(),
        StatusCode::CREATED
    );
    let d = app
        .create_driver(&crate::bodies::driver_body(CPFS[1], CNHS[1]))
        .await;
    let v = app
        .create_vehicle(&crate::bodies::vehicle_body(PLATES[1], RENAVAMS[1]))
        .await;
    let b: serde_json::Value = app.grant(&d, &v, "2026-11-20").await.json().await.unwrap();
    let res = app
        .post(
            &format!(
                "/api/v1/app-authorizations/{}/revocation",
                b["id"].as_str().unwrap()
            ),
            &json!({"reason": "Pedido do condutor"}),
        )
        .await;
    assert!(res.status().is_success());
    let res = app
        .post(
            "/api/v1/app-infraction-autos",
            &crate::autos::auto_body(
                a["driver_id"].as_str().unwrap(),
                "APP-ART26-VI",
                "2026-11-29T08:00",
            ),
        )
        .await;
    assert_eq!(
        res.status(),
        StatusCode::CREATED,
        "{}",
        res.text().await.unwrap()
    );

    app.official(
        "helena.admin",
        "Helena Prado",
        "admin,ride_hailing_issuer,charter_issuer,inspector",
    )
    .await;
    let mut b = Browser::new(&app);
    b.sign_in("helena.admin", OFFICIAL_PASSWORD).await;
    let mut queue: VecDeque<String> = VecDeque::from(["/painel".to_owned()]);
    let mut seen = BTreeSet::new();
    let mut found = Vec::new();
    while let Some(href) = queue.pop_front() {
        // One page of each shape: a form once per act, a record once per kind.
        let shape = href
            .split('?')
            .next()
            .unwrap()
            .split('/')
            .map(|s| {
                if uuid::Uuid::parse_str(s).is_ok() {
                    "{id}"
                } else {
                    s
                }
            })
            .collect::<Vec<_>>()
            .join("/");
        if !seen.insert(shape) || seen.len() > 300 {
            continue;
        }
        let (status, page, _) = b.get(&href).await;
        if status == StatusCode::SEE_OTHER || page.starts_with("%PDF") {
            continue;
        }
        for offence in offences(&visible(&page)) {
            found.push(format!("{href}: {offence}"));
        }
        queue.extend(
            links(&page)
                .into_iter()
                .filter(|l| !l.starts_with("/painel/ver/documents")),
        );
    }
    assert!(seen.len() > 40, "walked only {} pages", seen.len());
    assert!(
        found.is_empty(),
        "{} offences:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_walker_sees_what_it_must_refuse() {
    let page = "<main><p>Condutor: 5ae4fa1e-0000-4000-8000-000000000001</p>\
        <p>Em 2026-11-30, federal_1 {\"kind\":\"app\"} Open</p><script>var a_b = 1;</script></main>";
    let found = offences(&visible(page));
    for needle in [
        "an id",
        "an ISO date",
        "a code: federal_1",
        "JSON",
        "English: Open",
    ] {
        assert!(
            found.iter().any(|f| f.starts_with(needle)),
            "{needle}: {found:?}"
        );
    }
    assert!(!found.iter().any(|f| f.contains("a_b")), "{found:?}");
    assert!(
        offences(&visible(
            "<main><p>Válida até 30/11/2027 · Nada consta</p></main>"
        ))
        .is_empty()
    );
}
