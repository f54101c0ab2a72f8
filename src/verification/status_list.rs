//! The signed status list: every document that does not verify `valid` now, signed
//! with the document keys, for verifiers that work offline (`signing::status_list` holds the
//! format).
//!
//! The list follows the acts, not the register. The first list of a legal day judges every
//! document (by the same dispatch as a scan, a page at a time); after that, a request reads
//! the change log (`storage::changes`) since the list was built and judges again only the
//! documents of the scopes it names (the driver's, the company's), so its cost after an act
//! does not grow with the register. An act on everything (the calendar, the UPF, a legal
//! basis), a log pruned past the list, or a new legal day judges everything again. The list
//! is signed again at least hourly; while the register does not answer, the last list built
//! is served until it expires. The list is built in a task of its own, kept up to date in the
//! background every few minutes, and a request that waits for a build longer than
//! [`WAIT_FOR_BUILD`] (a new legal day on a large register) is served the last list built
//! while it has not expired.
//!
//! Version 2 of the list leaves out the documents expired by their own last day (the token
//! says it), and a verifier that holds an earlier version-2 list asks for what changed since
//! its `ETag`: the steps between the lists are kept ([`HISTORY_STEPS`]) and composed into one
//! signed delta.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use chrono::{DateTime, Duration, NaiveDate, Utc};
use futures_util::StreamExt;
use sha2::{Digest, Sha256};
use uuid::Uuid;

pub use super::cache::SignedList;
use super::cache::{Built, Listed, Step, VerdictCache};
use super::resident::ResidentVerdicts;
use super::{Judged, Verdict, lookup};
use crate::domain::dates::local_date;
use crate::signing::status_list::{self, StatusDelta, StatusEntry, StatusList};
use crate::state::AppState;
use crate::storage::StorageError;
use crate::storage::documents::Document;

/// How long a list is good for: verifiers warn past its expiry.
pub const VALID_FOR: Duration = Duration::hours(24);
/// How long a request waits for a list being built before it is served the last one built.
const WAIT_FOR_BUILD: std::time::Duration = std::time::Duration::from_secs(2);
/// How long a list is served before it is signed again, even with no act in between.
const RESIGN_AFTER: Duration = Duration::hours(1);
/// Documents read at once when the whole register is judged.
const PAGE: i64 = 2_000;
/// Documents of a page judged at once when the whole register is judged.
const JUDGED_AT_ONCE: usize = 16;
/// The change log's rows kept behind the newest: a reader further behind starts over.
const LOG_KEPT: i64 = 100_000;
/// Steps between version-2 lists kept for deltas, and the entries they may hold in all.
pub const HISTORY_STEPS: usize = 256;
const HISTORY_ENTRIES: usize = 100_000;

/// The version-2 answer to a verifier that may hold an earlier list.
#[derive(Debug, Clone)]
pub enum V2 {
    /// The whole list.
    Full(SignedList),
    /// What changed since the list it holds: signed delta bytes, and the current list's tag.
    Delta {
        bytes: Arc<Vec<u8>>,
        etag: String,
        expires_at: DateTime<Utc>,
    },
    /// It holds the current list.
    Unchanged(String),
}

/// How old the list kept is at `now`, in seconds; `None` when none was built yet or one is
/// being built this moment (the metrics do not wait for it).
pub fn age_seconds(cache: &VerdictCache, now: DateTime<Utc>) -> Option<i64> {
    let kept = cache.status_list.try_lock().ok()?;
    kept.as_ref().map(|b| (now - b.at).num_seconds())
}

/// The list now: the one kept if it still holds, else one brought up to date now; `None`
/// when the register does not answer and no unexpired list was built before.
pub async fn current(
    state: &AppState,
    cache: &Arc<VerdictCache>,
    now: DateTime<Utc>,
) -> Option<SignedList> {
    with_current(state, cache, now, |b| b.list.clone(), |v1, _| v1.clone()).await
}

/// Brings the list up to date every few minutes in the background (the first time a few
/// minutes after the start), so that the first request of a legal day, when every document is
/// judged again, finds it built rather than waiting for it.
pub fn spawn_upkeep(state: AppState, cache: Arc<VerdictCache>) {
    tokio::spawn(async move {
        let every = std::time::Duration::from_mins(5);
        let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        loop {
            tick.tick().await;
            if current(&state, &cache, state.clock.now()).await.is_none() {
                tracing::warn!("status list: no list could be built in the background");
            }
        }
    });
}

