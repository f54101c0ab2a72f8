//! Charter transport, Lei 4.937/2025: companies, vehicles, drivers,
//! contracts, the Termo de Autorização and statuses on a date. Pure functions: facts and the
//! date come in (America/Cuiaba, DL-11), a decision with reasons comes out. Every number is a
//! parameter of [`CharterLegalBasis`]. Infractions and the procedure are in `sanctions`.

mod company;
mod contract;
mod driver;
pub mod infractions;
pub mod requirement_kinds;
mod requirements;
pub mod sanctions;
mod vehicle;

pub use company::*;
pub use contract::*;
pub use driver::*;
pub use requirements::*;
pub use vehicle::*;

use chrono::{Datelike, NaiveDate};
use serde::{Deserialize, Serialize};

use super::calendar::{Calendar, Deadline, DeadlineRules, bar_lifts_on, deadline_in_days};
use super::dates::add_months;
use super::ids::{CnhCategory, Cnpj, Cpf, Plate};
use super::legal_basis::CharterLegalBasis;
use super::rule::{RuleFailure, fail};

type Failures = Vec<RuleFailure>;

/// A document presented to SIS, with its printed dates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Proof {
    /// Number, protocol or short description of the document.
    pub reference: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issued_on: Option<NaiveDate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid_until: Option<NaiveDate>,
}

/// FRET-ART1-PU-I / FRET-ART4: the modality a Termo authorizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Modality {
    Continuo,
    Eventual,
    /// Art. 4: own-account transport, also under municipal authorization (AMB-12).
    TransporteProprio,
}

impl Modality {
    pub fn label_pt(self) -> &'static str {
        match self {
            Self::Continuo => "Fretamento contínuo",
            Self::Eventual => "Fretamento eventual",
            Self::TransporteProprio => "Transporte próprio (art. 4º)",
        }
    }
}

#[cfg(test)]
mod tests;
