//! The city's A1 certificate (PKCS#12, RSA or ECDSA P-256) imported with
//! `selo keys import-pkcs12` signs every PDF. The chains here are throw-away ones built in the
//! test (root → intermediate → A1-like leaf under an ICP-Brasil-like policy); pdfsig and
//! pyHanko check the same with OpenSSL-made files in `.ci/run` (`tests/interop/icp_check.sh`).

use std::str::FromStr;
use std::time::Duration;

use der::Encode;
use reqwest::StatusCode;
use serde_json::Value;
use spki::SubjectPublicKeyInfoOwned;
use x509_cert::builder::profile::BuilderProfile;
use x509_cert::builder::{Builder, CertificateBuilder};
use x509_cert::certificate::{Certificate, TbsCertificate};
use x509_cert::ext::pkix::certpolicy::PolicyInformation;
use x509_cert::ext::pkix::{
    AuthorityKeyIdentifier, BasicConstraints, CertificatePolicies, KeyUsage, KeyUsages,
    SubjectKeyIdentifier,
};
use x509_cert::ext::{Extension, ToExtension};
use x509_cert::name::Name;
use x509_cert::serial_number::SerialNumber;
use x509_cert::time::Validity;

use selo::signing::pades::{PdfVerifyError, verify_pdf, verify_pdf_with};

use crate::helpers::{pdf_text, spawn_app_on};

/// The DER of the AD-RB policy OID, 2.16.76.1.7.1.11.1.1, as it appears in the CMS.
const AD_RB_OID_DER: &str = "0608604c0107010b0101";
/// The `signPolicyHash` inside `PA_PAdES_AD_RB_v1_1.der`.
const AD_RB_V1_1_HASH: &str = "44fc5816eb2d705d8c8f022a7f93b3fb49edfae1a7b9149ef6fab833e9bb63f8";

/// One signed PDF of every document kind, written into `out` by `selo samples`' code.
pub(crate) fn sample_pdfs(
    keys: &selo::signing::keys::Keys,
    keys_dir: &std::path::Path,
    out: &std::path::Path,
) -> Vec<std::path::PathBuf> {
    let profile = std::sync::Arc::new(selo::documents::profile::Profile::embedded().unwrap());
    let letterhead = selo::documents::Letterhead::new(profile, "https://selo.example.test");
    selo::cli::samples::write_samples(out, keys, keys_dir, &letterhead, crate::helpers::t0())
        .unwrap()
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "pdf"))
        .collect()
}

/// With `SELO_ICP_POLICY=AD-RB-1.3`, signatures name AD-RB v1.3: its OID, its own hash, its URI.
#[test]
fn the_policy_a_signature_names_is_the_one_the_deployment_sets() {
    let (pfx, _) = chain(false, 365, "segredo");
    let dir = tempfile::tempdir().unwrap();
    selo::signing::keys::generate(dir.path()).unwrap();
    selo::signing::imported::import(dir.path(), &pfx, "segredo").unwrap();
    let mut keys = selo::signing::keys::load(dir.path(), true).unwrap();
    keys.imported.as_mut().unwrap().policy = selo::signing::policy::resolve("AD-RB-1.3").unwrap();
    let out = tempfile::tempdir().unwrap();
    let pdf = std::fs::read(sample_pdfs(&keys, dir.path(), out.path())[0].clone()).unwrap();
    let cms = contents_hex(&pdf);
    assert!(cms.contains("0608604c0107010b0103"), "AD-RB v1.3's OID");
    assert!(cms.contains("23e4be4b9b362172e4ebb0e72b86a133ece5aad843d8651c6e38a0ba3f08fc60"));
    let uri = selo::signing::hex(b"http://politicas.icpbrasil.gov.br/PA_PAdES_AD_RB_v1_3.der");
    assert!(cms.contains(&uri));
    assert!(!cms.contains(AD_RB_OID_DER));
}

pub(crate) struct Profile {
    pub issuer: Name,
    pub subject: Name,
    pub ca: bool,
    /// A time-stamping authority's certificate: its only use is time-stamping (RFC 3161).
    pub time_stamping: bool,
    /// Where the issuer publishes its revocation list (the CRL distribution point).
    pub crl_url: Option<String>,
    /// Where the issuer's OCSP responder answers (Authority Information Access).
    pub ocsp_url: Option<String>,
}

impl BuilderProfile for Profile {
    fn get_issuer(&self, _subject: &Name) -> Name {
        self.issuer.clone()
    }

    fn get_subject(&self) -> Name {
        self.subject.clone()
    }

