//! The ride-hailing register (drivers, cars, authorizations, documents, sanctions, autos,
//! platforms, data requests, the calendar's decreed days), written once for both backends:
//! `on_backend!` expands every body per pool type. Check-then-insert writes run under
//! `BEGIN IMMEDIATE` on SQLite and lock the rows they check (`SELECT … FOR UPDATE`) on
//! PostgreSQL, so concurrent nodes cannot both pass the check.

pub mod events;
pub mod notices;
pub mod substitution;

use chrono::{DateTime, NaiveDate, Utc};
use uuid::Uuid;

use super::{
    AuthorizationRow, AutoNotification, AutoRow, DataRequest, DecreedDayRow, DocumentStatus,
    DocumentStatusRow, DriverPhoto, DriverRow, Event, NewEvent, NewGrant, PlatformRecord,
    ReservedNumber, RevocationRow, RevokeOutcome, RideHailingAuto, SanctionRow, StorageError,
    Store, VehicleRow, day_kind_name, event_data, parse_uuid, sql,
};
use crate::domain::calendar::ClosedDay;
use crate::domain::ride_hailing::RideHailingAct;
use crate::domain::ride_hailing::driver_record::DriverRecord;
use crate::domain::ride_hailing::registry::{
    Driver, Revocation, RideHailingAuthorization, Vehicle,
};
use crate::domain::ride_hailing::review::ReviewOutcome;
use crate::domain::ride_hailing::sanctions::Sanction;

/// Appends one `NewEvent` in the caller's transaction `$tx`.
macro_rules! insert_event {
    ($tx:expr, $e:expr $(,)?) => {
        async {
            let e = $e;
            append_event!(
                $tx,
                e.entity_type,
                e.entity_id,
                e.kind,
                e.actor,
                e.reason,
                e.legal_basis_version,
                e.at,
                e.data,
            );
            Ok::<(), StorageError>(())
        }
    };
}

/// Voids reserved `number` inside transaction `tx`, with its `voided` event (`system`).
macro_rules! void_in {
    ($tx:expr, $number:expr, $reason:expr, $now:expr) => {
        async {
            let number: &str = $number;
            sqlx::query(sql::VOID_NUMBER)
                .bind(number)
                .bind($now)
                .bind($reason)
                .execute(&mut *$tx)
                .await?;
            insert_event!(
                $tx,
                NewEvent {
                    entity_type: "document_number",
                    entity_id: number.to_owned(),
                    kind: RideHailingAct::Voided.as_str(),
                    actor: "system",
                    reason: $reason,
                    legal_basis_version: None::<String>,
                    at: $now,
                    data: "{}".to_owned(),
                },
            )
            .await
        }
    };
}

mod autos;
pub mod electronic_notices;
pub mod platform_access;
pub mod platform_files;
mod platforms;
pub mod reviews;
pub mod webhooks;

impl Store {
    pub async fn ping(&self) -> Result<(), StorageError> {
        if let Store::Postgres(pg) = self
            && !pg.migrated()
        {
            return Err(StorageError::Unavailable(sqlx::Error::PoolTimedOut));
        }
        on_backend!(self, |pool, _begin| {
            sqlx::query("SELECT 1").execute(pool).await?;
            Ok(())
        })
    }

