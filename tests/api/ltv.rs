//! Long-term validation data (PAdES B-LT): a signer whose certificates name revocation lists
//! gets them, checked, in the PDF's Document Security Store with its chain, as an update after
//! the signature that selo's own verification accepts (and nothing else after it). The lists
//! here are made and served by the test: root → intermediate → A1-like leaf, P-256, each
//! certificate naming its issuer's CRL on a loopback port.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use der::Encode;
use p256::ecdsa::signature::Signer as _;
use reqwest::StatusCode;
use tokio::io::AsyncWriteExt;
use x509_cert::certificate::Certificate;
use x509_cert::crl::{CertificateList, RevokedCert, TbsCertList};
use x509_cert::time::Time;

use selo::signing::pades::{PdfVerifyError, verify_pdf_with};

use crate::helpers::{TestApp, spawn_app_on};
use crate::icp::{Key, Profile, name};

/// The CRLs served, by path (`/root.crl`, `/int.crl`); a missing one answers 404.
type Served = Arc<Mutex<std::collections::HashMap<String, Vec<u8>>>>;

async fn serve_crls() -> (String, Served) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let served: Served = Arc::default();
    let lists = served.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let Some((head, _)) = crate::helpers::read_http_request(&mut socket).await else {
                continue;
            };
            let path = head.split(' ').nth(1).unwrap_or_default().to_owned();
            let body = lists.lock().unwrap().get(&path).cloned();
            let answer = match body {
                Some(b) => [
                    format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/pkix-crl\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                        b.len()
                    )
                    .into_bytes(),
                    b,
                ]
                .concat(),
                None => b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    .to_vec(),
            };
            let _ = socket.write_all(&answer).await;
            let _ = socket.shutdown().await;
        }
    });
    (base, served)
}

/// A CRL of `issuer` signed by `key`, current for a week, listing `revoked` serials.
fn crl(
    key: &Key,
    issuer: &Certificate,
    revoked: &[&x509_cert::serial_number::SerialNumber],
) -> Vec<u8> {
    let Key::Ec(k) = key else {
        unreachable!("P-256 keys")
    };
    let now = std::time::SystemTime::now();
    let at = |t: std::time::SystemTime| Time::try_from(t).unwrap();
    let alg = spki::AlgorithmIdentifierOwned {
        oid: const_oid::db::rfc5912::ECDSA_WITH_SHA_256,
        parameters: None,
    };
    let tbs = TbsCertList {
        version: x509_cert::Version::V2,
        signature: alg.clone(),
        issuer: issuer.tbs_certificate().subject().clone(),
        this_update: at(now - Duration::from_hours(1)),
        next_update: Some(at(now + Duration::from_hours(24 * 7))),
        revoked_certificates: (!revoked.is_empty()).then(|| {
            revoked
                .iter()
                .map(|s| RevokedCert {
                    serial_number: (*s).clone(),
                    revocation_date: at(now - Duration::from_mins(30)),
                    crl_entry_extensions: None,
                })
                .collect()
        }),
        crl_extensions: None,
    };
    let signature: p256::ecdsa::DerSignature = k.sign(&tbs.to_der().unwrap());
    CertificateList {
        tbs_cert_list: tbs,
        signature_algorithm: alg,
        signature: der::asn1::BitString::from_bytes(&signature.to_bytes()).unwrap(),
    }
    .to_der()
    .unwrap()
}

/// Where a test chain's certificates say their status is published.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Published {
    /// Each names its issuer's CRL (`/root.crl`, `/int.crl`).
    Crls,
    /// Only the leaf names a responder (`/ocsp`), no CRL.
    Ocsp,
}

