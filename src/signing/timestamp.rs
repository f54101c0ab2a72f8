//! Signature timestamps (RFC 3161): a time-stamping authority (TSA; for ICP-Brasil an
//! accredited ACT) signs the time at which it saw the hash of a PDF signature's value; the
//! token goes into the signature's unsigned attribute `signature-time-stamp` (RFC 3161,
//! appendix A), which makes the signature PAdES B-T (ICP-Brasil's AD-RT): the time is then
//! proved by a third party, not only claimed by the signer's `/M`.
//!
//! The client sends `application/timestamp-query` by HTTP POST and checks the answer before
//! it is embedded: granted, the imprint and nonce it sent, the token's `TSTInfo` digested and
//! signed by the certificate the token carries, which is a time-stamping certificate. Whether
//! that certificate chains to a trusted root is for the relying party (pyHanko, VALIDAR) to
//! judge, as for the signer's own chain.

use chrono::{DateTime, NaiveDateTime, Utc};
use cms::cert::CertificateChoices;
use cms::content_info::ContentInfo;
use cms::signed_data::{SignedData, SignerIdentifier};
use const_oid::ObjectIdentifier;
use der::asn1::{Int, OctetString};
use der::{Any, Decode, Encode};
use sha2::{Digest, Sha256};
use spki::AlgorithmIdentifierOwned;
use x509_cert::certificate::Certificate;
use x509_cert::ext::pkix::ExtendedKeyUsage;
use x509_cert::ext::pkix::name::GeneralName;

pub use const_oid::db::rfc3161::ID_AA_TIME_STAMP_TOKEN;
use const_oid::db::rfc3161::ID_CT_TST_INFO;
use const_oid::db::rfc5280::ID_KP_TIME_STAMPING;
use const_oid::db::rfc5911::{ID_MESSAGE_DIGEST, ID_SIGNED_DATA};
use const_oid::db::rfc5912::ID_SHA_256;

/// `MessageImprint ::= SEQUENCE { hashAlgorithm, hashedMessage }`.
#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
pub struct MessageImprint {
    pub hash_algorithm: AlgorithmIdentifierOwned,
    pub hashed_message: OctetString,
}

impl MessageImprint {
    /// The SHA-256 imprint of `data`.
    pub fn sha256(data: &[u8]) -> Result<Self, der::Error> {
        Self::of_sha256(&Sha256::digest(data))
    }

    /// The imprint of data whose SHA-256 is `digest`.
    pub fn of_sha256(digest: &[u8]) -> Result<Self, der::Error> {
        Ok(Self {
            hash_algorithm: AlgorithmIdentifierOwned {
                oid: ID_SHA_256,
                parameters: None,
            },
            hashed_message: OctetString::new(digest.to_vec())?,
        })
    }
}

/// `TimeStampReq` (RFC 3161, 2.4.1), without extensions.
#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
pub struct TimeStampReq {
    pub version: u8,
    pub message_imprint: MessageImprint,
    #[asn1(optional = "true")]
    pub req_policy: Option<ObjectIdentifier>,
    #[asn1(optional = "true")]
    pub nonce: Option<Int>,
    #[asn1(default = "Default::default")]
    pub cert_req: bool,
}

/// `PKIStatusInfo` (RFC 3161, 2.4.2).
#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
pub struct PkiStatusInfo {
    pub status: u8,
    #[asn1(optional = "true")]
    pub status_string: Option<Vec<String>>,
    #[asn1(optional = "true")]
    pub fail_info: Option<der::asn1::BitString>,
}

/// `TimeStampResp` (RFC 3161, 2.4.2).
#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
pub struct TimeStampResp {
    pub status: PkiStatusInfo,
    #[asn1(optional = "true")]
    pub time_stamp_token: Option<ContentInfo>,
}

/// `Accuracy` (RFC 3161, 2.4.2; the module's tags are implicit).
#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
pub struct Accuracy {
    #[asn1(optional = "true")]
    pub seconds: Option<Int>,
    #[asn1(context_specific = "0", tag_mode = "IMPLICIT", optional = "true")]
    pub millis: Option<Int>,
    #[asn1(context_specific = "1", tag_mode = "IMPLICIT", optional = "true")]
    pub micros: Option<Int>,
}

/// `TSTInfo` (RFC 3161, 2.4.2), without extensions. `gen_time` is kept as read: TSAs write
/// fractions of a second, which a DER `GeneralizedTime` type refuses.
#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
pub struct TstInfo {
    pub version: u8,
    pub policy: ObjectIdentifier,
    pub message_imprint: MessageImprint,
    pub serial_number: Int,
    pub gen_time: Any,
    #[asn1(optional = "true")]
    pub accuracy: Option<Accuracy>,
    #[asn1(default = "Default::default")]
    pub ordering: bool,
    #[asn1(optional = "true")]
    pub nonce: Option<Int>,
    #[asn1(context_specific = "0", tag_mode = "EXPLICIT", optional = "true")]
    pub tsa: Option<GeneralName>,
}

