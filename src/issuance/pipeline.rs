//! The one issuing pipeline of every document kind: reserve a number, render, sign (QR token
//! and PAdES), commit with the decision's rows and events, or void the number with the reason.

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::documents;
use crate::documents::{Qr, RIDE_HAILING_ISSUER, RideHailingDocumentContext, format};
use crate::domain::dates::local_date;
use crate::issuance::{UseCaseError, verification_url};
use crate::signing::pades::SignatureInfo;
use crate::signing::timestamp::Fallback;
use crate::signing::token::TokenPayload;
use crate::signing::{pades, token};
use crate::standing::charter::CertifiedItem;
use crate::state::AppState;
use crate::storage::charter::{CharterCommit, CharterRow, CharterTable, NewEvent};
use crate::storage::documents::{Document, SignedDocument};
use crate::storage::{DocumentKind, StorageError, Store};

/// Where a charter document's number comes from.
pub enum Numbering {
    /// The next number of a series, reserved now and issued with the document.
    Reserve(&'static str),
    /// The number of the record the document prints (an auto's own number).
    Fixed(String),
}

/// What a register document (every kind but the ride-hailing authorization and sticker) is
/// about and how it is rendered.
pub struct DocSpec {
    pub kind: DocumentKind,
    pub subject_type: &'static str,
    pub subject_id: Uuid,
    /// The charter company; `None` for ride-hailing documents.
    pub company_id: Option<Uuid>,
    /// `BDG-SIS` (charter) or `BDG-SMF` (ride-hailing), printed in the token.
    pub issuer: &'static str,
    pub numbering: Numbering,
    /// What the token's `p` carries: plate or CNPJ, never a CPF (the token is public).
    pub subject_key: Option<String>,
    pub valid_until: NaiveDate,
    pub template: &'static str,
    pub reason: &'static str,
    pub qr_mm: f64,
    pub facts: Option<serde_json::Value>,
    /// The version of the legal basis the document is issued under (invariant 4).
    pub legal_basis_version: String,
}

/// An act recorded with the document that issues it: on which entity, what, with which
/// details. The pipeline adds who, when and under which legal basis.
pub struct Act<'a> {
    pub entity_type: &'a str,
    pub entity_id: Uuid,
    pub kind: &'a str,
    pub data: serde_json::Value,
    /// Why, for an act that needs a reason (a rectification).
    pub reason: Option<&'a str>,
}

impl<'a> Act<'a> {
    pub fn new(
        entity_type: &'a str,
        entity_id: Uuid,
        kind: &'a str,
        data: serde_json::Value,
    ) -> Self {
        Self {
            entity_type,
            entity_id,
            kind,
            data,
            reason: None,
        }
    }
}

/// Issues one signed charter document: number ▶ token ▶ QR ▶ render ▶ PAdES ▶ one
/// transaction with `row(number)` and `events(number)`. A reserved number that is not
/// issued is voided; nothing half-written remains.
pub async fn issue_document<'a>(
    state: &AppState,
    spec: DocSpec,
    actor: &'a str,
    inputs: impl FnOnce(&str, &str, f64) -> serde_json::Value,
    row: impl FnOnce(&str) -> Result<Option<(CharterTable, CharterRow)>, UseCaseError>,
    events: impl FnOnce(&str) -> Vec<Act<'a>>,
) -> Result<Document, UseCaseError> {
    let now = state.clock.now();
    let today = local_date(now);
    let (number, reserved) = match spec.numbering {
        Numbering::Reserve(series) => {
            let r = state
                .store
                .reserve_number(series, today.year(), now, actor)
                .await?;
            (r.number, true)
        }
        Numbering::Fixed(n) => (n, false),
    };
    let result = async {
        let identity = Identity {
            kind: spec.kind,
            number: number.clone(),
            subject_type: spec.subject_type.to_owned(),
            subject_id: spec.subject_id,
            company_id: spec.company_id,
            authorization_id: None,
            substitution_seq: None,
            subject_key: spec.subject_key.unwrap_or_else(|| number.clone()),
            valid_until: spec.valid_until,
            issuer: spec.issuer,
            legal_basis_version: spec.legal_basis_version.clone(),
            facts: spec.facts,
            issued_by: actor.to_owned(),
        };
        let signed = sign_document(state, identity, spec.template, spec.reason, now, |marks| {
            inputs(&number, &marks.code, marks.qr.printed_width_mm(spec.qr_mm))
        })
        .await?;
        let document = signed.document.clone();
        state
            .store
            .charter_commit(CharterCommit {
                unchanged_since: None,
                row: row(&number)?,
                issue_number: reserved.then_some(number.as_str()),
                documents: vec![signed],
                events: events(&number)
                    .into_iter()
                    .map(|a| NewEvent {
                        reason: a.reason,
                        ..NewEvent::act(
                            a.entity_type,
                            a.entity_id,
                            a.kind,
                            actor,
                            &spec.legal_basis_version,
                            now,
                            a.data,
                        )
                    })
                    .collect(),
            })
            .await?;
        Ok::<_, UseCaseError>(document)
    }
    .await;
    if let (Err(e), true) = (&result, reserved) {
        void(state, &number, e).await;
    }
    result
}

