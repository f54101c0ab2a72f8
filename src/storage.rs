//! Persistence: the [`Store`] that picks a backend at start-up (`sqlite`, `postgres`: the
//! connection and migrations of each) and the register written once for both (`app`,
//! `charter`, …): `on_backend!` expands each body per pool type.
//!
//! Both backends run the same SQL text (sqlx binds `$N` on SQLite too; the few dialect
//! differences are the row locks PostgreSQL takes); row structs are shared and every value read back is parsed again into a
//! domain type, so a bad row is `StorageError::Corrupt`, never a wrong document.

/// Runs `$body` with `$pool` bound to the backend's pool and `$begin()` opening a write
/// transaction (`BEGIN IMMEDIATE` on SQLite, so check-then-write never deadlocks) whose
/// commit tells the node's caches (`changes::Tx`).
/// With a third name, `$pg` is `true` on PostgreSQL (for `FOR UPDATE`, which SQLite lacks
/// and does not need under `BEGIN IMMEDIATE`).
macro_rules! on_backend {
    ($store:expr, |$pool:ident, $begin:ident, $pg:ident| $body:expr) => {
        match $store {
            Store::Sqlite(r) => {
                let $pool = r.pool();
                let $begin = || {
                    $crate::storage::changes::Tx::open(
                        r.changes().clone(),
                        $pool.begin_with("BEGIN IMMEDIATE"),
                    )
                };
                let $pg = false;
                $body
            }
            Store::Postgres(r) => {
                let $pool = r.pool();
                // Every write transaction takes the audit chain's lock first (issue 14): rows
                // join the chain in commit order, and always first, so it never deadlocks.
                let $begin = || async move {
                    let mut tx =
                        $crate::storage::changes::Tx::open(r.changes().clone(), $pool.begin())
                            .await?;
                    sqlx::query($crate::storage::sql::CHAIN_LOCK)
                        .execute(&mut *tx)
                        .await?;
                    Ok::<_, sqlx::Error>(tx)
                };
                let $pg = true;
                $body
            }
        }
    };
    ($store:expr, |$pool:ident, $begin:ident| $body:expr) => {
        on_backend!($store, |$pool, $begin, _is_pg| $body)
    };
}

/// Appends one event to the audit chain inside the open write transaction `$tx` (issue 14):
/// reads the chain's head, hashes the row after it (`domain::audit`) and inserts it with both
/// hashes. Writers are serialized (`BEGIN IMMEDIATE`; on PostgreSQL the lock every write
/// transaction takes first), so the head read is the row this one follows. Text arguments
/// are anything `AsRef<str>`; `$reason` and `$lbv` are such text or `Option`s of it.
macro_rules! append_event {
    ($tx:expr, $entity_type:expr, $entity_id:expr, $kind:expr, $actor:expr, $reason:expr, $lbv:expr, $at:expr, $data:expr $(,)?) => {{
        let head: Option<(Option<String>,)> = sqlx::query_as($crate::storage::sql::CHAIN_HEAD)
            .fetch_optional(&mut *$tx)
            .await?;
        let prev = head
            .and_then(|(h,)| h)
            .unwrap_or_else(|| $crate::domain::audit::GENESIS.to_owned());
        let (entity_type, entity_id, kind, actor) = ($entity_type, $entity_id, $kind, $actor);
        let (reason, lbv, data) = ($reason, $lbv, $data);
        let fields = $crate::domain::audit::EventFields {
            entity_type: $crate::storage::text(&entity_type),
            entity_id: $crate::storage::text(&entity_id),
            kind: $crate::storage::text(&kind),
            actor: $crate::storage::text(&actor),
            reason: $crate::storage::opt_text(&reason),
            legal_basis_version: $crate::storage::opt_text(&lbv),
            occurred_at: $crate::domain::audit::to_micros($at),
            data: $crate::storage::text(&data),
        };
        let hash = fields.link(&prev);
        sqlx::query($crate::storage::sql::INSERT_EVENT)
            .bind(fields.entity_type)
            .bind(fields.entity_id)
            .bind(fields.kind)
            .bind(fields.actor)
            .bind(fields.reason)
            .bind(fields.legal_basis_version)
            .bind(fields.occurred_at)
            .bind(fields.data)
            .bind(&prev)
            .bind(&hash)
            .execute(&mut *$tx)
            .await?;
    }};
}

/// Inside the open write transaction `$tx`: `Err(Conflict("concurrent"))` unless the entity
/// of `$head` (a `charter::EntityHead`) still has the last event it had when read. Writers are
/// serialized (`on_backend!`), so the head read here is the one the commit follows.
macro_rules! ensure_head {
    ($tx:expr, $head:expr) => {{
        let head: &$crate::storage::charter::EntityHead<'_> = $head;
        let now: Option<i64> = sqlx::query_scalar($crate::storage::charter::LAST_EVENT)
            .bind(head.entity_type)
            .bind(head.entity_id.to_string())
            .fetch_one(&mut *$tx)
            .await?;
        if now != head.last_event {
            return Err($crate::storage::StorageError::Conflict("concurrent"));
        }
    }};
}

/// Appends `charter::NewEvent`s to `events` inside the open transaction `$tx`.
macro_rules! insert_events {
    ($tx:expr, $events:expr) => {
        for e in $events {
            append_event!(
                $tx,
                e.entity_type,
                e.entity_id.to_string(),
                e.kind,
                e.actor,
                e.reason,
                Some(&e.legal_basis_version),
                e.at,
                e.data.to_string(),
            );
        }
    };
}

/// Inserts `$d` (a `documents::Document`) with its PDF bytes in the open transaction `$tx`.
macro_rules! insert_document {
    ($tx:expr, $d:expr, $pdf:expr) => {
        sqlx::query($crate::storage::documents::INSERT)
            .bind($d.id.to_string())
            .bind($d.kind.as_str())
            .bind(&$d.subject_type)
            .bind($d.subject_id.to_string())
            .bind($d.company_id.map(|c| c.to_string()))
            .bind($d.authorization_id.map(|a| a.to_string()))
            .bind($d.substitution_seq)
            .bind(&$d.number)
            .bind(&$d.verification_code)
            .bind(&$d.token)
            .bind(&$d.key_id)
            .bind($pdf)
            .bind(&$d.sha256)
            .bind(&$d.subject_key)
            .bind($d.valid_until)
            .bind(&$d.legal_basis_version)
            .bind($d.issued_at)
            .bind($d.facts.as_ref().map(ToString::to_string))
            .bind(&$d.issued_by)
            .bind(&$d.profile_version)
            .execute(&mut *$tx)
            .await?;
    };
}

