//! selo: issues and verifies the signed documents of regulated passenger transport in
//! Barra do Garças-MT (charter transport, Lei 4.937/2025; ride-hailing, consolidated law).
//!
//! Data flows one way: HTTP DTO → parsed domain value → use case → storage / renderer /
//! signer → response. The law lives in [`domain`] only.

pub mod cli;
pub mod clock;
pub mod documents;
pub mod domain;
pub mod http;
pub mod issuance;
pub mod mail;
pub mod metrics;
pub mod settings;
pub mod signing;
pub mod standing;
pub mod startup;
pub mod state;
pub mod storage;
pub mod telemetry;
pub mod verification;
pub mod webhooks;
