//! The one table of issued documents, for every kind of both laws: each row names its kind,
//! its subject, what the token's subject field carries, and (ride-hailing authorization and
//! sticker) the authorization and car replacement it was issued for. Append-only; every
//! insert claims its verification code across the whole register.

use chrono::{DateTime, NaiveDate, Utc};
use uuid::Uuid;

use super::{DocumentKind, StorageError, Store, parse_uuid};

/// A signed document of either law, without its bytes.
#[derive(Debug, Clone)]
pub struct Document {
    pub id: Uuid,
    pub kind: DocumentKind,
    /// What the document is about: `app_authorization`, `vehicle`, `termo`, `auto`, …
    pub subject_type: String,
    pub subject_id: Uuid,
    /// The charter company, for charter documents.
    pub company_id: Option<Uuid>,
    /// The ride-hailing authorization, for its authorization and sticker.
    pub authorization_id: Option<Uuid>,
    /// The car replacement a ride-hailing document was issued for (APP-ART8-P2); `None`:
    /// with the grant.
    pub substitution_seq: Option<i32>,
    pub number: String,
    pub verification_code: String,
    pub token: String,
    pub key_id: String,
    pub sha256: String,
    /// What the token's subject field carries: the plate, the CNPJ or the number, canonical.
    pub subject_key: String,
    pub valid_until: Option<NaiveDate>,
    pub legal_basis_version: String,
    pub issued_at: DateTime<Utc>,
    /// What the document certified at issue (certidões), JSON.
    pub facts: Option<serde_json::Value>,
    /// The official who issued it (`None` on documents older than accounts).
    pub issued_by: Option<String>,
    /// The municipality profile it was issued under (`None` on older documents).
    pub profile_version: Option<String>,
}

impl Document {
    /// The name a download of it takes: its number, what it is and, for a sticker or a selo,
    /// the plate (`APP-2026-000002-adesivo-BRA2E19.pdf`); `print`: the print shop's file.
    pub fn file_name(&self, print: bool) -> String {
        let what = match self.kind {
            DocumentKind::RideHailingAuthorization => "autorizacao",
            DocumentKind::RideHailingSticker => "adesivo",
            DocumentKind::CharterTermo => "termo",
            DocumentKind::CharterSelo => "selo",
            DocumentKind::CharterAuto | DocumentKind::RideHailingAuto => "auto",
            DocumentKind::CharterCertidao | DocumentKind::RideHailingCertidao => "certidao",
        };
        let mut name = format!("{}-{what}", self.number.replace('/', "-"));
        if matches!(
            self.kind,
            DocumentKind::RideHailingSticker | DocumentKind::CharterSelo
        ) {
            name.push('-');
            name.push_str(&self.subject_key);
        }
        if print {
            name.push_str("-grafica");
        }
        name.retain(|c| c.is_ascii_alphanumeric() || c == '-');
        name + ".pdf"
    }
}

/// A document rendered and signed, with its bytes, ready to be stored with the act that
/// issued it.
#[derive(Debug, Clone)]
pub struct SignedDocument {
    pub document: Document,
    pub pdf: Vec<u8>,
    /// Why its signature carries no timestamp although the deployment asks for one (the
    /// authority did not answer, and issuing without was configured): recorded in the
    /// history of the record the document is about.
    pub untimestamped: Option<String>,
}

#[derive(sqlx::FromRow)]
pub(crate) struct DocumentRow {
    id: String,
    kind: String,
    subject_type: String,
    subject_id: String,
    company_id: Option<String>,
    authorization_id: Option<String>,
    substitution_seq: Option<i32>,
    number: String,
    verification_code: String,
    token: String,
    key_id: String,
    sha256: String,
    subject_key: String,
    valid_until: Option<NaiveDate>,
    legal_basis_version: String,
    issued_at: DateTime<Utc>,
    facts: Option<String>,
    issued_by: Option<String>,
    profile_version: Option<String>,
}

impl DocumentRow {
    /// The document's id as the row holds it.
    pub(crate) fn id(&self) -> &str {
        &self.id
    }
}