    fn build_extensions(
        &self,
        spk: spki::SubjectPublicKeyInfoRef<'_>,
        issuer_spk: spki::SubjectPublicKeyInfoRef<'_>,
        tbs: &TbsCertificate,
    ) -> x509_cert::builder::Result<Vec<Extension>> {
        let mut ext: Vec<Extension> = Vec::new();
        let ski = SubjectKeyIdentifier::try_from(spk)?;
        ext.push(ski.to_extension(tbs.subject(), &ext)?);
        ext.push(
            AuthorityKeyIdentifier {
                key_identifier: Some(SubjectKeyIdentifier::try_from(issuer_spk)?.0),
                ..Default::default()
            }
            .to_extension(tbs.subject(), &ext)?,
        );
        ext.push(
            BasicConstraints {
                ca: self.ca,
                path_len_constraint: None,
            }
            .to_extension(tbs.subject(), &ext)?,
        );
        let usage = if self.ca {
            KeyUsages::KeyCertSign | KeyUsages::CRLSign
        } else {
            KeyUsages::DigitalSignature | KeyUsages::NonRepudiation
        };
        ext.push(KeyUsage(usage).to_extension(tbs.subject(), &ext)?);
        if let Some(url) = &self.crl_url {
            use x509_cert::ext::pkix::crl::dp::DistributionPoint;
            use x509_cert::ext::pkix::name::{DistributionPointName, GeneralName};
            ext.push(
                x509_cert::ext::pkix::CrlDistributionPoints(vec![DistributionPoint {
                    distribution_point: Some(DistributionPointName::FullName(vec![
                        GeneralName::UniformResourceIdentifier(
                            der::asn1::Ia5String::new(url).unwrap(),
                        ),
                    ])),
                    reasons: None,
                    crl_issuer: None,
                }])
                .to_extension(tbs.subject(), &ext)?,
            );
        }
        if let Some(url) = &self.ocsp_url {
            use x509_cert::ext::pkix::name::GeneralName;
            use x509_cert::ext::pkix::{AccessDescription, AuthorityInfoAccessSyntax};
            ext.push(
                AuthorityInfoAccessSyntax(vec![AccessDescription {
                    access_method: selo::signing::ocsp::ID_AD_OCSP,
                    access_location: GeneralName::UniformResourceIdentifier(
                        der::asn1::Ia5String::new(url).unwrap(),
                    ),
                }])
                .to_extension(tbs.subject(), &ext)?,
            );
        }
        if self.time_stamping {
            ext.push(
                x509_cert::ext::pkix::ExtendedKeyUsage(vec![
                    const_oid::db::rfc5280::ID_KP_TIME_STAMPING,
                ])
                .to_extension(tbs.subject(), &ext)?,
            );
        } else if !self.ca {
            // An A1-like certificate policy under ICP-Brasil's arc (DOC-ICP-04).
            let policies = CertificatePolicies(vec![PolicyInformation {
                policy_identifier: const_oid::ObjectIdentifier::new_unwrap("2.16.76.1.2.1.99"),
                policy_qualifiers: None,
            }]);
            ext.push(policies.to_extension(tbs.subject(), &ext)?);
        }
        Ok(ext)
    }
}

pub(crate) fn name(s: &str) -> Name {
    Name::from_str(s).unwrap()
}

/// A key of the chain: RSA 2048 or P-256.
pub(crate) enum Key {
    Rsa(Box<rsa::PrivateKey>),
    Ec(p256::ecdsa::SigningKey),
}

impl Key {
    pub(crate) fn new(rsa: bool) -> Self {
        let mut rng = getrandom::rand_core::UnwrapErr(getrandom::SysRng);
        if rsa {
            Self::Rsa(Box::new(rsa::PrivateKey::new(&mut rng, 2048).unwrap()))
        } else {
            Self::Ec(
                <p256::ecdsa::SigningKey as p256::elliptic_curve::Generate>::generate_from_rng(
                    &mut rng,
                ),
            )
        }
    }

    fn spki(&self) -> SubjectPublicKeyInfoOwned {
        match self {
            Self::Rsa(k) => SubjectPublicKeyInfoOwned::from_key(&k.to_public_key()).unwrap(),
            Self::Ec(k) => SubjectPublicKeyInfoOwned::from_key(k.verifying_key()).unwrap(),
        }
    }

    pub(crate) fn pkcs8(&self) -> Vec<u8> {
        use pkcs8::EncodePrivateKey as _;
        match self {
            Self::Rsa(k) => k.to_pkcs8_der().unwrap().as_bytes().to_vec(),
            Self::Ec(k) => k.to_pkcs8_der().unwrap().as_bytes().to_vec(),
        }
    }

