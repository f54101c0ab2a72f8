//! What the worklist keeps between requests.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use chrono::NaiveDate;
use uuid::Uuid;

use crate::domain::work::AuthorizationDue;

/// What one authorization has due, and by which day.
pub type Due = (NaiveDate, AuthorizationDue);

/// The ride-hailing authorizations in force on a legal day with what each has due, kept
/// between requests and brought up to date from the register's change log (scope `d:`, the
/// one the status list follows): a request judges again only the authorizations of the
/// drivers an act touched since, and every one on the first request of a day, after an act on
/// everything, or when the log cannot tell what changed. One request updates it at a time.
#[derive(Debug, Default)]
pub struct WorklistCache(pub tokio::sync::Mutex<Option<Snapshot>>);

/// Where one pendency stands in the list: its day, the authorization's number, its id and
/// which of its dues it is — the order the list is read in, soonest first. The number is the
/// entry's own, shared.
type Key = (NaiveDate, Arc<str>, Uuid, u8);

/// The authorizations in force as judged on `day`, up to the change log's `read_seq`, with
/// every pendency also kept in the list's order, so a page of the list reads only its rows.
#[derive(Debug)]
pub struct Snapshot {
    pub day: NaiveDate,
    pub read_seq: i64,
    entries: HashMap<Uuid, Entry>,
    order: BTreeSet<Key>,
}

/// One authorization in force: its driver, its number and what it has due — no more, a
/// register keeps hundreds of thousands (the rows shown read the name and the plate).
#[derive(Debug, Clone)]
pub struct Entry {
    pub driver_id: Uuid,
    pub number: Arc<str>,
    pub due: Box<[Due]>,
}

/// One pendency of an authorization, as the snapshot holds it.
pub struct Pending<'a> {
    pub id: Uuid,
    pub entry: &'a Entry,
    pub due: &'a Due,
}

impl Snapshot {
    pub fn new(day: NaiveDate, read_seq: i64) -> Self {
        Self {
            day,
            read_seq,
            entries: HashMap::new(),
            order: BTreeSet::new(),
        }
    }

    /// Keeps authorization `id` as `entry`, in place of what was kept of it.
    pub fn insert(&mut self, id: Uuid, entry: Entry) {
        self.remove(id);
        // An authorization has a few dues (never near 256, the most a key can tell apart).
        for (i, due) in (0..=u8::MAX).zip(entry.due.iter()) {
            self.order.insert((due.0, Arc::clone(&entry.number), id, i));
        }
        self.entries.insert(id, entry);
    }

    fn remove(&mut self, id: Uuid) {
        if let Some(old) = self.entries.remove(&id) {
            for (i, due) in (0..=u8::MAX).zip(old.due.iter()) {
                self.order.remove(&(due.0, Arc::clone(&old.number), id, i));
            }
        }
    }

    /// Forgets the authorizations of `drivers` (judged again by the caller).
    pub fn remove_drivers(&mut self, drivers: &HashSet<Uuid>) {
        let ids: Vec<Uuid> = self
            .entries
            .iter()
            .filter(|(_, e)| drivers.contains(&e.driver_id))
            .map(|(id, _)| *id)
            .collect();
        for id in ids {
            self.remove(id);
        }
    }

    /// Every pendency due by `horizon`, soonest first (then by number).
    pub fn due_by(&self, horizon: NaiveDate) -> impl Iterator<Item = Pending<'_>> + Clone {
        self.order
            .iter()
            .take_while(move |(due, ..)| *due <= horizon)
            .filter_map(|(_, _, id, i)| {
                let entry = self.entries.get(id)?;
                Some(Pending {
                    id: *id,
                    entry,
                    due: entry.due.get(usize::from(*i))?,
                })
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(driver: Uuid, number: &str, days: &[u32]) -> Entry {
        Entry {
            driver_id: driver,
            number: number.into(),
            due: days
                .iter()
                .map(|d| {
                    let on = NaiveDate::from_ymd_opt(2027, 1, *d).unwrap();
                    (on, AuthorizationDue::Annual)
                })
                .collect(),
        }
    }

    #[test]
    fn pendencies_are_read_in_order_and_follow_each_judgement() {
        let (d1, d2) = (Uuid::new_v4(), Uuid::new_v4());
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        let mut s = Snapshot::new(NaiveDate::from_ymd_opt(2026, 12, 1).unwrap(), 0);
        s.insert(a, entry(d1, "APP-2", &[20, 5]));
        s.insert(b, entry(d2, "APP-1", &[5, 30]));
        let read = |s: &Snapshot, by: u32| -> Vec<(u32, String)> {
            s.due_by(NaiveDate::from_ymd_opt(2027, 1, by).unwrap())
                .map(|p| {
                    use chrono::Datelike;
                    (p.due.0.day(), p.entry.number.to_string())
                })
                .collect()
        };
        assert_eq!(
            read(&s, 31),
            [(5, "APP-1"), (5, "APP-2"), (20, "APP-2"), (30, "APP-1")]
                .map(|(d, n)| (d, n.to_owned()))
        );
        assert_eq!(read(&s, 19).len(), 2);
        // Judged again: its old dues leave the order with it.
        s.insert(a, entry(d1, "APP-2", &[25]));
        assert_eq!(
            read(&s, 31),
            [(5, "APP-1"), (25, "APP-2"), (30, "APP-1")].map(|(d, n)| (d, n.to_owned()))
        );
        s.remove_drivers(&HashSet::from([d2]));
        assert_eq!(read(&s, 31), [(25, "APP-2".to_owned())]);
        assert_eq!(s.order.len(), 1);
    }
}
