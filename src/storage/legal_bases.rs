//! Versions of the legal bases activated by an official: one row per
//! version with its file, and an event of the entity `legal_basis` in the same transaction.

use chrono::{DateTime, NaiveDate, Utc};

use super::{StorageError, Store};
use crate::domain::legal_basis::{Activation, EnactingAct, Law, Suspension, SuspensionAct};

const SELECT: &str = "SELECT version, law, effective_from, source, sha256, act_kind, act_number, \
    act_date, activated_at, activated_by FROM legal_basis_versions ORDER BY effective_from";
const INSERT: &str = "INSERT INTO legal_basis_versions (version, law, effective_from, source, \
    sha256, act_kind, act_number, act_date, activated_at, activated_by) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";

#[derive(sqlx::FromRow)]
struct ActivationRow {
    version: String,
    law: String,
    effective_from: NaiveDate,
    source: String,
    sha256: String,
    act_kind: String,
    act_number: String,
    act_date: NaiveDate,
    activated_at: DateTime<Utc>,
    activated_by: String,
}

impl TryFrom<ActivationRow> for Activation {
    type Error = StorageError;

    fn try_from(r: ActivationRow) -> Result<Self, StorageError> {
        let law = Law::parse(&r.law)
            .ok_or_else(|| super::corrupt("legal_basis_versions.law", &r.version))?;
        Ok(Activation {
            law,
            version: r.version,
            effective_from: r.effective_from,
            act: EnactingAct {
                kind: r.act_kind,
                number: r.act_number,
                date: r.act_date,
            },
            sha256: r.sha256,
            activated_at: r.activated_at,
            activated_by: r.activated_by,
            source: r.source,
        })
    }
}

impl Store {
    /// Every activated version, in the order they take effect.
    pub async fn legal_basis_activations(&self) -> Result<Vec<Activation>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let rows: Vec<ActivationRow> = sqlx::query_as(SELECT).fetch_all(pool).await?;
            rows.into_iter().map(Activation::try_from).collect()
        })
    }

    /// Records an activation and its event, all or nothing; `Conflict("version")` when the
    /// version is taken, `Conflict("effective_from")` when the law has one from that date.
    pub async fn activate_legal_basis(&self, a: &Activation) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let _ = pool;
            let mut tx = begin().await?;
            let inserted = sqlx::query(INSERT)
                .bind(&a.version)
                .bind(a.law.as_str())
                .bind(a.effective_from)
                .bind(&a.source)
                .bind(&a.sha256)
                .bind(&a.act.kind)
                .bind(&a.act.number)
                .bind(a.act.date)
                .bind(a.activated_at)
                .bind(&a.activated_by)
                .execute(&mut *tx)
                .await;
            if let Err(sqlx::Error::Database(db)) = &inserted
                && db.is_unique_violation()
            {
                let text = format!("{} {}", db.message(), db.constraint().unwrap_or_default());
                return Err(StorageError::Conflict(if text.contains("effective_from") {
                    "effective_from"
                } else {
                    "version"
                }));
            }
            inserted?;
            let data = serde_json::json!({
                "law": a.law.as_str(),
                "effective_from": a.effective_from,
                "act": a.act,
                "sha256": a.sha256,
            });
            append_event!(
                tx,
                "legal_basis",
                &a.version,
                "activated",
                &a.activated_by,
                Some(format!(
                    "{} nº {}, de {}",
                    a.act.kind,
                    a.act.number,
                    a.act.date.format("%d/%m/%Y")
                )),
                Some(&a.version),
                a.activated_at,
                data.to_string(),
            );
            tx.commit().await?;
            Ok(())
        })
    }
}

const SELECT_SUSPENSIONS: &str = "SELECT id, law, act, rules, court, case_number, decided_on, \
    effective_from, recorded_at, recorded_by FROM legal_suspensions ORDER BY effective_from";
const INSERT_SUSPENSION: &str = "INSERT INTO legal_suspensions (id, law, act, rules, court, \
    case_number, decided_on, effective_from, recorded_at, recorded_by) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";

#[derive(sqlx::FromRow)]
struct SuspensionRow {
    id: String,
    law: String,
    act: String,
    rules: String,
    court: String,
    case_number: String,
    decided_on: NaiveDate,
    effective_from: NaiveDate,
    recorded_at: DateTime<Utc>,
    recorded_by: String,
}

impl TryFrom<SuspensionRow> for Suspension {
    type Error = StorageError;

    fn try_from(r: SuspensionRow) -> Result<Self, StorageError> {
        Ok(Suspension {
            law: Law::parse(&r.law)
                .ok_or_else(|| super::corrupt("legal_suspensions.law", &r.id))?,
            act: SuspensionAct::parse(&r.act)
                .ok_or_else(|| super::corrupt("legal_suspensions.act", &r.id))?,
            rules: serde_json::from_str(&r.rules)
                .map_err(|_| super::corrupt("legal_suspensions.rules", &r.id))?,
            id: r.id,
            court: r.court,
            case_number: r.case_number,
            decided_on: r.decided_on,
            effective_from: r.effective_from,
            recorded_at: r.recorded_at,
            recorded_by: r.recorded_by,
        })
    }
}

impl Store {
    /// Every suspension and restoration of provisions recorded, in the order they take effect.
    pub async fn legal_suspensions(&self) -> Result<Vec<Suspension>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let rows: Vec<SuspensionRow> =
                sqlx::query_as(SELECT_SUSPENSIONS).fetch_all(pool).await?;
            rows.into_iter().map(Suspension::try_from).collect()
        })
    }

    /// Records a court's suspension or restoration and its event, all or nothing.
    pub async fn record_suspension(&self, s: &Suspension) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let _ = pool;
            let mut tx = begin().await?;
            let rules = serde_json::to_string(&s.rules).unwrap_or_default();
            sqlx::query(INSERT_SUSPENSION)
                .bind(&s.id)
                .bind(s.law.as_str())
                .bind(s.act.as_str())
                .bind(&rules)
                .bind(&s.court)
                .bind(&s.case_number)
                .bind(s.decided_on)
                .bind(s.effective_from)
                .bind(s.recorded_at)
                .bind(&s.recorded_by)
                .execute(&mut *tx)
                .await?;
            let data = serde_json::json!({
                "law": s.law.as_str(),
                "act": s.act.as_str(),
                "rules": s.rules,
                "court": s.court,
                "case_number": s.case_number,
                "decided_on": s.decided_on,
                "effective_from": s.effective_from,
            });
            append_event!(
                tx,
                "legal_basis",
                &s.id,
                s.act.as_str(),
                &s.recorded_by,
                Some(format!(
                    "Decisão do {}, processo {}, de {}",
                    s.court,
                    s.case_number,
                    s.decided_on.format("%d/%m/%Y")
                )),
                None::<&str>,
                s.recorded_at,
                data.to_string(),
            );
            tx.commit().await?;
            Ok(())
        })
    }
}
