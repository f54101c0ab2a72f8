//! Verification: the signature (offline, never needs the database) and then the live status
//! (needs the database). When the database is unreachable the answer says so plainly.

pub mod cache;
pub mod documents;
pub mod inspector;
pub mod resident;
pub mod status_list;
pub mod validator;

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;

use crate::documents::CodeError;
use crate::domain::charter::CharterStatus;
use crate::domain::ride_hailing::AuthorizationStatus;
use crate::domain::ride_hailing::sanctions::authorization_status;
use crate::domain::ride_hailing::substitution::superseded;
use crate::signing::keys::KeySet;
use crate::signing::token;
use crate::signing::token::{TokenError, TokenPayload};
use crate::standing::ride_hailing::{
    STANDING_AUTHORIZATION_KINDS, STANDING_REGISTER_KIND, standing_of,
};
use crate::state::AppState;
use crate::storage::documents::Document;
use crate::storage::{DocumentKind, DocumentStatus, StorageError};
use documents::CharterDocumentStatus;

/// The verdict on a scanned token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Signed by the city, in the register, in force.
    Valid,
    /// Authentic, but past its last day (America/Cuiaba).
    Expired,
    /// Authentic, but revoked (by revocation or cassação).
    Revoked,
    /// Authentic, but suspended now; `document.suspended_until` says until when.
    Suspended,
    /// Authentic, but the car it names was replaced (art. 8º, §2º): this sticker or
    /// authorization no longer authorizes any car; the new car carries a new one.
    Replaced,
    /// Authentic and in force, but what it certified no longer holds (a certidão whose
    /// subject changed since issue): ask for a new one.
    Outdated,
    /// Authentic, but a requirement has lapsed (vistoria pending, ITV, insurance, the
    /// company's Termo): the vehicle may not operate now.
    Irregular,
    /// The signature does not match: forged or altered.
    InvalidSignature,
    /// Signed by a key the city never published.
    UnknownKey,
    /// Not a selo token at all.
    Malformed,
    /// Authentic signature, but the register has no matching document: do not trust it.
    UnknownDocument,
    /// Authentic signature, but the register could not be reached to check the status.
    StatusUnavailable,
}

impl Verdict {
    pub const ALL: [Verdict; 12] = [
        Self::Valid,
        Self::Expired,
        Self::Revoked,
        Self::Suspended,
        Self::Replaced,
        Self::Irregular,
        Self::Outdated,
        Self::InvalidSignature,
        Self::UnknownKey,
        Self::Malformed,
        Self::UnknownDocument,
        Self::StatusUnavailable,
    ];

    /// The verdict of its wire name (`valid`, `suspended`, …).
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == s)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Valid => "valid",
            Self::Expired => "expired",
            Self::Revoked => "revoked",
            Self::Suspended => "suspended",
            Self::Replaced => "replaced",
            Self::Irregular => "irregular",
            Self::Outdated => "outdated",
            Self::InvalidSignature => "invalid_signature",
            Self::UnknownKey => "unknown_key",
            Self::Malformed => "malformed",
            Self::UnknownDocument => "unknown_document",
            Self::StatusUnavailable => "status_unavailable",
        }
    }
}

/// The live status of a document, in the words of its law.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum LiveStatus {
    RideHailing(AuthorizationStatus),
    Charter(CharterStatus),
}

impl LiveStatus {
    pub fn label_pt(self) -> &'static str {
        match self {
            Self::RideHailing(s) => s.label_pt(),
            Self::Charter(s) => s.label_pt(),
        }
    }
}

/// What the public tier may see of a document (LGPD art. 6º, III: no name, no CPF; a
/// company's name and CNPJ are public).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PublicDocument {
    pub kind: DocumentKind,
    pub number: String,
    /// The plate (vehicle documents) or the CNPJ (the Termo of a company), formatted.
    pub plate: String,
    pub valid_until: NaiveDate,
    pub status: LiveStatus,
    /// The charter company, for charter documents.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub company: Option<String>,
    /// Certidões: whether what was certified at issue still holds now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facts_hold: Option<bool>,
    /// While suspended: the day the authorization is reinstated (DL-9).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suspended_until: Option<NaiveDate>,
    /// The vehicle, as a passenger sees it: the car of a ride-hailing authorization
    /// or sticker, the bus of a selo de vistoria.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vehicle: Option<PublicVehicle>,
    /// The driver of a ride-hailing authorization or sticker, as a passenger needs to
    /// recognise them: the first name and, while the verdict is `valid`, the photo.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub driver: Option<PublicDriver>,
}

