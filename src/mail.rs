//! E-mail leaves through the outbox: acts queue their messages in their own transaction
//! (`storage::outbox`), and one sender per node claims what is due, hands it to the city's
//! SMTP server (or, in development without one, writes it to a folder) and records each
//! attempt. A message the server refused for good, or after [`MAX_ATTEMPTS`], is `failed`
//! and shown to the officials; a node that dies mid-send leaves a lease that ends, and another
//! send goes out then with the same `Message-ID`, so the receiving side can tell it is the same
//! message.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use chrono::{DateTime, Duration, Utc};
use lettre::message::header::ContentType;
use lettre::message::{Mailbox, Message};
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use tokio::sync::Notify;

use crate::clock::Clock;
use crate::settings::Mail;
use crate::storage::Store;
use crate::storage::outbox::{AttemptOutcome, QueuedMail};

/// Attempts before a message is given up as failed.
pub const MAX_ATTEMPTS: i64 = 8;
/// Messages one node claims at a time.
const BATCH: i64 = 10;

/// Where messages go.
pub enum Transport {
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
    /// Development: one `.eml` file per message.
    Folder(PathBuf),
}

impl Transport {
    /// The transport the settings name, or `None` when there is nowhere to send (production
    /// without an SMTP server: messages wait in the outbox). Production refuses a server
    /// reached without TLS, unless it is on this machine.
    pub fn from_settings(mail: &Mail, production: bool) -> anyhow::Result<Option<Self>> {
        if let Some(url) = &mail.smtp_url {
            let plain = url.starts_with("smtp://") && !url.contains("tls=");
            let local =
                url_host(url).is_some_and(|h| h == "localhost" || h == "127.0.0.1" || h == "::1");
            if production && plain && !local && mail.smtp_ca_file.is_none() {
                anyhow::bail!(
                    "SELO_ENV=production refuses SELO_SMTP_URL without TLS: use smtp://…:587?tls=required (STARTTLS) or smtps://… (TLS)"
                );
            }
            let mut builder = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
                .context("SELO_SMTP_URL is not an smtp:// or smtps:// URL lettre reads")?;
            if let Some(ca) = &mail.smtp_ca_file {
                let pem = std::fs::read(ca)
                    .with_context(|| format!("reading SELO_SMTP_CA_FILE {}", ca.display()))?;
                let host = url_host(url).context("SELO_SMTP_URL names no host")?;
                let params = TlsParameters::builder(host)
                    .add_root_certificate(
                        Certificate::from_pem(&pem).context("SELO_SMTP_CA_FILE is not PEM")?,
                    )
                    .build()
                    .context("TLS parameters for the SMTP server")?;
                builder = builder.tls(if url.starts_with("smtps://") {
                    Tls::Wrapper(params)
                } else if url.contains("tls=opportunistic") {
                    Tls::Opportunistic(params)
                } else {
                    Tls::Required(params)
                });
            }
            return Ok(Some(Self::Smtp(
                builder
                    .timeout(Some(std::time::Duration::from_secs(20)))
                    .build(),
            )));
        }
        Ok(mail.folder.clone().map(Self::Folder))
    }
}

/// The host of an `smtp://user:pass@host:port?…` URL.
fn url_host(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?']).next()?;
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = host_port.rsplit_once(':').map_or(host_port, |(h, _)| h);
    (!host.is_empty()).then(|| host.to_owned())
}

/// When to try again after `attempts` failed tries: 1, 5, 15 minutes, then hours.
pub fn retry_delay(attempts: i64) -> Duration {
    match attempts {
        ..=1 => Duration::minutes(1),
        2 => Duration::minutes(5),
        3 => Duration::minutes(15),
        4 => Duration::hours(1),
        5 => Duration::hours(3),
        _ => Duration::hours(6),
    }
}

/// The message as sent: plain text in UTF-8, a `Message-ID` made of the outbox id.
pub fn build(from: &str, mail: &QueuedMail, host: &str) -> Result<Message, String> {
    let from: Mailbox = from
        .parse()
        .map_err(|e| format!("remetente inválido (SELO_MAIL_FROM): {e}"))?;
    let to: Mailbox = mail
        .recipient
        .parse()
        .map_err(|e| format!("endereço inválido: {e}"))?;
    Message::builder()
        .from(from)
        .to(to)
        .subject(&mail.subject)
        .message_id(Some(format!("<{}@{host}>", mail.id)))
        .header(ContentType::TEXT_PLAIN)
        .body(mail.body.clone())
        .map_err(|e| format!("mensagem inválida: {e}"))
}

/// The node's sender: claims due messages when woken (a message was queued here) or every
/// `poll`, and sends them one by one.
pub struct Sender {
    pub store: Store,
    pub clock: Arc<dyn Clock>,
    pub settings: Mail,
    pub transport: Transport,
    /// Names this node in leases and attempts.
    pub node: String,
    /// The host part of `Message-ID`s: the public URL's host.
    pub host: String,
}

