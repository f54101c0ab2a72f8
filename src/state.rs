//! What every request handler shares.

pub mod limits;
pub mod throttle;
pub mod worklist;

use std::sync::{Arc, Mutex, PoisonError};

use crate::clock::Clock;
use crate::documents::Letterhead;
use crate::documents::render::Renderer;
use crate::domain::calendar::{CalendarSettings, ClosedDay, DeadlineRules};
use crate::domain::legal_basis::{CharterLegalBasis, LegalBases, RideHailingLegalBasis};
use crate::settings::Settings;
use crate::signing::keys::Keys;
use crate::storage::Store;

#[derive(Clone, Debug)]
pub struct AppState {
    pub store: Store,
    pub keys: Arc<Keys>,
    pub renderer: Renderer,
    pub clock: Arc<dyn Clock>,
    pub settings: Arc<Settings>,
    /// The versions of both laws, read again after the register changed.
    pub legal_bases: Arc<LegalBasesCache>,
    pub letterhead: Arc<Letterhead>,
    pub calendar_settings: Arc<CalendarSettings>,
    pub deadline_rules: Arc<DeadlineRules>,
    pub decreed_days: Arc<DecreedDaysCache>,
    /// Slots for PDF verifications: a body is read only while holding one.
    pub pdf_slots: Arc<tokio::sync::Semaphore>,
    /// Requests per client address.
    pub rate_limits: Arc<limits::RateLimits>,
    /// Failed sign-ins per login and address.
    pub login_throttle: Arc<throttle::LoginThrottle>,
    /// Wakes this node's e-mail sender when a message was queued.
    pub mail_wake: Arc<tokio::sync::Notify>,
    /// This node's metrics (`GET /metrics`).
    pub metrics: Arc<crate::metrics::Metrics>,
    /// The time-stamping authority every PDF signature's timestamp comes from, when set.
    pub tsa: Option<Arc<crate::signing::timestamp::Timestamper>>,
    /// The revocation lists a signer's certificates name, fetched and kept for the DSS.
    pub revocation: Arc<crate::signing::revocation::RevocationFetcher>,
    /// What each authorization in force has due, kept between worklists.
    pub worklist_cache: Arc<worklist::WorklistCache>,
}

/// The decreed days (pontos facultativos, recesses), read from the register again only after
/// an act on them: every deadline and vistoria status needs them, and they change by decree a
/// few times a year. A reading is kept while the change log (`storage::changes`), read up to
/// every commit known, names no act on everything after it (the calendar's acts are); when the
/// log is behind, while the register's generation is the one it was read at.
#[derive(Debug, Default)]
pub struct DecreedDaysCache(Mutex<Option<DecreedDays>>);

#[derive(Debug)]
struct DecreedDays {
    /// The change log's point and the generation when they were read.
    read_seq: Option<i64>,
    generation: u64,
    days: Arc<Vec<ClosedDay>>,
}

impl DecreedDaysCache {
    fn fresh(&self, changes: &crate::storage::changes::Changes) -> Option<Arc<Vec<ClosedDay>>> {
        let guard = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        guard
            .as_ref()
            .filter(|read| {
                read.read_seq
                    .is_some_and(|seq| !changes.everything_touched_since(seq))
                    || read.generation == changes.generation()
            })
            .map(|read| read.days.clone())
    }

    fn put(&self, read_seq: Option<i64>, generation: u64, days: Arc<Vec<ClosedDay>>) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(DecreedDays {
            read_seq,
            generation,
            days,
        });
    }
}

/// The legal bases as last read, with the register's generation they were read at.
#[derive(Debug)]
pub struct LegalBasesCache {
    bases: std::sync::RwLock<(u64, Arc<LegalBases>)>,
    /// When reading them last failed: no new attempt for a second, so a database that is
    /// down does not slow every request by a connection timeout.
    failed_at: Mutex<Option<std::time::Instant>>,
    /// One reading at a time: requests that find one under way go on with the bases last read.
    reading: tokio::sync::Mutex<()>,
}

impl LegalBasesCache {
    /// A generation no register has: the bases were not read from it yet.
    const UNREAD: u64 = u64::MAX;

    /// Bases read at `generation` (start-up reads them before the first request).
    pub fn new(generation: u64, bases: LegalBases) -> Self {
        Self {
            bases: std::sync::RwLock::new((generation, Arc::new(bases))),
            failed_at: Mutex::default(),
            reading: tokio::sync::Mutex::new(()),
        }
    }

    /// Only the repository's files: the register could not be read at start (its
    /// activations are read on the first request it answers).
    pub fn unread(bases: LegalBases) -> Self {
        Self::new(Self::UNREAD, bases)
    }

    pub fn current(&self) -> Arc<LegalBases> {
        self.bases
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .1
            .clone()
    }

    /// Whether the register's activations have been read (else only the files are known).
    pub fn read_from_register(&self) -> bool {
        self.read_at() != Self::UNREAD
    }

    fn read_at(&self) -> u64 {
        self.bases.read().unwrap_or_else(PoisonError::into_inner).0
    }