    /// Issues a certificate for `subject_key` signed by this key.
    pub(crate) fn issue(
        &self,
        profile: Profile,
        subject_key: &Key,
        serial: u32,
        days: u64,
    ) -> Certificate {
        let validity = Validity::from_now(Duration::from_secs(days * 86_400)).unwrap();
        let builder = CertificateBuilder::new(
            profile,
            SerialNumber::from(serial),
            validity,
            subject_key.spki(),
        )
        .unwrap();
        match self {
            Self::Rsa(k) => {
                let signer = rsa::pkcs1v15::SigningKey::<sha2::Sha256>::new((**k).clone());
                builder
                    .build::<_, rsa::pkcs1v15::Signature>(&signer)
                    .unwrap()
            }
            Self::Ec(k) => builder.build::<_, p256::ecdsa::DerSignature>(k).unwrap(),
        }
    }
}

/// Root → intermediate → leaf, all RSA or all P-256; returns the leaf's key and the chain
/// (leaf first) as a PKCS#12 file under `password`, and the root.
pub(crate) fn chain(rsa: bool, leaf_days: u64, password: &str) -> (Vec<u8>, Certificate) {
    let (root_key, int_key, leaf_key) = (Key::new(rsa), Key::new(rsa), Key::new(rsa));
    let root_name = name("CN=Raiz de TESTE,O=ICP-Brasil TESTE,C=BR");
    let int_name = name("CN=AC Intermediaria de TESTE,O=ICP-Brasil TESTE,C=BR");
    let root = root_key.issue(
        Profile {
            issuer: root_name.clone(),
            subject: root_name.clone(),
            ca: true,
            time_stamping: false,
            crl_url: None,
            ocsp_url: None,
        },
        &root_key,
        1,
        3650,
    );
    let int = root_key.issue(
        Profile {
            issuer: root_name,
            subject: int_name.clone(),
            ca: true,
            time_stamping: false,
            crl_url: None,
            ocsp_url: None,
        },
        &int_key,
        2,
        3650,
    );
    let leaf = int_key.issue(
        Profile {
            issuer: int_name,
            subject: name(
                "CN=PREFEITURA MUNICIPAL DE TESTE:11222333000181,O=ICP-Brasil TESTE,C=BR",
            ),
            ca: false,
            time_stamping: false,
            crl_url: None,
            ocsp_url: None,
        },
        &leaf_key,
        3,
        leaf_days,
    );
    let pfx = selo::signing::pkcs12::build(&leaf_key.pkcs8(), &[leaf, int, root.clone()], password)
        .unwrap();
    (pfx, root)
}

/// The hex of the signature dictionary's `/Contents <…>` (the last one that opens a string).
pub(crate) fn contents_hex(pdf: &[u8]) -> String {
    let s = String::from_utf8_lossy(pdf);
    let hex = s
        .match_indices("/Contents")
        .filter_map(|(at, key)| {
            let rest = s[at + key.len()..].trim_start();
            (rest.starts_with('<') && !rest.starts_with("<<"))
                .then(|| rest[1..rest.find('>').unwrap()].to_owned())
        })
        .last()
        .unwrap();
    hex.to_ascii_lowercase()
}

