//! OCSP (RFC 6960): the status of one certificate, signed by its issuer or by a responder
//! the issuer delegated, for a certificate that names an OCSP responder in its Authority
//! Information Access but no CRL distribution point. Like a CRL, the answer is checked before
//! it is kept in a PDF's Document Security Store: a successful basic response, signed by the
//! issuer (or by a certificate the issuer made for OCSP signing, carried in the response), for
//! this certificate, current; `revoked` stops the signing.
//!
//! Only what selo uses of the protocol is modelled: a request for one certificate (SHA-1
//! `CertID`, what every responder answers), no nonce, no request signature.

use chrono::{DateTime, Utc};
use const_oid::ObjectIdentifier;
use der::asn1::{BitString, GeneralizedTime, OctetString};
use der::{Any, Decode, Encode, Tagged};
use sha1::{Digest, Sha1};
use spki::AlgorithmIdentifierOwned;
use x509_cert::certificate::Certificate;
use x509_cert::ext::pkix::name::GeneralName;
use x509_cert::ext::pkix::{AuthorityInfoAccessSyntax, ExtendedKeyUsage};
use x509_cert::serial_number::SerialNumber;

/// `id-ad-ocsp`: the access method of an OCSP responder.
pub const ID_AD_OCSP: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.48.1");
/// `id-pkix-ocsp-basic`: the only response type there is.
pub const ID_PKIX_OCSP_BASIC: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.48.1.1");
/// `id-kp-OCSPSigning`: a responder the issuer delegated.
pub const ID_KP_OCSP_SIGNING: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.3.9");
const ID_SHA1: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.14.3.2.26");

/// `CertID ::= SEQUENCE { hashAlgorithm, issuerNameHash, issuerKeyHash, serialNumber }`.
#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
pub struct CertId {
    pub hash_algorithm: AlgorithmIdentifierOwned,
    pub issuer_name_hash: OctetString,
    pub issuer_key_hash: OctetString,
    pub serial_number: SerialNumber,
}

/// `Request ::= SEQUENCE { reqCert CertID }` (no extensions).
#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
pub struct Request {
    pub req_cert: CertId,
}

/// `TBSRequest`, version 1 (the default, so absent), no requestor name, no extensions.
#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
pub struct TbsRequest {
    pub request_list: Vec<Request>,
}

/// `OCSPRequest ::= SEQUENCE { tbsRequest }`, unsigned.
#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
pub struct OcspRequest {
    pub tbs_request: TbsRequest,
}

/// `OCSPResponseStatus`.
#[derive(Clone, Copy, Debug, Eq, PartialEq, der::Enumerated)]
#[repr(u32)]
pub enum OcspResponseStatus {
    Successful = 0,
    MalformedRequest = 1,
    InternalError = 2,
    TryLater = 3,
    SigRequired = 5,
    Unauthorized = 6,
}

/// `ResponseBytes ::= SEQUENCE { responseType, response OCTET STRING }`.
#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
pub struct ResponseBytes {
    pub response_type: ObjectIdentifier,
    pub response: OctetString,
}

/// `OCSPResponse ::= SEQUENCE { responseStatus, responseBytes [0] EXPLICIT OPTIONAL }`.
#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
pub struct OcspResponse {
    pub response_status: OcspResponseStatus,
    #[asn1(context_specific = "0", tag_mode = "EXPLICIT", optional = "true")]
    pub response_bytes: Option<ResponseBytes>,
}

/// `BasicOCSPResponse`; the signed `tbsResponseData` kept as read, to verify its signature.
#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
pub struct BasicOcspResponse {
    pub tbs_response_data: Any,
    pub signature_algorithm: AlgorithmIdentifierOwned,
    pub signature: BitString,
    #[asn1(context_specific = "0", tag_mode = "EXPLICIT", optional = "true")]
    pub certs: Option<Vec<Certificate>>,
}

