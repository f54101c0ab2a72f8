use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::Duration;
use reqwest::StatusCode;
use selo::signing::keys::ActiveKey;
use selo::signing::token::{self, TokenPayload};
use serde_json::{Value, json};

use crate::helpers::{PUBLIC_URL, qr_codes, spawn_app, sticker_url, token_of};

#[tokio::test]
async fn sticker_qr_scanned_from_the_rendered_page_verifies_valid() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let pdf = app.document_bytes(&grant, "app_sticker").await;
    let codes = qr_codes(&pdf);
    assert_eq!(codes.len(), 1, "exactly one QR code on the sticker");
    assert!(
        codes[0].starts_with(&format!("{PUBLIC_URL}/v/")),
        "{}",
        codes[0]
    );
    assert_eq!(codes[0], grant["verification_url"]);

    let (status, body) = app.verify(&token_of(&codes[0])).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["verdict"], "valid");
    assert_eq!(body["document"]["kind"], "app_sticker");
    assert_eq!(body["document"]["number"], "APP-2026/000001");
    assert_eq!(body["document"]["plate"], "BRA2E19");
    assert_eq!(body["document"]["valid_until"], "2027-11-20");
    // Public tier: the driver's first name only, nothing else personal.
    assert_eq!(body["document"]["driver"]["first_name"], "Maria");
    let text = body.to_string();
    assert!(
        !text.contains("Souza") && !text.contains("52998224725") && !text.contains("982.247"),
        "{text}"
    );

    // The authorization's own QR verifies too.
    let pdf = app.document_bytes(&grant, "app_authorization").await;
    let codes = qr_codes(&pdf);
    let (_, body) = app.verify(&token_of(&codes[0])).await;
    assert_eq!(body["verdict"], "valid");
    assert_eq!(body["document"]["kind"], "app_authorization");
}

#[tokio::test]
async fn one_changed_byte_is_an_invalid_signature() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let mut raw = URL_SAFE_NO_PAD
        .decode(token_of(grant["verification_url"].as_str().unwrap()))
        .unwrap();
    // Change the plate inside the signed payload: BRA2E19 → BRA2E18.
    let pos = raw
        .windows(7)
        .position(|w| w == b"BRA2E19")
        .expect("plate in payload");
    raw[pos + 6] = b'8';
    let (status, body) = app.verify(&URL_SAFE_NO_PAD.encode(&raw)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["verdict"], "invalid_signature");
    assert!(body.get("document").is_none());

    // And a changed byte of the signature itself.
    let mut raw = URL_SAFE_NO_PAD
        .decode(token_of(grant["verification_url"].as_str().unwrap()))
        .unwrap();
    let last = raw.len() - 1;
    raw[last] ^= 0x01;
    let (_, body) = app.verify(&URL_SAFE_NO_PAD.encode(&raw)).await;
    assert_eq!(body["verdict"], "invalid_signature");
}

#[tokio::test]
async fn a_token_signed_by_an_unknown_key_is_reported_as_such() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let doc = &grant["documents"][1];
    let forged = TokenPayload {
        kind: "app_sticker".into(),
        document_id: doc["id"].as_str().unwrap().parse().unwrap(),
        number: grant["number"].as_str().unwrap().into(),
        plate: "BRA2E19".into(),
        issued_at: 1_795_000_000,
        valid_until: chrono::NaiveDate::from_ymd_opt(2030, 1, 1).unwrap(),
        issuer: "BDG-SMF".into(),
    };
    let impostor = ActiveKey::from_seed([42; 32]);
    let (status, body) = app.verify(&token::sign(&forged, &impostor)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["verdict"], "unknown_key");
    assert!(body.get("document").is_none());
}

#[tokio::test]
async fn malformed_tokens_are_400_and_never_500() {
    let app = spawn_app().await;
    for t in [
        "x",
        "AAAA",
        "0oRN",
        "not-base64!!",
        &"A".repeat(3000),
        "%F0%9F%98%80",
    ] {
        let (status, body) = app.verify(t).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{t}");
        assert_eq!(body["verdict"], "malformed");
    }
    let res = app.get("/v/garbage").await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert!(res.text().await.unwrap().contains("CÓDIGO INVÁLIDO"));
}

