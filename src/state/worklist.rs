//! What the worklist keeps between requests.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use chrono::NaiveDate;
use uuid::Uuid;

use crate::domain::work::WorkKind;

/// What one authorization has due, as kept between requests: the kind, the sentence, the
/// day and the task; the record's number, driver and plate are the row's of the request.
pub type Due = (WorkKind, &'static str, NaiveDate, &'static str);

/// Per authorization in force, what it has due as judged on a legal day, kept while no act
/// touched its driver (the register's change log, scope `d:`, the same the status list
/// follows): a worklist judges again only the authorizations an act touched since, and
/// every one on the first request of a day.
#[derive(Debug, Default)]
pub struct WorklistCache(Mutex<HashMap<Uuid, Kept>>);

#[derive(Debug)]
pub struct Kept {
    pub day: NaiveDate,
    /// The change log's sequence number read before the judgement.
    pub read_seq: i64,
    /// When it was judged: a scope's last change is remembered only so long.
    pub at: Instant,
    pub due: Vec<Due>,
}

/// Kept judgements are trusted for less than the change log remembers a scope.
const KEEP: std::time::Duration = std::time::Duration::from_mins(10);

impl WorklistCache {
    pub fn get(&self, id: Uuid, day: NaiveDate, fresh: impl Fn(i64) -> bool) -> Option<Vec<Due>> {
        let kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let k = kept.get(&id)?;
        (k.day == day && k.at.elapsed() < KEEP && fresh(k.read_seq)).then(|| k.due.clone())
    }

    pub fn put(&self, id: Uuid, kept: Kept) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, kept);
    }

    /// Forgets the authorizations no longer in force.
    pub fn retain(&self, in_force: &std::collections::HashSet<Uuid>) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|id, _| in_force.contains(id));
    }
}
