//! The verdicts of ride-hailing authorizations and stickers kept in memory for the legal
//! day, a few dozen bytes each, so that a scan of a document read once today answers
//! without reading the register again.
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
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, RandomState};
use std::sync::{Arc, PoisonError, RwLock};

use chrono::{DateTime, NaiveDate, Utc};
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

/// A word of what a verdict shows (a make, a model, a colour, a first name) by its number.
const NONE: u32 = u32::MAX;

#[derive(Debug, Clone, Copy)]
struct Entry {
    /// The stored token and the register's kind, number, plate and validity, hashed with
    /// this process's key.
    fingerprint: u64,
    read_seq: i64,
    /// The driver, by number in `drivers`: the change log's scope `d:<id>`.
    driver: u32,
    suspended_until: Option<NaiveDate>,
    make: u32,
    model: u32,
    color: u32,
    /// `NONE` unless the verdict shows the driver (`valid`).
    first_name: u32,
    verdict: Verdict,
    status: AuthorizationStatus,
    photo: bool,
}

/// Values kept once, each by a number.
#[derive(Debug)]
struct Interned<T> {
    numbers: HashMap<T, u32>,
    values: Vec<T>,
}

impl<T> Default for Interned<T> {
    fn default() -> Self {
        Self {
            numbers: HashMap::new(),
            values: Vec::new(),
        }
    }
}

impl<T: Hash + Eq + Clone> Interned<T> {
    /// The number of `value` (`owned` makes it a value kept the first time).
    fn number<Q>(&mut self, value: &Q, owned: impl FnOnce() -> T) -> u32
    where
        T: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        if let Some(n) = self.numbers.get(value) {
            return *n;
        }
        let n = u32::try_from(self.values.len()).unwrap_or(NONE);
        let value = owned();
        self.values.push(value.clone());
        self.numbers.insert(value, n);
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
    entries: HashMap<Uuid, Entry>,
    words: Interned<Arc<str>>,
    drivers: Interned<Uuid>,
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
                    ..Kept::default()
                };
            }
        }
        if day.entries.len() >= self.at_most && !day.entries.contains_key(&status.meta.id) {
            return;
        }
        let driver = day.drivers.number(&status.driver_id, || status.driver_id);
        let mut word = |w: &str| day.words.number(w, || Arc::from(w));
        let (first_name, photo) = document.driver.as_ref().map_or((NONE, false), |d| {
            (word(&d.first_name), d.photo_url.is_some())
        });
        let entry = Entry {
            fingerprint,
            read_seq,
            driver,
            suspended_until: document.suspended_until,
            make: word(&vehicle.make),
            model: word(&vehicle.model),
            color: vehicle.color.as_deref().map_or(NONE, &mut word),
            first_name,
            verdict,
            status: s,
            photo,
        };
        day.entries.insert(status.meta.id, entry);
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
        let e = day.entries.get(&payload.document_id)?;
        if e.fingerprint != fingerprint {
            return None;
        }
        let driver = day.drivers.value(e.driver)?;
        let mut scope = [0u8; 2 + uuid::fmt::Hyphenated::LENGTH];
        scope[..2].copy_from_slice(b"d:");
        driver.hyphenated().encode_lower(&mut scope[2..]);
        let scope = std::str::from_utf8(&scope).ok()?;
        if changes.stale(Some(scope), e.read_seq) {
            return None;
        }
        let word = |n: u32| (n != NONE).then(|| day.words.value(n)).flatten();
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
            make: word(e.make)?,
            model: word(e.model)?,
            color: word(e.color).map(|c| &**c),
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

    /// What an entry costs besides the table's slack: its key and itself.
    #[test]
    fn an_entry_is_a_few_dozen_bytes() {
        assert!(
            std::mem::size_of::<Entry>() + std::mem::size_of::<Uuid>() <= 72,
            "{}",
            std::mem::size_of::<Entry>()
        );
    }
}
