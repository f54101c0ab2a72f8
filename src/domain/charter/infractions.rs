//! The charter law's infractions as its basis file writes them (`[[infractions]]`): each
//! fined on the company with the basis's `fine_upf`, doubled on a repeat within the window
//! (art. 19, parágrafo único); `repeat_is_cassacao_ground` marks the one whose repeat opens the
//! cassação procedure (art. 20, IV).

use serde::{Deserialize, Serialize};

use crate::domain::infractions::CatalogueEntry;

/// One typified infraction of the charter law (art. 19, I–VI in Lei 4.937/2025).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CharterInfraction {
    /// Its rule id (`FRET-ART19-III`), what an auto records.
    pub id: String,
    /// Its citation, as printed on the auto and its notice.
    pub article: String,
    pub description: String,
    /// Repeating it within the window is a ground for cassação (art. 20, IV).
    #[serde(default)]
    pub repeat_is_cassacao_ground: bool,
}

impl CatalogueEntry for CharterInfraction {
    fn id(&self) -> &str {
        &self.id
    }
    fn article(&self) -> &str {
        &self.article
    }
    fn description(&self) -> &str {
        &self.description
    }
}
