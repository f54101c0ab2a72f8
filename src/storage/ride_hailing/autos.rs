//! The register of ride-hailing autos de infração: the UPF of each year, the autos,
//! a driver's earlier autos (recidivism) and the notification.

use super::{
    AutoNotification, AutoRow, DateTime, NaiveDate, NewEvent, ReservedNumber, RideHailingAct,
    RideHailingAuto, StorageError, Store, Utc, Uuid, event_data, sql,
};

impl Store {
    /// Records the UPF value of a year; `Conflict("upf_values")` if already set.
    pub async fn set_upf_value(
        &self,
        year: i32,
        centavos: i64,
        act: &str,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, _begin| {
            sqlx::query(sql::INSERT_UPF)
                .bind(year)
                .bind(centavos)
                .bind(act)
                .bind(now)
                .bind(actor)
                .execute(pool)
                .await?;
            self.changes().committed();
            Ok(())
        })
    }

    pub async fn upf_value(&self, year: i32) -> Result<Option<i64>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_scalar(sql::SELECT_UPF)
                .bind(year)
                .fetch_optional(pool)
                .await?)
        })
    }

    /// The UPF value of a year with the act that fixed it (the notice cites it).
    pub async fn upf_entry(&self, year: i32) -> Result<Option<(i64, String)>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(sql::SELECT_UPF_ENTRY)
                .bind(year)
                .fetch_optional(pool)
                .await?)
        })
    }

    /// Earlier autos of a driver: (infraction id, date committed).
    pub async fn prior_autos(
        &self,
        driver_id: Uuid,
    ) -> Result<Vec<(String, NaiveDate)>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(sql::SELECT_PRIOR_AUTOS)
                .bind(driver_id.to_string())
                .fetch_all(pool)
                .await?)
        })
    }

    /// Records an auto, taking the next number of `series` in the same transaction.
    pub async fn insert_auto(
        &self,
        auto: &RideHailingAuto,
        series: &str,
        actor: &str,
    ) -> Result<String, StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let year = chrono::Datelike::year(&crate::domain::dates::local_date(auto.drawn_up_at));
            let seq: i64 = sqlx::query_scalar(sql::BUMP_COUNTER)
                .bind(series)
                .bind(year)
                .fetch_one(&mut *tx)
                .await?;
            let number = ReservedNumber::format(series, year, seq);
            sqlx::query(sql::INSERT_ISSUED_NUMBER)
                .bind(&number)
                .bind(series)
                .bind(year)
                .bind(seq)
                .bind(auto.drawn_up_at)
                .bind(actor)
                .execute(&mut *tx)
                .await?;
            sqlx::query(sql::INSERT_AUTO)
                .bind(auto.id.to_string())
                .bind(&number)
                .bind(&auto.infraction_id)
                .bind(auto.driver_id.to_string())
                .bind(auto.authorization_id.map(|a| a.to_string()))
                .bind(auto.committed_at)
                .bind(auto.committed_on)
                .bind(&auto.place)
                .bind(&auto.facts)
                .bind(&auto.inspector)
                .bind(auto.drawn_up_at)
                .bind(auto.fine_upf)
                .bind(auto.fine_centavos)
                .bind(auto.consequences.to_string())
                .bind(&auto.legal_basis_version)
                .bind(actor)
                .execute(&mut *tx)
                .await?;
            let data = serde_json::json!({"number": number, "infraction_id": auto.infraction_id, "driver_id": auto.driver_id});
            insert_event!(
                tx,
                NewEvent {
                    entity_type: "app_infraction_auto",
                    entity_id: auto.id.to_string(),
                    kind: RideHailingAct::DrawnUp.as_str(),
                    actor,
                    reason: None::<String>,
                    legal_basis_version: &auto.legal_basis_version,
                    at: auto.drawn_up_at,
                    data: event_data(&data),
                },
            )
            .await?;
            tx.commit().await?;
            Ok(number)
        })
    }

    pub async fn get_auto(&self, id: Uuid) -> Result<Option<RideHailingAuto>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let row: Option<AutoRow> = sqlx::query_as(sql::SELECT_AUTO)
                .bind(id.to_string())
                .fetch_optional(pool)
                .await?;
            row.map(RideHailingAuto::try_from).transpose()
        })
    }

    /// Every auto of a driver, the latest first (the inspector's record).
    pub async fn autos_of_driver(
        &self,
        driver_id: Uuid,
    ) -> Result<Vec<RideHailingAuto>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let rows: Vec<AutoRow> = sqlx::query_as(sql::SELECT_AUTOS_OF_DRIVER)
                .bind(driver_id.to_string())
                .fetch_all(pool)
                .await?;
            rows.into_iter().map(RideHailingAuto::try_from).collect()
        })
    }

    /// `Ok(false)` if the auto does not exist; `Conflict` if already notified.
    pub async fn record_notification(
        &self,
        auto_id: Uuid,
        n: &AutoNotification,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<bool, StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let exists: i64 = sqlx::query_scalar(sql::AUTO_EXISTS)
                .bind(auto_id.to_string())
                .fetch_one(&mut *tx)
                .await?;
            if exists == 0 {
                return Ok(false);
            }
            sqlx::query(sql::INSERT_NOTIFICATION)
                .bind(auto_id.to_string())
                .bind(&n.method)
                .bind(n.notified_on)
                .bind(n.juntada_on)
                .bind(now)
                .bind(actor)
                .execute(&mut *tx)
                .await?;
            let data = serde_json::json!({"method": n.method, "notified_on": n.notified_on, "juntada_on": n.juntada_on});
            insert_event!(
                tx,
                NewEvent {
                    entity_type: "app_infraction_auto",
                    entity_id: auto_id.to_string(),
                    kind: RideHailingAct::Notified.as_str(),
                    actor,
                    reason: None::<String>,
                    legal_basis_version: None::<String>,
                    at: now,
                    data: event_data(&data),
                },
            )
            .await?;
            tx.commit().await?;
            Ok(true)
        })
    }
}
