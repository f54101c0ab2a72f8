//! Compact JWS (RFC 7515) checked against a JWK Set (RFC 7517): how an OpenID Connect
//! provider's ID token is known to be its own. RS256 (gov.br's), ES256 and `EdDSA` (Ed25519);
//! `none`, HMAC and anything else are refused, whatever the header says.

use base64::Engine as _;
use serde_json::{Map, Value};
use sha2::{Digest as _, Sha256};

/// Why a token was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JwsError {
    #[error("not a compact JWS")]
    Malformed,
    #[error("algorithm {0} is not accepted")]
    Algorithm(String),
    #[error("no key of the set fits the token")]
    NoKey,
    #[error("the signature does not verify")]
    Signature,
}

fn b64(part: &str) -> Result<Vec<u8>, JwsError> {
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(part.trim_end_matches('='))
        .map_err(|_| JwsError::Malformed)
}

fn member<'a>(jwk: &'a Value, name: &str) -> Option<&'a str> {
    jwk.get(name).and_then(Value::as_str)
}

/// Whether `jwk` can check a signature of `alg`: its type fits, and its `alg` and `use`, when
/// present, say so.
fn fits(jwk: &Value, alg: &str) -> bool {
    let kty = match alg {
        "RS256" => "RSA",
        "ES256" => "EC",
        "EdDSA" => "OKP",
        _ => return false,
    };
    member(jwk, "kty") == Some(kty)
        && member(jwk, "alg").is_none_or(|a| a == alg)
        && member(jwk, "use").is_none_or(|u| u == "sig")
}

fn verify_with(jwk: &Value, alg: &str, signed: &[u8], sig: &[u8]) -> Result<(), JwsError> {
    let part = |name| member(jwk, name).ok_or(JwsError::NoKey).and_then(b64);
    match alg {
        "RS256" => {
            let n = rsa::BoxedUint::from_be_slice_vartime(&part("n")?);
            let e = rsa::BoxedUint::from_be_slice_vartime(&part("e")?);
            let key = rsa::PublicKey::new(n, e).map_err(|_| JwsError::NoKey)?;
            key.verify(
                rsa::Pkcs1v15Sign::new::<Sha256>(),
                &Sha256::digest(signed),
                sig,
            )
            .map_err(|_| JwsError::Signature)
        }
        "ES256" => {
            use p256::ecdsa::signature::Verifier as _;
            if member(jwk, "crv") != Some("P-256") {
                return Err(JwsError::NoKey);
            }
            let mut point = vec![4u8];
            point.extend(part("x")?);
            point.extend(part("y")?);
            let key =
                p256::ecdsa::VerifyingKey::from_sec1_bytes(&point).map_err(|_| JwsError::NoKey)?;
            let sig = p256::ecdsa::Signature::from_slice(sig).map_err(|_| JwsError::Signature)?;
            key.verify(signed, &sig).map_err(|_| JwsError::Signature)
        }
        "EdDSA" => {
            if member(jwk, "crv") != Some("Ed25519") {
                return Err(JwsError::NoKey);
            }
            let x: [u8; 32] = part("x")?.try_into().map_err(|_| JwsError::NoKey)?;
            let key = ed25519_dalek::VerifyingKey::from_bytes(&x).map_err(|_| JwsError::NoKey)?;
            let sig = ed25519_dalek::Signature::from_slice(sig).map_err(|_| JwsError::Signature)?;
            key.verify_strict(signed, &sig)
                .map_err(|_| JwsError::Signature)
        }
        other => Err(JwsError::Algorithm(other.to_owned())),
    }
}

