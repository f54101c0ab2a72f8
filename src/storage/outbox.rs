//! The e-mail outbox: messages written in the transaction of the act they tell of, claimed
//! by one node at a time with a lease, and marked sent, retried or failed with every attempt
//! recorded. One SQL text for both backends; PostgreSQL's claim skips the rows another node
//! is claiming (`FOR UPDATE SKIP LOCKED`).

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::{StorageError, Store, parse_uuid};

/// A message to queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingMail {
    pub recipient: String,
    pub subject: String,
    pub body: String,
    /// What it is about (`sign_in_code`, …): kept with the message, shown in the history.
    pub topic: &'static str,
    /// The record it concerns, if any: `(entity_type, entity_id)`.
    pub entity: Option<(&'static str, String)>,
}

/// A message claimed for sending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueuedMail {
    pub id: Uuid,
    pub recipient: String,
    pub subject: String,
    pub body: String,
    pub attempts: i64,
}

/// A message as the officials see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailRecord {
    pub id: Uuid,
    pub recipient: String,
    pub subject: String,
    pub topic: String,
    pub status: String,
    pub attempts: i64,
    pub created_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
}

/// What became of one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttemptOutcome {
    Sent,
    /// Try again at this instant.
    Retry {
        error: String,
        at: DateTime<Utc>,
    },
    /// Given up: the address or the message was refused for good, or too many attempts.
    Failed {
        error: String,
    },
}

/// The transactions of a leased queue: they touch no record, so they neither join the audit
/// chain nor tell the caches; SQLite still takes its write lock at once.
pub(crate) fn immediate(pg: bool) -> &'static str {
    if pg { "BEGIN" } else { "BEGIN IMMEDIATE" }
}

/// A table of work that nodes claim with a lease and settle attempt by attempt — the e-mail
/// outbox, the webhook deliveries: `status` `pending` until done or `failed`, `attempts`,
/// `next_attempt_us`, `lease_owner`, `lease_until_us`, `last_error`, and the column the
/// success stamps. One SQL text for both backends.
pub(crate) struct LeasedQueue {
    pub table: &'static str,
    /// The status and the time column a success sets.
    pub done: (&'static str, &'static str),
}

/// The e-mail outbox.
const MAIL: LeasedQueue = LeasedQueue {
    table: "outbox_messages",
    done: ("sent", "sent_at"),
};

impl LeasedQueue {
    /// Whether anything is due at `$1`, read without a lock: an idle poll takes no write lock.
    pub(crate) fn due_sql(&self) -> String {
        format!(
            "SELECT id FROM {} WHERE status = 'pending' AND next_attempt_us <= $1 \
             AND (lease_until_us IS NULL OR lease_until_us < $1) LIMIT 1",
            self.table
        )
    }

    /// Leases to `$1` until `$2` up to `$4` rows due at `$3` that no one holds (or whose
    /// holder's lease ended); PostgreSQL skips the rows another node is claiming.
    pub(crate) fn claim_sql(&self, pg: bool) -> String {
        let lock = if pg { " FOR UPDATE SKIP LOCKED" } else { "" };
        let t = self.table;
        format!(
            "UPDATE {t} SET lease_owner = $1, lease_until_us = $2 \
             WHERE id IN (SELECT id FROM {t} WHERE status = 'pending' \
             AND next_attempt_us <= $3 AND (lease_until_us IS NULL OR lease_until_us < $3) \
             ORDER BY next_attempt_us LIMIT $4{lock})"
        )
    }

    /// Settles row `$1` held by `$2`: status `$3`, next attempt `$4`, done at `$5` (kept when
    /// NULL), last error `$6`; touches nothing when the lease is no longer `$2`'s.
    pub(crate) fn settle_sql(&self) -> String {
        let (t, done_at) = (self.table, self.done.1);
        format!(
            "UPDATE {t} SET status = $3, attempts = attempts + 1, \
             next_attempt_us = $4, lease_owner = NULL, lease_until_us = NULL, \
             {done_at} = COALESCE($5, {done_at}), last_error = $6 \
             WHERE id = $1 AND lease_owner = $2 AND status = 'pending'"
        )
    }
}

