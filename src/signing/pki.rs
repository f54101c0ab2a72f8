//! The municipal X.509 chain behind the PDF signatures: a self-signed Ed25519 root CA and,
//! for each signing key, a document-signing certificate issued by it. Both live in the keys
//! directory next to the keys:
//! - `root-ca.key`: the root's Ed25519 seed (64 hex characters, mode 0600);
//! - `root-ca.pem`: the root certificate, the trust anchor to give PDF validators;
//! - `doc-signing-<kid>.pem`: the certificate of signing key `<kid>`.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, SystemTime};

use der::pem::LineEnding;
use der::{DecodePem, EncodePem};
use ed25519_dalek::SigningKey;
use ed25519_dalek::pkcs8::EncodePublicKey;
use spki::{SubjectPublicKeyInfoOwned, SubjectPublicKeyInfoRef};
use x509_cert::builder::profile::BuilderProfile;
use x509_cert::builder::profile::cabf::Root;
use x509_cert::builder::{Builder, CertificateBuilder};
use x509_cert::certificate::{Certificate, TbsCertificate};
use x509_cert::ext::pkix::{
    AuthorityKeyIdentifier, BasicConstraints, KeyUsage, KeyUsages, SubjectKeyIdentifier,
};
use x509_cert::ext::{Extension, ToExtension};
use x509_cert::name::Name;
use x509_cert::serial_number::SerialNumber;
use x509_cert::time::{Time, Validity};

use super::keyfile::{KeyError, key_id, read_seed, write_secret};

pub const ROOT_KEY_FILE: &str = "root-ca.key";
pub const ROOT_CERT_FILE: &str = "root-ca.pem";

// RFC 4514 strings list the most specific RDN first: this encodes C, ST, L, O, CN.
const ROOT_SUBJECT: &str = "CN=Raiz de documentos da Prefeitura de Barra do Garças,O=Prefeitura Municipal de Barra do Garças,L=Barra do Garças,ST=MT,C=BR";
const ROOT_YEARS: u64 = 20;
const LEAF_YEARS: u64 = 5;
const YEAR: Duration = Duration::from_hours(365 * 24);

pub fn doc_cert_file(kid: &str) -> String {
    format!("doc-signing-{kid}.pem")
}

/// The chain that signs PDFs with the active key.
#[derive(Debug, Clone)]
pub struct Chain {
    pub root: Certificate,
    pub signing: Certificate,
}

fn pki_err(path: &Path, what: impl std::fmt::Display) -> KeyError {
    KeyError::Certificate {
        path: path.to_path_buf(),
        reason: what.to_string(),
    }
}

fn serial() -> Result<SerialNumber, KeyError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|_| KeyError::Random)?;
    bytes[0] &= 0x7f; // positive
    bytes[0] |= 0x01; // no leading zero octet
    SerialNumber::new(&bytes).map_err(|e| pki_err(Path::new("serial"), e))
}

fn validity(years: u64) -> Result<Validity, KeyError> {
    let now = SystemTime::now();
    let err = |e: der::Error| pki_err(Path::new("validity"), e);
    Ok(Validity::new(
        Time::try_from(now - Duration::from_hours(1)).map_err(err)?,
        Time::try_from(now + YEAR * u32::try_from(years).unwrap_or(1)).map_err(err)?,
    ))
}

fn spki_of(key: &SigningKey, path: &Path) -> Result<SubjectPublicKeyInfoOwned, KeyError> {
    let der = key
        .verifying_key()
        .to_public_key_der()
        .map_err(|e| pki_err(path, e))?;
    SubjectPublicKeyInfoOwned::try_from(der.as_bytes()).map_err(|e| pki_err(path, e))
}

/// Signs a certificate builder with an Ed25519 key (ed25519-dalek's signature has no
/// bit-string encoding trait, so finalize and assemble are called directly).
fn sign_with<P: BuilderProfile>(
    mut builder: CertificateBuilder<P>,
    key: &SigningKey,
    path: &Path,
) -> Result<Certificate, KeyError> {
    use ed25519_dalek::Signer;
    let tbs = builder.finalize(key).map_err(|e| pki_err(path, e))?;
    let signature = key.sign(&tbs);
    let bits =
        der::asn1::BitString::from_bytes(&signature.to_bytes()).map_err(|e| pki_err(path, e))?;
    builder.assemble(bits, key).map_err(|e| pki_err(path, e))
}

/// Profile of a document-signing certificate: end entity, digitalSignature +
/// nonRepudiation (contentCommitment), key identifiers for path building.
struct DocumentSigning {
    issuer: Name,
    subject: Name,
}

