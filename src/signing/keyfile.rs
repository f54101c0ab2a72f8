//! The key material itself: the signing key and the public key set, key ids, and the files
//! they live in (a 32-byte seed as hex, mode 0600, written atomically). `keys` assembles
//! what the service signs with from these pieces.

use std::collections::BTreeMap;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use sha2::{Digest, Sha256};

use super::hex;

#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error(
        "no signing key in {dir}; run `selo keys generate` (or start with SELO_ENV other than production to create a development key)"
    )]
    Missing { dir: PathBuf },
    #[error(
        "key file {path} is readable by group or others (mode {mode:o}); run `chmod 600 {path}`"
    )]
    Permissions { path: PathBuf, mode: u32 },
    #[error("key file {path} is not 64 hexadecimal characters")]
    Format { path: PathBuf },
    #[error("the active key {kid} named in {dir}/active has no private key file")]
    ActiveMissing { kid: String, dir: PathBuf },
    #[error("more than one private key in {dir} and no `active` file says which one signs")]
    Ambiguous { dir: PathBuf },
    #[error("could not read or write {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the system random number generator failed")]
    Random,
    #[error("certificate {path}: {reason}")]
    Certificate { path: PathBuf, reason: String },
    #[error("{kid} is the active key: run `selo keys rotate` first, then retire it")]
    RetireActive { kid: String },
    #[error("no key {kid} in {dir}")]
    UnknownKid { kid: String, dir: PathBuf },
    #[error("the PKCS#12 file cannot be imported: {reason}")]
    Import { reason: String },
}

pub(super) fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> KeyError + '_ {
    move |source| KeyError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Key id: the first 6 bytes of SHA-256 of the public key, base64url (8 characters).
pub fn key_id(public: &VerifyingKey) -> String {
    let digest = Sha256::digest(public.as_bytes());
    URL_SAFE_NO_PAD.encode(&digest[..6])
}

/// The key that signs new documents.
pub struct ActiveKey {
    pub(super) kid: String,
    pub(super) key: SigningKey,
}

impl ActiveKey {
    pub fn kid(&self) -> &str {
        &self.kid
    }

    pub fn sign(&self, message: &[u8]) -> Signature {
        self.key.sign(message)
    }

    pub fn verifying_key(&self) -> VerifyingKey {
        self.key.verifying_key()
    }

    /// Builds a key from a seed; for tests and fixtures.
    pub fn from_seed(seed: [u8; 32]) -> Self {
        let key = SigningKey::from_bytes(&seed);
        Self {
            kid: key_id(&key.verifying_key()),
            key,
        }
    }
}

impl fmt::Debug for ActiveKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never print the private key.
        f.debug_struct("ActiveKey")
            .field("kid", &self.kid)
            .finish_non_exhaustive()
    }
}

/// Every public key that verifies selo documents, by kid; retired keys are not among them.
#[derive(Debug, Clone, Default)]
pub struct KeySet {
    pub(super) keys: BTreeMap<String, VerifyingKey>,
    pub(super) retired: BTreeMap<String, Retirement>,
}

/// Why and since when a key no longer verifies documents (`selo keys retire`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Retirement {
    pub on: String,
    pub reason: String,
}

/// The file of the keys folder that lists retired keys: one per line, `kid<TAB>date<TAB>reason`.
pub const RETIRED_FILE: &str = "retired";

impl KeySet {
    pub fn get(&self, kid: &str) -> Option<&VerifyingKey> {
        self.keys.get(kid)
    }

    /// Why key `kid` was retired, if it was.
    pub fn retirement(&self, kid: &str) -> Option<&Retirement> {
        self.retired.get(kid)
    }

    pub fn insert(&mut self, key: VerifyingKey) {
        self.keys.insert(key_id(&key), key);
    }

    /// RFC 7517 JWK Set with RFC 8037 OKP keys: public parts only.
    pub fn to_jwks(&self) -> serde_json::Value {
        let keys: Vec<_> = self
            .keys
            .iter()
            .map(|(kid, k)| {
                serde_json::json!({
                    "kty": "OKP",
                    "crv": "Ed25519",
                    "alg": "EdDSA",
                    "use": "sig",
                    "kid": kid,
                    "x": URL_SAFE_NO_PAD.encode(k.as_bytes()),
                })
            })
            .collect();
        serde_json::json!({ "keys": keys })
    }
}

/// Fills a 32-byte seed from the OS (ed25519-dalek 3 wants an infallible RNG, so we fill the
/// seed ourselves from the OS).
pub(super) fn random_seed() -> Result<[u8; 32], KeyError> {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(|_| KeyError::Random)?;
    Ok(seed)
}

pub(super) fn parse_hex32(text: &str, path: &Path) -> Result<[u8; 32], KeyError> {
    let t = text.trim();
    if t.len() != 64 {
        return Err(KeyError::Format {
            path: path.to_path_buf(),
        });
    }
    let mut out = [0u8; 32];
    for (i, chunk) in t.as_bytes().chunks(2).enumerate() {
        let s = std::str::from_utf8(chunk).map_err(|_| KeyError::Format {
            path: path.to_path_buf(),
        })?;
        out[i] = u8::from_str_radix(s, 16).map_err(|_| KeyError::Format {
            path: path.to_path_buf(),
        })?;
    }
    Ok(out)
}

#[cfg(unix)]
pub(super) fn mode_of(path: &Path) -> Result<u32, KeyError> {
    use std::os::unix::fs::PermissionsExt;
    Ok(std::fs::metadata(path)
        .map_err(io_err(path))?
        .permissions()
        .mode()
        & 0o777)
}

#[cfg(not(unix))]
pub(super) fn mode_of(_path: &Path) -> Result<u32, KeyError> {
    Ok(0o600)
}

/// Writes a 32-byte secret as hex to a new file of mode 0600.
pub(super) fn write_secret(path: &Path, seed: &[u8; 32]) -> Result<(), KeyError> {
    write_private(path, format!("{}\n", hex(seed)).as_bytes())
}

/// Writes `contents` to a new file of mode 0600, synced to disk.
pub(super) fn write_private(path: &Path, contents: &[u8]) -> Result<(), KeyError> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path).map_err(io_err(path))?;
    file.write_all(contents)
        .and_then(|()| file.sync_all())
        .map_err(io_err(path))
}

/// Reads a 32-byte secret written by [`write_secret`].
pub(super) fn read_seed(path: &Path) -> Result<[u8; 32], KeyError> {
    let text = std::fs::read_to_string(path).map_err(io_err(path))?;
    parse_hex32(&text, path)
}
