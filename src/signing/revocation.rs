//! Revocation data for long-term validation (PAdES B-LT): the certificate revocation lists
//! (CRLs) the signer's certificates name in their CRL distribution points — or, for a
//! certificate that names none, the answer of the OCSP responder it names (`ocsp`) — fetched
//! when a document is signed and kept in the PDF's Document Security Store, so that the
//! signature can still be validated once the certificate has expired and the lists are no
//! longer published.
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

/// An OCSP answer kept (DER) until its `nextUpdate`.
type Answer = (Vec<u8>, Option<DateTime<Utc>>);

/// Fetches and keeps the CRLs and OCSP answers a chain names.
pub struct RevocationFetcher {
    client: reqwest::Client,
    cache: Mutex<HashMap<String, std::sync::Arc<Cached>>>,
    /// By responder and serial number.
    answers: Mutex<HashMap<String, Answer>>,
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
            answers: Mutex::default(),
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
        let der = download(self.client.get(url), url).await?;
        let fresh = std::sync::Arc::new(checked(url, der, issuer, now)?);
        self.cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(url.to_owned(), fresh.clone());
        Ok(fresh)
    }

    /// The revocation data of every certificate of `certs` whose issuer is among `certs`: the
    /// CRL it names or, when it names none, the answer of the OCSP responder it names (DER);
    /// an error when one cannot be fetched or checked, or says its certificate is revoked.
    pub async fn revocation_for(
        &self,
        certs: &[Certificate],
        now: DateTime<Utc>,
    ) -> Result<(Vec<Vec<u8>>, Vec<Vec<u8>>), RevocationError> {
        let (mut crls, mut ocsps): (Vec<Vec<u8>>, Vec<Vec<u8>>) = (Vec::new(), Vec::new());
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
            let (urls, by_ocsp) = match crl_urls(cert) {
                urls if urls.is_empty() => (super::ocsp::ocsp_urls(cert), true),
                urls => (urls, false),
            };
            let mut last_error = None;
            for url in &urls {
                let found = if by_ocsp {
                    self.ocsp(url, cert, issuer, now).await
                } else {
                    self.crl_of(url, cert, issuer, now).await
                };
                match found {
                    Ok(der) => {
                        let kept = if by_ocsp { &mut ocsps } else { &mut crls };
                        if !kept.contains(&der) {
                            kept.push(der);
                        }
                        last_error = None;
                        break;
                    }
                    Err(e @ RevocationError::Revoked { .. }) => return Err(e),
                    Err(e) => last_error = Some(e),
                }
            }
            if let Some(e) = last_error {
                return Err(e);
            }
        }
        Ok((crls, ocsps))
    }

    /// The list at `url`, checked, when it does not name `cert` as revoked.
    async fn crl_of(
        &self,
        url: &str,
        cert: &Certificate,
        issuer: &Certificate,
        now: DateTime<Utc>,
    ) -> Result<Vec<u8>, RevocationError> {
        let list = self.fetch(url, issuer, now).await?;
        let tbs = cert.tbs_certificate();
        let revoked = list
            .list
            .tbs_cert_list
            .revoked_certificates
            .as_ref()
            .is_some_and(|r| r.iter().any(|e| &e.serial_number == tbs.serial_number()));
        if revoked {
            return Err(revoked_by(cert, url));
        }
        Ok(list.der.clone())
    }

    /// The answer of the OCSP responder at `url` about `cert`, checked and good; kept until
    /// its `nextUpdate` (not kept when it gives none).
    async fn ocsp(
        &self,
        url: &str,
        cert: &Certificate,
        issuer: &Certificate,
        now: DateTime<Utc>,
    ) -> Result<Vec<u8>, RevocationError> {
        use super::ocsp::NotGood;
        let key = format!(
            "{url} {}",
            super::hex(cert.tbs_certificate().serial_number().as_bytes())
        );
        let kept = self
            .answers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
            .cloned();
        if let Some((der, Some(next))) = kept
            && next > now
        {
            return Ok(der);
        }
        let request =
            super::ocsp::request(cert, issuer).map_err(|e| RevocationError::Unreachable {
                url: url.to_owned(),
                reason: e.to_string(),
            })?;
        let post = self
            .client
            .post(url)
            .header("Content-Type", "application/ocsp-request")
            .body(request);
        let body = download(post, url).await?;
        match super::ocsp::check_response(&body, cert, issuer, now) {
            Ok(good) => {
                self.answers
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(key, (body.clone(), good.next_update));
                Ok(body)
            }
            Err(NotGood::Revoked) => Err(revoked_by(cert, url)),
            Err(NotGood::Invalid(reason)) => Err(RevocationError::Invalid {
                url: url.to_owned(),
                reason,
            }),
        }
    }
}

/// `cert` named as revoked by the list or responder at `url`.
fn revoked_by(cert: &Certificate, url: &str) -> RevocationError {
    RevocationError::Revoked {
        subject: cert.tbs_certificate().subject().to_string(),
        url: url.to_owned(),
    }
}

/// The body of a successful answer to `request` (to `url`, named in the errors).
async fn download(request: reqwest::RequestBuilder, url: &str) -> Result<Vec<u8>, RevocationError> {
    let unreachable = |reason: String| RevocationError::Unreachable {
        url: url.to_owned(),
        reason,
    };
    let resp = request
        .send()
        .await
        .map_err(|e| unreachable(e.without_url().to_string()))?;
    if !resp.status().is_success() {
        return Err(unreachable(format!("HTTP {}", resp.status())));
    }
    Ok(resp
        .bytes()
        .await
        .map_err(|e| unreachable(e.without_url().to_string()))?
        .to_vec())
}

/// What a Document Security Store holds: certificates, CRLs and OCSP responses, DER.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ValidationData {
    pub certs: Vec<Vec<u8>>,
    pub crls: Vec<Vec<u8>>,
    pub ocsps: Vec<Vec<u8>>,
}

/// Whether `cert` names where its revocation status is published (a CRL or an OCSP
/// responder).
pub fn names_revocation_data(cert: &Certificate) -> bool {
    !crl_urls(cert).is_empty() || !super::ocsp::ocsp_urls(cert).is_empty()
}

impl RevocationFetcher {
    /// What the Document Security Store of a document signed by `signer` (its chain, signer
    /// first) and timestamped by `tsa` (the token's certificates) holds: the certificates and
    /// their revocation data; `Ok(None)` when the signer's certificates name none, so there is
    /// nothing a later validator could not fetch as well.
    pub async fn dss_contents(
        &self,
        signer: Vec<Certificate>,
        tsa: Vec<Certificate>,
    ) -> Result<Option<ValidationData>, RevocationError> {
        if !signer.iter().any(names_revocation_data) {
            return Ok(None);
        }
        let certs: Vec<Certificate> = signer.into_iter().chain(tsa).collect();
        // The data is judged by the time of the world, not the register's clock.
        let (crls, ocsps) = self.revocation_for(&certs, Utc::now()).await?;
        Ok(Some(ValidationData {
            certs: certs.iter().filter_map(|c| c.to_der().ok()).collect(),
            crls,
            ocsps,
        }))
    }
}
