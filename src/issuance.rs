//! The use cases: every operation an official performs, for both laws. This layer is the only
//! caller of storage, documents and signing together; every document goes through the one
//! issuing pipeline (`pipeline`): reserve number ▶ render (blocking pool) ▶ sign the QR token
//! ▶ PAdES-sign ▶ commit with the decision's rows and events, or void the number with the
//! reason. Nothing is signed that the rules did not accept.
//!
//! Data flows one way: `http` ▶ `issuance` ▶ (`standing` | `storage` | `documents` |
//! `signing`) ▶ `domain`.

pub mod applicants;
pub mod archive;
pub mod audit;
pub mod backup;
pub mod calendar;
pub mod charter;
pub mod filings;
pub mod follows;
pub mod legal_bases;
pub mod numbering;
pub mod officials;
pub mod pipeline;
pub mod procedure;
pub mod rectification;
pub mod reports;
pub mod ride_hailing;

use crate::documents::render::RenderError;
use crate::domain::rule::RuleFailure;
use crate::signing::pades::PadesError;
use crate::storage::StorageError;

/// Why a use case did not complete. Every front end maps it once (the JSON API in
/// `http::problem`); nothing was committed and any reserved number was voided.
#[derive(Debug, thiserror::Error)]
pub enum UseCaseError {
    /// Legal requirements not met, each with its rule and article.
    #[error("legal requirements not met")]
    Rules(Vec<RuleFailure>),
    /// The record the operation acts on does not exist; the pt-BR sentence that says so.
    #[error("not found: {0}")]
    NotFound(&'static str),
    /// A record the request names in `field` does not exist; the pt-BR sentence that says so.
    #[error("unknown {field}")]
    UnknownReference {
        field: &'static str,
        message: &'static str,
    },
    /// A field contradicts what is recorded (a delivery before its notice); the pt-BR sentence.
    #[error("inconsistent {field}")]
    Inconsistent {
        field: &'static str,
        message: &'static str,
    },
    /// A record with the same unique datum (CPF, plate…) exists; `field` names it.
    #[error("duplicate {field}")]
    Duplicate {
        field: &'static str,
        message: &'static str,
    },
    /// The act cannot follow what is already recorded (a second baixa, an act out of the
    /// procedure's order); the pt-BR sentence, and the field it concerns when there is one.
    #[error("conflict: {detail}")]
    Conflict {
        detail: String,
        field: Option<(&'static str, String)>,
    },
    /// Another act on the same record was committed at the same moment; the pt-BR sentence.
    #[error("concurrent act: {0}")]
    Concurrent(&'static str),
    /// A defect of selo itself (a document kind sent down the wrong path).
    #[error("internal: {0}")]
    Internal(&'static str),
    #[error(transparent)]
    Storage(#[from] StorageError),
    #[error(transparent)]
    Render(#[from] RenderError),
    #[error(transparent)]
    PdfSignature(#[from] PadesError),
    #[error("could not build the QR code or verification code")]
    Encoding,
    /// A signature timestamp is required and the time-stamping authority gave none.
    #[error(transparent)]
    Timestamp(#[from] crate::signing::timestamp::TimestampError),
    /// The signer's certificate is revoked, as its authority's revocation list says.
    #[error(transparent)]
    SignerRevoked(crate::signing::revocation::RevocationError),
}

/// The URL a QR code carries.
pub fn verification_url(public_url: &str, token: &str) -> String {
    format!("{public_url}/v/{token}")
}
