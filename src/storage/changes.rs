//! What tells the caches of this node that the register changed: a generation
//! bumped after every committed write of this node and, on PostgreSQL, on every notification
//! of a commit by any node (`LISTEN selo_register`, sent by the triggers of migration 0016).
//!
//! A cache stores the generation it read before it read the register and trusts what it
//! read only while the generation is unchanged: a write that commits while the read is in
//! flight bumps it afterwards, so nothing read before a commit outlives it.
//!
//! Finer than the generation, the register's change log (`register_changes`, written by the
//! triggers of migration 0040 in the same transaction as each act) names the scopes an act
//! may have changed: `d:` a ride-hailing driver, `c:` a charter company, `*` everything. A
//! commit (here, or notified) marks the log unread; the next reader reads the new rows
//! ([`Store::changes_caught_up`]) and keeps, per scope, the last sequence number that touched
//! it, so a cache drops only what an act touched ([`Changes::stale`]). On PostgreSQL every
//! writer holds the audit chain's lock, so the log's sequence is the commit order.

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::{StorageError, Store};

/// The generation of the register as this node knows it.
#[derive(Debug, Default)]
pub struct Changes {
    generation: AtomicU64,
    /// Commits known to this node (its own and those notified); the log is read up to them.
    seen: AtomicU64,
    applied: Mutex<Applied>,
    /// One reader of the log at a time.
    reading: tokio::sync::Mutex<()>,
}

/// What this node read of the change log.
#[derive(Debug, Default)]
struct Applied {
    /// `seen` when the log was last read: every commit up to it is in `seq`.
    seen: u64,
    /// The last sequence number read; `None` before the first read.
    seq: Option<i64>,
    /// The last sequence number that touched everything.
    everything: i64,
    /// Per scope, the last sequence number that touched it and when this node read it.
    scopes: HashMap<Box<str>, (i64, Instant)>,
    /// The same scopes by that sequence number: what touched them since a read is the tail.
    by_seq: BTreeSet<(i64, Box<str>)>,
    /// The last sequence number of a scope no longer remembered: what was read before it
    /// cannot be told fresh by scope.
    forgotten: i64,
    /// When the log was last read from the database.
    read_at: Option<Instant>,
}

/// How long a scope's last change is surely remembered; past [`REMEMBER_AT_MOST`] scopes,
/// older ones are forgotten, and an answer read before the last of them counts as stale.
const REMEMBER: Duration = Duration::from_mins(20);
/// Past this many scopes remembered, those older than [`REMEMBER`] are forgotten.
const REMEMBER_AT_MOST: usize = 20_000;
/// How often a reader catching up reads the log even when no commit is known: a commit this
/// node was not told of (a notification lost between nodes, another process's write) is
/// known within this much.
pub const READ_AGAIN_AFTER: Duration = Duration::from_secs(1);
/// Rows read from the log at once; more than this behind, everything is taken as touched.
pub const READ_AT_MOST: i64 = 10_000;

