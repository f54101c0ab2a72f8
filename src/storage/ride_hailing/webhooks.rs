//! Platforms' webhooks: the address each platform set, what each platform was last told of
//! each of its drivers, the relay's place in the audit chain, and the deliveries (queued,
//! claimed with a lease by one node, attempted, delivered or failed, each attempt kept). One
//! SQL text for both backends; PostgreSQL's claim skips rows another node is claiming.

use chrono::NaiveDate;
use uuid::Uuid;

use super::{DateTime, StorageError, Store, Utc};
use crate::storage::outbox::{LeasedQueue, immediate, micros};

/// A platform's webhook as set.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct WebhookRow {
    pub url: Option<String>,
    pub updated_at: DateTime<Utc>,
}

/// Where the relay stands: the last event it read, its pass counter, and the chain's head now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RelayPosition {
    pub last_event_id: i64,
    pub pass: i64,
    pub head: i64,
}

/// A platform's current link with a driver that the relay must look at.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct LinkToCheck {
    pub id: String,
    pub platform_id: String,
    pub notified_state: Option<String>,
    /// The driver's latest authorization.
    pub authorization_id: Option<String>,
}

/// A notice to a platform recorded in the audit chain (its event id, platform, data JSON).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct RecordedNotice {
    pub id: i64,
    pub entity_id: String,
    pub data: String,
    pub occurred_at: DateTime<Utc>,
}

/// What one pass of the relay writes.
#[derive(Debug, Default)]
pub struct RelayWrites {
    /// `(link id, state told, day to look again)`.
    pub links: Vec<(String, String, Option<NaiveDate>)>,
    pub deliveries: Vec<NewDelivery>,
}

/// An event to deliver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewDelivery {
    pub id: Uuid,
    pub platform_id: String,
    pub event_type: &'static str,
    pub dedupe_key: String,
    pub payload: String,
}

/// A delivery claimed for sending, with the platform's address now (`None`: it has none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueuedDelivery {
    pub id: Uuid,
    pub url: Option<String>,
    pub payload: String,
    pub attempts: i64,
}

/// What became of one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeliveryOutcome {
    Delivered {
        http_status: i64,
    },
    Retry {
        http_status: Option<i64>,
        error: String,
        at: DateTime<Utc>,
    },
    Failed {
        http_status: Option<i64>,
        error: String,
    },
}

/// A delivery as the officials see it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DeliveryRecord {
    pub id: String,
    pub event_type: String,
    pub created_at: DateTime<Utc>,
    pub status: String,
    pub attempts: i64,
    pub delivered_at: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
}

#[derive(sqlx::FromRow)]
struct ClaimedRow {
    id: String,
    url: Option<String>,
    payload: String,
    attempts: i64,
}

/// The deliveries, a queue leased as the e-mail outbox is.
const DELIVERIES: LeasedQueue = LeasedQueue {
    table: "webhook_deliveries",
    done: ("delivered", "delivered_at"),
};

