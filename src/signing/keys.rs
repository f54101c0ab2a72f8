//! The municipality's Ed25519 signing keys and the public key set.
//!
//! Layout of the keys directory (`SELO_KEYS_DIR`, default `keys/`):
//! - `ed25519-<kid>.key`: 64 hex characters, the 32-byte private seed; mode 0600.
//! - `ed25519-<kid>.pub`: 64 hex characters, a retired public key kept so that old
//!   documents keep verifying after rotation (optional).
//! - `active`: the kid that signs new documents (written by `selo keys generate`). Without
//!   it, the only private key is the active one.
//!
//! Private keys exist only in that directory: they are never logged, stored in the database
//! or returned by any endpoint.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use ed25519_dalek::{SigningKey, VerifyingKey};

pub use super::keyfile::*;

/// The loaded key material.
#[derive(Debug)]
pub struct Keys {
    pub active: ActiveKey,
    pub public: KeySet,
    /// Root CA and document-signing certificate of the active key (`PAdES`).
    pub chain: super::pki::Chain,
    /// The city's imported certificate: when present, it signs the PDFs.
    pub imported: Option<super::imported::ImportedSigner>,
    /// Every certificate that signed PDFs as an imported signer, the current one included.
    pub imported_certificates: Vec<x509_cert::certificate::Certificate>,
}

impl Keys {
    /// Who signs PDFs: the imported certificate, or the municipal Ed25519 chain.
    pub fn pdf_signer(&self) -> super::pades::PdfSigner<'_> {
        match &self.imported {
            Some(i) => super::pades::PdfSigner::Imported(i),
            None => super::pades::PdfSigner::Ed25519 {
                key: &self.active,
                chain: &self.chain,
            },
        }
    }
}

/// Creates a new key in `dir` (mode 0600), makes it the active one and returns its kid.
/// Existing keys are kept, so documents they signed keep verifying.
pub fn generate(dir: &Path) -> Result<String, KeyError> {
    std::fs::create_dir_all(dir).map_err(io_err(dir))?;
    let seed = random_seed()?;
    let key = SigningKey::from_bytes(&seed);
    let kid = key_id(&key.verifying_key());
    write_secret(&dir.join(format!("ed25519-{kid}.key")), &seed)?;
    super::pki::ensure_chain(dir, &key)?;
    let active = dir.join("active");
    std::fs::write(&active, format!("{kid}\n")).map_err(io_err(&active))?;
    Ok(kid)
}

fn read_retired(dir: &Path) -> Result<BTreeMap<String, Retirement>, KeyError> {
    let path = dir.join(RETIRED_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(e) => return Err(KeyError::Io { path, source: e }),
    };
    Ok(text
        .lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, '\t');
            let kid = parts.next()?.trim();
            (!kid.is_empty()).then(|| {
                (
                    kid.to_owned(),
                    Retirement {
                        on: parts.next().unwrap_or_default().trim().to_owned(),
                        reason: parts.next().unwrap_or_default().trim().to_owned(),
                    },
                )
            })
        })
        .collect())
}

