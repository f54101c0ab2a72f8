//! Backups of the register and their restore: `selo backup DEST` copies, while the service
//! writes, the SQLite database (one consistent snapshot, `VACUUM INTO`) or drives `pg_dump`,
//! with the keys folder (private keys at mode 0600, or encrypted with a passphrase), the
//! municipality profile file when one is set, and a manifest (versions, row counts, the
//! SHA-256 of every part, the audit chain's head). `selo restore SRC` puts it into an empty
//! database and an empty keys folder; `selo verify-restore SRC` then checks what was restored:
//! the audit chain, the counts and head against the manifest, every number series, and every
//! document's token and PDF signature.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use der::Encode as _;
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use crate::signing::keys::Keys;
use crate::storage::Store;
use crate::storage::backup::COUNTED;

/// The manifest's name in a backup folder.
pub const MANIFEST: &str = "manifest.json";
const SQLITE_FILE: &str = "selo.db";
const PG_FILE: &str = "selo.pgdump";
const KEYS_DIR: &str = "keys";
/// What an encrypted key file's name ends with.
const ENCRYPTED: &str = ".enc";
/// PBKDF2-SHA256 rounds for a passphrase (OWASP's 2023 advice for PBKDF2-HMAC-SHA256).
const PBKDF2_ROUNDS: u32 = 600_000;

/// What a backup holds, written last (a folder without it is not a backup).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Manifest {
    /// `selo` and its version.
    pub made_by: String,
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// `sqlite` or `postgres`.
    pub backend: String,
    /// The number of the last migration applied.
    pub schema_version: i64,
    /// Rows of each counted table at the copy.
    pub counts: std::collections::BTreeMap<String, i64>,
    /// The audit chain's last row at the copy: id and hash.
    pub audit_head: Option<(i64, String)>,
    /// Whether the private keys are encrypted with a passphrase.
    pub keys_encrypted: bool,
    /// Every file of the backup but the manifest, with its SHA-256.
    pub files: std::collections::BTreeMap<String, String>,
}

fn sha256_file(path: &Path) -> anyhow::Result<String> {
    let bytes = fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(crate::signing::hex(&Sha256::digest(&bytes)))
}

/// A private key file of the keys folder (`*.key`).
fn is_private_key(name: &str) -> bool {
    Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("key"))
}

/// Sets `path`'s mode (0600 for a file with secrets or personal data, 0700 for a folder).
#[cfg(unix)]
fn restrict(path: &Path, mode: u32) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    fs::set_permissions(path, fs::Permissions::from_mode(mode))
        .with_context(|| format!("chmod {mode:o} {}", path.display()))
}

#[cfg(not(unix))]
fn restrict(_path: &Path, _mode: u32) -> anyhow::Result<()> {
    Ok(())
}

fn private(path: &Path) -> anyhow::Result<()> {
    restrict(path, 0o600)
}

/// A folder that is absent or empty, created (parents too) when absent.
fn empty_folder(dir: &Path, what: &str) -> anyhow::Result<()> {
    if dir.exists() {
        let mut entries =
            fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))?;
        if entries.next().is_some() {
            bail!("{what} {} is not empty: nothing was written", dir.display());
        }
    }
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))
}

/// Encrypts `plain` with `passphrase`: PBES2 (PBKDF2-SHA256, AES-256-CBC), its parameters in
/// DER first, then the ciphertext. The manifest's SHA-256 of the plain file tells a wrong
/// passphrase from the right one.
fn encrypt(passphrase: &str, plain: &[u8]) -> anyhow::Result<Vec<u8>> {
    let mut salt = [0u8; 16];
    let mut iv = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| anyhow::anyhow!("random: {e}"))?;
    getrandom::fill(&mut iv).map_err(|e| anyhow::anyhow!("random: {e}"))?;
    let params =
        pkcs5::pbes2::Parameters::generate_pbkdf2_sha256_aes256cbc(PBKDF2_ROUNDS, &salt, iv)
            .map_err(|e| anyhow::anyhow!("PBES2: {e}"))?;
    let mut out = pkcs5::EncryptionScheme::from(params.clone())
        .to_der()
        .map_err(|e| anyhow::anyhow!("PBES2: {e}"))?;
    out.extend(
        params
            .encrypt(passphrase, plain)
            .map_err(|e| anyhow::anyhow!("encrypting: {e}"))?,
    );
    Ok(out)
}