#[tokio::test]
async fn revoked_authorization_is_reported_as_revoked() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let token = token_of(grant["verification_url"].as_str().unwrap());
    revoke(&app, &grant).await;
    let (status, body) = app.verify(&token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["verdict"], "revoked");
    assert_eq!(body["document"]["status"], "revoked");
    let page = app.get(&format!("/v/{token}")).await.text().await.unwrap();
    assert!(page.contains("REVOGADO"));
}

#[tokio::test]
async fn authorization_past_valid_until_is_expired_from_midnight_in_cuiaba() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let token = token_of(grant["verification_url"].as_str().unwrap());
    let res = app.vistoria(&grant, "2026-11-30", true).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    // valid_until 20/11/2027: still valid at 23:59 local time (03:59Z on the 21st)…
    app.clock.set(
        chrono::DateTime::parse_from_rfc3339("2027-11-21T03:59:00Z")
            .unwrap()
            .to_utc(),
    );
    assert_eq!(app.verify(&token).await.1["verdict"], "valid");
    // …and expired from 00:00 local time (04:00Z), DL-8 / DL-11.
    app.clock.advance(Duration::minutes(1));
    let (status, body) = app.verify(&token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["verdict"], "expired");
    assert_eq!(body["document"]["status"], "expired");
}

#[tokio::test]
async fn verification_page_is_portuguese_and_shows_the_verdict() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let token = token_of(grant["verification_url"].as_str().unwrap());
    let res = app.get(&format!("/v/{token}")).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let html = res.text().await.unwrap();
    assert!(html.contains("lang=\"pt-BR\""));
    assert!(html.contains("AUTORIZADO"));
    assert!(html.contains("BRA2E19"));
    assert!(html.contains("20/11/2027"));
    // The passenger sees the driver's first name, never the full name or the CPF.
    assert!(html.contains("Maria"));
    assert!(
        !html.contains("Souza") && !html.contains("529.982") && !html.contains("52998224725"),
        "no more personal data than a passenger needs"
    );
}

#[tokio::test]
async fn the_printed_code_finds_the_document() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let code = grant["documents"][1]["verification_code"].as_str().unwrap();
    let typed = code.to_lowercase().replace('-', " ");
    let res = app.get(&format!("/api/v1/verify/code/{typed}")).await;
    assert_eq!(res.status(), StatusCode::OK);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["verdict"], "valid");
    assert_eq!(body["document"]["number"], "APP-2026/000001");
    assert_eq!(
        app.get("/api/v1/verify/code/ZZZZ-ZZZZ").await.status(),
        StatusCode::NOT_FOUND
    );
    let page = app
        .get(&format!("/v?codigo={code}"))
        .await
        .text()
        .await
        .unwrap();
    assert!(page.contains("AUTORIZADO"));
}

#[tokio::test]
async fn keys_endpoint_publishes_public_keys_only_and_they_verify_tokens() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let res = app.get("/.well-known/selo-keys.json").await;
    assert_eq!(res.status(), StatusCode::OK);
    let jwks: Value = res.json().await.unwrap();
    let keys = jwks["keys"].as_array().unwrap();
    assert_eq!(keys.len(), 1);
    let k = keys[0].as_object().unwrap();
    let mut names: Vec<&str> = k.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(names, ["alg", "crv", "kid", "kty", "use", "x"]);
    assert_eq!(k["kty"], "OKP");
    assert_eq!(k["crv"], "Ed25519");
    // No byte of any private key file appears in the answer.
    for entry in std::fs::read_dir(app.keys_dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "key") {
            let hex = std::fs::read_to_string(&path).unwrap();
            let seed: Vec<u8> = (0..32)
                .map(|i| u8::from_str_radix(&hex.trim()[2 * i..2 * i + 2], 16).unwrap())
                .collect();
            let text = jwks.to_string();
            assert!(!text.contains(hex.trim()));
            assert!(!text.contains(&URL_SAFE_NO_PAD.encode(&seed)));
        }
    }
    // A third party verifies the QR token with nothing but the published key.
    let x = URL_SAFE_NO_PAD.decode(k["x"].as_str().unwrap()).unwrap();
    let key = ed25519_dalek::VerifyingKey::from_bytes(&x.try_into().unwrap()).unwrap();
    let mut set = selo::signing::keys::KeySet::default();
    set.insert(key);
    let payload =
        token::verify(&token_of(grant["verification_url"].as_str().unwrap()), &set).unwrap();
    assert_eq!(payload.number, "APP-2026/000001");
    assert_eq!(
        selo::signing::keys::key_id(&key),
        k["kid"].as_str().unwrap()
    );
}

