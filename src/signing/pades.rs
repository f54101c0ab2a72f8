//! PAdES baseline B-B signatures inside the PDF (ETSI EN 319 142-1): a CMS SignedData with
//! `/SubFilter /ETSI.CAdES.detached`, SHA-512 digest and Ed25519 signature (ISO 32002,
//! RFC 8419), signed attributes content-type, message-digest and signing-certificate-v2, the
//! document-signing certificate and the municipal root in the CMS, written as an incremental
//! update so the PDF/A body stays byte for byte what Typst produced.
//!
//! The QR token proves *what* the city issued; this signature proves *this file* is that
//! issuance, unaltered.

use chrono::{DateTime, Utc};
use cms::cert::{CertificateChoices, IssuerAndSerialNumber};
use cms::content_info::{CmsVersion, ContentInfo};
use cms::signed_data::{
    CertificateSet, EncapsulatedContentInfo, SignedData, SignerIdentifier, SignerInfo, SignerInfos,
};
use const_oid::ObjectIdentifier;
use der::asn1::{OctetString, SetOfVec};
use der::{Any, Decode, Encode};
use ed25519_dalek::{Signature, VerifyingKey};
use lopdf::{Dictionary, IncrementalDocument, Object, StringFormat};
use sha2::{Digest, Sha256, Sha512};
use spki::AlgorithmIdentifierOwned;
use x509_cert::attr::Attribute;
use x509_cert::certificate::Certificate;
use x509_cert::ext::pkix::name::GeneralName;
use x509_cert::serial_number::SerialNumber;

use super::keys::{ActiveKey, KeySet, key_id};
use super::pki::Chain;

const ID_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.1");
const ID_SIGNED_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.2");
const ID_CONTENT_TYPE: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.3");
const ID_MESSAGE_DIGEST: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.4");
const ID_AA_SIGNING_CERTIFICATE_V2: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.2.47");
const ID_SHA512: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.3");
const ID_ED25519: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.112");

/// Bytes reserved for the CMS inside `/Contents` (a chain of two Ed25519 certificates and
/// the signed attributes take about 2 KB).
const CONTENTS_BYTES: usize = 4096;
/// Placeholder for each number of `/ByteRange`; wide enough for any file we write.
const BYTE_RANGE_PLACEHOLDER: i64 = 9_999_999_999;

