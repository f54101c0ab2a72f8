//! The records an applicant follows (a driver, a charter company) and the reminders sent to
//! them, each queued once in the outbox with the row that remembers it.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::outbox::{OutgoingMail, queue_mail};
use super::{StorageError, Store, parse_uuid};

/// What an applicant may follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkedEntity {
    /// A ride-hailing driver, through any of the driver's authorizations.
    Driver(Uuid),
    /// A charter company.
    Company(Uuid),
}

impl LinkedEntity {
    fn parts(self) -> (&'static str, String) {
        match self {
            Self::Driver(id) => ("driver", id.to_string()),
            Self::Company(id) => ("company", id.to_string()),
        }
    }

    fn from_parts(kind: &str, id: &str) -> Result<Option<Self>, StorageError> {
        let id = parse_uuid(id)?;
        Ok(match kind {
            "driver" => Some(Self::Driver(id)),
            "company" => Some(Self::Company(id)),
            _ => None,
        })
    }
}

/// What kind of record a followed record is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FollowedKind {
    /// An authorization of a followed driver.
    Authorization,
    /// A followed charter company.
    Company,
    /// A bus enrolled with a followed company.
    CharterVehicle,
}

/// A record some applicant follows, and one of its followers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FollowedRecord {
    pub kind: FollowedKind,
    pub record: Uuid,
    pub applicant: Uuid,
    pub email: String,
}