/// Why no timestamp was obtained.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimestampError {
    #[error("the time-stamping authority did not answer: {0}")]
    Unreachable(String),
    #[error("the time-stamping authority refused the request: {0}")]
    Refused(String),
    #[error("the time-stamping authority's answer is not a valid timestamp: {0}")]
    Invalid(&'static str),
}

/// A checked timestamp token (DER of its `ContentInfo`) and the time it states.
#[derive(Debug, Clone)]
pub struct Stamp {
    pub token: Vec<u8>,
    pub time: DateTime<Utc>,
}

/// A fresh nonce: 8 random bytes, positive and minimally encoded.
pub fn new_nonce() -> Result<Int, TimestampError> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|_| TimestampError::Invalid("no randomness"))?;
    bytes[0] = (bytes[0] & 0x7f) | 0x40;
    Int::new(&bytes).map_err(|_| TimestampError::Invalid("nonce"))
}

/// The DER of a request for `imprint`, asking for the TSA's certificate.
pub fn request(
    imprint: &MessageImprint,
    nonce: &Int,
    policy: Option<ObjectIdentifier>,
) -> Result<Vec<u8>, der::Error> {
    TimeStampReq {
        version: 1,
        message_imprint: imprint.clone(),
        req_policy: policy,
        nonce: Some(nonce.clone()),
        cert_req: true,
    }
    .to_der()
}

/// `genTime`: `YYYYMMDDHHMMSS[.f…]Z`.
fn gen_time(any: &Any) -> Option<DateTime<Utc>> {
    let s = std::str::from_utf8(any.value()).ok()?.strip_suffix('Z')?;
    let (whole, fraction) = s.split_once('.').unwrap_or((s, ""));
    let t = NaiveDateTime::parse_from_str(whole, "%Y%m%d%H%M%S").ok()?;
    let nanos = if fraction.is_empty() {
        0
    } else {
        format!("{fraction:0<9}").get(..9)?.parse::<u32>().ok()?
    };
    Some(t.and_utc() + chrono::Duration::nanoseconds(i64::from(nanos)))
}

/// The signed data and the `TSTInfo` of a timestamp token.
pub fn read_token(token: &ContentInfo) -> Result<(SignedData, Vec<u8>, TstInfo), TimestampError> {
    let invalid = TimestampError::Invalid;
    if token.content_type != ID_SIGNED_DATA {
        return Err(invalid("not a signed data"));
    }
    let sd: SignedData = token
        .content
        .decode_as()
        .map_err(|_| invalid("signed data"))?;
    let (bytes, info) = tst_info_of(&sd)?;
    Ok((sd, bytes, info))
}

/// Whether a CMS signed data is a timestamp token (its content a `TSTInfo`), as a document
/// timestamp's `/Contents` is.
pub fn is_token(sd: &SignedData) -> bool {
    sd.encap_content_info.econtent_type == ID_CT_TST_INFO
}

/// The `TSTInfo` of a token's signed data, DER and read.
fn tst_info_of(sd: &SignedData) -> Result<(Vec<u8>, TstInfo), TimestampError> {
    let invalid = TimestampError::Invalid;
    if !is_token(sd) {
        return Err(invalid("content is not a TSTInfo"));
    }
    let econtent: OctetString = sd
        .encap_content_info
        .econtent
        .as_ref()
        .ok_or(invalid("no TSTInfo"))?
        .decode_as()
        .map_err(|_| invalid("TSTInfo"))?;
    let bytes = econtent.as_bytes().to_vec();
    let info = TstInfo::from_der(&bytes).map_err(|_| invalid("TSTInfo"))?;
    Ok((bytes, info))
}

/// A document timestamp checked (PAdES B-LTA, `/SubFilter /ETSI.RFC3161`): the token `sd`
/// stamps the SHA-256 of the bytes it covers (`head` then `tail`) and is signed by the
/// time-stamping certificate it carries. Returns the time it states and that certificate.
pub fn check_document_timestamp(
    sd: &SignedData,
    head: &[u8],
    tail: &[u8],
) -> Result<(DateTime<Utc>, Certificate), TimestampError> {
    let invalid = TimestampError::Invalid;
    let (tst_bytes, info) = tst_info_of(sd)?;
    if info.message_imprint.hash_algorithm.oid != ID_SHA_256 {
        return Err(invalid("the document timestamp's imprint is not SHA-256"));
    }
    let digest = Sha256::new()
        .chain_update(head)
        .chain_update(tail)
        .finalize();
    if info.message_imprint.hashed_message.as_bytes() != digest.as_slice() {
        return Err(invalid("the document timestamp stamps other bytes"));
    }
    let cert = check_signer(sd, &tst_bytes)?;
    let time = gen_time(&info.gen_time).ok_or(invalid("genTime"))?;
    Ok((time, cert))
}