/// What a passenger compares with the vehicle in front of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct PublicVehicle {
    pub make: String,
    pub model: String,
    /// The colour on the CRLV (ride-hailing cars).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// `Ônibus` or `Micro-ônibus` (charter).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
}

/// What a passenger needs to recognise the driver (LGPD art. 6º, III: the first name only).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct PublicDriver {
    pub first_name: String,
    /// Where the photo is served, relative to the service (`/api/v1/verify/{token}/photo`):
    /// only while the authorization is in force and a photo is on file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub photo_url: Option<String>,
}

/// The first name of a full name, capitalised as a name (`JOÃO DA SILVA` → `João`).
pub fn first_name(full: &str) -> String {
    let word = full.split_whitespace().next().unwrap_or_default();
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase()
            .chain(chars.flat_map(char::to_lowercase))
            .collect()
    })
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Verification {
    pub verdict: Verdict,
    pub checked_at: DateTime<Utc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document: Option<PublicDocument>,
    /// Why the document is not trusted, when the verdict alone does not say it (a retired
    /// key: since when and why), or that its status is unavailable now, in Portuguese.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// With `status_unavailable` only: the last status this node read of the document, no
    /// act having changed the register since (then `document` is that status too).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_known: Option<LastKnown>,
    /// The inspector tier: the full record, only for an official who may read the
    /// document's register (`Authorization: Bearer` or a back-office session).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record: Option<inspector::InspectorRecord>,
}

/// The last status read of a document, shown while the register cannot be reached.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct LastKnown {
    /// The verdict the register gave then.
    pub verdict: Verdict,
    /// When it was read.
    pub as_of: DateTime<Utc>,
    /// How many seconds before this answer.
    pub age_seconds: i64,
}

impl Verification {
    fn unavailable(now: DateTime<Utc>) -> Self {
        Self {
            verdict: Verdict::StatusUnavailable,
            checked_at: now,
            document: None,
            reason: Some(
                "Assinatura conferida; a situação do documento está indisponível no momento. Tente de novo em instantes."
                    .into(),
            ),
            last_known: None,
            record: None,
        }
    }

    /// This unavailable answer with the last known status beside it.
    fn with_last_known(self, last: LastKnown, document: PublicDocument) -> Self {
        let minutes = last.age_seconds / 60;
        let age = match minutes {
            0 => "há menos de um minuto".to_owned(),
            1 => "há 1 minuto".to_owned(),
            m => format!("há {m} minutos"),
        };
        let reason = format!(
            "Assinatura conferida; a situação do documento está indisponível no momento. Última situação conhecida, consultada {age} (às {}, horário de Cuiabá): {}. Tente de novo em instantes.",
            crate::documents::format::time_local(last.as_of),
            document.status.label_pt()
        );
        Self {
            reason: Some(reason),
            document: Some(document),
            last_known: Some(last),
            ..self
        }
    }
}

/// Whether the register's view of a ride-hailing document is the one the token describes.
fn token_matches_status(payload: &TokenPayload, status: &DocumentStatus) -> bool {
    payload.kind == status.meta.kind.as_str()
        && payload.number == status.meta.number
        && payload.plate == status.plate.as_str()
        && payload.valid_until == status.valid_until
}

/// The register's joined view of a ride-hailing document agrees with its row: the car it
/// names and the authorization's validity.
fn same_car_and_validity(doc: &Document, status: &DocumentStatus) -> bool {
    doc.subject_key == status.plate.as_str() && doc.valid_until == Some(status.valid_until)
}