/// A verification code names one document across every kind: the database refuses a second
/// document with a code already taken, whatever the kind of the first.
#[tokio::test]
async fn a_verification_code_is_unique_across_every_kind_of_document() {
    use selo::clock::Clock;
    use selo::storage::DocumentKind;
    use selo::storage::charter::CharterCommit;
    use selo::storage::documents::{Document, SignedDocument};
    let app = spawn_app().await;
    let grant = app.granted().await;
    let taken = grant["documents"][0]["verification_code"]
        .as_str()
        .unwrap()
        .to_owned();
    let store = selo::storage::Store::connect(&app.database_url)
        .await
        .unwrap();
    let doc = |code: &str| Document {
        id: uuid::Uuid::new_v4(),
        kind: DocumentKind::RideHailingCertidao,
        subject_type: "app_driver".into(),
        subject_id: uuid::Uuid::new_v4(),
        company_id: None,
        authorization_id: None,
        substitution_seq: None,
        number: "CERT-2026/000001".into(),
        verification_code: code.into(),
        token: "t".into(),
        key_id: "k".into(),
        sha256: "00".into(),
        subject_key: "p".into(),
        valid_until: None,
        legal_basis_version: "v".into(),
        issued_at: app.clock.now(),
        facts: None,
        issued_by: None,
        profile_version: None,
    };
    let commit = |code: &str| CharterCommit {
        documents: vec![SignedDocument {
            document: doc(code),
            pdf: b"%PDF-".to_vec(),
            untimestamped: None,
        }],
        ..CharterCommit::default()
    };
    assert!(store.charter_commit(commit("ZZZZ-9999")).await.is_ok());
    assert!(store.charter_commit(commit(&taken)).await.is_err());
}

/// A verification answered from memory never outlives an act. The second scan is
/// served from memory; the revocation commits and the very next scan says `revoked`.
#[tokio::test]
async fn a_sticker_verified_from_memory_verifies_revoked_on_the_very_next_scan() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let token = token_of(grant["verification_url"].as_str().unwrap());
    for _ in 0..3 {
        let (status, body) = app.verify(&token).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["verdict"], "valid", "{body}");
    }
    revoke(&app, &grant).await;
    let (_, body) = app.verify(&token).await;
    assert_eq!(body["verdict"], "revoked", "{body}");
    let page = app.get(&format!("/v/{token}")).await.text().await.unwrap();
    assert!(page.contains("REVOGADO"));
}

/// Revokes `grant`'s authorization (art. 26: cassação).
pub(crate) async fn revoke(app: &crate::helpers::TestApp, grant: &Value) {
    let path = format!(
        "/api/v1/app-authorizations/{}/revocation",
        grant["id"].as_str().unwrap()
    );
    assert_eq!(
        app.post(&path, &json!({"reason": "Cassação por fraude"}))
            .await
            .status(),
        StatusCode::OK
    );
}

/// Suspends `grant`'s authorization for 5 days from 30/11/2026 (art. 26, §1º): reinstated
/// on 05/12 (DL-9).
async fn suspend_for_five_days(app: &crate::helpers::TestApp, grant: &Value) -> reqwest::Response {
    app.post(
        &format!(
            "/api/v1/app-authorizations/{}/sanctions",
            grant["id"].as_str().unwrap()
        ),
        &json!({"kind": "suspension", "effective_from": "2026-11-30", "days": 5,
                "reason": "Infração grave", "legal_basis": "art. 26, §1º"}),
    )
    .await
}

