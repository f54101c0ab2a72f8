//! Signed checkpoints of the audit chain's head: a `COSE_Sign1` token, made with
//! the document keys, over the CBOR map `{"v": 1, "t": "selo-audit-checkpoint", "day":
//! "AAAA-MM-DD", "e": event id, "n": rows of the chain, "h": head hash (hex), "at": Unix
//! seconds}`. Anyone holding a copy can check it against the JWK Set and the chain.

use ciborium::Value;

use super::keys::{ActiveKey, KeySet};
use super::token::{self, TokenError};

const TYPE: &str = "selo-audit-checkpoint";
const VERSION: u64 = 1;

/// What a checkpoint states.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckpointPayload {
    /// The legal day (America/Cuiaba) it was made.
    pub day: String,
    /// The chain's last row then.
    pub event_id: i64,
    /// How many rows the chain had then.
    pub events: u64,
    /// That row's hash.
    pub head_hash: String,
    /// When it was signed (Unix seconds).
    pub signed_at: i64,
}

impl CheckpointPayload {
    fn to_cbor(&self) -> Vec<u8> {
        let text = |k: &str, v: &str| (Value::Text(k.into()), Value::Text(v.into()));
        let map = Value::Map(vec![
            (Value::Text("v".into()), Value::Integer(VERSION.into())),
            text("t", TYPE),
            text("day", &self.day),
            (
                Value::Text("e".into()),
                Value::Integer(self.event_id.into()),
            ),
            (Value::Text("n".into()), Value::Integer(self.events.into())),
            text("h", &self.head_hash),
            (
                Value::Text("at".into()),
                Value::Integer(self.signed_at.into()),
            ),
        ]);
        let mut out = Vec::with_capacity(128);
        // Writing into a Vec cannot fail.
        let _ = ciborium::into_writer(&map, &mut out);
        out
    }

    fn from_cbor(bytes: &[u8]) -> Result<Self, TokenError> {
        let bad = TokenError::Malformed("not an audit checkpoint");
        let Ok(Value::Map(entries)) = ciborium::from_reader::<Value, _>(bytes) else {
            return Err(bad);
        };
        let get = |key: &str| {
            entries
                .iter()
                .find(|(k, _)| k.as_text() == Some(key))
                .map(|(_, v)| v)
        };
        let text = |key: &str| get(key).and_then(Value::as_text).map(str::to_owned);
        let int = |key: &str| get(key).and_then(Value::as_integer).map(i128::from);
        if text("t").as_deref() != Some(TYPE) || int("v") != Some(i128::from(VERSION)) {
            return Err(bad);
        }
        let (Some(day), Some(e), Some(n), Some(h), Some(at)) =
            (text("day"), int("e"), int("n"), text("h"), int("at"))
        else {
            return Err(bad);
        };
        Ok(Self {
            day,
            event_id: i64::try_from(e).map_err(|_| TokenError::Malformed("bad event id"))?,
            events: u64::try_from(n).map_err(|_| TokenError::Malformed("bad count"))?,
            head_hash: h,
            signed_at: i64::try_from(at).map_err(|_| TokenError::Malformed("bad time"))?,
        })
    }
}

/// The checkpoint signed with the active key.
pub fn sign(payload: &CheckpointPayload, key: &ActiveKey) -> String {
    token::sign_bytes(payload.to_cbor(), key)
}

/// What a checkpoint token states, once its signature is checked against the key set.
pub fn verify(token: &str, keys: &KeySet) -> Result<CheckpointPayload, TokenError> {
    CheckpointPayload::from_cbor(&token::verify_bytes(token, keys)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_round_trips_and_a_document_token_is_not_one() {
        let key = ActiveKey::from_seed([7; 32]);
        let mut keys = KeySet::default();
        keys.insert(key.verifying_key());
        let p = CheckpointPayload {
            day: "2026-12-01".into(),
            event_id: 42,
            events: 40,
            head_hash: "ab".repeat(32),
            signed_at: 1_796_000_000,
        };
        let t = sign(&p, &key);
        assert_eq!(verify(&t, &keys).unwrap(), p);
        let other = ActiveKey::from_seed([8; 32]);
        assert!(verify(&sign(&p, &other), &keys).is_err(), "unknown key");
        let doc = token::sign_bytes(vec![0xa0], &key);
        assert!(matches!(verify(&doc, &keys), Err(TokenError::Malformed(_))));
    }
}
