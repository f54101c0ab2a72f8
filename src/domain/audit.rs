//! The audit log's hash chain: what a row's hash covers, and the walk that finds
//! the first broken link. Pure: storage feeds it the rows in `id` order.
//!
//! `hash` = SHA-256 (hex) of the JSON array `["selo-audit-v1", prev_hash, entity_type,
//! entity_id, kind, actor, reason, legal_basis_version, occurred_at, data]`, where
//! `occurred_at` is RFC 3339 with microseconds and `Z`, absent values are JSON `null`, and
//! `prev_hash` is the previous row's hash (64 zeros for the first row of the chain). Editing
//! a row changes its hash; deleting or inserting one breaks the next row's `prev_hash`;
//! rewriting the chain from some row to the head is caught by a signed checkpoint of the
//! head held elsewhere.

use std::collections::BTreeMap;

use chrono::{DateTime, SecondsFormat, SubsecRound, Utc};
use sha2::{Digest, Sha256};

/// The `prev_hash` of the first row of the chain.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";
/// The version tag inside every hashed array.
pub const VERSION: &str = "selo-audit-v1";

/// What a row's hash covers.
#[derive(Debug, Clone, Copy)]
pub struct EventFields<'a> {
    pub entity_type: &'a str,
    pub entity_id: &'a str,
    pub kind: &'a str,
    pub actor: &'a str,
    pub reason: Option<&'a str>,
    pub legal_basis_version: Option<&'a str>,
    pub occurred_at: DateTime<Utc>,
    pub data: &'a str,
}

impl EventFields<'_> {
    /// The hash of this row after the row whose hash is `prev`.
    pub fn link(&self, prev: &str) -> String {
        let array = serde_json::json!([
            VERSION,
            prev,
            self.entity_type,
            self.entity_id,
            self.kind,
            self.actor,
            self.reason,
            self.legal_basis_version,
            self.occurred_at
                .to_rfc3339_opts(SecondsFormat::Micros, true),
            self.data,
        ]);
        let digest = Sha256::digest(array.to_string().as_bytes());
        digest.iter().fold(String::with_capacity(64), |mut s, b| {
            use std::fmt::Write;
            let _ = write!(s, "{b:02x}");
            s
        })
    }
}

/// The instant as both databases keep it (microseconds): what is hashed is what is read back.
pub fn to_micros(at: DateTime<Utc>) -> DateTime<Utc> {
    at.trunc_subsecs(6)
}

/// A signed checkpoint's claim: after `events` rows of the chain, the row `event_id` has
/// hash `head_hash`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub label: String,
    pub event_id: i64,
    pub events: u64,
    pub head_hash: String,
}

/// How the chain is broken, at the first row where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Break {
    /// The row's content no longer gives its hash: edited.
    Altered { id: i64 },
    /// The row does not follow the one before it: a row was deleted or inserted before it.
    Unlinked { id: i64 },
    /// A row without a hash after the chain began: inserted without one, or stripped.
    Unsealed { id: i64 },
    /// A checkpoint does not match the chain: rewritten from some row up to the head.
    Checkpoint { label: String, detail: String },
}

impl Break {
    /// In Portuguese, for the auditor.
    pub fn describe_pt(&self) -> String {
        match self {
            Self::Altered { id } => {
                format!("linha {id}: o conteúdo não corresponde ao hash gravado (linha alterada)")
            }
            Self::Unlinked { id } => format!(
                "linha {id}: não continua a linha anterior (linha removida ou inserida antes dela)"
            ),
            Self::Unsealed { id } => {
                format!("linha {id}: sem hash depois do início da cadeia (inserida ou adulterada)")
            }
            Self::Checkpoint { label, detail } => format!("ponto de controle {label}: {detail}"),
        }
    }
}

/// The walk of the chain, one row at a time in `id` order.
#[derive(Debug, Default)]
pub struct ChainWalk {
    /// Rows before the chain began (written before migration 0017).
    pub unchained: u64,
    /// Rows of the chain so far.
    pub chained: u64,
    /// The last row of the chain: its id and hash.
    pub head: Option<(i64, String)>,
    claims: BTreeMap<i64, Vec<Claim>>,
    /// The first break found; the walk stops looking after it.
    pub broken: Option<Break>,
}

impl ChainWalk {
    /// A walk that also checks these checkpoints' claims as it passes their rows.
    pub fn new(claims: Vec<Claim>) -> Self {
        let mut by_row: BTreeMap<i64, Vec<Claim>> = BTreeMap::new();
        for c in claims {
            by_row.entry(c.event_id).or_default().push(c);
        }
        Self {
            claims: by_row,
            ..Self::default()
        }
    }

    /// The next row: its id, what its hash covers, and the hashes stored with it.
    pub fn feed(
        &mut self,
        id: i64,
        fields: &EventFields<'_>,
        prev_hash: Option<&str>,
        hash: Option<&str>,
    ) {
        if self.broken.is_some() {
            return;
        }
        let (Some(prev_hash), Some(hash)) = (prev_hash, hash) else {
            if self.head.is_some() {
                self.broken = Some(Break::Unsealed { id });
            } else {
                self.unchained += 1;
            }
            return;
        };
        let expected_prev = self.head.as_ref().map_or(GENESIS, |(_, h)| h.as_str());
        if prev_hash != expected_prev {
            self.broken = Some(Break::Unlinked { id });
            return;
        }
        if fields.link(prev_hash) != hash {
            self.broken = Some(Break::Altered { id });
            return;
        }
        self.chained += 1;
        self.head = Some((id, hash.to_owned()));
        if let Some(claims) = self.claims.remove(&id) {
            for c in claims {
                if c.head_hash != hash || c.events != self.chained {
                    self.broken = Some(Break::Checkpoint {
                        label: c.label,
                        detail: format!(
                            "a linha {id} tem hash {hash} após {} linhas; o ponto assinado diz {} após {} linhas (cadeia reescrita)",
                            self.chained, c.head_hash, c.events
                        ),
                    });
                    return;
                }
            }
        }
    }

