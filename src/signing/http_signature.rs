//! HTTP Message Signatures (RFC 9421) with Ed25519, as webhook deliveries carry them: the
//! body's `Content-Digest` (RFC 9530, SHA-256) and a signature over the method, the target
//! URI, that digest and the content type, with the instant it was made (`created`), the
//! signing key (`keyid`, a kid of the published JWK Set) and a `nonce` that names the attempt.
//! A receiver checks the signature with the published key, refuses a `created` older than a
//! few minutes and a `nonce` it has seen: a tampered body breaks the digest, a replayed
//! delivery repeats a nonce or arrives too late.
//!
//! The signed text starts with `"@method"`, never with a CBOR array or a DER set, so it can
//! never be taken for a COSE token's or a PDF signature's signed data made with the same key.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use ed25519_dalek::{Signature, Verifier};
use sha2::{Digest, Sha256};

use super::keyfile::{ActiveKey, KeySet};

/// The label of selo's signature in `Signature-Input` and `Signature`.
pub const LABEL: &str = "selo";
/// What the signature covers, in order.
const COMPONENTS: &str = r#"("@method" "@target-uri" "content-digest" "content-type")"#;

/// The headers a signed request carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedHeaders {
    pub content_digest: String,
    pub signature_input: String,
    pub signature: String,
}

/// `Content-Digest` of `body`: `sha-256=:<base64>:`.
pub fn content_digest(body: &[u8]) -> String {
    format!("sha-256=:{}:", B64.encode(Sha256::digest(body)))
}

fn signature_params(created: i64, kid: &str, nonce: &str) -> String {
    format!(r#"{COMPONENTS};created={created};keyid="{kid}";alg="ed25519";nonce="{nonce}""#)
}

fn signature_base(target_uri: &str, digest: &str, content_type: &str, params: &str) -> String {
    format!(
        "\"@method\": POST\n\"@target-uri\": {target_uri}\n\"content-digest\": {digest}\n\
         \"content-type\": {content_type}\n\"@signature-params\": {params}"
    )
}

/// Signs a `POST` of `body` (`content_type`) to `target_uri` at `created` (Unix seconds).
/// `nonce` must be made of letters, digits, `-`, `.` and `_`.
pub fn sign_post(
    key: &ActiveKey,
    target_uri: &str,
    content_type: &str,
    body: &[u8],
    created: i64,
    nonce: &str,
) -> SignedHeaders {
    let digest = content_digest(body);
    let params = signature_params(created, key.kid(), nonce);
    let base = signature_base(target_uri, &digest, content_type, &params);
    let signature = key.sign(base.as_bytes());
    SignedHeaders {
        content_digest: digest,
        signature_input: format!("{LABEL}={params}"),
        signature: format!("{LABEL}=:{}:", B64.encode(signature.to_bytes())),
    }
}

/// Why a signed request was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("the body does not match Content-Digest")]
    Digest,
    #[error("Signature-Input is not selo's")]
    Malformed,
    #[error("no published key has this kid")]
    UnknownKey,
    #[error("the signature does not verify")]
    BadSignature,
    #[error("the signature is too old or from the future")]
    Stale,
}

/// What a verified signature said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    pub created: i64,
    pub kid: String,
    pub nonce: String,
}