#[derive(Debug, thiserror::Error)]
pub enum PadesError {
    #[error("PDF could not be read or written: {0}")]
    Pdf(String),
    #[error("ASN.1 encoding failed: {0}")]
    Der(#[from] der::Error),
    #[error("the signature does not fit the reserved space")]
    TooLarge,
}

/// ESSCertIDv2 (RFC 5035) with the default hash algorithm, SHA-256.
#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
struct EssCertIdV2 {
    cert_hash: OctetString,
    issuer_serial: IssuerSerial,
}

#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
struct IssuerSerial {
    issuer: Vec<GeneralName>,
    serial_number: SerialNumber,
}

#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
struct SigningCertificateV2 {
    certs: Vec<EssCertIdV2>,
}

fn attribute(oid: ObjectIdentifier, value: Any) -> Result<Attribute, der::Error> {
    Ok(Attribute {
        oid,
        values: SetOfVec::try_from(vec![value])?,
    })
}

fn pdf_err(e: impl std::fmt::Display) -> PadesError {
    PadesError::Pdf(e.to_string())
}

/// Builds the detached CMS SignedData over `digest` (SHA-512 of the signed byte ranges).
fn build_cms(digest: &[u8], key: &ActiveKey, chain: &Chain) -> Result<Vec<u8>, PadesError> {
    let cert = &chain.signing;
    let tbs = cert.tbs_certificate();
    let ess = SigningCertificateV2 {
        certs: vec![EssCertIdV2 {
            cert_hash: OctetString::new(Sha256::digest(cert.to_der()?).to_vec())?,
            issuer_serial: IssuerSerial {
                issuer: vec![GeneralName::DirectoryName(tbs.issuer().clone())],
                serial_number: tbs.serial_number().clone(),
            },
        }],
    };
    let signed_attrs = SetOfVec::try_from(vec![
        attribute(ID_CONTENT_TYPE, Any::encode_from(&ID_DATA)?)?,
        attribute(
            ID_MESSAGE_DIGEST,
            Any::encode_from(&OctetString::new(digest.to_vec())?)?,
        )?,
        attribute(ID_AA_SIGNING_CERTIFICATE_V2, Any::encode_from(&ess)?)?,
    ])?;
    // RFC 8419: PureEdDSA over the DER encoding of the signed attributes (as a SET OF).
    let signature = key.sign(&signed_attrs.to_der()?);
    let sha512 = AlgorithmIdentifierOwned {
        oid: ID_SHA512,
        parameters: None,
    };
    let signer_info = SignerInfo {
        version: CmsVersion::V1,
        sid: SignerIdentifier::IssuerAndSerialNumber(IssuerAndSerialNumber {
            issuer: tbs.issuer().clone(),
            serial_number: tbs.serial_number().clone(),
        }),
        digest_alg: sha512.clone(),
        signed_attrs: Some(signed_attrs),
        signature_algorithm: AlgorithmIdentifierOwned {
            oid: ID_ED25519,
            parameters: None,
        },
        signature: OctetString::new(signature.to_bytes().to_vec())?,
        unsigned_attrs: None,
    };
    let signed_data = SignedData {
        version: CmsVersion::V1,
        digest_algorithms: SetOfVec::try_from(vec![sha512])?,
        encap_content_info: EncapsulatedContentInfo {
            econtent_type: ID_DATA,
            econtent: None,
        },
        certificates: Some(CertificateSet::try_from(vec![
            CertificateChoices::Certificate(cert.clone()),
            CertificateChoices::Certificate(chain.root.clone()),
        ])?),
        crls: None,
        signer_infos: SignerInfos::try_from(vec![signer_info])?,
    };
    let content = ContentInfo {
        content_type: ID_SIGNED_DATA,
        content: Any::encode_from(&signed_data)?,
    };
    Ok(content.to_der()?)
}

/// PDF date string `D:YYYYMMDDHHmmSSZ`.
fn pdf_date(t: DateTime<Utc>) -> String {
    t.format("D:%Y%m%d%H%M%SZ").to_string()
}

fn text(s: &str) -> Object {
    // PDF text strings in UTF-16BE with BOM, so accents survive.
    let mut bytes = vec![0xFE, 0xFF];
    for unit in s.encode_utf16() {
        bytes.extend_from_slice(&unit.to_be_bytes());
    }
    Object::String(bytes, StringFormat::Hexadecimal)
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

/// Position of the `<` and one past the `>` of the first `/Contents <hex>` at or after `from`.
fn hex_contents_after(pdf: &[u8], from: usize) -> Option<(usize, usize)> {
    let mut at = from;
    loop {
        let key = find(pdf, b"/Contents", at)?;
        let mut i = key + b"/Contents".len();
        while pdf.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        if pdf.get(i) == Some(&b'<') && pdf.get(i + 1) != Some(&b'<') {
            let end = find(pdf, b">", i)? + 1;
            return Some((i, end));
        }
        at = i;
    }
}

fn rfind(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).rposition(|w| w == needle)
}

/// What to say in the signature dictionary.
pub struct SignatureInfo<'a> {
    pub time: DateTime<Utc>,
    pub name: &'a str,
    pub reason: &'a str,
    pub location: &'a str,
}

/// Adds an invisible PAdES B-B signature field signed with the active key.
pub fn sign_pdf(
    pdf: &[u8],
    key: &ActiveKey,
    chain: &Chain,
    info: &SignatureInfo<'_>,
) -> Result<Vec<u8>, PadesError> {
    let mut out = append_signature_field(pdf, info)?;
    fill_signature(&mut out, pdf.len(), key, chain)?;
    Ok(out)
}

