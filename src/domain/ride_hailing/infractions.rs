//! The catalogue of ride-hailing infractions as a legal basis writes it (`[[infractions]]`):
//! each infraction's id, citation, class, who can commit it and what a first offence and a
//! repeat bring besides the fine. Read and checked here; applied in `sanctions`.

use serde::{Deserialize, Serialize};

use crate::domain::infractions::{CatalogueEntry, text_ok};

/// Infraction class (art. 25).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum InfractionClass {
    Leve,
    Media,
    Grave,
    Gravissima,
}

impl InfractionClass {
    pub fn label_pt(self) -> &'static str {
        match self {
            Self::Leve => "leve",
            Self::Media => "média",
            Self::Grave => "grave",
            Self::Gravissima => "gravíssima",
        }
    }
}

/// Who can commit an infraction of the catalogue, judged on what the driver held the day it
/// was committed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Offender {
    /// Anyone.
    #[default]
    Any,
    /// A driver whose authorization was in force or suspended (the draft's art. 26, AMB-37).
    Authorized,
    /// A driver without an authorization in force (the draft's art. 27, AMB-36).
    Unauthorized,
}

/// A sanction the catalogue attaches to an infraction besides its fine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Penalty {
    /// Suspension of the authorization for `months` or `days` from the decision (DL-9).
    Suspension {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        months: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        days: Option<u32>,
        citation: String,
    },
    /// Revocation by cassação.
    Cassacao { citation: String },
    /// Notice to the platform to suspend the vehicle until regularized.
    PlatformNotice { citation: String },
}

impl Penalty {
    fn citation(&self) -> &str {
        match self {
            Self::Suspension { citation, .. }
            | Self::Cassacao { citation }
            | Self::PlatformNotice { citation } => citation,
        }
    }
}

/// One typified infraction, as the legal basis's catalogue (`[[infractions]]`) reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InfractionType {
    /// Its rule id (`APP-ART26-IV`), what an auto records.
    pub id: String,
    /// Its citation as printed on autos and notices.
    pub article: String,
    pub class: InfractionClass,
    pub description: String,
    #[serde(default)]
    pub offender: Offender,
    /// What a first offence brings besides the fine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penalty: Option<Penalty>,
    /// What a repeat within the recidivism window brings instead (AMB-26).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_repeat: Option<Penalty>,
}

impl CatalogueEntry for InfractionType {
    fn id(&self) -> &str {
        &self.id
    }
    fn article(&self) -> &str {
        &self.article
    }
    fn description(&self) -> &str {
        &self.description
    }
    /// A penalty's citation, and a suspension's length: months or days, one of them.
    fn problems(&self, at: &str, out: &mut Vec<String>) {
        for (field, penalty) in [("penalty", &self.penalty), ("on_repeat", &self.on_repeat)] {
            let Some(p) = penalty else { continue };
            if !text_ok(p.citation(), 120) {
                out.push(format!(
                    "{at}.{field}.citation: a citação, de 1 a 120 caracteres."
                ));
            }
            if let Penalty::Suspension { months, days, .. } = p {
                match (months, days) {
                    (Some(1..=120), None) | (None, Some(1..=3650)) => {}
                    _ => out.push(format!(
                        "{at}.{field}: uma suspensão tem `months` (1 a 120) ou `days` (1 a 3650), um só."
                    )),
                }
            }
        }
    }
}
