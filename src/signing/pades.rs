//! PAdES baseline B-B signatures inside the PDF (ETSI EN 319 142-1): a CMS SignedData with
//! `/SubFilter /ETSI.CAdES.detached`, signed attributes content-type, message-digest and
//! signing-certificate-v2, written as an incremental update so the PDF/A body stays byte for
//! byte what Typst produced. Two signers:
//! - the municipal chain: SHA-512 and Ed25519 (ISO 32002, RFC 8419), the document-signing
//!   certificate and the municipal root in the CMS;
//! - the city's imported certificate: SHA-256 with RSA PKCS#1 v1.5 or ECDSA P-256,
//!   the whole chain in the CMS and, for an ICP-Brasil certificate, the signature policy of
//!   PAdES AD-RB (DOC-ICP-15.03) — what Adobe Reader, poppler and ITI's VALIDAR check.
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

use super::imported::ImportedSigner;
use super::keyfile::{ActiveKey, KeySet, key_id};
use super::pki::Chain;

use const_oid::db::rfc5911::{
    ID_AA_SIGNING_CERTIFICATE_V_2 as ID_AA_SIGNING_CERTIFICATE_V2, ID_CONTENT_TYPE, ID_DATA,
    ID_MESSAGE_DIGEST, ID_SIGNED_DATA,
};
use const_oid::db::rfc5912::{ID_SHA_256 as ID_SHA256, ID_SHA_512 as ID_SHA512};
use const_oid::db::rfc8410::ID_ED_25519 as ID_ED25519;

// ETSI's OIDs, which const-oid's database does not list.
const ID_AA_SIG_POLICY_ID: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.2.15");
const ID_SPQ_ETS_URI: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.5.1");

/// Bytes reserved for the CMS inside `/Contents` with the municipal chain (two Ed25519
/// certificates and the signed attributes take about 2 KB).
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
    #[error("signing failed: {0}")]
    Sign(String),
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

/// `SignaturePolicyId` (RFC 5126, 5.8.1), with its URI qualifier.
#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
struct SignaturePolicyId {
    id: ObjectIdentifier,
    hash: OtherHashAlgAndValue,
    qualifiers: Vec<SigPolicyQualifierInfo>,
}

#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
struct OtherHashAlgAndValue {
    hash_algorithm: AlgorithmIdentifierOwned,
    hash_value: OctetString,
}

#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
struct SigPolicyQualifierInfo {
    sig_policy_qualifier_id: ObjectIdentifier,
    sig_qualifier: der::asn1::Ia5String,
}

/// Who signs a PDF.
pub enum PdfSigner<'a> {
    /// The municipal chain: the active Ed25519 key and its certificate.
    Ed25519 {
        key: &'a ActiveKey,
        chain: &'a Chain,
    },
    /// The city's imported certificate (RSA or P-256).
    Imported(&'a ImportedSigner),
}

impl PdfSigner<'_> {
    fn leaf(&self) -> &Certificate {
        match self {
            Self::Ed25519 { chain, .. } => &chain.signing,
            Self::Imported(i) => i.leaf(),
        }
    }

    /// The certificates the signature carries: the signer's first, then its issuers.
    pub fn certificates(&self) -> Vec<Certificate> {
        match self {
            Self::Ed25519 { chain, .. } => vec![chain.signing.clone(), chain.root.clone()],
            Self::Imported(i) => i.chain.clone(),
        }
    }

    fn digest_algorithm(&self) -> ObjectIdentifier {
        match self {
            Self::Ed25519 { .. } => ID_SHA512,
            Self::Imported(_) => ID_SHA256,
        }
    }

    fn signature_algorithm(&self) -> ObjectIdentifier {
        match self {
            Self::Ed25519 { .. } => ID_ED25519,
            Self::Imported(i) => i.signature_algorithm(),
        }
    }

    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, PadesError> {
        match self {
            // RFC 8419: PureEdDSA over the message itself.
            Self::Ed25519 { key, .. } => Ok(key.sign(message).to_bytes().to_vec()),
            Self::Imported(i) => i.sign(message).map_err(|e| PadesError::Sign(e.to_string())),
        }
    }

    /// Room for the CMS: the chain, the signature, the attributes, with a margin.
    fn contents_bytes(&self) -> usize {
        match self {
            Self::Ed25519 { .. } => CONTENTS_BYTES,
            Self::Imported(i) => {
                4096 + i
                    .chain
                    .iter()
                    .map(|c| c.to_der().map_or(4096, |d| d.len()))
                    .sum::<usize>()
            }
        }
    }

    /// The policy an ICP-Brasil signature names; `None` for any other signer.
    fn icp_policy(&self) -> Option<&super::policy::SignaturePolicy> {
        match self {
            Self::Imported(i) if i.icp_brasil => Some(&i.policy),
            _ => None,
        }
    }
}

/// The signed attribute naming ICP-Brasil's AD-RB policy: its OID, its own `signPolicyHash`
/// (SHA-256) and its URI.
fn ad_rb_policy(p: &super::policy::SignaturePolicy) -> Result<Attribute, PadesError> {
    let policy = SignaturePolicyId {
        id: p.oid,
        hash: OtherHashAlgAndValue {
            hash_algorithm: AlgorithmIdentifierOwned {
                oid: ID_SHA256,
                parameters: None,
            },
            hash_value: OctetString::new(p.hash.clone())?,
        },
        qualifiers: vec![SigPolicyQualifierInfo {
            sig_policy_qualifier_id: ID_SPQ_ETS_URI,
            sig_qualifier: der::asn1::Ia5String::new(&p.uri)?,
        }],
    };
    Ok(attribute(ID_AA_SIG_POLICY_ID, Any::encode_from(&policy)?)?)
}

