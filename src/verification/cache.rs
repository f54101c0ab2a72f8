//! Verification from memory: the answer for a token, by its exact bytes, while the
//! register is unchanged.
//!
//! A scan of a sticker already verified answers without the signature check (the same bytes
//! verified under the same keys, which a process never changes) and without the database.
//! An entry is served only while
//! - no act logged after the entry's register read touched its scope (the document's driver
//!   or company, `storage::changes`): an act of this node, or (PostgreSQL) of another node,
//!   makes the answers of the documents it may have changed stale, so a revoked sticker
//!   verifies `revoked` on the very next scan, while the other answers stay warm;
//! - the legal day (America/Cuiaba) is the same and the entry is under [`FRESH_FOR`] old:
//!   a status also changes with the date (expiry, the end of a suspension, a vistoria due),
//!   and the age bounds what a lost notification could leave stale.
//!
//! While the database is unreachable, an entry no commit has made stale and under
//! [`LAST_KNOWN_FOR`] old is the last known status, given beside `status_unavailable` with
//! its age; it is never given as the verdict.
//!
//! Only answers about authentic tokens are kept (a forged token costs its signature check
//! every time), so the entries are bounded by the documents the register holds, and by
//! [`MAX_ENTRIES`].

use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};

use chrono::{DateTime, Duration, Utc};
use uuid::Uuid;

use super::{LastKnown, PublicDocument, Verdict, Verification};
use crate::domain::dates::local_date;
use crate::signing::status_list::StatusEntry;
use crate::storage::changes::Changes;

/// A list as served.
#[derive(Debug, Clone)]
pub struct SignedList {
    /// Tagged `COSE_Sign1` bytes.
    pub bytes: Arc<Vec<u8>>,
    /// A strong `ETag` (quoted): SHA-256 of the bytes, first 32 hex digits.
    pub etag: String,
    pub expires_at: DateTime<Utc>,
}

/// A status list built under a generation (`status_list` builds it; the cache keeps it).
#[derive(Debug)]
pub(super) struct Built {
    pub(super) generation: u64,
    /// When it was signed.
    pub(super) at: DateTime<Utc>,
    pub(super) list: SignedList,
    /// The change log's last sequence number its entries account for.
    pub(super) seq: i64,
    /// The legal day its entries were judged on.
    pub(super) day: chrono::NaiveDate,
    /// Every document not valid, by id.
    pub(super) entries: std::collections::BTreeMap<uuid::Uuid, Listed>,
    /// The same list in version 2 (without the documents past their own last day).
    pub(super) list_v2: SignedList,
    /// What changed in version 2 from each list before it to the next, oldest first.
    pub(super) history: std::collections::VecDeque<Step>,
}

/// A document listed, and whether its own last day has passed (version 2 leaves out the
/// expired ones that have: the token carries that day).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    pub entry: StatusEntry,
    pub lapsed: bool,
}

impl Listed {
    pub fn in_v2(&self) -> bool {
        !(self.lapsed && self.entry.status == Verdict::Expired.as_str())
    }
}

/// What changed in version 2 from the list of `ETag` `base` to the next one.
#[derive(Debug, Clone)]
pub struct Step {
    pub base: String,
    pub set: Vec<StatusEntry>,
    pub del: Vec<Uuid>,
}

/// How long an answer is served from memory without reading the register again: the bound
/// on staleness should a notification from another node be lost (a network partition).
pub const FRESH_FOR: Duration = Duration::seconds(5);
/// How old the last known status may be to be shown while the database is unreachable.
pub const LAST_KNOWN_FOR: Duration = Duration::minutes(15);
/// At most this many tokens are kept: the newer half and the older. When the newer half is
/// full it becomes the older, and the older is dropped, outside the lock (freeing tens of
/// thousands of answers under it held every scan for milliseconds, each time the cache
/// filled, which a register scanned token after token does every few seconds).
pub const MAX_ENTRIES: usize = 50_000;