/// Verdict of the live status of a document found in the register. `inspection` is what
/// the vistorias say (APP-ART9, APP-ART16, APP-ART26-II) when they bar an otherwise active
/// authorization.
pub fn live_verdict(
    status: &DocumentStatus,
    inspection: Option<AuthorizationStatus>,
    now: DateTime<Utc>,
) -> (Verdict, PublicDocument) {
    let (s, suspended_until) = authorization_status(
        status.valid_until,
        status.revoked_at,
        &status.sanctions,
        inspection,
        now,
    );
    let verdict = match s {
        AuthorizationStatus::Ativa => Verdict::Valid,
        AuthorizationStatus::Vencida => Verdict::Expired,
        AuthorizationStatus::Revogada
        | AuthorizationStatus::Cassada
        | AuthorizationStatus::Caducada
        | AuthorizationStatus::Descadastrada => Verdict::Revoked,
        AuthorizationStatus::Suspensa => Verdict::Suspended,
        AuthorizationStatus::Impedida
        | AuthorizationStatus::VistoriaVencida
        | AuthorizationStatus::VeiculoDescadastrado => Verdict::Irregular,
    };
    // APP-ART8-P2: a document of a replaced car authorizes nothing, whatever the
    // authorization's standing; a verdict worse than that (revoked, expired…) still wins.
    let replaced = superseded(status.substitution_seq, status.latest_substitution);
    let verdict = if replaced && verdict == Verdict::Valid {
        Verdict::Replaced
    } else {
        verdict
    };
    let first_name = first_name(&status.driver_name);
    let doc = RideHailingShown {
        kind: status.meta.kind,
        number: &status.meta.number,
        plate: &status.plate,
        valid_until: status.valid_until,
        token: &status.meta.token,
        status: s,
        suspended_until,
        make: &status.car.make,
        model: &status.car.model,
        color: Some(&status.car.color),
        first_name: Some(&first_name),
        photo: status.driver_photo,
    }
    .document(verdict);
    (verdict, doc)
}

/// What the public tier shows of a ride-hailing authorization or sticker: the token's own
/// fields, the authorization's status and what a passenger compares with the car and the
/// driver in front of them. One shape whether read from the register or kept in memory.
pub(crate) struct RideHailingShown<'a> {
    pub kind: DocumentKind,
    pub number: &'a str,
    pub plate: &'a crate::domain::ids::Plate,
    pub valid_until: NaiveDate,
    /// The document's own signed token (the photo's URL carries it).
    pub token: &'a str,
    pub status: AuthorizationStatus,
    pub suspended_until: Option<NaiveDate>,
    pub make: &'a str,
    pub model: &'a str,
    pub color: Option<&'a str>,
    /// The driver's first name (shown only while the verdict is `valid`).
    pub first_name: Option<&'a str>,
    /// Whether a photo of the driver is on file.
    pub photo: bool,
}

impl RideHailingShown<'_> {
    pub(crate) fn document(&self, verdict: Verdict) -> PublicDocument {
        PublicDocument {
            kind: self.kind,
            number: self.number.to_owned(),
            plate: self.plate.formatted(),
            valid_until: self.valid_until,
            status: LiveStatus::RideHailing(self.status),
            company: None,
            facts_hold: None,
            suspended_until: self.suspended_until,
            vehicle: Some(PublicVehicle {
                make: self.make.to_owned(),
                model: self.model.to_owned(),
                color: self.color.map(str::to_owned),
                body: None,
            }),
            // The driver only while the authorization is in force (a passenger told
            // not to board needs no name); the photo's URL carries the document's own signed
            // token, so no one reaches a photo without the sticker.
            driver: (verdict == Verdict::Valid)
                .then_some(self.first_name)
                .flatten()
                .map(|first_name| PublicDriver {
                    first_name: first_name.to_owned(),
                    photo_url: self
                        .photo
                        .then(|| format!("/api/v1/verify/{}/photo", self.token)),
                }),
        }
    }
}

