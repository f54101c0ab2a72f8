//! The city's own certificate as the PDF signer: an A1 e-CNPJ or e-CPF issued
//! under ICP-Brasil (or any X.509 certificate the city holds), RSA ≥ 2048 bits with SHA-256 or
//! ECDSA P-256, imported from PKCS#12 by `selo keys import-pkcs12`. In Brazil a document
//! signed with an ICP-Brasil certificate is presumed authentic (MP 2.200-2/2001, art. 10, §1º).
//!
//! In the keys directory:
//! - `pdf-signer.key`: the private key, PKCS#8 PEM, mode 0600;
//! - `pdf-signer-chain.pem`: its certificate, then each issuer up to the root;
//! - `pdf-signer-chain-<fingerprint>.pem`: the chains of earlier imported signers, kept so
//!   the PDFs they signed keep verifying.
//!
//! Without an imported signer the municipal Ed25519 chain signs, as before. QR tokens stay
//! Ed25519 either way.

use std::path::{Path, PathBuf};

use const_oid::ObjectIdentifier;
use der::pem::LineEnding;
use der::{Decode, Encode, EncodePem};
use sha2::{Digest, Sha256};
use x509_cert::certificate::Certificate;

use super::keyfile::KeyError;

pub const KEY_FILE: &str = "pdf-signer.key";
pub const CHAIN_FILE: &str = "pdf-signer-chain.pem";

pub const RSA_ENCRYPTION: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");
pub const SHA256_WITH_RSA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.11");
pub const EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
pub const ECDSA_WITH_SHA256: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.4.3.2");
const P256_CURVE: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.3.1.7");
const CERTIFICATE_POLICIES: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.32");
/// ICP-Brasil's certificate policies (DOC-ICP-04): A1 is 2.16.76.1.2.1.*, A3 2.16.76.1.2.3.*.
const ICP_BRASIL_POLICIES: [u32; 5] = [2, 16, 76, 1, 2];

/// The signing key of an imported certificate.
pub enum SignerKey {
    Rsa(Box<rsa::PrivateKey>),
    P256(p256::ecdsa::SigningKey),
}

/// The imported signer: its key and its chain.
pub struct ImportedSigner {
    key: SignerKey,
    /// Its certificate first, then each issuer.
    pub chain: Vec<Certificate>,
    /// Issued under ICP-Brasil: the signature carries the AD-RB policy (DOC-ICP-15.03).
    pub icp_brasil: bool,
    /// The signature policy an ICP-Brasil signature names (`SELO_ICP_POLICY`; AD-RB v1.1).
    pub policy: super::policy::SignaturePolicy,
}

impl std::fmt::Debug for ImportedSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImportedSigner")
            .field("subject", &self.subject())
            .field("icp_brasil", &self.icp_brasil)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("the key is neither RSA nor ECDSA P-256")]
    KeyType,
    #[error("an RSA key of {0} bits is too short: at least 2048")]
    ShortKey(usize),
    #[error("the key could not be read: {0}")]
    Key(String),
    #[error("the certificate does not match the key")]
    Mismatch,
    #[error("the certificate expired on {0}")]
    Expired(String),
    #[error("the certificate's key usage does not allow signing documents")]
    KeyUsage,
}

fn key_err(e: impl std::fmt::Display) -> ImportError {
    ImportError::Key(e.to_string())
}

/// The `SubjectPublicKeyInfo` DER of a PKCS#8 private key (RSA or P-256).
pub fn public_key_of(pkcs8: &[u8]) -> Result<Vec<u8>, ImportError> {
    SignerKey::from_pkcs8(pkcs8)?.public_key_der()
}

impl SignerKey {
    fn from_pkcs8(der: &[u8]) -> Result<Self, ImportError> {
        use pkcs8::DecodePrivateKey as _;
        let info = pkcs8::PrivateKeyInfoRef::try_from(der).map_err(key_err)?;
        let alg = info.algorithm;
        if alg.oid == RSA_ENCRYPTION {
            use rsa::traits::PublicKeyParts as _;
            let key = rsa::PrivateKey::from_pkcs8_der(der).map_err(key_err)?;
            let bits = key.size() * 8;
            if bits < 2048 {
                return Err(ImportError::ShortKey(bits));
            }
            Ok(Self::Rsa(Box::new(key)))
        } else if alg.oid == EC_PUBLIC_KEY
            && alg.parameters_oid().is_ok_and(|curve| curve == P256_CURVE)
        {
            Ok(Self::P256(
                p256::ecdsa::SigningKey::from_pkcs8_der(der).map_err(key_err)?,
            ))
        } else {
            Err(ImportError::KeyType)
        }
    }

    fn public_key_der(&self) -> Result<Vec<u8>, ImportError> {
        use spki::EncodePublicKey as _;
        let doc = match self {
            Self::Rsa(k) => k.to_public_key().to_public_key_der(),
            Self::P256(k) => k.verifying_key().to_public_key_der(),
        };
        Ok(doc.map_err(key_err)?.as_bytes().to_vec())
    }

