//! Logging. Nothing sensitive is logged: no CPF, no keys, no bearer tokens, no request
//! bodies; requests are logged by route pattern.

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber (`RUST_LOG` overrides the default `info`);
/// `SELO_LOG_FORMAT=json` writes one JSON object a line (the request's id among its fields).
pub fn init() {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    let json = std::env::var("SELO_LOG_FORMAT").is_ok_and(|f| f.eq_ignore_ascii_case("json"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false);
    let _ = if json {
        builder.json().flatten_event(true).try_init()
    } else {
        builder.try_init()
    };
}