/// Verdict of the live status of a charter document (Lei 4.937/2025), with the change
/// log's scope of that status.
pub fn charter_verdict(
    doc: &Document,
    live: CharterDocumentStatus,
) -> Option<(Verdict, PublicDocument, String)> {
    let verdict = match live.status {
        CharterStatus::Vencido if doc.kind == DocumentKind::CharterCertidao => Verdict::Expired,
        _ if live.facts_hold == Some(false) => Verdict::Outdated,
        _ if live.facts_hold == Some(true) => Verdict::Valid,
        CharterStatus::Ativo => Verdict::Valid,
        CharterStatus::Vencido | CharterStatus::VidaUtilVencida => Verdict::Expired,
        CharterStatus::Cassado | CharterStatus::Baixado | CharterStatus::Anulado => {
            Verdict::Revoked
        }
        CharterStatus::Suspenso => Verdict::Suspended,
        CharterStatus::Irregular
        | CharterStatus::PendenteVistoria
        | CharterStatus::PendenteAutorizacao => Verdict::Irregular,
    };
    Some((
        verdict,
        PublicDocument {
            kind: doc.kind,
            number: doc.number.clone(),
            plate: live.subject,
            valid_until: doc.valid_until?,
            status: LiveStatus::Charter(live.status),
            company: live.company_name,
            suspended_until: live.suspended_until,
            facts_hold: live.facts_hold,
            vehicle: live.vehicle,
            driver: None,
        },
        live.scope,
    ))
}

/// Whether the register's document is the one the token describes (kind, number, subject,
/// validity), whatever its kind.
fn token_matches(payload: &TokenPayload, doc: &Document) -> bool {
    payload.kind == doc.kind.as_str()
        && payload.number == doc.number
        && payload.plate == doc.subject_key
        && Some(payload.valid_until) == doc.valid_until
}

/// A verdict read from the register, with the document as the public may see it and the
/// change log's scope its status belongs to (`None`: any change may alter it).
pub(crate) struct Judged {
    pub verdict: Verdict,
    pub document: Option<PublicDocument>,
    pub scope: Option<String>,
}

impl Judged {
    fn bare(verdict: Verdict) -> Self {
        Self {
            verdict,
            document: None,
            scope: None,
        }
    }
}

/// The live verdict of the register's document `doc`, if `matches` accepts it: the one
/// dispatch on the document kind.
async fn lookup(
    state: &AppState,
    doc: Result<Option<Document>, StorageError>,
    now: DateTime<Utc>,
    resident: Option<&resident::ResidentVerdicts>,
    matches: impl Fn(&Document) -> bool,
) -> Judged {
    let doc = match doc {
        Ok(Some(d)) if matches(&d) => d,
        Ok(_) => return Judged::bare(Verdict::UnknownDocument),
        Err(e) => {
            log_storage_error(&e);
            return Judged::bare(Verdict::StatusUnavailable);
        }
    };
    let live = match doc.kind {
        DocumentKind::RideHailingAuthorization | DocumentKind::RideHailingSticker => {
            ride_hailing_verdict_until(state, doc.id, now, None, resident, |s| {
                same_car_and_validity(&doc, s)
            })
            .await
        }
        DocumentKind::RideHailingCertidao => {
            documents::ride_hailing_certidao_verdict(state, &doc, now).await
        }
        DocumentKind::RideHailingAuto => documents::auto_verdict(state, &doc, now)
            .await
            .map(|live| live.and_then(|live| charter_verdict(&doc, live))),
        DocumentKind::CharterTermo
        | DocumentKind::CharterSelo
        | DocumentKind::CharterAuto
        | DocumentKind::CharterCertidao => documents::charter_verdict(state, &doc, now)
            .await
            .map(|live| live.and_then(|live| charter_verdict(&doc, live))),
    };
    outcome_of(live)
}

/// The verdict of a live-status read: unknown when the register has no such document.
fn outcome_of(live: Result<Option<(Verdict, PublicDocument, String)>, StorageError>) -> Judged {
    match live {
        Ok(Some((verdict, document, scope))) => Judged {
            verdict,
            document: Some(document),
            scope: Some(scope),
        },
        Ok(None) => Judged::bare(Verdict::UnknownDocument),
        Err(e) => {
            log_storage_error(&e);
            Judged::bare(Verdict::StatusUnavailable)
        }
    }
}

