//! Rate limits per client address: token verification, printed-code look-ups
//! (strict: the codes are 40 bits), PDF uploads, passengers' reports, and failed bearer tokens. The client address
//! is the peer's, or, when the peer is a configured reverse proxy (`SELO_TRUSTED_PROXIES`), the
//! nearest untrusted address of `X-Forwarded-For`. The HTTP layer decides what counts against
//! which limit and answers 429 (`http::limits`).

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use actix_web::http::header::HeaderMap;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

use crate::settings::{Limits, Rates};

/// What a request counts against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Verify,
    Code,
    Upload,
    Report,
}

impl Class {
    /// As the metrics name it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Verify => "verify",
            Self::Code => "code",
            Self::Upload => "upload",
            Self::Report => "report",
        }
    }
}

type Limiter = DefaultKeyedRateLimiter<IpAddr>;

/// The limiters of one node.
pub struct RateLimits {
    verify: Option<Limiter>,
    code: Option<Limiter>,
    upload: Option<Limiter>,
    report: Option<Limiter>,
    auth_failures: Option<AuthFailures>,
    trusted_proxies: Vec<IpAddr>,
}

impl std::fmt::Debug for RateLimits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimits")
            .field("trusted_proxies", &self.trusted_proxies)
            .finish_non_exhaustive()
    }
}

fn limiter(per_minute: u32) -> Option<Limiter> {
    NonZeroU32::new(per_minute).map(|n| Limiter::keyed(Quota::per_minute(n)))
}

impl RateLimits {
    pub fn new(limits: &Limits) -> Self {
        let Rates {
            verify,
            code,
            upload,
            report,
            auth_failures,
        } = limits.rates;
        Self {
            verify: limiter(verify),
            code: limiter(code),
            upload: limiter(upload),
            report: limiter(report),
            auth_failures: NonZeroU32::new(auth_failures).map(|max| AuthFailures {
                max: max.get(),
                windows: Mutex::new(HashMap::new()),
            }),
            trusted_proxies: limits.trusted_proxies.clone(),
        }
    }

    /// Forgets addresses not seen lately (bounded memory under many addresses).
    pub fn forget_idle(&self) {
        for l in [&self.verify, &self.code, &self.upload, &self.report]
            .into_iter()
            .flatten()
        {
            l.retain_recent();
            l.shrink_to_fit();
        }
        if let Some(a) = &self.auth_failures {
            a.forget_idle();
        }
    }

    /// The client's address: the peer, or behind a trusted proxy the nearest untrusted hop of
    /// `X-Forwarded-For`.
    pub fn client(&self, peer: Option<IpAddr>, headers: &HeaderMap) -> Option<IpAddr> {
        let peer = peer?;
        if !self.trusted_proxies.contains(&peer) {
            return Some(peer);
        }
        let hops: Vec<IpAddr> = headers
            .get_all("x-forwarded-for")
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|a| a.trim().parse().ok())
            .collect();
        Some(
            hops.into_iter()
                .rev()
                .find(|a| !self.trusted_proxies.contains(a))
                .unwrap_or(peer),
        )
    }

    pub fn check(&self, class: Class, client: IpAddr) -> Result<(), Refused> {
        let (limiter, what) = match class {
            Class::Verify => (&self.verify, "verificações"),
            Class::Code => (&self.code, "consultas de código"),
            Class::Upload => (&self.upload, "envios de PDF"),
            Class::Report => (&self.report, "denúncias"),
        };
        let Some(limiter) = limiter else {
            return Ok(());
        };
        limiter.check_key(&client).map_err(|not_until| Refused {
            what,
            wait: not_until.wait_time_from(DefaultClock::default().now()),
        })
    }

    /// Before a bearer token is compared: refuses an address past its failures.
    pub fn before_auth(&self, client: Option<IpAddr>) -> Result<(), Refused> {
        match (&self.auth_failures, client) {
            (Some(a), Some(ip)) => a.check(ip),
            _ => Ok(()),
        }
    }

    /// After a wrong or missing bearer token.
    pub fn auth_failed(&self, client: Option<IpAddr>) {
        if let (Some(a), Some(ip)) = (&self.auth_failures, client) {
            a.record(ip);
        }
    }
}

/// A request over its limit: what was limited (pt-BR, plural) and how long to wait.
#[derive(Debug, Clone, Copy)]
pub struct Refused {
    pub what: &'static str,
    pub wait: Duration,
}

/// Failed bearer tokens per address in fixed one-minute windows: checked before a token is
/// compared, so a guesser past the limit learns nothing more.
struct AuthFailures {
    max: u32,
    windows: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

const WINDOW: Duration = Duration::from_mins(1);

impl AuthFailures {
    fn check(&self, ip: IpAddr) -> Result<(), Refused> {
        let windows = self.windows.lock().unwrap_or_else(PoisonError::into_inner);
        match windows.get(&ip) {
            Some((start, n)) if *n >= self.max && start.elapsed() < WINDOW => Err(Refused {
                what: "tentativas de acesso com token inválido",
                wait: WINDOW.saturating_sub(start.elapsed()),
            }),
            _ => Ok(()),
        }
    }

    fn record(&self, ip: IpAddr) {
        let mut windows = self.windows.lock().unwrap_or_else(PoisonError::into_inner);
        let entry = windows.entry(ip).or_insert((Instant::now(), 0));
        if entry.0.elapsed() >= WINDOW {
            *entry = (Instant::now(), 0);
        }
        entry.1 += 1;
    }

    fn forget_idle(&self) {
        self.windows
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|_, (start, _)| start.elapsed() < WINDOW);
    }
}
