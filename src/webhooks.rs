//! The node's webhook worker: every `poll` it runs one pass of the relay (what changed for
//! each platform's drivers, queued once however many nodes run it) and then sends what is
//! due, each delivery claimed with a lease, signed (RFC 9421, Ed25519, the published key),
//! sent as a `POST`, and its attempt recorded. A platform that does not answer 2xx is tried again with
//! growing waits, up to [`crate::mail::MAX_ATTEMPTS`] times; then the delivery is `failed` and
//! the back office shows it.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};

use crate::issuance::ride_hailing::webhooks::relay_pass;
use crate::mail::{MAX_ATTEMPTS, retry_delay};
use crate::signing::http_signature;
use crate::state::AppState;
use crate::storage::ride_hailing::webhooks::{DeliveryOutcome, QueuedDelivery};

/// Deliveries one node claims at a time.
const BATCH: i64 = 10;
/// The content type of every delivery.
pub const CONTENT_TYPE: &str = "application/json";

/// Sends webhooks for one node.
pub struct Worker {
    pub state: AppState,
    pub client: reqwest::Client,
    /// Names this node in leases and attempts.
    pub node: String,
}

impl Worker {
    /// The worker of this node, with an HTTP client that follows no redirect.
    pub fn new(state: AppState) -> anyhow::Result<Self> {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(state.settings.webhooks.timeout)
            .user_agent(concat!("selo-webhooks/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(Self {
            state,
            client,
            node: format!("node-{}", uuid::Uuid::new_v4().simple()),
        })
    }

    /// Runs for ever on the current runtime.
    pub fn spawn(self) {
        let worker = Arc::new(self);
        tokio::spawn(async move {
            loop {
                if let Err(e) = relay_pass(&worker.state).await {
                    tracing::warn!(error = %e, "the webhook relay could not read the register; trying again later");
                }
                if let Err(e) = worker.drain().await {
                    tracing::warn!(error = %e, "the webhook queue could not be read; trying again later");
                }
                tokio::time::sleep(worker.state.settings.webhooks.poll).await;
            }
        });
    }

    /// Sends everything due now; answers how many attempts were made.
    pub async fn drain(&self) -> anyhow::Result<usize> {
        let mut tried = 0;
        let lease =
            Duration::from_std(self.state.settings.webhooks.lease).unwrap_or(Duration::minutes(1));
        loop {
            let now = self.state.clock.now();
            let batch = self
                .state
                .store
                .claim_webhooks(&self.node, now, now + lease, BATCH)
                .await?;
            if batch.is_empty() {
                return Ok(tried);
            }
            for delivery in batch {
                let url = delivery.url.clone().unwrap_or_default();
                let outcome = self.send(&delivery, self.state.clock.now()).await;
                match &outcome {
                    DeliveryOutcome::Delivered { http_status } => {
                        tracing::info!(delivery = %delivery.id, http_status, "webhook delivered");
                    }
                    DeliveryOutcome::Retry { error, at, .. } => {
                        tracing::warn!(delivery = %delivery.id, error, retry_at = %at, "webhook not delivered; will retry");
                    }
                    DeliveryOutcome::Failed { error, .. } => {
                        tracing::warn!(delivery = %delivery.id, error, "webhook failed for good");
                    }
                }
                self.state
                    .store
                    .webhook_attempted(
                        delivery.id,
                        &self.node,
                        &url,
                        self.state.clock.now(),
                        &outcome,
                    )
                    .await?;
                tried += 1;
            }
        }
    }

    async fn send(&self, d: &QueuedDelivery, now: DateTime<Utc>) -> DeliveryOutcome {
        let Some(url) = d.url.as_deref() else {
            return DeliveryOutcome::Failed {
                http_status: None,
                error: "A plataforma não tem endereço de webhook cadastrado: comunique por ofício."
                    .into(),
            };
        };
        let retry_or_fail = |http_status: Option<i64>, error: String| {
            if d.attempts + 1 >= MAX_ATTEMPTS {
                DeliveryOutcome::Failed { http_status, error }
            } else {
                DeliveryOutcome::Retry {
                    http_status,
                    error,
                    at: now + retry_delay(d.attempts + 1),
                }
            }
        };
        let nonce = format!("{}.{}", d.id.simple(), d.attempts + 1);
        let signed = http_signature::sign_post(
            &self.state.keys.active,
            url,
            CONTENT_TYPE,
            d.payload.as_bytes(),
            now.timestamp(),
            &nonce,
        );
        let sent = self
            .client
            .post(url)
            .header("Content-Type", CONTENT_TYPE)
            .header("Content-Digest", &signed.content_digest)
            .header("Signature-Input", &signed.signature_input)
            .header("Signature", &signed.signature)
            .body(d.payload.clone())
            .send()
            .await;
        match sent {
            Ok(r) if r.status().is_success() => DeliveryOutcome::Delivered {
                http_status: i64::from(r.status().as_u16()),
            },
            Ok(r) => retry_or_fail(
                Some(i64::from(r.status().as_u16())),
                format!("a plataforma respondeu HTTP {}", r.status().as_u16()),
            ),
            Err(e) => retry_or_fail(None, format!("a plataforma não respondeu: {}", reason(&e))),
        }
    }
}

/// What went wrong, without the URL (it may carry a platform's path secrets).
fn reason(e: &reqwest::Error) -> &'static str {
    if e.is_timeout() {
        "tempo esgotado"
    } else if e.is_connect() {
        "conexão recusada ou endereço inalcançável"
    } else if e.is_redirect() {
        "redirecionamento (não seguido)"
    } else {
        "erro de rede"
    }
}
