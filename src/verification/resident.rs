//! The verdicts of ride-hailing authorizations and stickers kept in memory for the legal
//! day, about 60 bytes each (an entry of 48 and its place in a table), so that a scan of a
//! document read once today answers without reading the register again.
//!
//! An entry is what the register gave for one document (its status, the car and the
//! driver's first name as a passenger sees them), read after the change log's point
//! `read_seq`. It answers a scan only while
//! - the scanned token is the document's own, byte for byte, and its kind, number, plate and
//!   validity are the register's (one keyed fingerprint of both, taken when the entry was
//!   read and again from the token scanned, whose signature is checked first as always);
//! - the legal day (America/Cuiaba) is the one it was read on: a status changes with the
//!   date (expiry, the end of a suspension, a vistoria due), never within a day, except for a
//!   revocation dated later that day, which is never kept;
//! - no act logged after `read_seq` touched the driver's scope (`storage::changes`, written
//!   by the register's triggers in the same transaction as each act: the status list
//!   trusts the same log for the day), the log is read up to every commit this node knows
//!   of, and it was read from the database under [`CONFIRMED_WITHIN`] ago, which bounds
//!   what a notification lost between nodes, or a write by another process, leaves stale.
//!
//! Entries are filled by every status read of such a document that is not about a past
//! instant: the scans that miss, and the status list's judgment of the whole register at
//! the start of a legal day. They are dropped when the day turns; past the number the
//! deployment allows (`SELO_RESIDENT_VERDICTS`), no new one is kept (those documents are read
//! from the register as before).

use std::borrow::Borrow;
use std::hash::{BuildHasher, Hash, RandomState};
use std::sync::{Arc, PoisonError, RwLock};

use chrono::{DateTime, NaiveDate, Utc};
use hashbrown::HashTable;
use uuid::Uuid;

use super::{Judged, LiveStatus, PublicDocument, RideHailingShown, Verdict};
use crate::domain::dates::local_date;
use crate::domain::ids::Plate;
use crate::domain::ride_hailing::AuthorizationStatus;
use crate::signing::token::TokenPayload;
use crate::storage::changes::Changes;
use crate::storage::{DocumentKind, DocumentStatus};

/// How recently the change log must have been read from the database for an entry to
/// answer: `Store::changes_caught_up` reads it at least once a second while scans come.
pub const CONFIRMED_WITHIN: std::time::Duration = std::time::Duration::from_secs(3);

/// A word of what a verdict shows (a first name) or a car's words, by its number; `NONE`:
/// nothing shown.
const NONE: u32 = u32::MAX;

/// What the register gave for one document, 48 bytes (a unit test holds it to that).
#[derive(Debug, Clone, Copy)]
struct Entry {
    document: Uuid,
    /// The stored token and the register's kind, number, plate and validity, hashed with
    /// this process's key.
    fingerprint: u64,
    /// The change log's point it was read after, counted from the day's `first_seq`.
    read_after: u32,
    /// The driver, by number in `drivers`: the change log's scope `d:<id>`.
    driver: u32,
    suspended_until: Option<NaiveDate>,
    /// Make, model and colour, by number in `cars`.
    car: u32,
    /// `NONE` unless the verdict shows the driver (`valid`).
    first_name: u32,
    verdict: Verdict,
    status: AuthorizationStatus,
    photo: bool,
}

/// Values kept once, each by a number: a list of them and a table of their places in it
/// (4 bytes a slot, where a map from value to number would hold the value twice).
#[derive(Debug)]
struct Interned<T> {
    values: Vec<T>,
    places: HashTable<u32>,
}

impl<T> Default for Interned<T> {
    fn default() -> Self {
        Self {
            values: Vec::new(),
            places: HashTable::new(),
        }
    }
}

impl<T: Hash + Eq> Interned<T> {
    /// The number of `value` (`owned` makes it a value kept the first time); `NONE` past
    /// `u32` numbers.
    fn number<Q>(&mut self, key: &RandomState, value: &Q, owned: impl FnOnce() -> T) -> u32
    where
        T: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let Self { values, places } = self;
        let hash = key.hash_one(value);
        let at = |n: u32| &values[n as usize];
        if let Some(n) = places.find(hash, |&n| at(n).borrow() == value) {
            return *n;
        }
        let Ok(n) = u32::try_from(values.len()) else {
            return NONE;
        };
        if n == NONE {
            return NONE;
        }
        values.push(owned());
        places.insert_unique(hash, n, |&n| key.hash_one(values[n as usize].borrow()));
        n
    }

    fn value(&self, n: u32) -> Option<&T> {
        self.values.get(usize::try_from(n).ok()?)
    }
}

