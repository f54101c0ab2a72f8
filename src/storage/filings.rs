//! Filings (requerimentos) and their files. Every change is one transaction with its event
//! in the audit chain and, where the applicant is told, its e-mail in the outbox. No verdict
//! reads a filing, so its commits leave the verification cache warm (the act that decides one
//! commits the register itself). One SQL text for both backends.

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use uuid::Uuid;

use super::outbox::{OutgoingMail, queue_mail};
use super::{StorageError, Store, parse_uuid};

/// A filing as recorded (its files apart).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct FilingRow {
    pub id: String,
    pub applicant_id: String,
    pub email: String,
    pub kind: String,
    pub subject_id: String,
    pub status: String,
    pub number: Option<String>,
    pub protocolled_on: Option<NaiveDate>,
    pub filed_at: Option<DateTime<Utc>>,
    pub demand: Option<String>,
    pub demand_due: Option<NaiveDate>,
    pub outcome: Option<String>,
    pub outcome_note: Option<String>,
    pub result_id: Option<String>,
    pub decided_at: Option<DateTime<Utc>>,
    pub decided_by: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// What the applicant states besides the files (JSON), for the kinds that ask.
    pub details: Option<String>,
}

/// A file of a filing, without its content.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct FileRow {
    pub id: String,
    pub slot: String,
    pub file_name: String,
    pub media_type: String,
    pub size_bytes: i64,
    pub sha256: String,
    pub status: String,
    pub reason: Option<String>,
    pub examined_by: Option<String>,
    pub examined_at: Option<DateTime<Utc>>,
    pub uploaded_at: DateTime<Utc>,
}

/// A file to add.
pub struct NewFile<'a> {
    pub filing_id: Uuid,
    pub slot: &'a str,
    pub file_name: &'a str,
    pub media_type: &'a str,
    pub sha256: &'a str,
    pub content: &'a [u8],
    /// Files a filing may hold (replaced ones aside).
    pub max_files: i64,
    /// Files the slot may hold standing (pending or accepted).
    pub max_in_slot: i64,
}

/// Conflicts of the filing's changes.
pub const FILING_CLOSED: &str = "filing_closed";
pub const TOO_MANY_FILES: &str = "too_many_files";
pub const SLOT_FULL: &str = "slot_full";
pub const FILE_EXAMINED: &str = "file_examined";

const SELECT_FILING: &str = "SELECT f.id, f.applicant_id, a.email, f.kind, f.subject_id, \
    f.status, f.number, f.protocolled_on, f.filed_at, f.demand, f.demand_due, f.outcome, \
    f.outcome_note, f.result_id, f.decided_at, f.decided_by, f.created_at, f.updated_at, \
    f.details FROM filings f JOIN applicants a ON a.id = f.applicant_id";
const SELECT_FILES: &str = "SELECT id, slot, file_name, media_type, size_bytes, sha256, \
    status, reason, examined_by, examined_at, uploaded_at FROM filing_files \
    WHERE filing_id = $1 ORDER BY uploaded_at, id";