/// The certificate a CMS signer identifier names among the certificates `sd` carries: by
/// issuer and serial number, or by subject key identifier.
pub fn signer_certificate<'a>(
    sd: &'a SignedData,
    sid: &SignerIdentifier,
) -> Option<&'a Certificate> {
    sd.certificates
        .as_ref()?
        .0
        .iter()
        .find_map(|c| match (c, sid) {
            (
                CertificateChoices::Certificate(cert),
                SignerIdentifier::IssuerAndSerialNumber(id),
            ) if cert.tbs_certificate().issuer() == &id.issuer
                && cert.tbs_certificate().serial_number() == &id.serial_number =>
            {
                Some(cert)
            }
            (
                CertificateChoices::Certificate(cert),
                SignerIdentifier::SubjectKeyIdentifier(ski),
            ) if cert
                .tbs_certificate()
                .get_extension::<x509_cert::ext::pkix::SubjectKeyIdentifier>()
                .ok()
                .flatten()
                .is_some_and(|(_, k)| &k == ski) =>
            {
                Some(cert)
            }
            _ => None,
        })
}

/// The certificate of the token's signer, checked: it signed the token's attributes, the
/// attributes digest the `TSTInfo`, and it is a time-stamping certificate.
fn check_signer(sd: &SignedData, tst_info: &[u8]) -> Result<Certificate, TimestampError> {
    let invalid = TimestampError::Invalid;
    let si = sd
        .signer_infos
        .0
        .iter()
        .next()
        .ok_or(invalid("no signer"))?;
    if si.digest_alg.oid != ID_SHA_256 {
        return Err(invalid("the token's digest is not SHA-256"));
    }
    let attrs = si
        .signed_attrs
        .as_ref()
        .ok_or(invalid("no signed attributes"))?;
    let digest: OctetString = attrs
        .iter()
        .find(|a| a.oid == ID_MESSAGE_DIGEST)
        .and_then(|a| a.values.iter().next())
        .and_then(|v| v.decode_as().ok())
        .ok_or(invalid("no message digest"))?;
    if digest.as_bytes() != Sha256::digest(tst_info).as_slice() {
        return Err(invalid("the token's digest does not match its TSTInfo"));
    }
    let cert = signer_certificate(sd, &si.sid)
        .cloned()
        .ok_or(invalid("the token does not carry its signer's certificate"))?;
    let signed = attrs.to_der().map_err(|_| invalid("signed attributes"))?;
    if !super::imported::verify_sha256(&cert, &signed, si.signature.as_bytes()) {
        return Err(invalid("the token's signature does not verify"));
    }
    // RFC 3161, 2.3: the TSA's certificate is for time-stamping only.
    let eku = cert
        .tbs_certificate()
        .get_extension::<ExtendedKeyUsage>()
        .ok()
        .flatten()
        .map(|(_, e)| e.0)
        .unwrap_or_default();
    if !eku.contains(&ID_KP_TIME_STAMPING) {
        return Err(invalid("the signer is not a time-stamping certificate"));
    }
    Ok(cert)
}

/// The certificates a timestamp token (DER of its `ContentInfo`) carries.
pub fn certificates_of(token: &[u8]) -> Vec<Certificate> {
    ContentInfo::from_der(token)
        .ok()
        .and_then(|t| t.content.decode_as::<SignedData>().ok())
        .map(|sd| certificates_in(&sd))
        .unwrap_or_default()
}