/// The answers kept, in two halves of at most [`MAX_ENTRIES`] / 2 tokens each.
#[derive(Debug, Default)]
struct Halves {
    newer: HashMap<Box<str>, Entry>,
    older: HashMap<Box<str>, Entry>,
}

impl Halves {
    fn get(&self, token: &str) -> Option<&Entry> {
        self.newer.get(token).or_else(|| self.older.get(token))
    }
}

#[derive(Debug)]
struct Entry {
    /// The change log's last sequence number read before the register was.
    read_seq: i64,
    /// The change log's scope of the document's status; `None`: any change.
    scope: Option<Box<str>>,
    at: DateTime<Utc>,
    verdict: Verdict,
    document: Option<PublicDocument>,
    reason: Option<String>,
}

/// How many locks share out the tokens being computed.
const STRIPES: usize = 64;
/// How long a scan waits for another scan of the same token to fill the entry before
/// computing its own: short, so a database that hangs never queues scans behind each other.
const WAIT_FOR_OTHER: std::time::Duration = std::time::Duration::from_millis(25);

/// The answers for tokens, in process.
#[derive(Debug)]
pub struct VerdictCache {
    entries: RwLock<Halves>,
    /// One computation per token at a time: when an entry expires under load, the scans
    /// that miss together wait for the first one instead of all reading the register.
    computing: [tokio::sync::Mutex<()>; STRIPES],
    /// The signed status list last built (`status_list`), and the lock of its building.
    pub(super) status_list: tokio::sync::Mutex<Option<Built>>,
    /// The last lists built (versions 1 and 2), served while a long build holds the lock.
    pub(super) last_built: std::sync::Mutex<Option<(SignedList, SignedList)>>,
    /// The day's verdicts of ride-hailing documents, by document.
    pub(super) resident: super::resident::ResidentVerdicts,
}

impl Default for VerdictCache {
    fn default() -> Self {
        Self::new(crate::settings::Limits::default().resident_verdicts)
    }
}

impl VerdictCache {
    /// A cache keeping the day's verdicts of at most `resident` ride-hailing documents.
    pub fn new(resident: usize) -> Self {
        Self {
            entries: RwLock::default(),
            computing: std::array::from_fn(|_| tokio::sync::Mutex::new(())),
            status_list: tokio::sync::Mutex::new(None),
            last_built: std::sync::Mutex::new(None),
            resident: super::resident::ResidentVerdicts::new(resident),
        }
    }