impl Store {
    /// Opens a draft filing of `applicant_id` about `subject_id`.
    pub async fn insert_filing(
        &self,
        id: Uuid,
        applicant_id: Uuid,
        kind: &str,
        subject_id: Uuid,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            sqlx::query(
                "INSERT INTO filings (id, applicant_id, kind, subject_id, status, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, 'rascunho', $5, $5)",
            )
            .bind(id.to_string())
            .bind(applicant_id.to_string())
            .bind(kind)
            .bind(subject_id.to_string())
            .bind(now)
            .execute(&mut *tx)
            .await?;
            append_event!(
                tx,
                "filing",
                id.to_string(),
                "filing_opened",
                format!("applicant:{applicant_id}"),
                None::<String>,
                None::<String>,
                now,
                serde_json::json!({ "kind": kind, "subject_id": subject_id }).to_string(),
            );
            tx.commit_unseen().await?;
            Ok(())
        })
    }

    /// Records what the applicant states in a filing still theirs to change (a draft, or one
    /// waiting on an exigência).
    pub async fn set_filing_details(
        &self,
        id: Uuid,
        details: &str,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let changed = sqlx::query(
                "UPDATE filings SET details = $2, updated_at = $3 \
                 WHERE id = $1 AND status IN ('rascunho', 'exigencia')",
            )
            .bind(id.to_string())
            .bind(details)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if changed == 0 {
                return Err(StorageError::Conflict(FILING_CLOSED));
            }
            append_event!(
                tx,
                "filing",
                id.to_string(),
                "filing_details",
                actor.to_owned(),
                None::<String>,
                None::<String>,
                now,
                serde_json::json!({}).to_string(),
            );
            tx.commit_unseen().await?;
            Ok(())
        })
    }

    /// A filing and its files (contents apart).
    pub async fn filing(
        &self,
        id: Uuid,
    ) -> Result<Option<(FilingRow, Vec<FileRow>)>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let filing: Option<FilingRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "{SELECT_FILING} WHERE f.id = $1"
            )))
            .bind(id.to_string())
            .fetch_optional(pool)
            .await?;
            let Some(filing) = filing else {
                return Ok(None);
            };
            let files: Vec<FileRow> = sqlx::query_as(SELECT_FILES)
                .bind(id.to_string())
                .fetch_all(pool)
                .await?;
            Ok(Some((filing, files)))
        })
    }

    /// An applicant's filings, newest first.
    pub async fn filings_of(&self, applicant_id: Uuid) -> Result<Vec<FilingRow>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "{SELECT_FILING} WHERE f.applicant_id = $1 ORDER BY f.created_at DESC, f.id"
            )))
            .bind(applicant_id.to_string())
            .fetch_all(pool)
            .await?)
        })
    }

    /// The filings waiting for the officials or for their applicants, oldest protocol first.
    pub async fn filing_queue(&self) -> Result<Vec<FilingRow>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "{SELECT_FILING} WHERE f.status IN ('protocolado', 'exigencia') \
                 ORDER BY f.filed_at, f.id"
            )))
            .fetch_all(pool)
            .await?)
        })
    }

    /// Adds a file to a filing open to the applicant (a draft, or one with an exigência),
    /// replacing the slot's refused files (and, in a one-file slot, its pending one).
    pub async fn add_filing_file(
        &self,
        file: &NewFile<'_>,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<Uuid, StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let filing = file.filing_id.to_string();
            let status: Option<String> =
                sqlx::query_scalar("SELECT status FROM filings WHERE id = $1")
                    .bind(&filing)
                    .fetch_optional(&mut *tx)
                    .await?;
            if !matches!(status.as_deref(), Some("rascunho" | "exigencia")) {
                return Err(StorageError::Conflict(FILING_CLOSED));
            }
            let replaced = if file.max_in_slot == 1 {
                "status IN ('recusado', 'pendente')"
            } else {
                "status = 'recusado'"
            };
            // `replaced` is one of two literals above.
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "UPDATE filing_files SET status = 'substituido' \
                 WHERE filing_id = $1 AND slot = $2 AND {replaced}"
            )))
            .bind(&filing)
            .bind(file.slot)
            .execute(&mut *tx)
            .await?;
            let in_slot: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM filing_files WHERE filing_id = $1 AND slot = $2 \
                 AND status IN ('pendente', 'aceito')",
            )
            .bind(&filing)
            .bind(file.slot)
            .fetch_one(&mut *tx)
            .await?;
            if in_slot >= file.max_in_slot {
                return Err(StorageError::Conflict(SLOT_FULL));
            }
            let held: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM filing_files WHERE filing_id = $1 AND status <> 'substituido'",
            )
            .bind(&filing)
            .fetch_one(&mut *tx)
            .await?;
            if held >= file.max_files {
                return Err(StorageError::Conflict(TOO_MANY_FILES));
            }
            let id = Uuid::new_v4();
            sqlx::query(
                "INSERT INTO filing_files (id, filing_id, slot, file_name, media_type, size_bytes, \
                 sha256, content, status, uploaded_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pendente', $9)",
            )
            .bind(id.to_string())
            .bind(&filing)
            .bind(file.slot)
            .bind(file.file_name)
            .bind(file.media_type)
            .bind(i64::try_from(file.content.len()).unwrap_or(i64::MAX))
            .bind(file.sha256)
            .bind(file.content)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            sqlx::query("UPDATE filings SET updated_at = $2 WHERE id = $1")
                .bind(&filing)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            append_event!(
                tx,
                "filing",
                filing.clone(),
                "filing_file_added",
                actor.to_owned(),
                None::<String>,
                None::<String>,
                now,
                serde_json::json!({
                    "file_id": id, "slot": file.slot, "media_type": file.media_type,
                    "sha256": file.sha256, "size_bytes": file.content.len(),
                })
                .to_string(),
            );
            tx.commit_unseen().await?;
            Ok(id)
        })
    }

    /// A file's name, media type and content.
    pub async fn filing_file_content(
        &self,
        filing_id: Uuid,
        file_id: Uuid,
    ) -> Result<Option<(String, String, Vec<u8>)>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(
                "SELECT file_name, media_type, content FROM filing_files WHERE filing_id = $1 AND id = $2",
            )
            .bind(filing_id.to_string())
            .bind(file_id.to_string())
            .fetch_optional(pool)
            .await?)
        })
    }

    /// Protocols a draft (the next `REQ` number of the year, the protocol date), or sends a
    /// filing with an exigência back to the officials; queues the applicant's message.
    /// Answers the filing's number.
    pub async fn submit_filing(
        &self,
        id: Uuid,
        protocolled_on: NaiveDate,
        actor: &str,
        now: DateTime<Utc>,
        mail: impl Fn(&str) -> OutgoingMail + Send,
    ) -> Result<String, StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let row: Option<(String, Option<String>)> =
                sqlx::query_as("SELECT status, number FROM filings WHERE id = $1")
                    .bind(id.to_string())
                    .fetch_optional(&mut *tx)
                    .await?;
            let (number, kind) = match row {
                Some((status, None)) if status == "rascunho" => {
                    let year = protocolled_on.year();
                    let seq: i64 = sqlx::query_scalar(super::sql::BUMP_COUNTER)
                        .bind("REQ")
                        .bind(year)
                        .fetch_one(&mut *tx)
                        .await?;
                    let number = super::records::ReservedNumber::format("REQ", year, seq);
                    sqlx::query(
                        "UPDATE filings SET status = 'protocolado', number = $2, protocolled_on = $3, \
                         filed_at = $4, updated_at = $4 WHERE id = $1",
                    )
                    .bind(id.to_string())
                    .bind(&number)
                    .bind(protocolled_on)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                    (number, "filing_protocolled")
                }
                Some((status, Some(number))) if status == "exigencia" => {
                    sqlx::query(
                        "UPDATE filings SET status = 'protocolado', updated_at = $2 WHERE id = $1",
                    )
                    .bind(id.to_string())
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                    (number, "filing_answered")
                }
                _ => return Err(StorageError::Conflict(FILING_CLOSED)),
            };
            append_event!(
                tx,
                "filing",
                id.to_string(),
                kind,
                actor.to_owned(),
                None::<String>,
                None::<String>,
                now,
                serde_json::json!({ "number": number, "protocolled_on": protocolled_on })
                    .to_string(),
            );
            queue_mail!(tx, &mail(&number), now);
            tx.commit_unseen().await?;
            Ok(number)
        })
    }

    /// Accepts a pending file, or refuses it with the reason the applicant reads (then the
    /// applicant's message is queued).
    pub async fn examine_filing_file(
        &self,
        filing_id: Uuid,
        file_id: Uuid,
        reason: Option<&str>,
        actor: &str,
        now: DateTime<Utc>,
        mail: Option<&OutgoingMail>,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let status = if reason.is_some() {
                "recusado"
            } else {
                "aceito"
            };
            let changed = sqlx::query(
                "UPDATE filing_files SET status = $3, reason = $4, examined_by = $5, examined_at = $6 \
                 WHERE filing_id = $1 AND id = $2 AND status = 'pendente' \
                 AND EXISTS (SELECT 1 FROM filings f WHERE f.id = $1 AND f.status IN ('protocolado', 'exigencia'))",
            )
            .bind(filing_id.to_string())
            .bind(file_id.to_string())
            .bind(status)
            .bind(reason)
            .bind(actor)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if changed == 0 {
                return Err(StorageError::Conflict(FILE_EXAMINED));
            }
            append_event!(
                tx,
                "filing",
                filing_id.to_string(),
                if reason.is_some() {
                    "filing_file_refused"
                } else {
                    "filing_file_accepted"
                },
                actor.to_owned(),
                reason.map(str::to_owned),
                None::<String>,
                now,
                serde_json::json!({ "file_id": file_id }).to_string(),
            );
            if let Some(m) = mail {
                queue_mail!(tx, m, now);
            }
            tx.commit_unseen().await?;
            Ok(())
        })
    }

    /// Asks the applicant for what is missing, by `due`; queues the message.
    pub async fn demand_on_filing(
        &self,
        id: Uuid,
        demand: &str,
        due: NaiveDate,
        actor: &str,
        now: DateTime<Utc>,
        mail: &OutgoingMail,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let changed = sqlx::query(
                "UPDATE filings SET status = 'exigencia', demand = $2, demand_due = $3, \
                 demanded_by = $4, updated_at = $5 WHERE id = $1 AND status IN ('protocolado', 'exigencia')",
            )
            .bind(id.to_string())
            .bind(demand)
            .bind(due)
            .bind(actor)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if changed == 0 {
                return Err(StorageError::Conflict(FILING_CLOSED));
            }
            append_event!(
                tx,
                "filing",
                id.to_string(),
                "filing_demand",
                actor.to_owned(),
                Some(demand.to_owned()),
                None::<String>,
                now,
                serde_json::json!({ "due": due }).to_string(),
            );
            queue_mail!(tx, mail, now);
            tx.commit_unseen().await?;
            Ok(())
        })
    }

    /// Records the decision of a filing (the act that decided it committed before) and
    /// queues the applicant's message.
    #[expect(
        clippy::too_many_arguments,
        reason = "one decision: its outcome, note, result, author, time and message"
    )]
    pub async fn decide_filing(
        &self,
        id: Uuid,
        outcome: &str,
        note: Option<&str>,
        result_id: Option<Uuid>,
        actor: &str,
        now: DateTime<Utc>,
        mail: &OutgoingMail,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let changed = sqlx::query(
                "UPDATE filings SET status = 'decidido', outcome = $2, outcome_note = $3, \
                 result_id = $4, decided_at = $5, decided_by = $6, updated_at = $5 \
                 WHERE id = $1 AND status IN ('protocolado', 'exigencia')",
            )
            .bind(id.to_string())
            .bind(outcome)
            .bind(note)
            .bind(result_id.map(|r| r.to_string()))
            .bind(now)
            .bind(actor)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if changed == 0 {
                return Err(StorageError::Conflict(FILING_CLOSED));
            }
            append_event!(
                tx,
                "filing",
                id.to_string(),
                "filing_decided",
                actor.to_owned(),
                note.map(str::to_owned),
                None::<String>,
                now,
                serde_json::json!({ "outcome": outcome, "result_id": result_id }).to_string(),
            );
            queue_mail!(tx, mail, now);
            tx.commit_unseen().await?;
            Ok(())
        })
    }
}

/// The filing's id, parsed.
pub fn filing_id(row: &FilingRow) -> Result<Uuid, StorageError> {
    parse_uuid(&row.id)
}
