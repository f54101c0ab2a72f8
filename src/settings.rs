//! Settings from the environment (see the configuration table of docs/operations.md).

use std::path::PathBuf;

/// Development or production: production refuses insecure defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Environment {
    Development,
    Production,
}

#[derive(Clone)]
pub struct Settings {
    /// `SELO_LISTEN`, default `127.0.0.1:8080`.
    pub listen: String,
    /// `SELO_PUBLIC_URL`, default `http://127.0.0.1:8080`: base of the links in QR codes.
    pub public_url: String,
    /// `DATABASE_URL`, default `sqlite://data/selo.db`.
    pub database_url: String,
    /// `SELO_KEYS_DIR`, default `keys`.
    pub keys_dir: PathBuf,
    /// `SELO_ENV`: `production` or anything else (development).
    pub environment: Environment,
    /// `SELO_ADMIN_TOKEN`: bearer token accepted on issuing endpoints.
    pub admin_token: Option<String>,
    /// `SELO_OUVIDORIA_PHONE`: printed on stickers (APP-ART14); overrides the profile's.
    pub ouvidoria_phone: Option<String>,
    /// `SELO_PROFILE`: the municipality profile (TOML); default: the Barra do
    /// Garças profile embedded from `templates/profile/barra-do-garcas.toml`.
    pub profile: Option<PathBuf>,
    /// `SELO_RENDER_THREADS`, default: the number of CPUs.
    pub render_threads: usize,
    /// `SELO_WORKERS`, default: the number of CPUs.
    pub workers: usize,
    /// What one client may hold of the service (uploads).
    pub limits: Limits,
    /// How e-mail leaves: the city's SMTP server, or a folder in development.
    pub mail: Mail,
    pub webhooks: Webhooks,
    /// An OpenID Connect provider applicants may sign in with; `None`: the e-mailed code only.
    pub oidc: Option<Oidc>,
    /// `SELO_ICP_POLICY`, default `AD-RB-1.1`: the signature policy an ICP-Brasil signature
    /// names — `AD-RB-1.1`, `AD-RB-1.2`, `AD-RB-1.3`, or the path of a policy file (.der).
    pub icp_policy: Option<String>,
    /// `SELO_METRICS_TOKEN`: the operator's bearer token for `GET /metrics`; unset, the
    /// metrics are not served.
    pub metrics_token: Option<String>,
    /// `SELO_TSA_URL` and its companions: the time-stamping authority whose RFC 3161
    /// timestamps every PDF signature carries; `Ok(None)` when unset, `Err` (which the start
    /// reports) when a value is malformed.
    pub tsa: Result<Option<TsaSettings>, String>,
    /// `SELO_CRL_TIMEOUT_SECS`, default 10: how long signing waits for a certificate
    /// authority's revocation list (kept in the PDF's DSS, PAdES B-LT).
    pub crl_timeout: std::time::Duration,
}

/// The OpenID Connect provider the city registered selo with (gov.br's Login Único): the
/// applicants' counter signs people in through it with the authorization code flow and PKCE.
/// Set when `SELO_OIDC_ISSUER` is; the start refuses it without a client id and secret.
#[derive(Clone)]
pub struct Oidc {
    /// `SELO_OIDC_ISSUER`, e.g. `https://sso.acesso.gov.br`: its discovery document is read
    /// from `/.well-known/openid-configuration` beneath it.
    pub issuer: String,
    /// `SELO_OIDC_CLIENT_ID`.
    pub client_id: String,
    /// `SELO_OIDC_CLIENT_SECRET`: sent to the token endpoint (HTTP Basic); never logged.
    pub client_secret: String,
    /// `SELO_OIDC_NAME`, default `gov.br`: the button reads "Entrar com …".
    pub name: String,
    /// `SELO_OIDC_SCOPES`, default `openid email profile govbr_confiabilidades`.
    pub scopes: String,
    /// `SELO_OIDC_LEVELS_URL`: where the account's trust levels are read with the access token,
    /// `{cpf}` standing for the account's CPF (gov.br: its `confiabilidades` API, answering a
    /// list of `{"id": "1"|"2"|"3"}`); unset: the level is read from the ID token's claim
    /// [`Oidc::level_claim`].
    pub levels_url: Option<String>,
    /// `SELO_OIDC_LEVEL_CLAIM`, default `nivel`: the ID token's claim that carries the level
    /// (1 bronze, 2 prata, 3 ouro, as a number or its name) when no levels URL is set.
    pub level_claim: String,
}