/// AMB-03: the UPF value of the year an auto drawn up at `drawn_up_at` was drawn up, with the
/// decree that set it (the notice cites both); `None` until it is registered.
pub(crate) async fn upf_when_drawn_up(
    state: &AppState,
    drawn_up_at: DateTime<Utc>,
) -> Result<Option<crate::documents::auto_notice::UpfOfYear>, UseCaseError> {
    let year = chrono::Datelike::year(&crate::domain::dates::local_date(drawn_up_at));
    Ok(state.store.upf_entry(year).await?.map(|(centavos, act)| {
        crate::documents::auto_notice::UpfOfYear {
            year,
            centavos,
            act,
        }
    }))
}

/// Invariant 2: a reserved number whose document was not committed ends voided, with the
/// reason the failure gives, never silently lost or reused.
pub(crate) async fn void(state: &AppState, number: &str, failure: &UseCaseError) {
    let reason = match failure {
        UseCaseError::Storage(StorageError::Conflict(_)) => "conflito ao gravar o ato",
        UseCaseError::Render(_) | UseCaseError::PdfSignature(_) | UseCaseError::Encoding => {
            "falha ao gerar o documento"
        }
        UseCaseError::Timestamp(_) => "carimbo do tempo indisponível",
        UseCaseError::SignerRevoked(_) => "certificado da Prefeitura revogado",
        _ => "falha ao emitir o documento",
    };
    if let Err(e) = state
        .store
        .void_number(number, reason, state.clock.now())
        .await
    {
        tracing::error!(number, error = %e, "could not void a reserved number");
    }
}

/// The rows a certidão prints: item, situation, validity (`—` when none).
pub(crate) fn certified_rows(items: &[CertifiedItem]) -> Vec<[String; 3]> {
    items
        .iter()
        .map(|i| {
            [
                i.item.clone(),
                i.situation.clone(),
                i.valid_until.map_or_else(|| "—".to_owned(), format::date),
            ]
        })
        .collect()
}

/// What a document says about itself, in its token and in its row.
pub(crate) struct Identity {
    pub kind: DocumentKind,
    pub number: String,
    pub subject_type: String,
    pub subject_id: Uuid,
    pub company_id: Option<Uuid>,
    pub authorization_id: Option<Uuid>,
    pub substitution_seq: Option<i32>,
    /// What the token's `p` carries: plate, CNPJ or number, never a CPF (the token is public).
    pub subject_key: String,
    pub valid_until: NaiveDate,
    /// `BDG-SIS` (charter) or `BDG-SMF` (ride-hailing), printed in the token.
    pub issuer: &'static str,
    pub legal_basis_version: String,
    pub facts: Option<serde_json::Value>,
    /// The official who issues it (every act is signed by a person).
    pub issued_by: String,
}

/// The one signing step of every document kind: token ▶ QR and printed code ▶ render
/// (`inputs` gets the marks) ▶ PAdES. Returns the row to store with the signed bytes.
pub(crate) async fn sign_document(
    state: &AppState,
    identity: Identity,
    template: &'static str,
    reason: &'static str,
    now: DateTime<Utc>,
    inputs: impl FnOnce(&Marks) -> serde_json::Value,
) -> Result<SignedDocument, UseCaseError> {
    let id = Uuid::new_v4();
    let payload = TokenPayload {
        kind: identity.kind.as_str().to_owned(),
        document_id: id,
        number: identity.number.clone(),
        plate: identity.subject_key.clone(),
        issued_at: now.timestamp(),
        valid_until: identity.valid_until,
        issuer: identity.issuer.to_owned(),
    };
    let code = fresh_verification_code(&state.store, documents::new_verification_code).await?;
    let marks = mark(state, &payload, code)?;
    let inputs = inputs(&marks);
    let started = std::time::Instant::now();
    let SignedPdf {
        pdf,
        sha256,
        untimestamped,
    } = render_signed(state, template, inputs, marks.qr.svg.clone(), reason, now).await?;
    state
        .metrics
        .signed(identity.kind.as_str(), started.elapsed().as_secs_f64());
    Ok(SignedDocument {
        document: Document {
            id,
            kind: identity.kind,
            subject_type: identity.subject_type,
            subject_id: identity.subject_id,
            company_id: identity.company_id,
            authorization_id: identity.authorization_id,
            substitution_seq: identity.substitution_seq,
            number: identity.number,
            verification_code: marks.code,
            token: marks.token,
            key_id: state.keys.active.kid().to_owned(),
            sha256,
            subject_key: identity.subject_key,
            valid_until: Some(identity.valid_until),
            legal_basis_version: identity.legal_basis_version,
            issued_at: now,
            facts: identity.facts,
            issued_by: Some(identity.issued_by),
            profile_version: Some(state.letterhead.profile.version.clone()),
        },
        pdf,
        untimestamped,
    })
}