/// Whether any ride-hailing authorization listed by `$query` for `$id` still binds its
/// driver and car at `$now` (APP-ART8): storage fetches the facts, `domain` decides.
/// Evaluates to `Result<bool, StorageError>`.
macro_rules! binds_any {
    ($conn:expr, $query:expr, $id:expr, $now:expr) => {
        async {
            let rows: Vec<(
                String,
                chrono::NaiveDate,
                Option<chrono::DateTime<chrono::Utc>>,
            )> = sqlx::query_as($query)
                .bind($id.to_string())
                .fetch_all(&mut *$conn)
                .await?;
            for (authorization_id, valid_until, revoked_at) in rows {
                let sanctions: Vec<$crate::storage::SanctionRow> =
                    sqlx::query_as($crate::storage::sql::SELECT_SANCTIONS)
                        .bind(&authorization_id)
                        .fetch_all(&mut *$conn)
                        .await?;
                let sanctions = sanctions
                    .into_iter()
                    .map($crate::domain::ride_hailing::sanctions::Sanction::try_from)
                    .collect::<Result<Vec<_>, _>>()?;
                if $crate::domain::ride_hailing::sanctions::binds_driver_and_vehicle(
                    valid_until,
                    revoked_at,
                    &sanctions,
                    $now,
                ) {
                    return Ok::<bool, $crate::storage::StorageError>(true);
                }
            }
            Ok(false)
        }
    };
}

/// The columns of the one documents table, as `documents::DocumentRow` reads them (alias `d`).
macro_rules! document_columns {
    () => {
        "d.id, d.kind, d.subject_type, d.subject_id, d.company_id, d.authorization_id, \
        d.substitution_seq, d.number, d.verification_code, d.token, d.key_id, d.sha256, d.subject_key, \
        d.valid_until, d.legal_basis_version, d.issued_at, d.facts, d.issued_by, d.profile_version"
    };
}

pub mod audit;
pub mod changes;
pub mod charter;
pub mod documents;
pub mod legal_bases;
pub mod officials;
pub mod postgres;
pub mod rectifications;
pub mod ride_hailing;
pub mod search;
pub mod sqlite;

use std::future::Future;

use chrono::{DateTime, NaiveDate, Utc};
use uuid::Uuid;

use crate::domain::calendar::{ClosedDay, DayKind};
use crate::domain::ids::{CnhCategory, CnhNumber, Cpf, IbgeCode, Plate, Renavam};
use crate::domain::ride_hailing::driver_record::DriverRecord;
use crate::domain::ride_hailing::registry::{
    Cnh, Driver, Revocation, RideHailingAuthorization, Vehicle,
};
use crate::domain::ride_hailing::sanctions::{Sanction, SanctionKind};

#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// A uniqueness rule of the register was hit; the field says which.
    #[error("conflict on {0}")]
    Conflict(&'static str),
    #[error("not found")]
    NotFound,
    #[error("corrupt row: {0}")]
    Corrupt(String),
    #[error("database unavailable: {0}")]
    Unavailable(#[source] sqlx::Error),
    #[error("database error: {0}")]
    Database(#[source] sqlx::Error),
}

impl From<sqlx::Error> for StorageError {
    fn from(e: sqlx::Error) -> Self {
        match &e {
            sqlx::Error::Database(db) if db.is_unique_violation() => {
                let text = format!("{} {}", db.message(), db.constraint().unwrap_or_default());
                let field = [
                    "cnpj",
                    "cpf",
                    "cnh_number",
                    "plate_mercosul",
                    "plate",
                    "renavam",
                    "verification_code",
                    "calendar_days",
                    "upf_values",
                    "app_auto_notifications",
                    "data_request_deliveries",
                    "number",
                ]
                .into_iter()
                .find(|f| text.contains(f))
                .unwrap_or("unique");
                Self::Conflict(field)
            }
            sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::Io(_)
            | sqlx::Error::Tls(_) => Self::Unavailable(e),
            _ => Self::Database(e),
        }
    }
}

fn corrupt(what: &str, id: &str) -> StorageError {
    StorageError::Corrupt(format!("{what} in row {id}"))
}

fn parse_uuid(s: &str) -> Result<Uuid, StorageError> {
    Uuid::parse_str(s).map_err(|_| corrupt("id", s))
}

/// Kinds of document selo issues.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentKind {
    /// The ride-hailing authorization (A4).
    RideHailingAuthorization,
    /// The 10 × 14 cm windshield sticker (APP-ART14).
    RideHailingSticker,
    /// The Termo de Autorização of a charter company (FRET-ART8).
    CharterTermo,
    /// The selo de vistoria of a charter vehicle (FRET-ART13).
    CharterSelo,
    /// The Auto de Infração e Notificação of a charter company (FRET-ART19–23).
    CharterAuto,
    /// The certidão de situação cadastral of a charter vehicle or driver (FRET-ART25).
    CharterCertidao,
    /// The Notificação de Penalidade of a ride-hailing auto (APP-ART19, APP-ART22).
    RideHailingAuto,
    /// The certidão de situação cadastral of a ride-hailing driver or vehicle.
    RideHailingCertidao,
}

/// Serialized as the token spells the kind (`app_sticker`, `charter_termo`…): a public
/// contract, whatever the variant is called in code.
impl serde::Serialize for DocumentKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl utoipa::PartialSchema for DocumentKind {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(Self::ALL.iter().map(|k| k.as_str())))
            .into()
    }
}

impl utoipa::ToSchema for DocumentKind {}