impl Oidc {
    fn from_env(var: &impl Fn(&str) -> Option<String>) -> Option<Self> {
        Some(Self {
            issuer: var("SELO_OIDC_ISSUER")?.trim_end_matches('/').to_owned(),
            client_id: var("SELO_OIDC_CLIENT_ID").unwrap_or_default(),
            client_secret: var("SELO_OIDC_CLIENT_SECRET").unwrap_or_default(),
            name: var("SELO_OIDC_NAME").unwrap_or_else(|| "gov.br".to_owned()),
            scopes: var("SELO_OIDC_SCOPES")
                .unwrap_or_else(|| "openid email profile govbr_confiabilidades".to_owned()),
            levels_url: var("SELO_OIDC_LEVELS_URL"),
            level_claim: var("SELO_OIDC_LEVEL_CLAIM").unwrap_or_else(|| "nivel".to_owned()),
        })
    }
}

impl std::fmt::Debug for Oidc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Oidc")
            .field("issuer", &self.issuer)
            .field("client_id", &self.client_id)
            .field(
                "client_secret",
                &(!self.client_secret.is_empty()).then_some("<set>"),
            )
            .field("name", &self.name)
            .field("scopes", &self.scopes)
            .field("levels_url", &self.levels_url)
            .field("level_claim", &self.level_claim)
            .finish()
    }
}

/// The e-mail outbox's way out.
#[derive(Clone)]
pub struct Mail {
    /// `SELO_SMTP_URL`: the city's SMTP server, e.g.
    /// `smtp://user:password@smtp.example.gov.br:587?tls=required` (STARTTLS required) or
    /// `smtps://user:password@smtp.example.gov.br` (TLS from the start). Unset in
    /// development: messages are written to [`Mail::folder`]; unset in production: they
    /// wait in the outbox, and the start says so.
    pub smtp_url: Option<String>,
    /// `SELO_SMTP_CA_FILE`: a PEM certificate trusted beside the public roots (a relay with
    /// the city's own certificate authority).
    pub smtp_ca_file: Option<PathBuf>,
    /// `SELO_MAIL_FROM`: the sender, e.g. `Prefeitura de Barra do Garças <selo@…>`.
    pub from: String,
    /// `SELO_MAIL_FOLDER`, default `data/mail` outside production: where messages are
    /// written as `.eml` files when no SMTP server is set.
    pub folder: Option<PathBuf>,
    /// `SELO_MAIL_LEASE_SECS`, default 120: how long a node holds a message it is sending
    /// before another may take it (a node that died mid-send).
    pub lease: std::time::Duration,
    /// `SELO_MAIL_POLL_SECS`, default 5: how often the outbox is read when nothing woke it.
    pub poll: std::time::Duration,
    /// `SELO_REMINDER_POLL_SECS`, default 3600: how often the register is read for the
    /// reminders due before an expiry (each is queued once, whatever the nodes).
    pub reminder_poll: std::time::Duration,
}

impl Default for Mail {
    fn default() -> Self {
        Self {
            smtp_url: None,
            smtp_ca_file: None,
            from: "selo <nao-responda@localhost>".to_owned(),
            folder: None,
            lease: std::time::Duration::from_mins(2),
            poll: std::time::Duration::from_secs(5),
            reminder_poll: std::time::Duration::from_hours(1),
        }
    }
}

impl std::fmt::Debug for Mail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mail")
            .field("smtp_url", &self.smtp_url.as_deref().map(redact_url))
            .field("smtp_ca_file", &self.smtp_ca_file)
            .field("from", &self.from)
            .field("folder", &self.folder)
            .field("lease", &self.lease)
            .field("poll", &self.poll)
            .field("reminder_poll", &self.reminder_poll)
            .finish()
    }
}

/// How events reach the platforms' webhooks.
#[derive(Debug, Clone)]
pub struct Webhooks {
    /// `SELO_WEBHOOK_POLL_SECS`, default 2: how often the audit chain is read for events to
    /// tell the platforms, and the deliveries due are sent.
    pub poll: std::time::Duration,
    /// `SELO_WEBHOOK_LEASE_SECS`, default 60: how long a node holds a delivery it is sending
    /// before another may take it.
    pub lease: std::time::Duration,
    /// `SELO_WEBHOOK_TIMEOUT_SECS`, default 10: how long a platform has to answer a delivery.
    pub timeout: std::time::Duration,
}