/// A keys folder whose imported signer's chain names its revocation data at `base`, which
/// the test serves: the leaf revoked when `revoked`.
fn signer_naming(
    base: &str,
    served: &Served,
    revoked: bool,
    published: Published,
) -> tempfile::TempDir {
    let (root_key, int_key, leaf_key) = (Key::new(false), Key::new(false), Key::new(false));
    let root_name = name("CN=Raiz LCR de TESTE,O=ICP-Brasil TESTE,C=BR");
    let int_name = name("CN=AC LCR de TESTE,O=ICP-Brasil TESTE,C=BR");
    let crls = published == Published::Crls;
    let profile = |issuer: &x509_cert::name::Name, subject, ca, url: Option<&str>| Profile {
        issuer: issuer.clone(),
        subject,
        ca,
        time_stamping: false,
        crl_url: url.filter(|_| crls).map(|c| format!("{base}{c}")),
        ocsp_url: url.filter(|_| !crls && !ca).map(|_| format!("{base}/ocsp")),
    };
    let root = root_key.issue(
        profile(&root_name, root_name.clone(), true, None),
        &root_key,
        1,
        3650,
    );
    let int = root_key.issue(
        profile(&root_name, int_name.clone(), true, Some("/root.crl")),
        &int_key,
        2,
        3650,
    );
    let leaf = int_key.issue(
        profile(
            &int_name,
            name("CN=PREFEITURA MUNICIPAL DE TESTE:11222333000181,O=ICP-Brasil TESTE,C=BR"),
            false,
            Some("/int.crl"),
        ),
        &leaf_key,
        3,
        365,
    );
    let leaf_serial = leaf.tbs_certificate().serial_number().clone();
    {
        let mut lists = served.lock().unwrap();
        lists.insert("/root.crl".into(), crl(&root_key, &root, &[]));
        let listed: Vec<&x509_cert::serial_number::SerialNumber> = if revoked {
            vec![&leaf_serial]
        } else {
            Vec::new()
        };
        lists.insert("/int.crl".into(), crl(&int_key, &int, &listed));
        lists.insert("/ocsp".into(), ocsp_answer(&int_key, &int, &leaf, revoked));
    }
    let pfx =
        selo::signing::pkcs12::build(&leaf_key.pkcs8(), &[leaf, int, root], "segredo").unwrap();
    let dir = tempfile::tempdir().unwrap();
    selo::signing::keys::generate(dir.path()).unwrap();
    selo::signing::imported::import(dir.path(), &pfx, "segredo").unwrap();
    dir
}

/// The OCSP answer of `issuer` (its `key` signs it) about `cert`: good, or revoked half an
/// hour ago; current for a week.
fn ocsp_answer(key: &Key, issuer: &Certificate, cert: &Certificate, revoked: bool) -> Vec<u8> {
    use der::asn1::{BitString, GeneralizedTime, OctetString};
    use der::{Any, Decode, Tag, TagNumber};
    use selo::signing::ocsp::{
        BasicOcspResponse, ID_PKIX_OCSP_BASIC, OcspResponse, OcspResponseStatus, ResponseBytes,
        ResponseData, SingleResponse, cert_id,
    };
    let Key::Ec(k) = key else {
        unreachable!("P-256 keys")
    };
    let now = std::time::SystemTime::now();
    let at = |t| GeneralizedTime::from_system_time(t).unwrap();
    let tagged = |number, constructed, content: Vec<u8>| {
        Any::new(
            Tag::ContextSpecific {
                constructed,
                number: TagNumber(number),
            },
            content,
        )
        .unwrap()
    };
    let status = if revoked {
        tagged(1, true, at(now - Duration::from_mins(30)).to_der().unwrap())
    } else {
        tagged(0, false, Vec::new())
    };
    let key_hash = OctetString::new(vec![7u8; 20]).unwrap().to_der().unwrap();
    let data = ResponseData {
        version: 0,
        responder_id: tagged(2, true, key_hash),
        produced_at: at(now),
        responses: vec![SingleResponse {
            cert_id: cert_id(cert, issuer).unwrap(),
            cert_status: status,
            this_update: at(now - Duration::from_hours(1)),
            next_update: Some(at(now + Duration::from_hours(24 * 7))),
            single_extensions: None,
        }],
        response_extensions: None,
    }
    .to_der()
    .unwrap();
    let signature: p256::ecdsa::DerSignature = k.sign(&data);
    let basic = BasicOcspResponse {
        tbs_response_data: Any::from_der(&data).unwrap(),
        signature_algorithm: spki::AlgorithmIdentifierOwned {
            oid: const_oid::db::rfc5912::ECDSA_WITH_SHA_256,
            parameters: None,
        },
        signature: BitString::from_bytes(&signature.to_bytes()).unwrap(),
        certs: None,
    };
    OcspResponse {
        response_status: OcspResponseStatus::Successful,
        response_bytes: Some(ResponseBytes {
            response_type: ID_PKIX_OCSP_BASIC,
            response: OctetString::new(basic.to_der().unwrap()).unwrap(),
        }),
    }
    .to_der()
    .unwrap()
}

