//! Signature timestamps (RFC 3161): with a time-stamping authority configured, every PDF
//! signature carries the authority's token over its value (PAdES B-T; AD-RT for an ICP-Brasil
//! signer); when the authority does not answer, nothing is issued (503), or, when so
//! configured, the document is issued without one and its record's history says so. The
//! authority is `tsa::TestTsa`, a real RFC 3161 server on a loopback port; `.ci/run` has
//! pyHanko validate signatures stamped by OpenSSL's TSA.

use cms::content_info::ContentInfo;
use cms::signed_data::SignedData;
use der::Decode;
use reqwest::StatusCode;
use serde_json::Value;
use sha2::{Digest, Sha256};

use selo::signing::timestamp::{Fallback, ID_AA_TIME_STAMP_TOKEN, TstInfo, read_token};

use crate::helpers::{CNHS, CPFS, PLATES, RENAVAMS, driver_body, spawn_app_tuned, vehicle_body};
use crate::icp::{chain, contents_hex};
use crate::pdf_signatures::upload_raw;
use crate::tsa::{TEST_TSA_POLICY, TestTsa};

/// The CMS of a PDF's last signature.
fn signed_data(pdf: &[u8]) -> SignedData {
    let hex = contents_hex(pdf);
    let der: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    let content = ContentInfo::decode(&mut der::SliceReader::new(&der).unwrap()).unwrap();
    content.content.decode_as().unwrap()
}

/// The signature's timestamp, if any: its `TSTInfo` and whether it stamps the signature's
/// own value.
fn timestamp_of(pdf: &[u8]) -> Option<(TstInfo, bool)> {
    let sd = signed_data(pdf);
    let si = sd.signer_infos.0.iter().next().unwrap();
    let attr = si
        .unsigned_attrs
        .as_ref()?
        .iter()
        .find(|a| a.oid == ID_AA_TIME_STAMP_TOKEN)?;
    let token: ContentInfo = attr.values.iter().next().unwrap().decode_as().unwrap();
    let (_, _, info) = read_token(&token).unwrap();
    let stamps_signature = info.message_imprint.hashed_message.as_bytes()
        == Sha256::digest(si.signature.as_bytes()).as_slice();
    Some((info, stamps_signature))
}

async fn register(app: &crate::helpers::TestApp) -> (String, String) {
    let d = app.create_driver(&driver_body(CPFS[0], CNHS[0])).await;
    let v = app
        .create_vehicle(&vehicle_body(PLATES[0], RENAVAMS[0]))
        .await;
    (d, v)
}

/// Both documents of a grant carry a timestamp the authority signed over their signature's
/// value; selo still verifies them.
#[tokio::test]
async fn an_issued_document_carries_the_authoritys_timestamp_over_its_signature() {
    let tsa = TestTsa::start().await;
    let settings = tsa.settings(5_000, Fallback::Refuse);
    let app = spawn_app_tuned(|s| s.tsa = Ok(Some(settings))).await;
    let grant = app.granted().await;
    assert!(tsa.requests() >= 2, "one timestamp per signature");
    for kind in ["app_authorization", "app_sticker"] {
        let pdf = app.document_bytes(&grant, kind).await;
        let (info, stamps_signature) = timestamp_of(&pdf).expect("a signature timestamp");
        assert!(
            stamps_signature,
            "{kind}: the token stamps the signature's value"
        );
        assert_eq!(info.policy.to_string(), TEST_TSA_POLICY);
        assert!(info.nonce.is_some());
        let (_, body) = upload_raw(&app, pdf).await;
        assert_eq!(body["verdict"], "valid", "{kind}: {body}");
    }
}