impl TryFrom<DocumentRow> for Document {
    type Error = StorageError;
    fn try_from(r: DocumentRow) -> Result<Self, StorageError> {
        let corrupt = |what: &str| StorageError::Corrupt(format!("{what} in document {}", r.id));
        Ok(Self {
            id: parse_uuid(&r.id)?,
            kind: DocumentKind::parse(&r.kind).ok_or_else(|| corrupt("kind"))?,
            subject_id: parse_uuid(&r.subject_id)?,
            company_id: r.company_id.as_deref().map(parse_uuid).transpose()?,
            authorization_id: r.authorization_id.as_deref().map(parse_uuid).transpose()?,
            substitution_seq: r.substitution_seq,
            facts: r
                .facts
                .as_deref()
                .map(serde_json::from_str)
                .transpose()
                .map_err(|_| corrupt("facts"))?,
            subject_type: r.subject_type,
            number: r.number,
            verification_code: r.verification_code,
            token: r.token,
            key_id: r.key_id,
            sha256: r.sha256,
            subject_key: r.subject_key,
            valid_until: r.valid_until,
            legal_basis_version: r.legal_basis_version,
            issued_at: r.issued_at,
            issued_by: r.issued_by,
            profile_version: r.profile_version,
        })
    }
}

const COLUMNS: &str = "id, kind, subject_type, subject_id, company_id, authorization_id, \
    substitution_seq, number, verification_code, token, key_id, sha256, subject_key, valid_until, \
    legal_basis_version, issued_at, facts, issued_by, profile_version";

/// Every column, in the order `insert_document!` binds them.
pub(crate) const INSERT: &str = "INSERT INTO documents (id, kind, subject_type, subject_id, \
    company_id, authorization_id, substitution_seq, number, verification_code, token, key_id, \
    sha256, subject_key, valid_until, legal_basis_version, issued_at, facts, issued_by, \
    profile_version) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, \
    $17, $18, $19)";

/// A document's signed PDF, kept apart from its row by its SHA-256 (the same file is kept
/// once): read only when the PDF itself is asked for.
pub(crate) const INSERT_PDF: &str =
    "INSERT INTO pdf_contents (sha256, pdf) VALUES ($1, $2) ON CONFLICT (sha256) DO NOTHING";

/// The key a PDF is kept under: its SHA-256, in the hex a document's row carries. Computed
/// from the bytes as they are stored, so a row whose hash is not its file's finds no file
/// rather than another's.
pub(crate) fn content_key(pdf: &[u8]) -> String {
    use sha2::Digest;
    crate::signing::hex(&sha2::Sha256::digest(pdf))
}

/// A document by the hash of its PDF as issued or updated. The index holds the hash's first
/// 16 hex digits (migration 0047). A union of the two look-ups, not an `OR`, which
/// PostgreSQL answers by reading every document.
const BY_SHA256: &str = "id IN (SELECT id FROM documents \
    WHERE substr(sha256, 1, 16) = substr($1, 1, 16) AND sha256 = $1 \
    UNION ALL SELECT document_id FROM document_pdf_updates WHERE sha256 = $1)";
/// The documents of a subject other than a ride-hailing authorization: the subject index
/// holds only those (migration 0047).
const BY_SUBJECT: &str = "subject_id = $1 AND authorization_id IS NULL";

/// The query of the documents of a change log's scope, and the id it binds; `None` for a scope
/// of another form. A driver's: their authorizations' documents (by `authorization_id`) and
/// the certidões and autos about them (by the subject index, which holds only documents
/// without an authorization).
fn scope_sql(scope: &str) -> Option<(String, &str)> {
    if let Some(driver) = scope.strip_prefix("d:") {
        Some((
            format!(
                "SELECT {COLUMNS} FROM documents WHERE authorization_id IN \
                 (SELECT id FROM app_authorizations WHERE driver_id = $1) \
                 UNION ALL SELECT {COLUMNS} FROM documents WHERE subject_type IN ('app_driver', 'app_vehicle') \
                 AND authorization_id IS NULL \
                 AND subject_id IN (SELECT id FROM app_authorizations WHERE driver_id = $1) \
                 UNION ALL SELECT {COLUMNS} FROM documents WHERE subject_type = 'app_auto' \
                 AND authorization_id IS NULL \
                 AND subject_id IN (SELECT id FROM app_infraction_autos WHERE driver_id = $1)"
            ),
            driver,
        ))
    } else {
        scope.strip_prefix("c:").map(|company| {
            (
                format!("SELECT {COLUMNS} FROM documents WHERE company_id = $1"),
                company,
            )
        })
    }
}

