//! Logging. Nothing sensitive is logged: no CPF, no keys, no bearer tokens, no request
//! bodies; requests are logged by route pattern.

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber (`RUST_LOG` overrides the default `info`).
pub fn init() {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false)
        .try_init();
}
