//! A time-stamping authority for the tests: RFC 3161 over HTTP on a loopback port, signing
//! with its own P-256 certificate, issued by a test root's key, whose only use is
//! time-stamping. It can be
//! told to fall silent (accept and never answer) to test a TSA that does not answer.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use cms::cert::{CertificateChoices, IssuerAndSerialNumber};
use cms::content_info::{CmsVersion, ContentInfo};
use cms::signed_data::{
    CertificateSet, EncapsulatedContentInfo, SignedData, SignerIdentifier, SignerInfo, SignerInfos,
};
use der::asn1::{Int, OctetString, SetOfVec};
use der::{Any, Decode, Encode};
use p256::ecdsa::signature::Signer as _;
use sha2::{Digest, Sha256};
use spki::AlgorithmIdentifierOwned;
use tokio::io::AsyncWriteExt;
use x509_cert::attr::Attribute;
use x509_cert::certificate::Certificate;

use selo::signing::timestamp::{PkiStatusInfo, TimeStampReq, TimeStampResp, TstInfo};

use crate::icp::{Key, Profile, name};

/// The TSA's policy (a test arc).
pub const TEST_TSA_POLICY: &str = "1.3.6.1.4.1.99999.1";

struct Authority {
    key: p256::ecdsa::SigningKey,
    cert: Certificate,
    silent: AtomicBool,
    requests: AtomicUsize,
}

pub struct TestTsa {
    pub url: String,
    authority: Arc<Authority>,
}

impl TestTsa {
    /// Starts the authority on the current runtime.
    pub async fn start() -> Self {
        let root_key = Key::new(false);
        let tsa_key = Key::new(false);
        let root_name = name("CN=Raiz de carimbo de TESTE,O=ACT TESTE,C=BR");
        let cert = root_key.issue(
            Profile {
                issuer: root_name,
                subject: name("CN=Carimbo do tempo de TESTE,O=ACT TESTE,C=BR"),
                ca: false,
                time_stamping: true,
                crl_url: None,
                ocsp_url: None,
            },
            &tsa_key,
            2,
            3650,
        );
        let Key::Ec(key) = tsa_key else {
            unreachable!("a P-256 key")
        };
        let authority = Arc::new(Authority {
            key,
            cert,
            silent: AtomicBool::new(false),
            requests: AtomicUsize::new(0),
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/tsa", listener.local_addr().unwrap());
        let a = authority.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serve(a.clone(), stream));
            }
        });
        Self { url, authority }
    }

    /// Accept requests and never answer them (`true`), or answer again (`false`).
    pub fn silence(&self, silent: bool) {
        self.authority.silent.store(silent, Ordering::SeqCst);
    }

    /// Requests answered or held so far.
    pub fn requests(&self) -> usize {
        self.authority.requests.load(Ordering::SeqCst)
    }

    /// The settings that point selo at this authority, waiting `timeout_ms` for it.
    pub fn settings(
        &self,
        timeout_ms: u64,
        fallback: selo::signing::timestamp::Fallback,
    ) -> selo::signing::timestamp::TsaSettings {
        selo::signing::timestamp::TsaSettings {
            url: self.url.clone(),
            credentials: None,
            timeout: std::time::Duration::from_millis(timeout_ms),
            policy: None,
            fallback,
        }
    }
}

/// One HTTP/1.1 exchange: a POST of `application/timestamp-query`, answered with a
/// `application/timestamp-reply`.
async fn serve(a: Arc<Authority>, mut stream: tokio::net::TcpStream) {
    let Some((_, query)) = crate::helpers::read_http_request(&mut stream).await else {
        return;
    };
    a.requests.fetch_add(1, Ordering::SeqCst);
    if a.silent.load(Ordering::SeqCst) {
        tokio::time::sleep(std::time::Duration::from_mins(2)).await;
        return;
    }
    let body = match TimeStampReq::from_der(&query) {
        Ok(req) => answer(&a, &req),
        Err(_) => TimeStampResp {
            status: PkiStatusInfo {
                status: 2,
                status_string: Some(vec!["badDataFormat".into()]),
                fail_info: None,
            },
            time_stamp_token: None,
        }
        .to_der()
        .unwrap(),
    };
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/timestamp-reply\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes()).await;
    let _ = stream.write_all(&body).await;
    let _ = stream.shutdown().await;
}