impl Store {
    async fn documents_where(
        &self,
        clause: &str,
        value: &str,
    ) -> Result<Vec<Document>, StorageError> {
        let q = format!("SELECT {COLUMNS} FROM documents WHERE {clause} ORDER BY issued_at, id");
        on_backend!(self, |pool, _begin| {
            let rows: Vec<DocumentRow> = sqlx::query_as(sqlx::AssertSqlSafe(q))
                .bind(value)
                .fetch_all(pool)
                .await?;
            rows.into_iter().map(Document::try_from).collect()
        })
    }

    /// The document with this id, of any kind.
    pub async fn document(&self, id: Uuid) -> Result<Option<Document>, StorageError> {
        Ok(self
            .documents_where("id = $1", &id.to_string())
            .await?
            .pop())
    }

    /// The document whose printed verification code is `code` (normalised).
    pub async fn document_by_code(&self, code: &str) -> Result<Option<Document>, StorageError> {
        Ok(self
            .documents_where("verification_code = $1", code)
            .await?
            .pop())
    }

    /// Whether a document already carries the printed verification code `code`.
    pub async fn verification_code_taken(&self, code: &str) -> Result<bool, StorageError> {
        Ok(on_backend!(self, |pool, _begin| {
            sqlx::query_scalar::<_, i32>("SELECT 1 FROM documents WHERE verification_code = $1")
                .bind(code)
                .fetch_optional(pool)
                .await?
                .is_some()
        }))
    }

    /// The latest ride-hailing sticker issued for a car with this plate, in either of its
    /// forms (`ABC1234` and its Mercosul `ABC1C34`): what a plate look-up on the road checks.
    pub async fn latest_sticker_for_plate(
        &self,
        plate: &crate::domain::ids::Plate,
    ) -> Result<Option<Document>, StorageError> {
        let q = format!(
            "SELECT {COLUMNS} FROM documents WHERE kind = 'app_sticker' AND subject_key IN ($1, $2) \
             ORDER BY issued_at DESC, id DESC LIMIT 1"
        );
        let mercosul = plate.mercosul_form();
        let mut old = mercosul.clone().into_bytes();
        if let Some(c) = old.get_mut(4).filter(|c| c.is_ascii_uppercase()) {
            *c = b'0' + (*c - b'A') % 10;
        }
        let old = String::from_utf8_lossy(&old).into_owned();
        on_backend!(self, |pool, _begin| {
            let row: Option<DocumentRow> = sqlx::query_as(sqlx::AssertSqlSafe(q))
                .bind(&mercosul)
                .bind(&old)
                .fetch_optional(pool)
                .await?;
            row.map(Document::try_from).transpose()
        })
    }

    /// The document whose PDF, as issued or after one of its updates, hashes to `sha256`.
    pub async fn document_by_sha256(&self, sha256: &str) -> Result<Option<Document>, StorageError> {
        Ok(self.documents_where(BY_SHA256, sha256).await?.pop())
    }

    /// Documents issued for a subject other than a ride-hailing authorization (a Termo, a
    /// vehicle, an auto, …), oldest first; an authorization's are `documents_of_authorization`.
    pub async fn documents_of_subject(
        &self,
        subject_id: Uuid,
    ) -> Result<Vec<Document>, StorageError> {
        self.documents_where(BY_SUBJECT, &subject_id.to_string())
            .await
    }

    /// Documents issued for a ride-hailing authorization (its authorization and stickers),
    /// oldest first.
    pub async fn documents_of_authorization(
        &self,
        authorization_id: Uuid,
    ) -> Result<Vec<Document>, StorageError> {
        self.documents_where("authorization_id = $1", &authorization_id.to_string())
            .await
    }

    /// Every document of the register, oldest first (the signed status list reads them all).
    pub async fn all_documents(&self) -> Result<Vec<Document>, StorageError> {
        let q = format!("SELECT {COLUMNS} FROM documents ORDER BY issued_at, id");
        on_backend!(self, |pool, _begin| {
            let rows: Vec<DocumentRow> = sqlx::query_as(sqlx::AssertSqlSafe(q))
                .fetch_all(pool)
                .await?;
            rows.into_iter().map(Document::try_from).collect()
        })
    }