impl DocumentKind {
    /// Every kind, in the order the OpenAPI document lists them.
    pub const ALL: [Self; 8] = [
        Self::RideHailingAuthorization,
        Self::RideHailingSticker,
        Self::CharterTermo,
        Self::CharterSelo,
        Self::CharterAuto,
        Self::CharterCertidao,
        Self::RideHailingAuto,
        Self::RideHailingCertidao,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::RideHailingAuthorization => "app_authorization",
            Self::RideHailingSticker => "app_sticker",
            Self::CharterTermo => "charter_termo",
            Self::CharterSelo => "charter_selo",
            Self::CharterAuto => "charter_auto",
            Self::CharterCertidao => "charter_certidao",
            Self::RideHailingAuto => "app_auto",
            Self::RideHailingCertidao => "app_certidao",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "app_authorization" => Some(Self::RideHailingAuthorization),
            "app_sticker" => Some(Self::RideHailingSticker),
            "charter_termo" => Some(Self::CharterTermo),
            "charter_selo" => Some(Self::CharterSelo),
            "charter_auto" => Some(Self::CharterAuto),
            "charter_certidao" => Some(Self::CharterCertidao),
            "app_auto" => Some(Self::RideHailingAuto),
            "app_certidao" => Some(Self::RideHailingCertidao),
            _ => None,
        }
    }

    /// Whether the ride-hailing law governs it (else Lei 4.937/2025, charter).
    pub fn is_ride_hailing(self) -> bool {
        matches!(
            self,
            Self::RideHailingAuthorization
                | Self::RideHailingSticker
                | Self::RideHailingAuto
                | Self::RideHailingCertidao
        )
    }

    /// The name a citizen reads.
    pub fn label_pt(self) -> &'static str {
        match self {
            Self::RideHailingAuthorization => "Autorização de transporte por aplicativo",
            Self::RideHailingSticker => "Adesivo de identificação do veículo",
            Self::CharterTermo => "Termo de Autorização de fretamento",
            Self::CharterSelo => "Selo de vistoria de veículo de fretamento",
            Self::CharterAuto => "Auto de Infração e Notificação (fretamento)",
            Self::CharterCertidao => "Certidão de situação cadastral",
            Self::RideHailingAuto => "Auto de Infração e Notificação de Penalidade (aplicativo)",
            Self::RideHailingCertidao => "Certidão de situação cadastral (aplicativo)",
        }
    }
}

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
    /// The car the document names, as the passenger sees it (issue 11).
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
    /// Its row in `events`: what a rectification names (issue 13, item 1).
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
}

