//! The charter register (Lei 4.937/2025). One implementation for both backends: the SQL is
//! the same text, and `on_backend!` (in `storage.rs`) expands each body once per pool type, so nothing is
//! written twice. Rows hold the facts as filed (JSON, parsed again by the domain on every
//! read); later acts are append-only events of the entity.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::documents::SignedDocument;
use super::{Event, StorageError, Store, parse_uuid, sql};

/// The tables of the charter register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CharterTable {
    Companies,
    Vehicles,
    Drivers,
    Contracts,
    Termos,
    Autos,
}

impl CharterTable {
    fn name(self) -> &'static str {
        match self {
            Self::Companies => "charter_companies",
            Self::Vehicles => "charter_vehicles",
            Self::Drivers => "charter_drivers",
            Self::Contracts => "charter_contracts",
            Self::Termos => "charter_termos",
            Self::Autos => "charter_autos",
        }
    }

    /// The natural key column (unique, except drivers: unique per company).
    fn key(self) -> &'static str {
        match self {
            Self::Companies => "cnpj",
            Self::Vehicles => "plate",
            Self::Drivers => "cpf",
            Self::Contracts => "reference",
            Self::Termos | Self::Autos => "number",
        }
    }

    /// The entity type of its events (history endpoint).
    pub fn entity_type(self) -> &'static str {
        match self {
            Self::Companies => "charter_company",
            Self::Vehicles => "charter_vehicle",
            Self::Drivers => "charter_driver",
            Self::Contracts => "charter_contract",
            Self::Termos => "charter_termo",
            Self::Autos => "charter_auto",
        }
    }

    fn columns(self) -> &'static str {
        match self {
            Self::Companies => {
                "id, NULL AS company_id, cnpj AS natural_key, NULL AS alt_key, data, created_at, created_by"
            }
            Self::Vehicles => {
                "id, company_id, plate AS natural_key, renavam AS alt_key, data, created_at, created_by"
            }
            Self::Drivers => {
                "id, company_id, cpf AS natural_key, NULL AS alt_key, data, created_at, created_by"
            }
            Self::Contracts => {
                "id, company_id, reference AS natural_key, NULL AS alt_key, data, created_at, created_by"
            }
            Self::Termos | Self::Autos => {
                "id, company_id, number AS natural_key, NULL AS alt_key, data, created_at, created_by"
            }
        }
    }

    fn insert_sql(self) -> String {
        let t = self.name();
        let k = self.key();
        match self {
            Self::Companies => format!(
                "INSERT INTO {t} (id, {k}, data, created_at, created_by) VALUES ($1, $2, $3, $4, $5)"
            ),
            Self::Vehicles => format!(
                "INSERT INTO {t} (id, company_id, {k}, renavam, data, created_at, created_by) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)"
            ),
            _ => format!(
                "INSERT INTO {t} (id, company_id, {k}, data, created_at, created_by) \
                 VALUES ($1, $2, $3, $4, $5, $6)"
            ),
        }
    }
}

/// One row of a charter table.
#[derive(Debug, Clone)]
pub struct CharterRow {
    pub id: Uuid,
    pub company_id: Option<Uuid>,
    /// CNPJ, plate, CPF, contract reference or number.
    pub key: String,
    /// RENAVAM, for vehicles.
    pub alt_key: Option<String>,
    /// The facts as filed.
    pub data: serde_json::Value,
    pub created_at: DateTime<Utc>,
    pub created_by: String,
}

#[derive(sqlx::FromRow)]
struct RawRow {
    id: String,
    company_id: Option<String>,
    natural_key: String,
    alt_key: Option<String>,
    data: String,
    created_at: DateTime<Utc>,
    created_by: String,
}

impl TryFrom<RawRow> for CharterRow {
    type Error = StorageError;
    fn try_from(r: RawRow) -> Result<Self, StorageError> {
        Ok(Self {
            id: parse_uuid(&r.id)?,
            company_id: r.company_id.as_deref().map(parse_uuid).transpose()?,
            data: serde_json::from_str(&r.data)
                .map_err(|_| StorageError::Corrupt(format!("data in row {}", r.id)))?,
            key: r.natural_key,
            alt_key: r.alt_key,
            created_at: r.created_at,
            created_by: r.created_by,
        })
    }
}

/// An event to append with a row or on its own.
#[derive(Debug, Clone)]
pub struct NewEvent<'a> {
    pub entity_type: &'a str,
    pub entity_id: Uuid,
    pub kind: &'a str,
    pub actor: &'a str,
    pub reason: Option<&'a str>,
    pub legal_basis_version: String,
    pub at: DateTime<Utc>,
    pub data: serde_json::Value,
}

impl<'a> NewEvent<'a> {
    /// Act `kind` of `entity_type` `entity_id`, done by `actor` at `at` under the legal basis
    /// `legal_basis_version`, with its details; no reason (a reason is for decisions).
    pub fn act(
        entity_type: &'a str,
        entity_id: Uuid,
        kind: &'a str,
        actor: &'a str,
        legal_basis_version: impl Into<String>,
        at: DateTime<Utc>,
        data: serde_json::Value,
    ) -> Self {
        Self {
            entity_type,
            entity_id,
            kind,
            actor,
            reason: None,
            legal_basis_version: legal_basis_version.into(),
            at,
            data,
        }
    }
}

/// What to commit in one transaction: an optional new row, an optional number turning from
/// reserved to issued, documents, and events.
#[derive(Debug, Default)]
pub struct CharterCommit<'a> {
    pub row: Option<(CharterTable, CharterRow)>,
    pub issue_number: Option<&'a str>,
    pub documents: Vec<SignedDocument>,
    pub events: Vec<NewEvent<'a>>,
    /// Commit only if this entity's history is still as read: its last event then (`None`:
    /// it had none). Else `Conflict("concurrent")`, and nothing is written.
    pub unchanged_since: Option<EntityHead<'a>>,
}

