//! Reads of the ride-hailing history that the verification path needs in one round trip,
//! written once for both backends.

use std::collections::HashMap;

use uuid::Uuid;

use crate::storage::sql::{
    SELECT_DOCUMENT_STATUS_STANDING_PG, SELECT_DOCUMENT_STATUS_STANDING_SQLITE,
    SELECT_DOCUMENT_STATUSES_STANDING_PG, SELECT_DOCUMENT_STATUSES_STANDING_SQLITE,
    STANDING_EVENTS,
};
use crate::storage::{DocumentStatus, DocumentStatusRow, StorageError, Store};

/// One event read for the standing of an authorization.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StandingEvent {
    pub entity_type: String,
    pub kind: String,
    /// JSON text.
    pub data: String,
}

/// A ride-hailing document's status with the events of its authorization's standing.
pub type StatusStanding = (DocumentStatus, Vec<StandingEvent>);

/// What the scans' gathering of status reads (`storage::status_reads`) answers a read.
#[derive(Debug)]
pub enum Gathered {
    /// Read with the others: the document's status and standing (`None`: the register does
    /// not hold the document).
    Read(Box<Option<StatusStanding>>),
    /// Not read: the caller reads it alone.
    NotRead,
}

/// A row of the status read with the standing's events (the same on every row).
#[derive(sqlx::FromRow)]
struct StatusStandingRow {
    #[sqlx(flatten)]
    status: DocumentStatusRow,
    /// JSON: `[[entity_type, kind, data], …]`.
    standing: String,
}

impl Store {
    /// The status of the ride-hailing document `id` ([`Store::document_status`]) with the
    /// events of its authorization's standing ([`Store::standing_events`] for the
    /// authorization, its driver and the car it names now) in one round trip: the
    /// verification of a token the register holds reads nothing else. Reads waiting at the
    /// same time are made in one statement ([`super::super::status_reads`]).
    pub async fn document_status_standing(
        &self,
        id: Uuid,
        authorization_kinds: [&'static str; 2],
        register_kind: &'static str,
    ) -> Result<Option<StatusStanding>, StorageError> {
        let gathered = self
            .status_reads()
            .read(self, id, (authorization_kinds, register_kind));
        if let Gathered::Read(read) = gathered.await {
            return Ok(*read);
        }
        self.document_status_standing_alone(id, authorization_kinds, register_kind)
            .await
    }

    /// The same, read on its own.
    pub async fn document_status_standing_alone(
        &self,
        id: Uuid,
        authorization_kinds: [&str; 2],
        register_kind: &str,
    ) -> Result<Option<StatusStanding>, StorageError> {
        let rows: Vec<StatusStandingRow> = on_backend!(self, |pool, _begin, pg| {
            sqlx::query_as(if pg {
                SELECT_DOCUMENT_STATUS_STANDING_PG
            } else {
                SELECT_DOCUMENT_STATUS_STANDING_SQLITE
            })
            .bind(id.to_string())
            .bind(authorization_kinds[0])
            .bind(authorization_kinds[1])
            .bind(register_kind)
            .fetch_all(pool)
            .await?
        });
        status_standing(rows)
    }

    /// [`Store::document_status_standing`] of every document in `ids`, in one statement: those
    /// the register holds, by id.
    pub async fn document_statuses_standing(
        &self,
        ids: &[Uuid],
        authorization_kinds: [&str; 2],
        register_kind: &str,
    ) -> Result<HashMap<Uuid, StatusStanding>, StorageError> {
        let ids: Vec<String> = ids.iter().map(Uuid::to_string).collect();
        let rows: Vec<StatusStandingRow> = match self {
            Store::Sqlite(r) => {
                sqlx::query_as(SELECT_DOCUMENT_STATUSES_STANDING_SQLITE)
                    .bind(serde_json::to_string(&ids).unwrap_or_default())
                    .bind(authorization_kinds[0])
                    .bind(authorization_kinds[1])
                    .bind(register_kind)
                    .fetch_all(r.pool())
                    .await?
            }
            Store::Postgres(r) => {
                sqlx::query_as(SELECT_DOCUMENT_STATUSES_STANDING_PG)
                    .bind(&ids)
                    .bind(authorization_kinds[0])
                    .bind(authorization_kinds[1])
                    .bind(register_kind)
                    .fetch_all(r.pool())
                    .await?
            }
        };
        let mut found = HashMap::new();
        let mut rows = rows.into_iter().peekable();
        while let Some(first) = rows.next() {
            let mut same = vec![first];
            while let Some(next) =
                rows.next_if(|r| r.status.document_id() == same[0].status.document_id())
            {
                same.push(next);
            }
            let id = same[0].status.document_id().to_owned();
            let id = Uuid::parse_str(&id).map_err(|_| super::super::corrupt("document", &id))?;
            if let Some(read) = status_standing(same)? {
                found.insert(id, read);
            }
        }
        Ok(found)
    }

    /// In the order recorded: the `authorization_kinds` events of an authorization and the
    /// `register_kind` events of its driver and its car.
    pub async fn standing_events(
        &self,
        authorization_id: Uuid,
        driver_id: Uuid,
        vehicle_id: Uuid,
        authorization_kinds: [&str; 2],
        register_kind: &str,
    ) -> Result<Vec<StandingEvent>, StorageError> {
        Ok(on_backend!(self, |pool, _begin| {
            sqlx::query_as(STANDING_EVENTS)
                .bind(authorization_id.to_string())
                .bind(driver_id.to_string())
                .bind(vehicle_id.to_string())
                .bind(authorization_kinds[0])
                .bind(authorization_kinds[1])
                .bind(register_kind)
                .fetch_all(pool)
                .await?
        }))
    }
}

/// A document's status with its standing's events from its rows (one per sanction).
fn status_standing(rows: Vec<StatusStandingRow>) -> Result<Option<StatusStanding>, StorageError> {
    let Some(first) = rows.first() else {
        return Ok(None);
    };
    let events: Vec<(String, String, String)> = serde_json::from_str(&first.standing)
        .map_err(|_| super::super::corrupt("standing events", first.status.document_id()))?;
    let events = events
        .into_iter()
        .map(|(entity_type, kind, data)| StandingEvent {
            entity_type,
            kind,
            data,
        })
        .collect();
    let status =
        super::super::document_status_from_rows(rows.into_iter().map(|r| r.status).collect())?;
    Ok(status.map(|s| (s, events)))
}