/// `ResponseData`; the responder's id (a choice of two tagged forms) and the extensions are
/// kept as read.
#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
pub struct ResponseData {
    #[asn1(
        context_specific = "0",
        tag_mode = "EXPLICIT",
        default = "Default::default"
    )]
    pub version: u8,
    pub responder_id: Any,
    pub produced_at: GeneralizedTime,
    pub responses: Vec<SingleResponse>,
    #[asn1(context_specific = "1", tag_mode = "EXPLICIT", optional = "true")]
    pub response_extensions: Option<Any>,
}

/// `SingleResponse`; `certStatus` is `[0]` good, `[1]` revoked, `[2]` unknown.
#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
pub struct SingleResponse {
    pub cert_id: CertId,
    pub cert_status: Any,
    pub this_update: GeneralizedTime,
    #[asn1(context_specific = "0", tag_mode = "EXPLICIT", optional = "true")]
    pub next_update: Option<GeneralizedTime>,
    #[asn1(context_specific = "1", tag_mode = "EXPLICIT", optional = "true")]
    pub single_extensions: Option<Any>,
}

/// The `http(s)` addresses of the OCSP responders `cert` names.
pub fn ocsp_urls(cert: &Certificate) -> Vec<String> {
    let Ok(Some((_, access))) = cert
        .tbs_certificate()
        .get_extension::<AuthorityInfoAccessSyntax>()
    else {
        return Vec::new();
    };
    access
        .0
        .iter()
        .filter(|a| a.access_method == ID_AD_OCSP)
        .filter_map(|a| match &a.access_location {
            GeneralName::UniformResourceIdentifier(uri) => Some(uri.as_str().to_owned()),
            _ => None,
        })
        .filter(|u| u.starts_with("http://") || u.starts_with("https://"))
        .collect()
}

/// The `CertID` of `cert`, issued by `issuer` (SHA-1 of the issuer's name and key).
pub fn cert_id(cert: &Certificate, issuer: &Certificate) -> Result<CertId, der::Error> {
    let name = issuer.tbs_certificate().subject().to_der()?;
    let key = issuer
        .tbs_certificate()
        .subject_public_key_info()
        .subject_public_key
        .raw_bytes();
    Ok(CertId {
        hash_algorithm: AlgorithmIdentifierOwned {
            oid: ID_SHA1,
            parameters: Some(der::asn1::Null.into()),
        },
        issuer_name_hash: OctetString::new(Sha1::digest(&name).to_vec())?,
        issuer_key_hash: OctetString::new(Sha1::digest(key).to_vec())?,
        serial_number: cert.tbs_certificate().serial_number().clone(),
    })
}

/// The DER of a request for the status of `cert`, issued by `issuer`.
pub fn request(cert: &Certificate, issuer: &Certificate) -> Result<Vec<u8>, der::Error> {
    OcspRequest {
        tbs_request: TbsRequest {
            request_list: vec![Request {
                req_cert: cert_id(cert, issuer)?,
            }],
        },
    }
    .to_der()
}

/// A checked answer: the certificate is good until `next_update` (when the responder says).
#[derive(Debug, Clone)]
pub struct Good {
    pub next_update: Option<DateTime<Utc>>,
}

/// What an answer says, when it is not that the certificate is good.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotGood {
    Revoked,
    Invalid(&'static str),
}

fn time(t: &GeneralizedTime) -> DateTime<Utc> {
    DateTime::<Utc>::from(t.to_system_time())
}

/// Whether `responder` may answer for `issuer`'s certificates: the issuer itself, or a
/// certificate the issuer signed for OCSP signing.
fn authorized(responder: &Certificate, issuer: &Certificate) -> bool {
    if responder == issuer {
        return true;
    }
    let tbs = responder.tbs_certificate();
    let signed_by_issuer = tbs.issuer() == issuer.tbs_certificate().subject()
        && tbs.to_der().is_ok_and(|der| {
            responder
                .signature()
                .as_bytes()
                .is_some_and(|sig| super::imported::verify_sha256(issuer, &der, sig))
        });
    let for_ocsp = tbs
        .get_extension::<ExtendedKeyUsage>()
        .ok()
        .flatten()
        .is_some_and(|(_, e)| e.0.contains(&ID_KP_OCSP_SIGNING));
    signed_by_issuer && for_ocsp
}