impl Sender {
    /// Runs for ever on the current runtime.
    pub fn spawn(self, wake: Arc<Notify>) {
        tokio::spawn(async move {
            loop {
                if let Err(e) = self.drain().await {
                    tracing::warn!(error = %e, "the outbox could not be read; trying again later");
                }
                tokio::select! {
                    () = wake.notified() => {}
                    () = tokio::time::sleep(self.settings.poll) => {}
                }
            }
        });
    }

    /// Sends everything due now; returns how many attempts were made.
    pub async fn drain(&self) -> anyhow::Result<usize> {
        let mut tried = 0;
        loop {
            let now = self.clock.now();
            let lease = Duration::from_std(self.settings.lease).unwrap_or(Duration::minutes(2));
            let batch = self
                .store
                .claim_mail(&self.node, now, now + lease, BATCH)
                .await?;
            if batch.is_empty() {
                return Ok(tried);
            }
            for mail in batch {
                let outcome = self.send(&mail, self.clock.now()).await;
                // A server's reply may quote the address; the log names the message only.
                let redacted = |e: &str| e.replace(&mail.recipient, "<destinatário>");
                match &outcome {
                    AttemptOutcome::Sent => {
                        tracing::info!(message = %mail.id, "e-mail sent");
                    }
                    AttemptOutcome::Retry { error, at } => {
                        tracing::warn!(message = %mail.id, error = redacted(error), retry_at = %at, "e-mail not sent; will retry");
                    }
                    AttemptOutcome::Failed { error } => {
                        tracing::warn!(message = %mail.id, error = redacted(error), "e-mail failed for good");
                    }
                }
                self.store
                    .mail_attempted(mail.id, &self.node, self.clock.now(), &outcome)
                    .await?;
                tried += 1;
            }
        }
    }

    async fn send(&self, mail: &QueuedMail, now: DateTime<Utc>) -> AttemptOutcome {
        let message = match build(&self.settings.from, mail, &self.host) {
            Ok(m) => m,
            Err(error) => return AttemptOutcome::Failed { error },
        };
        let retry_or_fail = |error: String| {
            if mail.attempts + 1 >= MAX_ATTEMPTS {
                AttemptOutcome::Failed { error }
            } else {
                AttemptOutcome::Retry {
                    error,
                    at: now + retry_delay(mail.attempts + 1),
                }
            }
        };
        match &self.transport {
            Transport::Smtp(smtp) => match smtp.send(message).await {
                Ok(_) => AttemptOutcome::Sent,
                Err(e) if e.is_permanent() => AttemptOutcome::Failed {
                    error: format!("o servidor de e-mail recusou: {e}"),
                },
                Err(e) => retry_or_fail(format!("o servidor de e-mail não aceitou agora: {e}")),
            },
            Transport::Folder(dir) => match write_eml(dir, mail, &message.formatted()) {
                Ok(()) => AttemptOutcome::Sent,
                Err(e) => retry_or_fail(format!("a pasta de e-mails não aceitou: {e}")),
            },
        }
    }
}

/// Writes one message to the development folder, whole or not at all.
fn write_eml(dir: &std::path::Path, mail: &QueuedMail, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".{}.tmp", mail.id));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, dir.join(format!("{}.eml", mail.id)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_is_read_from_the_smtp_url() {
        assert_eq!(
            url_host("smtp://u:p@mail.example.gov.br:587?tls=required").as_deref(),
            Some("mail.example.gov.br")
        );
        assert_eq!(
            url_host("smtps://mail.example.gov.br").as_deref(),
            Some("mail.example.gov.br")
        );
        assert_eq!(url_host("smtp://:25"), None);
    }

    #[test]
    fn retries_wait_longer_each_time() {
        let delays: Vec<_> = (1..=MAX_ATTEMPTS).map(retry_delay).collect();
        assert!(delays.windows(2).all(|w| w[0] <= w[1]), "{delays:?}");
        assert_eq!(delays[0], Duration::minutes(1));
    }

    #[test]
    fn a_message_carries_its_outbox_id_and_refuses_a_bad_address() {
        let mut mail = QueuedMail {
            id: uuid::Uuid::nil(),
            recipient: "motorista@example.com".into(),
            subject: "Código de acesso".into(),
            body: "Seu código: 123456".into(),
            attempts: 0,
        };
        let text = String::from_utf8(
            build("selo <selo@example.gov.br>", &mail, "selo.example.gov.br")
                .unwrap()
                .formatted(),
        )
        .unwrap();
        assert!(
            text.contains("Message-ID: <00000000-0000-0000-0000-000000000000@selo.example.gov.br>"),
            "{text}"
        );
        mail.recipient = "not an address".into();
        assert!(build("selo <selo@example.gov.br>", &mail, "h").is_err());
    }
}