/// The ride-hailing authorization or sticker `id` now, if `matches` accepts the register's
/// view of it: its authorization's sanctions, register acts and vistorias, and whether a car
/// replacement superseded it. One query reads the document with its authorization, car,
/// sanctions and acts: the verification hot path. `replaced_until`: only the replacements of
/// the car in effect by then count (a reading as of a past instant); otherwise the verdict is
/// kept in `resident`, when given, for the day.
async fn ride_hailing_verdict_until(
    state: &AppState,
    id: uuid::Uuid,
    now: DateTime<Utc>,
    replaced_until: Option<DateTime<Utc>>,
    resident: Option<&resident::ResidentVerdicts>,
    matches: impl Fn(&DocumentStatus) -> bool,
) -> Result<Option<(Verdict, PublicDocument, String)>, StorageError> {
    // Read before the register: a verdict kept in memory is stale after any act logged later
    // (acts committed but not read yet included: they come after this point).
    let read_seq = state.store.changes().last_read();
    let Some((mut status, events)) = state
        .store
        .document_status_standing(id, STANDING_AUTHORIZATION_KINDS, STANDING_REGISTER_KIND)
        .await?
    else {
        return Ok(None);
    };
    if !matches(&status) {
        return Ok(None);
    }
    if let Some(until) = replaced_until {
        status.latest_substitution = state
            .store
            .latest_substitution_until(status.authorization_id, until)
            .await?;
    }
    let (inspection, _) = standing_of(state, &events, status.granted_at, now, None).await?;
    let (verdict, document) = live_verdict(&status, inspection, now);
    if let (None, Some(resident), Some(read_seq)) = (replaced_until, resident, read_seq) {
        resident.record(&status, read_seq, now, verdict, &document);
    }
    Ok(Some((verdict, document, format!("d:{}", status.driver_id))))
}

/// Verifies a scanned token at `now`.
pub async fn verify_token(
    raw: &str,
    keys: &KeySet,
    state: &AppState,
    cache: &cache::VerdictCache,
    now: DateTime<Utc>,
) -> Verification {
    let v = token_verdict(raw, keys, state, cache, now).await;
    state.metrics.verdict("token", v.verdict.as_str());
    v
}

async fn token_verdict(
    raw: &str,
    keys: &KeySet,
    state: &AppState,
    cache: &cache::VerdictCache,
    now: DateTime<Utc>,
) -> Verification {
    let changes = state.store.changes();
    if let Some(hit) = cache.fresh(raw, changes, now) {
        return hit;
    }
    let _turn = cache.compute_turn(raw).await;
    // Read before the register: a change logged after it makes what is computed here stale.
    // The log is in the register: when it does not answer in time, neither would the status.
    let read_seq =
        match tokio::time::timeout(STATUS_DEADLINE, state.store.changes_caught_up()).await {
            Ok(Ok(seq)) => seq,
            Ok(Err(e)) => {
                log_storage_error(&e);
                return unavailable_or_last_known(raw, cache, changes, now);
            }
            Err(_) => {
                tracing::error!("verification: the register's change log did not answer in time");
                return unavailable_or_last_known(raw, cache, changes, now);
            }
        };
    if let Some(hit) = cache.fresh(raw, changes, now) {
        return hit;
    }
    let (v, scope) = match computed(raw, keys, state, now, false, Some(&cache.resident)).await {
        Ok(v) => v,
        // Never with `as_of` false; a document unknown to the register if it were.
        Err(NotYetIssued) => (
            Verification {
                verdict: Verdict::UnknownDocument,
                checked_at: now,
                document: None,
                reason: None,
                last_known: None,
                record: None,
            },
            None,
        ),
    };
    if v.verdict == Verdict::StatusUnavailable {
        unavailable_or_last_known(raw, cache, changes, now)
    } else {
        cache.put(raw, read_seq, scope, &v);
        v
    }
}

/// The status is unavailable: said with the last status known of `raw`, if any still holds.
fn unavailable_or_last_known(
    raw: &str,
    cache: &cache::VerdictCache,
    changes: &crate::storage::changes::Changes,
    now: DateTime<Utc>,
) -> Verification {
    match cache.last_known(raw, changes, now) {
        Some((last, document)) => Verification::unavailable(now).with_last_known(last, document),
        None => Verification::unavailable(now),
    }
}

