//! The service's metrics, for the city's monitoring: `GET /metrics` in the OpenMetrics text
//! format (which Prometheus reads), behind the operator's token (`SELO_METRICS_TOKEN`).
//! Counted as things happen: requests by route pattern, method and status, with their
//! latency; verification verdicts; documents signed by kind, with the render-and-sign time;
//! rate-limit refusals by class. Read at each scrape: the database pool, the e-mail and
//! webhook queues. No label carries personal data: routes are patterns, never paths.

use std::sync::atomic::AtomicU64;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    pub route: String,
    pub method: String,
    pub status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    pub route: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct VerdictLabels {
    /// `token` (a QR) or `code` (a typed code).
    pub by: &'static str,
    pub verdict: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct KindLabels {
    pub kind: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct OutcomeLabels {
    pub outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ClassLabels {
    pub class: &'static str,
}

/// The values read at each scrape.
#[derive(Debug, Default)]
pub struct Sampled {
    pub pool_size: i64,
    pub pool_idle: i64,
    pub mail_queued: i64,
    pub mail_failed: i64,
    pub webhooks_queued: i64,
    /// Seconds since this node last built the signed status list; `None`: not built yet.
    pub status_list_age: Option<i64>,
}

fn latency() -> Histogram {
    // 0.5 ms to about 8 s.
    Histogram::new(exponential_buckets(0.0005, 2.0, 15))
}

/// The status list's counters: lists brought up to date by kind, documents judged.
fn status_list_counters(
    registry: &mut Registry,
) -> (Family<KindLabels, Counter>, Counter<u64, AtomicU64>) {
    let status_list_builds = Family::<KindLabels, Counter>::default();
    registry.register(
        "status_list_builds",
        "Signed status lists brought up to date: `full` judged every document, `incremental` those of the acts since",
        status_list_builds.clone(),
    );
    let status_list_judged = Counter::default();
    registry.register(
        "status_list_judged_documents",
        "Documents judged to build the signed status list",
        status_list_judged.clone(),
    );
    (status_list_builds, status_list_judged)
}

/// A gauge, registered.
fn gauge(registry: &mut Registry, name: &str, help: &str) -> Gauge {
    let g = Gauge::default();
    registry.register(name, help, g.clone());
    g
}

/// A plain counter, registered.
fn counter(registry: &mut Registry, name: &str, help: &str) -> Counter<u64, AtomicU64> {
    let c = Counter::default();
    registry.register(name, help, c.clone());
    c
}

/// Signature timestamps asked of the time-stamping authority, and revocation data sought for
/// the DSS, by outcome.
struct SigningCounters {
    timestamps: Family<OutcomeLabels, Counter>,
    validation_data: Family<OutcomeLabels, Counter>,
}

fn signing_counters(registry: &mut Registry) -> SigningCounters {
    let timestamps = Family::<OutcomeLabels, Counter>::default();
    registry.register(
        "signature_timestamps",
        "Signature timestamps asked of the time-stamping authority: `stamped`, `refused` (nothing issued) or `issued_without` (issued without one, as configured)",
        timestamps.clone(),
    );
    let validation_data = Family::<OutcomeLabels, Counter>::default();
    registry.register(
        "validation_data",
        "Documents whose signer names revocation lists: `embedded` (the lists in the DSS) or `unavailable` (issued without them)",
        validation_data.clone(),
    );
    SigningCounters {
        timestamps,
        validation_data,
    }
}

/// One node's metrics.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    request_seconds: Family<RouteLabels, Histogram, fn() -> Histogram>,
    verdicts: Family<VerdictLabels, Counter>,
    signed: Family<KindLabels, Counter>,
    sign_seconds: Histogram,
    rate_limited: Family<ClassLabels, Counter>,
    pool_size: Gauge,
    pool_idle: Gauge,
    mail_queued: Gauge,
    mail_failed: Gauge,
    webhooks_queued: Gauge,
    status_list_age: Gauge,
    status_list_builds: Family<KindLabels, Counter>,
    status_list_judged: Counter<u64, AtomicU64>,
    signing: SigningCounters,
    database_errors: Counter<u64, AtomicU64>,
    status_from_memory: Counter<u64, AtomicU64>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    pub fn new() -> Self {
        let mut registry = Registry::with_prefix("selo");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by route pattern, method and status",
            requests.clone(),
        );
        let request_seconds =
            Family::<RouteLabels, Histogram, fn() -> Histogram>::new_with_constructor(latency);
        registry.register(
            "http_request_duration_seconds",
            "Time to answer a request, by route pattern",
            request_seconds.clone(),
        );
        let verdicts = Family::<VerdictLabels, Counter>::default();
        registry.register(
            "verifications",
            "Verifications answered, by what was scanned and the verdict",
            verdicts.clone(),
        );
        let signed = Family::<KindLabels, Counter>::default();
        registry.register(
            "documents_signed",
            "Documents rendered and signed, by kind",
            signed.clone(),
        );
        let sign_seconds = Histogram::new(exponential_buckets(0.005, 2.0, 12));
        registry.register(
            "document_render_sign_seconds",
            "Time to render and sign one document (token, QR, Typst, PAdES)",
            sign_seconds.clone(),
        );
        let rate_limited = Family::<ClassLabels, Counter>::default();
        registry.register(
            "rate_limited",
            "Requests refused with 429, by class of limit",
            rate_limited.clone(),
        );
        let pool_size = gauge(
            &mut registry,
            "db_pool_connections",
            "Database connections open",
        );
        let pool_idle = gauge(
            &mut registry,
            "db_pool_idle_connections",
            "Database connections idle",
        );
        let mail_queued = gauge(
            &mut registry,
            "outbox_queued_messages",
            "E-mail messages waiting to be sent",
        );
        let mail_failed = gauge(
            &mut registry,
            "outbox_failed_messages",
            "E-mail messages that failed for good",
        );
        let webhooks_queued = gauge(
            &mut registry,
            "webhook_queued_deliveries",
            "Platform webhook deliveries waiting to be sent",
        );
        let status_list_age = gauge(
            &mut registry,
            "status_list_age_seconds",
            "Seconds since this node built the signed status list it serves (-1: none yet)",
        );
        let (status_list_builds, status_list_judged) = status_list_counters(&mut registry);
        let signing = signing_counters(&mut registry);
        let database_errors = counter(
            &mut registry,
            "metrics_database_errors",
            "Scrapes whose database readings failed",
        );
        let status_from_memory = counter(
            &mut registry,
            "verify_status_from_memory",
            "Scans whose document's status was the verdict kept in memory for the day",
        );
        Self {
            registry,
            requests,
            request_seconds,
            verdicts,
            signed,
            sign_seconds,
            rate_limited,
            pool_size,
            pool_idle,
            mail_queued,
            mail_failed,
            webhooks_queued,
            status_list_age,
            status_list_builds,
            status_list_judged,
            signing,
            database_errors,
            status_from_memory,
        }
    }

    /// A scan answered with the verdict kept in memory for its document.
    pub fn status_from_memory(&self) {
        self.status_from_memory.inc();
    }

    /// A status list brought up to date (`full` or `incremental`), judging `judged` documents.
    pub fn status_list_built(&self, kind: &'static str, judged: u64) {
        self.status_list_builds
            .get_or_create(&KindLabels { kind })
            .inc();
        self.status_list_judged.inc_by(judged);
    }

    /// A signature timestamp asked for: `stamped`, `refused` or `issued_without`.
    pub fn timestamp(&self, outcome: &'static str) {
        self.signing
            .timestamps
            .get_or_create(&OutcomeLabels { outcome })
            .inc();
    }

    /// Revocation data sought for a document's DSS: `embedded` or `unavailable`.
    pub fn validation_data(&self, outcome: &'static str) {
        self.signing
            .validation_data
            .get_or_create(&OutcomeLabels { outcome })
            .inc();
    }

    /// A request answered: its route pattern (never the path), method, status and time.
    pub fn request(&self, route: String, method: &str, status: u16, seconds: f64) {
        let route = RouteLabels { route };
        self.request_seconds.get_or_create(&route).observe(seconds);
        self.requests
            .get_or_create(&RequestLabels {
                route: route.route,
                method: method.to_owned(),
                status,
            })
            .inc();
    }

    pub fn verdict(&self, by: &'static str, verdict: &'static str) {
        self.verdicts
            .get_or_create(&VerdictLabels { by, verdict })
            .inc();
    }

    pub fn signed(&self, kind: &'static str, seconds: f64) {
        self.signed.get_or_create(&KindLabels { kind }).inc();
        self.sign_seconds.observe(seconds);
    }

    pub fn rate_limited(&self, class: &'static str) {
        self.rate_limited
            .get_or_create(&ClassLabels { class })
            .inc();
    }

    /// The text of a scrape, with the values read now.
    pub fn encode(&self, sampled: Option<&Sampled>) -> Result<String, std::fmt::Error> {
        match sampled {
            Some(s) => {
                self.pool_size.set(s.pool_size);
                self.pool_idle.set(s.pool_idle);
                self.mail_queued.set(s.mail_queued);
                self.mail_failed.set(s.mail_failed);
                self.webhooks_queued.set(s.webhooks_queued);
                self.status_list_age.set(s.status_list_age.unwrap_or(-1));
            }
            None => {
                self.database_errors.inc();
            }
        }
        let mut out = String::new();
        prometheus_client::encoding::text::encode(&mut out, &self.registry)?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scrape_lists_what_was_counted_by_pattern() {
        let m = Metrics::new();
        m.request("/api/v1/verify/{token}".to_owned(), "GET", 200, 0.002);
        m.verdict("token", "valid");
        m.signed("app_sticker", 0.2);
        m.rate_limited("verify");
        let text = m.encode(Some(&Sampled::default())).unwrap();
        assert!(text.contains(
            r#"selo_http_requests_total{route="/api/v1/verify/{token}",method="GET",status="200"} 1"#
        ), "{text}");
        assert!(text.contains(r#"selo_verifications_total{by="token",verdict="valid"} 1"#));
        assert!(text.contains(r#"selo_documents_signed_total{kind="app_sticker"} 1"#));
        assert!(text.contains(r#"selo_rate_limited_total{class="verify"} 1"#));
        assert!(text.contains("selo_document_render_sign_seconds_count 1"));
        assert!(text.ends_with("# EOF\n"));
    }
}