    /// Waits (briefly) for the right to compute `token`'s answer; then check [`Self::fresh`]
    /// again, another scan may have filled it. `None` when the wait ran out: compute anyway.
    pub async fn compute_turn(&self, token: &str) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        let stripe = usize::try_from(stripe_hash(token) % STRIPES as u64).unwrap_or(0);
        tokio::time::timeout(WAIT_FOR_OTHER, self.computing[stripe].lock())
            .await
            .ok()
    }

    /// The answer for `token`, if no change `changes` knows of touched its scope since it
    /// was read, on the legal day of `now`, under [`FRESH_FOR`] ago, as of `now`. A commit
    /// whose log is not read yet makes nothing fresh (`Changes::read_point`).
    pub fn fresh(
        &self,
        token: &str,
        changes: &Changes,
        now: DateTime<Utc>,
    ) -> Option<Verification> {
        changes.read_point()?;
        let entries = self.entries.read().unwrap_or_else(PoisonError::into_inner);
        let e = entries.get(token)?;
        let fresh = e.at <= now
            && now - e.at < FRESH_FOR
            && local_date(e.at) == local_date(now)
            && !changes.stale(e.scope.as_deref(), e.read_seq);
        fresh.then(|| Verification {
            verdict: e.verdict,
            checked_at: now,
            document: e.document.clone(),
            reason: e.reason.clone(),
            last_known: None,
            record: None,
        })
    }

    /// The last status read for `token`, if no act known to this node made it stale and it
    /// is under [`LAST_KNOWN_FOR`] old: what to say while the database does not answer.
    pub fn last_known(
        &self,
        token: &str,
        changes: &Changes,
        now: DateTime<Utc>,
    ) -> Option<(LastKnown, PublicDocument)> {
        changes.read_point()?;
        let entries = self.entries.read().unwrap_or_else(PoisonError::into_inner);
        let e = entries.get(token)?;
        if e.at > now
            || now - e.at > LAST_KNOWN_FOR
            || changes.stale(e.scope.as_deref(), e.read_seq)
        {
            return None;
        }
        let document = e.document.clone()?;
        Some((
            LastKnown {
                verdict: e.verdict,
                as_of: e.at,
                age_seconds: (now - e.at).num_seconds(),
            },
            document,
        ))
    }

    /// Keeps `v`, the answer for the authentic `token` whose register read began after
    /// the change log's `read_seq`, its status in `scope`. An unavailable status is not an
    /// answer to keep.
    pub fn put(&self, token: &str, read_seq: i64, scope: Option<String>, v: &Verification) {
        if v.verdict == Verdict::StatusUnavailable {
            return;
        }
        let entry = Entry {
            read_seq,
            scope: scope.map(String::into_boxed_str),
            at: v.checked_at,
            verdict: v.verdict,
            document: v.document.clone(),
            reason: v.reason.clone(),
        };
        let dropped = {
            let mut halves = self.entries.write().unwrap_or_else(PoisonError::into_inner);
            let halves = &mut *halves;
            let full = halves.newer.len() >= MAX_ENTRIES / 2 && !halves.newer.contains_key(token);
            let dropped = full.then(|| {
                let newer = std::mem::take(&mut halves.newer);
                std::mem::replace(&mut halves.older, newer)
            });
            let superseded = halves.older.remove(token);
            halves.newer.insert(token.into(), entry);
            (dropped, superseded)
        };
        drop(dropped);
    }

    pub fn len(&self) -> usize {
        let halves = self.entries.read().unwrap_or_else(PoisonError::into_inner);
        halves.newer.len() + halves.older.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A stable hash of the token (FNV-1a) to pick its stripe.
fn stripe_hash(token: &str) -> u64 {
    token.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn answer(verdict: Verdict, at: DateTime<Utc>) -> Verification {
        Verification {
            verdict,
            checked_at: at,
            document: None,
            reason: None,
            last_known: None,
            record: None,
        }
    }

    fn noon() -> DateTime<Utc> {
        // 12:00 in Cuiabá (UTC−4).
        Utc.with_ymd_and_hms(2026, 6, 10, 16, 0, 0).unwrap()
    }

    #[test]
    fn served_until_an_act_touches_its_scope_and_under_five_seconds() {
        let changes = Changes::default();
        changes.read_as(&[], 7);
        let c = VerdictCache::default();
        c.put(
            "t",
            7,
            Some("d:1".to_owned()),
            &answer(Verdict::Valid, noon()),
        );
        let later = noon() + Duration::seconds(3);
        let hit = c.fresh("t", &changes, later).unwrap();
        assert_eq!(hit.verdict, Verdict::Valid);
        assert_eq!(hit.checked_at, later, "checked_at is the time of the scan");
        assert!(c.fresh("u", &changes, later).is_none());
        assert!(c.fresh("t", &changes, noon() + FRESH_FOR).is_none());
        assert!(
            c.fresh("t", &changes, noon() - Duration::seconds(1))
                .is_none()
        );

        changes.read_as(&[(8, "d:2"), (9, "c:1")], 9);
        assert!(
            c.fresh("t", &changes, later).is_some(),
            "another driver's act leaves it warm"
        );
        changes.committed();
        assert!(
            c.fresh("t", &changes, later).is_none(),
            "a commit whose log is unread"
        );
        changes.read_as(&[(10, "d:1")], 10);
        assert!(c.fresh("t", &changes, later).is_none(), "its driver's act");
        c.put(
            "t",
            10,
            Some("d:1".to_owned()),
            &answer(Verdict::Revoked, later),
        );
        assert_eq!(
            c.fresh("t", &changes, later).unwrap().verdict,
            Verdict::Revoked
        );
        changes.read_as(&[(11, "*")], 11);
        assert!(
            c.fresh("t", &changes, later).is_none(),
            "an act on everything"
        );
    }

    #[test]
    fn an_answer_without_a_scope_is_stale_after_any_act() {
        let changes = Changes::default();
        changes.read_as(&[], 3);
        let c = VerdictCache::default();
        c.put("t", 3, None, &answer(Verdict::UnknownDocument, noon()));
        assert!(c.fresh("t", &changes, noon()).is_some());
        changes.read_as(&[(4, "c:9")], 4);
        assert!(c.fresh("t", &changes, noon()).is_none());
    }

    #[test]
    fn never_across_midnight_in_cuiaba() {
        let changes = Changes::default();
        changes.read_as(&[], 1);
        let c = VerdictCache::default();
        // 23:59:50 in Cuiabá; ten seconds later is another legal day (DL-11).
        let before = Utc.with_ymd_and_hms(2026, 6, 11, 3, 59, 50).unwrap();
        c.put(
            "t",
            1,
            Some("d:1".to_owned()),
            &answer(Verdict::Valid, before),
        );
        assert!(
            c.fresh("t", &changes, before + Duration::seconds(3))
                .is_some()
        );
        assert!(
            c.fresh("t", &changes, before + Duration::seconds(10))
                .is_none()
        );
    }

    #[test]
    fn unavailable_is_not_kept_and_last_known_needs_a_document() {
        let changes = Changes::default();
        changes.read_as(&[], 1);
        let c = VerdictCache::default();
        c.put(
            "t",
            1,
            Some("d:1".to_owned()),
            &answer(Verdict::StatusUnavailable, noon()),
        );
        assert!(c.is_empty());
        c.put(
            "t",
            1,
            Some("d:1".to_owned()),
            &answer(Verdict::Valid, noon()),
        );
        assert!(
            c.last_known("t", &changes, noon()).is_none(),
            "no document, nothing to show"
        );
    }

    #[test]
    fn bounded() {
        let changes = Changes::default();
        changes.read_as(&[], 1);
        let c = VerdictCache::default();
        for i in 0..MAX_ENTRIES {
            c.put(
                &i.to_string(),
                1,
                Some("d:1".to_owned()),
                &answer(Verdict::Valid, noon()),
            );
        }
        assert_eq!(c.len(), MAX_ENTRIES, "two halves");
        let kept = |token: &str| c.fresh(token, &changes, noon());
        assert!(kept("0").is_some() && kept("49999").is_some());
        // A token past the full newer half: the older half is dropped, the newer becomes it.
        c.put(
            "1",
            1,
            Some("d:1".to_owned()),
            &answer(Verdict::Revoked, noon()),
        );
        assert_eq!(c.len(), MAX_ENTRIES / 2 + 1);
        assert!(kept("0").is_none());
        assert_eq!(kept("1").unwrap().verdict, Verdict::Revoked);
        // A token of the older half kept again: in the newer only, once.
        c.put(
            "25000",
            1,
            Some("d:1".to_owned()),
            &answer(Verdict::Suspended, noon()),
        );
        assert_eq!(c.len(), MAX_ENTRIES / 2 + 1);
        assert_eq!(kept("25000").unwrap().verdict, Verdict::Suspended);
        let later = noon() + FRESH_FOR;
        c.put(
            "new",
            1,
            Some("d:1".to_owned()),
            &answer(Verdict::Valid, later),
        );
        assert!(c.fresh("new", &changes, later).is_some());
        assert!(c.len() <= MAX_ENTRIES);
    }
}