/// The certificates a CMS signed data carries.
pub fn certificates_in(sd: &SignedData) -> Vec<Certificate> {
    sd.certificates
        .as_ref()
        .map(|set| {
            set.0
                .iter()
                .filter_map(|c| match c {
                    CertificateChoices::Certificate(c) => Some(c.clone()),
                    CertificateChoices::Other(_) => None,
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Checks a TSA's answer to a request for `imprint` with `nonce`; returns the token.
pub fn check_response(
    body: &[u8],
    imprint: &MessageImprint,
    nonce: &Int,
) -> Result<Stamp, TimestampError> {
    let invalid = TimestampError::Invalid;
    let resp = TimeStampResp::from_der(body).map_err(|_| invalid("not a TimeStampResp"))?;
    // 0 granted, 1 granted with modifications.
    if resp.status.status > 1 {
        let text = resp
            .status
            .status_string
            .map(|s| s.join("; "))
            .unwrap_or_default();
        return Err(TimestampError::Refused(format!(
            "status {} {text}",
            resp.status.status
        )));
    }
    let token = resp
        .time_stamp_token
        .ok_or(invalid("granted without a token"))?;
    let (sd, tst_bytes, info) = read_token(&token)?;
    if &info.message_imprint != imprint {
        return Err(invalid("the token stamps another imprint"));
    }
    if info.nonce.as_ref() != Some(nonce) {
        return Err(invalid("the token does not repeat the nonce"));
    }
    check_signer(&sd, &tst_bytes)?;
    let time = gen_time(&info.gen_time).ok_or(invalid("genTime"))?;
    Ok(Stamp {
        token: token.to_der().map_err(|_| invalid("token"))?,
        time,
    })
}

pub use crate::settings::{Fallback, TsaSettings};

/// The client of the deployment's time-stamping authority.
#[derive(Debug, Clone)]
pub struct Timestamper {
    pub settings: TsaSettings,
    client: reqwest::Client,
}

impl Timestamper {
    pub fn new(settings: TsaSettings) -> Result<Self, TimestampError> {
        let client = reqwest::Client::builder()
            .timeout(settings.timeout)
            .connect_timeout(settings.timeout)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| TimestampError::Unreachable(e.to_string()))?;
        Ok(Self { settings, client })
    }

    /// A timestamp over `data` (a signature's value), checked.
    pub async fn stamp(&self, data: &[u8]) -> Result<Stamp, TimestampError> {
        self.stamp_sha256(&Sha256::digest(data)).await
    }

    /// A timestamp over the data whose SHA-256 is `digest` (the bytes a document timestamp
    /// covers), checked.
    pub async fn stamp_sha256(&self, digest: &[u8]) -> Result<Stamp, TimestampError> {
        let imprint =
            MessageImprint::of_sha256(digest).map_err(|_| TimestampError::Invalid("imprint"))?;
        let nonce = new_nonce()?;
        let body = request(&imprint, &nonce, self.settings.policy)
            .map_err(|_| TimestampError::Invalid("request"))?;
        let mut req = self
            .client
            .post(&self.settings.url)
            .header("Content-Type", "application/timestamp-query")
            .body(body);
        if let Some((user, password)) = &self.settings.credentials {
            req = req.basic_auth(user, Some(password));
        }
        let unreachable =
            |e: reqwest::Error| TimestampError::Unreachable(e.without_url().to_string());
        let resp = req.send().await.map_err(unreachable)?;
        if !resp.status().is_success() {
            return Err(TimestampError::Refused(format!("HTTP {}", resp.status())));
        }
        let bytes = resp.bytes().await.map_err(unreachable)?;
        check_response(&bytes, &imprint, &nonce)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_is_der_with_the_imprint_the_nonce_and_the_certificate_asked_for() {
        let nonce = new_nonce().unwrap();
        let der = request(
            &MessageImprint::sha256(b"assinatura").unwrap(),
            &nonce,
            None,
        )
        .unwrap();
        let back = TimeStampReq::from_der(&der).unwrap();
        assert_eq!(back.version, 1);
        assert!(back.cert_req);
        assert_eq!(back.nonce, Some(nonce));
        assert_eq!(
            back.message_imprint.hashed_message.as_bytes(),
            Sha256::digest(b"assinatura").as_slice()
        );
    }

    #[test]
    fn gen_time_reads_whole_seconds_and_fractions() {
        let any = |s: &str| Any::new(der::Tag::GeneralizedTime, s.as_bytes()).unwrap();
        assert_eq!(
            gen_time(&any("20261206101112Z")).unwrap().to_rfc3339(),
            "2026-12-06T10:11:12+00:00"
        );
        assert_eq!(
            gen_time(&any("20261206101112.25Z"))
                .unwrap()
                .timestamp_subsec_millis(),
            250
        );
        assert!(gen_time(&any("20261206101112")).is_none());
    }

    #[test]
    fn a_refusal_and_a_foreign_answer_are_told_apart() {
        let nonce = new_nonce().unwrap();
        let refused = TimeStampResp {
            status: PkiStatusInfo {
                status: 2,
                status_string: Some(vec!["badAlg".into()]),
                fail_info: None,
            },
            time_stamp_token: None,
        }
        .to_der()
        .unwrap();
        assert!(matches!(
            check_response(&refused, &MessageImprint::sha256(b"x").unwrap(), &nonce),
            Err(TimestampError::Refused(s)) if s.contains("badAlg")
        ));
        assert!(matches!(
            check_response(b"<html>", &MessageImprint::sha256(b"x").unwrap(), &nonce),
            Err(TimestampError::Invalid(_))
        ));
    }
}