/// The invisible signature widget, with the empty appearance PDF/A asks for.
fn add_widget(
    inc: &mut IncrementalDocument,
    sig_id: lopdf::ObjectId,
    page_id: lopdf::ObjectId,
) -> lopdf::ObjectId {
    // PDF/A wants an appearance even for an invisible field: an empty form XObject.
    let appearance = lopdf::Stream::new(
        Dictionary::from_iter([
            ("Type", Object::Name(b"XObject".to_vec())),
            ("Subtype", Object::Name(b"Form".to_vec())),
            (
                "BBox",
                Object::Array(vec![0.into(), 0.into(), 0.into(), 0.into()]),
            ),
        ]),
        Vec::new(),
    );
    let ap_id = inc.new_document.add_object(appearance);
    let widget = Dictionary::from_iter([
        ("Type", Object::Name(b"Annot".to_vec())),
        ("Subtype", Object::Name(b"Widget".to_vec())),
        ("FT", Object::Name(b"Sig".to_vec())),
        ("T", text("Assinatura da Prefeitura")),
        ("V", Object::Reference(sig_id)),
        (
            "Rect",
            Object::Array(vec![0.into(), 0.into(), 0.into(), 0.into()]),
        ),
        ("F", Object::Integer(132)), // Print + Locked
        ("P", Object::Reference(page_id)),
        (
            "AP",
            Object::Dictionary(Dictionary::from_iter([("N", Object::Reference(ap_id))])),
        ),
    ]);
    inc.new_document.add_object(widget)
}