/// Retires key `kid` of `dir` on `on` (a date) for `reason`: documents it signed verify as
/// no longer trusted, with the reason, and it leaves the JWK Set. The active key cannot be
/// retired: rotate first (`selo keys rotate`).
pub fn retire(dir: &Path, kid: &str, on: &str, reason: &str) -> Result<(), KeyError> {
    let active = std::fs::read_to_string(dir.join("active")).unwrap_or_default();
    if active.trim() == kid {
        return Err(KeyError::RetireActive {
            kid: kid.to_owned(),
        });
    }
    if !dir.join(format!("ed25519-{kid}.key")).exists()
        && !dir.join(format!("ed25519-{kid}.pub")).exists()
    {
        return Err(KeyError::UnknownKid {
            kid: kid.to_owned(),
            dir: dir.to_path_buf(),
        });
    }
    let path = dir.join(RETIRED_FILE);
    let clean = |t: &str| t.replace(['\t', '\n', '\r'], " ");
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(io_err(&path))?;
    file.write_all(format!("{kid}\t{}\t{}\n", clean(on), clean(reason)).as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(io_err(&path))
}

/// Loads every key in `dir`. With `strict` (production), a key file readable by group or
/// others is refused.
#[expect(
    clippy::too_many_lines,
    reason = "one pass over the folder, then the active key and chains"
)]
pub fn load(dir: &Path, strict: bool) -> Result<Keys, KeyError> {
    let mut private: BTreeMap<String, SigningKey> = BTreeMap::new();
    let mut public = KeySet::default();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(KeyError::Missing {
                dir: dir.to_path_buf(),
            });
        }
        Err(e) => {
            return Err(KeyError::Io {
                path: dir.to_path_buf(),
                source: e,
            });
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or_default();
        let is_private = extension == "key";
        // Every private key of the folder, signing keys and the root CA's alike.
        if is_private && strict {
            let mode = mode_of(&path)?;
            if mode & 0o077 != 0 {
                return Err(KeyError::Permissions { path, mode });
            }
        }
        if !name.starts_with("ed25519-") {
            continue;
        }
        if !is_private && extension != "pub" {
            continue;
        }
        let text = std::fs::read_to_string(&path).map_err(io_err(&path))?;
        let bytes = parse_hex32(&text, &path)?;
        if is_private {
            let key = SigningKey::from_bytes(&bytes);
            public.insert(key.verifying_key());
            private.insert(key_id(&key.verifying_key()), key);
        } else {
            let key = VerifyingKey::from_bytes(&bytes)
                .map_err(|_| KeyError::Format { path: path.clone() })?;
            public.insert(key);
        }
    }
    let retired = read_retired(dir)?;
    for kid in retired.keys() {
        public.keys.remove(kid);
        private.remove(kid);
    }
    public.retired = retired;
    let active_file = dir.join("active");
    let active_kid = match std::fs::read_to_string(&active_file) {
        Ok(s) => Some(s.trim().to_owned()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(KeyError::Io {
                path: active_file,
                source: e,
            });
        }
    };
    #[expect(
        clippy::single_match_else,
        reason = "the two arms read as the two cases of the folder"
    )]
    let (kid, key) = match active_kid {
        Some(kid) => {
            let key = private
                .remove(&kid)
                .ok_or_else(|| KeyError::ActiveMissing {
                    kid: kid.clone(),
                    dir: dir.to_path_buf(),
                })?;
            (kid, key)
        }
        None => {
            if private.len() > 1 {
                return Err(KeyError::Ambiguous {
                    dir: dir.to_path_buf(),
                });
            }
            private.pop_first().ok_or_else(|| KeyError::Missing {
                dir: dir.to_path_buf(),
            })?
        }
    };
    // Production never creates certificates on its own: `selo keys generate` does.
    let chain = if strict {
        super::pki::load_chain(dir, &kid)?
    } else {
        super::pki::ensure_chain(dir, &key)?
    };
    Ok(Keys {
        active: ActiveKey { kid, key },
        public,
        chain,
        imported: super::imported::load(dir)?,
        imported_certificates: super::imported::signing_certificates(dir)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generate_then_load_round_trips_and_rotation_keeps_old_keys() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            load(dir.path(), true),
            Err(KeyError::Missing { .. })
        ));
        let first = generate(dir.path()).unwrap();
        let keys = load(dir.path(), true).unwrap();
        assert_eq!(keys.active.kid(), first);
        assert_eq!(
            mode_of(&dir.path().join(format!("ed25519-{first}.key"))).unwrap(),
            0o600
        );
        let second = generate(dir.path()).unwrap();
        let keys = load(dir.path(), true).unwrap();
        assert_eq!(keys.active.kid(), second);
        assert!(keys.public.get(&first).is_some());
        let jwks = keys.public.to_jwks().to_string();
        assert!(
            !jwks.contains("\"d\""),
            "JWKS must hold no private part: {jwks}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn strict_load_refuses_group_readable_key() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let kid = generate(dir.path()).unwrap();
        let path = dir.path().join(format!("ed25519-{kid}.key"));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        assert!(matches!(
            load(dir.path(), true),
            Err(KeyError::Permissions { .. })
        ));
        assert!(load(dir.path(), false).is_ok());
    }

    /// Production refused a readable signing key but started with `root-ca.key`
    /// readable by others.
    #[cfg(unix)]
    #[test]
    fn strict_load_refuses_a_readable_root_ca_key() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        generate(dir.path()).unwrap();
        let root = dir.path().join(super::super::pki::ROOT_KEY_FILE);
        assert!(root.exists());
        assert!(load(dir.path(), true).is_ok());
        std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o644)).unwrap();
        match load(dir.path(), true) {
            Err(KeyError::Permissions { path, .. }) => assert_eq!(path, root),
            other => panic!(
                "expected the root CA key refused, got {:?}",
                other.map(|_| ())
            ),
        }
        assert!(load(dir.path(), false).is_ok());
    }

    #[test]
    fn a_retired_key_leaves_the_key_set_with_its_reason_and_the_active_one_cannot_go() {
        let dir = tempfile::tempdir().unwrap();
        let old = generate(dir.path()).unwrap();
        let new = generate(dir.path()).unwrap();
        assert!(matches!(
            retire(dir.path(), &new, "2026-11-30", "x"),
            Err(KeyError::RetireActive { .. })
        ));
        assert!(matches!(
            retire(dir.path(), "nokey", "2026-11-30", "x"),
            Err(KeyError::UnknownKid { .. })
        ));
        retire(dir.path(), &old, "2026-11-30", "vazou\tno log").unwrap();
        let keys = load(dir.path(), true).unwrap();
        assert!(keys.public.get(&old).is_none());
        assert!(keys.public.get(&new).is_some());
        let r = keys.public.retirement(&old).unwrap();
        assert_eq!(
            (r.on.as_str(), r.reason.as_str()),
            ("2026-11-30", "vazou no log")
        );
        assert!(!keys.public.to_jwks().to_string().contains(&old));
    }
}