/// A grant to the first test driver and car, as answered.
async fn grant_first(app: &TestApp) -> reqwest::Response {
    let d = app
        .create_driver(&crate::helpers::driver_body(
            crate::helpers::CPFS[0],
            crate::helpers::CNHS[0],
        ))
        .await;
    let v = app
        .create_vehicle(&crate::helpers::vehicle_body(
            crate::helpers::PLATES[0],
            crate::helpers::RENAVAMS[0],
        ))
        .await;
    app.grant(&d, &v, "2026-11-20").await
}

async fn app_signing_with(keys_dir: tempfile::TempDir) -> TestApp {
    let data_dir = tempfile::tempdir().unwrap();
    let (database_url, backend) = crate::helpers::another_database(data_dir.path()).await;
    spawn_app_on(database_url, backend, keys_dir, data_dir).await
}

/// The DSS of a PDF: its certificates and CRLs, and the number of VRI entries.
fn dss_of(pdf: &[u8]) -> Option<(usize, usize, usize)> {
    let doc = lopdf::Document::load_mem(pdf).unwrap();
    let dss_ref = doc
        .catalog()
        .unwrap()
        .get(b"DSS")
        .ok()?
        .as_reference()
        .unwrap();
    let dss = doc.get_dictionary(dss_ref).unwrap();
    let len = |k: &[u8]| dss.get(k).unwrap().as_array().unwrap().len();
    let vri = dss.get(b"VRI").unwrap().as_dict().unwrap().len();
    Some((len(b"Certs"), len(b"CRLs"), vri))
}

/// How many OCSP answers the DSS of `pdf` holds, and how many its signature's VRI entry names.
fn ocsps_of(pdf: &[u8]) -> (usize, usize) {
    let doc = lopdf::Document::load_mem(pdf).unwrap();
    let dss_ref = doc
        .catalog()
        .unwrap()
        .get(b"DSS")
        .unwrap()
        .as_reference()
        .unwrap();
    let dss = doc.get_dictionary(dss_ref).unwrap();
    let listed = dss.get(b"OCSPs").map_or(0, |o| o.as_array().unwrap().len());
    let vri = dss.get(b"VRI").unwrap().as_dict().unwrap();
    let in_vri = vri.iter().next().map_or(0, |(_, e)| {
        e.as_dict()
            .unwrap()
            .get(b"OCSP")
            .map_or(0, |o| o.as_array().unwrap().len())
    });
    (listed, in_vri)
}

/// A signer whose certificate names only an OCSP responder: its answer, checked, goes into
/// the DSS (and the signature's VRI) and selo verifies the document; an answer that says
/// revoked issues nothing.
#[tokio::test]
async fn a_signer_naming_an_ocsp_responder_gets_its_answer_in_the_dss() {
    let (base, served) = serve_crls().await;
    let app = app_signing_with(signer_naming(&base, &served, false, Published::Ocsp)).await;
    let grant = app.granted().await;
    let pdf = app.document_bytes(&grant, "app_sticker").await;
    assert_eq!(dss_of(&pdf), Some((3, 0, 1)), "chain of 3, no list");
    assert_eq!(ocsps_of(&pdf), (1, 1));
    let (status, body) = crate::pdf_signatures::upload_raw(&app, pdf).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["verdict"], "valid", "{body}");

    let (base, served) = serve_crls().await;
    let app = app_signing_with(signer_naming(&base, &served, true, Published::Ocsp)).await;
    let res = grant_first(&app).await;
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
}

/// How many `archive_timestamp_added` events the history of `grant` holds.
async fn archive_events(app: &TestApp, grant: &serde_json::Value) -> usize {
    let id = grant["id"].as_str().unwrap();
    let history: serde_json::Value = app
        .get_authed(&format!("/api/v1/app-authorizations/{id}/history"))
        .await
        .json()
        .await
        .unwrap();
    history["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "archive_timestamp_added")
        .count()
}

/// The names of the fields of `pdf`'s form, in order (UTF-16BE text strings).
fn field_names(pdf: &[u8]) -> Vec<String> {
    let doc = lopdf::Document::load_mem(pdf).unwrap();
    let form = doc
        .catalog()
        .unwrap()
        .get(b"AcroForm")
        .unwrap()
        .as_dict()
        .unwrap();
    form.get(b"Fields")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let field = doc.get_dictionary(f.as_reference().unwrap()).unwrap();
            let units: Vec<u16> = field.get(b"T").unwrap().as_str().unwrap()[2..]
                .chunks(2)
                .map(|c| u16::from_be_bytes([c[0], c[1]]))
                .collect();
            String::from_utf16(&units).unwrap()
        })
        .collect()
}

