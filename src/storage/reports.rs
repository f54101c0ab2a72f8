//! Passengers' reports (denúncias) and the Ouvidoria's answers. A report takes a number of the
//! `DEN` series; its event in the audit chain carries the number and the document, never the
//! account or the contact. One SQL text for both backends.

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use uuid::Uuid;

use super::outbox::{OutgoingMail, queue_mail};
use super::{StorageError, Store};

/// A report as recorded.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ReportRow {
    pub id: String,
    pub number: String,
    pub verdict: String,
    pub document_kind: Option<String>,
    pub document_number: Option<String>,
    pub plate: Option<String>,
    pub law: Option<String>,
    pub category: String,
    pub account: String,
    pub occurred_on: NaiveDate,
    pub occurred_time: Option<String>,
    pub contact_email: Option<String>,
    pub status: String,
    pub outcome: Option<String>,
    pub closed_by: Option<String>,
    pub closed_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

/// A report to record.
#[derive(Debug, Clone)]
pub struct NewReport<'a> {
    pub verdict: &'a str,
    pub document_kind: Option<&'a str>,
    pub document_number: Option<&'a str>,
    pub plate: Option<&'a str>,
    pub law: Option<&'a str>,
    pub category: &'a str,
    pub account: &'a str,
    pub occurred_on: NaiveDate,
    pub occurred_time: Option<String>,
    pub contact_email: Option<&'a str>,
}

/// The report was answered already.
pub const REPORT_CLOSED: &str = "report_closed";

const SELECT_REPORT: &str = "SELECT id, number, verdict, document_kind, document_number, plate, \
    law, category, account, occurred_on, occurred_time, contact_email, status, outcome, \
    closed_by, closed_at, created_at FROM passenger_reports";

impl Store {
    /// Records report `id`, received on `today` (its number's year), with its event, and the
    /// receipt `mail` makes of its number when the passenger left an address. Answers the
    /// report's number.
    pub async fn insert_report(
        &self,
        id: Uuid,
        report: &NewReport<'_>,
        today: NaiveDate,
        now: DateTime<Utc>,
        mail: impl Fn(&str) -> Option<OutgoingMail> + Send,
    ) -> Result<String, StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let year = today.year();
            let seq: i64 = sqlx::query_scalar(super::sql::BUMP_COUNTER)
                .bind("DEN")
                .bind(year)
                .fetch_one(&mut *tx)
                .await?;
            let number = super::records::ReservedNumber::format("DEN", year, seq);
            sqlx::query(
                "INSERT INTO passenger_reports (id, number, verdict, document_kind, document_number, \
                 plate, law, category, account, occurred_on, occurred_time, contact_email, status, \
                 created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'recebida', $13)",
            )
            .bind(id.to_string())
            .bind(&number)
            .bind(report.verdict)
            .bind(report.document_kind)
            .bind(report.document_number)
            .bind(report.plate)
            .bind(report.law)
            .bind(report.category)
            .bind(report.account)
            .bind(report.occurred_on)
            .bind(report.occurred_time.as_deref())
            .bind(report.contact_email)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            append_event!(
                tx,
                "passenger_report",
                id.to_string(),
                "report_received",
                "public".to_owned(),
                None::<String>,
                None::<String>,
                now,
                serde_json::json!({
                    "number": number,
                    "verdict": report.verdict,
                    "document_kind": report.document_kind,
                    "document_number": report.document_number,
                    "category": report.category,
                })
                .to_string(),
            );
            if let Some(m) = mail(&number) {
                queue_mail!(tx, &m, now);
            }
            tx.commit_unseen().await?;
            Ok(number)
        })
    }

    /// One report.
    pub async fn report(&self, id: Uuid) -> Result<Option<ReportRow>, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "{SELECT_REPORT} WHERE id = $1"
            )))
            .bind(id.to_string())
            .fetch_optional(pool)
            .await?)
        })
    }

    /// The reports still waiting for the Ouvidoria, oldest first, then the `closed` latest
    /// answered ones, newest first.
    pub async fn report_queue(&self, closed: i64) -> Result<Vec<ReportRow>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let mut rows: Vec<ReportRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "{SELECT_REPORT} WHERE status = 'recebida' ORDER BY created_at, number"
            )))
            .fetch_all(pool)
            .await?;
            let answered: Vec<ReportRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "{SELECT_REPORT} WHERE status = 'encerrada' ORDER BY closed_at DESC, number DESC LIMIT $1"
            )))
            .bind(closed)
            .fetch_all(pool)
            .await?;
            rows.extend(answered);
            Ok(rows)
        })
    }

    /// Closes a report with the Ouvidoria's answer, queues it to the passenger when they left
    /// an address (`mail` makes the message for it), and erases the address.
    pub async fn close_report(
        &self,
        id: Uuid,
        outcome: &str,
        actor: &str,
        now: DateTime<Utc>,
        mail: impl Fn(&str) -> OutgoingMail + Send,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let row: Option<(String, Option<String>)> =
                sqlx::query_as("SELECT status, contact_email FROM passenger_reports WHERE id = $1")
                    .bind(id.to_string())
                    .fetch_optional(&mut *tx)
                    .await?;
            let contact = match row {
                None => return Err(StorageError::NotFound),
                Some((status, _)) if status != "recebida" => {
                    return Err(StorageError::Conflict(REPORT_CLOSED));
                }
                Some((_, contact)) => contact,
            };
            sqlx::query(
                "UPDATE passenger_reports SET status = 'encerrada', outcome = $2, closed_by = $3, \
                 closed_at = $4, contact_email = NULL WHERE id = $1",
            )
            .bind(id.to_string())
            .bind(outcome)
            .bind(actor)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            append_event!(
                tx,
                "passenger_report",
                id.to_string(),
                "report_closed",
                actor.to_owned(),
                None::<String>,
                None::<String>,
                now,
                serde_json::json!({ "answered_by_mail": contact.is_some() }).to_string(),
            );
            if let Some(to) = contact {
                queue_mail!(tx, &mail(&to), now);
            }
            tx.commit_unseen().await?;
            Ok(())
        })
    }

    /// Deletes the reports closed before `before`; answers how many.
    pub async fn purge_reports(&self, before: DateTime<Utc>) -> Result<u64, StorageError> {
        on_backend!(self, |pool, _begin| {
            Ok(sqlx::query(
                "DELETE FROM passenger_reports WHERE status = 'encerrada' AND closed_at < $1",
            )
            .bind(before)
            .execute(pool)
            .await?
            .rows_affected())
        })
    }
}
