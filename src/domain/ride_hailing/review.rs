//! AMB-25: a grant or renewal that a requirement of the legal basis sends to an official's
//! review instead of deciding it (a CTB art. 306 prosecution under way, in the reading the
//! basis names). It is filed `em_analise` with its reasons and decided once, by an official,
//! with grounds: granted — the same grant, with the filing's fee and protocol dates — or
//! refused. No document exists before the grant.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use uuid::Uuid;

use crate::domain::requirements::ReviewReason;

/// Where a filing stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReviewStatus {
    /// Waiting for an official's decision; nothing issued.
    EmAnalise,
    /// Granted by an official: the authorization names the grant.
    Deferido,
    /// Refused by an official, with the grounds.
    Indeferido,
}

impl ReviewStatus {
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::EmAnalise => "em_analise",
            Self::Deferido => "deferido",
            Self::Indeferido => "indeferido",
        }
    }
}

/// An official's decision on a filing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewOutcome {
    Granted,
    Refused,
}

impl ReviewOutcome {
    pub const fn status(self) -> ReviewStatus {
        match self {
            Self::Granted => ReviewStatus::Deferido,
            Self::Refused => ReviewStatus::Indeferido,
        }
    }

    pub fn parse(stored: &str) -> Option<Self> {
        match stored {
            "deferido" => Some(Self::Granted),
            "indeferido" => Some(Self::Refused),
            _ => None,
        }
    }
}

/// A decided filing: by whom, when, why, and (granted) the authorization it made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewDecision {
    pub outcome: ReviewOutcome,
    pub grounds: String,
    pub decided_at: DateTime<Utc>,
    pub decided_by: String,
    pub authorization_id: Option<Uuid>,
}

/// A grant or renewal filed for review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrantReview {
    pub id: Uuid,
    pub driver_id: Uuid,
    pub vehicle_id: Uuid,
    /// The authorization a renewal renews; `None` for a grant.
    pub renewal_of: Option<Uuid>,
    pub fee_paid_on: NaiveDate,
    pub protocolled_on: NaiveDate,
    /// What sent it to review, as the basis cites it.
    pub reasons: Vec<ReviewReason>,
    /// The basis that sent it.
    pub legal_basis_version: String,
    pub filed_at: DateTime<Utc>,
    pub filed_by: String,
    pub decision: Option<ReviewDecision>,
}

impl GrantReview {
    pub fn status(&self) -> ReviewStatus {
        self.decision
            .as_ref()
            .map_or(ReviewStatus::EmAnalise, |d| d.outcome.status())
    }
}