impl Changes {
    /// The generation now: read it before reading the register.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Something was committed (here, or on another node): every cached read is stale
    /// by generation, and the change log has rows to read.
    pub fn committed(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
        self.seen.fetch_add(1, Ordering::AcqRel);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Applied> {
        self.applied.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The log's last sequence number read, if every commit known is read: what a reader
    /// of the register records before it reads.
    pub fn read_point(&self) -> Option<i64> {
        let a = self.lock();
        (a.seen == self.seen.load(Ordering::Acquire))
            .then_some(a.seq)
            .flatten()
    }

    /// The log's last sequence number read, whether or not commits were made since (`None`
    /// before the first read): a reading of the register that begins now reflects every act
    /// up to it, and maybe some after it, which an answer kept is then taken as stale by.
    pub fn last_read(&self) -> Option<i64> {
        self.lock().seq
    }

    /// The read point, if the log was also read from the database under `within` ago.
    fn read_point_within(&self, within: Duration) -> Option<i64> {
        let a = self.lock();
        (a.seen == self.seen.load(Ordering::Acquire)
            && a.read_at.is_some_and(|at| at.elapsed() < within))
        .then_some(a.seq)
        .flatten()
    }

    /// Whether the log is read up to every commit known, from the database under `within`
    /// ago: what an answer kept without an age limit needs.
    pub fn read_from_database_within(&self, within: Duration) -> bool {
        self.read_point_within(within).is_some()
    }

    /// Whether a change logged after `read_seq` touched `scope` (`None`: any change).
    pub fn stale(&self, scope: Option<&str>, read_seq: i64) -> bool {
        let a = self.lock();
        if a.everything > read_seq || a.forgotten > read_seq {
            return true;
        }
        match scope {
            None => a.seq.is_some_and(|s| s > read_seq),
            Some(s) => a.scopes.get(s).is_some_and(|(q, _)| *q > read_seq),
        }
    }

    /// Whether an act on everything (the calendar, the UPF, the legal bases) may have been
    /// committed after `read_seq`: one is in the log read, or the log is not read up to every
    /// commit known.
    pub fn everything_touched_since(&self, read_seq: i64) -> bool {
        let a = self.lock();
        a.seen != self.seen.load(Ordering::Acquire) || a.seq.is_none() || a.everything > read_seq
    }

    /// The scopes changes logged after `read_seq` touched; `None` when that cannot be told by
    /// scope (an act on everything, a log read past its end, or a scope forgotten since).
    pub fn touched_since(&self, read_seq: i64) -> Option<Vec<Box<str>>> {
        let a = self.lock();
        if a.everything > read_seq || a.forgotten > read_seq {
            return None;
        }
        Some(
            a.by_seq
                .iter()
                .rev()
                .take_while(|(seq, _)| *seq > read_seq)
                .map(|(_, scope)| scope.clone())
                .collect(),
        )
    }

    /// Records the rows read (`rows`, oldest first) up to `last`, for the commits counted
    /// up to `seen`; `overflow`: more rows than read, so everything counts as touched.
    fn apply(&self, seen: u64, rows: &[(i64, String)], last: i64, overflow: bool) {
        let mut guard = self.lock();
        let a = &mut *guard;
        let now = Instant::now();
        if a.seq.is_none() || overflow {
            a.everything = last;
        }
        for (seq, scope) in rows {
            if scope == "*" {
                a.everything = a.everything.max(*seq);
            } else {
                let scope: Box<str> = scope.as_str().into();
                if let Some((before, _)) = a.scopes.insert(scope.clone(), (*seq, now)) {
                    a.by_seq.remove(&(before, scope.clone()));
                }
                a.by_seq.insert((*seq, scope));
            }
        }
        if a.scopes.len() > REMEMBER_AT_MOST {
            let mut forgotten = a.forgotten;
            let by_seq = &mut a.by_seq;
            a.scopes.retain(|scope, (seq, at)| {
                let keep = now.duration_since(*at) < REMEMBER;
                if !keep {
                    forgotten = forgotten.max(*seq);
                    by_seq.remove(&(*seq, scope.clone()));
                }
                keep
            });
            a.forgotten = forgotten;
        }
        a.seq = Some(a.seq.unwrap_or(0).max(last));
        a.seen = seen;
        a.read_at = Some(now);
    }
}

#[cfg(test)]
impl Changes {
    /// As if every scope remembered had been read `by` earlier (tests of forgetting).
    pub(crate) fn age(&self, by: Duration) {
        for (_, at) in self.lock().scopes.values_mut() {
            *at = at
                .checked_sub(by)
                .expect("a monotonic clock older than the shift");
        }
    }

    /// As if the log had been read up to `last`, its new rows `rows` (tests of the caches).
    pub(crate) fn read_as(&self, rows: &[(i64, &str)], last: i64) {
        let rows: Vec<(i64, String)> = rows.iter().map(|(q, s)| (*q, (*s).to_owned())).collect();
        self.apply(self.seen.load(Ordering::Acquire), &rows, last, false);
    }
}

impl Store {
    /// The change log read up to every commit this node knows of: its last sequence number.
    /// Cheap when nothing was committed since the last read (no query), but read again
    /// [`READ_AGAIN_AFTER`] after the last read, for commits this node was not told of.
    pub async fn changes_caught_up(&self) -> Result<i64, StorageError> {
        let changes = self.changes();
        if let Some(seq) = changes.read_point_within(READ_AGAIN_AFTER) {
            return Ok(seq);
        }
        let _reading = changes.reading.lock().await;
        if let Some(seq) = changes.read_point_within(READ_AGAIN_AFTER) {
            return Ok(seq);
        }
        let seen = changes.seen.load(Ordering::Acquire);
        let after = changes.lock().seq;
        match after {
            // The first read: nothing was cached before it, so only where the log ends.
            None => {
                let (_, last) = self.change_bounds().await?;
                changes.apply(seen, &[], last.unwrap_or(0), false);
            }
            Some(after) => {
                let (rows, complete) = self.changes_since(after).await?;
                let overflow = !complete;
                let last = if overflow {
                    self.change_bounds().await?.1.unwrap_or(after)
                } else {
                    rows.last().map_or(after, |(s, _)| *s)
                };
                changes.apply(seen, &rows, last, overflow);
            }
        }
        Ok(changes.lock().seq.unwrap_or(0))
    }

    /// The change log's rows after `after`, oldest first (at most [`READ_AT_MOST`]), and
    /// whether they are all that came after it: not when more are left, nor when rows after it
    /// were pruned before this reader read them (then what they touched cannot be told).
    pub async fn changes_since(
        &self,
        after: i64,
    ) -> Result<(Vec<(i64, String)>, bool), StorageError> {
        let rows = self.changes_after(after, READ_AT_MOST).await?;
        let pruned = match rows.first() {
            Some((first, _)) if *first > after + 1 => {
                self.change_bounds().await?.0.unwrap_or(0) > after + 1
            }
            _ => false,
        };
        let more = i64::try_from(rows.len()).unwrap_or(i64::MAX) >= READ_AT_MOST;
        Ok((rows, !pruned && !more))
    }

    /// The change log's rows after `after`, oldest first, at most `limit`.
    pub async fn changes_after(
        &self,
        after: i64,
        limit: i64,
    ) -> Result<Vec<(i64, String)>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(
                "SELECT seq, scope FROM register_changes WHERE seq > $1 ORDER BY seq LIMIT $2",
            )
            .bind(after)
            .bind(limit)
            .fetch_all(pool)
            .await?)
        })
    }

    /// The change log's first and last sequence numbers (`None` while it is empty).
    pub async fn change_bounds(&self) -> Result<(Option<i64>, Option<i64>), StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(
                sqlx::query_as("SELECT MIN(seq), MAX(seq) FROM register_changes")
                    .fetch_one(pool)
                    .await?,
            )
        })
    }

    /// Forgets the change log's rows up to `through`: a reader behind them starts over. A
    /// slice of [`PRUNE_SLICE`] rows a statement, so that a log grown by millions of rows (an
    /// import) never holds the register's write lock for long: acts commit between slices.
    pub async fn prune_changes(&self, through: i64) -> Result<(), StorageError> {
        loop {
            let deleted = on_backend!(self, |pool, _begin| {
                sqlx::query(
                    "DELETE FROM register_changes WHERE seq <= $1 \
                     AND seq < (SELECT MIN(seq) FROM register_changes) + $2",
                )
                .bind(through)
                .bind(PRUNE_SLICE)
                .execute(pool)
                .await?
                .rows_affected()
            });
            if deleted == 0 {
                return Ok(());
            }
        }
    }
}