    /// After the last row: claims about rows the walk never met are broken too (rows
    /// deleted, or the chain cut short).
    pub fn finish(&mut self) {
        if self.broken.is_some() {
            return;
        }
        if let Some((_, claims)) = self.claims.pop_first()
            && let Some(c) = claims.into_iter().next()
        {
            self.broken = Some(Break::Checkpoint {
                detail: format!(
                    "a linha {} que ele assina não está na cadeia (removida ou cadeia truncada)",
                    c.event_id
                ),
                label: c.label,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn row(i: u32) -> (String, String) {
        (format!("e{i}"), format!("{{\"n\":{i}}}"))
    }

    fn fields<'a>(id: &'a str, data: &'a str) -> EventFields<'a> {
        EventFields {
            entity_type: "driver",
            entity_id: id,
            kind: "registered",
            actor: "a",
            reason: None,
            legal_basis_version: Some("v1"),
            occurred_at: Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap(),
            data,
        }
    }

    /// Five rows chained: (id, entity id, data, prev, hash).
    fn chain() -> Vec<(i64, String, String, String, String)> {
        let mut prev = GENESIS.to_owned();
        (1..=5)
            .map(|i| {
                let (e, d) = row(i);
                let h = fields(&e, &d).link(&prev);
                let r = (i64::from(i), e, d, prev.clone(), h.clone());
                prev = h;
                r
            })
            .collect()
    }

    fn walk(rows: &[(i64, String, String, String, String)], claims: Vec<Claim>) -> ChainWalk {
        let mut w = ChainWalk::new(claims);
        for (id, e, d, p, h) in rows {
            w.feed(*id, &fields(e, d), Some(p), Some(h));
        }
        w.finish();
        w
    }

    #[test]
    fn an_intact_chain_walks_to_its_head() {
        let rows = chain();
        let w = walk(&rows, vec![]);
        assert_eq!(w.broken, None);
        assert_eq!(w.chained, 5);
        assert_eq!(w.head.unwrap().0, 5);
    }

    #[test]
    fn an_edit_a_deletion_and_an_insertion_are_each_found() {
        let mut edited = chain();
        edited[2].2 = "{\"n\":99}".into();
        assert_eq!(walk(&edited, vec![]).broken, Some(Break::Altered { id: 3 }));

        let mut deleted = chain();
        deleted.remove(1);
        assert_eq!(
            walk(&deleted, vec![]).broken,
            Some(Break::Unlinked { id: 3 })
        );

        let mut inserted = chain();
        let forged = (
            3,
            "x".to_owned(),
            "{}".to_owned(),
            inserted[1].4.clone(),
            "f".repeat(64),
        );
        inserted.insert(2, forged);
        assert_eq!(
            walk(&inserted, vec![]).broken,
            Some(Break::Altered { id: 3 })
        );
    }

    #[test]
    fn a_rewritten_chain_is_found_by_its_checkpoint() {
        let honest = chain();
        let claim = Claim {
            label: "2026-12-01".into(),
            event_id: 4,
            events: 4,
            head_hash: honest[3].4.clone(),
        };
        assert_eq!(walk(&honest, vec![claim.clone()]).broken, None);
        // Row 2 edited and every hash after it recomputed: the chain holds together…
        let mut rewritten = chain();
        rewritten[1].2 = "{\"n\":99}".into();
        let mut prev = rewritten[0].4.clone();
        for r in &mut rewritten[1..] {
            r.3.clone_from(&prev);
            r.4 = fields(&r.1, &r.2).link(&prev);
            prev.clone_from(&r.4);
        }
        assert_eq!(walk(&rewritten, vec![]).broken, None);
        // …but not with what was signed.
        assert!(matches!(
            walk(&rewritten, vec![claim.clone()]).broken,
            Some(Break::Checkpoint { .. })
        ));
        // Cut short before the checkpoint's row.
        assert!(matches!(
            walk(&honest[..3], vec![claim]).broken,
            Some(Break::Checkpoint { .. })
        ));
    }

    #[test]
    fn rows_before_the_chain_are_counted_and_a_hashless_row_inside_it_is_a_break() {
        let rows = chain();
        let mut w = ChainWalk::new(vec![]);
        w.feed(0, &fields("old", "{}"), None, None);
        for (id, e, d, p, h) in &rows[..2] {
            w.feed(*id, &fields(e, d), Some(p), Some(h));
        }
        w.feed(3, &fields("x", "{}"), None, None);
        assert_eq!(w.unchained, 1);
        assert_eq!(w.broken, Some(Break::Unsealed { id: 3 }));
    }

    #[test]
    fn the_hash_covers_every_field_and_sub_microseconds_do_not_count() {
        let base = fields("e", "{}");
        let h = base.link(GENESIS);
        assert_ne!(
            h,
            EventFields {
                reason: Some(""),
                ..base
            }
            .link(GENESIS)
        );
        assert_ne!(h, EventFields { actor: "b", ..base }.link(GENESIS));
        assert_ne!(h, base.link(&"1".repeat(64)));
        let at = base.occurred_at + chrono::Duration::nanoseconds(1_000_400);
        assert_eq!(
            to_micros(at),
            base.occurred_at + chrono::Duration::microseconds(1_000)
        );
    }
}