/// The register, as each backend implements it.
pub trait Repository: Send + Sync {
    fn ping(&self) -> impl Future<Output = Result<(), StorageError>> + Send;
    fn insert_driver(
        &self,
        driver: &Driver,
        actor: &str,
    ) -> impl Future<Output = Result<(), StorageError>> + Send;
    /// Appends a new snapshot of the driver's record; `false` if the driver does not exist.
    fn add_driver_record(
        &self,
        driver_id: Uuid,
        record: &DriverRecord,
        actor: &str,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<bool, StorageError>> + Send;
    fn get_driver(
        &self,
        id: Uuid,
    ) -> impl Future<Output = Result<Option<Driver>, StorageError>> + Send;
    /// Sets (or replaces) a driver's photo, with its event; `false` if the driver does not exist.
    fn set_driver_photo(
        &self,
        driver_id: Uuid,
        photo: &DriverPhoto,
        actor: &str,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<bool, StorageError>> + Send;
    /// A driver's photo (JPEG), if one is on file.
    fn driver_photo(
        &self,
        driver_id: Uuid,
    ) -> impl Future<Output = Result<Option<Vec<u8>>, StorageError>> + Send;
    fn insert_vehicle(
        &self,
        vehicle: &Vehicle,
        actor: &str,
    ) -> impl Future<Output = Result<(), StorageError>> + Send;
    fn get_vehicle(
        &self,
        id: Uuid,
    ) -> impl Future<Output = Result<Option<Vehicle>, StorageError>> + Send;
    /// Every authorization of a driver with its validity, revocation and sanctions (issue 13:
    /// what the driver held when an infraction was committed).
    fn driver_authorization_facts(
        &self,
        driver_id: Uuid,
    ) -> impl Future<
        Output = Result<
            Vec<crate::domain::ride_hailing::sanctions::AuthorizationFacts>,
            StorageError,
        >,
    > + Send;
    /// Whether the driver and the vehicle hold an authorization that still binds them at
    /// `now`; the decision is `domain::ride_hailing::sanctions::binds_driver_and_vehicle`.
    fn active_authorization_flags(
        &self,
        driver_id: Uuid,
        vehicle_id: Uuid,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<(bool, bool), StorageError>> + Send;
    /// Reserves the next number of a series and year, committed at once (never reused),
    /// recording the official who reserved it (`actor`).
    fn reserve_number(
        &self,
        series: &str,
        year: i32,
        now: DateTime<Utc>,
        actor: &str,
    ) -> impl Future<Output = Result<ReservedNumber, StorageError>> + Send;
    /// Voids, with `reason`, every number still reserved that was reserved before
    /// `reserved_before`: an issuance that never committed (a crash, `kill -9`). A commit that
    /// comes after finds its number voided and fails. Answers the numbers voided.
    fn void_stale_reservations(
        &self,
        reserved_before: DateTime<Utc>,
        reason: &str,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Vec<String>, StorageError>> + Send;
    /// Closes a reserved number that will not be issued.
    fn void_number(
        &self,
        number: &str,
        reason: &str,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<(), StorageError>> + Send;
    /// Commits a grant in one transaction; `Conflict("active_authorization")` if the driver
    /// or the vehicle gained an active authorization meanwhile.
    fn commit_grant(
        &self,
        grant: &NewGrant,
    ) -> impl Future<Output = Result<(), StorageError>> + Send;
    fn get_authorization(
        &self,
        id: Uuid,
    ) -> impl Future<Output = Result<Option<RideHailingAuthorization>, StorageError>> + Send;
    fn documents_of(
        &self,
        authorization_id: Uuid,
    ) -> impl Future<Output = Result<Vec<documents::Document>, StorageError>> + Send;
    fn document_status(
        &self,
        id: Uuid,
    ) -> impl Future<Output = Result<Option<DocumentStatus>, StorageError>> + Send;
    /// The document whose stored (signed) PDF has this SHA-256, lower-case hex.
    /// Appends a sanction; `false` if the authorization does not exist.
    fn add_sanction(
        &self,
        authorization_id: Uuid,
        sanction: &Sanction,
        actor: &str,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<bool, StorageError>> + Send;
    /// The sanctions of an authorization, oldest first.
    fn sanctions_of(
        &self,
        authorization_id: Uuid,
    ) -> impl Future<Output = Result<Vec<Sanction>, StorageError>> + Send;
    /// The acts in force of an entity, oldest first: each with the data of its latest
    /// rectification, the rectifications themselves left out (`history_of` has them all).
    fn events_of(
        &self,
        entity_type: &str,
        entity_id: &str,
    ) -> impl Future<Output = Result<Vec<Event>, StorageError>> + Send;
    /// Records the UPF value of a year; `Conflict("upf_values")` if already set.
    fn set_upf_value(
        &self,
        year: i32,
        centavos: i64,
        act: &str,
        actor: &str,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<(), StorageError>> + Send;
    fn upf_value(
        &self,
        year: i32,
    ) -> impl Future<Output = Result<Option<i64>, StorageError>> + Send;
    /// The UPF value of a year with the act that fixed it (issue 12: the notice cites it).
    fn upf_entry(
        &self,
        year: i32,
    ) -> impl Future<Output = Result<Option<(i64, String)>, StorageError>> + Send;
    /// Earlier autos of a driver: (infraction id, date committed).
    fn prior_autos(
        &self,
        driver_id: Uuid,
    ) -> impl Future<Output = Result<Vec<(String, NaiveDate)>, StorageError>> + Send;
    /// Records an auto, taking the next number of `series` in the same transaction.
    fn insert_auto(
        &self,
        auto: &RideHailingAuto,
        series: &str,
        actor: &str,
    ) -> impl Future<Output = Result<String, StorageError>> + Send;
    fn get_auto(
        &self,
        id: Uuid,
    ) -> impl Future<Output = Result<Option<RideHailingAuto>, StorageError>> + Send;
    /// Every auto of a driver, the latest first (issue 11: the inspector's record).
    fn autos_of_driver(
        &self,
        driver_id: Uuid,
    ) -> impl Future<Output = Result<Vec<RideHailingAuto>, StorageError>> + Send;
    /// `Ok(false)` if the auto does not exist; `Conflict` if already notified.
    fn record_notification(
        &self,
        auto_id: Uuid,
        n: &AutoNotification,
        actor: &str,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<bool, StorageError>> + Send;
    /// `Conflict("cnpj")` if the CNPJ is registered already.
    fn insert_platform(
        &self,
        p: &PlatformRecord,
        actor: &str,
    ) -> impl Future<Output = Result<(), StorageError>> + Send;
    fn get_platform(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<Option<PlatformRecord>, StorageError>> + Send;
    fn insert_data_request(
        &self,
        r: &DataRequest,
        actor: &str,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<(), StorageError>> + Send;
    fn get_data_request(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<Option<DataRequest>, StorageError>> + Send;
    /// Records the delivery; `Conflict` if already delivered.
    fn record_delivery(
        &self,
        id: &str,
        delivered_at: DateTime<Utc>,
        sha256: &str,
        signer: &str,
        actor: &str,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<(), StorageError>> + Send;
    /// Every decreed day without office hours.
    fn decreed_days(&self) -> impl Future<Output = Result<Vec<ClosedDay>, StorageError>> + Send;
    /// Records decreed days, all or none; `Conflict("date")` if one is already recorded.
    fn add_decreed_days(
        &self,
        days: &[ClosedDay],
        actor: &str,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<(), StorageError>> + Send;
    fn revoke_authorization(
        &self,
        id: Uuid,
        reason: &str,
        actor: &str,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<RevokeOutcome, StorageError>> + Send;
}

/// The configured backend.
#[derive(Debug, Clone)]
pub enum Store {
    Sqlite(sqlite::SqliteRepository),
    Postgres(postgres::PgRepository),
}

impl Store {
    /// Connects to `url` (`sqlite://…` or `postgres://…`) and applies the migrations.
    pub async fn connect(url: &str) -> Result<Self, StorageError> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Self::Postgres(postgres::PgRepository::connect(url).await?))
        } else {
            Ok(Self::Sqlite(sqlite::SqliteRepository::connect(url).await?))
        }
    }

    pub fn backend(&self) -> &'static str {
        match self {
            Self::Sqlite(_) => "sqlite",
            Self::Postgres(_) => "postgres",
        }
    }

    /// The generation of the register this node knows (see [`changes`]).
    pub fn changes(&self) -> &std::sync::Arc<changes::Changes> {
        match self {
            Self::Sqlite(r) => r.changes(),
            Self::Postgres(r) => r.changes(),
        }
    }

    /// On PostgreSQL, starts listening for the commits of every node (the scale-out path:
    /// a revocation or decree made on one node is seen by the others at once). SQLite has
    /// one node.
    pub fn listen_for_other_nodes(&self) {
        if let Self::Postgres(r) = self {
            tokio::spawn(changes::listen(r.pool().clone(), r.changes().clone()));
        }
    }

    pub async fn close(&self) {
        match self {
            Self::Sqlite(r) => r.pool().close().await,
            Self::Postgres(r) => r.pool().close().await,
        }
    }
}

// ---------------------------------------------------------------------------------------
// SQL shared by both backends (explicit column lists; `$N` placeholders).

/// SQL: the car an authorization `a` binds now, the latest replacement's or the granted one.
macro_rules! current_vehicle {
    () => {
        "COALESCE((SELECT s.new_vehicle_id FROM app_vehicle_substitutions s \
        WHERE s.authorization_id = a.id ORDER BY s.seq DESC LIMIT 1), a.vehicle_id)"
    };
}

pub(crate) mod sql {
    pub const INSERT_DRIVER: &str = "INSERT INTO drivers (id, name, cpf, cnh_number, cnh_category, \
        cnh_first_license_date, cnh_ear, cnh_expires_on, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";
    pub const SELECT_DRIVER: &str = "SELECT id, name, cpf, cnh_number, cnh_category, cnh_first_license_date, \
        cnh_ear, cnh_expires_on, created_at, (SELECT r.record FROM driver_records r WHERE r.driver_id = drivers.id \
        ORDER BY r.id DESC LIMIT 1) AS record FROM drivers WHERE id = $1";
    pub const INSERT_DRIVER_RECORD: &str = "INSERT INTO driver_records (driver_id, record, recorded_at, recorded_by) \
        VALUES ($1, $2, $3, $4)";
    pub const DRIVER_EXISTS: &str = "SELECT COUNT(*) FROM drivers WHERE id = $1";
    pub const UPSERT_DRIVER_PHOTO: &str = "INSERT INTO driver_photos (driver_id, jpeg, sha256, width, height, \
        uploaded_at, uploaded_by) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (driver_id) DO UPDATE SET \
        jpeg = excluded.jpeg, sha256 = excluded.sha256, width = excluded.width, height = excluded.height, \
        uploaded_at = excluded.uploaded_at, uploaded_by = excluded.uploaded_by";
    pub const SELECT_DRIVER_PHOTO: &str = "SELECT jpeg FROM driver_photos WHERE driver_id = $1";
    pub const INSERT_VEHICLE: &str = "INSERT INTO vehicles (id, plate, plate_mercosul, renavam, make, model, color, \
        model_year, doors, air_conditioning, capacity_including_driver, registration_municipality_ibge, created_at, \
        in_service_since, owner_type, owner_document) \
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)";
    pub const SELECT_VEHICLE: &str = "SELECT id, plate, renavam, make, model, color, model_year, doors, \
        air_conditioning, capacity_including_driver, registration_municipality_ibge, created_at, in_service_since, \
        owner_type, owner_document FROM vehicles WHERE id = $1";
    pub const AUTHORIZATION_FACTS_OF_DRIVER: &str = "SELECT a.id, a.valid_from, a.valid_until, r.revoked_at \
        FROM app_authorizations a LEFT JOIN app_authorization_revocations r ON r.authorization_id = a.id \
        WHERE a.driver_id = $1";
    pub const AUTHORIZATIONS_OF_DRIVER: &str = "SELECT a.id, a.valid_until, r.revoked_at FROM app_authorizations a \
        LEFT JOIN app_authorization_revocations r ON r.authorization_id = a.id WHERE a.driver_id = $1";
    /// The authorizations whose car is now vehicle `$1`: granted with it and not replaced
    /// since, or given it by the latest replacement (APP-ART8-P2).
    pub const AUTHORIZATIONS_OF_VEHICLE: &str = concat!(
        "SELECT a.id, a.valid_until, r.revoked_at FROM app_authorizations a \
        LEFT JOIN app_authorization_revocations r ON r.authorization_id = a.id \
        WHERE (a.vehicle_id = $1 OR a.id IN (SELECT s.authorization_id FROM app_vehicle_substitutions s \
        WHERE s.new_vehicle_id = $1)) AND ",
        current_vehicle!(),
        " = $1"
    );
    pub const BUMP_COUNTER: &str = "INSERT INTO number_counters (series, year, last_value) VALUES ($1, $2, 1) \
        ON CONFLICT (series, year) DO UPDATE SET last_value = number_counters.last_value + 1 RETURNING last_value";
    pub const INSERT_NUMBER: &str = "INSERT INTO document_numbers (number, series, year, seq, state, reserved_at, reserved_by) \
        VALUES ($1, $2, $3, $4, 'reserved', $5, $6)";
    pub const VOID_NUMBER: &str = "UPDATE document_numbers SET state = 'voided', closed_at = $2, void_reason = $3 \
        WHERE number = $1 AND state = 'reserved'";
    pub const STALE_RESERVATIONS: &str = "SELECT number FROM document_numbers \
        WHERE state = 'reserved' AND reserved_at < $1 ORDER BY number";
    pub const ISSUE_NUMBER: &str = "UPDATE document_numbers SET state = 'issued', closed_at = $2 \
        WHERE number = $1 AND state = 'reserved'";
    pub const INSERT_AUTHORIZATION: &str = "INSERT INTO app_authorizations (id, number, driver_id, vehicle_id, \
        fee_paid_on, valid_from, valid_until, legal_basis_version, granted_at, granted_by, protocolled_on) \
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";
    pub const INSERT_EVENT: &str = "INSERT INTO events (entity_type, entity_id, kind, actor, reason, \
        legal_basis_version, occurred_at, data, prev_hash, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
    /// The hash of the audit chain's last row (`None` before the chain began).
    pub const CHAIN_HEAD: &str = "SELECT hash FROM events ORDER BY id DESC LIMIT 1";
    /// PostgreSQL: the lock every write transaction takes first (issue 14), so that rows join
    /// the audit chain in commit order.
    pub const CHAIN_LOCK: &str = "SELECT pg_advisory_xact_lock(5370014)";
    /// The authorization with the car it binds now (`vehicle_id`) and how many times the car
    /// was replaced (`substitutions`).
    pub const SELECT_AUTHORIZATION: &str = concat!(
        "SELECT a.id, a.number, a.driver_id, ",
        current_vehicle!(),
        " AS vehicle_id, a.fee_paid_on, \
        a.valid_from, a.valid_until, a.legal_basis_version, a.granted_at, a.granted_by, a.protocolled_on, \
        r.revoked_at, r.revoked_by, \
        r.reason, (SELECT COUNT(*) FROM app_vehicle_substitutions s WHERE s.authorization_id = a.id) AS substitutions \
        FROM app_authorizations a LEFT JOIN app_authorization_revocations r ON r.authorization_id = a.id \
        WHERE a.id = $1"
    );
    /// The documents in force of an authorization: those of its latest car (APP-ART8-P2).
    pub const SELECT_DOCUMENTS_OF: &str = concat!(
        "SELECT ",
        document_columns!(),
        " FROM documents d \
        WHERE d.authorization_id = $1 AND COALESCE(d.substitution_seq, 0) = COALESCE((SELECT MAX(s.seq) \
        FROM app_vehicle_substitutions s WHERE s.authorization_id = d.authorization_id), 0) ORDER BY d.kind"
    );
    pub const SELECT_DECREED_DAYS: &str =
        "SELECT date, kind, description, act FROM calendar_days ORDER BY date";
    pub const INSERT_DECREED_DAY: &str = "INSERT INTO calendar_days (date, kind, description, act, created_at, \
        created_by) VALUES ($1, $2, $3, $4, $5, $6)";
    pub const INSERT_SANCTION: &str = "INSERT INTO app_authorization_sanctions (authorization_id, kind, \
        effective_from, until, reason, legal_basis, created_at, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
    pub const SELECT_SANCTIONS: &str = "SELECT kind, effective_from, until, reason, legal_basis \
        FROM app_authorization_sanctions_in_force WHERE authorization_id = $1 ORDER BY id";
    /// The acts in force (issue 13, item 1: rectifications applied, and left out).
    pub const SELECT_EVENTS: &str = "SELECT e.id, e.kind, e.actor, COALESCE(o.name, e.actor) AS actor_name, \
        e.reason, e.legal_basis_version, e.occurred_at, e.data \
        FROM events_in_force e LEFT JOIN officials o ON o.id = e.actor \
        WHERE e.entity_type = $1 AND e.entity_id = $2 ORDER BY e.id";
    /// Every act as recorded, rectifications included (the history endpoints).
    pub const SELECT_HISTORY: &str = "SELECT e.id, e.kind, e.actor, COALESCE(o.name, e.actor) AS actor_name, \
        e.reason, e.legal_basis_version, e.occurred_at, e.data \
        FROM events e LEFT JOIN officials o ON o.id = e.actor \
        WHERE e.entity_type = $1 AND e.entity_id = $2 ORDER BY e.id";
    pub const INSERT_UPF: &str = "INSERT INTO upf_values (year, centavos, act, created_at, created_by) \
        VALUES ($1, $2, $3, $4, $5)";
    pub const SELECT_UPF: &str = "SELECT centavos FROM upf_values WHERE year = $1";
    pub const SELECT_UPF_ENTRY: &str = "SELECT centavos, act FROM upf_values WHERE year = $1";
    pub const SELECT_PRIOR_AUTOS: &str = "SELECT infraction_id, committed_on FROM app_infraction_autos WHERE driver_id = $1 ORDER BY committed_on";
    pub const INSERT_ISSUED_NUMBER: &str = "INSERT INTO document_numbers (number, series, year, seq, state, \
        reserved_at, closed_at, reserved_by) VALUES ($1, $2, $3, $4, 'issued', $5, $5, $6)";
    pub const INSERT_AUTO: &str = "INSERT INTO app_infraction_autos (id, number, infraction_id, driver_id, \
        authorization_id, committed_at, committed_on, place, facts, inspector, drawn_up_at, fine_upf, fine_centavos, \
        consequences, legal_basis_version, created_by) \
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)";
    pub const SELECT_AUTO: &str = "SELECT a.id, a.number, a.infraction_id, a.driver_id, a.authorization_id, \
        a.committed_at, a.committed_on, a.place, a.facts, a.inspector, a.drawn_up_at, a.fine_upf, a.fine_centavos, \
        a.consequences, a.legal_basis_version, n.method, n.notified_on, n.juntada_on FROM app_infraction_autos a \
        LEFT JOIN app_auto_notices_in_force n ON n.auto_id = a.id WHERE a.id = $1";
    pub const SELECT_AUTOS_OF_DRIVER: &str = "SELECT a.id, a.number, a.infraction_id, a.driver_id, \
        a.authorization_id, a.committed_at, a.committed_on, a.place, a.facts, a.inspector, a.drawn_up_at, a.fine_upf, \
        a.fine_centavos, a.consequences, a.legal_basis_version, n.method, n.notified_on, n.juntada_on \
        FROM app_infraction_autos a LEFT JOIN app_auto_notices_in_force n ON n.auto_id = a.id WHERE a.driver_id = $1 \
        ORDER BY a.committed_at DESC, a.number DESC";
    pub const AUTO_EXISTS: &str = "SELECT COUNT(*) FROM app_infraction_autos WHERE id = $1";
    pub const INSERT_NOTIFICATION: &str = "INSERT INTO app_auto_notifications (auto_id, method, notified_on, \
        juntada_on, recorded_at, recorded_by) VALUES ($1, $2, $3, $4, $5, $6)";
    pub const INSERT_PLATFORM: &str = "INSERT INTO platforms (id, cnpj, name, insurance_policy, insurer, \
        insurance_cover_centavos, insurance_valid_until, fee_paid_on, valid_until, legal_basis_version, created_at, \
        created_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)";
    pub const SELECT_PLATFORM: &str = "SELECT id, cnpj, name, insurance_policy, insurer, insurance_cover_centavos, \
        insurance_valid_until, fee_paid_on, valid_until, legal_basis_version, created_at FROM platforms WHERE id = $1";
    pub const INSERT_DATA_REQUEST: &str = "INSERT INTO data_requests (id, platform_id, justification, scope, \
        notified_at, due_at, created_at, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
    pub const SELECT_DATA_REQUEST: &str = "SELECT r.id, r.platform_id, r.justification, r.scope, r.notified_at, \
        r.due_at, d.delivered_at, d.sha256, d.signer FROM data_requests r \
        LEFT JOIN data_request_deliveries_in_force d ON d.request_id = r.id WHERE r.id = $1";
    pub const INSERT_DELIVERY: &str = "INSERT INTO data_request_deliveries (request_id, delivered_at, sha256, signer, \
        recorded_at, recorded_by) VALUES ($1, $2, $3, $4, $5, $6)";
    /// A document with the plate of the car it was issued for, whether a replacement of the
    /// car has superseded it since (APP-ART8-P2), and its authorization's sanctions: one row
    /// per sanction (one row when none), so verification reads it all in one round trip.
    pub const SELECT_DOCUMENT_STATUS: &str = concat!(
        "SELECT ",
        document_columns!(),
        ", v.plate, a.valid_until AS authorization_valid_until, \
        r.revoked_at, a.granted_at, (SELECT MAX(s.seq) \
        FROM app_vehicle_substitutions s WHERE s.authorization_id = a.id) AS latest_substitution, a.driver_id, ",
        current_vehicle!(),
        " AS vehicle_id, sa.kind AS sanction_kind, sa.effective_from AS sanction_from, \
        sa.until AS sanction_until, sa.reason AS sanction_reason, sa.legal_basis AS sanction_basis, \
        v.make AS vehicle_make, v.model AS vehicle_model, v.color AS vehicle_color, dr.name AS driver_name, \
        (SELECT COUNT(*) FROM driver_photos ph WHERE ph.driver_id = a.driver_id) AS driver_photos \
        FROM documents d JOIN app_authorizations a ON a.id = d.authorization_id \
        JOIN vehicles v ON v.id = COALESCE((SELECT s.new_vehicle_id FROM app_vehicle_substitutions s \
        WHERE s.authorization_id = a.id AND s.seq = d.substitution_seq), a.vehicle_id) \
        JOIN drivers dr ON dr.id = a.driver_id \
        LEFT JOIN app_authorization_revocations r ON r.authorization_id = a.id \
        LEFT JOIN app_authorization_sanctions_in_force sa ON sa.authorization_id = a.id WHERE d.id = $1 ORDER BY sa.id"
    );
    pub const SELECT_REVOCATION: &str = "SELECT revoked_at, revoked_by, reason FROM app_authorization_revocations \
        WHERE authorization_id = $1";
    pub const AUTHORIZATION_EXISTS: &str = "SELECT COUNT(*) FROM app_authorizations WHERE id = $1";
    pub const LOCK_DRIVER: &str = "SELECT id FROM drivers WHERE id = $1 FOR UPDATE";
    pub const LOCK_VEHICLE: &str = "SELECT id FROM vehicles WHERE id = $1 FOR UPDATE";
    pub const LOCK_AUTHORIZATION: &str =
        "SELECT COUNT(*) FROM (SELECT id FROM app_authorizations WHERE id = $1 FOR UPDATE) x";
    pub const INSERT_REVOCATION: &str = "INSERT INTO app_authorization_revocations (authorization_id, revoked_at, \
        revoked_by, reason) VALUES ($1, $2, $3, $4)";
}

// ---------------------------------------------------------------------------------------
// Rows shared by both backends, parsed back into domain values.

#[derive(sqlx::FromRow)]
pub(crate) struct DriverRow {
    id: String,
    name: String,
    cpf: String,
    cnh_number: String,
    cnh_category: String,
    cnh_first_license_date: NaiveDate,
    cnh_ear: bool,
    cnh_expires_on: NaiveDate,
    created_at: DateTime<Utc>,
    record: Option<String>,
}

impl TryFrom<DriverRow> for Driver {
    type Error = StorageError;
    fn try_from(r: DriverRow) -> Result<Self, StorageError> {
        Ok(Driver {
            id: parse_uuid(&r.id)?,
            cpf: Cpf::parse(&r.cpf).map_err(|_| corrupt("cpf", &r.id))?,
            cnh: Cnh {
                number: CnhNumber::parse(r.cnh_number.trim())
                    .map_err(|_| corrupt("cnh_number", &r.id))?,
                category: CnhCategory::parse(&r.cnh_category)
                    .map_err(|_| corrupt("cnh_category", &r.id))?,
                first_license_date: r.cnh_first_license_date,
                ear: r.cnh_ear,
                expires_on: r.cnh_expires_on,
            },
            record: match &r.record {
                Some(json) => {
                    serde_json::from_str(json).map_err(|_| corrupt("driver record", &r.id))?
                }
                None => DriverRecord::default(),
            },
            name: r.name,
            created_at: r.created_at,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct VehicleRow {
    id: String,
    plate: String,
    renavam: String,
    make: String,
    model: String,
    color: String,
    model_year: i32,
    doors: i32,
    air_conditioning: bool,
    capacity_including_driver: i32,
    registration_municipality_ibge: i32,
    created_at: DateTime<Utc>,
    in_service_since: Option<NaiveDate>,
    owner_type: Option<String>,
    owner_document: Option<String>,
}

impl TryFrom<VehicleRow> for Vehicle {
    type Error = StorageError;
    fn try_from(r: VehicleRow) -> Result<Self, StorageError> {
        let owner = match (r.owner_type.as_deref(), r.owner_document) {
            (None, _) => None,
            (Some(t), Some(document)) => Some(crate::domain::ride_hailing::VehicleOwner {
                kind: crate::domain::ride_hailing::OwnerType::parse(t)
                    .ok_or_else(|| corrupt("owner_type", &r.id))?,
                document,
            }),
            (Some(_), None) => return Err(corrupt("owner_document", &r.id)),
        };
        Ok(Vehicle {
            owner,
            id: parse_uuid(&r.id)?,
            plate: Plate::parse(&r.plate).map_err(|_| corrupt("plate", &r.id))?,
            renavam: Renavam::parse(&r.renavam).map_err(|_| corrupt("renavam", &r.id))?,
            registration_municipality: IbgeCode::parse(
                &r.registration_municipality_ibge.to_string(),
            )
            .map_err(|_| corrupt("registration_municipality_ibge", &r.id))?,
            make: r.make,
            model: r.model,
            color: r.color,
            model_year: r.model_year,
            doors: r.doors,
            air_conditioning: r.air_conditioning,
            capacity_including_driver: r.capacity_including_driver,
            created_at: r.created_at,
            in_service_since: r.in_service_since,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct AuthorizationRow {
    id: String,
    number: String,
    driver_id: String,
    vehicle_id: String,
    fee_paid_on: NaiveDate,
    valid_from: NaiveDate,
    valid_until: NaiveDate,
    legal_basis_version: String,
    granted_at: DateTime<Utc>,
    granted_by: String,
    protocolled_on: Option<NaiveDate>,
    revoked_at: Option<DateTime<Utc>>,
    revoked_by: Option<String>,
    reason: Option<String>,
    substitutions: i64,
}

impl TryFrom<AuthorizationRow> for RideHailingAuthorization {
    type Error = StorageError;
    fn try_from(r: AuthorizationRow) -> Result<Self, StorageError> {
        let revocation = match (r.revoked_at, r.revoked_by, r.reason) {
            (Some(revoked_at), Some(revoked_by), Some(reason)) => Some(Revocation {
                revoked_at,
                revoked_by,
                reason,
            }),
            (None, None, None) => None,
            _ => return Err(corrupt("revocation", &r.id)),
        };
        Ok(RideHailingAuthorization {
            id: parse_uuid(&r.id)?,
            driver_id: parse_uuid(&r.driver_id)?,
            vehicle_id: parse_uuid(&r.vehicle_id)?,
            number: r.number,
            fee_paid_on: r.fee_paid_on,
            valid_from: r.valid_from,
            valid_until: r.valid_until,
            legal_basis_version: r.legal_basis_version,
            granted_at: r.granted_at,
            granted_by: r.granted_by,
            protocolled_on: r.protocolled_on,
            revocation,
            substitutions: u32::try_from(r.substitutions)
                .map_err(|_| corrupt("substitutions", &r.id))?,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct RevocationRow {
    revoked_at: DateTime<Utc>,
    revoked_by: String,
    reason: String,
}

impl From<RevocationRow> for Revocation {
    fn from(r: RevocationRow) -> Self {
        Revocation {
            revoked_at: r.revoked_at,
            revoked_by: r.revoked_by,
            reason: r.reason,
        }
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct DocumentStatusRow {
    #[sqlx(flatten)]
    meta: documents::DocumentRow,
    plate: String,
    authorization_valid_until: NaiveDate,
    revoked_at: Option<DateTime<Utc>>,
    granted_at: DateTime<Utc>,
    latest_substitution: Option<i32>,
    driver_id: String,
    vehicle_id: String,
    sanction_kind: Option<String>,
    sanction_from: Option<NaiveDate>,
    sanction_until: Option<NaiveDate>,
    sanction_reason: Option<String>,
    sanction_basis: Option<String>,
    vehicle_make: String,
    vehicle_model: String,
    vehicle_color: String,
    driver_name: String,
    driver_photos: i64,
}

/// The status of a document from its rows (one per sanction of its authorization).
pub(crate) fn document_status_from_rows(
    rows: Vec<DocumentStatusRow>,
) -> Result<Option<DocumentStatus>, StorageError> {
    let mut sanctions = Vec::new();
    let mut first = None;
    for mut r in rows {
        if let (Some(kind), Some(effective_from), Some(reason), Some(legal_basis)) = (
            r.sanction_kind.take(),
            r.sanction_from,
            r.sanction_reason.take(),
            r.sanction_basis.take(),
        ) {
            sanctions.push(Sanction::try_from(SanctionRow {
                kind,
                effective_from,
                until: r.sanction_until,
                reason,
                legal_basis,
            })?);
        }
        if first.is_none() {
            first = Some(r);
        }
    }
    let Some(row) = first else {
        return Ok(None);
    };
    let mut status = DocumentStatus::try_from(row)?;
    status.sanctions = sanctions;
    Ok(Some(status))
}

impl TryFrom<DocumentStatusRow> for DocumentStatus {
    type Error = StorageError;
    fn try_from(r: DocumentStatusRow) -> Result<Self, StorageError> {
        let meta = documents::Document::try_from(r.meta)?;
        let id = meta.id.to_string();
        let plate = Plate::parse(&r.plate).map_err(|_| corrupt("plate", &id))?;
        Ok(DocumentStatus {
            authorization_id: meta
                .authorization_id
                .ok_or_else(|| corrupt("authorization_id", &id))?,
            substitution_seq: meta.substitution_seq,
            meta,
            plate,
            valid_until: r.authorization_valid_until,
            revoked_at: r.revoked_at,
            granted_at: r.granted_at,
            latest_substitution: r.latest_substitution,
            driver_id: parse_uuid(&r.driver_id)?,
            vehicle_id: parse_uuid(&r.vehicle_id)?,
            sanctions: Vec::new(),
            car: CarDescription {
                make: r.vehicle_make,
                model: r.vehicle_model,
                color: r.vehicle_color,
            },
            driver_name: r.driver_name,
            driver_photo: r.driver_photos > 0,
        })
    }
}

/// An event to append: who did what to which entity, when, why, under which legal basis.
pub(crate) struct NewEvent<'a, R, B> {
    pub entity_type: &'a str,
    pub entity_id: String,
    pub kind: &'a str,
    pub actor: &'a str,
    pub reason: R,
    pub legal_basis_version: B,
    pub at: DateTime<Utc>,
    pub data: String,
}

/// Any text argument of `append_event!`.
pub(crate) fn text<T: AsRef<str> + ?Sized>(t: &T) -> &str {
    t.as_ref()
}

/// A text argument of `append_event!` that may be absent (`reason`, `legal_basis_version`).
pub(crate) trait MaybeText {
    fn maybe_text(&self) -> Option<&str>;
}

impl MaybeText for str {
    fn maybe_text(&self) -> Option<&str> {
        Some(self)
    }
}

impl MaybeText for String {
    fn maybe_text(&self) -> Option<&str> {
        Some(self)
    }
}

impl<T: MaybeText + ?Sized> MaybeText for &T {
    fn maybe_text(&self) -> Option<&str> {
        (**self).maybe_text()
    }
}

impl<T: AsRef<str>> MaybeText for Option<T> {
    fn maybe_text(&self) -> Option<&str> {
        self.as_ref().map(AsRef::as_ref)
    }
}

pub(crate) fn opt_text<T: MaybeText + ?Sized>(t: &T) -> Option<&str> {
    t.maybe_text()
}

/// The data column of an event, as JSON text.
pub(crate) fn event_data(value: &serde_json::Value) -> String {
    value.to_string()
}

#[derive(sqlx::FromRow)]
pub(crate) struct DecreedDayRow {
    date: NaiveDate,
    kind: String,
    description: String,
    act: Option<String>,
}

/// The stored name of a decreed day kind.
pub(crate) fn day_kind_name(kind: DayKind) -> &'static str {
    match kind {
        DayKind::Municipal => "municipal",
        DayKind::Recess => "recess",
        _ => "ponto_facultativo",
    }
}

impl TryFrom<DecreedDayRow> for ClosedDay {
    type Error = StorageError;
    fn try_from(r: DecreedDayRow) -> Result<Self, StorageError> {
        let kind = match r.kind.as_str() {
            "municipal" => DayKind::Municipal,
            "ponto_facultativo" => DayKind::PontoFacultativo,
            "recess" => DayKind::Recess,
            _ => return Err(corrupt("kind", &r.date.to_string())),
        };
        Ok(ClosedDay {
            date: r.date,
            kind,
            description: r.description,
            act: r.act,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct SanctionRow {
    kind: String,
    effective_from: NaiveDate,
    until: Option<NaiveDate>,
    reason: String,
    legal_basis: String,
}

impl TryFrom<SanctionRow> for Sanction {
    type Error = StorageError;
    fn try_from(r: SanctionRow) -> Result<Self, StorageError> {
        Ok(Sanction {
            kind: SanctionKind::parse(&r.kind)
                .ok_or_else(|| corrupt("sanction kind", &r.effective_from.to_string()))?,
            effective_from: r.effective_from,
            until: r.until,
            reason: r.reason,
            legal_basis: r.legal_basis,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct AutoRow {
    id: String,
    number: String,
    infraction_id: String,
    driver_id: String,
    authorization_id: Option<String>,
    committed_at: DateTime<Utc>,
    committed_on: NaiveDate,
    place: String,
    facts: String,
    inspector: String,
    drawn_up_at: DateTime<Utc>,
    fine_upf: i64,
    fine_centavos: Option<i64>,
    consequences: String,
    legal_basis_version: String,
    method: Option<String>,
    notified_on: Option<NaiveDate>,
    juntada_on: Option<NaiveDate>,
}

impl TryFrom<AutoRow> for RideHailingAuto {
    type Error = StorageError;
    fn try_from(r: AutoRow) -> Result<Self, StorageError> {
        let notification = match (r.method, r.notified_on, r.juntada_on) {
            (Some(method), Some(notified_on), Some(juntada_on)) => Some(AutoNotification {
                method,
                notified_on,
                juntada_on,
            }),
            _ => None,
        };
        Ok(RideHailingAuto {
            id: parse_uuid(&r.id)?,
            driver_id: parse_uuid(&r.driver_id)?,
            authorization_id: r.authorization_id.as_deref().map(parse_uuid).transpose()?,
            consequences: serde_json::from_str(&r.consequences)
                .map_err(|_| corrupt("consequences", &r.id))?,
            number: r.number,
            infraction_id: r.infraction_id,
            committed_at: r.committed_at,
            committed_on: r.committed_on,
            place: r.place,
            facts: r.facts,
            inspector: r.inspector,
            drawn_up_at: r.drawn_up_at,
            fine_upf: r.fine_upf,
            fine_centavos: r.fine_centavos,
            legal_basis_version: r.legal_basis_version,
            notification,
        })
    }
}