impl Store {
    /// Sets (or, with `None`, clears) the webhook of `platform_id`, with its event.
    pub async fn set_platform_webhook(
        &self,
        platform_id: &str,
        url: Option<&str>,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            sqlx::query(
                "INSERT INTO platform_webhooks (platform_id, url, updated_at, updated_by) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT (platform_id) DO UPDATE \
                 SET url = excluded.url, updated_at = excluded.updated_at, updated_by = excluded.updated_by",
            )
            .bind(platform_id)
            .bind(url)
            .bind(now)
            .bind(actor)
            .execute(&mut *tx)
            .await?;
            append_event!(
                tx,
                "platform",
                platform_id.to_owned(),
                "platform_webhook_set",
                actor.to_owned(),
                None::<String>,
                None::<String>,
                now,
                serde_json::json!({ "url": url }).to_string(),
            );
            tx.commit_unseen().await?;
            Ok(())
        })
    }

    /// The webhook `platform_id` set, if it ever set one.
    pub async fn platform_webhook(
        &self,
        platform_id: &str,
    ) -> Result<Option<WebhookRow>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(
                "SELECT url, updated_at FROM platform_webhooks WHERE platform_id = $1",
            )
            .bind(platform_id)
            .fetch_optional(pool)
            .await?)
        })
    }

    /// Where the relay stands now.
    pub async fn relay_position(&self) -> Result<RelayPosition, StorageError> {
        on_backend!(self, |pool, _begin| {
            let (last_event_id, pass, head): (i64, i64, i64) = sqlx::query_as(
                "SELECT last_event_id, pass, (SELECT CAST(COALESCE(MAX(id), 0) AS BIGINT) FROM events) \
                 FROM webhook_relay WHERE id = 1",
            )
            .fetch_one(pool)
            .await?;
            Ok(RelayPosition {
                last_event_id,
                pass,
                head,
            })
        })
    }

    /// The current links of platforms with a webhook that need a look: never told anything,
    /// due by the calendar (`recheck_on` ≤ `today`), or touched by an event after
    /// `p.last_event_id` up to `p.head` (on the driver, one of the driver's authorizations or
    /// their cars).
    pub async fn links_to_check(
        &self,
        p: RelayPosition,
        today: NaiveDate,
    ) -> Result<Vec<LinkToCheck>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(
                "SELECT pd.id, pd.platform_id, pd.notified_state, \
                 (SELECT a.id FROM app_authorizations a WHERE a.driver_id = pd.driver_id \
                  ORDER BY a.valid_from DESC, a.granted_at DESC LIMIT 1) AS authorization_id \
                 FROM platform_drivers pd JOIN platform_webhooks w ON w.platform_id = pd.platform_id \
                 WHERE pd.ended_at IS NULL AND w.url IS NOT NULL AND (pd.notified_state IS NULL \
                 OR pd.recheck_on <= $3 OR EXISTS (SELECT 1 FROM events e WHERE e.id > $1 AND e.id <= $2 \
                 AND ((e.entity_type = 'driver' AND e.entity_id = pd.driver_id) \
                 OR (e.entity_type = 'app_authorization' AND e.entity_id IN \
                     (SELECT a.id FROM app_authorizations a WHERE a.driver_id = pd.driver_id)) \
                 OR (e.entity_type = 'vehicle' AND e.entity_id IN \
                     (SELECT a.vehicle_id FROM app_authorizations a WHERE a.driver_id = pd.driver_id))))) \
                 ORDER BY pd.registered_at, pd.id",
            )
            .bind(p.last_event_id)
            .bind(p.head)
            .bind(today)
            .fetch_all(pool)
            .await?)
        })
    }

    /// The notices to platforms (`kind`) recorded after `p.last_event_id` up to `p.head`.
    pub async fn notices_to_relay(
        &self,
        p: RelayPosition,
        kind: &str,
    ) -> Result<Vec<RecordedNotice>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(
                "SELECT id, entity_id, data, occurred_at FROM events WHERE id > $1 AND id <= $2 \
                 AND entity_type = 'platform' AND kind = $3 ORDER BY id",
            )
            .bind(p.last_event_id)
            .bind(p.head)
            .bind(kind)
            .fetch_all(pool)
            .await?)
        })
    }

    /// Commits one pass: moves the relay to `p.head`, records what each link was told and
    /// queues the deliveries (an event already queued is not queued again). `false`, and
    /// nothing written, when another pass committed since `p` was read.
    pub async fn commit_relay_pass(
        &self,
        p: RelayPosition,
        writes: &RelayWrites,
        now: DateTime<Utc>,
    ) -> Result<bool, StorageError> {
        on_backend!(self, |pool, _begin, pg| {
            let mut tx = pool.begin_with(immediate(pg)).await?;
            let moved = sqlx::query(
                "UPDATE webhook_relay SET last_event_id = $1, pass = pass + 1 \
                 WHERE id = 1 AND pass = $2",
            )
            .bind(p.head)
            .bind(p.pass)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if moved == 0 {
                return Ok(false);
            }
            for (link, told, recheck_on) in &writes.links {
                sqlx::query(
                    "UPDATE platform_drivers SET notified_state = $2, recheck_on = $3 WHERE id = $1",
                )
                .bind(link)
                .bind(told)
                .bind(recheck_on)
                .execute(&mut *tx)
                .await?;
            }
            for d in &writes.deliveries {
                sqlx::query(
                    "INSERT INTO webhook_deliveries (id, platform_id, event_type, dedupe_key, payload, \
                     created_at, status, attempts, next_attempt_us) \
                     VALUES ($1, $2, $3, $4, $5, $6, 'pending', 0, $7) \
                     ON CONFLICT (platform_id, dedupe_key) DO NOTHING",
                )
                .bind(d.id.to_string())
                .bind(&d.platform_id)
                .bind(d.event_type)
                .bind(&d.dedupe_key)
                .bind(&d.payload)
                .bind(now)
                .bind(micros(now))
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Claims up to `limit` deliveries due at `now` that no one holds, for `owner` until
    /// `lease_until`, each with its platform's address now.
    pub async fn claim_webhooks(
        &self,
        owner: &str,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<QueuedDelivery>, StorageError> {
        on_backend!(self, |pool, _begin, pg| {
            let due: Option<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(DELIVERIES.due_sql()))
                .bind(micros(now))
                .fetch_optional(pool)
                .await?;
            if due.is_none() {
                return Ok(Vec::new());
            }
            let mut tx = pool.begin_with(immediate(pg)).await?;
            sqlx::query(sqlx::AssertSqlSafe(DELIVERIES.claim_sql(pg)))
                .bind(owner)
                .bind(micros(lease_until))
                .bind(micros(now))
                .bind(limit)
                .execute(&mut *tx)
                .await?;
            let rows: Vec<ClaimedRow> = sqlx::query_as(
                "SELECT d.id, w.url, d.payload, d.attempts FROM webhook_deliveries d \
                 LEFT JOIN platform_webhooks w ON w.platform_id = d.platform_id \
                 WHERE d.status = 'pending' AND d.lease_owner = $1 AND d.lease_until_us = $2 \
                 ORDER BY d.next_attempt_us, d.created_at",
            )
            .bind(owner)
            .bind(micros(lease_until))
            .fetch_all(&mut *tx)
            .await?;
            tx.commit().await?;
            rows.into_iter()
                .map(|r| {
                    Ok(QueuedDelivery {
                        id: crate::storage::parse_uuid(&r.id)?,
                        url: r.url,
                        payload: r.payload,
                        attempts: r.attempts,
                    })
                })
                .collect()
        })
    }

    /// Records an attempt of `owner` (to `url`) on a delivery it holds. `false`, and nothing
    /// recorded, when the lease is no longer `owner`'s.
    pub async fn webhook_attempted(
        &self,
        id: Uuid,
        owner: &str,
        url: &str,
        now: DateTime<Utc>,
        outcome: &DeliveryOutcome,
    ) -> Result<bool, StorageError> {
        on_backend!(self, |pool, _begin, pg| {
            let mut tx = pool.begin_with(immediate(pg)).await?;
            let (status, next, http_status, error, word) = match outcome {
                DeliveryOutcome::Delivered { http_status } => (
                    DELIVERIES.done.0,
                    now,
                    Some(*http_status),
                    None,
                    "delivered",
                ),
                DeliveryOutcome::Retry {
                    http_status,
                    error,
                    at,
                } => ("pending", *at, *http_status, Some(error.as_str()), "retry"),
                DeliveryOutcome::Failed { http_status, error } => {
                    ("failed", now, *http_status, Some(error.as_str()), "failed")
                }
            };
            let delivered_at = matches!(outcome, DeliveryOutcome::Delivered { .. }).then_some(now);
            let done = sqlx::query(sqlx::AssertSqlSafe(DELIVERIES.settle_sql()))
                .bind(id.to_string())
                .bind(owner)
                .bind(status)
                .bind(micros(next))
                .bind(delivered_at)
                .bind(error)
                .execute(&mut *tx)
                .await?;
            if done.rows_affected() == 0 {
                return Ok(false);
            }
            sqlx::query(
                "INSERT INTO webhook_attempts (delivery_id, attempt, at, node, url, outcome, \
                 http_status, detail) \
                 SELECT id, attempts, $2, $3, $4, $5, $6, $7 FROM webhook_deliveries WHERE id = $1",
            )
            .bind(id.to_string())
            .bind(now)
            .bind(owner)
            .bind(url)
            .bind(word)
            .bind(http_status)
            .bind(error)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    /// The latest `limit` deliveries to `platform_id`, newest first.
    pub async fn webhook_deliveries_of(
        &self,
        platform_id: &str,
        limit: i64,
    ) -> Result<Vec<DeliveryRecord>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(
                "SELECT id, event_type, created_at, status, attempts, delivered_at, last_error \
                 FROM webhook_deliveries WHERE platform_id = $1 \
                 ORDER BY created_at DESC, id DESC LIMIT $2",
            )
            .bind(platform_id)
            .bind(limit)
            .fetch_all(pool)
            .await?)
        })
    }

    /// The payload of delivery `id` to `platform_id`, as queued.
    pub async fn webhook_payload(
        &self,
        platform_id: &str,
        id: &str,
    ) -> Result<Option<String>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_scalar(
                "SELECT payload FROM webhook_deliveries WHERE platform_id = $1 AND id = $2",
            )
            .bind(platform_id)
            .bind(id)
            .fetch_optional(pool)
            .await?)
        })
    }
}

impl Store {
    /// Records a notice to `platform_id` (`kind`, with `data`) in the audit chain; the relay
    /// turns it into a delivery.
    pub async fn record_platform_notice(
        &self,
        platform_id: &str,
        kind: &str,
        data: &serde_json::Value,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            append_event!(
                tx,
                "platform",
                platform_id.to_owned(),
                kind.to_owned(),
                actor.to_owned(),
                None::<String>,
                None::<String>,
                now,
                data.to_string(),
            );
            tx.commit_unseen().await?;
            Ok(())
        })
    }
}
