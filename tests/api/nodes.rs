//! Several selo nodes on one PostgreSQL (the path to scale). Two
//! applications share the database and the keys; each tells the other of its commits by
//! `LISTEN/NOTIFY`, so what one node cached from the register never outlives an act of the
//! other by more than the notification's trip.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_app, spawn_beside, token_of};

/// A second node on `a`'s database with a copy of its keys folder.
async fn second_node(a: &TestApp) -> TestApp {
    spawn_beside(a, |_| {}).await
}

/// Polls `check` on `node` until it holds; panics past 1 s. Returns how long it took.
async fn within_a_second<F, Fut>(what: &str, mut check: F) -> Duration
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let t = Instant::now();
    loop {
        if check().await {
            return t.elapsed();
        }
        assert!(
            t.elapsed() < Duration::from_secs(1),
            "{what}: not seen by the other node within 1 s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn nodes() -> (TestApp, TestApp) {
    assert!(
        std::env::var("TEST_DATABASE_URL").is_ok_and(|u| u.starts_with("postgres")),
        "this test needs TEST_DATABASE_URL=postgres://…"
    );
    let a = spawn_app().await;
    let b = second_node(&a).await;
    // Both listeners connected before the acts the test watches for.
    tokio::time::sleep(Duration::from_millis(300)).await;
    (a, b)
}

#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL=postgres://… and --include-ignored (CI's PostgreSQL step)"]
async fn a_revocation_on_one_node_is_seen_by_the_other_within_a_second() {
    let (a, b) = nodes().await;
    let grant = a.granted().await;
    let token = token_of(grant["verification_url"].as_str().unwrap());
    // Node b verifies the sticker (and keeps the answer in memory).
    for _ in 0..3 {
        assert_eq!(b.verify(&token).await.1["verdict"], "valid");
    }
    let path = format!(
        "/api/v1/app-authorizations/{}/revocation",
        grant["id"].as_str().unwrap()
    );
    let res = a
        .post(&path, &json!({"reason": "Cassação por fraude"}))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let took = within_a_second("the revocation", || async {
        b.verify(&token).await.1["verdict"] == "revoked"
    })
    .await;
    eprintln!("revocation seen by the other node after {took:?}");
}

#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL=postgres://… and --include-ignored (CI's PostgreSQL step)"]
async fn a_decree_on_one_node_moves_the_other_nodes_deadlines_within_a_second() {
    let (a, b) = nodes().await;
    let due = |node: &TestApp| {
        let url = node.url("/api/v1/deadlines?start=2026-11-16&days=15");
        let client = node.client.clone();
        async move {
            let v: Value = client.get(url).send().await.unwrap().json().await.unwrap();
            v["due"].as_str().unwrap().to_owned()
        }
    };
    // Node b reads (and caches) the calendar: 2026-11-20 is a holiday, due Tuesday 01/12.
    assert_eq!(due(&b).await, "2026-12-01");
    let body = json!({"from": "2026-12-01", "kind": "ponto_facultativo",
                      "description": "Ponto facultativo", "act": "Decreto nº 9.999/2026"});
    assert_eq!(
        a.post("/api/v1/calendar/closed-days", &body).await.status(),
        StatusCode::CREATED
    );
    within_a_second("the decree", || async { due(&b).await == "2026-12-02" }).await;
}

/// Concurrent issuance on both nodes: every number unique, the series without a gap.
#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL=postgres://… and --include-ignored (CI's PostgreSQL step)"]
async fn concurrent_issuance_on_two_nodes_gives_unique_gap_free_numbers() {
    let (a, b) = nodes().await;
    let company = crate::charter::company(&a, "2027-12-31").await;
    let per_node = 12;
    let issue = |node: &TestApp, i: usize| {
        let url = node.url(&format!("/api/v1/charter/companies/{company}/autos"));
        let req = node
            .client
            .post(url)
            .bearer_auth(crate::helpers::ADMIN_TOKEN)
            .json(&json!({
            "infraction": "FRET-ART19-I", "committed_on": "2026-11-30", "place": "Rodoviária",
            "facts": format!("Fiscalização {i}"), "inspector": "Fiscal SIS 12"}));
        async move {
            let res = req.send().await.unwrap();
            let status = res.status();
            let body: Value = res.json().await.unwrap();
            assert_eq!(status, StatusCode::CREATED, "{body}");
            body["number"].as_str().unwrap().to_owned()
        }
    };
    let mut tasks = Vec::new();
    for i in 0..per_node {
        tasks.push(tokio::spawn(issue(&a, i)));
        tasks.push(tokio::spawn(issue(&b, i)));
    }
    let mut numbers = Vec::new();
    for t in tasks {
        numbers.push(t.await.unwrap());
    }
    let mut seq: Vec<u32> = numbers
        .iter()
        .map(|n| n.rsplit('/').next().unwrap().parse().unwrap())
        .collect();
    seq.sort_unstable();
    let expected: Vec<u32> = (1..=u32::try_from(2 * per_node).unwrap()).collect();
    assert_eq!(seq, expected, "numbers: {numbers:?}");
}

#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL=postgres://… and --include-ignored (CI's PostgreSQL step)"]
async fn a_legal_basis_activated_on_one_node_is_in_force_on_the_other_within_a_second() {
    let (a, b) = nodes().await;
    let in_force = |node: &TestApp| {
        let url = node.url("/api/v1/legal-bases");
        let client = node.client.clone();
        async move {
            let v: Value = client.get(url).send().await.unwrap().json().await.unwrap();
            v["charter"]["in_force"].as_str().unwrap().to_owned()
        }
    };
    assert_eq!(in_force(&b).await, "LEI-4937-2025/v1");
    let file = selo::domain::legal_basis::LEI_4937_2025_FILE
        .replace("LEI-4937-2025/v1", "LEI-4937-2025/v2");
    let body = json!({"basis": file, "effective_from": "2026-11-30",
                      "act": {"kind": "Lei", "number": "5.001/2026", "date": "2026-11-27"}});
    assert_eq!(
        a.post("/api/v1/legal-bases/charter", &body).await.status(),
        StatusCode::CREATED
    );
    within_a_second("the activation", || async {
        in_force(&b).await == "LEI-4937-2025/v2"
    })
    .await;
}