/// What is kept, and the legal day it holds for.
#[derive(Debug, Default)]
struct Kept {
    day: Option<NaiveDate>,
    /// The change log's point the day's first entry was read after.
    first_seq: i64,
    /// The entries, and each one's place in that list by its document.
    entries: Vec<Entry>,
    places: HashTable<u32>,
    words: Interned<Arc<str>>,
    cars: Interned<[u32; 3]>,
    drivers: Interned<Uuid>,
}

impl Kept {
    fn entry(&self, key: &RandomState, document: &Uuid) -> Option<&Entry> {
        let n = self.places.find(key.hash_one(document), |&n| {
            self.entries[n as usize].document == *document
        })?;
        self.entries.get(*n as usize)
    }

    /// Whether `document` is kept already or another may be, `at_most` in all.
    fn has_room(&self, key: &RandomState, document: &Uuid, at_most: usize) -> bool {
        self.entries.len() < at_most || self.entry(key, document).is_some()
    }

    /// Keeps `entry`, in place of the document's entry if it has one.
    fn keep(&mut self, key: &RandomState, entry: Entry) {
        let hash = key.hash_one(entry.document);
        let Self {
            entries, places, ..
        } = self;
        if let Some(n) = places.find(hash, |&n| entries[n as usize].document == entry.document) {
            entries[*n as usize] = entry;
            return;
        }
        let Ok(n) = u32::try_from(entries.len()) else {
            return;
        };
        entries.push(entry);
        places.insert_unique(hash, n, |&n| key.hash_one(entries[n as usize].document));
    }
}

/// The verdicts kept, for one legal day.
#[derive(Debug)]
pub struct ResidentVerdicts {
    kept: RwLock<Kept>,
    key: RandomState,
    /// Past this many documents, no new verdict is kept (`SELO_RESIDENT_VERDICTS`).
    at_most: usize,
}

impl ResidentVerdicts {
    pub fn new(at_most: usize) -> Self {
        Self {
            kept: RwLock::default(),
            key: RandomState::new(),
            at_most,
        }
    }

    fn fingerprint(
        &self,
        token: &str,
        kind: &str,
        number: &str,
        plate: &str,
        valid_until: NaiveDate,
    ) -> u64 {
        self.key.hash_one((token, kind, number, plate, valid_until))
    }

    /// Keeps what the register gave for the document of `status` at `now`, read after the
    /// change log's `read_seq`: its `verdict` and the `document` shown for it.
    pub(super) fn record(
        &self,
        status: &DocumentStatus,
        read_seq: i64,
        now: DateTime<Utc>,
        verdict: Verdict,
        document: &PublicDocument,
    ) {
        // A revocation dated later today would change the verdict within the day.
        if status.revoked_at.is_some_and(|at| at > now) || verdict == Verdict::StatusUnavailable {
            return;
        }
        let LiveStatus::RideHailing(s) = document.status else {
            return;
        };
        let Some(vehicle) = &document.vehicle else {
            return;
        };
        let fingerprint = self.fingerprint(
            &status.meta.token,
            status.meta.kind.as_str(),
            &status.meta.number,
            status.plate.as_str(),
            status.valid_until,
        );
        let today = local_date(now);
        let mut guard = self.kept.write().unwrap_or_else(PoisonError::into_inner);
        let day = &mut *guard;
        match day.day {
            Some(d) if d > today => return,
            Some(d) if d == today => {}
            _ => {
                *day = Kept {
                    day: Some(today),
                    first_seq: read_seq,
                    ..Kept::default()
                };
            }
        }
        // An entry read before the day's first point is not kept: its point, counted from
        // there, would say it was read later than it was.
        let Some(read_after) = read_seq
            .checked_sub(day.first_seq)
            .and_then(|after| u32::try_from(after).ok())
        else {
            return;
        };
        let key = &self.key;
        if !day.has_room(key, &status.meta.id, self.at_most) {
            return;
        }
        let driver = day
            .drivers
            .number(key, &status.driver_id, || status.driver_id);
        let mut word = |w: &str| day.words.number(key, w, || Arc::from(w));
        let (first_name, photo) = document.driver.as_ref().map_or((NONE, false), |d| {
            (word(&d.first_name), d.photo_url.is_some())
        });
        let car = [
            word(&vehicle.make),
            word(&vehicle.model),
            vehicle.color.as_deref().map_or(NONE, &mut word),
        ];
        let car = day.cars.number(key, &car, || car);
        if [driver, car].contains(&NONE) {
            return;
        }
        let entry = Entry {
            document: status.meta.id,
            fingerprint,
            read_after,
            driver,
            suspended_until: document.suspended_until,
            car,
            first_name,
            verdict,
            status: s,
            photo,
        };
        day.keep(key, entry);
    }

