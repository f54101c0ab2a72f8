//! What every request handler shares.

pub mod limits;
pub mod throttle;

use std::sync::{Arc, Mutex, PoisonError};

use crate::clock::Clock;
use crate::documents::Letterhead;
use crate::documents::render::Renderer;
use crate::domain::calendar::{CalendarSettings, ClosedDay, DeadlineRules};
use crate::domain::legal_basis::{CharterLegalBasis, RideHailingLegalBasis};
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
    pub ride_hailing_basis: Arc<RideHailingLegalBasis>,
    pub charter_basis: Arc<CharterLegalBasis>,
    pub letterhead: Arc<Letterhead>,
    pub calendar_settings: Arc<CalendarSettings>,
    pub deadline_rules: Arc<DeadlineRules>,
    pub decreed_days: Arc<DecreedDaysCache>,
    /// Slots for PDF verifications: a body is read only while holding one (issue 14).
    pub pdf_slots: Arc<tokio::sync::Semaphore>,
    /// Requests per client address (issue 14).
    pub rate_limits: Arc<limits::RateLimits>,
    /// Failed sign-ins per login and address (issue 10).
    pub login_throttle: Arc<throttle::LoginThrottle>,
}

/// The decreed days (pontos facultativos, recesses), read from the register again only after
/// it changed (`storage::changes`: a commit of this node, or a notification from another):
/// every deadline and vistoria status needs them, and they change by decree a few times a year.
#[derive(Debug, Default)]
pub struct DecreedDaysCache(Mutex<Option<(u64, Arc<Vec<ClosedDay>>)>>);

impl DecreedDaysCache {
    fn fresh(&self, generation: u64) -> Option<Arc<Vec<ClosedDay>>> {
        let guard = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        guard
            .as_ref()
            .filter(|(read_at, _)| *read_at == generation)
            .map(|(_, days)| days.clone())
    }

    fn put(&self, generation: u64, days: Arc<Vec<ClosedDay>>) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some((generation, days));
    }
}

impl AppState {
    /// The calendar in force: statutory days, the switches, and the decreed days.
    pub async fn calendar(
        &self,
    ) -> Result<crate::domain::calendar::Calendar, crate::storage::StorageError> {
        use crate::storage::Repository;
        let generation = self.store.changes().generation();
        let days = if let Some(days) = self.decreed_days.fresh(generation) {
            days
        } else {
            let days = Arc::new(self.store.decreed_days().await?);
            self.decreed_days.put(generation, days.clone());
            days
        };
        Ok(crate::domain::calendar::Calendar::new(
            self.calendar_settings.as_ref().clone(),
            days.as_ref().clone(),
        ))
    }
}
