//! Revocation data for long-term validation (PAdES B-LT): the certificate revocation lists
//! (CRLs) the signer's certificates name in their CRL distribution points, fetched when a
//! document is signed and kept in the PDF's Document Security Store, so that the signature can
//! still be validated once the certificate has expired and the lists are no longer published.
//!
//! Each list is checked before it is kept: a CRL, issued by the certificate's issuer, signed by
//! it (RSA or ECDSA P-256 with SHA-256), and current. A list that names the signer's own
//! certificate as revoked stops the signing. Lists are kept in memory until their
//! `nextUpdate`, so a CA's server is asked about once per list and update.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use chrono::{DateTime, Utc};
use der::{Decode, Encode};
use x509_cert::certificate::Certificate;
use x509_cert::crl::CertificateList;
use x509_cert::ext::pkix::CrlDistributionPoints;
use x509_cert::ext::pkix::name::{DistributionPointName, GeneralName};

/// Why no revocation data could be kept.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RevocationError {
    #[error("the revocation list {url} could not be fetched: {reason}")]
    Unreachable { url: String, reason: String },
    #[error("the revocation list {url} is not valid: {reason}")]
    Invalid { url: String, reason: &'static str },
    /// The list names a certificate of the signer's chain as revoked.
    #[error("the certificate {subject} is revoked according to {url}")]
    Revoked { subject: String, url: String },
}

struct Cached {
    der: Vec<u8>,
    list: CertificateList,
    next_update: Option<DateTime<Utc>>,
}

/// Fetches and keeps the CRLs a chain names.
pub struct RevocationFetcher {
    client: reqwest::Client,
    cache: Mutex<HashMap<String, std::sync::Arc<Cached>>>,
}

impl std::fmt::Debug for RevocationFetcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RevocationFetcher").finish_non_exhaustive()
    }
}

/// The `http(s)` addresses of the CRLs `cert` names.
pub fn crl_urls(cert: &Certificate) -> Vec<String> {
    let Ok(Some((_, points))) = cert
        .tbs_certificate()
        .get_extension::<CrlDistributionPoints>()
    else {
        return Vec::new();
    };
    points
        .0
        .iter()
        .filter_map(|p| match &p.distribution_point {
            Some(DistributionPointName::FullName(names)) => Some(names),
            _ => None,
        })
        .flatten()
        .filter_map(|n| match n {
            GeneralName::UniformResourceIdentifier(uri) => Some(uri.as_str().to_owned()),
            _ => None,
        })
        .filter(|u| u.starts_with("http://") || u.starts_with("https://"))
        .collect()
}

fn time_of(t: &x509_cert::time::Time) -> DateTime<Utc> {
    DateTime::<Utc>::from(t.to_system_time())
}

/// When `cert` expires.
pub fn not_after(cert: &Certificate) -> DateTime<Utc> {
    time_of(&cert.tbs_certificate().validity().not_after)
}

/// The list `der` from `url` as a CRL of `issuer`'s, signed by it, current at `now`.
fn checked(
    url: &str,
    der: Vec<u8>,
    issuer: &Certificate,
    now: DateTime<Utc>,
) -> Result<Cached, RevocationError> {
    let invalid = |reason| RevocationError::Invalid {
        url: url.to_owned(),
        reason,
    };
    let list = CertificateList::from_der(&der).map_err(|_| invalid("not a DER CRL"))?;
    let tbs = &list.tbs_cert_list;
    if &tbs.issuer != issuer.tbs_certificate().subject() {
        return Err(invalid("issued by another authority"));
    }
    let signed = tbs.to_der().map_err(|_| invalid("not a DER CRL"))?;
    let Some(signature) = list.signature.as_bytes() else {
        return Err(invalid("no signature"));
    };
    if !super::imported::verify_sha256(issuer, &signed, signature) {
        return Err(invalid(
            "its signature does not verify with the issuer's key",
        ));
    }
    if time_of(&tbs.this_update) > now + chrono::Duration::minutes(5) {
        return Err(invalid("issued in the future"));
    }
    let next_update = tbs.next_update.as_ref().map(time_of);
    if next_update.is_some_and(|n| n < now) {
        return Err(invalid("past its next update"));
    }
    Ok(Cached {
        der,
        list,
        next_update,
    })
}

