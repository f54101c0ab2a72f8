//! What the register answers and takes besides the domain values: documents' live
//! status, events, autos, platforms, data requests, reserved numbers.

use super::{
    DateTime, NaiveDate, Plate, Revocation, RideHailingAuthorization, Sanction, Utc, Uuid,
    documents,
};

/// What verification needs to know about a document, live.
#[derive(Debug, Clone)]
pub struct DocumentStatus {
    pub meta: documents::Document,
    /// The authorization the document belongs to.
    pub authorization_id: Uuid,
    pub plate: Plate,
    pub valid_until: NaiveDate,
    pub revoked_at: Option<DateTime<Utc>>,
    /// When the authorization was granted (APP-ART9 counts from it).
    pub granted_at: DateTime<Utc>,
    /// The car replacement this document was issued for (`None`: with the grant).
    pub substitution_seq: Option<i32>,
    /// The authorization's latest car replacement (`None`: never replaced).
    pub latest_substitution: Option<i32>,
    pub driver_id: Uuid,
    /// The car the authorization binds now.
    pub vehicle_id: Uuid,
    pub sanctions: Vec<Sanction>,
    /// The car the document names, as the passenger sees it.
    pub car: CarDescription,
    /// The driver's full name (the public tier shows the first name only).
    pub driver_name: String,
    /// Whether a photo of the driver is on file.
    pub driver_photo: bool,
}

/// Make, model and colour of a car, as its CRLV gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CarDescription {
    pub make: String,
    pub model: String,
    pub color: String,
}

/// A driver's photo ready to store: JPEG without metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriverPhoto {
    pub jpeg: Vec<u8>,
    /// Lower-case hex.
    pub sha256: String,
    pub width: u32,
    pub height: u32,
}

/// One append-only event: who did what, when, why, under which legal basis.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Event {
    /// Its row in `events`: what a rectification names.
    pub id: i64,
    pub kind: String,
    /// Who did it: the official's id (`admin` and `system` on events older than accounts).
    pub actor: String,
    /// The official's full name, as histories show it (the id itself when no official has it).
    pub actor_name: String,
    pub reason: Option<String>,
    pub legal_basis_version: Option<String>,
    pub occurred_at: DateTime<Utc>,
    /// JSON text of the event's details.
    #[serde(skip)]
    pub data: String,
}

/// An auto de infração of the ride-hailing law, as recorded.
#[derive(Debug, Clone, PartialEq, serde::Serialize, utoipa::ToSchema)]
pub struct RideHailingAuto {
    pub id: Uuid,
    pub number: String,
    pub infraction_id: String,
    pub driver_id: Uuid,
    pub authorization_id: Option<Uuid>,
    pub committed_at: DateTime<Utc>,
    pub committed_on: NaiveDate,
    pub place: String,
    pub facts: String,
    pub inspector: String,
    pub drawn_up_at: DateTime<Utc>,
    pub fine_upf: i64,
    pub fine_centavos: Option<i64>,
    pub consequences: serde_json::Value,
    pub legal_basis_version: String,
    pub notification: Option<AutoNotification>,
}

/// How and when the notice of an auto reached the infractor, and when it was filed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct AutoNotification {
    pub method: String,
    pub notified_on: NaiveDate,
    pub juntada_on: NaiveDate,
}

/// A registered platform.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct PlatformRecord {
    pub id: String,
    pub cnpj: String,
    pub name: String,
    pub insurance_policy: String,
    pub insurer: String,
    pub insurance_cover_centavos: i64,
    pub insurance_valid_until: NaiveDate,
    pub fee_paid_on: NaiveDate,
    pub valid_until: NaiveDate,
    pub legal_basis_version: String,
    pub created_at: DateTime<Utc>,
}

/// A data request to a platform and its delivery, if any.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct DataRequest {
    pub id: String,
    pub platform_id: String,
    pub justification: String,
    pub scope: String,
    pub notified_at: DateTime<Utc>,
    pub due_at: DateTime<Utc>,
    pub delivered_at: Option<DateTime<Utc>>,
    pub sha256: Option<String>,
    pub signer: Option<String>,
}

/// A reserved authorization number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReservedNumber {
    pub number: String,
    pub year: i32,
    pub seq: i64,
}

impl ReservedNumber {
    /// `APP-2026/000123`: series, year, six-digit sequence.
    pub fn format(series: &str, year: i32, seq: i64) -> String {
        format!("{series}-{year}/{seq:06}")
    }
}

/// The outcome of a revocation request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RevokeOutcome {
    Revoked(Revocation),
    AlreadyRevoked(Revocation),
    NotFound,
}

/// A grant to commit in one transaction: the authorization, its documents, its event and
/// the number turning from reserved to issued. The one-authorization rule is re-checked at
/// the authorization's `granted_at`.
#[derive(Debug, Clone)]
pub struct NewGrant {
    pub authorization: RideHailingAuthorization,
    pub documents: Vec<documents::SignedDocument>,
    /// The filing for review this grant decides (AMB-25), and the decision's grounds.
    pub review: Option<(Uuid, String)>,
    /// The provisions a court had suspended on the day, as the decision cites them.
    pub suspended: Vec<String>,
}
