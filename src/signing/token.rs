//! The signed token printed in every QR code: a tagged `COSE_Sign1` (RFC 9052, CBOR tag 18)
//! signed with Ed25519, carried in the URL as base64url without padding.
//!
//! Protected header: `{1: -8}` (alg: `EdDSA`) and `{4: kid}` (kid as a byte string holding the
//! ASCII key id). Unprotected header: empty. External AAD: empty. Payload: a CBOR map with
//! text keys, see [`TokenPayload`]. The token signs the *record* the city issued, not the PDF.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::NaiveDate;
use ciborium::Value;
use coset::{
    CborSerializable, CoseSign1, CoseSign1Builder, HeaderBuilder, TaggedCborSerializable, iana,
};
use ed25519_dalek::Signature;
use uuid::Uuid;

use super::keys::{ActiveKey, KeySet};

/// Payload format version (key `v`).
pub const PAYLOAD_VERSION: u64 = 1;

/// Longest token text accepted before any decoding (a real one is about 200 characters).
pub const MAX_TOKEN_CHARS: usize = 2048;

/// What a token asserts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenPayload {
    /// `k`: document kind, e.g. `app_sticker`.
    pub kind: String,
    /// `d`: document id, a 16-byte UUID.
    pub document_id: Uuid,
    /// `n`: the authorization number, e.g. `APP-2026/000123`.
    pub number: String,
    /// `p`: the plate, canonical (no hyphen).
    pub plate: String,
    /// `i`: issued-at, seconds since the Unix epoch (UTC).
    pub issued_at: i64,
    /// `u`: valid-until, `YYYY-MM-DD` (America/Cuiaba calendar date, last day inclusive).
    pub valid_until: NaiveDate,
    /// `s`: issuer, e.g. `BDG-SMF` (Barra do Garças, Secretaria Municipal de Finanças).
    pub issuer: String,
}

/// Why a token was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("malformed token: {0}")]
    Malformed(&'static str),
    #[error("signed by an unknown key")]
    UnknownKey,
    /// Signed by a key selo retired (`selo keys retire`): no longer trusted, for this reason.
    #[error("signed by a retired key")]
    RetiredKey(super::keys::Retirement),
    #[error("signature does not verify")]
    InvalidSignature,
}

impl TokenPayload {
    fn to_cbor(&self) -> Vec<u8> {
        let map = Value::Map(vec![
            (
                Value::Text("v".into()),
                Value::Integer(PAYLOAD_VERSION.into()),
            ),
            (Value::Text("k".into()), Value::Text(self.kind.clone())),
            (
                Value::Text("d".into()),
                Value::Bytes(self.document_id.as_bytes().to_vec()),
            ),
            (Value::Text("n".into()), Value::Text(self.number.clone())),
            (Value::Text("p".into()), Value::Text(self.plate.clone())),
            (
                Value::Text("i".into()),
                Value::Integer(self.issued_at.into()),
            ),
            (
                Value::Text("u".into()),
                Value::Text(self.valid_until.format("%Y-%m-%d").to_string()),
            ),
            (Value::Text("s".into()), Value::Text(self.issuer.clone())),
        ]);
        let mut out = Vec::with_capacity(96);
        // Writing into a Vec cannot fail.
        let _ = ciborium::into_writer(&map, &mut out);
        out
    }

    fn from_cbor(bytes: &[u8]) -> Result<Self, TokenError> {
        let value: Value = ciborium::from_reader(bytes)
            .map_err(|_| TokenError::Malformed("payload is not CBOR"))?;
        let Value::Map(entries) = value else {
            return Err(TokenError::Malformed("payload is not a map"));
        };
        let get = |key: &str| {
            entries
                .iter()
                .find(|(k, _)| k.as_text() == Some(key))
                .map(|(_, v)| v)
                .ok_or(TokenError::Malformed("payload lacks a field"))
        };
        let text = |key: &str| -> Result<String, TokenError> {
            get(key)?
                .as_text()
                .map(str::to_owned)
                .ok_or(TokenError::Malformed("payload field has the wrong type"))
        };
        let version: u64 = get("v")?
            .as_integer()
            .and_then(|i| u64::try_from(i).ok())
            .ok_or(TokenError::Malformed("bad version"))?;
        if version != PAYLOAD_VERSION {
            return Err(TokenError::Malformed("unsupported payload version"));
        }
        let id_bytes = get("d")?
            .as_bytes()
            .ok_or(TokenError::Malformed("bad document id"))?;
        let document_id =
            Uuid::from_slice(id_bytes).map_err(|_| TokenError::Malformed("bad document id"))?;
        let issued_at = get("i")?
            .as_integer()
            .and_then(|i| i64::try_from(i).ok())
            .ok_or(TokenError::Malformed("bad issued-at"))?;
        let valid_until = NaiveDate::parse_from_str(&text("u")?, "%Y-%m-%d")
            .map_err(|_| TokenError::Malformed("bad valid-until"))?;
        Ok(Self {
            kind: text("k")?,
            document_id,
            number: text("n")?,
            plate: text("p")?,
            issued_at,
            valid_until,
            issuer: text("s")?,
        })
    }
}

/// Signs a payload and returns the token text (base64url, no padding).
pub fn sign(payload: &TokenPayload, key: &ActiveKey) -> String {
    sign_bytes(payload.to_cbor(), key)
}

/// `COSE_Sign1` (`EdDSA`, the key's id in the protected header) over `payload`, as base64url
/// without padding: the one signing of every token selo issues (documents, audit checkpoints).
pub fn sign_bytes(payload: Vec<u8>, key: &ActiveKey) -> String {
    URL_SAFE_NO_PAD.encode(sign_cose(payload, key))
}