/// The version-2 list now for a verifier holding the list of `ETag` `since` (if any): the
/// whole list, or a signed delta from the one it holds, or that it is current.
pub async fn current_v2(
    state: &AppState,
    cache: &Arc<VerdictCache>,
    now: DateTime<Utc>,
    since: Option<&str>,
) -> Option<V2> {
    with_current(
        state,
        cache,
        now,
        |b| match since {
            Some(tag) if tag == b.list_v2.etag => V2::Unchanged(b.list_v2.etag.clone()),
            Some(tag) => delta_since(state, b, tag).unwrap_or_else(|| V2::Full(b.list_v2.clone())),
            None => V2::Full(b.list_v2.clone()),
        },
        |_, v2| match since {
            Some(tag) if tag == v2.etag => V2::Unchanged(v2.etag.clone()),
            _ => V2::Full(v2.clone()),
        },
    )
    .await
}

/// The steps after the list of `ETag` `tag`, composed and signed; `None` when that list is not
/// among the steps kept.
fn delta_since(state: &AppState, b: &Built, tag: &str) -> Option<V2> {
    let from = b.history.iter().position(|s| s.base == tag)?;
    let mut changed: BTreeMap<Uuid, Option<StatusEntry>> = BTreeMap::new();
    for step in b.history.iter().skip(from) {
        for id in &step.del {
            changed.insert(*id, None);
        }
        for e in &step.set {
            changed.insert(e.document_id, Some(e.clone()));
        }
    }
    let mut delta = StatusDelta {
        issued_at: b.at.timestamp(),
        expires_at: b.list_v2.expires_at.timestamp(),
        base: tag.to_owned(),
        set: Vec::new(),
        del: Vec::new(),
    };
    for (id, e) in changed {
        match e {
            Some(e) => delta.set.push(e),
            None => delta.del.push(id),
        }
    }
    Some(V2::Delta {
        bytes: Arc::new(status_list::sign_delta(&delta, &state.keys.active)),
        etag: b.list_v2.etag.clone(),
        expires_at: b.list_v2.expires_at,
    })
}

/// `f` of the list kept, brought up to date first when it no longer holds.
async fn with_current<T>(
    state: &AppState,
    cache: &Arc<VerdictCache>,
    now: DateTime<Utc>,
    f: impl FnOnce(&Built) -> T,
    while_building: impl FnOnce(&SignedList, &SignedList) -> T,
) -> Option<T> {
    let generation = state.store.changes().generation();
    if let Ok(kept) = cache.status_list.try_lock()
        && let Some(b) = kept.as_ref()
        && current_at(b, generation, now)
    {
        return Some(f(b));
    }
    // Brought up to date in a task of its own: a request that stops waiting (its deadline)
    // does not stop the build, which the requests after it then find.
    let (task_state, task_cache) = (state.clone(), Arc::clone(cache));
    let mut task =
        tokio::spawn(
            async move { bring_up_to_date(&task_state, &task_cache, generation, now).await },
        );
    let built = if let Ok(done) = tokio::time::timeout(WAIT_FOR_BUILD, &mut task).await {
        done.unwrap_or(false)
    } else {
        // A long build (a new legal day judging a large register again): the last lists
        // built are served while they hold.
        let last = cache
            .last_built
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        if let Some((v1, v2)) = last.filter(|(v1, _)| v1.expires_at > now) {
            return Some(while_building(&v1, &v2));
        }
        task.await.unwrap_or(false)
    };
    let kept = cache.status_list.lock().await;
    kept.as_ref()
        .filter(|b| built || b.list.expires_at > now)
        .map(f)
}

/// Whether list `b` is the one to serve at `now` for register `generation`.
fn current_at(b: &Built, generation: u64, now: DateTime<Utc>) -> bool {
    b.generation == generation
        && b.at <= now
        && now - b.at < RESIGN_AFTER
        && local_date(b.at) == local_date(now)
}

