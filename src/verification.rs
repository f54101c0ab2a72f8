//! Verification: the signature (offline, never needs the database) and then the live status
//! (needs the database). When the database is unreachable the answer says so plainly.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;

use crate::domain::app::{AuthorizationStatus, status_at};
use crate::signing::keys::KeySet;
use crate::signing::token::{self, TokenError, TokenPayload};
use crate::storage::{DocumentKind, DocumentStatus, Repository, StorageError};

/// The verdict on a scanned token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Signed by the city, in the register, in force.
    Valid,
    /// Authentic, but past its last day (America/Cuiaba).
    Expired,
    /// Authentic, but revoked.
    Revoked,
    /// The signature does not match: forged or altered.
    InvalidSignature,
    /// Signed by a key the city never published.
    UnknownKey,
    /// Not a selo token at all.
    Malformed,
    /// Authentic signature, but the register has no matching document: do not trust it.
    UnknownDocument,
    /// Authentic signature, but the register could not be reached to check the status.
    StatusUnavailable,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Valid => "valid",
            Self::Expired => "expired",
            Self::Revoked => "revoked",
            Self::InvalidSignature => "invalid_signature",
            Self::UnknownKey => "unknown_key",
            Self::Malformed => "malformed",
            Self::UnknownDocument => "unknown_document",
            Self::StatusUnavailable => "status_unavailable",
        }
    }
}

/// What the public tier may see of a document (LGPD art. 6º, III: no name, no CPF).
#[derive(Debug, Clone, Serialize)]
pub struct PublicDocument {
    pub kind: DocumentKind,
    pub number: String,
    pub plate: String,
    pub valid_until: NaiveDate,
    pub status: AuthorizationStatus,
}

#[derive(Debug, Clone, Serialize)]
pub struct Verification {
    pub verdict: Verdict,
    pub checked_at: DateTime<Utc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document: Option<PublicDocument>,
}

fn matches_register(payload: &TokenPayload, status: &DocumentStatus) -> bool {
    payload.kind == status.meta.kind.as_str()
        && payload.number == status.meta.number
        && payload.plate == status.plate.as_str()
        && payload.valid_until == status.valid_until
}

/// Verdict of the live status of a document found in the register.
pub fn live_verdict(status: &DocumentStatus, now: DateTime<Utc>) -> (Verdict, PublicDocument) {
    let s = status_at(status.valid_until, status.revoked_at, now);
    let verdict = match s {
        AuthorizationStatus::Active => Verdict::Valid,
        AuthorizationStatus::Expired => Verdict::Expired,
        AuthorizationStatus::Revoked => Verdict::Revoked,
    };
    let doc = PublicDocument {
        kind: status.meta.kind,
        number: status.meta.number.clone(),
        plate: status.plate.formatted(),
        valid_until: status.valid_until,
        status: s,
    };
    (verdict, doc)
}

/// Verifies a scanned token at `now`.
pub async fn verify_token<R: Repository>(
    raw: &str,
    keys: &KeySet,
    store: &R,
    now: DateTime<Utc>,
) -> Verification {
    let outcome = |verdict, document| Verification {
        verdict,
        checked_at: now,
        document,
    };
    let payload = match token::verify(raw, keys) {
        Ok(p) => p,
        Err(TokenError::Malformed(_)) => return outcome(Verdict::Malformed, None),
        Err(TokenError::UnknownKey) => return outcome(Verdict::UnknownKey, None),
        Err(TokenError::InvalidSignature) => return outcome(Verdict::InvalidSignature, None),
    };
    match store.document_status(payload.document_id).await {
        Ok(Some(status)) if matches_register(&payload, &status) => {
            let (verdict, doc) = live_verdict(&status, now);
            outcome(verdict, Some(doc))
        }
        Ok(_) => outcome(Verdict::UnknownDocument, None),
        Err(e) => {
            log_storage_error(&e);
            outcome(Verdict::StatusUnavailable, None)
        }
    }
}

fn log_storage_error(e: &StorageError) {
    tracing::error!(error = %e, "status lookup failed during verification");
}