    fn to_pkcs8_pem(&self) -> Result<String, ImportError> {
        use pkcs8::EncodePrivateKey as _;
        let doc = match self {
            Self::Rsa(k) => k.to_pkcs8_pem(LineEnding::LF),
            Self::P256(k) => k.to_pkcs8_pem(LineEnding::LF),
        };
        Ok(doc.map_err(key_err)?.to_string())
    }
}

/// Whether `cert` was issued under an ICP-Brasil certificate policy.
fn is_icp_brasil(cert: &Certificate) -> bool {
    use x509_cert::ext::pkix::CertificatePolicies;
    cert.tbs_certificate()
        .extensions()
        .into_iter()
        .flatten()
        .filter(|e| e.extn_id == CERTIFICATE_POLICIES)
        .filter_map(|e| CertificatePolicies::from_der(e.extn_value.as_bytes()).ok())
        .flat_map(|p| p.0)
        .any(|p| {
            let arcs: Vec<u32> = p.policy_identifier.arcs().collect();
            arcs.starts_with(&ICP_BRASIL_POLICIES)
        })
}

impl ImportedSigner {
    /// The signer of key `pkcs8` and `chain` (its certificate first), checked: RSA ≥ 2048
    /// or P-256, the certificate's key is this key, it is in force and may sign.
    pub fn new(pkcs8: &[u8], chain: Vec<Certificate>) -> Result<Self, ImportError> {
        use x509_cert::ext::pkix::{KeyUsage, KeyUsages};
        let key = SignerKey::from_pkcs8(pkcs8)?;
        let leaf = chain.first().ok_or(ImportError::Mismatch)?;
        let tbs = leaf.tbs_certificate();
        if tbs.subject_public_key_info().to_der().map_err(key_err)? != key.public_key_der()? {
            return Err(ImportError::Mismatch);
        }
        let not_after = tbs.validity().not_after.to_system_time();
        if not_after < std::time::SystemTime::now() {
            return Err(ImportError::Expired(tbs.validity().not_after.to_string()));
        }
        let usage = tbs
            .extensions()
            .into_iter()
            .flatten()
            .find(|e| e.extn_id == const_oid::db::rfc5280::ID_CE_KEY_USAGE)
            .and_then(|e| KeyUsage::from_der(e.extn_value.as_bytes()).ok());
        if usage.is_some_and(|u| {
            !u.0.contains(KeyUsages::DigitalSignature) && !u.0.contains(KeyUsages::NonRepudiation)
        }) {
            return Err(ImportError::KeyUsage);
        }
        let icp_brasil = is_icp_brasil(leaf);
        Ok(Self {
            key,
            chain,
            icp_brasil,
            policy: super::policy::default_policy(),
        })
    }

    pub fn leaf(&self) -> &Certificate {
        &self.chain[0]
    }

    pub fn subject(&self) -> String {
        self.leaf().tbs_certificate().subject().to_string()
    }

    /// `sha256WithRSAEncryption` or `ecdsa-with-SHA256`.
    pub fn signature_algorithm(&self) -> ObjectIdentifier {
        match self.key {
            SignerKey::Rsa(_) => SHA256_WITH_RSA,
            SignerKey::P256(_) => ECDSA_WITH_SHA256,
        }
    }

    /// Signs `message` with SHA-256: PKCS#1 v1.5 (blinded) or ECDSA (DER, RFC 6979).
    pub fn sign(&self, message: &[u8]) -> Result<Vec<u8>, ImportError> {
        let digest = Sha256::digest(message);
        match &self.key {
            SignerKey::Rsa(k) => {
                let mut rng = getrandom::rand_core::UnwrapErr(getrandom::SysRng);
                k.sign_with_rng(&mut rng, rsa::Pkcs1v15Sign::new::<Sha256>(), &digest)
                    .map_err(key_err)
            }
            SignerKey::P256(k) => {
                use p256::ecdsa::signature::hazmat::PrehashSigner as _;
                let s: p256::ecdsa::Signature = k.sign_prehash(&digest).map_err(key_err)?;
                Ok(s.to_der().as_bytes().to_vec())
            }
        }
    }
}

/// Verifies an RSA PKCS#1 v1.5 or ECDSA P-256 signature with SHA-256 by the key of `cert`.
pub fn verify_sha256(cert: &Certificate, message: &[u8], signature: &[u8]) -> bool {
    use spki::DecodePublicKey as _;
    let Ok(spki) = cert.tbs_certificate().subject_public_key_info().to_der() else {
        return false;
    };
    let digest = Sha256::digest(message);
    if let Ok(k) = rsa::PublicKey::from_public_key_der(&spki) {
        return k
            .verify(rsa::Pkcs1v15Sign::new::<Sha256>(), &digest, signature)
            .is_ok();
    }
    if let Ok(k) = p256::ecdsa::VerifyingKey::from_public_key_der(&spki) {
        use p256::ecdsa::signature::hazmat::PrehashVerifier as _;
        return p256::ecdsa::Signature::from_der(signature)
            .is_ok_and(|s| k.verify_prehash(&digest, &s).is_ok());
    }
    false
}

