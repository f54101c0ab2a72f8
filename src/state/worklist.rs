//! What the worklist keeps between requests.

use std::collections::HashMap;

use chrono::NaiveDate;
use uuid::Uuid;

use crate::domain::work::WorkKind;

/// What one authorization has due: the kind, the sentence, the day and the task.
pub type Due = (WorkKind, &'static str, NaiveDate, &'static str);

/// The ride-hailing authorizations in force on a legal day with what each has due, kept
/// between requests and brought up to date from the register's change log (scope `d:`, the
/// one the status list follows): a request judges again only the authorizations of the
/// drivers an act touched since, and every one on the first request of a day, after an act on
/// everything, or when the log cannot tell what changed. One request updates it at a time.
#[derive(Debug, Default)]
pub struct WorklistCache(pub tokio::sync::Mutex<Option<Snapshot>>);

/// The authorizations in force as judged on `day`, up to the change log's `read_seq`.
#[derive(Debug)]
pub struct Snapshot {
    pub day: NaiveDate,
    pub read_seq: i64,
    pub entries: HashMap<Uuid, Entry>,
}

/// One authorization in force: what a clerk reads of it, and what it has due.
#[derive(Debug, Clone)]
pub struct Entry {
    pub driver_id: Uuid,
    pub number: String,
    pub person: String,
    pub plate: String,
    pub due: Vec<Due>,
}
