//! ITI's QR protocol: ITI's VALIDAR (validar.iti.gov.br), given a document's QR address, asks
//! that address for the signed file with `_format=application/validador-iti+json` and the code
//! printed on the document as `_secretCode`, then downloads the file the answer names and
//! validates its signature. Only the holder of the paper (who reads the code on it) gets the
//! file this way.

use crate::signing::token;
use crate::state::AppState;
use crate::storage::StorageError;
use crate::storage::documents::Document;

/// The `_format` VALIDAR sends.
pub const ITI_FORMAT: &str = "application/validador-iti+json";

/// What a validator gets for a token and the code it presents.
#[derive(Debug)]
pub enum ForValidator {
    /// The document, its code presented.
    File(Box<Document>),
    /// A code that is not this document's (or none).
    WrongCode,
    /// The token's signature does not verify with a trusted key, or it names no stored
    /// document.
    Unknown,
}

/// The document `raw_token` names, for a validator presenting `code`.
pub async fn for_validator(
    state: &AppState,
    raw_token: &str,
    code: Option<&str>,
) -> Result<ForValidator, StorageError> {
    let Ok(payload) = token::verify(raw_token, &state.keys.public) else {
        return Ok(ForValidator::Unknown);
    };
    let Some(doc) = state.store.document(payload.document_id).await? else {
        return Ok(ForValidator::Unknown);
    };
    if doc.token != raw_token {
        return Ok(ForValidator::Unknown);
    }
    let typed = code.and_then(|c| crate::documents::normalise_verification_code(c).ok());
    let right = typed.is_some_and(|c| {
        bool::from(subtle::ConstantTimeEq::ct_eq(
            c.as_bytes(),
            doc.verification_code.as_bytes(),
        ))
    });
    Ok(if right {
        ForValidator::File(Box::new(doc))
    } else {
        ForValidator::WrongCode
    })
}