/// A duration in whole seconds from variable `key`, or `default` when unset, not a number or 0.
fn secs(
    var: &impl Fn(&str) -> Option<String>,
    key: &str,
    default: std::time::Duration,
) -> std::time::Duration {
    var(key)
        .and_then(|v| v.trim().parse().ok())
        .filter(|s: &u64| *s > 0)
        .map_or(default, std::time::Duration::from_secs)
}

impl Mail {
    fn from_env(var: &impl Fn(&str) -> Option<String>) -> Self {
        let d = Self::default();
        Self {
            smtp_url: var("SELO_SMTP_URL"),
            smtp_ca_file: var("SELO_SMTP_CA_FILE").map(PathBuf::from),
            from: var("SELO_MAIL_FROM").unwrap_or(d.from),
            folder: var("SELO_MAIL_FOLDER").map(PathBuf::from).or_else(|| {
                (var("SELO_ENV").as_deref() != Some("production"))
                    .then(|| PathBuf::from("data/mail"))
            }),
            lease: secs(var, "SELO_MAIL_LEASE_SECS", d.lease),
            poll: secs(var, "SELO_MAIL_POLL_SECS", d.poll),
            reminder_poll: secs(var, "SELO_REMINDER_POLL_SECS", d.reminder_poll),
        }
    }
}

impl Webhooks {
    fn from_env(var: &impl Fn(&str) -> Option<String>) -> Self {
        let d = Self::default();
        Self {
            poll: secs(var, "SELO_WEBHOOK_POLL_SECS", d.poll),
            lease: secs(var, "SELO_WEBHOOK_LEASE_SECS", d.lease),
            timeout: secs(var, "SELO_WEBHOOK_TIMEOUT_SECS", d.timeout),
        }
    }
}

impl Default for Webhooks {
    fn default() -> Self {
        Self {
            poll: std::time::Duration::from_secs(2),
            lease: std::time::Duration::from_mins(1),
            timeout: std::time::Duration::from_secs(10),
        }
    }
}

/// Bounds on what anonymous clients may hold.
#[derive(Debug, Clone)]
pub struct Limits {
    /// `SELO_PDF_VERIFY_SLOTS`, default 8: PDF verifications received or checked at once; a
    /// further upload is refused at once with 429 and `Retry-After`, before its body is read.
    pub pdf_verify_slots: usize,
    /// `SELO_UPLOAD_DEADLINE_SECS`, default 30: the whole upload must arrive within it (408
    /// otherwise), so a client that declares 5 MB and stalls frees its slot.
    pub upload_deadline: std::time::Duration,
    /// `SELO_RESERVATION_TIMEOUT_SECS`, default 300: a number reserved longer ago than this and
    /// still not issued belongs to an issuance that never committed (a crash); it is voided
    /// with the reason "emissão interrompida" at start and every minute.
    pub reservation_timeout: std::time::Duration,
    /// `SELO_REQUEST_DEADLINE_SECS`, default 15: a request (uploads aside, which have their
    /// own deadline) not answered within it is answered 503: a database that stopped answering
    /// never holds a request for minutes.
    pub request_deadline: std::time::Duration,
    /// Requests per minute and client address (0: unlimited), bursts of the same size.
    pub rates: Rates,
    /// `SELO_TRUSTED_PROXIES`: addresses of reverse proxies whose `X-Forwarded-For` is
    /// believed (comma-separated); from anyone else the header is ignored.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// `SELO_FILING_FILE_MAX_MB`, default 10: the largest file an applicant may attach.
    pub filing_file_bytes: usize,
    /// `SELO_FILING_MAX_FILES`, default 12: files one filing may hold (replaced ones aside).
    pub filing_files: i64,
    /// `SELO_PLATFORM_FILE_MAX_MB`, default 20: the largest file a platform may send (a
    /// monthly report, the answer to a data request).
    pub platform_file_bytes: usize,
    /// `SELO_REPORT_RETENTION_DAYS`, default 730: a passenger's report is deleted this many
    /// days after the Ouvidoria closed it (its contact e-mail, when it is closed).
    pub report_retention_days: i64,
    /// `SELO_RESIDENT_VERDICTS`, default 1,000,000: ride-hailing documents whose verdict a
    /// node keeps in memory for the day (≈ 65 bytes each, up to twice that with the table's
    /// slack); 0 keeps none.
    pub resident_verdicts: usize,
}