impl Store {
    /// Links `applicant` to `entity` (again: nothing changes).
    pub async fn link_applicant(
        &self,
        applicant: Uuid,
        entity: LinkedEntity,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        let (kind, id) = entity.parts();
        on_backend!(self, |pool, _begin| {
            sqlx::query(
                "INSERT INTO applicant_links (applicant_id, entity_type, entity_id, linked_at) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
            )
            .bind(applicant.to_string())
            .bind(kind)
            .bind(&id)
            .bind(now)
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// What `applicant` follows, the oldest link first.
    pub async fn links_of(&self, applicant: Uuid) -> Result<Vec<LinkedEntity>, StorageError> {
        let rows: Vec<(String, String)> = on_backend!(self, |pool, _begin| {
            Ok::<_, StorageError>(
                sqlx::query_as(
                    "SELECT entity_type, entity_id FROM applicant_links WHERE applicant_id = $1 \
                     ORDER BY linked_at, entity_id",
                )
                .bind(applicant.to_string())
                .fetch_all(pool)
                .await?,
            )
        })?;
        let mut out = Vec::with_capacity(rows.len());
        for (kind, id) in rows {
            out.extend(LinkedEntity::from_parts(&kind, &id)?);
        }
        Ok(out)
    }

    /// The applicants who follow `entity`: (id, e-mail).
    pub async fn followers_of(
        &self,
        entity: LinkedEntity,
    ) -> Result<Vec<(Uuid, String)>, StorageError> {
        let (kind, id) = entity.parts();
        let rows: Vec<(String, String)> = on_backend!(self, |pool, _begin| {
            Ok::<_, StorageError>(
                sqlx::query_as(
                    "SELECT a.id, a.email FROM applicant_links l \
                     JOIN applicants a ON a.id = l.applicant_id \
                     WHERE l.entity_type = $1 AND l.entity_id = $2 ORDER BY a.email",
                )
                .bind(kind)
                .bind(&id)
                .fetch_all(pool)
                .await?,
            )
        })?;
        rows.into_iter()
            .map(|(id, email)| Ok((parse_uuid(&id)?, email)))
            .collect()
    }

    /// Every record some applicant follows, with its followers: each authorization of a
    /// followed driver, each followed company and each bus enrolled with one. One read of the
    /// links, however large the register: a pass over what is due asks nothing more of records
    /// no one follows. Each record's followers by e-mail.
    pub async fn followed_records(&self) -> Result<Vec<FollowedRecord>, StorageError> {
        let rows: Vec<(String, String, String, String)> = on_backend!(self, |pool, _begin| {
            Ok::<_, StorageError>(
                sqlx::query_as(
                    "SELECT 'authorization', a.id, p.id, p.email FROM applicant_links l \
                     JOIN applicants p ON p.id = l.applicant_id \
                     JOIN app_authorizations a ON a.driver_id = l.entity_id \
                     WHERE l.entity_type = 'driver' \
                     UNION ALL SELECT 'company', l.entity_id, p.id, p.email FROM applicant_links l \
                     JOIN applicants p ON p.id = l.applicant_id WHERE l.entity_type = 'company' \
                     UNION ALL SELECT 'charter_vehicle', v.id, p.id, p.email FROM applicant_links l \
                     JOIN applicants p ON p.id = l.applicant_id \
                     JOIN charter_vehicles v ON v.company_id = l.entity_id \
                     WHERE l.entity_type = 'company' ORDER BY 4, 3",
                )
                .fetch_all(pool)
                .await?,
            )
        })?;
        rows.into_iter()
            .map(|(kind, record, applicant, email)| {
                let kind = match kind.as_str() {
                    "authorization" => FollowedKind::Authorization,
                    "company" => FollowedKind::Company,
                    "charter_vehicle" => FollowedKind::CharterVehicle,
                    other => return Err(super::corrupt("followed record's kind", other)),
                };
                Ok(FollowedRecord {
                    kind,
                    record: parse_uuid(&record)?,
                    applicant: parse_uuid(&applicant)?,
                    email,
                })
            })
            .collect()
    }

    /// Queues `mail` to `applicant` as the reminder `key`, once: false when that reminder was
    /// queued before (by this node or another).
    pub async fn queue_reminder(
        &self,
        applicant: Uuid,
        key: &str,
        mail: &OutgoingMail,
        now: DateTime<Utc>,
    ) -> Result<bool, StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let new = sqlx::query(
                "INSERT INTO reminders_sent (applicant_id, reminder_key, queued_at) \
                 VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            )
            .bind(applicant.to_string())
            .bind(key)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected()
                > 0;
            if new {
                queue_mail!(tx, mail, now);
            }
            tx.commit_unseen().await?;
            Ok(new)
        })
    }

    /// The company holding the Termo numbered `number`, when its CNPJ is `cnpj`.
    pub async fn company_holding_termo(
        &self,
        number: &str,
        cnpj: &str,
    ) -> Result<Option<Uuid>, StorageError> {
        let id: Option<String> = on_backend!(self, |pool, _begin| {
            Ok::<_, StorageError>(
                sqlx::query_scalar(
                    "SELECT c.id FROM charter_termos t JOIN charter_companies c ON c.id = t.company_id \
                     WHERE UPPER(t.number) = UPPER($1) AND c.cnpj = $2",
                )
                .bind(number.trim())
                .bind(cnpj)
                .fetch_optional(pool)
                .await?,
            )
        })?;
        id.as_deref().map(parse_uuid).transpose()
    }

    /// The charter company registered with `cnpj` (canonical digits).
    pub async fn company_by_cnpj(&self, cnpj: &str) -> Result<Option<Uuid>, StorageError> {
        let id: Option<String> = on_backend!(self, |pool, _begin| {
            Ok::<_, StorageError>(
                sqlx::query_scalar("SELECT id FROM charter_companies WHERE cnpj = $1")
                    .bind(cnpj)
                    .fetch_optional(pool)
                    .await?,
            )
        })?;
        id.as_deref().map(parse_uuid).transpose()
    }

    /// The driver's latest authorization (a renewal's new one once granted).
    pub async fn latest_authorization_of(
        &self,
        driver: Uuid,
    ) -> Result<Option<Uuid>, StorageError> {
        let id: Option<String> = on_backend!(self, |pool, _begin| {
            Ok::<_, StorageError>(
                sqlx::query_scalar(
                    "SELECT id FROM app_authorizations WHERE driver_id = $1 \
                     ORDER BY valid_from DESC, granted_at DESC LIMIT 1",
                )
                .bind(driver.to_string())
                .fetch_optional(pool)
                .await?,
            )
        })?;
        id.as_deref().map(parse_uuid).transpose()
    }
}
