//! Start-up lives in the library, so tests start exactly what production starts:
//! `Application::build(settings, clock)` → `port()` → `run_until_stopped()`.

use std::net::TcpListener;
use std::sync::Arc;

use actix_web::dev::Server;
use actix_web::{App, HttpServer};
use anyhow::Context;

use crate::clock::Clock;
use crate::documents::Letterhead;
use crate::documents::profile::Profile;
use crate::documents::render::Renderer;
use crate::http;
use crate::settings::{Environment, Settings};
use crate::signing::keys::{self, KeyError, Keys};
use crate::state::AppState;
use crate::storage::Store;

pub struct Application {
    port: u16,
    server: Server,
    store: Store,
}

/// Loads the signing keys; in development creates a key when there is none.
pub fn load_or_create_keys(settings: &Settings) -> anyhow::Result<Keys> {
    let mut keys = load_keys(settings)?;
    if let Some(imported) = keys.imported.as_mut() {
        imported.policy = icp_policy(settings)?;
        if imported.icp_brasil {
            tracing::info!(policy = %imported.policy.name, "ICP-Brasil signatures name their policy");
        }
    }
    Ok(keys)
}

/// The signature policy `SELO_ICP_POLICY` names (AD-RB v1.1 when unset).
pub fn icp_policy(settings: &Settings) -> anyhow::Result<crate::signing::policy::SignaturePolicy> {
    let setting = settings
        .icp_policy
        .as_deref()
        .unwrap_or(crate::signing::policy::DEFAULT);
    crate::signing::policy::resolve(setting).context("SELO_ICP_POLICY")
}

/// The client of the time-stamping authority `SELO_TSA_URL` names; `None` when unset.
pub fn timestamper(
    settings: &Settings,
) -> anyhow::Result<Option<crate::signing::timestamp::Timestamper>> {
    let Some(tsa) = settings.tsa.clone().map_err(anyhow::Error::msg)? else {
        return Ok(None);
    };
    Ok(Some(
        crate::signing::timestamp::Timestamper::new(tsa).context("SELO_TSA_URL")?,
    ))
}

fn load_keys(settings: &Settings) -> anyhow::Result<Keys> {
    let strict = settings.environment == Environment::Production;
    match keys::load(&settings.keys_dir, strict) {
        Ok(k) => Ok(k),
        Err(KeyError::Missing { .. }) if !strict => {
            let kid =
                keys::generate(&settings.keys_dir).context("creating a development signing key")?;
            tracing::warn!(
                kid = %kid,
                dir = %settings.keys_dir.display(),
                "no signing key found: created a DEVELOPMENT key. Do not use it for real documents; \
                 in production run `selo keys generate` and set SELO_ENV=production"
            );
            Ok(keys::load(&settings.keys_dir, false)?)
        }
        Err(e) => Err(e).context("loading signing keys"),
    }
}

