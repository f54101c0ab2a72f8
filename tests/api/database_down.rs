//! The database fails fast. PostgreSQL is reached through a proxy the test can
//! freeze (bytes held, connections open: a server that stopped answering, not one that
//! refused), so the service's own deadlines are what answer.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

use crate::helpers::{CNHS, CPFS, driver_body};

/// Copies `r` to `w`, holding the bytes while frozen.
async fn pump(mut r: OwnedReadHalf, mut w: OwnedWriteHalf, mut frozen: watch::Receiver<bool>) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match r.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        while *frozen.borrow() {
            if frozen.changed().await.is_err() {
                return;
            }
        }
        if w.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}

/// A TCP proxy to `target` on a free loopback port; `true` on the sender freezes it.
async fn freezable_proxy(target: String) -> (String, watch::Sender<bool>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let (tx, rx) = watch::channel(false);
    tokio::spawn(async move {
        while let Ok((inbound, _)) = listener.accept().await {
            let rx = rx.clone();
            let target = target.clone();
            tokio::spawn(async move {
                let Ok(outbound) = TcpStream::connect(&target).await else {
                    return;
                };
                let (ri, wi) = inbound.into_split();
                let (ro, wo) = outbound.into_split();
                tokio::join!(pump(ri, wo, rx.clone()), pump(ro, wi, rx));
            });
        }
    });
    (addr, tx)
}

/// An application on a fresh PostgreSQL database reached through a freezable proxy (frozen
/// from the start if `frozen`), with a 1 s request deadline; and the proxy's switch.
async fn proxied_app(frozen: bool) -> (crate::helpers::TestApp, watch::Sender<bool>) {
    proxied_app_with_deadline(frozen, Duration::from_secs(1)).await
}

/// The same with the request deadline `deadline`.
async fn proxied_app_with_deadline(
    frozen: bool,
    deadline: Duration,
) -> (crate::helpers::TestApp, watch::Sender<bool>) {
    assert!(
        std::env::var("TEST_DATABASE_URL").is_ok_and(|u| u.starts_with("postgres")),
        "this test needs TEST_DATABASE_URL=postgres://…"
    );
    let data_dir = tempfile::tempdir().unwrap();
    let (url, backend) = crate::helpers::another_database(data_dir.path()).await;
    let (head, db) = url.rsplit_once('/').unwrap();
    let (scheme_user, host) = head.rsplit_once('@').unwrap();
    let (proxy, freeze) = freezable_proxy(host.to_owned()).await;
    freeze.send(frozen).unwrap();
    let app = crate::helpers::spawn_configured(
        format!("{scheme_user}@{proxy}/{db}"),
        backend,
        tempfile::tempdir().unwrap(),
        data_dir,
        selo::settings::Limits {
            request_deadline: deadline,
            rates: selo::settings::Rates::UNLIMITED,
            ..selo::settings::Limits::default()
        },
    )
    .await;
    (app, freeze)
}

#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL=postgres://… and --include-ignored (CI's PostgreSQL step)"]
async fn a_frozen_database_is_answered_fast_and_recovered_from_without_restart() {
    let (app, freeze) = proxied_app(false).await;
    let grant = app.granted().await;
    let token = crate::helpers::token_of(grant["verification_url"].as_str().unwrap());
    assert_eq!(app.get("/health").await.status(), StatusCode::OK);

    freeze.send(true).unwrap();
    let t = Instant::now();
    let res = app.get("/health").await;
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());

    let t = Instant::now();
    let (status, body) = app.verify(&token).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["verdict"], "status_unavailable");
    assert!(body["reason"].as_str().unwrap().contains("indisponível"));
    assert!(
        t.elapsed() < Duration::from_millis(300),
        "{:?}",
        t.elapsed()
    );

    let t = Instant::now();
    let res = app
        .post("/api/v1/drivers", &driver_body(CPFS[1], CNHS[1]))
        .await;
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    let problem: Value = res.json().await.unwrap();
    assert_eq!(problem["type"], "/problems/unavailable");
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());

    // The database answers again: so does selo, without a restart.
    freeze.send(false).unwrap();
    let t = Instant::now();
    loop {
        if app.get("/health").await.status() == StatusCode::OK {
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(10), "no recovery");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let (status, body) = app.verify(&token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["verdict"], "valid");
}

