//! Replacements of the authorized car (draft consolidated law, art. 8º, §2º), written once
//! for both backends. A replacement is a numbered row of its authorization; the documents
//! issued with it carry that number, so the register tells which sticker is in force.

use chrono::{DateTime, NaiveDate, Utc};
use uuid::Uuid;

use crate::domain::ride_hailing::substitution::SubstitutionCause;
use crate::storage::charter::NewEvent;
use crate::storage::documents::SignedDocument;
use crate::storage::{StorageError, Store, sql};

/// A replacement to commit in one transaction with its documents and events.
#[derive(Debug)]
pub struct NewSubstitution<'a> {
    pub authorization_id: Uuid,
    /// 1 for the first replacement of the authorization, then 2, 3…
    pub seq: u32,
    pub old_vehicle_id: Uuid,
    pub new_vehicle_id: Uuid,
    pub cause: SubstitutionCause,
    pub vistoria_on: NaiveDate,
    /// The day the request was protocolled (migration 0022).
    pub protocolled_on: NaiveDate,
    pub at: DateTime<Utc>,
    pub actor: &'a str,
    pub documents: &'a [SignedDocument],
    pub events: Vec<NewEvent<'a>>,
}

const COUNT: &str = "SELECT COUNT(*) FROM app_vehicle_substitutions WHERE authorization_id = $1";
const INSERT: &str = "INSERT INTO app_vehicle_substitutions (authorization_id, seq, old_vehicle_id, \
    new_vehicle_id, cause, vistoria_on, effective_at, created_by, protocolled_on) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";
const LATEST_UNTIL: &str = "SELECT MAX(seq) FROM app_vehicle_substitutions \
    WHERE authorization_id = $1 AND effective_at <= $2";

impl Store {
    /// The number of the last replacement of the authorization's car in effect by `until`
    /// (APP-ART8-P2), for a reading as of a past instant.
    pub async fn latest_substitution_until(
        &self,
        authorization_id: Uuid,
        until: DateTime<Utc>,
    ) -> Result<Option<i32>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let latest: Option<i32> = sqlx::query_scalar(LATEST_UNTIL)
                .bind(authorization_id.to_string())
                .bind(until)
                .fetch_one(pool)
                .await?;
            Ok(latest)
        })
    }

    /// Commits a replacement, its documents and events, or nothing. `Conflict("substitution")`
    /// if another replacement of the authorization came first; `Conflict("active_authorization")`
    /// if the new car was bound to another authorization meanwhile (APP-ART8).
    pub async fn commit_substitution(&self, s: &NewSubstitution<'_>) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin, pg| {
            let _ = pool;
            let mut tx = begin().await?;
            if pg {
                // Same lock order as a grant (the vehicle), then the authorization.
                sqlx::query(sql::LOCK_VEHICLE)
                    .bind(s.new_vehicle_id.to_string())
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(sql::LOCK_AUTHORIZATION)
                    .bind(s.authorization_id.to_string())
                    .execute(&mut *tx)
                    .await?;
            }
            let done: i64 = sqlx::query_scalar(COUNT)
                .bind(s.authorization_id.to_string())
                .fetch_one(&mut *tx)
                .await?;
            if done + 1 != i64::from(s.seq) {
                return Err(StorageError::Conflict("substitution"));
            }
            // Art. 8º, caput: the new car binds no other authorization, checked again under
            // the write lock.
            if binds_any!(tx, sql::AUTHORIZATIONS_OF_VEHICLE, s.new_vehicle_id, s.at).await? {
                return Err(StorageError::Conflict("active_authorization"));
            }
            sqlx::query(INSERT)
                .bind(s.authorization_id.to_string())
                .bind(i64::from(s.seq))
                .bind(s.old_vehicle_id.to_string())
                .bind(s.new_vehicle_id.to_string())
                .bind(s.cause.as_str())
                .bind(s.vistoria_on)
                .bind(s.at)
                .bind(s.actor)
                .bind(s.protocolled_on)
                .execute(&mut *tx)
                .await?;
            for d in s.documents {
                insert_document!(tx, d);
            }
            insert_events!(tx, &s.events);
            tx.commit().await?;
            Ok(())
        })
    }
}