/// A suspension (an act on the authorization, not on the document) reaches a
/// sticker already verified from memory, and the end of the suspension (a new legal day, no
/// act) does too.
#[tokio::test]
async fn a_cached_sticker_follows_a_suspension_and_its_end() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let token = token_of(grant["verification_url"].as_str().unwrap());
    let res = app.vistoria(&grant, "2026-11-30", true).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(app.verify(&token).await.1["verdict"], "valid");
    let res = suspend_for_five_days(&app, &grant).await;
    let status = res.status();
    assert!(
        status.is_success(),
        "{status} {}",
        res.text().await.unwrap()
    );
    let (_, body) = app.verify(&token).await;
    assert_eq!(body["verdict"], "suspended", "{body}");
    // Days later, with no act in between, the suspension has ended (5 days from 30/11:
    // reinstated on 05/12, DL-9).
    app.clock.advance(chrono::Duration::days(6));
    let (_, body) = app.verify(&token).await;
    assert_eq!(body["verdict"], "valid", "{body}");
}

/// The signed status list names every document not in force, verifies with the
/// published keys, and changes with the register (`ETag`, `If-None-Match`).
#[tokio::test]
async fn the_signed_status_list_lists_what_is_not_in_force() {
    let app = spawn_app().await;
    let revoked = app.granted_to(0).await;
    let active = app.granted_to(1).await;
    let keys = selo::signing::keys::load(app.keys_dir.path(), false)
        .unwrap()
        .public;
    let id_of = |grant: &Value| {
        selo::signing::token::verify(
            &token_of(grant["verification_url"].as_str().unwrap()),
            &keys,
        )
        .unwrap()
        .document_id
    };
    revoke(&app, &revoked).await;

    let res = app.get("/api/v1/status-list").await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "application/cose");
    let etag = res.headers()["etag"].to_str().unwrap().to_owned();
    let bytes = res.bytes().await.unwrap();
    let list = selo::signing::status_list::verify(&bytes, &keys).unwrap();
    assert_eq!(list.expires_at - list.issued_at, 24 * 3600);
    let status_of = |id| {
        list.entries
            .iter()
            .find(|e| e.document_id == id)
            .map(|e| e.status.clone())
    };
    assert_eq!(status_of(id_of(&revoked)).as_deref(), Some("revoked"));
    assert_eq!(
        status_of(id_of(&active)),
        None,
        "a valid sticker is not listed"
    );
    assert!(
        list.entries.iter().all(|e| e.status == "revoked"),
        "{list:?}"
    );

    let list_if_none_match = |etag: &str| {
        app.client
            .get(app.url("/api/v1/status-list"))
            .header("if-none-match", etag)
            .send()
    };
    // Unchanged: 304 for the same ETag.
    let res = list_if_none_match(&etag).await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_MODIFIED);

    // A suspension is an act: a new list, with the day it ends.
    let res = suspend_for_five_days(&app, &active).await;
    assert!(res.status().is_success());
    let res = list_if_none_match(&etag).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let list = selo::signing::status_list::verify(&res.bytes().await.unwrap(), &keys).unwrap();
    let suspended = list
        .entries
        .iter()
        .find(|e| e.document_id == id_of(&active))
        .expect("the suspended sticker is listed");
    assert_eq!(suspended.status, "suspended");
    assert_eq!(
        suspended.until,
        chrono::NaiveDate::from_ymd_opt(2026, 12, 5)
    );

    // A byte changed: not a list selo signed.
    let mut forged = bytes.to_vec();
    let i = forged.len() - 10;
    forged[i] ^= 0x40;
    assert!(selo::signing::status_list::verify(&forged, &keys).is_err());
}

