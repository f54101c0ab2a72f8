//! What every request handler shares.

use std::sync::Arc;

use crate::clock::Clock;
use crate::documents::Letterhead;
use crate::documents::render::Renderer;
use crate::domain::calendar::{CalendarSettings, DeadlineRules};
use crate::domain::legal_basis::{AppLegalBasis, CharterLegalBasis};
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
    pub app_basis: Arc<AppLegalBasis>,
    pub charter_basis: Arc<CharterLegalBasis>,
    pub letterhead: Arc<Letterhead>,
    pub calendar_settings: Arc<CalendarSettings>,
    pub deadline_rules: Arc<DeadlineRules>,
}

impl AppState {
    /// The calendar in force: statutory days, the switches, and the decreed days.
    pub async fn calendar(
        &self,
    ) -> Result<crate::domain::calendar::Calendar, crate::storage::StorageError> {
        use crate::storage::Repository;
        Ok(crate::domain::calendar::Calendar::new(
            self.calendar_settings.as_ref().clone(),
            self.store.decreed_days().await?,
        ))
    }
}