/// An authority that does not answer within the wait: the grant fails with 503, nothing is
/// issued; once it answers again the same grant goes through.
#[tokio::test]
async fn when_the_authority_is_silent_nothing_is_issued() {
    let tsa = TestTsa::start().await;
    tsa.silence(true);
    let settings = tsa.settings(400, Fallback::Refuse);
    let app = spawn_app_tuned(|s| s.tsa = Ok(Some(settings))).await;
    let (d, v) = register(&app).await;
    let started = std::time::Instant::now();
    let res = app.grant(&d, &v, "2026-11-20").await;
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    let body: Value = res.json().await.unwrap();
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .contains("carimbo do tempo"),
        "{body}"
    );
    // Nothing was committed: the same grant, once the authority answers, is the first one
    // (a driver holds one authorization).
    tsa.silence(false);
    let res = app.grant(&d, &v, "2026-11-20").await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let grant: Value = res.json().await.unwrap();
    let pdf = app.document_bytes(&grant, "app_sticker").await;
    assert!(timestamp_of(&pdf).is_some());
}

/// `issue-without`: the authority is down, the grant is issued without a timestamp, and the
/// authorization's history records why.
#[tokio::test]
async fn issuing_without_a_timestamp_when_so_configured_is_recorded_in_the_history() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/tsa", closed.local_addr().unwrap());
    drop(closed);
    let settings = selo::signing::timestamp::TsaSettings {
        url,
        credentials: None,
        timeout: std::time::Duration::from_secs(2),
        policy: None,
        fallback: Fallback::IssueWithout,
    };
    let app = spawn_app_tuned(|s| s.tsa = Ok(Some(settings))).await;
    let grant = app.granted().await;
    let pdf = app.document_bytes(&grant, "app_authorization").await;
    assert!(timestamp_of(&pdf).is_none());
    let id = grant["id"].as_str().unwrap();
    let history: Value = app
        .get_authed(&format!("/api/v1/app-authorizations/{id}/history"))
        .await
        .json()
        .await
        .unwrap();
    let without: Vec<&Value> = history["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "issued_without_timestamp")
        .collect();
    assert_eq!(without.len(), 2, "both documents: {history}");
    assert!(
        without[0]["reason"]
            .as_str()
            .unwrap()
            .contains("did not answer")
    );
}

/// An ICP-Brasil signer with an authority: every kind's signature names AD-RT (its OID and
/// its own `signPolicyHash`) instead of AD-RB, and carries the timestamp.
#[test]
fn an_icp_brasil_signature_with_a_timestamp_names_ad_rt() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let tsa = runtime.block_on(TestTsa::start());
    let (pfx, _) = chain(false, 365, "segredo");
    let dir = tempfile::tempdir().unwrap();
    selo::signing::keys::generate(dir.path()).unwrap();
    selo::signing::imported::import(dir.path(), &pfx, "segredo").unwrap();
    let keys = selo::signing::keys::load(dir.path(), true).unwrap();
    let profile = std::sync::Arc::new(selo::documents::profile::Profile::embedded().unwrap());
    let letterhead = selo::documents::Letterhead::new(profile, "https://selo.example.test");
    let stamper =
        selo::signing::timestamp::Timestamper::new(tsa.settings(5_000, Fallback::Refuse)).unwrap();
    let out = tempfile::tempdir().unwrap();
    let pdfs: Vec<_> = selo::cli::samples::write_timestamped_samples(
        out.path(),
        &keys,
        dir.path(),
        &letterhead,
        crate::helpers::t0(),
        &stamper,
    )
    .unwrap()
    .into_iter()
    .filter(|p| p.extension().is_some_and(|e| e == "pdf"))
    .collect();
    assert_eq!(pdfs.len(), 8);
    for path in pdfs {
        let pdf = std::fs::read(&path).unwrap();
        let cms = contents_hex(&pdf);
        // 2.16.76.1.7.1.12.1.1, AD-RT v1.1, and the signPolicyHash inside its file.
        assert!(cms.contains("0608604c0107010c0101"), "{path:?}: AD-RT");
        assert!(
            cms.contains("fa1d44e76ad91e2f6cd471b6987e9c0f1c70d4b70da0956e7becf4dc792c0c1f"),
            "{path:?}: AD-RT's own hash"
        );
        assert!(!cms.contains("0608604c0107010b0101"), "{path:?}: not AD-RB");
        let (_, stamps_signature) = timestamp_of(&pdf).expect("a timestamp");
        assert!(stamps_signature);
        selo::signing::pades::verify_pdf_with(
            &pdf,
            &keys.chain.root,
            &keys.public,
            &keys.imported_certificates,
        )
        .unwrap();
    }
}