fn attribute(oid: const_oid::ObjectIdentifier, value: Any) -> Attribute {
    Attribute {
        oid,
        values: SetOfVec::try_from(vec![value]).unwrap(),
    }
}

/// A granted response: the `TSTInfo` of the request's imprint and nonce, now, signed.
fn answer(a: &Authority, req: &TimeStampReq) -> Vec<u8> {
    use const_oid::db::rfc3161::ID_CT_TST_INFO;
    use const_oid::db::rfc5911::{ID_CONTENT_TYPE, ID_MESSAGE_DIGEST, ID_SIGNED_DATA};
    use const_oid::db::rfc5912::{ECDSA_WITH_SHA_256, ID_SHA_256};
    let now = chrono::Utc::now().format("%Y%m%d%H%M%SZ").to_string();
    let serial = a.requests.load(Ordering::SeqCst).to_be_bytes();
    let info = TstInfo {
        version: 1,
        policy: const_oid::ObjectIdentifier::new_unwrap(TEST_TSA_POLICY),
        message_imprint: req.message_imprint.clone(),
        serial_number: Int::new(&serial[serial.iter().position(|b| *b != 0).unwrap_or(7)..])
            .unwrap(),
        gen_time: Any::new(der::Tag::GeneralizedTime, now.as_bytes()).unwrap(),
        accuracy: None,
        ordering: false,
        nonce: req.nonce.clone(),
        tsa: None,
    }
    .to_der()
    .unwrap();
    let sha256 = AlgorithmIdentifierOwned {
        oid: ID_SHA_256,
        parameters: None,
    };
    let signed_attrs = SetOfVec::try_from(vec![
        attribute(ID_CONTENT_TYPE, Any::encode_from(&ID_CT_TST_INFO).unwrap()),
        attribute(
            ID_MESSAGE_DIGEST,
            Any::encode_from(&OctetString::new(Sha256::digest(&info).to_vec()).unwrap()).unwrap(),
        ),
    ])
    .unwrap();
    let signature: p256::ecdsa::DerSignature = a.key.sign(&signed_attrs.to_der().unwrap());
    let tbs = a.cert.tbs_certificate();
    let signer = SignerInfo {
        version: CmsVersion::V1,
        sid: SignerIdentifier::IssuerAndSerialNumber(IssuerAndSerialNumber {
            issuer: tbs.issuer().clone(),
            serial_number: tbs.serial_number().clone(),
        }),
        digest_alg: sha256.clone(),
        signed_attrs: Some(signed_attrs),
        signature_algorithm: AlgorithmIdentifierOwned {
            oid: ECDSA_WITH_SHA_256,
            parameters: None,
        },
        signature: OctetString::new(signature.to_bytes().to_vec()).unwrap(),
        unsigned_attrs: None,
    };
    let signed_data = SignedData {
        version: CmsVersion::V3,
        digest_algorithms: SetOfVec::try_from(vec![sha256]).unwrap(),
        encap_content_info: EncapsulatedContentInfo {
            econtent_type: ID_CT_TST_INFO,
            econtent: Some(Any::encode_from(&OctetString::new(info).unwrap()).unwrap()),
        },
        certificates: req.cert_req.then(|| {
            CertificateSet::try_from(vec![CertificateChoices::Certificate(a.cert.clone())]).unwrap()
        }),
        crls: None,
        signer_infos: SignerInfos::try_from(vec![signer]).unwrap(),
    };
    TimeStampResp {
        status: PkiStatusInfo {
            status: 0,
            status_string: None,
            fail_info: None,
        },
        time_stamp_token: Some(ContentInfo {
            content_type: ID_SIGNED_DATA,
            content: Any::encode_from(&signed_data).unwrap(),
        }),
    }
    .to_der()
    .unwrap()
}
