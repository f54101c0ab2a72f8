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

use std::borrow::Cow;

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
    /// The verdict's value (`revoked`, `suspended`, …): borrowed from the verdict when
    /// listed, owned when read from a list.
    pub status: Cow<'static, str>,
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

/// CBOR written straight into bytes, with the shortest heads (RFC 8949 §4.2.1, what
/// `ciborium` writes for a `Value`): a list of hundreds of thousands of entries is encoded
/// without a tree of values beside it.
#[derive(Default)]
struct Cbor(Vec<u8>);

impl Cbor {
    /// A map of `len` entries begun with the four every payload has: version, type, issued
    /// and expiry.
    fn opened(len: usize, version: u64, t: &str, (iat, exp): (i64, i64)) -> Self {
        let mut c = Self::default();
        c.map(len);
        c.text("v");
        c.head(0, version);
        c.text("t");
        c.text(t);
        c.text("iat");
        c.int(iat);
        c.text("exp");
        c.int(exp);
        c
    }

    /// The head of an item of major type `major` with argument `n`.
    fn head(&mut self, major: u8, n: u64) {
        let initial = major << 5;
        let be = n.to_be_bytes();
        let (info, width) = match n {
            0..=23 => (be[7], 0),
            24..=0xff => (24, 1),
            0x100..=0xffff => (25, 2),
            0x1_0000..=0xffff_ffff => (26, 4),
            _ => (27, 8),
        };
        self.0.push(initial | info);
        self.0.extend_from_slice(&be[8 - width..]);
    }

    fn int(&mut self, i: i64) {
        match u64::try_from(i) {
            Ok(n) => self.head(0, n),
            // -1 - i, for a negative i, is at most i64::MAX.
            Err(_) => self.head(1, (-1 - i).unsigned_abs()),
        }
    }

    fn bytes(&mut self, b: &[u8]) {
        self.head(2, b.len() as u64);
        self.0.extend_from_slice(b);
    }

    fn text(&mut self, t: &str) {
        self.head(3, t.len() as u64);
        self.0.extend_from_slice(t.as_bytes());
    }

    fn array(&mut self, len: usize) {
        self.head(4, len as u64);
    }

    fn map(&mut self, len: usize) {
        self.head(5, len as u64);
    }

    fn entry(&mut self, e: &StatusEntry) {
        self.map(if e.until.is_some() { 3 } else { 2 });
        self.text("d");
        self.bytes(e.document_id.as_bytes());
        self.text("s");
        self.text(&e.status);
        if let Some(u) = e.until {
            self.text("u");
            self.text(&u.format("%Y-%m-%d").to_string());
        }
    }

    fn entries(&mut self, entries: &[StatusEntry]) {
        self.array(entries.len());
        for e in entries {
            self.entry(e);
        }
    }
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
                    .map(Cow::Owned)
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
        let mut c = Cbor::opened(5, version, TYPE, (self.issued_at, self.expires_at));
        c.text("docs");
        c.entries(&self.entries);
        c.0
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
        let mut c = Cbor::opened(7, VERSION_2, DELTA_TYPE, (self.issued_at, self.expires_at));
        c.text("base");
        c.text(&self.base);
        c.text("set");
        c.entries(&self.set);
        c.text("del");
        c.array(self.del.len());
        for d in &self.del {
            c.bytes(d.as_bytes());
        }
        c.0
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

    /// What `ciborium` writes for the same structure as a tree of values.
    fn by_tree(v: &Value) -> Vec<u8> {
        let mut out = Vec::new();
        ciborium::into_writer(v, &mut out).unwrap();
        out
    }

    fn entry_tree(e: &StatusEntry) -> Value {
        let text = |t: &str| Value::Text(t.into());
        let mut m = vec![
            (text("d"), Value::Bytes(e.document_id.as_bytes().to_vec())),
            (text("s"), text(&e.status)),
        ];
        if let Some(u) = e.until {
            m.push((text("u"), text(&u.format("%Y-%m-%d").to_string())));
        }
        Value::Map(m)
    }

    #[test]
    fn the_list_is_written_as_ciborium_writes_its_tree() {
        let text = |t: &str| Value::Text(t.into());
        // Heads of every width: counts and integers across 23/24, 255/256, 65,535/65,536,
        // 2³² and negatives.
        for (n, iat) in [
            (0_u32, 0_i64),
            (23, 23),
            (24, -1),
            (255, -25),
            (256, 1_796_000_000),
            (65_536, 1 << 40),
            (3, i64::MIN),
        ] {
            let entries: Vec<StatusEntry> = (0..n)
                .map(|i| StatusEntry {
                    document_id: Uuid::from_u128(u128::from(i) * 7_919),
                    status: ["revoked", "suspended", "expired"][i as usize % 3].into(),
                    until: (i % 3 == 1).then(|| NaiveDate::from_ymd_opt(2027, 1, 5).unwrap()),
                })
                .collect();
            let list = StatusList {
                issued_at: iat,
                expires_at: iat.saturating_add(86_400),
                entries,
            };
            for version in [VERSION, VERSION_2] {
                let tree = Value::Map(vec![
                    (text("v"), Value::Integer(version.into())),
                    (text("t"), text(TYPE)),
                    (text("iat"), Value::Integer(list.issued_at.into())),
                    (text("exp"), Value::Integer(list.expires_at.into())),
                    (
                        text("docs"),
                        Value::Array(list.entries.iter().map(entry_tree).collect()),
                    ),
                ]);
                assert_eq!(
                    list.to_cbor(version),
                    by_tree(&tree),
                    "{n} entries, iat {iat}"
                );
            }
            let delta = StatusDelta {
                issued_at: list.issued_at,
                expires_at: list.expires_at,
                base: "\"0a1b\"".repeat(n as usize % 40),
                set: list.entries.clone(),
                del: list.entries.iter().map(|e| e.document_id).collect(),
            };
            let tree = Value::Map(vec![
                (text("v"), Value::Integer(VERSION_2.into())),
                (text("t"), text(DELTA_TYPE)),
                (text("iat"), Value::Integer(delta.issued_at.into())),
                (text("exp"), Value::Integer(delta.expires_at.into())),
                (text("base"), text(&delta.base)),
                (
                    text("set"),
                    Value::Array(delta.set.iter().map(entry_tree).collect()),
                ),
                (
                    text("del"),
                    Value::Array(
                        delta
                            .del
                            .iter()
                            .map(|d| Value::Bytes(d.as_bytes().to_vec()))
                            .collect(),
                    ),
                ),
            ]);
            assert_eq!(delta.to_cbor(), by_tree(&tree), "delta of {n}");
        }
    }
}