/// The token names a document issued after the instant asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotYetIssued;

/// The verdict a token had at `at` (the end of a past day): its signature as now, its
/// document's status from the acts in force then — revocation, sanctions, vistorias,
/// replacements of the car, Termos — never cached. An official's question (the Procuradoria,
/// a court); `Err` when the document did not exist yet at `at`.
pub async fn verify_token_as_of(
    raw: &str,
    keys: &KeySet,
    state: &AppState,
    at: DateTime<Utc>,
) -> Result<Verification, NotYetIssued> {
    computed(raw, keys, state, at, true, None)
        .await
        .map(|(v, _)| v)
}

/// The signature, then the status at `now`, with the change log's scope of that status;
/// `as_of`: `now` is a past instant (the car's replacements are counted up to it, and a
/// document issued after it is `NotYetIssued`).
async fn computed(
    raw: &str,
    keys: &KeySet,
    state: &AppState,
    now: DateTime<Utc>,
    as_of: bool,
    resident: Option<&resident::ResidentVerdicts>,
) -> Result<(Verification, Option<String>), NotYetIssued> {
    let store = &state.store;
    let outcome = |verdict, document| Verification {
        verdict,
        checked_at: now,
        document,
        reason: None,
        last_known: None,
        record: None,
    };
    let payload = match token::verify(raw, keys) {
        Ok(p) => p,
        Err(TokenError::Malformed(_)) => return Ok((outcome(Verdict::Malformed, None), None)),
        Err(TokenError::UnknownKey) => return Ok((outcome(Verdict::UnknownKey, None), None)),
        Err(TokenError::RetiredKey(r)) => {
            return Ok((
                Verification {
                    reason: Some(retired_key_pt(&r)),
                    ..outcome(Verdict::UnknownKey, None)
                },
                None,
            ));
        }
        Err(TokenError::InvalidSignature) => {
            return Ok((outcome(Verdict::InvalidSignature, None), None));
        }
    };
    if as_of && payload.issued_at > now.timestamp() {
        return Err(NotYetIssued);
    }
    // The ride-hailing authorization and sticker are most of the scans: their status query
    // reads the document row too, so the token's kind sends them straight to it.
    let ride_hailing = matches!(
        DocumentKind::parse(&payload.kind),
        Some(DocumentKind::RideHailingAuthorization | DocumentKind::RideHailingSticker)
    );
    // The day's verdict kept in memory, never for a past instant.
    let resident = resident.filter(|_| !as_of);
    if ride_hailing
        && let Some(judged) = resident.and_then(|r| r.judged(raw, &payload, store.changes(), now))
    {
        state.metrics.status_from_memory();
        return Ok(answered(now, judged));
    }
    let status = async {
        if ride_hailing {
            let replaced_until = as_of.then_some(now);
            let live = ride_hailing_verdict_until(
                state,
                payload.document_id,
                now,
                replaced_until,
                resident,
                |s| token_matches_status(&payload, s),
            )
            .await;
            outcome_of(live)
        } else {
            let doc = store.document(payload.document_id).await;
            lookup(state, doc, now, None, |d| token_matches(&payload, d)).await
        }
    };
    Ok(within_status_deadline(now, status).await)
}

/// How long a verification waits for the register: past it, the signature's result
/// stands and the status is `status_unavailable`, so a scan on the road never hangs on a
/// database that does not answer.
pub const STATUS_DEADLINE: std::time::Duration = std::time::Duration::from_millis(250);

async fn within_status_deadline(
    now: DateTime<Utc>,
    status: impl std::future::Future<Output = Judged>,
) -> (Verification, Option<String>) {
    match tokio::time::timeout(STATUS_DEADLINE, status).await {
        Ok(Judged {
            verdict: Verdict::StatusUnavailable,
            ..
        }) => (Verification::unavailable(now), None),
        Ok(j) => answered(now, j),
        Err(_) => {
            tracing::error!("verification: the register did not answer in time");
            (Verification::unavailable(now), None)
        }
    }
}

