//! Keys, signed tokens (`COSE_Sign1` with Ed25519) and, later, PDF signatures.

pub mod keys;
pub mod token;