/// The first 16 hex digits of a certificate's SHA-256: how the register and the logs name an
/// imported signer.
pub fn fingerprint(cert: &Certificate) -> String {
    let der = cert.to_der().unwrap_or_default();
    super::hex(&Sha256::digest(der))[..16].to_owned()
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> KeyError + '_ {
    |source| KeyError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn cert_err(path: &Path, e: impl std::fmt::Display) -> KeyError {
    KeyError::Certificate {
        path: path.to_path_buf(),
        reason: e.to_string(),
    }
}

fn read_chain(path: &Path) -> Result<Vec<Certificate>, KeyError> {
    let text = std::fs::read(path).map_err(io(path))?;
    Certificate::load_pem_chain(&text).map_err(|e| cert_err(path, e))
}

fn write_chain(path: &Path, chain: &[Certificate]) -> Result<(), KeyError> {
    let mut pem = String::new();
    for c in chain {
        pem.push_str(&c.to_pem(LineEnding::LF).map_err(|e| cert_err(path, e))?);
    }
    std::fs::write(path, pem).map_err(io(path))
}

/// Imports a PKCS#12 file into `dir` and makes it the PDF signer; the chain of the signer it
/// replaces is kept under its fingerprint, so the PDFs it signed keep verifying. Nothing is
/// written unless the file reads and the signer checks out.
pub fn import(dir: &Path, pfx: &[u8], password: &str) -> Result<ImportedSigner, KeyError> {
    let refused = |reason: String| KeyError::Import { reason };
    let contents = super::pkcs12::parse(pfx, password).map_err(|e| refused(e.to_string()))?;
    let spki = public_key_of(&contents.key_pkcs8).map_err(|e| refused(e.to_string()))?;
    let (key_pkcs8, chain) = contents
        .chain_of(&spki)
        .map_err(|e| refused(e.to_string()))?;
    let signer = ImportedSigner::new(&key_pkcs8, chain).map_err(|e| refused(e.to_string()))?;
    let pem = signer.key.to_pkcs8_pem().map_err(|e| KeyError::Import {
        reason: e.to_string(),
    })?;
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let chain_path = dir.join(CHAIN_FILE);
    if chain_path.exists() {
        let earlier = read_chain(&chain_path)?;
        if let Some(leaf) = earlier.first() {
            let kept = dir.join(format!("pdf-signer-chain-{}.pem", fingerprint(leaf)));
            std::fs::rename(&chain_path, &kept).map_err(io(&chain_path))?;
        }
    }
    let key_path = dir.join(KEY_FILE);
    let staged = dir.join(format!("{KEY_FILE}.new"));
    let _ = std::fs::remove_file(&staged);
    super::keyfile::write_private(&staged, pem.as_bytes())?;
    write_chain(&chain_path, &signer.chain)?;
    std::fs::rename(&staged, &key_path).map_err(io(&key_path))?;
    Ok(signer)
}

/// The imported signer of `dir`, if any.
pub fn load(dir: &Path) -> Result<Option<ImportedSigner>, KeyError> {
    let key_path = dir.join(KEY_FILE);
    if !key_path.exists() {
        return Ok(None);
    }
    let pem = std::fs::read_to_string(&key_path).map_err(io(&key_path))?;
    let Ok(("PRIVATE KEY", der)) = der::pem::decode_vec(pem.as_bytes()) else {
        return Err(cert_err(&key_path, "not a PKCS#8 PEM private key"));
    };
    let chain = read_chain(&dir.join(CHAIN_FILE))?;
    ImportedSigner::new(&der, chain)
        .map(Some)
        .map_err(|e| cert_err(&key_path, e))
}

/// Every certificate that has signed PDFs as the imported signer: the current one and those
/// it replaced.
pub fn signing_certificates(dir: &Path) -> Result<Vec<Certificate>, KeyError> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(out);
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let pem = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pem"));
        if name.starts_with("pdf-signer-chain") && pem {
            out.extend(read_chain(&path)?.into_iter().take(1));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_certificate_from_pem_roundtrips() {
        // The Ed25519 root is neither RSA nor P-256: not a PDF signer of this kind.
        let dir = tempfile::tempdir().unwrap();
        super::super::keys::generate(dir.path()).unwrap();
        let root = <Certificate as der::DecodePem>::from_pem(
            std::fs::read(dir.path().join(super::super::pki::ROOT_CERT_FILE)).unwrap(),
        )
        .unwrap();
        assert!(!is_icp_brasil(&root));
        assert_eq!(fingerprint(&root).len(), 16);
    }
}