/// The payload of `token` as a JSON object, once its signature verifies with a key of `jwks`
/// (`{"keys": […]}`): the key the header's `kid` names, or else each key that fits the
/// algorithm.
pub fn verify(token: &str, jwks: &Value) -> Result<Map<String, Value>, JwsError> {
    let mut parts = token.trim().split('.');
    let (Some(h), Some(p), Some(s), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(JwsError::Malformed);
    };
    let header: Value = serde_json::from_slice(&b64(h)?).map_err(|_| JwsError::Malformed)?;
    // Critical extensions are not understood here (RFC 7515, 4.1.11).
    if header.get("crit").is_some() {
        return Err(JwsError::Malformed);
    }
    let alg = member(&header, "alg").ok_or(JwsError::Malformed)?;
    if !matches!(alg, "RS256" | "ES256" | "EdDSA") {
        return Err(JwsError::Algorithm(alg.to_owned()));
    }
    let sig = b64(s)?;
    let signed = format!("{h}.{p}");
    let kid = member(&header, "kid");
    let candidates: Vec<&Value> = jwks
        .get("keys")
        .and_then(Value::as_array)
        .map(|keys| {
            keys.iter()
                .filter(|k| fits(k, alg))
                .filter(|k| kid.is_none_or(|kid| member(k, "kid") == Some(kid)))
                .collect()
        })
        .unwrap_or_default();
    if candidates.is_empty() {
        return Err(JwsError::NoKey);
    }
    let verified = candidates
        .iter()
        .any(|k| verify_with(k, alg, signed.as_bytes(), &sig).is_ok());
    if !verified {
        return Err(JwsError::Signature);
    }
    match serde_json::from_slice(&b64(p)?) {
        Ok(Value::Object(claims)) => Ok(claims),
        _ => Err(JwsError::Malformed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ed25519_dalek::Signer as _;

    fn enc(bytes: &[u8]) -> String {
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    }

    fn ed_key() -> (ed25519_dalek::SigningKey, Value) {
        let key = ed25519_dalek::SigningKey::from_bytes(&[7u8; 32]);
        let jwk = serde_json::json!({"keys": [{"kty": "OKP", "crv": "Ed25519", "kid": "k1",
            "x": enc(key.verifying_key().as_bytes())}]});
        (key, jwk)
    }

    fn token(key: &ed25519_dalek::SigningKey, header: &Value, claims: &Value) -> String {
        let signed = format!(
            "{}.{}",
            enc(header.to_string().as_bytes()),
            enc(claims.to_string().as_bytes())
        );
        let sig = key.sign(signed.as_bytes());
        format!("{signed}.{}", enc(&sig.to_bytes()))
    }

    #[test]
    fn a_token_signed_by_a_key_of_the_set_verifies_and_an_altered_one_does_not() {
        let (key, jwks) = ed_key();
        let t = token(
            &key,
            &serde_json::json!({"alg": "EdDSA", "kid": "k1"}),
            &serde_json::json!({"sub": "52998224725"}),
        );
        assert_eq!(verify(&t, &jwks).unwrap()["sub"], "52998224725");
        // Another payload under the same signature.
        let mut parts: Vec<&str> = t.split('.').collect();
        let forged = enc(br#"{"sub":"11144477735"}"#);
        parts[1] = &forged;
        assert_eq!(verify(&parts.join("."), &jwks), Err(JwsError::Signature));
        // Another key named by the header: no key.
        let other = token(
            &key,
            &serde_json::json!({"alg": "EdDSA", "kid": "k2"}),
            &serde_json::json!({}),
        );
        assert_eq!(verify(&other, &jwks), Err(JwsError::NoKey));
    }

    #[test]
    fn unsigned_and_symmetric_tokens_are_refused() {
        let (_, jwks) = ed_key();
        let none = format!(
            "{}.{}.",
            enc(br#"{"alg":"none"}"#),
            enc(br#"{"sub":"52998224725"}"#)
        );
        assert_eq!(
            verify(&none, &jwks),
            Err(JwsError::Algorithm("none".into()))
        );
        let hs = format!("{}.{}.AAAA", enc(br#"{"alg":"HS256"}"#), enc(b"{}"));
        assert_eq!(verify(&hs, &jwks), Err(JwsError::Algorithm("HS256".into())));
        assert_eq!(verify("a.b", &jwks), Err(JwsError::Malformed));
    }
}
