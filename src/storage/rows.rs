//! Rows shared by both backends, parsed back into domain values: a bad row is
//! `StorageError::Corrupt`, never a wrong document.

use super::{
    AutoNotification, CarDescription, ClosedDay, Cnh, CnhCategory, CnhNumber, Cpf, DateTime,
    DayKind, DocumentStatus, Driver, DriverRecord, IbgeCode, NaiveDate, Plate, Renavam, Revocation,
    RideHailingAuthorization, RideHailingAuto, Sanction, SanctionKind, StorageError, Utc, Vehicle,
    corrupt, documents, parse_uuid,
};

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
    manufacture_year: Option<i32>,
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
            manufacture_year: r.manufacture_year,
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
    renewal_of: Option<String>,
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
            renewal_of: r.renewal_of.as_deref().map(parse_uuid).transpose()?,
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

impl DocumentStatusRow {
    /// The document's id as the row holds it.
    pub(crate) fn document_id(&self) -> &str {
        self.meta.id()
    }
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