/// Writes the incremental update: signature dictionary with placeholders, invisible widget
/// on page 1, `/AcroForm` in the catalog.
fn append_signature_field(pdf: &[u8], info: &SignatureInfo<'_>) -> Result<Vec<u8>, PadesError> {
    let prev = lopdf::Document::load_mem(pdf).map_err(pdf_err)?;
    let catalog_id = prev
        .trailer
        .get(b"Root")
        .and_then(Object::as_reference)
        .map_err(pdf_err)?;
    let page_id = *prev
        .get_pages()
        .get(&1)
        .ok_or_else(|| PadesError::Pdf("no page".into()))?;
    let mut inc = IncrementalDocument::create_from(pdf.to_vec(), prev);

    let placeholder = Object::Integer(BYTE_RANGE_PLACEHOLDER);
    let sig_dict = Dictionary::from_iter([
        ("Type", Object::Name(b"Sig".to_vec())),
        ("Filter", Object::Name(b"Adobe.PPKLite".to_vec())),
        ("SubFilter", Object::Name(b"ETSI.CAdES.detached".to_vec())),
        (
            "ByteRange",
            Object::Array(vec![
                Object::Integer(0),
                placeholder.clone(),
                placeholder.clone(),
                placeholder,
            ]),
        ),
        (
            "Contents",
            Object::String(vec![0u8; CONTENTS_BYTES], StringFormat::Hexadecimal),
        ),
        ("M", Object::string_literal(pdf_date(info.time))),
        ("Name", text(info.name)),
        ("Reason", text(info.reason)),
        ("Location", text(info.location)),
    ]);
    let sig_id = inc.new_document.add_object(sig_dict);
    let widget_id = add_widget(&mut inc, sig_id, page_id);

    inc.opt_clone_object_to_new_document(page_id)
        .map_err(pdf_err)?;
    let existing_annots = inc
        .new_document
        .get_dictionary(page_id)
        .map_err(pdf_err)?
        .get(b"Annots")
        .ok()
        .cloned();
    let mut annots = match existing_annots {
        Some(Object::Array(a)) => a,
        Some(Object::Reference(r)) => inc
            .get_prev_documents()
            .get_object(r)
            .and_then(Object::as_array)
            .cloned()
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    annots.push(Object::Reference(widget_id));
    inc.new_document
        .get_dictionary_mut(page_id)
        .map_err(pdf_err)?
        .set("Annots", Object::Array(annots));

    inc.opt_clone_object_to_new_document(catalog_id)
        .map_err(pdf_err)?;
    let acroform = Dictionary::from_iter([
        ("Fields", Object::Array(vec![Object::Reference(widget_id)])),
        ("SigFlags", Object::Integer(3)),
    ]);
    inc.new_document
        .get_dictionary_mut(catalog_id)
        .map_err(pdf_err)?
        .set("AcroForm", Object::Dictionary(acroform));

    let mut out = Vec::with_capacity(pdf.len() + 2 * CONTENTS_BYTES + 4096);
    inc.save_to(&mut out).map_err(pdf_err)?;
    Ok(out)
}

/// Fills `/ByteRange` and `/Contents` of the signature appended after byte `appended`.
fn fill_signature(
    out: &mut [u8],
    appended: usize,
    key: &ActiveKey,
    chain: &Chain,
) -> Result<(), PadesError> {
    let br = find(out, b"/ByteRange", appended)
        .ok_or_else(|| PadesError::Pdf("ByteRange not written".into()))?;
    let br_open = find(out, b"[", br).ok_or_else(|| PadesError::Pdf("ByteRange array".into()))?;
    let br_close =
        find(out, b"]", br_open).ok_or_else(|| PadesError::Pdf("ByteRange array".into()))?;
    // The signature dictionary's own `/Contents <…>` (a page's `/Contents 12 0 R` does not
    // count): the first one after the dictionary's start that opens a hex string.
    let dict_start = out[appended..br]
        .windows(2)
        .rposition(|w| w == b"<<")
        .map_or(appended, |p| p + appended);
    let (start, end) = hex_contents_after(out, dict_start)
        .ok_or_else(|| PadesError::Pdf("Contents not written".into()))?;
    let ranges = format!("{} {} {} {}", 0, start, end, out.len() - end);
    let width = br_close - br_open - 1;
    if ranges.len() > width {
        return Err(PadesError::TooLarge);
    }
    out[br_open + 1..br_close].copy_from_slice(format!("{ranges:<width$}").as_bytes());

    let mut hasher = Sha512::new();
    hasher.update(&out[..start]);
    hasher.update(&out[end..]);
    let cms = build_cms(&hasher.finalize(), key, chain)?;
    let hex = super::hex(&cms);
    if hex.len() > end - start - 2 {
        return Err(PadesError::TooLarge);
    }
    out[start + 1..start + 1 + hex.len()].copy_from_slice(hex.as_bytes());
    Ok(())
}

/// Why a PDF signature was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PdfVerifyError {
    #[error("no signature found")]
    NoSignature,
    #[error("malformed signature: {0}")]
    Malformed(&'static str),
    #[error("the signed bytes were altered")]
    Altered,
    #[error("the file was changed after signing")]
    ModifiedAfterSigning,
    #[error("the signing certificate is not issued by the municipal root")]
    Untrusted,
    #[error("the signing key is not a published selo key")]
    UnknownKey,
    /// Certified by the municipal root, but its key was retired (`selo keys retire`).
    #[error("the signing key was retired on {}: {}", .0.on, .0.reason)]
    RetiredKey(super::keys::Retirement),
}

/// A verified embedded signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedPdf {
    pub kid: String,
    pub signed_at: Option<String>,
    /// SHA-256 of the whole file, which is what the register stores.
    pub sha256: String,
}

fn parse_byte_range(pdf: &[u8]) -> Result<[usize; 4], PdfVerifyError> {
    let br = rfind(pdf, b"/ByteRange").ok_or(PdfVerifyError::NoSignature)?;
    let open = find(pdf, b"[", br).ok_or(PdfVerifyError::Malformed("ByteRange"))?;
    let close = find(pdf, b"]", open).ok_or(PdfVerifyError::Malformed("ByteRange"))?;
    let inner = std::str::from_utf8(&pdf[open + 1..close])
        .map_err(|_| PdfVerifyError::Malformed("ByteRange"))?;
    let nums: Vec<usize> = inner
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| PdfVerifyError::Malformed("ByteRange"))?;
    let [a, b, c, d] = nums[..] else {
        return Err(PdfVerifyError::Malformed("ByteRange"));
    };
    if a != 0
        || b >= c
        || c.checked_add(d).is_none_or(|e| e > pdf.len())
        || pdf.get(b) != Some(&b'<')
        || pdf.get(c - 1) != Some(&b'>')
    {
        return Err(PdfVerifyError::Malformed("ByteRange"));
    }
    Ok([a, b, c, d])
}

