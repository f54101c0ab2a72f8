//! Official numbering that survives a crash: every number of every series ends
//! issued or voided. A number is reserved (and committed) before its document is signed; if
//! the process dies before the document commits, the reservation would stay open for ever, an
//! unexplained gap. This sweep voids such reservations with the reason "emissão interrompida";
//! a commit that arrives after finds its number voided and fails, so no document is ever
//! issued under a voided number.

use std::time::Duration;

use crate::issuance::UseCaseError;
use crate::state::AppState;

/// The reason recorded on a number whose issuance never committed.
pub const INTERRUPTED: &str = "emissão interrompida";

/// Voids every reservation older than the configured timeout; answers the numbers voided.
pub async fn void_interrupted(state: &AppState) -> Result<Vec<String>, UseCaseError> {
    let now = state.clock.now();
    let timeout = chrono::Duration::from_std(state.settings.limits.reservation_timeout)
        .unwrap_or_else(|_| chrono::Duration::minutes(5));
    let voided = state
        .store
        .void_stale_reservations(now - timeout, INTERRUPTED, now)
        .await?;
    if !voided.is_empty() {
        tracing::warn!(
            count = voided.len(),
            "voided numbers whose issuance never committed (emissão interrompida)"
        );
    }
    Ok(voided)
}

/// Runs [`void_interrupted`] now (start-up awaits it before serving) and then every minute (or
/// every timeout, if shorter), for as long as the process lives.
pub async fn start_sweeper(state: AppState) {
    if let Err(e) = void_interrupted(&state).await {
        tracing::error!(error = %e, "could not sweep interrupted reservations at start");
    }
    let every = state
        .settings
        .limits
        .reservation_timeout
        .min(Duration::from_mins(1))
        .max(Duration::from_secs(1));
    tokio::spawn(async move {
        let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        loop {
            tick.tick().await;
            if let Err(e) = void_interrupted(&state).await {
                tracing::error!(error = %e, "could not sweep interrupted reservations");
            }
        }
    });
}