/// Selo starts while PostgreSQL does not answer, reports unhealthy, and serves as
/// soon as the database answers (migrations applied then), without a restart.
#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL=postgres://… and --include-ignored (CI's PostgreSQL step)"]
async fn selo_starts_while_the_database_is_down_and_serves_once_it_answers() {
    let t = Instant::now();
    let (app, freeze) = proxied_app(true).await;
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    assert_eq!(
        app.get("/health").await.status(),
        StatusCode::SERVICE_UNAVAILABLE
    );
    freeze.send(false).unwrap();
    let t = Instant::now();
    loop {
        if app.get("/health").await.status() == StatusCode::OK {
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(15), "no recovery");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // Migrated and serving: a whole grant goes through.
    let grant = app.granted().await;
    let token = crate::helpers::token_of(grant["verification_url"].as_str().unwrap());
    let (status, body) = app.verify(&token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

/// While the database does not answer, a sticker this node verified before (no act
/// since, under 15 minutes ago) is answered `status_unavailable` with its last known status
/// and how old it is; one never verified gets the signature's result alone.
#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL=postgres://… and --include-ignored (CI's PostgreSQL step)"]
async fn a_frozen_database_gives_the_last_known_status_saying_how_old() {
    let (app, freeze) = proxied_app(false).await;
    let grant = app.granted().await;
    let token = crate::helpers::token_of(grant["verification_url"].as_str().unwrap());
    let other = app.granted_to(1).await;
    let other = crate::helpers::token_of(other["verification_url"].as_str().unwrap());
    // The notifications of these commits reach this node's listener (and bump what it
    // caches) within milliseconds: let them land before the scan whose answer is kept.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(app.verify(&token).await.1["verdict"], "valid");
    // Past the 5 s an answer is served from memory: this scan must ask the register.
    app.clock.advance(chrono::Duration::minutes(3));

    freeze.send(true).unwrap();
    // Past the time the change log read last is trusted without reading it again (a verdict
    // kept for the day answers only while it is).
    tokio::time::sleep(selo::storage::changes::READ_AGAIN_AFTER + Duration::from_millis(200)).await;
    let t = Instant::now();
    let (status, body) = app.verify(&token).await;
    assert!(
        t.elapsed() < Duration::from_millis(300),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["verdict"], "status_unavailable");
    assert_eq!(body["last_known"]["verdict"], "valid", "{body}");
    assert_eq!(body["last_known"]["age_seconds"], 180);
    assert_eq!(body["document"]["status"], "active");
    let reason = body["reason"].as_str().unwrap();
    assert!(reason.contains("indisponível"), "{reason}");
    assert!(reason.contains("Última situação conhecida"), "{reason}");
    assert!(reason.contains("há 3 minutos"), "{reason}");
    let page = app.get(&format!("/v/{token}")).await.text().await.unwrap();
    assert!(page.contains("Última situação conhecida"), "{page}");
    assert!(
        page.contains("<dt>Última situação</dt><dd>ativa, às 12:00"),
        "the status row says it is the last known one: {page}"
    );

    let (status, body) = app.verify(&other).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(body.get("last_known").is_none(), "{body}");
    assert!(body.get("document").is_none(), "{body}");

    // Too old to be shown: 15 minutes.
    app.clock.advance(chrono::Duration::minutes(13));
    let (_, body) = app.verify(&token).await;
    assert_eq!(body["verdict"], "status_unavailable");
    assert!(body.get("last_known").is_none(), "{body}");
    freeze.send(false).unwrap();
}

/// A status list that cannot be brought up to date (here, the register stops answering while
/// the list is rebuilt after an act; on a large register, the first list of a legal day) does
/// not hold the inspectors' phones: after a short wait they are served the last list built,
/// while it has not expired; once the register answers, the list follows the act.
#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL=postgres://… and --include-ignored (CI's PostgreSQL step)"]
async fn a_status_list_being_built_serves_the_last_one_meanwhile() {
    let (app, freeze) = proxied_app_with_deadline(false, Duration::from_secs(20)).await;
    let keys = selo::signing::keys::load(app.keys_dir.path(), false)
        .unwrap()
        .public;
    let grant = app.granted().await;
    let first = app.get("/api/v1/status-list").await;
    assert_eq!(first.status(), StatusCode::OK);
    let first_tag = first.headers()["etag"].to_str().unwrap().to_owned();
    let first = first.bytes().await.unwrap();
    assert!(
        selo::signing::status_list::verify(&first, &keys)
            .unwrap()
            .entries
            .is_empty()
    );
    crate::verification::revoke(&app, &grant).await;

    // The act is committed; the list built before it no longer holds, and the register stops
    // answering before the list is built again.
    freeze.send(true).unwrap();
    let t = Instant::now();
    let res = app.get("/api/v1/status-list").await;
    let waited = t.elapsed();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(
        waited < Duration::from_secs(6),
        "served after a short wait, not at the request's deadline: {waited:?}"
    );
    assert_eq!(res.headers()["etag"].to_str().unwrap(), first_tag);
    assert_eq!(res.bytes().await.unwrap(), first, "the last list built");

    // The register answers again: the build under way ends and the list names the revoked
    // authorization and its sticker.
    freeze.send(false).unwrap();
    let t = Instant::now();
    loop {
        let res = app.get("/api/v1/status-list").await;
        if res.status() == StatusCode::OK && res.headers()["etag"].to_str().unwrap() != first_tag {
            let list =
                selo::signing::status_list::verify(&res.bytes().await.unwrap(), &keys).unwrap();
            assert_eq!(list.entries.len(), 2, "{:?}", list.entries);
            assert!(list.entries.iter().all(|e| e.status == "revoked"));
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(15),
            "the list did not follow the act"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