fn ed25519_key_of(cert: &Certificate) -> Result<VerifyingKey, PdfVerifyError> {
    let spki = cert.tbs_certificate().subject_public_key_info();
    if spki.algorithm.oid != ID_ED25519 {
        return Err(PdfVerifyError::UnknownKey);
    }
    let raw: [u8; 32] = spki
        .subject_public_key
        .raw_bytes()
        .try_into()
        .map_err(|_| PdfVerifyError::UnknownKey)?;
    VerifyingKey::from_bytes(&raw).map_err(|_| PdfVerifyError::UnknownKey)
}

/// The certificate must be issued by our root, and its key must be one we publish; returns
/// the key id.
fn check_certificate(
    cert: &Certificate,
    signer_key: &VerifyingKey,
    root: &Certificate,
    keys: &KeySet,
) -> Result<String, PdfVerifyError> {
    let root_key = ed25519_key_of(root).map_err(|_| PdfVerifyError::Untrusted)?;
    let tbs = cert
        .tbs_certificate()
        .to_der()
        .map_err(|_| PdfVerifyError::Untrusted)?;
    let cert_sig = Signature::from_slice(cert.signature().raw_bytes())
        .map_err(|_| PdfVerifyError::Untrusted)?;
    if cert.tbs_certificate().issuer() != root.tbs_certificate().subject()
        || root_key.verify_strict(&tbs, &cert_sig).is_err()
    {
        return Err(PdfVerifyError::Untrusted);
    }
    let kid = key_id(signer_key);
    if keys.get(&kid) != Some(signer_key) {
        return Err(match keys.retirement(&kid) {
            Some(r) => PdfVerifyError::RetiredKey(r.clone()),
            None => PdfVerifyError::UnknownKey,
        });
    }
    Ok(kid)
}

