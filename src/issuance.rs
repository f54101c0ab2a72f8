//! Use case: grant a ride-hailing authorization and issue its documents.
//!
//! reserve number ▶ build presentation inputs ▶ render (blocking pool) ▶ sign token ▶ place
//! QR ▶ store bytes + SHA-256 ▶ commit (one transaction with the decision and its event).
//! Nothing is signed that the rules did not accept; a reserved number that is not issued is
//! voided, so every number ends issued or voided.

use chrono::{DateTime, Datelike, Utc};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::documents::render::RenderError;
use crate::documents::{self, APP_ISSUER, AppDocumentContext, Qr};
use crate::domain::dates::local_date;
use crate::domain::ride_hailing::registry::AppAuthorization;
use crate::domain::ride_hailing::{GrantFacts, decide_grant};
use crate::domain::rule::RuleFailure;
use crate::signing::pades::{self, PadesError, SignatureInfo};
use crate::signing::token::{self, TokenPayload};
use crate::state::AppState;
use crate::storage::{DocumentKind, NewDocument, NewGrant, Repository, StorageError};
use crate::verification::deregistered_on;

/// The series of ride-hailing authorization numbers.
pub const APP_SERIES: &str = "APP";

#[derive(Debug, thiserror::Error)]
pub enum GrantError {
    #[error("legal requirements not met")]
    Rules(Vec<RuleFailure>),
    #[error("{0} not found")]
    Missing(&'static str),
    #[error(transparent)]
    Storage(#[from] StorageError),
    #[error(transparent)]
    Render(#[from] RenderError),
    #[error(transparent)]
    PdfSignature(#[from] PadesError),
    #[error("could not build the QR code or verification code")]
    Encoding,
}

/// A granted authorization with its documents.
#[derive(Debug, Clone)]
pub struct Granted {
    pub authorization: AppAuthorization,
    pub documents: Vec<NewDocument>,
}

/// The URL a QR code carries.
pub fn verification_url(public_url: &str, token: &str) -> String {
    format!("{public_url}/v/{token}")
}

/// Grants an authorization (APP-ART3, APP-ART8) and issues the authorization and the
/// windshield sticker (APP-ART14).
pub async fn grant_app_authorization(
    state: &AppState,
    driver_id: Uuid,
    vehicle_id: Uuid,
    fee_paid_on: chrono::NaiveDate,
    actor: &str,
) -> Result<Granted, GrantError> {
    let store = &state.store;
    let driver = store.get_driver(driver_id).await?;
    let vehicle = store.get_vehicle(vehicle_id).await?;
    let (driver, vehicle) = match (driver, vehicle) {
        (Some(d), Some(v)) => (d, v),
        (None, _) => return Err(GrantError::Missing("driver")),
        (_, None) => return Err(GrantError::Missing("vehicle")),
    };
    let now = state.clock.now();
    let today = local_date(now);
    let (driver_active, vehicle_active) = store
        .active_authorization_flags(driver_id, vehicle_id, now)
        .await?;
    let facts = GrantFacts {
        driver: driver.facts(),
        vehicle: vehicle.facts(),
        fee_paid_on,
        today,
        driver_has_active_authorization: driver_active,
        vehicle_has_active_authorization: vehicle_active,
        driver_deregistered_since: deregistered_on(state, "driver", driver_id, today).await?,
        vehicle_deregistered_since: deregistered_on(state, "vehicle", vehicle_id, today).await?,
    };
    let decision = decide_grant(&facts, &state.app_basis).map_err(GrantError::Rules)?;

    let reserved = store.reserve_number(APP_SERIES, today.year(), now).await?;
    let authorization = AppAuthorization {
        id: Uuid::new_v4(),
        number: reserved.number.clone(),
        driver_id,
        vehicle_id,
        fee_paid_on,
        valid_from: decision.valid_from,
        valid_until: decision.valid_until,
        legal_basis_version: decision.legal_basis_version.to_owned(),
        granted_at: now,
        granted_by: actor.to_owned(),
        revocation: None,
        substitutions: 0,
    };
    let ctx = AppDocumentContext {
        authorization: &authorization,
        driver: &driver,
        vehicle: &vehicle,
        basis: &state.app_basis,
        letterhead: &state.letterhead,
        issued_at: now,
    };
    let result = async {
        let mut docs = Vec::with_capacity(2);
        for kind in [DocumentKind::AppAuthorization, DocumentKind::AppSticker] {
            docs.push(issue_document(state, &ctx, kind, now).await?);
        }
        let grant = NewGrant {
            authorization: authorization.clone(),
            documents: docs,
        };
        store.commit_grant(&grant).await?;
        Ok::<_, GrantError>(grant.documents)
    }
    .await;
    match result {
        Ok(documents) => Ok(Granted {
            authorization,
            documents,
        }),
        Err(e) => {
            // Invariant 2: the reserved number ends voided, never silently lost or reused.
            let reason = match &e {
                GrantError::Storage(StorageError::Conflict(_)) => "conflito ao gravar a concessão",
                GrantError::Render(_) | GrantError::PdfSignature(_) | GrantError::Encoding => {
                    "falha ao gerar os documentos"
                }
                _ => "falha ao gravar a concessão",
            };
            if let Err(void_err) = store
                .void_number(&reserved.number, reason, state.clock.now())
                .await
            {
                tracing::error!(number = %reserved.number, error = %void_err, "could not void a reserved number");
            }
            match e {
                GrantError::Storage(StorageError::Conflict("active_authorization")) => {
                    // Someone else was granted meanwhile: report it as the rule it is.
                    let facts = GrantFacts {
                        driver_has_active_authorization: true,
                        ..facts
                    };
                    Err(decide_grant(&facts, &state.app_basis)
                        .err()
                        .map_or(GrantError::Missing("driver"), GrantError::Rules))
                }
                other => Err(other),
            }
        }
    }
}

/// Renders and signs one document of a grant.
pub(crate) async fn issue_document(
    state: &AppState,
    ctx: &AppDocumentContext<'_>,
    kind: DocumentKind,
    now: DateTime<Utc>,
) -> Result<NewDocument, GrantError> {
    let a = ctx.authorization;
    let id = Uuid::new_v4();
    let payload = TokenPayload {
        kind: kind.as_str().to_owned(),
        document_id: id,
        number: a.number.clone(),
        plate: ctx.vehicle.plate.as_str().to_owned(),
        issued_at: now.timestamp(),
        valid_until: a.valid_until,
        issuer: APP_ISSUER.to_owned(),
    };
    let marks = mark(state, &payload)?;
    let (template, inputs) = match kind {
        DocumentKind::AppSticker => (
            "app_sticker.typ",
            ctx.sticker_inputs(&marks.code, &marks.qr),
        ),
        DocumentKind::AppAuthorization => (
            "app_authorization.typ",
            ctx.authorization_inputs(&marks.code, &marks.qr),
        ),
        // Charter documents are issued by `charter_register`.
        DocumentKind::CharterTermo
        | DocumentKind::CharterSelo
        | DocumentKind::CharterAuto
        | DocumentKind::CharterCertidao
        | DocumentKind::AppAuto
        | DocumentKind::AppCertidao => {
            return Err(GrantError::Missing("ride-hailing document kind"));
        }
    };
    let (pdf, sha256) =
        render_signed(state, template, inputs, marks.qr.svg, kind.label_pt(), now).await?;
    Ok(NewDocument {
        id,
        kind,
        authorization_id: a.id,
        number: a.number.clone(),
        verification_code: marks.code,
        token: marks.token,
        key_id: state.keys.active.kid().to_owned(),
        pdf,
        sha256,
        legal_basis_version: a.legal_basis_version.clone(),
        issued_at: now,
    })
}

/// What identifies a document to whoever holds it: the signed token, its QR code and the
/// short verification code.
pub(crate) struct Marks {
    pub token: String,
    pub qr: Qr,
    pub code: String,
}

/// Signs the token of `payload` and builds its QR code and a fresh verification code.
pub(crate) fn mark(state: &AppState, payload: &TokenPayload) -> Result<Marks, GrantError> {
    let token = token::sign(payload, &state.keys.active);
    let url = verification_url(&state.letterhead.public_url, &token);
    let qr = Qr::new(&url).ok_or(GrantError::Encoding)?;
    let code = documents::new_verification_code().ok_or(GrantError::Encoding)?;
    Ok(Marks { token, qr, code })
}

/// Renders `template` (blocking pool) and embeds the PAdES signature; returns the signed
/// bytes and their SHA-256 (lower-case hex).
pub(crate) async fn render_signed(
    state: &AppState,
    template: &'static str,
    inputs: serde_json::Value,
    qr_svg: String,
    reason: &'static str,
    now: DateTime<Utc>,
) -> Result<(Vec<u8>, String), GrantError> {
    let unsigned = state
        .renderer
        .render(template, inputs, Some(qr_svg), now)
        .await?;
    // PAdES B-B signature inside the PDF, off the async workers too.
    let keys = state.keys.clone();
    let pdf = tokio::task::spawn_blocking(move || {
        let info = SignatureInfo {
            time: now,
            name: "Prefeitura Municipal de Barra do Garças",
            reason,
            location: "Barra do Garças-MT",
        };
        pades::sign_pdf(&unsigned, &keys.active, &keys.chain, &info)
    })
    .await
    .map_err(|_| GrantError::Encoding)??;
    let sha256 = crate::signing::hex(&Sha256::digest(&pdf));
    Ok((pdf, sha256))
}