impl RevocationFetcher {
    pub fn new(timeout: Duration) -> Result<Self, RevocationError> {
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout)
            .build()
            .map_err(|e| RevocationError::Unreachable {
                url: String::new(),
                reason: e.to_string(),
            })?;
        Ok(Self {
            client,
            cache: Mutex::default(),
        })
    }

    async fn fetch(
        &self,
        url: &str,
        issuer: &Certificate,
        now: DateTime<Utc>,
    ) -> Result<std::sync::Arc<Cached>, RevocationError> {
        let kept = self
            .cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(url)
            .cloned();
        if let Some(c) = kept
            && c.next_update.is_none_or(|n| n > now)
        {
            return Ok(c);
        }
        let unreachable = |reason: String| RevocationError::Unreachable {
            url: url.to_owned(),
            reason,
        };
        let resp = self
            .client
            .get(url)
            .send()
            .await
            .map_err(|e| unreachable(e.without_url().to_string()))?;
        if !resp.status().is_success() {
            return Err(unreachable(format!("HTTP {}", resp.status())));
        }
        let der = resp
            .bytes()
            .await
            .map_err(|e| unreachable(e.without_url().to_string()))?;
        let fresh = std::sync::Arc::new(checked(url, der.to_vec(), issuer, now)?);
        self.cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(url.to_owned(), fresh.clone());
        Ok(fresh)
    }

    /// The CRLs (DER) of every certificate of `certs` that names one and whose issuer is among
    /// `certs`; an error when one cannot be fetched or checked, or names its certificate as
    /// revoked.
    pub async fn crls_for(
        &self,
        certs: &[Certificate],
        now: DateTime<Utc>,
    ) -> Result<Vec<Vec<u8>>, RevocationError> {
        let mut crls: Vec<Vec<u8>> = Vec::new();
        for cert in certs {
            let tbs = cert.tbs_certificate();
            if tbs.issuer() == tbs.subject() {
                continue; // a root: trusted as it is, no list above it
            }
            let Some(issuer) = certs
                .iter()
                .find(|c| c.tbs_certificate().subject() == tbs.issuer())
            else {
                continue;
            };
            let urls = crl_urls(cert);
            let mut last_error = None;
            for url in &urls {
                match self.fetch(url, issuer, now).await {
                    Ok(list) => {
                        let revoked = list
                            .list
                            .tbs_cert_list
                            .revoked_certificates
                            .as_ref()
                            .is_some_and(|r| {
                                r.iter().any(|e| &e.serial_number == tbs.serial_number())
                            });
                        if revoked {
                            return Err(RevocationError::Revoked {
                                subject: tbs.subject().to_string(),
                                url: url.clone(),
                            });
                        }
                        if !crls.contains(&list.der) {
                            crls.push(list.der.clone());
                        }
                        last_error = None;
                        break;
                    }
                    Err(e) => last_error = Some(e),
                }
            }
            if let Some(e) = last_error {
                return Err(e);
            }
        }
        Ok(crls)
    }
}

/// What the Document Security Store of a document signed by `signer` (its chain, signer
/// first) and timestamped by `tsa` (the token's certificates) holds: the certificates and the
/// CRLs, DER; `Ok(None)` when the signer's certificates name no list, so there is nothing a
/// later validator could not fetch as well.
pub type DssContents = (Vec<Vec<u8>>, Vec<Vec<u8>>);

impl RevocationFetcher {
    pub async fn dss_contents(
        &self,
        signer: Vec<Certificate>,
        tsa: Vec<Certificate>,
    ) -> Result<Option<DssContents>, RevocationError> {
        if signer.iter().all(|c| crl_urls(c).is_empty()) {
            return Ok(None);
        }
        let certs: Vec<Certificate> = signer.into_iter().chain(tsa).collect();
        // The lists are judged by the time of the world, not the register's clock.
        let crls = self.crls_for(&certs, Utc::now()).await?;
        let ders = certs.iter().filter_map(|c| c.to_der().ok()).collect();
        Ok(Some((ders, crls)))
    }
}
