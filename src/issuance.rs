//! The use cases: every operation an official performs, for both laws. This layer is the only
//! caller of storage, documents and signing together; every document goes through the one
//! issuing pipeline (`pipeline`): reserve number ▶ render (blocking pool) ▶ sign the QR token
//! ▶ PAdES-sign ▶ commit with the decision's rows and events, or void the number with the
//! reason. Nothing is signed that the rules did not accept.
//!
//! Data flows one way: `http` ▶ `issuance` ▶ (`standing` | `storage` | `documents` |
//! `signing`) ▶ `domain`.

pub mod charter;
pub mod pipeline;
pub mod ride_hailing;

use crate::documents::render::RenderError;
use crate::domain::rule::RuleFailure;
use crate::signing::pades::PadesError;
use crate::storage::StorageError;

#[derive(Debug, thiserror::Error)]
pub enum GrantError {
    #[error("legal requirements not met")]
    Rules(Vec<RuleFailure>),
    #[error("{0} not found")]
    Missing(&'static str),
    #[error(transparent)]
    Storage(#[from] StorageError),
    #[error(transparent)]
    Render(#[from] RenderError),
    #[error(transparent)]
    PdfSignature(#[from] PadesError),
    #[error("could not build the QR code or verification code")]
    Encoding,
}

/// The URL a QR code carries.
pub fn verification_url(public_url: &str, token: &str) -> String {
    format!("{public_url}/v/{token}")
}