/// RSA and P-256: every document kind is signed by the imported certificate, with its whole
/// chain and the AD-RB policy; selo verifies it, refuses it from a certificate it never
/// imported, and detects one changed byte.
#[test]
fn an_imported_rsa_or_p256_certificate_signs_every_kind() {
    for rsa in [true, false] {
        let (pfx, root) = chain(rsa, 365, "segredo");
        let dir = tempfile::tempdir().unwrap();
        selo::signing::keys::generate(dir.path()).unwrap();
        let signer = selo::signing::imported::import(dir.path(), &pfx, "segredo").unwrap();
        assert!(signer.icp_brasil);
        assert_eq!(signer.chain.len(), 3);
        assert_eq!(signer.chain[2], root);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join("pdf-signer.key"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let keys = selo::signing::keys::load(dir.path(), true).unwrap();
        assert!(keys.imported.is_some());
        let out = tempfile::tempdir().unwrap();
        let pdfs = sample_pdfs(&keys, dir.path(), out.path());
        assert_eq!(pdfs.len(), 8);
        for path in pdfs {
            let pdf = std::fs::read(&path).unwrap();
            let ok = verify_pdf_with(
                &pdf,
                &keys.chain.root,
                &keys.public,
                &keys.imported_certificates,
            )
            .unwrap();
            assert!(ok.kid.starts_with("x509:"), "{}", ok.kid);
            let cms = contents_hex(&pdf);
            assert!(cms.contains(AD_RB_OID_DER), "{path:?}: no AD-RB policy");
            // The policy's own signPolicyHash, not the SHA-256 of its file.
            assert!(
                cms.contains(AD_RB_V1_1_HASH),
                "{path:?}: not the policy's hash"
            );
            assert!(
                !cms.contains("95752d26ca974d46"),
                "{path:?}: the file's hash"
            );
            // The whole chain travels in the CMS.
            let root_der = selo::signing::hex(&root.to_der().unwrap());
            assert!(
                cms.contains(&root_der),
                "{path:?}: root missing from the CMS"
            );
            assert_eq!(
                verify_pdf(&pdf, &keys.chain.root, &keys.public),
                Err(PdfVerifyError::Untrusted),
                "a certificate selo never imported is not trusted"
            );
            let mut altered = pdf.clone();
            altered[pdf.len() / 3] ^= 0x01;
            assert_eq!(
                verify_pdf_with(
                    &altered,
                    &keys.chain.root,
                    &keys.public,
                    &keys.imported_certificates
                ),
                Err(PdfVerifyError::Altered)
            );
        }
    }
}

/// What cannot be imported is refused with the reason, and nothing is written.
#[test]
fn a_wrong_password_a_short_key_or_an_expired_certificate_is_refused() {
    let (pfx, _) = chain(false, 365, "segredo");
    let dir = tempfile::tempdir().unwrap();
    let err = selo::signing::imported::import(dir.path(), &pfx, "errada")
        .unwrap_err()
        .to_string();
    assert!(err.contains("wrong password"), "{err}");
    let err = selo::signing::imported::import(dir.path(), b"not a pfx", "segredo")
        .unwrap_err()
        .to_string();
    assert!(err.contains("not a PKCS#12 file"), "{err}");
    assert!(!dir.path().join("pdf-signer.key").exists());
    // A 1024-bit RSA key.
    let mut rng = getrandom::rand_core::UnwrapErr(getrandom::SysRng);
    let short = Key::Rsa(Box::new(rsa::PrivateKey::new(&mut rng, 1024).unwrap()));
    let n = name("CN=Curta,O=ICP-Brasil TESTE,C=BR");
    let cert = short.issue(
        Profile {
            issuer: n.clone(),
            subject: n,
            ca: false,
            time_stamping: false,
            crl_url: None,
            ocsp_url: None,
        },
        &short,
        9,
        30,
    );
    let pfx = selo::signing::pkcs12::build(&short.pkcs8(), &[cert], "segredo").unwrap();
    let err = selo::signing::imported::import(dir.path(), &pfx, "segredo")
        .unwrap_err()
        .to_string();
    assert!(err.contains("1024 bits is too short"), "{err}");
    // A certificate valid for no time at all has expired by the time it is imported.
    let (pfx, _) = chain(false, 0, "segredo");
    std::thread::sleep(Duration::from_millis(1100));
    let err = selo::signing::imported::import(dir.path(), &pfx, "segredo")
        .unwrap_err()
        .to_string();
    assert!(err.contains("expired"), "{err}");
    assert!(!dir.path().join("pdf-signer.key").exists());
}

/// The service signs with the imported certificate: an issued PDF uploaded to the public
/// verification verifies as valid; QR tokens stay Ed25519 (the JWK Set is unchanged).
#[tokio::test]
async fn the_service_signs_with_the_imported_certificate_and_verifies_its_pdfs() {
    let keys_dir = tempfile::tempdir().unwrap();
    selo::signing::keys::generate(keys_dir.path()).unwrap();
    let (pfx, _) = chain(true, 365, "segredo");
    selo::signing::imported::import(keys_dir.path(), &pfx, "segredo").unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let (database_url, backend) = crate::helpers::another_database(data_dir.path()).await;
    let app = spawn_app_on(database_url, backend, keys_dir, data_dir).await;
    let grant = app.granted().await;
    let pdf = app.document_bytes(&grant, "app_authorization").await;
    assert!(contents_hex(&pdf).contains(AD_RB_OID_DER));
    assert!(pdf_text(&pdf).contains("AUTORIZAÇÃO"));
    let (status, body) = crate::pdf_signatures::upload_raw(&app, pdf).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["verdict"], "valid", "{body}");
    assert_eq!(body["signature"]["trusted"], true);
    let jwks: Value = app.jwks().await;
    assert!(
        jwks["keys"]
            .as_array()
            .unwrap()
            .iter()
            .all(|k| k["crv"] == "Ed25519"),
        "{jwks}"
    );
    let token = crate::helpers::token_of(grant["verification_url"].as_str().unwrap());
    assert_eq!(app.verify(&token).await.1["verdict"], "valid");
}
