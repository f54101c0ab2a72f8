//! The register of platforms and of the data requests sent to them, with their
//! deliveries.

use super::{DataRequest, DateTime, PlatformRecord, StorageError, Store, Utc, sql};

impl Store {
    pub async fn insert_platform(
        &self,
        p: &PlatformRecord,
        actor: &str,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, _begin| {
            sqlx::query(sql::INSERT_PLATFORM)
                .bind(&p.id)
                .bind(&p.cnpj)
                .bind(&p.name)
                .bind(&p.insurance_policy)
                .bind(&p.insurer)
                .bind(p.insurance_cover_centavos)
                .bind(p.insurance_valid_until)
                .bind(p.fee_paid_on)
                .bind(p.valid_until)
                .bind(&p.legal_basis_version)
                .bind(p.created_at)
                .bind(actor)
                .execute(pool)
                .await?;
            self.changes().committed();
            Ok(())
        })
    }

    /// How many platforms are registered with a registration in force on `on`.
    pub async fn platforms_in_force(&self, on: chrono::NaiveDate) -> Result<u32, StorageError> {
        on_backend!(self, |pool, _begin| {
            let (n,): (i64,) =
                sqlx::query_as("SELECT COUNT(*) FROM platforms WHERE valid_until >= $1")
                    .bind(on)
                    .fetch_one(pool)
                    .await?;
            Ok(u32::try_from(n).unwrap_or(u32::MAX))
        })
    }

    pub async fn get_platform(&self, id: &str) -> Result<Option<PlatformRecord>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(sql::SELECT_PLATFORM)
                .bind(id)
                .fetch_optional(pool)
                .await?)
        })
    }

    pub async fn insert_data_request(
        &self,
        r: &DataRequest,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, _begin| {
            sqlx::query(sql::INSERT_DATA_REQUEST)
                .bind(&r.id)
                .bind(&r.platform_id)
                .bind(&r.justification)
                .bind(&r.scope)
                .bind(r.notified_at)
                .bind(r.due_at)
                .bind(now)
                .bind(actor)
                .execute(pool)
                .await?;
            self.changes().committed();
            Ok(())
        })
    }

    /// Every data request not yet delivered (the worklist's).
    pub async fn pending_data_requests(&self) -> Result<Vec<DataRequest>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(sql::SELECT_PENDING_DATA_REQUESTS)
                .fetch_all(pool)
                .await?)
        })
    }

    pub async fn get_data_request(&self, id: &str) -> Result<Option<DataRequest>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(sql::SELECT_DATA_REQUEST)
                .bind(id)
                .fetch_optional(pool)
                .await?)
        })
    }

    /// Records the delivery; `Conflict` if already delivered.
    pub async fn record_delivery(
        &self,
        id: &str,
        delivered_at: DateTime<Utc>,
        sha256: &str,
        signer: &str,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, _begin| {
            sqlx::query(sql::INSERT_DELIVERY)
                .bind(id)
                .bind(delivered_at)
                .bind(sha256)
                .bind(signer)
                .bind(now)
                .bind(actor)
                .execute(pool)
                .await?;
            self.changes().committed();
            Ok(())
        })
    }
}