fn decrypt(passphrase: &str, sealed: &[u8]) -> anyhow::Result<Vec<u8>> {
    let mut reader = der::SliceReader::new(sealed).map_err(|e| anyhow::anyhow!("{e}"))?;
    let scheme = <pkcs5::EncryptionScheme as der::Decode>::decode(&mut reader)
        .map_err(|e| anyhow::anyhow!("not an encrypted key file: {e}"))?;
    let header = scheme.to_der().map_err(|e| anyhow::anyhow!("{e}"))?.len();
    scheme
        .decrypt(passphrase, &sealed[header..])
        .map_err(|_| anyhow::anyhow!("wrong passphrase"))
}

/// Copies the keys folder into `dest`: public files as they are, private keys (`*.key`) at
/// mode 0600 or, with a passphrase, encrypted (`*.key.enc`). Answers each file's name in the
/// backup and the SHA-256 of its plain content.
fn copy_keys(
    src: &Path,
    dest: &Path,
    passphrase: Option<&str>,
) -> anyhow::Result<Vec<(String, String)>> {
    fs::create_dir_all(dest)?;
    let mut hashed = Vec::new();
    let mut names: Vec<PathBuf> = fs::read_dir(src)
        .with_context(|| format!("reading the keys in {}", src.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    names.sort();
    for path in names {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let bytes = fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        let plain_hash = crate::signing::hex(&Sha256::digest(&bytes));
        let is_private = is_private_key(&name);
        let (stored, content) = match (is_private, passphrase) {
            (true, Some(p)) => (format!("{name}{ENCRYPTED}"), encrypt(p, &bytes)?),
            _ => (name, bytes),
        };
        let target = dest.join(&stored);
        fs::write(&target, &content)?;
        if is_private {
            private(&target)?;
        }
        hashed.push((format!("{KEYS_DIR}/{stored}"), plain_hash));
    }
    Ok(hashed)
}

/// The backup a command made.
#[derive(Debug)]
pub struct Made {
    pub dest: PathBuf,
    pub manifest: Manifest,
}

/// Makes a backup of the register `store` and the keys in `keys_dir` into the empty or absent
/// folder `dest`. `profile`: the municipality profile file in use, if one is set.
pub async fn backup(
    store: &Store,
    keys_dir: &Path,
    keys: &Keys,
    database_url: &str,
    profile: Option<&Path>,
    dest: &Path,
    passphrase: Option<&str>,
) -> anyhow::Result<Made> {
    empty_folder(dest, "the backup folder")?;
    // The register holds personal data: the folder is its owner's alone.
    restrict(dest, 0o700)?;
    let created_at = chrono::Utc::now();
    let mut files = std::collections::BTreeMap::new();
    // The register first: the counts and the head are read from the copy itself, so they
    // describe exactly what was copied.
    let (backend, counts, audit_head, schema_version) = if store.backend() == "sqlite" {
        let db = dest.join(SQLITE_FILE);
        store
            .copy_sqlite_into(&db.to_string_lossy())
            .await
            .context("copying the SQLite database")?;
        let copy = Store::connect(&format!("sqlite://{}", db.display()))
            .await
            .context("opening the copy")?;
        let facts = facts_of(&copy, keys).await?;
        copy.close().await;
        private(&db)?;
        files.insert(SQLITE_FILE.to_owned(), sha256_file(&db)?);
        ("sqlite", facts.0, facts.1, facts.2)
    } else {
        // pg_dump reads the snapshot this transaction exported: the counts and the head are
        // read in the same snapshot.
        let mut snapshot = store.pg_snapshot().await?;
        let (counts, head, version) = snapshot.facts().await?;
        let dump = dest.join(PG_FILE);
        let status = std::process::Command::new("pg_dump")
            .args(["--format=custom", "--no-owner", "--snapshot"])
            .arg(&snapshot.id)
            .arg("--file")
            .arg(&dump)
            .arg(database_url)
            .status()
            .context(
                "running pg_dump (install the PostgreSQL client of the server's version, or \
                 run: pg_dump --format=custom --file DEST/selo.pgdump \"$DATABASE_URL\")",
            )?;
        snapshot.finish().await?;
        if !status.success() {
            bail!("pg_dump failed ({status})");
        }
        private(&dump)?;
        files.insert(PG_FILE.to_owned(), sha256_file(&dump)?);
        ("postgres", counts.into_iter().collect(), head, version)
    };
    for (name, hash) in copy_keys(keys_dir, &dest.join(KEYS_DIR), passphrase)? {
        files.insert(name, hash);
    }
    if let Some(p) = profile {
        let name = format!(
            "profile/{}",
            p.file_name().map_or_else(
                || "profile.toml".to_owned(),
                |n| n.to_string_lossy().into_owned()
            )
        );
        fs::create_dir_all(dest.join("profile"))?;
        fs::copy(p, dest.join(&name)).with_context(|| format!("copying {}", p.display()))?;
        files.insert(name.clone(), sha256_file(&dest.join(&name))?);
    }
    let manifest = Manifest {
        made_by: format!("selo {}", env!("CARGO_PKG_VERSION")),
        created_at,
        backend: backend.to_owned(),
        schema_version,
        counts,
        audit_head,
        keys_encrypted: passphrase.is_some(),
        files,
    };
    let mut f = fs::File::create(dest.join(MANIFEST))?;
    f.write_all(serde_json::to_string_pretty(&manifest)?.as_bytes())?;
    f.sync_all()?;
    Ok(Made {
        dest: dest.to_path_buf(),
        manifest,
    })
}

type Facts = (
    std::collections::BTreeMap<String, i64>,
    Option<(i64, String)>,
    i64,
);

/// The counts, the audit head and the schema version of a register.
async fn facts_of(store: &Store, keys: &Keys) -> anyhow::Result<Facts> {
    let mut counts = std::collections::BTreeMap::new();
    for table in COUNTED {
        counts.insert(table.to_owned(), store.count_rows(table).await?);
    }
    let report = super::audit::verify_chain(store, &keys.public, Vec::new()).await?;
    let version = store.schema_version().await?;
    Ok((counts, report.head, version))
}

/// Reads a backup's manifest.
pub fn manifest_of(src: &Path) -> anyhow::Result<Manifest> {
    let text = fs::read_to_string(src.join(MANIFEST))
        .with_context(|| format!("{} has no {MANIFEST}: not a complete backup", src.display()))?;
    Ok(serde_json::from_str(&text)?)
}

/// Restores the backup in `src` into the empty register at `database_url` and the empty or
/// absent keys folder `keys_dir`. Every file is checked against the manifest first.
pub async fn restore(
    src: &Path,
    database_url: &str,
    keys_dir: &Path,
    passphrase: Option<&str>,
) -> anyhow::Result<Manifest> {
    let manifest = manifest_of(src)?;
    if manifest.keys_encrypted && passphrase.is_none() {
        bail!("the keys of this backup are encrypted: give the passphrase on standard input");
    }
    // Every part as the manifest says, before anything is written.
    let mut keys = Vec::new();
    for (name, hash) in &manifest.files {
        let path = src.join(name);
        let bytes = fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        let plain = match (name.strip_suffix(ENCRYPTED), passphrase) {
            (Some(_), Some(p)) => decrypt(p, &bytes).with_context(|| name.clone())?,
            _ => bytes,
        };
        if crate::signing::hex(&Sha256::digest(&plain)) != *hash {
            bail!("{name} does not match the manifest (a wrong passphrase, or a damaged copy)");
        }
        if let Some(key) = name.strip_prefix(&format!("{KEYS_DIR}/")) {
            keys.push((key.trim_end_matches(ENCRYPTED).to_owned(), plain));
        }
    }
    empty_folder(keys_dir, "the keys folder")?;
    let postgres = database_url.starts_with("postgres");
    if postgres != (manifest.backend == "postgres") {
        bail!(
            "this backup is of a {} register; DATABASE_URL names another kind",
            manifest.backend
        );
    }
    if postgres {
        let target = Store::connect(database_url).await?;
        if target.holds_anything().await? {
            bail!("the database is not empty: a restore goes only into an empty one");
        }
        target.close().await;
        let status = std::process::Command::new("pg_restore")
            .args(["--no-owner", "--clean", "--if-exists", "--dbname"])
            .arg(database_url)
            .arg(src.join(PG_FILE))
            .status()
            .context("running pg_restore (install the PostgreSQL client)")?;
        if !status.success() {
            bail!("pg_restore failed ({status})");
        }
        // A dump carries no statistics: gathered now, not when autovacuum comes round.
        let restored = Store::connect(database_url).await?;
        restored.analyze().await?;
        restored.close().await;
    } else {
        let path = sqlite_path(database_url);
        if path.exists() && fs::metadata(&path)?.len() > 0 {
            let existing = Store::connect(database_url).await?;
            let busy = existing.holds_anything().await?;
            existing.close().await;
            if busy {
                bail!(
                    "the database {} is not empty: a restore goes only into an empty one",
                    path.display()
                );
            }
            for suffix in ["", "-wal", "-shm"] {
                let p = PathBuf::from(format!("{}{suffix}", path.display()));
                if p.exists() {
                    fs::remove_file(&p)?;
                }
            }
        }
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::copy(src.join(SQLITE_FILE), &path)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    for (name, bytes) in keys {
        let target = keys_dir.join(&name);
        fs::write(&target, bytes)?;
        if is_private_key(&name) {
            private(&target)?;
        }
    }
    Ok(manifest)
}

/// The file of a `sqlite://` URL.
fn sqlite_path(url: &str) -> PathBuf {
    let rest = url
        .trim_start_matches("sqlite://")
        .trim_start_matches("sqlite:");
    PathBuf::from(rest.split('?').next().unwrap_or(rest))
}

/// What `verify-restore` found; `problems` empty: the restore is whole.
#[derive(Debug, Default)]
pub struct RestoreReport {
    pub documents: usize,
    pub series: usize,
    pub chained: u64,
    pub problems: Vec<String>,
}

/// Checks a restored register against the backup's manifest: the audit chain verifies and
/// ends at the manifest's head, every counted table has the manifest's rows, every number
/// series is whole (sequences 1 to its counter, each reserved number issued, voided or still
/// reserved by an issuance the copy caught under way), and every document's token and PDF
/// signature verify with the restored keys and its PDF is the one recorded.
pub async fn verify_restore(
    store: &Store,
    keys: &Keys,
    manifest: &Manifest,
) -> anyhow::Result<RestoreReport> {
    let mut report = RestoreReport::default();
    let chain = super::audit::verify_chain(store, &keys.public, Vec::new()).await?;
    report.chained = chain.chained;
    if let Some(b) = chain.broken {
        report
            .problems
            .push(format!("cadeia de auditoria rompida: {}", b.describe_pt()));
    }
    if chain.head != manifest.audit_head {
        report.problems.push(format!(
            "a cadeia termina em {:?}; o manifesto diz {:?}",
            chain.head, manifest.audit_head
        ));
    }
    for (table, expected) in &manifest.counts {
        let found = store.count_rows(table).await?;
        if found != *expected {
            report.problems.push(format!(
                "{table}: {found} linhas; o manifesto diz {expected}"
            ));
        }
    }
    for s in store.number_series().await? {
        report.series += 1;
        let whole = s.count == 0 || (s.min_seq == 1 && s.max_seq == s.count);
        if !whole || s.max_seq > s.last_value {
            report.problems.push(format!(
                "série {} de {}: {} números de 1 a {} (contador em {})",
                s.series, s.year, s.count, s.max_seq, s.last_value
            ));
        }
    }
    for doc in store.all_documents().await? {
        report.documents += 1;
        match crate::signing::token::verify(&doc.token, &keys.public) {
            Ok(p) if p.document_id == doc.id => {}
            _ => report
                .problems
                .push(format!("{}: o token não verifica", doc.number)),
        }
        let Some(pdf) = store.document_pdf(doc.id).await? else {
            report
                .problems
                .push(format!("{}: o PDF não está guardado", doc.number));
            continue;
        };
        if crate::signing::hex(&Sha256::digest(&pdf)) != doc.sha256 {
            report
                .problems
                .push(format!("{}: o PDF não é o registrado", doc.number));
        }
        if crate::signing::pades::verify_pdf_with(
            &pdf,
            &keys.chain.root,
            &keys.public,
            &keys.imported_certificates,
        )
        .is_err()
        {
            report
                .problems
                .push(format!("{}: a assinatura do PDF não verifica", doc.number));
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_sealed_with_a_passphrase_opens_with_it_only() {
        let plain = b"-----BEGIN PRIVATE KEY-----\nexemplo\n-----END PRIVATE KEY-----\n";
        let sealed = encrypt("senha longa de teste", plain).unwrap();
        assert!(!sealed.windows(7).any(|w| w == b"exemplo"));
        assert_eq!(decrypt("senha longa de teste", &sealed).unwrap(), plain);
        // A wrong passphrase fails, or yields other bytes (the manifest's hash tells).
        assert!(
            decrypt("outra senha", &sealed).is_ok_and(|p| p != plain)
                || decrypt("outra senha", &sealed).is_err()
        );
    }

    #[test]
    fn sqlite_urls_name_their_file() {
        assert_eq!(
            sqlite_path("sqlite://data/selo.db"),
            PathBuf::from("data/selo.db")
        );
        assert_eq!(
            sqlite_path("sqlite:///var/lib/selo/selo.db?mode=rwc"),
            PathBuf::from("/var/lib/selo/selo.db")
        );
    }
}
