//! Officials' secrets: passwords hashed with Argon2id, random bearer tokens, session
//! ids and CSRF tokens, and the SHA-256 under which tokens and session ids are stored.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use base64::Engine as _;
use sha2::{Digest, Sha256};

#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    #[error("the system random generator failed")]
    Random,
    #[error("password hashing failed: {0}")]
    Hash(String),
}

/// 32 random bytes, URL-safe base64 without padding (43 characters).
pub fn random_secret() -> Result<String, SecretError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|_| SecretError::Random)?;
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
}

/// A personal API token: `selo_` and 32 random bytes. Shown once; stored as [`sha256_hex`].
pub fn new_api_token() -> Result<String, SecretError> {
    Ok(format!("selo_{}", random_secret()?))
}

/// The lower-case hex SHA-256 of a high-entropy secret (tokens, session ids): enough to store
/// them, since no one can guess a 256-bit value from its hash.
pub fn sha256_hex(secret: &str) -> String {
    super::hex(&Sha256::digest(secret.as_bytes()))
}

/// Argon2id with the crate's defaults (19 MiB, 2 passes), PHC string. CPU-bound (tens of
/// milliseconds): callers run it on a blocking thread.
pub fn hash_password(password: &str) -> Result<String, SecretError> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|_| SecretError::Random)?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| SecretError::Hash(e.to_string()))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| SecretError::Hash(e.to_string()))
}

/// Whether `password` matches the stored PHC hash; a malformed hash (the development
/// pseudo-official's `!`) matches nothing.
pub fn verify_password(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

/// A hash no password matches, verified against when the login is unknown so that an unknown
/// login and a wrong password take the same time.
pub fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| hash_password("selo-decoy-password-never-used").unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_against_its_own_hash_only() {
        let h = hash_password("cavalo-bateria-grampo").unwrap();
        assert!(h.starts_with("$argon2id$"), "{h}");
        assert!(verify_password("cavalo-bateria-grampo", &h));
        assert!(!verify_password("cavalo-bateria-grampO", &h));
        assert!(!verify_password("anything", "!"));
        // Salted: the same password hashes differently.
        assert_ne!(h, hash_password("cavalo-bateria-grampo").unwrap());
    }

    #[test]
    fn tokens_are_random_and_stored_by_hash() {
        let a = new_api_token().unwrap();
        let b = new_api_token().unwrap();
        assert!(a.starts_with("selo_") && a.len() == 48, "{a}");
        assert_ne!(a, b);
        assert_eq!(sha256_hex(&a).len(), 64);
        assert_ne!(sha256_hex(&a), sha256_hex(&b));
    }
}