pub(crate) fn micros(at: DateTime<Utc>) -> i64 {
    at.timestamp_micros()
}

/// SQL: queue one message (`$1` id … `$8` `created_at`, `$9` its first attempt's time).
pub(crate) const INSERT_MAIL: &str = "INSERT INTO outbox_messages (id, recipient, subject, body, \
     topic, entity_type, entity_id, created_at, status, attempts, next_attempt_us) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', 0, $9)";

/// Queues `$mail` inside the open write transaction `$tx`, to be sent once it commits;
/// evaluates to the message's id.
macro_rules! queue_mail {
    ($tx:expr, $mail:expr, $at:expr $(,)?) => {{
        let mail: &$crate::storage::outbox::OutgoingMail = $mail;
        let at: chrono::DateTime<chrono::Utc> = $at;
        let id = uuid::Uuid::new_v4();
        let (entity_type, entity_id) = match &mail.entity {
            Some((t, i)) => (Some(*t), Some(i.clone())),
            None => (None, None),
        };
        sqlx::query($crate::storage::outbox::INSERT_MAIL)
            .bind(id.to_string())
            .bind(&mail.recipient)
            .bind(&mail.subject)
            .bind(&mail.body)
            .bind(mail.topic)
            .bind(entity_type)
            .bind(entity_id)
            .bind(at)
            .bind($crate::storage::outbox::micros(at))
            .execute(&mut *$tx)
            .await?;
        id
    }};
}
pub(crate) use queue_mail;

#[derive(sqlx::FromRow)]
struct ClaimedRow {
    id: String,
    recipient: String,
    subject: String,
    body: String,
    attempts: i64,
}

#[derive(sqlx::FromRow)]
struct RecordRow {
    id: String,
    recipient: String,
    subject: String,
    topic: String,
    status: String,
    attempts: i64,
    created_at: DateTime<Utc>,
    sent_at: Option<DateTime<Utc>>,
    last_error: Option<String>,
}

impl Store {
    /// Queues one message on its own (no act commits with it).
    pub async fn queue_mail(
        &self,
        mail: &OutgoingMail,
        at: DateTime<Utc>,
    ) -> Result<Uuid, StorageError> {
        on_backend!(self, |pool, _begin, pg| {
            let mut tx = pool.begin_with(immediate(pg)).await?;
            let id = queue_mail!(tx, mail, at);
            tx.commit().await?;
            Ok(id)
        })
    }

    /// Claims up to `limit` messages due at `now` that no one holds (or whose holder's lease
    /// ended: a node that died while sending), for `owner` until `lease_until`.
    pub async fn claim_mail(
        &self,
        owner: &str,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<QueuedMail>, StorageError> {
        on_backend!(self, |pool, _begin, pg| {
            let due: Option<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(MAIL.due_sql()))
                .bind(micros(now))
                .fetch_optional(pool)
                .await?;
            if due.is_none() {
                return Ok(Vec::new());
            }
            let mut tx = pool.begin_with(immediate(pg)).await?;
            sqlx::query(sqlx::AssertSqlSafe(MAIL.claim_sql(pg)))
                .bind(owner)
                .bind(micros(lease_until))
                .bind(micros(now))
                .bind(limit)
                .execute(&mut *tx)
                .await?;
            let rows: Vec<ClaimedRow> = sqlx::query_as(
                "SELECT id, recipient, subject, body, attempts FROM outbox_messages \
                 WHERE status = 'pending' AND lease_owner = $1 AND lease_until_us = $2 \
                 ORDER BY next_attempt_us",
            )
            .bind(owner)
            .bind(micros(lease_until))
            .fetch_all(&mut *tx)
            .await?;
            tx.commit().await?;
            rows.into_iter()
                .map(|r| {
                    Ok(QueuedMail {
                        id: parse_uuid(&r.id)?,
                        recipient: r.recipient,
                        subject: r.subject,
                        body: r.body,
                        attempts: r.attempts,
                    })
                })
                .collect()
        })
    }

