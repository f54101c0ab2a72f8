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
//!
//! Version 2 (`"v": 2`) is the same map without the documents expired by their own last day
//! (which the token carries: a verifier reads the expiry there), and has a delta beside it:
//!
//! ```text
//! {"v": 2, "t": "selo-status-list-delta", "iat", "exp", "base": the ETag it applies to (text),
//!  "set": [entries listed anew or changed], "del": [document ids no longer listed (16 bytes)]}
//! ```

use chrono::NaiveDate;
use ciborium::Value;
use uuid::Uuid;

use super::keys::{ActiveKey, KeySet};
use super::token::{self, TokenError};

const TYPE: &str = "selo-status-list";
const DELTA_TYPE: &str = "selo-status-list-delta";
const VERSION: u64 = 1;
const VERSION_2: u64 = 2;

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

fn key(k: &str) -> Value {
    Value::Text(k.into())
}

fn entry_cbor(e: &StatusEntry) -> Value {
    let mut m = vec![
        (key("d"), Value::Bytes(e.document_id.as_bytes().to_vec())),
        (key("s"), Value::Text(e.status.clone())),
    ];
    if let Some(u) = e.until {
        m.push((key("u"), Value::Text(u.format("%Y-%m-%d").to_string())));
    }
    Value::Map(m)
}

fn encoded(map: Vec<(Value, Value)>) -> Vec<u8> {
    let mut out = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = ciborium::into_writer(&Value::Map(map), &mut out);
    out
}

fn bad() -> TokenError {
    TokenError::Malformed("not a status list")
}

fn field(m: &[(Value, Value)], k: &str) -> Option<Value> {
    m.iter()
        .find(|(key, _)| key.as_text() == Some(k))
        .map(|(_, v)| v.clone())
}

fn int(m: &[(Value, Value)], k: &str) -> Option<i64> {
    field(m, k)
        .and_then(|v| v.as_integer())
        .and_then(|i| i64::try_from(i).ok())
}

/// The map of a payload of type `t` and version `v`, or `Malformed`.
fn map_of(bytes: &[u8], t: &str, v: u64) -> Result<Vec<(Value, Value)>, TokenError> {
    let Ok(Value::Map(m)) = ciborium::from_reader::<Value, _>(bytes) else {
        return Err(bad());
    };
    let typed = field(&m, "t")
        .and_then(|v| v.as_text().map(str::to_owned))
        .is_some_and(|x| x == t);
    if !typed || int(&m, "v").and_then(|x| u64::try_from(x).ok()) != Some(v) {
        return Err(bad());
    }
    Ok(m)
}

fn id_of(v: Value) -> Result<Uuid, TokenError> {
    let id = v.into_bytes().map_err(|_| bad())?;
    Uuid::from_slice(&id).map_err(|_| bad())
}

fn entries_of(v: Option<Value>) -> Result<Vec<StatusEntry>, TokenError> {
    v.and_then(|v| v.into_array().ok())
        .ok_or_else(bad)?
        .into_iter()
        .map(|d| {
            let m = d.into_map().map_err(|_| bad())?;
            Ok(StatusEntry {
                document_id: id_of(field(&m, "d").ok_or_else(bad)?)?,
                status: field(&m, "s")
                    .and_then(|v| v.into_text().ok())
                    .ok_or_else(bad)?,
                until: match field(&m, "u").and_then(|v| v.into_text().ok()) {
                    Some(u) => Some(NaiveDate::parse_from_str(&u, "%Y-%m-%d").map_err(|_| bad())?),
                    None => None,
                },
            })
        })
        .collect()
}

impl StatusList {
    fn to_cbor(&self, version: u64) -> Vec<u8> {
        encoded(vec![
            (key("v"), Value::Integer(version.into())),
            (key("t"), Value::Text(TYPE.into())),
            (key("iat"), Value::Integer(self.issued_at.into())),
            (key("exp"), Value::Integer(self.expires_at.into())),
            (
                key("docs"),
                Value::Array(self.entries.iter().map(entry_cbor).collect()),
            ),
        ])
    }