/// Renders and signs the authorization or the sticker of a ride-hailing authorization, for
/// the grant or for car replacement `substitution_seq`.
pub(crate) async fn issue_ride_hailing_document(
    state: &AppState,
    ctx: &RideHailingDocumentContext<'_>,
    kind: DocumentKind,
    substitution_seq: Option<i32>,
    now: DateTime<Utc>,
    actor: &str,
) -> Result<SignedDocument, UseCaseError> {
    let a = ctx.authorization;
    let template = match kind {
        DocumentKind::RideHailingSticker => "app_sticker.typ",
        DocumentKind::RideHailingAuthorization => "app_authorization.typ",
        // Every other kind is issued by `issue_document`.
        DocumentKind::CharterTermo
        | DocumentKind::CharterSelo
        | DocumentKind::CharterAuto
        | DocumentKind::CharterCertidao
        | DocumentKind::RideHailingAuto
        | DocumentKind::RideHailingCertidao => {
            return Err(UseCaseError::Internal(
                "a register document kind sent to the ride-hailing pipeline",
            ));
        }
    };
    let identity = Identity {
        kind,
        number: a.number.clone(),
        subject_type: "app_authorization".to_owned(),
        subject_id: a.id,
        company_id: None,
        authorization_id: Some(a.id),
        substitution_seq,
        subject_key: ctx.vehicle.plate.as_str().to_owned(),
        valid_until: a.valid_until,
        issuer: RIDE_HAILING_ISSUER,
        legal_basis_version: a.legal_basis_version.clone(),
        facts: None,
        issued_by: actor.to_owned(),
    };
    sign_document(state, identity, template, kind.label_pt(), now, |marks| {
        if kind == DocumentKind::RideHailingSticker {
            ctx.sticker_inputs(&marks.code, &marks.qr)
        } else {
            ctx.authorization_inputs(&marks.code, &marks.qr)
        }
    })
    .await
}

/// What identifies a document to whoever holds it: the signed token, its QR code and the
/// short verification code.
pub(crate) struct Marks {
    pub token: String,
    pub qr: Qr,
    pub code: String,
}

/// Signs the token of `payload` and builds its QR code; `code` is the printed code.
pub(crate) fn mark(
    state: &AppState,
    payload: &TokenPayload,
    code: String,
) -> Result<Marks, UseCaseError> {
    let token = token::sign(payload, &state.keys.active);
    let url = verification_url(&state.letterhead.public_url, &token);
    let qr = Qr::for_document(&payload.kind, &url).ok_or(UseCaseError::Encoding)?;
    Ok(Marks { token, qr, code })
}

/// How many printed codes are drawn before giving up. A code has 40 random bits, so in a
/// register of a million documents one draw in a million is already taken; eight taken in a
/// row would mean a broken random source, not bad luck.
pub const CODE_DRAWS: usize = 8;

/// A printed verification code no document of the register carries, from `draw` (the random
/// draw; a test passes its own). Checked before the code is printed on the PDF, so a code
/// drawn twice costs one more draw rather than a refused issuance; the unique index on the
/// documents still refuses the two issuances that could draw the same new code at once.
pub async fn fresh_verification_code(
    store: &Store,
    mut draw: impl FnMut() -> Option<String>,
) -> Result<String, UseCaseError> {
    for _ in 0..CODE_DRAWS {
        let code = draw().ok_or(UseCaseError::Encoding)?;
        if !store.verification_code_taken(&code).await? {
            return Ok(code);
        }
        tracing::warn!("a verification code drawn is already printed on a document: drawing again");
    }
    Err(UseCaseError::Internal(
        "every verification code drawn is already taken",
    ))
}

/// A signed PDF.
pub(crate) struct SignedPdf {
    pub pdf: Vec<u8>,
    /// Its SHA-256, lower-case hex.
    pub sha256: String,
    /// Why the signature carries no timestamp although an authority is configured (it did
    /// not answer and `SELO_TSA_FALLBACK=issue-without`); the history records it.
    pub untimestamped: Option<String>,
}