impl BuilderProfile for DocumentSigning {
    fn get_issuer(&self, _subject: &Name) -> Name {
        self.issuer.clone()
    }

    fn get_subject(&self) -> Name {
        self.subject.clone()
    }

    fn build_extensions(
        &self,
        spk: SubjectPublicKeyInfoRef<'_>,
        issuer_spk: SubjectPublicKeyInfoRef<'_>,
        tbs: &TbsCertificate,
    ) -> x509_cert::builder::Result<Vec<Extension>> {
        let mut ext: Vec<Extension> = Vec::new();
        let aki = SubjectKeyIdentifier::try_from(issuer_spk)?;
        ext.push(
            AuthorityKeyIdentifier {
                key_identifier: Some(aki.0),
                ..Default::default()
            }
            .to_extension(tbs.subject(), &ext)?,
        );
        ext.push(SubjectKeyIdentifier::try_from(spk)?.to_extension(tbs.subject(), &ext)?);
        ext.push(
            BasicConstraints {
                ca: false,
                path_len_constraint: None,
            }
            .to_extension(tbs.subject(), &ext)?,
        );
        ext.push(
            KeyUsage(KeyUsages::DigitalSignature | KeyUsages::NonRepudiation)
                .to_extension(tbs.subject(), &ext)?,
        );
        Ok(ext)
    }
}

fn write_pem(path: &Path, cert: &Certificate) -> Result<(), KeyError> {
    let pem = cert.to_pem(LineEnding::LF).map_err(|e| pki_err(path, e))?;
    std::fs::write(path, pem).map_err(|source| KeyError::Io {
        path: path.to_path_buf(),
        source,
    })
}

fn read_pem(path: &Path) -> Result<Certificate, KeyError> {
    let text = std::fs::read_to_string(path).map_err(|source| KeyError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Certificate::from_pem(text.as_bytes()).map_err(|e| pki_err(path, e))
}

/// Makes sure the root CA exists and that signing key `key` has a certificate; creates what
/// is missing. Returns the chain.
pub fn ensure_chain(dir: &Path, key: &SigningKey) -> Result<Chain, KeyError> {
    let root_key_path = dir.join(ROOT_KEY_FILE);
    let root_cert_path = dir.join(ROOT_CERT_FILE);
    let root_key = if root_key_path.exists() {
        SigningKey::from_bytes(&read_seed(&root_key_path)?)
    } else {
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed).map_err(|_| KeyError::Random)?;
        write_secret(&root_key_path, &seed)?;
        let _ = std::fs::remove_file(&root_cert_path);
        SigningKey::from_bytes(&seed)
    };
    let root = if root_cert_path.exists() {
        read_pem(&root_cert_path)?
    } else {
        let subject = Name::from_str(ROOT_SUBJECT).map_err(|e| pki_err(&root_cert_path, e))?;
        let profile = Root::new(false, subject).map_err(|e| pki_err(&root_cert_path, e))?;
        let builder = CertificateBuilder::new(
            profile,
            serial()?,
            validity(ROOT_YEARS)?,
            spki_of(&root_key, &root_cert_path)?,
        )
        .map_err(|e| pki_err(&root_cert_path, e))?;
        let cert = sign_with(builder, &root_key, &root_cert_path)?;
        write_pem(&root_cert_path, &cert)?;
        cert
    };
    let kid = key_id(&key.verifying_key());
    let leaf_path: PathBuf = dir.join(doc_cert_file(&kid));
    let signing = if leaf_path.exists() {
        read_pem(&leaf_path)?
    } else {
        let subject = Name::from_str(&format!(
            "CN=Documentos oficiais da Prefeitura de Barra do Garças ({kid}),O=Prefeitura Municipal de Barra do Garças,L=Barra do Garças,ST=MT,C=BR"
        ))
        .map_err(|e| pki_err(&leaf_path, e))?;
        let profile = DocumentSigning {
            issuer: root.tbs_certificate().subject().clone(),
            subject,
        };
        let builder = CertificateBuilder::new(
            profile,
            serial()?,
            validity(LEAF_YEARS)?,
            spki_of(key, &leaf_path)?,
        )
        .map_err(|e| pki_err(&leaf_path, e))?;
        let cert = sign_with(builder, &root_key, &leaf_path)?;
        write_pem(&leaf_path, &cert)?;
        cert
    };
    Ok(Chain { root, signing })
}

/// Loads the chain of `kid` without creating anything.
pub fn load_chain(dir: &Path, kid: &str) -> Result<Chain, KeyError> {
    Ok(Chain {
        root: read_pem(&dir.join(ROOT_CERT_FILE))?,
        signing: read_pem(&dir.join(doc_cert_file(kid)))?,
    })
}