    /// Records an attempt of `owner` on a message it holds, and what follows from it. Returns
    /// `false` (and records nothing) when the lease is no longer `owner`'s.
    pub async fn mail_attempted(
        &self,
        id: Uuid,
        owner: &str,
        now: DateTime<Utc>,
        outcome: &AttemptOutcome,
    ) -> Result<bool, StorageError> {
        on_backend!(self, |pool, _begin, pg| {
            let mut tx = pool.begin_with(immediate(pg)).await?;
            let (status, next, error, word) = match outcome {
                AttemptOutcome::Sent => (MAIL.done.0, now, None, "sent"),
                AttemptOutcome::Retry { error, at } => {
                    ("pending", *at, Some(error.as_str()), "retry")
                }
                AttemptOutcome::Failed { error } => ("failed", now, Some(error.as_str()), "failed"),
            };
            let sent_at = matches!(outcome, AttemptOutcome::Sent).then_some(now);
            let done = sqlx::query(sqlx::AssertSqlSafe(MAIL.settle_sql()))
                .bind(id.to_string())
                .bind(owner)
                .bind(status)
                .bind(micros(next))
                .bind(sent_at)
                .bind(error)
                .execute(&mut *tx)
                .await?;
            if done.rows_affected() == 0 {
                return Ok(false);
            }
            sqlx::query(
                "INSERT INTO outbox_attempts (message_id, attempt, at, node, outcome, detail) \
                 SELECT id, attempts, $2, $3, $4, $5 FROM outbox_messages WHERE id = $1",
            )
            .bind(id.to_string())
            .bind(now)
            .bind(owner)
            .bind(word)
            .bind(error)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    /// The messages about one record, oldest first.
    pub async fn mail_about(
        &self,
        entity_type: &str,
        entity_id: &str,
    ) -> Result<Vec<MailRecord>, StorageError> {
        self.mail_where(
            "entity_type = $1 AND entity_id = $2 ORDER BY created_at, id",
            &[entity_type, entity_id],
        )
        .await
    }

    /// The messages that failed for good, newest first: addresses an official should correct.
    pub async fn failed_mail(&self) -> Result<Vec<MailRecord>, StorageError> {
        self.mail_where(
            "status = 'failed' ORDER BY created_at DESC, id LIMIT 200",
            &[],
        )
        .await
    }

    /// How many messages wait to be sent.
    pub async fn mail_backlog(&self) -> Result<i64, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(
                sqlx::query_scalar("SELECT COUNT(*) FROM outbox_messages WHERE status = 'pending'")
                    .fetch_one(pool)
                    .await?,
            )
        })
    }

    /// How many attempts were ever made, sent or not.
    pub async fn mail_attempts_total(&self) -> Result<i64, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_scalar("SELECT COUNT(*) FROM outbox_attempts")
                .fetch_one(pool)
                .await?)
        })
    }

    async fn mail_where(
        &self,
        condition: &str,
        binds: &[&str],
    ) -> Result<Vec<MailRecord>, StorageError> {
        let sql = format!(
            "SELECT id, recipient, subject, topic, status, attempts, created_at, sent_at, \
             last_error FROM outbox_messages WHERE {condition}"
        );
        let rows: Vec<RecordRow> = on_backend!(self, |pool, _begin| {
            let mut q = sqlx::query_as(sqlx::AssertSqlSafe(sql));
            for b in binds {
                q = q.bind(*b);
            }
            q.fetch_all(pool).await?
        });
        rows.into_iter()
            .map(|r| {
                Ok(MailRecord {
                    id: parse_uuid(&r.id)?,
                    recipient: r.recipient,
                    subject: r.subject,
                    topic: r.topic,
                    status: r.status,
                    attempts: r.attempts,
                    created_at: r.created_at,
                    sent_at: r.sent_at,
                    last_error: r.last_error,
                })
            })
            .collect()
    }
}