/// Checks a `POST` as a receiver would (for selo's own tests and as the reference of the
/// format): the digest of `body`, the signature against `keys`, and `created` within
/// `max_age_secs` of `now` (seconds). Replays are the receiver's to catch, by the nonce.
pub fn verify_post(
    keys: &KeySet,
    target_uri: &str,
    headers: &SignedHeaders,
    content_type: &str,
    body: &[u8],
    now: i64,
    max_age_secs: i64,
) -> Result<Verified, Refusal> {
    if headers.content_digest != content_digest(body) {
        return Err(Refusal::Digest);
    }
    let params = headers
        .signature_input
        .strip_prefix(LABEL)
        .and_then(|s| s.strip_prefix('='))
        .and_then(|s| s.strip_prefix(COMPONENTS))
        .ok_or(Refusal::Malformed)?;
    let field = |name: &str| {
        params.split(';').find_map(|p| {
            p.strip_prefix(name)
                .and_then(|v| v.strip_prefix('='))
                .map(|v| v.trim_matches('"').to_owned())
        })
    };
    let created: i64 = field("created")
        .and_then(|c| c.parse().ok())
        .ok_or(Refusal::Malformed)?;
    let kid = field("keyid").ok_or(Refusal::Malformed)?;
    let nonce = field("nonce").ok_or(Refusal::Malformed)?;
    if field("alg").as_deref() != Some("ed25519")
        || format!("{COMPONENTS}{params}") != signature_params(created, &kid, &nonce)
    {
        return Err(Refusal::Malformed);
    }
    let raw = headers
        .signature
        .strip_prefix(LABEL)
        .and_then(|s| s.strip_prefix("=:"))
        .and_then(|s| s.strip_suffix(':'))
        .and_then(|s| B64.decode(s).ok())
        .and_then(|b| Signature::from_slice(&b).ok())
        .ok_or(Refusal::Malformed)?;
    let public = keys.get(&kid).ok_or(Refusal::UnknownKey)?;
    let base = signature_base(
        target_uri,
        &headers.content_digest,
        content_type,
        &signature_params(created, &kid, &nonce),
    );
    public
        .verify(base.as_bytes(), &raw)
        .map_err(|_| Refusal::BadSignature)?;
    if created > now + 5 || now - created > max_age_secs {
        return Err(Refusal::Stale);
    }
    Ok(Verified {
        created,
        kid,
        nonce,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> (ActiveKey, KeySet) {
        let key = ActiveKey::from_seed([7; 32]);
        let mut set = KeySet::default();
        set.insert(key.verifying_key());
        (key, set)
    }

    const URI: &str = "https://plataforma.example/selo/eventos";
    const JSON: &str = "application/json";

    #[test]
    fn a_signed_post_verifies_and_says_when_and_which_key() {
        let (key, set) = keys();
        let body = br#"{"type":"authorization.suspended"}"#;
        let h = sign_post(&key, URI, JSON, body, 1_800_000_000, "abc-1");
        assert!(h.signature_input.starts_with(
            r#"selo=("@method" "@target-uri" "content-digest" "content-type");created=1800000000;keyid=""#
        ));
        let v = verify_post(&set, URI, &h, JSON, body, 1_800_000_010, 300).unwrap();
        assert_eq!(v.nonce, "abc-1");
        assert_eq!(v.kid, key.kid());
    }

    #[test]
    fn tampering_with_the_body_the_address_or_the_time_is_caught() {
        let (key, set) = keys();
        let body = br#"{"status":"suspended"}"#;
        let h = sign_post(&key, URI, JSON, body, 1_800_000_000, "n");
        let at = 1_800_000_001;
        assert_eq!(
            verify_post(&set, URI, &h, JSON, br#"{"status":"active"}"#, at, 300),
            Err(Refusal::Digest)
        );
        let mut forged = h.clone();
        forged.content_digest = content_digest(br#"{"status":"active"}"#);
        assert_eq!(
            verify_post(&set, URI, &forged, JSON, br#"{"status":"active"}"#, at, 300),
            Err(Refusal::BadSignature)
        );
        assert_eq!(
            verify_post(&set, "https://outra.example/", &h, JSON, body, at, 300),
            Err(Refusal::BadSignature)
        );
        let mut later = h.clone();
        later.signature_input = later.signature_input.replace("1800000000", "1800000900");
        assert_eq!(
            verify_post(&set, URI, &later, JSON, body, 1_800_000_900, 300),
            Err(Refusal::BadSignature)
        );
        assert_eq!(
            verify_post(&set, URI, &h, JSON, body, 1_800_000_301, 300),
            Err(Refusal::Stale)
        );
        assert_eq!(
            verify_post(&KeySet::default(), URI, &h, JSON, body, at, 300),
            Err(Refusal::UnknownKey)
        );
    }
}