    fn from_cbor(bytes: &[u8], version: u64) -> Result<Self, TokenError> {
        let m = map_of(bytes, TYPE, version)?;
        Ok(Self {
            issued_at: int(&m, "iat").ok_or_else(bad)?,
            expires_at: int(&m, "exp").ok_or_else(bad)?,
            entries: entries_of(field(&m, "docs"))?,
        })
    }
}

/// What changed since the list of `ETag` `base` (version 2): apply `del`, then `set`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusDelta {
    pub issued_at: i64,
    pub expires_at: i64,
    /// The strong `ETag` of the list it applies to, as served (quoted).
    pub base: String,
    /// Entries listed anew or changed.
    pub set: Vec<StatusEntry>,
    /// Documents no longer listed.
    pub del: Vec<Uuid>,
}

impl StatusDelta {
    fn to_cbor(&self) -> Vec<u8> {
        encoded(vec![
            (key("v"), Value::Integer(VERSION_2.into())),
            (key("t"), Value::Text(DELTA_TYPE.into())),
            (key("iat"), Value::Integer(self.issued_at.into())),
            (key("exp"), Value::Integer(self.expires_at.into())),
            (key("base"), Value::Text(self.base.clone())),
            (
                key("set"),
                Value::Array(self.set.iter().map(entry_cbor).collect()),
            ),
            (
                key("del"),
                Value::Array(
                    self.del
                        .iter()
                        .map(|d| Value::Bytes(d.as_bytes().to_vec()))
                        .collect(),
                ),
            ),
        ])
    }

    fn from_cbor(bytes: &[u8]) -> Result<Self, TokenError> {
        let m = map_of(bytes, DELTA_TYPE, VERSION_2)?;
        Ok(Self {
            issued_at: int(&m, "iat").ok_or_else(bad)?,
            expires_at: int(&m, "exp").ok_or_else(bad)?,
            base: field(&m, "base")
                .and_then(|v| v.into_text().ok())
                .ok_or_else(bad)?,
            set: entries_of(field(&m, "set"))?,
            del: field(&m, "del")
                .and_then(|v| v.into_array().ok())
                .ok_or_else(bad)?
                .into_iter()
                .map(id_of)
                .collect::<Result<_, _>>()?,
        })
    }
}

/// The list signed with the active key: tagged `COSE_Sign1` bytes.
pub fn sign(list: &StatusList, key: &ActiveKey) -> Vec<u8> {
    token::sign_cose(list.to_cbor(VERSION), key)
}

/// What a signed list says, once its signature is checked against the key set.
pub fn verify(bytes: &[u8], keys: &KeySet) -> Result<StatusList, TokenError> {
    StatusList::from_cbor(&token::verify_cose(bytes, keys)?, VERSION)
}

/// The list in version 2 (without the documents expired by their own last day), signed.
pub fn sign_v2(list: &StatusList, key: &ActiveKey) -> Vec<u8> {
    token::sign_cose(list.to_cbor(VERSION_2), key)
}

/// What a signed version-2 list says, once its signature is checked.
pub fn verify_v2(bytes: &[u8], keys: &KeySet) -> Result<StatusList, TokenError> {
    StatusList::from_cbor(&token::verify_cose(bytes, keys)?, VERSION_2)
}

/// A delta of version 2, signed.
pub fn sign_delta(delta: &StatusDelta, key: &ActiveKey) -> Vec<u8> {
    token::sign_cose(delta.to_cbor(), key)
}

/// What a signed delta says, once its signature is checked.
pub fn verify_delta(bytes: &[u8], keys: &KeySet) -> Result<StatusDelta, TokenError> {
    StatusDelta::from_cbor(&token::verify_cose(bytes, keys)?)
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

        // Version 2 and its delta: each read only as what it is.
        let v2 = sign_v2(&list, &key);
        assert_eq!(verify_v2(&v2, &keys).unwrap(), list);
        assert!(verify(&v2, &keys).is_err(), "a version-1 reader refuses it");
        let delta = StatusDelta {
            issued_at: 1_796_000_100,
            expires_at: 1_796_086_500,
            base: "\"00ff\"".into(),
            set: list.entries[1..].to_vec(),
            del: vec![Uuid::from_u128(9)],
        };
        let signed = sign_delta(&delta, &key);
        assert_eq!(verify_delta(&signed, &keys).unwrap(), delta);
        assert!(verify_v2(&signed, &keys).is_err());
    }
}