/// `pdf` with an update that rotates its first page: a change that is not validation data.
fn page_rotated(pdf: &[u8]) -> Vec<u8> {
    let doc = lopdf::Document::load_mem(pdf).unwrap();
    let page = *doc.get_pages().get(&1).unwrap();
    let mut inc = lopdf::IncrementalDocument::create_from(pdf.to_vec(), doc);
    inc.opt_clone_object_to_new_document(page).unwrap();
    inc.new_document
        .get_dictionary_mut(page)
        .unwrap()
        .set("Rotate", lopdf::Object::Integer(90));
    let mut changed = Vec::new();
    inc.save_to(&mut changed).unwrap();
    changed
}

/// The signer's lists are fetched, checked and kept in the DSS with its chain; selo verifies
/// the document, and refuses one changed after the DSS in anything but validation data.
#[tokio::test]
async fn a_signer_naming_revocation_lists_gets_them_in_the_documents_dss() {
    let (base, served) = serve_crls().await;
    let keys_dir = signer_naming(&base, &served, false, Published::Crls);
    let keys = selo::signing::keys::load(keys_dir.path(), true).unwrap();
    let app = app_signing_with(keys_dir).await;
    let grant = app.granted().await;
    let pdf = app.document_bytes(&grant, "app_sticker").await;
    assert_eq!(
        dss_of(&pdf),
        Some((3, 2, 1)),
        "chain of 3, lists of 2, one signature"
    );
    let (status, body) = crate::pdf_signatures::upload_raw(&app, pdf.clone()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["verdict"], "valid", "{body}");
    verify_pdf_with(
        &pdf,
        &keys.chain.root,
        &keys.public,
        &keys.imported_certificates,
    )
    .unwrap();

    // An update after the DSS that changes a page is not validation data.
    let changed = page_rotated(&pdf);
    assert_eq!(
        verify_pdf_with(
            &changed,
            &keys.chain.root,
            &keys.public,
            &keys.imported_certificates
        ),
        Err(PdfVerifyError::ModifiedAfterSigning)
    );
}

/// A list that names the city's certificate as revoked: nothing is issued (503, said why).
/// Lists that cannot be fetched: the document is issued without its DSS.
#[tokio::test]
async fn a_revoked_signer_issues_nothing_and_an_unreachable_list_leaves_no_dss() {
    let (base, served) = serve_crls().await;
    let app = app_signing_with(signer_naming(&base, &served, true, Published::Crls)).await;
    let res = grant_first(&app).await;
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: serde_json::Value = res.json().await.unwrap();
    assert!(
        body["detail"].as_str().unwrap().contains("revogado"),
        "{body}"
    );

    let (base, served) = serve_crls().await;
    let keys_dir = signer_naming(&base, &served, false, Published::Crls);
    served.lock().unwrap().clear();
    let app = app_signing_with(keys_dir).await;
    let grant = app.granted().await;
    let pdf = app.document_bytes(&grant, "app_authorization").await;
    assert_eq!(dss_of(&pdf), None);
}

