//! The signed status list: every document that does not verify `valid` now, signed
//! with the document keys, for verifiers that work offline (`signing::status_list` holds the
//! format). Built from the register by the same dispatch as a scan, then kept while the
//! register's generation and the legal day hold, for an hour at most; while the register does
//! not answer, the last list built is served until it expires.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use sha2::{Digest, Sha256};

pub use super::cache::SignedList;
use super::cache::{Built, VerdictCache};
use super::{Verdict, lookup};
use crate::domain::dates::local_date;
use crate::signing::status_list::{self, StatusEntry, StatusList};
use crate::state::AppState;

/// How long a list is good for: verifiers warn past its expiry.
pub const VALID_FOR: Duration = Duration::hours(24);
/// How long a list is served before it is built again, even with no act in between.
const REBUILD_AFTER: Duration = Duration::hours(1);

/// How old the list kept is at `now`, in seconds; `None` when none was built yet or one is
/// being built this moment (the metrics do not wait for it).
pub fn age_seconds(cache: &VerdictCache, now: DateTime<Utc>) -> Option<i64> {
    let kept = cache.status_list.try_lock().ok()?;
    kept.as_ref().map(|b| (now - b.at).num_seconds())
}

/// The list now: the one kept if it still holds, else one built now; `None` when the register
/// does not answer and no unexpired list was built before.
pub async fn current(
    state: &AppState,
    cache: &VerdictCache,
    now: DateTime<Utc>,
) -> Option<SignedList> {
    let generation = state.store.changes().generation();
    // One build at a time: the others wait for it and take it.
    let mut kept = cache.status_list.lock().await;
    if let Some(b) = kept.as_ref()
        && b.generation == generation
        && b.at <= now
        && now - b.at < REBUILD_AFTER
        && local_date(b.at) == local_date(now)
    {
        return Some(b.list.clone());
    }
    if let Some(list) = build(state, now).await {
        *kept = Some(Built {
            generation,
            at: now,
            list: list.clone(),
        });
        Some(list)
    } else {
        tracing::warn!("status list: the register did not answer; serving the last one built");
        kept.as_ref()
            .filter(|b| b.list.expires_at > now)
            .map(|b| b.list.clone())
    }
}

/// Every document's verdict now; `None` if the register did not answer for one of them.
async fn build(state: &AppState, now: DateTime<Utc>) -> Option<SignedList> {
    let docs = state.store.all_documents().await.ok()?;
    let mut entries = Vec::new();
    for doc in docs {
        let id = doc.id;
        let (verdict, document) = lookup(state, Ok(Some(doc)), now, |_| true).await;
        match verdict {
            Verdict::Valid => {}
            Verdict::StatusUnavailable => return None,
            other => entries.push(StatusEntry {
                document_id: id,
                status: other.as_str().to_owned(),
                until: document
                    .filter(|_| other == Verdict::Suspended)
                    .and_then(|d| d.suspended_until),
            }),
        }
    }
    let list = StatusList {
        issued_at: now.timestamp(),
        expires_at: (now + VALID_FOR).timestamp(),
        entries,
    };
    let bytes = status_list::sign(&list, &state.keys.active);
    let digest = Sha256::digest(&bytes);
    let etag = format!("\"{}\"", crate::signing::hex(&digest[..16]));
    Some(SignedList {
        bytes: Arc::new(bytes),
        etag,
        expires_at: now + VALID_FOR,
    })
}
