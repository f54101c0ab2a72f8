//! Logging. Nothing sensitive is logged: no CPF, no keys, no bearer tokens, no request
//! bodies; requests are logged by route pattern.

use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::writer::BoxMakeWriter;

/// Installs the global subscriber (`RUST_LOG` overrides the default `info`);
/// `SELO_LOG_FORMAT=json` writes one JSON object a line (the request's id among its fields).
/// The service logs to standard output; a command (`to_stderr`) to standard error, so that
/// what it prints (`selo audit checkpoint`'s JSON) is never mixed with a log line.
pub fn init(to_stderr: bool) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    let json = std::env::var("SELO_LOG_FORMAT").is_ok_and(|f| f.eq_ignore_ascii_case("json"));
    let writer = if to_stderr {
        BoxMakeWriter::new(std::io::stderr)
    } else {
        BoxMakeWriter::new(std::io::stdout)
    };
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false)
        .with_writer(writer);
    let _ = if json {
        builder.json().flatten_event(true).try_init()
    } else {
        builder.try_init()
    };
}
