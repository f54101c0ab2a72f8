//! Archiving signed PDFs for the long term (PAdES B-LTA): before the certificates a document's
//! signature depends on expire (an ICP-Brasil A1 lasts a year; a Termo is read for two, a
//! certidão for many), its PDF gains an update with fresh validation data (the chain and the
//! revocation lists of every certificate its signatures carry, in the DSS) and a document
//! timestamp from the time-stamping authority over the whole file. A validator can then prove
//! the signature as of the timestamp's time for as long as the authority's certificate lasts,
//! and the next update, made before that, carries the proof further.
//!
//! The file issued stays byte for byte in the register; each update is stored as the bytes it
//! appends, with the history event `archive_timestamp_added`.

use chrono::{DateTime, Duration, Utc};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::signing::keys::Keys;
use crate::signing::pades::{self, PadesError, PdfVerifyError, VerifiedPdf};
use crate::signing::revocation::{RevocationError, RevocationFetcher, not_after};
use crate::signing::timestamp::{TimestampError, Timestamper};
use crate::storage::documents::PdfUpdate;
use crate::storage::{StorageError, Store};

/// Why a file was not archived.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    #[error("the file's signature does not verify: {0}")]
    NotVerified(#[from] PdfVerifyError),
    #[error("validation data: {0}")]
    Revocation(#[from] RevocationError),
    #[error(transparent)]
    Timestamp(#[from] TimestampError),
    #[error("PDF: {0}")]
    Pdf(#[from] PadesError),
    #[error(transparent)]
    Storage(#[from] StorageError),
    #[error("the archived file does not verify: {0}")]
    Unverifiable(PdfVerifyError),
}

/// What archiving needs: the keys that verify the files, the time-stamping authority and the
/// fetcher of revocation lists.
pub struct Archiver<'a> {
    pub keys: &'a Keys,
    pub tsa: &'a Timestamper,
    pub revocation: &'a RevocationFetcher,
}

/// A file archived: its bytes, the archive timestamp's time, and until when it protects.
#[derive(Debug, Clone)]
pub struct Archived {
    pub pdf: Vec<u8>,
    pub time: DateTime<Utc>,
    pub protected_until: DateTime<Utc>,
}

/// What one run did.
#[derive(Debug, Default)]
pub struct Run {
    /// The numbers of the documents archived.
    pub archived: Vec<String>,
    /// Documents looked at whose protection lasts beyond the horizon.
    pub not_due: usize,
    /// The numbers (or ids) of the documents that failed, with why.
    pub failed: Vec<(String, String)>,
}

/// Until when a verified file proves itself without a new archive timestamp.
fn protected_until(v: &VerifiedPdf) -> DateTime<Utc> {
    v.archive
        .as_ref()
        .map_or(v.signer_valid_until, |a| a.valid_until)
}

impl Archiver<'_> {
    fn verify(&self, pdf: &[u8]) -> Result<VerifiedPdf, PdfVerifyError> {
        pades::verify_pdf_with(
            pdf,
            &self.keys.chain.root,
            &self.keys.public,
            &self.keys.imported_certificates,
        )
    }

    /// Archives a signed file: verified first, then the DSS with the revocation lists its
    /// certificates name (when they name any) and a document timestamp; the result is verified
    /// again before it is returned.
    pub async fn archive(&self, pdf: &[u8]) -> Result<Archived, ArchiveError> {
        self.verify(pdf)?;
        self.archive_verified(pdf).await
    }

    /// The same, for a file the caller has just verified.
    async fn archive_verified(&self, pdf: &[u8]) -> Result<Archived, ArchiveError> {
        let certs = pades::embedded_certificates(pdf);
        let with_dss = match self.revocation.dss_contents(certs, Vec::new()).await? {
            None => pdf.to_vec(),
            Some(data) => pades::add_dss(pdf, &data)?,
        };
        let prepared = pades::prepare_document_timestamp(&with_dss)?;
        let stamp = self.tsa.stamp_sha256(prepared.digest()).await?;
        let out = prepared.finish(&stamp.token)?;
        let verified = self.verify(&out).map_err(ArchiveError::Unverifiable)?;
        let archive =
            verified
                .archive
                .ok_or(ArchiveError::Unverifiable(PdfVerifyError::Malformed(
                    "no archive timestamp",
                )))?;
        Ok(Archived {
            pdf: out,
            time: archive.time,
            protected_until: archive.valid_until,
        })
    }

    /// Archives every document of the register whose protection ends within `within` of
    /// `now`: those never archived signed by an imported certificate that expires by then, and
    /// those whose last archive timestamp's certificate does. Each is its own transaction; a
    /// failure is reported and the run goes on.
    pub async fn archive_due(
        &self,
        store: &Store,
        within: Duration,
        now: DateTime<Utc>,
        actor: &str,
    ) -> Result<Run, StorageError> {
        let horizon = now + within;
        // A document is signed within its signer's validity: the documents issued while a
        // certificate that expires by the horizon was valid are the candidates.
        let windows: Vec<(DateTime<Utc>, DateTime<Utc>)> = self
            .keys
            .imported_certificates
            .iter()
            .filter(|c| not_after(c) < horizon)
            .map(|c| {
                let validity = c.tbs_certificate().validity();
                (
                    DateTime::<Utc>::from(validity.not_before.to_system_time()),
                    not_after(c),
                )
            })
            .collect();
        let mut run = Run::default();
        let mut after = None;
        loop {
            let ids = store
                .documents_to_archive(&windows, horizon, after, 100)
                .await?;
            let Some(last) = ids.last() else {
                break;
            };
            after = Some(*last);
            for id in ids {
                match self.archive_document(store, id, horizon, now, actor).await {
                    Ok(Some(number)) => run.archived.push(number),
                    Ok(None) => run.not_due += 1,
                    Err((who, e)) => run.failed.push((who, e.to_string())),
                }
            }
        }
        Ok(run)
    }

    /// Archives one document of the register when its protection ends before `horizon`
    /// (`Ok(None)` when it does not); the error names the document.
    async fn archive_document(
        &self,
        store: &Store,
        id: Uuid,
        horizon: DateTime<Utc>,
        now: DateTime<Utc>,
        actor: &str,
    ) -> Result<Option<String>, (String, ArchiveError)> {
        let named = |e: ArchiveError| (id.to_string(), e);
        let doc = store
            .document(id)
            .await
            .map_err(|e| named(e.into()))?
            .ok_or_else(|| named(StorageError::NotFound.into()))?;
        let named = |e: ArchiveError| (doc.number.clone(), e);
        let pdf = store
            .document_pdf(id)
            .await
            .map_err(|e| named(e.into()))?
            .ok_or_else(|| named(StorageError::NotFound.into()))?;
        let verified = self.verify(&pdf).map_err(|e| named(e.into()))?;
        if protected_until(&verified) >= horizon {
            return Ok(None);
        }
        let archived = self.archive_verified(&pdf).await.map_err(named)?;
        let update = PdfUpdate {
            bytes: archived.pdf[pdf.len()..].to_vec(),
            sha256: crate::signing::hex(&Sha256::digest(&archived.pdf)),
            added_at: now,
            protected_until: archived.protected_until,
        };
        store
            .append_pdf_update(&doc, &verified.sha256, &update, actor)
            .await
            .map_err(|e| named(e.into()))?;
        tracing::info!(
            number = %doc.number,
            protected_until = %archived.protected_until,
            "archive timestamp added"
        );
        Ok(Some(doc.number))
    }
}