/// The answer of a verdict judged, with the change log's scope of its status.
fn answered(now: DateTime<Utc>, j: Judged) -> (Verification, Option<String>) {
    (
        Verification {
            verdict: j.verdict,
            checked_at: now,
            document: j.document,
            reason: None,
            last_known: None,
            record: None,
        },
        j.scope,
    )
}

/// Looks up the short code printed under the QR (`K7Q-29X-HM6`, typed in any case).
pub async fn verify_code(raw: &str, state: &AppState, now: DateTime<Utc>) -> Verification {
    let v = code_verdict(raw, state, now).await;
    state.metrics.verdict("code", v.verdict.as_str());
    v
}

async fn code_verdict(raw: &str, state: &AppState, now: DateTime<Utc>) -> Verification {
    let store = &state.store;
    let outcome = |verdict, document| Verification {
        verdict,
        checked_at: now,
        document,
        reason: None,
        last_known: None,
        record: None,
    };
    let code = match crate::documents::normalise_verification_code(raw) {
        Ok(code) => code,
        Err(CodeError::Malformed) => return outcome(Verdict::Malformed, None),
        // A typo is not a forgery; the verdict stays `malformed`, the reason says it.
        Err(CodeError::Mistyped) => {
            return Verification {
                reason: Some(MISTYPED_CODE_PT.to_owned()),
                ..outcome(Verdict::Malformed, None)
            };
        }
    };
    within_status_deadline(now, async {
        lookup(
            state,
            store.document_by_code(&code).await,
            now,
            None,
            |_| true,
        )
        .await
    })
    .await
    .0
}