/// Brings the list kept up to `now` (one build at a time: the others wait for it and take
/// it); `false` when the register did not answer, and the last list built is all there is.
async fn bring_up_to_date(
    state: &AppState,
    cache: &VerdictCache,
    generation: u64,
    now: DateTime<Utc>,
) -> bool {
    let mut kept = cache.status_list.lock().await;
    if kept
        .as_ref()
        .is_some_and(|b| current_at(b, generation, now))
    {
        return true;
    }
    match refresh(state, &cache.resident, kept.as_ref(), generation, now).await {
        Ok(Some(built)) => {
            *cache
                .last_built
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) =
                Some((built.list.clone(), built.list_v2.clone()));
            *kept = Some(built);
            true
        }
        // No act logged since: the list kept stands for this generation too.
        Ok(None) => {
            if let Some(b) = kept.as_mut() {
                b.generation = generation;
            }
            true
        }
        Err(e) => {
            tracing::warn!(error = %e, "status list: the register did not answer; serving the last one built");
            false
        }
    }
}

/// The register did not answer while the list was judged.
#[derive(Debug)]
struct Unavailable;

impl std::fmt::Display for Unavailable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a document's status could not be read")
    }
}

impl From<StorageError> for Unavailable {
    fn from(e: StorageError) -> Self {
        tracing::warn!(error = %e, "status list: reading the register failed");
        Self
    }
}

/// `old` brought up to `now`: only the documents the acts logged since touched, or every
/// document when that cannot be told; `None` when no act was logged since `old`, signed
/// under [`RESIGN_AFTER`] ago, was built.
async fn refresh(
    state: &AppState,
    resident: &ResidentVerdicts,
    old: Option<&Built>,
    generation: u64,
    now: DateTime<Utc>,
) -> Result<Option<Built>, Unavailable> {
    let today = local_date(now);
    let store = &state.store;
    if let Some(old) = old.filter(|o| o.day == today) {
        let (rows, complete) = store.changes_since(old.seq).await?;
        if rows.is_empty() && old.at <= now && now - old.at < RESIGN_AFTER {
            return Ok(None);
        }
        let whole = !complete || rows.iter().any(|(_, scope)| scope == "*");
        if !whole {
            let scopes: BTreeSet<&str> = rows.iter().map(|(_, s)| s.as_str()).collect();
            let mut entries = old.entries.clone();
            let mut judged = BTreeSet::new();
            for scope in scopes {
                for doc in store.documents_of_scope(scope).await? {
                    judged.insert(doc.id);
                    judge(state, resident, doc, now, &mut entries).await?;
                }
            }
            let seq = rows.last().map_or(old.seq, |(s, _)| *s);
            state
                .metrics
                .status_list_built("incremental", judged.len() as u64);
            let step = (Some(old), judged);
            return Ok(Some(signed(
                state, entries, step, seq, today, generation, now,
            )));
        }
    }
    // This node's reading of the log brought up to date, so that the verdicts judged here
    // are kept for the day's scans (`resident`: only those read after a known point).
    store.changes_caught_up().await?;
    // Where the log ends before the register is read: acts after it are judged next time.
    let seq = store.change_bounds().await?.1.unwrap_or(0);
    let mut entries = BTreeMap::new();
    let mut judged = 0_u64;
    let mut after = None;
    loop {
        let page = store.documents_after(after, PAGE).await?;
        let Some(last) = page.last() else { break };
        after = Some(last.id);
        // A page's documents judged [`JUDGED_AT_ONCE`] at a time: their status reads are
        // made together (`storage::status_reads`), and kept in the page's order.
        let mut verdicts = futures_util::stream::iter(page)
            .map(|doc| verdict_of(state, resident, doc, now))
            .buffered(JUDGED_AT_ONCE);
        while let Some(verdict) = verdicts.next().await {
            judged += 1;
            keep(&mut entries, verdict)?;
        }
    }
    state.metrics.status_list_built("full", judged);
    let candidates = old
        .map(|o| o.entries.keys().chain(entries.keys()).copied().collect())
        .unwrap_or_default();
    if seq > LOG_KEPT
        && let Err(e) = store.prune_changes(seq - LOG_KEPT).await
    {
        tracing::warn!(error = %e, "status list: pruning the change log failed");
    }
    Ok(Some(signed(
        state,
        entries,
        (old, candidates),
        seq,
        today,
        generation,
        now,
    )))
}