/// The tagged `COSE_Sign1` bytes (CBOR tag 18) of [`sign_bytes`], for answers served as
/// `application/cose` (the signed status list).
pub fn sign_cose(payload: Vec<u8>, key: &ActiveKey) -> Vec<u8> {
    let protected = HeaderBuilder::new()
        .algorithm(iana::Algorithm::EdDSA)
        .key_id(key.kid().as_bytes().to_vec())
        .build();
    let sign1 = CoseSign1Builder::new()
        .protected(protected)
        .payload(payload)
        .create_signature(b"", |tbs| key.sign(tbs).to_bytes().to_vec())
        .build();
    // Serialising a well-formed structure we just built cannot fail.
    sign1.to_tagged_vec().unwrap_or_default()
}

/// Decodes and verifies a token against the key set: offline, no database.
pub fn verify(token: &str, keys: &KeySet) -> Result<TokenPayload, TokenError> {
    TokenPayload::from_cbor(&verify_bytes(token, keys)?)
}

/// The payload of a `COSE_Sign1` token made by [`sign_bytes`], once its signature is checked
/// against the key set.
pub fn verify_bytes(token: &str, keys: &KeySet) -> Result<Vec<u8>, TokenError> {
    if token.is_empty() || token.len() > MAX_TOKEN_CHARS {
        return Err(TokenError::Malformed("length"));
    }
    let bytes = URL_SAFE_NO_PAD
        .decode(token.trim_end_matches('='))
        .map_err(|_| TokenError::Malformed("not base64url"))?;
    verify_cose(&bytes, keys)
}

/// The payload of tagged (or untagged) `COSE_Sign1` bytes, once the signature is checked.
pub fn verify_cose(bytes: &[u8], keys: &KeySet) -> Result<Vec<u8>, TokenError> {
    let sign1 = CoseSign1::from_tagged_slice(bytes)
        .or_else(|_| CoseSign1::from_slice(bytes))
        .map_err(|_| TokenError::Malformed("not a `COSE_Sign1`"))?;
    let header = &sign1.protected.header;
    if header.alg != Some(coset::Algorithm::Assigned(iana::Algorithm::EdDSA)) {
        return Err(TokenError::Malformed("algorithm is not EdDSA"));
    }
    if !header.crit.is_empty() {
        return Err(TokenError::Malformed("unknown critical header"));
    }
    let kid = std::str::from_utf8(&header.key_id).map_err(|_| TokenError::UnknownKey)?;
    let key = match (keys.get(kid), keys.retirement(kid)) {
        (Some(key), _) => key,
        (None, Some(r)) => return Err(TokenError::RetiredKey(r.clone())),
        (None, None) => return Err(TokenError::UnknownKey),
    };
    sign1.verify_signature(b"", |sig, tbs| {
        let sig = Signature::from_slice(sig).map_err(|_| TokenError::InvalidSignature)?;
        key.verify_strict(tbs, &sig)
            .map_err(|_| TokenError::InvalidSignature)
    })?;
    sign1.payload.ok_or(TokenError::Malformed("no payload"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payload() -> TokenPayload {
        TokenPayload {
            kind: "app_sticker".into(),
            document_id: Uuid::from_u128(0x0123_4567_89ab_cdef_0123_4567_89ab_cdef),
            number: "APP-2026/000123".into(),
            plate: "BRA2E19".into(),
            issued_at: 1_795_000_000,
            valid_until: NaiveDate::from_ymd_opt(2027, 11, 20).unwrap(),
            issuer: "BDG-SMF".into(),
        }
    }

    fn keyset(key: &ActiveKey) -> KeySet {
        let mut set = KeySet::default();
        set.insert(key.verifying_key());
        set
    }

    #[test]
    fn round_trip() {
        let key = ActiveKey::from_seed([7; 32]);
        let token = sign(&payload(), &key);
        assert!(
            token.len() < 260,
            "token too long for a compact QR: {}",
            token.len()
        );
        assert_eq!(verify(&token, &keyset(&key)).unwrap(), payload());
    }

    #[test]
    fn unknown_key_is_reported() {
        let key = ActiveKey::from_seed([7; 32]);
        let other = ActiveKey::from_seed([8; 32]);
        let token = sign(&payload(), &other);
        assert_eq!(verify(&token, &keyset(&key)), Err(TokenError::UnknownKey));
    }

    #[test]
    fn garbage_is_malformed() {
        let keys = keyset(&ActiveKey::from_seed([7; 32]));
        for t in ["", "!!!", "AAAA", "2Q", &"A".repeat(5000)] {
            assert!(
                matches!(verify(t, &keys), Err(TokenError::Malformed(_))),
                "{t}"
            );
        }
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]
            // Any change of any single byte of a token is never accepted as the original.
            #[test]
            fn any_flipped_byte_is_rejected(index in 0usize..400, bit in 0u8..8) {
                let key = ActiveKey::from_seed([9; 32]);
                let keys = keyset(&key);
                let mut raw = URL_SAFE_NO_PAD.decode(sign(&payload(), &key)).unwrap();
                let i = index % raw.len();
                raw[i] ^= 1 << bit;
                let tampered = URL_SAFE_NO_PAD.encode(&raw);
                prop_assert!(verify(&tampered, &keys).is_err());
            }

            #[test]
            fn arbitrary_input_never_panics(s in "\\PC{0,300}") {
                let keys = keyset(&ActiveKey::from_seed([9; 32]));
                let _ = verify(&s, &keys);
            }
        }
    }
}