/// Loads the municipality profile with `SELO_OUVIDORIA_PHONE` applied over it.
/// Production refuses a profile with any fact still to be supplied; development prints them,
/// highlighted, on the documents.
pub fn load_profile(settings: &Settings) -> anyhow::Result<Arc<Profile>> {
    let mut profile = Profile::load(settings.profile.as_deref()).context("loading the profile")?;
    if let Some(phone) = &settings.ouvidoria_phone {
        profile.ouvidoria.phone.clone_from(phone);
    }
    let missing = profile.placeholders();
    if !missing.is_empty() {
        let list = missing
            .iter()
            .map(|(k, _)| k.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        if settings.environment == Environment::Production {
            anyhow::bail!(
                "SELO_ENV=production refuses a profile with facts still to be supplied \
                 (`selo profile check` lists them): {list}"
            );
        }
        tracing::warn!(
            profile = %profile.version,
            missing = missing.len(),
            "the profile has facts still to be supplied; documents print them as \"A DEFINIR\": {list}"
        );
    }
    Ok(Arc::new(profile))
}

/// Refuses settings that must not go together: the shared development token in production,
/// an OpenID Connect provider without its client, or one without https in production.
fn check_settings(settings: &Settings) -> anyhow::Result<()> {
    let production = settings.environment == Environment::Production;
    // The shared token is a development convenience only; officials use their
    // personal tokens and sessions.
    if production && settings.admin_token.is_some() {
        anyhow::bail!(
            "SELO_ENV=production refuses to start while SELO_ADMIN_TOKEN is set: officials use \
             personal accounts (selo officials add / token); unset SELO_ADMIN_TOKEN"
        );
    }
    if settings.admin_token.is_some() {
        tracing::warn!(
            "SELO_ADMIN_TOKEN is set: it acts with every role as the pseudo-official \
             \"token de desenvolvimento\". Development only; production refuses it"
        );
    }
    if let Err(e) = &settings.tsa {
        anyhow::bail!("{e}");
    }
    if let Some(oidc) = &settings.oidc {
        if oidc.client_id.is_empty() || oidc.client_secret.is_empty() {
            anyhow::bail!(
                "SELO_OIDC_ISSUER is set without SELO_OIDC_CLIENT_ID and SELO_OIDC_CLIENT_SECRET: \
                 set the client the provider registered, or unset SELO_OIDC_ISSUER"
            );
        }
        if production && !oidc.issuer.starts_with("https://") {
            anyhow::bail!("SELO_ENV=production refuses an OpenID Connect issuer without https://");
        }
    }
    Ok(())
}

impl Application {
    pub async fn build(settings: Settings, clock: Arc<dyn Clock>) -> anyhow::Result<Self> {
        let profile = load_profile(&settings)?;
        check_settings(&settings)?;
        let keys = load_or_create_keys(&settings)?;
        tracing::info!(kid = %keys.active.kid(), published = keys.public.to_jwks()["keys"].as_array().map_or(0, Vec::len), "signing keys loaded");
        let store = Store::connect(&settings.database_url)
            .await
            .with_context(|| {
                format!(
                    "opening the database {}",
                    crate::settings::redact_url(&settings.database_url)
                )
            })?;
        store.listen_for_other_nodes();
        if let Store::Postgres(r) = &store
            && r.migrated()
        {
            crate::storage::postgres::warn_without_autovacuum(r.pool()).await;
        }
        let legal_bases = load_legal_bases(&store, &profile.initial_bases).await?;
        let listener = TcpListener::bind(&settings.listen)
            .with_context(|| format!("binding {}", settings.listen))?;
        let port = listener.local_addr()?.port();
        let calendar_settings = Arc::new(profile.calendar.clone());
        let tsa = timestamper(&settings)?.map(Arc::new);
        if let Some(tsa) = &tsa {
            tracing::info!(
                tsa = %crate::settings::redact_url(&tsa.settings.url),
                fallback = ?tsa.settings.fallback,
                "PDF signatures carry a timestamp from the time-stamping authority"
            );
        }
        let state = AppState {
            store: store.clone(),
            keys: Arc::new(keys),
            renderer: Renderer::new(settings.render_threads, profile.clone()),
            clock,
            legal_bases: Arc::new(legal_bases),
            letterhead: Arc::new(Letterhead::new(profile, &settings.public_url)),
            settings: Arc::new(settings.clone()),
            calendar_settings,
            deadline_rules: Arc::new(crate::domain::calendar::DeadlineRules::default()),
            decreed_days: Arc::default(),
            pdf_slots: Arc::new(tokio::sync::Semaphore::new(
                settings.limits.pdf_verify_slots,
            )),
            rate_limits: Arc::new(crate::state::limits::RateLimits::new(&settings.limits)),
            login_throttle: Arc::default(),
            mail_wake: Arc::default(),
            metrics: Arc::default(),
            tsa,
            revocation: Arc::new(
                crate::signing::revocation::RevocationFetcher::new(settings.crl_timeout)
                    .context("the revocation lists' client")?,
            ),
            worklist_cache: Arc::default(),
        };
        start_mail(&state)?;
        spawn_forget_idle(state.rate_limits.clone());
        // A signed checkpoint of the audit chain's head every legal day.
        crate::issuance::audit::spawn_daily_checkpoints(state.clone());
        // Closed passengers' reports past their retention are deleted now and every hour.
        crate::issuance::reports::spawn_purge(state.clone());
        // Reminders before expiries, to the applicants who follow each holder.
        crate::issuance::follows::spawn_reminders(state.clone());
        // Platforms' webhooks: the relay's passes and the deliveries due.
        crate::webhooks::Worker::new(state.clone())?.spawn();
        // Reservations left open by a crash are voided now, before the first request,
        // and then every minute.
        crate::issuance::numbering::start_sweeper(state.clone()).await;
        let assembly = http::Assembly::new(state);
        // The status list kept up to date in the background (a new day judges all again).
        crate::verification::status_list::spawn_upkeep(
            assembly.state.as_ref().clone(),
            assembly.verdicts.clone().into_inner(),
        );
        // And what each authorization in force has due (the worklist, the start page).
        crate::standing::worklist::spawn_upkeep(assembly.state.as_ref().clone());
        let https = settings.public_url.starts_with("https://");
        let server = HttpServer::new(move || {
            App::new()
                .configure(|cfg| assembly.configure(cfg))
                .wrap(actix_web::middleware::from_fn(http::legal_bases_middleware))
                .wrap(actix_web::middleware::from_fn(
                    http::municipality::middleware,
                ))
                .wrap_fn(http::limits::deadline)
                .wrap_fn(http::limits::middleware)
                .wrap_fn(http::request_id_middleware)
                // Once served over https, browsers must never fall back to http.
                .wrap(actix_web::middleware::Condition::new(
                    https,
                    actix_web::middleware::DefaultHeaders::new().add((
                        "Strict-Transport-Security",
                        "max-age=31536000; includeSubDomains",
                    )),
                ))
        })
        .workers(settings.workers.max(1))
        .shutdown_timeout(10)
        .listen(listener)?
        .run();
        tracing::info!(listen = %settings.listen, port, backend = store.backend(), "selo listening");
        Ok(Self {
            port,
            server,
            store,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Serves until SIGTERM/SIGINT (graceful: in-flight requests finish), then closes the
    /// database.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let result = self.server.await;
        self.store.close().await;
        tracing::info!("selo stopped");
        result
    }
}

/// Starts this node's e-mail sender, or says why messages will wait in the outbox.
fn start_mail(state: &AppState) -> anyhow::Result<()> {
    let settings = &state.settings.mail;
    let Some(transport) = crate::mail::Transport::from_settings(
        settings,
        state.settings.environment == Environment::Production,
    )?
    else {
        tracing::warn!(
            "no SMTP server (SELO_SMTP_URL): e-mail waits in the outbox until one is set"
        );
        return Ok(());
    };
    match &transport {
        crate::mail::Transport::Smtp(_) => tracing::info!(
            smtp = %crate::settings::redact_url(settings.smtp_url.as_deref().unwrap_or_default()),
            "e-mail goes out through the SMTP server"
        ),
        crate::mail::Transport::Folder(dir) => tracing::warn!(
            folder = %dir.display(),
            "no SMTP server (SELO_SMTP_URL): e-mail is written to a folder (development)"
        ),
    }
    let host = state
        .settings
        .public_url
        .split_once("://")
        .map_or("selo", |(_, rest)| {
            rest.split(['/', ':']).next().unwrap_or("selo")
        })
        .to_owned();
    crate::mail::Sender {
        store: state.store.clone(),
        clock: state.clock.clone(),
        settings: settings.clone(),
        transport,
        node: format!("node-{}", uuid::Uuid::new_v4().simple()),
        host,
    }
    .spawn(state.mail_wake.clone());
    Ok(())
}

/// The repository's legal bases and the register's activations; a version
/// that does not load stops the start rather than judge by another law. A database that is
/// down at start is read on the first request it answers.
async fn load_legal_bases(
    store: &Store,
    initial: &crate::domain::legal_basis::InitialBases,
) -> anyhow::Result<crate::state::LegalBasesCache> {
    let generation = store.changes().generation();
    let acts = match store.legal_basis_activations().await {
        Ok(activations) => store
            .legal_suspensions()
            .await
            .map(|suspensions| (activations, suspensions)),
        Err(e) => Err(e),
    };
    Ok(match acts {
        Ok((activations, suspensions)) => {
            let bases = crate::domain::legal_basis::LegalBases::load_from(initial, activations)
                .context("loading the legal bases")?
                .with_suspensions(suspensions);
            for v in bases.activations() {
                tracing::info!(law = v.law.as_str(), version = %v.version, effective_from = %v.effective_from, "legal basis activated");
            }
            crate::state::LegalBasesCache::new(generation, bases)
        }
        Err(crate::storage::StorageError::Unavailable(e)) => {
            tracing::warn!(error = %e, "database unavailable: the legal bases' activations are read once it answers");
            crate::state::LegalBasesCache::unread(
                crate::domain::legal_basis::LegalBases::load_from(initial, Vec::new())
                    .context("loading the legal bases")?,
            )
        }
        Err(e) => return Err(e).context("reading the legal bases' activations"),
    })
}

/// The rate limits forget the clients idle for a while, every minute.
fn spawn_forget_idle(limits: Arc<crate::state::limits::RateLimits>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_mins(1));
        loop {
            tick.tick().await;
            limits.forget_idle();
        }
    });
}