    fn put(&self, generation: u64, bases: LegalBases) {
        *self.bases.write().unwrap_or_else(PoisonError::into_inner) = (generation, Arc::new(bases));
        *self
            .failed_at
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = None;
    }

    fn failed_recently(&self) -> bool {
        self.failed_at
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_some_and(|t| t.elapsed() < std::time::Duration::from_secs(1))
    }

    fn failed(&self) {
        *self
            .failed_at
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(std::time::Instant::now());
    }
}

/// Why the legal bases could not be read again.
#[derive(Debug, thiserror::Error)]
pub enum BasesError {
    #[error(transparent)]
    Storage(#[from] crate::storage::StorageError),
    #[error("a stored legal basis does not load: {0}")]
    Refused(#[from] crate::domain::legal_basis::BasisRefused),
    #[error("the register did not answer in time")]
    Timeout,
}

impl AppState {
    /// The ride-hailing legal basis in force today.
    pub fn ride_hailing_basis(&self) -> Arc<RideHailingLegalBasis> {
        self.legal_bases.current().ride_hailing_on(self.today())
    }

    /// The ride-hailing version `version` as it was activated (what an act recorded it was
    /// made under), or the one in force today if the register does not know it.
    pub fn ride_hailing_basis_of(&self, version: &str) -> Arc<RideHailingLegalBasis> {
        self.legal_bases
            .current()
            .ride_hailing_version(version)
            .unwrap_or_else(|| self.ride_hailing_basis())
    }

    /// The charter version `version` as it was activated (what an act recorded it was made
    /// under), or the one in force today if the register does not know it.
    pub fn charter_basis_of(&self, version: &str) -> Arc<CharterLegalBasis> {
        self.legal_bases
            .current()
            .charter_version(version)
            .unwrap_or_else(|| self.charter_basis())
    }

    /// The charter legal basis in force today.
    pub fn charter_basis(&self) -> Arc<CharterLegalBasis> {
        self.legal_bases.current().charter_on(self.today())
    }

    /// Today in Barra do Garças (DL-11).
    pub fn today(&self) -> chrono::NaiveDate {
        crate::domain::dates::local_date(self.clock.now())
    }

    /// Whether the register changed since the bases were read (and no reading failed in the
    /// last second).
    pub fn legal_bases_stale(&self) -> bool {
        self.legal_bases.read_at() != self.store.changes().generation()
            && !self.legal_bases.failed_recently()
    }

    /// Reads the activated versions again if the register changed since they were read (a
    /// commit of this node, or a notification from another), unless a reading is under way.
    /// After a failure, the next attempt waits a second (the bases last read stay in force);
    /// an attempt takes at most 250 ms.
    pub async fn refresh_legal_bases(&self) -> Result<(), BasesError> {
        let Ok(_reading) = self.legal_bases.reading.try_lock() else {
            return Ok(());
        };
        self.read_legal_bases(true).await
    }

    /// The same, waiting for a reading under way to end first (after an activation of this
    /// node: what it answers next must know the new version).
    pub async fn refresh_legal_bases_now(&self) -> Result<(), BasesError> {
        let _reading = self.legal_bases.reading.lock().await;
        self.read_legal_bases(false).await
    }

    /// `backoff`: not again within a second of a failed reading.
    async fn read_legal_bases(&self, backoff: bool) -> Result<(), BasesError> {
        let generation = self.store.changes().generation();
        if self.legal_bases.read_at() == generation
            || (backoff && self.legal_bases.failed_recently())
        {
            return Ok(());
        }
        let read = async {
            Ok::<_, BasesError>(
                LegalBases::load_from(
                    &self.letterhead.profile.initial_bases,
                    self.store.legal_basis_activations().await?,
                )?
                .with_suspensions(self.store.legal_suspensions().await?),
            )
        };
        // Bounded, so a database that does not answer does not hold the request: it goes on
        // with the bases last read, and its own reads answer for the database.
        let read = async {
            tokio::time::timeout(std::time::Duration::from_millis(250), read)
                .await
                .unwrap_or(Err(BasesError::Timeout))
        };
        match read.await {
            Ok(bases) => {
                self.legal_bases.put(generation, bases);
                Ok(())
            }
            Err(e) => {
                self.legal_bases.failed();
                Err(e)
            }
        }
    }

    /// The calendar in force: statutory days, the switches, and the decreed days.
    pub async fn calendar(
        &self,
    ) -> Result<crate::domain::calendar::Calendar, crate::storage::StorageError> {
        let changes = self.store.changes();
        let days = if let Some(days) = self.decreed_days.fresh(changes) {
            days
        } else {
            // Read before the register: what an act commits meanwhile makes this reading stale.
            let (read_seq, generation) = (changes.read_point(), changes.generation());
            let days = Arc::new(self.store.decreed_days().await?);
            self.decreed_days.put(read_seq, generation, days.clone());
            days
        };
        Ok(crate::domain::calendar::Calendar::new(
            self.calendar_settings.as_ref().clone(),
            days.as_ref().clone(),
        ))
    }
}