/// Archiving (PAdES B-LTA): documents whose signer's certificate expires within the horizon
/// gain fresh validation data and a document timestamp, stored as an update after the file
/// issued; selo still verifies them (the upload found by the new file's hash), the history
/// says so, a second round adds a second timestamp, and a change inside what a timestamp
/// covers, or after it, is refused.
#[tokio::test]
async fn archiving_adds_a_document_timestamp_that_keeps_the_file_verifiable() {
    use selo::issuance::archive::Archiver;
    let (base, served) = serve_crls().await;
    let keys_dir = signer_naming(&base, &served, false, Published::Crls);
    let keys = selo::signing::keys::load(keys_dir.path(), true).unwrap();
    let app = app_signing_with(keys_dir).await;
    // Signed while the certificates (made now) are valid.
    app.clock.set(chrono::Utc::now());
    let grant = app.granted().await;
    let issued = app.document_bytes(&grant, "app_sticker").await;
    let tsa = crate::tsa::TestTsa::start().await;
    let stamper = selo::signing::timestamp::Timestamper::new(
        tsa.settings(5_000, selo::signing::timestamp::Fallback::Refuse),
    )
    .unwrap();
    let revocation =
        selo::signing::revocation::RevocationFetcher::new(Duration::from_secs(5)).unwrap();
    let archiver = Archiver {
        keys: &keys,
        tsa: &stamper,
        revocation: &revocation,
    };
    let store = app.store().await;
    let now = chrono::Utc::now();
    let verify = |pdf: &[u8]| {
        verify_pdf_with(
            pdf,
            &keys.chain.root,
            &keys.public,
            &keys.imported_certificates,
        )
    };

    // The leaf lasts a year: nothing is due within 30 days.
    let run = archiver
        .archive_due(&store, chrono::Duration::days(30), now, "teste")
        .await
        .unwrap();
    assert!(run.archived.is_empty() && run.failed.is_empty(), "{run:?}");
    assert_eq!(tsa.requests(), 0);

    // Within 400 days: the authorization and the sticker.
    let run = archiver
        .archive_due(&store, chrono::Duration::days(400), now, "teste")
        .await
        .unwrap();
    assert_eq!(run.archived.len(), 2, "{run:?}");
    assert!(run.failed.is_empty(), "{run:?}");
    let pdf = app.document_bytes(&grant, "app_sticker").await;
    assert!(pdf.starts_with(&issued) && pdf.len() > issued.len());
    let stamps = |pdf: &[u8]| pdf.windows(13).filter(|w| w == b"/ETSI.RFC3161").count();
    assert_eq!(stamps(&pdf), 1);
    assert_eq!(dss_of(&pdf), Some((3, 2, 1)), "the DSS kept, nothing twice");
    let verified = verify(&pdf).unwrap();
    let archive = verified.archive.expect("an archive timestamp");
    assert!((archive.time - now).num_seconds().abs() < 60);
    assert!(archive.valid_until > now + chrono::Duration::days(3000));
    let (status, body) = crate::pdf_signatures::upload_raw(&app, pdf.clone()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["verdict"], "valid", "{body}");
    assert_eq!(archive_events(&app, &grant).await, 2);

    // Protected for ten years now: not due within 400 days; due within 3,700, and a second
    // timestamp follows the first, with the first authority's certificate in the DSS.
    let run = archiver
        .archive_due(&store, chrono::Duration::days(400), now, "teste")
        .await
        .unwrap();
    assert!(run.archived.is_empty() && run.failed.is_empty(), "{run:?}");
    let run = archiver
        .archive_due(&store, chrono::Duration::days(3700), now, "teste")
        .await
        .unwrap();
    assert_eq!(run.archived.len(), 2, "{run:?}");
    let twice = app.document_bytes(&grant, "app_sticker").await;
    assert!(twice.starts_with(&pdf));
    assert_eq!(stamps(&twice), 2);
    assert_eq!(
        field_names(&twice),
        [
            "Assinatura da Prefeitura",
            "Carimbo do tempo 1",
            "Carimbo do tempo 2"
        ]
    );
    assert_eq!(dss_of(&twice), Some((4, 2, 2)));
    verify(&twice).unwrap();
    let (_, body) = crate::pdf_signatures::upload_raw(&app, twice.clone()).await;
    assert_eq!(body["verdict"], "valid", "{body}");

    // A byte of the validation data the timestamps cover (the DSS the first round wrote),
    // changed.
    let dss_at = issued.len()
        + pdf[issued.len()..]
            .windows(9)
            .position(|w| w == b"/Type/DSS" || w == b"Type /DSS")
            .expect("the DSS rewritten by the first round");
    let mut altered = twice.clone();
    altered[dss_at + 6] = b'X';
    assert_eq!(verify(&altered), Err(PdfVerifyError::Altered));
    // A page rotated after the last timestamp.
    assert_eq!(
        verify(&page_rotated(&twice)),
        Err(PdfVerifyError::ModifiedAfterSigning)
    );
}
