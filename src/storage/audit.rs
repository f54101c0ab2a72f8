//! The audit chain's rows and its signed checkpoints, for both backends. The hash
//! itself is `domain::audit`; rows join the chain in `append_event!` (storage.rs).

use chrono::{DateTime, Utc};

use super::{StorageError, Store};
use crate::domain::audit::EventFields;

/// One event row as the chain walk reads it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ChainRow {
    pub id: i64,
    pub entity_type: String,
    pub entity_id: String,
    pub kind: String,
    pub actor: String,
    pub reason: Option<String>,
    pub legal_basis_version: Option<String>,
    pub occurred_at: DateTime<Utc>,
    pub data: String,
    pub prev_hash: Option<String>,
    pub hash: Option<String>,
}

impl ChainRow {
    /// What the row's hash covers.
    pub fn fields(&self) -> EventFields<'_> {
        EventFields {
            entity_type: &self.entity_type,
            entity_id: &self.entity_id,
            kind: &self.kind,
            actor: &self.actor,
            reason: self.reason.as_deref(),
            legal_basis_version: self.legal_basis_version.as_deref(),
            occurred_at: self.occurred_at,
            data: &self.data,
        }
    }
}

/// A signed checkpoint, as stored and as published (`GET /api/v1/audit/checkpoints`): what a
/// copy held elsewhere keeps.
#[derive(Debug, Clone, sqlx::FromRow, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct Checkpoint {
    /// The legal day (America/Cuiaba) it was made.
    pub day: String,
    /// The chain's last row then (0: empty chain).
    pub event_id: i64,
    /// How many rows the chain had then.
    pub events: i64,
    /// That row's hash (SHA-256, hex).
    pub head_hash: String,
    pub signed_at: DateTime<Utc>,
    /// The key that signed it (the JWK Set's `kid`).
    pub kid: String,
    /// `COSE_Sign1` (base64url) over what the other fields say; the fields are a reading aid,
    /// the token is the checkpoint.
    pub token: String,
}

/// The chain's head when a checkpoint is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// The last row of the chain (0 while it is empty).
    pub event_id: i64,
    /// How many rows it has.
    pub events: u64,
    /// The last row's hash (the genesis value while empty).
    pub hash: String,
}

/// A checkpoint to store: the signed token of a head, and who signed it.
pub struct Signed {
    pub kid: String,
    pub token: String,
}

const ROWS: &str = "SELECT id, entity_type, entity_id, kind, actor, reason, legal_basis_version, \
    occurred_at, data, prev_hash, hash FROM events WHERE id > $1 ORDER BY id LIMIT $2";
const HEAD: &str = "SELECT id, hash FROM events WHERE hash IS NOT NULL ORDER BY id DESC LIMIT 1";
const CHAINED: &str = "SELECT COUNT(*) FROM events WHERE hash IS NOT NULL";
const INSERT_CHECKPOINT: &str = "INSERT INTO audit_checkpoints \
    (day, event_id, events, head_hash, signed_at, kid, token) VALUES ($1, $2, $3, $4, $5, $6, $7)";
const CHECKPOINTS: &str = "SELECT day, event_id, events, head_hash, signed_at, kid, token \
    FROM audit_checkpoints ORDER BY id DESC LIMIT $1";
const CHECKPOINT_ON: &str = "SELECT COUNT(*) FROM audit_checkpoints WHERE day = $1";

impl Store {
    /// Up to `limit` event rows after row `after`, in `id` order.
    pub async fn chain_rows(&self, after: i64, limit: i64) -> Result<Vec<ChainRow>, StorageError> {
        Ok(on_backend!(self, |pool, _begin| {
            sqlx::query_as(ROWS)
                .bind(after)
                .bind(limit)
                .fetch_all(pool)
                .await?
        }))
    }

    /// Signs the chain's head now and stores the checkpoint, in one write transaction (so the
    /// head is not moving meanwhile). `sign` gets the head.
    pub async fn checkpoint(
        &self,
        day: &str,
        at: DateTime<Utc>,
        sign: impl FnOnce(&Head) -> Signed,
    ) -> Result<Checkpoint, StorageError> {
        on_backend!(self, |_pool, begin| {
            let mut tx = begin().await?;
            let head: Option<(i64, String)> = sqlx::query_as(HEAD).fetch_optional(&mut *tx).await?;
            let (events,): (i64,) = sqlx::query_as(CHAINED).fetch_one(&mut *tx).await?;
            let (event_id, hash) =
                head.unwrap_or_else(|| (0, crate::domain::audit::GENESIS.to_owned()));
            let head = Head {
                event_id,
                events: u64::try_from(events).unwrap_or_default(),
                hash,
            };
            let signed = sign(&head);
            sqlx::query(INSERT_CHECKPOINT)
                .bind(day)
                .bind(head.event_id)
                .bind(events)
                .bind(&head.hash)
                .bind(at)
                .bind(&signed.kid)
                .bind(&signed.token)
                .execute(&mut *tx)
                .await?;
            // No verification reads checkpoints: the caches stay warm.
            tx.commit_unseen().await?;
            Ok(Checkpoint {
                day: day.to_owned(),
                event_id: head.event_id,
                events,
                head_hash: head.hash,
                signed_at: at,
                kid: signed.kid,
                token: signed.token,
            })
        })
    }

    /// The latest `limit` checkpoints, newest first.
    pub async fn checkpoints(&self, limit: i64) -> Result<Vec<Checkpoint>, StorageError> {
        Ok(on_backend!(self, |pool, _begin| {
            sqlx::query_as(CHECKPOINTS)
                .bind(limit)
                .fetch_all(pool)
                .await?
        }))
    }

    /// Whether a checkpoint was made on the legal day `day`.
    pub async fn checkpoint_made_on(&self, day: &str) -> Result<bool, StorageError> {
        let (n,): (i64,) = on_backend!(self, |pool, _begin| {
            sqlx::query_as(CHECKPOINT_ON)
                .bind(day)
                .fetch_one(pool)
                .await?
        });
        Ok(n > 0)
    }
}