/// Renders `template` (blocking pool) and embeds the PAdES signature.
pub(crate) async fn render_signed(
    state: &AppState,
    template: &'static str,
    inputs: serde_json::Value,
    qr_svg: String,
    reason: &'static str,
    now: DateTime<Utc>,
) -> Result<SignedPdf, UseCaseError> {
    let unsigned = state
        .renderer
        .render(template, inputs, Some(qr_svg), now)
        .await?;
    sign_rendered(state, unsigned, reason, now).await
}

/// Embeds the PAdES signature in a rendered PDF, off the async workers; with a
/// time-stamping authority configured, with its timestamp over the signature (B-T).
pub(crate) async fn sign_rendered(
    state: &AppState,
    unsigned: Vec<u8>,
    reason: &'static str,
    now: DateTime<Utc>,
) -> Result<SignedPdf, UseCaseError> {
    let untimestamped = match &state.tsa {
        None => None,
        Some(tsa) => {
            let prepared = prepare(state, unsigned.clone(), reason, now, true).await?;
            match tsa.stamp(prepared.value()).await {
                Ok(stamp) => {
                    let tsa_certs = crate::signing::timestamp::certificates_of(&stamp.token);
                    let pdf =
                        tokio::task::spawn_blocking(move || prepared.finish(Some(&stamp.token)))
                            .await
                            .map_err(|_| UseCaseError::Encoding)??;
                    state.metrics.timestamp("stamped");
                    let pdf = with_validation_data(state, pdf, tsa_certs).await?;
                    return Ok(signed_pdf(pdf, None));
                }
                Err(e) if tsa.settings.fallback == Fallback::IssueWithout => {
                    state.metrics.timestamp("issued_without");
                    tracing::warn!(error = %e, "no signature timestamp: issuing without one, as configured");
                    Some(e.to_string())
                }
                Err(e) => {
                    state.metrics.timestamp("refused");
                    return Err(e.into());
                }
            }
        }
    };
    let prepared = prepare(state, unsigned, reason, now, false).await?;
    let pdf = tokio::task::spawn_blocking(move || prepared.finish(None))
        .await
        .map_err(|_| UseCaseError::Encoding)??;
    let pdf = with_validation_data(state, pdf, Vec::new()).await?;
    Ok(signed_pdf(pdf, untimestamped))
}

/// PAdES B-LT: when the signer's certificates name revocation lists (or OCSP responders),
/// the lists (or answers) and the certificates (the signer's chain, and the time-stamping
/// authority's) go into the PDF's Document Security Store. Data that cannot be had in time
/// leaves the document without it (said in the log and the metrics); data that names the
/// signer as revoked stops the issuance.
async fn with_validation_data(
    state: &AppState,
    pdf: Vec<u8>,
    tsa_certs: Vec<x509_cert::certificate::Certificate>,
) -> Result<Vec<u8>, UseCaseError> {
    use crate::signing::revocation::RevocationError;
    let signer = state.keys.pdf_signer().certificates();
    match state.revocation.dss_contents(signer, tsa_certs).await {
        Ok(None) => Ok(pdf),
        Ok(Some(data)) => {
            let pdf = tokio::task::spawn_blocking(move || pades::add_dss(&pdf, &data))
                .await
                .map_err(|_| UseCaseError::Encoding)??;
            state.metrics.validation_data("embedded");
            Ok(pdf)
        }
        Err(e @ RevocationError::Revoked { .. }) => Err(UseCaseError::SignerRevoked(e)),
        Err(e) => {
            state.metrics.validation_data("unavailable");
            tracing::warn!(error = %e, "no revocation data: the document is issued without its DSS");
            Ok(pdf)
        }
    }
}

fn signed_pdf(pdf: Vec<u8>, untimestamped: Option<String>) -> SignedPdf {
    let sha256 = crate::signing::hex(&Sha256::digest(&pdf));
    SignedPdf {
        pdf,
        sha256,
        untimestamped,
    }
}

/// The PAdES signature of `unsigned`, made on the blocking pool, before its CMS is written.
async fn prepare(
    state: &AppState,
    unsigned: Vec<u8>,
    reason: &'static str,
    now: DateTime<Utc>,
    timestamped: bool,
) -> Result<pades::PreparedSignature, UseCaseError> {
    let keys = state.keys.clone();
    let profile = state.letterhead.profile.clone();
    Ok(tokio::task::spawn_blocking(move || {
        let info = SignatureInfo {
            time: now,
            name: &profile.prefeitura.name,
            reason,
            location: &profile.prefeitura.city,
        };
        pades::prepare_signature(&unsigned, &keys.pdf_signer(), &info, timestamped)
    })
    .await
    .map_err(|_| UseCaseError::Encoding)??)
}