    /// The documents whose status a change logged for `scope` may have changed (the change
    /// log's scopes: `d:` a ride-hailing driver's authorizations, certidões and autos, `c:` a
    /// charter company's documents); none for a scope of another form.
    pub async fn documents_of_scope(&self, scope: &str) -> Result<Vec<Document>, StorageError> {
        let Some((q, id)) = scope_sql(scope) else {
            return Ok(Vec::new());
        };
        on_backend!(self, |pool, _begin| {
            let rows: Vec<DocumentRow> = sqlx::query_as(sqlx::AssertSqlSafe(q))
                .bind(id)
                .fetch_all(pool)
                .await?;
            let mut seen = std::collections::HashSet::new();
            rows.into_iter()
                .map(Document::try_from)
                .filter(|d| d.as_ref().map_or(true, |d| seen.insert(d.id)))
                .collect()
        })
    }

    /// At most `limit` documents after the id `after` (from the first when `None`), in the
    /// order of their ids: the whole register read a page at a time.
    pub async fn documents_after(
        &self,
        after: Option<Uuid>,
        limit: i64,
    ) -> Result<Vec<Document>, StorageError> {
        let q = format!("SELECT {COLUMNS} FROM documents WHERE id > $1 ORDER BY id LIMIT $2");
        on_backend!(self, |pool, _begin| {
            let rows: Vec<DocumentRow> = sqlx::query_as(sqlx::AssertSqlSafe(q))
                .bind(after.map_or_else(String::new, |a| a.to_string()))
                .bind(limit)
                .fetch_all(pool)
                .await?;
            rows.into_iter().map(Document::try_from).collect()
        })
    }

    /// The signed PDF of a document as it stands: the file issued followed by the updates
    /// added since (validation data, archive timestamps), in order.
    pub async fn document_pdf(&self, id: Uuid) -> Result<Option<Vec<u8>>, StorageError> {
        on_backend!(self, |pool, _begin| {
            let pdf: Option<Vec<u8>> = sqlx::query_scalar(
                "SELECT c.pdf FROM documents d JOIN pdf_contents c ON c.sha256 = d.sha256 \
                     WHERE d.id = $1",
            )
            .bind(id.to_string())
            .fetch_optional(pool)
            .await?;
            let Some(mut pdf) = pdf else {
                return Ok(None);
            };
            let updates: Vec<Vec<u8>> = sqlx::query_scalar(
                "SELECT bytes FROM document_pdf_updates WHERE document_id = $1 ORDER BY seq",
            )
            .bind(id.to_string())
            .fetch_all(pool)
            .await?;
            for u in updates {
                pdf.extend_from_slice(&u);
            }
            Ok(Some(pdf))
        })
    }

