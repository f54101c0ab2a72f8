//! Platforms' own access to the register: their API credentials (kept as SHA-256) and the
//! drivers each platform registered as working through it. Every change is one transaction
//! with its event in the audit chain.

use uuid::Uuid;

use super::{DateTime, StorageError, Store, Utc};

/// A credential as the officials see it (never the token).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct CredentialRow {
    pub id: String,
    pub platform_id: String,
    pub label: String,
    pub created_at: DateTime<Utc>,
    pub revoked_at: Option<DateTime<Utc>>,
}

/// A driver registered with a platform, and the driver's latest authorization.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PlatformDriverRow {
    pub driver_id: String,
    pub registered_at: DateTime<Utc>,
    pub authorization_id: Option<String>,
}

/// The driver is registered with the platform already.
pub const ALREADY_REGISTERED: &str = "platform_driver_registered";
/// The platform has as many drivers as the cap allows.
pub const CAP_REACHED: &str = "platform_drivers_cap";

impl Store {
    /// Stores a new credential of `platform_id` by the hash of its token.
    pub async fn insert_platform_credential(
        &self,
        id: Uuid,
        platform_id: &str,
        token_hash: &str,
        label: &str,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            sqlx::query(
                "INSERT INTO platform_credentials (id, platform_id, token_hash, label, created_at, created_by) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(id.to_string())
            .bind(platform_id)
            .bind(token_hash)
            .bind(label)
            .bind(now)
            .bind(actor)
            .execute(&mut *tx)
            .await?;
            append_event!(
                tx,
                "platform",
                platform_id.to_owned(),
                "platform_credential_issued",
                actor.to_owned(),
                None::<String>,
                None::<String>,
                now,
                serde_json::json!({ "credential_id": id, "label": label }).to_string(),
            );
            tx.commit_unseen().await?;
            Ok(())
        })
    }

    /// Revokes a credential of `platform_id`; `None` when it has no such credential, the row
    /// as it stands otherwise (revoked once: a second revocation changes nothing).
    pub async fn revoke_platform_credential(
        &self,
        platform_id: &str,
        id: Uuid,
        reason: &str,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<CredentialRow>, StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let changed = sqlx::query(
                "UPDATE platform_credentials SET revoked_at = $3, revoked_by = $4, revoke_reason = $5 \
                 WHERE platform_id = $1 AND id = $2 AND revoked_at IS NULL",
            )
            .bind(platform_id)
            .bind(id.to_string())
            .bind(now)
            .bind(actor)
            .bind(reason)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if changed > 0 {
                append_event!(
                    tx,
                    "platform",
                    platform_id.to_owned(),
                    "platform_credential_revoked",
                    actor.to_owned(),
                    Some(reason.to_owned()),
                    None::<String>,
                    now,
                    serde_json::json!({ "credential_id": id }).to_string(),
                );
            }
            let row: Option<CredentialRow> = sqlx::query_as(
                "SELECT id, platform_id, label, created_at, revoked_at FROM platform_credentials \
                 WHERE platform_id = $1 AND id = $2",
            )
            .bind(platform_id)
            .bind(id.to_string())
            .fetch_optional(&mut *tx)
            .await?;
            tx.commit_unseen().await?;
            Ok(row)
        })
    }

    /// The live credential whose token hashes to `token_hash`: (credential id, platform id).
    pub async fn platform_credential(
        &self,
        token_hash: &str,
    ) -> Result<Option<(String, String)>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(
                "SELECT id, platform_id FROM platform_credentials \
                 WHERE token_hash = $1 AND revoked_at IS NULL",
            )
            .bind(token_hash)
            .fetch_optional(pool)
            .await?)
        })
    }

    /// Registers `driver_id` with `platform_id` from `now`; with a `cap`, only while the
    /// platform has fewer drivers than it (counted in the transaction that adds one).
    pub async fn register_platform_driver(
        &self,
        platform_id: &str,
        driver_id: Uuid,
        cap: Option<u32>,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            if let Some(max) = cap {
                let linked: i64 = sqlx::query_scalar(
                    "SELECT COUNT(*) FROM platform_drivers WHERE platform_id = $1 AND ended_at IS NULL",
                )
                .bind(platform_id)
                .fetch_one(&mut *tx)
                .await?;
                if linked >= i64::from(max) {
                    return Err(StorageError::Conflict(CAP_REACHED));
                }
            }
            let current: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM platform_drivers \
                 WHERE platform_id = $1 AND driver_id = $2 AND ended_at IS NULL",
            )
            .bind(platform_id)
            .bind(driver_id.to_string())
            .fetch_one(&mut *tx)
            .await?;
            if current > 0 {
                return Err(StorageError::Conflict(ALREADY_REGISTERED));
            }
            sqlx::query(
                "INSERT INTO platform_drivers (id, platform_id, driver_id, registered_at) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(Uuid::new_v4().to_string())
            .bind(platform_id)
            .bind(driver_id.to_string())
            .bind(now)
            .execute(&mut *tx)
            .await?;
            append_event!(
                tx,
                "platform",
                platform_id.to_owned(),
                "platform_driver_registered",
                actor.to_owned(),
                None::<String>,
                None::<String>,
                now,
                serde_json::json!({ "driver_id": driver_id }).to_string(),
            );
            tx.commit_unseen().await?;
            Ok(())
        })
    }

    /// Ends the registration of `driver_id` with `platform_id`; false when there was none.
    pub async fn end_platform_driver(
        &self,
        platform_id: &str,
        driver_id: Uuid,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<bool, StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let changed = sqlx::query(
                "UPDATE platform_drivers SET ended_at = $3 \
                 WHERE platform_id = $1 AND driver_id = $2 AND ended_at IS NULL",
            )
            .bind(platform_id)
            .bind(driver_id.to_string())
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if changed == 0 {
                return Ok(false);
            }
            append_event!(
                tx,
                "platform",
                platform_id.to_owned(),
                "platform_driver_ended",
                actor.to_owned(),
                None::<String>,
                None::<String>,
                now,
                serde_json::json!({ "driver_id": driver_id }).to_string(),
            );
            tx.commit_unseen().await?;
            Ok(true)
        })
    }

    /// The drivers registered with `platform_id` now, oldest registration first, each with
    /// the latest authorization granted to them (a renewal replaces the one it renews).
    pub async fn platform_drivers(
        &self,
        platform_id: &str,
    ) -> Result<Vec<PlatformDriverRow>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(
                "SELECT pd.driver_id, pd.registered_at, \
                 (SELECT a.id FROM app_authorizations a WHERE a.driver_id = pd.driver_id \
                  ORDER BY a.valid_from DESC, a.granted_at DESC LIMIT 1) AS authorization_id \
                 FROM platform_drivers pd WHERE pd.platform_id = $1 AND pd.ended_at IS NULL \
                 ORDER BY pd.registered_at, pd.id",
            )
            .bind(platform_id)
            .fetch_all(pool)
            .await?)
        })
    }
}
