//! The signed status list: what an offline verifier needs besides the JWK Set to
//! tell a valid document from one revoked, suspended or otherwise not in force. Tagged
//! `COSE_Sign1` (CBOR tag 18, `EdDSA`, the key's id in the protected header: the same keys as
//! the QR tokens) over the CBOR map
//!
//! ```text
//! {"v": 1, "t": "selo-status-list", "iat": issued (Unix s), "exp": expires (Unix s, ≤ 24 h later),
//!  "docs": [{"d": document id (16 bytes: the token's "d"), "s": verdict, ?"u": "AAAA-MM-DD"}]}
//! ```
//!
//! listing every document whose verdict is not `valid` (`s`: `revoked`, `suspended`,
//! `expired`, `irregular`, `replaced`, `outdated`), with `u` the day a suspension ends. A
//! document absent from an unexpired list was valid when it was issued.

use chrono::NaiveDate;
use ciborium::Value;
use uuid::Uuid;

use super::keys::{ActiveKey, KeySet};
use super::token::{self, TokenError};

const TYPE: &str = "selo-status-list";
const VERSION: u64 = 1;

/// One document not in force.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusEntry {
    pub document_id: Uuid,
    /// The verdict's value (`revoked`, `suspended`, …).
    pub status: String,
    /// The day a suspension ends (the document is reinstated on it).
    pub until: Option<NaiveDate>,
}

/// The list as signed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusList {
    pub issued_at: i64,
    pub expires_at: i64,
    pub entries: Vec<StatusEntry>,
}

impl StatusList {
    fn to_cbor(&self) -> Vec<u8> {
        let key = |k: &str| Value::Text(k.into());
        let docs = self
            .entries
            .iter()
            .map(|e| {
                let mut m = vec![
                    (key("d"), Value::Bytes(e.document_id.as_bytes().to_vec())),
                    (key("s"), Value::Text(e.status.clone())),
                ];
                if let Some(u) = e.until {
                    m.push((key("u"), Value::Text(u.format("%Y-%m-%d").to_string())));
                }
                Value::Map(m)
            })
            .collect();
        let map = Value::Map(vec![
            (key("v"), Value::Integer(VERSION.into())),
            (key("t"), Value::Text(TYPE.into())),
            (key("iat"), Value::Integer(self.issued_at.into())),
            (key("exp"), Value::Integer(self.expires_at.into())),
            (key("docs"), Value::Array(docs)),
        ]);
        let mut out = Vec::new();
        // Writing into a Vec cannot fail.
        let _ = ciborium::into_writer(&map, &mut out);
        out
    }

    fn from_cbor(bytes: &[u8]) -> Result<Self, TokenError> {
        let bad = || TokenError::Malformed("not a status list");
        let Ok(Value::Map(entries)) = ciborium::from_reader::<Value, _>(bytes) else {
            return Err(bad());
        };
        let field = |m: &[(Value, Value)], k: &str| {
            m.iter()
                .find(|(key, _)| key.as_text() == Some(k))
                .map(|(_, v)| v.clone())
        };
        let int = |k: &str| {
            field(&entries, k)
                .and_then(|v| v.as_integer())
                .and_then(|i| i64::try_from(i).ok())
        };
        if field(&entries, "t")
            .and_then(|v| v.as_text().map(str::to_owned))
            .as_deref()
            != Some(TYPE)
            || int("v") != Some(1)
        {
            return Err(bad());
        }
        let docs = field(&entries, "docs")
            .and_then(|v| v.into_array().ok())
            .ok_or_else(bad)?;
        let entries_out = docs
            .into_iter()
            .map(|d| {
                let m = d.into_map().map_err(|_| bad())?;
                let id = field(&m, "d")
                    .and_then(|v| v.into_bytes().ok())
                    .ok_or_else(bad)?;
                Ok(StatusEntry {
                    document_id: Uuid::from_slice(&id).map_err(|_| bad())?,
                    status: field(&m, "s")
                        .and_then(|v| v.into_text().ok())
                        .ok_or_else(bad)?,
                    until: match field(&m, "u").and_then(|v| v.into_text().ok()) {
                        Some(u) => {
                            Some(NaiveDate::parse_from_str(&u, "%Y-%m-%d").map_err(|_| bad())?)
                        }
                        None => None,
                    },
                })
            })
            .collect::<Result<Vec<_>, TokenError>>()?;
        Ok(Self {
            issued_at: int("iat").ok_or_else(bad)?,
            expires_at: int("exp").ok_or_else(bad)?,
            entries: entries_out,
        })
    }
}

/// The list signed with the active key: tagged `COSE_Sign1` bytes.
pub fn sign(list: &StatusList, key: &ActiveKey) -> Vec<u8> {
    token::sign_cose(list.to_cbor(), key)
}

/// What a signed list says, once its signature is checked against the key set.
pub fn verify(bytes: &[u8], keys: &KeySet) -> Result<StatusList, TokenError> {
    StatusList::from_cbor(&token::verify_cose(bytes, keys)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_round_trips_and_a_changed_byte_does_not_verify() {
        let key = ActiveKey::from_seed([3; 32]);
        let mut keys = KeySet::default();
        keys.insert(key.verifying_key());
        let list = StatusList {
            issued_at: 1_796_000_000,
            expires_at: 1_796_086_400,
            entries: vec![
                StatusEntry {
                    document_id: Uuid::from_u128(7),
                    status: "revoked".into(),
                    until: None,
                },
                StatusEntry {
                    document_id: Uuid::from_u128(8),
                    status: "suspended".into(),
                    until: NaiveDate::from_ymd_opt(2026, 12, 31),
                },
            ],
        };
        let mut bytes = sign(&list, &key);
        assert_eq!(bytes[0], 0xd2, "CBOR tag 18: a tagged COSE_Sign1");
        assert_eq!(verify(&bytes, &keys).unwrap(), list);
        let i = bytes.len() / 2;
        bytes[i] ^= 1;
        assert!(verify(&bytes, &keys).is_err());
    }
}