    pub async fn insert_driver(&self, driver: &Driver, actor: &str) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            sqlx::query(sql::INSERT_DRIVER)
                .bind(driver.id.to_string())
                .bind(&driver.name)
                .bind(driver.cpf.as_str())
                .bind(driver.cnh.number.as_str())
                .bind(driver.cnh.category.as_str())
                .bind(driver.cnh.first_license_date)
                .bind(driver.cnh.ear)
                .bind(driver.cnh.expires_on)
                .bind(driver.created_at)
                .execute(&mut *tx)
                .await?;
            // The name as a search for part of it reads it.
            sqlx::query(super::search::INSERT_NAME)
                .bind(super::search::folded(&driver.name))
                .bind(driver.id.to_string())
                .execute(&mut *tx)
                .await?;
            sqlx::query(sql::INSERT_DRIVER_RECORD)
                .bind(driver.id.to_string())
                .bind(serde_json::to_string(&driver.record).unwrap_or_else(|_| "{}".into()))
                .bind(driver.created_at)
                .bind(actor)
                .execute(&mut *tx)
                .await?;
            insert_event!(
                tx,
                NewEvent {
                    entity_type: "driver",
                    entity_id: driver.id.to_string(),
                    kind: RideHailingAct::Registered.as_str(),
                    actor,
                    reason: None::<String>,
                    legal_basis_version: None::<String>,
                    at: driver.created_at,
                    data: "{}".to_owned(),
                },
            )
            .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    /// Appends a new snapshot of the driver's record; `false` if the driver does not exist.
    pub async fn add_driver_record(
        &self,
        driver_id: Uuid,
        record: &DriverRecord,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<bool, StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let exists: i64 = sqlx::query_scalar(sql::DRIVER_EXISTS)
                .bind(driver_id.to_string())
                .fetch_one(&mut *tx)
                .await?;
            if exists == 0 {
                return Ok(false);
            }
            let json = serde_json::to_string(record).unwrap_or_else(|_| "{}".into());
            sqlx::query(sql::INSERT_DRIVER_RECORD)
                .bind(driver_id.to_string())
                .bind(&json)
                .bind(now)
                .bind(actor)
                .execute(&mut *tx)
                .await?;
            insert_event!(
                tx,
                NewEvent {
                    entity_type: "driver",
                    entity_id: driver_id.to_string(),
                    kind: RideHailingAct::RecordFiled.as_str(),
                    actor,
                    reason: None::<String>,
                    legal_basis_version: None::<String>,
                    at: now,
                    data: json,
                },
            )
            .await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Sets (or replaces) a driver's photo, with its event; `false` if the driver does not exist.
    pub async fn set_driver_photo(
        &self,
        driver_id: Uuid,
        photo: &DriverPhoto,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<bool, StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let exists: i64 = sqlx::query_scalar(sql::DRIVER_EXISTS)
                .bind(driver_id.to_string())
                .fetch_one(&mut *tx)
                .await?;
            if exists == 0 {
                return Ok(false);
            }
            sqlx::query(sql::UPSERT_DRIVER_PHOTO)
                .bind(driver_id.to_string())
                .bind(&photo.jpeg)
                .bind(&photo.sha256)
                .bind(i64::from(photo.width))
                .bind(i64::from(photo.height))
                .bind(now)
                .bind(actor)
                .execute(&mut *tx)
                .await?;
            insert_event!(
                tx,
                NewEvent {
                    entity_type: "driver",
                    entity_id: driver_id.to_string(),
                    kind: RideHailingAct::PhotoSet.as_str(),
                    actor,
                    reason: None::<String>,
                    legal_basis_version: None::<String>,
                    at: now,
                    data: serde_json::json!({
                        "sha256": photo.sha256,
                        "width": photo.width,
                        "height": photo.height,
                    })
                    .to_string(),
                },
            )
            .await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    /// A driver's photo (JPEG), if one is on file.
    pub async fn driver_photo(&self, driver_id: Uuid) -> Result<Option<Vec<u8>>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_scalar(sql::SELECT_DRIVER_PHOTO)
                .bind(driver_id.to_string())
                .fetch_optional(pool)
                .await?)
        })
    }

    pub async fn get_driver(&self, id: Uuid) -> Result<Option<Driver>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let row: Option<DriverRow> = sqlx::query_as(sql::SELECT_DRIVER)
                .bind(id.to_string())
                .fetch_optional(pool)
                .await?;
            row.map(Driver::try_from).transpose()
        })
    }

    /// The registered driver with this CPF, or else the one with this CNH number (the two
    /// are unique in the register).
    pub async fn driver_id_by_cpf_or_cnh(
        &self,
        cpf: &str,
        cnh_number: &str,
    ) -> Result<Option<(Uuid, bool)>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let row: Option<(String, String)> = sqlx::query_as(
                "SELECT id, cpf FROM drivers \
                 WHERE cpf = CAST($1 AS CHAR(11)) OR cnh_number = CAST($2 AS CHAR(11)) \
                 ORDER BY CASE WHEN cpf = CAST($1 AS CHAR(11)) THEN 0 ELSE 1 END LIMIT 1",
            )
            .bind(cpf)
            .bind(cnh_number)
            .fetch_optional(pool)
            .await?;
            row.map(|(id, found)| Ok((parse_uuid(&id)?, found == cpf)))
                .transpose()
        })
    }

    /// The registered car with this plate (either pattern), or else the one with this
    /// RENAVAM (both unique in the register).
    pub async fn vehicle_id_by_plate_or_renavam(
        &self,
        plate_mercosul: &str,
        renavam: &str,
    ) -> Result<Option<(Uuid, bool)>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let row: Option<(String, String)> = sqlx::query_as(
                "SELECT id, plate_mercosul FROM vehicles \
                 WHERE plate_mercosul = CAST($1 AS CHAR(7)) OR renavam = CAST($2 AS CHAR(11)) \
                 ORDER BY CASE WHEN plate_mercosul = $1 THEN 0 ELSE 1 END LIMIT 1",
            )
            .bind(plate_mercosul)
            .bind(renavam)
            .fetch_optional(pool)
            .await?;
            row.map(|(id, found)| Ok((parse_uuid(&id)?, found == plate_mercosul)))
                .transpose()
        })
    }

    pub async fn insert_vehicle(&self, v: &Vehicle, actor: &str) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            sqlx::query(sql::INSERT_VEHICLE)
                .bind(v.id.to_string())
                .bind(v.plate.as_str())
                .bind(v.plate.mercosul_form())
                .bind(v.renavam.as_str())
                .bind(&v.make)
                .bind(&v.model)
                .bind(&v.color)
                .bind(v.model_year)
                .bind(v.doors)
                .bind(v.air_conditioning)
                .bind(v.capacity_including_driver)
                .bind(v.registration_municipality.as_i32())
                .bind(v.created_at)
                .bind(v.in_service_since)
                .bind(v.owner.as_ref().map(|o| o.kind.as_str()))
                .bind(v.owner.as_ref().map(|o| o.document.as_str()))
                .bind(v.manufacture_year)
                .execute(&mut *tx)
                .await?;
            insert_event!(
                tx,
                NewEvent {
                    entity_type: "vehicle",
                    entity_id: v.id.to_string(),
                    kind: RideHailingAct::Registered.as_str(),
                    actor,
                    reason: None::<String>,
                    legal_basis_version: None::<String>,
                    at: v.created_at,
                    data: "{}".to_owned(),
                },
            )
            .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    pub async fn get_vehicle(&self, id: Uuid) -> Result<Option<Vehicle>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let row: Option<VehicleRow> = sqlx::query_as(sql::SELECT_VEHICLE)
                .bind(id.to_string())
                .fetch_optional(pool)
                .await?;
            row.map(Vehicle::try_from).transpose()
        })
    }

    /// Every authorization of a driver with its validity, revocation and sanctions (for
    /// what the driver held when an infraction was committed).
    pub async fn driver_authorization_facts(
        &self,
        driver_id: Uuid,
    ) -> Result<Vec<crate::domain::ride_hailing::sanctions::AuthorizationFacts>, StorageError> {
        type Row = (String, NaiveDate, NaiveDate, Option<DateTime<Utc>>);
        let rows: Vec<Row> = on_backend!(self, |pool, _begin| {
            Ok::<_, StorageError>(
                sqlx::query_as(sql::AUTHORIZATION_FACTS_OF_DRIVER)
                    .bind(driver_id.to_string())
                    .fetch_all(pool)
                    .await?,
            )
        })?;
        let mut facts = Vec::with_capacity(rows.len());
        for (id, valid_from, valid_until, revoked_at) in rows {
            facts.push(crate::domain::ride_hailing::sanctions::AuthorizationFacts {
                valid_from,
                valid_until,
                revoked_at,
                sanctions: self.sanctions_of(super::parse_uuid(&id)?).await?,
            });
        }
        Ok(facts)
    }

    /// Whether the driver and the vehicle hold an authorization that still binds them at
    /// `now`; the decision is `domain::ride_hailing::sanctions::binds_driver_and_vehicle`.
    /// Whether the driver and the car are bound by an authorization other than `except` (the
    /// one a renewal renews).
    pub async fn active_authorization_flags(
        &self,
        driver_id: Uuid,
        vehicle_id: Uuid,
        now: DateTime<Utc>,
        except: Option<Uuid>,
    ) -> Result<(bool, bool), StorageError> {
        on_backend!(self, |pool, _begin| {
            let mut conn = pool.acquire().await?;
            let d = binds_any!(conn, sql::AUTHORIZATIONS_OF_DRIVER, driver_id, now, except).await?;
            let v = binds_any!(
                conn,
                sql::AUTHORIZATIONS_OF_VEHICLE,
                vehicle_id,
                now,
                except
            )
            .await?;
            Ok((d, v))
        })
    }

    /// The authorization that renews `id` (APP-ART3-PU, AMB-66): its id and number.
    pub async fn renewal_of(&self, id: Uuid) -> Result<Option<(Uuid, String)>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let row: Option<(String, String)> = sqlx::query_as(sql::RENEWAL_OF)
                .bind(id.to_string())
                .fetch_optional(pool)
                .await?;
            row.map(|(id, number)| Ok((super::parse_uuid(&id)?, number)))
                .transpose()
        })
    }

    /// Reserves the next number of a series and year, committed at once (never reused),
    /// recording the official who reserved it (`actor`).
    pub async fn reserve_number(
        &self,
        series: &str,
        year: i32,
        now: DateTime<Utc>,
        actor: &str,
    ) -> Result<ReservedNumber, StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let seq: i64 = sqlx::query_scalar(sql::BUMP_COUNTER)
                .bind(series)
                .bind(year)
                .fetch_one(&mut *tx)
                .await?;
            let number = ReservedNumber::format(series, year, seq);
            sqlx::query(sql::INSERT_NUMBER)
                .bind(&number)
                .bind(series)
                .bind(year)
                .bind(seq)
                .bind(now)
                .bind(actor)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(ReservedNumber { number, year, seq })
        })
    }

    /// Voids, with `reason`, every number still reserved that was reserved before
    /// `reserved_before`: an issuance that never committed (a crash, `kill -9`). A commit that
    /// comes after finds its number voided and fails. Answers the numbers voided.
    pub async fn void_stale_reservations(
        &self,
        reserved_before: DateTime<Utc>,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<Vec<String>, StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let stale: Vec<String> = sqlx::query_scalar(sql::STALE_RESERVATIONS)
                .bind(reserved_before)
                .fetch_all(&mut *tx)
                .await?;
            for number in &stale {
                void_in!(tx, number, reason, now).await?;
            }
            tx.commit().await?;
            Ok(stale)
        })
    }

    /// Closes a reserved number that will not be issued.
    pub async fn void_number(
        &self,
        number: &str,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            void_in!(tx, number, reason, now).await?;
            tx.commit().await?;
            Ok(())
        })
    }

    /// Commits a grant in one transaction; `Conflict("active_authorization")` if the driver
    /// or the vehicle gained an active authorization meanwhile.
    #[expect(
        clippy::too_many_lines,
        reason = "one transaction: the one-to-one rule, the number, the rows and their events"
    )]
    pub async fn commit_grant(&self, grant: &NewGrant) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin, pg| {
            let a = &grant.authorization;
            let mut tx = begin().await?;
            // Lei (minuta) art. 8º: one active authorization per driver and per vehicle,
            // re-checked under the write lock (SQLite) or with the driver's and the vehicle's
            // rows locked (PostgreSQL).
            if pg {
                sqlx::query(sql::LOCK_DRIVER)
                    .bind(a.driver_id.to_string())
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(sql::LOCK_VEHICLE)
                    .bind(a.vehicle_id.to_string())
                    .execute(&mut *tx)
                    .await?;
            }
            // A renewal's own predecessor does not count; it is renewed once.
            let d = binds_any!(
                tx,
                sql::AUTHORIZATIONS_OF_DRIVER,
                a.driver_id,
                a.granted_at,
                a.renewal_of
            )
            .await?;
            let v = binds_any!(
                tx,
                sql::AUTHORIZATIONS_OF_VEHICLE,
                a.vehicle_id,
                a.granted_at,
                a.renewal_of
            )
            .await?;
            if d || v {
                return Err(StorageError::Conflict("active_authorization"));
            }
            if let Some(renewed) = a.renewal_of {
                let already: Option<(String, String)> = sqlx::query_as(sql::RENEWAL_OF)
                    .bind(renewed.to_string())
                    .fetch_optional(&mut *tx)
                    .await?;
                if already.is_some() {
                    return Err(StorageError::Conflict("renewal_of"));
                }
            }
            let issued = sqlx::query(sql::ISSUE_NUMBER)
                .bind(&a.number)
                .bind(a.granted_at)
                .execute(&mut *tx)
                .await?;
            if issued.rows_affected() != 1 {
                return Err(StorageError::Conflict("number"));
            }
            sqlx::query(sql::INSERT_AUTHORIZATION)
                .bind(a.id.to_string())
                .bind(&a.number)
                .bind(a.driver_id.to_string())
                .bind(a.vehicle_id.to_string())
                .bind(a.fee_paid_on)
                .bind(a.valid_from)
                .bind(a.valid_until)
                .bind(&a.legal_basis_version)
                .bind(a.granted_at)
                .bind(&a.granted_by)
                .bind(a.protocolled_on)
                .bind(a.renewal_of.map(|r| r.to_string()))
                .execute(&mut *tx)
                .await?;
            for d in &grant.documents {
                insert_document!(tx, d);
            }
            let data = serde_json::json!({
                "number": a.number,
                "valid_until": a.valid_until,
                "suspended_provisions": grant.suspended,
                "documents": grant.documents.iter().map(|d| serde_json::json!({"id": d.document.id, "kind": d.document.kind.as_str(), "sha256": d.document.sha256})).collect::<Vec<_>>(),
            });
            insert_event!(
                tx,
                NewEvent {
                    entity_type: "app_authorization",
                    entity_id: a.id.to_string(),
                    kind: RideHailingAct::Granted.as_str(),
                    actor: &a.granted_by,
                    reason: None::<String>,
                    legal_basis_version: &a.legal_basis_version,
                    at: a.granted_at,
                    data: event_data(&data),
                },
            )
            .await?;
            if let Some((review, grounds)) = &grant.review {
                // AMB-25: the official's decision of the filing, in the grant's transaction.
                let changed = sqlx::query(reviews::DECIDE)
                    .bind(review.to_string())
                    .bind(ReviewOutcome::Granted.status().as_str())
                    .bind(grounds)
                    .bind(a.granted_at)
                    .bind(&a.granted_by)
                    .bind(a.id.to_string())
                    .execute(&mut *tx)
                    .await?;
                if changed.rows_affected() != 1 {
                    return Err(StorageError::Conflict("review_decided"));
                }
                append_event!(
                    tx,
                    reviews::ENTITY,
                    review.to_string(),
                    reviews::DECIDED,
                    &a.granted_by,
                    Some(grounds),
                    Some(&a.legal_basis_version),
                    a.granted_at,
                    reviews::decided_data(ReviewOutcome::Granted, Some(&a.number)),
                );
            }
            if let Some(renewed) = a.renewal_of {
                let data = serde_json::json!({
                    "renewed_by": a.number,
                    "valid_from": a.valid_from,
                    "valid_until": a.valid_until,
                });
                insert_event!(
                    tx,
                    NewEvent {
                        entity_type: "app_authorization",
                        entity_id: renewed.to_string(),
                        kind: RideHailingAct::Renewed.as_str(),
                        actor: &a.granted_by,
                        reason: None::<String>,
                        legal_basis_version: &a.legal_basis_version,
                        at: a.granted_at,
                        data: event_data(&data),
                    },
                )
                .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    pub async fn get_authorization(
        &self,
        id: Uuid,
    ) -> Result<Option<RideHailingAuthorization>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let row: Option<AuthorizationRow> = sqlx::query_as(sql::SELECT_AUTHORIZATION)
                .bind(id.to_string())
                .fetch_optional(pool)
                .await?;
            row.map(RideHailingAuthorization::try_from).transpose()
        })
    }

    pub async fn documents_of(
        &self,
        authorization_id: Uuid,
    ) -> Result<Vec<super::documents::Document>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let rows: Vec<super::documents::DocumentRow> = sqlx::query_as(sql::SELECT_DOCUMENTS_OF)
                .bind(authorization_id.to_string())
                .fetch_all(pool)
                .await?;
            rows.into_iter()
                .map(super::documents::Document::try_from)
                .collect()
        })
    }

    pub async fn document_status(&self, id: Uuid) -> Result<Option<DocumentStatus>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let rows: Vec<DocumentStatusRow> = sqlx::query_as(sql::SELECT_DOCUMENT_STATUS)
                .bind(id.to_string())
                .fetch_all(pool)
                .await?;
            super::document_status_from_rows(rows)
        })
    }

    /// The document whose stored (signed) PDF has this SHA-256, lower-case hex.
    /// Appends a sanction; `false` if the authorization does not exist.
    pub async fn add_sanction(
        &self,
        authorization_id: Uuid,
        sanction: &Sanction,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<bool, StorageError> {
        on_backend!(self, |pool, begin, pg| {
            let mut tx = begin().await?;
            let exists: i64 = sqlx::query_scalar(if pg {
                sql::LOCK_AUTHORIZATION
            } else {
                sql::AUTHORIZATION_EXISTS
            })
            .bind(authorization_id.to_string())
            .fetch_one(&mut *tx)
            .await?;
            if exists == 0 {
                return Ok(false);
            }
            sqlx::query(sql::INSERT_SANCTION)
                .bind(authorization_id.to_string())
                .bind(sanction.kind.as_str())
                .bind(sanction.effective_from)
                .bind(sanction.until)
                .bind(&sanction.reason)
                .bind(&sanction.legal_basis)
                .bind(now)
                .bind(actor)
                .execute(&mut *tx)
                .await?;
            let data = serde_json::json!({"kind": sanction.kind.as_str(), "effective_from": sanction.effective_from, "until": sanction.until, "legal_basis": sanction.legal_basis});
            insert_event!(
                tx,
                NewEvent {
                    entity_type: "app_authorization",
                    entity_id: authorization_id.to_string(),
                    kind: RideHailingAct::Sanctioned.as_str(),
                    actor,
                    reason: &sanction.reason,
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

    /// The sanctions of an authorization, oldest first.
    pub async fn sanctions_of(
        &self,
        authorization_id: Uuid,
    ) -> Result<Vec<Sanction>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let rows: Vec<SanctionRow> = sqlx::query_as(sql::SELECT_SANCTIONS)
                .bind(authorization_id.to_string())
                .fetch_all(pool)
                .await?;
            rows.into_iter().map(Sanction::try_from).collect()
        })
    }

    /// The acts in force of an entity, oldest first: each with the data of its latest
    /// rectification, the rectifications themselves left out (`history_of` has them all).
    pub async fn events_of(
        &self,
        entity_type: &str,
        entity_id: &str,
    ) -> Result<Vec<Event>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(sql::SELECT_EVENTS)
                .bind(entity_type)
                .bind(entity_id)
                .fetch_all(pool)
                .await?)
        })
    }

    /// Every decreed day without office hours.
    pub async fn decreed_days(&self) -> Result<Vec<ClosedDay>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let rows: Vec<DecreedDayRow> = sqlx::query_as(sql::SELECT_DECREED_DAYS)
                .fetch_all(pool)
                .await?;
            rows.into_iter().map(ClosedDay::try_from).collect()
        })
    }

    /// Records decreed days, all or none; `Conflict("date")` if one is already recorded.
    pub async fn add_decreed_days(
        &self,
        days: &[ClosedDay],
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            for day in days {
                sqlx::query(sql::INSERT_DECREED_DAY)
                    .bind(day.date)
                    .bind(day_kind_name(day.kind))
                    .bind(&day.description)
                    .bind(&day.act)
                    .bind(now)
                    .bind(actor)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    pub async fn revoke_authorization(
        &self,
        id: Uuid,
        reason: &str,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<RevokeOutcome, StorageError> {
        on_backend!(self, |pool, begin, pg| {
            let mut tx = begin().await?;
            let exists: i64 = sqlx::query_scalar(if pg {
                sql::LOCK_AUTHORIZATION
            } else {
                sql::AUTHORIZATION_EXISTS
            })
            .bind(id.to_string())
            .fetch_one(&mut *tx)
            .await?;
            if exists == 0 {
                return Ok(RevokeOutcome::NotFound);
            }
            let existing: Option<RevocationRow> = sqlx::query_as(sql::SELECT_REVOCATION)
                .bind(id.to_string())
                .fetch_optional(&mut *tx)
                .await?;
            if let Some(r) = existing {
                return Ok(RevokeOutcome::AlreadyRevoked(r.into()));
            }
            sqlx::query(sql::INSERT_REVOCATION)
                .bind(id.to_string())
                .bind(now)
                .bind(actor)
                .bind(reason)
                .execute(&mut *tx)
                .await?;
            insert_event!(
                tx,
                NewEvent {
                    entity_type: "app_authorization",
                    entity_id: id.to_string(),
                    kind: RideHailingAct::Revoked.as_str(),
                    actor,
                    reason,
                    legal_basis_version: None::<String>,
                    at: now,
                    data: "{}".to_owned(),
                },
            )
            .await?;
            tx.commit().await?;
            Ok(RevokeOutcome::Revoked(Revocation {
                revoked_at: now,
                revoked_by: actor.to_owned(),
                reason: reason.to_owned(),
            }))
        })
    }
}

impl Store {
    /// APP-ART15: declares in whose name the car is and how the driver holds it (a car
    /// registered before it was asked, or a new CRLV holder), with an event of the change;
    /// `false` if the car does not exist.
    pub async fn set_vehicle_owner(
        &self,
        id: Uuid,
        owner: &crate::domain::ride_hailing::VehicleOwner,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<bool, StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let done = sqlx::query(
                "UPDATE vehicles SET owner_type = $2, owner_document = $3 WHERE id = $1",
            )
            .bind(id.to_string())
            .bind(owner.kind.as_str())
            .bind(&owner.document)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() == 0 {
                return Ok(false);
            }
            // The holder's CPF or CNPJ stays in the row, not in the history.
            insert_event!(
                tx,
                NewEvent {
                    entity_type: "vehicle",
                    entity_id: id.to_string(),
                    kind: RideHailingAct::OwnerDeclared.as_str(),
                    actor,
                    reason: None::<String>,
                    legal_basis_version: None::<String>,
                    at: now,
                    data: serde_json::json!({ "owner_type": owner.kind }).to_string(),
                },
            )
            .await?;
            tx.commit().await?;
            Ok(true)
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::storage::sql::AUTHORIZATIONS_OF_VEHICLE;
    use crate::storage::sqlite::query_plan as plan;
    use crate::storage::temporary_store;

    /// A grant's check that its car has no other authorization finds the candidates through
    /// the indexes of the car and of the replacements, whatever the register's size.
    #[tokio::test]
    async fn the_authorizations_of_a_car_are_read_by_index() {
        let (_dir, store) = temporary_store().await;
        let plan = plan(&store, AUTHORIZATIONS_OF_VEHICLE).await;
        assert!(plan.contains("app_authorizations_vehicle"), "{plan}");
        assert!(plan.contains("app_vehicle_substitutions_new"), "{plan}");
        assert!(
            !plan.split("; ").any(|step| step.starts_with("SCAN")),
            "{plan}"
        );
    }
}