/// Requests per minute and client address; 0 turns a limit off.
#[derive(Debug, Clone, Copy)]
pub struct Rates {
    /// `SELO_RATE_VERIFY_PER_MINUTE`, default 600: token verification, API and page.
    pub verify: u32,
    /// `SELO_RATE_CODE_PER_MINUTE`, default 20: printed-code look-ups (40-bit codes).
    pub code: u32,
    /// `SELO_RATE_UPLOAD_PER_MINUTE`, default 10: PDF uploads.
    pub upload: u32,
    /// `SELO_RATE_REPORT_PER_MINUTE`, default 5: passengers' reports sent.
    pub report: u32,
    /// `SELO_RATE_AUTH_FAILURES_PER_MINUTE`, default 10: wrong or missing bearer tokens;
    /// past it, the address is refused for the rest of the minute, even with a good token.
    pub auth_failures: u32,
}

impl Rates {
    /// No limit at all (tests that do not test limits; load benchmarks from one address).
    pub const UNLIMITED: Self = Self {
        verify: 0,
        code: 0,
        upload: 0,
        report: 0,
        auth_failures: 0,
    };
}

impl Default for Rates {
    fn default() -> Self {
        Self {
            verify: 600,
            code: 20,
            upload: 10,
            report: 5,
            auth_failures: 10,
        }
    }
}

impl Limits {
    fn from_env(var: &impl Fn(&str) -> Option<String>) -> Self {
        Self {
            pdf_verify_slots: var("SELO_PDF_VERIFY_SLOTS")
                .and_then(|v| v.parse().ok())
                .filter(|n| *n > 0)
                .unwrap_or(Limits::default().pdf_verify_slots),
            upload_deadline: var("SELO_UPLOAD_DEADLINE_SECS")
                .and_then(|v| v.parse().ok())
                .filter(|n| *n > 0)
                .map_or(
                    Limits::default().upload_deadline,
                    std::time::Duration::from_secs,
                ),
            reservation_timeout: var("SELO_RESERVATION_TIMEOUT_SECS")
                .and_then(|v| v.parse().ok())
                .map_or(
                    Limits::default().reservation_timeout,
                    std::time::Duration::from_secs,
                ),
            request_deadline: var("SELO_REQUEST_DEADLINE_SECS")
                .and_then(|v| v.parse().ok())
                .filter(|n| *n > 0)
                .map_or(
                    Limits::default().request_deadline,
                    std::time::Duration::from_secs,
                ),
            filing_file_bytes: var("SELO_FILING_FILE_MAX_MB")
                .and_then(|v| v.parse::<usize>().ok())
                .filter(|n| *n > 0)
                .map_or(Limits::default().filing_file_bytes, |mb| mb * 1024 * 1024),
            filing_files: var("SELO_FILING_MAX_FILES")
                .and_then(|v| v.parse().ok())
                .filter(|n| *n > 0)
                .unwrap_or(Limits::default().filing_files),
            platform_file_bytes: var("SELO_PLATFORM_FILE_MAX_MB")
                .and_then(|v| v.parse::<usize>().ok())
                .filter(|n| *n > 0)
                .map_or(Limits::default().platform_file_bytes, |mb| mb * 1024 * 1024),
            report_retention_days: var("SELO_REPORT_RETENTION_DAYS")
                .and_then(|v| v.parse().ok())
                .filter(|n| *n > 0)
                .unwrap_or(Limits::default().report_retention_days),
            resident_verdicts: var("SELO_RESIDENT_VERDICTS")
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(Limits::default().resident_verdicts),
            rates: {
                let d = Rates::default();
                let rate = |k: &str, default: u32| {
                    var(k)
                        .and_then(|v| v.trim().parse().ok())
                        .unwrap_or(default)
                };
                Rates {
                    verify: rate("SELO_RATE_VERIFY_PER_MINUTE", d.verify),
                    code: rate("SELO_RATE_CODE_PER_MINUTE", d.code),
                    upload: rate("SELO_RATE_UPLOAD_PER_MINUTE", d.upload),
                    report: rate("SELO_RATE_REPORT_PER_MINUTE", d.report),
                    auth_failures: rate("SELO_RATE_AUTH_FAILURES_PER_MINUTE", d.auth_failures),
                }
            },
            trusted_proxies: var("SELO_TRUSTED_PROXIES")
                .map(|v| v.split(',').filter_map(|a| a.trim().parse().ok()).collect())
                .unwrap_or_default(),
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            pdf_verify_slots: 8,
            upload_deadline: std::time::Duration::from_secs(30),
            reservation_timeout: std::time::Duration::from_mins(5),
            request_deadline: std::time::Duration::from_secs(15),
            rates: Rates::default(),
            trusted_proxies: Vec::new(),
            filing_file_bytes: 10 * 1024 * 1024,
            filing_files: 12,
            platform_file_bytes: 20 * 1024 * 1024,
            report_retention_days: 730,
            resident_verdicts: 1_000_000,
        }
    }
}

impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The admin token is a secret: never print it.
        f.debug_struct("Settings")
            .field("listen", &self.listen)
            .field("public_url", &self.public_url)
            .field("database_url", &redact_url(&self.database_url))
            .field("keys_dir", &self.keys_dir)
            .field("environment", &self.environment)
            .field("admin_token", &self.admin_token.as_ref().map(|_| "<set>"))
            .field("ouvidoria_phone", &self.ouvidoria_phone)
            .field("profile", &self.profile)
            .field("mail", &self.mail)
            .field("webhooks", &self.webhooks)
            .field("oidc", &self.oidc)
            .field("icp_policy", &self.icp_policy)
            .field(
                "metrics_token",
                &self.metrics_token.as_ref().map(|_| "<set>"),
            )
            .finish_non_exhaustive()
    }
}

/// What issuance does when the authority does not answer in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    /// Nothing is issued: the request fails with 503 (the default).
    Refuse,
    /// The document is issued without a timestamp, and its history says so.
    IssueWithout,
}

/// The deployment's time-stamping authority.
#[derive(Clone)]
pub struct TsaSettings {
    /// `SELO_TSA_URL`.
    pub url: String,
    /// `SELO_TSA_USER` and `SELO_TSA_PASSWORD`: HTTP Basic credentials, when the authority
    /// asks for them.
    pub credentials: Option<(String, String)>,
    /// `SELO_TSA_TIMEOUT_SECS`, default 10: how long issuance waits for the authority.
    pub timeout: std::time::Duration,
    /// `SELO_TSA_POLICY`: the TSA policy OID to ask for; unset, the authority's default.
    pub policy: Option<const_oid::ObjectIdentifier>,
    /// `SELO_TSA_FALLBACK`: `refuse` (default) or `issue-without`.
    pub fallback: Fallback,
}

impl std::fmt::Debug for TsaSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TsaSettings")
            .field("url", &redact_url(&self.url))
            .field("user", &self.credentials.as_ref().map(|(u, _)| u))
            .field("timeout", &self.timeout)
            .field("policy", &self.policy)
            .field("fallback", &self.fallback)
            .finish_non_exhaustive()
    }
}

impl TsaSettings {
    /// Read from the environment; `None` when `SELO_TSA_URL` is unset. A malformed value is
    /// an error the start reports.
    pub fn from_env(var: &impl Fn(&str) -> Option<String>) -> Result<Option<Self>, String> {
        let Some(url) = var("SELO_TSA_URL").filter(|u| !u.trim().is_empty()) else {
            return Ok(None);
        };
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err("SELO_TSA_URL must be an http:// or https:// address".into());
        }
        let timeout = match var("SELO_TSA_TIMEOUT_SECS") {
            None => std::time::Duration::from_secs(10),
            Some(v) => v
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|s| *s > 0.0 && *s <= 120.0)
                .map(std::time::Duration::from_secs_f64)
                .ok_or("SELO_TSA_TIMEOUT_SECS must be a number of seconds, 0 < s ≤ 120")?,
        };
        let policy = match var("SELO_TSA_POLICY") {
            None => None,
            Some(v) => Some(
                const_oid::ObjectIdentifier::new(v.trim())
                    .map_err(|_| "SELO_TSA_POLICY must be an OID (2.16.76.1.…)")?,
            ),
        };
        let fallback = match var("SELO_TSA_FALLBACK").as_deref().map(str::trim) {
            None | Some("refuse") => Fallback::Refuse,
            Some("issue-without") => Fallback::IssueWithout,
            Some(_) => return Err("SELO_TSA_FALLBACK must be refuse or issue-without".into()),
        };
        let credentials = match (var("SELO_TSA_USER"), var("SELO_TSA_PASSWORD")) {
            (Some(u), Some(p)) => Some((u, p)),
            (None, None) => None,
            _ => return Err("SELO_TSA_USER and SELO_TSA_PASSWORD go together".into()),
        };
        Ok(Some(Self {
            url: url.trim().to_owned(),
            credentials,
            timeout,
            policy,
            fallback,
        }))
    }
}