/// How many of the change log's rows one pruning statement deletes at most.
pub const PRUNE_SLICE: i64 = 10_000;

/// A write transaction that tells [`Changes`] once it commits. It dereferences to the
/// connection, so `&mut *tx` runs queries inside it as with `sqlx::Transaction`.
pub struct Tx<DB: sqlx::Database> {
    inner: sqlx::Transaction<'static, DB>,
    changes: Arc<Changes>,
}

impl<DB: sqlx::Database> Tx<DB> {
    pub(crate) async fn open(
        changes: Arc<Changes>,
        begin: impl Future<Output = Result<sqlx::Transaction<'static, DB>, sqlx::Error>>,
    ) -> Result<Self, sqlx::Error> {
        // Boxed: the begin future is large, and every write's future would carry it twice.
        Ok(Self {
            inner: Box::pin(begin).await?,
            changes,
        })
    }

    /// Commits, then bumps the generation (never before: a read between the two would cache
    /// the state before the commit under the new generation).
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        self.inner.commit().await?;
        self.changes.committed();
        Ok(())
    }

    /// Commits a change no verification and no deadline reads (officials' accounts and
    /// sessions, applicants' filings, passengers' reports, platforms' credentials and
    /// links): the caches stay warm.
    pub async fn commit_unseen(self) -> Result<(), sqlx::Error> {
        self.inner.commit().await
    }
}

impl<DB: sqlx::Database> std::ops::Deref for Tx<DB> {
    type Target = DB::Connection;
    fn deref(&self) -> &DB::Connection {
        &self.inner
    }
}

impl<DB: sqlx::Database> std::ops::DerefMut for Tx<DB> {
    fn deref_mut(&mut self) -> &mut DB::Connection {
        &mut self.inner
    }
}

/// The channel the triggers of migration 0016 notify on every committed change.
pub const CHANNEL: &str = "selo_register";