fn attribute(oid: ObjectIdentifier, value: Any) -> Result<Attribute, der::Error> {
    Ok(Attribute {
        oid,
        values: SetOfVec::try_from(vec![value])?,
    })
}

/// The digest of the two signed byte ranges with `algorithm` (SHA-512 or SHA-256).
fn digest_ranges(algorithm: ObjectIdentifier, a: &[u8], b: &[u8]) -> Vec<u8> {
    if algorithm == ID_SHA512 {
        Sha512::new()
            .chain_update(a)
            .chain_update(b)
            .finalize()
            .to_vec()
    } else {
        Sha256::new()
            .chain_update(a)
            .chain_update(b)
            .finalize()
            .to_vec()
    }
}

fn pdf_err(e: impl std::fmt::Display) -> PadesError {
    PadesError::Pdf(e.to_string())
}

/// The signer info over `digest` (of the signed byte ranges, with the signer's digest
/// algorithm); a signature that will carry a timestamp names the policy for one (AD-RT).
fn signer_info(
    digest: &[u8],
    signer: &PdfSigner<'_>,
    timestamped: bool,
) -> Result<SignerInfo, PadesError> {
    let cert = signer.leaf();
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
    let mut attrs = vec![
        attribute(ID_CONTENT_TYPE, Any::encode_from(&ID_DATA)?)?,
        attribute(
            ID_MESSAGE_DIGEST,
            Any::encode_from(&OctetString::new(digest.to_vec())?)?,
        )?,
        attribute(ID_AA_SIGNING_CERTIFICATE_V2, Any::encode_from(&ess)?)?,
    ];
    // DOC-ICP-15.03: an ICP-Brasil signature names its policy (no signing-time: AD-RB and
    // AD-RT forbid it; the time is the PDF's /M, and with AD-RT the timestamp's).
    if let Some(policy) = signer.icp_policy() {
        let policy = if timestamped {
            policy.timestamped()
        } else {
            policy.clone()
        };
        attrs.push(ad_rb_policy(&policy)?);
    }
    let signed_attrs = SetOfVec::try_from(attrs)?;
    // The signature is over the DER encoding of the signed attributes (as a SET OF).
    let signature = signer.sign(&signed_attrs.to_der()?)?;
    Ok(SignerInfo {
        version: CmsVersion::V1,
        sid: SignerIdentifier::IssuerAndSerialNumber(IssuerAndSerialNumber {
            issuer: tbs.issuer().clone(),
            serial_number: tbs.serial_number().clone(),
        }),
        digest_alg: AlgorithmIdentifierOwned {
            oid: signer.digest_algorithm(),
            parameters: None,
        },
        signed_attrs: Some(signed_attrs),
        signature_algorithm: AlgorithmIdentifierOwned {
            oid: signer.signature_algorithm(),
            parameters: None,
        },
        signature: OctetString::new(signature)?,
        unsigned_attrs: None,
    })
}