/// Checks a responder's answer (`body`, the DER of an `OCSPResponse`) about `cert`, issued
/// by `issuer`, at `now`.
pub fn check_response(
    body: &[u8],
    cert: &Certificate,
    issuer: &Certificate,
    now: DateTime<Utc>,
) -> Result<Good, NotGood> {
    let invalid = NotGood::Invalid;
    let resp = OcspResponse::from_der(body).map_err(|_| invalid("not an OCSP response"))?;
    if resp.response_status != OcspResponseStatus::Successful {
        return Err(invalid("the responder did not answer successfully"));
    }
    let bytes = resp.response_bytes.ok_or(invalid("no response bytes"))?;
    if bytes.response_type != ID_PKIX_OCSP_BASIC {
        return Err(invalid("not a basic response"));
    }
    let basic = BasicOcspResponse::from_der(bytes.response.as_bytes())
        .map_err(|_| invalid("not a basic response"))?;
    let signed = basic
        .tbs_response_data
        .to_der()
        .map_err(|_| invalid("response data"))?;
    let signature = basic.signature.as_bytes().ok_or(invalid("no signature"))?;
    let candidates = std::iter::once(issuer).chain(basic.certs.iter().flatten());
    let signer_ok = candidates
        .into_iter()
        .any(|c| authorized(c, issuer) && super::imported::verify_sha256(c, &signed, signature));
    if !signer_ok {
        return Err(invalid(
            "not signed by the issuer or a responder it authorized",
        ));
    }
    let data = ResponseData::from_der(&signed).map_err(|_| invalid("response data"))?;
    let wanted = cert_id(cert, issuer).map_err(|_| invalid("certificate id"))?;
    let single = data
        .responses
        .iter()
        .find(|r| {
            r.cert_id.serial_number == wanted.serial_number
                && r.cert_id.issuer_name_hash == wanted.issuer_name_hash
                && r.cert_id.issuer_key_hash == wanted.issuer_key_hash
        })
        .ok_or(invalid("no answer about this certificate"))?;
    if time(&single.this_update) > now + chrono::Duration::minutes(5) {
        return Err(invalid("issued in the future"));
    }
    let next_update = single.next_update.as_ref().map(time);
    if next_update.is_some_and(|n| n < now) {
        return Err(invalid("past its next update"));
    }
    match single.cert_status.tag().number().value() {
        0 => Ok(Good { next_update }),
        1 => Err(NotGood::Revoked),
        _ => Err(invalid("the responder does not know the certificate")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_names_the_certificate_by_its_issuers_hashes_and_its_serial() {
        let dir = tempfile::tempdir().unwrap();
        super::super::keys::generate(dir.path()).unwrap();
        let keys = super::super::keys::load(dir.path(), true).unwrap();
        let (cert, root) = (&keys.chain.signing, &keys.chain.root);
        let der = request(cert, root).unwrap();
        let back = OcspRequest::from_der(&der).unwrap();
        let id = &back.tbs_request.request_list[0].req_cert;
        assert_eq!(id.hash_algorithm.oid, ID_SHA1);
        assert_eq!(
            id.issuer_name_hash.as_bytes(),
            Sha1::digest(root.tbs_certificate().subject().to_der().unwrap()).as_slice()
        );
        assert_eq!(&id.serial_number, cert.tbs_certificate().serial_number());
        assert!(matches!(
            check_response(b"<html>", cert, root, Utc::now()),
            Err(NotGood::Invalid(_))
        ));
        let unauthorized = OcspResponse {
            response_status: OcspResponseStatus::Unauthorized,
            response_bytes: None,
        }
        .to_der()
        .unwrap();
        assert_eq!(
            check_response(&unauthorized, cert, root, Utc::now()).unwrap_err(),
            NotGood::Invalid("the responder did not answer successfully")
        );
    }
}