/// What an official scanned: the token of a QR code or a typed code.
#[derive(Debug, Clone, Copy)]
pub enum Scanned<'a> {
    Token(&'a str),
    Code(&'a str),
}

/// Adds the inspector's record to `v` when the official with `roles` may read the register
/// of the document. A forgery, an unknown code or an unreachable register gets no
/// record: only the verdict.
pub async fn with_record(
    state: &AppState,
    mut v: Verification,
    scanned: Scanned<'_>,
    roles: &crate::domain::officials::Roles,
    now: DateTime<Utc>,
) -> Verification {
    if v.document.is_none() || v.verdict == Verdict::StatusUnavailable {
        return v;
    }
    let doc = match scanned {
        Scanned::Token(raw) => match token::verify(raw, &state.keys.public) {
            Ok(p) => state.store.document(p.document_id).await,
            Err(_) => return v,
        },
        Scanned::Code(raw) => match crate::documents::normalise_verification_code(raw) {
            Ok(code) => state.store.document_by_code(&code).await,
            Err(_) => return v,
        },
    };
    let doc = match doc {
        Ok(Some(d)) if inspector::may_read(roles, d.kind) => d,
        Ok(_) => return v,
        Err(e) => {
            log_storage_error(&e);
            return v;
        }
    };
    match tokio::time::timeout(RECORD_DEADLINE, inspector::record(state, &doc, now)).await {
        Ok(Ok(record)) => v.record = record,
        Ok(Err(e)) => log_storage_error(&e),
        Err(_) => tracing::error!("verification: the inspector's record did not load in time"),
    }
    v
}

/// How long the inspector's record may take: past it, the verdict is shown alone.
const RECORD_DEADLINE: std::time::Duration = std::time::Duration::from_secs(2);

/// The answer to a code whose check symbol does not match.
pub const MISTYPED_CODE_PT: &str = "Código digitado incorretamente — confira: os caracteres digitados não conferem entre si (o último caractere do código é um controle dos demais). Digite de novo, caractere por caractere.";

/// Why a document signed by a retired key is no longer trusted, in Portuguese.
fn retired_key_pt(r: &crate::signing::keys::Retirement) -> String {
    format!(
        "Assinado com uma chave da Prefeitura retirada de uso em {}: {}. O documento não é mais confiável; peça um novo.",
        r.on, r.reason
    )
}

fn log_storage_error(e: &StorageError) {
    tracing::error!(error = %e, "status lookup failed during verification");
}

/// What the embedded signature of an uploaded PDF says.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PdfSignatureReport {
    /// The signed bytes are unchanged and nothing was appended after the signature.
    pub intact: bool,
    /// Signed with a key selo publishes, certified by the municipal root.
    pub trusted: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kid: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signed_at: Option<String>,
    /// In Brazilian Portuguese, for the person who uploaded the file.
    pub detail: String,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PdfVerification {
    pub verdict: Verdict,
    pub checked_at: DateTime<Utc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<PdfSignatureReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document: Option<PublicDocument>,
}

/// Verifies the PAdES signature embedded in `pdf`, then finds the document it is (by the
/// SHA-256 of the whole file) and its live status.
pub async fn verify_pdf_upload(
    pdf: &[u8],
    root: &x509_cert::Certificate,
    keys: &KeySet,
    state: &AppState,
    now: DateTime<Utc>,
) -> PdfVerification {
    use crate::signing::pades::{PdfVerifyError as E, verify_pdf_with};
    let store = &state.store;
    let outcome = |verdict, signature, document| PdfVerification {
        verdict,
        checked_at: now,
        signature,
        document,
    };
    let report = |intact, trusted, detail: &str| PdfSignatureReport {
        intact,
        trusted,
        kid: None,
        signed_at: None,
        detail: detail.to_owned(),
    };
    // Each failure says its own reason.
    let is_pdf = pdf.windows(5).take(1024).any(|w| w == b"%PDF-");
    if !is_pdf {
        let r = report(
            false,
            false,
            "O arquivo enviado não é um PDF. Envie o arquivo PDF do documento recebido da Prefeitura.",
        );
        return outcome(Verdict::Malformed, Some(r), None);
    }
    let verified = match verify_pdf_with(pdf, root, keys, &state.keys.imported_certificates) {
        Ok(v) => v,
        Err(E::NoSignature) => {
            let r = report(
                false,
                false,
                "Este PDF não tem assinatura digital: não é um documento emitido pelo selo, ou a assinatura foi removida (ao imprimir em PDF ou editar o arquivo, por exemplo).",
            );
            return outcome(Verdict::Malformed, Some(r), None);
        }
        Err(E::Malformed(_)) => {
            let r = report(
                false,
                false,
                "O PDF não pôde ser lido: o arquivo está incompleto ou corrompido.",
            );
            return outcome(Verdict::Malformed, Some(r), None);
        }
        Err(E::Altered) => {
            let r = report(
                false,
                false,
                "O conteúdo assinado foi alterado: este arquivo não é o documento emitido.",
            );
            return outcome(Verdict::InvalidSignature, Some(r), None);
        }
        Err(E::ModifiedAfterSigning) => {
            let r = report(
                false,
                false,
                "O arquivo recebeu alterações depois de assinado.",
            );
            return outcome(Verdict::InvalidSignature, Some(r), None);
        }
        Err(E::RetiredKey(r)) => {
            let r = report(true, false, &retired_key_pt(&r));
            return outcome(Verdict::UnknownKey, Some(r), None);
        }
        Err(E::Untrusted | E::UnknownKey) => {
            let r = report(
                true,
                false,
                &format!(
                    "Assinado por um certificado que não é da {}.",
                    state.letterhead.profile.prefeitura.name
                ),
            );
            return outcome(Verdict::UnknownKey, Some(r), None);
        }
    };
    let doc = store.document_by_sha256(&verified.sha256).await;
    let Judged {
        verdict, document, ..
    } = lookup(state, doc, now, None, |_| true).await;
    // Say what was checked. A genuine signature over bytes selo never issued (a bit
    // flipped in the unsigned padding, say) must not read as if the document were fine.
    let detail = match verdict {
        Verdict::UnknownDocument => {
            "Assinatura íntegra, mas o documento não consta do registro: este arquivo não é, byte a byte, nenhum documento emitido."
        }
        Verdict::StatusUnavailable => {
            "Assinatura íntegra; a situação do documento não pôde ser consultada agora."
        }
        _ => "Assinatura íntegra, feita com a chave publicada da Prefeitura.",
    };
    let signature = Some(PdfSignatureReport {
        intact: true,
        trusted: true,
        kid: Some(verified.kid.clone()),
        signed_at: verified.signed_at.clone(),
        detail: detail.to_owned(),
    });
    outcome(verdict, signature, document)
}