/// Hides a password in a database URL for logs.
pub fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            format!("{}://***@{}", &url[..scheme], &url[at + 1..])
        }
        _ => url.to_owned(),
    }
}

impl Settings {
    /// Reads the environment.
    pub fn from_env() -> Self {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
        let cpus = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        Self {
            listen: var("SELO_LISTEN").unwrap_or_else(|| "127.0.0.1:8080".into()),
            public_url: var("SELO_PUBLIC_URL")
                .unwrap_or_else(|| "http://127.0.0.1:8080".into())
                .trim_end_matches('/')
                .to_owned(),
            database_url: var("DATABASE_URL").unwrap_or_else(|| "sqlite://data/selo.db".into()),
            keys_dir: var("SELO_KEYS_DIR").map_or_else(|| PathBuf::from("keys"), PathBuf::from),
            environment: if var("SELO_ENV").as_deref() == Some("production") {
                Environment::Production
            } else {
                Environment::Development
            },
            admin_token: var("SELO_ADMIN_TOKEN"),
            ouvidoria_phone: var("SELO_OUVIDORIA_PHONE"),
            profile: var("SELO_PROFILE").map(PathBuf::from),
            render_threads: var("SELO_RENDER_THREADS")
                .and_then(|v| v.parse().ok())
                .unwrap_or(cpus),
            workers: var("SELO_WORKERS")
                .and_then(|v| v.parse().ok())
                .unwrap_or(cpus),
            limits: Limits::from_env(&var),
            mail: Mail::from_env(&var),
            webhooks: Webhooks::from_env(&var),
            oidc: Oidc::from_env(&var),
            icp_policy: var("SELO_ICP_POLICY"),
            metrics_token: var("SELO_METRICS_TOKEN"),
            tsa: TsaSettings::from_env(&var),
            crl_timeout: var("SELO_CRL_TIMEOUT_SECS")
                .and_then(|v| v.trim().parse::<u64>().ok())
                .filter(|s| (1..=120).contains(s))
                .map_or(
                    std::time::Duration::from_secs(10),
                    std::time::Duration::from_secs,
                ),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn settings_are_read_and_malformed_ones_refused() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        assert!(super::TsaSettings::from_env(&env(&[])).unwrap().is_none());
        let s = super::TsaSettings::from_env(&env(&[
            ("SELO_TSA_URL", "http://act.example/tsa"),
            ("SELO_TSA_TIMEOUT_SECS", "2.5"),
            ("SELO_TSA_FALLBACK", "issue-without"),
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(s.timeout, std::time::Duration::from_millis(2500));
        assert_eq!(s.fallback, super::Fallback::IssueWithout);
        assert!(super::TsaSettings::from_env(&env(&[("SELO_TSA_URL", "act.example")])).is_err());
        assert!(
            super::TsaSettings::from_env(&env(&[
                ("SELO_TSA_URL", "http://act.example"),
                ("SELO_TSA_USER", "u")
            ]))
            .is_err()
        );
        assert!(
            super::TsaSettings::from_env(&env(&[
                ("SELO_TSA_URL", "http://act.example"),
                ("SELO_TSA_FALLBACK", "talvez")
            ]))
            .is_err()
        );
    }

    #[test]
    fn database_passwords_are_redacted() {
        assert_eq!(
            super::redact_url("postgres://u:secret@h:5432/db"),
            "postgres://***@h:5432/db"
        );
        assert_eq!(
            super::redact_url("sqlite://data/selo.db"),
            "sqlite://data/selo.db"
        );
    }
}