/// An entity's history as read: its type, id and last event's id.
#[derive(Debug, Clone, Copy)]
pub struct EntityHead<'a> {
    pub entity_type: &'a str,
    pub entity_id: Uuid,
    pub last_event: Option<i64>,
}

pub(crate) const LAST_EVENT: &str =
    "SELECT MAX(id) FROM events WHERE entity_type = $1 AND entity_id = $2";

impl Store {
    /// Commits rows, documents, the number and events together, or nothing.
    pub async fn charter_commit(&self, c: CharterCommit<'_>) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let _ = pool;
            let mut tx = begin().await?;
            if let Some(head) = &c.unchanged_since {
                ensure_head!(tx, head);
            }
            if let Some((table, row)) = &c.row {
                let sql_text = table.insert_sql();
                let mut q = sqlx::query(sqlx::AssertSqlSafe(sql_text)).bind(row.id.to_string());
                if *table != CharterTable::Companies {
                    q = q.bind(row.company_id.map(|c| c.to_string()));
                }
                q = q.bind(&row.key);
                if *table == CharterTable::Vehicles {
                    q = q.bind(row.alt_key.clone().unwrap_or_default());
                }
                q.bind(row.data.to_string())
                    .bind(row.created_at)
                    .bind(&row.created_by)
                    .execute(&mut *tx)
                    .await?;
            }
            if let Some(number) = c.issue_number {
                let at = c.events.first().map_or_else(Utc::now, |e| e.at);
                let done = sqlx::query(sql::ISSUE_NUMBER)
                    .bind(number)
                    .bind(at)
                    .execute(&mut *tx)
                    .await?;
                if done.rows_affected() != 1 {
                    return Err(StorageError::Conflict("number"));
                }
            }
            for d in &c.documents {
                insert_document!(tx, d);
            }
            insert_events!(tx, &c.events);
            tx.commit().await?;
            Ok(())
        })
    }

    /// The head of an entity's history now, for `CharterCommit::unchanged_since`.
    pub async fn entity_head<'a>(
        &self,
        entity_type: &'a str,
        entity_id: Uuid,
    ) -> Result<EntityHead<'a>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let last_event: Option<i64> = sqlx::query_scalar(LAST_EVENT)
                .bind(entity_type)
                .bind(entity_id.to_string())
                .fetch_one(pool)
                .await?;
            Ok(EntityHead {
                entity_type,
                entity_id,
                last_event,
            })
        })
    }

    /// Appends events (acts of any entity) in one transaction.
    pub async fn append_events(&self, events: Vec<NewEvent<'_>>) -> Result<(), StorageError> {
        self.charter_commit(CharterCommit {
            events,
            ..CharterCommit::default()
        })
        .await
    }

    pub async fn charter_get(
        &self,
        table: CharterTable,
        id: Uuid,
    ) -> Result<Option<CharterRow>, StorageError> {
        let q = format!(
            "SELECT {} FROM {} WHERE id = $1",
            table.columns(),
            table.name()
        );
        on_backend!(self, |pool, _begin| {
            let row: Option<RawRow> = sqlx::query_as(sqlx::AssertSqlSafe(q))
                .bind(id.to_string())
                .fetch_optional(pool)
                .await?;
            row.map(CharterRow::try_from).transpose()
        })
    }

    /// Rows whose natural key is `key` (one, except drivers: one per company).
    pub async fn charter_by_key(
        &self,
        table: CharterTable,
        key: &str,
    ) -> Result<Vec<CharterRow>, StorageError> {
        let q = format!(
            "SELECT {} FROM {} WHERE {} = $1 ORDER BY created_at",
            table.columns(),
            table.name(),
            table.key()
        );
        on_backend!(self, |pool, _begin| {
            let rows: Vec<RawRow> = sqlx::query_as(sqlx::AssertSqlSafe(q))
                .bind(key)
                .fetch_all(pool)
                .await?;
            rows.into_iter().map(CharterRow::try_from).collect()
        })
    }

    /// The rows of a company, oldest first.
    pub async fn charter_of_company(
        &self,
        table: CharterTable,
        company_id: Uuid,
    ) -> Result<Vec<CharterRow>, StorageError> {
        let q = format!(
            "SELECT {} FROM {} WHERE company_id = $1 ORDER BY created_at, id",
            table.columns(),
            table.name()
        );
        on_backend!(self, |pool, _begin| {
            let rows: Vec<RawRow> = sqlx::query_as(sqlx::AssertSqlSafe(q))
                .bind(company_id.to_string())
                .fetch_all(pool)
                .await?;
            rows.into_iter().map(CharterRow::try_from).collect()
        })
    }

    /// The id of every row of `table`, oldest first (the worklist reads each company).
    pub async fn charter_ids(&self, table: CharterTable) -> Result<Vec<Uuid>, StorageError> {
        let q = format!("SELECT id FROM {} ORDER BY created_at, id", table.name());
        on_backend!(self, |pool, _begin| {
            let ids: Vec<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(q))
                .fetch_all(pool)
                .await?;
            ids.iter().map(|id| parse_uuid(id)).collect()
        })
    }

    /// The events of a charter entity, oldest first (the acts the domain folds).
    pub async fn charter_events(
        &self,
        table: CharterTable,
        id: Uuid,
    ) -> Result<Vec<Event>, StorageError> {
        self.events_of(table.entity_type(), &id.to_string()).await
    }
}