/// Verifies the last embedded signature of `pdf` against the municipal `root` and the
/// published `keys`.
pub fn verify_pdf(
    pdf: &[u8],
    root: &Certificate,
    keys: &KeySet,
) -> Result<VerifiedPdf, PdfVerifyError> {
    let [_, b, c, d] = parse_byte_range(pdf)?;
    let hex = &pdf[b + 1..c - 1];
    let der: Vec<u8> = hex
        .chunks(2)
        .map(|h| {
            std::str::from_utf8(h)
                .ok()
                .and_then(|s| u8::from_str_radix(s, 16).ok())
        })
        .collect::<Option<_>>()
        .ok_or(PdfVerifyError::Malformed("Contents"))?;
    let mut reader =
        der::SliceReader::new(&der).map_err(|_| PdfVerifyError::Malformed("Contents"))?;
    let content = ContentInfo::decode(&mut reader).map_err(|_| PdfVerifyError::Malformed("CMS"))?;
    if content.content_type != ID_SIGNED_DATA {
        return Err(PdfVerifyError::Malformed("CMS content type"));
    }
    let sd: SignedData = content
        .content
        .decode_as()
        .map_err(|_| PdfVerifyError::Malformed("SignedData"))?;
    let si = sd
        .signer_infos
        .0
        .iter()
        .next()
        .ok_or(PdfVerifyError::Malformed("no signer"))?;
    if si.digest_alg.oid != ID_SHA512 || si.signature_algorithm.oid != ID_ED25519 {
        return Err(PdfVerifyError::Malformed("algorithms"));
    }
    let attrs = si
        .signed_attrs
        .as_ref()
        .ok_or(PdfVerifyError::Malformed("signed attributes"))?;
    let digest_attr = attrs
        .iter()
        .find(|a| a.oid == ID_MESSAGE_DIGEST)
        .ok_or(PdfVerifyError::Malformed("message digest"))?;
    let claimed: OctetString = digest_attr
        .values
        .iter()
        .next()
        .and_then(|v| v.decode_as().ok())
        .ok_or(PdfVerifyError::Malformed("message digest"))?;
    let mut hasher = Sha512::new();
    hasher.update(&pdf[..b]);
    hasher.update(&pdf[c..c + d]);
    if hasher.finalize()[..] != *claimed.as_bytes() {
        return Err(PdfVerifyError::Altered);
    }
    let SignerIdentifier::IssuerAndSerialNumber(sid) = &si.sid else {
        return Err(PdfVerifyError::Malformed("signer identifier"));
    };
    let cert = sd
        .certificates
        .as_ref()
        .and_then(|set| {
            set.0.iter().find_map(|c| match c {
                CertificateChoices::Certificate(cert)
                    if cert.tbs_certificate().issuer() == &sid.issuer
                        && cert.tbs_certificate().serial_number() == &sid.serial_number =>
                {
                    Some(cert)
                }
                _ => None,
            })
        })
        .ok_or(PdfVerifyError::Malformed("signer certificate"))?;
    let signer_key = ed25519_key_of(cert)?;
    let signature =
        Signature::from_slice(si.signature.as_bytes()).map_err(|_| PdfVerifyError::Altered)?;
    let signed = attrs
        .to_der()
        .map_err(|_| PdfVerifyError::Malformed("signed attributes"))?;
    signer_key
        .verify_strict(&signed, &signature)
        .map_err(|_| PdfVerifyError::Altered)?;
    let kid = check_certificate(cert, &signer_key, root, keys)?;
    if c + d != pdf.len() {
        return Err(PdfVerifyError::ModifiedAfterSigning);
    }
    let signed_at = rfind(&pdf[..b], b"/M").and_then(|m| {
        let open = find(pdf, b"(", m)?;
        let close = find(pdf, b")", open)?;
        (close - open < 40).then(|| String::from_utf8_lossy(&pdf[open + 1..close]).into_owned())
    });
    let sha256 = super::hex(&Sha256::digest(pdf));
    Ok(VerifiedPdf {
        kid,
        signed_at,
        sha256,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn sample_pdf() -> Vec<u8> {
        crate::documents::render::tests::sticker_pdf()
    }

    fn signed() -> (Vec<u8>, Chain, KeySet) {
        let dir = tempfile::tempdir().unwrap();
        super::super::keys::generate(dir.path()).unwrap();
        let keys = super::super::keys::load(dir.path(), true).unwrap();
        let info = SignatureInfo {
            time: Utc::now(),
            name: "Teste",
            reason: "Teste de assinatura",
            location: "Barra do Garças-MT",
        };
        let pdf = sign_pdf(&sample_pdf(), &keys.active, &keys.chain, &info).unwrap();
        (pdf, keys.chain, keys.public)
    }

    #[test]
    fn signed_pdf_verifies_and_any_change_is_detected() {
        let (pdf, chain, public) = signed();
        let ok = verify_pdf(&pdf, &chain.root, &public).unwrap();
        assert_eq!(ok.kid.len(), 8);
        // One changed byte inside the signed range.
        let mut altered = pdf.clone();
        altered[200] ^= 0x01;
        assert_eq!(
            verify_pdf(&altered, &chain.root, &public),
            Err(PdfVerifyError::Altered)
        );
        // Bytes appended after the signature (an unsigned incremental update).
        let mut appended = pdf.clone();
        appended.extend_from_slice(b"\n% appended\n");
        assert_eq!(
            verify_pdf(&appended, &chain.root, &public),
            Err(PdfVerifyError::ModifiedAfterSigning)
        );
        // Another municipality's root does not vouch for our certificate.
        let (_, other_chain, _) = signed();
        assert_eq!(
            verify_pdf(&pdf, &other_chain.root, &public),
            Err(PdfVerifyError::Untrusted)
        );
        // An unsigned PDF has no signature.
        assert_eq!(
            verify_pdf(&sample_pdf(), &chain.root, &public),
            Err(PdfVerifyError::NoSignature)
        );
    }
}