/// Listens for the commits of every node on `pool`'s database for as long as the process
/// runs, bumping `changes` on each. Notifications sent while the connection was down are
/// lost, so every (re)connection bumps too; while the database is unreachable nothing
/// bumps, so the last statuses read stay usable as the last known ones.
pub async fn listen(pool: sqlx::PgPool, changes: Arc<Changes>) {
    let mut logged_down = false;
    while !pool.is_closed() {
        match subscribe(&pool).await {
            Ok(mut listener) => {
                changes.committed();
                if logged_down {
                    tracing::info!("listening for other nodes' changes again");
                    logged_down = false;
                }
                loop {
                    match listener.try_recv().await {
                        Ok(Some(_)) => changes.committed(),
                        // The connection was lost: reconnect (and bump once connected).
                        Ok(None) => break,
                        Err(e) => {
                            tracing::warn!(error = %e, "change notifications interrupted");
                            break;
                        }
                    }
                }
            }
            Err(e) => {
                if !logged_down {
                    tracing::warn!(error = %e, "cannot listen for other nodes' changes; retrying");
                    logged_down = true;
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

async fn subscribe(pool: &sqlx::PgPool) -> Result<sqlx::postgres::PgListener, sqlx::Error> {
    let mut listener = sqlx::postgres::PgListener::connect_with(pool).await?;
    listener.listen(CHANNEL).await?;
    Ok(listener)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A log longer than several slices is pruned exactly up to the row asked, and no further.
    #[tokio::test]
    async fn the_log_is_pruned_slice_by_slice_up_to_the_row_asked() {
        let (_dir, store) = crate::storage::temporary_store().await;
        let Store::Sqlite(r) = &store else {
            unreachable!("a SQLite store")
        };
        sqlx::query(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 35000) \
             INSERT INTO register_changes (scope) SELECT 'd:' || i FROM n",
        )
        .execute(r.pool())
        .await
        .unwrap();
        let (first, last) = store.change_bounds().await.unwrap();
        let (first, last) = (first.unwrap(), last.unwrap());
        let through = first + 3 * PRUNE_SLICE + 123;
        assert!(through < last);
        store.prune_changes(through).await.unwrap();
        let (min, max) = store.change_bounds().await.unwrap();
        assert_eq!((min, max), (Some(through + 1), Some(last)));
        let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM register_changes")
            .fetch_one(r.pool())
            .await
            .unwrap();
        assert_eq!(left, last - through);
        // Nothing left to forget: pruning again changes nothing.
        store.prune_changes(through).await.unwrap();
        assert_eq!(store.change_bounds().await.unwrap().0, Some(through + 1));
    }

    #[test]
    fn what_changed_since_a_read_is_told_by_scope_until_a_scope_is_forgotten() {
        let c = Changes::default();
        c.read_as(&[], 10);
        c.read_as(&[(11, "d:a"), (12, "d:b"), (13, "d:a")], 13);
        let mut touched = c.touched_since(11).unwrap();
        touched.sort();
        assert_eq!(touched, vec!["d:a".into(), "d:b".into()]);
        assert_eq!(c.touched_since(13).unwrap(), Vec::<Box<str>>::new());
        assert_eq!(
            c.touched_since(10).unwrap().len(),
            2,
            "a scope touched twice is named once"
        );
        assert!(c.stale(Some("d:a"), 12) && !c.stale(Some("d:b"), 12));
        // Past the scopes it remembers, the old ones are forgotten: a read before the last of
        // them can no longer be told fresh by scope.
        c.age(REMEMBER + Duration::from_secs(1));
        let many: Vec<(i64, String)> = (0..=REMEMBER_AT_MOST)
            .map(|i| (14 + i64::try_from(i).unwrap(), format!("d:n{i}")))
            .collect();
        let last = many.last().unwrap().0;
        let rows: Vec<(i64, &str)> = many.iter().map(|(q, s)| (*q, s.as_str())).collect();
        c.read_as(&rows, last);
        assert!(c.touched_since(12).is_none(), "d:a and d:b were forgotten");
        assert!(c.stale(Some("d:b"), 12), "a forgotten scope is stale");
        assert!(
            c.touched_since(13).is_some(),
            "nothing forgotten came after 13"
        );
        assert!(!c.stale(Some("d:b"), 13));
        {
            let a = c.lock();
            assert_eq!(a.by_seq.len(), a.scopes.len(), "the forgotten leave both");
        }
        // An act on everything: nothing can be told by scope before it.
        c.read_as(&[(last + 1, "*")], last + 1);
        assert!(c.touched_since(last).is_none());
    }

    #[test]
    fn an_act_on_everything_is_told_apart_from_acts_on_scopes() {
        let c = Changes::default();
        assert!(
            c.everything_touched_since(0),
            "a log never read tells nothing"
        );
        c.read_as(&[], 10);
        c.read_as(&[(11, "d:a"), (12, "c:b")], 12);
        assert!(!c.everything_touched_since(10), "only scopes were touched");
        // A commit not read yet may have been an act on everything.
        c.committed();
        assert!(c.everything_touched_since(12));
        c.read_as(&[(13, "*")], 13);
        assert!(c.everything_touched_since(12) && !c.everything_touched_since(13));
    }
}