    /// The verdict kept for the document of the authentic token `raw` (its `payload`),
    /// if it still holds at `now`.
    pub(super) fn judged(
        &self,
        raw: &str,
        payload: &TokenPayload,
        changes: &Changes,
        now: DateTime<Utc>,
    ) -> Option<Judged> {
        if !changes.read_from_database_within(CONFIRMED_WITHIN) {
            return None;
        }
        let kind = DocumentKind::parse(&payload.kind)?;
        let fingerprint = self.fingerprint(
            raw,
            &payload.kind,
            &payload.number,
            &payload.plate,
            payload.valid_until,
        );
        let day = self.kept.read().unwrap_or_else(PoisonError::into_inner);
        if day.day != Some(local_date(now)) {
            return None;
        }
        let e = day.entry(&self.key, &payload.document_id)?;
        if e.fingerprint != fingerprint {
            return None;
        }
        let driver = day.drivers.value(e.driver)?;
        let mut scope = [0u8; 2 + uuid::fmt::Hyphenated::LENGTH];
        scope[..2].copy_from_slice(b"d:");
        driver.hyphenated().encode_lower(&mut scope[2..]);
        let scope = std::str::from_utf8(&scope).ok()?;
        if changes.stale(Some(scope), day.first_seq + i64::from(e.read_after)) {
            return None;
        }
        let word = |n: u32| (n != NONE).then(|| day.words.value(n)).flatten();
        let car = day.cars.value(e.car)?;
        let plate = Plate::parse(&payload.plate).ok()?;
        let first_name = word(e.first_name);
        let document = RideHailingShown {
            kind,
            number: &payload.number,
            plate: &plate,
            valid_until: payload.valid_until,
            token: raw,
            status: e.status,
            suspended_until: e.suspended_until,
            make: word(car[0])?,
            model: word(car[1])?,
            color: word(car[2]).map(|c| &**c),
            first_name: first_name.map(|n| &**n),
            photo: e.photo,
        }
        .document(e.verdict);
        Some(Judged {
            verdict: e.verdict,
            document: Some(document),
            scope: Some(scope.to_owned()),
        })
    }

    /// The documents kept.
    pub fn len(&self) -> usize {
        self.kept
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .entries
            .len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a document costs: its entry (with its id) and a 4-byte slot in the table of
    /// places, with the table's slack.
    #[test]
    fn an_entry_is_48_bytes() {
        assert_eq!(std::mem::size_of::<Entry>(), 48);
    }

    /// The interned values are found again by their value, and numbered in order.
    #[test]
    fn a_value_interned_twice_keeps_its_number() {
        let key = RandomState::new();
        let mut words: Interned<Arc<str>> = Interned::default();
        let names = ["Maria", "João", "Ana"];
        for _ in 0..2 {
            for (n, w) in names.iter().enumerate() {
                assert_eq!(words.number(&key, *w, || Arc::from(*w)) as usize, n);
            }
        }
        assert_eq!(words.values.len(), 3);
        assert_eq!(words.value(1).map(|w| &**w), Some("João"));
        assert_eq!(words.value(3), None);
    }

    /// An entry is found by its document, kept again in place, and past `at_most` only the
    /// documents kept already are.
    #[test]
    fn entries_are_found_by_document_and_bounded() {
        let key = RandomState::new();
        let mut kept = Kept::default();
        let entry = |document: Uuid, fingerprint: u64| Entry {
            document,
            fingerprint,
            read_after: 0,
            driver: 0,
            suspended_until: None,
            car: 0,
            first_name: NONE,
            verdict: Verdict::Valid,
            status: AuthorizationStatus::Ativa,
            photo: false,
        };
        let documents: Vec<Uuid> = (0..3).map(|_| Uuid::new_v4()).collect();
        for (n, d) in documents.iter().take(2).enumerate() {
            assert!(kept.has_room(&key, d, 2));
            kept.keep(&key, entry(*d, n as u64));
        }
        assert!(!kept.has_room(&key, &documents[2], 2));
        assert!(kept.has_room(&key, &documents[1], 2));
        kept.keep(&key, entry(documents[1], 7));
        assert_eq!(kept.entries.len(), 2);
        assert_eq!(
            kept.entry(&key, &documents[0]).map(|e| e.fingerprint),
            Some(0)
        );
        assert_eq!(
            kept.entry(&key, &documents[1]).map(|e| e.fingerprint),
            Some(7)
        );
        assert!(kept.entry(&key, &documents[2]).is_none());
    }
}