/// The status list's counters in a scrape: lists built in full, incrementally, and the
/// documents judged in all.
async fn status_list_counters(app: &crate::helpers::TestApp, operator: &str) -> (u64, u64, u64) {
    let text = scrape(app, operator).await;
    (
        counter(&text, r#"selo_status_list_builds_total{kind="full"}"#),
        counter(
            &text,
            r#"selo_status_list_builds_total{kind="incremental"}"#,
        ),
        counter(&text, "selo_status_list_judged_documents_total"),
    )
}

/// The metrics' page, as the operator reads it.
async fn scrape(app: &crate::helpers::TestApp, operator: &str) -> String {
    app.client
        .get(app.url("/metrics"))
        .bearer_auth(operator)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

/// A counter's value in a scrape (0 before it first counts).
fn counter(text: &str, name: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .map_or(0, |v| v.trim().parse::<u64>().unwrap())
}

/// Scans `app` answered from the verdicts it kept in memory for the day.
async fn scans_from_memory(app: &crate::helpers::TestApp, operator: &str) -> u64 {
    counter(
        &scrape(app, operator).await,
        "selo_verify_status_from_memory_total",
    )
}

/// Three drivers granted, and the keys that verify what the service signs.
async fn three_granted(app: &crate::helpers::TestApp) -> (Vec<Value>, selo::signing::keys::KeySet) {
    let mut grants = Vec::new();
    for i in 0..3 {
        grants.push(app.granted_to(i).await);
    }
    let keys = selo::signing::keys::load(app.keys_dir.path(), false)
        .unwrap()
        .public;
    (grants, keys)
}

async fn status_list_entries(app: &crate::helpers::TestApp) -> Vec<(uuid::Uuid, String)> {
    let keys = selo::signing::keys::load(app.keys_dir.path(), false)
        .unwrap()
        .public;
    let res = app.get("/api/v1/status-list").await;
    assert_eq!(res.status(), StatusCode::OK);
    let list = selo::signing::status_list::verify(&res.bytes().await.unwrap(), &keys).unwrap();
    let mut entries: Vec<_> = list
        .entries
        .into_iter()
        .map(|e| (e.document_id, e.status.into_owned()))
        .collect();
    entries.sort();
    entries
}

/// After an act, the status list judges the documents of the driver the act touched, not
/// the register: the number of documents read does not grow with the register. An act on
/// everything (a decreed closed day) judges the whole register again.
#[tokio::test]
async fn after_an_act_the_status_list_judges_only_the_documents_it_touched() {
    const OPERATOR: &str = "operador-da-lista-0123456789";
    let app = crate::helpers::spawn_app_tuned(|s| s.metrics_token = Some(OPERATOR.into())).await;
    let (grants, _) = three_granted(&app).await;
    assert!(status_list_entries(&app).await.is_empty());
    let (full, incremental, judged) = status_list_counters(&app, OPERATOR).await;
    assert_eq!((full, incremental), (1, 0));
    assert_eq!(judged, 6, "every authorization and sticker judged");

    revoke(&app, &grants[0]).await;
    let entries = status_list_entries(&app).await;
    assert_eq!(
        entries.len(),
        2,
        "the authorization and its sticker: {entries:?}"
    );
    assert!(entries.iter().all(|(_, s)| s == "revoked"));
    let (full, incremental, after) = status_list_counters(&app, OPERATOR).await;
    assert_eq!((full, incremental), (1, 1));
    assert_eq!(
        after - judged,
        2,
        "only the revoked driver's two documents were judged again"
    );

    // A closed day moves every deadline: everything is judged again.
    let body = json!({"from": "2026-12-21", "kind": "ponto_facultativo", "description": "Ponto facultativo", "act": "Decreto nº 9.998/2026"});
    assert_eq!(
        app.post("/api/v1/calendar/closed-days", &body)
            .await
            .status(),
        StatusCode::CREATED
    );
    assert_eq!(status_list_entries(&app).await, entries);
    let (full, incremental, _) = status_list_counters(&app, OPERATOR).await;
    assert_eq!((full, incremental), (2, 1));
}

/// The list kept up to date act by act says of every document what a scan of it says
/// (read from the register): a revocation, a suspension and a vistoria later,
/// the revoked and suspended documents, and none of those still valid.
#[tokio::test]
async fn the_status_list_kept_by_acts_agrees_with_a_scan_of_every_document() {
    let app = spawn_app().await;
    let (grants, keys) = three_granted(&app).await;
    assert!(status_list_entries(&app).await.is_empty());
    revoke(&app, &grants[0]).await;
    assert!(
        suspend_for_five_days(&app, &grants[1])
            .await
            .status()
            .is_success()
    );
    let res = app.vistoria(&grants[2], "2026-11-30", false).await;
    assert!(res.status().is_success(), "{}", res.text().await.unwrap());
    let entries = status_list_entries(&app).await;

    // By the printed code, which reads the register every time (a token's scan may answer
    // with what the list's own reading kept in memory).
    let mut scanned = Vec::new();
    for grant in &grants {
        for doc in grant["documents"].as_array().unwrap() {
            let token = token_of(doc["verification_url"].as_str().unwrap());
            let id = selo::signing::token::verify(&token, &keys)
                .unwrap()
                .document_id;
            let code = doc["verification_code"].as_str().unwrap();
            let verdict = app.get_json(&format!("/api/v1/verify/code/{code}")).await["verdict"]
                .as_str()
                .unwrap()
                .to_owned();
            if verdict != "valid" {
                scanned.push((id, verdict));
            }
        }
    }
    scanned.sort();
    assert_eq!(entries, scanned);
    assert!(
        entries.iter().any(|(_, s)| s == "suspended")
            && entries.iter().any(|(_, s)| s == "revoked"),
        "{entries:?}"
    );
}

/// Version 2 of the list leaves out the documents past their own last day, and a verifier
/// that holds an earlier list receives only what changed since its `ETag`: applied to the
/// list it holds, the delta gives the whole list served now.
#[tokio::test]
async fn the_version_2_list_sends_a_delta_since_the_list_held_and_leaves_out_the_expired() {
    use selo::signing::status_list::{verify_delta, verify_v2};
    let app = spawn_app().await;
    let (grants, keys) = three_granted(&app).await;
    let get = |path: String| app.client.get(app.url(&path)).send();
    let res = get("/api/v2/status-list".into()).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let first_etag = res.headers()["etag"].to_str().unwrap().to_owned();
    let first = verify_v2(&res.bytes().await.unwrap(), &keys).unwrap();
    assert!(first.entries.is_empty());
    revoke(&app, &grants[0]).await;
    let since = |etag: &str| format!("/api/v2/status-list?since={}", etag.trim_matches('"'));
    let res = get(since(&first_etag)).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let current_etag = res.headers()["etag"].to_str().unwrap().to_owned();
    assert_ne!(current_etag, first_etag);
    let delta = verify_delta(&res.bytes().await.unwrap(), &keys).unwrap();
    assert_eq!(delta.base, first_etag);
    assert!(delta.del.is_empty());
    assert_eq!(delta.set.len(), 2, "the authorization and its sticker");
    assert!(delta.set.iter().all(|e| e.status == "revoked"));
    assert_eq!(
        get(since(&current_etag)).await.unwrap().status(),
        StatusCode::NOT_MODIFIED
    );

    // A year and more later every document is past its last day: version 1 lists them
    // expired, version 2 leaves them out; the delta from the first list still applies.
    app.clock.advance(Duration::days(400));
    let v1 = status_list_entries(&app).await;
    assert!(v1.iter().any(|(_, s)| s == "expired"), "{v1:?}");
    let res = get("/api/v2/status-list".into()).await.unwrap();
    let full = verify_v2(&res.bytes().await.unwrap(), &keys).unwrap();
    assert!(
        full.entries.iter().all(|e| e.status != "expired"),
        "{full:?}"
    );
    let delta = verify_delta(
        &get(since(&first_etag))
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap(),
        &keys,
    )
    .unwrap();
    let mut held: std::collections::BTreeMap<_, _> = first
        .entries
        .into_iter()
        .map(|e| (e.document_id, e))
        .collect();
    for id in &delta.del {
        held.remove(id);
    }
    for e in delta.set {
        held.insert(e.document_id, e);
    }
    let mut whole = full.entries;
    whole.sort_by_key(|e| e.document_id);
    assert_eq!(held.into_values().collect::<Vec<_>>(), whole);
}

/// Status reads made together (the scans' gathering) answer each document with its own rows:
/// the same status and standing as each read alone, for the documents of an authorization with
/// two sanctions, of a revoked one and of a plain one, in any order, repeated, and with one the
/// register does not hold; and reads started at once through the gathering agree too.
#[tokio::test]
async fn gathered_status_reads_answer_each_document_with_its_own_rows() {
    use selo::standing::ride_hailing::{
        STANDING_AUTHORIZATION_KINDS as KINDS, STANDING_REGISTER_KIND as REGISTER,
    };
    let app = spawn_app().await;
    let sanctioned = app.granted_to(0).await;
    let revoked = app.granted_to(1).await;
    let plain = app.granted_to(2).await;
    let path = format!(
        "/api/v1/app-authorizations/{}/sanctions",
        sanctioned["id"].as_str().unwrap()
    );
    for (from, reason) in [("2026-12-01", "Primeira"), ("2027-02-01", "Segunda")] {
        let body = json!({"kind": "suspension", "effective_from": from, "days": 10,
                          "reason": reason, "legal_basis": "art. 26, §1º"});
        let res = app.post(&path, &body).await;
        assert_eq!(
            res.status(),
            StatusCode::CREATED,
            "{}",
            res.text().await.unwrap()
        );
    }
    revoke(&app, &revoked).await;
    let mut ids: Vec<uuid::Uuid> = [&plain, &revoked, &sanctioned]
        .iter()
        .flat_map(|g| g["documents"].as_array().unwrap().clone())
        .map(|d| d["id"].as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(ids.len(), 6);
    let unknown = uuid::Uuid::new_v4();
    ids.push(unknown);
    ids.push(ids[0]);
    let store = app.store().await;
    let alone = |id| {
        let store = store.clone();
        async move {
            store
                .document_status_standing_alone(id, KINDS, REGISTER)
                .await
                .unwrap()
                .map(|(status, events)| format!("{status:?} {events:?}"))
        }
    };
    let together = store
        .document_statuses_standing(&ids, KINDS, REGISTER)
        .await
        .unwrap();
    assert_eq!(
        together.len(),
        6,
        "one entry a document held, none for {unknown}"
    );
    let mut sanctions = 0;
    for id in &ids {
        let read = together
            .get(id)
            .map(|(status, events)| format!("{status:?} {events:?}"));
        assert_eq!(read, alone(*id).await, "document {id}");
        sanctions += together.get(id).map_or(0, |(s, _)| s.sanctions.len());
    }
    // The sanctioned authorization's two documents (one of them asked twice: ids[0] is plain).
    assert_eq!(
        sanctions, 4,
        "each of its two documents with both sanctions"
    );

    let gathered = futures_util::future::join_all(ids.iter().rev().chain(ids.iter()).map(|id| {
        let store = store.clone();
        let id = *id;
        async move {
            let read = store
                .document_status_standing(id, KINDS, REGISTER)
                .await
                .unwrap();
            (
                id,
                read.map(|(status, events)| format!("{status:?} {events:?}")),
            )
        }
    }))
    .await;
    for (id, read) in gathered {
        assert_eq!(
            read,
            alone(id).await,
            "document {id}, read at once with the others"
        );
    }
}

/// A sticker read from the register once today answers later scans from memory (the counter
/// says so) exactly as the register did; an act on its driver makes the next scan read the
/// register again and say so at once, and the next legal day reads it again too.
#[tokio::test]
async fn a_verdict_kept_in_memory_answers_as_the_register_until_an_act_or_the_day_changes_it() {
    const OPERATOR: &str = "operador-da-memoria-0123456789";
    let app = crate::helpers::spawn_app_tuned(|s| s.metrics_token = Some(OPERATOR.into())).await;
    let grant = app.granted().await;
    let token = token_of(&sticker_url(&grant));
    let from_memory = || scans_from_memory(&app, OPERATOR);
    let scanned = |v: Value| {
        let mut v = v;
        v.as_object_mut().unwrap().remove("checked_at");
        v
    };
    // Past the verification cache's freshness, which answers a token scanned again by itself.
    let past_cache = || app.clock.advance(chrono::Duration::seconds(6));

    let (status, read) = app.verify(&token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(read["verdict"], "valid", "{read}");
    assert!(
        read["document"]["driver"]["first_name"].is_string(),
        "{read}"
    );
    assert_eq!(from_memory().await, 0, "the first scan reads the register");
    past_cache();
    let (_, kept) = app.verify(&token).await;
    assert_eq!(from_memory().await, 1);
    assert_eq!(scanned(kept), scanned(read));

    // An act on the driver: the very next scan reads the register.
    let res = suspend_for_five_days(&app, &grant).await;
    assert_eq!(
        res.status(),
        StatusCode::CREATED,
        "{}",
        res.text().await.unwrap()
    );
    let (_, suspended) = app.verify(&token).await;
    assert_eq!(suspended["verdict"], "suspended", "{suspended}");
    assert!(
        suspended["document"]["suspended_until"].is_string(),
        "{suspended}"
    );
    assert!(suspended["document"].get("driver").is_none(), "{suspended}");
    assert_eq!(from_memory().await, 1);
    past_cache();
    let (_, kept) = app.verify(&token).await;
    assert_eq!(from_memory().await, 2);
    assert_eq!(scanned(kept), scanned(suspended.clone()));

    // The next legal day: the register again (a suspension may have ended).
    app.clock.advance(chrono::Duration::days(1));
    let (_, next_day) = app.verify(&token).await;
    assert_eq!(next_day["verdict"], "suspended", "{next_day}");
    assert_eq!(from_memory().await, 2);
}

/// The status list's judgment of the register (the first list of a day) keeps each verdict
/// it read for the scans: the first scan of a sticker after it is answered from memory, as
/// the register would answer it.
#[tokio::test]
async fn the_status_lists_judgment_keeps_the_days_verdicts_for_the_scans() {
    const OPERATOR: &str = "operador-da-lista-e-da-memoria-0123";
    let app = crate::helpers::spawn_app_tuned(|s| s.metrics_token = Some(OPERATOR.into())).await;
    let grant = app.granted().await;
    let token = token_of(&sticker_url(&grant));
    assert_eq!(
        app.get("/api/v1/status-list").await.status(),
        StatusCode::OK
    );
    let (status, body) = app.verify(&token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["verdict"], "valid", "{body}");
    assert_eq!(
        scans_from_memory(&app, OPERATOR).await,
        1,
        "the sticker's first scan answered with what the list read"
    );
    assert_eq!(body["document"]["driver"]["first_name"], "Maria", "{body}");
    assert_eq!(body["document"]["vehicle"]["model"], "Onix Plus", "{body}");
}

/// A node whose first request is the status list (a node just started beside another, whose
/// acts it was never told of) keeps what the list judged for its scans. The node's start
/// already reads the change log, so this does not tell whether the list's own read before
/// judging is needed.
#[tokio::test]
async fn a_node_that_starts_with_the_status_list_keeps_what_it_judged() {
    const OPERATOR: &str = "operador-do-segundo-no-0123456789";
    let a = crate::helpers::spawn_app().await;
    let grant = a.granted().await;
    let token = token_of(&sticker_url(&grant));
    let b = crate::helpers::spawn_beside(&a, |s| s.metrics_token = Some(OPERATOR.into())).await;
    assert_eq!(b.get("/api/v1/status-list").await.status(), StatusCode::OK);
    let (status, body) = b.verify(&token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["verdict"], "valid", "{body}");
    assert_eq!(
        scans_from_memory(&b, OPERATOR).await,
        1,
        "the sticker's first scan on the new node answered with what its list read"
    );
}