    /// Appends `update` to the PDF of `document`, whose file as it stands must still hash to
    /// `from_sha256` (another update in between is a conflict), and records it in the history
    /// of the document's subject, by `actor`, in one transaction.
    pub async fn append_pdf_update(
        &self,
        document: &Document,
        from_sha256: &str,
        update: &PdfUpdate,
        actor: &str,
    ) -> Result<(), StorageError> {
        on_backend!(self, |pool, begin| {
            let mut tx = begin().await?;
            let id = document.id.to_string();
            let last: Option<(i64, String)> = sqlx::query_as(
                "SELECT seq, sha256 FROM document_pdf_updates WHERE document_id = $1 \
                 ORDER BY seq DESC LIMIT 1",
            )
            .bind(&id)
            .fetch_optional(&mut *tx)
            .await?;
            let (seq, current) = last.unwrap_or((0, document.sha256.clone()));
            if current != from_sha256 {
                return Err(StorageError::Conflict("document_pdf_updates"));
            }
            sqlx::query(
                "INSERT INTO document_pdf_updates (document_id, seq, added_at, sha256, \
                 protected_until, bytes) VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(&id)
            .bind(seq + 1)
            .bind(update.added_at)
            .bind(&update.sha256)
            .bind(update.protected_until)
            .bind(&update.bytes)
            .execute(&mut *tx)
            .await?;
            append_event!(
                tx,
                &document.subject_type,
                document.subject_id.to_string(),
                "archive_timestamp_added",
                actor,
                None::<&str>,
                Some(&document.legal_basis_version),
                update.added_at,
                serde_json::json!({
                    "document_id": document.id,
                    "kind": document.kind.as_str(),
                    "number": document.number,
                    "protected_until": update.protected_until,
                    "sha256": update.sha256,
                    "detail": "dados de validação e carimbo do tempo de arquivo acrescentados ao PDF assinado",
                })
                .to_string(),
            );
            tx.commit().await?;
            Ok(())
        })
    }

    /// At most `limit` documents, after the id `after`, whose archive may be due before
    /// `horizon`: never updated and issued within one of `windows` (the validity of a signer's
    /// certificate that expires by then), or protected by their last archive timestamp only
    /// until before `horizon`. The caller confirms each against its file.
    pub async fn documents_to_archive(
        &self,
        windows: &[(DateTime<Utc>, DateTime<Utc>)],
        horizon: DateTime<Utc>,
        after: Option<Uuid>,
        limit: i64,
    ) -> Result<Vec<Uuid>, StorageError> {
        let after = after.map_or_else(String::new, |a| a.to_string());
        let mut ids: Vec<String> = Vec::new();
        on_backend!(self, |pool, _begin| {
            for (from, to) in windows {
                let found: Vec<String> = sqlx::query_scalar(
                    "SELECT id FROM documents d WHERE issued_at >= $1 AND issued_at <= $2 \
                     AND id > $3 AND NOT EXISTS \
                     (SELECT 1 FROM document_pdf_updates u WHERE u.document_id = d.id) \
                     ORDER BY id LIMIT $4",
                )
                .bind(from)
                .bind(to)
                .bind(&after)
                .bind(limit)
                .fetch_all(pool)
                .await?;
                ids.extend(found);
            }
            let found: Vec<String> = sqlx::query_scalar(
                "SELECT document_id FROM document_pdf_updates WHERE document_id > $1 \
                 GROUP BY document_id HAVING MAX(protected_until) < $2 \
                 ORDER BY document_id LIMIT $3",
            )
            .bind(&after)
            .bind(horizon)
            .bind(limit)
            .fetch_all(pool)
            .await?;
            ids.extend(found);
            Ok::<_, StorageError>(())
        })?;
        let mut ids: Vec<Uuid> = ids
            .iter()
            .map(|s| parse_uuid(s))
            .collect::<Result<_, _>>()?;
        ids.sort_unstable();
        ids.dedup();
        ids.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        Ok(ids)
    }
}

/// An update appended to a document's signed PDF.
#[derive(Debug, Clone)]
pub struct PdfUpdate {
    /// The bytes appended (an incremental update, complete to its `%%EOF`).
    pub bytes: Vec<u8>,
    /// SHA-256 of the whole file after it.
    pub sha256: String,
    pub added_at: DateTime<Utc>,
    /// When the certificate of its archive timestamp expires.
    pub protected_until: DateTime<Utc>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::sqlite::query_plan as plan;
    use crate::storage::temporary_store;

    /// A PDF's hash, a subject and a change log's scope find their documents through an
    /// index, whatever the register's size: the narrower indexes are still the ones read.
    #[tokio::test]
    async fn the_documents_lookups_read_an_index() {
        let (_dir, store) = temporary_store().await;
        let plan_of = |clause: &str| format!("SELECT {COLUMNS} FROM documents WHERE {clause}");
        let by_hash = plan(&store, &plan_of(BY_SHA256)).await;
        assert!(by_hash.contains("documents_sha256"), "{by_hash}");
        assert!(!by_hash.contains("SCAN documents"), "{by_hash}");
        let by_subject = plan(&store, &plan_of(BY_SUBJECT)).await;
        assert!(by_subject.contains("documents_subject"), "{by_subject}");
        for scope in ["d:x", "c:x"] {
            let (sql, _) = scope_sql(scope).unwrap();
            let p = plan(&store, &sql).await;
            assert!(!p.contains("SCAN documents"), "{scope}: {p}");
        }
        assert!(scope_sql("*").is_none());
    }
}
