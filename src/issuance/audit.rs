//! Use cases of the audit chain: signing a checkpoint of its head (daily, and on
//! demand from the command line), and walking it against every checkpoint known.

use chrono::{DateTime, Utc};

use crate::domain::audit::{Break, ChainWalk, Claim};
use crate::domain::dates::local_date;
use crate::signing::checkpoint::{self, CheckpointPayload};
use crate::signing::keys::{ActiveKey, KeySet};
pub use crate::storage::audit::Checkpoint;
use crate::storage::audit::{Head, Signed};
use crate::storage::{StorageError, Store};

/// Signs the chain's head now.
pub async fn checkpoint_now(
    store: &Store,
    key: &ActiveKey,
    now: DateTime<Utc>,
) -> Result<Checkpoint, StorageError> {
    let day = local_date(now).to_string();
    let sign = |head: &Head| Signed {
        kid: key.kid().to_owned(),
        token: checkpoint::sign(
            &CheckpointPayload {
                day: day.clone(),
                event_id: head.event_id,
                events: head.events,
                head_hash: head.hash.clone(),
                signed_at: now.timestamp(),
            },
            key,
        ),
    };
    store.checkpoint(&day, now, sign).await
}

/// The daily checkpoint: made unless one was made on today's legal day.
pub async fn checkpoint_if_due(
    store: &Store,
    key: &ActiveKey,
    now: DateTime<Utc>,
) -> Result<Option<Checkpoint>, StorageError> {
    if store
        .checkpoint_made_on(&local_date(now).to_string())
        .await?
    {
        return Ok(None);
    }
    checkpoint_now(store, key, now).await.map(Some)
}

/// Signs the day's checkpoint when due: now, and every 10 minutes (several nodes may both
/// make one on the same day; each is valid).
pub fn spawn_daily_checkpoints(state: crate::state::AppState) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_mins(10));
        loop {
            tick.tick().await;
            let now = state.clock.now();
            match checkpoint_if_due(&state.store, &state.keys.active, now).await {
                Ok(Some(c)) => {
                    tracing::info!(day = %c.day, event_id = c.event_id, "audit checkpoint signed");
                }
                Ok(None) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "audit checkpoint not made; retrying in 10 minutes");
                }
            }
        }
    });
}

/// The published checkpoints, newest first (at most 400: more than a year of days).
pub async fn checkpoints(store: &Store) -> Result<Vec<Checkpoint>, StorageError> {
    store.checkpoints(400).await
}

/// What the walk of the chain found.
#[derive(Debug)]
pub struct AuditReport {
    /// Rows written before the chain began (before migration 0017): not covered.
    pub unchained: u64,
    /// Rows of the chain walked.
    pub chained: u64,
    /// Its last row: id and hash.
    pub head: Option<(i64, String)>,
    /// Checkpoints whose signature and claim were checked (stored and held).
    pub checkpoints: usize,
    /// The first broken link, if any.
    pub broken: Option<Break>,
}

/// Walks the whole chain, checking every stored checkpoint and every `held` one (copies kept
/// outside the database, which a rewrite of the database cannot touch). A checkpoint whose
/// signature does not verify is a break of its own.
pub async fn verify_chain(
    store: &Store,
    keys: &KeySet,
    held: Vec<Checkpoint>,
) -> Result<AuditReport, StorageError> {
    let stored = checkpoints(store).await?;
    let mut claims = Vec::new();
    let mut bad_signature = None;
    let count = stored.len() + held.len();
    for (origin, c) in stored
        .into_iter()
        .map(|c| ("registrado no banco", c))
        .chain(held.into_iter().map(|c| ("guardado fora do banco", c)))
    {
        let label = format!("de {} ({origin}, linha {})", c.day, c.event_id);
        match checkpoint::verify(&c.token, keys) {
            Ok(p) => claims.push(Claim {
                label,
                event_id: p.event_id,
                events: p.events,
                head_hash: p.head_hash,
            }),
            Err(_) => {
                bad_signature.get_or_insert(Break::Checkpoint {
                    label,
                    detail: "a assinatura não confere com as chaves publicadas".into(),
                });
            }
        }
    }
    // An empty chain's checkpoint claims nothing about a row.
    claims.retain(|c| c.event_id > 0);
    let mut walk = ChainWalk::new(claims);
    let mut after = 0;
    loop {
        let rows = store.chain_rows(after, 5_000).await?;
        let Some(last) = rows.last() else { break };
        after = last.id;
        for r in &rows {
            walk.feed(r.id, &r.fields(), r.prev_hash.as_deref(), r.hash.as_deref());
        }
        if walk.broken.is_some() {
            break;
        }
    }
    walk.finish();
    Ok(AuditReport {
        unchained: walk.unchained,
        chained: walk.chained,
        head: walk.head,
        checkpoints: count,
        broken: bad_signature.or(walk.broken),
    })
}