/// `doc`'s verdict now, kept in `entries` when it is not `valid`.
async fn judge(
    state: &AppState,
    resident: &ResidentVerdicts,
    doc: Document,
    now: DateTime<Utc>,
    entries: &mut BTreeMap<Uuid, Listed>,
) -> Result<(), Unavailable> {
    keep(entries, verdict_of(state, resident, doc, now).await)
}

/// `doc`'s verdict now: its id, whether its validity has lapsed, and the verdict.
async fn verdict_of(
    state: &AppState,
    resident: &ResidentVerdicts,
    doc: Document,
    now: DateTime<Utc>,
) -> (Uuid, bool, Judged) {
    let id = doc.id;
    let lapsed = doc.valid_until.is_some_and(|u| u < local_date(now));
    (
        id,
        lapsed,
        lookup(state, Ok(Some(doc)), now, Some(resident), |_| true).await,
    )
}

/// A verdict kept in `entries` when it is not `valid`.
fn keep(
    entries: &mut BTreeMap<Uuid, Listed>,
    (id, lapsed, judged): (Uuid, bool, Judged),
) -> Result<(), Unavailable> {
    let Judged {
        verdict, document, ..
    } = judged;
    match verdict {
        Verdict::Valid => {
            entries.remove(&id);
        }
        Verdict::StatusUnavailable => return Err(Unavailable),
        other => {
            entries.insert(
                id,
                Listed {
                    entry: StatusEntry {
                        document_id: id,
                        status: other.as_str().into(),
                        until: document
                            .filter(|_| other == Verdict::Suspended)
                            .and_then(|d| d.suspended_until),
                    },
                    lapsed,
                },
            );
        }
    }
    Ok(())
}

/// The lists of `entries`, signed at `now`, with the version-2 step from the list before
/// (`previous`: that list and the documents that may differ from it).
fn signed(
    state: &AppState,
    entries: BTreeMap<Uuid, Listed>,
    (previous, candidates): (Option<&Built>, BTreeSet<Uuid>),
    seq: i64,
    day: NaiveDate,
    generation: u64,
    now: DateTime<Utc>,
) -> Built {
    let all = |v2: bool| StatusList {
        issued_at: now.timestamp(),
        expires_at: (now + VALID_FOR).timestamp(),
        entries: entries
            .values()
            .filter(|l| !v2 || l.in_v2())
            .map(|l| l.entry.clone())
            .collect(),
    };
    let list = served(status_list::sign(&all(false), &state.keys.active), now);
    let list_v2 = served(status_list::sign_v2(&all(true), &state.keys.active), now);
    let mut history = previous.map(|p| p.history.clone()).unwrap_or_default();
    if let Some(p) = previous {
        let in_v2 = |m: &BTreeMap<Uuid, Listed>, id: &Uuid| {
            m.get(id).filter(|l| l.in_v2()).map(|l| l.entry.clone())
        };
        let mut step = Step {
            base: p.list_v2.etag.clone(),
            set: Vec::new(),
            del: Vec::new(),
        };
        for id in &candidates {
            match (in_v2(&p.entries, id), in_v2(&entries, id)) {
                (before, Some(after)) if before.as_ref() != Some(&after) => step.set.push(after),
                (Some(_), None) => step.del.push(*id),
                _ => {}
            }
        }
        history.push_back(step);
        while history.len() > HISTORY_STEPS
            || history
                .iter()
                .map(|s| s.set.len() + s.del.len())
                .sum::<usize>()
                > HISTORY_ENTRIES
        {
            history.pop_front();
        }
    }
    Built {
        generation,
        at: now,
        list,
        seq,
        day,
        entries,
        list_v2,
        history,
    }
}

/// Signed bytes as served, with their strong `ETag`.
fn served(bytes: Vec<u8>, now: DateTime<Utc>) -> SignedList {
    let digest = Sha256::digest(&bytes);
    SignedList {
        etag: format!("\"{}\"", crate::signing::hex(&digest[..16])),
        bytes: Arc::new(bytes),
        expires_at: now + VALID_FOR,
    }
}