/// The detached CMS `SignedData` of `signer_info`, with the signer's certificates.
fn build_cms(
    signer_info: SignerInfo,
    certificates: Vec<Certificate>,
) -> Result<Vec<u8>, PadesError> {
    let signed_data = SignedData {
        version: CmsVersion::V1,
        digest_algorithms: SetOfVec::try_from(vec![signer_info.digest_alg.clone()])?,
        encap_content_info: EncapsulatedContentInfo {
            econtent_type: ID_DATA,
            econtent: None,
        },
        certificates: Some(CertificateSet::try_from(
            certificates
                .into_iter()
                .map(CertificateChoices::Certificate)
                .collect::<Vec<_>>(),
        )?),
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

/// Adds an invisible PAdES B-B signature field signed by `signer`.
pub fn sign_pdf(
    pdf: &[u8],
    signer: &PdfSigner<'_>,
    info: &SignatureInfo<'_>,
) -> Result<Vec<u8>, PadesError> {
    prepare_signature(pdf, signer, info, false)?.finish(None)
}

/// Room for a signature timestamp in the CMS: the token with the authority's certificate
/// chain (an ACT's chain of three RSA-4096 certificates takes about 7 KB).
const TIMESTAMP_BYTES: usize = 12_288;

/// A signature made, before its CMS is written into the file: a timestamp over its value may
/// still be added (PAdES B-T).
pub struct PreparedSignature {
    out: Vec<u8>,
    /// The `<` and one past the `>` of the signature's `/Contents`.
    contents: (usize, usize),
    signer_info: SignerInfo,
    certificates: Vec<Certificate>,
}

impl PreparedSignature {
    /// The signature's value, which a signature timestamp stamps (RFC 3161, appendix A).
    pub fn value(&self) -> &[u8] {
        self.signer_info.signature.as_bytes()
    }

    /// Writes the CMS, with `timestamp` (the DER of a checked timestamp token) as its
    /// `signature-time-stamp` attribute when given.
    pub fn finish(mut self, timestamp: Option<&[u8]>) -> Result<Vec<u8>, PadesError> {
        if let Some(token) = timestamp {
            let token = Any::from_der(token)?;
            self.signer_info.unsigned_attrs = Some(SetOfVec::try_from(vec![attribute(
                super::timestamp::ID_AA_TIME_STAMP_TOKEN,
                token,
            )?])?);
        }
        let cms = build_cms(self.signer_info, self.certificates)?;
        write_contents(&mut self.out, self.contents, &cms)?;
        Ok(self.out)
    }
}

/// Writes `der` as the hex of the `/Contents` placeholder between `contents` (its `<` and one
/// past its `>`); the rest of the placeholder stays zeros.
fn write_contents(out: &mut [u8], contents: (usize, usize), der: &[u8]) -> Result<(), PadesError> {
    let hex = super::hex(der);
    let (start, end) = contents;
    if hex.len() > end - start - 2 {
        return Err(PadesError::TooLarge);
    }
    out[start + 1..start + 1 + hex.len()].copy_from_slice(hex.as_bytes());
    Ok(())
}

/// A document timestamp made ready (PAdES B-LTA): the field and its `/ByteRange` written, its
/// `/Contents` waiting for the token of a time-stamping authority over [`Self::digest`].
pub struct PreparedDocumentTimestamp {
    out: Vec<u8>,
    contents: (usize, usize),
    digest: Vec<u8>,
}

impl PreparedDocumentTimestamp {
    /// The SHA-256 of the bytes the timestamp covers: the whole file but its `/Contents`.
    pub fn digest(&self) -> &[u8] {
        &self.digest
    }

    /// Writes the token (DER of its `ContentInfo`, checked by the caller) into the file.
    pub fn finish(mut self, token: &[u8]) -> Result<Vec<u8>, PadesError> {
        write_contents(&mut self.out, self.contents, token)?;
        Ok(self.out)
    }
}

/// Appends an invisible document timestamp field to a signed `pdf` (ISO 32000-2 12.8.5,
/// `/SubFilter /ETSI.RFC3161`): what a `DocMDP` P 2 certification allows, and what keeps the
/// signature and the validation data before it provable once their certificates expire.
pub fn prepare_document_timestamp(pdf: &[u8]) -> Result<PreparedDocumentTimestamp, PadesError> {
    let (prev, catalog_id) = load_with_catalog(pdf)?;
    // Named after the document timestamps already there: "Carimbo do tempo 1", 2, …
    let earlier = prev
        .get_dictionary(catalog_id)
        .ok()
        .and_then(|c| acroform_fields(&prev, c))
        .unwrap_or_default()
        .iter()
        .filter(|f| document_timestamp_field(&prev, f).is_some())
        .count();
    let sig_dict = placeholders(b"DocTimeStamp", b"ETSI.RFC3161", TIMESTAMP_BYTES);
    let name = format!("Carimbo do tempo {}", earlier + 1);
    let mut out = append_signature_field(pdf, sig_dict, &name, false)?;
    let (contents, digest) = fill_byte_range(&mut out, pdf.len(), ID_SHA256)?;
    Ok(PreparedDocumentTimestamp {
        out,
        contents,
        digest,
    })
}

/// Adds an invisible signature field to `pdf` and signs it with `signer`; with `timestamped`,
/// room is left for a signature timestamp and an ICP-Brasil signature names AD-RT.
pub fn prepare_signature(
    pdf: &[u8],
    signer: &PdfSigner<'_>,
    info: &SignatureInfo<'_>,
    timestamped: bool,
) -> Result<PreparedSignature, PadesError> {
    let room = signer.contents_bytes() + if timestamped { TIMESTAMP_BYTES } else { 0 };
    let mut out = append_signature_field(
        pdf,
        signature_dict(info, room),
        "Assinatura da Prefeitura",
        true,
    )?;
    let (contents, digest) = fill_byte_range(&mut out, pdf.len(), signer.digest_algorithm())?;
    Ok(PreparedSignature {
        out,
        contents,
        signer_info: signer_info(&digest, signer, timestamped)?,
        certificates: signer.certificates(),
    })
}

/// The signature reference dictionary of a certification signature: `DocMDP`, permissions 2.
fn doc_mdp() -> Dictionary {
    Dictionary::from_iter([
        ("Type", Object::Name(b"SigRef".to_vec())),
        ("TransformMethod", Object::Name(b"DocMDP".to_vec())),
        (
            "TransformParams",
            Object::Dictionary(Dictionary::from_iter([
                ("Type", Object::Name(b"TransformParams".to_vec())),
                ("P", Object::Integer(2)),
                ("V", Object::Name(b"1.2".to_vec())),
            ])),
        ),
    ])
}

/// The invisible signature widget, with the empty appearance PDF/A asks for.
fn add_widget(
    inc: &mut IncrementalDocument,
    sig_id: lopdf::ObjectId,
    page_id: lopdf::ObjectId,
    field: &str,
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
        ("T", text(field)),
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

/// `pdf` read, with the id of its catalog.
fn load_with_catalog(pdf: &[u8]) -> Result<(lopdf::Document, lopdf::ObjectId), PadesError> {
    let doc = lopdf::Document::load_mem(pdf).map_err(pdf_err)?;
    let catalog_id = doc
        .trailer
        .get(b"Root")
        .and_then(Object::as_reference)
        .map_err(pdf_err)?;
    Ok((doc, catalog_id))
}

fn byte_range_placeholder() -> Object {
    let placeholder = Object::Integer(BYTE_RANGE_PLACEHOLDER);
    Object::Array(vec![
        Object::Integer(0),
        placeholder.clone(),
        placeholder.clone(),
        placeholder,
    ])
}

/// A signature dictionary of `kind` and `sub_filter` with the placeholders `fill_byte_range`
/// and `write_contents` fill: `/ByteRange`, and `/Contents` of `contents_bytes` zeros.
fn placeholders(kind: &[u8], sub_filter: &[u8], contents_bytes: usize) -> Dictionary {
    Dictionary::from_iter([
        ("Type", Object::Name(kind.to_vec())),
        ("Filter", Object::Name(b"Adobe.PPKLite".to_vec())),
        ("SubFilter", Object::Name(sub_filter.to_vec())),
        ("ByteRange", byte_range_placeholder()),
        (
            "Contents",
            Object::String(vec![0u8; contents_bytes], StringFormat::Hexadecimal),
        ),
    ])
}

/// The signature dictionary of the document's certification signature, with placeholders.
fn signature_dict(info: &SignatureInfo<'_>, contents_bytes: usize) -> Dictionary {
    let mut dict = placeholders(b"Sig", b"ETSI.CAdES.detached", contents_bytes);
    dict.extend(&Dictionary::from_iter([
        ("M", Object::string_literal(pdf_date(info.time))),
        ("Name", text(info.name)),
        ("Reason", text(info.reason)),
        ("Location", text(info.location)),
        // A certification signature (ISO 32000-1, 12.8.2.2): DocMDP with P 2, so that filling
        // forms and adding signatures keep it valid and any other change breaks it. ITI's
        // guidance for ICP-Brasil signatures asks for it through /Reference and /Perms.
        (
            "Reference",
            Object::Array(vec![Object::Dictionary(doc_mdp())]),
        ),
    ]));
    dict
}

/// The fields of the catalog's `/AcroForm` (inline or referenced), when it has one.
fn acroform_fields(doc: &lopdf::Document, catalog: &Dictionary) -> Option<Vec<Object>> {
    let form = match catalog.get(b"AcroForm").ok()? {
        Object::Reference(id) => doc.get_dictionary(*id).ok()?,
        Object::Dictionary(d) => d,
        _ => return None,
    };
    match form.get(b"Fields").ok()? {
        Object::Array(a) => Some(a.clone()),
        Object::Reference(id) => doc.get_object(*id).and_then(Object::as_array).ok().cloned(),
        _ => None,
    }
}

/// Writes the incremental update: the signature dictionary `sig_dict` (with placeholders), an
/// invisible widget named `field` on page 1, listed in the catalog's `/AcroForm` after the
/// fields already there; with `certify`, the catalog's `/Perms` names it for `DocMDP`.
fn append_signature_field(
    pdf: &[u8],
    sig_dict: Dictionary,
    field: &str,
    certify: bool,
) -> Result<Vec<u8>, PadesError> {
    let (prev, catalog_id) = load_with_catalog(pdf)?;
    let page_id = *prev
        .get_pages()
        .get(&1)
        .ok_or_else(|| PadesError::Pdf("no page".into()))?;
    let mut fields = prev
        .get_dictionary(catalog_id)
        .ok()
        .and_then(|c| acroform_fields(&prev, c))
        .unwrap_or_default();
    let mut inc = IncrementalDocument::create_from(pdf.to_vec(), prev);

    let sig_id = inc.new_document.add_object(sig_dict);
    let widget_id = add_widget(&mut inc, sig_id, page_id, field);

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
    fields.push(Object::Reference(widget_id));
    let acroform = Dictionary::from_iter([
        ("Fields", Object::Array(fields)),
        ("SigFlags", Object::Integer(3)),
    ]);
    let catalog = inc
        .new_document
        .get_dictionary_mut(catalog_id)
        .map_err(pdf_err)?;
    catalog.set("AcroForm", Object::Dictionary(acroform));
    if certify {
        catalog.set(
            "Perms",
            Object::Dictionary(Dictionary::from_iter([(
                "DocMDP",
                Object::Reference(sig_id),
            )])),
        );
    }

    let mut out = Vec::with_capacity(pdf.len() + 64 * 1024);
    inc.save_to(&mut out).map_err(pdf_err)?;
    Ok(out)
}

/// Fills `/ByteRange` of the signature appended after byte `appended`; returns where its
/// `/Contents` lies and the digest of the signed ranges.
fn fill_byte_range(
    out: &mut [u8],
    appended: usize,
    digest_algorithm: ObjectIdentifier,
) -> Result<((usize, usize), Vec<u8>), PadesError> {
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

    let digest = digest_ranges(digest_algorithm, &out[..start], &out[end..]);
    Ok(((start, end), digest))
}

/// The raw `/Contents` of the last signature of `pdf` (the CMS with its zero padding), as the
/// key of its VRI entry reads it.
fn last_signature_contents(pdf: &[u8]) -> Option<Vec<u8>> {
    let [_, b, c, _] = parse_byte_range(pdf).ok()?;
    pdf[b + 1..c - 1]
        .chunks(2)
        .map(|h| {
            std::str::from_utf8(h)
                .ok()
                .and_then(|s| u8::from_str_radix(s, 16).ok())
        })
        .collect()
}

/// Appends the Document Security Store (PAdES B-LT, ISO 32000-2 12.8.4.3) to a signed `pdf`
/// as an incremental update: the certificates, CRLs and OCSP responses of `data` as streams,
/// listed in `/Certs`, `/CRLs` and `/OCSPs` and in the VRI entry of the last signature (its key
/// the upper-case hex SHA-1 of the signature's `/Contents`). A DSS already there is kept and
/// added to: its streams stay, what it already holds is not written twice, its VRI entries
/// stay. The signed revision stays byte for byte as it was; a `DocMDP` P 2 certification allows
/// the addition.
pub fn add_dss(
    pdf: &[u8],
    data: &super::revocation::ValidationData,
) -> Result<Vec<u8>, PadesError> {
    use sha1::Sha1;
    let contents = last_signature_contents(pdf)
        .ok_or_else(|| PadesError::Pdf("no signature to add validation data for".into()))?;
    let (prev, catalog_id) = load_with_catalog(pdf)?;
    let existing = Existing::read(&prev, catalog_id);
    let mut inc = IncrementalDocument::create_from(pdf.to_vec(), prev);
    let mut streams = |items: &[Vec<u8>], held: &[(lopdf::ObjectId, Vec<u8>)]| -> Vec<Object> {
        items
            .iter()
            .map(|bytes| match held.iter().find(|(_, b)| b == bytes) {
                Some((id, _)) => Object::Reference(*id),
                None => Object::Reference(
                    inc.new_document
                        .add_object(lopdf::Stream::new(Dictionary::new(), bytes.clone())),
                ),
            })
            .collect()
    };
    let cert_refs = streams(&data.certs, &existing.certs);
    let crl_refs = streams(&data.crls, &existing.crls);
    let ocsp_refs = streams(&data.ocsps, &existing.ocsps);
    let listed = |held: &[(lopdf::ObjectId, Vec<u8>)], new: &[Object]| -> Object {
        let mut all: Vec<Object> = held.iter().map(|(id, _)| Object::Reference(*id)).collect();
        all.extend(
            new.iter()
                .filter(|o| !all.contains(o))
                .cloned()
                .collect::<Vec<_>>(),
        );
        Object::Array(all)
    };
    let vri_key = super::hex(&Sha1::digest(&contents)).to_uppercase();
    let mut vri = existing.vri;
    let mut entry = Dictionary::from_iter([
        ("Cert", Object::Array(cert_refs.clone())),
        ("CRL", Object::Array(crl_refs.clone())),
    ]);
    let mut dss = Dictionary::from_iter([
        ("Type", Object::Name(b"DSS".to_vec())),
        ("Certs", listed(&existing.certs, &cert_refs)),
        ("CRLs", listed(&existing.crls, &crl_refs)),
    ]);
    if !ocsp_refs.is_empty() || !existing.ocsps.is_empty() {
        entry.set("OCSP", Object::Array(ocsp_refs.clone()));
        dss.set("OCSPs", listed(&existing.ocsps, &ocsp_refs));
    }
    vri.set(vri_key.as_str(), Object::Dictionary(entry));
    dss.set("VRI", Object::Dictionary(vri));
    // An existing DSS object is rewritten in place: nothing it held is orphaned.
    if let Some(id) = existing.id {
        inc.new_document.objects.insert(id, Object::Dictionary(dss));
    } else {
        let dss_id = inc.new_document.add_object(dss);
        inc.opt_clone_object_to_new_document(catalog_id)
            .map_err(pdf_err)?;
        inc.new_document
            .get_dictionary_mut(catalog_id)
            .map_err(pdf_err)?
            .set("DSS", Object::Reference(dss_id));
    }
    let size: usize = [&data.certs, &data.crls, &data.ocsps]
        .iter()
        .flat_map(|v| v.iter())
        .map(Vec::len)
        .sum();
    let mut out = Vec::with_capacity(pdf.len() + size + 4096);
    inc.save_to(&mut out).map_err(pdf_err)?;
    Ok(out)
}

/// The object of the catalog's `/DSS`, when it is an indirect one (as selo writes it).
fn dss_id(doc: &lopdf::Document, catalog_id: lopdf::ObjectId) -> Option<lopdf::ObjectId> {
    doc.get_dictionary(catalog_id)
        .ok()?
        .get(b"DSS")
        .ok()?
        .as_reference()
        .ok()
}

/// What a file's Document Security Store already holds: its object (when indirect, as selo
/// writes it), its certificate, CRL and OCSP streams (id and bytes) and its VRI entries.
struct Existing {
    id: Option<lopdf::ObjectId>,
    certs: Vec<(lopdf::ObjectId, Vec<u8>)>,
    crls: Vec<(lopdf::ObjectId, Vec<u8>)>,
    ocsps: Vec<(lopdf::ObjectId, Vec<u8>)>,
    vri: Dictionary,
}

impl Existing {
    fn read(doc: &lopdf::Document, catalog_id: lopdf::ObjectId) -> Self {
        let dss_ref = dss_id(doc, catalog_id);
        let dss = dss_ref.and_then(|id| doc.get_dictionary(id).ok());
        let streams = |key: &[u8]| -> Vec<(lopdf::ObjectId, Vec<u8>)> {
            dss.and_then(|d| d.get(key).ok())
                .and_then(|o| o.as_array().ok())
                .map(|a| {
                    a.iter()
                        .filter_map(|o| {
                            let id = o.as_reference().ok()?;
                            let s = doc.get_object(id).ok()?.as_stream().ok()?;
                            Some((id, s.get_plain_content().ok()?))
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let vri = dss
            .and_then(|d| d.get(b"VRI").ok())
            .and_then(|o| match o {
                Object::Dictionary(v) => Some(v.clone()),
                Object::Reference(id) => doc.get_dictionary(*id).ok().cloned(),
                _ => None,
            })
            .unwrap_or_default();
        Self {
            id: dss.and(dss_ref),
            certs: streams(b"Certs"),
            crls: streams(b"CRLs"),
            ocsps: streams(b"OCSPs"),
            vri,
        }
    }
}

/// The objects reachable from `root` in `doc` (through references, arrays, dictionaries and
/// stream dictionaries).
fn reachable(doc: &lopdf::Document, root: &Object) -> std::collections::HashSet<lopdf::ObjectId> {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![root.clone()];
    while let Some(o) = stack.pop() {
        match o {
            Object::Reference(id) => {
                if seen.insert(id)
                    && let Ok(obj) = doc.get_object(id)
                {
                    stack.push(obj.clone());
                }
            }
            Object::Array(items) => stack.extend(items),
            Object::Dictionary(d) => stack.extend(d.iter().map(|(_, v)| v.clone())),
            Object::Stream(s) => stack.extend(s.dict.iter().map(|(_, v)| v.clone())),
            _ => {}
        }
    }
    seen
}

/// The objects a document timestamp's field brings when `field` (an entry of `/Fields`) is
/// one: the field (merged with its widget), its signature dictionary (`/SubFilter
/// /ETSI.RFC3161`) and its appearance streams. The page it names in `/P` is not among them.
fn document_timestamp_field(doc: &lopdf::Document, field: &Object) -> Option<Vec<lopdf::ObjectId>> {
    let field_id = field.as_reference().ok()?;
    let dict = doc.get_dictionary(field_id).ok()?;
    if dict.get(b"FT").and_then(Object::as_name).ok()? != b"Sig" {
        return None;
    }
    let value_id = dict.get(b"V").and_then(Object::as_reference).ok()?;
    let value = doc.get_dictionary(value_id).ok()?;
    if value.get(b"SubFilter").and_then(Object::as_name).ok()? != b"ETSI.RFC3161" {
        return None;
    }
    let mut ids = vec![field_id, value_id];
    if let Ok(ap) = dict.get(b"AP").and_then(Object::as_dict) {
        ids.extend(ap.iter().filter_map(|(_, v)| v.as_reference().ok()));
    }
    Some(ids)
}

/// `d` without the entries `keys`.
fn without(d: &Dictionary, keys: &[&[u8]]) -> Dictionary {
    let mut d = d.clone();
    for k in keys {
        d.remove(k);
    }
    d
}

/// The annotations of a page, its `/Annots` inline or referenced.
fn annotations(doc: &lopdf::Document, page: &Dictionary) -> Vec<Object> {
    match page.get(b"Annots") {
        Ok(Object::Array(a)) => a.clone(),
        Ok(Object::Reference(id)) => doc
            .get_object(*id)
            .and_then(Object::as_array)
            .cloned()
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// Whether what follows the signed revision (`pdf[..signed_end]`) only adds validation data
/// (PAdES B-LT and B-LTA): a Document Security Store and document timestamps. Every object of
/// the signed revision stays as it was, but the catalog (changed in `/DSS` and in its
/// `/AcroForm`'s fields, which may only gain document timestamps) and a page whose
/// annotations gain those timestamps' widgets; every object added is reachable from the DSS
/// or is part of a document timestamp's field.
fn only_validation_data_after(pdf: &[u8], signed_end: usize) -> bool {
    let (Ok(signed), Ok(full)) = (
        lopdf::Document::load_mem(&pdf[..signed_end]),
        lopdf::Document::load_mem(pdf),
    ) else {
        return false;
    };
    if !pdf[signed_end..].trim_ascii_end().ends_with(b"%%EOF") {
        return false;
    }
    let root = |d: &lopdf::Document| d.trailer.get(b"Root").and_then(Object::as_reference).ok();
    let (Some(catalog_id), true) = (root(&full), root(&full) == root(&signed)) else {
        return false;
    };
    let (Ok(catalog), Ok(before)) = (
        full.get_dictionary(catalog_id),
        signed.get_dictionary(catalog_id),
    ) else {
        return false;
    };
    // The catalog: nothing changed but its DSS and its form's fields.
    if without(catalog, &[b"DSS", b"AcroForm"]) != without(before, &[b"DSS", b"AcroForm"]) {
        return false;
    }
    let form = |doc: &lopdf::Document, c: &Dictionary| match c.get(b"AcroForm") {
        Ok(Object::Reference(id)) => doc
            .get_dictionary(*id)
            .ok()
            .map(|d| without(d, &[b"Fields"])),
        Ok(Object::Dictionary(d)) => Some(without(d, &[b"Fields"])),
        _ => None,
    };
    if form(&full, catalog) != form(&signed, before) {
        return false;
    }
    let fields_before = acroform_fields(&signed, before).unwrap_or_default();
    let fields_now = acroform_fields(&full, catalog).unwrap_or_default();
    if !fields_now.starts_with(&fields_before) {
        return false;
    }
    let new_fields = &fields_now[fields_before.len()..];
    // An update that adds validation data: a DSS or a document timestamp.
    if catalog.get(b"DSS").is_err() && new_fields.is_empty() {
        return false;
    }
    // What may be new: the DSS and what it reaches, the document timestamps' fields.
    let mut added = catalog
        .get(b"DSS")
        .map(|dss| reachable(&full, dss))
        .unwrap_or_default();
    for field in new_fields {
        match document_timestamp_field(&full, field) {
            Some(ids) => added.extend(ids),
            None => return false,
        }
    }
    full.objects.iter().all(|(id, obj)| {
        let Some(was) = signed.objects.get(id) else {
            return added.contains(id);
        };
        if was == obj || *id == catalog_id {
            return true;
        }
        // A page that gained the widgets of the new document timestamps, and nothing else.
        let (Ok(page), Ok(page_before)) = (obj.as_dict(), was.as_dict()) else {
            return false;
        };
        let (now, then) = (annotations(&full, page), annotations(&signed, page_before));
        without(page, &[b"Annots"]) == without(page_before, &[b"Annots"])
            && now.starts_with(&then)
            && now[then.len()..].iter().all(|a| new_fields.contains(a))
    }) && signed
        .objects
        .keys()
        .all(|id| full.objects.contains_key(id))
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
    RetiredKey(super::keyfile::Retirement),
}

/// A verified embedded signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedPdf {
    pub kid: String,
    pub signed_at: Option<String>,
    /// SHA-256 of the whole file, which is what the register stores.
    pub sha256: String,
    /// When the signer's certificate expires.
    pub signer_valid_until: DateTime<Utc>,
    /// The file's last archive timestamp (PAdES B-LTA), when it has one.
    pub archive: Option<ArchiveTimestamp>,
}

/// A document timestamp checked: the time it states and when its authority's certificate
/// expires (until when it proves, by itself, what it covers).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchiveTimestamp {
    pub time: DateTime<Utc>,
    pub valid_until: DateTime<Utc>,
}

fn parse_byte_range(pdf: &[u8]) -> Result<[usize; 4], PdfVerifyError> {
    byte_range_before(pdf, pdf.len()).map(|(_, r)| r)
}

/// The last `/ByteRange` that starts before byte `end` of `pdf`: where it starts and its four
/// numbers, checked against the whole file.
fn byte_range_before(pdf: &[u8], end: usize) -> Result<(usize, [usize; 4]), PdfVerifyError> {
    let br = rfind(&pdf[..end], b"/ByteRange").ok_or(PdfVerifyError::NoSignature)?;
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
    Ok((br, [a, b, c, d]))
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

/// The CMS SignedData in the hex of a signature's `/Contents`.
fn signed_data_of(hex: &[u8]) -> Result<SignedData, PdfVerifyError> {
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
    content
        .content
        .decode_as()
        .map_err(|_| PdfVerifyError::Malformed("SignedData"))
}

/// Verifies the last embedded signature of `pdf` against the municipal `root` and the
/// published `keys`.
pub fn verify_pdf(
    pdf: &[u8],
    root: &Certificate,
    keys: &KeySet,
) -> Result<VerifiedPdf, PdfVerifyError> {
    verify_pdf_with(pdf, root, keys, &[])
}

/// The same, also accepting a signature by one of the city's `imported` certificates (the
/// current one and those it replaced): RSA or ECDSA P-256 with SHA-256.
pub fn verify_pdf_with(
    pdf: &[u8],
    root: &Certificate,
    keys: &KeySet,
    imported: &[Certificate],
) -> Result<VerifiedPdf, PdfVerifyError> {
    use super::imported::{ECDSA_WITH_SHA256, RSA_ENCRYPTION, SHA256_WITH_RSA};
    // From the end: document timestamps (PAdES B-LTA) are checked and passed over; the first
    // signature before them is the document's.
    let mut end = pdf.len();
    let mut archive = None;
    let ([b, c, d], sd) = loop {
        let (at, [_, b, c, d]) = byte_range_before(pdf, end)?;
        let sd = signed_data_of(&pdf[b + 1..c - 1])?;
        if !super::timestamp::is_token(&sd) {
            break ([b, c, d], sd);
        }
        let (time, cert) =
            super::timestamp::check_document_timestamp(&sd, &pdf[..b], &pdf[c..c + d])
                .map_err(|_| PdfVerifyError::Altered)?;
        archive = archive.or(Some(ArchiveTimestamp {
            time,
            valid_until: super::revocation::not_after(&cert),
        }));
        end = at;
    };
    let si = sd
        .signer_infos
        .0
        .iter()
        .next()
        .ok_or(PdfVerifyError::Malformed("no signer"))?;
    let ed25519 = si.digest_alg.oid == ID_SHA512 && si.signature_algorithm.oid == ID_ED25519;
    let x509 = si.digest_alg.oid == ID_SHA256
        && [SHA256_WITH_RSA, RSA_ENCRYPTION, ECDSA_WITH_SHA256]
            .contains(&si.signature_algorithm.oid);
    if !ed25519 && !x509 {
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
    if digest_ranges(si.digest_alg.oid, &pdf[..b], &pdf[c..c + d]) != claimed.as_bytes() {
        return Err(PdfVerifyError::Altered);
    }
    let cert = super::timestamp::signer_certificate(&sd, &si.sid)
        .ok_or(PdfVerifyError::Malformed("signer certificate"))?;
    let signed = attrs
        .to_der()
        .map_err(|_| PdfVerifyError::Malformed("signed attributes"))?;
    let kid = if ed25519 {
        let signer_key = ed25519_key_of(cert)?;
        let signature =
            Signature::from_slice(si.signature.as_bytes()).map_err(|_| PdfVerifyError::Altered)?;
        signer_key
            .verify_strict(&signed, &signature)
            .map_err(|_| PdfVerifyError::Altered)?;
        check_certificate(cert, &signer_key, root, keys)?
    } else {
        // The city's own certificate: trusted when it is one selo imported.
        if !super::imported::verify_sha256(cert, &signed, si.signature.as_bytes()) {
            return Err(PdfVerifyError::Altered);
        }
        if !imported.contains(cert) {
            return Err(PdfVerifyError::Untrusted);
        }
        format!("x509:{}", super::imported::fingerprint(cert))
    };
    // What follows the signed revision may only add validation data (a DSS, PAdES B-LT).
    if c + d != pdf.len() && !only_validation_data_after(pdf, c + d) {
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
        signer_valid_until: super::revocation::not_after(cert),
        archive,
    })
}

/// Every certificate the signatures of `pdf` carry: the signers' chains, the chains in their
/// signature timestamps and in the document timestamps, each once. What a DSS made later must
/// hold revocation data for.
pub fn embedded_certificates(pdf: &[u8]) -> Vec<Certificate> {
    let mut certs: Vec<Certificate> = Vec::new();
    let mut add = |found: Vec<Certificate>| {
        for c in found {
            if !certs.contains(&c) {
                certs.push(c);
            }
        }
    };
    let mut end = pdf.len();
    while let Ok((at, [_, b, c, _])) = byte_range_before(pdf, end) {
        end = at;
        let Ok(sd) = signed_data_of(&pdf[b + 1..c - 1]) else {
            continue;
        };
        add(super::timestamp::certificates_in(&sd));
        let tokens = sd
            .signer_infos
            .0
            .iter()
            .filter_map(|si| si.unsigned_attrs.as_ref());
        for attr in tokens.flat_map(|a| a.iter()) {
            if attr.oid == super::timestamp::ID_AA_TIME_STAMP_TOKEN {
                for v in attr.values.iter() {
                    add(v
                        .to_der()
                        .map(|der| super::timestamp::certificates_of(&der))
                        .unwrap_or_default());
                }
            }
        }
    }
    certs
}

#[cfg(test)]
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
        let pdf = sign_pdf(&sample_pdf(), &keys.pdf_signer(), &info).unwrap();
        (pdf, keys.chain, keys.public)
    }

    #[test]
    fn the_signature_certifies_the_document_with_docmdp_p2() {
        let (pdf, _, _) = signed();
        let doc = lopdf::Document::load_mem(&pdf).unwrap();
        let catalog = doc.catalog().unwrap();
        let perms = catalog.get(b"Perms").unwrap().as_dict().unwrap();
        let sig_id = perms.get(b"DocMDP").unwrap().as_reference().unwrap();
        let sig = doc.get_dictionary(sig_id).unwrap();
        assert_eq!(sig.get(b"Type").unwrap().as_name().unwrap(), b"Sig");
        let reference = sig.get(b"Reference").unwrap().as_array().unwrap();
        let sigref = reference[0].as_dict().unwrap();
        assert_eq!(
            sigref.get(b"TransformMethod").unwrap().as_name().unwrap(),
            b"DocMDP"
        );
        let params = sigref.get(b"TransformParams").unwrap().as_dict().unwrap();
        assert_eq!(params.get(b"P").unwrap().as_i64().unwrap(), 2);
        // The AcroForm's field is the same signature.
        let fields = catalog.get(b"AcroForm").unwrap().as_dict().unwrap();
        assert!(fields.get(b"Fields").is_ok());
    }

    #[test]
    fn a_dss_added_after_the_signature_keeps_it_valid_and_names_it_in_its_vri() {
        let (pdf, chain, public) = signed();
        let cert = chain.signing.to_der().unwrap();
        let data = super::super::revocation::ValidationData {
            certs: vec![cert],
            crls: vec![b"lista".to_vec()],
            ocsps: Vec::new(),
        };
        let with_dss = add_dss(&pdf, &data).unwrap();
        assert_eq!(
            &with_dss[..pdf.len()],
            &pdf[..],
            "the signed revision is kept as it was"
        );
        verify_pdf(&with_dss, &chain.root, &public).unwrap();
        let doc = lopdf::Document::load_mem(&with_dss).unwrap();
        let dss_id = dss_id(
            &doc,
            doc.trailer.get(b"Root").unwrap().as_reference().unwrap(),
        )
        .expect("a DSS");
        let dss = doc.get_dictionary(dss_id).unwrap();
        let vri = dss.get(b"VRI").unwrap().as_dict().unwrap();
        let key = super::super::hex(&sha1::Sha1::digest(last_signature_contents(&pdf).unwrap()))
            .to_uppercase();
        assert!(vri.get(key.as_bytes()).is_ok());
        // An update that adds no DSS is not validation data.
        let mut appended = pdf.clone();
        appended.extend_from_slice(b"\n% appended\n%%EOF\n");
        assert_eq!(
            verify_pdf(&appended, &chain.root, &public),
            Err(PdfVerifyError::ModifiedAfterSigning)
        );
    }

    /// A DSS that lists an object of the signed revision (the page's content) does not make
    /// a change of that object validation data.
    #[test]
    fn a_dss_cannot_launder_a_change_of_the_signed_revision() {
        let (pdf, chain, public) = signed();
        let data = super::super::revocation::ValidationData {
            crls: vec![b"lista".to_vec()],
            ..Default::default()
        };
        let with_dss = add_dss(&pdf, &data).unwrap();
        let doc = lopdf::Document::load_mem(&with_dss).unwrap();
        let page_id = *doc.get_pages().get(&1).unwrap();
        let content = match doc
            .get_dictionary(page_id)
            .unwrap()
            .get(b"Contents")
            .unwrap()
        {
            Object::Reference(id) => *id,
            Object::Array(a) => a[0].as_reference().unwrap(),
            other => panic!("page contents {other:?}"),
        };
        let dss_id = dss_id(
            &doc,
            doc.trailer.get(b"Root").unwrap().as_reference().unwrap(),
        )
        .expect("a DSS");
        let mut inc = IncrementalDocument::create_from(with_dss.clone(), doc);
        inc.opt_clone_object_to_new_document(dss_id).unwrap();
        inc.new_document
            .get_dictionary_mut(dss_id)
            .unwrap()
            .set("Certs", Object::Array(vec![Object::Reference(content)]));
        inc.new_document.objects.insert(
            content,
            Object::Stream(lopdf::Stream::new(Dictionary::new(), b"BT ET".to_vec())),
        );
        let mut forged = Vec::new();
        inc.save_to(&mut forged).unwrap();
        assert_eq!(
            verify_pdf(&forged, &chain.root, &public),
            Err(PdfVerifyError::ModifiedAfterSigning)
        );
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
